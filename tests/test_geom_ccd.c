/* test_geom_ccd.c: libccd's MPR on cell hulls (geom/support.c) against closed-form depths
 * and directions: sphere-sphere, sphere-box, aligned boxes, a cylinder on its side on a
 * box, and separated pairs. */
#include "tests/vxc_test.h"

#include "geom/geom.h"

static double urand(vxc_rng *r, double lo, double hi) {
  return vxc_rng_uniform(r, lo, hi);
}


static void rand_rotation(vxc_rng *r, vxg_xform *x) {
  double ax[3] = {urand(r, -1, 1), urand(r, -1, 1), urand(r, -1, 1)};
  if (vxg_xform_axis_angle(x, ax, urand(r, -M_PI, M_PI)) != 0) {
    vxg_xform_identity(x);
  }
}


static vxg_cell *new_cell(void) {
  vxg_cell *c = calloc(1, sizeof *c);
  assert_non_null(c);
  c->name = "ccd";
  vxg_xform_identity(&c->pose);
  return c;
}


static void add(vxg_cell *c, vxg_prim_kind kind, const double *param, int n,
                const vxg_xform *move) {
  vxg_prim p;
  vxc_error err;
  assert_int_equal(vxg_prim_init(&p, kind, param, n, 0, move, &err), VXC_OK);
  assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_OK);
}


static vxg_cell *sphere(double r) {
  vxg_cell *c = new_cell();
  add(c, VXG_SPHERE, &r, 1, NULL);
  vxc_error err;
  assert_int_equal(vxg_cell_finish(c, "t.vxm", &err), VXC_OK);
  return c;
}


static vxg_cell *box(double lx, double ly, double lz) {
  vxg_cell *c = new_cell();
  const double b[3] = {lx, ly, lz};
  add(c, VXG_BOX, b, 3, NULL);
  vxc_error err;
  assert_int_equal(vxg_cell_finish(c, "t.vxm", &err), VXC_OK);
  return c;
}


// two spheres along x: depth r1 + r2 - d, direction +x from A toward B (libccd's sign)
static void test_mpr_spheres_along_x_direction_from_a_to_b(void **state) {
  (void)state;
  vxg_cell *a = sphere(1.0), *b = sphere(0.5);
  vxg_xform ta, tb;
  vxg_xform_identity(&ta);
  vxg_xform_translation(&tb, 1.3, 0, 0);
  vxg_mpr_result res;
  assert_int_equal(vxg_mpr(a, &ta, b, &tb, &res), VXC_OK);
  assert_int_equal(res.overlap, 1);
  assert_int_equal(res.exact, 1);
  assert_double_near(res.depth, 0.2, 1e-6);
  assert_double_near(res.dir[0], 1, 1e-6);
  assert_double_near(res.dir[1], 0, 1e-3);
  assert_double_near(res.dir[2], 0, 1e-3);
  /* swapped, the direction flips */
  assert_int_equal(vxg_mpr(b, &tb, a, &ta, &res), VXC_OK);
  assert_int_equal(res.overlap, 1);
  assert_double_near(res.depth, 0.2, 1e-6);
  assert_double_near(res.dir[0], -1, 1e-6);
  free(a);
  free(b);
}


// random sphere pairs in random poses: depth and direction along the line of centres
static void test_mpr_random_sphere_pairs_match_closed_form(void **state) {
  (void)state;
  vxc_rng r = {3};
  for (int n = 0; n < 300; n++) {
    double r1 = urand(&r, 0.01, 2), r2 = urand(&r, 0.01, 2);
    vxg_cell *a = sphere(r1), *b = sphere(r2);
    vxg_xform ta, tb;
    rand_rotation(&r, &ta);
    rand_rotation(&r, &tb);
    double u[3] = {urand(&r, -1, 1), urand(&r, -1, 1), urand(&r, -1, 1)};
    double un = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    double d = (r1 + r2) * urand(&r, 0.2, 0.99);
    for (int i = 0; i < 3; i++) {
      ta.t[i] = urand(&r, -5, 5);
      tb.t[i] = ta.t[i] + d * u[i] / un;
    }
    vxg_mpr_result res;
    assert_int_equal(vxg_mpr(a, &ta, b, &tb, &res), VXC_OK);
    assert_int_equal(res.overlap, 1);
    double scale = r1 + r2;
    assert_double_near(res.depth, r1 + r2 - d, 1e-8 * scale);
    for (int i = 0; i < 3; i++) {
      assert_double_near(res.dir[i], u[i] / un, 1e-4);
    }
    free(a);
    free(b);
  }
}


// a sphere sunk by delta into a box's top face: depth delta, direction +z
static void test_mpr_sphere_on_box_face(void **state) {
  (void)state;
  vxc_rng r = {4};
  vxg_cell *a = box(2, 2, 2);
  for (int n = 0; n < 100; n++) {
    double rad = urand(&r, 0.05, 0.5), delta = urand(&r, 0.01, 0.5) * rad;
    vxg_cell *b = sphere(rad);
    vxg_xform ta, tb;
    vxg_xform_identity(&ta);
    vxg_xform_translation(&tb, urand(&r, -0.4, 0.4), urand(&r, -0.4, 0.4), 1 + rad - delta);
    vxg_mpr_result res;
    assert_int_equal(vxg_mpr(a, &ta, b, &tb, &res), VXC_OK);
    assert_int_equal(res.overlap, 1);
    assert_double_near(res.depth, delta, 1e-6);
    assert_double_near(res.dir[2], 1, 1e-6);
    /* the contact point lies in the overlap slab */
    assert_true(res.pos[2] >= 1 - delta - 1e-9 && res.pos[2] <= 1 + 1e-9);
    free(b);
  }
  free(a);
}


// aligned boxes: depth is the overlap along the least axis, direction along it
static void test_mpr_aligned_boxes_least_overlap_axis(void **state) {
  (void)state;
  vxc_rng r = {5};
  for (int n = 0; n < 200; n++) {
    double ha[3], hb[3], off[3], ov[3];
    for (int i = 0; i < 3; i++) {
      ha[i] = urand(&r, 0.1, 1);
      hb[i] = urand(&r, 0.1, 1);
    }
    /* the overlap along each axis, one axis clearly the least */
    int least = n % 3;
    for (int i = 0; i < 3; i++) {
      double m = fmin(ha[i], hb[i]);
      ov[i] = i == least ? urand(&r, 0.02, 0.1) * m : urand(&r, 1.2, 2) * m;
      if (ov[i] > ha[i] + hb[i]) {
        ov[i] = ha[i] + hb[i];
      }
      double sg = urand(&r, -1, 1) < 0 ? -1 : 1;
      off[i] = sg * (ha[i] + hb[i] - ov[i]);
    }
    /* keep the least axis least after the clamp */
    double mo = fmin(ov[(least + 1) % 3], ov[(least + 2) % 3]);
    if (ov[least] > 0.5 * mo) {
      continue;
    }
    vxg_cell *a = box(2 * ha[0], 2 * ha[1], 2 * ha[2]), *b = box(2 * hb[0], 2 * hb[1], 2 * hb[2]);
    vxg_xform ta, tb;
    vxg_xform_translation(&ta, 0.5, -1, 2);
    vxg_xform_translation(&tb, 0.5 + off[0], -1 + off[1], 2 + off[2]);
    vxg_mpr_result res;
    assert_int_equal(vxg_mpr(a, &ta, b, &tb, &res), VXC_OK);
    assert_int_equal(res.overlap, 1);
    assert_double_near(res.depth, ov[least], 1e-9);
    for (int i = 0; i < 3; i++) {
      double want = i == least ? (off[i] > 0 ? 1 : -1) : 0;
      assert_double_near(res.dir[i], want, 1e-9);
    }
    free(a);
    free(b);
  }
}


// a finite cylinder lying on its side, sunk by delta into a box: depth delta, direction +z
static void test_mpr_cylinder_on_its_side_on_box(void **state) {
  (void)state;
  vxc_rng r = {6};
  vxg_cell *a = box(4, 4, 1);
  for (int n = 0; n < 100; n++) {
    double rad = urand(&r, 0.05, 0.5), len = urand(&r, 0.2, 2);
    double delta = urand(&r, 0.01, 0.3) * rad;
    vxg_cell *b = new_cell();
    const double sl[3] = {2, -0.5 * len, 0.5 * len};
    add(b, VXG_CYLINDER, &rad, 1, NULL);
    add(b, VXG_SLAB, sl, 3, NULL);
    vxc_error err;
    assert_int_equal(vxg_cell_finish(b, "t.vxm", &err), VXC_OK);
    assert_int_equal(b->hull.kind, VXG_HULL_CYLINDER);
    /* axis along x (a quarter turn about y), resting on the top face z = 0.5 */
    vxg_xform ta, tb;
    vxg_xform_identity(&ta);
    const double y[3] = {0, 1, 0};
    vxg_xform_axis_angle(&tb, y, M_PI / 2);
    tb.t[0] = urand(&r, -0.5, 0.5);
    tb.t[1] = urand(&r, -0.5, 0.5);
    tb.t[2] = 0.5 + rad - delta;
    vxg_mpr_result res;
    assert_int_equal(vxg_mpr(a, &ta, b, &tb, &res), VXC_OK);
    assert_int_equal(res.overlap, 1);
    assert_int_equal(res.exact, 1);
    assert_double_near(res.depth, delta, 1e-6 * (1 + rad));
    assert_double_near(res.dir[2], 1, 1e-6);
    free(b);
  }
  free(a);
}


// separated pairs report no overlap (and a non-exact hull is flagged)
static void test_mpr_separated_pairs_do_not_overlap(void **state) {
  (void)state;
  vxc_rng r = {7};
  for (int n = 0; n < 200; n++) {
    double r1 = urand(&r, 0.05, 1), r2 = urand(&r, 0.05, 1);
    vxg_cell *a = sphere(r1), *b = n % 2 ? sphere(r2) : box(2 * r2, 2 * r2, 2 * r2);
    vxg_xform ta, tb;
    rand_rotation(&r, &ta);
    rand_rotation(&r, &tb);
    double u[3] = {urand(&r, -1, 1), urand(&r, -1, 1), urand(&r, -1, 1)};
    double un = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    /* beyond the box's circumscribed sphere too */
    double d = (r1 + r2 * sqrt(3.0)) * urand(&r, 1.01, 3);
    for (int i = 0; i < 3; i++) {
      ta.t[i] = urand(&r, -5, 5);
      tb.t[i] = ta.t[i] + d * u[i] / un;
    }
    vxg_mpr_result res;
    memset(&res, 0x7f, sizeof res);
    assert_int_equal(vxg_mpr(a, &ta, b, &tb, &res), VXC_OK);
    assert_int_equal(res.overlap, 0);
    assert_int_equal(res.exact, 1);
    free(a);
    free(b);
  }
  /* a torus's hull is not the torus: overlap answers are about hulls only */
  vxg_cell *t = new_cell();
  const double tp[2] = {1, 0.2};
  add(t, VXG_TORUS, tp, 2, NULL);
  vxc_error err;
  assert_int_equal(vxg_cell_finish(t, "t.vxm", &err), VXC_OK);
  vxg_cell *s = sphere(0.1);
  vxg_xform id;
  vxg_xform_identity(&id);
  vxg_mpr_result res;
  assert_int_equal(vxg_mpr(t, &id, s, &id, &res), VXC_OK);
  assert_int_equal(res.overlap, 1); /* the ball sits in the torus's hole, inside its hull */
  assert_int_equal(res.exact, 0);
  free(t);
  free(s);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mpr_spheres_along_x_direction_from_a_to_b),
      cmocka_unit_test(test_mpr_random_sphere_pairs_match_closed_form),
      cmocka_unit_test(test_mpr_sphere_on_box_face),
      cmocka_unit_test(test_mpr_aligned_boxes_least_overlap_axis),
      cmocka_unit_test(test_mpr_cylinder_on_its_side_on_box),
      cmocka_unit_test(test_mpr_separated_pairs_do_not_overlap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
