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

#ifdef __cplusplus
}
#endif

#endif /* VXC_NORMAL_H */
