/* counting_alloc.h: the one failing allocator of the tests and the fuzz entry points: it
 * counts allocations and live blocks and fails every allocation from number `fail_at` on
 * (fail_at < 0: never),
 * the allocation numbers at which an entry point fails its input's run again, and the
 * driver that runs an input clean and then failing at each of them. */
#ifndef VXC_COUNTING_ALLOC_H
#define VXC_COUNTING_ALLOC_H

#include <stdlib.h>

#include "geom/vxc_types.h"

typedef struct counter {
  long calls, live, fail_at;
} counter;

static inline void *counting_realloc(void *ud, void *ptr, size_t size) {
  counter *c = ud;
  if (size == 0) {
    if (ptr) {
      c->live--;
    }
    free(ptr);
    return NULL;
  }
  if (c->fail_at >= 0 && c->calls >= c->fail_at) {
    c->calls++;
    return NULL;
  }
  c->calls++;
  void *q = realloc(ptr, size);
  if (q && !ptr) {
    c->live++;
  }
  return q;
}


/* The failure points for an input whose clean run made `calls` allocations: the first,
 * the middle, the last and one chosen by a hash of the input (so that the corpus as a
 * whole visits every point). Fills at[0..3]; returns how many (0 when calls is 0). */
static inline int fuzz_fail_points(const unsigned char *data, size_t size, long calls, long at[4]) {
  if (calls <= 0) {
    return 0;
  }
  unsigned long long h = 1469598103934665603ULL; /* FNV-1a */
  for (size_t i = 0; i < size; i++) {
    h = (h ^ data[i]) * 1099511628211ULL;
  }
  at[0] = 0;
  at[1] = calls / 2;
  at[2] = calls - 1;
  at[3] = (long)(h % (unsigned long long)calls);
  return 4;
}


/* The invariants at the end of a run: a failure is an error status, with the same status and
 * a message in its record and the output untouched (`out_untouched`); no block is live (a
 * leak, or a block freed twice). Aborts when one breaks. */
static inline void fuzz_check_end(vxc_status st, const vxc_error *err, int out_untouched,
                                  const counter *c) {
  if (st != VXC_OK && (st >= 0 || err->status != st || err->message[0] == '\0' || !out_untouched)) {
    abort();
  }
  if (c->live != 0) {
    abort();
  }
}


/* One run of an entry point: reads the input through an allocator counting with c (its
 * files from `dir`, if it has any), aborts on a broken invariant, returns the status. */
typedef vxc_status (*fuzz_run_fn)(const unsigned char *data, size_t size, const char *dir,
                                  counter *c, vxc_error *err);

/* Runs the input once, then again with allocations failing from each of fuzz_fail_points
 * on: each of those runs must fail with VXC_ERR_NOMEM, or with the first run's error when
 * that came first (abort otherwise). Returns the first run's status; err its record. */
static inline vxc_status fuzz_with_failures(fuzz_run_fn run, const unsigned char *data, size_t size,
                                            const char *dir, vxc_error *err) {
  counter c = {0, 0, -1};
  vxc_status st = run(data, size, dir, &c, err);
  long at[4];
  for (int k = fuzz_fail_points(data, size, c.calls, at) - 1; k >= 0; k--) {
    counter f = {0, 0, at[k]};
    vxc_error e2;
    vxc_status s2 = run(data, size, dir, &f, &e2);
    if (s2 != VXC_ERR_NOMEM && !(st < 0 && s2 == st)) {
      abort(); /* success, or another error, from a failed allocation */
    }
  }
  return st;
}

#endif /* VXC_COUNTING_ALLOC_H */
