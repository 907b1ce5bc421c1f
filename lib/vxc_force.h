/* vxc_force.h: the contact force models of the vxc public API (included by <vxc/vxc.h>).
 *
 * Gonthier's volumetric contact model (thesis chapter 4, restated in lib/README.md): normal
 * force with hysteretic damping, rolling resistance, bristle friction with stiction,
 * dwell time and the Contensou coupling of sliding and spinning friction; and the point
 * contact model of chapter 3 for comparison.
 *
 * Shape of the API (the shape an external integrator needs): parameters in one plain
 * struct; a contact's state is a fixed-size array of doubles owned by the caller; an
 * evaluation takes the contact's geometry, the two bodies' kinematics and the state, and
 * returns the wrench on each body and the state's time derivative, touching no global.
 *
 * Frames and signs: everything is in the world frame. The normal n points out of body A
 * toward body B. The force on A is -f_n n + f_t, on B its opposite, applied at the
 * centroid p_c of the volume of interference; torques are about each body's reference
 * point (its model-frame origin). Units SI. Conventions of vxc.h apply. */
#ifndef VXC_FORCE_H
#define VXC_FORCE_H

#include "vxc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters --------------------------------------------------------------------- */

/* Parameters of one contact (a body pair). Names follow lib/README.md. */
typedef struct vxc_params {
  /* normal force f_n = k_v V (1 + a v_cn), a = d / (e_eff u)  (4.62, 3.18-3.25) */
  double k_v;     /* volumetric stiffness, N/m^3, > 0 (two compliant bodies: see
                     vxc_series_stiffness) */
  double e_eff;   /* effective coefficient of restitution, in (0, 1] */
  double v_small; /* smallest impact speed u used in the damping factor, m/s, > 0 */
  double tau_r;   /* constraint relaxation time constant, s; 0 disables relaxation,
                     else > 0 (3.44-3.45) */
  /* friction (table 3.1, 3.30-3.39, 4.219-4.243) */
  double mu_s;   /* stiction coefficient, >= mu_c */
  double mu_c;   /* Coulomb coefficient, >= 0 */
  double sigma0; /* bristle stiffness, 1/m, > 0 */
  double sigma1; /* bristle damping, s/m, > 0 */
  double sigma2; /* viscous friction, s/m, >= 0 */
  double v_s;    /* Stribeck velocity, m/s, > 0 */
  double tau_dw; /* dwell time constant, s, > 0 */
  double v_e;    /* numerical velocity tolerance, m/s, > 0 (default v_s / 100) */
  /* contact normal by inverse iteration (A.30, A.31) */
  double theta_c; /* convergence angle, rad, > 0 (default 1 degree) */
  double r_n;     /* weight of the previous normal in the guess, in [0, 1) (0.95) */
  int n_i;        /* most iterations, >= 1 (15) */
  /* point contact model f = k_p x^p_exp (1 + a xdot)  (chapter 3) */
  double k_p;   /* point stiffness, N/m^p_exp, > 0 */
  double p_exp; /* exponent, > 0 (3/2 for Hertz) */
  /* the sliding friction law (vxc_friction.h): 0, the model's own bristle kernel
     (default); else 1 + a vxc_friction_law, set with vxc_params_set_law */
  int friction_law;
  /* rate-independent rolling and spinning friction (Tasora and Anitescu): |M_r| <= eta_r
     f_n against the rolling velocity, |M_s| <= eta_s f_n against the spin, in place of
     the volumetric rolling torque and spinning friction (see vxc_params_set) */
  int rolling;  /* 0: volumetric (default); 1: rate-independent */
  double eta_r; /* rolling friction length, m, >= 0 (0) */
  double eta_s; /* spinning friction length, m, >= 0 (0) */
  double phi_0; /* angle of the bristle at the bound eta f_n, rad, > 0 (1e-4) */
  /* derived by vxc_params_prepare; do not set */
  double d;     /* root of the impact equation for e_eff (3.22-3.23), in [0, 1) */
  int prepared; /* 1 once vxc_params_prepare succeeded on these values */
} vxc_params;

/* Fills p with the defaults below and prepares it (p NULL: no-op). Sources: thesis (Gonthier
 * 2007) tables and guidelines; lib/README.md section numbers in brackets.
 *   k_v = 1e11 N/m^3: a stiff contact (a 2 kg ball of radius 0.1 m rests about 25 um deep);
 *     table 5.5 prints its ball-on-a-table value with the exponent lost, and that
 *     scenario's figures point to 1e7 (data/ball-on-table.vxt) [5]
 *   e_eff = 0.5, v_small = 1e-3 m/s: table 5.5 [5]
 *   tau_r = 0 (relaxation off; table 5.5 used 1 s with a fixed-step solver) [5]
 *   mu_s = 0.08, mu_c = 0.05, sigma2 = 0 s/m, v_s = 1e-3 m/s, tau_dw = 0.3 s: table 5.6 [7]
 *   sigma0 = mu_s / dz = 800 1/m with dz = 0.1 mm (guideline 3.46; the table's exponent is
 *     garbled) [7]
 *   sigma1 = 2 sqrt(sigma0 / g) = 18.06 s/m with g = 9.81 m/s^2 (critical damping, 3.52) [7]
 *   v_e = v_s / 100 = 1e-5 m/s (all thesis runs) [7]
 *   theta_c = 1 degree, r_n = 0.95, n_i = 15 (sec. 4.5, 5.2) [3]
 *   k_p = 1e6 N/m^1.5, p_exp = 1.5: Hertz sphere, thesis sec. 5.1.3 ball on a plane [10]
 *   rolling = 0 (the volumetric rolling torque and spinning friction), eta_r = eta_s = 0 m,
 *     phi_0 = 1e-4 rad (the rolling analogue of the 0.1 mm pre-sliding distance dz) [6] */
VXC_API void vxc_params_default(vxc_params *p);

/* Sets the parameter called `name` (a symbol of lib/README.md: k_v, e_eff, v_small, tau_r, mu_s,
 * mu_c, sigma0, sigma1, sigma2, v_s, tau_dw, v_e, theta_c (rad, as in the
 * struct), r_n, n_i, k_p, p_exp; and rolling (0 or 1), eta_r, eta_s, phi_0) to
 * `value`, and marks p unprepared. With rolling = 1 the rolling and spinning torques of
 * both contact models are rate-independent (Tasora and Anitescu, "A complementarity-based
 * rolling friction model for rigid contacts", the bounds |M_r| <= eta_r f_n and |M_s| <=
 * eta_s f_n), in a bristle form (not a regularised one), so a body can come to rest and
 * stay: a rolling angle phi (a vector in the contact plane) and a spin angle psi follow
 * the relative rolling and spin rates while the torque f_n kappa (phi + tau phi') stays
 * within the bound (kappa = eta / phi_0, m/rad; tau = sigma1 / sigma0, s, the sliding
 * bristle's time constant), and saturate at the bound like the sliding bristle
 * (4.227-4.230), so steady rolling meets exactly eta_r f_n. These replace the volumetric
 * rolling torque (4.67) and the spinning friction; the sliding friction then runs
 * without the Contensou coupling. Setting v_s also sets v_e = v_s / 100 while v_e still
 * equals the old v_s / 100 (so a v_e set apart stays). Values are checked by
 * vxc_params_prepare, except n_i, which must be an integer in [1, 1e6] here, and rolling,
 * which must be 0 or 1. Returns VXC_OK, or VXC_ERR_ARG naming the unknown parameter (or
 * the bad n_i or rolling, or a NULL p or name); p untouched on error. */
VXC_API vxc_status vxc_params_set(vxc_params *p, const char *name, double value, vxc_error *err);

/* Selects the law of the friction library (vxc_friction.h) called `law` ("lugre", ...)
 * for the sliding part of both contact models: the tangential force and the deflection's
 * derivative come from the law (its state is the z slot, and for "gonthier" also the
 * dwell slot), the spinning torque stays the model's own (without the Contensou coupling
 * to the law's sliding). The law's parameters come from p, scaled by the normal force
 * (the model's are per unit normal force, the library's absolute): mu_s, mu_k = mu_c,
 * sigma0 f_n, sigma1 f_n, sigma2 f_n (also F_v), v_s, tau_dw, v_e, Liang's k_b = sigma0
 * f_n and c_b = sigma1 f_n; the rest are Marques's table 3.2. The library's z follows
 * the velocity of B relative to A (the model's own z the reverse). A static law gets no
 * sticking force (the contact knows none) and its deflection stays 0; the reset
 * integrator's and Liang's clamps act on the deflection as it is read. "default" returns
 * to the model's own kernel. Marks p unprepared. Returns VXC_OK or VXC_ERR_ARG naming
 * the unknown law (or a NULL p or law); p untouched on error. */
VXC_API vxc_status vxc_params_set_law(vxc_params *p, const char *law, vxc_error *err);

/* Validates p and computes its derived values (the damping root d). Rejects impossible
 * values with VXC_ERR_ARG and a message naming the parameter: non-positive stiffness,
 * e_eff outside (0, 1], mu_s < mu_c, negative coefficients, non-positive time constants
 * or velocities, r_n outside [0, 1), n_i < 1, non-finite numbers. On error p's values are
 * untouched and p->prepared is set to 0 (a stale flag must not vouch for bad values). */
VXC_API vxc_status vxc_params_prepare(vxc_params *p, vxc_error *err);

/* The root d in [0, 1) of d/e - ln(1 + d/e) + d + ln(1 - d) = 0 (thesis 3.22-3.23), for e
 * in (0, 1]; e = 1 gives 0. Found by bisection to the last bit; below e ~ 0.03 the root is
 * within 1e-16 of 1 and the largest double below 1 is returned. Returns NAN for e outside
 * (0, 1]. */
VXC_API double vxc_damping_root(double e);

/* Series stiffness of two compliant bodies, (1/k1 + 1/k2)^-1 (4.132); an infinite (or
 * HUGE_VAL) stiffness is a rigid body and returns the other. N/m^3. NAN when either is
 * not > 0 (or NaN). */
VXC_API double vxc_series_stiffness(double k1, double k2);

/* ---- contact geometry and body kinematics ------------------------------------------- */

/* What the force model needs of a volume of interference (vxc metrics give it). */
typedef struct vxc_contact_geometry {
  double volume;      /* V, m^3; 0 means no contact */
  double centroid[3]; /* p_c, world, m */
  double inertia[9];  /* J about p_c (unit density), world, m^5, row-major, symmetric */
  double normal[3];   /* n, unit, from body A toward body B */
} vxc_contact_geometry;

/* Kinematics of one body. */
typedef struct vxc_body_motion {
  double r[3]; /* reference point (the model-frame origin), world, m */
  double v[3]; /* velocity of r, world, m/s */
  double w[3]; /* angular velocity, world, rad/s */
} vxc_body_motion;

/* ---- contact state ------------------------------------------------------------------ */

/* A contact's state: VXC_STATE_SIZE doubles owned by the caller, integrated together with
 * the bodies. Layout (indices): */
#define VXC_STATE_SIZE 16
enum {
  VXC_STATE_Z = 0,       /* bristle deflection z, 3 doubles, m (kept in the contact plane) */
  VXC_STATE_THETA = 3,   /* spin bristle angle theta_n, rad */
  VXC_STATE_SDW = 4,     /* dwell state s_dw, in [0, 1] */
  VXC_STATE_VRO = 5,     /* relaxation volume V_ro, m^3 */
  VXC_STATE_U = 6,       /* impact speed memory u = max(|v_cn at first contact|, v_small), m/s */
  VXC_STATE_NPREV = 7,   /* previous normal, 3 doubles, unit */
  VXC_STATE_ACTIVE = 10, /* 1 while the contact is on, 0 when reset */
  /* index 11 is reserved (zero) */
  VXC_STATE_PHI = 12, /* rate-independent rolling bristle angle, 3 doubles, rad (in the
                         contact plane) */
  VXC_STATE_PSI = 15  /* rate-independent spinning bristle angle, rad */
};

/* Starts a contact (the first step of a new cell pair): zeroes the bristle states, sets
 * s_dw = 1 (a contact starts in stiction), u = max(|v_cn|, v_small) from the approach
 * speed at p_c, V_ro = V when relaxation is on (else 0), the previous normal to
 * geom->normal, ACTIVE = 1. Returns VXC_OK; VXC_ERR_ARG when an input is NULL, p is not
 * prepared, the normal is not unit (to 1e-6) or V < 0; VXC_ERR_NUMERIC for a non-finite
 * input. On error the state is untouched and `err` (may be NULL) names the function and
 * the argument, e.g. "vxc_contact_start: geom->volume = -1 m^3 is negative". */
VXC_API vxc_status vxc_contact_start(const vxc_params *p, const vxc_contact_geometry *geom,
                                     const vxc_body_motion *a, const vxc_body_motion *b,
                                     double state[VXC_STATE_SIZE], vxc_error *err);

/* Resets a state to "no contact" (all zero): what a lost contact does. */
VXC_API void vxc_contact_reset(double state[VXC_STATE_SIZE]);

/* Re-projects the bristle deflection z (and the rolling angle phi) onto the plane normal
 * to `normal` and stores it
 * (normalised) as the previous normal; call when a step changes n. A NULL, zero or
 * non-finite input leaves the state untouched. */
VXC_API void vxc_contact_project(double state[VXC_STATE_SIZE], const double normal[3]);

/* Starts a point contact (vxc_point_eval): as vxc_contact_start, with u from the approach
 * speed at `point` along `normal` (A toward B) and, when relaxation is on, the relaxation
 * depth x_ro = depth (m, in the V_ro slot). Returns VXC_OK; VXC_ERR_ARG (an input NULL, p
 * not prepared, the normal not unit to 1e-6); VXC_ERR_NUMERIC (depth, point or a motion
 * not finite). On error the state is untouched and `err` (may be NULL) names the
 * argument. */
VXC_API vxc_status vxc_point_start(const vxc_params *p, double depth, const double point[3],
                                   const double normal[3], const vxc_body_motion *a,
                                   const vxc_body_motion *b, double state[VXC_STATE_SIZE],
                                   vxc_error *err);

/* The wrench of one contact, term by term (world frame, on body A unless said). */
typedef struct vxc_wrench {
  double f_n;                /* normal force magnitude, N, >= 0 */
  double force_normal[3];    /* -f_n n, N */
  double force_friction[3];  /* tangential friction force f_t, N */
  double torque_rolling[3];  /* rolling resistance torque, N m */
  double torque_spinning[3]; /* spinning friction torque, N m */
  double force_a[3];         /* total force on A, N (applied at p_c) */
  double torque_a[3];        /* total torque on A about a->r, N m */
  double force_b[3];         /* total force on B = -force_a, N */
  double torque_b[3];        /* total torque on B about b->r, N m */
  double stick;              /* stick indicator s in [0, 1] (1: stuck) */
  double power;              /* power of all contact forces on the pair, W (<= 0 for
                                the dissipative terms at steady state) */
} vxc_wrench;

/* Evaluates the volumetric contact model: the wrench on each body and the derivative of
 * the state. geom->volume == 0 gives a zero wrench and a zero derivative (the caller then
 * resets the state: a lost contact). `dstate` may be NULL. The bristle deflection is used
 * projected on the current contact plane; u is taken as at least v_small. The rolling
 * torque is -k_v a T J w_t (T J w_t = J w_t when n is an eigenvector of J); the spin's
 * sgn(w_n) is relaxed like dir_e on r_gyr w_n with tolerance v_e. Reads no global
 * and writes only *out and dstate. Returns VXC_OK; VXC_ERR_ARG (a NULL input other than
 * dstate, p not prepared, a normal not unit to 1e-6, V < 0); VXC_ERR_NUMERIC (a
 * non-finite input, state entry or result). On error the outputs are untouched and `err`
 * (may be NULL) names the function and the argument, e.g. "vxc_contact_eval: state[4] =
 * nan is not finite". */
VXC_API vxc_status vxc_contact_eval(const vxc_params *p, const vxc_contact_geometry *geom,
                                    const vxc_body_motion *a, const vxc_body_motion *b,
                                    const double state[VXC_STATE_SIZE], vxc_wrench *out,
                                    double dstate[VXC_STATE_SIZE], vxc_error *err);

/* The order of vxc_contact_jacobian's rows and columns: 6 + VXC_STATE_SIZE. */
#define VXC_JAC_SIZE 22

/* The derivatives of vxc_contact_eval's results for the same inputs, in closed form:
 * jac[VXC_JAC_SIZE i + j] = d out_i / d y_j (row-major), with the outputs out = (force_a (N),
 * torque_rolling + torque_spinning (N m), dstate (VXC_STATE_SIZE, the state's units per s))
 * and the inputs y = (v_c (m/s), w_r (rad/s), state (VXC_STATE_SIZE)): v_c the velocity of A
 * relative to B at the centroid p_c and w_r = w_a - w_b (world frame; lib/README.md section
 * 4), the state's entries as vxc_force.h lays them out (the model reads neither the previous
 * normal nor the flags: their columns are 0; the rates of u, the normal and the flags are 0).
 * Every term is differentiated on the branch its value takes (the friction's saturation,
 * the tolerance v_e, the normal force's clamp at 0, u's at v_small); at v_t = 0 or w_n = 0
 * the Contensou factors' kinks take 0, the mean of their sides, and s_dw's clamp to [0, 1]
 * is differentiated inside it. A friction law of the library (vxc_params_set_law) is the one
 * term taken by central differences (its force and rates in its slip, bristle, s_dw and
 * f_n). geom->volume == 0 gives zeros. Returns VXC_OK; the statuses of vxc_contact_eval for
 * its inputs, and VXC_ERR_ARG for a NULL jac; VXC_ERR_NUMERIC (a derivative not finite). On
 * error jac is untouched and `err` (may be NULL) names vxc_contact_jacobian and the
 * argument. */
VXC_API vxc_status vxc_contact_jacobian(const vxc_params *p, const vxc_contact_geometry *geom,
                                        const vxc_body_motion *a, const vxc_body_motion *b,
                                        const double state[VXC_STATE_SIZE],
                                        double jac[VXC_JAC_SIZE * VXC_JAC_SIZE], vxc_error *err);

/* The point contact model of chapter 3 (for comparison): f_n = k_p x^p_exp (1 + a xdot)
 * with x the penetration depth (m, > 0 in contact), applied at `point` (world) along
 * `normal` (from A toward B); the same bristle friction without the Contensou factors and
 * no rolling or spinning torque. xdot is taken from the bodies' motion at `point`; the
 * stick indicator uses |v_t| alone. depth <= 0 gives zero outputs. With relaxation on, the
 * V_ro slot holds x_ro (m) and x - x_ro replaces x (3.44-3.45). Start the state with
 * vxc_point_start. Same state layout and outputs as vxc_contact_eval; returns VXC_OK,
 * VXC_ERR_ARG (an input other than dstate NULL, p not prepared, the normal not unit to
 * 1e-6) or VXC_ERR_NUMERIC (depth, point, a motion, a state entry or the result not
 * finite); on error the outputs are untouched and `err` (may be NULL) names the
 * argument. */
VXC_API vxc_status vxc_point_eval(const vxc_params *p, double depth, const double point[3],
                                  const double normal[3], const vxc_body_motion *a,
                                  const vxc_body_motion *b, const double state[VXC_STATE_SIZE],
                                  vxc_wrench *out, double dstate[VXC_STATE_SIZE], vxc_error *err);

/* Radius of gyration of the volume of interference about n: sqrt(n.J.n / V), m
 * (4.200-4.201); 0 when V = 0. */
VXC_API double vxc_gyration_radius(const vxc_contact_geometry *geom);

#ifdef __cplusplus
}
#endif

#endif /* VXC_FORCE_H */
