/* task_vtk.h: `vxc task --vtk DIR`: ParaView frames of a run (the posed bodies' surfaces
 * and the contacts' integrated regions, one frame per record) and the .pvd series that play
 * them, within a bound on their bytes. */
#ifndef VXC_TASK_VTK_H
#define VXC_TASK_VTK_H

#include "lib/vxc.h"

typedef struct task_vtk task_vtk;

/* Prepares the frames of task t into the directory `dir` (written from the first frame
 * on): each body's surface in its model frame, sampled on cubes of edge tol (m; 0: a 64th
 * of the body's largest extent), welded and encoded once to know its size. Writes nothing.
 * Returns NULL after printing the error. */
task_vtk *task_vtk_open(vxc_task *t, const char *dir, double tol);

/* Sets the frames' bound and tells the user what they will write: max_output (bytes) less
 * the series' row_bytes a record, for the records the task's duration and record interval
 * give. Prints to stderr "vxc task: ParaView frames: N frames into DIR/bodies.pvd and
 * DIR/contact.pvd, about B bytes (...)" and returns 0; or, when the bodies alone would
 * pass the bound, prints why and what to change and returns -1 (refused before the run).
 * A task that records every step has no count before the run: announced as such. */
int task_vtk_plan(task_vtk *v, double max_output, double row_bytes);

/* Writes the frame of record r: DIR/frame-NNNNNN-body-K.vtp for each body K whose pose
 * differs from that of its last file (a fixed body, or one at rest, is written once and
 * its file shown again; cell data "solid": K, "cell") and DIR/frame-NNNNNN-contact.vtu (the
 * regions of every contact measured again at the record's poses with the contact's
 * options and split into patches, cli_vtk_region_add; cell data as `vxc metrics --vtk
 * --patches`, "contact" the contact index; an empty region's file is shown again). Returns
 * 0; 1 when the frame would pass the bound (nothing written: a warning is printed once and
 * later frames are not written); -1 after printing an error. */
int task_vtk_frame(task_vtk *v, const vxc_task_record *r);

/* Writes DIR/bodies.pvd (each frame's body files, part K for body K) and DIR/contact.pvd
 * (the frames at their times) and frees v (NULL: no-op). Returns 0; 1 when frames were left
 * out at the bound (the warning printed again); -1 after printing an error. */
int task_vtk_close(task_vtk *v);

/* Frees v without writing anything (NULL: no-op). */
void task_vtk_free(task_vtk *v);

#endif
