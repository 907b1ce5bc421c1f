/* dirs.h: output folders of the tools (vxc and vxc-sweep-mpi). */
#ifndef VXC_TOOLS_DIRS_H
#define VXC_TOOLS_DIRS_H

/* mkdir -p: creates dir and its missing parents. Returns 0, or -1 with errno set. */
int tools_make_dirs(const char *dir);

#endif /* VXC_TOOLS_DIRS_H */
