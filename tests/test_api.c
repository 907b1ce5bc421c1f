/* test_api.c: the public API as a user links it (black-box: only <vxc.h>). */
#include "tests/vxc_test.h"

#include "tools/mesh_gen.h"
#include "lib/vxc.h"

#include "tests/counting_alloc.h"

// the run-time version is the header's
static void test_api_version_matches_header(void **state) {
  (void)state;
  assert_string_equal(vxc_version(), VXC_VERSION);
}


// every status has its own description
static void test_api_status_strings_are_distinct(void **state) {
  (void)state;
  const vxc_status all[] = {VXC_OK,           VXC_NO_CONTACT, VXC_ERR_NOMEM,
                            VXC_ERR_ARG,      VXC_ERR_IO,     VXC_ERR_FORMAT,
                            VXC_ERR_GEOMETRY, VXC_ERR_LIMIT,  VXC_ERR_NUMERIC,
                            VXC_ERR_STOPPED};
  const int n = (int)(sizeof all / sizeof all[0]);
  for (int i = 0; i < n; i++) {
    assert_non_null(vxc_status_str(all[i]));
    assert_string_not_equal(vxc_status_str(all[i]), "unknown status");
    for (int j = 0; j < i; j++) {
      assert_string_not_equal(vxc_status_str(all[i]), vxc_status_str(all[j]));
    }
  }
  assert_string_equal(vxc_status_str((vxc_status)-99), "unknown status");
}


// a query whose stop flag is set ends at once with VXC_ERR_STOPPED (the ball 2 mm into the
// table at rtol 1e-6 by the octree alone takes many boxes), and runs whole once it is clear
static void test_api_stop_flag_ends_a_query(void **state) {
  (void)state;
  vxc_solid *ball = NULL, *table = NULL;
  vxc_query *q = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &ball, NULL), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data("table.vxm"), NULL, &table, NULL), VXC_OK);
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  volatile sig_atomic_t flag = 1;
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = 1e-6;
  o.closed_form = 0;
  o.stop = &flag;
  vxc_pose pa = {{0, 0, 0.098}, {1, 0, 0, 0}};
  vxc_metrics m;
  assert_int_equal(vxc_query_run(q, ball, &pa, table, NULL, &o, NULL, NULL, &m, &err),
                   VXC_ERR_STOPPED);
  assert_non_null(strstr(err.message, "stopped"));
  flag = 0;
  assert_int_equal(vxc_query_run(q, ball, &pa, table, NULL, &o, NULL, NULL, &m, &err), VXC_OK);
  assert_false(m.capped);
  /* the cap of a 0.1 m ball 2 mm deep */
  assert_double_rel(m.volume, M_PI * 0.002 * 0.002 * (0.1 - 0.002 / 3), 1e-5);
  vxc_query_free(q);
  vxc_solid_free(ball);
  vxc_solid_free(table);
}


// "did you mean": the name at most 2 edits away (the first of equals), else none
static void test_api_nearest_name(void **state) {
  (void)state;
  const char *const names[] = {"gravity", "duration", "record", "mu_s", "mu_c"};
  assert_string_equal(vxc_nearest_name("gravty", names, 5), "gravity");    /* a deletion */
  assert_string_equal(vxc_nearest_name("durtaion", names, 5), "duration"); /* 2 substitutions */
  assert_string_equal(vxc_nearest_name("mu_z", names, 5), "mu_s");         /* first of equals */
  assert_null(vxc_nearest_name("gravitation", names, 5));                  /* 4 insertions */
  assert_null(vxc_nearest_name("gravty", names, 0));
  assert_null(vxc_nearest_name(NULL, names, 5));
  assert_null(vxc_nearest_name("abcdefghijklmnopqrstuvwxyzabcdefg", names, 5)); /* > 32 */
  const char *const short_names[] = {"x", "yz"};
  assert_null(vxc_nearest_name("q", short_names, 2));               /* 1 edit: all of "x" */
  assert_string_equal(vxc_nearest_name("y", short_names, 2), "yz"); /* 1 edit of 2 */
}


// the ball model: one spherical cell, 2 kg over 4/3 pi 0.1^3 m^3
static void test_api_ball_loads_with_its_density(void **state) {
  (void)state;
  vxc_solid *s = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &s, &err), VXC_OK);
  assert_string_equal(vxc_solid_name(s), "ball");
  assert_int_equal(vxc_solid_cell_count(s), 1);
  double mass = vxc_solid_density(s) * 4.0 / 3.0 * M_PI * 1e-3;
  assert_double_near(mass, 2.0, 1e-5);
  vxc_cell_info c;
  assert_int_equal(vxc_solid_cell(s, 0, &c, NULL), VXC_OK);
  assert_string_equal(c.name, "body");
  assert_int_equal(c.convex, 1);
  assert_int_equal(c.exact_hull, 1);
  for (int k = 0; k < 3; k++) {
    assert_double_near(c.aabb[k], -0.1, 1e-14);  // padded by rounding units only
    assert_double_near(c.aabb[k + 3], 0.1, 1e-14);
  }
  vxc_prim_info p;
  assert_int_equal(vxc_solid_prim(s, 0, 0, &p, NULL), VXC_OK);
  assert_string_equal(p.kind, "sphere");
  assert_int_equal(p.nparam, 1);
  assert_double_near(p.param[0], 0.1, 0);
  vxc_solid_free(s);
}


// a solid's box follows its pose: a sphere's box is its centre +- r in any orientation
static void test_api_aabb_follows_pose(void **state) {
  (void)state;
  vxc_solid *s = NULL;
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &s, NULL), VXC_OK);
  vxc_pose pose = {{1, -2, 3}, {0.5, 0.5, 0.5, 0.5}};
  double box[6];
  assert_int_equal(vxc_solid_aabb(s, &pose, box, NULL), VXC_OK);
  for (int k = 0; k < 3; k++) {
    assert_double_near(box[k], pose.p[k] - 0.1, 1e-13);  // padded by rounding units only
    assert_double_near(box[k + 3], pose.p[k] + 0.1, 1e-13);
  }
  // the table top (1.0 x 0.6 x 0.04, top at z = 0) turned 90 degrees about z
  vxc_solid *t = NULL;
  assert_int_equal(vxc_solid_load(vxc_test_data("table.vxm"), NULL, &t, NULL), VXC_OK);
  vxc_pose quarter = {{0, 0, 0}, {cos(M_PI / 4), 0, 0, sin(M_PI / 4)}};
  assert_int_equal(vxc_solid_aabb(t, &quarter, box, NULL), VXC_OK);
  assert_double_near(box[0], -0.3, 1e-12);
  assert_double_near(box[3], 0.3, 1e-12);
  assert_double_near(box[1], -0.5, 1e-12);
  assert_double_near(box[4], 0.5, 1e-12);
  assert_double_near(box[2], -0.04, 1e-12);
  assert_double_near(box[5], 0.0, 1e-12);
  vxc_solid_free(t);
  vxc_solid_free(s);
}


// bad arguments return VXC_ERR_ARG and leave the output untouched
static void test_api_bad_arguments_are_refused(void **state) {
  (void)state;
  vxc_solid *s = NULL;
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &s, NULL), VXC_OK);
  vxc_pose zero_q = {{0, 0, 0}, {0, 0, 0, 0}};
  double box[6] = {7, 7, 7, 7, 7, 7};
  assert_int_equal(vxc_solid_aabb(s, &zero_q, box, NULL), VXC_ERR_ARG);
  vxc_pose nan_p = {{NAN, 0, 0}, {1, 0, 0, 0}};
  assert_int_equal(vxc_solid_aabb(s, &nan_p, box, NULL), VXC_ERR_ARG);
  assert_double_near(box[0], 7, 0);
  vxc_cell_info c;
  c.name = "untouched";
  assert_int_equal(vxc_solid_cell(s, 1, &c, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_solid_cell(s, -1, &c, NULL), VXC_ERR_ARG);
  assert_string_equal(c.name, "untouched");
  vxc_prim_info p;
  assert_int_equal(vxc_solid_prim(s, 0, 1, &p, NULL), VXC_ERR_ARG);
  vxc_error err;
  assert_int_equal(vxc_solid_load(NULL, NULL, &s, &err), VXC_ERR_ARG);
  vxc_solid_free(s);
  vxc_solid_free(NULL);
}


// a missing file is an I/O error that names the file; the output pointer is untouched
static void test_api_missing_file_names_it(void **state) {
  (void)state;
  vxc_solid *s = (vxc_solid *)(uintptr_t)0x1;
  vxc_error err;
  assert_int_equal(vxc_solid_load("/nonexistent/dir/x.vxm", NULL, &s, &err), VXC_ERR_IO);
  assert_ptr_equal(s, (vxc_solid *)(uintptr_t)0x1);
  assert_int_equal(err.status, VXC_ERR_IO);
  assert_non_null(strstr(err.message, "/nonexistent/dir/x.vxm"));
}


/* Makes a solid with the allocator `al` from what `ud` describes. */
typedef vxc_status (*make_solid)(const vxc_allocator *al, const void *ud, vxc_solid **s);

/* Fails the first n allocations of make, for n = 0, 1, 2..., until it succeeds: every
 * failure must be VXC_ERR_NOMEM with *s left NULL and nothing left allocated. */
static void assert_allocation_failures_are_clean(make_solid make, const void *ud) {
  int ok = 0;
  for (int n = 0; n < 10000 && !ok; n++) {
    counter f = {0, 0, n}; /* grants allocations 0 .. n - 1 */
    vxc_allocator al = {counting_realloc, &f};
    vxc_solid *s = NULL;
    vxc_status st = make(&al, ud, &s);
    if (st == VXC_OK) {
      ok = 1;
      vxc_solid_free(s);
    } else {
      assert_int_equal(st, VXC_ERR_NOMEM);
      assert_null(s);
    }
    assert_int_equal(f.live, 0);
  }
  assert_true(ok);
}


static vxc_status load_model(const vxc_allocator *al, const void *ud, vxc_solid **s) {
  return vxc_solid_load(vxc_test_data(ud), al, s, NULL);
}


// every allocation failure gives VXC_ERR_NOMEM and leaks nothing, until loading succeeds
static void test_api_allocation_failures_are_clean(void **state) {
  (void)state;
  const char *models[] = {"ball.vxm", "worksite.vxm", "tippe-top.vxm"};
  for (int m = 0; m < 3; m++) {
    assert_allocation_failures_are_clean(load_model, models[m]);
  }
}


/* Exact volume of a closed mesh: the signed tetrahedra from the origin (divergence
 * theorem), summed independently of the library. */
static double mesh_volume(const mg_mesh *g) {
  double v = 0;
  for (int i = 0; i < g->nt; i++) {
    const double *a = g->v + 3 * g->t[3 * i], *b = g->v + 3 * g->t[3 * i + 1],
                 *c = g->v + 3 * g->t[3 * i + 2];
    v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
          a[2] * (b[0] * c[1] - b[1] * c[0])) /
         6;
  }
  return v;
}


// a mesh given by arrays becomes a one-cell solid with the mesh's exact volume, area and box
static void test_api_solid_from_mesh_box(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_box(&g, 0.1, 0.06, 0.04), 0);
  vxc_solid *s = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_from_mesh(g.v, g.nv, g.t, g.nt, "brick", NULL, &s, &err), VXC_OK);
  assert_string_equal(vxc_solid_name(s), "brick");
  assert_int_equal(vxc_solid_cell_count(s), 1);
  assert_double_near(vxc_solid_density(s), 0, 0);
  vxc_cell_info c;
  assert_int_equal(vxc_solid_cell(s, 0, &c, NULL), VXC_OK);
  assert_string_equal(c.name, "brick");
  assert_int_equal(c.convex, 1);
  const double half[3] = {0.05, 0.03, 0.02};
  for (int k = 0; k < 3; k++) {
    assert_double_near(c.aabb[k], -half[k], 1e-12);
    assert_double_near(c.aabb[k + 3], half[k], 1e-12);
  }
  vxc_prim_info p;
  assert_int_equal(vxc_solid_prim(s, 0, 0, &p, NULL), VXC_OK);
  assert_string_equal(p.kind, "mesh");
  assert_string_equal(p.mesh_format, "arrays");
  assert_null(p.mesh_path);
  assert_int_equal(p.mesh_triangles, 12);
  assert_int_equal(p.mesh_flipped, 0);
  assert_double_rel(p.mesh_volume, 0.1 * 0.06 * 0.04, 1e-12);
  assert_double_rel(p.mesh_area, 2 * (0.1 * 0.06 + 0.1 * 0.04 + 0.06 * 0.04), 1e-12);
  /* the voxel engine integrates it: a box's faces are planes, so the volume is exact */
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = 0;
  o.voxel = 0.0025;
  vxc_mass_props m;
  assert_int_equal(vxc_solid_mass(q, s, 0, 1000, &o, &m, &err), VXC_OK);
  fprintf(stderr, "# box mesh: V %.9e, exact %.9e, bracket [%.6e, %.6e]\n", m.volume,
          0.1 * 0.06 * 0.04, m.volume_lo, m.volume_hi);
  assert_true(m.volume_lo <= 0.1 * 0.06 * 0.04 && m.volume_hi >= 0.1 * 0.06 * 0.04);
  /* a mesh leaf is linearised by one plane, so leaves on the box's edges err (as h^2) */
  assert_double_rel(m.volume, 0.1 * 0.06 * 0.04, 2e-3);
  vxc_query_free(q);
  vxc_solid_free(s);
  /* inside out: turned outward, same volume */
  for (int i = 0; i < g.nt; i++) {
    int t = g.t[3 * i + 1];
    g.t[3 * i + 1] = g.t[3 * i + 2];
    g.t[3 * i + 2] = t;
  }
  assert_int_equal(vxc_solid_from_mesh(g.v, g.nv, g.t, g.nt, NULL, NULL, &s, &err), VXC_OK);
  assert_string_equal(vxc_solid_name(s), "mesh");
  assert_int_equal(vxc_solid_prim(s, 0, 0, &p, NULL), VXC_OK);
  assert_int_equal(p.mesh_flipped, 1);
  assert_double_rel(p.mesh_volume, 0.1 * 0.06 * 0.04, 1e-12);
  vxc_solid_free(s);
  mg_free(&g);
}


// an icosphere's volume is that of its tetrahedra summed here
static void test_api_solid_from_mesh_icosphere_volume(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 0.05, 3), 0);
  vxc_solid *s = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_from_mesh(g.v, g.nv, g.t, g.nt, "ico", NULL, &s, &err), VXC_OK);
  vxc_prim_info p;
  assert_int_equal(vxc_solid_prim(s, 0, 0, &p, NULL), VXC_OK);
  assert_int_equal(p.mesh_triangles, 1280);
  assert_int_equal(p.mesh_convex, 1);
  assert_double_rel(p.mesh_volume, mesh_volume(&g), 1e-12);
  vxc_solid_free(s);
  mg_free(&g);
}


// bad arrays are refused with the right status, and *out is untouched
static void test_api_solid_from_mesh_refuses_bad_input(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_box(&g, 0.1, 0.06, 0.04), 0);
  vxc_solid *const sentinel = (vxc_solid *)&g;
  vxc_solid *s = sentinel;
  vxc_error err;
  assert_int_equal(vxc_solid_from_mesh(g.v, g.nv, g.t, g.nt, "x", NULL, NULL, &err), VXC_ERR_ARG);
  assert_int_equal(vxc_solid_from_mesh(NULL, 8, g.t, g.nt, "x", NULL, &s, &err), VXC_ERR_ARG);
  assert_int_equal(vxc_solid_from_mesh(g.v, -1, g.t, g.nt, "x", NULL, &s, &err), VXC_ERR_ARG);
  char longname[200];
  memset(longname, 'a', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  assert_int_equal(vxc_solid_from_mesh(g.v, g.nv, g.t, g.nt, longname, NULL, &s, &err),
                   VXC_ERR_ARG);
  /* an index out of range, named by its triangle */
  g.t[3 * 5 + 1] = 8;
  assert_int_equal(vxc_solid_from_mesh(g.v, g.nv, g.t, g.nt, "x", NULL, &s, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "triangle 5"));
  g.t[3 * 5 + 1] = 7;
  /* a non-finite coordinate */
  double keep = g.v[4];
  g.v[4] = NAN;
  assert_int_equal(vxc_solid_from_mesh(g.v, g.nv, g.t, g.nt, "x", NULL, &s, &err), VXC_ERR_ARG);
  g.v[4] = keep;
  /* open: one triangle missing */
  assert_int_equal(vxc_solid_from_mesh(g.v, g.nv, g.t, g.nt - 1, "x", NULL, &s, &err),
                   VXC_ERR_GEOMETRY);
  assert_non_null(strstr(err.message, "closed"));
  assert_ptr_equal(s, sentinel);
  mg_free(&g);
}


static vxc_status mesh_solid(const vxc_allocator *al, const void *ud, vxc_solid **s) {
  const mg_mesh *g = ud;
  return vxc_solid_from_mesh(g->v, g->nv, g->t, g->nt, "ico", al, s, NULL);
}


// every allocation failure of a solid made from arrays gives VXC_ERR_NOMEM and leaks nothing
static void test_api_solid_from_mesh_allocation_failures_are_clean(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 0.05, 1), 0);
  assert_allocation_failures_are_clean(mesh_solid, &g);
  mg_free(&g);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_api_version_matches_header),
      cmocka_unit_test(test_api_status_strings_are_distinct),
      cmocka_unit_test(test_api_nearest_name),
      cmocka_unit_test(test_api_ball_loads_with_its_density),
      cmocka_unit_test(test_api_aabb_follows_pose),
      cmocka_unit_test(test_api_stop_flag_ends_a_query),
      cmocka_unit_test(test_api_bad_arguments_are_refused),
      cmocka_unit_test(test_api_missing_file_names_it),
      cmocka_unit_test(test_api_allocation_failures_are_clean),
      cmocka_unit_test(test_api_solid_from_mesh_box),
      cmocka_unit_test(test_api_solid_from_mesh_icosphere_volume),
      cmocka_unit_test(test_api_solid_from_mesh_refuses_bad_input),
      cmocka_unit_test(test_api_solid_from_mesh_allocation_failures_are_clean),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
