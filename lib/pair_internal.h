/* pair_internal.h: the contact of two solids (vxc_pair.h) in the parts the task runner drives
 * one by one (lib/pair.c, lib/task_run.c).
 *
 * Data: a pair owns its query workspace, its tracker, the map from tracker slot to cell pair
 * and the last force evaluation of each slot. The contact states live with the caller
 * (`states`: slots blocks of VXC_STATE_SIZE doubles, block k belonging to slot k): the task
 * runner keeps them in its integrated state vector, vxc_pair_step in the pair's own `state`.
 * Invariants: slot_pair[k].a = -1 exactly while the tracker holds no pair in slot k, and its
 * state block is then zero. */
#ifndef VXC_PAIR_INTERNAL_H
#define VXC_PAIR_INTERNAL_H

#include "lib/internal.h"
#include "vxc.h"

struct vxc_pair {
  vxc_allocator al;
  const vxc_solid *a, *b; /* borrowed */
  vxc_params params;      /* prepared */
  vxc_query_options opt;
  int slots;
  vxc_query *query;
  vxc_tracker *tracker;
  vxc_metrics m;            /* the last query's result */
  vxc_cell_pair *slot_pair; /* slot -> pair, a = -1 when free */
  vxc_cell_pair *pairs;     /* scratch for the tracker, slots + 1 */
  vxc_wrench *w;            /* per slot, its last evaluation */
  double *state, *dstate;   /* vxc_pair_step's own states and their derivatives */
  vxci_leaf_hint *leaf;     /* per slot, the leaf edge its queries start from and one
                               found too coarse (the rtol rule's pairs only; set at each
                               pairi_track, zero when free) */
  double deep;              /* largest k_v V of an overlapping untracked pair at the last
                               pairi_forces, N */
};

/* The query at the two poses, each tracked pair's previous normal (from `states`) as its
 * guess and its leaf (vxci_query_run's hint); apart bodies give npair = 0 and VXC_OK.
 * Statuses of vxc_query_run otherwise. */
vxc_status pairi_query(vxc_pair *pr, const vxc_pose *pa, const vxc_pose *pb, const double *states,
                       vxc_error *err);

/* The slot of the last query's pair `pi`, or -1 when the tracker does not hold it. */
int pairi_slot(const vxc_pair *pr, int pi);

/* The force model on every tracked pair of the last query: pr->w[slot] and the derivatives
 * (dstates may be NULL) of the held slots, their sum in *sum (started, lost and capped
 * left 0), pr->deep from the untracked ones. Statuses of vxc_contact_eval. */
vxc_status pairi_forces(vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                        const double *states, double *dstates, vxc_pair_wrench *sum);

/* The tracker update from the last query's pairs: lost slots reset, new ones started from
 * the motions, found ones re-projected, each held slot's leaf set for the next queries. *started,
 * *lost count them. VXC_ERR_LIMIT (more pairs than slots; nothing changed), or the statuses of
 * vxc_contact_start. */
vxc_status pairi_track(vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                       double *states, int *started, int *lost);

#endif /* VXC_PAIR_INTERNAL_H */
