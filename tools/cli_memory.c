/* cli_memory.c: the --max-memory bound of a command: one vxc_memory_bound for the whole run,
 * its allocator handed to every loader (models, meshes, tasks, sweeps) and every query the
 * command makes, and each query's workspace cap (max_bytes) held within it. A run that
 * passes the bound fails with VXC_ERR_NOMEM; cli_memory_message then says so, naming the
 * bound, in place of "out of memory". Depends on the public library only, so that
 * vxc-sweep-mpi and vxc-mujoco share it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/cli.h"

static vxc_memory_bound *bound; /* the run's, or NULL without --max-memory */
static size_t bound_limit;

int cli_memory_set(const char *val) {
  char *end = NULL;
  double x = val ? strtod(val, &end) : NAN;
  if (!val || end == val || *end != '\0' || !(x >= 1) || x > 1e15 || x != floor(x) || bound) {
    return -1;
  }
  bound_limit = (size_t)x;
  bound = vxc_memory_bound_new(bound_limit, NULL);
  return bound ? 0 : -1;
}


const vxc_allocator *cli_allocator(void) {
  return bound ? vxc_memory_bound_allocator(bound) : NULL;
}


void cli_memory_query(vxc_query_options *q) {
  size_t cap = q->max_bytes ? q->max_bytes : (size_t)64 << 20;
  if (bound && bound_limit < cap) {
    q->max_bytes = bound_limit;
  }
}


size_t cli_memory_refused(void) {
  return bound ? vxc_memory_bound_refused(bound) : 0;
}


int cli_memory_message(const char *doing, char *msg, size_t size) {
  if (!bound || vxc_memory_bound_refused(bound) == 0) {
    return 0;
  }
  snprintf(msg, size,
           "the --max-memory bound of %zu bytes was reached while %s (at most %zu bytes were in "
           "use at once; a larger --max-memory may do)",
           bound_limit, doing, vxc_memory_bound_peak(bound));
  return 1;
}
