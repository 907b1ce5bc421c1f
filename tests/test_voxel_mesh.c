/* test_voxel_mesh.c: the octree integrator (voxel/) on cells made of triangle meshes, against
 * closed forms and the tessellation bounds of tools/mesh_gen.h:
 *  - an icosphere cut by a half-space: the cap's volume converges to the exact spherical
 *    cap as the tessellation is refined, and always lies between the caps of the balls of
 *    radii r_in and R (the mesh's shell);
 *  - a 12-triangle box against the quadric box (three slabs), both cut by a sphere: the
 *    quadric answer lies in the mesh query's certified bracket;
 *  - two icospheres: the lens volume lies between the lenses of the inner and outer balls;
 *  - the bundled mesh peg pressed into the wall of the bundled mesh hole block: the exact
 *    rectangular overlap. The h_min rule is used: a non-convex mesh atom has no curvature
 *    bound, so its leaves' brackets come from the distance bound only and are wide;
 *  - convex meshes, whose leaves are integrated exactly by the planes of the triangles near
 *    them: an icosphere cut by a plane and two icospheres against the exact moments of
 *    the polyhedral regions (tools/mesh_gen.h, by the divergence theorem), with brackets
 *    that shrink to rounding, and the same figures bit for bit with one and three
 *    threads. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "tools/mesh_gen.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"


/* A cell of one mesh primitive (the cell owns the mesh). */
static vxg_cell *mesh_cell(fixture *f, const char *name, const mg_mesh *g) {
  struct vxg_mesh *m = NULL;
  vxc_error err;
  if (vxg_mesh_create(NULL, g->v, g->nv, g->t, g->nt, 1, name, &m, &err) != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
    return NULL;
  }
  vxg_cell *c = NULL;
  vxg_prim p;
  const double one = 1;
  if (vxg_solid_add_cell(f->s, name, NULL, &c, &err) != VXC_OK ||
      vxg_prim_init(&p, VXG_MESH, &one, 1, 0, NULL, &err) != VXC_OK) {
    vxg_mesh_free(m);
    return NULL;
  }
  p.mesh = m;
  if (vxg_cell_add_prim(c, &p, &err) != VXC_OK || vxg_cell_finish(c, NULL, &err) != VXC_OK) {
    return NULL;
  }
  return c;
}


// an icosphere's cap converges to the sphere's as the tessellation is refined, inside the
// shell's bounds at every level
static void test_voxel_mesh_icosphere_cap_converges(void **state) {
  fixture *f = *state;
  const double R = 0.05, z0 = 0.02; /* the cap z >= z0 */
  double exact = vxc_test_cap_volume(R, R - z0), prev_err = HUGE_VAL;
  vx_prim_spec hs = {VXG_HALFSPACE, {0, 0, -1, -z0}, 4, 0, NULL};
  vx_prim_spec bx = {VXG_BOX, {0.2, 0.2, 0.2}, 3, 0, NULL};
  vx_prim_spec both[2] = {hs, bx};
  vxg_cell *cut = vx_cell(f->s, "cut", both, 2);
  assert_non_null(cut);
  vxg_xform id;
  vxg_xform_identity(&id);
  for (int level = 1; level <= 4; level++) {
    mg_mesh g;
    assert_int_equal(mg_icosphere(&g, R, level), 0);
    char name[16];
    snprintf(name, sizeof name, "ico%d", level);
    vxg_cell *c = mesh_cell(f, name, &g);
    assert_non_null(c);
    vxv_options o;
    vxv_options_default(&o);
    o.rtol = 0;
    o.h_min = R / 128;
    vxv_result r;
    assert_int_equal(vxv_intersect(f->ws, c, &id, cut, &id, &o, &r), VXC_OK);
    double lo = vxc_test_cap_volume(g.r_in, g.r_in - z0), hi = exact;
    double err = fabs(r.volume - exact) / exact;
    fprintf(stderr,
            "# level %d (%d triangles): V %.6e, exact cap %.6e, rel error %.2e, "
            "shell [%.6e, %.6e], bracket [%.4e, %.4e]\n",
            level, g.nt, r.volume, exact, err, lo, hi, r.volume_lo, r.volume_hi);
    /* the bracket is certified for the mesh's cap, which the shell bounds */
    assert_true(r.volume_lo <= hi && r.volume_hi >= lo);
    /* the estimate is within the shell, widened by the leaves' linearisation error */
    assert_true(r.volume >= lo - 2e-3 * exact && r.volume <= hi + 2e-3 * exact);
    assert_true(err < prev_err);
    prev_err = err;
    /* centroid on the axis */
    assert_double_near(r.centroid[0], 0, 1e-3 * R);
    assert_double_near(r.centroid[1], 0, 1e-3 * R);
    mg_free(&g);
  }
  assert_true(prev_err < 4e-3);
}


// a 12-triangle box and the quadric box give the same metrics within the engine's bracket
static void test_voxel_mesh_box_matches_quadric_box(void **state) {
  fixture *f = *state;
  const double L[3] = {0.1, 0.06, 0.04};
  mg_mesh g;
  assert_int_equal(mg_box(&g, L[0], L[1], L[2]), 0);
  vxg_cell *mb = mesh_cell(f, "mesh-box", &g);
  vx_prim_spec qs[3] = {{VXG_SLAB, {0, -0.05, 0.05}, 3, 0, NULL},
                        {VXG_SLAB, {1, -0.03, 0.03}, 3, 0, NULL},
                        {VXG_SLAB, {2, -0.02, 0.02}, 3, 0, NULL}};
  vxg_cell *qb = vx_cell(f->s, "quadric-box", qs, 3);
  vx_prim_spec sp = {VXG_SPHERE, {0.045}, 1, 0, NULL};
  vxg_cell *ball = vx_cell(f->s, "ball", &sp, 1);
  assert_non_null(mb);
  assert_non_null(qb);
  assert_non_null(ball);
  vxg_xform id, at;
  vxg_xform_identity(&id);
  vxg_xform_translation(&at, 0.04, 0.025, 0.018); /* the ball over a corner */
  vxv_options o;
  vxv_options_default(&o);
  o.rtol = 0;
  o.h_min = 0.045 / 64;
  vxv_result rm, rq;
  assert_int_equal(vxv_intersect(f->ws, mb, &id, ball, &at, &o, &rm), VXC_OK);
  assert_int_equal(vxv_intersect(f->ws, qb, &id, ball, &at, &o, &rq), VXC_OK);
  fprintf(stderr, "# mesh box V %.8e [%.6e, %.6e]; quadric box V %.8e [%.6e, %.6e]\n", rm.volume,
          rm.volume_lo, rm.volume_hi, rq.volume, rq.volume_lo, rq.volume_hi);
  assert_true(rm.volume_lo <= rq.volume_hi && rq.volume_lo <= rm.volume_hi);
  assert_true(rm.volume_lo <= rq.volume && rq.volume <= rm.volume_hi);
  assert_double_rel(rm.volume, rq.volume, 2e-3);
  for (int k = 0; k < 3; k++) {
    assert_double_near(rm.centroid[k], rq.centroid[k], 0.045 * 2e-3);
  }
  /* and the mass properties of the box alone: exact for a polyhedron */
  vxv_result mp;
  assert_int_equal(vxv_cell_massprops(f->ws, mb, &id, &o, &mp), VXC_OK);
  assert_true(mp.volume_lo <= L[0] * L[1] * L[2] && mp.volume_hi >= L[0] * L[1] * L[2]);
  assert_double_rel(mp.volume, L[0] * L[1] * L[2], 1e-3);
  assert_double_rel(mp.inertia[0], L[0] * L[1] * L[2] * (L[1] * L[1] + L[2] * L[2]) / 12, 5e-3);
  mg_free(&g);
}


// two icospheres overlap in a lens between those of their inner and outer balls
static void test_voxel_mesh_two_spheres_lens(void **state) {
  fixture *f = *state;
  const double R1 = 0.05, R2 = 0.035, d = 0.07;
  mg_mesh g1, g2;
  assert_int_equal(mg_icosphere(&g1, R1, 4), 0);
  assert_int_equal(mg_icosphere(&g2, R2, 4), 0);
  vxg_cell *a = mesh_cell(f, "a", &g1), *b = mesh_cell(f, "b", &g2);
  assert_non_null(a);
  assert_non_null(b);
  vxg_xform id, at;
  vxg_xform_identity(&id);
  vxg_xform_translation(&at, d / sqrt(3.0), d / sqrt(3.0), d / sqrt(3.0));
  vxv_options o;
  vxv_options_default(&o);
  o.rtol = 0;
  o.h_min = R2 / 64;
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, a, &id, b, &at, &o, &r), VXC_OK);
  double exact = vx_lens(R1, R2, d).v, lo = vx_lens(g1.r_in, g2.r_in, d).v;
  fprintf(stderr, "# lens V %.6e, exact %.6e (rel %.2e), inner-ball lens %.6e\n", r.volume, exact,
          (r.volume - exact) / exact, lo);
  assert_true(r.volume_lo <= exact && r.volume_hi >= lo);
  assert_true(r.volume >= lo * (1 - 5e-3) && r.volume <= exact * (1 + 5e-3));
  /* the centroid lies on the line of centres */
  assert_double_near(r.centroid[0], r.centroid[1], 1e-4 * d);
  assert_double_near(r.centroid[1], r.centroid[2], 1e-4 * d);
  /* the area vector points from a toward b */
  double n = sqrt(r.area_vector[0] * r.area_vector[0] + r.area_vector[1] * r.area_vector[1] +
                  r.area_vector[2] * r.area_vector[2]);
  assert_true(r.area_vector[0] / n > 0.99 / sqrt(3.0));
  mg_free(&g1);
  mg_free(&g2);
}


// the bundled mesh peg pushed 1 mm into the bundled hole's wall: the exact box overlap
static void test_voxel_mesh_peg_in_hole(void **state) {
  (void)state;
  vxg_solid *peg = NULL, *hole = NULL;
  vxc_error err;
  assert_int_equal(vxg_model_read(NULL, vxc_test_data("mesh-peg.vxm"), &peg, &err), VXC_OK);
  assert_int_equal(vxg_model_read(NULL, vxc_test_data("mesh-hole-block.vxm"), &hole, &err), VXC_OK);
  vxv_workspace *ws;
  assert_int_equal(vxv_workspace_create(NULL, &ws), VXC_OK);
  vxg_xform pp, id;
  vxg_xform_identity(&id);
  /* peg x in [-0.007, 0.013] against the wall x >= 0.012; z in [-0.03, 0.03] vs [-0.04, 0] */
  vxg_xform_translation(&pp, 0.003, 0, -0.03);
  vxv_options o;
  vxv_options_default(&o);
  o.rtol = 0;
  o.h_min = 0.001 / 8;
  vxv_result r;
  assert_int_equal(vxv_intersect(ws, peg->cell[0], &pp, hole->cell[0], &id, &o, &r), VXC_OK);
  double exact = 0.001 * 0.02 * 0.03;
  fprintf(stderr, "# peg in hole V %.17g exact %.17g [%.17g, %.17g]\n", r.volume, exact, r.volume_lo,
          r.volume_hi);
  assert_true(r.volume_lo <= exact && exact <= r.volume_hi);
  assert_double_rel(r.volume, exact, 1e-2);
  assert_double_near(r.centroid[0], 0.0125, 2e-5);
  assert_double_near(r.centroid[1], 0, 2e-5);
  assert_double_near(r.centroid[2], -0.015, 2e-5);
  /* centred, the peg clears the hole */
  vxg_xform_translation(&pp, 0, 0, -0.03);
  assert_int_equal(vxv_intersect(ws, peg->cell[0], &pp, hole->cell[0], &id, &o, &r),
                   VXC_NO_CONTACT);
  vxv_workspace_free(ws);
  vxg_solid_free(peg);
  vxg_solid_free(hole);
}


/* Volume, centroid and second moments about the centroid of r against exact moments m
 * about the origin: rel_v of V, rel_v of the size for the centroid, rel_j of the moments. */
static void expect_moments(const vxv_result *r, const mg_moments *m, double size, double rel_v,
                           double rel_j) {
  assert_double_rel(r->volume, m->m0, rel_v);
  /* the centroid and J about it from the exact moments */
  double c[3], J[9];
  mg_moments_inertia(m, c, J);
  for (int k = 0; k < 3; k++) {
    assert_double_near(r->centroid[k], c[k], rel_v * size);
  }
  double tr = (J[0] + J[4] + J[8]) / 2, jn = tr * m->m0 > 0 ? tr : 1; /* tr = trace(C) */
  for (int k = 0; k < 9; k++) {
    assert_double_near(r->inertia[k], J[k], rel_j * jn);
  }
  /* the certified bracket holds the exact volume and is tight: every leaf is exact */
  assert_true(r->volume_lo <= m->m0 * (1 + 1e-12) && r->volume_hi >= m->m0 * (1 - 1e-12));
  assert_true(r->volume_hi - r->volume_lo <= 1e-9 * m->m0);
}


// a convex mesh's leaves are exact: an icosphere cut by a plane has the polyhedral cap's
// exact moments at a coarse leaf size, and its bracket closes to rounding
static void test_voxel_mesh_convex_cap_is_exact(void **state) {
  fixture *f = *state;
  const double R = 0.05, depth = 0.004;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, R, 3), 0);
  vxg_cell *ball = mesh_cell(f, "ico3", &g);
  vx_prim_spec hs = {VXG_HALFSPACE, {0, 0, 1, 0}, 4, 0, NULL};
  vx_prim_spec bx = {VXG_BOX, {0.3, 0.3, 0.3}, 3, 0, NULL};
  vx_prim_spec both[2] = {hs, bx};
  vxg_cell *ground = vx_cell(f->s, "ground", both, 2);
  assert_non_null(ball);
  assert_non_null(ground);
  /* the lowest vertex `depth` below the plane z = 0 */
  double zmin = HUGE_VAL;
  for (int i = 0; i < g.nv; i++) {
    zmin = fmin(zmin, g.v[3 * i + 2]);
  }
  const double t[3] = {0.0013, -0.0007, -zmin - depth};
  vxg_xform at, id;
  vxg_xform_translation(&at, t[0], t[1], t[2]);
  vxg_xform_identity(&id);
  mg_moments ex;
  assert_int_equal(mg_cap_moments(&g, t, &ex), 0);
  vxv_options o;
  vxv_options_default(&o);
  o.rtol = 0;
  o.h_min = R / 8;
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, ball, &at, ground, &id, &o, &r), VXC_OK);
  fprintf(stderr, "# convex cap V %.12e, polyhedral %.12e, bracket width %.2e, %lld boxes\n",
          r.volume, ex.m0, r.volume_hi - r.volume_lo, r.boxes);
  expect_moments(&r, &ex, R, 1e-10, 1e-9);
  /* the certified rule stops at once: the bracket is already within any tolerance */
  o.rtol = 1e-6;
  o.h_min = 0;
  assert_int_equal(vxv_intersect(f->ws, ball, &at, ground, &id, &o, &r), VXC_OK);
  expect_moments(&r, &ex, R, 1e-10, 1e-9);
  /* and the mesh alone: its exact volume, once leaves are small enough to meet few
     triangles (a floor below that size is never reached) */
  o.rtol = 0;
  o.h_min = R / 1024;
  assert_int_equal(vxv_cell_massprops(f->ws, ball, &id, &o, &r), VXC_OK);
  const double low[3] = {0, 0, -1}; /* moved wholly below z = 0: the whole mesh */
  assert_int_equal(mg_cap_moments(&g, low, &ex), 0);
  assert_double_rel(r.volume, ex.m0, 1e-10);
  assert_true(r.volume_hi - r.volume_lo <= 1e-9 * ex.m0);
  mg_free(&g);
}


// two convex meshes, one turned and moved, meet in the exact polyhedral intersection, the
// same with 1 and 3 threads
static void test_voxel_mesh_convex_pair_is_exact(void **state) {
  fixture *f = *state;
  const double R1 = 0.05, R2 = 0.035, d = 0.08;
  mg_mesh g1, g2, g2w;
  assert_int_equal(mg_icosphere(&g1, R1, 3), 0);
  assert_int_equal(mg_uvsphere(&g2, R2, 40, 21), 0);
  assert_int_equal(mg_uvsphere(&g2w, R2, 40, 21), 0);
  vxg_cell *a = mesh_cell(f, "a", &g1), *b = mesh_cell(f, "b", &g2);
  assert_non_null(a);
  assert_non_null(b);
  /* b turned by 50 degrees about (1, -2, 0.5), then moved along the diagonal; the exact
     answer turns a copy of its vertices (the same rotation, applied here) */
  const double ta[3] = {0, 0, 0}, tb[3] = {d / sqrt(3.0), d / sqrt(3.0), d / sqrt(3.0)};
  const double axis[3] = {1, -2, 0.5};
  vxg_xform id, at, rot;
  vxg_xform_identity(&id);
  assert_int_equal(vxg_xform_axis_angle(&rot, axis, 50 * M_PI / 180), 0);
  vxg_xform_translation(&at, tb[0], tb[1], tb[2]);
  vxg_xform_compose(&at, &at, &rot);
  for (int i = 0; i < g2w.nv; i++) {
    double q[3];
    vxg_xform_vector(&rot, g2w.v + 3 * i, q);
    memcpy(g2w.v + 3 * i, q, sizeof q);
  }
  mg_moments ex;
  assert_int_equal(mg_convex_meet_moments(&g1, ta, &g2w, tb, &ex), 0);
  vxv_options o;
  vxv_options_default(&o);
  o.rtol = 0;
  o.h_min = R2 / 8;
  vxv_result r1, r3;
  assert_int_equal(vxv_intersect(f->ws, a, &id, b, &at, &o, &r1), VXC_OK);
  fprintf(stderr, "# convex pair V %.12e, polyhedral %.12e, bracket width %.2e\n", r1.volume, ex.m0,
          r1.volume_hi - r1.volume_lo);
  expect_moments(&r1, &ex, R2, 1e-10, 1e-9);
  o.threads = 3;
  assert_int_equal(vxv_intersect(f->ws, a, &id, b, &at, &o, &r3), VXC_OK);
  assert_memory_equal(&r1.volume, &r3.volume, sizeof r1.volume);
  assert_memory_equal(r1.centroid, r3.centroid, sizeof r1.centroid);
  assert_memory_equal(r1.inertia, r3.inertia, sizeof r1.inertia);
  assert_memory_equal(r1.area_vector, r3.area_vector, sizeof r1.area_vector);
  mg_free(&g1);
  mg_free(&g2);
  mg_free(&g2w);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_voxel_mesh_icosphere_cap_converges, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_mesh_box_matches_quadric_box, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_mesh_two_spheres_lens, setup, teardown),
      cmocka_unit_test(test_voxel_mesh_peg_in_hole),
      cmocka_unit_test_setup_teardown(test_voxel_mesh_convex_cap_is_exact, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_mesh_convex_pair_is_exact, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
