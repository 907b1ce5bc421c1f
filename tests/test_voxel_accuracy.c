/* test_voxel_accuracy.c: accuracy on request in the octree integrator (voxel/octree.c).
 * A fixed-leaf query stopped by a cap returns a complete refinement level, flagged, never a
 * partly refined one; an rtol query stopped by a cap keeps a bracket that holds the truth,
 * flagged: the references are the closed-form circular-segment prism of a finite
 * cylinder lying on a table (tests/voxel_exact.h) and the same query run uncapped. */
#include "vxc_test.h"

#include "geom/geom.h"
#include "voxel/voxel.h"
#include "voxel_exact.h"

/* the finite cylinder R 0.05 m, L 0.2 m, axis along x, sunk d into a level table; *V gets
 * the exact volume (segment area times length) */
static void roller_case(fixture *f, double d, const vxv_options *o, vxv_result *r, double *V) {
  static int n = 0;
  const double R = 0.05, L = 0.2;
  char name[32];
  vx_prim_spec cyl[2] = {{VXG_CYLINDER, {R}, 1, 0, NULL},
                         {VXG_SLAB, {2, -L / 2, L / 2}, 3, 0, NULL}};
  snprintf(name, sizeof name, "roller%d", n);
  vxg_cell *c = vx_cell(f->s, name, cyl, 2);
  assert_non_null(c);
  vx_prim_spec box = {VXG_BOX, {1, 1, 0.1}, 3, 0, NULL};
  snprintf(name, sizeof name, "table%d", n++);
  vxg_cell *table = vx_cell(f->s, name, &box, 1);
  assert_non_null(table);
  vxg_xform rot, tr, xc, xt;
  const double y[3] = {0, 1, 0};
  vxg_xform_axis_angle(&rot, y, M_PI / 2);
  vxg_xform_translation(&tr, 0, 0, R - d);
  vxg_xform_compose(&xc, &tr, &rot);
  vxg_xform_translation(&xt, 0, 0, -0.05);
  assert_int_equal(vxv_intersect(f->ws, c, &xc, table, &xt, o, r), VXC_OK);
  double seg[4];
  vx_segment(R, d, seg);
  *V = seg[0] * L;
}


// a fixed-leaf pass cut by the work cap returns the finest leaf edge whose pass completes:
// the same figures as that pass run uncapped, flagged capped, no worse than it
static void test_capped_fixed_leaf_returns_last_complete_level(void **state) {
  fixture *f = *state;
  vxv_options o;
  vxv_options_default(&o);
  o.rtol = 0;
  o.h_min = 0.05 / 1024;
  o.max_boxes = 20000;
  vxv_result r, u;
  double V;
  roller_case(f, 1e-3, &o, &r, &V);
  assert_true(r.capped);
  assert_true(r.leaf_size_min > o.h_min);
  /* the level it returns, run with no cap to speak of */
  vxv_options full = o;
  full.max_boxes = 0;
  full.h_min = r.leaf_size_min;
  roller_case(f, 1e-3, &full, &u, &V);
  assert_false(u.capped);
  assert_true(u.boxes <= o.max_boxes);
  assert_double_near(r.volume, u.volume, 0);
  assert_double_near(r.volume_lo, u.volume_lo, 0);
  assert_double_near(r.volume_hi, u.volume_hi, 0);
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
  /* the leaf edge below it (which the cap cut) is what the cap did not reach */
  full.h_min = 0.5 * r.leaf_size_min;
  full.max_boxes = o.max_boxes;
  vxv_result cut;
  vxv_options one = full;
  roller_case(f, 1e-3, &one, &cut, &V);
  assert_true(cut.capped);
  assert_double_near(cut.volume, r.volume, 0);
}


// an rtol query cut by the work cap keeps a certified bracket: it contains the exact
// volume and the estimate is within its width of it, flagged capped
static void test_capped_rtol_query_keeps_a_certified_bracket(void **state) {
  fixture *f = *state;
  const long long caps[3] = {3000, 10000, 40000};
  for (int i = 0; i < 3; i++) {
    vxv_options o;
    vxv_options_default(&o);
    o.rtol = 1e-7;
    o.max_boxes = caps[i];
    vxv_result r;
    double V;
    roller_case(f, 1e-3, &o, &r, &V);
    assert_true(r.capped);
    assert_true(r.volume_lo <= V && V <= r.volume_hi);
    /* a complete round's estimate is within its bracket's width of the exact volume */
    assert_true(fabs(r.volume - V) <= r.volume_hi - r.volume_lo);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_capped_fixed_leaf_returns_last_complete_level, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_capped_rtol_query_keeps_a_certified_bracket, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
