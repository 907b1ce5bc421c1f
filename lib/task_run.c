/* task_run.c: running a task: rigid-body dynamics, contacts, integrators, energy bookkeeping.
 *
 * Data: one state vector y holds, in order,
 *   per dynamic body (free, or driven through a gripper), 13 doubles: centre of mass x_c
 *     (world, m), unit quaternion q (model to world), velocity of the centre of mass v_c
 *     (world, m/s), angular velocity w_b (body axes, rad/s);
 *   per contact (body pair), `slots` blocks of VXC_STATE_SIZE doubles (vxc_force.h),
 *     block k belonging to tracker slot k;
 *   6 energy integrals: elastic work stored by k_v V, dissipation by the normal damping,
 *     friction, rolling and spinning terms, and the work done on the dynamic bodies by
 *     driven bodies and grippers (J).
 * Invariants: between steps q is normalised; a slot's block is non-zero only while the
 * tracker holds the slot (ACTIVE = 1); the cell-pair set of each contact changes only at
 * step boundaries (tracker update after an accepted step, lib/README.md section 11): during a step
 * the forces come from the pairs tracked at its start, and a step after which a new pair overlaps
 * with k_v V above the contact's event force is rejected and shortened, so each contact starts
 * within that force of zero (first-contact event location). Newton-Euler: m dv_c/dt = F, I_b
 * dw_b/dt = R^T T - w_b x I_b w_b, dq/dt = q (0, w_b)/2, with the contact wrench taken about the
 * centre of mass (it is passed as the body's reference point). Energy: K + P + E_el + D - W is
 * constant for the exact solution, so its drift measures the integration error. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "geom/geom.h"
#include "lib/task_sim.h"
#include "geom/vec3.h"

#define NE 6 /* energy integrals */
enum { E_EL = 0, E_DN, E_DT, E_DR, E_DS, E_WIN };

/* ---- small vector algebra ----------------------------------------------------------- */

static void quat_normalize(double q[4]) {
  double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (s > 0) {
    for (int i = 0; i < 4; i++) {
      q[i] /= s;
    }
  }
}


/* Rotation vector (axis * angle, rad) of the unit quaternion q, shortest way. */
static void quat_log(const double q0[4], double v[3]) {
  double q[4] = {q0[0], q0[1], q0[2], q0[3]};
  if (q[0] < 0) {
    for (int i = 0; i < 4; i++) {
      q[i] = -q[i];
    }
  }
  double s = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  double f = s > 1e-300 ? 2 * atan2(s, q[0]) / s : 2;
  for (int i = 0; i < 3; i++) {
    v[i] = f * q[i + 1];
  }
}


static void quat_exp(const double v[3], double q[4]) {
  double a = sqrt(vxg_dot(v, v));
  double f = a > 1e-300 ? sin(0.5 * a) / a : 0.5;
  q[0] = cos(0.5 * a);
  for (int i = 0; i < 3; i++) {
    q[i + 1] = f * v[i];
  }
}


static void inv3(const double m[9], double o[9]) {
  double c[9] = {m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                 m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                 m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]};
  double det = m[0] * c[0] + m[1] * c[3] + m[2] * c[6];
  for (int i = 0; i < 9; i++) {
    o[i] = c[i] / det;
  }
}

/* ---- driven trajectories ------------------------------------------------------------ */

/* Pose and velocity (origin velocity, world angular velocity) of a driven body's
 * trajectory at time t. */
static void trajectory(const task_body *b, double t, vxc_pose *p, double v[6]) {
  memset(v, 0, 6 * sizeof *v);
  if (b->have_line) {
    double wt[3] = {b->line_v[3] * t, b->line_v[4] * t, b->line_v[5] * t}, dq[4];
    quat_exp(wt, dq);
    for (int i = 0; i < 3; i++) {
      p->p[i] = b->pose0.p[i] + b->line_v[i] * t;
    }
    vxg_quat_mul(dq, b->pose0.q, p->q);
    memcpy(v, b->line_v, 6 * sizeof *v);
    return;
  }
  if (b->nkey == 0) {
    *p = b->pose0;
    return;
  }
  const task_keyframe *k = b->key;
  if (t <= k[0].t || b->nkey == 1) {
    memcpy(p->p, k[0].p, sizeof p->p);
    memcpy(p->q, k[0].q, sizeof p->q);
    return;
  }
  int i = 0;
  while (i + 1 < b->nkey && t > k[i + 1].t) {
    i++;
  }
  if (i + 1 == b->nkey) {
    memcpy(p->p, k[i].p, sizeof p->p);
    memcpy(p->q, k[i].q, sizeof p->q);
    return;
  }
  double dt = k[i + 1].t - k[i].t, s = (t - k[i].t) / dt;
  double qc[4] = {k[i].q[0], -k[i].q[1], -k[i].q[2], -k[i].q[3]}, dq[4], rv[3], part[3], e[4];
  vxg_quat_mul(k[i + 1].q, qc, dq); /* world-frame rotation from key i to key i+1 */
  quat_log(dq, rv);
  for (int j = 0; j < 3; j++) {
    p->p[j] = k[i].p[j] + s * (k[i + 1].p[j] - k[i].p[j]);
    v[j] = (k[i + 1].p[j] - k[i].p[j]) / dt;
    part[j] = s * rv[j];
    v[3 + j] = rv[j] / dt;
  }
  quat_exp(part, e);
  vxg_quat_mul(e, k[i].q, p->q);
}

/* ---- the right-hand side ------------------------------------------------------------ */

/* Kinematics of body i in state y at time t: world pose of the origin, its body_motion
 * with r at the centre of mass (dynamic) or the origin, rotation matrix. */
typedef struct kin {
  vxc_pose pose;
  vxc_body_motion m;
  double R[9];
  double origin_v[3];
} kin;

static void body_kin(const sim *s, int i, double t, const double *y, kin *k) {
  const task_body *b = &s->t->body[i];
  const body_rt *br = &s->b[i];
  if (br->off >= 0) {
    const double *x = y + br->off;
    double q[4] = {x[3], x[4], x[5], x[6]}, rc[3];
    quat_normalize(q);
    vxg_quat_to_mat(q, k->R);
    vxg_mat3_vec(k->R, b->com, rc);
    for (int j = 0; j < 3; j++) {
      k->pose.p[j] = x[j] - rc[j];
      k->m.r[j] = x[j];
      k->m.v[j] = x[7 + j];
    }
    memcpy(k->pose.q, q, sizeof q);
    vxg_mat3_vec(k->R, x + 10, k->m.w);
    double wx[3];
    vxg_cross(k->m.w, rc, wx);
    for (int j = 0; j < 3; j++) {
      k->origin_v[j] = k->m.v[j] - wx[j];
    }
    return;
  }
  double v[6] = {0};
  if (b->kind == TASK_DRIVEN) {
    trajectory(b, t, &k->pose, v);
  } else {
    k->pose = b->pose0;
  }
  vxg_quat_to_mat(k->pose.q, k->R);
  memcpy(k->m.r, k->pose.p, sizeof k->m.r);
  memcpy(k->m.v, v, 3 * sizeof *v);
  memcpy(k->m.w, v + 3, 3 * sizeof *v);
  memcpy(k->origin_v, v, 3 * sizeof *v);
}


/* The energy integrals' rates from one pair's wrench w (state sy): the powers on the relative
 * motion at p_c, and the work of driven bodies (not integrated) on the system. */
static void pair_power(const sim *s, const task_contact *tc, const kin *K,
                       const vxc_contact_geometry *g, const vxc_wrench *w, const double *sy,
                       double *de) {
  double va[3], vb[3], vc[3], wr[3], da[3], db[3];
  for (int j = 0; j < 3; j++) {
    da[j] = g->centroid[j] - K[tc->a].m.r[j];
    db[j] = g->centroid[j] - K[tc->b].m.r[j];
  }
  vxg_cross(K[tc->a].m.w, da, va);
  vxg_cross(K[tc->b].m.w, db, vb);
  for (int j = 0; j < 3; j++) {
    vc[j] = K[tc->a].m.v[j] + va[j] - K[tc->b].m.v[j] - vb[j];
    wr[j] = K[tc->a].m.w[j] - K[tc->b].m.w[j];
  }
  double vcn = vxg_dot(g->normal, vc);
  double vr = g->volume - (tc->params.tau_r > 0 ? sy[VXC_STATE_VRO] : 0);
  double fe = tc->params.k_v * vr;
  de[E_EL] += fe * vcn;
  de[E_DN] += (w->f_n - fe) * vcn;
  de[E_DT] -= vxg_dot(w->force_friction, vc);
  de[E_DR] -= vxg_dot(w->torque_rolling, wr);
  de[E_DS] -= vxg_dot(w->torque_spinning, wr);
  for (int k = 0; k < 2; k++) {
    int bi = k ? tc->b : tc->a;
    if (s->b[bi].off < 0) {
      const double *f = k ? w->force_b : w->force_a, *tq = k ? w->torque_b : w->torque_a;
      de[E_WIN] -= vxg_dot(f, K[bi].m.v) + vxg_dot(tq, K[bi].m.w);
    }
  }
}


/* Whether a pose is within the model files' workspace, |x|, |y|, |z| <= VXG_MAX_LENGTH (a
 * query refuses others). */
static int in_workspace(const vxc_pose *p) {
  return fabs(p->p[0]) <= VXG_MAX_LENGTH && fabs(p->p[1]) <= VXG_MAX_LENGTH &&
         fabs(p->p[2]) <= VXG_MAX_LENGTH;
}


/* One evaluation's scratch: each body's kinematics, and the force and torque (world, about
 * the centre of mass) summed on it. Up to 64 bodies on the stack, more from the task's
 * allocator. */
typedef struct eval_ws {
  kin kb[64];
  double fb[6 * 64];
  kin *K;
  double *F, *Tq; /* [3 nbody] each */
} eval_ws;

static vxc_status eval_ws_init(sim *s, eval_ws *w) {
  vxc_task *T = s->t;
  w->K = w->kb;
  w->F = w->fb;
  if (T->nbody > 64) {
    w->K = vxci_task_alloc(T, sizeof *w->K * T->nbody);
    w->F = vxci_task_alloc(T, sizeof *w->F * 6 * T->nbody);
    if (!w->K || !w->F) {
      vxci_task_free_mem(T, w->K);
      vxci_task_free_mem(T, w->F);
      return vxg_error_set(s->err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
  }
  w->Tq = w->F + 3 * T->nbody;
  return VXC_OK;
}

static void eval_ws_free(sim *s, eval_ws *w) {
  if (w->K != w->kb) {
    vxci_task_free_mem(s->t, w->K);
  }
  if (w->F != w->fb) {
    vxci_task_free_mem(s->t, w->F);
  }
}


/* The gripper's spring-damper on dynamic body i (kinematics k) at time t: force f and
 * torque tq (world, about the centre of mass), and its power into *win. */
static void gripper_wrench(const task_body *b, double t, const kin *k, double f[3], double tq[3],
                           double *win) {
  vxc_pose hp;
  double hv[6], hc[3], hR[9], hvc[3], wx[3];
  trajectory(b, t, &hp, hv);
  vxg_quat_to_mat(hp.q, hR);
  vxg_mat3_vec(hR, b->com, hc);
  vxg_cross(hv + 3, hc, wx);
  double qc[4] = {k->pose.q[0], -k->pose.q[1], -k->pose.q[2], -k->pose.q[3]}, qe[4], rv[3];
  vxg_quat_mul(hp.q, qc, qe);
  quat_log(qe, rv);
  for (int j = 0; j < 3; j++) {
    hvc[j] = hv[j] + wx[j];
    f[j] = b->grip_k * (hp.p[j] + hc[j] - k->m.r[j]) + b->grip_c * (hvc[j] - k->m.v[j]);
    tq[j] = b->grip_kr * rv[j] + b->grip_cr * (hv[3 + j] - k->m.w[j]);
  }
  *win += vxg_dot(f, k->m.v) + vxg_dot(tq, k->m.w);
}


/* Stage 1, the bodies: kinematics at (t, y) into w->K and the records s->bs, gravity and the
 * grippers' wrenches into w->F, w->Tq (their work into de). */
static void eval_bodies(sim *s, double t, const double *y, eval_ws *w, double *de) {
  vxc_task *T = s->t;
  for (int i = 0; i < T->nbody; i++) {
    const task_body *b = &T->body[i];
    kin *k = &w->K[i];
    body_kin(s, i, t, y, k);
    for (int j = 0; j < 3; j++) {
      w->F[3 * i + j] = s->b[i].off >= 0 ? b->mass * T->gravity[j] : 0;
      w->Tq[3 * i + j] = 0;
    }
    memcpy(s->bs[i].pose, k->pose.p, 3 * sizeof(double));
    memcpy(s->bs[i].pose + 3, k->pose.q, 4 * sizeof(double));
    memcpy(s->bs[i].velocity, k->origin_v, 3 * sizeof(double));
    memcpy(s->bs[i].velocity + 3, k->m.w, 3 * sizeof(double));
    if (b->gripper) {
      double fg[3], tg[3];
      gripper_wrench(b, t, k, fg, tg, &de[E_WIN]);
      for (int j = 0; j < 3; j++) {
        w->F[3 * i + j] += fg[j];
        w->Tq[3 * i + j] += tg[j];
      }
    }
  }
}


/* The contact record of a pair wrench. */
static void contact_record(const vxc_pair_wrench *sw, vxc_task_contact_state *cs) {
  cs->npairs = sw->npairs;
  cs->volume = sw->volume;
  memcpy(cs->normal, sw->normal, sizeof cs->normal);
  cs->stick = sw->stick;
  cs->sdw = sw->sdw;
  cs->f_n = sw->f_n;
  cs->f_n_max = sw->f_n_max;
  cs->f_t = sw->f_t;
  cs->t_roll = sw->t_roll;
  cs->t_spin = sw->t_spin;
}


/* 1 when the metrics have a pair in contact and every such pair came in closed form. */
static int all_closed_form(const vxc_metrics *m) {
  for (int i = 0; i < m->npair; i++) {
    if (!m->pair[i].closed_form) {
      return 0;
    }
  }
  return m->npair > 0;
}


/* Stage 2, one contact: the query at the bodies' poses (query = 1), the force model on its
 * tracked pairs (their state derivatives into dy), their wrenches onto both bodies in w,
 * their powers into de, the record s->cs[ci]. */
static vxc_status eval_contact(sim *s, int ci, double t, const double *y, double *dy, int query,
                               eval_ws *w, double *de) {
  vxc_task *T = s->t;
  task_contact *tc = &T->contact[ci];
  contact_rt *c = &s->c[ci];
  kin *K = w->K;
  memset(&s->cs[ci], 0, sizeof s->cs[ci]);
  if (!in_workspace(&K[tc->a].pose) || !in_workspace(&K[tc->b].pose)) {
    return vxg_error_set(s->err, VXC_ERR_NUMERIC, NULL, 0, 0,
                         "a body left the %g m workspace at t = %.9g s: the run diverged (a "
                         "smaller step or a smaller voxel may help)",
                         VXG_MAX_LENGTH, t);
  }
  vxc_pair *pr = c->pair;
  vxc_status st;
  if (query) {
    st = vxci_pair_query(pr, &K[tc->a].pose, &K[tc->b].pose, y + c->off, s->err);
    s->queries++;
    s->capped_queries += st == VXC_OK && pr->m.npair > 0 && pr->m.capped;
    s->closed_form_queries += st == VXC_OK && all_closed_form(&pr->m);
    if (st != VXC_OK) {
      return st;
    }
  }
  vxc_pair_wrench sw;
  vxc_error e;
  st = vxci_pair_forces(pr, &K[tc->a].m, &K[tc->b].m, y + c->off, dy + c->off, &sw, &e);
  if (st != VXC_OK) {
    return vxg_error_set(s->err, st, NULL, 0, 0, "contact %s~%s at t = %.9g s: %s",
                         T->body[tc->a].name, T->body[tc->b].name, t, e.message);
  }
  for (int k = 0; k < pr->ncontact; k++) {
    int slot = pr->contact[k].slot;
    if (slot < 0) {
      continue;
    }
    const vxc_wrench *pw = &pr->w[slot];
    for (int j = 0; j < 3; j++) {
      w->F[3 * tc->a + j] += pw->force_a[j];
      w->Tq[3 * tc->a + j] += pw->torque_a[j];
      w->F[3 * tc->b + j] += pw->force_b[j];
      w->Tq[3 * tc->b + j] += pw->torque_b[j];
    }
    pair_power(s, tc, K, &pr->contact[k].geom, pw, y + c->off + slot * VXC_STATE_SIZE, de);
  }
  contact_record(&sw, &s->cs[ci]);
  return VXC_OK;
}


/* Stage 3, Newton-Euler: the dynamic bodies' state derivatives from the summed wrenches. */
static void eval_accelerations(const sim *s, const double *y, const eval_ws *w, double *dy) {
  const vxc_task *T = s->t;
  for (int i = 0; i < T->nbody; i++) {
    const body_rt *br = &s->b[i];
    if (br->off < 0) {
      continue;
    }
    const task_body *b = &T->body[i];
    const double *x = y + br->off;
    double *dx = dy + br->off;
    double q[4] = {x[3], x[4], x[5], x[6]}, wq[4] = {0, x[10], x[11], x[12]}, qd[4];
    vxg_quat_mul(q, wq, qd);
    double tb[3], Iw[3], gyro[3], rhs[3];
    vxg_mat3t_vec(w->K[i].R, w->Tq + 3 * i, tb);
    vxg_mat3_vec(b->inertia, x + 10, Iw);
    vxg_cross(x + 10, Iw, gyro);
    for (int j = 0; j < 3; j++) {
      dx[j] = x[7 + j];
      dx[7 + j] = w->F[3 * i + j] / b->mass;
      rhs[j] = tb[j] - gyro[j];
    }
    for (int j = 0; j < 4; j++) {
      dx[3 + j] = 0.5 * qd[j];
    }
    vxg_mat3_vec(br->Iinv, rhs, dx + 10);
  }
}


/* dy = f(t, y): the bodies, each contact, then Newton-Euler. Fills s->bs, s->cs (records)
 * and each contact's metrics and `deep`. */
vxc_status vxci_sim_eval(sim *s, double t, const double *y, double *dy, int query) {
  for (int r = 0; r < s->nlive; r++) { /* the free slots' entries are zero (sim_live) */
    memset(dy + s->live[2 * r], 0, sizeof *dy * (size_t)(s->live[2 * r + 1] - s->live[2 * r]));
  }
  eval_ws w;
  vxc_status st = eval_ws_init(s, &w);
  if (st != VXC_OK) {
    return st;
  }
  double *de = dy + s->eoff;
  eval_bodies(s, t, y, &w, de);
  for (int ci = 0; ci < s->t->ncontact && st == VXC_OK; ci++) {
    st = eval_contact(s, ci, t, y, dy, query, &w, de);
  }
  if (st == VXC_OK) {
    eval_accelerations(s, y, &w, dy);
  }
  eval_ws_free(s, &w);
  return st;
}

/* ---- energy ------------------------------------------------------------------------- */

void vxci_sim_energy(const sim *s, const double *y, vxc_task_energy *e) {
  const vxc_task *T = s->t;
  memset(e, 0, sizeof *e);
  for (int i = 0; i < T->nbody; i++) {
    const body_rt *br = &s->b[i];
    if (br->off < 0) {
      continue;
    }
    const task_body *b = &T->body[i];
    const double *x = y + br->off;
    double Iw[3];
    vxg_mat3_vec(b->inertia, x + 10, Iw);
    e->kinetic += 0.5 * b->mass * vxg_dot(x + 7, x + 7) + 0.5 * vxg_dot(x + 10, Iw);
    e->potential -= b->mass * vxg_dot(T->gravity, x);
  }
  const double *q = y + s->eoff;
  e->elastic = q[E_EL];
  e->normal = q[E_DN];
  e->friction = q[E_DT];
  e->rolling = q[E_DR];
  e->spinning = q[E_DS];
  e->work_in = q[E_WIN];
  e->dissipated = e->normal + e->friction + e->rolling + e->spinning;
  e->error = e->kinetic + e->potential + e->elastic + e->dissipated - e->work_in - s->e0;
}

/* ---- steps ------------------------------------------------------------------------- */

/* Embedded Runge-Kutta pairs for the adaptive integrator (RK4 uses its own tableau). Each
 * is FSAL: its last stage, at c = 1 with the step's weights, is f(t + h, y1), the next
 * step's first. e holds b - b_hat (the error estimate's weights); the error falls as
 * h^order, which sets the step-size update exponent. */
typedef struct rk_pair {
  int stages;      /* stages, the first (FSAL) included */
  int order;       /* of the error estimate, plus one */
  const double *c; /* [stages] */
  const double (*a)[6];
  const double *e; /* [stages] */
} rk_pair;

/* Dormand-Prince 5(4) */
static const double DP_C[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
static const double DP_A[7][6] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
static const double DP_E[7] = {71.0 / 57600,      0,          -71.0 / 16695, 71.0 / 1920,
                               -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
/* Bogacki-Shampine 3(2): three evaluations a step where Dormand-Prince takes six, for a
 * real stability interval of 2.51 against 3.31: where a stiff mode (a sticking contact's
 * bristle damping) and not accuracy limits the step, it needs (3 / 2.51) / (6 / 3.31), about
 * two thirds, of the evaluations (the ball on a table: 47,227 queries against 64,573) */
static const double BS_C[4] = {0, 1.0 / 2, 3.0 / 4, 1};
static const double BS_A[4][6] = {{0}, {1.0 / 2}, {0, 3.0 / 4}, {2.0 / 9, 1.0 / 3, 4.0 / 9}};
static const double BS_E[4] = {-5.0 / 72, 1.0 / 12, 1.0 / 9, -1.0 / 8};

static const rk_pair PAIRS[2] = {{7, 5, DP_C, DP_A, DP_E}, {4, 3, BS_C, BS_A, BS_E}};

void vxci_sim_normalize_quats(sim *s, double *y) {
  for (int i = 0; i < s->t->nbody; i++) {
    if (s->b[i].off >= 0) {
      quat_normalize(y + s->b[i].off + 3);
    }
  }
}


/* The ranges of y a step updates (s->live) after the trackers changed: the free slots'
 * blocks are zero in y and their derivatives are zero, so the explicit integrators and
 * vxci_sim_eval skip them; they are zeroed in the other vectors (the derivatives', and the
 * implicit integrator's f0), which may hold a slot's values from before it was freed. */
static void sim_live(sim *s) {
  int m = 0, lo = 0, hi = 0;
  for (int ci = 0; ci <= s->t->ncontact; ci++) {
    int end = ci < s->t->ncontact ? s->c[ci].off : s->eoff;
    hi = end; /* the bodies, or the slots of contact ci - 1 run up to here */
    if (ci == s->t->ncontact) {
      break;
    }
    for (int k = 0; k < s->t->contact[ci].slots; k++) {
      int b = s->c[ci].off + k * VXC_STATE_SIZE;
      if (s->y[b + VXC_STATE_ACTIVE] > 0.5) {
        hi = b + VXC_STATE_SIZE;
        continue;
      }
      if (hi > lo) {
        s->live[2 * m] = lo;
        s->live[2 * m++ + 1] = hi;
      }
      lo = hi = b + VXC_STATE_SIZE;
      double *v[] = {s->y1,   s->ytmp, s->yerr, s->k[0], s->k[1],
                     s->k[2], s->k[3], s->k[4], s->k[5], s->k[6], s->jac.f0};
      for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        if (v[i]) {
          memset(v[i] + b, 0, VXC_STATE_SIZE * sizeof(double));
        }
      }
    }
  }
  s->live[2 * m] = lo;
  s->live[2 * m++ + 1] = s->n; /* through the energy integrals */
  s->nlive = m;
}


/* One trial step of size h from (t, s->y) with s->k[0] = f(t, y) given. Writes s->y1,
 * s->k[last] = f(t + h, y1) (RK4: into k[4]; a pair: k[stages - 1]; rosw, and auto whichever
 * it takes: k[ROSW_KEND]) and returns the scaled error (adaptive) or 0 via *errn. */
static vxc_status trial(sim *s, double t, double h, double *errn) {
  int n = s->n;
  double *y = s->y, *y1 = s->y1, *yt = s->ytmp;
  vxc_status st;
  *errn = 0;
  const int *lv = s->live, nl = s->nlive;
  if (s->t->integrator == TASK_RK4) {
    static const double c[4] = {0, 0.5, 0.5, 1};
    for (int k = 1; k < 4; k++) {
      for (int r = 0; r < nl; r++) {
        for (int i = lv[2 * r]; i < lv[2 * r + 1]; i++) {
          yt[i] = y[i] + c[k] * h * s->k[k - 1][i];
        }
      }
      if ((st = vxci_sim_eval(s, t + c[k] * h, yt, s->k[k], 1)) != VXC_OK) {
        return st;
      }
    }
    for (int r = 0; r < nl; r++) {
      for (int i = lv[2 * r]; i < lv[2 * r + 1]; i++) {
        y1[i] = y[i] + h / 6 * (s->k[0][i] + 2 * s->k[1][i] + 2 * s->k[2][i] + s->k[3][i]);
      }
    }
    vxci_sim_normalize_quats(s, y1);
    return vxci_sim_eval(s, t + h, y1, s->k[4], 1);
  }
  int implicit = s->t->method == TASK_ROSW;
  if (s->t->method == TASK_AUTO && (st = vxci_sim_rosw_implicit(s, t, h, &implicit)) != VXC_OK) {
    return st;
  }
  if (implicit) {
    return vxci_sim_rosw_trial(s, t, h, errn);
  }
  const rk_pair *rk = &PAIRS[s->t->method == TASK_AUTO ? TASK_BS3 : s->t->method];
  for (int k = 1; k < rk->stages; k++) {
    for (int r = 0; r < nl; r++) {
      for (int i = lv[2 * r]; i < lv[2 * r + 1]; i++) {
        double acc = 0;
        for (int j = 0; j < k; j++) {
          acc += rk->a[k][j] * s->k[j][i];
        }
        yt[i] = y[i] + h * acc;
      }
    }
    if (k == rk->stages - 1) {
      memcpy(y1, yt, sizeof *y1 * n);
      vxci_sim_normalize_quats(s, y1);
      memcpy(yt, y1, sizeof *y1 * n);
    }
    if ((st = vxci_sim_eval(s, t + rk->c[k] * h, yt, s->k[k], 1)) != VXC_OK) {
      return st;
    }
  }
  for (int r = 0; r < nl; r++) {
    for (int i = lv[2 * r]; i < lv[2 * r + 1]; i++) {
      double d = 0;
      for (int j = 0; j < rk->stages; j++) {
        d += rk->e[j] * s->k[j][i];
      }
      s->yerr[i] = d * h;
    }
  }
  *errn = vxci_sim_error_norm(s, y, y1, s->yerr);
  if (s->t->method == TASK_AUTO) { /* f(t + h, y1) where the step loop takes rosw's */
    memcpy(s->k[ROSW_KEND], s->k[rk->stages - 1], sizeof *y * n);
  }
  return VXC_OK;
}


/* The larger of |u| and |u1| for the 3-vectors u, u1. */
static double vec_scale(const double *u, const double *u1) {
  return fmax(sqrt(vxg_dot(u, u)), sqrt(vxg_dot(u1, u1)));
}


/* The larger of e and max over i in [lo, hi) of |d_i| / sc_i, NaN when one is: sc_i = *sc,
 * or atol + rtol max(|y_i|, |y1_i|) when sc is NULL. */
static double err_max(double e, const double *d, int lo, int hi, const double *sc, double atol,
                      double rtol, const double *y, const double *y1) {
  for (int i = lo; i < hi; i++) {
    double r = fabs(d[i]) / (sc ? *sc : atol + rtol * fmax(fabs(y[i]), fabs(y1[i])));
    if (r > e || isnan(r)) {
      e = r;
    }
  }
  return e;
}


double vxci_sim_error_norm(const sim *s, const double *y, const double *y1, const double *d) {
  double e = 0, atol = s->t->atol, rtol = s->t->rtol;
  int bend = s->t->ncontact > 0 ? s->c[0].off : s->eoff; /* the bodies' blocks end here */
  for (int b = 0; b < s->t->nbody; b++) {
    int o = s->b[b].off;
    if (o < 0) {
      continue;
    }
    e = err_max(e, d, o, o + 7, NULL, atol, rtol, y, y1); /* centre of mass, quaternion */
    for (int v = o + 7; v < o + 13; v += 3) { /* v_c (world), w (body axes): as vectors */
      double sc = atol + rtol * vec_scale(y + v, y1 + v);
      e = err_max(e, d, v, v + 3, &sc, atol, rtol, y, y1);
    }
  }
  for (int k = 0; k < s->nlive; k++) { /* the free slots' entries are zero in all three */
    int lo = s->live[2 * k] > bend ? s->live[2 * k] : bend;
    e = err_max(e, d, lo, s->live[2 * k + 1], NULL, atol, rtol, y, y1);
  }
  return e;
}


/* 0 when the state has a NaN or infinity, or a body has left any plausible range (farther
 * than 1e5 m, faster than 1e5 m/s or 1e8 rad/s): the run diverged. */
static int all_finite(const sim *s, const double *y, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(y[i])) {
      return 0;
    }
  }
  for (int i = 0; i < s->t->nbody; i++) {
    const double *x = y + s->b[i].off;
    if (s->b[i].off >= 0 && (sqrt(vxg_dot(x, x)) > 1e5 || sqrt(vxg_dot(x + 7, x + 7)) > 1e5 ||
                             sqrt(vxg_dot(x + 10, x + 10)) > 1e8)) {
      return 0;
    }
  }
  return 1;
}


/* After an accepted step: update the trackers from the last eval's metrics (at y1, in
 * s->y), reset lost states, start new ones, re-project found ones. *changed = 1 when a
 * pair started or ended. */
static vxc_status update_contacts(sim *s, double t, int *changed) {
  vxc_task *T = s->t;
  *changed = 0;
  for (int ci = 0; ci < T->ncontact; ci++) {
    task_contact *tc = &T->contact[ci];
    contact_rt *c = &s->c[ci];
    kin ka, kb;
    body_kin(s, tc->a, t, s->y, &ka);
    body_kin(s, tc->b, t, s->y, &kb);
    int started, lost;
    vxc_error e;
    vxc_status st = vxci_pair_track(c->pair, &ka.m, &kb.m, s->y + c->off, &started, &lost, &e);
    if (st == VXC_ERR_LIMIT) {
      return vxg_error_set(s->err, VXC_ERR_LIMIT, NULL, 0, 0,
                           "contact %s~%s at t = %.9g s: %d contacts (cell pairs or patches), "
                           "%d slots (raise (slots N))",
                           T->body[tc->a].name, T->body[tc->b].name, t, c->pair->ncontact,
                           tc->slots);
    }
    if (st != VXC_OK) {
      return vxg_error_set(s->err, st, NULL, 0, 0, "contact %s~%s at t = %.9g s: %s",
                           T->body[tc->a].name, T->body[tc->b].name, t, e.message);
    }
    s->t->sum_contact[ci].impacts += started;
    *changed = *changed || started || lost;
  }
  return VXC_OK;
}


static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}


/* Whether the energy balance still holds at a record. The run's energy scale is the
 * largest K + |P - P0| + E + D + |W| seen so far; the balance is broken when |error| passes
 * the task's tolerance of that scale (and 1e-9 J, below which a resting run's rounding
 * would trip a relative test). */
static int energy_ok(sim *s, const vxc_task_energy *e) {
  double scale =
      e->kinetic + fabs(e->potential - s->p0) + fabs(e->elastic) + e->dissipated + fabs(e->work_in);
  s->escale = fmax(s->escale, scale);
  return !(fabs(e->error) > s->t->energy_tol * s->escale && fabs(e->error) > 1e-9);
}


/* The contacts' overlap at t = 0 (volume and normal force into the summary): refused
 * unless the task allows it, because the elastic energy already stored in an initial
 * overlap is in no budget and releases at once. */
static vxc_status initial_overlap(sim *s) {
  vxc_task *T = s->t;
  for (int ci = 0; ci < T->ncontact; ci++) {
    const vxc_task_contact_state *c = &s->cs[ci];
    T->sum_contact[ci].initial_volume = c->volume;
    T->sum_contact[ci].initial_fn = c->f_n;
  }
  for (int ci = 0; ci < T->ncontact && !T->allow_overlap; ci++) {
    const vxc_task_contact_state *c = &s->cs[ci];
    if (c->npairs > 0 && c->volume > 0) {
      const task_contact *tc = &T->contact[ci];
      return vxg_error_set(s->err, VXC_ERR_GEOMETRY, NULL, 0, 0,
                           "bodies %s and %s overlap at t = 0 (V = %.4g m^3, f_n = %.4g N): "
                           "move them apart, or add (initial-overlap allow) to the task",
                           T->body[tc->a].name, T->body[tc->b].name, c->volume, c->f_n);
    }
  }
  return VXC_OK;
}


static void fill_record(sim *s, double t, vxc_task_record *r) {
  r->t = t;
  r->nbody = s->t->nbody;
  r->ncontact = s->t->ncontact;
  r->body = s->bs;
  r->contact = s->cs;
  vxci_sim_energy(s, s->y, &r->energy);
}


static void track_summary(sim *s, double t) {
  for (int ci = 0; ci < s->t->ncontact; ci++) {
    vxc_task_contact_summary *cs = &s->t->sum_contact[ci];
    const vxc_task_contact_state *c = &s->cs[ci];
    if (c->npairs > 0) {
      if (cs->first < 0) {
        cs->first = t;
      }
      cs->last = t;
      cs->peak_fn = fmax(cs->peak_fn, c->f_n);
      cs->peak_fn_contact = fmax(cs->peak_fn_contact, c->f_n_max);
      cs->peak_ft = fmax(cs->peak_ft, c->f_t);
      cs->peak_troll = fmax(cs->peak_troll, c->t_roll);
      cs->peak_tspin = fmax(cs->peak_tspin, c->t_spin);
    }
  }
  vxci_peaks_track(s, t);
}


/* The contact torques and force on A, for records (from the last eval's pairs). */
static vxc_status contact_wrench_a(sim *s, double t) {
  vxc_task *T = s->t;
  for (int ci = 0; ci < T->ncontact; ci++) {
    task_contact *tc = &T->contact[ci];
    contact_rt *c = &s->c[ci];
    vxc_task_contact_state *cs = &s->cs[ci];
    kin ka, kb;
    body_kin(s, tc->a, t, s->y, &ka);
    body_kin(s, tc->b, t, s->y, &kb);
    ka.m.r[0] = ka.pose.p[0];
    ka.m.r[1] = ka.pose.p[1];
    ka.m.r[2] = ka.pose.p[2];
    memcpy(ka.m.v, ka.origin_v, sizeof ka.m.v);
    vxc_pair_wrench sw;
    vxc_status st = vxci_pair_forces(c->pair, &ka.m, &kb.m, s->y + c->off, NULL, &sw, s->err);
    if (st != VXC_OK) {
      return st;
    }
    memcpy(cs->force_a, sw.force_a, sizeof cs->force_a);
    memcpy(cs->torque_a, sw.torque_a, sizeof cs->torque_a);
  }
  return VXC_OK;
}


static vxc_status setup(sim *s, vxc_task *T) {
  memset(s, 0, sizeof *s);
  s->t = T;
  s->b = vxci_task_alloc(T, sizeof *s->b * T->nbody);
  s->c = vxci_task_alloc(T, sizeof *s->c * (T->ncontact + 1));
  if (!s->b || !s->c) {
    return VXC_ERR_NOMEM;
  }
  int n = 0;
  for (int i = 0; i < T->nbody; i++) {
    s->b[i].off = -1;
    if (T->body[i].dynamic) {
      s->b[i].off = n;
      n += 13;
      inv3(T->body[i].inertia, s->b[i].Iinv);
    }
  }
  for (int ci = 0; ci < T->ncontact; ci++) {
    contact_rt *c = &s->c[ci];
    int slots = T->contact[ci].slots;
    c->off = n;
    n += slots * VXC_STATE_SIZE;
    const task_contact *tc = &T->contact[ci];
    vxc_query_options qo = tc->query;
    qo.stop = T->stop;
    vxc_status st = vxc_pair_create(T->body[tc->a].solid, T->body[tc->b].solid, &tc->params,
                                    &qo, slots, &T->al, &c->pair, NULL);
    if (st != VXC_OK) {
      return st;
    }
  }
  s->eoff = n;
  n += NE;
  s->n = n;
  s->live = vxci_task_alloc(T, sizeof *s->live * 2 * (size_t)(n / VXC_STATE_SIZE + 2));
  if (!s->live) {
    return VXC_ERR_NOMEM;
  }
  s->live[0] = 0;
  s->live[1] = n;
  s->nlive = 1;
  double **v[] = {&s->y,    &s->y1,   &s->ytmp, &s->yerr, &s->k[0], &s->k[1],
                  &s->k[2], &s->k[3], &s->k[4], &s->k[5], &s->k[6]};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
    *v[i] = vxci_task_alloc(T, sizeof(double) * n);
    if (!*v[i]) {
      return VXC_ERR_NOMEM;
    }
  }
  if (T->integrator == TASK_ADAPTIVE && T->method >= TASK_ROSW && vxci_sim_rosw_init(s) != VXC_OK) {
    return VXC_ERR_NOMEM;
  }
  s->bs = vxci_task_alloc(T, sizeof *s->bs * T->nbody);
  s->cs = vxci_task_alloc(T, sizeof *s->cs * (T->ncontact + 1));
  vxci_task_free_mem(T, T->rec_body);
  vxci_task_free_mem(T, T->rec_contact);
  vxci_task_free_mem(T, T->sum_contact);
  T->rec_body = NULL;
  T->rec_contact = NULL;
  T->sum_contact = vxci_task_alloc(T, sizeof *T->sum_contact * (T->ncontact + 1));
  if (!s->bs || !s->cs || !T->sum_contact) {
    return VXC_ERR_NOMEM;
  }
  for (int ci = 0; ci < T->ncontact; ci++) {
    T->sum_contact[ci].first = T->sum_contact[ci].last = -1;
  }
  if (vxci_peaks_init(s) != VXC_OK) {
    return VXC_ERR_NOMEM;
  }
  /* initial state */
  for (int i = 0; i < T->nbody; i++) {
    const task_body *b = &T->body[i];
    if (s->b[i].off < 0) {
      continue;
    }
    double *x = s->y + s->b[i].off, R[9], rc[3], wx[3];
    vxc_pose p0 = b->pose0;
    double v0[6];
    memcpy(v0, b->vel0, sizeof v0);
    if (b->kind == TASK_DRIVEN) {
      trajectory(b, 0, &p0, v0);
    }
    vxg_quat_to_mat(p0.q, R);
    vxg_mat3_vec(R, b->com, rc);
    vxg_cross(v0 + 3, rc, wx);
    for (int j = 0; j < 3; j++) {
      x[j] = p0.p[j] + rc[j];
      x[7 + j] = v0[j] + wx[j];
    }
    memcpy(x + 3, p0.q, 4 * sizeof *x);
    vxg_mat3t_vec(R, v0 + 3, x + 10);
  }
  return VXC_OK;
}


static void teardown(sim *s) {
  vxc_task *T = s->t;
  if (s->c) {
    for (int ci = 0; ci < T->ncontact; ci++) {
      vxc_pair_free(s->c[ci].pair);
    }
  }
  double *v[] = {s->y,    s->y1,   s->ytmp, s->yerr, s->k[0], s->k[1],
                 s->k[2], s->k[3], s->k[4], s->k[5], s->k[6]};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
    vxci_task_free_mem(T, v[i]);
  }
  vxci_task_free_mem(T, s->b);
  vxci_task_free_mem(T, s->c);
  vxci_task_free_mem(T, s->live);
  vxci_peaks_free(s);
  vxci_task_free_mem(T, s->cs);
  vxci_sim_rosw_free(s);
  T->rec_body = s->bs; /* the final states stay with the task for the summary */
}


/* Refuses up front a run that would pass its bounds: a fixed step's count, the records'. */
static vxc_status run_bounds(const vxc_task *T, vxc_error *err) {
  double steps = T->integrator == TASK_RK4 ? T->duration / T->step : 0;
  double records = T->every > 0 ? T->duration / T->every + 2 : 0;
  if (steps > (double)T->max_steps) {
    return vxg_error_set(err, VXC_ERR_LIMIT, NULL, 0, 0,
                         "the run would take %.3g steps (duration / step), more than the limit "
                         "%lld (raise it with --max-steps, or take a longer step)",
                         steps, T->max_steps);
  }
  if (records > (double)T->max_records) {
    return vxg_error_set(err, VXC_ERR_LIMIT, NULL, 0, 0,
                         "the run would write %.3g records (duration / every), more than the "
                         "limit %lld (raise it with --max-output, or record less often)",
                         records, T->max_records);
  }
  return VXC_OK;
}


/* The step loop's state between stages. */
typedef struct run_loop {
  double t, h;      /* time, next trial step, s */
  double next_rec;  /* time of the next record, s */
  double next_prog; /* time of the next progress call, s */
  double event_hi;  /* a rejected step's end: a contact starts before it (-1: none) */
  int kend;         /* the stage holding f(t + h, y1) after a trial */
  double expo;      /* step-size update exponent (0: fixed step) */
  int stop, polled; /* stop now; the poll asked to stop (record now, then stop) */
  int after_reject; /* the last trial step was rejected for its error */
  long long nrec;   /* records written */
  vxc_task_record_fn rec;
  void *ud;
  vxc_task_summary sum;
} run_loop;


/* Stage 0: the contacts at t = 0 (query, tracker, the query again when pairs started), the
 * energy reference, the initial overlap's check. */
static vxc_status run_start(sim *s, run_loop *L) {
  vxc_task *T = s->t;
  int changed = 0;
  vxc_status st = run_bounds(T, s->err);
  if (st == VXC_OK) {
    st = vxci_sim_eval(s, L->t, s->y, s->k[0], 1);
  }
  if (st == VXC_OK) {
    st = update_contacts(s, L->t, &changed);
    sim_live(s);
  }
  if (st == VXC_OK && changed) {
    st = vxci_sim_eval(s, L->t, s->y, s->k[0], 1);
  }
  vxc_task_energy e;
  vxci_sim_energy(s, s->y, &e);
  s->e0 = e.error; /* error = total - 0 here */
  s->p0 = e.potential;
  if (st == VXC_OK) {
    track_summary(s, L->t);
    st = initial_overlap(s);
  }
  return st;
}


/* Stage 1, at a record time: the record (with its energy check) to the callback, and the
 * next record time; L->stop when the callback or the poll asked to stop. */
static vxc_status run_record(sim *s, run_loop *L) {
  vxc_task *T = s->t;
  double t = L->t;
  vxc_status st = contact_wrench_a(s, t);
  if (st != VXC_OK) {
    return st;
  }
  if (L->nrec++ >= T->max_records) {
    return vxg_error_set(s->err, VXC_ERR_LIMIT, NULL, 0, 0,
                         "the record limit %lld was reached at t = %.9g s (raise it with "
                         "--max-output)",
                         T->max_records, t);
  }
  vxc_task_record r;
  fill_record(s, t, &r);
  L->sum.max_abs_error = fmax(L->sum.max_abs_error, fabs(r.energy.error));
  if (!energy_ok(s, &r.energy)) {
    L->sum.energy_failed = 1;
    st = vxg_error_set(s->err, VXC_ERR_NUMERIC, NULL, 0, 0,
                       "the energy balance broke at t = %.9g s: error %.4g J, %.3g of the "
                       "run's energy scale %.4g J (tolerance %g; raise it with "
                       "(energy-tolerance R))",
                       t, r.energy.error, fabs(r.energy.error) / s->escale, s->escale,
                       T->energy_tol);
  }
  int want_stop = L->rec && L->rec(L->ud, &r); /* the broken record is written too */
  if (st != VXC_OK) {
    return st;
  }
  if (want_stop || L->polled) {
    L->stop = 1;
    L->sum.stopped = 1;
    return VXC_OK;
  }
  L->next_rec = T->every > 0 ? L->next_rec + T->every : t;
  while (T->every > 0 && L->next_rec <= t + 1e-12 * fmax(1, t)) {
    L->next_rec += T->every;
  }
  return VXC_OK;
}


/* Stage 2: the trial step's size, within the maximum step, the next record time and a
 * located contact start. */
static double step_size(const sim *s, const run_loop *L) {
  const vxc_task *T = s->t;
  double t = L->t, tend = T->duration;
  double hmax = T->integrator == TASK_RK4 ? T->step : T->max_step;
  double hs = fmin(L->h, hmax);
  double tgt = fmin(tend, T->every > 0 ? L->next_rec : tend);
  if (L->event_hi > t) {
    hs = fmin(hs, L->event_hi - t);
  }
  if (t + hs > tgt - 1e-12 * fmax(1, tgt)) {
    hs = tgt - t;
  }
  return hs;
}


/* Stage 3, after a trial of size hs with scaled error errn: 1 when it is rejected, for its
 * error or for a contact that started too deep within it (L->h, L->event_hi then set for the
 * retry; a collapsed step is an error in *st). */
static int step_rejected(sim *s, run_loop *L, double hs, double errn, vxc_status *st) {
  vxc_task *T = s->t;
  double t = L->t;
  if (T->integrator == TASK_ADAPTIVE && !(errn <= 1)) {
    vxci_sim_rosw_step_done(s, 0, 0);
    L->sum.rejected++;
    L->after_reject = 1;
    double f = isfinite(errn) ? fmax(0.2, 0.9 * pow(errn, L->expo)) : 0.2;
    L->h = hs * f;
    if (L->h < 1e-12) {
      *st = vxg_error_set(s->err, VXC_ERR_NUMERIC, NULL, 0, 0,
                          "the step size collapsed below 1e-12 s at t = %.9g s (the run "
                          "diverged or is too stiff for the tolerances)",
                          t);
    }
    return 1;
  }
  int deep = 0;
  for (int ci = 0; ci < T->ncontact; ci++) {
    if (s->c[ci].pair->deep > T->contact[ci].event_force) {
      deep = 1;
    }
  }
  if (deep && hs > 1e-11 * fmax(1, t)) {
    vxci_sim_rosw_step_done(s, 0, 0);
    L->sum.rejected++;
    L->event_hi = t + hs;
    L->h = hs * 0.5;
    return 1;
  }
  return 0;
}


/* Stage 4, an accepted step of size hs: y1 becomes y, the trackers follow the new pairs (the
 * contacts queried again when pairs started or ended), the summary, the poll, the next step
 * size. */
static vxc_status step_accept(sim *s, run_loop *L, double hs, double errn) {
  vxc_task *T = s->t;
  if (!all_finite(s, s->y1, s->n)) {
    return vxg_error_set(s->err, VXC_ERR_NUMERIC, NULL, 0, 0,
                         "the state became NaN, infinite or implausibly large at t = %.9g s: "
                         "the run diverged (a smaller step or a smaller voxel may help)",
                         L->t + hs);
  }
  double *tmp = s->y;
  s->y = s->y1;
  s->y1 = tmp;
  tmp = s->k[0];
  s->k[0] = s->k[L->kend];
  s->k[L->kend] = tmp;
  L->t += hs;
  double t = L->t;
  L->sum.steps++;
  L->sum.min_step = fmin(L->sum.min_step, hs);
  L->sum.max_step = fmax(L->sum.max_step, hs);
  int changed;
  vxc_status st = update_contacts(s, t, &changed);
  if (st != VXC_OK) {
    return st;
  }
  vxci_sim_rosw_step_done(s, 1, changed);
  if (changed) {
    sim_live(s);
    L->event_hi = -1;
    st = vxci_sim_eval(s, t, s->y, s->k[0], 1);
    if (st != VXC_OK) {
      return st;
    }
  }
  track_summary(s, t);
  if (T->poll && T->poll(T->poll_ud)) {
    L->polled = 1;
    L->next_rec = t; /* the loop's top writes the record at t and stops */
  }
  if (T->integrator == TASK_ADAPTIVE) {
    /* a step cut short by a record time or an event does not shrink the next one; the step
       accepted after a rejection for its error does not grow the next one (Hairer, Norsett
       and Wanner, Solving ODEs I, II.4: else the controller overshoots into the rejection
       again where the error grows faster than its order says, at a contact) */
    double f = errn > 0 ? fmin(5, fmax(0.2, 0.9 * pow(errn, L->expo))) : 5;
    f = L->after_reject ? fmin(f, 1) : f;
    L->after_reject = 0;
    L->h = hs < L->h ? fmax(L->h, hs * f) : hs * f;
  } else {
    L->h = T->step;
  }
  if (L->sum.steps >= T->max_steps && t < T->duration - 1e-12 * fmax(1, T->duration)) {
    return vxg_error_set(s->err, VXC_ERR_LIMIT, NULL, 0, 0,
                         "the step limit %lld was reached at t = %.9g s (raise it with "
                         "--max-steps)",
                         T->max_steps, t);
  }
  return VXC_OK;
}


/* The step loop: records, trial steps, rejections and acceptances until the task's end, a
 * stop or an error. */
static vxc_status run_loop_steps(sim *s, run_loop *L, vxc_task_progress_fn progress) {
  vxc_task *T = s->t;
  double tend = T->duration;
  vxc_status st = VXC_OK;
  while (st == VXC_OK && !L->stop) {
    if (L->t >= L->next_rec - 1e-12 * fmax(1, L->t)) {
      if ((st = run_record(s, L)) != VXC_OK || L->stop) {
        break;
      }
    }
    if (L->t >= tend - 1e-12 * fmax(1, tend)) {
      L->sum.completed = 1;
      break;
    }
    if (progress && L->t >= L->next_prog) {
      progress(L->ud, L->t, tend);
      L->next_prog = L->t + tend / 200;
    }
    double hs = step_size(s, L), errn;
    if ((st = trial(s, L->t, hs, &errn)) != VXC_OK) {
      break;
    }
    if (step_rejected(s, L, hs, errn, &st)) {
      continue;
    }
    st = step_accept(s, L, hs, errn);
  }
  return st;
}


/* Stage 5: the summary's figures and the final body states (the last eval's may belong to a
 * rejected trial, so they are recomputed). */
static void run_finish(sim *s, run_loop *L) {
  vxc_task *T = s->t;
  vxc_task_summary *sum = &L->sum;
  sum->t_end = L->t;
  vxci_sim_energy(s, s->y, &sum->energy);
  sum->energy_scale = s->escale;
  sum->queries = s->queries;
  sum->capped_queries = s->capped_queries;
  sum->closed_form_queries = s->closed_form_queries;
  sum->nbody = T->nbody;
  sum->ncontact = T->ncontact;
  sum->contact = T->sum_contact;
  vxci_peaks_finish(s);
  if (sum->min_step == HUGE_VAL) {
    sum->min_step = 0;
  }
  for (int i = 0; i < T->nbody; i++) {
    kin k;
    body_kin(s, i, L->t, s->y, &k);
    memcpy(s->bs[i].pose, k.pose.p, 3 * sizeof(double));
    memcpy(s->bs[i].pose + 3, k.pose.q, 4 * sizeof(double));
    memcpy(s->bs[i].velocity, k.origin_v, 3 * sizeof(double));
    memcpy(s->bs[i].velocity + 3, k.m.w, 3 * sizeof(double));
  }
}


vxc_status vxc_task_run(vxc_task *T, vxc_task_record_fn rec, vxc_task_progress_fn progress,
                        void *ud, vxc_task_summary *summary, vxc_error *err) {
  if (!T) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_task_run: task is NULL");
  }
  vxc_error local;
  memset(&local, 0, sizeof local);
  if (err) {
    memset(err, 0, sizeof *err);
  }
  sim S, *s = &S;
  double wall0 = now_s();
  vxc_status st = setup(s, T);
  s->err = err ? err : &local;
  if (st != VXC_OK) {
    teardown(s);
    return vxg_error_set(err, st, NULL, 0, 0, "cannot set up the simulation: %s",
                         vxc_status_str(st));
  }
  run_loop L;
  memset(&L, 0, sizeof L);
  L.sum.min_step = HUGE_VAL;
  L.h = T->step;
  L.event_hi = -1;
  L.rec = rec;
  L.ud = ud;
  int rosw = T->integrator == TASK_ADAPTIVE && T->method >= TASK_ROSW; /* rosw or auto */
  L.kend = T->integrator == TASK_RK4 ? 4 : rosw ? ROSW_KEND : PAIRS[T->method].stages - 1;
  L.expo = T->integrator == TASK_RK4 ? 0 : rosw ? -1.0 / ROSW_ORDER : -1.0 / PAIRS[T->method].order;
  st = run_start(s, &L);
  if (st == VXC_OK) {
    st = run_loop_steps(s, &L, progress);
  }
  if (st == VXC_ERR_STOPPED) {
    /* the stop flag ended a query: the step under way is dropped, the state is the last
       accepted step's */
    L.sum.stopped = 1;
    st = VXC_OK;
    memset(s->err, 0, sizeof *s->err);
  }
  if (st != VXC_OK && !(err ? err : &local)->message[0]) {
    vxg_error_set(err, st, NULL, 0, 0, "the run failed at t = %.9g s: %s", L.t, vxc_status_str(st));
  }
  run_finish(s, &L);
  teardown(s);
  L.sum.body = T->rec_body;
  L.sum.wall_s = now_s() - wall0;
  L.sum.realtime_factor = L.sum.wall_s > 0 ? L.t / L.sum.wall_s : 0;
  if (summary) {
    *summary = L.sum;
  }
  if (st != VXC_OK && err) {
    err->status = st;
  }
  return st;
}
