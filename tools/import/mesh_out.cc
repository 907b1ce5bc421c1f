// mesh_out.cc: BRepMesh_IncrementalMesh per solid; each face's triangles in the solid's frame,
// turned over on reversed faces so that they all face outward.
#include "tools/import/mesh_out.h"

#include "tools/outfile.h"

#include <BRepMesh_IncrementalMesh.hxx>
#include <BRep_Tool.hxx>
#include <Poly_Triangulation.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Face.hxx>

#include <cstdio>
#include <stdexcept>

TriMesh mesh_solid(const TopoDS_Solid &s, double deflection_mm) {
  BRepMesh_IncrementalMesh(s, deflection_mm, Standard_False, 0.5, Standard_False);
  TriMesh m;
  int face = 0;
  for (TopExp_Explorer ex(s, TopAbs_FACE); ex.More(); ex.Next(), face++) {
    const TopoDS_Face &f = TopoDS::Face(ex.Current());
    TopLoc_Location loc;
    Handle(Poly_Triangulation) t = BRep_Tool::Triangulation(f, loc);
    if (t.IsNull()) {
      throw std::runtime_error("OCCT could not tessellate face " + std::to_string(face + 1) +
                               " (its mesher failed: short of memory, or a deflection too fine or too coarse)");
    }
    int base = (int)m.nodes.size();
    for (Standard_Integer i = 1; i <= t->NbNodes(); i++) {
      gp_Pnt p = t->Node(i).Transformed(loc.Transformation());
      m.nodes.push_back({p.X(), p.Y(), p.Z()});
    }
    bool rev = f.Orientation() == TopAbs_REVERSED;
    for (Standard_Integer i = 1; i <= t->NbTriangles(); i++) {
      Standard_Integer a, b, c;
      t->Triangle(i).Get(a, b, c);
      if (rev) {
        std::swap(b, c);
      }
      m.tris.push_back({base + a - 1, base + b - 1, base + c - 1});
    }
  }
  return m;
}

double mesh_volume(const TriMesh &m) {
  double v = 0;
  for (const auto &t : m.tris) {
    const auto &a = m.nodes[t[0]], &b = m.nodes[t[1]], &c = m.nodes[t[2]];
    v += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  return v / 6;
}

namespace {
std::vector<tools_file> pending;  // the meshes finished, awaiting outputs_commit
}

bool mesh_write_obj(const TriMesh &m, const std::string &path, const std::string &comment) {
  tools_file o;
  if (tools_file_open(&o, "vxc import", path.c_str(), TOOLS_FILE_ATOMIC) != 0) {
    return false;
  }
  std::fprintf(o.f, "# %s\n", comment.c_str());
  for (const auto &p : m.nodes) {
    std::fprintf(o.f, "v %.17g %.17g %.17g\n", p[0], p[1], p[2]);
  }
  for (const auto &t : m.tris) {
    std::fprintf(o.f, "f %d %d %d\n", t[0] + 1, t[1] + 1, t[2] + 1);
  }
  if (tools_file_finish(&o) != 0) {
    return false;
  }
  pending.push_back(o);
  return true;
}

bool outputs_commit(tools_file *model) {
  bool ok = true;
  for (tools_file &o : pending) {
    ok = ok && tools_file_commit(&o) == 0;
  }
  ok = ok && tools_file_commit(model) == 0;
  outputs_discard();
  tools_file_discard(model);
  return ok;
}

void outputs_discard() {
  for (tools_file &o : pending) {
    tools_file_discard(&o);
  }
  pending.clear();
}
