/* sweep_inputs.h: the files a sweep reads (the sweep file, its task file, the task's model
 * files and the meshes they name) and their digests, recorded in DIR/sweep.inputs so that
 * `--resume` keeps rows only when none of them changed.
 *
 * DIR/sweep.inputs: one line per file, `ROLE CRC32 BYTES PATH` (ROLE sweep, task, model or
 * mesh; CRC32 zlib's, 8 hex digits, over the file's bytes as stored; PATH as the sweep
 * resolved it, for the message only: a resume from another folder still matches). */
#ifndef VXC_TOOLS_SWEEP_INPUTS_H
#define VXC_TOOLS_SWEEP_INPUTS_H

#include "lib/vxc.h"

/* The record of the sweep's inputs as text (malloc'd, NUL-terminated) into *out. Returns
 * 0, or -1 after a message naming the file that cannot be read. */
int sweep_inputs_text(const vxc_sweep *sw, const char *sweep_file, char **out);

/* Compares `now` (from sweep_inputs_text) with the record in `path`. Returns 0 when they
 * match, or -1 after a message naming the first file that changed (or the record that
 * is missing or unreadable). */
int sweep_inputs_check(const char *now, const char *path);

#endif /* VXC_TOOLS_SWEEP_INPUTS_H */
