// step_read.cc: read a STEP file with STEPControl_Reader; the names of solids come from the
// STEP representation items the transfer made them from.
#include "tools/import/step_read.h"

#include "tools/import/guard.h"

#include <IFSelect_ReturnStatus.hxx>
#include <Interface_Check.hxx>
#include <Interface_CheckIterator.hxx>
#include <STEPControl_Reader.hxx>
#include <StepRepr_RepresentationItem.hxx>
#include <TColStd_SequenceOfAsciiString.hxx>
#include <TCollection_HAsciiString.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <Transfer_TransientProcess.hxx>
#include <XSControl_TransferReader.hxx>
#include <XSControl_WorkSession.hxx>

#include <fstream>
#include <set>
#include <stdexcept>

namespace {

[[noreturn]] void fail(const std::string &path, const std::string &what) {
  throw std::runtime_error(path + ": " + what);
}

// STEP files start with the ISO 10303-21 magic; OCCT accepts some garbage silently otherwise
void check_magic(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fail(path, "cannot open the file");
  }
  std::string head(64, '\0');
  in.read(&head[0], 64);
  head.resize(in.gcount());
  size_t i = head.find_first_not_of(" \t\r\n");
  if (i == std::string::npos || head.compare(i, 13, "ISO-10303-21;") != 0) {
    fail(path, "not a STEP file (it does not start with ISO-10303-21;)");
  }
}

// a truncated file lacks the trailer; OCCT would transfer what it read
void check_trailer(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  std::streamoff n = size < 256 ? size : 256;
  std::string tail(n, '\0');
  in.seekg(size - n);
  in.read(&tail[0], n);
  if (tail.find("END-ISO-10303-21;") == std::string::npos) {
    fail(path, "the STEP file ends before END-ISO-10303-21; (truncated?)");
  }
}

std::string entity_name(STEPControl_Reader &r, const TopoDS_Shape &s) {
  Handle(XSControl_TransferReader) tr = r.WS()->TransferReader();
  Handle(StepRepr_RepresentationItem) item =
      Handle(StepRepr_RepresentationItem)::DownCast(tr->EntityFromShapeResult(s, 1));
  if (item.IsNull() || item->Name().IsNull()) {
    return "";
  }
  return item->Name()->ToCString();
}

std::string unique(std::set<std::string> &seen, std::string name, size_t index) {
  if (name.empty()) {
    name = "solid" + std::to_string(index);
  }
  std::string u = name;
  for (int k = 2; seen.count(u); k++) {
    u = name + "-" + std::to_string(k);
  }
  seen.insert(u);
  return u;
}

}  // namespace

StepFile step_read(const std::string &path) {
  check_magic(path);
  check_trailer(path);
  LargestNumber largest = guard_numbers(path);
  STEPControl_Reader r;
  if (r.ReadFile(path.c_str()) != IFSelect_RetDone) {
    fail(path, "the STEP reader rejected the file (syntax errors)");
  }
  StepFile f;
  TColStd_SequenceOfAsciiString len, ang, sol;
  r.FileUnits(len, ang, sol);
  f.unit = len.IsEmpty() ? "MM" : len.First().ToCString();
  guard_entities(r, path);
  guard_magnitude(largest, guard_units(r, path), path);
  r.TransferRoots();
  std::set<std::string> seen;
  for (Standard_Integer i = 1; i <= r.NbShapes(); i++) {
    for (TopExp_Explorer ex(r.Shape(i), TopAbs_SOLID); ex.More(); ex.Next()) {
      StepSolid s;
      s.solid = TopoDS::Solid(ex.Current());
      s.name = unique(seen, entity_name(r, s.solid), f.solids.size() + 1);
      f.solids.push_back(s);
    }
  }
  if (f.solids.empty()) {
    fail(path, "no solid in the file (" + std::to_string(r.NbShapes()) +
                   " shapes transferred, none of them a closed solid)");
  }
  return f;
}
