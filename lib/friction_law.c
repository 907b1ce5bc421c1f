/* friction_law.c: the friction-law library's names and parameters (vxc_friction.h):
 * the law table (name, state size), the defaults of Marques's table 3.2, setting a
 * parameter by name and checking a parameter set.
 *
 * Data: one row per law in `laws`, in the order of the enum; one row per parameter in
 * `fields` (name and offset in vxc_friction_params), so setting by name and the checks
 * read the same table. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "geom/geom.h"
#include "lib/friction_internal.h"

static const struct {
  const char *name;
  int state_size;
} laws[VXC_LAW_COUNT] = {
    {"coulomb", 0},
    {"coulomb-stiction", 0},
    {"viscous", 0},
    {"coulomb-viscous", 0},
    {"stribeck", 0},
    {"stribeck-viscous", 0},
    {"karnopp", 0},
    {"coulomb-linear", 0},
    {"coulomb-tanh", 0},
    {"threlfall", 0},
    {"bengisu-akay", 0},
    {"ambrosio", 0},
    {"awrejcewicz", 0},
    {"dahl", 3},
    {"lugre", 3},
    {"elasto-plastic", 3},
    {"reset-integrator", 3},
    {"liang", 3},
    {"gonthier", 4},
};

/* The parameters by name, with their lower bound (strict or not); NaN fails every check. */
static const struct {
  const char *name;
  size_t offset;
  double low;
  int strict;
} fields[] = {
#define F(n, lo, st) \
  { #n, offsetof(vxc_friction_params, n), lo, st }
    F(mu_s, 0, 0),   F(mu_k, 0, 0), F(f_v, 0, 0),     F(v_s, 0, 1),    F(delta, 0, 1),
    F(d_v, 0, 1),    F(v_0, 0, 1),  F(v_a0, 0, 1),    F(v_a1, 0, 1),   F(k_reg, 0, 1),
    F(xi, 0, 1),     F(a, 0, 0),    F(sigma0, 0, 1),  F(sigma1, 0, 0), F(sigma2, 0, 0),
    F(tau_dw, 0, 1), F(v_e, 0, 1),  F(z_ratio, 0, 0), F(k_b, 0, 1),    F(c_b, 0, 0),
    F(v_d, 0, 1),
#undef F
};
#define NFIELDS (sizeof fields / sizeof fields[0])


static double *field(vxc_friction_params *p, size_t i) {
  return (double *)((char *)p + fields[i].offset);
}


const char *vxc_friction_law_name(vxc_friction_law law) {
  return (unsigned)law < VXC_LAW_COUNT ? laws[law].name : NULL;
}


/* VXC_ERR_ARG: "unknown WHAT 'NAME'", with the nearest known name when there is one. */
static vxc_status unknown(vxc_error *err, const char *what, const char *name, const char *near) {
  return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "unknown %s '%.200s'%s%s%s", what, name,
                       near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
}


vxc_status vxc_friction_law_find(const char *name, vxc_friction_law *law, vxc_error *err) {
  if (!name || !law) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_friction_law_find: %s is NULL",
                         name ? "law" : "name");
  }
  for (int i = 0; i < VXC_LAW_COUNT; i++) {
    if (strcmp(name, laws[i].name) == 0) {
      *law = (vxc_friction_law)i;
      return VXC_OK;
    }
  }
  const char *names[VXC_LAW_COUNT];
  for (int i = 0; i < VXC_LAW_COUNT; i++) {
    names[i] = laws[i].name;
  }
  return unknown(err, "friction law", name, vxg_nearest_name(name, names, VXC_LAW_COUNT));
}


int vxc_friction_state_size(vxc_friction_law law) {
  return (unsigned)law < VXC_LAW_COUNT ? laws[law].state_size : -1;
}


vxc_status vxci_friction_args(const char *fn, vxc_friction_law law, int with_state,
                              const void *const *ptr, const char *const *names, int n,
                              vxc_error *err) {
  int size = vxc_friction_state_size(law);
  if (size < 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: law %d is not a vxc_friction_law", fn,
                         (int)law);
  }
  if ((size > 0) != (with_state != 0)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: law '%s' is a %s law", fn,
                         laws[law].name, size > 0 ? "stateful" : "static");
  }
  for (int i = 0; i < n; i++) {
    if (!ptr[i]) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn, names[i]);
    }
  }
  return VXC_OK;
}


void vxc_friction_params_default(vxc_friction_params *p) {
  if (!p) {
    return;
  }
  memset(p, 0, sizeof *p);
  p->mu_s = 0.15;
  p->mu_k = 0.1;
  p->f_v = 0.1;
  p->v_s = 1e-3;
  p->delta = 2;
  p->d_v = 1e-3;
  p->v_0 = 1e-3;
  p->v_a0 = 1e-4;
  p->v_a1 = 1e-3;
  p->k_reg = 1.0 / p->v_0;
  p->xi = 50;
  p->a = 0.5;
  p->sigma0 = 1e5;
  p->sigma1 = sqrt(1e5);
  p->sigma2 = 0.1;
  p->tau_dw = 2;
  p->v_e = p->v_s / 100;
  p->z_ratio = 0.7;
  p->k_b = 5e4;
  p->c_b = 80;
  p->v_d = 1e-3;
}


vxc_status vxc_friction_param_set(vxc_friction_params *p, const char *name, double value,
                                  vxc_error *err) {
  if (!p || !name) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_friction_param_set: %s is NULL",
                         p ? "name" : "params");
  }
  for (size_t i = 0; i < NFIELDS; i++) {
    if (strcmp(name, fields[i].name) == 0) {
      *field(p, i) = value;
      return VXC_OK;
    }
  }
  const char *names[NFIELDS];
  for (size_t i = 0; i < NFIELDS; i++) {
    names[i] = fields[i].name;
  }
  return unknown(err, "friction parameter", name, vxg_nearest_name(name, names, (int)NFIELDS));
}


vxc_status vxc_friction_params_check(const vxc_friction_params *p, vxc_error *err) {
  if (!p) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_friction_params_check: NULL");
  }
  vxc_friction_params q = *p;
  for (size_t i = 0; i < NFIELDS; i++) {
    double x = *field(&q, i);
    int ok = isfinite(x) && (fields[i].strict ? x > fields[i].low : x >= fields[i].low);
    if (!ok) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "friction parameter %s = %g: must be %s",
                           fields[i].name, x,
                           fields[i].strict ? "finite and > 0" : "finite and >= 0");
    }
  }
  if (!(q.mu_s >= q.mu_k)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "friction parameter mu_s = %g: must be >= mu_k (%g)", q.mu_s, q.mu_k);
  }
  if (!(q.v_a1 > q.v_a0)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "friction parameter v_a1 = %g: must be > v_a0 (%g)", q.v_a1, q.v_a0);
  }
  if (!(q.z_ratio < 1)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "friction parameter z_ratio = %g: must be < 1", q.z_ratio);
  }
  return VXC_OK;
}
