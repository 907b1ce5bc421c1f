/* vxc_tracker.h: the cell-pair tracker keeps, from step to step, which cell pairs of two
 * solids are in contact and which state slot each occupies (thesis A.4, lib/README.md
 * section 11). Conventions of vxc.h apply (SI units, statuses, ownership). */
#ifndef VXC_TRACKER_H
#define VXC_TRACKER_H

#include "vxc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cell-pair tracker -------------------------------------------------------------- */

/* A pair of cells, one of each solid (indices into the solids' cell lists). */
typedef struct vxc_cell_pair {
  int a;
  int b;
} vxc_cell_pair;

/* The tracker: a fixed number of state slots, each held by one contacting pair from its
 * first contact to its loss. Opaque. */
typedef struct vxc_tracker vxc_tracker;

/* What one update found. The arrays hold slot indices; they are owned by the tracker and
 * valid until its next update or its free. */
typedef struct vxc_tracker_step {
  int nnew, nfound, nlost, ncurrent, nfree;
  const int *new_slots;     /* pairs in contact now and not before (start their states) */
  const int *found_slots;   /* pairs in contact before and now (ongoing) */
  const int *lost_slots;    /* pairs in contact before and not now (reset their states) */
  const int *current_slots; /* new and found, in the order of the pairs given */
} vxc_tracker_step;

/* Creates a tracker with `capacity` slots (>= 1). `al` may be NULL (malloc).
 * Returns VXC_OK, VXC_ERR_ARG (capacity < 1, out NULL), VXC_ERR_NOMEM. */
VXC_API vxc_status vxc_tracker_create(int capacity, const vxc_allocator *al, vxc_tracker **out);

/* Frees a tracker; NULL is a no-op. */
VXC_API void vxc_tracker_free(vxc_tracker *t);

/* Updates the tracker with the pairs in contact at this step (any order, no duplicates).
 * Lost pairs free their slots first; new pairs then take the lowest free slots; found
 * pairs keep theirs. Returns VXC_OK with *step filled; VXC_ERR_ARG (a duplicate or a
 * negative index; tracker unchanged); VXC_ERR_LIMIT (more pairs in contact than slots;
 * tracker unchanged, so the caller can grow or report). */
VXC_API vxc_status vxc_tracker_update(vxc_tracker *t, const vxc_cell_pair *pairs, int npairs,
                                      vxc_tracker_step *step);

/* The pair holding `slot`. Returns VXC_OK, or VXC_ERR_ARG when the slot is out of range
 * or free (*out untouched). */
VXC_API vxc_status vxc_tracker_slot(const vxc_tracker *t, int slot, vxc_cell_pair *out);

#ifdef __cplusplus
}
#endif

#endif /* VXC_TRACKER_H */
