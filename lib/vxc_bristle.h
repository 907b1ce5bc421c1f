/* vxc_bristle.h: the contact model's friction as bristle terms for velocity-level
 * time-stepping solvers (LCP, PGS) (included by <vxc/vxc.h>).
 *
 * After Peiret, Kovecses and Font-Llagunes, "The Bristle Friction Model in a Linear
 * Complementarity Formulation for Multibody Systems with Contacts": a bristle of
 * stiffness k whose deflection s is updated by backward Euler, s+ = s- + h v+, gives the
 * friction force of the next instant as lambda+ = lambda0 - k h v+ (their (3), with
 * lambda0 = -k s-), held within component-wise bounds [-mu f_n, +mu f_n]; with the
 * damping c of vxc's bristle (lib/README.md section 7: k = sigma0 f_n, c = sigma1 f_n)
 * the update is lambda+ = lambda0 - (k h + c) v+. In the solver's impulses (their (4)):
 *
 *     J v+ + C (h lambda+ - h lambda0) = sigma,   C = 1 / (h (k h + c)),
 *     h lo <= h lambda+ <= h hi,  sigma = 0 inside the bounds, sigma >= 0 at lo, <= 0 at hi
 *
 * (C = (k h^2)^-1 without damping, their C~_T). A solver that knows nothing of the model
 * takes per contact five such rows from vxc_bristle_rows, solves, and hands the forces
 * back to vxc_bristle_commit, which updates the contact state (VXC_STATE_SIZE doubles,
 * vxc_force.h) for the next step.
 *
 * Rows (world frame; A and B as in vxc_force.h, n from A toward B):
 *   0, 1  sliding along t1, t2 (unit, in the contact plane, t1 x t2 = n): v = the slip of A
 *         relative to B at the contact point along the row, lambda = the friction force
 *         on A along it (N; -lambda on B); bounds -+mu_max f_n with mu_max = mu_c + (mu_s
 *         - mu_c) s_dw (the state's dwell value, lib/README.md section 7)
 *   2, 3  rolling about t1, t2: v = (w_A - w_B) along the row (rad/s), lambda = the torque
 *         on A (N m); k = f_n eta_r / phi_0 (N m/rad), c = k sigma1 / sigma0, bounds -+eta_r
 *         f_n (vxc_params_set, rolling = 1: Tasora and Anitescu's rate-independent rolling)
 *   4     spinning about n: the same with eta_s
 * With p->rolling = 0, rows 2 to 4 have zero bounds (the volumetric model's rolling and
 * spinning resistance are not bristles): a solver may drop them. The viscous sigma2 term
 * and the Stribeck and Contensou blends of the continuous model are not part of the rows. */
#ifndef VXC_BRISTLE_H
#define VXC_BRISTLE_H

#include "vxc_force.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VXC_BRISTLE_ROWS 5

/* One row of a contact. Units: force rows N, m/s, m; torque rows N m, rad/s, rad. */
typedef struct vxc_bristle_row {
  double dir[3];     /* unit direction, world: a tangent (force rows) or an axis (torques) */
  double k;          /* bristle stiffness: N/m or N m/rad (0 when f_n = 0) */
  double c;          /* bristle damping: N s/m or N m s/rad */
  double compliance; /* C = 1 / (h (k h + c)): 1/kg or 1/(kg m^2); HUGE_VAL when k = c = 0 */
  double lambda0;    /* force or torque at v+ = 0, -k s- (N or N m) */
  double lo, hi;     /* bounds of lambda+, lo = -hi <= 0 */
} vxc_bristle_row;

/* The rows of one contact for a step of h (s) from the contact state `state` (its z, phi,
 * psi and s_dw; a reset state is a bristle at rest), with normal force f_n (N, >= 0: the
 * previous instant's, as Peiret et al., or a solver's newer estimate) and unit normal
 * `normal` (A toward B, renormalised; |n| within 1e-6 of 1). p must be prepared. Fills
 * rows[VXC_BRISTLE_ROWS]. Returns VXC_OK; VXC_ERR_ARG for a NULL pointer, an unprepared
 * p, f_n < 0, h <= 0 or a normal that is not unit; VXC_ERR_NUMERIC for non-finite input
 * (rows untouched on error; err, when not NULL, names the argument). */
VXC_API vxc_status vxc_bristle_rows(const vxc_params *p, const double state[VXC_STATE_SIZE],
                                    double f_n, const double normal[3], double h,
                                    vxc_bristle_row rows[VXC_BRISTLE_ROWS], vxc_error *err);

/* Ends a step: with the rows of vxc_bristle_rows, the solved forces lambda[5] (N, N m: the
 * impulses over h) and the rows' velocities after the step v[5] (m/s, rad/s), updates the
 * state's deflections by the backward-Euler bristle, s+ = (c s- / h - lambda+) / (k + c /
 * h), which is s- + h v+ while the row sticks and the thesis's saturated bristle when it
 * is at a bound, and the dwell state s_dw (backward Euler of lib/README.md section 7, its
 * stick indicator from the slip speed |v0, v1|). A row with k = c = 0 resets its
 * deflection. The state's other slots are left as they are. Returns VXC_OK; VXC_ERR_ARG
 * for a NULL pointer, an unprepared p or h <= 0; VXC_ERR_NUMERIC for non-finite input
 * (state untouched on error; err, when not NULL, names the argument). */
VXC_API vxc_status vxc_bristle_commit(const vxc_params *p,
                                      const vxc_bristle_row rows[VXC_BRISTLE_ROWS],
                                      const double lambda[VXC_BRISTLE_ROWS],
                                      const double v[VXC_BRISTLE_ROWS], double h,
                                      double state[VXC_STATE_SIZE], vxc_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VXC_BRISTLE_H */
