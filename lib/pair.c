/* pair.c: the contact of two solids, step by step (vxc_pair.h): the query, the cell-pair
 * tracker, the force model on each tracked pair and the summed wrench. The task runner
 * (task_run.c) drives the same parts one by one (pair_internal.h); vxc_pair_step chains them
 * for a simulator with the states the pair owns.
 *
 * Data and invariants: pair_internal.h. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"
#include "lib/pair_internal.h"

static int finite3(const double v[3]) {
  return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}


vxc_status vxc_body_motion_from_pose(const vxc_pose *pose, const double ref[3], const double at[3],
                                     const double v_at[3], const double w[3],
                                     vxc_body_motion *out, vxc_error *err) {
  static const char fn[] = "vxc_body_motion_from_pose";
  static const double origin[3] = {0, 0, 0};
  if (!pose || !v_at || !w || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn,
                         !pose ? "pose" : !v_at ? "v_at" : !w ? "w" : "out");
  }
  ref = ref ? ref : origin;
  at = at ? at : origin;
  const double *q = pose->q;
  const char *bad = !finite3(pose->p)                     ? "pose->p"
                    : !finite3(q + 1) || !isfinite(q[0]) ? "pose->q"
                    : !finite3(ref)                       ? "ref"
                    : !finite3(at)                        ? "at"
                    : !finite3(v_at)                      ? "v_at"
                    : !finite3(w)                         ? "w"
                                                          : NULL;
  if (bad) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: %s is not finite", fn, bad);
  }
  double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(l > 0)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: pose->q is zero", fn);
  }
  double qn[4] = {q[0] / l, q[1] / l, q[2] / l, q[3] / l}, R[9], d[3], rd[3], wx[3], rr[3];
  vxg_quat_to_mat(qn, R);
  for (int i = 0; i < 3; i++) {
    d[i] = ref[i] - at[i];
  }
  vxg_mat3_vec(R, d, rd);
  vxg_mat3_vec(R, ref, rr);
  vxg_cross(w, rd, wx);
  for (int i = 0; i < 3; i++) {
    out->r[i] = pose->p[i] + rr[i];
    out->v[i] = v_at[i] + wx[i];
    out->w[i] = w[i];
  }
  return VXC_OK;
}

/* ---- the parts (pair_internal.h) ----------------------------------------------------- */

typedef struct prev_ctx {
  const vxc_pair *pr;
  const double *states;
} prev_ctx;

/* A tracked pair's previous normal, from its state (vxc_prev_normal_fn). */
static int prev_normal(void *ud, int ca, int cb, double n[3]) {
  const prev_ctx *p = ud;
  for (int s = 0; s < p->pr->slots; s++) {
    if (p->pr->slot_pair[s].a == ca && p->pr->slot_pair[s].b == cb) {
      const double *st = p->states + s * VXC_STATE_SIZE;
      if (st[VXC_STATE_ACTIVE] > 0.5) {
        memcpy(n, st + VXC_STATE_NPREV, 3 * sizeof *n);
        return 1;
      }
    }
  }
  return 0;
}


/* Appends the last query's contacts: each pair's patches when the options split them, else
 * the pair. Returns 0 or -1 (memory). */
static int list_contacts(vxc_pair *pr) {
  pr->ncontact = 0;
  for (int pi = 0; pi < pr->m.npair; pi++) {
    const vxc_pair_metrics *pm = &pr->m.pair[pi];
    int n = pr->opt.patches && pm->npatch > 0 ? pm->npatch : 1;
    size_t need = (size_t)pr->ncontact + (size_t)n;
    if (vxg_grow(&pr->al, (void **)&pr->contact, &pr->cap[0], need, sizeof *pr->contact) != 0 ||
        vxg_grow(&pr->al, (void **)&pr->keys, &pr->cap[1], need, sizeof *pr->keys) != 0 ||
        vxg_grow(&pr->al, (void **)&pr->match, &pr->cap[2], need, sizeof *pr->match) != 0 ||
        vxg_grow(&pr->al, (void **)&pr->fric, &pr->cap[3], need, sizeof *pr->fric) != 0) {
      return -1;
    }
    for (int k = 0; k < n; k++) {
      vxci_pair_contact *c = &pr->contact[pr->ncontact];
      c->pair = pi;
      c->patch = pr->opt.patches && pm->npatch > 0 ? k : -1;
      c->geom = pm->geom;
      c->area = pm->area;
      if (c->patch >= 0) {
        const vxc_patch *pa = &pm->patch[k];
        c->geom.volume = pa->volume;
        memcpy(c->geom.centroid, pa->centroid, sizeof c->geom.centroid);
        memcpy(c->geom.inertia, pa->inertia, sizeof c->geom.inertia);
        memcpy(c->geom.normal, pa->normal, sizeof c->geom.normal);
        c->area = pa->area;
      }
      vxc_contact_key *key = &pr->keys[pr->ncontact];
      key->a = pm->cell_a;
      key->b = pm->cell_b;
      memcpy(key->centroid, c->geom.centroid, sizeof key->centroid);
      pr->ncontact++;
    }
  }
  return 0;
}


/* A tracked pair's leaf hint (vxci_leaf_hint_fn). */
static vxci_leaf_hint *leaf_hint(void *ud, int ca, int cb) {
  vxc_pair *pr = ud;
  for (int s = 0; s < pr->slots; s++) {
    if (pr->slot_pair[s].a == ca && pr->slot_pair[s].b == cb) {
      return &pr->leaf[s];
    }
  }
  return NULL;
}


vxc_status vxci_pair_query(vxc_pair *pr, const vxc_pose *pa, const vxc_pose *pb, const double *states,
                       vxc_error *err) {
  prev_ctx pc = {pr, states};
  vxc_status st = vxci_query_run(pr->query, pr->a, pa, pr->b, pb, &pr->opt, prev_normal, &pc,
                                 leaf_hint, pr, &pr->m, err);
  if (st == VXC_NO_CONTACT) {
    pr->m.npair = 0;
    st = VXC_OK;
  }
  if (st != VXC_OK) {
    return st;
  }
  if (list_contacts(pr) != 0) {
    pr->m.npair = pr->ncontact = 0;
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }
  st = vxc_tracker_match(pr->tracker, pr->keys, pr->ncontact, pr->match, NULL);
  for (int ci = 0; ci < pr->ncontact; ci++) {
    pr->contact[ci].slot = st == VXC_OK ? pr->match[ci] : -1;
  }
  return VXC_OK;
}


/* A force-model error of cell pair pm: its message prefixed with the cells' names. */
static vxc_status pair_fail(const vxc_pair_metrics *pm, const vxc_error *e, vxc_error *err) {
  return vxg_error_set(err, e->status, NULL, 0, 0, "cells '%s' and '%s': %s", pm->name_a,
                       pm->name_b, e->message);
}


vxc_status vxci_pair_forces(vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                        const double *states, double *dstates, vxc_pair_wrench *sum,
                        vxc_error *err) {
  memset(sum, 0, sizeof *sum);
  pr->deep = 0;
  double fn[3] = {0}, ft[3] = {0}, tr[3] = {0}, ts[3] = {0}, vmax = -1;
  for (int ci = 0; ci < pr->ncontact; ci++) {
    const vxc_contact_geometry *g = &pr->contact[ci].geom;
    int slot = pr->contact[ci].slot;
    if (slot < 0) {
      pr->deep = fmax(pr->deep, pr->params.k_v * g->volume);
      continue;
    }
    const double *sy = states + slot * VXC_STATE_SIZE;
    vxc_wrench *w = &pr->w[slot];
    vxc_error e;
    vxc_status st = vxc_contact_eval(&pr->params, g, ma, mb, sy, w,
                                     dstates ? dstates + slot * VXC_STATE_SIZE : NULL, &e);
    if (st != VXC_OK) {
      return pair_fail(&pr->m.pair[pr->contact[ci].pair], &e, err);
    }
    sum->npairs++;
    sum->volume += g->volume;
    sum->f_n_max = fmax(sum->f_n_max, sqrt(vxg_dot(w->force_normal, w->force_normal)));
    for (int j = 0; j < 3; j++) {
      sum->force_a[j] += w->force_a[j];
      sum->torque_a[j] += w->torque_a[j];
      sum->force_b[j] += w->force_b[j];
      sum->torque_b[j] += w->torque_b[j];
      fn[j] += w->force_normal[j];
      ft[j] += w->force_friction[j];
      tr[j] += w->torque_rolling[j];
      ts[j] += w->torque_spinning[j];
    }
    if (g->volume > vmax) {
      vmax = g->volume;
      memcpy(sum->normal, g->normal, sizeof sum->normal);
      sum->stick = w->stick;
      sum->sdw = sy[VXC_STATE_SDW];
    }
  }
  sum->f_n = sqrt(vxg_dot(fn, fn));
  sum->f_t = sqrt(vxg_dot(ft, ft));
  sum->t_roll = sqrt(vxg_dot(tr, tr));
  sum->t_spin = sqrt(vxg_dot(ts, ts));
  return VXC_OK;
}


/* The leaf edge slot sl's next queries start from, after its query pm (rtol rule only): the
 * edge it ended on, times r = VXCI_HINT_RATIO while its estimate is below tol / r^4 (an edge
 * r times longer multiplies the estimate by about r^3 to r^4) unless the coarser edge was
 * found too coarse in the last HINT_MEMORY steps (forgotten sooner once the estimate falls
 * below a 256th of the tolerance or the tolerance has changed twofold since: the contact
 * has changed). A contact whose volume swings about the coarser edge's limit then retries it
 * every few steps instead of staying on the finer, costlier edge. Kept from step to step,
 * the edge keeps the refinement pattern and the force smooth in time. */
#define HINT_MEMORY 2
static void update_leaf(vxc_pair *pr, int sl, const vxc_pair_metrics *pm) {
  const vxc_query_options *o = &pr->opt;
  vxci_leaf_hint *lh = &pr->leaf[sl];
  double h = pm->leaf_min;
  if (!(o->rtol > 0) || o->certified || o->region || !(h > 0) || pm->capped ||
      !(pm->error_estimate > 0)) { /* an exact result (planar faces) is smooth anyway */
    memset(lh, 0, sizeof *lh);
    return;
  }
  double tol = fmax(o->rtol * pm->geom.volume, o->atol);
  if (lh->too_coarse > 0 && (pm->error_estimate < tol / 256 || tol > 2 * lh->tol ||
                             tol < 0.5 * lh->tol || ++lh->age > HINT_MEMORY)) {
    lh->too_coarse = 0;
  }
  const double r = VXCI_HINT_RATIO, r4 = r * r * r * r;
  /* (the 1.001: the rounding of an edge divided and multiplied by r) */
  if (pm->error_estimate < tol / r4 && !(lh->too_coarse > 0 && 1.001 * r * h >= lh->too_coarse)) {
    h *= r;
  }
  lh->h = h;
}


vxc_status vxci_pair_track(vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                       double *states, int *started, int *lost, vxc_error *err) {
  int nc = pr->ncontact;
  *started = *lost = 0;
  if (nc > pr->slots) {
    return VXC_ERR_LIMIT;
  }
  vxc_tracker_step ts;
  vxc_error te;
  vxc_status st = vxc_tracker_update_keys(pr->tracker, pr->keys, nc, &ts, &te);
  if (st != VXC_OK) {
    return vxg_error_set(err, st, NULL, 0, 0, "the cell-pair tracker failed: %s", te.message);
  }
  for (int k = 0; k < ts.nlost; k++) {
    int sl = ts.lost_slots[k];
    vxc_contact_reset(states + sl * VXC_STATE_SIZE);
    pr->slot_pair[sl].a = pr->slot_pair[sl].b = -1;
    memset(&pr->leaf[sl], 0, sizeof pr->leaf[sl]);
    (*lost)++;
  }
  for (int ci = 0; ci < nc; ci++) {
    int sl = ts.current_slots[ci];
    double *sy = states + sl * VXC_STATE_SIZE;
    const vxc_contact_geometry *g = &pr->contact[ci].geom;
    pr->contact[ci].slot = sl;
    if (pr->slot_pair[sl].a < 0) {
      pr->slot_pair[sl].a = pr->keys[ci].a;
      pr->slot_pair[sl].b = pr->keys[ci].b;
      vxc_error e;
      st = vxc_contact_start(&pr->params, g, ma, mb, sy, &e);
      if (st != VXC_OK) {
        return pair_fail(&pr->m.pair[pr->contact[ci].pair], &e, err);
      }
      (*started)++;
    } else {
      vxc_contact_project(sy, g->normal);
    }
    update_leaf(pr, sl, &pr->m.pair[pr->contact[ci].pair]);
  }
  return VXC_OK;
}

/* ---- the public pair ----------------------------------------------------------------- */

static void *pair_alloc(const vxc_pair *pr, size_t n) {
  return vxg_realloc(&pr->al, NULL, n);
}


void vxc_pair_free(vxc_pair *pr) {
  if (!pr) {
    return;
  }
  vxc_query_free(pr->query);
  vxc_tracker_free(pr->tracker);
  void *v[] = {pr->slot_pair, pr->contact, pr->keys,   pr->match, pr->fric,
               pr->w,         pr->state,   pr->dstate, pr->leaf};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
    vxg_free(&pr->al, v[i]);
  }
  vxc_allocator al = pr->al;
  vxg_free(&al, pr);
}


vxc_status vxc_pair_create(const vxc_solid *a, const vxc_solid *b, const vxc_params *p,
                           const vxc_query_options *opt, int slots, const vxc_allocator *al,
                           vxc_pair **out, vxc_error *err) {
  if (!a || !b || !p || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_pair_create: a NULL %s",
                         !a || !b ? "solid"
                         : !p     ? "parameter set"
                                  : "out");
  }
  if (slots < 1 || slots > (1 << 24)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_pair_create: slots %d is not in [1, 2^24]", slots);
  }
  vxc_params params = *p;
  vxc_status st = params.prepared ? VXC_OK : vxc_params_prepare(&params, err);
  if (st != VXC_OK) {
    return st;
  }
  vxc_allocator a0 = {NULL, NULL};
  const vxc_allocator *use = al && al->realloc ? al : &a0;
  vxc_pair *pr = vxg_realloc(use->realloc ? use : NULL, NULL, sizeof *pr);
  if (!pr) {
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }
  memset(pr, 0, sizeof *pr);
  pr->al = *use;
  pr->a = a;
  pr->b = b;
  pr->params = params;
  if (opt) {
    pr->opt = *opt;
  } else {
    vxc_query_options_default(&pr->opt);
  }
  pr->slots = slots;
  size_t n = (size_t)slots, ns = n * VXC_STATE_SIZE * sizeof(double);
  pr->slot_pair = pair_alloc(pr, n * sizeof *pr->slot_pair);
  pr->w = pair_alloc(pr, n * sizeof *pr->w);
  pr->state = pair_alloc(pr, ns);
  pr->dstate = pair_alloc(pr, ns);
  pr->leaf = pair_alloc(pr, n * sizeof *pr->leaf);
  st = pr->slot_pair && pr->w && pr->state && pr->dstate && pr->leaf ? VXC_OK : VXC_ERR_NOMEM;
  if (st == VXC_OK) {
    st = vxc_query_create(&pr->al, &pr->query, err);
  }
  if (st == VXC_OK) {
    st = vxc_tracker_create(slots, &pr->al, &pr->tracker, err);
  }
  if (st != VXC_OK) {
    vxc_pair_free(pr);
    return vxg_error_set(err, st, NULL, 0, 0, "vxc_pair_create: %s", vxc_status_str(st));
  }
  for (int k = 0; k < slots; k++) {
    pr->slot_pair[k].a = pr->slot_pair[k].b = -1;
  }
  memset(pr->state, 0, ns);
  memset(pr->leaf, 0, n * sizeof *pr->leaf);
  *out = pr;
  return VXC_OK;
}


static int motion_ok(const vxc_body_motion *m) {
  return finite3(m->r) && finite3(m->v) && finite3(m->w);
}


vxc_status vxc_pair_step(vxc_pair *pr, const vxc_pose *pose_a, const vxc_body_motion *motion_a,
                         const vxc_pose *pose_b, const vxc_body_motion *motion_b, double dt,
                         vxc_pair_wrench *out, vxc_error *err) {
  if (!pr || !pose_a || !motion_a || !pose_b || !motion_b || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_pair_step: a NULL argument");
  }
  if (!(dt >= 0) || !isfinite(dt)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_pair_step: dt = %g s is negative or not finite", dt);
  }
  if (!motion_ok(motion_a) || !motion_ok(motion_b)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0,
                         "vxc_pair_step: the motion of body %s is not finite",
                         motion_ok(motion_a) ? "B" : "A");
  }
  vxc_status st = vxci_pair_query(pr, pose_a, pose_b, pr->state, err);
  if (st != VXC_OK) {
    return st;
  }
  int started, lost;
  vxc_error e;
  st = vxci_pair_track(pr, motion_a, motion_b, pr->state, &started, &lost, &e);
  if (st == VXC_ERR_LIMIT) {
    return vxg_error_set(err, st, NULL, 0, 0,
                         "vxc_pair_step: %d contacts (cell pairs or patches), %d slots (create "
                         "the pair with more)",
                         pr->ncontact, pr->slots);
  }
  vxc_pair_wrench sum;
  if (st == VXC_OK) {
    st = vxci_pair_forces(pr, motion_a, motion_b, pr->state, pr->dstate, &sum, &e);
  }
  if (st != VXC_OK) {
    return vxg_error_set(err, st, NULL, 0, 0, "vxc_pair_step: %s", e.message);
  }
  pr->ma = *motion_a;
  pr->mb = *motion_b;
  pr->stepped = 1;
  pr->last_started = started;
  pr->in_impact = pr->in_impact && sum.npairs > 0;
  if (dt > 0 && vxci_pair_advance(pr, motion_a, motion_b, dt, err) != VXC_OK) {
    return VXC_ERR_NUMERIC;
  }
  sum.started = started;
  sum.lost = lost;
  sum.capped = pr->m.npair > 0 && pr->m.capped;
  *out = sum;
  return VXC_OK;
}


const vxc_metrics *vxc_pair_last_metrics(const vxc_pair *pr) {
  return pr ? &pr->m : NULL;
}


const double *vxc_pair_state(const vxc_pair *pr, int slot) {
  if (!pr || slot < 0 || slot >= pr->slots) {
    return NULL;
  }
  return pr->state + slot * VXC_STATE_SIZE;
}


int vxc_pair_contact_count(const vxc_pair *pr) {
  return pr ? pr->ncontact : 0;
}


vxc_status vxc_pair_contact_get(const vxc_pair *pr, int i, vxc_pair_contact *out,
                                vxc_error *err) {
  if (!pr || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_pair_contact_get: %s is NULL",
                         !pr ? "pr" : "out");
  }
  if (i < 0 || i >= pr->ncontact) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_pair_contact_get: contact %d is not in 0 .. %d", i, pr->ncontact - 1);
  }
  const vxci_pair_contact *c = &pr->contact[i];
  memset(out, 0, sizeof *out);
  out->cell_a = pr->m.pair[c->pair].cell_a;
  out->cell_b = pr->m.pair[c->pair].cell_b;
  out->pair = c->pair;
  out->patch = c->patch;
  out->slot = c->slot;
  out->geom = c->geom;
  if (c->slot >= 0) {
    out->wrench = pr->w[c->slot];
  }
  return VXC_OK;
}
