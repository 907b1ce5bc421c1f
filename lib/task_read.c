/* task_read.c: the task-file (.vxt) reader and the task object's accessors.
 *
 * Data: the reader walks the S-expression tree of geom/sexp.h and fills a vxc_task
 * (task_internal.h); every error names the task file, line and column of the offending
 * node. Invariants established here are listed in task_internal.h. Every form is a row of
 * the table of task_forms.h (its place, its count of numbers), which the sweep walks too:
 * the reader dispatches on its ids. Grammar (the README's core forms, and the forms this
 * project adds, marked +):
 *
 *   (task NAME item...)
 *   item := (gravity GX GY GZ) | (duration T) | (record (every DT))
 *         | (integrator rk4 (step H))
 *         | (integrator adaptive (rtol R) (max-step H) [+(atol A)] [+(step H0)])
 *         | (body NAME (model "FILE.vxm") motion (pose X Y Z [QW QX QY QZ])
 *                [(velocity VX VY VZ WX WY WZ)])
 *         | (contact A B [(params (NAME VALUE)... [(friction-law NAME)])] [(voxel H) | (rtol R)]
 *             [(rolling rate-independent (eta_r E) (eta_s S) [(phi_0 A)])]
 *                [+(atol A)] [+(certified)] [+(slots N)] [+(event-force F)] [+(patches)]
 *                [+(closed-form on|off)])
 *   motion := (fixed)
 *           | (free [(mass M)] [(inertia IXX IYY IZZ [IXY IXZ IYZ])] [+(density RHO)]
 *                   [+(com X Y Z)])
 *           | (driven (keyframe T X Y Z [QW QX QY QZ])... | +(line VX VY VZ [WX WY WZ])
 *                     [+(gripper (stiffness K KR) (damping C CR))] [mass forms as free])
 *
 * A free body needs (mass M) or (density RHO) or a model file with a density; missing
 * inertia and centre of mass come from the model (vxc_solid_mass). (com X Y Z) sets the
 * centre of mass in the model frame (the tippe-top's is not its centroid). A driven body
 * follows its keyframes (linear in position, spherical-linear in orientation, held before
 * the first and after the last) or moves at a constant velocity from its pose; with a
 * gripper it is a free payload pulled toward that trajectory by a linear spring-damper
 * (translation K, C; rotation KR, CR). A contact needs a body that moves (free or driven):
 * between two kinematic bodies (fixed, or driven without a gripper) it is measured and
 * reported, moving neither; two fixed bodies are refused. A contact's (voxel H) alone gives the thesis's
 * fixed voxel size, (rtol R) the relative volume tolerance (default 1e-3), stopped on the
 * error estimate or, with (certified), on the certified bracket. Each connected part of a
 * cell pair's interference is a contact of its own (lib/README.md section 11), unless
 * (patches off) merges them ((patches) and (patches on), the default, are kept for older
 * files); the default (slots N) is then PATCH_SLOTS per cell pair with a cell that is not
 * convex (two convex cells meet in one part). (closed-form off) measures
 * a ball on a plane, two balls, a ball against a cylinder and a rod, a cone or a ball in a
 * bore or a countersink by the octree too (vxc_query_options.closed_form). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/input.h"
#include "geom/sexp.h"
#include "lib/internal.h"
#include "lib/task_forms.h"
#include "lib/task_internal.h"

/* Default state slots per cell pair, with a cell that is not convex, of a contact that
 * splits its patches (a peg in a hole: 4 walls). */
#define PATCH_SLOTS 8

typedef struct reader {
  vxc_task *t;
  const char *file;
  const char *base;
  vxc_error *err;
} reader;

void *vxci_task_alloc(const vxc_task *t, size_t size) {
  void *p = vxg_alloc(&t->al, size);
  if (p) {
    memset(p, 0, size);
  }
  return p;
}


void vxci_task_free_mem(const vxc_task *t, void *p) {
  if (p) {
    vxg_free(&t->al, p);
  }
}


static int fail(reader *rd, const vxg_sexp *at, const char *fmt, const char *a, const char *b) {
  char what[400];
  snprintf(what, sizeof what, fmt, a ? a : "", b ? b : "");
  vxg_error_set(rd->err, VXC_ERR_FORMAT, rd->file, at ? at->line : 0, at ? at->column : 0, "%s",
                what);
  return -1;
}


/* Checks that the position p (3 numbers, the form's numbers from index `first`) lies in the
 * workspace, |x|, |y|, |z| <= VXG_MAX_LENGTH m, where queries can place a body. Returns 0,
 * or -1 with the error at the first coordinate beyond it. */
static int in_reach(reader *rd, const vxg_sexp *f, int first, const double *p) {
  const vxg_sexp *at = f->child->next;
  for (int i = 0; i < first && at; i++) {
    at = at->next;
  }
  for (int i = 0; i < 3; i++, at = at ? at->next : NULL) {
    if (fabs(p[i]) > VXG_MAX_LENGTH) {
      char what[160];
      snprintf(what, sizeof what, "%c = %g m", "xyz"[i], p[i]);
      char lim[40];
      snprintf(lim, sizeof lim, "%g", VXG_MAX_LENGTH);
      return fail(rd, at ? at : f, "a position beyond the workspace (%s; |x|, |y|, |z| <= %s m)",
                  what, lim);
    }
  }
  return 0;
}


/* Fails with "CONTEXT: unknown form 'H'" and, when one of the forms `allow` permits in
 * `place` (task_forms.h) is near H, "; did you mean 'NAME'?". Returns -1. */
static int unknown_form(reader *rd, const vxg_sexp *f, const char *context, const char *h,
                        int place, int allow) {
  const char *known[TF_COUNT];
  int n = vxci_form_names(place, allow, known, TF_COUNT);
  const char *near = vxc_nearest_name(h, known, n);
  char msg[320];
  snprintf(msg, sizeof msg, "%.100s: unknown form '%.100s'%s%.40s%s", context, h,
           near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  return fail(rd, f, "%s", msg, NULL);
}


static const char *head(const vxg_sexp *n) {
  if (n && n->kind == VXG_SEXP_LIST && n->child && n->child->kind == VXG_SEXP_WORD) {
    return n->child->text;
  }
  return NULL;
}


/* Reads between lo and hi numbers after the head of list n into out; returns the count
 * or -1. */
static int numbers(reader *rd, const vxg_sexp *n, int lo, int hi, double *out) {
  int k = 0;
  for (const vxg_sexp *c = n->child->next; c; c = c->next) {
    if (c->kind != VXG_SEXP_NUMBER) {
      return fail(rd, c, "(%s ...): expected a number", head(n), NULL);
    }
    if (k == hi) {
      return fail(rd, c, "(%s ...): too many numbers", head(n), NULL);
    }
    out[k++] = c->num;
  }
  if (k < lo) {
    char want[32];
    snprintf(want, sizeof want, "%d", lo);
    return fail(rd, n, "(%s ...): expected at least %s numbers", head(n), want);
  }
  return k;
}


/* The numbers of form f, a vxci_task_forms[id] (its min to max), into out; the count or -1. */
static int form_numbers(reader *rd, const vxg_sexp *f, int id, double *out) {
  return numbers(rd, f, vxci_task_forms[id].min, vxci_task_forms[id].max, out);
}


static int one_number(reader *rd, const vxg_sexp *n, double *out, int positive) {
  if (numbers(rd, n, 1, 1, out) < 0) {
    return -1;
  }
  if (positive && !(*out > 0)) {
    return fail(rd, n->child->next, "(%s ...): must be > 0", head(n), NULL);
  }
  return 0;
}


/* (rolling rate-independent (eta_r E) (eta_s S) [(phi_0 A)]): the rate-independent
 * rolling and spinning friction of vxc_params_set (eta in m, phi_0 in rad). */
static int rolling_form(reader *rd, const vxg_sexp *f, vxc_params *p) {
  const vxg_sexp *k = f->child->next;
  if (!k || k->kind != VXG_SEXP_WORD || strcmp(k->text, "rate-independent") != 0) {
    return fail(rd, k ? k : f,
                "(rolling ...): expected (rolling rate-independent (eta_r E) "
                "(eta_s S))",
                NULL, NULL);
  }
  p->rolling = 1;
  for (const vxg_sexp *e = k->next; e; e = e->next) {
    const char *nm = head(e);
    double v;
    if (vxci_form_find(TP_ROLLING, nm, 0) < 0) {
      return fail(rd, e,
                  "(rolling rate-independent ...): expected (eta_r E), (eta_s S) or "
                  "(phi_0 A)",
                  NULL, NULL);
    }
    if (numbers(rd, e, 1, 1, &v) < 0) {
      return -1;
    }
    vxc_error e2;
    if (vxc_params_set(p, nm, v, &e2) != VXC_OK) {
      return fail(rd, e, "%.300s", e2.message, NULL);
    }
  }
  return 0;
}


static int name_of(reader *rd, const vxg_sexp *n, const char *form, const char **out) {
  if (!n || (n->kind != VXG_SEXP_WORD && n->kind != VXG_SEXP_STRING)) {
    return fail(rd, n, "(%s ...): expected a name", form, NULL);
  }
  *out = n->text;
  return 0;
}


static int quat_norm(reader *rd, const vxg_sexp *at, double q[4]) {
  double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(s > 0) || !isfinite(s)) {
    return fail(rd, at, "a quaternion must not be zero", NULL, NULL);
  }
  for (int i = 0; i < 4; i++) {
    q[i] /= s;
  }
  return 0;
}


/* Whether I (kg m^2, symmetric) is the inertia of a body: its principal moments positive,
 * each at most the sum of the other two (the second moments tr(I)/2 - I of a real mass
 * distribution are never negative). 0 with the moments in m when not. */
static int inertia_valid(const double I[9], double m[3]) {
  double evec[9];
  if (vxc_sym3_eigen(I, m, evec, NULL) != VXC_OK) {
    return 0;
  }
  double tol = 1e-12 * (fabs(m[0]) + fabs(m[1]) + fabs(m[2]));
  return m[0] > 0 && m[2] <= m[0] + m[1] + tol;
}


/* 1 when a form before f in its list (from `first` on) has f's head: a form given twice. */
static int repeated(const vxg_sexp *first, const vxg_sexp *f) {
  const char *h = head(f);
  for (const vxg_sexp *g = first; g && g != f; g = g->next) {
    const char *gh = head(g);
    if (gh && h && strcmp(gh, h) == 0) {
      return 1;
    }
  }
  return 0;
}


/* (inertia IXX IYY IZZ [IXY IXZ IYZ]) of body b. */
static int inertia_form(reader *rd, task_body *b, const vxg_sexp *f) {
  double v[6];
  int k = form_numbers(rd, f, TF_INERTIA, v);
  if (k < 0) {
    return -1;
  }
  if (k != 3 && k != 6) {
    return fail(rd, f, "(inertia IXX IYY IZZ [IXY IXZ IYZ]): expected 3 or 6 numbers", NULL,
                NULL);
  }
  double *I = b->inertia;
  I[0] = v[0];
  I[4] = v[1];
  I[8] = v[2];
  if (k == 6) {
    I[1] = I[3] = v[3];
    I[2] = I[6] = v[4];
    I[5] = I[7] = v[5];
  }
  if (!(v[0] > 0 && v[1] > 0 && v[2] > 0)) {
    return fail(rd, f, "(inertia ...): the diagonal must be > 0", NULL, NULL);
  }
  double pm[3] = {0, 0, 0};
  if (!inertia_valid(I, pm)) {
    char msg[128];
    snprintf(msg, sizeof msg, "%.6g %.6g %.6g", pm[0], pm[1], pm[2]);
    return fail(rd, f,
                "(inertia ...): no body has this inertia: its principal moments %s must be > 0 "
                "and each at most the sum of the other two",
                msg, NULL);
  }
  b->have_inertia = 1;
  return 0;
}


/* (keyframe T X Y Z [QW QX QY QZ]) of a driven body, after its b->nkey others. */
static int keyframe_form(reader *rd, task_body *b, const vxg_sexp *f) {
  double v[8];
  int k = form_numbers(rd, f, TF_KEYFRAME, v);
  if (k < 0) {
    return -1;
  }
  if (k != 4 && k != 8) {
    return fail(rd, f, "(keyframe T X Y Z [QW QX QY QZ]): expected 4 or 8 numbers", NULL, NULL);
  }
  if (in_reach(rd, f, 1, v + 1) < 0) {
    return -1;
  }
  task_keyframe *kf = &b->key[b->nkey];
  kf->t = v[0];
  memcpy(kf->p, v + 1, sizeof kf->p);
  double q[4] = {1, 0, 0, 0};
  if (k == 8) {
    memcpy(q, v + 4, sizeof q);
    if (quat_norm(rd, f, q) < 0) {
      return -1;
    }
  }
  memcpy(kf->q, q, sizeof q);
  if (b->nkey > 0 && !(kf->t > b->key[b->nkey - 1].t)) {
    return fail(rd, f, "keyframe times must increase", NULL, NULL);
  }
  b->nkey++;
  return 0;
}


/* (gripper (stiffness K KR) (damping C CR)) of a driven body. */
static int gripper_form(reader *rd, task_body *b, const vxg_sexp *f) {
  int have_k = 0, have_c = 0;
  for (const vxg_sexp *g = f->child->next; g; g = g->next) {
    double v[2];
    int id = vxci_form_find(TP_GRIPPER, head(g), 0);
    if (id < 0) {
      return fail(rd, g, "(gripper ...): expected (stiffness K KR) or (damping C CR)", NULL, NULL);
    }
    if (form_numbers(rd, g, id, v) < 0) {
      return -1;
    }
    if (id == TF_STIFFNESS) {
      b->grip_k = v[0];
      b->grip_kr = v[1];
      have_k = 1;
    } else {
      b->grip_c = v[0];
      b->grip_cr = v[1];
      have_c = 1;
    }
    if (!(v[0] >= 0 && v[1] >= 0)) {
      return fail(rd, g, "(gripper ...): values must be >= 0", NULL, NULL);
    }
  }
  if (!have_k || !have_c || !(b->grip_k > 0 && b->grip_kr > 0)) {
    return fail(rd, f, "(gripper ...) needs (stiffness K KR) > 0 and (damping C CR)", NULL, NULL);
  }
  b->gripper = 1;
  b->dynamic = 1;
  return 0;
}


/* A form of a (free ...) or (driven ...) motion, form id of the table. */
static int motion_form(reader *rd, task_body *b, const vxg_sexp *f, int id) {
  switch (id) {
  case TF_MASS:
    b->have_mass = 1;
    return one_number(rd, f, &b->mass, 1);
  case TF_DENSITY:
    return one_number(rd, f, &b->density, 1);
  case TF_COM:
    b->have_com = 1;
    return form_numbers(rd, f, TF_COM, b->com) < 0 ? -1 : 0;
  case TF_INERTIA:
    return inertia_form(rd, b, f);
  case TF_KEYFRAME:
    return keyframe_form(rd, b, f);
  case TF_LINE: {
    int k = form_numbers(rd, f, TF_LINE, b->line_v);
    if (k < 0) {
      return -1;
    }
    if (k != 3 && k != 6) {
      return fail(rd, f, "(line VX VY VZ [WX WY WZ]): expected 3 or 6 numbers", NULL, NULL);
    }
    b->have_line = 1;
    return 0;
  }
  default:
    return gripper_form(rd, b, f);
  }
}


static int parse_motion(reader *rd, task_body *b, const vxg_sexp *m, int id) {
  const char *h = head(m);
  if (id == TF_FIXED) {
    b->kind = TASK_FIXED;
    if (m->nchild != 1) {
      return fail(rd, m->child->next, "(fixed) takes nothing", NULL, NULL);
    }
    return 0;
  }
  int driven = id == TF_DRIVEN;
  int allow = driven ? TFL_DRIVEN : 0;
  b->kind = driven ? TASK_DRIVEN : TASK_FREE;
  b->dynamic = !driven;
  int nkey = 0;
  for (const vxg_sexp *f = m->child->next; f; f = f->next) {
    nkey += vxci_form_find(TP_MOTION, head(f), allow) == TF_KEYFRAME;
  }
  if (nkey) {
    b->key = vxci_task_alloc(rd->t, sizeof *b->key * nkey);
    if (!b->key) {
      return vxg_error_set(rd->err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory"), -1;
    }
  }
  for (const vxg_sexp *f = m->child->next; f; f = f->next) {
    const char *fh = head(f);
    if (!fh) {
      return fail(rd, f, "(%s ...): expected a form like (mass M)", h, NULL);
    }
    int fid = vxci_form_find(TP_MOTION, fh, allow);
    if (fid < 0) {
      char ctx[40];
      snprintf(ctx, sizeof ctx, "(%s ...)", h);
      return unknown_form(rd, f, ctx, fh, TP_MOTION, allow);
    }
    if (motion_form(rd, b, f, fid) < 0) {
      return -1;
    }
  }
  if (driven && !b->nkey && !b->have_line) {
    return fail(rd, m, "(driven ...) needs keyframes or a (line ...)", NULL, NULL);
  }
  if (driven && b->nkey && b->have_line) {
    return fail(rd, m, "(driven ...): keyframes and (line ...) exclude each other", NULL, NULL);
  }
  return 0;
}


static char *join_path(reader *rd, const char *rel) {
  size_t nb = (rd->base && rel[0] != '/') ? strlen(rd->base) : 0;
  char *s = vxci_task_alloc(rd->t, nb + strlen(rel) + 2);
  if (!s) {
    return NULL;
  }
  if (nb) {
    sprintf(s, "%s/%s", rd->base, rel);
  } else {
    strcpy(s, rel);
  }
  return s;
}


/* Mass properties from the model where the body did not give them. */
static int complete_mass(reader *rd, task_body *b, const vxg_sexp *at) {
  if (!b->dynamic) {
    return 0;
  }
  if (b->have_mass && b->have_inertia && b->have_com) {
    return 0;
  }
  vxc_query *q = NULL;
  vxc_mass_props mp;
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = 1e-2;
  vxc_status st = vxc_query_create(&rd->t->al, &q, rd->err);
  if (st != VXC_OK) {
    return -1;
  }
  st = vxc_solid_mass(q, b->solid, -1, b->density, &o, &mp, rd->err);
  vxc_query_free(q);
  if (st != VXC_OK) {
    return -1;
  }
  if (mp.capped) { /* a work cap or a failed allocation: not the 1% asked for */
    vxg_error_set(rd->err, VXC_ERR_LIMIT, rd->file, at->line, at->column,
                  "body '%s': its mass properties missed their 1%% tolerance (a work or memory "
                  "cap): give (mass M) (inertia ...) (com ...)",
                  b->name);
    return -1;
  }
  if (!b->have_mass) {
    if (!(mp.mass > 0)) {
      return fail(rd, at, "body '%s': give (mass M) or (density RHO): the model has no density",
                  b->name, NULL);
    }
    b->mass = mp.mass;
  }
  if (!b->have_com) {
    memcpy(b->com, mp.centroid, sizeof b->com);
  }
  if (!b->have_inertia) {
    /* the model's inertia about its centroid scaled to the mass, then moved to the com */
    double s = b->mass / mp.volume;
    double d[3] = {b->com[0] - mp.centroid[0], b->com[1] - mp.centroid[1],
                   b->com[2] - mp.centroid[2]};
    double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        b->inertia[3 * i + j] = s * mp.inertia[3 * i + j] + b->mass * ((i == j) * dd - d[i] * d[j]);
      }
    }
  }
  return 0;
}


static int parse_body(reader *rd, task_body *b, const vxg_sexp *n) {
  const char *name = NULL;
  if (name_of(rd, n->child->next, "body", &name) < 0) {
    return -1;
  }
  b->line = n->line;
  b->column = n->column;
  b->name = vxg_strdup(&rd->t->al, name);
  b->pose0 = vxc_pose_identity();
  b->kind = -1;
  const vxg_sexp *model_at = NULL, *motion_at = NULL;
  int have_pose = 0;
  for (const vxg_sexp *f = n->child->next->next; f; f = f->next) {
    const char *h = head(f);
    if (!h) {
      return fail(rd, f, "(body %s ...): expected a form like (model \"FILE\")", name, NULL);
    }
    if (repeated(n->child->next->next, f)) {
      return fail(rd, f, "(body %s ...): a second (%s ...)", name, h);
    }
    int id = vxci_form_find(TP_BODY, h, 0);
    if (id == TF_MODEL) {
      const vxg_sexp *p = f->child->next;
      if (!p || (p->kind != VXG_SEXP_STRING && p->kind != VXG_SEXP_WORD) || p->next) {
        return fail(rd, f, "(model \"FILE.vxm\"): expected one file name", NULL, NULL);
      }
      b->model = join_path(rd, p->text);
      model_at = f;
    } else if (id >= 0 && (vxci_task_forms[id].flags & TFL_MOTION)) {
      if (motion_at) {
        return fail(rd, f, "(body %s ...): a second motion form", name, NULL);
      }
      motion_at = f;
      if (parse_motion(rd, b, f, id) < 0) {
        return -1;
      }
    } else if (id == TF_POSE) {
      double v[7];
      int k = form_numbers(rd, f, TF_POSE, v);
      if (k < 0) {
        return -1;
      }
      if (k != 3 && k != 7) {
        return fail(rd, f, "(pose X Y Z [QW QX QY QZ]): expected 3 or 7 numbers", NULL, NULL);
      }
      if (in_reach(rd, f, 0, v) < 0) {
        return -1;
      }
      memcpy(b->pose0.p, v, sizeof b->pose0.p);
      if (k == 7) {
        memcpy(b->pose0.q, v + 3, sizeof b->pose0.q);
        if (quat_norm(rd, f, b->pose0.q) < 0) {
          return -1;
        }
      }
      have_pose = 1;
    } else if (id == TF_VELOCITY) {
      if (form_numbers(rd, f, TF_VELOCITY, b->vel0) < 0) {
        return -1;
      }
    } else {
      char ctx[VXG_NAME_MAX + 20];
      snprintf(ctx, sizeof ctx, "(body %s ...)", name);
      return unknown_form(rd, f, ctx, h, TP_BODY, 0);
    }
  }
  if (!model_at) {
    return fail(rd, n, "(body %s ...): missing (model \"FILE.vxm\")", name, NULL);
  }
  if (!motion_at) {
    return fail(rd, n, "(body %s ...): missing a motion: (fixed), (free ...) or (driven ...)", name,
                NULL);
  }
  if (!have_pose) {
    return fail(rd, n, "(body %s ...): missing (pose X Y Z [QW QX QY QZ])", name, NULL);
  }
  if (!b->model) {
    return vxg_error_set(rd->err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory"), -1;
  }
  vxc_error e2;
  vxc_status st = vxc_solid_load(b->model, &rd->t->al, &b->solid, &e2);
  if (st != VXC_OK) {
    vxg_error_set(rd->err, st, rd->file, model_at->line, model_at->column, "model: %s", e2.message);
    return -1;
  }
  return complete_mass(rd, b, motion_at);
}


static int find_body(reader *rd, const vxg_sexp *n, int *out) {
  const char *name = NULL;
  if (name_of(rd, n, "contact", &name) < 0) {
    return -1;
  }
  for (int i = 0; i < rd->t->nbody; i++) {
    if (rd->t->body[i].name && strcmp(rd->t->body[i].name, name) == 0) {
      *out = i;
      return 0;
    }
  }
  return fail(rd, n, "(contact ...): no body named '%s' before this contact", name, NULL);
}


/* (params (NAME VALUE)... [(friction-law NAME)]) of a contact into p. Returns 0 or -1. */
static int params_form(reader *rd, const vxg_sexp *f, vxc_params *p) {
  for (const vxg_sexp *q = f->child->next; q; q = q->next) {
    const char *pn = head(q);
    vxc_error e2;
    if (vxci_form_find(TP_PARAMS, pn, 0) == TF_FRICTION_LAW && q->nchild == 2 &&
        q->child->next->kind == VXG_SEXP_WORD) { /* (friction-law NAME): vxc_friction.h */
      if (vxc_params_set_law(p, q->child->next->text, &e2) != VXC_OK) {
        return fail(rd, q->child->next, "%.300s", e2.message, NULL);
      }
      continue;
    }
    if (!pn || q->nchild != 2 || q->child->next->kind != VXG_SEXP_NUMBER) {
      return fail(rd, q, "(params ...): expected (NAME VALUE) or (friction-law NAME)", NULL, NULL);
    }
    if (vxc_params_set(p, pn, q->child->next->num, &e2) != VXC_OK) {
      return fail(rd, q, "%.300s", e2.message, NULL);
    }
  }
  return 0;
}


/* State slots for every cell pair of solids a and b: one, or PATCH_SLOTS with patches
 * when a cell is not convex (room for a few patches). */
static long long pair_slots(const vxg_solid *a, const vxg_solid *b, int patches) {
  long long nc = 0;
  for (int i = 0; i < a->ncell; i++) {
    for (int j = 0; j < b->ncell; j++) {
      nc += patches && !(a->cell[i]->hull.exact && b->cell[j]->hull.exact) ? PATCH_SLOTS : 1;
    }
  }
  return nc;
}


/* What a contact gets when its file does not say: slots for every cell pair (up to 256),
 * and the event force and atol of the negligible force. */
static void contact_defaults(reader *rd, task_contact *c, int have_atol) {
  if (!c->slots) {
    long long nc = pair_slots(rd->t->body[c->a].solid->geom, rd->t->body[c->b].solid->geom,
                              c->query.patches);
    c->slots = nc > 256 ? 256 : (int)nc;
  }
  /* the contact's negligible force: 1e-4 of the larger free body's weight under 1 g (or
     1e-4 N). A new pair's contact starts once its elastic force is within it of zero, and
     by default a volume bracket worth it (k_v atol) is accurate enough */
  double m = 0;
  for (int k = 0; k < 2; k++) {
    const task_body *b = &rd->t->body[k ? c->b : c->a];
    if (b->dynamic && b->mass > m) {
      m = b->mass;
    }
  }
  double df = m > 0 ? 1e-4 * 9.81 * m : 1e-4;
  if (c->event_force < 0) {
    c->event_force = df;
  }
  if (!have_atol) {
    c->query.atol = df / c->params.k_v;
  }
}


/* (NAME on) or (NAME off) into *v (1 or 0). */
static int on_off(reader *rd, const vxg_sexp *f, int *v) {
  const vxg_sexp *a = f->child->next;
  const char *w = f->nchild == 2 && a->kind == VXG_SEXP_WORD ? a->text : "";
  if (strcmp(w, "on") != 0 && strcmp(w, "off") != 0) {
    return fail(rd, f, "(%s on) or (%s off) expected", head(f), head(f));
  }
  *v = strcmp(w, "on") == 0;
  return 0;
}


static int parse_contact(reader *rd, task_contact *c, const vxg_sexp *n) {
  vxc_params_default(&c->params);
  vxc_query_options_default(&c->query);
  c->event_force = -1;
  const vxg_sexp *an = n->child->next, *bn = an ? an->next : NULL;
  if (!an || !bn) {
    return fail(rd, n, "(contact A B ...): expected two body names", NULL, NULL);
  }
  if (find_body(rd, an, &c->a) < 0 || find_body(rd, bn, &c->b) < 0) {
    return -1;
  }
  if (c->a == c->b) {
    return fail(rd, bn, "(contact A B ...): a body cannot touch itself", NULL, NULL);
  }
  if (rd->t->body[c->a].kind == TASK_FIXED && rd->t->body[c->b].kind == TASK_FIXED) {
    return fail(rd, n, "(contact A B ...): both bodies are fixed: one must be free or driven",
                NULL, NULL);
  }
  int have_voxel = 0, have_rtol = 0, have_atol = 0;
  for (const vxg_sexp *f = bn->next; f; f = f->next) {
    const char *h = head(f);
    if (!h) {
      return fail(rd, f, "(contact ...): expected a form like (params ...)", NULL, NULL);
    }
    int id = vxci_form_find(TP_CONTACT, h, 0);
    if ((id < 0 || !(vxci_task_forms[id].flags & TFL_MANY)) && repeated(bn->next, f)) {
      return fail(rd, f, "(contact ...): a second (%s ...)", h, NULL);
    }
    if (id == TF_PARAMS) {
      if (params_form(rd, f, &c->params) < 0) {
        return -1;
      }
    } else if (id == TF_VOXEL) {
      if (one_number(rd, f, &c->query.voxel, 1) < 0) {
        return -1;
      }
      have_voxel = 1;
    } else if (id == TF_CONTACT_RTOL) {
      if (one_number(rd, f, &c->query.rtol, 1) < 0) {
        return -1;
      }
      have_rtol = 1;
    } else if (id == TF_CERTIFIED) {
      if (f->nchild != 1) {
        return fail(rd, f, "(certified) takes no value", NULL, NULL);
      }
      c->query.certified = 1;
    } else if (id == TF_CLOSED_FORM) {
      if (on_off(rd, f, &c->query.closed_form) < 0) {
        return -1;
      }
    } else if (id == TF_PATCHES) {
      c->query.patches = 1; /* (patches): the default, kept for older files */
      if (f->nchild != 1 && on_off(rd, f, &c->query.patches) < 0) {
        return -1;
      }
    } else if (id == TF_CONTACT_ATOL) {
      if (one_number(rd, f, &c->query.atol, 0) < 0) {
        return -1;
      }
      if (!(c->query.atol >= 0)) {
        return fail(rd, f->child->next, "(atol A): must be >= 0 (m^3)", NULL, NULL);
      }
      have_atol = 1;
    } else if (id == TF_SLOTS) {
      double v;
      if (one_number(rd, f, &v, 1) < 0) {
        return -1;
      }
      if (v != floor(v) || v > 4096) {
        return fail(rd, f, "(slots N): an integer in [1, 4096]", NULL, NULL);
      }
      c->slots = (int)v;
    } else if (id == TF_EVENT_FORCE) {
      if (one_number(rd, f, &c->event_force, 1) < 0) {
        return -1;
      }
    } else if (id == TF_ROLLING) {
      if (rolling_form(rd, f, &c->params) < 0) {
        return -1;
      }
    } else {
      return unknown_form(rd, f, "(contact ...)", h, TP_CONTACT, 0);
    }
  }
  if (have_voxel && !have_rtol) {
    c->query.rtol = 0;
  }
  vxc_error e2;
  if (vxc_params_prepare(&c->params, &e2) != VXC_OK) {
    return fail(rd, n, "(contact ...): %.300s", e2.message, NULL);
  }
  c->query.theta_c = c->params.theta_c;
  c->query.r_n = c->params.r_n;
  c->query.n_i = c->params.n_i;
  contact_defaults(rd, c, have_atol);
  return 0;
}


static int parse_integrator(reader *rd, const vxg_sexp *n) {
  vxc_task *t = rd->t;
  const vxg_sexp *k = n->child->next;
  if (vxg_sexp_is_word(k, "rk4")) {
    t->integrator = TASK_RK4;
  } else if (vxg_sexp_is_word(k, "adaptive")) {
    t->integrator = TASK_ADAPTIVE;
  } else {
    return fail(rd, k ? k : n, "(integrator ...): expected rk4 or adaptive", NULL, NULL);
  }
  int have_step = 0;
  int allow = t->integrator == TASK_ADAPTIVE ? TFL_ADAPTIVE : 0;
  for (const vxg_sexp *f = k->next; f; f = f->next) {
    const char *h = head(f);
    int id = vxci_form_find(TP_INTEGRATOR, h, allow);
    if (id == TF_STEP) {
      if (one_number(rd, f, &t->step, 1) < 0) {
        return -1;
      }
      have_step = 1;
    } else if (id == TF_RTOL) {
      if (one_number(rd, f, &t->rtol, 1) < 0) {
        return -1;
      }
    } else if (id == TF_ATOL) {
      if (one_number(rd, f, &t->atol, 1) < 0) {
        return -1;
      }
    } else if (id == TF_METHOD) {
      const vxg_sexp *m = f->child->next;
      if (m && !m->next && vxg_sexp_is_word(m, "dp5")) {
        t->method = TASK_DP5;
      } else if (m && !m->next && vxg_sexp_is_word(m, "bs3")) {
        t->method = TASK_BS3;
      } else if (m && !m->next && vxg_sexp_is_word(m, "rosw")) {
        t->method = TASK_ROSW;
      } else if (m && !m->next && vxg_sexp_is_word(m, "auto")) {
        t->method = TASK_AUTO;
      } else {
        return fail(rd, m ? m : f, "(method ...): expected dp5, bs3, rosw or auto", NULL, NULL);
      }
    } else if (id == TF_MAX_STEP) {
      if (one_number(rd, f, &t->max_step, 1) < 0) {
        return -1;
      }
    } else {
      char ctx[VXG_NAME_MAX + 20];
      snprintf(ctx, sizeof ctx, "(integrator %s ...)", k->text);
      return unknown_form(rd, f, ctx, h ? h : "?", TP_INTEGRATOR, allow);
    }
  }
  if (t->integrator == TASK_RK4 && !have_step) {
    return fail(rd, n, "(integrator rk4 ...) needs (step H)", NULL, NULL);
  }
  return 0;
}


static int parse_task(reader *rd, const vxg_sexp_doc *doc) {
  vxc_task *t = rd->t;
  const vxg_sexp *top = doc->root->child;
  if (!top || vxci_form_find(TP_ROOT, head(top), 0) != TF_TASK || top->next) {
    return fail(rd, top ? (top->next ? top->next : top) : doc->root,
                "expected one (task NAME ...) form", NULL, NULL);
  }
  const char *name = NULL;
  if (name_of(rd, top->child->next, "task", &name) < 0) {
    return -1;
  }
  t->name = vxg_strdup(&t->al, name);
  t->integrator = TASK_ADAPTIVE;
  t->method = TASK_DP5;
  t->rtol = 1e-6;
  t->atol = 1e-9;
  t->max_step = 1e-3;
  t->step = 0;
  t->energy_tol = vxci_task_forms[TF_ENERGY_TOLERANCE].dflt[0];
  t->max_steps = VXC_TASK_MAX_STEPS;
  t->max_records = VXC_TASK_MAX_RECORDS;
  int nb = 0, nc = 0;
  for (const vxg_sexp *f = top->child->next->next; f; f = f->next) {
    nb += vxci_form_find(TP_TASK, head(f), 0) == TF_BODY;
    nc += vxci_form_find(TP_TASK, head(f), 0) == TF_CONTACT;
  }
  t->body = vxci_task_alloc(t, sizeof *t->body * (nb + 1));
  t->contact = vxci_task_alloc(t, sizeof *t->contact * (nc + 1));
  if (!t->body || !t->contact || !t->name) {
    return vxg_error_set(rd->err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory"), -1;
  }
  int have_duration = 0;
  for (const vxg_sexp *f = top->child->next->next; f; f = f->next) {
    const char *h = head(f);
    if (!h) {
      return fail(rd, f, "(task ...): expected a form like (duration T)", NULL, NULL);
    }
    int id = vxci_form_find(TP_TASK, h, 0);
    if ((id < 0 || !(vxci_task_forms[id].flags & TFL_MANY)) && repeated(top->child->next->next, f)) {
      return fail(rd, f, "(task ...): a second (%s ...)", h, NULL);
    }
    if (id == TF_GRAVITY) {
      if (form_numbers(rd, f, TF_GRAVITY, t->gravity) < 0) {
        return -1;
      }
    } else if (id == TF_DURATION) {
      if (one_number(rd, f, &t->duration, 1) < 0) {
        return -1;
      }
      have_duration = 1;
    } else if (id == TF_RECORD) {
      const vxg_sexp *e = f->child->next;
      if (!e || vxci_form_find(TP_RECORD, head(e), 0) != TF_EVERY || e->next) {
        return fail(rd, e ? e : f, "(record ...): expected (every DT)", NULL, NULL);
      }
      if (one_number(rd, e, &t->every, 1) < 0) {
        return -1;
      }
    } else if (id == TF_INTEGRATOR) {
      if (parse_integrator(rd, f) < 0) {
        return -1;
      }
    } else if (id == TF_INITIAL_OVERLAP) {
      const vxg_sexp *w = f->child->next;
      int allow = w && vxg_sexp_is_word(w, "allow"), refuse = w && vxg_sexp_is_word(w, "refuse");
      if ((!allow && !refuse) || w->next) {
        return fail(rd, w ? w : f, "(initial-overlap ...): expected allow or refuse", NULL, NULL);
      }
      t->allow_overlap = allow;
    } else if (id == TF_ENERGY_TOLERANCE) {
      if (one_number(rd, f, &t->energy_tol, 1) < 0) {
        return -1;
      }
    } else if (id == TF_BODY) {
      for (int i = 0; i < t->nbody; i++) {
        if (f->child->next && f->child->next->text && t->body[i].name &&
            strcmp(t->body[i].name, f->child->next->text) == 0) {
          return fail(rd, f->child->next, "(body %s ...): a second body of that name",
                      f->child->next->text, NULL);
        }
      }
      if (parse_body(rd, &t->body[t->nbody++], f) < 0) {
        return -1;
      }
    } else if (id == TF_CONTACT) {
      if (parse_contact(rd, &t->contact[t->ncontact++], f) < 0) {
        return -1;
      }
    } else {
      return unknown_form(rd, f, "(task ...)", h, TP_TASK, 0);
    }
  }
  if (!have_duration) {
    return fail(rd, top, "(task ...): missing (duration T)", NULL, NULL);
  }
  if (t->nbody == 0) {
    return fail(rd, top, "(task ...): no body", NULL, NULL);
  }
  if (t->integrator == TASK_ADAPTIVE && t->step == 0) {
    t->step = fmin(t->max_step, 1e-4);
  }
  for (int i = 0; i < t->ncontact; i++) {
    for (int j = 0; j < i; j++) {
      const task_contact *a = &t->contact[i], *b = &t->contact[j];
      if ((a->a == b->a && a->b == b->b) || (a->a == b->b && a->b == b->a)) {
        return fail(rd, top, "two contacts for the same body pair", NULL, NULL);
      }
    }
  }
  return 0;
}


vxc_status vxc_task_parse(const char *text, size_t len, const char *file, const char *base_dir,
                          const vxc_allocator *al, vxc_task **out, vxc_error *err) {
  if (!text || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_task_parse: text and out needed");
  }
  vxc_allocator def = {NULL, NULL};
  vxc_task tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.al = al ? *al : def;
  vxc_task *t = vxci_task_alloc(&tmp, sizeof *t);
  if (!t) {
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }
  t->al = tmp.al;
  const char *fname = file ? file : "<task>";
  vxg_sexp_doc *doc = NULL;
  vxc_status st = vxg_sexp_parse(&t->al, text, len, fname, &doc, err);
  if (st != VXC_OK) {
    vxc_task_free(t);
    return st;
  }
  vxc_error local;
  reader rd = {t, fname, base_dir, err ? err : &local};
  memset(rd.err, 0, sizeof *rd.err);
  int rc = parse_task(&rd, doc);
  vxg_sexp_free(doc);
  if (rc < 0) {
    st = rd.err->status ? rd.err->status : VXC_ERR_FORMAT;
    vxc_task_free(t);
    return st;
  }
  *out = t;
  return VXC_OK;
}


vxc_status vxc_task_load(const char *path, const vxc_allocator *al, vxc_task **out,
                         vxc_error *err) {
  if (!path || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_task_load: path and out needed");
  }
  char dir[4096];
  if (strlen(path) >= sizeof dir) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_task_load: the path is longer than %zu bytes", sizeof dir - 1);
  }
  /* a file past the reader's limit is refused, not cut (a cut file would lose forms) */
  char *buf = NULL;
  size_t len = 0;
  vxc_status rst = vxg_read_file(al, path, VXG_SEXP_MAX_INPUT, "task file", &buf, &len, err);
  if (rst != VXC_OK) {
    return rst;
  }
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  const char *base = ".";
  if (slash) {
    *slash = 0;
    base = slash == dir ? "/" : dir;
  }
  vxc_status st = vxc_task_parse(buf, len, path, base, al, out, err);
  vxg_free(al, buf);
  return st;
}


void vxc_task_free(vxc_task *t) {
  if (!t) {
    return;
  }
  for (int i = 0; i < t->nbody; i++) {
    task_body *b = &t->body[i];
    vxc_solid_free(b->solid);
    vxci_task_free_mem(t, b->name);
    vxci_task_free_mem(t, b->model);
    vxci_task_free_mem(t, b->key);
  }
  vxci_task_free_mem(t, t->body);
  vxci_task_free_mem(t, t->contact);
  vxci_task_free_mem(t, t->name);
  vxci_task_free_mem(t, t->rec_body);
  vxci_task_free_mem(t, t->rec_contact);
  vxci_task_free_mem(t, t->sum_contact);
  vxc_allocator al = t->al;
  vxg_free(&al, t);
}


const char *vxc_task_name(const vxc_task *t) {
  return t ? t->name : NULL;
}


double vxc_task_duration(const vxc_task *t) {
  return t ? t->duration : 0;
}


double vxc_task_record_every(const vxc_task *t) {
  return t ? t->every : 0;
}


/* VXC_ERR_ARG naming fn when the task is NULL. */
static vxc_status check_task(const char *fn, const vxc_task *t, vxc_error *err) {
  return t ? VXC_OK : vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: task is NULL", fn);
}


/* VXC_ERR_ARG naming fn and the argument for a NULL task or out, or a contact index out of
 * range. */
static vxc_status check_contact(const char *fn, const vxc_task *t, int i, const void *out,
                                vxc_error *err) {
  if (!t || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn, !t ? "task" : "out");
  }
  if (i < 0 || i >= t->ncontact) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: contact %d is not in 0 .. %d", fn, i,
                         t->ncontact - 1);
  }
  return VXC_OK;
}


vxc_status vxc_task_set_duration(vxc_task *t, double duration, vxc_error *err) {
  static const char fn[] = "vxc_task_set_duration";
  vxc_status st = check_task(fn, t, err);
  if (st != VXC_OK) {
    return st;
  }
  if (!(duration > 0) || !isfinite(duration)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: duration %g s is not finite and > 0",
                         fn, duration);
  }
  t->duration = duration;
  return VXC_OK;
}


vxc_status vxc_task_set_closed_form(vxc_task *t, int on, vxc_error *err) {
  vxc_status st = check_task("vxc_task_set_closed_form", t, err);
  if (st != VXC_OK) {
    return st;
  }
  for (int ci = 0; ci < t->ncontact && !on; ci++) {
    t->contact[ci].query.closed_form = 0;
  }
  return VXC_OK;
}


vxc_status vxc_task_set_limits(vxc_task *t, long long max_steps, long long max_records,
                               vxc_error *err) {
  static const char fn[] = "vxc_task_set_limits";
  vxc_status st = check_task(fn, t, err);
  if (st != VXC_OK) {
    return st;
  }
  if (max_steps < 1 || max_records < 1) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s = %lld is not >= 1", fn,
                         max_steps < 1 ? "max_steps" : "max_records",
                         max_steps < 1 ? max_steps : max_records);
  }
  t->max_steps = max_steps;
  t->max_records = max_records;
  return VXC_OK;
}


vxc_status vxc_task_set_stop(vxc_task *t, const volatile sig_atomic_t *flag, vxc_error *err) {
  vxc_status st = check_task("vxc_task_set_stop", t, err);
  if (st != VXC_OK) {
    return st;
  }
  t->stop = flag;
  return VXC_OK;
}


vxc_status vxc_task_set_poll(vxc_task *t, vxc_task_poll_fn fn, void *ud, vxc_error *err) {
  vxc_status st = check_task("vxc_task_set_poll", t, err);
  if (st != VXC_OK) {
    return st;
  }
  t->poll = fn;
  t->poll_ud = ud;
  return VXC_OK;
}


int vxc_task_body_count(const vxc_task *t) {
  return t ? t->nbody : 0;
}


const char *vxc_task_body_name(const vxc_task *t, int i) {
  return (t && i >= 0 && i < t->nbody) ? t->body[i].name : NULL;
}


const char *vxc_task_body_model(const vxc_task *t, int i) {
  return (t && i >= 0 && i < t->nbody) ? t->body[i].model : NULL;
}


int vxc_task_body_is_free(const vxc_task *t, int i) {
  return (t && i >= 0 && i < t->nbody) ? t->body[i].kind == TASK_FREE : 0;
}


int vxc_task_body_is_driven(const vxc_task *t, int i) {
  return (t && i >= 0 && i < t->nbody) ? t->body[i].kind == TASK_DRIVEN : 0;
}


int vxc_task_contact_count(const vxc_task *t) {
  return t ? t->ncontact : 0;
}


const vxc_solid *vxc_task_body_solid(const vxc_task *t, int i) {
  return (t && i >= 0 && i < t->nbody) ? t->body[i].solid : NULL;
}


vxc_status vxc_task_contact_query(const vxc_task *t, int i, vxc_query_options *out,
                                  vxc_error *err) {
  vxc_status st = check_contact("vxc_task_contact_query", t, i, out, err);
  if (st != VXC_OK) {
    return st;
  }
  *out = t->contact[i].query;
  return VXC_OK;
}


vxc_status vxc_task_contact_bodies(const vxc_task *t, int i, int *a, int *b, vxc_error *err) {
  static const char fn[] = "vxc_task_contact_bodies";
  if (!a || !b) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn, !a ? "a" : "b");
  }
  vxc_status st = check_contact(fn, t, i, a, err);
  if (st != VXC_OK) {
    return st;
  }
  *a = t->contact[i].a;
  *b = t->contact[i].b;
  return VXC_OK;
}
