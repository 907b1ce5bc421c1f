/* test_mesh_selfx.c: meshes that intersect themselves are refused (geom/mesh_selfx.c), with
 * the exact orientation predicates they rest on (geom/orient.c). The predicates are checked
 * against determinants worked out by hand on points placed a few units in the last place off
 * a line or plane (where a plain floating-point evaluation errs); the triangle-pair test on
 * configurations whose answer is plain geometry; whole meshes on overlapping, touching,
 * nested and disjoint boxes, and on a fine sphere with one vertex pushed through it. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/mesh.h"
#include "geom/orient.h"
#include "tools/mesh_gen.h"

/* orient2d(a, (12, 12), (24, 24)) = 12 (a_y - a_x), so a = (0.5 + i ulp, 0.5 + j ulp) gives
 * sign(j - i) exactly; the naive determinant gets a good part of this grid wrong. */
static void test_orient2d_near_line(void **state) {
  (void)state;
  const double b[3] = {12, 12, 0}, c[3] = {24, 24, 0}, u = 0x1p-53;
  int wrong_naive = 0;
  for (int i = 0; i < 64; i++) {
    for (int j = 0; j < 64; j++) {
      double a[3] = {0.5 + i * u, 0.5 + j * u, 0};
      int want = (j > i) - (j < i);
      assert_int_equal(vxg_orient2d(a, b, c, 0, 1), want);
      volatile double l = (a[0] - c[0]) * (b[1] - c[1]), r = (a[1] - c[1]) * (b[0] - c[0]);
      wrong_naive += ((l > r) - (l < r)) != want;
    }
  }
  print_message("# orient2d: 4096 near-collinear points exact; the naive determinant errs on "
                "%d\n", wrong_naive);
}


/* With d = (0, 0, 5), b = (12, 12, 0), c = (24, 24, 0) (all in the plane x = y), the
 * determinant [a - d; b - d; c - d] is 60 (a_x - a_y). */
static void test_orient3d_near_plane(void **state) {
  (void)state;
  const double b[3] = {12, 12, 0}, c[3] = {24, 24, 0}, d[3] = {0, 0, 5}, u = 0x1p-53;
  for (int i = 0; i < 48; i++) {
    for (int j = 0; j < 48; j++) {
      double a[3] = {0.5 + i * u, 0.5 + j * u, 0.7 + (i - j) * 0.125};
      int want = (i > j) - (i < j);
      assert_int_equal(vxg_orient3d(a, b, c, d), want);
      assert_int_equal(vxg_orient3d(b, a, c, d), -want); /* a swap changes the sign */
    }
  }
  const double p[3] = {1, 0, 0}, q[3] = {0, 1, 0}, r[3] = {0, 0, 0}, top[3] = {0.2, 0.2, 1};
  assert_int_equal(vxg_orient3d(p, q, r, top), -1); /* above a counter-clockwise triangle */
}


/* ---------------------------------------------------------------------------------------
 * Triangle pairs: a two-triangle "mesh" (only v and tri are read by vxg_mesh_tris_meet) */

static int meet(const double (*v)[3], int nv, const int t0[3], const int t1[3]) {
  struct vxg_mesh m;
  memset(&m, 0, sizeof m);
  int tri[6] = {t0[0], t0[1], t0[2], t1[0], t1[1], t1[2]};
  m.v = (double *)v;
  m.nvert = nv;
  m.tri = tri;
  m.ntri = 2;
  int a = vxg_mesh_tris_meet(&m, 0, 1), b = vxg_mesh_tris_meet(&m, 1, 0);
  assert_int_equal(a, b); /* symmetric */
  return a;
}


static void test_pairs_shared_edge(void **state) {
  (void)state;
  /* edge 0-1 along x; vertex 2 at +y; 3 at -y (coplanar, other side), 4 at +y (folded
   * onto the first), 5 above (a dihedral angle) */
  const double v[6][3] = {{0, 0, 0}, {1, 0, 0}, {0.3, 1, 0}, {0.4, -1, 0}, {0.6, 0.5, 0},
                          {0.5, 0, 1}};
  const int t[3] = {0, 1, 2};
  assert_int_equal(meet(v, 6, t, (int[3]){1, 0, 3}), 0);
  assert_int_equal(meet(v, 6, t, (int[3]){1, 0, 4}), 1);
  assert_int_equal(meet(v, 6, t, (int[3]){1, 0, 5}), 0);
}


static void test_pairs_shared_vertex(void **state) {
  (void)state;
  const double v[][3] = {
      {0, 0, 0},                     /* 0: the shared vertex p */
      {1, 0, 0},   {0, 1, 0},        /* 1, 2: (p 1 2) in z = 0 */
      {-1, 0, 0},  {0, -1, 0},       /* 3, 4: the opposite quadrant, z = 0 */
      {1, 1, 0},   {2, 0.5, 0},      /* 5, 6: overlapping wedge, z = 0 */
      {0.5, 0.2, -1}, {0.5, 0.2, 1}, /* 7, 8: a triangle through (p 1 2)'s interior */
      {1, 0, 1},   {0, 1, 1},        /* 9, 10: (p 9 10) meets z = 0 only at p */
      {2, 0, 0},   {2, -1, 0},       /* 11, 12: p-11 runs along p-1 (a shared ray) */
      {-1, 3, 0},                    /* 13: (p 11 13) holds (p 1 2)'s whole wedge */
  };
  const int t[3] = {0, 1, 2};
  assert_int_equal(meet(v, 14, t, (int[3]){0, 3, 4}), 0);   /* coplanar, wedges apart */
  assert_int_equal(meet(v, 14, t, (int[3]){0, 6, 5}), 1);   /* coplanar, wedges overlap */
  assert_int_equal(meet(v, 14, t, (int[3]){0, 12, 11}), 1); /* coplanar, along p-1 */
  assert_int_equal(meet(v, 14, t, (int[3]){0, 11, 13}), 1); /* coplanar, containing it */
  assert_int_equal(meet(v, 14, t, (int[3]){0, 7, 8}), 1);   /* crossing beyond p */
  assert_int_equal(meet(v, 14, t, (int[3]){0, 9, 10}), 0);  /* touching at p only */
}


static void test_pairs_apart(void **state) {
  (void)state;
  const double v[][3] = {
      {0, 0, 0},      {1, 0, 0},       {0, 1, 0},       /* 0-2: the reference, z = 0 */
      {0.2, 0.2, -1}, {0.2, 0.2, 1},   {0.9, 0.9, 1},   /* 3-5: pierces it */
      {0.2, 0.2, 0.5}, {0.9, 0.1, 0.5}, {0.1, 0.9, 0.5}, /* 6-8: parallel, above */
      {0.25, 0.25, 0}, {2, 0.25, 1},   {2, 0.25, -1},   /* 9-11: corner in its interior */
      {0.1, 0.1, 0},  {2, 0.1, 0},     {0.1, 2, 0},     /* 12-14: coplanar, overlapping */
      {1, 1, 0},      {2, 1, 0},       {1, 2, 0},       /* 15-17: coplanar, apart */
      {0.5, 0.5, 0},  {2, 2, 1},       {2, 2, -1},      /* 18-20: corner on its edge */
  };
  const int t[3] = {0, 1, 2};
  assert_int_equal(meet(v, 21, t, (int[3]){3, 4, 5}), 1);
  assert_int_equal(meet(v, 21, t, (int[3]){6, 7, 8}), 0);
  assert_int_equal(meet(v, 21, t, (int[3]){9, 10, 11}), 1);
  assert_int_equal(meet(v, 21, t, (int[3]){12, 13, 14}), 1);
  assert_int_equal(meet(v, 21, t, (int[3]){15, 16, 17}), 0);
  assert_int_equal(meet(v, 21, t, (int[3]){18, 19, 20}), 1);
}


/* ---------------------------------------------------------------------------------------
 * Whole meshes: two boxes in one OBJ */

/* OBJ text of two boxes of edge 0.1, the second moved by (dx, dy, dz) and turned inside out
 * when `inner`; box k's triangles are on lines 17 + 12 k .. 28 + 12 k. */
static char *two_boxes(double dx, double dy, double dz, double second_edge, int inner) {
  mg_mesh a, b;
  assert_int_equal(mg_box(&a, 0.1, 0.1, 0.1), 0);
  assert_int_equal(mg_box(&b, second_edge, second_edge, second_edge), 0);
  size_t cap = 4096, n = 0;
  char *s = malloc(cap);
  assert_non_null(s);
  for (int i = 0; i < 8; i++) {
    n += (size_t)snprintf(s + n, cap - n, "v %.17g %.17g %.17g\n", a.v[3 * i], a.v[3 * i + 1],
                          a.v[3 * i + 2]);
  }
  for (int i = 0; i < 8; i++) {
    n += (size_t)snprintf(s + n, cap - n, "v %.17g %.17g %.17g\n", b.v[3 * i] + dx,
                          b.v[3 * i + 1] + dy, b.v[3 * i + 2] + dz);
  }
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 12; i++) {
      const int *t = a.t + 3 * i; /* the same faces on both */
      int o = 1 + 8 * k, r = k == 1 && inner;
      n += (size_t)snprintf(s + n, cap - n, "f %d %d %d\n", t[0] + o, (r ? t[2] : t[1]) + o,
                            (r ? t[1] : t[2]) + o);
    }
  }
  mg_free(&a);
  mg_free(&b);
  return s;
}


static vxc_status parse_obj(const char *text, vxc_error *err) {
  struct vxg_mesh *m = NULL;
  memset(err, 0, sizeof *err);
  vxc_status st = vxg_mesh_parse(NULL, text, strlen(text), "boxes.obj", 1, &m, err);
  vxg_mesh_free(m);
  return st;
}


/* Any meeting pair has one triangle of each box (each box alone is convex and proper). */
static void assert_refused_across(const char *text, const char *name) {
  vxc_error err;
  assert_int_equal(parse_obj(text, &err), VXC_ERR_GEOMETRY);
  print_message("# %s: %s\n", name, err.message);
  assert_non_null(strstr(err.message, "mesh intersects itself"));
  assert_true(err.line >= 17 && err.line <= 28);
  const char *second = strstr(err.message, "meets the triangle of line ");
  assert_non_null(second);
  int l2 = atoi(second + strlen("meets the triangle of line "));
  assert_true(l2 >= 29 && l2 <= 40);
}


static void test_boxes_overlapping(void **state) {
  (void)state;
  char *s = two_boxes(0.05, 0.05, 0.05, 0.1, 0); /* the two cubes */
  assert_refused_across(s, "overlapping boxes");
  free(s);
  s = two_boxes(0.1, 0.02, 0.03, 0.1, 0); /* face against face: a double wall */
  assert_refused_across(s, "touching boxes");
  free(s);
  s = two_boxes(0, 0, 0, 0.04, 0); /* one inside the other, both facing out */
  vxc_error err;
  assert_int_equal(parse_obj(s, &err), VXC_OK); /* nested shells do not meet */
  free(s);
}


static void test_boxes_accepted(void **state) {
  (void)state;
  vxc_error err;
  char *s = two_boxes(0.3, 0, 0, 0.1, 0); /* apart */
  assert_int_equal(parse_obj(s, &err), VXC_OK);
  free(s);
  s = two_boxes(0, 0, 0, 0.05, 1); /* a cavity: the inner box faces in */
  assert_int_equal(parse_obj(s, &err), VXC_OK);
  free(s);
  s = two_boxes(0.1 + 1e-5, 0.02, 0, 0.1, 0); /* 10 um apart (beyond the welding distance) */
  assert_int_equal(parse_obj(s, &err), VXC_OK);
  free(s);
}


/* A level-4 icosphere (5120 triangles) is accepted; with one vertex pulled through the
 * sphere to the far side, its fan crosses the far surface and the mesh is refused. */
static void test_sphere_spike(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 0.05, 4), 0);
  struct vxg_mesh *m = NULL;
  vxc_error err;
  assert_int_equal(vxg_mesh_create(NULL, g.v, g.nv, g.t, g.nt, 1, "ico", &m, &err), VXC_OK);
  vxg_mesh_free(m);
  m = NULL;
  for (int k = 0; k < 3; k++) {
    g.v[k] *= -1.2; /* vertex 0 to 1.2 R beyond the opposite side */
  }
  assert_int_equal(vxg_mesh_create(NULL, g.v, g.nv, g.t, g.nt, 1, "ico", &m, &err),
                   VXC_ERR_GEOMETRY);
  assert_non_null(strstr(err.message, "mesh intersects itself: triangle "));
  assert_null(m);
  mg_free(&g);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_orient2d_near_line),  cmocka_unit_test(test_orient3d_near_plane),
      cmocka_unit_test(test_pairs_shared_edge),   cmocka_unit_test(test_pairs_shared_vertex),
      cmocka_unit_test(test_pairs_apart),         cmocka_unit_test(test_boxes_overlapping),
      cmocka_unit_test(test_boxes_accepted),      cmocka_unit_test(test_sphere_spike),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
