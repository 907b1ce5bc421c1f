/* test_task_parse.c: the task-file reader through the public API: good files load with
 * the values written; bad files fail with the status, line and column of the fault. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

static vxc_status parse(const char *text, vxc_task **t, vxc_error *err) {
  return vxc_task_parse(text, strlen(text), "t.vxt", vxc_test_datadir(), NULL, t, err);
}


/* Fails unless `text` is rejected with `status` at line:column and the message holds
 * `what`. */
static void expect_error(const char *text, vxc_status status, int line, int column,
                         const char *what) {
  vxc_task *t = NULL;
  vxc_error err;
  memset(&err, 0, sizeof err);
  vxc_status st = parse(text, &t, &err);
  if (st != status || err.line != line || err.column != column || !strstr(err.message, what)) {
    fprintf(stderr, "# got status %d at %d:%d: %s\n# want %d at %d:%d with '%s'\n", st, err.line,
            err.column, err.message, status, line, column, what);
    fail();
  }
  assert_null(t);
  char prefix[64];
  snprintf(prefix, sizeof prefix, "t.vxt:%d:%d: ", line, column);
  assert_true(strncmp(err.message, prefix, strlen(prefix)) == 0);
}


static void test_good_file(void **state) {
  (void)state;
  const char *text =
      "; a comment\n"
      "(task demo (gravity 0 0 -9.81) (duration 0.5)\n"
      "  (integrator rk4 (step 1e-4)) (record (every 0.01))\n"
      "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
      "  (body ball (model \"ball.vxm\") (free (mass 2) (inertia 0.008 0.008 0.008))\n"
      "    (pose 0 0 0.3 1 0 0 0) (velocity 0 0.3 0 0 0 3))\n"
      "  (body hand (model \"ball.vxm\") (driven (keyframe 0 1 0 0) (keyframe 1 2 0 0))\n"
      "    (pose 1 0 0))\n"
      "  (contact table ball (params (mu_s 0.3) (mu_c 0.2)) (voxel 1e-3)))\n";
  vxc_task *t = NULL;
  vxc_error err;
  assert_int_equal(parse(text, &t, &err), VXC_OK);
  assert_string_equal(vxc_task_name(t), "demo");
  assert_double_near(vxc_task_duration(t), 0.5, 0);
  assert_int_equal(vxc_task_body_count(t), 3);
  assert_string_equal(vxc_task_body_name(t, 1), "ball");
  assert_int_equal(vxc_task_body_is_free(t, 0), 0);
  assert_int_equal(vxc_task_body_is_free(t, 1), 1);
  assert_int_equal(vxc_task_body_is_free(t, 2), 0);
  assert_int_equal(vxc_task_contact_count(t), 1);
  int a = -1, b = -1;
  assert_int_equal(vxc_task_contact_bodies(t, 0, &a, &b, NULL), VXC_OK);
  assert_int_equal(a, 0);
  assert_int_equal(b, 1);
  assert_int_equal(vxc_task_contact_bodies(t, 1, &a, &b, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_task_set_duration(t, -1, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_task_set_duration(t, 2, NULL), VXC_OK);
  assert_double_near(vxc_task_duration(t), 2, 0);
  vxc_task_free(t);
}


static void test_mass_from_model(void **state) {
  (void)state;
  /* ball.vxm has a density giving 2 kg: mass and inertia 2/5 m R^2 from the model */
  const char *text =
      "(task m (duration 0.01) (body ball (model \"ball.vxm\") (free) (pose 0 0 0)))";
  vxc_task *t = NULL;
  vxc_error err;
  assert_int_equal(parse(text, &t, &err), VXC_OK);
  /* a torque-free spin about z keeps w; the run's kinetic energy gives I_zz */
  vxc_task_summary s;
  assert_int_equal(vxc_task_run(t, NULL, NULL, NULL, &s, &err), VXC_OK);
  assert_double_near(s.energy.kinetic, 0, 0);
  vxc_task_free(t);
  text =
      "(task m (duration 0.01) (body ball (model \"ball.vxm\") (free) (pose 0 0 0)\n"
      "  (velocity 1 0 0 0 0 10)))";
  assert_int_equal(parse(text, &t, &err), VXC_OK);
  assert_int_equal(vxc_task_run(t, NULL, NULL, NULL, &s, &err), VXC_OK);
  double m = 2.0, I = 0.4 * m * 0.01;
  assert_double_rel(s.energy.kinetic, 0.5 * m * 1 + 0.5 * I * 100, 2e-3);
  vxc_task_free(t);
}


static void test_errors(void **state) {
  (void)state;
  expect_error("(task x (duration 1)\n  (gravity 0 0))", VXC_ERR_FORMAT, 2, 3,
               "at least 3 numbers");
  expect_error("(task x (duration 1)\n  (wobble 3))", VXC_ERR_FORMAT, 2, 3, "unknown form");
  expect_error("(task x (duration 1)\n  (gravty 0 0 -9.81))", VXC_ERR_FORMAT, 2, 3,
               "unknown form 'gravty'; did you mean 'gravity'?");
  expect_error("(task x (duration 1)\n  (body b (model \"ball.vxm\") (free (mas 1)) (pose 0 0 0)))",
               VXC_ERR_FORMAT, 2, 36, "(free ...): unknown form 'mas'; did you mean 'mass'?");
  expect_error("(task x (duration 1)\n  (integrator adaptive (rtl 1e-6)))", VXC_ERR_FORMAT, 2, 24,
               "did you mean 'rtol'?");
  expect_error("(task x\n  (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 0)))",
               VXC_ERR_FORMAT, 1, 1, "missing (duration T)");
  expect_error(
      "(task x (duration 1)\n  (body b (model \"ball.vxm\") (free (mass -1)) "
      "(pose 0 0 0)))",
      VXC_ERR_FORMAT, 2, 42, "must be > 0");
  expect_error(
      "(task x (duration 1)\n  (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 "
      "0))\n  (contact b c))",
      VXC_ERR_FORMAT, 3, 14, "no body named 'c'");
  expect_error(
      "(task x (duration 1)\n  (body b (model \"nonexistent.vxm\") (fixed) "
      "(pose 0 0 0)))",
      VXC_ERR_IO, 2, 11, "nonexistent.vxm");
  expect_error(
      "(task x (duration 1)\n  (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 "
      "0))\n  (body b (model \"ball.vxm\") (fixed) (pose 0 0 0)))",
      VXC_ERR_FORMAT, 3, 9, "a second body");
  expect_error("(task x (duration 1) (integrator euler (step 1)))", VXC_ERR_FORMAT, 1, 34,
               "rk4 or adaptive");
  expect_error("(task x (duration 1)\n  (integrator adaptive (method rk9)))", VXC_ERR_FORMAT, 2, 32,
               "dp5, bs3, rosw or auto");
  expect_error("(task x (duration 1)\n  (integrator rk4 (step 1) (method bs3)))", VXC_ERR_FORMAT, 2,
               28, "unknown form 'method'");
  expect_error(
      "(task x (duration 1)\n (body b (model \"ball.vxm\") (driven (keyframe 1 0 0 0)\n"
      "   (keyframe 0.5 0 0 0)) (pose 0 0 0)))",
      VXC_ERR_FORMAT, 3, 4, "increase");
  expect_error(
      "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
      " (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 1))\n"
      " (contact a b (params (k_w 3))))",
      VXC_ERR_FORMAT, 4, 23, "k_w");
  expect_error(
      "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
      " (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 1))\n"
      " (contact a b (params (e_eff 3))))",
      VXC_ERR_FORMAT, 4, 2, "e_eff");
  expect_error(
      "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
      " (body b (model \"ball.vxm\") (fixed) (pose 0 0 1))\n (contact a b))",
      VXC_ERR_FORMAT, 4, 2, "both bodies are fixed");
  /* (rolling rate-independent ...): the mode, the names and the values are checked */
  const char *rolling[][2] = {{"(rolling viscous (eta_r 1e-3))", "rate-independent"},
                              {"(rolling rate-independent (eta_x 1e-3))", "(eta_r E)"},
                              {"(rolling rate-independent (eta_r 1e-3 2))", "too many numbers"},
                              {"(rolling rate-independent (eta_s -1e-3))", "eta_s"}};
  const int rolling_col[] = {24, 41, 53, 2};
  for (int k = 0; k < 4; k++) {
    char text[512];
    snprintf(text, sizeof text,
             "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
             " (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 1))\n (contact a b %s))",
             rolling[k][0]);
    expect_error(text, VXC_ERR_FORMAT, 4, rolling_col[k], rolling[k][1]);
  }
  expect_error(
      "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
      " (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 1))\n"
      " (contact a b (patches 1)))",
      VXC_ERR_FORMAT, 4, 15, "(patches on) or (patches off) expected");
  expect_error(
      "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
      " (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 1))\n"
      " (contact a b (closed-form no)))",
      VXC_ERR_FORMAT, 4, 15, "(closed-form on) or (closed-form off)");
  expect_error(
      "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
      " (body b (model \"ball.vxm\") (free (mass 1)) (pose 0 0 1))\n"
      " (contact a b (closed-fom off)))",
      VXC_ERR_FORMAT, 4, 15, "did you mean 'closed-form'");
  expect_error("(task x (duration 1)\n  (body b (model \"ball.vxm\") (free (mass 1))))",
               VXC_ERR_FORMAT, 2, 3, "missing (pose");
  /* syntax errors come from the S-expression reader with their position */
  expect_error("(task x (duration 1)\n  (body b \"unterminated))", VXC_ERR_FORMAT, 2, 11, "");
  expect_error("(task x (duration 1)", VXC_ERR_FORMAT, 1, 1, "");
  expect_error("(model x)", VXC_ERR_FORMAT, 1, 1, "(task NAME");
}


/* A free body's inertia must be some body's: principal moments > 0, each at most the sum
 * of the other two (I_zz = I_xx + I_yy is a flat plate, the limit). (inertia 1 1 5) has
 * a positive diagonal but no body has it; products of 2 with a diagonal of 1 make the
 * principal moments 1 - 2 < 0. */
static void test_inertia_must_be_a_bodys(void **state) {
  (void)state;
  const char *fmt =
      "(task x (duration 1)\n  (body b (model \"ball.vxm\") (free (mass 1)\n"
      "    (inertia %s)) (pose 0 0 0)))";
  const char *bad[] = {"1 1 5", "1 1 2.001", "1 1 1 2 0 0"};
  for (int k = 0; k < 3; k++) {
    char text[256];
    snprintf(text, sizeof text, fmt, bad[k]);
    expect_error(text, VXC_ERR_FORMAT, 3, 5, "no body has this inertia");
  }
  const char *good[] = {"1 1 2", "2 3 4 0.1 0.2 -0.3"};
  for (int k = 0; k < 2; k++) {
    char text[256];
    snprintf(text, sizeof text, fmt, good[k]);
    vxc_task *t = NULL;
    vxc_error err;
    assert_int_equal(parse(text, &t, &err), VXC_OK);
    vxc_task_free(t);
  }
}


static void test_load_file_errors(void **state) {
  (void)state;
  vxc_task *t = NULL;
  vxc_error err;
  assert_int_equal(vxc_task_load("/nonexistent/x.vxt", NULL, &t, &err), VXC_ERR_IO);
  assert_null(t);
  assert_int_equal(vxc_task_load(NULL, NULL, &t, &err), VXC_ERR_ARG);
  assert_int_equal(vxc_task_run(NULL, NULL, NULL, NULL, NULL, &err), VXC_ERR_ARG);
  vxc_task_free(NULL);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_good_file),        cmocka_unit_test(test_mass_from_model),
      cmocka_unit_test(test_errors),           cmocka_unit_test(test_inertia_must_be_a_bodys),
      cmocka_unit_test(test_load_file_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
