/* rolling.c: rate-independent rolling and spinning friction (Tasora and Anitescu, "A
 * complementarity-based rolling friction model for rigid contacts": |M_r| <= eta_r f_n
 * against the rolling velocity, |M_s| <= eta_s f_n against the spin), in a bristle form,
 * not a regularised one, so that it holds a body at rest (vxc_params_set, rolling = 1).
 *
 * Data: the angles phi (rolling, a vector in the contact plane) and psi (spin) of the
 * contact state, read-only here. Per unit normal force, a bristle's torque is
 * b = kappa (phi + tau w) with phi' = w (it follows the relative rate: stick) while |b|
 * stays within eta; beyond, b is scaled to eta and phi' recomputed from it, so phi
 * relaxes toward eta / kappa and steady rolling meets exactly eta f_n (the sliding
 * bristle's saturation branch, thesis 4.227-4.230, without the Stribeck blend). */
#include <math.h>

#include "geom/vec3.h"
#include "lib/force_internal.h"

/* One bristle of n components with bound eta (m), stiffness kappa = eta / phi_0 (m/rad)
 * and time constant tau (s): the torque per unit normal force m and the rate dphi. */
static void bristle(int n, double eta, double phi_0, double tau, const double *phi, const double *w,
                    double *m, double *dphi) {
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
  }
  double bm = sqrt(b2);
  if (bm > eta) {
    for (int i = 0; i < n; i++) {
      m[i] *= eta / bm;
      dphi[i] = (m[i] / kappa - phi[i]) / tau;
    }
  }
}


void vxci_rolling_eval(const vxc_params *p, double f_n, const double n[3], const double w_r[3],
                       const double state[VXC_STATE_SIZE], double tau_roll[3], double *tau_spin,
                       double dphi[3], double *dpsi) {
  const double tau = p->sigma1 / p->sigma0;
  double w_n = vxg_dot(w_r, n), w_t[3], phi[3], m[3];
  const double *ph = state + VXC_STATE_PHI;
  double pn = vxg_dot(ph, n);
  for (int i = 0; i < 3; i++) {
    w_t[i] = w_r[i] - w_n * n[i];
    phi[i] = ph[i] - pn * n[i];
  }
  bristle(3, p->eta_r, p->phi_0, tau, phi, w_t, m, dphi);
  for (int i = 0; i < 3; i++) {
    tau_roll[i] = -f_n * m[i];
  }
  double ms;
  bristle(1, p->eta_s, p->phi_0, tau, state + VXC_STATE_PSI, &w_n, &ms, dpsi);
  *tau_spin = -f_n * ms;
}
