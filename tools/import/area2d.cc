// area2d.cc: convex polygon clipping (Sutherland-Hodgman against one line) and the area of a
// polygon inside a disk, summed over the triangles (centre, edge) as signed areas.
#include "tools/import/area2d.h"

#include <algorithm>
#include <cmath>

namespace area2d {

Polygon square(double h) {
  return {{-h, -h}, {h, -h}, {h, h}, {-h, h}};
}

Polygon clip(const Polygon &p, double nx, double ny, double d) {
  Polygon out;
  size_t n = p.size();
  for (size_t i = 0; i < n; i++) {
    const P2 &a = p[i], &b = p[(i + 1) % n];
    double fa = nx * a.x + ny * a.y - d, fb = nx * b.x + ny * b.y - d;
    if (fa <= 0) {
      out.push_back(a);
    }
    if ((fa < 0 && fb > 0) || (fa > 0 && fb < 0)) {
      double t = fa / (fa - fb);
      out.push_back({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)});
    }
  }
  return out;
}

double area(const Polygon &p) {
  double s = 0;
  for (size_t i = 0; i < p.size(); i++) {
    const P2 &a = p[i], &b = p[(i + 1) % p.size()];
    s += a.x * b.y - a.y * b.x;
  }
  return s / 2;
}

// signed area of the triangle (origin, a, b) inside the disk of radius r about the origin
static double tri_in_disk(P2 a, P2 b, double r) {
  double dx = b.x - a.x, dy = b.y - a.y;
  double A = dx * dx + dy * dy, B = a.x * dx + a.y * dy, C = a.x * a.x + a.y * a.y - r * r;
  auto sector = [r](P2 p, P2 q) {  // sector of the angle from p to q
    return r * r / 2 * std::atan2(p.x * q.y - p.y * q.x, p.x * q.x + p.y * q.y);
  };
  auto tri = [](P2 p, P2 q) { return (p.x * q.y - p.y * q.x) / 2; };
  if (A == 0) {
    return 0;
  }
  double disc = B * B - A * C;
  if (disc <= 0) {  // the line misses the disk
    return sector(a, b);
  }
  double sq = std::sqrt(disc);
  double t0 = std::max(0.0, (-B - sq) / A), t1 = std::min(1.0, (-B + sq) / A);
  if (t0 >= t1) {  // the segment lies outside the disk
    return sector(a, b);
  }
  P2 p0 = {a.x + t0 * dx, a.y + t0 * dy}, p1 = {a.x + t1 * dx, a.y + t1 * dy};
  return sector(a, p0) + tri(p0, p1) + sector(p1, b);
}

double area_in_disk(const Polygon &p, double cx, double cy, double r) {
  double s = 0;
  for (size_t i = 0; i < p.size(); i++) {
    const P2 &a = p[i], &b = p[(i + 1) % p.size()];
    s += tri_in_disk({a.x - cx, a.y - cy}, {b.x - cx, b.y - cy}, r);
  }
  return s;
}

}  // namespace area2d
