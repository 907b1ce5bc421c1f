/* test_voxel_flush.c: flush and tangent contacts of quadric cells (voxel/flush.c, bore.c,
 * closed.c), at seeded random orientations (a third axis-aligned) and scales:
 *  - a cone seated in a countersink of its angle, and a rod in a bore of its radius: one
 *    surface kept on opposite sides, no volume, found with a bounded number of boxes;
 *  - the same cone pushed in by delta: the conical shell's closed form
 *    pi tan^2(a) (delta ((z1 - z0)^2 - (zb - z0)^2) + delta^2 (z1 - zb)) (the flush rule
 *    must not hide a real overlap);
 *  - a rod resting on the wall of a wider bore (tangent along a line): no volume beyond
 *    rounding, not capped. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"

/* The countersunk block (apex at z = -3 s below its centre, block 10 x 10 x 4 s) and the
 * conical tip (its cone's apex moved down by delta, cut to z in [-2 s, 5 s]). */
static void cone_cells(fixture *f, int it, double s, double deg, double delta, vxg_cell **tip,
                       vxg_cell **sink) {
  double a = deg * M_PI / 180; /* the primitive takes radians */
  vxg_xform ma, mb;
  vxg_xform_translation(&ma, 0, 0, -3 * s - delta);
  vxg_xform_translation(&mb, 0, 0, -3 * s);
  vx_prim_spec pt[2] = {{VXG_CONE, {a}, 1, 0, &ma}, {VXG_SLAB, {2, -2 * s, 5 * s}, 3, 0, NULL}};
  vx_prim_spec pb[2] = {{VXG_BOX, {10 * s, 10 * s, 4 * s}, 3, 0, NULL},
                        {VXG_CONE, {a}, 1, 1, &mb}};
  char na[32], nb[32];
  snprintf(na, sizeof na, "tip%d", it);
  snprintf(nb, sizeof nb, "sink%d", it);
  *tip = vx_cell(f->s, na, pt, 2);
  *sink = vx_cell(f->s, nb, pb, 2);
  assert_non_null(*tip);
  assert_non_null(*sink);
}


// a cone seated in a countersink of its angle: no volume, few boxes
static void test_flush_cone_seated(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x6a09e667f3bcc909ULL};
  for (int it = 0; it < 12; it++) {
    double s = it % 2 ? 0.01 : 1, deg = vxc_rng_uniform(&g, 20, 70);
    vxg_cell *tip, *sink;
    cone_cells(f, it, s, deg, 0, &tip, &sink);
    vxg_xform w;
    vx_random_pose(&g, it % 3 == 0, 10 * s, &w);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result r;
    vxc_status st = vxv_intersect(f->ws, tip, &w, sink, &w, &o, &r);
    assert_true(st == VXC_NO_CONTACT || r.volume_hi <= 1e-12 * pow(s, 3));
    assert_false(r.capped);
    assert_true(r.boxes < 5000);
  }
}


// the same cone pushed in by delta: the shell between the two cones
static void test_flush_cone_pressed(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xbb67ae8584caa73bULL};
  for (int it = 0; it < 4; it++) {
    double s = it % 2 ? 0.01 : 1, deg = vxc_rng_uniform(&g, 20, 40), delta = 5e-3 * s;
    vxg_cell *tip, *sink;
    cone_cells(f, 100 + it, s, deg, delta, &tip, &sink);
    vxg_xform w;
    vx_random_pose(&g, it % 2 == 0, 10 * s, &w);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result r;
    assert_int_equal(vxv_intersect(f->ws, tip, &w, sink, &w, &o, &r), VXC_OK);
    /* z from the block's bottom (-2 s) to its top (2 s), the sink's apex at -3 s; the cones
       stay within the block's sides (5 s tan(40 deg) < 5 s) */
    double t = tan(deg * M_PI / 180), z0 = -3 * s, zb = -2 * s, z1 = 2 * s;
    double exact = M_PI * t * t *
                   (delta * ((z1 - z0) * (z1 - z0) - (zb - z0) * (zb - z0)) + delta * delta * (z1 - zb));
    assert_double_rel(r.volume, exact, 2e-3);
    assert_true(r.volume_lo <= exact && exact <= r.volume_hi);
  }
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
      cmocka_unit_test_setup_teardown(test_flush_rod_in_bore, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
