/* rodbore_box.c: a box holding the region of the rod-in-bore quadrature (rodbore.c), the
 * bounds of the element that reports it (a penetration's bracket is its extent along the
 * contact normal: the region box given to the quadrature would give the part's size).
 *
 * Over an interval of angles [t0, t1] about the bore's axis (middle tm, half-width h), every
 * trace of the interval lies in one relaxed trace in (r, z), each constraint relaxed alone:
 * - a plane n.x <= d, n_e(theta) r + n_z z <= d in the half-plane at theta, holds with
 *   n_e's least value over the interval (r >= 0); the bore's lines do not depend on theta;
 * - the rod, Q_theta(r, z) <= 0 (rb_conic, a trigonometric polynomial of degree 2 in
 *   theta): Q_theta >= Q_tm - h |Q'_tm| - h^2 M / 2, M bounding |Q''| over the interval
 *   and the relaxed polygon (from |e_r.u|, |e_r.pa| <= their parts across the axis), so
 *   the union of the conics Q_tm +- h Q'_tm - h^2 M / 2 <= 0 holds it.
 * The relaxed trace's extremes in r and z lie at its polygon's vertices inside a conic, a
 * conic's crossings of its edges (or its least value along an edge, a tangency in
 * rounding) and a conic's points where its tangent runs along r or z inside the polygon;
 * the cylindrical block [r0, r1] x [t0, t1] x [z0, z1] has a closed-form box. The intervals
 * start at most BOX_START wide; the one whose box reaches farthest beyond the exact traces'
 * (the relaxation with h = 0, at the intervals' middles) is halved, BOX_SPLITS times at
 * most; the union of the intervals' boxes, padded for rounding, is the result. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/rodbore.h"
#include "geom/vec3.h"

/* Intervals at most this wide to start with; at most this many halvings. */
#define BOX_START (M_PI / 4)
#define BOX_SPLITS 1
#define BOX_MAX (RB_MAX_PIECES + 8 + BOX_SPLITS)
/* The share of the exact traces' box an interval's may reach beyond it. */
#define BOX_SHARE 0.02

/* An interval of angles [t0, t1] (t1 - t0 < pi), its ends' cosines and sines. */
typedef struct box_ang {
  double t0, t1, c0, s0, c1, s1;
} box_ang;

static box_ang angles(double t0, double t1) {
  box_ang a = {t0, t1, cos(t0), sin(t0), cos(t1), sin(t1)};
  return a;
}

/* A direction's part across the bore's axis, a cos(t) + b sin(t) = R cos(t - phi). */
typedef struct box_dir {
  double a, b, R, phi;
} box_dir;

static box_dir direction(double a, double b) {
  box_dir d = {a, b, hypot(a, b), atan2(b, a)};
  return d;
}

/* The range [lo, hi] of d's a cos(t) + b sin(t) over the interval. */
static void cos_range(const box_dir *d, const box_ang *g, double *lo, double *hi) {
  double f0 = d->a * g->c0 + d->b * g->s0, f1 = d->a * g->c1 + d->b * g->s1, slack = 1e-12;
  *lo = fmin(f0, f1);
  *hi = fmax(f0, f1);
  /* the maximum at phi + 2 pi m, the minimum half a turn on (an extreme near an end kept) */
  for (int s = 0; s < 2; s++) {
    double c = d->phi + s * M_PI, m = ceil((g->t0 - slack - c) / (2 * M_PI));
    if (c + 2 * M_PI * m <= g->t1 + slack) {
      if (s == 0) {
        *hi = d->R;
      } else {
        *lo = -d->R;
      }
    }
  }
}

/* What the search shares: the problem, the frame, the planes' and the axes' directions. */
typedef struct box_ctx {
  const rb_prob *p;
  const double (*E)[3];
  const double *pb;
  box_dir plane[RB_NP], axis[3];
} box_ctx;

/* The relaxed trace's extents (rlo rhi zlo zhi), as they grow. */
static void grow2(double ext[4], double r, double z) {
  ext[0] = fmin(ext[0], r);
  ext[1] = fmax(ext[1], r);
  ext[2] = fmin(ext[2], z);
  ext[3] = fmax(ext[3], z);
}

/* The relaxed constraints a r + b z <= c of the interval: the rectangle, the bore's lines
 * (a countersink's) and the planes with n_e's least value; their count. */
static int relaxed_lines(const box_ctx *x, const box_ang *ga, double L[][3]) {
  const rb_prob *p = x->p;
  int cut = p->sb > 0, n = 0;
  double rect[4][3] = {
      {-1, 0, -(cut ? 0 : p->rb)}, {1, 0, p->rmax}, {0, -1, -p->zlo}, {0, 1, p->zhi}};
  memcpy(L, rect, sizeof rect);
  n = 4;
  for (int j = 0; j < p->nl && cut; j++, n++) {
    L[n][0] = -1;
    L[n][1] = p->sl[j];
    L[n][2] = -p->rl[j];
  }
  for (int i = 0; i < p->np; i++, n++) {
    double hi;
    cos_range(&x->plane[i], ga, &L[n][0], &hi);
    L[n][1] = p->n[i][2];
    L[n][2] = p->d[i];
  }
  return n;
}

/* Adds the conic's points with a zero derivative along r (sr 1: its extremes in z) or z
 * (its extremes in r) that satisfy the lines (within tol) to ext. */
static void conic_extremes(const rb_conic *q, int sr, const double L[][3], int nl, double tol,
                           double ext[4]) {
  /* along r: r = -(arz z + br) / arr, a quadratic in z; along z the same with r, z swapped */
  double a = sr ? q->arr : q->azz, ab = sr ? q->br : q->bz, ob = sr ? q->bz : q->br;
  double oa = sr ? q->azz : q->arr, t[2];
  if (a == 0) {
    return;
  }
  int nt = vxg_rb_quad_roots(oa - q->arz * q->arz / a, ob - q->arz * ab / a, q->c - ab * ab / a, t);
  for (int k = 0; k < nt; k++) {
    double o = t[k], s = -(q->arz * o + ab) / a, r = sr ? s : o, z = sr ? o : s;
    int in = isfinite(r) && isfinite(z);
    for (int i = 0; i < nl && in; i++) {
      in = L[i][0] * r + L[i][1] * z <= L[i][2] + tol;
    }
    if (in) {
      grow2(ext, r, z);
    }
  }
}

/* Adds to ext the extents of the relaxed polygon g (lines L) inside the conic q. */
static void conic_in_poly(const rb_prob *p, const rb_poly *g, const rb_conic *q,
                          const double L[][3], int nl, double ext[4]) {
  double s2 = p->scale + p->rmax + fabs(p->zlo) + fabs(p->zhi);
  double tolq = 1e-12 * s2 * s2, tol = 1e-12 * s2;
  for (int i = 0; i < g->nv; i++) {
    int j = (i + 1) % g->nv;
    double dr = g->r[j] - g->r[i], dz = g->z[j] - g->z[i], a, b, c, t[3];
    vxg_rb_conic_along(q, g->r[i], g->z[i], dr, dz, &a, &b, &c);
    if (c <= tolq) {
      grow2(ext, g->r[i], g->z[i]);
    }
    int nt = vxg_rb_quad_roots(a, b, c, t);
    if (a > 0 && -b / a > 0 && -b / a < 1 && c - b * b / a <= tolq) {
      t[nt++] = -b / a; /* a tangency, or a crossing lost to rounding */
    }
    for (int k = 0; k < nt; k++) {
      if (t[k] >= 0 && t[k] <= 1) {
        grow2(ext, g->r[i] + t[k] * dr, g->z[i] + t[k] * dz);
      }
    }
  }
  conic_extremes(q, 1, L, nl, tol, ext);
  conic_extremes(q, 0, L, nl, tol, ext);
}

/* The rod's conic at tm (vxg_rb_conic_at) and its derivative in theta (arr, arz, br move:
 * through e_r.u and e_r.pa). */
static void conic_and_slope(const rb_prob *p, double tm, rb_conic *q, rb_conic *d) {
  double cs = cos(tm), sn = sin(tm);
  vxg_rb_conic_at(p, cs, sn, q);
  double eu = cs * p->u[0] + sn * p->u[1], ev = -sn * p->u[0] + cs * p->u[1];
  double pv = -sn * p->pa[0] + cs * p->pa[1], pu = vxg_dot(p->pa, p->u);
  d->arr = -2 * p->k * eu * ev;
  d->arz = -p->k * ev * p->u[2];
  d->azz = 0;
  d->br = -pv + p->k * pu * ev;
  d->bz = 0;
  d->c = 0;
}

/* The relaxed trace of [t0, t1] (t0 = t1: the exact trace at t0): its extents in ext
 * (rlo rhi zlo zhi); 0 when it is empty. */
static int relaxed_extents(const box_ctx *x, const box_ang *ga, double ext[4]) {
  const rb_prob *p = x->p;
  double L[RB_NP + 6][3], tm = 0.5 * (ga->t0 + ga->t1), rtop = 0;
  int nl = relaxed_lines(x, ga, L);
  rb_poly g;
  g.nv = 4;
  for (int k = 0; k < 4; k++) {
    g.r[k] = k == 1 || k == 2 ? p->rmax : -L[0][2];
    g.z[k] = k < 2 ? p->zlo : p->zhi;
    g.id[k] = -1;
  }
  for (int i = 4; i < nl && g.nv > 0; i++) {
    int out = 0;
    for (int k = 0; k < g.nv && !out; k++) {
      out = L[i][0] * g.r[k] + L[i][1] * g.z[k] > L[i][2];
    }
    if (out) {
      vxg_rb_poly_clip(&g, L[i][0], L[i][1], L[i][2], -1);
    }
  }
  if (g.nv < 3) {
    return 0;
  }
  for (int i = 0; i < g.nv; i++) {
    rtop = fmax(rtop, g.r[i]);
  }
  double h = 0.5 * (ga->t1 - ga->t0), zmax = 0;
  for (int i = 0; i < g.nv; i++) {
    zmax = fmax(zmax, fabs(g.z[i]));
  }
  ext[0] = ext[2] = HUGE_VAL;
  ext[1] = ext[3] = -HUGE_VAL;
  /* Q at theta is at least Q(tm) - h |Q'(tm)| - h^2 M / 2 over the interval, M bounding
     |Q''| over it and the polygon: the conics Q(tm) +- h Q'(tm) - h^2 M / 2 <= 0 hold it */
  rb_conic q, d;
  conic_and_slope(p, tm, &q, &d);
  double su = hypot(p->u[0], p->u[1]), sp = hypot(p->pa[0], p->pa[1]);
  double pu = fabs(vxg_dot(p->pa, p->u)), k = p->k;
  double M = 2 * k * su * su * rtop * rtop + 2 * k * su * fabs(p->u[2]) * rtop * zmax +
             2 * (sp + k * pu * su) * rtop;
  for (int s = -1; s <= 1; s += 2) {
    rb_conic c = {q.arr + s * h * d.arr, q.arz + s * h * d.arz, q.azz, q.br + s * h * d.br, q.bz,
                  q.c - 0.5 * h * h * M};
    conic_in_poly(p, &g, &c, L, nl, ext);
    if (h == 0) {
      break;
    }
  }
  return ext[1] >= ext[0];
}

/* The box (input frame) of the cylindrical block ext (r, z) x [t0, t1]. */
static void block_box(const box_ctx *x, const double ext[4], const box_ang *ga, double box[6]) {
  const double(*E)[3] = x->E, *pb = x->pb;
  double r0 = fmax(ext[0], 0), r1 = fmax(ext[1], 0);
  for (int i = 0; i < 3; i++) {
    double glo, ghi, z0 = E[2][i] * ext[2], z1 = E[2][i] * ext[3];
    cos_range(&x->axis[i], ga, &glo, &ghi);
    box[i] = pb[i] + fmin(r0 * glo, r1 * glo) + fmin(z0, z1);
    box[3 + i] = pb[i] + fmax(r0 * ghi, r1 * ghi) + fmax(z0, z1);
  }
}

static void box_union(double b[6], const double c[6]) {
  for (int i = 0; i < 3; i++) {
    b[i] = fmin(b[i], c[i]);
    b[3 + i] = fmax(b[3 + i], c[3 + i]);
  }
}

/* Grows the exact traces' box by the trace at t. */
static void sample(const box_ctx *x, double t, double exact[6]) {
  double ext[4], b[6];
  box_ang ga = angles(t, t);
  if (relaxed_extents(x, &ga, ext)) {
    block_box(x, ext, &ga, b);
    box_union(exact, b);
  }
}

/* How far b reaches beyond the exact box on its farthest side, as a share of the exact
 * box's extent on that axis (HUGE_VAL while the exact box is empty). */
static double beyond(const double b[6], const double exact[6]) {
  double x = 0;
  for (int i = 0; i < 3; i++) {
    double e = exact[3 + i] - exact[i];
    x = fmax(x, fmax(exact[i] - b[i], b[3 + i] - exact[3 + i]) / e);
  }
  return exact[3] >= exact[0] ? x : HUGE_VAL;
}

/* The intervals of the adaptive search: their ends and boxes (empty: no part of the region). */
typedef struct box_iv {
  double a, b, box[6];
  int empty;
} box_iv;

static void iv_eval(const box_ctx *x, box_iv *v) {
  double ext[4];
  box_ang ga = angles(v->a, v->b);
  v->empty = !relaxed_extents(x, &ga, ext);
  if (!v->empty) {
    block_box(x, ext, &ga, v->box);
  }
}

void vxg_rb_box(const rb_prob *p, const double E[3][3], const double pb[3], const double (*iv)[2],
                int n, double box[6]) {
  double exact[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  box_iv v[BOX_MAX];
  int nv = 0;
  box_ctx x;
  x.p = p;
  x.E = E;
  x.pb = pb;
  for (int i = 0; i < p->np; i++) {
    x.plane[i] = direction(p->n[i][0], p->n[i][1]);
  }
  for (int i = 0; i < 3; i++) {
    x.axis[i] = direction(E[0][i], E[1][i]);
  }
  memcpy(box, exact, sizeof exact);
  for (int k = 0; k < n; k++) {
    int m = (int)ceil((iv[k][1] - iv[k][0]) / BOX_START);
    if (nv + m > BOX_MAX - BOX_SPLITS) {
      m = 1; /* not reached: the pieces span a turn */
    }
    for (int j = 0; j < m; j++) {
      double w = iv[k][1] - iv[k][0];
      v[nv].a = iv[k][0] + w * j / m;
      v[nv].b = j + 1 == m ? iv[k][1] : iv[k][0] + w * (j + 1) / m;
      sample(&x, 0.5 * (v[nv].a + v[nv].b), exact);
      iv_eval(&x, &v[nv++]);
    }
  }
  /* halve the interval reaching farthest beyond the exact box (as a share of its extent on
     that axis) while that is above BOX_SHARE */
  for (int split = 0; split < BOX_SPLITS; split++) {
    double worst = BOX_SHARE;
    int w = -1;
    for (int k = 0; k < nv; k++) {
      double far = v[k].empty ? 0 : beyond(v[k].box, exact);
      if (far > worst && v[k].b - v[k].a > 1e-9) {
        worst = far;
        w = k;
      }
    }
    if (w < 0) {
      break;
    }
    double mid = 0.5 * (v[w].a + v[w].b);
    v[nv] = v[w];
    v[nv].a = v[w].b = mid;
    sample(&x, mid, exact);
    iv_eval(&x, &v[w]);
    iv_eval(&x, &v[nv++]);
  }
  for (int k = 0; k < nv; k++) {
    if (!v[k].empty) {
      box_union(box, v[k].box);
    }
  }
  double s2 = p->scale + p->rmax + fabs(p->zlo) + fabs(p->zhi) + sqrt(vxg_dot(pb, pb));
  for (int i = 0; i < 3; i++) {
    box[i] -= 1e-9 * s2;
    box[3 + i] += 1e-9 * s2;
  }
}
