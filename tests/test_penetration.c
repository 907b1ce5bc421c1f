/* test_penetration.c: vxc_pair_metrics.penetration, the largest penetration along the
 * normal, against closed forms: a ball into a tilted slab (the depth d), two balls (the
 * overlap along the line of centres), a cube standing on a corner (the corner's depth),
 * a ball with a void inside (a cell that is not convex: the region's bracket), and per
 * contact patch: a box pressed into both walls of a mesh U-channel (each patch the wall's
 * overlap, the pair its deepest patch, not the span across both) and a ball in a mesh
 * V-groove (each patch its cap's depth). The normal's own error e (rad) bends the answer
 * by at most R e^2 for a ball. Black-box: only <vxc.h>. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"
#include "tests/vxc_test_api.h"
#include "tests/vxc_test_meshes.h"

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


/* The octree on a fixed leaf edge h, with patches and their region. */
static vxc_query_options patch_options(double h) {
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 0;
  o.voxel = h;
  o.patches = 1;
  o.region = 1;
  return o;
}


/* The largest edge of the region's elements of patch k that hold volume (the query's last
 * region, options.region). */
static double patch_leaf_max(const vxc_query *q, int k) {
  const vxc_region_box *b;
  size_t n;
  double e = 0;
  assert_int_equal(vxc_query_region(q, &b, &n, NULL), VXC_OK);
  for (size_t i = 0; i < n; i++) {
    if (b[i].patch == k && b[i].volume > 0) {
      e = fmax(e, fmax(b[i].extent[0], fmax(b[i].extent[1], b[i].extent[2])));
    }
  }
  return e;
}


/* The pair's penetration and bracket are each the largest of its patches'. */
static void assert_pair_is_deepest_patch(const vxc_pair_metrics *p) {
  double pen = 0, lo = 0, hi = 0;
  for (int k = 0; k < p->npatch; k++) {
    const vxc_patch *c = &p->patch[k];
    assert_true(c->penetration_lo <= c->penetration && c->penetration <= c->penetration_hi);
    pen = fmax(pen, c->penetration);
    lo = fmax(lo, c->penetration_lo);
    hi = fmax(hi, c->penetration_hi);
  }
  assert_true(p->penetration == pen && p->penetration_lo == lo && p->penetration_hi == hi);
}


/* Extent along the unit n of a box of edges e[3] along the columns of the rotation R
 * (row-major): sum_k |n . R e_k| e_k. */
static double box_extent(const double R[9], const double e[3], const double n[3]) {
  double x = 0;
  for (int k = 0; k < 3; k++) {
    x += fabs(n[0] * R[k] + n[1] * R[3 + k] + n[2] * R[6 + k]) * e[k];
  }
  return x;
}


/* A box pressed d1 into the left wall and d2 into the right wall of a U-channel of scale
 * s (tests/vxc_test_meshes.h: walls 2 s thick, 4 s apart) at a fixed leaf h, the whole
 * turned by a seeded rotation about any axis (none every third case; a leaf holding both
 * walls' overlaps is split, voxel/bsp.c) and scaled 0.01 to 10:
 * two patches, each holding the extent of its wall's overlap, the box d x 3 s x 2 a, along
 * the patch's normal (sum over the box's edges of |n . edge|) in a bracket at most sqrt 3
 * times its largest leaf's edge wide (planar faces are not refined to h: a leaf a wall's
 * face cuts obliquely may be as large as the wall); the pair's figures the deeper patch's
 * (axis-aligned, below the box's width across both walls), the same with patches merged. */
static void test_penetration_patches_u_channel(void **state) {
  (void)state;
  vxc_rng rng = {0x5eed0005ULL};
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  for (int c = 0; c < 24; c++) {
    double S = pow(10, vxc_rng_uniform(&rng, -2, 1)), s = 0.01 * S, hz = 5 * s, a = 2 * s;
    double d1 = s * vxc_rng_uniform(&rng, 0.01, 0.2), d2 = s * vxc_rng_uniform(&rng, 0.01, 0.2);
    vxc_mesh_buf cm = {0}, bm = {0};
    vxc_mb_u_channel(&cm, s, hz);
    vxc_mb_box(&bm, 3 * s + 0.5 * (d1 + d2), 2.5 * s, -a, a);
    vxc_solid *ch = vxc_mb_solid(&cm, "channel"), *box = vxc_mb_solid(&bm, "box");
    vxc_pose pc = vxc_pose_identity(), pb;
    if (c % 3 != 0) {
      double u[3] = {vxc_rng_uniform(&rng, -1, 1), vxc_rng_uniform(&rng, -1, 1),
                     vxc_rng_uniform(&rng, -1, 1)};
      double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
      for (int k = 0; k < 3; k++) {
        u[k] /= l;
      }
      axis_quat(u, vxc_rng_uniform(&rng, -M_PI, M_PI), pc.q);
    }
    double R[9], off[3] = {0.5 * (d2 - d1), 4.5 * s, 0};
    vxc_test_quat_matrix(pc.q, R);
    pb = pc;
    for (int i = 0; i < 3; i++) {
      pb.p[i] = R[3 * i] * off[0] + R[3 * i + 1] * off[1] + R[3 * i + 2] * off[2];
    }
    vxc_query_options o = patch_options(s / 8);
    const vxc_pair_metrics *p = one_pair(q, box, &pb, ch, &pc, &o);
    assert_int_equal(p->npatch, 2);
    for (int k = 0; k < 2; k++) {
      const vxc_patch *pa = &p->patch[k];
      double cx = pa->centroid[0] * R[0] + pa->centroid[1] * R[3] + pa->centroid[2] * R[6];
      double e[3] = {cx > 0 ? d2 : d1, 3 * s, 2 * a}, want = box_extent(R, e, pa->normal);
      fprintf(stderr, "# scale %.3g: patch %d penetration %.17g in [%.17g, %.17g], closed form %.17g\n",
              S, k, pa->penetration, pa->penetration_lo, pa->penetration_hi, want);
      assert_true(pa->penetration_lo <= want * (1 + 1e-9) && want <= pa->penetration_hi * (1 + 1e-9));
      double h = patch_leaf_max(q, k);
      assert_true(pa->penetration_hi - pa->penetration_lo <= sqrt(3.0) * h * (1 + 1e-9));
    }
    assert_pair_is_deepest_patch(p);
    if (c % 3 == 0) { /* leaves along the world axes: the walls' faces cut none obliquely */
      assert_true(p->penetration_hi < 3 * s); /* the span across both walls is over 6 s */
    }
    double pen = p->penetration, lo = p->penetration_lo, hi = p->penetration_hi;
    o.patches = 0;
    p = one_pair(q, box, &pb, ch, &pc, &o);
    assert_int_equal(p->npatch, 0);
    assert_true(p->penetration == pen && p->penetration_lo == lo && p->penetration_hi == hi);
    vxc_solid_free(box);
    vxc_solid_free(ch);
  }
  vxc_query_free(q);
}


/* A ball of radius r resting d deep on both walls of a mesh V-groove (walls' normals
 * w = (+-1, 0, -1) / sqrt 2 from the ball), at a fixed leaf h: each patch is a cap whose
 * extent along a unit n at an angle t from w is r - (r - d) cos t + a sin t (a the cap's
 * base radius: the ball's support point along n, down to the lowest point of the base's
 * rim), in a bracket at most sqrt 3 times the patch's largest leaf's edge wide; the pair's
 * the deeper patch's. */
static void test_penetration_patches_v_groove(void **state) {
  (void)state;
  const double g = 0.02;
  vxc_mesh_buf gm = {0};
  vxc_mb_v_groove(&gm, 0.05, 0.03, 0.05, g);
  vxc_solid *groove = vxc_mb_solid(&gm, "groove");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  const double rd[3][2] = {{0.01, 5e-4}, {0.005, 1e-3}, {0.012, 2e-4}};
  for (int c = 0; c < 3; c++) {
    double r = rd[c][0], d = rd[c][1], a = sqrt(r * r - (r - d) * (r - d));
    char text[80];
    snprintf(text, sizeof text, "(solid ball (cell body (sphere %.17g)))", r);
    vxc_solid *ball = vxc_test_load_text(text);
    vxc_pose pb = vxc_pose_identity();
    pb.p[2] = sqrt(2) * (r - d) - g;
    vxc_query_options o = patch_options(d / 4);
    const vxc_pair_metrics *p = one_pair(q, ball, &pb, groove, NULL, &o);
    assert_int_equal(p->npatch, 2);
    for (int k = 0; k < 2; k++) {
      const vxc_patch *pa = &p->patch[k];
      double w[3] = {(pa->centroid[0] > 0 ? 1 : -1) * sqrt(0.5), 0, -sqrt(0.5)};
      double t = vxc_test_angle(pa->normal, w), want = r - (r - d) * cos(t) + a * sin(t);
      fprintf(stderr, "# r %g d %g: patch %d penetration %.17g in [%.17g, %.17g], cap %.17g\n", r,
              d, k, pa->penetration, pa->penetration_lo, pa->penetration_hi, want);
      assert_true(t < 0.01);
      assert_true(pa->penetration_lo <= want * (1 + 1e-9) && want <= pa->penetration_hi * (1 + 1e-9));
      double h = patch_leaf_max(q, k);
      assert_true(pa->penetration_hi - pa->penetration_lo <= sqrt(3.0) * h * (1 + 1e-9));
    }
    assert_pair_is_deepest_patch(p);
    vxc_solid_free(ball);
  }
  vxc_query_free(q);
  vxc_solid_free(groove);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_penetration_ball_into_tilted_slab),
      cmocka_unit_test(test_penetration_two_balls),
      cmocka_unit_test(test_penetration_cube_corner),
      cmocka_unit_test(test_penetration_nonconvex_bracket),
      cmocka_unit_test(test_penetration_patches_u_channel),
      cmocka_unit_test(test_penetration_patches_v_groove),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
