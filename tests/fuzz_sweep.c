/* fuzz_sweep.c: the fuzzing entry point of the sweep-file (.vxs) reader.
 *
 * LLVMFuzzerTestOneInput hands the bytes to vxc_fuzz_sweep, which parses them as a sweep file
 * through a counting allocator, its task file named relative to VXC_FUZZ_DATADIR (set by
 * tools/fuzz to tests/fuzz/models, which holds the tasks drop.vxt and insert.vxt over cube
 * stand-ins of the bundled models): once normally, then with allocations failing from each of
 * several points of the first run's sequence on (each must fail with VXC_ERR_NOMEM, or with
 * the first run's error when that came first). It aborts when an invariant breaks: a status
 * that is neither VXC_OK nor an error, an error without a message or with a different status
 * in the record, the output written on failure, a sweep without a name, axes or cases, more
 * than 1e7 cases, a varied value that is not finite, a case's task text that is not
 * NUL-terminated at its length (or, from the sweep's allocator, a failure other than
 * VXC_ERR_NOMEM with its record), a block still live after the sweep is freed. libFuzzer
 * (tools/fuzz sweep) and the regression test (tests/test_fuzz_regress.c) share this file. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/vxc.h"

vxc_status vxc_fuzz_sweep(const uint8_t *data, size_t size, const char *dir, vxc_error *err);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "tests/counting_alloc.h"


/* Case i's values and task text keep their invariants. Returns VXC_OK, or VXC_ERR_NOMEM
 * (err filled) when the text's allocation failed. */
static vxc_status check_case(const vxc_sweep *s, long long i, vxc_error *err) {
  double v[256];
  char *text = NULL;
  size_t len = 0;
  int n = vxc_sweep_axis_count(s);
  if (vxc_sweep_case_values(s, i, v, NULL) != VXC_OK) {
    abort();
  }
  for (int a = 0; a < n; a++) {
    if (!isfinite(v[a])) {
      abort();
    }
  }
  vxc_status st = vxc_sweep_case_text(s, i, &text, &len, err);
  if (st == VXC_ERR_NOMEM && !text && err->status == st) {
    return st;
  }
  if (st != VXC_OK || !text || strlen(text) != len) {
    abort();
  }
  vxc_sweep_text_free(s, text);
  return VXC_OK;
}


/* A loaded sweep's invariants; returns as check_case. */
static vxc_status check_sweep(const vxc_sweep *s, vxc_error *err) {
  long long n = vxc_sweep_case_count(s);
  int na = vxc_sweep_axis_count(s);
  if (!vxc_sweep_name(s) || n < 1 || n > 10000000 || na < 1 || na > 256 ||
      vxc_sweep_output_count(s) < 0) {
    abort();
  }
  for (int a = 0; a < na; a++) {
    if (!vxc_sweep_axis_name(s, a) || vxc_sweep_axis_size(s, a) < 1) {
      abort();
    }
  }
  for (int k = 0; k < vxc_sweep_output_count(s); k++) {
    if (!vxc_sweep_output_name(s, k)) {
      abort();
    }
  }
  vxc_status st = check_case(s, 0, err);
  return st == VXC_OK ? check_case(s, n - 1, err) : st;
}


static vxc_status run(const uint8_t *data, size_t size, const char *dir, counter *c,
                      vxc_error *err) {
  vxc_allocator al = {counting_realloc, c};
  vxc_sweep *const sentinel = (vxc_sweep *)(uintptr_t)0x5e5e;
  vxc_sweep *s = sentinel;
  vxc_status st = vxc_sweep_parse((const char *)data, size, "fuzz.vxs", dir, &al, &s, err);
  int parsed = st == VXC_OK;
  if (parsed) {
    if (s == sentinel || !s) {
      abort();
    }
    st = check_sweep(s, err);
    vxc_sweep_free(s);
  }
  fuzz_check_end(st, err, parsed || s == sentinel, c);
  return st;
}


vxc_status vxc_fuzz_sweep(const uint8_t *data, size_t size, const char *dir, vxc_error *err) {
  return fuzz_with_failures(run, data, size, dir, err);
}


#ifndef VXC_NO_FUZZ_MAIN
#ifndef VXC_FUZZ_DATADIR
#define VXC_FUZZ_DATADIR "data"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxc_error err;
  vxc_fuzz_sweep(data, size, VXC_FUZZ_DATADIR, &err);
  return 0;
}
#endif
