// guard.h: what a STEP part must be before vxc import works on it, each refusal a
// std::runtime_error whose message names the file (and the solid): a length unit and an
// uncertainty OpenCASCADE can heal at, a part inside vxc's workspace, a tessellation within
// a triangle budget, and a mesh that vxc itself accepts.
#ifndef VXC_IMPORT_GUARD_H
#define VXC_IMPORT_GUARD_H

#include "tools/import/mesh_out.h"
#include "tools/import/usage.h"

#include <STEPControl_Reader.hxx>
#include <TopoDS_Solid.hxx>

#include <string>

// Length units accepted (the unit's size in metres): a nanometre to a kilometre. Beyond,
// OCCT's shape healing works at absurd scales (an exametre unit crashes ShapeFix_Edge).
const double GUARD_UNIT_MIN = 1e-9, GUARD_UNIT_MAX = 1e3;
// The workspace: every coordinate of a part within this many metres of the origin (as the
// model reader's limit on lengths).
const double GUARD_WORKSPACE = 1e4;
// Default triangle budget of one solid's tessellation (estimated before it is made): a mesh
// of 1e6 triangles takes OCCT about 100 s and vxc about 250 MB.
const double GUARD_MAX_TRIANGLES = IMPORT_MAX_TRIANGLES;

// Every number of the STEP file at PATH's DATA section (outside comments; strings too, as a
// stray quote shifts where strings end, and a name's numbers are small) finite and at most
// GUARD_NUMBER_MAX in magnitude (1.E+999 reads as infinity, and OCCT then loops for
// minutes). Refuses the file naming the line. Call before ReadFile.
// Returns the largest magnitude of a CARTESIAN_POINT's numbers, with its line and text, for
// guard_magnitude.
const double GUARD_NUMBER_MAX = 1e20;
struct LargestNumber {
  double value = 0;
  int line = 0;
  std::string text;
};
LargestNumber guard_numbers(const std::string &path);

// The largest coordinate of the file's points (guard_numbers) within ten times the workspace
// in the file's length unit UNIT_M (metres): a B-spline pole at 2.5e15 mm kept OCCT busy past
// 10 s before the part's size could be checked. Refuses naming the line.
void guard_magnitude(const LargestNumber &n, double unit_m, const std::string &path);

// Every entity of the file read into R as the STEP schema wants it: OCCT's reader records a
// reference of the wrong type (a LINE whose direction names a point) as a failed check and
// leaves the reference null, which its transfer then dereferences (SIGSEGV). Refuses the
// file naming the first such entity (#N) and OCCT's complaint, when that entity is geometry,
// topology, a representation or a unit (StepGeom_, StepShape_, StepRepr_, StepBasic_ types;
// product and protocol records OCCT does not transfer are let be). A failed global check
// (a reference to an entity the file lacks) is refused too, and so are what the schema's
// types allow but OCCT's transfer does not survive: a pcurve's representation holding an
// item that is not a curve, an oriented edge of an oriented edge. Call after ReadFile.
void guard_entities(STEPControl_Reader &r, const std::string &path);

// The length unit (metres) of the file read into R, from its global unit contexts, checked
// against the range above, and its length uncertainty (OCCT's healing tolerance) checked to
// be positive and at most a millimetre, and the plane angle unit a radian or a degree (a
// milliradian made OCCT run for minutes). Call after ReadFile, before the transfer (which
// heals). Returns the unit in metres (1e-3 when the file names none).
double guard_units(STEPControl_Reader &r, const std::string &path);

// The solid's bounding box (mm, OCCT's session unit) inside the workspace. Returns its
// diagonal, mm.
double guard_size(const TopoDS_Solid &s, const std::string &path, const std::string &name);

// Before tessellating at DEFLECTION_MM: the deflection below a quarter of the part's size
// SIZE_MM (its bounding box diagonal D, as guard_size returns it), and the estimated triangle count 4 A / (deflection D) (A
// the surface area) within MAX_TRIANGLES. A sphere's fine tessellation has about A / (d D)
// triangles, the bundled vase's 4.1 to 4.4 times that (5,018 at 1e-4 m, 180,038 at 3e-6 m):
// the estimate is meant to be right within a factor of 4.
void guard_tessellation(const TopoDS_Solid &s, double deflection_mm, double size_mm,
                        double max_triangles, const std::string &path, const std::string &name);

// The tessellation as vxc will read it (millimetres scaled by SCALE to metres): closed,
// manifold, oriented, not self-intersecting (vxc_solid_from_mesh), so that no model is
// written that vxc check would reject.
void guard_mesh(const TriMesh &m, double scale, const std::string &path, const std::string &name);

#endif
