/* test_fuzz_regress.c: replays the fuzzing entry points (tests/fuzz_model.c, fuzz_mesh.c,
 * fuzz_task.c, fuzz_sweep.c, fuzz_cli.c, fuzz_query.c) over every saved fuzz input
 * (tests/fuzz/TARGET/, found through VXC_TESTDIR), every bundled model (the data/ .vxm files,
 * through VXC_DATADIR, with its meshes), every bundled mesh (data/meshes/), every bundled task
 * (data/ .vxt files) and every bundled sweep (data/ .vxs files). Each must end without a crash,
 * with VXC_OK or an error carrying a message (vxc_fuzz_model aborts on a broken invariant, which
 * cmocka reports as a failure); the bundled models must load. */
#include <dirent.h>

#include "tests/vxc_test.h"

#include "geom/geom.h"

vxc_status vxc_fuzz_model(const uint8_t *data, size_t size, vxc_error *err);
vxc_status vxc_fuzz_model_dir(const uint8_t *data, size_t size, const char *dir, vxc_error *err);
vxc_status vxc_fuzz_mesh(const uint8_t *data, size_t size, vxc_error *err);
vxc_status vxc_fuzz_task(const uint8_t *data, size_t size, const char *dir, vxc_error *err);
vxc_status vxc_fuzz_sweep(const uint8_t *data, size_t size, const char *dir, vxc_error *err);
int vxc_fuzz_cli(const uint8_t *data, size_t size);
int vxc_fuzz_query(const uint8_t *data, size_t size);

/* What a replay runs: the model entry point (with `dir` for mesh paths, NULL: none), the
 * mesh readers', the task reader's (models from `dir`), the sweep reader's (its task from
 * `dir`), the command line's or the fast paths' differential one. */
enum { T_MODEL, T_MESH, T_TASK, T_SWEEP, T_CLI, T_QUERY };
typedef struct target {
  int kind;
  const char *dir;
} target;

/* Runs one input through the target's entry point. */
static vxc_status replay_one(const target *tg, const uint8_t *data, size_t size, vxc_error *err) {
  switch (tg->kind) {
    case T_MESH:
      return vxc_fuzz_mesh(data, size, err);
    case T_TASK:
      return vxc_fuzz_task(data, size, tg->dir, err);
    case T_SWEEP:
      return vxc_fuzz_sweep(data, size, tg->dir, err);
    case T_CLI:
      vxc_fuzz_cli(data, size); /* aborts on a broken invariant */
      return VXC_OK;
    case T_QUERY:
      vxc_fuzz_query(data, size); /* aborts on a broken invariant */
      return VXC_OK;
    default:
      return tg->dir ? vxc_fuzz_model_dir(data, size, tg->dir, err)
                     : vxc_fuzz_model(data, size, err);
  }
}

/* Reads a whole file into a malloc'ed buffer. */
static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fail_msg("cannot open %s", path);
  }
  size_t cap = 4096, n = 0, got;
  uint8_t *buf = malloc(cap);
  assert_non_null(buf);
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      cap *= 2;
      buf = realloc(buf, cap);
      assert_non_null(buf);
    }
  }
  fclose(f);
  *len = n;
  return buf;
}


/* Runs every regular file of `dir` whose name ends with `suffix` ("" for all); returns how
 * many, and how many loaded in *nok. */
static int replay_dir(const char *dir, const char *suffix, const target *tg, int *nok) {
  DIR *d = opendir(dir);
  if (!d) {
    fail_msg("cannot open the folder %s", dir);
  }
  int n = 0;
  *nok = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name), ns = strlen(suffix);
    if (e->d_name[0] == '.' || len < ns || strcmp(e->d_name + len - ns, suffix) != 0) {
      continue;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t size;
    uint8_t *data = slurp(path, &size);
    vxc_error err;
    vxc_status st = replay_one(tg, data, size, &err);
    if (st != VXC_OK) {
      assert_true(st < 0);
      assert_int_equal(err.status, st);
      assert_true(strlen(err.message) > 0);
    } else {
      (*nok)++;
    }
    free(data);
    n++;
  }
  closedir(d);
  return n;
}


// every saved fuzz input ends with a status and, for an error, a message
static void test_fuzz_regress_saved_inputs(void **state) {
  (void)state;
  const char *t = getenv("VXC_TESTDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/fuzz/model", t ? t : ".");
  int nok;
  const target tg = {T_MODEL, NULL};
  assert_true(replay_dir(dir, "", &tg, &nok) > 0);
}


// every bundled model goes through the fuzz entry point and loads, meshes included
static void test_fuzz_regress_data_models(void **state) {
  (void)state;
  const char *d = getenv("VXC_DATADIR");
  const target tg = {T_MODEL, d ? d : "../data"};
  int nok, n = replay_dir(d ? d : "../data", ".vxm", &tg, &nok);
  assert_true(n > 0);
  assert_int_equal(nok, n);
}


// every saved mesh fuzz input ends with a status and, for an error, a message
static void test_fuzz_regress_saved_mesh_inputs(void **state) {
  (void)state;
  const char *t = getenv("VXC_TESTDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/fuzz/mesh", t ? t : ".");
  int nok;
  const target tg = {T_MESH, NULL};
  assert_true(replay_dir(dir, "", &tg, &nok) > 0);
}


// every bundled mesh goes through the mesh fuzz entry point and loads
static void test_fuzz_regress_data_meshes(void **state) {
  (void)state;
  const char *d = getenv("VXC_DATADIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/meshes", d ? d : "../data");
  const target tg = {T_MESH, NULL};
  int nok, n = replay_dir(dir, "", &tg, &nok);
  assert_true(n >= 7);
  assert_int_equal(nok, n);
}


/* The data folder (VXC_DATADIR, ../data by default). */
static const char *data_dir(void) {
  const char *d = getenv("VXC_DATADIR");
  return d ? d : "../data";
}


/* Replays tests/fuzz/NAME/ through tg; returns how many inputs there were. */
static int replay_saved(const char *name, const target *tg) {
  const char *t = getenv("VXC_TESTDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/fuzz/%s", t ? t : ".", name);
  int nok;
  return replay_dir(dir, "", tg, &nok);
}


// every saved task fuzz input ends with a status and, for an error, a message, also when
// allocations fail
static void test_fuzz_regress_saved_task_inputs(void **state) {
  (void)state;
  const target tg = {T_TASK, data_dir()};
  assert_true(replay_saved("task", &tg) >= 5);
}


// every bundled task goes through the task fuzz entry point and loads
static void test_fuzz_regress_data_tasks(void **state) {
  (void)state;
  const target tg = {T_TASK, data_dir()};
  int nok, n = replay_dir(data_dir(), ".vxt", &tg, &nok);
  assert_true(n >= 5);
  assert_int_equal(nok, n);
}


// every saved command-line fuzz input keeps the parsers' invariants
static void test_fuzz_regress_saved_cli_inputs(void **state) {
  (void)state;
  const target tg = {T_CLI, NULL};
  assert_true(replay_saved("cli", &tg) >= 5);
}


// every saved sweep fuzz input ends with a status and, for an error, a message, also when
// allocations fail; the three valid seeds (a grid, random and Latin cases) load
static void test_fuzz_regress_saved_sweep_inputs(void **state) {
  (void)state;
  const char *t = getenv("VXC_TESTDIR");
  char dir[4096], models[4096];
  snprintf(dir, sizeof dir, "%s/fuzz/sweep", t ? t : ".");
  snprintf(models, sizeof models, "%s/fuzz/models", t ? t : ".");
  const target tg = {T_SWEEP, models};
  int nok, n = replay_dir(dir, "", &tg, &nok);
  assert_true(n >= 6);
  assert_true(nok >= 3);
}


// every saved query fuzz input (two cells measured by the fast paths and by the octree)
// keeps the differential invariants: the four seeds and the finds
static void test_fuzz_regress_saved_query_inputs(void **state) {
  (void)state;
  const target tg = {T_QUERY, NULL};
  assert_true(replay_saved("query", &tg) >= 4);
}


// every bundled sweep goes through the sweep fuzz entry point and loads
static void test_fuzz_regress_data_sweeps(void **state) {
  (void)state;
  const target tg = {T_SWEEP, data_dir()};
  int nok, n = replay_dir(data_dir(), ".vxs", &tg, &nok);
  assert_true(n >= 1);
  assert_int_equal(nok, n);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fuzz_regress_saved_inputs),
      cmocka_unit_test(test_fuzz_regress_data_models),
      cmocka_unit_test(test_fuzz_regress_saved_mesh_inputs),
      cmocka_unit_test(test_fuzz_regress_data_meshes),
      cmocka_unit_test(test_fuzz_regress_saved_task_inputs),
      cmocka_unit_test(test_fuzz_regress_data_tasks),
      cmocka_unit_test(test_fuzz_regress_saved_cli_inputs),
      cmocka_unit_test(test_fuzz_regress_saved_sweep_inputs),
      cmocka_unit_test(test_fuzz_regress_data_sweeps),
      cmocka_unit_test(test_fuzz_regress_saved_query_inputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
