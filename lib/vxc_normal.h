/* vxc_normal.h: the contact normal, the eigenvector of the volume of interference's
 * inertia tensor J closest to a guess (thesis A.3.3, lib/README.md section 3), found by
 * shifted inverse iteration; and the symmetric eigen solver it uses. Conventions of vxc.h
 * apply (SI units, statuses, ownership). */
#ifndef VXC_NORMAL_H
#define VXC_NORMAL_H

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
  VXC_NORMAL_MAXITER = 4,    /* stopped after n_i iterations without meeting theta_c */
  VXC_NORMAL_BLENDED = 8     /* the eigenvalue's gap was only 1 to 4 times its uncertainty:
                                the eigenvector was blended with the guess */
};

/* The options of the normal's iteration. */
typedef struct vxc_normal_options {
  const double *n_prev; /* the previous normal (3 values, any non-zero length; borrowed, read
                           during the call only), or NULL for none */
  double theta_c;       /* stop when successive iterates are within this angle, rad (> 0) */
  double r_n;           /* weight of n_prev in the guess, in [0, 1) */
  int n_i;              /* most iterations (>= 1) */
  double j_rel_err;     /* relative uncertainty of J, finite and >= 0 (0: exact) */
} vxc_normal_options;

/* The normal found. */
typedef struct vxc_normal_result {
  double n[3];    /* unit normal, in J's frame, with n . n_geo > 0 */
  int flags;      /* VXC_NORMAL_* */
  int iterations; /* inverse iterations taken (the two polishing steps not counted) */
} vxc_normal_result;

/* No previous normal, theta_c = 1 degree (pi/180 rad), r_n = 0.95, n_i = 15, j_rel_err = 0. */
VXC_API void vxc_normal_options_default(vxc_normal_options *o);

/* The unit eigenvector of the symmetric tensor J (m^5, row-major 3x3, any frame; n and the
 * guess are in the same frame) nearest the guess
 * n_guess = normalize((1 - r_n) n_geo + r_n n_prev) (n_geo alone when n_prev is NULL or zero),
 * by inverse iteration shifted by the Rayleigh quotient of the guess, with the closed-form
 * adjugate of the 3x3 matrix. Stops when successive iterates are within theta_c or after n_i
 * iterations; a converged vector is then polished by two Rayleigh-quotient steps, so it is the
 * eigenvector to rounding, not just to within theta_c.
 * `j_rel_err` is the relative uncertainty of J (e.g. the volume bracket's relative width,
 * which overstates the moments' actual error by orders of magnitude; 0 for an exact J,
 * floored at 1e-12). The eigenvector is trusted when its eigenvalue stands apart from
 * the others by more than 4 times j_rel_err times the largest eigenvalue's magnitude; below
 * 1 time, as for the nearly isotropic J of a deep sphere-sphere overlap, the guess itself is
 * returned with VXC_NORMAL_DEGENERATE; in between, the normalised blend w n_eig + (1 - w)
 * n_guess with w rising linearly from 0 to 1, flagged VXC_NORMAL_BLENDED, so that n is a
 * continuous function of J and the guess. Unless DEGENERATE, the flags also hold
 * VXC_NORMAL_CONVERGED or VXC_NORMAL_MAXITER. The result is oriented so that n . n_geo > 0.
 * n_geo (dimensionless, any non-zero length) is not changed; all pointers are borrowed and
 * none is kept. Returns VXC_OK with *out set, or VXC_ERR_ARG (NULL J, n_geo, o or out; zero or
 * non-finite n_geo; non-finite J; an option out of its range above; or the eigen solver
 * failing on J), *out untouched on error and err (may be NULL) naming the argument. */
VXC_API vxc_status vxc_normal_solve(const double J[9], const double n_geo[3],
                                    const vxc_normal_options *o, vxc_normal_result *out,
                                    vxc_error *err);

/* vxc_normal_solve with the options and the result as positional parameters: n_out (not
 * NULL) receives result.n; `flags` and `iterations` may be NULL. Returns as vxc_normal_solve
 * (also VXC_ERR_ARG for a NULL n_out); n_out, flags and iterations untouched on error, err
 * (may be NULL) naming the argument. */
VXC_API vxc_status vxc_normal_from_inertia(const double J[9], const double n_geo[3],
                                           const double *n_prev, double theta_c, double r_n,
                                           int n_i, double j_rel_err, double n_out[3], int *flags,
                                           int *iterations, vxc_error *err);

/* Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations (the
 * reference the inverse iteration is tested against). Eigenvalues ascending in eval;
 * eigenvectors as the columns of evec (row-major), right-handed. Returns VXC_OK,
 * VXC_ERR_ARG (a NULL pointer) or VXC_ERR_NUMERIC (non-finite input or no convergence in 50
 * sweeps); eval and evec untouched on error, err (may be NULL) saying why. */
VXC_API vxc_status vxc_sym3_eigen(const double a[9], double eval[3], double evec[9],
                                  vxc_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VXC_NORMAL_H */
