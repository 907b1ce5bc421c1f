/* test_metrics_query.c: contact metrics of posed solids (vxc_query_run) against closed
 * forms: caps, lenses, wedges, circular-segment prisms, a ball in a groove, a peg in its
 * hole, and separation distances. Black-box: only <vxc.h>. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"
#include "tests/vxc_test_api.h"

/* Options of the thesis's fixed-leaf rule: leaves of edge h, no certified refinement. */
/* The data files a and b loaded into *sa and *sb, and a new query. */
static vxc_query *load_two(const char *a, const char *b, vxc_solid **sa, vxc_solid **sb) {
  assert_int_equal(vxc_solid_load(vxc_test_data(a), NULL, sa, NULL), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data(b), NULL, sb, NULL), VXC_OK);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  return q;
}


static vxc_query_options fixed_leaf(double h) {
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 0;
  o.voxel = h;
  return o;
}


/* Rotates v by the unit quaternion q. */
static void rotate(const double q[4], const double v[3], double o[3]) {
  double R[9];
  vxc_test_quat_matrix(q, R);
  for (int i = 0; i < 3; i++) {
    o[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
  }
}


static const char *BALL = "(solid ball (cell body (sphere 0.1)))";
/* a slab of ground 2 x 2 x 0.2 m with its top face at z = 0 of its frame */
static const char *GROUND = "(solid ground (cell top (box 2 2 0.2) (pose (translate 0 0 -0.1))))";


// a sphere pressed 1 mm into the ground, for random tilts of the ground: the cap volume,
// its bracket, and a normal along the ground's normal within 1e-4 rad at rtol 1e-5
static void test_query_sphere_on_tilted_ground(void **state) {
  (void)state;
  vxc_solid *ball = vxc_test_load_text(BALL), *ground = vxc_test_load_text(GROUND);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 1e-5;
  vxc_rng r = {8};
  const double R = 0.1, h = 1e-3;
  const double V = M_PI * h * h * (R - h / 3);
  for (int k = 0; k < 6; k++) {
    // ground tilted by up to 60 degrees about a random horizontal axis
    double ang = vxc_rng_uniform(&r, 0, 60) * M_PI / 180, az = vxc_rng_uniform(&r, 0, 2 * M_PI);
    vxc_pose pg = {{0.3, -0.2, 0.1},
                   {cos(ang / 2), sin(ang / 2) * cos(az), sin(ang / 2) * sin(az), 0}};
    double up[3], zc[3] = {0, 0, 1};
    rotate(pg.q, zc, up);
    vxc_pose pb = vxc_pose_identity();
    for (int i = 0; i < 3; i++) {
      pb.p[i] = pg.p[i] + (R - h) * up[i];
    }
    vxc_metrics m;
    vxc_error err;
    assert_int_equal(vxc_query_run(q, ball, &pb, ground, &pg, &o, NULL, NULL, &m, &err), VXC_OK);
    assert_int_equal(m.npair, 1);
    const vxc_pair_metrics *p = &m.pair[0];
    assert_true(p->volume_lo <= V && V <= p->volume_hi);
    assert_double_rel(p->geom.volume, V, 1e-5);
    double down[3] = {-up[0], -up[1], -up[2]};  // from the ball toward the ground
    assert_true(vxc_test_angle(p->geom.normal, down) < 1e-4);
    // the cap's centroid lies on the axis, (3 (2R - h)^2 / (4 (3R - h))) from the centre
    double zc_cap = 3 * (2 * R - h) * (2 * R - h) / (4 * (3 * R - h));
    for (int i = 0; i < 3; i++) {
      assert_double_near(p->geom.centroid[i], pb.p[i] - zc_cap * up[i], 1e-7);
    }
    assert_double_near(p->depth, -cbrt(V), 1e-9);
  }
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(ground);
}


// two spheres: the lens volume, a normal along the line of centres from A to B
// a ball rolled over a table's edge, 20 um into it: the normal follows the line from the
// edge to the ball's centre within a degree at every pose of a 0.4 mm sweep, and never jumps
// (MPR's portal direction, once the estimate, strayed by 8 to 13 degrees at a third of them)
static void test_query_ball_over_an_edge_has_a_continuous_normal(void **state) {
  (void)state;
  vxc_solid *ball = vxc_test_load_text("(solid ball (cell c (sphere 0.1)))");
  vxc_solid *table = vxc_test_load_text(
      "(solid table (cell top (box 1 1.6 0.04) "
      "(pose (translate 0 0 -0.02))))");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o = fixed_leaf(2e-4);
  const double R = 0.1, d = 20e-6;
  double prev[3] = {0, 0, 0};
  for (int k = 0; k <= 100; k++) {
    double y = 0.799 + 0.07 * k / 100; /* the edge is the line y = 0.8, z = 0 */
    double z = y <= 0.8 ? R - d : sqrt((R - d) * (R - d) - (y - 0.8) * (y - 0.8));
    vxc_pose pt = vxc_pose_identity(), pb = {{0.003, y, z}, {1, 0, 0, 0}};
    vxc_metrics m;
    assert_int_equal(vxc_query_run(q, table, &pt, ball, &pb, &o, NULL, NULL, &m, NULL), VXC_OK);
    assert_int_equal(m.npair, 1);
    double len = hypot(y > 0.8 ? y - 0.8 : 0, z);
    double truth[3] = {0, y > 0.8 ? (y - 0.8) / len : 0, z / len};
    const double *n = m.pair[0].geom.normal;
    assert_true(vxc_test_angle(n, truth) < M_PI / 180);
    if (k > 0) {
      assert_true(vxc_test_angle(n, prev) <
                  2 * M_PI / 180); /* the truth turns 0.4 degrees a step */
    }
    memcpy(prev, n, sizeof prev);
  }
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(table);
}


static void test_query_two_spheres_lens(void **state) {
  (void)state;
  vxc_solid *a = vxc_test_load_text("(solid a (cell c (sphere 0.1)))");
  vxc_solid *b = vxc_test_load_text("(solid b (cell c (sphere 0.06)))");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 1e-4;
  const double r1 = 0.1, r2 = 0.06, d = 0.15;
  // lens of two spheres at distance d: pi (r1 + r2 - d)^2 (d^2 + 2 d r2 - 3 r2^2 + 2 d r1
  // + 6 r1 r2 - 3 r1^2) / (12 d)
  double V = M_PI * pow(r1 + r2 - d, 2) *
             (d * d + 2 * d * r2 - 3 * r2 * r2 + 2 * d * r1 + 6 * r1 * r2 - 3 * r1 * r1) / (12 * d);
  double dir[3] = {0.48, -0.6, 0.64};  // unit
  vxc_pose pa = vxc_pose_identity(), pb = vxc_pose_identity();
  for (int i = 0; i < 3; i++) {
    pb.p[i] = d * dir[i];
  }
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, a, &pa, b, &pb, &o, NULL, NULL, &m, NULL), VXC_OK);
  assert_int_equal(m.npair, 1);
  assert_true(m.pair[0].volume_lo <= V && V <= m.pair[0].volume_hi);
  assert_double_rel(m.pair[0].geom.volume, V, 1e-4);
  assert_true(vxc_test_angle(m.pair[0].geom.normal, dir) < 1e-4);
  // the estimate is the area vector, along the centres' line by symmetry
  assert_int_equal(m.pair[0].normal_from_mpr, 0);
  assert_true(vxc_test_angle(m.pair[0].normal_geo, dir) < 1e-3);
  vxc_query_free(q);
  vxc_solid_free(a);
  vxc_solid_free(b);
}


// a query that cannot reach its tolerance says so: the lens above at rtol 1e-4 with a work
// cap of 200 boxes is capped (pair and total), its bracket wider than 1e-4 V and still
// holding the closed form; with the default cap the same query is not capped and meets it;
// so are mass properties (the sphere's 4/3 pi r^3)
static void test_query_capped_is_flagged(void **state) {
  (void)state;
  vxc_solid *a = vxc_test_load_text("(solid a (cell c (sphere 0.1)))");
  vxc_solid *b = vxc_test_load_text("(solid b (cell c (sphere 0.06)))");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  const double r1 = 0.1, r2 = 0.06, d = 0.15;
  double V = M_PI * pow(r1 + r2 - d, 2) *
             (d * d + 2 * d * r2 - 3 * r2 * r2 + 2 * d * r1 + 6 * r1 * r2 - 3 * r1 * r1) / (12 * d);
  vxc_pose pa = vxc_pose_identity(), pb = vxc_pose_identity();
  pb.p[0] = d;
  for (int k = 0; k < 2; k++) {
    vxc_query_options o;
    vxc_test_octree_options(&o);
    o.rtol = 1e-4;
    o.certified = 1; /* capped: the bracket missed the tolerance */
    o.max_boxes = k == 0 ? 200 : 0;
    vxc_metrics m;
    assert_int_equal(vxc_query_run(q, a, &pa, b, &pb, &o, NULL, NULL, &m, NULL), VXC_OK);
    const vxc_pair_metrics *p = &m.pair[0];
    assert_int_equal(p->capped, k == 0);
    assert_int_equal(m.capped, k == 0);
    assert_true(p->volume_lo <= V && V <= p->volume_hi);
    assert_true((p->volume_hi - p->volume_lo > 1e-4 * p->geom.volume) == (k == 0));
    vxc_mass_props mp;
    o.certified = 0; /* and the default rule: the error estimate missed the tolerance */
    assert_int_equal(vxc_solid_mass(q, a, -1, 0, &o, &mp, NULL), VXC_OK);
    assert_int_equal(mp.capped, k == 0);
    double vs = 4.0 / 3 * M_PI * r1 * r1 * r1;
    assert_true(mp.volume_lo <= vs && vs <= mp.volume_hi);
    assert_true((mp.error_estimate > 1e-4 * mp.volume) == (k == 0));
  }
  vxc_query_free(q);
  vxc_solid_free(a);
  vxc_solid_free(b);
}


// a grazing contact (a ball 1 um into the ground, V = pi h^2 (3 R - h) / 3 = 3.1e-13 m^3):
// at rtol 1e-3 alone it needs an error of 3e-16 m^3; with atol 3e-14 m^3 (a tenth of V) an
// error of that size is enough: not capped, the error estimate (with `certified`, the
// bracket) at most the tolerance, the actual error within the estimate, fewer leaves
static void test_query_atol_floor(void **state) {
  (void)state;
  vxc_solid *a = vxc_test_load_text(BALL);
  vxc_solid *g = vxc_test_load_text(GROUND);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  const double R = 0.1, h = 1e-6, V = M_PI * h * h * (3 * R - h) / 3;
  vxc_pose pa = vxc_pose_identity(), pg = vxc_pose_identity();
  pa.p[2] = R - h;
  for (int cert = 0; cert < 2; cert++) {
    long long leaves[2];
    for (int k = 0; k < 2; k++) {
      vxc_query_options o;
      vxc_test_octree_options(&o);
      o.atol = k ? 3e-14 : 0;
      o.certified = cert;
      vxc_metrics m;
      assert_int_equal(vxc_query_run(q, a, &pa, g, &pg, &o, NULL, NULL, &m, NULL), VXC_OK);
      const vxc_pair_metrics *p = &m.pair[0];
      double tol = k ? 3e-14 : 1e-3 * p->geom.volume;
      assert_int_equal(p->capped, 0);
      assert_true(p->volume_lo <= V && V <= p->volume_hi);
      if (cert) {
        assert_true(p->volume_hi - p->volume_lo <= tol);
      } else {
        assert_true(p->error_estimate <= tol);
        assert_true(fabs(p->geom.volume - V) <= p->error_estimate);
      }
      leaves[k] = p->leaves;
    }
    assert_true(leaves[1] < leaves[0]);
  }
  vxc_query_free(q);
  vxc_solid_free(a);
  vxc_solid_free(g);
}


// a 0.2 x 0.1 x 0.05 box flat on the ground 1 mm deep (a thin box), then tilted 10 degrees
// about x with its lowest edge 1 mm deep (a triangular prism, V = a delta^2 / sin(2 theta))
static void test_query_box_flat_and_tilted(void **state) {
  (void)state;
  vxc_solid *box = vxc_test_load_text("(solid b (cell c (box 0.2 0.1 0.05)))");
  vxc_solid *ground = vxc_test_load_text(GROUND);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 1e-6;
  vxc_pose pg = vxc_pose_identity(), pb = {{0.01, 0.02, 0.025 - 1e-3}, {1, 0, 0, 0}};
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, box, &pb, ground, &pg, &o, NULL, NULL, &m, NULL), VXC_OK);
  assert_int_equal(m.npair, 1);
  assert_double_rel(m.pair[0].geom.volume, 0.2 * 0.1 * 1e-3, 1e-9);  // planes: exact
  assert_double_near(m.pair[0].geom.normal[2], -1, 1e-12);
  // r_gyr about z of a 0.2 x 0.1 plate: sqrt((0.2^2 + 0.1^2) / 12)
  assert_double_rel(m.pair[0].r_gyr, sqrt((0.04 + 0.01) / 12), 1e-6);

  double th = 10 * M_PI / 180, delta = 1e-3, a = 0.2, hy = 0.05, hz = 0.025;
  // lowest point of the section: the edge at (y, z) = (-hy, -hz) rotated by th about x
  double zlow = -hy * sin(th) - hz * cos(th);
  vxc_pose pt = {{0, 0, -zlow - delta}, {cos(th / 2), sin(th / 2), 0, 0}};
  assert_int_equal(vxc_query_run(q, box, &pt, ground, &pg, &o, NULL, NULL, &m, NULL), VXC_OK);
  assert_int_equal(m.npair, 1);
  double V = a * delta * delta / sin(2 * th);
  assert_double_rel(m.pair[0].geom.volume, V, 1e-9);
  // J's eigenvector nearest the vertical, which an asymmetric wedge tilts: derive it from
  // the triangle's vertices (apex, and where the two faces through
  // the lowest edge meet the ground); central moments of a triangle = A/12 sum (v-c)(v-c)^T
  double ye = -hy * cos(th) + hz * sin(th);
  double ty[3] = {ye, ye + delta * cos(th) / sin(th), ye - delta * sin(th) / cos(th)};
  double tz[3] = {-delta, 0, 0};
  double cy = (ty[0] + ty[1] + ty[2]) / 3, cz = (tz[0] + tz[1] + tz[2]) / 3, A = V / a;
  double syy = 0, szz = 0, syz = 0;
  for (int i = 0; i < 3; i++) {
    syy += A / 12 * (ty[i] - cy) * (ty[i] - cy);
    szz += A / 12 * (tz[i] - cz) * (tz[i] - cz);
    syz += A / 12 * (ty[i] - cy) * (tz[i] - cz);
  }
  // J's (y, z) block for the prism of length a: Jyy = A a^3/12 + a szz, Jzz = A a^3/12 +
  // a syy, Jyz = -a syz; its eigenvector nearest z
  double jyy = A * a * a * a / 12 + a * szz, jzz = A * a * a * a / 12 + a * syy, jyz = -a * syz;
  double lam = 0.5 * (jyy + jzz) + sqrt(0.25 * (jzz - jyy) * (jzz - jyy) + jyz * jyz);
  double ev[3] = {0, jyz, lam - jyy}, el = sqrt(ev[1] * ev[1] + ev[2] * ev[2]);
  double eig[3] = {0, -ev[1] / el, -ev[2] / el};  // toward the ground
  // the area vector of the box's faces in the ground closes with the ground's face: it is
  // the ground's normal g. The eigenvector lies ang (3.6 degrees) from it, inside the blend
  // of lib/README.md section 3 (3 to 10 degrees): n = normalize(w eig + (1 - w) g)
  double g[3] = {0, 0, -1}, ang = vxc_test_angle(eig, g),
         w = (10 * M_PI / 180 - ang) / (7 * M_PI / 180);
  assert_true(ang > 3 * M_PI / 180 && ang < 10 * M_PI / 180);
  double want[3] = {0, w * eig[1], w * eig[2] + (1 - w) * g[2]};
  assert_double_near(m.pair[0].geom.centroid[1], cy, 1e-9);
  assert_double_near(m.pair[0].geom.centroid[2], cz, 1e-9);
  assert_true(vxc_test_angle(m.pair[0].geom.normal, want) < 1e-6);
  vxc_query_free(q);
  vxc_solid_free(box);
  vxc_solid_free(ground);
}

// a generically rotated 0.2 x 0.1 x 0.05 box with its lowest corner 2 um into the ground:
// the region is the tetrahedron along the box's three edges from that corner, V = d^3 /
// (6 |u1z u2z u3z|) (u_k the rotated edge directions, orthonormal); the certified rule's
// bracket (rounding allowances on exact leaves) reaches 1e-3 of this tiny V, uncapped
static void test_query_certified_grazing_box_corner(void **state) {
  (void)state;
  vxc_solid *box = vxc_test_load_text("(solid b (cell c (box 0.2 0.1 0.05)))");
  vxc_solid *ground = vxc_test_load_text(GROUND);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 1e-3;
  o.certified = 1;
  // a unit quaternion with no zero component; R2 the rotation matrix's third row
  double ax = 0.35, ay = 0.2, qw = cos(ay) * cos(ax), qx = cos(ay) * sin(ax);
  double qy = sin(ay) * cos(ax), qz = sin(ay) * sin(ax);
  double R2[3] = {2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx),
                  qw * qw - qx * qx - qy * qy + qz * qz};
  const double half[3] = {0.1, 0.05, 0.025};
  double zlow = 0, prod = 1, d = 2e-6;
  for (int k = 0; k < 3; k++) {
    zlow -= fabs(R2[k]) * half[k];
    prod *= fabs(R2[k]);
  }
  vxc_pose pg = vxc_pose_identity(), pb = {{0.003, -0.004, -zlow - d}, {qw, qx, qy, qz}};
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, box, &pb, ground, &pg, &o, NULL, NULL, &m, NULL), VXC_OK);
  assert_int_equal(m.npair, 1);
  double V = d * d * d / (6 * prod);
  const vxc_pair_metrics *p = &m.pair[0];
  assert_int_equal(m.capped, 0);
  assert_true(p->volume_lo <= V * (1 + 1e-9) && V * (1 - 1e-9) <= p->volume_hi);
  assert_true(p->volume_hi - p->volume_lo <= 1e-3 * V);
  assert_double_rel(p->geom.volume, V, 1e-6);
  vxc_query_free(q);
  vxc_solid_free(box);
  vxc_solid_free(ground);
}


// a cylinder (R 0.05, length 0.3) lying on the ground 2 mm deep: a circular-segment prism
static void test_query_cylinder_on_ground(void **state) {
  (void)state;
  vxc_solid *cyl = vxc_test_load_text(
      "(solid c (cell c (move (rotate y 90) (cylinder 0.05)) (slab x -0.15 0.15)))");
  vxc_solid *ground = vxc_test_load_text(GROUND);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 1e-5;
  const double R = 0.05, L = 0.3, d = 2e-3;
  double V = L * (R * R * acos((R - d) / R) - (R - d) * sqrt(2 * R * d - d * d));
  vxc_pose pg = vxc_pose_identity(), pc = {{0, 0, R - d}, {1, 0, 0, 0}};
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, cyl, &pc, ground, &pg, &o, NULL, NULL, &m, NULL), VXC_OK);
  assert_int_equal(m.npair, 1);
  assert_true(m.pair[0].volume_lo <= V && V <= m.pair[0].volume_hi);
  assert_double_rel(m.pair[0].geom.volume, V, 1e-5);
  assert_double_near(m.pair[0].geom.normal[2], -1, 1e-8);
  // the contact strip is L long and 2 sqrt(2 R d - d^2) wide
  assert_double_rel(m.pair[0].area, L * 2 * sqrt(2 * R * d - d * d), 2e-2);
  vxc_query_free(q);
  vxc_solid_free(cyl);
  vxc_solid_free(ground);
}


// the ball of thesis figure 5.33 in the 1 m groove, displaced sideways: the normal points
// from the ball away from the groove's axis (radially), whatever the side
static void test_query_ball_in_groove(void **state) {
  (void)state;
  vxc_solid *ball = NULL, *block = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &ball, &err), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data("grooved-block.vxm"), NULL, &block, &err), VXC_OK);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 1e-4;
  // the groove's axis is the line y = 0, z = 1 (model frame); the ball's centre at
  // distance 1 - 0.1 + 1e-3 from it, at angle phi from straight down
  for (int k = -2; k <= 2; k++) {
    double phi = 0.2 * k, rad = 1 - 0.1 + 1e-3;
    vxc_pose pb = {{0.05, rad * sin(phi), 1 - rad * cos(phi)}, {1, 0, 0, 0}};
    vxc_pose pg = vxc_pose_identity();
    vxc_metrics m;
    assert_int_equal(vxc_query_run(q, ball, &pb, block, &pg, &o, NULL, NULL, &m, NULL), VXC_OK);
    assert_int_equal(m.npair, 1);
    double out[3] = {0, sin(phi), -cos(phi)};
    assert_true(vxc_test_angle(m.pair[0].geom.normal, out) < 1e-3);
    assert_int_equal(m.pair[0].normal_from_mpr, 0);  // a concave cell: the area vector
  }
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(block);
}


// the normal's error shrinks with the tolerance: the ball 25 mm deep in the groove (its
// normal from the area vector and J alone, no MPR), the radial direction as the truth
static void test_query_normal_error_shrinks_with_rtol(void **state) {
  (void)state;
  vxc_solid *ball = NULL, *block = NULL;
  vxc_query *q = load_two("ball.vxm", "grooved-block.vxm", &ball, &block);
  vxc_pose pb = {{0.05, 0.1787, 0.0917}, {1, 0, 0, 0}}, pg = vxc_pose_identity();
  double radial[3] = {0, pb.p[1], pb.p[2] - 1}, l = hypot(radial[1], radial[2]);
  radial[1] /= l;
  radial[2] /= l;
  double err[2];
  const double rtol[2] = {1e-2, 1e-3};
  for (int k = 0; k < 2; k++) {
    vxc_query_options o;
    vxc_test_octree_options(&o);
    o.rtol = rtol[k];
    o.certified = 1; /* the bracket-driven rule, whose moments these bounds were set for */
    vxc_metrics m;
    assert_int_equal(vxc_query_run(q, ball, &pb, block, &pg, &o, NULL, NULL, &m, NULL), VXC_OK);
    assert_int_equal(m.npair, 1);
    err[k] = vxc_test_angle(m.pair[0].geom.normal, radial);
  }
  /* the rule certifies V; the moments follow the leaves it needs (third-order volume
     brackets need fewer: 1.4e-6 rad at 1e-3) */
  assert_true(err[0] < 1e-3);
  assert_true(err[1] < 1e-5);
  assert_true(err[1] <= err[0]);
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(block);
}


// a ball 0.4 mm deep over the table's edge (its centre 1.7 mm past it): the overlap is a
// sliver 0.4 mm thick and 7 mm wide, so the normal is within atan(0.4 / 7) of vertical,
// whatever direction libccd's portal gives (a regression: it gave a nearly horizontal one)
static void test_query_ball_over_table_edge_normal_is_vertical(void **state) {
  (void)state;
  vxc_solid *ball = NULL, *table = NULL;
  vxc_query *q = load_two("ball.vxm", "table.vxm", &ball, &table);
  vxc_query_options o = fixed_leaf(1e-3);
  vxc_pose pt = vxc_pose_identity(), pb = {{0, 0.301744, 0.0995852}, {1, 0, 0, 0}};
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, table, &pt, ball, &pb, &o, NULL, NULL, &m, NULL), VXC_OK);
  assert_int_equal(m.npair, 1);
  double up[3] = {0, 0, 1};
  assert_true(vxc_test_angle(m.pair[0].geom.normal, up) < atan(0.4 / 7));
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(table);
}


// the peg half-way into its hole, pushed 0.6 mm toward +x (0.5 mm clearance): one pair per
// touching cell pair: the shaft and the top rim of the chamfered tip (whose top radius is the
// shaft's) each against the two +x wall quadrants; mirror-image contacts, normals near +x
static void test_query_peg_in_hole_one_pair_per_cell(void **state) {
  (void)state;
  vxc_solid *peg = NULL, *hole = NULL;
  vxc_query *q = load_two("peg.vxm", "hole-block.vxm", &peg, &hole);
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.rtol = 1e-3;
  o.certified = 1; /* mirrored normals to 1e-6: the bracket-driven rule's moments */
  vxc_pose pp = {{0.0006, 0, -0.04}, {1, 0, 0, 0}}, ph = vxc_pose_identity();
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, peg, &pp, hole, &ph, &o, NULL, NULL, &m, NULL), VXC_OK);
  assert_int_equal(m.npair, 4);
  const vxc_pair_metrics *shaft[2] = {NULL, NULL};
  int tip = 0;
  for (int i = 0; i < 4; i++) {
    const vxc_pair_metrics *p = &m.pair[i];
    int py = strcmp(p->name_b, "wall-px-py") == 0, ny = strcmp(p->name_b, "wall-px-ny") == 0;
    assert_true(py || ny);
    if (strcmp(p->name_a, "shaft") == 0) {
      assert_null(shaft[py]);
      shaft[py] = p;
      // a curved sliver (the half crescent spans 0 to 33 degrees about the hole's axis):
      // its normal is near the radial direction through its centroid
      double radial[3] = {p->geom.centroid[0], p->geom.centroid[1], 0};
      double rl = sqrt(radial[0] * radial[0] + radial[1] * radial[1]);
      radial[0] /= rl;
      radial[1] /= rl;
      assert_true(vxc_test_angle(p->geom.normal, radial) < 0.1);
    } else {
      assert_string_equal(p->name_a, "tip");
      tip++;
    }
  }
  assert_int_equal(tip, 2);
  assert_non_null(shaft[0]);
  assert_non_null(shaft[1]);
  // mirror images about y = 0: equal volumes within the brackets, mirrored normals
  assert_double_near(shaft[0]->geom.normal[0], shaft[1]->geom.normal[0], 1e-6);
  assert_double_near(shaft[0]->geom.normal[1], -shaft[1]->geom.normal[1], 1e-6);
  assert_true(shaft[0]->volume_lo <= shaft[1]->volume_hi);
  assert_true(shaft[1]->volume_lo <= shaft[0]->volume_hi);
  // the shaft's part: the area of the peg's circle (r 0.02, shifted 0.6 mm) outside the
  // hole's circle (r 0.0205), times the shaft's length inside the hole (0.037 m)
  double rp = 0.02, rh = 0.0205, d = 0.0006;
  double a1 = rp * rp * acos((d * d + rp * rp - rh * rh) / (2 * d * rp));
  double a2 = rh * rh * acos((d * d + rh * rh - rp * rp) / (2 * d * rh));
  double a3 = 0.5 * sqrt((-d + rp + rh) * (d + rp - rh) * (d - rp + rh) * (d + rp + rh));
  double lune = M_PI * rp * rp - (a1 + a2 - a3);
  assert_double_rel(shaft[0]->geom.volume + shaft[1]->geom.volume, lune * 0.037, 2e-3);
  vxc_query_free(q);
  vxc_solid_free(peg);
  vxc_solid_free(hole);
}


// the chamfer of a peg struck on the hole's rim (the pose of peg-in-hole.vxt at its first
// contact: 1 mm off the axis, tilted 0.5 degree): each pair's overlap is a thin arc along
// the rim, whose inertia tensor's eigenvector points some 60 degrees away from both
// surfaces' normals; the normal is the chamfer's own (45 degrees, at the overlap's azimuth:
// the edge can only push along it) within 3 degrees, with the rod-in-bore quadrature and
// with the octree alike
static void test_query_chamfer_on_rim_normal(void **state) {
  (void)state;
  vxc_solid *peg = NULL, *hole = NULL;
  vxc_query *q = load_two("peg.vxm", "hole-block.vxm", &peg, &hole);
  vxc_pose ph = vxc_pose_identity();
  vxc_pose pp = {{0.0009705456273, 0, -0.002464556193}, {0.9999898642, 0, 0.004502377995, 0}};
  for (int octree = 0; octree < 2; octree++) {
    vxc_query_options o;
    vxc_test_octree_options(&o);
    o.rtol = 1e-6;
    o.closed_form = !octree;
    vxc_metrics m;
    assert_int_equal(vxc_query_run(q, hole, &ph, peg, &pp, &o, NULL, NULL, &m, NULL), VXC_OK);
    assert_int_equal(m.npair, 2);
    for (int i = 0; i < 2; i++) {
      const vxc_pair_metrics *p = &m.pair[i];
      assert_string_equal(p->name_b, "tip");
      assert_int_equal(p->closed_form, octree ? 0 : 2);
      double phi = atan2(p->geom.centroid[1], p->geom.centroid[0]);
      /* from the block toward the peg: inward and up */
      double chamfer[3] = {-cos(phi) / sqrt(2), -sin(phi) / sqrt(2), 1 / sqrt(2)};
      assert_true(vxc_test_angle(p->geom.normal, chamfer) < 3 * M_PI / 180);
    }
  }
  vxc_query_free(q);
  vxc_solid_free(peg);
  vxc_solid_free(hole);
}


// apart: the exact distance for two spheres and for a sphere above the ground
static void test_query_separation_distance(void **state) {
  (void)state;
  vxc_solid *ball = vxc_test_load_text(BALL), *ground = vxc_test_load_text(GROUND);
  vxc_solid *small = vxc_test_load_text("(solid s (cell c (sphere 0.03)))");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_pose pa = {{0, 0, 0.1 + 0.0042}, {1, 0, 0, 0}}, pg = vxc_pose_identity();
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, ball, &pa, ground, &pg, NULL, NULL, NULL, &m, NULL),
                   VXC_NO_CONTACT);
  assert_int_equal(m.contact, 0);
  assert_int_equal(m.npair, 0);
  assert_int_equal(m.distance_exact, 1);
  assert_double_near(m.distance, 0.0042, 1e-10);
  vxc_pose ps = {{0.3, 0.4, 0.1 + 0.0042}, {1, 0, 0, 0}};  // 0.5 between centres
  assert_int_equal(vxc_query_run(q, ball, &pa, small, &ps, NULL, NULL, NULL, &m, NULL),
                   VXC_NO_CONTACT);
  assert_double_near(m.distance, 0.5 - 0.13, 1e-10);
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(ground);
  vxc_solid_free(small);
}


// a pose with NaN, a zero quaternion or bad options: VXC_ERR_ARG naming it, out untouched
static void test_query_bad_input(void **state) {
  (void)state;
  vxc_solid *ball = vxc_test_load_text(BALL);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_metrics m;
  m.npair = -7;
  vxc_error err;
  vxc_pose nan_pose = {{NAN, 0, 0}, {1, 0, 0, 0}}, zero_q = {{0, 0, 0}, {0, 0, 0, 0}};
  assert_int_equal(vxc_query_run(q, ball, &nan_pose, ball, NULL, NULL, NULL, NULL, &m, &err),
                   VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "pose of A"));
  assert_int_equal(vxc_query_run(q, ball, NULL, ball, &zero_q, NULL, NULL, NULL, &m, &err),
                   VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "pose of B"));
  /* beyond the model files' 1e4 m: 1e155 m would make the distance overflow */
  vxc_pose far = {{1e155, 0, 0}, {1, 0, 0, 0}};
  assert_int_equal(vxc_query_run(q, ball, &far, ball, NULL, NULL, NULL, NULL, &m, &err),
                   VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "beyond"));
  vxc_query_options o;
  vxc_test_octree_options(&o);
  o.atol = -1;
  assert_int_equal(vxc_query_run(q, ball, NULL, ball, NULL, &o, NULL, NULL, &m, &err), VXC_ERR_ARG);
  vxc_test_octree_options(&o);
  o.rtol = 0;
  assert_int_equal(vxc_query_run(q, ball, NULL, ball, NULL, &o, NULL, NULL, &m, &err), VXC_ERR_ARG);
  vxc_test_octree_options(&o);
  o.threads = 0;
  assert_int_equal(vxc_query_run(q, ball, NULL, ball, NULL, &o, NULL, NULL, &m, &err), VXC_ERR_ARG);
  assert_int_equal(m.npair, -7);
  vxc_query_free(q);
  vxc_solid_free(ball);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_query_sphere_on_tilted_ground),
      cmocka_unit_test(test_query_two_spheres_lens),
      cmocka_unit_test(test_query_capped_is_flagged),
      cmocka_unit_test(test_query_atol_floor),
      cmocka_unit_test(test_query_ball_over_an_edge_has_a_continuous_normal),
      cmocka_unit_test(test_query_box_flat_and_tilted),
      cmocka_unit_test(test_query_certified_grazing_box_corner),
      cmocka_unit_test(test_query_cylinder_on_ground),
      cmocka_unit_test(test_query_ball_in_groove),
      cmocka_unit_test(test_query_normal_error_shrinks_with_rtol),
      cmocka_unit_test(test_query_ball_over_table_edge_normal_is_vertical),
      cmocka_unit_test(test_query_peg_in_hole_one_pair_per_cell),
      cmocka_unit_test(test_query_chamfer_on_rim_normal),
      cmocka_unit_test(test_query_separation_distance),
      cmocka_unit_test(test_query_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
