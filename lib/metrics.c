/* metrics.c: contact metrics between two posed solids, cell pair by cell pair (thesis
 * A.1.1, A.3, A.4; lib/README.md sections 2, 3, 11), and mass properties.
 *
 * A query runs in three phases:
 * 1. broad phase: each cell's bounding box in the world; every pair of boxes that overlap
 *    is a candidate (all pairs are tested: solids have tens of cells, and the octree's
 *    cost dwarfs this);
 * 2. narrow phase: two cells with exact convex hulls are tested by libccd's MPR, which the
 *    engine runs beside the classification of its root grid (MPR's direction is the
 *    geometric normal estimate when there is no area vector); other pairs go straight to
 *    the octree, whose own classification decides;
 * 3. the voxel engine integrates each overlapping pair: V with its certified bracket, p_c,
 *    J, the area vector; the normal is J's eigenvector nearest the guess built from the
 *    geometric estimate (the area vector's direction) and the pair's previous normal.
 * The workspace (vxc_query) owns the octree's buffers and threads and the pair array it
 * returns, and is reused from query to query. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "geom/vec3.h"
#include "lib/internal.h"
#include "voxel/voxel.h"

struct vxc_query {
  vxc_allocator al;
  vxv_workspace *ws;
  vxc_pair_metrics *pair; /* results of the last run */
  size_t pair_cap;
  double *box_a, *box_b; /* world bounding boxes of the cells, 6 per cell */
  size_t box_cap_a, box_cap_b;
  /* the integrated region (options.region): the octree's elements, pair by pair */
  vxc_region_box *reg;
  size_t nreg, capreg;
  size_t pair_start; /* the running pair's first element */
  int cur_pair;      /* its index in the metrics */
  int reg_failed;    /* an element could not be stored */
  /* the contact patches (options.patches): all pairs', and each pair's first */
  vxc_patch *patches;
  size_t npatches, cappatches;
  size_t *patch_off;
  size_t patch_off_cap;
  /* a tracked pair's cell pairs proved apart with a reach (apart.c), and the reach of the
     last pair measured (vxv_result.apart_reach) */
  vxci_apart_cache apart;
  double last_reach;
};


static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}


static const vxc_allocator *query_al(const vxc_query *q) {
  return q->al.realloc ? &q->al : NULL;
}


void vxc_query_options_default(vxc_query_options *o) {
  memset(o, 0, sizeof *o);
  o->rtol = 1e-3;
  o->threads = 1;
  o->theta_c = M_PI / 180.0;
  o->r_n = 0.95;
  o->n_i = 15;
  o->closed_form = 1;
  o->patches = 1;
}


vxc_status vxc_query_create(const vxc_allocator *al, vxc_query **out, vxc_error *err) {
  if (!out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_query_create: out is NULL");
  }
  vxc_allocator a = {NULL, NULL};
  if (al && al->realloc) {
    a = *al;
  }
  vxc_query *q = vxg_alloc(a.realloc ? &a : NULL, sizeof *q);
  if (!q) {
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "vxc_query_create: out of memory");
  }
  memset(q, 0, sizeof *q);
  q->al = a;
  vxc_status st = vxv_workspace_create(query_al(q), &q->ws);
  if (st != VXC_OK) {
    vxg_free(query_al(q), q);
    return vxg_error_set(err, st, NULL, 0, 0, "vxc_query_create: the workspace: %s",
                         vxc_status_str(st));
  }
  *out = q;
  return VXC_OK;
}


void vxc_query_free(vxc_query *q) {
  if (!q) {
    return;
  }
  const vxc_allocator *al = query_al(q);
  vxv_workspace_free(q->ws);
  vxg_free(al, q->pair);
  vxg_free(al, q->box_a);
  vxg_free(al, q->box_b);
  vxg_free(al, q->reg);
  vxg_free(al, q->patches);
  vxg_free(al, q->patch_off);
  vxci_apart_free(&q->apart, al);
  vxc_allocator a = q->al;
  vxg_free(a.realloc ? &a : NULL, q);
}


/* The visitor of the octree's elements (vxv_options.visit): stores them in q->reg. */
static void keep_region(void *ud, const vxv_visit *v) {
  vxc_query *q = ud;
  if (v->kind == VXV_VISIT_RESET) {
    q->nreg = q->pair_start; /* the pair's octree runs a pass again */
    return;
  }
  if (vxg_grow(query_al(q), (void **)&q->reg, &q->capreg, q->nreg + 1, sizeof *q->reg) != 0) {
    q->reg_failed = 1;
    return;
  }
  vxc_region_box *b = &q->reg[q->nreg++];
  b->pair = q->cur_pair;
  b->leaf = v->kind == VXV_VISIT_LEAF;
  b->level = v->level;
  b->patch = -1;
  memcpy(b->area_vector, v->area, sizeof b->area_vector);
  memcpy(b->center, v->c, sizeof b->center);
  b->size = 2 * v->h;
  for (int k = 0; k < 3; k++) {
    b->extent[k] = 2 * v->e[k];
  }
  memcpy(b->bounds, v->rb, sizeof b->bounds);
  b->volume = v->m[0];
  b->volume_lo = v->lo;
  b->volume_hi = v->hi;
  b->error_estimate = v->est;
  memcpy(b->moments, v->m, sizeof b->moments);
}


vxc_status vxc_query_region(const vxc_query *q, const vxc_region_box **boxes, size_t *n,
                            vxc_error *err) {
  if (!q || !boxes || !n) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_query_region: %s is NULL",
                         !q ? "q" : !boxes ? "boxes" : "n");
  }
  *boxes = q->reg;
  *n = q->nreg;
  return VXC_OK;
}


/* Starts the region of a run (options.region). */
static void region_start(vxc_query *q, const vxc_query_options *o, vxv_options *vo) {
  q->nreg = q->pair_start = 0;
  q->cur_pair = 0;
  q->reg_failed = 0;
  q->npatches = 0;
  vo->visit = o->region ? keep_region : NULL;
  vo->visit_ud = q;
}


/* Checks options and turns them into the voxel engine's. */
static vxc_status engine_options(const vxc_query_options *o, vxv_options *v, vxc_error *err) {
  if (!(o->voxel >= 0) || !isfinite(o->voxel) || !(o->rtol >= 0) || !isfinite(o->rtol)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "voxel size and rtol must be finite and >= 0 (got %g and %g)", o->voxel,
                         o->rtol);
  }
  if (o->voxel == 0 && o->rtol == 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "a query needs a voxel size or a relative tolerance (both are 0)");
  }
  if (o->threads < 1 || o->threads > VXV_MAX_THREADS) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "threads must be in 1..%d (got %d)",
                         VXV_MAX_THREADS, o->threads);
  }
  if (!(o->atol >= 0) || !isfinite(o->atol)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "atol must be finite and >= 0 (m^3)");
  }
  if (o->max_boxes < 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "max_boxes must be >= 0");
  }
  if (!(o->theta_c > 0) || !(o->r_n >= 0 && o->r_n < 1) || o->n_i < 1) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "normal iteration: theta_c > 0, 0 <= r_n < 1 and n_i >= 1 needed");
  }
  vxv_options_default(v);
  v->h_min = o->voxel;
  v->rtol = o->rtol;
  v->atol = o->atol;
  v->certified = o->certified != 0;
  v->max_boxes = o->max_boxes;
  v->max_bytes = o->max_bytes;
  v->threads = o->threads;
  v->closed_form = o->closed_form != 0;
  v->linear_leaves = o->linear_leaves != 0;
  v->stop = o->stop;
  return VXC_OK;
}


/* The options (opt NULL: defaults) as given and as the engine takes them, and the two
 * poses as transforms. Returns VXC_OK or VXC_ERR_ARG naming what is wrong. */
static vxc_status query_setup(const vxc_query_options *opt, const vxc_pose *pose_a,
                              const vxc_pose *pose_b, vxc_query_options *o, vxv_options *vo,
                              vxg_xform *xa, vxg_xform *xb, vxc_error *err) {
  if (opt) {
    *o = *opt;
  } else {
    vxc_query_options_default(o);
  }
  vxc_status st = engine_options(o, vo, err);
  if (st == VXC_OK) {
    st = vxci_pose_xform(pose_a, xa, "pose of A", err);
  }
  if (st == VXC_OK) {
    st = vxci_pose_xform(pose_b, xb, "pose of B", err);
  }
  return st;
}


static int boxes_overlap(const double a[6], const double b[6]) {
  for (int k = 0; k < 3; k++) {
    if (a[k] > b[k + 3] || b[k] > a[k + 3]) {
      return 0;
    }
  }
  return 1;
}


/* The pair's figures as its one patch of n elements (n = 0: its leaves). */
static void whole_patch(const vxc_pair_metrics *pm, size_t n, vxc_patch *p) {
  p->volume = pm->geom.volume;
  p->volume_lo = pm->volume_lo;
  p->volume_hi = pm->volume_hi;
  p->error_estimate = pm->error_estimate;
  memcpy(p->centroid, pm->geom.centroid, sizeof p->centroid);
  memcpy(p->inertia, pm->geom.inertia, sizeof p->inertia);
  memcpy(p->normal, pm->geom.normal, sizeof p->normal);
  p->area = pm->area;
  p->penetration = pm->penetration;
  p->penetration_lo = pm->penetration_lo;
  p->penetration_hi = pm->penetration_hi;
  p->normal_flags = pm->normal_flags;
  p->boxes = n > 0 ? (long long)n : pm->leaves;
}


/* Splits the running pair's region into patches when `split` (else, and when it has one
 * part, the pair is its one patch: the same figures), appended to q->patches; a pair of
 * several patches takes its penetration from theirs (vxci_patch_penetration). pm->npatch
 * is set, pm->patch later (set_patch_pointers: the buffer may still move); without
 * options.patches the patches are dropped again (pm->npatch 0, the elements' patch -1),
 * the penetration kept. Returns 0 or -1. */
static int pair_patches(vxc_query *q, const vxc_query_options *o, int split, const vxg_cell *ca,
                        const vxg_xform *ta, const vxg_cell *cb, const vxg_xform *tb,
                        vxc_pair_metrics *pm) {
  size_t n = q->nreg - q->pair_start;
  if (vxg_grow(query_al(q), (void **)&q->patches, &q->cappatches, q->npatches + n + 1,
               sizeof *q->patches) != 0 ||
      vxg_grow(query_al(q), (void **)&q->patch_off, &q->patch_off_cap, (size_t)q->cur_pair + 1,
               sizeof *q->patch_off) != 0) {
    return -1;
  }
  vxc_region_box *box = q->reg + q->pair_start;
  vxc_patch *out = q->patches + q->npatches;
  int np = split ? vxci_patches(query_al(q), box, n, o, pm->geom.normal, out) : 0;
  if (np < 0) {
    return -1;
  }
  if (np > 1) {
    vxci_patch_penetration(ca, ta, cb, tb, box, n, out, np, pm);
  } else {
    whole_patch(pm, n, out);
    np = 1;
    for (size_t i = 0; i < n; i++) {
      box[i].patch = 0;
    }
  }
  if (!o->patches) {
    for (size_t i = 0; i < n; i++) {
      box[i].patch = -1;
    }
    pm->npatch = 0;
    return 0;
  }
  q->patch_off[q->cur_pair] = q->npatches;
  q->npatches += (size_t)np;
  pm->npatch = np;
  return 0;
}


/* Points each of the n pairs at its patches. */
static void set_patch_pointers(vxc_query *q, vxc_pair_metrics *pair, int n) {
  for (int i = 0; i < n; i++) {
    pair[i].patch = pair[i].npatch > 0 ? q->patches + q->patch_off[i] : NULL;
  }
}


/* The normal's geometric estimate geo (not normalised) from A toward B: the area vector of
 * A's surface inside B, which integrates the actual surfaces and turns continuously with
 * the poses; when it vanishes (A wholly inside B), MPR's direction (the engine's `mpr` when
 * not NULL, else the hulls'), else the offset of the cells' origins. MPR's portal direction
 * is not used otherwise: it jumps as the portal changes. Returns 1 when MPR's was taken. */
static int geometric_estimate(const vxv_result *r, const vxg_mpr_result *mpr, const vxg_cell *ca,
                              const vxg_xform *ta, const vxg_cell *cb, const vxg_xform *tb,
                              double geo[3]) {
  double alen = sqrt(vxg_dot(r->area_vector, r->area_vector));
  if (alen > 1e-9 * cbrt(r->volume * r->volume)) {
    for (int k = 0; k < 3; k++) {
      geo[k] = r->area_vector[k] / alen;
    }
    return 0;
  }
  vxg_mpr_result own;
  if (!mpr && vxg_mpr(ca, ta, cb, tb, &own) == VXC_OK && own.overlap) {
    mpr = &own;
  }
  if (mpr) {
    memcpy(geo, mpr->dir, 3 * sizeof geo[0]);
    return 1;
  }
  double pa[3], pb[3];
  vxg_xform_point(ta, (double[3]){0, 0, 0}, pa);
  vxg_xform_point(tb, (double[3]){0, 0, 0}, pb);
  vxg_sub(pb, pa, geo);
  if (!(vxg_dot(geo, geo) > 0)) {
    geo[0] = geo[1] = 0;
    geo[2] = 1; /* concentric: any direction is as good */
  }
  return 0;
}


/* Integrates one cell pair and fills *pm. Returns VXC_OK, VXC_NO_CONTACT or an error. */
static vxc_status measure_pair(vxc_query *q, const vxg_solid *sa, int ia, const vxg_xform *xa,
                               const vxg_solid *sb, int ib, const vxg_xform *xb,
                               const vxc_query_options *o, const vxv_options *vo, double grid_h,
                               vxc_prev_normal_fn prev, void *prev_ud, vxc_pair_metrics *pm) {
  double t0 = now_ms();
  const vxg_cell *ca = sa->cell[ia], *cb = sb->cell[ib];
  q->pair_start = q->nreg;
  vxg_xform ta, tb;
  vxg_xform_compose(&ta, xa, &ca->pose);
  vxg_xform_compose(&tb, xb, &cb->pose);

  memset(pm, 0, sizeof *pm);
  pm->cell_a = ia;
  pm->cell_b = ib;
  pm->name_a = ca->name;
  pm->name_b = cb->name;

  /* narrow phase for two convex cells: MPR decides, and gives the normal estimate; the
     engine runs it beside the root grid's classification (on one thread: first) */
  vxg_mpr_result mpr;
  memset(&mpr, 0, sizeof mpr);
  int have_mpr = 0;
  vxv_options vhull = *vo;
  vhull.hull_test = grid_h <= 0 && ca->hull.exact && cb->hull.exact;
  /* two convex cells meet in a convex, hence connected, region: one patch as it is. A cell
     that is not convex has only its bounding box's support: its pair keeps its region for
     the penetration's bracket and its patches, then drops it */
  int convex = ca->hull.exact && cb->hull.exact;
  int split = grid_h <= 0 && !convex;
  int own_reg = !vo->visit && grid_h <= 0 && !convex;
  if (own_reg) {
    vhull.visit = keep_region;
    vhull.visit_ud = q;
  }
  vxv_result r;
  vxc_status st = grid_h > 0 ? vxv_grid_baseline(q->ws, ca, &ta, cb, &tb, grid_h, &r)
                             : vxv_intersect(q->ws, ca, &ta, cb, &tb, &vhull, &r);
  q->last_reach = st == VXC_NO_CONTACT ? r.apart_reach : 0;
  if (st != VXC_OK && st != VXC_NO_CONTACT) {
    return st;
  }
  if (q->reg_failed) {
    return VXC_ERR_NOMEM;
  }
  if (st == VXC_NO_CONTACT || !(r.volume > 0)) {
    q->nreg = q->pair_start; /* a pair not in contact has no region */
  }
  if (r.hull_tested && r.mpr_status == VXC_OK) {
    if (!r.mpr.overlap) {
      pm->time_ms = now_ms() - t0;
      return VXC_NO_CONTACT;
    }
    mpr = r.mpr;
    have_mpr = 1;
  }
  pm->boxes = r.boxes;
  pm->leaves = r.leaves;
  pm->quadrature_leaves = r.quadrature_leaves;
  pm->level = r.depth;
  pm->leaf_min = r.leaf_size_min;
  pm->closed_form = r.closed_form;
  pm->workspace_bytes = (double)r.peak_bytes;
  if (st == VXC_NO_CONTACT || !(r.volume > 0)) {
    pm->time_ms = now_ms() - t0;
    return VXC_NO_CONTACT;
  }
  pm->geom.volume = r.volume;
  pm->volume_lo = r.volume_lo;
  pm->volume_hi = r.volume_hi;
  pm->error_estimate = r.error_estimate;
  memcpy(pm->geom.centroid, r.centroid, sizeof r.centroid);
  memcpy(pm->geom.inertia, r.inertia, sizeof r.inertia);
  pm->area = r.contact_area;
  pm->capped = r.capped;
  pm->depth = -cbrt(r.volume);
  if (grid_h > 0) {
    pm->time_ms = now_ms() - t0;
    return VXC_OK;
  }

  double geo[3];
  pm->normal_from_mpr = geometric_estimate(&r, have_mpr ? &mpr : NULL, ca, &ta, cb, &tb, geo);
  double np[3];
  int has_prev = prev && prev(prev_ud, ia, ib, np);
  int flags = 0;
  /* J's uncertainty: the relative width the rule controls (the moments come from the same
     leaves, so their error is of the same relative order): the volume bracket's under the
     certified rule, else the leaves' planar enclosures' (the volume bracket can be far
     narrower where third-order leaf brackets apply, the moments' error is not) */
  double j_err = (vo->certified ? r.volume_hi - r.volume_lo : r.moment_width) / r.volume;
  vxc_normal_options no = {has_prev ? np : NULL, o->theta_c, o->r_n, o->n_i, j_err};
  vxc_normal_result nr;
  if (vxci_contact_normal(r.inertia, geo, &no, &nr) != VXC_OK) {
    return VXC_ERR_NUMERIC;
  }
  memcpy(pm->geom.normal, nr.n, sizeof nr.n);
  flags = nr.flags;
  double gl = sqrt(geo[0] * geo[0] + geo[1] * geo[1] + geo[2] * geo[2]);
  for (int k = 0; k < 3; k++) {
    pm->normal_geo[k] = geo[k] / gl;
  }
  pm->normal_flags = flags;
  pm->r_gyr = vxc_gyration_radius(&pm->geom);
  int kept = o->region || own_reg;
  vxci_penetration(ca, &ta, cb, &tb, pm->geom.normal, kept ? q->reg + q->pair_start : NULL,
                   kept ? q->nreg - q->pair_start : 0, !vo->loose_bounds, pm);
  if ((o->patches || split) && pair_patches(q, o, split, ca, &ta, cb, &tb, pm) != 0) {
    return VXC_ERR_NOMEM;
  }
  if (own_reg) {
    q->nreg = q->pair_start;
  }
  pm->time_ms = now_ms() - t0;
  return VXC_OK;
}


/* A pair measured on its hinted fixed leaf h (vxci_query_run), refined while the estimate
 * misses the tolerance, else by the options' rule. */
static vxc_status measure_hinted(vxc_query *q, const vxg_solid *sa, int ia, const vxg_xform *xa,
                                 const vxg_solid *sb, int ib, const vxg_xform *xb,
                                 const vxc_query_options *o, const vxv_options *vo,
                                 vxci_leaf_hint *hint, vxc_prev_normal_fn prev, void *prev_ud,
                                 vxc_pair_metrics *pm) {
  double h = hint ? hint->h : 0;
  if (h > 0 && o->rtol > 0 && !o->certified && !o->region) {
    vxv_options fixed = *vo;
    fixed.rtol = 0;
    fixed.parent_est = 1;
    size_t nreg = q->nreg, npatches = q->npatches; /* each attempt starts from these */
    for (int k = 0; k <= VXCI_HINT_REFINES && h >= o->voxel; k++, h /= VXCI_HINT_RATIO) {
      fixed.h_min = h;
      q->nreg = nreg;
      q->npatches = npatches;
      vxc_status st = measure_pair(q, sa, ia, xa, sb, ib, xb, o, &fixed, 0, prev, prev_ud, pm);
      if (st != VXC_OK) {
        if (st != VXC_NO_CONTACT) {
          return st;
        }
        break; /* a pair being lost: a finer leaf would not tell more than the rtol rule */
      }
      if (!pm->capped && pm->error_estimate <= fmax(o->rtol * pm->geom.volume, o->atol)) {
        hint->h = h;
        return VXC_OK;
      }
      if (h > hint->too_coarse) {
        hint->too_coarse = h;
        hint->tol = fmax(o->rtol * pm->geom.volume, o->atol);
      }
      hint->age = 0;
    }
    q->nreg = nreg;
    q->npatches = npatches;
  }
  return measure_pair(q, sa, ia, xa, sb, ib, xb, o, vo, 0, prev, prev_ud, pm);
}


/* World bounding boxes of a solid's cells into *boxes (6 per cell). */
static int cell_boxes(vxc_query *q, const vxg_solid *s, const vxg_xform *x, double **boxes,
                      size_t *cap) {
  if (vxg_grow(query_al(q), (void **)boxes, cap, 6 * (size_t)s->ncell, sizeof(double)) != 0) {
    return -1;
  }
  for (int i = 0; i < s->ncell; i++) {
    vxg_xform t;
    vxg_xform_compose(&t, x, &s->cell[i]->pose);
    vxg_cell_aabb(s->cell[i], &t, *boxes + 6 * i);
  }
  return 0;
}


/* Apart: the distance between the closest cells, which keeps the penetration measure
 * continuous through first contact, into m->distance and m->distance_exact. Each cell pair
 * gives its distance (vxg_cell_distance: exact for convex cells and where a mesh alone
 * meets a mesh or a convex cell, else the hulls', a lower bound), a pair whose hulls lie
 * no nearer than the best found so far left unrefined. The least is exact when its pair's
 * is: every other pair lies at least as far (its figure, exact or a lower bound, is no
 * less). */
static void apart_distance(const vxg_solid *sa, const vxg_xform *xa, const vxg_solid *sb,
                           const vxg_xform *xb, vxc_metrics *m) {
  m->distance = INFINITY;
  m->distance_exact = 1;
  for (int i = 0; i < sa->ncell; i++) {
    for (int j = 0; j < sb->ncell; j++) {
      const vxg_cell *ca = sa->cell[i], *cb = sb->cell[j];
      vxg_xform ta, tb;
      vxg_xform_compose(&ta, xa, &ca->pose);
      vxg_xform_compose(&tb, xb, &cb->pose);
      double d = INFINITY;
      int exact = 0;
      vxg_cell_distance(ca, &ta, cb, &tb, m->distance, &d, &exact);
      if (d < m->distance) {
        m->distance = d;
        m->distance_exact = exact;
      }
    }
  }
}


vxc_status vxc_query_run(vxc_query *q, const vxc_solid *a, const vxc_pose *pose_a,
                         const vxc_solid *b, const vxc_pose *pose_b, const vxc_query_options *opt,
                         vxc_prev_normal_fn prev, void *prev_ud, vxc_metrics *out, vxc_error *err) {
  return vxci_query_run(q, a, pose_a, b, pose_b, opt, prev, prev_ud, NULL, NULL, out, err);
}


vxc_status vxci_query_run(vxc_query *q, const vxc_solid *a, const vxc_pose *pose_a,
                          const vxc_solid *b, const vxc_pose *pose_b, const vxc_query_options *opt,
                          vxc_prev_normal_fn prev, void *prev_ud, vxci_leaf_hint_fn hint,
                          void *hint_ud, vxc_metrics *out, vxc_error *err) {
  double t0 = now_ms();
  if (!q || !a || !b || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_query_run: query, solids and out must not be NULL");
  }
  vxc_query_options o;
  vxv_options vo;
  vxg_xform xa, xb;
  vxc_status st = query_setup(opt, pose_a, pose_b, &o, &vo, &xa, &xb, err);
  if (st != VXC_OK) {
    return st;
  }
  region_start(q, &o, &vo);
  vo.loose_bounds = hint != NULL; /* a tracked pair's step: a loose penetration bracket */
  vo.reuse_gathers = hint != NULL; /* and its next query close to this one */
  vo.planar_bracket = hint != NULL; /* and no volume bracket read */
  const vxg_solid *sa = a->geom, *sb = b->geom;
  if (cell_boxes(q, sa, &xa, &q->box_a, &q->box_cap_a) != 0 ||
      cell_boxes(q, sb, &xb, &q->box_b, &q->box_cap_b) != 0) {
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }

  vxc_metrics m;
  memset(&m, 0, sizeof m);
  double mom0 = 0, mom1[3] = {0, 0, 0};
  for (int i = 0; i < sa->ncell; i++) {
    for (int j = 0; j < sb->ncell; j++) {
      if (!boxes_overlap(q->box_a + 6 * i, q->box_b + 6 * j)) {
        continue;
      }
      m.candidates++;
      if (vxg_grow(query_al(q), (void **)&q->pair, &q->pair_cap, (size_t)m.npair + 1,
                   sizeof *q->pair) != 0) {
        return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
      }
      vxc_pair_metrics *pm = &q->pair[m.npair];
      q->cur_pair = m.npair;
      vxci_leaf_hint *h = hint ? hint(hint_ud, i, j) : NULL;
      /* a tracked pair (closed forms off): cells proved apart with a reach are skipped
         until they have moved by it, and a reach is asked for while they are apart */
      int track = hint && !vo.closed_form && !vo.skip_apart_proof, want = 0;
      vxg_xform ta, tb;
      if (track) {
        vxg_xform_compose(&ta, &xa, &sa->cell[i]->pose);
        vxg_xform_compose(&tb, &xb, &sb->cell[j]->pose);
        if (vxci_apart_skip(&q->apart, query_al(q), sa, i, &ta, sb, j, &tb, &want)) {
          continue;
        }
      }
      vxv_options vp = vo;
      vp.apart_reach = want;
      q->last_reach = 0;
      st = measure_hinted(q, sa, i, &xa, sb, j, &xb, &o, &vp, h, prev, prev_ud, pm);
      if (track && (st == VXC_OK || st == VXC_NO_CONTACT)) {
        vxci_apart_note(&q->apart, query_al(q), sa, i, &ta, sb, j, &tb, st == VXC_OK,
                        q->last_reach);
      }
      if (st == VXC_NO_CONTACT) {
        continue;
      }
      if (st != VXC_OK) {
        return vxg_error_set(err, st, NULL, 0, 0, "cells '%s' and '%s': %s", sa->cell[i]->name,
                             sb->cell[j]->name, vxc_status_str(st));
      }
      mom0 += pm->geom.volume;
      m.capped |= pm->capped;
      for (int k = 0; k < 3; k++) {
        mom1[k] += pm->geom.volume * pm->geom.centroid[k];
      }
      m.npair++;
    }
  }
  set_patch_pointers(q, q->pair, m.npair);
  m.pair = q->pair;
  m.volume = mom0;
  m.contact = m.npair > 0;
  if (m.contact) {
    for (int k = 0; k < 3; k++) {
      m.centroid[k] = mom1[k] / mom0;
    }
  } else if (!hint) {
    apart_distance(sa, &xa, sb, &xb, &m);
  } else {
    m.distance = NAN; /* a tracked pair's step: no step reads the distance */
    m.distance_exact = 0;
  }
  m.time_ms = now_ms() - t0;
  *out = m;
  return m.contact ? VXC_OK : VXC_NO_CONTACT;
}


vxc_status vxc_query_pair(vxc_query *q, const vxc_solid *a, int cell_a, const vxc_pose *pose_a,
                          const vxc_solid *b, int cell_b, const vxc_pose *pose_b,
                          const vxc_query_options *opt, double grid_h, vxc_pair_metrics *out,
                          vxc_error *err) {
  if (!q || !a || !b || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_query_pair: query, solids and out must not be NULL");
  }
  if (cell_a < 0 || cell_a >= a->geom->ncell || cell_b < 0 || cell_b >= b->geom->ncell) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "cell index out of range");
  }
  if (!(grid_h >= 0) || !isfinite(grid_h)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "grid_h must be finite and >= 0");
  }
  vxc_query_options o;
  vxv_options vo;
  vxg_xform xa, xb;
  vxc_status st = query_setup(opt, pose_a, pose_b, &o, &vo, &xa, &xb, err);
  if (st != VXC_OK) {
    return st;
  }
  region_start(q, &o, &vo);
  vxc_pair_metrics pm;
  st =
      measure_pair(q, a->geom, cell_a, &xa, b->geom, cell_b, &xb, &o, &vo, grid_h, NULL, NULL, &pm);
  if (st != VXC_OK && st != VXC_NO_CONTACT) {
    return vxg_error_set(err, st, NULL, 0, 0, "%s", vxc_status_str(st));
  }
  set_patch_pointers(q, &pm, st == VXC_OK ? 1 : 0);
  *out = pm;
  return st;
}


vxc_status vxc_solid_mass(vxc_query *q, const vxc_solid *s, int cell, double density,
                          const vxc_query_options *opt, vxc_mass_props *out, vxc_error *err) {
  double t0 = now_ms();
  if (!q || !s || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_solid_mass: query, solid and out must not be NULL");
  }
  if (cell < -1 || cell >= s->geom->ncell) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "cell index %d out of range", cell);
  }
  if (!(density >= 0) || !isfinite(density)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "density must be finite and >= 0");
  }
  vxc_query_options o;
  if (opt) {
    o = *opt;
  } else {
    vxc_query_options_default(&o);
  }
  vxv_options vo;
  vxc_status st = engine_options(&o, &vo, err);
  if (st != VXC_OK) {
    return st;
  }
  vxv_result r;
  vxg_xform id;
  vxg_xform_identity(&id);
  if (cell < 0) {
    st = vxv_solid_massprops(q->ws, s->geom, &id, &vo, &r);
  } else {
    st = vxv_cell_massprops(q->ws, s->geom->cell[cell], &s->geom->cell[cell]->pose, &vo, &r);
  }
  if (st != VXC_OK) {
    return vxg_error_set(err, st, NULL, 0, 0, "mass properties: %s", vxc_status_str(st));
  }
  vxc_mass_props m;
  memset(&m, 0, sizeof m);
  m.volume = r.volume;
  m.volume_lo = r.volume_lo;
  m.volume_hi = r.volume_hi;
  m.error_estimate = r.error_estimate;
  memcpy(m.centroid, r.centroid, sizeof m.centroid);
  memcpy(m.inertia, r.inertia, sizeof m.inertia);
  m.density = density > 0 ? density : s->geom->density;
  m.mass = m.density * m.volume;
  for (int k = 0; k < 9; k++) {
    m.mass_inertia[k] = m.density * m.inertia[k];
  }
  m.boxes = r.boxes;
  m.leaves = r.leaves;
  m.capped = r.capped;
  m.time_ms = now_ms() - t0;
  *out = m;
  return VXC_OK;
}
