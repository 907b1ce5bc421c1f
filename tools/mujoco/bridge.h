/* bridge.h: vxc contact inside MuJoCo (tools/vxc-mujoco): an MJCF model whose named body pairs
 * touch through vxc's volumetric contact instead of MuJoCo's own.
 *
 * Data: a bridge holds MuJoCo's model and data, and per contact the two body ids, their vxc
 * solids (each placed in its body's frame) and a vxc_pair. Every step: mj_step1 (positions,
 * velocities, MuJoCo's own collisions without the pairs', excluded by a contact filter), then
 * each pair's vxc_pair_step from the bodies' poses and centre-of-mass velocities, the
 * wrenches into xfrc_applied (force and torque at the centre of mass), then mj_step2.
 * With `native` set, no vxc: MuJoCo's own contact everywhere, and the records' contact
 * columns read MuJoCo's contact forces between the pair's geoms. */
#ifndef VXC_MUJOCO_BRIDGE_H
#define VXC_MUJOCO_BRIDGE_H

#include <mujoco/mujoco.h>

#include "lib/vxc.h"

#define BRIDGE_MAX_CONTACTS 16

typedef struct bridge_contact {
  int body[2];         /* MuJoCo body ids of A and B */
  vxc_solid *solid[2]; /* vxc models, in the bodies' frames */
  vxc_pair *pair;
  vxc_pair_wrench w;            /* the last step's */
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
  long long steps, queries, capped;
  double wall_step, wall_vxc, wall_query; /* s summed over the steps */
} bridge;

/* Loads the MJCF file; 0, or -1 with a message in msg. */
int bridge_load(bridge *br, const char *xml, int native, char *msg, size_t size);

/* Adds a contact between bodies `a` and `b` (names) with models a_vxm, b_vxm, parameters p
 * and query options o. 0; -1 with a message when the names are wrong (no such body, the
 * same twice, too many contacts); -2 with a message when a model file or the pair fails. */
int bridge_add_contact(bridge *br, const char *a, const char *a_vxm, const char *b,
                       const char *b_vxm, const vxc_params *p, const vxc_query_options *o,
                       int slots, char *msg, size_t size);

/* Resets to keyframe `key` (a name or an index; NULL: the model's initial state). 0, or -1
 * with a message. */
int bridge_reset(bridge *br, const char *key, char *msg, size_t size);

/* One MuJoCo step with the vxc contacts (advance 0: the forces and records of the present
 * state only, nothing integrated, no contact state advanced). Fills the records' states
 * (br->bs, each contact's state) at the step's start. 0, or -1 with a message (a vxc
 * error). */
int bridge_step(bridge *br, int advance, char *msg, size_t size);

/* Frees everything. */
void bridge_free(bridge *br);

#endif /* VXC_MUJOCO_BRIDGE_H */
