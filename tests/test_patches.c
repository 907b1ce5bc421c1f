/* test_patches.c: contact patches (vxc_query_options.patches) against closed forms: a
 * square mesh peg pressed against two opposite walls of a square mesh hole (two patches,
 * opposite normals, each the box overlap), a ball on one face of a mesh cube (one patch, the
 * spherical cap), a ball in a mesh V-groove (two patches, the walls' normals), a big ball on
 * both walls' tops of a U-channel at any pose (two mirror patches), and the patches'
 * sums against the pair's figures; then patches as contacts of a vxc_pair: the peg's two
 * wall forces (equal and opposite, each k_v times its box), the ball resting in the groove
 * (each wall m g / (2 cos a) by statics), and each patch keeping its slot and its bristle
 * while the peg slides. Black-box: only <vxc.h> (and the tests' own quaternion helpers). */
#include "tests/vxc_test.h"

#include "lib/vxc.h"
#include "tests/vxc_test_api.h"
#include "tests/vxc_test_meshes.h"

/* A ball of radius r (a sphere cell). */
static vxc_solid *ball_of(double r) {
  char text[80];
  snprintf(text, sizeof text, "(solid ball (cell body (sphere %.17g)))", r);
  vxc_solid *s = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_parse(text, strlen(text), "ball", NULL, &s, &err), VXC_OK);
  return s;
}


/* Runs the query of a at pa against b, which must give one pair in contact. */
static const vxc_pair_metrics *one_pair(vxc_query *q, const vxc_solid *a, const vxc_pose *pa,
                                        const vxc_solid *b, const vxc_query_options *o) {
  vxc_metrics m;
  vxc_error err;
  assert_int_equal(vxc_query_run(q, a, pa, b, NULL, o, NULL, NULL, &m, &err), VXC_OK);
  assert_int_equal(m.npair, 1);
  return &m.pair[0];
}


static vxc_query_options patch_options(void) {
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = 1e-3;
  o.patches = 1;
  o.closed_form = 0; /* the octree's patches, not one closed-form leaf */
  return o;
}


/* The pair's patches sum to its figures (volume, bracket, estimate). */
static void assert_patch_sums(const vxc_pair_metrics *p) {
  double v = 0, lo = 0, hi = 0, est = 0;
  for (int i = 0; i < p->npatch; i++) {
    v += p->patch[i].volume;
    lo += p->patch[i].volume_lo;
    hi += p->patch[i].volume_hi;
    est += p->patch[i].error_estimate;
    assert_true(i == 0 || p->patch[i].volume <= p->patch[i - 1].volume);
  }
  assert_double_rel(v, p->geom.volume, 1e-12);
  assert_true(lo <= p->volume_lo * (1 + 1e-12) + 1e-30 && hi >= p->volume_hi * (1 - 1e-12));
  assert_double_near(est, p->error_estimate, 1e-9 * p->error_estimate + 1e-30);
}


/* A square peg 2 w + 2 d wide in x (d into each wall of a hole 2 w wide), 2 a in y (clear
 * of the other walls), reaching depth D into a block: the interference is two boxes d x 2a x
 * D at x = +-(w + d / 2), the peg's faces planar so that the octree integrates them
 * exactly. From the peg (A) toward the block (B) the normals are +x and -x. */
static void test_patches_square_peg_two_walls(void **state) {
  (void)state;
  const double W = 0.03, w = 0.01, d = 0.001, a = 0.005, D = 0.02;
  vxc_mesh_buf pm = {0}, bm = {0};
  vxc_mb_box(&pm, w + d, a, -D, 0.03);
  vxc_mb_holed_block(&bm, W, w, -0.04, 0);
  vxc_solid *peg = vxc_mb_solid(&pm, "peg"), *block = vxc_mb_solid(&bm, "block");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o = patch_options();
  o.region = 1; /* the elements, to check their patch */
  const vxc_pair_metrics *p = one_pair(q, peg, NULL, block, &o);
  /* the block is a concave mesh, linearised in the leaves along its edges: rtol 1e-3 */
  assert_double_rel(p->geom.volume, 2 * d * 2 * a * D, 1e-3);
  assert_int_equal(p->npatch, 2);
  assert_patch_sums(p);
  double want = d * 2 * a * D;
  for (int i = 0; i < 2; i++) {
    const vxc_patch *c = &p->patch[i];
    double side = c->centroid[0] > 0 ? 1 : -1;
    assert_double_rel(c->volume, want, 1e-3);
    /* within 1e-3 of the patch's size */
    assert_double_near(c->centroid[0], side * (w + 0.5 * d), 1e-3 * D);
    assert_double_near(c->centroid[1], 0, 1e-3 * D);
    assert_double_near(c->centroid[2], -0.5 * D, 1e-3 * D);
    /* the box's inertia about its centroid: m (b^2 + c^2) / 12 about each axis */
    assert_double_rel(c->inertia[0], want * (4 * a * a + D * D) / 12, 1e-2);
    assert_double_rel(c->inertia[8], want * (d * d + 4 * a * a) / 12, 1e-2);
    /* J's eigenvector is +-x; the guess it starts from, the area vector of the peg's
       surface in the wall (its side 2a x D and its bottom's strip d x 2a), leans toward -z
       by atan(d / D); where the eigenvalues are not apart by several times J's uncertainty
       the normal is blended between the two, so it lies within that angle of +-x */
    assert_true(side * c->normal[0] >= cos(atan(d / D)) - 1e-9);
    assert_double_near(c->normal[1], 0, 1e-5); /* the triangulations are not symmetric */
    assert_true(c->normal[2] <= 1e-5);
  }
  assert_true(p->patch[0].centroid[0] * p->patch[1].centroid[0] < 0);
  const double *n0 = p->patch[0].normal, *n1 = p->patch[1].normal;
  assert_true(n0[0] * n1[0] + n0[1] * n1[1] + n0[2] * n1[2] < -cos(2 * atan(d / D)) + 1e-9);
  /* the region's elements carry their patch */
  const vxc_region_box *b;
  size_t n;
  assert_int_equal(vxc_query_region(q, &b, &n, NULL), VXC_OK);
  assert_true(n > 0);
  for (size_t i = 0; i < n; i++) {
    assert_true(b[i].patch == 0 || b[i].patch == 1);
    assert_true((b[i].center[0] > 0) == (p->patch[b[i].patch].centroid[0] > 0));
  }
  vxc_query_free(q);
  vxc_solid_free(peg);
  vxc_solid_free(block);
}


/* A box pressed d1 into the left wall and d2 into the right wall of a U-channel (clear of
 * its floor, its top above the walls, its ends inside the channel's): by default two
 * contacts, each the box slab d x 3s x 2a of its wall, with the wall's normal, -x and +x
 * from the box toward the channel, to 1e-6 rad, at every tolerance (an exact slab's J is
 * exact whatever the leaves); on two threads the same figures, bit for bit. */
static void test_patches_box_in_u_channel(void **state) {
  (void)state;
  const double s = 0.01, h = 0.05, a = 0.02;
  vxc_mesh_buf cm = {0};
  vxc_mb_u_channel(&cm, s, h);
  vxc_solid *ch = vxc_mb_solid(&cm, "channel");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  const double depth[3][2] = {{5e-4, 5e-4}, {2.5e-4, 7.5e-4}, {1e-3, 1e-4}};
  const double rtol[3] = {1e-2, 1e-3, 1e-6};
  for (int c = 0; c < 3; c++) {
    double d1 = depth[c][0], d2 = depth[c][1];
    vxc_mesh_buf bm = {0};
    vxc_mb_box(&bm, 3 * s + 0.5 * (d1 + d2), 2.5 * s, -a, a);
    vxc_solid *box = vxc_mb_solid(&bm, "box");
    vxc_pose pb = vxc_pose_identity();
    pb.p[0] = 0.5 * (d2 - d1);
    pb.p[1] = 4.5 * s;
    for (int r = 0; r < 3; r++) {
      vxc_query_options o;
      vxc_query_options_default(&o);
      o.rtol = rtol[r];
      const vxc_pair_metrics *p = one_pair(q, box, &pb, ch, &o);
      assert_int_equal(p->npatch, 2);
      assert_patch_sums(p);
      vxc_query *q2 = NULL;
      assert_int_equal(vxc_query_create(NULL, &q2, NULL), VXC_OK);
      o.threads = 2;
      const vxc_pair_metrics *p2 = one_pair(q2, box, &pb, ch, &o);
      assert_int_equal(p2->npatch, 2);
      assert_memory_equal(p2->patch, p->patch, 2 * sizeof *p->patch);
      vxc_query_free(q2);
      for (int i = 0; i < 2; i++) {
        const vxc_patch *pa = &p->patch[i];
        double side = pa->centroid[0] > 0 ? 1 : -1, d = side > 0 ? d2 : d1;
        double ang = acos(fmin(1, side * pa->normal[0]));
        fprintf(stderr, "# depths %g %g rtol %g: patch %d V %.17g (box %.17g) normal off by %.3g rad\n",
                d1, d2, rtol[r], i, pa->volume, d * 3 * s * 2 * a, ang);
        assert_double_rel(pa->volume, d * 3 * s * 2 * a, 1e-9);
        assert_true(ang <= 1e-6);
        assert_double_near(pa->centroid[0], side * (3 * s + 0.5 * d), 1e-9 * s);
        assert_double_near(pa->centroid[1], 3.5 * s, 1e-9 * s);
        assert_double_near(pa->centroid[2], 0, 1e-9 * s);
      }
      assert_true(p->patch[0].centroid[0] * p->patch[1].centroid[0] < 0);
    }
    vxc_solid_free(box);
  }
  vxc_query_free(q);
  vxc_solid_free(ch);
}


/* The box in the U-channel pressed 5e-4 into each wall, longer along the channel (2a) than
 * across it, queried at rtol 1e-3 with the region's elements: the meshes' triangles are
 * large against the region, so a root cube as long as the region holds both walls' slabs in
 * one exact leaf, which reports each slab as an element of its own (the same box twice,
 * bounds that do not meet, one patch each): two patches, each the slab d x 3s x 2a, and the
 * elements summing to the pair's volume. */
static void test_patches_one_leaf_two_parts(void **state) {
  (void)state;
  const double s = 0.01, h = 0.05, a = 0.045, d = 5e-4;
  vxc_mesh_buf cm = {0}, bm = {0};
  vxc_mb_u_channel(&cm, s, h);
  vxc_mb_box(&bm, 3 * s + d, 2.5 * s, -a, a);
  vxc_solid *ch = vxc_mb_solid(&cm, "channel"), *box = vxc_mb_solid(&bm, "box");
  vxc_pose pb = vxc_pose_identity();
  pb.p[1] = 4.5 * s;
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.region = 1;
  const vxc_pair_metrics *p = one_pair(q, box, &pb, ch, &o);
  assert_int_equal(p->npatch, 2);
  assert_patch_sums(p);
  for (int i = 0; i < 2; i++) {
    assert_double_rel(p->patch[i].volume, d * 3 * s * 2 * a, 1e-9);
  }
  const vxc_region_box *b;
  size_t n;
  assert_int_equal(vxc_query_region(q, &b, &n, NULL), VXC_OK);
  double v = 0;
  int shared = 0;
  for (size_t i = 0; i < n; i++) {
    v += b[i].volume;
    for (size_t j = i + 1; j < n; j++) {
      if (memcmp(b[i].center, b[j].center, sizeof b[i].center) != 0 || b[i].size != b[j].size) {
        continue;
      }
      /* one leaf's two parts: apart, in two patches */
      shared++;
      assert_true(b[i].leaf && b[j].leaf && b[i].patch != b[j].patch);
      assert_true(b[i].bounds[3] < b[j].bounds[0] || b[j].bounds[3] < b[i].bounds[0]);
    }
  }
  assert_true(shared >= 1);
  assert_double_rel(v, p->geom.volume, 1e-12);
  vxc_query_free(q);
  vxc_solid_free(box);
  vxc_solid_free(ch);
}


/* The channel's pose for case c of a seeded set: every third one axis-aligned (the
 * identity), the others turned by a seeded angle about a seeded axis. */
static vxc_pose channel_pose(vxc_rng *g, int c) {
  vxc_pose pc = vxc_pose_identity();
  if (c % 3 != 0) {
    double u[3] = {vxc_rng_uniform(g, -1, 1), vxc_rng_uniform(g, -1, 1), vxc_rng_uniform(g, -1, 1)};
    double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), t = vxc_rng_uniform(g, -M_PI, M_PI);
    pc.q[0] = cos(t / 2);
    for (int k = 0; k < 3; k++) {
      pc.q[1 + k] = sin(t / 2) * u[k] / l;
    }
  }
  return pc;
}


/* The query of a at pa against b at pb with the default options: one pair, within its
 * tolerance, two patches summing to it. */
static const vxc_pair_metrics *two_patches(vxc_query *q, const vxc_solid *a, const vxc_pose *pa,
                                           const vxc_solid *b, const vxc_pose *pb, vxc_metrics *m) {
  vxc_error err;
  assert_int_equal(vxc_query_run(q, a, pa, b, pb, NULL, NULL, NULL, m, &err), VXC_OK);
  assert_int_equal(m->npair, 1);
  const vxc_pair_metrics *p = &m->pair[0];
  assert_false(p->capped);
  assert_int_equal(p->npatch, 2);
  assert_patch_sums(p);
  return p;
}


/* A ball of radius R = 20 s pressed d onto the tops of both walls of the U-channel (its
 * surface refined over the rounds of the rtol rule, its inside holding both walls' overlaps
 * in leaves that only the channel's faces cross): two patches whatever the pose, mirror
 * images of each other (equal volumes within 4e-3, centroids mirrored in x beyond the gap,
 * normals down onto the walls), summing to the pair's; seeded poses (a third axis-aligned),
 * scales 1e-3 to 1, d from 0.3 s to 0.8 s (each cap's half-width sqrt(2 R d) beyond the
 * gap's 3 s). */
static void test_patches_ball_on_both_walls(void **state) {
  (void)state;
  vxc_rng g = {0x9e3779b97f4a7c15ULL};
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  for (int c = 0; c < 12; c++) {
    double s = pow(10, vxc_rng_uniform(&g, -3, 0)), R = 20 * s;
    double d = s * vxc_rng_uniform(&g, 0.3, 0.8);
    vxc_mesh_buf cm = {0};
    vxc_mb_u_channel(&cm, s, 10 * s);
    vxc_solid *ch = vxc_mb_solid(&cm, "channel"), *ball = ball_of(R);
    vxc_pose pc = channel_pose(&g, c), pb;
    double R9[9], off[3] = {0, 5 * s + R - d, 0};
    vxc_test_quat_matrix(pc.q, R9);
    pb = vxc_pose_identity();
    for (int i = 0; i < 3; i++) {
      pb.p[i] = R9[3 * i] * off[0] + R9[3 * i + 1] * off[1] + R9[3 * i + 2] * off[2];
    }
    vxc_metrics m;
    const vxc_pair_metrics *p = two_patches(q, ball, &pb, ch, &pc, &m);
    double x[2], nx[2][3] = {{0, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < 2; i++) {
      const vxc_patch *pa = &p->patch[i];
      double y[3] = {0, 0, 0};
      for (int k = 0; k < 3; k++) { /* centroid and normal in the channel's frame */
        for (int j = 0; j < 3; j++) {
          y[k] += R9[3 * j + k] * pa->centroid[j];
          nx[i][k] += R9[3 * j + k] * pa->normal[j];
        }
      }
      x[i] = y[0];
    }
    fprintf(stderr, "# s %.3g d/s %.3g: patch volumes %.9g %.9g, centroids x/s %.6g %.6g\n", s, d / s,
            p->patch[0].volume, p->patch[1].volume, x[0] / s, x[1] / s);
    assert_double_rel(p->patch[0].volume, p->patch[1].volume, 4e-3);
    assert_true(x[0] * x[1] < 0 && fabs(x[0]) > 3 * s && fabs(x[1]) > 3 * s);
    assert_double_near(x[0], -x[1], 1e-2 * s);
    assert_true(nx[0][1] < -0.9 && nx[1][1] < -0.9); /* down, onto the walls' tops */
    vxc_solid_free(ball);
    vxc_solid_free(ch);
  }
  vxc_query_free(q);
}


/* A bar's edge pressed d into both walls' tops of the U-channel: the bar [-6s, 6s] x [-a, a]^2
 * turned by theta about its length (x) so that one edge points down, theta away from 45
 * degrees, so that each overlap is a wedge of unequal sides (a triangle of height d and
 * width d / (sin theta cos theta), 2 s long: V = 2 s d^2 / sin(2 theta)). Two patches whatever
 * the pose, each that wedge (exact: both are meshes) with the normal that a pair of that
 * wedge alone gets (a bar 4 s long over one wall: within 1e-9 rad), within 10 degrees of the
 * wall top's (lib/normal.c's rule for a wedge: mostly the area vector of the edge on the face,
 * not J's eigenvector, which leans toward the wedge's longer side); seeded poses (a third
 * axis-aligned), scales 1e-3 to 1. */
static void test_patches_bar_edge_on_both_walls(void **state) {
  (void)state;
  vxc_rng g = {0x2545f4914f6cdd1dULL};
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  for (int c = 0; c < 12; c++) {
    double s = pow(10, vxc_rng_uniform(&g, -3, 0)), a = s, d = s * vxc_rng_uniform(&g, 0.05, 0.3);
    double th = vxc_rng_uniform(&g, 0.2, 0.6) * (c % 2 ? 1 : -1) + M_PI / 4;
    vxc_mesh_buf cm = {0}, bm = {0}, om = {0};
    vxc_mb_u_channel(&cm, s, 10 * s);
    vxc_mb_box(&bm, 6 * s, a, -a, a);
    vxc_mb_box(&om, 2 * s, a, -a, a);
    vxc_solid *ch = vxc_mb_solid(&cm, "channel"), *bar = vxc_mb_solid(&bm, "bar");
    vxc_solid *one = vxc_mb_solid(&om, "bar over one wall");
    vxc_pose pc = channel_pose(&g, c), pb = vxc_pose_identity();
    /* the bar in the channel's frame: turned by th about x, its lowest edge d below y = 5 s */
    const double ql[4] = {cos(th / 2), sin(th / 2), 0, 0}, *qc = pc.q;
    double R9[9], off[3] = {0, 5 * s + a * (fabs(cos(th)) + fabs(sin(th))) - d, 0};
    pb.q[0] = qc[0] * ql[0] - qc[1] * ql[1];
    pb.q[1] = qc[0] * ql[1] + qc[1] * ql[0];
    pb.q[2] = qc[2] * ql[0] + qc[3] * ql[1];
    pb.q[3] = qc[3] * ql[0] - qc[2] * ql[1];
    vxc_test_quat_matrix(qc, R9);
    for (int i = 0; i < 3; i++) {
      pb.p[i] = R9[3 * i + 1] * off[1];
    }
    vxc_metrics m, m1;
    const vxc_pair_metrics *p = two_patches(q, ch, &pc, bar, &pb, &m);
    const double want = 2 * s * d * d / sin(2 * th), up[3] = {R9[1], R9[4], R9[7]};
    vxc_pose po = pb; /* the short bar centred over the wall at x = 4 s */
    for (int i = 0; i < 3; i++) {
      po.p[i] += R9[3 * i] * 4 * s;
    }
    assert_int_equal(vxc_query_run(q, ch, &pc, one, &po, NULL, NULL, NULL, &m1, NULL), VXC_OK);
    assert_int_equal(m1.npair, 1);
    assert_int_equal(m1.pair[0].npatch, 1);
    assert_double_rel(m1.pair[0].geom.volume, want, 1e-9);
    double worst = 0, tilt = vxc_test_angle(m1.pair[0].geom.normal, up);
    for (int i = 0; i < 2; i++) {
      assert_double_rel(p->patch[i].volume, want, 1e-9);
      worst = fmax(worst, vxc_test_angle(p->patch[i].normal, m1.pair[0].geom.normal));
    }
    fprintf(stderr, "# s %.3g, theta %.4f rad: two wedges of %.9g (closed form %.9g), normals %.2g rad "
            "off the one wedge's, which is %.3g rad off the wall top's\n", s, th, p->patch[0].volume,
            want, worst, tilt);
    assert_true(worst < 1e-9 && tilt < 10 * M_PI / 180);
    vxc_solid_free(one);
    vxc_solid_free(bar);
    vxc_solid_free(ch);
  }
  vxc_query_free(q);
}


/* The pair's figures are bit for bit those of the same query with patches merged, and its
 * one patch carries them. */
static void assert_one_patch_is_merged(const vxc_pair_metrics *p, const vxc_pair_metrics *m) {
  assert_int_equal(p->npatch, 1);
  assert_int_equal(m->npatch, 0);
  assert_memory_equal(&p->geom, &m->geom, sizeof p->geom);
  assert_true(p->volume_lo == m->volume_lo && p->volume_hi == m->volume_hi);
  assert_true(p->error_estimate == m->error_estimate && p->area == m->area);
  const vxc_patch *c = &p->patch[0];
  assert_true(c->volume == m->geom.volume && c->volume_lo == m->volume_lo &&
              c->volume_hi == m->volume_hi && c->error_estimate == m->error_estimate);
  assert_memory_equal(c->centroid, m->geom.centroid, sizeof c->centroid);
  assert_memory_equal(c->inertia, m->geom.inertia, sizeof c->inertia);
  assert_memory_equal(c->normal, m->geom.normal, sizeof c->normal);
  assert_true(c->area == m->area);
}


/* A seeded set of contacts whose interference is connected: a ball or a tilted box against
 * one wall of the U-channel (clear of its floor and other wall: one convex piece of it), a
 * ball under the channel's floor, a ball against a mesh box (two convex cells), and a box
 * peg against one wall of the holed block: each gives exactly one patch, the merged
 * result, bit for bit. */
static void test_patches_connected_is_one_patch(void **state) {
  (void)state;
  const double s = 0.01, h = 0.05;
  vxc_mesh_buf cm = {0}, bm = {0}, hm = {0}, pm = {0};
  vxc_mb_u_channel(&cm, s, h);
  vxc_mb_box(&bm, 0.004, 0.006, -0.005, 0.005);
  vxc_mb_holed_block(&hm, 0.03, 0.01, -0.04, 0);
  vxc_mb_box(&pm, 0.005, 0.005, -0.02, 0.03);
  vxc_solid *ch = vxc_mb_solid(&cm, "channel"), *box = vxc_mb_solid(&bm, "box");
  vxc_solid *block = vxc_mb_solid(&hm, "block"), *peg = vxc_mb_solid(&pm, "peg");
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_rng rng = {0x5eed1234abcdULL};
  int cases = 0;
  for (int it = 0; it < 24; it++) {
    int kind = it % 4;
    double r = vxc_rng_uniform(&rng, 0.003, 0.008), d = vxc_rng_uniform(&rng, 1e-4, 2e-3);
    vxc_solid *ball = ball_of(r);
    const vxc_solid *a = ball, *b = ch;
    vxc_pose pa = vxc_pose_identity();
    double side = vxc_rng_uniform(&rng, -1, 1) < 0 ? -1 : 1;
    if (kind == 0) { /* a ball into the inner face of a wall, above the floor */
      pa.p[0] = side * (3 * s - r + d);
      pa.p[1] = vxc_rng_uniform(&rng, s + r + 1e-3, 5 * s);
      pa.p[2] = vxc_rng_uniform(&rng, -0.5 * h, 0.5 * h);
    } else if (kind == 1) { /* a tilted box into a wall's inner face */
      a = box;
      double ang = vxc_rng_uniform(&rng, -0.3, 0.3), ax[3] = {vxc_rng_uniform(&rng, -1, 1),
                                                              vxc_rng_uniform(&rng, -1, 1), 1};
      double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
      pa.q[0] = cos(ang / 2);
      for (int k = 0; k < 3; k++) {
        pa.q[1 + k] = sin(ang / 2) * ax[k] / n;
      }
      /* the box's reach along x, sum_k |R_xk| e_k, from its centre: d of it in the wall */
      const double *w = pa.q, e[3] = {0.004, 0.006, 0.005};
      const double rx[3] = {1 - 2 * (w[2] * w[2] + w[3] * w[3]), 2 * (w[1] * w[2] - w[0] * w[3]),
                            2 * (w[1] * w[3] + w[0] * w[2])};
      pa.p[0] = side * (3 * s - fabs(rx[0]) * e[0] - fabs(rx[1]) * e[1] - fabs(rx[2]) * e[2] + d);
      pa.p[1] = vxc_rng_uniform(&rng, 2.5 * s, 4 * s);
      pa.p[2] = vxc_rng_uniform(&rng, -0.5 * h, 0.5 * h);
    } else if (kind == 2) { /* a ball into the floor's underside */
      pa.p[0] = vxc_rng_uniform(&rng, -4 * s, 4 * s);
      pa.p[1] = -r + d;
      pa.p[2] = vxc_rng_uniform(&rng, -0.5 * h, 0.5 * h);
    } else { /* the peg against one wall of the holed block's hole */
      a = peg;
      b = block;
      pa.p[0] = side * (0.005 + d);
      pa.p[1] = vxc_rng_uniform(&rng, -0.004, 0.004);
    }
    vxc_query_options o;
    vxc_query_options_default(&o);
    o.rtol = it % 3 == 0 ? 1e-2 : 1e-4;
    vxc_metrics m1, m0;
    vxc_query *q0 = NULL;
    assert_int_equal(vxc_query_create(NULL, &q0, NULL), VXC_OK);
    vxc_status st = vxc_query_run(q, a, &pa, b, NULL, &o, NULL, NULL, &m1, NULL);
    o.patches = 0;
    assert_int_equal(vxc_query_run(q0, a, &pa, b, NULL, &o, NULL, NULL, &m0, NULL), st);
    assert_int_equal(st, VXC_OK);
    assert_int_equal(m1.npair, m0.npair);
    for (int i = 0; i < m1.npair; i++) {
      assert_one_patch_is_merged(&m1.pair[i], &m0.pair[i]);
    }
    cases++;
    vxc_query_free(q0);
    vxc_solid_free(ball);
  }
  fprintf(stderr, "# %d connected contacts: one patch each, the merged result\n", cases);
  vxc_query_free(q);
  vxc_solid_free(ch);
  vxc_solid_free(box);
  vxc_solid_free(block);
  vxc_solid_free(peg);
}


/* A ball of radius r, h into the top face of a mesh cube: one patch, the cap
 * pi h^2 (3 r - h) / 3, normal -z from the ball toward the cube. */
static void test_patches_ball_on_cube_face(void **state) {
  (void)state;
  const double r = 0.02, h = 0.002;
  vxc_mesh_buf cm = {0};
  vxc_mb_box(&cm, 0.05, 0.05, -0.1, 0);
  vxc_solid *cube = vxc_mb_solid(&cm, "cube"), *ball = ball_of(r);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o = patch_options();
  o.rtol = 1e-4;
  vxc_pose pb = vxc_pose_identity();
  pb.p[2] = r - h;
  const vxc_pair_metrics *p = one_pair(q, ball, &pb, cube, &o);
  assert_int_equal(p->npatch, 1);
  assert_patch_sums(p);
  double cap = M_PI * h * h * (3 * r - h) / 3;
  assert_double_rel(p->patch[0].volume, cap, 1e-3);
  assert_double_near(p->patch[0].normal[2], -1, 1e-6);
  /* the only patch is the pair */
  assert_double_rel(p->patch[0].volume, p->geom.volume, 1e-12);
  for (int k = 0; k < 3; k++) {
    assert_double_near(p->patch[0].centroid[k], p->geom.centroid[k], 1e-12);
  }
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(cube);
}


/* A ball of radius r resting d deep on both walls of a mesh V-groove: two patches, each the
 * cap pi d^2 (3 r - d) / 3 of a wall, normals from the ball toward the walls
 * (+-1, 0, -1) / sqrt 2. The ball's centre is at z = sqrt 2 (r - d) - g above the groove's
 * bottom line (its distance to each wall is r - d). */
static void test_patches_ball_in_v_groove(void **state) {
  (void)state;
  const double r = 0.01, d = 5e-4, g = 0.02;
  vxc_mesh_buf gm = {0};
  vxc_mb_v_groove(&gm, 0.05, 0.03, 0.05, g);
  vxc_solid *groove = vxc_mb_solid(&gm, "groove"), *ball = ball_of(r);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o = patch_options();
  vxc_pose pb = vxc_pose_identity();
  pb.p[2] = sqrt(2) * (r - d) - g;
  const vxc_pair_metrics *p = one_pair(q, ball, &pb, groove, &o);
  assert_int_equal(p->npatch, 2);
  assert_patch_sums(p);
  double cap = M_PI * d * d * (3 * r - d) / 3;
  for (int i = 0; i < 2; i++) {
    const vxc_patch *c = &p->patch[i];
    double side = c->centroid[0] > 0 ? 1 : -1;
    assert_double_rel(c->volume, cap, 1e-3);
    assert_double_near(c->normal[0], side * sqrt(0.5), 1e-3);
    assert_double_near(c->normal[1], 0, 1e-3);
    assert_double_near(c->normal[2], -sqrt(0.5), 1e-3);
  }
  assert_true(p->patch[0].centroid[0] * p->patch[1].centroid[0] < 0);
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(groove);
}


/* A pair of solids with patches on, the default contact parameters and 8 slots. */
static vxc_pair *patch_pair(const vxc_solid *a, const vxc_solid *b, vxc_params *p) {
  vxc_params_default(p);
  vxc_error err;
  assert_int_equal(vxc_params_prepare(p, &err), VXC_OK);
  vxc_query_options o = patch_options();
  vxc_pair *pr = NULL;
  assert_int_equal(vxc_pair_create(a, b, p, &o, 8, NULL, &pr, &err), VXC_OK);
  return pr;
}


/* One step of pr with A at pose pa moving at va (m/s, no rotation) and B fixed at the origin;
 * returns the summed wrench. */
static vxc_pair_wrench pair_at(vxc_pair *pr, const vxc_pose *pa, const double va[3], double dt) {
  vxc_pose pb = vxc_pose_identity();
  vxc_body_motion ma = {.r = {0}}, mb = {.r = {0}};
  memcpy(ma.r, pa->p, sizeof ma.r);
  memcpy(ma.v, va, sizeof ma.v);
  vxc_pair_wrench w;
  vxc_error err;
  vxc_status st = vxc_pair_step(pr, pa, &ma, &pb, &mb, dt, &w, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  return w;
}


/* The square peg of test_patches_square_peg_two_walls at rest as a vxc_pair with patches:
 * two contacts, each with the normal force k_v d 2a D of its box (at rest the damping term
 * a v_cn is zero), along its own normal: the two forces are equal and opposite, so the net
 * force across is zero (one contact for the pair would put a single force at the centroid
 * between the walls). */
static void test_patch_forces_square_peg(void **state) {
  (void)state;
  const double W = 0.03, w = 0.01, d = 0.001, a = 0.005, D = 0.02;
  vxc_mesh_buf pm = {0}, bm = {0};
  vxc_mb_box(&pm, w + d, a, -D, 0.03);
  vxc_mb_holed_block(&bm, W, w, -0.04, 0);
  vxc_solid *peg = vxc_mb_solid(&pm, "peg"), *block = vxc_mb_solid(&bm, "block");
  vxc_params p;
  vxc_pair *pr = patch_pair(peg, block, &p);
  vxc_pose pa = vxc_pose_identity();
  vxc_pair_wrench sum = pair_at(pr, &pa, (const double[3]){0, 0, 0}, 0);
  assert_int_equal(vxc_pair_contact_count(pr), 2);
  assert_int_equal(sum.npairs, 2);
  double want = p.k_v * d * 2 * a * D, fx[2];
  for (int i = 0; i < 2; i++) {
    vxc_pair_contact c;
    assert_int_equal(vxc_pair_contact_get(pr, i, &c, NULL), VXC_OK);
    assert_int_equal(c.patch, i);
    fprintf(stderr, "# wall %d: f_n %.6g N (k_v V %.6g N), force on the peg (%.4g, %.3g, %.4g)\n",
            i, c.wrench.f_n, want, c.wrench.force_a[0], c.wrench.force_a[1], c.wrench.force_a[2]);
    assert_double_rel(c.wrench.f_n, want, 1e-3);
    /* the force on the peg is -f_n n: away from the wall it presses */
    double side = c.geom.centroid[0] > 0 ? 1 : -1;
    assert_true(side * c.wrench.force_a[0] < 0);
    fx[i] = c.wrench.force_a[0];
  }
  assert_true(fx[0] * fx[1] < 0);
  fprintf(stderr, "# net force across %.3g N of %.6g N per wall\n", sum.force_a[0], want);
  assert_double_near(sum.force_a[0], 0, 2e-3 * want);
  assert_int_equal(vxc_pair_contact_get(pr, 2, &(vxc_pair_contact){0}, NULL), VXC_ERR_ARG);
  vxc_pair_free(pr);
  vxc_solid_free(peg);
  vxc_solid_free(block);
}


/* A ball of radius r between the two prongs of a slotted block (one quadric cell, box minus
 * the slab |x| < w, so not convex), h = r - w into each: as a vxc_pair under the rtol rule,
 * step after step (the tracker's leaf hint, a fixed leaf with retries, from the second
 * step), two contacts, each the cap pi h^2 (3 r - h) / 3 with the normal +-x. */
static void test_patches_ball_in_slot_steps(void **state) {
  (void)state;
  const double r = 0.0105, w = 0.01, h = r - w;
  const char *text = "(solid slot (cell c (box 0.1 0.1 0.05) (not (slab x -0.01 0.01))))";
  vxc_solid *slot = NULL, *ball = ball_of(r);
  assert_int_equal(vxc_solid_parse(text, strlen(text), "slot", NULL, &slot, NULL), VXC_OK);
  vxc_params p;
  vxc_pair *pr = patch_pair(ball, slot, &p);
  vxc_pose pa = vxc_pose_identity();
  double cap = M_PI * h * h * (3 * r - h) / 3;
  for (int k = 0; k < 6; k++) {
    pa.p[2] = 1e-4 * k; /* moving up, so that each step queries anew */
    pair_at(pr, &pa, (const double[3]){0, 0, 0.1}, 1e-3);
    assert_int_equal(vxc_pair_contact_count(pr), 2);
    for (int i = 0; i < 2; i++) {
      vxc_pair_contact c;
      assert_int_equal(vxc_pair_contact_get(pr, i, &c, NULL), VXC_OK);
      double side = c.geom.centroid[0] > 0 ? 1 : -1;
      assert_double_rel(c.geom.volume, cap, 2e-3);
      assert_double_near(c.geom.normal[0], side, 1e-6);
    }
  }
  vxc_pair_free(pr);
  vxc_solid_free(ball);
  vxc_solid_free(slot);
}


/* The peg of test_patch_forces_square_peg sliding up at 1 mm/s for 10 steps of 1 ms: each
 * wall's patch keeps its slot from step to step (nearest centroid), and its bristle
 * deflection, starting from zero, follows the slip of the peg over the wall (+z). */
static void test_patch_states_follow_sliding_peg(void **state) {
  (void)state;
  const double W = 0.03, w = 0.01, d = 0.001, a = 0.005, D = 0.02, v = 1e-3, dt = 1e-3;
  vxc_mesh_buf pm = {0}, bm = {0};
  vxc_mb_box(&pm, w + d, a, -D, 0.03);
  vxc_mb_holed_block(&bm, W, w, -0.04, 0);
  vxc_solid *peg = vxc_mb_solid(&pm, "peg"), *block = vxc_mb_solid(&bm, "block");
  vxc_params p;
  vxc_pair *pr = patch_pair(peg, block, &p);
  vxc_pose pa = vxc_pose_identity();
  int slot_of_side[2] = {-1, -1};
  for (int k = 0; k < 10; k++) {
    pa.p[2] = v * dt * k;
    vxc_pair_wrench sum = pair_at(pr, &pa, (const double[3]){0, 0, v}, dt);
    assert_int_equal(sum.started, k == 0 ? 2 : 0);
    assert_int_equal(sum.lost, 0);
    assert_int_equal(vxc_pair_contact_count(pr), 2);
    for (int i = 0; i < 2; i++) {
      vxc_pair_contact c;
      assert_int_equal(vxc_pair_contact_get(pr, i, &c, NULL), VXC_OK);
      int side = c.geom.centroid[0] > 0;
      if (k == 0) {
        slot_of_side[side] = c.slot;
      }
      assert_int_equal(c.slot, slot_of_side[side]);
    }
  }
  assert_true(slot_of_side[0] != slot_of_side[1]);
  for (int s = 0; s < 2; s++) {
    const double *st = vxc_pair_state(pr, slot_of_side[s]);
    fprintf(stderr, "# wall %d: bristle z (%.3g, %.3g, %.3g) m\n", s, st[0], st[1], st[2]);
    /* in the patch's plane: its normal leans from +-x toward z by up to atan(d / D) */
    assert_true(st[2] > 0);
    assert_true(fabs(st[0]) <= 1.05 * d / D * st[2]);
  }
  vxc_pair_free(pr);
  vxc_solid_free(peg);
  vxc_solid_free(block);
}


/* A ball of mass M resting in the mesh V-groove of half-angle a = 45 degrees under gravity:
 * statics give each wall the normal force M g / (2 cos a). The ball's height is found where
 * the contact force on it balances its weight (bisection, at rest); there each wall's
 * patch carries that force, along its own normal, and its volume is the cap f_n / k_v. */
static void test_patch_forces_ball_in_v_groove(void **state) {
  (void)state;
  const double r = 0.01, g = 0.02, M = 10, grav = 9.81, half = M_PI / 4;
  vxc_mesh_buf gm = {0};
  vxc_mb_v_groove(&gm, 0.05, 0.03, 0.05, g);
  vxc_solid *groove = vxc_mb_solid(&gm, "groove"), *ball = ball_of(r);
  vxc_params p;
  vxc_pair *pr = patch_pair(ball, groove, &p);
  vxc_pose pa = vxc_pose_identity();
  double hi = sqrt(2) * r - g, lo = sqrt(2) * (r - 1e-3) - g; /* touching; 1 mm deep */
  for (int it = 0; it < 40; it++) {
    pa.p[2] = 0.5 * (lo + hi);
    vxc_pair_wrench sum = pair_at(pr, &pa, (const double[3]){0, 0, 0}, 0);
    if (sum.force_a[2] > M * grav) {
      lo = pa.p[2];
    } else {
      hi = pa.p[2];
    }
  }
  pa.p[2] = 0.5 * (lo + hi);
  vxc_pair_wrench sum = pair_at(pr, &pa, (const double[3]){0, 0, 0}, 0);
  assert_int_equal(vxc_pair_contact_count(pr), 2);
  double want = M * grav / (2 * cos(half));
  for (int i = 0; i < 2; i++) {
    vxc_pair_contact c;
    assert_int_equal(vxc_pair_contact_get(pr, i, &c, NULL), VXC_OK);
    /* the cap of depth dd = r - (distance of the centre to the wall) */
    double side = c.geom.centroid[0] > 0 ? 1 : -1;
    double dist = fabs(side * 0 + pa.p[2] + g) * sin(half); /* centre on the axis x = 0 */
    double dd = r - dist, cap = M_PI * dd * dd * (3 * r - dd) / 3;
    fprintf(stderr, "# wall %+.0f: f_n %.6g N (statics %.6g N), V %.6g (cap %.6g) m^3\n", side,
            c.wrench.f_n, want, c.geom.volume, cap);
    assert_double_rel(c.wrench.f_n, want, 2e-3);
    assert_double_rel(c.geom.volume, cap, 2e-3);
    assert_double_near(c.geom.normal[0], side * sin(half), 1e-3);
  }
  /* the walls' pushes across cancel */
  assert_double_near(sum.force_a[0], 0, 2e-3 * want);
  vxc_pair_free(pr);
  vxc_solid_free(ball);
  vxc_solid_free(groove);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_patches_square_peg_two_walls),
      cmocka_unit_test(test_patches_box_in_u_channel),
    cmocka_unit_test(test_patches_one_leaf_two_parts),
      cmocka_unit_test(test_patches_ball_on_both_walls),
      cmocka_unit_test(test_patches_bar_edge_on_both_walls),
      cmocka_unit_test(test_patches_connected_is_one_patch),
      cmocka_unit_test(test_patches_ball_on_cube_face),
      cmocka_unit_test(test_patches_ball_in_v_groove),
      cmocka_unit_test(test_patch_forces_square_peg),
      cmocka_unit_test(test_patches_ball_in_slot_steps),
      cmocka_unit_test(test_patch_states_follow_sliding_peg),
      cmocka_unit_test(test_patch_forces_ball_in_v_groove),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
