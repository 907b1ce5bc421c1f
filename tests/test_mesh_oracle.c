/* test_mesh_oracle.c: vxc on the mesh family of `vxc bench --mesh` (tools/mesh_cases.h)
 * against exact polyhedral answers that do not come from vxc:
 *  - the part meshes are sound: closed and outward (vxc_solid_from_mesh takes them and
 *    their divergence-theorem volume is positive), and each non-convex one has the volume
 *    of the convex pieces it is the union of (the decomposition the references rely on);
 *  - closed forms without CGAL: a box pressed into both walls of a U-channel and into the
 *    inner corner of an L-channel, at seeded poses (axis-aligned and generic, scales 0.1 to
 *    10), whose interference is a sum of box-box overlaps (products of interval overlaps);
 *    vxc within MESH_ORACLE_RTOL and the convex-pieces reference within 1e-12;
 *  - a small seeded corpus of the family against CGAL's exact corefinement
 *    (tools/vxc-bench-cgal, $VXC_CGAL_REF; left out, saying why, when it was not built, as
 *    in sanitizer builds): the CGAL-free
 *    references within 1e-12 of CGAL, vxc within MESH_ORACLE_RTOL.
 * The errors vxc reaches are printed per case. */
#include "tests/vxc_test.h"

#include <unistd.h>

#include "tools/corpus.h"
#include "tools/mesh_cases.h"
#include "tools/mesh_peers.h"
#include "lib/vxc.h"

/* The relative volume error vxc must stay within on these cases at its default rtol: its
 * mesh leaves are exact (convex meshes by their planes, others by a local BSP). */
#define MESH_ORACLE_RTOL 1e-9
/* The CGAL-free references (sums of convex intersections, a mesh cut by a plane) against
 * the closed forms and CGAL: they are exact but for rounding. */
#define REFERENCE_RTOL 1e-12
#define SEED 7

/* vxc's volume and centroid of the case at the default query options (asserts it ran). */
static double vxc_volume(const mc_case *c, double centroid[3], int *capped) {
  vxc_solid *s[2] = {NULL, NULL};
  vxc_error err;
  for (int k = 0; k < 2; k++) {
    const mg_mesh *g = &c->s[k].mesh;
    assert_int_equal(vxc_solid_from_mesh(g->v, g->nv, g->t, g->nt, NULL, NULL, &s[k], &err),
                     VXC_OK);
  }
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_metrics m;
  assert_int_equal(
      vxc_query_run(q, s[0], &c->s[0].pose, s[1], &c->s[1].pose, NULL, NULL, NULL, &m, &err),
      VXC_OK);
  memcpy(centroid, m.centroid, 3 * sizeof(double));
  *capped = m.capped;
  vxc_query_free(q);
  vxc_solid_free(s[0]);
  vxc_solid_free(s[1]);
  return m.volume;
}

/* The volume of a closed mesh by the divergence theorem (about its first vertex). */
static double mesh_volume(const mg_mesh *g) {
  double v = 0;
  const double *o = g->v;
  for (int i = 0; i < g->nt; i++) {
    double p[3][3];
    for (int c = 0; c < 3; c++) {
      for (int k = 0; k < 3; k++) {
        p[c][k] = g->v[3 * g->t[3 * i + c] + k] - o[k];
      }
    }
    v += (p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
          p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
          p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0])) /
         6;
  }
  return v;
}

static const mc_inputs *inputs(void) {
  static char vase[4096];
  static mc_inputs in;
  snprintf(vase, sizeof vase, "%s", vxc_test_data("step/vase.obj"));
  in.vase_obj = access(vase, R_OK) == 0 ? vase : NULL;
  return &in;
}

// every template's meshes are closed, outward, and the union of their convex pieces
static void test_meshes_sound(void **state) {
  (void)state;
  int checked = 0;
  for (int t = 0; t < mc_templates(); t++) {
    for (int v = 0; v < 2; v++) {
      mc_case c;
      char msg[512];
      int rc = mc_make(t, v, SEED, inputs(), &c, msg, sizeof msg);
      assert_true(rc >= 0);
      if (rc == 1) {
        continue;
      }
      for (int k = 0; k < 2; k++) {
        const mc_solid *s = &c.s[k];
        vxc_solid *solid = NULL;
        vxc_error err;
        vxc_status st = vxc_solid_from_mesh(s->mesh.v, s->mesh.nv, s->mesh.t, s->mesh.nt, NULL,
                                            NULL, &solid, &err);
        if (st != VXC_OK) {
          fprintf(stderr, "# %s, solid %d: %s\n", c.name, k, err.message);
        }
        assert_int_equal(st, VXC_OK);
        vxc_solid_free(solid);
        double V = mesh_volume(&s->mesh), sum = 0;
        assert_true(V > 0);
        for (int i = 0; i < s->pieces.n; i++) {
          double vi = mesh_volume(&s->pieces.p[i]);
          assert_true(vi > 0);
          sum += vi;
        }
        if (s->pieces.n > 0) {
          assert_double_rel(sum, V, REFERENCE_RTOL);
        }
      }
      mc_free(&c);
      checked++;
    }
  }
  assert_true(checked >= 2 * 12);
}

/* ---- closed forms: boxes in channels ------------------------------------------------------ */

/* An axis-aligned box (design frame): centre and full edges. */
typedef struct abox {
  double c[3], e[3];
} abox;

/* Adds the overlap of two axis-aligned boxes: volume and first moment. */
static void add_overlap(const abox *a, const abox *b, double *V, double m1[3]) {
  double lo[3], hi[3], v = 1;
  for (int k = 0; k < 3; k++) {
    lo[k] = fmax(a->c[k] - a->e[k] / 2, b->c[k] - b->e[k] / 2);
    hi[k] = fmin(a->c[k] + a->e[k] / 2, b->c[k] + b->e[k] / 2);
    v *= fmax(0, hi[k] - lo[k]);
  }
  *V += v;
  for (int k = 0; k < 3; k++) {
    m1[k] += v * 0.5 * (lo[k] + hi[k]);
  }
}

/* Places the channel (solid 0, the design frame) and the box (solid 1, centred at bc) by
 * one seeded rigid motion at scale s, as mc_make does; returns the design-to-world map's
 * rotation q and translation p. */
static void place_pair(mc_case *c, const double bc[3], uint64_t *r, int aligned, double s,
                       double q[4], double p[3]) {
  cx_random_rotation(r, aligned, q);
  for (int k = 0; k < 3; k++) {
    p[k] = s * 0.2 * (2 * cx_uni(r) - 1);
  }
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 3 * c->s[k].mesh.nv; i++) {
      c->s[k].mesh.v[i] *= s;
    }
    for (int j = 0; j < c->s[k].pieces.n; j++) {
      for (int i = 0; i < 3 * c->s[k].pieces.p[j].nv; i++) {
        c->s[k].pieces.p[j].v[i] *= s;
      }
    }
    double t[3] = {0, 0, 0};
    if (k == 1) {
      for (int j = 0; j < 3; j++) {
        t[j] = s * bc[j];
      }
    }
    cx_qrot(q, 0, t, c->s[k].pose.p);
    for (int j = 0; j < 3; j++) {
      c->s[k].pose.p[j] += p[j];
    }
    memcpy(c->s[k].pose.q, q, 4 * sizeof(double));
  }
}

/* The box `box` against the rectangles `rect` (the channel's cross-section pieces, along
 * z from 0 to 0.1): vxc and the convex-pieces reference against the closed form. */
static void check_channel(const char *name, mc_case *c, const abox *box, const abox *rect,
                          int nrect, uint64_t *r, int variant) {
  int aligned = variant % 2 == 0;
  double s = (const double[4]){1, 0.1, 1, 10}[variant % 4], q[4], p[3];
  assert_int_equal(mg_box(&c->s[1].mesh, box->e[0], box->e[1], box->e[2]), 0);
  c->s[1].convex = 1;
  c->ref = MC_REF_PIECES;
  place_pair(c, box->c, r, aligned, s, q, p);
  double V = 0, m1[3] = {0, 0, 0}, cw[3], cd[3];
  for (int i = 0; i < nrect; i++) {
    add_overlap(box, &rect[i], &V, m1);
  }
  for (int k = 0; k < 3; k++) {
    cd[k] = s * m1[k] / V;
  }
  V *= s * s * s;
  cx_qrot(q, 0, cd, cw);
  for (int k = 0; k < 3; k++) {
    cw[k] += p[k];
  }
  double vr, cr[3], J[9], cv[3];
  int capped;
  assert_int_equal(mc_reference(c, &vr, cr, J), 0);
  assert_double_rel(vr, V, REFERENCE_RTOL);
  for (int k = 0; k < 3; k++) {
    assert_double_near(cr[k], cw[k], REFERENCE_RTOL * cbrt(V) * 1e3);
  }
  double vv = vxc_volume(c, cv, &capped);
  double d = 0;
  for (int k = 0; k < 3; k++) {
    d += pow(cv[k] - cw[k], 2);
  }
  print_message("# %-12s pose %d (%s, scale %g): vxc V error %.2e, centroid %.2e V^(1/3)%s\n",
                name, variant, aligned ? "aligned" : "generic", s, fabs(vv - V) / V,
                sqrt(d) / cbrt(V), capped ? ", capped" : "");
  assert_double_rel(vv, V, MESH_ORACLE_RTOL);
}

// a box 0.5 mm into both walls of a U-channel: two slabs of the walls
static void test_u_channel_closed_form(void **state) {
  (void)state;
  const double w = 0.04, t = 0.01, f = 0.01, h = 0.04;
  const abox rect[3] = {{{-w / 2 - t / 2, h / 2, 0.05}, {t, h, 0.1}},
                        {{0, f / 2, 0.05}, {w, f, 0.1}},
                        {{w / 2 + t / 2, h / 2, 0.05}, {t, h, 0.1}}};
  uint64_t r = SEED;
  for (int v = 0; v < 4; v++) {
    double dl = 2.5e-4 + 5e-4 * cx_uni(&r), dr = 2.5e-4 + 5e-4 * cx_uni(&r);
    abox box = {{(dr - dl) / 2, 0.03, 0.05}, {w + dl + dr, 0.03, 0.06}};
    mc_case c;
    memset(&c, 0, sizeof c);
    c.s[0].pose = c.s[1].pose = vxc_pose_identity();
    assert_int_equal(ms_u_channel(w, t, f, h, 0, 0.1, &c.s[0].mesh, &c.s[0].pieces), 0);
    check_channel("u-channel", &c, &box, rect, 3, &r, v);
    mc_free(&c);
  }
}

// a box in the inner corner of an L-channel, 0.5 mm into both legs
static void test_l_channel_closed_form(void **state) {
  (void)state;
  const double t = 0.01, a = 0.06, e = 0.03;
  const abox rect[2] = {{{a / 2, t / 2, 0.05}, {a, t, 0.1}},
                        {{t / 2, t + (a - t) / 2, 0.05}, {t, a - t, 0.1}}};
  uint64_t r = SEED + 1;
  for (int v = 0; v < 4; v++) {
    double dx = 2.5e-4 + 5e-4 * cx_uni(&r), dy = 2.5e-4 + 5e-4 * cx_uni(&r);
    abox box = {{t - dx + e / 2, t - dy + e / 2, 0.05}, {e, e, 0.06}};
    mc_case c;
    memset(&c, 0, sizeof c);
    c.s[0].pose = c.s[1].pose = vxc_pose_identity();
    assert_int_equal(ms_l_channel(a, a, t, 0, 0.1, &c.s[0].mesh, &c.s[0].pieces), 0);
    check_channel("l-channel", &c, &box, rect, 2, &r, v);
    mc_free(&c);
  }
}

/* ---- against CGAL --------------------------------------------------------------------------- */

/* The corpus: template names (variant 1, randomised at a generic pose, and 2, aligned). */
static const char *const corpus[] = {"icospheres 5k", "u-channel",      "l-channel",
                                     "box tilted",    "torus on edge",  "torus on torus",
                                     "hexagon peg",   "step vase"};

static int in_corpus(const char *shape) {
  for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
    if (strncmp(shape, corpus[i], strlen(corpus[i])) == 0) {
      return 1;
    }
  }
  return 0;
}

static void cgal_case(const char *cgal, const mc_case *c, const char *dir) {
  char path[2][MP_PATH_MAX], msg[512];
  mp_result res;
  assert_int_equal(mp_write(c, dir, "oracle", path, msg, sizeof msg), 0);
  int rc = mp_run(cgal, NULL, path, c, 0, &res, msg, sizeof msg);
  if (rc != 0) {
    fprintf(stderr, "# %s: vxc-bench-cgal: %s\n", c->name, msg);
  }
  assert_int_equal(rc, 0);
  assert_true(res.volume > 0);
  double vr, cr[3], J[9];
  if (mc_reference(c, &vr, cr, J) == 0) { /* the CGAL-free reference is exact too */
    assert_double_rel(vr, res.volume, REFERENCE_RTOL);
  }
  double cv[3];
  int capped;
  double vv = vxc_volume(c, cv, &capped), d = 0;
  for (int k = 0; k < 3; k++) {
    d += pow(cv[k] - res.centroid[k], 2);
  }
  print_message("# %-26s vxc V error %.2e, centroid %.2e V^(1/3)%s\n", c->name,
                fabs(vv - res.volume) / res.volume, sqrt(d) / cbrt(res.volume),
                capped ? ", capped" : "");
  assert_double_rel(vv, res.volume, MESH_ORACLE_RTOL);
  unlink(path[0]);
  unlink(path[1]);
}

/* The CGAL reference's path, or NULL when it was not built. */
static const char *cgal_ref(void) {
  const char *cgal = getenv("VXC_CGAL_REF");
  return cgal && access(cgal, X_OK) == 0 ? cgal : NULL;
}

static void test_against_cgal(void **state) {
  (void)state;
  const char *cgal = cgal_ref();
  assert_non_null(cgal);
  char dir[] = "/tmp/vxc-mesh-oracle-XXXXXX";
  assert_non_null(mkdtemp(dir));
  int n = 0;
  for (int t = 0; t < mc_templates(); t++) {
    for (int v = 1; v <= 2; v++) {
      mc_case c;
      char msg[512];
      int rc = mc_make(t, v, SEED, inputs(), &c, msg, sizeof msg);
      assert_true(rc >= 0);
      if (rc == 0 && in_corpus(c.shape)) {
        cgal_case(cgal, &c, dir);
        n++;
      }
      if (rc == 0) {
        mc_free(&c);
      }
    }
  }
  rmdir(dir);
  assert_true(n >= 14);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_meshes_sound),
      cmocka_unit_test(test_u_channel_closed_form),
      cmocka_unit_test(test_l_channel_closed_form),
      cmocka_unit_test(test_against_cgal),
  };
  /* without the reference the CGAL test is left out of the plan (cmocka's skip() reads
     as a failure to Automake's TAP driver) and the reason printed */
  size_t n = sizeof tests / sizeof tests[0];
  if (!cgal_ref()) {
    printf("# test_against_cgal left out: vxc-bench-cgal not built (configure found no CGAL: "
           "apt-get install libcgal-dev; or a sanitizer build, which leaves it out)\n");
    n--;
  }
  return _cmocka_run_group_tests("test_mesh_oracle", tests, n, NULL, NULL);
}
