/* vxc_sweep.h: parameter sweeps (.vxs) over a task file (included by <vxc/vxc.h>).
 *
 * A sweep names a task file, the numbers of it to vary (each by its path in the task: a
 * body's pose, velocity, keyframes, mass forms or gripper, a contact's parameters, the
 * integrator's settings, gravity, the duration, ...), how the cases are drawn (a grid of
 * every combination, or N random or Latin-hypercube samples from a seeded generator), and
 * the outputs to report per case. Each case's task is the task file's text with the case's
 * numbers written in place (%.17g, so they read back exactly), read by vxc_task_parse:
 * every case goes through the same validated reader as `vxc task`. The grammar is in
 * README.md (Parameter sweeps) and in lib/sweep.c.
 *
 * Cases are numbered 0 .. count - 1; a case's values and task depend only on the sweep
 * and its index (random draws included), so any process can run any case. The library
 * never prints. */
#ifndef VXC_SWEEP_H
#define VXC_SWEEP_H

#include "vxc_types.h"
#include "vxc_task.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vxc_sweep vxc_sweep;

/* Reads the sweep file `path` and the task file it names (relative to the sweep file's
 * directory), checks the task (vxc_task_load's errors, naming the task file) and every
 * path, value and output (VXC_ERR_FORMAT naming the sweep file, line and column: an
 * unknown body, contact, parameter or field, a path to something that is not a number, a
 * count that is not an integer >= 1, an unknown output, more than 1e7 cases). `al` may be
 * NULL. VXC_ERR_IO when a file cannot be read, VXC_ERR_NOMEM. *out untouched on failure. */
VXC_API vxc_status vxc_sweep_load(const char *path, const vxc_allocator *al, vxc_sweep **out,
                                  vxc_error *err);
/* The same for `len` bytes of sweep text in memory (gzip data is accepted). `file` names the
 * text in messages (NULL: "<sweep>"); the task file's name is relative to `base_dir` (NULL:
 * the current directory) unless absolute. `al` may be NULL. Returns as vxc_sweep_load, and
 * VXC_ERR_ARG for a NULL text or out; *out untouched on failure. */
VXC_API vxc_status vxc_sweep_parse(const char *text, size_t len, const char *file,
                                   const char *base_dir, const vxc_allocator *al, vxc_sweep **out,
                                   vxc_error *err);
/* Frees a sweep and everything it owns. NULL is a no-op. */
VXC_API void vxc_sweep_free(vxc_sweep *s);

VXC_API const char *vxc_sweep_name(const vxc_sweep *s);
/* The path of the task file the sweep runs, as resolved against the sweep file's folder
 * (owned by the sweep), NULL for a NULL sweep. */
VXC_API const char *vxc_sweep_task_path(const vxc_sweep *s);
VXC_API long long vxc_sweep_case_count(const vxc_sweep *s);
/* 1 for (mode grid) (the default), 0 for random and latin. */
VXC_API int vxc_sweep_is_grid(const vxc_sweep *s);

/* The varied numbers, in the order of the (vary ...) form. A name is the path joined by
 * dots, a body's path starting with its name (peg.pose.x) and a contact's with A~B
 * (block~peg.mu_c); other paths as written (duration, integrator.rtol). size is the
 * number of values on a grid (the count, or the length of an explicit list). */
VXC_API int vxc_sweep_axis_count(const vxc_sweep *s);
VXC_API const char *vxc_sweep_axis_name(const vxc_sweep *s, int i);
VXC_API int vxc_sweep_axis_size(const vxc_sweep *s, int i);

/* The outputs of (outputs ...) that go in sweep.csv, in order (wall_s, accepted in the
 * file, is not one of them: wall times are not reproducible). */
VXC_API int vxc_sweep_output_count(const vxc_sweep *s);
VXC_API const char *vxc_sweep_output_name(const vxc_sweep *s, int i);

/* The varied values of case i (vxc_sweep_axis_count numbers). VXC_ERR_ARG for a bad i or a
 * NULL argument (values untouched, err (may be NULL) naming it). */
VXC_API vxc_status vxc_sweep_case_values(const vxc_sweep *s, long long i, double *values,
                                         vxc_error *err);

/* The text of case i's task file (NUL-terminated, *len bytes), allocated through the
 * sweep's allocator: free it with vxc_sweep_text_free(s, *text), before vxc_sweep_free(s).
 * VXC_ERR_ARG for a bad i or a NULL argument, VXC_ERR_NOMEM; *text and *len untouched on
 * error, err (may be NULL) saying why. */
VXC_API vxc_status vxc_sweep_case_text(const vxc_sweep *s, long long i, char **text, size_t *len,
                                       vxc_error *err);
/* Frees a text vxc_sweep_case_text returned, through the allocator of s, the sweep that
 * wrote it. A NULL s or text is a no-op. */
VXC_API void vxc_sweep_text_free(const vxc_sweep *s, char *text);

/* How a case ended (the task's status names of `vxc task`, plus capped and invalid). */
typedef enum vxc_sweep_status {
  VXC_SWEEP_COMPLETED = 0, /* the duration was reached */
  VXC_SWEEP_CAPPED,        /* completed, but some contact queries missed their tolerance */
  VXC_SWEEP_ENERGY,        /* energy-error: the energy balance broke */
  VXC_SWEEP_LIMIT,         /* limit: a step, record or slot bound was reached */
  VXC_SWEEP_OVERLAP,       /* initial-overlap: bodies overlap at t = 0 */
  VXC_SWEEP_FAILED,        /* failed: the state diverged or a query failed */
  VXC_SWEEP_INVALID        /* invalid: the task reader refused the case's values */
} vxc_sweep_status;

/* "completed", "capped", "energy-error", "limit", "initial-overlap", "failed", "invalid";
 * NULL for another value. */
VXC_API const char *vxc_sweep_status_name(vxc_sweep_status st);

typedef struct vxc_sweep_result {
  vxc_sweep_status status;
  double wall_s; /* the task run's wall time, s (0 for an invalid case) */
  vxc_error err; /* why, when status is not completed or capped */
} vxc_sweep_result;

/* Builds and runs case i (at most max_steps steps, max_records records; 0 for the
 * defaults) and writes its outputs (vxc_sweep_output_count numbers; NAN where a case
 * gives none, such as an invalid one) and its result. Returns VXC_OK whenever the case was
 * attempted (its own failure is in res->status and res->err); VXC_ERR_ARG for a bad i or a
 * NULL res (or outputs, with outputs to write), VXC_ERR_NOMEM (memory ran out building,
 * reading or running the case); err (may be NULL) says why. Everything the case allocates
 * goes through the sweep's allocator and is freed before the call returns. */
VXC_API vxc_status vxc_sweep_run_case(const vxc_sweep *s, long long i, long long max_steps,
                                      long long max_records, double *outputs,
                                      vxc_sweep_result *res, vxc_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VXC_SWEEP_H */
