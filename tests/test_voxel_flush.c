/* test_voxel_flush.c: flush and tangent contacts of quadric cells (voxel/flush.c, bore.c,
 * closed.c), at seeded random orientations (a third axis-aligned) and scales:
 *  - a cone seated in a countersink of its angle, and a rod in a bore of its radius: one
 *    surface kept on opposite sides, no volume, found with a bounded number of boxes;
 *  - the same cone pushed in by delta (scales 0.01 to 10, asked rtol 1e-3 and 1e-6), by
 *    the countersink's quadrature (closed_form 2), against the conical shell's closed form
 *    (shell_moments: V = pi tan^2(a) (delta ((z1 - z0)^2 - (zb - z0)^2) + delta^2 (z1 - zb)),
 *    its centroid, inertia and the tip's area vector);
 *  - a cone tilted about its apex or moved off the axis, a peg (a cylinder) and a ball
 *    resting in the countersink, pressed in: the quadrature within the octree's certified
 *    bracket and near its estimate;
 *  - a rod resting on the wall of a wider bore (tangent along a line): no volume beyond
 *    rounding, not capped. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"

/* The countersunk block of scale s: the box 10 x 10 x 4 s about its frame minus the cone of
 * half-angle deg (degrees) whose apex is 3 s below its centre; `hole`: minus a bore on its
 * axis too, of radius 1.5 s tan(deg), which meets the countersink 1.5 s below the centre
 * (a countersunk hole). */
static vxg_cell *sink_hole_cell(fixture *f, int it, double s, double deg, int hole) {
  vxg_xform mb;
  vxg_xform_translation(&mb, 0, 0, -3 * s);
  double a = deg * M_PI / 180;
  vx_prim_spec pb[3] = {{VXG_BOX, {10 * s, 10 * s, 4 * s}, 3, 0, NULL},
                        {VXG_CONE, {a}, 1, 1, &mb},
                        {VXG_CYLINDER, {1.5 * s * tan(a)}, 1, 1, NULL}};
  char nb[32];
  snprintf(nb, sizeof nb, "sink%d", it);
  vxg_cell *c = vx_cell(f->s, nb, pb, hole ? 3 : 2);
  assert_non_null(c);
  return c;
}


static vxg_cell *sink_cell(fixture *f, int it, double s, double deg) {
  return sink_hole_cell(f, it, s, deg, 0);
}


/* The countersunk block (sink_cell) and the conical tip (its cone's apex moved down by
 * delta, cut to z in [-2 s, 5 s], its end on the block's bottom plane; `below`:
 * [-2.5 s, 5 s]). */
static void cone_cells(fixture *f, int it, double s, double deg, double delta, int below,
                       vxg_cell **tip, vxg_cell **sink) {
  vxg_xform ma;
  vxg_xform_translation(&ma, 0, 0, -3 * s - delta);
  vx_prim_spec pt[2] = {{VXG_CONE, {deg * M_PI / 180}, 1, 0, &ma},
                        {VXG_SLAB, {2, (below ? -2.5 : -2) * s, 5 * s}, 3, 0, NULL}};
  char na[32];
  snprintf(na, sizeof na, "tip%d", it);
  *tip = vx_cell(f->s, na, pt, 2);
  assert_non_null(*tip);
  *sink = sink_cell(f, it, s, deg);
}


// a cone seated in a countersink of its angle (every other one a countersunk hole): no
// volume, exact, at once (the fast path finds the cone's surface the countersink's, its
// nappe the same: closed_form 1, one box)
static void test_flush_cone_seated(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x6a09e667f3bcc909ULL};
  for (int it = 0; it < 12; it++) {
    double s = it % 2 ? 0.01 : 1, deg = vxc_rng_uniform(&g, 20, 70);
    vxg_cell *tip, *sink;
    cone_cells(f, it, s, deg, 0, 0, &tip, &sink);
    if (it % 2) {
      sink = sink_hole_cell(f, 300 + it, s, deg, 1);
    }
    vxg_xform w;
    vx_random_pose(&g, it % 3 == 0, 10 * s, &w);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result r;
    vxc_status st = vxv_intersect(f->ws, tip, &w, sink, &w, &o, &r);
    assert_int_equal(st, VXC_NO_CONTACT);
    assert_true(r.volume_hi == 0 && r.closed_form == 1 && r.boxes == 1);
  }
}


// a wider cone (by 0.5 to 5 degrees) in the countersink, its wall meeting the
// countersink's on the block's top rim: the cells touch along a circle, no volume; the
// quadrature (closed_form 2) reports a touch (within 1e-12 of the region's box) without
// resolving its rounding
static void test_countersink_rim_touch(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x510e527fade682d1ULL};
  for (int it = 0; it < 6; it++) {
    double s = pow(10, vxc_rng_uniform(&g, -2, 1)), deg = vxc_rng_uniform(&g, 25, 40);
    double a = deg * M_PI / 180, an = a + vxc_rng_uniform(&g, 0.5, 5) * M_PI / 180;
    vxg_cell *sink = sink_cell(f, 200 + it, s, deg);
    /* the wide cone's apex z0 below the rim: tan(an) (2 s - z0) = tan(a) 5 s */
    double z0 = 2 * s - tan(a) * 5 * s / tan(an);
    vxg_xform m, w;
    vxg_xform_translation(&m, 0, 0, z0);
    vx_prim_spec pt[2] = {{VXG_CONE, {an}, 1, 0, &m}, {VXG_SLAB, {2, -2 * s, 5 * s}, 3, 0, NULL}};
    char name[32];
    snprintf(name, sizeof name, "wide%d", it);
    vxg_cell *wide = vx_cell(f->s, name, pt, 2);
    assert_non_null(wide);
    vx_random_pose(&g, it % 3 == 0, 10 * s, &w);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result r;
    vxc_status st = vxv_intersect(f->ws, wide, &w, sink, &w, &o, &r);
    assert_true(st == VXC_NO_CONTACT || r.volume_hi <= 1e-12 * 400 * pow(s, 3));
    assert_int_equal(r.closed_form, 2);
  }
}


/* int over [a, b] of the polynomial c[0] + c[1] w + ... + c[n-1] w^(n-1). */
static double poly_int(const double *c, int n, double a, double b) {
  double sum = 0, pa = a, pb = b;
  for (int k = 0; k < n; k++) {
    sum += c[k] * (pb - pa) / (k + 1);
    pa *= a;
    pb *= b;
  }
  return sum;
}


/* The conical shell t w <= rho <= t (w + delta), w = z - z0 from wb to w1, as moments along
 * z (vx_axial): its cross-section is pi t^2 ((w + delta)^2 - w^2) = pi t^2 (2 delta w +
 * delta^2), its int rho^2 dA = pi t^4 ((w + delta)^4 - w^4) / 2; int z^k dV with
 * z = w + z0. */
static vx_axial shell_moments(double t, double delta, double z0, double wb, double w1) {
  double pt2 = M_PI * t * t, d2 = delta * delta;
  double a0[4] = {pt2 * d2, 2 * pt2 * delta, 0, 0}, a1[4], a2[4];
  for (int k = 0; k < 4; k++) { /* times (w + z0), then again */
    a1[k] = z0 * a0[k] + (k ? a0[k - 1] : 0);
  }
  for (int k = 0; k < 4; k++) {
    a2[k] = z0 * a1[k] + (k ? a1[k - 1] : 0);
  }
  double r4[4] = {d2 * d2, 4 * d2 * delta, 6 * d2, 4 * delta};
  vx_axial m = {poly_int(a0, 4, wb, w1), poly_int(a1, 4, wb, w1), poly_int(a2, 4, wb, w1),
                0.5 * pt2 * t * t * poly_int(r4, 4, wb, w1)};
  return m;
}


/* The asked rtol of a pressed cone's query: 1e-3 or 1e-6 by turns. */
static double pressed_rtol(int it) {
  return it % 2 ? 1e-6 : 1e-3;
}


// the same cone pushed in by delta (1e-4 to 1e-2 of the scale; scales 0.01 to 10): the
// shell between the two cones, by the countersink's quadrature, against its closed form:
// V within the asked rtol and inside the bracket, the centroid within rtol of the scale, J
// within rtol of its largest entry; the tip's area vector (its conical face in the block:
// minus its projection on the base plane, along the axis) when its end lies below the block
// (else its end face shares the block's bottom plane)
static void test_flush_cone_pressed(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xbb67ae8584caa73bULL};
  for (int it = 0; it < 24; it++) {
    double s = pow(10, vxc_rng_uniform(&g, -2, 1)), deg = vxc_rng_uniform(&g, 20, 40);
    double delta = s * pow(10, vxc_rng_uniform(&g, -4, -2)), rtol = pressed_rtol(it);
    int below = it % 4 >= 2;
    vxg_cell *tip, *sink;
    cone_cells(f, 100 + it, s, deg, delta, below, &tip, &sink);
    vxg_xform w;
    vx_random_pose(&g, it % 3 == 0, 10 * s, &w);
    vxv_options o;
    vxv_options_default(&o);
    o.rtol = rtol;
    vxv_result r;
    assert_int_equal(vxv_intersect(f->ws, tip, &w, sink, &w, &o, &r), VXC_OK);
    /* z from the block's bottom (-2 s) to its top (2 s), the sink's apex at -3 s; the cones
       stay within the block's sides (5 s tan(40 deg) < 5 s) */
    double t = tan(deg * M_PI / 180), z0 = -3 * s, zb = -2 * s, z1 = 2 * s;
    double exact = M_PI * t * t *
                   (delta * ((z1 - z0) * (z1 - z0) - (zb - z0) * (zb - z0)) + delta * delta * (z1 - zb));
    assert_double_rel(r.volume, exact, rtol);
    assert_true(r.volume_lo <= exact && exact <= r.volume_hi);
    double V, c[3], J[9], u[3], jm = 0;
    const double ez[3] = {0, 0, 1};
    vxg_xform_vector(&w, ez, u);
    vx_axial_world(shell_moments(t, delta, z0, zb - z0, z1 - z0), w.t, u, &V, c, J);
    assert_double_rel(V, exact, 1e-12); /* the two forms of the volume agree */
    for (int k = 0; k < 9; k++) {
      jm = fmax(jm, fabs(J[k]));
    }
    for (int k = 0; k < 3; k++) {
      assert_double_near(r.centroid[k], c[k], rtol * s);
    }
    for (int k = 0; k < 9; k++) {
      assert_double_near(r.inertia[k], J[k], rtol * jm);
    }
    if (below) {
      double w1 = z1 - z0 + delta, wb = zb - z0 + delta, a = M_PI * t * t * (w1 * w1 - wb * wb);
      for (int k = 0; k < 3; k++) {
        assert_double_near(r.area_vector[k], -a * u[k], rtol * a);
      }
    }
  }
}


/* The sink of scale s and angle deg posed by w, and a rod in it (a cone of its angle with
 * its apex at the rod's frame's origin cut to z in [s, 8 s], a peg of radius 1.5 s cut to
 * [0, 4 s], or a ball of radius 1.5 s) posed by w . shift . tilt: the rod's frame at the
 * sink's apex (the peg's end, the ball's centre where the wall is 1.5 s from the axis)
 * moved by (ex, ey, -delta), turned by `tilt` radians about a horizontal axis of azimuth
 * psi. */
typedef struct seat {
  int kind; /* 0 cone, 1 peg, 2 ball */
  int hole; /* the sink a countersunk hole (sink_hole_cell) */
  double s, deg, ex, ey, delta, tilt, psi;
} seat;

static void seat_cells(fixture *f, int it, const seat *q, const vxg_xform *w, vxg_cell **rod,
                       vxg_xform *xr, vxg_cell **sink) {
  double s = q->s, a = q->deg * M_PI / 180, t = tan(a), R = 1.5 * s;
  vx_prim_spec pc[2] = {{VXG_CONE, {a}, 1, 0, NULL}, {VXG_SLAB, {2, s, 8 * s}, 3, 0, NULL}};
  vx_prim_spec pp[2] = {{VXG_CYLINDER, {R}, 1, 0, NULL}, {VXG_SLAB, {2, 0, 4 * s}, 3, 0, NULL}};
  vx_prim_spec pb = {VXG_SPHERE, {R}, 1, 0, NULL};
  char na[32], nb[32];
  snprintf(na, sizeof na, "seat%d", it);
  snprintf(nb, sizeof nb, "sunk%d", it);
  *rod = vx_cell(f->s, na, q->kind == 0 ? pc : q->kind == 1 ? pp : &pb, q->kind == 2 ? 1 : 2);
  *sink = sink_hole_cell(f, 1000 + it, s, q->deg, q->hole);
  assert_non_null(*rod);
  /* the apex, the peg's end on the wall (rho = R), the ball's centre R / cos a off it */
  double z = q->kind == 0 ? 0 : q->kind == 1 ? R / t : R / sin(a);
  vxg_xform sh, tl, m;
  const double ax[3] = {cos(q->psi), sin(q->psi), 0};
  vxg_xform_translation(&sh, q->ex, q->ey, -3 * s + z - q->delta);
  assert_int_equal(vxg_xform_axis_angle(&tl, ax, q->tilt), 0);
  vxg_xform_compose(&m, &sh, &tl);
  vxg_xform_compose(xr, w, &m);
}


// a cone tilted up to 3 degrees about its apex or moved off the axis by 1 to 4 times its
// press, a peg and a ball resting on the countersink's wall (tilted and off the axis
// likewise), in a countersink and (6 of 18) a countersunk hole, pressed in by 1e-3 to
// 1e-2 of the scale, at seeded poses and scales 0.01 to
// 10, either cell first: the quadrature (closed_form 2, default options) inside the
// octree's certified bracket at rtol 1e-5 (linear leaves) and within 1e-6 of its estimate;
// the octree with the revolution rule one leaf for a cone or peg in a countersink alone, within
// 1e-6 of the quadrature; vx_check_octree's
// centroid, J and area vector where the octree did not reach its memory cap (a few thin
// shells do: their bracket still holds)
static void test_countersink_against_octree(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xa54ff53a5f1d36f1ULL};
  int ncap = 0;
  for (int it = 0; it < 18; it++) {
    seat q = {.kind = it % 3, .hole = it >= 12, .s = pow(10, vxc_rng_uniform(&g, -2, 1))};
    q.deg = vxc_rng_uniform(&g, 25, 40);
    q.psi = vxc_rng_uniform(&g, 0, 2 * M_PI);
    q.delta = q.s * pow(10, vxc_rng_uniform(&g, -3, -2));
    double off = (it / 3) % 2 ? vxc_rng_uniform(&g, 1, 4) * q.delta : 0;
    double ang = vxc_rng_uniform(&g, 0, 2 * M_PI);
    q.ex = off * cos(ang);
    q.ey = off * sin(ang);
    q.tilt = (it / 3) % 2 && it % 2 ? 0 : vxc_rng_uniform(&g, 0, 3) * M_PI / 180;
    vxg_xform w, xr;
    vx_random_pose(&g, it % 3 == 0, 10 * q.s, &w);
    vxg_cell *rod, *sink;
    seat_cells(f, it, &q, &w, &rod, &xr, &sink);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result r, oct;
    /* the rod first or the sink (the area vector is then the countersink's face) */
    const vxg_cell *ca = it % 2 ? sink : rod, *cb = it % 2 ? rod : sink;
    const vxg_xform *xa = it % 2 ? &w : &xr, *xb = it % 2 ? &xr : &w;
    assert_int_equal(vxv_intersect(f->ws, ca, xa, cb, xb, &o, &r), VXC_OK);
    assert_int_equal(r.closed_form, 2);
    o.closed_form = 0;
    o.rtol = 1e-5;
    /* the octree's own leaves (the revolution rule would use the same quadrature) */
    o.linear_leaves = 1;
    assert_int_equal(vxv_intersect(f->ws, ca, xa, cb, xb, &o, &oct), VXC_OK);
    assert_int_equal(oct.quadrature_leaves, 0);
    assert_true(oct.volume_lo <= r.volume && r.volume <= oct.volume_hi);
    assert_double_rel(r.volume, oct.volume, 1e-6);
    if (q.kind < 2 && !q.hole) {
      /* a cone or a peg in a countersink alone, the rule on: one leaf of the revolution
         rule, the countersink (its cone and nappe plane, a group) as its bore */
      vxv_result rev;
      o.linear_leaves = 0;
      assert_int_equal(vxv_intersect(f->ws, ca, xa, cb, xb, &o, &rev), VXC_OK);
      assert_true(rev.leaves == 1 && rev.quadrature_leaves == 1);
      assert_double_rel(r.volume, rev.volume, 1e-6);
    }
    if (!oct.capped) {
      double size = sqrt((r.inertia[0] + r.inertia[4] + r.inertia[8]) / (2 * r.volume));
      vx_check_octree(&r, &oct, size, o.rtol);
    }
    ncap += oct.capped;
  }
  assert_true(ncap <= 4);
}


// a rod in a bore of its radius, and a rod resting on the wall of a wider bore
static void test_flush_rod_in_bore(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x3c6ef372fe94f82bULL};
  for (int it = 0; it < 12; it++) {
    double s = it % 2 ? 0.01 : 1, R = 2 * s, r = it < 6 ? R : vxc_rng_uniform(&g, 0.5, 0.95) * R;
    double off = R - r, ang = vxc_rng_uniform(&g, 0, 2 * M_PI);
    vxg_xform mr;
    vxg_xform_translation(&mr, off * cos(ang), off * sin(ang), 0);
    vx_prim_spec pr[2] = {{VXG_CYLINDER, {r}, 1, 0, &mr}, {VXG_SLAB, {2, -3 * s, 3 * s}, 3, 0, NULL}};
    vx_prim_spec pb[2] = {{VXG_BOX, {6 * s, 6 * s, 4 * s}, 3, 0, NULL},
                          {VXG_CYLINDER, {R}, 1, 1, NULL}};
    char na[32], nb[32];
    snprintf(na, sizeof na, "rod%d", it);
    snprintf(nb, sizeof nb, "bore%d", it);
    vxg_cell *rod = vx_cell(f->s, na, pr, 2), *bore = vx_cell(f->s, nb, pb, 2);
    assert_non_null(rod);
    assert_non_null(bore);
    vxg_xform w;
    vx_random_pose(&g, it % 3 == 0, 10 * s, &w);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result res;
    vxc_status st = vxv_intersect(f->ws, rod, &w, bore, &w, &o, &res);
    fprintf(stderr, "# rod %.3g in bore %.3g: status %d, V_hi %.3g, %lld boxes\n", r / s, R / s,
            (int)st, res.volume_hi, res.boxes);
    assert_true(st == VXC_NO_CONTACT || res.volume_hi <= 1e-12 * 96 * pow(s, 3));
    assert_false(res.capped);
    assert_true(res.boxes < 5000);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_flush_cone_seated, setup, teardown),
      cmocka_unit_test_setup_teardown(test_flush_cone_pressed, setup, teardown),
      cmocka_unit_test_setup_teardown(test_countersink_against_octree, setup, teardown),
      cmocka_unit_test_setup_teardown(test_countersink_rim_touch, setup, teardown),
      cmocka_unit_test_setup_teardown(test_flush_rod_in_bore, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
