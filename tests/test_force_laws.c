/* test_force_laws.c: the force laws of one volumetric contact, evaluated once, against
 * what lib/README.md sections 6-8 imply: Contensou coupling of sliding and spinning friction,
 * the sliding limit of the spinning torque, the stick and saturation branches of the
 * bristle, the dwell time, the rolling resistance torque, passivity of the dissipative
 * terms, and invariance under a rigid motion of the whole scene. */
#include "tests/vxc_test.h"
#include "lib/vxc.h"
#include "tests/vxc_test_api.h"

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}


static double norm3(const double a[3]) {
  return sqrt(dot3(a, a));
}


static void cross3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}


static void mat_vec(const double m[9], const double v[3], double o[3]) {
  for (int i = 0; i < 3; i++) {
    o[i] = m[3 * i] * v[0] + m[3 * i + 1] * v[1] + m[3 * i + 2] * v[2];
  }
}


static void random_unit(vxc_rng *r, double u[3]) {
  do {
    for (int i = 0; i < 3; i++) {
      u[i] = vxc_rng_uniform(r, -1, 1);
    }
  } while (norm3(u) < 0.1 || norm3(u) > 1);
  double l = norm3(u);
  for (int i = 0; i < 3; i++) {
    u[i] /= l;
  }
}


/* A right-handed orthonormal frame (e1, e2, n) as the columns of R (row-major). */
static void frame_from_normal(const double n[3], double R[9]) {
  double t[3] = {1, 0, 0};
  if (fabs(n[0]) > 0.6) {
    t[0] = 0;
    t[1] = 1;
  }
  double e1[3], e2[3];
  cross3(t, n, e1);
  double l = norm3(e1);
  for (int i = 0; i < 3; i++) {
    e1[i] /= l;
  }
  cross3(n, e1, e2);
  for (int i = 0; i < 3; i++) {
    R[3 * i] = e1[i];
    R[3 * i + 1] = e2[i];
    R[3 * i + 2] = n[i];
  }
}


/* J = R diag(l1, l2, ln) R^T: n (the third column of R) is an eigenvector. */
static void inertia_with_normal(const double R[9], double l1, double l2, double ln, double J[9]) {
  double l[3] = {l1, l2, ln};
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      J[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) {
        J[3 * i + j] += R[3 * i + k] * l[k] * R[3 * j + k];
      }
    }
  }
}


/* Parameters for sliding-friction checks: no viscous term, v_s = 1 mm/s. */
static vxc_params sliding_params(void) {
  vxc_params p;
  vxc_params_default(&p);
  p.k_v = 1e10;
  p.mu_s = 0.4;
  p.mu_c = 0.3;
  p.sigma0 = p.mu_s / 1e-4;
  p.sigma1 = 2 * sqrt(p.sigma0 / 9.81);
  p.sigma2 = 0;
  p.v_s = 1e-3;
  p.v_e = 1e-5;
  assert_int_equal(vxc_params_prepare(&p, NULL), VXC_OK);
  return p;
}


/* A contact on the plane z = 0 with n = +z, V = 1e-6 m^3, r_gyr = 0.02 m; body A moves
 * with (v_t, w_n) relative to B at the centroid (its reference point), without normal
 * velocity, so f_n = k_v V. */
typedef struct flat_contact {
  vxc_contact_geometry g;
  vxc_body_motion a, b;
  double state[VXC_STATE_SIZE];
  double r_gyr;
} flat_contact;


static void flat_contact_init(const vxc_params *p, flat_contact *c, const double v_t[3],
                              double w_n) {
  memset(c, 0, sizeof *c);
  c->g.volume = 1e-6;
  c->r_gyr = 0.02;
  double ln = c->g.volume * c->r_gyr * c->r_gyr;
  double J[9] = {0.6 * ln, 0, 0, 0, 0.5 * ln, 0, 0, 0, ln};
  memcpy(c->g.inertia, J, sizeof J);
  c->g.normal[2] = 1;
  c->g.centroid[0] = 0.3;
  memcpy(c->a.r, c->g.centroid, sizeof c->a.r);
  memcpy(c->a.v, v_t, sizeof c->a.v);
  c->a.w[2] = w_n;
  c->b.r[2] = 0.5;
  assert_int_equal(vxc_contact_start(p, &c->g, &c->a, &c->b, c->state, NULL), VXC_OK);
}


/* pure spin: C_w = 1, C_v = 0 and the torque is the sliding limit mu_c r_gyr f_n; with a
 * small slip added, C_v and C_w follow |v_t| / v_avg and r_gyr |w_n| / v_avg */
static void test_contensou_pure_spin(void **state) {
  (void)state;
  vxc_params p = sliding_params();
  flat_contact c;
  double v0[3] = {0, 0, 0};
  double w_n = 50.0; /* r_gyr w_n = 1 m/s = 1000 v_s: sliding */
  flat_contact_init(&p, &c, v0, w_n);
  assert_double_rel(vxc_gyration_radius(&c.g), c.r_gyr, 1e-15);
  /* steady sliding state of the spin bristle: theta = mu_c C_ws / (r_gyr sigma0) */
  c.state[VXC_STATE_THETA] = p.mu_c / (c.r_gyr * p.sigma0);
  vxc_wrench w;
  double ds[VXC_STATE_SIZE];
  assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, ds, NULL), VXC_OK);
  double f_n = p.k_v * c.g.volume;
  assert_double_rel(w.f_n, f_n, 1e-15);
  assert_double_near(w.stick, 0.0, 1e-300);
  assert_double_near(norm3(w.force_friction), 0.0, 0);                     /* C_v = 0 */
  assert_double_rel(w.torque_spinning[2], -p.mu_c * c.r_gyr * f_n, 1e-12); /* C_w = 1 */
  assert_double_near(w.torque_spinning[0], 0, 0);
  assert_double_near(w.torque_spinning[1], 0, 0);
  assert_double_near(ds[VXC_STATE_THETA], 0.0, 1e-12 * w_n);

  /* small slip: C_v = |v_t| / v_avg -> 0, C_w -> 1 */
  double v_t[3] = {1e-4, 0, 0}; /* 10 v_e */
  flat_contact_init(&p, &c, v_t, w_n);
  assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, NULL, NULL), VXC_OK);
  double v_avg = hypot(1e-4, c.r_gyr * w_n);
  double c_v = norm3(w.force_friction) / (p.mu_c * f_n);
  double c_w = fabs(w.torque_spinning[2]) / (p.mu_c * c.r_gyr * f_n);
  assert_double_rel(c_v, 1e-4 / v_avg, 1e-12);
  assert_double_rel(c_w, c.r_gyr * w_n / v_avg, 1e-12);
  assert_true(c_v < 1e-3 && c_w > 1 - 1e-6);
  /* friction opposes the slip of A, the torque its spin */
  assert_true(w.force_friction[0] < 0 && w.torque_spinning[2] < 0);
}


/* pure sliding: C_v = 1, C_w = 0 and the force is the Coulomb force mu_c f_n */
static void test_contensou_pure_sliding(void **state) {
  (void)state;
  vxc_params p = sliding_params();
  flat_contact c;
  double v_t[3] = {0.3, -0.4, 0};
  flat_contact_init(&p, &c, v_t, 0.0);
  vxc_wrench w;
  assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, NULL, NULL), VXC_OK);
  double f_n = p.k_v * c.g.volume;
  for (int i = 0; i < 3; i++) {
    assert_double_near(w.force_friction[i], -p.mu_c * f_n * v_t[i] / 0.5, 1e-12 * f_n);
    assert_double_near(w.torque_spinning[i], 0.0, 0);
  }
}


/* while sliding, C_v^2 + C_w^2 = 1 to 1e-12 for any mix of slip and spin */
static void test_contensou_factors_on_unit_circle(void **state) {
  (void)state;
  vxc_params p = sliding_params();
  vxc_rng rng = {0x5eed1234abcdULL};
  for (int k = 0; k < 2000; k++) {
    double ang = vxc_rng_uniform(&rng, 0, 2 * M_PI);
    double speed = pow(10.0, vxc_rng_uniform(&rng, -1.3, 1)); /* >= 50 v_s */
    double vr = speed * cos(ang), wr = speed * sin(ang);
    /* keep both parts away from the relaxed-direction band |.| < v_e */
    if (fabs(vr) < 2e-5 || fabs(wr) < 2e-5) {
      continue;
    }
    double dir = vxc_rng_uniform(&rng, 0, 2 * M_PI);
    double v_t[3] = {vr * cos(dir), vr * sin(dir), 0};
    flat_contact c;
    flat_contact_init(&p, &c, v_t, wr / 0.02);
    vxc_wrench w;
    assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, NULL, NULL), VXC_OK);
    double f_n = w.f_n;
    double c_v = norm3(w.force_friction) / (p.mu_c * f_n);
    double c_w = fabs(w.torque_spinning[2]) / (p.mu_c * c.r_gyr * f_n);
    assert_double_near(c_v * c_v + c_w * c_w, 1.0, 1e-12);
  }
}


/* stick branch: no motion, s = 1, the bristle acts as a spring: f_t = -f_n sigma0 z and
 * dz/dt = 0; beyond mu_s it saturates at mu_s f_n and the rate relaxes z */
static void test_friction_stick_and_saturation(void **state) {
  (void)state;
  vxc_params p = sliding_params();
  flat_contact c;
  double v0[3] = {0, 0, 0};
  flat_contact_init(&p, &c, v0, 0.0);
  double f_n = p.k_v * c.g.volume;
  double z_ok = 0.5 * p.mu_s / p.sigma0; /* half the stiction limit */
  c.state[VXC_STATE_Z + 0] = 0.6 * z_ok;
  c.state[VXC_STATE_Z + 1] = -0.8 * z_ok;
  vxc_wrench w;
  double ds[VXC_STATE_SIZE];
  assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, ds, NULL), VXC_OK);
  assert_double_near(w.stick, 1.0, 0);
  for (int i = 0; i < 3; i++) {
    assert_double_near(w.force_friction[i], -f_n * p.sigma0 * c.state[VXC_STATE_Z + i],
                       1e-12 * f_n);
    assert_double_near(ds[VXC_STATE_Z + i], 0.0, 0);
  }
  assert_double_near(ds[VXC_STATE_SDW], 0.0, 0); /* s = s_dw = 1 */

  /* three times the limit: |f_t| = mu_s f_n (s_dw = 1), along -z, and
   * sigma0 z + sigma1 dz/dt = mu_s z / |z| */
  double z3 = 6 * z_ok;
  c.state[VXC_STATE_Z + 0] = 0.6 * z3;
  c.state[VXC_STATE_Z + 1] = -0.8 * z3;
  assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, ds, NULL), VXC_OK);
  assert_double_rel(norm3(w.force_friction), p.mu_s * f_n, 1e-12);
  assert_double_rel(w.force_friction[0], -p.mu_s * f_n * 0.6, 1e-12);
  for (int i = 0; i < 2; i++) {
    double b = p.sigma0 * c.state[VXC_STATE_Z + i] + p.sigma1 * ds[VXC_STATE_Z + i];
    assert_double_near(b, p.mu_s * (i == 0 ? 0.6 : -0.8), 1e-12);
  }

  /* dwell: with s_dw = 0.25 the limit is mu_c + (mu_s - mu_c) / 4, and s_dw rises toward
   * s = 1 with tau_dw */
  c.state[VXC_STATE_SDW] = 0.25;
  assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, ds, NULL), VXC_OK);
  assert_double_rel(norm3(w.force_friction), (p.mu_c + 0.25 * (p.mu_s - p.mu_c)) * f_n, 1e-12);
  assert_double_rel(ds[VXC_STATE_SDW], 0.75 / p.tau_dw, 1e-15);

  /* sliding (s = 0): s_dw falls with the bristle time constant sigma1 / sigma0 */
  double v_t[3] = {0.2, 0, 0};
  flat_contact_init(&p, &c, v_t, 0.0);
  c.state[VXC_STATE_SDW] = 0.25;
  assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, ds, NULL), VXC_OK);
  assert_double_rel(ds[VXC_STATE_SDW], -0.25 * p.sigma0 / p.sigma1, 1e-15);
  /* and the bristle relaxes toward the Coulomb deflection mu_c / sigma0 along v_t */
  assert_double_rel(ds[VXC_STATE_Z], p.mu_c / p.sigma1, 1e-12);
}


/* the viscous term adds -f_n sigma2 v_t and -r_gyr^2 f_n sigma2 w_n */
static void test_friction_viscous_terms(void **state) {
  (void)state;
  vxc_params p = sliding_params();
  p.sigma2 = 0.7;
  assert_int_equal(vxc_params_prepare(&p, NULL), VXC_OK);
  vxc_params p0 = sliding_params();
  double v_t[3] = {0.1, 0.2, 0};
  flat_contact c;
  flat_contact_init(&p, &c, v_t, 3.0);
  vxc_wrench w, w0;
  assert_int_equal(vxc_contact_eval(&p, &c.g, &c.a, &c.b, c.state, &w, NULL, NULL), VXC_OK);
  assert_int_equal(vxc_contact_eval(&p0, &c.g, &c.a, &c.b, c.state, &w0, NULL, NULL), VXC_OK);
  for (int i = 0; i < 3; i++) {
    assert_double_near(w.force_friction[i] - w0.force_friction[i], -w.f_n * 0.7 * v_t[i],
                       1e-12 * w.f_n);
  }
  assert_double_near(w.torque_spinning[2] - w0.torque_spinning[2],
                     -c.r_gyr * c.r_gyr * w.f_n * 0.7 * 3.0, 1e-12 * w.f_n * c.r_gyr);
}


/* rolling: zero when the bodies turn together, -k_v a J w_t otherwise, opposing w_t */
static void test_rolling_torque_opposes_relative_rolling(void **state) {
  (void)state;
  vxc_params p = sliding_params();
  vxc_rng rng = {0xfeedULL};
  for (int k = 0; k < 200; k++) {
    double n[3], R[9];
    random_unit(&rng, n);
    frame_from_normal(n, R);
    vxc_contact_geometry g;
    memset(&g, 0, sizeof g);
    g.volume = vxc_rng_uniform(&rng, 1e-8, 1e-5);
    double s2 = vxc_rng_uniform(&rng, 1e-4, 1e-2) * g.volume;
    inertia_with_normal(R, s2, vxc_rng_uniform(&rng, 0.3, 1) * s2, vxc_rng_uniform(&rng, 1, 2) * s2,
                        g.inertia);
    memcpy(g.normal, n, sizeof n);
    for (int i = 0; i < 3; i++) {
      g.centroid[i] = vxc_rng_uniform(&rng, -1, 1);
    }
    vxc_body_motion a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    double v_in = vxc_rng_uniform(&rng, 0.01, 2);
    for (int i = 0; i < 3; i++) {
      a.r[i] = g.centroid[i] - 0.1 * n[i];
      b.r[i] = g.centroid[i] + 0.1 * n[i];
      a.v[i] = v_in * n[i];
    }
    double st[VXC_STATE_SIZE];
    assert_int_equal(vxc_contact_start(&p, &g, &a, &b, st, NULL), VXC_OK);
    double aa = p.d / (p.e_eff * v_in);
    memset(a.v, 0, sizeof a.v);

    /* both bodies spin with the same w: no relative rolling, no torque */
    for (int i = 0; i < 3; i++) {
      a.w[i] = b.w[i] = vxc_rng_uniform(&rng, -5, 5);
    }
    vxc_wrench w;
    assert_int_equal(vxc_contact_eval(&p, &g, &a, &b, st, &w, NULL, NULL), VXC_OK);
    assert_double_near(norm3(w.torque_rolling), 0.0, 0);

    /* relative rolling w_t plus a spin part (which must not roll) */
    double wt[3], u1[3] = {R[0], R[3], R[6]}, u2[3] = {R[1], R[4], R[7]};
    double c1 = vxc_rng_uniform(&rng, -3, 3), c2 = vxc_rng_uniform(&rng, -3, 3);
    double spin = vxc_rng_uniform(&rng, -3, 3);
    for (int i = 0; i < 3; i++) {
      wt[i] = c1 * u1[i] + c2 * u2[i];
      a.w[i] = b.w[i] + wt[i] + spin * n[i];
    }
    assert_int_equal(vxc_contact_eval(&p, &g, &a, &b, st, &w, NULL, NULL), VXC_OK);
    double jw[3];
    mat_vec(g.inertia, wt, jw);
    double scale = p.k_v * aa * norm3(jw);
    for (int i = 0; i < 3; i++) {
      assert_double_near(w.torque_rolling[i], -p.k_v * aa * jw[i], 1e-12 * scale);
    }
    assert_true(dot3(wt, w.torque_rolling) < 0);
    /* it is a pure torque, on A and reversed on B */
    double tspin[3], tsum[3];
    for (int i = 0; i < 3; i++) {
      tspin[i] = w.torque_rolling[i] + w.torque_spinning[i];
    }
    double la[3], lb[3];
    double ra[3], rb[3];
    for (int i = 0; i < 3; i++) {
      ra[i] = g.centroid[i] - a.r[i];
      rb[i] = g.centroid[i] - b.r[i];
    }
    cross3(ra, w.force_a, la);
    cross3(rb, w.force_b, lb);
    for (int i = 0; i < 3; i++) {
      tsum[i] = w.torque_a[i] - la[i];
      assert_double_near(tsum[i], tspin[i], 1e-12 * (norm3(tspin) + norm3(la)));
      assert_double_near(w.torque_b[i] - lb[i], -tspin[i], 1e-12 * (norm3(tspin) + norm3(lb)));
    }
  }
}


/* A random scene: geometry (random SPD J, unit n, V), body frames and velocities, state. */
typedef struct scene {
  vxc_contact_geometry g;
  vxc_body_motion a, b;
  double st[VXC_STATE_SIZE];
} scene;


static void random_scene(vxc_rng *r, const vxc_params *p, double speed_lo, scene *s) {
  memset(s, 0, sizeof *s);
  s->g.volume = pow(10.0, vxc_rng_uniform(r, -9, -4));
  double L = cbrt(s->g.volume);
  /* J = V L^2 (M M^T + 0.05 I) with M random: symmetric positive definite */
  double M[9];
  for (int i = 0; i < 9; i++) {
    M[i] = vxc_rng_uniform(r, -1, 1);
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double sum = i == j ? 0.05 : 0.0;
      for (int k = 0; k < 3; k++) {
        sum += M[3 * i + k] * M[3 * j + k];
      }
      s->g.inertia[3 * i + j] = s->g.volume * L * L * sum;
    }
  }
  random_unit(r, s->g.normal);
  for (int i = 0; i < 3; i++) {
    s->g.centroid[i] = vxc_rng_uniform(r, -0.5, 0.5);
    s->a.r[i] = s->g.centroid[i] + vxc_rng_uniform(r, -0.3, 0.3);
    s->b.r[i] = s->g.centroid[i] + vxc_rng_uniform(r, -0.3, 0.3);
  }
  double va = pow(10.0, vxc_rng_uniform(r, log10(speed_lo), 0.5));
  double wa = pow(10.0, vxc_rng_uniform(r, log10(speed_lo), 1.5));
  double u[3];
  random_unit(r, u);
  for (int i = 0; i < 3; i++) {
    s->a.v[i] = va * u[i];
  }
  random_unit(r, u);
  for (int i = 0; i < 3; i++) {
    s->a.w[i] = wa * u[i];
    s->b.v[i] = vxc_rng_uniform(r, -0.1, 0.1) * va;
    s->b.w[i] = vxc_rng_uniform(r, -0.1, 0.1) * wa;
  }
  assert_int_equal(vxc_contact_start(p, &s->g, &s->a, &s->b, s->st, NULL), VXC_OK);
  /* a state anywhere in its range; z in the contact plane */
  double z[3];
  random_unit(r, z);
  double zm = vxc_rng_uniform(r, 0, 2) * p->mu_s / p->sigma0;
  for (int i = 0; i < 3; i++) {
    s->st[VXC_STATE_Z + i] = zm * z[i];
  }
  vxc_contact_project(s->st, s->g.normal);
  s->st[VXC_STATE_THETA] = vxc_rng_uniform(r, -1, 1) * p->mu_s / p->sigma0 / 0.01;
  s->st[VXC_STATE_SDW] = vxc_rng_uniform(r, 0, 1);
}


/* passivity: with sliding (v_avg >> v_s, the bristle at its Coulomb steady force) the
 * power of everything but the elastic part of the normal force, P + k_v V v_cn, is never
 * positive; and the reported power equals the bodies' power F.v + tau.w */
static void test_passivity_dissipative_power_never_positive(void **state) {
  (void)state;
  vxc_rng rng = {0x9a551feULL};
  int clamped = 0, checked = 0;
  for (int k = 0; k < 20000; k++) {
    vxc_params p = sliding_params();
    p.e_eff = vxc_rng_uniform(&rng, 0.05, 1.0);
    p.sigma2 = vxc_rng_uniform(&rng, 0, 2);
    p.k_v = pow(10.0, vxc_rng_uniform(&rng, 8, 12));
    assert_int_equal(vxc_params_prepare(&p, NULL), VXC_OK);
    scene s;
    random_scene(&rng, &p, 0.05, &s);
    vxc_wrench w;
    assert_int_equal(vxc_contact_eval(&p, &s.g, &s.a, &s.b, s.st, &w, NULL, NULL), VXC_OK);
    /* the sliding regime only (the stuck bristle stores and returns energy) */
    if (w.stick > 1e-30) {
      continue;
    }
    checked++;
    double vca[3], vcb[3], ra[3], rb[3], v_c[3];
    for (int i = 0; i < 3; i++) {
      ra[i] = s.g.centroid[i] - s.a.r[i];
      rb[i] = s.g.centroid[i] - s.b.r[i];
    }
    cross3(s.a.w, ra, vca);
    cross3(s.b.w, rb, vcb);
    for (int i = 0; i < 3; i++) {
      v_c[i] = s.a.v[i] + vca[i] - s.b.v[i] - vcb[i];
    }
    double v_cn = dot3(v_c, s.g.normal);
    if (w.f_n == 0) {
      clamped++;
    }
    double p_bodies = dot3(w.force_a, s.a.v) + dot3(w.torque_a, s.a.w) + dot3(w.force_b, s.b.v) +
                      dot3(w.torque_b, s.b.w);
    double scale = (norm3(w.force_a) + p.k_v * s.g.volume) * (norm3(v_c) + 1) +
                   (norm3(w.torque_a) + norm3(w.torque_b)) * (norm3(s.a.w) + norm3(s.b.w));
    assert_double_near(w.power, p_bodies, 1e-12 * scale);
    double diss = w.power + p.k_v * s.g.volume * v_cn;
    if (!(diss <= 1e-13 * scale)) {
      fail_msg("case %d: dissipative power %.6g > 0 (scale %.3g)", k, diss, scale);
    }
  }
  printf("# %d sliding cases checked, %d with the normal force clamped at 0\n", checked, clamped);
  assert_true(checked > 10000 && clamped > 100);
}


/* Rotates v by R (row-major). */
static void rot(const double R[9], const double v[3], double o[3]) {
  mat_vec(R, v, o);
}


/* frame invariance: rotating and translating the scene rotates the wrench and the state
 * derivative and leaves the scalars alone, to 1e-12 relative, in every regime */
static void test_frame_invariance(void **state) {
  (void)state;
  vxc_rng rng = {0x1234567ULL};
  for (int k = 0; k < 3000; k++) {
    vxc_params p = sliding_params();
    p.sigma2 = vxc_rng_uniform(&rng, 0, 1);
    assert_int_equal(vxc_params_prepare(&p, NULL), VXC_OK);
    scene s, t;
    random_scene(&rng, &p, 1e-5, &s);
    /* random rotation from a unit quaternion, random translation */
    double q[4];
    do {
      for (int i = 0; i < 4; i++) {
        q[i] = vxc_rng_uniform(&rng, -1, 1);
      }
    } while (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1);
    double ql = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    const double qn[4] = {q[0] / ql, q[1] / ql, q[2] / ql, q[3] / ql};
    double R[9];
    vxc_test_quat_matrix(qn, R);
    double tr[3];
    for (int i = 0; i < 3; i++) {
      tr[i] = vxc_rng_uniform(&rng, -1, 1);
    }
    t = s;
    t.g.volume = s.g.volume;
    rot(R, s.g.centroid, t.g.centroid);
    rot(R, s.g.normal, t.g.normal);
    rot(R, s.a.r, t.a.r);
    rot(R, s.b.r, t.b.r);
    for (int i = 0; i < 3; i++) {
      t.g.centroid[i] += tr[i];
      t.a.r[i] += tr[i];
      t.b.r[i] += tr[i];
    }
    rot(R, s.a.v, t.a.v);
    rot(R, s.a.w, t.a.w);
    rot(R, s.b.v, t.b.v);
    rot(R, s.b.w, t.b.w);
    rot(R, s.st + VXC_STATE_Z, t.st + VXC_STATE_Z);
    rot(R, s.st + VXC_STATE_NPREV, t.st + VXC_STATE_NPREV);
    /* J' = R J R^T */
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        double sum = 0;
        for (int a = 0; a < 3; a++) {
          for (int b = 0; b < 3; b++) {
            sum += R[3 * i + a] * s.g.inertia[3 * a + b] * R[3 * j + b];
          }
        }
        t.g.inertia[3 * i + j] = sum;
      }
    }
    vxc_wrench ws, wt;
    double ds[VXC_STATE_SIZE], dt[VXC_STATE_SIZE];
    assert_int_equal(vxc_contact_eval(&p, &s.g, &s.a, &s.b, s.st, &ws, ds, NULL), VXC_OK);
    assert_int_equal(vxc_contact_eval(&p, &t.g, &t.a, &t.b, t.st, &wt, dt, NULL), VXC_OK);
    assert_double_near(wt.f_n, ws.f_n, 1e-12 * ws.f_n);
    assert_double_near(wt.stick, ws.stick, 1e-12);
    const double *vs[] = {ws.force_normal,    ws.force_friction, ws.torque_rolling,
                          ws.torque_spinning, ws.force_a,        ws.torque_a,
                          ws.force_b,         ws.torque_b,       ds + VXC_STATE_Z};
    const double *vt[] = {wt.force_normal,    wt.force_friction, wt.torque_rolling,
                          wt.torque_spinning, wt.force_a,        wt.torque_a,
                          wt.force_b,         wt.torque_b,       dt + VXC_STATE_Z};
    for (int m = 0; m < 9; m++) {
      double e[3];
      rot(R, vs[m], e);
      double sc = norm3(vs[m]);
      for (int i = 0; i < 3; i++) {
        if (!(fabs(vt[m][i] - e[i]) <= 1e-12 * sc)) {
          fail_msg("case %d, vector %d[%d]: %.17g vs %.17g (|v| %.3g)", k, m, i, vt[m][i], e[i],
                   sc);
        }
      }
      assert_double_near(norm3(vt[m]), sc, 1e-12 * sc);
    }
    double pscale = (norm3(ws.force_a) * (norm3(s.a.v) + norm3(s.b.v)) +
                     (norm3(ws.torque_a) + norm3(ws.torque_b)) * (norm3(s.a.w) + norm3(s.b.w)));
    assert_double_near(wt.power, ws.power, 1e-12 * pscale);
    for (int i = 3; i < 7; i++) {
      assert_double_near(dt[i], ds[i], 1e-12 * (fabs(ds[i]) + 1e-300));
    }
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_contensou_pure_spin),
      cmocka_unit_test(test_contensou_pure_sliding),
      cmocka_unit_test(test_contensou_factors_on_unit_circle),
      cmocka_unit_test(test_friction_stick_and_saturation),
      cmocka_unit_test(test_friction_viscous_terms),
      cmocka_unit_test(test_rolling_torque_opposes_relative_rolling),
      cmocka_unit_test(test_passivity_dissipative_power_never_positive),
      cmocka_unit_test(test_frame_invariance),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
