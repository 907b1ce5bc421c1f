/* bristle_step.c: the contact model's friction as rows for velocity-level time-stepping
 * solvers (vxc_bristle.h; Peiret, Kovecses and Font-Llagunes, "The Bristle Friction Model
 * in a Linear Complementarity Formulation for Multibody Systems with Contacts", (3)-(4)).
 *
 * Data: the contact state of vxc_force.h, read by vxc_bristle_rows (z, phi, psi, s_dw)
 * and written by vxc_bristle_commit (the same slots). Each row is a bristle of stiffness k
 * and damping c along one direction; its deflection s is the state's component along it. */
#include <math.h>

#include "geom/geom.h"
#include "geom/vec3.h"
#include "lib/force_internal.h"
#include "lib/friction_internal.h"
#include "lib/vxc_bristle.h"

/* vxci_tangents (force_internal.h). */
void vxci_tangents(const double n[3], double t1[3], double t2[3]) {
  int k = 0;
  for (int i = 1; i < 3; i++) {
    if (fabs(n[i]) < fabs(n[k])) {
      k = i;
    }
  }
  double e[3] = {0, 0, 0};
  e[k] = 1.0;
  vxg_cross(e, n, t1);
  double l = sqrt(vxg_dot(t1, t1));
  for (int i = 0; i < 3; i++) {
    t1[i] /= l;
  }
  vxg_cross(n, t1, t2);
}


static void row_set(vxc_bristle_row *r, const double dir[3], double k, double c, double bound,
                    double s, double h) {
  for (int i = 0; i < 3; i++) {
    r->dir[i] = dir[i];
  }
  r->k = k;
  r->c = c;
  double slope = k * h + c;
  r->compliance = slope > 0 ? 1.0 / (h * slope) : HUGE_VAL;
  r->lambda0 = -k * s;
  r->hi = bound;
  r->lo = -bound;
}


/* The checks both entries share: p prepared, h finite and > 0. */
static vxc_status check_p_h(const char *fn, const vxc_params *p, double h, vxc_error *err) {
  if (!p->prepared) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "%s: p is not prepared (call vxc_params_prepare)", fn);
  }
  if (!isfinite(h)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: h = %g is not finite", fn, h);
  }
  if (!(h > 0)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: h = %g s is not > 0", fn, h);
  }
  return VXC_OK;
}


vxc_status vxc_bristle_rows(const vxc_params *p, const double state[VXC_STATE_SIZE], double f_n,
                            const double normal[3], double h,
                            vxc_bristle_row rows[VXC_BRISTLE_ROWS], vxc_error *err) {
  static const char fn[] = "vxc_bristle_rows";
  if (!p || !state || !normal || !rows) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn,
                         !p        ? "p"
                         : !state  ? "state"
                         : !normal ? "normal"
                                   : "rows");
  }
  vxc_status st = check_p_h(fn, p, h, err);
  if (st == VXC_OK) {
    st = vxci_check_finite(fn, "state", state, VXC_STATE_SIZE, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  if (!isfinite(f_n)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: f_n = %g is not finite", fn, f_n);
  }
  if (f_n < 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: f_n = %g N is negative", fn, f_n);
  }
  double n[3], t[2][3];
  st = vxci_unit_normal(fn, "normal", normal, n, err);
  if (st != VXC_OK) {
    return st;
  }
  vxci_tangents(n, t[0], t[1]);
  double sdw =
      state[VXC_STATE_SDW] < 0 ? 0.0 : (state[VXC_STATE_SDW] > 1 ? 1.0 : state[VXC_STATE_SDW]);
  double mu_max = p->mu_c + (p->mu_s - p->mu_c) * sdw, tau = p->sigma1 / p->sigma0;
  double on = p->rolling ? 1.0 : 0.0;
  double kr = on * f_n * p->eta_r / p->phi_0, ks = on * f_n * p->eta_s / p->phi_0;
  for (int j = 0; j < 2; j++) {
    row_set(&rows[j], t[j], p->sigma0 * f_n, p->sigma1 * f_n, mu_max * f_n,
            vxg_dot(state + VXC_STATE_Z, t[j]), h);
    row_set(&rows[2 + j], t[j], kr, kr * tau, on * p->eta_r * f_n,
            vxg_dot(state + VXC_STATE_PHI, t[j]), h);
  }
  row_set(&rows[4], n, ks, ks * tau, on * p->eta_s * f_n, state[VXC_STATE_PSI], h);
  return VXC_OK;
}


/* The backward-Euler bristle's deflection after the step: lambda+ = -(k s+ + c (s+ - s-)
 * / h) solved for s+. */
static double deflection(const vxc_bristle_row *r, double lambda, double h) {
  double s = r->k > 0 ? -r->lambda0 / r->k : 0.0;
  double den = r->k + r->c / h;
  return den > 0 ? (r->c * s / h - lambda) / den : 0.0;
}


vxc_status vxc_bristle_commit(const vxc_params *p, const vxc_bristle_row rows[VXC_BRISTLE_ROWS],
                              const double lambda[VXC_BRISTLE_ROWS],
                              const double v[VXC_BRISTLE_ROWS], double h,
                              double state[VXC_STATE_SIZE], vxc_error *err) {
  static const char fn[] = "vxc_bristle_commit";
  if (!p || !rows || !lambda || !v || !state) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn,
                         !p        ? "p"
                         : !rows   ? "rows"
                         : !lambda ? "lambda"
                         : !v      ? "v"
                                   : "state");
  }
  vxc_status st = check_p_h(fn, p, h, err);
  if (st == VXC_OK) {
    st = vxci_check_finite(fn, "lambda", lambda, VXC_BRISTLE_ROWS, err);
  }
  if (st == VXC_OK) {
    st = vxci_check_finite(fn, "v", v, VXC_BRISTLE_ROWS, err);
  }
  if (st == VXC_OK) {
    st = vxci_check_finite(fn, "state", state, VXC_STATE_SIZE, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  double s[VXC_BRISTLE_ROWS];
  for (int j = 0; j < VXC_BRISTLE_ROWS; j++) {
    s[j] = deflection(&rows[j], lambda[j], h);
  }
  for (int i = 0; i < 3; i++) {
    state[VXC_STATE_Z + i] = s[0] * rows[0].dir[i] + s[1] * rows[1].dir[i];
    state[VXC_STATE_PHI + i] = s[2] * rows[2].dir[i] + s[3] * rows[3].dir[i];
  }
  state[VXC_STATE_PSI] = s[4];
  /* dwell (3.36-3.37) by backward Euler: s_dw rises toward the stick indicator with
   * tau_dw, falls with sigma1 / sigma0 */
  double q = hypot(v[0], v[1]) / p->v_s, stick = exp(-q * q), sdw = state[VXC_STATE_SDW];
  double tau = stick >= sdw ? p->tau_dw : p->sigma1 / p->sigma0;
  state[VXC_STATE_SDW] = (sdw + (h / tau) * stick) / (1.0 + h / tau);
  return VXC_OK;
}
