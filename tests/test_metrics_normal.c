/* test_metrics_normal.c: the contact normal by shifted inverse iteration, checked against
 * tensors built from known eigenvectors and against the Jacobi eigensolver. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#define DEG (M_PI / 180.0)
/* relative uncertainty of J passed to the iteration (a well-resolved volume) */
#define REL 1e-6

/* vxc_normal_solve with the default options (theta_c 1 degree, r_n 0.95, n_i 15), the previous
 * normal `prev` and J's relative uncertainty `rel`; flags may be NULL. */
static vxc_status solve(const double J[9], const double geo[3], const double *prev, double rel,
                        double n[3], int *flags) {
  vxc_normal_options o;
  vxc_normal_options_default(&o);
  o.n_prev = prev;
  o.j_rel_err = rel;
  vxc_normal_result r;
  vxc_status st = vxc_normal_solve(J, geo, &o, &r, NULL);
  if (st == VXC_OK) {
    memcpy(n, r.n, sizeof r.n);
    if (flags) {
      *flags = r.flags;
    }
  } else {
    n[0] = n[1] = n[2] = NAN; /* a caller that reads n after a failure fails its check */
  }
  return st;
}


/* J = Q diag(lam) Q^T with Q a rotation from an axis-angle. */
static void make_tensor(const double lam[3], const double axis[3], double angle, double J[9],
                        double Q[9]) {
  double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  double x = axis[0] / n, y = axis[1] / n, z = axis[2] / n, c = cos(angle), s = sin(angle);
  double C = 1 - c;
  double R[9] = {c + x * x * C,     x * y * C - z * s, x * z * C + y * s,
                 y * x * C + z * s, c + y * y * C,     y * z * C - x * s,
                 z * x * C - y * s, z * y * C + x * s, c + z * z * C};
  memcpy(Q, R, sizeof R);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      J[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) {
        J[3 * i + j] += R[3 * i + k] * lam[k] * R[3 * j + k];
      }
    }
  }
}


static double angle_between(const double a[3], const double b[3]) {
  double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  double x[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  return atan2(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), c);
}


/* Rotates v by `ang` toward a direction orthogonal to it. */
static void tilt(const double v[3], const double toward[3], double ang, double out[3]) {
  double d = v[0] * toward[0] + v[1] * toward[1] + v[2] * toward[2];
  double w[3] = {toward[0] - d * v[0], toward[1] - d * v[1], toward[2] - d * v[2]};
  double n = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  for (int i = 0; i < 3; i++) {
    out[i] = cos(ang) * v[i] + sin(ang) * w[i] / n;
  }
}


// a thin disc (pancake): its normal has the largest eigenvalue, about twice the in-plane
// ones; from a guess 40 degrees off, the shifted iteration finds the normal to 1e-12
// (unshifted inverse iteration would go to an in-plane axis)
static void test_normal_pancake_finds_disc_normal(void **state) {
  (void)state;
  vxc_rng r = {2024};
  for (int k = 0; k < 2000; k++) {
    // disc of radius a, thickness t: I_axis = V a^2 / 2, I_in_plane = V (a^2/4 + t^2/12)
    double a = 0.01, t = vxc_rng_uniform(&r, 1e-5, 2e-3), V = M_PI * a * a * t;
    double lam[3] = {V * (a * a / 4 + t * t / 12), V * (a * a / 4 + t * t / 12), V * a * a / 2};
    double axis[3] = {vxc_rng_uniform(&r, -1, 1), vxc_rng_uniform(&r, -1, 1),
                      vxc_rng_uniform(&r, -1, 1)};
    double J[9], Q[9];
    make_tensor(lam, axis, vxc_rng_uniform(&r, 0, M_PI), J, Q);
    double normal[3] = {Q[2], Q[5], Q[8]}, in_plane[3] = {Q[0], Q[3], Q[6]};
    double guess[3];
    tilt(normal, in_plane, vxc_rng_uniform(&r, 0, 40) * DEG, guess);
    double n[3];
    int flags = 0;
    assert_int_equal(solve(J, guess, NULL, REL, n, &flags), VXC_OK);
    assert_true(flags & VXC_NORMAL_CONVERGED);
    assert_double_near(angle_between(n, normal), 0, 1e-12);
  }
}


// well-separated random spectra: the vector equals Jacobi's eigenvector nearest the guess to
// 1e-9, and both equal the constructed one
static void test_normal_matches_jacobi(void **state) {
  (void)state;
  vxc_rng r = {99};
  for (int k = 0; k < 2000; k++) {
    double lam[3] = {1.0, 1.5 + vxc_rng_uniform(&r, 0, 0.5), 3.0 + vxc_rng_uniform(&r, 0, 2)};
    double axis[3] = {vxc_rng_uniform(&r, -1, 1), vxc_rng_uniform(&r, -1, 1),
                      vxc_rng_uniform(&r, -1, 1)};
    double J[9], Q[9];
    make_tensor(lam, axis, vxc_rng_uniform(&r, 0, M_PI), J, Q);
    int target = k % 3;
    double v[3] = {Q[target], Q[3 + target], Q[6 + target]};
    double other[3] = {Q[(target + 1) % 3], Q[3 + (target + 1) % 3], Q[6 + (target + 1) % 3]};
    double guess[3];
    tilt(v, other, vxc_rng_uniform(&r, 0, 10) * DEG, guess);
    double n[3];
    assert_int_equal(solve(J, guess, NULL, REL, n, NULL), VXC_OK);
    double ev[3], evec[9];
    assert_int_equal(vxc_sym3_eigen(J, ev, evec, NULL), VXC_OK);
    for (int i = 0; i < 3; i++) {
      assert_double_rel(ev[i], lam[i], 1e-12);
    }
    double jac[3] = {evec[target], evec[3 + target], evec[6 + target]};
    double a1 = angle_between(n, jac), a2 = angle_between(n, v);
    assert_true(a1 < 1e-9 || M_PI - a1 < 1e-9);
    assert_double_near(a2, 0, 1e-9);  // oriented along the guess
  }
}


// an isotropic tensor (a deep, nearly spherical overlap) has no preferred axis: the guess
// comes back, flagged, instead of a wild vector
static void test_normal_degenerate_returns_guess(void **state) {
  (void)state;
  vxc_rng r = {5};
  for (int k = 0; k < 200; k++) {
    double lam[3] = {2.0, 2.0 * (1 + 1e-7), 2.0 * (1 + 2e-7)};  // gaps below REL
    double axis[3] = {vxc_rng_uniform(&r, -1, 1), vxc_rng_uniform(&r, -1, 1), 0.3};
    double J[9], Q[9];
    make_tensor(lam, axis, vxc_rng_uniform(&r, 0, M_PI), J, Q);
    double guess[3] = {vxc_rng_uniform(&r, -1, 1), vxc_rng_uniform(&r, -1, 1), 1};
    double gn = sqrt(guess[0] * guess[0] + guess[1] * guess[1] + 1);
    double n[3];
    int flags = 0;
    assert_int_equal(solve(J, guess, NULL, REL, n, &flags), VXC_OK);
    assert_int_equal(flags, VXC_NORMAL_DEGENERATE);
    for (int i = 0; i < 3; i++) {
      assert_double_near(n[i], guess[i] / gn, 1e-15);
    }
  }
}


// the trust rule: a gap of 1e-3 of the spread is resolved when J is exact to 1e-4, and
// refused (guess returned, flagged) when J is only good to 1e-2
static void test_normal_gap_is_judged_against_the_uncertainty_of_j(void **state) {
  (void)state;
  double lam[3] = {1.0, 2.0, 2.002}, axis[3] = {0.3, -0.5, 0.8}, J[9], Q[9];
  make_tensor(lam, axis, 0.7, J, Q);
  double v[3] = {Q[2], Q[5], Q[8]}, other[3] = {Q[1], Q[4], Q[7]}, guess[3], n[3];
  tilt(v, other, 5 * DEG, guess);
  int flags = 0;
  assert_int_equal(solve(J, guess, NULL, 1e-4, n, &flags), VXC_OK);
  assert_true(flags & VXC_NORMAL_CONVERGED);
  assert_double_near(angle_between(n, v), 0, 1e-9);
  assert_int_equal(solve(J, guess, NULL, 1e-2, n, &flags), VXC_OK);
  assert_int_equal(flags, VXC_NORMAL_DEGENERATE);
  assert_double_near(angle_between(n, guess), 0, 1e-15);
  assert_int_equal(solve(J, guess, NULL, -1, n, &flags), VXC_ERR_ARG);
}


// as the eigenvalue's gap grows from below its uncertainty to four times it, the normal
// moves continuously from the guess (5 degrees off) to the eigenvector: the guess below 1,
// the eigenvector above 4, a blend flagged in between, never a jump
static void test_normal_moves_continuously_as_the_gap_opens(void **state) {
  (void)state;
  const double rel = 1e-3;
  double prev_n[3] = {0, 0, 0}, prev_angle = 10;
  for (int k = 0; k <= 1000; k++) {
    double ratio = 0.5 + 4.5 * k / 1000.0; /* gap / (rel * spread) */
    /* eigenvalues 1, 2, 2 (1 + g): gap 2 g, spread 2 (1 + g), so ratio = g / (rel (1 + g)) */
    double g = ratio * rel / (1 - ratio * rel);
    double lam[3] = {1.0, 2.0, 2.0 * (1 + g)}, axis[3] = {0.3, -0.5, 0.8}, J[9], Q[9];
    make_tensor(lam, axis, 0.7, J, Q);
    double v[3] = {Q[2], Q[5], Q[8]}, other[3] = {Q[1], Q[4], Q[7]}, guess[3], n[3];
    tilt(v, other, 5 * DEG, guess);
    int flags = 0;
    assert_int_equal(solve(J, guess, NULL, rel, n, &flags), VXC_OK);
    double a = angle_between(n, v);
    if (ratio < 0.999) {
      assert_int_equal(flags, VXC_NORMAL_DEGENERATE);
      assert_double_near(angle_between(n, guess), 0, 1e-12);
    } else if (ratio > 4.001) {
      assert_false(flags & VXC_NORMAL_BLENDED);
      assert_double_near(a, 0, 1e-9);
    } else if (ratio > 1.001 && ratio < 3.999) {
      assert_true(flags & VXC_NORMAL_BLENDED);
      assert_true(a > 0 && a < 5 * DEG);
    }
    assert_true(a <= prev_angle + 1e-12); /* monotone toward the eigenvector */
    if (k > 0) {
      assert_true(angle_between(n, prev_n) < 0.05 * DEG);
    }
    memcpy(prev_n, n, sizeof n);
    prev_angle = a;
  }
}


// the guess blends the previous normal (weight r_n) with the geometric one, and the
// result points along n_geo whatever the sign of the previous normal
static void test_normal_uses_previous_normal_and_orients_along_geo(void **state) {
  (void)state;
  double lam[3] = {1, 1, 2};  // axisymmetric pancake about z: only z is determined
  double J[9], Q[9];
  double axis[3] = {0, 0, 1};
  make_tensor(lam, axis, 0, J, Q);
  // n_geo 60 degrees off z (it alone would lead to an in-plane eigenvalue region),
  // but the previous normal is -z: the blended guess is near z
  double geo[3] = {sin(60 * DEG), 0, cos(60 * DEG)}, prev[3] = {0, 0, -1};
  double n[3];
  int flags = 0;
  assert_int_equal(solve(J, geo, prev, REL, n, &flags), VXC_OK);
  assert_true(flags & VXC_NORMAL_CONVERGED);
  assert_double_near(n[0], 0, 1e-12);
  assert_double_near(n[1], 0, 1e-12);
  assert_double_near(n[2], 1, 1e-12);  // flipped to agree with n_geo
  // the positional form is the same computation
  double n2[3];
  int flags2 = 0, it = -1;
  assert_int_equal(vxc_normal_from_inertia(J, geo, prev, 1 * DEG, 0.95, 15, REL, n2, &flags2, &it, NULL),
                   VXC_OK);
  assert_memory_equal(n2, n, sizeof n);
  assert_int_equal(flags2, flags);
  assert_in_range(it, 1, 15);
}


// invalid inputs are refused and the output is untouched
static void test_normal_bad_arguments(void **state) {
  (void)state;
  double J[9] = {1, 0, 0, 0, 2, 0, 0, 0, 3}, zero[3] = {0, 0, 0}, g[3] = {0, 0, 1};
  double n[3] = {7, 7, 7};
  assert_int_equal(vxc_normal_from_inertia(J, zero, NULL, 0.01, 0.95, 15, REL, n, NULL, NULL, NULL),
                   VXC_ERR_ARG);
  assert_int_equal(vxc_normal_from_inertia(J, g, NULL, 0, 0.95, 15, REL, n, NULL, NULL, NULL),
                   VXC_ERR_ARG);
  assert_int_equal(vxc_normal_from_inertia(J, g, NULL, 0.01, 1.0, 15, REL, n, NULL, NULL, NULL),
                   VXC_ERR_ARG);
  assert_int_equal(vxc_normal_from_inertia(J, g, NULL, 0.01, 0.95, 0, REL, n, NULL, NULL, NULL),
                   VXC_ERR_ARG);
  J[4] = NAN;
  assert_int_equal(vxc_normal_from_inertia(J, g, NULL, 0.01, 0.95, 15, REL, n, NULL, NULL, NULL),
                   VXC_ERR_ARG);
  assert_double_near(n[0], 7, 0);
  // the options form: each option out of range, and NULL options or result
  J[4] = 2;
  vxc_normal_options o;
  vxc_normal_result r = {{7, 7, 7}, 7, 7};
  assert_int_equal(vxc_normal_solve(J, g, NULL, &r, NULL), VXC_ERR_ARG);
  vxc_normal_options_default(&o);
  assert_int_equal(vxc_normal_solve(J, g, &o, NULL, NULL), VXC_ERR_ARG);
  o.theta_c = 0;
  assert_int_equal(vxc_normal_solve(J, g, &o, &r, NULL), VXC_ERR_ARG);
  vxc_normal_options_default(&o);
  o.r_n = 1;
  assert_int_equal(vxc_normal_solve(J, g, &o, &r, NULL), VXC_ERR_ARG);
  vxc_normal_options_default(&o);
  o.n_i = 0;
  assert_int_equal(vxc_normal_solve(J, g, &o, &r, NULL), VXC_ERR_ARG);
  vxc_normal_options_default(&o);
  o.j_rel_err = INFINITY;
  assert_int_equal(vxc_normal_solve(J, g, &o, &r, NULL), VXC_ERR_ARG);
  vxc_normal_options_default(&o);
  assert_int_equal(vxc_normal_solve(J, zero, &o, &r, NULL), VXC_ERR_ARG);
  assert_true(r.n[0] == 7 && r.flags == 7 && r.iterations == 7);
  // and the defaults are valid: g is J's eigenvector of the separated eigenvalue 3
  assert_int_equal(vxc_normal_solve(J, g, &o, &r, NULL), VXC_OK);
  assert_double_near(r.n[2], 1, 1e-15);
  J[4] = NAN;
  double ev[3], evec[9];
  assert_int_equal(vxc_sym3_eigen(J, ev, evec, NULL), VXC_ERR_NUMERIC);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_normal_pancake_finds_disc_normal),
      cmocka_unit_test(test_normal_matches_jacobi),
      cmocka_unit_test(test_normal_degenerate_returns_guess),
      cmocka_unit_test(test_normal_moves_continuously_as_the_gap_opens),
      cmocka_unit_test(test_normal_gap_is_judged_against_the_uncertainty_of_j),
      cmocka_unit_test(test_normal_uses_previous_normal_and_orients_along_geo),
      cmocka_unit_test(test_normal_bad_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
