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
vxc_status vxci_pose_xform(const vxc_pose *pose, vxg_xform *x, const char *what, vxc_error *err);

/* lib/patch.c: splits a cell pair's n region elements into contact patches: fills out[]
 * (room for n) in decreasing order of volume and box[i].patch; pair_normal stands in for a
 * patch without area vector. Returns the number of patches (0 when none holds volume), or
 * -1 when out of memory (through al). */
int vxci_patches(const vxc_allocator *al, vxc_region_box *box, size_t n, const vxc_query_options *o,
                 const double pair_normal[3], vxc_patch *out);

/* lib/penetration.c: pm's penetration, penetration_lo and penetration_hi (see
 * vxc_pair_metrics) for cells ca and cb posed by ta and tb (cell -> world) along the unit
 * normal n, from their hulls and, when box is not NULL, the pair's nbox region elements. */
void vxci_penetration(const vxg_cell *ca, const vxg_xform *ta, const vxg_cell *cb,
                      const vxg_xform *tb, const double n[3], const vxc_region_box *box,
                      size_t nbox, vxc_pair_metrics *pm);

#endif
