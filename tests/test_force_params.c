/* test_force_params.c: parameters of the force models through the public API: defaults,
 * setting by name, validation with messages naming the parameter, the damping root of the
 * impact equation (3.22-3.23) and its classical approximations (3.26-3.27), and the series
 * stiffness (4.132). */
#include "tests/vxc_test.h"
#include "lib/vxc.h"

/* phi(x) = x - ln(1 + x), accurate to a few ulps also where the two terms cancel: the
 * Taylor series x^2/2 - x^3/3 + x^4/4 - ... for |x| < 0.1, log1p beyond (cancellation
 * there costs at most a factor 20). (Not long double: valgrind runs it as double.) */
static double phi_series(double x) {
  if (fabs(x) >= 0.1) {
    return x - log1p(x);
  }
  double term = x * x, sum = 0;
  for (int k = 2; k < 40; k++) {
    sum += (k % 2 == 0 ? 1 : -1) * term / k;
    term *= x;
  }
  return sum;
}


/* The impact equation d/e - ln(1 + d/e) + d + ln(1 - d) (3.22-3.23) = phi(d/e) - phi(-d). */
static double impact_residual(double d, double e) {
  return phi_series(d / e) - phi_series(-d);
}


/* The equivalent exponential form (1 + d/e) / (1 - d) = exp(d (1 + e) / e), as a relative
 * residual. */
static double exp_form_residual(double d, double e) {
  double lhs = (1.0 + d / e) / (1.0 - d);
  double rhs = exp(d * (1.0 + e) / e);
  return fabs(lhs - rhs) / rhs;
}


/* the defaults are prepared and hold the documented values and their sources */
static void test_params_default_values(void **state) {
  (void)state;
  vxc_params p;
  vxc_params_default(&p);
  assert_int_equal(p.prepared, 1);
  assert_double_near(p.k_v, 1e11, 0);
  assert_double_near(p.e_eff, 0.5, 0);
  assert_double_near(p.v_small, 1e-3, 0);
  assert_double_near(p.tau_r, 0, 0);
  assert_double_rel(p.theta_c, M_PI / 180.0, 1e-15);
  assert_double_near(p.r_n, 0.95, 0);
  assert_int_equal(p.n_i, 15);
  assert_double_rel(p.v_e, p.v_s / 100.0, 1e-15);
  /* guidelines 3.46 and 3.52: sigma0 = mu_s / 0.1 mm, sigma1 = 2 sqrt(sigma0 / g) */
  assert_double_rel(p.sigma0, p.mu_s / 1e-4, 1e-15);
  assert_double_rel(p.sigma1, 2.0 * sqrt(p.sigma0 / 9.81), 1e-15);
  assert_true(p.mu_s >= p.mu_c && p.mu_c > 0);
  /* tau_dw >> sigma1 / sigma0 (guideline) */
  assert_true(p.tau_dw > 10.0 * p.sigma1 / p.sigma0);
  /* the 2 kg, 0.1 m ball rests about 25 um deep: k_v pi x^2 (R - x/3) = m g */
  double x = 25e-6, R = 0.1;
  assert_double_rel(p.k_v * M_PI * x * x * (R - x / 3.0), 2.0 * 9.81, 0.01);
  assert_double_near(p.d, vxc_damping_root(0.5), 0);
  vxc_error err;
  assert_int_equal(vxc_params_prepare(&p, &err), VXC_OK);
}


/* set changes the named value, clears prepared, and keeps v_e tied to v_s unless set */
static void test_params_set_named_values(void **state) {
  (void)state;
  vxc_params p;
  vxc_params_default(&p);
  vxc_error err;
  assert_int_equal(vxc_params_set(&p, "mu_c", 0.07, &err), VXC_OK);
  assert_double_near(p.mu_c, 0.07, 0);
  assert_int_equal(p.prepared, 0);
  assert_int_equal(vxc_params_set(&p, "theta_c", 0.02, &err), VXC_OK); /* rad, as stored */
  assert_double_near(p.theta_c, 0.02, 0);
  assert_int_equal(vxc_params_set(&p, "v_s", 0.02, &err), VXC_OK);
  assert_double_rel(p.v_e, 0.02 / 100.0, 1e-15);
  assert_int_equal(vxc_params_set(&p, "v_e", 1e-6, &err), VXC_OK);
  assert_int_equal(vxc_params_set(&p, "v_s", 0.05, &err), VXC_OK);
  assert_double_near(p.v_e, 1e-6, 0);
  assert_int_equal(vxc_params_set(&p, "n_i", 30, &err), VXC_OK);
  assert_int_equal(p.n_i, 30);
  assert_int_equal(vxc_params_set(&p, "e_eff", 0.8, &err), VXC_OK);
  assert_int_equal(vxc_params_prepare(&p, &err), VXC_OK);
  assert_int_equal(p.prepared, 1);
  assert_double_near(p.d, vxc_damping_root(0.8), 0);
}


/* an unknown name is refused with its name in the message and p untouched */
static void test_params_set_unknown_name_rejected(void **state) {
  (void)state;
  vxc_params p, q;
  vxc_params_default(&p);
  q = p;
  vxc_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(vxc_params_set(&p, "sigma3", 1.0, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "sigma3"));
  assert_int_equal(memcmp(&p, &q, sizeof p), 0);
  assert_int_equal(vxc_params_set(&p, "n_i", 2.5, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "n_i"));
  assert_int_equal(memcmp(&p, &q, sizeof p), 0);
  assert_int_equal(vxc_params_set(&p, NULL, 1.0, NULL), VXC_ERR_ARG);
}


/* prepare rejects every impossible value, names the parameter, keeps the values */
static void test_params_prepare_rejects_each_bad_value(void **state) {
  (void)state;
  struct {
    const char *name;
    double value;
  } bad[] = {
      {"k_v", 0},           {"k_v", -1},     {"k_v", INFINITY}, {"k_v", NAN},    {"e_eff", 0},
      {"e_eff", 1.01},      {"e_eff", -0.5}, {"v_small", 0},    {"tau_r", -1},   {"mu_c", -0.1},
      {"mu_s", 0.01},       {"mu_s", NAN},   {"sigma0", 0},     {"sigma1", -2},  {"sigma2", -1e-3},
      {"v_s", 0},           {"tau_dw", 0},   {"v_e", -1e-6},    {"theta_c", 0},  {"theta_c", 200},
      {"r_n", 1},           {"r_n", -0.1},   {"k_p", 0},        {"p_exp", -1.5}, {"v_small", -1e-3},
      {"sigma0", INFINITY},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    vxc_params p;
    vxc_params_default(&p);
    vxc_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(vxc_params_set(&p, bad[i].name, bad[i].value, &err), VXC_OK);
    vxc_params q = p;
    assert_int_equal(vxc_params_prepare(&p, &err), VXC_ERR_ARG);
    assert_int_equal(err.status, VXC_ERR_ARG);
    if (!strstr(err.message, bad[i].name)) {
      fail_msg("%s = %g: message '%s' does not name it", bad[i].name, bad[i].value, err.message);
    }
    assert_int_equal(p.prepared, 0);
    assert_int_equal(memcmp(&p, &q, sizeof p), 0);
  }
  /* n_i set directly in the struct */
  vxc_params p;
  vxc_params_default(&p);
  p.n_i = 0;
  vxc_error err;
  assert_int_equal(vxc_params_prepare(&p, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "n_i"));
  assert_int_equal(vxc_params_prepare(NULL, NULL), VXC_ERR_ARG);
  /* the limits themselves are accepted: e_eff = 1, mu_s = mu_c, sigma2 = 0, tau_r = 0 */
  vxc_params_default(&p);
  p.e_eff = 1.0;
  p.mu_s = p.mu_c;
  assert_int_equal(vxc_params_prepare(&p, &err), VXC_OK);
  assert_double_near(p.d, 0.0, 0);
}


/* the damping root satisfies the impact equation to 1e-14 (relative to its terms) where
 * the root is well conditioned, and brackets the root everywhere: the residual changes
 * sign across d -+ max(1e-11 min(d, 1 - d), 4 ulps) (below e ~ 0.2, 1 - d is so small that
 * the residual of the best double is limited by the spacing of doubles near 1) */
static void test_damping_root_satisfies_equation(void **state) {
  (void)state;
  double es[] = {0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999};
  for (size_t i = 0; i < sizeof es / sizeof es[0]; i++) {
    double e = es[i], d = vxc_damping_root(e);
    assert_true(d > 0 && d < 1);
    if (e >= 0.2) {
      assert_double_near(impact_residual(d, e), 0.0, 1e-14 * (d / e));
      assert_double_near(exp_form_residual(d, e), 0.0, 1e-14);
    }
    double ulp = nextafter(d, 2.0) - d;
    double step = fmax(1e-11 * fmin(d, 1 - d), 4 * ulp);
    assert_true(impact_residual(d - step, e) > 0);
    assert_true(impact_residual(d + step, e) < 0);
  }
}


/* d decreases with e, goes to 0 as e -> 1 (like 1.5 (1 - e)) and to 1 as e -> 0 */
static void test_damping_root_limits(void **state) {
  (void)state;
  assert_double_near(vxc_damping_root(1.0), 0.0, 0);
  double prev = 1.0;
  for (double e = 0.05; e < 1.0; e += 0.05) {
    double d = vxc_damping_root(e);
    assert_true(d < prev);
    prev = d;
  }
  /* series of the equation about d = 0 with e = 1 - eps: dividing by d^2,
   * (1/e^2 - 1)/2 - d (1/e^3 + 1)/3 + O(d^2 eps) = 0, so d = 1.5 eps + O(eps^3) */
  double e = 1 - 1e-6, eps = 1.0 - e; /* eps exact (Sterbenz) */
  assert_double_rel(vxc_damping_root(e), 1.5 * eps, 1e-8);
  assert_true(vxc_damping_root(1e-6) > 0.999);
  assert_true(vxc_damping_root(1e-6) < 1.0);
  assert_true(isnan(vxc_damping_root(0.0)));
  assert_true(isnan(vxc_damping_root(1.5)));
  assert_true(isnan(vxc_damping_root(NAN)));
}


/* Hunt-Crossley 1.5 e (1 - e) and Lankarani-Nikravesh 0.75 e (1 - e^2) agree with d near
 * e = 1 and not away from it (thesis figure 3.4) */
static void test_damping_root_classical_approximations(void **state) {
  (void)state;
  double near1[] = {0.99, 0.999, 0.9999};
  for (size_t i = 0; i < 3; i++) {
    double e = near1[i], d = vxc_damping_root(e);
    double d_hc = 1.5 * e * (1 - e), d_ln = 0.75 * e * (1 - e * e);
    /* relative agreement improves like (1 - e) */
    assert_double_rel(d_hc, d, 3.0 * (1 - e));
    assert_double_rel(d_ln, d, 3.0 * (1 - e));
  }
  double e = 0.3, d = vxc_damping_root(e);
  assert_true(fabs(1.5 * e * (1 - e) - d) > 0.1 * d);
  assert_true(fabs(0.75 * e * (1 - e * e) - d) > 0.1 * d);
}


/* series stiffness: harmonic sum, rigid bodies, bad values */
static void test_series_stiffness(void **state) {
  (void)state;
  assert_double_rel(vxc_series_stiffness(1e11, 1e11), 5e10, 1e-15);
  assert_double_rel(vxc_series_stiffness(2e9, 6e9), 1.5e9, 1e-15);
  assert_double_near(vxc_series_stiffness(INFINITY, 3e10), 3e10, 0);
  assert_double_near(vxc_series_stiffness(3e10, HUGE_VAL), 3e10, 0);
  assert_true(isnan(vxc_series_stiffness(0, 1)));
  assert_true(isnan(vxc_series_stiffness(1, -1)));
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_params_default_values),
      cmocka_unit_test(test_params_set_named_values),
      cmocka_unit_test(test_params_set_unknown_name_rejected),
      cmocka_unit_test(test_params_prepare_rejects_each_bad_value),
      cmocka_unit_test(test_damping_root_satisfies_equation),
      cmocka_unit_test(test_damping_root_limits),
      cmocka_unit_test(test_damping_root_classical_approximations),
      cmocka_unit_test(test_series_stiffness),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
