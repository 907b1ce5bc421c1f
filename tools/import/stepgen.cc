// stepgen.cc: write the project's sample CAD parts as STEP files through OpenCASCADE.
//
//   vxc-stepgen DIR     writes DIR/NAME.step for every part below (millimetres)
//   vxc-stepgen --list  prints NAME and the closed-form volume in m^3 of each part
//   vxc-stepgen --sheet FILE  writes a STEP file holding one face and no solid (for tests)
//
// The closed forms are written here from the dimensions, independently of OCCT and of the
// importer, so the tests can hold an import against them.
#include <APIHeaderSection_MakeHeader.hxx>
#include <BRepAlgoAPI_Cut.hxx>
#include <BRepAlgoAPI_Fuse.hxx>
#include <BRepBuilderAPI_MakeEdge.hxx>
#include <BRepBuilderAPI_MakeWire.hxx>
#include <BRepOffsetAPI_ThruSections.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <BRepPrimAPI_MakeCone.hxx>
#include <BRepPrimAPI_MakeCylinder.hxx>
#include <BRepPrimAPI_MakeTorus.hxx>
#include <IFSelect_ReturnStatus.hxx>
#include <Interface_Static.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <STEPControl_Writer.hxx>
#include <StepData_StepModel.hxx>
#include <StepShape_ManifoldSolidBrep.hxx>
#include <TCollection_HAsciiString.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <XSControl_WorkSession.hxx>
#include <gp_Ax2.hxx>
#include <gp_Circ.hxx>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

struct Part {
  const char *name;
  const char *what;
  std::function<TopoDS_Shape()> make;  // millimetres
  double volume_m3;                    // closed form
};

const double PI = 3.14159265358979323846;
const double MM3 = 1e-9;  // m^3 per mm^3

TopoDS_Shape box(double x0, double y0, double z0, double x1, double y1, double z1) {
  return BRepPrimAPI_MakeBox(gp_Pnt(x0, y0, z0), gp_Pnt(x1, y1, z1)).Shape();
}

TopoDS_Shape cylinder(double x, double y, double z0, double r, double h) {
  return BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(x, y, z0), gp::DZ()), r, h).Shape();
}

// frustum along +z from z0, radius r0 at z0 and r1 at z0 + h
TopoDS_Shape frustum(double z0, double r0, double r1, double h) {
  return BRepPrimAPI_MakeCone(gp_Ax2(gp_Pnt(0, 0, z0), gp::DZ()), r0, r1, h).Shape();
}

TopoDS_Shape fuse(const TopoDS_Shape &a, const TopoDS_Shape &b) {
  return BRepAlgoAPI_Fuse(a, b).Shape();
}

TopoDS_Shape cut(const TopoDS_Shape &a, const TopoDS_Shape &b) {
  return BRepAlgoAPI_Cut(a, b).Shape();
}

double frustum_volume(double r0, double r1, double h) {
  return PI * h * (r0 * r0 + r0 * r1 + r1 * r1) / 3;
}

// area of the disk x^2 + y^2 <= r^2 inside the strip |x| <= w/2, y >= t, for a floor t
// below the strip's corners (t < sqrt(r^2 - w^2/4))
double keyway_area(double r, double w, double t) {
  double a = w / 2;
  double chord = a * std::sqrt(r * r - a * a) + r * r * std::asin(a / r);
  return chord - w * t;
}

TopoDS_Wire circle_wire(double z, double r) {
  gp_Circ c(gp_Ax2(gp_Pnt(0, 0, z), gp::DZ()), r);
  return BRepBuilderAPI_MakeWire(BRepBuilderAPI_MakeEdge(c).Edge()).Wire();
}

// a vase: a loft through circles of changing radius (a B-spline side, closed by two disks)
TopoDS_Shape vase() {
  BRepOffsetAPI_ThruSections loft(Standard_True, Standard_False);
  const double z[] = {0, 20, 40, 60}, r[] = {20, 28, 16, 22};
  for (int i = 0; i < 4; i++) {
    loft.AddWire(circle_wire(z[i], r[i]));
  }
  loft.Build();
  return loft.Shape();
}

std::vector<Part> parts() {
  std::vector<Part> p;
  p.push_back({"drilled-block",
               "80 x 60 x 30 mm block, a 16 mm through-hole and a 10 mm hole 12 mm deep",
               [] {
                 TopoDS_Shape b = box(-40, -30, 0, 40, 30, 30);
                 b = cut(b, cylinder(-15, 0, -1, 8, 32));
                 return cut(b, cylinder(20, 10, 18, 5, 13));
               },
               (80.0 * 60 * 30 - PI * 64 * 30 - PI * 25 * 12) * MM3});
  p.push_back({"stepped-shaft", "shaft of diameters 30, 20 and 12 mm, 40, 60 and 20 mm long",
               [] {
                 TopoDS_Shape s = fuse(cylinder(0, 0, 0, 15, 40), cylinder(0, 0, 40, 10, 60));
                 return fuse(s, cylinder(0, 0, 100, 6, 20));
               },
               PI * (225.0 * 40 + 100.0 * 60 + 36.0 * 20) * MM3});
  p.push_back({"cone-peg", "20 mm peg 50 mm long with a 15 mm cone tip",
               [] { return fuse(cylinder(0, 0, 0, 10, 50), frustum(50, 10, 0, 15)); },
               (PI * 100 * 50 + frustum_volume(10, 0, 15)) * MM3});
  p.push_back({"torus-ring", "torus ring, R 30 mm, r 6 mm",
               [] { return BRepPrimAPI_MakeTorus(gp_Ax2(gp::Origin(), gp::DZ()), 30, 6).Shape(); },
               2 * PI * PI * 30 * 36 * MM3});
  p.push_back({"keyway-shaft",
               "24 mm shaft 80 mm long, a 6 mm keyway 3.5 mm deep from z 20 to 60 mm",
               [] { return cut(cylinder(0, 0, 0, 12, 80), box(-3, 8.5, 20, 3, 20, 60)); },
               (PI * 144 * 80 - 40 * keyway_area(12, 6, 8.5)) * MM3});
  p.push_back({"peg", "the peg of data/peg.vxm: 40 mm shaft, 3 mm chamfer, 60 x 60 x 20 mm head",
               [] {
                 TopoDS_Shape s = fuse(frustum(0, 17, 20, 3), cylinder(0, 0, 3, 20, 97));
                 return fuse(s, box(-30, -30, 100, 30, 30, 120));
               },
               (frustum_volume(17, 20, 3) + PI * 400 * 97 + 60.0 * 60 * 20) * MM3});
  p.push_back({"hole-block",
               "the block of data/hole-block.vxm: 120 x 120 x 100 mm, a 41 mm hole 80 mm deep",
               [] { return cut(box(-60, -60, -100, 60, 60, 0), cylinder(0, 0, -80, 20.5, 81)); },
               (120.0 * 120 * 100 - PI * 20.5 * 20.5 * 80) * MM3});
  p.push_back(
      {"cross-bore", "40 x 50 x 60 mm block with a 20 mm hole along x (an axis other than z)",
       [] {
         gp_Ax2 ax(gp_Pnt(-21, 5, 30), gp::DX());
         return cut(box(-20, -25, 0, 20, 25, 60), BRepPrimAPI_MakeCylinder(ax, 10, 42).Shape());
       },
       (40.0 * 50 * 60 - PI * 100 * 40) * MM3});
  p.push_back({"vase",
               "free-form: a loft through circles of radius 20, 28, 16, 22 mm (B-spline side)",
               vase, 0});
  return p;
}

// give the one solid of the transferred shape its name in the STEP file
void name_solid(STEPControl_Writer &w, const char *name) {
  Handle(StepData_StepModel) model = w.Model();
  for (Standard_Integer i = 1; i <= model->NbEntities(); i++) {
    Handle(StepShape_ManifoldSolidBrep) b =
        Handle(StepShape_ManifoldSolidBrep)::DownCast(model->Value(i));
    if (!b.IsNull()) {
      b->SetName(new TCollection_HAsciiString(name));
    }
  }
}

// a 10 mm square face, no solid
int write_sheet(const char *path) {
  TopoDS_Shape box10 = box(0, 0, 0, 10, 10, 10);
  TopExp_Explorer ex(box10, TopAbs_FACE);
  STEPControl_Writer w;
  if (w.Transfer(ex.Current(), STEPControl_AsIs) != IFSelect_RetDone ||
      w.Write(path) != IFSelect_RetDone) {
    std::fprintf(stderr, "vxc-stepgen: %s: cannot write\n", path);
    return 1;
  }
  return 0;
}

int write_part(const Part &p, const std::string &dir) {
  TopoDS_Shape s = p.make();
  TopExp_Explorer ex(s, TopAbs_SOLID);
  if (!ex.More()) {
    std::fprintf(stderr, "vxc-stepgen: %s: OCCT built no solid\n", p.name);
    return 1;
  }
  STEPControl_Writer w;
  Interface_Static::SetCVal("write.step.unit", "MM");
  if (w.Transfer(TopoDS::Solid(ex.Current()), STEPControl_ManifoldSolidBrep) != IFSelect_RetDone) {
    std::fprintf(stderr, "vxc-stepgen: %s: STEP transfer failed\n", p.name);
    return 1;
  }
  name_solid(w, p.name);
  // a fixed header, so that the files are the same at every run
  APIHeaderSection_MakeHeader header(w.Model());
  header.SetName(new TCollection_HAsciiString(p.name));
  header.SetTimeStamp(new TCollection_HAsciiString("2026-01-01T00:00:00"));
  header.SetAuthorValue(1, new TCollection_HAsciiString("vxc-stepgen"));
  header.SetOrganizationValue(1, new TCollection_HAsciiString("vxc"));
  std::string path = dir + "/" + p.name + ".step";
  if (w.Write(path.c_str()) != IFSelect_RetDone) {
    std::fprintf(stderr, "vxc-stepgen: %s: cannot write\n", path.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '\0' || (std::strcmp(argv[1], "--sheet") == 0) != (argc == 3) ||
      argc > 3) {
    std::fprintf(stderr, "usage: vxc-stepgen DIR | --list | --sheet FILE\n");
    return 2;
  }
  Message::DefaultMessenger()->RemovePrinters(STANDARD_TYPE(Message_Printer));
  if (argc == 3) {
    return write_sheet(argv[2]);
  }
  std::vector<Part> ps = parts();
  if (std::strcmp(argv[1], "--list") == 0) {
    for (const Part &p : ps) {
      std::printf("%s %.17g %s\n", p.name, p.volume_m3, p.what);
    }
    return 0;
  }
  int status = 0;
  for (const Part &p : ps) {
    status |= write_part(p, argv[1]);
  }
  return status;
}
