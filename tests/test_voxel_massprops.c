/* test_voxel_massprops.c: mass properties of single cells and solids (voxel/massprops.c)
 * against closed forms: box, sphere, cylinder, cone, torus, a two-cell solid, and the
 * combination of results about different reference points.
 *
 * Closed forms (unit density, J about the centroid):
 *  - box lx ly lz: V = lx ly lz, J = V / 12 diag(ly^2 + lz^2, lx^2 + lz^2, lx^2 + ly^2);
 *  - sphere R: V = 4/3 pi R^3, J = 2/5 V R^2 I;
 *  - cylinder radius r, length L (axis z): V = pi r^2 L, J_zz = V r^2 / 2,
 *    J_xx = V (3 r^2 + L^2) / 12;
 *  - cone of height H and base radius a (apex at the origin, base at z = H): V = pi a^2 H / 3,
 *    centroid z = 3H/4, J_zz = 3/10 V a^2, J_xx = V (3/20 a^2 + 3/80 H^2);
 *  - torus R r (axis z): V = 2 pi^2 R r^2 (Pappus), J_zz = V (R^2 + 3/4 r^2),
 *    J_xx = V (R^2 / 2 + 5/8 r^2). */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"


/* a rigid motion: rotation about a fixed oblique axis, then a translation */
static void motion(vxg_xform *x) {
  const double ax[3] = {0.3, -0.5, 0.8};
  vxg_xform_axis_angle(x, ax, 0.7);
  x->t[0] = 0.2;
  x->t[1] = -0.1;
  x->t[2] = 0.35;
}


/* fails unless r matches V, the centroid (cell frame c0 moved by x) and J (cell frame,
 * diagonal j0, rotated by x), and the bracket contains V */
static void check_posed(const vxv_result *r, const vxg_xform *x, double V, const double c0[3],
                        const double j0[3], double size, double rel) {
  assert_true(r->volume_lo <= V && V <= r->volume_hi);
  assert_double_rel(r->volume, V, rel);
  double c[3];
  vxg_xform_point(x, c0, c);
  for (int i = 0; i < 3; i++) {
    assert_double_near(r->centroid[i], c[i], rel * size);
  }
  double jm = fmax(j0[0], fmax(j0[1], j0[2]));
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int k = 0; k < 3; k++) {
        s += x->r[3 * i + k] * j0[k] * x->r[3 * j + k];
      }
      assert_double_near(r->inertia[3 * i + j], s, rel * jm);
    }
  }
}


static void opts(vxv_options *o, double h) {
  vx_octree_options(o); /* the octree, not the closed forms of balls and caps */
  o->rtol = 0;
  o->h_min = h;
}


// a rotated, moved box: exact (planes only) at any leaf size
static void test_voxel_massprops_box_is_exact(void **state) {
  fixture *f = *state;
  vx_prim_spec p = {VXG_BOX, {0.3, 0.2, 0.1}, 3, 0, NULL};
  vxg_cell *c = vx_cell(f->s, "box", &p, 1);
  assert_non_null(c);
  vxg_xform x;
  motion(&x);
  vxv_result r;
  assert_int_equal(vxv_cell_massprops(f->ws, c, &x, NULL, &r), VXC_OK);
  double V = 0.3 * 0.2 * 0.1;
  const double c0[3] = {0, 0, 0};
  const double j0[3] = {V / 12 * (0.04 + 0.01), V / 12 * (0.09 + 0.01), V / 12 * (0.09 + 0.04)};
  check_posed(&r, &x, V, c0, j0, 0.3, 1e-11);
  /* the area vector of a closed surface vanishes */
  assert_true(r.contact_area < 1e-12);
}


// a sphere: V = 4/3 pi R^3, J = 2/5 V R^2
static void test_voxel_massprops_sphere(void **state) {
  fixture *f = *state;
  const double R = 0.1;
  vx_prim_spec p = {VXG_SPHERE, {R}, 1, 0, NULL};
  vxg_cell *c = vx_cell(f->s, "ball", &p, 1);
  assert_non_null(c);
  vxg_xform x;
  motion(&x);
  vxv_options o;
  opts(&o, R / 16);
  vxv_result r;
  assert_int_equal(vxv_cell_massprops(f->ws, c, &x, &o, &r), VXC_OK);
  double V = 4.0 / 3 * M_PI * R * R * R, j = 0.4 * V * R * R;
  const double c0[3] = {0, 0, 0}, j0[3] = {j, j, j};
  check_posed(&r, &x, V, c0, j0, R, 1e-5);
}


// with the closed forms on (the default), a ball cell and a ball cut by a plane are exact:
// V, centroid and J to rounding against the cap's moments, a zero-width bracket
static void test_voxel_massprops_ball_and_cap_in_closed_form(void **state) {
  fixture *f = *state;
  const double R = 0.1, d = 0.04; /* the cut: z <= d in the cell frame */
  vx_prim_spec ball = {VXG_SPHERE, {R}, 1, 0, NULL};
  vx_prim_spec cut[2] = {{VXG_SPHERE, {R}, 1, 0, NULL}, {VXG_HALFSPACE, {0, 0, 1, d}, 4, 0, NULL}};
  vxg_cell *cells[2] = {vx_cell(f->s, "ball", &ball, 1), vx_cell(f->s, "cut", cut, 2)};
  vxg_xform x;
  motion(&x);
  /* the ball, and the cut ball: a cap of height R + d from the plane z = d toward -z */
  const double o0[3] = {0, 0, 0}, od[3] = {0, 0, d}, mz[3] = {0, 0, -1};
  vx_axial ax[2] = {vx_sphere(R), vx_cap(R, R + d)};
  const double *org[2] = {o0, od};
  for (int k = 0; k < 2; k++) {
    assert_non_null(cells[k]);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result r;
    assert_int_equal(vxv_cell_massprops(f->ws, cells[k], &x, &o, &r), VXC_OK);
    assert_int_equal(r.closed_form, 1);
    double ow[3], uw[3], V, c[3], J[9];
    vxg_xform_point(&x, org[k], ow);
    vxg_xform_vector(&x, mz, uw);
    vx_axial_world(ax[k], ow, uw, &V, c, J);
    assert_double_rel(r.volume, V, 1e-12);
    assert_true(r.volume_lo <= V && V <= r.volume_hi && r.volume_hi - r.volume_lo <= 1e-12 * V);
    for (int i = 0; i < 3; i++) {
      assert_double_near(r.centroid[i], c[i], 1e-12 * R);
    }
    for (int i = 0; i < 9; i++) {
      assert_double_near(r.inertia[i], J[i], 1e-10 * J[0]);
    }
  }
}


// a finite cylinder (infinite cylinder and a slab): V = pi r^2 L
static void test_voxel_massprops_cylinder(void **state) {
  fixture *f = *state;
  const double rr = 0.05, L = 0.2;
  vx_prim_spec p[2] = {{VXG_CYLINDER, {rr}, 1, 0, NULL}, {VXG_SLAB, {2, -0.05, 0.15}, 3, 0, NULL}};
  vxg_cell *c = vx_cell(f->s, "can", p, 2);
  assert_non_null(c);
  vxg_xform x;
  motion(&x);
  vxv_options o;
  opts(&o, rr / 8);
  vxv_result r;
  assert_int_equal(vxv_cell_massprops(f->ws, c, &x, &o, &r), VXC_OK);
  double V = M_PI * rr * rr * L;
  const double c0[3] = {0, 0, 0.05};
  const double j0[3] = {V * (3 * rr * rr + L * L) / 12, V * (3 * rr * rr + L * L) / 12,
                        V * rr * rr / 2};
  check_posed(&r, &x, V, c0, j0, L, 1e-5);
}


// a cone cut by a half-space: V = pi a^2 H / 3, centroid at 3H/4
static void test_voxel_massprops_cone(void **state) {
  fixture *f = *state;
  const double half = M_PI / 6, H = 0.15, a = H * tan(half);
  vx_prim_spec p[2] = {{VXG_CONE, {half}, 1, 0, NULL}, {VXG_HALFSPACE, {0, 0, 1, H}, 4, 0, NULL}};
  vxg_cell *c = vx_cell(f->s, "cone", p, 2);
  assert_non_null(c);
  vxg_xform x;
  motion(&x);
  vxv_options o;
  opts(&o, a / 16);
  vxv_result r;
  assert_int_equal(vxv_cell_massprops(f->ws, c, &x, &o, &r), VXC_OK);
  double V = M_PI * a * a * H / 3;
  const double c0[3] = {0, 0, 0.75 * H};
  double jx = V * (0.15 * a * a + 0.0375 * H * H);
  const double j0[3] = {jx, jx, 0.3 * V * a * a};
  check_posed(&r, &x, V, c0, j0, H, 1e-4);
}


// a torus (exact-distance atom, bracket from its curvature bound): Pappus and its inertia
static void test_voxel_massprops_torus(void **state) {
  fixture *f = *state;
  const double R = 0.1, rr = 0.03;
  vx_prim_spec p = {VXG_TORUS, {R, rr}, 2, 0, NULL};
  vxg_cell *c = vx_cell(f->s, "ring", &p, 1);
  assert_non_null(c);
  vxg_xform x;
  motion(&x);
  vxv_options o;
  opts(&o, rr / 8);
  vxv_result r;
  assert_int_equal(vxv_cell_massprops(f->ws, c, &x, &o, &r), VXC_OK);
  double V = 2 * M_PI * M_PI * R * rr * rr;
  const double c0[3] = {0, 0, 0};
  const double j0[3] = {V * (R * R / 2 + 0.625 * rr * rr), V * (R * R / 2 + 0.625 * rr * rr),
                        V * (R * R + 0.75 * rr * rr)};
  check_posed(&r, &x, V, c0, j0, R, 1e-4);
  /* the torus bound is real: the bracket is narrower than the boundary leaves' volume */
  assert_true(r.volume_hi - r.volume_lo < 0.05 * V);
}


// a solid of a box and a distant sphere: volumes add, J by the parallel-axis theorem
static void test_voxel_massprops_solid_sums_its_cells(void **state) {
  fixture *f = *state;
  vxg_solid *s;
  assert_int_equal(vxg_solid_create(NULL, "pair", &s), VXC_OK);
  vxg_xform pose;
  vxc_error err;
  vxg_cell *c;
  vxg_prim p;
  const double bp[3] = {0.2, 0.2, 0.2}, sp[1] = {0.1};
  vxg_xform_translation(&pose, -0.5, 0, 0);
  assert_int_equal(vxg_solid_add_cell(s, "box", &pose, &c, &err), VXC_OK);
  assert_int_equal(vxg_prim_init(&p, VXG_BOX, bp, 3, 0, NULL, &err), VXC_OK);
  assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_OK);
  assert_int_equal(vxg_cell_finish(c, NULL, &err), VXC_OK);
  vxg_xform_translation(&pose, 0.5, 0, 0);
  assert_int_equal(vxg_solid_add_cell(s, "ball", &pose, &c, &err), VXC_OK);
  assert_int_equal(vxg_prim_init(&p, VXG_SPHERE, sp, 1, 0, NULL, &err), VXC_OK);
  assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_OK);
  assert_int_equal(vxg_cell_finish(c, NULL, &err), VXC_OK);
  vxg_xform x;
  vxg_xform_translation(&x, 1, 2, 3);
  vxv_options o;
  opts(&o, 0.1 / 16);
  vxv_result r;
  assert_int_equal(vxv_solid_massprops(f->ws, s, &x, &o, &r), VXC_OK);
  double vb = 0.008, vs = 4.0 / 3 * M_PI * 0.001, V = vb + vs;
  /* centroid on the x axis between the two; J_yy = J_zz gain the parallel-axis terms */
  double xc = (-0.5 * vb + 0.5 * vs) / V;
  double jb = vb * 0.08 / 12, js = 0.4 * vs * 0.01;
  double par = vb * (-0.5 - xc) * (-0.5 - xc) + vs * (0.5 - xc) * (0.5 - xc);
  assert_double_rel(r.volume, V, 1e-5);
  assert_double_near(r.centroid[0], 1 + xc, 1e-5);
  assert_double_near(r.centroid[1], 2, 1e-5);
  assert_double_near(r.inertia[0], jb + js, 1e-5 * (jb + js + par));
  assert_double_rel(r.inertia[4], jb + js + par, 1e-5);
  assert_double_rel(r.inertia[8], jb + js + par, 1e-5);
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
  vxg_solid_free(s);
}


// summing results made about different reference points equals one big region's figures
static void test_voxel_result_sum_moves_moments_to_one_point(void **state) {
  (void)state;
  /* two unit point-like boxes: results built by hand about their own centres */
  vxv_result p[2];
  memset(p, 0, sizeof p);
  for (int i = 0; i < 2; i++) {
    const double c[3] = {i ? 3.0 : -1.0, 0, 0}, e[3] = {0.5, 0.5, 0.5}, z[3] = {0, 0, 0};
    memcpy(p[i].ref, c, sizeof c);
    vxg_box_moments(z, e, &p[i].mom);
    p[i].volume = p[i].volume_lo = p[i].volume_hi = 1;
    p[i].boxes = 10;
  }
  vxv_result s;
  assert_int_equal(vxv_result_sum(p, 2, &s), VXC_OK);
  assert_double_near(s.volume, 2, 1e-15);
  assert_double_near(s.centroid[0], 1, 1e-15);
  /* J_yy = 2 (1/6) + 2 * 2^2 (parallel axis), J_xx = 2 (1/6) */
  assert_double_near(s.inertia[0], 2.0 / 6, 1e-14);
  assert_double_near(s.inertia[4], 2.0 / 6 + 8, 1e-13);
  assert_int_equal(s.boxes, 20);
  assert_int_equal(vxv_result_sum(p, 0, &s), VXC_ERR_ARG);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_voxel_massprops_box_is_exact, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_massprops_ball_and_cap_in_closed_form, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_massprops_sphere, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_massprops_cylinder, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_massprops_cone, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_massprops_torus, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_massprops_solid_sums_its_cells, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_result_sum_moves_moments_to_one_point, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
