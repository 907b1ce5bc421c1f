/* staggered.c: MuJoCo's velocities as the leapfrog's, half a step behind the positions
 * (bridge.h). Semi-implicit Euler, v+ = v + h a(x), x+ = x + h v+, is the leapfrog
 * (Stormer-Verlet) when its v is read as the velocity at the middle of the step before: x
 * then follows the exact motion under a constant acceleration (a body under gravity), and
 * a contact's damping, taken at v+ by the implicit step, is taken at the step's middle.
 * Started with the initial velocity itself, the positions lag by h / 2 of it, g h t / 2 of
 * height after t of free fall (1.4 mm after 0.14 s at 2 ms): the body lands late, slower,
 * into a contact whose damping is set by the speed it lands at.
 *
 * So the run's first step sets qvel back by h / 2 of MuJoCo's acceleration (its own forces
 * and constraints) on the dofs of the bodies no vxc contact touches (a body resting on one
 * is in balance: its acceleration is nil), and the impacts taken in sub-steps keep the half
 * step: vxc_pair_substep starts from the velocities at the step's start, v = qvel + h / 2
 * (a_free + M^-1 F), F the contact's wrench there (none for a contact found new: it acted
 * on none of the half step before), and the bodies should end with qvel = v+ - h / 2 (a_free
 * + M^-1 F+), F+ the contact's wrench where the sub-steps end: the wrench over the step is
 * the sub-steps' impulse / h plus (F - F+) / 2. The records' velocities and the energy
 * account's are the step's mean, the leapfrog's velocity at the positions' time. */
#include <stdio.h>
#include <string.h>

#include "tools/mujoco/bridge.h"

/* Whether dof j moves a body that a vxc contact touches at the step's start (J's rows). */
static int touched_dof(const bridge *br, int j) {
  int nv = br->m->nv;
  for (int i = 0; i < br->ncontact; i++) {
    for (int k = 0; k < 2 && br->c[i].w.npairs > 0; k++) {
      int t = br->tw[br->pair_index[2 * i + k]];
      for (int r = 0; r < 6 && t >= 0; r++) {
        if (br->J[(size_t)6 * t * nv + 6 * j + r] != 0) {
          return 1;
        }
      }
    }
  }
  return 0;
}


void bridge_stagger(bridge *br) {
  const mjModel *m = br->m;
  mjData *d = br->d;
  double h = m->opt.timestep;
  mj_forward(m, d);
  for (int j = 0; j < m->nv; j++) {
    if (!touched_dof(br, j)) {
      d->qvel[j] -= 0.5 * h * d->qacc[j];
    }
  }
  mj_forward(m, d); /* the velocities' stage at the new qvel */
  bridge_implicit_prepare(br);
  br->staggered = 1;
}


/* Contact c's wrench whose half step qvel holds at the step's start into f: where the last
 * sub-steps ended, or at the step's start after an implicit step; none for a contact found
 * new by this step (unless it is the run's first: a body resting on it is in balance). */
static void acted(const bridge *br, const bridge_contact *c, double f[12]) {
  int none = c->w.npairs == 0 || (c->w.started && br->steps > 0);
  for (int i = 0; i < 12; i++) {
    f[i] = none ? 0.0 : c->was_sub ? c->f_end[i] : c->jac.wrench[i];
  }
}


void bridge_substep_motion(const bridge *br, const bridge_contact *c, const double m12[144],
                           const double a12[12], vxc_body_motion mo[2]) {
  double h = br->m->opt.timestep, dv[12], f[12];
  acted(br, c, f);
  for (int i = 0; i < 12; i++) {
    dv[i] = a12[i];
    for (int j = 0; j < 12; j++) {
      dv[i] += m12[12 * i + j] * f[j];
    }
  }
  for (int k = 0; k < 2; k++) {
    mo[k] = *c->mo[k];
    for (int j = 0; j < 3; j++) {
      mo[k].v[j] += 0.5 * h * dv[6 * k + j];
      mo[k].w[j] += 0.5 * h * dv[6 * k + 3 + j];
    }
  }
}


int bridge_substep_end(bridge *br, bridge_contact *c, char *msg, size_t size) {
  vxc_body_motion mo[2];
  for (int k = 0; k < 2; k++) {
    const double *ip = br->m->body_ipos + 3 * c->body[k], *t = c->sr.twist + 6 * k;
    double ipos[3] = {ip[0], ip[1], ip[2]}, lin[3] = {t[0], t[1], t[2]},
           ang[3] = {t[3], t[4], t[5]};
    vxc_body_motion_from_pose(&c->sr.pose[k], ipos, ipos, lin, ang, &mo[k], NULL);
  }
  vxc_pair_wrench w;
  vxc_error err;
  long long t0 = bridge_clock();
  vxc_status st =
      vxc_pair_step(c->pair, &c->sr.pose[0], &mo[0], &c->sr.pose[1], &mo[1], 0, &w, &err);
  br->wall_vxc += bridge_clock() - t0;
  if (st != VXC_OK) {
    snprintf(msg, size, "t = %.9g s: %s", br->d->time, err.message);
    return -1;
  }
  const double end[12] = {w.force_a[0], w.force_a[1],  w.force_a[2],  w.torque_a[0],
                          w.torque_a[1], w.torque_a[2], w.force_b[0],  w.force_b[1],
                          w.force_b[2],  w.torque_b[0], w.torque_b[1], w.torque_b[2]};
  double f[12];
  acted(br, c, f);
  for (int i = 0; i < 12; i++) {
    c->half[i] = 0.5 * (f[i] - end[i]);
    c->f_end[i] = end[i];
  }
  return 0;
}

