/* schedule.c: the actuators' controls from a timeline of keyframes (schedule.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/mujoco/schedule.h"

int schedule_load(const mjModel *m, const char *prefix, bridge_schedule *s, char *msg,
                  size_t size) {
  size_t len = strlen(prefix);
  memset(s, 0, sizeof *s);
  if (m->nu == 0) {
    snprintf(msg, size, "--schedule: the model has no actuators");
    return -1;
  }
  s->key = malloc((size_t)(m->nkey > 0 ? m->nkey : 1) * sizeof *s->key);
  if (!s->key) {
    snprintf(msg, size, "out of memory");
    return -1;
  }
  for (int k = 0; k < m->nkey; k++) {
    const char *name = mj_id2name(m, mjOBJ_KEY, k);
    if (!name || strncmp(name, prefix, len) != 0) {
      continue;
    }
    int i = s->n++; /* insertion by time: the keyframes are few */
    for (; i > 0 && m->key_time[s->key[i - 1]] > m->key_time[k]; i--) {
      s->key[i] = s->key[i - 1];
    }
    s->key[i] = k;
    if (i > 0 && m->key_time[s->key[i - 1]] == m->key_time[k]) {
      snprintf(msg, size, "--schedule: keyframes '%s' and '%s' have the same time, %g s",
               mj_id2name(m, mjOBJ_KEY, s->key[i - 1]), name, m->key_time[k]);
      schedule_free(s);
      return -1;
    }
  }
  if (s->n == 0) {
    snprintf(msg, size, "--schedule: the model has no keyframe named '%s...' (%d keyframes)",
             prefix, m->nkey);
    schedule_free(s);
    return -1;
  }
  return 0;
}


void schedule_ctrl(const bridge_schedule *s, const mjModel *m, double t, mjtNum *ctrl) {
  if (s->n == 0) {
    return;
  }
  int i = 0; /* the last keyframe at or before t (or the first) */
  while (i + 1 < s->n && m->key_time[s->key[i + 1]] <= t) {
    i++;
  }
  const mjtNum *c0 = m->key_ctrl + (size_t)m->nu * s->key[i];
  double t0 = m->key_time[s->key[i]];
  if (i + 1 == s->n || t <= t0) {
    memcpy(ctrl, c0, (size_t)m->nu * sizeof *ctrl);
    return;
  }
  const mjtNum *c1 = m->key_ctrl + (size_t)m->nu * s->key[i + 1];
  double f = (t - t0) / (m->key_time[s->key[i + 1]] - t0);
  for (int j = 0; j < m->nu; j++) {
    ctrl[j] = c0[j] + f * (c1[j] - c0[j]);
  }
}


void schedule_free(bridge_schedule *s) {
  free(s->key);
  memset(s, 0, sizeof *s);
}
