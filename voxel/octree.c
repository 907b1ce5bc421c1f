/* octree.c: the adaptive octree integrator (the query driver).
 *
 * Method. The region W (inside both cells, or inside one cell) is measured in a query frame:
 * the world translated so that its origin, the reference point, is the centre of the
 * intersection of the cells' world bounding boxes; the engine poses the cells there itself
 * (vxg_posed_cell_init). All moments are accumulated about that point, so they stay of the
 * size of the region and the centroid and J come out without cancellation.
 *
 *  0. Two cells whose interference is a ball's cap by a plane or two balls' lens, met by no
 *     other surface, are measured in closed form instead (closed.c; vxv_options.closed_form).
 *     Without the closed forms, a cell whose hull lies inside the other's bore over the
 *     region is proved apart, strictly, before the root grid (bore.c).
 *  1. Root grid: cubes of edge s0 = (longest side of the box) / 4 (with a leaf edge h_min:
 *     the first h_min 2^k above it, so that leaves have exactly the edge h_min) covering the
 *     box, the grid shifted by a non-dyadic fraction (0.118 s0) of a cube so that no grid plane
 *     lines up with the model's axis-aligned faces (which would hide them inside whole
 *     boxes and drop them from the area vector).
 *  2. Each box is classified against both cells (leaf.c, per atom, with masks inherited
 *     from the parent). INSIDE both: its exact moments are added (vxg_box_moments).
 *     OUTSIDE either: dropped. MIXED: split into eight, or integrated as a leaf. A box whose
 *     curved atoms are invariant along an axis is split into four, across that axis only
 *     (column.c).
 *  3. A leaf is integrated exactly on linearised surfaces (leaf.c): every MIXED atom becomes
 *     a half-space, the tangent plane g.(x - c) + f(c) <= 0 at the leaf centre c shifted by
 *     an offset; the leaf is clipped by them and the volume, first and second moments of
 *     the convex polyhedron come in closed form. With VXV_PLANE_TANGENT the offset is 0
 *     (error second order in h). With VXV_PLANE_MEAN (default) it is the mean of the atom's
 *     quadratic remainder over the polygon where the plane cuts the clipped leaf (computed
 *     from that face's second moments, then the leaf is clipped again): the volume between
 *     a surface and a plane is, to first order, the integral of their distance over that
 *     polygon, so the leading, one-signed error cancels (on the ball-on-table cap the error
 *     at a given leaf size falls by two to three orders of magnitude). The remainder's
 *     range over the leaf gives the lower and upper polyhedra: the leaf's certified bracket
 *     [lo, hi], which contains the estimate; its width falls as h^4 for a quadric (the
 *     surface's distance to its tangent plane is O(h^2) over an O(h^2) patch), so the sum
 *     over the O(h^-2) boundary leaves narrows as h^2. A leaf cut only by planes is exact at
 *     any size. The area vector adds the vector areas of the clipped polyhedron's faces lying
 *     on cell A's planes. The polyhedra are the vertex-neighbour form of clip.c (r3d), with
 *     geom's face-list polyhedra (vxg_poly_*) as the fallback when a capacity is exceeded.
 *  4. The top of the tree is cut into subtrees: the root grid's MIXED boxes are split, level
 *     by level (under the h_min rule, those whose upper polyhedron is empty dropped), until
 *     there are at least VXV_MIN_SUBTREES of them. The cut depends on the
 *     geometry only; the boxes of a level are classified on the pool's threads and summed
 *     in order afterwards. Each subtree is processed by one thread of the pool with its own
 *     accumulators (compensated sums), and the sums are reduced in subtree order: every
 *     figure is bitwise identical whatever the thread count. A round's subtrees are claimed
 *     in decreasing order of the leaves they have to split, so that the threads end
 *     together.
 *  5. Stopping rules.
 *     h_min rule (rtol = 0): a single pass; a MIXED box is split while its edge exceeds
 *       h_min and its integration is inexact; each leaf is integrated and summed at once
 *       (nothing is stored: memory stays that of the scratch areas), or dropped when its
 *       upper polyhedron is empty.
 *     rtol rule: rounds. Round 0 integrates each subtree's root as a leaf and stores it.
 *       After each round the sums give V, V_lo, V_hi; if V_hi - V_lo <= rtol V the query is
 *       done. Otherwise a threshold tau is chosen among the stored leaves' gaps (hi - lo),
 *       sorted, as the largest for which the predicted total gap (a split leaves about 4
 *       children meeting the surface, each with 1/16 of the gap) falls below 0.8 rtol V;
 *       the next round splits
 *       every stored leaf whose gap exceeds tau, depth first, its children integrated and
 *       split again while their gap exceeds tau. The largest gaps are refined first. Leaves
 *       whose integration is exact are retired (summed for good, not stored).
 *     Caps: the work cap (boxes classified) is shared among the subtrees at the start of
 *     each round in proportion to the leaves they have to split, and the memory cap bounds
 *     the workspace's growth; when either is hit, leaves stay as they are (retired when
 *     they cannot be stored) and res->capped = 1. Both decisions depend only on the state
 *     at the start of a round, so they do not depend on the thread count either. Under the
 *     h_min rule a capped pass would leave whole regions as coarse boxes, which can be far
 *     worse than a coarser level: the pass is run again with the leaf edge doubled until one
 *     completes. Under the rtol rule a cut round is kept (its unsplit leaves are whole).
 *  6. From the moments about the reference point (S0, S1, S2): V = S0, p = S1 / V,
 *     C = S2 - V p p^T (second moments about the centroid), J = tr(C) I - C; the centroid
 *     is ref + p in the world.
 *
 * Memory: the workspace holds the posed cells, the subtree table, one scratch area per
 * thread (DFS stack, polyhedron, half-spaces) and, under the rtol rule, two leaf buffers
 * per thread (one being read, one being written each round). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "voxel/internal.h"
#include "geom/vec3.h"

/* Fraction of a root cube by which the grid is shifted (irrational: never dyadic). */
#define GRID_SHIFT 0.1180339887498949
#define MAX_ROUNDS 40
/* The reach of vxv_options.apart_reach, over the bore's radius. */
#define APART_REACH (1.0 / 64)

void vxv_options_default(vxv_options *o) {
  memset(o, 0, sizeof *o);
  o->rtol = 1e-3;
  o->h_min = 0;
  o->max_boxes = 0;
  o->max_bytes = 0;
  o->threads = 1;
  o->plane = VXV_PLANE_MEAN;
  o->hull_test = 0;
  o->closed_form = 1;
}


/* ---- one subtree, one round ---------------------------------------------------------- */

static int can_split(const vxv_workspace *ws, vxv_subtree *st, const vxv_box *b) {
  if (b->level >= VXV_MAX_LEVEL) {
    return 0;
  }
  if (ws->halt && *ws->halt) {
    st->capped = 1; /* the caller asked to stop: what is there is summed, flagged */
    return 0;
  }
  if (ws->q.h_min > 0 && 2 * b->h <= ws->q.h_min) {
    return 0;
  }
  if (st->rboxes + 8 > st->budget) {
    st->capped = 1;
    return 0;
  }
  return 1;
}


/* can_split without its side effect (the capped flag): 1 when b may be split now. */
static int may_split(const vxv_workspace *ws, const vxv_subtree *st, const vxv_box *b) {
  return b->level < VXV_MAX_LEVEL && !(ws->halt && *ws->halt) &&
         !(ws->q.h_min > 0 && 2 * b->h <= ws->q.h_min) && st->rboxes + 8 <= st->budget;
}


/* ---- the visitor (vxv_options.visit) -------------------------------------------------- */

static void visit_start(vxv_visit *v, const vxv_workspace *ws, vxv_visit_kind kind,
                        const vxv_box *b) {
  memset(v, 0, sizeof *v);
  v->kind = kind;
  for (int k = 0; k < 3; k++) {
    v->c[k] = ws->ref[k] + b->c[k];
  }
  v->h = b->h;
  memcpy(v->e, b->e, sizeof v->e);
  v->level = b->level;
  for (int k = 0; k < 3; k++) {
    v->rb[k] = v->c[k] - b->e[k];
    v->rb[3 + k] = v->c[k] + b->e[k];
  }
}


/* Gives v to the visitor, or with ws->visit_defer keeps it with st's elements of the round
 * (st NULL: from the caller's thread, outside the rounds: given at once). */
static void emit(vxv_workspace *ws, const vxv_subtree *st, const vxv_visit *v) {
  if (!st || !ws->visit_defer) {
    ws->visit(ws->visit_ud, v);
    return;
  }
  vxv_thread *th = ws->th[st->vowner];
  if (vxv_ws_grow(ws, (void **)&th->vis, &th->capvis, th->nvis + 1, sizeof *th->vis) != 0) {
    ws->visit_lost = 1;
    return;
  }
  th->vis[th->nvis++] = *v;
}


/* Gives the visitor the elements the subtrees kept in the round (ws->visit_defer), in
 * subtree order, and empties the threads' lists. */
static void flush_visits(vxv_workspace *ws) {
  if (!ws->visit_defer) {
    return;
  }
  for (int s = 0; s < ws->nsub; s++) {
    vxv_subtree *st = &ws->sub[s];
    const vxv_visit *v = ws->th[st->vowner]->vis + st->voff;
    for (size_t i = 0; i < st->vn; i++) {
      ws->visit(ws->visit_ud, &v[i]);
    }
    st->vn = 0;
  }
  for (int t = 0; t < ws->nth; t++) {
    ws->th[t]->nvis = 0;
  }
}


/* Reports a box wholly inside the region (st: the subtree it belongs to, or NULL). */
static void visit_box(vxv_workspace *ws, const vxv_subtree *st, const vxv_box *b) {
  if (!ws->visit) {
    return;
  }
  vxv_visit v;
  visit_start(&v, ws, VXV_VISIT_BOX, b);
  double vol = vxv_box_volume(b);
  v.m[0] = v.lo = v.hi = vol;
  for (int k = 0; k < 3; k++) {
    v.m[4 + k] = vol * b->e[k] * b->e[k] / 3; /* int x^2 over [-e, e] */
  }
  emit(ws, st, &v);
}


/* An exact leaf whose region lies in parts apart, part[0 .. npart): each part an element of
 * its own (its bracket its volume within its pieces' rounding), so that two contacts never
 * share one. */
static void visit_parts(vxv_workspace *ws, const vxv_subtree *st, const vxv_leaf *l,
                        const vxv_bpart *part, int npart) {
  double boxvol = vxv_box_volume(&l->b);
  for (int i = 0; i < npart; i++) {
    const vxv_bpart *p = &part[i];
    vxv_visit v;
    visit_start(&v, ws, VXV_VISIT_LEAF, &l->b);
    memcpy(v.m, p->m, sizeof v.m);
    v.lo = fmax(p->m[0] - p->round, 0);
    v.hi = fmin(p->m[0] + p->round, boxvol);
    v.est = 0;
    memcpy(v.area, p->area, sizeof v.area);
    for (int k = 0; k < 6; k++) {
      v.rb[k] = v.c[k % 3] + p->rb[k];
    }
    emit(ws, st, &v);
  }
}


/* Reports a leaf of the final region (st: its subtree, or NULL): l as one element, or
 * npart > 1: as its parts part[0 .. npart). */
static void visit_leaf(vxv_workspace *ws, const vxv_subtree *st, const vxv_leaf *l,
                       const vxv_bpart *part, int npart) {
  if (!ws->visit) {
    return;
  }
  if (npart > 1) {
    visit_parts(ws, st, l, part, npart);
    return;
  }
  vxv_visit v;
  visit_start(&v, ws, VXV_VISIT_LEAF, &l->b);
  memcpy(v.m, l->m, sizeof v.m);
  v.lo = l->lo;
  v.hi = l->hi;
  v.est = l->est;
  memcpy(v.area, l->area, sizeof v.area);
  for (int k = 0; k < 6; k++) {
    v.rb[k] = v.c[k % 3] + l->rb[k];
  }
  emit(ws, st, &v);
}


/* Retires the leaf l (reported as its parts part[0 .. npart) when npart > 1). */
static void retire_parts(vxv_workspace *ws, vxv_subtree *st, const vxv_leaf *l,
                         const vxv_bpart *part, int npart) {
  visit_leaf(ws, st, l, part, npart);
  vxv_acc_leaf(&st->full, l);
  st->leaves++;
  if (st->hmin_leaf == 0 || l->b.h < st->hmin_leaf) {
    st->hmin_leaf = l->b.h;
  }
}


static void retire(vxv_workspace *ws, vxv_subtree *st, const vxv_leaf *l) {
  retire_parts(ws, st, l, NULL, 0);
}


/* Keeps a leaf for later rounds, or retires it (as its parts part[0 .. npart) when
 * npart > 1) when it is exact or cannot be stored. */
static void store_parts(vxv_workspace *ws, vxv_thread *th, int par, vxv_subtree *st,
                        const vxv_leaf *l, const vxv_bpart *part, int npart) {
  if (l->exact) {
    retire_parts(ws, st, l, part, npart);
    return;
  }
  if (th->n[par] >= th->cap[par] && vxv_ws_grow(ws, (void **)&th->buf[par], &th->cap[par],
                                                th->n[par] + 1, sizeof(vxv_leaf)) != 0) {
    st->capped = 1;
    retire(ws, st, l);
    return;
  }
  th->buf[par][th->n[par]++] = *l;
}


static void store(vxv_workspace *ws, vxv_thread *th, int par, vxv_subtree *st, const vxv_leaf *l) {
  store_parts(ws, th, par, st, l, NULL, 0);
}


/* Splits b: whole children are summed, MIXED ones pushed on the stack. */
static void split(vxv_workspace *ws, vxv_thread *th, vxv_subtree *st, const vxv_box *b, int *sp) {
  vxv_box kid[8];
  int nk = vxv_box_split(&ws->q, b, kid);
  /* under the h_min rule vxv_box_empty tested b: children beyond its bounds are dropped */
  unsigned beyond = ws->q.region_cut ? vxv_box_beyond(th, b, kid, nk) : 0;
  for (int j = nk - 1; j >= 0; j--) {
    vxv_box *c = &kid[j];
    if (beyond >> j & 1) {
      continue;
    }
    st->rboxes++;
    vxg_class cls = vxv_box_classify(&ws->q, c, &th->hint);
    if (cls == VXG_INSIDE) {
      visit_box(ws, st, c);
      vxv_acc_box(&st->full, c);
    } else if (cls == VXG_MIXED) {
      th->stack[(*sp)++] = *c;
      if (c->level > st->depth) {
        st->depth = c->level;
      }
    }
  }
}


/* Least share of a leaf's gap its error estimate keeps: the coarse and fine values can
 * agree by chance while both are off (the finite cylinder 2 mm on a table at rtol 1e-5
 * then stopped 2.8 times its estimate off); with the floor the measured error stayed
 * below half the estimate on the validation cases, for a few per cent more leaves. */
#define EST_FLOOR 1e-3
/* The fall of the differences from one level to the next (rho) that est_divisor takes:
 * at most RHO_MAX (the children's estimate at least half their difference), and none
 * steeper than RHO_TRUST. */
#define RHO_MAX 3.0
#define RHO_TRUST 64.0

/* Shares |V_parent - sum of the children's V| (diff) among the inexact leaves kid[0..n) in
 * proportion to their planar enclosures' widths (pgap), each keeping at least EST_FLOOR of
 * it; the estimate is that share divided by `div` (>= 1). */
static void share_estimate(vxv_leaf *kid, int n, double diff, double div) {
  double gsum = 0;
  int ninexact = 0;
  for (int j = 0; j < n; j++) {
    if (!kid[j].exact) {
      gsum += kid[j].pgap;
      ninexact++;
    }
  }
  for (int j = 0; j < n; j++) {
    vxv_leaf *k = &kid[j];
    if (!k->exact) {
      k->dshare = gsum > 0 ? diff * k->pgap / gsum : diff / ninexact;
      k->est = fmax(k->dshare / div, EST_FLOOR * k->pgap);
    }
  }
}


/* The divisor of the difference (diff) between leaf p and its children: where p's own share
 * of its parent's difference is rho times diff, the differences fall by rho a level there,
 * and the children's error, the sum of all finer differences, is diff / (rho - 1) (adaptive
 * quadrature's extrapolation by the observed order). rho is taken at most RHO_MAX; below 2
 * (no observed convergence) or above RHO_TRUST (a fall so steep that the two levels may
 * agree by chance) the plain difference is kept. */
static double est_divisor(const vxv_leaf *p, double diff) {
  double rho = diff > 0 ? p->dshare / diff : 0;
  if (!(rho >= 2) || rho > RHO_TRUST) {
    return 1;
  }
  return fmin(rho, RHO_MAX) - 1;
}


/* h_min rule with parent_est: 1 when b's children are final leaves (too small to split). */
static int last_split(const vxv_query *q, const vxv_box *b) {
  return q->parent_est && (b->h <= q->h_min || b->level + 1 >= VXV_MAX_LEVEL);
}


/* Splits b (vxv_box_split): its INSIDE children counted whole, its MIXED ones (not empty,
 * when drop_empty) integrated into kid[0..*n). Returns the children's volume. */
static double split_children(vxv_workspace *ws, vxv_thread *th, vxv_subtree *st, const vxv_box *b,
                             int drop_empty, vxv_leaf kid[8], int *n) {
  const vxv_query *q = &ws->q;
  vxv_box cb[8];
  double sum = 0;
  int nc = vxv_box_split(q, b, cb);
  *n = 0;
  for (int j = 0; j < nc; j++) {
    vxv_box c = cb[j];
    st->rboxes++;
    vxg_class cls = vxv_box_classify(q, &c, &th->hint);
    if (cls == VXG_INSIDE) {
      visit_box(ws, st, &c);
      vxv_acc_box(&st->full, &c);
      sum += vxv_box_volume(&c);
    } else if (cls == VXG_MIXED) {
      if (!drop_empty) {
        vxv_leaf_eval(q, th, &c, &kid[*n], 0);
      } else if (vxv_leaf_eval_kept(q, th, &c, &kid[*n]) < 0) {
        continue; /* nothing of the region in it */
      }
      sum += kid[*n].m[0];
      st->depth = c.level > st->depth ? c.level : st->depth;
      (*n)++;
    }
  }
  return sum;
}


/* The divisor of a family's difference under the h_min rule with parent_est, where the
 * fall from the parent's level is not observed: ORDER3_DIV when the parent and its inexact
 * children all have third-order values (their errors fall as h^5 a leaf, so the children's
 * sum is at most about a quarter of the parent's error and the difference overstates it
 * several times), else 1. */
#define ORDER3_DIV 2.0
static double family_divisor(const vxv_leaf *p, const vxv_leaf *kid, int n) {
  if (!p->order3) {
    return 1;
  }
  for (int j = 0; j < n; j++) {
    if (!kid[j].exact && !kid[j].order3) {
      return 1;
    }
  }
  return ORDER3_DIV;
}


/* h_min rule with parent_est: splits b into its final leaves, integrated and retired, their
 * estimate from b integrated as a leaf (as refine does under the rtol rule; its value
 * alone, no bracket). */
static void split_estimated(vxv_workspace *ws, vxv_thread *th, vxv_subtree *st, const vxv_box *b) {
  vxv_leaf p, kid[8];
  vxv_leaf_eval_value(&ws->q, th, b, &p);
  int n;
  double sum = split_children(ws, th, st, b, 0, kid, &n);
  share_estimate(kid, n, fabs(p.m[0] - sum), family_divisor(&p, kid, n));
  for (int j = 0; j < n; j++) {
    retire(ws, st, &kid[j]);
  }
}


/* The parts of the leaf l that th has just integrated to report one by one (visit_parts):
 * the region is visited (contact patches) and l is exact, its region in 2 ..
 * VXV_BSP_PARTS parts apart (th->bsp.parts until th's next leaf); else 0. */
static int leaf_parts(const vxv_workspace *ws, const vxv_thread *th, const vxv_leaf *l) {
  return ws->visit && l->apart && l->exact && th->bsp.nparts <= VXV_BSP_PARTS ? th->bsp.nparts : 0;
}


/* 1 when the exact leaf l that th has just integrated must still be split: the region is
 * visited (contact patches) and l's region has parts apart, which must land in elements of
 * their own so that two contacts never share one, and too many to report one by one. */
static int parts_apart(const vxv_workspace *ws, const vxv_thread *th, const vxv_leaf *l) {
  return l->apart && ws->visit && leaf_parts(ws, th, l) == 0;
}


/* Depth-first processing of the MIXED boxes on the stack. */
static void drain(vxv_workspace *ws, vxv_thread *th, int par, vxv_subtree *st, int sp) {
  const vxv_query *q = &ws->q;
  vxv_leaf l;
  while (sp > 0) {
    vxv_box b = th->stack[--sp];
    if (b.leaf) {
      int k = b.leaf - 1, first = ws->toppart0[k];
      int end = k + 1 < ws->ntopleaf ? ws->toppart0[k + 1] : ws->ntoppart;
      store_parts(ws, th, par, st, &ws->topleaf[k], end > first ? ws->toppart + first : NULL,
                  end - first); /* exact: retired */
      continue;
    }
    if (!q->rtol_rule) {
      if (vxv_box_inexact(q, &b) && can_split(ws, st, &b)) {
        if (vxv_box_empty(q, th, &b)) {
          continue; /* nothing of the region in it: no need to look closer */
        }
        /* a box inexact only through convex meshes may still be an exact leaf */
        if (vxv_leaf_eval(q, th, &b, &l, 1) && !parts_apart(ws, th, &l)) {
          retire_parts(ws, st, &l, th->bsp.parts, leaf_parts(ws, th, &l));
        } else if (last_split(q, &b)) {
          split_estimated(ws, th, st, &b);
        } else {
          split(ws, th, st, &b, &sp);
        }
      } else if (vxv_leaf_eval_kept(q, th, &b, &l) >= 0) {
        /* a final leaf whose upper polyhedron is empty holds none of the region: dropped
           with no lower, middle or third-order polyhedron, as under the rtol rule */
        retire_parts(ws, st, &l, th->bsp.parts, leaf_parts(ws, th, &l));
      }
      continue;
    }
    /* a leaf only meshes and planes cross is split on until it is exact (a polyhedron is
       exact at a finite depth), whatever its gap; an exact one while its parts lie apart.
       Such a leaf is given up as soon as it is known to be inexact (too many triangles
       near it): it is split without being integrated */
    int poly = vxv_box_polyhedral(q, &b);
    int rc = poly && may_split(ws, st, &b) ? vxv_leaf_eval_or_split(q, th, &b, &l)
                                           : vxv_leaf_eval_kept(q, th, &b, &l);
    if (rc == -2 && can_split(ws, st, &b)) {
      split(ws, th, st, &b, &sp);
      continue;
    }
    if (rc == -2) {
      rc = vxv_leaf_eval_kept(q, th, &b, &l); /* stopped meanwhile: the leaf is kept */
    }
    if (rc < 0) {
      continue; /* nothing of the region in it (a subtree's root, mostly): no leaf */
    }
    int refine = l.exact ? parts_apart(ws, th, &l) : l.hi - l.lo > q->tau || poly;
    if (refine && can_split(ws, st, &b)) {
      split(ws, th, st, &b, &sp);
    } else {
      store_parts(ws, th, par, st, &l, th->bsp.parts, leaf_parts(ws, th, &l));
    }
  }
}


/* The estimate rule's split of leaf p (its estimate above tau): its eight children are
 * classified and the MIXED ones integrated as leaves and stored; |V_p - sum of the
 * children's V| (the embedded-rule difference of adaptive quadrature: the coarse value
 * against the finer one, which overstates the finer one's error) is the children's error
 * estimate, shared among the inexact ones in proportion to their gaps (the bracket says
 * where the surfaces' curvature lies). One level per round: the next round's threshold is
 * chosen from these estimates. */
static void refine(vxv_workspace *ws, vxv_thread *th, int par, vxv_subtree *st, const vxv_leaf *p) {
  vxv_leaf kid[8];
  int n;
  double sum = split_children(ws, th, st, &p->b, 1, kid, &n);
  double diff = fabs(p->m[0] - sum), div = 1;
  if (p->dshare > RHO_TRUST * diff) {
    diff = p->dshare / RHO_TRUST; /* agreeing by chance: no steeper fall is believed */
  } else {
    div = est_divisor(p, diff);
  }
  share_estimate(kid, n, diff, div);
  if (p->dshare > 0) {
    st->fall[0] += p->dshare;
    st->fall[1] += diff;
  }
  for (int j = 0; j < n; j++) {
    kid[j].made = ws->q.round;
    store(ws, th, par, st, &kid[j]);
  }
}


/* The subtree's observed fall (subtree_fall): taken at most FALL_MAX, and none steeper than
 * FALL_TRUST (a coarse tree's first rounds may fall steeply and then stall). */
#define FALL_MAX 8.0
#define FALL_TRUST 20.0

/* The estimates of the leaves l[0 .. n) that st's round has just stored, from the fall of
 * the differences summed over its families rather than leaf by leaf: a family's difference
 * against its parent's share of the level above scatters (their signs and shares vary from
 * leaf to leaf), so est_divisor's rho is at most RHO_MAX, where the sums over the subtree's
 * split leaves fall steadily, as the leaf rule's order says (by 8 a level for third-order
 * values over a surface, by 16 along a ring). When this round's fall and the last one's
 * both lie in [2, FALL_TRUST], the children's error is their difference over
 * min(rho, FALL_MAX) - 1, rho the smaller fall (extrapolation by the observed order, as
 * est_divisor); otherwise the plain difference, whatever est_divisor made of it leaf by
 * leaf. */
static void subtree_fall(const vxv_query *q, vxv_subtree *st, vxv_leaf *l, size_t n) {
  double rho = st->fall[1] > 0 ? st->fall[0] / st->fall[1] : 0, last = st->rho;
  st->fall[0] = st->fall[1] = 0;
  st->rho = rho;
  if (!(rho > 0)) {
    return; /* no family with a difference above it: the leaves' own estimates stand */
  }
  double div = 1;
  if (rho >= 2 && rho <= FALL_TRUST && last >= 2 && last <= FALL_TRUST) {
    div = fmin(fmin(rho, last), FALL_MAX) - 1;
  }
  for (size_t i = 0; i < n; i++) {
    if (l[i].made == q->round && !l[i].exact) {
      l[i].est = fmax(l[i].dshare / div, EST_FLOOR * l[i].pgap);
    }
  }
}


static void subtree_round(vxv_workspace *ws, vxv_thread *th, int t, int s) {
  vxv_subtree *st = &ws->sub[s];
  const vxv_query *q = &ws->q;
  int par = q->round & 1;
  size_t start = th->n[par];
  st->vowner = t;
  st->voff = th->nvis;
  st->rboxes = 0;
  st->nsplit = 0;
  if (q->round == 0) {
    th->stack[0] = st->root;
    drain(ws, th, par, st, 1);
  } else {
    /* the leaves of the previous round, in order (the owner's other buffer) */
    const vxv_leaf *old = ws->th[st->owner]->buf[par ^ 1] + st->off;
    size_t n = st->n;
    for (size_t i = 0; i < n; i++) {
      const vxv_leaf *l = &old[i];
      if (vxv_leaf_weight(q, l) > q->tau && !l->exact && can_split(ws, st, &l->b)) {
        st->nsplit++;
        if (!q->certified) {
          refine(ws, th, par, st, l);
          continue;
        }
        int sp = 0;
        split(ws, th, st, &l->b, &sp);
        drain(ws, th, par, st, sp);
      } else {
        store(ws, th, par, st, l);
      }
    }
  }
  if (q->round > 0 && !q->certified) {
    subtree_fall(q, st, th->buf[par] + start, th->n[par] - start);
  }
  st->boxes += st->rboxes;
  st->vn = th->nvis - st->voff;
  st->owner = t;
  st->off = start;
  st->n = th->n[par] - start;
  vxv_acc_zero(&st->leafsum);
  for (size_t i = start; i < th->n[par]; i++) {
    const vxv_leaf *l = &th->buf[par][i];
    vxv_acc_leaf(&st->leafsum, l);
    if (st->hmin_leaf == 0 || l->b.h < st->hmin_leaf) {
      st->hmin_leaf = l->b.h;
    }
  }
}


/* Claim order: larger cost first, then subtree index. */
static int cmp_claim(const void *a, const void *b) {
  const vxv_claim *x = a, *y = b;
  if (x->cost != y->cost) {
    return x->cost > y->cost ? -1 : 1;
  }
  return (x->sub > y->sub) - (x->sub < y->sub);
}


static void round_job(vxv_workspace *ws, int t) {
  vxv_thread *th = ws->th[t];
  int i;
  while ((i = vxv_ws_claim(ws, t)) >= 0) {
    subtree_round(ws, th, t, ws->order[i].sub);
  }
}


/* ---- the top of the tree ------------------------------------------------------------- */

/* What a box of a level of the top is (ws->cls): kept as it is, to be classified, or its
 * class. */
enum { TOP_KEEP, TOP_TODO, TOP_INSIDE, TOP_MIXED, TOP_OUTSIDE };
/* Boxes a thread claims at a time while classifying a level of the top (at most), and the
 * fewest boxes to classify for a level to be shared among the threads. A mesh's boxes cost
 * more, and their cost varies (the root grid's most). A mesh level is claimed in chunks of
 * about an eighth of a thread's share (one box for the root grid): one box at a time, the
 * threads write neighbouring boxes and fight over their cache lines. The bench case that
 * shows it: `vxc bench --only "mesh lens"`, column x2t (two threads over one). */
#define TOP_CHUNK 8
#define TOP_PARALLEL_MIN 64
#define TOP_PARALLEL_MIN_MESH 4

/* Boxes a claim of a level of n boxes covers, on nt threads. */
static int top_chunk(const vxv_workspace *ws, int n, int nt) {
  if (!ws->top_mesh) {
    return TOP_CHUNK;
  }
  int c = n / (8 * nt);
  return c < 1 ? 1 : c > TOP_CHUNK ? TOP_CHUNK : c;
}


static void top_classify(vxv_workspace *ws, int i0, int i1) {
  int hint = -1;
  for (int i = i0; i < i1; i++) {
    if (ws->cls[i] == TOP_TODO) {
      vxg_class c = vxv_box_classify(&ws->q, &ws->top[i], &hint);
      ws->cls[i] = c == VXG_INSIDE ? TOP_INSIDE : c == VXG_MIXED ? TOP_MIXED : TOP_OUTSIDE;
    }
  }
}


static void hull_test(vxv_workspace *ws) {
  ws->mpr_done = 1;
  ws->mpr_status =
      vxg_mpr(ws->mpr_cell[0], ws->mpr_pose[0], ws->mpr_cell[1], ws->mpr_pose[1], &ws->mpr);
}


/* 1 when the hull test ran and found the hulls disjoint. */
static int hulls_disjoint(const vxv_workspace *ws) {
  return ws->mpr_done && ws->mpr_status == VXC_OK && !ws->mpr.overlap;
}


static void top_job(vxv_workspace *ws, int t) {
  int i;
  while ((i = vxv_ws_claim(ws, t)) >= 0) {
    if (ws->mpr_todo) {
      if (i == 0) {
        hull_test(ws);
        continue;
      }
      i--;
    }
    int chunk = ws->top_chunk, i0 = i * chunk;
    top_classify(ws, i0, i0 + chunk < ws->ntop ? i0 + chunk : ws->ntop);
  }
}


/* Classifies the boxes list[0 .. n) marked TOP_TODO in ws->cls, on nt threads when there are
 * enough of them (TOP_PARALLEL_MIN, TOP_PARALLEL_MIN_MESH),
 * then compacts the list in order: kept and MIXED boxes stay, INSIDE ones are summed into
 * pre in list order, so that no figure depends on the threads. Returns the boxes left. With
 * a pending hull test (the root grid), runs it too, as item 0 of the threads' job or first
 * on one thread, and returns 0 when the hulls are disjoint. */
static int top_level(vxv_workspace *ws, int nt, vxv_box *list, int n, int todo, vxv_acc *pre,
                     int *depth) {
  ws->top = list;
  ws->ntop = n;
  int chunk = ws->top_chunk = top_chunk(ws, n, nt);
  if (nt > 1 && todo >= (ws->top_mesh ? TOP_PARALLEL_MIN_MESH : TOP_PARALLEL_MIN)) {
    vxv_ws_run(ws, nt, (n + chunk - 1) / chunk + ws->mpr_todo, 1, top_job);
  } else {
    if (ws->mpr_todo) {
      hull_test(ws); /* first: disjoint hulls need no classification */
    }
    if (!hulls_disjoint(ws)) {
      top_classify(ws, 0, n);
    }
  }
  ws->mpr_todo = 0;
  if (hulls_disjoint(ws)) {
    return 0; /* the caller reports no contact */
  }
  int m = 0;
  for (int i = 0; i < n; i++) {
    unsigned char c = ws->cls[i];
    if (c == TOP_INSIDE) {
      visit_box(ws, NULL, &list[i]);
      vxv_acc_box(pre, &list[i]);
    } else if (c == TOP_KEEP || c == TOP_MIXED) {
      if (list[i].level > *depth) {
        *depth = list[i].level;
      }
      list[m++] = list[i];
    }
  }
  return m;
}


/* 1 when b, inexact only through meshes, is an exact leaf as it is (their planes or their
 * BSP fit a leaf), or is taken by the revolution rule (a torus's ring on a plane, leaf.c):
 * a root of its own rather than split for the count of subtrees (a convex mesh on a table
 * would otherwise go levels deeper than its exact leaves; a ring's leaves would each cost an
 * integral about the axis). The leaf is kept with the box (ws->topleaf) for its subtree. An
 * exact leaf's bracket is its polyhedra's rounding allowance, which shrinks with them
 * (leaf.c), so the certified rule keeps it too (the revolution rule is the rtol rule's
 * alone). */
static int exact_leaf(vxv_workspace *ws, vxv_box *b) {
  if (!(ws->top_mesh && vxv_box_planar(&ws->q, b)) && !vxv_box_revolution(&ws->q, b)) {
    return 0;
  }
  /* integrated now and kept with the box, so that its subtree does not integrate it again */
  vxv_leaf l;
  vxv_thread *th = ws->th[0];
  if (!vxv_leaf_eval(&ws->q, th, b, &l, 1) || parts_apart(ws, th, &l)) {
    return 0;
  }
  /* its parts kept too (th's BSP holds them only until its next leaf) */
  int np = leaf_parts(ws, th, &l);
  if (vxv_ws_grow(ws, (void **)&ws->toppart0, &ws->captoppart0, (size_t)ws->ntopleaf + 1,
                  sizeof *ws->toppart0) != 0 ||
      (np > 0 && vxv_ws_grow(ws, (void **)&ws->toppart, &ws->captoppart,
                             (size_t)(ws->ntoppart + np), sizeof *ws->toppart) != 0)) {
    return 0;
  }
  ws->toppart0[ws->ntopleaf] = ws->ntoppart;
  if (np > 0) {
    memcpy(ws->toppart + ws->ntoppart, th->bsp.parts, (size_t)np * sizeof *ws->toppart);
  }
  if (vxv_ws_grow(ws, (void **)&ws->topleaf, &ws->captopleaf, (size_t)ws->ntopleaf + 1,
                  sizeof *ws->topleaf) == 0) {
    ws->topleaf[ws->ntopleaf++] = l;
    ws->ntoppart += np;
    b->leaf = ws->ntopleaf;
  }
  return 1;
}


/* Splits the MIXED boxes of the root grid, level by level, into at least VXV_MIN_SUBTREES
 * subtree roots (fewer when nothing more can be split). Returns 0 or -1 (no memory). */
static int cut_top(vxv_workspace *ws, int nt, vxv_acc *pre, long long *boxes, int *depth, int n) {
  const vxv_query *q = &ws->q;
  int cur = 0;
  while (n > 0 && n < VXV_MIN_SUBTREES) {
    int nxt = cur ^ 1, m = 0, any = 0, todo = 0;
    if (vxv_ws_grow(ws, (void **)&ws->list[nxt], &ws->capl[nxt], (size_t)n * 8, sizeof(vxv_box)) !=
            0 ||
        vxv_ws_grow(ws, (void **)&ws->cls, &ws->capcls, (size_t)n * 8, 1) != 0) {
      return -1;
    }
    vxv_box *next = ws->list[nxt];
    for (int i = 0; i < n; i++) {
      vxv_box *b = &ws->list[cur][i];
      int ok = b->level < VXV_MAX_LEVEL && vxv_box_inexact(q, b) &&
               !(q->h_min > 0 && 2 * b->h <= q->h_min) && !exact_leaf(ws, b) &&
               !(!q->rtol_rule && last_split(q, b)); /* drain estimates that split */
      if (!ok) {
        ws->cls[m] = TOP_KEEP;
        next[m++] = *b;
        continue;
      }
      any = 1;
      if (!q->rtol_rule && vxv_box_empty(q, ws->th[0], b)) {
        continue; /* none of the region in it: dropped, as drain drops a box (the rtol
                     rule's subtrees, and so its rounds, are left as they were) */
      }
      int m0 = m, nk = vxv_box_split(q, b, &next[m]); /* room for 8 per box */
      unsigned beyond = q->region_cut ? vxv_box_beyond(ws->th[0], b, &next[m0], nk) : 0;
      for (int j = 0; j < nk; j++) {
        if (beyond >> j & 1) {
          continue; /* none of the region: not classified */
        }
        next[m] = next[m0 + j];
        (*boxes)++;
        todo++;
        ws->cls[m++] = TOP_TODO;
      }
    }
    cur = nxt;
    n = top_level(ws, nt, next, m, todo, pre, depth);
    if (!any) {
      break;
    }
  }
  if (vxv_ws_grow(ws, (void **)&ws->sub, &ws->capsub, (size_t)(n > 0 ? n : 1),
                  sizeof(vxv_subtree)) != 0 ||
      vxv_ws_grow(ws, (void **)&ws->order, &ws->caporder, (size_t)(n > 0 ? n : 1),
                  sizeof *ws->order) != 0) {
    return -1;
  }
  ws->nsub = n;
  for (int i = 0; i < n; i++) {
    vxv_subtree *st = &ws->sub[i];
    memset(st, 0, sizeof *st);
    st->root = ws->list[cur][i];
  }
  return 0;
}


/* ---- rounds (rtol rule) --------------------------------------------------------------- */

/* Predicted gap left of a leaf of gap g once the round has split it with threshold tau: a
 * split leaves about 4 children meeting the surface, each with 1/16 of the gap (h^4), and
 * a child is split again while its own gap exceeds tau. */
static double predicted(const vxv_query *q, double g, double tau) {
  if (!q->certified) {
    return g > tau ? g / 4 : g;
  }
  double left = g;
  while (g > tau && left > 0) {
    g /= 16;
    left /= 4;
  }
  return left;
}


#define SORT_SMALL 64

/* Sorts the positive doubles a[0 .. m) in decreasing order, tmp holding m more: a radix
 * sort of their bit patterns, which order positive doubles as their values (below
 * SORT_SMALL of them, an insertion sort), so the result is the array a comparison sort
 * gives. It runs between rounds, on one thread, where qsort
 * costs more (the bench case: `vxc bench --only cylinder`, setting rtol=1e-03). */
static void sort_desc(double *a, double *tmp, size_t m) {
  if (m < SORT_SMALL) {
    /* few: by insertion (the radix sort's counts cost more) */
    for (size_t i = 1; i < m; i++) {
      double x = a[i];
      size_t j = i;
      for (; j > 0 && a[j - 1] < x; j--) {
        a[j] = a[j - 1];
      }
      a[j] = x;
    }
    return;
  }
  size_t cnt[8][256];
  memset(cnt, 0, sizeof cnt);
  for (size_t i = 0; i < m; i++) {
    uint64_t k;
    memcpy(&k, &a[i], sizeof k);
    k = ~k; /* increasing in ~bits: decreasing in value */
    for (int d = 0; d < 8; d++) {
      cnt[d][(k >> (8 * d)) & 255]++;
    }
  }
  double *src = a, *dst = tmp;
  for (int d = 0; d < 8; d++) {
    size_t *c = cnt[d], sum = 0;
    int one = 0;
    for (int v = 0; v < 256; v++) {
      one |= c[v] == m;
    }
    if (one) {
      continue; /* every key has the same digit here */
    }
    for (int v = 0; v < 256; v++) {
      size_t t = c[v];
      c[v] = sum;
      sum += t;
    }
    for (size_t i = 0; i < m; i++) {
      uint64_t k;
      memcpy(&k, &src[i], sizeof k);
      dst[c[(~k >> (8 * d)) & 255]++] = src[i];
    }
    double *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) {
    memcpy(a, src, m * sizeof *a);
  }
}


/* The certified rule's threshold between two consecutive gaps, lo (predicted to meet the
 * target) and hi (not): its splits go on down to tau, so a tau below the leaves' gaps that
 * is smaller than needed sends the first subtrees to the deepest level (85 leaves of the
 * finite cylinder with gaps near 1e-7 and one of 2e-18 made that the threshold). The
 * largest tau in [lo, hi) predicted to meet the target, by bisection in log scale. */
static double certified_tau(const vxv_workspace *ws, size_t m, double fixed, double target,
                            double lo, double hi) {
  if (!(lo > 0)) {
    lo = 1e-12 * hi;
  }
  for (int it = 0; it < 40 && hi > lo * (1 + 1e-3); it++) {
    double t = sqrt(lo * hi), pred = fixed;
    for (size_t i = 0; i < m; i++) {
      pred += predicted(&ws->q, ws->gaps[i], t);
    }
    if (pred <= target) {
      lo = t;
    } else {
      hi = t;
    }
  }
  return lo;
}


/* The threshold for the next round: the largest gap of a stored leaf such that splitting
 * every leaf above it is predicted to bring the total gap to `target` (`fixed`: the gaps no
 * round can reduce). Returns 0 with *tau set, -1 when no stored leaf can be split, or -2
 * when the gap list cannot be allocated. */
static int choose_tau(vxv_workspace *ws, double target, double fixed, double *tau) {
  size_t n = 0;
  for (int s = 0; s < ws->nsub; s++) {
    n += ws->sub[s].n;
  }
  /* the gaps, and as many again for sorting them */
  if (vxv_ws_grow(ws, (void **)&ws->gaps, &ws->capgaps, n > 0 ? 2 * n : 1, sizeof(double)) != 0) {
    return -2;
  }
  size_t m = 0;
  for (int s = 0; s < ws->nsub; s++) {
    const vxv_subtree *st = &ws->sub[s];
    const vxv_leaf *l = ws->th[st->owner]->buf[ws->q.round & 1] + st->off;
    for (size_t i = 0; i < st->n; i++) {
      double g = vxv_leaf_weight(&ws->q, &l[i]);
      if (!(g > 0)) {
        continue;
      }
      if (l[i].b.level >= VXV_MAX_LEVEL || (ws->q.h_min > 0 && 2 * l[i].b.h <= ws->q.h_min)) {
        fixed += g;
      } else {
        ws->gaps[m++] = g;
      }
    }
  }
  if (m == 0) {
    return -1;
  }
  /* sorted in decreasing order, the values are deterministic (a total order on doubles) */
  sort_desc(ws->gaps, ws->gaps + m, m);
  double total = fixed;
  for (size_t i = 0; i < m; i++) {
    total += ws->gaps[i];
  }
  if (target < fixed + 0.1 * (total - fixed)) {
    target = fixed + 0.1 * (total - fixed); /* the fixed part misses the target: progress */
  }
  /* the predicted total is non-decreasing in tau: bisect over the candidates gaps[j]
   * (split gaps[0 .. j-1]); j = m means tau = 0 (split every leaf, deeper where needed) */
  size_t lo = 1, hi = m;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    double t = ws->gaps[mid], pred = fixed;
    for (size_t i = 0; i < m; i++) {
      pred += predicted(&ws->q, ws->gaps[i], t);
    }
    if (pred <= target) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  *tau = lo < m ? ws->gaps[lo] : 0;
  if (ws->q.certified) {
    *tau = certified_tau(ws, m, fixed, target, *tau, ws->gaps[lo - 1]);
  }
  return 0;
}


/* ---- the query ------------------------------------------------------------------------ */

static int finite_xform(const vxg_xform *x) {
  for (int i = 0; i < 9; i++) {
    if (!isfinite(x->r[i])) {
      return 0;
    }
  }
  return isfinite(x->t[0]) && isfinite(x->t[1]) && isfinite(x->t[2]);
}


static vxc_status check_options(const vxv_options *o) {
  if (!(o->h_min >= 0) || !(o->rtol >= 0) || !isfinite(o->h_min) || !isfinite(o->rtol) ||
      !(o->atol >= 0) || !isfinite(o->atol) || (o->h_min == 0 && o->rtol == 0) ||
      o->max_boxes < 0 || (o->plane != VXV_PLANE_MEAN && o->plane != VXV_PLANE_TANGENT)) {
    return VXC_ERR_ARG;
  }
  return VXC_OK;
}


void vxv_finish_result(const double ref[3], const vxv_acc *tot, vxv_result *res) {
  double s0 = vxv_acc_get(tot, VXV_ACC_M0), s1[3], s2[6];
  for (int k = 0; k < 3; k++) {
    s1[k] = vxv_acc_get(tot, VXV_ACC_M1 + k);
  }
  for (int k = 0; k < 6; k++) {
    s2[k] = vxv_acc_get(tot, VXV_ACC_M2 + k);
  }
  res->volume = s0;
  res->volume_lo = fmin(vxv_acc_get(tot, VXV_ACC_LO), s0);
  res->volume_hi = fmax(vxv_acc_get(tot, VXV_ACC_HI), s0);
  memcpy(res->ref, ref, sizeof res->ref);
  res->mom.m0 = s0;
  memcpy(res->mom.m1, s1, sizeof s1);
  memcpy(res->mom.m2, s2, sizeof s2);
  double a2 = 0;
  for (int k = 0; k < 3; k++) {
    res->area_vector[k] = vxv_acc_get(tot, VXV_ACC_AREA + k);
    a2 += res->area_vector[k] * res->area_vector[k];
  }
  res->contact_area = sqrt(a2);
  res->error_estimate = vxv_acc_get(tot, VXV_ACC_EST);
  res->moment_width = vxv_acc_get(tot, VXV_ACC_PGAP);
  res->quadrature_leaves = (long long)vxv_acc_get(tot, VXV_ACC_QUAD);
  double p[3];
  vxg_moments_inertia(&res->mom, p, res->inertia);
  for (int k = 0; k < 3; k++) {
    res->centroid[k] = ref[k] + p[k];
  }
}


/* The certified bracket's width of summed figures. */
static double acc_gap(const vxv_acc *a) {
  return vxv_acc_get(a, VXV_ACC_HI) - vxv_acc_get(a, VXV_ACC_LO);
}


/* What the stopping rule compares with the target: the bracket's width (certified) or the
 * summed error estimates. */
static double acc_weight(const vxv_query *q, const vxv_acc *a) {
  return q->certified ? acc_gap(a) : vxv_acc_get(a, VXV_ACC_EST);
}


/* 1 when every atom of the cell has a curvature bound (no mesh), so that its leaves'
 * brackets say whether the estimate is resolved. */
static int bounded_atoms(const vxg_cell *c) {
  for (int i = 0; i < c->natom; i++) {
    if (c->atom[i].kind == VXG_ATOM_MESH) {
      return 0;
    }
  }
  return 1;
}


/* The intersection of the cells' bounding boxes [lo, hi], its centre ref (the query frame's
 * origin) and longest side *ext; *empty when it has no volume. VXC_ERR_ARG when a cell is
 * unbounded. */
static vxc_status query_region(int ncell, const vxg_cell *const *cells,
                               const vxg_xform *const *to_world, double lo[3], double hi[3],
                               double ref[3], double *ext, int *empty) {
  for (int a = 0; a < 3; a++) {
    lo[a] = -HUGE_VAL;
    hi[a] = HUGE_VAL;
  }
  for (int k = 0; k < ncell; k++) {
    double bb[6];
    vxg_cell_aabb(cells[k], to_world[k], bb);
    for (int a = 0; a < 3; a++) {
      lo[a] = fmax(lo[a], bb[a]);
      hi[a] = fmin(hi[a], bb[3 + a]);
    }
  }
  *ext = 0;
  *empty = 0;
  for (int a = 0; a < 3; a++) {
    if (!isfinite(lo[a]) || !isfinite(hi[a])) {
      return VXC_ERR_ARG; /* an unbounded cell cannot be integrated */
    }
    *empty |= !(hi[a] > lo[a]);
    ref[a] = 0.5 * (lo[a] + hi[a]);
    *ext = fmax(*ext, hi[a] - lo[a]);
  }
  return VXC_OK;
}


/* An empty result at ref: VXC_NO_CONTACT. */
static vxc_status no_contact(const vxv_workspace *ws, const double ref[3], vxv_result *r,
                             vxv_result *res) {
  vxv_acc z;
  vxv_acc_zero(&z);
  vxv_finish_result(ref, &z, r);
  r->peak_bytes = ws->peak;
  *res = *r;
  return VXC_NO_CONTACT;
}


/* 1 when the two posed cells are proved apart over the region [lo, hi] (world) before any
 * box is classified (bore.c, strictly). */
static int region_apart(const vxv_workspace *ws, const double lo[3], const double hi[3],
                        int want_reach, double *reach) {
  double c[3], e[3];
  vxv_region_centre(ws, lo, hi, c, e);
  *reach = 0;
  /* with a reach first: a proof that holds for the grown region holds for the region */
  return (want_reach && vxv_bore_apart(ws, c, e, 0, APART_REACH, reach)) ||
         vxv_bore_apart(ws, c, e, 0, 0, NULL); /* 0 unless two cells */
}


/* The query's cells posed in the query frame (the world translated by -ref), and its rule. */
static void pose_cells(vxv_workspace *ws, int ncell, const vxg_cell *const *cells,
                       const vxg_xform *const *to_world, const double ref[3],
                       const vxv_options *opt, double ext) {
  vxv_query *q = &ws->q;
  memset(q, 0, sizeof *q);
  q->ncell = ncell;
  for (int k = 0; k < ncell; k++) {
    vxg_xform shift, to_frame;
    vxg_xform_translation(&shift, -ref[0], -ref[1], -ref[2]);
    vxg_xform_compose(&to_frame, &shift, to_world[k]);
    vxg_posed_cell_init(&ws->pc[k], cells[k], &to_frame);
    vxv_qcell_init(&q->cell[k], &ws->pc[k]);
  }
  ws->mpr_todo = opt->hull_test && ncell == 2;
  ws->mpr_done = 0;
  ws->top_mesh = 0;
  for (int k = 0; k < ncell; k++) {
    ws->mpr_cell[k] = cells[k];
    ws->mpr_pose[k] = to_world[k];
    ws->top_mesh |= !bounded_atoms(cells[k]);
  }
  q->rtol_rule = opt->rtol > 0;
  q->parent_est = opt->parent_est && !q->rtol_rule;
  q->certified = opt->certified;
  q->revolution = !opt->certified && !opt->linear_leaves;
  q->rtol = opt->rtol;
  /* a leaf edge beyond a quarter of the region is clamped to it: a leaf larger than the
     region would linearise whole solids (a ball in a 10 m leaf is a half-space) */
  q->h_min = fmin(opt->h_min, ext / 4);
  q->plane = opt->plane;
  q->tau = HUGE_VAL;
  q->reuse_gathers = opt->reuse_gathers;
  q->planar_bracket = opt->planar_bracket && !q->rtol_rule && !q->parent_est;
  q->bounds = opt->visit != NULL;
  q->quad_bounds = q->bounds && !opt->loose_bounds;
}


/* The root cubes' edge over the region's longest side: a quarter; for two cells of planes
 * and meshes alone, whose leaves are exact at any size, a half or the whole side when the
 * disc of such a cube's ball would hold at most VXV_DISC_TRIS of every mesh's mean triangles
 * (fewer, larger leaves then cost less than many small ones). */
static double root_fraction(const vxv_query *q, double ext) {
  double fr = 1;
  if (vxv_query_rod_bore(q)) {
    /* one root cube, shifted grid and h_min's power of two included: one leaf integrated
       about the bore's axis (leaf.c, the revolution rule) */
    return 2.5;
  }
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    if (qc->curved & ~qc->costly) {
      return 0.25; /* a curved quadric */
    }
    for (uint64_t m = qc->costly; m; m &= m - 1) {
      double a = qc->tri_area[__builtin_ctzll(m)], r = 0.5 * sqrt(3.0) * fr * ext;
      while (fr > 0.25 && M_PI * r * r > VXV_DISC_TRIS * a) {
        fr /= 2;
        r /= 2;
      }
    }
  }
  return fr;
}


/* The root grid over [lo, hi] into ws->list[0]: cubes of root_fraction of the region's
 * longest side; with a leaf edge h_min, h_min times a power of two, so that the finest leaves
 * have exactly that edge. *nroot gets their count, *size their edge. -1 when out of memory. */
static int root_grid(vxv_workspace *ws, const double lo[3], const double hi[3], const double ref[3],
                     double ext, int *nroot, double *size) {
  const vxv_query *q = &ws->q;
  double fr = root_fraction(q, ext), s0 = ext * fr, g0[3];
  if (q->h_min > 0) {
    /* the least h_min 2^k from a quarter of the side, the largest up to a coarser s0 */
    double s1 = s0;
    s0 = q->h_min;
    for (int k = 0; k < VXV_MAX_LEVEL && (s0 < ext / 4 || 2 * s0 <= s1); k++) {
      s0 *= 2;
    }
    if (s0 < ext / 4) {
      s0 = ext / 4; /* h_min below the deepest level: the level cap decides */
    }
  }
  int n[3];
  for (int a = 0; a < 3; a++) {
    g0[a] = (lo[a] - ref[a]) - GRID_SHIFT * s0;
    n[a] = (int)ceil((hi[a] - lo[a] + GRID_SHIFT * s0) / s0 * (1 + 1e-12));
    n[a] = n[a] < 1 ? 1 : n[a];
  }
  *size = s0;
  *nroot = n[0] * n[1] * n[2];
  if (vxv_ws_grow(ws, (void **)&ws->list[0], &ws->capl[0], (size_t)*nroot, sizeof(vxv_box)) != 0 ||
      vxv_ws_grow(ws, (void **)&ws->cls, &ws->capcls, (size_t)*nroot, 1) != 0) {
    return -1;
  }
  int i = 0;
  for (int z = 0; z < n[2]; z++) {
    for (int y = 0; y < n[1]; y++) {
      for (int x = 0; x < n[0]; x++) {
        double c[3] = {g0[0] + (x + 0.5) * s0, g0[1] + (y + 0.5) * s0, g0[2] + (z + 0.5) * s0};
        ws->cls[i] = TOP_TODO;
        vxv_box_root(q, &ws->list[0][i++], c, 0.5 * s0);
      }
    }
  }
  return 0;
}


/* Each subtree's share of the remaining boxes for this round: equal in the first round (and
 * every round of a fixed leaf), else in proportion to the leaves it has to split, the
 * subtrees with the most first in claim order (one claimed last is then small, and the
 * threads end together). */
static void share_budget(vxv_workspace *ws, int nt, long long remaining) {
  const vxv_query *q = &ws->q;
  int par = q->round & 1;
  for (int s = 0; s < ws->nsub; s++) {
    vxv_subtree *st = &ws->sub[s];
    st->capped = 0;
    if (q->round == 0 || !q->rtol_rule) {
      st->budget = remaining > 0 ? remaining / ws->nsub : 0;
    }
    ws->order[s].sub = s;
    ws->order[s].cost = 0;
  }
  if (q->round == 0) {
    return;
  }
  long long total = 0;
  for (int s = 0; s < ws->nsub; s++) {
    vxv_subtree *st = &ws->sub[s];
    const vxv_leaf *l = ws->th[st->owner]->buf[par ^ 1] + st->off;
    long long c = 0;
    for (size_t i = 0; i < st->n; i++) {
      c += vxv_leaf_weight(q, &l[i]) > q->tau;
    }
    ws->order[s].cost = c;
    total += c;
  }
  for (int s = 0; s < ws->nsub; s++) {
    ws->sub[s].budget =
        total > 0 && remaining > 0 ? (long long)((double)remaining * ws->order[s].cost / total) : 0;
  }
  if (nt > 1) {
    qsort(ws->order, (size_t)ws->nsub, sizeof *ws->order, cmp_claim);
  }
}


/* The rounds over the subtrees cut_top made: one for a fixed leaf; under the rtol rule until
 * the summed weight meets max(rtol V, atol), a cap, the round limit or nothing left to split.
 * *tot gets the figures (pre: the top's), *boxes and *rounds grow, *capped is set. A round
 * cut by the cap is kept: the leaves it did not split are the previous round's, integrated
 * whole, so its bracket is never wider than the last complete round's (the finite cylinder
 * at rtol 1e-5: 1.25e-9 m^3 kept, 1.6e-8 reverted). */
static void run_rounds(vxv_workspace *ws, int nt, const vxv_options *opt, long long max_boxes,
                       const vxv_acc *pre, vxv_acc *tot, long long *boxes, int *rounds,
                       int *capped) {
  vxv_query *q = &ws->q;
  for (q->round = 0; ws->nsub > 0; q->round++) {
    int par = q->round & 1;
    for (int t = 0; t < ws->nth; t++) {
      ws->th[t]->n[par] = 0; /* every scratch area: any worker of the pool may take a seat */
    }
    share_budget(ws, nt, max_boxes - *boxes);
    vxv_ws_run(ws, nt, ws->nsub, q->round == 0, round_job);
    flush_visits(ws);
    (*rounds)++;

    /* reduce in subtree order */
    *tot = *pre;
    long long nsplit = 0;
    for (int s = 0; s < ws->nsub; s++) {
      vxv_acc_merge(tot, &ws->sub[s].full);
      if (ws->sub[s].n > 0) {
        vxv_acc_merge(tot, &ws->sub[s].leafsum);
      }
      *capped |= ws->sub[s].capped;
      nsplit += ws->sub[s].nsplit;
      *boxes += ws->sub[s].rboxes;
    }
    if (!q->rtol_rule) {
      return;
    }
    double target = fmax(opt->rtol * vxv_acc_get(tot, VXV_ACC_M0), opt->atol);
    if (acc_weight(q, tot) <= target || *capped || ws->mem_failed || *boxes >= max_boxes ||
        q->round + 1 >= MAX_ROUNDS || (q->round > 0 && nsplit == 0)) {
      return;
    }
    /* weights that rounds cannot reduce: retired leaves */
    double fixed = 0;
    for (int s = 0; s < ws->nsub; s++) {
      fixed += acc_weight(q, &ws->sub[s].full);
    }
    fixed += q->certified ? acc_gap(pre) : 0;
    int rc = choose_tau(ws, 0.8 * target, fixed, &q->tau);
    if (rc != 0) {
      *capped |= rc == -2;
      return;
    }
  }
}


/* The result from the rounds' figures: leaves, depth and smallest leaf from the subtrees.
 * Under the rtol rule, capped means less accurate than asked: whatever ended the rounds (a
 * cap, the round limit, nothing left to split), an error estimate (or with `certified` a
 * bracket) wider than asked, and only that (a subtree out of budget while the total met the
 * tolerance is not). */
static void finish_query(const vxv_workspace *ws, const vxv_options *opt, const double ref[3],
                         const vxv_acc *tot, int capped, vxv_result *r) {
  const vxv_query *q = &ws->q;
  capped = capped || ws->mem_failed;
  if (q->rtol_rule) {
    double v = vxv_acc_get(tot, VXV_ACC_M0);
    capped = !(acc_weight(q, tot) <= fmax(opt->rtol * v, opt->atol));
  }
  vxv_finish_result(ref, tot, r);
  r->capped = capped;
  double hmin = 0;
  for (int s = 0; s < ws->nsub; s++) {
    const vxv_subtree *st = &ws->sub[s];
    r->leaves += st->leaves + (long long)st->n;
    r->depth = st->depth > r->depth ? st->depth : r->depth;
    if (st->hmin_leaf > 0 && (hmin == 0 || st->hmin_leaf < hmin)) {
      hmin = st->hmin_leaf;
    }
  }
  r->leaf_size_min = 2 * hmin;
  r->peak_bytes = ws->peak;
}


/* Runs a query on ncell (1 or 2) cells: the region, the cells posed, the root grid, the top
 * of the tree (with the hulls' test), the rounds, the result. */
static vxc_status query_body(vxv_workspace *ws, int ncell, const vxg_cell *const *cells,
                             const vxg_xform *const *to_world, const vxv_options *opt_in,
                             vxv_result *res) {
  vxv_options opt;
  if (opt_in) {
    opt = *opt_in;
  } else {
    vxv_options_default(&opt);
  }
  if (!ws || !res || check_options(&opt) != VXC_OK) {
    return VXC_ERR_ARG;
  }
  for (int k = 0; k < ncell; k++) {
    if (!cells[k] || !to_world[k] || !finite_xform(to_world[k])) {
      return VXC_ERR_ARG;
    }
  }
  ws->visit = opt.visit;
  ws->visit_ud = opt.visit_ud;
  if (ws->visit) {
    vxv_visit v;
    memset(&v, 0, sizeof v);
    v.kind = VXV_VISIT_RESET;
    ws->visit(ws->visit_ud, &v);
  }
  ws->max_bytes = opt.max_bytes ? opt.max_bytes : VXV_DEFAULT_MAX_BYTES;
  vxv_ws_trim(ws);
  ws->halt = opt.stop;
  ws->peak = ws->bytes;
  ws->mem_failed = ws->alloc_failed = 0;
  long long max_boxes = opt.max_boxes ? opt.max_boxes : VXV_DEFAULT_MAX_BOXES;

  vxv_result r;
  memset(&r, 0, sizeof r);
  double lo[3], hi[3], ref[3], ext;
  int empty;
  if (query_region(ncell, cells, to_world, lo, hi, ref, &ext, &empty) != VXC_OK) {
    return VXC_ERR_ARG;
  }
  memcpy(ws->ref, ref, sizeof ref);
  int nt = vxv_ws_threads(ws, opt.threads > 1 ? opt.threads : 1);
  if (nt < 1) {
    return VXC_ERR_NOMEM;
  }
  /* a visitor is called from the caller's thread alone */
  ws->visit_defer = ws->visit && nt > 1;
  ws->visit_lost = 0;
  r.threads = nt;
  if (empty) {
    return no_contact(ws, ref, &r, res);
  }
  pose_cells(ws, ncell, cells, to_world, ref, &opt, ext);
  if (!opt.closed_form && !opt.skip_apart_proof &&
      region_apart(ws, lo, hi, opt.apart_reach, &r.apart_reach)) {
    return no_contact(ws, ref, &r, res); /* no box classified, nor flush or radical pair */
  }
  vxv_flush_init(&ws->q);
  vxv_region_init(&ws->q, lo, hi, ref);
  vxv_radical_init(&ws->q);
  if (ws->top_mesh && opt.reuse_gathers) {
    vxv_ws_gather_caches(ws, nt);
  }
  if (opt.closed_form && vxv_closed_form(ws, &opt, lo, hi, &r)) {
    *res = r;
    return r.volume_hi > 0 ? VXC_OK : VXC_NO_CONTACT;
  }
  /* a cell's own axes when they give the column rule an axis (frame.c) */
  int fc = ws->visit ? -1 : vxv_frame_cell(&ws->q, cells);
  if (fc >= 0) {
    vxg_xform xf[2];
    const vxg_xform *in_frame[2] = {&xf[0], &xf[1]};
    vxv_frame_xforms(to_world, fc, xf);
    if (query_region(ncell, cells, in_frame, lo, hi, ref, &ext, &empty) != VXC_OK) {
      return VXC_ERR_ARG;
    }
    if (empty) {
      vxv_frame_point(to_world[fc], ref);
      return no_contact(ws, ref, &r, res);
    }
    pose_cells(ws, ncell, cells, in_frame, ref, &opt, ext); /* no radical pair: planes */
    vxv_flush_init(&ws->q);
    vxv_region_init(&ws->q, lo, hi, ref);
    for (int k = 0; k < ncell; k++) {
      ws->mpr_pose[k] = to_world[k]; /* the hulls' test runs in the world */
    }
  }
  vxv_ws_alert(ws, nt);

  int nroot;
  if (root_grid(ws, lo, hi, ref, ext, &nroot, &r.root_size) != 0) {
    return VXC_ERR_NOMEM;
  }
  vxv_acc pre;
  vxv_acc_zero(&pre);
  long long boxes = nroot;
  int depth = 0;
  ws->ntopleaf = 0;
  ws->ntoppart = 0;
  int nmixed = top_level(ws, nt, ws->list[0], nroot, nroot, &pre, &depth);
  r.hull_tested = ws->mpr_done;
  r.mpr_status = ws->mpr_status;
  r.mpr = ws->mpr;
  if (hulls_disjoint(ws)) {
    /* disjoint hulls: nothing counted, whatever the threads classified meanwhile */
    if (fc >= 0) {
      vxv_frame_point(to_world[fc], ref);
    }
    return no_contact(ws, ref, &r, res);
  }
  if (cut_top(ws, nt, &pre, &boxes, &depth, nmixed) != 0) {
    return VXC_ERR_NOMEM;
  }

  vxv_acc tot = pre;
  int rounds = 0, capped = 0;
  run_rounds(ws, nt, &opt, max_boxes, &pre, &tot, &boxes, &rounds, &capped);
  if (ws->visit) {
    /* the leaves the last round stored */
    for (int s = 0; s < ws->nsub; s++) {
      const vxv_subtree *st = &ws->sub[s];
      const vxv_leaf *l = ws->th[st->owner]->buf[ws->q.round & 1] + st->off;
      for (size_t i = 0; i < st->n; i++) {
        visit_leaf(ws, NULL, &l[i], NULL, 0); /* stored: not exact, one element */
      }
    }
  }
  r.boxes = boxes;
  r.rounds = rounds;
  r.depth = depth;
  if (fc >= 0) {
    vxv_frame_to_world(to_world[fc], ref, &tot);
  }
  finish_query(ws, &opt, ref, &tot, capped, &r);
  if (ws->alloc_failed || ws->visit_lost) {
    return VXC_ERR_NOMEM; /* the caller's allocator refused (or an element was lost): not a cap */
  }
  *res = r;
  if (opt.stop && *opt.stop) {
    res->capped = 1;
    return VXC_ERR_STOPPED;
  }
  return r.volume_hi > 0 ? VXC_OK : VXC_NO_CONTACT;
}


/* query_body, then lets the pool's threads sleep (query_body's vxv_ws_alert keeps them
 * spinning). */
static vxc_status run_query(vxv_workspace *ws, int ncell, const vxg_cell *const *cells,
                            const vxg_xform *const *to_world, const vxv_options *opt,
                            vxv_result *res) {
  vxc_status st = query_body(ws, ncell, cells, to_world, opt, res);
  if (st >= 0 && res->capped && opt && !(opt->rtol > 0) && !(opt->stop && *opt->stop)) {
    /* h_min rule: a capped pass left some regions coarser than others; the leaf edge is
     * doubled until a pass completes (the last complete level), flagged capped */
    vxv_options o = *opt;
    long long boxes = res->boxes;
    for (int k = 0; k < VXV_MAX_LEVEL && res->capped; k++) {
      o.h_min *= 2;
      st = query_body(ws, ncell, cells, to_world, &o, res);
      if (st < 0) {
        break;
      }
      boxes += res->boxes;
    }
    res->boxes = boxes;
    res->capped = 1;
  }
  if (ws) {
    vxv_ws_cool(ws);
  }
  return st;
}


vxc_status vxv_intersect(vxv_workspace *ws, const vxg_cell *a, const vxg_xform *a_to_world,
                         const vxg_cell *b, const vxg_xform *b_to_world, const vxv_options *opt,
                         vxv_result *res) {
  const vxg_cell *cells[2] = {a, b};
  const vxg_xform *xf[2] = {a_to_world, b_to_world};
  vxc_status st = run_query(ws, 2, cells, xf, opt, res);
  if (st < 0 || !opt || opt->rtol > 0 || !(opt->h_min > 0) || !bounded_atoms(a) ||
      !bounded_atoms(b)) {
    return st;
  }
  /* h_min rule: a contact much smaller than the leaf is not resolved by it (the estimate can
   * even be 0 while the bracket says there is an overlap); halve the leaf until the
   * estimate is at least half the bracket's width (a mesh's leaves have no such bracket:
   * their width is the leaf's volume, whatever the estimate's quality) */
  vxv_options o = *opt;
  long long boxes = res->boxes;
  for (int k = 0; k < VXV_MAX_HALVINGS && res->volume_hi > 0 && !res->capped &&
                  res->volume < 0.5 * res->moment_width;
       k++) {
    vxv_result r;
    o.h_min *= 0.5;
    vxc_status s2 = run_query(ws, 2, cells, xf, &o, &r);
    if (s2 < 0 || r.capped) {
      res->capped |= s2 >= 0; /* keep the coarser, complete result: unresolved */
      boxes += s2 >= 0 ? r.boxes : 0;
      if (o.visit) {
        o.h_min *= 2; /* its elements again, for the visitor (the same pass: the same ones) */
        run_query(ws, 2, cells, xf, &o, &r);
      }
      break;
    }
    boxes += r.boxes;
    *res = r;
    st = s2;
  }
  res->boxes = boxes;
  return st;
}


vxc_status vxv_cell_massprops(vxv_workspace *ws, const vxg_cell *c, const vxg_xform *to_world,
                              const vxv_options *opt, vxv_result *res) {
  const vxg_cell *cells[1] = {c};
  const vxg_xform *xf[1] = {to_world};
  if (ws && c && to_world && res && finite_xform(to_world) &&
      (!opt || check_options(opt) == VXC_OK) && vxv_mesh_alone(c)) {
    vxv_mesh_massprops(c, to_world, res); /* exact, from the triangles */
    return VXC_OK;
  }
  return run_query(ws, 1, cells, xf, opt, res);
}
