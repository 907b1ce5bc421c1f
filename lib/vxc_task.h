/* vxc_task.h: task files (.vxt) and their simulation (included by <vxc/vxc.h>).
 *
 * A task names bodies (a model file, a pose, and a motion: fixed, free, or driven along a
 * prescribed trajectory, optionally through a compliant gripper), gravity, the contact
 * parameters per body pair, the integrator, the duration and the record interval. The
 * grammar (its fixed core and the added forms) is in README.md and
 * in lib/task_read.c.
 *
 * Running a task integrates the free bodies' Newton-Euler equations (quaternions) together
 * with every contact state and the energy integrals, with fixed-step RK4 or an adaptive
 * embedded pair (Dormand-Prince 5(4), or Bogacki-Shampine 3(2) with `(method bs3)`, or the
 * Rosenbrock-W method ROS34PW2 with `(method rosw)`: linearly implicit in the bodies' velocities
 * and the contacts' friction states, for sticking contacts; lib/task_rosw.c),
 * locating each first contact of a cell pair (so no energy is
 * created at impact). Cell pairs are tracked per body pair (vxc_tracker, lib/README.md section 11).
 * The library never prints: records and progress go to caller callbacks.
 * Conventions of vxc.h apply (SI units, world frame, statuses, ownership). */
#ifndef VXC_TASK_H
#define VXC_TASK_H

#include "vxc_types.h"
#include "vxc_solid.h"
#include "vxc_query.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A loaded task. Opaque; owns its solids and every array a record or summary points to. */
typedef struct vxc_task vxc_task;

/* Reads the task file `path` and the model files it names (paths relative to the task
 * file's directory). `al` may be NULL (malloc); the file is read through it. Returns VXC_OK
 * with *out set (free with vxc_task_free); VXC_ERR_ARG (NULL path or out, a path of 4096
 * bytes or more), VXC_ERR_IO (the task or a model file cannot be read), VXC_ERR_LIMIT (the
 * task file is larger than 64 MiB: refused, never cut), VXC_ERR_FORMAT (syntax or an unknown or
 * malformed form: err names the task file, line and column), VXC_ERR_GEOMETRY and other statuses of
 * vxc_solid_load (a model file is bad; the message names it and the task line that named it),
 * VXC_ERR_NOMEM. *out is untouched on failure. */
VXC_API vxc_status vxc_task_load(const char *path, const vxc_allocator *al, vxc_task **out,
                                 vxc_error *err);

/* The same for `len` bytes of text. `file` names the text in messages (NULL: "<task>");
 * model paths are relative to `base_dir` (NULL: the current directory). */
VXC_API vxc_status vxc_task_parse(const char *text, size_t len, const char *file,
                                  const char *base_dir, const vxc_allocator *al, vxc_task **out,
                                  vxc_error *err);

/* Frees a task, its solids and its results. NULL is a no-op. */
VXC_API void vxc_task_free(vxc_task *task);

/* ---- what a task holds ------------------------------------------------------------- */

VXC_API const char *vxc_task_name(const vxc_task *task);
VXC_API double vxc_task_duration(const vxc_task *task); /* s */
/* The record interval (record (every T)), s; 0 when the task records every step or task is
 * NULL. */
VXC_API double vxc_task_record_every(const vxc_task *task);
/* Replaces the task's duration (s, finite and > 0: e.g. a shortened run). VXC_ERR_ARG
 * otherwise or for a NULL task (err, may be NULL, naming it). */
VXC_API vxc_status vxc_task_set_duration(vxc_task *task, double duration, vxc_error *err);
/* 0 turns the fast paths (closed forms, quadratures, bore proofs) off for every contact, as
 * (closed-form off) does for one, so that the octree measures everything; 1 leaves each
 * contact as its file says. Returns VXC_OK, VXC_ERR_ARG (task NULL; err, may be NULL, says
 * so). */
VXC_API vxc_status vxc_task_set_closed_form(vxc_task *task, int on, vxc_error *err);

/* Bounds on a run (defaults below): at most max_steps accepted steps and max_records
 * records. A run that would need more is refused before it starts when that can be told
 * from the file (duration / step, duration / every), and stopped when it gets there
 * otherwise; either way vxc_task_run returns VXC_ERR_LIMIT with what was reached. Both
 * >= 1, else VXC_ERR_ARG (also for a NULL task; err, may be NULL, naming it). */
#define VXC_TASK_MAX_STEPS 100000000LL
#define VXC_TASK_MAX_RECORDS 10000000LL
VXC_API vxc_status vxc_task_set_limits(vxc_task *task, long long max_steps, long long max_records,
                                       vxc_error *err);

/* Called after every accepted step of vxc_task_run with the `ud` given here; returning
 * non-zero stops the run at that step: a last record at the time reached goes to the
 * record callback and the run returns VXC_OK with summary->stopped = 1. For a signal
 * handler's flag or a wall-clock limit (a record interval may take long in wall time). fn
 * NULL: none (the default). Returns VXC_OK, VXC_ERR_ARG (task NULL; err, may be NULL, says
 * so). */
typedef int (*vxc_task_poll_fn)(void *ud);
VXC_API vxc_status vxc_task_set_poll(vxc_task *task, vxc_task_poll_fn fn, void *ud,
                                     vxc_error *err);
/* A flag (NULL: none, the default) that another thread or a signal handler may set to end
 * the run within about a millisecond, even inside a slow query (vxc_query_options.stop):
 * the step under way is dropped, and vxc_task_run returns VXC_OK with summary->stopped = 1
 * at the last accepted step (its last record is the last one written before). Takes effect
 * from the next vxc_task_run. Returns VXC_OK, VXC_ERR_ARG (task NULL; err, may be NULL,
 * says so). */
VXC_API vxc_status vxc_task_set_stop(vxc_task *task, const volatile sig_atomic_t *flag,
                                     vxc_error *err);
VXC_API int vxc_task_body_count(const vxc_task *task);
/* Name of body i (owned by the task), NULL for a bad index. */
VXC_API const char *vxc_task_body_name(const vxc_task *task, int i);
/* The model file of body i as resolved against the task file's folder (owned by the
 * task), NULL for a bad index. */
VXC_API const char *vxc_task_body_model(const vxc_task *task, int i);
/* 1 for a free body (its kinetic energy is in the budget), 0 for fixed or driven. */
VXC_API int vxc_task_body_is_free(const vxc_task *task, int i);
/* 1 for a driven body (along keyframes or a line, gripped or not), else 0. */
VXC_API int vxc_task_body_is_driven(const vxc_task *task, int i);
VXC_API int vxc_task_contact_count(const vxc_task *task);
/* Body indices of contact i (A, B); VXC_ERR_ARG for a bad index or a NULL argument (*a and
 * *b untouched, err (may be NULL) naming it). */
VXC_API vxc_status vxc_task_contact_bodies(const vxc_task *task, int i, int *a, int *b,
                                           vxc_error *err);

/* The solid of body i (owned by the task), NULL for a bad index: its model frame is the
 * frame the records' body poses place. */
VXC_API const vxc_solid *vxc_task_body_solid(const vxc_task *task, int i);
/* The query options contact i is measured with ((rtol R), (voxel H), ...) into *out.
 * VXC_ERR_ARG for a bad index or a NULL argument (*out untouched, err (may be NULL) naming
 * it). */
VXC_API vxc_status vxc_task_contact_query(const vxc_task *task, int i, vxc_query_options *out,
                                          vxc_error *err);

/* ---- records ------------------------------------------------------------------------ */

/* One body at a record time: the model-frame origin's pose and velocity (world). */
typedef struct vxc_task_body_state {
  double pose[7];     /* x y z qw qx qy qz (m, unit quaternion) */
  double velocity[6]; /* vx vy vz of the origin (m/s), wx wy wz (rad/s) */
} vxc_task_body_state;

/* One contact (body pair, all its cell pairs together) at a record time. */
typedef struct vxc_task_contact_state {
  int npairs;         /* cell pairs in contact */
  double volume;      /* total V, m^3 */
  double normal[3];   /* normal of the pair with the largest V (A toward B); 0 apart */
  double f_n;         /* |sum of the normal forces|, N */
  double f_n_max;     /* the largest normal force of one of its contacts, N */
  double f_t;         /* |sum of the friction forces|, N */
  double t_roll;      /* |sum of the rolling torques|, N m */
  double t_spin;      /* |sum of the spinning torques|, N m */
  double force_a[3];  /* total contact force on A, N (world) */
  double torque_a[3]; /* total contact torque on A about A's model-frame origin, N m */
  double stick;       /* stick indicator s of the pair with the largest V (1: stuck) */
  double sdw;         /* dwell state s_dw of that pair */
} vxc_task_contact_state;

/* The energy budget (J). kinetic + potential + elastic + dissipated - work_in is constant
 * in exact arithmetic; error is its drift from the initial value. */
typedef struct vxc_task_energy {
  double kinetic;    /* of the free bodies (translation and rotation) */
  double potential;  /* gravity, of the free bodies' centres of mass */
  double elastic;    /* work stored by the contacts' elastic normal force k_v V */
  double dissipated; /* sum of the four terms below */
  double normal;     /* dissipated by the normal damping (hysteresis) */
  double friction;   /* by the tangential friction (bristles included) */
  double rolling;    /* by the rolling resistance */
  double spinning;   /* by the spinning friction */
  double work_in;    /* done on the free bodies by driven bodies and grippers */
  double error;      /* (K + P + E + D - W) - its initial value */
} vxc_task_energy;

typedef struct vxc_task_record {
  double t; /* s */
  int nbody, ncontact;
  const vxc_task_body_state *body; /* owned by the task, valid in the callback */
  const vxc_task_contact_state *contact;
  vxc_task_energy energy;
} vxc_task_record;

/* Called at t = 0, every record interval and at the end; returning non-zero stops the run
 * (vxc_task_run then returns VXC_OK with summary->stopped = 1). */
typedef int (*vxc_task_record_fn)(void *ud, const vxc_task_record *rec);
/* Called after accepted steps (at most about 200 times per run): t and the duration, s. */
typedef void (*vxc_task_progress_fn)(void *ud, double t, double duration);

/* One contact of a task's contact (a cell pair, or one patch of it), from the step it
 * started to the step it ended (or the run's end), at its largest normal force. */
typedef struct vxc_task_contact_peak {
  const char *cell_a, *cell_b; /* its cells' names (owned by the task's solids) */
  double first, last;          /* in contact from, to, s */
  double t_peak;               /* time of its largest normal force, s */
  double peak_fn, peak_ft;     /* its largest normal and friction forces, N */
  double centroid[3];          /* its centroid at t_peak, world, m */
  double normal[3];            /* its normal at t_peak, unit, from A toward B */
} vxc_task_contact_peak;

/* The contacts a summary lists per task contact: those of largest peak normal force. */
#define VXC_TASK_PEAKS 8

/* Per contact over the run. */
typedef struct vxc_task_contact_summary {
  double first, last; /* first and last time in contact, s (-1: never) */
  double peak_fn, peak_ft, peak_troll, peak_tspin; /* largest magnitudes, N and N m */
  double peak_fn_contact; /* largest normal force of one contact (a cell pair or a patch),
                             N: opposite contacts cancel in peak_fn, not here */
  int impacts;                                     /* cell-pair contacts started (event located) */
  double initial_volume, initial_fn;               /* overlap V (m^3) and |f_n| (N) at t = 0 */
  int npeak; /* contacts in peak[] (at most VXC_TASK_PEAKS) */
  vxc_task_contact_peak peak[VXC_TASK_PEAKS]; /* each contact's own peaks, the contacts of
                             largest peak_fn first: two walls pressed apart show 16 N each
                             where peak_fn, their net, is near 0 */
} vxc_task_contact_summary;

typedef struct vxc_task_summary {
  double t_end;  /* time reached, s */
  int completed; /* 1 when the duration was reached */
  int stopped;   /* 1 when the record callback stopped the run */
  int nbody, ncontact;
  const vxc_task_body_state *body;         /* final states (owned by the task) */
  const vxc_task_contact_summary *contact; /* owned by the task */
  vxc_task_energy energy;                  /* final budget */
  double max_abs_error;                    /* largest |energy error| seen at the records, J */
  long long steps, rejected;               /* accepted steps, steps rejected (error or event) */
  long long queries;                       /* contact queries (vxc_query_run calls) */
  long long capped_queries;      /* of which capped: less accurate than the contact's (rtol R) or
                                    (voxel H) (vxc_metrics.capped); the run goes on with them */
  long long closed_form_queries; /* queries in contact whose every cell pair in contact was
                                    measured in closed form (vxc_pair_metrics.closed_form) */
  double min_step, max_step;     /* smallest and largest accepted step, s */
  double wall_s;                 /* wall time, s */
  double realtime_factor;        /* simulated seconds per wall second */
  double energy_scale;           /* largest K + |P - P0| + E + D + |W| seen at the records, J */
  int energy_failed;             /* 1 when the run stopped because |energy error| passed the task's
                                    (energy-tolerance R) times energy_scale (status VXC_ERR_NUMERIC) */
} vxc_task_summary;

/* Runs the task from its initial state (a task may be run again: it restarts). `rec` and
 * `progress` may be NULL; `ud` goes to both. On VXC_OK *summary (may be NULL) holds the
 * results. On failure *summary still holds what was reached (t_end, the state at the last
 * accepted step) and err says why: VXC_ERR_GEOMETRY (two bodies overlap at t = 0 and the
 * task does not say (initial-overlap allow); the message names them, V and f_n),
 * VXC_ERR_NUMERIC (a NaN or infinite state, the adaptive step collapsing below 1e-12 s,
 * or the energy balance broken: summary->energy_failed = 1, the record where it broke was
 * passed to `rec`; the message names the time),
 * VXC_ERR_LIMIT (more cell pairs in contact than state slots, or a query's work cap),
 * VXC_ERR_NOMEM, and the statuses of vxc_query_run and vxc_contact_eval. */
VXC_API vxc_status vxc_task_run(vxc_task *task, vxc_task_record_fn rec,
                                vxc_task_progress_fn progress, void *ud, vxc_task_summary *summary,
                                vxc_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VXC_TASK_H */
