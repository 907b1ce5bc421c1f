/* fuzz_model.c: the fuzzing entry point of the model-file reader.
 *
 * LLVMFuzzerTestOneInput hands the bytes to vxc_fuzz_model, which parses them twice through
 * a counting allocator: once normally, then with the allocation in the middle of the first
 * run's sequence failing (the run is deterministic, so it must fail with VXC_ERR_NOMEM). It
 * aborts when an invariant breaks: a status that is neither VXC_OK nor an error, an error
 * without a message or with a different status in the record, a solid without cells, the
 * output written on failure, a block still live after the solid is freed. libFuzzer
 * (tools/fuzz) and the regression test (tests/test_fuzz_regress.c) share this file. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "geom/geom.h"

/* Parses `data` as a model file and checks the invariants above (aborting when one breaks).
 * Returns the status of the first parse; `err` receives its error record. */
vxc_status vxc_fuzz_model(const uint8_t *data, size_t size, vxc_error *err);
/* Same with mesh paths resolved against `dir` (the bundled models' meshes load then). */
vxc_status vxc_fuzz_model_dir(const uint8_t *data, size_t size, const char *dir,
                              vxc_error *err);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "counting_alloc.h"


/* One parse; returns its status after checking the invariants. */
static vxc_status run(const uint8_t *data, size_t size, const char *dir, counter *c,
                      vxc_error *err) {
  vxc_allocator al = {counting_realloc, c};
  vxg_solid *const sentinel = (vxg_solid *)(uintptr_t)0x5e5e;
  vxg_solid *s = sentinel;
  err->status = VXC_OK;
  err->message[0] = '\0';
  vxc_status st = vxg_model_parse(&al, (const char *)data, size, "fuzz.vxm", dir, &s, err);
  if (st == VXC_OK) {
    if (s == sentinel || !s || s->ncell <= 0) {
      abort();
    }
    vxg_solid_free(s);
  } else {
    if (st >= 0 || err->status != st || err->message[0] == '\0' || s != sentinel) {
      abort();
    }
  }
  if (c->live != 0) {
    abort(); /* a leak, or a block freed twice */
  }
  return st;
}


vxc_status vxc_fuzz_model_dir(const uint8_t *data, size_t size, const char *dir,
                              vxc_error *err) {
  counter c = {0, 0, -1};
  vxc_status st = run(data, size, dir, &c, err);
  if (c.calls > 0) {
    counter f = {0, 0, c.calls / 2};
    vxc_error e2;
    if (run(data, size, dir, &f, &e2) != VXC_ERR_NOMEM) {
      abort();
    }
  }
  return st;
}


vxc_status vxc_fuzz_model(const uint8_t *data, size_t size, vxc_error *err) {
  return vxc_fuzz_model_dir(data, size, "/nonexistent", err);
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxc_error err;
  vxc_fuzz_model(data, size, &err);
  return 0;
}
