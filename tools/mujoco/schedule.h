/* schedule.h: an actuation schedule from the model's own keyframes (vxc-mujoco --schedule
 * PREFIX). The keyframes whose names begin with PREFIX, ordered by their `time` attribute,
 * are a timeline of the actuators' controls: at time t, ctrl is interpolated linearly
 * between the two keyframes on either side of t, and held at the first before it and at the
 * last after it. Their qpos, qvel and act are not used (a keyframe of the timeline may also
 * be the run's start, --key). */
#ifndef VXC_MUJOCO_SCHEDULE_H
#define VXC_MUJOCO_SCHEDULE_H

#include <stddef.h>

#include <mujoco/mujoco.h>

typedef struct bridge_schedule {
  int n;    /* keyframes on the timeline (0: no schedule) */
  int *key; /* their ids, by increasing time */
} bridge_schedule;

/* The keyframes of model m named PREFIX... into s (s->key allocated; schedule_free). 0, or -1
 * with a message in msg: no actuators, no such keyframe, two at the same time, memory. */
int schedule_load(const mjModel *m, const char *prefix, bridge_schedule *s, char *msg,
                  size_t size);

/* ctrl (m->nu values) at time t (s): nothing when the schedule is empty. */
void schedule_ctrl(const bridge_schedule *s, const mjModel *m, double t, mjtNum *ctrl);

void schedule_free(bridge_schedule *s);

#endif /* VXC_MUJOCO_SCHEDULE_H */
