/* rodbore.c: the interference of a rod (inside a cylinder or a cone) with a bore (outside
 * another cylinder, or a countersink: outside one nappe of a cone), both cut by planes, by
 * quadrature in cylindrical coordinates (r, theta, z) about the bore's axis: a peg pressed
 * into the wall of its hole, a cone pressed into its countersink.
 *
 * In the half-plane at angle theta the bore is the line r = rb (a countersink of apex at
 * the origin: r = tan(a) z, the region r >= 0 beyond it), each plane a line and the
 * rod a conic (a cone's, both nappes', is kept to one by its nappe's plane), so the
 * region's trace is a convex polygon (the bore and the planes) cut by the conic. Its integral is
 * taken along z between the trace's breakpoints (the polygon's vertices, the conic's crossings of
 * its edges and the conic's extremes in z), with r integrated in closed form; along theta between
 * the region's events (where its trace changes shape: the vertices of the region's edges, the
 * tangencies of the bore's and the planes' traces to the rod). Both by Gauss-Kronrod 7-15 (theta
 * adaptively), pieces mapped so that square roots at their ends become analytic; the error estimate
 * is QUADPACK's, from the two rules. Planes through the bore's axis (a block split into quadrants)
 * bound theta.
 *
 * The area vector collects the faces of the cell that owns index 0: the rod's surface by
 * its radial graph, r grad F / |grad F . e_r| dz dtheta, each plane's (and the bore's) face
 * by its trace's extent, n times its projected area over |n . e_z| or |n . e_r|. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/rodbore.h"
#include "geom/vec3.h"

/* Gauss-Kronrod 15 (and its Gauss 7) on [-1, 1]: nodes x >= 0 descending, weights. */
static const double GK_X[8] = {
    0.991455371120812639, 0.949107912342758525, 0.864864423359769073, 0.741531185599394440,
    0.586087235467691130, 0.405845151377397167, 0.207784955007898468, 0.0};
static const double GK_W[8] = {0.022935322010529225, 0.063092092629978553, 0.104790010322250184,
                               0.140653259715525919, 0.169004726639267903, 0.190350578064785410,
                               0.204432940075298892, 0.209482141084727828};
/* sin and cos of pi/2 GK_X: the map x -> sin(pi x / 2) at the nodes. */
static const double GK_SIN[8] = {
    0.9999099280328004, 0.9968064112012679, 0.9775550928383051, 0.9187071826551803,
    0.7959793011665097, 0.5951883965085023, 0.3206236693824395, 0.0};
static const double GK_COS[8] = {
    0.013421468676705487, 0.07985598655109619, 0.2106799479444893, 0.3949393783073312,
    0.6053238406956022,   0.8035861949172832,  0.9472066631056498, 1.0};
static const double G7_W[4] = {0.129484966168869693, 0.279705391489276668, 0.381830050505118945,
                               0.417959183673469388};

/* Integrals over the region (bore frame): 0 v, 1-3 x y z, 4-9 xx yy zz xy yz xz; 10-12 the
 * area vector of cell 0's faces; 13 int dr dz (an axis plane's face, per unit theta). */
#define RB_NF 14
#define MAXP RB_MAX_PIECES
/* Adaptive budget: half-plane integrals at most. */
#define RB_MAX_EVALS 4000


void vxg_rb_conic_at(const rb_prob *p, double cs, double sn, rb_conic *q) {
  double eu = cs * p->u[0] + sn * p->u[1], uz = p->u[2];
  double pe = cs * p->pa[0] + sn * p->pa[1], pu = vxg_dot(p->pa, p->u);
  q->arr = 1 - p->k * eu * eu;
  q->arz = -p->k * eu * uz;
  q->azz = 1 - p->k * uz * uz;
  q->br = -pe + p->k * pu * eu;
  q->bz = -p->pa[2] + p->k * pu * uz;
  q->c = vxg_dot(p->pa, p->pa) - p->k * pu * pu - p->ra * p->ra;
  /* a torus: its circle's centre moved out by tR along r */
  q->br -= p->tR;
  q->c += p->tR * p->tR;
}

void vxg_rb_bore_line(const rb_prob *p, int j, const rb_conic *q, double *A, double *B, double *C) {
  double rb = p->rl[j], sb = p->sl[j];
  *A = (q->arr * sb + 2 * q->arz) * sb + q->azz;
  *B = (q->arr * sb + q->arz) * rb + q->br * sb + q->bz;
  *C = (q->arr * rb + 2 * q->br) * rb + q->c;
}

double vxg_rb_conic_eval(const rb_conic *q, double r, double z) {
  return q->arr * r * r + 2 * q->arz * r * z + q->azz * z * z + 2 * q->br * r + 2 * q->bz * z +
         q->c;
}

/* Roots of a t^2 + 2 b t + c = 0 (stable), ascending; the count. */
int vxg_rb_quad_roots(double a, double b, double c, double t[2]) {
  if (a == 0) {
    if (b == 0) {
      return 0;
    }
    t[0] = -c / (2 * b);
    return 1;
  }
  double disc = b * b - a * c;
  if (disc < 0) {
    return 0;
  }
  double s = sqrt(disc), qq = -(b + copysign(s, b));
  double t0 = qq / a, t1 = qq != 0 ? c / qq : t0;
  t[0] = fmin(t0, t1);
  t[1] = fmax(t0, t1);
  return 2;
}

/* The parts of [0, 1] where a t^2 + 2 b t + c <= 0 (lo[k], hi[k]); their count (at most 2:
 * a cone's conic need not be convex). */
static int inside_parts(double a, double b, double c, double lo[2], double hi[2]) {
  double t[2], cut[4];
  int nt = vxg_rb_quad_roots(a, b, c, t), nc = 0, n = 0;
  cut[nc++] = 0;
  for (int k = 0; k < nt; k++) {
    if (t[k] > 0 && t[k] < 1) {
      cut[nc++] = t[k];
    }
  }
  cut[nc++] = 1;
  for (int k = 0; k + 1 < nc; k++) {
    double m = 0.5 * (cut[k] + cut[k + 1]);
    if (cut[k + 1] > cut[k] && (a * m + 2 * b) * m + c <= 0) {
      if (n > 0 && hi[n - 1] == cut[k]) {
        hi[n - 1] = cut[k + 1];
      } else if (n < 2) {
        lo[n] = cut[k];
        hi[n++] = cut[k + 1];
      }
    }
  }
  return n;
}

void vxg_rb_conic_along(const rb_conic *q, double r, double z, double dr, double dz, double *a,
                        double *b, double *c) {
  *a = q->arr * dr * dr + 2 * q->arz * dr * dz + q->azz * dz * dz;
  *b = q->arr * r * dr + q->arz * (r * dz + z * dr) + q->azz * z * dz + q->br * dr + q->bz * dz;
  *c = vxg_rb_conic_eval(q, r, z);
}

/* ---------------------------------------------------------------------------------------
 * The trace in the half-plane at theta: the convex polygon of the bore and the planes. */

void vxg_rb_poly_clip(rb_poly *g, double a, double b, double c, int id) {
  rb_poly o;
  o.nv = 0;
  for (int i = 0; i < g->nv && o.nv < RB_MAX_POLY - 1; i++) {
    int j = (i + 1) % g->nv;
    double si = a * g->r[i] + b * g->z[i] - c, sj = a * g->r[j] + b * g->z[j] - c;
    if (si <= 0) {
      o.r[o.nv] = g->r[i];
      o.z[o.nv] = g->z[i];
      o.id[o.nv++] = si == 0 && sj > 0 ? id : g->id[i];
    }
    if ((si < 0 && sj > 0) || (si > 0 && sj < 0)) {
      double t = si / (si - sj);
      o.r[o.nv] = g->r[i] + t * (g->r[j] - g->r[i]);
      o.z[o.nv] = g->z[i] + t * (g->z[j] - g->z[i]);
      o.id[o.nv++] = si < 0 ? id : g->id[i];
    }
  }
  *g = o;
}

/* The trace at theta (cs, sn); 0 when an axis plane excludes the half-plane or it is empty.
 * skip: an axis plane left out (its face is measured), -1 none. */
static int trace(const rb_prob *p, double cs, double sn, int skip, rb_poly *g) {
  /* measuring plane skip's face, the half-plane lies in it and in any plane like it */
  double edge = skip >= 0 ? 1e-12 : 0;
  for (int i = 0; i < p->np; i++) {
    if (p->axis[i] && i != skip && cs * p->n[i][0] + sn * p->n[i][1] > edge) {
      return 0;
    }
  }
  /* the box's rectangle; a cylinder alone is its left edge, else the bore's lines cut it */
  int cut = p->sb > 0;
  double r0 = cut ? 0 : p->rb;
  g->nv = 4;
  double rr[4] = {r0, p->rmax, p->rmax, r0}, zz[4] = {p->zlo, p->zlo, p->zhi, p->zhi};
  int id[4] = {-1, -1, -1, cut ? -1 : -2};
  memcpy(g->r, rr, sizeof rr);
  memcpy(g->z, zz, sizeof zz);
  memcpy(g->id, id, sizeof id);
  for (int j = 0; j < p->nl && cut; j++) {
    vxg_rb_poly_clip(g, -1, p->sl[j], -p->rl[j], -2 - j);
  }
  for (int i = 0; i < p->np && g->nv > 0; i++) {
    if (!p->axis[i]) {
      double ne = cs * p->n[i][0] + sn * p->n[i][1];
      vxg_rb_poly_clip(g, ne, p->n[i][2], p->d[i], i);
    }
  }
  return g->nv >= 3;
}

/* The 3D outward normal of edge id at theta: the plane's, or the bore's (line -2 - id:
 * -e_r + sl e_z, normalised). */
static void edge_normal(const rb_prob *p, int id, double cs, double sn, double nrm[3]) {
  if (id <= -2) {
    double s = p->sl[-2 - id], l = 1 / sqrt(1 + s * s);
    nrm[0] = -cs * l;
    nrm[1] = -sn * l;
    nrm[2] = s * l;
  } else {
    memcpy(nrm, p->n[id], 3 * sizeof nrm[0]);
  }
}

/* Owner (cell) of edge id; -1 none. */
static int edge_owner(const rb_prob *p, int id) {
  return id <= -2 ? p->bore_owner : id >= 0 ? p->owner[id] : -1;
}

/* Adds the face of edge i's part t0..t1 (inside the conic) to f (see edge_faces). */
static void edge_part(const rb_prob *p, const rb_poly *g, int i, double t0, double t1, double cs,
                      double sn, double f[RB_NF]) {
  int j = (i + 1) % g->nv;
  double dr = g->r[j] - g->r[i], dz = g->z[j] - g->z[i];
  double r0 = g->r[i] + t0 * dr, r1 = g->r[i] + t1 * dr;
  double nrm[3], ne, nz, dens;
  edge_normal(p, g->id[i], cs, sn, nrm);
  ne = fabs(cs * nrm[0] + sn * nrm[1]);
  nz = fabs(nrm[2]);
  if (nz >= ne) {
    dens = fabs(r1 - r0) * 0.5 * (r0 + r1) / nz;
  } else {
    dens = fabs((t1 - t0) * dz) * 0.5 * (r0 + r1) / ne;
  }
  for (int k = 0; k < 3; k++) {
    f[10 + k] += nrm[k] * dens;
  }
}

/* Adds to f[10..12] the faces of cell 0 on the polygon's edges inside the conic (each the
 * projected area of its trace over |n . e_z| or |n . e_r|). */
static void edge_faces(const rb_prob *p, const rb_poly *g, const rb_conic *q, double cs, double sn,
                       double f[RB_NF]) {
  for (int i = 0; i < g->nv; i++) {
    if (edge_owner(p, g->id[i]) != 0) {
      continue;
    }
    int j = (i + 1) % g->nv;
    double dr = g->r[j] - g->r[i], dz = g->z[j] - g->z[i], a, b, c, t0[2], t1[2];
    vxg_rb_conic_along(q, g->r[i], g->z[i], dr, dz, &a, &b, &c);
    int np = inside_parts(a, b, c, t0, t1);
    for (int m = 0; m < np; m++) {
      edge_part(p, g, i, t0[m], t1[m], cs, sn, f);
    }
  }
}

/* The polygon's r interval at height z (convex: the crossings of its edges): the edges
 * giving its low and high ends; 0 when z misses it. */
static int poly_span(const rb_poly *g, double z, int *elo, int *ehi) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (int i = 0; i < g->nv; i++) {
    int j = (i + 1) % g->nv;
    double za = g->z[i], zb = g->z[j];
    if (za == zb || z < fmin(za, zb) || z > fmax(za, zb)) {
      continue;
    }
    double r = g->r[i] + (z - za) / (zb - za) * (g->r[j] - g->r[i]);
    if (r < lo) {
      lo = r;
      *elo = i;
    }
    if (r > hi) {
      hi = r;
      *ehi = i;
    }
  }
  return hi >= lo;
}

static double edge_r(const rb_poly *g, int i, double z) {
  int j = (i + 1) % g->nv;
  return g->r[i] + (z - g->z[i]) / (g->z[j] - g->z[i]) * (g->r[j] - g->r[i]);
}

/* Sorts a[0..n) ascending (n small). */
void vxg_rb_sort(double *a, int n) {
  for (int i = 1; i < n; i++) {
    double v = a[i];
    int j = i;
    for (; j > 0 && a[j - 1] > v; j--) {
      a[j] = a[j - 1];
    }
    a[j] = v;
  }
}

/* One z piece of the trace: its bounds' sources (an edge, or the conic's low or high root:
 * -1, -2) and the map of its ends. */
typedef struct rb_zpiece {
  double za, zb;
  int lo_src, hi_src; /* edge index >= 0, or -1 conic low root, -2 conic high root */
  int sqrt_end;       /* an end at a conic extreme (a square root there) */
} rb_zpiece;

/* Adds the rod's face at radius r (theta cs, sn; height z; weight w) to f's area vector:
 * r grad Q / |grad Q . e_r|, grad Q along (x - pa) less k times its u part. */
static void rod_face(const rb_prob *p, double r, double cs, double sn, double z, double w,
                     double f[RB_NF]) {
  double x[3] = {r * cs - p->pa[0], r * sn - p->pa[1], z - p->pa[2]};
  double xu = p->k * vxg_dot(x, p->u), gq[3];
  for (int k = 0; k < 3; k++) {
    gq[k] = x[k] - xu * p->u[k];
  }
  gq[0] -= p->tR * cs; /* a torus: from its core circle */
  gq[1] -= p->tR * sn;
  double ge = fabs(cs * gq[0] + sn * gq[1]);
  if (ge > 0) {
    for (int k = 0; k < 3; k++) {
      f[10 + k] += w * r * gq[k] / ge;
    }
  }
}

/* The integrand at (theta, z): the r integrals of the moments and the rod's face. */
static void z_node(const rb_prob *p, const rb_poly *g, const rb_conic *q, const rb_zpiece *pc,
                   double cs, double sn, double z, double w, double f[RB_NF]) {
  double qa = q->arr, qb = q->arz * z + q->br, qc = (q->azz * z + 2 * q->bz) * z + q->c, t[2];
  int nq = vxg_rb_quad_roots(qa, qb, qc, t);
  double lo = pc->lo_src >= 0 ? edge_r(g, pc->lo_src, z) : nq == 2 ? t[0] : HUGE_VAL;
  double hi = pc->hi_src >= 0 ? edge_r(g, pc->hi_src, z) : nq == 2 ? t[1] : -HUGE_VAL;
  if (!(hi > lo)) {
    return;
  }
  double dt = hi - lo, s = hi + lo, hh = hi * hi, ll = lo * lo;
  double j1 = w * dt * 0.5 * s, j2 = w * dt * (hh + hi * lo + ll) / 3,
         j3 = w * dt * 0.25 * s * (hh + ll);
  f[0] += j1;
  f[1] += cs * j2;
  f[2] += sn * j2;
  f[3] += z * j1;
  f[4] += cs * cs * j3;
  f[5] += sn * sn * j3;
  f[6] += z * z * j1;
  f[7] += cs * sn * j3;
  f[8] += sn * z * j2;
  f[9] += cs * z * j2;
  f[13] += w * dt;
  if (p->rod_owner == 0 && pc->lo_src < 0) {
    rod_face(p, lo, cs, sn, z, w, f);
  }
  if (p->rod_owner == 0 && pc->hi_src < 0) {
    rod_face(p, hi, cs, sn, z, w, f);
  }
}

/* sum of w_k |v_k - mean| over the 15 Kronrod nodes (k = 0..14), mean = sum / 2. */
static double resasc(const double v[15], double sum) {
  double r = 0;
  for (int k = 0; k < 15; k++) {
    r += GK_W[k < 8 ? k : 14 - k] * fabs(v[k] - 0.5 * sum);
  }
  return r;
}

/* The error of a Kronrod sum k from its Gauss 7 sum g and resasc, the weighted spread of
 * the values about their mean (QUADPACK's estimate: the Gauss rule's error |k - g| taken to
 * the power 3/2, as the Kronrod rule's converges faster). */
static double gk_error(double k, double g, double resasc) {
  double e = fabs(k - g);
  if (resasc > 0 && e > 0) {
    double x = 200 * e / resasc;
    e = resasc * fmin(1, x * sqrt(x));
  }
  return e;
}

/* When the conic is an ellipse: the middle zm and half-height zh of its extent in z (1),
 * else 0. A piece that ends within its own length of the ellipse's extreme is integrated
 * in the ellipse's angle (z_piece). */
static int ellipse_span(const rb_conic *q, double *zm, double *zh) {
  double a = q->azz - q->arz * q->arz / q->arr, b = q->bz - q->arz * q->br / q->arr, t[2];
  if (!(a > 0) || vxg_rb_quad_roots(a, b, q->c - q->br * q->br / q->arr, t) < 2 || !(t[1] > t[0])) {
    return 0;
  }
  *zm = 0.5 * (t[0] + t[1]);
  *zh = 0.5 * (t[1] - t[0]);
  return 1;
}

/* Integrates the z piece by Gauss-Kronrod (into fk, its Gauss 7 estimate of v into *g7). */
static double z_piece(const rb_prob *p, const rb_poly *g, const rb_conic *q, const rb_zpiece *pc,
                      double cs, double sn, double w, double fk[RB_NF]) {
  double v[15], g7 = 0, zm, zh, psa, psb;
  int ell = (pc->lo_src < 0 || pc->hi_src < 0) && ellipse_span(q, &zm, &zh) &&
            zh - fmax(fabs(pc->za - zm), fabs(pc->zb - zm)) < pc->zb - pc->za;
  if (ell) {
    psa = asin(fmax(-1, fmin(1, (pc->za - zm) / zh)));
    psb = asin(fmax(-1, fmin(1, (pc->zb - zm) / zh)));
  }
  double mid = 0.5 * (pc->za + pc->zb), half = 0.5 * (pc->zb - pc->za);
  int map = !ell && pc->sqrt_end;
  for (int k = 0; k < 15; k++) {
    int i = k < 8 ? k : 14 - k;
    double x = k < 8 ? -GK_X[i] : GK_X[i], wk = GK_W[i], z, jac;
    if (ell) {
      /* z = zm + zh sin(psi): the conic's square root is zh cos(psi), analytic */
      double ps = 0.5 * (psa + psb) + 0.5 * (psb - psa) * x;
      z = zm + zh * sin(ps);
      jac = zh * cos(ps) * 0.5 * (psb - psa);
    } else if (map) {
      z = mid + half * (k < 8 ? -GK_SIN[i] : GK_SIN[i]);
      jac = half * 0.5 * M_PI * GK_COS[i];
    } else {
      z = mid + half * x;
      jac = half;
    }
    double f1[RB_NF] = {0};
    z_node(p, g, q, pc, cs, sn, z, w * jac, f1);
    for (int j = 0; j < RB_NF; j++) {
      fk[j] += wk * f1[j];
    }
    v[k] = f1[0];
    if (i % 2 == 1) {
      g7 += G7_W[i / 2] * f1[0]; /* the Gauss 7 nodes: 1, 3, 5 and the centre 7 */
    }
  }
  return gk_error(fk[0], g7, resasc(v, fk[0]));
}

/* z_piece, the piece halved (both halves mapped at both ends) while its estimate exceeds
 * p->zrel of its integral and p->zabs, at most `depth` times: a square root just beyond an end (a
 * conic's extreme outside the polygon) is not at the end the map makes analytic. Adds into f;
 * returns the error estimate. */
static double z_adaptive(const rb_prob *p, const rb_poly *g, const rb_conic *q, const rb_zpiece *pc,
                         double cs, double sn, double w, int depth, double f[RB_NF]) {
  double fk[RB_NF] = {0};
  double e = z_piece(p, g, q, pc, cs, sn, w, fk);
  if (depth > 0 && e > p->zrel * fabs(fk[0]) && e > p->zabs) {
    rb_zpiece h[2] = {*pc, *pc};
    h[0].zb = h[1].za = 0.5 * (pc->za + pc->zb);
    h[0].sqrt_end = h[1].sqrt_end = 1;
    return z_adaptive(p, g, q, &h[0], cs, sn, w, depth - 1, f) +
           z_adaptive(p, g, q, &h[1], cs, sn, w, depth - 1, f);
  }
  for (int j = 0; j < RB_NF; j++) {
    f[j] += fk[j];
  }
  return e;
}

/* The trace's z breakpoints: vertices, the conic's crossings of edges (flag 0) and its
 * extremes in z (flag 1). Returns the count. */
static int z_breaks(const rb_poly *g, const rb_conic *q, double zb[], int flag[]) {
  int n = 0;
  for (int i = 0; i < g->nv; i++) {
    int j = (i + 1) % g->nv;
    double dr = g->r[j] - g->r[i], dz = g->z[j] - g->z[i], t[2], a, b, c;
    zb[n] = g->z[i];
    flag[n++] = 0;
    vxg_rb_conic_along(q, g->r[i], g->z[i], dr, dz, &a, &b, &c);
    int nt = vxg_rb_quad_roots(a, b, c, t);
    for (int k = 0; k < nt; k++) {
      if (t[k] > 0 && t[k] < 1) {
        zb[n] = g->z[i] + t[k] * dz;
        flag[n++] = 0;
      }
    }
  }
  /* extremes in z: dQ/dr = 0, r = -(arz z + br) / arr, then a quadratic in z */
  double t[2];
  int nt = vxg_rb_quad_roots(q->azz - q->arz * q->arz / q->arr, q->bz - q->arz * q->br / q->arr,
                             q->c - q->br * q->br / q->arr, t);
  for (int k = 0; k < nt; k++) {
    zb[n] = t[k];
    flag[n++] = 1;
  }
  return n;
}

/* The trace at theta (cs, sn) and its z pieces that hold the region (at most max), with
 * their bounds' sources and maps; the count (0: empty). skip: as trace. */
static int z_pieces(const rb_prob *p, double cs, double sn, int skip, rb_poly *g, rb_conic *q,
                    rb_zpiece *pcs, int max) {
  if (!trace(p, cs, sn, skip, g)) {
    return 0;
  }
  vxg_rb_conic_at(p, cs, sn, q);
  double zb[4 * RB_MAX_POLY + 2], zs[4 * RB_MAX_POLY + 2], zmin = HUGE_VAL, zmax = -HUGE_VAL;
  int flag[4 * RB_MAX_POLY + 2], nb = z_breaks(g, q, zb, flag), n = 0;
  for (int i = 0; i < g->nv; i++) {
    zmin = fmin(zmin, g->z[i]);
    zmax = fmax(zmax, g->z[i]);
  }
  memcpy(zs, zb, nb * sizeof zb[0]);
  vxg_rb_sort(zs, nb);
  for (int k = 0; k + 1 < nb && n < max; k++) {
    rb_zpiece pc = {fmax(zs[k], zmin), fmin(zs[k + 1], zmax), 0, 0, 0};
    double zm = 0.5 * (pc.za + pc.zb), t[2];
    int elo = 0, ehi = 0;
    if (!(pc.zb > pc.za) || !poly_span(g, zm, &elo, &ehi) ||
        vxg_rb_quad_roots(q->arr, q->arz * zm + q->br, (q->azz * zm + 2 * q->bz) * zm + q->c, t) <
            2) {
      continue;
    }
    double pl = edge_r(g, elo, zm), ph = edge_r(g, ehi, zm);
    if (!(fmin(ph, t[1]) > fmax(pl, t[0]))) {
      continue;
    }
    pc.lo_src = pl >= t[0] ? elo : -1;
    pc.hi_src = ph <= t[1] ? ehi : -2;
    for (int i = 0; i < nb; i++) {
      pc.sqrt_end |= flag[i] && ((zb[i] == zs[k] && zs[k] >= zmin) ||
                                 (zb[i] == zs[k + 1] && zs[k + 1] <= zmax));
    }
    pcs[n++] = pc;
  }
  return n;
}

/* The half-plane integral at theta, weight w, into f; its error added to *err. skip: as
 * trace. */
static void inner(const rb_prob *p, double th, double w, int skip, double f[RB_NF], double *err) {
  double cs = cos(th), sn = sin(th);
  rb_poly g;
  rb_conic q;
  rb_zpiece pcs[4 * RB_MAX_POLY];
  int n = z_pieces(p, cs, sn, skip, &g, &q, pcs, 4 * RB_MAX_POLY);
  for (int k = 0; k < n; k++) {
    *err += z_adaptive(p, &g, &q, &pcs[k], cs, sn, w, 8, f);
  }
  if (n > 0) {
    double fe[RB_NF] = {0};
    edge_faces(p, &g, &q, cs, sn, fe);
    for (int j = 10; j < 13; j++) {
      f[j] += w * fe[j];
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * The integral over theta: pieces between events, bisected where their rules disagree. */
typedef struct rb_piece {
  double a, b, f[RB_NF], err;
  int sq_a, sq_b; /* an end at a tangency, mapped */
} rb_piece;

/* Node x of [-1, 1] (sin and cos of pi x / 2: sx, cx) mapped into the piece: theta and
 * its Jacobian. A square root at a mapped end becomes analytic: s^2 at one end, sin at
 * both. */
static double piece_map(const rb_piece *pc, double x, double sx, double cx, double *jac) {
  double w = pc->b - pc->a, s = 0.5 * (x + 1);
  if (pc->sq_a && pc->sq_b) {
    *jac = 0.25 * w * M_PI * cx;
    return 0.5 * (pc->a + pc->b) + 0.5 * w * sx;
  }
  if (pc->sq_a) {
    *jac = w * s;
    return pc->a + w * s * s;
  }
  if (pc->sq_b) {
    *jac = w * (1 - s);
    return pc->b - w * (1 - s) * (1 - s);
  }
  *jac = 0.5 * w;
  return pc->a + w * s;
}

/* Gauss-Kronrod over [a, b] in theta, the map theta = mid + half sin(pi x / 2) making a
 * square root at either end analytic. */
static void theta_piece(rb_prob *p, rb_piece *pc) {
  double g7 = 0, ierr = 0, v[15];
  memset(pc->f, 0, sizeof pc->f);
  for (int k = 0; k < 15; k++) {
    int i = k < 8 ? k : 14 - k;
    double x = k < 8 ? -GK_X[i] : GK_X[i], sx = k < 8 ? -GK_SIN[i] : GK_SIN[i], jac;
    double th = piece_map(pc, x, sx, GK_COS[i], &jac);
    double f1[RB_NF] = {0}, e1 = 0;
    inner(p, th, jac, -1, f1, &e1);
    p->evals++;
    for (int j = 0; j < RB_NF; j++) {
      pc->f[j] += GK_W[i] * f1[j];
    }
    ierr += GK_W[i] * e1;
    v[k] = f1[0];
    if (i % 2 == 1) {
      g7 += G7_W[i / 2] * f1[0];
    }
  }
  pc->err = gk_error(pc->f[0], g7, resasc(v, pc->f[0])) + ierr;
}

/* 1 when the region's trace at the piece's middle is empty (so is the piece: no event in
 * it). */
static int piece_empty(const rb_prob *p, double a, double b) {
  double th = 0.5 * (a + b);
  rb_poly g;
  rb_conic q;
  rb_zpiece pc;
  return z_pieces(p, cos(th), sin(th), -1, &g, &q, &pc, 1) == 0;
}

/* The pieces of the region between sorted events ev (wrapping), integrated. */
static int theta_pieces(rb_prob *p, const rb_events *ev, rb_piece *pc, int max) {
  int n = 0, ne = ev->n;
  for (int k = 0; k < (ne ? ne : 4) && n < max; k++) {
    double a = ne ? ev->t[k] : 0.5 * M_PI * k;
    double b = ne ? (k + 1 < ne ? ev->t[k + 1] : ev->t[0] + 2 * M_PI) : a + 0.5 * M_PI;
    if (!(b > a) || piece_empty(p, a, b)) {
      continue;
    }
    pc[n].a = a;
    pc[n].b = b;
    pc[n].sq_a = ne && ev->sq[k];
    pc[n].sq_b = ne && ev->sq[k + 1 < ne ? k + 1 : 0];
    theta_piece(p, &pc[n++]);
  }
  return n;
}

/* Bisects the piece with the largest error until the sum is within tol or the budget is
 * spent; the sum of the errors. */
static double refine(rb_prob *p, rb_piece *pc, int *n, int max, double rtol, double atol) {
  for (;;) {
    double sum = 0, v = 0, tol;
    int worst = -1;
    for (int k = 0; k < *n; k++) {
      sum += pc[k].err;
      v += pc[k].f[0];
      if (worst < 0 || pc[k].err > pc[worst].err) {
        worst = k;
      }
    }
    tol = fmax(rtol * fabs(v), atol) / 16;
    if (sum <= tol || worst < 0 || *n >= max || p->evals > RB_MAX_EVALS ||
        pc[worst].b - pc[worst].a < 1e-12) {
      return sum;
    }
    rb_piece *w = &pc[worst], *h = &pc[(*n)++];
    h->b = w->b;
    w->b = h->a = 0.5 * (w->a + w->b);
    h->sq_b = w->sq_b;
    h->sq_a = w->sq_b = 0;
    theta_piece(p, w);
    theta_piece(p, h);
  }
}

/* Faces of the axis planes owned by cell 0: n times the region's trace area, at each of
 * the plane's two angles. */
static void axis_faces(const rb_prob *p, double area[3]) {
  for (int i = 0; i < p->np; i++) {
    if (!p->axis[i] || p->owner[i] != 0) {
      continue;
    }
    double th = atan2(-p->n[i][0], p->n[i][1]);
    for (int s = 0; s < 2; s++) {
      double f[RB_NF] = {0}, e = 0;
      inner(p, th + s * M_PI, 1, i, f, &e);
      for (int k = 0; k < 3; k++) {
        area[k] += p->n[i][k] * f[13];
      }
    }
  }
}

/* ---------------------------------------------------------------------------------------
 * The problem in the bore's frame. */

/* Orthonormal rows E (e1, e2, e3 = ub). */
static void bore_frame(const double ub[3], double E[3][3]) {
  double h[3] = {1, 0, 0};
  if (fabs(ub[0]) > 0.6) {
    h[0] = 0;
    h[1] = 1;
  }
  memcpy(E[2], ub, sizeof E[2]);
  vxg_cross(h, ub, E[0]);
  double l = sqrt(vxg_dot(E[0], E[0]));
  for (int k = 0; k < 3; k++) {
    E[0][k] /= l;
  }
  vxg_cross(ub, E[0], E[1]);
}

static void to_bore(const double E[3][3], const double o[3], const double x[3], double y[3]) {
  double d[3];
  vxg_sub(x, o, d);
  for (int k = 0; k < 3; k++) {
    y[k] = vxg_dot(E[k], d);
  }
}

static void rot_to_bore(const double E[3][3], const double x[3], double y[3]) {
  for (int k = 0; k < 3; k++) {
    y[k] = vxg_dot(E[k], x);
  }
}

/* Appends the plane n.x <= d of the input's frame (owner: its cell, -1 none) in the bore's
 * frame, unless it repeats one (a box face on a cell's face). */
static void add_plane(rb_prob *p, const double E[3][3], const double pb[3], const double n[3],
                      double d, int owner) {
  double nb[3], db = d - vxg_dot(n, pb), sc = sqrt(vxg_dot(pb, pb)) + p->rb + fabs(d);
  rot_to_bore(E, n, nb);
  for (int j = 0; j < p->np; j++) {
    if (vxg_dot(nb, p->n[j]) > 1 - 1e-14 && fabs(db - p->d[j]) <= 64 * DBL_EPSILON * sc) {
      return;
    }
  }
  int i = p->np++;
  memcpy(p->n[i], nb, sizeof nb);
  p->d[i] = db;
  p->owner[i] = owner;
  /* a plane through the bore's axis (up to rounding) bounds theta */
  p->axis[i] = fabs(nb[2]) <= 1e-12 && fabs(db) <= 64 * DBL_EPSILON * sc;
}

/* The rectangle holding the box's traces in every half-plane: its corners' largest
 * distance from the axis and their extent along it, padded. */
static void box_rectangle(const vxg_rod_bore_in *in, const double E[3][3], rb_prob *p) {
  p->rmax = p->rb;
  p->zlo = HUGE_VAL;
  p->zhi = -HUGE_VAL;
  for (int c = 0; c < 8; c++) {
    double x[3] = {in->box[c & 1 ? 3 : 0], in->box[c & 2 ? 4 : 1], in->box[c & 4 ? 5 : 2]}, y[3];
    to_bore(E, in->pb, x, y);
    p->rmax = fmax(p->rmax, hypot(y[0], y[1]));
    p->zlo = fmin(p->zlo, y[2]);
    p->zhi = fmax(p->zhi, y[2]);
  }
  double pad = 1e-6 * (p->rmax + p->zhi - p->zlo);
  p->rmax += pad;
  p->zlo -= pad;
  p->zhi += pad;
}

/* Fills p from the input in the bore's frame; -1 when it is out of the method's reach. */
static int setup(const vxg_rod_bore_in *in, double E[3][3], rb_prob *p) {
  memset(p, 0, sizeof *p);
  double k = in->ball ? 0 : in->ka == 0 ? 1 : in->ka, kb = in->kb == 0 ? 1 : in->kb;
  double tR = in->ball && in->torus_R > 0 ? in->torus_R : 0;
  if (!(in->ra >= 0) || !(in->ball || k >= 1) || (in->ra == 0 && k <= 1) || !(in->rb >= 0) ||
      !(kb >= 1) || in->nplane < 0 || in->nplane > VXG_RB_MAX_PLANES ||
      (tR > 0 && !(in->ra < tR))) {
    return -1;
  }
  bore_frame(in->ub, E);
  p->rb = in->rb;
  p->sb = sqrt(kb - 1);
  /* the lines: the cylinder's (or none's, rb 0), the countersink's */
  if (in->rb > 0 || kb == 1) {
    p->rl[p->nl++] = in->rb;
  }
  if (kb > 1) {
    p->sl[p->nl++] = p->sb;
  }
  p->ra = in->ra;
  p->rod_owner = in->rod_owner;
  p->bore_owner = in->rb > 0 || kb > 1 ? in->bore_owner : -1;
  to_bore(E, in->pb, in->pa, p->pa);
  rot_to_bore(E, in->ua, p->u);
  /* the rod within 60 degrees of the bore's axis (a cone: its walls nowhere parallel to the
     half-planes), so that every line across the axis meets it in an interval */
  p->k = k;
  if (!in->ball && (fabs(p->u[2]) < 0.5 || k * (1 - p->u[2] * p->u[2]) > 0.75)) {
    return -1;
  }
  p->scale = in->rb + in->ra + tR + sqrt(vxg_dot(p->pa, p->pa));
  if (tR > 0) {
    /* a torus about the bore's axis: its centre on it, its axis along it */
    double off = hypot(p->pa[0], p->pa[1]), tilt = hypot(p->u[0], p->u[1]);
    if (!(off <= 1e-9 * p->scale) || !(tilt <= 1e-9)) {
      return -1;
    }
    p->pa[0] = p->pa[1] = 0;
    p->tR = tR;
  }
  p->zrel = in->rtol > 0 ? fmin(1e-8, 0.01 * in->rtol) : 1e-10;
  /* the pieces' errors add up over at most 96 theta pieces of 15 nodes (weights < 1) and a
     few dozen z pieces each */
  p->zabs = in->atol > 0 ? 1e-5 * in->atol : 0;
  p->np = 0;
  for (int i = 0; i < in->nplane + 6; i++) {
    double n[3] = {0, 0, 0}, d;
    int owner = -1;
    if (i < in->nplane) {
      memcpy(n, in->plane[i].n, sizeof n);
      d = in->plane[i].d;
      owner = in->plane[i].owner;
    } else {
      int k = (i - in->nplane) % 3, hi = i - in->nplane >= 3;
      n[k] = hi ? 1 : -1;
      d = hi ? in->box[3 + k] : -in->box[k];
    }
    add_plane(p, E, in->pb, n, d, owner);
  }
  box_rectangle(in, E, p);
  return 0;
}

/* Volume, centroid, central moments and area vector in the input's frame from the bore
 * frame's integrals f. */
static void result(const double E[3][3], const double pb[3], const double f[RB_NF],
                   const double area_b[3], vxg_rod_bore_out *out) {
  out->v = f[0];
  double gb[3] = {0, 0, 0}, cb[6];
  if (f[0] > 0) {
    for (int k = 0; k < 3; k++) {
      gb[k] = f[1 + k] / f[0];
    }
  }
  for (int s = 0; s < 6; s++) {
    int a = VXG_SYM_ROW[s], b = VXG_SYM_COL[s];
    cb[s] = f[0] > 0 ? f[4 + s] - f[0] * gb[a] * gb[b] : 0;
  }
  /* x = pb + E^T y: the centroid, the tensor E^T C E and the area vector E^T a */
  double C[3][3];
  for (int s = 0; s < 6; s++) {
    C[VXG_SYM_ROW[s]][VXG_SYM_COL[s]] = C[VXG_SYM_COL[s]][VXG_SYM_ROW[s]] = cb[s];
  }
  for (int i = 0; i < 3; i++) {
    out->g[i] = pb[i];
    out->area[i] = 0;
    for (int k = 0; k < 3; k++) {
      out->g[i] += E[k][i] * gb[k];
      out->area[i] += E[k][i] * area_b[k];
    }
  }
  for (int s = 0; s < 6; s++) {
    int a = VXG_SYM_ROW[s], b = VXG_SYM_COL[s];
    double m = 0;
    for (int k = 0; k < 3; k++) {
      for (int l = 0; l < 3; l++) {
        m += E[k][a] * C[k][l] * E[l][b];
      }
    }
    out->cm[s] = m;
  }
}

/* The region's box (rodbore_box.c) over the pieces' angles, within the input's box (the
 * input's box when rounding lost the region, or the box is not asked for). */
static void region_box(const rb_prob *p, const double E[3][3], const vxg_rod_bore_in *in,
                       const rb_piece *pc, int n, vxg_rod_bore_out *out) {
  double iv[MAXP][2];
  for (int k = 0; k < n; k++) {
    iv[k][0] = pc[k].a;
    iv[k][1] = pc[k].b;
  }
  if (!in->want_box) {
    memcpy(out->box, in->box, sizeof out->box);
    return;
  }
  vxg_rb_box(p, E, in->pb, (const double(*)[2])iv, n, out->box);
  int empty = 0;
  for (int i = 0; i < 3; i++) {
    out->box[i] = fmax(out->box[i], in->box[i]);
    out->box[3 + i] = fmin(out->box[3 + i], in->box[3 + i]);
    empty |= !(out->box[3 + i] >= out->box[i]);
  }
  if (empty && out->v > 0) {
    memcpy(out->box, in->box, sizeof out->box);
  }
}

int vxg_rod_bore(const vxg_rod_bore_in *in, vxg_rod_bore_out *out) {
  memset(out, 0, sizeof *out);
  double E[3][3];
  rb_prob p;
  if (setup(in, E, &p) != 0) {
    return -1;
  }
  rb_events ev;
  vxg_rb_events(&p, &ev);
  rb_piece pc[MAXP];
  int n = theta_pieces(&p, &ev, pc, MAXP);
  out->err = refine(&p, pc, &n, MAXP, in->rtol, in->atol);
  double f[RB_NF] = {0}, area[3];
  for (int k = 0; k < n; k++) {
    for (int j = 0; j < RB_NF; j++) {
      f[j] += pc[k].f[j];
    }
  }
  memcpy(area, f + 10, sizeof area);
  axis_faces(&p, area);
  result(E, in->pb, f, area, out);
  region_box(&p, E, in, pc, n, out);
  return out->err * 16 <= fmax(in->rtol * out->v, in->atol) ? 0 : 1;
}
