/* counting_alloc.h: an allocator for the fuzz entry points that counts allocations and
 * live blocks and fails every allocation from number `fail_at` on (fail_at < 0: never). */
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

#endif /* VXC_COUNTING_ALLOC_H */
