/* dirs.h: output folders and plots of the tools (vxc and vxc-sweep-mpi). */
#ifndef VXC_TOOLS_DIRS_H
#define VXC_TOOLS_DIRS_H

/* mkdir -p: creates dir and its missing parents. Returns 0, or -1 with errno set. */
int tools_make_dirs(const char *dir);

/* Runs gnuplot on the script `path` when gnuplot is installed (else says so on stderr and
 * returns 0: the script is the output). `who` prefixes the messages ("vxc task"). Returns
 * 0, or -1 after a message when gnuplot failed. */
int tools_gnuplot(const char *who, const char *path);

#endif /* VXC_TOOLS_DIRS_H */
