/* friction_contact.c: the contact models' sliding friction through a law of the friction
 * library (vxc_params_set_law, vxc_friction.h) instead of the model's own bristle kernel.
 *
 * Data: the contact state's z slot holds the law's deflection (its dwell slot Gonthier's
 * s_dw). The model's parameters are per unit normal force, the library's absolute, so the
 * stiffness, damping and viscous coefficients are scaled by f_n at each evaluation; the
 * law sees the velocity of B relative to A (the kernel's v_t reversed) and returns the
 * force on A, as the kernel does. */
#include <math.h>
#include <string.h>

#include "lib/force_internal.h"

/* The library's parameters for the model's p at normal force f_n. */
static void law_params(const vxc_params *p, double f_n, vxc_friction_params *lp) {
  vxc_friction_params_default(lp);
  lp->mu_s = p->mu_s;
  lp->mu_k = p->mu_c;
  lp->sigma0 = p->sigma0 * f_n;
  lp->sigma1 = p->sigma1 * f_n;
  lp->sigma2 = p->sigma2 * f_n;
  lp->f_v = p->sigma2 * f_n;
  lp->v_s = p->v_s;
  lp->tau_dw = p->tau_dw;
  lp->v_e = p->v_e;
  lp->k_b = p->sigma0 * f_n;
  lp->c_b = p->sigma1 * f_n;
}


void vxci_friction_law_sliding(const vxc_params *p, const vxci_friction_in *in,
                               vxci_friction_out *out) {
  vxc_friction_law law = (vxc_friction_law)(p->friction_law - 1);
  double v[3], f[3] = {0, 0, 0}, st[VXC_FRICTION_STATE_MAX], ds[VXC_FRICTION_STATE_MAX];
  memset(ds, 0, sizeof ds);
  for (int i = 0; i < 3; i++) {
    v[i] = -in->v_t[i];
    st[i] = in->z[i];
  }
  st[3] = in->s_dw;
  vxc_status s = VXC_OK;
  if (in->f_n > 0) {
    vxc_friction_params lp;
    law_params(p, in->f_n, &lp);
    if (vxc_friction_state_size(law) == 0) {
      s = vxc_friction_static(law, &lp, v, in->f_n, NULL, f, NULL, NULL);
    } else {
      vxc_friction_project(law, &lp, v, in->f_n, st, NULL);
      s = vxc_friction_eval(law, &lp, v, in->f_n, st, f, ds, NULL);
    }
  }
  for (int i = 0; i < 3; i++) {
    out->f_t[i] = s == VXC_OK ? f[i] : NAN; /* the caller refuses non-finite results */
    out->dz[i] = ds[i];
  }
  if (law == VXC_LAW_GONTHIER) {
    out->ds_dw = ds[3];
  }
}
