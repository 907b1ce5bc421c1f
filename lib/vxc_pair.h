/* vxc_pair.h: one contact between two solids for an external simulator (included by
 * <vxc/vxc.h>): from the two bodies' poses and velocities to the wrench on each, in one call
 * a step, with the cell-pair tracker and the contact states kept inside.
 *
 * What a step does (the task runner drives its contacts the same way, lib/README.md
 * section 11): the contact metrics of the two solids at their poses (each pair's previous
 * normal as the normal's guess); the tracker update (a lost cell pair's state is reset, a
 * new one's started from the approach speed, an ongoing one's bristle re-projected on the
 * new contact plane); the volumetric force model on every tracked pair; the wrenches summed;
 * then, when dt > 0, the states advanced by dt by the linearly implicit (backward) Euler rule
 * of vxc_pair_advance at the step's motions (stable at any dt; the simulator integrates the
 * bodies).
 *
 * Stable coupling at a simulator's step (lib/README.md section 16): step with dt = 0, take
 * the wrench's derivatives over the step (vxc_pair_jacobian), solve the bodies' velocity
 * change under the damped, stiff contact force with their mass matrices
 * (vxc_implicit_step), apply the wrench it returns over the step, and advance the states at
 * the step's end velocities (vxc_pair_advance).
 *
 * Contact patches: with query options whose `patches` is 1 (the default), a pair splits each cell
 * pair's interference into its connected parts (vxc_patch) and makes each part a contact of
 * its own: its own V, p_c, J and normal, its own force and torque from the model, its own
 * state slot (bristles, dwell, impact memory); the wrench is the sum over the contacts. The
 * tracker keys a contact by (cell pair, patch) and follows the patches of a cell pair from
 * step to step nearest centroid first (vxc_tracker_update_keys): a patch that appears starts
 * a fresh state, one that vanishes is reset. This lets one concave cell (a mesh of a whole
 * part) touch its partner in several places. With `patches` 0 each cell pair is one contact.
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
 * VXC_ERR_NUMERIC (a non-finite input); *out untouched on error, err (may be NULL) naming
 * the argument. */
VXC_API vxc_status vxc_body_motion_from_pose(const vxc_pose *pose, const double ref[3],
                                             const double at[3], const double v_at[3],
                                             const double w[3], vxc_body_motion *out,
                                             vxc_error *err);

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
 * vxc_query_options_default; opt->patches = 1, the default: a contact per patch, see above; 0: one
 * per cell pair) and `slots`
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
 * free; npair 0 before the first step or when the bodies were apart). NULL for a NULL pair.
 * Its penetration fields are the bracket from the cells' hulls and the region alone: no
 * segment through two convex cells, and for a pair measured by the rod-in-bore quadrature a
 * bracket as wide as its cells' boxes' overlap (vxc_query_run gives the tight ones); with a
 * fixed leaf (options rtol 0, voxel > 0) its volume bracket (volume_lo, volume_hi) is the
 * leaves' planar one, wider than vxc_query_run's third-order one where that applies (still
 * certified; every other figure the same); apart, its distance is NaN (distance_exact 0):
 * a step reads none, so none is computed (the exact distance of two meshes is a search over
 * their triangle pairs). */
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
 * VXC_ERR_ARG (a NULL pair or out, i out of range; *out untouched, err (may be NULL) naming
 * the argument). */
VXC_API vxc_status vxc_pair_contact_get(const vxc_pair *pr, int i, vxc_pair_contact *out,
                                        vxc_error *err);

/* The contact state of slot `slot` (VXC_STATE_SIZE doubles, layout in vxc_force.h; all zero
 * while the slot is free), owned by the pair and valid until its free. NULL for a NULL pair
 * or a slot out of range. */
VXC_API const double *vxc_pair_state(const vxc_pair *pr, int slot);

/* ---- derivatives and the implicit step (lib/README.md section 16) --------------------- */

/* The twists are ordered t = (v_a, w_a, v_b, w_b): each body's velocity of its reference point
 * motion->r and its angular velocity (world, m/s and rad/s) as given to the last step; a
 * wrench W = (force_a, torque_a, force_b, torque_b) as in vxc_pair_wrench; a pose change
 * is a small displacement of the reference point and a small rotation (world, m and rad),
 * ordered as the twists. Matrices are 12 x 12, row-major: entry [12 i + j] = dW_i / dx_j. */
/* One contact's tangential friction over a step (vxc_pair_jacobian's `friction`), which
 * vxc_implicit_step takes sticking or sliding: the bristle kernel's sticking law at the
 * step's end, F = -f_n (sigma0 (z + h v_t) + (sigma1 + sigma2) v_t) (z the bristle in the
 * contact plane, v_t the slip at the step's end, f_n at the step's start), while it stays
 * within mu_static f_n, else mu_slide f_n along that F's direction (f_n at the step's end). */
typedef struct vxc_contact_friction {
  double g[36];         /* dv_c/dt (3 x 12, row-major): the velocity of A relative to B at the
                           contact's centroid p_c for the twists t; its transpose maps a force
                           on A at p_c to a wrench W (vxc_pair_jacobian's order) */
  double stick[3];      /* F if the twists stay (N, world, on A at p_c; in the contact plane) */
  double stick_row[36]; /* dF/dt (3 x 12): -f_n (sigma0 h + sigma1 + sigma2) T g, N s/m */
  double fn, fn_row[12], fn_pose, fn_row_pose[12]; /* its normal force over the step (N), as
                                                      the pair's fn_step and rows below */
  double mu_static, mu_slide; /* mu_s C_vs and mu_c C_vs: the coefficients that bound F and
                                 that a sliding contact gives (C_vs the model's Contensou
                                 factor at the step's start, 1 without spin) */
} vxc_contact_friction;

typedef struct vxc_pair_jacobian {
  double wrench[12];   /* W of the last step (N, N m) */
  double d_twist[144]; /* dW/dt at fixed poses and states, in closed form
                          (vxc_contact_jacobian): the hysteretic damping k_v a V n n^T, the
                          volumetric rolling damping -k_v a T J T, the bristle, viscous and
                          spinning damping and the rate-independent rolling (a friction law
                          of the library by central differences) */
  double d_pose[144];  /* dW/d(pose change) at fixed twists and states: the stiffness of the
                          volume, dV = A n.dx_c (A the contact's area, dx_c the relative
                          displacement at p_c), on every term proportional to f_n; the
                          turning of n and the motion of p_c are left out */
  /* over a step of length h (vxc_pair_jacobian's argument) with the states advancing by the
   * linearly implicit rule of vxc_pair_advance and the poses by h times the end twists.
   * When nfriction > 0 the four step terms below leave out the contacts' tangential friction
   * force (their normal force and torques stay): `friction` holds it per contact. */
  double step_wrench[12]; /* the wrench if the twists stay: W + the states' own drift +
                             h d_pose t */
  double step_twist[144]; /* its derivative with respect to the twists' change over the step:
                             d_twist + the states' (bristles') stiffness over h + h d_pose */
  double pose_wrench[12]; /* h d_pose t, the poses' part of step_wrench (vxc_implicit_step
                             weighs it, and pose_twist in step_twist, by theta) */
  double pose_twist[144]; /* h d_pose, the poses' part of step_twist */
  double fn_step;         /* the normal force summed over the contacts, N, for the twists'
                             change dt: fn_step + fn_row . dt (below 0: the contact opens) */
  double fn_row[12];
  double fn_pose, fn_row_pose[12]; /* their parts from the poses (h d_pose) */
  int nfriction; /* the contacts with a friction record: all of them with the bristle kernel
                    (friction_law 0), else 0 (the friction stays in the step terms) */
  const vxc_contact_friction *friction; /* nfriction records, owned by the pair, valid until
                                           its next step or free; NULL when nfriction is 0 */
} vxc_pair_jacobian;

/* The derivatives of the last step's wrench at its geometry and motions and the states as the
 * pair holds them (a step with dt > 0 has already advanced them: take the step with dt = 0),
 * and their linearisation over a step of length h >= 0 (s). Fills *out (all zero when the
 * last step had no contact). Returns VXC_OK; VXC_ERR_ARG (a NULL pair or out, no
 * step taken yet, h negative or not finite); VXC_ERR_NUMERIC (a force model evaluation that
 * failed, or a non-finite result; *out untouched). */
VXC_API vxc_status vxc_pair_jacobian_get(const vxc_pair *pr, double h, vxc_pair_jacobian *out,
                                         vxc_error *err);

/* Advances the states of the last step's contacts by h >= 0 (s) with A and B moving as
 * motion_a, motion_b (the twists at the step's end; the reference points as at the step):
 * the backward Euler rule linearised in the states, (I - h ds'/ds) (s+ - s) = h s'(s, u+),
 * with ds'/ds in closed form (the bristle, dwell, relaxation and rolling states; u+ the
 * relative motion at p_c). Stable at any h: a sticking bristle follows the slip, a sliding one
 * relaxes toward its Coulomb deflection without overshoot. Call once after a step with
 * dt = 0. Returns VXC_OK; VXC_ERR_ARG (a NULL input, h negative or not finite, no step taken);
 * VXC_ERR_NUMERIC (a non-finite motion or result: the states are left as they were). */
VXC_API vxc_status vxc_pair_advance(vxc_pair *pr, const vxc_body_motion *motion_a,
                                    const vxc_body_motion *motion_b, double h, vxc_error *err);

/* One pair in an implicit step: its linearisation and the indices of its bodies. */
typedef struct vxc_implicit_pair {
  const vxc_pair_jacobian *jac; /* from vxc_pair_jacobian_get with the step's h */
  int body_a, body_b; /* indices of A and B among the step's bodies; -1: a body the step does
                         not move (the world, a fixed or driven body) */
  double wrench[12];  /* out: the pair's wrench over the step (W as above), N and N m */
  int open;           /* out: 1 when its normal force would pull, so it gives no force */
  double theta;       /* out: the weight of its pose stiffness (see vxc_implicit_step) */
  int sliding;        /* out: its friction records (jac->friction) that slide over the step */
} vxc_implicit_pair;

/* The linearly implicit contact wrench over a step of length h > 0 (s) of nbody bodies whose
 * twists (6 each, ordered as above) have the inverse mass matrix minv (6 nbody square,
 * row-major, in twist coordinates: J M^-1 J^T for a simulator's generalised mass matrix M
 * and twist Jacobian J) and accelerate as a_free (6 nbody: every force but these contacts'):
 * solves (I - h minv K) dt = h (a_free + minv W_s) for the twists' change dt with K and W_s
 * the pairs' step_twist and step_wrench summed at their bodies, each pair's pose stiffness
 * (pose_twist, pose_wrench) weighed by theta = max(0, 1/2 - 1 / (omega h)^2), omega^2 = trace(-minv d_pose)
 * over its bodies: 0 (the simulator's semi-implicit Euler on the contact's stiffness,
 * symplectic, no numerical damping of a bounce) while omega h <= 1, rising to 1/2 (stable at
 * any step) beyond. Each friction record (vxc_contact_friction) adds its sticking force
 * G^T (stick + stick_row dt) to W_s and K. Then it drops every pair whose normal force over
 * the step would be negative, and turns every sticking record whose force would exceed
 * mu_static times its normal force (both at dt) to sliding: mu_slide times its normal force
 * at dt, along the direction the sticking force had; and solves again, until neither
 * changes (a record never returns to sticking within a step, so at most npair + the records
 * solves). A sliding contact thus gets Coulomb's force at once, where the linearised
 * bristle, flat along the slip once saturated, would let the slip reverse every step.
 * Writes the wrench per body (w_out, 6 nbody: force then torque, to apply over the step), dt
 * (dt_out, may be NULL) and each pair's wrench, open flag and sliding count. `al` may be NULL (malloc). Returns VXC_OK; VXC_ERR_ARG
 * (a NULL input, nbody < 1, npair < 0, a body index out of range, h not positive);
 * VXC_ERR_NUMERIC (a singular system or a non-finite result); VXC_ERR_NOMEM. */
VXC_API vxc_status vxc_implicit_step(int nbody, const double *minv, const double *a_free, double h,
                                     int npair, vxc_implicit_pair *pairs, double *w_out,
                                     double *dt_out, const vxc_allocator *al, vxc_error *err);

/* 1 when the last step's contact is an impact the step h (s) cannot follow in one
 * linearisation, so vxc_pair_substep should take it: a contact the step found new; one the
 * step moves by more than half its depth scale V / A (|v_cn| h > 0.5 V / A); or one whose
 * period is short (omega h > 1, omega^2 = trace(-minv J->d_pose), minv as for
 * vxc_pair_substep) or one vxc_pair_substep took since it closed (the whole impact), while
 * the step moves it by more than 1% of V / A (a resting contact stays with vxc_implicit_step). 0
 * otherwise, and for a NULL input. */
VXC_API int vxc_pair_impact(const vxc_pair *pr, const vxc_pair_jacobian *J, const double minv[144],
                            double h);

/* What vxc_pair_substep gives. */
typedef struct vxc_substep_result {
  double wrench[12]; /* the contact's impulse over the sub-steps divided by h (W as above):
                        applied over the step, it gives the bodies the sub-steps' velocity
                        change */
  vxc_pose pose[2];  /* A's and B's poses at the step's end */
  double twist[12];  /* their twists at the step's end (v, w of each reference point) */
  double back;       /* s the bodies were moved back to where a late-found contact began */
  int substeps;      /* sub-steps taken */
  double work;       /* work of the contact wrench on the bodies over the sub-steps, J */
  double elastic;    /* elastic work k_v V_r dx over them (dx each contact's normal
                        displacement), J */
} vxc_substep_result;

/* An impact shorter than the simulator's step h > 0 (s), resolved in sub-steps of the pair's
 * own bodies: from A at pose_a moving as motion_a and B at pose_b, motion_b (as for
 * vxc_pair_step), with their inverse mass matrix minv (12 x 12 in the twists t = (v_a, w_a,
 * v_b, w_b); a body the simulator does not move has zero rows and columns) and free
 * accelerations a_free (12), held over the step. A contact the caller's last step (or this
 * call's first) found new and overlapping is first moved back along the twists to where it
 * began (the fixed step found it late, as deep as h times the approach speed); then
 * sub-steps of at most h, 0.05 / omega (omega^2 = trace(-minv d_pose)) and the time the
 * contact's depth V / A takes to change by a fifth (growing at most twofold from one to the
 * next, a new contact's from h / 8) follow the leapfrog to the step's end (a half kick, drifts that move the poses and
 * advance the states, kicks of the drifts' mean lengths between them, a closing half kick;
 * each kick steps the pair and solves vxc_implicit_step, the wrench at the kick's mean
 * twist, the closing one's at its end). The simulator applies out->wrench over its step, so
 * its bodies end with the sub-steps' twists; its semi-implicit Euler moves them by h times
 * those twists, not
 * along the sub-steps' path: out->pose is where they should be (a simulator that can set
 * positions sets them). Returns VXC_OK; VXC_ERR_ARG (a NULL input, h not positive);
 * VXC_ERR_LIMIT (more than 4096 sub-steps); the errors of vxc_pair_step,
 * vxc_pair_jacobian_get, vxc_implicit_step and vxc_pair_advance (the pair's states as the
 * failing sub-step left them). *out is untouched on error. */
VXC_API vxc_status vxc_pair_substep(vxc_pair *pr, const vxc_pose *pose_a,
                                    const vxc_body_motion *motion_a, const vxc_pose *pose_b,
                                    const vxc_body_motion *motion_b, const double minv[144],
                                    const double a_free[12], double h, vxc_substep_result *out,
                                    vxc_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VXC_PAIR_H */
