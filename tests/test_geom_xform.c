/* test_geom_xform.c: rigid transforms (geom/xform.c) against hand-derived rotations. */
#include "geom/geom.h"
#include "tests/vxc_test.h"


// a quarter turn about z maps x to y and y to -x (right-handed)
static void test_xform_quarter_turn_about_z_maps_x_to_y(void **state) {
  (void)state;
  vxg_xform x;
  const double z[3] = {0, 0, 1}, ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0};
  assert_int_equal(vxg_xform_axis_angle(&x, z, M_PI / 2), 0);
  double o[3];
  vxg_xform_vector(&x, ex, o);
  assert_double_near(o[0], 0, 1e-15);
  assert_double_near(o[1], 1, 1e-15);
  assert_double_near(o[2], 0, 1e-15);
  vxg_xform_vector(&x, ey, o);
  assert_double_near(o[0], -1, 1e-15);
  assert_double_near(o[1], 0, 1e-15);
}


// rotate y by 90 degrees turns the z axis onto +x (the grooved block relies on it)
static void test_xform_rotate_y_turns_z_onto_x(void **state) {
  (void)state;
  vxg_xform x;
  const double y[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
  assert_int_equal(vxg_xform_axis_angle(&x, y, M_PI / 2), 0);
  double o[3];
  vxg_xform_vector(&x, ez, o);
  assert_double_near(o[0], 1, 1e-15);
  assert_double_near(o[1], 0, 1e-15);
  assert_double_near(o[2], 0, 1e-15);
}


// compose(a, b) applies b first: a translation after a rotation moves the rotated point
static void test_xform_compose_applies_right_operand_first(void **state) {
  (void)state;
  vxg_xform rot, tr, both;
  const double z[3] = {0, 0, 1}, p[3] = {1, 0, 0};
  vxg_xform_axis_angle(&rot, z, M_PI / 2);
  vxg_xform_translation(&tr, 5, 0, 0);
  vxg_xform_compose(&both, &tr, &rot);
  double o[3];
  vxg_xform_point(&both, p, o);
  assert_double_near(o[0], 5, 1e-15);  // (1,0,0) -> (0,1,0) -> (5,1,0)
  assert_double_near(o[1], 1, 1e-15);
}


// x composed with its inverse is the identity, for random transforms
static void test_xform_inverse_undoes_random_transforms(void **state) {
  (void)state;
  vxc_rng r = {12345};
  for (int k = 0; k < 1000; k++) {
    vxg_xform x, xi, id;
    vxc_test_rand_xform(&r, &x, 2);
    vxg_xform_inverse(&xi, &x);
    vxg_xform_compose(&id, &xi, &x);
    for (int i = 0; i < 9; i++) {
      assert_double_near(id.r[i], (i % 4 == 0) ? 1.0 : 0.0, 1e-14);
    }
    for (int i = 0; i < 3; i++) {
      assert_double_near(id.t[i], 0, 1e-14);
    }
  }
}


// quaternion -> matrix -> quaternion returns the same rotation (up to sign)
static void test_xform_quaternion_round_trip(void **state) {
  (void)state;
  vxc_rng r = {777};
  for (int k = 0; k < 1000; k++) {
    double q[4];
    double n = 0;
    for (int i = 0; i < 4; i++) {
      q[i] = vxc_rng_uniform(&r, -1, 1);
      n += q[i] * q[i];
    }
    n = sqrt(n);
    double s = q[0] < 0 ? -1 : 1;
    vxg_xform x;
    assert_int_equal(vxg_xform_quat(&x, q[0], q[1], q[2], q[3]), 0);
    double back[4];
    vxg_xform_to_quat(&x, back);
    for (int i = 0; i < 4; i++) {
      assert_double_near(back[i], s * q[i] / n, 1e-12);
    }
  }
}


// a zero quaternion or axis is refused and leaves the transform untouched
static void test_xform_zero_quaternion_is_refused(void **state) {
  (void)state;
  vxg_xform x;
  vxg_xform_translation(&x, 1, 2, 3);
  const double zero[3] = {0, 0, 0};
  assert_int_equal(vxg_xform_quat(&x, 0, 0, 0, 0), -1);
  assert_int_equal(vxg_xform_axis_angle(&x, zero, 1.0), -1);
  assert_int_equal(vxg_xform_quat(&x, NAN, 0, 0, 1), -1);
  assert_double_near(x.t[2], 3, 0);
  assert_double_near(x.r[0], 1, 0);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_xform_quarter_turn_about_z_maps_x_to_y),
      cmocka_unit_test(test_xform_rotate_y_turns_z_onto_x),
      cmocka_unit_test(test_xform_compose_applies_right_operand_first),
      cmocka_unit_test(test_xform_inverse_undoes_random_transforms),
      cmocka_unit_test(test_xform_quaternion_round_trip),
      cmocka_unit_test(test_xform_zero_quaternion_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
