/* test_mesh_distance.c: vxc_metrics.distance of solids apart where a mesh is involved,
 * against closed forms, each configuration carried by a seeded rigid motion (none every
 * third case) and scaled 0.01 to 10: two U-channels back to back (their floors g apart),
 * a tube inside a square hole (each a concave mesh: the clearance less the offset), to
 * 1e-12 of the distance, exact; a box cell and a ball cell inside the hole (a mesh and a
 * convex cell, by GJK per triangle: to 2e-12 of the size); and a cell that is neither
 * convex nor a mesh, whose distance stays a lower bound, flagged so. Black-box: only
 * <vxc.h>. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"
#include "tests/vxc_test_api.h"
#include "tests/vxc_test_meshes.h"

/* q = a b (quaternions w x y z). */
static void quat_mul(const double a[4], const double b[4], double q[4]) {
  q[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  q[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  q[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  q[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}


/* The pose o (given in p's frame) carried by p. */
static vxc_pose compose(const vxc_pose *p, const vxc_pose *o) {
  vxc_pose c;
  double R[9];
  vxc_test_quat_matrix(p->q, R);
  quat_mul(p->q, o->q, c.q);
  for (int i = 0; i < 3; i++) {
    c.p[i] = p->p[i] + R[3 * i] * o->p[0] + R[3 * i + 1] * o->p[1] + R[3 * i + 2] * o->p[2];
  }
  return c;
}


/* A seeded rigid motion within reach S: a uniform axis and angle, none every third case. */
static vxc_pose random_pose(vxc_rng *r, int c, double S) {
  vxc_pose p = vxc_pose_identity();
  double u[3] = {vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1)};
  double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), ang = vxc_rng_uniform(r, -M_PI, M_PI);
  if (c % 3 != 0) {
    p.q[0] = cos(ang / 2);
    for (int k = 0; k < 3; k++) {
      p.q[1 + k] = sin(ang / 2) * u[k] / l;
    }
  }
  for (int k = 0; k < 3; k++) {
    p.p[k] = vxc_rng_uniform(r, -S, S);
  }
  return p;
}


/* The distance of a at P and b at P o ob (apart), which must be exact or not as said. */
static double apart(vxc_query *q, const vxc_solid *a, const vxc_pose *P, const vxc_solid *b,
                    const vxc_pose *ob, int exact) {
  vxc_pose pb = compose(P, ob);
  vxc_metrics m;
  vxc_error err;
  assert_int_equal(vxc_query_run(q, a, P, b, &pb, NULL, NULL, NULL, &m, &err), VXC_NO_CONTACT);
  assert_int_equal(m.distance_exact, exact);
  return m.distance;
}


/* A solid from model text with up to four numbers in it. */
static vxc_solid *solid_text(const char *fmt, double x, double y, double z, double w) {
  char text[256];
  snprintf(text, sizeof text, fmt, x, y, z, w);
  vxc_solid *s = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_parse(text, strlen(text), "cell", NULL, &s, &err), VXC_OK);
  return s;
}


/* Two U-channels of scale s (floors [-5 s, 5 s] x [0, s] in xy, walls up to 5 s, length
 * 2 h along z), the second turned half a turn about x (its floor [-s, 0], walls down) and
 * moved down by g and sideways by less than s: the floors face each other g apart. */
static void test_distance_u_channels_back_to_back(void **state) {
  (void)state;
  vxc_rng rng = {0xd157a1ULL};
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  for (int c = 0; c < 12; c++) {
    double S = pow(10, vxc_rng_uniform(&rng, -2, 1)), s = 0.01 * S;
    double g = s * vxc_rng_uniform(&rng, 0.05, 3);
    vxc_mesh_buf cm = {0};
    vxc_mb_u_channel(&cm, s, 5 * s);
    vxc_solid *ch = vxc_mb_solid(&cm, "channel");
    vxc_pose P = random_pose(&rng, c, S);
    vxc_pose ob = {{vxc_rng_uniform(&rng, -s, s), -g, vxc_rng_uniform(&rng, -s, s)}, {0, 1, 0, 0}};
    double d = apart(q, ch, &P, ch, &ob, 1);
    fprintf(stderr, "# scale %.3g: distance %.17g, gap %.17g\n", S, d, g);
    assert_double_rel(d, g, 1e-12);
    vxc_solid_free(ch);
  }
  vxc_query_free(q);
}


/* A block (half-width W, a square hole of half-width w along z over [-L, 0]) around, each
 * offset (ox, oy) with |ox|, |oy| < c in the hole: a tube (half-width w - c, its own hole
 * w / 2, longer than the block), a box cell of the same section, and a ball cell of
 * radius w - c centred at mid-depth. Each comes nearest the hole's walls: the tube and
 * the box at c - max(|ox|, |oy|), the ball at the same. The tube is a mesh (triangle
 * pairs, to 1e-12); the box and the ball are convex cells (GJK per triangle, to 2e-12
 * of the block's size); all exact. */
static void test_distance_inside_square_hole(void **state) {
  (void)state;
  vxc_rng rng = {0x40b3ULL};
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  for (int c = 0; c < 12; c++) {
    double S = pow(10, vxc_rng_uniform(&rng, -2, 1)), W = 0.03 * S, w = 0.01 * S, L = 0.04 * S;
    double cl = w * vxc_rng_uniform(&rng, 0.02, 0.5);
    double ox = cl * vxc_rng_uniform(&rng, -0.9, 0.9), oy = cl * vxc_rng_uniform(&rng, -0.9, 0.9);
    double want = cl - fmax(fabs(ox), fabs(oy)), size = 2 * W;
    vxc_mesh_buf bm = {0}, tm = {0};
    vxc_mb_holed_block(&bm, W, w, -L, 0);
    vxc_mb_holed_block(&tm, w - cl, 0.5 * w, -1.5 * L, 0.5 * L);
    vxc_solid *block = vxc_mb_solid(&bm, "block"), *tube = vxc_mb_solid(&tm, "tube");
    vxc_solid *box = solid_text("(solid peg (cell body (box %.17g %.17g %.17g)))", 2 * (w - cl),
                                2 * (w - cl), 0.5 * L, 0);
    vxc_solid *ball = solid_text("(solid ball (cell body (sphere %.17g)))", w - cl, 0, 0, 0);
    vxc_pose P = random_pose(&rng, c, S);
    vxc_pose ot = {{ox, oy, 0}, {1, 0, 0, 0}}, oc = {{ox, oy, -0.5 * L}, {1, 0, 0, 0}};
    double dt = apart(q, block, &P, tube, &ot, 1);
    double db = apart(q, block, &P, box, &oc, 1), ds = apart(q, block, &P, ball, &oc, 1);
    fprintf(stderr, "# scale %.3g: tube %.17g, box %.17g, ball %.17g, clearance %.17g\n", S, dt,
            db, ds, want);
    assert_double_rel(dt, want, 1e-12);
    assert_double_near(db, want, 2e-12 * size + 1e-12 * want);
    assert_double_near(ds, want, 2e-12 * size + 1e-12 * want);
    vxc_solid_free(block);
    vxc_solid_free(tube);
    vxc_solid_free(box);
    vxc_solid_free(ball);
  }
  vxc_query_free(q);
}


/* A box with a bore (a cell neither convex nor a mesh) beside the holed block, e from its
 * outer face: only the hulls' distance is known, flagged not exact, and no more than e. */
static void test_distance_other_cells_lower_bound(void **state) {
  (void)state;
  vxc_rng rng = {0x10b0ULL};
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  for (int c = 0; c < 6; c++) {
    double S = pow(10, vxc_rng_uniform(&rng, -2, 1)), W = 0.03 * S, a = 0.01 * S;
    double e = a * vxc_rng_uniform(&rng, 0.1, 2);
    vxc_mesh_buf bm = {0};
    vxc_mb_holed_block(&bm, W, 0.01 * S, -0.04 * S, 0);
    vxc_solid *block = vxc_mb_solid(&bm, "block");
    vxc_solid *bored = solid_text("(solid bored (cell body (box %.17g %.17g %.17g) (not (cylinder "
                                  "%.17g))))",
                                  2 * a, 2 * a, 2 * a, 0.5 * a);
    vxc_pose P = random_pose(&rng, c, S), ob = {{W + a + e, 0, -0.02 * S}, {1, 0, 0, 0}};
    double d = apart(q, block, &P, bored, &ob, 0);
    assert_true(d <= e * (1 + 1e-12));
    vxc_solid_free(block);
    vxc_solid_free(bored);
  }
  vxc_query_free(q);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_distance_u_channels_back_to_back),
      cmocka_unit_test(test_distance_inside_square_hole),
      cmocka_unit_test(test_distance_other_cells_lower_bound),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
