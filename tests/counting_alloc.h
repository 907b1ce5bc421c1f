/* counting_alloc.h: an allocator for the fuzz entry points that counts allocations and
 * live blocks and fails every allocation from number `fail_at` on (fail_at < 0: never),
 * and the allocation numbers at which an entry point fails its input's run again. */
#ifndef VXC_COUNTING_ALLOC_H
#define VXC_COUNTING_ALLOC_H

#include <stdlib.h>

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
static inline int fuzz_fail_points(const unsigned char *data, size_t size, long calls,
                                   long at[4]) {
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

#endif /* VXC_COUNTING_ALLOC_H */
