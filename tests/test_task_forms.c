/* test_task_forms.c: the table of task-file forms (lib/task_forms.h) against the two
 * programs that read it. Driven from the table: every form with numbers is in the task
 * files below and the task reader accepts them; every number of every such form is named by
 * a sweep path built from the table alone (its forms from (task ...) down, a body's or
 * contact's names, a keyframe's index, the field), and the case's text differs from the
 * task file in that one number: the k-th of a list headed by the form's name, inside its
 * parents' lists. A form added to the reader is a row of the table (the reader dispatches on
 * it), so it fails here until the sweep reaches it and these files hold it. Forms without
 * numbers are refused by the sweep as "not a number". White-box: task_forms.c is compiled
 * in. */
#include "tests/vxc_test.h"

#include <unistd.h>

#include "lib/task_forms.h"
#include "lib/vxc.h"

/* the value written: in no task file below */
#define VALUE 0.0625

static char dir[64];
static char task_text[2][4096];

/* The two task files: between them every form with numbers; a driven body's keyframes and
 * (line ...) exclude each other. %s: the data folder. */
static const char *const TASKS[2] = {
    "(task t (gravity 0 0 -9.81) (duration 1) (record (every 0.01)) (energy-tolerance 0.02)\n"
    "  (integrator adaptive (rtol 1e-6) (atol 1e-9) (max-step 1e-3) (step 1e-4) (method dp5))\n"
    "  (body table (model \"%s/table.vxm\")\n"
    "    (free (mass 10) (density 1000) (inertia 1 1 1 0 0 0) (com 0 0 0.01))\n"
    "    (pose 0 0 0 1 0 0 0) (velocity 0 0 0 0 0 0))\n"
    "  (body ball (model \"%s/ball.vxm\")\n"
    "    (driven (keyframe 0 0 0 1 1 0 0 0) (keyframe 1 0 0 0.5 1 0 0 0) (mass 1)\n"
    "      (gripper (stiffness 100 10) (damping 1 0.5)))\n"
    "    (pose 0 0 1 1 0 0 0))\n"
    "  (contact table ball (params (mu_c 0.05)) (voxel 1e-3) (rtol 1e-3) (atol 1e-12) (slots 4)\n"
    "    (event-force 1e-3) (rolling rate-independent (eta_r 1e-3) (eta_s 2e-3) (phi_0 1e-4))))\n",
    "(task t (duration 1)\n"
    "  (body table (model \"%s/table.vxm\") (free (mass 10)) (pose 0 0 0))\n"
    "  (body ball (model \"%s/ball.vxm\") (driven (line 0 0 -0.1 0 0 0.5) (mass 1))\n"
    "    (pose 0 0 1))\n"
    "  (contact table ball))\n"};


static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/vxc-forms-XXXXXX");
  assert_non_null(mkdtemp(dir));
  for (int i = 0; i < 2; i++) {
    snprintf(task_text[i], sizeof task_text[i], TASKS[i], vxc_test_datadir(),
             vxc_test_datadir());
    char path[128];
    snprintf(path, sizeof path, "%s/t%d.vxt", dir, i);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(task_text[i], f);
    fclose(f);
  }
  return 0;
}


static int teardown(void **state) {
  (void)state;
  return vxc_test_rmtree(dir);
}


/* The form whose sub-forms' place is `place` (the first in the table), -1 at the top. */
static int parent_of(int place) {
  for (int i = 0; i < TF_COUNT; i++) {
    if (vxci_task_forms[i].place == place && place != TP_TASK) {
      return i;
    }
  }
  return -1;
}


/* 1 when form id or one of its parents is only in (driven ...): the ball's. */
static int on_ball(int id) {
  for (; id >= 0; id = parent_of(vxci_task_forms[id].in)) {
    if (vxci_task_forms[id].flags & TFL_DRIVEN) {
      return 1;
    }
  }
  return 0;
}


/* The sweep path of number k of form id, from the table alone; the names of the lists that
 * hold the number, innermost first, into heads (n of them). */
static void path_of(int id, int k, char *out, size_t size, const char **heads, int *n) {
  int chain[16], nc = 0;
  for (int a = id; a >= 0 && nc < 16; a = parent_of(vxci_task_forms[a].in)) {
    chain[nc++] = a;
  }
  out[0] = 0;
  *n = 0;
  for (int c = 0; c < nc; c++) { /* a hidden parent's list is passed over */
    if (c == 0 || !(vxci_task_forms[chain[c]].flags & TFL_HIDDEN)) {
      heads[(*n)++] = vxci_task_forms[chain[c]].name;
    }
  }
  for (int c = nc - 1; c >= 0; c--) {
    const task_form *F = &vxci_task_forms[chain[c]];
    size_t l = strlen(out);
    if (chain[c] == TF_BODY) {
      snprintf(out + l, size - l, "body %s ", on_ball(id) ? "ball" : "table");
    } else if (chain[c] == TF_CONTACT) {
      snprintf(out + l, size - l, "contact table ball ");
    } else if (!(F->flags & TFL_HIDDEN)) {
      snprintf(out + l, size - l, "%s %s", F->name, (F->flags & TFL_MANY) ? "1 " : "");
    }
  }
  const task_form *F = &vxci_task_forms[id];
  size_t l = strlen(out);
  snprintf(out + l, size - l, "%s", F->max > 1 ? F->fields[k] : "");
}


/* The tokens of an S-expression text: "(", ")" and atoms. Returns the count. */
static int tokens(const char *s, char tok[][64], int cap) {
  int n = 0;
  while (*s && n < cap) {
    if (*s == ' ' || *s == '\n') {
      s++;
    } else if (*s == '(' || *s == ')') {
      tok[n][0] = *s++;
      tok[n++][1] = 0;
    } else {
      size_t l = strcspn(s, " \n()");
      snprintf(tok[n++], 64, "%.*s", (int)l, s);
      s += l;
    }
  }
  return n;
}


/* The sweep's case text for path `path` of task file i, or NULL with err filled. */
static char *case_text(int i, const char *path, vxc_error *err) {
  char text[512];
  snprintf(text, sizeof text, "(sweep d (task \"t%d.vxt\") (vary (%s (%.17g))) (outputs t_end))",
           i, path, VALUE);
  vxc_sweep *s = NULL;
  if (vxc_sweep_parse(text, strlen(text), "d.vxs", dir, NULL, &s, err) != VXC_OK) {
    return NULL;
  }
  char *t = NULL;
  size_t len = 0;
  assert_int_equal(vxc_sweep_case_text(s, 0, &t, &len, err), VXC_OK);
  char *out = strdup(t); /* the caller's, with free() */
  vxc_sweep_text_free(s, t);
  vxc_sweep_free(s);
  return out;
}


/* The case text of i differs from task file i in one token, VALUE, number k of a list whose
 * head is heads[0] inside lists headed by heads[1..n-1] (a body's or contact's among them). */
static void check_one_number(int i, const char *text, int k, const char **heads, int n) {
  static char a[2048][64], b[2048][64];
  int na = tokens(task_text[i], a, 2048), nb = tokens(text, b, 2048);
  assert_int_equal(na, nb);
  int d = -1;
  for (int t = 0; t < na; t++) {
    if (strcmp(a[t], b[t]) != 0) {
      assert_int_equal(d, -1); /* one token only */
      d = t;
    }
  }
  assert_true(d > 0);
  char want[32];
  snprintf(want, sizeof want, "%.17g", VALUE);
  assert_string_equal(b[d], want);
  int h = 0, depth = 0, pos = 0;
  for (int t = d - 1; t >= 0 && h < n; t--) {
    depth += !strcmp(b[t], ")") - !strcmp(b[t], "(");
    pos += depth == 0 && h == 0 && strcmp(b[t], "(") != 0;
    if (depth < 0) { /* the opening of a list holding the number: its head */
      depth = 0;
      if (!strcmp(b[t + 1], heads[h])) {
        h++;
      } else {
        /* a hidden form ((free ...), (rolling ...)) or a list without a head */
        assert_true(h > 0);
      }
    }
  }
  assert_int_equal(h, n);
  assert_int_equal(pos - 1, k); /* the head counted */
}


static void test_every_number_named(void **state) {
  (void)state;
  int checked = 0;
  for (int id = 0; id < TF_COUNT; id++) {
    const task_form *F = &vxci_task_forms[id];
    if (F->max == 0) {
      continue;
    }
    char open[64];
    snprintf(open, sizeof open, "(%s ", F->name);
    int i = strstr(task_text[0], open) ? 0 : 1;
    if (!strstr(task_text[i], open)) {
      fprintf(stderr, "# form (%s ...) is in neither task file of this test: add it\n", F->name);
      fail();
    }
    for (int k = 0; k < F->max; k++) {
      char path[256];
      const char *heads[16];
      int n;
      path_of(id, k, path, sizeof path, heads, &n);
      vxc_error err;
      char *text = case_text(i, path, &err);
      if (!text) {
        fprintf(stderr, "# the sweep path (%s ...) fails: %s\n", path, err.message);
        fail();
      }
      check_one_number(i, text, k, heads, n);
      free(text);
      checked++;
    }
  }
  assert_true(checked >= 50);
}


static void test_readers_accept_the_files(void **state) {
  (void)state;
  for (int i = 0; i < 2; i++) {
    vxc_task *t = NULL;
    vxc_error err;
    vxc_status st = vxc_task_parse(task_text[i], strlen(task_text[i]), "t.vxt", dir, NULL, &t,
                                   &err);
    if (st != VXC_OK) {
      fprintf(stderr, "# task file %d: %s\n", i, err.message);
    }
    assert_int_equal(st, VXC_OK);
    vxc_task_free(t);
  }
}


/* Forms without numbers anywhere below them: a path naming one is refused, said so. */
static void test_words_are_not_numbers(void **state) {
  (void)state;
  int checked = 0;
  for (int id = 0; id < TF_COUNT; id++) {
    const task_form *F = &vxci_task_forms[id];
    if (vxci_form_varies(id) || (F->flags & TFL_HIDDEN) || F->in == TP_PARAMS) {
      continue;
    }
    char path[256];
    const char *heads[16];
    int n;
    path_of(id, 0, path, sizeof path, heads, &n);
    vxc_error err;
    char *text = case_text(0, path, &err);
    if (text || !strstr(err.message, "not a number")) {
      fprintf(stderr, "# (%s ...): %s\n", path, text ? "accepted" : err.message);
      fail();
    }
    checked++;
  }
  assert_true(checked >= 7);
}


/* The reader's hint names the forms of the table's place: a typo of each is caught. */
static void test_reader_hints_from_table(void **state) {
  (void)state;
  static const char *const typo[][2] = {{"(duratoin 1)", "duration"},
                                        {"(energy-tolerence 1)", "energy-tolerance"}};
  for (int i = 0; i < 2; i++) {
    char text[4096];
    snprintf(text, sizeof text, "(task t %s (duration 1))", typo[i][0]);
    vxc_task *t = NULL;
    vxc_error err;
    assert_int_equal(vxc_task_parse(text, strlen(text), "t.vxt", dir, NULL, &t, &err),
                     VXC_ERR_FORMAT);
    assert_non_null(strstr(err.message, typo[i][1]));
    assert_int_equal(vxci_form_find(TP_TASK, typo[i][1], 0) >= 0, 1);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_readers_accept_the_files),
      cmocka_unit_test(test_every_number_named),
      cmocka_unit_test(test_words_are_not_numbers),
      cmocka_unit_test(test_reader_hints_from_table),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
