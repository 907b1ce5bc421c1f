/* bridge.c: vxc contact inside MuJoCo, step by step (bridge.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cli.h"
#include "tools/mujoco/bridge.h"

/* ---- MuJoCo's collisions without the vxc pairs' ---------------------------------------- */

static const bridge *filtered; /* the bridge whose pairs the filter excludes */

/* mjcb_contactfilter: 1 discards the geom pair. Installing a filter replaces MuJoCo's own, so
 * its documented rules come back here: a vxc pair's geoms never touch in MuJoCo; others
 * touch when one's contype meets the other's conaffinity, unless they are welded together
 * or, with the parent filter on, one's weld is the other's parent (the world excepted). */
static int contact_filter(const mjModel *m, mjData *d, int g1, int g2) {
  (void)d;
  int b1 = m->geom_bodyid[g1], b2 = m->geom_bodyid[g2];
  for (int i = 0; i < filtered->ncontact; i++) {
    const int *b = filtered->c[i].body;
    if ((b[0] == b1 && b[1] == b2) || (b[0] == b2 && b[1] == b1)) {
      return 1;
    }
  }
  if (!(m->geom_contype[g1] & m->geom_conaffinity[g2]) &&
      !(m->geom_contype[g2] & m->geom_conaffinity[g1])) {
    return 1;
  }
  int w1 = m->body_weldid[b1], w2 = m->body_weldid[b2];
  if (w1 == w2) {
    return 1;
  }
  int p1 = m->body_weldid[m->body_parentid[w1]], p2 = m->body_weldid[m->body_parentid[w2]];
  int parent = !(m->opt.disableflags & mjDSBL_FILTERPARENT) && w1 && w2;
  return parent && (p1 == w2 || p2 == w1);
}

/* ---- MuJoCo's warnings ------------------------------------------------------------------ */

static char warned[512]; /* MuJoCo's last warning (its default handler writes a log file) */

static void on_warning(const char *msg) {
  snprintf(warned, sizeof warned, "%s", msg);
}


/* 0, or -1 with a message when MuJoCo met a non-finite state or ran out of contact or
 * constraint room at the last step (it then resets the state or drops contacts). */
static int mujoco_trouble(const bridge *br, char *msg, size_t size) {
  static const int bad[] = {mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC, mjWARN_CONTACTFULL,
                            mjWARN_CNSTRFULL};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (br->d->warning[bad[i]].number > 0) {
      snprintf(msg, size,
               "t = %.9g s: MuJoCo: %s (the run diverged or the model is too "
               "small for its contacts)",
               br->d->time, warned[0] ? warned : "a warning");
      return -1;
    }
  }
  return 0;
}

/* ---- loading -------------------------------------------------------------------------- */

int bridge_load(bridge *br, const char *xml, int native, char *msg, size_t size) {
  memset(br, 0, sizeof *br);
  mju_user_warning = on_warning;
  char err[1000] = "";
  br->m = mj_loadXML(xml, NULL, err, sizeof err);
  if (!br->m) {
    snprintf(msg, size, "%s: %s", xml, err[0] ? err : "cannot load the model");
    return -1;
  }
  br->d = mj_makeData(br->m);
  if (!br->d) {
    snprintf(msg, size, "%s: out of memory", xml);
    return -1;
  }
  br->native = native;
  br->energy_tol = 1e-2;
  if (!(br->m->opt.timestep > 0)) {
    snprintf(msg, size, "%s: the time step is not positive", xml);
    return -1;
  }
  return 0;
}


/* The records' index of body `id`, added when new. */
static int record_body(bridge *br, int id) {
  for (int i = 0; i < br->nbody; i++) {
    if (br->body[i] == id) {
      return i;
    }
  }
  br->body[br->nbody] = id;
  br->name[br->nbody] = mj_id2name(br->m, mjOBJ_BODY, id);
  return br->nbody++;
}


void bridge_record_all(bridge *br) {
  for (int b = 1; b < br->m->nbody && br->nbody < 2 * BRIDGE_MAX_CONTACTS; b++) {
    record_body(br, b);
  }
}


/* The "did you mean" hint for `name` among the model's n objects of type t (the first 256). */
static const char *object_hint(const mjModel *m, int t, int n, const char *name, char *buf,
                               size_t size) {
  const char *names[256];
  int k = 0;
  for (int i = 0; i < n && k < 256; i++) {
    const char *s = mj_id2name(m, t, i);
    if (s) {
      names[k++] = s;
    }
  }
  return cli_hint(name, names, k, buf, size);
}


int bridge_add_contact(bridge *br, const char *a, const char *a_vxm, const char *b,
                       const char *b_vxm, const vxc_params *p, const vxc_query_options *o,
                       int slots, char *msg, size_t size) {
  if (br->ncontact == BRIDGE_MAX_CONTACTS) {
    snprintf(msg, size, "more than %d contacts", BRIDGE_MAX_CONTACTS);
    return -1;
  }
  bridge_contact *c = &br->c[br->ncontact];
  memset(c, 0, sizeof *c);
  const char *names[2] = {a, b}, *files[2] = {a_vxm, b_vxm};
  for (int k = 0; k < 2; k++) {
    c->body[k] = mj_name2id(br->m, mjOBJ_BODY, names[k]);
    if (c->body[k] < 0) {
      char hint[96];
      snprintf(msg, size, "--contact: the model has no body named '%s'%s", names[k],
               object_hint(br->m, mjOBJ_BODY, br->m->nbody, names[k], hint, sizeof hint));
      return -1;
    }
  }
  if (c->body[0] == c->body[1]) {
    snprintf(msg, size, "--contact: body '%s' twice", a);
    return -1;
  }
  vxc_error err;
  vxc_status st = VXC_OK;
  for (int k = 0; k < 2 && st == VXC_OK; k++) {
    st = vxc_solid_load(files[k], NULL, &c->solid[k], &err);
  }
  if (st == VXC_OK) {
    st = vxc_pair_create(c->solid[0], c->solid[1], p, o, slots, NULL, &c->pair, &err);
  }
  if (st != VXC_OK) {
    snprintf(msg, size, "%s", err.message);
    vxc_solid_free(c->solid[0]);
    vxc_solid_free(c->solid[1]);
    memset(c, 0, sizeof *c);
    return -2;
  }
  c->params = *p;
  if (vxc_params_prepare(&c->params, &err) != VXC_OK) { /* (the pair took them: never) */
    snprintf(msg, size, "%s", err.message);
    return -2;
  }
  c->sum.first = c->sum.last = -1;
  int i = br->ncontact++;
  br->pair_index[2 * i] = record_body(br, c->body[0]);
  br->pair_index[2 * i + 1] = record_body(br, c->body[1]);
  for (int k = 0; k < 2; k++) {
    c->pose[k] = &br->pose[br->pair_index[2 * i + k]];
    c->mo[k] = &br->mo[br->pair_index[2 * i + k]];
  }
  return 0;
}


int bridge_reset(bridge *br, const char *key, char *msg, size_t size) {
  if (!key) {
    mj_resetData(br->m, br->d);
  } else {
    int k = mj_name2id(br->m, mjOBJ_KEY, key);
    char *end;
    long n = strtol(key, &end, 10);
    if (k < 0 && *end == '\0' && end != key && n >= 0 && n < br->m->nkey) {
      k = (int)n;
    }
    if (k < 0) {
      char hint[96];
      snprintf(msg, size, "--key: the model has no keyframe '%s' (%d keyframes)%s", key,
               br->m->nkey, object_hint(br->m, mjOBJ_KEY, br->m->nkey, key, hint, sizeof hint));
      return -1;
    }
    mj_resetDataKeyframe(br->m, br->d, k);
  }
  if (!br->native) {
    filtered = br;
    mjcb_contactfilter = contact_filter;
  }
  return 0;
}

/* ---- one step ------------------------------------------------------------------------- */

/* Record body i's pose, and its motion with the centre of mass as reference point
 * (xfrc_applied's point of application): a moving body's twist at the step's start
 * (bridge_implicit_prepare's J qvel), a body welded to the world at rest, a mocap body's
 * velocity from MuJoCo. */
static void body_motion(const bridge *br, int i, vxc_pose *pose, vxc_body_motion *mo) {
  const mjData *d = br->d;
  int id = br->body[i];
  double t[6];
  if (br->tw[i] >= 0) {
    const double *s = br->scratch + 6 * br->tw[i], *ds = br->dtw + 6 * br->tw[i];
    for (int j = 0; j < 6; j++) { /* bridge_twist's at 0 */
      t[j] = s[j] + 0.0 * ds[j];
    }
  } else if (br->m->body_mocapid[id] < 0) { /* welded to the world */
    memset(t, 0, sizeof t);
  } else {
    mjtNum v[6];
    mj_objectVelocity(br->m, d, mjOBJ_BODY, id, v, 0); /* at the centre of mass, world axes */
    for (int j = 0; j < 3; j++) {
      t[j] = v[3 + j];
      t[3 + j] = v[j];
    }
  }
  for (int j = 0; j < 3; j++) {
    pose->p[j] = d->xpos[3 * id + j];
    mo->r[j] = d->xipos[3 * id + j];
    mo->v[j] = t[j];
    mo->w[j] = t[3 + j];
  }
  for (int j = 0; j < 4; j++) {
    pose->q[j] = d->xquat[4 * id + j];
  }
}


/* Each record body's pose and motion at the step's start, for the contacts and the records
 * (br->pose, br->mo; a moving body's from its twist, after bridge_implicit_prepare; a body
 * welded to the world keeps the first step's). */
static void record_bodies(bridge *br) {
  for (int i = 0; i < br->nbody; i++) {
    if (!br->posed || br->tw[i] >= 0 || br->m->body_mocapid[br->body[i]] >= 0) {
      body_motion(br, i, &br->pose[i], &br->mo[i]);
    }
  }
  br->posed = 1;
}


/* w x arm. */
static void cross(const double w[3], const double arm[3], double out[3]) {
  out[0] = w[1] * arm[2] - w[2] * arm[1];
  out[1] = w[2] * arm[0] - w[0] * arm[2];
  out[2] = w[0] * arm[1] - w[1] * arm[0];
}


/* The records' body states from br->pose and br->mo: the body frame's pose and velocity (v +
 * w x (x_frame - x_com)); with br->half, the step's mean velocity (plus half the twist's
 * change over the step, br->dtwist, moved to the frame: staggered.c). */
static void body_states(bridge *br) {
  for (int i = 0; i < br->nbody; i++) {
    const vxc_pose *pose = &br->pose[i];
    const vxc_body_motion *mo = &br->mo[i];
    const double *dt = br->dtwist[i], *dw = dt + 3;
    double arm[3] = {pose->p[0] - mo->r[0], pose->p[1] - mo->r[1], pose->p[2] - mo->r[2]};
    double cr[3], dcr[3];
    cross(mo->w, arm, cr);
    cross(dw, arm, dcr);
    vxc_task_body_state *s = &br->bs[i];
    for (int j = 0; j < 3; j++) {
      s->pose[j] = pose->p[j];
      s->velocity[j] = mo->v[j] + cr[j];
      s->velocity[3 + j] = mo->w[j];
      if (br->half) {
        s->velocity[j] += 0.5 * (dt[j] + dcr[j]);
        s->velocity[3 + j] += 0.5 * dw[j];
      }
    }
    for (int j = 0; j < 4; j++) {
      s->pose[3 + j] = pose->q[j];
    }
  }
}


static void summarize(bridge_contact *c, double t) {
  const vxc_task_contact_state *s = &c->state;
  c->sum.impacts += c->w.started;
  if (s->npairs > 0 || s->f_n > 0) {
    if (c->sum.first < 0) {
      c->sum.first = t;
    }
    c->sum.last = t;
    c->sum.peak_fn = fmax(c->sum.peak_fn, s->f_n);
    c->sum.peak_ft = fmax(c->sum.peak_ft, s->f_t);
    c->sum.peak_troll = fmax(c->sum.peak_troll, s->t_roll);
    c->sum.peak_tspin = fmax(c->sum.peak_tspin, s->t_spin);
  }
}


/* vxc's contact c at the step's start (after record_bodies): its wrench and its derivatives
 * over the step. */
static int vxc_contact(bridge *br, int i, int advance, char *msg, size_t size) {
  bridge_contact *c = &br->c[i];
  vxc_error err;
  long long t0 = bridge_clock();
  vxc_status st =
      vxc_pair_step(c->pair, c->pose[0], c->mo[0], c->pose[1], c->mo[1], 0, &c->w, &err);
  if (st == VXC_OK) {
    st = vxc_pair_jacobian_get(c->pair, br->m->opt.timestep, &c->jac, &err);
  }
  br->wall_vxc += bridge_clock() - t0;
  if (st != VXC_OK) {
    snprintf(msg, size, "t = %.9g s: %s", br->d->time, err.message);
    return -1;
  }
  const vxc_metrics *mt = vxc_pair_last_metrics(c->pair);
  br->queries++;
  br->capped += c->w.capped;
  br->wall_query += advance ? 1e-3 * mt->time_ms : 0;
  return 0;
}


/* Contact c's record from the wrench applied over the step (on A, about its origin): its
 * normal force -n.F_A, its friction the rest of F_A; the rolling and spinning torques and
 * the states as the step's start gave them. */
static void record_contact(bridge_contact *c) {
  const vxc_pair_wrench *w = &c->w;
  vxc_task_contact_state *s = &c->state;
  s->npairs = w->npairs;
  s->f_n_max = 0;
  s->volume = w->volume;
  memcpy(s->normal, w->normal, sizeof s->normal);
  const double *F = c->applied, *n = w->normal;
  double fn = -(F[0] * n[0] + F[1] * n[1] + F[2] * n[2]), ft2 = 0;
  for (int j = 0; j < 3; j++) {
    double t = F[j] + fn * n[j];
    ft2 += t * t;
  }
  s->f_n = w->npairs > 0 ? fn : 0.0;
  s->f_t = sqrt(ft2);
  s->t_roll = w->t_roll;
  s->t_spin = w->t_spin;
  s->stick = w->stick;
  s->sdw = w->sdw;
  double arm[3], cr[3]; /* torque on A about its origin = about its centre + arm x F */
  for (int j = 0; j < 3; j++) {
    arm[j] = c->mo[0]->r[j] - c->pose[0]->p[j];
  }
  cr[0] = arm[1] * F[2] - arm[2] * F[1];
  cr[1] = arm[2] * F[0] - arm[0] * F[2];
  cr[2] = arm[0] * F[1] - arm[1] * F[0];
  for (int j = 0; j < 3; j++) {
    s->force_a[j] = F[j];
    s->torque_a[j] = F[3 + j] + cr[j];
  }
}


/* The contacts' wrenches over the step into xfrc_applied: the implicit ones, or with
 * explicit_coupling the step's start's. 0, or -1 with a message. */
static int apply_wrenches(bridge *br, char *msg, size_t size) {
  if (!br->explicit_coupling) {
    return bridge_implicit_apply(br, msg, size);
  }
  for (int i = 0; i < br->ncontact; i++) {
    bridge_contact *c = &br->c[i];
    memcpy(c->applied, c->jac.wrench, sizeof c->applied);
    for (int k = 0; k < 2; k++) {
      mjtNum *x = br->d->xfrc_applied + 6 * c->body[k];
      for (int j = 0; j < 6; j++) {
        x[j] += c->applied[6 * k + j];
      }
    }
  }
  return 0;
}


/* MuJoCo's own contact between c's bodies, as a record: the contact forces of every MuJoCo
 * contact between their geoms, on A. */
static void native_contact(bridge *br, bridge_contact *c) {
  const mjModel *m = br->m;
  const mjData *d = br->d;
  vxc_task_contact_state *s = &c->state;
  memset(s, 0, sizeof *s);
  double ft[3] = {0}, tr[3] = {0}, ts[3] = {0};
  const mjtNum *pa = d->xpos + 3 * c->body[0];
  for (int i = 0; i < d->ncon; i++) {
    const mjContact *k = &d->contact[i];
    int b1 = m->geom_bodyid[k->geom1], b2 = m->geom_bodyid[k->geom2];
    double sign = b1 == c->body[0] && b2 == c->body[1] ? -1 : 1; /* the force is on geom2 */
    if (!(sign < 0) && !(b1 == c->body[1] && b2 == c->body[0])) {
      continue;
    }
    mjtNum f[6];
    mj_contactForce(m, d, i, f);
    const mjtNum *n = k->frame, *t1 = k->frame + 3, *t2 = k->frame + 6;
    double fa[3], arm[3], tq[3];
    for (int j = 0; j < 3; j++) {
      fa[j] = sign * (f[0] * n[j] + f[1] * t1[j] + f[2] * t2[j]);
      ft[j] += sign * (f[1] * t1[j] + f[2] * t2[j]);
      ts[j] += sign * f[3] * n[j];
      tr[j] += sign * (f[4] * t1[j] + f[5] * t2[j]);
      arm[j] = k->pos[j] - pa[j];
      s->normal[j] = -sign * n[j]; /* A toward B */
    }
    tq[0] = arm[1] * fa[2] - arm[2] * fa[1];
    tq[1] = arm[2] * fa[0] - arm[0] * fa[2];
    tq[2] = arm[0] * fa[1] - arm[1] * fa[0];
    for (int j = 0; j < 3; j++) {
      s->force_a[j] += fa[j];
      s->torque_a[j] += tq[j] + sign * (f[3] * n[j] + f[4] * t1[j] + f[5] * t2[j]);
    }
    s->f_n += f[0];
    s->npairs++;
  }
  s->f_t = sqrt(ft[0] * ft[0] + ft[1] * ft[1] + ft[2] * ft[2]);
  s->t_roll = sqrt(tr[0] * tr[0] + tr[1] * tr[1] + tr[2] * tr[2]);
  s->t_spin = sqrt(ts[0] * ts[0] + ts[1] * ts[1] + ts[2] * ts[2]);
}


/* The energy account at the step's start (bridge_energy_check; mid: its velocities the step's
 * mean), a message when it shows energy created. */
static void energy_check(bridge *br, int mid, double t, char *msg, size_t size) {
  if (bridge_energy_check(br, mid) != 0) {
    snprintf(msg, size,
             "t = %.9g s: energy created: the bodies hold %.4g J more than they started with, "
             "the work put in and the contacts' elastic energy, and the energy budget's error "
             "is %.4g J, against the %.4g J the bodies could have had (their kinetic energy "
             "at the start, the potential energy released and the positive work put in; "
             "tolerance %g of it created, %g of it in the budget; --energy-tolerance R)",
             t, br->max_created, br->e.error, br->eref, br->energy_tol,
             BRIDGE_BALANCE_FACTOR * br->energy_tol);
  }
}


/* bridge_step but the records' body states. */
static int step(bridge *br, int advance, char *msg, size_t size) {
  long long t0 = bridge_clock(), vxc0 = br->wall_vxc, mj0 = br->wall_mujoco;
  schedule_ctrl(&br->sched, br->m, br->d->time, br->d->ctrl);
  long long t1 = bridge_clock();
  mj_step1(br->m, br->d);
  br->wall_mujoco += bridge_clock() - t1;
  bridge_implicit_prepare(br);
  record_bodies(br);
  if (!advance) {
    energy_check(br, 0, br->d->time, msg, size);
  }
  for (int i = 0; i < br->ncontact; i++) {
    int a = br->c[i].body[0], b = br->c[i].body[1];
    memset(br->d->xfrc_applied + 6 * a, 0, 6 * sizeof(mjtNum));
    memset(br->d->xfrc_applied + 6 * b, 0, 6 * sizeof(mjtNum));
  }
  double t = br->d->time;
  for (int i = 0; i < br->ncontact && !br->native; i++) {
    if (vxc_contact(br, i, advance, msg, size) != 0) {
      return -1;
    }
  }
  if (advance && !br->native && !br->explicit_coupling && !br->staggered) {
    bridge_stagger(br);
    record_bodies(br);
  }
  if (!br->native && apply_wrenches(br, msg, size) != 0) {
    return -1;
  }
  for (int i = 0; i < br->ncontact && !br->native; i++) {
    record_contact(&br->c[i]);
    summarize(&br->c[i], t);
  }
  if (advance) {
    t1 = bridge_clock();
    mj_step2(br->m, br->d);
    br->wall_mujoco += bridge_clock() - t1;
    bridge_implicit_end(br);
    br->half = br->staggered;
    energy_check(br, br->staggered, t, msg, size);
    bridge_implicit_correct(br);
    bridge_energy_step(br);
    if (!br->native && bridge_implicit_advance(br, msg, size) != 0) {
      return -1;
    }
    br->steps++;
    br->wall_step += bridge_clock() - t0;
    if (mujoco_trouble(br, msg, size) != 0) {
      return -1;
    }
  } else {
    br->wall_vxc = vxc0; /* the timings are of the steps taken */
    br->wall_mujoco = mj0;
  }
  if (!advance && br->native) {
    mj_forward(br->m, br->d); /* the constraint forces of this state, nothing integrated */
  }
  for (int i = 0; i < br->ncontact && br->native; i++) {
    native_contact(br, &br->c[i]); /* the constraint forces of this step's start */
    summarize(&br->c[i], t);
  }
  return br->energy_failed ? -2 : 0;
}


int bridge_step(bridge *br, int advance, int record, char *msg, size_t size) {
  br->half = 0;
  int st = step(br, advance, msg, size);
  if (record || st != 0) {
    body_states(br);
  }
  return st;
}


void bridge_free(bridge *br) {
  double *arr[] = {br->J,   br->MJ,    br->minv,    br->afree, br->wout,
                   br->dtw, br->qvel0, br->scratch, br->Mh,    br->corr};
  for (size_t k = 0; k < sizeof arr / sizeof *arr; k++) {
    free(arr[k]);
  }
  free(br->chain);
  free(br->qkept);
  free(br->fkept);
  for (int i = 0; i < br->ncontact; i++) {
    vxc_pair_free(br->c[i].pair);
    vxc_solid_free(br->c[i].solid[0]);
    vxc_solid_free(br->c[i].solid[1]);
  }
  if (br->d) {
    mj_deleteData(br->d);
  }
  if (br->m) {
    mj_deleteModel(br->m);
  }
  schedule_free(&br->sched);
  mjcb_contactfilter = NULL;
  mju_user_warning = NULL;
  memset(br, 0, sizeof *br);
}
