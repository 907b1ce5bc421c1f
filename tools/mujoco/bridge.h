/* bridge.h: vxc contact inside MuJoCo (tools/vxc-mujoco): an MJCF model whose named body pairs
 * touch through vxc's volumetric contact instead of MuJoCo's own.
 *
 * Data: a bridge holds MuJoCo's model and data, and per contact the two body ids, their vxc
 * solids (each placed in its body's frame) and a vxc_pair. Every step: mj_step1 (positions,
 * velocities, MuJoCo's own collisions without the pairs', excluded by a contact filter), then
 * each pair's vxc_pair_step from the bodies' poses and centre-of-mass velocities and its
 * Jacobians over the step; the contact wrenches over the step from the bodies' mass matrix
 * (implicit.c: vxc_implicit_step with J M^-1 J^T), into xfrc_applied (force and torque at
 * the centre of mass); mj_step2; the pairs' states advanced at the step's end velocities;
 * the energy account (energy.c); qvel runs half a step behind qpos (staggered.c). With
 * `explicit_coupling` the step's own wrench is applied instead (the coupling before
 * vxc_implicit_step, for comparison). With `native` set, no vxc: MuJoCo's own contact
 * everywhere, and the records' contact columns read MuJoCo's contact forces between the
 * pair's geoms. */
#ifndef VXC_MUJOCO_BRIDGE_H
#define VXC_MUJOCO_BRIDGE_H

#include <mujoco/mujoco.h>
#include <time.h>

#include "lib/vxc.h"
#include "tools/mujoco/schedule.h"

#define BRIDGE_MAX_CONTACTS 16

typedef struct bridge_contact {
  int body[2];         /* MuJoCo body ids of A and B */
  vxc_solid *solid[2]; /* vxc models, in the bodies' frames */
  vxc_pair *pair;
  vxc_params params;     /* prepared */
  vxc_pair_wrench w;     /* the last step's, at its start */
  vxc_pair_jacobian jac; /* its derivatives over the step */
  const vxc_body_motion *mo[2]; /* the bodies' motions at the step's start (the bridge's mo) */
  double applied[12];    /* the wrench applied over the step (A, then B) */
  double m12[144], a12[12]; /* its bodies' block of J M^-1 J^T and free accelerations at the
                               step's start (implicit.c; a fixed body's rows nil) */
  long long m12_at;         /* the bridge_implicit_prepare call m12 was copied after */
  const vxc_pose *pose[2]; /* A's and B's poses at the step's start (the bridge's pose) */
  int sub;               /* 1: this step's impact taken in sub-steps (sr) */
  vxc_substep_result sr;
  double half[12];       /* with sub-steps: the half steps' wrench (staggered.c) */
  double f_end[12];      /* the wrench where the last sub-steps ended (staggered.c) */
  int was_sub;           /* 1: the last step was in sub-steps */
  double held;                  /* elastic work since the contact closed, J (0 while open) */
  vxc_task_contact_state state; /* the last step's, as `vxc task` records it */
  vxc_task_contact_summary sum;
} bridge_contact;

typedef struct bridge {
  mjModel *m;
  mjData *d;
  int native;
  int ncontact;
  bridge_contact c[BRIDGE_MAX_CONTACTS];
  int nbody; /* the bodies of the contacts, each once: the records' bodies */
  int body[2 * BRIDGE_MAX_CONTACTS];
  const char *name[2 * BRIDGE_MAX_CONTACTS];
  int pair_index[2 * BRIDGE_MAX_CONTACTS]; /* contact i: bodies pair_index[2i], [2i + 1] */
  vxc_task_body_state bs[2 * BRIDGE_MAX_CONTACTS];
  /* per record body: its pose and motion at the step's start (each body once a step, for
   * the records and every contact that touches it), and after bridge_implicit_end its twist's
   * change over the step (bridge_twist's at 1 less at 0) */
  vxc_pose pose[2 * BRIDGE_MAX_CONTACTS];
  vxc_body_motion mo[2 * BRIDGE_MAX_CONTACTS];
  double dtwist[2 * BRIDGE_MAX_CONTACTS][6];
  /* after bridge_implicit_end: its motion at the step's middle (mo plus half its twist's
   * change) and end (mo plus the change), for the energy account and the states' advance */
  vxc_body_motion mid[2 * BRIDGE_MAX_CONTACTS], end[2 * BRIDGE_MAX_CONTACTS];
  int half; /* 1: the step's records take its mean velocities (staggered.c) */
  int posed; /* 1 once pose and mo are set (a body welded to the world keeps its) */
  long long steps, queries, capped;
  /* summed over the steps, ns: the whole step; every vxc call in it (the contacts' queries and
   * Jacobians at its start, the test for sub-steps and the impacts' sub-steps, the implicit
   * step, the states' advance); MuJoCo's mj_step1 and mj_step2; and, s, the queries at its
   * start alone */
  long long wall_step, wall_vxc, wall_mujoco;
  double wall_query;
  int explicit_coupling;                  /* 1: the step-start wrench, not the implicit one */
  int staggered;                          /* 1: qvel set back by h / 2 of qacc (staggered.c) */
  /* the implicit step (implicit.c): per body its twist index (-1: fixed), the twist
   * Jacobian J (6 ntw x nv: moving body k's six rows at J + 6 k nv by dof, its row r at dof
   * j at [6 j + r]), M^-1 J^T (MJ, laid out as J), J M^-1 J^T, the free accelerations, the wrenches
   * and the twists' change, qvel at the step's start; Mh: M + h B factored (nv x nv), the
   * mass matrix of MuJoCo's Euler step, which takes the joints' damping B implicitly
   * (damped 1, from the model at bridge_implicit_init; MJ then holds L^-1 J^T, Mh = L L^T) */
  int tw[2 * BRIDGE_MAX_CONTACTS], ntw, damped;
  double *J, *MJ, *minv, *afree, *wout, *dtw, *qvel0, *scratch, *Mh;
  double *corr; /* bridge_implicit_correct's system (n x n) and its qvel change (nv) */
  /* per moving body k: the dofs that move it (its chain's) lie in [dof0[k], dof1[k]) (J's
   * rows of body k are nil outside), its kinematic tree's root body (J M^-1 J^T is nil
   * between bodies of different trees) and its tree's dofs' range [tree0[k], tree1[k])
   * (M^-1 J^T's rows of body k are nil outside) */
  int dof0[2 * BRIDGE_MAX_CONTACTS], dof1[2 * BRIDGE_MAX_CONTACTS], root[2 * BRIDGE_MAX_CONTACTS];
  int tree0[2 * BRIDGE_MAX_CONTACTS], tree1[2 * BRIDGE_MAX_CONTACTS];
  /* per moving body k: the dofs of its chain, from its last dof up through the ancestors
   * (chain[k * nv], nchain[k] of them: the dofs whose J columns are not nil) */
  int *chain, nchain[2 * BRIDGE_MAX_CONTACTS];
  int simple[2 * BRIDGE_MAX_CONTACTS]; /* 1: every dof of its tree simple (M diagonal there) */
  /* without damping (MuJoCo 2.x): tree k's joints' qpos lie in [qpos0[k], qpos1[k]); `qkept`
   * holds qpos (nq) as the last step's J, MJ and J M^-1 J^T were made from it, `fresh` 0 once
   * they have been: a tree whose qpos is bitwise the last step's keeps its bodies' J and MJ
   * rows and its blocks of J M^-1 J^T (all functions of that qpos) */
  int qpos0[2 * BRIDGE_MAX_CONTACTS], qpos1[2 * BRIDGE_MAX_CONTACTS], fresh;
  double *qkept;
  double *fkept; /* the generalised forces (nv) the last step's free accelerations took */
  /* bridge_implicit_prepare's calls, and per moving body the call that last made its blocks
   * of J M^-1 J^T (a contact's m12 is copied again when one is newer than its m12_at) */
  long long prepared, made[2 * BRIDGE_MAX_CONTACTS];
  /* the energy account (energy.c) */
  vxc_task_energy e;
  double e0, p0, k0, escale, energy_tol, max_error, max_created;
  double pmin, wpos, eref; /* lowest potential, positive work of the other forces, reference */
  int energy_set, energy_failed;
  bridge_schedule sched; /* the actuators' controls over time (--schedule; n 0: none) */
} bridge;

/* Loads the MJCF file; 0, or -1 with a message in msg. */
int bridge_load(bridge *br, const char *xml, int native, char *msg, size_t size);

/* Adds a contact between bodies `a` and `b` (names) with models a_vxm, b_vxm, parameters p
 * and query options o. 0; -1 with a message when the names are wrong (no such body, the
 * same twice, too many contacts); -2 with a message when a model file or the pair fails. */
int bridge_add_contact(bridge *br, const char *a, const char *a_vxm, const char *b,
                       const char *b_vxm, const vxc_params *p, const vxc_query_options *o,
                       int slots, char *msg, size_t size);

/* Records every body of the model but the world (up to 2 x BRIDGE_MAX_CONTACTS): a native run
 * without contacts. */
void bridge_record_all(bridge *br);

/* Resets to keyframe `key` (a name or an index; NULL: the model's initial state). 0, or -1
 * with a message. */
int bridge_reset(bridge *br, const char *key, char *msg, size_t size);

/* One MuJoCo step with the vxc contacts, ctrl first set from the schedule (advance 0: the
 * forces and records of the present state only, nothing integrated, no contact state
 * advanced). Fills the records' states (each contact's state, the energy account br->e, and
 * when `record` is set or the step fails, the bodies' br->bs) at the step's start. 0; -1 with
 * a message (a vxc or MuJoCo error); -2 with a message when the energy account shows energy
 * created at the step's start (the step still taken). */
int bridge_step(bridge *br, int advance, int record, char *msg, size_t size);

/* implicit.c: the workspace of the implicit step (0, or -1 with a message: memory); the
 * bodies' twist Jacobian, M^-1 J^T, J M^-1 J^T and free accelerations at the present state
 * (after mj_step1); the contacts' wrenches over the step of length h into xfrc_applied (0,
 * or -1 with a message); after mj_step2, the twists' change over the step (end), then each
 * pair's states advanced at the end velocities (0, or -1 with a message). */
int bridge_implicit_init(bridge *br, char *msg, size_t size);
void bridge_implicit_prepare(bridge *br);
int bridge_implicit_apply(bridge *br, char *msg, size_t size);
void bridge_implicit_end(bridge *br);
int bridge_implicit_advance(bridge *br, char *msg, size_t size);
/* After mj_step2 and bridge_implicit_end: the bodies of sub-stepped impacts moved to where
 * the sub-steps left them (MuJoCo moved them by h times their end twists), through qpos
 * along M^-1 J^T (mj_integratePos). */
void bridge_implicit_correct(bridge *br);
/* staggered.c: MuJoCo's qvel as the leapfrog's velocity half a step back. At the run's first
 * step (after the contacts' queries): qvel less h / 2 of MuJoCo's acceleration on the dofs
 * of bodies no vxc contact touches, the step's twists made again. Contact c's motions for
 * vxc_pair_substep (at the step's start: h / 2 on); after it, c->half (its wrench at the
 * step's start less the sub-steps' end's, halved; 0, or -1 with a message). (The records'
 * velocities are made the step's mean by bridge_step.) */
void bridge_stagger(bridge *br);
void bridge_substep_motion(const bridge *br, const bridge_contact *c, const double m12[144],
                           const double a12[12], vxc_body_motion mo[2]);
int bridge_substep_end(bridge *br, bridge_contact *c, char *msg, size_t size);
/* The twist (v, w at the centre of mass, world) of record body i at the step's start plus
 * `frac` of its change over the step. */
void bridge_twist(const bridge *br, int i, double frac, double t[6]);

/* energy.c: the energy account of the coupled bodies (lib/README.md section 12's budget: K +
 * P + E + D - W constant): kinetic energy of the whole model, gravity's potential of its
 * bodies, the vxc contacts' elastic work and dissipation from the model at each step's mean
 * velocities, the work of every other force (actuators, passive forces, MuJoCo's constraints
 * and applied forces). bridge_energy_step adds one step's integrals (after mj_step2);
 * bridge_energy_check fills br->e at the step's start (after mj_step1, or after mj_step2 before
 * bridge_energy_step), its kinetic energy at qvel then, or with `mid` at the step's mean qvel
 * (the leapfrog's velocity at the positions' time, staggered.c), and returns 0, or -1
 * (energy created) when, against the energy the bodies could have had, br->eref (the kinetic
 * energy at the start, plus the potential energy released down to the lowest seen, plus the
 * positive work of the other forces: no term the contacts' own work inflates), either K + P - W
 * exceeds its start by more than the elastic energy the contacts hold plus energy_tol of
 * eref, or the budget's error passes BRIDGE_BALANCE_FACTOR x energy_tol of eref. */
#define BRIDGE_BALANCE_FACTOR 10.0
void bridge_energy_step(bridge *br);
int bridge_energy_check(bridge *br, int mid);

/* A monotonic clock, ns (the steps' timings). */
static inline long long bridge_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Frees everything. */
void bridge_free(bridge *br);

#endif /* VXC_MUJOCO_BRIDGE_H */
