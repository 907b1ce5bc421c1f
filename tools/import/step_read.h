// step_read.h: the solids of a STEP file, with their names, through OpenCASCADE.
#ifndef VXC_IMPORT_STEP_READ_H
#define VXC_IMPORT_STEP_READ_H

#include <TopoDS_Solid.hxx>

#include <string>
#include <vector>

struct StepSolid {
  std::string name;    // the STEP entity's name, or solidN when it has none; unique in the file
  TopoDS_Solid solid;  // millimetres (OCCT converts the file's unit)
};

struct StepFile {
  std::string unit;  // the file's length unit as the file names it ("MM", "INCH", ...)
  std::vector<StepSolid> solids;
};

// Reads PATH. Throws std::runtime_error with a message that names the file when it cannot be
// opened, is not STEP, is damaged (truncated), has a length unit or uncertainty out of
// range (guard_units, checked before OCCT heals the shapes) or holds no solid.
StepFile step_read(const std::string &path);

#endif
