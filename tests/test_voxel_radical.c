/* test_voxel_radical.c: boxes proved empty over the region's box (voxel/radical.c), at seeded
 * random orientations and scales:
 *  - the region's box: a ball sunk into a table, a box's edge or corner into a table, a ball
 *    pressed into a bore's wall, placed along the world's axes or turned; boxes of many sizes
 *    about the contact: no box the classification puts OUTSIDE holds a sampled point of both
 *    cells, and about a ball's cap on a table along the axes the cut decides at least a third
 *    of the boxes the atoms leave MIXED; a ball 15 mm in radius 6 um deep in a table under a 0.1 mm leaf gives the cap's
 *    volume inside its bracket within 2e-3, in fewer than 450 boxes (609 without the cut);
 *  - boxes beyond the region's box, dropped before any atom: none holds a sampled point of
 *    both cells, and the atoms alone put none INSIDE both;
 *  - leaves integrated in a row (their clips re-clipped from the last leaf's records) give
 *    bit for bit what each gives with the records dropped; about rods and balls in bores, a
 *    leaf is dropped or kept alike, bit for bit, with its first test (pair_apart) or without;
 * and boxes between two curved surfaces of nearly equal curvature proved empty by their
 * quadrics' combination:
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
  vxv_region_init(q, lo, hi, ref);
  vxv_radical_init(q);
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


/* The box about c of half-edge h classified by q and by q0 (q less one rule): fails when q
 * puts it OUTSIDE and a sampled point of it lies in both cells; counts the boxes q0 leaves
 * MIXED into *mixed0, those of them q decides into *decided. */
static void classify_both(vxc_rng *g, const vxv_query *q, const vxv_query *q0,
                          const vxg_posed_cell pc[2], const double c[3], double h, int *mixed0,
                          int *decided) {
  vxv_box b, b0;
  vxv_box_root(q, &b, c, h);
  b0 = b;
  vxg_class cls = vxv_box_classify(q, &b, NULL), cls0 = vxv_box_classify(q0, &b0, NULL);
  if (cls == VXG_OUTSIDE) {
    assert_false(box_meets_both(g, pc, c, h));
  }
  *mixed0 += cls0 == VXG_MIXED;
  *decided += cls0 == VXG_MIXED && cls == VXG_OUTSIDE;
}


/* A point about the surface of a bore of radius R (its distance to the axis R times a
 * uniform in [rlo, rhi]; along the axis within a ball's radius r, or within 2 s), posed by w,
 * into c. */
static void bore_point(vxc_rng *g, const vxg_xform *w, double R, double r, double s, int ball,
                       double rlo, double rhi, double c[3]) {
  double phi = vxc_rng_uniform(g, -M_PI, M_PI), rho = R * vxc_rng_uniform(g, rlo, rhi);
  double z = ball ? vxc_rng_uniform(g, -r, r) : vxc_rng_uniform(g, -2 * s, 2 * s);
  double pl[3] = {rho * cos(phi), rho * sin(phi), z};
  vxg_xform_point(w, pl, c);
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
      double c[3];
      bore_point(&g, &w, R, r, s, ball, 0.9, 1.05, c);
      double h = R * exp(vxc_rng_uniform(&g, log(1.0 / 400), log(1.0 / 8)));
      classify_both(&g, &q, &q0, pc, c, h, &mixed0, &decided);
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


/* Case `kind` of the region's box test, scale s: 0 a ball of radius s sunk d into a table
 * whose top is z = 0, 1 a cube of half-edge s on one of its edges (turned 45 degrees about x)
 * sunk d, 2 a ball of radius 1.6 s pressed d into the wall of a bore of radius 2 s at +x.
 * Cells into *a, *b, and the contact's centre and extent (its half-widths along x, y, z). */
static void region_case(fixture *f, int it, int kind, double s, double d, vxg_cell **a,
                        vxg_cell **b, double c[3], double ext[3]) {
  char na[32], nb[32];
  snprintf(na, sizeof na, "rb%d", it);
  snprintf(nb, sizeof nb, "rt%d", it);
  vxg_xform m, t;
  const double xa[3] = {1, 0, 0};
  vx_prim_spec table = {VXG_BOX, {20 * s, 20 * s, 2 * s}, 3, 0, &t};
  vxg_xform_translation(&t, 0.1 * s, -0.2 * s, -s);
  if (kind == 0) {
    vxg_xform_translation(&m, 0.3 * s, 0.2 * s, s - d);
    vx_prim_spec ball = {VXG_SPHERE, {s}, 1, 0, &m};
    *a = vx_cell(f->s, na, &ball, 1);
    *b = vx_cell(f->s, nb, &table, 1);
    double r = sqrt(2 * s * d);
    double cc[3] = {0.3 * s, 0.2 * s, -0.5 * d}, ee[3] = {r, r, 0.5 * d};
    memcpy(c, cc, sizeof cc);
    memcpy(ext, ee, sizeof ee);
  } else if (kind == 1) {
    vxg_xform_identity(&m);
    assert_int_equal(vxg_xform_axis_angle(&m, xa, M_PI / 4), 0);
    vxg_xform_translation(&t, 0.3 * s, 0.2 * s, sqrt(2.0) * s - d);
    vxg_xform_compose(&m, &t, &m);
    vx_prim_spec cube = {VXG_BOX, {2 * s, 2 * s, 2 * s}, 3, 0, &m};
    vxg_xform_translation(&t, 0.1 * s, -0.2 * s, -s);
    *a = vx_cell(f->s, na, &cube, 1);
    *b = vx_cell(f->s, nb, &table, 1);
    double cc[3] = {0.3 * s, 0.2 * s, -0.5 * d}, ee[3] = {s, d, 0.5 * d};
    memcpy(c, cc, sizeof cc);
    memcpy(ext, ee, sizeof ee);
  } else {
    double R = 2 * s, r = 0.8 * R;
    vxg_xform_translation(&m, R - r + d, 0, 0);
    vx_prim_spec ball = {VXG_SPHERE, {r}, 1, 0, &m};
    *a = vx_cell(f->s, na, &ball, 1);
    *b = bore_cell(f, nb, s, 0);
    double w = sqrt(2 * d * r * R / (R - r));
    double cc[3] = {R, 0, 0}, ee[3] = {0.5 * d, w, w};
    memcpy(c, cc, sizeof cc);
    memcpy(ext, ee, sizeof ee);
  }
  assert_non_null(*a);
  assert_non_null(*b);
}


/* Case `it` of the region's cases (kind it % 3, scale 1 or 0.01, depth at random) posed at a
 * random pose w (along the axes when `aligned`), cells named from name0 + it, into q and pc;
 * the contact's centre and extent (region_case's) into cl, ext. */
static void region_query(fixture *f, vxc_rng *g, int it, int name0, int aligned, vxv_query *q,
                         vxg_posed_cell pc[2], vxg_xform *w, double cl[3], double ext[3]) {
  int kind = it % 3;
  double s = it % 4 < 2 ? 1 : 0.01, d = s * exp(vxc_rng_uniform(g, log(1e-4), log(1e-2)));
  vxg_cell *a, *b;
  region_case(f, name0 + it, kind, s, d, &a, &b, cl, ext);
  vx_random_pose(g, aligned, 10 * s, w);
  query_init(q, pc, a, b, w);
}


/* A box of half-edge h about a random point within ext + h of the contact's centre cl (case
 * frame, posed by w: its centre c, query frame) classified by q into *bx: 1 when MIXED. */
static int mixed_box_near(vxc_rng *g, const vxv_query *q, const vxg_xform *w, const double cl[3],
                          const double ext[3], double h, double c[3], vxv_box *bx) {
  double p[3];
  for (int j = 0; j < 3; j++) {
    p[j] = cl[j] + vxc_rng_uniform(g, -1, 1) * (ext[j] + h);
  }
  vxg_xform_point(w, p, c);
  vxv_box_root(q, bx, c, h);
  return vxv_box_classify(q, bx, NULL) == VXG_MIXED;
}


// balls and a cube's edge sunk into a table, a ball pressed into a bore's wall: no box the
// cut to the region's box puts OUTSIDE holds a point of both cells; about a ball's cap on a
// table along the world's axes the cut decides a third of the boxes the atoms leave MIXED
static void test_region_cut_sound(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x1f83d9abfb41bd6bULL};
  for (int it = 0; it < 24; it++) {
    int kind = it % 3, aligned = it % 2 == 0;
    double s = it % 4 < 2 ? 1 : 0.01, d = s * exp(vxc_rng_uniform(&g, log(1e-4), log(1e-2)));
    vxg_cell *a, *b;
    double cl[3], ext[3], c[3];
    region_case(f, it, kind, s, d, &a, &b, cl, ext);
    vxg_xform w;
    vx_random_pose(&g, aligned, 10 * s, &w);
    vxv_query q, q0;
    vxg_posed_cell pc[2];
    query_init(&q, pc, it % 2 ? a : b, it % 2 ? b : a, &w);
    assert_int_equal(q.region_cut, 1);
    q.nrad = 0; /* the cut alone */
    q0 = q;
    q0.region_cut = 0;
    double emax = fmax(ext[0], fmax(ext[1], ext[2]));
    int mixed0 = 0, decided = 0;
    for (int k = 0; k < 400; k++) {
      double h = emax * exp(vxc_rng_uniform(&g, log(1.0 / 64), log(4.0))), p[3];
      for (int j = 0; j < 3; j++) {
        p[j] = cl[j] + vxc_rng_uniform(&g, -1, 1) * (2 * ext[j] + h);
      }
      vxg_xform_point(&w, p, c);
      classify_both(&g, &q, &q0, pc, c, h, &mixed0, &decided);
    }
    fprintf(stderr, "# %s, %s, %.3g deep: %d of %d MIXED boxes decided\n",
            kind == 0 ? "ball on a table" : kind == 1 ? "cube's edge on a table" : "ball in a bore",
            aligned ? "along the axes" : "turned", d / s, decided, mixed0);
    assert_true(mixed0 > 0);
    if (aligned && kind == 0) { /* the region's box as thin as the cap */
      assert_true(decided >= mixed0 / 3);
    }
  }
}


// boxes beyond the region's box, about the same cases: the classification drops them before
// any atom (vxv_box_beyond_region); none holds a sampled point of both cells, and the atoms
// alone never put one INSIDE both cells (the rule changes no box's class but MIXED ones')
static void test_beyond_region_box(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x5be0cd19137e2179ULL};
  int beyond = 0, mixed = 0;
  for (int it = 0; it < 12; it++) {
    double cl[3], ext[3], c[3];
    vxg_xform w;
    vxv_query q, q0;
    vxg_posed_cell pc[2];
    region_query(f, &g, it, 100, it % 2 == 0, &q, pc, &w, cl, ext);
    q0 = q;
    q0.region_cut = 0; /* the atoms alone */
    double emax = fmax(ext[0], fmax(ext[1], ext[2]));
    for (int k = 0; k < 400; k++) {
      double h = emax * exp(vxc_rng_uniform(&g, log(1.0 / 64), log(4.0))), p[3];
      for (int j = 0; j < 3; j++) {
        p[j] = cl[j] + vxc_rng_uniform(&g, -1, 1) * (2 * ext[j] + 2 * h);
      }
      vxg_xform_point(&w, p, c);
      vxv_box bx, b0;
      vxv_box_root(&q, &bx, c, h);
      b0 = bx;
      if (!vxv_box_beyond_region(&q, &bx)) {
        continue;
      }
      beyond++;
      vxg_class cls0 = vxv_box_classify(&q0, &b0, NULL);
      assert_int_equal(vxv_box_classify(&q, &bx, NULL), VXG_OUTSIDE);
      assert_int_not_equal(cls0, VXG_INSIDE);
      mixed += cls0 == VXG_MIXED;
      assert_false(box_meets_both(&g, pc, c, h));
    }
  }
  fprintf(stderr, "# %d boxes beyond the region's box, %d of them MIXED by the atoms\n", beyond,
          mixed);
  assert_true(beyond >= 400 && mixed > 0);
}


// leaves about a ball's cap, a cube's edge (two table planes cut its leaves) and a ball in a
// bore, integrated in a row on one thread (their bases and curved clips re-clipped from the
// last leaf's records, voxel/leaf.c) give bit for bit what each gives with every record
// dropped first (its clips made anew)
static void test_leaf_records_give_the_clips_bits(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x3c6ef372fe94f82bULL};
  assert_true(vxv_ws_threads(f->ws, 1) >= 1);
  vxv_thread *th = f->ws->th[0];
  int kept = 0;
  for (int it = 0; it < 6; it++) {
    double cl[3], ext[3], c[3];
    vxg_xform w;
    vxv_query q;
    vxg_posed_cell pc[2];
    region_query(f, &g, it, 300, 1, &q, pc, &w, cl, ext);
    double h = fmax(ext[0], fmax(ext[1], ext[2])) / 4;
    for (int k = 0; k < 300; k++) {
      vxv_box bx;
      if (!mixed_box_near(&g, &q, &w, cl, ext, h, c, &bx)) {
        continue;
      }
      vxv_leaf warm, cold;
      memset(&warm, 0, sizeof warm);
      memset(&cold, 0, sizeof cold);
      int rw = vxv_leaf_eval_kept(&q, th, &bx, &warm);
      th->chain.nreq = th->echain.nreq = -1; /* nothing recorded */
      int rc = vxv_leaf_eval_kept(&q, th, &bx, &cold);
      assert_int_equal(rw, rc);
      if (rw < 0) {
        continue;
      }
      kept++;
      assert_memory_equal(warm.m, cold.m, sizeof warm.m);
      assert_memory_equal(&warm.lo, &cold.lo, sizeof warm.lo);
      assert_memory_equal(&warm.hi, &cold.hi, sizeof warm.hi);
      assert_memory_equal(warm.area, cold.area, sizeof warm.area);
    }
  }
  fprintf(stderr, "# %d leaves the same warm and cold\n", kept);
  assert_true(kept > 200);
}


// leaves about rods and balls in bores, pressed in or just clear (two surfaces facing each
// other across a gap): a leaf integrated with its first test, pair_apart, and without it
// (left to upper_empty, as when the thread's account skips it) is dropped or kept alike,
// bit for bit
static void test_leaf_apart_test_changes_no_figure(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xa54ff53a5f1d36f1ULL};
  assert_true(vxv_ws_threads(f->ws, 1) >= 1);
  vxv_thread *th = f->ws->th[0];
  int dropped = 0, kept = 0;
  for (int it = 0; it < 8; it++) {
    double s = it % 2 ? 0.01 : 1, R = 2 * s;
    int ball = it % 4 == 3;
    double r = R * vxc_rng_uniform(&g, ball ? 0.5 : 0.95, ball ? 0.9 : 0.999);
    double off = R - r + vxc_rng_uniform(&g, -1e-3, 1e-3) * R;
    char na[32], nb[32];
    snprintf(na, sizeof na, "arod%d", it);
    snprintf(nb, sizeof nb, "abore%d", it);
    vxg_cell *rod = rod_cell(f, na, s, r, ball, 0, off), *bore = bore_cell(f, nb, s, 0);
    vxg_xform w;
    vx_random_pose(&g, it % 3 == 0, 10 * s, &w);
    vxv_query q;
    vxg_posed_cell pc[2];
    query_init(&q, pc, rod, bore, &w);
    q.nrad = 0; /* the gap's boxes left MIXED, for the leaves to decide */
    for (int k = 0; k < 1000; k++) {
      double c[3];
      bore_point(&g, &w, R, r, s, ball, 0.95, 1.02, c);
      double h = R * exp(vxc_rng_uniform(&g, log(1.0 / 400), log(1.0 / 40)));
      vxv_box bx;
      vxv_box_root(&q, &bx, c, h);
      if (vxv_box_classify(&q, &bx, NULL) != VXG_MIXED) {
        continue;
      }
      vxv_leaf with, without;
      memset(&with, 0, sizeof with);
      memset(&without, 0, sizeof without);
      th->apart = 1; /* the test made */
      int rw = vxv_leaf_eval_kept(&q, th, &bx, &with);
      th->apart = -1; /* skipped (not a probe) */
      th->apart_idle = 0;
      int ro = vxv_leaf_eval_kept(&q, th, &bx, &without);
      assert_int_equal(rw, ro);
      if (rw < 0) {
        dropped++;
        continue;
      }
      kept++;
      assert_memory_equal(with.m, without.m, sizeof with.m);
      assert_memory_equal(&with.lo, &without.lo, sizeof with.lo);
      assert_memory_equal(&with.hi, &without.hi, sizeof with.hi);
    }
  }
  fprintf(stderr, "# %d leaves dropped, %d kept, with the apart test or without\n", dropped, kept);
  assert_true(dropped > 100 && kept > 100);
}


// a ball 15 mm in radius 6 um deep in a table (a tippe-top's cap) under a 0.1 mm leaf: its
// cap's volume, inside the bracket, in few boxes: the cubes about the table's face that the
// ball crosses above it hold none of the cap, which lies below it
static void test_region_cut_shallow_cap(void **state) {
  fixture *f = *state;
  const double R = 0.015, d = 6e-6;
  vx_prim_spec pb = {VXG_SPHERE, {R}, 1, 0, NULL}, pt = {VXG_BOX, {0.2, 0.2, 0.02}, 3, 0, NULL};
  vxg_cell *ball = vx_cell(f->s, "capball", &pb, 1), *table = vx_cell(f->s, "captable", &pt, 1);
  assert_non_null(ball);
  assert_non_null(table);
  vxg_xform xb, xt;
  vxg_xform_translation(&xb, 0.0012, -0.0007, R - d);
  vxg_xform_translation(&xt, 0.003, 0.001, -0.01);
  vxv_options o;
  vxv_options_default(&o);
  o.closed_form = 0;
  o.rtol = 0;
  o.h_min = 1e-4;
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, ball, &xb, table, &xt, &o, &r), VXC_OK);
  double V = M_PI * d * d * (R - d / 3);
  fprintf(stderr, "# 6 um cap: V %.6g (exact %.6g), %lld boxes, %lld leaves\n", r.volume, V,
          r.boxes, r.leaves);
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
  assert_double_rel(r.volume, V, 2e-3);
  assert_true(r.boxes < 450);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_radical_sound, setup, teardown),
      cmocka_unit_test_setup_teardown(test_radical_far_quadrant, setup, teardown),
      cmocka_unit_test_setup_teardown(test_region_cut_sound, setup, teardown),
      cmocka_unit_test_setup_teardown(test_region_cut_shallow_cap, setup, teardown),
      cmocka_unit_test_setup_teardown(test_beyond_region_box, setup, teardown),
      cmocka_unit_test_setup_teardown(test_leaf_records_give_the_clips_bits, setup, teardown),
      cmocka_unit_test_setup_teardown(test_leaf_apart_test_changes_no_figure, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
