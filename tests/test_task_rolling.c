/* test_task_rolling.c: a ball on a table against the closed forms of a rigid sphere under
 * Coulomb friction, run as tasks with the contact's default (rtol) tolerance:
 *   - sliding at v0 without spin, friction mu_c m g slows it (dv/dt = -mu_c g) and spins it up
 *     (I dw/dt = mu_c m g R_c) until it rolls, v = R_c w: at t* = 2 v0 / (7 mu_c g), with
 *     v = 5/7 v0 (I = 2/5 m R^2; R_c, the distance from the centre to the contact's centroid,
 *     is R to 2e-4 at this depth);
 *   - spinning in place, the spinning friction torque mu_c r_gyr f_n (lib/README.md section 7,
 *     4.237) slows it at mu_c r_gyr m g / I, r_gyr = sqrt(2 R delta / 3) the radius of gyration
 *     of a shallow cap of depth delta.
 * Both start resting at the closed-form depth delta, pi delta^2 (R - delta / 3) = m g / k_v,
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
static const char *METHODS[] = {"bs3", "dp5", "rosw"};

/* How many of METHODS run: all with VXC_LONG=1 (make check-long), else bs3 alone. */
static size_t nmethods(void) {
  const char *s = getenv("VXC_LONG");
  return s && *s && strcmp(s, "0") != 0 ? sizeof METHODS / sizeof *METHODS : 1;
}

/* The resting depth of the ball on the table at stiffness KV. */
static double rest_depth(void) {
  double d = sqrt(M * G / (KV * M_PI * R));
  for (int k = 0; k < 30; k++) {
    d = sqrt(M * G / (KV * M_PI * (R - d / 3)));
  }
  return d;
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


/* Runs the ball with initial velocity vy and spin wz for `duration` s with `method`. */
static void run_ball(const char *method, double vy, double wz, double duration, rec *k) {
  char text[2048];
  snprintf(text, sizeof text,
           "(task ball (gravity 0 0 -9.81) (duration %g) (initial-overlap allow)\n"
           "  (integrator adaptive (method %s) (rtol 1e-6) (atol 1e-9) (max-step 5e-3))\n"
           "  (record (every 1e-3))\n"
           "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
           "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 0.008)\n"
           "    (com 0 0 0)) (pose 0 0 %.17g) (velocity 0 %g 0 0 0 %g))\n"
           "  (contact table ball (params (k_v %g) (e_eff 1) (mu_s %g) (mu_c %g))))",
           duration, method, R - rest_depth(), vy, wz, KV, MU, MU);
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
  vxc_task_free(t);
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


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_slide_to_roll),
      cmocka_unit_test(test_spin_in_place),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
