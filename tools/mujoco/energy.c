/* energy.c: the energy account of a MuJoCo run with vxc contacts (bridge.h), the budget of
 * `vxc task` (K + P + E + D - W constant, lib/README.md section 12).
 *
 * K is the model's kinetic energy 1/2 qvel^T M qvel (qvel the step's mean when MuJoCo's
 * velocities run half a step behind its positions, staggered.c), P gravity's potential of
 * its bodies' centres of mass; per step of length h and contact: the elastic work k_v V_r
 * dx over the step's normal displacement dx at p_c, V_r at its middle (its change A dx / 2
 * from the contact's area A), the dissipation of the model's damping, friction, rolling and
 * spinning terms at the step's mean velocities, and W, the work of every other generalised
 * force but gravity and the bias forces (actuators, passive forces, MuJoCo's own
 * constraints and applied forces) over the step's displacement h qvel+ (staggered; else at
 * the mean qvel). The contact forces MuJoCo applied enter
 * K only, so a coupling that puts more work into the bodies than the model's forces would
 * shows as a positive error. That error also holds the account's own discretisation (O(omega h)
 * of the elastic energy through an impact), so the run is stopped on passivity instead: the
 * contacts only dissipate, so K + P - W may exceed its start by no more than the elastic
 * energy the contacts hold (their elastic work since they closed; 0 once open).
 *
 * Both are measured against the energy the bodies could have had (eref): the kinetic energy
 * at the start, the potential energy released down to the lowest seen and the positive work
 * of the other forces. No contact term enters it, so a coupling that runs away cannot raise
 * its own threshold (the budget's elastic, dissipated and work terms grow with it). The error
 * counts one way: a negative error is energy lost that the account did not book (the
 * integrator's own dissipation, O(h) of the work on the first steps from rest), never
 * created. */
#include <math.h>
#include <string.h>

#include "tools/mujoco/bridge.h"

/* The velocity of A (motion a) relative to B (b) at x. */
static void rel_velocity(const vxc_body_motion *a, const vxc_body_motion *b, const double x[3],
                         double vc[3]) {
  for (int j = 0; j < 3; j++) {
    int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    double ra1 = x[j1] - a->r[j1], ra2 = x[j2] - a->r[j2];
    double rb1 = x[j1] - b->r[j1], rb2 = x[j2] - b->r[j2];
    vc[j] = a->v[j] + a->w[j1] * ra2 - a->w[j2] * ra1 - (b->v[j] + b->w[j1] * rb2 - b->w[j2] * rb1);
  }
}


/* One contact of pair c over the step (motions at its middle, mid, and end, end): its energy
 * integrals' increments into e. The elastic work over the displacement the step made,
 * h v_cn(end) (the simulator's positions move by h times the end velocities), with V_r at
 * its middle; the dissipation from the model at the middle's velocities. */
static void contact_energy(const bridge_contact *c, const vxc_pair_contact *pc,
                           const vxc_body_motion *const mid[2], const vxc_body_motion *const end[2],
                           double h, vxc_task_energy *e) {
  if (pc->slot < 0 || !(pc->geom.volume > 0)) {
    return;
  }
  const double *sy = vxc_pair_state(c->pair, pc->slot);
  vxc_wrench w;
  if (vxc_contact_eval(&c->params, &pc->geom, mid[0], mid[1], sy, &w, NULL, NULL) != VXC_OK) {
    return;
  }
  const double *n = pc->geom.normal;
  double vc[3], wr[3], ve[3];
  rel_velocity(mid[0], mid[1], pc->geom.centroid, vc);
  rel_velocity(end[0], end[1], pc->geom.centroid, ve);
  for (int j = 0; j < 3; j++) {
    wr[j] = mid[0]->w[j] - mid[1]->w[j];
  }
  const vxc_metrics *mt = vxc_pair_last_metrics(c->pair);
  const vxc_pair_metrics *pm = &mt->pair[pc->pair];
  double area = pc->patch >= 0 ? pm->patch[pc->patch].area : pm->area;
  double vr = pc->geom.volume - (c->params.tau_r > 0 ? sy[VXC_STATE_VRO] : 0.0);
  vr = vr > 0 ? vr : 0.0;
  double vcn = n[0] * vc[0] + n[1] * vc[1] + n[2] * vc[2];
  double dx = h * (n[0] * ve[0] + n[1] * ve[1] + n[2] * ve[2]);
  double ft = 0, tr = 0, ts = 0;
  for (int j = 0; j < 3; j++) {
    ft += w.force_friction[j] * vc[j];
    tr += w.torque_rolling[j] * wr[j];
    ts += w.torque_spinning[j] * wr[j];
  }
  e->elastic += c->params.k_v * (vr + 0.5 * area * dx) * dx;
  e->normal += h * (w.f_n - c->params.k_v * vr) * vcn;
  e->friction -= h * ft;
  e->rolling -= h * tr;
  e->spinning -= h * ts;
}


void bridge_energy_step(bridge *br) {
  const mjModel *m = br->m;
  const mjData *d = br->d;
  double h = m->opt.timestep;
  for (int i = 0; i < br->ncontact && !br->native; i++) {
    bridge_contact *c = &br->c[i];
    int a = br->pair_index[2 * i], b = br->pair_index[2 * i + 1];
    const vxc_body_motion *mid[2] = {&br->mid[a], &br->mid[b]},
                          *end[2] = {&br->end[a], &br->end[b]};
    int nc = vxc_pair_contact_count(c->pair);
    double el = br->e.elastic;
    if (c->sub) { /* an impact in sub-steps: their elastic work, the rest of their work lost */
      br->e.elastic += c->sr.elastic;
      br->e.normal += -c->sr.work - c->sr.elastic;
      nc = 0;
    }
    for (int k = 0; k < nc; k++) {
      vxc_pair_contact pc;
      if (vxc_pair_contact_get(c->pair, k, &pc, NULL) == VXC_OK) {
        contact_energy(c, &pc, mid, end, h, &br->e);
      }
    }
    int closed = c->sub ? vxc_pair_contact_count(c->pair) > 0 : c->w.npairs > 0;
    br->c[i].held = closed ? br->c[i].held + br->e.elastic - el : 0.0;
  }
  /* MuJoCo's Euler integrator takes the joints' damping implicitly: its force is -B qvel at
   * the step's end, not qfrc_passive's -B qvel at its start */
  int eulerdamp = m->opt.integrator == mjINT_EULER;
#if mjVERSION_HEADER >= 300
  eulerdamp = eulerdamp && !(m->opt.disableflags & mjDSBL_EULERDAMP);
#endif
  double wk = 0;
  for (int j = 0; j < m->nv; j++) {
    double f =
        d->qfrc_actuator[j] + d->qfrc_passive[j] + d->qfrc_constraint[j] + d->qfrc_applied[j];
    if (eulerdamp) {
      f -= m->dof_damping[j] * (d->qvel[j] - br->qvel0[j]);
    }
    /* the displacement over the step is h qvel (staggered: the leapfrog's, exact under
     * constant forces); else at the step's mean velocity */
    wk += (br->staggered ? d->qvel[j] : 0.5 * (br->qvel0[j] + d->qvel[j])) * f;
  }
  br->e.work_in += h * wk;
  br->wpos += wk > 0 ? h * wk : 0.0;
}


int bridge_energy_check(bridge *br, int mid) {
  const mjModel *m = br->m;
  mjData *d = br->d;
  vxc_task_energy *e = &br->e;
  double *mv = br->scratch + 6 * br->ntw, *qv = mv + m->nv; /* room for 2 nv */
  for (int j = 0; j < m->nv; j++) {
    qv[j] = mid ? 0.5 * (br->qvel0[j] + d->qvel[j]) : br->qvel0[j];
  }
  mj_mulM(m, d, mv, qv);
  e->kinetic = 0.5 * mju_dot(qv, mv, m->nv);
  e->potential = 0;
  const mjtNum *g = m->opt.gravity;
  for (int b = 1; b < m->nbody; b++) { /* g . x summed as mju_dot sums three terms */
    const mjtNum *x = d->xipos + 3 * b;
    e->potential -= m->body_mass[b] * (0.0 + ((g[0] * x[0] + g[1] * x[1]) + g[2] * x[2]));
  }
  e->dissipated = e->normal + e->friction + e->rolling + e->spinning;
  double sum = e->kinetic + e->potential + e->elastic + e->dissipated - e->work_in;
  if (!br->energy_set) {
    br->e0 = sum;
    br->p0 = br->pmin = e->potential;
    br->k0 = e->kinetic + e->potential - e->work_in;
    br->energy_set = 1;
  }
  e->error = sum - br->e0;
  br->max_error = fmax(br->max_error, fabs(e->error));
  br->escale = fmax(br->escale, e->kinetic + fabs(e->potential - br->p0) + fabs(e->elastic) +
                                    fabs(e->dissipated) + fabs(e->work_in));
  /* the energy the bodies could have had: none of the contacts' terms, which a coupling that
   * runs away inflates along with its error */
  br->pmin = fmin(br->pmin, e->potential);
  br->eref = (br->k0 - br->p0) + (br->p0 - br->pmin) + br->wpos; /* K0 + released + W+ */
  /* passivity: the contacts dissipate, so the bodies' energy K + P - W never exceeds its start
   * by more than the elastic energy the contacts hold (0 once they open) */
  double held = 0;
  for (int i = 0; i < br->ncontact; i++) {
    held += br->c[i].held > 0 ? br->c[i].held : 0.0;
  }
  double created = e->kinetic + e->potential - e->work_in - br->k0 - held;
  br->max_created = fmax(br->max_created, created);
  double tol = br->energy_tol * br->eref;
  if ((created > tol && created > 1e-9) ||
      (e->error > BRIDGE_BALANCE_FACTOR * tol && e->error > 1e-9)) {
    br->energy_failed = 1;
    return -1;
  }
  return 0;
}
