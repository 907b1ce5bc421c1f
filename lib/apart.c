/* apart.c: a tracked pair's cell pairs proved apart with a reach (vxv_options.apart_reach:
 * the bore's proof over the region grown by D, against the bore's radius less D) are not
 * queried again while their relative motion since the proof stays below D.
 *
 * Proof. Let T = t_A^-1 t_B (B's cell frame into A's) at the proof, T' now. Moving both
 * cells by the same rigid motion changes nothing, so A stays where it was and B's points p
 * move to t_A T' p, by |T' p - T p| <= |t' - t| + ||R' - R||_F |p|, |p| <= rho_B (the radius
 * of B's cell about its frame's origin). A point x of A and of moved B is x = k + v, k of B
 * as proved, |v| < D: k lies in B's box and, as x lies in A's, in A's box grown by D, hence
 * in the region grown by D, where the proof put B's hull at least D inside the bore's
 * cylinder; so x lies inside it, outside A. The same with A and B exchanged (a bore of B)
 * bounds A's motion in B's frame by |R'^T t' - R^T t| + ||R' - R||_F rho_A. */
#include <math.h>
#include <string.h>

#include "geom/vec3.h"
#include "lib/internal.h"

/* Relative allowance for the rounding of the transforms and of the bound. */
#define APART_ROUND 1e-9
/* Queries of an apart pair whose reach's proof failed before it is asked for again. */
#define APART_WAIT 16

/* The radius of cell c about its own frame's origin (m): its bounding box's farthest
 * corner. */
static double cell_radius(const vxg_cell *c) {
  vxg_xform id;
  vxg_xform_identity(&id);
  double box[6], r2 = 0;
  vxg_cell_aabb(c, &id, box);
  for (int k = 0; k < 3; k++) {
    double m = fmax(fabs(box[k]), fabs(box[3 + k]));
    r2 += m * m;
  }
  return sqrt(r2);
}


/* The entry of cells (i, j) of a and b (the cache laid anew for other solids); NULL when
 * out of memory. */
static vxci_apart *entry(vxci_apart_cache *c, const vxc_allocator *al, const vxg_solid *a,
                         int i, const vxg_solid *b, int j) {
  if (c->a != a || c->b != b || c->na != a->ncell || c->nb != b->ncell) {
    size_t n = (size_t)a->ncell * (size_t)b->ncell;
    if (vxg_grow(al, (void **)&c->pair, &c->cap, n, sizeof *c->pair) != 0) {
      c->a = c->b = NULL;
      return NULL;
    }
    memset(c->pair, 0, n * sizeof *c->pair);
    c->a = a;
    c->b = b;
    c->na = a->ncell;
    c->nb = b->ncell;
  }
  return &c->pair[(size_t)i * (size_t)c->nb + (size_t)j];
}


int vxci_apart_skip(vxci_apart_cache *c, const vxc_allocator *al, const vxg_solid *a, int i,
                    const vxg_xform *ta, const vxg_solid *b, int j, const vxg_xform *tb,
                    int *want_reach) {
  vxci_apart *e = entry(c, al, a, i, b, j);
  *want_reach = e && !e->touched && e->wait == 0;
  if (e && e->wait > 0) {
    e->wait--;
  }
  if (!e || !(e->reach > 0)) {
    return 0;
  }
  vxg_xform inv, rel;
  vxg_xform_inverse(&inv, ta);
  vxg_xform_compose(&rel, &inv, tb);
  double dr = 0, dt[3], ut[3], u0[3];
  for (int k = 0; k < 9; k++) {
    double d = rel.r[k] - e->rel.r[k];
    dr += d * d;
  }
  dr = sqrt(dr);
  vxg_xform_vector_inv(&rel, rel.t, ut);
  vxg_xform_vector_inv(&e->rel, e->rel.t, u0);
  vxg_sub(rel.t, e->rel.t, dt);
  vxg_sub(ut, u0, u0);
  double ra = cell_radius(a->cell[i]), rb = cell_radius(b->cell[j]);
  double move_b = sqrt(vxg_dot(dt, dt)) + dr * rb, move_a = sqrt(vxg_dot(u0, u0)) + dr * ra;
  double scale = ra + rb + sqrt(vxg_dot(rel.t, rel.t));
  if (fmax(move_a, move_b) + APART_ROUND * scale < e->reach) {
    return 1;
  }
  e->reach = 0; /* moved too far: measured anew */
  return 0;
}


void vxci_apart_note(vxci_apart_cache *c, const vxc_allocator *al, const vxg_solid *a, int i,
                     const vxg_xform *ta, const vxg_solid *b, int j, const vxg_xform *tb,
                     int touched, double reach) {
  vxci_apart *e = entry(c, al, a, i, b, j);
  if (!e) {
    return;
  }
  /* apart without the reach's proof (the octree's answer, or the pair moved within a
     reach of touching): not asked again for the next APART_WAIT queries */
  e->wait = !touched && !(reach > 0) && e->wait == 0 ? APART_WAIT : e->wait;
  e->touched = touched;
  e->reach = touched ? 0 : reach;
  if (e->reach > 0) {
    vxg_xform inv;
    vxg_xform_inverse(&inv, ta);
    vxg_xform_compose(&e->rel, &inv, tb);
  }
}


void vxci_apart_free(vxci_apart_cache *c, const vxc_allocator *al) {
  vxg_free(al, c->pair);
  memset(c, 0, sizeof *c);
}
