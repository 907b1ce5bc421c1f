/* vxc_tracker.h: the cell-pair tracker keeps, from step to step, which cell pairs of two
 * solids are in contact and which state slot each occupies (thesis A.4, lib/README.md
 * section 11). With contact patches (vxc_query_options.patches) a contact is one patch of a
 * cell pair: the tracker keys it by (cell pair, patch) and follows each patch from step to
 * step by its centroid (vxc_tracker_update_keys). Conventions of vxc.h apply (SI units,
 * statuses, ownership). */
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

/* A contact as the tracker follows it: a cell pair and, when the pair's interference is
 * split into patches, the centroid of one patch (world, m; any value otherwise). Several
 * keys may name the same cell pair, one per patch. */
typedef struct vxc_contact_key {
  int a;
  int b;
  double centroid[3];
} vxc_contact_key;

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

/* Creates a tracker with `capacity` slots (1 to 2^24). `al` may be NULL (malloc).
 * Returns VXC_OK, VXC_ERR_ARG (capacity out of range, out NULL), VXC_ERR_NOMEM; *out
 * untouched on error, err (may be NULL) saying why. */
VXC_API vxc_status vxc_tracker_create(int capacity, const vxc_allocator *al, vxc_tracker **out,
                                      vxc_error *err);

/* Frees a tracker; NULL is a no-op. */
VXC_API void vxc_tracker_free(vxc_tracker *t);

/* Updates the tracker with the pairs in contact at this step (any order, no duplicates).
 * Lost pairs free their slots first; new pairs then take the lowest free slots; found
 * pairs keep theirs. Returns VXC_OK with *step filled; VXC_ERR_ARG (a NULL argument, a
 * duplicate or a negative index; tracker unchanged); VXC_ERR_LIMIT (more pairs in contact
 * than slots; tracker unchanged, so the caller can grow or report). On error err (may be
 * NULL) names the argument or the count. */
VXC_API vxc_status vxc_tracker_update(vxc_tracker *t, const vxc_cell_pair *pairs, int npairs,
                                      vxc_tracker_step *step, vxc_error *err);

/* The same for contacts that may share a cell pair (one key per patch). Within each cell
 * pair, the slots it held at the last update are matched to the keys given nearest centroid
 * first (the closest held slot and key of the pair are matched, then the closest of the
 * rest, and so on): a matched key is found and keeps its slot (and its centroid is
 * remembered for the next update), a key left over is new, a held slot left over is lost.
 * With one key per cell pair this is vxc_tracker_update. Returns VXC_OK with *step filled;
 * VXC_ERR_ARG (a NULL argument, a negative index, a non-finite centroid; tracker unchanged);
 * VXC_ERR_LIMIT (more keys than slots, or new keys than free slots; tracker unchanged). On
 * error err (may be NULL) names the argument or the count. */
VXC_API vxc_status vxc_tracker_update_keys(vxc_tracker *t, const vxc_contact_key *keys, int nkeys,
                                           vxc_tracker_step *step, vxc_error *err);

/* The matching of vxc_tracker_update_keys without the update: slot_of[i] (nkeys entries,
 * the caller's) gets the slot key i would keep, or -1 when it would be new. No slot
 * changes (only the tracker's scratch is used). Returns VXC_OK, or VXC_ERR_ARG (as
 * vxc_tracker_update_keys; slot_of untouched, err as there). */
VXC_API vxc_status vxc_tracker_match(vxc_tracker *t, const vxc_contact_key *keys, int nkeys,
                                     int *slot_of, vxc_error *err);

/* The pair holding `slot`. Returns VXC_OK, or VXC_ERR_ARG for a NULL argument or a slot
 * out of range or free (*out untouched, err (may be NULL) saying which). */
VXC_API vxc_status vxc_tracker_slot(const vxc_tracker *t, int slot, vxc_cell_pair *out,
                                    vxc_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VXC_TRACKER_H */
