/* test_ball_cylinder.c: a ball against a cylinder by quadrature along its axis
 * (geom/slices.c, voxel/closed.c) against independent answers: the octree with the closed
 * forms off at rtol 1e-6, whose certified bracket must meet the quadrature's, on seeded
 * random poses, radii and depths (1e-5 to 0.5 of the ball's radius, and 1.05 to 1.8), a
 * ball in a bore and on a rod, axes random and along the world's, either cell first; a
 * 1e6 m cylinder against the half-space's cap; a ball inside a rod whole; the rod's and the
 * bore's parts of a ball adding up to its volume and moments; tangent and apart cases; the
 * certified rule, which keeps the octree, and the fixed-leaf rule, which takes it. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/vec3.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"
#include "lib/vxc.h"


/* A rod (bore 0) or a square tube (bore 1) of a box w x w x len about the z axis and the
 * cylinder of radius rc along z. */
static vxg_cell *cyl_cell(fixture *f, double rc, double w, double len, int bore) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "cyl%d", n++);
  vx_prim_spec p[2] = {{VXG_BOX, {w, w, len}, 3, 0, NULL}, {VXG_CYLINDER, {rc}, 1, bore, NULL}};
  vxg_cell *c = vx_cell(f->s, name, p, 2);
  assert_non_null(c);
  return c;
}


/* The octree oct against the quadrature q (vx_check_octree at VX_OCT_RTOL), q's error
 * estimate within 1e-9 of V, q one leaf. */
static void check_octree(const vxv_result *q, const vxv_result *oct, double size) {
  vx_check_octree(q, oct, size, VX_OCT_RTOL);
  assert_true(q->volume_lo <= q->volume && q->volume <= q->volume_hi);
  assert_true(q->error_estimate <= 1e-9 * q->volume);
  assert_int_equal(q->leaves, 1);
}


/* One pose: the ball sunk `depth` into the cylinder's wall (i odd: from inside the bore),
 * the cells' box `margin` beyond the cylinder, the axis random (every third along a world
 * axis), either cell first by i: the quadrature against the octree. */
static void pose_case(fixture *f, vxc_rng *g, int i, double R, double depth, double rc,
                      double margin) {
  int bore = i % 2, ball_first = (i / 2) % 2;
  double u[3], P[3], a[3];
  vx_random_dir(g, i, u);
  for (int k = 0; k < 3; k++) {
    P[k] = vxc_rng_uniform(g, -1, 1);
  }
  vxg_xform xc, xs;
  vx_frame_z_to(u, P, &xc);
  /* the ball's centre: along the cell's x, at its distance from the axis, off along z */
  double dist = bore ? rc - R + depth : rc + R - depth, along = vxc_rng_uniform(g, -R, R);
  vxg_xform_point(&xc, (double[3]){dist, 0, along}, a);
  vxg_xform_translation(&xs, a[0], a[1], a[2]);
  vxg_cell *ball = vx_sphere_cell(f, R), *cyl = cyl_cell(f, rc, 2 * (rc + margin), 12 * R, bore);
  vxv_result q, oct;
  vxc_status st[2];
  if (ball_first) {
    vx_both_oct(f, ball, &xs, cyl, &xc, 2, &q, &oct, st);
  } else {
    vx_both_oct(f, cyl, &xc, ball, &xs, 2, &q, &oct, st);
  }
  assert_int_equal(st[0], VXC_OK);
  assert_int_equal(st[1], VXC_OK);
  check_octree(&q, &oct, sqrt(fmin(depth, R) * R));
  /* the ball's surface points away from it toward the axis (rod) or the wall (bore) */
  double out[3], s = (ball_first ? -1 : 1) * (bore ? -1 : 1);
  vxg_xform_vector(&xc, (double[3]){1, 0, 0}, out);
  assert_true(s * vxg_dot(q.area_vector, out) > 0.99 * q.contact_area);
}


// a ball of radius 1 cm to 0.3 m sunk 1e-5 to 0.5 of its radius into the wall of a bore of
// 1.5 to 20 times its radius (bore) or onto a rod of 0.2 to 20 times it, the axis random or
// along the world's, anywhere within a metre, either cell first: the octree's figures. The
// cell's box is R beyond the cylinder: a ball on the rod crosses its face, away from
// the region (the cap's box by the rod's tangent plane holds the region, not the ball's)
static void test_random_poses(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x2545F4914F6CDD1DULL};
  for (int i = 0; i < 24; i++) {
    int bore = i % 2;
    double R = pow(10, vxc_rng_uniform(&g, -2, log10(0.3)));
    double depth = R * pow(10, vxc_rng_uniform(&g, -5, log10(0.5)));
    double rc = R * (bore ? pow(10, vxc_rng_uniform(&g, log10(1.5), log10(20)))
                          : pow(10, vxc_rng_uniform(&g, log10(0.2), log10(20))));
    pose_case(f, &g, i, R, depth, rc, R);
  }
}


// deeper than the radius: the ball's centre inside the rod, or inside the bore's wall (the
// cells' box 3 R beyond the cylinder, holding the ball's bounding box in any pose)
static void test_deep_poses(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x9E3779B97F4A7C15ULL};
  for (int i = 0; i < 8; i++) {
    double R = pow(10, vxc_rng_uniform(&g, -2, log10(0.3)));
    double depth = R * vxc_rng_uniform(&g, 1.05, 1.8);
    double rc = R * pow(10, vxc_rng_uniform(&g, log10(1.5), log10(20)));
    pose_case(f, &g, i, R, depth, rc, 3 * R);
  }
}


// the rod's and the bore's parts of a ball make it whole (volume, centroid, second moments)
// at any distance from the axis; a cylinder of 1e6 m against a ball of 0.1 m is the
// half-space's cap to R / (2 rc) (the cross-section's sag)
static void test_parts_and_the_flat_limit(void **state) {
  (void)state;
  const double R = 0.1, rc = 1e6, pa[3] = {0, 0, 0}, u[3] = {0, 1, 0};
  const double ball = 4.0 / 3 * M_PI * R * R * R;
  for (double h = 1e-6; h < 0.2; h *= 4) {
    double c[3] = {rc + R - h, 0.3, 0};
    vxg_ball_cyl in, out;
    assert_int_equal(vxg_ball_cylinder(c, R, pa, u, rc, 0, &out), 0);
    assert_int_equal(vxg_ball_cylinder(c, R, pa, u, rc, 1, &in), 0);
    double cap = vxg_cap_volume(R, h);
    /* the depth carries the rounding of the distance from the axis, 1e6 m */
    assert_double_rel(out.v, cap, R / rc + 1e-9 / h);
    assert_double_rel(in.v + out.v, ball, 1e-13);
    assert_true(out.err <= 1e-12 * out.v);
    assert_double_near(out.g[1], 0.3, 1e-12);
    assert_double_rel(out.area[0], M_PI * h * (2 * R - h), R / rc + 1e-9 / h);
  }
  /* rod and bore parts at every distance from the axis, thin and thick cylinders: the
     volume, first and second moments of the ball (2/5 R^2 V about its centre on each
     axis), the walls' vector areas opposite */
  const double w[3] = {0.48, -0.6, 0.64}; /* unit */
  for (int k = 0; k < 40; k++) {
    double rcs = k % 2 ? 0.03 : 0.3, d = (k / 2) * (rcs + 1.2 * R) / 19;
    double c[3] = {d * 0.8, d * 0.6, 0.2}; /* (0.8, 0.6, 0) is across w */
    vxg_ball_cyl in, out;
    assert_int_equal(vxg_ball_cylinder(c, R, pa, w, rcs, 0, &out), 0);
    assert_int_equal(vxg_ball_cylinder(c, R, pa, w, rcs, 1, &in), 0);
    assert_double_rel(in.v + out.v, ball, 1e-13);
    for (int j = 0; j < 3; j++) {
      assert_double_near((in.v * in.g[j] + out.v * out.g[j]) / ball, c[j], 1e-13);
      assert_double_near(in.area[j] + out.area[j], 0, 1e-15);
    }
    for (int m = 0; m < 6; m++) {
      int a = VXG_SYM_ROW[m], b = VXG_SYM_COL[m];
      double sum = in.cm[m] + out.cm[m];
      sum += in.v * (in.g[a] - c[a]) * (in.g[b] - c[b]);
      sum += out.v * (out.g[a] - c[a]) * (out.g[b] - c[b]);
      assert_double_near(sum, m < 3 ? 0.2 * R * R * ball : 0, 1e-12 * R * R * ball);
    }
  }
  /* a ball inside a 0.5 m rod, 0.3 m off its axis: the ball whole, no wall inside it */
  vxg_ball_cyl out;
  const double c[3] = {0.3, 0.1, -0.1}, ez[3] = {0, 0, 1};
  assert_int_equal(vxg_ball_cylinder(c, R, pa, ez, 0.5, 0, &out), 0);
  assert_double_rel(out.v, ball, 1e-14);
  assert_double_near(out.g[0], 0.3, 1e-15);
  assert_double_near(out.area[0], 0, 1e-18);
}


// a ball inside a rod whole (4/3 pi R^3, the ball's own closed form), tangent to it and
// 1 nm apart, inside a bore 1 nm off its wall; the certified rule keeps the octree, the
// fixed-leaf rule takes the quadrature
static void test_whole_tangent_apart_and_certified(void **state) {
  fixture *f = *state;
  const double R = 0.02, rc = 0.1;
  vxg_cell *ball = vx_sphere_cell(f, R), *rod = cyl_cell(f, rc, 0.5, 0.5, 0);
  vxg_cell *tube = cyl_cell(f, rc, 0.5, 0.5, 1);
  vxg_xform xs, xc;
  const double ex[3] = {1, 0, 0};
  vx_frame_z_to(ex, (double[3]){0.01, 0.02, 0.03}, &xc); /* the axis along x */
  vxg_xform_translation(&xs, 0.05, 0.05, 0.03);          /* 0.05 m from the axis */
  vxv_result q, oct;
  vxc_status st[2];
  vx_both_oct(f, ball, &xs, rod, &xc, 1, &q, NULL,
              st); /* the rod's wall holds it: the ball whole */
  assert_int_equal(st[0], VXC_OK);
  assert_double_rel(q.volume, 4.0 / 3 * M_PI * R * R * R, 1e-13);
  assert_double_near(q.centroid[0], 0.05, 1e-15);
  assert_double_near(q.contact_area, 0, 1e-18);
  for (int k = 0; k < 2; k++) {
    double off = rc + R + k * 1e-9;
    double o2 = off / sqrt(2); /* across the axis diagonally: the bounding boxes meet */
    vxg_xform_translation(&xs, 0.2, 0.02 + o2, 0.03 + o2);
    /* tangent: the quadrature's bracket is wider than rtol V, the octree may take it */
    vx_both_oct(f, rod, &xc, ball, &xs, k ? 2 : -1, &q, &oct, st);
    assert_true(q.volume <= q.volume_hi && q.volume_hi < 1e-20);
    assert_true(k == 0 || (st[0] == VXC_NO_CONTACT && q.volume == 0));
    assert_true(st[1] == VXC_NO_CONTACT || oct.volume_lo <= q.volume_hi);
    off = rc - R - 1e-9; /* inside the bore, 1 nm off its wall */
    vxg_xform_translation(&xs, 0.2, 0.02 - off, 0.03);
    vx_both_oct(f, tube, &xc, ball, &xs, 2, &q, &oct, st);
    assert_int_equal(st[0], VXC_NO_CONTACT);
    assert_true(q.volume == 0 && q.volume_hi < 1e-20);
  }
  vxv_options o;
  vxv_options_default(&o);
  o.certified = 1;
  vxg_xform_translation(&xs, 0.2, 0.02 - (rc - R + 1e-3), 0.03);
  assert_int_equal(vxv_intersect(f->ws, tube, &xc, ball, &xs, &o, &q), VXC_OK);
  assert_int_equal(q.closed_form, 0);
  o.certified = 0;
  assert_int_equal(vxv_intersect(f->ws, tube, &xc, ball, &xs, &o, &oct), VXC_OK);
  assert_int_equal(oct.closed_form, 2);
  assert_true(oct.volume_lo <= q.volume_hi && q.volume_lo <= oct.volume_hi);
  /* the fixed-leaf rule takes it too (its error far below any leaf's) */
  o.rtol = 0;
  o.h_min = 2e-3;
  assert_int_equal(vxv_intersect(f->ws, tube, &xc, ball, &xs, &o, &oct), VXC_OK);
  assert_int_equal(oct.closed_form, 2);
  assert_true(oct.volume_lo <= q.volume_hi && q.volume_lo <= oct.volume_hi);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_random_poses, setup, teardown),
      cmocka_unit_test_setup_teardown(test_deep_poses, setup, teardown),
      cmocka_unit_test(test_parts_and_the_flat_limit),
      cmocka_unit_test_setup_teardown(test_whole_tangent_apart_and_certified, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
