/* mesh_embree.c: the only file that includes Embree: one device and one scene per mesh, and
 * the closest-point query.
 *
 * Data: a bvh (below) owns an RTCDevice created with "threads=1" (the BVH is built on the
 * caller's thread, so Embree never starts threads that would compete with the octree's
 * pool) and an RTCScene holding one user geometry whose primitives are the mesh's
 * triangles. User primitives, rather than Embree's float triangles, let the bounds be
 * rounded outward from the double-precision vertices: the BVH then never culls a triangle
 * that is closer in double precision than the current best. The query point and radius are
 * floats too, so the radius handed back to Embree is the best distance plus a rounding
 * allowance of the point's coordinates, rounded up. The closest point itself is computed
 * in double by vxg_tri_closest.
 *
 * Invariants: the scene is committed once and only read afterwards (rtcPointQuery is
 * thread-safe on a committed scene). Embree's flush-to-zero and denormals-are-zero modes
 * are set only around Embree calls and restored after, so the caller's floating-point
 * environment is unchanged. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <embree3/rtcore.h>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#include "geom/mesh.h"

typedef struct bvh {
  RTCDevice dev;
  RTCScene scene;
} bvh;

/* Flush-to-zero (bit 15) and denormals-are-zero (bit 6), as Embree recommends. */
static unsigned int ftz_enter(void) {
#ifdef HAVE_MXCSR
  unsigned int old = _mm_getcsr();
  _mm_setcsr(old | 0x8040u);
  return old;
#else
  return 0;
#endif
}


static void ftz_leave(unsigned int old) {
#ifdef HAVE_MXCSR
  _mm_setcsr(old);
#else
  (void)old;
#endif
}


static float down(double x) {
  float f = (float)x;
  return (double)f > x ? nextafterf(f, -INFINITY) : f;
}


static float up(double x) {
  float f = (float)x;
  return (double)f < x ? nextafterf(f, INFINITY) : f;
}


void vxg_mesh_tri_bounds(const vxg_mesh *m, int t, double pad_rel, struct RTCBounds *b) {
  const int *ti = m->tri + 3 * (size_t)t;
  float lo[3], hi[3];
  for (int a = 0; a < 3; a++) {
    double x0 = m->v[3 * ti[0] + a], x1 = m->v[3 * ti[1] + a], x2 = m->v[3 * ti[2] + a];
    double l = fmin(x0, fmin(x1, x2)), h = fmax(x0, fmax(x1, x2));
    double pad = pad_rel * (m->size + fabs(l) + fabs(h));
    lo[a] = down(l - pad);
    hi[a] = up(h + pad);
  }
  b->lower_x = lo[0];
  b->lower_y = lo[1];
  b->lower_z = lo[2];
  b->upper_x = hi[0];
  b->upper_y = hi[1];
  b->upper_z = hi[2];
}


static void bounds_fn(const struct RTCBoundsFunctionArguments *args) {
  /* padded by a little more than the float ray's rounding (ray parity), relative to the
   * mesh's size and reach */
  vxg_mesh_tri_bounds(args->geometryUserPtr, (int)args->primID, 1e-6, args->bounds_o);
}


/* Ray parity: the context is the first member of a ray_state; every crossing of the ray
 * (origin o, direction d, double precision) with a triangle's interior is counted, and no
 * hit is ever reported, so Embree visits every triangle whose box the ray meets. A crossing
 * too close to a triangle's edge or vertex, or a ray nearly in a triangle's plane, makes
 * the count ambiguous. */
typedef struct ray_state {
  struct RTCIntersectContext ctx;
  const vxg_mesh *m;
  double o[3], d[3];
  int count, ambiguous;
} ray_state;

static void intersect_fn(const struct RTCIntersectFunctionNArguments *args) {
  ray_state *rs = (ray_state *)args->context;
  const vxg_mesh *m = rs->m;
  const int *t = m->tri + 3 * (size_t)args->primID;
  const double *a = m->v + 3 * t[0], *b = m->v + 3 * t[1], *c = m->v + 3 * t[2];
  /* Moeller-Trumbore in double */
  double e1[3], e2[3], pv[3], tv[3], qv[3];
  for (int i = 0; i < 3; i++) {
    e1[i] = b[i] - a[i];
    e2[i] = c[i] - a[i];
    tv[i] = rs->o[i] - a[i];
  }
  pv[0] = rs->d[1] * e2[2] - rs->d[2] * e2[1];
  pv[1] = rs->d[2] * e2[0] - rs->d[0] * e2[2];
  pv[2] = rs->d[0] * e2[1] - rs->d[1] * e2[0];
  double det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
  double scale = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]) *
                 sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
  if (fabs(det) <= 1e-12 * scale) {
    /* parallel: it matters only when the ray runs in the plane, which is ambiguous anyway */
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    double h = fabs(n[0] * tv[0] + n[1] * tv[1] + n[2] * tv[2]);
    if (h <= 1e-9 * scale * m->size) {
      rs->ambiguous = 1;
    }
    return;
  }
  double inv = 1 / det;
  double u = (tv[0] * pv[0] + tv[1] * pv[1] + tv[2] * pv[2]) * inv;
  qv[0] = tv[1] * e1[2] - tv[2] * e1[1];
  qv[1] = tv[2] * e1[0] - tv[0] * e1[2];
  qv[2] = tv[0] * e1[1] - tv[1] * e1[0];
  double v = (rs->d[0] * qv[0] + rs->d[1] * qv[1] + rs->d[2] * qv[2]) * inv;
  double tt = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) * inv;
  const double eps = 1e-9;
  if (u < -eps || v < -eps || u + v > 1 + eps || tt < 0) {
    return;
  }
  if (u < eps || v < eps || u + v > 1 - eps) {
    rs->ambiguous = 1; /* on (or within rounding of) an edge or a vertex */
    return;
  }
  rs->count++;
}


static void occluded_fn(const struct RTCOccludedFunctionNArguments *args) {
  (void)args;
}


typedef struct query_state {
  const vxg_mesh *m;
  const double *p; /* the query point, double */
  double slack;    /* rounding allowance of the float query point */
  double d2;       /* best squared distance so far */
  double cp[3];
  int tri, feat;
} query_state;

static bool query_fn(struct RTCPointQueryFunctionArguments *args) {
  query_state *q = args->userPtr;
  const vxg_mesh *m = q->m;
  const int *t = m->tri + 3 * (size_t)args->primID;
  double cp[3];
  int feat;
  double d2 = vxg_tri_closest(q->p, m->v + 3 * t[0], m->v + 3 * t[1], m->v + 3 * t[2], cp, &feat);
  if (d2 < q->d2 || (d2 == q->d2 && (q->tri < 0 || (int)args->primID < q->tri))) {
    /* ties go to the lowest triangle: the answer does not depend on the traversal order */
    q->d2 = d2;
    memcpy(q->cp, cp, sizeof cp);
    q->tri = (int)args->primID;
    q->feat = feat;
    args->query->radius = up(sqrt(d2) * (1 + 1e-6) + q->slack);
    return true;
  }
  return false;
}


static vxc_status embree_fail(vxg_mesh *m, bvh *b, vxc_error *err, const char *what) {
  enum RTCError e = b->dev ? rtcGetDeviceError(b->dev) : RTC_ERROR_UNKNOWN;
  if (b->scene) {
    rtcReleaseScene(b->scene);
  }
  if (b->dev) {
    rtcReleaseDevice(b->dev);
  }
  vxg_free(m->al, b);
  m->bvh = NULL;
  if (e == RTC_ERROR_OUT_OF_MEMORY) {
    return vxg_error_set(err, VXC_ERR_NOMEM, m->name, 0, 0, "out of memory (Embree)");
  }
  return vxg_error_set(err, VXC_ERR_NUMERIC, m->name, 0, 0, "Embree failed to %s (error %d)", what,
                       (int)e);
}


vxc_status vxg_mesh_bvh_build(vxg_mesh *m, vxc_error *err) {
  bvh *b = vxg_alloc(m->al, sizeof *b);
  if (!b) {
    return vxg_error_set(err, VXC_ERR_NOMEM, m->name, 0, 0, "out of memory");
  }
  memset(b, 0, sizeof *b);
  m->bvh = b;
  unsigned int mx = ftz_enter();
  b->dev = rtcNewDevice("threads=1,set_affinity=0");
  if (!b->dev) {
    ftz_leave(mx);
    return embree_fail(m, b, err, "create a device");
  }
  b->scene = rtcNewScene(b->dev);
  RTCGeometry g = b->scene ? rtcNewGeometry(b->dev, RTC_GEOMETRY_TYPE_USER) : NULL;
  if (!g) {
    ftz_leave(mx);
    return embree_fail(m, b, err, "create the scene");
  }
  rtcSetSceneBuildQuality(b->scene, RTC_BUILD_QUALITY_HIGH);
  rtcSetGeometryUserPrimitiveCount(g, (unsigned int)m->ntri);
  rtcSetGeometryUserData(g, m);
  rtcSetGeometryBoundsFunction(g, bounds_fn, NULL);
  rtcSetGeometryIntersectFunction(g, intersect_fn);
  rtcSetGeometryOccludedFunction(g, occluded_fn);
  rtcCommitGeometry(g);
  rtcAttachGeometry(b->scene, g);
  rtcReleaseGeometry(g);
  rtcCommitScene(b->scene);
  enum RTCError e = rtcGetDeviceError(b->dev);
  ftz_leave(mx);
  if (e != RTC_ERROR_NONE) {
    return embree_fail(m, b, err, "build the scene");
  }
  return VXC_OK;
}


void vxg_mesh_bvh_free(vxg_mesh *m) {
  bvh *b = m->bvh;
  if (!b) {
    return;
  }
  if (b->scene) {
    rtcReleaseScene(b->scene);
  }
  if (b->dev) {
    rtcReleaseDevice(b->dev);
  }
  vxg_free(m->al, b);
  m->bvh = NULL;
}


double vxg_mesh_bvh_closest(const vxg_mesh *m, const double p[3], double bound, double cp[3],
                            int *tri, int *feat) {
  const bvh *b = m->bvh;
  query_state q;
  q.m = m;
  q.p = p;
  /* the float point is within half an ulp per coordinate of p */
  q.slack = (fabs(p[0]) + fabs(p[1]) + fabs(p[2])) * FLT_EPSILON + FLT_MIN;
  q.tri = 0;
  q.feat = 0;
  memcpy(q.cp, m->v, sizeof q.cp);
  /* Embree does not visit the nearest boxes first, so an unbounded query from a point near
   * the surface wanders over much of the mesh before its radius shrinks: search balls
   * growing fourfold from 1/1024 of the mesh's size (a miss costs little), then without
   * bound. With a caller's bound (widened for its rounding) the first ball is the bound
   * itself, which must hold the answer (the radius shrinks as closer triangles are found:
   * one traversal instead of balls growing up to it); should it still miss, the growing
   * balls from 1/1024 of the size follow. */
  double r = m->size / 1024;
  int round = 0;
  if (bound < HUGE_VAL) {
    r = bound * (1 + 1e-9) + 1e-12 * m->size;
    round = -1;
  }
  unsigned int mx = ftz_enter();
  for (;; round++) {
    int last = round >= 8;
    q.d2 = last ? HUGE_VAL : r * r;
    q.tri = -1;
    struct RTCPointQuery pq;
    pq.x = (float)p[0];
    pq.y = (float)p[1];
    pq.z = (float)p[2];
    pq.time = 0;
    pq.radius = last ? INFINITY : up(r + q.slack);
    struct RTCPointQueryContext ctx;
    rtcInitPointQueryContext(&ctx);
    rtcPointQuery(b->scene, &pq, &ctx, query_fn, &q);
    if (q.tri >= 0 || last) {
      break;
    }
    r = round == -1 ? m->size / 1024 : 4 * r;
  }
  ftz_leave(mx);
  if (q.tri < 0) {
    q.d2 = HUGE_VAL;
    q.tri = 0;
  }
  if (!(q.d2 < HUGE_VAL)) {
    /* a point beyond float range: fall back to the exhaustive search */
    for (int t = 0; t < m->ntri; t++) {
      const int *ti = m->tri + 3 * (size_t)t;
      double c[3];
      int f;
      double d2 = vxg_tri_closest(p, m->v + 3 * ti[0], m->v + 3 * ti[1], m->v + 3 * ti[2], c, &f);
      if (d2 < q.d2) {
        q.d2 = d2;
        memcpy(q.cp, c, sizeof c);
        q.tri = t;
        q.feat = f;
      }
    }
  }
  memcpy(cp, q.cp, sizeof q.cp);
  *tri = q.tri;
  *feat = q.feat;
  return q.d2;
}


/* Stops at the first triangle within the radius. */
static bool near_fn(struct RTCPointQueryFunctionArguments *args) {
  query_state *q = args->userPtr;
  if (q->tri >= 0) {
    return false;
  }
  const vxg_mesh *m = q->m;
  const int *t = m->tri + 3 * (size_t)args->primID;
  double cp[3];
  int feat;
  double d2 = vxg_tri_closest(q->p, m->v + 3 * t[0], m->v + 3 * t[1], m->v + 3 * t[2], cp, &feat);
  if (d2 <= q->d2) {
    q->tri = (int)args->primID;
    args->query->radius = 0;
    return true;
  }
  return false;
}


int vxg_mesh_bvh_near(const vxg_mesh *m, const double p[3], double r) {
  const bvh *b = m->bvh;
  query_state q;
  q.m = m;
  q.p = p;
  q.slack = (fabs(p[0]) + fabs(p[1]) + fabs(p[2])) * FLT_EPSILON + FLT_MIN;
  q.d2 = r * r;
  q.tri = -1;
  struct RTCPointQuery pq;
  pq.x = (float)p[0];
  pq.y = (float)p[1];
  pq.z = (float)p[2];
  pq.time = 0;
  pq.radius = up(r + q.slack);
  if (!(pq.radius < INFINITY)) {
    return 1; /* beyond float range: let the caller take the exact path */
  }
  struct RTCPointQueryContext ctx;
  rtcInitPointQueryContext(&ctx);
  unsigned int mx = ftz_enter();
  rtcPointQuery(b->scene, &pq, &ctx, near_fn, &q);
  ftz_leave(mx);
  return q.tri >= 0;
}


/* Gathers the distinct planes (or, with `tris`, the triangles) within the radius (and
 * meeting the box's slabs, when there is a box), stopping past `max`. */
typedef struct collect_state {
  const vxg_mesh *m;
  const double *p;
  double r2;
  const double *box; /* nullable: as vxg_mesh_planes's */
  int max, n;
  int sure; /* with a box: a triangle found surely meets its inner box */
  int *pid; /* the planes (triangles) found */
  int tris;
  uint64_t seen; /* bit (plane & 63) of every plane found: most others need no scan */
  int nb;        /* with a box: the ball's planes too (-1: more than max) */
  uint64_t bseen;
  int bid[VXG_MESH_PLANES_MAX];
} collect_state;

/* Adds plane id to the list ids[0 .. *n) (bits *seen) unless there; 0, or -1 when the
 * list already holds max. */
static int add_plane(int *ids, int *n, uint64_t *seen, int max, int id) {
  uint64_t bit = (uint64_t)1 << (id & 63);
  for (int i = 0; i < *n && (*seen & bit); i++) {
    if (ids[i] == id) {
      return 0;
    }
  }
  if (*n >= max) {
    return -1;
  }
  ids[(*n)++] = id;
  *seen |= bit;
  return 0;
}

/* 0 when the triangle (a, b, c) lies wholly beyond one of the slabs |u_j . (x - p)| <=
 * box[9 + j] (u_j = box[3 j ..]), else 1: a superset of the triangles meeting the outer
 * box. */
static int tri_meets_slabs(const double *box, const double *p, const double *a, const double *b,
                           const double *c) {
  const double da[3] = {a[0] - p[0], a[1] - p[1], a[2] - p[2]};
  const double db[3] = {b[0] - p[0], b[1] - p[1], b[2] - p[2]};
  const double dc[3] = {c[0] - p[0], c[1] - p[1], c[2] - p[2]};
  for (int j = 0; j < 3; j++) {
    const double *u = box + 3 * j, e = box[9 + j];
    double sa = u[0] * da[0] + u[1] * da[1] + u[2] * da[2];
    double sb = u[0] * db[0] + u[1] * db[1] + u[2] * db[2];
    double sc = u[0] * dc[0] + u[1] * dc[1] + u[2] * dc[2];
    if ((sa > e && sb > e && sc > e) || (sa < -e && sb < -e && sc < -e)) {
      return 0;
    }
  }
  return 1;
}

/* 1 when a corner of the triangle (a, b, c) lies within squared distance r2 of p. */
static int corner_within(const double *p, const double *a, const double *b, const double *c,
                         double r2) {
  const double *v[3] = {a, b, c};
  for (int k = 0; k < 3; k++) {
    double d[3] = {v[k][0] - p[0], v[k][1] - p[1], v[k][2] - p[2]};
    if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= r2) {
      return 1;
    }
  }
  return 0;
}


static bool collect_fn(struct RTCPointQueryFunctionArguments *args) {
  collect_state *q = args->userPtr;
  if (q->n > q->max) {
    return false;
  }
  const vxg_mesh *m = q->m;
  int id = q->tris ? (int)args->primID : m->pid[args->primID];
  uint64_t bit = (uint64_t)1 << (id & 63);
  for (int i = 0; i < q->n && !q->tris && (q->seen & bit); i++) {
    if (q->pid[i] == id) {
      return false; /* a plane already found */
    }
  }
  const int *t = m->tri + 3 * (size_t)args->primID;
  const double *a = m->v + 3 * t[0], *fn = m->fn + 3 * (size_t)args->primID;
  double h = fn[0] * (q->p[0] - a[0]) + fn[1] * (q->p[1] - a[1]) + fn[2] * (q->p[2] - a[2]);
  if (h * h > q->r2 * (1 + 1e-9)) {
    return false; /* the plane alone is beyond the radius */
  }
  int slab = !q->box || tri_meets_slabs(q->box, q->p, a, m->v + 3 * t[1], m->v + 3 * t[2]);
  if (!slab && (q->sure || q->nb < 0)) {
    return false; /* the ball's list is no longer wanted */
  }
  double cp[3];
  int feat;
  const double *b = m->v + 3 * t[1], *c = m->v + 3 * t[2];
  /* a corner within the radius puts the triangle there; its nearest point is needed only
     while a box's inner test is pending */
  double d2 = (!q->box || q->sure) && corner_within(q->p, a, b, c, q->r2)
                  ? 0
                  : vxg_tri_closest(q->p, a, b, c, cp, &feat);
  if (d2 <= q->r2 && q->box && !q->sure && q->nb >= 0 &&
      add_plane(q->bid, &q->nb, &q->bseen, q->max, id) != 0) {
    q->nb = -1;
  }
  if (d2 <= q->r2 && slab) {
    if (q->box && !q->sure) {
      /* the triangle's point nearest p within the inner box: the triangle meets the box */
      double dc[3] = {cp[0] - q->p[0], cp[1] - q->p[1], cp[2] - q->p[2]};
      q->sure = 1;
      for (int j = 0; j < 3; j++) {
        const double *u = q->box + 3 * j;
        q->sure &= fabs(u[0] * dc[0] + u[1] * dc[1] + u[2] * dc[2]) <= q->box[12 + j];
      }
    }
    if (q->n < q->max) {
      q->pid[q->n] = id;
      q->seen |= bit;
    }
    if (++q->n > q->max) {
      args->query->radius = 0;
      return true;
    }
  }
  return false;
}


int vxg_mesh_bvh_collect(const vxg_mesh *m, const double p[3], double r, const double *box,
                         int max, int tris, int *pid) {
  const bvh *b = m->bvh;
  collect_state q = {m, p, r * r, box, max, 0, 0, pid, tris, 0, 0, 0, {0}};
  double slack = (fabs(p[0]) + fabs(p[1]) + fabs(p[2])) * FLT_EPSILON + FLT_MIN;
  struct RTCPointQuery pq;
  pq.x = (float)p[0];
  pq.y = (float)p[1];
  pq.z = (float)p[2];
  pq.time = 0;
  pq.radius = up(r + slack);
  if (!(pq.radius < INFINITY)) {
    return -1;
  }
  struct RTCPointQueryContext ctx;
  rtcInitPointQueryContext(&ctx);
  unsigned int mx = ftz_enter();
  rtcPointQuery(b->scene, &pq, &ctx, collect_fn, &q);
  ftz_leave(mx);
  if (q.n > max || !box || q.sure) {
    return q.n > max ? -1 : q.n;
  }
  if (q.nb > 0) {
    memcpy(pid, q.bid, (size_t)q.nb * sizeof *pid); /* none sure to meet the box */
  }
  return q.nb;
}


int vxg_mesh_bvh_parity(const vxg_mesh *m, const double p[3]) {
  /* first away from the centroid (out of the mesh by the shortest way for a roundish
   * mesh, so the ray meets few boxes), then fixed directions in general position (no axis,
   * no simple diagonal) */
  static const double dirs[5][3] = {{0.5773, 0.6231, 0.5279},
                                    {-0.3131, 0.8717, -0.3768},
                                    {0.7283, -0.2311, -0.6451},
                                    {-0.6627, -0.5219, 0.5372},
                                    {0.1511, -0.9233, 0.3532}};
  const bvh *b = m->bvh;
  double away[3], la = 0;
  for (int i = 0; i < 3; i++) {
    away[i] = p[i] - m->info.centroid[i];
    la += away[i] * away[i];
  }
  la = sqrt(la);
  for (int k = la > 1e-6 * m->size ? -1 : 0; k < 5; k++) {
    ray_state rs;
    rtcInitIntersectContext(&rs.ctx);
    rs.m = m;
    memcpy(rs.o, p, sizeof rs.o);
    if (k < 0) {
      for (int i = 0; i < 3; i++) {
        rs.d[i] = away[i] / la;
      }
    } else {
      memcpy(rs.d, dirs[k], sizeof rs.d);
    }
    rs.count = 0;
    rs.ambiguous = 0;
    struct RTCRayHit rh;
    memset(&rh, 0, sizeof rh);
    rh.ray.org_x = (float)p[0];
    rh.ray.org_y = (float)p[1];
    rh.ray.org_z = (float)p[2];
    rh.ray.dir_x = (float)rs.d[0];
    rh.ray.dir_y = (float)rs.d[1];
    rh.ray.dir_z = (float)rs.d[2];
    rh.ray.tnear = 0;
    rh.ray.tfar = INFINITY;
    rh.ray.mask = 0xffffffffu;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    unsigned int mx = ftz_enter();
    rtcIntersect1(b->scene, &rs.ctx, &rh);
    ftz_leave(mx);
    if (!rs.ambiguous) {
      return rs.count & 1;
    }
  }
  return -1;
}
