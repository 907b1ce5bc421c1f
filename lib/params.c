/* params.c: parameters of the contact force models: defaults, setting by name,
 * validation, and the derived damping root d of the impact equation (lib/README.md section 5).
 *
 * Data: a vxc_params is a plain struct; `prepared` is 1 only after vxc_params_prepare
 * accepted the current values and stored d = vxc_damping_root(e_eff). vxc_params_set
 * clears it, so a set of values is always validated before the models use it. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "lib/force_internal.h"

/* gravity used only by the friction guideline sigma1 = 2 sqrt(sigma0 / g) (3.52) */
#define VXC_G_STD 9.81
/* pre-sliding distance of the guideline sigma0 = mu_s / dz (3.46): 0.1 mm */
#define VXC_DZ_DEFAULT 1e-4

#ifndef M_PI
#define M_PI 3.14159265358979323846 /* -std=c11 hides it in <math.h> */
#endif


void vxc_params_default(vxc_params *p) {
  if (!p) {
    return;
  }
  memset(p, 0, sizeof *p);
  /* normal model: thesis table 5.5 (ball on a table), relaxation off */
  p->k_v = 1e11;
  p->e_eff = 0.5;
  p->v_small = 1e-3;
  p->tau_r = 0.0;
  /* friction: thesis table 5.6 (ball on a table) for mu_s, mu_c, sigma2, v_s, tau_dw;
   * sigma0, sigma1 from the guidelines 3.46 and 3.52 */
  p->mu_s = 0.08;
  p->mu_c = 0.05;
  p->sigma0 = p->mu_s / VXC_DZ_DEFAULT;
  p->sigma1 = 2.0 * sqrt(p->sigma0 / VXC_G_STD);
  p->sigma2 = 0.0;
  p->v_s = 1e-3;
  p->tau_dw = 0.3;
  p->v_e = p->v_s / 100.0;
  /* contact normal (sec. 4.5) */
  p->theta_c = M_PI / 180.0;
  p->r_n = 0.95;
  p->n_i = 15;
  /* point model: Hertz exponent, thesis sec. 5.1.3 ball on a plane */
  p->k_p = 1e6;
  p->p_exp = 1.5;
  p->friction_law = 0;
  p->rolling = 0;
  p->eta_r = 0.0;
  p->eta_s = 0.0;
  p->phi_0 = 1e-4;
  p->d = vxc_damping_root(p->e_eff);
  p->prepared = 1;
}


vxc_status vxc_params_set(vxc_params *p, const char *name, double value, vxc_error *err) {
  if (!p || !name) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_params_set: %s is NULL",
                         p ? "name" : "params");
  }
  vxc_params q = *p;
  if (strcmp(name, "k_v") == 0) {
    q.k_v = value;
  } else if (strcmp(name, "e_eff") == 0) {
    q.e_eff = value;
  } else if (strcmp(name, "v_small") == 0) {
    q.v_small = value;
  } else if (strcmp(name, "tau_r") == 0) {
    q.tau_r = value;
  } else if (strcmp(name, "mu_s") == 0) {
    q.mu_s = value;
  } else if (strcmp(name, "mu_c") == 0) {
    q.mu_c = value;
  } else if (strcmp(name, "sigma0") == 0) {
    q.sigma0 = value;
  } else if (strcmp(name, "sigma1") == 0) {
    q.sigma1 = value;
  } else if (strcmp(name, "sigma2") == 0) {
    q.sigma2 = value;
  } else if (strcmp(name, "v_s") == 0) {
    /* v_e follows v_s while it still holds the v_s / 100 rule (it was not set apart) */
    if (fabs(q.v_e - q.v_s / 100.0) <= 1e-12 * fabs(q.v_s)) {
      q.v_e = value / 100.0;
    }
    q.v_s = value;
  } else if (strcmp(name, "tau_dw") == 0) {
    q.tau_dw = value;
  } else if (strcmp(name, "v_e") == 0) {
    q.v_e = value;
  } else if (strcmp(name, "theta_c") == 0) {
    q.theta_c = value;
  } else if (strcmp(name, "r_n") == 0) {
    q.r_n = value;
  } else if (strcmp(name, "n_i") == 0) {
    if (!(value >= 1 && value <= 1e6) || value != floor(value)) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                           "parameter n_i must be an integer in [1, 1e6], got %g", value);
    }
    q.n_i = (int)value;
  } else if (strcmp(name, "rolling") == 0) {
    if (value != 0 && value != 1) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                           "parameter rolling must be 0 (volumetric) or 1 (rate-independent), "
                           "got %g",
                           value);
    }
    q.rolling = (int)value;
  } else if (strcmp(name, "eta_r") == 0) {
    q.eta_r = value;
  } else if (strcmp(name, "eta_s") == 0) {
    q.eta_s = value;
  } else if (strcmp(name, "phi_0") == 0) {
    q.phi_0 = value;
  } else if (strcmp(name, "k_p") == 0) {
    q.k_p = value;
  } else if (strcmp(name, "p_exp") == 0) {
    q.p_exp = value;
  } else {
    static const char *const names[] = {
        "k_v",    "e_eff",   "v_small", "tau_r",  "mu_s",  "mu_c",    "sigma0",
        "sigma1", "sigma2",  "v_s",     "tau_dw", "v_e",   "theta_c", "r_n",
        "n_i",    "rolling", "eta_r",   "eta_s",  "phi_0", "k_p",     "p_exp"};
    const char *near = vxc_nearest_name(name, names, (int)(sizeof names / sizeof names[0]));
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "unknown parameter '%.200s'%s%s%s", name,
                         near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  }
  q.prepared = 0;
  *p = q;
  return VXC_OK;
}


vxc_status vxc_params_set_law(vxc_params *p, const char *law, vxc_error *err) {
  if (!p || !law) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_params_set_law: %s is NULL",
                         p ? "law" : "params");
  }
  vxc_friction_law l = VXC_LAW_GONTHIER;
  if (strcmp(law, "default") != 0) {
    vxc_status st = vxc_friction_law_find(law, &l, err);
    if (st != VXC_OK) {
      return st;
    }
  }
  p->friction_law = strcmp(law, "default") == 0 ? 0 : 1 + (int)l;
  p->prepared = 0;
  return VXC_OK;
}


/* One rule of vxc_params_prepare: `ok` false rejects the parameter called `name`. */
static vxc_status check(int ok, const char *name, double value, const char *rule, vxc_error *err) {
  if (ok) {
    return VXC_OK;
  }
  return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "parameter %s = %g: %s", name, value, rule);
}


vxc_status vxc_params_prepare(vxc_params *p, vxc_error *err) {
  if (!p) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_params_prepare: params is NULL");
  }
  /* each test is written so that NaN fails it (comparisons with NaN are false) */
  struct {
    int ok;
    const char *name;
    double value;
    const char *rule;
  } rules[] = {
      {p->k_v > 0 && isfinite(p->k_v), "k_v", p->k_v, "must be finite and > 0"},
      {p->e_eff > 0 && p->e_eff <= 1, "e_eff", p->e_eff, "must be in (0, 1]"},
      {p->v_small > 0 && isfinite(p->v_small), "v_small", p->v_small, "must be finite and > 0"},
      {p->tau_r >= 0 && isfinite(p->tau_r), "tau_r", p->tau_r,
       "must be 0 (no relaxation) or finite and > 0"},
      {p->mu_c >= 0 && isfinite(p->mu_c), "mu_c", p->mu_c, "must be finite and >= 0"},
      {p->mu_s >= p->mu_c && isfinite(p->mu_s), "mu_s", p->mu_s, "must be finite and >= mu_c"},
      {p->sigma0 > 0 && isfinite(p->sigma0), "sigma0", p->sigma0, "must be finite and > 0"},
      {p->sigma1 > 0 && isfinite(p->sigma1), "sigma1", p->sigma1, "must be finite and > 0"},
      {p->sigma2 >= 0 && isfinite(p->sigma2), "sigma2", p->sigma2, "must be finite and >= 0"},
      {p->v_s > 0 && isfinite(p->v_s), "v_s", p->v_s, "must be finite and > 0"},
      {p->tau_dw > 0 && isfinite(p->tau_dw), "tau_dw", p->tau_dw, "must be finite and > 0"},
      {p->v_e > 0 && isfinite(p->v_e), "v_e", p->v_e, "must be finite and > 0"},
      {p->theta_c > 0 && p->theta_c < M_PI, "theta_c", p->theta_c, "must be in (0, pi) rad"},
      {p->r_n >= 0 && p->r_n < 1, "r_n", p->r_n, "must be in [0, 1)"},
      {p->n_i >= 1, "n_i", (double)p->n_i, "must be >= 1"},
      {p->k_p > 0 && isfinite(p->k_p), "k_p", p->k_p, "must be finite and > 0"},
      {p->p_exp > 0 && isfinite(p->p_exp), "p_exp", p->p_exp, "must be finite and > 0"},
      {p->eta_r >= 0 && isfinite(p->eta_r), "eta_r", p->eta_r, "must be finite and >= 0"},
      {p->eta_s >= 0 && isfinite(p->eta_s), "eta_s", p->eta_s, "must be finite and >= 0"},
      {p->phi_0 > 0 && isfinite(p->phi_0), "phi_0", p->phi_0, "must be finite and > 0"},
      {p->rolling == 0 || p->rolling == 1, "rolling", (double)p->rolling, "must be 0 or 1"},
      {p->friction_law >= 0 && p->friction_law <= VXC_LAW_COUNT, "friction_law",
       (double)p->friction_law, "must be 0 or 1 + a vxc_friction_law"},
  };
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    vxc_status st = check(rules[i].ok, rules[i].name, rules[i].value, rules[i].rule, err);
    if (st != VXC_OK) {
      p->prepared = 0;
      return st;
    }
  }
  p->d = vxc_damping_root(p->e_eff);
  p->prepared = 1;
  return VXC_OK;
}


/* phi(x) = x - ln(1 + x) for x > -1, to full relative precision also for small |x|, where
 * the two terms cancel: with t = x / (2 + x), ln(1 + x) = 2 atanh(t) and x - 2 t =
 * x^2 / (2 + x), so phi = x^2 / (2 + x) - 2 (t^3/3 + t^5/5 + ...), a fast series for
 * |t| <= 1/3. */
static double phi(double x) {
  if (fabs(x) > 0.5) {
    return x - log1p(x);
  }
  double t = x / (2.0 + x);
  double t2 = t * t;
  double term = t * t2, sum = 0.0;
  for (int k = 3; k < 80; k += 2) {
    double add = term / k;
    sum += add;
    if (fabs(add) <= 1e-18 * fabs(sum)) {
      break;
    }
    term *= t2;
  }
  return x * x / (2.0 + x) - 2.0 * sum;
}


/* The impact equation d/e - ln(1 + d/e) + d + ln(1 - d) = phi(d/e) - phi(-d). It is
 * positive on (0, d*) and negative on (d*, 1): near 0 it behaves like
 * (d^2 / 2)(1/e^2 - 1) > 0, and ln(1 - d) -> -inf as d -> 1. */
static double impact_eq(double d, double e) {
  return phi(d / e) - phi(-d);
}


double vxc_damping_root(double e) {
  if (!(e > 0 && e <= 1)) {
    return NAN;
  }
  if (e == 1) {
    return 0.0;
  }
  /* bisection on the sign change, until the bracket is two adjacent doubles: about 60
   * to 80 halvings, once per parameter set, and immune to the double root at d = 0 that
   * would attract an unguarded Newton iteration */
  double lo = 0.0, hi = 1.0;
  for (int it = 0; it < 2000; it++) {
    double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) {
      break;
    }
    if (impact_eq(mid, e) > 0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  /* the endpoint with the smaller residual; never 1 itself (d < 1 for e > 0) */
  if (hi >= 1.0) {
    return lo;
  }
  return fabs(impact_eq(lo, e)) <= fabs(impact_eq(hi, e)) ? lo : hi;
}


double vxc_series_stiffness(double k1, double k2) {
  if (!(k1 > 0) || !(k2 > 0)) {
    return NAN;
  }
  if (isinf(k1)) {
    return k2;
  }
  if (isinf(k2)) {
    return k1;
  }
  return 1.0 / (1.0 / k1 + 1.0 / k2);
}
