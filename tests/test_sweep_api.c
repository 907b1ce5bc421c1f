/* test_sweep_api.c: the sweep API (vxc_sweep.h) through the public header: grid values
 * and their order, seeded random and Latin-hypercube draws (inside their ranges,
 * reproducible, list values drawn from the list), the case text (fixed and varied numbers
 * written in, forms the file lacks added) read back by the task reader, a driven body's
 * depth and inserted against its keyframes, and errors with line and column. */
#include "tests/vxc_test.h"

#include <unistd.h>

#include "lib/vxc.h"

static char dir[64];
static char data[4096];


static vxc_sweep *load(const char *name, const char *text, vxc_status want, vxc_error *err) {
  vxc_test_write(dir, name, text);
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  vxc_sweep *s = NULL;
  vxc_status st = vxc_sweep_load(path, NULL, &s, err);
  if (st != want) {
    fprintf(stderr, "# %s: status %d, wanted %d: %s\n", name, st, want, err->message);
  }
  assert_int_equal(st, want);
  return s;
}


static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/vxc-sweep-XXXXXX");
  assert_non_null(mkdtemp(dir));
  const char *d = getenv("VXC_DATADIR");
  snprintf(data, sizeof data, "%s", d ? d : "../data");
  char task[16384]; /* the text below and data twice */
  /* a ball driven down 0.5 m in 1 s by keyframes; a free table (no gravity) */
  snprintf(task, sizeof task,
           "(task t (gravity 0 0 0) (duration 1) (record (every 0.01))\n"
           "  (body table (model \"%s/table.vxm\") (free (mass 10) (inertia 1 1 1)) (pose 0 0 0))\n"
           "  (body ball (model \"%s/ball.vxm\")\n"
           "    (driven (keyframe 0 0 0 1) (keyframe 1 0 0 0.5))\n"
           "    (pose 0 0 1))\n"
           "  (contact table ball (params (mu_c 0.05)) (voxel 1e-3)))\n",
           data, data);
  vxc_test_write(dir, "t.vxt", task);
  return 0;
}


static int teardown(void **state) {
  (void)state;
  return vxc_test_rmtree(dir);
}


static void test_grid(void **state) {
  (void)state;
  vxc_error err;
  vxc_sweep *s =
      load("g.vxs",
           "(sweep g (task \"t.vxt\")\n"
           "  (vary (body ball pose x 0.1 0.3 3) (contact table ball mu_c (0.01 0.02)))\n"
           "  (outputs depth))\n",
           VXC_OK, &err);
  assert_int_equal(vxc_sweep_case_count(s), 6);
  assert_int_equal(vxc_sweep_axis_count(s), 2);
  assert_string_equal(vxc_sweep_axis_name(s, 0), "ball.pose.x");
  assert_string_equal(vxc_sweep_axis_name(s, 1), "table~ball.mu_c");
  double v[2];
  assert_int_equal(vxc_sweep_case_values(s, 0, v, NULL), VXC_OK);
  assert_true(v[0] == 0.1 && v[1] == 0.01);
  assert_int_equal(vxc_sweep_case_values(s, 1, v, NULL), VXC_OK);
  assert_true(v[0] == 0.1 && v[1] == 0.02); /* the last axis fastest */
  assert_int_equal(vxc_sweep_case_values(s, 5, v, NULL), VXC_OK);
  assert_true(v[0] == 0.3 && v[1] == 0.02); /* the range's end exactly */
  assert_int_equal(vxc_sweep_case_values(s, 6, v, NULL), VXC_ERR_ARG);
  vxc_sweep_free(s);
}


static void test_random_and_latin(void **state) {
  (void)state;
  vxc_error err;
  const char *f =
      "(sweep r (task \"t.vxt\")\n"
      "  (vary (body ball pose x -2 3 1) (contact table ball mu_c (0.01 0.02 0.03)))\n"
      "  (mode (%s 400 %d))\n"
      "  (outputs depth))\n";
  char text[512];
  double mean = 0, v[2], w[2];
  int seen[3] = {0, 0, 0};
  snprintf(text, sizeof text, f, "random", 7);
  vxc_sweep *a = load("r1.vxs", text, VXC_OK, &err);
  vxc_sweep *b = load("r2.vxs", text, VXC_OK, &err);
  snprintf(text, sizeof text, f, "random", 8);
  vxc_sweep *c = load("r3.vxs", text, VXC_OK, &err);
  assert_int_equal(vxc_sweep_case_count(a), 400);
  int differ = 0;
  for (long long i = 0; i < 400; i++) {
    vxc_sweep_case_values(a, i, v, NULL);
    vxc_sweep_case_values(b, i, w, NULL);
    assert_true(v[0] == w[0] && v[1] == w[1]); /* the same seed, the same cases */
    vxc_sweep_case_values(c, i, w, NULL);
    differ += v[0] != w[0];
    assert_true(v[0] >= -2 && v[0] < 3);
    int k = v[1] == 0.01 ? 0 : v[1] == 0.02 ? 1 : v[1] == 0.03 ? 2 : -1;
    assert_true(k >= 0); /* list values are drawn from the list */
    seen[k]++;
    mean += v[0] / 400;
  }
  assert_true(differ > 390);
  assert_double_near(mean, 0.5, 0.3); /* uniform on [-2, 3]: 0.5 +- 3 sigma (0.22) */
  for (int k = 0; k < 3; k++) {
    assert_true(seen[k] > 90 && seen[k] < 180);
  }
  vxc_sweep_free(a);
  vxc_sweep_free(b);
  vxc_sweep_free(c);
  /* latin: exactly one case in each 400th of the range */
  snprintf(text, sizeof text, f, "latin", 7);
  vxc_sweep *l = load("l.vxs", text, VXC_OK, &err);
  char hit[400] = {0};
  for (long long i = 0; i < 400; i++) {
    vxc_sweep_case_values(l, i, v, NULL);
    int k = (int)floor((v[0] + 2) / 5 * 400);
    assert_true(k >= 0 && k < 400 && !hit[k]);
    hit[k] = 1;
  }
  vxc_sweep_free(l);
}


static void test_case_text(void **state) {
  (void)state;
  vxc_error err;
  vxc_sweep *s = load("c.vxs",
                      "(sweep c (task \"t.vxt\")\n"
                      "  (vary (body ball velocity vz (2)) (contact table ball mu_s (0.3)))\n"
                      "  (set (duration 0.25) (gravity y 1.5) (body ball keyframe 2 z 0.25))\n"
                      "  (outputs depth))\n",
                      VXC_OK, &err);
  char *text = NULL;
  size_t len = 0;
  assert_int_equal(vxc_sweep_case_text(s, 0, &text, &len, NULL), VXC_OK);
  assert_non_null(strstr(text, "(duration 0.25)"));
  assert_non_null(strstr(text, "(gravity 0 1.5 0)"));
  assert_non_null(strstr(text, "(keyframe 1 0 0 0.25)"));
  assert_non_null(strstr(text, "(body ball (velocity 0 0 2 0 0 0) (model"));
  assert_non_null(strstr(text, "(params (mu_s 0.29999999999999999) (mu_c 0.05))"));
  /* lines are kept: the task reader's messages still point into the task file */
  int lines = 0;
  for (size_t i = 0; i < len; i++) {
    lines += text[i] == '\n';
  }
  assert_int_equal(lines, 6);
  vxc_task *t = NULL;
  char base[128];
  snprintf(base, sizeof base, "%s", dir);
  assert_int_equal(vxc_task_parse(text, len, "t.vxt", base, NULL, &t, &err), VXC_OK);
  assert_double_near(vxc_task_duration(t), 0.25, 0);
  vxc_task_free(t);
  vxc_sweep_text_free(s, text);
  vxc_sweep_free(s);
}


static void test_depth_inserted(void **state) {
  (void)state;
  vxc_error err;
  vxc_sweep *s = load("d.vxs",
                      "(sweep d (task \"t.vxt\")\n"
                      "  (vary (duration (0.5 1 2)))\n"
                      "  (set (body table pose z -1))\n"
                      "  (outputs depth (inserted 1e-6) t_end peak_fn))\n",
                      VXC_OK, &err);
  assert_int_equal(vxc_sweep_output_count(s), 4);
  assert_string_equal(vxc_sweep_output_name(s, 1), "inserted");
  double want[3] = {0.75, 0.5, 0.5}; /* the keyframes' lowest point within the run */
  for (int i = 0; i < 3; i++) {
    double o[4];
    vxc_sweep_result r;
    assert_int_equal(vxc_sweep_run_case(s, i, 0, 0, o, &r, NULL), VXC_OK);
    assert_int_equal(r.status, VXC_SWEEP_COMPLETED);
    assert_double_near(o[0], want[i], 1e-9);
    assert_double_near(o[1], 1, 0);
    assert_double_near(o[2], i == 0 ? 0.5 : i == 1 ? 1 : 2, 1e-12);
    assert_double_near(o[3], 0, 0); /* the table moved 1 m down: no contact */
  }
  vxc_sweep_free(s);
}


static void test_invalid_case(void **state) {
  (void)state;
  vxc_error err;
  vxc_sweep *s = load("i.vxs",
                      "(sweep i (task \"t.vxt\")\n"
                      "  (vary (body ball keyframe 2 t (0.5 -1)))\n"
                      "  (set (duration 0.02))\n"
                      "  (outputs t_end))\n",
                      VXC_OK, &err);
  double o[1];
  vxc_sweep_result r;
  assert_int_equal(vxc_sweep_run_case(s, 0, 0, 0, o, &r, NULL), VXC_OK);
  assert_int_equal(r.status, VXC_SWEEP_COMPLETED);
  assert_int_equal(vxc_sweep_run_case(s, 1, 0, 0, o, &r, NULL), VXC_OK);
  assert_int_equal(r.status, VXC_SWEEP_INVALID); /* keyframe times must increase */
  assert_non_null(strstr(r.err.message, "increase"));
  assert_true(isnan(o[0]));
  assert_string_equal(vxc_sweep_status_name(r.status), "invalid");
  vxc_sweep_free(s);
}


static void test_errors(void **state) {
  (void)state;
  vxc_error err;
  load("e1.vxs",
       "(sweep e (task \"t.vxt\")\n  (vary (body ball keyframe 3 z 0 1 2))\n  (outputs depth))\n",
       VXC_ERR_FORMAT, &err);
  assert_int_equal(err.line, 2);
  assert_int_equal(err.column, 29);
  assert_non_null(strstr(err.message, "from 1 to 2"));
  load("e2.vxs",
       "(sweep e (task \"t.vxt\")\n  (vary (duration 1 2 2) (duration (3)))\n  (outputs depth))\n",
       VXC_ERR_FORMAT, &err);
  assert_int_equal(err.column, 26);
  assert_non_null(strstr(err.message, "varied twice"));
  load("e3.vxs",
       "(sweep e (task \"t.vxt\")\n  (vary (duration 1 2 2))\n  (mode (random 0 1))\n  "
       "(outputs depth))\n",
       VXC_ERR_FORMAT, &err);
  assert_int_equal(err.line, 3);
  assert_int_equal(err.column, 17);
  load("e4.vxs", "(sweep e (task \"nowhere.vxt\")\n  (vary (duration 1 2 2))\n  (outputs depth))\n",
       VXC_ERR_IO, &err);
  assert_int_equal(err.line, 1);
  assert_non_null(strstr(err.message, "nowhere.vxt"));
  load("e5.vxs",
       "(sweep e (task \"t.vxt\")\n  (vary (integrator step 1 2 2))\n  (outputs depth))\n",
       VXC_ERR_FORMAT, &err);
  assert_non_null(strstr(err.message, "no (step ...)"));
}


// a sweep from text: its task relative to the base directory given, or to the current
// directory without one; errors name the text's name with line and column
static void test_parse_text(void **state) {
  (void)state;
  static const char text[] =
      "(sweep p (task \"t.vxt\")\n"
      "  (vary (body ball pose x 0.1 0.3 3) (contact table ball mu_c (0.01 0.02)))\n"
      "  (outputs depth))\n";
  vxc_error err;
  vxc_sweep *s = NULL;
  assert_int_equal(vxc_sweep_parse(text, strlen(text), "p.vxs", dir, NULL, &s, &err), VXC_OK);
  assert_int_equal(vxc_sweep_case_count(s), 6); /* 3 x 2 */
  assert_string_equal(vxc_sweep_axis_name(s, 1), "table~ball.mu_c");
  vxc_sweep_free(s);
  char cwd[4096];
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(dir), 0);
  s = NULL;
  vxc_status st = vxc_sweep_parse(text, strlen(text), NULL, NULL, NULL, &s, &err);
  assert_int_equal(chdir(cwd), 0);
  assert_int_equal(st, VXC_OK);
  vxc_sweep_free(s);
  s = NULL;
  st = vxc_sweep_parse(text, strlen(text), "p.vxs", "/nonexistent", NULL, &s, &err);
  assert_int_equal(st, VXC_ERR_IO);
  assert_null(s);
  static const char bad[] =
      "(sweep p (task \"t.vxt\")\n  (vary (body nobody pose x 0 1 2))\n"
      "  (outputs depth))\n";
  assert_int_equal(vxc_sweep_parse(bad, strlen(bad), NULL, dir, NULL, &s, &err), VXC_ERR_FORMAT);
  assert_true(strstr(err.message, "<sweep>:2:") != NULL);
  assert_int_equal(vxc_sweep_parse(NULL, 0, NULL, dir, NULL, &s, &err), VXC_ERR_ARG);
  assert_int_equal(vxc_sweep_parse(text, strlen(text), NULL, dir, NULL, NULL, &err), VXC_ERR_ARG);
  assert_null(s);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_grid),         cmocka_unit_test(test_random_and_latin),
      cmocka_unit_test(test_case_text),    cmocka_unit_test(test_depth_inserted),
      cmocka_unit_test(test_invalid_case), cmocka_unit_test(test_errors),
      cmocka_unit_test(test_parse_text),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
