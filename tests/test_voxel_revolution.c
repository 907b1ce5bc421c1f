/* test_voxel_revolution.c: a torus against planes integrated about its axis: vxg_rod_bore
 * with the torus as its rod, and the octree's revolution rule (leaf.c: a leaf whose only
 * curved surface is a torus, with a plane within 20 degrees of square to its axis, under the
 * rtol rule), against independent answers:
 *  - a torus cut by a plane square to its axis, at seeded random poses and sizes: Pappus's
 *    ring of the tube's circular segments (voxel_exact.h, vx_segment: area A, int w, int w^2,
 *    int v^2 over the segment, w along the axis, v along the radius from the tube's centre;
 *    its differences of antiderivatives lose digits below 1e-2 of the radius deep, where the
 *    area alone is taken as r^2 (x - sin x) / 2, x = 4 asin(sqrt(d / 2r)) the segment's angle,
 *    x - sin x by its series below 0.1):
 *      V = 2 pi R A, centroid on the axis at int w / A,
 *      int (w - w_c)^2 dV = 2 pi R int w^2 - V w_c^2,
 *      int rho^2 dV = 2 pi int (R + v)^3 dA = 2 pi (R^3 A + 3 R int v^2) (odd powers of v
 *      vanish over the segment, symmetric in v);
 *    and cut again by a plane through the axis: half of it;
 *  - a torus resting flat on a table (its axis square to the table's top), 1e-5 to 1e-1 of its
 *    tube's radius deep, at rtol 1e-3 and 1e-4: within rtol of Pappus, the estimate within
 *    rtol, from a few leaves (linearised leaves resolve the ring's width with thousands);
 *  - a torus tilted 10 degrees on the table (no closed form): inside the certified bracket of
 *    the same pair at 1e-4 (the certified rule does not take the revolution rule). */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/vec3.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"

/* The area of the circular segment d deep of a circle of radius r, to rounding at any depth. */
static double segment_area(double r, double d) {
  double x = 4 * asin(sqrt(d / (2 * r))), x2 = x * x, xs;
  if (x < 0.1) {
    xs = x * x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72)));
  } else {
    xs = x - sin(x);
  }
  return r * r * xs / 2;
}


/* A unit vector of random direction. */
static void random_unit(vxc_rng *g, double u[3]) {
  double n;
  do {
    for (int k = 0; k < 3; k++) {
      u[k] = vxc_rng_uniform(g, -1, 1);
    }
    n = sqrt(vxg_dot(u, u));
  } while (!(n > 0.1 && n <= 1));
  for (int k = 0; k < 3; k++) {
    u[k] /= n;
  }
}


/* A unit vector square to u. */
static void square_to(const double u[3], double n[3]) {
  double a[3] = {0, 0, 0};
  a[fabs(u[0]) < 0.6 ? 0 : 1] = 1;
  vxg_cross(u, a, n);
  double s = sqrt(vxg_dot(n, n));
  for (int k = 0; k < 3; k++) {
    n[k] /= s;
  }
}


// a torus cut by a plane square to its axis: Pappus's volume, centroid and two second
// moments; cut again by a plane through the axis: half of each
static void test_rod_bore_torus_pappus(void **state) {
  (void)state;
  vxc_rng g = {20261129};
  for (int i = 0; i < 40; i++) {
    double R = exp(vxc_rng_uniform(&g, log(0.01), log(1))), r = R * vxc_rng_uniform(&g, 0.1, 0.9);
    double d = r * exp(vxc_rng_uniform(&g, log(1e-6), log(1.9))), u[3], p[3];
    random_unit(&g, u);
    for (int k = 0; k < 3; k++) {
      p[k] = vxc_rng_uniform(&g, -1, 1);
    }
    vxg_rod_bore_in in;
    memset(&in, 0, sizeof in);
    in.ball = 1;
    in.torus_R = R;
    in.ra = r;
    memcpy(in.pa, p, sizeof p);
    memcpy(in.pb, p, sizeof p);
    memcpy(in.ua, u, sizeof u);
    memcpy(in.ub, u, sizeof u);
    in.bore_owner = 1;
    /* u.(x - p) <= -(r - d): the tube's segment d deep */
    in.nplane = 1;
    memcpy(in.plane[0].n, u, sizeof u);
    in.plane[0].d = vxg_dot(u, p) - (r - d);
    in.plane[0].owner = 1;
    for (int k = 0; k < 3; k++) {
      in.box[k] = p[k] - 2 * (R + r);
      in.box[3 + k] = p[k] + 2 * (R + r);
    }
    in.rtol = 1e-9;
    double seg[4];
    vx_segment(r, d, seg);
    double V = 2 * M_PI * R * segment_area(r, d), wc = seg[1] / seg[0];
    double Jw = 2 * M_PI * R * seg[2] - V * wc * wc;
    double Jrho = 2 * M_PI * (R * R * R * seg[0] + 3 * R * seg[3]);
    for (int half = 0; half < 2; half++) {
      double f = half ? 0.5 : 1;
      if (half) {
        square_to(u, in.plane[1].n);
        in.plane[1].d = vxg_dot(in.plane[1].n, p);
        in.plane[1].owner = 1;
        in.nplane = 2;
      }
      vxg_rod_bore_out out;
      int rc = vxg_rod_bore(&in, &out);
      print_message("# R %.3g r %.3g d %.2e%s: error %.2e V, estimate %.2e V\n", R, r, d,
                    half ? " (half)" : "", fabs(out.v - f * V) / V, out.err / V);
      assert_int_equal(rc, 0);
      /* to 1e-8: a segment 1e-6 of the tube deep loses digits to the rounding of the circle's
         roots near its bottom (2e-9 of V) */
      assert_double_near(out.v, f * V, 1e-8 * V);
      if (!half && d >= 1e-2 * r) {
        /* on the axis at w_c; second moments along it and about it */
        double c[3], uCu = 0, tr = 0;
        for (int k = 0; k < 3; k++) {
          c[k] = p[k] + wc * u[k];
          assert_double_near(out.g[k], c[k], 1e-9 * (R + r));
        }
        for (int s = 0; s < 6; s++) {
          int a = VXG_SYM_ROW[s], b = VXG_SYM_COL[s];
          uCu += (a == b ? 1 : 2) * out.cm[s] * u[a] * u[b];
          tr += a == b ? out.cm[s] : 0;
        }
        /* int rho^2 = trace - int (w - w_c)^2: the centroid lies on the axis */
        assert_double_near(uCu, Jw, 1e-8 * (Jw + Jrho));
        assert_double_near(tr - uCu, Jrho, 1e-8 * Jrho);
      }
    }
  }
}


/* A torus (R, r) with its axis along t's z, and a 2 m table whose top is the plane z = -(r -
 * d) of the torus's frame turned by tilt about its x axis: both placed by pose. */
static void torus_on_table(fixture *f, double R, double r, double d, double tilt,
                           const vxg_xform *pose, const vxv_options *o, vxv_result *res) {
  vx_prim_spec tor = {VXG_TORUS, {R, r}, 2, 0, NULL};
  double T = 2 * (R + r);
  vx_prim_spec box = {VXG_BOX, {2 * T, 2 * T, T}, 3, 0, NULL};
  vxg_cell *a, *b;
  vx_cell_pair(f, &tor, &box, &a, &b);
  vxg_xform xt, turn, xb;
  vxg_xform_translation(&xt, 0, 0, -(r - d) - T / 2);
  const double ax[3] = {1, 0, 0};
  vxg_xform_identity(&turn);
  assert_int_equal(vxg_xform_axis_angle(&turn, ax, tilt), 0);
  vxg_xform_compose(&xb, &turn, &xt);
  vxg_xform_compose(&xb, pose, &xb);
  assert_int_equal(vxv_intersect(f->ws, a, pose, b, &xb, o, res), VXC_OK);
}


// a torus resting flat on a table, 1e-5 to 1e-1 of its tube deep: at rtol 1e-3 and 1e-4
// within rtol of Pappus, the estimate within rtol too, from few leaves
static void test_flat_torus_rtol(void **state) {
  fixture *f = *state;
  vxc_rng g = {7};
  for (int i = 0; i < 12; i++) {
    double R = exp(vxc_rng_uniform(&g, log(0.01), log(1))), r = R * vxc_rng_uniform(&g, 0.15, 0.6);
    double d = r * exp(vxc_rng_uniform(&g, log(1e-5), log(1e-1)));
    vxg_xform pose;
    vx_random_pose(&g, i % 3 == 0, R, &pose);
    double V = 2 * M_PI * R * segment_area(r, d);
    for (int k = 0; k < 2; k++) {
      vxv_options o;
      vx_octree_options(&o);
      o.rtol = k ? 1e-4 : 1e-3;
      vxv_result res;
      torus_on_table(f, R, r, d, 0, &pose, &o, &res);
      print_message("# R %.3g r %.3g d %.2e rtol %g: error %.2e V, estimate %.2e V, %lld leaves\n",
                    R, r, d, o.rtol, fabs(res.volume - V) / V, res.error_estimate / V,
                    res.leaves);
      assert_false(res.capped);
      assert_true(fabs(res.volume - V) <= o.rtol * V);
      assert_true(res.error_estimate <= o.rtol * V);
      assert_true(res.volume_lo <= V && V <= res.volume_hi);
      assert_true(res.leaves <= 200);
    }
  }
}


// a torus tilted 10 degrees on the table, 1e-3 of its tube deep: the rtol rule's volume lies
// within the certified rule's bracket at 1e-4 (which linearised leaves give)
static void test_tilted_torus_in_certified_bracket(void **state) {
  fixture *f = *state;
  vxc_rng g = {11};
  for (int i = 0; i < 3; i++) {
    double R = 0.1, r = 0.03;
    vxg_xform pose;
    vx_random_pose(&g, 0, R, &pose);
    vxv_options o;
    vx_octree_options(&o);
    o.rtol = 1e-4;
    vxv_result est, cert;
    torus_on_table(f, R, r, 1e-3 * r, 10 * M_PI / 180, &pose, &o, &est);
    o.certified = 1;
    torus_on_table(f, R, r, 1e-3 * r, 10 * M_PI / 180, &pose, &o, &cert);
    print_message("# tilted: rtol rule %.9e, %lld leaves; certified [%.9e, %.9e], %lld leaves\n",
                  est.volume, est.leaves, cert.volume_lo, cert.volume_hi, cert.leaves);
    assert_false(cert.capped);
    assert_true(cert.volume_lo <= est.volume && est.volume <= cert.volume_hi);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rod_bore_torus_pappus),
      cmocka_unit_test_setup_teardown(test_flat_torus_rtol, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tilted_torus_in_certified_bracket, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
