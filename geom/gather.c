/* gather.c: a mesh's triangles near a ball, read by a canonical ball, and a cache of them.
 *
 * A gather about p of radius r (an octree leaf's ball, in the mesh's frame) reads the
 * triangles of a ball that depends on p and r only through a few integers: its radius R the
 * least of the ladder 2^(k/16) m with R (1 - sqrt(3) / 64) >= r, its centre the point of the
 * lattice of spacing q = R / 32 nearest p, at most sqrt(3) q / 2 = sqrt(3) R / 64 from p, so
 * that it holds the ball (p, r). Leaves of about one size within about q of one another, in
 * one query or in the next ones (a body moved by a few micrometres), read the same ball:
 * a cache keyed by (mesh, k, lattice point) holds its triangles, and a hit gives the very
 * figures a miss would compute, so no result depends on the cache's history or on which
 * thread read a ball first. The canonical ball is at most about 9 % wider than the leaf's. */
#include <math.h>
#include <string.h>

#include "geom/mesh.h"

/* Steps of the radii's ladder per doubling, and the lattice's spacing in radii. */
#define LADDER 16
#define LATTICE 32

/* Slots a ball may sit in (the cache's nslot is a multiple). */
#define WAYS 4

/* Lattice coordinates beyond this are not taken (their products would not be exact). */
#define KEY_MAX 4.0e15


int vxg_gather_ball(const double p[3], double r, double cp[3], double *cr, long long key[4]) {
  if (!(r > 0) || !isfinite(r) || !(r < 1e300)) {
    return -1;
  }
  /* room for the lattice's rounding of the centre, half a spacing per axis */
  double need = r / (1 - sqrt(3.0) / (2 * LATTICE));
  int k = (int)ceil(LADDER * log2(need));
  for (int tries = 0; tries < 4; tries++, k++) {
    double R = exp2((double)k / LADDER), q = R / LATTICE, d2 = 0;
    for (int i = 0; i < 3; i++) {
      double n = nearbyint(p[i] / q);
      if (!(fabs(n) < KEY_MAX)) {
        return -1;
      }
      key[1 + i] = (long long)n;
      cp[i] = n * q;
      d2 += (p[i] - cp[i]) * (p[i] - cp[i]);
    }
    /* the ball (p, r) within (cp, R), with room for the rounding of this test */
    if (sqrt(d2) + r <= R * (1 - 1e-12)) {
      key[0] = k;
      *cr = R;
      return 0;
    }
  }
  return -1;
}


/* splitmix64's finaliser: every bit of x moves about half of the result's. */
static unsigned long long mix(unsigned long long x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}


/* The WAYS slots that may hold key in the cache: the first of them. */
static vxg_gather_slot *set_of(vxg_gather_cache *c, unsigned long long mesh, const long long key[4]) {
  unsigned long long h = mix(mesh);
  for (int i = 0; i < 4; i++) {
    h = mix(h + (unsigned long long)key[i]);
  }
  return &c->slot[WAYS * (h & (unsigned long long)(c->nslot / WAYS - 1))];
}


/* 1 when slot s holds the ball key of mesh for max. */
static int holds(const vxg_gather_slot *s, unsigned long long mesh, const long long key[4], int max) {
  return s->mesh == mesh && s->max == max && !memcmp(s->key, key, sizeof s->key);
}


/* Two doubles (two vertices) at a time: shape_reach's test of every vertex against every
 * plane (GCC's vector extension: SSE2, NEON). */
typedef double vxg_d2 __attribute__((vector_size(16)));

/* How far the n triangles tri (first as vxg_mesh_triangles gives it) stray from the planes
 * plane[4 j ..] of the groups' first triangles (gfirst[j] == j): reach[0] the largest
 * n . v - d of a vertex v beyond a plane, reach[1] the largest d - n . v (-HUGE_VAL: no
 * triangle). The triangles are convex within tol when reach[0] <= tol, concave when
 * reach[1] <= tol (vxg_atom_triangles's shape). Once both exceed cap the planes left are
 * not tested: the two are then some values above cap (neither shape within cap). */
static void shape_reach(const double *tri, const int *first, int n, const double *plane,
                        const int *gfirst, double cap, double reach[2]) {
  enum { PAIRS = 3 * VXG_MESH_TRIS_MAX / 2 + 1 };
  vxg_d2 vx[PAIRS], vy[PAIRS], vz[PAIRS];
  int nv = 0;
  for (int c = 0; c < 3 * n; c++) {
    if (first[c] == c) { /* each vertex once, coordinates apart, in pairs */
      vx[nv / 2][nv % 2] = tri[3 * c];
      vy[nv / 2][nv % 2] = tri[3 * c + 1];
      vz[nv / 2][nv % 2] = tri[3 * c + 2];
      nv++;
    }
  }
  if (nv % 2) { /* the last vertex twice */
    vx[nv / 2][1] = vx[nv / 2][0];
    vy[nv / 2][1] = vy[nv / 2][0];
    vz[nv / 2][1] = vz[nv / 2][0];
  }
  double hi[2] = {-HUGE_VAL, -HUGE_VAL}, lo[2] = {HUGE_VAL, HUGE_VAL};
  for (int j = 0; j < n; j++) {
    if (gfirst[j] != j) {
      continue; /* its group's plane, tested already */
    }
    const double *q = plane + 4 * j;
    const vxg_d2 a = {q[0], q[0]}, b = {q[1], q[1]}, c = {q[2], q[2]}, d = {q[3], q[3]};
    for (int v = 0; v < (nv + 1) / 2; v++) {
      vxg_d2 sv = a * vx[v] + b * vy[v] + c * vz[v] - d;
      for (int k = 0; k < 2; k++) {
        hi[k] = sv[k] > hi[k] ? sv[k] : hi[k];
        lo[k] = sv[k] < lo[k] ? sv[k] : lo[k];
      }
    }
    if ((hi[0] > cap || hi[1] > cap) && (lo[0] < -cap || lo[1] < -cap)) {
      break; /* general within cap: the rest changes no shape */
    }
  }
  reach[0] = hi[0] > hi[1] ? hi[0] : hi[1];
  reach[1] = -(lo[0] < lo[1] ? lo[0] : lo[1]);
}


/* Copies n triangles' figures from src to the caller's arrays. */
static void copy_out(const vxg_gather_slot *s, double *tri, double *plane, int *group, int *first,
                     int *gfirst) {
  size_t n = (size_t)s->n;
  memcpy(tri, s->tri, 9 * n * sizeof *tri);
  memcpy(plane, s->plane, 4 * n * sizeof *plane);
  memcpy(group, s->group, n * sizeof *group);
  memcpy(first, s->first, 3 * n * sizeof *first);
  memcpy(gfirst, s->gfirst, n * sizeof *gfirst);
}


/* vxg_mesh_triangles of the ball (p, r) with gfirst and their reach (shape_reach). */
static int read_ball(const vxg_mesh *m, const double p[3], double r, int max, double *tri,
                     double *plane, int *group, int *first, int *gfirst, double reach[2]) {
  int n = vxg_mesh_triangles(m, p, r, max, tri, plane, group, first);
  if (n > 0) {
    vxg_first_same(group, n, gfirst);
  }
  shape_reach(tri, first, n > 0 ? n : 0, plane, gfirst, VXG_REACH_CAP * r, reach);
  return n;
}


int vxg_mesh_gather(const vxg_mesh *m, const double p[3], double r, int max,
                    vxg_gather_cache *cache, double *tri, double *plane, int *group, int *first,
                    int *gfirst, double reach[2]) {
  double cp[3], cr;
  long long key[4];
  if (!cache || vxg_gather_ball(p, r, cp, &cr, key) != 0) {
    return read_ball(m, p, r, max, tri, plane, group, first, gfirst, reach);
  }
  if (cache->nslot < WAYS || max < 1 || max > VXG_MESH_TRIS_MAX) {
    return read_ball(m, cp, cr, max, tri, plane, group, first, gfirst, reach);
  }
  vxg_gather_slot *set = set_of(cache, m->serial, key), *s = NULL;
  for (int w = 0; w < WAYS && !s; w++) {
    s = holds(&set[w], m->serial, key, max) ? &set[w] : NULL;
  }
  if (s) {
    cache->hits++;
    s->used = ++cache->clock;
  } else {
    cache->misses++;
    s = set; /* the one read least recently */
    for (int w = 1; w < WAYS; w++) {
      s = set[w].used < s->used ? &set[w] : s;
    }
    s->used = ++cache->clock;
    s->mesh = 0; /* empty until filled */
    s->n = read_ball(m, cp, cr, max, s->tri, s->plane, s->group, s->first, s->gfirst, s->reach);
    s->max = max;
    memcpy(s->key, key, sizeof s->key);
    s->mesh = m->serial;
  }
  if (s->n > 0) {
    copy_out(s, tri, plane, group, first, gfirst);
  }
  reach[0] = s->reach[0];
  reach[1] = s->reach[1];
  return s->n;
}
