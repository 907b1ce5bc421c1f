/* voxel_exact.h: closed-form volumes, centroids and inertia tensors the voxel engine's tests
 * compare with, and helpers to build cells in code.
 *
 * Every formula is derived here, independently of the engine:
 *  - spherical cap of height d of a sphere of radius R, with t the distance from the apex
 *    along the axis: the cross-section at t is a disc of radius^2 t (2R - t), so
 *      V        = pi int_0^d t (2R - t) dt           = pi (R d^2 - d^3 / 3)
 *      int t    = pi int t^2 (2R - t) dt             = pi (2R d^3 / 3 - d^4 / 4)
 *      int t^2  = pi int t^3 (2R - t) dt             = pi (R d^4 / 2 - d^5 / 5)
 *      int rho^2 = pi / 2 int t^2 (2R - t)^2 dt      = pi / 2 (4R^2 d^3 / 3 - R d^4 + d^5 / 5)
 *    (a disc of radius a has int rho^2 dA = pi a^4 / 2);
 *  - axisymmetric bodies are summed as moments along their axis (vx_axial), then turned into
 *    V, centroid and J about the centroid: J_axis = int rho^2, J_perp = int rho^2 / 2 +
 *    int (s - s_c)^2;
 *  - a lens of two spheres is the two caps cut by the radical plane; the cap heights are
 *    h1 = (R2 - R1 + d)(R2 + R1 - d) / (2d) and h2 = (R1 - R2 + d)(R1 + R2 - d) / (2d);
 *  - a circular segment (the part of the disc u^2 + w^2 <= R^2 below w = -(R - d)) by
 *    integrating chords: int dA = int 2 sqrt(R^2 - w^2) dw, int w dA = -2/3 (R^2 - w^2)^(3/2),
 *    int w^2 dA = 2 int w^2 sqrt(R^2 - w^2) dw, int u^2 dA = 2/3 int (R^2 - w^2)^(3/2) dw, with
 *      int w^2 sqrt(R^2 - w^2) = w (2w^2 - R^2) sqrt(R^2 - w^2) / 8 + R^4 asin(w / R) / 8,
 *      int (R^2 - w^2)^(3/2)   = w (5R^2 - 2w^2) sqrt(R^2 - w^2) / 8 + 3R^4 asin(w / R) / 8. */
#ifndef VXC_VOXEL_EXACT_H
#define VXC_VOXEL_EXACT_H

#include <stdlib.h>

#include "geom/geom.h"
#include "voxel/voxel.h"

/* The default options with the closed forms off (vxv_options.closed_form): the tests of
 * the octree on caps and lenses measure the octree, not the formula. */
static inline void vx_octree_options(vxv_options *o) {
  vxv_options_default(o);
  o->closed_form = 0;
}

/* Moments of an axisymmetric body along its axis s: V, int s, int s^2, int rho^2. */
typedef struct vx_axial {
  double v, s1, s2, r2;
} vx_axial;

/* The cap of height d of a sphere of radius R, with s measured from the cap's flat face
 * toward its apex (s = d - t). */
static inline vx_axial vx_cap(double R, double d) {
  double d2 = d * d, d3 = d2 * d, d4 = d3 * d, d5 = d4 * d;
  double v = M_PI * (R * d2 - d3 / 3);
  double t1 = M_PI * (2 * R * d3 / 3 - d4 / 4);
  double t2 = M_PI * (R * d4 / 2 - d5 / 5);
  vx_axial a;
  a.v = v;
  a.s1 = d * v - t1;
  a.s2 = d * d * v - 2 * d * t1 + t2;
  a.r2 = M_PI / 2 * (4 * R * R * d3 / 3 - R * d4 + d5 / 5);
  return a;
}


/* The same body with s -> sign * s + o (moved along the axis, possibly reversed). */
static inline vx_axial vx_axial_move(vx_axial a, double sign, double o) {
  vx_axial b;
  b.v = a.v;
  b.s1 = sign * a.s1 + o * a.v;
  b.s2 = a.s2 + 2 * sign * o * a.s1 + o * o * a.v;
  b.r2 = a.r2;
  return b;
}


static inline vx_axial vx_axial_add(vx_axial a, vx_axial b, double sign_b) {
  vx_axial c = {a.v + sign_b * b.v, a.s1 + sign_b * b.s1, a.s2 + sign_b * b.s2,
                a.r2 + sign_b * b.r2};
  return c;
}


/* Volume, centroid (world) and J (row-major, about the centroid) of an axisymmetric body
 * whose axis is the world line through `o` along the unit vector `u`. */
static inline void vx_axial_world(vx_axial a, const double o[3], const double u[3], double *V,
                                  double c[3], double J[9]) {
  double sc = a.s1 / a.v;
  double jax = a.r2, jperp = a.r2 / 2 + (a.s2 - a.v * sc * sc);
  *V = a.v;
  for (int i = 0; i < 3; i++) {
    c[i] = o[i] + sc * u[i];
    for (int j = 0; j < 3; j++) {
      J[3 * i + j] = jperp * ((i == j) - u[i] * u[j]) + jax * u[i] * u[j];
    }
  }
}


/* The lens of spheres of radii R1 (centre at s = 0) and R2 (centre at s = d) along s. */
static inline vx_axial vx_lens(double R1, double R2, double d) {
  double h1 = (R2 - R1 + d) * (R2 + R1 - d) / (2 * d);
  double h2 = (R1 - R2 + d) * (R1 + R2 - d) / (2 * d);
  double a = R1 - h1;                                 /* the radical plane */
  vx_axial c1 = vx_axial_move(vx_cap(R1, h1), 1, a);  /* toward +s from the plane */
  vx_axial c2 = vx_axial_move(vx_cap(R2, h2), -1, a); /* toward -s from the plane */
  return vx_axial_add(c1, c2, 1);
}


/* The whole sphere of radius R centred at s = 0. */
static inline vx_axial vx_sphere(double R) {
  vx_axial a = {4.0 / 3 * M_PI * R * R * R, 0, 4.0 / 15 * M_PI * R * R * R * R * R,
                8.0 / 15 * M_PI * R * R * R * R * R};
  return a;
}


/* Circular segment of depth d of a circle of radius R: area, int w, int w^2, int u^2, with w
 * measured from the circle's centre (the segment lies at w <= -(R - d)). */
static inline void vx_segment(double R, double d, double out[4]) {
  double w0 = -R, w1 = -(R - d), R2 = R * R, R4 = R2 * R2;
#define VX_SQ(w) sqrt(R2 - (w) * (w) > 0 ? R2 - (w) * (w) : 0)
#define VX_F_AREA(w) ((w)*VX_SQ(w) + R2 * asin((w) / R))
#define VX_F_W(w) (-2.0 / 3 * (R2 - (w) * (w)) * VX_SQ(w))
#define VX_F_W2(w) (2 * ((w) * (2 * (w) * (w)-R2) * VX_SQ(w) / 8 + R4 * asin((w) / R) / 8))
#define VX_F_U2(w) \
  (2.0 / 3 * ((w) * (5 * R2 - 2 * (w) * (w)) * VX_SQ(w) / 8 + 3 * R4 * asin((w) / R) / 8))
  out[0] = VX_F_AREA(w1) - VX_F_AREA(w0);
  out[1] = VX_F_W(w1) - VX_F_W(w0);
  out[2] = VX_F_W2(w1) - VX_F_W2(w0);
  out[3] = VX_F_U2(w1) - VX_F_U2(w0);
#undef VX_SQ
#undef VX_F_AREA
#undef VX_F_W
#undef VX_F_W2
#undef VX_F_U2
}


/* A cell of one solid: primitives given as (kind, params, complement, move). */
typedef struct vx_prim_spec {
  vxg_prim_kind kind;
  double p[4];
  int np;
  int comp;
  const vxg_xform *move; /* NULL: identity */
} vx_prim_spec;

static inline vxg_cell *vx_cell(vxg_solid *s, const char *name, const vx_prim_spec *ps, int n) {
  vxg_xform id;
  vxg_xform_identity(&id);
  vxg_cell *c = NULL;
  vxc_error err;
  if (vxg_solid_add_cell(s, name, &id, &c, &err) != VXC_OK) {
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    vxg_prim p;
    if (vxg_prim_init(&p, ps[i].kind, ps[i].p, ps[i].np, ps[i].comp, ps[i].move, &err) != VXC_OK ||
        vxg_cell_add_prim(c, &p, &err) != VXC_OK) {
      return NULL;
    }
  }
  if (vxg_cell_finish(c, NULL, &err) != VXC_OK) {
    return NULL;
  }
  return c;
}

/* The voxel tests' cmocka fixture: a solid to add cells to and a reusable workspace. */
typedef struct fixture {
  vxg_solid *s;
  vxv_workspace *ws;
} fixture;

static inline int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f || vxg_solid_create(NULL, "test", &f->s) != VXC_OK ||
      vxv_workspace_create(NULL, &f->ws) != VXC_OK) {
    return -1;
  }
  *state = f;
  return 0;
}


static inline int teardown(void **state) {
  fixture *f = *state;
  vxv_workspace_free(f->ws);
  vxg_solid_free(f->s);
  free(f);
  return 0;
}


/* Two cells of one primitive each (pa, pb), named anew at every call: *a and *b. */
static inline void vx_cell_pair(fixture *f, const vx_prim_spec *pa, const vx_prim_spec *pb,
                                vxg_cell **a, vxg_cell **b) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "pair_a%d", n);
  *a = vx_cell(f->s, name, pa, 1);
  snprintf(name, sizeof name, "pair_b%d", n++);
  *b = vx_cell(f->s, name, pb, 1);
  assert_non_null(*a);
  assert_non_null(*b);
}


/* A rotation taking +z to the unit vector n, with translation t. */
static inline void vx_frame_z_to(const double n[3], const double t[3], vxg_xform *x) {
  double axis[3] = {-n[1], n[0], 0}, s = sqrt(n[0] * n[0] + n[1] * n[1]);
  vxg_xform_identity(x);
  if (s > 1e-300) {
    assert_int_equal(vxg_xform_axis_angle(x, axis, atan2(s, n[2])), 0);
  } else if (n[2] < 0) {
    const double ax[3] = {1, 0, 0};
    assert_int_equal(vxg_xform_axis_angle(x, ax, M_PI), 0);
  }
  memcpy(x->t, t, sizeof x->t);
}

/* A ball of radius r about the cell frame's origin, named sphereN. */
static inline vxg_cell *vx_sphere_cell(fixture *f, double r) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "sphere%d", n++);
  vx_prim_spec p = {VXG_SPHERE, {r}, 1, 0, NULL};
  vxg_cell *c = vx_cell(f->s, name, &p, 1);
  assert_non_null(c);
  return c;
}

/* The octree's result oct against a fast path's f (closed form or quadrature), the octree
 * run at rtol: brackets that meet, the volume within 3 rtol, the centroid within rtol of
 * the contact's size, J within 10 rtol of its largest entry, the area vector within 3e-4
 * of its length (at rtol 1e-6 the octree's worst on caps: 1.5e-8, 2e-8, 2e-7, 3.5e-5). */
static inline void vx_check_octree(const vxv_result *f, const vxv_result *oct, double size,
                                   double rtol) {
  assert_false(oct->capped);
  assert_true(oct->volume_lo <= f->volume_hi && f->volume_lo <= oct->volume_hi);
  assert_double_rel(oct->volume, f->volume, 3 * rtol);
  double jm = 0;
  for (int i = 0; i < 9; i++) {
    jm = fmax(jm, fabs(f->inertia[i]));
  }
  for (int i = 0; i < 3; i++) {
    assert_double_near(oct->centroid[i], f->centroid[i], rtol * size);
  }
  for (int i = 0; i < 9; i++) {
    assert_double_near(oct->inertia[i], f->inertia[i], 10 * rtol * jm);
  }
  for (int i = 0; i < 3; i++) {
    assert_double_near(oct->area_vector[i], f->area_vector[i], 3e-4 * f->contact_area);
  }
}

/* A random unit vector; every third one along a signed axis. */
static inline void vx_random_dir(vxc_rng *g, int i, double n[3]) {
  if (i % 3 == 0) {
    n[0] = n[1] = n[2] = 0;
    n[(i / 3) % 3] = (i / 9) % 2 ? -1 : 1;
    return;
  }
  double z = vxc_rng_uniform(g, -1, 1), ph = vxc_rng_uniform(g, 0, 2 * M_PI);
  double s = sqrt(1 - z * z);
  n[0] = s * cos(ph);
  n[1] = s * sin(ph);
  n[2] = z;
}

/* A pair measured with the fast paths on (fast->closed_form must equal `expect`; -1:
 * either) and, when oct is not NULL, by the octree alone at rtol; st[0], st[1] get the
 * statuses. */
static inline void vx_both(vxv_workspace *ws, const vxg_cell *a, const vxg_xform *xa,
                           const vxg_cell *b, const vxg_xform *xb, int expect, double rtol,
                           vxv_result *fast, vxv_result *oct, vxc_status *st) {
  vxv_options o;
  vxv_options_default(&o);
  st[0] = vxv_intersect(ws, a, xa, b, xb, &o, fast);
  if (expect >= 0) {
    assert_int_equal(fast->closed_form, expect);
  }
  if (!oct) {
    return;
  }
  o.closed_form = 0;
  o.rtol = rtol;
  st[1] = vxv_intersect(ws, a, xa, b, xb, &o, oct);
  assert_int_equal(oct->closed_form, 0);
}

/* The octree rule the fast paths are checked against. */
#define VX_OCT_RTOL 1e-6

/* vx_both on the fixture's workspace, the octree at VX_OCT_RTOL. */
static inline void vx_both_oct(fixture *f, const vxg_cell *a, const vxg_xform *xa,
                               const vxg_cell *b, const vxg_xform *xb, int expect, vxv_result *fast,
                               vxv_result *oct, vxc_status *st) {
  vx_both(f->ws, a, xa, b, xb, expect, VX_OCT_RTOL, fast, oct, st);
}

/* A seeded rigid motion: a turn by a random angle about a random axis (none when
 * `aligned`: users place parts that way), then a shift of up to `shift` along each axis. */
static inline void vx_random_pose(vxc_rng *g, int aligned, double shift, vxg_xform *x) {
  double ax[3] = {vxc_rng_uniform(g, -1, 1), vxc_rng_uniform(g, -1, 1), vxc_rng_uniform(g, 0.1, 1)};
  vxg_xform t;
  vxg_xform_identity(x);
  if (!aligned) {
    assert_int_equal(vxg_xform_axis_angle(x, ax, vxc_rng_uniform(g, -M_PI, M_PI)), 0);
  }
  vxg_xform_translation(&t, vxc_rng_uniform(g, -shift, shift), vxc_rng_uniform(g, -shift, shift),
                        vxc_rng_uniform(g, -shift, shift));
  vxg_xform_compose(x, &t, x);
}

#endif /* VXC_VOXEL_EXACT_H */
