/* fuzz_model.c: the fuzzing entry point of the model-file reader.
 *
 * LLVMFuzzerTestOneInput hands the bytes to vxc_fuzz_model_dir, which parses them through a
 * counting allocator: once normally, then with allocations failing from each of several
 * points of the first run's sequence on (tests/counting_alloc.h; the run is deterministic,
 * so each must fail with VXC_ERR_NOMEM, or with the error of the first run when that came first).
 * Mesh paths resolve against VXC_FUZZ_DATADIR (tests/fuzz/models, set by tools/fuzz, where the
 * bundled mesh names are cubes), so that (mesh "meshes/peg.stl") loads a mesh. It aborts when an
 * invariant breaks: a status that is neither VXC_OK nor an error, an error without a message or
 * with a different status in the record, a solid without cells, the output written on failure, a
 * block still live after the solid is freed. libFuzzer (tools/fuzz) and the regression test
 * (tests/test_fuzz_regress.c) share this file. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "geom/geom.h"

/* Parses `data` as a model file and checks the invariants above (aborting when one breaks).
 * Returns the status of the first parse; `err` receives its error record. */
vxc_status vxc_fuzz_model(const uint8_t *data, size_t size, vxc_error *err);
/* Same with mesh paths resolved against `dir` (the bundled models' meshes load then). */
vxc_status vxc_fuzz_model_dir(const uint8_t *data, size_t size, const char *dir, vxc_error *err);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "tests/counting_alloc.h"


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
  }
  fuzz_check_end(st, err, st == VXC_OK || s == sentinel, c);
  return st;
}


vxc_status vxc_fuzz_model_dir(const uint8_t *data, size_t size, const char *dir, vxc_error *err) {
  return fuzz_with_failures(run, data, size, dir, err);
}


vxc_status vxc_fuzz_model(const uint8_t *data, size_t size, vxc_error *err) {
  return vxc_fuzz_model_dir(data, size, "/nonexistent", err);
}


#ifndef VXC_FUZZ_DATADIR
#define VXC_FUZZ_DATADIR "/nonexistent"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxc_error err;
  vxc_fuzz_model_dir(data, size, VXC_FUZZ_DATADIR, &err);
  return 0;
}
