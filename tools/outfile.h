/* outfile.h: the one way the tools write an output file (vxc, vxc-sweep-mpi, vxc-mujoco).
 *
 * A whole file (summary.json, a rewritten sweep.csv, VTK, plots' scripts) is written to a
 * temporary file beside it (PATH.tmp.PID) and renamed over PATH only when every byte was
 * written, flushed and synced (fsync): a failed write leaves the previous file as it was.
 * A stream that grows during a run (series.csv, the rows a sweep appends) is written in
 * place, flushed and synced row by row, so that a killed run keeps every row it finished;
 * the run's status file says whether it is whole.
 *
 * Every failure prints "WHO: PATH: REASON" to stderr (PATH the file the user asked for).
 *
 * Test hook: with VXC_TEST_FAIL_WRITE=K in the environment, the K-th write(2) of the process
 * through these files (counted from 1, over all of them) fails with ENOSPC, so that the
 * tests can fail every write of every output (tests/test_faults.sh). */
#ifndef VXC_TOOLS_OUTFILE_H
#define VXC_TOOLS_OUTFILE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tools_file_mode {
  TOOLS_FILE_ATOMIC, /* to PATH.tmp.PID, renamed over PATH by tools_file_close */
  TOOLS_FILE_TRUNC,  /* PATH itself, emptied first (a growing stream) */
  TOOLS_FILE_APPEND  /* PATH itself, rows appended (a growing stream) */
} tools_file_mode;

typedef struct tools_file {
  FILE *f;    /* write through this; NULL when closed */
  void *ck;   /* the stream's state (outfile.c) */
  int mode;   /* tools_file_mode */
  int finished; /* tools_file_finish done: the temporary file awaits tools_file_commit */
  const char *who;
  char path[4200], tmp[4300];
} tools_file;

/* Opens `path` for writing in `mode`; `who` prefixes messages ("vxc task"). Returns 0, or
 * -1 after a message (*o then holds no open file). */
int tools_file_open(tools_file *o, const char *who, const char *path, tools_file_mode mode);

/* Flushes what was written to the disk (fflush, fdatasync): a growing stream calls it after
 * each finished row. Returns 0, or -1 after a message (the file stays open, in error). */
int tools_file_sync(tools_file *o);

/* Checks that every write reached the file (ferror, fflush, fsync, fclose) and, for an
 * atomic file, renames the temporary file over PATH. Returns 0, or -1 after a message; an
 * atomic file's temporary file is then removed and PATH left as it was. A file never opened
 * or already closed: 0. */
int tools_file_close(tools_file *o);

/* Closes without committing: an atomic file's temporary file is removed, PATH untouched. */
void tools_file_discard(tools_file *o);

/* tools_file_close in two steps, for outputs that go together (a model and its meshes):
 * finish each (checked, synced, closed; 0 or -1 as tools_file_close), then commit each
 * (the rename; 0, or -1 after a message) only when all finished. */
int tools_file_finish(tools_file *o);
int tools_file_commit(tools_file *o);

/* Checks standard output at the end of a program (ferror, fflush): returns 0, or -1 after
 * printing "WHO: standard output: write error: REASON". */
int tools_stdout_check(const char *who);

#ifdef __cplusplus
}
#endif

#endif /* VXC_TOOLS_OUTFILE_H */
