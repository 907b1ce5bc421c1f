/* test_api_errors.c: a refused call names itself and the bad argument in its error record.
 * Every public function that returns a vxc_status takes a vxc_error (tests/test_conventions.sh
 * checks the headers); here each of those that once reported by their status alone is called
 * with a bad argument, and must return the status its header names, record the same status
 * and a message holding the function's name and the argument's, and accept a NULL record. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

static vxc_error err;

/* got: the status of `call` (its text), with err filled by it; want and `word` (a part of
 * the message naming the argument) what it should have given. */
static void refused(const char *call, vxc_status got, vxc_status want, const char *word) {
  char fn[64];
  snprintf(fn, sizeof fn, "%.*s", (int)strcspn(call, "("), call);
  if (got != want || err.status != want || !strstr(err.message, fn) || !strstr(err.message, word)) {
    fprintf(stderr, "# %s: status %s (want %s), recorded %s, message '%s' (want '%s', '%s')\n",
            call, vxc_status_str(got), vxc_status_str(want), vxc_status_str(err.status),
            err.message, fn, word);
    fail();
  }
}

/* Calls `call` (whose last argument is &err) with err cleared, and checks what it gave. */
#define REFUSES(want, word, call)     \
  do {                                \
    memset(&err, 0, sizeof err);      \
    vxc_status got_ = (call);         \
    refused(#call, got_, want, word); \
  } while (0)

static const double zero3[3] = {0, 0, 0}, ez[3] = {0, 0, 1}, ex[3] = {1, 0, 0};


// the bristle rows and the friction laws name a NULL argument, a non-finite number and a law of
// the wrong kind
static void test_errors_friction(void **state) {
  (void)state;
  vxc_params p;
  vxc_params_default(&p);
  assert_int_equal(vxc_params_prepare(&p, NULL), VXC_OK);
  double st[VXC_STATE_SIZE] = {0}, lam[5] = {0}, v5[5] = {0};
  vxc_bristle_row rows[VXC_BRISTLE_ROWS];
  REFUSES(VXC_ERR_ARG, "rows", vxc_bristle_rows(&p, st, 1, ez, 1e-3, NULL, &err));
  REFUSES(VXC_ERR_ARG, "h = -1", vxc_bristle_rows(&p, st, 1, ez, -1, rows, &err));
  REFUSES(VXC_ERR_ARG, "f_n", vxc_bristle_rows(&p, st, -1, ez, 1e-3, rows, &err));
  REFUSES(VXC_ERR_ARG, "normal",
          vxc_bristle_rows(&p, st, 1, (double[3]){0, 0, 2}, 1e-3, rows, &err));
  assert_int_equal(vxc_bristle_rows(&p, st, 1, ez, 1e-3, rows, NULL), VXC_OK);
  lam[3] = NAN;
  REFUSES(VXC_ERR_NUMERIC, "lambda[3]", vxc_bristle_commit(&p, rows, lam, v5, 1e-3, st, &err));
  REFUSES(VXC_ERR_ARG, "state", vxc_bristle_commit(&p, rows, lam, v5, 1e-3, NULL, &err));

  vxc_friction_params fp;
  vxc_friction_params_default(&fp);
  double f[3], z[VXC_FRICTION_STATE_MAX] = {0};
  REFUSES(VXC_ERR_ARG, "lugre",
          vxc_friction_static(VXC_LAW_LUGRE, &fp, ex, 1, NULL, f, NULL, &err));
  REFUSES(VXC_ERR_ARG, "f_n",
          vxc_friction_static(VXC_LAW_COULOMB, &fp, ex, -1, NULL, f, NULL, &err));
  REFUSES(VXC_ERR_NUMERIC, "f_stick[1]",
          vxc_friction_static(VXC_LAW_COULOMB, &fp, ex, 1, (double[3]){0, NAN, 0}, f, NULL, &err));
  REFUSES(VXC_ERR_ARG, "coulomb", vxc_friction_init(VXC_LAW_COULOMB, z, &err));
  REFUSES(VXC_ERR_ARG, "state", vxc_friction_init(VXC_LAW_LUGRE, NULL, &err));
  REFUSES(VXC_ERR_ARG, "law 99", vxc_friction_init((vxc_friction_law)99, z, &err));
  REFUSES(VXC_ERR_NUMERIC, "v[0]",
          vxc_friction_eval(VXC_LAW_LUGRE, &fp, (double[3]){INFINITY, 0, 0}, 1, z, f, NULL, &err));
  REFUSES(VXC_ERR_ARG, "f", vxc_friction_eval(VXC_LAW_LUGRE, &fp, ex, 1, z, NULL, NULL, &err));
  REFUSES(VXC_ERR_ARG, "f_n", vxc_friction_project(VXC_LAW_LUGRE, &fp, ex, NAN, z, &err));
  REFUSES(VXC_ERR_ARG, "n_new",
          vxc_friction_reframe(VXC_LAW_LUGRE, z, ez, (double[3]){0, 0, 3}, &err));
  assert_int_equal(vxc_friction_reframe(VXC_LAW_LUGRE, z, ez, (double[3]){0, 0, 3}, NULL),
                   VXC_ERR_ARG);
}


// the normal's solvers name the bad input and the option out of range
static void test_errors_normal(void **state) {
  (void)state;
  double J[9] = {1, 0, 0, 0, 2, 0, 0, 0, 3}, ev[3], evec[9], n[3];
  vxc_normal_options o;
  vxc_normal_options_default(&o);
  vxc_normal_result r;
  REFUSES(VXC_ERR_ARG, "n_geo", vxc_normal_solve(J, zero3, &o, &r, &err));
  o.r_n = 1;
  REFUSES(VXC_ERR_ARG, "r_n", vxc_normal_solve(J, ez, &o, &r, &err));
  REFUSES(VXC_ERR_ARG, "n_i",
          vxc_normal_from_inertia(J, ez, NULL, 0.01, 0.5, 0, 0, n, NULL, NULL, &err));
  REFUSES(VXC_ERR_ARG, "n_out",
          vxc_normal_from_inertia(J, ez, NULL, 0.01, 0.5, 5, 0, NULL, NULL, NULL, &err));
  J[4] = NAN;
  REFUSES(VXC_ERR_NUMERIC, "a[4]", vxc_sym3_eigen(J, ev, evec, &err));
  assert_int_equal(vxc_sym3_eigen(J, ev, evec, NULL), VXC_ERR_NUMERIC);
}


// a solid's cells, primitives and box, a query's region and a tracker name the bad index
// or argument
static void test_errors_solid_query_tracker(void **state) {
  (void)state;
  vxc_solid *s = NULL;
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &s, NULL), VXC_OK);
  vxc_cell_info ci;
  vxc_prim_info pi;
  double box[6];
  REFUSES(VXC_ERR_ARG, "cell 3", vxc_solid_cell(s, 3, &ci, &err));
  REFUSES(VXC_ERR_ARG, "primitive 2", vxc_solid_prim(s, 0, 2, &pi, &err));
  REFUSES(VXC_ERR_ARG, "out", vxc_solid_prim(s, 0, 0, NULL, &err));
  vxc_pose bad = {{0, 0, 0}, {0, 0, 0, 0}};
  REFUSES(VXC_ERR_ARG, "quaternion", vxc_solid_aabb(s, &bad, box, &err));
  REFUSES(VXC_ERR_ARG, "aabb", vxc_solid_aabb(s, NULL, NULL, &err));
  vxc_solid_free(s);

  vxc_query *q = NULL;
  REFUSES(VXC_ERR_ARG, "out", vxc_query_create(NULL, NULL, &err));
  assert_int_equal(vxc_query_create(NULL, &q, &err), VXC_OK);
  size_t nbox;
  REFUSES(VXC_ERR_ARG, "boxes", vxc_query_region(q, NULL, &nbox, &err));
  vxc_query_free(q);

  vxc_tracker *t = NULL;
  REFUSES(VXC_ERR_ARG, "capacity 0", vxc_tracker_create(0, NULL, &t, &err));
  assert_int_equal(vxc_tracker_create(1, NULL, &t, NULL), VXC_OK);
  vxc_tracker_step step;
  vxc_cell_pair two[2] = {{0, 0}, {0, 0}}, out;
  REFUSES(VXC_ERR_ARG, "pairs[1] repeats pairs[0]", vxc_tracker_update(t, two, 2, &step, &err));
  two[1].b = 1;
  REFUSES(VXC_ERR_LIMIT, "more than the 1 slots", vxc_tracker_update(t, two, 2, &step, &err));
  vxc_contact_key k = {0, 0, {NAN, 0, 0}};
  REFUSES(VXC_ERR_ARG, "keys[0].centroid", vxc_tracker_update_keys(t, &k, 1, &step, &err));
  int slot_of;
  REFUSES(VXC_ERR_ARG, "nkeys = -1", vxc_tracker_match(t, &k, -1, &slot_of, &err));
  REFUSES(VXC_ERR_ARG, "slot 0 is free", vxc_tracker_slot(t, 0, &out, &err));
  vxc_tracker_free(t);
}


// a pair's contact list and a body's motion name the bad index or input
static void test_errors_pair(void **state) {
  (void)state;
  vxc_solid *a = NULL, *b = NULL;
  assert_int_equal(vxc_solid_load(vxc_test_data("table.vxm"), NULL, &a, NULL), VXC_OK);
  assert_int_equal(vxc_solid_load(vxc_test_data("ball.vxm"), NULL, &b, NULL), VXC_OK);
  vxc_params p;
  vxc_params_default(&p);
  vxc_pair *pr = NULL;
  assert_int_equal(vxc_pair_create(a, b, &p, NULL, 4, NULL, &pr, NULL), VXC_OK);
  vxc_pair_contact c;
  REFUSES(VXC_ERR_ARG, "contact 0", vxc_pair_contact_get(pr, 0, &c, &err));
  vxc_pose pose = {{0, 0, NAN}, {1, 0, 0, 0}};
  vxc_body_motion m;
  REFUSES(VXC_ERR_NUMERIC, "pose->p",
          vxc_body_motion_from_pose(&pose, NULL, NULL, zero3, zero3, &m, &err));
  REFUSES(VXC_ERR_ARG, "v_at", vxc_body_motion_from_pose(&pose, NULL, NULL, NULL, zero3, &m, &err));
  vxc_pair_free(pr);
  vxc_solid_free(a);
  vxc_solid_free(b);
}


// a task's setters and contact getters, and a sweep's case calls, name the bad argument
static void test_errors_task_sweep(void **state) {
  (void)state;
  vxc_task *t = NULL;
  assert_int_equal(vxc_task_load(vxc_test_data("ball-on-table.vxt"), NULL, &t, NULL), VXC_OK);
  REFUSES(VXC_ERR_ARG, "duration", vxc_task_set_duration(t, -1, &err));
  REFUSES(VXC_ERR_ARG, "task", vxc_task_set_closed_form(NULL, 0, &err));
  REFUSES(VXC_ERR_ARG, "max_records", vxc_task_set_limits(t, 10, 0, &err));
  REFUSES(VXC_ERR_ARG, "task", vxc_task_set_poll(NULL, NULL, NULL, &err));
  REFUSES(VXC_ERR_ARG, "task", vxc_task_set_stop(NULL, NULL, &err));
  int ia, ib;
  REFUSES(VXC_ERR_ARG, "contact 5", vxc_task_contact_bodies(t, 5, &ia, &ib, &err));
  REFUSES(VXC_ERR_ARG, "out", vxc_task_contact_query(t, 0, NULL, &err));
  vxc_task_free(t);

  vxc_sweep *sw = NULL;
  assert_int_equal(vxc_sweep_load(vxc_test_data("peg-in-hole.vxs"), NULL, &sw, NULL), VXC_OK);
  long long n = vxc_sweep_case_count(sw);
  double v[256], outs[64];
  char *text = NULL;
  size_t len;
  vxc_sweep_result res;
  REFUSES(VXC_ERR_ARG, "is not in 0 ..", vxc_sweep_case_values(sw, n, v, &err));
  REFUSES(VXC_ERR_ARG, "len", vxc_sweep_case_text(sw, 0, &text, NULL, &err));
  REFUSES(VXC_ERR_ARG, "text", vxc_sweep_case_text(sw, 0, NULL, &len, &err));
  assert_null(text);
  REFUSES(VXC_ERR_ARG, "case -1", vxc_sweep_run_case(sw, -1, 0, 0, outs, &res, &err));
  REFUSES(VXC_ERR_ARG, "res", vxc_sweep_run_case(sw, 0, 0, 0, outs, NULL, &err));
  vxc_sweep_free(sw);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_errors_friction),
      cmocka_unit_test(test_errors_normal),
      cmocka_unit_test(test_errors_solid_query_tracker),
      cmocka_unit_test(test_errors_pair),
      cmocka_unit_test(test_errors_task_sweep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
