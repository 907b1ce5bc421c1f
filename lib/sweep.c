/* sweep.c: the sweep-file (.vxs) reader and the run of one case (vxc_sweep.h).
 *
 *   (sweep NAME item...)
 *   item := (task "FILE.vxt")                       ; relative to the sweep file
 *         | (vary axis...)                          ; the varied numbers, in column order
 *         | (set (PATH... VALUE)...)                ; numbers fixed for every case
 *         | (mode grid | (random N SEED) | (latin N SEED))   ; default grid
 *         | (outputs OUT...)                        ; OUT: a name, or (inserted TOL)
 *   axis := (PATH... LO HI COUNT)                   ; COUNT values from LO to HI
 *         | (PATH... (V...))                        ; an explicit list
 *
 * Data: the task file's text is kept whole. Loading resolves every path to the numbers it
 * writes: a site is a span of that text (a number as written, or an insertion point for a
 * form the file leaves at its default, such as a missing (velocity ...)) holding one or
 * more entries (numbers); an op sets one entry (moving others with it: a driven body's
 * keyframes follow its pose) or rotates quaternion groups. A case starts from the file's
 * numbers, applies the (set ...) ops then one op per axis with the case's value, and
 * writes the text again with the sites it touched replaced (%.17g), so lines keep their
 * numbers and the task reader's messages still point into the task file. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/input.h"
#include "geom/sexp.h"
#include "geom/vec3.h"
#include "lib/task_forms.h"
#include "lib/vxc_force.h"
#include "lib/vxc_sweep.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define MAX_CASES 10000000LL
#define MAX_LATIN 1000000LL

typedef struct sw_site {
  size_t off, len;        /* span replaced (len 0: an insertion) */
  const char *pre, *post; /* written around the entries (static strings or owned names) */
  char *owned;            /* pre when allocated (a parameter's name) */
  int first, n;           /* entries first .. first + n - 1 */
  int used;               /* written when some op touches it */
} sw_site;

enum { OP_SET, OP_ROT };

typedef struct sw_op {
  int kind;
  int entry;     /* OP_SET */
  int nshift;    /* OP_SET: entries moved by the same change */
  int shift[64]; /* (a driven body's keyframes) */
  int axis;      /* OP_ROT: 0, 1, 2 for x, y, z */
  int nq;        /* OP_ROT: quaternion groups */
  int q[64][4];
} sw_op;

typedef struct sw_axis {
  char name[256];
  sw_op *op;
  int nval; /* explicit list */
  double *val;
  double lo, hi;
  int count;
  int *perm; /* latin */
} sw_axis;

enum {
  OUT_PEAK_FN,
  OUT_PEAK_FT,
  OUT_PEAK_TROLL,
  OUT_PEAK_TSPIN,
  OUT_FIRST_CONTACT,
  OUT_IMPACTS,
  OUT_T_END,
  OUT_STEPS,
  OUT_QUERIES,
  OUT_CAPPED,
  OUT_ENERGY_ERROR,
  OUT_DEPTH,
  OUT_INSERTED,
  OUT_WALL,
  OUT_N
};
static const char *const out_names[OUT_N] = {
    "peak_fn", "peak_ft", "peak_troll",     "peak_tspin",   "first_contact", "impacts",  "t_end",
    "steps",   "queries", "capped_queries", "energy_error", "depth",         "inserted", "wall_s"};

struct vxc_sweep {
  vxc_allocator al;
  char *name;
  char *task_path, *task_dir;
  char *text; /* the task file's text (inflated), NUL-terminated */
  size_t len;
  int nsite, capsite;
  sw_site *site;
  int *order; /* sites by offset */
  int nentry, capentry;
  double *orig;
  int naxis;
  sw_axis *axis;
  int nset;
  size_t capset_op, capset_val;
  sw_op **set_op;
  double *set_val;
  int grid;
  long long ncase;
  uint64_t seed;
  int nout;
  int out[64];
  double out_tol[64];
  /* depth and inserted: the first driven body with keyframes */
  char *driven;
  int nkey;
  int key_t[64], key_z[64];
  int dur_entry;
};

/* ---- loading state ---------------------------------------------------------------- */

typedef struct loader {
  vxc_sweep *s;
  const char *file; /* the sweep file */
  vxc_error *err;
  const vxg_sexp *task; /* (task NAME ...) of the task file */
  size_t *line_off;     /* offset of each line of the task text */
  int nline;
} loader;

static int fail(loader *L, const vxg_sexp *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(loader *L, const vxg_sexp *at, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  vxg_error_set(L->err, VXC_ERR_FORMAT, L->file, at ? at->line : 0, at ? at->column : 0, "%s", msg);
  return -1;
}


static int nomem(loader *L) {
  vxg_error_set(L->err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  return -1;
}


static const char *head(const vxg_sexp *n) {
  if (n && n->kind == VXG_SEXP_LIST && n->child && n->child->kind == VXG_SEXP_WORD) {
    return n->child->text;
  }
  return NULL;
}


static const char *word(const vxg_sexp *n) {
  return n && (n->kind == VXG_SEXP_WORD || n->kind == VXG_SEXP_STRING) ? n->text : NULL;
}


static int is_int(double v, double lo, double hi) {
  return v == floor(v) && v >= lo && v <= hi;
}


/* The first child list of `list` whose head is `h`, after `skip` leading elements. */
static const vxg_sexp *find_list(const vxg_sexp *list, const char *h) {
  for (const vxg_sexp *c = list ? list->child : NULL; c; c = c->next) {
    const char *ch = head(c);
    if (ch && strcmp(ch, h) == 0) {
      return c;
    }
  }
  return NULL;
}


/* Element k (0-based) after the head of a list. */
static const vxg_sexp *nth(const vxg_sexp *list, int k) {
  const vxg_sexp *c = list->child ? list->child->next : NULL;
  while (c && k-- > 0) {
    c = c->next;
  }
  return c;
}


static size_t node_off(loader *L, const vxg_sexp *n) {
  if (n->line < 1 || n->line > L->nline) {
    return (size_t)-1;
  }
  return L->line_off[n->line - 1] + (size_t)(n->column - 1);
}


/* The offset just past an atom (a word, number or quoted string). */
static size_t node_end(loader *L, const vxg_sexp *n) {
  size_t o = node_off(L, n);
  const char *t = L->s->text;
  if (n->kind != VXG_SEXP_STRING) {
    return o + strlen(n->text);
  }
  size_t i = o + 1;
  while (i < L->s->len && t[i] != '"') {
    i += t[i] == '\\' ? 2 : 1;
  }
  return i + 1;
}


static int grow(loader *L, void **p, int *cap, int need, size_t size) {
  size_t c = (size_t)*cap;
  if (vxg_grow(&L->s->al, p, &c, (size_t)need, size) != 0 || c > INT_MAX) {
    return nomem(L);
  }
  *cap = (int)c;
  return 0;
}


/* A site of n entries with initial values v; an existing site with the same offset, length
 * and prefix is shared. Returns the first entry or -1. */
static int add_site(loader *L, size_t off, size_t len, const char *pre, const char *post, int n,
                    const double *v) {
  vxc_sweep *s = L->s;
  for (int i = 0; i < s->nsite; i++) {
    if (s->site[i].off == off && s->site[i].len == len && strcmp(s->site[i].pre, pre) == 0) {
      return s->site[i].first;
    }
  }
  if (grow(L, (void **)&s->site, &s->capsite, s->nsite + 1, sizeof *s->site) < 0 ||
      grow(L, (void **)&s->orig, &s->capentry, s->nentry + n, sizeof *s->orig) < 0) {
    return -1;
  }
  sw_site *st = &s->site[s->nsite++];
  memset(st, 0, sizeof *st);
  st->off = off;
  st->len = len;
  st->pre = pre;
  st->post = post;
  st->first = s->nentry;
  st->n = n;
  for (int i = 0; i < n; i++) {
    s->orig[s->nentry++] = v[i];
  }
  return st->first;
}


/* The entry of a number of the task file. */
static int atom_entry(loader *L, const vxg_sexp *atom) {
  size_t off = node_off(L, atom);
  size_t len = strlen(atom->text);
  if (off == (size_t)-1 || off + len > L->s->len || memcmp(L->s->text + off, atom->text, len)) {
    vxg_error_set(L->err, VXC_ERR_FORMAT, L->s->task_path, atom->line, atom->column,
                  "cannot locate this number in the task file's text");
    return -1;
  }
  return add_site(L, off, len, "", "", 1, &atom->num);
}


static void mark_used(vxc_sweep *s, int entry) {
  for (int i = 0; i < s->nsite; i++) {
    if (entry >= s->site[i].first && entry < s->site[i].first + s->site[i].n) {
      s->site[i].used = 1;
    }
  }
}


static int field(const char *w, const char *const *names, int n) {
  for (int i = 0; w && i < n; i++) {
    if (strcmp(w, names[i]) == 0) {
      return i;
    }
  }
  return -1;
}


static void join(char *out, size_t size, const char *const *names, int n) {
  out[0] = 0;
  for (int i = 0; i < n; i++) {
    size_t l = strlen(out);
    snprintf(out + l, size - l, "%s%s", i ? ", " : "", names[i]);
  }
}


/* A pose's fields: its numbers (task_forms.h), then a turn about each axis (degrees). */
static const char *const F_POSE[] = {"x",  "y",  "z",      "qw",     "qx",
                                     "qy", "qz", "rx-deg", "ry-deg", "rz-deg"};


/* Path element i (the path is p[0 .. np-1]). */
typedef struct path {
  const vxg_sexp *p[16];
  int n;
} sw_path;


static int want_field(loader *L, const sw_path *P, int i, const char *const *names, int n,
                      const char *what) {
  char list[200];
  join(list, sizeof list, names, n);
  if (i >= P->n) {
    return fail(L, P->p[P->n - 1], "%s: name a field after it (%s)", what, list);
  }
  int k = field(word(P->p[i]), names, n);
  if (k < 0) {
    return fail(L, P->p[i], "%s has no field '%s' (fields: %s)", what,
                word(P->p[i])   ? word(P->p[i])
                : P->p[i]->text ? P->p[i]->text
                                : "?",
                list);
  }
  return k;
}


static int end_of_path(loader *L, const sw_path *P, int i) {
  if (i < P->n) {
    return fail(L, P->p[i], "unexpected '%s' after the path", P->p[i]->text ? P->p[i]->text : "(");
  }
  return 0;
}


/* The number k of list `f` (a form of the task), or an error naming it. */
static int number_entry(loader *L, const vxg_sexp *at, const vxg_sexp *f, int k, const char *what) {
  const vxg_sexp *a = nth(f, k);
  if (!a || a->kind != VXG_SEXP_NUMBER) {
    return fail(L, at, "%s is not a number in the task file (%s:%d:%d)", what, L->s->task_path,
                f->line, f->column);
  }
  return atom_entry(L, a);
}


/* The entry of number k of f, a vxci_task_forms[id]: the file's or, past the last number of a
 * form the file gives short, the reader's default for the rest written in after it. */
static int form_entry(loader *L, const vxg_sexp *at, const vxg_sexp *f, int id, int k,
                      const char *what) {
  const task_form *F = &vxci_task_forms[id];
  int given = f->nchild - 1;
  if (k >= given && given == F->min && F->min < F->max && F->dflt && given > 0) {
    int e = add_site(L, node_end(L, nth(f, given - 1)), 0, " ", "", F->max - F->min,
                     F->dflt + F->min);
    return e < 0 ? -1 : e + (k - given);
  }
  return number_entry(L, at, f, k, what);
}


/* A site writing a form the file leaves out, pre (a format naming `name`) then the n values
 * v then post, at offset `at`. Returns its first entry or -1. */
static int insert_form(loader *L, size_t at, const char *pre_fmt, const char *name,
                       const char *post, int n, const double *v) {
  char *pre = vxg_alloc(&L->s->al, strlen(pre_fmt) + strlen(name) + 1);
  if (!pre) {
    return nomem(L);
  }
  sprintf(pre, pre_fmt, name);
  int e = add_site(L, at, 0, pre, post, n, v);
  sw_site *st = e >= 0 ? &L->s->site[L->s->nsite - 1] : NULL;
  if (st && st->first == e && st->pre == pre) {
    st->owned = pre;
  } else {
    vxg_free(&L->s->al, pre);
  }
  return e;
}


/* Where a form left out of list f is written in: after its name(s), before its first form. */
static size_t insert_at(loader *L, const vxg_sexp *f) {
  const vxg_sexp *a = f->child;
  while (a->next && a->next->kind != VXG_SEXP_LIST) {
    a = a->next;
  }
  return node_end(L, a);
}


/* The k-th (from 0) form id of list `list` of place `place`, a sub-form of list or of a
 * TFL_HIDDEN sub-form; *count (when not NULL) receives how many there are. */
static const vxg_sexp *nth_form(const vxg_sexp *list, int place, int id, int k, int *count) {
  const vxg_sexp *found = NULL;
  int n = 0;
  for (const vxg_sexp *c = list ? list->child : NULL; c; c = c->next) {
    int cid = vxci_form_find(place, head(c), TFL_DRIVEN | TFL_ADAPTIVE);
    if (cid == id) {
      found = n++ == k ? c : found;
    } else if (cid >= 0 && (vxci_task_forms[cid].flags & TFL_HIDDEN) &&
               vxci_task_forms[cid].place != TP_NONE && vxci_task_forms[cid].place != place) {
      int m = 0;
      const vxg_sexp *g = nth_form(c, vxci_task_forms[cid].place, id, k - n, &m);
      found = g ? g : found;
      n += m;
    }
  }
  if (count) {
    *count = n;
  }
  return found;
}


/* A driven body's trajectory moves with its pose: each keyframe's coordinate k (k < 3) shifts
 * with the pose's, or its quaternion turns with the pose's (OP_ROT). */
static int pose_moves_keyframes(loader *L, const sw_path *P, const vxg_sexp *body, int k,
                                sw_op *op) {
  int nkey = 0;
  nth_form(body, TP_BODY, TF_KEYFRAME, 0, &nkey);
  for (int i = 0; i < nkey && op->nshift < 64 && op->nq < 64; i++) {
    const vxg_sexp *kf = nth_form(body, TP_BODY, TF_KEYFRAME, i, NULL);
    if (op->kind == OP_ROT) {
      for (int j = 0; j < 4; j++) {
        if ((op->q[op->nq][j] = form_entry(L, P->p[3], kf, TF_KEYFRAME, 4 + j, "a keyframe")) < 0) {
          return -1;
        }
      }
      op->nq++;
    } else if (k < 3) {
      int e = number_entry(L, P->p[3], kf, k + 1, "a keyframe coordinate");
      if (e < 0) {
        return -1;
      }
      op->shift[op->nshift++] = e;
    }
  }
  return 0;
}


/* (body NAME pose FIELD): a coordinate, a quaternion component, or a rotation about an axis;
 * a driven body's keyframes move with it. */
static int body_pose(loader *L, const sw_path *P, const vxg_sexp *body, sw_op *op) {
  const vxg_sexp *f = nth_form(body, TP_BODY, TF_POSE, 0, NULL);
  int k = want_field(L, P, 3, F_POSE, 10, "(pose ...)");
  if (k < 0 || end_of_path(L, P, 4) < 0) {
    return -1;
  }
  if (k < 7) {
    if ((op->entry = form_entry(L, P->p[3], f, TF_POSE, k, "this pose number")) < 0) {
      return -1;
    }
  } else {
    op->kind = OP_ROT;
    op->axis = k - 7;
    for (int j = 0; j < 4; j++) {
      if ((op->q[0][j] = form_entry(L, P->p[3], f, TF_POSE, 3 + j, "this pose number")) < 0) {
        return -1;
      }
    }
    op->nq = 1;
  }
  return pose_moves_keyframes(L, P, body, k, op);
}


static int walk(loader *L, const sw_path *P, int i, int place, const vxg_sexp *list,
                const char *what, sw_op *op);


/* Path elements from i on name number k (or, when k < 0, a field) of form id, whose list in
 * the task is f (NULL: the file leaves it out; `list`, of the form's place, is its parent). */
static int form_number(loader *L, const sw_path *P, int i, int id, int k, const vxg_sexp *f,
                       const vxg_sexp *list, sw_op *op) {
  const task_form *F = &vxci_task_forms[id];
  char what[80];
  snprintf(what, sizeof what, "(%s ...)", F->name);
  if (k < 0) {
    k = F->max > 1 ? want_field(L, P, i++, F->fields, F->max, what) : 0;
  }
  if (k < 0 || end_of_path(L, P, i) < 0) {
    return -1;
  }
  if (f) {
    return (op->entry = form_entry(L, P->p[i - 1], f, id, k, what)) < 0 ? -1 : 0;
  }
  /* left out: the reader's values written in as a form of their own */
  int e = insert_form(L, insert_at(L, list), " (%s ", F->name, ")", F->max, F->dflt);
  return e < 0 ? -1 : (op->entry = e + k, 0);
}


/* (... keyframe K FIELD): the K-th (from 1) form id of `list` of `place`. */
static int indexed_form(loader *L, const sw_path *P, int i, int place, const vxg_sexp *list,
                        const char *what, int id, sw_op *op) {
  int n = 0;
  nth_form(list, place, id, 0, &n);
  if (!n) {
    return fail(L, P->p[i - 1], "%s has no (%s ...) in the task file to vary", what,
                vxci_task_forms[id].name);
  }
  if (i >= P->n || P->p[i]->kind != VXG_SEXP_NUMBER || !is_int(P->p[i]->num, 1, n)) {
    char ns[16];
    snprintf(ns, sizeof ns, "%d", n);
    return fail(L, P->p[i < P->n ? i : i - 1], "(%s ...): expected a %s number from 1 to %s",
                vxci_task_forms[id].name, vxci_task_forms[id].name, ns);
  }
  const vxg_sexp *f = nth_form(list, place, id, (int)P->p[i]->num - 1, NULL);
  return form_number(L, P, i + 1, id, -1, f, list, op);
}


/* Path element i names a form of `place` (or a number of a hidden one), whose list in the
 * task is `list`, called `what` in messages (NULL: the task, the path's start). */
static int walk(loader *L, const sw_path *P, int i, int place, const vxg_sexp *list,
                const char *what, sw_op *op) {
  char names[300];
  vxci_form_path_names(place, names, sizeof names);
  if (i >= P->n) {
    return fail(L, P->p[P->n - 1], "%s: name a field after it (%s)", what, names);
  }
  const char *w = word(P->p[i]);
  int k = -1, id = vxci_form_path(place, w, &k);
  const char *ws = w ? w : P->p[i]->text ? P->p[i]->text : "(";
  if (id < 0 && !what && (id = vxci_form_find(TP_ROOT, w, 0)) >= 0) { /* (task ...) */
    return fail(L, P->p[i], "(%s ...) is %s, not a number", w, vxci_task_forms[id].holds);
  }
  if (id < 0 && !what) {
    return fail(L, P->p[i], "unknown path '%s' (a path starts with %s)", ws, names);
  }
  if (id < 0) {
    return fail(L, P->p[i], "%s has no field '%s' (fields: %s)", what, ws, names);
  }
  const task_form *F = &vxci_task_forms[id];
  if (!vxci_form_varies(id)) {
    return fail(L, P->p[i], "(%s ...) is %s, not a number", F->name, F->holds);
  }
  if ((F->flags & TFL_MANY) && F->max > 0) {
    return indexed_form(L, P, i + 1, place, list, what ? what : "the task", id, op);
  }
  const vxg_sexp *f = nth_form(list, place, id, 0, NULL);
  /* a form the reader defaults is written in; a form holding forms is looked into even when
     absent, so that the message names the number's form */
  int insert = list && F->in == place && F->min == F->max && F->dflt;
  if (!f && !insert && F->max > 0) {
    return fail(L, P->p[i], "%s has no (%s ...) in the task file to vary",
                what ? what : "the task", F->name);
  }
  if (F->max > 0) {
    return form_number(L, P, i + 1, id, k, f, list, op);
  }
  char sub[80];
  snprintf(sub, sizeof sub, "(%s ...)", F->name);
  return walk(L, P, i + 1, F->place, f, sub, op);
}


/* The body P names: its (body NAME ...) form; the error lists the task's bodies. */
static const vxg_sexp *find_body(loader *L, const sw_path *P) {
  const char *bn = word(P->p[1]);
  char names[300] = "";
  const vxg_sexp *body = NULL;
  for (const vxg_sexp *f = L->task->child; f; f = f->next) {
    if (vxci_form_find(TP_TASK, head(f), 0) == TF_BODY && word(nth(f, 0))) {
      if (bn && strcmp(word(nth(f, 0)), bn) == 0) {
        body = f;
      }
      size_t l = strlen(names);
      snprintf(names + l, sizeof names - l, "%s%s", l ? ", " : "", word(nth(f, 0)));
    }
  }
  if (!body) {
    fail(L, P->p[1], "unknown body '%s' (the task's bodies: %s)",
         bn              ? bn
         : P->p[1]->text ? P->p[1]->text
                         : "(",
         names);
  }
  return body;
}


/* (body NAME FIELD ...): the op and the axis name NAME.FIELD... */
static int resolve_body(loader *L, const sw_path *P, sw_op *op, char *name, size_t nsize) {
  const vxg_sexp *body = find_body(L, P);
  if (!body) {
    return -1;
  }
  const char *bn = word(nth(body, 0));
  snprintf(name, nsize, "%s", bn);
  for (int i = 2; i < P->n; i++) {
    size_t l = strlen(name);
    snprintf(name + l, nsize - l, ".%s", P->p[i]->text ? P->p[i]->text : "?");
  }
  op->kind = OP_SET;
  if (P->n > 2 && vxci_form_find(TP_BODY, word(P->p[2]), 0) == TF_POSE) {
    return body_pose(L, P, body, op);
  }
  char what[VXG_NAME_MAX + 20];
  snprintf(what, sizeof what, "(body %s ...)", bn);
  return walk(L, P, 2, TP_BODY, body, what, op);
}


/* (contact A B NAME): a parameter of vxc_params_set not in the file's forms, written in (a
 * new entry of its (params ...), or a new (params ...)). */
static int contact_param(loader *L, const vxg_sexp *at, const vxg_sexp *c, const char *w,
                         sw_op *op) {
  const vxg_sexp *params = nth_form(c, TP_CONTACT, TF_PARAMS, 0, NULL);
  for (int k = 0; params; params = nth_form(c, TP_CONTACT, TF_PARAMS, ++k, NULL)) {
    const vxg_sexp *p = find_list(params, w);
    if (p) {
      if (p->nchild != 2) {
        return fail(L, at, "%s does not hold one number", w);
      }
      return (op->entry = number_entry(L, at, p, 0, w)) < 0 ? -1 : 0;
    }
  }
  params = nth_form(c, TP_CONTACT, TF_PARAMS, 0, NULL);
  size_t off = params ? node_end(L, params->child) : insert_at(L, c);
  static const double zero = 0;
  int e = insert_form(L, off, params ? " (%s " : " (params (%s ", w, params ? ")" : "))", 1, &zero);
  return e < 0 ? -1 : (op->entry = e, 0);
}


static int resolve_contact(loader *L, const sw_path *P, sw_op *op, char *name, size_t nsize) {
  const char *a = P->n > 1 ? word(P->p[1]) : NULL, *b = P->n > 2 ? word(P->p[2]) : NULL;
  if (!a || !b) {
    return fail(L, P->p[P->n > 2 ? 2 : P->n - 1], "(contact A B ...): expected two body names");
  }
  const vxg_sexp *c = NULL;
  for (const vxg_sexp *f = L->task->child; f && !c; f = f->next) {
    const char *fa = word(nth(f, 0)), *fb = word(nth(f, 1));
    if (vxci_form_find(TP_TASK, head(f), 0) == TF_CONTACT && fa && fb &&
        ((!strcmp(fa, a) && !strcmp(fb, b)) || (!strcmp(fa, b) && !strcmp(fb, a)))) {
      c = f;
    }
  }
  if (!c) {
    return fail(L, P->p[1], "the task has no contact between '%s' and '%s'", a, b);
  }
  char forms[300], what[2 * VXG_NAME_MAX + 20];
  vxci_form_path_names(TP_CONTACT, forms, sizeof forms);
  if (P->n < 4) {
    return fail(L, P->p[2], "(contact %s %s ...): name a parameter to vary (mu_c, k_v, ..., %s)",
                a, b, forms);
  }
  const char *w = word(P->p[3]);
  if (!w) {
    return fail(L, P->p[3], "expected a parameter name");
  }
  snprintf(name, nsize, "%s~%s.%s", word(nth(c, 0)), word(nth(c, 1)), w);
  snprintf(what, sizeof what, "(contact %s %s ...)", a, b);
  op->kind = OP_SET;
  int k, id = vxci_form_path(TP_CONTACT, w, &k);
  if (id >= 0 && nth_form(c, TP_CONTACT, id, 0, NULL)) {
    return walk(L, P, 3, TP_CONTACT, c, what, op);
  }
  vxc_params tmp;
  vxc_params_default(&tmp);
  vxc_error e2;
  if (vxc_params_set(&tmp, w, 1.0, &e2) == VXC_OK) {
    return end_of_path(L, P, 4) < 0 ? -1 : contact_param(L, P->p[3], c, w, op);
  }
  if (id >= 0) {
    return walk(L, P, 3, TP_CONTACT, c, what, op);
  }
  return fail(L, P->p[3],
              "unknown contact parameter '%s' (k_v, e_eff, v_small, tau_r, mu_s, "
              "mu_c, sigma0, sigma1, sigma2, v_s, tau_dw, v_e, theta_c, r_n, n_i, k_p, p_exp, "
              "or %s)",
              w, forms);
}


/* Resolves a path to the op that writes its value. name receives the column name. */
static int resolve(loader *L, const sw_path *P, sw_op *op, char *name, size_t nsize) {
  memset(op, 0, sizeof *op);
  for (int i = 0; i < P->n; i++) {
    if (P->p[i]->kind == VXG_SEXP_LIST) {
      return fail(L, P->p[i], "a path is made of words and numbers, not lists");
    }
  }
  int id = vxci_form_find(TP_TASK, word(P->p[0]), 0);
  if (id == TF_BODY) {
    if (P->n < 2) {
      return fail(L, P->p[0], "(body NAME ...): expected a body name");
    }
    return resolve_body(L, P, op, name, nsize);
  }
  if (id == TF_CONTACT) {
    return resolve_contact(L, P, op, name, nsize);
  }
  name[0] = 0;
  for (int i = 0; i < P->n; i++) {
    size_t l = strlen(name);
    snprintf(name + l, nsize - l, "%s%s", i ? "." : "", P->p[i]->text ? P->p[i]->text : "?");
  }
  op->kind = OP_SET;
  return walk(L, P, 0, TP_TASK, L->task, NULL, op);
}


static void op_used(vxc_sweep *s, const sw_op *op) {
  if (op->kind == OP_SET) {
    mark_used(s, op->entry);
    for (int i = 0; i < op->nshift; i++) {
      mark_used(s, op->shift[i]);
    }
  } else {
    for (int i = 0; i < op->nq; i++) {
      for (int k = 0; k < 4; k++) {
        mark_used(s, op->q[i][k]);
      }
    }
  }
}


static void op_apply(const sw_op *op, double v, double *vals) {
  if (op->kind == OP_SET) {
    double d = v - vals[op->entry];
    vals[op->entry] = v;
    for (int i = 0; i < op->nshift; i++) {
      vals[op->shift[i]] += d;
    }
    return;
  }
  double a = v * M_PI / 360, r[4] = {cos(a), 0, 0, 0};
  r[1 + op->axis] = sin(a);
  for (int i = 0; i < op->nq; i++) {
    const int *g = op->q[i];
    double q[4] = {vals[g[0]], vals[g[1]], vals[g[2]], vals[g[3]]};
    vxg_quat_mul(r, q, q);
    for (int k = 0; k < 4; k++) {
      vals[g[k]] = q[k];
    }
  }
}


/* ---- the case generator -------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}


/* A uniform number in [0, 1) for case i, axis a: a function of (seed, i, a) alone. */
static double uniform(uint64_t seed, long long i, int a) {
  uint64_t x = seed;
  uint64_t h = splitmix64(&x);
  x = h ^ ((uint64_t)i * 0xD1B54A32D192ED03ULL) ^ ((uint64_t)(a + 1) * 0xC2B2AE3D27D4EB4FULL);
  splitmix64(&x);
  return (double)(splitmix64(&x) >> 11) * 0x1p-53;
}


static double axis_value(const vxc_sweep *s, int a, long long i, long long grid_k) {
  const sw_axis *ax = &s->axis[a];
  if (s->grid) {
    if (ax->val) {
      return ax->val[grid_k];
    }
    if (ax->count == 1) {
      return ax->lo;
    }
    if (grid_k == ax->count - 1) {
      return ax->hi;
    }
    return ax->lo + (ax->hi - ax->lo) * (double)grid_k / (double)(ax->count - 1);
  }
  double u = uniform(s->seed, i, a);
  if (ax->perm) {
    u = (ax->perm[i] + u) / (double)s->ncase;
  }
  if (ax->val) {
    long long k = (long long)(u * ax->nval);
    return ax->val[k < ax->nval ? k : ax->nval - 1];
  }
  return ax->lo + (ax->hi - ax->lo) * u;
}


/* The checks of the calls about case i: s and `out` (named out_name) not NULL, 0 <= i <
 * count. VXC_OK, or VXC_ERR_ARG with err (may be NULL) naming fn and the argument. */
static vxc_status check_case(const char *fn, const vxc_sweep *s, long long i, const void *out,
                             const char *out_name, vxc_error *err) {
  if (!s || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn, !s ? "s" : out_name);
  }
  if (i < 0 || i >= s->ncase) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: case %lld is not in 0 .. %lld", fn, i,
                         s->ncase - 1);
  }
  return VXC_OK;
}


vxc_status vxc_sweep_case_values(const vxc_sweep *s, long long i, double *values, vxc_error *err) {
  vxc_status st = check_case("vxc_sweep_case_values", s, i, values, "values", err);
  if (st != VXC_OK) {
    return st;
  }
  long long rest = i;
  for (int a = s->naxis - 1; a >= 0; a--) {
    int size = vxc_sweep_axis_size(s, a);
    values[a] = axis_value(s, a, i, rest % size);
    rest /= size;
  }
  return VXC_OK;
}


static int site_cmp_off(const void *pa, const void *pb, const vxc_sweep *s) {
  const sw_site *a = &s->site[*(const int *)pa], *b = &s->site[*(const int *)pb];
  if (a->off != b->off) {
    return a->off < b->off ? -1 : 1;
  }
  return *(const int *)pa - *(const int *)pb;
}


/* The numbers of case i (0 <= i < count), every entry, in a new block of the sweep's
 * allocator (NULL when out of memory). */
static double *case_entries(const vxc_sweep *s, long long i) {
  double *vals = vxg_alloc(&s->al, sizeof *vals * (size_t)(s->nentry + 1));
  if (!vals) {
    return NULL;
  }
  memcpy(vals, s->orig, sizeof *vals * (size_t)s->nentry);
  for (int k = 0; k < s->nset; k++) {
    op_apply(s->set_op[k], s->set_val[k], vals);
  }
  double v[256];
  vxc_sweep_case_values(s, i, v, NULL);
  for (int a = 0; a < s->naxis; a++) {
    op_apply(s->axis[a].op, v[a], vals);
  }
  return vals;
}


/* The task text with the entries vals written in, in a new block of the sweep's allocator:
 * *text and *len, or -1 when out of memory. */
static int case_write(const vxc_sweep *s, const double *vals, char **text, size_t *len) {
  size_t cap = s->len + 64;
  for (int k = 0; k < s->nsite; k++) {
    cap += s->site[k].used
               ? strlen(s->site[k].pre) + strlen(s->site[k].post) + (size_t)s->site[k].n * 28
               : 0;
  }
  char *out = vxg_alloc(&s->al, cap);
  if (!out) {
    return -1;
  }
  size_t at = 0, o = 0;
  for (int k = 0; k < s->nsite; k++) {
    const sw_site *st = &s->site[s->order[k]];
    if (!st->used || st->off < at) {
      continue;
    }
    memcpy(out + o, s->text + at, st->off - at);
    o += st->off - at;
    o += (size_t)sprintf(out + o, "%s", st->pre);
    for (int e = 0; e < st->n; e++) {
      o += (size_t)sprintf(out + o, "%s%.17g", e ? " " : "", vals[st->first + e]);
    }
    o += (size_t)sprintf(out + o, "%s", st->post);
    at = st->off + st->len;
  }
  memcpy(out + o, s->text + at, s->len - at);
  o += s->len - at;
  out[o] = 0;
  *text = out;
  *len = o;
  return 0;
}


vxc_status vxc_sweep_case_text(const vxc_sweep *s, long long i, char **text, size_t *len,
                               vxc_error *err) {
  static const char fn[] = "vxc_sweep_case_text";
  vxc_status st = check_case(fn, s, i, text, "text", err);
  if (st == VXC_OK && !len) {
    st = vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: len is NULL", fn);
  }
  if (st != VXC_OK) {
    return st;
  }
  double *vals = case_entries(s, i);
  int bad = !vals || case_write(s, vals, text, len) != 0;
  vxg_free(&s->al, vals);
  return bad ? vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "%s: out of memory", fn) : VXC_OK;
}


void vxc_sweep_text_free(const vxc_sweep *s, char *text) {
  if (s) {
    vxg_free(&s->al, text);
  }
}


/* ---- reading the files ------------------------------------------------------------- */

/* The whole file, inflated when it is gzip data (geom/input.h: bounded like every reader). */
static vxc_status read_all(const vxc_allocator *al, const char *path, char **out, size_t *len,
                           vxc_error *err) {
  char *buf = NULL;
  size_t n = 0;
  vxc_status st = vxg_read_file(al, path, VXG_SEXP_MAX_INPUT, "file", &buf, &n, err);
  if (st != VXC_OK || !vxg_is_gzip(buf, n)) {
    *out = buf;
    *len = n;
    return st;
  }
  char *in = NULL;
  size_t il = 0;
  st = vxg_gunzip(al, (const unsigned char *)buf, n, path, VXG_SEXP_MAX_INPUT, &in, &il, err);
  vxg_free(al, buf);
  if (st == VXC_OK) {
    *out = in;
    *len = il;
  }
  return st;
}


static char *dir_of(const vxc_allocator *al, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    return vxg_strdup(al, ".");
  }
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char *d = vxg_alloc(al, n + 1);
  if (d) {
    memcpy(d, path, n);
    d[n] = 0;
  }
  return d;
}


static int parse_path_values(loader *L, const vxg_sexp *form, int is_set, sw_path *P,
                             const vxg_sexp **vals_at) {
  memset(P, 0, sizeof *P);
  int n = form->nchild;
  const vxg_sexp *last = form->child;
  for (int i = 0; i < n - 1; i++) {
    last = last->next;
  }
  int nvalue = is_set ? 1 : (last->kind == VXG_SEXP_LIST ? 1 : 3);
  if (n - nvalue < 1) {
    return fail(
        L, form,
        is_set ? "expected (PATH... VALUE)" : "expected (PATH... LO HI COUNT) or (PATH... (V...))");
  }
  const vxg_sexp *c = form->child;
  for (int i = 0; i < n - nvalue; i++, c = c->next) {
    if (P->n == 16) {
      return fail(L, c, "path too long");
    }
    P->p[P->n++] = c;
  }
  *vals_at = c;
  for (const vxg_sexp *v = c; v && nvalue == 3; v = v->next) {
    if (v->kind != VXG_SEXP_NUMBER) {
      return fail(L, v, "expected (PATH... LO HI COUNT): '%s' is not a number",
                  v->text ? v->text : "(");
    }
  }
  if (is_set && c->kind != VXG_SEXP_NUMBER) {
    return fail(L, c, "expected (PATH... VALUE): the value must be a number");
  }
  return 0;
}


static int parse_axis(loader *L, const vxg_sexp *form, sw_axis *ax) {
  if (form->kind != VXG_SEXP_LIST || form->nchild < 2) {
    return fail(L, form, "(vary ...): expected (PATH... LO HI COUNT) or (PATH... (V...))");
  }
  sw_path P;
  const vxg_sexp *v;
  if (parse_path_values(L, form, 0, &P, &v) < 0) {
    return -1;
  }
  ax->op = vxg_alloc(&L->s->al, sizeof *ax->op);
  if (!ax->op) {
    return nomem(L);
  }
  if (resolve(L, &P, ax->op, ax->name, sizeof ax->name) < 0) {
    return -1;
  }
  if (v->kind == VXG_SEXP_LIST) {
    if (v->nchild < 1) {
      return fail(L, v, "an empty list of values");
    }
    ax->val = vxg_alloc(&L->s->al, sizeof *ax->val * (size_t)v->nchild);
    if (!ax->val) {
      return nomem(L);
    }
    for (const vxg_sexp *c = v->child; c; c = c->next) {
      if (c->kind != VXG_SEXP_NUMBER) {
        return fail(L, c, "a list of values holds numbers only");
      }
      ax->val[ax->nval++] = c->num;
    }
    return 0;
  }
  ax->lo = v->num;
  ax->hi = v->next->num;
  const vxg_sexp *cn = v->next->next;
  if (!is_int(cn->num, 1, (double)MAX_CASES)) {
    return fail(L, cn, "COUNT must be an integer from 1 to 1e7 (got %s)", cn->text);
  }
  ax->count = (int)cn->num;
  return 0;
}


static int parse_outputs(loader *L, const vxg_sexp *form) {
  vxc_sweep *s = L->s;
  for (const vxg_sexp *c = form->child->next; c; c = c->next) {
    const char *w = c->kind == VXG_SEXP_LIST ? head(c) : word(c);
    int k = field(w, out_names, OUT_N);
    if (k < 0) {
      char list[400];
      join(list, sizeof list, out_names, OUT_N);
      return fail(L, c, "unknown output '%s' (outputs: %s)", w ? w : c->text ? c->text : "(", list);
    }
    double tol = 1e-3;
    if (c->kind == VXG_SEXP_LIST) {
      const vxg_sexp *t = c->child->next;
      if (k != OUT_INSERTED || !t || t->kind != VXG_SEXP_NUMBER || t->next || !(t->num > 0)) {
        return fail(L, c,
                    k == OUT_INSERTED ? "expected (inserted TOL), TOL > 0 (m)"
                                      : "only inserted takes a value: (inserted TOL)");
      }
      tol = t->num;
    }
    if ((k == OUT_DEPTH || k == OUT_INSERTED) && !s->driven) {
      return fail(L, c, "output '%s' needs a driven body with keyframes in the task", w);
    }
    if (k == OUT_WALL) {
      continue; /* times.csv */
    }
    for (int i = 0; i < s->nout; i++) {
      if (s->out[i] == k) {
        return fail(L, c, "output '%s' named twice", w);
      }
    }
    if (s->nout == 64) {
      return fail(L, c, "too many outputs");
    }
    s->out_tol[s->nout] = tol;
    s->out[s->nout++] = k;
  }
  return 0;
}


/* The first driven body with keyframes: its name, keyframe times and heights, and the
 * duration (for depth and inserted). */
static int find_driven(loader *L) {
  vxc_sweep *s = L->s;
  for (const vxg_sexp *f = L->task->child; f; f = f->next) {
    int nkey = 0;
    if (vxci_form_find(TP_TASK, head(f), 0) == TF_BODY && word(nth(f, 0))) {
      nth_form(f, TP_BODY, TF_KEYFRAME, 0, &nkey);
    }
    if (!nkey) {
      continue;
    }
    s->driven = vxg_strdup(&s->al, word(nth(f, 0)));
    if (!s->driven) {
      return nomem(L);
    }
    for (int i = 0; i < nkey && s->nkey < 64; i++) {
      const vxg_sexp *k = nth_form(f, TP_BODY, TF_KEYFRAME, i, NULL);
      s->key_t[s->nkey] = atom_entry(L, nth(k, 0));
      s->key_z[s->nkey] = atom_entry(L, nth(k, 3));
      if (s->key_t[s->nkey] < 0 || s->key_z[s->nkey] < 0) {
        return -1;
      }
      s->nkey++;
    }
    break;
  }
  const vxg_sexp *d = nth_form(L->task, TP_TASK, TF_DURATION, 0, NULL);
  s->dur_entry = d ? atom_entry(L, nth(d, 0)) : -1;
  return d && s->dur_entry < 0 ? -1 : 0;
}


/* The sweep file's forms, each at most once ((set ...) may repeat and is read from top). */
typedef struct sw_forms {
  const vxg_sexp *top; /* (sweep NAME ...) */
  const vxg_sexp *task, *vary, *outputs, *mode;
} sw_forms;


/* Checks the file is one (sweep NAME item...) and sorts its items into F; sets the name. */
static int load_forms(loader *L, const vxg_sexp_doc *doc, sw_forms *F) {
  const vxg_sexp *top = doc->root->child;
  memset(F, 0, sizeof *F);
  F->top = top;
  if (!top || !head(top) || strcmp(head(top), "sweep") || top->next) {
    return fail(L, top ? (top->next ? top->next : top) : doc->root,
                "expected one (sweep NAME ...) form");
  }
  if (!word(nth(top, 0))) {
    return fail(L, top, "(sweep NAME ...): expected a name");
  }
  if (!(L->s->name = vxg_strdup(&L->s->al, word(nth(top, 0))))) {
    return nomem(L);
  }
  for (const vxg_sexp *f = nth(top, 1); f; f = f->next) {
    const char *h = head(f);
    const vxg_sexp **slot = !h                      ? NULL
                            : !strcmp(h, "task")    ? &F->task
                            : !strcmp(h, "vary")    ? &F->vary
                            : !strcmp(h, "outputs") ? &F->outputs
                            : !strcmp(h, "mode")    ? &F->mode
                                                    : NULL;
    if (h && !strcmp(h, "set")) {
      continue;
    }
    if (!slot) {
      return fail(L, f, "(sweep ...): unknown form '%s' (task, vary, set, mode, outputs)",
                  h         ? h
                  : f->text ? f->text
                            : "(");
    }
    if (*slot) {
      return fail(L, f, "(sweep ...): a second (%s ...)", h);
    }
    *slot = f;
  }
  if (!F->task || !F->vary || !F->outputs) {
    return fail(L, top, "(sweep ...): missing (%s ...)",
                !F->task   ? "task"
                : !F->vary ? "vary"
                           : "outputs");
  }
  return 0;
}


/* s->task_path and s->task_dir from (task "FILE.vxt"): FILE relative to base_dir (NULL: the
 * current directory) unless absolute. */
static int task_path(loader *L, const char *base_dir, const vxg_sexp *task) {
  vxc_sweep *s = L->s;
  const vxg_sexp *tp = nth(task, 0);
  if (!word(tp) || tp->next) {
    return fail(L, task, "(task \"FILE.vxt\"): expected one file name");
  }
  const char *dir = base_dir ? base_dir : ".";
  s->task_path = vxg_alloc(&s->al, strlen(dir) + strlen(tp->text) + 2);
  if (!s->task_path) {
    return nomem(L);
  }
  if (tp->text[0] == '/' || !strcmp(dir, ".")) {
    strcpy(s->task_path, tp->text);
  } else {
    sprintf(s->task_path, "%s/%s", dir, tp->text);
  }
  s->task_dir = dir_of(&s->al, s->task_path);
  return s->task_dir ? 0 : nomem(L);
}


/* Reads the task file's text and checks it is a valid task; an error the task reader gives
 * without a position (a file that cannot be read) is placed where the sweep names the file. */
static int read_task(loader *L, const vxg_sexp *task) {
  vxc_sweep *s = L->s;
  vxc_error e2;
  vxc_status st = read_all(&s->al, s->task_path, &s->text, &s->len, &e2);
  if (st == VXC_OK) {
    vxc_task *t = NULL;
    st = vxc_task_parse(s->text, s->len, s->task_path, s->task_dir, &s->al, &t, &e2);
    vxc_task_free(t);
  }
  if (st == VXC_OK) {
    return 0;
  }
  *L->err = e2;
  if (!e2.line) {
    char msg[1100];
    snprintf(msg, sizeof msg, "%s%s%s", e2.file, e2.file[0] ? ": " : "", e2.message);
    vxg_error_set(L->err, st, L->file, task->line, task->column, "task file: %.600s", msg);
  }
  return -1;
}


/* L->line_off: the offset of each line of the task text. */
static int line_offsets(loader *L) {
  const vxc_sweep *s = L->s;
  L->nline = 1;
  for (size_t i = 0; i < s->len; i++) {
    L->nline += s->text[i] == '\n';
  }
  L->line_off = vxg_alloc(&s->al, sizeof *L->line_off * (size_t)L->nline);
  if (!L->line_off) {
    return nomem(L);
  }
  L->line_off[0] = 0;
  for (size_t i = 0, l = 1; i < s->len; i++) {
    if (s->text[i] == '\n') {
      L->line_off[l++] = i + 1;
    }
  }
  return 0;
}


/* One (PATH... VALUE) of a (set ...): a fixed number. */
static int load_set(loader *L, const vxg_sexp *c) {
  vxc_sweep *s = L->s;
  if (c->kind != VXG_SEXP_LIST || c->nchild < 2) {
    return fail(L, c, "(set ...): expected (PATH... VALUE)");
  }
  sw_path P;
  const vxg_sexp *v;
  char name[256];
  sw_op *op = vxg_alloc(&s->al, sizeof *op);
  size_t need = (size_t)s->nset + 1;
  if (!op || vxg_grow(&s->al, (void **)&s->set_op, &s->capset_op, need, sizeof *s->set_op) != 0 ||
      vxg_grow(&s->al, (void **)&s->set_val, &s->capset_val, need, sizeof *s->set_val) != 0) {
    vxg_free(&s->al, op);
    return nomem(L);
  }
  s->set_op[s->nset] = op;
  if (parse_path_values(L, c, 1, &P, &v) < 0 || resolve(L, &P, op, name, sizeof name) < 0) {
    vxg_free(&s->al, op);
    return -1;
  }
  s->set_val[s->nset++] = v->num;
  op_used(s, op);
  return 0;
}


/* Every (set ...) of the sweep, in order. */
static int load_sets(loader *L, const vxg_sexp *top) {
  for (const vxg_sexp *f = nth(top, 1); f; f = f->next) {
    if (!head(f) || strcmp(head(f), "set")) {
      continue;
    }
    for (const vxg_sexp *c = f->child->next; c; c = c->next) {
      if (load_set(L, c) < 0) {
        return -1;
      }
    }
  }
  return 0;
}


/* The (vary axis...) form: 1 to 256 axes, each named once. */
static int load_axes(loader *L, const vxg_sexp *vary) {
  vxc_sweep *s = L->s;
  if (vary->nchild < 2) {
    return fail(L, vary, "(vary ...): expected at least one (PATH... LO HI COUNT)");
  }
  if (vary->nchild - 1 > 256) {
    return fail(L, vary, "(vary ...): at most 256 axes");
  }
  s->axis = vxg_alloc(&s->al, sizeof *s->axis * (size_t)(vary->nchild - 1));
  if (!s->axis) {
    return nomem(L);
  }
  memset(s->axis, 0, sizeof *s->axis * (size_t)(vary->nchild - 1));
  for (const vxg_sexp *c = vary->child->next; c; c = c->next) {
    sw_axis *ax = &s->axis[s->naxis++];
    if (parse_axis(L, c, ax) < 0) {
      return -1;
    }
    for (int a = 0; a < s->naxis - 1; a++) {
      if (!strcmp(s->axis[a].name, ax->name)) {
        return fail(L, c, "'%s' is varied twice", ax->name);
      }
    }
    op_used(s, ax->op);
  }
  return 0;
}


/* A Latin hypercube: per axis, a permutation of the cases drawn from the seed. */
static int latin_perms(loader *L) {
  vxc_sweep *s = L->s;
  for (int a = 0; a < s->naxis; a++) {
    int *p = vxg_alloc(&s->al, sizeof *p * (size_t)s->ncase);
    if (!p) {
      return nomem(L);
    }
    for (long long i = 0; i < s->ncase; i++) {
      p[i] = (int)i;
    }
    uint64_t x = s->seed ^ (0x5851F42D4C957F2DULL * (uint64_t)(a + 1));
    for (long long i = s->ncase - 1; i > 0; i--) {
      long long j = (long long)(splitmix64(&x) % (uint64_t)(i + 1));
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    s->axis[a].perm = p;
  }
  return 0;
}


/* (mode grid | (random N SEED) | (latin N SEED)); grid when absent. */
static int load_mode(loader *L, const vxg_sexp *mode) {
  vxc_sweep *s = L->s;
  s->grid = 1;
  if (!mode) {
    return 0;
  }
  const vxg_sexp *m = nth(mode, 0);
  const char *mh = m && m->kind == VXG_SEXP_LIST ? head(m) : NULL;
  if (m && word(m) && !strcmp(word(m), "grid") && !m->next) {
    return 0;
  }
  if (!mh || (strcmp(mh, "random") && strcmp(mh, "latin")) || m->next || m->nchild != 3) {
    return fail(L, m ? m : mode, "(mode ...): expected grid, (random N SEED) or (latin N SEED)");
  }
  const vxg_sexp *n = nth(m, 0), *seed = nth(m, 1);
  double maxn = !strcmp(mh, "latin") ? (double)MAX_LATIN : (double)MAX_CASES;
  if (n->kind != VXG_SEXP_NUMBER || !is_int(n->num, 1, maxn)) {
    return fail(L, n, "(%s N SEED): N must be an integer from 1 to %g", mh, maxn);
  }
  if (seed->kind != VXG_SEXP_NUMBER || !is_int(seed->num, 0, 9007199254740992.0)) {
    return fail(L, seed, "(%s N SEED): SEED must be an integer from 0 to 2^53", mh);
  }
  s->grid = 0;
  s->ncase = (long long)n->num;
  s->seed = (uint64_t)seed->num;
  return !strcmp(mh, "latin") ? latin_perms(L) : 0;
}


/* A grid's case count: the product of the axes' sizes, at most MAX_CASES. */
static int grid_cases(loader *L, const vxg_sexp *vary) {
  vxc_sweep *s = L->s;
  s->ncase = 1;
  for (int a = 0; a < s->naxis; a++) {
    s->ncase *= vxc_sweep_axis_size(s, a);
    if (s->ncase > MAX_CASES) {
      return fail(L, vary, "the grid has more than 1e7 cases");
    }
  }
  return 0;
}


/* s->order: the sites by offset, ties in creation order (insertion sort: a few dozen sites). */
static int sort_sites(loader *L) {
  vxc_sweep *s = L->s;
  s->order = vxg_alloc(&s->al, sizeof *s->order * (size_t)(s->nsite + 1));
  if (!s->order) {
    return nomem(L);
  }
  for (int i = 0; i < s->nsite; i++) {
    s->order[i] = i;
  }
  for (int i = 1; i < s->nsite; i++) {
    int k = s->order[i], j = i;
    for (; j > 0 && site_cmp_off(&s->order[j - 1], &k, s) > 0; j--) {
      s->order[j] = s->order[j - 1];
    }
    s->order[j] = k;
  }
  return 0;
}


/* The stages once the task's forms are parsed (L->task set). */
static int load_resolved(loader *L, const sw_forms *F) {
  if (line_offsets(L) < 0 || find_driven(L) < 0 || parse_outputs(L, F->outputs) < 0 ||
      load_sets(L, F->top) < 0 || load_axes(L, F->vary) < 0 || load_mode(L, F->mode) < 0) {
    return -1;
  }
  if (L->s->grid && grid_cases(L, F->vary) < 0) {
    return -1;
  }
  return sort_sites(L);
}


static int load(loader *L, const char *base_dir, const vxg_sexp_doc *doc) {
  vxc_sweep *s = L->s;
  sw_forms F;
  if (load_forms(L, doc, &F) < 0 || task_path(L, base_dir, F.task) < 0 ||
      read_task(L, F.task) < 0) {
    return -1;
  }
  vxg_sexp_doc *tdoc = NULL;
  if (vxg_sexp_parse(&s->al, s->text, s->len, s->task_path, &tdoc, L->err) != VXC_OK) {
    return -1;
  }
  L->task = tdoc->root->child;
  int rc = load_resolved(L, &F);
  vxg_sexp_free(tdoc);
  vxg_free(&s->al, L->line_off);
  return rc;
}


/* An empty sweep through `al` (NULL: the C library's). */
static vxc_status sweep_new(const vxc_allocator *al, vxc_sweep **out, vxc_error *err) {
  vxc_allocator def = {NULL, NULL};
  vxc_sweep *s = vxg_alloc(al, sizeof *s);
  if (!s) {
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }
  memset(s, 0, sizeof *s);
  s->al = al ? *al : def;
  *out = s;
  return VXC_OK;
}


/* Reads the sweep text into s, `file` naming it, its task file relative to base_dir. */
static vxc_status sweep_read(vxc_sweep *s, const char *text, size_t len, const char *file,
                             const char *base_dir, vxc_error *err) {
  vxg_sexp_doc *doc = NULL;
  vxc_status st = vxg_sexp_parse(&s->al, text, len, file, &doc, err);
  if (st == VXC_OK) {
    loader L = {s, file, err, NULL, NULL, 0};
    if (load(&L, base_dir, doc) < 0) {
      st = err->status ? err->status : VXC_ERR_FORMAT;
    }
  }
  vxg_sexp_free(doc);
  return st;
}


vxc_status vxc_sweep_load(const char *path, const vxc_allocator *al, vxc_sweep **out,
                          vxc_error *err) {
  vxc_error local;
  if (!err) {
    err = &local;
  }
  memset(err, 0, sizeof *err);
  if (!path || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_sweep_load: path and out needed");
  }
  vxc_sweep *s = NULL;
  vxc_status st = sweep_new(al, &s, err);
  if (st != VXC_OK) {
    return st;
  }
  char *text = NULL, *dir = NULL;
  size_t len = 0;
  st = read_all(&s->al, path, &text, &len, err);
  if (st == VXC_OK && !(dir = dir_of(&s->al, path))) {
    st = vxg_error_set(err, VXC_ERR_NOMEM, path, 0, 0, "out of memory");
  }
  if (st == VXC_OK) {
    st = sweep_read(s, text, len, path, dir, err);
  }
  vxg_free(&s->al, dir);
  vxg_free(&s->al, text);
  if (st != VXC_OK) {
    vxc_sweep_free(s);
    return st;
  }
  *out = s;
  return VXC_OK;
}


vxc_status vxc_sweep_parse(const char *text, size_t len, const char *file, const char *base_dir,
                           const vxc_allocator *al, vxc_sweep **out, vxc_error *err) {
  vxc_error local;
  if (!err) {
    err = &local;
  }
  memset(err, 0, sizeof *err);
  if (!text || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_sweep_parse: text and out needed");
  }
  vxc_sweep *s = NULL;
  vxc_status st = sweep_new(al, &s, err);
  if (st == VXC_OK) {
    st = sweep_read(s, text, len, file ? file : "<sweep>", base_dir, err);
  }
  if (st != VXC_OK) {
    vxc_sweep_free(s);
    return st;
  }
  *out = s;
  return VXC_OK;
}


void vxc_sweep_free(vxc_sweep *s) {
  if (!s) {
    return;
  }
  vxc_allocator al = s->al;
  for (int i = 0; i < s->nsite; i++) {
    vxg_free(&al, s->site[i].owned);
  }
  for (int a = 0; s->axis && a < s->naxis; a++) {
    vxg_free(&al, s->axis[a].op);
    vxg_free(&al, s->axis[a].val);
    vxg_free(&al, s->axis[a].perm);
  }
  for (int i = 0; i < s->nset; i++) {
    vxg_free(&al, s->set_op[i]);
  }
  vxg_free(&al, s->set_op);
  vxg_free(&al, s->set_val);
  vxg_free(&al, s->axis);
  vxg_free(&al, s->site);
  vxg_free(&al, s->order);
  vxg_free(&al, s->orig);
  vxg_free(&al, s->name);
  vxg_free(&al, s->task_path);
  vxg_free(&al, s->task_dir);
  vxg_free(&al, s->text);
  vxg_free(&al, s->driven);
  vxg_free(&al, s);
}


const char *vxc_sweep_name(const vxc_sweep *s) {
  return s ? s->name : NULL;
}


const char *vxc_sweep_task_path(const vxc_sweep *s) {
  return s ? s->task_path : NULL;
}


long long vxc_sweep_case_count(const vxc_sweep *s) {
  return s ? s->ncase : 0;
}


int vxc_sweep_is_grid(const vxc_sweep *s) {
  return s ? s->grid : 0;
}


int vxc_sweep_axis_count(const vxc_sweep *s) {
  return s ? s->naxis : 0;
}


const char *vxc_sweep_axis_name(const vxc_sweep *s, int i) {
  return s && i >= 0 && i < s->naxis ? s->axis[i].name : NULL;
}


int vxc_sweep_axis_size(const vxc_sweep *s, int i) {
  if (!s || i < 0 || i >= s->naxis) {
    return 0;
  }
  if (!s->grid) {
    return 1;
  }
  return s->axis[i].val ? s->axis[i].nval : s->axis[i].count;
}


int vxc_sweep_output_count(const vxc_sweep *s) {
  return s ? s->nout : 0;
}


const char *vxc_sweep_output_name(const vxc_sweep *s, int i) {
  return s && i >= 0 && i < s->nout ? out_names[s->out[i]] : NULL;
}


const char *vxc_sweep_status_name(vxc_sweep_status st) {
  static const char *const n[] = {"completed",       "capped", "energy-error", "limit",
                                  "initial-overlap", "failed", "invalid"};
  return (int)st >= 0 && (int)st <= VXC_SWEEP_INVALID ? n[st] : NULL;
}


/* ---- running a case ------------------------------------------------------------------ */

typedef struct run_rec {
  int body; /* the driven body's index, or -1 */
  double min_z;
} run_rec;


static int on_record(void *ud, const vxc_task_record *r) {
  run_rec *rr = ud;
  if (rr->body >= 0 && rr->body < r->nbody && r->body[rr->body].pose[2] < rr->min_z) {
    rr->min_z = r->body[rr->body].pose[2];
  }
  return 0;
}


/* The lowest height the keyframes command over [0, T]. */
static double commanded_min_z(const vxc_sweep *s, const double *vals) {
  double T = s->dur_entry >= 0 ? vals[s->dur_entry] : 0;
  double m = vals[s->key_z[0]]; /* held before the first keyframe */
  for (int k = 0; k < s->nkey; k++) {
    double tk = vals[s->key_t[k]], zk = vals[s->key_z[k]];
    if (tk <= T) {
      m = fmin(m, zk);
    } else {
      if (k > 0) {
        double t0 = vals[s->key_t[k - 1]], z0 = vals[s->key_z[k - 1]];
        double zt = tk > t0 ? z0 + (zk - z0) * (fmax(T, t0) - t0) / (tk - t0) : zk;
        m = fmin(m, zt);
      }
      break;
    }
  }
  return m;
}


/* How a run ended, from its status and summary. */
static vxc_sweep_status case_status(vxc_status st, const vxc_task_summary *sm) {
  if (st == VXC_OK) {
    return sm->capped_queries > 0 ? VXC_SWEEP_CAPPED : VXC_SWEEP_COMPLETED;
  }
  if (sm->energy_failed) {
    return VXC_SWEEP_ENERGY;
  }
  if (st == VXC_ERR_LIMIT) {
    return VXC_SWEEP_LIMIT;
  }
  for (int c = 0; c < sm->ncontact && st == VXC_ERR_GEOMETRY && sm->t_end == 0; c++) {
    if (sm->contact[c].initial_volume > 0) {
      return VXC_SWEEP_OVERLAP;
    }
  }
  return VXC_SWEEP_FAILED;
}


/* An output over the contacts: the peak of a peak, the sum of impacts, the earliest first
 * contact (-1: none); 0 for an output that is not per contact. */
static double contacts_output(int out, const vxc_task_summary *sm) {
  double v = 0, first = -1;
  for (int c = 0; c < sm->ncontact; c++) {
    const vxc_task_contact_summary *cs = &sm->contact[c];
    switch (out) {
      case OUT_PEAK_FN:
        v = fmax(v, cs->peak_fn);
        break;
      case OUT_PEAK_FT:
        v = fmax(v, cs->peak_ft);
        break;
      case OUT_PEAK_TROLL:
        v = fmax(v, cs->peak_troll);
        break;
      case OUT_PEAK_TSPIN:
        v = fmax(v, cs->peak_tspin);
        break;
      case OUT_IMPACTS:
        v += cs->impacts;
        break;
      case OUT_FIRST_CONTACT:
        if (cs->first >= 0 && (first < 0 || cs->first < first)) {
          first = cs->first;
        }
        break;
      default:
        break;
    }
  }
  return out == OUT_FIRST_CONTACT ? first : v;
}


/* Output k of a run: its summary, the driven body's lowest height and the case's numbers. */
static double case_output(const vxc_sweep *s, int k, const vxc_task_summary *sm, const run_rec *rr,
                          const double *vals) {
  switch (s->out[k]) {
    case OUT_T_END:
      return sm->t_end;
    case OUT_STEPS:
      return (double)sm->steps;
    case OUT_QUERIES:
      return (double)sm->queries;
    case OUT_CAPPED:
      return (double)sm->capped_queries;
    case OUT_ENERGY_ERROR:
      return sm->max_abs_error;
    case OUT_DEPTH:
      return rr->min_z;
    case OUT_INSERTED:
      return rr->min_z <= commanded_min_z(s, vals) + s->out_tol[k] ? 1 : 0;
    default:
      return contacts_output(s->out[k], sm);
  }
}


/* Runs the case's task t, recording the driven body's lowest height, into res and outputs.
 * VXC_OK, or VXC_ERR_NOMEM. */
static vxc_status run_task(const vxc_sweep *s, vxc_task *t, const double *vals, double *outputs,
                           vxc_sweep_result *res) {
  run_rec rr = {-1, INFINITY};
  for (int b = 0; s->driven && b < vxc_task_body_count(t); b++) {
    if (!strcmp(vxc_task_body_name(t, b), s->driven)) {
      rr.body = b;
    }
  }
  vxc_task_summary sm;
  memset(&sm, 0, sizeof sm);
  vxc_status st = vxc_task_run(t, on_record, NULL, &rr, &sm, &res->err);
  res->wall_s = sm.wall_s;
  res->status = case_status(st, &sm);
  if (st == VXC_ERR_NOMEM) {
    return st;
  }
  if (rr.body >= 0 && rr.body < sm.nbody && sm.body[rr.body].pose[2] < rr.min_z) {
    rr.min_z = sm.body[rr.body].pose[2];
  }
  for (int k = 0; k < s->nout; k++) {
    outputs[k] = case_output(s, k, &sm, &rr, vals);
  }
  return VXC_OK;
}


vxc_status vxc_sweep_run_case(const vxc_sweep *s, long long i, long long max_steps,
                              long long max_records, double *outputs, vxc_sweep_result *res,
                              vxc_error *err) {
  static const char fn[] = "vxc_sweep_run_case";
  vxc_status st = check_case(fn, s, i, res, "res", err);
  if (st == VXC_OK && !outputs && s->nout) {
    st = vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: outputs is NULL", fn);
  }
  if (st != VXC_OK) {
    return st;
  }
  memset(res, 0, sizeof *res);
  for (int k = 0; k < s->nout; k++) {
    outputs[k] = NAN;
  }
  char *text = NULL;
  size_t len = 0;
  double *vals = case_entries(s, i);
  if (!vals || case_write(s, vals, &text, &len) != 0) {
    vxg_free(&s->al, vals);
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "%s: out of memory", fn);
  }
  vxc_task *t = NULL;
  st = vxc_task_parse(text, len, s->task_path, s->task_dir, &s->al, &t, &res->err);
  vxg_free(&s->al, text);
  if (st != VXC_OK) {
    res->status = VXC_SWEEP_INVALID;
    st = st == VXC_ERR_NOMEM ? st : VXC_OK;
  } else {
    vxc_task_set_limits(t, max_steps > 0 ? max_steps : VXC_TASK_MAX_STEPS,
                        max_records > 0 ? max_records : VXC_TASK_MAX_RECORDS, NULL);
    st = run_task(s, t, vals, outputs, res);
  }
  vxc_task_free(t);
  vxg_free(&s->al, vals);
  if (st != VXC_OK && err) {
    *err = res->err; /* out of memory: the task reader's or the run's record */
  }
  return st;
}
