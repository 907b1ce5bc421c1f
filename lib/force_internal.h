/* force_internal.h: what the force-model files of lib/ share (params.c, friction.c, force.c,
 * rolling.c, contact_jacobian.c, bristle_step.c); not installed.
 *
 * The bristle friction of lib/README.md section 7 is one kernel used by both the volumetric and
 * the point contact model: it takes the normal force, the slip velocity in the contact
 * plane, the spin rate and the friction states, and returns the friction force, the
 * spinning torque and the states' derivatives. Invariants: the kernel's inputs are finite,
 * v_t and z lie in the contact plane, p is prepared (sigma0, sigma1, v_s, v_e, tau_dw > 0). */
#ifndef VXC_LIB_FORCE_INTERNAL_H
#define VXC_LIB_FORCE_INTERNAL_H

#include "lib/vxc.h"

/* Inputs of the friction kernel (one contact, world frame). */
typedef struct vxci_friction_in {
  double f_n;    /* normal force, N, >= 0 */
  double v_t[3]; /* tangential slip velocity of A relative to B, m/s */
  double w_n;    /* relative spin rate about n, rad/s */
  double r_gyr;  /* radius of gyration about n, m; 0 disables the spinning torque */
  int contensou; /* 1: Contensou factors C_vs, C_ws (volumetric); 0: both 1 (point) */
  double z[3];   /* bristle deflection, in the contact plane, m */
  double theta;  /* spin bristle angle, rad */
  double s_dw;   /* dwell state */
} vxci_friction_in;

/* Outputs of the friction kernel. */
typedef struct vxci_friction_out {
  double f_t[3];   /* friction force on A, N */
  double tau_spin; /* spinning torque on A along n, N m */
  double s;        /* stick indicator */
  double dz[3];    /* dz/dt, m/s (in the contact plane) */
  double dtheta;   /* dtheta/dt, rad/s */
  double ds_dw;    /* ds_dw/dt, 1/s */
} vxci_friction_out;

/* The bristle friction model with stiction, Stribeck, dwell time, viscous friction and
 * (optionally) the Contensou factors: lib/README.md section 7, thesis 3.29-3.42 and
 * 4.219-4.243. */
void vxci_friction_eval(const vxc_params *p, const vxci_friction_in *in, vxci_friction_out *out);

/* The kernel's inputs x as its derivatives order them: v_t (3), w_n, z (3), theta, s_dw. */
#define VXCI_FX 9
enum { VXCI_X_V = 0, VXCI_X_W = 3, VXCI_X_Z = 4, VXCI_X_TH = 7, VXCI_X_SDW = 8 };

/* The kernel's derivatives over x: the force and spinning torque per unit normal force
 * (f_t / f_n, tau_spin / f_n; the rates do not depend on f_n). */
typedef struct vxci_friction_d {
  double ft[3][VXCI_FX];
  double ts[VXCI_FX];
  double dz[3][VXCI_FX];
  double dth[VXCI_FX];
  double dsdw[VXCI_FX];
} vxci_friction_d;

/* vxci_friction_eval with, when d is not NULL, its derivatives in closed form on the branch
 * each value takes (saturated or not, within v_e or not; at v_t = 0 and w_n = 0 the kinks of
 * |v_t| and |w_n| in the Contensou factors take the mean of their sides, 0; s_dw's clamp
 * to [0, 1] in mu_max is differentiated inside it). */
void vxci_friction_eval_d(const vxc_params *p, const vxci_friction_in *in, vxci_friction_out *out,
                          vxci_friction_d *d);

/* The kernel's stick indicator s = exp(-(v_avg / v_s)^2), v_avg = sqrt(vt^2 + rw^2), for a
 * slip speed vt and a spin speed rw = r_gyr w_n (m/s), and its Contensou factors C_vs, C_ws
 * (4.223-4.224 blended with s; both 1 without `contensou`). */
double vxci_friction_blend(const vxc_params *p, double vt, double rw, int contensou, double *c_vs,
                           double *c_ws);

/* The sliding part through the friction library's law p->friction_law (> 0): replaces
 * out->f_t and out->dz (and, for gonthier, out->ds_dw) with the law's, from the same
 * inputs (friction_contact.c). A failed law leaves NaN forces for the caller to refuse. */
void vxci_friction_law_sliding(const vxc_params *p, const vxci_friction_in *in,
                               vxci_friction_out *out);

/* Rate-independent rolling and spinning (rolling.c, p->rolling = 1): for normal force f_n,
 * unit normal n, relative angular velocity w_r = w_a - w_b and the state's phi and psi,
 * the rolling torque on A (in the contact plane), the spinning torque on A along n (N m)
 * and the angles' rates. */
void vxci_rolling_eval(const vxc_params *p, double f_n, const double n[3], const double w_r[3],
                       const double state[VXC_STATE_SIZE], double tau_roll[3], double *tau_spin,
                       double dphi[3], double *dpsi);

/* The rolling kernel's inputs as its derivatives order them: w_r (3), the state's phi (3)
 * and psi. */
#define VXCI_RX 7
enum { VXCI_R_W = 0, VXCI_R_PHI = 3, VXCI_R_PSI = 6 };

/* Its derivatives: the torque on A per unit normal force (rolling and spinning), the rates of
 * phi and psi. */
typedef struct vxci_rolling_d {
  double torque[3][VXCI_RX];
  double dphi[3][VXCI_RX];
  double dpsi[VXCI_RX];
} vxci_rolling_d;

/* The rolling kernel of vxci_rolling_eval per unit normal force: the torque on A (rolling
 * and spinning together), the rates, and their derivatives in closed form on the branch
 * each bristle takes (rolling.c). */
void vxci_rolling_eval_d(const vxc_params *p, const double n[3], const double w_r[3],
                    const double state[VXC_STATE_SIZE], double torque[3], double dphi[3],
                    double *dpsi, vxci_rolling_d *d);

/* vxc_contact_jacobian's matrix for inputs vxc_contact_eval has accepted (no checks; the
 * normal is renormalised as there): contact_jacobian.c. */
void vxci_contact_jacobian(const vxc_params *p, const vxc_contact_geometry *g,
                           const vxc_body_motion *a, const vxc_body_motion *b,
                           const double state[VXC_STATE_SIZE],
                           double jac[VXC_JAC_SIZE * VXC_JAC_SIZE]);

/* Velocity at world point x of A relative to B (4.51), m/s. (force.c) */
void vxci_relative_velocity(const vxc_body_motion *a, const vxc_body_motion *b, const double x[3],
                            double v_c[3]);

/* Hysteretic damping factor a = d / (e_eff u), s/m, u never below v_small (3.24, 3.43).
 * (force.c) */
double vxci_damping_factor(const vxc_params *p, const double state[VXC_STATE_SIZE]);

/* t1, t2: unit, in the plane normal to the unit n, t1 x t2 = n; t1 is the unit vector
 * along e x n for the axis e on which n has its smallest component. (bristle_step.c) */
void vxci_tangents(const double n[3], double t1[3], double t2[3]);

/* Copies a normal into n, unit (force.c). VXC_ERR_NUMERIC if not finite, VXC_ERR_ARG if its
 * length is off by more than VXC_UNIT_TOL; err (may be NULL) names `fn` and the argument
 * `what`. */
vxc_status vxci_unit_normal(const char *fn, const char *what, const double in[3], double n[3],
                            vxc_error *err);

#endif
