/* fuzz_task.c: the fuzzing entry point of the task-file reader.
 *
 * LLVMFuzzerTestOneInput hands the bytes to vxc_fuzz_task, which parses them as a task file
 * through a counting allocator, model paths resolving against VXC_FUZZ_DATADIR (set by
 * tools/fuzz to tests/fuzz/models, where "ball.vxm" and the other bundled names are cubes):
 * once normally, then with allocations failing from each of several points of the first
 * run's sequence on (each must fail with VXC_ERR_NOMEM, or with the first run's error when
 * that came first). It aborts when an invariant breaks: a status that is neither VXC_OK nor
 * an error, an error without a message or with a different status in the record, the
 * output written on failure, a task without bodies or with a duration that is not positive
 * and finite, a block still live after the task is freed. libFuzzer (tools/fuzz task) and
 * the regression test (tests/test_fuzz_regress.c) share this file. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/vxc.h"

vxc_status vxc_fuzz_task(const uint8_t *data, size_t size, const char *dir, vxc_error *err);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "tests/counting_alloc.h"


static vxc_status run(const uint8_t *data, size_t size, const char *dir, counter *c,
                      vxc_error *err) {
  vxc_allocator al = {counting_realloc, c};
  vxc_task *const sentinel = (vxc_task *)(uintptr_t)0x5e5e;
  vxc_task *t = sentinel;
  err->status = VXC_OK;
  err->message[0] = '\0';
  vxc_status st = vxc_task_parse((const char *)data, size, "fuzz.vxt", dir, &al, &t, err);
  if (st == VXC_OK) {
    double d = vxc_task_duration(t);
    if (t == sentinel || !t || vxc_task_body_count(t) < 1 || !(d > 0) || !isfinite(d)) {
      abort();
    }
    vxc_task_free(t);
  }
  fuzz_check_end(st, err, st == VXC_OK || t == sentinel, c);
  return st;
}


vxc_status vxc_fuzz_task(const uint8_t *data, size_t size, const char *dir, vxc_error *err) {
  return fuzz_with_failures(run, data, size, dir, err);
}


#ifndef VXC_NO_FUZZ_MAIN
#ifndef VXC_FUZZ_DATADIR
#define VXC_FUZZ_DATADIR "data"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxc_error err;
  vxc_fuzz_task(data, size, VXC_FUZZ_DATADIR, &err);
  return 0;
}
#endif
