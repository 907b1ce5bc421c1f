/* test_closed_form.c: the closed-form caps and lenses (geom/cap.c, voxel/closed.c) against
 * independent answers: the formulas of tests/voxel_exact.h (derived there on their own) and
 * the octree with the closed form off at rtol 1e-6, whose certified bracket must meet the
 * closed form's. Seeded random poses: radii 1e-3 to 1 m, depths 1e-5 to 1 of the radius,
 * plane normals random and along the axes. Then the decisions: the tippe-top's cells (a
 * sphere cut by its own plane) on a table at several tilts, a truncating plane that cuts the
 * cap (the octree must run), tangent, apart and contained cases; and through the library:
 * a task's tracked pair reaches the closed form, and patches see one leaf. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"
#include "lib/vxc.h"


static vxg_cell *box_cell(fixture *f, double lx, double ly, double lz) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "box%d", n++);
  vx_prim_spec p = {VXG_BOX, {lx, ly, lz}, 3, 0, NULL};
  vxg_cell *c = vx_cell(f->s, name, &p, 1);
  assert_non_null(c);
  return c;
}


/* The closed form cf against the exact (V, c, J), `size` the contact's size (for the
 * centroid), `rel` the relative accuracy asked (the bracket: a hundred times it). */
static void check_exact(const vxv_result *cf, double V, const double c[3], const double J[9],
                        double size, double rel) {
  assert_true(cf->volume_lo <= V && V <= cf->volume_hi);
  assert_true(cf->volume_hi - cf->volume_lo <= 100 * rel * V);
  assert_double_rel(cf->volume, V, rel);
  assert_double_near(cf->error_estimate, 0, 0);
  assert_int_equal(cf->leaves, 1);
  assert_false(cf->capped);
  double jm = 0;
  for (int i = 0; i < 9; i++) {
    jm = fmax(jm, fabs(J[i]));
  }
  for (int i = 0; i < 3; i++) {
    assert_double_near(cf->centroid[i], c[i], rel * size + 1e-15 * fabs(c[i]));
  }
  for (int i = 0; i < 9; i++) {
    assert_double_near(cf->inertia[i], J[i], rel * jm);
  }
}


/* The octree oct against the closed form cf (vx_check_octree at VX_OCT_RTOL). */
static void check_octree(const vxv_result *cf, const vxv_result *oct, double size) {
  vx_check_octree(cf, oct, size, VX_OCT_RTOL);
}


// a ball of radius 1 mm to 1 m sunk 1e-5 to 1 of its radius into a box's face (any
// orientation, anywhere within a metre): the cap's V, centroid, J and area vector of the
// independent formula to 1e-9, and the octree's at rtol 1e-6, ball first or table first
static void test_cap_random_poses(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x9E3779B97F4A7C15ULL};
  for (int i = 0; i < 24; i++) {
    double R = pow(10, vxc_rng_uniform(&g, -3, 0)), d = R * pow(10, vxc_rng_uniform(&g, -5, 0));
    double n[3], P[3], c[3], tb[3];
    vx_random_dir(&g, i, n);
    for (int k = 0; k < 3; k++) {
      P[k] = vxc_rng_uniform(&g, -1, 1);
      c[k] = P[k] + (R - d) * n[k];
    }
    /* the box's top face through P, the box 8 R wide, 3 R thick, its centre off the cap's */
    vxg_xform xb, xs;
    double off[3] = {vxc_rng_uniform(&g, -R, R), vxc_rng_uniform(&g, -R, R), -1.5 * R};
    vx_frame_z_to(n, (double[3]){0, 0, 0}, &xb);
    vxg_xform_vector(&xb, off, tb);
    for (int k = 0; k < 3; k++) {
      xb.t[k] = P[k] + tb[k];
    }
    vxg_xform_translation(&xs, c[0], c[1], c[2]);
    vxg_cell *ball = vx_sphere_cell(f, R), *table = box_cell(f, 8 * R, 8 * R, 3 * R);
    double V, cc[3], J[9], u[3] = {-n[0], -n[1], -n[2]};
    vx_axial_world(vx_cap(R, d), P, u, &V, cc, J);
    double area = M_PI * d * (2 * R - d);
    vxv_result cf, oct;
    vxc_status st[2];
    int ball_first = i % 2;
    if (ball_first) {
      vx_both_oct(f, ball, &xs, table, &xb, 1, &cf, &oct, st);
    } else {
      vx_both_oct(f, table, &xb, ball, &xs, 1, &cf, &oct, st);
    }
    assert_int_equal(st[0], VXC_OK);
    assert_int_equal(st[1], VXC_OK);
    /* the depth carries the poses' rounding (a metre away): 1e-15 of it relative to d */
    check_exact(&cf, V, cc, J, d, 1e-9 + 1e-15 / (d / 1.0));
    double s = ball_first ? -1 : 1; /* the ball's surface points into the table */
    for (int k = 0; k < 3; k++) {
      assert_double_near(cf.area_vector[k], s * area * n[k], 1e-9 * area);
    }
    check_octree(&cf, &oct, sqrt(d * (2 * R - d)));
  }
}


// two balls of radii 1 mm to 1 m overlapping by 1e-5 to 1 of the smaller radius along a
// random line: the lens of the independent formula and of the octree; the area vector of
// A's surface points from A's centre to B's
static void test_lens_random_poses(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x2545F4914F6CDD1DULL};
  for (int i = 0; i < 16; i++) {
    double r1 = pow(10, vxc_rng_uniform(&g, -3, 0)), r2 = r1 * pow(10, vxc_rng_uniform(&g, -1, 1));
    double dep = fmin(r1, r2) * pow(10, vxc_rng_uniform(&g, -5, 0)), dist = r1 + r2 - dep;
    double u[3], c1[3], c2[3];
    vx_random_dir(&g, i, u);
    for (int k = 0; k < 3; k++) {
      c1[k] = vxc_rng_uniform(&g, -1, 1);
      c2[k] = c1[k] + dist * u[k];
    }
    vxg_xform x1, x2;
    vxg_xform_translation(&x1, c1[0], c1[1], c1[2]);
    vxg_xform_translation(&x2, c2[0], c2[1], c2[2]);
    vxg_cell *a = vx_sphere_cell(f, r1), *b = vx_sphere_cell(f, r2);
    double V, cc[3], J[9];
    vx_axial_world(vx_lens(r1, r2, dist), c1, u, &V, cc, J);
    vxv_result cf, oct;
    vxc_status st[2];
    vx_both_oct(f, a, &x1, b, &x2, 1, &cf, &oct, st);
    assert_int_equal(st[0], VXC_OK);
    check_exact(&cf, V, cc, J, dep, 1e-9 + 1e-15 / dep);
    double h1 = dep * (2 * r2 - dep) / (2 * dist), area = M_PI * h1 * (2 * r1 - h1);
    for (int k = 0; k < 3; k++) {
      assert_double_near(cf.area_vector[k], area * u[k], 1e-9 * area + 1e-15);
    }
    if (dep > 1e-4 * fmin(r1, r2)) { /* shallower lenses cost the octree too much here */
      check_octree(&cf, &oct, sqrt(h1 * (2 * r1 - h1)));
    }
  }
}


/* The tippe-top (data/tippe-top.vxm) tilted by `tilt` about x, its lowest point `depth`
 * into the table (data/table.vxm); each of its cells against the table top, with the
 * closed form on and off. Returns the number of pairs the closed form took. */
static int tippe_top_case(fixture *f, const vxg_solid *top, const vxg_solid *table, double tilt,
                          double depth) {
  /* the lowest point: the large sphere's (r1 = 15 mm, centre at the origin) or the small
     one's (r2 = 5 mm, centre 13 mm up the axis), whichever is lower */
  double ax = -sin(tilt), az = cos(tilt); /* the axis (0, ax, az) after the tilt about x */
  double z1 = -0.015, z2 = 0.013 * az - 0.005;
  double zc = -fmin(z1, z2) - depth;
  vxg_xform pose;
  const double xaxis[3] = {1, 0, 0};
  assert_int_equal(vxg_xform_axis_angle(&pose, xaxis, tilt), 0);
  pose.t[0] = 0.0123;
  pose.t[1] = -0.031;
  pose.t[2] = zc;
  (void)ax;
  const vxg_cell *tc = table->cell[0];
  const vxg_xform *tt = &tc->pose; /* the table's solid at the identity */
  int took = 0;
  for (int k = 0; k < top->ncell; k++) {
    const vxg_cell *cell = top->cell[k];
    vxg_xform xc;
    vxg_xform_compose(&xc, &pose, &cell->pose);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result cf, oct;
    vxc_status s0 = vxv_intersect(f->ws, cell, &xc, tc, tt, &o, &cf);
    o.closed_form = 0;
    o.rtol = VX_OCT_RTOL;
    vxc_status s1 = vxv_intersect(f->ws, cell, &xc, tc, tt, &o, &oct);
    assert_int_equal(s0 == VXC_OK && cf.volume > 0, s1 == VXC_OK && oct.volume > 0);
    if (!(cf.volume > 0)) {
      continue;
    }
    took += cf.closed_form;
    if (cf.closed_form) {
      check_octree(&cf, &oct, sqrt(2 * 0.015 * depth));
    } else {
      /* the octree ran: the same query as with the closed form off, at rtol 1e-3 */
      assert_true(cf.volume_lo <= oct.volume_hi && oct.volume_lo <= cf.volume_hi);
      assert_double_rel(cf.volume, oct.volume, 3e-3);
    }
  }
  return took;
}


// the tippe-top's cells (each a sphere cut by the plane where the spheres meet) 20 um into
// the table at tilts from 0 to 180 degrees: the cap of the lower sphere in closed form (its
// cell's plane decided over it), agreeing with the octree; at acos(-10/13) both spheres
// touch, each cap in closed form
static void test_tippe_top_cells_on_a_table(void **state) {
  fixture *f = *state;
  vxg_solid *top = NULL, *table = NULL;
  vxc_error err;
  assert_int_equal(vxg_model_read(NULL, vxc_test_data("tippe-top.vxm"), &top, &err), VXC_OK);
  assert_int_equal(vxg_model_read(NULL, vxc_test_data("table.vxm"), &table, &err), VXC_OK);
  const double tilts[6] = {0, 0.1, 0.8, 1.6, 2.0, 3.1};
  for (int i = 0; i < 6; i++) {
    assert_int_equal(tippe_top_case(f, top, table, tilts[i], 2e-5), 1);
  }
  assert_int_equal(tippe_top_case(f, top, table, acos(-10.0 / 13), 2e-5), 2);
  vxg_solid_free(top);
  vxg_solid_free(table);
}


// a sphere cut by its own half-space: with the plane well above the cap the closed form
// holds; with the plane through the cap (the ball's bottom cut off) the octree runs and
// measures the truncated cap (a slab of the ball: V = pi int (R^2 - z^2) dz)
static void test_own_plane_cutting_the_cap_falls_back(void **state) {
  fixture *f = *state;
  const double R = 0.05, d = 0.004;
  vxg_cell *table = box_cell(f, 1, 1, 0.1);
  vxg_xform xt, xs;
  vxg_xform_translation(&xt, 0, 0, -0.05);
  vxg_xform_translation(&xs, 0, 0, R - d);
  for (int cut = 0; cut < 2; cut++) {
    /* ball frame: z <= 0.3 R (a plane above the cap, as the tippe-top's), or z >= zc with
       zc halfway down the cap (its bottom cut off) */
    double zc = cut ? -R + 0.5 * d : 0.3 * R, sz = cut ? -1 : 1;
    vx_prim_spec p[2] = {{VXG_SPHERE, {R}, 1, 0, NULL},
                         {VXG_HALFSPACE, {0, 0, sz, sz * zc}, 4, 0, NULL}};
    char name[32];
    snprintf(name, sizeof name, "cut%d", cut);
    vxg_cell *ball = vx_cell(f->s, name, p, 2);
    assert_non_null(ball);
    vxv_result cf, oct;
    vxc_status st[2];
    vx_both_oct(f, ball, &xs, table, &xt, !cut, &cf, &oct, st);
    assert_int_equal(st[0], VXC_OK);
    double z0 = cut ? zc : -R, z1 = -R + d; /* ball frame: the part below the table top */
    double V = M_PI * (R * R * (z1 - z0) - (z1 * z1 * z1 - z0 * z0 * z0) / 3);
    assert_true(oct.volume_lo <= V && V <= oct.volume_hi);
    if (cut) {
      assert_true(cf.volume_lo <= V && V <= cf.volume_hi);
      assert_double_rel(cf.volume, V, 3e-3);
    } else {
      assert_double_rel(cf.volume, V, 1e-12);
      check_octree(&cf, &oct, sqrt(d * (2 * R - d)));
    }
  }
}


// a ball wholly inside a box, a small ball wholly inside a large one: the whole smaller
// ball, its area vector zero; a ball apart from a tilted box whose bounding box it meets,
// and two balls apart or just tangent: no contact, volume 0
static void test_contained_tangent_and_apart(void **state) {
  fixture *f = *state;
  const double R = 0.02;
  vxg_cell *ball = vx_sphere_cell(f, R), *box = box_cell(f, 0.2, 0.2, 0.2),
           *big = vx_sphere_cell(f, 0.1);
  vxg_xform xs, xb, xg;
  vxg_xform_translation(&xs, 0.03, -0.05, 0.07);
  vxg_xform_translation(&xb, 0.01, 0, 0.02);
  vxg_xform_translation(&xg, 0, 0, 0);
  double V = 4.0 / 3 * M_PI * R * R * R;
  vxv_result cf, oct;
  vxc_status st[2];
  vx_both_oct(f, ball, &xs, box, &xb, 1, &cf, &oct, st);
  assert_int_equal(st[0], VXC_OK);
  assert_double_rel(cf.volume, V, 1e-14);
  assert_true(cf.volume_lo <= V && V <= cf.volume_hi);
  assert_double_near(cf.contact_area, 0, 1e-18);
  vxg_xform_translation(&xs, 0.03, -0.02, 0.03); /* 0.047 from the big one's centre */
  vx_both_oct(f, big, &xg, ball, &xs, 1, &cf, &oct, st);
  assert_double_rel(cf.volume, V, 1e-14);
  assert_double_near(cf.centroid[0], 0.03, 1e-15);
  assert_true(oct.volume_lo <= V && V <= oct.volume_hi);
  /* a box turned 30 degrees about y, the ball 1 nm off its face x' = 0.1 along the face's
     normal: the bounding boxes meet, the cap of that face is empty */
  const double y[3] = {0, 1, 0}, ex[3] = {1, 0, 0};
  vxg_xform rot;
  assert_int_equal(vxg_xform_axis_angle(&rot, y, M_PI / 6), 0);
  double nf[3];
  vxg_xform_vector(&rot, ex, nf);
  vxg_xform_translation(&xs, (0.1 + R + 1e-9) * nf[0], 0, (0.1 + R + 1e-9) * nf[2]);
  vx_both_oct(f, ball, &xs, box, &rot, 1, &cf, &oct, st);
  assert_int_equal(st[0], VXC_NO_CONTACT);
  assert_int_equal(st[1], VXC_NO_CONTACT);
  assert_double_near(cf.volume_hi, 0, 0);
  /* balls tangent (the small one's centre R + 0.1 away along a diagonal) and a little apart */
  for (int k = 0; k < 2; k++) {
    double s = (0.1 + R + k * 1e-9) / sqrt(3);
    vxg_xform_translation(&xs, s, s, s);
    vx_both_oct(f, big, &xg, ball, &xs, 1, &cf, &oct, st);
    assert_true(cf.volume <= cf.volume_hi && cf.volume_hi < 1e-25);
    assert_true(k == 0 || cf.volume == 0);
    assert_true(st[1] == VXC_NO_CONTACT || oct.volume_lo <= cf.volume_hi);
  }
}


/* ---- through the library ---------------------------------------------------------------- */

static const char *TASK =
    "(task ball (gravity 0 0 -9.81) (duration 0.4)\n"
    "  (integrator adaptive (rtol 1e-6) (max-step 2e-3))\n"
    "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
    "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 "
    "0.008)) (pose 0 0 0.15))\n"
    "  (contact table ball (params (k_v 1e7)) (rtol 1e-3) %s))";

static long long run_task(const char *extra, long long *queries) {
  char text[600];
  snprintf(text, sizeof text, TASK, extra);
  vxc_task *t = NULL;
  vxc_error err;
  const char *dir = getenv("VXC_DATADIR");
  assert_int_equal(
      vxc_task_parse(text, strlen(text), "ball.vxt", dir ? dir : "../data", NULL, &t, &err),
      VXC_OK);
  vxc_task_summary s;
  assert_int_equal(vxc_task_run(t, NULL, NULL, NULL, &s, &err), VXC_OK);
  *queries = s.queries;
  vxc_task_free(t);
  return s.closed_form_queries;
}


// a task's tracked pair (the ball dropped on the table, leaf hints between queries) is
// measured in closed form once in contact; with (closed-form off) never
static void test_task_pair_reaches_closed_form(void **state) {
  (void)state;
  long long q_on, q_off;
  long long on = run_task("", &q_on), off = run_task("(closed-form off)", &q_off);
  assert_true(on > 0);    /* it lands at 0.1 s of 0.4 */
  assert_true(on < q_on); /* not before */
  assert_int_equal(off, 0);
  assert_true(q_off > 0);
}


// a closed-form pair is one patch (patches are on by default), one leaf of the region,
// carrying the pair's figures
static void test_patches_of_a_closed_form_pair(void **state) {
  (void)state;
  vxc_solid *ball = NULL, *table = NULL;
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &ball, NULL), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data("table.vxm"), NULL, &table, NULL), VXC_OK);
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.region = 1;
  vxc_pose pb = {{0.01, 0.02, 0.099}, {1, 0, 0, 0}};
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, table, NULL, ball, &pb, &o, NULL, NULL, &m, NULL), VXC_OK);
  assert_int_equal(m.npair, 1);
  const vxc_pair_metrics *p = &m.pair[0];
  assert_int_equal(p->closed_form, 1);
  assert_int_equal(p->npatch, 1);
  assert_double_rel(p->patch[0].volume, p->geom.volume, 1e-12);
  assert_double_rel(p->geom.volume, M_PI * 1e-6 * (0.1 - 1e-3 / 3), 1e-9);
  const vxc_region_box *rb;
  size_t nb;
  assert_int_equal(vxc_query_region(q, &rb, &nb, NULL), VXC_OK);
  assert_int_equal(nb, 1);
  assert_int_equal(rb[0].leaf, 1);
  assert_double_rel(rb[0].extent[2], 1e-3, 1e-9); /* the cap's bounding box: its depth */
  /* the penetration along the normal is the cap's depth */
  assert_double_near(p->penetration, 1e-3, 1e-9);
  /* the table tilted 0.3 rad about x, the ball 1 mm into its top along the face's normal:
     the region's one box is no cube, and the penetration bracket still holds the depth */
  vxc_pose pt = {{0, 0, 0}, {cos(0.15), sin(0.15), 0, 0}};
  double n[3] = {0, -sin(0.3), cos(0.3)};
  for (int k = 0; k < 3; k++) {
    pb.p[k] = (k == 0 ? 0.01 : 0) + (0.1 - 1e-3) * n[k];
  }
  assert_int_equal(vxc_query_run(q, table, &pt, ball, &pb, &o, NULL, NULL, &m, NULL), VXC_OK);
  p = &m.pair[0];
  assert_int_equal(p->closed_form, 1);
  assert_true(p->penetration_lo <= 1e-3 * (1 + 1e-9) && 1e-3 * (1 - 1e-9) <= p->penetration_hi);
  assert_double_near(p->penetration, 1e-3, 1e-9);
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(table);
}


/* A cube of edge 10 R posed by X (a random frame, every third along the world's axes) and
 * a ball of radius R posed by xs, its centre at `local` in the cube's frame (the edge along
 * x at y = z = 5 R). */
static void ball_and_cube(fixture *f, vxc_rng *g, int i, double R, const double local[3],
                          vxg_cell **ball, vxg_cell **cube, vxg_xform *X, vxg_xform *xs) {
  double u[3], P[3], c[3];
  vx_random_dir(g, i, u);
  for (int k = 0; k < 3; k++) {
    P[k] = vxc_rng_uniform(g, -1, 1);
  }
  vx_frame_z_to(u, P, X);
  vxg_xform_point(X, local, c);
  vxg_xform_translation(xs, c[0], c[1], c[2]);
  *ball = vx_sphere_cell(f, R);
  *cube = box_cell(f, 10 * R, 10 * R, 10 * R);
}


// a ball centred on a cube's edge (radius 1 mm to 1 m, the edge anywhere, any orientation):
// the ball wedge by the quadrature about the edge (closed_form 2) is a quarter ball, pi R^3
// / 3, its centroid on the bisector 3 sqrt(2) R / 8 from the edge (the lune of dihedral
// angle phi: (3 pi R / 8) sin(phi / 2) / phi); both to 1e-9
static void test_ball_on_an_edge(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xB0E5ULL};
  for (int i = 0; i < 12; i++) {
    double R = pow(10, vxc_rng_uniform(&g, -3, 0)), x0 = vxc_rng_uniform(&g, -R, R);
    double local[3] = {x0, 5 * R, 5 * R}, want[3],
           wl[3] = {x0, 5 * R - 3 * R / 8, 5 * R - 3 * R / 8};
    vxv_result r;
    vxg_xform X, xs;
    vxg_cell *ball, *cube;
    ball_and_cube(f, &g, i, R, local, &ball, &cube, &X, &xs);
    vxv_options o;
    vxv_options_default(&o);
    o.rtol = 1e-10;
    assert_int_equal(vxv_intersect(f->ws, cube, &X, ball, &xs, &o, &r), VXC_OK);
    assert_int_equal(r.closed_form, 2);
    assert_double_rel(r.volume, M_PI * R * R * R / 3, 1e-9);
    vxg_xform_point(&X, wl, want);
    for (int k = 0; k < 3; k++) {
      assert_double_near(r.centroid[k], want[k], 1e-9 * R + 1e-15 * fabs(want[k]));
    }
  }
}


// a ball over a cube's edge, its centre within R of both faces (radius 1 mm to 1 m, any
// orientation): the fast result (the quadrature where both faces cut the cap, else the cap)
// against the octree at rtol 1e-6, ball first or cube first alike; most poses take the
// quadrature
static void test_ball_over_an_edge(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xED6EULL};
  int quad = 0;
  for (int i = 0; i < 24; i++) {
    double R = pow(10, vxc_rng_uniform(&g, -3, 0));
    double local[3] = {vxc_rng_uniform(&g, -R, R), 5 * R + vxc_rng_uniform(&g, -0.95, 0.95) * R,
                       5 * R + vxc_rng_uniform(&g, -0.95, 0.95) * R};
    vxv_result r, oct;
    vxg_xform X, xs;
    vxg_cell *ball, *cube;
    vxc_status st[2];
    ball_and_cube(f, &g, i, R, local, &ball, &cube, &X, &xs);
    if (i % 2) {
      vx_both_oct(f, cube, &X, ball, &xs, -1, &r, &oct, st);
    } else {
      vx_both_oct(f, ball, &xs, cube, &X, -1, &r, &oct, st);
    }
    assert_int_equal(st[0], VXC_OK);
    assert_int_equal(st[1], VXC_OK);
    assert_true(r.closed_form >= 1);
    quad += r.closed_form == 2;
    check_octree(&r, &oct, R);
  }
  assert_true(quad >= 12);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_cap_random_poses, setup, teardown),
      cmocka_unit_test_setup_teardown(test_lens_random_poses, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tippe_top_cells_on_a_table, setup, teardown),
      cmocka_unit_test_setup_teardown(test_own_plane_cutting_the_cap_falls_back, setup, teardown),
      cmocka_unit_test_setup_teardown(test_contained_tangent_and_apart, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ball_on_an_edge, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ball_over_an_edge, setup, teardown),
      cmocka_unit_test(test_task_pair_reaches_closed_form),
      cmocka_unit_test(test_patches_of_a_closed_form_pair),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
