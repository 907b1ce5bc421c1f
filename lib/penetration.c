/* penetration.c: a cell pair's largest penetration along its contact normal.
 *
 * The interference I = A n B of two posed cells has, along the unit normal n (from A
 * toward B), an extent max_I n.x - min_I n.x. Bounds of it:
 * - above: each cell lies in its hull (the cell itself when convex), whose support
 *   function h(d) = max d.x is closed-form (geom/support.c), so I lies in the slab
 *   max(-h_A(-n), -h_B(-n)) <= n.x <= min(h_A(n), h_B(n)); when the octree's region is at
 *   hand (always for a cell that is not convex, on one thread), also in the spread of the
 *   bounding boxes of what its cubes hold;
 * - below: for two convex cells, A's deepest point along n (its support point) and the
 *   segment from it back along -n while it stays in both cells lie in I, and so do B's
 *   along +n: the longer segment is the depth a point-contact law expects; with the
 *   region, the spread of its whole boxes' cubes and its leaves' volumes' centroids, or
 *   the certified volume over the area of the region's shadow across n (bounded above by
 *   the sum of its elements' bounding boxes' shadows), whichever is larger.
 * The estimate is the segment for convex cells, else the region's midpoint, else the
 * slab (an upper bound).
 *
 * A pair split into several contact patches (connected parts of the region) is measured
 * patch by patch, each along its own normal with its own elements (the slab above, along
 * that normal, and the spread of the patch's elements): the pair's extent would otherwise
 * be the span across the patches (a peg pressed into both walls of a hole: the peg's
 * width, not the wall's overlap). The pair then takes its largest patch's figures: the
 * largest estimate, and the bracket [max of the lows, max of the highs] of the largest
 * extent. */
#include <math.h>

#include "geom/vec3.h"
#include "lib/internal.h"

/* Support value h(d) = max d.x over the hull of cell c posed by t (cell -> world); the
 * support point (world) in s. */
static double posed_support(const vxg_cell *c, const vxg_xform *t, const double d[3], double s[3]) {
  double dl[3], sl[3];
  vxg_xform_vector_inv(t, d, dl);
  vxg_hull_support(&c->hull, dl, sl);
  vxg_xform_point(t, sl, s);
  return vxg_dot(d, s);
}


/* Whether world point p lies in both cells. */
static int in_both(const vxg_cell *ca, const vxg_xform *ia, const vxg_cell *cb, const vxg_xform *ib,
                   const double p[3]) {
  double q[3];
  vxg_xform_point(ia, p, q);
  if (!vxg_cell_contains(ca, q)) {
    return 0;
  }
  vxg_xform_point(ib, p, q);
  return vxg_cell_contains(cb, q);
}


/* Length of the segment from p along d (unit) that stays in both convex cells, at most
 * len: 0 unless p + len 2^-40 d is in both; then bisection on the membership of p + t d
 * (an interval for convex cells), to len 2^-52. */
static double segment_in_both(const vxg_cell *ca, const vxg_xform *ia, const vxg_cell *cb,
                              const vxg_xform *ib, const double p[3], const double d[3],
                              double len) {
  double lo = ldexp(len, -40), hi = len, x[3];
  for (int k = 0; k < 3; k++) {
    x[k] = p[k] + lo * d[k];
  }
  if (!(len > 0) || !in_both(ca, ia, cb, ib, x)) {
    return 0.0;
  }
  for (int it = 0; it < 52; it++) {
    double t = 0.5 * (lo + hi);
    for (int k = 0; k < 3; k++) {
      x[k] = p[k] + t * d[k];
    }
    if (in_both(ca, ia, cb, ib, x)) {
      lo = t;
    } else {
      hi = t;
    }
  }
  return lo;
}


/* Area of the shadow of the box b (lo x y z, hi x y z) on a plane across the unit n. */
static double shadow(const double n[3], const double b[6]) {
  double e[3];
  for (int k = 0; k < 3; k++) {
    e[k] = fmax(b[3 + k] - b[k], 0.0);
  }
  return fabs(n[0]) * e[1] * e[2] + fabs(n[1]) * e[0] * e[2] + fabs(n[2]) * e[0] * e[1];
}


/* The region's elements holding volume (those of patch `patch`, or all for -1): the spread
 * of their cubes along n (*hi) and of what surely lies in I (*lo): a whole box's cube, a
 * leaf's volume's centroid; or, when larger, their certified volume over the sum of their
 * regions' bounding boxes' shadows across n (a set of extent E along n whose shadow has
 * area S holds at most E S: a thin layer along a wall is bracketed so to the leaves' own
 * rounding). 0 when none holds volume. */
static int region_spread(const double n[3], const vxc_region_box *box, size_t nbox, int patch,
                         double *hi, double *lo) {
  double cmin = HUGE_VAL, cmax = -HUGE_VAL, bmin = HUGE_VAL, bmax = -HUGE_VAL, vlo = 0, proj = 0;
  for (size_t i = 0; i < nbox; i++) {
    const vxc_region_box *b = &box[i];
    if (!(b->volume > 0) || (patch >= 0 && b->patch != patch)) {
      continue;
    }
    /* the box's half-extent along n (a column, or a closed-form pair's box, is no cube) */
    double r =
        0.5 * (fabs(n[0]) * b->extent[0] + fabs(n[1]) * b->extent[1] + fabs(n[2]) * b->extent[2]);
    double c = vxg_dot(n, b->center);
    double g = c + vxg_dot(n, b->moments + 1) / b->volume, in = b->leaf ? 0.0 : r;
    /* the spread of the region in the box: its bounding box's (within the cube; a pair
       measured by the rod-in-bore quadrature: the quadrature's box of its region) */
    double rc = 0, rr = 0;
    for (int k = 0; k < 3; k++) {
      rc += n[k] * 0.5 * (b->bounds[k] + b->bounds[3 + k]);
      rr += fabs(n[k]) * 0.5 * (b->bounds[3 + k] - b->bounds[k]);
    }
    bmin = fmin(bmin, fmax(c - r, rc - rr));
    bmax = fmax(bmax, fmin(c + r, rc + rr));
    cmin = fmin(cmin, (b->leaf ? g : c) - in);
    cmax = fmax(cmax, (b->leaf ? g : c) + in);
    vlo += b->volume_lo;
    proj += shadow(n, b->bounds);
  }
  if (!(bmax >= bmin)) {
    return 0;
  }
  *hi = bmax - bmin;
  *lo = cmax - cmin;
  if (proj > 0 && vlo > 0) {
    *lo = fmax(*lo, vlo / proj);
  }
  return 1;
}


/* Width (>= 0) of the slab between the cells' hulls' support planes along n, which holds
 * I: from max(-h_A(-n), -h_B(-n)) to min(h_A(n), h_B(n)); pa gets A's support point along
 * n, pb B's along -n. */
static double slab(const vxg_cell *ca, const vxg_xform *ta, const vxg_cell *cb,
                   const vxg_xform *tb, const double n[3], double pa[3], double pb[3]) {
  double m[3] = {-n[0], -n[1], -n[2]}, s[3];
  double top = fmin(posed_support(ca, ta, n, pa), posed_support(cb, tb, n, s));
  double bottom = fmax(-posed_support(ca, ta, m, s), -posed_support(cb, tb, m, pb));
  return fmax(top - bottom, 0.0);
}


void vxci_penetration(const vxg_cell *ca, const vxg_xform *ta, const vxg_cell *cb,
                      const vxg_xform *tb, const double n[3], const vxc_region_box *box,
                      size_t nbox, int exact, vxc_pair_metrics *pm) {
  double m[3] = {-n[0], -n[1], -n[2]}, pa[3], pb[3];
  double hi = slab(ca, ta, cb, tb, n, pa, pb), lo = 0.0, rhi, rlo;
  int region = region_spread(n, box, nbox, -1, &rhi, &rlo);
  if (region) {
    hi = fmin(hi, rhi);
    lo = fmin(hi, rlo);
  }
  double seg = 0.0;
  if (exact && ca->hull.exact && cb->hull.exact) {
    vxg_xform ia, ib;
    vxg_xform_inverse(&ia, ta);
    vxg_xform_inverse(&ib, tb);
    seg = fmax(segment_in_both(ca, &ia, cb, &ib, pa, m, hi),
               segment_in_both(ca, &ia, cb, &ib, pb, n, hi));
    lo = fmax(lo, seg);
  }
  pm->penetration_lo = lo;
  pm->penetration_hi = hi;
  pm->penetration = seg > 0 ? seg : region ? 0.5 * (lo + hi) : hi;
}


void vxci_patch_penetration(const vxg_cell *ca, const vxg_xform *ta, const vxg_cell *cb,
                            const vxg_xform *tb, const vxc_region_box *box, size_t nbox,
                            vxc_patch *patch, int npatch, vxc_pair_metrics *pm) {
  pm->penetration = pm->penetration_lo = pm->penetration_hi = 0.0;
  for (int k = 0; k < npatch; k++) {
    vxc_patch *p = &patch[k];
    double pa[3], pb[3], rhi, rlo;
    p->penetration_hi = slab(ca, ta, cb, tb, p->normal, pa, pb);
    p->penetration_lo = 0.0;
    p->penetration = p->penetration_hi;
    if (region_spread(p->normal, box, nbox, k, &rhi, &rlo)) {
      p->penetration_hi = fmin(p->penetration_hi, rhi);
      p->penetration_lo = fmin(p->penetration_hi, rlo);
      p->penetration = 0.5 * (p->penetration_lo + p->penetration_hi);
    }
    pm->penetration = fmax(pm->penetration, p->penetration);
    pm->penetration_lo = fmax(pm->penetration_lo, p->penetration_lo);
    pm->penetration_hi = fmax(pm->penetration_hi, p->penetration_hi);
  }
}
