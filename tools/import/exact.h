// exact.h: a STEP solid as exact quadric cells of a model file, when it is a stack of slabs
// along one axis, each a convex prism (planes parallel to the axis and at most one coaxial
// cylinder) minus cylindrical holes and box-shaped pockets, or a solid of revolution (cone
// frustum, spherical segment, torus slice).
#ifndef VXC_IMPORT_EXACT_H
#define VXC_IMPORT_EXACT_H

#include <TopoDS_Solid.hxx>

#include <string>
#include <vector>

struct ExactCell {
  std::string shapes;  // the cell's shapes and pose in model-file grammar, metres
  double volume;       // closed form of what `shapes` describe, m^3
};

struct ExactResult {
  bool ok;
  std::string why;  // what the solid was recognised as, or why it was not
  std::vector<ExactCell> cells;
};

// S in millimetres; SCALE converts millimetres to metres (0.001).
ExactResult exact_cells(const TopoDS_Solid &s, double scale);

#endif
