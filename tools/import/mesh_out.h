// mesh_out.h: a solid tessellated by OCCT, its volume, and its Wavefront OBJ file.
#ifndef VXC_IMPORT_MESH_OUT_H
#define VXC_IMPORT_MESH_OUT_H

#include <TopoDS_Solid.hxx>

#include <array>
#include <string>
#include <vector>

struct TriMesh {
  std::vector<std::array<double, 3>> nodes;  // millimetres
  std::vector<std::array<int, 3>> tris;      // 0-based, counter-clockwise seen from outside
};

// Tessellates S with chordal deflection DEFLECTION_MM (absolute) and 0.5 rad angular
// deflection. Throws std::runtime_error when a face gets no triangulation.
TriMesh mesh_solid(const TopoDS_Solid &s, double deflection_mm);
// enclosed volume, mm^3 (divergence theorem)
double mesh_volume(const TriMesh &m);
// writes PATH (OBJ, millimetres) to a temporary file beside it (tools/outfile.h), checked
// and synced, renamed over PATH only by outputs_commit; false (after a message naming the
// file) when it cannot be written
bool mesh_write_obj(const TriMesh &m, const std::string &path, const std::string &comment);
// Renames every file written so far (the meshes, then `model`, a finished tools_file) over
// its path. Returns true, or false after a message. The model goes last: a reader of the
// model never finds its meshes missing.
struct tools_file;
bool outputs_commit(tools_file *model);
// Removes the temporary files of what was written (a later failure: nothing is replaced).
void outputs_discard();

#endif
