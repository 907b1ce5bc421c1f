/* friction_static.c: the static friction laws (vxc_friction_static), each a function of
 * the relative velocity, the normal force and, for the set-valued ones, the force that
 * keeps the contact stuck. Equation numbers are those of Marques, "Frictional Contacts in
 * Multibody Dynamics", chapter 3.
 *
 * Most laws are a magnitude along sgn(v) (3.3) plus a viscous term; the set-valued laws
 * (3.1, 3.4, 3.6, 3.8, 3.11, 3.22) have a branch min(|F_e|, F_lim) sgn(F_e) where the
 * velocity is zero or within a band, which is where a contact sticks. */
#include <math.h>

#include "geom/geom.h"
#include "geom/vec3.h"
#include "lib/friction_internal.h"

double vxci_sgn3(const double v[3], double out[3]) {
  double m = hypot(hypot(v[0], v[1]), v[2]); /* no underflow: a tiny v keeps its direction */
  for (int i = 0; i < 3; i++) {
    out[i] = m > 0 ? v[i] / m : 0.0;
  }
  return m;
}


int vxci_finite(const double *x, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}


vxc_status vxci_check_finite(const char *fn, const char *what, const double *x, int n,
                             vxc_error *err) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: %s[%d] = %g is not finite", fn,
                           what, i, x[i]);
    }
  }
  return VXC_OK;
}


double vxci_stribeck(const vxc_friction_params *p, double f_n, double speed) {
  double f_c = p->mu_k * f_n, f_s = p->mu_s * f_n;
  return f_c + (f_s - f_c) * exp(-pow(speed / p->v_s, p->delta));
}


/* The set-valued branch min(|F_e|, lim) sgn(F_e): the contact sticks when |F_e| <= lim.
 * Without F_e (NULL) the force is 0 and the contact is not said to stick. */
static void stick_branch(const double *f_e, double lim, double f[3], int *stuck) {
  if (!f_e) {
    f[0] = f[1] = f[2] = 0.0;
    return;
  }
  double u[3], m = vxci_sgn3(f_e, u);
  double g = m <= lim ? m : lim;
  for (int i = 0; i < 3; i++) {
    f[i] = g * u[i];
  }
  *stuck = m <= lim;
}


/* Magnitude of the laws that are a function of |v| alone along sgn(v) (the viscous term
 * added apart); *set_valued tells the caller to use the stick branch at v = 0 with the
 * returned limit instead. */
static double magnitude(vxc_friction_law law, const vxc_friction_params *p, double f_n, double s,
                        int *set_valued) {
  double f_c = p->mu_k * f_n, f_s = p->mu_s * f_n;
  *set_valued = 0;
  switch (law) {
    case VXC_LAW_COULOMB:         /* 3.1-3.2 */
    case VXC_LAW_COULOMB_VISCOUS: /* 3.6 */
      *set_valued = s == 0;
      return f_c;
    case VXC_LAW_COULOMB_STICTION: /* 3.4-3.5 */
      *set_valued = s == 0;
      return s == 0 ? f_s : f_c;
    case VXC_LAW_STRIBECK: /* 3.8, 3.10 */
    case VXC_LAW_STRIBECK_VISCOUS:
      *set_valued = s == 0;
      return vxci_stribeck(p, f_n, s);
    case VXC_LAW_KARNOPP: /* 3.11 with Coulomb outside the band */
      *set_valued = s <= p->d_v;
      return s <= p->d_v ? f_s : f_c;
    case VXC_LAW_COULOMB_LINEAR: /* 3.13 */
      return f_c * fmin(p->k_reg * s, 1.0);
    case VXC_LAW_COULOMB_TANH: /* 3.14 */
      return f_c * tanh(p->k_reg * s);
    case VXC_LAW_THRELFALL: /* 3.15 */
      return s <= p->v_0 ? f_c * (1.0 - exp(-3.0 * s / p->v_0)) : f_c;
    case VXC_LAW_BENGISU_AKAY: { /* 3.17 */
      double d = s - p->v_0;
      return s < p->v_0 ? f_s - f_s * d * d / (p->v_0 * p->v_0)
                        : f_c + (f_s - f_c) * exp(-p->xi * d);
    }
    case VXC_LAW_AMBROSIO: /* 3.18 */
      if (s <= p->v_a0) {
        return 0.0;
      }
      return s < p->v_a1 ? f_c * (s - p->v_a0) / (p->v_a1 - p->v_a0) : f_c;
    default: /* viscous: no Coulomb part */
      return 0.0;
  }
}


/* Awrejcewicz et al. (3.22), Coulomb outside the band |v| <= v_0; F_e unknown counts as
 * zero. The contact sticks at v = 0 with |F_e| <= F_S (there A = 0 and F = F_e). */
static void awrejcewicz(const vxc_friction_params *p, const double v[3], double f_n,
                        const double *f_e, double f[3], int *stuck) {
  double u[3], s = vxci_sgn3(v, u);
  double f_c = p->mu_k * f_n, f_s = p->mu_s * f_n;
  double e[3] = {0, 0, 0};
  if (f_e) {
    e[0] = f_e[0], e[1] = f_e[1], e[2] = f_e[2];
  }
  double ue[3], me = vxci_sgn3(e, ue);
  double r = s / p->v_0, A = r * r * (3.0 - 2.0 * r);
  for (int i = 0; i < 3; i++) {
    if (s > p->v_0) {
      f[i] = f_c * u[i];
    } else if (me > f_s && vxg_dot(e, v) >= 0) {
      f[i] = f_s * ue[i];
    } else if (me > f_s) {
      f[i] = (2.0 * A - 1.0) * f_s * u[i];
    } else {
      f[i] = A * (-e[i] + f_s * u[i]) + e[i];
    }
  }
  *stuck = f_e && s == 0 && me <= f_s;
}


vxc_status vxc_friction_static(vxc_friction_law law, const vxc_friction_params *p,
                               const double v[3], double f_n, const double f_stick[3], double f[3],
                               int *stuck, vxc_error *err) {
  static const char fn[] = "vxc_friction_static";
  const void *ptr[] = {p, v, f};
  static const char *const names[] = {"p", "v", "f"};
  vxc_status s = vxci_friction_args(fn, law, 0, ptr, names, 3, err);
  if (s != VXC_OK) {
    return s;
  }
  if (f_n < 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: f_n = %g N is negative", fn, f_n);
  }
  if (!isfinite(f_n)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: f_n = %g is not finite", fn, f_n);
  }
  s = vxci_check_finite(fn, "v", v, 3, err);
  if (s == VXC_OK && f_stick) {
    s = vxci_check_finite(fn, "f_stick", f_stick, 3, err);
  }
  if (s != VXC_OK) {
    return s;
  }
  int st = 0;
  double out[3];
  if (law == VXC_LAW_AWREJCEWICZ) {
    awrejcewicz(p, v, f_n, f_stick, out, &st);
  } else {
    double u[3], s = vxci_sgn3(v, u);
    int set_valued;
    double g = magnitude(law, p, f_n, s, &set_valued);
    double visc =
        law == VXC_LAW_VISCOUS || law == VXC_LAW_COULOMB_VISCOUS || law == VXC_LAW_STRIBECK_VISCOUS
            ? p->f_v
            : 0.0;
    if (set_valued) {
      stick_branch(f_stick, g, out, &st);
    } else {
      for (int i = 0; i < 3; i++) {
        out[i] = g * u[i] + visc * v[i];
      }
    }
  }
  for (int i = 0; i < 3; i++) {
    f[i] = out[i];
  }
  if (stuck) {
    *stuck = st;
  }
  return VXC_OK;
}
