/* frame.c: the query frame. A query is integrated in the world's axes, unless a cell's own
 * axes give the column rule (column.c) an axis the world's do not: a cylinder (of any
 * radius, with any planes) lying at any angle against a cell of planes, such as a pin, a
 * shaft or a roller on a table or in a vee. Its leaves are then columns along the cylinder
 * whatever its pose, as an axis-aligned one's are in the world (cubes would take a leaf
 * count that grows with the contact's length over the leaf edge), and the sums are turned
 * back into the world's axes at the end.
 * A query with a visitor stays in the world's axes: its elements are world boxes. */
#include <math.h>

#include "voxel/internal.h"

/* The axes (bits 0..2) along which every curved quadric atom of qc, given by the atoms' own
 * coefficients `atom` (posed, or in the cell's frame), is invariant; -1 when an atom is not
 * a quadric; 0 when none is common or qc has no curved atom. */
static int common_axes(const vxv_qcell *qc, const vxg_atom *atom, int natom) {
  unsigned ok = 7;
  int curved = 0;
  for (int i = 0; i < natom; i++) {
    if (atom[i].kind != VXG_ATOM_QUADRIC) {
      return -1;
    }
    if (qc->curved >> i & 1) {
      curved = 1;
      ok &= vxv_quadric_axes(atom[i].q);
    }
  }
  return curved ? (int)ok : 0;
}


int vxv_frame_cell(const vxv_query *q, const vxg_cell *const *cells) {
  if (q->ncell != 2) {
    return -1;
  }
  for (int k = 0; k < 2; k++) {
    const vxv_qcell *qk = &q->cell[k], *qo = &q->cell[1 - k];
    if (qo->curved || common_axes(qo, qo->pc->atom, qo->pc->natom) != 0) {
      continue; /* the other cell must be planes alone */
    }
    if (common_axes(qk, qk->pc->atom, qk->pc->natom) != 0) {
      return -1; /* the world's axes serve already */
    }
    if (common_axes(qk, cells[k]->atom, cells[k]->natom) > 0) {
      return k;
    }
  }
  return -1;
}


void vxv_frame_xforms(const vxg_xform *const *to_world, int fc, vxg_xform xf[2]) {
  vxg_xform inv;
  vxg_xform_inverse(&inv, to_world[fc]);
  vxg_xform_identity(&xf[fc]);
  vxg_xform_compose(&xf[1 - fc], &inv, to_world[1 - fc]);
}


void vxv_frame_to_world(const vxg_xform *f, double ref[3], vxv_acc *tot) {
  double m1[3], a[3], r1[3], ra[3], m2[6], c[9];
  for (int k = 0; k < 3; k++) {
    m1[k] = vxv_acc_get(tot, VXV_ACC_M1 + k);
    a[k] = vxv_acc_get(tot, VXV_ACC_AREA + k);
  }
  for (int k = 0; k < 6; k++) {
    m2[k] = vxv_acc_get(tot, VXV_ACC_M2 + k);
  }
  const double s[9] = {m2[0], m2[3], m2[5], m2[3], m2[1], m2[4], m2[5], m2[4], m2[2]};
  vxg_xform_vector(f, m1, r1);
  vxg_xform_vector(f, a, ra);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) { /* c = R S */
      c[3 * i + j] = f->r[3 * i] * s[j] + f->r[3 * i + 1] * s[3 + j] + f->r[3 * i + 2] * s[6 + j];
    }
  }
  static const int IJ[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {0, 2}};
  for (int k = 0; k < 6; k++) { /* (R S R^T)_ij */
    int i = IJ[k][0], j = IJ[k][1];
    tot->s[VXV_ACC_M2 + k] = c[3 * i] * f->r[3 * j] + c[3 * i + 1] * f->r[3 * j + 1] +
                             c[3 * i + 2] * f->r[3 * j + 2];
    tot->c[VXV_ACC_M2 + k] = 0;
  }
  for (int k = 0; k < 3; k++) {
    tot->s[VXV_ACC_M1 + k] = r1[k];
    tot->s[VXV_ACC_AREA + k] = ra[k];
    tot->c[VXV_ACC_M1 + k] = tot->c[VXV_ACC_AREA + k] = 0;
  }
  vxv_frame_point(f, ref);
}


void vxv_frame_point(const vxg_xform *f, double p[3]) {
  double q[3] = {p[0], p[1], p[2]};
  vxg_xform_point(f, q, p);
}
