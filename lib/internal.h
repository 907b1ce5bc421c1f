/* internal.h: what the files of lib/ share (not installed). */
#ifndef VXC_LIB_INTERNAL_H
#define VXC_LIB_INTERNAL_H

#include "geom/geom.h"
#include "vxc.h"

struct vxc_solid {
  vxc_allocator al; /* the caller's allocator, copied */
  vxg_solid *geom;
};

/* Converts a public pose to a transform; NULL means identity. VXC_ERR_ARG (message names
 * `what`) for a zero or non-finite quaternion or a non-finite position. */
vxc_status vxci_pose_xform(const vxc_pose *pose, vxg_xform *x, const char *what,
                           vxc_error *err);

#endif
