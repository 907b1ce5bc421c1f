/* contact_jacobian.c: the derivatives of one contact's model (vxc_contact_eval) in the
 * relative motion at its centroid and in its states (vxc_contact_jacobian; lib/README.md
 * section 16), in closed form.
 *
 * Data: y = (v_c, w_r, state) (VXC_JAC_SIZE = 6 + VXC_STATE_SIZE), the outputs (force on A
 * at p_c, pure torque on A, state rates). The normal force f_n = k_v V_r (1 + a v_cn) is
 * linear in v_cn and V_ro; every friction, spinning and rate-independent rolling term is
 * f_n times a function of (v_t = T v_c, w_n, T z, theta, s_dw; T w_r, T phi, psi) whose
 * derivatives the kernels give (vxci_friction_eval_d, vxci_rolling_d) on the branch the
 * value takes; the volumetric rolling torque -k_v a T J T w_r is linear. A law of the
 * friction library (friction_law > 0) has no derivative of its own: its force and rates
 * are differentiated by central differences in its inputs (law_d), as the only term. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"
#include "lib/force_internal.h"

#define NY VXC_JAC_SIZE
#define TQ 3     /* the torque's rows */
#define SR(k) (6 + (k)) /* state entry k's row and column */

/* A kernel's gradient row kx (over vxci_friction_eval_d's inputs) as a row over y, times
 * scale, added to row: v_t = T v_c, w_n = n . w_r, the bristle read as T z. */
static void add_kernel_row(const double kx[VXCI_FX], double scale, const double n[3],
                           double *row) {
  double vn = 0, zn = 0;
  for (int i = 0; i < 3; i++) {
    vn += kx[VXCI_X_V + i] * n[i];
    zn += kx[VXCI_X_Z + i] * n[i];
  }
  for (int j = 0; j < 3; j++) {
    row[j] += scale * (kx[VXCI_X_V + j] - vn * n[j]);
    row[3 + j] += scale * kx[VXCI_X_W] * n[j];
    row[SR(VXC_STATE_Z + j)] += scale * (kx[VXCI_X_Z + j] - zn * n[j]);
  }
  row[SR(VXC_STATE_THETA)] += scale * kx[VXCI_X_TH];
  row[SR(VXC_STATE_SDW)] += scale * kx[VXCI_X_SDW];
}


/* The same for the rolling kernel's rows (over w_r, phi, psi). */
static void add_rolling_row(const double kr[VXCI_RX], double scale, double *row) {
  for (int j = 0; j < 3; j++) {
    row[3 + j] += scale * kr[VXCI_R_W + j];
    row[SR(VXC_STATE_PHI + j)] += scale * kr[VXCI_R_PHI + j];
  }
  row[SR(VXC_STATE_PSI)] += scale * kr[VXCI_R_PSI];
}


/* A law's force and rates at kernel inputs in (its f_n the actual normal force). */
static void law_at(const vxc_params *p, const vxci_friction_in *in, double out[7]) {
  vxci_friction_out fo;
  memset(&fo, 0, sizeof fo);
  fo.ds_dw = 0.0;
  vxci_friction_law_sliding(p, in, &fo);
  for (int i = 0; i < 3; i++) {
    out[i] = fo.f_t[i];
    out[3 + i] = fo.dz[i];
  }
  out[6] = fo.ds_dw;
}


/* A friction law's force and rates (f_t, dz, and for gonthier ds_dw) are regularised
 * piecewise (saturations, switches between sticking and sliding, Marques's clamps) and have
 * no closed derivative here: central differences in the law's inputs, the slip along two
 * tangents t1, t2 (1e-3 v_e, inside the smallest velocity scale), the bristle along them
 * (1e-6 of the pre-sliding distance mu_s / sigma0), s_dw (1e-7) and f_n (1e-7 f_n). The
 * law's rows replace the kernel's in jac: f_t on the force rows, dz on z's, ds_dw on the
 * dwell's (gonthier). dfn: f_n's row over y. */
static void law_d(const vxc_params *p, const vxci_friction_in *in, const double n[3],
                  const double *dfn, double *jac) {
  double t1[3], t2[3];
  vxci_tangents(n, t1, t2);
  int gonthier = p->friction_law - 1 == VXC_LAW_GONTHIER;
  double kx[7][VXCI_FX], kf[7];
  memset(kx, 0, sizeof kx);
  double hv = 1e-3 * p->v_e, hz = 1e-6 * fmax(p->mu_s, 1e-3) / p->sigma0;
  for (int c = 0; c < 6 && in->f_n > 0; c++) { /* v along t1, t2; z along t1, t2; s_dw; f_n */
    vxci_friction_in up = *in, dn = *in;
    const double *t = c % 2 ? t2 : t1;
    double h = c < 2 ? hv : c < 4 ? hz : c == 4 ? 1e-7 : 1e-7 * in->f_n;
    for (int i = 0; i < 3 && c < 4; i++) {
      double *pu = c < 2 ? up.v_t : up.z, *pd = c < 2 ? dn.v_t : dn.z;
      pu[i] += h * t[i];
      pd[i] -= h * t[i];
    }
    double *su = c == 4 ? &up.s_dw : &up.f_n, *sd = c == 4 ? &dn.s_dw : &dn.f_n;
    if (c >= 4) {
      *su += h;
      *sd -= h;
    }
    double fu[7], fd[7];
    law_at(p, &up, fu);
    law_at(p, &dn, fd);
    for (int o = 0; o < 7; o++) {
      double g = (fu[o] - fd[o]) / (2 * h);
      if (c == 5) {
        kf[o] = g;
      } else if (c == 4) {
        kx[o][VXCI_X_SDW] = g;
      } else {
        for (int i = 0; i < 3; i++) {
          kx[o][(c < 2 ? VXCI_X_V : VXCI_X_Z) + i] += g * t[i];
        }
      }
    }
  }
  if (!(in->f_n > 0)) {
    memset(kf, 0, sizeof kf);
  }
  for (int o = 0; o < 7; o++) {
    int row = o < 3 ? o : o < 6 ? SR(VXC_STATE_Z + o - 3) : SR(VXC_STATE_SDW);
    if (o == 6 && !gonthier) {
      continue;
    }
    double *r = jac + NY * row;
    if (o >= 3) { /* the law's rate replaces the kernel's */
      memset(r, 0, NY * sizeof *r);
    } else { /* the force row keeps -f_n n */
      for (int j = 0; j < NY; j++) {
        r[j] = -n[o] * dfn[j];
      }
    }
    add_kernel_row(kx[o], 1.0, n, r);
    for (int j = 0; j < NY; j++) {
      r[j] += kf[o] * dfn[j];
    }
  }
}


void vxci_contact_jacobian(const vxc_params *p, const vxc_contact_geometry *g,
                           const vxc_body_motion *a, const vxc_body_motion *b,
                           const double state[VXC_STATE_SIZE], double jac[NY * NY]) {
  memset(jac, 0, NY * NY * sizeof *jac);
  if (!(g->volume > 0)) {
    return;
  }
  double n[3], l = sqrt(vxg_dot(g->normal, g->normal)), v_c[3], w_r[3];
  vxci_relative_velocity(a, b, g->centroid, v_c);
  for (int i = 0; i < 3; i++) {
    n[i] = g->normal[i] / l;
    w_r[i] = a->w[i] - b->w[i];
  }
  /* f_n = k_v V_r (1 + a v_cn) while positive (force.c) */
  double ad = vxci_damping_factor(p, state), v_cn = vxg_dot(n, v_c);
  double dad = state[VXC_STATE_U] >= p->v_small ? -ad / state[VXC_STATE_U] : 0.0; /* da/du */
  double vro = p->tau_r > 0 ? state[VXC_STATE_VRO] : 0.0, v_r = fmax(g->volume - vro, 0.0);
  double raw = p->k_v * v_r * (1.0 + ad * v_cn), f_n = raw > 0 ? raw : 0.0, dfn[NY] = {0};
  if (raw > 0) {
    for (int j = 0; j < 3; j++) {
      dfn[j] = p->k_v * v_r * ad * n[j];
    }
    dfn[SR(VXC_STATE_VRO)] = p->tau_r > 0 ? -p->k_v * (1.0 + ad * v_cn) : 0.0;
    dfn[SR(VXC_STATE_U)] = p->k_v * v_r * v_cn * dad;
  }
  /* the friction kernel per unit normal force, its inputs as assemble (force.c) makes them */
  vxci_friction_in fi;
  const double *z = state + VXC_STATE_Z;
  double zn = vxg_dot(z, n);
  for (int i = 0; i < 3; i++) {
    fi.v_t[i] = v_c[i] - v_cn * n[i];
    fi.z[i] = z[i] - zn * n[i];
  }
  fi.f_n = 1.0;
  fi.w_n = vxg_dot(n, w_r);
  fi.r_gyr = p->rolling ? 0.0 : vxc_gyration_radius(g);
  fi.contensou = !p->rolling;
  fi.theta = state[VXC_STATE_THETA];
  fi.s_dw = state[VXC_STATE_SDW];
  vxci_friction_out fo;
  vxci_friction_d kd;
  vxci_friction_eval_d(p, &fi, &fo, &kd);
  double gt[3]; /* the torque per unit f_n */
  vxci_rolling_d rd;
  if (p->rolling) {
    double dphi[3], dpsi;
    vxci_rolling_eval_d(p, n, w_r, state, gt, dphi, &dpsi, &rd);
  }
  for (int i = 0; i < 3; i++) {
    double *rf = jac + NY * i, *rt = jac + NY * (TQ + i);
    if (!p->rolling) {
      gt[i] = fo.tau_spin * n[i];
    }
    for (int j = 0; j < NY; j++) {
      rf[j] = (fo.f_t[i] - n[i]) * dfn[j];
      rt[j] = gt[i] * dfn[j];
    }
    add_kernel_row(kd.ft[i], f_n, n, rf);
    add_kernel_row(kd.ts, f_n * n[i], n, rt);
    if (p->rolling) {
      add_rolling_row(rd.torque[i], f_n, rt);
      add_rolling_row(rd.dphi[i], 1.0, jac + NY * SR(VXC_STATE_PHI + i));
    }
    add_kernel_row(kd.dz[i], 1.0, n, jac + NY * SR(VXC_STATE_Z + i));
  }
  add_kernel_row(kd.dth, 1.0, n, jac + NY * SR(VXC_STATE_THETA));
  add_kernel_row(kd.dsdw, 1.0, n, jac + NY * SR(VXC_STATE_SDW));
  if (p->rolling) {
    add_rolling_row(rd.dpsi, 1.0, jac + NY * SR(VXC_STATE_PSI));
  } else { /* the volumetric rolling torque -k_v a T J T w_r */
    const double *J = g->inertia; /* symmetric: T J T = J - n (J n)^T - (J n) n^T + nJn n n^T */
    double jn[3];
    vxg_mat3_vec(J, n, jn);
    double njn = vxg_dot(n, jn);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        double tjt = J[3 * i + j] - n[i] * jn[j] - jn[i] * n[j] + njn * n[i] * n[j];
        jac[NY * (TQ + i) + 3 + j] -= p->k_v * ad * tjt;
        jac[NY * (TQ + i) + SR(VXC_STATE_U)] -= p->k_v * dad * tjt * w_r[j];
      }
    }
  }
  if (p->tau_r > 0) {
    jac[NY * SR(VXC_STATE_VRO) + SR(VXC_STATE_VRO)] = -1.0 / p->tau_r;
  }
  if (p->friction_law > 0) {
    fi.f_n = f_n;
    law_d(p, &fi, n, dfn, jac);
  }
}


vxc_status vxc_contact_jacobian(const vxc_params *p, const vxc_contact_geometry *geom,
                                const vxc_body_motion *a, const vxc_body_motion *b,
                                const double state[VXC_STATE_SIZE], double jac[NY * NY],
                                vxc_error *err) {
  if (!jac) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_contact_jacobian: jac is NULL");
  }
  vxc_wrench w;
  vxc_error e;
  vxc_status st = vxc_contact_eval(p, geom, a, b, state, &w, NULL, &e);
  if (st != VXC_OK) { /* its message, renamed */
    const char *m = strstr(e.message, ": ");
    return vxg_error_set(err, st, NULL, 0, 0, "vxc_contact_jacobian: %s", m ? m + 2 : e.message);
  }
  double d[NY * NY];
  vxci_contact_jacobian(p, geom, a, b, state, d);
  for (int i = 0; i < NY * NY; i++) {
    if (!isfinite(d[i])) {
      return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0,
                           "vxc_contact_jacobian: a derivative is not finite");
    }
  }
  memcpy(jac, d, sizeof d);
  return VXC_OK;
}
