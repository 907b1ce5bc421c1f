/* test_pgs.c: vxc's friction in a velocity-level time-stepper that knows nothing of the
 * model (vxc_bristle.h, after Peiret, Kovecses and Font-Llagunes, "The Bristle Friction
 * Model in a Linear Complementarity Formulation for Multibody Systems with Contacts"): a
 * projected Gauss-Seidel solver steps one rigid body on the ground with one contact
 * point, a normal row (impulse >= 0, no separation velocity) and the five bristle rows of
 * vxc_bristle_rows, then hands the forces to vxc_bristle_commit.
 *
 * Body: centre x, velocity u = (v, w), principal axes along the world axes (the bodies
 * here never turn out of them), a contact point at x + r on the ground z = 0 (A = the
 * body, B = the ground, n from A toward B = -z). Step (their (4)): u+ = u- + h g + M^-1
 * J^T P, with P the rows' impulses, J v+ + C (P - h lambda0) = 0 inside each bristle
 * row's bounds [h lo, h hi], the normal impulse >= 0 with J_n v+ = 0 while it pushes; then
 * x+ = x- + h v+. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#define G 9.81
#define NROW (1 + VXC_BRISTLE_ROWS)

typedef struct body {
  double minv[6]; /* 1/m three times (kg^-1), then 1/I about x, y, z (0: rotation held) */
  double u[6];    /* v (m/s), w (rad/s) */
  double x[3];    /* centre, m */
  double r[3];    /* centre to contact point, m */
} body;

typedef struct stepper {
  vxc_params p;
  double g[3]; /* gravity, m/s^2 */
  double h;    /* step, s */
  double f_n;  /* the previous step's normal force, N */
  double state[VXC_STATE_SIZE];
} stepper;

static double dot6(const double a[6], const double b[6]) {
  double s = 0;
  for (int i = 0; i < 6; i++) {
    s += a[i] * b[i];
  }
  return s;
}


/* Jacobian of a force along d at the contact point (d . (v + w x r) = d . v + (r x d) . w),
 * or of a torque about d. */
static void jacobian(const body *b, const double d[3], int torque, double J[6]) {
  for (int i = 0; i < 3; i++) {
    J[i] = torque ? 0.0 : d[i];
  }
  if (torque) {
    memcpy(J + 3, d, 3 * sizeof *d);
  } else {
    J[3] = b->r[1] * d[2] - b->r[2] * d[1];
    J[4] = b->r[2] * d[0] - b->r[0] * d[2];
    J[5] = b->r[0] * d[1] - b->r[1] * d[0];
  }
}


/* One PGS solve of the rows on u (in place); P: the impulses. */
static void pgs(body *b, double J[NROW][6], const double lo[NROW], const double hi[NROW],
                const double C[NROW], const double p0[NROW], double P[NROW]) {
  double W[NROW];
  for (int j = 0; j < NROW; j++) {
    W[j] = 0;
    for (int i = 0; i < 6; i++) {
      W[j] += J[j][i] * J[j][i] * b->minv[i];
    }
  }
  for (int it = 0; it < 500; it++) {
    double change = 0, scale = 1e-300;
    for (int j = 0; j < NROW; j++) {
      if (hi[j] <= lo[j] || W[j] + C[j] <= 0) { /* a row with no room (rolling off) */
        continue;
      }
      double d = -(dot6(J[j], b->u) + C[j] * (P[j] - p0[j])) / (W[j] + C[j]);
      double np = fmin(hi[j], fmax(lo[j], P[j] + d));
      for (int i = 0; i < 6; i++) {
        b->u[i] += b->minv[i] * J[j][i] * (np - P[j]);
      }
      change = fmax(change, fabs(np - P[j]));
      scale = fmax(scale, fabs(np));
      P[j] = np;
    }
    if (change <= 1e-15 * scale) {
      return;
    }
  }
}


static void step(stepper *s, body *b) {
  const double n[3] = {0, 0, -1}, up[3] = {0, 0, 1};
  vxc_bristle_row rows[VXC_BRISTLE_ROWS];
  assert_int_equal(vxc_bristle_rows(&s->p, s->state, s->f_n, n, s->h, rows, NULL), VXC_OK);
  double J[NROW][6], lo[NROW], hi[NROW], C[NROW], p0[NROW], P[NROW] = {0};
  jacobian(b, up, 0, J[0]);
  lo[0] = 0, hi[0] = HUGE_VAL, C[0] = 0, p0[0] = 0;
  for (int j = 0; j < VXC_BRISTLE_ROWS; j++) {
    jacobian(b, rows[j].dir, j >= 2, J[1 + j]);
    lo[1 + j] = s->h * rows[j].lo;
    hi[1 + j] = s->h * rows[j].hi;
    C[1 + j] = rows[j].compliance;
    p0[1 + j] = s->h * rows[j].lambda0;
  }
  for (int i = 0; i < 3; i++) {
    b->u[i] += s->h * s->g[i];
  }
  pgs(b, J, lo, hi, C, p0, P);
  for (int i = 0; i < 3; i++) {
    b->x[i] += s->h * b->u[i];
  }
  double lambda[VXC_BRISTLE_ROWS], v[VXC_BRISTLE_ROWS];
  for (int j = 0; j < VXC_BRISTLE_ROWS; j++) {
    lambda[j] = P[1 + j] / s->h;
    v[j] = dot6(J[1 + j], b->u);
  }
  assert_int_equal(vxc_bristle_commit(&s->p, rows, lambda, v, s->h, s->state, NULL), VXC_OK);
  s->f_n = P[0] / s->h;
}


/* A stepper at rest on the ground (f_n = m g_n, dwell state 1, bristles relaxed). */
static void stepper_init(stepper *s, double m, const double g[3], double h) {
  vxc_params_default(&s->p);
  memcpy(s->g, g, sizeof s->g);
  s->h = h;
  s->f_n = -m * g[2];
  vxc_contact_reset(s->state);
  s->state[VXC_STATE_SDW] = 1.0;
}


static void set_params(stepper *s, const char *const *names, const double *values, int n) {
  vxc_error err;
  for (int i = 0; i < n; i++) {
    assert_int_equal(vxc_params_set(&s->p, names[i], values[i], &err), VXC_OK);
  }
  assert_int_equal(vxc_params_prepare(&s->p, &err), VXC_OK);
}


/* A disk (m, R, I = m R^2 / 2 about its axle y) sliding along x at v0 without spin:
 * friction mu m g slows it, v = v0 - mu g t, and spins it up, I w' = mu m g R, w = 2 mu g
 * t / R, until v = R w at t = v0 / (3 mu g), where v = 2/3 v0. After that nothing changes
 * the angular momentum about the contact point, m v R + I w = m v0 R, so it rolls on at
 * 2/3 v0 whatever the bristle does as it sticks. */
static void test_disk_starts_rolling(void **state) {
  (void)state;
  const double m = 2, R = 0.1, mu = 0.2, v0 = 1, h = 1e-4, g[3] = {0, 0, -G};
  stepper s;
  stepper_init(&s, m, g, h);
  set_params(&s, (const char *[]){"mu_s", "mu_c"}, (double[]){mu, mu}, 2);
  body b = {.minv = {1 / m, 1 / m, 1 / m, 4 / (m * R * R), 2 / (m * R * R), 4 / (m * R * R)},
            .u = {v0, 0, 0, 0, 0, 0},
            .x = {0, 0, R},
            .r = {0, 0, -R}};
  double t_roll = -1, v_roll = 0, t_star = v0 / (3 * mu * G);
  for (int k = 1; k <= 10000; k++) {
    step(&s, &b);
    double slip = b.u[0] - R * b.u[4];
    if (t_roll < 0 && slip <= 0) { /* the sliding ends */
      t_roll = k * h;
      v_roll = b.u[0];
    }
    if (slip > 3 * mu * G * h) { /* sliding through the whole step: at the bound */
      assert_double_rel(b.u[0], v0 - mu * G * k * h, 1e-9);
    }
  }
  assert_double_near(t_roll, t_star, h);
  assert_double_near(v_roll, 2.0 / 3.0 * v0, mu * G * h);
  /* the bristle then gives back its deflection mu / sigma0 (a slip of a few mm/s, a few
   * hundredths of a second: the defaults' pre-sliding distance is 0.1 mm); 0.8 s later */
  assert_double_rel(b.u[0], 2.0 / 3.0 * v0, 1e-6);
  assert_double_rel(R * b.u[4], 2.0 / 3.0 * v0, 1e-6);
  assert_double_near(b.x[2], R, 1e-12); /* the normal row kept it on the ground */
}


/* A block (a particle: its rotation held) on a slope tan(theta) = 0.04 below the friction
 * angle (mu_c 0.05, mu_s 0.08, the defaults): the bristle gives by its static deflection
 * s = m g sin(theta) / (sigma0 m g cos(theta)) = tan(theta) / sigma0 and then holds: the
 * backward-Euler bristle at rest is a fixed point, so it does not creep. */
static void test_block_does_not_creep(void **state) {
  (void)state;
  const double m = 1, th = atan(0.04), h = 1e-3;
  const double g[3] = {G * sin(th), 0, -G * cos(th)};
  stepper s;
  stepper_init(&s, m, g, h);
  body b = {.minv = {1 / m, 1 / m, 1 / m, 0, 0, 0}, .r = {0, 0, -0.05}};
  for (int k = 0; k < 1000; k++) {
    step(&s, &b);
  }
  double x1 = b.x[0];
  assert_double_rel(x1, tan(th) / s.p.sigma0, 1e-3);
  for (int k = 0; k < 10000; k++) {
    step(&s, &b);
  }
  assert_double_near(b.x[0], x1, 1e-9);
  assert_double_near(b.u[0], 0, 1e-12);
}


/* A sphere (m, R, I = 2/5 m R^2) with rate-independent rolling and spinning (eta_r, eta_s):
 * rolling without slip, m a = -F, I a / R = F R - eta_r m g, so a = -5 g eta_r / (7 R);
 * spinning in place, I w' = -eta_s m g, w' = -5 g eta_s / (2 R^2). */
static void test_sphere_rolling_spinning(void **state) {
  (void)state;
  const double m = 2, R = 0.1, eta_r = 1e-3, eta_s = 1e-4, h = 1e-3, g[3] = {0, 0, -G};
  for (int spin = 0; spin < 2; spin++) {
    stepper s;
    stepper_init(&s, m, g, h);
    set_params(&s, (const char *[]){"rolling", "eta_r", "eta_s"}, (double[]){1, eta_r, eta_s}, 3);
    double Iinv = 1 / (0.4 * m * R * R);
    body b = {.minv = {1 / m, 1 / m, 1 / m, Iinv, Iinv, Iinv}, .x = {0, 0, R}, .r = {0, 0, -R}};
    if (spin) {
      b.u[5] = 2;
    } else {
      b.u[0] = 0.1, b.u[4] = 0.1 / R;
    }
    double q[2];
    for (int k = 1; k <= 500; k++) {
      step(&s, &b);
      if (k == 100 || k == 500) {
        q[k == 500] = spin ? b.u[5] : b.u[0];
      }
    }
    double rate = (q[0] - q[1]) / 0.4;
    assert_double_rel(rate, spin ? 5 * G * eta_s / (2 * R * R) : 5 * G * eta_r / (7 * R), 1e-2);
  }
}


/* The same sphere on a slope tan(theta) = r eta_r / R, r < 1: at rest it needs the
 * friction m g sin(theta) and a rolling torque m g sin(theta) R, within eta_r m g
 * cos(theta). Its centre gives by the sliding bristle's deflection tan(theta) / sigma0
 * and by R times the rolling bristle's angle, M / (f_n eta_r / phi_0) = r phi_0, and then
 * holds. At r = 0.9 the release overshoots the bound for a moment: the sphere rolls a
 * little at the bound before it sticks, so it gives more than that, and holds as well. */
static void test_sphere_held_on_slope(void **state) {
  (void)state;
  const double m = 2, R = 0.1, eta_r = 1e-3, h = 1e-3, ratio[2] = {0.5, 0.9};
  for (int c = 0; c < 2; c++) {
    double th = atan(ratio[c] * eta_r / R);
    const double g[3] = {G * sin(th), 0, -G * cos(th)};
    stepper s;
    stepper_init(&s, m, g, h);
    set_params(&s, (const char *[]){"rolling", "eta_r"}, (double[]){1, eta_r}, 2);
    double Iinv = 1 / (0.4 * m * R * R);
    body b = {.minv = {1 / m, 1 / m, 1 / m, Iinv, Iinv, Iinv}, .x = {0, 0, R}, .r = {0, 0, -R}};
    for (int k = 0; k < 1000; k++) {
      step(&s, &b);
    }
    double x1 = b.x[0], elastic = tan(th) / s.p.sigma0 + ratio[c] * s.p.phi_0 * R;
    if (c == 0) {
      assert_double_rel(x1, elastic, 1e-3);
    } else {
      assert_true(x1 > elastic && x1 < 2 * elastic);
    }
    for (int k = 0; k < 10000; k++) {
      step(&s, &b);
    }
    assert_double_near(b.x[0], x1, 1e-9);
  }
}


/* Bad input is refused and leaves the outputs alone. */
static void test_bristle_errors(void **state) {
  (void)state;
  vxc_params p;
  vxc_params_default(&p);
  double st[VXC_STATE_SIZE] = {0}, n[3] = {0, 0, 1}, bad[3] = {0, 0, 2};
  vxc_bristle_row rows[VXC_BRISTLE_ROWS];
  memset(rows, 0x5a, sizeof rows);
  unsigned char ref[sizeof rows];
  memcpy(ref, rows, sizeof rows);
  assert_int_equal(vxc_bristle_rows(NULL, st, 1, n, 1e-3, rows, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_bristle_rows(&p, st, -1, n, 1e-3, rows, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_bristle_rows(&p, st, 1, n, 0, rows, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_bristle_rows(&p, st, 1, bad, 1e-3, rows, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_bristle_rows(&p, st, NAN, n, 1e-3, rows, NULL), VXC_ERR_NUMERIC);
  assert_memory_equal(rows, ref, sizeof rows);
  /* the rows: C = 1 / (h (k h + c)) with k = sigma0 f_n, c = sigma1 f_n; bounds mu f_n */
  st[VXC_STATE_Z] = 1e-5;
  assert_int_equal(vxc_bristle_rows(&p, st, 10, n, 1e-3, rows, NULL), VXC_OK);
  double k = p.sigma0 * 10, c = p.sigma1 * 10;
  assert_double_rel(rows[0].compliance, 1 / (1e-3 * (k * 1e-3 + c)), 1e-12);
  assert_double_near(rows[0].hi, p.mu_c * 10, 1e-12); /* s_dw = 0: mu_c */
  assert_double_near(rows[0].lambda0 * rows[0].dir[0] + rows[1].lambda0 * rows[1].dir[0], -k * 1e-5,
                     1e-12);
  assert_double_near(rows[2].hi, 0, 0); /* rolling = 0: no rolling rows */
  double lam[VXC_BRISTLE_ROWS] = {0}, v[VXC_BRISTLE_ROWS] = {0};
  lam[0] = NAN;
  assert_int_equal(vxc_bristle_commit(&p, rows, lam, v, 1e-3, st, NULL), VXC_ERR_NUMERIC);
  assert_double_near(st[VXC_STATE_Z], 1e-5, 0);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_disk_starts_rolling),     cmocka_unit_test(test_block_does_not_creep),
      cmocka_unit_test(test_sphere_rolling_spinning), cmocka_unit_test(test_sphere_held_on_slope),
      cmocka_unit_test(test_bristle_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
