/* test_penetration.c: vxc_pair_metrics.penetration, the largest penetration along the
 * normal, against closed forms: a ball into a tilted slab (the depth d), two balls (the
 * overlap along the line of centres), a cube standing on a corner (the corner's depth),
 * and a ball with a void inside (a cell that is not convex: the region's bracket). The
 * normal's own error e (rad) bends the answer by at most R e^2 for a ball. Black-box: only
 * <vxc.h>. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"
#include "tests/vxc_test_api.h"

/* The quaternion (w x y z) of a turn by `ang` about the unit axis u. */
static void axis_quat(const double u[3], double ang, double q[4]) {
  q[0] = cos(ang / 2);
  for (int i = 0; i < 3; i++) {
    q[i + 1] = sin(ang / 2) * u[i];
  }
}


/* The one overlapping pair of A at pa and B at pb. */
static const vxc_pair_metrics *one_pair(vxc_query *q, const vxc_solid *a, const vxc_pose *pa,
                                        const vxc_solid *b, const vxc_pose *pb,
                                        const vxc_query_options *o) {
  vxc_metrics m;
  vxc_error err;
  assert_int_equal(vxc_query_run(q, a, pa, b, pb, o, NULL, NULL, &m, &err), VXC_OK);
  assert_int_equal(m.npair, 1);
  const vxc_pair_metrics *p = &m.pair[0];
  assert_true(p->penetration_lo <= p->penetration && p->penetration <= p->penetration_hi);
  return p;
}


static const char *BALL = "(solid ball (cell body (sphere 0.1)))";
/* a slab 2 x 2 x 0.2 m with its top face at z = 0 of its frame */
static const char *SLAB = "(solid slab (cell top (box 2 2 0.2) (pose (translate 0 0 -0.1))))";


/* A ball of radius R pressed d into a slab tilted by up to 60 degrees: d, to R e^2 */
static void test_penetration_ball_into_tilted_slab(void **state) {
  (void)state;
  vxc_solid *ball = vxc_test_load_text(BALL), *slab = vxc_test_load_text(SLAB);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  vxc_rng r = {21};
  const double R = 0.1, depths[4] = {1e-5, 1e-3, 1e-2, 0.05};
  for (int k = 0; k < 8; k++) {
    double d = depths[k % 4], az = vxc_rng_uniform(&r, 0, 2 * M_PI);
    double u[3] = {cos(az), sin(az), 0}, up[3], q4[4];
    axis_quat(u, vxc_rng_uniform(&r, 0, 60) * M_PI / 180, q4);
    /* the slab's up direction: its frame's z turned by q4 */
    up[0] = 2 * (q4[1] * q4[3] + q4[0] * q4[2]);
    up[1] = 2 * (q4[2] * q4[3] - q4[0] * q4[1]);
    up[2] = 1 - 2 * (q4[1] * q4[1] + q4[2] * q4[2]);
    vxc_pose ps = {{0.3, -0.2, 0.1}, {q4[0], q4[1], q4[2], q4[3]}};
    vxc_pose pb = {{0.3 + (R - d) * up[0], -0.2 + (R - d) * up[1], 0.1 + (R - d) * up[2]},
                   {1, 0, 0, 0}};
    const vxc_pair_metrics *p = one_pair(q, ball, &pb, slab, &ps, &o);
    double down[3] = {-up[0], -up[1], -up[2]}, e = vxc_test_angle(p->geom.normal, down);
    assert_true(e < 1e-2);
    assert_double_near(p->penetration, d, R * e * e + 1e-12);
  }
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(slab);
}


/* Balls of radii 0.1 and 0.05 with centres D apart along a random direction: the overlap
 * R1 + R2 - D along the line of centres, to (R1 + R2) e^2 */
static void test_penetration_two_balls(void **state) {
  (void)state;
  vxc_solid *big = vxc_test_load_text(BALL);
  vxc_solid *small = vxc_test_load_text("(solid small (cell body (sphere 0.05)))");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  vxc_rng r = {5};
  for (int k = 0; k < 6; k++) {
    double D = vxc_rng_uniform(&r, 0.06, 0.149), th = acos(vxc_rng_uniform(&r, -1, 1));
    double ph = vxc_rng_uniform(&r, 0, 2 * M_PI);
    double u[3] = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)};
    vxc_pose pa = {{0.01, 0.02, 0.03}, {1, 0, 0, 0}};
    vxc_pose pb = {{0.01 + D * u[0], 0.02 + D * u[1], 0.03 + D * u[2]}, {1, 0, 0, 0}};
    const vxc_pair_metrics *p = one_pair(q, big, &pa, small, &pb, &o);
    double e = vxc_test_angle(p->geom.normal, u);
    assert_true(e < 1e-2);
    assert_double_near(p->penetration, 0.15 - D, 0.15 * e * e + 1e-12);
  }
  vxc_query_free(q);
  vxc_solid_free(big);
  vxc_solid_free(small);
}


/* A cube of edge 0.1 m standing on a corner (its diagonal vertical) with the corner d
 * into the slab: d (the interference is a three-fold symmetric corner, so n is vertical
 * to the normal's error e; the corner's segment then tilts by e: d / cos e) */
static void test_penetration_cube_corner(void **state) {
  (void)state;
  vxc_solid *cube = vxc_test_load_text("(solid cube (cell body (box 0.1 0.1 0.1)))");
  vxc_solid *slab = vxc_test_load_text(SLAB);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 1e-5;
  /* the turn taking the diagonal (1, 1, 1)/sqrt 3 to -z: about (1, -1, 0)/sqrt 2 by
     pi - acos(1/sqrt 3) */
  double u[3] = {sqrt(0.5), -sqrt(0.5), 0}, q4[4];
  axis_quat(u, M_PI - acos(1 / sqrt(3.0)), q4);
  const double half_diag = 0.05 * sqrt(3.0), depths[3] = {1e-4, 1e-3, 2e-2};
  for (int k = 0; k < 3; k++) {
    double d = depths[k];
    vxc_pose pc = {{0.1, 0.2, half_diag - d}, {q4[0], q4[1], q4[2], q4[3]}};
    const vxc_pair_metrics *p = one_pair(q, cube, &pc, slab, NULL, &o);
    double e = vxc_test_angle(p->geom.normal, (double[3]){0, 0, -1});
    assert_true(e < 1e-3);
    assert_double_near(p->penetration, d, d * (1 / cos(e) - 1) + 1e-12);
  }
  vxc_query_free(q);
  vxc_solid_free(cube);
  vxc_solid_free(slab);
}


/* A ball with a void inside (not convex): its pair keeps its region, so the bracket holds
 * the cap's extent d (within the normal's tilt over the cap's radius) and is at most sqrt 3
 * leaf edges wide at a fixed leaf (before, without the region asked for, it was the slab
 * of the hulls' supports, [0, d] and wider) */
static void test_penetration_nonconvex_bracket(void **state) {
  (void)state;
  vxc_solid *ball = vxc_test_load_text(
      "(solid hollow (cell body (sphere 0.1) (not (move (translate 0 0 0.03) (sphere 0.03)))))");
  vxc_solid *slab = vxc_test_load_text(SLAB);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  const double R = 0.1, d = 4e-3, h = 2.5e-4;
  vxc_pose pb = {{0, 0, R - d}, {1, 0, 0, 0}};
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 0;
  o.voxel = h;
  /* a cell that is not convex keeps its region for the bracket, asked for or not: within a
     leaf's diagonal of the depth either way */
  for (int region = 0; region < 2; region++) {
    o.region = region;
    const vxc_pair_metrics *p = one_pair(q, ball, &pb, slab, NULL, &o);
    double e = vxc_test_angle(p->geom.normal, (double[3]){0, 0, -1}), a = sqrt(2 * R * d);
    assert_true(p->penetration_lo <= d + a * e + 1e-12);
    assert_true(p->penetration_hi >= d - a * e - 1e-12);
    assert_true(p->penetration_hi - p->penetration_lo <= sqrt(3.0) * h * (1 + 1e-9));
  }
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(slab);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_penetration_ball_into_tilted_slab),
      cmocka_unit_test(test_penetration_two_balls),
      cmocka_unit_test(test_penetration_cube_corner),
      cmocka_unit_test(test_penetration_nonconvex_bracket),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
