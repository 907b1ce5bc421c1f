/* friction.c: the bristle friction kernel shared by the volumetric and the point contact
 * models (lib/README.md section 7; thesis 3.29-3.42 for the point model, 4.219-4.243 for the
 * volumetric one).
 *
 * Data: the states z (bristle deflection, a vector in the contact plane), theta (spin
 * bristle angle) and s_dw (dwell state) of one contact, read-only here; the kernel returns
 * their derivatives. The bristle rate blends a sticking rate (the relative motion itself)
 * and a sliding rate (relaxation toward the Coulomb deflection, time constant
 * tau_br = sigma1 / sigma0) with the stick indicator s = exp(-(v_avg / v_s)^2); the
 * bristle force sigma0 z + sigma1 dz/dt never exceeds mu_max C_vs (saturation branch,
 * where the rate is recomputed so the state stays consistent with the saturated force).
 * All forces are per unit normal force and scaled by f_n at the end, so the bristle
 * dynamics do not depend on f_n. */
#include <math.h>

#include "lib/force_internal.h"
#include "geom/vec3.h"

/* Relaxed sign of a scalar u with tolerance u_e > 0 (the scalar form of 3.33): sgn(u) when
 * |u| > u_e, else a cubic that is 0 at 0, has slope 3 / (2 u_e) there and meets +-1 with
 * zero slope at |u| = u_e, so the spin ODE stays smooth through w_n = 0. */
static double sgn_e(double u, double u_e) {
  if (fabs(u) > u_e) {
    return u > 0 ? 1.0 : -1.0;
  }
  double r = u / u_e;
  return r * (1.5 - 0.5 * r * r);
}


/* Relaxed direction of a vector (3.33): u / |u| when |u| > u_e, else the same cubic
 * blend, so it is continuous and vanishes at u = 0. */
static void dir_e(const double u[3], double u_e, double out[3]) {
  double m = sqrt(vxg_dot(u, u));
  double f;
  if (m > u_e) {
    f = 1.0 / m;
  } else {
    double r = m / u_e;
    f = (1.5 - 0.5 * r * r) / u_e;
  }
  for (int i = 0; i < 3; i++) {
    out[i] = f * u[i];
  }
}


double vxci_friction_blend(const vxc_params *p, double vt, double rw, int contensou, double *c_vs,
                           double *c_ws) {
  /* average surface velocity and stick indicator (4.212, 4.221; 3.30 without spin) */
  double v_avg = sqrt(vt * vt + rw * rw);
  double q = v_avg / p->v_s;
  double s = exp(-q * q);

  /* Contensou factors, blended with s so they are 1 while sticking (4.223-4.224,
   * 4.235-4.236); the point model has none */
  *c_vs = *c_ws = 1.0;
  if (contensou) {
    double den = v_avg > p->v_e ? v_avg : p->v_e;
    *c_vs = s + (1.0 - s) * (vt / den);
    *c_ws = s + (1.0 - s) * (fabs(rw) / den);
  }
  return s;
}


void vxci_friction_eval(const vxc_params *p, const vxci_friction_in *in, vxci_friction_out *out) {
  const double s0 = p->sigma0, s1 = p->sigma1;
  const double r = in->r_gyr > 0 ? in->r_gyr : 0.0;
  double rw = r * in->w_n, c_vs, c_ws;
  double s = vxci_friction_blend(p, sqrt(vxg_dot(in->v_t, in->v_t)), rw, in->contensou, &c_vs,
                                 &c_ws);

  /* dwell time (3.36-3.37): s_dw rises slowly toward s (tau_dw), falls as fast as the
   * bristles (tau_br) */
  double sdw = in->s_dw < 0 ? 0.0 : (in->s_dw > 1 ? 1.0 : in->s_dw);
  double tau = s >= in->s_dw ? p->tau_dw : s1 / s0;
  out->ds_dw = (s - in->s_dw) / tau;
  double mu_max = p->mu_c + (p->mu_s - p->mu_c) * sdw;

  /* tangential bristle (4.227-4.230; 3.35, 3.41, 3.42) */
  double dir[3], dz[3], b[3];
  dir_e(in->v_t, p->v_e, dir);
  for (int i = 0; i < 3; i++) {
    dz[i] = s * in->v_t[i] + (1.0 - s) * ((p->mu_c / s1) * c_vs * dir[i] - (s0 / s1) * in->z[i]);
    b[i] = s0 * in->z[i] + s1 * dz[i];
  }
  double f_max = mu_max * c_vs;
  double bm = sqrt(vxg_dot(b, b));
  if (bm > f_max) {
    /* saturated: the bristle force is scaled to f_max and the rate recomputed from it */
    double k = f_max / bm;
    for (int i = 0; i < 3; i++) {
      b[i] *= k;
      dz[i] = (b[i] - s0 * in->z[i]) / s1;
    }
  }
  for (int i = 0; i < 3; i++) {
    out->f_t[i] = -in->f_n * (b[i] + p->sigma2 * in->v_t[i]);
    out->dz[i] = dz[i];
  }

  /* spinning bristle (4.239-4.243), in the scaled form m = sigma0 theta + sigma1 dtheta
   * with the limit M_max = mu_max C_ws / r_gyr and the torque r_gyr^2 f_n (m + sigma2 w_n):
   * its sliding limit is mu_c r_gyr f_n C_ws (4.237). The sign of w_n is relaxed with the
   * velocity tolerance v_e applied to r_gyr w_n. */
  out->tau_spin = 0.0;
  out->dtheta = 0.0;
  if (r > 0) {
    double sg = sgn_e(rw, p->v_e);
    double dth =
        s * in->w_n + (1.0 - s) * ((p->mu_c * c_ws / (r * s1)) * sg - (s0 / s1) * in->theta);
    double m = s0 * in->theta + s1 * dth;
    double m_max = mu_max * c_ws / r;
    if (fabs(m) > m_max) {
      m = m > 0 ? m_max : -m_max;
      dth = (m - s0 * in->theta) / s1;
    }
    out->tau_spin = -r * r * in->f_n * (m + p->sigma2 * in->w_n);
    out->dtheta = dth;
  }
  out->s = s;
}
