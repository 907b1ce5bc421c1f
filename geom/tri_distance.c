/* tri_distance.c: the distance between two triangles in space.
 *
 * Two closed triangles that do not meet are closest at a pair of points on their
 * boundaries, and of those pairs one of: a corner of one and a point of the other
 * triangle (6 cases), or an interior point of an edge of each (9 cases). Proof sketch: at
 * a closest pair (p, q), if p lies inside triangle A's face and q inside B's, the segment
 * pq is normal to both planes, so the planes are parallel and a whole neighbourhood of
 * pairs is as close: moving p within A (q following by the same translation inside B)
 * reaches A's or B's boundary at the same distance. So one of p, q lies on an edge; if
 * it is inside that edge and the other lies inside a face, the same sliding reaches an
 * edge's end or the other's boundary; what remains is a corner against a triangle or two
 * edges' interior points.
 * - a corner against a triangle: vxg_tri_closest (geom/mesh.c), exact in its feature
 *   choice (the Voronoi regions of the corners, edges and face);
 * - two edges' interior points: the minimum of |p + s u - q - t v|^2 over the lines (its
 *   gradient's zero), kept only when 0 < s, t < 1 (a minimum on the square's boundary has
 *   a corner in it, which the corner cases cover; parallel edges have a line of minima
 *   that meets that boundary). Whatever rounding does to s and t, a kept pair is a pair of
 *   points of the edges, so the answer never falls below the true distance by more than
 *   the rounding of that difference.
 * Triangles that meet (one's edge crosses the other's face) have distance 0, which the
 * 15 cases need not show: each of the 6 edges is tested for a crossing of the other
 * triangle first, by the signs of triple products. */
#include <math.h>

#include "geom/geom.h"
#include "geom/mesh.h"
#include "geom/vec3.h"

/* Six times the signed volume of the tetrahedron (a, b, c, d). */
static double orient(const double a[3], const double b[3], const double c[3], const double d[3]) {
  double u[3], v[3], w[3], x[3];
  vxg_sub(b, a, u);
  vxg_sub(c, a, v);
  vxg_sub(d, a, w);
  vxg_cross(u, v, x);
  return vxg_dot(x, w);
}


/* 1 when the segment pq crosses the triangle t (its corners at t, t + 3, t + 6): p and q
 * not strictly on one side of its plane, and the line pq passing through it (the three
 * triple products with its edges of one sign). Coplanar segments are left to the distance
 * cases (a crossing there is an edge-edge or corner-triangle distance of 0). */
static int segment_crosses(const double p[3], const double q[3], const double *t) {
  double op = orient(t, t + 3, t + 6, p), oq = orient(t, t + 3, t + 6, q);
  if ((op > 0 && oq > 0) || (op < 0 && oq < 0) || (op == 0 && oq == 0)) {
    return 0;
  }
  double e0 = orient(p, q, t, t + 3), e1 = orient(p, q, t + 3, t + 6), e2 = orient(p, q, t + 6, t);
  return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
}


/* Squared distance between interior points of segments p + s u and q + t v (0 < s, t < 1)
 * where the lines are closest; HUGE_VAL when that is not inside both or the lines are
 * parallel (the determinant not positive). */
static double edges_interior(const double p[3], const double p1[3], const double q[3],
                             const double q1[3]) {
  double u[3], v[3], r[3];
  vxg_sub(p1, p, u);
  vxg_sub(q1, q, v);
  vxg_sub(p, q, r);
  /* grad of |r + s u - t v|^2 = 0: A s - B t = -D, -B s + C t = E */
  double A = vxg_dot(u, u), B = vxg_dot(u, v), C = vxg_dot(v, v);
  double D = vxg_dot(u, r), E = vxg_dot(v, r), det = A * C - B * B;
  if (!(det > 0)) {
    return HUGE_VAL;
  }
  double s = (B * E - C * D) / det, t = (A * E - B * D) / det;
  if (!(s > 0 && s < 1 && t > 0 && t < 1)) {
    return HUGE_VAL;
  }
  double w[3];
  for (int k = 0; k < 3; k++) {
    w[k] = r[k] + s * u[k] - t * v[k];
  }
  return vxg_dot(w, w);
}


double vxg_tri_tri_distance(const double a[9], const double b[9]) {
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3;
    if (segment_crosses(a + 3 * i, a + 3 * j, b) || segment_crosses(b + 3 * i, b + 3 * j, a)) {
      return 0.0;
    }
  }
  double best = HUGE_VAL, cp[3];
  int feat;
  for (int i = 0; i < 3; i++) {
    best = fmin(best, vxg_tri_closest(a + 3 * i, b, b + 3, b + 6, cp, &feat));
    best = fmin(best, vxg_tri_closest(b + 3 * i, a, a + 3, a + 6, cp, &feat));
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      best = fmin(best, edges_interior(a + 3 * i, a + 3 * ((i + 1) % 3), b + 3 * j,
                                       b + 3 * ((j + 1) % 3)));
    }
  }
  return sqrt(best);
}
