/* patch.c: a cell pair's interference split into contact patches (connected parts).
 *
 * The octree's elements of a pair (boxes wholly inside both cells and boundary leaves, as
 * vxc_query_region gives them) are the nodes; two touch when the bounding boxes of their
 * regions meet (a whole box's is the box; a leaf's, of the polyhedra it integrated, so that
 * two leaves that share a face but whose regions lie apart in them are not joined), within
 * a rounding allowance. Neighbours are found by a
 * sweep along the axis of the elements' widest spread (sorted by the cubes' low end, each
 * compared with the following ones whose low end is below its high end) and joined by
 * union-find. A part that holds no volume (only empty leaves near a surface) is joined to
 * the part with volume whose centroid is nearest, so every patch has V > 0 and the
 * patches' volumes and brackets sum to the pair's. Each patch's V, bracket, centroid and J
 * come from its elements' moments (about the patch's first element, so that they stay
 * small), its normal from J and its area vector as a pair's does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom/vec3.h"
#include "lib/internal.h"

typedef struct patch_sort {
  double lo;
  size_t i;
} patch_sort;


static int cmp_lo(const void *a, const void *b) {
  const patch_sort *x = a, *y = b;
  if (x->lo != y->lo) {
    return x->lo < y->lo ? -1 : 1;
  }
  return (x->i > y->i) - (x->i < y->i);
}


static size_t find(size_t *up, size_t i) {
  while (up[i] != i) {
    up[i] = up[up[i]];
    i = up[i];
  }
  return i;
}


static void join(size_t *up, size_t a, size_t b) {
  a = find(up, a);
  b = find(up, b);
  if (a != b) {
    up[a > b ? a : b] = a < b ? a : b; /* the smaller index is the root: order-independent */
  }
}


/* 1 when the regions' bounding boxes meet (within tol, m). */
static int touch(const vxc_region_box *a, const vxc_region_box *b, double tol) {
  for (int k = 0; k < 3; k++) {
    if (!(a->bounds[k] <= b->bounds[3 + k] + tol && b->bounds[k] <= a->bounds[3 + k] + tol)) {
      return 0;
    }
  }
  return 1;
}


/* Joins every pair of touching elements. Returns 0 or -1 (memory). */
static int join_touching(const vxc_allocator *al, const vxc_region_box *box, size_t n, size_t *up) {
  patch_sort *s = vxg_alloc(al, n * sizeof *s + 1);
  if (!s) {
    return -1;
  }
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], box[i].center[k]);
      hi[k] = fmax(hi[k], box[i].center[k]);
    }
  }
  int ax = 0;
  for (int k = 1; k < 3; k++) {
    ax = hi[k] - lo[k] > hi[ax] - lo[ax] ? k : ax;
  }
  double smax = 0;
  for (size_t i = 0; i < n; i++) {
    s[i].lo = box[i].bounds[ax]; /* an empty region's is infinite: it sorts last */
    s[i].i = i;
    smax = fmax(smax, fmax(box[i].extent[0], fmax(box[i].extent[1], box[i].extent[2])));
  }
  qsort(s, n, sizeof *s, cmp_lo);
  double tol = 1e-9 * smax; /* the rounding of the regions' corners */
  for (size_t a = 0; a < n; a++) {
    const vxc_region_box *p = &box[s[a].i];
    double end = p->bounds[3 + ax] + tol;
    for (size_t b = a + 1; b < n && s[b].lo <= end; b++) {
      if (touch(p, &box[s[b].i], tol)) {
        join(up, s[a].i, s[b].i);
      }
    }
  }
  vxg_free(al, s);
  return 0;
}


/* Adds element b's moments, shifted from its centre to ref, into m[10]. */
static void add_moments(const vxc_region_box *b, const double ref[3], double m[10]) {
  double d[3];
  const double *e = b->moments;
  vxg_sub(b->center, ref, d);
  m[0] += e[0];
  for (int k = 0; k < 3; k++) {
    m[1 + k] += e[1 + k] + e[0] * d[k];
  }
  for (int k = 0; k < 6; k++) {
    int i = VXG_SYM_ROW[k], j = VXG_SYM_COL[k];
    m[4 + k] += e[4 + k] + d[i] * e[1 + j] + e[1 + i] * d[j] + e[0] * d[i] * d[j];
  }
}


/* Volume, centroid and J of a patch from its moments m about ref. */
static void patch_shape(const double m[10], const double ref[3], vxc_patch *p) {
  vxg_moments g;
  g.m0 = m[0];
  memcpy(g.m1, m + 1, sizeof g.m1);
  memcpy(g.m2, m + 4, sizeof g.m2);
  double c[3];
  vxg_moments_inertia(&g, c, p->inertia);
  for (int k = 0; k < 3; k++) {
    p->centroid[k] = ref[k] + c[k];
  }
}


/* Order of patches: larger volume first (then their first element). */
static int cmp_patch(const void *a, const void *b) {
  const vxc_patch *x = a, *y = b;
  if (x->volume != y->volume) {
    return x->volume > y->volume ? -1 : 1;
  }
  return (x->boxes > y->boxes) - (x->boxes < y->boxes);
}


/* Sums the elements of each root into out[], numbering roots 0..; box[i].patch gets the
 * number. Returns the number of patches. */
static int sum_patches(vxc_region_box *box, size_t n, size_t *up, size_t *root, vxc_patch *out,
                       double (*mom)[10], double (*area)[3]) {
  int np = 0;
  for (size_t i = 0; i < n; i++) {
    size_t r = find(up, i);
    if (r == i) {
      memset(&out[np], 0, sizeof out[np]);
      memset(mom[np], 0, sizeof mom[np]);
      memset(area[np], 0, sizeof area[np]);
      root[np] = i;
      box[i].patch = np++;
    } else {
      box[i].patch = box[r].patch; /* r < i: numbered already */
    }
    vxc_patch *p = &out[box[i].patch];
    add_moments(&box[i], box[r].center, mom[box[i].patch]);
    p->volume_lo += box[i].volume_lo;
    p->volume_hi += box[i].volume_hi;
    p->error_estimate += box[i].error_estimate;
    for (int k = 0; k < 3; k++) {
      area[box[i].patch][k] += box[i].area_vector[k];
    }
  }
  return np;
}


/* Scratch of a split, n entries each (n the pair's elements, a bound on the parts). */
typedef struct patch_work {
  size_t *up, *root; /* union-find; first element of part p */
  double (*mom)[10]; /* part p's moments about box[root[p]].center */
  double (*area)[3]; /* its area vector */
  int *to;           /* the part p is folded into (itself when it holds volume) */
  int *rank;         /* a kept part's place in the sorted list */
  long long *count;  /* elements per kept part */
  vxc_patch *sorted;
} patch_work;


/* Folds part p (no volume) into the part with volume whose centroid is nearest its first
 * element. */
static void fold(const vxc_region_box *box, patch_work *w, vxc_patch *out, const int *keep, int nk,
                 int p) {
  double best = HUGE_VAL;
  for (int k = 0; k < nk; k++) {
    double d[3];
    vxg_sub(box[w->root[p]].center, out[keep[k]].centroid, d);
    if (vxg_dot(d, d) < best) {
      best = vxg_dot(d, d);
      w->to[p] = keep[k];
    }
  }
  vxc_patch *q = &out[w->to[p]];
  q->volume_lo += out[p].volume_lo;
  q->volume_hi += out[p].volume_hi;
  q->error_estimate += out[p].error_estimate;
  for (int k = 0; k < 3; k++) {
    w->area[w->to[p]][k] += w->area[p][k];
  }
}


/* The normal of a kept part: J's eigenvector nearest its area vector (or the pair's). */
static void patch_normal(vxc_patch *q, const double a[3], const vxc_query_options *o,
                         const double pair_normal[3]) {
  double len = sqrt(vxg_dot(a, a)), geo[3];
  q->area = len;
  for (int c = 0; c < 3; c++) {
    geo[c] = len > 0 ? a[c] / len : pair_normal[c];
  }
  double j_err = (q->volume_hi - q->volume_lo) / q->volume;
  if (vxc_normal_from_inertia(q->inertia, geo, NULL, o->theta_c, o->r_n, o->n_i, j_err, q->normal,
                              &q->normal_flags, NULL, NULL) != VXC_OK) {
    memcpy(q->normal, geo, sizeof geo);
    q->normal_flags = VXC_NORMAL_DEGENERATE;
  }
}


/* Folds the parts without volume into the nearest part with volume, measures the parts,
 * sorts them by volume and renumbers box[].patch. Returns the number of patches (0 when no
 * part holds volume). `keep` is scratch of np entries (w->rank's storage is separate). */
static int finish_patches(vxc_region_box *box, size_t n, patch_work *w, int *keep, vxc_patch *out,
                          int np, const vxc_query_options *o, const double pair_normal[3]) {
  int nk = 0;
  for (int p = 0; p < np; p++) {
    w->to[p] = p;
    w->count[p] = 0;
    if (w->mom[p][0] > 0) {
      patch_shape(w->mom[p], box[w->root[p]].center, &out[p]);
      out[p].volume = w->mom[p][0];
      keep[nk++] = p;
    }
  }
  if (nk == 0) {
    return 0;
  }
  for (int p = 0; p < np; p++) {
    if (!(w->mom[p][0] > 0)) {
      fold(box, w, out, keep, nk, p);
    }
  }
  for (size_t i = 0; i < n; i++) {
    w->count[w->to[box[i].patch]]++;
  }
  for (int k = 0; k < nk; k++) {
    patch_normal(&out[keep[k]], w->area[keep[k]], o, pair_normal);
    w->sorted[k] = out[keep[k]];
    w->sorted[k].boxes = keep[k]; /* the part, for the sort's tie-break and the ranks */
  }
  qsort(w->sorted, (size_t)nk, sizeof *w->sorted, cmp_patch);
  for (int k = 0; k < nk; k++) {
    int p = (int)w->sorted[k].boxes;
    w->rank[p] = k;
    w->sorted[k].boxes = w->count[p];
  }
  for (size_t i = 0; i < n; i++) {
    box[i].patch = w->rank[w->to[box[i].patch]];
  }
  memcpy(out, w->sorted, (size_t)nk * sizeof *w->sorted);
  return nk;
}


int vxci_patches(const vxc_allocator *al, vxc_region_box *box, size_t n, const vxc_query_options *o,
                 const double pair_normal[3], vxc_patch *out) {
  if (n == 0) {
    return 0;
  }
  patch_work w;
  w.up = vxg_alloc(al, n * sizeof *w.up);
  w.root = vxg_alloc(al, n * sizeof *w.root);
  w.mom = vxg_alloc(al, n * sizeof *w.mom);
  w.area = vxg_alloc(al, n * sizeof *w.area);
  w.to = vxg_alloc(al, n * sizeof *w.to);
  w.rank = vxg_alloc(al, n * sizeof *w.rank);
  int *keep = vxg_alloc(al, n * sizeof *keep);
  w.count = vxg_alloc(al, n * sizeof *w.count);
  w.sorted = vxg_alloc(al, n * sizeof *w.sorted);
  int np = -1;
  if (w.up && w.root && w.mom && w.area && w.to && w.rank && keep && w.count && w.sorted) {
    for (size_t i = 0; i < n; i++) {
      w.up[i] = i;
    }
    if (join_touching(al, box, n, w.up) == 0) {
      np = sum_patches(box, n, w.up, w.root, out, w.mom, w.area);
      np = finish_patches(box, n, &w, keep, out, np, o, pair_normal);
    }
  }
  vxg_free(al, w.up);
  vxg_free(al, w.root);
  vxg_free(al, w.mom);
  vxg_free(al, w.area);
  vxg_free(al, w.to);
  vxg_free(al, w.rank);
  vxg_free(al, keep);
  vxg_free(al, w.count);
  vxg_free(al, w.sorted);
  return np;
}
