/* mesh.c: closed triangle meshes: building a checked mesh from a soup, its report figures,
 * and the signed distance.
 *
 * Data: struct vxg_mesh (mesh.h). Building (vxg_mesh_build) runs in this order, each step
 * keeping each triangle's index in the soup so that errors name the file position:
 *  1. scale, bounding box, diagonal D;
 *  2. weld: vertices within VXG_MESH_WELD_REL D of an earlier kept vertex merge into it
 *     (a hash grid of cells of that size; the 27 cells around a vertex are searched);
 *  3. drop degenerate triangles (a repeated vertex, or doubled area below
 *     VXG_MESH_DEGEN_REL D^2), counted in info.ndegenerate; unused vertices disappear;
 *  4. edges: half-edges bucketed by their smaller vertex; an undirected edge used once is a
 *     boundary edge, more than twice a non-manifold edge; a pair traversed in the same
 *     direction joins two triangles of opposite orientation;
 *  5. orientation: a breadth-first walk over each component gives every triangle its
 *     orientation relative to the component's first one; the minority is reported as
 *     flipped faces (a Moebius-like surface counts its contradictions);
 *  6. vertex manifoldness: the triangles around a vertex must form one fan;
 *  7. global orientation: a negative enclosed volume means the file is inside out, and
 *     every triangle is reversed (info.flipped);
 *  8. normals, pseudo-normals, area, volume, centroid, convexity, adjacency;
 *  9. no two triangles meet beyond what they share (mesh_selfx.c); the Embree scene.
 *
 * Signed distance: Embree finds the closest point (mesh_embree.c); the sign is that of
 * (p - closest) . N with N the angle-weighted pseudo-normal of the closest feature (face,
 * edge or vertex), which is exact for a closed manifold (Baerentzen and Aanaes, 2005). */
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom/input.h"
#include "geom/mesh.h"
#include "geom/vec3.h"

/* A box is decided by one closest-point search when its bound is at most this many
 * triangle sizes; beyond, a nearest-triangle test and ray parity are cheaper. The value is
 * the fastest of 2, 4 and 8 on the bench's mesh cases (`vxc bench --only mesh`; the
 * pole-down cap tells them apart). */
#define SEARCH_TRIS 2.0

/* ---------------------------------------------------------------------------------------
 * Soups */

int vxg_soup_vertex(vxg_soup *s, double x, double y, double z) {
  if (s->nv >= VXG_MESH_MAX_COUNT ||
      vxg_grow(s->al, (void **)&s->v, &s->capv, s->nv + 1, 3 * sizeof(double))) {
    return -1;
  }
  double *v = s->v + 3 * s->nv++;
  v[0] = x;
  v[1] = y;
  v[2] = z;
  return 0;
}


int vxg_soup_tri(vxg_soup *s, int a, int b, int c, long pos) {
  if (s->nt >= VXG_MESH_MAX_COUNT) {
    return -1;
  }
  size_t capt = s->capt, capp = s->capt;
  if (vxg_grow(s->al, (void **)&s->t, &capt, s->nt + 1, 3 * sizeof(int)) ||
      vxg_grow(s->al, (void **)&s->pos, &capp, s->nt + 1, sizeof(long))) {
    /* keep both arrays' capacity the smaller one */
    s->capt = capt < capp ? capt : capp;
    return -1;
  }
  s->capt = capt < capp ? capt : capp;
  int *t = s->t + 3 * s->nt;
  t[0] = a;
  t[1] = b;
  t[2] = c;
  s->pos[s->nt++] = pos;
  return 0;
}


void vxg_soup_free(vxg_soup *s) {
  vxg_free(s->al, s->v);
  vxg_free(s->al, s->t);
  vxg_free(s->al, s->pos);
  s->v = NULL;
  s->t = NULL;
  s->pos = NULL;
  s->nv = s->nt = s->capv = s->capt = 0;
}


/* ---------------------------------------------------------------------------------------
 * Small vector helpers */

static inline void sub3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[0] - b[0];
  o[1] = a[1] - b[1];
  o[2] = a[2] - b[2];
}


static inline double norm3(const double a[3]) {
  return sqrt(vxg_dot(a, a));
}


/* ---------------------------------------------------------------------------------------
 * Closest point on a triangle (Ericson, Real-Time Collision Detection, 5.1.5), with the
 * Voronoi region it falls in. */

double vxg_tri_closest(const double p[3], const double a[3], const double b[3], const double c[3],
                       double cp[3], int *feat) {
  double ab[3], ac[3], ap[3], bp[3], cpv[3], d[3];
  sub3(b, a, ab);
  sub3(c, a, ac);
  sub3(p, a, ap);
  double d1 = vxg_dot(ab, ap), d2 = vxg_dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) {
    memcpy(cp, a, 3 * sizeof *cp);
    *feat = 1;
    goto out;
  }
  sub3(p, b, bp);
  double d3 = vxg_dot(ab, bp), d4 = vxg_dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    memcpy(cp, b, 3 * sizeof *cp);
    *feat = 2;
    goto out;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    double v = d1 / (d1 - d3);
    for (int i = 0; i < 3; i++) {
      cp[i] = a[i] + v * ab[i];
    }
    *feat = 4; /* edge a -> b */
    goto out;
  }
  sub3(p, c, cpv);
  double d5 = vxg_dot(ab, cpv), d6 = vxg_dot(ac, cpv);
  if (d6 >= 0 && d5 <= d6) {
    memcpy(cp, c, 3 * sizeof *cp);
    *feat = 3;
    goto out;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    double w = d2 / (d2 - d6);
    for (int i = 0; i < 3; i++) {
      cp[i] = a[i] + w * ac[i];
    }
    *feat = 6; /* edge c -> a */
    goto out;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int i = 0; i < 3; i++) {
      cp[i] = b[i] + w * (c[i] - b[i]);
    }
    *feat = 5; /* edge b -> c */
    goto out;
  }
  {
    double den = 1 / (va + vb + vc);
    double v = vb * den, w = vc * den;
    for (int i = 0; i < 3; i++) {
      cp[i] = a[i] + ab[i] * v + ac[i] * w;
    }
    *feat = 0;
  }
out:
  sub3(p, cp, d);
  return vxg_dot(d, d);
}


/* ---------------------------------------------------------------------------------------
 * Building */

typedef struct build {
  vxg_soup *s;
  vxg_mesh *m;
  vxc_error *err;
  int *src;  /* ntri: the soup triangle each kept triangle came from */
  int *twin; /* 3 ntri: the half-edge across each half-edge */
  int *same; /* 3 ntri: 1 when the twin runs in the same direction */
} build;


/* Names where soup triangle `st` came from: sets *line (text formats) and fills `where`. */
static void tri_where(const build *b, int st, int *line, char *where, size_t n) {
  const vxg_soup *s = b->s;
  *line = 0;
  if (!s->pos) {
    snprintf(where, n, "triangle %d (0-based)", st);
  } else if (!s->binary) {
    *line = (int)s->pos[st];
    snprintf(where, n, "the triangle of line %ld", s->pos[st]);
  } else if (strcmp(s->format, "binary STL") == 0) {
    snprintf(where, n, "triangle %d (counting from 1, byte offset %ld)", st + 1, s->pos[st]);
  } else {
    snprintf(where, n, "the face at byte offset %ld", s->pos[st]);
  }
}


static vxc_status geom_error(build *b, int st, const char *fmt, const char *what) {
  char where[96];
  int line;
  tri_where(b, st, &line, where, sizeof where);
  (void)fmt;
  return vxg_error_set(b->err, VXC_ERR_GEOMETRY, b->s->name, line, line > 0 ? 1 : 0,
                       "%s; first offending triangle: %s", what, where);
}


static uint64_t hash3(int64_t x, int64_t y, int64_t z) {
  uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Full ^
               (uint64_t)z * 0x165667B19E3779F9ull;
  return h ^ (h >> 29);
}


/* Welds the soup's vertices: map[i] = new index; the kept vertices (first of each cluster,
 * in order) go to m->v. Returns 0 or -1 (memory). */
static int weld(build *b, const double lo[3], double tol, int *map) {
  vxg_soup *s = b->s;
  vxg_mesh *m = b->m;
  size_t nv = s->nv, tsize = 16;
  while (tsize < 2 * nv) {
    tsize *= 2;
  }
  int *table = vxg_alloc(m->al, tsize * sizeof *table);
  int64_t *cell = vxg_alloc(m->al, 3 * nv * sizeof *cell);
  m->v = vxg_alloc(m->al, 3 * nv * sizeof *m->v);
  if (!table || !cell || !m->v) {
    vxg_free(m->al, table);
    vxg_free(m->al, cell);
    return -1;
  }
  memset(table, 0xff, tsize * sizeof *table);
  double inv = tol > 0 ? 1 / tol : 0, tol2 = tol * tol;
  int nk = 0;
  for (size_t i = 0; i < nv; i++) {
    const double *p = s->v + 3 * i;
    int64_t c[3];
    for (int a = 0; a < 3; a++) {
      c[a] = (int64_t)floor((p[a] - lo[a]) * inv);
    }
    int found = -1;
    for (int d = 0; d < 27 && found < 0; d++) {
      int64_t q[3] = {c[0] + d % 3 - 1, c[1] + (d / 3) % 3 - 1, c[2] + d / 9 - 1};
      for (size_t h = hash3(q[0], q[1], q[2]) & (tsize - 1);; h = (h + 1) & (tsize - 1)) {
        int e = table[h];
        if (e < 0) {
          break;
        }
        const int64_t *ce = cell + 3 * e;
        if (ce[0] == q[0] && ce[1] == q[1] && ce[2] == q[2]) {
          double dd[3];
          sub3(p, m->v + 3 * e, dd);
          if (vxg_dot(dd, dd) <= tol2) {
            found = e;
            break;
          }
        }
      }
    }
    if (found >= 0) {
      map[i] = found;
      continue;
    }
    memcpy(m->v + 3 * nk, p, 3 * sizeof *p);
    memcpy(cell + 3 * nk, c, sizeof c);
    size_t h = hash3(c[0], c[1], c[2]) & (tsize - 1);
    while (table[h] >= 0) {
      h = (h + 1) & (tsize - 1);
    }
    table[h] = nk;
    map[i] = nk++;
  }
  m->info.nwelded = (int)nv - nk;
  m->nvert = nk;
  vxg_free(m->al, table);
  vxg_free(m->al, cell);
  return 0;
}


typedef struct hedge {
  int other; /* the larger vertex */
  int h;     /* 3 t + k */
} hedge;

static int hedge_cmp(const void *x, const void *y) {
  const hedge *a = x, *b = y;
  if (a->other != b->other) {
    return a->other < b->other ? -1 : 1;
  }
  return a->h < b->h ? -1 : (a->h > b->h);
}


/* Matches half-edges into b->twin / b->same; counts boundary and non-manifold edges and
 * the first (lowest) offending triangle of each. Returns 0 or -1 (memory). */
static int match_edges(build *b, int *nboundary, int *nnonman, int *first_b, int *first_n) {
  vxg_mesh *m = b->m;
  int nh = 3 * m->ntri, nv = m->nvert;
  int *off = vxg_alloc(m->al, ((size_t)nv + 1) * sizeof *off);
  hedge *he = vxg_alloc(m->al, (size_t)nh * sizeof *he);
  if (!off || !he) {
    vxg_free(m->al, off);
    vxg_free(m->al, he);
    return -1;
  }
  memset(off, 0, ((size_t)nv + 1) * sizeof *off);
  for (int h = 0; h < nh; h++) {
    int a = m->tri[h], c = m->tri[h - h % 3 + (h % 3 + 1) % 3];
    off[(a < c ? a : c) + 1]++;
  }
  for (int i = 0; i < nv; i++) {
    off[i + 1] += off[i];
  }
  for (int h = 0; h < nh; h++) {
    int a = m->tri[h], c = m->tri[h - h % 3 + (h % 3 + 1) % 3];
    int lo = a < c ? a : c;
    he[off[lo]].other = a < c ? c : a;
    he[off[lo]].h = h;
    off[lo]++;
  }
  for (int i = nv; i > 0; i--) {
    off[i] = off[i - 1];
  }
  off[0] = 0;
  *nboundary = *nnonman = 0;
  *first_b = *first_n = -1;
  for (int h = 0; h < nh; h++) {
    b->twin[h] = -1;
    b->same[h] = 0;
  }
  for (int v = 0; v < nv; v++) {
    hedge *g = he + off[v];
    int n = off[v + 1] - off[v];
    qsort(g, (size_t)n, sizeof *g, hedge_cmp);
    for (int i = 0; i < n;) {
      int j = i;
      while (j < n && g[j].other == g[i].other) {
        j++;
      }
      int cnt = j - i, tmin = g[i].h / 3;
      for (int k = i; k < j; k++) {
        tmin = g[k].h / 3 < tmin ? g[k].h / 3 : tmin;
      }
      if (cnt == 1) {
        (*nboundary)++;
        if (*first_b < 0 || tmin < *first_b) {
          *first_b = tmin;
        }
      } else if (cnt > 2) {
        (*nnonman)++;
        if (*first_n < 0 || tmin < *first_n) {
          *first_n = tmin;
        }
      } else {
        int h0 = g[i].h, h1 = g[i + 1].h;
        b->twin[h0] = h1;
        b->twin[h1] = h0;
        int same = m->tri[h0] == m->tri[h1];
        b->same[h0] = b->same[h1] = same;
      }
      i = j;
    }
  }
  vxg_free(m->al, off);
  vxg_free(m->al, he);
  return 0;
}


/* Whether the shell of triangles q[0..n) (oriented by o) encloses a volume: at least a
 * tenth of its area times the weld distance, the thinnest solid the welding lets exist. A
 * surface with both its sides in the shell (one triangle written twice, facing both ways)
 * encloses none: its signed volume cancels to rounding. */
static int shell_encloses(const vxg_mesh *m, const int *q, int n, const signed char *o) {
  const double *v0 = m->v + 3 * m->tri[3 * q[0]];
  double vol6 = 0, area2 = 0;
  for (int i = 0; i < n; i++) {
    const int *ti = m->tri + 3 * q[i];
    double a[3], c[3], x[3];
    for (int k = 0; k < 3; k++) {
      a[k] = m->v[3 * ti[0] + k] - v0[k];
      c[k] = m->v[3 * ti[2] + k] - v0[k];
      x[k] = m->v[3 * ti[1] + k] - v0[k];
    }
    double bc[3], e1[3], e2[3], nrm[3];
    vxg_cross(x, c, bc);
    vol6 += o[q[i]] * vxg_dot(a, bc);
    for (int k = 0; k < 3; k++) {
      e1[k] = x[k] - a[k];
      e2[k] = c[k] - a[k];
    }
    vxg_cross(e1, e2, nrm);
    area2 += norm3(nrm);
  }
  return fabs(vol6) / 6 >= 0.1 * (area2 / 2) * VXG_MESH_WELD_REL * m->size;
}


/* Orients every component from its first triangle; counts the minority (flipped faces) and
 * the lowest such triangle, and finds the first component that encloses no volume (*thin:
 * its first triangle, else -1). Sets info.ncomponent. Returns 0 or -1 (memory). */
static int check_orientation(build *b, int *nflipped, int *first, int *thin) {
  vxg_mesh *m = b->m;
  int nt = m->ntri;
  signed char *o = vxg_alloc(m->al, (size_t)nt);
  int *queue = vxg_alloc(m->al, (size_t)nt * sizeof *queue);
  int *comp = vxg_alloc(m->al, (size_t)nt * sizeof *comp);
  if (!o || !queue || !comp) {
    vxg_free(m->al, o);
    vxg_free(m->al, queue);
    vxg_free(m->al, comp);
    return -1;
  }
  memset(o, 0, (size_t)nt);
  *nflipped = 0;
  *first = -1;
  *thin = -1;
  int ncomp = 0;
  for (int seed = 0; seed < nt; seed++) {
    if (o[seed]) {
      continue;
    }
    int head = 0, tail = 0, npos = 0, nneg = 0, contra = 0, first_contra = -1;
    o[seed] = 1;
    queue[tail++] = seed;
    while (head < tail) {
      int t = queue[head++];
      comp[t] = ncomp;
      if (o[t] > 0) {
        npos++;
      } else {
        nneg++;
      }
      for (int k = 0; k < 3; k++) {
        int tw = b->twin[3 * t + k];
        if (tw < 0) {
          continue;
        }
        int u = tw / 3;
        signed char want = b->same[3 * t + k] ? (signed char)-o[t] : o[t];
        if (!o[u]) {
          o[u] = want;
          queue[tail++] = u;
        } else if (o[u] != want) {
          contra++;
          if (first_contra < 0 || u < first_contra) {
            first_contra = u;
          }
        }
      }
    }
    /* the minority of this component is flipped; ties name the later triangles */
    signed char bad = npos >= nneg ? -1 : 1;
    int nb = npos >= nneg ? nneg : npos;
    if (contra > 0 && nb == 0) {
      nb = contra / 2 > 0 ? contra / 2 : 1; /* non-orientable: count contradictions */
      if (*first < 0 || first_contra < *first) {
        *first = first_contra;
      }
    }
    *nflipped += nb;
    if (*thin < 0 && !shell_encloses(m, queue, tail, o)) {
      *thin = seed;
    }
    for (int i = 0; i < tail && nb > 0; i++) {
      int t = queue[i];
      if (o[t] == bad && (*first < 0 || t < *first)) {
        *first = t;
      }
    }
    ncomp++;
  }
  m->info.ncomponent = ncomp;
  vxg_free(m->al, o);
  vxg_free(m->al, queue);
  vxg_free(m->al, comp);
  return 0;
}


/* Counts vertices whose triangles form more than one fan; *first gets the lowest triangle
 * at such a vertex. Needs consistent twins. Returns 0 or -1 (memory). */
static int check_vertices(build *b, int *nbad, int *first) {
  vxg_mesh *m = b->m;
  int nh = 3 * m->ntri;
  unsigned char *seen = vxg_alloc(m->al, (size_t)nh);
  int *fans = vxg_alloc(m->al, (size_t)m->nvert * sizeof *fans);
  if (!seen || !fans) {
    vxg_free(m->al, seen);
    vxg_free(m->al, fans);
    return -1;
  }
  memset(seen, 0, (size_t)nh);
  memset(fans, 0, (size_t)m->nvert * sizeof *fans);
  *nbad = 0;
  *first = -1;
  for (int h0 = 0; h0 < nh; h0++) {
    if (seen[h0]) {
      continue;
    }
    int v = m->tri[h0];
    if (++fans[v] == 2) {
      (*nbad)++;
    }
    if (fans[v] >= 2 && (*first < 0 || h0 / 3 < *first)) {
      *first = h0 / 3;
    }
    /* corner h (vertex v, outgoing edge h) -> across the edge -> v's corner there */
    int h = h0;
    for (int guard = 0; guard <= nh && !seen[h]; guard++) {
      seen[h] = 1;
      int tw = b->twin[h];
      if (tw < 0) {
        break;
      }
      h = tw - tw % 3 + (tw % 3 + 1) % 3;
    }
  }
  vxg_free(m->al, seen);
  vxg_free(m->al, fans);
  return 0;
}


static void derive(build *b) {
  vxg_mesh *m = b->m;
  int nt = m->ntri, nv = m->nvert;
  double vol6 = 0, area2 = 0, cen[3] = {0, 0, 0};
  memset(m->vn, 0, 3 * (size_t)nv * sizeof *m->vn);
  for (int t = 0; t < nt; t++) {
    const int *ti = m->tri + 3 * t;
    const double *a = m->v + 3 * ti[0], *bb = m->v + 3 * ti[1], *c = m->v + 3 * ti[2];
    double e1[3], e2[3], n[3], bc[3];
    sub3(bb, a, e1);
    sub3(c, a, e2);
    vxg_cross(e1, e2, n);
    double ln = norm3(n);
    area2 += ln;
    for (int i = 0; i < 3; i++) {
      m->fn[3 * t + i] = n[i] / ln;
    }
    vxg_cross(bb, c, bc);
    double v6 = vxg_dot(a, bc);
    vol6 += v6;
    for (int i = 0; i < 3; i++) {
      cen[i] += v6 * (a[i] + bb[i] + c[i]);
    }
    /* angle-weighted vertex pseudo-normals */
    for (int k = 0; k < 3; k++) {
      const double *p = m->v + 3 * ti[k], *q = m->v + 3 * ti[(k + 1) % 3],
                   *r = m->v + 3 * ti[(k + 2) % 3];
      double u[3], w[3], x[3];
      sub3(q, p, u);
      sub3(r, p, w);
      vxg_cross(u, w, x);
      double ang = atan2(norm3(x), vxg_dot(u, w));
      for (int i = 0; i < 3; i++) {
        m->vn[3 * ti[k] + i] += ang * m->fn[3 * t + i];
      }
    }
  }
  for (int h = 0; h < 3 * nt; h++) {
    int t = h / 3, u = b->twin[h] / 3;
    for (int i = 0; i < 3; i++) {
      m->en[3 * h + i] = m->fn[3 * t + i] + m->fn[3 * u + i];
    }
  }
  m->info.area = 0.5 * area2;
  m->tri_size = sqrt(m->info.area / nt);
  m->info.volume = vol6 / 6;
  for (int i = 0; i < 3; i++) {
    m->info.centroid[i] = vol6 != 0 ? cen[i] / (4 * vol6) : 0;
  }
  /* convex: one shell and no reflex edge (the far vertex of each neighbour is not above
   * the triangle's plane, up to rounding) */
  int convex = m->info.ncomponent == 1;
  double tol = 1e-9 * m->size;
  for (int h = 0; h < 3 * nt && convex; h++) {
    int t = h / 3, tw = b->twin[h];
    int u = tw / 3, opp = m->tri[3 * u + (tw % 3 + 2) % 3];
    double d[3];
    sub3(m->v + 3 * opp, m->v + 3 * m->tri[3 * t], d);
    convex = vxg_dot(m->fn + 3 * t, d) <= tol;
  }
  m->info.convex = convex;
  /* planes: coplanar neighbours joined (union-find, the lowest triangle as the root) */
  for (int t = 0; t < nt; t++) {
    m->pid[t] = t;
  }
  for (int h = 0; h < 3 * nt; h++) {
    int t = h / 3, tw = b->twin[h];
    int u = tw / 3, opp = m->tri[3 * u + (tw % 3 + 2) % 3];
    double d[3];
    sub3(m->v + 3 * opp, m->v + 3 * m->tri[3 * t], d);
    if (u <= t || vxg_dot(m->fn + 3 * t, m->fn + 3 * u) < 1 - 1e-12 ||
        fabs(vxg_dot(m->fn + 3 * t, d)) > 1e-12 * m->size) {
      continue;
    }
    int rt = t, ru = u;
    while (m->pid[rt] != rt) {
      rt = m->pid[rt];
    }
    while (m->pid[ru] != ru) {
      ru = m->pid[ru];
    }
    if (rt < ru) {
      m->pid[ru] = rt;
    } else {
      m->pid[rt] = ru;
    }
  }
  for (int t = 0; t < nt; t++) {
    m->pid[t] = m->pid[m->pid[t]]; /* roots precede: one step reaches the root */
  }
  /* adjacency: the head of each outgoing half-edge (each neighbour once on a manifold) */
  memset(m->adj_off, 0, ((size_t)nv + 1) * sizeof *m->adj_off);
  for (int h = 0; h < 3 * nt; h++) {
    m->adj_off[m->tri[h] + 1]++;
  }
  for (int i = 0; i < nv; i++) {
    m->adj_off[i + 1] += m->adj_off[i];
  }
  for (int h = 0; h < 3 * nt; h++) {
    int a = m->tri[h];
    m->adj[m->adj_off[a]++] = m->tri[h - h % 3 + (h % 3 + 1) % 3];
  }
  for (int i = nv; i > 0; i--) {
    m->adj_off[i] = m->adj_off[i - 1];
  }
  m->adj_off[0] = 0;
}


/* Meshes built so far (vxg_mesh_serial). */
static atomic_ullong mesh_serials;

/* The checks and derivations once m->v, m->tri and b->src are set. */
static vxc_status finish(build *b) {
  vxg_mesh *m = b->m;
  char what[320];
  int nb, nn, fb, fn_;
  if (match_edges(b, &nb, &nn, &fb, &fn_) != 0) {
    return VXC_ERR_NOMEM;
  }
  if (nb > 0 || nn > 0) {
    int first = fb < 0 ? fn_ : (fn_ < 0 ? fb : (fb < fn_ ? fb : fn_));
    snprintf(what, sizeof what,
             "mesh is not a closed manifold: %d boundary edge%s (open mesh), %d non-manifold "
             "edge%s (more than two triangles)%s",
             nb, nb == 1 ? "" : "s", nn, nn == 1 ? "" : "s",
             m->info.ndegenerate ? " after dropping degenerate triangles" : "");
    return geom_error(b, b->src[first], NULL, what);
  }
  int nf, ff, thin;
  if (check_orientation(b, &nf, &ff, &thin) != 0) {
    return VXC_ERR_NOMEM;
  }
  if (nf > 0) {
    snprintf(what, sizeof what,
             "mesh is not consistently oriented: %d face%s flipped against %s neighbours", nf,
             nf == 1 ? " is" : "s are", nf == 1 ? "its" : "their");
    return geom_error(b, b->src[ff], NULL, what);
  }
  if (nf == 0 && thin >= 0) {
    return geom_error(b, b->src[thin], NULL,
                      "mesh shell encloses no volume (a surface seen from both sides, or thinner "
                      "than the welding distance)");
  }
  int nbv, fv;
  if (check_vertices(b, &nbv, &fv) != 0) {
    return VXC_ERR_NOMEM;
  }
  if (nbv > 0) {
    snprintf(what, sizeof what,
             "mesh is not manifold: %d vertex%s shared by separate fans of triangles", nbv,
             nbv == 1 ? " is" : "es are");
    return geom_error(b, b->src[fv], NULL, what);
  }
  /* inside out: reverse every triangle and match again */
  double vol6 = 0;
  for (int t = 0; t < m->ntri; t++) {
    const int *ti = m->tri + 3 * t;
    double bc[3];
    vxg_cross(m->v + 3 * ti[1], m->v + 3 * ti[2], bc);
    vol6 += vxg_dot(m->v + 3 * ti[0], bc);
  }
  if (!(vol6 != 0) || !isfinite(vol6)) {
    return geom_error(b, b->src[0], NULL, "mesh encloses no volume");
  }
  if (vol6 < 0) {
    for (int t = 0; t < m->ntri; t++) {
      int x = m->tri[3 * t + 1];
      m->tri[3 * t + 1] = m->tri[3 * t + 2];
      m->tri[3 * t + 2] = x;
    }
    m->info.flipped = 1;
    if (match_edges(b, &nb, &nn, &fb, &fn_) != 0) {
      return VXC_ERR_NOMEM;
    }
  }
  derive(b);
  m->serial = atomic_fetch_add(&mesh_serials, 1) + 1;
  return VXC_OK;
}


static void mesh_release(vxg_mesh *m) {
  if (!m) {
    return;
  }
  vxg_mesh_bvh_free(m);
  vxg_mesh_tree_free(m);
  const vxc_allocator *al = m->al;
  vxg_free(al, m->name);
  vxg_free(al, m->v);
  vxg_free(al, m->tri);
  vxg_free(al, m->fn);
  vxg_free(al, m->en);
  vxg_free(al, m->vn);
  vxg_free(al, m->adj_off);
  vxg_free(al, m->adj);
  vxg_free(al, m->pid);
  vxg_free(al, m);
}


/* Step 1: scales the soup's vertices to metres, checking each, and sets lo (the bounding box's
 * low corner) and m->size (its diagonal D). VXC_OK or VXC_ERR_GEOMETRY (error set). */
static vxc_status build_scale(build *b, double scale, double lo[3]) {
  vxg_soup *s = b->s;
  const char *name = b->m->name;
  double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  lo[0] = lo[1] = lo[2] = HUGE_VAL;
  for (size_t i = 0; i < 3 * s->nv; i++) {
    s->v[i] *= scale;
    if (!(fabs(s->v[i]) <= VXG_MAX_LENGTH)) {
      return vxg_error_set(b->err, VXC_ERR_GEOMETRY, name, 0, 0,
                           "vertex %zu (0-based): coordinate %g m (after scaling by %g) is not "
                           "finite or beyond %g m (a unit mistake? use (scale S))",
                           i / 3, s->v[i], scale, VXG_MAX_LENGTH);
    }
  }
  for (size_t t = 0; t < 3 * s->nt; t++) {
    const double *p = s->v + 3 * (size_t)s->t[t];
    for (int a = 0; a < 3; a++) {
      lo[a] = fmin(lo[a], p[a]);
      hi[a] = fmax(hi[a], p[a]);
    }
  }
  double diag[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
  b->m->size = norm3(diag);
  if (!(b->m->size > 0)) {
    return vxg_error_set(b->err, VXC_ERR_GEOMETRY, name, 0, 0,
                         "mesh has no extent: every vertex is at the same point");
  }
  return VXC_OK;
}


/* Step 3, first half: the soup's triangles in welded numbering (map), without those with a
 * repeated vertex or a doubled area below VXG_MESH_DEGEN_REL D^2, into m->tri and b->src.
 * VXC_OK, VXC_ERR_NOMEM (error not set) or VXC_ERR_GEOMETRY (none left; error set). */
static vxc_status build_drop_degenerate(build *b, const int *map) {
  const vxg_soup *s = b->s;
  vxg_mesh *m = b->m;
  m->tri = vxg_alloc(m->al, 3 * s->nt * sizeof *m->tri);
  b->src = vxg_alloc(m->al, s->nt * sizeof *b->src);
  if (!m->tri || !b->src) {
    return VXC_ERR_NOMEM;
  }
  double amin = VXG_MESH_DEGEN_REL * m->size * m->size;
  int nt = 0;
  for (size_t t = 0; t < s->nt; t++) {
    int a = map[s->t[3 * t]], c1 = map[s->t[3 * t + 1]], c2 = map[s->t[3 * t + 2]];
    if (a == c1 || c1 == c2 || a == c2) {
      m->info.ndegenerate++;
      continue;
    }
    double e1[3], e2[3], n[3];
    sub3(m->v + 3 * c1, m->v + 3 * a, e1);
    sub3(m->v + 3 * c2, m->v + 3 * a, e2);
    vxg_cross(e1, e2, n);
    if (!(norm3(n) > amin)) {
      m->info.ndegenerate++;
      continue;
    }
    m->tri[3 * nt] = a;
    m->tri[3 * nt + 1] = c1;
    m->tri[3 * nt + 2] = c2;
    b->src[nt++] = (int)t;
  }
  m->ntri = nt;
  if (nt == 0) {
    return vxg_error_set(b->err, VXC_ERR_GEOMETRY, m->name, 0, 0,
                         "mesh has no triangles left after dropping %d degenerate ones",
                         m->info.ndegenerate);
  }
  return VXC_OK;
}


/* Step 3, second half: keeps the vertices the triangles use, in their order (map, of at least
 * m->nvert entries, is scratch), and fills the info's counts and bounding box. */
static void build_compact(vxg_mesh *m, int *map) {
  for (int i = 0; i < m->nvert; i++) {
    map[i] = 0;
  }
  for (int i = 0; i < 3 * m->ntri; i++) {
    map[m->tri[i]] = 1;
  }
  int k = 0;
  for (int i = 0; i < m->nvert; i++) {
    if (map[i]) {
      memmove(m->v + 3 * k, m->v + 3 * i, 3 * sizeof *m->v);
      map[i] = k++;
    }
  }
  for (int i = 0; i < 3 * m->ntri; i++) {
    m->tri[i] = map[m->tri[i]];
  }
  m->nvert = k;
  m->info.ntri = m->ntri;
  m->info.nvert = m->nvert;
  for (int a = 0; a < 3; a++) {
    m->info.aabb[a] = HUGE_VAL;
    m->info.aabb[3 + a] = -HUGE_VAL;
  }
  for (int i = 0; i < m->nvert; i++) {
    for (int a = 0; a < 3; a++) {
      m->info.aabb[a] = fmin(m->info.aabb[a], m->v[3 * i + a]);
      m->info.aabb[3 + a] = fmax(m->info.aabb[3 + a], m->v[3 * i + a]);
    }
  }
}


/* Steps 4-8's arrays. 0, or -1 when one could not be allocated. */
static int build_alloc_derived(build *b) {
  vxg_mesh *m = b->m;
  const vxc_allocator *al = m->al;
  size_t nh = 3 * (size_t)m->ntri;
  b->twin = vxg_alloc(al, nh * sizeof *b->twin);
  b->same = vxg_alloc(al, nh * sizeof *b->same);
  m->fn = vxg_alloc(al, nh * sizeof *m->fn);
  m->en = vxg_alloc(al, 3 * nh * sizeof *m->en);
  m->vn = vxg_alloc(al, 3 * (size_t)m->nvert * sizeof *m->vn);
  m->adj_off = vxg_alloc(al, ((size_t)m->nvert + 1) * sizeof *m->adj_off);
  m->adj = vxg_alloc(al, nh * sizeof *m->adj);
  m->pid = vxg_alloc(al, (size_t)m->ntri * sizeof *m->pid);
  return b->twin && b->same && m->fn && m->en && m->vn && m->adj_off && m->adj && m->pid ? 0 : -1;
}


/* Steps 1-8 up to the BVH once m is allocated and named; *map (the weld's, s->nv entries) is
 * freed here or, on failure, by the caller. VXC_ERR_NOMEM with the error not set, or as finish().
 */
static vxc_status build_steps(build *b, double scale, int **map) {
  vxg_mesh *m = b->m;
  double lo[3];
  vxc_status st = build_scale(b, scale, lo);
  if (st != VXC_OK) {
    return st;
  }
  *map = vxg_alloc(m->al, b->s->nv * sizeof **map);
  if (!*map || weld(b, lo, VXG_MESH_WELD_REL * m->size, *map) != 0) {
    return VXC_ERR_NOMEM;
  }
  if ((st = build_drop_degenerate(b, *map)) != VXC_OK) {
    return st;
  }
  build_compact(m, *map);
  vxg_free(m->al, *map);
  *map = NULL;
  if (build_alloc_derived(b) != 0) {
    return VXC_ERR_NOMEM;
  }
  return finish(b);
}


/* Refuses a mesh that intersects itself (mesh_selfx.c), naming two triangles that meet.
 * VXC_OK, or as vxg_mesh_selfx, or VXC_ERR_GEOMETRY (error set). */
static vxc_status build_selfx(build *b) {
  int ta, tb;
  vxc_status st = vxg_mesh_selfx(b->m, &ta, &tb, b->err);
  if (st != VXC_OK || ta < 0) {
    return st;
  }
  char wa[96], wb[96];
  int la, lb;
  int sa = b->src[ta] < b->src[tb] ? b->src[ta] : b->src[tb];
  tri_where(b, sa, &la, wa, sizeof wa);
  tri_where(b, sa == b->src[ta] ? b->src[tb] : b->src[ta], &lb, wb, sizeof wb);
  return vxg_error_set(b->err, VXC_ERR_GEOMETRY, b->s->name, la, la > 0 ? 1 : 0,
                       "mesh intersects itself: %s meets %s (overlapping shells, or a surface "
                       "passing through another)",
                       wa, wb);
}


vxc_status vxg_mesh_build(vxg_soup *s, double scale, vxg_mesh **out, vxc_error *err) {
  const char *name = s->name ? s->name : "";
  if (!(scale > 0) || !isfinite(scale)) {
    return vxg_error_set(err, VXC_ERR_ARG, name, 0, 0, "mesh scale must be positive (got %g)",
                         scale);
  }
  if (s->nt == 0) {
    return vxg_error_set(err, VXC_ERR_GEOMETRY, name, 0, 0, "mesh has no triangles");
  }
  const vxc_allocator *al = s->al;
  vxg_mesh *m = vxg_alloc(al, sizeof *m);
  if (!m) {
    return vxg_error_set(err, VXC_ERR_NOMEM, name, 0, 0, "out of memory");
  }
  memset(m, 0, sizeof *m);
  m->al = al;
  m->refs = 1;
  m->info.format = s->format ? s->format : "arrays";
  m->info.gzip = s->gzip;
  build b = {s, m, err, NULL, NULL, NULL};
  int *map = NULL;
  vxc_status st = VXC_ERR_NOMEM;
  m->name = vxg_strdup(al, name);
  if (m->name) {
    st = build_steps(&b, scale, &map);
  }
  if (st == VXC_OK) {
    st = build_selfx(&b);
  }
  if (st == VXC_ERR_NOMEM) {
    st = vxg_error_set(err, VXC_ERR_NOMEM, name, 0, 0, "out of memory");
  } else if (st == VXC_OK) {
    st = vxg_mesh_bvh_build(m, err);
  }
  if (st == VXC_OK) {
    st = vxg_mesh_tree_build(m, err);
  }
  vxg_free(al, map);
  vxg_free(al, b.src);
  vxg_free(al, b.twin);
  vxg_free(al, b.same);
  if (st != VXC_OK) {
    mesh_release(m);
    return st;
  }
  *out = m;
  return VXC_OK;
}


/* ---------------------------------------------------------------------------------------
 * Public entry points */

vxc_status vxg_mesh_parse(const vxc_allocator *al, const void *buf, size_t len, const char *name,
                          double scale, vxg_mesh **out, vxc_error *err) {
  vxc_error local;
  if (!err) {
    err = &local;
  }
  if ((!buf && len > 0) || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxg_mesh_parse: buf and out must not be NULL");
  }
  vxg_soup s;
  memset(&s, 0, sizeof s);
  s.al = al;
  s.name = name ? name : "";
  err->status = VXC_OK;
  vxc_status st = vxg_mesh_io_parse(&s, buf, len, err);
  if (st == VXC_OK) {
    st = vxg_mesh_build(&s, scale, out, err);
  }
  vxg_soup_free(&s);
  return st;
}


vxc_status vxg_mesh_load(const vxc_allocator *al, const char *path, double scale, vxg_mesh **out,
                         vxc_error *err) {
  if (!path || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxg_mesh_load: path and out must not be NULL");
  }
  char *buf = NULL;
  size_t n = 0;
  vxc_status st = vxg_read_file(al, path, VXG_MESH_MAX_INPUT, "mesh file", &buf, &n, err);
  if (st == VXC_OK) {
    st = vxg_mesh_parse(al, (const unsigned char *)buf, n, path, scale, out, err);
    vxg_free(al, buf);
  }
  return st;
}


vxc_status vxg_mesh_create(const vxc_allocator *al, const double *v, int nv, const int *tri, int nt,
                           double scale, const char *name, vxg_mesh **out, vxc_error *err) {
  if (!out || nv < 0 || nt < 0 || (nv > 0 && !v) || (nt > 0 && !tri)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxg_mesh_create: bad arguments");
  }
  if (nv > VXG_MESH_MAX_COUNT || nt > VXG_MESH_MAX_COUNT) {
    return vxg_error_set(err, VXC_ERR_LIMIT, name, 0, 0,
                         "mesh has %d vertices and %d triangles, more than %d of either", nv, nt,
                         VXG_MESH_MAX_COUNT);
  }
  vxg_soup s;
  memset(&s, 0, sizeof s);
  s.al = al;
  s.name = name ? name : "mesh";
  s.format = "arrays";
  vxc_status st = VXC_OK;
  for (int i = 0; i < nv && st == VXC_OK; i++) {
    const double *p = v + 3 * (size_t)i;
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
      st = vxg_error_set(err, VXC_ERR_ARG, s.name, 0, 0, "vertex %d is not finite", i);
    } else if (vxg_soup_vertex(&s, p[0], p[1], p[2]) != 0) {
      st = vxg_error_set(err, VXC_ERR_NOMEM, s.name, 0, 0, "out of memory");
    }
  }
  for (int t = 0; t < nt && st == VXC_OK; t++) {
    const int *q = tri + 3 * (size_t)t;
    if (q[0] < 0 || q[0] >= nv || q[1] < 0 || q[1] >= nv || q[2] < 0 || q[2] >= nv) {
      st = vxg_error_set(err, VXC_ERR_ARG, s.name, 0, 0,
                         "triangle %d has a vertex index out of range", t);
    } else if (vxg_soup_tri(&s, q[0], q[1], q[2], t) != 0) {
      st = vxg_error_set(err, VXC_ERR_NOMEM, s.name, 0, 0, "out of memory");
    }
  }
  if (st == VXC_OK) {
    vxg_free(al, s.pos); /* triangles are named by index */
    s.pos = NULL;
    st = vxg_mesh_build(&s, scale, out, err);
  }
  vxg_soup_free(&s);
  return st;
}


void vxg_mesh_free(vxg_mesh *m) {
  if (m && --m->refs > 0) {
    return;
  }
  mesh_release(m);
}


vxg_mesh *vxg_mesh_share(vxg_mesh *m) {
  m->refs++;
  return m;
}


unsigned long long vxg_mesh_serial(const vxg_mesh *m) {
  return m->serial;
}


void vxg_mesh_get_info(const vxg_mesh *m, vxg_mesh_info *info) {
  *info = m->info;
}


const double *vxg_mesh_vertices(const vxg_mesh *m, int *nvert) {
  if (nvert) {
    *nvert = m->nvert;
  }
  return m->v;
}


void vxg_mesh_adjacency(const vxg_mesh *m, const int **off, const int **adj) {
  *off = m->adj_off;
  *adj = m->adj;
}


int vxg_mesh_contains(const vxg_mesh *m, const double p[3]) {
  if (!m->info.convex || m->ntri > VXG_MESH_SCAN_TRIS) {
    return vxg_mesh_distance(m, p, NULL, NULL) <= 0;
  }
  for (int t = 0; t < m->ntri; t++) {
    const double *a = m->v + 3 * m->tri[3 * t], *n = m->fn + 3 * t;
    if (n[0] * (p[0] - a[0]) + n[1] * (p[1] - a[1]) + n[2] * (p[2] - a[2]) > 0) {
      return 0; /* beyond a face's plane */
    }
  }
  return 1;
}


double vxg_mesh_distance(const vxg_mesh *m, const double p[3], double grad[3], double closest[3]) {
  return vxg_mesh_distance_bounded(m, p, HUGE_VAL, grad, closest);
}


double vxg_mesh_distance_bounded(const vxg_mesh *m, const double p[3], double bound, double grad[3],
                                 double closest[3]) {
  double cp[3], d[3];
  int t = 0, feat = 0;
  double d2 = vxg_mesh_bvh_closest(m, p, bound, cp, &t, &feat);
  const double *n;
  if (feat == 0) {
    n = m->fn + 3 * t;
  } else if (feat <= 3) {
    n = m->vn + 3 * m->tri[3 * t + feat - 1];
  } else {
    n = m->en + 9 * t + 3 * (feat - 4);
  }
  sub3(p, cp, d);
  double dist = sqrt(d2);
  double sign = vxg_dot(d, n) < 0 ? -1.0 : 1.0;
  if (grad) {
    if (dist > 1e-12 * m->size) {
      for (int i = 0; i < 3; i++) {
        grad[i] = sign * d[i] / dist;
      }
    } else {
      double ln = norm3(n);
      for (int i = 0; i < 3; i++) {
        grad[i] = ln > 0 ? n[i] / ln : 0;
      }
    }
  }
  if (closest) {
    memcpy(closest, cp, sizeof cp);
  }
  return sign * dist;
}


int vxg_mesh_classify_ball(const vxg_mesh *m, const double p[3], double r) {
  return vxg_mesh_classify_ball_dist(m, p, r, HUGE_VAL, NULL, NULL, NULL);
}


int vxg_mesh_classify_ball_dist(const vxg_mesh *m, const double p[3], double r, double bound,
                                double *dist, double grad[3], double *upper) {
  double d = NAN;
  if (dist) {
    *dist = NAN;
  }
  if (upper) {
    *upper = HUGE_VAL;
  }
  if (vxg_mesh_bvh_near(m, p, r)) {
    /* a triangle within r (the first one met): undecided, the distance within r */
    if (upper) {
      *upper = r;
    }
    return 0;
  }
  if (bound <= SEARCH_TRIS * m->tri_size) {
    /* a search within a bound of a few triangles decides the ball and gives the distance */
    d = vxg_mesh_distance_bounded(m, p, bound, grad, NULL);
    if (dist) {
      *dist = d;
    }
    if (upper) {
      *upper = fabs(d);
    }
    return d > r ? 1 : (d < -r ? -1 : 0);
  }
  /* nothing within r: the whole ball is on p's side; ray parity gives it cheaply (an exact
   * distance query from deep inside visits every triangle at nearly the same distance) */
  int in = vxg_mesh_bvh_parity(m, p);
  if (in < 0) {
    d = vxg_mesh_distance_bounded(m, p, bound, NULL, NULL);
    return fabs(d) > r ? (d < 0 ? -1 : 1) : 0;
  }
  return in ? -1 : 1;
}


/* Sorts the n distinct ids (a few dozen at most) in place: Shell's sort, gaps 13, 4, 1
 * (fewer moves than plain insertion on the BVH's order). */
static void sort_ids(int *id, int n) {
  static const int gaps[3] = {13, 4, 1};
  for (int g = 0; g < 3; g++) {
    int h = gaps[g];
    for (int i = h; i < n; i++) {
      int t = id[i], j = i;
      for (; j >= h && id[j - h] > t; j -= h) {
        id[j] = id[j - h];
      }
      id[j] = t;
    }
  }
}


int vxg_mesh_planes(const vxg_mesh *m, const double p[3], double r, const double *box, int max,
                    double *planes) {
  int pid[VXG_MESH_PLANES_MAX];
  if (max < 1 || max > VXG_MESH_PLANES_MAX) {
    return -1;
  }
  int n = vxg_mesh_bvh_collect(m, p, r, box, max, 0, pid);
  if (n <= 0) {
    return -1;
  }
  sort_ids(pid, n); /* an order independent of the BVH's */
  for (int i = 0; i < n; i++) {
    const double *fn = m->fn + 3 * pid[i];
    memcpy(planes + 4 * i, fn, 3 * sizeof *planes);
    planes[4 * i + 3] = vxg_dot(fn, m->v + 3 * m->tri[3 * pid[i]]);
  }
  return n;
}


void vxg_first_same(const int *key, int n, int *first) {
  enum { SLOTS = 1024 }; /* at least twice VXG_FIRST_SAME_MAX, a power of two */
  int kk[SLOTS], val[SLOTS], bits = 4;
  while ((1 << bits) < 2 * n && bits < 10) {
    bits++; /* a table of at least twice n slots: few keys clear few */
  }
  unsigned mask = (1u << bits) - 1;
  memset(kk, 0xff, ((size_t)mask + 1) * sizeof *kk);
  for (int c = 0; c < n; c++) {
    unsigned h = ((unsigned)key[c] * 2654435761u) >> (32 - bits);
    while (kk[h] >= 0 && kk[h] != key[c]) {
      h = (h + 1) & mask;
    }
    if (kk[h] < 0) {
      kk[h] = key[c];
      val[h] = c;
    }
    first[c] = val[h];
  }
}


int vxg_mesh_triangles(const vxg_mesh *m, const double p[3], double r, int max, double *tri,
                       double *plane, int *group, int *first) {
  int tid[VXG_MESH_TRIS_MAX], vid[3 * VXG_MESH_TRIS_MAX];
  if (max < 1 || max > VXG_MESH_TRIS_MAX) {
    return -1;
  }
  int n = vxg_mesh_bvh_collect(m, p, r, NULL, max, 1, tid);
  sort_ids(tid, n); /* an order independent of the BVH's */
  for (int i = 0; i < n; i++) {
    const int *t = m->tri + 3 * tid[i];
    const double *fn = m->fn + 3 * m->pid[tid[i]];
    for (int k = 0; k < 3; k++) {
      memcpy(tri + 9 * i + 3 * k, m->v + 3 * t[k], 3 * sizeof *tri);
      vid[3 * i + k] = t[k];
    }
    memcpy(plane + 4 * i, fn, 3 * sizeof *plane);
    plane[4 * i + 3] = vxg_dot(fn, m->v + 3 * m->tri[3 * m->pid[tid[i]]]);
    group[i] = m->pid[tid[i]];
  }
  if (first && n > 0) {
    vxg_first_same(vid, 3 * n, first);
  }
  return n;
}
