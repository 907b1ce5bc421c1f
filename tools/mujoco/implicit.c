/* implicit.c: the vxc contacts' wrenches over a MuJoCo step, linearly implicit (bridge.h):
 * the bodies' twists t = J qvel (each body's centre-of-mass velocity and angular velocity,
 * world: mj_jacBodyCom), their inverse mass matrix in those coordinates J M^-1 J^T
 * (mj_solveM) and their free accelerations J M^-1 (passive + actuator + applied - bias
 * forces) give vxc_implicit_step the velocity change the contact wrenches cause over the
 * step; the wrenches it returns, applied through xfrc_applied, make MuJoCo's step the
 * linearly implicit one (lib/README.md section 15). Bodies welded to the world are fixed
 * (twist index -1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"

int bridge_implicit_init(bridge *br, char *msg, size_t size) {
  const mjModel *m = br->m;
  br->ntw = 0;
  for (int i = 0; i < br->nbody; i++) {
    br->tw[i] = m->body_weldid[br->body[i]] == 0 ? -1 : br->ntw++;
  }
  size_t n = 6 * (size_t)br->ntw, nv = (size_t)(m->nv > 0 ? m->nv : 1);
  double **arr[] = {&br->J, &br->MJ, &br->minv, &br->afree, &br->wout, &br->dtw, &br->qvel0,
                    &br->scratch};
  size_t len[] = {n * nv, n * nv, n * n, n, n, n, nv, n + 2 * nv};
  for (size_t k = 0; k < sizeof len / sizeof *len; k++) {
    *arr[k] = calloc(len[k] ? len[k] : 1, sizeof(double));
    if (!*arr[k]) {
      snprintf(msg, size, "out of memory");
      return -1;
    }
  }
  return 0;
}


/* The twists' Jacobian, M^-1 J^T, J M^-1 J^T, the free accelerations and t0 = J qvel. */
void bridge_implicit_prepare(bridge *br) {
  const mjModel *m = br->m;
  mjData *d = br->d;
  int nv = m->nv, n = 6 * br->ntw;
  memcpy(br->qvel0, d->qvel, (size_t)nv * sizeof *d->qvel);
  if (n == 0) {
    return;
  }
  for (int i = 0; i < br->nbody; i++) {
    int k = br->tw[i];
    if (k >= 0) {
      mj_jacBodyCom(m, d, br->J + (size_t)6 * k * nv, br->J + (size_t)(6 * k + 3) * nv,
                    br->body[i]);
    }
  }
  mj_solveM(m, d, br->MJ, br->J, n);
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      br->minv[(size_t)a * n + b] = mju_dot(br->J + (size_t)a * nv, br->MJ + (size_t)b * nv, nv);
    }
  }
  double *t0 = br->scratch, *f = t0 + n, *qacc = f + nv;
  mj_fwdActuation(m, d);
  for (int j = 0; j < nv; j++) {
    f[j] = d->qfrc_passive[j] - d->qfrc_bias[j] + d->qfrc_applied[j] + d->qfrc_actuator[j];
  }
  mj_solveM(m, d, qacc, f, 1);
  for (int a = 0; a < n; a++) {
    br->afree[a] = mju_dot(br->J + (size_t)a * nv, qacc, nv);
    t0[a] = mju_dot(br->J + (size_t)a * nv, d->qvel, nv);
    br->dtw[a] = 0;
  }
}


void bridge_twist(const bridge *br, int i, double frac, double t[6]) {
  int k = br->tw[i];
  for (int j = 0; j < 6; j++) {
    t[j] = k < 0 ? 0.0 : br->scratch[6 * k + j] + frac * br->dtw[6 * k + j];
  }
}


int bridge_implicit_apply(bridge *br, char *msg, size_t size) {
  vxc_implicit_pair pp[BRIDGE_MAX_CONTACTS];
  for (int i = 0; i < br->ncontact; i++) {
    pp[i] = (vxc_implicit_pair){&br->c[i].jac, br->tw[br->pair_index[2 * i]],
                                br->tw[br->pair_index[2 * i + 1]], {0}, 0, 0};
  }
  if (br->ntw > 0) {
    vxc_error err;
    vxc_status st = vxc_implicit_step(br->ntw, br->minv, br->afree, br->m->opt.timestep,
                                      br->ncontact, pp, br->wout, NULL, NULL, &err);
    if (st != VXC_OK) {
      snprintf(msg, size, "t = %.9g s: %s", br->d->time, err.message);
      return -1;
    }
  }
  for (int i = 0; i < br->ncontact; i++) {
    memcpy(br->c[i].applied, br->ntw > 0 ? pp[i].wrench : br->c[i].jac.wrench,
           sizeof br->c[i].applied);
  }
  for (int i = 0; i < br->nbody; i++) {
    int k = br->tw[i];
    if (k >= 0) {
      mjtNum *x = br->d->xfrc_applied + 6 * br->body[i];
      for (int j = 0; j < 6; j++) {
        x[j] += br->wout[6 * k + j];
      }
    }
  }
  return 0;
}


void bridge_implicit_end(bridge *br) {
  int nv = br->m->nv, n = 6 * br->ntw;
  double *dq = br->scratch + n;
  for (int j = 0; j < nv; j++) {
    dq[j] = br->d->qvel[j] - br->qvel0[j];
  }
  for (int a = 0; a < n; a++) {
    br->dtw[a] = mju_dot(br->J + (size_t)a * nv, dq, nv);
  }
}


int bridge_implicit_advance(bridge *br, char *msg, size_t size) {
  const mjModel *m = br->m;
  for (int i = 0; i < br->ncontact && !br->native; i++) {
    bridge_contact *c = &br->c[i];
    vxc_body_motion end[2] = {c->mo[0], c->mo[1]};
    for (int k = 0; k < 2; k++) {
      double t[6], t0[6];
      bridge_twist(br, br->pair_index[2 * i + k], 1, t);
      bridge_twist(br, br->pair_index[2 * i + k], 0, t0);
      for (int j = 0; j < 3; j++) {
        end[k].v[j] += t[j] - t0[j];
        end[k].w[j] += t[3 + j] - t0[3 + j];
      }
    }
    vxc_error err;
    if (vxc_pair_advance(c->pair, &end[0], &end[1], m->opt.timestep, &err) != VXC_OK) {
      snprintf(msg, size, "t = %.9g s: %s", br->d->time, err.message);
      return -1;
    }
  }
  return 0;
}
