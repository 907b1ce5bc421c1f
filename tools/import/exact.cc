// exact.cc: recognise a solid as a stack of slabs along one axis (cut at every vertex height and
// every plane across the axis) and write each slab as a cell. Inside a slab every side face is
// a plane parallel to the axis, a cylinder along it, or a cone, sphere or torus about it; a
// plane is an outer side when the slab's cross-section lies on its material side, otherwise it
// bounds a pocket (the pocket's planes, joined by shared edges, make one box); a cylinder is
// the outer side when the material is inside it and a hole otherwise. Volumes are the closed
// forms of the cells written: cross-section area (exact, lines and circles) times height, or
// the frustum, spherical segment and torus slice formulas.
#include "tools/import/exact.h"

#include "tools/import/area2d.h"

#include <BRepAdaptor_Curve.hxx>
#include <BRepAdaptor_Surface.hxx>
#include <BRepAlgoAPI_Section.hxx>
#include <BRepBndLib.hxx>
#include <BRepBuilderAPI_Transform.hxx>
#include <BRepTools.hxx>
#include <BRep_Tool.hxx>
#include <Bnd_Box.hxx>
#include <TopExp.hxx>
#include <TopExp_Explorer.hxx>
#include <TopTools_IndexedDataMapOfShapeListOfShape.hxx>
#include <TopTools_ListOfShape.hxx>
#include <TopoDS.hxx>
#include <gp_Ax3.hxx>
#include <gp_Quaternion.hxx>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <functional>
#include <numeric>

namespace {

const double PI = 3.14159265358979323846;
const double ANG = 1e-9;  // tolerance on direction cosines

enum Kind { PLANE, CYL, CONE, SPHERE, TORUS, OTHER };
const char *kind_name[] = {"plane", "cylinder", "cone", "sphere", "torus", "other"};

struct FaceInfo {
  TopoDS_Face face;
  Kind kind = OTHER;
  std::string type;  // the surface type's name, for reports
  gp_Dir n;          // plane: outward normal (material where n.p <= d)
  double d = 0;
  gp_Ax1 axis;          // cylinder, cone, torus axis; sphere centre in axis.Location()
  double r = 0, R = 0;  // radius (cone: at the axis location), torus major radius R
  double semi = 0;      // cone half-angle, radians, signed as OCCT has it
  bool inside = false;  // curved: the material is inside the surface
  double zlo = 0, zhi = 0;
};

FaceInfo analyse(const TopoDS_Face &f) {
  FaceInfo fi;
  fi.face = f;
  BRepAdaptor_Surface s(f);
  double u0, u1, v0, v1;
  BRepTools::UVBounds(f, u0, u1, v0, v1);
  gp_Pnt p;
  gp_Vec du, dv;
  s.D1((u0 + u1) / 2, (v0 + v1) / 2, p, du, dv);
  gp_Vec nv = du.Crossed(dv);
  if (f.Orientation() == TopAbs_REVERSED) {
    nv.Reverse();
  }
  auto radial = [&p](const gp_Ax1 &ax) {
    gp_Vec w(ax.Location(), p);
    gp_Vec a(ax.Direction());
    return w - a * w.Dot(a);
  };
  switch (s.GetType()) {
    case GeomAbs_Plane:
      fi.kind = PLANE;
      fi.n = gp_Dir(nv);
      fi.d = gp_Vec(p.XYZ()).Dot(gp_Vec(fi.n));
      break;
    case GeomAbs_Cylinder:
      fi.kind = CYL;
      fi.axis = s.Cylinder().Axis();
      fi.r = s.Cylinder().Radius();
      fi.inside = nv.Dot(radial(fi.axis)) > 0;
      break;
    case GeomAbs_Cone:
      fi.kind = CONE;
      fi.axis = s.Cone().Axis();
      fi.r = s.Cone().RefRadius();
      fi.semi = s.Cone().SemiAngle();
      fi.inside = nv.Dot(radial(fi.axis)) > 0;
      break;
    case GeomAbs_Sphere:
      fi.kind = SPHERE;
      fi.axis = gp_Ax1(s.Sphere().Location(), gp::DZ());
      fi.r = s.Sphere().Radius();
      fi.inside = nv.Dot(gp_Vec(fi.axis.Location(), p)) > 0;
      break;
    case GeomAbs_Torus: {
      fi.kind = TORUS;
      fi.axis = s.Torus().Axis();
      fi.R = s.Torus().MajorRadius();
      fi.r = s.Torus().MinorRadius();
      gp_Vec rad = radial(fi.axis);
      gp_Pnt tube = p.Translated(-rad + rad.Normalized() * fi.R);
      fi.inside = nv.Dot(gp_Vec(tube, p)) > 0;
      break;
    }
    default:
      fi.kind = OTHER;
      break;
  }
  static const char *names[] = {"plane",    "cylinder",   "cone",      "sphere", "torus", "Bezier",
                                "B-spline", "revolution", "extrusion", "offset", "other"};
  int t = (int)s.GetType();
  fi.type = t >= 0 && t <= 10 ? names[t] : "other";
  Bnd_Box b;
  BRepBndLib::AddOptimal(f, b, Standard_False, Standard_False);
  double x0, y0, x1, y1;
  b.Get(x0, y0, fi.zlo, x1, y1, fi.zhi);
  return fi;
}

std::vector<FaceInfo> analyse_all(const TopoDS_Shape &s) {
  std::vector<FaceInfo> v;
  for (TopExp_Explorer ex(s, TopAbs_FACE); ex.More(); ex.Next()) {
    v.push_back(analyse(TopoDS::Face(ex.Current())));
  }
  return v;
}

bool parallel(const gp_Dir &a, const gp_Dir &b) {
  return std::fabs(a.Dot(b)) > 1 - ANG;
}
bool across(const gp_Dir &a, const gp_Dir &b) {
  return std::fabs(a.Dot(b)) < ANG;
}

bool fits(const std::vector<FaceInfo> &fs, const gp_Dir &d) {
  for (const FaceInfo &f : fs) {
    bool ok =
        f.kind == SPHERE || (f.kind == PLANE && (parallel(f.n, d) || across(f.n, d))) ||
        ((f.kind == CYL || f.kind == CONE || f.kind == TORUS) && parallel(f.axis.Direction(), d));
    if (!ok) {
      return false;
    }
  }
  return true;
}

// an axis along which every face is a cut plane, parallel to the axis, or about it
bool find_axis(const TopoDS_Shape &s, const std::vector<FaceInfo> &fs, gp_Dir &axis) {
  std::vector<gp_Dir> cand = {gp::DZ(), gp::DX(), gp::DY()};
  for (const FaceInfo &f : fs) {
    cand.push_back(f.kind == PLANE ? f.n : f.axis.Direction());
  }
  for (TopExp_Explorer ex(s, TopAbs_EDGE); ex.More(); ex.Next()) {
    BRepAdaptor_Curve c(TopoDS::Edge(ex.Current()));
    if (c.GetType() == GeomAbs_Line) {
      cand.push_back(c.Line().Direction());
    }
  }
  for (gp_Dir d : cand) {
    if (fits(fs, d)) {
      axis = d;
      return true;
    }
  }
  return false;
}

// the shortest decimal that reads back as v
std::string num(double v) {
  char b[40];
  for (int prec = 15; prec <= 17; prec++) {
    std::snprintf(b, sizeof b, "%.*g", prec, v == 0 ? 0.0 : v);
    if (std::strtod(b, nullptr) == v) {
      break;
    }
  }
  return b;
}

// (move (translate X Y Z) SHAPE), or SHAPE when the translation is zero
std::string moved(const std::string &x, const std::string &y, const std::string &z,
                  const std::string &shape) {
  if (x == "0" && y == "0" && z == "0") {
    return shape;
  }
  return "(move (translate " + x + " " + y + " " + z + ") " + shape + ")";
}

struct Slab {
  double z0, z1;
  std::string shapes;  // without the slab
  std::string what;    // for the report: "cone", "4 planes - 2 holes", ...
  double area = 0;     // prisms: cross-section, mm^2
  double volume = 0;   // mm^3
};

class Decomposer {
 public:
  Decomposer(const TopoDS_Shape &local, double scale) : s_(local), k_(scale) {
    faces_ = analyse_all(local);
    TopExp::MapShapesAndAncestors(local, TopAbs_EDGE, TopAbs_FACE, edge_faces_);
    Bnd_Box b;
    BRepBndLib::Add(local, b);
    double x0, y0, z0, x1, y1, z1;
    b.Get(x0, y0, z0, x1, y1, z1);
    diag_ = std::sqrt(b.SquareExtent());
    double m = std::max(
        {std::fabs(x0), std::fabs(y0), std::fabs(z0), std::fabs(x1), std::fabs(y1), std::fabs(z1)});
    big_ = 4 * (diag_ + m);
    tol_ = 1e-7 * diag_;
  }
  bool run(std::vector<Slab> &out, std::string &why);

 private:
  const TopoDS_Shape &s_;
  double k_;
  std::vector<FaceInfo> faces_;
  TopTools_IndexedDataMapOfShapeListOfShape edge_faces_;
  double diag_, big_, tol_;

  std::vector<double> cuts() const;
  std::vector<gp_Pnt> section(double z) const;
  bool slab(double z0, double z1, Slab &sl, std::string &why) const;
  bool revolved(const FaceInfo &f, Slab &sl, std::string &why) const;
  bool prism(const std::vector<const FaceInfo *> &side, double z, Slab &sl, std::string &why) const;
  bool adjacent(const TopoDS_Face &a, const TopoDS_Face &b) const;
  std::string L(double mm) const {
    return num(mm * k_);
  }
};

std::vector<double> Decomposer::cuts() const {
  std::vector<double> z;
  for (TopExp_Explorer ex(s_, TopAbs_VERTEX); ex.More(); ex.Next()) {
    z.push_back(BRep_Tool::Pnt(TopoDS::Vertex(ex.Current())).Z());
  }
  for (const FaceInfo &f : faces_) {
    if (f.kind == PLANE && parallel(f.n, gp::DZ())) {
      z.push_back(f.d * f.n.Z());
    } else if (f.kind == SPHERE || f.kind == TORUS) {
      z.push_back(f.axis.Location().Z() - f.r);
      z.push_back(f.axis.Location().Z() + f.r);
    }
  }
  std::sort(z.begin(), z.end());
  std::vector<double> u;
  for (double v : z) {
    if (u.empty() || v - u.back() > tol_) {
      u.push_back(v);
    }
  }
  return u;
}

std::vector<gp_Pnt> Decomposer::section(double z) const {
  std::vector<gp_Pnt> pts;
  BRepAlgoAPI_Section sec(s_, gp_Pln(gp_Pnt(0, 0, z), gp::DZ()), Standard_True);
  for (TopExp_Explorer ex(sec.Shape(), TopAbs_EDGE); ex.More(); ex.Next()) {
    BRepAdaptor_Curve c(TopoDS::Edge(ex.Current()));
    for (int i = 0; i <= 32; i++) {
      pts.push_back(
          c.Value(c.FirstParameter() + i * (c.LastParameter() - c.FirstParameter()) / 32));
    }
  }
  return pts;
}

bool Decomposer::adjacent(const TopoDS_Face &a, const TopoDS_Face &b) const {
  for (TopExp_Explorer ex(a, TopAbs_EDGE); ex.More(); ex.Next()) {
    const TopTools_ListOfShape &l = edge_faces_.FindFromKey(ex.Current());
    for (TopTools_ListOfShape::Iterator it(l); it.More(); it.Next()) {
      if (it.Value().IsSame(b)) {
        return true;
      }
    }
  }
  return false;
}

bool Decomposer::revolved(const FaceInfo &f, Slab &sl, std::string &why) const {
  const gp_Pnt c = f.axis.Location();
  double h = sl.z1 - sl.z0;
  if (f.kind == CONE) {
    double slope = f.axis.Direction().Z() * std::tan(f.semi);  // dr/dz
    auto radius = [&](double z) { return f.r + (z - c.Z()) * slope; };
    double r0 = radius(sl.z0), r1 = radius(sl.z1), za = c.Z() - f.r / slope;
    if (r0 < -tol_ || r1 < -tol_) {
      why = "a cone's apex lies inside its slab";
      return false;
    }
    sl.volume = PI * h * (r0 * r0 + r0 * r1 + r1 * r1) / 3;
    sl.what = "cone";
    sl.shapes = std::string("(move ") + (slope < 0 ? "(rotate x 180) " : "") + "(translate " +
                L(c.X()) + " " + L(c.Y()) + " " + L(za) + ") (cone " +
                num(std::fabs(f.semi) * 180 / PI) + "))";
  } else if (f.kind == SPHERE) {
    double r = f.r, t0 = sl.z0 - c.Z(), t1 = sl.z1 - c.Z();
    sl.volume = PI * (r * r * (t1 - t0) - (t1 * t1 * t1 - t0 * t0 * t0) / 3);
    sl.what = "sphere";
    sl.shapes = moved(L(c.X()), L(c.Y()), L(c.Z()), "(sphere " + L(r) + ")");
  } else {
    double r = f.r;
    auto F = [r](double t) {
      t = std::max(-r, std::min(r, t));
      return (t * std::sqrt(r * r - t * t) + r * r * std::asin(t / r)) / 2;
    };
    sl.volume = 4 * PI * f.R * (F(sl.z1 - c.Z()) - F(sl.z0 - c.Z()));
    sl.what = "torus";
    sl.shapes = moved(L(c.X()), L(c.Y()), L(c.Z()), "(torus " + L(f.R) + " " + L(r) + ")");
  }
  return true;
}

bool Decomposer::slab(double z0, double z1, Slab &sl, std::string &why) const {
  sl.z0 = z0;
  sl.z1 = z1;
  double zm = (z0 + z1) / 2;
  std::vector<const FaceInfo *> side;
  for (const FaceInfo &f : faces_) {
    bool cut = f.kind == PLANE && parallel(f.n, gp::DZ());
    if (!cut && f.zlo < zm && zm < f.zhi) {
      side.push_back(&f);
    }
  }
  if (side.empty()) {
    sl.shapes.clear();  // outside the solid
    return true;
  }
  for (const FaceInfo *f : side) {
    if (f->kind == CONE || f->kind == SPHERE || f->kind == TORUS) {
      bool alone = std::all_of(side.begin(), side.end(), [f](const FaceInfo *g) {
        return g->kind == f->kind && g->axis.Location().Distance(f->axis.Location()) < 1e-9 &&
               std::fabs(g->r - f->r) < 1e-9 && std::fabs(g->semi - f->semi) < 1e-12;
      });
      if (!f->inside || !alone) {
        why = std::string("a ") + kind_name[f->kind] +
              (f->inside ? " shares a slab with other side faces" : " bounds a hole") + " (z " +
              num(z0) + " to " + num(z1) + " mm)";
        return false;
      }
      return revolved(*f, sl, why);
    }
  }
  return prism(side, zm, sl, why);
}

struct HalfPlane {
  double nx, ny, d;  // nx x + ny y <= d
};

area2d::Polygon clip_all(area2d::Polygon p, const std::vector<HalfPlane> &hs) {
  for (const HalfPlane &h : hs) {
    p = area2d::clip(p, h.nx, h.ny, h.d);
  }
  return p;
}

struct Disk {
  double x, y, r;
};

bool same_disk(const Disk &a, const Disk &b) {
  return std::fabs(a.x - b.x) < 1e-9 && std::fabs(a.y - b.y) < 1e-9 && std::fabs(a.r - b.r) < 1e-9;
}

struct Pocket {
  std::vector<const FaceInfo *> faces;
  std::vector<HalfPlane> hs;  // the void: intersection of these
  std::string shape;
};


// the pocket's planes as a box: at most two directions, at right angles
bool pocket_box(Pocket &pk, double big, const std::function<std::string(double)> &L,
                std::string &why) {
  std::vector<gp_Dir> u;
  std::vector<double> lo, hi;
  for (const FaceInfo *f : pk.faces) {
    gp_Dir n(f->n.X(), f->n.Y(), 0);
    size_t k = 0;
    while (k < u.size() && !parallel(u[k], n)) {
      k++;
    }
    if (k == u.size()) {
      u.push_back(n);
      lo.push_back(-big);
      hi.push_back(big);
    }
    if (n.Dot(u[k]) > 0) {  // void where u.p >= d
      lo[k] = std::max(lo[k], f->d);
    } else {
      hi[k] = std::min(hi[k], -f->d);
    }
  }
  if (u.size() > 2 || (u.size() == 2 && !across(u[0], u[1]))) {
    why = "a pocket's side planes are not two pairs at right angles";
    return false;
  }
  if (u.size() == 1) {
    u.push_back(gp_Dir(-u[0].Y(), u[0].X(), 0));
    lo.push_back(-big);
    hi.push_back(big);
  }
  for (int k = 0; k < 2; k++) {
    pk.hs.push_back({-u[k].X(), -u[k].Y(), -lo[k]});
    pk.hs.push_back({u[k].X(), u[k].Y(), hi[k]});
  }
  double cx = 0, cy = 0;
  for (int k = 0; k < 2; k++) {
    cx += u[k].X() * (lo[k] + hi[k]) / 2;
    cy += u[k].Y() * (lo[k] + hi[k]) / 2;
  }
  double deg = std::atan2(u[0].Y(), u[0].X()) * 180 / PI;
  pk.shape = "(not (move " + (deg == 0 ? std::string() : "(rotate z " + num(deg) + ") ") +
             "(translate " + L(cx) + " " + L(cy) + " 0) (box " + L(hi[0] - lo[0]) + " " +
             L(hi[1] - lo[1]) + " " + L(2 * big) + ")))";
  return true;
}

bool Decomposer::prism(const std::vector<const FaceInfo *> &side, double zm, Slab &sl,
                       std::string &why) const {
  std::vector<gp_Pnt> pts = section(zm);
  std::vector<HalfPlane> outer;
  std::vector<const FaceInfo *> pocket_faces;
  std::vector<Disk> disks, holes;
  for (const FaceInfo *f : side) {
    if (f->kind == CYL) {
      Disk dk = {f->axis.Location().X(), f->axis.Location().Y(), f->r};
      std::vector<Disk> &to = f->inside ? disks : holes;
      if (std::none_of(to.begin(), to.end(), [&](const Disk &o) { return same_disk(o, dk); })) {
        to.push_back(dk);
      }
      continue;
    }
    bool out = std::all_of(pts.begin(), pts.end(), [&](const gp_Pnt &p) {
      return f->n.X() * p.X() + f->n.Y() * p.Y() <= f->d + tol_;
    });
    if (out) {
      outer.push_back({f->n.X(), f->n.Y(), f->d});
    } else {
      pocket_faces.push_back(f);
    }
  }
  std::string at = " (z " + num(sl.z0) + " to " + num(sl.z1) + " mm)";
  if (disks.size() > 1) {
    why = "two outer cylinders in one slab" + at;
    return false;
  }
  area2d::Polygon P = clip_all(area2d::square(big_), outer);
  for (const area2d::P2 &v : P) {
    if (disks.empty() && std::max(std::fabs(v.x), std::fabs(v.y)) > big_ * (1 - 1e-9)) {
      why = "the cross-section is open" + at;
      return false;
    }
  }
  auto in_outer = [&](const area2d::Polygon &p) {
    return disks.empty() ? area2d::area(p)
                         : area2d::area_in_disk(p, disks[0].x, disks[0].y, disks[0].r);
  };
  double area = in_outer(P);
  std::string shapes;
  for (const HalfPlane &h : outer) {
    shapes += " (halfspace " + num(h.nx) + " " + num(h.ny) + " 0 " + L(h.d) + ")";
  }
  for (const Disk &dk : disks) {
    shapes += " " + moved(L(dk.x), L(dk.y), "0", "(cylinder " + L(dk.r) + ")");
  }
  for (const Disk &hd : holes) {
    bool inside = std::all_of(outer.begin(), outer.end(), [&](const HalfPlane &h) {
      return h.nx * hd.x + h.ny * hd.y + hd.r <= h.d + tol_;
    });
    for (const Disk &dk : disks) {
      inside = inside && std::hypot(hd.x - dk.x, hd.y - dk.y) + hd.r <= dk.r + tol_;
    }
    for (const Disk &o : holes) {
      inside = inside && (&o == &hd || std::hypot(hd.x - o.x, hd.y - o.y) >= hd.r + o.r - tol_);
    }
    if (!inside) {
      why = "a hole of radius " + num(hd.r) + " mm cuts the outer side or another hole" + at;
      return false;
    }
    area -= PI * hd.r * hd.r;
    shapes += " (not " + moved(L(hd.x), L(hd.y), "0", "(cylinder " + L(hd.r) + ")") + ")";
  }
  // pockets: planes joined by shared edges
  std::vector<Pocket> pockets;
  std::vector<int> group(pocket_faces.size(), -1);
  for (size_t i = 0; i < pocket_faces.size(); i++) {
    if (group[i] < 0) {
      group[i] = (int)pockets.size();
      pockets.push_back({});
      std::vector<size_t> stack = {i};
      while (!stack.empty()) {
        size_t a = stack.back();
        stack.pop_back();
        pockets.back().faces.push_back(pocket_faces[a]);
        for (size_t b = 0; b < pocket_faces.size(); b++) {
          if (group[b] < 0 && adjacent(pocket_faces[a]->face, pocket_faces[b]->face)) {
            group[b] = group[i];
            stack.push_back(b);
          }
        }
      }
    }
  }
  auto Lf = [this](double v) { return L(v); };
  double atol = 1e-9 * diag_ * diag_;
  for (size_t i = 0; i < pockets.size(); i++) {
    if (!pocket_box(pockets[i], big_, Lf, why)) {
      why += at;
      return false;
    }
    area2d::Polygon Q = clip_all(P, pockets[i].hs);
    for (const Disk &hd : holes) {
      if (area2d::area_in_disk(Q, hd.x, hd.y, hd.r) > atol) {
        why = "a hole meets a pocket" + at;
        return false;
      }
    }
    for (size_t j = 0; j < i; j++) {
      if (in_outer(clip_all(Q, pockets[j].hs)) > atol) {
        why = "two pockets overlap" + at;
        return false;
      }
    }
    area -= in_outer(Q);
    shapes += " " + pockets[i].shape;
  }
  sl.shapes = shapes.substr(1);
  auto count = [](size_t n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  sl.what = outer.empty() ? "" : count(outer.size(), "plane", "planes");
  sl.what += disks.empty() ? "" : std::string(outer.empty() ? "" : " and ") + "cylinder";
  sl.what += holes.empty() ? "" : " - " + count(holes.size(), "hole", "holes");
  sl.what += pockets.empty() ? "" : " - " + count(pockets.size(), "pocket", "pockets");
  sl.area = area;
  sl.volume = area * (sl.z1 - sl.z0);
  return true;
}

bool Decomposer::run(std::vector<Slab> &out, std::string &why) {
  for (const FaceInfo &f : faces_) {
    if (f.kind == OTHER) {
      why = "a face is a " + f.type + " surface";
      return false;
    }
  }
  std::vector<double> z = cuts();
  for (size_t i = 0; i + 1 < z.size(); i++) {
    Slab sl;
    if (!slab(z[i], z[i + 1], sl, why)) {
      return false;
    }
    if (sl.shapes.empty()) {
      continue;
    }
    if (!out.empty() && out.back().shapes == sl.shapes && out.back().z1 == sl.z0) {
      out.back().z1 = sl.z1;
      out.back().volume += sl.volume;
    } else {
      out.push_back(sl);
    }
  }
  if (out.empty()) {
    why = "no slab has side faces";
    return false;
  }
  return true;
}

}  // namespace

ExactResult exact_cells(const TopoDS_Solid &s, double scale) {
  ExactResult res;
  std::vector<FaceInfo> fs = analyse_all(s);
  gp_Dir axis;
  for (const FaceInfo &f : fs) {
    if (f.kind == OTHER) {
      res.ok = false;
      res.why = "a face is a " + f.type + " surface";
      return res;
    }
  }
  if (!find_axis(s, fs, axis)) {
    res.ok = false;
    res.why = "no axis along which every face is across, parallel to or about it";
    return res;
  }
  gp_Trsf T;  // world -> the frame whose z is the axis
  std::string pose;
  if (!parallel(axis, gp::DZ())) {
    T.SetTransformation(gp_Ax3(gp::Origin(), axis));
    gp_Quaternion q = T.Inverted().GetRotation();
    pose = " (pose (quat " + num(q.W()) + " " + num(q.X()) + " " + num(q.Y()) + " " + num(q.Z()) +
           "))";
  }
  TopoDS_Shape local = BRepBuilderAPI_Transform(s, T, Standard_True).Shape();
  Decomposer dec(local, scale);
  std::vector<Slab> slabs;
  res.ok = dec.run(slabs, res.why);
  if (!res.ok) {
    return res;
  }
  char axis_s[120];
  std::snprintf(axis_s, sizeof axis_s, "along (%.6g, %.6g, %.6g):", axis.X(), axis.Y(), axis.Z());
  res.why = parallel(axis, gp::DZ()) ? "along z:" : axis_s;
  for (const Slab &sl : slabs) {
    std::string shapes =
        "(slab z " + num(sl.z0 * scale) + " " + num(sl.z1 * scale) + ") " + sl.shapes + pose;
    res.cells.push_back({shapes, sl.volume * scale * scale * scale});
    res.why += (&sl == &slabs[0] ? " " : "; ") + num(sl.z0) + ".." + num(sl.z1) + " mm " + sl.what;
  }
  return res;
}
