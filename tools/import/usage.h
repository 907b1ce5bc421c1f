/* usage.h: the help of `vxc import` and the defaults it states, written once for vxc-import
 * (main.cc prints it) and for the vxc command (cmd_import.c checks a command line's options
 * against it, with a hint for a misspelt one, before it runs vxc-import). C and C++. */
#ifndef VXC_IMPORT_USAGE_H
#define VXC_IMPORT_USAGE_H

#define IMPORT_DEFLECTION 1e-4    /* default chordal deflection of a mesh, m */
#define IMPORT_MAX_TRIANGLES 1e6  /* default triangle budget of one solid */
#define IMPORT_STR_(x) #x
#define IMPORT_STR(x) IMPORT_STR_(x)

#define IMPORT_USAGE                                                                    \
  "usage: vxc import PART.step [-o PART.vxm] [--deflection D] [--exact|--mesh]\n"       \
  "                  [--density RHO] [--max-triangles N]\n\n"                           \
  "Writes a model file with one cell per STEP solid, named after the solid: exact\n"    \
  "quadric cells when the solid is a stack of convex prisms (planes, one cylinder)\n"   \
  "minus cylindrical holes and box pockets, or of cone, sphere and torus slices;\n"     \
  "otherwise a mesh cell (OBJ beside the model) tessellated by OpenCASCADE.\n\n"        \
  "  -o FILE         model file to write (default: PART.vxm beside PART.step)\n"        \
  "  --deflection D  mesh chordal deflection, metres (default " IMPORT_STR(            \
      IMPORT_DEFLECTION) ": 0.1 mm, or\n"                                               \
  "                  a hundredth of a smaller part's bounding box diagonal)\n"          \
  "  --exact         fail (exit 1) when a solid cannot become exact cells\n"            \
  "  --mesh          make every solid a mesh cell\n"                                    \
  "  --density RHO   write (density RHO), kg/m^3 (STEP files carry no material)\n"      \
  "  --max-triangles N\n"                                                               \
  "                  refuse a solid whose tessellation would have more than N\n"        \
  "                  triangles, estimated before it is made (default " IMPORT_STR(     \
      IMPORT_MAX_TRIANGLES) ")\n\n"                                                     \
  "Refused before any work: a length unit outside 1 nm to 1 km, a part beyond\n"        \
  "the 10 km workspace, a deflection not below a quarter of the part's size.\n"         \
  "A tessellation vxc would not accept (open, self-intersecting) is an error.\n\n"      \
  "Exit status: 0 written, 1 invalid input or a solid not exact under --exact,\n"       \
  "2 usage error.\n"

#endif /* VXC_IMPORT_USAGE_H */
