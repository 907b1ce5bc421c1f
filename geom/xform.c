/* xform.c: rigid transforms x_out = R x_in + t (R a rotation, row-major). */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"

void vxg_xform_identity(vxg_xform *x) {
  memset(x, 0, sizeof *x);
  x->r[0] = x->r[4] = x->r[8] = 1.0;
}


void vxg_xform_translation(vxg_xform *x, double tx, double ty, double tz) {
  vxg_xform_identity(x);
  x->t[0] = tx;
  x->t[1] = ty;
  x->t[2] = tz;
}


int vxg_xform_axis_angle(vxg_xform *x, const double axis[3], double angle) {
  double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  if (!(n > 0) || !isfinite(n) || !isfinite(angle)) {
    return -1;
  }
  double h = 0.5 * angle, s = sin(h) / n;
  return vxg_xform_quat(x, cos(h), axis[0] * s, axis[1] * s, axis[2] * s);
}


int vxg_xform_quat(vxg_xform *x, double w, double a, double b, double c) {
  double n = sqrt(w * w + a * a + b * b + c * c);
  if (!(n > 0) || !isfinite(n)) {
    return -1;
  }
  w /= n;
  a /= n;
  b /= n;
  c /= n;
  vxg_xform_identity(x);
  const double q[4] = {w, a, b, c};
  vxg_quat_to_mat(q, x->r);
  return 0;
}


void vxg_xform_compose(vxg_xform *out, const vxg_xform *a, const vxg_xform *b) {
  vxg_xform o;
  vxg_mat3_mul(a->r, b->r, o.r);
  vxg_mat3_vec(a->r, b->t, o.t);
  for (int i = 0; i < 3; i++) {
    o.t[i] += a->t[i];
  }
  *out = o;
}


void vxg_xform_inverse(vxg_xform *out, const vxg_xform *a) {
  vxg_xform o;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      o.r[3 * i + j] = a->r[3 * j + i];
    }
  }
  vxg_mat3_vec(o.r, a->t, o.t);
  for (int i = 0; i < 3; i++) {
    o.t[i] = -o.t[i];
  }
  *out = o;
}


void vxg_xform_vector(const vxg_xform *x, const double v[3], double out[3]) {
  vxg_mat3_vec(x->r, v, out);
}


void vxg_xform_vector_inv(const vxg_xform *x, const double v[3], double out[3]) {
  vxg_mat3t_vec(x->r, v, out);
}


void vxg_xform_point(const vxg_xform *x, const double p[3], double out[3]) {
  double o[3];
  vxg_xform_vector(x, p, o);
  for (int i = 0; i < 3; i++) {
    out[i] = o[i] + x->t[i];
  }
}


void vxg_xform_to_quat(const vxg_xform *x, double q[4]) {
  /* Shepperd's method: pivot on the largest of w, x, y, z for accuracy */
  const double *r = x->r;
  double tr = r[0] + r[4] + r[8];
  double w, a, b, c;
  if (tr >= r[0] && tr >= r[4] && tr >= r[8]) {
    double s = 2 * sqrt(1 + tr);
    w = 0.25 * s;
    a = (r[7] - r[5]) / s;
    b = (r[2] - r[6]) / s;
    c = (r[3] - r[1]) / s;
  } else if (r[0] >= r[4] && r[0] >= r[8]) {
    double s = 2 * sqrt(1 + r[0] - r[4] - r[8]);
    w = (r[7] - r[5]) / s;
    a = 0.25 * s;
    b = (r[1] + r[3]) / s;
    c = (r[2] + r[6]) / s;
  } else if (r[4] >= r[8]) {
    double s = 2 * sqrt(1 + r[4] - r[0] - r[8]);
    w = (r[2] - r[6]) / s;
    a = (r[1] + r[3]) / s;
    b = 0.25 * s;
    c = (r[5] + r[7]) / s;
  } else {
    double s = 2 * sqrt(1 + r[8] - r[0] - r[4]);
    w = (r[3] - r[1]) / s;
    a = (r[2] + r[6]) / s;
    b = (r[5] + r[7]) / s;
    c = 0.25 * s;
  }
  double sg = w < 0 ? -1.0 : 1.0, n = sqrt(w * w + a * a + b * b + c * c);
  q[0] = sg * w / n;
  q[1] = sg * a / n;
  q[2] = sg * b / n;
  q[3] = sg * c / n;
}
