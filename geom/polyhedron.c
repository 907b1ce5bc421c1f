/* polyhedron.c: convex polyhedra (a box clipped by half-spaces) and their exact moments.
 *
 * Data structure (geom.h, vxg_poly): `nvert` vertices v[0..nvert-1] and `nface` faces; face f
 * lists face_n[f] vertex indices, counter-clockwise seen from outside (so its outward normal
 * is (v1 - v0) x (v2 - v0) for a non-degenerate corner).
 *
 * Invariants kept by every function here:
 *  - the polyhedron is convex and closed: every edge (a, b) of a face appears as (b, a) in
 *    exactly one other face (a cap face closes every cut);
 *  - every vertex is used by some face, faces have at least 3 vertices;
 *  - the empty polyhedron has nvert = nface = 0;
 *  - capacities VXG_POLY_MAX_* are never exceeded: a clip that would exceed one returns -1
 *    and leaves the polyhedron as it was.
 *
 * Clipping classifies each vertex by s = n.v - d against a tolerance eps proportional to the
 * polyhedron's size (plus the rounding level of s): s > eps is out, s < -eps in, else on the
 * plane. An "on" vertex is kept where it is (never moved), so planes through vertices, along
 * edges or along faces cut exactly, with no slivers or duplicate vertices; an edge is cut only
 * between an in and an out vertex, where |s_in - s_out| > 2 eps keeps the cut point
 * well-conditioned. The cap face is chained from the faces' cut edges (topology, not angles);
 * if the chain does not close (an inconsistent classification of nearly coplanar points), the
 * cap falls back to sorting its points by angle about their centroid.
 *
 * Moments: the polyhedron is shifted to a local origin o (the vertex average, inside it),
 * each face is fanned into triangles (a, b, c) and each triangle with o makes a tetrahedron
 * (o, a, b, c) of signed volume det[a b c] / 6 (positive for outward-CCW faces). With one
 * vertex at the origin, the closed forms are
 *   int dV = V,  int x dV = V (a + b + c) / 4,
 *   int x x^T dV = V / 20 (a a^T + b b^T + c c^T + s s^T),  s = a + b + c,
 * (the general tetrahedron formula V/20 (sum_k v_k v_k^T + (sum_k v_k)(sum_k v_k)^T) with
 * one vertex zero). The local moments are then shifted back to the frame's origin:
 *   m1 = m1' + m0 o,  m2 = m2' + o m1'^T + m1' o^T + m0 o o^T. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"

void vxg_poly_box(vxg_poly *p, const double c[3], const double e[3]) {
  /* vertex k has bit 0: +x, bit 1: +y, bit 2: +z */
  for (int k = 0; k < 8; k++) {
    p->v[k][0] = c[0] + ((k & 1) ? e[0] : -e[0]);
    p->v[k][1] = c[1] + ((k & 2) ? e[1] : -e[1]);
    p->v[k][2] = c[2] + ((k & 4) ? e[2] : -e[2]);
  }
  /* faces counter-clockwise seen from outside: -x, +x, -y, +y, -z, +z */
  static const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                  {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  p->nvert = 8;
  p->nface = 6;
  for (int f = 0; f < 6; f++) {
    p->face_n[f] = 4;
    for (int k = 0; k < 4; k++) {
      p->face[f][k] = faces[f][k];
    }
  }
}


/* The cap face from its points when chaining failed: sort by angle about their centroid in a
 * basis (u, w) of the plane with u x w along n, which makes the order counter-clockwise seen
 * from outside (from +n). Returns the number of points kept in `cap` (duplicates removed). */
static int cap_by_angle(const vxg_poly *q, const double n[3], int *cap, int m) {
  /* unique points */
  int k = 0;
  for (int i = 0; i < m; i++) {
    int dup = 0;
    for (int j = 0; j < k; j++) {
      if (cap[j] == cap[i]) {
        dup = 1;
        break;
      }
    }
    if (!dup) {
      cap[k++] = cap[i];
    }
  }
  if (k < 3) {
    return k;
  }
  double g[3] = {0, 0, 0};
  for (int i = 0; i < k; i++) {
    for (int a = 0; a < 3; a++) {
      g[a] += q->v[cap[i]][a] / k;
    }
  }
  /* u: any unit vector orthogonal to n; w = n x u */
  double u[3];
  int ax = (fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2])) ? 0
           : (fabs(n[1]) <= fabs(n[2]))                           ? 1
                                                                  : 2;
  double t[3] = {0, 0, 0};
  t[ax] = 1;
  u[0] = n[1] * t[2] - n[2] * t[1];
  u[1] = n[2] * t[0] - n[0] * t[2];
  u[2] = n[0] * t[1] - n[1] * t[0];
  double w[3] = {n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]};
  double ang[VXG_POLY_MAX_VERTS];
  for (int i = 0; i < k; i++) {
    double d[3] = {q->v[cap[i]][0] - g[0], q->v[cap[i]][1] - g[1], q->v[cap[i]][2] - g[2]};
    ang[i] =
        atan2(d[0] * w[0] + d[1] * w[1] + d[2] * w[2], d[0] * u[0] + d[1] * u[1] + d[2] * u[2]);
  }
  /* insertion sort: k is small */
  for (int i = 1; i < k; i++) {
    double a = ang[i];
    int id = cap[i], j = i - 1;
    while (j >= 0 && ang[j] > a) {
      ang[j + 1] = ang[j];
      cap[j + 1] = cap[j];
      j--;
    }
    ang[j + 1] = a;
    cap[j + 1] = id;
  }
  return k;
}


/* The working state of one clip: p's vertices classified against the plane, the result q
 * under construction (copied to p only on success, so that a capacity failure leaves p
 * unchanged), the edges cut so far and the cap's edges chained from the faces. */
typedef struct clip_work {
  const vxg_poly *p;
  double s[VXG_POLY_MAX_VERTS];        /* n.v - d of p's vertices */
  signed char cls[VXG_POLY_MAX_VERTS]; /* +1 out, -1 in, 0 on the plane */
  int map[VXG_POLY_MAX_VERTS];         /* p's vertex -> q's, or -1 (dropped) */
  vxg_poly q;
  /* cut edges: (lo, hi) original vertex pair -> new vertex */
  int cut_a[VXG_POLY_MAX_VERTS], cut_b[VXG_POLY_MAX_VERTS], cut_v[VXG_POLY_MAX_VERTS], ncut;
  /* cap edges, (from, to) in the new numbering */
  int cap_from[VXG_POLY_MAX_FACES], cap_to[VXG_POLY_MAX_FACES], ncap;
  int chain_ok;
} clip_work;


/* The classification tolerance: relative to the polyhedron's size, and never below the rounding
 * of s (ternaries, not fmin/fmax: this is the voxel engine's innermost loop). */
static double clip_tolerance(const vxg_poly *p, const double n[3], double d) {
  double lo[3], hi[3];
  for (int a = 0; a < 3; a++) {
    lo[a] = hi[a] = p->v[0][a];
  }
  for (int i = 1; i < p->nvert; i++) {
    for (int a = 0; a < 3; a++) {
      double x = p->v[i][a];
      lo[a] = x < lo[a] ? x : lo[a];
      hi[a] = x > hi[a] ? x : hi[a];
    }
  }
  double size = 0, nn = 0, amax = fabs(d);
  for (int a = 0; a < 3; a++) {
    double ext = hi[a] - lo[a], mag = fabs(lo[a]) > fabs(hi[a]) ? fabs(lo[a]) : fabs(hi[a]);
    size = ext > size ? ext : size;
    nn += fabs(n[a]);
    amax += fabs(n[a]) * mag;
  }
  return 1e-13 * nn * size + 8 * DBL_EPSILON * amax;
}


/* Classifies p's vertices into w->s and w->cls; counts those strictly in and out. */
static void clip_classify(clip_work *w, const double n[3], double d, int *nin, int *nout) {
  const vxg_poly *p = w->p;
  double eps = clip_tolerance(p, n, d);
  *nin = *nout = 0;
  for (int i = 0; i < p->nvert; i++) {
    w->s[i] = n[0] * p->v[i][0] + n[1] * p->v[i][1] + n[2] * p->v[i][2] - d;
    w->cls[i] = w->s[i] > eps ? 1 : (w->s[i] < -eps ? -1 : 0);
    *nin += w->cls[i] < 0;
    *nout += w->cls[i] > 0;
  }
}


/* Starts q with p's kept (in or on) vertices, in order, and no faces. */
static void clip_keep_vertices(clip_work *w) {
  w->q.nvert = w->q.nface = 0;
  w->ncut = w->ncap = 0;
  w->chain_ok = 1;
  for (int i = 0; i < w->p->nvert; i++) {
    w->map[i] = -1;
    if (w->cls[i] <= 0) {
      memcpy(w->q.v[w->q.nvert], w->p->v[i], sizeof w->q.v[0]);
      w->map[i] = w->q.nvert++;
    }
  }
}


/* The new vertex where the plane cuts edge (a, b) between an in and an out vertex, made once
 * per edge for the two faces that share it. Returns its index in q, or -1 at capacity. */
static int clip_cut_vertex(clip_work *w, int a, int b) {
  int ea = a < b ? a : b, eb = a < b ? b : a;
  for (int c = 0; c < w->ncut; c++) {
    if (w->cut_a[c] == ea && w->cut_b[c] == eb) {
      return w->cut_v[c];
    }
  }
  if (w->q.nvert >= VXG_POLY_MAX_VERTS) {
    return -1;
  }
  /* interpolate from the inside vertex: t in (0, 1), well-conditioned */
  const double *va = w->p->v[ea], *vb = w->p->v[eb];
  double t = w->s[ea] / (w->s[ea] - w->s[eb]);
  for (int c = 0; c < 3; c++) {
    w->q.v[w->q.nvert][c] = va[c] + t * (vb[c] - va[c]);
  }
  w->cut_a[w->ncut] = ea;
  w->cut_b[w->ncut] = eb;
  w->cut_v[w->ncut++] = w->q.nvert;
  return w->q.nvert++;
}


/* Appends a face of n vertices to q unless it has fewer than 3. Returns -1 at capacity. */
static int clip_add_face(vxg_poly *q, const int *verts, int n) {
  if (n < 3) {
    return 0;
  }
  if (n > VXG_POLY_MAX_FACE_VERTS || q->nface >= VXG_POLY_MAX_FACES) {
    return -1;
  }
  q->face_n[q->nface] = n;
  memcpy(q->face[q->nface], verts, (size_t)n * sizeof verts[0]);
  q->nface++;
  return 0;
}


/* Clips face f of p into q and records its cap edge: the clipped face runs exit -> entry along
 * the plane, so the cap runs entry -> exit. A face that does not leave and re-enter the kept
 * side exactly once spoils the chain. Returns -1 at capacity. */
static int clip_face(clip_work *w, int f) {
  const signed char *cls = w->cls;
  int k = w->p->face_n[f];
  const int *fv = w->p->face[f];
  int out[2 * VXG_POLY_MAX_FACE_VERTS], no = 0, has_out = 0, has_keep = 0;
  int exit_v = -1, entry_v = -1, nexit = 0, nentry = 0;
  for (int i = 0; i < k; i++) {
    has_out |= cls[fv[i]] > 0;
    has_keep |= cls[fv[i]] <= 0;
  }
  if (!has_keep) {
    return 0; /* wholly outside */
  }
  for (int i = 0; i < k; i++) {
    int a = fv[i], b = fv[(i + 1) % k];
    if (cls[a] <= 0) {
      out[no++] = w->map[a];
    }
    int cv = -1;
    if ((cls[a] < 0 && cls[b] > 0) || (cls[a] > 0 && cls[b] < 0)) {
      if ((cv = clip_cut_vertex(w, a, b)) < 0) {
        return -1;
      }
      out[no++] = cv;
    }
    /* the face leaves the kept side after a (exit) or re-enters it at b (entry) */
    if (cls[a] <= 0 && cls[b] > 0) {
      exit_v = cls[a] < 0 ? cv : w->map[a];
      nexit++;
    } else if (cls[a] > 0 && cls[b] <= 0) {
      entry_v = cls[b] < 0 ? cv : w->map[b];
      nentry++;
    }
  }
  if (has_out) {
    if (nexit != 1 || nentry != 1) {
      w->chain_ok = 0;
    } else if (exit_v != entry_v) {
      if (w->ncap >= VXG_POLY_MAX_FACES) {
        return -1;
      }
      w->cap_from[w->ncap] = entry_v;
      w->cap_to[w->ncap++] = exit_v;
    }
  }
  return clip_add_face(&w->q, out, no);
}


/* Chains the cap edges into one loop in `cap`. Returns its length, or -1 if the edges do not
 * form one closed loop. */
static int clip_chain_cap(const clip_work *w, int *cap) {
  if (!w->chain_ok || w->ncap < 3) {
    return -1;
  }
  unsigned char used[VXG_POLY_MAX_FACES] = {0};
  int cur = 0, ncv = 0;
  for (int step = 0; step < w->ncap; step++) {
    used[cur] = 1;
    cap[ncv++] = w->cap_from[cur];
    int next = -1;
    for (int e = 0; e < w->ncap; e++) {
      if (!used[e] && w->cap_from[e] == w->cap_to[cur]) {
        next = e;
        break;
      }
    }
    if (next < 0) {
      /* the loop must close on the first edge after using every edge */
      if (step != w->ncap - 1 || w->cap_to[cur] != w->cap_from[0]) {
        return -1;
      }
      break;
    }
    cur = next;
  }
  return ncv;
}


/* The cap face when chaining failed: every point of the new vertex list on the plane, sorted by
 * angle. Returns its length. */
static int clip_cap_fallback(const clip_work *w, const double n[3], int *cap) {
  int ncv = 0;
  for (int i = 0; i < w->p->nvert; i++) {
    if (w->cls[i] == 0) {
      cap[ncv++] = w->map[i];
    }
  }
  for (int c = 0; c < w->ncut; c++) {
    cap[ncv++] = w->cut_v[c];
  }
  double nl = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  double un[3] = {n[0] / nl, n[1] / nl, n[2] / nl};
  return cap_by_angle(&w->q, un, cap, ncv);
}


/* Drops vertices no face uses (an "on" vertex of faces that all collapsed), renumbering the
 * faces; flat leftovers (fewer than 4 faces) have no volume and become empty. */
static void clip_drop_unused(vxg_poly *q) {
  int use[VXG_POLY_MAX_VERTS];
  for (int i = 0; i < q->nvert; i++) {
    use[i] = 0;
  }
  for (int f = 0; f < q->nface; f++) {
    for (int i = 0; i < q->face_n[f]; i++) {
      use[q->face[f][i]] = 1;
    }
  }
  int m = 0;
  for (int i = 0; i < q->nvert; i++) {
    if (use[i]) {
      if (m != i) {
        memcpy(q->v[m], q->v[i], sizeof q->v[0]);
      }
      use[i] = m++;
    } else {
      use[i] = -1;
    }
  }
  if (m != q->nvert) {
    for (int f = 0; f < q->nface; f++) {
      for (int i = 0; i < q->face_n[f]; i++) {
        q->face[f][i] = use[q->face[f][i]];
      }
    }
    q->nvert = m;
  }
  if (q->nface < 4) {
    q->nvert = q->nface = 0;
  }
}


/* Copies q's used part into p. */
static void clip_copy(vxg_poly *p, const vxg_poly *q) {
  p->nvert = q->nvert;
  p->nface = q->nface;
  memcpy(p->v, q->v, (size_t)q->nvert * sizeof q->v[0]);
  memcpy(p->face_n, q->face_n, (size_t)q->nface * sizeof q->face_n[0]);
  for (int f = 0; f < q->nface; f++) {
    memcpy(p->face[f], q->face[f], (size_t)q->face_n[f] * sizeof q->face[0][0]);
  }
}


int vxg_poly_clip(vxg_poly *p, const double n[3], double d) {
  if (p->nvert == 0) {
    return 0;
  }
  clip_work w;
  int nin, nout;
  w.p = p;
  clip_classify(&w, n, d, &nin, &nout);
  if (nout == 0) {
    return 0; /* nothing outside: unchanged */
  }
  if (nin == 0) {
    p->nvert = p->nface = 0; /* nothing strictly inside: empty (or flat) */
    return 0;
  }
  clip_keep_vertices(&w);
  for (int f = 0; f < p->nface; f++) {
    if (clip_face(&w, f) < 0) {
      return -1;
    }
  }
  int cap[2 * VXG_POLY_MAX_FACES + VXG_POLY_MAX_VERTS];
  int ncv = clip_chain_cap(&w, cap);
  if (ncv < 0) {
    ncv = clip_cap_fallback(&w, n, cap);
  }
  if (clip_add_face(&w.q, cap, ncv) < 0) {
    return -1;
  }
  clip_drop_unused(&w.q);
  clip_copy(p, &w.q);
  return 0;
}


void vxg_poly_moments(const vxg_poly *p, vxg_moments *m) {
  memset(m, 0, sizeof *m);
  if (p->nvert == 0) {
    return;
  }
  /* local origin: the vertex average (inside a convex polyhedron) */
  double o[3] = {0, 0, 0};
  for (int i = 0; i < p->nvert; i++) {
    for (int a = 0; a < 3; a++) {
      o[a] += p->v[i][a];
    }
  }
  for (int a = 0; a < 3; a++) {
    o[a] /= p->nvert;
  }
  double v6 = 0, s1[3] = {0, 0, 0}, s2[6] = {0, 0, 0, 0, 0, 0};
  for (int f = 0; f < p->nface; f++) {
    const int *fv = p->face[f];
    double a[3];
    for (int c = 0; c < 3; c++) {
      a[c] = p->v[fv[0]][c] - o[c];
    }
    for (int i = 1; i + 1 < p->face_n[f]; i++) {
      double b[3], c3[3];
      for (int c = 0; c < 3; c++) {
        b[c] = p->v[fv[i]][c] - o[c];
        c3[c] = p->v[fv[i + 1]][c] - o[c];
      }
      /* 6 V = det[a b c] = a . (b x c) */
      double d = a[0] * (b[1] * c3[2] - b[2] * c3[1]) + a[1] * (b[2] * c3[0] - b[0] * c3[2]) +
                 a[2] * (b[0] * c3[1] - b[1] * c3[0]);
      double s[3] = {a[0] + b[0] + c3[0], a[1] + b[1] + c3[1], a[2] + b[2] + c3[2]};
      v6 += d;
      for (int c = 0; c < 3; c++) {
        s1[c] += d * s[c];
      }
      /* (xx, yy, zz, xy, yz, xz) of a a^T + b b^T + c c^T + s s^T */
      for (int k = 0; k < 6; k++) {
        int u = VXG_SYM_ROW[k], w = VXG_SYM_COL[k];
        s2[k] += d * (a[u] * a[w] + b[u] * b[w] + c3[u] * c3[w] + s[u] * s[w]);
      }
    }
  }
  /* V = sum d / 6, m1' = sum d s / 24, m2' = sum d (...) / 120 */
  double m0 = v6 / 6, l1[3] = {s1[0] / 24, s1[1] / 24, s1[2] / 24};
  m->m0 = m0;
  for (int a = 0; a < 3; a++) {
    m->m1[a] = l1[a] + m0 * o[a];
  }
  for (int k = 0; k < 6; k++) {
    int u = VXG_SYM_ROW[k], w = VXG_SYM_COL[k];
    m->m2[k] = s2[k] / 120 + o[u] * l1[w] + l1[u] * o[w] + m0 * o[u] * o[w];
  }
}


void vxg_moments_inertia(const vxg_moments *m, double p[3], double J[9]) {
  memset(J, 0, 9 * sizeof *J);
  p[0] = p[1] = p[2] = 0;
  if (!(m->m0 > 0)) {
    return;
  }
  for (int k = 0; k < 3; k++) {
    p[k] = m->m1[k] / m->m0;
  }
  /* central second moments C, then J = tr(C) I - C */
  double c[6];
  for (int k = 0; k < 6; k++) {
    c[k] = m->m2[k] - m->m1[VXG_SYM_ROW[k]] * p[VXG_SYM_COL[k]];
  }
  double tr = c[0] + c[1] + c[2];
  J[0] = tr - c[0];
  J[4] = tr - c[1];
  J[8] = tr - c[2];
  J[1] = J[3] = -c[3];
  J[5] = J[7] = -c[4];
  J[2] = J[6] = -c[5];
}


void vxg_box_moments(const double c[3], const double e[3], vxg_moments *m) {
  /* int over [c - e, c + e] of x_i x_j = V c_i c_j (i != j), V (c_i^2 + e_i^2 / 3) (i = j) */
  double v = 8 * e[0] * e[1] * e[2];
  m->m0 = v;
  for (int a = 0; a < 3; a++) {
    m->m1[a] = v * c[a];
  }
  m->m2[0] = v * (c[0] * c[0] + e[0] * e[0] / 3);
  m->m2[1] = v * (c[1] * c[1] + e[1] * e[1] / 3);
  m->m2[2] = v * (c[2] * c[2] + e[2] * e[2] / 3);
  m->m2[3] = v * c[0] * c[1];
  m->m2[4] = v * c[1] * c[2];
  m->m2[5] = v * c[0] * c[2];
}
