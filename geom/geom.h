/* geom.h: the geometry layer of vxc (internal; prefix vxg_).
 *
 * Solids are cellular. A solid is a named set of cells; a cell is the intersection of
 * primitives; a primitive is a possibly complemented, possibly moved implicit set
 * (half-space, slab, box, sphere, ellipsoid, infinite cylinder, single-nappe cone, torus,
 * general quadric, closed triangle mesh).
 *
 * Internally every primitive is a conjunction of "atoms": implicit functions f with
 * f(x) <= 0 inside. A quadric atom is exact polynomial arithmetic of degree <= 2 (a
 * half-space is a quadric atom with zero Hessian, a box is six of them, a cone is a double
 * cone and a half-space); a torus atom is the exact signed distance to the torus; a mesh
 * atom is the signed distance to the mesh. A complemented primitive is the complement of
 * the conjunction of its atoms.
 *
 * Frames: primitive frame --move--> cell frame --pose--> solid frame --solid pose--> world.
 * Queries work in a "query frame" chosen by the caller (the world, or the world shifted to
 * a nearby reference point so that coordinates stay small): a posed cell carries its atoms
 * transformed into that frame.
 *
 * Geometry is immutable once a solid is finished, so every query on it is thread-safe.
 * Units are SI (metres, radians). */
#ifndef VXG_GEOM_H
#define VXG_GEOM_H

#include <stddef.h>

#include "geom/vxc_types.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846 /* -std=c11 hides it in <math.h> */
#endif

/* Largest coordinate or length a model may use, m: a bigger number is taken to be a unit
 * mistake (millimetres written as metres) and rejected by the model reader. */
#define VXG_MAX_LENGTH 1.0e4
/* Capacities of one cell (the reader reports an error beyond them). */
#define VXG_MAX_PRIMS 32 /* primitives in one cell */
#define VXG_MAX_ATOMS 64 /* atoms in one cell */
#define VXG_NAME_MAX 128 /* bytes in a solid or cell name, with the terminating NUL */

/* ---------------------------------------------------------------------------------------
 * Allocation (geom/solid.c). `al` may be NULL (the C library's allocator). */
void *vxg_alloc(const vxc_allocator *al, size_t size);
void *vxg_realloc(const vxc_allocator *al, void *ptr, size_t size);
/* Grows the array *p of `elem`-byte items to hold `need` (capacity *cap, doubled from 16):
 * 0, or -1 (out of memory or overflow) with *p and *cap unchanged. The one growth rule of
 * every layer. */
int vxg_grow(const vxc_allocator *al, void **p, size_t *cap, size_t need, size_t elem);
/* The capacity vxg_grow moves `cap` to for `need` items of `elem` bytes, in *out: 0, or -1
 * when it or its size in bytes would overflow (for a caller that accounts its memory). */
int vxg_grow_cap(size_t cap, size_t need, size_t elem, size_t *out);
void vxg_free(const vxc_allocator *al, void *ptr);
char *vxg_strdup(const vxc_allocator *al, const char *s);

/* For "did you mean" hints (geom/model.c): the name of cands[0 .. n) (n < 0: up to a NULL)
 * nearest to `word`, when fewer than 3 single-character edits away and fewer than its own
 * length (the first of equals); else NULL (also for names over 32 characters). */
const char *vxg_nearest_name(const char *word, const char *const *cands, int n);

/* Fills `err` (when not NULL) with status, position and a printf-style message.
 * `file` may be NULL, `line`/`column` 0 when not about a file position. Returns `status`. */
vxc_status vxg_error_set(vxc_error *err, vxc_status status, const char *file, int line, int column,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* ---------------------------------------------------------------------------------------
 * Rigid transforms (geom/xform.c): x_out = R x_in + t, R a rotation stored row-major. */
typedef struct vxg_xform {
  double r[9];
  double t[3];
} vxg_xform;

void vxg_xform_identity(vxg_xform *x);
void vxg_xform_translation(vxg_xform *x, double tx, double ty, double tz);
/* Rotation by `angle` radians about `axis` (any non-zero length; normalised here).
 * Returns -1 and leaves x untouched when the axis has zero length or is not finite. */
int vxg_xform_axis_angle(vxg_xform *x, const double axis[3], double angle);
/* Rotation from a quaternion (w, x, y, z), normalised here. Returns -1 and leaves x
 * untouched when the quaternion is zero or not finite. */
int vxg_xform_quat(vxg_xform *x, double qw, double qx, double qy, double qz);
/* out = a o b (apply b first, then a). `out` may alias either input. */
void vxg_xform_compose(vxg_xform *out, const vxg_xform *a, const vxg_xform *b);
void vxg_xform_inverse(vxg_xform *out, const vxg_xform *a);
void vxg_xform_point(const vxg_xform *x, const double p[3], double out[3]);
void vxg_xform_vector(const vxg_xform *x, const double v[3], double out[3]);     /* R v */
void vxg_xform_vector_inv(const vxg_xform *x, const double v[3], double out[3]); /* R^T v */
/* Quaternion (w, x, y, z) of the rotation part, w >= 0. */
void vxg_xform_to_quat(const vxg_xform *x, double q[4]);

/* ---------------------------------------------------------------------------------------
 * Atoms (geom/prim.c): implicit functions, f <= 0 inside. */
typedef enum vxg_atom_kind {
  VXG_ATOM_QUADRIC = 0, /* f = A x^2 + B y^2 + C z^2 + D xy + E yz + F xz + G x + H y + I z + J */
  VXG_ATOM_TORUS = 1,   /* f = sqrt((rho - R)^2 + z^2) - r in the torus frame (exact distance) */
  VXG_ATOM_MESH = 2     /* f = signed distance to a closed mesh, negative inside */
} vxg_atom_kind;

struct vxg_mesh; /* geom/mesh.c (triangle meshes, Embree); opaque here */

typedef struct vxg_atom {
  vxg_atom_kind kind;
  double q[10];                /* VXG_ATOM_QUADRIC: coefficients A..J in the atom's frame */
  vxg_xform to_local;          /* TORUS, MESH: atom's frame -> the primitive's own frame */
  double size[2];              /* TORUS: R (major), r (minor); MESH: scale, and the sum of the
                                  mesh box's |coordinates| (a size for rounding allowances) */
  const struct vxg_mesh *mesh; /* MESH: borrowed from the solid */
} vxg_atom;

/* Classification of a box against a set. */
typedef enum vxg_class {
  VXG_OUTSIDE = 0, /* no point of the box is in the set */
  VXG_INSIDE = 1,  /* every point of the box is in the set */
  VXG_MIXED = 2    /* either (the answer when a bound cannot decide) */
} vxg_class;

/* Value of the atom at `p` (atom frame), and its gradient when `grad` is not NULL. */
double vxg_atom_eval(const vxg_atom *a, const double p[3], double grad[3]);
/* Conservative classification of the axis-aligned box centre c, half-extents e (atom
 * frame) against {f <= 0}: INSIDE or OUTSIDE are certain, including floating-point
 * rounding of vxg_atom_eval; MIXED when unsure. */
vxg_class vxg_atom_classify(const vxg_atom *a, const double c[3], const double e[3]);
/* A lower bound, rounding included, of the quadric q (coefficients A..J as an atom's,
 * query or atom frame; f in the units of q) over the axis-aligned box centre c, half-extents
 * e (m), where mag[k] >= |q[k]| bounds each coefficient and its own rounding (a sum of
 * scaled quadrics: the sum of their coefficients' magnitudes). */
double vxg_quadric_lower(const double q[10], const double mag[10], const double c[3],
                         const double e[3]);
/* vxg_atom_eval given an upper bound on |f(p)| (HUGE_VAL: none), which keeps a mesh's
 * search to a small ball (vxg_mesh_distance_bounded); the same value and gradient. */
double vxg_atom_eval_bounded(const vxg_atom *a, const double p[3], double bound, double grad[3]);
/* vxg_atom_classify for atoms whose value costs a search (meshes), with what the search
 * learnt of the value: `bound` is an upper bound on |f(c)| the caller knows (HUGE_VAL:
 * none; a box's parent's bound plus the distance between their centres, f being
 * 1-Lipschitz), which keeps a mesh's search to a small ball. On return *f is f(c) and grad
 * its gradient, equal to vxg_atom_eval's, or *f is NaN (grad untouched) when the class
 * was found without the value (always for atoms other than meshes); *upper is an upper
 * bound on |f(c)| (HUGE_VAL: none known). */
vxg_class vxg_atom_classify_eval(const vxg_atom *a, const double c[3], const double e[3],
                                 double bound, double *f, double grad[3], double *upper);
/* For an atom that is a convex mesh (not complemented at the atom level: the atom is the
 * mesh's inside): the planes n . x <= d (query frame; planes[4 i ..] = n, d, n unit) of
 * vxg_mesh_planes for the box of half-extents e (m) about c, axes those of the query frame
 * (within its ball), at most `max` (<= VXG_MESH_PLANES_MAX). When the surface meets the
 * box, the atom's set within the box is exactly their intersection. Returns their number,
 * or -1 (not a convex mesh, none, or more than max). */
int vxg_atom_planes(const vxg_atom *a, const double c[3], const double e[3], int max,
                    double *planes);
struct vxg_gather_cache; /* below, with the gathers */
/* The shape of a mesh near a point from the triangles that meet a ball about it
 * (vxg_atom_triangles): convex when every vertex of them lies inside every plane of them,
 * concave when outside, within a tolerance; else general. */
enum { VXG_LOCAL_GENERAL, VXG_LOCAL_CONVEX, VXG_LOCAL_CONCAVE };
/* For a mesh atom (convex or not): vxg_mesh_gather of the ball of radius r about c (query
 * frame; with a cache, the triangles of the canonical ball that holds it, which the shape
 * then describes: every triangle meeting the ball is among them; NULL: of the ball itself),
 * the corners and planes in the query frame (first as there, nullable; a
 * vertex's corners are bitwise equal, and so are a group's planes). gfirst (nullable, one a
 * triangle): gfirst[i] is the lowest j with group[j] == group[i]. With `shape` (nullable),
 * *shape gets their VXG_LOCAL_* shape within tol (m), tested in the mesh's frame; when it
 * is not VXG_LOCAL_GENERAL, only the planes of the groups' first triangles (gfirst[i] == i)
 * are given (the corners and other planes are left unspecified). Returns as
 * vxg_mesh_triangles, or -1 when the atom is not a mesh. */
int vxg_atom_triangles(const vxg_atom *a, const double c[3], double r, int max, double tol,
                       struct vxg_gather_cache *cache, double *tri, double *plane, int *group,
                       int *first, int *gfirst, int *shape);
/* Bound on how far the atom's zero set can stray from its tangent plane at c within the
 * ball of radius `rad` around c: for all |d| <= rad,
 *   |f(c + d) - f(c) - grad f(c) . d| <= *curv_bound.
 * Quadric: |d^T H d| <= ||H||_2 rad^2 (exact Hessian norm bound). Torus, mesh: returns -1
 * (no polynomial bound; callers fall back to the distance bound of a 1-Lipschitz f).
 * Returns 0 with *curv_bound set otherwise. */
int vxg_atom_curvature_bound(const vxg_atom *a, const double c[3], double rad, double *curv_bound);
/* out = the same atom expressed in another frame: x_new = T x_old (T maps the atom's
 * current frame to the new one). */
void vxg_atom_transform(vxg_atom *out, const vxg_atom *a, const vxg_xform *t);

/* ---------------------------------------------------------------------------------------
 * Primitives, cells and solids (geom/prim.c, geom/cell.c, geom/solid.c). */
typedef enum vxg_prim_kind {
  VXG_HALFSPACE = 0, /* nx ny nz d: n.x <= d, n normalised on load */
  VXG_SLAB,          /* axis(0,1,2) lo hi: lo <= x_axis <= hi */
  VXG_BOX,           /* lx ly lz: centred, full edge lengths */
  VXG_SPHERE,        /* r */
  VXG_ELLIPSOID,     /* a b c: semi-axes along x y z */
  VXG_CYLINDER,      /* r: infinite, axis z */
  VXG_CONE,          /* half-angle (rad): apex at the origin, single nappe opening toward +z */
  VXG_TORUS,         /* R r: axis z */
  VXG_QUADRIC,       /* A..J as in the grammar */
  VXG_MESH,          /* scale */
  VXG_NPRIM_KIND
} vxg_prim_kind;

/* The model-file keyword of a kind ("halfspace", ...), or "?" when out of range. */
const char *vxg_prim_kind_name(vxg_prim_kind kind);
/* Number of parameters a kind takes in a model file (mesh: 0, its path is separate). */
int vxg_prim_kind_nparam(vxg_prim_kind kind);

typedef struct vxg_prim {
  vxg_prim_kind kind;
  int complement;        /* 1: the primitive is the complement of the set */
  double param[10];      /* as listed for the kind, SI (cone: radians) */
  vxg_xform move;        /* primitive frame -> cell frame */
  int line, column;      /* where it was read (0 when built in code) */
  int first_atom, natom; /* its atoms, in the cell's atom array (cell frame) */
  struct vxg_mesh *mesh; /* VXG_MESH: owned by the primitive */
  char *mesh_path;       /* VXG_MESH: the path as resolved, owned */
} vxg_prim;

/* The axis of a cylinder or cone primitive pr (its round face about its frame's z) posed by
 * to_frame (cell frame -> another): a point p of it (a cone's apex; m) and the unit
 * direction u (into a cone's nappe), in that frame; *r its radius (m; 0 for a cone) and *k 1
 * (a cylinder) or 1 / cos^2 of a cone's half-angle. */
void vxg_prim_axis(const vxg_prim *pr, const vxg_xform *to_frame, double p[3], double u[3],
                   double *r, double *k);

/* A convex set that contains a cell, with a closed-form support function (libccd's view of
 * a cell, and the source of its bounding boxes). */
typedef enum vxg_hull_kind {
  VXG_HULL_BOX = 0,   /* p = half-extents a b c */
  VXG_HULL_SPHERE,    /* p[0] = radius */
  VXG_HULL_ELLIPSOID, /* p = semi-axes a b c */
  VXG_HULL_CYLINDER,  /* p[0] = radius, p[1] = half-length along z */
  VXG_HULL_FRUSTUM,   /* p = z0 r0 z1 r1 (z0 < z1, radii >= 0, circles about z) */
  VXG_HULL_SEGMENT,   /* sphere radius p[0] centred at the origin, cut to z <= p[1] */
  VXG_HULL_TORUS,     /* convex hull of a torus: p[0] = R, p[1] = r, axis z */
  VXG_HULL_POINTS     /* convex hull of points (a convex mesh): pts, npts; p = their
                         mean x y z and their largest distance from the origin */
} vxg_hull_kind;

/* Starting points kept for a points hull's support climb: +-x, +-y, +-z, the 8 diagonals. */
#define VXG_HULL_SEEDS 14

typedef struct vxg_hull {
  vxg_hull_kind kind;
  int exact;       /* 1: the hull is exactly the cell (the cell is convex) */
  vxg_xform frame; /* hull frame -> cell frame */
  double p[4];
  const double *pts; /* VXG_HULL_POINTS: npts x 3, hull frame, borrowed from a mesh */
  int npts;
  const int *adj_off; /* VXG_HULL_POINTS, nullable: neighbours of point i are
                         adj[adj_off[i] .. adj_off[i + 1]) (the hull's edge graph, so
                         that the support can climb instead of scanning every point) */
  const int *adj;
  int seed[VXG_HULL_SEEDS]; /* VXG_HULL_POINTS with adj: the points extreme along the axes
                               and the diagonals, where a climb starts (the one best along
                               its direction) */
} vxg_hull;

typedef struct vxg_cell {
  char *name;       /* owned */
  int line, column; /* where the cell form starts */
  vxg_xform pose;   /* cell frame -> solid frame */
  int nprim;
  vxg_prim prim[VXG_MAX_PRIMS];
  int natom;
  vxg_atom atom[VXG_MAX_ATOMS]; /* cell frame */
  /* derived by vxg_cell_finish: */
  int convex;     /* 1 when the cell is proved convex */
  vxg_hull hull;  /* convex superset of the cell, cell frame */
  double aabb[6]; /* bounding box in the cell frame: lo x y z, hi x y z */
} vxg_cell;

typedef struct vxg_solid {
  char *name;     /* owned */
  char *path;     /* file it was read from (owned), or NULL */
  double density; /* kg/m^3, 0 when the model gives none */
  double unit;    /* metres per length unit of a model file's (units U), 0 when it gives none */
  int ncell;
  size_t cap;
  vxg_cell **cell;         /* owned */
  const vxc_allocator *al; /* borrowed: must outlive the solid */
} vxg_solid;

/* Fills a primitive from its kind and parameters (the atoms are made by vxg_cell_add_prim).
 * Checks the parameters (positive radii and lengths, lo < hi, 0 < cone angle < pi/2,
 * non-zero half-space normal, finite numbers below VXG_MAX_LENGTH, a quadric that is not
 * all zero): VXC_ERR_ARG with a message naming the parameter otherwise. The half-space
 * normal is normalised (and d divided by its length). */
vxc_status vxg_prim_init(vxg_prim *p, vxg_prim_kind kind, const double *param, int nparam,
                         int complement, const vxg_xform *move, vxc_error *err);

/* Creates an empty solid. `name` is copied. Returns VXC_OK, VXC_ERR_NOMEM. */
vxc_status vxg_solid_create(const vxc_allocator *al, const char *name, vxg_solid **out);
void vxg_solid_free(vxg_solid *s);
/* Adds an empty cell (copied name, pose) and returns it in *out. VXC_ERR_ARG when the name
 * is already used in the solid (message names it), VXC_ERR_NOMEM. */
vxc_status vxg_solid_add_cell(vxg_solid *s, const char *name, const vxg_xform *pose, vxg_cell **out,
                              vxc_error *err);
/* Appends a primitive to a cell and makes its atoms in the cell frame. VXC_ERR_LIMIT past
 * VXG_MAX_PRIMS or VXG_MAX_ATOMS. The primitive's mesh pointer moves into the cell. */
vxc_status vxg_cell_add_prim(vxg_cell *c, const vxg_prim *p, vxc_error *err);
/* Derives convexity, hull and bounding box. VXC_ERR_GEOMETRY when the cell has no
 * primitive, is unbounded, or is provably empty; the message names the cell and `file`
 * and the cell's line and column. */
vxc_status vxg_cell_finish(vxg_cell *c, const char *file, vxc_error *err);
/* Bounding box, in the frame reached by `to_frame` (cell frame -> that frame), of the cell
 * (lo x y z, hi x y z). Exact when the hull is exact and for cells that are one bounded
 * primitive with cuts; otherwise conservative. */
void vxg_cell_aabb(const vxg_cell *c, const vxg_xform *to_frame, double aabb[6]);
/* Point-membership test in the cell frame (exact up to rounding). */
int vxg_cell_contains(const vxg_cell *c, const double p[3]);

/* A triangle's corners (9 numbers: three points), given to a caller. */
typedef void (*vxg_tri_fn)(void *ud, const double tri[9]);

/* The surface of cell c placed by to_world (cell frame -> world), for viewing
 * (geom/surface.c): a cell that is one mesh alone gives its triangles; any other is
 * sampled by marching tetrahedra on cubes of edge h (m) where its boundary passes (vertices
 * on the surface up to rounding of the linear interpolation, sharp edges bevelled within
 * about h). Each triangle goes to emit(ud, corners), counter-clockwise seen from outside.
 * Returns VXC_OK, VXC_ERR_ARG (NULL argument, h not finite and > 0), VXC_ERR_LIMIT (more
 * than max_cubes cubes classified, or h below 2^-30 of the cell's size: triangles may
 * have been emitted). */
vxc_status vxg_cell_surface(const vxg_cell *c, const vxg_xform *to_world, double h,
                            long long max_cubes, vxg_tri_fn emit, void *ud);

/* ---------------------------------------------------------------------------------------
 * Model files (geom/model.c): the S-expression grammar of README.md (Model files). */

/* Reads a model file (plain or gzip-compressed, detected from the content). Mesh paths
 * are relative to the model file's folder. On success *out is a finished solid owned by
 * the caller (vxg_solid_free). Returns VXC_OK, VXC_ERR_IO (cannot open or read),
 * VXC_ERR_FORMAT (syntax, unknown form, wrong arguments; file, line and column named),
 * VXC_ERR_GEOMETRY (unbounded or empty cell, duplicate cell name, empty solid),
 * VXC_ERR_LIMIT, VXC_ERR_NOMEM. *out is untouched on failure. */
vxc_status vxg_model_read(const vxc_allocator *al, const char *path, vxg_solid **out,
                          vxc_error *err);
/* Same from a buffer of `len` bytes (not NUL-terminated; gzip data is accepted too).
 * `name` is used in messages; `dir` is the folder for relative mesh paths (NULL: "."). */
vxc_status vxg_model_parse(const vxc_allocator *al, const char *buf, size_t len, const char *name,
                           const char *dir, vxg_solid **out, vxc_error *err);

/* ---------------------------------------------------------------------------------------
 * Posed cells: a cell's atoms expressed in a query frame, for box classification. */
typedef struct vxg_posed_cell {
  const vxg_cell *cell;
  vxg_xform to_frame; /* cell frame -> query frame */
  int natom;
  vxg_atom atom[VXG_MAX_ATOMS]; /* query frame; grouped per primitive as in the cell */
  double aabb[6];               /* bounding box in the query frame */
} vxg_posed_cell;

/* Poses `c` by `to_frame` (cell frame -> query frame): transforms every atom and the box. */
void vxg_posed_cell_init(vxg_posed_cell *pc, const vxg_cell *c, const vxg_xform *to_frame);
/* Conservative classification of the box (centre c, half-extents e, query frame) against
 * the cell: INSIDE / OUTSIDE are certain for every point of the box; MIXED when unsure.
 * Concave cells (complements) are classified correctly whatever the box's corners say. */
vxg_class vxg_posed_cell_classify(const vxg_posed_cell *pc, const double c[3], const double e[3]);
/* Point-membership test in the query frame. */
int vxg_posed_cell_contains(const vxg_posed_cell *pc, const double p[3]);

/* ---------------------------------------------------------------------------------------
 * Triangle meshes (geom/mesh.c). */

/* A mesh is read from a file (binary or ASCII STL, Wavefront OBJ with polygons fanned into
 * triangles, ASCII or binary little-endian PLY; any of them gzip-compressed), scaled, welded
 * (vertices closer than 1e-6 of the bounding-box diagonal merge), cleared of degenerate
 * triangles (a warning: info.ndegenerate), checked (closed, edge- and vertex-manifold,
 * consistently oriented) and turned outward when the whole file is inside out
 * (info.flipped). Its frame is the file's coordinates times the scale, metres. The mesh
 * owns an Embree device and scene (one per mesh, building on the caller's thread, never a
 * global one) and is immutable afterwards: distance queries from several threads are
 * safe. Memory other than Embree's goes through `al`, which must outlive the mesh. */

/* What the reports show of a mesh (mesh frame, SI). */
typedef struct vxg_mesh_info {
  int ntri, nvert;    /* after welding and dropping */
  double aabb[6];     /* lo x y z, hi x y z, m */
  double volume;      /* m^3 (> 0) */
  double area;        /* m^2 */
  double centroid[3]; /* of the enclosed volume, m */
  int convex;         /* 1: one component, no reflex edge (its vertices' hull is the mesh) */
  int ncomponent;     /* connected components (shells) */
  int ndegenerate;    /* warning: degenerate triangles dropped on load */
  int nwelded;        /* duplicate vertices merged by welding */
  int flipped;        /* 1: the file was inside out and every triangle was reversed */
  int gzip;           /* 1: the file was gzip-compressed */
  const char *format; /* "binary STL", "ASCII STL", "OBJ", "ASCII PLY", "binary PLY",
                         "arrays" (static strings) */
} vxg_mesh_info;

/* Loads a closed triangle mesh from `path`, scaled by `scale` (> 0, e.g. 0.001 for a file
 * in millimetres). On success *out is owned by the caller (vxg_mesh_free). Returns VXC_OK;
 * VXC_ERR_IO (cannot open or read); VXC_ERR_FORMAT (syntax, truncation, wrong counts, a
 * non-finite number, a binary STL whose size does not match its triangle count, corrupt
 * gzip data: the message names the file and the line (text) or the triangle and byte offset
 * (binary)); VXC_ERR_GEOMETRY (no triangle left; open: boundary edges; non-manifold edges or
 * vertices; inconsistently oriented faces; zero volume; a coordinate beyond VXG_MAX_LENGTH:
 * the message gives the counts and the first offending triangle, by line or by number and
 * byte offset); VXC_ERR_LIMIT (input beyond 1 GiB or 2^26 vertices or triangles);
 * VXC_ERR_NUMERIC (Embree failed); VXC_ERR_NOMEM. *out is untouched on failure. */
vxc_status vxg_mesh_load(const vxc_allocator *al, const char *path, double scale,
                         struct vxg_mesh **out, vxc_error *err);
/* Same from a buffer of `len` bytes holding a file's content; `name` (used in messages and,
 * through its extension, to tell a binary STL from other data) may be NULL. */
vxc_status vxg_mesh_parse(const vxc_allocator *al, const void *buf, size_t len, const char *name,
                          double scale, struct vxg_mesh **out, vxc_error *err);
/* Same from arrays: `v` holds nv x 3 coordinates, `tri` nt x 3 vertex indices (0-based);
 * both are copied. Errors name triangles by their index. VXC_ERR_ARG for an index out of
 * range or a non-finite coordinate; VXC_ERR_LIMIT beyond 2^26 vertices or triangles. */
vxc_status vxg_mesh_create(const vxc_allocator *al, const double *v, int nv, const int *tri, int nt,
                           double scale, const char *name, struct vxg_mesh **out, vxc_error *err);
/* Frees a mesh; NULL is a no-op. */
void vxg_mesh_free(struct vxg_mesh *m);
/* Another holder of m (the model reader gives one mesh to every cell naming the same file
 * at the same scale); returns m. Each holder calls vxg_mesh_free once; the last frees it.
 * Not atomic: share and free within one thread (one solid's loading and freeing). */
struct vxg_mesh *vxg_mesh_share(struct vxg_mesh *m);
/* The mesh's report figures. */
void vxg_mesh_get_info(const struct vxg_mesh *m, vxg_mesh_info *info);
/* The vertices (nvert x 3, mesh frame, borrowed from the mesh) and their number. */
const double *vxg_mesh_vertices(const struct vxg_mesh *m, int *nvert);
/* Vertex adjacency (CSR, borrowed): neighbours of i are adj[off[i] .. off[i + 1]). */
void vxg_mesh_adjacency(const struct vxg_mesh *m, const int **off, const int **adj);
/* Signed distance from p (mesh frame) to the mesh: negative inside, 1-Lipschitz. The sign
 * comes from the angle-weighted pseudo-normal of the closest feature (face, edge or vertex).
 * grad (nullable) receives the unit gradient: the direction from the closest point to p,
 * turned outward (the feature's pseudo-normal when p is on the surface). closest
 * (nullable) receives the closest point. */
double vxg_mesh_distance(const struct vxg_mesh *m, const double p[3], double grad[3],
                         double closest[3]);
/* 1 when p (mesh frame) lies in the closed mesh (vxg_mesh_distance <= 0), else 0. A convex
 * mesh of at most VXG_MESH_SCAN_TRIS triangles is read from its faces' planes (inside
 * every one), without a closest-point search. */
#define VXG_MESH_SCAN_TRIS 64
int vxg_mesh_contains(const struct vxg_mesh *m, const double p[3]);
/* Side of the ball of radius r about p (mesh frame): -1 wholly inside the mesh, 1 wholly
 * outside, 0 when the surface comes within r of p. A bounded nearest-triangle search, then
 * ray parity for the sign (both with double-precision tests on the triangles), so a ball
 * far from the surface costs little. */
int vxg_mesh_classify_ball(const struct vxg_mesh *m, const double p[3], double r);
/* Most planes vxg_mesh_planes gives, and most triangles vxg_mesh_triangles gives. */
#define VXG_MESH_PLANES_MAX 32
#define VXG_MESH_TRIS_MAX 96
/* The distinct planes (n . x <= d, n unit and outward: planes[4 i .. 4 i + 3] = n, d) of
 * the triangles within distance r of p (mesh frame), a group of coplanar neighbours
 * (normals and offsets within 1e-12, joined when the mesh is built) giving the plane of
 * its lowest triangle, in increasing order of that triangle; at most `max` (1 to
 * VXG_MESH_PLANES_MAX). With a box (nullable: unit axes box[3 j .. 3 j + 2], outer and
 * inner half-extents box[9 + j] and box[12 + j], j < 3, mesh frame, centred on p, the
 * outer within the ball), only the triangles that also meet the outer box's three slabs
 * when one of them surely meets the inner box (its point nearest p lies in it), else the
 * ball's. Returns their number, or -1 when there are more, or none. For a convex mesh
 * (info.convex) whose surface meets the ball (p, r), the mesh's inside within the ball
 * (with a box, within its inner box) is exactly the intersection of these half-spaces
 * within it (near a boundary point, a convex polyhedron is the intersection of the
 * half-spaces of the faces through it, and every such face meets the ball, or the outer
 * box; when the surface meets the inner box, that box holds a point of the inside). */
int vxg_mesh_planes(const struct vxg_mesh *m, const double p[3], double r, const double *box,
                    int max, double *planes);
/* The triangles within distance r of p (mesh frame), at most `max` (>= 1), in increasing
 * order of their index: tri[9 i ..] their corners (counter-clockwise seen from outside),
 * plane[4 i ..] their plane (n . x <= d inside, n unit and outward), group[i] their group of
 * coplanar neighbours (the lowest triangle's index; equal groups share one plane). Every
 * triangle that meets the ball is listed (a few beyond it may be); max is 1 to
 * VXG_MESH_TRIS_MAX. first (nullable, 3 a triangle): first[3 i + k] is the lowest corner
 * index 3 j + l that is the same mesh vertex as corner k of triangle i (itself when it is
 * that vertex's first corner), so that a vertex shared by several triangles is looked at
 * once. Returns their number (0: none near), or -1 when there are more. */
int vxg_mesh_triangles(const struct vxg_mesh *m, const double p[3], double r, int max, double *tri,
                       double *plane, int *group, int *first);
/* first[c] = the lowest index i <= c with key[i] == key[c], for keys >= 0 (mesh vertex,
 * triangle or group ids), n at most VXG_FIRST_SAME_MAX: a small hash table, linear in n. */
#define VXG_FIRST_SAME_MAX (3 * VXG_MESH_TRIS_MAX)
void vxg_first_same(const int *key, int n, int *first);
/* ---- Gathers by canonical balls, and their cache (geom/gather.c) ----
 * A gather about p of radius r reads the triangles of a canonical ball of the mesh's frame
 * that holds the ball (p, r): its radius the least of the ladder 2^(k/16) m (integer k) that
 * leaves room, its centre the point of the lattice of spacing a 32nd of that radius nearest
 * p. Nearby requests of about one size read the same ball, so its triangles depend only on
 * the ball, whichever request read them first: a cache then changes no result. */
typedef struct vxg_gather_slot {
  unsigned long long mesh; /* the mesh's serial (vxg_mesh_serial), 0: empty */
  long long key[4];        /* the ball: its ladder step and lattice point */
  int max, n;              /* the max asked and vxg_mesh_triangles's count (-1: more) */
  unsigned long long used; /* the cache's clock when last read */
  double tri[9 * VXG_MESH_TRIS_MAX], plane[4 * VXG_MESH_TRIS_MAX];
  int group[VXG_MESH_TRIS_MAX], first[3 * VXG_MESH_TRIS_MAX], gfirst[VXG_MESH_TRIS_MAX];
  double reach[2];         /* vxg_mesh_gather's reach of its triangles */
} vxg_gather_slot;
/* The caller's memory for a cache: nslot (a power of two, at least 4, or 0: no cache)
 * slots, zeroed before first use (all empty), in sets of 4: a ball may sit in any of its
 * set's, and a miss replaces the one read least recently; hits and misses count its
 * lookups, clock them all. One thread at a time. */
typedef struct vxg_gather_cache {
  vxg_gather_slot *slot;
  int nslot;
  long long hits, misses;
  unsigned long long clock;
} vxg_gather_cache;
/* The canonical ball (mesh frame, m) holding the ball of radius r about p: *cr its radius,
 * cp its centre, key its identity (ladder step, lattice point); 0, or -1 when r is not
 * positive and finite or p too far from the origin for the lattice (the ball (p, r) is then
 * to be read as it is). */
int vxg_gather_ball(const double p[3], double r, double cp[3], double *cr, long long key[4]);
/* vxg_mesh_gather's reach is exact up to this share of the ball's radius. */
#define VXG_REACH_CAP 1e-6
/* vxg_mesh_triangles of the canonical ball holding (p, r) (mesh frame; of that ball itself
 * when cache is NULL), with gfirst (one a triangle: the lowest j of the same group) and how
 * far they stray from their groups'
 * planes (m): reach[0] the largest n . v - d of a vertex v of them beyond such a plane,
 * reach[1] the largest d - n . v (-HUGE_VAL with no triangle), so that they are convex
 * within tol when reach[0] <= tol and concave when reach[1] <= tol (exact up to
 * VXG_REACH_CAP times the ball's radius, at least r: when both exceed it, some values above
 * it, and tol at least VXG_REACH_CAP r tells no shape); from the cache when it
 * holds that ball (a cache without slots reads it each time; a miss fills a slot): the same
 * figures either way.
 * Returns as vxg_mesh_triangles (reach unspecified when -1). */
int vxg_mesh_gather(const struct vxg_mesh *m, const double p[3], double r, int max,
                    vxg_gather_cache *cache, double *tri, double *plane, int *group, int *first,
                    int *gfirst, double reach[2]);
/* A number naming the mesh among all meshes built by this process (from 1, never reused):
 * the key of its gathers in a cache that outlives one mesh. */
unsigned long long vxg_mesh_serial(const struct vxg_mesh *m);

/* vxg_mesh_distance when the caller knows that the mesh comes within `bound` of p (an upper
 * bound on |distance|; HUGE_VAL: unknown): the search is then one ball of that radius
 * (shrinking as closer triangles are found), the cost of a query near the surface. A bound
 * that is wrong costs time, never the answer. */
double vxg_mesh_distance_bounded(const struct vxg_mesh *m, const double p[3], double bound,
                                 double grad[3], double closest[3]);
/* vxg_mesh_classify_ball that may also give the signed distance at p in *dist with its
 * gradient in grad, and an upper bound on |distance| in *upper (all nullable), given
 * `bound` as in vxg_mesh_distance_bounded. First a test for a triangle within r (the first
 * one met): a hit leaves the ball undecided with *upper = r. On a miss, when the bound
 * spans at most two triangle sizes, one bounded search gives all three (*upper = |*dist|);
 * otherwise ray parity decides the side. *dist is NaN (grad untouched) and *upper HUGE_VAL
 * when not found. */
int vxg_mesh_classify_ball_dist(const struct vxg_mesh *m, const double p[3], double r, double bound,
                                double *dist, double grad[3], double *upper);

/* ---------------------------------------------------------------------------------------
 * Support functions and libccd (geom/support.c). */

/* Support point of the hull in direction d (cell frame): a point of the hull maximising
 * d . x. */
void vxg_hull_support(const vxg_hull *h, const double d[3], double out[3]);
/* The box (lo x y z, hi x y z) of the hull placed by `to` (cell frame -> a frame, composed
 * with the hull's own frame), from its supports along that frame's axes (a box hull's in
 * closed form), m. */
void vxg_hull_box(const vxg_hull *h, const vxg_xform *to, double box[6]);
/* Sets h->seed for a VXG_HULL_POINTS hull with pts and npts set (O(npts), once). */
void vxg_hull_seeds(vxg_hull *h);

/* Result of a convex overlap query between two posed cells. */
typedef struct vxg_mpr_result {
  int overlap;   /* 1 when the hulls overlap */
  int exact;     /* 1 when both hulls are exact (the answer is about the cells) */
  double depth;  /* penetration depth along dir, m (overlap only) */
  double dir[3]; /* unit penetration direction, from A toward B (overlap only) */
  double pos[3]; /* a point in the middle of the overlap (overlap only) */
} vxg_mpr_result;

/* libccd MPR between the hulls of cells a and b posed by to_a, to_b (cell -> query frame).
 * Iterations bounded and tolerances scaled to the hulls' size. Returns VXC_OK (result
 * filled), VXC_ERR_NUMERIC if libccd failed. */
vxc_status vxg_mpr(const vxg_cell *a, const vxg_xform *to_a, const vxg_cell *b,
                   const vxg_xform *to_b, vxg_mpr_result *res);

/* Distance between the hulls of cells a and b posed by to_a, to_b (cell -> query frame),
 * by GJK on their support functions: 0 when the hulls overlap. Exact for exact hulls (the
 * cells' own distance), a lower bound of the cells' distance otherwise. pa and pb
 * (nullable) receive the closest points (query frame). Returns VXC_OK, or
 * VXC_ERR_NUMERIC when the iteration did not converge (*dist then holds a lower bound). */
vxc_status vxg_hull_distance(const vxg_cell *a, const vxg_xform *to_a, const vxg_cell *b,
                             const vxg_xform *to_b, double *dist, double pa[3], double pb[3]);

/* A convex shape's support: p gets a point of the shape maximising d . x (query frame). */
typedef void (*vxg_support_fn)(const void *shape, const double d[3], double p[3]);
/* GJK distance between two convex shapes given by their supports (geom/distance.c): 0 when
 * they overlap or come within eps (m) of each other; else within 2 eps of the distance.
 * pa, pb (nullable): closest points. Returns VXC_OK, or VXC_ERR_NUMERIC when the iteration
 * did not converge (*dist then holds a lower bound). */
vxc_status vxg_gjk_distance(vxg_support_fn sup_a, const void *a, vxg_support_fn sup_b,
                            const void *b, double eps, double *dist, double pa[3],
                            double pb[3]);

/* Distance between cells a and b posed by to_a, to_b (cell -> query frame), for cells
 * known not to overlap (no common volume: a query found them apart), m, in *dist
 * (geom/cell_distance.c). *exact is 1 when it is the cells' own distance: two convex
 * cells (GJK on their exact hulls, vxg_hull_distance), two cells that are each one mesh
 * alone (the least distance between their triangles: apart, closed solids' closest points
 * lie on their surfaces), or one such mesh and a convex cell (the least GJK distance
 * between a triangle and the cell, to 2e-12 of their size); the meshes' bounding-box
 * trees (vxg_mesh_tree_build) prune the triangles. Otherwise *exact is 0 and *dist the
 * hulls' distance, a lower bound (also when a GJK did not converge). `below` (HUGE_VAL:
 * none) is a distance the caller has found elsewhere: a pair whose hulls are at least
 * that far apart is not refined (*dist is then the hulls' distance, *exact 1 only for
 * two convex cells). */
void vxg_cell_distance(const vxg_cell *a, const vxg_xform *to_a, const vxg_cell *b,
                       const vxg_xform *to_b, double below, double *dist, int *exact);
/* The mesh of a cell that is one mesh primitive alone (not complemented), with *to_cell
 * (mesh frame -> cell frame); NULL for any other cell. */
const struct vxg_mesh *vxg_cell_mesh_alone(const vxg_cell *c, vxg_xform *to_cell);
/* Distance between two triangles a and b (9 numbers each: three corners, one frame), m
 * (geom/tri_distance.c): 0 when they meet; else the least of the 6 distances from a corner
 * of one to the other triangle and the 9 between interior points of an edge of each. */
double vxg_tri_tri_distance(const double a[9], const double b[9]);

/* ---------------------------------------------------------------------------------------
 * Convex polyhedra (geom/polyhedron.c): a box clipped by half-spaces, with its exact
 * volume and moments. Used by the bounding-box computation and by the voxel integrator's
 * boundary leaves. Fixed capacity, no allocation. */
#define VXG_POLY_MAX_VERTS 128
#define VXG_POLY_MAX_FACES 48
#define VXG_POLY_MAX_FACE_VERTS 32

typedef struct vxg_poly {
  int nvert, nface;
  double v[VXG_POLY_MAX_VERTS][3];
  int face_n[VXG_POLY_MAX_FACES];                        /* vertices of each face */
  int face[VXG_POLY_MAX_FACES][VXG_POLY_MAX_FACE_VERTS]; /* counter-clockwise seen from outside */
} vxg_poly;

/* Moments of a region, relative to the frame's origin: volume m0 = int dV, first moments
 * m1 = int x dV, second moments m2 = int x x^T dV as (xx, yy, zz, xy, yz, xz). */
typedef struct vxg_moments {
  double m0;
  double m1[3];
  double m2[6];
} vxg_moments;

/* The box with centre c and half-extents e. */
void vxg_poly_box(vxg_poly *p, const double c[3], const double e[3]);
/* Keeps the part of p where n . x <= d (n need not be unit). Returns 0, or -1 when a
 * capacity would be exceeded (p then unchanged). An empty result has nvert = 0. */
int vxg_poly_clip(vxg_poly *p, const double n[3], double d);
/* Exact volume and moments of p about the origin of its coordinates. */
void vxg_poly_moments(const vxg_poly *p, vxg_moments *m);
/* Exact moments of the box (centre c, half-extents e) about the origin. */
void vxg_box_moments(const double c[3], const double e[3], vxg_moments *m);
/* The centroid p (about the moments' origin: m1 / m0) and the inertia J about it (unit
 * density, row-major: int ((q.q) I - q q^T) dV) of moments m; both zero when m0 <= 0. */
void vxg_moments_inertia(const vxg_moments *m, double p[3], double J[9]);
/* Exact moments (vxg_moments, about the target frame's origin) of the volume the mesh
 * encloses, its vertices carried by `to_frame` (mesh frame -> target frame, rigid), by the
 * divergence theorem over its outward triangles (geom/mesh_moments.c); area_vec (nullable)
 * receives the integral of n dA over the surface (zero for a closed mesh, to rounding). */
void vxg_mesh_moments(const struct vxg_mesh *m, const vxg_xform *to_frame, vxg_moments *mom,
                      double area_vec[3]);

/* ---------------------------------------------------------------------------------------
 * Spherical caps and lenses in closed form (geom/cap.c): the interference of a ball with a
 * half-space or with another ball. Any frame (all inputs and outputs in the same one), SI. */

/* The part of the ball (centre c, radius r > 0) where n.(x - c) <= h - r, n a unit axis:
 * pole c - r n, height h from the pole along n (0: empty, 2r: the whole ball), flat face
 * on the plane n.(x - c) = h - r with outward normal n. */
typedef struct vxg_cap {
  double c[3]; /* the ball's centre, m */
  double r;    /* its radius, m */
  double n[3]; /* unit axis: from the pole toward the flat face */
  double h;    /* height, m, in [0, 2r] */
} vxg_cap;

/* Volume of a cap of height h (clamped to [0, 2r]) of a ball of radius r, m^3. */
double vxg_cap_volume(double r, double h);
/* The cap ball (c, r) cut to the half-space n.x <= d (n unit). */
void vxg_cap_of_plane(const double c[3], double r, const double n[3], double d, vxg_cap *cap);
/* The lens of balls (c1, r1) and (c2, r2) as two caps with disjoint insides: cap[0] of ball 1
 * (toward c2), cap[1] of ball 2; the smaller ball whole when one holds the other, both
 * empty when they do not overlap. */
void vxg_lens_caps(const double c1[3], double r1, const double c2[3], double r2, vxg_cap cap[2]);
/* Volume of the lens of balls of radii r1, r2 whose centres are dist apart, m^3. */
double vxg_lens_volume(double r1, double r2, double dist);
/* Squared radius of the cap's flat face (its rim), m^2: its area is pi times it. */
double vxg_cap_rim2(const vxg_cap *cap);
/* Volume *v (m^3), centroid g (m) and second moments about the centroid cm (int (x - g)
 * (x - g)^T dV as xx yy zz xy yz xz, m^5) of the cap; g = c and cm = 0 when it is empty. */
void vxg_cap_central(const vxg_cap *cap, double *v, double g[3], double cm[6]);
/* The cap's exact bounding box (lo x y z, hi x y z), up to rounding. */
void vxg_cap_aabb(const vxg_cap *cap, double box[6]);

/* ---------------------------------------------------------------------------------------
 * A ball against an infinite cylinder by quadrature along its axis (geom/slices.c). */
typedef struct vxg_ball_cyl {
  double v;       /* volume, m^3 (0: empty) */
  double g[3];    /* centroid, m (the ball's centre when empty) */
  double cm[6];   /* central second moments int (x - g)(x - g)^T dV, xx yy zz xy yz xz, m^5 */
  double area[3]; /* int of n dA over the cylinder's wall inside the ball, n outward of the
                     region (the ball's part of the boundary has minus it), m^2 */
  double err;     /* the two rules' difference in v, m^3: the estimate of its error */
  double parts;   /* sum of the magnitudes of the pieces added into v, m^3 (its rounding) */
  double depth;   /* how far the ball crosses the wall, m: rc + r - d (rod) or r + d - rc
                     (bore), d its centre's distance from the axis; <= 0: empty */
  int has_plane;  /* 1: the half-space pn.x <= pd holds the region (the rod's tangent plane
                     facing the ball, or for a ball centred inside the bore the plane of
                     the chord at its centre), whose cap of the ball bounds it (its box) */
  double pn[3], pd;
} vxg_ball_cyl;

/* The ball (c, r) intersected with the cylinder of radius rc about the line through pa along
 * u (u unit), or (inside 1) the ball minus that cylinder, in the frame of c, pa and u.
 * Returns 0 (out filled), or -1 when r or rc is not positive. Not a certified result: err
 * estimates v's error (about 1e-12 v on smooth cases). */
int vxg_ball_cylinder(const double c[3], double r, const double pa[3], const double u[3], double rc,
                      int inside, vxg_ball_cyl *out);

/* ---------------------------------------------------------------------------------------
 * A rod (inside a cylinder or a cone) against a bore (outside another cylinder, or a
 * countersink: outside one nappe of a cone), both cut by planes: a peg pressed into the
 * wall of its hole, a cone pressed into its countersink, by quadrature about the bore's
 * axis (geom/rodbore.c). */
#define VXG_RB_MAX_PLANES 16

typedef struct vxg_rb_plane {
  double n[3]; /* unit normal */
  double d;    /* the half-space n.x <= d, m */
  int owner;   /* the cell whose face it is (0 or 1), -1 none */
} vxg_rb_plane;

typedef struct vxg_rod_bore_in {
  double pa[3], ua[3], ra;   /* the rod: a point of its axis (m), unit direction, radius (m) */
  double ka;                 /* 0 or 1: a cylinder; 1 / cos^2(half-angle) > 1: a cone (both
                                nappes: a plane of the list keeps one), pa its apex, ra 0 */
  int ball;                  /* 1: the rod is the ball of centre pa, radius ra (ua, ka
                                unused); with torus_R > 0, the solid torus of centre pa,
                                axis ua, major radius torus_R and tube radius ra, whose
                                axis must then be the bore's (pa on it, ua along ub) */
  double torus_R;
  double pb[3], ub[3], rb;   /* the bore: the same; the region lies outside it (rb 0 and
                                kb 0 or 1: no bore, the axis only frames the sums;
                                bore_owner unused) */
  double kb;                 /* 0 or 1: the bore is a cylinder; 1 / cos^2(half-angle) > 1:
                                a countersink, the outside of the cone's one nappe that ub
                                points into, pb its apex; with rb > 0 a countersunk hole
                                (the region outside both: the cylinder of radius rb about
                                the cone's axis and the countersink) */
  int rod_owner, bore_owner; /* the cells (0 or 1) whose faces they are */
  int nplane;
  vxg_rb_plane plane[VXG_RB_MAX_PLANES];
  double box[6]; /* a box holding the region (lo x y z, hi x y z), m: it bounds the sums */
  double rtol;   /* the error asked of v: rtol v or atol (m^3), whichever is larger */
  double atol;
  int want_box;  /* 1: fill vxg_rod_bore_out.box (it costs a few times the sums), else it is
                    the input's box */
} vxg_rod_bore_in;

typedef struct vxg_rod_bore_out {
  double v;       /* volume, m^3 (0: empty) */
  double g[3];    /* centroid, m (the bore's point when empty) */
  double cm[6];   /* central second moments, xx yy zz xy yz xz, m^5 */
  double area[3]; /* int of n dA over cell 0's faces of the region, n outward, m^2 */
  double err;     /* estimate of v's error (QUADPACK's, from the two rules), m^3 */
  double box[6];  /* with want_box, a box holding the region, within the input's (lo x y z,
                     hi x y z), m: the union of boxes of its parts over intervals of angle
                     about the bore's axis, each holding a relaxed trace there
                     (geom/rodbore_box.c); sound in exact arithmetic, padded for rounding;
                     inverted when the region is empty; without want_box the input's */
} vxg_rod_bore_out;

/* The region inside the rod (a cylinder, a cone, a ball or a torus), outside the bore, inside
 * every plane and the box, all in one frame (the caller's, m). Returns 0 (out filled, 16 err
 * within the tolerance asked), 1 (out filled, the estimate above that: the budget was
 * spent), or -1 (out zero) when a radius is negative (the rod's zero but for a cone), kb
 * is below 1, there are too many planes, the rod leans more than 60 degrees from the
 * bore's axis (a cone: its wall comes within 30 degrees of the half-planes about that
 * axis), or a torus's axis is not the bore's (within 1e-9 of its size), or its tube reaches
 * the axis (ra >= torus_R). Not a certified result. */
int vxg_rod_bore(const vxg_rod_bore_in *in, vxg_rod_bore_out *out);

#endif /* VXG_GEOM_H */
