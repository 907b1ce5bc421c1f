/* radical.c: boxes between two curved surfaces of nearly equal curvature, one of each cell,
 * proved empty by a combination of their quadrics (a peg's shaft in a bore of a little
 * larger radius, a ball in a socket or a bore).
 *
 * Where cell A keeps f_a <= 0 and cell B keeps f_b <= 0 (each atom's kept side, as flush.c
 * takes it: a complemented primitive's atom negated), every point of the region satisfies
 * f_a + w f_b <= 0 for any w >= 0. When the two quadratic parts nearly cancel (w chosen by
 * least squares), that combination is nearly linear: for two spheres or two parallel
 * cylinders it is the power difference, whose zero set is their radical plane, the common
 * tangent plane of two surfaces that touch. A box where its lower bound is positive holds
 * nothing of the region, however close the two surfaces come across it (the gap between a
 * rod and the far side of its bore, or the clearance beside the contact itself), where the
 * atoms' own bounds and their tangent planes leave it MIXED down to the leaves.
 *
 * Both take a box over its part inside the region's box (the cells' boxes' common part,
 * which holds the region). Under the fixed-leaf rule that part alone is also classified
 * against the atoms (vxv_box_region_outside): a cube of a table's face about a ball's shallow
 * cap meets both surfaces, but its part below the face, the only one inside the region's
 * box, lies outside the ball. */
#include <math.h>
#include <string.h>

#include "voxel/internal.h"

/* Largest norm of the combination's quadratic part over that of cell A's atom: beyond, the
 * surfaces' curvatures differ too much for the combination to be nearly linear. */
#define RADICAL_RESIDUAL 0.6


/* The combination of quadrics qa (kept side sa) and qb (kept side sb) into r: r->c =
 * sa qa + w sb qb, w >= 0 by least squares on the quadratic parts, and r->mag bounding the
 * coefficients and their rounding. 0 when the quadratic parts do not nearly cancel. */
static int combine(const double qa[10], int sa, const double qb[10], int sb, vxv_radical *r) {
  /* Frobenius products of the symmetric matrices (A..C their diagonal, D..F twice an
     off-diagonal entry, which appears twice): the same whatever the query frame */
  double ab = 0, bb = 0, aa = 0;
  for (int k = 0; k < 6; k++) {
    double a = sa * qa[k], b = sb * qb[k], wk = k < 3 ? 1 : 0.5;
    aa += wk * a * a;
    ab += wk * a * b;
    bb += wk * b * b;
  }
  if (!(aa > 0 && bb > 0 && ab < 0)) {
    return 0;
  }
  double w = -ab / bb, res = 0;
  for (int k = 0; k < 6; k++) {
    double d = sa * qa[k] + w * sb * qb[k];
    res += (k < 3 ? 1 : 0.5) * d * d;
  }
  if (!(res <= RADICAL_RESIDUAL * RADICAL_RESIDUAL * aa) || !isfinite(w)) {
    return 0;
  }
  for (int k = 0; k < 10; k++) {
    r->c[k] = sa * qa[k] + w * sb * qb[k];
    /* each coefficient rounds twice (a product and a sum): doubled */
    r->mag[k] = 2 * (fabs(qa[k]) + w * fabs(qb[k]));
  }
  return 1;
}


void vxv_region_centre(const vxv_workspace *ws, const double lo[3], const double hi[3],
                       double c[3], double e[3]) {
  for (int j = 0; j < 3; j++) {
    c[j] = 0.5 * (lo[j] + hi[j]) - ws->ref[j];
    e[j] = 0.5 * (hi[j] - lo[j]);
  }
}


void vxv_region_init(vxv_query *q, const double lo[3], const double hi[3], const double ref[3]) {
  double ext = 0;
  for (int k = 0; k < 3; k++) {
    ext = vxv_max2(ext, hi[k] - lo[k]);
  }
  q->ref_size = fabs(ref[0]) + fabs(ref[1]) + fabs(ref[2]);
  for (int k = 0; k < 3; k++) {
    q->rlo[k] = lo[k] - ref[k] - 1e-9 * ext; /* widened beyond the frames' rounding */
    q->rhi[k] = hi[k] - ref[k] + 1e-9 * ext;
  }
  /* boxes dropped earlier would change the rtol rules' rounds, and the parent estimate's
     families */
  q->region_cut = q->ncell == 2 && !q->rtol_rule && !q->parent_est;
}


/* b cut to the region's box: c, e its centre and half-extents. 0 when b lies beyond the
 * region's box, 2 when the cut leaves at least half of b's extent along every axis (little
 * for the atoms to decide that b did not), else 1. */
static int region_part(const vxv_query *q, const vxv_box *b, double c[3], double e[3]) {
  int most = 1;
  for (int k = 0; k < 3; k++) {
    double lo = vxv_max2(b->c[k] - b->e[k], q->rlo[k]), hi = b->c[k] + b->e[k];
    hi = hi < q->rhi[k] ? hi : q->rhi[k];
    if (!(lo <= hi)) {
      return 0;
    }
    c[k] = 0.5 * (lo + hi);
    e[k] = 0.5 * (hi - lo);
    most &= e[k] >= 0.5 * b->e[k];
  }
  return most ? 2 : 1;
}


int vxv_box_beyond_region(const vxv_query *q, const vxv_box *b) {
  double c[3], e[3];
  return q->region_cut && region_part(q, b, c, e) == 0;
}


int vxv_box_region_outside(const vxv_query *q, const vxv_box *b) {
  double c[3], e[3];
  int part = q->region_cut ? region_part(q, b, c, e) : 2;
  if (part != 1) {
    return part == 0;
  }
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    uint64_t open = 0; /* complemented primitives whose MIXED atoms are all inside so far */
    for (uint64_t m = b->mixed[k] & ~qc->costly; m; m &= m - 1) {
      int i = __builtin_ctzll(m);
      vxg_class cls = vxg_atom_classify(&qc->pc->atom[i], c, e);
      if (!(qc->comp_atoms >> i & 1)) {
        if (cls == VXG_OUTSIDE) {
          return 1;
        }
      } else if (cls == VXG_INSIDE) {
        open |= (uint64_t)1 << i;
      }
    }
    for (uint64_t m = open; m; m &= m - 1) {
      uint64_t pm = qc->pmask[qc->prim_of[__builtin_ctzll(m)]];
      if ((pm & (b->mixed[k] | b->outside[k]) & ~open) == 0) {
        return 1; /* inside every atom of the complemented primitive: outside the cell */
      }
    }
  }
  return 0;
}


void vxv_radical_init(vxv_query *q) {
  q->nrad = 0;
  if (!q->region_cut) {
    return; /* the cut's rule (vxv_region_init) */
  }
  const vxv_qcell *c0 = &q->cell[0], *c1 = &q->cell[1];
  for (int i = 0; i < c0->pc->natom; i++) {
    const vxg_atom *a = &c0->pc->atom[i];
    if (a->kind != VXG_ATOM_QUADRIC || !(c0->curved >> i & 1)) {
      continue;
    }
    for (int j = 0; j < c1->pc->natom && q->nrad < VXV_MAX_RADICAL; j++) {
      const vxg_atom *b = &c1->pc->atom[j];
      if (b->kind != VXG_ATOM_QUADRIC || !(c1->curved >> j & 1)) {
        continue;
      }
      vxv_radical *r = &q->rad[q->nrad];
      if (combine(a->q, vxv_kept_side(c0, i), b->q, vxv_kept_side(c1, j), r)) {
        r->atom[0] = i;
        r->atom[1] = j;
        q->nrad++;
      }
    }
  }
}


int vxv_box_radical(const vxv_query *q, const vxv_box *b) {
  /* the box cut to the query's region (which holds the cells' intersection): its bounds
     there are tighter (a peg's tip, a few millimetres thick, in a root cube of 8) */
  double c[3], e[3];
  if (region_part(q, b, c, e) == 0) {
    return 0; /* beyond the region: left to the atoms */
  }
  for (int p = 0; p < q->nrad; p++) {
    const vxv_radical *r = &q->rad[p];
    if (vxv_atom_alone(&q->cell[0], b, 0, r->atom[0]) &&
        vxv_atom_alone(&q->cell[1], b, 1, r->atom[1]) && vxg_quadric_lower(r->c, r->mag, c, e) > 0) {
      return 1;
    }
  }
  return 0;
}
