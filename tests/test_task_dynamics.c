/* test_task_dynamics.c: the task simulator against closed forms and conservation laws:
 * free fall (exact for RK4), a torque-free asymmetric body (energy and angular momentum),
 * RK4's fourth order, the adaptive method's error control, driven keyframes, and a ball
 * bouncing on a table (e = 1 returns to its height; e = 0.5 rebounds at half the speed),
 * which needs the first contact located as an event. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"
#include "tests/vxc_test_api.h"

static vxc_task *load(const char *text) {
  vxc_task *t = NULL;
  vxc_error err;
  vxc_status st =
      vxc_task_parse(text, strlen(text), "test.vxt", vxc_test_datadir(), NULL, &t, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  return t;
}


static void run(vxc_task *t, vxc_task_record_fn rec, void *ud, vxc_task_summary *s) {
  vxc_error err;
  vxc_status st = vxc_task_run(t, rec, NULL, ud, s, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  assert_int_equal(s->completed, 1);
}


static void test_free_fall(void **state) {
  (void)state;
  vxc_task *t = load(
      "(task fall (gravity 0.5 0 -9.81) (duration 0.7) (integrator rk4 (step 0.01))\n"
      "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 0.008)\n"
      "    (com 0 0 0)) (pose 1 2 3) (velocity 0.1 -0.2 4 0 0 0)))");
  vxc_task_summary s;
  run(t, NULL, NULL, &s);
  double T = 0.7;
  const double *p = s.body[0].pose, *v = s.body[0].velocity;
  /* RK4 integrates a quadratic trajectory exactly */
  assert_double_near(p[0], 1 + 0.1 * T + 0.25 * T * T, 1e-12);
  assert_double_near(p[1], 2 - 0.2 * T, 1e-12);
  assert_double_near(p[2], 3 + 4 * T - 0.5 * 9.81 * T * T, 1e-12);
  assert_double_near(v[0], 0.1 + 0.5 * T, 1e-12);
  assert_double_near(v[2], 4 - 9.81 * T, 1e-12);
  assert_double_near(s.energy.error, 0, 1e-10);
  vxc_task_free(t);
}


/* Final angular velocity (world) and quaternion of a torque-free asymmetric body. */
static void spin(const char *integrator, double duration, double q[4], double w[3],
                 vxc_task_summary *out) {
  char text[1024];
  snprintf(text, sizeof text,
           "(task spin (duration %g) %s\n"
           "  (body b (model \"ball.vxm\") (free (mass 1) (inertia 2 3 4 0.1 0.05 -0.2)\n"
           "    (com 0.01 0.02 0.03)) (pose 0 0 0 0.9 0.1 0.3 0.2) (velocity 0 0 0 0.2 5 0.3)))",
           duration, integrator);
  vxc_task *t = load(text);
  vxc_task_summary s;
  run(t, NULL, NULL, &s);
  memcpy(q, s.body[0].pose + 3, 4 * sizeof *q);
  memcpy(w, s.body[0].velocity + 3, 3 * sizeof *w);
  if (out) {
    *out = s;
  }
  vxc_task_free(t);
}


static void test_torque_free(void **state) {
  (void)state;
  /* spinning near the intermediate axis (unstable): energy and L = R I R^T w conserved */
  double q0[4] = {0.9, 0.1, 0.3, 0.2}, w0[3] = {0.2, 5, 0.3};
  double n = sqrt(0.81 + 0.01 + 0.09 + 0.04);
  for (int i = 0; i < 4; i++) {
    q0[i] /= n;
  }
  double I[9] = {2, 0.1, 0.05, 0.1, 3, -0.2, 0.05, -0.2, 4};
  double q[4], w[3];
  vxc_task_summary s;
  spin("(integrator rk4 (step 1e-3))", 5, q, w, &s);
  double L[2][3], E[2];
  for (int k = 0; k < 2; k++) {
    double R[9], wb[3], Iw[3];
    const double *qq = k ? q : q0, *ww = k ? w : w0;
    vxc_test_quat_matrix(qq, R);
    for (int i = 0; i < 3; i++) {
      wb[i] = R[i] * ww[0] + R[3 + i] * ww[1] + R[6 + i] * ww[2];
    }
    for (int i = 0; i < 3; i++) {
      Iw[i] = I[3 * i] * wb[0] + I[3 * i + 1] * wb[1] + I[3 * i + 2] * wb[2];
    }
    E[k] = 0.5 * (wb[0] * Iw[0] + wb[1] * Iw[1] + wb[2] * Iw[2]);
    for (int i = 0; i < 3; i++) {
      L[k][i] = R[3 * i] * Iw[0] + R[3 * i + 1] * Iw[1] + R[3 * i + 2] * Iw[2];
    }
  }
  assert_double_rel(E[1], E[0], 1e-8);
  for (int i = 0; i < 3; i++) {
    assert_double_near(L[1][i], L[0][i], 1e-7 * 10);
  }
  assert_double_near(s.energy.error, 0, 1e-8 * E[0]);
  /* the motion is not trivial: w has turned far from its start */
  double d = 0;
  for (int i = 0; i < 3; i++) {
    d += (w[i] - w0[i]) * (w[i] - w0[i]);
  }
  assert_true(sqrt(d) > 1);
}


static double state_diff(const double qa[4], const double wa[3], const double qb[4],
                         const double wb[3]) {
  double d = 0, s = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3] < 0 ? -1 : 1;
  for (int i = 0; i < 4; i++) {
    d = fmax(d, fabs(qa[i] - s * qb[i]));
  }
  for (int i = 0; i < 3; i++) {
    d = fmax(d, fabs(wa[i] - wb[i]) / 5);
  }
  return d;
}


static void test_rk4_order(void **state) {
  (void)state;
  double qr[4], wr[3], q1[4], w1[3], q2[4], w2[3];
  spin("(integrator rk4 (step 1.25e-3))", 2, qr, wr, NULL);
  spin("(integrator rk4 (step 0.04))", 2, q1, w1, NULL);
  spin("(integrator rk4 (step 0.02))", 2, q2, w2, NULL);
  double e1 = state_diff(q1, w1, qr, wr), e2 = state_diff(q2, w2, qr, wr);
  fprintf(stderr, "# rk4 errors: h = 0.04: %.3g, h = 0.02: %.3g, ratio %.3g\n", e1, e2, e1 / e2);
  /* fourth order: halving h divides the error by about 16 */
  assert_true(e1 / e2 > 11 && e1 / e2 < 22);
}


/* Under error control, for each pair: a tolerance 1e3-1e4 times tighter gives a far smaller
 * error with more steps, and each error is of the order of its tolerance over the run. */
static void test_adaptive_error_control(void **state) {
  (void)state;
  double qr[4], wr[3], q1[4], w1[3], q2[4], w2[3];
  spin("(integrator rk4 (step 1e-3))", 2, qr, wr, NULL);
  const char *m[4] = {"dp5", "bs3", "rosw", "auto"};
  const double tight[4] = {1e-9, 1e-8, 1e-8, 1e-8}, more[4] = {2, 4, 4, 4};
  for (int k = 0; k < 4; k++) {
    char a[200], b[200];
    vxc_task_summary s1, s2;
    snprintf(a, sizeof a,
             "(integrator adaptive (method %s) (rtol 1e-5) (atol 1e-8) (max-step 0.5))", m[k]);
    snprintf(b, sizeof b, "(integrator adaptive (method %s) (rtol %g) (atol %g) (max-step 0.5))",
             m[k], tight[k], tight[k] * 1e-3);
    spin(a, 2, q1, w1, &s1);
    spin(b, 2, q2, w2, &s2);
    double e1 = state_diff(q1, w1, qr, wr), e2 = state_diff(q2, w2, qr, wr);
    fprintf(stderr, "# %s: rtol 1e-5: %lld steps, error %.3g; rtol %g: %lld steps, %.3g\n", m[k],
            s1.steps, e1, tight[k], s2.steps, e2);
    assert_true(e1 < 1e-3);
    assert_true(e2 < 1e-6);
    assert_true(e2 < e1 / 100);
    assert_true(s2.steps > more[k] * s1.steps);
    assert_true(s1.max_step > 0.01); /* it does take large steps where it can */
  }
}


/* The adaptive pairs' orders: with tolerances so loose that no step is rejected, the steps
 * grow to max-step, and halving it divides the error by 2^order (Dormand-Prince: 5,
 * Bogacki-Shampine: 3, the Rosenbrock-W method: 3; without a contact its Jacobian is empty
 * and it is an explicit four-stage method of that order; auto, without a contact, takes
 * bs3's steps). */
static void test_adaptive_pair_orders(void **state) {
  (void)state;
  double qr[4], wr[3], q1[4], w1[3], q2[4], w2[3];
  spin("(integrator rk4 (step 1e-3))", 2, qr, wr, NULL);
  const char *m[4] = {"dp5", "bs3", "rosw", "auto"};
  const double h[4] = {0.08, 0.04, 0.02, 0.04}, lo[4] = {22, 5.5, 5.5, 5.5};
  const double hi[4] = {45, 11, 11, 11};
  for (int k = 0; k < 4; k++) {
    char a[200], b[200];
    vxc_task_summary s1, s2;
    snprintf(a, sizeof a, "(integrator adaptive (method %s) (rtol 1) (atol 1) (max-step %g))", m[k],
             h[k]);
    snprintf(b, sizeof b, "(integrator adaptive (method %s) (rtol 1) (atol 1) (max-step %g))", m[k],
             h[k] / 2);
    spin(a, 2, q1, w1, &s1);
    spin(b, 2, q2, w2, &s2);
    double e1 = state_diff(q1, w1, qr, wr), e2 = state_diff(q2, w2, qr, wr);
    fprintf(stderr, "# %s: max-step %g: error %.3g; %g: %.3g; ratio %.3g (%lld, %lld steps)\n",
            m[k], h[k], e1, h[k] / 2, e2, e1 / e2, s1.steps, s2.steps);
    assert_int_equal(s1.rejected + s2.rejected, 0);
    assert_true(e1 / e2 > lo[k] && e1 / e2 < hi[k]);
  }
}


typedef struct track {
  double zmin, zmax_after, vz_before, vz_after, t_contact;
  int bounced;
  double last_vz;
} track;

static int on_rec(void *ud, const vxc_task_record *r) {
  track *k = ud;
  double z = r->body[1].pose[2], vz = r->body[1].velocity[2];
  if (z < k->zmin) {
    k->zmin = z;
  }
  if (r->contact[0].npairs > 0) {
    k->bounced = 1;
  } else if (k->bounced && z > k->zmax_after) {
    k->zmax_after = z;
  }
  if (!k->bounced && vz < k->vz_before) {
    k->vz_before = vz;
  }
  if (k->bounced && r->contact[0].npairs == 0 && k->vz_after == 0) {
    k->vz_after = vz;
  }
  return 0;
}


/* With gravity: dropped with its lowest point 0.1 m above the table, impact at
 * sqrt(2 g 0.1) = 1.4007 m/s. Without: thrown down at that speed from the same height.
 * Returns the task: the summary's arrays belong to it, so the caller frees it after
 * reading them. */
static vxc_task *bounce(double e, int gravity, track *k, vxc_task_summary *s) {
  char text[2048];
  snprintf(text, sizeof text,
           "(task bounce (gravity 0 0 %g) (duration %g)\n"
           "  (integrator adaptive (rtol 1e-8) (atol 1e-11) (max-step 1e-3))\n"
           "  (record (every 1e-4))\n"
           "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
           "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 0.008)\n"
           "    (com 0 0 0)) (pose 0 0 0.2) (velocity 0 0 %.17g 0 0 0))\n"
           "  (contact table ball (params (e_eff %g) (mu_s 0) (mu_c 0)) (voxel 1e-3)))",
           gravity ? -9.81 : 0.0, gravity ? 0.32 : 0.1, gravity ? 0.0 : -sqrt(2 * 9.81 * 0.1), e);
  vxc_task *t = load(text);
  memset(k, 0, sizeof *k);
  k->zmin = 1;
  run(t, on_rec, k, s);
  return t;
}


static void test_bounce_elastic(void **state) {
  (void)state;
  track k;
  vxc_task_summary s;
  vxc_task *t = bounce(1, 1, &k, &s);
  double v0 = sqrt(2 * 9.81 * 0.1);
  fprintf(stderr, "# e = 1: vz before %.9g, after %.9g, energy error %.3g J, %lld queries\n",
          k.vz_before, k.vz_after, s.energy.error, s.queries);
  assert_int_equal(s.contact[0].impacts, 1);
  assert_double_rel(-k.vz_before, v0, 2e-3); /* the record just before touching */
  /* no energy is created or lost at the impact: it leaves as fast as it came (the first
     record after it has lost at most g * 1e-4 s) and rises back to its start height */
  assert_double_near(k.vz_after, v0, 9.81e-4 + 1e-5);
  assert_double_near(k.zmax_after, 0.2, 1e-6);
  assert_double_near(s.energy.dissipated, 0, 1e-6);
  assert_double_near(s.max_abs_error, 0, 1e-5 * 2 * 9.81 * 0.2);
  /* it sank about the static depth of a 1.4 m/s impact, not through the table */
  assert_true(k.zmin > 0.099 && k.zmin < 0.1);
  vxc_task_free(t);
}


static void test_bounce_restitution(void **state) {
  (void)state;
  track k;
  vxc_task_summary s;
  vxc_task *t = bounce(0.5, 0, &k, &s); /* no gravity: the impact alone decides the rebound */
  double v0 = sqrt(2 * 9.81 * 0.1);
  fprintf(stderr, "# e = 0.5: vz after %.9g, dissipated %.6g J\n", k.vz_after, s.energy.dissipated);
  /* lib/README.md section 5: one impact returns -e times the approach speed, whatever the mass or
     the volume law */
  assert_double_rel(k.vz_after, 0.5 * v0, 1e-5);
  /* the normal damping dissipated (1 - e^2) of the impact energy (m v0^2 / 2) */
  assert_double_rel(s.energy.normal, 0.75 * 0.5 * 2 * v0 * v0, 5e-3);
  assert_double_near(s.max_abs_error, 0, 1e-4);
  vxc_task_free(t);
}


static int on_key(void *ud, const vxc_task_record *r) {
  double *maxerr = ud;
  /* keyframes 0 -> 1 s: x from 0 to 1, a quarter turn about z; then held */
  double t = r->t, s = t < 1 ? t : 1;
  double x = s, ang = s * M_PI / 2;
  const double *p = r->body[0].pose, *v = r->body[0].velocity;
  double e = fabs(p[0] - x) + fabs(p[3] - cos(ang / 2)) + fabs(p[6] - sin(ang / 2));
  if (t < 1 - 1e-9 && t > 1e-9) {
    e += fabs(v[0] - 1) + fabs(v[5] - M_PI / 2);
  }
  *maxerr = fmax(*maxerr, e);
  return 0;
}


static void test_driven_keyframes(void **state) {
  (void)state;
  vxc_task *t = load(
      "(task drive (duration 1.5) (integrator rk4 (step 0.01)) (record (every 0.05))\n"
      "  (body hand (model \"ball.vxm\") (driven (keyframe 0 0 0 0 1 0 0 0)\n"
      "    (keyframe 1 1 0 0 0.7071067811865476 0 0 0.7071067811865476)) (pose 0 0 0)))");
  double maxerr = 0;
  vxc_task_summary s;
  run(t, on_key, &maxerr, &s);
  assert_double_near(maxerr, 0, 1e-12);
  vxc_task_free(t);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_free_fall),
      cmocka_unit_test(test_torque_free),
      cmocka_unit_test(test_rk4_order),
      cmocka_unit_test(test_adaptive_error_control),
      cmocka_unit_test(test_adaptive_pair_orders),
      cmocka_unit_test(test_driven_keyframes),
      cmocka_unit_test(test_bounce_elastic),
      cmocka_unit_test(test_bounce_restitution),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
