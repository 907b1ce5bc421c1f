/* bsp.c: a leaf's mesh atoms that are not convex half-space sets (a non-convex mesh, or any
 * complemented mesh), integrated exactly by a local BSP of their triangles.
 *
 * Near a reflex edge a mesh's inside is no intersection of half-spaces, but within a leaf it
 * is a Boolean formula of the few triangles that cross it. The leaf's convex polyhedron
 * (the box clipped by every other atom's half-space) is split by the plane of one crossing
 * triangle (a group of coplanar ones at once) into its two sides, and each side keeps only
 * the triangles that still cross it (tested against its vertices on the triangle's plane
 * and on its three edges' planes: a conservative test, which may keep a triangle, never
 * drops one that crosses); a group none of whose triangles meets the piece's section by its
 * plane does not cross the piece, and is dropped instead of splitting it (the test let it
 * through, a split would double the pieces below for nothing). A piece that no triangle of
 * an atom crosses lies wholly on one side of that atom's surface: its side is read once,
 * from the mesh's signed distance at a point of the piece (the closest point's
 * pseudo-normal), and a piece on the wrong side of any atom is dropped with its
 * descendants. The pieces on the wanted side of every atom
 * are convex polyhedra whose moments are exact (clip.c), so the leaf is exact to rounding.
 * When every atom is locally convex or concave (bsp_add_atom's labels), no triangle needs a
 * test: the leaf is cut by the atoms' planes alone (peel, below); a piece that peel leaves
 * to the BSP of the others sees only the triangles whose part in the box is not beyond one
 * of its peeled half-spaces, and a leaf whose general atom lies inside a concave one's
 * convex set is decided by one side (peel_empty), a leaf of two general atoms whose
 * triangles a plane parts by one side of each (pair_parted).
 *
 * The area vector of cell 0's surface: the faces of the kept pieces that lie on a split
 * plane of cell 0's triangles are summed with their orientation; where kept pieces meet on
 * both sides of such a plane (the plane away from its triangles) their faces cancel, and
 * what is left lies on the triangles. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "voxel/internal.h"
#include "geom/vec3.h"

/* Pieces a leaf's BSP may visit before the leaf gives up (and is split or linearised). */
#define BSP_MAX_PIECES 512

typedef struct bsp_run {
  const vxv_query *q;
  const vxv_box *b;
  vxv_bsp *s;
  int moments;     /* 1: moments and area vector, 0: volume only */
  uint64_t want;   /* plane bits of cell 0's constraint half-spaces (area vector) */
  double tol;      /* rounding of the leaf's coordinates, m */
  double m[10];    /* the kept pieces' moments about the leaf centre */
  double area[3];  /* cell 0's vector area */
  double round;    /* the pieces' rounding allowances, m^3 */
  double rb[6];    /* the kept pieces' bounding box, leaf-local (lo x y z, hi x y z) */
  int pieces;
  int fail;
  int bit_split;   /* the plane bit of the BSP's first split (after the peeled planes) */
  int ncon;        /* the peeled half-spaces that hold the current piece, con (n.y <= d) */
  int poly0;       /* the BSP's first polyhedron buffer (after those peel holds) */
  vxv_cpface face[VXV_CP_PLANES];
  double con[64][4];
} bsp_run;


/* t's edges' outward normals in its plane, their offsets and lengths (once a leaf: the
 * triangles of a leaf decided without a BSP never need them). */
static void tri_edges(vxv_btri *t) {
  if (t->edges) {
    return;
  }
  for (int v = 0; v < 3; v++) {
    const double *p0 = t->v + 3 * v, *p1 = t->v + 3 * ((v + 1) % 3);
    double e[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    vxg_cross(e, t->n, t->o[v]); /* the edge's outward normal in the triangle's plane */
    t->w[v] = vxg_dot(t->o[v], p0);
    t->olen[v] = sqrt(vxg_dot(t->o[v], t->o[v]));
  }
  t->edges = 1;
}


/* 1 when the triangle may cross the interior of p (conservative: 0 only when one of its
 * plane or its edges' planes separates it from p by more than tol). */
static int tri_crosses(const vxv_cpoly *p, const vxv_btri *t, double tol) {
  int above = 0, below = 0;
  for (int v = 0; v < p->nv && !(above && below); v++) {
    double s = vxg_dot(t->n, p->pos[v]) - t->d;
    above |= s > tol;
    below |= s < -tol;
  }
  if (!(above && below)) {
    return 0; /* p lies on one side of the triangle's plane */
  }
  for (int k = 0; k < 3; k++) {
    double lim = tol * t->olen[k], lo = HUGE_VAL;
    for (int v = 0; v < p->nv && lo > lim; v++) {
      double s = vxg_dot(t->o[k], p->pos[v]) - t->w[k];
      lo = s < lo ? s : lo;
    }
    if (lo > lim) {
      return 0; /* p lies beyond this edge */
    }
  }
  return 1;
}


/* Which side of atom a the piece p lies on (no triangle of a crosses it): 1 the side its
 * cell keeps, 0 the other. */
static int piece_kept(bsp_run *r, const vxv_cpoly *p, int a) {
  const vxv_batom *at = &r->s->atom[a];
  double y[3] = {0, 0, 0}, x[3];
  for (int v = 0; v < p->nv; v++) {
    for (int k = 0; k < 3; k++) {
      y[k] += p->pos[v][k];
    }
  }
  for (int k = 0; k < 3; k++) {
    y[k] /= p->nv;
    x[k] = r->b->c[k] + y[k];
  }
  if (at->shape != VXG_LOCAL_GENERAL) {
    /* the intersection (union) of the planes' inner sides */
    int in = at->shape == VXG_LOCAL_CONVEX;
    for (int j = 0; j < at->npl; j++) {
      int side = vxg_dot(at->pl[j], y) <= at->pl[j][3];
      in = at->shape == VXG_LOCAL_CONVEX ? in && side : in || side;
    }
    return in != at->comp;
  }
  const vxg_atom *atom = &r->q->cell[at->cell].pc->atom[at->atom];
  double f = vxg_atom_eval_bounded(atom, x, at->bound + sqrt(vxg_dot(y, y)), NULL);
  return (f <= 0) != at->comp;
}


/* A kept piece's sums q (its bounding box pb, moments, area vector, rounding) joined to
 * the groups of kept pieces whose boxes it meets (within tol), which merge: the leaf's
 * region has parts apart when several groups stay. */
static void group_pieces(bsp_run *r, vxv_bpart *q) {
  vxv_bsp *s = r->s;
  if (s->nparts > VXV_BSP_PARTS) {
    return;
  }
  double *pb = q->rb;
  for (int i = 0; i < s->nparts;) {
    const vxv_bpart *g = &s->parts[i];
    int meet = 1;
    for (int k = 0; k < 3 && meet; k++) {
      meet = g->rb[k] <= pb[3 + k] + r->tol && pb[k] <= g->rb[3 + k] + r->tol;
    }
    if (!meet) {
      i++;
      continue;
    }
    for (int k = 0; k < 3; k++) {
      pb[k] = vxv_min2(pb[k], g->rb[k]);
      pb[3 + k] = vxv_max2(pb[3 + k], g->rb[3 + k]);
      q->area[k] += g->area[k];
    }
    for (int k = 0; k < 10; k++) {
      q->m[k] += g->m[k];
    }
    q->round += g->round;
    s->parts[i] = s->parts[--s->nparts];
    i = 0; /* the grown box may meet a group passed over */
  }
  if (s->nparts == VXV_BSP_PARTS) {
    s->nparts++;
    return;
  }
  s->parts[s->nparts++] = *q;
}


/* A kept piece (on the wanted side of every atom) added to the sums; abits are the plane
 * bits of the splits on its path made by cell 0's triangles. */
static void piece_add(bsp_run *r, const vxv_cpoly *p, uint64_t abits) {
  vxv_bpart q = {{HUGE_VAL, HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, {0}, {0}, 0};
  q.round = vxv_cp_rounding(p, r->b);
  r->round += q.round;
  vxv_cp_bounds(p, q.rb);
  for (int k = 0; k < 3; k++) {
    r->rb[k] = vxv_min2(r->rb[k], q.rb[k]);
    r->rb[3 + k] = vxv_max2(r->rb[3 + k], q.rb[3 + k]);
  }
  if (!r->moments) {
    r->m[0] += vxv_cp_volume(p);
    return;
  }
  uint64_t want = r->want | abits;
  vxv_cp_moments(p, q.m, want, r->face);
  for (int k = 0; k < 10; k++) {
    r->m[k] += q.m[k];
  }
  for (uint64_t w = want >> 6; w; w &= w - 1) {
    const vxv_cpface *f = &r->face[__builtin_ctzll(w)];
    if (f->found) {
      for (int k = 0; k < 3; k++) {
        r->area[k] += f->avec[k];
        q.area[k] += f->avec[k];
      }
    }
  }
  group_pieces(r, &q);
}


/* The convex polygon src (n corners) clipped to where s (its corners' signed values, linear
 * along its edges) is at most 0, into dst (room for 2 n); a corner made on an edge gets the
 * coordinate `at` on the axis `axis` (its plane's: exact whatever the rounding) when axis is
 * 0, 1 or 2. Returns the corners left. */
static int clip_by(const double (*src)[3], int n, const double *s, double (*dst)[3], int axis,
                   double at) {
  int out = 0;
  for (int i = 0; i < n; i++) {
    int j = i + 1 < n ? i + 1 : 0;
    if (s[i] <= 0) {
      memcpy(dst[out++], src[i], sizeof dst[0]);
    }
    if ((s[i] <= 0) != (s[j] <= 0)) {
      double f = s[i] / (s[i] - s[j]);
      for (int a = 0; a < 3; a++) {
        dst[out][a] = src[i][a] + f * (src[j][a] - src[i][a]);
      }
      if (axis >= 0) {
        dst[out][axis] = at;
      }
      out++;
    }
  }
  return out;
}


/* 1 when the cap of the piece c (the section by its last clip, plane bit `bit`: its vertices
 * from the first with that bit on, each linked to the next by nbr[.][2]) meets the triangle
 * u grown by the leaf's rounding tol, the cap clipped by u's three edge planes; 0 when
 * nothing is left, -1 when the cap is not a cycle of them. */
static int cap_meets(const bsp_run *r, const vxv_cpoly *c, int bit, const vxv_btri *u) {
  double buf[2][2 * VXV_CP_MAX][3], s[2 * VXV_CP_MAX];
  uint64_t tag = (uint64_t)1 << bit;
  int first = c->nv;
  while (first > 0 && (c->on[first - 1] & tag)) {
    first--;
  }
  int ncap = c->nv - first, n = 0, v = first;
  do {
    if (v < first || n == ncap) {
      return -1;
    }
    memcpy(buf[0][n++], c->pos[v], sizeof buf[0][0]);
    v = c->nbr[v][2];
  } while (v != first);
  for (int k = 0; k < 3 && n > 0; k++) {
    double(*src)[3] = buf[k & 1], (*dst)[3] = buf[!(k & 1)];
    double lim = u->w[k] + r->tol * u->olen[k];
    for (int i = 0; i < n; i++) {
      s[i] = vxg_dot(u->o[k], src[i]) - lim;
    }
    n = clip_by((const double(*)[3])src, n, s, dst, -1, 0);
  }
  return n > 0;
}


/* 1 when a vertex of p on the plane of t (within tol of it) lies inside one triangle of t's
 * group in list[0 .. n), by tol from its edges. No other triangle of t's atom then crosses p
 * (the caller's filter), so p, on one side of that plane, lies on the side of the surface
 * that triangle faces it with: the path from any point of p's interior to that vertex meets
 * no triangle before it. */
static int section_touches(const bsp_run *r, const vxv_cpoly *p, const int *list, int n,
                           const vxv_btri *t) {
  for (int v = 0; v < p->nv; v++) {
    if (fabs(vxg_dot(t->n, p->pos[v]) - t->d) > r->tol) {
      continue; /* not on the section */
    }
    for (int i = 0; i < n; i++) {
      const vxv_btri *u = &r->s->tri[list[i]];
      if (u->atom != t->atom || u->group != t->group) {
        continue;
      }
      int in = 1;
      for (int k = 0; k < 3 && in; k++) {
        in = vxg_dot(u->o[k], p->pos[v]) - u->w[k] < -r->tol * u->olen[k];
      }
      if (in) {
        return 1;
      }
    }
  }
  return 0;
}


/* 1 when the triangle lies beyond the plane nn.y = d, on the side of nn (within tol): it
 * may meet the boundary of the piece nn.y <= d clipped there, never its interior. */
static int tri_beyond(const vxv_btri *t, const double nn[3], double d, double tol) {
  for (int v = 0; v < 3; v++) {
    if (vxg_dot(nn, t->v + 3 * v) - d < -tol) {
      return 0;
    }
  }
  return 1;
}


/* The triangles of t's group in list[0 .. n) against the cap of c (cap_meets): 1 when one
 * of them meets it, 0 when none does (the group does not cross the piece c was cut from),
 * -1 when not decided. */
static int group_meets(const bsp_run *r, const vxv_cpoly *c, int bit, const int *list, int n,
                       const vxv_btri *t) {
  int rc = 0;
  for (int i = 0; i < n && rc <= 0; i++) {
    const vxv_btri *u = &r->s->tri[list[i]];
    if (u->atom == t->atom && u->group == t->group) {
      int k = cap_meets(r, c, bit, u);
      rc = k != 0 ? k : rc;
    }
  }
  return rc;
}


/* list[0 .. n) without the triangles of t's group, in place; returns the new count. */
static int drop_group(const bsp_run *r, int *list, int n, const vxv_btri *t) {
  int atom = t->atom, group = t->group, m = 0;
  for (int i = 0; i < n; i++) {
    const vxv_btri *u = &r->s->tri[list[i]];
    if (u->atom != atom || u->group != group) {
      list[m++] = list[i];
    }
  }
  return m;
}


/* The triangles of list[0 .. n) other than split's group that may cross p, the piece on the
 * side nn.y <= d of split's plane, into out; returns their count. */
static int filter(const bsp_run *r, const vxv_cpoly *p, const int *list, int n, const vxv_btri *split,
                  const double nn[3], double d, int *out) {
  int m = 0;
  for (int i = 0; i < n; i++) {
    const vxv_btri *t = &r->s->tri[list[i]];
    if ((t->atom == split->atom && t->group == split->group) || tri_beyond(t, nn, d, r->tol) ||
        !tri_crosses(p, t, r->tol)) {
      continue;
    }
    out[m++] = list[i];
  }
  return m;
}


/* 1 when a triangle of atom a is in list[0 .. n). */
static int crosses_atom(const bsp_run *r, const int *list, int n, int a) {
  for (int i = 0; i < n; i++) {
    if (r->s->tri[list[i]].atom == a) {
      return 1;
    }
  }
  return 0;
}


/* The piece p (crossed by the triangles list[0 .. n) at most; the atoms `known` already on
 * their wanted side) at depth `depth`. It is split by the plane of list[0]'s group when one
 * of its triangles meets p's section by that plane; a group that does not (it only passed
 * filter's conservative test) is dropped from the list instead. list is reordered in place
 * (the caller's buffer for this piece). */
static void bsp_piece(bsp_run *r, const vxv_cpoly *p, int *list, int n, unsigned known,
                      uint64_t abits, int depth) {
  vxv_bsp *s = r->s;
  if (r->fail || ++r->pieces > BSP_MAX_PIECES) {
    r->fail = 1;
    return;
  }
  int bit = r->bit_split + depth;
  vxv_cpoly *child = &s->poly[r->poly0 + depth];
  const vxv_btri *t = NULL;
  int rc0 = 1;
  for (;;) {
    unsigned crossed = 0;
    for (int i = 0; i < n; i++) {
      crossed |= 1u << s->tri[list[i]].atom;
    }
    for (int a = 0; a < s->natom; a++) {
      if (!(known >> a & 1) && !(crossed >> a & 1)) {
        if (!piece_kept(r, p, a)) {
          return;
        }
        known |= 1u << a;
      }
    }
    if (n == 0) {
      piece_add(r, p, abits);
      return;
    }
    if (r->poly0 + depth >= VXV_BSP_DEPTH || bit >= 64) {
      r->fail = 1;
      return;
    }
    t = &s->tri[list[0]];
    rc0 = vxv_cp_clip_to(child, p, t->n, t->d, bit);
    if (rc0 < 0) {
      r->fail = 1;
      return;
    }
    if (rc0 == 0 && child->nv > 0 && group_meets(r, child, bit, list, n, t) != 0) {
      break; /* the group's plane cuts p through one of its triangles (or not decided) */
    }
    n = drop_group(r, list, n, t);
  }
  int covered = -1;
  uint64_t ab = abits | (s->atom[t->atom].cell == 0 ? (uint64_t)1 << bit : 0);
  int *sub = s->list[depth];
  for (int side = 0; side < 2 && !r->fail; side++) {
    double sg = side ? -1 : 1, nn[3] = {sg * t->n[0], sg * t->n[1], sg * t->n[2]};
    int rc = side ? vxv_cp_clip_to(child, p, nn, sg * t->d, bit) : rc0;
    if (rc < 0) {
      r->fail = 1;
      return;
    }
    const vxv_cpoly *c = rc == 1 ? p : child;
    if (c->nv == 0) {
      continue;
    }
    int m = filter(r, c, list, n, t, nn, sg * t->d, sub);
    unsigned kn = known, a = 1u << t->atom;
    if (rc == 0 && !(kn & a) && !crosses_atom(r, sub, m, t->atom)) {
      /* the piece is all on one side of t's atom: the side of t's plane it lies on, when
         a triangle of the group holds a point of the section (tested once per split) */
      if (covered < 0) {
        covered = section_touches(r, c, list, n, t);
      }
      if (covered) {
        if ((side == 0) == s->atom[t->atom].comp) {
          continue; /* on the side of the surface its cell does not keep */
        }
        kn |= a;
      }
    }
    bsp_piece(r, c, sub, m, kn, ab, depth + 1);
  }
}


/* ---- atoms whose kept side is convex or the complement of a convex set ----------------- */

/* 1 when the planes of the atoms that are convex or concave near the leaf (peeled by their
 * planes alone, before the BSP of the general ones' triangles) fit the free plane bits and
 * polyhedron buffers. */
static int peel_fits(const vxv_bsp *s) {
  int nbits = 0, npeel = 0;
  for (int a = 0; a < s->natom; a++) {
    if (!(s->general >> a & 1)) {
      nbits += s->atom[a].npl;
      npeel++;
    }
  }
  return s->natom > 0 && s->bit0 + nbits <= 64 && 3 * npeel <= VXV_BSP_DEPTH;
}


/* t's part in the leaf's box grown by tol (the triangle clipped by the box's six planes:
 * Sutherland-Hodgman) into t->cv, t->ncv: a convex polygon that holds every point of t in
 * the box. */
static void tri_in_box(const bsp_run *r, vxv_btri *t) {
  double buf[2][18][3]; /* room for any rounding (a clip of n corners gives at most 2 n) */
  const double(*src)[3] = (const double(*)[3])t->v;
  int n = 3, nb = 0;
  for (int f = 0; f < 6 && n > 0 && n <= 9; f++) {
    int c = f % 3, cut = 0;
    double sg = f < 3 ? 1 : -1, lim = r->b->e[c] + r->tol, s[9];
    for (int i = 0; i < n; i++) {
      s[i] = sg * src[i][c] - lim;
      cut |= s[i] > 0;
    }
    if (!cut) {
      continue; /* all inside this face's plane */
    }
    double(*dst)[3] = buf[nb];
    n = clip_by(src, n, s, dst, c, sg * lim); /* new corners on the face's plane */
    src = (const double(*)[3])dst;
    nb = !nb;
  }
  t->ncv = n <= 9 ? n : -2; /* -2: more corners than a convex clip gives: not decided */
  if (n <= 9) {
    memcpy(t->cv, src, (size_t)n * sizeof t->cv[0]);
  }
}


/* t's part in the box (tri_in_box), clipped once a leaf: t->ncv its corners, -2 undecided. */
static int tri_part(const bsp_run *r, vxv_btri *t) {
  if (t->ncv == -1) {
    tri_in_box(r, t);
  }
  return t->ncv;
}


/* 1 when t's part in the leaf's box misses the current piece: it is empty, or lies beyond
 * one of the peeled half-spaces that hold the piece by more than the rounding (the piece is
 * inside each). 0 when not decided. */
static int tri_clear(bsp_run *r, vxv_btri *t) {
  for (int pass = 0; pass < 2 && r->ncon > 0; pass++) {
    /* its corners first (the triangle whole beyond a half-space), then its part in the box */
    const double(*cv)[3] = pass ? (const double(*)[3])t->cv : (const double(*)[3])t->v;
    int n = 3;
    if (pass) {
      n = tri_part(r, t);
      if (n == 0) {
        return 1;
      }
    }
    for (int j = 0; j < r->ncon && n > 0; j++) {
      const double *c = r->con[j];
      double lim = c[3] + r->tol * (fabs(c[0]) + fabs(c[1]) + fabs(c[2]));
      int v = 0;
      while (v < n && vxg_dot(c, cv[v]) > lim) {
        v++;
      }
      if (v == n) {
        return 1;
      }
    }
  }
  return 0;
}


/* The general atoms' part of the piece p, left by peel (its atoms decided) at plane bit
 * `bit` and buffer depth `depth`: the BSP of the general atoms' triangles that cross p. */
static void bsp_general(bsp_run *r, const vxv_cpoly *p, int bit, uint64_t abits, int depth) {
  vxv_bsp *s = r->s;
  unsigned known = ~s->general; /* the peeled atoms are decided */
  int *list = s->list[VXV_BSP_DEPTH], n = 0;
  for (int i = 0; i < s->ntri; i++) {
    vxv_btri *t = &s->tri[i];
    if (!(s->general >> t->atom & 1) || tri_clear(r, t)) {
      continue;
    }
    tri_edges(t); /* the BSP's tests below read them for the triangles in its lists */
    if (tri_crosses(p, t, r->tol)) {
      list[n++] = i;
    }
  }
  r->bit_split = bit;
  r->poly0 = 3 * depth;
  bsp_piece(r, p, list, n, known, abits, 0);
}


/* p clipped by n.y <= d (times sg) into dst; returns the result (p itself when the plane
 * cuts nothing away), NULL when the capacity ran out. */
static const vxv_cpoly *peel_clip(bsp_run *r, vxv_cpoly *dst, const vxv_cpoly *p, const double *pl,
                                  double sg, int bit) {
  double n[3] = {sg * pl[0], sg * pl[1], sg * pl[2]};
  int rc = vxv_cp_clip_to(dst, p, n, sg * pl[3], bit);
  if (rc < 0) {
    r->fail = 1;
    return NULL;
  }
  return rc == 1 ? p : dst;
}


/* The half-space sg (n.y) <= sg d of the plane pl (n, d) onto the peeled ones that hold
 * the current piece (none beyond their room: a piece has fewer to test then, never a
 * wrong one). */
static void con_push(bsp_run *r, const double *pl, double sg) {
  if (r->ncon < 64) {
    double *c = r->con[r->ncon++];
    for (int k = 0; k < 4; k++) {
      c[k] = sg * pl[k];
    }
  }
}


/* 1 when the n points v lie strictly inside every plane of c (in (n.y - d) < -lim[j]). */
static int inside_c(const vxv_batom *c, double in, const double *lim, const double (*v)[3], int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < c->npl; j++) {
      const double *pl = c->pl[j];
      if (!(in * (vxg_dot(pl, v[i]) - pl[3]) < -lim[j])) {
        return 0;
      }
    }
  }
  return 1;
}


/* The side of atom a at the point y of the leaf (leaf-local): 1 its cell keeps it, 0 not,
 * -1 when the surface is too near y to read it (within 1e-9 of the leaf's radius). */
static int side_at(const bsp_run *r, int a, const double y[3]) {
  const vxv_batom *at = &r->s->atom[a];
  double x[3] = {r->b->c[0] + y[0], r->b->c[1] + y[1], r->b->c[2] + y[2]};
  const vxg_atom *atom = &r->q->cell[at->cell].pc->atom[at->atom];
  double f = vxg_atom_eval_bounded(atom, x, at->bound + sqrt(vxg_dot(y, y)), NULL);
  if (!(fabs(f) > 1e-9 * vxv_box_radius(r->b))) {
    return -1;
  }
  return (f <= 0) != at->comp;
}


/* 1 when the leaf's region in p is proved empty without a piece: its atoms are one general
 * atom T and one whose kept side is the outside of a convex set C (a concave mesh, or a
 * complemented convex one), every triangle of T lies inside C within the leaf's box (its part
 * there, grown by the rounding, strictly inside every plane of C), and a vertex v of p lies
 * beyond every plane of C, at which T's side is its cell's other one. Then p minus C, the
 * union of the convex sets p minus one half-space of C that all hold v, is connected and
 * meets no triangle of T, so it lies on v's side of T. v's side is taken only when the
 * surface is farther from v than the evaluation's rounding. 0 when not decided. */
static int peel_empty(bsp_run *r, const vxv_cpoly *p) {
  vxv_bsp *s = r->s;
  if (s->natom != 2 || (s->general != 1 && s->general != 2)) {
    return 0;
  }
  int g = s->general == 2;
  const vxv_batom *c = &s->atom[!g];
  if ((c->shape == VXG_LOCAL_CONVEX) != c->comp || c->npl < 1) {
    return 0; /* its kept side is convex: no C */
  }
  double in = c->shape == VXG_LOCAL_CONVEX ? 1 : -1; /* C: in (n.y - d) <= 0, every plane */
  double lim[VXV_NEAR_TRIS]; /* each plane's margin for the rounding */
  for (int j = 0; j < c->npl; j++) {
    lim[j] = r->tol * (fabs(c->pl[j][0]) + fabs(c->pl[j][1]) + fabs(c->pl[j][2]));
  }
  for (int i = 0; i < s->ntri; i++) {
    vxv_btri *u = &s->tri[i];
    if (u->atom != g) {
      continue;
    }
    if (inside_c(c, in, lim, (const double(*)[3])u->v, 3)) {
      continue; /* the whole triangle */
    }
    if (tri_part(r, u) < 0 || !inside_c(c, in, lim, (const double(*)[3])u->cv, u->ncv)) {
      return 0;
    }
  }
  for (int v = 0; v < p->nv; v++) {
    int beyond = 1;
    for (int j = 0; j < c->npl && beyond; j++) {
      beyond = in * (vxg_dot(c->pl[j], p->pos[v]) - c->pl[j][3]) > lim[j];
    }
    if (!beyond) {
      continue;
    }
    return side_at(r, g, p->pos[v]) == 0; /* v on the side of T its cell does not keep */
  }
  return 0;
}


/* 1 when the plane n.y = const parts the atoms' triangles within the box (their parts there,
 * grown by the rounding): atom 0's at most *m0, atom 1's at least *m1, m0 + 2 margin < m1. */
static int parts(const vxv_bsp *s, const double n[3], double margin, double *m0, double *m1) {
  *m0 = -HUGE_VAL;
  *m1 = HUGE_VAL;
  for (int i = 0; i < s->ntri; i++) {
    const vxv_btri *u = &s->tri[i];
    for (int v = 0; v < u->ncv; v++) {
      double h = vxg_dot(n, u->cv[v]);
      if (u->atom == 0) {
        *m0 = h > *m0 ? h : *m0;
      } else {
        *m1 = h < *m1 ? h : *m1;
      }
    }
    if (!(*m0 + 2 * margin < *m1)) {
      return 0;
    }
  }
  return 1;
}


/* 1 when the leaf's region in p is proved empty without a piece, its atoms two general ones:
 * a plane n.y = const parts their triangles within the box (parts: atom 0's at most m0,
 * atom 1's at least m1 > m0, by margins), n tried along the mean of atom 1's corners there
 * less atom 0's, then along the triangle normals (atom 0's, atom 1's reversed) nearest that.
 * Then p below m1 meets no triangle of atom 1, p above m0 none of atom 0 (convex: one side
 * each), the two cover p, and atom 1 at p's lowest vertex, or atom 0 at its highest, keeps
 * its cell's other side (when that part holds a vertex of p); or an atom has no triangle in
 * the box, and keeps its cell's other side at a vertex of p. 0 when not decided (no plane
 * found, a surface near the vertex). */
static int pair_parted(bsp_run *r, const vxv_cpoly *p) {
  vxv_bsp *s = r->s;
  if (s->natom != 2 || s->general != 3) {
    return 0;
  }
  double mean[2][3] = {{0, 0, 0}, {0, 0, 0}};
  int cnt[2] = {0, 0};
  for (int i = 0; i < s->ntri; i++) {
    vxv_btri *u = &s->tri[i];
    if (tri_part(r, u) < 0) {
      return 0;
    }
    for (int v = 0; v < u->ncv; v++) {
      for (int k = 0; k < 3; k++) {
        mean[u->atom][k] += u->cv[v][k];
      }
    }
    cnt[u->atom] += u->ncv;
  }
  for (int a = 0; a < 2; a++) {
    if (cnt[a] == 0) {
      /* no triangle of atom a in the box: one side of it in the whole box */
      return p->nv > 0 && side_at(r, a, p->pos[0]) == 0;
    }
  }
  double dir[3], n[3], m0, m1, margin = 0;
  for (int k = 0; k < 3; k++) {
    dir[k] = mean[1][k] / cnt[1] - mean[0][k] / cnt[0];
  }
  /* the candidates: dir, then each atom's triangle normal (pointing from atom 0 to atom 1)
     nearest it */
  int found = 0;
  for (int c = 0; c < 3 && !found; c++) {
    if (c == 0) {
      memcpy(n, dir, sizeof n);
    } else {
      double best = 0, sg = c == 1 ? 1 : -1;
      int bi = -1;
      for (int i = 0; i < s->ntri; i++) {
        const vxv_btri *u = &s->tri[i];
        double a = sg * vxg_dot(u->n, dir);
        if (u->atom == c - 1 && u->ncv > 0 && a > best) {
          best = a;
          bi = i;
        }
      }
      if (bi < 0) {
        continue;
      }
      for (int k = 0; k < 3; k++) {
        n[k] = sg * s->tri[bi].n[k];
      }
    }
    double n1 = fabs(n[0]) + fabs(n[1]) + fabs(n[2]);
    margin = 4 * r->tol * n1;
    found = n1 > 0 && parts(s, n, margin, &m0, &m1);
  }
  if (!found) {
    return 0;
  }
  int lo = 0, hi = 0;
  for (int v = 1; v < p->nv; v++) {
    lo = vxg_dot(n, p->pos[v]) < vxg_dot(n, p->pos[lo]) ? v : lo;
    hi = vxg_dot(n, p->pos[v]) > vxg_dot(n, p->pos[hi]) ? v : hi;
  }
  /* p below m1 - margin (no triangle of atom 1) and above m0 + margin (none of atom 0) */
  if (vxg_dot(n, p->pos[lo]) < m1 - margin && side_at(r, 1, p->pos[lo]) != 0) {
    return 0;
  }
  if (vxg_dot(n, p->pos[hi]) > m0 + margin && side_at(r, 0, p->pos[hi]) != 0) {
    return 0;
  }
  return 1;
}


/* The part of p on the kept side of atoms a .. natom - 1 (their planes from plane bit `bit`
 * on), added piece by piece. A kept side that is convex (a convex mesh's inside, a concave
 * one's outside) clips p. Otherwise it is the outside of a convex set C = {G_1, ..., G_m}
 * (half-spaces), and p minus C is the disjoint union of the pieces inside G_1 .. G_{j-1} and
 * outside G_j. Every piece keeps the atom's plane bits when its cell is cell 0: the faces
 * pieces share on a plane cancel in the area vector, leaving those on the surface. */
static void peel(bsp_run *r, const vxv_cpoly *p, int a, int bit, uint64_t abits, int depth) {
  const vxv_bsp *s = r->s;
  while (a < s->natom && (s->general >> a & 1)) {
    a++; /* left to the BSP */
  }
  if (a == s->natom) {
    if (s->general) {
      bsp_general(r, p, bit, abits, depth);
    } else {
      piece_add(r, p, abits);
    }
    return;
  }
  const vxv_batom *at = &s->atom[a];
  /* convex: the inside is every n.y <= d; concave: the outside is every n.y > d (sg -1) */
  double sg = at->shape == VXG_LOCAL_CONVEX ? 1 : -1;
  uint64_t mine = at->cell == 0 ? (((uint64_t)1 << at->npl) - 1) << bit : 0;
  vxv_cpoly *buf = &r->s->poly[3 * depth];
  const vxv_cpoly *cur = p;
  int ncon = r->ncon;
  if ((at->shape == VXG_LOCAL_CONVEX) != at->comp) {
    for (int j = 0; j < at->npl && cur && cur->nv > 0; j++) {
      cur = peel_clip(r, &buf[cur == &buf[0]], cur, at->pl[j], sg, bit + j);
      con_push(r, at->pl[j], sg);
    }
    if (cur && cur->nv > 0) {
      peel(r, cur, a + 1, bit + at->npl, abits | mine, depth + 1);
    }
    r->ncon = ncon;
    return;
  }
  /* C: the concave mesh's outside, or the complemented convex mesh's inside */
  double in = sg;
  for (int j = 0; j < at->npl && cur && cur->nv > 0 && !r->fail; j++) {
    const vxv_cpoly *out = peel_clip(r, &buf[2], cur, at->pl[j], -in, bit + j);
    if (out && out->nv > 0) {
      int held = r->ncon;
      con_push(r, at->pl[j], -in);
      peel(r, out, a + 1, bit + at->npl, abits | mine, depth + 1);
      r->ncon = held;
    }
    cur = r->fail ? NULL : peel_clip(r, &buf[cur == &buf[0]], cur, at->pl[j], in, bit + j);
    con_push(r, at->pl[j], in);
  }
  r->ncon = ncon;
}


int vxv_bsp_integrate(const vxv_query *q, vxv_thread *th, const vxv_box *b, const vxv_cpoly *p,
                      int moments, uint64_t want, double out[21]) {
  vxv_bsp *s = &th->bsp;
  bsp_run run, *r = &run;
  memset(r, 0, offsetof(bsp_run, face));
  r->q = q;
  r->b = b;
  r->s = s;
  r->moments = moments;
  r->want = want;
  r->tol = vxv_vertex_rounding(b);
  if (moments) {
    s->nparts = 0;
  }
  for (int k = 0; k < 3; k++) {
    r->rb[k] = HUGE_VAL;
    r->rb[3 + k] = -HUGE_VAL;
  }
  if (p->nv > 0 && peel_fits(s)) {
    if (!peel_empty(r, p) && !pair_parted(r, p)) {
      peel(r, p, 0, s->bit0, 0, 0);
    }
  } else if (p->nv > 0) {
    r->fail = 1; /* the peeled atoms' planes do not fit */
  }
  if (r->fail) {
    return -1;
  }
  memcpy(out, r->m, 10 * sizeof *out);
  memcpy(out + 10, r->area, 3 * sizeof *out);
  out[13] = r->round;
  out[14] = r->pieces;
  memcpy(out + 15, r->rb, 6 * sizeof *out);
  return 0;
}


/* The distinct planes (by group: first, as vxg_atom_triangles's gfirst) of pl into out (4
 * each), in their order; returns the count. */
static int distinct_planes(const double *pl, const int *first, int n, double *out) {
  int m = 0;
  for (int j = 0; j < n; j++) {
    if (first[j] == j) {
      memcpy(out + 4 * m++, pl + 4 * j, 4 * sizeof *out);
    }
  }
  return m;
}


/* 0 when the triangle (corners tri, plane pl: query frame) surely misses the box b (by more
 * than tol, m): its bounding box misses b's, or b lies on one side of its plane; else 1. */
static int tri_meets_box(const vxv_box *b, const double *tri, const double *pl, double tol) {
  for (int c = 0; c < 3; c++) {
    double lo = vxv_min2(vxv_min2(tri[c], tri[3 + c]), tri[6 + c]) - b->c[c];
    double hi = vxv_max2(vxv_max2(tri[c], tri[3 + c]), tri[6 + c]) - b->c[c];
    if (lo > b->e[c] + tol || hi < -b->e[c] - tol) {
      return 0;
    }
  }
  double d = pl[3] - vxg_dot(pl, b->c);
  return fabs(pl[0]) * b->e[0] + fabs(pl[1]) * b->e[1] + fabs(pl[2]) * b->e[2] + tol >= fabs(d);
}


/* Triangle j of tri / pl / grp, moved to the leaf's coordinates, into t. */
static void leaf_tri(const vxv_box *b, const double *tri, const double *pl, const int *grp, int j,
                     int a, vxv_btri *t) {
  for (int v = 0; v < 3; v++) {
    for (int c = 0; c < 3; c++) {
      t->v[3 * v + c] = tri[9 * j + 3 * v + c] - b->c[c];
    }
  }
  memcpy(t->n, pl + 4 * j, sizeof t->n);
  t->d = pl[4 * j + 3] - vxg_dot(t->n, b->c);
  t->group = grp[j];
  t->atom = a;
  t->ncv = -1;
  t->edges = 0; /* tri_edges, when a BSP tests it */
}


int vxv_bsp_add_atom(const vxv_query *q, const vxv_box *b, vxv_bsp *s, int k, int i, int comp,
                     int attempt, double *planes, int *nplanes) {
  const vxv_qcell *qc = &q->cell[k];
  double r = vxv_box_radius(b);
  int room = VXV_BSP_TRIS - s->ntri;
  if (s->natom >= VXV_BSP_ATOMS) {
    return -1;
  }
  if (attempt && M_PI * r * r > 4 * VXV_DISC_TRIS * qc->tri_area[i]) {
    return -1; /* a box to be split anyway unless few (large) triangles are near */
  }
  /* flat within 1e-10 of the ball (and the coordinates' rounding) counts as convex */
  double tri[9 * VXV_NEAR_TRIS], pl[4 * VXV_NEAR_TRIS], tol = 1e-10 * r + vxv_vertex_rounding(b);
  int grp[VXV_NEAR_TRIS], first[3 * VXV_NEAR_TRIS], gfirst[VXV_NEAR_TRIS], shape;
  vxg_gather_cache *gc = q->reuse_gathers ? &s->gcache : NULL; /* NULL: the leaf's own ball */
  int n = vxg_atom_triangles(&qc->pc->atom[i], b->c, r, VXV_NEAR_TRIS, tol, gc, tri, pl, grp,
                             first, gfirst, &shape);
  if (n < 0) {
    return -1;
  }
  /* the distinct planes go to the caller (locally convex) or to the atom */
  vxv_batom *at = &s->atom[s->natom];
  double *dp = comp ? &at->pl[0][0] : planes;
  int npl = distinct_planes(pl, gfirst, n, dp);
  if (shape == VXG_LOCAL_CONVEX && !comp) {
    *nplanes = npl;
    return 1;
  }
  int keep[VXV_NEAR_TRIS], nkeep = 0;
  if (shape == VXG_LOCAL_GENERAL) {
    double tolb = vxv_vertex_rounding(b);
    for (int j = 0; j < n; j++) {
      if (tri_meets_box(b, tri + 9 * j, pl + 4 * j, tolb)) {
        keep[nkeep++] = j;
      }
    }
    if (nkeep > room) {
      return -1;
    }
  }
  int a = s->natom++;
  at->cell = k;
  at->atom = i;
  at->comp = comp;
  at->bound = i == qc->mslot ? (double)b->mu[k] : HUGE_VAL;
  at->shape = shape;
  at->npl = npl;
  if (dp != &at->pl[0][0]) {
    memcpy(at->pl, dp, (size_t)npl * sizeof at->pl[0]);
  }
  for (int j = 0; j < at->npl; j++) {
    at->pl[j][3] -= vxg_dot(at->pl[j], b->c);
  }
  s->general |= (unsigned)(shape == VXG_LOCAL_GENERAL) << a;
  if (shape != VXG_LOCAL_GENERAL) {
    return 0; /* peeled by its planes: no triangle needed */
  }
  for (int j = 0; j < nkeep; j++) {
    leaf_tri(b, tri, pl, grp, keep[j], a, &s->tri[s->ntri++]);
  }
  return 0;
}
