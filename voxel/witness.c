/* witness.c: a point that certainly lies in the region, found cheaply in a MIXED box, which
 * proves the box not empty (vxv_box_holds_region) before vxv_box_empty would try, at the
 * cost of the box's half-spaces and clips, to prove it empty: under a contact most boxes
 * split on the way to the leaves hold some of it.
 *
 * Candidates: from a start point s in a part P of the box, along a unit direction u (out of
 * the MIXED atom s lies farthest beyond, by value over gradient length), the segment of P
 * where every MIXED atom's tangent plane at s keeps the atom's kept side (f(s) + t g(s).u <=
 * 0, a complemented primitive's atom negated); its middle is the candidate, then certified
 * atom by atom (vxg_atom_classify_point: the classification of a box of no extent about it,
 * whose rounding allowance it must clear). P is the box's part in the region's box (the box
 * without a region cut) and s its centre; then s is the region's box's centre, when in
 * P, and P the largest box about it within P (the deepest point of a ball's cap on a plane:
 * the region's box is the cells' boxes' common part). Nothing is assumed of the candidates: only the certification decides. */
#include <math.h>
#include <string.h>

#include "voxel/internal.h"
#include "geom/vec3.h"

/* 1 when p (query frame) lies certainly inside every cell over the classified box b: inside
 * each MIXED atom of a plain primitive, outside each complemented primitive with a MIXED atom
 * (one of its atoms puts p outside, or b lies outside one already). 0 when not certain, or
 * with a mesh atom MIXED (no search spent). */
static int holds_point(const vxv_query *q, const vxv_box *b, const double p[3]) {
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    uint64_t left = 0; /* complemented primitives p lies outside */
    for (uint64_t m = b->mixed[k]; m; m &= m - 1) {
      int i = __builtin_ctzll(m);
      vxg_class c = vxg_atom_classify_point(&qc->pc->atom[i], p);
      if (!(qc->comp_atoms >> i & 1)) {
        if (c != VXG_INSIDE) {
          return 0;
        }
      } else if (c == VXG_OUTSIDE) {
        left |= qc->pmask[qc->prim_of[i]];
      }
    }
    for (uint64_t cm = b->mixed[k] & qc->comp_atoms & ~left; cm; cm &= cm - 1) {
      if (!(qc->pmask[qc->prim_of[__builtin_ctzll(cm)]] & b->outside[k])) {
        return 0;
      }
    }
  }
  return 1;
}


/* The candidate from s in the part of half-extents e about s into p; 0 when the tangent
 * planes leave no segment (or an atom has no gradient). */
static int candidate(const vxv_query *q, const vxv_box *b, const double s[3], const double e[3],
                     double p[3]) {
  double f[2 * VXG_MAX_ATOMS], g[2 * VXG_MAX_ATOMS][3], worst = -HUGE_VAL;
  int n = 0, v = -1;
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    for (uint64_t m = b->mixed[k]; m; m &= m - 1) {
      int i = __builtin_ctzll(m);
      double sg = qc->comp_atoms >> i & 1 ? -1 : 1, gi[3];
      double fi = sg * vxg_atom_eval(&qc->pc->atom[i], s, gi), gl = sqrt(vxg_dot(gi, gi));
      if (!(gl > 0) || !isfinite(fi)) {
        return 0;
      }
      for (int j = 0; j < 3; j++) {
        g[n][j] = sg * gi[j];
      }
      f[n] = fi;
      if (fi / gl > worst) {
        worst = fi / gl;
        v = n;
      }
      n++;
    }
  }
  if (v < 0) {
    return 0;
  }
  double gl = sqrt(vxg_dot(g[v], g[v])), u[3] = {-g[v][0] / gl, -g[v][1] / gl, -g[v][2] / gl};
  double tlo = -HUGE_VAL, thi = HUGE_VAL;
  for (int j = 0; j < 3; j++) { /* within the part */
    if (u[j] != 0) {
      double a = fabs(e[j] / u[j]);
      tlo = vxv_max2(tlo, -a);
      thi = vxv_min2(thi, a);
    }
  }
  for (int j = 0; j < n; j++) { /* f_j + t g_j.u <= 0 */
    double gu = vxg_dot(g[j], u);
    if (gu > 0) {
      thi = vxv_min2(thi, -f[j] / gu);
    } else if (gu < 0) {
      tlo = vxv_max2(tlo, -f[j] / gu);
    } else if (f[j] > 0) {
      return 0;
    }
  }
  if (!(tlo <= thi) || !isfinite(tlo) || !isfinite(thi)) {
    return 0;
  }
  double t = 0.5 * (tlo + thi);
  for (int j = 0; j < 3; j++) {
    p[j] = s[j] + t * u[j];
  }
  return 1;
}


int vxv_box_holds_region(const vxv_query *q, const vxv_box *b, double p[3]) {
  for (int k = 0; k < q->ncell; k++) {
    if (b->mixed[k] & q->cell[k].costly) {
      return 0; /* a mesh: no search spent */
    }
  }
  double c[3], e[3];
  if (!(q->region_cut && vxv_box_region_part(q, b, c, e))) {
    memcpy(c, b->c, sizeof c);
    memcpy(e, b->e, sizeof e);
  }
  for (int j = 0; j < 3; j++) {
    e[j] *= 1 - 1e-9; /* the candidates strictly inside, whatever their rounding */
  }
  if (candidate(q, b, c, e, p) && holds_point(q, b, p)) {
    return 1;
  }
  /* from the region's box's centre r, within the part's largest box about r */
  double r[3], er[3];
  for (int j = 0; j < 3; j++) {
    r[j] = 0.5 * (q->rlo[j] + q->rhi[j]);
    er[j] = e[j] - fabs(r[j] - c[j]);
    if (!(er[j] >= 0)) {
      return 0;
    }
  }
  return candidate(q, b, r, er, p) && holds_point(q, b, p);
}
