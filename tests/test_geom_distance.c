/* test_geom_distance.c: GJK distance between cells' hulls against closed forms, and the
 * distance between two triangles (vxg_tri_tri_distance) against closed forms (faces,
 * edges and a corner at a known gap, crossing triangles) and against GJK on the triangles'
 * supports (an independent algorithm) on seeded random pairs. */
#include "geom/geom.h"

#include "tests/vxc_test.h"

/* Builds a one-cell solid from model text; returns its cell. */
static vxg_cell *cell_of(const char *text, vxg_solid **s) {
  vxc_error err;
  vxc_status st = vxg_model_parse(NULL, text, strlen(text), "test", NULL, s, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  return (*s)->cell[0];
}


static void random_rotation(vxc_rng *r, vxg_xform *x) {
  double ax[3] = {vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1),
                  vxc_rng_uniform(r, -1, 1)};
  assert_int_equal(vxg_xform_axis_angle(x, ax, vxc_rng_uniform(r, 0, M_PI)), 0);
}


// two spheres: |c1 - c2| - r1 - r2, with closest points on the line of centres
static void test_distance_two_spheres(void **state) {
  (void)state;
  vxg_solid *s1, *s2;
  vxg_cell *a = cell_of("(solid a (cell c (sphere 0.1)))", &s1);
  vxg_cell *b = cell_of("(solid b (cell c (sphere 0.05)))", &s2);
  vxc_rng r = {3};
  for (int k = 0; k < 1000; k++) {
    vxg_xform ta, tb;
    random_rotation(&r, &ta);
    random_rotation(&r, &tb);
    for (int i = 0; i < 3; i++) {
      ta.t[i] = vxc_rng_uniform(&r, -1, 1);
      tb.t[i] = vxc_rng_uniform(&r, -1, 1);
    }
    double c = sqrt(pow(ta.t[0] - tb.t[0], 2) + pow(ta.t[1] - tb.t[1], 2) +
                    pow(ta.t[2] - tb.t[2], 2));
    double d, pa[3], pb[3];
    assert_int_equal(vxg_hull_distance(a, &ta, b, &tb, &d, pa, pb), VXC_OK);
    double want = fmax(0, c - 0.15);
    assert_double_near(d, want, 1e-9);
    if (want > 0) {
      // the witness points lie on the spheres, on the line of centres
      double ra = sqrt(pow(pa[0] - ta.t[0], 2) + pow(pa[1] - ta.t[1], 2) + pow(pa[2] - ta.t[2], 2));
      assert_double_near(ra, 0.1, 1e-6);
      double rb = sqrt(pow(pb[0] - tb.t[0], 2) + pow(pb[1] - tb.t[1], 2) + pow(pb[2] - tb.t[2], 2));
      assert_double_near(rb, 0.05, 1e-6);
    }
  }
  vxg_solid_free(s1);
  vxg_solid_free(s2);
}


// a sphere above a box turned about the vertical: height of the gap; and a sphere off a
// box's corner: distance to the corner
static void test_distance_sphere_and_box(void **state) {
  (void)state;
  vxg_solid *s1, *s2;
  vxg_cell *box = cell_of("(solid a (cell c (box 1 1 0.2)))", &s1);
  vxg_cell *ball = cell_of("(solid b (cell c (sphere 0.1)))", &s2);
  vxc_rng r = {4};
  for (int k = 0; k < 500; k++) {
    vxg_xform tbox, tball;
    double z[3] = {0, 0, 1};
    vxg_xform_axis_angle(&tbox, z, vxc_rng_uniform(&r, 0, 2 * M_PI));
    double gap = vxc_rng_uniform(&r, 1e-4, 0.5);
    vxg_xform_translation(&tball, vxc_rng_uniform(&r, -0.3, 0.3), vxc_rng_uniform(&r, -0.3, 0.3),
                          0.1 + 0.1 + gap);
    double d;
    assert_int_equal(vxg_hull_distance(box, &tbox, ball, &tball, &d, NULL, NULL), VXC_OK);
    assert_double_near(d, gap, 1e-9);
  }
  vxg_xform id, corner;
  vxg_xform_identity(&id);
  vxg_xform_translation(&corner, 0.5 + 0.3, 0.5 + 0.4, 0.1 + 1.2);
  double d;
  assert_int_equal(vxg_hull_distance(box, &id, ball, &corner, &d, NULL, NULL), VXC_OK);
  assert_double_near(d, sqrt(0.09 + 0.16 + 1.44) - 0.1, 1e-9);
  vxg_solid_free(s1);
  vxg_solid_free(s2);
}


// two finite cylinders crossed at right angles, one above the other: the gap between them
static void test_distance_crossed_cylinders(void **state) {
  (void)state;
  vxg_solid *s1, *s2;
  vxg_cell *c1 = cell_of("(solid a (cell c (move (rotate y 90) (cylinder 0.05)) (slab x -1 1)))",
                         &s1);
  vxg_cell *c2 = cell_of("(solid b (cell c (move (rotate x 90) (cylinder 0.02)) (slab y -1 1)))",
                         &s2);
  vxg_xform id, up;
  vxg_xform_identity(&id);
  for (double gap = 1e-5; gap < 1; gap *= 3) {
    vxg_xform_translation(&up, 0.1, -0.2, 0.05 + 0.02 + gap);
    double d;
    assert_int_equal(vxg_hull_distance(c1, &id, c2, &up, &d, NULL, NULL), VXC_OK);
    assert_double_near(d, gap, 1e-9);
  }
  vxg_solid_free(s1);
  vxg_solid_free(s2);
}


// overlapping hulls are at distance 0
static void test_distance_overlap_is_zero(void **state) {
  (void)state;
  vxg_solid *s1, *s2;
  vxg_cell *a = cell_of("(solid a (cell c (box 0.2 0.2 0.2)))", &s1);
  vxg_cell *b = cell_of("(solid b (cell c (ellipsoid 0.3 0.1 0.05)))", &s2);
  vxg_xform ta, tb;
  vxg_xform_identity(&ta);
  vxg_xform_translation(&tb, 0.35, 0, 0);
  double d = -1;
  assert_int_equal(vxg_hull_distance(a, &ta, b, &tb, &d, NULL, NULL), VXC_OK);
  assert_double_near(d, 0, 1e-12);
  vxg_xform_translation(&tb, 0.45, 0, 0);  // the ellipsoid's tip is 0.05 from the box
  assert_int_equal(vxg_hull_distance(a, &ta, b, &tb, &d, NULL, NULL), VXC_OK);
  assert_double_near(d, 0.05, 1e-9);
  vxg_solid_free(s1);
  vxg_solid_free(s2);
}


/* Triangle t (9 numbers) carried by x, scaled by k first. */
static void place_tri(const double t[9], double k, const vxg_xform *x, double out[9]) {
  for (int c = 0; c < 3; c++) {
    double p[3] = {k * t[3 * c], k * t[3 * c + 1], k * t[3 * c + 2]};
    vxg_xform_point(x, p, out + 3 * c);
  }
}


/* Pairs of triangles whose distance is g by construction (every point of A at z <= 0, of B
 * at z >= g, and a pair at that gap): parallel faces over one another, an edge of each
 * crossed at right angles (interior points closest), a corner of B over A's face; and a
 * triangle through another's face (0). Each scaled by 0.01 to 10 and carried by a seeded
 * rigid motion (none every fourth), to 1e-12 of g. */
static void test_distance_triangles_closed_forms(void **state) {
  (void)state;
  vxc_rng r = {0x7a1d15ULL};
  for (int it = 0; it < 400; it++) {
    double k = pow(10, vxc_rng_uniform(&r, -2, 1)), g = vxc_rng_uniform(&r, 0.05, 1);
    vxg_xform x;
    if (it % 4 == 0) {
      vxg_xform_translation(&x, vxc_rng_uniform(&r, -k, k), vxc_rng_uniform(&r, -k, k), 0);
    } else {
      vxc_test_rand_xform(&r, &x, k);
    }
    const double faces[2][9] = {{-1, -1, 0, 2, -1, 0, -1, 2, 0}, {0, 0, g, 0.6, 0.2, g, 0.2, 0.6, g}};
    const double edges[2][9] = {{-1, 0, 0, 1, 0, 0, 0.3, 0.1, -1}, {0, -1, g, 0, 1, g, 0.3, 0, g + 1}};
    const double corner[2][9] = {{-1, -1, 0, 2, -1, 0, -1, 2, 0},
                                 {0.1, 0.2, g, 0.5, 0.2, g + 1, 0.1, 0.9, g + 0.7}};
    const double *cases[3][2] = {{faces[0], faces[1]}, {edges[0], edges[1]}, {corner[0], corner[1]}};
    for (int c = 0; c < 3; c++) {
      double a[9], b[9];
      place_tri(cases[c][0], k, &x, a);
      place_tri(cases[c][1], k, &x, b);
      assert_double_rel(vxg_tri_tri_distance(a, b), k * g, 1e-12);
      assert_double_rel(vxg_tri_tri_distance(b, a), k * g, 1e-12);
    }
    const double through[9] = {0.1, 0.1, -g, 0.2, 0.3, g, 0.4, -0.2, g};
    double a[9], b[9];
    place_tri(faces[0], k, &x, a);
    place_tri(through, k, &x, b);
    assert_true(vxg_tri_tri_distance(a, b) == 0 && vxg_tri_tri_distance(b, a) == 0);
  }
}


/* A triangle's support (its farthest corner), for GJK. */
static void tri_support(const void *shape, const double d[3], double p[3]) {
  const double *t = shape;
  int best = 0;
  for (int k = 1; k < 3; k++) {
    double dk = d[0] * t[3 * k] + d[1] * t[3 * k + 1] + d[2] * t[3 * k + 2];
    double db = d[0] * t[3 * best] + d[1] * t[3 * best + 1] + d[2] * t[3 * best + 2];
    best = dk > db ? k : best;
  }
  memcpy(p, t + 3 * best, 3 * sizeof *p);
}


/* Seeded random triangle pairs (corners in a box of edge 1, B shifted by up to 2): the
 * distance agrees with GJK's on the two triangles to 1e-10 of their size. */
static void test_distance_triangles_match_gjk(void **state) {
  (void)state;
  vxc_rng r = {0x9a17ULL};
  int apart = 0;
  for (int it = 0; it < 4000; it++) {
    double a[9], b[9], shift[3];
    for (int k = 0; k < 3; k++) {
      shift[k] = vxc_rng_uniform(&r, -1, 1) * (it % 2 ? 2 : 0.5);
    }
    for (int i = 0; i < 9; i++) {
      a[i] = vxc_rng_uniform(&r, 0, 1);
      b[i] = vxc_rng_uniform(&r, 0, 1) + shift[i % 3];
    }
    double d = vxg_tri_tri_distance(a, b), g;
    assert_int_equal(vxg_gjk_distance(tri_support, a, tri_support, b, 1e-13, &g, NULL, NULL), VXC_OK);
    assert_double_near(d, g, 1e-10);
    apart += d > 0;
  }
  assert_true(apart > 2000); /* most pairs apart, the rest meeting */
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_distance_two_spheres),
      cmocka_unit_test(test_distance_sphere_and_box),
      cmocka_unit_test(test_distance_crossed_cylinders),
      cmocka_unit_test(test_distance_overlap_is_zero),
      cmocka_unit_test(test_distance_triangles_closed_forms),
      cmocka_unit_test(test_distance_triangles_match_gjk),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
