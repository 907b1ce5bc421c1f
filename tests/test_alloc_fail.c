/* test_alloc_fail.c: allocation failure injected at every allocation of every public
 * function that allocates. Each scenario runs with an allocator that grants the first n
 * requests and refuses all later ones, for n = 0, 1, 2, ... until the scenario succeeds;
 * every run before that must fail with VXC_ERR_NOMEM (the error record agreeing, with a
 * message), and after the scenario's frees no block may be live; a run that succeeds must
 * have had no allocation refused. The scenarios' other
 * inputs (solids given to a query, say) come from the C library's allocator, so each
 * failure is in the function under test. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#include "tests/counting_alloc.h"


/* Records a scenario's own failure (a result it did not expect), as the library would. */
static void set_error(vxc_error *err, vxc_status st, const char *what) {
  err->status = st;
  snprintf(err->message, sizeof err->message, "%s: %s", what, vxc_status_str(st));
}


/* A scenario: calls the functions under test with `al`, frees what they made, returns the
 * first failing status (VXC_OK when all succeeded). */
typedef vxc_status (*scenario)(const vxc_allocator *al, vxc_error *err);

/* Runs `run` with budgets 0, 1, 2, ... and checks every failure; returns the number of
 * allocations the successful run made. */
static long inject_every_failure_named(scenario run, const char *name) {
  for (long n = 0; n < 1000000; n++) {
    counter b = {0, 0, n}; /* grants allocations 0 .. n - 1 */
    vxc_allocator al = {counting_realloc, &b};
    vxc_error err;
    memset(&err, 0, sizeof err);
    vxc_status st = run(&al, &err);
    if (b.live != 0) {
      fprintf(stderr, "# budget %ld: %ld blocks leaked (status %s)\n", n, b.live,
              vxc_status_str(st));
      fail();
    }
    if (st == VXC_OK) {
      assert_true(b.calls <= n); /* no allocation was refused on the way */
      printf("# %s: %ld allocations, each refused in turn\n", name, b.calls);
      return b.calls;
    }
    if (st != VXC_ERR_NOMEM || err.status != st || err.message[0] == '\0') {
      fprintf(stderr, "# budget %ld: status %s, recorded %s at %s:%d, message '%s'\n", n,
              vxc_status_str(st), vxc_status_str(err.status), err.file, err.line, err.message);
      fail();
    }
  }
  fail_msg("the scenario never succeeded");
  return 0;
}


#define inject_every_failure(run) inject_every_failure_named(run, #run)


/* ---- solids ------------------------------------------------------------------------- */

static char *read_data(const char *name, size_t *len) {
  FILE *f = fopen(vxc_test_data(name), "rb");
  assert_non_null(f);
  static char buf[1 << 16];
  *len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return buf;
}

static vxc_status parse_worksite(const vxc_allocator *al, vxc_error *err) {
  size_t len;
  const char *text = read_data("worksite.vxm", &len);
  vxc_solid *s = NULL;
  vxc_status st = vxc_solid_parse(text, len, "worksite.vxm", al, &s, err);
  vxc_solid_free(s);
  return st;
}

static vxc_status load_mesh_peg(const vxc_allocator *al, vxc_error *err) {
  vxc_solid *s = NULL;
  vxc_status st = vxc_solid_load(vxc_test_data("mesh-peg.vxm"), al, &s, err);
  vxc_solid_free(s);
  return st;
}

// vxc_solid_parse and vxc_solid_load (a mesh model) fail cleanly at every allocation
static void test_alloc_solids(void **state) {
  (void)state;
  assert_true(inject_every_failure(parse_worksite) > 10);
  assert_true(inject_every_failure(load_mesh_peg) > 5);
}


/* ---- queries ------------------------------------------------------------------------ */

static vxc_solid *solid(const char *name) {
  vxc_solid *s = NULL;
  assert_int_equal(vxc_solid_load(vxc_test_data(name), NULL, &s, NULL), VXC_OK);
  return s;
}

typedef struct pair_case {
  const char *a, *b;
  vxc_pose pose_a;
  int octree; /* 1: the closed forms off (vxc_query_options.closed_form) */
} pair_case;

static const pair_case pairs[] = {
    {"ball.vxm", "table.vxm", {{0, 0, 0.049}, {1, 0, 0, 0}}, 1},           /* quadrics */
    {"ball.vxm", "table.vxm", {{0, 0, 0.049}, {1, 0, 0, 0}}, 0},           /* a closed form */
    {"mesh-icosphere.vxm", "table.vxm", {{0, 0, 0.045}, {1, 0, 0, 0}}, 0}, /* a mesh */
};
#define NPAIRS (int)(sizeof pairs / sizeof *pairs)
static int pair_index;
static vxc_solid *pair_a, *pair_b;
static int pair_cells[2]; /* a cell pair in contact, for vxc_query_pair */

/* Finds a cell pair of the current case in contact. */
static void find_contact_cells(void) {
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_metrics m;
  assert_int_equal(
      vxc_query_run(q, pair_a, &pairs[pair_index].pose_a, pair_b, NULL, NULL, NULL, NULL, &m, NULL),
      VXC_OK);
  pair_cells[0] = m.pair[0].cell_a;
  pair_cells[1] = m.pair[0].cell_b;
  vxc_query_free(q);
}

/* Creates a query with `al`, runs `fn` on it and frees it. */
static vxc_status with_query(const vxc_allocator *al, vxc_error *err,
                             vxc_status (*fn)(vxc_query *q, const vxc_query_options *o,
                                              vxc_error *err)) {
  vxc_query *q = NULL;
  vxc_status st = vxc_query_create(al, &q, err);
  if (st != VXC_OK) {
    return st;
  }
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.closed_form = !pairs[pair_index].octree;
  st = fn(q, &o, err);
  vxc_query_free(q);
  return st;
}

static vxc_status run_metrics(vxc_query *q, const vxc_query_options *o, vxc_error *err) {
  vxc_metrics m;
  vxc_status st =
      vxc_query_run(q, pair_a, &pairs[pair_index].pose_a, pair_b, NULL, o, NULL, NULL, &m, err);
  if (st == VXC_OK && !m.contact) {
    set_error(err, VXC_ERR_GEOMETRY, "vxc_query_run: no contact"); /* they overlap */
    st = VXC_ERR_GEOMETRY;
  }
  return st;
}

static vxc_status run_pair(vxc_query *q, const vxc_query_options *o, vxc_error *err) {
  vxc_pair_metrics m;
  vxc_status st = vxc_query_pair(q, pair_a, pair_cells[0], &pairs[pair_index].pose_a, pair_b,
                                 pair_cells[1], NULL, o, 0, &m, err);
  if (st == VXC_NO_CONTACT) {
    set_error(err, VXC_ERR_GEOMETRY, "vxc_query_pair: no contact"); /* they overlap */
    st = VXC_ERR_GEOMETRY;
  }
  return st;
}

static vxc_status run_mass(vxc_query *q, const vxc_query_options *o, vxc_error *err) {
  vxc_mass_props mp;
  return vxc_solid_mass(q, pair_a, -1, 0, o, &mp, err);
}

static vxc_status query_run(const vxc_allocator *al, vxc_error *err) {
  return with_query(al, err, run_metrics);
}

static vxc_status query_pair(const vxc_allocator *al, vxc_error *err) {
  return with_query(al, err, run_pair);
}

static vxc_status solid_mass(const vxc_allocator *al, vxc_error *err) {
  return with_query(al, err, run_mass);
}


// vxc_query_create, vxc_query_run, vxc_query_pair and vxc_solid_mass fail cleanly at every
// allocation, on quadric cells and on meshes
static void test_alloc_queries(void **state) {
  (void)state;
  for (pair_index = 0; pair_index < NPAIRS; pair_index++) {
    pair_a = solid(pairs[pair_index].a);
    pair_b = solid(pairs[pair_index].b);
    find_contact_cells();
    assert_true(inject_every_failure(query_run) > 1);
    assert_true(inject_every_failure(query_pair) > 1);
    assert_true(inject_every_failure(solid_mass) > 1);
    vxc_solid_free(pair_a);
    vxc_solid_free(pair_b);
  }
}


/* ---- tracker ------------------------------------------------------------------------ */

static vxc_status tracker(const vxc_allocator *al, vxc_error *err) {
  vxc_tracker *t = NULL;
  vxc_status st = vxc_tracker_create(16, al, &t, err);
  if (st != VXC_OK) {
    return st;
  }
  vxc_cell_pair p[2] = {{0, 1}, {2, 3}};
  vxc_tracker_step step;
  st = vxc_tracker_update(t, p, 2, &step, err);
  if (st == VXC_OK && step.nnew != 2) {
    st = VXC_ERR_ARG;
  }
  vxc_tracker_free(t);
  return st;
}

// vxc_tracker_create fails cleanly at every allocation
static void test_alloc_tracker(void **state) {
  (void)state;
  assert_true(inject_every_failure(tracker) >= 1);
}


/* ---- tasks -------------------------------------------------------------------------- */

static const char *task_name;

static vxc_status task_load(const vxc_allocator *al, vxc_error *err) {
  vxc_task *t = NULL;
  vxc_status st = vxc_task_load(vxc_test_data(task_name), al, &t, err);
  vxc_task_free(t);
  return st;
}

static vxc_status task_parse(const vxc_allocator *al, vxc_error *err) {
  size_t len;
  const char *text = read_data(task_name, &len);
  const char *dir = getenv("VXC_DATADIR");
  vxc_task *t = NULL;
  vxc_status st = vxc_task_parse(text, len, task_name, dir ? dir : "../data", al, &t, err);
  vxc_task_free(t);
  return st;
}

static vxc_status task_run(const vxc_allocator *al, vxc_error *err) {
  vxc_task *t = NULL;
  vxc_status st = vxc_task_load(vxc_test_data(task_name), al, &t, err);
  if (st == VXC_OK) {
    vxc_task_set_duration(t, 0.2, NULL); /* past the ball's first contact */
    vxc_task_summary s;
    st = vxc_task_run(t, NULL, NULL, NULL, &s, err);
    if (st == VXC_OK && s.contact[0].first < 0) {
      st = VXC_ERR_GEOMETRY; /* the scenario must reach the contact */
    }
  }
  vxc_task_free(t);
  return st;
}

// vxc_task_load and vxc_task_parse fail cleanly at every allocation of the bundled tasks
// (battery-box.vxt's 8th allocation once crashed in the contact parser)
static void test_alloc_task_readers(void **state) {
  (void)state;
  const char *tasks[] = {"battery-box.vxt", "peg-in-hole.vxt", "ball-on-table.vxt"};
  for (int i = 0; i < 3; i++) {
    task_name = tasks[i];
    assert_true(inject_every_failure(task_load) > 8);
    assert_true(inject_every_failure(task_parse) > 8);
  }
}

// vxc_task_run fails cleanly at every allocation of a run through the ball's first contact
static void test_alloc_task_run(void **state) {
  (void)state;
  task_name = "ball-on-table.vxt";
  assert_true(inject_every_failure(task_run) > inject_every_failure(task_load));
}


/* ---- sweeps ------------------------------------------------------------------------- */

static char sweep_dir[64], sweep_path[4096], touch_path[4096];

/* Writes `text` into the file dir/name; path receives its name. */
static void write_file(const char *name, const char *text, char *path, size_t size) {
  snprintf(path, size, "%s/%s", sweep_dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* Writes two small sweeps of a ball dropped on the table and their task into a new temporary
 * folder: sweep_path names drop.vxs (three heights, apart for the whole run), touch_path
 * touch.vxs (two heights from which the ball reaches the table within the run). */
static void write_sweeps(void) {
  snprintf(sweep_dir, sizeof sweep_dir, "/tmp/vxc-alloc-XXXXXX");
  assert_non_null(mkdtemp(sweep_dir));
  char task[12000], path[4200], ball[4096], table[4096];
  snprintf(ball, sizeof ball, "%s", vxc_test_data("ball.vxm"));
  snprintf(table, sizeof table, "%s", vxc_test_data("table.vxm"));
  snprintf(task, sizeof task,
           "(task drop (gravity 0 0 -9.81) (duration 0.01)\n"
           "  (body table (model \"%s\") (fixed) (pose 0 0 0))\n"
           "  (body ball (model \"%s\") (free (mass 2) (inertia 0.008 0.008 0.008)\n"
           "    (com 0 0 0)) (pose 0 0 0.2))\n"
           "  (contact table ball (params (k_v 1e7))))\n",
           table, ball);
  write_file("drop.vxt", task, path, sizeof path);
  write_file("drop.vxs",
             "(sweep heights (task \"drop.vxt\") (vary (body ball pose z 0.11 0.2 3))\n"
             "  (outputs peak_fn first_contact))\n",
             sweep_path, sizeof sweep_path);
  /* the ball's bottom 0.5 mm and 1 mm above the table: it lands after about 0.01 s */
  write_file("touch.vxs",
             "(sweep touch (task \"drop.vxt\") (vary (body ball pose z (0.1005 0.101)))\n"
             "  (set (duration 0.02)) (outputs peak_fn first_contact))\n",
             touch_path, sizeof touch_path);
}

static void remove_sweeps(void) {
  char path[4200];
  const char *names[] = {"drop.vxt", "drop.vxs", "touch.vxs"};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", sweep_dir, names[i]);
    remove(path);
  }
  remove(sweep_dir); /* the folder, empty now */
}

/* st, the status of reading drop.vxs into sw (by `what`), unless it read other than 3 cases;
 * frees sw. */
static vxc_status three_cases(vxc_status st, vxc_sweep *sw, const char *what, vxc_error *err) {
  if (st == VXC_OK && vxc_sweep_case_count(sw) != 3) {
    set_error(err, VXC_ERR_GEOMETRY, what);
    st = VXC_ERR_GEOMETRY;
  }
  vxc_sweep_free(sw);
  return st;
}

static vxc_status sweep_load(const vxc_allocator *al, vxc_error *err) {
  vxc_sweep *sw = NULL;
  vxc_status st = vxc_sweep_load(sweep_path, al, &sw, err);
  return three_cases(st, sw, "vxc_sweep_load: not 3 cases", err);
}

static vxc_status sweep_parse(const vxc_allocator *al, vxc_error *err) {
  char text[1024];
  FILE *f = fopen(sweep_path, "rb");
  assert_non_null(f);
  size_t len = fread(text, 1, sizeof text, f);
  fclose(f);
  vxc_sweep *sw = NULL;
  vxc_status st = vxc_sweep_parse(text, len, "drop.vxs", sweep_dir, al, &sw, err);
  return three_cases(st, sw, "vxc_sweep_parse: not 3 cases", err);
}

/* Case 1's task text: the file's with the middle height, 0.155, written in its place. */
static vxc_status sweep_case_text(const vxc_allocator *al, vxc_error *err) {
  vxc_sweep *sw = NULL;
  char *text = NULL;
  size_t len = 0;
  vxc_status st = vxc_sweep_load(sweep_path, al, &sw, err);
  if (st == VXC_OK) {
    st = vxc_sweep_case_text(sw, 1, &text, &len, err);
  }
  if (st == VXC_OK && (strlen(text) != len || !strstr(text, "(pose 0 0 0.155"))) {
    set_error(err, VXC_ERR_GEOMETRY, "vxc_sweep_case_text: not case 1's text");
    st = VXC_ERR_GEOMETRY;
  }
  vxc_sweep_text_free(sw, text);
  vxc_sweep_free(sw);
  return st;
}

/* Case 0 of touch.vxs run: completed, with a first contact. */
static vxc_status sweep_run_case(const vxc_allocator *al, vxc_error *err) {
  vxc_sweep *sw = NULL;
  vxc_status st = vxc_sweep_load(touch_path, al, &sw, err);
  double out[2] = {0, 0};
  vxc_sweep_result res;
  if (st == VXC_OK) {
    st = vxc_sweep_run_case(sw, 0, 0, 0, out, &res, err);
  }
  if (st == VXC_OK && (res.status != VXC_SWEEP_COMPLETED || !(out[1] > 0) || !(out[0] > 0))) {
    set_error(err, VXC_ERR_GEOMETRY, "vxc_sweep_run_case: the ball did not land");
    st = VXC_ERR_GEOMETRY;
  }
  vxc_sweep_free(sw);
  return st;
}

// vxc_sweep_load, vxc_sweep_parse, vxc_sweep_case_text and vxc_sweep_run_case (a ball
// reaching the table) fail cleanly at every allocation, all of them through the sweep's
// allocator
static void test_alloc_sweeps(void **state) {
  (void)state;
  write_sweeps();
  long load = inject_every_failure(sweep_load);
  assert_true(load > 10);
  assert_true(inject_every_failure(sweep_parse) > 10);
  long text = inject_every_failure(sweep_case_text);
  assert_true(text >= load + 2);                            /* the case's numbers and its text */
  assert_true(inject_every_failure(sweep_run_case) > text); /* and the task read and run */
  remove_sweeps();
}


/* ---- a contact pair (vxc_pair.h) ---------------------------------------------------- */

static vxc_status pair_scenario(const vxc_allocator *al, vxc_error *err) {
  vxc_pair *pr = NULL;
  vxc_params p;
  vxc_params_default(&p);
  vxc_status st = vxc_pair_create(pair_b, pair_a, &p, NULL, 4, al, &pr, err);
  if (st != VXC_OK) {
    return st;
  }
  vxc_pose pt = vxc_pose_identity();
  static const double zero[3] = {0, 0, 0};
  vxc_body_motion mt, mb;
  vxc_body_motion_from_pose(&pt, NULL, NULL, zero, zero, &mt, NULL);
  vxc_body_motion_from_pose(&pairs[0].pose_a, NULL, NULL, zero, zero, &mb, NULL);
  vxc_pair_wrench w;
  st = vxc_pair_step(pr, &pt, &mt, &pairs[0].pose_a, &mb, 1e-4, &w, err);
  if (st == VXC_OK && w.npairs != 1) {
    set_error(err, VXC_ERR_GEOMETRY, "vxc_pair_step: no contact"); /* they overlap */
    st = VXC_ERR_GEOMETRY;
  }
  vxc_pair_free(pr);
  return st;
}

// vxc_pair_create and vxc_pair_step fail cleanly at every allocation (the ball on the table)
static void test_alloc_pair(void **state) {
  (void)state;
  pair_a = solid(pairs[0].a);
  pair_b = solid(pairs[0].b);
  assert_true(inject_every_failure(pair_scenario) > 5);
  vxc_solid_free(pair_a);
  vxc_solid_free(pair_b);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alloc_solids),   cmocka_unit_test(test_alloc_queries),
      cmocka_unit_test(test_alloc_tracker),  cmocka_unit_test(test_alloc_task_readers),
      cmocka_unit_test(test_alloc_task_run), cmocka_unit_test(test_alloc_sweeps),
      cmocka_unit_test(test_alloc_pair),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
