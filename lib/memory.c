/* memory.c: the memory bound of vxc_memory.h: an allocator that prefixes each block with its
 * size and keeps a running total (C11 atomics), refusing what would exceed the limit. */
#include <stdatomic.h>
#include <string.h>

#include "geom/geom.h"
#include "lib/vxc_memory.h"

#define HEADER 16 /* keeps the blocks aligned as malloc's (max_align_t on x86-64) */

struct vxc_memory_bound {
  vxc_allocator al; /* realloc = bound_realloc, ud = this */
  vxc_allocator base;
  size_t limit;
  atomic_size_t used, peak, refused;
};

static void *base_realloc(const vxc_memory_bound *b, void *p, size_t n) {
  return vxg_realloc(&b->base, p, n);
}


/* Takes `more` bytes from the budget: 1, or 0 when the limit would be passed. */
static int take(vxc_memory_bound *b, size_t more) {
  size_t u = atomic_load(&b->used);
  do {
    if (more > b->limit || u > b->limit - more) {
      atomic_fetch_add(&b->refused, 1);
      return 0;
    }
  } while (!atomic_compare_exchange_weak(&b->used, &u, u + more));
  size_t now = u + more, pk = atomic_load(&b->peak);
  while (now > pk && !atomic_compare_exchange_weak(&b->peak, &pk, now)) {
  }
  return 1;
}


static void *bound_realloc(void *ud, void *ptr, size_t size) {
  vxc_memory_bound *b = ud;
  unsigned char *h = ptr ? (unsigned char *)ptr - HEADER : NULL;
  size_t old = 0;
  if (h) {
    memcpy(&old, h, sizeof old);
  }
  if (size == 0) {
    if (h) {
      atomic_fetch_sub(&b->used, old + HEADER);
      base_realloc(b, h, 0);
    }
    return NULL;
  }
  if (size > (size_t)-1 - HEADER) {
    return NULL;
  }
  size_t want = size + HEADER, had = h ? old + HEADER : 0;
  if (want > had && !take(b, want - had)) {
    return NULL;
  }
  unsigned char *q = base_realloc(b, h, want);
  if (!q) {
    if (want > had) {
      atomic_fetch_sub(&b->used, want - had);
    }
    return NULL;
  }
  if (want < had) {
    atomic_fetch_sub(&b->used, had - want);
  }
  memcpy(q, &size, sizeof size);
  return q + HEADER;
}


vxc_memory_bound *vxc_memory_bound_new(size_t limit, const vxc_allocator *base) {
  if (limit == 0) {
    return NULL;
  }
  vxc_memory_bound tmp;
  memset(&tmp, 0, sizeof tmp);
  if (base) {
    tmp.base = *base;
  }
  vxc_memory_bound *b = base_realloc(&tmp, NULL, sizeof *b);
  if (!b) {
    return NULL;
  }
  memset(b, 0, sizeof *b);
  b->base = tmp.base;
  b->al.realloc = bound_realloc;
  b->al.ud = b;
  b->limit = limit;
  atomic_init(&b->used, 0);
  atomic_init(&b->peak, 0);
  atomic_init(&b->refused, 0);
  return b;
}


void vxc_memory_bound_free(vxc_memory_bound *b) {
  if (b) {
    base_realloc(b, b, 0);
  }
}


const vxc_allocator *vxc_memory_bound_allocator(const vxc_memory_bound *b) {
  return &b->al;
}


size_t vxc_memory_bound_used(const vxc_memory_bound *b) {
  return atomic_load(&((vxc_memory_bound *)b)->used);
}


size_t vxc_memory_bound_peak(const vxc_memory_bound *b) {
  return atomic_load(&((vxc_memory_bound *)b)->peak);
}


size_t vxc_memory_bound_refused(const vxc_memory_bound *b) {
  return atomic_load(&((vxc_memory_bound *)b)->refused);
}
