// area2d.h: exact areas of plane regions bounded by lines and circles (the cross-sections
// of prismatic cells). Lengths in any unit, areas in its square.
#ifndef VXC_IMPORT_AREA2D_H
#define VXC_IMPORT_AREA2D_H

#include <vector>

namespace area2d {

struct P2 {
  double x, y;
};
using Polygon = std::vector<P2>;  // convex, counter-clockwise

// the square [-h, h]^2
Polygon square(double h);
// the part of P where nx x + ny y <= d
Polygon clip(const Polygon &p, double nx, double ny, double d);
double area(const Polygon &p);
// area of P inside the disk of centre (cx, cy) and radius r
double area_in_disk(const Polygon &p, double cx, double cy, double r);

}  // namespace area2d

#endif
