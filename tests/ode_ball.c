/* ode_ball.c: vxc's volumetric contact driving ODE through the plain C API, and checked
 * against `vxc task data/ball-on-table.vxt` (tools/README.md quotes ode_drop below).
 *
 * The thesis's ball (2 kg, radius 0.1 m, section 5.2.1) is an ODE body dropped on a table that
 * ODE does not know about: every step, the ball's pose and velocity go to vxc_pair_step, which
 * queries the volume of interference, tracks the contact and returns the wrench, applied with
 * dBodyAddForce / dBodyAddTorque before dWorldStep. The parameters and the initial state are
 * those of data/ball-on-table.vxt; the check is that ODE's trajectory (centre height, position
 * along the roll, spin) stays within 1% of its span of the task runner's over the first bounce
 * (from the drop to the second impact). */
#include "tests/vxc_test.h"

#include <ode/ode.h>

#include "lib/vxc.h"

#define DT 1e-4     /* ODE's step, s */
#define T_END 0.4   /* simulated, s (the second impact is near 0.29 s) */
#define EVERY 0.005 /* the task file's record interval, s */
#define NREC 81     /* records in [0, T_END] */

typedef struct sample {
  double z, y, wz; /* centre height (m), along the roll (m), spin (rad/s) */
  int contact;     /* cell pairs in contact */
} sample;

/* The contact parameters of data/ball-on-table.vxt. */
static void ball_params(vxc_params *p, vxc_query_options *o) {
  static const struct {
    const char *name;
    double value;
  } set[] = {{"k_v", 1e7},   {"e_eff", 0.5}, {"v_small", 1e-3}, {"tau_r", 0},
             {"mu_s", 0.08}, {"mu_c", 0.05}, {"sigma0", 1e5},   {"sigma1", 316.2278},
             {"sigma2", 0},  {"v_s", 1e-3},  {"tau_dw", 0.3},   {"v_e", 1e-5}};
  vxc_params_default(p);
  for (size_t i = 0; i < sizeof set / sizeof *set; i++) {
    assert_int_equal(vxc_params_set(p, set[i].name, set[i].value, NULL), VXC_OK);
  }
  vxc_query_options_default(o);
  o->rtol = 0; /* (voxel 2e-3): fixed leaves of 2 mm */
  o->voxel = 2e-3;
}


/* The example: the ball in ODE, the table in vxc only, one vxc_pair_step per ODE step. */
static void ode_drop(vxc_solid *table, vxc_solid *ball, sample *out) {
  vxc_params p;
  vxc_query_options o;
  ball_params(&p, &o);
  vxc_pair *pair = NULL; /* the table is A, the ball B */
  vxc_error err;
  assert_int_equal(vxc_pair_create(table, ball, &p, &o, 8, NULL, &pair, &err), VXC_OK);

  dInitODE2(0);
  dWorldID world = dWorldCreate();
  dWorldSetGravity(world, 0, 0, -9.81);
  dBodyID body = dBodyCreate(world); /* ODE's body frame is at the centre of mass */
  dMass m;
  dMassSetSphereTotal(&m, 2.0, 0.1); /* I = 2/5 m r^2 = 0.008 kg m^2 */
  dBodySetMass(body, &m);
  dBodySetPosition(body, 0, 0, 0.2);
  dBodySetLinearVel(body, 0, 0.3, 0);
  dBodySetAngularVel(body, 0, 0, 3);

  const vxc_pose table_pose = vxc_pose_identity();
  const double zero[3] = {0, 0, 0};
  vxc_body_motion table_motion;
  vxc_body_motion_from_pose(&table_pose, NULL, NULL, zero, zero, &table_motion);
  long steps = lround(T_END / DT), every = lround(EVERY / DT);
  for (long k = 0; k <= steps; k++) {
    const dReal *x = dBodyGetPosition(body), *q = dBodyGetQuaternion(body);
    const dReal *v = dBodyGetLinearVel(body), *w = dBodyGetAngularVel(body);
    vxc_pose pose = {{x[0], x[1], x[2]}, {q[0], q[1], q[2], q[3]}};
    double vc[3] = {v[0], v[1], v[2]}, wc[3] = {w[0], w[1], w[2]};
    vxc_body_motion motion; /* torques about the centre, as dBodyAddTorque takes them */
    assert_int_equal(vxc_body_motion_from_pose(&pose, NULL, NULL, vc, wc, &motion), VXC_OK);
    vxc_pair_wrench f;
    vxc_status st = vxc_pair_step(pair, &table_pose, &table_motion, &pose, &motion, DT, &f, &err);
    if (st != VXC_OK) {
      fail_msg("%s", err.message);
    }
    if (k % every == 0) {
      out[k / every] = (sample){x[2], x[1], w[2], f.npairs};
    }
    dBodyAddForce(body, f.force_b[0], f.force_b[1], f.force_b[2]);
    dBodyAddTorque(body, f.torque_b[0], f.torque_b[1], f.torque_b[2]);
    dWorldStep(world, DT);
  }
  dWorldDestroy(world);
  dCloseODE();
  vxc_pair_free(pair);
}

/* ---- the reference: vxc task on the same scene -------------------------------------- */

typedef struct collect {
  sample *s;
  int n;
} collect;

static int on_record(void *ud, const vxc_task_record *r) {
  collect *c = ud;
  if (c->n < NREC) {
    const vxc_task_body_state *b = &r->body[1]; /* the ball */
    c->s[c->n++] = (sample){b->pose[2], b->pose[1], b->velocity[5], r->contact[0].npairs};
  }
  return 0;
}


static void task_drop(sample *out) {
  vxc_task *t = NULL;
  vxc_error err;
  assert_int_equal(vxc_task_load(vxc_test_data("ball-on-table.vxt"), NULL, &t, &err), VXC_OK);
  assert_string_equal(vxc_task_body_name(t, 1), "ball");
  assert_int_equal(vxc_task_set_duration(t, T_END), VXC_OK);
  collect c = {out, 0};
  vxc_task_summary sum;
  assert_int_equal(vxc_task_run(t, on_record, NULL, &c, &sum, &err), VXC_OK);
  assert_int_equal(c.n, NREC);
  vxc_task_free(t);
}


/* The end of the first bounce: the first record in contact after the first flight ended. */
static int second_impact(const sample *s) {
  int i = 0;
  while (i < NREC && !s[i].contact) {
    i++;
  }
  while (i < NREC && s[i].contact) {
    i++;
  }
  while (i < NREC && !s[i].contact) {
    i++;
  }
  return i;
}


static double max_diff(const sample *a, const sample *b, int n, size_t off, double *span) {
  double lo = HUGE_VAL, hi = -HUGE_VAL, d = 0;
  for (int i = 0; i < n; i++) {
    double x = *(const double *)((const char *)&b[i] + off);
    double y = *(const double *)((const char *)&a[i] + off);
    lo = fmin(lo, x);
    hi = fmax(hi, x);
    d = fmax(d, fabs(x - y));
  }
  *span = hi - lo;
  return d;
}


static void test_ode_matches_task(void **state) {
  (void)state;
  vxc_solid *table = NULL, *ball = NULL;
  assert_int_equal(vxc_solid_load(vxc_test_data("table.vxm"), NULL, &table, NULL), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &ball, NULL), VXC_OK);
  sample ode[NREC], task[NREC];
  ode_drop(table, ball, ode);
  task_drop(task);
  int n = second_impact(task);
  assert_true(n > 40 && n < NREC); /* 0.29 s: the drop, an impact, a flight of 0.14 s */
  static const struct {
    const char *name;
    size_t off;
  } q[] = {{"z", offsetof(sample, z)}, {"y", offsetof(sample, y)}, {"wz", offsetof(sample, wz)}};
  for (size_t i = 0; i < sizeof q / sizeof *q; i++) {
    double span, d = max_diff(ode, task, n, q[i].off, &span);
    printf(
        "# %s over the first bounce (0 to %.3f s): span %.4g, largest ODE - task %.3g "
        "(%.3g%% of the span)\n",
        q[i].name, (n - 1) * EVERY, span, d, 100 * d / span);
    assert_true(span > 0);
    assert_true(d <= 0.01 * span);
  }
  vxc_solid_free(ball);
  vxc_solid_free(table);
}


int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_ode_matches_task)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
