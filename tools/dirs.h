/* dirs.h: output folders and plots of the tools (vxc and vxc-sweep-mpi). */
#ifndef VXC_TOOLS_DIRS_H
#define VXC_TOOLS_DIRS_H

/* mkdir -p: creates dir and its missing parents. Returns 0, or -1 with errno set. */
int tools_make_dirs(const char *dir);

/* Runs gnuplot on the script `path` when gnuplot is installed (else says so on stderr and
 * returns 0: the script is the output). `who` prefixes the messages ("vxc task"). Returns
 * 0, or -1 after a message when gnuplot failed. */
int tools_gnuplot(const char *who, const char *path);

/* One writer per output folder: takes an exclusive lock (flock) on DIR/.vxc.lock, kept
 * until the process ends, and writes the process id into it. Returns 0, or -1 after
 * printing "WHO: DIR is being written by another run (pid N) ..." when another process
 * holds it (or why the lock file cannot be made). Once locked, the temporary files a killed
 * run left for the folder's outputs (sweep.csv.tmp.PID, ...) are removed. Children forked after it share the lock
 * (close tools_lock_fd() in a child that outlives no one). */
int tools_lock_dir(const char *who, const char *dir);
/* The lock's descriptor, or -1. */
int tools_lock_fd(void);

#endif /* VXC_TOOLS_DIRS_H */
