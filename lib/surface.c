/* surface.c: a posed solid's surface as triangles, for viewing (vxc_solid_surface). */
#include <math.h>
#include <string.h>

#include "lib/internal.h"

typedef struct surf_acc {
  vxc_surface *s;
  size_t capv, capc; /* capacities of s->v (triangles) and s->cell */
  int cell;
  int failed;
} surf_acc;


static const vxc_allocator *surf_al(const vxc_surface *s) {
  return s->al.realloc ? &s->al : NULL;
}


static void add_tri(void *ud, const double tri[9]) {
  surf_acc *a = ud;
  vxc_surface *s = a->s;
  if (a->failed) {
    return;
  }
  size_t need = (size_t)s->ntri + 1;
  if (vxg_grow(surf_al(s), (void **)&s->v, &a->capv, need, 9 * sizeof *s->v) != 0 ||
      vxg_grow(surf_al(s), (void **)&s->cell, &a->capc, need, sizeof *s->cell) != 0) {
    a->failed = 1;
    return;
  }
  memcpy(s->v + 9 * s->ntri, tri, 9 * sizeof *tri);
  s->cell[s->ntri++] = a->cell;
}


void vxc_surface_free(vxc_surface *s) {
  if (!s) {
    return;
  }
  vxg_free(surf_al(s), s->v);
  vxg_free(surf_al(s), s->cell);
  s->v = NULL;
  s->cell = NULL;
  s->ntri = 0;
}


vxc_status vxc_solid_surface(const vxc_solid *solid, const vxc_pose *pose, double tol,
                             long long max_cubes, vxc_surface *out, vxc_error *err) {
  if (!solid || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_solid_surface: solid and out must not be NULL");
  }
  if (!(tol > 0) || !isfinite(tol)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "surface tolerance must be finite and > 0 (got %g m)", tol);
  }
  vxg_xform x;
  vxc_status st = vxci_pose_xform(pose, &x, "pose", err);
  if (st != VXC_OK) {
    return st;
  }
  vxc_surface s;
  memset(&s, 0, sizeof s);
  s.al = solid->al;
  surf_acc acc = {&s, 0, 0, 0, 0};
  const vxg_solid *g = solid->geom;
  for (int i = 0; i < g->ncell && st == VXC_OK && !acc.failed; i++) {
    vxg_xform to_world;
    vxg_xform_compose(&to_world, &x, &g->cell[i]->pose);
    acc.cell = i;
    st = vxg_cell_surface(g->cell[i], &to_world, tol, max_cubes, add_tri, &acc);
    if (st == VXC_ERR_LIMIT) {
      vxg_error_set(err, st, NULL, 0, 0,
                    "cell '%s': sampling its surface at %g m needs more than %lld cubes",
                    g->cell[i]->name, tol, max_cubes);
    }
  }
  if (st == VXC_OK && acc.failed) {
    st = vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }
  if (st != VXC_OK) {
    vxc_surface_free(&s);
    return st;
  }
  *out = s;
  return VXC_OK;
}
