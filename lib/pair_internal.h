/* pair_internal.h: the contact of two solids (vxc_pair.h) in the parts the task runner drives
 * one by one (lib/pair.c, lib/task_run.c).
 *
 * Data: a pair owns its query workspace, its tracker, the map from tracker slot to cell pair,
 * the last query's contacts (each overlapping cell pair, or with opt.patches each patch of
 * it, with the slot it matches) and the last force evaluation of each slot. The contact states live
 * with the caller
 * (`states`: slots blocks of VXC_STATE_SIZE doubles, block k belonging to slot k): the task
 * runner keeps them in its integrated state vector, vxc_pair_step in the pair's own `state`.
 * Invariants: slot_pair[k].a = -1 exactly while the tracker holds no pair in slot k, and its
 * state block is then zero. */
#ifndef VXC_PAIR_INTERNAL_H
#define VXC_PAIR_INTERNAL_H

#include "lib/internal.h"
#include "lib/vxc.h"

/* One contact of the last query: a cell pair's interference, or one patch of it. */
typedef struct vxci_pair_contact {
  int pair;                  /* index in m.pair */
  int patch;                 /* index in that pair's patches; -1: the whole pair */
  vxc_contact_geometry geom; /* its V, p_c, J and n */
  double area;               /* |area vector of A's surface in it|, m^2 (dV/dx along n) */
  int slot;                  /* the tracker slot it holds, or would keep; -1: untracked */
} vxci_pair_contact;

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
  vxci_pair_contact *contact;   /* the last query's contacts */
  vxc_contact_key *keys;    /* their tracker keys */
  int *match;               /* scratch: their matched slots */
  vxc_contact_friction *fric; /* their friction records (vxc_pair_jacobian_get) */
  int ncontact;
  size_t cap[4];          /* room in contact, keys, match, fric */
  vxc_wrench *w;          /* per slot, its last evaluation */
  double *state, *dstate; /* vxc_pair_step's own states and their derivatives */
  vxci_leaf_hint *leaf;   /* per slot, the leaf edge its queries start from and one found
                             too coarse (the rtol rule's pairs only; set at each vxci_pair_track,
                             zero when free) */
  vxc_body_motion ma, mb; /* the motions of vxc_pair_step's last call */
  int stepped;            /* 1 once vxc_pair_step has succeeded */
  int last_started;       /* contacts its last call started */
  int in_impact;          /* 1 from a vxc_pair_substep until a step finds no contact: an
                             impact is sub-stepped to its end, not switched to one
                             linearisation per step halfway (that breaks semi-implicit
                             Euler's energy balance over the bounce) */
  double deep;            /* largest k_v V of an overlapping untracked pair at the last
                             vxci_pair_forces, N */
};

/* The query at the two poses, each tracked pair's previous normal (from `states`) as its
 * guess and its leaf (vxci_query_run's hint), then its contacts listed and matched to the
 * tracker's slots (without updating it); apart bodies give npair = 0, no contact and
 * VXC_OK. Statuses of vxc_query_run otherwise, VXC_ERR_NOMEM. */
vxc_status vxci_pair_query(vxc_pair *pr, const vxc_pose *pa, const vxc_pose *pb, const double *states,
                       vxc_error *err);

/* The force model on every tracked contact of the last query: pr->w[slot] and the derivatives
 * (dstates may be NULL) of the held slots, their sum in *sum (started, lost and capped
 * left 0), pr->deep from the untracked ones. Statuses of vxc_contact_eval, its message in
 * err (may be NULL) prefixed with the cell pair's names. */
vxc_status vxci_pair_forces(vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                        const double *states, double *dstates, vxc_pair_wrench *sum,
                        vxc_error *err);

/* The tracker update from the last query's contacts: lost slots reset, new ones started from
 * the motions, found ones re-projected; each contact's slot set, each held slot's leaf
 * set for the next queries. *started, *lost count them. VXC_ERR_LIMIT (more contacts than slots; nothing changed; no message), the
 * tracker's statuses, or those of vxc_contact_start, its message in err (may be NULL)
 * prefixed with the cell pair's names. */
vxc_status vxci_pair_track(vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                       double *states, int *started, int *lost, vxc_error *err);

/* The states of the last query's tracked contacts advanced by h with A and B moving as ma,
 * mb: linearly implicit Euler (vxc_pair_advance; pair_jacobian.c). VXC_OK, or
 * VXC_ERR_NUMERIC with nothing changed. */
vxc_status vxci_pair_advance(vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                         double h, vxc_error *err);

/* The last step's d_pose (vxc_pair_jacobian's, N/m and N m/rad over the twists' 12 axes; it
 * does not depend on h): each contact's closed-form stiffness from one evaluation of its
 * model, without the central differences of vxc_pair_jacobian_get (pair_jacobian.c). VXC_OK,
 * or vxc_contact_eval's status with its message in err. */
vxc_status vxci_pair_d_pose(const vxc_pair *pr, double d_pose[144], vxc_error *err);

/* Solves A X = B in place (A n x n, B n x m, row-major; partial pivoting): 0, or -1 when A
 * is singular (implicit.c). */
int vxci_pair_dense_solve(int n, double *A, int m, double *B);

#endif /* VXC_PAIR_INTERNAL_H */
