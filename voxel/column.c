/* column.c: column boxes. A leaf's error comes from its curved atoms' quadratic remainders
 * (leaf.c); a quadric whose quadratic part does not involve an axis (a circular or elliptic
 * cylinder along x, y or z) has a remainder that does not grow with the box's extent along
 * that axis, and planes are integrated exactly at any size. A box whose only curved MIXED
 * atoms are such quadrics is therefore split across that axis only (four children, a
 * quadtree in the other two axes): its leaves are columns as long as the box it started
 * from, with the error and bracket of a cube of their cross-section per unit of length. A
 * contact strip along a lying cylinder then needs leaves across its width only, not along
 * its length.
 *
 * The bracket stays rigorous whatever the test decides: the remainder's range (leaf.c) is
 * taken over the box's own extents, so coefficients that rounding left on the axis (a
 * rotation by 90 degrees leaves cos(pi/2) = 6e-17) are bounded with the column's length. */
#include <math.h>

#include "voxel/internal.h"

/* Largest share of a quadric's quadratic coefficients (in absolute value) those involving
 * the column axis may have: rounding only. */
#define COLUMN_TOL 1e-12

/* Coefficients of the quadratic part (A..F: xx yy zz xy yz xz) involving each axis. */
static const int AXIS_COEF[3][3] = {{0, 3, 5}, {1, 3, 4}, {2, 4, 5}};

/* 1 when quadric coefficients q have a quadratic part that does not involve axis a. */
static int invariant_along(const double *q, int a) {
  double all = 0, on = 0;
  for (int k = 0; k < 6; k++) {
    all += fabs(q[k]);
  }
  for (int k = 0; k < 3; k++) {
    on += fabs(q[AXIS_COEF[a][k]]);
  }
  return on <= COLUMN_TOL * all;
}


unsigned vxv_quadric_axes(const double *q) {
  unsigned m = 0;
  for (int a = 0; a < 3; a++) {
    m |= invariant_along(q, a) ? 1u << a : 0;
  }
  return m;
}


/* The axis along which b is already longer than across (-1: a cube). */
static int long_axis(const vxv_box *b) {
  for (int a = 0; a < 3; a++) {
    if (b->e[a] > b->h) {
      return a;
    }
  }
  return -1;
}


int vxv_box_column_axis(const vxv_query *q, const vxv_box *b) {
  int la = long_axis(b);
  unsigned ok = la < 0 ? 7u : 1u << la; /* candidate axes */
  int curved = 0;
  for (int k = 0; k < q->ncell && ok; k++) {
    const vxv_qcell *qc = &q->cell[k];
    for (uint64_t m = b->mixed[k]; m && ok; m &= m - 1) {
      int i = __builtin_ctzll(m);
      const vxg_atom *at = &qc->pc->atom[i];
      if (at->kind != VXG_ATOM_QUADRIC) {
        return -1;
      }
      if (!(qc->curved >> i & 1)) {
        continue; /* a plane: exact at any size */
      }
      curved = 1;
      for (int a = 0; a < 3; a++) {
        if ((ok >> a & 1) && !invariant_along(at->q, a)) {
          ok &= ~(1u << a);
        }
      }
    }
  }
  if (!curved || !ok) {
    return -1;
  }
  return __builtin_ctz(ok);
}


int vxv_box_split(const vxv_query *q, const vxv_box *b, vxv_box kid[8]) {
  int a = vxv_box_column_axis(q, b), n = 0;
  /* the children's half-extents and half-edge, the same for all */
  double e[3], h = HUGE_VAL;
  for (int k = 0; k < 3; k++) {
    e[k] = k != a ? 0.5 * b->e[k] : b->e[k];
    h = e[k] < h ? e[k] : h;
  }
  const double off[3][2] = {{-e[0], e[0]}, {-e[1], e[1]}, {-e[2], e[2]}};
  for (int j = 0; j < 8; j++) {
    if (a >= 0 && (j >> a & 1)) {
      continue;
    }
    vxv_box *c = &kid[n++];
    *c = *b;
    c->leaf = 0;
    c->level = b->level + 1;
    c->h = h;
    for (int k = 0; k < 3; k++) {
      c->e[k] = e[k];
      if (k != a) {
        c->c[k] = b->c[k] + off[k][j >> k & 1];
      }
    }
  }
  return n;
}


double vxv_box_radius(const vxv_box *b) {
  return sqrt(b->e[0] * b->e[0] + b->e[1] * b->e[1] + b->e[2] * b->e[2]);
}


double vxv_box_volume(const vxv_box *b) {
  return 8 * b->e[0] * b->e[1] * b->e[2];
}
