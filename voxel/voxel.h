/* voxel.h: the adaptive octree integrator of vxc (internal; prefix vxv_).
 *
 * Measures a region W given by cells: the intersection of two posed cells A and B (the
 * volume of interference of a contact), or one cell or a whole solid alone (mass
 * properties). For W it reports the volume V, the centroid p_c, the inertia tensor J of W
 * about p_c (unit density, m^5, world axes), a certified bracket [V_lo, V_hi] that contains
 * the true volume, the area vector of A's surface inside B (integral of n_A dA: its
 * direction estimates the contact normal from A toward B, its length the contact area),
 * and work counters. The method is described at the top of voxel/octree.c.
 *
 * A query uses a caller-owned workspace (vxv_workspace): it holds every buffer the query
 * needs and a pool of POSIX threads, grows by doubling outside the inner loops, and is
 * reused across calls (after the first calls of a given size, a query allocates nothing).
 * One workspace serves one query at a time; use one workspace per calling thread.
 * Geometry is only read, so queries on the same cells from several workspaces are safe.
 *
 * Every figure is bitwise identical whatever the thread count: the top of the tree is cut
 * into subtrees that do not depend on the thread count, each is processed by one thread
 * with its own accumulators, and those are reduced in subtree order.
 *
 * Units are SI. Frames: a cell is placed by a rigid transform cell frame -> world; the
 * engine poses it itself into a query frame whose origin (`ref`) is the centre of the
 * bounding-box intersection, so that coordinates and moments stay small. */
#ifndef VXV_VOXEL_H
#define VXV_VOXEL_H

#include <signal.h>
#include <stddef.h>

#include "geom/geom.h"
#include "geom/vxc_types.h"

/* Default memory cap of a query's workspace, bytes. */
#define VXV_DEFAULT_MAX_BYTES ((size_t)64 << 20)
/* Default work cap: boxes classified per query. */
#define VXV_DEFAULT_MAX_BOXES 20000000LL
/* Halvings of h_min the h_min rule may add to resolve a contact smaller than the leaf. */
#define VXV_MAX_HALVINGS 8
/* Largest number of threads a query may use (the caller's thread included). */
#define VXV_MAX_THREADS 64

/* How a boundary leaf's surfaces are replaced by planes. */
typedef enum vxv_plane {
  /* The tangent plane at the leaf centre shifted by the mean of the quadric's second-order
   * remainder over the leaf (for quadrics; the tangent plane for other atoms). The
   * remainder's mean cancels the leading, one-signed part of the linearisation error, so
   * the volume error falls faster than h^2 in practice. Default. */
  VXV_PLANE_MEAN = 0,
  /* The tangent plane g.(x - c) + f(c) <= 0 itself (error second order in h). */
  VXV_PLANE_TANGENT = 1
} vxv_plane;

/* One element of the region a query integrated, reported to a visitor (vxv_options.visit):
 * an octree box wholly inside the region, or a boundary leaf. Boxes have edges along the
 * world axes: cubes, or columns (longer along one axis) under the rtol rule. */
typedef enum vxv_visit_kind {
  VXV_VISIT_RESET = 0, /* forget every element reported so far: the query runs a pass again
                          (the other fields are unset) */
  VXV_VISIT_BOX = 1,   /* a box inside the region: volume = lo = hi = its own, est = 0 */
  VXV_VISIT_LEAF = 2   /* a boundary leaf: the region inside it, integrated (a closed-form
                          result: one leaf, a box holding the region, any shape); a leaf
                          whose region lies in parts apart gives one element per part, each
                          with the leaf's box */
} vxv_visit_kind;

typedef struct vxv_visit {
  vxv_visit_kind kind;
  double c[3];    /* the box's centre, world, m */
  double h;       /* its half-edge, m (a column's across its axis) */
  double e[3];    /* its half-extents along the world axes, m: all h, but a column's along
                     its axis (a leaf the rtol rule split across that axis only) */
  int level;      /* its level below the root grid */
  double m[10];   /* moments of the region in the box about c: m0 (m^3), m1 (m^4), m2
                     (xx yy zz xy yz xz, m^5), world axes */
  double lo, hi;  /* certified bracket of the region's volume in the box, m^3 */
  double est;     /* the leaf's error estimate (vxv_result.error_estimate's share), m^3 */
  double area[3]; /* area vector of A's surface in the box, m^2 */
  double rb[6];   /* a bounding box of the region in the box, world, m (lo x y z, hi x y z;
                     the box's own for a whole box; a leaf's holds its integrated region
                     and its upper polyhedron; a closed-form result's, the solid's box, or
                     for the rod-in-bore quadrature its box of the region, within the
                     leaf's; inverted when the region is empty) */
} vxv_visit;

/* Called with every element of the final region, from the caller's thread; `ud` is
 * vxv_options.visit_ud. The elements of a query are those reported after its last
 * VXV_VISIT_RESET; summed, their figures are the result's. */
typedef void (*vxv_visit_fn)(void *ud, const vxv_visit *v);

/* Query options. Start from vxv_options_default. Stopping rules:
 *  - rtol > 0: refine the leaves that contribute most to V_hi - V_lo first, in rounds,
 *    until (V_hi - V_lo) <= rtol * V, or a cap is reached; h_min > 0 is then a floor on
 *    the leaf edge;
 *  - rtol = 0, h_min > 0: refine every boundary box whose linearisation is not exact
 *    until its edge (a column's across its axis) is <= h_min (a boundary box cut only by
 *    planes is a leaf at any size,
 *    its integration being exact). For two cells without meshes, a contact too small for
 *    that leaf (the estimate below half the bracket's width, e.g. a shallow cap inside one
 *    leaf) is measured again with h_min halved, up to VXV_MAX_HALVINGS times. */
typedef struct vxv_options {
  double h_min;        /* smallest leaf edge, m (0: none) */
  double rtol;         /* target (V_hi - V_lo) / V (0: use the h_min rule) */
  double atol;         /* rtol rule: enough when V_hi - V_lo <= atol, m^3 (0: none) */
  long long max_boxes; /* work cap: boxes classified (0: VXV_DEFAULT_MAX_BOXES) */
  size_t max_bytes;    /* workspace memory cap, bytes (0: VXV_DEFAULT_MAX_BYTES) */
  int threads;         /* threads, the caller's included (<= 1: the caller only) */
  vxv_plane plane;     /* leaf linearisation */
  int certified;       /* tolerance rule: 1 refines by the certified bracket until its width
                          meets the target; 0 (default) by the leaves' error estimates until
                          their sum (res->error_estimate) meets it */
  int hull_test;       /* two cells: first test their convex hulls' overlap by MPR (res->mpr);
                          VXC_NO_CONTACT at once when they do not overlap. With several
                          threads the test runs beside the root grid's classification */
  int parent_est;      /* h_min rule: 1 integrates each box split into final leaves as a
                          leaf too, so that its leaves' error estimate is |V_parent - sum of
                          V_children| as under the rtol rule (halved where the parent and
                          its leaves all have third-order values; the parents integrated
                          for their value alone); 0 (default): the leaves' bracket widths */
  vxv_visit_fn visit;  /* NULL, or the visitor of the region's elements, called from the
                          caller's thread alone, in the same order on any number of threads */
  void *visit_ud;
  const volatile sig_atomic_t *stop; /* NULL, or a flag the caller may set (another thread,
                          a signal handler): the query then ends within about a
                          millisecond, capped, with VXC_ERR_STOPPED */
  int closed_form; /* two cells: 1 (default) measures a ball on a plane or two balls in
                      closed form when no other surface of the cells meets their
                      interference (closed.c: exact, no octree, whatever the rule), a
                      ball against a cylinder or over an edge and a rod, a cone or a ball
                      against a bore or a countersink by quadrature (not under the
                      certified rule; res->closed_form 2), and proves a cell inside
                      another's bore (a complemented cylinder) apart and a rod whose
                      surface is its bore's or its countersink's empty; 0 runs the octree
                      (after the bore's strict proof: skip_apart_proof) */
  int linear_leaves; /* 1: no leaf is integrated about an axis (the revolution rule,
                        leaf.c): every leaf by its linearised surfaces */
  int loose_bounds; /* 1: a quadrature's element, or a revolution leaf, reports the box it
                       was given as its bounds instead of a box of its region
                       (geom/rodbore_box.c, which costs
                       about a tenth of the quadrature): for callers that need no tight
                       penetration bracket (a tracked pair); 0 (default) */
  int planar_bracket; /* 1: under the fixed-leaf rule without parent_est, a leaf's volume
                         bracket is its planar enclosures' (volume_lo, volume_hi wider, every
                         other figure the same), not narrowed by third-order slabs: for
                         callers that read no volume bracket (a tracked pair); 0 (default) */
  int reuse_gathers; /* 1: a leaf reads a mesh's triangles near it from the canonical ball
                        that holds its ball, through its thread's cache kept from one query
                        to the next (geom/gather.c: the same figures, hit or miss): for a
                        tracked pair, whose next query moves the bodies by little; 0
                        (default): from the leaf's own ball */
  int skip_apart_proof; /* two cells, closed forms off: 0 (default) proves the cells apart
                           before the root grid when one's hull, cut by the region's box,
                           lies inside the cylinder of a complemented cylinder of the other
                           (a peg in a hole: bore.c, strictly, without closed_form's
                           allowance for a touching peg), a result the octree would give
                           with no box classified; 1: the octree alone (tests compare) */
  int apart_reach; /* two cells, closed forms off, the apart proof run: 1 first tries the
                      bore's proof over the region's box grown by a reach D (a 64th of the
                      bore's radius) on every side, against the bore's radius less D; when it
                      holds, res->apart_reach = D: the cells stay apart while every point of
                      one moves by at most D relative to the other (a tracked pair then skips
                      its queries until they have); 0 (default): the strict proof alone */
} vxv_options;

/* rtol = 1e-3, h_min = 0, default caps, one thread, VXV_PLANE_MEAN, no hull test, closed
 * forms on. */
void vxv_options_default(vxv_options *o);

/* The outcome of a query. All vectors and tensors are in world axes. */
typedef struct vxv_result {
  double volume;         /* V, m^3 */
  double volume_lo;      /* certified lower bound of the true volume, m^3 (but for
                            quadrature_leaves and closed_form 2) */
  double volume_hi;      /* certified upper bound, m^3; volume_lo <= volume <= volume_hi */
  double centroid[3];    /* p_c, world, m (ref when V = 0) */
  double inertia[9];     /* J about p_c, row-major: int ((q.q) I - q q^T) dV, m^5 */
  double area_vector[3]; /* int of n_A dA over A's surface inside B, m^2 (two cells);
                            over the whole surface for one cell (about zero) */
  double contact_area;   /* |area_vector|, m^2 */
  double error_estimate; /* estimate of |V - true volume|, m^3: the sum over the leaves of
                            |V_parent - sum of V_children| shared among the children (the
                            bracket's width for a leaf whose parent was not integrated, as
                            under the h_min rule); 0 for an exact result */
  double moment_width;   /* the width of the leaves' planar enclosures, m^3: of the order of
                            the bracket the moments (not only V) are known to; the volume
                            bracket can be narrower (a leaf with one curved quadric has a
                            third-order volume bracket) */
  double ref[3];         /* the query frame's origin, world, m */
  vxg_moments mom;       /* volume, first and second moments about ref (world axes) */
  long long boxes;       /* boxes classified */
  long long leaves;      /* boundary leaves integrated */
  long long quadrature_leaves; /* of those, integrated by quadrature about an axis (the
                                  revolution rule, voxel/README.md): their share of the
                                  bracket is the quadrature's, not certified */
  int depth;             /* deepest level reached (0: the root grid) */
  int rounds;            /* refinement rounds run (rtol rule; 1 for the h_min rule) */
  int capped;            /* 1 when less accurate than asked: rtol rule, the bracket wider than
                            max(rtol V, atol) at the end; h_min rule, a cap stopped leaves above
                            h_min; the figures are then those of the smallest doubled leaf edge
                            whose pass completed, and the counters include the discarded
                            work */
  int threads;           /* threads actually used */
  double root_size;      /* edge of the root grid's cubes, m */
  double leaf_size_min;  /* edge of the smallest leaf integrated, m (0: none) */
  size_t peak_bytes;     /* bytes the workspace held at the query's peak */
  int closed_form;       /* 1 when measured in closed form (vxv_options.closed_form): the cap
                            of a ball on a plane or the lens of two balls (or a proof that
                            the cells are apart: a cell inside the other's bore, a rod
                            flush in its bore or countersink), exact up to
                            the rounding the bracket allows; error_estimate and moment_width 0,
                            one leaf (none when empty); boxes counts the boxes classified
                            to decide it. 2: a ball against a cylinder by quadrature along
                            its axis, a rod, a cone or a ball against a bore or a
                            countersink about the bore's axis
                            or a ball over an edge about it (not under the certified rule): error_estimate
                            is the       quadrature's (about 1e-15 V for the ball), the bracket a       multiple of it
                            plus rounding (moment_width its half-width), not       certified */
  double apart_reach;    /* m: 0, or the reach D of vxv_options.apart_reach when its proof
                            held (no contact) */
  int hull_tested;       /* 1 when the hull test ran (hull_test, and the boxes overlap) */
  int mpr_status;        /* then: VXC_OK (mpr filled, world frame), or VXC_ERR_NUMERIC when
                            libccd failed (the query went on without it) */
  vxg_mpr_result mpr;
} vxv_result;

typedef struct vxv_workspace vxv_workspace;

/* Creates an empty workspace. `al` may be NULL (the C library's allocator) and is borrowed:
 * it must outlive the workspace. Returns VXC_OK, VXC_ERR_ARG (out NULL), VXC_ERR_NOMEM. */
vxc_status vxv_workspace_create(const vxc_allocator *al, vxv_workspace **out);
/* Stops the workspace's threads and frees it; NULL is a no-op. */
void vxv_workspace_free(vxv_workspace *ws);
/* Bytes the workspace holds now. */
size_t vxv_workspace_bytes(const vxv_workspace *ws);
/* Starts the pool's threads and scratch areas for queries with up to `threads` threads now
 * rather than at the first such query (for benchmarks). Returns the number of threads
 * available (1 when none could be started; queries then run on the caller's thread, with
 * the same figures). */
int vxv_workspace_reserve(vxv_workspace *ws, int threads);

/* Integrates the intersection of cell `a` placed by `a_to_world` (cell frame -> world) and
 * cell `b` placed by `b_to_world`. `opt` may be NULL (defaults). Returns VXC_OK with *res
 * filled; VXC_NO_CONTACT with *res filled (zero volume and moments, counters) when the
 * cells provably do not overlap (disjoint bounding boxes, every box outside one cell, or,
 * with opt->hull_test, disjoint hulls: then no box is counted);
 * VXC_ERR_ARG (a NULL argument, bad options, a non-finite transform: *res untouched);
 * VXC_ERR_NOMEM (the workspace could not get its first buffers: *res untouched). Reaching
 * the work or memory cap is not an error: the bracket is then wider and res->capped = 1. */
vxc_status vxv_intersect(vxv_workspace *ws, const vxg_cell *a, const vxg_xform *a_to_world,
                         const vxg_cell *b, const vxg_xform *b_to_world, const vxv_options *opt,
                         vxv_result *res);

/* Mass properties (unit density) of one cell placed by `to_world`. area_vector is the
 * integral of n dA over the whole surface. Statuses as vxv_intersect (never NO_CONTACT
 * for a non-empty cell). */
vxc_status vxv_cell_massprops(vxv_workspace *ws, const vxg_cell *c, const vxg_xform *to_world,
                              const vxv_options *opt, vxv_result *res);

/* Mass properties (unit density) of a solid placed by `to_world` (solid frame -> world):
 * the sum over its cells, each placed by to_world o cell->pose. Cells are taken as
 * disjoint (overlapping cells count twice). Counters add up; rtol applies per cell.
 * Returns VXC_OK, VXC_ERR_ARG (also for a solid without cells), VXC_ERR_NOMEM. */
vxc_status vxv_solid_massprops(vxv_workspace *ws, const vxg_solid *s, const vxg_xform *to_world,
                               const vxv_options *opt, vxv_result *res);

/* Combines the results of disjoint regions (e.g. the cell pairs of two solids) into one:
 * volumes, brackets, moments, area vectors and counters add; centroid and J are formed from
 * the summed moments about parts[0].ref; peak_bytes is the largest. Returns VXC_OK or
 * VXC_ERR_ARG (n < 1 or a NULL pointer). `out` may alias parts[0]. */
vxc_status vxv_result_sum(const vxv_result *parts, int n, vxv_result *out);

/* The uniform-grid baseline (for benchmarks): every cube of edge h of a grid over the
 * bounding-box intersection of the two cells is classified by its centre (point
 * membership) and counted whole. Fills volume, centroid, inertia, mom, ref, boxes (cubes
 * tested), leaves (cubes counted), root_size = leaf_size_min = h; the bracket is
 * [volume, volume] (not certified). Returns VXC_OK, VXC_NO_CONTACT, VXC_ERR_ARG (h <= 0,
 * more than 2^40 cubes, NULL arguments). */
vxc_status vxv_grid_baseline(vxv_workspace *ws, const vxg_cell *a, const vxg_xform *a_to_world,
                             const vxg_cell *b, const vxg_xform *b_to_world, double h,
                             vxv_result *res);

#endif /* VXV_VOXEL_H */
