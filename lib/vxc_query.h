/* vxc_query.h: queries on solids: the volume of interference and the contact metrics of
 * two solids or of one cell pair, and mass properties. Conventions of vxc.h apply (SI
 * units, statuses, ownership). */
#ifndef VXC_QUERY_H
#define VXC_QUERY_H

#include <signal.h>
#include <stddef.h>

#include "vxc_force.h"
#include "vxc_normal.h"
#include "vxc_solid.h"
#include "vxc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- queries: volume of interference, contact metrics, mass properties ------------- */

/* How finely a query integrates. Stopping rules (thesis section 4.5 and 6.3):
 * - rtol > 0: refine where the leaves' error estimates are largest until their sum
 *   (error_estimate) is <= max(rtol * V, atol), or, with `certified`, where the certified
 *   volume bracket is widest until its width is (or a cap stops it); `voxel` > 0 is then a
 *   floor on the leaf edge;
 * - rtol = 0, voxel > 0: refine every curved boundary box down to the leaf edge `voxel`
 *   (the thesis's voxel size, e.g. h = (df / k_v)^(1/3) for a negligible force df). */
typedef struct vxc_query_options {
  double voxel;        /* leaf edge, m (0: none) */
  double rtol;         /* relative volume tolerance (0: use voxel) */
  double atol;         /* with rtol: a bracket of at most atol m^3 is enough too, so a
                          grazing contact (V near 0) costs no more than a deep one (0) */
  int certified;       /* with rtol: 1 stops on the certified bracket's width (a guarantee,
                          at a higher cost), 0 on the error estimate (0) */
  long long max_boxes; /* work cap per cell pair: boxes classified (0: 2e7) */
  size_t max_bytes;    /* memory cap of a query's workspace, bytes (0: 64 MiB); like
                          max_boxes, reaching it ends refinement with `capped` set */
  int threads;         /* threads per query, the caller's included (>= 1) */
  double theta_c;      /* normal iteration: convergence angle, rad (1 degree) */
  double r_n;          /* weight of the previous normal in the guess (0.95) */
  int n_i;             /* most iterations (15) */
  int region;          /* 1: keep the region each pair's octree integrated, for
                          vxc_query_region (on any number of threads; the figures are the
                          same, but for the penetration bracket of two convex cells, which
                          the region tightens) (0) */
  int patches;         /* 1: split each pair's interference into contact patches, its
                          connected parts (vxc_pair_metrics.patch): a pair with a cell that
                          is not convex is split from its octree's elements; two convex
                          cells, or a pair in closed form, are one patch; a pair with one
                          patch gives it its own figures, bit for bit. 0: no patches, one
                          contact per pair (1) */
  int closed_form;     /* 1: a cell pair whose interference is a ball's cap by a plane (a
                          ball or a round tip on a face) or two balls' lens, met by no other
                          surface of the cells, is measured in closed form, exact up to
                          rounding, whatever voxel or rtol asks (its region is one leaf,
                          the interference's bounding box); a ball against a cylinder (in a
                          bore or groove, or on a rod) by quadrature along the axis, to about
                          1e-12, and a rod, a cone or a ball against a bore or a
                          countersink (a peg's shaft or chamfer in its hole, a cone in its
                          countersink, cut by planes) or a ball cut by two planes (over an
                          edge) by quadrature about the bore's axis or the edge,
                          by their error estimates, when within the asked rtol (a fixed
                          voxel: 1e-6 of V; not with `certified`); 0: always by the octree
                          (1) */
  int linear_leaves;   /* 1: every octree leaf by its linearised surfaces (the octree's own
                          voxels, as a picture of the region wants); 0: a leaf crossed by no
                          curved surface but a rod and a bore of the two cells, their axes
                          within 20 degrees, or (rtol rule) a torus and a plane, is integrated
                          by quadrature about the axis (quadrature_leaves; not with
                          `certified`) (0) */
  const volatile sig_atomic_t *stop; /* NULL, or a flag the caller may set from another
                          thread or a signal handler: a query under way then ends within
                          about a millisecond and returns VXC_ERR_STOPPED, its figures
                          those reached, flagged capped (NULL) */
} vxc_query_options;

/* One connected part of a cell pair's interference (vxc_query_options.patches): the
 * octree's boxes and leaves of the pair that touch one another (closed cubes that share a
 * face, an edge or a corner), measured as if the part were a pair of its own. */
typedef struct vxc_patch {
  double volume;               /* m^3 (> 0) */
  double volume_lo, volume_hi; /* certified bracket, m^3 */
  double error_estimate;       /* m^3 */
  double centroid[3];          /* world, m */
  double inertia[9];           /* about the centroid, m^5, row-major */
  double normal[3];            /* unit, from A toward B: J's eigenvector nearest the
                                  patch's area vector (the pair's normal when it has none) */
  double area;                 /* |area vector of A's surface in the patch|, m^2 */
  double penetration;          /* the patch's extent along its normal, m: the middle of */
  double penetration_lo;       /* this certified bracket, m, of the patch's leaves and */
  double penetration_hi;       /* boxes (the spread of their cubes along the normal above,
                                  of its whole boxes and leaf centroids below, within the
                                  cells' support planes along it): its width is at most the
                                  boundary leaves' edge times sqrt 3. A pair with one patch
                                  gives it its own three (exact for two convex cells) */
  int normal_flags;            /* VXC_NORMAL_* */
  long long boxes;             /* octree elements (boxes and leaves) in the patch */
} vxc_patch;

/* rtol = 1e-3, voxel = 0, one thread, theta_c = 1 degree, r_n = 0.95, n_i = 15, closed
 * forms on, patches on. */
VXC_API void vxc_query_options_default(vxc_query_options *o);

/* The contact of one cell pair. */
typedef struct vxc_pair_metrics {
  int cell_a, cell_b;          /* cell indices in solid A and solid B */
  const char *name_a, *name_b; /* cell names (owned by the solids) */
  vxc_contact_geometry geom;   /* V (m^3), centroid p_c (world, m), J about p_c (m^5),
                                  normal n (unit, from A toward B): J's eigenvector where the
                                  overlap is thin along it and it lies within 3 degrees of
                                  normal_geo, else blended into the guess (lib/README.md,
                                  section 3) */
  double volume_lo, volume_hi; /* certified bracket of the true V, m^3 (but for closed_form 2
                                  and quadrature_leaves) */
  double error_estimate;       /* estimate of |V - true V|, m^3: the octree leaves' coarse
                                  against fine differences (the bracket's width where no
                                  finer level ran, as with a fixed voxel; 0 when exact) */
  double normal_geo[3];        /* the geometric estimate n started from (unit) */
  int normal_from_mpr;         /* 0: n_geo is the area vector of A's surface inside B;
                                  1: libccd's MPR direction (used only when there is no
                                  area vector: A wholly inside B) */
  int normal_flags;            /* VXC_NORMAL_* (BLENDED or DEGENERATE also when the overlap's
                                  shape or normal_geo set the eigenvector aside) */
  double r_gyr;                /* radius of gyration about n, m */
  double depth;                /* the thesis's penetration measure x = -V^(1/3), m (< 0; a
                                  volume's scale, not a distance along n) */
  double penetration;          /* largest penetration along n, m: the extent of the
                                  interference along n (of its deepest patch, below).
                                  Two convex cells (in vxc_query_run, not a
                                  tracked pair's step): the length of
                                  the segment from one body's deepest point along n back
                                  through both cells (a sphere or a box corner on a face:
                                  the depth; two spheres: the overlap along the line of
                                  centres); else the middle of the bracket below when the
                                  region was kept, else its upper end. The distance a
                                  point-contact law (vxc_point_eval) takes as x; the
                                  volumetric model uses V, never this */
  double penetration_lo;       /* certified bracket of that extent, m: above, the slab */
  double penetration_hi;       /* between the cells' support planes (their convex hulls'
                                  for cells that are not convex), and the spread of the
                                  region's cubes along n when it was kept
                                  (options.region or patches); below, the convex cells'
                                  segment and the spread of the region's whole boxes and
                                  leaf centroids (else 0). With the region its width is
                                  at most the boundary leaves' edge times sqrt 3. A pair
                                  whose region has several connected parts (contact
                                  patches, counted whether or not options.patches lists
                                  them) takes the largest part's extent along that part's
                                  normal, never the span across the parts: penetration,
                                  _lo and _hi are each the largest of the patches' (see
                                  vxc_patch) */
  double area;                 /* contact area estimate A_c (area vector length), m^2 */
  long long boxes, leaves;     /* work: boxes classified, boundary leaves integrated */
  long long quadrature_leaves; /* of those leaves, integrated by quadrature about an axis (a
                                  rod in a bore, a torus on a plane: the revolution rule,
                                  voxel/README.md): their share of the bracket is the
                                  quadrature's estimated error, not certified */
  int level;                   /* deepest octree level */
  int capped;                  /* 1 when the work or memory cap stopped refinement before
                                  the options' rtol or voxel was reached: the result is
                                  less accurate than asked (the bracket still holds) */
  double leaf_min;             /* edge of the smallest leaf integrated, m (0: none) */
  int closed_form;             /* 1 when measured in closed form (options.closed_form): no
                                  octree, one leaf (the region's one element), error_estimate
                                  0; 2 by quadrature (a ball against a cylinder or over an
                                  edge, a rod, a cone or a ball against a bore or a
                                  countersink): one leaf,
                                  error_estimate the
                                  quadrature's, the bracket not certified */
  double workspace_bytes;      /* memory the query's workspace held at its peak, bytes */
  double time_ms;              /* wall time of this pair, ms */
  int npatch;                  /* contact patches (options.patches, at least 1; else 0) */
  const vxc_patch *patch;      /* owned by the query, valid until its next run or free;
                                  in decreasing order of volume; their volumes, brackets
                                  and estimates sum to the pair's */
} vxc_pair_metrics;

/* The contacts of two solids. */
typedef struct vxc_metrics {
  int contact;                  /* 1 when at least one cell pair overlaps */
  double distance;              /* when apart: distance between the closest cells, m,
                                   frame-free: exact for two convex cells and where a
                                   cell that is one mesh alone meets another such mesh
                                   (the least triangle-triangle distance) or a convex
                                   cell (the least triangle-cell GJK distance, to 2e-12
                                   of their size); else the distance between the cells'
                                   convex hulls, a lower bound; 0 in contact */
  int distance_exact;           /* 1 when `distance` is exact, 0 when a lower bound */
  int npair;                    /* overlapping cell pairs */
  const vxc_pair_metrics *pair; /* owned by the query; valid until its next run or free */
  double volume;                /* total V over the pairs, m^3 */
  double centroid[3];           /* centroid of all pairs' volumes together, world, m */
  int candidates;               /* cell pairs whose bounding boxes overlapped */
  int capped;                   /* 1 when any pair is capped (see vxc_pair_metrics) */
  double time_ms;               /* wall time of the query, ms */
} vxc_metrics;

/* A reusable query workspace (buffers, threads). One query at a time per workspace. */
typedef struct vxc_query vxc_query;

/* Creates a workspace. `al` may be NULL (malloc); it is copied. Returns VXC_OK,
 * VXC_ERR_ARG (out NULL), VXC_ERR_NOMEM; *out untouched on error, err (may be NULL) saying
 * why. */
VXC_API vxc_status vxc_query_create(const vxc_allocator *al, vxc_query **out, vxc_error *err);

/* Frees a workspace (and the metrics it returned); NULL is a no-op. */
VXC_API void vxc_query_free(vxc_query *q);

/* Previous normal of a cell pair, for the normal's guess (A.31): returns 1 and fills n
 * (unit, world) when the pair had a normal at the previous step, else 0. */
typedef int (*vxc_prev_normal_fn)(void *ud, int cell_a, int cell_b, double n[3]);

/* Contact metrics of solid A at pose_a and solid B at pose_b (NULL: identity): a broad
 * phase over the cells' bounding boxes, libccd MPR for two convex cells, the octree for
 * the others, then V with its bracket, p_c, J, the normal (J's eigenvector nearest the
 * geometric estimate: MPR's direction, or the area vector where MPR's disagrees with it
 * by more than 30 degrees or the cells are not both convex) and the rest per overlapping
 * pair (in the order of A's cells, then B's). `opt` NULL: defaults. `prev` may be NULL.
 * Returns VXC_OK (contact), VXC_NO_CONTACT (apart: out->distance set), VXC_ERR_ARG (a
 * NULL solid, a bad pose or option: the message names it), VXC_ERR_NOMEM,
 * VXC_ERR_NUMERIC, VXC_ERR_STOPPED (opt->stop was set). *out is untouched on error. */
VXC_API vxc_status vxc_query_run(vxc_query *q, const vxc_solid *a, const vxc_pose *pose_a,
                                 const vxc_solid *b, const vxc_pose *pose_b,
                                 const vxc_query_options *opt, vxc_prev_normal_fn prev,
                                 void *prev_ud, vxc_metrics *out, vxc_error *err);

/* The same for one cell pair (cell_a of A, cell_b of B), whatever the broad phase says.
 * With grid_h > 0 the volume is instead counted on a uniform grid of cubes of edge grid_h
 * classified by their centres (the benchmark's baseline: no bracket, no normal).
 * Returns VXC_OK, VXC_NO_CONTACT (out filled with zero volume), errors as vxc_query_run. */
VXC_API vxc_status vxc_query_pair(vxc_query *q, const vxc_solid *a, int cell_a,
                                  const vxc_pose *pose_a, const vxc_solid *b, int cell_b,
                                  const vxc_pose *pose_b, const vxc_query_options *opt,
                                  double grid_h, vxc_pair_metrics *out, vxc_error *err);

/* One element of the region a query integrated (vxc_query_options.region): a box of the
 * octree wholly inside both cells of a pair, or a boundary leaf with the part of the
 * interference inside it. Boxes have edges along the world axes: cubes, or under an rtol
 * rule columns (longer along one axis, where the surfaces are invariant along it). */
typedef struct vxc_region_box {
  int pair;                    /* the cell pair: index in vxc_metrics.pair (0 for
                                  vxc_query_pair) */
  int leaf;                    /* 0: a box wholly inside both cells; 1: a boundary leaf, or
                                  one part of one whose region lies in parts apart (each
                                  part an element with the same box) */
  int level;                   /* octree level below the root grid */
  int patch;                   /* its contact patch (index in the pair's patch list) when
                                  options.patches, else -1 */
  double center[3];            /* world, m */
  double size;                 /* edge, m (a column's across its axis) */
  double extent[3];            /* edges along the world axes, m (all `size` for a cube) */
  double volume;               /* volume of the interference inside the box, m^3 (the
                                  box's own for a whole box) */
  double volume_lo, volume_hi; /* its certified bracket, m^3 */
  double error_estimate;       /* the leaf's share of the pair's error_estimate, m^3 */
  double moments[10];          /* m0 (m^3), m1 (m^4), m2 (xx yy zz xy yz xz, m^5) of that
                                  volume about `center`, world axes */
  double area_vector[3];       /* of A's surface inside B within the box, m^2 */
  double bounds[6];            /* a bounding box of the interference inside the box, world,
                                  m (lo x y z, hi x y z; the box's own for a whole box, for
                                  a boundary leaf that of its integrated region and of its
                                  upper polyhedron, which holds the true region; for a
                                  pair measured in closed form or by quadrature, its one
                                  element, a box holding its region; inverted when it
                                  holds none): what contact patches are joined by */
} vxc_region_box;

/* The region the last vxc_query_run or vxc_query_pair of q integrated, when its options
 * asked for it (`region`; with `patches`, each element's patch): *boxes (owned by q, valid until its next run or free) and
 * *n. Per pair, the volumes sum to the pair's V, the brackets to [volume_lo, volume_hi], the
 * estimates to error_estimate; pairs not in contact have none. *n = 0 when the options
 * did not ask for it or nothing overlapped. Returns VXC_OK or VXC_ERR_ARG (a NULL
 * argument, which err, may be NULL, names). */
VXC_API vxc_status vxc_query_region(const vxc_query *q, const vxc_region_box **boxes, size_t *n,
                                    vxc_error *err);

/* Mass properties of a solid (or one cell). */
typedef struct vxc_mass_props {
  double volume;               /* m^3 */
  double volume_lo, volume_hi; /* certified bracket, m^3 */
  double error_estimate;       /* estimate of |V - true V|, m^3 (0 when exact) */
  double centroid[3];          /* solid frame, m */
  double inertia[9];           /* about the centroid, unit density, m^5, row-major */
  double density;              /* kg/m^3 used for the mass (0: none) */
  double mass;                 /* kg (0 without a density) */
  double mass_inertia[9];      /* density * inertia, kg m^2 (0 without a density) */
  long long boxes, leaves;
  int capped; /* 1 when the work or memory cap stopped refinement before the
                 options' rtol or voxel was reached (the bracket still holds) */
  double time_ms;
} vxc_mass_props;

/* Mass properties of cell `cell` of s (cell = -1: the whole solid, its cells taken as
 * disjoint), in the solid's frame. density > 0 overrides the solid's own; 0 uses it.
 * Returns VXC_OK, VXC_ERR_ARG (bad cell index or options), VXC_ERR_NOMEM. */
VXC_API vxc_status vxc_solid_mass(vxc_query *q, const vxc_solid *s, int cell, double density,
                                  const vxc_query_options *opt, vxc_mass_props *out,
                                  vxc_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VXC_QUERY_H */
