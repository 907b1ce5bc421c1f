/* friction_dynamic.c: the friction laws with state (vxc_friction_eval and the calls
 * around it). Equation numbers are those of Marques, "Frictional Contacts in Multibody
 * Dynamics", chapter 3; Gonthier's law is the thesis kernel of friction.c (Gonthier 2007,
 * 3.29-3.42, without the Contensou factors), which Marques restates as 3.64-3.71.
 *
 * Data: state[0..2] is the bristle (or bond) deflection z, m, in the contact plane, the
 * same for every law; state[3] is Gonthier's dwell state s_dw. In stick, every law's z
 * follows the relative displacement (dz/dt = v), so the force grows by its stiffness times
 * the displacement: the pre-sliding slope. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"
#include "lib/force_internal.h"
#include "lib/friction_internal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846 /* -std=c11 hides it in <math.h> */
#endif

/* Elasto-plastic alpha(z) (3.54): 0 below z_ba, a sine ramp up to z_max, 1 beyond. */
static double ep_alpha(double zm, double z_ba, double z_max) {
  if (zm <= z_ba) {
    return 0.0;
  }
  if (zm >= z_max) {
    return 1.0;
  }
  return 0.5 * (sin(M_PI * (zm - 0.5 * (z_max + z_ba)) / (z_max - z_ba)) + 1.0);
}


/* Liang's largest deflection (3.74): F_C / k_b sliding, F_S / k_b below v_d. */
static double liang_zmax(const vxc_friction_params *p, double f_n, double speed) {
  return (speed > p->v_d ? p->mu_k : p->mu_s) * f_n / p->k_b;
}


/* Gonthier's law through the thesis kernel: its parameters are per unit normal force and
 * its v_t is A's velocity relative to B, so the signs of v and z flip on the way. */
static void gonthier(const vxc_friction_params *p, const double v[3], double f_n,
                     const double *state, double f[3], double ds[4]) {
  vxc_params q;
  memset(&q, 0, sizeof q);
  q.mu_s = p->mu_s;
  q.mu_c = p->mu_k;
  q.sigma0 = p->sigma0 / f_n;
  q.sigma1 = p->sigma1 / f_n;
  q.sigma2 = p->sigma2 / f_n;
  q.v_s = p->v_s;
  q.tau_dw = p->tau_dw;
  q.v_e = p->v_e;
  vxci_friction_in in;
  memset(&in, 0, sizeof in);
  in.f_n = f_n;
  for (int i = 0; i < 3; i++) {
    in.v_t[i] = -v[i];
    in.z[i] = -state[i];
  }
  in.s_dw = state[3];
  vxci_friction_out out;
  vxci_friction_eval(&q, &in, &out);
  for (int i = 0; i < 3; i++) {
    f[i] = out.f_t[i];
    ds[i] = -out.dz[i];
  }
  ds[3] = out.ds_dw;
}


/* The force and state derivative of one law with state, for f_n > 0. */
static void eval(vxc_friction_law law, const vxc_friction_params *p, const double v[3], double f_n,
                 const double *z, double f[3], double dz[4]) {
  double u[3], s = vxci_sgn3(v, u);
  double f_c = p->mu_k * f_n, zu = vxg_dot(z, u), zm = sqrt(vxg_dot(z, z));
  double k = 0.0, c = 0.0, visc = 0.0; /* F = k z + c dz + visc v */
  double rate = 1.0;                   /* dz = rate v */
  dz[3] = 0.0;
  switch (law) {
    case VXC_LAW_DAHL: /* 3.30-3.31 */
      rate = 1.0 - p->sigma0 * zu / f_c;
      k = p->sigma0;
      break;
    case VXC_LAW_LUGRE: /* 3.45-3.48 */
      rate = 1.0 - p->sigma0 * zu / vxci_stribeck(p, f_n, s);
      k = p->sigma0, c = p->sigma1, visc = p->sigma2;
      break;
    case VXC_LAW_ELASTO_PLASTIC: { /* 3.51-3.54, z_max = g(v) / sigma0 */
      double g = vxci_stribeck(p, f_n, s), z_max = g / p->sigma0;
      double al = vxg_dot(v, z) >= 0 ? ep_alpha(zm, p->z_ratio * z_max, z_max) : 0.0;
      rate = 1.0 - al * p->sigma0 * zu / g;
      k = p->sigma0, c = p->sigma1, visc = p->sigma2;
      break;
    }
    case VXC_LAW_RESET_INTEGRATOR: { /* 3.34-3.35, z_0 = F_C / sigma0 */
      double z0 = f_c / p->sigma0;
      if (zm >= z0) {
        rate = vxg_dot(z, v) > 0 ? 0.0 : 1.0;
        for (int i = 0; i < 3; i++) {
          dz[i] = rate * v[i];
          f[i] = p->sigma0 * z0 * z[i] / zm;
        }
        return;
      }
      k = p->sigma0 * (1.0 + p->a), c = p->sigma1;
      break;
    }
    case VXC_LAW_LIANG: /* 3.72-3.75 */
      rate = zm >= liang_zmax(p, f_n, s) && vxg_dot(z, v) > 0 ? 0.0 : 1.0;
      k = p->k_b, c = p->c_b;
      break;
    default:
      gonthier(p, v, f_n, z, f, dz);
      return;
  }
  for (int i = 0; i < 3; i++) {
    dz[i] = rate * v[i];
    f[i] = k * z[i] + c * dz[i] + visc * v[i];
  }
}


/* f_n's checks: VXC_ERR_ARG when negative, VXC_ERR_NUMERIC when not finite (with `finite`). */
static vxc_status check_f_n(const char *fn, double f_n, int finite, vxc_error *err) {
  if (f_n < 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: f_n = %g N is negative", fn, f_n);
  }
  if (finite ? !isfinite(f_n) : isnan(f_n)) {
    return vxg_error_set(err, finite ? VXC_ERR_NUMERIC : VXC_ERR_ARG, NULL, 0, 0,
                         "%s: f_n = %g is not %s", fn, f_n, finite ? "finite" : "a number");
  }
  return VXC_OK;
}


vxc_status vxc_friction_init(vxc_friction_law law, double *state, vxc_error *err) {
  const void *ptr[] = {state};
  static const char *const names[] = {"state"};
  vxc_status st = vxci_friction_args("vxc_friction_init", law, 1, ptr, names, 1, err);
  if (st != VXC_OK) {
    return st;
  }
  memset(state, 0, sizeof *state * (size_t)vxc_friction_state_size(law));
  if (law == VXC_LAW_GONTHIER) {
    state[3] = 1.0;
  }
  return VXC_OK;
}


vxc_status vxc_friction_eval(vxc_friction_law law, const vxc_friction_params *p, const double v[3],
                             double f_n, const double *state, double f[3], double *dstate,
                             vxc_error *err) {
  static const char fn[] = "vxc_friction_eval";
  const void *ptr[] = {p, v, state, f};
  static const char *const names[] = {"p", "v", "state", "f"};
  vxc_status st = vxci_friction_args(fn, law, 1, ptr, names, 4, err);
  if (st == VXC_OK) {
    st = check_f_n(fn, f_n, 1, err);
  }
  int n = vxc_friction_state_size(law);
  if (st == VXC_OK) {
    st = vxci_check_finite(fn, "v", v, 3, err);
  }
  if (st == VXC_OK) {
    st = vxci_check_finite(fn, "state", state, n, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  double fo[3] = {0, 0, 0}, d[VXC_FRICTION_STATE_MAX] = {0, 0, 0, 0};
  if (f_n > 0) {
    eval(law, p, v, f_n, state, fo, d);
  }
  if (!vxci_finite(fo, 3) || !vxci_finite(d, n)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0,
                         "%s: law '%s' gave a force or rate that is not finite", fn,
                         vxc_friction_law_name(law));
  }
  memcpy(f, fo, sizeof fo);
  if (dstate) {
    memcpy(dstate, d, sizeof *d * (size_t)n);
  }
  return VXC_OK;
}


vxc_status vxc_friction_project(vxc_friction_law law, const vxc_friction_params *p,
                                const double v[3], double f_n, double *state, vxc_error *err) {
  static const char fn[] = "vxc_friction_project";
  const void *ptr[] = {p, v, state};
  static const char *const names[] = {"p", "v", "state"};
  vxc_status st = vxci_friction_args(fn, law, 1, ptr, names, 3, err);
  if (st == VXC_OK) {
    st = check_f_n(fn, f_n, 0, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  double zm = sqrt(vxg_dot(state, state)), lim = INFINITY;
  if (law == VXC_LAW_RESET_INTEGRATOR) {
    lim = p->mu_k * f_n / p->sigma0;
  } else if (law == VXC_LAW_LIANG) {
    lim = liang_zmax(p, f_n, sqrt(vxg_dot(v, v)));
  } else if (law == VXC_LAW_GONTHIER) {
    state[3] = fmin(fmax(state[3], 0.0), 1.0);
  }
  if (zm > lim) {
    for (int i = 0; i < 3; i++) {
      state[i] *= lim / zm;
    }
  }
  return VXC_OK;
}


vxc_status vxc_friction_reframe(vxc_friction_law law, double *state, const double n_old[3],
                                const double n_new[3], vxc_error *err) {
  static const char fn[] = "vxc_friction_reframe";
  const void *ptr[] = {state, n_old, n_new};
  static const char *const names[] = {"state", "n_old", "n_new"};
  vxc_status st = vxci_friction_args(fn, law, 1, ptr, names, 3, err);
  if (st != VXC_OK) {
    return st;
  }
  if (!(fabs(vxg_dot(n_old, n_old) - 1) <= 1e-6) || !(fabs(vxg_dot(n_new, n_new) - 1) <= 1e-6)) {
    const char *bad = !(fabs(vxg_dot(n_old, n_old) - 1) <= 1e-6) ? "n_old" : "n_new";
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is not a unit vector (to 1e-6)", fn,
                         bad);
  }
  /* Rodrigues with a = n_old x n_new (|a| = sin, c = cos): R z = c z + a x z + a (a.z) / (1 + c) */
  double c = vxg_dot(n_old, n_new);
  if (c <= -1.0 + 1e-12) {
    return VXC_OK;
  }
  double a[3], axz[3], z[3] = {state[0], state[1], state[2]};
  vxg_cross(n_old, n_new, a);
  vxg_cross(a, z, axz);
  double az = vxg_dot(a, z) / (1.0 + c);
  for (int i = 0; i < 3; i++) {
    state[i] = c * z[i] + axz[i] + a[i] * az;
  }
  return VXC_OK;
}


double vxc_friction_time_constant(vxc_friction_law law, const vxc_friction_params *p, double f_n,
                                  double v_max) {
  if ((unsigned)law >= VXC_LAW_COUNT || !p) {
    return NAN;
  }
  double f_c = p->mu_k * f_n;
  double slide = v_max > 0 ? f_c / (p->sigma0 * v_max) : INFINITY;
  switch (law) {
    case VXC_LAW_DAHL:
      return slide;
    case VXC_LAW_LUGRE:
    case VXC_LAW_ELASTO_PLASTIC:
      return fmin(p->sigma1 / p->sigma0, slide);
    case VXC_LAW_RESET_INTEGRATOR:
      return p->sigma1 / (p->sigma0 * (1.0 + p->a));
    case VXC_LAW_LIANG:
      return p->c_b / p->k_b;
    case VXC_LAW_GONTHIER:
      return p->sigma1 / p->sigma0;
    default:
      return INFINITY;
  }
}
