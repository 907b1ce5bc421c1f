/* fuzz_mesh.c: the fuzzing entry point of the mesh readers (STL, OBJ, PLY, gzip).
 *
 * LLVMFuzzerTestOneInput hands the bytes to vxc_fuzz_mesh, which loads them as a mesh file
 * through a counting allocator: once normally, then with allocations failing from each of
 * several points of the first run's sequence on (tests/counting_alloc.h; the run is
 * deterministic, so each must fail with VXC_ERR_NOMEM, or with the error of the first run when that
 * came first). The first byte picks the name the readers see (it only matters for telling a binary
 * STL from text): "fuzz.stl" when it is 0 or above 127, "fuzz" otherwise; the whole input is the
 * file. It aborts when an invariant breaks: a status that is neither VXC_OK nor an error, an error
 * without a message or with a different status in the record, the output written on failure, a
 * loaded mesh without triangles or with a non-positive volume, a signed distance that is not
 * finite, a block still live after the mesh is freed. libFuzzer (tools/fuzz mesh) and the
 * regression test (tests/test_fuzz_regress.c) share this file. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "geom/geom.h"

vxc_status vxc_fuzz_mesh(const uint8_t *data, size_t size, vxc_error *err);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "tests/counting_alloc.h"


static vxc_status run(const uint8_t *data, size_t size, const char *dir, counter *c,
                      vxc_error *err) {
  (void)dir; /* a mesh names no file */
  vxc_allocator al = {counting_realloc, c};
  struct vxg_mesh *const sentinel = (struct vxg_mesh *)(uintptr_t)0x5e5e;
  struct vxg_mesh *m = sentinel;
  err->status = VXC_OK;
  err->message[0] = '\0';
  const char *name = size > 0 && (data[0] == 0 || data[0] >= 0x80) ? "fuzz.stl" : "fuzz";
  vxc_status st = vxg_mesh_parse(&al, data, size, name, 1.0, &m, err);
  if (st == VXC_OK) {
    vxg_mesh_info in;
    if (m == sentinel || !m) {
      abort();
    }
    vxg_mesh_get_info(m, &in);
    if (in.ntri < 4 || !(in.volume > 0)) {
      abort();
    }
    const double p[3] = {0.5 * (in.aabb[0] + in.aabb[3]), 0.5 * (in.aabb[1] + in.aabb[4]),
                         0.5 * (in.aabb[2] + in.aabb[5])};
    double g[3];
    if (!isfinite(vxg_mesh_distance(m, p, g, NULL))) {
      abort();
    }
    vxg_mesh_free(m);
  }
  fuzz_check_end(st, err, st == VXC_OK || m == sentinel, c);
  return st;
}


vxc_status vxc_fuzz_mesh(const uint8_t *data, size_t size, vxc_error *err) {
  return fuzz_with_failures(run, data, size, NULL, err);
}


#ifndef VXC_NO_FUZZ_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxc_error err;
  vxc_fuzz_mesh(data, size, &err);
  return 0;
}
#endif
