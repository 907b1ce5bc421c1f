/* test_rolling.c: rate-independent rolling and spinning friction (Tasora and Anitescu, "A
 * complementarity-based rolling friction model for rigid contacts": |M_r| <= eta_r f_n,
 * |M_s| <= eta_s f_n), the contact option (rolling rate-independent (eta_r E) (eta_s S)),
 * in short tasks: the 2 kg ball of radius R = 0.1 m (data/ball.vxm, I = 2/5 m R^2 = 0.008
 * kg m^2) on the table, both at the default k_v = 1e11 (25 um deep: the lever arm is R to
 * 2e-4), 1 mm leaves. The contacts take v_small = 1e-2 m/s: a ball that starts at rest
 * meets the table at a speed far below the default 1e-3, and the normal damping k_v V d /
 * (e_eff v_small) would set the step; it plays no part in the rolling laws.
 *
 * Derivations (rolling without slip, v = R w, friction F at the contact point, the
 * rate-independent torque M = eta f_n = eta m g at its bound while the ball moves):
 * - rolling on a plane: m a = -F, I a / R = F R - M, so a (I / R + m R) = -M and
 *   a = -M R / (I + m R^2) = -5 g eta_r / (7 R);
 * - on an incline at theta the ball at rest needs F = m g sin(theta) and a rolling torque
 *   F R, within the bound eta_r m g cos(theta) while tan(theta) <= eta_r / R; above, it
 *   rolls down at a = 5/7 g (sin(theta) - eta_r cos(theta) / R);
 * - spinning in place about the normal: I w' = -M = -eta_s m g, w' = -5 g eta_s / (2 R^2). */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#define G 9.81
#define R_BALL 0.1
#define ETA_R 1e-3
#define ETA_S 1e-4

/* Samples of the ball's velocity (6 components) at the requested record times. */
typedef struct samples {
  int n;
  double t[4], v[4][6], y[4];
} samples;

static int record(void *ud, const vxc_task_record *rec) {
  samples *s = ud;
  for (int i = 0; i < s->n; i++) {
    if (fabs(rec->t - s->t[i]) < 1e-9) {
      memcpy(s->v[i], rec->body[1].velocity, sizeof s->v[i]);
      s->y[i] = rec->body[1].pose[1];
    }
  }
  return 0;
}


/* Runs the ball on the table for `duration` s under gravity g, from velocity v0 (6). */
static void run_ball(const double g[3], const double v0[6], double duration, samples *s) {
  char text[2048];
  snprintf(text, sizeof text,
           "(task rolling (gravity %.17g %.17g %.17g) (duration %g)\n"
           "  (integrator adaptive (method bs3) (rtol 1e-6) (atol 1e-9) (max-step 2e-3))\n"
           "  (record (every 0.01))\n"
           "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
           "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 0.008)\n"
           "    (com 0 0 0)) (pose 0 0 0.1) (velocity %g %g %g %g %g %g))\n"
           "  (contact table ball (params (v_small 1e-2)) (voxel 1e-3)\n"
           "    (rolling rate-independent (eta_r %g) (eta_s %g))))",
           g[0], g[1], g[2], duration, v0[0], v0[1], v0[2], v0[3], v0[4], v0[5], ETA_R, ETA_S);
  const char *dir = getenv("VXC_DATADIR");
  vxc_task *t = NULL;
  vxc_error err;
  vxc_status st =
      vxc_task_parse(text, strlen(text), "rolling.vxt", dir ? dir : "../data", NULL, &t, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  vxc_task_summary sum;
  st = vxc_task_run(t, record, NULL, s, &sum, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  assert_int_equal(sum.completed, 1);
  vxc_task_free(t);
}


static void test_rolling_decelerates(void **state) {
  (void)state;
  /* rolling along +y without slip: w_x = -v / R */
  const double g[3] = {0, 0, -G}, v0[6] = {0, 0.1, 0, -0.1 / R_BALL, 0, 0};
  samples s = {.n = 2, .t = {0.1, 0.5}};
  run_ball(g, v0, 0.5, &s);
  double a = (s.v[0][1] - s.v[1][1]) / (s.t[1] - s.t[0]);
  assert_double_rel(a, 5 * G * ETA_R / (7 * R_BALL), 1e-2);
  /* it rolls: v = R |w| to the 25 um depth of the contact */
  assert_double_rel(s.v[1][1], -R_BALL * s.v[1][3], 1e-3);
}


static void test_spinning_decelerates(void **state) {
  (void)state;
  const double g[3] = {0, 0, -G}, v0[6] = {0, 0, 0, 0, 0, 2};
  samples s = {.n = 2, .t = {0.1, 0.5}};
  run_ball(g, v0, 0.5, &s);
  double alpha = (s.v[0][5] - s.v[1][5]) / (s.t[1] - s.t[0]);
  assert_double_rel(alpha, 5 * G * ETA_S / (2 * R_BALL * R_BALL), 1e-2);
  /* the spin has its own law: no sliding, no rolling */
  assert_double_near(s.v[1][1], 0, 1e-5);
  assert_double_near(s.v[1][3], 0, 1e-4);
}


/* The ball released at rest on a plane tilted to tan(theta) = ratio eta_r / R (gravity
 * turned instead: the plane is z = 0, downhill is +y). */
static void incline(double ratio, samples *s) {
  double th = atan(ratio * ETA_R / R_BALL);
  const double g[3] = {0, G * sin(th), -G * cos(th)}, v0[6] = {0};
  run_ball(g, v0, 2.0, s);
}


static void test_incline_holds_below(void **state) {
  (void)state;
  /* 1% below the bound: after the release (the ball lands 25 um deep and the bristle winds
   * up by phi_0, a few tenths of a millimetre of travel) it stops and stays */
  samples s = {.n = 3, .t = {1.0, 1.5, 2.0}};
  incline(0.99, &s);
  assert_true(s.y[0] < 1e-3);
  assert_double_near(s.y[2], s.y[0], 1e-9);
  for (int i = 0; i < 3; i++) {
    assert_double_near(s.v[i][1], 0, 1e-8);
    assert_double_near(s.v[i][3], 0, 1e-7);
  }
}


static void test_incline_rolls_above(void **state) {
  (void)state;
  /* 1% above: it rolls down, speeding up at 5/7 g (sin - eta_r cos / R), 1% of 5/7 g
   * sin(theta); 10% of that rate is 1e-3 of the two terms it is the difference of */
  samples s = {.n = 2, .t = {1.0, 2.0}};
  incline(1.01, &s);
  double th = atan(1.01 * ETA_R / R_BALL);
  double a = (s.v[1][1] - s.v[0][1]) / (s.t[1] - s.t[0]);
  assert_double_rel(a, 5.0 / 7.0 * G * (sin(th) - ETA_R / R_BALL * cos(th)), 0.1);
  assert_double_rel(s.v[1][1], -R_BALL * s.v[1][3], 1e-3);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rolling_decelerates),
      cmocka_unit_test(test_spinning_decelerates),
      cmocka_unit_test(test_incline_holds_below),
      cmocka_unit_test(test_incline_rolls_above),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
