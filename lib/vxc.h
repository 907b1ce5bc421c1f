/* vxc.h: the public API of vxc, a toolkit for volumetric contact.
 *
 * Conventions for every function below:
 * - Units are SI: metres, kilograms, seconds, radians.
 * - A function returns a vxc_status: VXC_OK (0) on success, a negative VXC_ERR_* on error,
 *   or a positive special-but-normal outcome (VXC_NO_CONTACT). On error it fills the
 *   caller's vxc_error when one is passed (it may be NULL), leaves out-parameters untouched,
 *   and never prints, aborts or exits.
 * - Whoever creates an object frees it (vxc_solid_load / vxc_solid_free). Geometry is
 *   immutable after loading, so queries on one solid may run from several threads.
 * - Poses place a solid's model frame in the world: x_world = R(q) x_model + p.
 *
 * Link with `pkg-config --libs vxc`; include as <vxc/vxc.h>. */
#ifndef VXC_H
#define VXC_H

#include "vxc_types.h"
#include "vxc_solid.h"
#include "vxc_memory.h"
#include "vxc_force.h"
#include "vxc_friction.h"
#include "vxc_bristle.h"
#include "vxc_metrics.h"
#include "vxc_pair.h"
#include "vxc_task.h"
#include "vxc_sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version and statuses ------------------------------------------------------------ */

/* The library's version string, "MAJOR.MINOR.PATCH" (compare with VXC_VERSION). */
VXC_API const char *vxc_version(void);

/* A short English description of a status ("out of memory", ...). Never NULL. */
VXC_API const char *vxc_status_str(vxc_status status);

/* For "did you mean" hints: the name among names[0 .. n) nearest to `name` by edit
 * distance (single-character insertions, deletions and substitutions) when it is at most
 * 2 edits away and fewer than its own length, the first of equals; else NULL (also for a
 * NULL input, n <= 0, or names over 32 characters). Returns a pointer into `names`. */
VXC_API const char *vxc_nearest_name(const char *name, const char *const *names, int n);

#ifdef __cplusplus
}
#endif

#endif /* VXC_H */
