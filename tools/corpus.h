/* corpus.h: the validation corpus of `vxc bench --corpus` and tests/test_corpus.c: seeded
 * random contacts over every family of shapes (spheres, ellipsoids, boxes, finite cylinders,
 * capped cones, a block with a cylindrical hole holding a ball or a rod, a convex mesh,
 * tori), posed axis-aligned
 * or generic, sized from 1 cm to 1 m and sunk 1e-5 to 1e-1 of their size, with reference
 * volumes computed here by an independent method (corpus.c): the overlap's chord along
 * parallel rays, each the exact length of the ray's interval inside both solids (roots of
 * the primitives' quadrics, and of a torus's quartic), integrated over the rays' plane by nested
 * adaptive Gauss-Kronrod quadrature; and a Monte Carlo estimate (points classified one by one) to
 * cross-check that reference. Plain C and the public API only. */
#ifndef VXC_CORPUS_H
#define VXC_CORPUS_H

#include <stdint.h>

#include "lib/vxc.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_SQRT1_2
#define M_SQRT1_2 0.70710678118654752440
#endif

enum { CX_SPHERE, CX_ELLIPSOID, CX_BOX, CX_CYLINDER, CX_CONE, CX_SLAB_Z, CX_POLY, CX_TORUS };

/* A primitive in its solid's frame: a (move (translate off)) shape; a[] as in the model
 * file (box: full edges; cone: half-angle in degrees; slab: lo, hi; torus: R, r, axis z);
 * CX_POLY: the convex mesh given by `np` face planes n . x <= d (4 doubles each). */
typedef struct cx_prim {
  int kind;
  int complement;
  double a[3];
  double off[3];
  const double *plane;
  int np;
} cx_prim;

/* A solid of one cell: up to 3 primitives intersected, placed by `pose`. */
typedef struct cx_solid {
  int nprim;
  cx_prim prim[3];
  vxc_pose pose;
  double radius; /* a bound on |x - pose.p| over the solid, m */
} cx_solid;

#define CX_FAMILIES 11
#define CX_FAM_TORUS 9 /* a torus on the table */
#define CX_FAM_ROD 10  /* a rod in a block's hole, against its wall */

/* One contact of the corpus. */
typedef struct cx_case {
  int family;         /* 0 .. CX_FAMILIES - 1 */
  const char *name;   /* the family's name */
  int aligned;        /* 1: every rotation a multiple of 90 degrees about the axes */
  double size, depth; /* the first solid's size and how deep the contact is, m */
  cx_solid s[2];
  double p_star[3]; /* the deepest point of the contact (world), where rays gather */
  double dir[3];    /* the rays' direction (unit, world) */
} cx_case;

/* The corpus's shared convex mesh (an icosphere of unit radius, level 2): vertices and
 * triangles as vxc_solid_from_mesh takes them, and its face planes. Built once; 0 on
 * success, -1 when out of memory. */
int cx_mesh_init(void);
void cx_mesh_free(void);

/* Case `index` of the corpus drawn from `seed` (the same pair always gives the same
 * case): of family index % CX_FAMILIES, its numbers drawn from (seed, index). */
void cx_make(uint64_t seed, int index, cx_case *c);
/* The case of `family` drawn from (seed, index): a case of a corpus that had fewer families
 * (case 762 of seed 1 when there were 10 is cx_make_family(1, 762, 762 % 10)). */
void cx_make_family(uint64_t seed, int index, int family, cx_case *c);

#define CX_PEERS 6

/* Case `index` (0 .. CX_PEERS - 1) of the peer set, the contacts other tools are timed on:
 * a sphere of radius 0.1 m 0.1, 1 and 10 mm into a plane; two spheres of radius 0.05 m
 * overlapping 2 mm; a finite cylinder (radius 0.05 m, length 0.2 m) lying 1 mm deep along
 * x; a 0.2 m cube tilted 10 degrees about x, 1 mm deep. The plane is the corpus's table. */
void cx_peer(int index, cx_case *c);

/* The case's two solids, for the library (the caller frees them). */
vxc_status cx_solids(const cx_case *c, vxc_solid **a, vxc_solid **b, vxc_error *err);

/* The reference volume of the overlap (m^3), to about `rtol` of itself, by the chord
 * quadrature; NAN when it ran out of its budget (2e8 chords, some seconds). box (nullable) gets the
 * box, in the rays' frame, where chords were found (for cx_monte_carlo). Its own estimate is
 * optimistic at the footprint's rim (at rtol 1e-7 a ball in a hole came out 3.2e-6 off), so
 * the corpus asks CX_REF_RTOL and trusts the result to CX_REF_SLACK. */
double cx_reference(const cx_case *c, double rtol, double box[6]);
#define CX_REF_RTOL 1e-8
#define CX_REF_SLACK 1e-6

/* The overlap's volume in closed form (m^3) where the family has one: the spherical cap,
 * the lens, the finite cylinder and the capped cone (their axial sections, circular
 * segments, summed by Gauss-Legendre between the kinks), the box and the mesh (their
 * triangles cut by the table's plane, exactly), a torus lying flat (Pappus: its ring of the
 * tube's circular segments), an aligned rod in its hole (its length times its section's
 * crescent, by Gauss-Legendre in the angle about the hole's axis); NAN for the others. */
double cx_closed_form(const cx_case *c);

/* A Monte Carlo estimate of the overlap's volume from n points drawn from `seed` in `box`
 * (from cx_reference) grown by 5% a side; *sigma gets its standard error (m^3). */
double cx_monte_carlo(const cx_case *c, const double box[6], long n, uint64_t seed, double *sigma);

/* The seeded random numbers and rotations the corpus draws from, shared with the mesh
 * family of `vxc bench --mesh` (mesh_cases.c): splitmix64 steps of the state *s; a uniform
 * double in [0, 1); the quaternion product o = a b and the rotation of v by the unit
 * quaternion q (by its conjugate when inv); a uniform random rotation (Shoemake), or when
 * `aligned` one of the 24 that map axes onto axes. */
uint64_t cx_splitmix(uint64_t *s);
double cx_uni(uint64_t *s);
void cx_qmul(const double a[4], const double b[4], double o[4]);
void cx_qrot(const double q[4], int inv, const double v[3], double o[3]);
void cx_random_rotation(uint64_t *s, int aligned, double q[4]);

#endif /* VXC_CORPUS_H */
