/* test_fuzz_regress.c: replays the fuzzing entry point (tests/fuzz_model.c) over every saved
 * fuzz input (tests/fuzz/model/, found through VXC_TESTDIR) and every bundled model
 * (data/*.vxm, through VXC_DATADIR). Each must end without a crash, with VXC_OK or an error
 * carrying a message (vxc_fuzz_model aborts on a broken invariant, which cmocka reports as a
 * failure); the bundled models must load. */
#include <dirent.h>

#include "vxc_test.h"

#include "geom/geom.h"

vxc_status vxc_fuzz_model(const uint8_t *data, size_t size, vxc_error *err);

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
static int replay_dir(const char *dir, const char *suffix, int *nok) {
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
    vxc_status st = vxc_fuzz_model(data, size, &err);
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
  assert_true(replay_dir(dir, "", &nok) > 0);
}


// every bundled model goes through the fuzz entry point and loads
static void test_fuzz_regress_data_models(void **state) {
  (void)state;
  const char *d = getenv("VXC_DATADIR");
  int nok, n = replay_dir(d ? d : "../data", ".vxm", &nok);
  assert_true(n > 0);
  assert_int_equal(nok, n);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fuzz_regress_saved_inputs),
      cmocka_unit_test(test_fuzz_regress_data_models),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
