// guard.cc: the checks of guard.h, run before the work they protect.
#include "tools/import/guard.h"

#include "lib/vxc.h"

#include <BRepBndLib.hxx>
#include <BRepGProp.hxx>
#include <Bnd_Box.hxx>
#include <GProp_GProps.hxx>
#include <Interface_Check.hxx>
#include <Interface_CheckIterator.hxx>
#include <Interface_InterfaceModel.hxx>
#include <TCollection_HAsciiString.hxx>
#include <XSControl_WorkSession.hxx>
#include <STEPConstruct_UnitContext.hxx>
#include <StepGeom_GeomRepContextAndGlobUnitAssCtxAndGlobUncertaintyAssCtx.hxx>
#include <StepGeom_GeometricRepresentationContextAndGlobalUnitAssignedContext.hxx>
#include <StepRepr_GlobalUncertaintyAssignedContext.hxx>
#include <StepRepr_GlobalUnitAssignedContext.hxx>
#include <StepGeom_Curve.hxx>
#include <StepGeom_Pcurve.hxx>
#include <StepRepr_DefinitionalRepresentation.hxx>
#include <StepShape_OrientedEdge.hxx>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace {

[[noreturn]] void refuse(const std::string &path, const std::string &name, const char *fmt,
                         double a, double b = 0, double c = 0) {
  char what[400];
  std::snprintf(what, sizeof what, fmt, a, b, c);
  throw std::runtime_error(path + (name.empty() ? "" : ": solid " + name) + ": " + what);
}

// The unit contexts of every representation context in the model.
void unit_contexts(const Handle(Interface_InterfaceModel) & model,
                   std::vector<Handle(StepRepr_GlobalUnitAssignedContext)> &units,
                   std::vector<Handle(StepRepr_GlobalUncertaintyAssignedContext)> &tols) {
  for (Standard_Integer i = 1; i <= model->NbEntities(); i++) {
    Handle(Standard_Transient) e = model->Value(i);
    if (auto c = Handle(StepGeom_GeomRepContextAndGlobUnitAssCtxAndGlobUncertaintyAssCtx)::
            DownCast(e)) {
      units.push_back(c->GlobalUnitAssignedContext());
      tols.push_back(c->GlobalUncertaintyAssignedContext());
    } else if (auto g =
                   Handle(StepGeom_GeometricRepresentationContextAndGlobalUnitAssignedContext)::
                       DownCast(e)) {
      units.push_back(g->GlobalUnitAssignedContext());
    } else if (auto u = Handle(StepRepr_GlobalUnitAssignedContext)::DownCast(e)) {
      units.push_back(u);
    }
  }
}

std::string label_of(const Handle(Interface_InterfaceModel) & model,
                     const Handle(Standard_Transient) & e) {
  Handle(TCollection_HAsciiString) l = model->StringLabel(e);
  return l.IsNull() ? "#?" : l->ToCString();
}

// What the schema's types allow but OCCT's transfer cannot survive (each crashed it in the
// fuzz runs): a pcurve whose parameter-space representation holds something other than a
// curve, an oriented edge whose edge is itself an oriented edge (a chain that may loop).
void guard_structure(const Handle(Interface_InterfaceModel) & model, const std::string &path) {
  for (Standard_Integer i = 1; i <= model->NbEntities(); i++) {
    Handle(Standard_Transient) e = model->Value(i);
    if (auto pc = Handle(StepGeom_Pcurve)::DownCast(e)) {
      Handle(StepRepr_DefinitionalRepresentation) d = pc->ReferenceToCurve();
      for (Standard_Integer k = 1; !d.IsNull() && k <= d->NbItems(); k++) {
        if (Handle(StepGeom_Curve)::DownCast(d->ItemsValue(k)).IsNull()) {
          throw std::runtime_error(path + ": " + label_of(model, d) +
                                   ": a pcurve's representation holds an item that is not a "
                                   "curve (" + label_of(model, d->ItemsValue(k)) + ")");
        }
      }
    } else if (auto oe = Handle(StepShape_OrientedEdge)::DownCast(e)) {
      if (!Handle(StepShape_OrientedEdge)::DownCast(oe->EdgeElement()).IsNull()) {
        throw std::runtime_error(path + ": " + label_of(model, oe) +
                                 ": an oriented edge's edge is an oriented edge");
      }
    }
  }
}

}  // namespace

LargestNumber guard_numbers(const std::string &path) {
  LargestNumber big;
  std::ifstream in(path, std::ios::binary);
  std::string t((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t data = t.find("DATA;"); // the header's ISO-10303-21 is not a number
  data = data == std::string::npos ? 0 : data;
  int line = 1 + (int)std::count(t.begin(), t.begin() + (long)data, '\n');
  t.resize(std::min(t.size(), t.find("ENDSEC;", data))); // nor the trailer's
  std::string keyword; // the statement's first word (CARTESIAN_POINT, ...)
  for (size_t i = data; i < t.size(); i++) {
    char c = t[i];
    if (c == ';') {
      keyword.clear();
    } else if (std::isupper((unsigned char)c) && keyword.empty() &&
               !std::isalnum((unsigned char)t[i - 1])) {
      size_t e = i;
      while (e < t.size() && (std::isalnum((unsigned char)t[e]) || t[e] == '_')) {
        e++;
      }
      keyword = t.substr(i, e - i);
      i = e - 1;
    } else if (c == '\n') {
      line++;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      for (i += 2; i + 1 < t.size() && !(t[i] == '*' && t[i + 1] == '/'); i++) {
        line += t[i] == '\n';
      }
      i++;
    } else if ((std::isdigit((unsigned char)c) || c == '-' || c == '+' || c == '.') && i > 0 &&
               !std::isalnum((unsigned char)t[i - 1]) && t[i - 1] != '#' && t[i - 1] != '_' &&
               t[i - 1] != '.') {
      const char *b = t.c_str() + i;
      char *end;
      double x = std::strtod(b, &end);
      if (end == b) {
        continue;
      }
      if (keyword == "CARTESIAN_POINT" && std::fabs(x) > big.value) {
        big.value = std::fabs(x);
        big.line = line;
        big.text.assign(b, (size_t)std::min<long>(end - b, 40));
      }
      if (!(std::fabs(x) <= GUARD_NUMBER_MAX)) {
        char what[160];
        std::snprintf(what, sizeof what, ":%d: the number '%.*s' is %s", line,
                      (int)std::min<long>(end - b, 40), b,
                      std::isfinite(x) ? "beyond 1e20 in magnitude" : "not finite");
        throw std::runtime_error(path + what);
      }
      i += (size_t)(end - b) - 1;
    }
  }
  return big;
}

void guard_magnitude(const LargestNumber &n, double unit_m, const std::string &path) {
  double limit = 10 * GUARD_WORKSPACE / unit_m;
  if (n.value > limit) {
    char what[200];
    std::snprintf(what, sizeof what,
                  ":%d: the number '%s' is beyond %g, ten times the %g m workspace in the "
                  "file's unit",
                  n.line, n.text.c_str(), limit, GUARD_WORKSPACE);
    throw std::runtime_error(path + what);
  }
}

void guard_entities(STEPControl_Reader &r, const std::string &path) {
  Handle(Interface_InterfaceModel) model = r.Model();
  Handle(Interface_Check) global = model->GlobalCheck();
  if (!global.IsNull() && global->HasFailed()) { // an unresolved reference, a syntax error
    throw std::runtime_error(path + ": the STEP reader failed: " + global->CFail(1));
  }
  Interface_CheckIterator chl = r.WS()->ModelCheckList(Standard_False);
  int nfail = 0;
  std::string first;
  for (chl.Start(); chl.More(); chl.Next()) {
    const Handle(Interface_Check) &ch = chl.Value();
    Standard_Integer num = chl.Number();
    if (ch.IsNull() || !ch->HasFailed() || num <= 0 || num > model->NbEntities()) {
      continue;
    }
    std::string type = model->Value(num)->DynamicType()->Name();
    if (type.rfind("StepGeom_", 0) != 0 && type.rfind("StepShape_", 0) != 0 &&
        type.rfind("StepRepr_", 0) != 0 && type.rfind("StepBasic_", 0) != 0) {
      continue;
    }
    if (nfail++ == 0) {
      Handle(TCollection_HAsciiString) l = model->StringLabel(model->Value(num));
      std::string label = l.IsNull() ? "#?" : l->ToCString();
      first = label + ": " + ch->CFail(1);
    }
  }
  if (nfail > 0) {
    throw std::runtime_error(path + ": " + std::to_string(nfail) + " entit" +
                             (nfail == 1 ? "y does" : "ies do") +
                             " not read as the STEP schema wants; first " + first);
  }
  guard_structure(model, path);
}

double guard_units(STEPControl_Reader &r, const std::string &path) {
  std::vector<Handle(StepRepr_GlobalUnitAssignedContext)> units;
  std::vector<Handle(StepRepr_GlobalUncertaintyAssignedContext)> tols;
  unit_contexts(r.Model(), units, tols);
  double unit = 1e-3;
  for (size_t k = 0; k < units.size(); k++) {
    if (units[k].IsNull()) {
      continue;
    }
    STEPConstruct_UnitContext ctx;
    ctx.ComputeFactors(units[k]);
    if (!ctx.LengthDone()) {
      continue;
    }
    unit = ctx.LengthFactor() * 1e-3; // OCCT's factor takes the unit to millimetres
    double rad = ctx.PlaneAngleDone() ? ctx.PlaneAngleFactor() : 1;
    if (!(std::fabs(rad - 1) <= 1e-9 || std::fabs(rad * 180 / M_PI - 1) <= 1e-9)) {
      refuse(path, "", "plane angle unit of %g rad: vxc import takes radians or degrees", rad);
    }
    if (!(unit >= GUARD_UNIT_MIN && unit <= GUARD_UNIT_MAX)) {
      refuse(path, "", "length unit of %g m, outside the %g to %g m vxc import accepts", unit,
             GUARD_UNIT_MIN, GUARD_UNIT_MAX);
    }
    if (k < tols.size() && !tols[k].IsNull() && ctx.ComputeTolerance(tols[k]) == 0 &&
        ctx.HasUncertainty()) {
      double tol = ctx.Uncertainty() * unit; // in the file's unit, as metres
      if (!(tol > 0 && tol <= 1e-3)) {
        refuse(path, "", "length uncertainty of %g m (the healing tolerance) is not within "
               "(0, 1 mm]", tol);
      }
    }
  }
  return unit;
}

double guard_size(const TopoDS_Solid &s, const std::string &path, const std::string &name) {
  Bnd_Box b;
  BRepBndLib::AddOptimal(s, b, Standard_False, Standard_False);
  if (b.IsVoid()) {
    throw std::runtime_error(path + ": solid " + name + ": the solid has no extent");
  }
  double x0, y0, z0, x1, y1, z1;
  b.Get(x0, y0, z0, x1, y1, z1);
  double reach = 1e-3 * std::fmax(std::fmax(std::fmax(std::fabs(x0), std::fabs(x1)),
                                            std::fmax(std::fabs(y0), std::fabs(y1))),
                                  std::fmax(std::fabs(z0), std::fabs(z1)));
  if (!(reach <= GUARD_WORKSPACE)) {
    refuse(path, name, "the part reaches %g m from the origin, beyond vxc's %g m workspace "
           "(a unit mistake?)", reach, GUARD_WORKSPACE);
  }
  return std::sqrt(b.SquareExtent());
}

void guard_tessellation(const TopoDS_Solid &s, double deflection_mm, double size,
                        double max_triangles, const std::string &path, const std::string &name) {
  if (!(deflection_mm < size / 4)) {
    refuse(path, name, "deflection %g m is not below a quarter of the part's size %g m "
           "(its bounding box diagonal)", deflection_mm * 1e-3, size * 1e-3);
  }
  GProp_GProps g;
  BRepGProp::SurfaceProperties(s, g);
  double est = 4 * g.Mass() / (deflection_mm * size);
  if (!(est <= max_triangles)) {
    refuse(path, name, "deflection %g m would make about %.3g triangles (4 area / (deflection "
           "x size)), more than the %.3g allowed (--max-triangles)", deflection_mm * 1e-3, est,
           max_triangles);
  }
}

void guard_mesh(const TriMesh &m, double scale, const std::string &path, const std::string &name) {
  std::vector<double> v(3 * m.nodes.size());
  for (size_t i = 0; i < m.nodes.size(); i++) {
    for (int k = 0; k < 3; k++) {
      v[3 * i + k] = m.nodes[i][k] * scale;
    }
  }
  if (m.tris.empty()) {
    throw std::runtime_error(path + ": solid " + name + ": OpenCASCADE made no triangles");
  }
  vxc_solid *s = nullptr;
  vxc_error err;
  vxc_status st = vxc_solid_from_mesh(v.data(), (int)m.nodes.size(), &m.tris[0][0],
                                      (int)m.tris.size(), "import", nullptr, &s, &err);
  vxc_solid_free(s);
  if (st != VXC_OK) {
    throw std::runtime_error(path + ": solid " + name +
                             ": OpenCASCADE's tessellation is not a mesh vxc accepts (" +
                             err.message + "); try another --deflection");
  }
}
