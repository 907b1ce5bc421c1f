/* mesh_moments.c: the exact moments of the volume a closed triangle mesh encloses.
 *
 * By the divergence theorem the enclosed volume is the signed sum of the tetrahedra that
 * join the frame's origin to each outward triangle (a, b, c): with d = a . (b x c) and
 * s = a + b + c, a tetrahedron has volume d / 6, first moments d s / 24 and second moments
 * int x_i x_j dV = d (a_i a_j + b_i b_j + c_i c_j + s_i s_j) / 120 (the closed form for a
 * simplex, V / 20 (sum_k p_k p_k^T + S S^T) over its four vertices p_k, one of them 0).
 * The vertices are first carried into the target frame, whose origin should lie near the
 * mesh (the moments are then of the size of the solid's, without cancellation). */
#include <string.h>

#include "geom/mesh.h"
#include "geom/vec3.h"

void vxg_mesh_moments(const struct vxg_mesh *m, const vxg_xform *to_frame, vxg_moments *mom,
                      double area_vec[3]) {
  memset(mom, 0, sizeof *mom);
  double av[3] = {0, 0, 0};
  for (int t = 0; t < m->ntri; t++) {
    double p[3][3];
    for (int k = 0; k < 3; k++) {
      vxg_xform_point(to_frame, m->v + 3 * m->tri[3 * t + k], p[k]);
    }
    const double *a = p[0], *b = p[1], *c = p[2];
    double bc[3] = {b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2],
                    b[0] * c[1] - b[1] * c[0]};
    double d = a[0] * bc[0] + a[1] * bc[1] + a[2] * bc[2];
    double s[3] = {a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]};
    mom->m0 += d / 6;
    for (int k = 0; k < 3; k++) {
      mom->m1[k] += d * s[k] / 24;
    }
    for (int k = 0; k < 6; k++) {
      int i = VXG_SYM_ROW[k], j = VXG_SYM_COL[k];
      mom->m2[k] += d * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]) / 120;
    }
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    av[0] += 0.5 * (u[1] * w[2] - u[2] * w[1]);
    av[1] += 0.5 * (u[2] * w[0] - u[0] * w[2]);
    av[2] += 0.5 * (u[0] * w[1] - u[1] * w[0]);
  }
  if (area_vec) {
    memcpy(area_vec, av, sizeof av);
  }
}
