/* mesh.h: what geom/mesh.c, geom/mesh_io.c and geom/mesh_embree.c share (internal to geom/).
 *
 * Data structures:
 *  - vxg_soup: a triangle soup as a reader produced it: vertices (n x 3 doubles, file units)
 *    and triangles (n x 3 indices into them), with each triangle's position in the file (a
 *    line for text formats, a byte offset for binary ones) so that errors found later (an
 *    open edge, a flipped face) can name the first offending triangle where the user can
 *    find it. Arrays grow by doubling; indices are checked by the readers (0 <= i < nv).
 *  - struct vxg_mesh: the closed, edge-manifold, consistently outward-oriented mesh after
 *    scaling, welding and dropping degenerate triangles. Invariants: every edge has exactly
 *    two triangles, traversed in opposite directions; the signed volume is positive; face
 *    normals are unit; pseudo-normals (vertex: angle-weighted sum of the face normals around
 *    it; edge: sum of its two face normals) point out. Immutable after vxg_mesh_build, so
 *    queries from many threads are safe (the Embree scene is only read by rtcPointQuery).
 *
 * Feature codes of a closest point on a triangle (vxg_tri_closest): 0 the face, 1..3 the
 * vertex at corner 0..2, 4..6 the edge from corner k to corner k + 1 (k = code - 4). */
#ifndef VXG_MESH_H
#define VXG_MESH_H

#include "geom/geom.h"

/* Largest input (after inflation) and largest counts a mesh reader accepts. */
#define VXG_MESH_MAX_INPUT ((size_t)1 << 28)
#define VXG_MESH_MAX_COUNT (1 << 26)
/* Vertices closer than this fraction of the bounding-box diagonal are welded. */
#define VXG_MESH_WELD_REL 1e-6
/* A triangle whose doubled area is below this fraction of the squared diagonal is
 * degenerate (its normal is undefined) and is dropped. */
#define VXG_MESH_DEGEN_REL 1e-14

typedef struct vxg_mesh vxg_mesh;

/* A node of a mesh's bounding-box tree (mesh_tree.c), mesh frame. */
typedef struct vxg_mesh_node {
  double lo[3], hi[3]; /* bounds of its triangles' corners, m */
  int first, count;    /* count > 0: a leaf, the triangles tree_tri[first .. first + count);
                          else its children are nodes first and first + 1 */
} vxg_mesh_node;

typedef struct vxg_soup {
  const vxc_allocator *al;
  const char *name;   /* for messages (borrowed) */
  const char *format; /* "binary STL", ... (static string) */
  int gzip;           /* 1: the input was gzip-compressed */
  int binary;         /* 1: pos[] are byte offsets, else line numbers */
  double *v;          /* nv x 3 */
  size_t nv, capv;
  int *t;             /* nt x 3 */
  long *pos;          /* nt: line or byte offset of each triangle's source */
  size_t nt, capt;
} vxg_soup;

struct vxg_mesh {
  const vxc_allocator *al;
  char *name;     /* owned: the file name for messages */
  int nvert, ntri;
  double *v;      /* nvert x 3, m, mesh frame (scaled) */
  int *tri;       /* ntri x 3, counter-clockwise seen from outside */
  double *fn;     /* ntri x 3, unit outward face normals */
  double *en;     /* ntri x 9: edge k's pseudo-normal at en[9 t + 3 k] */
  double *vn;     /* nvert x 3, vertex pseudo-normals */
  int *pid;       /* ntri: the plane of each triangle, as the lowest triangle of its group
                     of coplanar neighbours (normals and offsets within 1e-12) */
  int *adj_off;   /* nvert + 1: vertex neighbours adj[adj_off[i] .. adj_off[i + 1]) */
  int *adj;
  double size;    /* bounding-box diagonal, m */
  double tri_size; /* sqrt of the mean triangle area, m: the scale of a search's cost */
  vxg_mesh_info info;
  void *bvh;      /* mesh_embree.c's device and scene */
  vxg_mesh_node *tree; /* bounding-box tree of the triangles (mesh_tree.c), root first */
  int ntree;
  int *tree_tri;  /* ntri: the triangles in the leaves' order */
  unsigned long long serial; /* vxg_mesh_serial: set when built, never reused */
  int refs;       /* holders: 1 when built; vxg_mesh_share adds one, vxg_mesh_free drops one
                     and frees the mesh with the last (not atomic: share within one loader) */
};

/* Soup building (mesh.c). Return 0, or -1 when memory or VXG_MESH_MAX_COUNT runs out. */
int vxg_soup_vertex(vxg_soup *s, double x, double y, double z);
int vxg_soup_tri(vxg_soup *s, int a, int b, int c, long pos);
void vxg_soup_free(vxg_soup *s);

/* Parses a mesh file held in buf (mesh_io.c): inflates gzip data, detects the format from
 * the content (and the name's extension for binary STL) and fills the soup. Returns VXC_OK,
 * VXC_ERR_FORMAT (position named), VXC_ERR_LIMIT, VXC_ERR_NOMEM. */
vxc_status vxg_mesh_io_parse(vxg_soup *s, const unsigned char *buf, size_t len, vxc_error *err);

/* Makes a mesh of the soup (mesh.c): scales, welds, drops degenerate triangles, checks the
 * topology, orients, derives normals and the Embree scene. The soup is left to the caller. */
vxc_status vxg_mesh_build(vxg_soup *s, double scale, struct vxg_mesh **out, vxc_error *err);

/* Closest point cp of triangle (a, b, c) to p; returns the squared distance and the feature
 * code in *feat (mesh.c). */
double vxg_tri_closest(const double p[3], const double a[3], const double b[3],
                       const double c[3], double cp[3], int *feat);

/* Self-intersection (mesh_selfx.c), on a built mesh (vertices, triangles; no BVH needed):
 * *ta < *tb, two triangles that meet other than along what they share (a common vertex or
 * edge), the pair with the lowest *ta found; -1 in both when none. VXC_OK, VXC_ERR_NOMEM or
 * VXC_ERR_NUMERIC (Embree failed; error set). vxg_mesh_tris_meet: 1 when triangles ta and
 * tb meet so (exact predicates), else 0. */
vxc_status vxg_mesh_selfx(const struct vxg_mesh *m, int *ta, int *tb, vxc_error *err);
int vxg_mesh_tris_meet(const struct vxg_mesh *m, int ta, int tb);

/* Embree (mesh_embree.c). Build: VXC_OK, VXC_ERR_NOMEM, VXC_ERR_NUMERIC (Embree failed;
 * message says why). Closest: the squared distance from p to the mesh, with the closest
 * point, its triangle and feature code; `bound` (HUGE_VAL: none) is a distance the caller
 * knows the mesh to come within, which keeps the search to one small ball (a wrong
 * bound costs time, never the answer). */
vxc_status vxg_mesh_bvh_build(struct vxg_mesh *m, vxc_error *err);
void vxg_mesh_bvh_free(struct vxg_mesh *m);
double vxg_mesh_bvh_closest(const struct vxg_mesh *m, const double p[3], double bound,
                            double cp[3], int *tri, int *feat);
/* Triangle t's bounding box rounded outward to floats into Embree's *b, each side widened
 * by pad_rel times (the mesh's size + the side's reach) first. */
struct RTCBounds;
void vxg_mesh_tri_bounds(const struct vxg_mesh *m, int t, double pad_rel, struct RTCBounds *b);
/* 1 when some triangle lies within distance r of p (or p is beyond float range), else 0. */
int vxg_mesh_bvh_near(const struct vxg_mesh *m, const double p[3], double r);
/* The distinct planes (pid) of the triangles within distance r of p (double-precision
 * test) into pid[0 .. n), in the BVH's order, or with `tris` the triangles themselves;
 * with a box (nullable; as vxg_mesh_planes's) only those that also meet its outer box's
 * slabs when one of them surely meets its inner box, else the ball's. Returns n, or -1 when more than `max` are (or p is beyond float range). */
int vxg_mesh_bvh_collect(const struct vxg_mesh *m, const double p[3], double r,
                         const double *box, int max, int tris, int *pid);
/* The bounding-box tree of the triangles (mesh_tree.c), for distances between meshes and
 * to convex cells (cell_distance.c): median splits along the longest side of the
 * triangles' centroids' box, leaves of at most VXG_MESH_TREE_LEAF triangles. Build:
 * VXC_OK or VXC_ERR_NOMEM (through m->al); free: the tree's arrays (NULL after). */
#define VXG_MESH_TREE_LEAF 4
vxc_status vxg_mesh_tree_build(struct vxg_mesh *m, vxc_error *err);
void vxg_mesh_tree_free(struct vxg_mesh *m);
/* Triangle t's corners (mesh frame) into c[9]. */
void vxg_mesh_tri_corners(const struct vxg_mesh *m, int t, double c[9]);

/* Ray parity of p: 1 inside, 0 outside, -1 when every ray tried grazed an edge or a vertex.
 * Meant for points well away from the surface. */
int vxg_mesh_bvh_parity(const struct vxg_mesh *m, const double p[3]);

#endif /* VXG_MESH_H */
