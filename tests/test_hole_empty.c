/* test_hole_empty.c: a peg inside a hole proved apart from the hole's wall cells before the
 * octree (voxel/bore.c; with the closed forms on, and strictly in the general engine with
 * them off), against the octree alone at a fine leaf: on
 * seeded random poses of a peg (a shaft and a chamfered tip) in the four quadrant cells of
 * a block with a hole (clearances 1e-5 to 1e-3 m, offsets and tilts up to and past the
 * clearance's, the block axis-aligned or turned at random, either cell first), every pair
 * proved apart has octree volume 0 and an upper bound of 0; a pair the octree certifies
 * in contact is never proved apart; a pose whose shaft axis stays within half the
 * clearance of the hole's axis over the wall's height is proved apart (the proof is no
 * weaker than that); where the general engine's proof does not take a pair, its figures are
 * the octree's. A finite tube (a bore cut by slabs): a peg leaning out through its
 * end is apart, one leaning into its wall near the end is not. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/vec3.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"
#include "lib/vxc.h"

#define HOLE_R 0.0205 /* the hole's radius, m */
#define DEPTH 0.08    /* the wall's height, m */
#define SHAFT 0.1     /* the shaft's length, m */
#define LEAF 2.5e-4   /* the octree's leaf edge, m */

typedef struct hole_block {
  vxg_cell *wall[4];
  vxg_xform pose[4]; /* cell -> block frame */
} hole_block;


/* The four quadrant cells of a block 0.12 x 0.12 x DEPTH with a hole of HOLE_R along z,
 * its mouth at the block frame's origin, as data/hole-block.vxm. */
static void make_block(fixture *f, hole_block *b) {
  static int n = 0;
  for (int q = 0; q < 4; q++) {
    double sx = q & 1 ? -1 : 1, sy = q & 2 ? -1 : 1;
    vxg_xform mv;
    vxg_xform_translation(&mv, -0.03 * sx, -0.03 * sy, 0);
    vx_prim_spec p[2] = {{VXG_BOX, {0.06, 0.06, DEPTH}, 3, 0, NULL},
                         {VXG_CYLINDER, {HOLE_R}, 1, 1, &mv}};
    char name[32];
    snprintf(name, sizeof name, "wall%d", n++);
    b->wall[q] = vx_cell(f->s, name, p, 2);
    assert_non_null(b->wall[q]);
    vxg_xform_translation(&b->pose[q], 0.03 * sx, 0.03 * sy, -DEPTH / 2);
  }
}


/* A peg of radius rp, its model frame at the tip face's centre, along +z: a shaft of SHAFT
 * and a 45-degree chamfer 3 mm long below it (cell 0: tip, 1: shaft). */
static void make_peg(fixture *f, double rp, vxg_cell *peg[2]) {
  static int n = 0;
  char name[32];
  vxg_xform mv;
  vxg_xform_translation(&mv, 0, 0, -rp);
  vx_prim_spec tip[2] = {{VXG_CONE, {M_PI / 4}, 1, 0, &mv}, {VXG_SLAB, {2, -0.003, 0}, 3, 0, NULL}};
  vx_prim_spec shaft[2] = {{VXG_CYLINDER, {rp}, 1, 0, NULL}, {VXG_SLAB, {2, 0, SHAFT}, 3, 0, NULL}};
  snprintf(name, sizeof name, "tip%d", n);
  peg[0] = vx_cell(f->s, name, tip, 2);
  snprintf(name, sizeof name, "shaft%d", n++);
  peg[1] = vx_cell(f->s, name, shaft, 2);
  assert_non_null(peg[0]);
  assert_non_null(peg[1]);
}


/* The same pair with the closed forms off, its proof before the root grid on (the general
 * engine): proved (no box classified) only where the closed forms' proof took it, and then
 * apart by the octree alone (oct); else every figure the octree's. */
static int check_engine(fixture *f, const vxg_cell *a, const vxg_xform *xa, const vxg_cell *b,
                        const vxg_xform *xb, vxv_options o, int proved, const vxv_result *oct,
                        vxc_status st_oct) {
  vxv_result r;
  o.skip_apart_proof = 0;
  vxc_status st = vxv_intersect(f->ws, a, xa, b, xb, &o, &r);
  if (r.boxes == 0) {
    assert_true(proved);
    assert_int_equal(st, VXC_NO_CONTACT);
    assert_int_equal(st_oct, VXC_NO_CONTACT);
    assert_true(r.volume_hi == 0 && oct->volume_hi == 0);
    assert_true(r.closed_form == 0);
    return 1;
  }
  assert_int_equal(st, st_oct);
  assert_true(r.volume == oct->volume && r.volume_lo == oct->volume_lo &&
              r.volume_hi == oct->volume_hi && r.boxes == oct->boxes);
  assert_memory_equal(r.centroid, oct->centroid, sizeof r.centroid);
  assert_memory_equal(r.area_vector, oct->area_vector, sizeof r.area_vector);
  return 0;
}


/* The pair with the closed forms on (*proved: the bore's proof took it) and, when `octree`,
 * off at a LEAF leaf (oct: the octree alone), checked against the general engine's proof
 * (check_engine; *engine: it took the pair). Returns the proof's status. */
static vxc_status query(fixture *f, const vxg_cell *a, const vxg_xform *xa, const vxg_cell *b,
                        const vxg_xform *xb, int octree, int *proved, int *engine,
                        vxv_result *oct, vxc_status *st_oct) {
  vxv_options o;
  vxv_options_default(&o);
  o.rtol = 0;
  o.h_min = LEAF;
  vxv_result r;
  vxc_status st = vxv_intersect(f->ws, a, xa, b, xb, &o, &r);
  /* no ball here: closed form means the proof */
  *proved = r.closed_form == 1;
  if (*proved) {
    assert_int_equal(st, VXC_NO_CONTACT);
    assert_true(r.volume == 0 && r.volume_lo == 0 && r.volume_hi == 0);
    assert_int_equal(r.boxes, 1);
  }
  if (octree) {
    o.closed_form = 0;
    o.skip_apart_proof = 1;
    *st_oct = vxv_intersect(f->ws, a, xa, b, xb, &o, oct);
    assert_false(oct->capped);
    assert_true(oct->boxes > 0);
    *engine = check_engine(f, a, xa, b, xb, o, *proved, oct, *st_oct);
  }
  return st;
}


/* The largest distance from the z axis of the peg's axis (block frame: origin o, direction
 * w) over the part whose cross-section can reach below the mouth (z <= 0). */
static double axis_offset(const double o[3], const double w[3], double rp) {
  double zmax = rp * sqrt(fmax(0, 1 - w[2] * w[2])), s1 = SHAFT;
  if (o[2] + SHAFT * w[2] > zmax) {
    s1 = (zmax - o[2]) / w[2];
  }
  double d = 0;
  for (int k = 0; k < 2; k++) {
    double s = k ? s1 : -0.003, x = o[0] + s * w[0], y = o[1] + s * w[1];
    d = fmax(d, sqrt(x * x + y * y));
  }
  return d;
}


// the peg at random poses in the hole: the proof against the octree
static void test_random_poses(void **state) {
  fixture *f = *state;
  hole_block blk;
  make_block(f, &blk);
  vxc_rng g = {0x5eed1234abcdULL};
  int nproved = 0, nengine = 0, ntouch = 0, nmust = 0;
  for (int i = 0; i < 48; i++) {
    double c = exp(vxc_rng_uniform(&g, log(1e-5), log(1e-3))), rp = HOLE_R - c;
    vxg_cell *peg[2];
    make_peg(f, rp, peg);
    /* the tip 20 to 70 mm deep; every other pose well inside (offset and tilt within a fifth
       of the clearance), the others up to 1.5 times what the clearance allows */
    double zt = vxc_rng_uniform(&g, -0.07, -0.02), ph = vxc_rng_uniform(&g, 0, 2 * M_PI);
    double reach = i % 2 ? 1.5 : 0.2, off = vxc_rng_uniform(&g, 0, reach * c);
    double tilt = vxc_rng_uniform(&g, 0, (i % 2 ? 2 : 1) * reach * c / (0.003 - zt));
    double ps = vxc_rng_uniform(&g, 0, 2 * M_PI), axis[3] = {-sin(ps), cos(ps), 0};
    vxg_xform peg_blk, blk_world, peg_world, wall_world[4];
    assert_int_equal(vxg_xform_axis_angle(&peg_blk, axis, tilt), 0);
    double o[3] = {off * cos(ph), off * sin(ph), zt}, w[3], ez[3] = {0, 0, 1};
    memcpy(peg_blk.t, o, sizeof o);
    vxg_xform_vector(&peg_blk, ez, w);
    int turned = i % 3 == 2; /* the block turned and moved at random */
    vxg_xform_identity(&blk_world);
    if (turned) {
      double ax[3] = {vxc_rng_uniform(&g, -1, 1), vxc_rng_uniform(&g, -1, 1), 0.5};
      assert_int_equal(vxg_xform_axis_angle(&blk_world, ax, vxc_rng_uniform(&g, -3, 3)), 0);
      for (int k = 0; k < 3; k++) {
        blk_world.t[k] = vxc_rng_uniform(&g, -2, 2);
      }
    }
    vxg_xform_compose(&peg_world, &blk_world, &peg_blk);
    int must = !turned && axis_offset(o, w, rp) <= 0.5 * c;
    nmust += must;
    for (int q = 0; q < 4; q++) {
      vxg_xform_compose(&wall_world[q], &blk_world, &blk.pose[q]);
      for (int p = 0; p < 2; p++) {
        int proved, engine, a_first = (i + q + p) % 2;
        vxv_result oct;
        vxc_status so;
        if (a_first) {
          query(f, blk.wall[q], &wall_world[q], peg[p], &peg_world, 1, &proved, &engine, &oct,
                &so);
        } else {
          query(f, peg[p], &peg_world, blk.wall[q], &wall_world[q], 1, &proved, &engine, &oct,
                &so);
        }
        if (proved) {
          nproved++;
          assert_int_equal(so, VXC_NO_CONTACT);
          assert_true(oct.volume == 0 && oct.volume_hi == 0);
        }
        if (oct.volume_lo > 0) {
          ntouch++;
          assert_false(proved);
        }
        nengine += engine;
        if (must) {
          assert_true(proved && engine);
        }
      }
    }
  }
  /* both kinds of pose were drawn */
  printf("# %d poses within half the clearance, %d pairs proved apart (%d without the closed"
         " forms), %d in contact\n",
         nmust, nproved, nengine, ntouch);
  assert_true(nmust >= 12 && nproved > 8 * nmust && nengine > 8 * nmust && ntouch >= 8);
}


/* A tube (a bore of HOLE_R in a cylinder of twice it, 0 <= z <= 0.05) and a peg of
 * clearance 2e-4 leaning about y by `tilt` with its tip at height zt, off by x0: bit p set
 * when the proof took the peg's cell p (the general engine's too), the octree's volumes' sum
 * in *v. */
static int tube_case(fixture *f, vxg_cell *tube, vxg_cell *peg[2], double x0, double zt,
                     double tilt, double *v) {
  vxg_xform xt, xp;
  vxg_xform_identity(&xt);
  const double ay[3] = {0, 1, 0};
  assert_int_equal(vxg_xform_axis_angle(&xp, ay, tilt), 0);
  xp.t[0] = x0;
  xp.t[2] = zt;
  int mask = 0;
  *v = 0;
  for (int p = 0; p < 2; p++) {
    int proved, engine;
    vxv_result oct;
    vxc_status so;
    query(f, p ? tube : peg[p], p ? &xt : &xp, p ? peg[p] : tube, p ? &xp : &xt, 1, &proved,
          &engine, &oct, &so);
    assert_int_equal(engine, proved); /* clear by far more than the closed forms' allowance */
    mask |= proved << p;
    *v += oct.volume;
    if (proved) {
      assert_true(so == VXC_NO_CONTACT && oct.volume_hi == 0);
    }
  }
  return mask;
}


// a finite tube: the bore's cylinder is infinite, the slabs that end the tube other atoms
static void test_tube_end(void **state) {
  fixture *f = *state;
  vx_prim_spec p[3] = {{VXG_CYLINDER, {2 * HOLE_R}, 1, 0, NULL},
                       {VXG_CYLINDER, {HOLE_R}, 1, 1, NULL},
                       {VXG_SLAB, {2, 0, 0.05}, 3, 0, NULL}};
  vxg_cell *tube = vx_cell(f->s, "tube", p, 3), *peg[2];
  assert_non_null(tube);
  make_peg(f, HOLE_R - 2e-4, peg);
  double v;
  /* leaning 0.04 rad about y, the tip 0.1 mm off the axis toward -x: from 5 mm below the
     tube's top the shaft stays 0.08 mm clear of the bore, beyond the end it leaves the
     bore's cylinder by 2 mm */
  assert_int_equal(tube_case(f, tube, peg, -1e-4, 0.045, 0.04, &v), 3);
  assert_true(v == 0);
  /* the same lean from 30 mm below the top: the shaft meets the wall near the end (the tip
     stays clear) */
  assert_int_equal(tube_case(f, tube, peg, -1e-4, 0.02, 0.04, &v), 1);
  assert_true(v > 0);
}


// the proof with a reach (vxv_options.apart_reach): the peg moved by less than the reach
// toward the wall stays apart by the octree alone
static void test_reach(void **state) {
  fixture *f = *state;
  hole_block blk;
  make_block(f, &blk);
  vxc_rng g = {0x5eed4321dcbaULL};
  int nreach = 0, nmoved = 0, nbeyond = 0;
  for (int i = 0; i < 24; i++) {
    /* clearances of 1 to 3 reaches (a reach is a 64th of the hole's radius), the peg off
       the axis by up to the clearance less a reach, toward a random side, tilted a little */
    double d = HOLE_R / 64, c = vxc_rng_uniform(&g, d, 3 * d), rp = HOLE_R - c;
    vxg_cell *peg[2];
    make_peg(f, rp, peg);
    double zt = vxc_rng_uniform(&g, -0.07, -0.02), ph = vxc_rng_uniform(&g, 0, 2 * M_PI);
    double off = vxc_rng_uniform(&g, 0, fmax(0, c - 1.5 * d)), tilt = vxc_rng_uniform(&g, 0, 1e-3);
    const double ay[3] = {0, 1, 0}, toward[3] = {cos(ph), sin(ph), 0};
    vxg_xform peg_blk;
    assert_int_equal(vxg_xform_axis_angle(&peg_blk, ay, tilt), 0);
    for (int k = 0; k < 3; k++) {
      peg_blk.t[k] = off * toward[k];
    }
    peg_blk.t[2] = zt;
    for (int q = 0; q < 4; q++) {
      for (int p = 0; p < 2; p++) {
        vxv_options o;
        vxv_options_default(&o);
        o.rtol = 0;
        o.h_min = LEAF;
        o.closed_form = 0;
        o.apart_reach = 1;
        vxv_result r;
        vxc_status st = vxv_intersect(f->ws, blk.wall[q], &blk.pose[q], peg[p], &peg_blk, &o, &r);
        if (!(r.apart_reach > 0)) {
          continue;
        }
        nreach++;
        assert_int_equal(st, VXC_NO_CONTACT);
        assert_double_rel(r.apart_reach, d, 1e-12);
        /* moves of up to 0.9 D: 0.45 D toward the wall at phi (and along z), and a turn
           about the peg's origin whose every point of the peg (within 0.11 m of it) moves
           by at most 0.45 D (|R - I| <= the angle) */
        for (int m = 0; m < 3; m++) {
          double ang = vxc_rng_uniform(&g, 0, 0.45 * d / 0.11);
          double ax[3] = {vxc_rng_uniform(&g, -1, 1), vxc_rng_uniform(&g, -1, 1), 1};
          vxg_xform turn, moved;
          assert_int_equal(vxg_xform_axis_angle(&turn, ax, ang), 0);
          vxg_xform_compose(&moved, &peg_blk, &turn);
          double along = vxc_rng_uniform(&g, -1, 1), tw[3];
          vxg_xform_vector(&peg_blk, (const double[3]){0, 0, 1}, tw);
          for (int k = 0; k < 3; k++) {
            moved.t[k] += 0.45 * d * (m ? toward[k] : tw[k] * along);
          }
          vxv_options oo = o;
          oo.apart_reach = 0;
          oo.skip_apart_proof = 1;
          vxv_result ro;
          vxc_status so = vxv_intersect(f->ws, blk.wall[q], &blk.pose[q], peg[p], &moved, &oo, &ro);
          assert_int_equal(so, VXC_NO_CONTACT);
          assert_true(ro.volume_hi == 0 && ro.boxes > 0);
          nmoved++;
        }
        /* moved toward the wall by the clearance left and a reach, the shaft meets it */
        double sx = q & 1 ? -1 : 1, sy = q & 2 ? -1 : 1; /* the quadrant's side */
        if (p == 1 && sx * toward[0] > 0.3 && sy * toward[1] > 0.3) {
          vxg_xform moved = peg_blk;
          for (int k = 0; k < 2; k++) {
            moved.t[k] += (c - off + d) * toward[k];
          }
          vxv_options oo = o;
          oo.apart_reach = 0;
          vxv_result ro;
          vxc_status so = vxv_intersect(f->ws, blk.wall[q], &blk.pose[q], peg[p], &moved, &oo, &ro);
          assert_int_equal(so, VXC_OK);
          assert_true(ro.volume > 0);
          nbeyond++;
        }
      }
    }
  }
  printf("# %d pairs apart with a reach, %d moves within it apart, %d beyond it in contact\n",
         nreach, nmoved, nbeyond);
  assert_true(nreach >= 48 && nbeyond >= 1);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_random_poses, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tube_end, setup, teardown),
      cmocka_unit_test_setup_teardown(test_reach, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
