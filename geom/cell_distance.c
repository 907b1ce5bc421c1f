/* cell_distance.c: the distance between two posed cells that do not overlap, exact where a
 * mesh is involved.
 *
 * Two closed sets A and B that do not meet are closest at points of their boundaries: if
 * the closest point a of A were inside A, a step from a toward B would stay in A and come
 * closer. So a cell that is one mesh alone (a closed solid, whatever its cavities or
 * shells) is as far from a disjoint set as its triangles are, and
 * - two such meshes: the least triangle-triangle distance (geom/tri_distance.c);
 * - such a mesh and a convex cell: the least distance between a triangle and the cell,
 *   each by GJK on the triangle's support (its farthest corner) and the cell's exact hull
 *   (geom/distance.c), to 2e-12 of the pair's size.
 * The search runs down the meshes' bounding-box trees (geom/mesh_tree.c) depth first, the
 * nearer child first, and skips a node (or pair of nodes) whose box is no nearer than the
 * best distance found: a box holds its triangles, so what is skipped is no nearer. The
 * distance between two boxes in different frames takes the second's box about its centre
 * in the first's frame, half-extents |R| e (a box that holds it); a node against a convex
 * cell takes the cell's bounding box in the mesh's frame. Everything runs in the first
 * mesh's frame (distances do not depend on the frame); the caller's query frame only
 * poses the cells.
 * Other cells (neither convex nor one mesh) have only their hulls' distance, a lower bound. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/mesh.h"
#include "geom/vec3.h"

/* Node pairs (or nodes) waiting in a search: twice a balanced tree's depth is far less. */
#define STACK_MAX 256

const struct vxg_mesh *vxg_cell_mesh_alone(const vxg_cell *c, vxg_xform *to_cell) {
  if (c->nprim != 1 || c->prim[0].kind != VXG_MESH || c->prim[0].complement || c->natom != 1 ||
      c->atom[0].kind != VXG_ATOM_MESH || !c->atom[0].mesh) {
    return NULL;
  }
  if (to_cell) {
    vxg_xform_inverse(to_cell, &c->atom[0].to_local);
  }
  return c->atom[0].mesh;
}


/* The distance between the box (lo, hi) and the box of centre c, half-extents e, m, less
 * a rounding allowance (so that it never exceeds the boxes' true distance). */
static double box_gap(const double lo[3], const double hi[3], const double c[3],
                      const double e[3]) {
  double g2 = 0;
  for (int k = 0; k < 3; k++) {
    double mid = 0.5 * (lo[k] + hi[k]), half = 0.5 * (hi[k] - lo[k]);
    double tol = 1e-13 * (fabs(mid) + half + fabs(c[k]) + e[k]);
    double g = fabs(c[k] - mid) - half - e[k] - tol;
    g2 += g > 0 ? g * g : 0;
  }
  return sqrt(g2);
}


/* Node nd of a mesh posed by t into the search's frame: its box's centre and the
 * half-extents of a box along the frame's axes that holds it. */
static void posed_box(const vxg_mesh_node *nd, const vxg_xform *t, double c[3], double e[3]) {
  double mc[3], me[3];
  for (int k = 0; k < 3; k++) {
    mc[k] = 0.5 * (nd->lo[k] + nd->hi[k]);
    me[k] = 0.5 * (nd->hi[k] - nd->lo[k]);
  }
  vxg_xform_point(t, mc, c);
  for (int i = 0; i < 3; i++) {
    e[i] = fabs(t->r[3 * i]) * me[0] + fabs(t->r[3 * i + 1]) * me[1] + fabs(t->r[3 * i + 2]) * me[2];
  }
}


/* ---- mesh against mesh ------------------------------------------------------------- */

typedef struct pair_item {
  int a, b;  /* nodes of mesh a and mesh b */
  double lb; /* the distance between their boxes */
} pair_item;


static double node_pair_gap(const vxg_mesh *ma, int a, const vxg_mesh *mb, int b,
                            const vxg_xform *ba) {
  double c[3], e[3];
  posed_box(&mb->tree[b], ba, c, e);
  return box_gap(ma->tree[a].lo, ma->tree[a].hi, c, e);
}


/* The least distance between the triangles of leaves a and b (b's carried by ba). */
static double leaf_pair(const vxg_mesh *ma, int a, const vxg_mesh *mb, int b, const vxg_xform *ba,
                        double best) {
  const vxg_mesh_node *na = &ma->tree[a], *nb = &mb->tree[b];
  double tb[VXG_MESH_TREE_LEAF * 2][9], ta[9], raw[9];
  for (int j = 0; j < nb->count; j++) {
    vxg_mesh_tri_corners(mb, mb->tree_tri[nb->first + j], raw);
    for (int k = 0; k < 3; k++) {
      vxg_xform_point(ba, raw + 3 * k, tb[j] + 3 * k);
    }
  }
  for (int i = 0; i < na->count; i++) {
    vxg_mesh_tri_corners(ma, ma->tree_tri[na->first + i], ta);
    for (int j = 0; j < nb->count; j++) {
      best = fmin(best, vxg_tri_tri_distance(ta, tb[j]));
    }
  }
  return best;
}


/* Pushes the pairs (a, b0) and (a, b1) -- or (a0, b), (a1, b) -- nearer last, those whose
 * boxes come nearer than best. Returns the new stack size, or -1 when it is full. */
static int push_children(pair_item *st, int n, pair_item x, pair_item y, double best) {
  if (x.lb < y.lb) {
    pair_item t = x;
    x = y;
    y = t;
  }
  if (n + 2 > STACK_MAX) {
    return -1;
  }
  if (x.lb < best) {
    st[n++] = x;
  }
  if (y.lb < best) {
    st[n++] = y;
  }
  return n;
}


/* The least triangle-triangle distance of meshes ma and mb, mb carried into ma's frame by
 * ba. Returns 0, or -1 when the stack overflowed (never for a balanced tree). */
static int mesh_mesh(const vxg_mesh *ma, const vxg_mesh *mb, const vxg_xform *ba, double *dist) {
  pair_item st[STACK_MAX];
  int n = 1;
  double best = HUGE_VAL;
  st[0] = (pair_item){0, 0, node_pair_gap(ma, 0, mb, 0, ba)};
  while (n > 0) {
    pair_item it = st[--n];
    if (!(it.lb < best)) {
      continue;
    }
    const vxg_mesh_node *na = &ma->tree[it.a], *nb = &mb->tree[it.b];
    if (na->count > 0 && nb->count > 0) {
      best = leaf_pair(ma, it.a, mb, it.b, ba, best);
      continue;
    }
    /* open the larger node (a leaf cannot be opened) */
    double sa = 0, sb = 0;
    for (int k = 0; k < 3; k++) {
      sa += na->hi[k] - na->lo[k];
      sb += nb->hi[k] - nb->lo[k];
    }
    pair_item x = it, y = it;
    if (nb->count > 0 || (na->count == 0 && sa >= sb)) {
      x.a = na->first;
      y.a = na->first + 1;
    } else {
      x.b = nb->first;
      y.b = nb->first + 1;
    }
    x.lb = node_pair_gap(ma, x.a, mb, x.b, ba);
    y.lb = node_pair_gap(ma, y.a, mb, y.b, ba);
    n = push_children(st, n, x, y, best);
    if (n < 0) {
      return -1;
    }
  }
  *dist = best;
  return 0;
}


/* ---- mesh against a convex cell ---------------------------------------------------- */

/* A triangle's support: its corner farthest along d. */
static void tri_support(const void *shape, const double d[3], double p[3]) {
  const double *t = shape;
  int best = 0;
  for (int k = 1; k < 3; k++) {
    if (vxg_dot(d, t + 3 * k) > vxg_dot(d, t + 3 * best)) {
      best = k;
    }
  }
  memcpy(p, t + 3 * best, 3 * sizeof *p);
}


/* The convex cell posed into the mesh's frame, for GJK. */
typedef struct posed_cell {
  const vxg_cell *c;
  vxg_xform to; /* cell frame -> the mesh's frame */
  double box[6], size;
} posed_cell;


static void cell_support(const void *shape, const double d[3], double p[3]) {
  const posed_cell *pc = shape;
  double dl[3], pl[3];
  vxg_xform_vector_inv(&pc->to, d, dl);
  vxg_hull_support(&pc->c->hull, dl, pl);
  vxg_xform_point(&pc->to, pl, p);
}


/* The least GJK distance between leaf a's triangles and the cell. Returns 0, or -1 when a
 * GJK did not converge. */
static int leaf_cell(const vxg_mesh *m, int a, const posed_cell *pc, double *best) {
  const vxg_mesh_node *na = &m->tree[a];
  for (int i = 0; i < na->count; i++) {
    double t[9], d, size = pc->size;
    vxg_mesh_tri_corners(m, m->tree_tri[na->first + i], t);
    for (int k = 0; k < 3; k++) {
      size = fmax(size, fmax(fabs(t[k] - t[3 + k]), fabs(t[k] - t[6 + k])));
    }
    if (vxg_gjk_distance(tri_support, t, cell_support, pc, 1e-12 * size, &d, NULL, NULL) !=
        VXC_OK) {
      return -1;
    }
    *best = fmin(*best, d);
  }
  return 0;
}


static double node_cell_gap(const vxg_mesh *m, int a, const posed_cell *pc) {
  const double *b = pc->box;
  double c[3] = {0.5 * (b[0] + b[3]), 0.5 * (b[1] + b[4]), 0.5 * (b[2] + b[5])};
  double e[3] = {0.5 * (b[3] - b[0]), 0.5 * (b[4] - b[1]), 0.5 * (b[5] - b[2])};
  return box_gap(m->tree[a].lo, m->tree[a].hi, c, e);
}


/* The least distance between mesh m's triangles and the convex cell pc. Returns 0, or -1
 * (the stack overflowed, or a GJK did not converge). */
static int mesh_cell(const vxg_mesh *m, const posed_cell *pc, double *dist) {
  pair_item st[STACK_MAX];
  int n = 1;
  double best = HUGE_VAL;
  st[0] = (pair_item){0, 0, node_cell_gap(m, 0, pc)};
  while (n > 0) {
    pair_item it = st[--n];
    if (!(it.lb < best)) {
      continue;
    }
    const vxg_mesh_node *na = &m->tree[it.a];
    if (na->count > 0) {
      if (leaf_cell(m, it.a, pc, &best) != 0) {
        return -1;
      }
      continue;
    }
    pair_item x = {na->first, 0, node_cell_gap(m, na->first, pc)};
    pair_item y = {na->first + 1, 0, node_cell_gap(m, na->first + 1, pc)};
    n = push_children(st, n, x, y, best);
    if (n < 0) {
      return -1;
    }
  }
  *dist = best;
  return 0;
}


/* ---- the dispatch ------------------------------------------------------------------ */

/* The exact distance of a mesh-alone cell a (its mesh ma, mesh -> cell ca_m) and cell b
 * (a mesh alone, mb and cb_m, or convex), both posed into the query frame. Returns 0 or
 * -1 (no exact answer). */
static int exact_distance(const vxg_mesh *ma, const vxg_xform *am, const vxg_cell *b,
                          const vxg_xform *to_b, const vxg_mesh *mb, const vxg_xform *bm,
                          double *dist) {
  vxg_xform to_ma, inv;
  vxg_xform_inverse(&inv, am); /* query frame -> a's mesh frame */
  if (mb) {
    vxg_xform_compose(&to_ma, &inv, bm);
    return mesh_mesh(ma, mb, &to_ma, dist);
  }
  posed_cell pc;
  pc.c = b;
  vxg_xform_compose(&pc.to, &inv, to_b);
  vxg_cell_aabb(b, &pc.to, pc.box);
  pc.size = 0;
  for (int k = 0; k < 3; k++) {
    pc.size = fmax(pc.size, pc.box[3 + k] - pc.box[k]);
  }
  return mesh_cell(ma, &pc, dist);
}


void vxg_cell_distance(const vxg_cell *a, const vxg_xform *to_a, const vxg_cell *b,
                       const vxg_xform *to_b, double below, double *dist, int *exact) {
  double lb = HUGE_VAL;
  vxc_status st = vxg_hull_distance(a, to_a, b, to_b, &lb, NULL, NULL);
  *dist = lb;
  *exact = st == VXC_OK && a->hull.exact && b->hull.exact;
  if (*exact || !(lb < below)) {
    return;
  }
  vxg_xform ma_cell, mb_cell, am, bm;
  const vxg_mesh *ma = vxg_cell_mesh_alone(a, &ma_cell), *mb = vxg_cell_mesh_alone(b, &mb_cell);
  if (ma) {
    vxg_xform_compose(&am, to_a, &ma_cell);
  }
  if (mb) {
    vxg_xform_compose(&bm, to_b, &mb_cell);
  }
  double d = HUGE_VAL;
  int ok = -1;
  if (ma && (mb || b->hull.exact)) {
    ok = exact_distance(ma, &am, b, to_b, mb, &bm, &d);
  } else if (mb && a->hull.exact) {
    ok = exact_distance(mb, &bm, a, to_a, NULL, NULL, &d);
  }
  if (ok == 0) {
    *dist = d;
    *exact = 1;
  }
}
