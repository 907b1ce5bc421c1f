/* vxc_metrics.h: contact normals and cell-pair tracking (included by <vxc/vxc.h>).
 *
 * The contact normal is the eigenvector of the volume of interference's inertia tensor J
 * closest to a guess (thesis A.3.3, MODEL.md section 3), found by shifted inverse
 * iteration. The tracker keeps, from step to step, which cell pairs of two solids are in
 * contact and which state slot each occupies (thesis A.4, MODEL.md section 11).
 * Conventions of vxc.h apply (SI units, statuses, ownership). */
#ifndef VXC_METRICS_H
#define VXC_METRICS_H

#include "vxc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- contact normal ----------------------------------------------------------------- */

/* Flags describing how a normal was found. */
enum {
  VXC_NORMAL_CONVERGED = 1,  /* the iteration met the angle criterion */
  VXC_NORMAL_DEGENERATE = 2, /* J has no well-separated eigenvector near the guess (e.g. a
                                nearly isotropic overlap): the guess was returned */
  VXC_NORMAL_MAXITER = 4     /* stopped after n_i iterations without meeting theta_c */
};

/* The unit eigenvector of the symmetric tensor J (m^5, row-major 3x3) nearest the guess
 * n_guess = normalize((1 - r_n) n_geo + r_n n_prev) (n_geo alone when n_prev is NULL),
 * by inverse iteration shifted by the Rayleigh quotient of the guess, with the closed-form
 * adjugate of the 3x3 matrix. Stops when successive iterates are within theta_c (rad) or
 * after n_i iterations; a converged vector is then polished by two Rayleigh-quotient
 * steps, so it is the eigenvector to rounding, not just to within theta_c. The result is oriented so that n . n_geo > 0. When J is degenerate
 * near the guess (the eigenvalue found is within 1e-3 of the largest eigenvalue's
 * magnitude from another one, so that the eigenvector is at the mercy of the volume
 * integration's noise) the guess itself is returned with VXC_NORMAL_DEGENERATE.
 * n_geo need not be unit but must be non-zero. `flags` and `iterations` may be NULL.
 * Returns VXC_OK, or VXC_ERR_ARG (zero or non-finite n_geo, non-finite J, r_n outside
 * [0, 1), n_i < 1, theta_c <= 0); n_out untouched on error. */
VXC_API vxc_status vxc_normal_from_inertia(const double J[9], const double n_geo[3],
                                           const double *n_prev, double theta_c, double r_n,
                                           int n_i, double n_out[3], int *flags,
                                           int *iterations);

/* Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations (the
 * reference the inverse iteration is tested against). Eigenvalues ascending in eval;
 * eigenvectors as the columns of evec (row-major), right-handed. Returns VXC_OK or
 * VXC_ERR_NUMERIC (non-finite input or no convergence in 50 sweeps). */
VXC_API vxc_status vxc_sym3_eigen(const double a[9], double eval[3], double evec[9]);

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
VXC_API vxc_status vxc_tracker_create(int capacity, const vxc_allocator *al,
                                      vxc_tracker **out);

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
