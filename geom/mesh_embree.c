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
#include <string.h>

#include <embree3/rtcore.h>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#include "mesh.h"

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


static void bounds_fn(const struct RTCBoundsFunctionArguments *args) {
  const vxg_mesh *m = args->geometryUserPtr;
  const int *t = m->tri + 3 * (size_t)args->primID;
  double lo[3], hi[3];
  for (int a = 0; a < 3; a++) {
    double x0 = m->v[3 * t[0] + a], x1 = m->v[3 * t[1] + a], x2 = m->v[3 * t[2] + a];
    lo[a] = fmin(x0, fmin(x1, x2));
    hi[a] = fmax(x0, fmax(x1, x2));
  }
  struct RTCBounds *b = args->bounds_o;
  b->lower_x = down(lo[0]);
  b->lower_y = down(lo[1]);
  b->lower_z = down(lo[2]);
  b->upper_x = up(hi[0]);
  b->upper_y = up(hi[1]);
  b->upper_z = up(hi[2]);
}


/* Rays are never traced: the intersection callbacks report no hit. */
static void intersect_fn(const struct RTCIntersectFunctionNArguments *args) {
  (void)args;
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
  if (d2 < q->d2 || (d2 == q->d2 && (int)args->primID < q->tri)) {
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
  return vxg_error_set(err, VXC_ERR_NUMERIC, m->name, 0, 0, "Embree failed to %s (error %d)",
                       what, (int)e);
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


double vxg_mesh_bvh_closest(const vxg_mesh *m, const double p[3], double cp[3], int *tri,
                            int *feat) {
  const bvh *b = m->bvh;
  query_state q;
  q.m = m;
  q.p = p;
  /* the float point is within half an ulp per coordinate of p */
  q.slack = (fabs(p[0]) + fabs(p[1]) + fabs(p[2])) * FLT_EPSILON + FLT_MIN;
  q.d2 = HUGE_VAL;
  q.tri = 0;
  q.feat = 0;
  memcpy(q.cp, m->v, sizeof q.cp);
  struct RTCPointQuery pq;
  pq.x = (float)p[0];
  pq.y = (float)p[1];
  pq.z = (float)p[2];
  pq.time = 0;
  pq.radius = INFINITY;
  struct RTCPointQueryContext ctx;
  rtcInitPointQueryContext(&ctx);
  unsigned int mx = ftz_enter();
  rtcPointQuery(b->scene, &pq, &ctx, query_fn, &q);
  ftz_leave(mx);
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
