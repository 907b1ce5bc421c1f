/* test_voxel_radical.c: boxes between two curved surfaces of nearly equal curvature proved
 * empty by their quadrics' combination (voxel/radical.c), at seeded random orientations and
 * scales:
 *  - soundness: a rod (a cylinder a little thinner than the bore, tilted by up to a degree)
 *    or a ball in a bore, pressed into its wall or just clear of it; boxes of many sizes
 *    about the bore's surface: no box the classification puts OUTSIDE holds a sampled point
 *    of both cells, and the combination decides at least a fifth of the boxes the atoms'
 *    own bounds leave MIXED;
 *  - a peg pressed against one side of its hole, against the hole's far quadrant (apart by
 *    twice the clearance, a fortieth of the root cube), its shaft or its chamfered tip (a
 *    frustum whose rim has the shaft's radius, 0.15 of the scale thick, along the world's
 *    axes: the combination's bound is taken over the region's box): no contact, decided in
 *    the root grid (depth 0), leaves of a fortieth and a hundredth of the bore's radius. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "voxel/internal.h"
#include "tests/voxel_exact.h"

/* The bore of scale s (radius 2 s) in a block 6 s x 6 s x 4 s about its frame; `quadrant`:
 * only the block's quarter x < 0, y < 0. */
static vxg_cell *bore_cell(fixture *f, const char *name, double s, int quadrant) {
  vxg_xform mq;
  vxg_xform_translation(&mq, -1.5 * s, -1.5 * s, 0);
  vx_prim_spec pb[2] = {{VXG_BOX, {quadrant ? 3 * s : 6 * s, quadrant ? 3 * s : 6 * s, 4 * s}, 3, 0,
                         quadrant ? &mq : NULL},
                        {VXG_CYLINDER, {2 * s}, 1, 1, NULL}};
  vxg_cell *c = vx_cell(f->s, name, pb, 2);
  assert_non_null(c);
  return c;
}


/* A rod of radius r (cut to |z| <= 3 s) or a ball of radius r, its frame tilted by `tilt`
 * (radians) about y and moved by `off` along x. */
static vxg_cell *rod_cell(fixture *f, const char *name, double s, double r, int ball, double tilt,
                          double off) {
  vxg_xform m, t;
  const double y[3] = {0, 1, 0};
  vxg_xform_identity(&m);
  assert_int_equal(vxg_xform_axis_angle(&m, y, tilt), 0);
  vxg_xform_translation(&t, off, 0, 0);
  vxg_xform_compose(&m, &t, &m);
  vx_prim_spec pr[2] = {{ball ? VXG_SPHERE : VXG_CYLINDER, {r}, 1, 0, &m},
                        {VXG_SLAB, {2, -3 * s, 3 * s}, 3, 0, &m}};
  vxg_cell *c = vx_cell(f->s, name, pr, ball ? 1 : 2);
  assert_non_null(c);
  return c;
}


/* A peg's tip of scale s: the 45-degree cone's frustum from radius r - 0.15 s up to r, cut
 * to 0 <= z <= 0.15 s, its frame tilted by `tilt` about y and moved by `off` along x. */
static vxg_cell *tip_cell(fixture *f, const char *name, double s, double r, double tilt,
                          double off) {
  vxg_xform m, t, apex;
  const double y[3] = {0, 1, 0};
  vxg_xform_identity(&m);
  assert_int_equal(vxg_xform_axis_angle(&m, y, tilt), 0);
  vxg_xform_translation(&t, off, 0, 0);
  vxg_xform_compose(&m, &t, &m);
  vxg_xform_translation(&apex, 0, 0, -(r - 0.15 * s));
  vxg_xform_compose(&apex, &m, &apex);
  vx_prim_spec pt[2] = {{VXG_CONE, {M_PI / 4}, 1, 0, &apex},
                        {VXG_SLAB, {2, 0, 0.15 * s}, 3, 0, &m}};
  vxg_cell *c = vx_cell(f->s, name, pt, 2);
  assert_non_null(c);
  return c;
}


/* The query of cells a and b, both posed by w (vxv_query as octree.c sets it up). */
static void query_init(vxv_query *q, vxg_posed_cell pc[2], const vxg_cell *a, const vxg_cell *b,
                       const vxg_xform *w) {
  memset(q, 0, sizeof *q);
  q->ncell = 2;
  vxg_posed_cell_init(&pc[0], a, w);
  vxg_posed_cell_init(&pc[1], b, w);
  vxv_qcell_init(&q->cell[0], &pc[0]);
  vxv_qcell_init(&q->cell[1], &pc[1]);
  vxv_flush_init(q);
  double lo[3], hi[3];
  const double ref[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    lo[k] = fmax(pc[0].aabb[k], pc[1].aabb[k]);
    hi[k] = fmin(pc[0].aabb[3 + k], pc[1].aabb[3 + k]);
  }
  vxv_radical_init(q, lo, hi, ref);
}


/* 1 when a point of the box (c, half-edge h) on a 7^3 grid or among 64 random ones lies in
 * both posed cells. */
static int box_meets_both(vxc_rng *g, const vxg_posed_cell pc[2], const double c[3], double h) {
  for (int i = 0; i < 343 + 64; i++) {
    double p[3];
    for (int k = 0; k < 3; k++) {
      int d = i < 343 ? (i / (k == 0 ? 1 : k == 1 ? 7 : 49)) % 7 : -1;
      p[k] = c[k] + h * (d >= 0 ? (d - 3) / 3.0 : vxc_rng_uniform(g, -1, 1));
    }
    if (vxg_posed_cell_contains(&pc[0], p) && vxg_posed_cell_contains(&pc[1], p)) {
      return 1;
    }
  }
  return 0;
}


// rods and balls in bores, pressed in or clear: no box classified OUTSIDE holds a point of
// both cells; the combination decides many boxes the atoms' bounds leave MIXED
static void test_radical_sound(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x510e527fade682d1ULL};
  for (int it = 0; it < 16; it++) {
    double s = it % 2 ? 0.01 : 1, R = 2 * s;
    int ball = it % 4 == 3;
    double r = R * vxc_rng_uniform(&g, ball ? 0.5 : 0.95, ball ? 0.9 : 0.999);
    double tilt = ball ? 0 : vxc_rng_uniform(&g, -M_PI / 180, M_PI / 180);
    /* pressed into the wall at +x by up to 1e-3 R, or clear of it by up to 1e-3 R */
    double off = R - r + vxc_rng_uniform(&g, -1e-3, 1e-3) * R;
    char na[32], nb[32];
    snprintf(na, sizeof na, "rod%d", it);
    snprintf(nb, sizeof nb, "bore%d", it);
    vxg_cell *rod = rod_cell(f, na, s, r, ball, tilt, off), *bore = bore_cell(f, nb, s, 0);
    vxg_xform w;
    vx_random_pose(&g, it % 3 == 0, 10 * s, &w);
    vxv_query q;
    vxg_posed_cell pc[2];
    query_init(&q, pc, it % 2 ? rod : bore, it % 2 ? bore : rod, &w);
    assert_int_equal(q.nrad, 1); /* the rod's (ball's) surface and the bore's */
    vxv_query q0 = q;
    q0.nrad = 0;
    int mixed0 = 0, decided = 0;
    for (int k = 0; k < 400; k++) {
      double phi = vxc_rng_uniform(&g, -M_PI, M_PI), rho = R * vxc_rng_uniform(&g, 0.9, 1.05);
      double z = ball ? vxc_rng_uniform(&g, -r, r) : vxc_rng_uniform(&g, -2 * s, 2 * s);
      double pl[3] = {rho * cos(phi), rho * sin(phi), z}, c[3];
      vxg_xform_point(&w, pl, c);
      double h = R * exp(vxc_rng_uniform(&g, log(1.0 / 400), log(1.0 / 8)));
      vxv_box b, b0;
      vxv_box_root(&q, &b, c, h);
      b0 = b;
      vxg_class cls = vxv_box_classify(&q, &b, NULL), cls0 = vxv_box_classify(&q0, &b0, NULL);
      if (cls == VXG_OUTSIDE) {
        assert_false(box_meets_both(&g, pc, c, h));
      }
      mixed0 += cls0 == VXG_MIXED;
      decided += cls0 == VXG_MIXED && cls == VXG_OUTSIDE;
    }
    fprintf(stderr, "# %s %.4g in bore %.4g (tilt %.2g): %d of %d MIXED boxes decided\n",
            ball ? "ball" : "rod", r / s, R / s, tilt, decided, mixed0);
    assert_true(mixed0 > 0 && decided >= mixed0 / 5);
  }
}


// a peg's shaft or tip pressed against the +x side of its hole, against the hole's quadrant
// x, y < 0: apart, decided in the root grid
static void test_radical_far_quadrant(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x9b05688c2b3e6c1fULL};
  for (int it = 0; it < 8; it++) {
    double s = it % 4 < 2 ? 1 : 0.01, R = 2 * s, r = 0.975 * R;
    char na[32], nb[32];
    snprintf(na, sizeof na, "peg%d", it);
    snprintf(nb, sizeof nb, "quadrant%d", it);
    /* the shaft, or (every other one) its tip, a frustum 0.15 s thick whose rim has the
       shaft's radius: a sliver of the root cube, whose bounds over the region's box decide */
    vxg_cell *peg = it % 2 ? tip_cell(f, na, s, r, 0.5 * M_PI / 180, R - r)
                           : rod_cell(f, na, s, r, 0, 0.5 * M_PI / 180, R - r);
    vxg_cell *quad = bore_cell(f, nb, s, 1);
    /* the tip along the world's axes (the region's box, the cells' world boxes' common part,
       is then as thin as the tip), the shaft at any orientation */
    vxg_xform w;
    vx_random_pose(&g, it % 2 || it % 3 == 0, 10 * s, &w);
    vxv_options o;
    vxv_options_default(&o);
    o.closed_form = 0;
    o.rtol = 0; /* the fixed-leaf rule (the rtol rules do not take the combination) */
    o.h_min = it < 4 ? R / 40 : R / 100;
    vxv_result res;
    vxc_status st = vxv_intersect(f->ws, peg, &w, quad, &w, &o, &res);
    fprintf(stderr, "# %s %.4g against the far quadrant of bore %.4g: status %d, %lld boxes, depth %d\n",
            it % 2 ? "tip" : "peg", r / s, R / s, (int)st, res.boxes, res.depth);
    assert_int_equal(st, VXC_NO_CONTACT);
    assert_int_equal(res.depth, 0);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_radical_sound, setup, teardown),
      cmocka_unit_test_setup_teardown(test_radical_far_quadrant, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
