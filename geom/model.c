/* model.c: the model-file (.vxm) reader: the grammar of README.md (Model files) on top of sexp.c.
 *
 * Data structures: the text becomes an S-expression document (sexp.h), which is walked once,
 * top-down, into a vxg_solid built with vxg_solid_create / vxg_solid_add_cell /
 * vxg_cell_add_prim / vxg_cell_finish. A `reader` carries what every step needs (allocator,
 * file name for messages, folder for mesh paths, the error record, the solid being built).
 * The walk is iterative where the input decides the depth: a shape's (not ...) / (move ...)
 * wrappers are unwrapped in a loop, composing the moves and the parity of the complements,
 * so the only recursion is the fixed solid -> cell -> shape -> primitive descent.
 *
 * Units: (units U) scales every length the file writes (and its meshes) by rd->unit, metres
 * per unit, as it is read (get_number for lengths, and the half-space's offset, the quadric's
 * linear and constant coefficients and the mesh scale where they are read); the 10 km limit
 * applies to the lengths in metres. The density stays in kg/m^3.
 *
 * Transforms: a list of transforms (t1 t2 ... tn) maps x to tn(...t2(t1(x))): the first is
 * applied to the shape first. Nested moves compose outward: (move A (move B P)) maps a point
 * of P to A(B(x)). Angles are read in degrees and stored in radians.
 *
 * Every error names the file, the line and column of the node it is about (a list's '(' for
 * a whole form, the token for one argument) and what was expected. Errors from the geometry
 * layer (vxg_prim_init, vxg_cell_add_prim, vxg_cell_finish) are re-emitted at the position of
 * the form they are about. On failure everything built so far is freed. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/input.h"
#include "geom/sexp.h"

/* Cells in one solid: each vxg_cell is a fixed-size record of a few tens of KiB, so a file
 * of a few hundred KiB could otherwise ask for gigabytes. */
#define MODEL_MAX_CELLS 10000

/* A mesh file already loaded by this reader: its path (as joined with the model's folder)
 * and scale, and the mesh (borrowed: its cells hold it). */
typedef struct mesh_seen {
  char *path;
  double scale;
  struct vxg_mesh *mesh;
} mesh_seen;

typedef struct reader {
  const vxc_allocator *al;
  const char *file; /* name in messages */
  const char *dir;  /* folder for relative mesh paths */
  vxc_error *err;   /* never NULL */
  vxg_solid *solid; /* being built, owned until returned */
  mesh_seen *seen;  /* mesh files loaded, shared by every cell naming them */
  size_t nseen, capseen;
  double unum, uden; /* metres per length unit of the file, unum / uden: (units U), else 1 */
  const char *uname; /* that unit's name ("m" when the file gives none) */
} reader;


/* A length of the file in metres: v unum / uden, the division last so that a length in mm
 * or cm is the double nearest its value in metres, as if written in metres. `power` is 1
 * for a length, 2 for an area. */
static double to_metres(const reader *rd, double v, int power) {
  return power == 2 ? v * (rd->unum * rd->unum) / (rd->uden * rd->uden)
                    : v * rd->unum / rd->uden;
}

/* Sets the error at node `at` (NULL: no position). Returns `st`. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static vxc_status
fail(reader *rd, vxc_status st, const vxg_sexp *at, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return vxg_error_set(rd->err, st, rd->file, at ? at->line : 0, at ? at->column : 0, "%s", what);
}


static vxc_status fail_nomem(reader *rd) {
  return vxg_error_set(rd->err, VXC_ERR_NOMEM, rd->file, 0, 0, "out of memory");
}


/* The message of an error record without its "file:line:col: " or "file: " prefix. */
static const char *inner_what(const vxc_error *e) {
  const char *m = e->message;
  size_t nf = strlen(e->file);
  if (nf > 0 && strncmp(m, e->file, nf) == 0 && m[nf] == ':') {
    m += nf + 1;
    if (e->line > 0) {
      for (int k = 0; k < 2; k++) {
        while (*m >= '0' && *m <= '9') {
          m++;
        }
        if (*m == ':') {
          m++;
        }
      }
    }
    while (*m == ' ') {
      m++;
    }
  }
  return *m ? m : "invalid";
}


/* A short description of a node for messages: 'word', the number 3, the string "x",
 * (head ...), an empty list. */
static const char *describe(const vxg_sexp *n, char *buf, size_t size) {
  if (!n) {
    snprintf(buf, size, "nothing");
  } else if (n->kind == VXG_SEXP_WORD) {
    snprintf(buf, size, "'%.40s%s'", n->text, strlen(n->text) > 40 ? "..." : "");
  } else if (n->kind == VXG_SEXP_NUMBER) {
    snprintf(buf, size, "the number %.40s", n->text);
  } else if (n->kind == VXG_SEXP_STRING) {
    snprintf(buf, size, "the string \"%.40s%s\"", n->text, strlen(n->text) > 40 ? "..." : "");
  } else if (!n->child) {
    snprintf(buf, size, "an empty list");
  } else if (n->child->kind == VXG_SEXP_WORD) {
    snprintf(buf, size, "(%.40s ...)", n->child->text);
  } else {
    snprintf(buf, size, "a list");
  }
  return buf;
}


/* Edit distance between a and b, or a large number when either is long. */
static int edit_distance(const char *a, const char *b) {
  enum { MAXW = 32 };
  size_t na = strlen(a), nb = strlen(b);
  if (na > MAXW || nb > MAXW) {
    return 1000;
  }
  int prev[MAXW + 1], cur[MAXW + 1];
  for (size_t j = 0; j <= nb; j++) {
    prev[j] = (int)j;
  }
  for (size_t i = 1; i <= na; i++) {
    cur[0] = (int)i;
    for (size_t j = 1; j <= nb; j++) {
      int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      int del = prev[j] + 1, ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
    memcpy(prev, cur, sizeof prev);
  }
  return prev[nb];
}


const char *vxg_nearest_name(const char *word, const char *const *cands, int n) {
  const char *best = NULL;
  int bestd = 3; /* at most two edits */
  for (int i = 0; word && cands && (n < 0 ? cands[i] != NULL : i < n); i++) {
    int d = cands[i] ? edit_distance(word, cands[i]) : 1000;
    if (d < bestd && d < (int)strlen(cands[i])) {
      best = cands[i];
      bestd = d;
    }
  }
  return best;
}


/* The keyword of `cands` (NULL-terminated) closest to `word`, or NULL. */
static const char *closest(const char *word, const char *const *cands) {
  return vxg_nearest_name(word, cands, -1);
}


/* ---------------------------------------------------------------------------------------
 * Atoms: numbers, names, axes. */

typedef enum num_kind {
  NUM_ANY,        /* any finite number */
  NUM_LENGTH,     /* a coordinate or offset, m: |x| <= VXG_MAX_LENGTH */
  NUM_POS_LENGTH, /* a radius or size, m: 0 < x <= VXG_MAX_LENGTH */
  NUM_POSITIVE    /* 0 < x */
} num_kind;

static int is_nan_or_inf_word(const char *s) {
  if (*s == '+' || *s == '-') {
    s++;
  }
  static const char *const words[] = {"nan", "inf", "infinity", NULL};
  for (int i = 0; words[i]; i++) {
    size_t k = 0;
    while (s[k] && words[i][k] && (s[k] | 0x20) == words[i][k]) {
      k++;
    }
    if (!s[k] && !words[i][k]) {
      return 1;
    }
  }
  return 0;
}


/* Reads a number for parameter `what` of `form`. 0, or -1 with the error set. */
static int get_number(reader *rd, const vxg_sexp *n, const char *form, const char *what,
                      num_kind kind, double *out) {
  char d[96];
  if (!n || n->kind != VXG_SEXP_NUMBER) {
    if (n && n->kind == VXG_SEXP_WORD && is_nan_or_inf_word(n->text)) {
      fail(rd, VXC_ERR_FORMAT, n,
           "NaN and infinite numbers are not allowed: expected a finite number for %s of %s, "
           "got %s",
           what, form, describe(n, d, sizeof d));
    } else {
      fail(rd, VXC_ERR_FORMAT, n, "expected a number for %s of %s, got %s", what, form,
           describe(n, d, sizeof d));
    }
    return -1;
  }
  double v = n->num;
  if ((kind == NUM_POS_LENGTH || kind == NUM_POSITIVE) && !(v > 0)) {
    fail(rd, VXC_ERR_FORMAT, n, "%s of %s must be positive, got %s", what, form, n->text);
    return -1;
  }
  if (kind == NUM_LENGTH || kind == NUM_POS_LENGTH) {
    v = to_metres(rd, v, 1);
    if (!(fabs(v) <= VXG_MAX_LENGTH)) {
      fail(rd, VXC_ERR_FORMAT, n, "%s of %s is %s %s, larger than the %g m limit%s", what,
           form, n->text, rd->uname, VXG_MAX_LENGTH,
           rd->uden == 1 && rd->unum == 1 ? " (lengths are in metres unless the file says (units U))" : "");
      return -1;
    }
  }
  *out = v;
  return 0;
}


/* Reads an axis word x, y or z as 0, 1, 2. 0, or -1 with the error set. */
static int get_axis(reader *rd, const vxg_sexp *n, const char *form, int *axis) {
  static const char *const names[] = {"x", "y", "z"};
  for (int i = 0; i < 3; i++) {
    if (vxg_sexp_is_word(n, names[i])) {
      *axis = i;
      return 0;
    }
  }
  char d[96];
  fail(rd, VXC_ERR_FORMAT, n, "expected an axis (x, y or z) for AXIS of %s, got %s", form,
       describe(n, d, sizeof d));
  return -1;
}


/* Copies a NAME (a bare word or a string) of `form` into buf (VXG_NAME_MAX bytes).
 * 0, or -1 with the error set. */
static int get_name(reader *rd, const vxg_sexp *n, const char *form, char *buf) {
  char d[96];
  if (n->kind != VXG_SEXP_WORD && n->kind != VXG_SEXP_STRING) {
    fail(rd, VXC_ERR_FORMAT, n, "expected a name (a word or a \"string\") for %s, got %s", form,
         describe(n, d, sizeof d));
    return -1;
  }
  size_t len = strlen(n->text);
  if (len == 0) {
    fail(rd, VXC_ERR_FORMAT, n, "the name of a %s must not be empty", form);
    return -1;
  }
  if (len >= VXG_NAME_MAX) {
    fail(rd, VXC_ERR_LIMIT, n, "the name of a %s is longer than %d bytes", form, VXG_NAME_MAX - 1);
    return -1;
  }
  memcpy(buf, n->text, len + 1);
  return 0;
}


/* Checks that list `n` has `want` arguments after its keyword. 0, or -1 with the error set. */
static int want_args(reader *rd, const vxg_sexp *n, const char *form, int want, const char *usage) {
  int got = n->nchild - 1;
  if (got != want) {
    fail(rd, VXC_ERR_FORMAT, n, "%s takes %d argument%s (%s %s), got %d", form, want,
         want == 1 ? "" : "s", form, usage, got);
    return -1;
  }
  return 0;
}


/* ---------------------------------------------------------------------------------------
 * Transforms. */

static const char *const xform_words[] = {"translate", "rotate", "quat", NULL};
static const char *const shape_words[] = {"halfspace", "slab", "box",   "sphere",  "ellipsoid",
                                          "cylinder",  "cone", "torus", "quadric", "mesh",
                                          "not",       "move", NULL};

/* cos and sin of an angle in degrees, exact at multiples of 90 degrees (so that a box turned
 * by 90 degrees stays exactly axis-aligned). */
static void cos_sin_deg(double deg, double *c, double *s) {
  double r = fmod(deg, 360.0); /* exact */
  if (r < 0) {
    r += 360.0;
  }
  if (r == 0 || r == 360) {
    *c = 1;
    *s = 0;
  } else if (r == 90) {
    *c = 0;
    *s = 1;
  } else if (r == 180) {
    *c = -1;
    *s = 0;
  } else if (r == 270) {
    *c = 0;
    *s = -1;
  } else {
    double a = r * (M_PI / 180.0);
    *c = cos(a);
    *s = sin(a);
  }
}


/* Rotation about a unit axis k with the given cosine and sine (Rodrigues' formula). */
static void rotation(vxg_xform *x, const double k[3], double c, double s) {
  vxg_xform_identity(x);
  double t = 1 - c, *r = x->r;
  r[0] = c + t * k[0] * k[0];
  r[1] = t * k[0] * k[1] - s * k[2];
  r[2] = t * k[0] * k[2] + s * k[1];
  r[3] = t * k[0] * k[1] + s * k[2];
  r[4] = c + t * k[1] * k[1];
  r[5] = t * k[1] * k[2] - s * k[0];
  r[6] = t * k[0] * k[2] - s * k[1];
  r[7] = t * k[1] * k[2] + s * k[0];
  r[8] = c + t * k[2] * k[2];
}


/* Reads one transform. 0, or -1 with the error set. */
static int parse_xform(reader *rd, const vxg_sexp *n, vxg_xform *out) {
  char d[96];
  const vxg_sexp *head = n->kind == VXG_SEXP_LIST ? n->child : NULL;
  if (!head || head->kind != VXG_SEXP_WORD) {
    fail(rd, VXC_ERR_FORMAT, n, "expected a transform (translate, rotate or quat), got %s",
         describe(n, d, sizeof d));
    return -1;
  }
  const vxg_sexp *a = head->next;
  if (strcmp(head->text, "translate") == 0) {
    double t[3];
    if (want_args(rd, n, "translate", 3, "X Y Z") != 0) {
      return -1;
    }
    static const char *const names[] = {"X", "Y", "Z"};
    for (int i = 0; i < 3; i++, a = a->next) {
      if (get_number(rd, a, "translate", names[i], NUM_LENGTH, &t[i]) != 0) {
        return -1;
      }
    }
    vxg_xform_translation(out, t[0], t[1], t[2]);
    return 0;
  }
  if (strcmp(head->text, "rotate") == 0) {
    double k[3] = {0, 0, 0}, deg, c, s;
    int nargs = n->nchild - 1;
    if (nargs == 2) {
      int axis;
      if (get_axis(rd, a, "rotate", &axis) != 0 ||
          get_number(rd, a->next, "rotate", "DEG", NUM_ANY, &deg) != 0) {
        return -1;
      }
      k[axis] = 1;
    } else if (nargs == 4) {
      static const char *const names[] = {"AX", "AY", "AZ"};
      for (int i = 0; i < 3; i++, a = a->next) {
        if (get_number(rd, a, "rotate", names[i], NUM_ANY, &k[i]) != 0) {
          return -1;
        }
      }
      if (get_number(rd, a, "rotate", "DEG", NUM_ANY, &deg) != 0) {
        return -1;
      }
      /* normalise without overflow: scale by the largest component first */
      double m = fmax(fabs(k[0]), fmax(fabs(k[1]), fabs(k[2])));
      if (!(m > 0)) {
        fail(rd, VXC_ERR_FORMAT, n, "the axis (AX AY AZ) of rotate must not be zero");
        return -1;
      }
      double len =
          sqrt((k[0] / m) * (k[0] / m) + (k[1] / m) * (k[1] / m) + (k[2] / m) * (k[2] / m));
      for (int i = 0; i < 3; i++) {
        k[i] = k[i] / m / len;
      }
    } else {
      fail(rd, VXC_ERR_FORMAT, n,
           "rotate takes 2 arguments (rotate AXIS DEG) or 4 (rotate AX AY AZ DEG), got %d", nargs);
      return -1;
    }
    cos_sin_deg(deg, &c, &s);
    rotation(out, k, c, s);
    return 0;
  }
  if (strcmp(head->text, "quat") == 0) {
    double q[4];
    if (want_args(rd, n, "quat", 4, "W X Y Z") != 0) {
      return -1;
    }
    static const char *const names[] = {"W", "X", "Y", "Z"};
    for (int i = 0; i < 4; i++, a = a->next) {
      if (get_number(rd, a, "quat", names[i], NUM_ANY, &q[i]) != 0) {
        return -1;
      }
    }
    /* scale first so that tiny or huge components still normalise */
    double m = fmax(fmax(fabs(q[0]), fabs(q[1])), fmax(fabs(q[2]), fabs(q[3])));
    if (!(m > 0) || vxg_xform_quat(out, q[0] / m, q[1] / m, q[2] / m, q[3] / m) != 0) {
      fail(rd, VXC_ERR_FORMAT, n, "the quaternion (quat W X Y Z) must not be zero");
      return -1;
    }
    return 0;
  }
  for (int i = 0; shape_words[i]; i++) {
    if (strcmp(head->text, shape_words[i]) == 0) {
      fail(rd, VXC_ERR_FORMAT, head,
           "expected a transform (translate, rotate or quat), got the shape '%s': in "
           "(move XFORM... SHAPE) the shape comes last",
           head->text);
      return -1;
    }
  }
  const char *hint = closest(head->text, xform_words);
  fail(rd, VXC_ERR_FORMAT, head, "unknown transform %s: expected translate, rotate or quat%s%s%s",
       describe(head, d, sizeof d), hint ? " (did you mean '" : "", hint ? hint : "",
       hint ? "'?)" : "");
  return -1;
}


/* Composes `count` transforms starting at `first`, in the order written (the first applies
 * first): out = t_n o ... o t_1. 0, or -1 with the error set. */
static int parse_xform_list(reader *rd, const vxg_sexp *first, int count, vxg_xform *out) {
  vxg_xform acc;
  vxg_xform_identity(&acc);
  const vxg_sexp *n = first;
  for (int i = 0; i < count; i++, n = n->next) {
    vxg_xform x;
    if (parse_xform(rd, n, &x) != 0) {
      return -1;
    }
    vxg_xform_compose(&acc, &x, &acc);
  }
  *out = acc;
  return 0;
}


/* ---------------------------------------------------------------------------------------
 * Primitives and shapes. */

typedef enum arg_kind {
  ARG_COEF,   /* any finite number */
  ARG_LEN,    /* a coordinate, m */
  ARG_POSLEN, /* a positive length, m */
  ARG_AXIS,   /* x, y or z */
  ARG_DEG     /* an angle in degrees, stored in radians */
} arg_kind;

typedef struct prim_spec {
  const char *name;
  vxg_prim_kind kind;
  int nparam;
  const char *usage;
  const char *pname[10];
  arg_kind type[10];
} prim_spec;

static const prim_spec prim_specs[] = {
    {"halfspace",
     VXG_HALFSPACE,
     4,
     "NX NY NZ D",
     {"NX", "NY", "NZ", "D"},
     {ARG_COEF, ARG_COEF, ARG_COEF, ARG_COEF}},
    {"slab", VXG_SLAB, 3, "AXIS LO HI", {"AXIS", "LO", "HI"}, {ARG_AXIS, ARG_LEN, ARG_LEN}},
    {"box", VXG_BOX, 3, "LX LY LZ", {"LX", "LY", "LZ"}, {ARG_POSLEN, ARG_POSLEN, ARG_POSLEN}},
    {"sphere", VXG_SPHERE, 1, "R", {"R"}, {ARG_POSLEN}},
    {"ellipsoid", VXG_ELLIPSOID, 3, "A B C", {"A", "B", "C"}, {ARG_POSLEN, ARG_POSLEN, ARG_POSLEN}},
    {"cylinder", VXG_CYLINDER, 1, "R", {"R"}, {ARG_POSLEN}},
    {"cone", VXG_CONE, 1, "HALF_ANGLE_DEG", {"HALF_ANGLE_DEG"}, {ARG_DEG}},
    {"torus", VXG_TORUS, 2, "R_MAJOR R_MINOR", {"R_MAJOR", "R_MINOR"}, {ARG_POSLEN, ARG_POSLEN}},
    {"quadric",
     VXG_QUADRIC,
     10,
     "A B C D E F G H I J",
     {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"},
     {ARG_COEF, ARG_COEF, ARG_COEF, ARG_COEF, ARG_COEF, ARG_COEF, ARG_COEF, ARG_COEF, ARG_COEF,
      ARG_COEF}},
    {"mesh", VXG_MESH, 1, "\"FILE\" [(scale S)]", {"FILE"}, {ARG_COEF}},
};
enum { NPRIM_SPEC = (int)(sizeof prim_specs / sizeof prim_specs[0]) };


/* Re-emits an error of the geometry layer (`e`) at node `at`, its message prefixed by
 * `what` (NULL: none): VXC_ERR_ARG becomes VXC_ERR_FORMAT (a bad value in the file), other
 * statuses are kept. */
static vxc_status reemit(reader *rd, vxc_status st, const vxg_sexp *at, const char *what,
                         const vxc_error *e) {
  if (st == VXC_ERR_NOMEM) {
    return fail_nomem(rd);
  }
  if (st == VXC_ERR_ARG) {
    st = VXC_ERR_FORMAT;
  }
  if (!what) {
    return fail(rd, st, at, "%s", inner_what(e));
  }
  return fail(rd, st, at, "%s: %s", what, inner_what(e));
}


/* Appends primitive p (read at list n) to the cell; frees p's mesh on failure.
 * 0, or -1 with the error set. */
static int add_prim(reader *rd, vxg_cell *cell, vxg_prim *p, const vxg_sexp *n) {
  vxc_error e;
  e.message[0] = e.file[0] = '\0';
  e.line = 0;
  p->line = n->line;
  p->column = n->column;
  vxc_status st = vxg_cell_add_prim(cell, p, &e);
  if (st != VXC_OK) {
    vxg_mesh_free(p->mesh);
    vxg_free(rd->al, p->mesh_path);
    p->mesh = NULL;
    p->mesh_path = NULL;
    char what[VXG_NAME_MAX + 32];
    snprintf(what, sizeof what, "in cell '%s'", cell->name);
    reemit(rd, st, n, what, &e);
    return -1;
  }
  return 0;
}


/* The mesh this reader loaded from `path` at `scale`, shared (vxg_mesh_share), or NULL. */
static struct vxg_mesh *seen_mesh(reader *rd, const char *path, double scale) {
  for (size_t i = 0; i < rd->nseen; i++) {
    if (rd->seen[i].scale == scale && strcmp(rd->seen[i].path, path) == 0) {
      return vxg_mesh_share(rd->seen[i].mesh);
    }
  }
  return NULL;
}


/* Remembers mesh m loaded from path at scale. 0, or -1 when memory ran out. */
static int seen_add(reader *rd, const char *path, double scale, struct vxg_mesh *m) {
  char *p = vxg_strdup(rd->al, path);
  if (!p || vxg_grow(rd->al, (void **)&rd->seen, &rd->capseen, rd->nseen + 1, sizeof *rd->seen)) {
    vxg_free(rd->al, p);
    return -1;
  }
  rd->seen[rd->nseen++] = (mesh_seen){p, scale, m};
  return 0;
}


static void seen_free(reader *rd) {
  for (size_t i = 0; i < rd->nseen; i++) {
    vxg_free(rd->al, rd->seen[i].path);
  }
  vxg_free(rd->al, rd->seen);
}


/* Reads (mesh "FILE" [(scale S)]) at list n; a file already read at the same scale is not
 * read again, its mesh is shared. 0, or -1 with the error set. */
static int parse_mesh(reader *rd, vxg_cell *cell, const vxg_sexp *n, int complement,
                      const vxg_xform *move) {
  char d[96];
  int nargs = n->nchild - 1;
  if (nargs != 1 && nargs != 2) {
    fail(rd, VXC_ERR_FORMAT, n, "mesh takes 1 or 2 arguments (mesh \"FILE\" [(scale S)]), got %d",
         nargs);
    return -1;
  }
  const vxg_sexp *fnode = n->child->next;
  if (fnode->kind != VXG_SEXP_STRING && fnode->kind != VXG_SEXP_WORD) {
    fail(rd, VXC_ERR_FORMAT, fnode, "expected a file name (a \"string\") for mesh, got %s",
         describe(fnode, d, sizeof d));
    return -1;
  }
  if (fnode->text[0] == '\0') {
    fail(rd, VXC_ERR_FORMAT, fnode, "the file name of a mesh must not be empty");
    return -1;
  }
  double scale = 1; /* file coordinates to the model's units, then to metres below */
  const vxg_sexp *sn = fnode->next;
  if (sn) {
    if (sn->kind != VXG_SEXP_LIST || !vxg_sexp_is_word(sn->child, "scale")) {
      fail(rd, VXC_ERR_FORMAT, sn, "expected (scale S) after the mesh file name, got %s",
           describe(sn, d, sizeof d));
      return -1;
    }
    if (want_args(rd, sn, "scale", 1, "S") != 0 ||
        get_number(rd, sn->child->next, "scale", "S", NUM_POSITIVE, &scale) != 0) {
      return -1;
    }
  }
  scale = to_metres(rd, scale, 1);
  /* the path is relative to the model file's folder unless absolute */
  const char *dir = rd->dir ? rd->dir : ".";
  int absolute = fnode->text[0] == '/';
  size_t nd = absolute ? 0 : strlen(dir) + 1, nf = strlen(fnode->text);
  char *path = vxg_alloc(rd->al, nd + nf + 1);
  if (!path) {
    fail_nomem(rd);
    return -1;
  }
  if (!absolute) {
    memcpy(path, dir, nd - 1);
    path[nd - 1] = '/';
  }
  memcpy(path + nd, fnode->text, nf + 1);
  struct vxg_mesh *mesh = seen_mesh(rd, path, scale);
  vxc_error e;
  e.message[0] = e.file[0] = '\0';
  e.line = 0;
  vxc_status st = VXC_OK;
  if (!mesh) {
    st = vxg_mesh_load(rd->al, path, scale, &mesh, &e);
    if (st == VXC_OK && seen_add(rd, path, scale, mesh) != 0) {
      vxg_mesh_free(mesh);
      st = VXC_ERR_NOMEM;
    }
  }
  if (st != VXC_OK) {
    if (st == VXC_ERR_NOMEM) {
      fail_nomem(rd);
    } else if (e.line > 0) {
      *rd->err = e; /* about a position in the mesh file: keep it */
    } else {
      fail(rd, st, fnode, "mesh \"%s\": %s", path, inner_what(&e));
    }
    vxg_free(rd->al, path);
    return -1;
  }
  vxg_prim p;
  memset(&p, 0, sizeof p);
  st = vxg_prim_init(&p, VXG_MESH, &scale, 1, complement, move, &e);
  if (st != VXC_OK) {
    vxg_mesh_free(mesh);
    vxg_free(rd->al, path);
    reemit(rd, st, n, "invalid mesh", &e);
    return -1;
  }
  p.mesh = mesh;
  p.mesh_path = path;
  return add_prim(rd, cell, &p, n);
}


/* Reads a primitive (list n, keyword of `spec`). 0, or -1 with the error set. */
static int parse_prim(reader *rd, vxg_cell *cell, const vxg_sexp *n, const prim_spec *spec,
                      int complement, const vxg_xform *move) {
  if (spec->kind == VXG_MESH) {
    return parse_mesh(rd, cell, n, complement, move);
  }
  if (want_args(rd, n, spec->name, spec->nparam, spec->usage) != 0) {
    return -1;
  }
  double param[10];
  const vxg_sexp *a = n->child->next;
  for (int i = 0; i < spec->nparam; i++, a = a->next) {
    const char *pn = spec->pname[i];
    int r = 0;
    switch (spec->type[i]) {
      case ARG_COEF:
        r = get_number(rd, a, spec->name, pn, NUM_ANY, &param[i]);
        break;
      case ARG_LEN:
        r = get_number(rd, a, spec->name, pn, NUM_LENGTH, &param[i]);
        break;
      case ARG_POSLEN:
        r = get_number(rd, a, spec->name, pn, NUM_POS_LENGTH, &param[i]);
        break;
      case ARG_AXIS: {
        int axis = 0;
        r = get_axis(rd, a, spec->name, &axis);
        param[i] = axis;
        break;
      }
      case ARG_DEG: {
        double deg = 0;
        r = get_number(rd, a, spec->name, pn, NUM_ANY, &deg);
        if (r == 0 && !(deg > 0 && deg < 90)) {
          fail(rd, VXC_ERR_FORMAT, a,
               "%s of %s must be between 0 and 90 degrees (exclusive), got %s", pn, spec->name,
               a->text);
          r = -1;
        }
        param[i] = deg * (M_PI / 180.0);
        break;
      }
    }
    if (r != 0) {
      return -1;
    }
  }
  if (spec->kind == VXG_HALFSPACE) { /* the offset is a length; the normal a direction */
    param[3] = to_metres(rd, param[3], 1);
  } else if (spec->kind == VXG_QUADRIC) { /* f(x / u) u^2: linear terms by u, J by u^2 */
    for (int i = 6; i < 9; i++) {
      param[i] = to_metres(rd, param[i], 1);
    }
    param[9] = to_metres(rd, param[9], 2);
  }
  /* checks whose message is clearer here, at the argument, than after vxg_prim_init */
  const vxg_sexp *args = n->child->next;
  if (spec->kind == VXG_SLAB && !(param[1] < param[2])) {
    fail(rd, VXC_ERR_FORMAT, args->next->next, "slab needs LO < HI, got LO = %s, HI = %s",
         args->next->text, args->next->next->text);
    return -1;
  }
  if (spec->kind == VXG_HALFSPACE) {
    double m = fmax(fabs(param[0]), fmax(fabs(param[1]), fabs(param[2])));
    if (!(m > 0)) {
      fail(rd, VXC_ERR_FORMAT, n, "the normal (NX NY NZ) of halfspace must not be zero");
      return -1;
    }
    double len = m * sqrt((param[0] / m) * (param[0] / m) + (param[1] / m) * (param[1] / m) +
                          (param[2] / m) * (param[2] / m));
    if (!(fabs(param[3]) / len <= VXG_MAX_LENGTH)) {
      const vxg_sexp *dn = args->next->next->next;
      fail(rd, VXC_ERR_FORMAT, dn,
           "the offset D / |N| of halfspace is %g m, larger than the %g m limit (lengths are "
           "in metres)",
           fabs(param[3]) / len, VXG_MAX_LENGTH);
      return -1;
    }
  }
  vxg_prim p;
  memset(&p, 0, sizeof p);
  vxc_error e;
  e.message[0] = e.file[0] = '\0';
  e.line = 0;
  vxc_status st = vxg_prim_init(&p, spec->kind, param, spec->nparam, complement, move, &e);
  if (st != VXC_OK) {
    char what[64];
    snprintf(what, sizeof what, "invalid %s", spec->name);
    reemit(rd, st, n, what, &e);
    return -1;
  }
  return add_prim(rd, cell, &p, n);
}


/* Reads a shape: a primitive, (not SHAPE) or (move XFORM... SHAPE), nested in any order,
 * and appends its primitive to the cell. 0, or -1 with the error set. */
static int parse_shape(reader *rd, vxg_cell *cell, const vxg_sexp *n) {
  char d[96];
  int complement = 0;
  vxg_xform move;
  vxg_xform_identity(&move);
  for (;;) {
    if (n->kind != VXG_SEXP_LIST || !n->child) {
      fail(rd, VXC_ERR_FORMAT, n,
           "expected a shape (a primitive, (not SHAPE) or (move XFORM... SHAPE)), got %s",
           describe(n, d, sizeof d));
      return -1;
    }
    const vxg_sexp *head = n->child;
    if (head->kind != VXG_SEXP_WORD) {
      fail(rd, VXC_ERR_FORMAT, head, "expected the keyword of a shape, got %s",
           describe(head, d, sizeof d));
      return -1;
    }
    if (strcmp(head->text, "not") == 0) {
      if (n->nchild != 2) {
        fail(rd, VXC_ERR_FORMAT, n, "not takes exactly one shape (not SHAPE), got %d",
             n->nchild - 1);
        return -1;
      }
      complement = !complement;
      n = head->next;
      continue;
    }
    if (strcmp(head->text, "move") == 0) {
      if (n->nchild < 2) {
        fail(rd, VXC_ERR_FORMAT, n, "move needs a shape: (move XFORM... SHAPE)");
        return -1;
      }
      const vxg_sexp *last = head->next;
      while (last->next) {
        last = last->next;
      }
      vxg_xform inner;
      if (parse_xform_list(rd, head->next, n->nchild - 2, &inner) != 0) {
        return -1;
      }
      /* the shape inside is moved by `inner` first, then by the moves around it */
      vxg_xform_compose(&move, &move, &inner);
      n = last;
      continue;
    }
    for (int i = 0; i < NPRIM_SPEC; i++) {
      if (strcmp(head->text, prim_specs[i].name) == 0) {
        return parse_prim(rd, cell, n, &prim_specs[i], complement, &move);
      }
    }
    for (int i = 0; xform_words[i]; i++) {
      if (strcmp(head->text, xform_words[i]) == 0) {
        fail(rd, VXC_ERR_FORMAT, head,
             "'%s' is a transform, not a shape: write (move (%s ...) SHAPE)", head->text,
             head->text);
        return -1;
      }
    }
    if (strcmp(head->text, "pose") == 0) {
      fail(rd, VXC_ERR_FORMAT, head,
           "(pose ...) must be the last item of a cell, not inside "
           "a shape");
      return -1;
    }
    const char *hint = closest(head->text, shape_words);
    fail(rd, VXC_ERR_FORMAT, head,
         "unknown primitive %s: expected halfspace, slab, box, sphere, ellipsoid, cylinder, "
         "cone, torus, quadric, mesh, not or move%s%s%s",
         describe(head, d, sizeof d), hint ? " (did you mean '" : "", hint ? hint : "",
         hint ? "'?)" : "");
    return -1;
  }
}


/* ---------------------------------------------------------------------------------------
 * Cells and the solid. */

/* Reads (cell NAME shape... [(pose xform...)]) at list n. 0, or -1 with the error set. */
static int parse_cell(reader *rd, const vxg_sexp *n) {
  vxg_solid *s = rd->solid;
  const vxg_sexp *nn = n->child->next;
  if (!nn) {
    fail(rd, VXC_ERR_FORMAT, n, "cell needs a name: (cell NAME SHAPE... [(pose XFORM...)])");
    return -1;
  }
  char name[VXG_NAME_MAX];
  if (get_name(rd, nn, "cell", name) != 0) {
    return -1;
  }
  for (int i = 0; i < s->ncell; i++) {
    if (strcmp(s->cell[i]->name, name) == 0) {
      fail(rd, VXC_ERR_GEOMETRY, nn,
           "duplicate cell name '%s' (the first cell of that name is at line %d, column %d)", name,
           s->cell[i]->line, s->cell[i]->column);
      return -1;
    }
  }
  if (s->ncell >= MODEL_MAX_CELLS) {
    fail(rd, VXC_ERR_LIMIT, n, "too many cells in one solid (more than %d)", MODEL_MAX_CELLS);
    return -1;
  }
  /* the pose, if any, is the last item; every other item is a shape */
  vxg_xform pose;
  vxg_xform_identity(&pose);
  int nshape = 0;
  for (const vxg_sexp *it = nn->next; it; it = it->next) {
    if (it->kind == VXG_SEXP_LIST && vxg_sexp_is_word(it->child, "pose")) {
      if (it->next) {
        fail(rd, VXC_ERR_FORMAT, it, "(pose ...) must be the last item of cell '%s'", name);
        return -1;
      }
      if (parse_xform_list(rd, it->child->next, it->nchild - 1, &pose) != 0) {
        return -1;
      }
    } else {
      nshape++;
    }
  }
  if (nshape == 0) {
    fail(rd, VXC_ERR_GEOMETRY, n, "cell '%s' has no shapes (it would be all of space)", name);
    return -1;
  }
  vxg_cell *c = NULL;
  vxc_error e;
  e.message[0] = e.file[0] = '\0';
  e.line = 0;
  vxc_status st = vxg_solid_add_cell(s, name, &pose, &c, &e);
  if (st != VXC_OK) {
    reemit(rd, st == VXC_ERR_ARG ? VXC_ERR_GEOMETRY : st, nn, "cell", &e);
    return -1;
  }
  c->line = n->line;
  c->column = n->column;
  for (const vxg_sexp *it = nn->next; it; it = it->next) {
    if (it->kind == VXG_SEXP_LIST && vxg_sexp_is_word(it->child, "pose")) {
      continue;
    }
    if (parse_shape(rd, c, it) != 0) {
      return -1;
    }
  }
  st = vxg_cell_finish(c, rd->file, &e);
  if (st != VXC_OK) {
    /* its message names the cell already; name it when it does not */
    char what[VXG_NAME_MAX + 16];
    snprintf(what, sizeof what, "cell '%s'", name);
    reemit(rd, st == VXC_ERR_ARG ? VXC_ERR_GEOMETRY : st, n,
           strstr(inner_what(&e), what) ? NULL : what, &e);
    return -1;
  }
  return 0;
}


/* Reads the (units U) item among the solid's items from `first` on, if any, into rd (before
 * any cell is read, wherever it is written). 0, or -1 with the error set. */
static int parse_units(reader *rd, const vxg_sexp *first) {
  static const struct {
    const char *name;
    double num, den; /* metres per unit, num / den */
  } units[] = {{"m", 1, 1}, {"cm", 1, 100}, {"mm", 1, 1000}, {"in", 254, 10000}};
  static const char *const names[] = {"m", "cm", "mm", "in", NULL};
  const vxg_sexp *given = NULL;
  for (const vxg_sexp *it = first; it; it = it->next) {
    if (it->kind != VXG_SEXP_LIST || !vxg_sexp_is_word(it->child, "units")) {
      continue;
    }
    if (given) {
      fail(rd, VXC_ERR_FORMAT, it, "units are given twice (first at line %d, column %d)",
           given->line, given->column);
      return -1;
    }
    given = it;
    if (want_args(rd, it, "units", 1, "m|cm|mm|in") != 0) {
      return -1;
    }
    const vxg_sexp *u = it->child->next;
    int k = 0;
    while (k < 4 && !vxg_sexp_is_word(u, names[k])) {
      k++;
    }
    if (k == 4) {
      char d[96];
      const char *hint = u->kind == VXG_SEXP_WORD ? closest(u->text, names) : NULL;
      fail(rd, VXC_ERR_FORMAT, u, "unknown unit %s: expected m, cm, mm or in%s%s%s",
           describe(u, d, sizeof d), hint ? " (did you mean '" : "", hint ? hint : "",
           hint ? "'?)" : "");
      return -1;
    }
    rd->unum = units[k].num;
    rd->uden = units[k].den;
    rd->uname = units[k].name;
    rd->solid->unit = units[k].num / units[k].den;
  }
  return 0;
}


/* Reads the solid of a document into rd->solid. 0, or -1 with the error set (the caller
 * frees rd->solid). */
static int parse_solid(reader *rd, const vxg_sexp_doc *doc) {
  char d[96];
  const vxg_sexp *top = doc->root->child;
  if (!top) {
    vxg_error_set(rd->err, VXC_ERR_FORMAT, rd->file, doc->end_line, doc->end_column,
                  "empty model file: expected (solid NAME ITEM...)");
    return -1;
  }
  const vxg_sexp *head = top->kind == VXG_SEXP_LIST ? top->child : NULL;
  if (!vxg_sexp_is_word(head, "solid")) {
    static const char *const solid_word[] = {"solid", NULL};
    const char *hint = head && head->kind == VXG_SEXP_WORD ? closest(head->text, solid_word) : NULL;
    fail(rd, VXC_ERR_FORMAT, head && head->kind == VXG_SEXP_WORD ? head : top,
         "expected (solid NAME ITEM...), got %s%s", describe(top, d, sizeof d),
         hint ? " (did you mean 'solid'?)" : "");
    return -1;
  }
  const vxg_sexp *nn = head->next;
  if (!nn) {
    fail(rd, VXC_ERR_FORMAT, top, "solid needs a name: (solid NAME ITEM...)");
    return -1;
  }
  char name[VXG_NAME_MAX];
  if (get_name(rd, nn, "solid", name) != 0) {
    return -1;
  }
  if (vxg_solid_create(rd->al, name, &rd->solid) != VXC_OK) {
    rd->solid = NULL;
    fail_nomem(rd);
    return -1;
  }
  if (parse_units(rd, nn->next) != 0) {
    return -1;
  }
  const vxg_sexp *density = NULL;
  for (const vxg_sexp *it = nn->next; it; it = it->next) {
    const vxg_sexp *ih = it->kind == VXG_SEXP_LIST ? it->child : NULL;
    if (vxg_sexp_is_word(ih, "units")) {
      continue; /* read by parse_units */
    }
    if (vxg_sexp_is_word(ih, "density")) {
      if (density) {
        fail(rd, VXC_ERR_FORMAT, it, "density is given twice (first at line %d, column %d)",
             density->line, density->column);
        return -1;
      }
      density = it;
      if (want_args(rd, it, "density", 1, "RHO") != 0 ||
          get_number(rd, ih->next, "density", "RHO", NUM_POSITIVE, &rd->solid->density) != 0) {
        return -1;
      }
    } else if (vxg_sexp_is_word(ih, "cell")) {
      if (parse_cell(rd, it) != 0) {
        return -1;
      }
    } else if (ih && ih->kind == VXG_SEXP_WORD) {
      static const char *const item_words[] = {"density", "cell", "units", NULL};
      int is_shape = 0;
      for (int i = 0; shape_words[i]; i++) {
        is_shape |= strcmp(ih->text, shape_words[i]) == 0;
      }
      const char *hint = closest(ih->text, item_words);
      if (is_shape) {
        fail(rd, VXC_ERR_FORMAT, ih,
             "unknown form '%s' in a solid: a shape belongs inside (cell NAME SHAPE...)", ih->text);
      } else {
        fail(rd, VXC_ERR_FORMAT, ih,
             "unknown form %s in a solid: expected (density RHO), (units U) or (cell NAME "
             "...)%s%s%s",
             describe(ih, d, sizeof d), hint ? " (did you mean '" : "", hint ? hint : "",
             hint ? "'?)" : "");
      }
      return -1;
    } else {
      fail(rd, VXC_ERR_FORMAT, it, "expected (density RHO), (units U) or (cell NAME ...), got %s",
           describe(it, d, sizeof d));
      return -1;
    }
  }
  if (rd->solid->ncell == 0) {
    fail(rd, VXC_ERR_GEOMETRY, top, "solid '%s' has no cells", name);
    return -1;
  }
  if (top->next) {
    fail(rd, VXC_ERR_FORMAT, top->next,
         "unexpected %s after the solid: a model file holds exactly one (solid ...)",
         describe(top->next, d, sizeof d));
    return -1;
  }
  return 0;
}


vxc_status vxg_model_parse(const vxc_allocator *al, const char *buf, size_t len, const char *name,
                           const char *dir, vxg_solid **out, vxc_error *err) {
  vxc_error local;
  reader rd = {al, name ? name : "<input>", dir, err ? err : &local, NULL, NULL, 0, 0, 1, 1, "m"};
  if (!out || (!buf && len > 0)) {
    return vxg_error_set(rd.err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxg_model_parse: out must not be NULL, nor buf when len > 0");
  }
  vxg_sexp_doc *doc = NULL;
  vxc_status st = vxg_sexp_parse(al, buf, len, rd.file, &doc, rd.err);
  if (st != VXC_OK) {
    return st;
  }
  int ok = parse_solid(&rd, doc) == 0;
  seen_free(&rd);
  vxg_sexp_free(doc);
  if (!ok) {
    vxg_solid_free(rd.solid);
    return rd.err->status;
  }
  *out = rd.solid;
  return VXC_OK;
}


vxc_status vxg_model_read(const vxc_allocator *al, const char *path, vxg_solid **out,
                          vxc_error *err) {
  vxc_error local;
  if (!err) {
    err = &local;
  }
  if (!path || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxg_model_read: path and out must not be NULL");
  }
  char *buf = NULL;
  size_t n = 0;
  vxc_status st = vxg_read_file(al, path, VXG_SEXP_MAX_INPUT, "model file", &buf, &n, err);
  if (st != VXC_OK) {
    return st;
  }
  /* mesh paths are relative to the model file's folder */
  const char *slash = strrchr(path, '/');
  size_t nd = slash ? (size_t)(slash - path) : 1;
  if (slash && nd == 0) {
    nd = 1; /* the root folder */
  }
  char *dir = vxg_alloc(al, nd + 1);
  if (!dir) {
    vxg_free(al, buf);
    return vxg_error_set(err, VXC_ERR_NOMEM, path, 0, 0, "out of memory");
  }
  memcpy(dir, slash ? path : ".", nd);
  dir[nd] = '\0';
  vxg_solid *s = NULL;
  st = vxg_model_parse(al, buf, n, path, dir, &s, err);
  vxg_free(al, dir);
  vxg_free(al, buf);
  if (st != VXC_OK) {
    return st;
  }
  s->path = vxg_strdup(al, path);
  if (!s->path) {
    vxg_solid_free(s);
    return vxg_error_set(err, VXC_ERR_NOMEM, path, 0, 0, "out of memory");
  }
  *out = s;
  return VXC_OK;
}
