/* test_pair.c: one contact of two solids driven step by step through the public API
 * (vxc_pair.h), against closed forms: a ball of radius R resting h deep on a table overlaps
 * it by the spherical cap V = pi h^2 (R - h / 3), whose polar moment about its axis (unit
 * density) is J_n = pi h^3 (20 R^2 - 15 R h + 3 h^2) / 30, so r_gyr = sqrt(J_n / V). */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#define R 0.1    /* ball.vxm's radius, m */
#define H 2.5e-3 /* depth of the resting ball, m */

static double cap_rgyr(double h) {
  double jn = M_PI * pow(h, 3) * (20 * R * R - 15 * R * h + 3 * h * h) / 30;
  return sqrt(jn / vxc_test_cap_volume(R, h));
}

typedef struct fixture {
  vxc_solid *table, *ball;
  vxc_params p;
  vxc_pair *pair;
  vxc_pose pt, pb; /* table (A), ball (B) */
  vxc_body_motion mt, mb;
} fixture;

static fixture F;

static int setup(void **state) {
  (void)state;
  memset(&F, 0, sizeof F);
  assert_int_equal(vxc_solid_load(vxc_test_data("table.vxm"), NULL, &F.table, NULL), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &F.ball, NULL), VXC_OK);
  vxc_params_default(&F.p);
  F.p.k_v = 1e7;
  F.p.sigma0 = 1e5;
  F.p.sigma1 = sqrt(1e5);
  F.p.prepared = 0; /* vxc_pair_create prepares */
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = 1e-5;
  assert_int_equal(vxc_pair_create(F.table, F.ball, &F.p, &o, 4, NULL, &F.pair, NULL), VXC_OK);
  F.pt = vxc_pose_identity();
  F.pb = vxc_pose_identity();
  F.pb.p[2] = R - H;
  static const double zero[3] = {0, 0, 0};
  assert_int_equal(vxc_body_motion_from_pose(&F.pt, NULL, NULL, zero, zero, &F.mt, NULL), VXC_OK);
  assert_int_equal(vxc_body_motion_from_pose(&F.pb, NULL, NULL, zero, zero, &F.mb, NULL), VXC_OK);
  return 0;
}


static int teardown(void **state) {
  (void)state;
  vxc_pair_free(F.pair);
  vxc_solid_free(F.ball);
  vxc_solid_free(F.table);
  return 0;
}


/* A body turned 90 degrees about z, its reference point 0.1 m along its own x (world +y),
 * its origin moving at 1 m/s along x and spinning at 2 rad/s about z: the reference point
 * moves at v + w x (0, 0.1, 0) = (1 - 0.2, 0, 0). */
static void test_motion_from_pose(void **state) {
  (void)state;
  double c = sqrt(0.5);
  vxc_pose p = {{1, 2, 3}, {2 * c, 0, 0, 2 * c}}; /* not unit: normalised */
  double ref[3] = {0.1, 0, 0}, v[3] = {1, 0, 0}, w[3] = {0, 0, 2};
  vxc_body_motion m;
  assert_int_equal(vxc_body_motion_from_pose(&p, ref, NULL, v, w, &m, NULL), VXC_OK);
  assert_double_near(m.r[0], 1, 1e-15);
  assert_double_near(m.r[1], 2.1, 1e-15);
  assert_double_near(m.r[2], 3, 1e-15);
  assert_double_near(m.v[0], 0.8, 1e-15);
  assert_double_near(m.v[1], 0, 1e-15);
  assert_double_near(m.w[2], 2, 0);
  /* the velocity given at the reference point itself comes back unchanged */
  vxc_body_motion m2;
  assert_int_equal(vxc_body_motion_from_pose(&p, ref, ref, v, w, &m2, NULL), VXC_OK);
  assert_double_near(m2.v[0], 1, 0);
  vxc_pose z = {{0, 0, 0}, {0, 0, 0, 0}};
  assert_int_equal(vxc_body_motion_from_pose(&z, NULL, NULL, v, w, &m, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_body_motion_from_pose(NULL, NULL, NULL, v, w, &m, NULL), VXC_ERR_ARG);
  v[1] = NAN;
  assert_int_equal(vxc_body_motion_from_pose(&p, NULL, NULL, v, w, &m, NULL), VXC_ERR_NUMERIC);
}


/* At rest H deep: f_n = k_v V of the cap, straight up through the ball's centre. */
static void test_resting_force(void **state) {
  (void)state;
  vxc_pair_wrench w;
  assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, NULL), VXC_OK);
  double f = F.p.k_v * vxc_test_cap_volume(R, H);
  assert_int_equal(w.npairs, 1);
  assert_int_equal(w.started, 1);
  assert_double_rel(w.volume, vxc_test_cap_volume(R, H), 1e-5);
  assert_double_rel(w.f_n, f, 1e-5);
  assert_double_rel(w.force_b[2], f, 1e-5);
  assert_double_near(w.force_a[2], -w.force_b[2], 0);
  /* zero by symmetry; the centroid may stray off the axis by rtol times the cap's radius */
  double a = sqrt(H * (2 * R - H));
  for (int i = 0; i < 3; i++) {
    assert_double_near(w.torque_b[i], 0, 1e-5 * a * f);
  }
  assert_double_near(w.normal[2], 1, 1e-9);
  const double *s = vxc_pair_state(F.pair, 0);
  assert_non_null(s);
  assert_double_near(s[VXC_STATE_ACTIVE], 1, 0);
  assert_null(vxc_pair_state(F.pair, 4));
  assert_int_equal(vxc_pair_last_metrics(F.pair)->npair, 1);
  /* a tracked step's penetration is a bracket (no exact segment), still holding the depth */
  const vxc_pair_metrics *pm = &vxc_pair_last_metrics(F.pair)->pair[0];
  assert_true(pm->penetration_lo <= H * (1 + 1e-12) && H <= pm->penetration_hi * (1 + 1e-12));
  /* the same step again: the pair goes on, nothing starts */
  assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, NULL), VXC_OK);
  assert_int_equal(w.started, 0);
  assert_int_equal(w.lost, 0);
}


/* Spinning in place at 10 rad/s (r_gyr w_n = 0.16 m/s, far above v_s: sliding), from a
 * fresh state (theta = 0, s_dw = 1): the spin bristle's rate is mu_c / (r_gyr sigma1) and
 * its torque the sliding limit mu_c r_gyr f_n (thesis 4.237); after dt the state holds
 * backward Euler's theta = -dt mu_c / (r_gyr sigma1) / (1 + dt sigma0 / sigma1) of
 * dtheta/dt = -mu_c / (r_gyr sigma1) - (sigma0 / sigma1) theta (negative: theta follows
 * w_n = n.(w_a - w_b), the table's spin relative to the ball's). */
static void test_spin_torque_and_state(void **state) {
  (void)state;
  vxc_pair_wrench w;
  F.mb.w[2] = 10;
  double dt = 1e-4;
  assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, dt, &w, NULL), VXC_OK);
  double r = cap_rgyr(H), f = F.p.k_v * vxc_test_cap_volume(R, H);
  assert_double_rel(w.t_spin, F.p.mu_c * r * f, 1e-4);
  assert_double_rel(-w.torque_b[2], F.p.mu_c * r * f, 1e-4);
  const double *s = vxc_pair_state(F.pair, 0);
  assert_double_rel(s[VXC_STATE_THETA],
                    -dt * F.p.mu_c / (r * F.p.sigma1) / (1 + dt * F.p.sigma0 / F.p.sigma1), 1e-4);
}


/* Lifted clear of the table: no force, the contact lost and its state reset; the step's
 * metrics carry no distance, a query gives the gap. */
static void test_apart(void **state) {
  (void)state;
  vxc_pair_wrench w;
  assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, NULL), VXC_OK);
  F.pb.p[2] = R + 0.01;
  assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, 1e-4, &w, NULL), VXC_OK);
  assert_int_equal(w.npairs, 0);
  assert_int_equal(w.lost, 1);
  assert_double_near(w.force_b[2], 0, 0);
  const double *s = vxc_pair_state(F.pair, 0);
  for (int i = 0; i < VXC_STATE_SIZE; i++) {
    assert_double_near(s[i], 0, 0);
  }
  /* a step computes no distance (none reads it); a query gives the ball's 0.01 m gap */
  const vxc_metrics *m = vxc_pair_last_metrics(F.pair);
  assert_int_equal(m->npair, 0);
  assert_true(isnan(m->distance) && m->distance_exact == 0);
  vxc_query *q = NULL;
  vxc_metrics mq;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  assert_int_equal(vxc_query_run(q, F.table, &F.pt, F.ball, &F.pb, NULL, NULL, NULL, &mq, NULL),
                   VXC_NO_CONTACT);
  assert_double_near(mq.distance, 0.01, 1e-12);
  assert_int_equal(mq.distance_exact, 1);
  vxc_query_free(q);
}


/* Bad arguments: refused with a message, nothing changed. */
static void test_errors(void **state) {
  (void)state;
  vxc_pair_wrench w;
  vxc_error err;
  assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, -1, &w, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "dt"));
  assert_int_equal(vxc_pair_step(F.pair, NULL, &F.mt, &F.pb, &F.mb, 0, &w, &err), VXC_ERR_ARG);
  F.mb.v[0] = INFINITY;
  assert_int_equal(vxc_pair_step(F.pair, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, &err), VXC_ERR_NUMERIC);
  assert_non_null(strstr(err.message, "body B"));
  vxc_pair *p = NULL;
  assert_int_equal(vxc_pair_create(F.table, F.ball, &F.p, NULL, 0, NULL, &p, &err), VXC_ERR_ARG);
  vxc_params bad = F.p;
  bad.prepared = 0;
  bad.e_eff = 2;
  assert_int_equal(vxc_pair_create(F.table, F.ball, &bad, NULL, 1, NULL, &p, &err), VXC_ERR_ARG);
  assert_non_null(strstr(err.message, "e_eff"));
  assert_null(p);
  vxc_pair_free(NULL);
}


/* Two balls side by side, both resting on the table, through a pair with one slot:
 * VXC_ERR_LIMIT, and with two slots both tracked. */
static void test_slots(void **state) {
  (void)state;
  static const char text[] =
      "(solid two (cell a (sphere 0.1)) "
      "(cell b (sphere 0.1) (pose (translate 0.3 0 0))))";
  vxc_solid *two = NULL;
  assert_int_equal(vxc_solid_parse(text, sizeof text - 1, "two", NULL, &two, NULL), VXC_OK);
  vxc_pair *p1 = NULL, *p2 = NULL;
  assert_int_equal(vxc_pair_create(F.table, two, &F.p, NULL, 1, NULL, &p1, NULL), VXC_OK);
  assert_int_equal(vxc_pair_create(F.table, two, &F.p, NULL, 2, NULL, &p2, NULL), VXC_OK);
  vxc_pair_wrench w;
  vxc_error err;
  F.pb.p[0] = -0.15;
  assert_int_equal(vxc_pair_step(p1, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, &err), VXC_ERR_LIMIT);
  assert_non_null(strstr(err.message, "slots"));
  assert_int_equal(vxc_pair_step(p2, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, &err), VXC_OK);
  assert_int_equal(w.npairs, 2);
  assert_double_rel(w.f_n, 2 * F.p.k_v * vxc_test_cap_volume(R, H), 2e-3);
  vxc_pair_free(p1);
  vxc_pair_free(p2);
  vxc_solid_free(two);
}


/* A pair's queries under the rtol rule keep the leaf that met the tolerance (lib/pair.c), so
 * small motions, as between an integrator's steps, change the figures smoothly: the ball
 * pressed from 1.17 to 1.19 mm deep, 5e-7 m a step, and moved 1e-6 m a step along x keeps
 * its volume within rtol of the cap's, its estimate within rtol and unflagged, each step's
 * volume increment within 0.1% of the cap's own (pi (2 R h - h^2) dh, a third of rtol V) and
 * each step's centroid shift within 1% of the ball's (the cap's centroid lies on the ball's
 * axis). Near 1.18 mm the rtol rule alone stops one level coarser than at 1.17 mm: there
 * its increments stray 0.44% and 2.6%. */
static void test_smooth_in_time(void **state) {
  (void)state;
  vxc_query_options o;
  vxc_query_options_default(&o); /* rtol 1e-3 */
  vxc_pair *pr = NULL;
  assert_int_equal(vxc_pair_create(F.table, F.ball, &F.p, &o, 4, NULL, &pr, NULL), VXC_OK);
  vxc_pair_wrench w;
  const double h0 = 1.17e-3, dx = 1e-6, dh = 5e-7;
  F.pb.p[2] = R - h0;
  for (int k = 0; k < 6; k++) { /* the leaf settles */
    assert_int_equal(vxc_pair_step(pr, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, NULL), VXC_OK);
  }
  double vprev = 0, cprev = 0, worst_v = 0, worst_c = 0;
  for (int k = 0; k <= 40; k++) {
    double h = h0 + k * dh;
    F.pb.p[0] = k * dx;
    F.pb.p[2] = R - h;
    assert_int_equal(vxc_pair_step(pr, &F.pt, &F.mt, &F.pb, &F.mb, 0, &w, NULL), VXC_OK);
    const vxc_metrics *m = vxc_pair_last_metrics(pr);
    assert_int_equal(m->npair, 1);
    const vxc_pair_metrics *pm = &m->pair[0];
    double v = pm->geom.volume, c = pm->geom.centroid[0];
    assert_int_equal(pm->capped, 0);
    assert_true(pm->error_estimate <= o.rtol * v);
    assert_double_rel(v, vxc_test_cap_volume(R, h), o.rtol);
    if (k > 0) {
      double exact = vxc_test_cap_volume(R, h) - vxc_test_cap_volume(R, h - dh);
      worst_v = fmax(worst_v, fabs((v - vprev) / exact - 1));
      worst_c = fmax(worst_c, fabs((c - cprev) / dx - 1));
    }
    vprev = v;
    cprev = c;
  }
  fprintf(stderr, "# increments within %.3g (volume) and %.3g (centroid) of the cap's\n", worst_v,
          worst_c);
  assert_true(worst_v < 1e-3);
  assert_true(worst_c < 1e-2);
  vxc_pair_free(pr);
}


/* A peg moved step by step across its hole (peg.vxm in hole-block.vxm, closed forms off, a
 * fixed leaf), turning a little, until its shaft presses into the +x wall: the tracked pair,
 * which skips cell pairs proved apart with a reach while they move less (lib/apart.c),
 * finds at every step the cell pairs and volumes that a new query without that record
 * finds. */
static void test_apart_reach_skips(void **state) {
  (void)state;
  vxc_solid *peg, *blk;
  assert_int_equal(vxc_solid_load(vxc_test_data("peg.vxm"), NULL, &peg, NULL), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data("hole-block.vxm"), NULL, &blk, NULL), VXC_OK);
  vxc_params p;
  vxc_params_default(&p);
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = 0;
  o.voxel = 5e-4;
  o.closed_form = 0;
  vxc_pair *pr;
  assert_int_equal(vxc_pair_create(blk, peg, &p, &o, 8, NULL, &pr, NULL), VXC_OK);
  vxc_query *q;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_pose pb = vxc_pose_identity(), pp = vxc_pose_identity();
  static const double zero[3] = {0, 0, 0};
  vxc_body_motion mb, mp;
  assert_int_equal(vxc_body_motion_from_pose(&pb, NULL, NULL, zero, zero, &mb, NULL), VXC_OK);
  int first = -1, nstep = 80;
  for (int k = 0; k < nstep; k++) {
    /* 10 micrometres a step along x from the axis (the shaft meets the wall past 0.5 mm),
       turning about y by up to 0.05 degree, 20 mm deep */
    double a = 0.5 * 8.7e-4 * sin(0.3 * k);
    pp.p[0] = 1e-5 * k;
    pp.p[2] = -0.02;
    pp.q[0] = cos(0.5 * a);
    pp.q[2] = sin(0.5 * a);
    assert_int_equal(vxc_body_motion_from_pose(&pp, NULL, NULL, zero, zero, &mp, NULL), VXC_OK);
    vxc_pair_wrench w;
    assert_int_equal(vxc_pair_step(pr, &pb, &mb, &pp, &mp, 0, &w, NULL), VXC_OK);
    const vxc_metrics *mt = vxc_pair_last_metrics(pr);
    vxc_metrics mq;
    vxc_status sq = vxc_query_run(q, blk, &pb, peg, &pp, &o, NULL, NULL, &mq, NULL);
    assert_true(sq == VXC_OK || sq == VXC_NO_CONTACT);
    mq.npair = sq == VXC_OK ? mq.npair : 0;
    assert_int_equal(mt->npair, mq.npair);
    for (int i = 0; i < mq.npair; i++) {
      assert_int_equal(mt->pair[i].cell_a, mq.pair[i].cell_a);
      assert_int_equal(mt->pair[i].cell_b, mq.pair[i].cell_b);
      assert_true(mt->pair[i].geom.volume == mq.pair[i].geom.volume);
    }
    if (first < 0 && mq.npair > 0) {
      first = k;
    }
  }
  /* the shaft, 0.5 mm clear of the wall on the axis, meets it 0.5 mm off (the turn moves
     its part in the hole, within 20 mm of the tip, by 9 micrometres at most) */
  printf("# first contact at step %d (%g m off the axis)\n", first, 1e-5 * first);
  assert_true(first >= 48 && first <= 52);
  vxc_query_free(q);
  vxc_pair_free(pr);
  vxc_solid_free(blk);
  vxc_solid_free(peg);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_motion_from_pose),
      cmocka_unit_test_setup_teardown(test_resting_force, setup, teardown),
      cmocka_unit_test_setup_teardown(test_spin_torque_and_state, setup, teardown),
      cmocka_unit_test_setup_teardown(test_apart, setup, teardown),
      cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_slots, setup, teardown),
      cmocka_unit_test_setup_teardown(test_smooth_in_time, setup, teardown),
      cmocka_unit_test(test_apart_reach_skips),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
