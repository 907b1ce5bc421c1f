/* vxc_solid.h: poses and solids of the vxc public API (included by <vxc/vxc.h>).
 * Conventions (units, statuses, ownership) are those stated in vxc.h. */
#ifndef VXC_SOLID_H
#define VXC_SOLID_H

#include "vxc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- poses ------------------------------------------------------------------------- */

/* A rigid placement: position p (m) and unit quaternion q = (w, x, y, z). Functions that
 * take a pose normalise q and return VXC_ERR_ARG when it is zero or not finite. */
typedef struct vxc_pose {
  double p[3];
  double q[4];
} vxc_pose;

/* The identity pose (p = 0, q = (1, 0, 0, 0)). */
VXC_API vxc_pose vxc_pose_identity(void);

/* ---- solids ------------------------------------------------------------------------ */

/* A solid: a named set of cells read from a model file (.vxm). Opaque. */
typedef struct vxc_solid vxc_solid;

/* Reads the model file `path` (plain or gzip-compressed). `al` may be NULL (malloc); when
 * given it is copied and used for every allocation of the solid.
 * Returns VXC_OK with *out set (free it with vxc_solid_free); VXC_ERR_ARG (NULL path or
 * out), VXC_ERR_IO (cannot open or read), VXC_ERR_FORMAT (syntax: err names file, line,
 * column and what was expected), VXC_ERR_GEOMETRY (unbounded or empty cell, duplicate cell
 * name, empty solid), VXC_ERR_LIMIT (too many primitives in a cell), VXC_ERR_NOMEM.
 * *out is untouched on failure. */
VXC_API vxc_status vxc_solid_load(const char *path, const vxc_allocator *al,
                                  vxc_solid **out, vxc_error *err);

/* Reads a solid from model text (the .vxm grammar) held in memory, `len` bytes (need not
 * be NUL-terminated; gzip data is accepted). `name` stands for the file in messages; mesh
 * paths are relative to the current folder. Returns and owns as vxc_solid_load. */
VXC_API vxc_status vxc_solid_parse(const char *text, size_t len, const char *name,
                                   const vxc_allocator *al, vxc_solid **out, vxc_error *err);

/* Makes a solid of one cell that is one closed triangle mesh given in memory, as a
 * (mesh ...) primitive of a model file would be: `v` holds nv x 3 vertex coordinates (m, in
 * the solid's frame), `tri` nt x 3 zero-based vertex indices; both are copied. The mesh is
 * welded, cleared of degenerate triangles, checked (closed, manifold, consistently oriented)
 * and turned outward when it is inside out, as the README's "Triangle meshes" says; its
 * report figures are then those of vxc_solid_prim (format "arrays", mesh_path NULL).
 * `name` (NULL: "mesh", at most 127 bytes) names both the solid and its cell; the solid has
 * no density. `al` as in vxc_solid_load.
 * Returns VXC_OK with *out set (free it with vxc_solid_free); VXC_ERR_ARG (NULL out, a
 * negative count, NULL arrays with positive counts, a name too long, a vertex index out
 * of range or a non-finite coordinate: the message names the triangle or the vertex, by
 * 0-based index); VXC_ERR_LIMIT (more than 2^26 vertices or triangles); VXC_ERR_GEOMETRY
 * (no triangle left, a coordinate beyond 10^4 m, an open, non-manifold or inconsistently
 * oriented mesh: the message gives the counts and the first offending triangle; a mesh
 * that intersects itself: the message names two triangles that meet);
 * VXC_ERR_NUMERIC (Embree failed to build its scene); VXC_ERR_NOMEM. *out is untouched on
 * failure. */
VXC_API vxc_status vxc_solid_from_mesh(const double *v, int nv, const int *tri, int nt,
                                       const char *name, const vxc_allocator *al,
                                       vxc_solid **out, vxc_error *err);

/* Frees a solid and everything it owns. NULL is a no-op. */
VXC_API void vxc_solid_free(vxc_solid *solid);

/* The solid's name (owned by the solid). */
VXC_API const char *vxc_solid_name(const vxc_solid *solid);

/* The solid's density in kg/m^3, or 0 when its model file gives none. */
VXC_API double vxc_solid_density(const vxc_solid *solid);

/* Whether the solid's lengths look like millimetres read as metres (a drawing in mm without
 * (units mm)): its model file states no (units U); the longest edge of its bounding box
 * (model frame) is over VXC_UNITS_EXTENT m; and it has no density, or its bounding box
 * filled at its density would weigh over VXC_UNITS_MASS kg (an upper bound on its mass, so
 * that a long, light part in metres passes). Returns 1 and writes a one-line reason (the
 * extent, the mass bound, the remedy) to why (`size` bytes; NULL or 0: none), else 0 (also
 * for NULL). The library only reports it; the command-line tools print it as a warning. */
#define VXC_UNITS_EXTENT 10.0
#define VXC_UNITS_MASS 1e5
VXC_API int vxc_solid_units_suspect(const vxc_solid *solid, char *why, size_t size);

/* Number of cells (>= 1 for a loaded solid). */
VXC_API int vxc_solid_cell_count(const vxc_solid *solid);

/* What `vxc info` shows of a cell. Pointers are owned by the solid. */
typedef struct vxc_cell_info {
  const char *name;   /* cell name */
  int line;           /* line of the model file where the cell starts (0 if unknown) */
  int nprim;          /* number of primitives */
  int convex;         /* 1 when the cell is proved convex (0: concave or not proved) */
  int exact_hull;     /* 1 when libccd sees the cell exactly (closed-form support) */
  const char *hull;   /* the convex stand-in libccd sees: "sphere", "box", ... */
  double aabb[6];     /* bounding box in the solid's frame, m: lo x y z, hi x y z */
} vxc_cell_info;

/* Fills *out for cell `index` (0 <= index < count). VXC_ERR_ARG for a NULL solid or out or a
 * bad index (*out untouched, err (may be NULL) naming it). */
VXC_API vxc_status vxc_solid_cell(const vxc_solid *solid, int index, vxc_cell_info *out,
                                  vxc_error *err);

/* What `vxc info` shows of a primitive. Pointers are owned by the solid. */
typedef struct vxc_prim_info {
  const char *kind;       /* model-file keyword: "sphere", "halfspace", ... */
  int complement;         /* 1 for (not ...) */
  int nparam;             /* parameters as in the model file, SI (cone angle in radians) */
  double param[10];
  const char *mesh_path;  /* mesh primitives: the resolved file path, else NULL */
  vxc_pose move;          /* primitive frame in the cell frame */
  /* mesh primitives only (zero otherwise), after welding and dropping, scaled: */
  const char *mesh_format;  /* "binary STL", "ASCII STL", "OBJ", "ASCII PLY", "binary PLY" */
  int mesh_gzip;            /* 1: the file was gzip-compressed */
  int mesh_triangles;       /* triangle count */
  double mesh_volume;       /* enclosed volume, m^3 (exact for the triangles) */
  double mesh_area;         /* surface area, m^2 */
  double mesh_aabb[6];      /* bounding box in the primitive's frame, m */
  int mesh_convex;          /* 1 when the mesh is convex */
  int mesh_degenerate;      /* warning: degenerate triangles dropped on load */
  int mesh_flipped;         /* 1: the file was inside out and was turned outward */
} vxc_prim_info;

/* Fills *out for primitive `prim` of cell `cell`. VXC_ERR_ARG for a NULL solid or out or a
 * bad index (*out untouched, err (may be NULL) naming it). */
VXC_API vxc_status vxc_solid_prim(const vxc_solid *solid, int cell, int prim, vxc_prim_info *out,
                                  vxc_error *err);

/* Bounding box (world frame, m: lo x y z, hi x y z) of the whole solid placed at `pose`
 * (NULL: identity). VXC_ERR_ARG for a NULL solid or aabb or a bad pose (aabb untouched,
 * err (may be NULL) naming it). */
VXC_API vxc_status vxc_solid_aabb(const vxc_solid *solid, const vxc_pose *pose, double aabb[6],
                                  vxc_error *err);

/* A posed solid's surface as triangles, for viewing (vxc_solid_surface). */
typedef struct vxc_surface {
  size_t ntri;
  double *v; /* ntri x 9: each triangle's three corners, world, m, counter-clockwise seen
                from outside */
  int *cell; /* ntri: the index of the cell each triangle bounds */
  vxc_allocator al;
} vxc_surface;

/* The surface of every cell of the solid placed at `pose` (NULL: identity): a cell that is
 * one mesh alone as its triangles; any other sampled by marching tetrahedra on cubes of
 * edge `tol` (m) where its boundary passes (vertices on the surface up to the linear
 * interpolation's error, sharp edges bevelled within about tol). Cells are bounded
 * separately (a face two cells share appears twice). On VXC_OK, *out is the caller's (free
 * it with vxc_surface_free). Returns VXC_OK; VXC_ERR_ARG (NULL argument, bad pose, tol not
 * finite and > 0); VXC_ERR_LIMIT (more than max_cubes cubes of sampling in a cell, or tol
 * below 2^-30 of a cell's size: the message names the cell); VXC_ERR_NOMEM. *out is
 * untouched on error. */
VXC_API vxc_status vxc_solid_surface(const vxc_solid *solid, const vxc_pose *pose, double tol,
                                     long long max_cubes, vxc_surface *out, vxc_error *err);

/* Frees what vxc_solid_surface put in *s (s itself is the caller's); NULL is a no-op. */
VXC_API void vxc_surface_free(vxc_surface *s);

#ifdef __cplusplus
}
#endif

#endif /* VXC_SOLID_H */
