/* surface.c: a posed cell's surface as triangles, for viewing (vxg_cell_surface).
 *
 * A cell that is one closed mesh alone gives its own triangles. Any other cell is sampled:
 * a cube of edge h 2^k over its bounding box is split while the cell's conservative box
 * classification says MIXED, down to cubes of edge h; in each of those, marching
 * tetrahedra (six tetrahedra around the cube's main diagonal, so that neighbouring cubes
 * share their faces' triangulation) on the cell's implicit value
 *   F(x) = max over primitives of (+-) max over the primitive's atoms of f(x)
 * (a primitive is the intersection of its atoms; a complemented one counts negated), whose
 * zero set is the cell's surface. Every cube the surface crosses is MIXED, so all such
 * cubes have the edge h and the triangles join without cracks; sharp edges come out
 * bevelled within about h. The grid is shifted by an irrational fraction of a cube so that
 * no grid plane lies on an axis-aligned face. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/mesh.h"
#include "geom/vec3.h"

#define SURF_SHIFT 0.1180339887498949
#define SURF_MAX_LEVEL 30
#define SURF_STACK (8 * (SURF_MAX_LEVEL + 2))

typedef struct surf_box {
  double c[3], h; /* centre, half-edge */
  int level;
  long long i[3]; /* its lowest corner on the grid of the finest cubes */
} surf_box;

/* The grid of the finest cubes: corner i is at o + i h, computed the same way by every cube
 * that has it (so that a triangle's vertices shared by neighbouring cubes are equal to the
 * last bit, and a writer can weld them). */
typedef struct surf_grid {
  double o[3], h;
} surf_grid;


/* The cell's implicit value at p (the posed cell's frame): negative inside. */
static double cell_value(const vxg_posed_cell *pc, const double p[3]) {
  const vxg_cell *c = pc->cell;
  double F = -HUGE_VAL;
  for (int i = 0; i < c->nprim; i++) {
    const vxg_prim *pr = &c->prim[i];
    double g = -HUGE_VAL;
    for (int j = 0; j < pr->natom; j++) {
      g = fmax(g, vxg_atom_eval(&pc->atom[pr->first_atom + j], p, NULL));
    }
    F = fmax(F, pr->complement ? -g : g);
  }
  return F;
}


/* Emits the triangle (a, b, c) turned so that its normal points along `out`; degenerate
 * triangles are dropped. */
static void emit_oriented(const double *a, const double *b, const double *c, const double out[3],
                          vxg_tri_fn emit, void *ud) {
  double u[3], v[3], n[3];
  vxg_sub(b, a, u);
  vxg_sub(c, a, v);
  vxg_cross(u, v, n);
  double d = vxg_dot(n, out);
  if (d == 0) {
    return;
  }
  double t[9];
  memcpy(t, a, 3 * sizeof *t);
  memcpy(t + 3, d > 0 ? b : c, 3 * sizeof *t);
  memcpy(t + 6, d > 0 ? c : b, 3 * sizeof *t);
  emit(ud, t);
}


/* The point where F crosses zero on the edge p-q (F(p) < 0 <= F(q)). */
static void edge_point(const double *p, const double *q, double fp, double fq, double *x) {
  double t = fp / (fp - fq);
  for (int k = 0; k < 3; k++) {
    x[k] = p[k] + t * (q[k] - p[k]);
  }
}


/* Marching tetrahedra on one tetrahedron (corner positions x[i], values f[i]). */
static void tet(const double *const x[4], const double f[4], vxg_tri_fn emit, void *ud) {
  int in[4], out[4], ni = 0, no = 0;
  for (int i = 0; i < 4; i++) {
    if (f[i] < 0) {
      in[ni++] = i;
    } else {
      out[no++] = i;
    }
  }
  if (ni == 0 || no == 0) {
    return;
  }
  double dir[3] = {0, 0, 0}; /* from the inside corners toward the outside ones */
  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < ni; i++) {
      dir[k] -= x[in[i]][k] / ni;
    }
    for (int i = 0; i < no; i++) {
      dir[k] += x[out[i]][k] / no;
    }
  }
  double p[4][3];
  if (ni == 1 || no == 1) {
    int lone = ni == 1 ? in[0] : out[0];
    const int *other = ni == 1 ? out : in;
    for (int j = 0; j < 3; j++) {
      int a = ni == 1 ? lone : other[j], b = ni == 1 ? other[j] : lone;
      edge_point(x[a], x[b], f[a], f[b], p[j]);
    }
    emit_oriented(p[0], p[1], p[2], dir, emit, ud);
    return;
  }
  /* two inside (a, b), two outside (c, d): the quad ac, ad, bd, bc */
  edge_point(x[in[0]], x[out[0]], f[in[0]], f[out[0]], p[0]);
  edge_point(x[in[0]], x[out[1]], f[in[0]], f[out[1]], p[1]);
  edge_point(x[in[1]], x[out[1]], f[in[1]], f[out[1]], p[2]);
  edge_point(x[in[1]], x[out[0]], f[in[1]], f[out[0]], p[3]);
  emit_oriented(p[0], p[1], p[2], dir, emit, ud);
  emit_oriented(p[0], p[2], p[3], dir, emit, ud);
}


/* The six tetrahedra around the diagonal 0-7 of a cube whose corner j is at bits (x y z)
 * of j. */
static const int CUBE_TETS[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7},
                                    {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};


static void cube(const vxg_posed_cell *pc, const surf_grid *g, const surf_box *b, vxg_tri_fn emit,
                 void *ud) {
  double x[8][3], f[8];
  for (int j = 0; j < 8; j++) {
    for (int k = 0; k < 3; k++) {
      x[j][k] = g->o[k] + (double)(b->i[k] + ((j >> k) & 1)) * g->h;
    }
    f[j] = cell_value(pc, x[j]);
  }
  for (int t = 0; t < 6; t++) {
    const double *tx[4];
    double tf[4];
    for (int i = 0; i < 4; i++) {
      tx[i] = x[CUBE_TETS[t][i]];
      tf[i] = f[CUBE_TETS[t][i]];
    }
    tet(tx, tf, emit, ud);
  }
}


/* A mesh alone: its triangles, carried from the mesh frame to the world. */
static void mesh_triangles(const struct vxg_mesh *m, const vxg_xform *to_cell,
                           const vxg_xform *to_world, vxg_tri_fn emit, void *ud) {
  vxg_xform from_mesh;
  vxg_xform_compose(&from_mesh, to_world, to_cell);
  for (int t = 0; t < m->ntri; t++) {
    double p[9];
    for (int k = 0; k < 3; k++) {
      vxg_xform_point(&from_mesh, m->v + 3 * m->tri[3 * t + k], p + 3 * k);
    }
    emit(ud, p);
  }
}


vxc_status vxg_cell_surface(const vxg_cell *c, const vxg_xform *to_world, double h,
                            long long max_cubes, vxg_tri_fn emit, void *ud) {
  if (!c || !to_world || !emit || !(h > 0) || !isfinite(h)) {
    return VXC_ERR_ARG;
  }
  vxg_xform to_cell;
  const struct vxg_mesh *m = vxg_cell_mesh_alone(c, &to_cell);
  if (m) {
    mesh_triangles(m, &to_cell, to_world, emit, ud);
    return VXC_OK;
  }
  vxg_posed_cell pc;
  vxg_posed_cell_init(&pc, c, to_world);
  double ext = 0;
  for (int k = 0; k < 3; k++) {
    ext = fmax(ext, pc.aabb[3 + k] - pc.aabb[k]);
  }
  double edge = h;
  int level = 0;
  while (edge < (1 + 4 * SURF_SHIFT) * ext) {
    edge *= 2;
    if (++level > SURF_MAX_LEVEL) {
      return VXC_ERR_LIMIT; /* h far below the cell's size */
    }
  }
  surf_box stack[SURF_STACK];
  surf_grid g;
  g.h = h;
  for (int k = 0; k < 3; k++) {
    stack[0].c[k] = 0.5 * (pc.aabb[k] + pc.aabb[3 + k]) + SURF_SHIFT * h;
    stack[0].i[k] = 0;
    g.o[k] = stack[0].c[k] - 0.5 * edge;
  }
  stack[0].h = 0.5 * edge;
  stack[0].level = 0;
  int sp = 1;
  long long cubes = 0;
  while (sp > 0) {
    surf_box b = stack[--sp];
    if (++cubes > max_cubes) {
      return VXC_ERR_LIMIT;
    }
    const double e[3] = {b.h, b.h, b.h};
    if (vxg_posed_cell_classify(&pc, b.c, e) != VXG_MIXED) {
      continue;
    }
    if (b.level == level) {
      cube(&pc, &g, &b, emit, ud);
      continue;
    }
    long long half = 1LL << (level - b.level - 1); /* finest cubes along a child's edge */
    for (int j = 0; j < 8; j++) {
      surf_box k = b;
      k.h = 0.5 * b.h;
      k.level = b.level + 1;
      for (int a = 0; a < 3; a++) {
        k.c[a] += (j >> a) & 1 ? k.h : -k.h;
        k.i[a] += (j >> a) & 1 ? half : 0;
      }
      stack[sp++] = k;
    }
  }
  return VXC_OK;
}
