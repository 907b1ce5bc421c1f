/* series.h: the time series a run writes (DIR/series.csv), shared by `vxc task` and
 * vxc-mujoco so that their columns, and the plots and checks that read them, are the same.
 *
 * Columns: t; per body BODY.x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz (the model-frame origin's
 * pose and velocity, world); per contact A~B.V,fn,ft,troll,tspin; then per contact
 * A~B.nx,ny,nz,Fx,Fy,Fz,Tx,Ty,Tz,stick,sdw,npairs; then, when the run keeps an energy budget,
 * E.kinetic,potential,elastic,dissipated,work_in,error (README, Task files). */
#ifndef VXC_TOOLS_SERIES_H
#define VXC_TOOLS_SERIES_H

#include <stdio.h>

#include "lib/vxc.h"

typedef struct series_layout {
  int nbody;
  const char *const *body; /* body names */
  int ncontact;
  const int *pair; /* contact i is between bodies pair[2i] (A) and pair[2i + 1] (B) */
  int energy;      /* 1: the E.* columns */
} series_layout;

/* Writes the header line. */
void series_header(FILE *f, const series_layout *l);

/* Writes one row (r's bodies and contacts in the layout's order). Returns 0, or -1 when the
 * write or its flush failed (errno set). */
int series_row(FILE *f, const series_layout *l, const vxc_task_record *r);

/* summary.json's shared parts: `"bodies": {NAME: {"pose": [7], "velocity": [6]}, ...}` with
 * the final body states, and one contact's `"A~B": {"first": .., "last": .., "peak_fn": ..,
 * "peak_ft": .., "peak_troll": .., "peak_tspin": .., "impacts": N` left open for the
 * caller's further keys and its closing brace. */
void series_json_bodies(FILE *f, const series_layout *l, const vxc_task_body_state *b);
void series_json_contact(FILE *f, const series_layout *l, int i, const vxc_task_contact_summary *c);

#endif /* VXC_TOOLS_SERIES_H */
