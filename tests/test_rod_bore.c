/* test_rod_bore.c: a rod in a bore (a peg's shaft, a cylinder cut by a slab, pressed into
 * the wall of a hole in a block: a box minus a cylinder, or a quadrant of it whose faces
 * pass through the hole's axis) by the rod-in-bore fast path before the octree (its
 * vxv_result.closed_form: EXPECT_FAST), against independent answers: the octree with the
 * closed forms off at rtol 1e-6 on seeded random poses (bore radii 1 mm to 0.5 m,
 * clearances 0 to 5 %, the rod's axis parallel or tilted up to 3 degrees, the sliver 1e-6
 * to 1e-2 of the radius deep, cut by the rod's end plane, the block's top face or a
 * quadrant's faces, axes random and along the world's, either cell first); the four
 * quadrants' slivers adding up to the whole block's (volume, first and second moments); a
 * parallel rod's sliver in closed form (a disc outside a disc, times the length in the
 * bore). */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/vec3.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"
#include "lib/vxc.h"

/* The closed_form the rod-in-bore quadrature reports (vxv_result.closed_form). 0 (make
 * CPPFLAGS=-DEXPECT_FAST=0) lets the octree stand in for it, at VX_OCT_RTOL and to FAST_REL:
 * the poses and the independent answers checked against the octree alone. */
#ifndef EXPECT_FAST
#define EXPECT_FAST 2
#endif

/* The fast path's accuracy asked against the independent answers. */
#if EXPECT_FAST
#define FAST_REL 1e-9 /* the fast path against the closed form and the conservation law */
#else
#define FAST_REL (10 * VX_OCT_RTOL) /* the octree's (vx_check_octree: J's, the loosest) */
#endif
/* The area vectors, relative to the contact area: the octree's error at VX_OCT_RTOL on these
 * slivers, against the closed form (test_parallel_closed_form: 5e-6) and against the
 * octree at rtol 1e-8 (the random corpus), is at most 3.4e-5. */
#define AREA_REL 1e-4
/* Poses of the random corpus. */
#define NPOSE 48


/* A rod in a bore, in the bore's frame (the hole's axis z, the block below its mouth at
 * z = 0): the rod's frame (its axis z, its end face at z = 0, the rod 0 <= z <= len) and
 * where it touches the wall (n: the azimuth psi's unit vector). */
typedef struct rod_pose {
  double n[3];
  double len;    /* the rod's length */
  double lb;     /* the block's depth below the mouth */
  vxg_xform rod; /* rod frame -> bore frame */
} rod_pose;


/* The rod of radius R (clearance Rb - R) tilted by th in the plane of the hole's axis and
 * n, pressed `depth` into the wall at azimuth psi, its end d below the mouth: site 0 at the
 * mouth (the rod leaning into the wall upward, the block's top face cutting the sliver),
 * site 1 at its end face's rim (the rod leaning away upward, the end face cutting it). The
 * rod sticks out of the mouth by `out`; the block's bottom is `below` under the rod. For a
 * tilted rod the cross-section is an ellipse R / cos th across and R along, farthest from
 * the hole's axis along n when its centre is more than R sin th tan th off the axis (the
 * poses keep it so); its end face's rim reaches R cos th along n. */
static void make_pose(double Rb, double R, double depth, double th, double psi, int site, double d,
                      double out, double below, rod_pose *p) {
  double n[3] = {cos(psi), sin(psi), 0}, ez[3] = {0, 0, 1}, u[3], e[3];
  double sg = site ? -1 : 1, rho = Rb + depth - (site ? R * cos(th) : R / cos(th));
  for (int k = 0; k < 3; k++) {
    u[k] = sg * sin(th) * n[k] + cos(th) * ez[k];
    /* site 0: the axis at the mouth rho n, the end d below; site 1: the end's centre */
    e[k] = rho * n[k] + (site ? -d * ez[k] : -d / cos(th) * u[k]);
  }
  vx_frame_z_to(u, e, &p->rod);
  memcpy(p->n, n, sizeof n);
  p->len = d / cos(th) + R * tan(th) + out;
  p->lb = d + R * sin(th) + below;
}


/* The half-angle at the hole's axis of a parallel rod's sliver: the circles' intersection,
 * the rod's centre s = Rb - R + depth off the axis. */
static double sliver_half_angle(double Rb, double R, double depth) {
  double s = Rb - R + depth;
  return acos(fmin(1, (s * s + (Rb - R) * (Rb + R)) / (2 * s * Rb)));
}


/* The rod: a cylinder of radius R cut by the slab 0 <= z <= len. */
static vxg_cell *rod_cell(fixture *f, double R, double len) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "rod%d", n++);
  vx_prim_spec p[2] = {{VXG_CYLINDER, {R}, 1, 0, NULL}, {VXG_SLAB, {2, 0, len}, 3, 0, NULL}};
  vxg_cell *c = vx_cell(f->s, name, p, 2);
  assert_non_null(c);
  return c;
}


/* The block -lb <= z <= 0, |x|, |y| <= hw, minus the hole of radius Rb along z: whole
 * (q < 0) or its quadrant q (x >= 0 when q & 1 is 0, y >= 0 when q & 2 is 0), built as
 * data/hole-block.vxm builds its walls: a box about the cell's frame, the hole moved to
 * the axis; *pose: cell frame -> bore frame. */
static vxg_cell *block_cell(fixture *f, double Rb, double hw, double lb, int q, vxg_xform *pose) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "block%d", n++);
  double cx = q < 0 ? 0 : (q & 1 ? -hw : hw) / 2, cy = q < 0 ? 0 : (q & 2 ? -hw : hw) / 2;
  double side = q < 0 ? 2 * hw : hw;
  vxg_xform mv;
  vxg_xform_translation(&mv, -cx, -cy, 0);
  vx_prim_spec p[2] = {{VXG_BOX, {side, side, lb}, 3, 0, NULL}, {VXG_CYLINDER, {Rb}, 1, 1, &mv}};
  vxg_cell *c = vx_cell(f->s, name, p, 2);
  assert_non_null(c);
  vxg_xform_translation(pose, cx, cy, -lb / 2);
  return c;
}


/* The pair with the closed forms on (closed_form EXPECT_FAST when in contact; under
 * EXPECT_FAST 0 the octree at VX_OCT_RTOL): its status. */
static vxc_status fast(fixture *f, const vxg_cell *a, const vxg_xform *xa, const vxg_cell *b,
                       const vxg_xform *xb, vxv_result *r) {
  vxv_options o;
  vxv_options_default(&o);
  if (!EXPECT_FAST) {
    o.rtol = VX_OCT_RTOL;
  }
  vxc_status st = vxv_intersect(f->ws, a, xa, b, xb, &o, r);
  assert_true(st == VXC_OK || st == VXC_NO_CONTACT);
  if (st == VXC_OK) {
    assert_int_equal(r->closed_form, EXPECT_FAST);
    assert_false(r->capped);
  }
  return st;
}


/* The rod's (xr) and the block's (xb) placements in the world, the bore's frame placed by
 * xw, the block's cell by blk_pose in it. */
static void place(const rod_pose *p, const vxg_xform *blk_pose, const vxg_xform *xw, vxg_xform *xr,
                  vxg_xform *xb) {
  vxg_xform_compose(xr, xw, &p->rod);
  vxg_xform_compose(xb, xw, blk_pose);
}


/* fast() on the rod and the block placed in the world: rod first or not. */
static vxc_status pair(fixture *f, const rod_pose *p, const vxg_cell *rod, const vxg_cell *blk,
                       const vxg_xform *blk_pose, const vxg_xform *xw, int rod_first,
                       vxv_result *r) {
  vxg_xform xr, xb;
  place(p, blk_pose, xw, &xr, &xb);
  return rod_first ? fast(f, rod, &xr, blk, &xb, r) : fast(f, blk, &xb, rod, &xr, r);
}


/* The rod's radius drawn for a bore of Rb at tilt th: the clearance 0 to 5 % of Rb (none
 * when `tight`), at least 8 Rb sin th tan th (the cross-section's farthest point along n,
 * make_pose; room for the end below the mouth, draw_end). */
static double draw_rod(vxc_rng *g, double Rb, double th, int tight) {
  double c = Rb * vxc_rng_uniform(g, 0, 0.05);
  return tight ? Rb : Rb - fmax(c, 8 * Rb * sin(th) * tan(th));
}


/* The end's depth below the mouth for a rod of R in Rb at tilt th pressed `depth` into the
 * wall: below R sin th (the end face's rim under the mouth), up to 2 Rb, for a tilted rod
 * up to half the length over which its axis crosses the clearance (it then stays off the
 * wall but at its contact), and the sliver's length at most 14 depth Rb / (2 h) (2 h its
 * chord): the octree at VX_OCT_RTOL needs about 7e3 (2 h length) / (depth Rb) leaves for a
 * sliver across its axes, and its default memory cap stops it at 1e5 to 2e5. */
static double draw_end(vxc_rng *g, double Rb, double R, double depth, double th) {
  double lo = R * sin(th), hi = 2 * Rb;
  if (th > 0) {
    hi = fmin(hi, 0.5 * (Rb - R / cos(th)) / tan(th));
  }
  double cap = 7 * depth / sin(sliver_half_angle(Rb, R, depth));
  if (th == 0 || depth / tan(th) > cap) {
    hi = fmin(hi, lo + cap);
  }
  return lo + (hi - lo) * vxc_rng_uniform(g, 0.3, 1);
}


/* The bore's frame in the world: its axis random (every third along a world axis), its
 * mouth's centre within 4 Rb of the origin (keeping the rounding of the placement well
 * below the sliver's depth). */
static void draw_world(vxc_rng *g, int i, double Rb, vxg_xform *xw) {
  double u[3], P[3];
  vx_random_dir(g, i, u);
  for (int k = 0; k < 3; k++) {
    P[k] = vxc_rng_uniform(g, -4 * Rb, 4 * Rb);
  }
  vx_frame_z_to(u, P, xw);
}


// bores of 1 mm to 0.5 m, clearances 0 (every eighth) to 5 %, the rod parallel (every
// fourth) or tilted up to 3 degrees, pressed 1e-6 to 1e-2 of the radius into the wall at
// its end's rim or at the mouth, the block whole or the quadrant on one side of a face
// through the sliver, either cell first: the fast path against the octree
static void test_random_poses(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x6A09E667F3BCC909ULL};
  /* the quadrants on either side of the face at azimuth k pi / 2 */
  static const int side[4][2] = {{0, 2}, {0, 1}, {1, 3}, {3, 2}};
  int nquad = 0, ntilt = 0, nsite = 0;
  for (int i = 0; i < NPOSE; i++) {
    double Rb = pow(10, vxc_rng_uniform(&g, -3, log10(0.5)));
    double th = i % 4 ? vxc_rng_uniform(&g, 0, 3) * M_PI / 180 : 0;
    double R = draw_rod(&g, Rb, th, i % 8 == 0);
    /* a crescent (no clearance) 1e-6 deep takes the octree past its default memory cap */
    double depth = Rb * pow(10, vxc_rng_uniform(&g, i % 8 ? -6 : -3, -2));
    int site = i % 2, quad = i % 5 == 1 || i % 5 == 3, rod_first = (i / 3) % 2;
    double al = sliver_half_angle(Rb, R, depth);
    int k = (int)vxc_rng_uniform(&g, 0, 4), q = -1;
    double psi = vxc_rng_uniform(&g, 0, 2 * M_PI);
    if (quad) { /* the face at azimuth k pi / 2 through the sliver */
      psi = k * M_PI / 2 + vxc_rng_uniform(&g, -0.6, 0.6) * al;
      q = side[k][(int)vxc_rng_uniform(&g, 0, 2)];
    }
    double d = draw_end(&g, Rb, R, depth, th);
    rod_pose p;
    make_pose(Rb, R, depth, th, psi, site, d, Rb * vxc_rng_uniform(&g, 0.2, 1),
              Rb * vxc_rng_uniform(&g, 0.2, 1), &p);
    vxg_xform xw, bp, xr, xb;
    draw_world(&g, i, Rb, &xw);
    vxg_cell *rod = rod_cell(f, R, p.len), *blk = block_cell(f, Rb, 1.5 * Rb, p.lb, q, &bp);
    place(&p, &bp, &xw, &xr, &xb);
    vxv_result r, oct;
    vxc_status st[2];
    if (rod_first) {
      vx_both_oct(f, rod, &xr, blk, &xb, EXPECT_FAST, &r, &oct, st);
    } else {
      vx_both_oct(f, blk, &xb, rod, &xr, EXPECT_FAST, &r, &oct, st);
    }
    assert_int_equal(st[0], VXC_OK);
    assert_int_equal(st[1], VXC_OK);
    if (!EXPECT_FAST) {
      r = oct; /* the octree stands in for the fast path */
    }
    /* the sliver's size: its radius of gyration */
    double size = sqrt((r.inertia[0] + r.inertia[4] + r.inertia[8]) / (2 * r.volume));
    vx_check_octree(&r, &oct, size, VX_OCT_RTOL);
    if (EXPECT_FAST) {
      assert_true(r.error_estimate <= 1e-9 * r.volume);
      assert_int_equal(r.leaves, 1);
    }
    for (int j = 0; j < 3; j++) {
      assert_double_near(oct.area_vector[j], r.area_vector[j], AREA_REL * r.contact_area);
    }
    /* the rod's surface points into the wall, the hole's out of it, within the sliver's
       half-angle of n (the end face or the mouth adds a third of its sine at most) */
    double nw[3];
    vxg_xform_vector(&xw, p.n, nw);
    assert_true((rod_first ? 1 : -1) * vxg_dot(r.area_vector, nw) >=
                0.7 * cos(al) * r.contact_area);
    nquad += quad;
    ntilt += th > 0;
    nsite += site;
  }
  assert_true(nquad >= NPOSE / 3 && ntilt == NPOSE * 3 / 4 && nsite == NPOSE / 2);
}


/* The moments m (about `ref`) about o, added to acc. */
static void add_moments_about(const vxg_moments *m, const double ref[3], const double o[3],
                              vxg_moments *acc) {
  double t[3];
  vxg_sub(ref, o, t);
  acc->m0 += m->m0;
  for (int k = 0; k < 3; k++) {
    acc->m1[k] += m->m1[k] + m->m0 * t[k];
  }
  /* int (x - o)(x - o)^T = m2 + m1 t^T + t m1^T + m0 t t^T, x - ref = x - o - t */
  for (int k = 0; k < 6; k++) {
    int a = VXG_SYM_ROW[k], b = VXG_SYM_COL[k];
    acc->m2[k] += m->m2[k] + m->m1[a] * t[b] + t[a] * m->m1[b] + m->m0 * t[a] * t[b];
  }
}


// the rod against the four quadrant cells of a block and against the whole block: the
// quadrants' slivers add up to the whole's (volume, first and second moments about its
// centroid, to FAST_REL of its own), the rod parallel or tilted, the sliver across a
// quadrant's face or within one; depths 1e-4 to 1e-2 of the radius (the rounding of the
// cells' placements, 1e-15 of the radius, moves a sliver 1e-4 deep by 1e-10 of its volume)
static void test_quadrants_add_up(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xBB67AE8584CAA73BULL};
  int nsplit = 0;
  for (int i = 0; i < 8; i++) {
    double Rb = pow(10, vxc_rng_uniform(&g, -3, log10(0.5)));
    double th = i % 4 ? vxc_rng_uniform(&g, 0, 3) * M_PI / 180 : 0;
    double R = draw_rod(&g, Rb, th, i == 4);
    double depth = Rb * pow(10, vxc_rng_uniform(&g, -4, -2));
    double al = sliver_half_angle(Rb, R, depth), psi = (int)vxc_rng_uniform(&g, 0, 4) * M_PI / 2;
    if ((i / 2) % 2) { /* across the face at psi */
      psi += vxc_rng_uniform(&g, -0.6, 0.6) * al;
    } else { /* about the middle of a quadrant */
      psi += M_PI / 4 + vxc_rng_uniform(&g, -1, 1) * fmax(0, M_PI / 4 - 1.5 * al);
    }
    double d = draw_end(&g, Rb, R, depth, th);
    rod_pose p;
    make_pose(Rb, R, depth, th, psi, i % 2, d, Rb * vxc_rng_uniform(&g, 0.2, 1),
              Rb * vxc_rng_uniform(&g, 0.2, 1), &p);
    vxg_xform xw, bp;
    draw_world(&g, i, Rb, &xw);
    int rod_first = (i / 3) % 2;
    vxg_cell *rod = rod_cell(f, R, p.len);
    vxg_cell *whole = block_cell(f, Rb, 1.5 * Rb, p.lb, -1, &bp);
    vxv_result w, r;
    assert_int_equal(pair(f, &p, rod, whole, &bp, &xw, rod_first, &w), VXC_OK);
    vxg_moments sum = {0}, ref = {0};
    add_moments_about(&w.mom, w.ref, w.centroid, &ref);
    int pieces = 0;
    for (int q = 0; q < 4; q++) {
      vxg_cell *quad = block_cell(f, Rb, 1.5 * Rb, p.lb, q, &bp);
      if (pair(f, &p, rod, quad, &bp, &xw, rod_first, &r) == VXC_OK) {
        add_moments_about(&r.mom, r.ref, w.centroid, &sum);
        pieces++;
      } else {
        assert_true(r.volume == 0);
      }
    }
    nsplit += pieces > 1;
    double tr = ref.m2[0] + ref.m2[1] + ref.m2[2], l = sqrt(tr / ref.m0);
    assert_double_rel(sum.m0, ref.m0, FAST_REL);
    for (int k = 0; k < 3; k++) {
      assert_double_near(sum.m1[k], ref.m1[k], FAST_REL * ref.m0 * l);
    }
    for (int k = 0; k < 6; k++) {
      assert_double_near(sum.m2[k], ref.m2[k], FAST_REL * tr);
    }
  }
  assert_true(nsplit >= 4);
}


/* The part of a disc of radius R outside a circle of radius Rb >= R whose centre is s off
 * the disc's (Rb - R < s < Rb + R), from the circles' intersection: the chord at x = x0 (x
 * from the circle's centre toward the disc's), of half-length h; beyond it the disc's
 * segment holds the circle's, before it the disc lies inside the circle. A segment of a
 * circle of radius r whose chord is e from its centre, half-angle phi = atan2(h, e): area
 * r^2 phi - e h, first moment along x about its centre (2/3) h^3. Out: the area, its first
 * moment along x about the circle's centre (the two (2/3) h^3 cancel: s times the disc's
 * segment) and h. In long double: for a thin sliver the segments agree to 1e-5 of
 * themselves. */
static void disc_outside(double Rb, double R, double s, double *a, double *mx, double *h) {
  long double S = s, B = Rb, Q = R;
  long double x0 = (S * S + (B - Q) * (B + Q)) / (2 * S), H = sqrtl((B - x0) * (B + x0));
  long double segR = Q * Q * atan2l(H, x0 - S) - (x0 - S) * H;
  long double segb = B * B * atan2l(H, x0) - x0 * H;
  *a = (double)(segR - segb);
  *mx = (double)(S * segR);
  *h = (double)H;
}


// a parallel rod pressed 1e-5 to 1e-2 of the radius into the wall (its axis s = Rb - R +
// depth off the hole's), its end d below the mouth: the sliver is the disc outside the
// circle (disc_outside) times d, its centroid d / 2 below the mouth and mx / a along n, its
// area vector the arc's (the chord's 2 h per length along n) and the rod's end face's (the
// rod first), or the hole's arc's and the mouth's (the block first); every other pose along
// a world axis, the others' d kept short for the octree (draw_end)
static void test_parallel_closed_form(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x3C6EF372FE94F82BULL};
  for (int i = 0; i < 8; i++) {
    double Rb = pow(10, vxc_rng_uniform(&g, -3, log10(0.5)));
    double R = draw_rod(&g, Rb, 0, i % 4 == 0);
    double depth = Rb * pow(10, vxc_rng_uniform(&g, -5, -2));
    int aligned = i % 2 == 0;
    double d = aligned ? Rb * vxc_rng_uniform(&g, 0.1, 2) : draw_end(&g, Rb, R, depth, 0);
    rod_pose p;
    make_pose(Rb, R, depth, 0, vxc_rng_uniform(&g, 0, 2 * M_PI), 0, d,
              Rb * vxc_rng_uniform(&g, 0.2, 1), Rb * vxc_rng_uniform(&g, 0.2, 1), &p);
    vxg_xform xw, bp;
    draw_world(&g, aligned ? 3 * (i / 2) : 1, Rb, &xw);
    int rod_first = (i / 2) % 2;
    vxg_cell *rod = rod_cell(f, R, p.len), *blk = block_cell(f, Rb, 1.5 * Rb, p.lb, -1, &bp);
    vxv_result r;
    assert_int_equal(pair(f, &p, rod, blk, &bp, &xw, rod_first, &r), VXC_OK);
    double a, mx, h;
    disc_outside(Rb, R, Rb - R + depth, &a, &mx, &h);
    assert_double_rel(r.volume, a * d, FAST_REL);
    /* the centroid and the area vector in the bore's frame */
    double c[3], t[3], av[3], sg = rod_first ? 1 : -1;
    vxg_sub(r.centroid, xw.t, t);
    vxg_xform_vector_inv(&xw, t, c);
    vxg_xform_vector_inv(&xw, r.area_vector, av);
    const double *n = p.n, m[3] = {-n[1], n[0], 0};
    assert_double_near(c[2], -d / 2, FAST_REL * d);
    assert_double_near(vxg_dot(c, n), mx / a, FAST_REL * Rb);
    assert_double_near(vxg_dot(c, m), 0, FAST_REL * Rb);
    double want[3] = {sg * 2 * h * d * n[0], sg * 2 * h * d * n[1], -sg * a};
    for (int k = 0; k < 3; k++) {
      assert_double_near(av[k], want[k], AREA_REL * r.contact_area);
    }
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_random_poses, setup, teardown),
      cmocka_unit_test_setup_teardown(test_quadrants_add_up, setup, teardown),
      cmocka_unit_test_setup_teardown(test_parallel_closed_form, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
