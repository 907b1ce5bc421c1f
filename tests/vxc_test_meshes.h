/* vxc_test_meshes.h: closed triangle meshes the tests build in memory (include after
 * vxc_test.h): a box, a block with a square through-hole, a U-channel and a V-groove block,
 * as vertex and triangle arrays (vxc_mesh_buf), and, after lib/vxc.h, a solid of one. */
#ifndef VXC_TEST_MESHES_H
#define VXC_TEST_MESHES_H

/* A mesh under construction: vertices and triangles. */
typedef struct vxc_mesh_buf {
  double v[3 * 64];
  int t[3 * 64];
  int nv, nt;
} vxc_mesh_buf;


static inline int vxc_mb_vert(vxc_mesh_buf *m, double x, double y, double z) {
  m->v[3 * m->nv] = x;
  m->v[3 * m->nv + 1] = y;
  m->v[3 * m->nv + 2] = z;
  return m->nv++;
}


/* The triangle a b c, turned so that its normal is along n. */
static inline void vxc_mb_tri(vxc_mesh_buf *m, int a, int b, int c, const double n[3]) {
  const double *pa = m->v + 3 * a, *pb = m->v + 3 * b, *pc = m->v + 3 * c;
  double u[3], w[3];
  for (int k = 0; k < 3; k++) {
    u[k] = pb[k] - pa[k];
    w[k] = pc[k] - pa[k];
  }
  double cr[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
  int flip = cr[0] * n[0] + cr[1] * n[1] + cr[2] * n[2] < 0;
  int t[3] = {a, flip ? c : b, flip ? b : c};
  memcpy(m->t + 3 * m->nt++, t, sizeof t);
}


/* The planar quad a b c d as two triangles, turned so that their normal is along n. */
static inline void vxc_mb_quad(vxc_mesh_buf *m, int a, int b, int c, int d, const double n[3]) {
  vxc_mb_tri(m, a, b, c, n);
  vxc_mb_tri(m, a, c, d, n);
}


/* Corner k (0..3, counter-clockwise from (-1, -1)) of the square of half-edges hx, hy. */
static inline void vxc_mb_corner(int k, double hx, double hy, double *x, double *y) {
  static const int sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
  *x = sx[k] * hx;
  *y = sy[k] * hy;
}


/* The box [-hx, hx] x [-hy, hy] x [z0, z1]. */
static inline void vxc_mb_box(vxc_mesh_buf *m, double hx, double hy, double z0, double z1) {
  int lo[4], hi[4];
  for (int k = 0; k < 4; k++) {
    double x, y;
    vxc_mb_corner(k, hx, hy, &x, &y);
    lo[k] = vxc_mb_vert(m, x, y, z0);
    hi[k] = vxc_mb_vert(m, x, y, z1);
  }
  for (int k = 0; k < 4; k++) {
    int j = (k + 1) % 4;
    double cx, cy, dx, dy;
    vxc_mb_corner(k, hx, hy, &cx, &cy);
    vxc_mb_corner(j, hx, hy, &dx, &dy);
    const double n[3] = {0.5 * (cx + dx), 0.5 * (cy + dy), 0};
    vxc_mb_quad(m, lo[k], lo[j], hi[j], hi[k], n);
  }
  vxc_mb_quad(m, lo[0], lo[1], lo[2], lo[3], (const double[3]){0, 0, -1});
  vxc_mb_quad(m, hi[0], hi[1], hi[2], hi[3], (const double[3]){0, 0, 1});
}


/* The block [-W, W]^2 x [z0, z1] with the square through-hole [-w, w]^2: one concave cell. */
static inline void vxc_mb_holed_block(vxc_mesh_buf *m, double W, double w, double z0, double z1) {
  int out[2][4], in[2][4];
  for (int k = 0; k < 4; k++) {
    double x, y;
    for (int s = 0; s < 2; s++) {
      vxc_mb_corner(k, W, W, &x, &y);
      out[s][k] = vxc_mb_vert(m, x, y, s ? z1 : z0);
      vxc_mb_corner(k, w, w, &x, &y);
      in[s][k] = vxc_mb_vert(m, x, y, s ? z1 : z0);
    }
  }
  for (int k = 0; k < 4; k++) {
    int j = (k + 1) % 4;
    double cx, cy, dx, dy;
    vxc_mb_corner(k, 1, 1, &cx, &cy);
    vxc_mb_corner(j, 1, 1, &dx, &dy);
    const double n[3] = {0.5 * (cx + dx), 0.5 * (cy + dy), 0};
    const double inward[3] = {-n[0], -n[1], 0};
    vxc_mb_quad(m, out[0][k], out[0][j], out[1][j], out[1][k], n);
    vxc_mb_quad(m, in[0][k], in[0][j], in[1][j], in[1][k], inward); /* the hole's wall faces the axis */
    vxc_mb_quad(m, out[1][k], out[1][j], in[1][j], in[1][k], (const double[3]){0, 0, 1});
    vxc_mb_quad(m, out[0][k], out[0][j], in[0][j], in[0][k], (const double[3]){0, 0, -1});
  }
}


/* The U-channel of tests/test_voxel_bsp.c (make_channel) scaled by s: floor [-5, 5] x
 * [0, 1], walls [-5, -3] and [3, 5] x [1, 5] (x, y in units of s), extruded along z over
 * [-h, h]; its caps split into three convex quads (the floor's trapezoid and the walls). */
static inline void vxc_mb_u_channel(vxc_mesh_buf *m, double s, double h) {
  static const double U[8][2] = {{-5, 0}, {5, 0}, {5, 5}, {3, 5}, {3, 1}, {-3, 1}, {-3, 5}, {-5, 5}};
  static const int cap[3][4] = {{0, 1, 4, 5}, {0, 5, 6, 7}, {1, 2, 3, 4}};
  int id[2][8];
  for (int e = 0; e < 2; e++) {
    for (int k = 0; k < 8; k++) {
      id[e][k] = vxc_mb_vert(m, s * U[k][0], s * U[k][1], e ? h : -h);
    }
  }
  for (int k = 0; k < 8; k++) {
    int j = (k + 1) % 8;
    /* counter-clockwise in (x, y): the outward normal is (dy, -dx) */
    const double n[3] = {U[j][1] - U[k][1], -(U[j][0] - U[k][0]), 0};
    vxc_mb_quad(m, id[0][k], id[0][j], id[1][j], id[1][k], n);
  }
  for (int c = 0; c < 3; c++) {
    for (int e = 0; e < 2; e++) {
      const int *q = cap[c];
      vxc_mb_quad(m, id[e][q[0]], id[e][q[1]], id[e][q[2]], id[e][q[3]], (const double[3]){0, 0, e ? 1 : -1});
    }
  }
}


/* A block [-L, L] x [-W, W] x [-H, 0] with a 90-degree V-groove along y, from (-g, 0) and
 * (g, 0) down to (0, -g) in xz: its cross-section, star-shaped from the groove's bottom
 * (vertex 4), fanned from there, extruded along y. */
static inline void vxc_mb_v_groove(vxc_mesh_buf *m, double L, double W, double H, double g) {
  const double xz[7][2] = {{-L, -H}, {L, -H}, {L, 0}, {g, 0}, {0, -g}, {-g, 0}, {-L, 0}};
  int id[2][7];
  for (int s = 0; s < 2; s++) {
    for (int k = 0; k < 7; k++) {
      id[s][k] = vxc_mb_vert(m, xz[k][0], s ? W : -W, xz[k][1]);
    }
  }
  for (int k = 0; k < 7; k++) {
    int j = (k + 1) % 7;
    /* the polygon runs counter-clockwise in (x, z): its outward normal is (dz, -dx) */
    const double n[3] = {xz[j][1] - xz[k][1], 0, -(xz[j][0] - xz[k][0])};
    vxc_mb_quad(m, id[0][k], id[0][j], id[1][j], id[1][k], n);
  }
  for (int k = 5; k < 10; k++) { /* the fan 4, k, k + 1 (mod 7) on both ends */
    int a = k % 7, b = (k + 1) % 7;
    for (int s = 0; s < 2; s++) {
      const double n[3] = {0, s ? 1 : -1, 0};
      vxc_mb_tri(m, id[s][4], id[s][a], id[s][b], n); /* keep only its first half */
    }
  }
}


#ifdef VXC_H
/* A solid of one mesh cell (the test fails when the mesh is refused, after printing why). */
static inline vxc_solid *vxc_mb_solid(const vxc_mesh_buf *m, const char *name) {
  vxc_solid *s = NULL;
  vxc_error err;
  vxc_status st = vxc_solid_from_mesh(m->v, m->nv, m->t, m->nt, name, NULL, &s, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  return s;
}
#endif

#endif /* VXC_TEST_MESHES_H */
