/* test_geom_classify.c: conservative box classification (geom/prim.c) checked by dense
 * point sampling.
 *
 * Every case builds a cell from random primitives in random rigid poses and sizes, poses it
 * in a random query frame, and classifies many random boxes (centres near the surface, half-
 * extents from a millionth of the shape to larger than it). A box called INSIDE or OUTSIDE
 * is then sampled at its corners, face centres, a 4x4x4 grid and random points with
 * vxg_posed_cell_contains: any disagreeing point is a contradiction. The oracle is the point
 * test, an independent code path from the interval bounds. */
#include <float.h>

#include "geom/geom.h"
#include "tests/vxc_test.h"

#define BOXES_PER_KIND 100000
#define RANDOM_SAMPLES 12

static double urand(vxc_rng *r, double lo, double hi) {
  return vxc_rng_uniform(r, lo, hi);
}


/* Adds a primitive, asserting success. */
static void add(vxg_cell *c, vxg_prim_kind kind, const double *param, int n, int complement,
                const vxg_xform *move) {
  vxg_prim p;
  vxc_error err;
  assert_int_equal(vxg_prim_init(&p, kind, param, n, complement, move, &err), VXC_OK);
  assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_OK);
}


static vxg_cell *new_cell(void) {
  vxg_cell *c = calloc(1, sizeof *c);
  assert_non_null(c);
  c->name = "test";
  vxg_xform_identity(&c->pose);
  return c;
}


/* Cell builders: random parameters of size about `s`, the first primitive near the origin.
 * `variant` selects the complement for single-primitive cases. */
typedef void (*builder)(vxc_rng *r, vxg_cell *c, double s, int variant);

static void one_prim(vxc_rng *r, vxg_cell *c, double s, int comp, vxg_prim_kind k) {
  vxg_xform mv;
  vxc_test_rand_xform(r, &mv, 0.3 * s);
  double p[10];
  int n = vxg_prim_kind_nparam(k);
  switch (k) {
    case VXG_HALFSPACE:
      p[0] = urand(r, -1, 1), p[1] = urand(r, -1, 1), p[2] = urand(r, -1, 1) + 0.01;
      p[3] = urand(r, -s, s);
      break;
    case VXG_SLAB:
      p[0] = (int)urand(r, 0, 2.999);
      p[1] = urand(r, -s, 0);
      p[2] = p[1] + urand(r, 0.01 * s, 2 * s);
      break;
    case VXG_BOX:
    case VXG_ELLIPSOID:
      for (int i = 0; i < 3; i++) {
        p[i] = urand(r, 0.05 * s, s);
      }
      break;
    case VXG_SPHERE:
    case VXG_CYLINDER:
      p[0] = urand(r, 0.05 * s, s);
      break;
    case VXG_CONE:
      p[0] = urand(r, 0.05, 1.5);
      break;
    case VXG_TORUS:
      p[0] = urand(r, 0.3 * s, s);
      p[1] = urand(r, 0.05 * p[0], 0.9 * p[0]);
      break;
    case VXG_QUADRIC:
      /* a general quadric of any signature, scaled to about s */
      for (int i = 0; i < 6; i++) {
        p[i] = urand(r, -1, 1);
      }
      for (int i = 6; i < 9; i++) {
        p[i] = urand(r, -s, s);
      }
      p[9] = urand(r, -s * s, s * s);
      break;
    default:
      fail_msg("unexpected kind");
  }
  add(c, k, p, n, comp, &mv);
}

#define ONE_PRIM_BUILDER(name, kind)                                   \
  static void build_##name(vxc_rng *r, vxg_cell *c, double s, int v) { \
    one_prim(r, c, s, v, kind);                                        \
  }
ONE_PRIM_BUILDER(halfspace, VXG_HALFSPACE)
ONE_PRIM_BUILDER(slab, VXG_SLAB)
ONE_PRIM_BUILDER(box, VXG_BOX)
ONE_PRIM_BUILDER(sphere, VXG_SPHERE)
ONE_PRIM_BUILDER(ellipsoid, VXG_ELLIPSOID)
ONE_PRIM_BUILDER(cylinder, VXG_CYLINDER)
ONE_PRIM_BUILDER(cone, VXG_CONE)
ONE_PRIM_BUILDER(torus, VXG_TORUS)
ONE_PRIM_BUILDER(quadric, VXG_QUADRIC)


/* The grooved block: a box minus a cylinder along x through its top face. */
static void build_grooved_block(vxc_rng *r, vxg_cell *c, double s, int v) {
  (void)v;
  vxg_xform mv, rot;
  vxc_test_rand_xform(r, &mv, 0.1 * s);
  const double b[3] = {s, s, 0.5 * s};
  add(c, VXG_BOX, b, 3, 0, &mv);
  const double y[3] = {0, 1, 0};
  vxg_xform_axis_angle(&rot, y, M_PI / 2);
  rot.t[2] = 0.25 * s;
  vxg_xform_compose(&rot, &mv, &rot);
  const double cr = urand(r, 0.1 * s, 0.3 * s);
  add(c, VXG_CYLINDER, &cr, 1, 1, &rot);
}


static void build_sphere_minus_sphere(vxc_rng *r, vxg_cell *c, double s, int v) {
  (void)v;
  vxg_xform mv;
  vxc_test_rand_xform(r, &mv, 0.1 * s);
  add(c, VXG_SPHERE, &s, 1, 0, &mv);
  vxc_test_rand_xform(r, &mv, 0.8 * s);
  const double r2 = urand(r, 0.2 * s, 0.8 * s);
  add(c, VXG_SPHERE, &r2, 1, 1, &mv);
}


static void build_box_minus_torus(vxc_rng *r, vxg_cell *c, double s, int v) {
  (void)v;
  vxg_xform mv;
  vxc_test_rand_xform(r, &mv, 0.1 * s);
  const double b[3] = {2 * s, 2 * s, s};
  add(c, VXG_BOX, b, 3, 0, &mv);
  vxc_test_rand_xform(r, &mv, 0.3 * s);
  const double t[2] = {urand(r, 0.4 * s, 0.8 * s), urand(r, 0.1 * s, 0.3 * s)};
  add(c, VXG_TORUS, t, 2, 1, &mv);
}


static void build_sphere_cut(vxc_rng *r, vxg_cell *c, double s, int v) {
  (void)v;
  vxg_xform mv;
  vxc_test_rand_xform(r, &mv, 0.1 * s);
  add(c, VXG_SPHERE, &s, 1, 0, &mv);
  const double h[4] = {urand(r, -1, 1), urand(r, -1, 1), urand(r, -1, 1) + 0.01,
                       urand(r, -0.5 * s, 0.5 * s)};
  add(c, VXG_HALFSPACE, h, 4, 0, NULL);
}


static void build_finite_cylinder(vxc_rng *r, vxg_cell *c, double s, int v) {
  (void)v;
  vxg_xform mv;
  vxc_test_rand_xform(r, &mv, 0.1 * s);
  const double cr = urand(r, 0.1 * s, s);
  add(c, VXG_CYLINDER, &cr, 1, 0, &mv);
  const double sl[3] = {2, -urand(r, 0.1 * s, s), urand(r, 0.1 * s, s)};
  add(c, VXG_SLAB, sl, 3, 0, &mv);
}


static void build_frustum(vxc_rng *r, vxg_cell *c, double s, int v) {
  (void)v;
  vxg_xform mv;
  vxc_test_rand_xform(r, &mv, 0.1 * s);
  const double a = urand(r, 0.1, 1.2);
  add(c, VXG_CONE, &a, 1, 0, &mv);
  const double sl[3] = {2, urand(r, 0, 0.5 * s), urand(r, 0.6 * s, 1.5 * s)};
  add(c, VXG_SLAB, sl, 3, 0, &mv);
}


/* A hyperboloid of one sheet (a general, indefinite quadric) cut by a box. */
static void build_hyperboloid(vxc_rng *r, vxg_cell *c, double s, int v) {
  (void)v;
  vxg_xform mv;
  vxc_test_rand_xform(r, &mv, 0.1 * s);
  const double a = urand(r, 0.5, 2), b = urand(r, 0.5, 2), w = urand(r, 0.1, 0.5) * s;
  const double q[10] = {a, b, -1, 0, 0, 0, 0, 0, 0, -w * w};
  add(c, VXG_QUADRIC, q, 10, 0, &mv);
  const double bx[3] = {2 * s, 2 * s, 2 * s};
  add(c, VXG_BOX, bx, 3, 0, &mv);
}


/* A random point of the query frame near the cell's surface: bisection between two points
 * on either side, found along random segments; the last random point when none crosses. */
static void near_surface(vxc_rng *r, const vxg_posed_cell *pc, const double o[3], double s,
                         double out[3]) {
  double a[3], b[3];
  for (int tries = 0; tries < 8; tries++) {
    for (int i = 0; i < 3; i++) {
      a[i] = o[i] + urand(r, -1.5 * s, 1.5 * s);
      b[i] = o[i] + urand(r, -1.5 * s, 1.5 * s);
    }
    int ia = vxg_posed_cell_contains(pc, a), ib = vxg_posed_cell_contains(pc, b);
    if (ia == ib) {
      continue;
    }
    for (int k = 0; k < 40; k++) {
      double m[3] = {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2])};
      if (vxg_posed_cell_contains(pc, m) == ia) {
        memcpy(a, m, sizeof m);
      } else {
        memcpy(b, m, sizeof m);
      }
    }
    break;
  }
  memcpy(out, a, sizeof a);
}


/* Samples the box; returns the number of points whose membership contradicts `k`. */
static long check_box(vxc_rng *r, const vxg_posed_cell *pc, const double c[3], const double e[3],
                      vxg_class k) {
  int want = k == VXG_INSIDE;
  long bad = 0;
  double p[3];
  /* 4x4x4 grid, corners included */
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      for (int l = 0; l < 4; l++) {
        p[0] = c[0] + e[0] * (-1 + i * (2.0 / 3));
        p[1] = c[1] + e[1] * (-1 + j * (2.0 / 3));
        p[2] = c[2] + e[2] * (-1 + l * (2.0 / 3));
        bad += vxg_posed_cell_contains(pc, p) != want;
      }
    }
  }
  /* face centres and the centre */
  for (int f = 0; f < 7; f++) {
    memcpy(p, c, sizeof p);
    if (f < 6) {
      p[f / 2] += (f & 1) ? e[f / 2] : -e[f / 2];
    }
    bad += vxg_posed_cell_contains(pc, p) != want;
  }
  for (int n = 0; n < RANDOM_SAMPLES; n++) {
    for (int a = 0; a < 3; a++) {
      p[a] = c[a] + e[a] * urand(r, -1, 1);
    }
    bad += vxg_posed_cell_contains(pc, p) != want;
  }
  return bad;
}


typedef struct stats {
  long boxes, inside, outside, mixed, contradictions;
} stats;


/* Runs BOXES_PER_KIND boxes over fresh random cells built by `b`. */
static stats run_kind(builder b, int variant, uint64_t seed) {
  vxc_rng r = {seed};
  stats st = {0, 0, 0, 0, 0};
  vxg_cell *c = NULL;
  vxg_posed_cell *pc = malloc(sizeof *pc);
  assert_non_null(pc);
  double s = 1, o[3] = {0, 0, 0};
  const int per_cell = 500;
  for (long n = 0; n < BOXES_PER_KIND; n++) {
    if (n % per_cell == 0) {
      free(c);
      c = new_cell();
      s = pow(10, urand(&r, -2, 1)); /* sizes from 1 cm to 10 m */
      b(&r, c, s, variant);
      vxc_error err;
      vxg_cell_finish(c, "test.vxm", &err); /* unbounded kinds fail; their data stays valid */
      vxg_xform to;
      vxc_test_rand_xform(&r, &to, 3 * s);
      vxg_posed_cell_init(pc, c, &to);
      memcpy(o, to.t, sizeof o);
    }
    double cen[3], e[3];
    double size = s * pow(10, urand(&r, -6, 0.5));
    if (n % 4 == 0) {
      /* anywhere in the cell's box (bounded cells) or around its origin */
      int bounded = pc->aabb[3] - pc->aabb[0] < 100 * s;
      for (int a = 0; a < 3; a++) {
        double lo = bounded ? pc->aabb[a] : o[a] - 1.5 * s;
        double hi = bounded ? pc->aabb[3 + a] : o[a] + 1.5 * s;
        double m = 0.1 * (hi - lo);
        cen[a] = urand(&r, lo - m, hi + m);
      }
    } else {
      /* near the surface, at up to three box sizes from it */
      near_surface(&r, pc, o, s, cen);
      for (int a = 0; a < 3; a++) {
        cen[a] += urand(&r, -3, 3) * size;
      }
    }
    for (int a = 0; a < 3; a++) {
      e[a] = size * urand(&r, 0.2, 1);
    }
    vxg_class k = vxg_posed_cell_classify(pc, cen, e);
    st.boxes++;
    if (k == VXG_MIXED) {
      st.mixed++;
      continue;
    }
    if (k == VXG_INSIDE) {
      st.inside++;
    } else {
      st.outside++;
    }
    st.contradictions += check_box(&r, pc, cen, e, k);
  }
  free(c);
  free(pc);
  return st;
}


static void expect_clean(const char *what, builder b, int variant, uint64_t seed) {
  stats st = run_kind(b, variant, seed);
  print_message("%-28s boxes %ld  inside %ld  outside %ld  mixed %ld  contradictions %ld\n", what,
                st.boxes, st.inside, st.outside, st.mixed, st.contradictions);
  assert_int_equal(st.contradictions, 0);
  assert_true(st.boxes >= BOXES_PER_KIND);
  /* the property is only worth something if both decisions occur often */
  assert_true(st.inside > st.boxes / 100);
  assert_true(st.outside > st.boxes / 100);
}

#define PRIM_TEST(name)                                                       \
  static void test_classify_##name##_never_contradicts_points(void **state) { \
    (void)state;                                                              \
    expect_clean(#name, build_##name, 0, 0x1234 + __LINE__);                  \
    expect_clean("not " #name, build_##name, 1, 0x9876 + __LINE__);           \
  }
/* each: the primitive and its complement, random poses and sizes, zero contradictions */
PRIM_TEST(halfspace)
PRIM_TEST(slab)
PRIM_TEST(box)
PRIM_TEST(sphere)
PRIM_TEST(ellipsoid)
PRIM_TEST(cylinder)
PRIM_TEST(cone)
PRIM_TEST(torus)
PRIM_TEST(quadric)

#define CELL_TEST(name)                                                       \
  static void test_classify_##name##_never_contradicts_points(void **state) { \
    (void)state;                                                              \
    expect_clean(#name, build_##name, 0, 0x5555 + __LINE__);                  \
  }
/* concave and combined cells: zero contradictions whatever the corners say */
CELL_TEST(grooved_block)
CELL_TEST(sphere_minus_sphere)
CELL_TEST(box_minus_torus)
CELL_TEST(sphere_cut)
CELL_TEST(finite_cylinder)
CELL_TEST(frustum)
CELL_TEST(hyperboloid)


/* The cell c finished and posed in a random query frame `to` (within 3 s of the origin). */
static void pose_randomly(vxc_rng *r, vxg_cell *c, double s, vxg_posed_cell *pc, vxg_xform *to) {
  vxc_test_rand_xform(r, to, 3 * s);
  vxc_error err;
  vxg_cell_finish(c, "t.vxm", &err);
  vxg_posed_cell_init(pc, c, to);
}


// boxes whose corners touch a plane or a sphere to within rounding never contradict the
// point test at their corners (the rounding allowance of the bounds at work)
static void test_classify_touching_boxes_never_contradict_corners(void **state) {
  (void)state;
  vxc_rng r = {99};
  long bad = 0, decided = 0;
  for (int cells = 0; cells < 400; cells++) {
    vxg_cell *c = new_cell();
    double s = pow(10, urand(&r, -2, 1));
    int sphere = cells & 1;
    vxg_xform mv;
    vxc_test_rand_xform(&r, &mv, s);
    if (sphere) {
      add(c, VXG_SPHERE, &s, 1, cells & 2, &mv);
    } else {
      one_prim(&r, c, s, cells & 2, VXG_HALFSPACE);
    }
    vxg_posed_cell pc;
    vxg_xform to;
    pose_randomly(&r, c, s, &pc, &to);
    for (int k = 0; k < 2500; k++) {
      /* a surface point x and its outward normal n (query frame) */
      double x[3], n[3], g[3];
      near_surface(&r, &pc, to.t, s, x);
      vxg_atom_eval(&pc.atom[0], x, g);
      double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
      for (int a = 0; a < 3; a++) {
        n[a] = g[a] / gn;
      }
      /* a box whose corner most along +-n sits at x, give or take a few rounding units */
      double e[3], cen[3], side = (k & 1) ? 1 : -1;
      double size = s * pow(10, urand(&r, -9, -1));
      for (int a = 0; a < 3; a++) {
        e[a] = size * urand(&r, 0.2, 1);
      }
      for (int a = 0; a < 3; a++) {
        double sg = n[a] >= 0 ? 1 : -1;
        cen[a] = x[a] - side * sg * e[a];
        cen[a] *= 1 + urand(&r, -4, 4) * DBL_EPSILON;
      }
      vxg_class cl = vxg_posed_cell_classify(&pc, cen, e);
      if (cl == VXG_MIXED) {
        continue;
      }
      decided++;
      for (int q = 0; q < 8; q++) {
        double p[3] = {cen[0] + ((q & 1) ? e[0] : -e[0]), cen[1] + ((q & 2) ? e[1] : -e[1]),
                       cen[2] + ((q & 4) ? e[2] : -e[2])};
        bad += vxg_posed_cell_contains(&pc, p) != (cl == VXG_INSIDE);
      }
    }
    free(c);
  }
  print_message("touching boxes: %ld decided, %ld contradicting corners\n", decided, bad);
  assert_int_equal(bad, 0);
  assert_true(decided > 1000);
}


// a box whose corners are all inside the grooved block but which spans the groove is MIXED
static void test_classify_box_over_groove_is_mixed(void **state) {
  (void)state;
  vxg_cell *c = new_cell();
  const double b[3] = {0.4, 0.4, 0.2};
  add(c, VXG_BOX, b, 3, 0, NULL);
  vxg_xform rot;
  const double y[3] = {0, 1, 0};
  vxg_xform_axis_angle(&rot, y, M_PI / 2);
  rot.t[2] = 0.1;
  const double cr = 0.05;
  add(c, VXG_CYLINDER, &cr, 1, 1, &rot);
  vxc_error err;
  assert_int_equal(vxg_cell_finish(c, "t.vxm", &err), VXC_OK);
  vxg_posed_cell pc;
  vxg_xform id;
  vxg_xform_identity(&id);
  vxg_posed_cell_init(&pc, c, &id);
  /* a box around the groove's axis: its 8 corners are in the block's solid part */
  const double cen[3] = {0, 0, 0.02}, e[3] = {0.1, 0.1, 0.075};
  for (int k = 0; k < 8; k++) {
    double p[3] = {cen[0] + ((k & 1) ? e[0] : -e[0]), cen[1] + ((k & 2) ? e[1] : -e[1]),
                   cen[2] + ((k & 4) ? e[2] : -e[2])};
    assert_true(vxg_posed_cell_contains(&pc, p));
  }
  const double hole[3] = {0, 0, 0.08};
  assert_false(vxg_posed_cell_contains(&pc, hole));
  assert_int_equal(vxg_posed_cell_classify(&pc, cen, e), VXG_MIXED);
  /* inside the groove, the box is outside */
  const double g[3] = {0, 0, 0.1}, ge[3] = {0.1, 0.02, 0.02};
  assert_int_equal(vxg_posed_cell_classify(&pc, g, ge), VXG_OUTSIDE);
  free(c);
}


// boxes farther from a sphere's surface than twice their half-diagonal are never MIXED
static void test_classify_sphere_bound_is_tight(void **state) {
  (void)state;
  vxc_rng r = {42};
  long mixed = 0, n = 0;
  for (int cells = 0; cells < 200; cells++) {
    vxg_cell *c = new_cell();
    double s = pow(10, urand(&r, -2, 1));
    vxg_xform mv, to;
    vxc_test_rand_xform(&r, &mv, s);
    add(c, VXG_SPHERE, &s, 1, 0, &mv);
    vxc_error err;
    assert_int_equal(vxg_cell_finish(c, "t.vxm", &err), VXC_OK);
    vxc_test_rand_xform(&r, &to, 3 * s);
    vxg_posed_cell pc;
    vxg_posed_cell_init(&pc, c, &to);
    double ctr[3];
    vxg_xform_point(&to, mv.t, ctr);
    for (int k = 0; k < 500; k++) {
      double e[3], u[3], un = 0;
      double size = s * pow(10, urand(&r, -6, -0.7));
      for (int a = 0; a < 3; a++) {
        e[a] = size * urand(&r, 0.1, 1);
        u[a] = urand(&r, -1, 1);
        un += u[a] * u[a];
      }
      un = sqrt(un);
      double hd = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
      double dist = hd * urand(&r, 2.001, 4); /* from the surface */
      int inside = k & 1;
      if (inside && dist >= s) {
        continue;
      }
      double rad = inside ? s - dist : s + dist, cen[3];
      for (int a = 0; a < 3; a++) {
        cen[a] = ctr[a] + rad * u[a] / un;
      }
      vxg_class cl = vxg_posed_cell_classify(&pc, cen, e);
      assert_int_equal(cl, inside ? VXG_INSIDE : VXG_OUTSIDE);
      mixed += cl == VXG_MIXED;
      n++;
    }
    free(c);
  }
  assert_int_equal(mixed, 0);
  assert_true(n > 50000);
}


// an atom moved by a rigid map takes at T(p) the value the original took at p
static void test_atom_transform_preserves_values(void **state) {
  (void)state;
  vxc_rng r = {7};
  for (int n = 0; n < 1000; n++) {
    vxg_cell *c = new_cell();
    double s = pow(10, urand(&r, -1, 0.5));
    if (n % 2) {
      one_prim(&r, c, s, 0, VXG_QUADRIC);
    } else {
      one_prim(&r, c, s, 0, VXG_TORUS);
    }
    vxg_xform t;
    vxc_test_rand_xform(&r, &t, 2);
    vxg_atom moved;
    vxg_atom_transform(&moved, &c->atom[0], &t);
    for (int k = 0; k < 20; k++) {
      double p[3] = {urand(&r, -2, 2), urand(&r, -2, 2), urand(&r, -2, 2)}, tp[3];
      vxg_xform_point(&t, p, tp);
      double g0[3], g1[3], rg[3];
      double f0 = vxg_atom_eval(&c->atom[0], p, g0), f1 = vxg_atom_eval(&moved, tp, g1);
      assert_double_near(f1, f0, 1e-11 * (1 + fabs(f0)) * (1 + s * s));
      /* gradients rotate with the map */
      vxg_xform_vector(&t, g0, rg);
      for (int a = 0; a < 3; a++) {
        assert_double_near(g1[a], rg[a], 1e-10 * (1 + fabs(rg[a])) * (1 + s));
      }
    }
    free(c);
  }
}


// the curvature bound holds for random quadrics and radii, and is within 2x of the truth
static void test_atom_curvature_bound_holds(void **state) {
  (void)state;
  vxc_rng r = {11};
  for (int n = 0; n < 2000; n++) {
    vxg_cell *c = new_cell();
    one_prim(&r, c, 1, 0, VXG_QUADRIC);
    const vxg_atom *a = &c->atom[0];
    double cen[3] = {urand(&r, -1, 1), urand(&r, -1, 1), urand(&r, -1, 1)};
    double rad = urand(&r, 0.01, 2), cb = -1, worst = 0;
    assert_int_equal(vxg_atom_curvature_bound(a, cen, rad, &cb), 0);
    double f0, g[3];
    f0 = vxg_atom_eval(a, cen, g);
    for (int k = 0; k < 200; k++) {
      double d[3] = {urand(&r, -1, 1), urand(&r, -1, 1), urand(&r, -1, 1)};
      double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      double p[3];
      for (int i = 0; i < 3; i++) {
        d[i] *= rad / dn;
        p[i] = cen[i] + d[i];
      }
      double dev = fabs(vxg_atom_eval(a, p, NULL) - f0 - (g[0] * d[0] + g[1] * d[1] + g[2] * d[2]));
      assert_true(dev <= cb + 1e-12);
      worst = fmax(worst, dev);
    }
    assert_true(worst >= 0.5 * cb * 0.9); /* 200 directions come close to the worst one */
    free(c);
  }
  /* a torus has no polynomial bound */
  vxg_cell *c = new_cell();
  one_prim(&r, c, 1, 0, VXG_TORUS);
  double cb = 0;
  const double z[3] = {0, 0, 0};
  assert_int_equal(vxg_atom_curvature_bound(&c->atom[0], z, 1, &cb), -1);
  free(c);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_classify_halfspace_never_contradicts_points),
      cmocka_unit_test(test_classify_slab_never_contradicts_points),
      cmocka_unit_test(test_classify_box_never_contradicts_points),
      cmocka_unit_test(test_classify_sphere_never_contradicts_points),
      cmocka_unit_test(test_classify_ellipsoid_never_contradicts_points),
      cmocka_unit_test(test_classify_cylinder_never_contradicts_points),
      cmocka_unit_test(test_classify_cone_never_contradicts_points),
      cmocka_unit_test(test_classify_torus_never_contradicts_points),
      cmocka_unit_test(test_classify_quadric_never_contradicts_points),
      cmocka_unit_test(test_classify_grooved_block_never_contradicts_points),
      cmocka_unit_test(test_classify_sphere_minus_sphere_never_contradicts_points),
      cmocka_unit_test(test_classify_box_minus_torus_never_contradicts_points),
      cmocka_unit_test(test_classify_sphere_cut_never_contradicts_points),
      cmocka_unit_test(test_classify_finite_cylinder_never_contradicts_points),
      cmocka_unit_test(test_classify_frustum_never_contradicts_points),
      cmocka_unit_test(test_classify_hyperboloid_never_contradicts_points),
      cmocka_unit_test(test_classify_touching_boxes_never_contradict_corners),
      cmocka_unit_test(test_classify_box_over_groove_is_mixed),
      cmocka_unit_test(test_classify_sphere_bound_is_tight),
      cmocka_unit_test(test_atom_transform_preserves_values),
      cmocka_unit_test(test_atom_curvature_bound_holds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
