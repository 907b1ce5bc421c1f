/* test_force_state.c: the contact state's life cycle (start, reset, project), the
 * statuses of the force evaluations with their untouched outputs, the zero-volume case,
 * the normal force law with its clamp and relaxation, the point contact model's wrench and
 * the radius of gyration, all through the public API. */
#include "tests/vxc_test.h"
#include "lib/vxc.h"

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}


static void cross3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}


/* A contact with n = (2, -1, 2) / 3, V = 2e-7 m^3, an anisotropic J with n as an
 * eigenvector (lambda_n = 3e-11 m^5), A approaching B at v_in along n at the centroid. */
typedef struct fixture {
  vxc_params p;
  vxc_contact_geometry g;
  vxc_body_motion a, b;
} fixture;


static void fixture_init(fixture *f, double v_in) {
  memset(f, 0, sizeof *f);
  vxc_params_default(&f->p);
  f->g.volume = 2e-7;
  double n[3] = {2.0 / 3, -1.0 / 3, 2.0 / 3};
  memcpy(f->g.normal, n, sizeof n);
  /* J = 1e-11 (I + 2 n n^T): eigenvalue 3e-11 along n, 1e-11 in the plane */
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      f->g.inertia[3 * i + j] = 1e-11 * ((i == j) + 2 * n[i] * n[j]);
    }
  }
  double c[3] = {0.1, 0.2, -0.3};
  memcpy(f->g.centroid, c, sizeof c);
  for (int i = 0; i < 3; i++) {
    f->a.r[i] = c[i] - 0.05 * n[i];
    f->b.r[i] = c[i] + 0.2 * n[i] + (i == 0 ? 0.1 : 0);
    f->a.v[i] = v_in * n[i];
  }
}


/* A call's status is `want`, and its message (in e) starts with the function's name and
 * names the bad argument (`what`). */
static void check_err(vxc_status got, const vxc_error *e, vxc_status want, const char *what) {
  assert_int_equal(got, want);
  assert_int_equal(e->status, want);
  if (!strstr(e->message, what)) {
    fail_msg("message '%s' lacks '%s'", e->message, what);
  }
}


/* start: z = theta = 0, s_dw = 1, u = max(|v_cn|, v_small), V_ro per relaxation,
 * previous normal = n, active */
static void test_contact_start_sets_documented_state(void **state) {
  (void)state;
  const double speeds[] = {0.7, -0.3, 1e-5};
  for (int k = 0; k < 3; k++) {
    fixture f;
    fixture_init(&f, speeds[k]);
    double st[VXC_STATE_SIZE];
    for (int i = 0; i < VXC_STATE_SIZE; i++) {
      st[i] = 42.0;
    }
    assert_int_equal(vxc_contact_start(&f.p, &f.g, &f.a, &f.b, st, NULL), VXC_OK);
    for (int i = 0; i < 3; i++) {
      assert_double_near(st[VXC_STATE_Z + i], 0, 0);
      assert_double_near(st[VXC_STATE_NPREV + i], f.g.normal[i], 1e-16);
    }
    assert_double_near(st[VXC_STATE_THETA], 0, 0);
    assert_double_near(st[VXC_STATE_SDW], 1, 0);
    assert_double_near(st[VXC_STATE_VRO], 0, 0);
    double u = fmax(fabs(speeds[k]), f.p.v_small);
    assert_double_near(st[VXC_STATE_U], u, 1e-15 * u);
    assert_double_near(st[VXC_STATE_ACTIVE], 1, 0);
    assert_double_near(st[11], 0, 0);
  }
  /* with relaxation on, V_ro = V */
  fixture f;
  fixture_init(&f, 0.5);
  f.p.tau_r = 1.0;
  assert_int_equal(vxc_params_prepare(&f.p, NULL), VXC_OK);
  double st[VXC_STATE_SIZE];
  assert_int_equal(vxc_contact_start(&f.p, &f.g, &f.a, &f.b, st, NULL), VXC_OK);
  assert_double_near(st[VXC_STATE_VRO], f.g.volume, 0);
}


/* start refuses bad inputs with the documented status and leaves the state alone */
static void test_contact_start_errors_leave_state(void **state) {
  (void)state;
  fixture f;
  fixture_init(&f, 0.5);
  double st[VXC_STATE_SIZE], ref[VXC_STATE_SIZE];
  for (int i = 0; i < VXC_STATE_SIZE; i++) {
    st[i] = ref[i] = 42.0 + i;
  }
  vxc_params unprep = f.p;
  unprep.prepared = 0;
  vxc_error e;
  check_err(vxc_contact_start(&unprep, &f.g, &f.a, &f.b, st, &e), &e, VXC_ERR_ARG,
            "vxc_contact_start: p is not prepared");
  check_err(vxc_contact_start(NULL, &f.g, &f.a, &f.b, st, &e), &e, VXC_ERR_ARG,
            "vxc_contact_start: p is NULL");
  check_err(vxc_contact_start(&f.p, NULL, &f.a, &f.b, st, &e), &e, VXC_ERR_ARG,
            "vxc_contact_start: geom is NULL");
  check_err(vxc_contact_start(&f.p, &f.g, NULL, &f.b, st, &e), &e, VXC_ERR_ARG,
            "vxc_contact_start: a is NULL");
  check_err(vxc_contact_start(&f.p, &f.g, &f.a, &f.b, NULL, &e), &e, VXC_ERR_ARG,
            "vxc_contact_start: state is NULL");
  fixture bad = f;
  bad.g.normal[0] *= 1.01;
  check_err(vxc_contact_start(&f.p, &bad.g, &f.a, &f.b, st, &e), &e, VXC_ERR_ARG,
            "vxc_contact_start: geom->normal has length");
  bad = f;
  bad.g.volume = -1e-9;
  check_err(vxc_contact_start(&f.p, &bad.g, &f.a, &f.b, st, &e), &e, VXC_ERR_ARG,
            "vxc_contact_start: geom->volume = -1e-09 m^3 is negative");
  bad = f;
  bad.a.v[1] = NAN;
  check_err(vxc_contact_start(&f.p, &f.g, &bad.a, &f.b, st, &e), &e, VXC_ERR_NUMERIC,
            "vxc_contact_start: the motion of body a");
  assert_int_equal(memcmp(st, ref, sizeof st), 0);
  /* point start: same rules */
  const double pt[3] = {0, 0, 0};
  check_err(vxc_point_start(&unprep, 1e-4, pt, f.g.normal, &f.a, &f.b, st, &e), &e, VXC_ERR_ARG,
            "vxc_point_start: p is not prepared");
  check_err(vxc_point_start(&f.p, NAN, pt, f.g.normal, &f.a, &f.b, st, &e), &e, VXC_ERR_NUMERIC,
            "vxc_point_start: depth is not finite");
  assert_int_equal(vxc_point_start(&f.p, 1e-4, pt, bad.g.normal, &f.a, &f.b, st, NULL), VXC_OK);
  check_err(vxc_point_start(&f.p, 1e-4, NULL, f.g.normal, &f.a, &f.b, ref, &e), &e, VXC_ERR_ARG,
            "vxc_point_start: point is NULL");
  assert_double_near(ref[0], 42.0, 0);
}


/* reset zeroes the whole state (a lost contact) */
static void test_contact_reset_zeroes_state(void **state) {
  (void)state;
  double st[VXC_STATE_SIZE];
  for (int i = 0; i < VXC_STATE_SIZE; i++) {
    st[i] = 1.0 + i;
  }
  vxc_contact_reset(st);
  for (int i = 0; i < VXC_STATE_SIZE; i++) {
    assert_double_near(st[i], 0, 0);
  }
  vxc_contact_reset(NULL); /* no crash */
}


/* project: z loses its component along the new normal and keeps the rest; the new
 * normal becomes the previous normal */
static void test_contact_project_keeps_z_in_plane(void **state) {
  (void)state;
  vxc_rng rng = {77};
  for (int k = 0; k < 1000; k++) {
    double st[VXC_STATE_SIZE] = {0}, n[3], z[3];
    for (int i = 0; i < 3; i++) {
      z[i] = st[VXC_STATE_Z + i] = vxc_rng_uniform(&rng, -1e-3, 1e-3);
      n[i] = vxc_rng_uniform(&rng, -1, 1);
    }
    double l = sqrt(dot3(n, n));
    for (int i = 0; i < 3; i++) {
      n[i] /= l;
    }
    st[VXC_STATE_SDW] = 0.5;
    vxc_contact_project(st, n);
    double zn = dot3(z, n), zl = sqrt(dot3(z, z));
    assert_double_near(dot3(st + VXC_STATE_Z, n), 0.0, 1e-15 * zl);
    for (int i = 0; i < 3; i++) {
      assert_double_near(st[VXC_STATE_Z + i], z[i] - zn * n[i], 1e-15 * zl);
      assert_double_near(st[VXC_STATE_NPREV + i], n[i], 1e-15);
    }
    assert_double_near(st[VXC_STATE_SDW], 0.5, 0);
    /* projecting twice changes nothing more */
    double again[VXC_STATE_SIZE];
    memcpy(again, st, sizeof st);
    vxc_contact_project(again, n);
    for (int i = 0; i < 3; i++) {
      assert_double_near(again[VXC_STATE_Z + i], st[VXC_STATE_Z + i], 1e-18);
    }
  }
  /* a zero normal leaves the state alone */
  double st[VXC_STATE_SIZE] = {1e-4, 2e-4, 3e-4};
  const double zero[3] = {0, 0, 0};
  vxc_contact_project(st, zero);
  assert_double_near(st[2], 3e-4, 0);
}


/* V = 0: a zero wrench and a zero state derivative, whatever the state and motion */
static void test_contact_eval_zero_volume_gives_zero(void **state) {
  (void)state;
  fixture f;
  fixture_init(&f, 0.5);
  double st[VXC_STATE_SIZE];
  assert_int_equal(vxc_contact_start(&f.p, &f.g, &f.a, &f.b, st, NULL), VXC_OK);
  st[VXC_STATE_Z] = 1e-5;
  st[VXC_STATE_THETA] = 0.1;
  f.g.volume = 0;
  f.a.w[2] = 3;
  vxc_wrench w;
  double ds[VXC_STATE_SIZE];
  memset(&w, 0x55, sizeof w);
  memset(ds, 0x55, sizeof ds);
  assert_int_equal(vxc_contact_eval(&f.p, &f.g, &f.a, &f.b, st, &w, ds, NULL), VXC_OK);
  const double *wd = (const double *)&w;
  for (size_t i = 0; i < sizeof w / sizeof(double); i++) {
    assert_double_near(wd[i], 0, 0);
  }
  for (int i = 0; i < VXC_STATE_SIZE; i++) {
    assert_double_near(ds[i], 0, 0);
  }
  /* dstate may be NULL */
  assert_int_equal(vxc_contact_eval(&f.p, &f.g, &f.a, &f.b, st, &w, NULL, NULL), VXC_OK);
}


/* evaluation errors: the documented status, outputs untouched */
static void test_contact_eval_errors_leave_outputs(void **state) {
  (void)state;
  fixture f;
  fixture_init(&f, 0.5);
  double st[VXC_STATE_SIZE];
  assert_int_equal(vxc_contact_start(&f.p, &f.g, &f.a, &f.b, st, NULL), VXC_OK);
  vxc_wrench w, wref;
  double ds[VXC_STATE_SIZE], dsref[VXC_STATE_SIZE];
  memset(&w, 0x5a, sizeof w);
  memset(ds, 0x5a, sizeof ds);
  wref = w;
  memcpy(dsref, ds, sizeof ds);
  vxc_params unprep = f.p;
  unprep.prepared = 0;
  vxc_error e;
  check_err(vxc_contact_eval(&unprep, &f.g, &f.a, &f.b, st, &w, ds, &e), &e, VXC_ERR_ARG,
            "vxc_contact_eval: p is not prepared");
  check_err(vxc_contact_eval(&f.p, NULL, &f.a, &f.b, st, &w, ds, &e), &e, VXC_ERR_ARG,
            "vxc_contact_eval: geom is NULL");
  check_err(vxc_contact_eval(&f.p, &f.g, &f.a, NULL, st, &w, ds, &e), &e, VXC_ERR_ARG,
            "vxc_contact_eval: b is NULL");
  check_err(vxc_contact_eval(&f.p, &f.g, &f.a, &f.b, NULL, &w, ds, &e), &e, VXC_ERR_ARG,
            "vxc_contact_eval: state is NULL");
  check_err(vxc_contact_eval(&f.p, &f.g, &f.a, &f.b, st, NULL, ds, &e), &e, VXC_ERR_ARG,
            "vxc_contact_eval: out is NULL");
  fixture bad = f;
  bad.g.normal[2] = 0;
  check_err(vxc_contact_eval(&f.p, &bad.g, &f.a, &f.b, st, &w, ds, &e), &e, VXC_ERR_ARG,
            "vxc_contact_eval: geom->normal has length");
  bad = f;
  bad.g.volume = -1e-9;
  check_err(vxc_contact_eval(&f.p, &bad.g, &f.a, &f.b, st, &w, ds, &e), &e, VXC_ERR_ARG,
            "vxc_contact_eval: geom->volume = -1e-09");
  bad = f;
  bad.g.inertia[4] = NAN;
  check_err(vxc_contact_eval(&f.p, &bad.g, &f.a, &f.b, st, &w, ds, &e), &e, VXC_ERR_NUMERIC,
            "vxc_contact_eval: geom->inertia is not finite");
  bad = f;
  bad.b.w[0] = INFINITY;
  check_err(vxc_contact_eval(&f.p, &f.g, &f.a, &bad.b, st, &w, ds, &e), &e, VXC_ERR_NUMERIC,
            "vxc_contact_eval: the motion of body b");
  double stbad[VXC_STATE_SIZE];
  memcpy(stbad, st, sizeof st);
  stbad[VXC_STATE_THETA] = NAN;
  check_err(vxc_contact_eval(&f.p, &f.g, &f.a, &f.b, stbad, &w, ds, &e), &e, VXC_ERR_NUMERIC,
            "vxc_contact_eval: state[3] = nan is not finite");
  /* the point model */
  const double pt[3] = {0, 0, 0};
  check_err(vxc_point_eval(&unprep, 1e-4, pt, f.g.normal, &f.a, &f.b, st, &w, ds, &e), &e,
            VXC_ERR_ARG, "vxc_point_eval: p is not prepared");
  check_err(vxc_point_eval(&f.p, 1e-4, pt, bad.g.normal, &f.a, &bad.b, st, &w, ds, &e), &e,
            VXC_ERR_NUMERIC, "vxc_point_eval: the motion of body b");
  check_err(vxc_point_eval(&f.p, INFINITY, pt, f.g.normal, &f.a, &f.b, st, &w, ds, &e), &e,
            VXC_ERR_NUMERIC, "vxc_point_eval: depth is not finite");
  assert_int_equal(memcmp(&w, &wref, sizeof w), 0);
  assert_int_equal(memcmp(ds, dsref, sizeof ds), 0);
}


/* f_n = k_v V (1 + a v_cn) with a = d / (e_eff u), clamped at 0; the force on A is
 * -f_n n, on B its opposite, with the lever arms from the centroid */
static void test_contact_eval_normal_force_law(void **state) {
  (void)state;
  fixture f;
  double v_in = 0.4;
  fixture_init(&f, v_in);
  double st[VXC_STATE_SIZE];
  assert_int_equal(vxc_contact_start(&f.p, &f.g, &f.a, &f.b, st, NULL), VXC_OK);
  double a = f.p.d / (f.p.e_eff * v_in);
  const double vcn[] = {0.4, 0.1, 0.0, -0.2, -0.9 / a * 0.999, -1.001 / a, -3.0};
  for (int k = 0; k < 7; k++) {
    for (int i = 0; i < 3; i++) {
      f.a.v[i] = vcn[k] * f.g.normal[i];
    }
    vxc_wrench w;
    assert_int_equal(vxc_contact_eval(&f.p, &f.g, &f.a, &f.b, st, &w, NULL, NULL), VXC_OK);
    double fn = f.p.k_v * f.g.volume * (1 + a * vcn[k]);
    if (fn < 0) {
      fn = 0;
    }
    assert_double_near(w.f_n, fn, 1e-14 * f.p.k_v * f.g.volume);
    double la[3], lb[3], ra[3], rb[3];
    for (int i = 0; i < 3; i++) {
      assert_double_near(w.force_normal[i], -w.f_n * f.g.normal[i], 1e-15 * (w.f_n + 1));
      assert_double_near(w.force_b[i], -w.force_a[i], 0);
      ra[i] = f.g.centroid[i] - f.a.r[i];
      rb[i] = f.g.centroid[i] - f.b.r[i];
    }
    /* no rotation, no slip: no friction and no torques but the lever arms */
    cross3(ra, w.force_a, la);
    cross3(rb, w.force_b, lb);
    for (int i = 0; i < 3; i++) {
      assert_double_near(w.force_friction[i], 0, 1e-12 * (w.f_n + 1));
      assert_double_near(w.torque_a[i], la[i], 1e-12 * (w.f_n + 1));
      assert_double_near(w.torque_b[i], lb[i], 1e-12 * (w.f_n + 1));
    }
    /* power on the pair: -f_n v_cn */
    assert_double_near(w.power, -w.f_n * vcn[k], 1e-12 * (w.f_n + 1));
  }
}


/* relaxation: V_r = V - V_ro with V_ro = V at the start (zero force then), decaying as
 * dV_ro/dt = -V_ro / tau_r */
static void test_contact_eval_relaxation(void **state) {
  (void)state;
  fixture f;
  fixture_init(&f, 0.5);
  f.p.tau_r = 2.0;
  assert_int_equal(vxc_params_prepare(&f.p, NULL), VXC_OK);
  double st[VXC_STATE_SIZE], ds[VXC_STATE_SIZE];
  assert_int_equal(vxc_contact_start(&f.p, &f.g, &f.a, &f.b, st, NULL), VXC_OK);
  memset(f.a.v, 0, sizeof f.a.v);
  vxc_wrench w;
  assert_int_equal(vxc_contact_eval(&f.p, &f.g, &f.a, &f.b, st, &w, ds, NULL), VXC_OK);
  assert_double_near(w.f_n, 0, 0);
  assert_double_rel(ds[VXC_STATE_VRO], -f.g.volume / 2.0, 1e-15);
  st[VXC_STATE_VRO] = 0.25 * f.g.volume;
  assert_int_equal(vxc_contact_eval(&f.p, &f.g, &f.a, &f.b, st, &w, ds, NULL), VXC_OK);
  assert_double_rel(w.f_n, f.p.k_v * 0.75 * f.g.volume, 1e-14);
  assert_double_rel(ds[VXC_STATE_VRO], -0.25 * f.g.volume / 2.0, 1e-15);
}


/* point model: f_n = k_p x^p (1 + a xdot) at the point, lever arms from the point, no
 * rolling or spinning torque even with relative spin; depth <= 0 gives zero */
static void test_point_eval_force_and_torques(void **state) {
  (void)state;
  vxc_params p;
  vxc_params_default(&p);
  const double n[3] = {0, 0.6, 0.8}, pt[3] = {0.3, -0.1, 0.2};
  vxc_body_motion a = {{0.3, -0.1 - 0.06, 0.2 - 0.08}, {0, 0.6 * 0.2, 0.8 * 0.2}, {0, 0, 0}};
  vxc_body_motion b = {{0.5, 0.0, 0.4}, {0, 0, 0}, {0, 0, 0}};
  double depth = 2e-4, st[VXC_STATE_SIZE];
  assert_int_equal(vxc_point_start(&p, depth, pt, n, &a, &b, st, NULL), VXC_OK);
  assert_double_rel(st[VXC_STATE_U], 0.2, 1e-15);
  double aa = p.d / (p.e_eff * 0.2);
  /* approaching at 0.1 m/s along n, spinning about n relative to B */
  for (int i = 0; i < 3; i++) {
    a.v[i] = 0.1 * n[i];
    a.w[i] = 4.0 * n[i];
    b.w[i] = -1.0 * n[i];
  }
  vxc_wrench w;
  double ds[VXC_STATE_SIZE];
  assert_int_equal(vxc_point_eval(&p, depth, pt, n, &a, &b, st, &w, ds, NULL), VXC_OK);
  double fn = p.k_p * pow(depth, 1.5) * (1 + aa * 0.1);
  assert_double_rel(w.f_n, fn, 1e-14);
  for (int i = 0; i < 3; i++) {
    assert_double_near(w.torque_rolling[i], 0, 0);
    assert_double_near(w.torque_spinning[i], 0, 0);
    assert_double_near(ds[VXC_STATE_THETA], 0, 0);
  }
  double ra[3], la[3];
  for (int i = 0; i < 3; i++) {
    ra[i] = pt[i] - a.r[i];
  }
  cross3(ra, w.force_a, la);
  for (int i = 0; i < 3; i++) {
    assert_double_near(w.torque_a[i], la[i], 1e-14 * fn);
  }
  /* separated: zero */
  assert_int_equal(vxc_point_eval(&p, -1e-6, pt, n, &a, &b, st, &w, ds, NULL), VXC_OK);
  assert_double_near(w.f_n, 0, 0);
  assert_double_near(w.force_a[1], 0, 0);
  assert_double_near(ds[VXC_STATE_SDW], 0, 0);
}


/* r_gyr = sqrt(n.J.n / V): a disc-like overlap of radius c has r_gyr = c / sqrt(2) */
static void test_gyration_radius(void **state) {
  (void)state;
  vxc_contact_geometry g;
  memset(&g, 0, sizeof g);
  double c = 0.03, V = M_PI * c * c * 1e-4;
  g.volume = V;
  g.inertia[0] = g.inertia[4] = V * c * c / 4;
  g.inertia[8] = V * c * c / 2;
  g.normal[2] = 1;
  assert_double_rel(vxc_gyration_radius(&g), c / sqrt(2.0), 1e-15);
  g.normal[2] = 0;
  g.normal[0] = 1;
  assert_double_rel(vxc_gyration_radius(&g), c / 2, 1e-15);
  g.volume = 0;
  assert_double_near(vxc_gyration_radius(&g), 0, 0);
  assert_double_near(vxc_gyration_radius(NULL), 0, 0);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_contact_start_sets_documented_state),
      cmocka_unit_test(test_contact_start_errors_leave_state),
      cmocka_unit_test(test_contact_reset_zeroes_state),
      cmocka_unit_test(test_contact_project_keeps_z_in_plane),
      cmocka_unit_test(test_contact_eval_zero_volume_gives_zero),
      cmocka_unit_test(test_contact_eval_errors_leave_outputs),
      cmocka_unit_test(test_contact_eval_normal_force_law),
      cmocka_unit_test(test_contact_eval_relaxation),
      cmocka_unit_test(test_point_eval_force_and_torques),
      cmocka_unit_test(test_gyration_radius),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
