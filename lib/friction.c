/* friction.c: the bristle friction kernel shared by the volumetric and the point contact
 * models (lib/README.md section 7; thesis 3.29-3.42 for the point model, 4.219-4.243 for the
 * volumetric one), with its derivatives (vxci_friction_eval_d).
 *
 * Data: the states z (bristle deflection, a vector in the contact plane), theta (spin
 * bristle angle) and s_dw (dwell state) of one contact, read-only here; the kernel returns
 * their derivatives. The bristle rate blends a sticking rate (the relative motion itself)
 * and a sliding rate (relaxation toward the Coulomb deflection, time constant
 * tau_br = sigma1 / sigma0) with the stick indicator s = exp(-(v_avg / v_s)^2); the
 * bristle force sigma0 z + sigma1 dz/dt never exceeds mu_max C_vs (saturation branch,
 * where the rate is recomputed so the state stays consistent with the saturated force).
 * All forces are per unit normal force and scaled by f_n at the end, so the bristle
 * dynamics do not depend on f_n. Each quantity's gradient over the kernel's inputs x
 * (VXCI_FX) is carried beside it when derivatives are asked for: the branch the value
 * takes (saturated or not, inside v_e or not) is the branch differentiated. */
#include <math.h>
#include <string.h>

#include "lib/force_internal.h"
#include "geom/vec3.h"

#define NX VXCI_FX

/* The kernel's parts are inlined into both entries, so that the plain one (NULL gradients,
 * a constant there) is compiled without the gradients' work. */
#if defined(__GNUC__)
#define KERNEL_PART __attribute__((always_inline)) inline
#else
#define KERNEL_PART inline
#endif

/* y += a x over the NX inputs; x NULL: nothing. */
static void axpy(double a, const double *x, double *y) {
  for (int k = 0; x && k < NX; k++) {
    y[k] += a * x[k];
  }
}


/* Relaxed sign of a scalar u with tolerance u_e > 0 (the scalar form of 3.33): sgn(u) when
 * |u| > u_e, else a cubic that is 0 at 0, has slope 3 / (2 u_e) there and meets +-1 with
 * zero slope at |u| = u_e, so the spin ODE stays smooth through w_n = 0. *slope: its
 * derivative. */
static double sgn_e(double u, double u_e, double *slope) {
  if (fabs(u) > u_e) {
    *slope = 0.0;
    return u > 0 ? 1.0 : -1.0;
  }
  double r = u / u_e;
  *slope = 1.5 * (1.0 - r * r) / u_e;
  return r * (1.5 - 0.5 * r * r);
}


/* Relaxed direction of a vector (3.33): u / |u| when |u| > u_e, else the same cubic
 * blend, so it is continuous and vanishes at u = 0. jac (may be NULL): d out / d u, 3 x 3
 * (continuous at |u| = u_e). */
static KERNEL_PART void dir_e(const double u[3], double u_e, double out[3], double jac[9]) {
  double m = sqrt(vxg_dot(u, u));
  double f, g; /* out = f u, jac = f I + g u u^T */
  if (m > u_e) {
    f = 1.0 / m;
    g = -1.0 / (m * m * m);
  } else {
    double r = m / u_e;
    f = (1.5 - 0.5 * r * r) / u_e;
    g = -1.0 / (u_e * u_e * u_e);
  }
  for (int i = 0; i < 3; i++) {
    out[i] = f * u[i];
    for (int j = 0; jac && j < 3; j++) {
      jac[3 * i + j] = (i == j ? f : 0.0) + g * u[i] * u[j];
    }
  }
}


/* The blend of vxci_friction_blend with, when d is not NULL, the partial derivatives of s,
 * C_vs and C_ws over (vt, rw): d[2 k], d[2 k + 1] for k = 0, 1, 2. At vt = 0 or rw = 0 the
 * kinks of |v_t| and |rw| take the mean of their one-sided slopes. */
static KERNEL_PART double blend(const vxc_params *p, double vt, double rw, int contensou,
                                 double *c_vs, double *c_ws, double d[6]) {
  /* average surface velocity and stick indicator (4.212, 4.221; 3.30 without spin) */
  double v_avg = sqrt(vt * vt + rw * rw);
  double q = v_avg / p->v_s;
  double s = exp(-q * q);
  double ds[2] = {-2.0 * s * vt / (p->v_s * p->v_s), -2.0 * s * rw / (p->v_s * p->v_s)};

  /* Contensou factors, blended with s so they are 1 while sticking (4.223-4.224,
   * 4.235-4.236); the point model has none */
  *c_vs = *c_ws = 1.0;
  if (d) {
    memset(d, 0, 6 * sizeof *d);
    d[0] = ds[0];
    d[1] = ds[1];
  }
  if (contensou) {
    int outside = v_avg > p->v_e;
    double den = outside ? v_avg : p->v_e, aw = fabs(rw);
    *c_vs = s + (1.0 - s) * (vt / den);
    *c_ws = s + (1.0 - s) * (aw / den);
    for (int k = 0; d && k < 2; k++) {
      double dden = outside ? (k ? rw : vt) / v_avg : 0.0;
      double dvt = k ? 0.0 : 1.0, daw = k ? (rw > 0) - (rw < 0) : 0.0;
      d[2 + k] = ds[k] * (1.0 - vt / den) + (1.0 - s) * (dvt - vt * dden / den) / den;
      d[4 + k] = ds[k] * (1.0 - aw / den) + (1.0 - s) * (daw - aw * dden / den) / den;
    }
  }
  return s;
}


double vxci_friction_blend(const vxc_params *p, double vt, double rw, int contensou, double *c_vs,
                           double *c_ws) {
  return blend(p, vt, rw, contensou, c_vs, c_ws, NULL);
}


/* The kernel's gradients (d not NULL): s, C_vs, C_ws and mu_max over x. */
typedef struct kgrad {
  double s[NX], cv[NX], cw[NX], mu[NX];
} kgrad;


/* The saturation sat(b, f_max) of an n-vector b (n = 1: the spin's), its gradient rows db
 * (n x NX) and df_max's: b scaled to f_max when longer; db then k (I - b^ b^T) db + b^
 * df_max with k = f_max / |b|. Returns 1 when saturated. */
static KERNEL_PART int saturate(int n, double *b, double f_max, double *db,
                                const double *dfmax) {
  double bm = sqrt(n == 1 ? b[0] * b[0] : vxg_dot(b, b));
  if (!(bm > f_max)) {
    return 0;
  }
  double k = f_max / bm, u[3];
  for (int i = 0; i < n; i++) {
    u[i] = b[i] / bm;
    b[i] = n == 1 ? (b[i] > 0 ? f_max : -f_max) : b[i] * k;
  }
  if (db) {
    double ub[NX] = {0};
    for (int i = 0; i < n; i++) {
      axpy(u[i], db + NX * i, ub);
    }
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < NX; c++) {
        db[NX * i + c] = k * (db[NX * i + c] - u[i] * ub[c]) + u[i] * dfmax[c];
      }
    }
  }
  return 1;
}


/* The tangential bristle (4.227-4.230; 3.35, 3.41, 3.42): out->f_t, out->dz and, with g,
 * their gradients into d. */
static KERNEL_PART void tangential(const vxc_params *p, const vxci_friction_in *in, double s,
                                   double c_vs, double mu_max, const kgrad *g,
                                   vxci_friction_out *out, vxci_friction_d *d) {
  const double s0 = p->sigma0, s1 = p->sigma1, k1 = p->mu_c / s1, k2 = s0 / s1;
  double dir[3], jd[9], dz[3], b[3], db[3 * NX], dfmax[NX];
  dir_e(in->v_t, p->v_e, dir, g ? jd : NULL);
  for (int i = 0; i < 3; i++) {
    double slide = k1 * c_vs * dir[i] - k2 * in->z[i];
    dz[i] = s * in->v_t[i] + (1.0 - s) * slide;
    b[i] = s0 * in->z[i] + s1 * dz[i];
    if (g) { /* db = s0 dz_in + s1 d(dz) */
      double *r = db + NX * i;
      memset(r, 0, NX * sizeof *r);
      axpy(in->v_t[i] - slide, g->s, r);
      r[VXCI_X_V + i] += s;
      axpy((1.0 - s) * k1 * dir[i], g->cv, r);
      for (int j = 0; j < 3; j++) {
        r[VXCI_X_V + j] += (1.0 - s) * k1 * c_vs * jd[3 * i + j];
      }
      r[VXCI_X_Z + i] -= (1.0 - s) * k2;
      for (int c = 0; c < NX; c++) {
        r[c] *= s1;
      }
      r[VXCI_X_Z + i] += s0;
    }
  }
  if (g) {
    memset(dfmax, 0, sizeof dfmax);
    axpy(c_vs, g->mu, dfmax);
    axpy(mu_max, g->cv, dfmax);
  }
  if (saturate(3, b, mu_max * c_vs, g ? db : NULL, dfmax)) {
    for (int i = 0; i < 3; i++) { /* the rate recomputed from the saturated force */
      dz[i] = (b[i] - s0 * in->z[i]) / s1;
    }
  }
  for (int i = 0; i < 3; i++) {
    out->f_t[i] = -in->f_n * (b[i] + p->sigma2 * in->v_t[i]);
    out->dz[i] = dz[i];
    if (d) { /* f_t / f_n = -(b + sigma2 v_t); dz = (b - s0 z) / s1 on either branch */
      for (int c = 0; c < NX; c++) {
        d->ft[i][c] = -db[NX * i + c];
        d->dz[i][c] = db[NX * i + c] / s1;
      }
      d->ft[i][VXCI_X_V + i] -= p->sigma2;
      d->dz[i][VXCI_X_Z + i] -= s0 / s1;
    }
  }
}


/* The spinning bristle (4.239-4.243), in the scaled form m = sigma0 theta + sigma1 dtheta
 * with the limit M_max = mu_max C_ws / r_gyr and the torque r_gyr^2 f_n (m + sigma2 w_n):
 * its sliding limit is mu_c r_gyr f_n C_ws (4.237). The sign of w_n is relaxed with the
 * velocity tolerance v_e applied to r_gyr w_n. */
static KERNEL_PART void spinning(const vxc_params *p, const vxci_friction_in *in, double r,
                                 double s, double c_ws, double mu_max, const kgrad *g,
                                 vxci_friction_out *out, vxci_friction_d *d) {
  const double s0 = p->sigma0, s1 = p->sigma1, k2 = s0 / s1, c1 = p->mu_c / (r * s1);
  double slope, sg = sgn_e(r * in->w_n, p->v_e, &slope);
  double slide = c1 * c_ws * sg - k2 * in->theta;
  double dth = s * in->w_n + (1.0 - s) * slide;
  double m = s0 * in->theta + s1 * dth, dm[NX], dmax[NX];
  if (g) { /* dm = s0 dtheta_in + s1 d(dth) */
    memset(dm, 0, sizeof dm);
    memset(dmax, 0, sizeof dmax);
    axpy(in->w_n - slide, g->s, dm);
    dm[VXCI_X_W] += s + (1.0 - s) * c1 * c_ws * slope * r;
    axpy((1.0 - s) * c1 * sg, g->cw, dm);
    dm[VXCI_X_TH] -= (1.0 - s) * k2;
    for (int c = 0; c < NX; c++) {
      dm[c] *= s1;
    }
    dm[VXCI_X_TH] += s0;
    axpy(c_ws / r, g->mu, dmax);
    axpy(mu_max / r, g->cw, dmax);
  }
  if (saturate(1, &m, mu_max * c_ws / r, g ? dm : NULL, dmax)) {
    dth = (m - s0 * in->theta) / s1;
  }
  out->tau_spin = -r * r * in->f_n * (m + p->sigma2 * in->w_n);
  out->dtheta = dth;
  if (d) {
    for (int c = 0; c < NX; c++) {
      d->ts[c] = -r * r * dm[c];
      d->dth[c] = dm[c] / s1;
    }
    d->ts[VXCI_X_W] -= r * r * p->sigma2;
    d->dth[VXCI_X_TH] -= s0 / s1;
  }
}


/* The kernel, with derivatives when d is not NULL. */
static KERNEL_PART void kernel(const vxc_params *p, const vxci_friction_in *in,
                               vxci_friction_out *out, vxci_friction_d *d) {
  const double r = in->r_gyr > 0 ? in->r_gyr : 0.0;
  double vt = sqrt(vxg_dot(in->v_t, in->v_t)), rw = r * in->w_n, c_vs, c_ws, bd[6];
  double s = blend(p, vt, rw, in->contensou, &c_vs, &c_ws, d ? bd : NULL);
  kgrad g;
  if (d) {
    memset(d, 0, sizeof *d);
    memset(&g, 0, sizeof g);
    double *row[3] = {g.s, g.cv, g.cw};
    for (int k = 0; k < 3; k++) { /* d vt = v_t^ . dv_t (0 at v_t = 0), d rw = r dw_n */
      for (int i = 0; vt > 0 && i < 3; i++) {
        row[k][VXCI_X_V + i] = bd[2 * k] * in->v_t[i] / vt;
      }
      row[k][VXCI_X_W] = bd[2 * k + 1] * r;
    }
  }

  /* dwell time (3.36-3.37): s_dw rises slowly toward s (tau_dw), falls as fast as the
   * bristles (tau_br); mu_max reads it clamped to [0, 1] (its slope taken inside) */
  double sdw = in->s_dw < 0 ? 0.0 : (in->s_dw > 1 ? 1.0 : in->s_dw);
  double tau = s >= in->s_dw ? p->tau_dw : p->sigma1 / p->sigma0;
  out->ds_dw = (s - in->s_dw) / tau;
  double mu_max = p->mu_c + (p->mu_s - p->mu_c) * sdw;
  if (d) {
    axpy(1.0 / tau, g.s, d->dsdw);
    d->dsdw[VXCI_X_SDW] -= 1.0 / tau;
    g.mu[VXCI_X_SDW] = in->s_dw >= 0 && in->s_dw <= 1 ? p->mu_s - p->mu_c : 0.0;
  }
  tangential(p, in, s, c_vs, mu_max, d ? &g : NULL, out, d);
  out->tau_spin = 0.0;
  out->dtheta = 0.0;
  if (r > 0) {
    spinning(p, in, r, s, c_ws, mu_max, d ? &g : NULL, out, d);
  }
  out->s = s;
}


void vxci_friction_eval_d(const vxc_params *p, const vxci_friction_in *in, vxci_friction_out *out,
                          vxci_friction_d *d) {
  kernel(p, in, out, d);
}


void vxci_friction_eval(const vxc_params *p, const vxci_friction_in *in, vxci_friction_out *out) {
  kernel(p, in, out, NULL);
}
