/* test_pair_jacobian.c: a pair's wrench derivatives (vxc_pair_jacobian_get) against central
 * differences of the force model and of the pair's step, and against closed forms for a ball
 * (radius R) resting h deep on a table: the cap's volume V = pi h^2 (R - h / 3) gives the
 * hysteretic damping dF_z/dv_z = -k_v a V on the ball and its base pi (2 R h - h^2) the
 * stiffness dF_z/dz = -k_v pi (2 R h - h^2). The states' implicit advance keeps a sticking
 * bristle on the slip at a step 100 times its time constant. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#define R 0.1    /* ball.vxm's radius, m */
#define H 2.5e-3 /* depth of the ball, m */

typedef struct fixture {
  vxc_solid *table, *ball;
  vxc_pair *pair;
  vxc_pose pt, pb; /* table (A), ball (B) */
  vxc_body_motion mt, mb;
  vxc_params p;
} fixture;

static fixture F;

static int load(void **state) {
  (void)state;
  memset(&F, 0, sizeof F);
  assert_int_equal(vxc_solid_load(vxc_test_data("table.vxm"), NULL, &F.table, NULL), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &F.ball, NULL), VXC_OK);
  return 0;
}


static int unload(void **state) {
  (void)state;
  vxc_pair_free(F.pair);
  vxc_solid_free(F.ball);
  vxc_solid_free(F.table);
  return 0;
}


/* The pair with parameters p, the ball h deep at (x, y), the table's motion vt, wt, the ball's
 * (about its centre) vb, wb, one step with dt = 0 (the contact starts at that motion). */
static void make(const vxc_params *p, double h, const double vt[3], const double wt[3],
                 const double vb[3], const double wb[3]) {
  vxc_pair_free(F.pair);
  F.pair = NULL;
  F.p = *p;
  assert_int_equal(vxc_params_prepare(&F.p, NULL), VXC_OK);
  vxc_query_options o;
  vxc_query_options_default(&o);
  assert_int_equal(vxc_pair_create(F.table, F.ball, &F.p, &o, 4, NULL, &F.pair, NULL), VXC_OK);
  F.pt = vxc_pose_identity();
  F.pb = vxc_pose_identity();
  F.pb.p[0] = 0.01;
  F.pb.p[2] = R - h;
  double ref[3] = {0.002, -0.001, 0.004}; /* torques about a point off the table's origin */
  assert_int_equal(vxc_body_motion_from_pose(&F.pt, ref, ref, vt, wt, &F.mt, NULL), VXC_OK);
  assert_int_equal(vxc_body_motion_from_pose(&F.pb, NULL, NULL, vb, wb, &F.mb, NULL), VXC_OK);
  vxc_pair_wrench w;
  assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, NULL), VXC_OK);
  assert_int_equal(w.npairs, 1);
}


/* The model's wrench (12) at twist t (12: v_a, w_a, v_b, w_b) with the pair's last geometry and
 * state. */
static void model_wrench(const double t[12], double W[12]) {
  vxc_pair_contact c;
  assert_int_equal(vxc_pair_contact_get(F.pair, 0, &c, NULL), VXC_OK);
  vxc_body_motion a = F.mt, b = F.mb;
  memcpy(a.v, t, sizeof a.v);
  memcpy(a.w, t + 3, sizeof a.w);
  memcpy(b.v, t + 6, sizeof b.v);
  memcpy(b.w, t + 9, sizeof b.w);
  vxc_wrench w;
  assert_int_equal(
      vxc_contact_eval(&F.p, &c.geom, &a, &b, vxc_pair_state(F.pair, c.slot), &w, NULL, NULL),
      VXC_OK);
  memcpy(W, w.force_a, 3 * sizeof *W);
  memcpy(W + 3, w.torque_a, 3 * sizeof *W);
  memcpy(W + 6, w.force_b, 3 * sizeof *W);
  memcpy(W + 9, w.torque_b, 3 * sizeof *W);
}


/* The largest |analytic - difference| of d_twist, over the largest entry. */
static double twist_error(const vxc_pair_jacobian *J) {
  double t0[12], big = 0, err = 0;
  memcpy(t0, F.mt.v, 3 * sizeof *t0);
  memcpy(t0 + 3, F.mt.w, 3 * sizeof *t0);
  memcpy(t0 + 6, F.mb.v, 3 * sizeof *t0);
  memcpy(t0 + 9, F.mb.w, 3 * sizeof *t0);
  for (int j = 0; j < 12; j++) {
    double tp[12], tm[12], wp[12], wm[12], d = j % 6 < 3 ? 1e-9 : 1e-7;
    memcpy(tp, t0, sizeof tp);
    memcpy(tm, t0, sizeof tm);
    tp[j] += d;
    tm[j] -= d;
    model_wrench(tp, wp);
    model_wrench(tm, wm);
    for (int i = 0; i < 12; i++) {
      double fd = (wp[i] - wm[i]) / (2 * d);
      big = fmax(big, fabs(fd));
      err = fmax(err, fabs(fd - J->d_twist[12 * i + j]));
    }
  }
  return err / big;
}


static const double Z[3] = {0, 0, 0};

/* The defaults with k_v 1e9 and a stiff, damped, viscous bristle. */
static vxc_params bristle_params(void) {
  vxc_params p;
  vxc_params_default(&p);
  p.k_v = 1e9;
  p.sigma0 = 1e4;
  p.sigma1 = 63.9;
  p.sigma2 = 0.01;
  return p;
}

/* Resting, sliding slowly (in the Stribeck range), spinning, rolling and approaching, with
 * the volumetric model and with rate-independent rolling: d_twist within 1e-6 of its largest
 * entry of central differences of the model (steps 1e-4 of the model's velocity scale v_e and
 * of v_e / r_gyr: truncation near 1e-9, rounding near 1e-7 of it). */
static void test_twist_against_differences(void **state) {
  (void)state;
  vxc_params p = bristle_params();
  p.e_eff = 0.3;
  static const struct {
    double vt[3], wt[3], vb[3], wb[3];
    int rolling;
  } c[] = {
      {{0}, {0}, {0}, {0}, 0},
      {{0}, {0}, {2e-4, -1e-4, 0}, {0}, 0},
      {{0}, {0}, {0}, {0, 0, 5}, 0},
      {{0.01, 0, 0}, {0, 0.1, 0}, {0.3, 0.1, -0.02}, {-1, 3, 0.5}, 0},
      {{0}, {0}, {0.3, 0, 0}, {0, 3, 0.2}, 1},
      {{0}, {0}, {1e-4, 0, 0}, {0, 1e-3, 1e-3}, 1},
  };
  for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
    vxc_params q = p;
    q.rolling = c[k].rolling;
    q.eta_r = q.eta_s = c[k].rolling ? 1e-3 : 0;
    make(&q, H, c[k].vt, c[k].wt, c[k].vb, c[k].wb);
    vxc_pair_jacobian J;
    assert_int_equal(vxc_pair_jacobian_get(F.pair, 0, &J, NULL), VXC_OK);
    double e = twist_error(&J);
    printf("# case %zu: d_twist against differences, relative error %.3g\n", k, e);
    assert_true(e < 1e-6);
  }
}


/* The closed forms: on the resting ball (B), dF_z/dv_z = -k_v a V with a = d / (e v_small)
 * (the contact started at rest) and dF_z/dz = -k_v pi (2 R h - h^2); d_pose's column of the
 * ball's z also within 1e-4 of differences of the pair's own step (the volume's query). */
static void test_closed_forms(void **state) {
  (void)state;
  vxc_params p;
  vxc_params_default(&p);
  p.k_v = 1e9;
  p.e_eff = 0.2;
  make(&p, H, Z, Z, Z, Z);
  vxc_pair_jacobian J;
  assert_int_equal(vxc_pair_jacobian_get(F.pair, 0, &J, NULL), VXC_OK);
  double V = M_PI * H * H * (R - H / 3), a = vxc_damping_root(0.2) / (0.2 * p.v_small);
  double dv = J.d_twist[12 * 8 + 8], dx = J.d_pose[12 * 8 + 8];
  double want_v = -p.k_v * a * V, want_x = -p.k_v * M_PI * (2 * R * H - H * H);
  printf("# dFz/dvz %.9g, closed form %.9g; dFz/dz %.9g, closed form %.9g\n", dv, want_v, dx,
         want_x);
  assert_double_near(dv, want_v, 1e-9 * fabs(want_v));
  assert_double_near(dx, want_x, 1e-6 * fabs(want_x));
  /* the pair's step at the ball's pose moved by +-d along z */
  double d = 1e-8, Wp = 0, Wm = 0;
  for (int s = -1; s <= 1; s += 2) {
    vxc_pose pb = F.pb;
    pb.p[2] += s * d;
    vxc_body_motion mb;
    assert_int_equal(vxc_body_motion_from_pose(&pb, NULL, NULL, Z, Z, &mb, NULL), VXC_OK);
    vxc_pair_wrench w;
    assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &pb, &mb, 0, &w, NULL), VXC_OK);
    *(s < 0 ? &Wm : &Wp) = w.force_b[2];
  }
  double fd = (Wp - Wm) / (2 * d);
  printf("# dFz/dz by differences of the step %.9g\n", fd);
  assert_double_near(dx, fd, 1e-4 * fabs(fd));
  /* the ball turned about its centre moves no volume: its rotation columns are zero */
  for (int j = 9; j < 12; j++) {
    assert_true(fabs(J.d_pose[12 * 8 + j]) < 1e-9 * fabs(dx));
  }
}


/* W + G^T f over the record's G: the step terms with a friction record's force put back. */
static void with_record(const vxc_contact_friction *r, const double f[3], const double *row,
                        double *w, double *K) {
  for (int i = 0; i < 12; i++) {
    for (int l = 0; l < 3; l++) {
      w[i] += r->g[12 * l + i] * f[l];
      for (int j = 0; row && j < 12; j++) {
        K[12 * i + j] += r->g[12 * l + i] * row[12 * l + j];
      }
    }
  }
}


/* The step's linearisation: with h = 0 it is the wrench and d_twist once the friction record
 * is put back (the contact sticks: the model's slope on the slip is sigma1 + sigma2); with
 * h > 0 the record's sticking bristle adds its stiffness h sigma0 f_n on the slip (the
 * record's dF_x/dv_x along the ball's x: (h sigma0 + sigma1 + sigma2) f_n, within 1e-9), and
 * the step terms keep no tangential force. */
static void test_step_linearisation(void **state) {
  (void)state;
  vxc_params p = bristle_params();
  make(&p, H, Z, Z, Z, Z);
  vxc_pair_jacobian J0, J;
  assert_int_equal(vxc_pair_jacobian_get(F.pair, 0, &J0, NULL), VXC_OK);
  assert_int_equal(J0.nfriction, 1);
  double w[12], K[144];
  memcpy(w, J0.step_wrench, sizeof w);
  memcpy(K, J0.step_twist, sizeof K);
  with_record(&J0.friction[0], J0.friction[0].stick, J0.friction[0].stick_row, w, K);
  for (int i = 0; i < 12; i++) {
    assert_double_near(w[i], J0.wrench[i], 1e-12);
  }
  for (int i = 0; i < 144; i++) {
    assert_double_near(K[i], J0.d_twist[i], 1e-6 * fabs(J0.d_twist[i]) + 1e-9);
  }
  double h = 2e-3;
  assert_int_equal(vxc_pair_jacobian_get(F.pair, h, &J, NULL), VXC_OK);
  double fn = J.wrench[8]; /* the ball is held up by f_n */
  double k = J.friction[0].stick_row[6], want = (h * p.sigma0 + p.sigma1 + p.sigma2) * fn;
  printf("# sticking slope over the step %.9g, closed form %.9g\n", k, want);
  assert_double_near(k, want, 1e-9 * fabs(want));
  assert_double_near(J.fn_step, fn, 1e-9 * fn);
  assert_double_near(J.friction[0].fn, fn, 1e-9 * fn);
  assert_double_near(J.friction[0].mu_static, p.mu_s, 1e-9);
  for (int j = 0; j < 12; j++) { /* no tangential force left in the step terms */
    assert_true(fabs(J.step_twist[12 * 6 + j]) + fabs(J.step_twist[12 * 7 + j]) < 1e-9 * fn);
  }
}


/* The friction record against the model: the ball creeping at 1e-6 m/s (sticking: v_s is
 * 1e-3 m/s, v_e 1e-5 m/s) on a bristle already deflected; its states advanced over h = 2 ms
 * at the ball's x velocity moved by +-d (vxc_pair_advance) and the model's friction force on
 * the table there, by central differences, against stick_row (within 1e-3: the model's own Stribeck
 * blend, 1 - s = 1e-6 here on a direction whose slope is 1.5 / v_e, is the rest); and at
 * d = 0 against stick (within 1e-4 of mu_s f_n). */
static void test_record_against_advance(void **state) {
  (void)state;
  vxc_params p = bristle_params();
  double h = 2e-3, d = 1e-8, F3[3][3], scale = 0;
  vxc_contact_friction r;
  for (int s = -1; s <= 1; s++) {
    double vb[3] = {1e-6, -4e-7, 0};
    make(&p, H, Z, Z, vb, Z);
    for (int k = 0; k < 100; k++) { /* deflect the bristle */
      vxc_pair_wrench pw;
      assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, h, &pw, NULL), VXC_OK);
    }
    vxc_pair_wrench pw;
    assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, 0, &pw, NULL), VXC_OK);
    vxc_pair_jacobian J;
    assert_int_equal(vxc_pair_jacobian_get(F.pair, h, &J, NULL), VXC_OK);
    vxc_body_motion mb = F.mb;
    mb.v[0] += s * d;
    assert_int_equal(vxc_pair_advance(F.pair, &F.mt, &mb, h, NULL), VXC_OK);
    double t[12] = {0}, W[12];
    memcpy(t + 6, mb.v, sizeof mb.v);
    model_wrench(t, W);
    for (int i = 0; i < 3; i++) {
      F3[s + 1][i] = W[i] - (i == 2 ? W[2] : 0.0); /* the tangential force on the table */
    }
    if (s == 0) {
      r = J.friction[0];
      scale = p.mu_s * J.wrench[8];
    }
  }
  for (int i = 0; i < 2; i++) {
    double fd = (F3[2][i] - F3[0][i]) / (2 * d);
    printf("# dF_%c/dv_bx: record %.9g, differences %.9g; F %.9g, record %.9g N\n", 'x' + i,
           r.stick_row[12 * i + 6], fd, F3[1][i], r.stick[i]);
    assert_double_near(r.stick_row[12 * i + 6], fd, 1e-3 * fabs(r.stick_row[6]));
    assert_double_near(r.stick[i], F3[1][i], 1e-4 * scale);
  }
}


/* The implicit advance: a ball sliding at 1e-4 m/s (in the sticking range) on a bristle whose
 * time constant sigma1 / sigma0 is 100 times shorter than the step: the state stays bounded
 * and near the slip's sticking deflection (explicit Euler would multiply its error by
 * |1 - h sigma0 / sigma1| = 99 each step). */
static void test_implicit_advance(void **state) {
  (void)state;
  vxc_params p;
  vxc_params_default(&p);
  p.k_v = 1e9;
  p.sigma0 = 1e5;
  p.sigma1 = 10;
  double vb[3] = {-1e-4, 0, 0}, h = 1e-2; /* tau = 1e-4 s */
  make(&p, H, Z, Z, vb, Z);
  for (int k = 0; k < 50; k++) {
    vxc_pair_wrench w;
    assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, h, &w, NULL), VXC_OK);
  }
  const double *s = vxc_pair_state(F.pair, 0);
  /* bounded by the Coulomb deflection mu_s / sigma0 */
  printf("# z after 50 steps %.6g m, bound %.6g m\n", s[VXC_STATE_Z], p.mu_s / p.sigma0);
  assert_true(fabs(s[VXC_STATE_Z]) <= p.mu_s / p.sigma0 * 1.0001);
  assert_true(s[VXC_STATE_Z] > 0); /* A (the table) slides along +x relative to the ball */
}


static void test_errors(void **state) {
  (void)state;
  vxc_pair_jacobian J;
  vxc_error e;
  assert_int_equal(vxc_pair_jacobian_get(NULL, 0, &J, &e), VXC_ERR_ARG);
  vxc_params p;
  vxc_params_default(&p);
  make(&p, H, Z, Z, Z, Z);
  assert_int_equal(vxc_pair_jacobian_get(F.pair, -1, &J, &e), VXC_ERR_ARG);
  assert_non_null(strstr(e.message, "negative"));
  assert_int_equal(vxc_pair_advance(F.pair, &F.mt, &F.mb, NAN, &e), VXC_ERR_ARG);
  double minv[36] = {0}, a[6] = {0}, w[6];
  assert_int_equal(vxc_implicit_step(0, minv, a, 1e-3, 0, NULL, w, NULL, NULL, &e), VXC_ERR_ARG);
  vxc_implicit_pair pp = {&J, 1, 0, {0}, 0, 0, 0};
  assert_int_equal(vxc_implicit_step(1, minv, a, 1e-3, 1, &pp, w, NULL, NULL, &e), VXC_ERR_ARG);
  assert_non_null(strstr(e.message, "body index"));
}


/* The resting ball (B, 2 kg, I = 0.008 kg m^2) on the fixed table by semi-implicit Euler at a
 * 2 ms step, with hysteretic damping 25 times past explicit Euler's limit: the largest
 * |f_n / m g - 1| over the last 0.1 s of 1 s, with the wrench of vxc_implicit_step (implicit)
 * or the step's own (explicit). */
static double settle(int implicit) {
  vxc_params p;
  vxc_params_default(&p);
  p.k_v = 1e9;
  p.e_eff = 0.2;
  p.mu_s = p.mu_c = 0;
  double m = 2, g = 9.81, h = 2e-3, z = R - 1e-4, vz = 0;
  double minv[36] = {0}, afree[6] = {0, 0, -g, 0, 0, 0}, w[6];
  for (int i = 0; i < 3; i++) {
    minv[7 * i] = 1 / m;
    minv[7 * (3 + i)] = 1 / 0.008;
  }
  make(&p, R - z, Z, Z, Z, Z);
  double worst = 0;
  for (int k = 0; k < 500 && worst < 1e3; k++) {
    vxc_pose pb = vxc_pose_identity();
    pb.p[2] = z;
    double v[3] = {0, 0, vz};
    vxc_body_motion mb;
    assert_int_equal(vxc_body_motion_from_pose(&pb, NULL, NULL, v, Z, &mb, NULL), VXC_OK);
    vxc_pair_wrench pw;
    assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &pb, &mb, 0, &pw, NULL), VXC_OK);
    vxc_pair_jacobian J;
    assert_int_equal(vxc_pair_jacobian_get(F.pair, h, &J, NULL), VXC_OK);
    vxc_implicit_pair pp = {&J, -1, 0, {0}, 0, 0, 0};
    assert_int_equal(vxc_implicit_step(1, minv, afree, h, 1, &pp, w, NULL, NULL, NULL), VXC_OK);
    double fz = implicit ? w[2] : pw.force_b[2];
    vz += h * (fz / m - g);
    z += h * vz;
    mb.v[2] = vz;
    assert_int_equal(vxc_pair_advance(F.pair, &F.mt, &mb, h, NULL), VXC_OK);
    if (k >= 450 || !implicit) {
      worst = fmax(worst, fabs(fz / (m * g) - 1));
    }
  }
  return worst;
}


static void test_implicit_step_settles(void **state) {
  (void)state;
  double imp = settle(1), exp = settle(0);
  printf("# largest |f_n / m g - 1| over the last 0.1 s: implicit %.3g; explicit %.3g\n", imp, exp);
  assert_true(imp < 1e-3);
  assert_true(exp > 1); /* the same step without the implicit wrench chatters */
}


/* The ball dropped from 0.1 m (no friction) by semi-implicit Euler at a 2 ms step, k_v 1e11
 * (an impact under a millisecond): with vxc_pair_impact and vxc_pair_substep the height its
 * energy reaches after the bounce is within 3% of e_eff^2 of the drop's, for e_eff 0.5 and
 * 0.95; with one implicit step per step it is not. */
static double drop(double e, int sub) {
  vxc_params p;
  vxc_params_default(&p);
  p.k_v = 1e11;
  p.e_eff = e;
  p.mu_s = p.mu_c = 0;
  double m = 2, g = 9.81, h = 2e-3, z = R + 0.1, vz = 0, before = 0.1, after = -1;
  double minv[36] = {0}, afree[6] = {0, 0, -g, 0, 0, 0}, m12[144] = {0}, a12[12] = {0}, w[6];
  for (int i = 0; i < 3; i++) {
    minv[7 * i] = 1 / m;
    minv[7 * (3 + i)] = 1 / 0.008;
    m12[13 * (6 + i)] = 1 / m;
    m12[13 * (9 + i)] = 1 / 0.008;
  }
  a12[8] = -g;
  make(&p, 0.001, Z, Z, Z, Z); /* (touching: the pair, then lifted) */
  int touched = 0;
  for (int k = 0; k < 400 && after < 0; k++) {
    vxc_pose pb = vxc_pose_identity();
    pb.p[2] = z;
    double v[3] = {0, 0, vz};
    vxc_body_motion mb;
    assert_int_equal(vxc_body_motion_from_pose(&pb, NULL, NULL, v, Z, &mb, NULL), VXC_OK);
    vxc_pair_wrench pw;
    assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &pb, &mb, 0, &pw, NULL), VXC_OK);
    double height = z - R + 0.5 * vz * vz / g;
    if (!touched && pw.npairs == 0) {
      before = height;
    }
    if (touched && pw.npairs == 0 && k > 0) {
      after = height;
      break;
    }
    touched |= pw.npairs > 0;
    vxc_pair_jacobian J;
    assert_int_equal(vxc_pair_jacobian_get(F.pair, h, &J, NULL), VXC_OK);
    vxc_substep_result r;
    if (sub && vxc_pair_impact(F.pair, &J, m12, h)) {
      assert_int_equal(vxc_pair_substep(F.pair, &F.pt, &F.mt, &pb, &mb, m12, a12, h, &r, NULL),
                       VXC_OK);
      vz += h * (r.wrench[8] / m - g);
      z = r.pose[1].p[2]; /* where the sub-steps left it */
      continue;
    }
    vxc_implicit_pair pp = {&J, -1, 0, {0}, 0, 0, 0};
    assert_int_equal(vxc_implicit_step(1, minv, afree, h, 1, &pp, w, NULL, NULL, NULL), VXC_OK);
    vz += h * (w[2] / m - g);
    z += h * vz;
    mb.v[2] = vz;
    assert_int_equal(vxc_pair_advance(F.pair, &F.mt, &mb, h, NULL), VXC_OK);
  }
  return after / (e * e * before) - 1;
}


static void test_substeps_resolve_an_impact(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    double e = k ? 0.95 : 0.5, r = drop(e, 1), one = drop(e, 0);
    printf("# e_eff %g at 2 ms: rebound / e^2 - 1 = %.3g in sub-steps, %.3g without\n", e, r, one);
    assert_true(fabs(r) < 0.03);
    assert_true(fabs(one) > 0.1);
  }
  vxc_substep_result r;
  vxc_error err;
  double m12[144] = {0}, a12[12] = {0};
  assert_int_equal(vxc_pair_substep(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, m12, a12, 0, &r, &err),
                   VXC_ERR_ARG);
  assert_int_equal(vxc_pair_impact(NULL, NULL, m12, 1e-3), 0);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_twist_against_differences),
      cmocka_unit_test(test_closed_forms),
      cmocka_unit_test(test_step_linearisation),
      cmocka_unit_test(test_record_against_advance),
      cmocka_unit_test(test_implicit_advance),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_implicit_step_settles),
      cmocka_unit_test(test_substeps_resolve_an_impact),
  };
  return cmocka_run_group_tests(tests, load, unload);
}
