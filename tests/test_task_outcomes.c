/* test_task_outcomes.c: a task says what went wrong. Bodies that overlap at the start are
 * refused (with the overlap's closed-form volume and force) unless the task allows it; a
 * run whose energy balance breaks stops at the first record past the tolerance, flagged;
 * a contact present at t = 0 counts in the summary's times and peaks. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* A 2 kg ball of radius 0.1 m at rest with its centre at height z over the table, k_v 1e7,
 * no damping or friction; `extra` goes into the task form. */
static vxc_task *ball_task(double z, const char *extra) {
  char text[1024];
  snprintf(text, sizeof text,
           "(task start (gravity 0 0 -9.81) (duration 1e-3) %s\n"
           "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
           "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 0.008)\n"
           "    (com 0 0 0)) (pose 0 0 %.17g))\n"
           "  (contact table ball (params (k_v 1e7) (e_eff 1) (mu_s 0) (mu_c 0)) (voxel 1e-3)))",
           extra, z);
  vxc_task *t = NULL;
  vxc_error err;
  vxc_status st =
      vxc_task_parse(text, strlen(text), "start.vxt", vxc_test_datadir(), NULL, &t, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  return t;
}


/* Volume of a cap of depth h cut from a sphere of radius R: pi h^2 (3 R - h) / 3. */
/* A ball 10 mm into the table is refused; the message names both bodies; the summary
 * holds the overlap's volume (the cap's closed form) and its force k_v V (at rest, so the
 * damping adds nothing). */
static void test_initial_overlap_refused(void **state) {
  (void)state;
  vxc_task *t = ball_task(0.09, "");
  vxc_task_summary s;
  vxc_error err;
  vxc_status st = vxc_task_run(t, NULL, NULL, NULL, &s, &err);
  assert_int_equal(st, VXC_ERR_GEOMETRY);
  assert_non_null(strstr(err.message, "table and ball overlap"));
  assert_non_null(strstr(err.message, "initial-overlap allow"));
  assert_double_near(s.t_end, 0, 0);
  assert_int_equal(s.steps, 0);
  double v = vxc_test_cap_volume(0.1, 0.01);
  assert_double_near(s.contact[0].initial_volume, v, 1e-6 * v);
  assert_double_near(s.contact[0].initial_fn, 1e7 * v, 1e-6 * 1e7 * v);
  vxc_task_free(t);
}


/* Allowed, the same start runs; its contact is in the summary from t = 0 with at least the
 * initial force as its peak (a start in contact is not "never in contact"). */
static void test_initial_overlap_allowed(void **state) {
  (void)state;
  vxc_task *t = ball_task(0.09, "(initial-overlap allow)");
  vxc_task_summary s;
  vxc_error err;
  vxc_status st = vxc_task_run(t, NULL, NULL, NULL, &s, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  assert_int_equal(s.completed, 1);
  assert_double_near(s.contact[0].first, 0, 0);
  assert_true(s.contact[0].initial_volume > 0);
  assert_true(s.contact[0].peak_fn >= s.contact[0].initial_fn);
  assert_true(s.realtime_factor > 0);
  vxc_task_free(t);
}


/* A ball just touching (1 um above) is no overlap: the run starts. */
static void test_touching_start_runs(void **state) {
  (void)state;
  vxc_task *t = ball_task(0.100001, "");
  vxc_task_summary s;
  vxc_error err;
  assert_int_equal(vxc_task_run(t, NULL, NULL, NULL, &s, &err), VXC_OK);
  assert_double_near(s.contact[0].initial_volume, 0, 0);
  vxc_task_free(t);
}


/* What the records saw: the energy scale and the first record past the tolerance. */
typedef struct energy_watch {
  double tol, p0, scale;
  int n, first_bad; /* records seen; index of the first past tol * scale (-1: none) */
} energy_watch;


static int watch(void *ud, const vxc_task_record *r) {
  energy_watch *w = ud;
  const vxc_task_energy *e = &r->energy;
  if (w->n == 0) {
    w->p0 = e->potential;
  }
  double scale =
      e->kinetic + fabs(e->potential - w->p0) + fabs(e->elastic) + e->dissipated + fabs(e->work_in);
  w->scale = fmax(w->scale, scale);
  if (w->first_bad < 0 && fabs(e->error) > w->tol * w->scale && fabs(e->error) > 1e-9) {
    w->first_bad = w->n;
  }
  w->n++;
  return 0;
}


/* The thesis's ball dropped on the table with fixed RK4 steps of 5 ms: its energy balance
 * drifts by about 5e-3 of the run's energy. With (energy-tolerance 1e-4) the run stops,
 * flagged, at exactly the first record whose drift (recomputed here from the records'
 * budgets) passes the tolerance, and that record was passed on; with the default tolerance
 * (1e-2) the same run completes. */
static void test_energy_error_stops_run(void **state) {
  (void)state;
  const char *fmt =
      "(task drop (gravity 0 0 -9.81) (duration 1) (integrator rk4 (step 5e-3))\n"
      "  (record (every 0.005)) %s\n"
      "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
      "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 0.008))\n"
      "    (pose 0 0 0.2) (velocity 0 0.3 0 0 0 3))\n"
      "  (contact table ball (params (k_v 1e7) (e_eff 0.5) (v_small 1e-3) (tau_r 0)\n"
      "    (mu_s 0.08) (mu_c 0.05) (sigma0 1e5) (sigma1 316.2278) (sigma2 0) (v_s 1e-3)\n"
      "    (tau_dw 0.3)) (voxel 2e-3)))";
  const char *tol[2] = {"(energy-tolerance 1e-4)", ""};
  for (int k = 0; k < 2; k++) {
    char text[2048];
    snprintf(text, sizeof text, fmt, tol[k]);
    vxc_task *t = NULL;
    vxc_error err;
    assert_int_equal(
        vxc_task_parse(text, strlen(text), "drop.vxt", vxc_test_datadir(), NULL, &t, &err), VXC_OK);
    energy_watch w = {k == 0 ? 1e-4 : 1e-2, 0, 0, 0, -1};
    vxc_task_summary s;
    vxc_status st = vxc_task_run(t, watch, NULL, &w, &s, &err);
    if (k == 0) {
      assert_int_equal(st, VXC_ERR_NUMERIC);
      assert_int_equal(s.energy_failed, 1);
      assert_non_null(strstr(err.message, "energy balance"));
      assert_true(w.first_bad > 0);
      assert_int_equal(w.first_bad, w.n - 1); /* stopped at the first bad record */
      assert_double_near(s.energy_scale, w.scale, 1e-12 * w.scale);
      assert_true(s.t_end < 1);
    } else {
      assert_int_equal(st, VXC_OK);
      assert_int_equal(s.completed, 1);
      assert_int_equal(s.energy_failed, 0);
      assert_int_equal(w.first_bad, -1);
      assert_true(s.max_abs_error > 1e-4 * s.energy_scale); /* the first run's trip is real */
    }
    vxc_task_free(t);
  }
}


/* Runs are bounded: a fixed step whose count (duration / step) passes the step limit, or
 * a record interval whose count passes the record limit, is refused before any step; an
 * adaptive run stops at the step limit with what it reached (exactly that many steps). */
static void test_runs_are_bounded(void **state) {
  (void)state;
  const char *fmt =
      "(task fall (gravity 0 0 -9.81) (duration 1) %s\n"
      "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 "
      "0.008)) (pose 0 0 1)))";
  const char *form[3] = {"(integrator rk4 (step 1e-300))", "(record (every 1e-300))",
                         "(integrator adaptive (rtol 1e-12) (atol 1e-15) (max-step 1e-4))"};
  const char *what[3] = {"steps (duration / step)", "records (duration / every)",
                         "step limit 50 was reached"};
  for (int k = 0; k < 3; k++) {
    char text[512];
    snprintf(text, sizeof text, fmt, form[k]);
    vxc_task *t = NULL;
    vxc_error err;
    assert_int_equal(
        vxc_task_parse(text, strlen(text), "fall.vxt", vxc_test_datadir(), NULL, &t, &err), VXC_OK);
    if (k == 2) {
      assert_int_equal(vxc_task_set_limits(t, 50, 1000, NULL), VXC_OK);
    }
    vxc_task_summary s;
    assert_int_equal(vxc_task_run(t, NULL, NULL, NULL, &s, &err), VXC_ERR_LIMIT);
    assert_non_null(strstr(err.message, what[k]));
    assert_int_equal(s.steps, k == 2 ? 50 : 0);
    assert_true(k == 2 ? s.t_end > 0 && s.t_end < 1 : s.t_end == 0);
    assert_int_equal(vxc_task_set_limits(t, 0, 1, NULL), VXC_ERR_ARG);
    vxc_task_free(t);
  }
}


/* The new forms are checked like the others: file, line and column. */
static void test_outcome_forms_checked(void **state) {
  (void)state;
  const char *bad[] = {
      "(task t (duration 1) (initial-overlap maybe) (body b (model \"ball.vxm\") "
      "(fixed) (pose 0 0 0)))",
      "(task t (duration 1) (energy-tolerance -1) (body b (model \"ball.vxm\") "
      "(fixed) (pose 0 0 0)))"};
  for (int k = 0; k < 2; k++) {
    vxc_task *t = NULL;
    vxc_error err;
    vxc_status st =
        vxc_task_parse(bad[k], strlen(bad[k]), "bad.vxt", vxc_test_datadir(), NULL, &t, &err);
    assert_int_equal(st, VXC_ERR_FORMAT);
    assert_null(t);
    assert_non_null(strstr(err.message, "bad.vxt:1:"));
  }
}


/* Counts poll calls and asks to stop at the 7th; keeps the last record's time. */
typedef struct poll_watch {
  int calls;
  double last_t;
  int records;
} poll_watch;

static int poll_stop(void *ud) {
  poll_watch *w = ud;
  return ++w->calls >= 7;
}

static int last_record(void *ud, const vxc_task_record *r) {
  poll_watch *w = ud;
  w->last_t = r->t;
  w->records++;
  return 0;
}


/* A poll that asks to stop ends the run after that step, whatever the record interval: a
 * free fall with 1 ms RK4 steps and one record a second stops at t = 7 ms, with a last
 * record there, status VXC_OK and stopped set. */
static void test_poll_stops_after_the_step(void **state) {
  (void)state;
  vxc_task *t = ball_task(1, "(integrator rk4 (step 1e-3)) (record (every 1))");
  vxc_task_set_duration(t, 10, NULL);
  poll_watch w = {0, -1, 0};
  assert_int_equal(vxc_task_set_poll(t, poll_stop, &w, NULL), VXC_OK);
  vxc_task_summary s;
  vxc_error err;
  assert_int_equal(vxc_task_run(t, last_record, NULL, &w, &s, &err), VXC_OK);
  assert_int_equal(s.stopped, 1);
  assert_int_equal(s.completed, 0);
  assert_int_equal(s.steps, 7);
  assert_double_near(s.t_end, 7e-3, 1e-15);
  assert_double_near(w.last_t, s.t_end, 0);
  assert_int_equal(w.records, 2); /* t = 0 and the stop */
  assert_int_equal(vxc_task_set_poll(NULL, poll_stop, &w, NULL), VXC_ERR_ARG);
  vxc_task_free(t);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_initial_overlap_refused),
      cmocka_unit_test(test_initial_overlap_allowed),
      cmocka_unit_test(test_touching_start_runs),
      cmocka_unit_test(test_energy_error_stops_run),
      cmocka_unit_test(test_runs_are_bounded),
      cmocka_unit_test(test_outcome_forms_checked),
      cmocka_unit_test(test_poll_stops_after_the_step),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
