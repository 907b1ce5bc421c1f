/* mesh_cases.h: the mesh family of `vxc bench --mesh` and of tests/test_mesh_oracle.c: pairs
 * of closed triangle meshes as CAD users bring them (icospheres, a box pressed into both
 * walls of a U-channel, a box in an L-channel's corner, tilted boxes on boxes, tori against
 * boxes and tori, N-gon pegs pressed into the walls of blocks with N-gon holes, the STEP peg
 * in its hole and the STEP vase on a table), each at a seeded random pose: a rigid motion
 * common to both solids (one of the 24 axis-aligned rotations in every other variant, as
 * users place parts) at one of several scales, and from the first variant on a randomised
 * depth of contact. Where the parts are unions of convex pieces (mesh_shapes.h) the exact
 * region is a sum of convex intersections (mesh_gen.h), a reference that needs no CGAL. */
#ifndef VXC_MESH_CASES_H
#define VXC_MESH_CASES_H

#include <stdint.h>

#include "tools/mesh_shapes.h"
#include "lib/vxc.h"

/* One solid: its mesh in its own frame, placed by pose; its convex pieces (same frame)
 * when it is not convex itself. */
typedef struct mc_solid {
  mg_mesh mesh;
  int convex;       /* 1: the mesh is its own one piece */
  ms_pieces pieces; /* n > 0 when the solid is a union of these convex pieces */
  vxc_pose pose;
} mc_solid;

/* How a case's exact region is known without CGAL. */
enum {
  MC_REF_NONE,   /* only by an exact polyhedral boolean (CGAL) */
  MC_REF_PIECES, /* both solids are unions of convex pieces: a sum of convex meets */
  MC_REF_CUT     /* B is convex and, of its faces, only the one on the plane through
                    cut_point (B's frame) normal to cut_normal crosses A */
};

typedef struct mc_case {
  char name[64];     /* e.g. "u-channel 0.5 mm #1" */
  const char *shape; /* the template's name, e.g. "u-channel 0.5 mm" */
  int variant;       /* 0: the nominal case; others randomised */
  int aligned;       /* 1: the common rotation maps axes onto axes */
  double scale;      /* lengths relative to the nominal case */
  mc_solid s[2];
  int ref;               /* MC_REF_* */
  double cut_point[3];   /* MC_REF_CUT, in B's frame, m */
} mc_case;

/* Meshes read from files for the STEP cases: NULL paths leave those cases out. */
typedef struct mc_inputs {
  const char *peg_obj[2];  /* the peg imported --mesh at deflections 1e-4 and 1e-5 (mm OBJ) */
  const char *hole_obj[2]; /* the hole block at the same deflections */
  const char *vase_obj;    /* data/step/vase.obj (mm) */
} mc_inputs;

/* The number of case templates (the cases of variant 0). */
int mc_templates(void);

/* Template t's name; a case's is this name, " #" and its variant. */
const char *mc_template_name(int t);

/* Builds template t's variant v (v = 0: nominal) drawn from seed. Returns 0; 1 when the
 * template's input files are not given (c untouched); -1 when a file cannot be read or is
 * malformed (msg says which and where) or out of memory. */
int mc_make(int t, int v, uint64_t seed, const mc_inputs *in, mc_case *c, char *msg,
            size_t msg_len);

void mc_free(mc_case *c);

/* The solid's mesh placed in the world (a copy; 0, or -1). */
int mc_world_mesh(const mc_solid *s, mg_mesh *out);

/* The exact interference of a case whose ref is not MC_REF_NONE, from the meshes' own
 * vertices (rounding apart): volume (m^3), centroid (world, m) and inertia about it (unit
 * density, m^5, row-major). Returns 0; 1 when the case has no such reference; -1 out of
 * memory. */
int mc_reference(const mc_case *c, double *volume, double centroid[3], double inertia[9]);

#endif /* VXC_MESH_CASES_H */
