/* test_task_rolling.c: a ball on a table against the closed forms of a rigid sphere under
 * Coulomb friction, run as tasks with the contact's default (rtol) tolerance:
 *   - sliding at v0 without spin, friction mu_c m g slows it (dv/dt = -mu_c g) and spins it up
 *     (I dw/dt = mu_c m g R_c) until it rolls, v = R_c w: at t* = 2 v0 / (7 mu_c g), with
 *     v = 5/7 v0 (I = 2/5 m R^2; R_c, the distance from the centre to the contact's centroid,
 *     is R to 2e-4 at this depth);
 *   - spinning in place, the spinning friction torque mu_c r_gyr f_n (lib/README.md section 7,
 *     4.237) slows it at mu_c r_gyr m g / I, r_gyr = sqrt(2 R delta / 3) the radius of gyration
 *     of a shallow cap of depth delta;
 *   - nudged below the Stribeck velocity, it sticks and rolls on at v0 / (1 + I / (m R_c^2)),
 *     and (method rosw) steps past the explicit stability limit of the held bristle
 *     (test_stick_steps: the contact of ball-on-table.vxt, its own tolerances).
 * The first two start resting at the closed-form depth delta, pi delta^2 (R - delta / 3) = m g / k_v,
 * with (initial-overlap allow), and e_eff = 1: no normal damping, hence no rolling resistance
 * (4.67), which the rigid closed forms leave out. mu_s = mu_c, so the start's stiction does
 * not matter. The tolerance asked is 2%. Each runs with bs3, and with every adaptive method
 * under VXC_LONG=1 (make check-long). The cap is measured in closed form (exact, no noise
 * from query to query: a few thousand queries each); by the octree (closed-form off) the
 * contact's default tolerance refines differently from query to query, and the step control
 * resolves that noise, so that these short runs take hundreds of thousands of queries with
 * the slower methods. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

static const double R = 0.1, M = 2, G = 9.81, KV = 1e11, MU = 0.3;
static const char *METHODS[] = {"bs3", "dp5", "rosw", "auto"};

/* How many of METHODS run: all with VXC_LONG=1 (make check-long), else bs3 alone. */
static size_t nmethods(void) {
  const char *s = getenv("VXC_LONG");
  return s && *s && strcmp(s, "0") != 0 ? sizeof METHODS / sizeof *METHODS : 1;
}

/* The resting depth of the ball on the table at stiffness kv. */
static double rest_depth_at(double kv) {
  double d = sqrt(M * G / (kv * M_PI * R));
  for (int k = 0; k < 30; k++) {
    d = sqrt(M * G / (kv * M_PI * (R - d / 3)));
  }
  return d;
}


static double rest_depth(void) {
  return rest_depth_at(KV);
}


typedef struct rec {
  int n;
  double t[4096], vy[4096], wx[4096], wz[4096];
} rec;

static int on_rec(void *ud, const vxc_task_record *r) {
  rec *k = ud;
  if (k->n < 4096) {
    k->t[k->n] = r->t;
    k->vy[k->n] = r->body[1].velocity[1];
    k->wx[k->n] = r->body[1].velocity[3];
    k->wz[k->n] = r->body[1].velocity[5];
    k->n++;
  }
  return 0;
}


/* Runs the ball with initial velocity vy and spin wz for `duration` s with `method`, on a
 * contact of stiffness kv with the parameters `params` (the defaults with mu_s = mu_c = MU
 * when NULL), recording every `every` s; its summary into *sum when not NULL. */
static void run_ball_with(const char *method, double kv, double vy, double wz, double duration,
                          const char *params, double every, rec *k, vxc_task_summary *sum) {
  char text[2048], dflt[128];
  snprintf(dflt, sizeof dflt, "(mu_s %g) (mu_c %g)", MU, MU);
  snprintf(text, sizeof text,
           "(task ball (gravity 0 0 -9.81) (duration %g) (initial-overlap allow)\n"
           "  (integrator adaptive (method %s) (rtol 1e-6) (atol 1e-9) (max-step 5e-3))\n"
           "  (record (every %g))\n"
           "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
           "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 0.008)\n"
           "    (com 0 0 0)) (pose 0 0 %.17g) (velocity 0 %g 0 0 0 %g))\n"
           "  (contact table ball (params (k_v %g) (e_eff 1) %s)))",
           duration, method, every, R - rest_depth_at(kv), vy, wz, kv, params ? params : dflt);
  vxc_task *t = NULL;
  vxc_error err;
  vxc_status st =
      vxc_task_parse(text, strlen(text), "ball.vxt", vxc_test_datadir(), NULL, &t, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  k->n = 0;
  vxc_task_summary s;
  st = vxc_task_run(t, on_rec, NULL, k, &s, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  fprintf(stderr, "# %s: %lld steps, %lld queries, real-time factor %.3g, energy error %.3g J\n",
          method, s.steps, s.queries, s.realtime_factor, s.max_abs_error);
  assert_double_near(s.max_abs_error, 0, 1e-6);
  if (sum) {
    *sum = s;
  }
  vxc_task_free(t);
}


static void run_ball(const char *method, double vy, double wz, double duration, rec *k) {
  run_ball_with(method, KV, vy, wz, duration, NULL, 1e-3, k, NULL);
}


static void test_slide_to_roll(void **state) {
  (void)state;
  const double v0 = 1, ts = 2 * v0 / (7 * MU * G), Rc = R - rest_depth();
  static rec k;
  for (size_t m = 0; m < nmethods(); m++) {
    run_ball(METHODS[m], v0, 0, 1.5 * ts, &k);
    /* the first record at which the slip v - R_c |w| has fallen below 1e-3 of v0 */
    int i = 0;
    while (i + 1 < k.n && k.vy[i] - Rc * fabs(k.wx[i]) > 1e-3 * v0) {
      i++;
    }
    fprintf(stderr, "# %s: rolls at %.5f s with v %.6f m/s (closed form %.5f s, %.6f m/s)\n",
            METHODS[m], k.t[i], k.vy[i], ts, 5.0 / 7 * v0);
    assert_double_rel(k.t[i], ts, 0.02);
    assert_double_rel(k.vy[i], 5.0 / 7 * v0, 0.02);
    /* then it rolls on at that speed: without rolling resistance nothing slows it */
    assert_double_rel(k.vy[k.n - 1], 5.0 / 7 * v0, 0.02);
  }
}


static void test_spin_in_place(void **state) {
  (void)state;
  const double w0 = 20, I = 0.4 * M * R * R, delta = rest_depth();
  const double alpha = MU * sqrt(2 * R * delta / 3) * M * G / I;
  static rec k;
  for (size_t m = 0; m < nmethods(); m++) {
    run_ball(METHODS[m], 0, w0, 0.05, &k);
    /* least-squares slope of w_z after the first 10 ms */
    double st = 0, sw = 0, stt = 0, stw = 0;
    int n = 0;
    for (int i = 0; i < k.n; i++) {
      if (k.t[i] >= 0.01) {
        st += k.t[i];
        sw += k.wz[i];
        stt += k.t[i] * k.t[i];
        stw += k.t[i] * k.wz[i];
        n++;
      }
    }
    double slope = (n * stw - st * sw) / (n * stt - st * st);
    fprintf(stderr, "# %s: spin deceleration %.5g rad/s^2 (closed form %.5g)\n", METHODS[m], -slope,
            alpha);
    assert_double_rel(-slope, alpha, 0.02);
  }
}


/* A ball nudged at v0 = 0.1 mm/s without spin, below the Stribeck velocity v_s = 1 mm/s, on
 * the contact of ball-on-table.vxt (k_v 1e7, sigma0 1e5 1/m, sigma1 316.2 s/m; its normal
 * mode, undamped at e_eff = 1, is then slow: 89 rad/s): the bristle grabs it at once and it
 * rolls on at v0 / (1 + I / (m R_c^2)) (angular momentum about the contact point). Held, the
 * bristle is a stiff spring-damper: its damping sigma1 f_n against the ball's mass at the
 * contact, 1 / m + R_c^2 / I, is a decay rate lambda of about 1.1e4 1/s, which holds an
 * explicit method's step below its stability limit 2.51 / lambda (bs3's real interval) at
 * any tolerance. rosw takes J's stiff mode implicitly: its accepted steps are on average
 * several times that limit and few are rejected, while bs3's stay within it; auto, bs3 where
 * that is stable, steps as rosw does. */
static void test_stick_steps(void **state) {
  (void)state;
  /* R_c: the distance from the centre to the cap's centroid, about which it rolls */
  const double kv = 1e7, v0 = 1e-4, d = rest_depth_at(kv), I = 0.4 * M * R * R, T = 0.3;
  const double Rc = 3 * (2 * R - d) * (2 * R - d) / (4 * (3 * R - d));
  const double s1 = 316.2278, lambda = s1 * M * G * (1 / M + Rc * Rc / I), hlim = 2.51 / lambda;
  const char *params = "(mu_s 0.08) (mu_c 0.05) (sigma0 1e5) (sigma1 316.2278) (v_s 1e-3)";
  const char *m[3] = {"bs3", "rosw", "auto"};
  static rec k;
  for (int i = 0; i < 3; i++) {
    vxc_task_summary sum;
    run_ball_with(m[i], kv, v0, 0, T, params, T / 4, &k, &sum);
    double v = k.vy[k.n - 1], w = k.wx[k.n - 1], mean = T / sum.steps;
    fprintf(stderr,
            "# %s: %lld steps (mean %.3g s, the explicit limit %.3g s), %lld rejected; rolls at "
            "%.6g m/s (closed form %.6g), slip %.3g\n",
            m[i], sum.steps, mean, hlim, sum.rejected, v, v0 / (1 + I / (M * Rc * Rc)),
            v / (Rc * fabs(w)) - 1);
    assert_double_rel(v, v0 / (1 + I / (M * Rc * Rc)), 0.01);
    assert_double_near(v / (Rc * fabs(w)), 1, 1e-3);
    if (i == 0) {
      assert_true(mean < 1.2 * hlim);
    } else {
      assert_true(mean > 5 * hlim);
      assert_true(sum.rejected <= sum.steps / 10);
    }
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_slide_to_roll),
      cmocka_unit_test(test_spin_in_place),
      cmocka_unit_test(test_stick_steps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
