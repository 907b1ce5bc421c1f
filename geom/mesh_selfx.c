/* mesh_selfx.c: does a mesh intersect itself? Two triangles that are not neighbours and
 * meet, or two neighbours that meet beyond what they share, make a surface that bounds no
 * single solid (two overlapping cubes in one file: the signed distance and the volume then
 * disagree about the overlap), and the mesh is refused.
 *
 * Broad phase: Embree's rtcCollide on a scene of user primitives, one per triangle, with
 * float boxes rounded outward from the double vertices (so no touching pair is missed); its
 * own device ("threads=1"), made and released here. Narrow phase, in double precision with
 * exact orientation predicates (orient.h), on closed triangles:
 *  - no shared vertex: they meet when an edge of one meets the other (not coplanar), or, in
 *    a common plane, when edges cross or a corner of one lies in the other;
 *  - one shared vertex p, (p a b) and (p c d): not coplanar, they meet beyond p exactly when
 *    the segment a b meets (p c d) or c d meets (p a b) (their intersection is a segment
 *    from p along the planes' line, ending on one of those far edges); coplanar, when the
 *    angular wedges at p overlap (a corner ray of one lies in the other's wedge);
 *  - a shared edge a b, (a b c) and (b a d): only when coplanar with c and d on the same
 *    side of a b (a fold of zero angle).
 * The reported pair is the one whose lower triangle index is smallest (then the other), so
 * the message does not depend on the broad phase's order. Embree's flush-to-zero mode is
 * set only around Embree's own work: the exact tests run in the caller's mode. */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include <embree3/rtcore.h>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#include "geom/mesh.h"
#include "geom/orient.h"

typedef struct selfx {
  const vxg_mesh *m;
  unsigned int mxcsr; /* the caller's mode, for the exact tests */
  pthread_mutex_t mu; /* the broad phase may call back from several threads */
  int ta, tb;         /* the pair found, ta < tb; -1: none */
} selfx;

static void bounds_fn(const struct RTCBoundsFunctionArguments *args) {
  vxg_mesh_tri_bounds(((const selfx *)args->geometryUserPtr)->m, (int)args->primID, 0,
                      args->bounds_o);
}


/* ---------------------------------------------------------------------------------------
 * Exact tests on closed triangles */

/* The two axes kept when triangle (a, b, c) is projected along its normal's largest
 * component (the projection of a proper triangle then has non-zero area). */
static void plane_axes(const double *a, const double *b, const double *c, int *i, int *j) {
  double e1[3], e2[3], n[3];
  for (int k = 0; k < 3; k++) {
    e1[k] = b[k] - a[k];
    e2[k] = c[k] - a[k];
  }
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  int k = fabs(n[0]) >= fabs(n[1]) ? (fabs(n[0]) >= fabs(n[2]) ? 0 : 2)
                                   : (fabs(n[1]) >= fabs(n[2]) ? 1 : 2);
  *i = (k + 1) % 3;
  *j = (k + 2) % 3;
}


/* r on the closed segment p q, given that the three are collinear (2D). */
static int on_segment(const double *p, const double *q, const double *r, int i, int j) {
  return fmin(p[i], q[i]) <= r[i] && r[i] <= fmax(p[i], q[i]) && fmin(p[j], q[j]) <= r[j] &&
         r[j] <= fmax(p[j], q[j]);
}


/* Closed segments p q and r s meet (2D). */
static int seg_seg_2d(const double *p, const double *q, const double *r, const double *s, int i,
                      int j) {
  int d1 = vxg_orient2d(p, q, r, i, j), d2 = vxg_orient2d(p, q, s, i, j);
  int d3 = vxg_orient2d(r, s, p, i, j), d4 = vxg_orient2d(r, s, q, i, j);
  if (d1 * d2 < 0 && d3 * d4 < 0) {
    return 1;
  }
  return (d1 == 0 && on_segment(p, q, r, i, j)) || (d2 == 0 && on_segment(p, q, s, i, j)) ||
         (d3 == 0 && on_segment(r, s, p, i, j)) || (d4 == 0 && on_segment(r, s, q, i, j));
}


/* p in the closed triangle (a, b, c) (2D). */
static int in_tri_2d(const double *p, const double *a, const double *b, const double *c, int i,
                     int j) {
  int o = vxg_orient2d(a, b, c, i, j);
  return o != 0 && vxg_orient2d(a, b, p, i, j) * o >= 0 && vxg_orient2d(b, c, p, i, j) * o >= 0 &&
         vxg_orient2d(c, a, p, i, j) * o >= 0;
}


/* Closed segment p q meets closed triangle t[0..2] in their common plane. */
static int seg_tri_2d(const double *p, const double *q, const double *const t[3], int i, int j) {
  if (in_tri_2d(p, t[0], t[1], t[2], i, j) || in_tri_2d(q, t[0], t[1], t[2], i, j)) {
    return 1;
  }
  for (int k = 0; k < 3; k++) {
    if (seg_seg_2d(p, q, t[k], t[(k + 1) % 3], i, j)) {
      return 1;
    }
  }
  return 0;
}


/* Closed segment p q meets closed triangle t[0..2] (3D). */
static int seg_tri(const double *p, const double *q, const double *const t[3]) {
  int s1 = vxg_orient3d(t[0], t[1], t[2], p), s2 = vxg_orient3d(t[0], t[1], t[2], q);
  if (s1 * s2 > 0) {
    return 0;
  }
  if (s1 == 0 && s2 == 0) {
    int i, j;
    plane_axes(t[0], t[1], t[2], &i, &j);
    return seg_tri_2d(p, q, t, i, j);
  }
  /* the segment reaches the plane: does its line pass through the triangle? */
  int pos = 0, neg = 0;
  for (int k = 0; k < 3; k++) {
    int o = vxg_orient3d(p, q, t[k], t[(k + 1) % 3]);
    pos |= o > 0;
    neg |= o < 0;
  }
  return !(pos && neg);
}


/* Triangles u and w with no shared vertex meet. */
static int tri_tri(const double *const u[3], const double *const w[3]) {
  int su[3], sw[3];
  for (int k = 0; k < 3; k++) {
    sw[k] = vxg_orient3d(u[0], u[1], u[2], w[k]);
    su[k] = vxg_orient3d(w[0], w[1], w[2], u[k]);
  }
  if ((sw[0] == sw[1] && sw[1] == sw[2] && sw[0] != 0) ||
      (su[0] == su[1] && su[1] == su[2] && su[0] != 0)) {
    return 0; /* one lies strictly on one side of the other's plane */
  }
  if (sw[0] == 0 && sw[1] == 0 && sw[2] == 0) {
    int i, j;
    plane_axes(u[0], u[1], u[2], &i, &j);
    for (int k = 0; k < 3; k++) {
      if (seg_tri_2d(u[k], u[(k + 1) % 3], w, i, j) || in_tri_2d(w[k], u[0], u[1], u[2], i, j)) {
        return 1;
      }
    }
    return 0;
  }
  for (int k = 0; k < 3; k++) {
    if (seg_tri(u[k], u[(k + 1) % 3], w) || seg_tri(w[k], w[(k + 1) % 3], u)) {
      return 1;
    }
  }
  return 0;
}


/* x (not p) lies in the closed wedge at p spanned by c and d (2D, coplanar). */
static int in_wedge(const double *p, const double *c, const double *d, const double *x, int i,
                    int j) {
  return vxg_orient2d(p, c, x, i, j) * vxg_orient2d(p, c, d, i, j) >= 0 &&
         vxg_orient2d(p, d, x, i, j) * vxg_orient2d(p, d, c, i, j) >= 0;
}


/* (p a b) and (p c d), sharing only p, meet elsewhere. */
static int share_vertex(const double *p, const double *a, const double *b, const double *c,
                        const double *d) {
  if (vxg_orient3d(p, a, b, c) == 0 && vxg_orient3d(p, a, b, d) == 0) {
    int i, j;
    plane_axes(p, a, b, &i, &j);
    return in_wedge(p, c, d, a, i, j) || in_wedge(p, c, d, b, i, j) ||
           in_wedge(p, a, b, c, i, j) || in_wedge(p, a, b, d, i, j);
  }
  const double *u[3] = {p, a, b}, *w[3] = {p, c, d};
  return seg_tri(a, b, w) || seg_tri(c, d, u);
}


/* (a b c) and (a b d), sharing the edge a b, fold onto each other. */
static int share_edge(const double *a, const double *b, const double *c, const double *d) {
  if (vxg_orient3d(a, b, c, d) != 0) {
    return 0;
  }
  int i, j;
  plane_axes(a, b, c, &i, &j);
  return vxg_orient2d(a, b, c, i, j) * vxg_orient2d(a, b, d, i, j) > 0;
}


int vxg_mesh_tris_meet(const vxg_mesh *m, int ta, int tb) {
  const int *x = m->tri + 3 * (size_t)ta, *y = m->tri + 3 * (size_t)tb;
  int sx[3], sy[3], n = 0; /* positions of the shared vertices in x and y */
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      if (x[i] == y[j]) {
        sx[n] = i;
        sy[n++] = j;
      }
    }
  }
  const double *v = m->v;
#define P(t, k) (v + 3 * (size_t)(t)[(k) % 3])
  if (n == 0) {
    const double *u[3] = {P(x, 0), P(x, 1), P(x, 2)}, *w[3] = {P(y, 0), P(y, 1), P(y, 2)};
    return tri_tri(u, w);
  }
  if (n == 1) {
    return share_vertex(P(x, sx[0]), P(x, sx[0] + 1), P(x, sx[0] + 2), P(y, sy[0] + 1),
                        P(y, sy[0] + 2));
  }
  if (n == 2) {
    return share_edge(P(x, sx[0]), P(x, sx[1]), P(x, 3 - sx[0] - sx[1]),
                      P(y, 3 - sy[0] - sy[1]));
  }
#undef P
  return 1; /* the same three vertices twice */
}


/* ---------------------------------------------------------------------------------------
 * Broad phase */

static void collide_fn(void *user, struct RTCCollision *c, unsigned int n) {
  selfx *sx = user;
#ifdef HAVE_MXCSR
  unsigned int embree_mode = _mm_getcsr();
  _mm_setcsr(sx->mxcsr);
#endif
  for (unsigned int k = 0; k < n; k++) {
    int a = (int)c[k].primID0, b = (int)c[k].primID1;
    if (a == b) {
      continue;
    }
    if (a > b) {
      int t = a;
      a = b;
      b = t;
    }
    if (vxg_mesh_tris_meet(sx->m, a, b)) {
      pthread_mutex_lock(&sx->mu);
      if (sx->ta < 0 || a < sx->ta || (a == sx->ta && b < sx->tb)) {
        sx->ta = a;
        sx->tb = b;
      }
      pthread_mutex_unlock(&sx->mu);
    }
  }
#ifdef HAVE_MXCSR
  _mm_setcsr(embree_mode);
#endif
}


vxc_status vxg_mesh_selfx(const vxg_mesh *m, int *ta, int *tb, vxc_error *err) {
  selfx sx;
  sx.m = m;
  sx.ta = sx.tb = -1;
  if (pthread_mutex_init(&sx.mu, NULL) != 0) {
    return vxg_error_set(err, VXC_ERR_NOMEM, m->name, 0, 0, "out of memory");
  }
#ifdef HAVE_MXCSR
  sx.mxcsr = _mm_getcsr();
  _mm_setcsr(sx.mxcsr | 0x8040u); /* flush-to-zero and denormals-are-zero, for Embree */
#endif
  RTCDevice dev = rtcNewDevice("threads=1,set_affinity=0");
  RTCScene scene = dev ? rtcNewScene(dev) : NULL;
  RTCGeometry g = scene ? rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_USER) : NULL;
  enum RTCError e = RTC_ERROR_UNKNOWN;
  if (g) {
    rtcSetGeometryUserPrimitiveCount(g, (unsigned int)m->ntri);
    rtcSetGeometryUserData(g, &sx);
    rtcSetGeometryBoundsFunction(g, bounds_fn, NULL);
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(scene);
    e = rtcGetDeviceError(dev);
    if (e == RTC_ERROR_NONE) {
      rtcCollide(scene, scene, collide_fn, &sx);
      e = rtcGetDeviceError(dev);
    }
  }
  if (scene) {
    rtcReleaseScene(scene);
  }
  if (dev) {
    rtcReleaseDevice(dev);
  }
#ifdef HAVE_MXCSR
  _mm_setcsr(sx.mxcsr);
#endif
  pthread_mutex_destroy(&sx.mu);
  if (e == RTC_ERROR_OUT_OF_MEMORY) {
    return vxg_error_set(err, VXC_ERR_NOMEM, m->name, 0, 0, "out of memory (Embree)");
  }
  if (e != RTC_ERROR_NONE) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, m->name, 0, 0,
                         "Embree failed to find intersecting triangles (error %d)", (int)e);
  }
  *ta = sx.ta;
  *tb = sx.tb;
  return VXC_OK;
}
