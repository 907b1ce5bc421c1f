/* vxc_metrics.h: contact normals and cell-pair tracking (included by <vxc/vxc.h>).
 *
 * The contact normal is the eigenvector of the volume of interference's inertia tensor J
 * closest to a guess (thesis A.3.3, lib/README.md section 3), found by shifted inverse
 * iteration. The tracker keeps, from step to step, which cell pairs of two solids are in
 * contact and which state slot each occupies (thesis A.4, lib/README.md section 11).
 * Conventions of vxc.h apply (SI units, statuses, ownership). */
#ifndef VXC_METRICS_H
#define VXC_METRICS_H

#include "vxc_types.h"
#include "vxc_force.h"
#include "vxc_solid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- contact normal ----------------------------------------------------------------- */

/* Flags describing how a normal was found. */
enum {
  VXC_NORMAL_CONVERGED = 1,  /* the iteration met the angle criterion */
  VXC_NORMAL_DEGENERATE = 2, /* J has no well-separated eigenvector near the guess (e.g. a
                                nearly isotropic overlap): the guess was returned */
  VXC_NORMAL_MAXITER = 4,    /* stopped after n_i iterations without meeting theta_c */
  VXC_NORMAL_BLENDED = 8     /* the eigenvalue's gap was only 1 to 4 times its uncertainty:
                                the eigenvector was blended with the guess */
};

/* The unit eigenvector of the symmetric tensor J (m^5, row-major 3x3) nearest the guess
 * n_guess = normalize((1 - r_n) n_geo + r_n n_prev) (n_geo alone when n_prev is NULL),
 * by inverse iteration shifted by the Rayleigh quotient of the guess, with the closed-form
 * adjugate of the 3x3 matrix. Stops when successive iterates are within theta_c (rad) or
 * after n_i iterations; a converged vector is then polished by two Rayleigh-quotient
 * steps, so it is the eigenvector to rounding, not just to within theta_c.
 * `j_rel_err` is the relative uncertainty of J (e.g. the volume bracket's relative width,
 * which overstates the moments' actual error by orders of magnitude; 0 for an exact J,
 * floored at 1e-12). The eigenvector is trusted when its eigenvalue stands apart from
 * the others by more than 4 times j_rel_err times the largest eigenvalue's magnitude; below
 * 1 time, as for the nearly isotropic J of a deep sphere-sphere overlap, the guess itself is
 * returned with VXC_NORMAL_DEGENERATE; in between, the normalised blend w n_eig + (1 - w)
 * n_guess with w rising linearly from 0 to 1, flagged VXC_NORMAL_BLENDED, so that n is a
 * continuous function of J and the guess. The result is oriented so that n . n_geo > 0.
 * n_geo need not be unit but must be non-zero. `flags` and `iterations` may be NULL.
 * Returns VXC_OK, or VXC_ERR_ARG (zero or non-finite n_geo, non-finite J, r_n outside
 * [0, 1), n_i < 1, theta_c <= 0, negative or non-finite j_rel_err); n_out untouched on
 * error. */
VXC_API vxc_status vxc_normal_from_inertia(const double J[9], const double n_geo[3],
                                           const double *n_prev, double theta_c, double r_n,
                                           int n_i, double j_rel_err, double n_out[3], int *flags,
                                           int *iterations);

/* Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations (the
 * reference the inverse iteration is tested against). Eigenvalues ascending in eval;
 * eigenvectors as the columns of evec (row-major), right-handed. Returns VXC_OK or
 * VXC_ERR_NUMERIC (non-finite input or no convergence in 50 sweeps). */
VXC_API vxc_status vxc_sym3_eigen(const double a[9], double eval[3], double evec[9]);

/* ---- queries: volume of interference, contact metrics, mass properties ------------- */

/* How finely a query integrates. Stopping rules (thesis section 4.5 and 6.3):
 * - rtol > 0: refine where the certified volume bracket is widest until its width is
 *   <= rtol * V (or the work cap); `voxel` > 0 is then a floor on the leaf edge;
 * - rtol = 0, voxel > 0: refine every curved boundary box down to the leaf edge `voxel`
 *   (the thesis's voxel size, e.g. h = (df / k_v)^(1/3) for a negligible force df). */
typedef struct vxc_query_options {
  double voxel;        /* leaf edge, m (0: none) */
  double rtol;         /* relative volume tolerance (0: use voxel) */
  double atol;         /* with rtol: a bracket of at most atol m^3 is enough too, so a
                          grazing contact (V near 0) costs no more than a deep one (0) */
  long long max_boxes; /* work cap per cell pair: boxes classified (0: 2e7) */
  int threads;         /* threads per query, the caller's included (>= 1) */
  double theta_c;      /* normal iteration: convergence angle, rad (1 degree) */
  double r_n;          /* weight of the previous normal in the guess (0.95) */
  int n_i;             /* most iterations (15) */
} vxc_query_options;

/* rtol = 1e-3, voxel = 0, one thread, theta_c = 1 degree, r_n = 0.95, n_i = 15. */
VXC_API void vxc_query_options_default(vxc_query_options *o);

/* The contact of one cell pair. */
typedef struct vxc_pair_metrics {
  int cell_a, cell_b;          /* cell indices in solid A and solid B */
  const char *name_a, *name_b; /* cell names (owned by the solids) */
  vxc_contact_geometry geom;   /* V (m^3), centroid p_c (world, m), J about p_c (m^5),
                                  normal n (unit, from A toward B) */
  double volume_lo, volume_hi; /* certified bracket of the true V, m^3 */
  double normal_geo[3];        /* the geometric estimate n started from (unit) */
  int normal_from_mpr;         /* 0: n_geo is the area vector of A's surface inside B;
                                  1: libccd's MPR direction (used only when there is no
                                  area vector: A wholly inside B) */
  int normal_flags;            /* VXC_NORMAL_* */
  double r_gyr;                /* radius of gyration about n, m */
  double depth;                /* penetration measure x = -V^(1/3), m */
  double area;                 /* contact area estimate A_c (area vector length), m^2 */
  long long boxes, leaves;     /* work: boxes classified, boundary leaves integrated */
  int level;                   /* deepest octree level */
  int capped;                  /* 1 when the work or memory cap stopped refinement before
                                  the options' rtol or voxel was reached: the result is
                                  less accurate than asked (the bracket still holds) */
  double leaf_min;             /* edge of the smallest leaf integrated, m */
  double workspace_bytes;      /* memory the query's workspace held at its peak, bytes */
  double time_ms;              /* wall time of this pair, ms */
} vxc_pair_metrics;

/* The contacts of two solids. */
typedef struct vxc_metrics {
  int contact;                  /* 1 when at least one cell pair overlaps */
  double distance;              /* when apart: distance between the closest cells, m
                                   (exact for convex cells, else the distance between
                                   their convex stand-ins, a lower bound); 0 in contact */
  int distance_exact;           /* 1 when `distance` is exact */
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
 * VXC_ERR_ARG (out NULL), VXC_ERR_NOMEM. */
VXC_API vxc_status vxc_query_create(const vxc_allocator *al, vxc_query **out);

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
 * VXC_ERR_NUMERIC. *out is untouched on error. */
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

/* Mass properties of a solid (or one cell). */
typedef struct vxc_mass_props {
  double volume;               /* m^3 */
  double volume_lo, volume_hi; /* certified bracket, m^3 */
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

/* ---- cell-pair tracker -------------------------------------------------------------- */

/* A pair of cells, one of each solid (indices into the solids' cell lists). */
typedef struct vxc_cell_pair {
  int a;
  int b;
} vxc_cell_pair;

/* The tracker: a fixed number of state slots, each held by one contacting pair from its
 * first contact to its loss. Opaque. */
typedef struct vxc_tracker vxc_tracker;

/* What one update found. The arrays hold slot indices; they are owned by the tracker and
 * valid until its next update or its free. */
typedef struct vxc_tracker_step {
  int nnew, nfound, nlost, ncurrent, nfree;
  const int *new_slots;     /* pairs in contact now and not before (start their states) */
  const int *found_slots;   /* pairs in contact before and now (ongoing) */
  const int *lost_slots;    /* pairs in contact before and not now (reset their states) */
  const int *current_slots; /* new and found, in the order of the pairs given */
} vxc_tracker_step;

/* Creates a tracker with `capacity` slots (>= 1). `al` may be NULL (malloc).
 * Returns VXC_OK, VXC_ERR_ARG (capacity < 1, out NULL), VXC_ERR_NOMEM. */
VXC_API vxc_status vxc_tracker_create(int capacity, const vxc_allocator *al, vxc_tracker **out);

/* Frees a tracker; NULL is a no-op. */
VXC_API void vxc_tracker_free(vxc_tracker *t);

/* Updates the tracker with the pairs in contact at this step (any order, no duplicates).
 * Lost pairs free their slots first; new pairs then take the lowest free slots; found
 * pairs keep theirs. Returns VXC_OK with *step filled; VXC_ERR_ARG (a duplicate or a
 * negative index; tracker unchanged); VXC_ERR_LIMIT (more pairs in contact than slots;
 * tracker unchanged, so the caller can grow or report). */
VXC_API vxc_status vxc_tracker_update(vxc_tracker *t, const vxc_cell_pair *pairs, int npairs,
                                      vxc_tracker_step *step);

/* The pair holding `slot`. Returns VXC_OK, or VXC_ERR_ARG when the slot is out of range
 * or free (*out untouched). */
VXC_API vxc_status vxc_tracker_slot(const vxc_tracker *t, int slot, vxc_cell_pair *out);

#ifdef __cplusplus
}
#endif

#endif /* VXC_METRICS_H */
