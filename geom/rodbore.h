/* rodbore.h: what the rod-in-bore quadrature (rodbore.c) and its events (rodbore_events.c,
 * the angles where the region's trace changes shape) share; internal to geom/. Lengths in
 * metres, all in the bore's frame (its axis along z through the origin). */
#ifndef VXG_RODBORE_H
#define VXG_RODBORE_H

#include "geom/geom.h"

#define RB_MAX_EVENTS 256
#define RB_NP (VXG_RB_MAX_PLANES + 6)
#define RB_MAX_POLY (RB_NP + 6)
#define RB_MAX_PIECES 96 /* theta pieces of the quadrature */

typedef struct rb_prob {
  double rb;              /* bore radius (0: none, or a countersink alone) */
  double sb;              /* a countersink: tan of its half-angle (its apex the origin, its
                             nappe z >= 0); else 0 */
  int nl;                 /* the bore's traces in every half-plane: the lines */
  double rl[2], sl[2];    /* r = rl + sl z (r = rb, r = sb z), the region beyond all */
  double pa[3], u[3], ra; /* rod axis point (a cone's apex) and unit direction, radius */
  double k;               /* the rod: |x - pa|^2 - k ((x - pa).u)^2 <= ra^2 (a cylinder: 1) */
  double tR;              /* > 0: the rod is instead the torus (r - tR)^2 + (z - pa_z)^2 <=
                             ra^2 about the axis (pa on it, k 0), the same circle in every
                             half-plane */
  int rod_owner, bore_owner;
  int np; /* the input's planes, then the region box's six (no owner) */
  double n[RB_NP][3], d[RB_NP];
  int owner[RB_NP], axis[RB_NP]; /* axis: through the bore's axis */
  double rmax, zlo, zhi;         /* a rectangle holding the region's traces */
  double scale;                  /* a length of the problem (rounding) */
  double zrel;                   /* a z piece is halved while its estimate exceeds zrel of it */
  double zabs;                   /* and zabs (m^3): a region of rounding's size (a flush
                                    contact) is not resolved below the asked atol */
  long evals;
} rb_prob;

/* The conic of the rod in the half-plane at theta: Q = arr r^2 + 2 arz r z + azz z^2 +
 * 2 br r + 2 bz z + c <= 0. */
typedef struct rb_conic {
  double arr, arz, azz, br, bz, c;
} rb_conic;

/* Angles in [0, 2 pi) where the region changes shape; sq: a tangency there (a square root
 * in the integrand). */
typedef struct rb_events {
  int n;
  double t[RB_MAX_EVENTS];
  int sq[RB_MAX_EVENTS]; /* a tangency: the integrand has a square root there */
} rb_events;

/* A trace's convex polygon in a half-plane (r, z). */
typedef struct rb_poly {
  int nv;
  double r[RB_MAX_POLY], z[RB_MAX_POLY];
  int id[RB_MAX_POLY]; /* edge i (vertex i to i+1): -2 bore, -1 frame, else the plane */
} rb_poly;

/* Clips the polygon to a r + b z <= c (edge id). */
void vxg_rb_poly_clip(rb_poly *g, double a, double b, double c, int id);
/* Q along the segment (r, z) + t (dr, dz): a t^2 + 2 b t + c. */
void vxg_rb_conic_along(const rb_conic *q, double r, double z, double dr, double dz, double *a,
                        double *b, double *c);
/* A box (lo x y z, hi x y z; inverted when empty) holding the region's part at the angles
 * of the n (<= RB_MAX_PIECES) intervals iv (bore frame angles) in the input's frame
 * (x = pb + E^T y), m: see rodbore_box.c. */
void vxg_rb_box(const rb_prob *p, const double E[3][3], const double pb[3], const double (*iv)[2],
                int n, double box[6]);

/* The rod's conic in the half-plane at theta (cos cs, sin sn). */
void vxg_rb_conic_at(const rb_prob *p, double cs, double sn, rb_conic *q);
/* Q along the bore's line j (r = rl + sl z) of the half-plane: A z^2 + 2 B z + C. */
void vxg_rb_bore_line(const rb_prob *p, int j, const rb_conic *q, double *A, double *B, double *C);
/* Q at (r, z). */
double vxg_rb_conic_eval(const rb_conic *q, double r, double z);
/* Roots of a t^2 + 2 b t + c = 0 (stable), ascending; their count (a 0: the linear root). */
int vxg_rb_quad_roots(double a, double b, double c, double t[2]);
/* Sorts a[0..n) ascending (n small). */
void vxg_rb_sort(double *a, int n);
/* The region's events, sorted, those within 1e-13 merged. */
void vxg_rb_events(const rb_prob *p, rb_events *ev);

#endif /* VXG_RODBORE_H */
