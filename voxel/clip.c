/* clip.c: the leaves' convex polyhedra, in the vertex-neighbour form of r3d (D. Powell and
 * T. Abel, "An exact general remeshing scheme applied to physically conservative voxelization",
 * J. Comput. Phys. 297, 2015), which is several times faster than face lists for the few
 * clips a leaf needs.
 *
 * Data (internal.h, vxv_cpoly): each vertex has exactly three neighbours, counter-clockwise
 * seen from outside. Invariants: neighbour links are symmetric; walking a face (from the
 * directed edge u -> v, the next vertex is the neighbour of v that follows u) goes round it
 * clockwise seen from outside; every vertex's plane mask `on` has the bits of the planes it
 * lies on.
 *
 * Clip by n.y <= d: s = n.y - d per vertex; a vertex is cut away when s > 0 (a vertex on the
 * plane stays). Each kept-to-cut edge gets a new vertex at the exact crossing
 * (p_kept s_cut - p_cut s_kept) / (s_cut - s_kept) (no cancellation: the signs differ),
 * linked to the kept end; the new vertices are then linked to each other around the cap by
 * walking the faces, and the cut vertices are compacted away. A plane through vertices or
 * edges gives coincident vertices and zero-length edges, which contribute nothing to the
 * moments and keep the topology valid for later clips.
 *
 * Moments: each face is fanned into triangles from its first vertex and each triangle with
 * the local origin makes a tetrahedron, with the closed forms of polyhedron.c. The same walk
 * gathers, for the faces lying on requested planes, their area, vector area and the second
 * moments of the polygon (int y y^T dA = A_T / 12 (a a^T + b b^T + c c^T + s s^T) per
 * triangle, s = a + b + c). */
#include <math.h>
#include <string.h>

#include "voxel/internal.h"
#include "geom/vec3.h"

void vxv_cp_box(vxv_cpoly *p, const double e[3]) {
  static const int nbr[8][3] = {{1, 4, 3}, {2, 5, 0}, {3, 6, 1}, {0, 7, 2},
                                {7, 0, 5}, {4, 1, 6}, {5, 2, 7}, {6, 3, 4}};
  /* vertex k: x high for 1 2 5 6, y high for 2 3 6 7, z high for 4..7 */
  static const unsigned char hx[8] = {0, 1, 1, 0, 0, 1, 1, 0};
  static const unsigned char hy[8] = {0, 0, 1, 1, 0, 0, 1, 1};
  static const unsigned char hz[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  /* box face bits: 0 -x, 1 +x, 2 -y, 3 +y, 4 -z, 5 +z; vertex k lies on faces hx[k],
     2 + hy[k] and 4 + hz[k] */
  static const uint64_t on[8] = {0x15, 0x16, 0x1a, 0x19, 0x25, 0x26, 0x2a, 0x29};
  const double x[2] = {-e[0], e[0]}, y[2] = {-e[1], e[1]}, z[2] = {-e[2], e[2]};
  p->nv = 8;
  for (int k = 0; k < 8; k++) {
    p->pos[k][0] = x[hx[k]];
    p->pos[k][1] = y[hy[k]];
    p->pos[k][2] = z[hz[k]];
  }
  memcpy(p->nbr, nbr, sizeof nbr);
  memcpy(p->on, on, sizeof on);
}


/* The neighbour slot of a vertex (links nb) that follows vcur, one of its neighbours: the
 * next edge of the face walked from vcur through it. */
static inline int next_on_face(const int nb[3], int vcur) {
  return nb[0] == vcur ? 1 : (nb[1] == vcur ? 2 : 0);
}


/* One step of a face walk: from the edge vcur -> vnext to the face's next edge, marked. */
static inline void face_step(const vxv_cpoly *p, unsigned char (*mark)[3], int *vcur, int *vnext) {
  int pn = next_on_face(p->nbr[*vnext], *vcur);
  *vcur = *vnext;
  mark[*vcur][pn] = 1;
  *vnext = p->nbr[*vcur][pn];
}


/* Links the new vertices [first, end) of a clip around the cap: from each, walk its face
 * through kept vertices (those below first) to the next new vertex. Returns 0, or -1 on
 * broken links (cannot happen for a valid polyhedron). */
static int link_cap(vxv_cpoly *p, int first, int end) {
  for (int vs = first; vs < end; vs++) {
    int vcur = vs, vnext = p->nbr[vcur][0];
    do {
      const int *nb = p->nbr[vnext];
      int pn = nb[0] == vcur ? 1 : nb[1] == vcur ? 2 : nb[2] == vcur ? 0 : -1;
      if (pn < 0) {
        return -1;
      }
      vcur = vnext;
      vnext = nb[pn];
    } while (vcur < first);
    p->nbr[vs][2] = vcur;
    p->nbr[vcur][1] = vs;
  }
  return 0;
}


/* The signed distance of y beyond the plane n.y = d, and the crossing of the edge from a
 * kept vertex pv (sv <= 0) to a cut one pw (sw > 0): the formulas of every clip and
 * re-clip, so that both give the same bits. */
static inline double dot3(const double n[3], const double y[3]) {
  return n[0] * y[0] + n[1] * y[1] + n[2] * y[2];
}

static inline double plane_side(const double n[3], const double y[3], double d) {
  return dot3(n, y) - d;
}

static inline void crossing(const double pv[3], const double pw[3], double sv, double sw,
                            double out[3]) {
  double a = sw, b = -sv, den = a + b;
  for (int c = 0; c < 3; c++) {
    out[c] = (pv[c] * a + pw[c] * b) / den;
  }
}


/* vxv_cp_clip_to, recording the clip into rec when not NULL (inlined: the plain clips keep
 * no test of rec). */
static inline __attribute__((always_inline)) int clip_to(vxv_cpoly *dst, const vxv_cpoly *src,
                                                         const double n[3], double d, int bit,
                                                         vxv_cpstep *rec) {
  int nv = src->nv;
  if (rec) {
    rec->nv = nv;
    rec->nin = rec->nn = nv;
  }
  if (nv == 0) {
    return 1;
  }
  double s[VXV_CP_MAX];
  int map[VXV_CP_MAX];
  int nin = 0, nout = 0;
  for (int v = 0; v < nv; v++) {
    if (rec) {
      rec->dot[v] = dot3(n, src->pos[v]);
      s[v] = rec->dot[v] - d;
    } else {
      s[v] = plane_side(n, src->pos[v], d);
    }
    if (s[v] > 0) {
      nout++;
      map[v] = -1;
    } else {
      if (rec) {
        rec->kept[nin] = (unsigned char)v;
      }
      map[v] = nin++;
    }
    if (rec) {
      rec->cut[v] = s[v] > 0;
    }
  }
  if (nout == 0) {
    return 1;
  }
  dst->nv = 0;
  if (rec) {
    rec->nin = nin;
    rec->nn = 0;
  }
  if (nin == 0) {
    return 0;
  }
  uint64_t tag = (uint64_t)1 << bit;
  /* the kept vertices in order, then the new ones in vxv_cp_clip's order of creation; the
     capacity test is vxv_cp_clip's (room for the cut vertices too), so that both agree */
  int nn = nin;
  /* each cut vertex ends at most three new edges: with room for them, no test a vertex */
  int roomy = nv + 3 * nout < VXV_CP_MAX;
  for (int v = 0; v < nv; v++) {
    int dv = map[v];
    if (dv < 0) {
      continue;
    }
    memcpy(dst->pos[dv], src->pos[v], sizeof dst->pos[0]);
    dst->on[dv] = src->on[v];
    for (int k = 0; k < 3; k++) {
      int w = src->nbr[v][k];
      if (map[w] >= 0) {
        dst->nbr[dv][k] = map[w];
        continue;
      }
      if (!roomy && nn - nin + nv >= VXV_CP_MAX) {
        return -1;
      }
      crossing(src->pos[v], src->pos[w], s[v], s[w], dst->pos[nn]);
      dst->on[nn] = (src->on[v] & src->on[w]) | tag;
      dst->nbr[nn][0] = dv;
      dst->nbr[dv][k] = nn;
      if (rec) {
        rec->ev[nn - nin][0] = (unsigned char)v;
        rec->ev[nn - nin][1] = (unsigned char)w;
      }
      nn++;
    }
  }
  if (link_cap(dst, nin, nn) != 0) {
    return -1;
  }
  dst->nv = nn;
  if (rec) {
    rec->nn = nn;
  }
  return 0;
}


/* dst's count, links and plane bits from src (its topology; positions untouched). */
static void topo_copy(vxv_cpoly *dst, const vxv_cpoly *src) {
  dst->nv = src->nv;
  memcpy(dst->nbr, src->nbr, (size_t)src->nv * sizeof src->nbr[0]);
  memcpy(dst->on, src->on, (size_t)src->nv * sizeof src->on[0]);
}


void vxv_cp_copy(vxv_cpoly *dst, const vxv_cpoly *src) {
  topo_copy(dst, src);
  memcpy(dst->pos, src->pos, (size_t)src->nv * sizeof src->pos[0]);
}


int vxv_cp_clip(vxv_cpoly *p, const double n[3], double d, int bit) {
  /* into a copy and back: cheaper than compacting the vertices in place */
  vxv_cpoly t;
  int r = vxv_cp_clip_to(&t, p, n, d, bit);
  if (r != 0) {
    return r < 0 ? -1 : 0;
  }
  vxv_cp_copy(p, &t);
  return 0;
}

int vxv_cp_clip_to(vxv_cpoly *dst, const vxv_cpoly *src, const double n[3], double d, int bit) {
  return clip_to(dst, src, n, d, bit, NULL);
}


int vxv_cp_clears(const vxv_cpoly *p, const double n[3], double d) {
  for (int v = 0; v < p->nv; v++) {
    if (!(plane_side(n, p->pos[v], d) > 0)) {
      return 0;
    }
  }
  return p->nv > 0;
}


void vxv_cp_chain_begin(vxv_cpchain *ch, int nreq, const double *const n[], const int bit[],
                        const vxv_cpoly *src, unsigned long long src_id) {
  ch->nreq = nreq <= VXV_CP_CHAIN ? nreq : -1;
  ch->nexec = 0;
  ch->has_fan = 0;
  ch->src_id = src_id;
  for (int i = 0; i < ch->nreq; i++) {
    memcpy(ch->step[i].n, n[i], sizeof ch->step[i].n);
    ch->step[i].bit = bit[i];
  }
  topo_copy(&ch->src, src);
}


int vxv_cp_chain_clip(vxv_cpchain *ch, vxv_cpoly *buf, const vxv_cpoly **cur, double d) {
  if (ch->nreq < 0 || ch->nexec >= ch->nreq) {
    ch->nreq = -1;
    return -1; /* not a step of the recording */
  }
  vxv_cpstep *st = &ch->step[ch->nexec++];
  int r;
  if (*cur == buf) {
    /* into a copy and back, as vxv_cp_clip */
    vxv_cpoly t;
    r = clip_to(&t, buf, st->n, d, st->bit, st);
    if (r == 0) {
      vxv_cp_copy(buf, &t);
    }
  } else {
    r = clip_to(buf, *cur, st->n, d, st->bit, st);
    if (r == 0) {
      *cur = buf;
    }
  }
  if (r < 0) {
    ch->nreq = -1;
    return -1;
  }
  return 0;
}


void vxv_cp_chain_end(vxv_cpchain *ch, const vxv_cpoly *p) {
  if (ch->nreq < 0) {
    return;
  }
  ch->last_cut = -1;
  for (int i = 0; i < ch->nexec; i++) {
    if (ch->step[i].nn > 0 && ch->step[i].nin < ch->step[i].nv) {
      ch->last_cut = i;
    }
  }
  topo_copy(&ch->res, p);
  ch->has_fan = 0;
}


/* One recorded step re-clipped by n.y <= d: the new vertices from the source positions src
 * (nv of them) into dst after the kept ones, when the plane cuts the recorded vertices
 * (returns 0), else 1. dots 1: the step's dot products are those of src with n; 2: they are
 * to be computed and kept (st->dot). */
static int reclip_step(vxv_cpstep *st, const double (*src)[3], int nv, const double n[3],
                       int dots, double d, double (*dst)[3]) {
  double s[VXV_CP_MAX];
  int differ = nv != st->nv;
  for (int v = 0; v < nv && !differ; v++) {
    if (dots == 2) {
      st->dot[v] = dot3(n, src[v]);
    }
    s[v] = dots ? st->dot[v] - d : plane_side(n, src[v], d);
    differ = (s[v] > 0) != st->cut[v];
  }
  if (differ) {
    return 1;
  }
  if (st->nn == 0 || st->nin == nv) {
    return 0; /* emptied, or nothing cut: the caller keeps src */
  }
  for (int k = 0; k < st->nin; k++) {
    const double *y = src[st->kept[k]];
    dst[k][0] = y[0];
    dst[k][1] = y[1];
    dst[k][2] = y[2];
  }
  for (int t = 0; t < st->nn - st->nin; t++) {
    int v = st->ev[t][0], w = st->ev[t][1];
    crossing(src[v], src[w], s[v], s[w], dst[st->nin + t]);
  }
  return 0;
}


int vxv_cp_rechain(vxv_cpoly *dst, const vxv_cpoly *src, unsigned long long src_id,
                   vxv_cpchain *ch, int nreq, const double *const n[], const double d[],
                   const int bit[]) {
  if (ch->nreq < 0 || nreq != ch->nreq) {
    return 1;
  }
  for (int i = 0; i < nreq; i++) {
    if (bit[i] != ch->step[i].bit) {
      return 1;
    }
  }
  /* the first step's dot products are the record's when src is its source and the normal
     its own; else src must have the recorded source's links and plane bits (the result's
     then depend on the cut vertices alone), and they are computed for it */
  int dots = 1;
  if (src_id == 0 || src_id != ch->src_id ||
      (nreq > 0 && memcmp(n[0], ch->step[0].n, sizeof ch->step[0].n) != 0)) {
    if (src->nv != ch->src.nv ||
        memcmp(src->nbr, ch->src.nbr, (size_t)src->nv * sizeof src->nbr[0]) != 0 ||
        memcmp(src->on, ch->src.on, (size_t)src->nv * sizeof src->on[0]) != 0) {
      return 1;
    }
    dots = 2;
    ch->src_id = 0; /* until the dot products are all computed */
    if (nreq > 0) {
      memcpy(ch->step[0].n, n[0], sizeof ch->step[0].n);
    }
  }
  /* the steps that cut write into buf, the last of them into dst itself */
  double buf[2][VXV_CP_MAX][3];
  const double(*cur)[3] = src->pos;
  int nv = src->nv, emptied = 0;
  for (int i = 0; i < ch->nexec; i++) {
    vxv_cpstep *st = &ch->step[i];
    double(*out)[3] = i == ch->last_cut ? dst->pos : (cur == buf[0] ? buf[1] : buf[0]);
    if (reclip_step(st, cur, nv, n[i], i == 0 ? dots : 0, d[i], out) != 0) {
      return 1;
    }
    if (i == 0 && dots == 2) {
      ch->src_id = src_id;
    }
    if (st->nn == 0) {
      emptied = 1;
      break;
    }
    if (st->nin < nv) {
      cur = out;
      nv = st->nn;
    }
  }
  if (!emptied && ch->nexec < nreq && nv > 0) {
    return 1; /* the recording stopped short of a step this chain takes */
  }
  if (emptied) {
    dst->nv = 0;
    return 0;
  }
  topo_copy(dst, &ch->res);
  if (cur != dst->pos) {
    memcpy(dst->pos, cur, (size_t)dst->nv * sizeof dst->pos[0]);
  }
  return 0;
}


const vxv_cpfan *vxv_cp_chain_fan(vxv_cpchain *ch) {
  if (!ch->has_fan) {
    vxv_cp_fan(&ch->res, &ch->fan);
    ch->has_fan = 1;
  }
  return &ch->fan;
}

/* One fan triangle (ap, b, c) of a face: its area, half its cross product (the vector
 * area) and its second moments added to the face's sums. */
typedef struct fsum {
  double area, vec[3], m1[3], m2[6];
} fsum;

/* Half the cross product of b - ap and c - ap: the triangle's vector area. */
static inline void tri_vec(const double *ap, const double *b, const double *c, double x[3]) {
  double u[3] = {b[0] - ap[0], b[1] - ap[1], b[2] - ap[2]};
  double t[3] = {c[0] - ap[0], c[1] - ap[1], c[2] - ap[2]};
  x[0] = 0.5 * (u[1] * t[2] - u[2] * t[1]);
  x[1] = 0.5 * (u[2] * t[0] - u[0] * t[2]);
  x[2] = 0.5 * (u[0] * t[1] - u[1] * t[0]);
}

/* The vector area alone added. */
static inline void face_tri_vec(const double *ap, const double *b, const double *c, fsum *f) {
  double x[3];
  tri_vec(ap, b, c, x);
  for (int i = 0; i < 3; i++) {
    f->vec[i] += x[i];
  }
}

static inline void face_tri(const double *ap, const double *b, const double *c, fsum *f) {
  double x[3];
  tri_vec(ap, b, c, x);
  double at = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  double sm[3] = {ap[0] + b[0] + c[0], ap[1] + b[1] + c[1], ap[2] + b[2] + c[2]};
  f->area += at;
  for (int i = 0; i < 3; i++) {
    f->vec[i] += x[i];
    f->m1[i] += at / 3 * sm[i];
  }
  for (int q = 0; q < 6; q++) {
    int i = VXG_SYM_ROW[q], j = VXG_SYM_COL[q];
    f->m2[q] += at / 12 * (ap[i] * ap[j] + b[i] * b[j] + c[i] * c[j] + sm[i] * sm[j]);
  }
}

/* A walked face's sums credited to each wanted plane it lies on (fmask: its plane bits). */
static inline void face_credit(vxv_cpface *face, uint64_t fmask, uint64_t want, const fsum *f) {
  for (uint64_t hit = (fmask >> 6) & want; hit; hit &= hit - 1) {
    vxv_cpface *o = &face[__builtin_ctzll(hit)];
    o->found = 1;
    o->area += f->area;
    for (int i = 0; i < 3; i++) {
      o->avec[i] += f->vec[i];
      o->m1[i] += f->m1[i];
    }
    for (int q = 0; q < 6; q++) {
      o->m2[q] += f->m2[q];
    }
  }
}

void vxv_cp_fan(const vxv_cpoly *p, vxv_cpfan *f) {
  unsigned char mark[VXV_CP_MAX][3];
  int nf = 0, nt = 0;
  f->nface = 0;
  if (p->nv <= 0) {
    return;
  }
  memset(mark, 0, (size_t)p->nv * sizeof mark[0]);
  for (int vstart = 0; vstart < p->nv; vstart++) {
    for (int k = 0; k < 3; k++) {
      if (mark[vstart][k]) {
        continue;
      }
      /* the face from the edge vstart -> nbr[vstart][k], fanned from vstart: the walk is
         clockwise from outside, so (vstart, next, cur) is counter-clockwise */
      int vcur = vstart, vnext = p->nbr[vstart][k];
      f->face[nf].a = (short)vstart;
      f->face[nf].first = (short)nt;
      uint64_t fmask = p->on[vstart];
      mark[vcur][k] = 1;
      face_step(p, mark, &vcur, &vnext);
      fmask &= p->on[vcur];
      while (vnext != vstart) {
        fmask &= p->on[vnext];
        f->tri[nt][0] = (unsigned char)vnext;
        f->tri[nt][1] = (unsigned char)vcur;
        nt++;
        face_step(p, mark, &vcur, &vnext);
      }
      f->face[nf].mask = fmask;
      f->face[nf].n = (short)(nt - f->face[nf].first);
      nf++;
    }
  }
  f->nface = nf;
}


/* The vertices relative to vertex 0, the tetrahedra's apex (so that its three faces weigh
 * nothing). */
static void rel_pos(const vxv_cpoly *p, double (*r)[3]) {
  const double *o = p->pos[0];
  for (int v = 0; v < p->nv; v++) {
    r[v][0] = p->pos[v][0] - o[0];
    r[v][1] = p->pos[v][1] - o[1];
    r[v][2] = p->pos[v][2] - o[2];
  }
}


static inline double det3(const double *a0, const double *b, const double *c) {
  return a0[0] * (b[1] * c[2] - b[2] * c[1]) + a0[1] * (b[2] * c[0] - b[0] * c[2]) +
         a0[2] * (b[0] * c[1] - b[1] * c[0]);
}


double vxv_cp_fan_moments(const vxv_cpoly *p, const vxv_cpfan *f, double *m, uint64_t want,
                          uint64_t vec_only, vxv_cpface *face) {
  double r[VXV_CP_MAX][3];
  double v6 = 0, s1[3] = {0, 0, 0}, s2[6] = {0, 0, 0, 0, 0, 0};
  want >>= 6;
  uint64_t full = want & ~(vec_only >> 6);
  for (uint64_t w = want; w; w &= w - 1) {
    memset(&face[__builtin_ctzll(w)], 0, sizeof face[0]);
  }
  if (p->nv <= 0) {
    if (m) {
      memset(m, 0, 10 * sizeof *m);
    }
    return 0;
  }
  const double *o = p->pos[0];
  rel_pos(p, r);
  for (int fi = 0; fi < f->nface; fi++) {
    /* the face data, with a square root per triangle, is gathered only for the faces on a
       wanted plane (a face beside one, whose first edge lies on it, has no share in it) */
    int a = f->face[fi].a, t0 = f->face[fi].first, t1 = t0 + f->face[fi].n;
    int vol = a != 0, fdata = ((f->face[fi].mask >> 6) & want) != 0;
    int fvec = fdata && !((f->face[fi].mask >> 6) & full); /* its vector area alone */
    const double *a0 = r[a], *ap = p->pos[a];
    fsum fs = {0, {0, 0, 0}, {0, 0, 0}, {0, 0, 0, 0, 0, 0}};
    for (int t = t0; t < t1; t++) {
      int vb = f->tri[t][0], vc = f->tri[t][1];
      if (vol) {
        const double *b = r[vb], *c = r[vc];
        double det = det3(a0, b, c);
        v6 += det;
        if (m) {
          double sm[3] = {a0[0] + b[0] + c[0], a0[1] + b[1] + c[1], a0[2] + b[2] + c[2]};
          for (int i = 0; i < 3; i++) {
            s1[i] += det * sm[i];
          }
          for (int q = 0; q < 6; q++) {
            int i = VXG_SYM_ROW[q], j = VXG_SYM_COL[q];
            s2[q] += det * (a0[i] * a0[j] + b[i] * b[j] + c[i] * c[j] + sm[i] * sm[j]);
          }
        }
      }
      if (fvec) {
        face_tri_vec(ap, p->pos[vb], p->pos[vc], &fs);
      } else if (fdata) {
        face_tri(ap, p->pos[vb], p->pos[vc], &fs);
      }
    }
    if (fdata) { /* else on no wanted plane: nothing to credit */
      face_credit(face, f->face[fi].mask, want, &fs);
    }
  }
  double m0 = v6 / 6;
  if (m) {
    /* moments about vertex 0, then shifted to the local origin */
    double l1[3] = {s1[0] / 24, s1[1] / 24, s1[2] / 24};
    m[0] = m0;
    for (int i = 0; i < 3; i++) {
      m[1 + i] = l1[i] + m0 * o[i];
    }
    for (int q = 0; q < 6; q++) {
      int i = VXG_SYM_ROW[q], j = VXG_SYM_COL[q];
      m[4 + q] = s2[q] / 120 + o[i] * l1[j] + l1[i] * o[j] + m0 * o[i] * o[j];
    }
  }
  return m0;
}


double vxv_cp_moments(const vxv_cpoly *p, double *m, uint64_t want, vxv_cpface *face) {
  vxv_cpfan f;
  vxv_cp_fan(p, &f);
  return vxv_cp_fan_moments(p, &f, m, want, 0, face);
}


void vxv_cp_fan_faces(const vxv_cpoly *p, const vxv_cpfan *f, uint64_t want, vxv_cpface *face) {
  want >>= 6;
  for (uint64_t w = want; w; w &= w - 1) {
    memset(&face[__builtin_ctzll(w)], 0, sizeof face[0]);
  }
  if (p->nv <= 0) {
    return;
  }
  for (int fi = 0; fi < f->nface; fi++) {
    if (!((f->face[fi].mask >> 6) & want)) {
      continue; /* on no wanted plane */
    }
    int a = f->face[fi].a, t0 = f->face[fi].first, t1 = t0 + f->face[fi].n;
    const double *ap = p->pos[a];
    fsum fs = {0, {0, 0, 0}, {0, 0, 0}, {0, 0, 0, 0, 0, 0}};
    for (int t = t0; t < t1; t++) {
      face_tri(ap, p->pos[f->tri[t][0]], p->pos[f->tri[t][1]], &fs);
    }
    face_credit(face, f->face[fi].mask, want, &fs);
  }
}


void vxv_cp_faces(const vxv_cpoly *p, uint64_t want, vxv_cpface *face) {
  vxv_cpfan f;
  vxv_cp_fan(p, &f);
  vxv_cp_fan_faces(p, &f, want, face);
}


double vxv_cp_fan_volume(const vxv_cpoly *p, const vxv_cpfan *f) {
  double r[VXV_CP_MAX][3];
  double v6 = 0;
  if (p->nv <= 0) {
    return 0;
  }
  rel_pos(p, r);
  for (int fi = 0; fi < f->nface; fi++) {
    int a = f->face[fi].a, t0 = f->face[fi].first, t1 = t0 + f->face[fi].n;
    if (a == 0) {
      continue; /* the faces through vertex 0 weigh nothing */
    }
    for (int t = t0; t < t1; t++) {
      v6 += det3(r[a], r[f->tri[t][0]], r[f->tri[t][1]]);
    }
  }
  return v6 / 6;
}


/* vxv_cp_moments's volume alone: the same faces and the same sum of determinants in the
 * same order (so the same bits), without the moments' and the faces' bookkeeping. */
double vxv_cp_volume(const vxv_cpoly *p) {
  vxv_cpfan f;
  vxv_cp_fan(p, &f);
  return vxv_cp_fan_volume(p, &f);
}


double vxv_cp_fan_proj_faces(const vxv_cpoly *p, const vxv_cpfan *f, const double u[3],
                             uint64_t skip) {
  double sum = 0;
  for (int fi = 0; fi < f->nface; fi++) {
    if (f->face[fi].mask & skip) {
      continue; /* on a skipped plane: its vector area is not needed */
    }
    int a = f->face[fi].a, t0 = f->face[fi].first, t1 = t0 + f->face[fi].n;
    const double *ap = p->pos[a];
    double fvec[3] = {0, 0, 0};
    for (int t = t0; t < t1; t++) {
      double x[3];
      tri_vec(ap, p->pos[f->tri[t][0]], p->pos[f->tri[t][1]], x);
      fvec[0] += x[0];
      fvec[1] += x[1];
      fvec[2] += x[2];
    }
    sum += fabs(u[0] * fvec[0] + u[1] * fvec[1] + u[2] * fvec[2]);
  }
  return sum;
}


double vxv_cp_proj_faces(const vxv_cpoly *p, const double u[3], uint64_t skip) {
  vxv_cpfan f;
  vxv_cp_fan(p, &f);
  return vxv_cp_fan_proj_faces(p, &f, u, skip);
}
