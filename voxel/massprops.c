/* massprops.c: mass properties of whole solids, combining results of disjoint regions, and
 * the uniform-grid baseline the benchmarks compare the octree with.
 *
 * Combining: each result carries its moments about its own reference point (world axes);
 * they are shifted to the first part's reference point, m1' = m1 + m0 d,
 * m2' = m2 + d m1^T + m1 d^T + m0 d d^T (d = ref_i - ref_0), summed with compensation, and
 * the centroid and J are formed from the sums as for one query (vxv_finish_result).
 *
 * Baseline: a grid of cubes of edge h over the bounding-box intersection (anchored at its
 * low corner); a cube counts whole when its centre is inside every cell
 * (vxg_posed_cell_contains), so its error is first order in h. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "voxel/internal.h"
#include "geom/vec3.h"

/* Adds the moments of r (about r->ref) to acc, shifted to ref0; also lo, hi, area. */
static void acc_result(vxv_acc *acc, const vxv_result *r, const double ref0[3]) {
  double d[3] = {r->ref[0] - ref0[0], r->ref[1] - ref0[1], r->ref[2] - ref0[2]};
  const vxg_moments *m = &r->mom;
  vxv_acc_add(acc, VXV_ACC_M0, m->m0);
  for (int k = 0; k < 3; k++) {
    vxv_acc_add(acc, VXV_ACC_M1 + k, m->m1[k] + m->m0 * d[k]);
  }
  for (int k = 0; k < 6; k++) {
    int i = VXG_SYM_ROW[k], j = VXG_SYM_COL[k];
    vxv_acc_add(acc, VXV_ACC_M2 + k,
                m->m2[k] + d[i] * m->m1[j] + m->m1[i] * d[j] + m->m0 * d[i] * d[j]);
  }
  vxv_acc_add(acc, VXV_ACC_LO, r->volume_lo);
  vxv_acc_add(acc, VXV_ACC_HI, r->volume_hi);
  vxv_acc_add(acc, VXV_ACC_PGAP, r->moment_width);
  for (int k = 0; k < 3; k++) {
    vxv_acc_add(acc, VXV_ACC_AREA + k, r->area_vector[k]);
  }
}


int vxv_mesh_alone(const vxg_cell *c) {
  return c->nprim == 1 && c->prim[0].kind == VXG_MESH && !c->prim[0].complement && c->natom == 1 &&
         c->atom[0].kind == VXG_ATOM_MESH && c->atom[0].mesh;
}


/* The closed form: the mesh's triangles carried from the mesh frame (the atom's to_local
 * undone) to the world, then to the frame at ref, the centre of the world bounding box. */
void vxv_mesh_massprops(const vxg_cell *c, const vxg_xform *to_world, vxv_result *res) {
  double bb[6], ref[3];
  vxg_cell_aabb(c, to_world, bb);
  for (int k = 0; k < 3; k++) {
    ref[k] = 0.5 * (bb[k] + bb[3 + k]);
  }
  vxg_xform from_mesh, to_cell, shift, to_frame;
  vxg_xform_inverse(&to_cell, &c->atom[0].to_local);
  vxg_xform_compose(&from_mesh, to_world, &to_cell);
  vxg_xform_translation(&shift, -ref[0], -ref[1], -ref[2]);
  vxg_xform_compose(&to_frame, &shift, &from_mesh);
  vxg_moments m;
  double area[3];
  vxg_mesh_moments(c->atom[0].mesh, &to_frame, &m, area);
  vxv_acc acc;
  vxv_acc_zero(&acc);
  /* the bracket is the sum's rounding: each of the ntri terms a.(b x c) is within a few
     ulps of |a||b||c| <= (D/2)^3, D the box's diagonal */
  double d2 = 0;
  for (int k = 0; k < 3; k++) {
    d2 += (bb[3 + k] - bb[k]) * (bb[3 + k] - bb[k]);
  }
  vxg_mesh_info info;
  vxg_mesh_get_info(c->atom[0].mesh, &info);
  double round = 8 * DBL_EPSILON * info.ntri * d2 * sqrt(d2) / 6;
  vxv_acc_add(&acc, VXV_ACC_M0, m.m0);
  vxv_acc_add(&acc, VXV_ACC_LO, m.m0 - round);
  vxv_acc_add(&acc, VXV_ACC_HI, m.m0 + round);
  vxv_acc_add(&acc, VXV_ACC_PGAP, 2 * round);
  for (int k = 0; k < 3; k++) {
    vxv_acc_add(&acc, VXV_ACC_M1 + k, m.m1[k]);
    vxv_acc_add(&acc, VXV_ACC_AREA + k, area[k]);
  }
  for (int k = 0; k < 6; k++) {
    vxv_acc_add(&acc, VXV_ACC_M2 + k, m.m2[k]);
  }
  memset(res, 0, sizeof *res);
  vxv_finish_result(ref, &acc, res);
  res->threads = 1;
}


vxc_status vxv_result_sum(const vxv_result *parts, int n, vxv_result *out) {
  if (!parts || !out || n < 1) {
    return VXC_ERR_ARG;
  }
  vxv_result r;
  memset(&r, 0, sizeof r);
  vxv_acc acc;
  vxv_acc_zero(&acc);
  double ref0[3];
  memcpy(ref0, parts[0].ref, sizeof ref0);
  for (int i = 0; i < n; i++) {
    const vxv_result *p = &parts[i];
    acc_result(&acc, p, ref0);
    r.boxes += p->boxes;
    r.leaves += p->leaves;
    r.depth = p->depth > r.depth ? p->depth : r.depth;
    r.rounds = p->rounds > r.rounds ? p->rounds : r.rounds;
    r.capped |= p->capped;
    r.threads = p->threads > r.threads ? p->threads : r.threads;
    r.root_size = p->root_size > r.root_size ? p->root_size : r.root_size;
    if (p->leaf_size_min > 0 && (r.leaf_size_min == 0 || p->leaf_size_min < r.leaf_size_min)) {
      r.leaf_size_min = p->leaf_size_min;
    }
    r.peak_bytes = p->peak_bytes > r.peak_bytes ? p->peak_bytes : r.peak_bytes;
  }
  vxv_finish_result(ref0, &acc, &r);
  *out = r;
  return VXC_OK;
}


vxc_status vxv_solid_massprops(vxv_workspace *ws, const vxg_solid *s, const vxg_xform *to_world,
                               const vxv_options *opt, vxv_result *res) {
  if (!ws || !s || !to_world || !res || s->ncell < 1) {
    return VXC_ERR_ARG;
  }
  vxv_result sum, part;
  for (int i = 0; i < s->ncell; i++) {
    vxg_xform x;
    vxg_xform_compose(&x, to_world, &s->cell[i]->pose);
    vxc_status st = vxv_cell_massprops(ws, s->cell[i], &x, opt, &part);
    if (st < 0) {
      return st;
    }
    if (i == 0) {
      sum = part;
    } else {
      vxv_result two[2] = {sum, part};
      vxv_result_sum(two, 2, &sum);
    }
  }
  *res = sum;
  return VXC_OK;
}


vxc_status vxv_grid_baseline(vxv_workspace *ws, const vxg_cell *a, const vxg_xform *a_to_world,
                             const vxg_cell *b, const vxg_xform *b_to_world, double h,
                             vxv_result *res) {
  if (!ws || !a || !a_to_world || !b || !b_to_world || !res || !(h > 0) || !isfinite(h)) {
    return VXC_ERR_ARG;
  }
  const vxg_cell *cells[2] = {a, b};
  const vxg_xform *xf[2] = {a_to_world, b_to_world};
  double lo[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, hi[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
  for (int k = 0; k < 2; k++) {
    double bb[6];
    vxg_cell_aabb(cells[k], xf[k], bb);
    for (int i = 0; i < 3; i++) {
      lo[i] = fmax(lo[i], bb[i]);
      hi[i] = fmin(hi[i], bb[3 + i]);
    }
  }
  vxv_result r;
  memset(&r, 0, sizeof r);
  double ref[3];
  long long n[3];
  int empty = 0;
  for (int i = 0; i < 3; i++) {
    if (!isfinite(lo[i]) || !isfinite(hi[i])) {
      return VXC_ERR_ARG;
    }
    empty |= !(hi[i] > lo[i]);
    ref[i] = 0.5 * (lo[i] + hi[i]);
    n[i] = empty ? 0 : (long long)ceil((hi[i] - lo[i]) / h);
  }
  if (!empty && (double)n[0] * (double)n[1] * (double)n[2] > 1099511627776.0) {
    return VXC_ERR_ARG;
  }
  ws->peak = ws->bytes;
  vxv_acc acc;
  vxv_acc_zero(&acc);
  if (!empty) {
    for (int k = 0; k < 2; k++) {
      vxg_xform shift, to_frame;
      vxg_xform_translation(&shift, -ref[0], -ref[1], -ref[2]);
      vxg_xform_compose(&to_frame, &shift, xf[k]);
      vxg_posed_cell_init(&ws->pc[k], cells[k], &to_frame);
    }
    vxv_box box;
    memset(&box, 0, sizeof box);
    box.h = box.e[0] = box.e[1] = box.e[2] = 0.5 * h;
    for (long long k = 0; k < n[2]; k++) {
      box.c[2] = lo[2] - ref[2] + (k + 0.5) * h;
      for (long long j = 0; j < n[1]; j++) {
        box.c[1] = lo[1] - ref[1] + (j + 0.5) * h;
        for (long long i = 0; i < n[0]; i++) {
          box.c[0] = lo[0] - ref[0] + (i + 0.5) * h;
          r.boxes++;
          if (vxg_posed_cell_contains(&ws->pc[0], box.c) &&
              vxg_posed_cell_contains(&ws->pc[1], box.c)) {
            vxv_acc_box(&acc, &box);
            r.leaves++;
          }
        }
      }
    }
  }
  vxv_finish_result(ref, &acc, &r);
  r.area_vector[0] = r.area_vector[1] = r.area_vector[2] = 0;
  r.contact_area = 0;
  r.root_size = r.leaf_size_min = h;
  r.rounds = 1;
  r.threads = 1;
  r.peak_bytes = ws->peak;
  *res = r;
  return r.volume > 0 ? VXC_OK : VXC_NO_CONTACT;
}
