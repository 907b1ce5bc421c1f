/* internal.h: what the files of lib/ share (not installed). */
#ifndef VXC_LIB_INTERNAL_H
#define VXC_LIB_INTERNAL_H

#include "geom/geom.h"
#include "lib/vxc.h"

struct vxc_solid {
  vxc_allocator al; /* the caller's allocator, copied */
  vxg_solid *geom;
};

/* Converts a public pose to a transform; NULL means identity. VXC_ERR_ARG (message names
 * `what`) for a zero or non-finite quaternion or a non-finite position. */
vxc_status vxci_pose_xform(const vxc_pose *pose, vxg_xform *x, const char *what, vxc_error *err);

/* lib/patch.c: splits a cell pair's n region elements into contact patches: fills out[]
 * (room for n) in decreasing order of volume and box[i].patch; pair_normal stands in for a
 * patch without area vector. Returns the number of patches (0 when none holds volume), or
 * -1 when out of memory (through al). A single patch is not measured (out[] and box[].patch
 * untouched): it is the whole pair, whose figures the caller gives it. */
int vxci_patches(const vxc_allocator *al, vxc_region_box *box, size_t n, const vxc_query_options *o,
                 const double pair_normal[3], vxc_patch *out);

/* lib/normal.c: a contact's normal: vxc_normal_solve, but the eigenvector is taken only
 * where the overlap is thin along it (its central second moment along n at most 0.1 of
 * the smaller of the other two) and it lies within 3 degrees of n_geo; blended into the
 * guess up to 0.3 and 10 degrees, the guess beyond: an overlap about an edge (a wedge, or a
 * thin one curved along a rim) has eigenvectors that are no contact normal. Returns as
 * vxc_normal_solve. */
vxc_status vxci_contact_normal(const double J[9], const double n_geo[3],
                               const vxc_normal_options *o, vxc_normal_result *out);

/* lib/penetration.c: pm's penetration, penetration_lo and penetration_hi (see
 * vxc_pair_metrics) for cells ca and cb posed by ta and tb (cell -> world) along the unit
 * normal n, from their hulls and, when box is not NULL, the pair's nbox region elements;
 * exact 0 skips the segment through two convex cells (a tracked step's bracket). */
void vxci_penetration(const vxg_cell *ca, const vxg_xform *ta, const vxg_cell *cb,
                      const vxg_xform *tb, const double n[3], const vxc_region_box *box,
                      size_t nbox, int exact, vxc_pair_metrics *pm);
/* The same for each of a pair's npatch (> 1) patches, along the patch's normal from the
 * elements of the box[] whose `patch` is its index (the slab along that normal, and the
 * spread of those elements): patch[k].penetration, _lo, _hi; pm's are then the largest of
 * the patches' (the estimate, the low and the high end each). */
void vxci_patch_penetration(const vxg_cell *ca, const vxg_xform *ta, const vxg_cell *cb,
                            const vxg_xform *tb, const vxc_region_box *box, size_t nbox,
                            vxc_patch *patch, int npatch, vxc_pair_metrics *pm);

/* apart.c: a tracked pair's cell pairs proved apart with a reach (vxv_options.apart_reach),
 * by cell pair: the relative transform at the proof (B's cell frame into A's), the reach D
 * (m; 0: none) and whether the pair's last query found it in contact. */
typedef struct vxci_apart {
  vxg_xform rel;
  double reach;
  int touched;
  int wait; /* queries before a reach is asked for again (its last proof failed) */
} vxci_apart;
typedef struct vxci_apart_cache {
  const vxg_solid *a, *b; /* the solids whose cells it holds (others lay it anew) */
  int na, nb;
  vxci_apart *pair; /* na x nb */
  size_t cap;
} vxci_apart_cache;
/* 1 when cells i of a and j of b (world transforms ta, tb) were proved apart with a reach D
 * and neither has moved relative to the other by D since (apart.c's proof): they are still
 * apart, and need no query. *want_reach gets 1 unless the pair's last query found contact
 * or its last reach's proof failed within the last few queries (a reach is then not worth
 * asking for). Out of memory: 0, and no reach asked. */
int vxci_apart_skip(vxci_apart_cache *c, const vxc_allocator *al, const vxg_solid *a, int i,
                    const vxg_xform *ta, const vxg_solid *b, int j, const vxg_xform *tb,
                    int *want_reach);
/* Records the query of cells i and j: in contact (touched), or apart with the reach D of
 * vxv_result.apart_reach (0: none) at transforms ta, tb. */
void vxci_apart_note(vxci_apart_cache *c, const vxc_allocator *al, const vxg_solid *a, int i,
                     const vxg_xform *ta, const vxg_solid *b, int j, const vxg_xform *tb,
                     int touched, double reach);
/* Frees the cache's array and empties it. */
void vxci_apart_free(vxci_apart_cache *c, const vxc_allocator *al);

/* A cell pair's leaf-edge hint for vxci_query_run: h, the leaf edge to start from (m, 0:
 * none), which the query lowers to a halved edge that met the tolerance; too_coarse, which
 * it raises to a leaf edge whose estimate missed the tolerance (m, 0: none known), tol, that
 * tolerance (m^3), and age, which it zeroes then (the owner counts its steps since). */
typedef struct vxci_leaf_hint {
  double h;
  double too_coarse;
  double tol;
  int age;
} vxci_leaf_hint;

/* The hint of the pair (cell_a of A, cell_b of B), or NULL when it has none. */
typedef vxci_leaf_hint *(*vxci_leaf_hint_fn)(void *ud, int cell_a, int cell_b);

/* vxc_query_run with a per-pair leaf-edge hint (lib/metrics.c). Under the estimate rule
 * (rtol > 0, not certified, no region or patches), a pair with a hint h > 0 is measured on a
 * fixed leaf h (divided by VXCI_HINT_RATIO up to VXCI_HINT_REFINES times, not below the
 * options' voxel) whose
 * error estimate is the rtol rule's (|V_parent - sum of V_children|, from each final leaf's
 * parent; halved in families of third-order leaves); the first result whose estimate meets max(rtol V, atol) is kept (a finer leaf
 * becomes the hint's h, so that the next queries of a step do not miss again), else (or when
 * the fixed leaf finds no overlap) the pair is measured by the rtol rule as without a hint
 * (and flagged capped when that misses). A fixed leaf keeps the refinement pattern from one
 * query to the next, so the figures change smoothly with the poses. hint may be NULL; a
 * query with a hint function is a tracked pair's step, which reads no distance: apart, out's
 * distance is NaN (distance_exact 0), not computed. Statuses of vxc_query_run. */
#define VXCI_HINT_REFINES 5
/* The ladder of hinted leaf edges, a step of 2^(1/3): a step of 2 overshoots a contact
 * whose tolerance lies between two powers of two by up to 2.5 times the leaves. */
#define VXCI_HINT_RATIO 1.2599210498948732
vxc_status vxci_query_run(vxc_query *q, const vxc_solid *a, const vxc_pose *pose_a,
                          const vxc_solid *b, const vxc_pose *pose_b, const vxc_query_options *opt,
                          vxc_prev_normal_fn prev, void *prev_ud, vxci_leaf_hint_fn hint,
                          void *hint_ud, vxc_metrics *out, vxc_error *err);

#endif
