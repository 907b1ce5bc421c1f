/* test_geom_polyhedron.c: convex polyhedra (geom/polyhedron.c) against closed forms.
 *
 * Oracles: box moments integrated by hand; simplex moments from the Dirichlet formula
 * int_{x,y,z >= 0, x+y+z <= s} x^a y^b z^c dV = a! b! c! s^(a+b+c+3) / (a+b+c+3)!; the
 * conservation law (the two sides of a plane add up to the whole box); a rotated box's
 * moments from its own frame, R diag(.) R^T. Every clipped polyhedron is also checked to be
 * closed (each directed edge has its reverse exactly once). */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/vec3.h"

/* fails unless every directed edge (a, b) appears once and (b, a) once, vertices are used,
 * faces have >= 3 vertices */
static void check_closed(const vxg_poly *p) {
  if (p->nvert == 0) {
    assert_int_equal(p->nface, 0);
    return;
  }
  assert_true(p->nface >= 4);
  int used[VXG_POLY_MAX_VERTS] = {0};
  for (int f = 0; f < p->nface; f++) {
    int k = p->face_n[f];
    assert_true(k >= 3 && k <= VXG_POLY_MAX_FACE_VERTS);
    for (int i = 0; i < k; i++) {
      int a = p->face[f][i], b = p->face[f][(i + 1) % k];
      assert_true(a >= 0 && a < p->nvert && a != b);
      used[a] = 1;
      int fwd = 0, rev = 0;
      for (int g = 0; g < p->nface; g++) {
        int kg = p->face_n[g];
        for (int j = 0; j < kg; j++) {
          int c = p->face[g][j], d = p->face[g][(j + 1) % kg];
          fwd += (c == a && d == b);
          rev += (c == b && d == a);
        }
      }
      assert_int_equal(fwd, 1);
      assert_int_equal(rev, 1);
    }
  }
  for (int i = 0; i < p->nvert; i++) {
    assert_true(used[i]);
  }
}


/* fails unless the moments agree to `tol` times a scale of each order */
static void check_moments(const vxg_moments *m, const vxg_moments *want, double len, double tol) {
  double v = fabs(want->m0) + 1e-300;
  assert_double_near(m->m0, want->m0, tol * v);
  for (int a = 0; a < 3; a++) {
    assert_double_near(m->m1[a], want->m1[a], tol * v * len);
  }
  for (int k = 0; k < 6; k++) {
    assert_double_near(m->m2[k], want->m2[k], tol * v * len * len);
  }
}


static void rand_rotation(vxc_rng *r, vxg_xform *x) {
  double ax[3] = {vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1)};
  assert_int_equal(vxg_xform_axis_angle(x, ax, vxc_rng_uniform(r, -3, 3)), 0);
}


// the box [0,1]x[0,2]x[0,3] as a polyhedron and in closed form has V = 6, int x = 3, ...
static void test_poly_box_moments_match_hand_integrals(void **state) {
  (void)state;
  /* int x = 2*3 * 1/2 = 3, int y = 1*3 * 2 = 6, int z = 1*2 * 9/2 = 9;
   * int x^2 = 6 * 1/3 = 2, int y^2 = 3 * 8/3 = 8, int z^2 = 2 * 9 = 18;
   * int xy = 3 * 1/2 * 2 = 3, int yz = 1 * 2 * 9/2 = 9, int xz = 2 * 1/2 * 9/2 = 4.5 */
  const vxg_moments want = {6, {3, 6, 9}, {2, 8, 18, 3, 9, 4.5}};
  const double c[3] = {0.5, 1, 1.5}, e[3] = {0.5, 1, 1.5};
  vxg_poly p;
  vxg_poly_box(&p, c, e);
  assert_int_equal(p.nvert, 8);
  assert_int_equal(p.nface, 6);
  check_closed(&p);
  vxg_moments m, mb;
  vxg_poly_moments(&p, &m);
  vxg_box_moments(c, e, &mb);
  check_moments(&m, &want, 3, 1e-14);
  check_moments(&mb, &want, 3, 1e-14);
}


// cutting the unit box by x+y+z <= s (s <= 1) leaves the corner simplex: V = s^3/6, ...
static void test_poly_corner_cut_matches_simplex_moments(void **state) {
  (void)state;
  const double c[3] = {0.5, 0.5, 0.5}, e[3] = {0.5, 0.5, 0.5}, n[3] = {1, 1, 1};
  const double svals[] = {0.1, 0.37, 0.9, 1.0};
  for (size_t i = 0; i < sizeof svals / sizeof svals[0]; i++) {
    double s = svals[i];
    vxg_poly p;
    vxg_poly_box(&p, c, e);
    assert_int_equal(vxg_poly_clip(&p, n, s), 0);
    check_closed(&p);
    assert_int_equal(p.nvert, 4);
    assert_int_equal(p.nface, 4);
    /* Dirichlet: int 1 = s^3/3!, int x = s^4/4!, int x^2 = 2 s^5/5!, int xy = s^5/5! */
    double s3 = s * s * s, s4 = s3 * s, s5 = s4 * s;
    vxg_moments want = {s3 / 6,
                        {s4 / 24, s4 / 24, s4 / 24},
                        {s5 / 60, s5 / 60, s5 / 60, s5 / 120, s5 / 120, s5 / 120}};
    vxg_moments m;
    vxg_poly_moments(&p, &m);
    check_moments(&m, &want, s, 1e-13);
  }
  /* s = 2.5: the box minus the simplex of size 0.5 at the corner (1,1,1); its volume */
  vxg_poly p;
  vxg_poly_box(&p, c, e);
  assert_int_equal(vxg_poly_clip(&p, n, 2.5), 0);
  check_closed(&p);
  vxg_moments m;
  vxg_poly_moments(&p, &m);
  assert_double_near(m.m0, 1 - 0.125 / 6, 1e-14);
  /* first moment: box's 1/2 minus the simplex's V * (1 - 0.5/4) */
  assert_double_near(m.m1[0], 0.5 - 0.125 / 6 * (1 - 0.125), 1e-14);
}


// clipping by (n, d) and (-n, -d) splits a box into parts whose moments add up to the box's
static void test_poly_two_sides_of_random_planes_sum_to_box(void **state) {
  (void)state;
  vxc_rng r = {0x9E3779B97F4A7C15ULL};
  for (int it = 0; it < 5000; it++) {
    double c[3], e[3], q[3], n[3];
    for (int a = 0; a < 3; a++) {
      c[a] = vxc_rng_uniform(&r, -3, 3);
      e[a] = vxc_rng_uniform(&r, 0.01, 2);
      q[a] = c[a] + vxc_rng_uniform(&r, -1.2, 1.2) * e[a]; /* sometimes outside */
      n[a] = vxc_rng_uniform(&r, -1, 1);
    }
    double d = n[0] * q[0] + n[1] * q[1] + n[2] * q[2];
    double nm[3] = {-n[0], -n[1], -n[2]};
    vxg_poly a, b;
    vxg_poly_box(&a, c, e);
    vxg_poly_box(&b, c, e);
    assert_int_equal(vxg_poly_clip(&a, n, d), 0);
    assert_int_equal(vxg_poly_clip(&b, nm, -d), 0);
    check_closed(&a);
    check_closed(&b);
    vxg_moments ma, mb, box, sum;
    vxg_poly_moments(&a, &ma);
    vxg_poly_moments(&b, &mb);
    vxg_box_moments(c, e, &box);
    assert_true(ma.m0 >= 0 && mb.m0 >= 0);
    sum.m0 = ma.m0 + mb.m0;
    for (int k = 0; k < 3; k++) {
      sum.m1[k] = ma.m1[k] + mb.m1[k];
    }
    for (int k = 0; k < 6; k++) {
      sum.m2[k] = ma.m2[k] + mb.m2[k];
    }
    double len = fabs(c[0]) + fabs(c[1]) + fabs(c[2]) + e[0] + e[1] + e[2];
    check_moments(&sum, &box, len, 1e-12);
  }
}


// planes through vertices and along edges of random boxes still split them exactly
static void test_poly_planes_through_vertices_and_edges_conserve(void **state) {
  (void)state;
  vxc_rng r = {12345};
  for (int it = 0; it < 3000; it++) {
    double c[3], e[3];
    for (int a = 0; a < 3; a++) {
      c[a] = vxc_rng_uniform(&r, -1, 1);
      e[a] = vxc_rng_uniform(&r, 0.1, 1);
    }
    vxg_poly box;
    vxg_poly_box(&box, c, e);
    int k0 = (int)vxc_rng_uniform(&r, 0, 8), k1 = (int)vxc_rng_uniform(&r, 0, 8);
    double n[3];
    if (it % 3 == 0 || k0 == k1) {
      /* through vertex k0 only */
      for (int a = 0; a < 3; a++) {
        n[a] = vxc_rng_uniform(&r, -1, 1);
      }
    } else {
      /* through the segment k0 k1 (an edge, a face diagonal or a space diagonal) */
      double t[3], u[3] = {vxc_rng_uniform(&r, -1, 1), vxc_rng_uniform(&r, -1, 1),
                           vxc_rng_uniform(&r, -1, 1)};
      for (int a = 0; a < 3; a++) {
        t[a] = box.v[k1][a] - box.v[k0][a];
      }
      n[0] = t[1] * u[2] - t[2] * u[1];
      n[1] = t[2] * u[0] - t[0] * u[2];
      n[2] = t[0] * u[1] - t[1] * u[0];
    }
    if (it % 7 == 0) {
      /* axis-aligned normals through a vertex: coplanar with faces */
      n[0] = n[1] = n[2] = 0;
      n[it % 3] = (it & 8) ? 1 : -1;
    }
    double d = n[0] * box.v[k0][0] + n[1] * box.v[k0][1] + n[2] * box.v[k0][2];
    double nm[3] = {-n[0], -n[1], -n[2]};
    vxg_poly a = box, b = box;
    assert_int_equal(vxg_poly_clip(&a, n, d), 0);
    assert_int_equal(vxg_poly_clip(&b, nm, -d), 0);
    check_closed(&a);
    check_closed(&b);
    vxg_moments ma, mb, mbox;
    vxg_poly_moments(&a, &ma);
    vxg_poly_moments(&b, &mb);
    vxg_box_moments(c, e, &mbox);
    vxg_moments sum = {ma.m0 + mb.m0, {0, 0, 0}, {0, 0, 0, 0, 0, 0}};
    for (int k = 0; k < 3; k++) {
      sum.m1[k] = ma.m1[k] + mb.m1[k];
    }
    for (int k = 0; k < 6; k++) {
      sum.m2[k] = ma.m2[k] + mb.m2[k];
    }
    check_moments(&sum, &mbox, 3, 1e-12);
  }
}


// hand cases on the cube [-1,1]^3: through three vertices, along two edges, along a face
static void test_poly_cube_cuts_through_vertices_and_edges(void **state) {
  (void)state;
  const double c[3] = {0, 0, 0}, e[3] = {1, 1, 1};
  vxg_poly p;
  vxg_moments m;
  /* x + y + z <= 1 passes through (1,1,-1), (1,-1,1), (-1,1,1): removes the simplex of
   * edge 2 at (1,1,1), volume 8/6 */
  const double n1[3] = {1, 1, 1};
  vxg_poly_box(&p, c, e);
  assert_int_equal(vxg_poly_clip(&p, n1, 1), 0);
  check_closed(&p);
  assert_int_equal(p.nvert, 7);
  assert_int_equal(p.nface, 7);
  vxg_poly_moments(&p, &m);
  assert_double_near(m.m0, 8 - 8.0 / 6, 1e-14);
  /* the simplex's centroid is (1,1,1) - (2/4)(1,1,1) = (1/2,...): m1 = -V_s * 1/2 */
  assert_double_near(m.m1[0], -(8.0 / 6) * 0.5, 1e-14);
  /* x <= y along two opposite edges: the prism over the triangle (-1,-1), (-1,1), (1,1),
   * centroid (-1/3, 1/3, 0), volume 4 */
  const double n2[3] = {1, -1, 0};
  vxg_poly_box(&p, c, e);
  assert_int_equal(vxg_poly_clip(&p, n2, 0), 0);
  check_closed(&p);
  assert_int_equal(p.nvert, 6);
  assert_int_equal(p.nface, 5);
  vxg_poly_moments(&p, &m);
  assert_double_near(m.m0, 4, 1e-14);
  assert_double_near(m.m1[0], -4.0 / 3, 1e-14);
  assert_double_near(m.m1[1], 4.0 / 3, 1e-14);
  assert_double_near(m.m1[2], 0, 1e-14);
  /* int over the prism of z^2 = 2 * 2/3 = 4/3 (area 2 times int_{-1}^{1} z^2) */
  assert_double_near(m.m2[2], 4.0 / 3, 1e-14);
  /* x <= 1 along the +x face, and 2x <= 2 + 1e-17 (rounding level): unchanged */
  const double n3[3] = {1, 0, 0}, n4[3] = {2, 0, 0};
  vxg_poly_box(&p, c, e);
  vxg_poly before = p;
  assert_int_equal(vxg_poly_clip(&p, n3, 1), 0);
  assert_int_equal(vxg_poly_clip(&p, n4, 2 - 1e-15), 0);
  assert_int_equal(p.nvert, 8);
  assert_int_equal(p.nface, 6);
  assert_memory_equal(p.v, before.v, sizeof p.v[0] * 8);
  /* x <= -1 along the -x face keeps a flat set: empty */
  vxg_poly_box(&p, c, e);
  assert_int_equal(vxg_poly_clip(&p, n3, -1), 0);
  assert_int_equal(p.nvert, 0);
  assert_int_equal(p.nface, 0);
}


// clipping a big box by the six faces of a rotated box inside it gives the rotated box
static void test_poly_six_clips_rebuild_a_rotated_box(void **state) {
  (void)state;
  vxc_rng r = {777};
  for (int it = 0; it < 200; it++) {
    vxg_xform rot;
    rand_rotation(&r, &rot);
    double h[3], o[3];
    for (int a = 0; a < 3; a++) {
      h[a] = vxc_rng_uniform(&r, 0.05, 0.5);
      o[a] = vxc_rng_uniform(&r, -0.3, 0.3);
    }
    vxg_poly p;
    const double big_c[3] = {0.1, -0.2, 0.05}, big_e[3] = {2, 2, 2};
    vxg_poly_box(&p, big_c, big_e);
    for (int a = 0; a < 3; a++) {
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        /* face: sgn * R_a . (x - o) <= h_a, R_a = column a of R */
        double n[3] = {sgn * rot.r[0 * 3 + a], sgn * rot.r[1 * 3 + a], sgn * rot.r[2 * 3 + a]};
        double d = h[a] + n[0] * o[0] + n[1] * o[1] + n[2] * o[2];
        assert_int_equal(vxg_poly_clip(&p, n, d), 0);
        check_closed(&p);
      }
    }
    assert_int_equal(p.nvert, 8);
    assert_int_equal(p.nface, 6);
    /* moments: V = 8 h0 h1 h2, m1 = V o, m2 = R diag(V h_a^2 / 3) R^T + V o o^T */
    double v = 8 * h[0] * h[1] * h[2];
    vxg_moments want = {v, {v * o[0], v * o[1], v * o[2]}, {0}};
    for (int k = 0; k < 6; k++) {
      int i = VXG_SYM_ROW[k], j = VXG_SYM_COL[k];
      double s = v * o[i] * o[j];
      for (int a = 0; a < 3; a++) {
        s += rot.r[i * 3 + a] * rot.r[j * 3 + a] * v * h[a] * h[a] / 3;
      }
      want.m2[k] = s;
    }
    vxg_moments m;
    vxg_poly_moments(&p, &m);
    check_moments(&m, &want, 1, 1e-12);
  }
}


// a plane with the whole box on its far side empties it; one on its near side changes nothing
static void test_poly_clip_to_empty_and_clip_that_changes_nothing(void **state) {
  (void)state;
  const double c[3] = {1, 2, 3}, e[3] = {0.1, 0.2, 0.3}, n[3] = {0.3, -0.4, 0.5};
  vxg_poly p, before;
  memset(&p, 0, sizeof p); /* the byte comparison below also reads the unused slots */
  vxg_poly_box(&p, c, e);
  before = p;
  double dc = n[0] * c[0] + n[1] * c[1] + n[2] * c[2];
  assert_int_equal(vxg_poly_clip(&p, n, dc + 1), 0);
  assert_memory_equal(&p, &before, sizeof p);
  assert_int_equal(vxg_poly_clip(&p, n, dc - 1), 0);
  assert_int_equal(p.nvert, 0);
  assert_int_equal(p.nface, 0);
  vxg_moments m;
  vxg_poly_moments(&p, &m);
  assert_double_near(m.m0, 0, 0);
  /* clipping the empty polyhedron keeps it empty */
  assert_int_equal(vxg_poly_clip(&p, n, dc + 1), 0);
  assert_int_equal(p.nvert, 0);
}


// clipping by ever more tangent planes of a sphere eventually returns -1, leaving p as it was
static void test_poly_capacity_overflow_returns_minus_one_unchanged(void **state) {
  (void)state;
  const double c[3] = {0, 0, 0}, e[3] = {1, 1, 1};
  vxg_poly p;
  memset(&p, 0, sizeof p); /* the byte comparison below also reads the unused slots */
  vxg_poly_box(&p, c, e);
  int failed = 0;
  /* golden-spiral directions, tangent planes of the sphere of radius 0.95 */
  for (int k = 0; k < 400 && !failed; k++) {
    double z = 1 - (2 * k + 1) / 400.0, rho = sqrt(1 - z * z), phi = k * 2.399963229728653;
    double n[3] = {rho * cos(phi), rho * sin(phi), z};
    vxg_poly before = p;
    int rc = vxg_poly_clip(&p, n, 0.95);
    if (rc == -1) {
      failed = 1;
      assert_memory_equal(&p, &before, sizeof p);
    } else {
      assert_int_equal(rc, 0);
      check_closed(&p);
    }
  }
  assert_true(failed);
  /* whatever was built is still a polyhedron between the inscribed and circumscribed sets */
  vxg_moments m;
  vxg_poly_moments(&p, &m);
  assert_true(m.m0 > 4.0 / 3 * M_PI * 0.95 * 0.95 * 0.95 && m.m0 < 8);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_poly_box_moments_match_hand_integrals),
      cmocka_unit_test(test_poly_corner_cut_matches_simplex_moments),
      cmocka_unit_test(test_poly_two_sides_of_random_planes_sum_to_box),
      cmocka_unit_test(test_poly_planes_through_vertices_and_edges_conserve),
      cmocka_unit_test(test_poly_cube_cuts_through_vertices_and_edges),
      cmocka_unit_test(test_poly_six_clips_rebuild_a_rotated_box),
      cmocka_unit_test(test_poly_clip_to_empty_and_clip_that_changes_nothing),
      cmocka_unit_test(test_poly_capacity_overflow_returns_minus_one_unchanged),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
