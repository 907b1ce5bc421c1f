/* test_voxel_contact.c: the octree integrator on two cells (voxel/octree.c) against closed
 * forms (tests/voxel_exact.h): spherical caps at four depths, a lens, a concave contact, a
 * rotated box pair, a cylinder lying on a table, an ellipsoid cap; the certified bracket must
 * contain the exact volume in every case; figures must not depend on the thread count (nor
 * on the hull test, which must end a query of disjoint hulls before any box); the
 * error must fall at least as h^2 as the leaf halves. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "voxel/voxel.h"
#include "tests/counting_alloc.h"
#include "tests/voxel_exact.h"


/* fails unless the result matches (V, c, J) within rel_v on V, rel_c times `size` on the
 * centroid, rel_j times max |J| on J, and unless the bracket contains V */
static void check(const vxv_result *r, double V, const double c[3], const double J[9], double size,
                  double rel_v, double rel_c, double rel_j) {
  assert_true(r->volume_lo <= V);
  assert_true(r->volume_hi >= V);
  assert_true(r->volume_lo <= r->volume && r->volume <= r->volume_hi);
  assert_double_rel(r->volume, V, rel_v);
  for (int i = 0; i < 3; i++) {
    assert_double_near(r->centroid[i], c[i], rel_c * size);
  }
  double jm = 0;
  for (int i = 0; i < 9; i++) {
    jm = fmax(jm, fabs(J[i]));
  }
  for (int i = 0; i < 9; i++) {
    assert_double_near(r->inertia[i], J[i], rel_j * jm);
  }
}


static vxg_cell *sphere_cell(fixture *f, const char *name, double R) {
  vx_prim_spec p = {VXG_SPHERE, {R}, 1, 0, NULL};
  vxg_cell *c = vx_cell(f->s, name, &p, 1);
  assert_non_null(c);
  return c;
}


static vxg_cell *box_cell(fixture *f, const char *name, double lx, double ly, double lz) {
  vx_prim_spec p = {VXG_BOX, {lx, ly, lz}, 3, 0, NULL};
  vxg_cell *c = vx_cell(f->s, name, &p, 1);
  assert_non_null(c);
  return c;
}


/* a ball of radius 0.1 sunk d into a table whose top is z = 0: the spherical cap */
static void cap_case(fixture *f, double d, const vxv_options *o, vxv_result *r, double *V,
                     double c[3], double J[9]) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "ball%d", n);
  vxg_cell *ball = sphere_cell(f, name, 0.1);
  snprintf(name, sizeof name, "table%d", n++);
  vxg_cell *table = box_cell(f, name, 1, 1, 0.1);
  vxg_xform xb, xt;
  vxg_xform_translation(&xb, 0.0123, -0.0071, 0.1 - d);
  vxg_xform_translation(&xt, 0.02, 0.01, -0.05);
  assert_int_equal(vxv_intersect(f->ws, ball, &xb, table, &xt, o, r), VXC_OK);
  /* the cap's flat face is at z = 0, its apex at z = -d: s runs along -z */
  const double o0[3] = {0.0123, -0.0071, 0}, u[3] = {0, 0, -1};
  vx_axial_world(vx_cap(0.1, d), o0, u, V, c, J);
}


// a sphere sunk 10 um to 1 cm into a half-space gives the spherical cap's V, centroid and J
static void test_voxel_sphere_cap_matches_closed_form_at_four_depths(void **state) {
  fixture *f = *state;
  const double depths[4] = {1e-5, 1e-4, 1e-3, 1e-2};
  for (int i = 0; i < 4; i++) {
    vxv_options o;
    vx_octree_options(&o);
    o.rtol = 0;
    o.h_min = sqrt(2 * 0.1 * depths[i]) / 8; /* an eighth of the cap's radius */
    vxv_result r;
    double V, c[3], J[9];
    cap_case(f, depths[i], &o, &r, &V, c, J);
    /* the centroid is checked against the cap's depth, J against its largest moment */
    check(&r, V, c, J, depths[i], 1e-5, 1e-4, 2e-4);
    /* the principal moments: J_zz about the axis, J_xx = J_yy across it */
    assert_double_rel(r.inertia[8], J[8], 2e-4);
    assert_double_rel(r.inertia[0], J[0], 2e-4);
    assert_double_rel(r.inertia[4], J[4], 2e-4);
    /* the area vector points from the ball into the table with the cap's disc area */
    double area = M_PI * (2 * 0.1 * depths[i] - depths[i] * depths[i]);
    assert_double_rel(r.contact_area, area, 2e-3);
    assert_true(r.area_vector[2] < -0.999 * r.contact_area);
    assert_true(r.peak_bytes < VXV_DEFAULT_MAX_BYTES);
  }
}


// under the certified rtol rule the bracket is narrower than rtol V and contains the truth
static void test_voxel_sphere_cap_rtol_rule_meets_its_tolerance(void **state) {
  fixture *f = *state;
  const double depths[2] = {1e-4, 1e-3};
  for (int i = 0; i < 2; i++) {
    vxv_options o;
    vx_octree_options(&o);
    o.rtol = 1e-2;
    o.certified = 1;
    vxv_result r;
    double V, c[3], J[9];
    cap_case(f, depths[i], &o, &r, &V, c, J);
    assert_false(r.capped);
    assert_true(r.volume_hi - r.volume_lo <= o.rtol * r.volume);
    check(&r, V, c, J, depths[i], o.rtol, 1e-3, 1e-3);
    assert_true(r.rounds >= 2);
  }
}


// a leaf edge far larger than a shallow cap (32 mm over a 2.2 mm wide, 25 um deep cap) is
// halved until the cap is resolved: its volume to 2%, inside the certified bracket, and the
// leaves actually integrated are smaller than the edge asked for
static void test_voxel_cap_smaller_than_the_leaf_is_resolved_by_halving(void **state) {
  fixture *f = *state;
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 0;
  o.h_min = 0.032;
  vxv_result r;
  double V, c[3], J[9];
  cap_case(f, 25e-6, &o, &r, &V, c, J);
  assert_double_rel(r.volume, V, 2e-2);
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
  assert_true(r.leaf_size_min > 0 && r.leaf_size_min < 0.032);
  assert_true(r.volume >= 0.5 * (r.volume_hi - r.volume_lo));
}


// two overlapping spheres along an oblique axis give the lens of two caps
static void test_voxel_two_spheres_give_the_lens(void **state) {
  fixture *f = *state;
  vxg_cell *a = sphere_cell(f, "a", 0.1), *b = sphere_cell(f, "b", 0.08);
  double u[3] = {0.48, -0.6, 0.64}; /* unit */
  const double c1[3] = {0.3, -0.2, 0.1}, d = 0.15;
  vxg_xform xa, xb;
  vxg_xform_translation(&xa, c1[0], c1[1], c1[2]);
  vxg_xform_translation(&xb, c1[0] + d * u[0], c1[1] + d * u[1], c1[2] + d * u[2]);
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 0;
  o.h_min = 0.01;
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, &o, &r), VXC_OK);
  double V, c[3], J[9];
  vx_axial_world(vx_lens(0.1, 0.08, d), c1, u, &V, c, J);
  check(&r, V, c, J, 0.03, 1e-4, 1e-4, 1e-4);
  /* the area vector of A's surface inside B points from A toward B */
  double dot = r.area_vector[0] * u[0] + r.area_vector[1] * u[1] + r.area_vector[2] * u[2];
  assert_true(dot > 0.999 * r.contact_area);
}


// a ball pressed into the wall of a spherical cavity overlaps the block by ball minus lens
static void test_voxel_ball_in_a_cavity_gives_ball_minus_lens(void **state) {
  fixture *f = *state;
  const double Rb = 0.2, r0 = 0.05, dist = Rb - r0 + 0.01;
  vx_prim_spec block[2] = {{VXG_BOX, {0.6, 0.6, 0.6}, 3, 0, NULL}, {VXG_SPHERE, {Rb}, 1, 1, NULL}};
  vxg_cell *cav = vx_cell(f->s, "block", block, 2);
  assert_non_null(cav);
  vxg_cell *ball = sphere_cell(f, "ball", r0);
  const double u[3] = {0.6, 0, 0.8}, o0[3] = {0.01, 0.02, -0.03};
  vxg_xform xc, xball;
  vxg_xform_translation(&xc, o0[0], o0[1], o0[2]);
  vxg_xform_translation(&xball, o0[0] + dist * u[0], o0[1] + dist * u[1], o0[2] + dist * u[2]);
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 0;
  o.h_min = 0.004;
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, ball, &xball, cav, &xc, &o, &r), VXC_OK);
  /* ball (centred at s = dist) minus the lens of the cavity sphere and the ball */
  vx_axial whole = vx_axial_move(vx_sphere(r0), 1, dist);
  vx_axial part = vx_axial_add(whole, vx_lens(Rb, r0, dist), -1);
  double V, c[3], J[9];
  vx_axial_world(part, o0, u, &V, c, J);
  check(&r, V, c, J, 0.02, 1e-4, 1e-4, 1e-4);
  /* A is the ball: its surface inside the block faces outward from the cavity, along u */
  double dot = r.area_vector[0] * u[0] + r.area_vector[1] * u[1] + r.area_vector[2] * u[2];
  assert_true(dot > 0.99 * r.contact_area);
}


static void rotate_sym(const vxg_xform *x, const double J[9], double out[9]) {
  /* out = R J R^T */
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int k = 0; k < 3; k++) {
        for (int l = 0; l < 3; l++) {
          s += x->r[3 * i + k] * J[3 * k + l] * x->r[3 * j + l];
        }
      }
      out[3 * i + j] = s;
    }
  }
}


// a box turned 45 degrees pokes an edge p into a cube: a triangular prism, exact at any size
static void test_voxel_rotated_boxes_give_the_triangular_prism(void **state) {
  fixture *f = *state;
  vxg_cell *a = box_cell(f, "cube", 1, 1, 1), *b = box_cell(f, "bar", 1, 1, 2);
  vxc_rng rng = {42};
  for (int it = 0; it < 4; it++) {
    const double p = 0.1 + 0.05 * it;
    /* the cube at the origin, the bar turned 45 degrees about z with its edge at x = 0.5 - p */
    vxg_xform rb, tb, xb0, world, xa, xb;
    const double z[3] = {0, 0, 1};
    vxg_xform_axis_angle(&rb, z, M_PI / 4);
    vxg_xform_translation(&tb, 0.5 - p + sqrt(0.5), 0, 0);
    vxg_xform_compose(&xb0, &tb, &rb);
    /* then both by a random rigid motion */
    double ax[3] = {vxc_rng_uniform(&rng, -1, 1), vxc_rng_uniform(&rng, -1, 1),
                    vxc_rng_uniform(&rng, -1, 1)};
    vxg_xform_axis_angle(&world, ax, vxc_rng_uniform(&rng, -3, 3));
    for (int i = 0; i < 3; i++) {
      world.t[i] = vxc_rng_uniform(&rng, -1, 1);
    }
    xa = world;
    vxg_xform_compose(&xb, &world, &xb0);
    vxv_options o;
    vx_octree_options(&o);
    vxv_result r;
    assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, &o, &r), VXC_OK);
    /* prism: triangle of base 2p (along y, at x = 0.5) and height p (along x), length 1 in z;
     * int y^2 dA = h b^3 / 48 = p^4 / 6, int (x - xc)^2 dA = b h^3 / 36 = p^4 / 18 */
    double V = p * p, c0[3] = {0.5 - p / 3, 0, 0}, c[3];
    double J0[9] = {p * p * p * p / 6 + p * p / 12,        0, 0, 0,
                    p * p * p * p / 18 + p * p / 12,       0, 0, 0,
                    p * p * p * p / 6 + p * p * p * p / 18};
    double J[9];
    vxg_xform_point(&world, c0, c);
    rotate_sym(&world, J0, J);
    /* planes only: exact up to rounding */
    check(&r, V, c, J, 1, 1e-10, 1e-10, 1e-10);
    assert_true(r.volume_hi - r.volume_lo <= 1e-10 * V);
  }
}


/* The finite cylinder R, L (axis z in its cell) as cell "roller". */
static vxg_cell *roller_cell(fixture *f, double R, double L) {
  vx_prim_spec cyl[2] = {{VXG_CYLINDER, {R}, 1, 0, NULL},
                         {VXG_SLAB, {2, -L / 2, L / 2}, 3, 0, NULL}};
  vxg_cell *c = vx_cell(f->s, "roller", cyl, 2);
  assert_non_null(c);
  return c;
}


/* The prism of circular segments of depth d of that cylinder lying along x on a table whose
 * top is z = 0, its axis over the origin: V, centroid c and J about it (world axes). */
static void segment_prism(double R, double L, double d, double *V, double c[3], double J[9]) {
  double seg[4];
  vx_segment(R, d, seg);
  double A = seg[0], wc = seg[1] / A, w2 = seg[2] - A * wc * wc, u2 = seg[3];
  *V = A * L;
  c[0] = c[1] = 0;
  c[2] = R - d + wc;
  const double J0[9] = {
      L * (u2 + w2), 0, 0, 0, A * L * L * L / 12 + L * w2, 0, 0, 0, A * L * L * L / 12 + L * u2};
  memcpy(J, J0, sizeof J0);
}


// a cylinder lying on a table overlaps it in a circular-segment prism
static void test_voxel_cylinder_on_table_gives_segment_prism(void **state) {
  fixture *f = *state;
  const double R = 0.05, L = 0.3, d = 0.004;
  vxg_cell *c = roller_cell(f, R, L);
  vxg_cell *table = box_cell(f, "table", 1, 1, 0.1);
  /* axis z turned onto x, at height R - d */
  vxg_xform rot, tr, xc, xt;
  const double y[3] = {0, 1, 0};
  vxg_xform_axis_angle(&rot, y, M_PI / 2);
  vxg_xform_translation(&tr, 0.01, -0.02, R - d);
  vxg_xform_compose(&xc, &tr, &rot);
  vxg_xform_translation(&xt, 0, 0, -0.05);
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 0;
  o.h_min = 0.002;
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, c, &xc, table, &xt, &o, &r), VXC_OK);
  double V, cc[3], J[9];
  segment_prism(R, L, d, &V, cc, J);
  cc[0] += 0.01;
  cc[1] += -0.02;
  check(&r, V, cc, J, d, 1e-4, 1e-3, 1e-4);
  /* contact area: the segment's chord times the length */
  double chord = 2 * sqrt(2 * R * d - d * d);
  assert_double_rel(r.contact_area, chord * L, 1e-3);
}


// the same roller turned about the vertical at seeded angles (a quarter of them multiples of
// 90 degrees): the same segment prism turned, under the estimate rule, in a few hundred boxes
// whatever the angle (the query works in the roller's frame, where its leaves are columns;
// in the world's axes a turned roller's cubes take over ten thousand boxes)
static void test_voxel_turned_cylinder_on_table_in_its_frame(void **state) {
  fixture *f = *state;
  const double R = 0.05, L = 0.3, d = 0.004;
  vxg_cell *c = roller_cell(f, R, L);
  vxg_cell *table = box_cell(f, "table", 1, 1, 0.1);
  double V, c0[3], J0[9];
  segment_prism(R, L, d, &V, c0, J0);
  vxc_rng rng = {2026};
  for (int it = 0; it < 8; it++) {
    double yaw = it % 4 == 0 ? M_PI / 2 * (it / 4) : vxc_rng_uniform(&rng, 0, 2 * M_PI);
    vxg_xform rot, turn, tr, xc, xt, t1;
    const double y[3] = {0, 1, 0}, z[3] = {0, 0, 1};
    vxg_xform_axis_angle(&rot, y, M_PI / 2);
    vxg_xform_axis_angle(&turn, z, yaw);
    vxg_xform_translation(&tr, 0.01, -0.02, R - d);
    vxg_xform_compose(&t1, &turn, &rot);
    vxg_xform_compose(&xc, &tr, &t1);
    vxg_xform_translation(&xt, 0, 0, -0.05);
    vxv_options o;
    vx_octree_options(&o);
    o.rtol = 1e-4;
    vxv_result r;
    assert_int_equal(vxv_intersect(f->ws, c, &xc, table, &xt, &o, &r), VXC_OK);
    double cc[3], J[9];
    vxg_xform_vector(&turn, c0, cc);
    cc[0] += 0.01;
    cc[1] += -0.02;
    rotate_sym(&turn, J0, J);
    check(&r, V, cc, J, d, 1e-4, 1e-3, 1e-4);
    assert_false(r.capped);
    assert_true(r.boxes < 1000);
  }
}


// an ellipsoid sunk into a table gives the sphere cap stretched by the affine map
static void test_voxel_ellipsoid_cap_is_the_affine_image_of_a_sphere_cap(void **state) {
  fixture *f = *state;
  const double a = 0.12, b = 0.07, cz = 0.05, d = 0.003;
  vx_prim_spec e = {VXG_ELLIPSOID, {a, b, cz}, 3, 0, NULL};
  vxg_cell *ell = vx_cell(f->s, "egg", &e, 1);
  assert_non_null(ell);
  vxg_cell *table = box_cell(f, "table", 1, 1, 0.1);
  vxg_xform xe, xt;
  vxg_xform_translation(&xe, -0.03, 0.04, cz - d);
  vxg_xform_translation(&xt, 0, 0, -0.05);
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 0;
  o.h_min = 0.002;
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, ell, &xe, table, &xt, &o, &r), VXC_OK);
  /* x' = (a / cz) x, y' = (b / cz) y maps the sphere of radius cz onto the ellipsoid */
  vx_axial cap = vx_cap(cz, d);
  double k = a * b / (cz * cz), sc = cap.s1 / cap.v;
  double ix = (a / cz) * (a / cz) * k * cap.r2 / 2, iy = (b / cz) * (b / cz) * k * cap.r2 / 2;
  double iz = k * (cap.s2 - cap.v * sc * sc);
  double V = k * cap.v, c[3] = {-0.03, 0.04, -sc};
  double J[9] = {iy + iz, 0, 0, 0, ix + iz, 0, 0, 0, ix + iy};
  check(&r, V, c, J, d, 1e-4, 1e-4, 1e-4);
}


/* second moments about the origin of the box centred at c with half-edge e (all axes) */
static void box_s2(double e, const double c[3], double V, double s2[9]) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      s2[3 * i + j] = V * (c[i] * c[j] + (i == j) * e * e / 3);
    }
  }
}


// a cube over the corner of a box-shaped cavity is the cube minus their common corner, exactly
// (a complemented primitive with several MIXED atoms: inclusion and exclusion in the leaves)
static void test_voxel_cube_over_a_cavity_corner_is_cube_minus_overlap(void **state) {
  fixture *f = *state;
  vx_prim_spec block[2] = {{VXG_BOX, {0.6, 0.6, 0.6}, 3, 0, NULL},
                           {VXG_BOX, {0.2, 0.2, 0.2}, 3, 1, NULL}};
  vxg_cell *cav = vx_cell(f->s, "block", block, 2);
  assert_non_null(cav);
  vxg_cell *cube = box_cell(f, "cube", 0.1, 0.1, 0.1);
  /* in the block's frame: the cube [0.05, 0.15]^3 minus the cavity's corner [0.05, 0.1]^3 */
  const double ca[3] = {0.1, 0.1, 0.1}, cc[3] = {0.075, 0.075, 0.075};
  double va = 1e-3, vc = 0.05 * 0.05 * 0.05, V = va - vc, c0[3], sa[9], sc[9], J0[9];
  for (int i = 0; i < 3; i++) {
    c0[i] = (va * ca[i] - vc * cc[i]) / V;
  }
  box_s2(0.05, ca, va, sa);
  box_s2(0.025, cc, vc, sc);
  /* J = tr(C) I - C with C the second moments about the centroid */
  double C[9], tr = 0;
  for (int i = 0; i < 9; i++) {
    C[i] = sa[i] - sc[i] - V * c0[i / 3] * c0[i % 3];
  }
  tr = C[0] + C[4] + C[8];
  for (int i = 0; i < 9; i++) {
    J0[i] = (i % 4 == 0 ? tr : 0) - C[i];
  }
  /* both turned and moved together */
  vxg_xform world, xcube;
  const double ax[3] = {1, 2, -0.5};
  vxg_xform_axis_angle(&world, ax, 0.4);
  world.t[0] = 0.3;
  vxg_xform_translation(&xcube, ca[0], ca[1], ca[2]);
  vxg_xform_compose(&xcube, &world, &xcube);
  double c[3], J[9];
  vxg_xform_point(&world, c0, c);
  rotate_sym(&world, J0, J);
  for (int k = 0; k < 2; k++) {
    vxv_options o;
    vx_octree_options(&o);
    if (k == 1) {
      o.rtol = 0;
      o.h_min = 0.004;
    }
    vxv_result r;
    assert_int_equal(vxv_intersect(f->ws, cube, &xcube, cav, &world, &o, &r), VXC_OK);
    /* planes only, the cavity's corner by inclusion and exclusion: exact at any leaf size */
    check(&r, V, c, J, 0.1, 1e-10, 1e-10, 1e-10);
    assert_true(r.volume_hi - r.volume_lo <= 1e-10 * V);
  }
}


// a ball centred on the apex of a conical hole overlaps the block by the ball minus the
// spherical sector, V = 4/3 pi r^3 - 2/3 pi r^3 (1 - cos a), the sector's centroid at
// 3 r (1 + cos a) / 8 (a complemented primitive with a curved atom and a plane)
static void test_voxel_ball_in_a_conical_hole_is_ball_minus_sector(void **state) {
  fixture *f = *state;
  const double a = M_PI / 6, r0 = 0.05;
  vx_prim_spec block[2] = {{VXG_BOX, {0.4, 0.4, 0.4}, 3, 0, NULL}, {VXG_CONE, {a}, 1, 1, NULL}};
  vxg_cell *cav = vx_cell(f->s, "countersunk", block, 2);
  assert_non_null(cav);
  vxg_cell *ball = sphere_cell(f, "ball", r0);
  vxg_xform x;
  const double ax[3] = {0.2, -1, 0.3};
  vxg_xform_axis_angle(&x, ax, 1.1);
  x.t[0] = 0.05;
  x.t[1] = -0.02;
  x.t[2] = 0.01;
  double vs = 2.0 / 3 * M_PI * r0 * r0 * r0 * (1 - cos(a));
  double V = 4.0 / 3 * M_PI * r0 * r0 * r0 - vs;
  double zc = -vs * 3 * r0 * (1 + cos(a)) / 8 / V;
  const double c0[3] = {0, 0, zc};
  double c[3];
  vxg_xform_point(&x, c0, c);
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 0;
  o.h_min = r0 / 32;
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, ball, &x, cav, &x, &o, &r), VXC_OK);
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
  assert_double_rel(r.volume, V, 1e-4);
  for (int i = 0; i < 3; i++) {
    assert_double_near(r.centroid[i], c[i], 1e-4 * r0);
  }
}


// one, two and three threads give bitwise identical figures
static void test_voxel_results_do_not_depend_on_thread_count(void **state) {
  fixture *f = *state;
  vxg_cell *a = sphere_cell(f, "a", 0.1), *b = sphere_cell(f, "b", 0.08);
  vxg_xform xa, xb;
  vxg_xform_translation(&xa, 0, 0, 0);
  vxg_xform_translation(&xb, 0.1, 0.07, 0.05);
  for (int rule = 0; rule < 2; rule++) {
    vxv_result r[3];
    for (int t = 0; t < 3; t++) {
      vxv_options o;
      vx_octree_options(&o);
      o.threads = t + 1;
      if (rule == 0) {
        o.rtol = 0;
        o.h_min = 0.004;
      } else {
        o.rtol = 3e-3;
      }
      assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, &o, &r[t]), VXC_OK);
    }
    for (int t = 1; t < 3; t++) {
      assert_memory_equal(&r[t].volume, &r[0].volume, sizeof(double) * 3);
      assert_memory_equal(r[t].centroid, r[0].centroid, sizeof r[0].centroid);
      assert_memory_equal(r[t].inertia, r[0].inertia, sizeof r[0].inertia);
      assert_memory_equal(r[t].area_vector, r[0].area_vector, sizeof r[0].area_vector);
      assert_memory_equal(&r[t].mom, &r[0].mom, sizeof r[0].mom);
      assert_true(r[t].boxes == r[0].boxes && r[t].leaves == r[0].leaves);
    }
  }
}


// as the leaf edge halves, the volume error (tangent planes) and the bracket shrink about 4x,
// and the re-centred planes' error falls faster still
static void test_voxel_error_falls_as_h_squared_on_cap_and_lens(void **state) {
  fixture *f = *state;
  vxg_cell *a = sphere_cell(f, "a", 0.1), *b = sphere_cell(f, "b", 0.08);
  vxg_cell *table = box_cell(f, "table", 1, 1, 0.1);
  for (int which = 0; which < 2; which++) {
    vxg_xform xa, xb;
    double V;
    double c[3], J[9];
    const vxg_cell *cb;
    double h0;
    if (which == 0) {
      /* the 1 mm cap */
      vxg_xform_translation(&xa, 0.0123, -0.0071, 0.1 - 1e-3);
      vxg_xform_translation(&xb, 0, 0, -0.05);
      const double o0[3] = {0, 0, 0}, u[3] = {0, 0, -1};
      vx_axial_world(vx_cap(0.1, 1e-3), o0, u, &V, c, J);
      cb = table;
      h0 = 0.004;
    } else {
      const double o0[3] = {0, 0, 0}, u[3] = {1, 0, 0};
      vxg_xform_translation(&xa, 0, 0, 0);
      vxg_xform_translation(&xb, 0.15, 0, 0);
      vx_axial_world(vx_lens(0.1, 0.08, 0.15), o0, u, &V, c, J);
      cb = b;
      h0 = 0.02;
    }
    double err[3], width[3], err_mean[3];
    for (int k = 0; k < 3; k++) {
      for (int plane = 0; plane < 2; plane++) {
        vxv_options o;
        vx_octree_options(&o);
        o.rtol = 0;
        o.h_min = h0 / (1 << k);
        o.plane = plane ? VXV_PLANE_TANGENT : VXV_PLANE_MEAN;
        vxv_result r;
        assert_int_equal(vxv_intersect(f->ws, a, &xa, cb, &xb, &o, &r), VXC_OK);
        assert_true(r.volume_lo <= V && V <= r.volume_hi);
        if (plane) {
          err[k] = fabs(r.volume - V);
          width[k] = r.volume_hi - r.volume_lo;
        } else {
          err_mean[k] = fabs(r.volume - V);
        }
      }
    }
    for (int k = 1; k < 3; k++) {
      /* h^2 would divide by 4; allow for the leaves' discrete placement */
      assert_true(err[k] <= err[k - 1] / 3);
      assert_true(width[k] <= width[k - 1] / 3);
    }
    /* the re-centred planes converge faster but less regularly: over two halvings, by more
     * than h^2's 16, and always below the tangent planes' error */
    assert_true(err_mean[2] <= err_mean[0] / 16);
    for (int k = 0; k < 3; k++) {
      assert_true(err_mean[k] < err[k]);
    }
  }
}


// bounding boxes apart: no contact, zero volume, nothing else touched
static void test_voxel_separated_cells_report_no_contact(void **state) {
  fixture *f = *state;
  vxg_cell *a = sphere_cell(f, "a", 0.1), *b = sphere_cell(f, "b", 0.1);
  vxg_xform xa, xb;
  vxg_xform_translation(&xa, 0, 0, 0);
  vxg_xform_translation(&xb, 0.3, 0, 0);
  vxv_result r;
  assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, NULL, &r), VXC_NO_CONTACT);
  assert_double_near(r.volume, 0, 0);
  assert_double_near(r.volume_hi, 0, 0);
  /* boxes overlap but the spheres do not: still no contact, bracket [0, 0] */
  vxg_xform_translation(&xb, 0.17, 0.17, 0);
  assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, NULL, &r), VXC_NO_CONTACT);
  assert_double_near(r.volume_hi, 0, 0);
}


// the hull test: disjoint hulls whose boxes overlap end the query with no box counted, on
// one thread (before the root grid) and on two (beside it); overlapping hulls leave every
// figure bitwise as without the test, and give MPR's direction from A toward B
static void test_voxel_hull_test_decides_and_changes_nothing_else(void **state) {
  fixture *f = *state;
  vxg_cell *a = sphere_cell(f, "a", 0.1), *b = sphere_cell(f, "b", 0.08);
  vxg_xform xa, xb;
  vxg_xform_translation(&xa, 0, 0, 0);
  for (int t = 1; t <= 2; t++) {
    vxv_options o;
    vx_octree_options(&o);
    o.rtol = 0;
    o.h_min = 0.004;
    o.threads = t;
    o.hull_test = 1;
    vxv_result r, plain;
    /* centres 0.19 m apart along (1, 1, 0) / sqrt(2): 0.01 m of gap, boxes overlapping */
    vxg_xform_translation(&xb, 0.19 / sqrt(2), 0.19 / sqrt(2), 0);
    assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, &o, &r), VXC_NO_CONTACT);
    assert_int_equal(r.hull_tested, 1);
    assert_int_equal(r.mpr_status, VXC_OK);
    assert_int_equal(r.mpr.overlap, 0);
    assert_true(r.boxes == 0 && r.leaves == 0);
    assert_double_near(r.volume_hi, 0, 0);
    /* 0.17 m apart along x: a lens 0.01 m thick */
    vxg_xform_translation(&xb, 0.17, 0, 0);
    assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, &o, &r), VXC_OK);
    assert_int_equal(r.hull_tested, 1);
    assert_int_equal(r.mpr.overlap, 1);
    assert_true(r.mpr.dir[0] > 0.99);
    o.hull_test = 0;
    assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, &o, &plain), VXC_OK);
    assert_int_equal(plain.hull_tested, 0);
    assert_memory_equal(&r.volume, &plain.volume, sizeof(double) * 3);
    assert_memory_equal(r.centroid, plain.centroid, sizeof r.centroid);
    assert_memory_equal(r.inertia, plain.inertia, sizeof r.inertia);
    assert_true(r.boxes == plain.boxes && r.leaves == plain.leaves);
    double V, c[3], J[9];
    const double c0[3] = {0, 0, 0}, u[3] = {1, 0, 0};
    vx_axial_world(vx_lens(0.1, 0.08, 0.17), c0, u, &V, c, J);
    assert_true(r.volume_lo <= V && V <= r.volume_hi);
  }
}


// under the fixed-leaf rule, the planar bracket (vxv_options.planar_bracket) changes only the
// volume bracket: every other figure bit for bit the same, the bracket no narrower than the
// third-order one and still holding the cap's and the lens's exact volume
static void test_voxel_planar_bracket_changes_the_bracket_alone(void **state) {
  fixture *f = *state;
  vxg_cell *a = sphere_cell(f, "pa", 0.1), *b = sphere_cell(f, "pb", 0.08);
  const double depths[3] = {1e-5, 1e-4, 1e-3};
  for (int i = 0; i < 4; i++) {
    vxv_options o;
    vx_octree_options(&o);
    o.rtol = 0;
    vxv_result r, p;
    double V, c[3], J[9];
    if (i < 3) {
      o.h_min = sqrt(2 * 0.1 * depths[i]) / 8;
      cap_case(f, depths[i], &o, &r, &V, c, J);
      o.planar_bracket = 1;
      cap_case(f, depths[i], &o, &p, &V, c, J);
    } else { /* a lens 0.01 m thick */
      vxg_xform xa, xb;
      vxg_xform_translation(&xa, 0, 0, 0);
      vxg_xform_translation(&xb, 0.17, 0, 0);
      o.h_min = 0.004;
      assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, &o, &r), VXC_OK);
      o.planar_bracket = 1;
      assert_int_equal(vxv_intersect(f->ws, a, &xa, b, &xb, &o, &p), VXC_OK);
      const double c0[3] = {0, 0, 0}, u[3] = {1, 0, 0};
      vx_axial_world(vx_lens(0.1, 0.08, 0.17), c0, u, &V, c, J);
    }
    assert_memory_equal(&r.volume, &p.volume, sizeof r.volume);
    assert_memory_equal(r.centroid, p.centroid, sizeof r.centroid);
    assert_memory_equal(r.inertia, p.inertia, sizeof r.inertia);
    assert_memory_equal(r.area_vector, p.area_vector, sizeof r.area_vector);
    assert_memory_equal(&r.error_estimate, &p.error_estimate, sizeof r.error_estimate);
    assert_memory_equal(&r.moment_width, &p.moment_width, sizeof r.moment_width);
    assert_true(r.boxes == p.boxes && r.leaves == p.leaves);
    assert_true(p.volume_lo <= r.volume_lo && p.volume_hi >= r.volume_hi);
    assert_true(p.volume_lo <= V && V <= p.volume_hi);
    /* the third-order bracket is the narrower one where it applies (one quadric a leaf) */
    assert_true(i == 3 || p.volume_hi - p.volume_lo > r.volume_hi - r.volume_lo);
  }
}


// bad options and NULL arguments are refused and leave the result untouched
static void test_voxel_bad_arguments_return_arg_error(void **state) {
  fixture *f = *state;
  vxg_cell *a = sphere_cell(f, "a", 0.1);
  vxg_xform x;
  vxg_xform_identity(&x);
  vxv_result r, before;
  memset(&r, 0x5a, sizeof r);
  before = r;
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 0;
  o.h_min = 0;
  assert_int_equal(vxv_intersect(f->ws, a, &x, a, &x, &o, &r), VXC_ERR_ARG);
  vx_octree_options(&o);
  o.rtol = -1;
  assert_int_equal(vxv_intersect(f->ws, a, &x, a, &x, &o, &r), VXC_ERR_ARG);
  vx_octree_options(&o);
  o.h_min = NAN;
  assert_int_equal(vxv_intersect(f->ws, a, &x, a, &x, &o, &r), VXC_ERR_ARG);
  assert_int_equal(vxv_intersect(f->ws, NULL, &x, a, &x, NULL, &r), VXC_ERR_ARG);
  assert_int_equal(vxv_intersect(NULL, a, &x, a, &x, NULL, &r), VXC_ERR_ARG);
  vxg_xform bad = x;
  bad.t[1] = INFINITY;
  assert_int_equal(vxv_intersect(f->ws, a, &bad, a, &x, NULL, &r), VXC_ERR_ARG);
  assert_memory_equal(&r, &before, sizeof r);
  assert_int_equal(vxv_workspace_create(NULL, NULL), VXC_ERR_ARG);
}


// a workspace whose allocator fails reports VXC_ERR_NOMEM at creation or at the query, also
// when the refusal comes while the leaves are stored (that is not taken as the memory cap)
static void test_voxel_allocation_failures_return_nomem(void **state) {
  fixture *f = *state;
  vxg_cell *a = sphere_cell(f, "a", 0.1), *b = sphere_cell(f, "b", 0.08);
  vxg_xform xa, xb;
  vxg_xform_translation(&xa, 0, 0, 0);
  vxg_xform_translation(&xb, 0.15, 0, 0);
  int ok = 0;
  for (int n = 0; n < 10000 && !ok; n++) {
    counter c = {0, 0, n}; /* grants allocations 0 .. n - 1 */
    vxc_allocator al = {counting_realloc, &c};
    vxv_workspace *ws = NULL;
    vxc_status st = vxv_workspace_create(&al, &ws);
    if (st != VXC_OK) {
      assert_int_equal(st, VXC_ERR_NOMEM);
      assert_null(ws);
      continue;
    }
    vxv_result r;
    vxv_options o;
    vx_octree_options(&o);
    st = vxv_intersect(ws, a, &xa, b, &xb, &o, &r);
    if (st == VXC_OK) {
      ok = 1;
    } else {
      assert_int_equal(st, VXC_ERR_NOMEM);
    }
    vxv_workspace_free(ws);
    assert_int_equal(c.live, 0);
  }
  assert_true(ok);
}


// a memory cap smaller than the leaves need stops refinement: capped, bracket still valid
static void test_voxel_memory_cap_is_reported_not_exceeded(void **state) {
  fixture *f = *state;
  vxv_options o;
  vx_octree_options(&o);
  o.rtol = 1e-4;
  o.certified = 1; /* the bracket-driven rule: it needs the leaves the cap refuses */
  o.max_bytes = 3 << 18;
  vxv_result r;
  double V, c[3], J[9];
  cap_case(f, 1e-3, &o, &r, &V, c, J);
  assert_true(r.capped);
  assert_true(r.peak_bytes <= ((size_t)3 << 18) + (1 << 16));
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
  /* the work cap likewise */
  vx_octree_options(&o);
  o.rtol = 1e-4;
  o.certified = 1;
  o.max_boxes = 2000;
  cap_case(f, 1e-3, &o, &r, &V, c, J);
  assert_true(r.capped);
  assert_true(r.boxes <= 2000 + 64 * 8);
  assert_true(r.volume_lo <= V && V <= r.volume_hi);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_voxel_sphere_cap_matches_closed_form_at_four_depths,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_sphere_cap_rtol_rule_meets_its_tolerance, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_cap_smaller_than_the_leaf_is_resolved_by_halving,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_two_spheres_give_the_lens, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_ball_in_a_cavity_gives_ball_minus_lens, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_rotated_boxes_give_the_triangular_prism, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_turned_cylinder_on_table_in_its_frame, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_cylinder_on_table_gives_segment_prism, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_ellipsoid_cap_is_the_affine_image_of_a_sphere_cap,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_cube_over_a_cavity_corner_is_cube_minus_overlap,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_ball_in_a_conical_hole_is_ball_minus_sector, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_results_do_not_depend_on_thread_count, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_error_falls_as_h_squared_on_cap_and_lens, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_hull_test_decides_and_changes_nothing_else, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_separated_cells_report_no_contact, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_planar_bracket_changes_the_bracket_alone, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_voxel_bad_arguments_return_arg_error, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_allocation_failures_return_nomem, setup, teardown),
      cmocka_unit_test_setup_teardown(test_voxel_memory_cap_is_reported_not_exceeded, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
