/* cap.c: closed-form spherical caps and lenses (the interference of a ball with a
 * half-space or with another ball).
 *
 * A cap is the part of a ball (centre c, radius r) on the side n.(x - c) <= h - r of a
 * plane, n a unit axis: its pole p0 = c - r n is its deepest point along -n, its height h
 * (0 to 2r) runs from the pole along n to its flat face, whose outward normal is n. With w
 * the height above the pole, the cross-section is a disk of radius^2 2rw - w^2, so
 *   V = pi h^2 (r - h/3),  int w dV = pi h^3 (8r - 3h) / 12,
 *   int w^2 dV - V wbar^2 = pi h^4 (40 r^2 - 24 r h + 3 h^2) / (240 (3r - h)),
 *   int y^2 dV = pi h^3 (r^2/3 - r h/4 + h^2/20) (y one transverse coordinate),
 * each a sum of terms of one sign or nearly so, so that a shallow cap (h << r) keeps its
 * digits. A lens (two balls) is the union of two caps on either side of the plane where the
 * spheres meet, with heights from the depth delta = r1 + r2 - |c2 - c1| (no cancellation):
 * h1 = delta (2 r2 - delta) / (2 dist), h2 = delta (2 r1 - delta) / (2 dist). */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"

static double clamp_height(double h, double r) {
  return h > 0 ? (h < 2 * r ? h : 2 * r) : 0;
}


double vxg_cap_volume(double r, double h) {
  h = clamp_height(h, r);
  return M_PI * h * h * (r - h / 3);
}


void vxg_cap_of_plane(const double c[3], double r, const double n[3], double d, vxg_cap *cap) {
  memcpy(cap->c, c, sizeof cap->c);
  memcpy(cap->n, n, sizeof cap->n);
  cap->r = r;
  cap->h = clamp_height(r + (d - vxg_dot(n, c)), r);
}


/* The caps' heights of the lens of balls r1, r2 whose centres are dist apart. */
static void lens_heights(double r1, double r2, double dist, double *h1, double *h2) {
  double depth = r1 + r2 - dist;
  *h1 = *h2 = 0;
  if (!(depth > 0)) {
    return;
  }
  if (dist <= fabs(r1 - r2)) {
    /* one ball inside the other: the smaller one whole */
    *h1 = r1 <= r2 ? 2 * r1 : 0;
    *h2 = r1 <= r2 ? 0 : 2 * r2;
    return;
  }
  *h1 = clamp_height(depth * (2 * r2 - depth) / (2 * dist), r1);
  *h2 = clamp_height(depth * (2 * r1 - depth) / (2 * dist), r2);
}


double vxg_lens_volume(double r1, double r2, double dist) {
  double h1, h2;
  lens_heights(r1, r2, dist, &h1, &h2);
  return vxg_cap_volume(r1, h1) + vxg_cap_volume(r2, h2);
}


void vxg_lens_caps(const double c1[3], double r1, const double c2[3], double r2, vxg_cap cap[2]) {
  double u[3];
  vxg_sub(c2, c1, u);
  double dist = sqrt(vxg_dot(u, u));
  if (dist > 0) {
    u[0] /= dist;
    u[1] /= dist;
    u[2] /= dist;
  } else {
    u[0] = u[1] = 0; /* concentric: any axis (one cap is the whole ball, the other empty) */
    u[2] = 1;
  }
  memcpy(cap[0].c, c1, sizeof cap[0].c);
  memcpy(cap[1].c, c2, sizeof cap[1].c);
  cap[0].r = r1;
  cap[1].r = r2;
  for (int k = 0; k < 3; k++) {
    cap[0].n[k] = -u[k]; /* ball 1's cap faces c2: its flat face looks back at c1 */
    cap[1].n[k] = u[k];
  }
  lens_heights(r1, r2, dist, &cap[0].h, &cap[1].h);
}


double vxg_cap_rim2(const vxg_cap *cap) {
  return cap->h * (2 * cap->r - cap->h);
}


void vxg_cap_central(const vxg_cap *cap, double *v, double g[3], double cm[6]) {
  double r = cap->r, h = cap->h;
  const double *n = cap->n;
  *v = vxg_cap_volume(r, h);
  if (!(*v > 0)) {
    memcpy(g, cap->c, 3 * sizeof g[0]);
    memset(cm, 0, 6 * sizeof cm[0]);
    return;
  }
  double wbar = h * (8 * r - 3 * h) / (4 * (3 * r - h));
  double axial = M_PI * h * h * h * h * (40 * r * r - 24 * r * h + 3 * h * h) / (240 * (3 * r - h));
  double trans = M_PI * h * h * h * (r * r / 3 - r * h / 4 + h * h / 20);
  for (int k = 0; k < 3; k++) {
    g[k] = cap->c[k] + (wbar - r) * n[k]; /* pole c - r n, then wbar along n */
  }
  /* axial n n^T + trans (I - n n^T), as xx yy zz xy yz xz */
  for (int k = 0; k < 6; k++) {
    cm[k] = (axial - trans) * n[VXG_SYM_ROW[k]] * n[VXG_SYM_COL[k]] + (k < 3 ? trans : 0);
  }
}


void vxg_cap_aabb(const vxg_cap *cap, double box[6]) {
  double r = cap->r, t = cap->h - r; /* the flat face at n.(x - c) = t */
  const double *c = cap->c, *n = cap->n;
  double a = sqrt(fmax(0, vxg_cap_rim2(cap)));
  for (int k = 0; k < 3; k++) {
    double s = sqrt(fmax(0, 1 - n[k] * n[k])), m = c[k] + t * n[k];
    /* along +e_k: the sphere's own extreme point when the cap keeps it, else the rim */
    box[3 + k] = n[k] <= t / r ? c[k] + r : m + a * s;
    box[k] = -n[k] <= t / r ? c[k] - r : m - a * s;
  }
}
