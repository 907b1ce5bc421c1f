/* flush.c: flush contacts, where a surface of one cell coincides with a surface of the other
 * with the solids on opposite sides (a cone seated in a countersink of its angle, a peg in a
 * bore of its radius, a box on a table).
 *
 * Two quadric atoms coincide when their coefficients are proportional (to 1e-12, after both
 * cells are posed in the query frame). If cell A keeps f <= 0 and cell B keeps the other
 * side (B's atom is the same quadric times a negative factor, or times a positive one in a
 * complemented primitive), the cells' intersection within any box where both atoms are the
 * only undecided surfaces of their primitives lies on the surface: it has no volume, and the
 * box is OUTSIDE. Refining toward such a surface would never end (every leaf along it is
 * crossed by both), while the exact answer there is zero. */
#include <math.h>
#include <string.h>

#include "voxel/internal.h"

/* Coefficients within this fraction of their norm count as proportional. */
#define FLUSH_RTOL 1e-12

/* s > 0 when qb = s qa (s: the factor's sign), 0 when not proportional. */
static int proportional(const double qa[10], const double qb[10]) {
  double na = 0, nb = 0, dot = 0;
  for (int k = 0; k < 10; k++) {
    na += qa[k] * qa[k];
    nb += qb[k] * qb[k];
    dot += qa[k] * qb[k];
  }
  if (!(na > 0 && nb > 0) || dot * dot < 0.99 * na * nb) {
    return 0; /* the second: |qa / |qa| - s qb / |qb||^2 >= 2 - 2 sqrt(0.99) below */
  }
  int s = dot > 0 ? 1 : -1;
  double ra = 1 / sqrt(na), rb = s / sqrt(nb), d = 0;
  for (int k = 0; k < 10; k++) {
    double e = qa[k] * ra - qb[k] * rb;
    d += e * e;
  }
  return d <= FLUSH_RTOL * FLUSH_RTOL ? s : 0;
}


int vxv_kept_side(const vxv_qcell *qc, int i) {
  return qc->comp[qc->prim_of[i]] ? -1 : 1;
}


void vxv_flush_init(vxv_query *q) {
  q->nflush = 0;
  if (q->ncell != 2) {
    return;
  }
  const vxv_qcell *c0 = &q->cell[0], *c1 = &q->cell[1];
  for (int i = 0; i < c0->pc->natom; i++) {
    const vxg_atom *a = &c0->pc->atom[i];
    for (int j = 0; j < c1->pc->natom && q->nflush < VXV_MAX_FLUSH; j++) {
      const vxg_atom *b = &c1->pc->atom[j];
      if (a->kind != VXG_ATOM_QUADRIC || b->kind != VXG_ATOM_QUADRIC) {
        continue;
      }
      int s = proportional(a->q, b->q);
      /* opposite sides: B keeps s f_A <= 0 (plain) or s f_A >= 0 (complemented) */
      if (s != 0 && s * vxv_kept_side(c1, j) * vxv_kept_side(c0, i) < 0) {
        q->flush[q->nflush][0] = i;
        q->flush[q->nflush][1] = j;
        q->nflush++;
      }
    }
  }
}


int vxv_atom_alone(const vxv_qcell *qc, const vxv_box *b, int k, int i) {
  uint64_t bit = (uint64_t)1 << i;
  if (!qc->comp[qc->prim_of[i]]) {
    return (b->mixed[k] & bit) != 0;
  }
  return (qc->pmask[qc->prim_of[i]] & (b->mixed[k] | b->outside[k])) == bit;
}


int vxv_box_flush(const vxv_query *q, const vxv_box *b) {
  for (int f = 0; f < q->nflush; f++) {
    int i = q->flush[f][0], j = q->flush[f][1];
    if (vxv_atom_alone(&q->cell[0], b, 0, i) && vxv_atom_alone(&q->cell[1], b, 1, j)) {
      return 1;
    }
  }
  return 0;
}
