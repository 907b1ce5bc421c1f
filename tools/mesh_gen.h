/* mesh_gen.h: triangle meshes built in code, with their exact tessellation error bounds
 * computed here (independently of geom/mesh.c), for `vxc bench` (tools/cmd_bench.c) and the
 * mesh tests (tests/). Plain C and the C library only: it includes no vxc header.
 *
 *  - icosphere: the icosahedron subdivided `level` times (20 * 4^level triangles), vertices
 *    on the sphere of radius R; its surface lies in the shell r_in <= |x| <= R, r_in the
 *    smallest distance from the centre to a face's plane, so the signed distance to it and
 *    to the sphere differ by at most R - r_in, and any volume it bounds with convex cuts lies
 *    between the same volume for the balls of radii r_in and R;
 *  - uv sphere: `nu` x `nv` quads (fanned) with poles, for large counts (2 nu (nv - 1)
 *    triangles), and the same shell bound;
 *  - box: 12 triangles, exact. Triangles are counter-clockwise seen from outside.
 *
 * Exact regions of polyhedra (for meshes a faceted sphere's closed form does not fit): the
 * volume, first and second moments of a mesh cut to z <= 0, and of the intersection of two
 * convex meshes, by the divergence theorem: the region's boundary is the meshes' triangles
 * clipped to the region plus faces on the plane z = 0 through the origin of the sums, which
 * weigh nothing; each clipped triangle adds the signed tetrahedron it makes with the
 * origin. The intersection of convex meshes is bounded by each one's triangles clipped by
 * the other's face planes. */
#ifndef VXC_MESH_GEN_H
#define VXC_MESH_GEN_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct mg_mesh {
  double *v;
  int *t;
  int nv, nt;
  double r_in; /* spheres: smallest face-plane distance from the centre */
} mg_mesh;

static inline void mg_free(mg_mesh *m) {
  free(m->v);
  free(m->t);
  memset(m, 0, sizeof *m);
}


static inline int mg_vert(mg_mesh *m, double x, double y, double z) {
  m->v[3 * m->nv] = x;
  m->v[3 * m->nv + 1] = y;
  m->v[3 * m->nv + 2] = z;
  return m->nv++;
}


static inline void mg_tri(mg_mesh *m, int a, int b, int c) {
  m->t[3 * m->nt] = a;
  m->t[3 * m->nt + 1] = b;
  m->t[3 * m->nt + 2] = c;
  m->nt++;
}


/* Smallest distance from the origin to a triangle's plane (the shell's inner radius). */
static inline void mg_r_in(mg_mesh *m) {
  m->r_in = HUGE_VAL;
  for (int i = 0; i < m->nt; i++) {
    const double *a = m->v + 3 * m->t[3 * i], *b = m->v + 3 * m->t[3 * i + 1],
                 *c = m->v + 3 * m->t[3 * i + 2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    double d = fabs(n[0] * a[0] + n[1] * a[1] + n[2] * a[2]) /
               sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    m->r_in = d < m->r_in ? d : m->r_in;
  }
}


/* Midpoint vertex of edge (a, b), made once (a linear search over this vertex's edges). */
typedef struct mg_edge {
  int a, b, m;
} mg_edge;

static inline int mg_mid(mg_mesh *m, mg_edge *e, int *ne, int **head, int *next, int a, int b,
                         double R) {
  int lo = a < b ? a : b, hi = a < b ? b : a;
  for (int k = (*head)[lo]; k >= 0; k = next[k]) {
    if (e[k].b == hi) {
      return e[k].m;
    }
  }
  double x = m->v[3 * a] + m->v[3 * b], y = m->v[3 * a + 1] + m->v[3 * b + 1],
         z = m->v[3 * a + 2] + m->v[3 * b + 2];
  double l = sqrt(x * x + y * y + z * z);
  int v = mg_vert(m, R * x / l, R * y / l, R * z / l);
  e[*ne].a = lo;
  e[*ne].b = hi;
  e[*ne].m = v;
  next[*ne] = (*head)[lo];
  (*head)[lo] = *ne;
  (*ne)++;
  return v;
}


static inline int mg_icosphere(mg_mesh *m, double R, int level) {
  *m = (mg_mesh){0}; /* every field set, even when an allocation fails */
  int nt = 20, nv = 12;
  for (int l = 0; l < level; l++) {
    nv += 3 * nt / 2;
    nt *= 4;
  }
  m->v = malloc(3 * sizeof(double) * (size_t)nv);
  m->t = malloc(3 * sizeof(int) * (size_t)nt);
  int *tmp = malloc(3 * sizeof(int) * (size_t)nt);
  mg_edge *e = malloc(sizeof(mg_edge) * (size_t)(3 * nt / 2 + 1));
  int *next = malloc(sizeof(int) * (size_t)(3 * nt / 2 + 1));
  int *head = malloc(sizeof(int) * (size_t)nv);
  if (!m->v || !m->t || !tmp || !e || !next || !head) {
    return -1;
  }
  m->nv = m->nt = 0;
  double p = (1 + sqrt(5.0)) / 2, s = R / sqrt(1 + p * p);
  const double iv[12][3] = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0},
                            {0, -1, p}, {0, 1, p}, {0, -1, -p}, {0, 1, -p},
                            {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
  const int it[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                         {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                         {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                         {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int i = 0; i < 12; i++) {
    mg_vert(m, s * iv[i][0], s * iv[i][1], s * iv[i][2]);
  }
  for (int i = 0; i < 20; i++) {
    mg_tri(m, it[i][0], it[i][1], it[i][2]);
  }
  for (int l = 0; l < level; l++) {
    int n = m->nt, ne = 0;
    memcpy(tmp, m->t, 3 * sizeof(int) * (size_t)n);
    for (int i = 0; i < nv; i++) {
      head[i] = -1;
    }
    m->nt = 0;
    for (int i = 0; i < n; i++) {
      int a = tmp[3 * i], b = tmp[3 * i + 1], c = tmp[3 * i + 2];
      int ab = mg_mid(m, e, &ne, &head, next, a, b, R),
          bc = mg_mid(m, e, &ne, &head, next, b, c, R),
          ca = mg_mid(m, e, &ne, &head, next, c, a, R);
      mg_tri(m, a, ab, ca);
      mg_tri(m, b, bc, ab);
      mg_tri(m, c, ca, bc);
      mg_tri(m, ab, bc, ca);
    }
  }
  free(tmp);
  free(e);
  free(next);
  free(head);
  mg_r_in(m);
  return 0;
}


/* A uv sphere of radius R: nu meridian steps, nv parallel steps (poles included). */
static inline int mg_uvsphere(mg_mesh *m, double R, int nu, int nv) {
  *m = (mg_mesh){0}; /* every field set, even when an allocation fails */
  m->v = malloc(3 * sizeof(double) * (size_t)(nu * (nv - 1) + 2));
  m->t = malloc(3 * sizeof(int) * (size_t)(2 * nu * (nv - 1)));
  if (!m->v || !m->t) {
    return -1;
  }
  m->nv = m->nt = 0;
  int south = mg_vert(m, 0, 0, -R);
  for (int j = 1; j < nv; j++) {
    double th = M_PI * j / nv - M_PI / 2;
    for (int i = 0; i < nu; i++) {
      double ph = 2 * M_PI * i / nu;
      mg_vert(m, R * cos(th) * cos(ph), R * cos(th) * sin(ph), R * sin(th));
    }
  }
  int north = mg_vert(m, 0, 0, R);
  for (int i = 0; i < nu; i++) {
    int i1 = (i + 1) % nu;
    mg_tri(m, south, 1 + i1, 1 + i);
    for (int j = 1; j + 1 < nv; j++) {
      int a = 1 + (j - 1) * nu + i, b = 1 + (j - 1) * nu + i1, c = 1 + j * nu + i1,
          d = 1 + j * nu + i;
      mg_tri(m, a, b, c);
      mg_tri(m, a, c, d);
    }
    mg_tri(m, north, 1 + (nv - 2) * nu + i, 1 + (nv - 2) * nu + i1);
  }
  mg_r_in(m);
  return 0;
}


/* The box [-lx/2, lx/2] x [-ly/2, ly/2] x [-lz/2, lz/2], 12 triangles. */
static inline int mg_box(mg_mesh *m, double lx, double ly, double lz) {
  *m = (mg_mesh){0}; /* every field set, even when an allocation fails */
  m->v = malloc(3 * sizeof(double) * 8);
  m->t = malloc(3 * sizeof(int) * 12);
  if (!m->v || !m->t) {
    return -1;
  }
  m->nv = m->nt = 0;
  for (int i = 0; i < 8; i++) {
    mg_vert(m, (i & 1 ? 0.5 : -0.5) * lx, (i & 2 ? 0.5 : -0.5) * ly, (i & 4 ? 0.5 : -0.5) * lz);
  }
  const int f[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                        {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  for (int i = 0; i < 12; i++) {
    mg_tri(m, f[i][0], f[i][1], f[i][2]);
  }
  m->r_in = 0;
  return 0;
}

/* ---- exact moments of polyhedral regions ------------------------------------------------ */

/* Moments about the origin: m0 = int dV, m1 = int x dV, m2 = int x x^T dV as xx yy zz xy yz
 * xz. */
typedef struct mg_moments {
  double m0, m1[3], m2[6];
} mg_moments;

/* Row and column of m2's six entries (xx yy zz xy yz xz). */
#define MG_SYM_ROW ((const int[6]){0, 1, 2, 0, 1, 0})
#define MG_SYM_COL ((const int[6]){0, 1, 2, 1, 2, 2})

/* The centroid c (m) and the inertia J about it (unit density, row-major, m^5) of moments
 * m (m0 > 0): J = tr(C) I - C with C = m2 - m1 c^T. */
static inline void mg_moments_inertia(const mg_moments *m, double c[3], double J[9]) {
  double cc[6];
  for (int k = 0; k < 3; k++) {
    c[k] = m->m1[k] / m->m0;
  }
  for (int k = 0; k < 6; k++) {
    cc[k] = m->m2[k] - m->m1[MG_SYM_ROW[k]] * c[MG_SYM_COL[k]];
  }
  double tr = cc[0] + cc[1] + cc[2];
  J[0] = tr - cc[0];
  J[4] = tr - cc[1];
  J[8] = tr - cc[2];
  J[1] = J[3] = -cc[3];
  J[5] = J[7] = -cc[4];
  J[2] = J[6] = -cc[5];
}

/* Adds the signed tetrahedron (origin, a, b, c). */
static inline void mg_add_tet(mg_moments *m, const double a[3], const double b[3],
                              const double c[3]) {
  const int *ia = MG_SYM_ROW, *ib = MG_SYM_COL;
  double v = (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
              a[2] * (b[0] * c[1] - b[1] * c[0])) /
             6;
  double sum[3];
  for (int k = 0; k < 3; k++) {
    sum[k] = a[k] + b[k] + c[k];
    m->m1[k] += v * sum[k] / 4;
  }
  m->m0 += v;
  /* int x_i x_j over a tetrahedron = V / 20 (sum over its 4 vertices of x_i x_j + s_i s_j) */
  for (int k = 0; k < 6; k++) {
    int i = ia[k], j = ib[k];
    m->m2[k] += v / 20 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + sum[i] * sum[j]);
  }
}

#define MG_POLY_MAX 64

/* Keeps the part of the convex polygon p (n < MG_POLY_MAX vertices) where nrm . x <= d.
 * Returns the new count (at most n + 1), or -1 when it would reach MG_POLY_MAX. */
static inline int mg_clip_polygon(double (*p)[3], int n, const double nrm[3], double d) {
  double out[MG_POLY_MAX][3], s[MG_POLY_MAX];
  int m = 0, cut = 0;
  for (int i = 0; i < n; i++) {
    s[i] = nrm[0] * p[i][0] + nrm[1] * p[i][1] + nrm[2] * p[i][2] - d;
    cut |= s[i] > 0;
  }
  if (!cut) {
    return n;
  }
  if (n + 1 >= MG_POLY_MAX) {
    return -1;
  }
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    if (s[i] <= 0) {
      memcpy(out[m++], p[i], sizeof out[0]);
    }
    if ((s[i] < 0 && s[j] > 0) || (s[i] > 0 && s[j] < 0)) {
      double t = s[i] / (s[i] - s[j]);
      for (int k = 0; k < 3; k++) {
        out[m][k] = p[i][k] + t * (p[j][k] - p[i][k]);
      }
      m++;
    }
  }
  memcpy(p, out, (size_t)m * sizeof out[0]);
  return m;
}

/* Mesh g's vertices translated by t (malloc'ed; NULL when out of memory). */
static inline double *mg_placed(const mg_mesh *g, const double t[3]) {
  double *v = malloc(3 * sizeof(double) * (size_t)g->nv);
  for (int i = 0; v && i < 3 * g->nv; i++) {
    v[i] = g->v[i] + t[i % 3];
  }
  return v;
}

/* Adds the triangles of mesh g (vertices v) clipped by the half-spaces nrm_k . x <= d_k
 * (k < nh), skipping triangles whose box misses `box` (lo x y z, hi x y z). Returns 0, or
 * -1 when a clipped triangle has too many vertices. */
static inline int mg_add_clipped(mg_moments *m, const mg_mesh *g, const double *v,
                                 const double *nrm, const double *d, int nh, const double box[6]) {
  for (int t = 0; t < g->nt; t++) {
    double p[MG_POLY_MAX][3];
    int n = 3, miss = 0;
    for (int c = 0; c < 3; c++) {
      memcpy(p[c], v + 3 * g->t[3 * t + c], sizeof p[0]);
    }
    for (int a = 0; a < 3; a++) {
      double lo = fmin(p[0][a], fmin(p[1][a], p[2][a]));
      double hi = fmax(p[0][a], fmax(p[1][a], p[2][a]));
      miss |= hi < box[a] || lo > box[3 + a];
    }
    if (miss) {
      continue;
    }
    for (int k = 0; k < nh && n >= 3; k++) {
      n = mg_clip_polygon(p, n, nrm + 3 * k, d[k]);
    }
    if (n < 0) {
      return -1;
    }
    for (int i = 1; i + 1 < n; i++) {
      mg_add_tet(m, p[0], p[i], p[i + 1]);
    }
  }
  return 0;
}

/* The outward face planes n . x <= d of mesh g (vertices v), malloc'ed. 0, or -1. */
static inline int mg_face_planes(const mg_mesh *g, const double *v, double **nrm, double **d) {
  *nrm = malloc(3 * sizeof(double) * (size_t)g->nt);
  *d = malloc(sizeof(double) * (size_t)g->nt);
  if (!*nrm || !*d) {
    return -1;
  }
  for (int t = 0; t < g->nt; t++) {
    const double *a = v + 3 * g->t[3 * t], *b = v + 3 * g->t[3 * t + 1],
                 *c = v + 3 * g->t[3 * t + 2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double *n = *nrm + 3 * t;
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
    (*d)[t] = n[0] * a[0] + n[1] * a[1] + n[2] * a[2];
  }
  return 0;
}

/* Exact moments of closed mesh g translated by t, cut to z <= 0. Returns 0, or -1. */
static inline int mg_cap_moments(const mg_mesh *g, const double t[3], mg_moments *m) {
  double *v = mg_placed(g, t);
  if (!v) {
    return -1;
  }
  const double up[3] = {0, 0, 1}, zero = 0;
  const double all[6] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL, HUGE_VAL, HUGE_VAL, 0};
  memset(m, 0, sizeof *m);
  int rc = mg_add_clipped(m, g, v, up, &zero, 1, all);
  free(v);
  return rc;
}

/* Exact moments of the intersection of the convex meshes ga, gb translated by ta, tb.
 * Returns 0, or -1. */
static inline int mg_convex_meet_moments(const mg_mesh *ga, const double ta[3], const mg_mesh *gb,
                                         const double tb[3], mg_moments *m) {
  double *va = mg_placed(ga, ta), *vb = mg_placed(gb, tb);
  double *na = NULL, *da = NULL, *nb = NULL, *db = NULL;
  int rc = -1;
  memset(m, 0, sizeof *m);
  if (va && vb && mg_face_planes(ga, va, &na, &da) == 0 && mg_face_planes(gb, vb, &nb, &db) == 0) {
    /* triangles are skipped when they miss the intersection of the two boxes */
    double box[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    double bb[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < 3 * ga->nv; i++) {
      box[i % 3] = fmin(box[i % 3], va[i]);
      box[3 + i % 3] = fmax(box[3 + i % 3], va[i]);
    }
    for (int i = 0; i < 3 * gb->nv; i++) {
      bb[i % 3] = fmin(bb[i % 3], vb[i]);
      bb[3 + i % 3] = fmax(bb[3 + i % 3], vb[i]);
    }
    for (int a = 0; a < 3; a++) {
      box[a] = fmax(box[a], bb[a]);
      box[3 + a] = fmin(box[3 + a], bb[3 + a]);
    }
    rc = mg_add_clipped(m, ga, va, nb, db, gb->nt, box);
    if (rc == 0) {
      rc = mg_add_clipped(m, gb, vb, na, da, ga->nt, box);
    }
  }
  free(va);
  free(vb);
  free(na);
  free(da);
  free(nb);
  free(db);
  return rc;
}

#endif /* VXC_MESH_GEN_H */
