/* vxc_pair.h: one contact between two solids for an external simulator (included by
 * <vxc/vxc.h>): from the two bodies' poses and velocities to the wrench on each, in one call
 * a step, with the cell-pair tracker and the contact states kept inside.
 *
 * What a step does (the task runner drives its contacts the same way, lib/README.md
 * section 11): the contact metrics of the two solids at their poses (each pair's previous
 * normal as the normal's guess); the tracker update (a lost cell pair's state is reset, a
 * new one's started from the approach speed, an ongoing one's bristle re-projected on the
 * new contact plane); the volumetric force model on every tracked pair; the wrenches summed;
 * then, when dt > 0, the states advanced by dt along their derivatives (explicit Euler: the
 * bristle and dwell states relax with time constants sigma1 / sigma0 and tau_dw, so a step
 * well below both is stable; the simulator integrates the bodies).
 *
 * Contact patches: created with query options whose `patches` is 1, a pair splits each cell
 * pair's interference into its connected parts (vxc_patch) and makes each part a contact of
 * its own: its own V, p_c, J and normal, its own force and torque from the model, its own
 * state slot (bristles, dwell, impact memory); the wrench is the sum over the contacts. The
 * tracker keys a contact by (cell pair, patch) and follows the patches of a cell pair from
 * step to step nearest centroid first (vxc_tracker_update_keys): a patch that appears starts
 * a fresh state, one that vanishes is reset. This lets one concave cell (a mesh of a whole
 * part) touch its partner in several places. Without it each cell pair is one contact.
 *
 * Frames and signs: the world frame throughout. Torques are about each body's reference point
 * motion->r (a simulator usually wants its centre of mass: see vxc_body_motion_from_pose).
 * Conventions of vxc.h apply (SI units, statuses, ownership). */
#ifndef VXC_PAIR_H
#define VXC_PAIR_H

#include "vxc_force.h"
#include "vxc_query.h"
#include "vxc_solid.h"
#include "vxc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A body's kinematics from its pose and velocity: `ref` and `at` are points of the body in
 * its model frame (m; NULL: the model-frame origin), `v_at` the world velocity of `at` (m/s)
 * and `w` the world angular velocity (rad/s). Fills out->r with ref in the world,
 * out->v = v_at + w x R (ref - at) with ref's velocity, out->w = w. The pose's quaternion is
 * normalised. Returns VXC_OK, VXC_ERR_ARG (a NULL pose, v_at, w or out; a zero quaternion),
 * VXC_ERR_NUMERIC (a non-finite input); *out untouched on error. */
VXC_API vxc_status vxc_body_motion_from_pose(const vxc_pose *pose, const double ref[3],
                                             const double at[3], const double v_at[3],
                                             const double w[3], vxc_body_motion *out);

/* A contact between solid A and solid B. Opaque. */
typedef struct vxc_pair vxc_pair;

/* What one step of a pair gives: the total wrench, and what the records of `vxc task` show
 * of a contact. */
typedef struct vxc_pair_wrench {
  double force_a[3];  /* total contact force on A, N */
  double torque_a[3]; /* total contact torque on A about motion_a->r, N m */
  double force_b[3];  /* total contact force on B (= -force_a), N */
  double torque_b[3]; /* total contact torque on B about motion_b->r, N m */
  int npairs;         /* tracked contacts: cell pairs in contact, or their patches */
  double volume;      /* V summed over them, m^3 */
  double f_n, f_t;    /* |sum of the normal forces|, |sum of the friction forces|, N */
  double f_n_max;     /* the largest normal force of one contact, N (opposite walls of a
                         press fit cancel in f_n, not here) */
  double t_roll;      /* |sum of the rolling torques|, N m */
  double t_spin;      /* |sum of the spinning torques|, N m */
  double normal[3];   /* unit normal of the largest contact (A toward B); 0 without one */
  double stick;       /* the largest contact's stick indicator, in [0, 1] */
  double sdw;         /* the largest contact's dwell state, in [0, 1] */
  int started, lost;  /* contacts that started, ended at this step */
  int capped;         /* 1 when the query was less accurate than its options asked */
} vxc_pair_wrench;

/* Creates a pair of solids a and b (borrowed: they must outlive the pair) with the contact
 * parameters p (copied; prepared here if they are not), the query options opt (copied; NULL:
 * vxc_query_options_default; opt->patches = 1: a contact per patch, see above) and `slots`
 * state slots (most contacts at once, >= 1). `al` may be NULL (malloc). Every state starts reset.
 * Returns VXC_OK with *out set (free with vxc_pair_free); VXC_ERR_ARG (a NULL solid, p or
 * out, slots < 1, parameters vxc_params_prepare refuses: the message names them),
 * VXC_ERR_NOMEM. *out untouched on error. */
VXC_API vxc_status vxc_pair_create(const vxc_solid *a, const vxc_solid *b, const vxc_params *p,
                                   const vxc_query_options *opt, int slots, const vxc_allocator *al,
                                   vxc_pair **out, vxc_error *err);

/* Frees a pair; NULL is a no-op. */
VXC_API void vxc_pair_free(vxc_pair *pr);

/* One step (see the top of this header): A at pose_a moving as motion_a, B at pose_b moving
 * as motion_b (motion->r is the point torques are taken about; vxc_body_motion_from_pose
 * builds it), dt >= 0 the time the states are advanced by (s; 0: evaluate only, the states
 * are only tracked). Fills *out.
 * Returns VXC_OK (also when the bodies are apart: a zero wrench, every state reset);
 * VXC_ERR_ARG (a NULL input, a bad pose, dt < 0 or not finite); VXC_ERR_LIMIT (more contacts
 * than slots: create the pair with more; nothing changed); VXC_ERR_NUMERIC
 * (a non-finite motion: nothing changed; a force model that failed or a state that became
 * non-finite: the tracker has moved on, so free the pair or go on from a new state);
 * VXC_ERR_NOMEM and the query's errors (nothing changed). *out is untouched on error. */
VXC_API vxc_status vxc_pair_step(vxc_pair *pr, const vxc_pose *pose_a,
                                 const vxc_body_motion *motion_a, const vxc_pose *pose_b,
                                 const vxc_body_motion *motion_b, double dt, vxc_pair_wrench *out,
                                 vxc_error *err);

/* The metrics of the last step's query (owned by the pair, valid until its next step or its
 * free; npair 0 before the first step or when the bodies were apart). NULL for a NULL pair. */
VXC_API const vxc_metrics *vxc_pair_last_metrics(const vxc_pair *pr);

/* One contact of the last step. */
typedef struct vxc_pair_contact {
  int cell_a, cell_b;        /* its cell pair (indices in the solids' cell lists) */
  int pair;                  /* that pair's index in vxc_pair_last_metrics()->pair */
  int patch;                 /* its patch in that pair's list; -1: the whole pair (no patches) */
  int slot;                  /* its state slot (vxc_pair_state); -1: untracked */
  vxc_contact_geometry geom; /* V (m^3), p_c (world, m), J about p_c (m^5), n (A toward B) */
  vxc_wrench wrench;         /* its forces and torques at the last step (torques about the
                                motions' reference points) */
} vxc_pair_contact;

/* The number of contacts of the last step (0 before the first, when apart, or for a NULL
 * pair). */
VXC_API int vxc_pair_contact_count(const vxc_pair *pr);

/* Contact i (0 <= i < vxc_pair_contact_count) of the last step into *out. Returns VXC_OK, or
 * VXC_ERR_ARG (a NULL pair or out, i out of range; *out untouched). */
VXC_API vxc_status vxc_pair_contact_get(const vxc_pair *pr, int i, vxc_pair_contact *out);

/* The contact state of slot `slot` (VXC_STATE_SIZE doubles, layout in vxc_force.h; all zero
 * while the slot is free), owned by the pair and valid until its free. NULL for a NULL pair
 * or a slot out of range. */
VXC_API const double *vxc_pair_state(const vxc_pair *pr, int slot);

#ifdef __cplusplus
}
#endif

#endif /* VXC_PAIR_H */
