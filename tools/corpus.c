/* corpus.c: the validation corpus (corpus.h): drawing the cases, their model text, and the
 * two independent reference volumes. */
#include "tools/corpus.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/mesh_gen.h"

/* ---- random numbers and rotations ------------------------------------------------- */

uint64_t cx_splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double cx_uni(uint64_t *s) {
  return (double)(cx_splitmix(s) >> 11) * 0x1.0p-53;
}

static double log_uni(uint64_t *s, double lo, double hi) {
  return lo * pow(hi / lo, cx_uni(s));
}

void cx_qmul(const double a[4], const double b[4], double o[4]) {
  double r[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                 a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                 a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                 a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
  memcpy(o, r, sizeof r);
}

/* v rotated by the unit quaternion q (inverse: the conjugate, inv = 1) */
void cx_qrot(const double q[4], int inv, const double v[3], double o[3]) {
  double w = q[0], x = inv ? -q[1] : q[1], y = inv ? -q[2] : q[2], z = inv ? -q[3] : q[3];
  double t[3] = {2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])};
  o[0] = v[0] + w * t[0] + (y * t[2] - z * t[1]);
  o[1] = v[1] + w * t[1] + (z * t[0] - x * t[2]);
  o[2] = v[2] + w * t[2] + (x * t[1] - y * t[0]);
}

/* A uniform random rotation (Shoemake), or one of the 24 that map axes onto axes. */
void cx_random_rotation(uint64_t *s, int aligned, double q[4]) {
  if (!aligned) {
    double u1 = cx_uni(s), u2 = 2 * M_PI * cx_uni(s), u3 = 2 * M_PI * cx_uni(s);
    q[0] = sqrt(1 - u1) * sin(u2);
    q[1] = sqrt(1 - u1) * cos(u2);
    q[2] = sqrt(u1) * sin(u3);
    q[3] = sqrt(u1) * cos(u3);
    return;
  }
  double r[4] = {1, 0, 0, 0};
  for (int axis = 0; axis < 3; axis++) {
    double h = 0.25 * M_PI * (double)(cx_splitmix(s) % 4), t[4] = {cos(h), 0, 0, 0};
    t[1 + axis] = sin(h);
    cx_qmul(t, r, r);
  }
  memcpy(q, r, sizeof r);
}

static double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ---- the shared mesh ------------------------------------------------------------------ */

static mg_mesh ico;
static double *ico_plane;

int cx_mesh_init(void) {
  if (ico_plane) {
    return 0;
  }
  if (mg_icosphere(&ico, 1.0, 2) != 0) {
    mg_free(&ico);
    return -1;
  }
  ico_plane = malloc(4 * sizeof(double) * (size_t)ico.nt);
  if (!ico_plane) {
    mg_free(&ico);
    return -1;
  }
  for (int t = 0; t < ico.nt; t++) {
    const double *a = ico.v + 3 * ico.t[3 * t], *b = ico.v + 3 * ico.t[3 * t + 1],
                 *c = ico.v + 3 * ico.t[3 * t + 2];
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    double l = sqrt(dot(n, n));
    double *p = ico_plane + 4 * t;
    for (int k = 0; k < 3; k++) {
      p[k] = n[k] / l;
    }
    p[3] = dot(p, a);
  }
  return 0;
}

void cx_mesh_free(void) {
  mg_free(&ico);
  free(ico_plane);
  ico_plane = NULL;
}

/* ---- the shapes: their support points (in the solid frame) and bounds ------------------ */

/* The point of primitive-defined shape s (its first primitive, or a box for tables) that
 * goes furthest along m (solid frame). */
static void support_local(const cx_solid *s, const double m[3], double x[3]) {
  const cx_prim *p = &s->prim[0];
  double mxy = sqrt(m[0] * m[0] + m[1] * m[1]);
  memset(x, 0, 3 * sizeof x[0]);
  switch (p->kind) {
    case CX_SPHERE:
      for (int k = 0; k < 3; k++) {
        x[k] = p->a[0] * m[k];
      }
      break;
    case CX_ELLIPSOID: {
      double n2 = 0;
      for (int k = 0; k < 3; k++) {
        n2 += p->a[k] * p->a[k] * m[k] * m[k];
      }
      for (int k = 0; k < 3; k++) {
        x[k] = p->a[k] * p->a[k] * m[k] / sqrt(n2);
      }
      break;
    }
    case CX_BOX:
      for (int k = 0; k < 3; k++) {
        x[k] = (m[k] >= 0 ? 0.5 : -0.5) * p->a[k];
      }
      break;
    case CX_CYLINDER: /* with its slab, prim[1] */
      if (mxy > 0) {
        x[0] = p->a[0] * m[0] / mxy;
        x[1] = p->a[0] * m[1] / mxy;
      }
      x[2] = m[2] >= 0 ? s->prim[1].a[1] : s->prim[1].a[0];
      break;
    case CX_CONE: { /* apex at off, opening to +z up to the slab's top */
      double H = s->prim[1].a[1] - p->off[2], rho = H * tan(p->a[0] * M_PI / 180);
      double rim[3] = {mxy > 0 ? rho * m[0] / mxy : rho, mxy > 0 ? rho * m[1] / mxy : 0,
                       s->prim[1].a[1]};
      if (dot(rim, m) >= dot(p->off, m)) {
        memcpy(x, rim, sizeof rim);
      } else {
        memcpy(x, p->off, 3 * sizeof x[0]);
      }
      break;
    }
    case CX_TORUS: /* on the core circle toward m's projection, then r along m */
      if (mxy > 0) {
        x[0] = p->a[0] * m[0] / mxy;
        x[1] = p->a[0] * m[1] / mxy;
      }
      for (int k = 0; k < 3; k++) {
        x[k] += p->a[1] * m[k];
      }
      break;
    case CX_POLY: {
      double best = -HUGE_VAL;
      for (int v = 0; v < ico.nv; v++) {
        double y[3] = {p->a[0] * ico.v[3 * v], p->a[0] * ico.v[3 * v + 1],
                       p->a[0] * ico.v[3 * v + 2]};
        if (dot(y, m) > best) {
          best = dot(y, m);
          memcpy(x, y, sizeof y);
        }
      }
      break;
    }
  }
}

/* The same in the world: the support point of solid s along n. */
static void support(const cx_solid *s, const double n[3], double x[3]) {
  double m[3], y[3];
  cx_qrot(s->pose.q, 1, n, m);
  support_local(s, m, y);
  cx_qrot(s->pose.q, 0, y, x);
  for (int k = 0; k < 3; k++) {
    x[k] += s->pose.p[k];
  }
}

static void set_prim(cx_prim *p, int kind, double a0, double a1, double a2) {
  memset(p, 0, sizeof *p);
  p->kind = kind;
  p->a[0] = a0;
  p->a[1] = a1;
  p->a[2] = a2;
}

/* The first solid of a family, of size s, at the origin rotated by q. */
static void make_shape(uint64_t *r, int kind, double s, cx_solid *o) {
  memset(o, 0, sizeof *o);
  o->nprim = 1;
  double u = 0.3 + 0.7 * cx_uni(r), w = 0.3 + 0.7 * cx_uni(r);
  switch (kind) {
    case CX_SPHERE:
      set_prim(&o->prim[0], CX_SPHERE, s, 0, 0);
      o->radius = s;
      break;
    case CX_ELLIPSOID:
      set_prim(&o->prim[0], CX_ELLIPSOID, s, u * s, w * s);
      o->radius = s;
      break;
    case CX_BOX:
      set_prim(&o->prim[0], CX_BOX, s * (0.5 + 1.5 * u), s * (0.5 + 1.5 * w), s);
      o->radius = 0.5 * sqrt(dot(o->prim[0].a, o->prim[0].a));
      break;
    case CX_CYLINDER: {
      double L = s * (0.5 + 2.5 * u);
      set_prim(&o->prim[0], CX_CYLINDER, s, 0, 0);
      set_prim(&o->prim[1], CX_SLAB_Z, -L, L, 0);
      o->nprim = 2;
      o->radius = sqrt(s * s + L * L);
      break;
    }
    case CX_CONE: {
      double ang = 15 + 30 * u, H = s / tan(ang * M_PI / 180);
      set_prim(&o->prim[0], CX_CONE, ang, 0, 0);
      o->prim[0].off[2] = -H / 2;
      set_prim(&o->prim[1], CX_SLAB_Z, -H / 2, H / 2, 0);
      o->nprim = 2;
      o->radius = sqrt(s * s + H * H / 4);
      break;
    }
    case CX_POLY:
      set_prim(&o->prim[0], CX_POLY, s, 0, 0);
      o->prim[0].plane = ico_plane;
      o->prim[0].np = ico.nt;
      o->radius = s;
      break;
    case CX_TORUS:
      set_prim(&o->prim[0], CX_TORUS, s, (0.15 + 0.45 * u) * s, 0);
      o->radius = s + o->prim[0].a[1];
      break;
  }
  o->pose.q[0] = 1;
}

/* ---- drawing a case --------------------------------------------------------------------- */

static const char *const family_name[CX_FAMILIES] = {
    "sphere-table", "ellipsoid-table", "cylinder-table", "cone-table",
    "box-table",    "sphere-sphere",   "ellipsoid-ball", "ball-in-hole",
    "mesh-table",   "torus-table",     "rod-in-hole"};

/* A against a table: B a wide slab-like box whose top is `depth` above A's lowest point. */
static void against_table(cx_case *c) {
  cx_solid *b = &c->s[1];
  double W = 40 * c->s[0].radius, T = c->s[0].radius, down[3] = {0, 0, -1}, low[3];
  memset(b, 0, sizeof *b);
  b->nprim = 1;
  set_prim(&b->prim[0], CX_BOX, W, W, T);
  b->pose.q[0] = 1;
  support(&c->s[0], down, low);
  b->pose.p[0] = low[0] + 0.1 * W * (c->aligned ? 0 : 0.3);
  b->pose.p[1] = low[1];
  b->pose.p[2] = low[2] + c->depth - T / 2;
  b->radius = 0.5 * sqrt(2 * W * W + T * T);
  memcpy(c->p_star, low, sizeof low);
  memcpy(c->dir, down, sizeof down);
}

/* B moved until it overlaps A by `depth` along the unit direction n, under A's support
 * point. */
static void place_along(cx_case *c, const double n[3]) {
  double xa[3], xb[3], m[3] = {-n[0], -n[1], -n[2]};
  support(&c->s[0], n, xa);
  support(&c->s[1], m, xb);
  /* B's support point along -n goes to xa - depth n: below A's support point, so the
     segment between them lies in both */
  for (int k = 0; k < 3; k++) {
    c->s[1].pose.p[k] += xa[k] - c->depth * n[k] - xb[k];
  }
  memcpy(c->p_star, xa, sizeof xa);
  memcpy(c->dir, n, 3 * sizeof n[0]);
}

/* B against A along a random direction (an axis when the case is aligned). */
static void against_shape(uint64_t *r, cx_case *c) {
  double n[3];
  if (c->aligned) {
    memset(n, 0, sizeof n);
    n[cx_splitmix(r) % 3] = (cx_splitmix(r) & 1) ? 1 : -1;
  } else {
    double z = 2 * cx_uni(r) - 1, ph = 2 * M_PI * cx_uni(r);
    n[0] = sqrt(1 - z * z) * cos(ph);
    n[1] = sqrt(1 - z * z) * sin(ph);
    n[2] = z;
  }
  place_along(c, n);
}

/* A block W by W by H through which runs a hole of radius R along z, turned at random (a
 * turn that maps axes onto axes when `aligned`). */
static void holed_block(uint64_t *r, int aligned, double R, double W, double H, cx_solid *blk) {
  memset(blk, 0, sizeof *blk);
  blk->nprim = 2;
  set_prim(&blk->prim[0], CX_BOX, W, W, H);
  set_prim(&blk->prim[1], CX_CYLINDER, R, 0, 0);
  blk->prim[1].complement = 1;
  blk->radius = 0.5 * sqrt(2 * W * W + H * H);
  cx_random_rotation(r, aligned, blk->pose.q);
}

/* A ball of radius r inside a block's cylindrical hole of radius R, pressed `depth` into
 * its wall. */
static void ball_in_hole(uint64_t *r, cx_case *c) {
  double R = c->size, rb = R * (0.3 + 0.5 * cx_uni(r)), W = 4 * R, Hh = 2 * R + 2 * rb;
  double ph = 2 * M_PI * cx_uni(r), zc = (Hh / 2 - rb) * (2 * cx_uni(r) - 1) * 0.8;
  if (c->aligned) {
    ph = 0.5 * M_PI * (double)(cx_splitmix(r) % 4);
  }
  cx_solid *blk = &c->s[1], *ball = &c->s[0];
  holed_block(r, c->aligned, R, W, Hh, blk);
  make_shape(r, CX_SPHERE, rb, ball);
  double e[3] = {cos(ph), sin(ph), 0}, cl[3], pl[3];
  for (int k = 0; k < 3; k++) {
    cl[k] = (R - rb + c->depth) * e[k];
    pl[k] = cl[k] + rb * e[k];
  }
  cl[2] = pl[2] = zc;
  cx_qrot(blk->pose.q, 0, cl, ball->pose.p);
  cx_qrot(blk->pose.q, 0, pl, c->p_star);
  cx_qrot(blk->pose.q, 0, e, c->dir);
}

/* A finite cylinder (radius rr, half-length L) in a block's cylindrical hole of radius R, the
 * clearance R - rr from 0.2% to 10% of R, its axis tilted from the hole's towards the wall
 * it presses by up to 0.9 of the angle at which its upper end would meet the opposite wall
 * (0 when aligned), its lower rim `depth` into the wall (a peg against its bore). */
static void rod_in_hole(uint64_t *r, cx_case *c) {
  double R = c->size, cl = R * (0.002 + 0.098 * cx_uni(r)), rr = R - cl;
  double L = R * (0.5 + 1.5 * cx_uni(r)), W = 4 * R, H = 2 * L + 4 * R;
  double a = c->aligned ? 0 : 0.9 * cx_uni(r) * cl / L;
  double ph = c->aligned ? 0.5 * M_PI * (double)(cx_splitmix(r) % 4) : 2 * M_PI * cx_uni(r);
  double zc = 0.5 * R * (2 * cx_uni(r) - 1);
  cx_solid *blk = &c->s[1], *rod = &c->s[0];
  holed_block(r, c->aligned, R, W, H, blk);
  memset(rod, 0, sizeof *rod);
  rod->nprim = 2;
  set_prim(&rod->prim[0], CX_CYLINDER, rr, 0, 0);
  set_prim(&rod->prim[1], CX_SLAB_Z, -L, L, 0);
  rod->radius = sqrt(rr * rr + L * L);
  /* in the block's frame: e towards the wall pressed, the rod's axis w = cos a z - sin a e
     (a turn by a about e x z), its centre delta e + zc z, its lower rim's point along e
     (the deepest) R + depth from the hole's axis */
  double e[3] = {cos(ph), sin(ph), 0}, m[3] = {e[1], -e[0], 0};
  double qt[4] = {cos(0.5 * a), sin(0.5 * a) * m[0], sin(0.5 * a) * m[1], 0};
  double delta = R + c->depth - L * sin(a) - rr * cos(a), w[3], ctr[3], deep[3];
  for (int k = 0; k < 3; k++) {
    w[k] = (k == 2 ? cos(a) : 0) - sin(a) * e[k];
    ctr[k] = delta * e[k] + (k == 2 ? zc : 0);
    deep[k] = ctr[k] - L * w[k] + rr * (e[k] + sin(a) * w[k]) / cos(a);
  }
  cx_qmul(blk->pose.q, qt, rod->pose.q);
  cx_qrot(blk->pose.q, 0, ctr, rod->pose.p);
  cx_qrot(blk->pose.q, 0, deep, c->p_star);
  cx_qrot(blk->pose.q, 0, e, c->dir);
}

void cx_make(uint64_t seed, int index, cx_case *c) {
  cx_make_family(seed, index, index % CX_FAMILIES, c);
}

void cx_make_family(uint64_t seed, int index, int family, cx_case *c) {
  uint64_t r = seed ^ (0x632be59bd9b4e019ULL * (uint64_t)(index + 1));
  cx_splitmix(&r);
  memset(c, 0, sizeof *c);
  c->family = family;
  c->name = family_name[c->family];
  c->aligned = cx_uni(&r) < 0.4;
  c->size = log_uni(&r, 0.01, 1);
  double rel = log_uni(&r, 1e-5, 1e-1);
  static const int first[CX_FAMILIES] = {CX_SPHERE, CX_ELLIPSOID, CX_CYLINDER,  CX_CONE,
                                         CX_BOX,    CX_SPHERE,    CX_ELLIPSOID, CX_SPHERE,
                                         CX_POLY,   CX_TORUS,     CX_CYLINDER};
  if (c->family == 7) {
    c->depth = rel * c->size * 0.3; /* at most a third of the smallest ball's radius */
    ball_in_hole(&r, c);
    return;
  }
  if (c->family == CX_FAM_ROD) {
    c->depth = rel * c->size * 0.1; /* at most a tenth of the hole's radius */
    rod_in_hole(&r, c);
    return;
  }
  make_shape(&r, first[c->family], c->size, &c->s[0]);
  cx_random_rotation(&r, c->aligned, c->s[0].pose.q);
  c->depth = rel * c->size;
  if (c->family <= 4 || c->family >= 8) {
    against_table(c);
    return;
  }
  make_shape(&r, CX_SPHERE, c->size * (0.3 + 1.7 * cx_uni(&r)), &c->s[1]);
  cx_random_rotation(&r, c->aligned, c->s[1].pose.q);
  c->depth = fmin(c->depth, 0.3 * fmin(c->s[0].radius, c->s[1].radius));
  against_shape(&r, c);
}

/* ---- model text ------------------------------------------------------------------------ */

static int prim_text(const cx_prim *p, char *buf, size_t n) {
  char shape[160];
  switch (p->kind) {
    case CX_SPHERE:
      snprintf(shape, sizeof shape, "(sphere %.17g)", p->a[0]);
      break;
    case CX_ELLIPSOID:
      snprintf(shape, sizeof shape, "(ellipsoid %.17g %.17g %.17g)", p->a[0], p->a[1], p->a[2]);
      break;
    case CX_BOX:
      snprintf(shape, sizeof shape, "(box %.17g %.17g %.17g)", p->a[0], p->a[1], p->a[2]);
      break;
    case CX_CYLINDER:
      snprintf(shape, sizeof shape, "(cylinder %.17g)", p->a[0]);
      break;
    case CX_CONE:
      snprintf(shape, sizeof shape, "(cone %.17g)", p->a[0]);
      break;
    case CX_SLAB_Z:
      snprintf(shape, sizeof shape, "(slab z %.17g %.17g)", p->a[0], p->a[1]);
      break;
    case CX_TORUS:
      snprintf(shape, sizeof shape, "(torus %.17g %.17g)", p->a[0], p->a[1]);
      break;
    default:
      return -1;
  }
  char moved[320];
  snprintf(moved, sizeof moved, "(move (translate %.17g %.17g %.17g) %s)", p->off[0], p->off[1],
           p->off[2], shape);
  int k = snprintf(buf, n, p->complement ? " (not %s)" : " %s", moved);
  return k < 0 || (size_t)k >= n ? -1 : k;
}

static vxc_status solid_of(const cx_solid *s, const char *name, vxc_solid **out, vxc_error *err) {
  if (s->prim[0].kind == CX_POLY) {
    double *v = malloc(3 * sizeof(double) * (size_t)ico.nv);
    if (!v) {
      return VXC_ERR_NOMEM;
    }
    for (int k = 0; k < 3 * ico.nv; k++) {
      v[k] = s->prim[0].a[0] * ico.v[k];
    }
    vxc_status st = vxc_solid_from_mesh(v, ico.nv, ico.t, ico.nt, name, NULL, out, err);
    free(v);
    return st;
  }
  char text[1024];
  size_t len = (size_t)snprintf(text, sizeof text, "(solid %s (cell c", name);
  for (int i = 0; i < s->nprim; i++) {
    int k = prim_text(&s->prim[i], text + len, sizeof text - len);
    if (k < 0) {
      return VXC_ERR_ARG;
    }
    len += (size_t)k;
  }
  if (len + 3 > sizeof text) {
    return VXC_ERR_ARG;
  }
  strcpy(text + len, "))");
  return vxc_solid_parse(text, strlen(text), name, NULL, out, err);
}

vxc_status cx_solids(const cx_case *c, vxc_solid **a, vxc_solid **b, vxc_error *err) {
  *a = *b = NULL;
  vxc_status st = solid_of(&c->s[0], "a", a, err);
  if (st == VXC_OK) {
    st = solid_of(&c->s[1], "b", b, err);
  }
  if (st != VXC_OK) {
    vxc_solid_free(*a);
    *a = NULL;
  }
  return st;
}

/* ---- chords: a ray's intervals inside a solid ------------------------------------------ */

#define CX_MAX_IV 8

typedef struct ivset {
  int n;
  double lo[CX_MAX_IV], hi[CX_MAX_IV];
} ivset;

static void iv_add(ivset *s, double lo, double hi) {
  if (hi > lo && s->n < CX_MAX_IV) {
    s->lo[s->n] = lo;
    s->hi[s->n++] = hi;
  }
}

static void iv_and(ivset *a, const ivset *b) {
  ivset r = {0};
  for (int i = 0, j = 0; i < a->n && j < b->n;) {
    iv_add(&r, fmax(a->lo[i], b->lo[j]), fmin(a->hi[i], b->hi[j]));
    if (a->hi[i] < b->hi[j]) {
      i++;
    } else {
      j++;
    }
  }
  *a = r;
}

static void iv_not(ivset *a, double t0, double t1) {
  ivset r = {0};
  double at = t0;
  for (int i = 0; i < a->n; i++) {
    iv_add(&r, at, a->lo[i]);
    at = a->hi[i];
  }
  iv_add(&r, at, t1);
  *a = r;
}

/* {t in [t0, t1] : A t^2 + B t + C <= 0} */
static void iv_quadratic(double A, double B, double C, double t0, double t1, ivset *o) {
  o->n = 0;
  double scale = fabs(A) * (fabs(t0) + fabs(t1)) + fabs(B);
  if (fabs(A) * (t1 - t0) <= 1e-15 * scale || A == 0) {
    if (B == 0) {
      iv_add(o, C <= 0 ? t0 : t1, t1);
    } else if (B > 0) {
      iv_add(o, t0, fmin(t1, -C / B));
    } else {
      iv_add(o, fmax(t0, -C / B), t1);
    }
    return;
  }
  double disc = B * B - 4 * A * C;
  if (disc < 0) {
    iv_add(o, A < 0 ? t0 : t1, t1);
    return;
  }
  double q = -0.5 * (B + copysign(sqrt(disc), B)), r1 = q / A, r2 = q != 0 ? C / q : r1;
  if (r1 > r2) {
    double t = r1;
    r1 = r2;
    r2 = t;
  }
  if (A > 0) {
    iv_add(o, fmax(t0, r1), fmin(t1, r2));
  } else {
    iv_add(o, t0, fmin(t1, r1));
    iv_add(o, fmax(t0, r2), t1);
  }
}

/* the half-line {n . (o + t d) <= h} within [t0, t1] */
static void iv_and_plane(ivset *s, const double n[3], double h, const double o[3],
                         const double d[3], double t0, double t1) {
  ivset p;
  iv_quadratic(0, dot(n, d), dot(n, o) - h, t0, t1, &p);
  iv_and(s, &p);
}

/* c[0] + c[1] t + ... + c[n] t^n */
static double poly_at(const double *c, int n, double t) {
  double v = c[n];
  for (int k = n - 1; k >= 0; k--) {
    v = v * t + c[k];
  }
  return v;
}

/* The root of the polynomial c (degree n, derivative dc) in [a, b], where its signs at the
 * ends differ and it is monotone: Newton's steps kept inside the shrinking bracket, else
 * bisection, down to the last bits. */
static double monotone_root(const double *c, const double *dc, int n, double a, double b) {
  double fa = poly_at(c, n, a), x = 0.5 * (a + b);
  for (int it = 0; it < 200; it++) {
    double fx = poly_at(c, n, x);
    if (fx == 0) {
      return x;
    }
    if ((fx < 0) == (fa < 0)) {
      a = x;
      fa = fx;
    } else {
      b = x;
    }
    if (b - a <= 4 * DBL_EPSILON * fmax(fabs(a), fabs(b))) {
      break;
    }
    double d = poly_at(dc, n - 1, x), nx = d != 0 ? x - fx / d : a;
    x = nx > a && nx < b ? nx : 0.5 * (a + b);
  }
  return x;
}

/* The roots of the polynomial c of degree n <= 4 in [t0, t1], ascending, into r (returns
 * their count): between consecutive roots of its derivative (found the same way, down to a
 * quadratic's closed form) it is monotone, and each sign change there holds one root. */
static int poly_roots(const double *c, int n, double t0, double t1, double *r) {
  double ends[6], dc[4] = {0, 0, 0, 0};
  int ne = 0;
  ends[ne++] = t0;
  for (int k = 1; k <= n; k++) {
    dc[k - 1] = k * c[k];
  }
  if (n >= 2) {
    double dr[4];
    int nd = poly_roots(dc, n - 1, t0, t1, dr);
    for (int k = 0; k < nd; k++) {
      ends[ne++] = dr[k];
    }
  }
  ends[ne++] = t1;
  int nr = 0;
  for (int k = 0; k + 1 < ne; k++) {
    double a = ends[k], b = ends[k + 1], fa = poly_at(c, n, a), fb = poly_at(c, n, b);
    if (fa == 0) {
      if (nr == 0 || r[nr - 1] != a) {
        r[nr++] = a;
      }
    } else if ((fa < 0) != (fb < 0)) {
      r[nr++] = monotone_root(c, dc, n, a, b);
    }
  }
  return nr;
}

/* {t in [t0, t1] : o + t d in the solid torus of radii R > r about z}: where the quartic
 * (|x|^2 + R^2 - r^2)^2 - 4 R^2 (x^2 + y^2), the product of ((rho - R)^2 + z^2 - r^2) and a
 * factor positive for R > r, is <= 0. */
static void iv_torus(double R, double r, const double o[3], const double d[3], double t0,
                     double t1, ivset *s) {
  double q[3] = {dot(o, o) + R * R - r * r, 2 * dot(o, d), dot(d, d)};
  double w[3] = {o[0] * o[0] + o[1] * o[1], 2 * (o[0] * d[0] + o[1] * d[1]),
                 d[0] * d[0] + d[1] * d[1]};
  double c[5] = {q[0] * q[0] - 4 * R * R * w[0], 2 * q[0] * q[1] - 4 * R * R * w[1],
                 q[1] * q[1] + 2 * q[0] * q[2] - 4 * R * R * w[2], 2 * q[1] * q[2],
                 q[2] * q[2]};
  double rt[8], at = t0;
  int nr = poly_roots(c, 4, t0, t1, rt);
  s->n = 0;
  for (int k = 0; k <= nr; k++) {
    double b = k < nr ? rt[k] : t1;
    if (b > at && poly_at(c, 4, 0.5 * (at + b)) <= 0) {
      iv_add(s, at, b);
    }
    at = b;
  }
}

static void prim_intervals(const cx_prim *p, const double o[3], const double d[3], double t0,
                           double t1, ivset *s) {
  s->n = 0;
  iv_add(s, t0, t1);
  static const double ax[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  static const double mx[3][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
  const double *a = p->a;
  switch (p->kind) {
    case CX_SPHERE:
      iv_quadratic(dot(d, d), 2 * dot(o, d), dot(o, o) - a[0] * a[0], t0, t1, s);
      break;
    case CX_ELLIPSOID: {
      double os[3] = {o[0] / a[0], o[1] / a[1], o[2] / a[2]};
      double ds[3] = {d[0] / a[0], d[1] / a[1], d[2] / a[2]};
      iv_quadratic(dot(ds, ds), 2 * dot(os, ds), dot(os, os) - 1, t0, t1, s);
      break;
    }
    case CX_CYLINDER:
      iv_quadratic(d[0] * d[0] + d[1] * d[1], 2 * (o[0] * d[0] + o[1] * d[1]),
                   o[0] * o[0] + o[1] * o[1] - a[0] * a[0], t0, t1, s);
      break;
    case CX_CONE: {
      double k = pow(tan(a[0] * M_PI / 180), 2);
      iv_quadratic(d[0] * d[0] + d[1] * d[1] - k * d[2] * d[2],
                   2 * (o[0] * d[0] + o[1] * d[1] - k * o[2] * d[2]),
                   o[0] * o[0] + o[1] * o[1] - k * o[2] * o[2], t0, t1, s);
      iv_and_plane(s, mx[2], 0, o, d, t0, t1);
      break;
    }
    case CX_BOX:
      for (int k = 0; k < 3; k++) {
        iv_and_plane(s, ax[k], a[k] / 2, o, d, t0, t1);
        iv_and_plane(s, mx[k], a[k] / 2, o, d, t0, t1);
      }
      break;
    case CX_SLAB_Z:
      iv_and_plane(s, ax[2], a[1], o, d, t0, t1);
      iv_and_plane(s, mx[2], -a[0], o, d, t0, t1);
      break;
    case CX_POLY:
      for (int f = 0; f < p->np && s->n; f++) {
        iv_and_plane(s, p->plane + 4 * f, a[0] * p->plane[4 * f + 3], o, d, t0, t1);
      }
      break;
    case CX_TORUS:
      iv_torus(a[0], a[1], o, d, t0, t1, s);
      break;
  }
  if (p->complement) {
    iv_not(s, t0, t1);
  }
}

/* the ray's intervals inside solid s (world ray o + t d) */
static void solid_intervals(const cx_solid *s, const double o[3], const double d[3], double t0,
                            double t1, ivset *out) {
  double rel[3] = {o[0] - s->pose.p[0], o[1] - s->pose.p[1], o[2] - s->pose.p[2]}, os[3], ds[3];
  cx_qrot(s->pose.q, 1, rel, os);
  cx_qrot(s->pose.q, 1, d, ds);
  out->n = 0;
  iv_add(out, t0, t1);
  for (int i = 0; i < s->nprim; i++) {
    const cx_prim *p = &s->prim[i];
    double op[3] = {os[0] - p->off[0], os[1] - p->off[1], os[2] - p->off[2]};
    ivset ps;
    prim_intervals(p, op, ds, t0, t1, &ps);
    iv_and(out, &ps);
  }
}

/* ---- the chord quadrature ---------------------------------------------------------------- */

typedef struct chord_ctx {
  const cx_case *c;
  double e[3][3];      /* e_u, e_v, dir */
  double t0, t1;       /* the rays' span about p_star */
  double u;            /* the outer variable while the inner integral runs */
  double W, fine;      /* the square's half-width, the scan's finest panel */
  int scan;            /* 1: the first pass, over the whole square */
  double lo[2], hi[2]; /* the domain in u and v */
  double inner_tol;
  double box[6]; /* u, v, t ranges where chords were found: lo then hi */
  long evals;
} chord_ctx;

static double chord(chord_ctx *x, double u, double v) {
  double o[3];
  for (int k = 0; k < 3; k++) {
    o[k] = x->c->p_star[k] + u * x->e[0][k] + v * x->e[1][k];
  }
  ivset a, b;
  solid_intervals(&x->c->s[0], o, x->e[2], x->t0, x->t1, &a);
  solid_intervals(&x->c->s[1], o, x->e[2], x->t0, x->t1, &b);
  iv_and(&a, &b);
  x->evals++;
  double len = 0;
  for (int i = 0; i < a.n; i++) {
    len += a.hi[i] - a.lo[i];
  }
  if (a.n) {
    double p[3] = {u, v, a.lo[0]}, q[3] = {u, v, a.hi[a.n - 1]};
    for (int k = 0; k < 3; k++) {
      x->box[k] = fmin(x->box[k], p[k]);
      x->box[3 + k] = fmax(x->box[3 + k], q[k]);
    }
  }
  return len;
}

/* QUADPACK's 15-point Kronrod rule and its embedded 7-point Gauss rule */
static const double xgk[8] = {
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0};
static const double wgk[8] = {
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
static const double wg[4] = {
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

typedef double (*integrand)(chord_ctx *x, double s);
static double inner(chord_ctx *x, double v);

/* a bound on the chords one reference may cost (a few seconds) */
#define CX_MAX_EVALS 200000000L

/* The 15-point Kronrod value *k and the 7-point Gauss value *g of f over [a, b]. */
static void gk15(double (*f)(void *, double), void *ctx, double a, double b, double *k, double *g) {
  double c = 0.5 * (a + b), h = 0.5 * (b - a);
  *k = *g = 0;
  for (int i = 0; i < 8; i++) {
    double y = i < 7 ? f(ctx, c - h * xgk[i]) + f(ctx, c + h * xgk[i]) : f(ctx, c);
    *k += wgk[i] * y;
    if (i % 2 == 1) {
      *g += wg[i / 2] * y;
    }
  }
  *k *= h;
  *g *= h;
}

static double adapt(integrand f, chord_ctx *x, double a, double b, double tol, int depth) {
  double c = 0.5 * (a + b), k, g;
  gk15((double (*)(void *, double))f, x, a, b, &k, &g);
  /* the outer rule's integrand is itself a quadrature, accurate to inner_tol: differences
     below that noise are not refined (x->floor, per unit length; 0 for the inner rule) */
  double floor = f == inner ? 0 : 4 * x->inner_tol * (b - a);
  if (fabs(k - g) <= tol + floor || depth >= 40 || x->evals > CX_MAX_EVALS) {
    return k;
  }
  /* each half gets tol / sqrt(2), not tol / 2: a jump (a flat face's edge) then converges
     too, its panel's error falling as its width while only O(1) panels a level hold it */
  return adapt(f, x, a, c, tol * M_SQRT1_2, depth + 1) +
         adapt(f, x, c, b, tol * M_SQRT1_2, depth + 1);
}

/* [-W, W] cut at 0 and at +-W 2^-k down to `fine`: panels that gather at the contact */
/* The integral of f over [lo, hi]: in the scan (x->scan), panels gathering geometrically at
 * 0 down to x->fine (the contact is there, however small); then 8 equal panels, each
 * adaptive. */
static double panels(integrand f, chord_ctx *x, double lo, double hi, double tol) {
  double sum = 0;
  if (!x->scan) {
    for (int k = 0; k < 8; k++) {
      double a = lo + (hi - lo) * k / 8, b = lo + (hi - lo) * (k + 1) / 8;
      sum += adapt(f, x, a, b, tol / 8, 0);
    }
    return sum;
  }
  int K = 1;
  while (hi * ldexp(1, -K) > x->fine && K < 48) {
    K++;
  }
  for (int side = -1; side <= 1; side += 2) {
    for (int k = 0; k < K; k++) {
      double a = hi * ldexp(1, -k - 1), b = hi * ldexp(1, -k);
      sum += adapt(f, x, side > 0 ? a : -b, side > 0 ? b : -a, tol * (b - a) / (2 * hi), 0);
    }
    double e = hi * ldexp(1, -K);
    sum += adapt(f, x, side > 0 ? 0 : -e, side > 0 ? e : 0, tol * e / (2 * hi), 0);
  }
  return sum;
}

static double inner(chord_ctx *x, double v) {
  return chord(x, x->u, v);
}

/* The end of the chords' support between v = a (no chord) and v = b (a chord), by
 * bisection. */
static double support_end(chord_ctx *x, double a, double b) {
  for (int k = 0; k < 40; k++) {
    double m = 0.5 * (a + b);
    if (chord(x, x->u, m) > 0) {
      b = m;
    } else {
      a = m;
    }
  }
  return 0.5 * (a + b);
}

/* The integral over v of the chords at u: their support first (sampled at CX_SAMPLES points,
 * its ends found by bisection, so that a narrow support near a sliver's tip is not missed),
 * then the adaptive panels over it. */
#define CX_SAMPLES 128
static double outer(chord_ctx *x, double u) {
  x->u = u;
  if (x->scan) {
    return panels(inner, x, x->lo[1], x->hi[1], x->inner_tol);
  }
  double w = (x->hi[1] - x->lo[1]) / CX_SAMPLES;
  int first = -1, last = -1;
  for (int i = 0; i < CX_SAMPLES; i++) {
    if (chord(x, u, x->lo[1] + (i + 0.5) * w) > 0) {
      last = i;
      first = first < 0 ? i : first;
    }
  }
  if (first < 0) {
    return 0;
  }
  double a = x->lo[1] + (first + 0.5) * w, b = x->lo[1] + (last + 0.5) * w;
  a = support_end(x, a - w, a);
  b = support_end(x, b + w, b);
  return panels(inner, x, a, b, x->inner_tol);
}

/* The rays: along dir through the square of half-width W about p_star (across dir) that
 * holds the smaller solid's shadow, over the span of that solid along dir. */
static void chord_setup(const cx_case *c, chord_ctx *x) {
  memset(x, 0, sizeof *x);
  x->c = c;
  /* the rays lean 0.4 rad off the contact's direction, toward no axis: a ray parallel to a
     flat face would make the chord jump where it grazes it, which the quadrature's error
     estimate cannot see; leaning, the chord is continuous with kinks */
  double tilt[3] = {0.31, 0.17, 0.23}, dd[3];
  double td = dot(tilt, c->dir);
  for (int k = 0; k < 3; k++) {
    dd[k] = c->dir[k] + (tilt[k] - td * c->dir[k]);
  }
  double l = sqrt(dot(dd, dd));
  for (int k = 0; k < 3; k++) {
    x->e[2][k] = dd[k] / l;
  }
  const double *d = x->e[2];
  double a[3] = {1, 0, 0};
  if (fabs(d[0]) > 0.6) {
    a[0] = 0;
    a[1] = 1;
  }
  double ad = dot(a, d);
  for (int k = 0; k < 3; k++) {
    x->e[0][k] = a[k] - ad * d[k];
  }
  l = sqrt(dot(x->e[0], x->e[0]));
  for (int k = 0; k < 3; k++) {
    x->e[0][k] /= l;
  }
  const double *u = x->e[0];
  x->e[1][0] = d[1] * u[2] - d[2] * u[1];
  x->e[1][1] = d[2] * u[0] - d[0] * u[2];
  x->e[1][2] = d[0] * u[1] - d[1] * u[0];
  const cx_solid *s = c->s[0].radius <= c->s[1].radius ? &c->s[0] : &c->s[1];
  double rel[3] = {s->pose.p[0] - c->p_star[0], s->pose.p[1] - c->p_star[1],
                   s->pose.p[2] - c->p_star[2]};
  double pu = dot(rel, x->e[0]), pv = dot(rel, x->e[1]), pt = dot(rel, d);
  x->W = 1.001 * (sqrt(pu * pu + pv * pv) + s->radius);
  x->t0 = pt - 1.001 * s->radius;
  x->t1 = pt + 1.001 * s->radius;
  x->fine = 0.05 * sqrt(c->depth * fmin(c->s[0].radius, c->s[1].radius));
  for (int k = 0; k < 3; k++) {
    x->box[k] = HUGE_VAL;
    x->box[3 + k] = -HUGE_VAL;
  }
}

/* One pass of the nested quadrature to the absolute tolerance tol over the current
 * domain. */
static double quadrature(chord_ctx *x, double tol) {
  x->inner_tol = 0.1 * tol / (x->hi[0] - x->lo[0]);
  return panels(outer, x, x->lo[0], x->hi[0], 0.9 * tol);
}

/* After the scan, the domain becomes the footprint's box with a margin; after a pass,
 * it grows where chords were found near its edge (a sliver's tip the scan missed).
 * Returns 1 when it changed. */
static int grow_domain(chord_ctx *x) {
  int changed = 0;
  for (int k = 0; k < 2; k++) {
    double w = x->hi[k] - x->lo[k], ext = x->box[3 + k] - x->box[k];
    double m = 0.5 * ext + x->fine;
    if (x->scan) {
      x->lo[k] = fmax(-x->W, x->box[k] - m);
      x->hi[k] = fmin(x->W, x->box[3 + k] + m);
      changed = 1;
      continue;
    }
    if (x->box[k] < x->lo[k] + 0.05 * w && x->lo[k] > -x->W) {
      x->lo[k] = fmax(-x->W, x->lo[k] - w);
      changed = 1;
    }
    if (x->box[3 + k] > x->hi[k] - 0.05 * w && x->hi[k] < x->W) {
      x->hi[k] = fmin(x->W, x->hi[k] + w);
      changed = 1;
    }
  }
  return changed;
}

/* ---- the rod family's chords --------------------------------------------------------- */

/* The rod in its hole in the block's frame (the hole's axis z through the origin): its
 * centre c, unit axis w, radius rr, half-length L; the hole's radius R. Chords run along z,
 * over the polar plane outside the hole's circle, where the block is solid along the whole
 * chord: the wall is the domain's edge, not a jump of the integrand. */
typedef struct rod_ctx {
  double c[3], w[3], rr, L, R;
  double phi, rho_out; /* the outer variable while the inner integral runs, and its reach */
  double tol;          /* the inner integrals' absolute tolerance (per radian) */
} rod_ctx;

/* The length of the line (x, y, z) over z inside the rod. */
static double rod_chord(const rod_ctx *g, double x, double y) {
  double d[3] = {x - g->c[0], y - g->c[1], -g->c[2]}, wz = g->w[2], dw = dot(d, g->w);
  /* the end faces: |dw + z wz| <= L */
  double lo = (-g->L - dw) / wz, hi = (g->L - dw) / wz;
  if (lo > hi) {
    double t = lo;
    lo = hi;
    hi = t;
  }
  /* the round face: A z^2 + 2 B z + C <= 0 */
  double A = 1 - wz * wz, B = d[2] - dw * wz, C = dot(d, d) - dw * dw - g->rr * g->rr;
  double disc = B * B - A * C;
  if (disc < 0) {
    return 0;
  }
  if (A > 0) {
    double q = -(B + copysign(sqrt(disc), B)), z1 = q / A, z2 = q != 0 ? C / q : z1;
    lo = fmax(lo, fmin(z1, z2));
    hi = fmin(hi, fmax(z1, z2));
  } else if (C > 0) {
    return 0;
  }
  return hi > lo ? hi - lo : 0;
}

/* The largest rho with a chord at angle phi (the rod's section holds the hole's axis, so the
 * chords' support along the ray is [0, rho_out]). */
static double rod_reach(const rod_ctx *g, double phi) {
  double a = 0, b = g->R + sqrt(dot(g->c, g->c)) + g->rr + g->L, cs = cos(phi), sn = sin(phi);
  for (int k = 0; k < 100 && b - a > 1e-15 * b; k++) {
    double m = 0.5 * (a + b);
    *(rod_chord(g, m * cs, m * sn) > 0 ? &a : &b) = m;
  }
  return a;
}

/* rho times the chord at rho = rho_out - (rho_out - R) s^2, times d rho / ds: smooth at
 * rho_out, where the chord vanishes as a square root. */
static double rod_inner(void *ctx, double s) {
  const rod_ctx *g = ctx;
  double D = g->rho_out - g->R, rho = g->rho_out - D * s * s;
  return rho * rod_chord(g, rho * cos(g->phi), rho * sin(g->phi)) * 2 * D * s;
}

static double rod_adapt(double (*f)(void *, double), void *ctx, double a, double b, double tol,
                        int depth) {
  double k, e;
  gk15(f, ctx, a, b, &k, &e);
  if (fabs(k - e) <= tol || depth >= 30) {
    return k;
  }
  double m = 0.5 * (a + b);
  return rod_adapt(f, ctx, a, m, tol * M_SQRT1_2, depth + 1) +
         rod_adapt(f, ctx, m, b, tol * M_SQRT1_2, depth + 1);
}

/* The integral over rho at phi (0 where the rod does not reach the wall). */
static double rod_at(rod_ctx *g, double phi) {
  double reach = rod_reach(g, phi);
  if (!(reach > g->R)) {
    return 0;
  }
  g->phi = phi;
  g->rho_out = reach;
  return rod_adapt(rod_inner, g, 0, 1, g->tol, 0);
}

/* The outer integrand at phi = mid + half (3 t - t^3) / 2 (smooth where the crescent ends,
 * its integral vanishing as a power 3/2 there). */
typedef struct rod_outer_ctx {
  rod_ctx *g;
  double mid, half;
} rod_outer_ctx;

static double rod_outer(void *ctx, double t) {
  rod_outer_ctx *o = ctx;
  return rod_at(o->g, o->mid + o->half * (3 * t - t * t * t) / 2) * 1.5 * o->half * (1 - t * t);
}

/* The end of the crescent's angles from phi_in (inside) towards phi_out, by bisection. */
static double rod_end(const rod_ctx *g, double phi_in, double phi_out) {
  for (int k = 0; k < 60; k++) {
    double m = 0.5 * (phi_in + phi_out);
    *(rod_reach(g, m) > g->R ? &phi_in : &phi_out) = m;
  }
  return 0.5 * (phi_in + phi_out);
}

static double rod_reference(const cx_case *c, double rtol) {
  const cx_solid *rod = &c->s[0], *blk = &c->s[1];
  rod_ctx g;
  memset(&g, 0, sizeof g);
  double rel[3] = {rod->pose.p[0] - blk->pose.p[0], rod->pose.p[1] - blk->pose.p[1],
                   rod->pose.p[2] - blk->pose.p[2]},
         wr[3], ez[3] = {0, 0, 1}, deep[3];
  cx_qrot(blk->pose.q, 1, rel, g.c);
  cx_qrot(rod->pose.q, 0, ez, wr);
  cx_qrot(blk->pose.q, 1, wr, g.w);
  for (int k = 0; k < 3; k++) {
    rel[k] = c->p_star[k] - blk->pose.p[k];
  }
  cx_qrot(blk->pose.q, 1, rel, deep);
  g.rr = rod->prim[0].a[0];
  g.L = rod->prim[1].a[1];
  g.R = blk->prim[1].a[0];
  double pc = atan2(deep[1], deep[0]);
  double p1 = rod_end(&g, pc, pc - M_PI), p2 = rod_end(&g, pc, pc + M_PI);
  rod_outer_ctx o = {&g, 0.5 * (p1 + p2), 0.5 * (p2 - p1)};
  /* a first value at a loose tolerance sets the absolute one */
  g.tol = 1e-3 * M_PI * g.R * g.R * g.L;
  double V = rod_adapt(rod_outer, &o, -1, 1, g.tol, 0);
  g.tol = 0.1 * rtol * V / (p2 - p1);
  return rod_adapt(rod_outer, &o, -1, 1, 0.9 * rtol * V, 0);
}

double cx_reference(const cx_case *c, double rtol, double box[6]) {
  if (c->family == CX_FAM_ROD) {
    if (box) { /* the rod's box: a superset of the region for Monte Carlo */
      for (int k = 0; k < 3; k++) {
        box[k] = c->s[0].pose.p[k] - c->s[0].radius;
        box[3 + k] = c->s[0].pose.p[k] + c->s[0].radius;
      }
    }
    return rod_reference(c, rtol);
  }
  chord_ctx x;
  chord_setup(c, &x);
  /* the scan: the whole square, panels gathering at the contact, a coarse tolerance; it
     finds the footprint (x.box), which the passes then integrate to a tolerance relative
     to the answer, tightened until it holds */
  x.scan = 1;
  x.lo[0] = x.lo[1] = -x.W;
  x.hi[0] = x.hi[1] = x.W;
  double V = quadrature(&x, 1e-3 * x.W * x.W * (x.t1 - x.t0)), tol = 1e-3 * V;
  for (int pass = 0; pass < 12 && V > 0; pass++) {
    if (grow_domain(&x) || pass == 0) {
      x.scan = 0;
      V = quadrature(&x, tol);
      continue; /* the footprint reached the domain's edge: the domain grows first */
    }
    if (tol <= rtol * V) {
      break;
    }
    tol = rtol * V;
    V = quadrature(&x, tol);
  }
  if (box) {
    memcpy(box, x.box, sizeof x.box);
  }
  return x.evals > CX_MAX_EVALS ? NAN : V;
}

/* ---- Monte Carlo ---------------------------------------------------------------------- */

/* 1 when world point y lies inside solid s, each primitive's own inequality evaluated */
static int inside(const cx_solid *s, const double y[3]) {
  double rel[3] = {y[0] - s->pose.p[0], y[1] - s->pose.p[1], y[2] - s->pose.p[2]}, ys[3];
  cx_qrot(s->pose.q, 1, rel, ys);
  for (int i = 0; i < s->nprim; i++) {
    const cx_prim *p = &s->prim[i];
    const double *a = p->a;
    double x = ys[0] - p->off[0], yy = ys[1] - p->off[1], z = ys[2] - p->off[2];
    int in = 1;
    switch (p->kind) {
      case CX_SPHERE:
        in = x * x + yy * yy + z * z <= a[0] * a[0];
        break;
      case CX_ELLIPSOID:
        in = pow(x / a[0], 2) + pow(yy / a[1], 2) + pow(z / a[2], 2) <= 1;
        break;
      case CX_CYLINDER:
        in = x * x + yy * yy <= a[0] * a[0];
        break;
      case CX_CONE:
        in = z >= 0 && sqrt(x * x + yy * yy) <= z * tan(a[0] * M_PI / 180);
        break;
      case CX_BOX:
        in = fabs(x) <= a[0] / 2 && fabs(yy) <= a[1] / 2 && fabs(z) <= a[2] / 2;
        break;
      case CX_SLAB_Z:
        in = z >= a[0] && z <= a[1];
        break;
      case CX_TORUS:
        in = pow(sqrt(x * x + yy * yy) - a[0], 2) + z * z <= a[1] * a[1];
        break;
      case CX_POLY:
        for (int f = 0; f < p->np && in; f++) {
          const double *pl = p->plane + 4 * f;
          in = pl[0] * x + pl[1] * yy + pl[2] * z <= a[0] * pl[3];
        }
        break;
    }
    if (in == p->complement) {
      return 0;
    }
  }
  return 1;
}

double cx_monte_carlo(const cx_case *c, const double box[6], long n, uint64_t seed, double *sigma) {
  chord_ctx x;
  chord_setup(c, &x);
  double lo[3], w[3], vol = 1;
  for (int k = 0; k < 3; k++) {
    double m = 0.05 * (box[3 + k] - box[k]);
    lo[k] = box[k] - m;
    w[k] = box[3 + k] - box[k] + 2 * m;
    vol *= w[k];
  }
  long hit = 0;
  for (long i = 0; i < n; i++) {
    double s[3], y[3];
    for (int k = 0; k < 3; k++) {
      s[k] = lo[k] + w[k] * cx_uni(&seed);
    }
    for (int k = 0; k < 3; k++) {
      y[k] = c->p_star[k] + s[0] * x.e[0][k] + s[1] * x.e[1][k] + s[2] * x.e[2][k];
    }
    hit += inside(&c->s[0], y) && inside(&c->s[1], y);
  }
  double f = (double)hit / (double)n;
  *sigma = vol * sqrt(f * (1 - f) / (double)n);
  return vol * f;
}

/* ---- closed forms ------------------------------------------------------------------ */

/* Area of the part of a disk of radius R below a line `delta` above its lowest point. */
static double segment(double R, double delta) {
  if (!(delta > 0) || !(R > 0)) {
    return 0;
  }
  if (delta >= 2 * R) {
    return M_PI * R * R;
  }
  /* R^2 (phi - sin phi) / 2 with phi = 2 acos(1 - delta / R), without the cancellation of
     R^2 acos(c / R) - c sqrt(...) for a shallow segment (5e-7 of the area at delta / R =
     1e-5): phi from an asin, phi - sin phi by its series when phi is small */
  double phi = 4 * asin(sqrt(0.5 * delta / R)), f;
  if (phi < 0.5) {
    double p2 = phi * phi, term = phi * p2 / 6;
    f = 0;
    for (int k = 1; k <= 8; k++) {
      f += term;
      term *= -p2 / ((2 * k + 2) * (2 * k + 3));
    }
  } else {
    f = phi - sin(phi);
  }
  return 0.5 * R * R * f;
}

/* A finite cylinder or capped cone against the table: sections across the axis at a from
 * a0 to a1, centre q + a u, radius rho0 + a rho1, each a disk cut by the table's top
 * z = top in a circular segment; the segment depths are linear in a, so the integrand is
 * smooth between the a where a section starts or ends being cut, which become breakpoints
 * of 20-point Gauss-Legendre panels (64 a piece). */
typedef struct axial {
  double q[3], u[3], rho0, rho1, top, sxy;
} axial;

/* The 20-point Gauss-Legendre rule: its nodes in (0, 1) (and their negatives) and weights. */
static const double gx[10] = {0.0765265211334973, 0.2277858511416451, 0.3737060887154195,
                              0.5108670019508271, 0.6360536807265150, 0.7463319064601508,
                              0.8391169718222188, 0.9122344282513259, 0.9639719272779138,
                              0.9931285991850949};
static const double gw[10] = {0.1527533871307258, 0.1491729864726037, 0.1420961093183820,
                              0.1316886384491766, 0.1181945319615184, 0.1019301198172404,
                              0.0832767415767048, 0.0626720483341091, 0.0406014298003869,
                              0.0176140071391521};

static double axial_area(const axial *x, double a) {
  double rho = x->rho0 + a * x->rho1, hc = x->q[2] + a * x->u[2];
  if (x->sxy < 1e-15) {
    return hc <= x->top ? M_PI * rho * rho : 0;
  }
  return segment(rho, rho + (x->top - hc) / x->sxy);
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double axial_volume(const axial *x, double a0, double a1) {
  /* breakpoints: delta = 0 and delta = 2 rho, delta linear in a */
  double br[4] = {a0, a1, a0, a0};
  int nb = 2;
  if (x->sxy >= 1e-15) {
    for (int k = 0; k < 2; k++) {
      double sgn = k ? -1 : 1; /* delta - 0 or delta - 2 rho = +-rho + (top - hc) / sxy */
      double c0 = sgn * x->rho0 + (x->top - x->q[2]) / x->sxy,
             c1 = sgn * x->rho1 - x->u[2] / x->sxy;
      if (c1 != 0 && -c0 / c1 > a0 && -c0 / c1 < a1) {
        br[nb++] = -c0 / c1;
      }
    }
  } else if (x->u[2] != 0 && (x->top - x->q[2]) / x->u[2] > a0 &&
             (x->top - x->q[2]) / x->u[2] < a1) {
    br[nb++] = (x->top - x->q[2]) / x->u[2];
  }
  qsort(br, (size_t)nb, sizeof br[0], cmp_dbl);
  /* at a breakpoint the area goes as |a - a_b|^(3/2); a = mid + half (3 s - s^3) / 2 over
     s in [-1, 1] makes it smooth in s (64 panels of s; with 64 panels of a, a cone's rim
     0.25 um into the table came out 1.6e-8 low) */
  double V = 0;
  for (int b = 0; b + 1 < nb; b++) {
    double mid = 0.5 * (br[b] + br[b + 1]), half = 0.5 * (br[b + 1] - br[b]);
    for (int p = 0; p < 64; p++) {
      double m = -1 + (2 * p + 1) / 64.0, h = 1 / 64.0;
      for (int i = 0; i < 10; i++) {
        for (int sg = -1; sg <= 1; sg += 2) {
          double t = m + sg * h * gx[i], a = mid + half * (3 * t - t * t * t) / 2;
          V += h * gw[i] * 1.5 * half * (1 - t * t) * axial_area(x, a);
        }
      }
    }
  }
  return V;
}

/* the table's top, world z */
static double table_top(const cx_case *c) {
  return c->s[1].pose.p[2] + c->s[1].prim[0].a[2] / 2;
}

/* A torus lying flat (its axis vertical): the ring of the tube's circular segments of the
 * depth it is sunk, of centroid on the core circle (Pappus); NAN when it is not flat. */
static double flat_torus(const cx_case *c) {
  const cx_solid *s = &c->s[0];
  const double ez[3] = {0, 0, 1};
  double ax[3];
  cx_qrot(s->pose.q, 0, ez, ax);
  if (fabs(fabs(ax[2]) - 1) > 1e-12) {
    return NAN;
  }
  double R = s->prim[0].a[0], r = s->prim[0].a[1], d = table_top(c) - (s->pose.p[2] - r);
  if (!(d > 0)) {
    return 0;
  }
  return 2 * M_PI * R * (r * r * acos((r - d) / r) - (r - d) * sqrt(d * (2 * r - d)));
}


static double axial_case(const cx_case *c) {
  const cx_solid *s = &c->s[0];
  const double ez[3] = {0, 0, 1};
  axial x;
  memset(&x, 0, sizeof x);
  cx_qrot(s->pose.q, 0, ez, x.u);
  x.top = table_top(c);
  x.sxy = sqrt(fmax(0, 1 - x.u[2] * x.u[2]));
  double a0 = s->prim[1].a[0], a1 = s->prim[1].a[1], base[3];
  if (s->prim[0].kind == CX_CYLINDER) {
    x.rho0 = s->prim[0].a[0];
    memcpy(base, (double[3]){0, 0, 0}, sizeof base);
  } else { /* the cone: a from its apex */
    x.rho1 = tan(s->prim[0].a[0] * M_PI / 180);
    memcpy(base, s->prim[0].off, sizeof base);
    a1 -= base[2];
    a0 = 0;
  }
  cx_qrot(s->pose.q, 0, base, x.q);
  for (int k = 0; k < 3; k++) {
    x.q[k] += s->pose.p[k];
  }
  return axial_volume(&x, a0, a1);
}

/* A polyhedron (the box, the mesh) below the table's top, exactly: its triangles rotated
 * and placed with the top at z = 0, cut by mesh_gen.h. */
static double polyhedral_case(const cx_case *c) {
  const cx_solid *s = &c->s[0];
  mg_mesh g = {0};
  double scale = 1;
  if (s->prim[0].kind == CX_BOX) {
    if (mg_box(&g, s->prim[0].a[0], s->prim[0].a[1], s->prim[0].a[2]) != 0) {
      mg_free(&g);
      return NAN;
    }
  } else {
    g = ico;
    g.v = malloc(3 * sizeof(double) * (size_t)ico.nv);
    g.t = ico.t;
    if (!g.v) {
      return NAN;
    }
    scale = s->prim[0].a[0];
  }
  for (int i = 0; i < g.nv; i++) {
    double v[3] = {scale * (s->prim[0].kind == CX_BOX ? g.v : ico.v)[3 * i],
                   scale * (s->prim[0].kind == CX_BOX ? g.v : ico.v)[3 * i + 1],
                   scale * (s->prim[0].kind == CX_BOX ? g.v : ico.v)[3 * i + 2]};
    cx_qrot(s->pose.q, 0, v, g.v + 3 * i);
  }
  /* the sums' origin under the deepest point (m0 does not depend on it in x and y): a small
     cap's tetrahedra do not cancel */
  double t[3] = {s->pose.p[0] - c->p_star[0], s->pose.p[1] - c->p_star[1],
                 s->pose.p[2] - table_top(c)};
  mg_moments m;
  int rc = mg_cap_moments(&g, t, &m);
  if (s->prim[0].kind == CX_BOX) {
    mg_free(&g);
  } else {
    free(g.v);
  }
  return rc == 0 ? m.m0 : NAN;
}

/* An aligned rod in its hole (rod_in_hole): its length times the crescent of its section
 * (radius rr, centre delta from the hole's axis) beyond the hole's circle (radius R), in
 * polar angle phi about the hole's axis: half the integral of rho(phi)^2 - R^2 out to the
 * rod's circle, rho = delta cos phi + sqrt(rr^2 - delta^2 sin^2 phi), over |phi| < phi0
 * where the circles cross; the integrand vanishes linearly there, so Gauss-Legendre
 * panels converge. rho - R is summed from small terms (no cancellation at small depths). */
static double rod_hole_volume(const cx_case *c) {
  double R = c->s[1].prim[1].a[0], rr = c->s[0].prim[0].a[0], L = c->s[0].prim[1].a[1];
  double cl = R - rr, depth = c->depth, delta = R + depth - rr;    /* as rod_in_hole places it */
  double omc = depth * (2 * R - 2 * cl - depth) / (2 * R * delta); /* 1 - cos phi0 */
  double phi0 = 2 * asin(sqrt(0.5 * omc)), A = 0;
  for (int p = 0; p < 64; p++) {
    double m = -phi0 + (2 * p + 1) * phi0 / 64, h = phi0 / 64;
    for (int i = 0; i < 10; i++) {
      for (int sg = -1; sg <= 1; sg += 2) {
        double ph = m + sg * h * gx[i], sn = sin(ph), b = delta * delta * sn * sn;
        double over = delta * cos(ph) - cl - b / (sqrt(rr * rr - b) + rr); /* rho - R */
        A += h * gw[i] * 0.5 * over * (over + 2 * R);
      }
    }
  }
  return 2 * L * A;
}

/* the lens of two balls of radii r1, r2 whose centres are D apart */
static double lens(double r1, double r2, double D) {
  if (D >= r1 + r2) {
    return 0;
  }
  return M_PI * pow(r1 + r2 - D, 2) *
         (D * D + 2 * D * r2 - 3 * r2 * r2 + 2 * D * r1 + 6 * r1 * r2 - 3 * r1 * r1) / (12 * D);
}

double cx_closed_form(const cx_case *c) {
  const cx_solid *a = &c->s[0];
  switch (c->family) {
    case 0: {
      double d = table_top(c) - (a->pose.p[2] - a->prim[0].a[0]), r = a->prim[0].a[0];
      return M_PI * d * d * (r - d / 3);
    }
    case 2:
    case 3:
      return axial_case(c);
    case 4:
    case 8:
      return polyhedral_case(c);
    case 5: {
      double D[3] = {c->s[1].pose.p[0] - a->pose.p[0], c->s[1].pose.p[1] - a->pose.p[1],
                     c->s[1].pose.p[2] - a->pose.p[2]};
      return lens(a->prim[0].a[0], c->s[1].prim[0].a[0], sqrt(dot(D, D)));
    }
    case CX_FAM_TORUS:
      return flat_torus(c);
    case CX_FAM_ROD:
      return c->aligned ? rod_hole_volume(c) : NAN;
    default:
      return NAN;
  }
}

/* ---- the peer set ------------------------------------------------------------------------ */

static const char *const peer_name[CX_PEERS] = {
    "sphere 0.1 m, 0.1 mm into a plane", "sphere 0.1 m, 1 mm into a plane",
    "sphere 0.1 m, 10 mm into a plane",  "two spheres 0.05 m, 2 mm",
    "cylinder 0.05 x 0.2 m, 1 mm",       "cube 0.2 m tilted 10 deg, 1 mm"};

void cx_peer(int index, cx_case *c) {
  static const int family[CX_PEERS] = {0, 0, 0, 5, 2, 4};
  static const double depth[CX_PEERS] = {1e-4, 1e-3, 1e-2, 2e-3, 1e-3, 1e-3};
  memset(c, 0, sizeof *c);
  c->family = family[index];
  c->name = peer_name[index];
  c->depth = depth[index];
  cx_solid *a = &c->s[0];
  a->nprim = 1;
  a->pose.q[0] = 1;
  switch (index) {
    case 3: /* the second ball meets the first along x */
      c->size = 0.05;
      set_prim(&a->prim[0], CX_SPHERE, 0.05, 0, 0);
      a->radius = 0.05;
      c->s[1] = *a;
      place_along(c, (const double[3]){1, 0, 0});
      return;
    case 4: /* its axis along x: turned 90 degrees about y */
      c->size = 0.05;
      set_prim(&a->prim[0], CX_CYLINDER, 0.05, 0, 0);
      set_prim(&a->prim[1], CX_SLAB_Z, -0.1, 0.1, 0);
      a->nprim = 2;
      a->radius = sqrt(0.05 * 0.05 + 0.1 * 0.1);
      a->pose.q[0] = a->pose.q[2] = M_SQRT1_2;
      break;
    case 5: /* tilted 10 degrees about x */
      c->size = 0.2;
      set_prim(&a->prim[0], CX_BOX, 0.2, 0.2, 0.2);
      a->radius = 0.1 * sqrt(3);
      a->pose.q[0] = cos(5 * M_PI / 180);
      a->pose.q[1] = sin(5 * M_PI / 180);
      break;
    default:
      c->size = 0.1;
      set_prim(&a->prim[0], CX_SPHERE, 0.1, 0, 0);
      a->radius = 0.1;
  }
  c->aligned = index != 5;
  against_table(c);
}
