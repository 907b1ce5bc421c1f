/* task_vtk.h: `vxc task --vtk DIR`: one ParaView frame per record (the posed bodies'
 * surfaces and the contacts' integrated regions) and the .pvd series that play them. */
#ifndef VXC_TASK_VTK_H
#define VXC_TASK_VTK_H

#include "lib/vxc.h"

typedef struct task_vtk task_vtk;

/* Prepares the frames of task t into the existing directory `dir`: each body's surface in
 * its model frame, sampled on cubes of edge tol (m; 0: a 64th of the body's largest
 * extent). Returns NULL after printing the error. */
task_vtk *task_vtk_open(vxc_task *t, const char *dir, double tol);
/* Writes the frame of record r: DIR/frame-NNNNNN-bodies.vtp (cell data "solid": the body
 * index, "cell") and DIR/frame-NNNNNN-contact.vtu (the regions of every contact measured
 * again at the record's poses with the contact's options and split into patches; cell
 * data as `vxc metrics --vtk --patches`, "contact" the contact index). Returns 0, or -1 after printing the error. */
int task_vtk_frame(task_vtk *v, const vxc_task_record *r);
/* Writes DIR/bodies.pvd and DIR/contact.pvd (the frames at their times) and frees v (NULL:
 * no-op). Returns 0, or -1 after printing the error. */
int task_vtk_close(task_vtk *v);

#endif
