/* vtk.h: ParaView files (VTK XML, ASCII) of what vxc measured: the integrated region of a
 * contact query (.vtu), posed solids' surfaces (.vtp) and a series of frames (.pvd). */
#ifndef VXC_VTK_H
#define VXC_VTK_H

#include <stddef.h>

#include "lib/vxc.h"

/* Writes the region's boxes as an unstructured grid of voxel cells (VTK type 11, cubes
 * along the world axes, metres) with the cell data "contact" (contact[i], or 0 when contact
 * is NULL), "pair" (the cell pair's index in the metrics), "patch" (its contact patch, -1:
 * not split), "leaf" (0: a box wholly inside both
 * cells, 1: a boundary leaf), "level", "size" (edge, m), "volume" (the interference inside the box,
 * m^3), "volume_lo", "volume_hi", "bracket_width" (volume_hi - volume_lo) and "error_estimate"
 * (m^3). Returns 0, or -1 after printing "vxc: PATH: reason" to stderr. */
int vtk_write_region(const char *path, const vxc_region_box *box, const int *contact, size_t n);

/* Writes the triangles of `ns` surfaces as polygonal data (points in metres) with the cell
 * data "solid" (index in s[]) and "cell" (the solid's cell index). Returns 0, or -1 after
 * printing "vxc: PATH: reason" to stderr. */
int vtk_write_surfaces(const char *path, const vxc_surface *const *s, int ns);

/* A .pvd collection: `n` datasets, file[i] (relative to the .pvd) at time t[i] (s), all as
 * part `part[i]`. Returns 0, or -1 after printing the error. */
int vtk_write_pvd(const char *path, int n, const double *t, const int *part,
                  const char *const *file);

#endif

/* ---- the command-line options of the commands that write them (cli_vtk.c) ---- */

typedef struct cli_vtk_opts {
  const char *region; /* --vtk FILE.vtu, or NULL */
  const char *solids; /* --vtk-solids FILE.vtp, or NULL */
  double tol;         /* --vtk-tol T, m (0: a 64th of each solid's largest extent) */
  int patches;        /* --patches (metrics) */
} cli_vtk_opts;

void cli_vtk_opts_init(cli_vtk_opts *o);
/* The `extra` parser of cli_load_pair for --vtk, --vtk-solids, --vtk-tol and --patches
 * (ud: a cli_vtk_opts). */
int cli_vtk_opt(int argc, char **argv, int *i, void *ud);
/* Most cubes sampled per cell for a surface. */
#define CLI_VTK_MAX_CUBES 20000000LL
/* The sampling edge of solid s at pose p (NULL: identity): o->tol, or a 64th of its
 * largest extent. */
double cli_vtk_tol(const cli_vtk_opts *o, const vxc_solid *s, const vxc_pose *p);
/* Writes the files the options ask for: the region the query q last integrated, the two
 * solids at their poses. Returns CLI_OK, or CLI_FAIL after printing the error. */
int cli_vtk_write(const cli_vtk_opts *o, const vxc_query *q, const vxc_solid *a, const vxc_pose *pa,
                  const vxc_solid *b, const vxc_pose *pb);

/* Help text of the options. */
#define CLI_VTK_HELP                                                                        \
  "  --vtk FILE.vtu  write the integrated region for ParaView: the octree's boxes inside\n" \
  "               both cells and its boundary leaves, as voxel cells with the cell data\n"  \
  "               pair, leaf (0 box, 1 leaf), level, size, volume, volume_lo, volume_hi,\n" \
  "               bracket_width, error_estimate (the volumes sum to each pair's V; the\n"   \
  "               query then runs on one thread)\n"                                         \
  "  --vtk-solids FILE.vtp  write the posed solids' surfaces (cell data solid, cell):\n"    \
  "               mesh cells as their triangles, others sampled on cubes of edge T\n"       \
  "  --vtk-tol T  that edge, m (default: a 64th of each solid's largest extent)\n"
