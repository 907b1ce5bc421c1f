/* support.c: closed-form support functions of cell hulls, and libccd's MPR on them.
 *
 * A hull (geom.h, vxg_hull) is a convex set given in its own frame by a kind and up to four
 * parameters, placed in the cell frame by `frame`. Its support point in direction d is a
 * point of the hull maximising d.x; every kind has a closed form, computed in the hull frame
 * (d rotated in by R^T, the point moved out by the frame). Directions of zero length, or
 * with no component off an axis, pick a definite point of the maximising face, never NaN.
 *
 * MPR: libccd sees a posed hull through two callbacks on `mpr_obj` (support and centre; MPR
 * calls both). libccd is built in double precision on Debian (ccd_real_t is double), which
 * configure checks. This is the only file that includes libccd. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <string.h>

#include <ccd/ccd.h>
#include <ccd/quat.h>

#include "geom/geom.h"

/* Unit vector of the (x, y) part of d scaled by `rad`; zero when that part vanishes. */
static void radial(const double d[3], double rad, double out[2]) {
  double n = sqrt(d[0] * d[0] + d[1] * d[1]);
  if (n > 0) {
    out[0] = rad * d[0] / n;
    out[1] = rad * d[1] / n;
  } else {
    out[0] = out[1] = 0;
  }
}


/* The point maximising d.x by a scan (the first of equals; 0 without points). */
static int points_scan(const vxg_hull *h, const double d[3]) {
  int best = 0;
  double bv = -HUGE_VAL;
  for (int i = 0; i < h->npts; i++) {
    const double *q = h->pts + 3 * i;
    double v = d[0] * q[0] + d[1] * q[1] + d[2] * q[2];
    if (v > bv) {
      bv = v;
      best = i;
    }
  }
  return best;
}


void vxg_hull_seeds(vxg_hull *h) {
  static const double dir[VXG_HULL_SEEDS][3] = {
      {1, 0, 0},  {-1, 0, 0}, {0, 1, 0},   {0, -1, 0}, {0, 0, 1},   {0, 0, -1},  {1, 1, 1},
      {1, 1, -1}, {1, -1, 1}, {1, -1, -1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, 1}, {-1, -1, -1}};
  for (int k = 0; k < VXG_HULL_SEEDS; k++) {
    h->seed[k] = points_scan(h, dir[k]);
  }
}


/* s = r d / |d| (a ball's support). Returns 0, or -1 with s untouched when d is zero. */
static int ball(const double d[3], double r, double s[3]) {
  double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (!(n > 0)) {
    return -1;
  }
  for (int i = 0; i < 3; i++) {
    s[i] = r * d[i] / n;
  }
  return 0;
}


/* Maximiser of d.x on sum (x_i / a_i)^2 = 1: x_i = a_i^2 d_i / sqrt(sum a_i^2 d_i^2). */
static void support_ellipsoid(const double a[3], const double d[3], double s[3]) {
  double w[3] = {a[0] * d[0], a[1] * d[1], a[2] * d[2]};
  double n = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (n > 0) {
    for (int i = 0; i < 3; i++) {
      s[i] = a[i] * w[i] / n;
    }
  } else {
    s[0] = s[1] = 0;
    s[2] = a[2];
  }
}


/* A sphere of radius r cut at height zc: the sphere's own support if it is on the kept side,
 * else the cut disc's rim. */
static void support_segment(double r, double zc, const double d[3], double s[3]) {
  double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (n > 0 && r * d[2] / n <= zc) {
    ball(d, r, s);
    return;
  }
  double zt = zc < r ? zc : r, rho2 = r * r - zt * zt;
  radial(d, rho2 > 0 ? sqrt(rho2) : 0, s);
  s[2] = zt;
}


/* Minkowski sum of the core circle (radius R) and a ball (radius r). */
static void support_torus(double R, double r, const double d[3], double s[3]) {
  double t[3];
  radial(d, R, s);
  s[2] = 0;
  if (ball(d, r, t) == 0) {
    for (int i = 0; i < 3; i++) {
      s[i] += t[i];
    }
  } else {
    s[2] = r;
  }
}


/* The point maximising d.x, by hill climbing on the edge graph from the best seed: a linear
 * function's local maximum over a convex polytope's vertices is the global one, and from the
 * best seed the climb is short (on the bench's 10,000-point spheres, 4 steps on average
 * against 51 from point 0). */
static int points_climb(const vxg_hull *h, const double d[3]) {
  int best = 0;
  double bv = -HUGE_VAL;
  for (int k = 0; k < VXG_HULL_SEEDS; k++) {
    const double *q = h->pts + 3 * h->seed[k];
    double v = d[0] * q[0] + d[1] * q[1] + d[2] * q[2];
    if (v > bv) {
      bv = v;
      best = h->seed[k];
    }
  }
  for (int step = 0, moved = 1; moved && step < h->npts; step++) {
    moved = 0;
    for (int k = h->adj_off[best], e = h->adj_off[best + 1]; k < e; k++) {
      const double *q = h->pts + 3 * h->adj[k];
      double v = d[0] * q[0] + d[1] * q[1] + d[2] * q[2];
      if (v > bv) {
        bv = v;
        best = h->adj[k];
        moved = 1;
      }
    }
  }
  return best;
}


/* The hull of a point set: by climbing when it has an edge graph, else by a scan. */
static void support_points(const vxg_hull *h, const double d[3], double s[3]) {
  if (h->npts <= 0) {
    s[0] = s[1] = s[2] = 0;
    return;
  }
  int best = h->adj_off ? points_climb(h, d) : points_scan(h, d);
  memcpy(s, h->pts + 3 * best, 3 * sizeof *s);
}


/* Support of the hull in its own frame. */
static void support_local(const vxg_hull *h, const double d[3], double s[3]) {
  const double *p = h->p;
  switch (h->kind) {
    case VXG_HULL_BOX:
      for (int i = 0; i < 3; i++) {
        s[i] = d[i] >= 0 ? p[i] : -p[i];
      }
      return;
    case VXG_HULL_SPHERE:
      if (ball(d, p[0], s) != 0) {
        s[0] = s[1] = 0;
        s[2] = p[0];
      }
      return;
    case VXG_HULL_ELLIPSOID:
      support_ellipsoid(p, d, s);
      return;
    case VXG_HULL_CYLINDER:
      radial(d, p[0], s);
      s[2] = d[2] >= 0 ? p[1] : -p[1];
      return;
    case VXG_HULL_FRUSTUM: {
      /* the maximum is on one of the two rim circles */
      double dp = sqrt(d[0] * d[0] + d[1] * d[1]);
      double v0 = p[1] * dp + p[0] * d[2], v1 = p[3] * dp + p[2] * d[2];
      int top = v1 >= v0;
      radial(d, top ? p[3] : p[1], s);
      s[2] = top ? p[2] : p[0];
      return;
    }
    case VXG_HULL_SEGMENT:
      support_segment(p[0], p[1], d, s);
      return;
    case VXG_HULL_TORUS:
      support_torus(p[0], p[1], d, s);
      return;
    case VXG_HULL_POINTS:
      support_points(h, d, s);
      return;
    default:
      s[0] = s[1] = s[2] = 0;
      return;
  }
}


void vxg_hull_support(const vxg_hull *h, const double d[3], double out[3]) {
  double dl[3], sl[3];
  vxg_xform_vector_inv(&h->frame, d, dl);
  support_local(h, dl, sl);
  vxg_xform_point(&h->frame, sl, out);
}


void vxg_hull_box(const vxg_hull *h, const vxg_xform *to, double box[6]) {
  vxg_xform t;
  vxg_xform_compose(&t, to, &h->frame);
  for (int i = 0; i < 3; i++) {
    /* the frame's axis i in the hull frame: R's row i */
    const double d[3] = {t.r[3 * i], t.r[3 * i + 1], t.r[3 * i + 2]};
    if (h->kind == VXG_HULL_BOX) {
      double e = fabs(d[0]) * h->p[0] + fabs(d[1]) * h->p[1] + fabs(d[2]) * h->p[2];
      box[i] = t.t[i] - e;
      box[3 + i] = t.t[i] + e;
      continue;
    }
    const double nd[3] = {-d[0], -d[1], -d[2]};
    double s[3];
    support_local(h, d, s);
    box[3 + i] = t.t[i] + d[0] * s[0] + d[1] * s[1] + d[2] * s[2];
    support_local(h, nd, s);
    box[i] = t.t[i] + d[0] * s[0] + d[1] * s[1] + d[2] * s[2];
  }
}


/* A point well inside the hull (its own frame), for MPR's first portal. */
static void centre_local(const vxg_hull *h, double c[3]) {
  c[0] = c[1] = c[2] = 0;
  switch (h->kind) {
    case VXG_HULL_FRUSTUM:
      c[2] = 0.5 * (h->p[0] + h->p[2]);
      break;
    case VXG_HULL_SEGMENT: {
      /* halfway between the bottom pole and the cut */
      double top = h->p[1] < h->p[0] ? h->p[1] : h->p[0];
      c[2] = 0.5 * (top - h->p[0]);
      break;
    }
    case VXG_HULL_POINTS:
      memcpy(c, h->p, 3 * sizeof *c); /* the points' mean */
      break;
    default:
      break;
  }
}


/* Radius of a ball about the hull frame's origin that holds the hull. */
static double hull_reach(const vxg_hull *h) {
  const double *p = h->p;
  switch (h->kind) {
    case VXG_HULL_BOX:
    case VXG_HULL_ELLIPSOID:
      return sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    case VXG_HULL_SPHERE:
    case VXG_HULL_SEGMENT:
      return p[0];
    case VXG_HULL_CYLINDER:
      return sqrt(p[0] * p[0] + p[1] * p[1]);
    case VXG_HULL_FRUSTUM:
      return fmax(sqrt(p[0] * p[0] + p[1] * p[1]), sqrt(p[2] * p[2] + p[3] * p[3]));
    case VXG_HULL_TORUS:
      return p[0] + p[1];
    case VXG_HULL_POINTS:
      return p[3]; /* the largest |point| */
    default:
      return 0;
  }
}


/* ---------------------------------------------------------------------------------------
 * MPR */

/* Support calls one MPR run may make per hull. libccd's portal loops have no iteration
 * bound of their own (an ellipsoid against a ball 1.2 um deep ran for ever): past the
 * budget the support function jumps out of libccd (MPR allocates nothing), and the run
 * counts as failed, so that the caller falls back on the octree and the area vector. */
#define MPR_MAX_SUPPORTS 4096

typedef struct mpr_obj {
  const vxg_hull *hull;
  vxg_xform to_query; /* hull frame -> query frame */
  int fixed_centre;   /* 1: report `centre` (query frame) instead of the hull's own */
  double centre[3];
  long *calls;    /* support calls of the current run */
  jmp_buf *abort; /* where a run over budget jumps to */
} mpr_obj;


static void mpr_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *vec) {
  const mpr_obj *o = obj;
  if (++*o->calls > 2 * MPR_MAX_SUPPORTS) {
    longjmp(*o->abort, 1);
  }
  double d[3] = {ccdVec3X(dir), ccdVec3Y(dir), ccdVec3Z(dir)}, dl[3], sl[3], s[3];
  vxg_xform_vector_inv(&o->to_query, d, dl);
  support_local(o->hull, dl, sl);
  vxg_xform_point(&o->to_query, sl, s);
  ccdVec3Set(vec, s[0], s[1], s[2]);
}


static void obj_centre(const mpr_obj *o, double q[3]) {
  if (o->fixed_centre) {
    memcpy(q, o->centre, 3 * sizeof *q);
    return;
  }
  double cl[3];
  centre_local(o->hull, cl);
  vxg_xform_point(&o->to_query, cl, q);
}


static void mpr_center(const void *obj, ccd_vec3_t *c) {
  double q[3];
  obj_centre(obj, q);
  ccdVec3Set(c, q[0], q[1], q[2]);
}


/* Overlap of the two hulls' projections on the unit n: h_A(n) + h_B(-n), the exact depth
 * along n. Its minimum over n is the penetration depth. */
static double overlap_along(const mpr_obj *a, const mpr_obj *b, const double n[3]) {
  double dl[3], sl[3], sa[3], sb[3], m[3] = {-n[0], -n[1], -n[2]};
  vxg_xform_vector_inv(&a->to_query, n, dl);
  support_local(a->hull, dl, sl);
  vxg_xform_point(&a->to_query, sl, sa);
  vxg_xform_vector_inv(&b->to_query, m, dl);
  support_local(b->hull, dl, sl);
  vxg_xform_point(&b->to_query, sl, sb);
  return n[0] * (sa[0] - sb[0]) + n[1] * (sa[1] - sb[1]) + n[2] * (sa[2] - sb[2]);
}


/* One MPR run; returns 1 with depth and unit direction on overlap, 0 apart, -1 on failure. */
static int mpr_run(mpr_obj *a, mpr_obj *b, const ccd_t *ccd, double *depth, double dir[3],
                   double pos[3]) {
  ccd_real_t dp = 0;
  ccd_vec3_t d, p;
  ccdVec3Set(&d, 0, 0, 0);
  ccdVec3Set(&p, 0, 0, 0);
  long calls = 0;
  jmp_buf abort_run;
  a->calls = b->calls = &calls;
  a->abort = b->abort = &abort_run;
  if (setjmp(abort_run) != 0) {
    return -1; /* over budget */
  }
  if (ccdMPRPenetration(a, b, ccd, &dp, &d, &p) != 0) {
    return 0;
  }
  double v[3] = {ccdVec3X(&d), ccdVec3Y(&d), ccdVec3Z(&d)};
  double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  pos[0] = ccdVec3X(&p);
  pos[1] = ccdVec3Y(&p);
  pos[2] = ccdVec3Z(&p);
  if (!isfinite(dp) || !(n > 0) || !isfinite(n) || !isfinite(pos[0]) || !isfinite(pos[1]) ||
      !isfinite(pos[2])) {
    return -1;
  }
  *depth = dp;
  for (int i = 0; i < 3; i++) {
    dir[i] = v[i] / n;
  }
  return 1;
}


vxc_status vxg_mpr(const vxg_cell *a, const vxg_xform *to_a, const vxg_cell *b,
                   const vxg_xform *to_b, vxg_mpr_result *res) {
  mpr_obj oa, ob;
  memset(&oa, 0, sizeof oa);
  memset(&ob, 0, sizeof ob);
  oa.hull = &a->hull;
  ob.hull = &b->hull;
  vxg_xform_compose(&oa.to_query, to_a, &a->hull.frame);
  vxg_xform_compose(&ob.to_query, to_b, &b->hull.frame);

  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = mpr_support;
  ccd.support2 = mpr_support;
  ccd.center1 = mpr_center; /* MPR calls the centres; CCD_INIT leaves them NULL */
  ccd.center2 = mpr_center;
  /* MPR converges linearly on curved hulls; 200 portal refinements reach the tolerance
   * below for any pair we have seen, and bound the work of a degenerate one */
  ccd.max_iterations = 200;
  double size = fmax(hull_reach(&a->hull), hull_reach(&b->hull));
  if (!(size > 0) || !isfinite(size)) {
    return VXC_ERR_NUMERIC;
  }
  ccd.mpr_tolerance = 1e-9 * size; /* absolute in libccd: scaled to the hulls */
  ccd.epa_tolerance = 1e-6 * size;

  vxg_mpr_result r;
  memset(&r, 0, sizeof r);
  r.exact = a->hull.exact && b->hull.exact;
  double depth, dir[3], pos[3];
  int rc = mpr_run(&oa, &ob, &ccd, &depth, dir, pos);
  if (rc < 0) {
    return VXC_ERR_NUMERIC;
  }
  if (rc == 0) {
    *res = r; /* the hulls do not intersect */
    return VXC_OK;
  }
  /* MPR's depth is the distance to a portal triangle found along the ray from the
   * difference's centre through the origin: off by up to a few parts per thousand when that
   * ray is not along the penetration direction. Re-aim the ray along the best direction so
   * far (a centre difference of -t n, t below the depth so it stays inside) and keep the
   * direction whose projected overlap, exact from the supports, is smallest. */
  double best = overlap_along(&oa, &ob, dir), bdir[3] = {dir[0], dir[1], dir[2]};
  for (int it = 0; it < 4 && best > 0; it++) {
    double t = 0.25 * best, c1[3], d2, n2[3], p2[3];
    obj_centre(&oa, c1);
    oa.fixed_centre = ob.fixed_centre = 1;
    memcpy(oa.centre, c1, sizeof c1);
    for (int i = 0; i < 3; i++) {
      ob.centre[i] = c1[i] + t * bdir[i];
    }
    int rc2 = mpr_run(&oa, &ob, &ccd, &d2, n2, p2);
    oa.fixed_centre = ob.fixed_centre = 0;
    if (rc2 != 1) {
      break;
    }
    double g = overlap_along(&oa, &ob, n2);
    if (!(g < best * (1 - 1e-15))) {
      break;
    }
    best = g;
    memcpy(bdir, n2, sizeof bdir);
  }
  r.overlap = 1;
  r.depth = best > 0 ? best : 0;
  /* libccd returns the direction in which to move obj2 (B) to separate it from obj1 (A):
   * it already points from A toward B */
  memcpy(r.dir, bdir, sizeof r.dir);
  memcpy(r.pos, pos, sizeof r.pos);
  *res = r;
  return VXC_OK;
}
