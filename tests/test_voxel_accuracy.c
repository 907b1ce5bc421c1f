/* test_voxel_accuracy.c: accuracy on request in the octree integrator (voxel/octree.c).
 *  - A fixed-leaf query stopped by a cap returns a complete refinement level, flagged, never
 *    a partly refined one; an rtol query stopped by a cap keeps a bracket that holds the
 *    truth, flagged: the references are the closed-form circular-segment prism of a finite
 *    cylinder lying on a table (tests/voxel_exact.h) and the same query run uncapped.
 *  - A cell that is one closed mesh alone has exact mass properties from its triangles: a
 *    box mesh against the box's closed forms at a tilted pose (its bracket only the sum's
 *    rounding); an icosphere against its
 *    polyhedral volume summed here as pyramids (face area times the face plane's distance
 *    from the centre, over 3) and against the octree's certified bracket on the same
 *    mesh cut by a slab that holds it whole.
 *  - An absolute tolerance (atol) stops a grazing contact (a ball 10 um into a table, the
 *    closed-form spherical cap) once the bracket is narrower than it.
 *  - The error estimate that drives rtol queries by default bounds the actual error on
 *    closed forms: spherical caps 0.1 to 10 mm deep, the finite cylinder lying on a table
 *    (axis along x, then turned about z and tilted), at rtol 1e-2 to 1e-5; and so does the
 *    fixed-leaf rule's with parent_est (a tracked pair's hinted queries) on caps, the
 *    cylinder, a lens and a torus lying flat, wherever it is within 1e-2 V.
 *  - Leaves cut by one or two quadrics or a torus have third-order brackets: on fixed leaves
 *    halved from 4 mm, those of caps, a lens and a flat torus (Pappus's ring of circular
 *    segments) hold the closed forms and narrow by 6 or more a halving. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "tools/mesh_gen.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"

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
  vx_octree_options(&o);
  o.rtol = 0;
  o.h_min = 0.05 / 1024;
  o.max_boxes = 2000; /* the roller's column leaves take 5,610 boxes at h_min */
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
    vx_octree_options(&o);
    o.rtol = 1e-11; /* the roller's column leaves reach 1e-7 within 3000 boxes */
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


/* the cell of primitive sp (posed by xb) against a level table whose top is z = 0, its box
 * shifted by (tx, ty) */
static vxc_status on_table(fixture *f, const vx_prim_spec *sp, const vxg_xform *xb, double tx,
                           double ty, const vxv_options *o, vxv_result *r) {
  static int n = 0;
  char name[32];
  vx_prim_spec box = {VXG_BOX, {1, 1, 0.1}, 3, 0, NULL};
  snprintf(name, sizeof name, "body%d", n);
  vxg_cell *body = vx_cell(f->s, name, sp, 1);
  snprintf(name, sizeof name, "flat%d", n++);
  vxg_cell *table = vx_cell(f->s, name, &box, 1);
  assert_non_null(body);
  assert_non_null(table);
  vxg_xform xt;
  vxg_xform_translation(&xt, tx, ty, -0.05);
  return vxv_intersect(f->ws, body, xb, table, &xt, o, r);
}


/* a ball of radius 0.1 m sunk d into a level table: *V gets the spherical cap's volume */
static vxc_status ball_case(fixture *f, double d, const vxv_options *o, vxv_result *r, double *V) {
  vx_prim_spec sp = {VXG_SPHERE, {0.1}, 1, 0, NULL};
  vxg_xform xb;
  vxg_xform_translation(&xb, 0.0123, -0.0071, 0.1 - d);
  *V = M_PI * d * d * (0.1 - d / 3);
  return on_table(f, &sp, &xb, 0.02, 0.01, o, r);
}


// a grazing cap with a relative tolerance far below reach stops on the absolute floor: the
// error estimate (and the actual error) is at most atol, or with `certified` the bracket,
// which holds the exact cap, no cap reached; without the floor the same query runs into
// the work cap
static void test_atol_stops_a_grazing_contact(void **state) {
  fixture *f = *state;
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 1e-12;
  o.atol = 1e-14;
  o.max_boxes = 200000;
  vxv_result r, u;
  double V;
  assert_int_equal(ball_case(f, 1e-5, &o, &r, &V), VXC_OK);
  assert_false(r.capped);
  assert_true(r.error_estimate <= o.atol);
  assert_true(fabs(r.volume - V) <= o.atol);
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
  o.certified = 1;
  assert_int_equal(ball_case(f, 1e-5, &o, &r, &V), VXC_OK);
  assert_false(r.capped);
  assert_true(r.volume_hi - r.volume_lo <= o.atol);
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
  o.atol = 0;
  assert_int_equal(ball_case(f, 1e-5, &o, &u, &V), VXC_OK);
  assert_true(u.capped);
  assert_true(u.boxes > r.boxes);
  o.certified = 0;
  /* negative or non-finite atol is refused */
  o.atol = -1e-14;
  assert_int_equal(ball_case(f, 1e-5, &o, &u, &V), VXC_ERR_ARG);
  o.atol = NAN;
  assert_int_equal(ball_case(f, 1e-5, &o, &u, &V), VXC_ERR_ARG);
}


/* the finite cylinder R 0.05 m, L 0.2 m placed by `x` (its axis along x before), against a
 * level table whose top is z = 0 */
static vxc_status roller_posed(fixture *f, const vxg_xform *x, const vxv_options *o,
                               vxv_result *r) {
  static int n = 0;
  char name[32];
  vx_prim_spec cyl[2] = {{VXG_CYLINDER, {0.05}, 1, 0, NULL},
                         {VXG_SLAB, {2, -0.1, 0.1}, 3, 0, NULL}};
  vx_prim_spec box = {VXG_BOX, {1, 1, 0.1}, 3, 0, NULL};
  snprintf(name, sizeof name, "rp%d", n);
  vxg_cell *c = vx_cell(f->s, name, cyl, 2);
  snprintf(name, sizeof name, "tp%d", n++);
  vxg_cell *table = vx_cell(f->s, name, &box, 1);
  assert_non_null(c);
  assert_non_null(table);
  vxg_xform rot, xc, xt;
  const double y[3] = {0, 1, 0};
  vxg_xform_axis_angle(&rot, y, M_PI / 2);
  vxg_xform_compose(&xc, x, &rot);
  vxg_xform_translation(&xt, 0, 0, -0.05);
  return vxv_intersect(f->ws, c, &xc, table, &xt, o, r);
}


/* fails unless the query met rtol by its estimate, uncapped, and its actual error is at most
 * its estimate and rtol V */
static void check_estimate(const vxv_result *r, double V, double rtol, const char *what) {
  double err = fabs(r->volume - V);
  fprintf(stderr, "# %s rtol %g: error %.2e V, estimate %.2e V, ratio %.3g, %lld boxes\n", what,
          rtol, err / V, r->error_estimate / V, err / r->error_estimate, r->boxes);
  assert_false(r->capped);
  assert_true(r->error_estimate <= rtol * r->volume);
  assert_true(err <= r->error_estimate);
  assert_true(r->volume_lo <= V && V <= r->volume_hi);
}


/* two balls of radius 0.05 m whose centres are 0.09 m apart: *V gets the lens's volume,
 * two caps of height 5 mm */
static vxc_status lens_case(fixture *f, const vxv_options *o, vxv_result *r, double *V) {
  vx_prim_spec sp = {VXG_SPHERE, {0.05}, 1, 0, NULL};
  vxg_cell *a, *b;
  vx_cell_pair(f, &sp, &sp, &a, &b);
  vxg_xform xa, xb;
  vxg_xform_translation(&xa, 0.0031, -0.0017, 0);
  vxg_xform_translation(&xb, 0.0031, -0.0017, 0.09);
  double h = 0.005;
  *V = 2 * M_PI * h * h * (0.15 - h) / 3;
  return vxv_intersect(f->ws, a, &xa, b, &xb, o, r);
}


/* a torus R 0.08 m, r 0.03 m lying flat, d deep, in a level table: *V gets Pappus's volume,
 * the ring of the tube's circular segments (their centroids on the core circle) */
static void torus_case(fixture *f, double d, const vxv_options *o, vxv_result *r, double *V) {
  const double R = 0.08, rt = 0.03;
  vx_prim_spec tor = {VXG_TORUS, {R, rt}, 2, 0, NULL};
  vxg_xform xc;
  vxg_xform_translation(&xc, 0.0013, -0.0007, rt - d);
  assert_int_equal(on_table(f, &tor, &xc, 0, 0, o, r), VXC_OK);
  double seg[4];
  vx_segment(rt, d, seg);
  *V = 2 * M_PI * R * seg[0];
}


// a leaf cut by one or two quadrics, or by a torus (its Taylor model, torus_taylor), has a
// third-order bracket: at fixed leaves of 4, 2, 1 and 0.5 mm the brackets of a 5 mm
// spherical cap, of a cylinder lying 1 mm deep, of a lens (two caps meeting at a rim) and of
// a torus lying flat 1 mm deep (Pappus) hold the closed forms and narrow by at least 6 per
// halving of the leaf (h^3 over the O(h^-2) boundary leaves: 8; the planar enclosures narrow
// by 4, h^2)
static void test_third_order_brackets(void **state) {
  fixture *f = *state;
  static const char *const name[4] = {"cap", "cylinder", "lens", "torus"};
  for (int c = 0; c < 4; c++) {
    double prev = 0;
    for (int k = 0; k < 4; k++) {
      vxv_options o;
      vx_octree_options(&o);
      o.rtol = 0;
      o.h_min = 4e-3 / (1 << k);
      vxv_result r;
      double V;
      if (c == 0) {
        assert_int_equal(ball_case(f, 5e-3, &o, &r, &V), VXC_OK);
      } else if (c == 1) {
        roller_case(f, 1e-3, &o, &r, &V);
      } else if (c == 2) {
        assert_int_equal(lens_case(f, &o, &r, &V), VXC_OK);
      } else {
        torus_case(f, 1e-3, &o, &r, &V);
      }
      double w = r.volume_hi - r.volume_lo;
      print_message("# %s h %.2g mm: bracket %.3e V, planar enclosures %.3e V\n", name[c],
                    1e3 * o.h_min, w / V, r.moment_width / V);
      assert_true(r.volume_lo <= V && V <= r.volume_hi);
      assert_true(w <= r.moment_width);
      if (k > 0) {
        assert_true(prev >= 6 * w);
      }
      prev = w;
    }
  }
}


// the error estimate bounds the actual error of spherical caps 0.1 to 10 mm deep
static void test_estimate_bounds_cap_error(void **state) {
  fixture *f = *state;
  const double depths[3] = {1e-4, 1e-3, 1e-2}, rtols[4] = {1e-2, 1e-3, 1e-4, 1e-5};
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 4; k++) {
      vxv_options o;
      vx_octree_options(&o);
      o.rtol = rtols[k];
      vxv_result r;
      double V;
      assert_int_equal(ball_case(f, depths[i], &o, &r, &V), VXC_OK);
      check_estimate(&r, V, o.rtol, "cap");
    }
  }
}


// the finite cylinder 1 mm deep, axis along x (it used to run into the work cap), then
// turned 0.3 rad about z, then tilted 0.01 rad about y (a wedge: one end 1 mm deep, the
// other clear; its volume from vertical sections summed by Simpson's rule)
static void test_estimate_bounds_cylinder_error(void **state) {
  fixture *f = *state;
  const double R = 0.05, L = 0.2, d = 1e-3, rtols[4] = {1e-2, 1e-3, 1e-4, 1e-5};
  double seg[4];
  vx_segment(R, d, seg);
  for (int k = 0; k < 4; k++) {
    vxv_options o;
    vx_octree_options(&o);
    o.rtol = rtols[k];
    vxv_result r;
    vxg_xform x, rz, tr;
    vxg_xform_translation(&x, 0, 0, R - d);
    assert_int_equal(roller_posed(f, &x, &o, &r), VXC_OK);
    check_estimate(&r, seg[0] * L, o.rtol, "cylinder along x");
    assert_true(r.boxes < 1000000);
    const double z[3] = {0, 0, 1};
    vxg_xform_axis_angle(&rz, z, 0.3);
    vxg_xform_compose(&tr, &x, &rz);
    assert_int_equal(roller_posed(f, &tr, &o, &r), VXC_OK);
    check_estimate(&r, seg[0] * L, o.rtol, "cylinder turned");
  }
  /* tilted by a about y, the +x end down, its lowest point d deep. The vertical section at
     world x (from the centre) is an ellipse of semi-axes R (y) and R / cos(a) (z) whose
     bottom is at z_b = -x tan(a) - R / cos(a) (from the centre, at height zc): the table
     cuts it h = -zc - z_b above its bottom, and the +x end face (u . p <= L / 2, u the
     axis) removes what lies below z0 = (x cos(a) - L / 2) / sin(a). The area between the two
     heights is the difference of the ellipse's segments (a circle's, stretched by
     1 / cos(a)); Simpson's rule over x sums the sections. */
  const double a = 0.01, ca = cos(a), sa = sin(a), zc = R / ca + (L / 2) * sa - d;
  const int np = 1000000; /* the sections have a square-root end: 2e4 left 2.3e-5 of V */
  const double x0 = -L * ca / 2 - R * sa, x1 = L * ca / 2 + R * sa;
  double V = 0;
  for (int i = 0; i <= np; i++) {
    double x = x0 + (x1 - x0) * i / np, zb = -x * sa / ca - R / ca, h = -zc - zb;
    double t0 = (x * ca - L / 2) / sa - zb, area = 0;
    t0 = t0 < 0 ? 0 : t0;
    if (h > t0) {
      double s1[4], s0[4] = {0, 0, 0, 0};
      vx_segment(R, h * ca, s1);
      if (t0 > 0) {
        vx_segment(R, t0 * ca, s0);
      }
      area = (s1[0] - s0[0]) / ca;
    }
    V += area * (i == 0 || i == np ? 1 : (i % 2 ? 4 : 2));
  }
  V *= (x1 - x0) / np / 3;
  for (int k = 0; k < 3; k++) {
    vxv_options o;
    vx_octree_options(&o);
    o.rtol = rtols[k];
    vxv_result r;
    vxg_xform x, ry, tr;
    const double yax[3] = {0, 1, 0};
    vxg_xform_axis_angle(&ry, yax, a);
    vxg_xform_translation(&x, 0, 0, zc);
    vxg_xform_compose(&tr, &x, &ry);
    assert_int_equal(roller_posed(f, &tr, &o, &r), VXC_OK);
    check_estimate(&r, V, o.rtol, "cylinder tilted");
  }
}


/* A cell of one mesh primitive (owning the mesh), cut by `cut` (NULL: none). */
static vxg_cell *mesh_cell(fixture *f, const char *name, const mg_mesh *g,
                           const vx_prim_spec *cut) {
  struct vxg_mesh *m = NULL;
  vxc_error err;
  vxg_cell *c = NULL;
  vxg_prim p;
  const double one = 1;
  if (vxg_mesh_create(NULL, g->v, g->nv, g->t, g->nt, 1, name, &m, &err) != VXC_OK) {
    return NULL;
  }
  if (vxg_solid_add_cell(f->s, name, NULL, &c, &err) != VXC_OK ||
      vxg_prim_init(&p, VXG_MESH, &one, 1, 0, NULL, &err) != VXC_OK) {
    vxg_mesh_free(m);
    return NULL;
  }
  p.mesh = m;
  if (vxg_cell_add_prim(c, &p, &err) != VXC_OK) {
    return NULL;
  }
  if (cut && (vxg_prim_init(&p, cut->kind, cut->p, cut->np, cut->comp, NULL, &err) != VXC_OK ||
              vxg_cell_add_prim(c, &p, &err) != VXC_OK)) {
    return NULL;
  }
  return vxg_cell_finish(c, NULL, &err) == VXC_OK ? c : NULL;
}


/* R J R^T */
static void rotate_sym(const vxg_xform *x, const double J[9], double out[9]) {
  double t[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      t[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) {
        t[3 * i + j] += x->r[3 * i + k] * J[3 * k + j];
      }
    }
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      out[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) {
        out[3 * i + j] += t[3 * i + k] * x->r[3 * j + k];
      }
    }
  }
}


// a box mesh alone, tilted and moved: V = abc, centroid at the pose, J the box's rotated,
// with a zero-width bracket and no boxes
static void test_mesh_alone_box_mass_properties_are_exact(void **state) {
  fixture *f = *state;
  const double L[3] = {0.1, 0.06, 0.04};
  mg_mesh g;
  assert_int_equal(mg_box(&g, L[0], L[1], L[2]), 0);
  vxg_cell *c = mesh_cell(f, "box", &g, NULL);
  mg_free(&g);
  assert_non_null(c);
  vxg_xform rot, tr, x;
  const double axis[3] = {0.3, -0.5, 0.8};
  vxg_xform_axis_angle(&rot, axis, 0.7);
  vxg_xform_translation(&tr, 1.5, -0.25, 0.75);
  vxg_xform_compose(&x, &tr, &rot);
  vxv_result r;
  assert_int_equal(vxv_cell_massprops(f->ws, c, &x, NULL, &r), VXC_OK);
  double V = L[0] * L[1] * L[2];
  assert_double_rel(r.volume, V, 1e-13);
  assert_true(r.volume_lo <= r.volume && r.volume <= r.volume_hi);
  assert_true(r.volume_hi - r.volume_lo <= 1e-10 * r.volume); /* rounding only */
  assert_int_equal(r.boxes, 0);
  for (int k = 0; k < 3; k++) {
    assert_double_near(r.centroid[k], x.t[k], 1e-14);
  }
  double J0[9] = {V * (L[1] * L[1] + L[2] * L[2]) / 12, 0, 0, 0,
                  V * (L[0] * L[0] + L[2] * L[2]) / 12, 0, 0, 0,
                  V * (L[0] * L[0] + L[1] * L[1]) / 12};
  double J[9];
  rotate_sym(&x, J0, J);
  for (int k = 0; k < 9; k++) {
    assert_double_near(r.inertia[k], J[k], 1e-12 * J0[8]);
  }
}


// an icosphere alone: its volume is the sum of the pyramids on its faces, its centroid the
// centre; the octree on the same mesh cut by a slab that holds it whole agrees within its
// bracket, and its J within the bracket's relative width
static void test_mesh_alone_icosphere_matches_pyramids_and_octree(void **state) {
  fixture *f = *state;
  const double R = 0.05;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, R, 3), 0);
  double Vp = 0;
  for (int t = 0; t < g.nt; t++) {
    const double *a = g.v + 3 * g.t[3 * t], *b = g.v + 3 * g.t[3 * t + 1],
                 *c = g.v + 3 * g.t[3 * t + 2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double h = (n[0] * a[0] + n[1] * a[1] + n[2] * a[2]) / len; /* the face's distance */
    Vp += 0.5 * len * fabs(h) / 3;
  }
  vxg_cell *alone = mesh_cell(f, "ico", &g, NULL);
  vx_prim_spec slab = {VXG_SLAB, {2, -2 * R, 2 * R}, 3, 0, NULL};
  vxg_cell *cut = mesh_cell(f, "ico-cut", &g, &slab);
  mg_free(&g);
  assert_non_null(alone);
  assert_non_null(cut);
  vxg_xform x;
  vxg_xform_translation(&x, 0.2, 0.1, -0.3);
  vxv_result r, o;
  assert_int_equal(vxv_cell_massprops(f->ws, alone, &x, NULL, &r), VXC_OK);
  assert_double_rel(r.volume, Vp, 1e-13);
  assert_true(r.volume_lo <= r.volume && r.volume <= r.volume_hi);
  assert_true(r.volume_hi - r.volume_lo <= 1e-10 * r.volume); /* rounding only */
  for (int k = 0; k < 3; k++) {
    assert_double_near(r.centroid[k], x.t[k], 1e-15);
  }
  vxv_options opt;
  vx_octree_options(&opt);
  opt.rtol = 0;
  opt.h_min = R / 32;
  assert_int_equal(vxv_cell_massprops(f->ws, cut, &x, &opt, &o), VXC_OK);
  assert_true(o.boxes > 0);
  assert_true(o.volume_lo <= r.volume && r.volume <= o.volume_hi);
  double rel = (o.volume_hi - o.volume_lo) / o.volume;
  for (int k = 0; k < 9; k++) {
    assert_double_near(r.inertia[k], o.inertia[k], rel * o.inertia[0]);
  }
}


// under the fixed-leaf rule with parent_est (what a tracked pair's hinted queries run: each
// final leaf's parent integrated too, the difference divided by 2 in families of
// third-order leaves) the estimate bounds the actual error wherever it is within 1e-2 V:
// caps 0.1 to 10 mm deep, the cylinder lying 1 mm deep, the lens and a torus lying flat 1 mm
// deep, on leaves 8 mm to 0.4 mm in steps of 2^(1/3)
static void test_parent_estimate_bounds_fixed_leaf_error(void **state) {
  fixture *f = *state;
  const double depths[3] = {1e-4, 1e-3, 1e-2};
  int checked = 0;
  for (int c = 0; c < 6; c++) {
    for (int k = 0; k < 14; k++) {
      vxv_options o;
      vx_octree_options(&o);
      o.rtol = 0;
      o.parent_est = 1;
      o.h_min = 8e-3 * pow(2, -k / 3.0);
      vxv_result r;
      double V;
      if (c < 3) {
        assert_int_equal(ball_case(f, depths[c], &o, &r, &V), VXC_OK);
      } else if (c == 3) {
        roller_case(f, 1e-3, &o, &r, &V);
      } else if (c == 4) {
        assert_int_equal(lens_case(f, &o, &r, &V), VXC_OK);
      } else {
        torus_case(f, 1e-3, &o, &r, &V);
      }
      double err = fabs(r.volume - V);
      if (r.error_estimate <= 1e-2 * r.volume) {
        print_message("# case %d h %.3g mm: error %.2e V, estimate %.2e V\n", c, 1e3 * o.h_min,
                      err / V, r.error_estimate / V);
        assert_false(r.capped);
        assert_true(err <= r.error_estimate);
        checked++;
      }
    }
  }
  assert_true(checked >= 30);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_capped_fixed_leaf_returns_last_complete_level, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_capped_rtol_query_keeps_a_certified_bracket, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_mesh_alone_box_mass_properties_are_exact, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_mesh_alone_icosphere_matches_pyramids_and_octree, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_atol_stops_a_grazing_contact, setup, teardown),
      cmocka_unit_test_setup_teardown(test_third_order_brackets, setup, teardown),
      cmocka_unit_test_setup_teardown(test_estimate_bounds_cap_error, setup, teardown),
      cmocka_unit_test_setup_teardown(test_estimate_bounds_cylinder_error, setup, teardown),
      cmocka_unit_test_setup_teardown(test_parent_estimate_bounds_fixed_leaf_error, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
