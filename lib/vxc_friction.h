/* vxc_friction.h: a library of friction laws, static and dynamic (included by <vxc/vxc.h>).
 *
 * The laws are the ones P. F. L. Marques compares in "Frictional Contacts in Multibody
 * Dynamics" (MSc thesis, Universidade do Minho; chapter 3), each with the equation
 * number it follows there (the equations below are that thesis's). A law
 * maps the tangential relative velocity v (the velocity of the counter-surface B relative
 * to body A, in the contact plane, m/s), the normal force f_n (N, >= 0) and, for the
 * laws with state, the law's internal state, to the friction force F on body A (N, in the
 * contact plane): when sliding, F points along v (F = F_C v / |v| for Coulomb), so the
 * friction drags A along with B. F_C = mu_k f_n and F_S = mu_s f_n.
 *
 * Two interfaces:
 * - static laws (state size 0): vxc_friction_static, which may take the tangential force
 *   that would keep the contact stuck (the "external force" F_e of Marques), so the
 *   set-valued laws can say whether the contact sticks;
 * - laws with state: vxc_friction_init, vxc_friction_eval (force and state derivative),
 *   vxc_friction_project (after each integration step), vxc_friction_reframe (when the
 *   contact plane turns), vxc_friction_time_constant (to pick a step). A lost contact is
 *   restarted with vxc_friction_init.
 *
 * Parameters are absolute (N/m, N s/m), as in Marques's table 3.2: the stiffness and
 * damping coefficients do not scale with f_n. Vectors are 3-vectors in any frame the
 * caller keeps (the world frame in vxc), lying in the contact plane. */
#ifndef VXC_FRICTION_H
#define VXC_FRICTION_H

#include "vxc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The laws; the name used in files and on the command line follows each. */
typedef enum vxc_friction_law {
  VXC_LAW_COULOMB = 0,      /* "coulomb": (3.1)-(3.3) */
  VXC_LAW_COULOMB_STICTION, /* "coulomb-stiction": (3.4)-(3.5) */
  VXC_LAW_VISCOUS,          /* "viscous": F = F_v v, the viscous term of (3.6) */
  VXC_LAW_COULOMB_VISCOUS,  /* "coulomb-viscous": (3.6) */
  VXC_LAW_STRIBECK,         /* "stribeck": (3.8) with (3.10), F_v = 0 */
  VXC_LAW_STRIBECK_VISCOUS, /* "stribeck-viscous": (3.8) with (3.10) */
  VXC_LAW_KARNOPP,          /* "karnopp": (3.11), Coulomb outside the band */
  VXC_LAW_COULOMB_LINEAR,   /* "coulomb-linear": (3.13) */
  VXC_LAW_COULOMB_TANH,     /* "coulomb-tanh": (3.14) */
  VXC_LAW_THRELFALL,        /* "threlfall": (3.15) */
  VXC_LAW_BENGISU_AKAY,     /* "bengisu-akay": (3.17) */
  VXC_LAW_AMBROSIO,         /* "ambrosio": (3.18) */
  VXC_LAW_AWREJCEWICZ,      /* "awrejcewicz": (3.22), Coulomb outside the band */
  VXC_LAW_DAHL,             /* "dahl": (3.30)-(3.31) (Dahl with alpha = 1) */
  VXC_LAW_LUGRE,            /* "lugre": (3.45)-(3.48), constant sigma1 */
  VXC_LAW_ELASTO_PLASTIC,   /* "elasto-plastic": (3.47), (3.51)-(3.54) */
  VXC_LAW_RESET_INTEGRATOR, /* "reset-integrator": (3.34)-(3.35) */
  VXC_LAW_LIANG,            /* "liang": (3.72)-(3.75) */
  VXC_LAW_GONTHIER,         /* "gonthier": (3.64)-(3.71); Gonthier's thesis 3.29-3.42 */
  VXC_LAW_COUNT
} vxc_friction_law;

/* Parameters of every law (each law reads its own); defaults are Marques's table 3.2. */
typedef struct vxc_friction_params {
  double mu_s;    /* static coefficient, >= mu_k (0.15) */
  double mu_k;    /* kinetic (Coulomb) coefficient, >= 0 (0.1) */
  double f_v;     /* viscous coefficient F_v, N s/m, >= 0 (0.1) */
  double v_s;     /* Stribeck velocity, m/s, > 0 (1e-3) */
  double delta;   /* Stribeck exponent delta_sigma, > 0 (2) */
  double d_v;     /* Karnopp's zero-velocity band D_v, m/s, > 0 (1e-3) */
  double v_0;     /* tolerance velocity of Threlfall, Bengisu-Akay, Awrejcewicz, m/s (1e-3) */
  double v_a0;    /* Ambrosio's v_0, m/s, > 0 (1e-4) */
  double v_a1;    /* Ambrosio's v_1, m/s, > v_a0 (1e-3) */
  double k_reg;   /* slope k of coulomb-linear and coulomb-tanh, s/m, > 0 (1 / v_0 = 1000:
                     table 3.2 gives none) */
  double xi;      /* Bengisu-Akay's curve-shape factor, s/m, > 0 (50) */
  double a;       /* reset integrator's stiction coefficient, >= 0 (0.5) */
  double sigma0;  /* bristle stiffness of Dahl, LuGre, elasto-plastic, reset integrator,
                     Gonthier, N/m, > 0 (1e5) */
  double sigma1;  /* bristle damping, N s/m, >= 0 (sqrt(1e5)) */
  double sigma2;  /* viscous coefficient of the bristle laws, N s/m, >= 0 (0.1) */
  double tau_dw;  /* Gonthier's dwell-time constant, s, > 0 (2) */
  double v_e;     /* Gonthier's direction tolerance, m/s, > 0 (v_s / 100) */
  double z_ratio; /* elasto-plastic z_ba / z_max, in [0, 1) (0.7, Dupont et al.) */
  double k_b;     /* Liang's bristle stiffness, N/m, > 0 (5e4) */
  double c_b;     /* Liang's bristle damping, N s/m, >= 0 (80) */
  double v_d;     /* Liang's stick threshold velocity, m/s, > 0 (1e-3) */
} vxc_friction_params;

/* Largest state size of any law (doubles). */
#define VXC_FRICTION_STATE_MAX 4

/* The law's name ("coulomb", ...), or NULL for a value outside the enum. */
VXC_API const char *vxc_friction_law_name(vxc_friction_law law);

/* Finds the law called `name`. Returns VXC_OK, or VXC_ERR_ARG naming the unknown name and
 * the nearest law's (within two edits; vxc_nearest_name), or a NULL name or law; *law
 * untouched on error. */
VXC_API vxc_status vxc_friction_law_find(const char *name, vxc_friction_law *law, vxc_error *err);

/* Number of state doubles of the law: 0 for a static law, else 3 (a deflection z, m) or
 * 4 (z and Gonthier's dwell state). -1 for a value outside the enum. */
VXC_API int vxc_friction_state_size(vxc_friction_law law);

/* Fills p with the defaults above (p NULL: no-op). */
VXC_API void vxc_friction_params_default(vxc_friction_params *p);

/* Sets the parameter called `name` (a field name above) to value. Returns VXC_OK, or
 * VXC_ERR_ARG naming the unknown name and the nearest field's (within two edits), or NULL
 * p or name; p untouched on error. Values
 * are checked by vxc_friction_params_check. */
VXC_API vxc_status vxc_friction_param_set(vxc_friction_params *p, const char *name, double value,
                                          vxc_error *err);

/* Checks every value of p against the bounds above. Returns VXC_OK, or VXC_ERR_ARG with
 * a message naming the first bad parameter (NaN is always bad). */
VXC_API vxc_status vxc_friction_params_check(const vxc_friction_params *p, vxc_error *err);

/* ---- static laws --------------------------------------------------------------------- */

/* Evaluates a static law: the friction force f[3] (N) on A for the relative velocity v[3]
 * (m/s) and normal force f_n (N). f_stick (may be NULL: unknown) is the tangential force
 * that keeps A stuck to B (zero relative acceleration), N; the set-valued laws (coulomb,
 * coulomb-stiction, coulomb-viscous, stribeck, stribeck-viscous at v = 0; karnopp for
 * |v| <= d_v; awrejcewicz for |v| <= v_0) use it, the others ignore it. *stuck (may be
 * NULL) is set to 1 when the law holds the contact (f equals f_stick: the caller keeps the
 * relative velocity at zero), else 0; without f_stick, a set-valued law at v = 0 gives 0
 * and is not stuck. Returns VXC_OK, VXC_ERR_ARG (a law with state, a NULL v, p or f,
 * f_n < 0) or VXC_ERR_NUMERIC (a non-finite input); f untouched on error, err (may be NULL)
 * naming the argument. p is assumed checked. */
VXC_API vxc_status vxc_friction_static(vxc_friction_law law, const vxc_friction_params *p,
                                       const double v[3], double f_n, const double f_stick[3],
                                       double f[3], int *stuck, vxc_error *err);

/* ---- laws with state ----------------------------------------------------------------- */

/* The initial state of a contact (no deflection; Gonthier's dwell state 1: a contact
 * starts stuck). Also what a lost contact returns to. Returns VXC_OK, or VXC_ERR_ARG for
 * a static law or a NULL state (err, may be NULL, naming it). */
VXC_API vxc_status vxc_friction_init(vxc_friction_law law, double *state, vxc_error *err);

/* The force f[3] (N) on A and the state derivative dstate (may be NULL; state units per
 * second) for relative velocity v (m/s), normal force f_n (N) and the current state.
 * f_n == 0 gives f = 0 and dstate = 0 (the caller restarts the state when the contact
 * comes back). Returns VXC_OK, VXC_ERR_ARG (a static law, a NULL input, f_n < 0) or
 * VXC_ERR_NUMERIC (a non-finite input or result); outputs untouched on error, err (may be
 * NULL) naming the argument. */
VXC_API vxc_status vxc_friction_eval(vxc_friction_law law, const vxc_friction_params *p,
                                     const double v[3], double f_n, const double *state,
                                     double f[3], double *dstate, vxc_error *err);

/* What a law needs after each integration step, in place: the reset integrator and Liang
 * clamp the deflection to their largest one (|z| <= z_0, |z| <= z_max(v)), Gonthier clamps
 * its dwell state to [0, 1]; the others leave the state alone. Returns VXC_OK or
 * VXC_ERR_ARG (a static law, a NULL input, f_n < 0 or NaN; err, may be NULL, naming it). */
VXC_API vxc_status vxc_friction_project(vxc_friction_law law, const vxc_friction_params *p,
                                        const double v[3], double f_n, double *state,
                                        vxc_error *err);

/* Re-expresses the state when the contact normal turns from n_old to n_new (unit
 * vectors): the deflection is turned by the smallest rotation taking n_old to n_new
 * (its length kept). Opposite normals leave it untouched. Returns VXC_OK or VXC_ERR_ARG
 * (a static law, a NULL input, a normal not unit to 1e-6; err, may be NULL, naming it). */
VXC_API vxc_status vxc_friction_reframe(vxc_friction_law law, double *state, const double n_old[3],
                                        const double n_new[3], vxc_error *err);

/* The fastest time constant of the law's own dynamics, s, for relative speeds up to
 * v_max (m/s) and normal force f_n (N): dahl F_C / (sigma0 v_max); lugre and
 * elasto-plastic the smaller of sigma1 / sigma0 and F_C / (sigma0 v_max); the reset
 * integrator sigma1 / (sigma0 (1 + a)); liang c_b / k_b; gonthier sigma1 / sigma0. A step
 * a few times smaller resolves them (the body's own mass-spring period is the caller's).
 * Returns INFINITY for a static law, a zero time constant (sigma1 or c_b 0, f_n 0), and
 * NAN for a value outside the enum. */
VXC_API double vxc_friction_time_constant(vxc_friction_law law, const vxc_friction_params *p,
                                          double f_n, double v_max);

#ifdef __cplusplus
}
#endif

#endif /* VXC_FRICTION_H */
