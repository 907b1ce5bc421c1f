/* mesh_shapes.h: closed triangle meshes of CAD-like parts for the mesh family of `vxc bench`
 * (mesh_cases.c) and its tests: prisms of simple polygons (channels, pegs), a block with a
 * polygonal through-hole, tori; each non-convex one also as a list of convex pieces with
 * disjoint interiors whose union it is, so that the exact region of two such parts is a sum
 * of convex intersections (mesh_gen.h, mg_convex_meet_moments). Meshes are mg_mesh
 * (mesh_gen.h): vertices in metres, triangles counter-clockwise seen from outside, welded
 * (a vertex shared by faces is one index), closed and manifold. Also the plain OBJ reader
 * and writer the benchmark's peers share with it. Every builder returns 0, or -1 when out
 * of memory (what it built so far is freed). */
#ifndef VXC_MESH_SHAPES_H
#define VXC_MESH_SHAPES_H

#include <stdio.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include "tools/mesh_gen.h"

/* Pieces of a part: n convex closed meshes. */
typedef struct ms_pieces {
  mg_mesh *p;
  int n;
} ms_pieces;

void ms_pieces_free(ms_pieces *s);

/* The prism of the simple polygon poly (n vertices x, y, counter-clockwise, no three
 * consecutive collinear) between z0 < z1; its caps are triangulated by ear clipping. */
int ms_extrude(const double (*poly)[2], int n, double z0, double z1, mg_mesh *out);

/* A U-channel along z from z0 to z1: floor of thickness f under a gap of width w between
 * two walls of thickness t and height h (the floor's underside at y = 0, the gap centred on
 * x = 0); pieces (nullable): the left wall, the floor under the gap, the right wall. */
int ms_u_channel(double w, double t, double f, double h, double z0, double z1, mg_mesh *out,
                 ms_pieces *pieces);

/* An L-channel along z: legs of thickness t, the floor x in [0, a], y in [0, t], the wall x
 * in [0, t], y in [0, b]; pieces (nullable): the floor, the wall above it. */
int ms_l_channel(double a, double b, double t, double z0, double z1, mg_mesh *out,
                 ms_pieces *pieces);

/* A block |x|, |y| <= half, z0 <= z <= z1, with a through-hole along z that is the regular
 * n-gon (3 <= n <= 32) of circumradius r < half, centred on the axis, its first vertex at
 * angle phase (rad); pieces (nullable): n convex prisms, one per edge of the hole. The
 * phase must keep the hole's vertices off the block's diagonals. */
int ms_holed_block(double half, int n, double r, double phase, double z0, double z1, mg_mesh *out,
                   ms_pieces *pieces);

/* The regular n-gon prism of circumradius r, first vertex at angle phase, z0 <= z <= z1. */
int ms_ngon_prism(int n, double r, double phase, double z0, double z1, mg_mesh *out);

/* A torus about z, major radius R > r, tube radius r: nu steps around the axis, nv around
 * the tube, vertices on the exact torus (its faces are planar trapezoids, split in two);
 * pieces (nullable): the nu convex segments between consecutive meridian polygons. */
int ms_torus(double R, double r, int nu, int nv, mg_mesh *out, ms_pieces *pieces);

/* Moves every vertex of g: x -> Q x + p for the unit quaternion q = (w, x, y, z). */
void ms_transform(mg_mesh *g, const double p[3], const double q[4]);

/* A copy of g (0, or -1). */
int ms_copy(const mg_mesh *g, mg_mesh *out);

/* Writes g as OBJ (vertices with 17 digits: read back bitwise the same). 0, or -1 on a
 * write error. */
int ms_obj_write(FILE *f, const mg_mesh *g);

/* Reads the OBJ file `path` (v and f records; polygons fanned; f's v/vt/vn forms and
 * negative indices), vertices multiplied by `scale` and welded (equal coordinates are one
 * vertex, as OpenCASCADE's meshes repeat them face by face). 0; -1 when it cannot be read or is
 * malformed (msg gets file, line and what was wrong) or out of memory. */
int ms_obj_read(const char *path, double scale, mg_mesh *out, char *msg, size_t msg_len);

#endif /* VXC_MESH_SHAPES_H */
