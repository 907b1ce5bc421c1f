/* test_geom_distance.c: GJK distance between cells' hulls against closed forms. */
#include "tests/vxc_test.h"

#include "geom/geom.h"

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


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_distance_two_spheres),
      cmocka_unit_test(test_distance_sphere_and_box),
      cmocka_unit_test(test_distance_crossed_cylinders),
      cmocka_unit_test(test_distance_overlap_is_zero),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
