/* patch.c: a cell pair's interference split into contact patches (connected parts).
 *
 * The octree's elements of a pair (boxes wholly inside both cells and boundary leaves, as
 * vxc_query_region gives them) are the nodes; two touch when the bounding boxes of their
 * regions meet (a whole box's is the box; a leaf's, of the polyhedra it integrated, its
 * upper one included, so that two leaves that share a face but whose regions lie apart in
 * them are not joined, and two whose true regions may meet are), within a rounding
 * allowance. Neighbours are found in a hashed grid (an element is tested
 * against those that share a cell its region meets, the cells about the leaves' size, so
 * the work grows as the elements' count) and joined by union-find; a pair whose elements
 * form one part with volume stops there (it is the whole pair). A part that holds no
 * volume (only empty leaves near a surface) is joined to the part with volume whose
 * centroid is nearest, so every patch has V > 0 and the
 * patches' volumes and brackets sum to the pair's. Each patch's V, bracket, centroid and J
 * come from its elements' moments (about the patch's first element, so that they stay
 * small), its normal from J and its area vector as a pair's does. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "geom/vec3.h"
#include "lib/internal.h"

static size_t find(size_t *up, size_t i) {
  while (up[i] != i) {
    up[i] = up[up[i]];
    i = up[i];
  }
  return i;
}


/* The elements' regions' bounding boxes, packed (lo x y z lowered by tol, hi x y z; NaN:
 * empty), and
 * the hashed grid they are entered in: cells of edge g from o; per bucket, a list. */
#define GRID_CELLS_MAX 27
#define GRID_NONE UINT32_MAX
typedef struct grid {
  double (*bb)[6];
  uint32_t *head, *next, *who;
  size_t mask, n;
  double g, tol, o[3];
} grid;


/* 1 when the packed bounding boxes a and b meet (their low ends are lowered by the
 * rounding allowance). */
static int touch(const double *a, const double *b) {
  return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] &&
         b[2] <= a[5];
}


/* Packs the regions' bounds into gr->bb and sets the grid: its origin, the rounding
 * allowance, and its edge, the leaves' typical largest edge (a power of two, from the
 * mean of their binary exponents; of all elements without leaves). */
static void grid_setup(grid *gr, const vxc_region_box *box, size_t n) {
  long long sum[2] = {0, 0}, cnt[2] = {0, 0};
  double smax = 0;
  for (int k = 0; k < 3; k++) {
    gr->o[k] = HUGE_VAL;
  }
  for (size_t i = 0; i < n; i++) {
    const vxc_region_box *b = &box[i];
    double e = fmax(b->extent[0], fmax(b->extent[1], b->extent[2]));
    int x, empty = 0;
    smax = fmax(smax, e);
    if (e > 0 && isfinite(e)) {
      frexp(e, &x);
      sum[b->leaf != 0] += x;
      cnt[b->leaf != 0]++;
    }
    for (int k = 0; k < 3; k++) {
      empty |= !(b->bounds[k] <= b->bounds[3 + k]);
    }
    for (int k = 0; k < 6; k++) {
      gr->bb[i][k] = empty ? NAN : b->bounds[k];
    }
    for (int k = 0; k < 3 && !empty; k++) {
      gr->o[k] = fmin(gr->o[k], b->bounds[k]);
    }
  }
  gr->tol = 1e-9 * smax; /* the rounding of the regions' corners */
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      gr->bb[i][k] -= gr->tol;
    }
  }
  for (int k = 0; k < 3; k++) {
    gr->o[k] = isfinite(gr->o[k]) ? gr->o[k] - gr->tol : 0;
  }
  int k = cnt[1] > 0;
  gr->g = cnt[k] > 0 ? ldexp(1, (int)(sum[k] / cnt[k])) : 1;
}


/* The cells [c0, c1] (per axis) that box bb, widened by tol, meets, and their number (0:
 * an empty region). */
static double grid_range(const grid *gr, const double *bb, long long c0[3], long long c1[3]) {
  if (isnan(bb[0])) {
    return 0;
  }
  double cells = 1;
  for (int k = 0; k < 3; k++) {
    c0[k] = (long long)floor((bb[k] - gr->o[k]) / gr->g); /* bb[k] lowered by tol already */
    c1[k] = (long long)floor((bb[3 + k] + gr->tol - gr->o[k]) / gr->g);
    cells *= (double)(c1[k] - c0[k] + 1);
  }
  return cells;
}


static size_t cell_hash(long long x, long long y, long long z, size_t mask) {
  unsigned long long h = (unsigned long long)x * 0x9e3779b97f4a7c15ULL ^
                         (unsigned long long)y * 0xc2b2ae3d27d4eb4fULL ^
                         (unsigned long long)z * 0x165667b19e3779f9ULL;
  return (size_t)(h ^ (h >> 29)) & mask;
}


/* Joins i (its root *ri) and j when their regions touch and they are not joined yet;
 * *ri gets the root of both. */
static void join_touching_pair(const grid *gr, size_t i, size_t *ri, size_t j, size_t *up) {
  if (touch(gr->bb[i], gr->bb[j])) {
    size_t rj = find(up, j);
    if (rj != *ri) {
      /* the smaller index is the root: the parts do not depend on the order of joins */
      up[rj > *ri ? rj : *ri] = rj < *ri ? rj : *ri;
      *ri = rj < *ri ? rj : *ri;
    }
  }
}


/* Enters element i in the cells [c0, c1], joined to the elements entered there before it
 * that it touches. */
static void grid_enter(grid *gr, uint32_t i, const long long c0[3], const long long c1[3],
                       size_t *up) {
  size_t ri = find(up, i);
  for (long long x = c0[0]; x <= c1[0]; x++) {
    for (long long y = c0[1]; y <= c1[1]; y++) {
      for (long long z = c0[2]; z <= c1[2]; z++) {
        size_t h = cell_hash(x, y, z, gr->mask);
        for (uint32_t e = gr->head[h]; e != GRID_NONE; e = gr->next[e]) {
          join_touching_pair(gr, i, &ri, gr->who[e], up);
        }
        gr->who[gr->n] = i;
        gr->next[gr->n] = gr->head[h];
        gr->head[h] = (uint32_t)gr->n++;
      }
    }
  }
}


/* Joins every pair of touching elements (their regions' bounding boxes meet within the
 * rounding of their corners): each element is entered in the cells of a hashed grid (of
 * about the leaves' size) that its widened region meets, and tested against the
 * elements entered before it in the same buckets; two that touch share the cells about
 * their meeting point, so none is missed. An element that meets more than GRID_CELLS_MAX
 * cells (a large box inside the region) is tested against every element instead.
 * Returns 0 or -1 (memory, or too many elements for 32-bit lists). */
static int join_touching(const vxc_allocator *al, const vxc_region_box *box, size_t n, size_t *up) {
  if (n >= GRID_NONE / GRID_CELLS_MAX) {
    return -1;
  }
  size_t nb = 1;
  while (nb < 4 * n) {
    nb *= 2;
  }
  grid gr;
  memset(&gr, 0, sizeof gr);
  gr.mask = nb - 1;
  gr.bb = vxg_alloc(al, n * sizeof *gr.bb + 1);
  gr.head = vxg_alloc(al, nb * sizeof *gr.head);
  gr.next = vxg_alloc(al, GRID_CELLS_MAX * n * sizeof *gr.next + 1);
  gr.who = vxg_alloc(al, GRID_CELLS_MAX * n * sizeof *gr.who + 1);
  size_t *big = vxg_alloc(al, n * sizeof *big + 1), nbig = 0;
  int rc = gr.bb && gr.head && gr.next && gr.who && big ? 0 : -1;
  if (rc == 0) {
    grid_setup(&gr, box, n);
    memset(gr.head, 0xff, nb * sizeof *gr.head); /* GRID_NONE */
    for (size_t i = 0; i < n; i++) {
      long long c0[3], c1[3];
      double cells = grid_range(&gr, gr.bb[i], c0, c1);
      if (cells > GRID_CELLS_MAX) {
        big[nbig++] = i;
      } else if (cells > 0) {
        grid_enter(&gr, (uint32_t)i, c0, c1, up);
      }
    }
    for (size_t k = 0; k < nbig; k++) {
      size_t rk = find(up, big[k]);
      for (size_t i = 0; i < n; i++) {
        join_touching_pair(&gr, big[k], &rk, i, up);
      }
    }
  }
  vxg_free(al, gr.bb);
  vxg_free(al, gr.head);
  vxg_free(al, gr.next);
  vxg_free(al, gr.who);
  vxg_free(al, big);
  return rc;
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


/* The parts (union-find roots) that hold an element with volume, up to 2: 0, 1, or 2 for
 * more than one. */
static int parts_with_volume(const vxc_region_box *box, size_t n, size_t *up) {
  size_t first = n;
  for (size_t i = 0; i < n; i++) {
    if (box[i].moments[0] > 0) {
      size_t r = find(up, i);
      if (first == n) {
        first = r;
      } else if (r != first) {
        return 2;
      }
    }
  }
  return first < n;
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


/* The normal of a kept part, by the pair's own rule (vxci_contact_normal): J's eigenvector
 * nearest its area vector (or the pair's) where the part is thin along it, the area vector
 * where it is a wedge. */
static void patch_normal(vxc_patch *q, const double a[3], const vxc_query_options *o,
                         const double pair_normal[3]) {
  double len = sqrt(vxg_dot(a, a)), geo[3];
  q->area = len;
  for (int c = 0; c < 3; c++) {
    geo[c] = len > 0 ? a[c] / len : pair_normal[c];
  }
  vxc_normal_options no = {NULL, o->theta_c, o->r_n, o->n_i,
                           (q->volume_hi - q->volume_lo) / q->volume};
  vxc_normal_result nr;
  if (vxci_contact_normal(q->inertia, geo, &no, &nr) != VXC_OK) {
    memcpy(q->normal, geo, sizeof geo);
    q->normal_flags = VXC_NORMAL_DEGENERATE;
    return;
  }
  memcpy(q->normal, nr.n, sizeof nr.n);
  q->normal_flags = nr.flags;
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
    if (nk > 1) { /* one part: the caller gives it the pair's figures */
      patch_normal(&out[keep[k]], w->area[keep[k]], o, pair_normal);
    }
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
  /* one block for the scratch, the 8-byte types first */
  patch_work w;
  size_t per = sizeof *w.mom + sizeof *w.area + sizeof *w.sorted + sizeof *w.up +
               sizeof *w.root + sizeof *w.count + sizeof *w.to + sizeof *w.rank + sizeof(int);
  char *block = n <= ((size_t)-1) / per ? vxg_alloc(al, n * per) : NULL;
  if (!block) {
    return -1;
  }
  char *at = block;
  w.mom = (double(*)[10])(void *)at;
  at += n * sizeof *w.mom;
  w.area = (double(*)[3])(void *)at;
  at += n * sizeof *w.area;
  w.sorted = (vxc_patch *)(void *)at;
  at += n * sizeof *w.sorted;
  w.up = (size_t *)(void *)at;
  at += n * sizeof *w.up;
  w.root = (size_t *)(void *)at;
  at += n * sizeof *w.root;
  w.count = (long long *)(void *)at;
  at += n * sizeof *w.count;
  w.to = (int *)(void *)at;
  at += n * sizeof *w.to;
  w.rank = (int *)(void *)at;
  int *keep = w.rank + n;
  for (size_t i = 0; i < n; i++) {
    w.up[i] = i;
  }
  int np = -1;
  if (join_touching(al, box, n, w.up) == 0) {
    np = parts_with_volume(box, n, w.up); /* 1: connected, the whole pair the caller has */
    if (np > 1) {
      np = sum_patches(box, n, w.up, w.root, out, w.mom, w.area);
      np = finish_patches(box, n, &w, keep, out, np, o, pair_normal);
    }
  }
  vxg_free(al, block);
  return np;
}
