/* vtk.h: ParaView files (VTK XML) of what vxc measured: the integrated region of a contact
 * query (.vtu), posed solids' surfaces (.vtp) and a series of frames (.pvd).
 *
 * The datasets are binary: their arrays go, zlib-compressed (VTK's vtkZLibDataCompressor,
 * blocks of 32 KiB), into the file's appended data; the XML head names them. Each file is
 * encoded in memory first (a vtk_blob), so that its size is known before it is written
 * (vxc task --vtk bounds its frames by --max-output), then written whole or not at all
 * (outfile.h). */
#ifndef VXC_VTK_H
#define VXC_VTK_H

#include <stddef.h>
#include <stdint.h>

#include "lib/vxc.h"

/* An encoded file in memory. Zero it before use; free with vtk_blob_free. */
typedef struct vtk_blob {
  unsigned char *data;
  size_t size, cap;
  int nomem; /* an allocation failed: the blob is incomplete */
} vtk_blob;

void vtk_blob_free(vtk_blob *b);
/* Writes b to path, atomically and checked (outfile.h). Returns 0, or -1 after printing
 * "vxc: PATH: reason" to stderr (out of memory when b->nomem). */
int vtk_blob_write(const char *path, const vtk_blob *b);

/* What a region box of vtk_region_encode is beside the query's own figures. */
typedef struct vtk_region_tag {
  int contact;     /* the task's contact index (0 for one pair of solids) */
  int closed_form; /* the pair's vxc_pair_metrics.closed_form: 0 the octree measured it (the
                      boxes are its region); 1 or 2: a closed form or a quadrature measured
                      it, and the boxes are the octree's region of the pair at a coarse edge,
                      shown for its shape (their volumes sum to that octree's V, not to the
                      pair's) */
} vtk_region_tag;

/* Encodes the region's boxes as an unstructured grid of voxel cells (VTK type 11, boxes
 * along the world axes, corners in metres, Float64) with the cell data "contact" and
 * "closed_form" (tag[i], or 0 when tag is NULL), "pair" (the cell pair's index in the
 * metrics), "patch" (its contact patch, -1: not split), "leaf" (0: a box wholly inside both
 * cells, 1: a boundary leaf), "level", "size" (edge, m), "volume" (the interference inside
 * the box, m^3), "volume_lo", "volume_hi", "bracket_width" (volume_hi - volume_lo) and
 * "error_estimate" (m^3). Returns 0, or -1 when out of memory. */
int vtk_region_encode(vtk_blob *out, const vxc_region_box *box, const vtk_region_tag *tag,
                      size_t n);
/* vtk_region_encode into path. Returns 0, or -1 after printing the error. */
int vtk_write_region(const char *path, const vxc_region_box *box, const vtk_region_tag *tag,
                     size_t n);

/* Surfaces' triangles with their corners welded into points. */
typedef struct vtk_mesh {
  double *point; /* np points, m */
  size_t np;
  int64_t *tri; /* 3 point indices a triangle, in the surfaces' order (outward) */
  size_t nt;
  int32_t *solid, *cell; /* per triangle: its surface's id and the solid's cell index */
  vtk_blob topo_xml, topo_app; /* the arrays but the points, encoded once (vtk.c) */
  size_t topo_split;
} vtk_mesh;

/* Welds the corners of `ns` surfaces that are equal to the last bit (the sampler computes a
 * shared vertex identically) into *m; solid_id[k] (NULL: k) is surface k's "solid". Returns
 * 0, or -1 when out of memory (*m then holds nothing). */
int vtk_mesh_weld(vtk_mesh *m, const vxc_surface *const *s, int ns, const int *solid_id);
void vtk_mesh_free(vtk_mesh *m);
/* Encodes the mesh as polygonal data with the cell data "solid" and "cell"; `point` (NULL:
 * m->point) gives the np points (m; a posed copy of them), written as Float32 (for viewing:
 * 7 digits). Returns 0, or -1 when out of memory. */
int vtk_mesh_encode(vtk_blob *out, const vtk_mesh *m, const double *point);

/* The triangles of `ns` surfaces (welded, encoded, written to path; "solid" the index in
 * s[]). Returns 0, or -1 after printing "vxc: PATH: reason" to stderr. */
int vtk_write_surfaces(const char *path, const vxc_surface *const *s, int ns);

/* A .pvd collection (ASCII XML): `n` datasets, file[i] (relative to the .pvd) at time t[i]
 * (s), as part `part[i]` (a time's parts are shown together). Returns 0, or -1 after
 * printing the error. */
int vtk_write_pvd(const char *path, int n, const double *t, const int *part,
                  const char *const *file);

#endif

/* ---- the command-line options of the commands that write them (cli_vtk.c) ---- */

typedef struct cli_vtk_opts {
  const char *region; /* --vtk FILE.vtu, or NULL */
  const char *solids; /* --vtk-solids FILE.vtp, or NULL */
  double tol;         /* --vtk-tol T, m (0: a 64th of each solid's largest extent) */
  int merge;          /* --merge-patches (metrics): one contact per cell pair */
} cli_vtk_opts;

void cli_vtk_opts_init(cli_vtk_opts *o);
/* The `extra` parser of cli_load_pair for --vtk, --vtk-solids, --vtk-tol, --merge-patches
 * and --patches (the default: a no-op) (ud: a cli_vtk_opts). */
int cli_vtk_opt(int argc, char **argv, int *i, void *ud);
/* Most cubes sampled per cell for a surface. */
#define CLI_VTK_MAX_CUBES 20000000LL
/* The sampling edge of solid s at pose p (NULL: identity): o->tol, or a 64th of its
 * largest extent. */
double cli_vtk_tol(const cli_vtk_opts *o, const vxc_solid *s, const vxc_pose *p);
/* Writes the files the options ask for: the region the query q last integrated (m its
 * metrics, opt its options: the pairs measured in closed form are shown by the octree's
 * region at a coarse edge, cli_vtk_region), the two solids at their poses. Returns CLI_OK,
 * or CLI_FAIL after printing the error. */
int cli_vtk_write(const cli_vtk_opts *o, const vxc_query *q, const vxc_metrics *m,
                  const vxc_query_options *opt, const vxc_solid *a, const vxc_pose *pa,
                  const vxc_solid *b, const vxc_pose *pb);

/* A region to show, boxes with their tags (vtk_region_tag); zero it before use. */
typedef struct cli_vtk_region {
  vxc_region_box *box;
  vtk_region_tag *tag;
  size_t n, cap;
  vxc_query *coarse; /* the workspace of the coarse octree runs (created when needed) */
} cli_vtk_region;

/* Appends the region the query q last integrated (its metrics m, its options opt) as
 * contact `contact`: the octree's boxes of every pair it measured; for a pair measured in
 * closed form or by quadrature (whose region is one leaf, the interference's bounding
 * box), the boxes the octree integrates for that cell pair at a coarse edge (a 16th of the
 * leaf's largest edge; opt's patches kept, closed forms off), tagged closed_form, pair and
 * patch those of the pair's leaf. Returns CLI_OK, or CLI_FAIL after printing the error. */
int cli_vtk_region_add(cli_vtk_region *r, const vxc_query *q, const vxc_metrics *m,
                       const vxc_query_options *opt, int contact, const vxc_solid *a,
                       const vxc_pose *pa, const vxc_solid *b, const vxc_pose *pb);
void cli_vtk_region_free(cli_vtk_region *r);

/* Help text of the options. */
#define CLI_VTK_HELP                                                                        \
  "  --vtk FILE.vtu  write the integrated region for ParaView: the octree's boxes inside\n" \
  "               both cells and its boundary leaves, as voxel cells with the cell data\n"  \
  "               pair, leaf (0 box, 1 leaf), level, size, volume, volume_lo, volume_hi,\n" \
  "               bracket_width, error_estimate (the volumes sum to each pair's V; the\n"   \
  "               query then runs on one thread); a pair measured in closed form or by\n"   \
  "               quadrature is shown by the octree's boxes at a coarse edge, closed_form\n" \
  "               1 or 2 (their volumes are that octree's)\n"                               \
  "  --vtk-solids FILE.vtp  write the posed solids' surfaces (cell data solid, cell):\n"    \
  "               mesh cells as their triangles, others sampled on cubes of edge T\n"       \
  "  --vtk-tol T  that edge, m (default: a 64th of each solid's largest extent)\n"
