/* test_friction_laws.c: the friction-law library (vxc_friction.h) through the public API,
 * each law against the defining property its equation in Marques, "Frictional Contacts in
 * Multibody Dynamics" (chapter 3) gives it: the Coulomb limit at speed, the set-valued
 * stick of Coulomb, stiction and Karnopp, the Stribeck curve's values, the midpoints of the
 * regularised laws, and, for the laws with state, a pre-sliding slope equal to the law's
 * stiffness and saturation at the sliding force. The normal force is the belt benchmark's
 * m g = 9.81 N, so F_C = 0.981 N and F_S = 1.4715 N with table 3.2's coefficients. */
#include "tests/vxc_test.h"
#include "lib/vxc.h"

static const double FN = 9.81;

static vxc_friction_params defaults(void) {
  vxc_friction_params p;
  vxc_friction_params_default(&p);
  return p;
}


/* The x component of a static law's force at relative velocity (vx, 0, 0). */
static double static_fx(vxc_friction_law law, double vx, const double *fe, int *stuck) {
  vxc_friction_params p = defaults();
  double v[3] = {vx, 0, 0}, f[3] = {NAN, NAN, NAN};
  double e[3] = {fe ? *fe : 0, 0, 0};
  assert_int_equal(vxc_friction_static(law, &p, v, FN, fe ? e : NULL, f, stuck, NULL), VXC_OK);
  assert_true(f[1] == 0 && f[2] == 0);
  return f[0];
}


static void test_names(void **state) {
  (void)state;
  for (int i = 0; i < VXC_LAW_COUNT; i++) {
    vxc_friction_law law;
    const char *name = vxc_friction_law_name((vxc_friction_law)i);
    assert_non_null(name);
    assert_int_equal(vxc_friction_law_find(name, &law, NULL), VXC_OK);
    assert_int_equal(law, i);
    int n = vxc_friction_state_size(law);
    assert_true(i < VXC_LAW_DAHL ? n == 0 : n >= 3 && n <= VXC_FRICTION_STATE_MAX);
  }
  vxc_error err;
  vxc_friction_law law = VXC_LAW_DAHL;
  assert_int_equal(vxc_friction_law_find("lu-gre", &law, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "lu-gre"));
  assert_int_equal(law, VXC_LAW_DAHL);
  /* a misspelt law or parameter is told the nearest one (task files, vxc belt) */
  assert_int_equal(vxc_friction_law_find("lugr", &law, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "did you mean 'lugre'?"));
  assert_int_equal(vxc_friction_law_find("friction", &law, &err), VXC_ERR_ARG);
  assert_null(strstr(err.message, "did you mean"));
  vxc_friction_params fp;
  vxc_friction_params_default(&fp);
  assert_int_equal(vxc_friction_param_set(&fp, "sigma9", 1, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "unknown friction parameter 'sigma9'; did you mean 'sigma"));
  assert_null(vxc_friction_law_name(VXC_LAW_COUNT));
  assert_int_equal(vxc_friction_state_size(VXC_LAW_COUNT), -1);
}


static void test_params(void **state) {
  (void)state;
  vxc_friction_params p = defaults();
  vxc_error err;
  assert_int_equal(vxc_friction_params_check(&p, &err), VXC_OK);
  assert_int_equal(vxc_friction_param_set(&p, "mu_s", 0.05, &err), VXC_OK);
  assert_int_equal(vxc_friction_params_check(&p, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "mu_s"));
  p = defaults();
  assert_int_equal(vxc_friction_param_set(&p, "sigma0", NAN, &err), VXC_OK);
  assert_int_equal(vxc_friction_params_check(&p, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "sigma0"));
  assert_int_equal(vxc_friction_param_set(&p, "sigma9", 1, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "sigma9"));
}


/* Far above every tolerance velocity each law is Coulomb's F_C (3.2), plus its viscous
 * term F_v v (3.6) where it has one; the viscous law is F_v v alone. */
static void test_coulomb_limit(void **state) {
  (void)state;
  const double v = 1.0, fc = 0.1 * FN, fv = 0.1;
  for (int i = 0; i < VXC_LAW_DAHL; i++) {
    vxc_friction_law law = (vxc_friction_law)i;
    double want = law == VXC_LAW_VISCOUS ? fv * v : fc;
    if (law == VXC_LAW_COULOMB_VISCOUS || law == VXC_LAW_STRIBECK_VISCOUS) {
      want += fv * v;
    }
    assert_double_rel(static_fx(law, v, NULL, NULL), want, 1e-12);
    assert_double_rel(static_fx(law, -v, NULL, NULL), -want, 1e-12);
  }
}


/* At zero velocity the set-valued laws return the force that keeps the contact stuck
 * while it is within their bound (F_C for 3.1 and 3.6, F_S for 3.4, 3.8 and Karnopp's
 * band 3.11), and the bound in its direction beyond. */
static void test_set_valued_stick(void **state) {
  (void)state;
  const vxc_friction_law laws[] = {VXC_LAW_COULOMB,          VXC_LAW_COULOMB_VISCOUS,
                                   VXC_LAW_COULOMB_STICTION, VXC_LAW_STRIBECK,
                                   VXC_LAW_KARNOPP,          VXC_LAW_AWREJCEWICZ};
  for (size_t i = 0; i < sizeof laws / sizeof laws[0]; i++) {
    double lim = i < 2 ? 0.1 * FN : 0.15 * FN;
    int stuck = -1;
    double fe = 0.9 * lim;
    assert_double_near(static_fx(laws[i], 0, &fe, &stuck), fe, 1e-15);
    assert_int_equal(stuck, 1);
    fe = -1.1 * lim;
    double f = static_fx(laws[i], 0, &fe, &stuck);
    assert_int_equal(stuck, 0);
    if (laws[i] != VXC_LAW_AWREJCEWICZ) {
      assert_double_rel(f, -lim, 1e-12);
    }
    /* without the sticking force the law cannot say it sticks */
    assert_double_near(static_fx(laws[i], 0, NULL, &stuck), 0, 0);
    assert_int_equal(stuck, 0);
  }
  /* Karnopp holds anywhere in its band |v| <= D_v; Coulomb only at exactly zero */
  int stuck;
  double fe = 0.5;
  assert_double_near(static_fx(VXC_LAW_KARNOPP, 0.5e-3, &fe, &stuck), 0.5, 1e-15);
  assert_int_equal(stuck, 1);
  assert_double_rel(static_fx(VXC_LAW_COULOMB, 1e-9, &fe, &stuck), 0.981, 1e-12);
  assert_int_equal(stuck, 0);
  /* a velocity whose square underflows still slides (kinetic, not the static bound) */
  assert_double_rel(static_fx(VXC_LAW_COULOMB_STICTION, -1e-300, &fe, &stuck), -0.981, 1e-12);
  assert_int_equal(stuck, 0);
}


/* The Stribeck curve (3.10, delta = 2): F_S just above zero, F_C + (F_S - F_C) / e at the
 * Stribeck velocity, and with its viscous term F_v v on top. */
static void test_stribeck(void **state) {
  (void)state;
  const double fc = 0.981, fs = 1.4715, vs = 1e-3;
  assert_double_rel(static_fx(VXC_LAW_STRIBECK, 1e-9, NULL, NULL), fs, 1e-9);
  assert_double_rel(static_fx(VXC_LAW_STRIBECK, vs, NULL, NULL), fc + (fs - fc) * exp(-1), 1e-12);
  assert_double_rel(static_fx(VXC_LAW_STRIBECK, 2 * vs, NULL, NULL), fc + (fs - fc) * exp(-4),
                    1e-12);
  assert_double_rel(static_fx(VXC_LAW_STRIBECK_VISCOUS, vs, NULL, NULL),
                    fc + (fs - fc) * exp(-1) + 0.1 * vs, 1e-12);
  /* Bengisu-Akay (3.17): 0 at rest, the peak F_S at v_0 from both sides, then the
     exponential fall with xi = 50 s/m */
  assert_double_near(static_fx(VXC_LAW_BENGISU_AKAY, 1e-300, NULL, NULL), 0, 1e-12);
  assert_double_rel(static_fx(VXC_LAW_BENGISU_AKAY, 1e-3 * (1 - 1e-9), NULL, NULL), fs, 1e-9);
  assert_double_rel(static_fx(VXC_LAW_BENGISU_AKAY, 1e-3, NULL, NULL), fs, 1e-12);
  assert_double_rel(static_fx(VXC_LAW_BENGISU_AKAY, 1e-3 + 0.02, NULL, NULL),
                    fc + (fs - fc) * exp(-1), 1e-12);
}


/* The regularised laws reach half of F_C where their own formula says: linear (3.13) at
 * 1 / (2 k), tanh (3.14) at atanh(1/2) / k, Threlfall (3.15) at v_0 ln 2 / 3, Ambrosio
 * (3.18) halfway between v_0 and v_1 and nothing below v_0. */
static void test_regularised(void **state) {
  (void)state;
  const double half = 0.5 * 0.981, k = 1000;
  assert_double_rel(static_fx(VXC_LAW_COULOMB_LINEAR, 0.5 / k, NULL, NULL), half, 1e-12);
  assert_double_rel(static_fx(VXC_LAW_COULOMB_TANH, atanh(0.5) / k, NULL, NULL), half, 1e-12);
  assert_double_rel(static_fx(VXC_LAW_THRELFALL, 1e-3 * log(2) / 3, NULL, NULL), half, 1e-12);
  assert_double_rel(static_fx(VXC_LAW_AMBROSIO, 0.55e-3, NULL, NULL), half, 1e-12);
  assert_double_near(static_fx(VXC_LAW_AMBROSIO, 0.9e-4, NULL, NULL), 0, 0);
  /* Awrejcewicz (3.22): at the edge of its band A = 1 and the force is F_S */
  double fe = 0.2;
  assert_double_rel(static_fx(VXC_LAW_AWREJCEWICZ, 1e-3, &fe, NULL), 1.4715, 1e-12);
}


/* Moves the counter-surface at constant velocity (vx, 0, 0) for time T from the initial
 * state (RK4, step h, projection after each step); returns the x force at the end. */
static double drive(vxc_friction_law law, double vx, double T, double h, double *st) {
  vxc_friction_params p = defaults();
  double v[3] = {vx, 0, 0}, f[3];
  int n = vxc_friction_state_size(law);
  long steps = lround(T / h);
  for (long s = 0; s < steps; s++) {
    double k[4][VXC_FRICTION_STATE_MAX], y[VXC_FRICTION_STATE_MAX];
    static const double a[4] = {0, 0.5, 0.5, 1};
    for (int j = 0; j < 4; j++) {
      for (int i = 0; i < n; i++) {
        y[i] = st[i] + (j ? a[j] * h * k[j - 1][i] : 0);
      }
      assert_int_equal(vxc_friction_eval(law, &p, v, FN, y, f, k[j], NULL), VXC_OK);
    }
    for (int i = 0; i < n; i++) {
      st[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
    }
    assert_int_equal(vxc_friction_project(law, &p, v, FN, st, NULL), VXC_OK);
  }
  assert_int_equal(vxc_friction_eval(law, &p, v, FN, st, f, NULL, NULL), VXC_OK);
  return f[0];
}


/* Pre-sliding: from rest, a slow steady displacement (1e-6 m/s, far below the Stribeck
 * velocity, where Gonthier's stick indicator s is 1 - 1e-6) raises each dynamic law's force by its
 * stiffness times the displacement: the slope between 1e-8 m and 2e-8 m (the damping terms,
 * constant at constant speed, cancel in the difference). */
static void test_presliding_slope(void **state) {
  (void)state;
  const vxc_friction_params p = defaults();
  const struct {
    vxc_friction_law law;
    double k;
  } laws[] = {{VXC_LAW_DAHL, p.sigma0},
              {VXC_LAW_LUGRE, p.sigma0},
              {VXC_LAW_ELASTO_PLASTIC, p.sigma0},
              {VXC_LAW_RESET_INTEGRATOR, p.sigma0 * (1 + p.a)},
              {VXC_LAW_LIANG, p.k_b},
              {VXC_LAW_GONTHIER, p.sigma0}};
  for (size_t i = 0; i < sizeof laws / sizeof laws[0]; i++) {
    double st[VXC_FRICTION_STATE_MAX];
    assert_int_equal(vxc_friction_init(laws[i].law, st, NULL), VXC_OK);
    double f1 = drive(laws[i].law, 1e-6, 1e-2, 1e-4, st);
    double f2 = drive(laws[i].law, 1e-6, 1e-2, 1e-4, st);
    assert_double_rel((f2 - f1) / 1e-8, laws[i].k, 1e-2);
  }
}


/* Steady sliding at 0.1 m/s (100 Stribeck velocities): every dynamic law's force settles
 * at the Coulomb force F_C, plus sigma2 v for the laws with a viscous term (3.48, 3.51,
 * 3.71). */
static void test_saturation(void **state) {
  (void)state;
  const double fc = 0.981, v = 0.1, s2v = 0.1 * v;
  const struct {
    vxc_friction_law law;
    double f;
  } laws[] = {{VXC_LAW_DAHL, fc},
              {VXC_LAW_LUGRE, fc + s2v},
              {VXC_LAW_ELASTO_PLASTIC, fc + s2v},
              {VXC_LAW_RESET_INTEGRATOR, fc},
              {VXC_LAW_LIANG, fc},
              {VXC_LAW_GONTHIER, fc + s2v}};
  for (size_t i = 0; i < sizeof laws / sizeof laws[0]; i++) {
    double st[VXC_FRICTION_STATE_MAX];
    vxc_friction_init(laws[i].law, st, NULL);
    assert_double_rel(drive(laws[i].law, v, 0.05, 2e-6, st), laws[i].f, 1e-6);
  }
}


/* A turn of the contact plane turns the deflection with it, keeping its length. */
static void test_reframe(void **state) {
  (void)state;
  double st[4] = {3e-6, -4e-6, 0, 1};
  const double n0[3] = {0, 0, 1}, c = cos(0.3), s = sin(0.3);
  const double n1[3] = {s, 0, c};
  assert_int_equal(vxc_friction_reframe(VXC_LAW_GONTHIER, st, n0, n1, NULL), VXC_OK);
  assert_double_near(st[0] * n1[0] + st[1] * n1[1] + st[2] * n1[2], 0, 1e-20);
  assert_double_rel(sqrt(st[0] * st[0] + st[1] * st[1] + st[2] * st[2]), 5e-6, 1e-12);
  assert_double_near(st[1], -4e-6, 1e-20); /* the rotation axis is y */
  assert_double_near(st[3], 1, 0);
  const double bad[3] = {0, 0, 2};
  assert_int_equal(vxc_friction_reframe(VXC_LAW_LUGRE, st, n0, bad, NULL), VXC_ERR_ARG);
}


/* Misuse is refused with a status, never a crash: each interface with the other kind of
 * law, a negative normal force, a NaN. Time constants: INFINITY for a static law, and
 * for the reset integrator sigma1 / (sigma0 (1 + a)). */
static void test_errors(void **state) {
  (void)state;
  vxc_friction_params p = defaults();
  double v[3] = {0.1, 0, 0}, f[3], st[4] = {0, 0, 0, 0};
  assert_int_equal(vxc_friction_static(VXC_LAW_LUGRE, &p, v, FN, NULL, f, NULL, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_friction_static(VXC_LAW_COULOMB, &p, v, -1, NULL, f, NULL, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_friction_eval(VXC_LAW_COULOMB, &p, v, FN, st, f, NULL, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_friction_init(VXC_LAW_STRIBECK, st, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_friction_eval(VXC_LAW_LUGRE, &p, v, -1, st, f, NULL, NULL), VXC_ERR_ARG);
  v[1] = NAN;
  assert_int_equal(vxc_friction_static(VXC_LAW_COULOMB, &p, v, FN, NULL, f, NULL, NULL), VXC_ERR_NUMERIC);
  assert_int_equal(vxc_friction_eval(VXC_LAW_DAHL, &p, v, FN, st, f, NULL, NULL), VXC_ERR_NUMERIC);
  v[1] = 0;
  /* no normal force, no friction */
  st[0] = 1e-6;
  assert_int_equal(vxc_friction_eval(VXC_LAW_LUGRE, &p, v, 0, st, f, NULL, NULL), VXC_OK);
  assert_true(f[0] == 0 && f[1] == 0 && f[2] == 0);
  assert_true(isinf(vxc_friction_time_constant(VXC_LAW_KARNOPP, &p, FN, 1)));
  assert_double_rel(vxc_friction_time_constant(VXC_LAW_RESET_INTEGRATOR, &p, FN, 1),
                    sqrt(1e5) / 1.5e5, 1e-12);
}


/* The point contact model of a block sliding along +x on a plane (normal +z, A the plane
 * below, B the block): depth 1e-5 m, the block's velocity vb, the contact state st.
 * Returns the friction force on A and the state derivative. */
static void point_slide(const vxc_params *p, double vb, const double *st, double f[3],
                        double ds[VXC_STATE_SIZE]) {
  const double n[3] = {0, 0, 1}, pt[3] = {0, 0, 0};
  vxc_body_motion a = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  vxc_body_motion b = {{0, 0, 0.1}, {vb, 0, 0}, {0, 0, 0}};
  vxc_wrench w;
  assert_int_equal(vxc_point_eval(p, 1e-5, pt, n, &a, &b, st, &w, ds, NULL), VXC_OK);
  memcpy(f, w.force_friction, sizeof w.force_friction);
  assert_true(w.f_n > 0);
}


/* (friction-law gonthier) is the model's own kernel again: the same force and, with its
 * deflection stored reversed (the library's z follows B relative to A), the same
 * derivative; (friction-law coulomb) slides at mu_c f_n against the slip; (friction-law
 * lugre) holds with the stiffness sigma0 f_n (the model's per-unit sigma0 scaled). */
static void test_contact_law(void **state) {
  (void)state;
  vxc_params p, q;
  vxc_params_default(&p);
  q = p;
  vxc_error err;
  assert_int_equal(vxc_params_set_law(&q, "gonthier", &err), VXC_OK);
  assert_int_equal(vxc_params_prepare(&q, &err), VXC_OK);
  double sk[VXC_STATE_SIZE] = {0}, sl[VXC_STATE_SIZE] = {0};
  sk[VXC_STATE_Z] = 2e-5, sk[VXC_STATE_SDW] = 0.5, sk[VXC_STATE_U] = 1e-3;
  sk[VXC_STATE_ACTIVE] = 1;
  memcpy(sl, sk, sizeof sk);
  sl[VXC_STATE_Z] = -2e-5;
  double fk[3], fl[3], dk[VXC_STATE_SIZE], dl[VXC_STATE_SIZE];
  for (double vb = -3e-3; vb <= 3e-3; vb += 1.5e-3) {
    point_slide(&p, vb, sk, fk, dk);
    point_slide(&q, vb, sl, fl, dl);
    assert_double_near(fl[0], fk[0], 1e-12 * fabs(fk[0]) + 1e-15);
    assert_double_near(dl[VXC_STATE_Z], -dk[VXC_STATE_Z], 1e-12 * fabs(dk[VXC_STATE_Z]) + 1e-18);
    assert_double_near(dl[VXC_STATE_SDW], dk[VXC_STATE_SDW], 1e-12);
  }
  /* Coulomb: the plane (A) is dragged along the block's slip, at mu_c f_n */
  q = p;
  assert_int_equal(vxc_params_set_law(&q, "coulomb", &err), VXC_OK);
  assert_int_equal(vxc_params_prepare(&q, &err), VXC_OK);
  vxc_wrench w;
  const double n[3] = {0, 0, 1}, pt[3] = {0, 0, 0};
  vxc_body_motion a = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  vxc_body_motion b = {{0, 0, 0.1}, {0.2, 0, 0}, {0, 0, 0}};
  double st0[VXC_STATE_SIZE] = {0};
  assert_int_equal(vxc_point_eval(&q, 1e-5, pt, n, &a, &b, st0, &w, dl, NULL), VXC_OK);
  assert_double_rel(w.force_friction[0], q.mu_c * w.f_n, 1e-12);
  /* LuGre at rest with a deflection: F = sigma0 f_n z */
  q = p;
  assert_int_equal(vxc_params_set_law(&q, "lugre", &err), VXC_OK);
  assert_int_equal(vxc_params_prepare(&q, &err), VXC_OK);
  b.v[0] = 0;
  st0[VXC_STATE_Z] = 1e-6;
  assert_int_equal(vxc_point_eval(&q, 1e-5, pt, n, &a, &b, st0, &w, dl, NULL), VXC_OK);
  assert_double_rel(w.force_friction[0], q.sigma0 * w.f_n * 1e-6, 1e-12);
  assert_int_equal(vxc_params_set_law(&q, "lu-gre", &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "lu-gre"));
}


/* A task file selects a law with (params (friction-law NAME)); a wrong name is named
 * with its line and column. */
static void test_task_law(void **state) {
  (void)state;
  const char *fmt =
      "(task t (duration 0.1)\n"
      "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
      "  (body ball (model \"ball.vxm\") (free (mass 2)) (pose 0 0 0.2))\n"
      "  (contact table ball (params (mu_c 0.05) (friction-law %s)) (voxel 1e-3)))\n";
  char text[1024];
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", vxc_test_data(""));
  vxc_task *t = NULL;
  vxc_error err;
  snprintf(text, sizeof text, fmt, "lugre");
  assert_int_equal(vxc_task_parse(text, strlen(text), "t.vxt", dir, NULL, &t, &err), VXC_OK);
  vxc_task_free(t);
  t = NULL;
  snprintf(text, sizeof text, fmt, "nope");
  assert_int_equal(vxc_task_parse(text, strlen(text), "t.vxt", dir, NULL, &t, &err),
                   VXC_ERR_FORMAT);
  assert_null(t);
  assert_non_null(strstr(err.message, "t.vxt:4:"));
  assert_non_null(strstr(err.message, "nope"));
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_params),
      cmocka_unit_test(test_coulomb_limit),
      cmocka_unit_test(test_set_valued_stick),
      cmocka_unit_test(test_stribeck),
      cmocka_unit_test(test_regularised),
      cmocka_unit_test(test_presliding_slope),
      cmocka_unit_test(test_saturation),
      cmocka_unit_test(test_reframe),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_contact_law),
      cmocka_unit_test(test_task_law),
  };
  return cmocka_run_group_tests_name("friction_laws", tests, NULL, NULL);
}
