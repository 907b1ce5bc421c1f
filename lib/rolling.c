/* rolling.c: rate-independent rolling and spinning friction (Tasora and Anitescu, "A
 * complementarity-based rolling friction model for rigid contacts": |M_r| <= eta_r f_n
 * against the rolling velocity, |M_s| <= eta_s f_n against the spin), in a bristle form,
 * not a regularised one, so that it holds a body at rest (vxc_params_set, rolling = 1),
 * with its derivatives (vxci_rolling_d).
 *
 * Data: the angles phi (rolling, a vector in the contact plane) and psi (spin) of the
 * contact state, read-only here. Per unit normal force, a bristle's torque is
 * b = kappa (phi + tau w) with phi' = w (it follows the relative rate: stick) while |b|
 * stays within eta; beyond, b is scaled to eta and phi' recomputed from it, so phi
 * relaxes toward eta / kappa and steady rolling meets exactly eta f_n (the sliding
 * bristle's saturation branch, thesis 4.227-4.230, without the Stribeck blend). */
#include <math.h>
#include <string.h>

#include "geom/vec3.h"
#include "lib/force_internal.h"

/* One bristle of n components with bound eta (m), stiffness kappa = eta / phi_0 (m/rad)
 * and time constant tau (s): the torque per unit normal force m and the rate dphi; with jm,
 * jr (may be NULL, n x 2n each) their derivatives over (phi, w), on the branch taken. */
static void bristle(int n, double eta, double phi_0, double tau, const double *phi, const double *w,
                    double *m, double *dphi, double *jm, double *jr) {
  if (jm) {
    memset(jm, 0, 2 * n * n * sizeof *jm);
    memset(jr, 0, 2 * n * n * sizeof *jr);
  }
  if (!(eta > 0)) {
    for (int i = 0; i < n; i++) {
      m[i] = dphi[i] = 0.0;
    }
    return;
  }
  double kappa = eta / phi_0, b2 = 0.0;
  for (int i = 0; i < n; i++) {
    m[i] = kappa * (phi[i] + tau * w[i]);
    dphi[i] = w[i];
    b2 += m[i] * m[i];
    if (jm) {
      jm[2 * n * i + i] = kappa;
      jm[2 * n * i + n + i] = kappa * tau;
      jr[2 * n * i + n + i] = 1.0;
    }
  }
  double bm = sqrt(b2);
  if (bm > eta) {
    double k = eta / bm, u[3];
    for (int i = 0; i < n; i++) {
      u[i] = m[i] / bm;
    }
    for (int i = 0; jm && i < n; i++) { /* d(k m) = k (I - u u^T) dm, dm = kappa (dphi + tau dw) */
      for (int j = 0; j < n; j++) {
        double pr = k * ((i == j) - u[i] * u[j]);
        jm[2 * n * i + j] = pr * kappa;
        jm[2 * n * i + n + j] = pr * kappa * tau;
        jr[2 * n * i + j] = (pr - (i == j)) / tau;
        jr[2 * n * i + n + j] = pr;
      }
    }
    for (int i = 0; i < n; i++) {
      m[i] *= k;
      dphi[i] = (m[i] / kappa - phi[i]) / tau;
    }
  }
}


/* The torques per unit normal force and the rates, and with d (may be NULL) their
 * derivatives over (w_r, phi, psi). */
static void rolling(const vxc_params *p, const double n[3], const double w_r[3],
                    const double state[VXC_STATE_SIZE], double m[3], double *ms, double dphi[3],
                    double *dpsi, vxci_rolling_d *d) {
  const double tau = p->sigma1 / p->sigma0;
  double w_n = vxg_dot(w_r, n), w_t[3], phi[3];
  const double *ph = state + VXC_STATE_PHI;
  double pn = vxg_dot(ph, n);
  for (int i = 0; i < 3; i++) {
    w_t[i] = w_r[i] - w_n * n[i];
    phi[i] = ph[i] - pn * n[i];
  }
  double jm[18], jr[18], js[2], jq[2];
  bristle(3, p->eta_r, p->phi_0, tau, phi, w_t, m, dphi, d ? jm : NULL, jr);
  bristle(1, p->eta_s, p->phi_0, tau, state + VXC_STATE_PSI, &w_n, ms, dpsi, d ? js : NULL, jq);
  if (!d) {
    return;
  }
  /* phi and w_t are T phi and T w_r (T = I - n n^T); w_n = n . w_r */
  memset(d, 0, sizeof *d);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      for (int k = 0; k < 3; k++) {
        double t = (k == j) - n[k] * n[j];
        d->torque[i][VXCI_R_W + j] -= jm[6 * i + 3 + k] * t;
        d->torque[i][VXCI_R_PHI + j] -= jm[6 * i + k] * t;
        d->dphi[i][VXCI_R_W + j] += jr[6 * i + 3 + k] * t;
        d->dphi[i][VXCI_R_PHI + j] += jr[6 * i + k] * t;
      }
      d->torque[i][VXCI_R_W + j] -= n[i] * js[1] * n[j];
    }
    d->torque[i][VXCI_R_PSI] -= n[i] * js[0];
    d->dpsi[VXCI_R_W + i] = jq[1] * n[i];
  }
  d->dpsi[VXCI_R_PSI] = jq[0];
}


void vxci_rolling_eval(const vxc_params *p, double f_n, const double n[3], const double w_r[3],
                       const double state[VXC_STATE_SIZE], double tau_roll[3], double *tau_spin,
                       double dphi[3], double *dpsi) {
  double m[3], ms;
  rolling(p, n, w_r, state, m, &ms, dphi, dpsi, NULL);
  for (int i = 0; i < 3; i++) {
    tau_roll[i] = -f_n * m[i];
  }
  *tau_spin = -f_n * ms;
}


void vxci_rolling_eval_d(const vxc_params *p, const double n[3], const double w_r[3],
                    const double state[VXC_STATE_SIZE], double torque[3], double dphi[3],
                    double *dpsi, vxci_rolling_d *d) {
  double m[3], ms;
  rolling(p, n, w_r, state, m, &ms, dphi, dpsi, d);
  for (int i = 0; i < 3; i++) {
    torque[i] = -m[i] - ms * n[i];
  }
}
