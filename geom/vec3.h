/* vec3.h: the small vector and symmetric-tensor helpers every layer of the library uses
 * (internal, as MuJoCo's mju_ family): 3-vectors as double[3], 3x3 matrices as double[9]
 * row-major, quaternions as (w, x, y, z), symmetric 3x3 tensors as their six distinct
 * entries in the order xx yy zz xy yz xz. One copy of each product for geom, voxel and lib
 * (the tools use only lib/vxc.h). */
#ifndef VXG_VEC3_H
#define VXG_VEC3_H

/* Row and column of the six distinct entries of a symmetric 3x3 tensor, in order
 * (compound literals: no unused-variable warning where a file does not use them). */
#define VXG_SYM_ROW ((const int[6]){0, 1, 2, 0, 1, 0})
#define VXG_SYM_COL ((const int[6]){0, 1, 2, 1, 2, 2})

static inline double vxg_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* o = a - b (o may alias either). */
static inline void vxg_sub(const double a[3], const double b[3], double o[3]) {
  o[0] = a[0] - b[0];
  o[1] = a[1] - b[1];
  o[2] = a[2] - b[2];
}

/* o = a x b (o may alias either). */
static inline void vxg_cross(const double a[3], const double b[3], double o[3]) {
  double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
  o[0] = x;
  o[1] = y;
}

/* The line where the planes n0.x = d0 and n1.x = d1 meet: its direction m = n0 x n1 and
 * its point x0 nearest the origin, (d0 (n1 x m) + d1 (m x n0)) / |m|^2; returns |m|^2 (0:
 * parallel planes, x0 untouched). */
static inline double vxg_planes_line(const double n0[3], double d0, const double n1[3], double d1,
                                     double m[3], double x0[3]) {
  double a[3], b[3];
  vxg_cross(n0, n1, m);
  double mm = vxg_dot(m, m);
  if (!(mm > 0)) {
    return 0;
  }
  vxg_cross(n1, m, a);
  vxg_cross(m, n0, b);
  for (int k = 0; k < 3; k++) {
    x0[k] = (d0 * a[k] + d1 * b[k]) / mm;
  }
  return mm;
}

/* o = M v, M a 3x3 matrix stored row-major (o may alias v). */
static inline void vxg_mat3_vec(const double m[9], const double v[3], double o[3]) {
  double x = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
  double y = m[3] * v[0] + m[4] * v[1] + m[5] * v[2];
  o[2] = m[6] * v[0] + m[7] * v[1] + m[8] * v[2];
  o[0] = x;
  o[1] = y;
}

/* o = M^T v, M row-major (o may alias v). */
static inline void vxg_mat3t_vec(const double m[9], const double v[3], double o[3]) {
  double x = m[0] * v[0] + m[3] * v[1] + m[6] * v[2];
  double y = m[1] * v[0] + m[4] * v[1] + m[7] * v[2];
  o[2] = m[2] * v[0] + m[5] * v[1] + m[8] * v[2];
  o[0] = x;
  o[1] = y;
}

/* O = A B, 3x3 row-major (o may alias either). */
static inline void vxg_mat3_mul(const double a[9], const double b[9], double o[9]) {
  double r[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    }
  }
  for (int k = 0; k < 9; k++) {
    o[k] = r[k];
  }
}

/* o = a b, the (Hamilton) product of quaternions (w, x, y, z): the rotation b then a, for
 * unit ones (o may alias either). */
static inline void vxg_quat_mul(const double a[4], const double b[4], double o[4]) {
  double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  o[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  o[0] = w;
  o[1] = x;
  o[2] = y;
}

/* R (row-major) = the rotation of the unit quaternion q = (w, x, y, z). */
static inline void vxg_quat_to_mat(const double q[4], double R[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
}

#endif /* VXG_VEC3_H */
