/* bore.c: a cell inside another's bore proves the pair apart, before any octree box.
 *
 * A cell is the intersection of its primitives, so a cell B with a complemented cylinder
 * (not Q) lies outside the infinite cylinder Q (a cylinder primitive is infinite; slabs
 * that cut it are other primitives). The interference lies in the query's region (the
 * intersection of the cells' boxes), so when the other cell's hull (geom/support.c, a
 * convex superset of the cell) cut by the region's box lies inside Q, the cells are
 * disjoint: a peg in a hole with clearance, whose wall cell's hull holds the hole, so that
 * neither the hull test nor the octree's coarse boxes can tell; the box also clears a wall
 * cell on one side of a peg that touches the other.
 *
 * Containment in Q (axis P + t U, radius R) of that convex set K: for every unit u normal
 * to U, g(u) = max over K of u.(x - P) <= R. g is sublinear, so between samples u1, u2 an
 * angle delta apart g(u) <= max(g(u1), g(u2)) / cos(delta / 2) (u is a sum of them with
 * weights adding up to at most 1 / cos(delta / 2)); intervals whose bound fails are halved.
 * Each sample's g is bounded by the box's support, and by the dual of the cut by the slab
 * S (the box's extent along U): for every lambda,
 * g(u) <= h(u - lambda U) - (u - lambda U).P + lambda t (t the slab's top for lambda > 0,
 * its bottom for lambda < 0; h the hull's support function), a convex function of lambda
 * whose slope is t - U.(x - P) at the support point x, so bisection on that sign finds its
 * least value (a tilted peg's end beyond the hole's mouth is cut off); any lambda gives a
 * valid bound. */
#include <float.h>
#include <math.h>

#include "geom/vec3.h"
#include "voxel/internal.h"

/* Directions sampled first, and the halvings of an interval allowed after. */
#define BORE_SAMPLES 32
#define BORE_DEPTH 8
/* Samples evaluated per cylinder at most (the halvings' budget). */
#define BORE_MAX_EVALS 512
/* Bisection steps on the cut's multiplier, and its largest magnitude tried. */
#define BORE_BISECT 48
#define BORE_LAMBDA_MAX 64.0
#define BORE_TOUCH 1e-10

/* A complemented cylinder (axis p + t u, radius r; query frame) and the other cell, whose
 * hull is tested. */
typedef struct bore {
  const vxg_posed_cell *other;
  double p[3], u[3], r;
  double v1[3], v2[3]; /* a basis of the plane normal to u */
  double bc[3], be[3]; /* the region's box: its centre less p, its half-extents */
  double t_lo, t_hi;   /* the slab holding the region, along u from p */
  double target;       /* R less the rounding allowance */
  int evals;
} bore;


/* y = x - P of the other hull's support point in direction d (query frame). */
static void support_rel(const bore *b, const double d[3], double y[3]) {
  const vxg_posed_cell *pc = b->other;
  double dc[3], xc[3], x[3];
  vxg_xform_vector_inv(&pc->to_frame, d, dc);
  vxg_hull_support(&pc->cell->hull, dc, xc);
  vxg_xform_point(&pc->to_frame, xc, x);
  vxg_sub(x, b->p, y);
}


/* The cut's bound at multiplier lam (its sign picks the slab's face); *along gets U.(x - P)
 * at the support point x, the bound's slope being the face's t less it. */
static double cut_bound(const bore *b, const double u[3], double lam, double *along) {
  double d[3], y[3];
  for (int j = 0; j < 3; j++) {
    d[j] = u[j] - lam * b->u[j];
  }
  support_rel(b, d, y);
  double s = vxg_dot(b->u, y), t = lam > 0 ? b->t_hi : b->t_lo;
  *along = s;
  return vxg_dot(u, y) + lam * (t - s);
}


/* An upper bound on g(u) (the least bound found; early out at or below `enough`). */
static double sample_bound(bore *b, const double u[3], double enough) {
  b->evals++;
  double best = vxg_dot(u, b->bc);
  for (int j = 0; j < 3; j++) {
    best += fabs(u[j]) * b->be[j];
  }
  if (best <= enough) {
    return best; /* the region's box alone */
  }
  double s;
  best = fmin(best, cut_bound(b, u, 0, &s));
  if (best <= enough || (s >= b->t_lo && s <= b->t_hi)) {
    return best; /* enough, or lambda 0 is the least (the support point in the slab) */
  }
  /* toward the face the support point is beyond: the bound falls while it stays beyond */
  double sign = s > b->t_hi ? 1 : -1, face = sign > 0 ? b->t_hi : b->t_lo, lo = 0, hi = 1;
  for (;;) {
    best = fmin(best, cut_bound(b, u, sign * hi, &s));
    if (best <= enough || sign * (s - face) <= 0 || hi >= BORE_LAMBDA_MAX) {
      break;
    }
    lo = hi;
    hi *= 2;
  }
  for (int i = 0; i < BORE_BISECT && best > enough; i++) {
    double mid = 0.5 * (lo + hi);
    best = fmin(best, cut_bound(b, u, sign * mid, &s));
    if (sign * (s - face) > 0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return best;
}


static void direction(const bore *b, double ang, double u[3]) {
  double c = cos(ang), s = sin(ang);
  for (int j = 0; j < 3; j++) {
    u[j] = c * b->v1[j] + s * b->v2[j];
  }
}


/* 1 when g stays within the target between angles a0 and a1 (bounds g0, g1 there). */
static int interval_inside(bore *b, double a0, double a1, double g0, double g1, int depth) {
  double half = 0.5 * (a1 - a0), m = fmax(g0, g1);
  if (m <= 0 || m <= b->target * cos(half)) {
    return 1;
  }
  if (depth >= BORE_DEPTH || b->evals >= BORE_MAX_EVALS) {
    return 0;
  }
  double u[3], am = a0 + half;
  direction(b, am, u);
  double gm = sample_bound(b, u, b->target * cos(0.5 * half));
  return gm <= b->target && interval_inside(b, a0, am, g0, gm, depth + 1) &&
         interval_inside(b, am, a1, gm, g1, depth + 1);
}


/* 1 when the other hull, cut by the region's box, lies inside the cylinder. */
static int hull_inside(bore *b) {
  double g[BORE_SAMPLES + 1], step = 2 * M_PI / BORE_SAMPLES;
  double enough = b->target * cos(0.5 * step);
  for (int i = 0; i < BORE_SAMPLES; i++) {
    double u[3];
    direction(b, i * step, u);
    g[i] = sample_bound(b, u, enough);
    if (!(g[i] <= b->target)) {
      return 0;
    }
  }
  g[BORE_SAMPLES] = g[0];
  for (int i = 0; i < BORE_SAMPLES; i++) {
    if (!interval_inside(b, i * step, (i + 1) * step, g[i], g[i + 1], 0)) {
      return 0;
    }
  }
  return 1;
}


/* Sets up the test of cell k's complemented cylinder pr against the other cell, over the
 * region (c, e). */
static void bore_init(const vxv_workspace *ws, int k, const vxg_prim *pr, const double c[3],
                      const double e[3], int touch, double reach, bore *b) {
  const vxg_posed_cell *pc = &ws->pc[k];
  static const double ez[3] = {0, 0, 1};
  double uc[3];
  b->other = &ws->pc[1 - k];
  b->r = pr->param[0];
  b->evals = 0;
  double grow = reach * b->r; /* the box grown and the radius shrunk by it */
  vxg_xform_point(&pc->to_frame, pr->move.t, b->p);
  vxg_xform_vector(&pr->move, ez, uc);
  vxg_xform_vector(&pc->to_frame, uc, b->u);
  double n = sqrt(vxg_dot(b->u, b->u));
  for (int j = 0; j < 3; j++) {
    b->u[j] /= n;
  }
  /* v1: the world axis least along u, made normal to it; v2 = u x v1 */
  int a = 0;
  for (int j = 1; j < 3; j++) {
    a = fabs(b->u[j]) < fabs(b->u[a]) ? j : a;
  }
  double w[3] = {0, 0, 0};
  w[a] = 1;
  double wu = b->u[a];
  for (int j = 0; j < 3; j++) {
    b->v1[j] = w[j] - wu * b->u[j];
  }
  n = sqrt(vxg_dot(b->v1, b->v1));
  for (int j = 0; j < 3; j++) {
    b->v1[j] /= n;
  }
  vxg_cross(b->u, b->v1, b->v2);
  double d[3], along = 0, scale = b->r;
  vxg_sub(c, b->p, d);
  for (int j = 0; j < 3; j++) {
    b->bc[j] = d[j];
    b->be[j] = e[j] + grow;
    along += fabs(b->u[j]) * b->be[j];
    scale += fabs(c[j]) + b->be[j] + fabs(b->p[j]) + fabs(ws->ref[j]) +
             fmax(fabs(b->other->aabb[j]), fabs(b->other->aabb[3 + j]));
  }
  b->t_lo = vxg_dot(b->u, d) - along;
  b->t_hi = vxg_dot(b->u, d) + along;
  /* the rounding of the posed frames (world coordinates), of the support points and of the
     bounds (terms up to BORE_LAMBDA_MAX times the scale), generously; with `touch`, a hull
     that touches the cylinder within BORE_TOUCH of the scale (a peg resting on its bore)
     counts as apart: what lies beyond is a sliver of that thickness along the line of
     contact */
  double slack = touch ? BORE_TOUCH : 0;
  b->target = b->r - grow + (slack - 1024 * DBL_EPSILON * (1 + BORE_LAMBDA_MAX)) * scale;
}


int vxv_bore_apart(const vxv_workspace *ws, const double c[3], const double e[3], int touch,
                   double reach, double *grown) {
  if (ws->q.ncell != 2) {
    return 0;
  }
  for (int k = 0; k < 2; k++) {
    const vxg_cell *cell = ws->pc[k].cell;
    for (int p = 0; p < cell->nprim; p++) {
      const vxg_prim *pr = &cell->prim[p];
      if (pr->kind != VXG_CYLINDER || !pr->complement) {
        continue;
      }
      bore b;
      bore_init(ws, k, pr, c, e, touch, reach, &b);
      if (b.target > 0 && hull_inside(&b)) {
        if (grown) {
          *grown = reach * b.r;
        }
        return 1;
      }
    }
  }
  return 0;
}
