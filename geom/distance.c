/* distance.c: distance between two convex sets by GJK (Gilbert, Johnson and Keerthi 1988)
 * on their support functions: two cells' convex hulls (closed-form supports), or any
 * shapes a caller gives supports of (a triangle and a cell, geom/cell_distance.c).
 *
 * libccd 2.1 answers "do they overlap" and "how deep", not "how far apart", which the
 * penetration measure needs to stay continuous through first contact. GJK walks a simplex
 * of points of the Minkowski difference C = A - B toward the origin: v is the point of the
 * current simplex closest to the origin, w = s_C(-v) the support point of C against v;
 * |v| - (v.w)/|v| bounds the gap to the true distance, and the iteration stops when that
 * gap is below a tolerance relative to the bodies' size. The simplex (1 to 4 points, with
 * the matching points of A for the witness points) is reduced after each step to the
 * smallest face that holds the closest point (Ericson, Real-Time Collision Detection,
 * section 5.1). */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"

typedef struct {
  double w[3]; /* point of C = A - B */
  double a[3]; /* the point of A it came from */
} vertex;


/* A hull posed by a transform (cell -> query frame), as vxg_gjk_distance's shape. */
typedef struct posed_hull {
  const vxg_cell *c;
  const vxg_xform *to;
} posed_hull;


/* Support of a posed hull in direction d (query frame). */
static void hull_support(const void *shape, const double d[3], double p[3]) {
  const posed_hull *h = shape;
  double dl[3], pl[3];
  vxg_xform_vector_inv(h->to, d, dl);
  vxg_hull_support(&h->c->hull, dl, pl);
  vxg_xform_point(h->to, pl, p);
}


/* Closest point to the origin of the segment (s[0], s[1]); reduces s to the feature that
 * holds it and returns its barycentric weights in lam. */
static int closest_segment(vertex *s, double lam[4]) {
  double ab[3];
  vxg_sub(s[1].w, s[0].w, ab);
  double t = -vxg_dot(s[0].w, ab), den = vxg_dot(ab, ab);
  if (t <= 0 || den <= 0) {
    lam[0] = 1;
    return 1;
  }
  if (t >= den) {
    s[0] = s[1];
    lam[0] = 1;
    return 1;
  }
  lam[1] = t / den;
  lam[0] = 1 - lam[1];
  return 2;
}


/* The same for a triangle (Ericson 5.1.5, with the query point at the origin). */
static int closest_triangle(vertex *s, double lam[4]) {
  const double *a = s[0].w, *b = s[1].w, *c = s[2].w;
  double ab[3], ac[3], ap[3] = {-a[0], -a[1], -a[2]};
  vxg_sub(b, a, ab);
  vxg_sub(c, a, ac);
  double d1 = vxg_dot(ab, ap), d2 = vxg_dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) {
    lam[0] = 1;
    return 1;
  }
  double bp[3] = {-b[0], -b[1], -b[2]};
  double d3 = vxg_dot(ab, bp), d4 = vxg_dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    s[0] = s[1];
    lam[0] = 1;
    return 1;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    double v = d1 / (d1 - d3);
    lam[0] = 1 - v;
    lam[1] = v;
    return 2;
  }
  double cp[3] = {-c[0], -c[1], -c[2]};
  double d5 = vxg_dot(ab, cp), d6 = vxg_dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) {
    s[0] = s[2];
    lam[0] = 1;
    return 1;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    double w = d2 / (d2 - d6);
    s[1] = s[2];
    lam[0] = 1 - w;
    lam[1] = w;
    return 2;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    s[0] = s[1];
    s[1] = s[2];
    lam[0] = 1 - w;
    lam[1] = w;
    return 2;
  }
  double den = va + vb + vc;
  if (!(den > 0)) { /* degenerate (collinear) triangle: fall back to its longest edge */
    return closest_segment(s, lam);
  }
  lam[1] = vb / den;
  lam[2] = vc / den;
  lam[0] = 1 - lam[1] - lam[2];
  return 3;
}


/* The same for a tetrahedron: 4 when the origin is inside (distance 0). */
static int closest_tetra(vertex *s, double lam[4]) {
  static const int face[4][3] = {{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}};
  static const int opposite[4] = {3, 1, 2, 0};
  double best = INFINITY;
  vertex keep[3];
  double keep_lam[4] = {0, 0, 0, 0};
  int keep_n = 0, outside_any = 0;
  for (int f = 0; f < 4; f++) {
    const double *a = s[face[f][0]].w, *b = s[face[f][1]].w, *c = s[face[f][2]].w;
    double ab[3], ac[3], n[3], ad[3];
    vxg_sub(b, a, ab);
    vxg_sub(c, a, ac);
    vxg_cross(ab, ac, n);
    vxg_sub(s[opposite[f]].w, a, ad);
    double side_o = -vxg_dot(n, a), side_d = vxg_dot(n, ad);
    /* the origin is outside this face when it lies across the face's plane from the
       opposite vertex */
    if (side_o * side_d >= 0 && side_d != 0) {
      continue;
    }
    outside_any = 1;
    vertex t[3] = {s[face[f][0]], s[face[f][1]], s[face[f][2]]};
    double l[4] = {0, 0, 0, 0};
    int m = closest_triangle(t, l);
    double p[3] = {0, 0, 0};
    for (int i = 0; i < m; i++) {
      for (int k = 0; k < 3; k++) {
        p[k] += l[i] * t[i].w[k];
      }
    }
    double d2 = vxg_dot(p, p);
    if (d2 < best) {
      best = d2;
      keep_n = m;
      memcpy(keep, t, sizeof keep);
      memcpy(keep_lam, l, sizeof keep_lam);
    }
  }
  if (!outside_any) {
    return 4;
  }
  memcpy(s, keep, (size_t)keep_n * sizeof *s);
  memcpy(lam, keep_lam, sizeof keep_lam);
  return keep_n;
}


vxc_status vxg_gjk_distance(vxg_support_fn sup_a, const void *a, vxg_support_fn sup_b,
                            const void *b, double eps, double *dist, double pa[3],
                            double pb[3]) {
  vertex s[4];
  int n = 1;
  double d0[3] = {1, 0, 0}, sa[3], sb[3], nd[3];
  sup_a(a, d0, sa);
  nd[0] = -d0[0];
  nd[1] = -d0[1];
  nd[2] = -d0[2];
  sup_b(b, nd, sb);
  vxg_sub(sa, sb, s[0].w);
  memcpy(s[0].a, sa, sizeof sa);
  double lam[4] = {1, 0, 0, 0};
  double v[3];
  memcpy(v, s[0].w, sizeof v);
  vxc_status st = VXC_ERR_NUMERIC;
  double lower = 0;
  for (int it = 0; it < 128; it++) {
    double vv = vxg_dot(v, v);
    if (vv <= eps * eps) {
      st = VXC_OK; /* the origin is (within tolerance) in C: the hulls touch or overlap */
      v[0] = v[1] = v[2] = 0;
      break;
    }
    double dneg[3] = {-v[0], -v[1], -v[2]};
    sup_a(a, dneg, sa);
    sup_b(b, v, sb);
    double w[3];
    vxg_sub(sa, sb, w);
    /* the true distance lies in [v.w / |v|, |v|] */
    double vw = vxg_dot(v, w);
    lower = fmax(lower, vw / sqrt(vv));
    if (vv - vw <= 2 * eps * sqrt(vv)) {
      st = VXC_OK;
      break;
    }
    memcpy(s[n].w, w, sizeof w);
    memcpy(s[n].a, sa, sizeof sa);
    n++;
    memset(lam, 0, sizeof lam);
    switch (n) {
      case 2:
        n = closest_segment(s, lam);
        break;
      case 3:
        n = closest_triangle(s, lam);
        break;
      default:
        n = closest_tetra(s, lam);
        break;
    }
    if (n == 4) {
      st = VXC_OK; /* the origin is inside the simplex: overlap */
      v[0] = v[1] = v[2] = 0;
      break;
    }
    double nv[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < 3; k++) {
        nv[k] += lam[i] * s[i].w[k];
      }
    }
    if (vxg_dot(nv, nv) >= vv) {
      st = VXC_OK; /* no progress: v is the closest point to rounding */
      break;
    }
    memcpy(v, nv, sizeof v);
  }
  double d = sqrt(vxg_dot(v, v));
  *dist = st == VXC_OK ? d : lower;
  if (pa || pb) {
    double p[3] = {0, 0, 0};
    for (int i = 0; i < n && n < 4; i++) {
      for (int k = 0; k < 3; k++) {
        p[k] += lam[i] * s[i].a[k];
      }
    }
    if (pa) {
      memcpy(pa, p, sizeof p);
    }
    if (pb) {
      for (int k = 0; k < 3; k++) {
        pb[k] = p[k] - v[k];
      }
    }
  }
  return st;
}


vxc_status vxg_hull_distance(const vxg_cell *a, const vxg_xform *to_a, const vxg_cell *b,
                             const vxg_xform *to_b, double *dist, double pa[3], double pb[3]) {
  /* tolerance relative to the bodies' size */
  double ba[6], bb[6], size = 0;
  vxg_cell_aabb(a, to_a, ba);
  vxg_cell_aabb(b, to_b, bb);
  for (int k = 0; k < 3; k++) {
    size = fmax(size, fmax(ba[k + 3] - ba[k], bb[k + 3] - bb[k]));
  }
  posed_hull ha = {a, to_a}, hb = {b, to_b};
  return vxg_gjk_distance(hull_support, &ha, hull_support, &hb, 1e-12 * size, dist, pa, pb);
}
