/* test_fuzz_regress.c: replays the fuzzing entry points (tests/fuzz_model.c, tests/fuzz_mesh.c)
 * over every saved fuzz input (tests/fuzz/model/ and tests/fuzz/mesh/, found through
 * VXC_TESTDIR), every bundled model (the data/ .vxm files, through VXC_DATADIR, with its meshes) and
 * every bundled mesh (data/meshes/). Each must end without a crash, with VXC_OK or an error
 * carrying a message (vxc_fuzz_model aborts on a broken invariant, which cmocka reports as a
 * failure); the bundled models must load. */
#include <dirent.h>

#include "vxc_test.h"

#include "geom/geom.h"

vxc_status vxc_fuzz_model(const uint8_t *data, size_t size, vxc_error *err);
vxc_status vxc_fuzz_model_dir(const uint8_t *data, size_t size, const char *dir,
                              vxc_error *err);
vxc_status vxc_fuzz_mesh(const uint8_t *data, size_t size, vxc_error *err);

/* What a replay runs: the model entry point (with `dir` for mesh paths, NULL: none) or the
 * mesh readers'. */
typedef struct target {
  int mesh;
  const char *dir;
} target;

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
    vxc_status st = tg->mesh  ? vxc_fuzz_mesh(data, size, &err)
                    : tg->dir ? vxc_fuzz_model_dir(data, size, tg->dir, &err)
                              : vxc_fuzz_model(data, size, &err);
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
  const target tg = {0, NULL};
  assert_true(replay_dir(dir, "", &tg, &nok) > 0);
}


// every bundled model goes through the fuzz entry point and loads, meshes included
static void test_fuzz_regress_data_models(void **state) {
  (void)state;
  const char *d = getenv("VXC_DATADIR");
  const target tg = {0, d ? d : "../data"};
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
  const target tg = {1, NULL};
  assert_true(replay_dir(dir, "", &tg, &nok) > 0);
}


// every bundled mesh goes through the mesh fuzz entry point and loads
static void test_fuzz_regress_data_meshes(void **state) {
  (void)state;
  const char *d = getenv("VXC_DATADIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/meshes", d ? d : "../data");
  const target tg = {1, NULL};
  int nok, n = replay_dir(dir, "", &tg, &nok);
  assert_true(n >= 7);
  assert_int_equal(nok, n);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fuzz_regress_saved_inputs),
      cmocka_unit_test(test_fuzz_regress_data_models),
      cmocka_unit_test(test_fuzz_regress_saved_mesh_inputs),
      cmocka_unit_test(test_fuzz_regress_data_meshes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
