/* test_geom_cell.c: primitives' parameter checks, cell capacities, and what
 * vxg_cell_finish derives (geom/prim.c, geom/cell.c, geom/support.c): convexity, hulls,
 * bounding boxes against closed forms in random poses, unbounded and empty cells. */
#include "geom/geom.h"
#include "tests/vxc_test.h"

static double urand(vxc_rng *r, double lo, double hi) {
  return vxc_rng_uniform(r, lo, hi);
}


static vxg_cell *new_cell(const char *name) {
  vxg_cell *c = calloc(1, sizeof *c);
  assert_non_null(c);
  c->name = (char *)name;
  c->line = 12;
  c->column = 3;
  vxg_xform_identity(&c->pose);
  return c;
}


static void add(vxg_cell *c, vxg_prim_kind kind, const double *param, int n, int complement,
                const vxg_xform *move) {
  vxg_prim p;
  vxc_error err;
  assert_int_equal(vxg_prim_init(&p, kind, param, n, complement, move, &err), VXC_OK);
  assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_OK);
}


static void finish_ok(vxg_cell *c) {
  vxc_error err;
  memset(&err, 0, sizeof err);
  vxc_status st = vxg_cell_finish(c, "m.vxm", &err);
  if (st != VXC_OK) {
    fail_msg("finish failed: %s", err.message);
  }
}


/* Column k of a rotation (the image of axis k). */
static void column(const vxg_xform *x, int k, double a[3]) {
  for (int i = 0; i < 3; i++) {
    a[i] = x->r[3 * i + k];
  }
}


static void expect_box(const double got[6], const double lo[3], const double hi[3], double tol) {
  for (int i = 0; i < 3; i++) {
    assert_double_near(got[i], lo[i], tol);
    assert_double_near(got[3 + i], hi[i], tol);
  }
}


/* ---------------------------------------------------------------------------------------
 * Primitives */

// kind names and parameter counts follow the model-file grammar
static void test_prim_kind_names_and_counts(void **state) {
  (void)state;
  assert_string_equal(vxg_prim_kind_name(VXG_HALFSPACE), "halfspace");
  assert_string_equal(vxg_prim_kind_name(VXG_TORUS), "torus");
  assert_string_equal(vxg_prim_kind_name(VXG_MESH), "mesh");
  assert_string_equal(vxg_prim_kind_name(VXG_NPRIM_KIND), "?");
  assert_int_equal(vxg_prim_kind_nparam(VXG_HALFSPACE), 4);
  assert_int_equal(vxg_prim_kind_nparam(VXG_SLAB), 3);
  assert_int_equal(vxg_prim_kind_nparam(VXG_CONE), 1);
  assert_int_equal(vxg_prim_kind_nparam(VXG_QUADRIC), 10);
  assert_int_equal(vxg_prim_kind_nparam(VXG_MESH), 0);
}


// a half-space normal is normalised and its offset divided by the normal's length
static void test_prim_init_normalises_halfspace(void **state) {
  (void)state;
  vxg_prim p;
  vxc_error err;
  const double h[4] = {0, 3, 4, 10};
  assert_int_equal(vxg_prim_init(&p, VXG_HALFSPACE, h, 4, 1, NULL, &err), VXC_OK);
  assert_double_near(p.param[0], 0, 0);
  assert_double_near(p.param[1], 0.6, 1e-15);
  assert_double_near(p.param[2], 0.8, 1e-15);
  assert_double_near(p.param[3], 2, 1e-15);
  assert_int_equal(p.complement, 1);
  assert_double_near(p.move.r[0], 1, 0);
}


/* Expects VXC_ERR_ARG with `word` in the message and *p untouched. */
static void expect_bad(vxg_prim_kind kind, const double *param, int n, const char *word) {
  vxg_prim p;
  memset(&p, 0x5a, sizeof p);
  vxg_prim before = p;
  vxc_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(vxg_prim_init(&p, kind, param, n, 0, NULL, &err), VXC_ERR_ARG);
  assert_int_equal(err.status, VXC_ERR_ARG);
  if (!strstr(err.message, word)) {
    fail_msg("message '%s' does not name '%s'", err.message, word);
  }
  assert_memory_equal(&p, &before, sizeof p);
}


// bad parameters give VXC_ERR_ARG, a message naming the parameter, and leave *p untouched
static void test_prim_init_rejects_bad_parameters_naming_them(void **state) {
  (void)state;
  const double neg = -1, zero = 0, big = 2e4, nan = NAN;
  expect_bad(VXG_SPHERE, &neg, 1, "radius");
  expect_bad(VXG_SPHERE, &zero, 1, "radius");
  expect_bad(VXG_SPHERE, &big, 1, "radius");
  expect_bad(VXG_CYLINDER, &nan, 1, "radius");
  const double b[3] = {1, -2, 1};
  expect_bad(VXG_BOX, b, 3, "ly");
  const double e[3] = {1, 1, 0};
  expect_bad(VXG_ELLIPSOID, e, 3, "semi-axis c");
  const double s1[3] = {1, 2, 1}, s2[3] = {3, 0, 1};
  expect_bad(VXG_SLAB, s1, 3, "lo");
  expect_bad(VXG_SLAB, s2, 3, "axis");
  const double cone0 = 0, cone90 = M_PI / 2;
  expect_bad(VXG_CONE, &cone0, 1, "half-angle");
  expect_bad(VXG_CONE, &cone90, 1, "half-angle");
  const double t[2] = {1, -0.1};
  expect_bad(VXG_TORUS, t, 2, "minor radius r");
  const double h[4] = {0, 0, 0, 1};
  expect_bad(VXG_HALFSPACE, h, 4, "normal");
  const double hd[4] = {0, 0, 1, 3e4};
  expect_bad(VXG_HALFSPACE, hd, 4, "offset d");
  const double q[10] = {0};
  expect_bad(VXG_QUADRIC, q, 10, "not all be zero");
  const double qn[10] = {1, 1, 1, 0, 0, INFINITY, 0, 0, 0, -1};
  expect_bad(VXG_QUADRIC, qn, 10, "coefficient F");
  expect_bad(VXG_SPHERE, b, 3, "sphere takes 1 parameter");
}


// a cell takes VXG_MAX_PRIMS primitives and VXG_MAX_ATOMS atoms, then VXC_ERR_LIMIT
static void test_cell_add_prim_limits(void **state) {
  (void)state;
  vxg_cell *c = new_cell("many");
  const double r = 1;
  vxg_prim p;
  vxc_error err;
  assert_int_equal(vxg_prim_init(&p, VXG_SPHERE, &r, 1, 0, NULL, &err), VXC_OK);
  for (int i = 0; i < VXG_MAX_PRIMS; i++) {
    assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_OK);
  }
  assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_ERR_LIMIT);
  assert_non_null(strstr(err.message, "'many'"));
  assert_int_equal(c->nprim, VXG_MAX_PRIMS);
  free(c);

  /* boxes take six atoms each: the eleventh would need 66 */
  c = new_cell("boxes");
  const double b[3] = {1, 1, 1};
  assert_int_equal(vxg_prim_init(&p, VXG_BOX, b, 3, 0, NULL, &err), VXC_OK);
  for (int i = 0; i < VXG_MAX_ATOMS / 6; i++) {
    assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_OK);
  }
  assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_ERR_LIMIT);
  assert_int_equal(c->natom, 6 * (VXG_MAX_ATOMS / 6));
  free(c);
}


// atoms are made in the cell frame: a moved sphere contains exactly the moved ball
static void test_cell_contains_moved_and_complemented_primitives(void **state) {
  (void)state;
  vxc_rng r = {5};
  for (int n = 0; n < 200; n++) {
    vxg_cell *c = new_cell("m");
    vxg_xform mv;
    vxc_test_rand_xform(&r, &mv, 2);
    const double rad = urand(&r, 0.1, 1), h[4] = {0, 0, 1, 0};
    add(c, VXG_SPHERE, &rad, 1, 0, &mv);
    add(c, VXG_HALFSPACE, h, 4, 1, &mv); /* keeps the upper half (local z > 0) */
    for (int k = 0; k < 100; k++) {
      double p[3], l[3];
      for (int a = 0; a < 3; a++) {
        p[a] = mv.t[a] + urand(&r, -1.2 * rad, 1.2 * rad);
      }
      vxg_xform inv;
      vxg_xform_inverse(&inv, &mv);
      vxg_xform_point(&inv, p, l);
      double d = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
      if (fabs(d - rad) < 1e-9 || fabs(l[2]) < 1e-9) {
        continue;
      }
      assert_int_equal(vxg_cell_contains(c, p), d < rad && l[2] > 0);
    }
    free(c);
  }
}


/* ---------------------------------------------------------------------------------------
 * Bounding boxes against closed forms */

// a moved sphere's box in a random pose is its centre +- r
static void test_cell_aabb_sphere_matches_closed_form(void **state) {
  (void)state;
  vxc_rng r = {21};
  for (int n = 0; n < 500; n++) {
    vxg_cell *c = new_cell("s");
    vxg_xform mv, to;
    vxc_test_rand_xform(&r, &mv, 1);
    vxc_test_rand_xform(&r, &to, 3);
    const double rad = urand(&r, 0.01, 2);
    add(c, VXG_SPHERE, &rad, 1, 0, &mv);
    finish_ok(c);
    double ctr[3], got[6], lo[3], hi[3];
    vxg_xform_point(&to, mv.t, ctr);
    vxg_cell_aabb(c, &to, got);
    for (int i = 0; i < 3; i++) {
      lo[i] = ctr[i] - rad;
      hi[i] = ctr[i] + rad;
    }
    expect_box(got, lo, hi, 1e-12 * (1 + rad));
    free(c);
  }
}


// a box's extent along axis i is sum_j |R_ij| l_j / 2
static void test_cell_aabb_box_matches_closed_form(void **state) {
  (void)state;
  vxc_rng r = {22};
  for (int n = 0; n < 500; n++) {
    vxg_cell *c = new_cell("b");
    vxg_xform mv, to, all;
    vxc_test_rand_xform(&r, &mv, 1);
    vxc_test_rand_xform(&r, &to, 3);
    const double l[3] = {urand(&r, 0.01, 2), urand(&r, 0.01, 2), urand(&r, 0.01, 2)};
    add(c, VXG_BOX, l, 3, 0, &mv);
    finish_ok(c);
    assert_int_equal(c->hull.kind, VXG_HULL_BOX);
    assert_int_equal(c->hull.exact, 1);
    vxg_xform_compose(&all, &to, &mv);
    double got[6], lo[3], hi[3];
    vxg_cell_aabb(c, &to, got);
    for (int i = 0; i < 3; i++) {
      double h = 0;
      for (int j = 0; j < 3; j++) {
        h += fabs(all.r[3 * i + j]) * 0.5 * l[j];
      }
      lo[i] = all.t[i] - h;
      hi[i] = all.t[i] + h;
    }
    expect_box(got, lo, hi, 1e-12);
    free(c);
  }
}


// a finite cylinder's extent along i is h |a_i| + R sqrt(1 - a_i^2) about its centre
static void test_cell_aabb_finite_cylinder_matches_closed_form(void **state) {
  (void)state;
  vxc_rng r = {23};
  for (int n = 0; n < 500; n++) {
    vxg_cell *c = new_cell("cyl");
    vxg_xform mv, to, all;
    vxc_test_rand_xform(&r, &mv, 1);
    vxc_test_rand_xform(&r, &to, 3);
    const double rad = urand(&r, 0.01, 2), lo_z = -urand(&r, 0.01, 1), hi_z = urand(&r, 0.01, 1);
    const double sl[3] = {2, lo_z, hi_z};
    add(c, VXG_CYLINDER, &rad, 1, 0, &mv);
    if (n % 2) {
      add(c, VXG_SLAB, sl, 3, 0, &mv);
    } else {
      /* the same caps as two half-spaces, the lower one complemented */
      const double up[4] = {0, 0, 2, 2 * hi_z}, down[4] = {0, 0, 1, lo_z};
      add(c, VXG_HALFSPACE, up, 4, 0, &mv);
      add(c, VXG_HALFSPACE, down, 4, 1, &mv);
    }
    finish_ok(c);
    assert_int_equal(c->hull.kind, VXG_HULL_CYLINDER);
    assert_int_equal(c->hull.exact, 1);
    assert_int_equal(c->convex, n % 2 ? 1 : 1);
    vxg_xform_compose(&all, &to, &mv);
    double a[3], mid[3], zc = 0.5 * (lo_z + hi_z), h = 0.5 * (hi_z - lo_z);
    column(&all, 2, a);
    double lz[3] = {0, 0, zc};
    vxg_xform_point(&all, lz, mid);
    double got[6], lo[3], hi[3];
    vxg_cell_aabb(c, &to, got);
    for (int i = 0; i < 3; i++) {
      double ext = h * fabs(a[i]) + rad * sqrt(fmax(0, 1 - a[i] * a[i]));
      lo[i] = mid[i] - ext;
      hi[i] = mid[i] + ext;
    }
    expect_box(got, lo, hi, 1e-12);
    free(c);
  }
}


// a torus's extent along i is R sqrt(1 - a_i^2) + r about its centre (a: its axis)
static void test_cell_aabb_torus_matches_closed_form(void **state) {
  (void)state;
  vxc_rng r = {24};
  for (int n = 0; n < 500; n++) {
    vxg_cell *c = new_cell("tor");
    vxg_xform mv, to, all;
    vxc_test_rand_xform(&r, &mv, 1);
    vxc_test_rand_xform(&r, &to, 3);
    const double t[2] = {urand(&r, 0.1, 2), urand(&r, 0.01, 0.1)};
    add(c, VXG_TORUS, t, 2, 0, &mv);
    finish_ok(c);
    assert_int_equal(c->hull.kind, VXG_HULL_TORUS);
    assert_int_equal(c->hull.exact, 0);
    assert_int_equal(c->convex, 0);
    vxg_xform_compose(&all, &to, &mv);
    double a[3], got[6], lo[3], hi[3];
    column(&all, 2, a);
    vxg_cell_aabb(c, &to, got);
    for (int i = 0; i < 3; i++) {
      double ext = t[0] * sqrt(fmax(0, 1 - a[i] * a[i])) + t[1];
      lo[i] = all.t[i] - ext;
      hi[i] = all.t[i] + ext;
    }
    expect_box(got, lo, hi, 1e-12);
    free(c);
  }
}


// an ellipsoid's extent along i is sqrt(sum_j (R_ij s_j)^2); a positive definite general
// quadric describing the same ellipsoid gets the same box
static void test_cell_aabb_ellipsoid_matches_closed_form(void **state) {
  (void)state;
  vxc_rng r = {25};
  for (int n = 0; n < 500; n++) {
    vxg_cell *c = new_cell("ell");
    vxg_xform mv, to, all;
    vxc_test_rand_xform(&r, &mv, 1);
    vxc_test_rand_xform(&r, &to, 3);
    const double s[3] = {urand(&r, 0.01, 2), urand(&r, 0.01, 2), urand(&r, 0.01, 2)};
    if (n % 2) {
      add(c, VXG_ELLIPSOID, s, 3, 0, &mv);
    } else {
      /* x^2/a^2 + y^2/b^2 + z^2/c^2 - 1 scaled by 3, as a general quadric */
      const double q[10] = {
          3 / (s[0] * s[0]), 3 / (s[1] * s[1]), 3 / (s[2] * s[2]), 0, 0, 0, 0, 0, 0, -3};
      add(c, VXG_QUADRIC, q, 10, 0, &mv);
    }
    finish_ok(c);
    assert_int_equal(c->hull.kind, VXG_HULL_ELLIPSOID);
    assert_int_equal(c->hull.exact, 1);
    assert_int_equal(c->convex, 1);
    vxg_xform_compose(&all, &to, &mv);
    double got[6], lo[3], hi[3];
    vxg_cell_aabb(c, &to, got);
    for (int i = 0; i < 3; i++) {
      double ext = 0;
      for (int j = 0; j < 3; j++) {
        ext += all.r[3 * i + j] * all.r[3 * i + j] * s[j] * s[j];
      }
      ext = sqrt(ext);
      lo[i] = all.t[i] - ext;
      hi[i] = all.t[i] + ext;
    }
    expect_box(got, lo, hi, 1e-11);
    free(c);
  }
}


/* ---------------------------------------------------------------------------------------
 * Convexity, hulls, unbounded and empty cells */

// convex exactly when every primitive is: complements of curved sets and tori are not
static void test_cell_convexity_flags(void **state) {
  (void)state;
  const double r = 0.5, b[3] = {1, 1, 1}, h[4] = {1, 0, 0, 0.2}, t[2] = {1, 0.2};
  vxg_xform up;
  vxg_xform_translation(&up, 0, 0, 0.5);
  struct {
    int conv;
    vxg_cell *c;
  } cases[8];
  for (int i = 0; i < 8; i++) {
    cases[i].c = new_cell("k");
  }
  add(cases[0].c, VXG_SPHERE, &r, 1, 0, NULL), cases[0].conv = 1;
  add(cases[1].c, VXG_BOX, b, 3, 0, NULL), add(cases[1].c, VXG_HALFSPACE, h, 4, 1, NULL);
  cases[1].conv = 1;
  add(cases[2].c, VXG_BOX, b, 3, 0, NULL), add(cases[2].c, VXG_CYLINDER, &r, 1, 1, &up);
  cases[2].conv = 0; /* the grooved block */
  add(cases[3].c, VXG_TORUS, t, 2, 0, NULL), cases[3].conv = 0;
  add(cases[4].c, VXG_BOX, b, 3, 0, NULL), add(cases[4].c, VXG_SPHERE, &r, 1, 1, &up);
  cases[4].conv = 0;
  /* a PSD quadric (an elliptic cylinder) cut by a box: convex */
  const double qc[10] = {1, 2, 0, 0.5, 0, 0, 0, 0, 0, -0.1};
  add(cases[5].c, VXG_QUADRIC, qc, 10, 0, NULL), add(cases[5].c, VXG_BOX, b, 3, 0, NULL);
  cases[5].conv = 1;
  /* an indefinite quadric (hyperboloid) cut by a box: not proved convex */
  const double qh[10] = {1, 1, -1, 0, 0, 0, 0, 0, 0, -0.1};
  add(cases[6].c, VXG_QUADRIC, qh, 10, 0, NULL), add(cases[6].c, VXG_BOX, b, 3, 0, NULL);
  cases[6].conv = 0;
  /* the complement of a NSD quadric, -(x^2 + y^2) + 0.1 > 0 (a cylinder), cut by a box */
  const double qn[10] = {-1, -1, 0, 0, 0, 0, 0, 0, 0, 0.1};
  add(cases[7].c, VXG_QUADRIC, qn, 10, 1, NULL), add(cases[7].c, VXG_BOX, b, 3, 0, NULL);
  cases[7].conv = 1;
  for (int i = 0; i < 8; i++) {
    finish_ok(cases[i].c);
    assert_int_equal(cases[i].c->convex, cases[i].conv);
    free(cases[i].c);
  }
}


/* Finishes `c` expecting VXC_ERR_GEOMETRY and the words in the message. */
static void expect_geometry_error(vxg_cell *c, const char *word) {
  vxc_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(vxg_cell_finish(c, "model.vxm", &err), VXC_ERR_GEOMETRY);
  assert_int_equal(err.status, VXC_ERR_GEOMETRY);
  assert_int_equal(err.line, 12);
  assert_int_equal(err.column, 3);
  assert_string_equal(err.file, "model.vxm");
  char want[256];
  snprintf(want, sizeof want, "cell '%s' %s", c->name, word);
  if (!strstr(err.message, want) || !strstr(err.message, "model.vxm:12:3")) {
    fail_msg("message '%s' lacks '%s' or the position", err.message, want);
  }
}


// a lone cylinder, a lone half-space, an uncapped cone, a cylinder with one cap are unbounded
static void test_cell_finish_rejects_unbounded_cells(void **state) {
  (void)state;
  const double r = 0.5, h[4] = {0.3, 0.1, 1, 0.2}, a = 0.4, cap[4] = {0, 0, 1, 1};
  vxg_cell *c = new_cell("lone-cylinder");
  add(c, VXG_CYLINDER, &r, 1, 0, NULL);
  expect_geometry_error(c, "is unbounded");
  free(c);
  c = new_cell("lone-halfspace");
  add(c, VXG_HALFSPACE, h, 4, 0, NULL);
  expect_geometry_error(c, "is unbounded");
  free(c);
  c = new_cell("open-cone");
  add(c, VXG_CONE, &a, 1, 0, NULL);
  expect_geometry_error(c, "is unbounded");
  free(c);
  c = new_cell("half-capped");
  add(c, VXG_CYLINDER, &r, 1, 0, NULL);
  add(c, VXG_HALFSPACE, cap, 4, 0, NULL);
  expect_geometry_error(c, "is unbounded");
  free(c);
  c = new_cell("outside-of-ball");
  add(c, VXG_SPHERE, &r, 1, 1, NULL);
  expect_geometry_error(c, "is unbounded");
  free(c);
  c = new_cell("nothing");
  expect_geometry_error(c, "has no primitive");
  free(c);
}


// disjoint spheres, a sphere beyond its cut, a slab of a cylinder with lo >= hi are empty
static void test_cell_finish_rejects_empty_cells(void **state) {
  (void)state;
  const double r = 0.5, h[4] = {0, 0, 1, -0.6};
  vxg_xform far;
  vxg_xform_translation(&far, 2, 0, 0);
  vxg_cell *c = new_cell("apart");
  add(c, VXG_SPHERE, &r, 1, 0, NULL);
  add(c, VXG_SPHERE, &r, 1, 0, &far);
  expect_geometry_error(c, "is empty");
  free(c);
  c = new_cell("cut-away");
  add(c, VXG_SPHERE, &r, 1, 0, NULL);
  add(c, VXG_HALFSPACE, h, 4, 0, NULL);
  expect_geometry_error(c, "is empty");
  free(c);
  const double up[4] = {0, 0, 1, 0.1}, down[4] = {0, 0, -1, -0.2};
  c = new_cell("no-height");
  add(c, VXG_CYLINDER, &r, 1, 0, NULL);
  add(c, VXG_HALFSPACE, up, 4, 0, NULL);
  add(c, VXG_HALFSPACE, down, 4, 0, NULL);
  expect_geometry_error(c, "is empty");
  free(c);
}


/* Random points of the cell: rejection sampling in its box. Returns how many were found. */
static int sample_cell(vxc_rng *r, const vxg_cell *c, double (*pts)[3], int want) {
  int n = 0;
  for (int k = 0; k < 200 * want && n < want; k++) {
    double p[3];
    for (int a = 0; a < 3; a++) {
      p[a] = urand(r, c->aabb[a], c->aabb[3 + a]);
    }
    if (vxg_cell_contains(c, p)) {
      memcpy(pts[n++], p, sizeof p);
    }
  }
  return n;
}


/* Every cell point found in a wide box around `ctr` lies in the cell's boxes (cell frame and
 * a random pose). */
static void expect_box_holds_points(vxc_rng *r, const vxg_cell *c, const double ctr[3],
                                    double reach) {
  vxg_xform to;
  vxc_test_rand_xform(r, &to, 2);
  double pb[6];
  vxg_cell_aabb(c, &to, pb);
  for (int k = 0; k < 20000; k++) {
    double p[3], q[3];
    for (int a = 0; a < 3; a++) {
      p[a] = ctr[a] + urand(r, -reach, reach);
    }
    if (!vxg_cell_contains(c, p)) {
      continue;
    }
    vxg_xform_point(&to, p, q);
    for (int a = 0; a < 3; a++) {
      assert_true(p[a] >= c->aabb[a] && p[a] <= c->aabb[3 + a]);
      assert_true(q[a] >= pb[a] && q[a] <= pb[3 + a]);
    }
  }
}


// four half-spaces forming a tetrahedron: bounded, with the vertices' box
static void test_cell_tetrahedron_of_halfspaces_is_bounded(void **state) {
  (void)state;
  vxc_rng r = {31};
  for (int n = 0; n < 50; n++) {
    /* vertices v0..v3; face k is opposite v_k, outward normal away from v_k */
    double v[4][3];
    vxg_xform mv;
    vxc_test_rand_xform(&r, &mv, 1);
    const double base[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double sc = urand(&r, 0.05, 3);
    for (int i = 0; i < 4; i++) {
      double b[3] = {sc * base[i][0], sc * base[i][1], sc * base[i][2]};
      vxg_xform_point(&mv, b, v[i]);
    }
    vxg_cell *c = new_cell("tet");
    for (int k = 0; k < 4; k++) {
      const double *a = v[(k + 1) % 4], *b = v[(k + 2) % 4], *d = v[(k + 3) % 4];
      double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
      double w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
      double nrm[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                       u[0] * w[1] - u[1] * w[0]};
      double off = nrm[0] * a[0] + nrm[1] * a[1] + nrm[2] * a[2];
      if (nrm[0] * v[k][0] + nrm[1] * v[k][1] + nrm[2] * v[k][2] > off) {
        for (int i = 0; i < 3; i++) {
          nrm[i] = -nrm[i];
        }
        off = -off;
      }
      const double h[4] = {nrm[0], nrm[1], nrm[2], off};
      add(c, VXG_HALFSPACE, h, 4, 0, NULL);
    }
    finish_ok(c);
    assert_int_equal(c->convex, 1);
    assert_int_equal(c->hull.kind, VXG_HULL_BOX);
    assert_int_equal(c->hull.exact, 0);
    double lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
      lo[a] = fmin(fmin(v[0][a], v[1][a]), fmin(v[2][a], v[3][a]));
      hi[a] = fmax(fmax(v[0][a], v[1][a]), fmax(v[2][a], v[3][a]));
    }
    expect_box(c->aabb, lo, hi, 1e-8 * sc);
    expect_box_holds_points(&r, c, mv.t, 2 * sc);
    free(c);
  }
}


// a cylinder cut by oblique half-spaces is bounded by clipping, and its box holds it
static void test_cell_oblique_cylinder_cut_is_bounded(void **state) {
  (void)state;
  vxc_rng r = {32};
  for (int n = 0; n < 50; n++) {
    vxg_cell *c = new_cell("oblique");
    vxg_xform mv;
    vxc_test_rand_xform(&r, &mv, 1);
    const double rad = urand(&r, 0.1, 1);
    add(c, VXG_CYLINDER, &rad, 1, 0, &mv);
    const double up[4] = {urand(&r, -0.5, 0.5), urand(&r, -0.5, 0.5), 1, urand(&r, 0.2, 1)};
    const double dn[4] = {urand(&r, -0.5, 0.5), urand(&r, -0.5, 0.5), -1, urand(&r, 0.2, 1)};
    add(c, VXG_HALFSPACE, up, 4, 0, &mv);
    add(c, VXG_HALFSPACE, dn, 4, 0, &mv);
    finish_ok(c);
    assert_int_equal(c->convex, 1);
    assert_int_equal(c->hull.exact, 0);
    expect_box_holds_points(&r, c, mv.t, 4);
    /* not uselessly loose: within the circumscribed prism's slack of the sampled extent */
    double pts[400][3];
    int np = sample_cell(&r, c, pts, 400);
    assert_true(np > 100);
    for (int a = 0; a < 3; a++) {
      double lo = HUGE_VAL, hi = -HUGE_VAL;
      for (int i = 0; i < np; i++) {
        lo = fmin(lo, pts[i][a]);
        hi = fmax(hi, pts[i][a]);
      }
      assert_true(hi - lo > 0.5 * (c->aabb[3 + a] - c->aabb[a]));
    }
    free(c);
  }
}


// three slabs make an exact box hull; a box minus a groove keeps an inexact box hull
static void test_cell_hull_kinds_of_combinations(void **state) {
  (void)state;
  vxg_cell *c = new_cell("slabs");
  const double sx[3] = {0, -1, 2}, sy[3] = {1, -0.5, 0.5}, sz[3] = {2, 0, 3};
  add(c, VXG_SLAB, sx, 3, 0, NULL);
  add(c, VXG_SLAB, sy, 3, 0, NULL);
  add(c, VXG_SLAB, sz, 3, 0, NULL);
  finish_ok(c);
  assert_int_equal(c->hull.kind, VXG_HULL_BOX);
  assert_int_equal(c->hull.exact, 1);
  const double lo[3] = {-1, -0.5, 0}, hi[3] = {2, 0.5, 3};
  expect_box(c->aabb, lo, hi, 1e-12);
  free(c);

  c = new_cell("groove");
  const double b[3] = {0.4, 0.4, 0.2}, cr = 0.12;
  vxg_xform g;
  const double y[3] = {0, 1, 0};
  vxg_xform_axis_angle(&g, y, M_PI / 2);
  g.t[2] = 0.1;
  add(c, VXG_BOX, b, 3, 0, NULL);
  add(c, VXG_CYLINDER, &cr, 1, 1, &g);
  finish_ok(c);
  assert_int_equal(c->hull.kind, VXG_HULL_BOX);
  assert_int_equal(c->hull.exact, 0);
  const double glo[3] = {-0.2, -0.2, -0.1}, ghi[3] = {0.2, 0.2, 0.1};
  expect_box(c->aabb, glo, ghi, 1e-12);
  free(c);

  c = new_cell("cap");
  const double r = 1, h[4] = {0, 0, 1, 0.5}, a = 0.5, sl[3] = {2, 0.5, 2};
  add(c, VXG_SPHERE, &r, 1, 0, NULL);
  add(c, VXG_HALFSPACE, h, 4, 0, NULL);
  finish_ok(c);
  assert_int_equal(c->hull.kind, VXG_HULL_SEGMENT);
  assert_int_equal(c->hull.exact, 1);
  const double clo[3] = {-1, -1, -1}, chi[3] = {1, 1, 0.5};
  expect_box(c->aabb, clo, chi, 1e-12);
  free(c);

  c = new_cell("frustum");
  add(c, VXG_CONE, &a, 1, 0, NULL);
  add(c, VXG_SLAB, sl, 3, 0, NULL);
  finish_ok(c);
  assert_int_equal(c->hull.kind, VXG_HULL_FRUSTUM);
  assert_int_equal(c->hull.exact, 1);
  double t = tan(a) * 2;
  const double flo[3] = {-t, -t, 0.5}, fhi[3] = {t, t, 2};
  expect_box(c->aabb, flo, fhi, 1e-12);
  free(c);
}


/* Builds the exact-hull cell number `k` (random pose and size). */
static void build_exact(vxc_rng *r, vxg_cell *c, int k) {
  vxg_xform mv;
  vxc_test_rand_xform(r, &mv, 1);
  double s = urand(r, 0.05, 2);
  switch (k % 8) {
    case 0:
      add(c, VXG_SPHERE, &s, 1, 0, &mv);
      break;
    case 1: {
      const double e[3] = {s, urand(r, 0.05, 2), urand(r, 0.05, 2)};
      add(c, VXG_ELLIPSOID, e, 3, 0, &mv);
      break;
    }
    case 2: {
      const double b[3] = {s, urand(r, 0.05, 2), urand(r, 0.05, 2)};
      add(c, VXG_BOX, b, 3, 0, &mv);
      break;
    }
    case 3: {
      const double sl[3] = {2, -urand(r, 0.05, 1), urand(r, 0.05, 1)};
      add(c, VXG_CYLINDER, &s, 1, 0, &mv);
      add(c, VXG_SLAB, sl, 3, 0, &mv);
      break;
    }
    case 4: {
      const double a = urand(r, 0.1, 1.3), sl[3] = {2, urand(r, 0, 0.5), urand(r, 0.6, 2)};
      add(c, VXG_CONE, &a, 1, 0, &mv);
      add(c, VXG_SLAB, sl, 3, 0, &mv);
      break;
    }
    case 5: {
      /* a unit normal, so that the offset is the plane's distance from the centre */
      double n[3] = {urand(r, -1, 1), urand(r, -1, 1), urand(r, -1, 1) + 0.01};
      double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      const double h[4] = {n[0] / nn, n[1] / nn, n[2] / nn, urand(r, -0.9, 0.9) * s};
      add(c, VXG_SPHERE, &s, 1, 0, &mv);
      add(c, VXG_HALFSPACE, h, 4, 0, &mv);
      break;
    }
    case 6: {
      const double sx[3] = {0, -s, s}, sy[3] = {1, -1, urand(r, -0.9, 1)}, sz[3] = {2, 0, 0.3};
      add(c, VXG_SLAB, sx, 3, 0, &mv);
      add(c, VXG_SLAB, sy, 3, 0, &mv);
      add(c, VXG_SLAB, sz, 3, 0, &mv);
      break;
    }
    default: {
      /* a positive definite general quadric with a linear part: an off-centre ellipsoid */
      const double q[10] = {2, 1, 3, 0.5, -0.4, 0.3, 0.2, -0.1, 0.3, -s};
      add(c, VXG_QUADRIC, q, 10, 0, &mv);
      break;
    }
  }
}


// exact hulls: support points are on the cell's boundary (a step inward is inside, a step
// outward along d is outside) and maximise d.x over sampled cell points
static void test_cell_exact_hull_support_on_boundary(void **state) {
  (void)state;
  vxc_rng r = {41};
  for (int n = 0; n < 400; n++) {
    vxg_cell *c = new_cell("exact");
    build_exact(&r, c, n);
    finish_ok(c);
    if (!c->hull.exact) {
      fail_msg("case %d: hull kind %d not exact", n % 8, (int)c->hull.kind);
    }
    assert_int_equal(c->convex, 1);
    double size = 0;
    for (int a = 0; a < 3; a++) {
      size = fmax(size, c->aabb[3 + a] - c->aabb[a]);
    }
    double pts[300][3];
    int np = sample_cell(&r, c, pts, 300);
    assert_true(np > 50);
    double ctr[3] = {0, 0, 0};
    for (int i = 0; i < np; i++) {
      for (int a = 0; a < 3; a++) {
        ctr[a] += pts[i][a] / np;
      }
    }
    for (int k = 0; k < 100; k++) {
      double d[3] = {urand(&r, -1, 1), urand(&r, -1, 1), urand(&r, -1, 1)};
      if (k < 6) {
        /* axis directions: no NaN from vanishing components */
        d[0] = d[1] = d[2] = 0;
        d[k / 2] = (k & 1) ? -1 : 1;
      }
      double s[3], dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      vxg_hull_support(&c->hull, d, s);
      double step = 1e-6 * size, in[3], out[3], cs[3], cn = 0;
      for (int a = 0; a < 3; a++) {
        assert_true(isfinite(s[a]));
        cs[a] = ctr[a] - s[a];
        cn += cs[a] * cs[a];
      }
      cn = sqrt(cn);
      for (int a = 0; a < 3; a++) {
        in[a] = s[a] + step * cs[a] / cn;
        out[a] = s[a] + step * d[a] / dn;
      }
      if (!vxg_cell_contains(c, in) || vxg_cell_contains(c, out)) {
        fail_msg("case %d dir %d: support (%g %g %g) in %d out %d", n % 8, k, s[0], s[1], s[2],
                 vxg_cell_contains(c, in), vxg_cell_contains(c, out));
      }
      double best = d[0] * s[0] + d[1] * s[1] + d[2] * s[2];
      for (int i = 0; i < np; i++) {
        assert_true(d[0] * pts[i][0] + d[1] * pts[i][1] + d[2] * pts[i][2] <= best + 1e-12 * size);
      }
    }
    /* a zero direction gives a finite point of the hull */
    const double z[3] = {0, 0, 0};
    double s0[3];
    vxg_hull_support(&c->hull, z, s0);
    for (int a = 0; a < 3; a++) {
      assert_true(isfinite(s0[a]));
      assert_true(s0[a] >= c->aabb[a] - 1e-9 && s0[a] <= c->aabb[3 + a] + 1e-9);
    }
    free(c);
  }
}


// every hull (exact or not) holds the cell: no sampled cell point beyond a support plane
static void test_cell_inexact_hulls_hold_the_cell(void **state) {
  (void)state;
  vxc_rng r = {43};
  for (int n = 0; n < 200; n++) {
    vxg_cell *c = new_cell("inexact");
    vxg_xform mv;
    vxc_test_rand_xform(&r, &mv, 0.5);
    const double t[2] = {urand(&r, 0.5, 1), urand(&r, 0.1, 0.4)}, b[3] = {2, 2, 1};
    const double s = 1, h[4] = {urand(&r, -1, 1), urand(&r, -1, 1), 1, 0.3};
    switch (n % 4) {
      case 0:
        add(c, VXG_TORUS, t, 2, 0, &mv);
        break;
      case 1:
        add(c, VXG_BOX, b, 3, 0, NULL);
        add(c, VXG_TORUS, t, 2, 1, &mv);
        break;
      case 2:
        add(c, VXG_SPHERE, &s, 1, 0, NULL);
        add(c, VXG_HALFSPACE, h, 4, 0, &mv);
        add(c, VXG_SPHERE, t, 1, 1, &mv);
        break;
      default:
        add(c, VXG_TORUS, t, 2, 0, &mv);
        add(c, VXG_BOX, b, 3, 0, NULL);
        break;
    }
    finish_ok(c);
    double pts[300][3];
    int np = sample_cell(&r, c, pts, 300);
    assert_true(np > 30);
    for (int k = 0; k < 50; k++) {
      double d[3] = {urand(&r, -1, 1), urand(&r, -1, 1), urand(&r, -1, 1)}, sp[3];
      vxg_hull_support(&c->hull, d, sp);
      double best = d[0] * sp[0] + d[1] * sp[1] + d[2] * sp[2];
      for (int i = 0; i < np; i++) {
        assert_true(d[0] * pts[i][0] + d[1] * pts[i][1] + d[2] * pts[i][2] <= best + 1e-12);
      }
    }
    free(c);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_prim_kind_names_and_counts),
      cmocka_unit_test(test_prim_init_normalises_halfspace),
      cmocka_unit_test(test_prim_init_rejects_bad_parameters_naming_them),
      cmocka_unit_test(test_cell_add_prim_limits),
      cmocka_unit_test(test_cell_contains_moved_and_complemented_primitives),
      cmocka_unit_test(test_cell_aabb_sphere_matches_closed_form),
      cmocka_unit_test(test_cell_aabb_box_matches_closed_form),
      cmocka_unit_test(test_cell_aabb_finite_cylinder_matches_closed_form),
      cmocka_unit_test(test_cell_aabb_torus_matches_closed_form),
      cmocka_unit_test(test_cell_aabb_ellipsoid_matches_closed_form),
      cmocka_unit_test(test_cell_convexity_flags),
      cmocka_unit_test(test_cell_finish_rejects_unbounded_cells),
      cmocka_unit_test(test_cell_finish_rejects_empty_cells),
      cmocka_unit_test(test_cell_tetrahedron_of_halfspaces_is_bounded),
      cmocka_unit_test(test_cell_oblique_cylinder_cut_is_bounded),
      cmocka_unit_test(test_cell_hull_kinds_of_combinations),
      cmocka_unit_test(test_cell_exact_hull_support_on_boundary),
      cmocka_unit_test(test_cell_inexact_hulls_hold_the_cell),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
