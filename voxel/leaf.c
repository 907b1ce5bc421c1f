/* leaf.c: what the octree does with one box: classify it against the cells, and integrate a
 * boundary leaf on the linearised surfaces, with its certified volume bracket.
 *
 * Classification works per atom (vxg_atom_classify, conservative), with masks inherited from
 * the parent box (internal.h): only atoms MIXED over the parent are classified again. A
 * primitive is OUTSIDE when one of its atoms is (INSIDE when complemented), INSIDE when all
 * are INSIDE (OUTSIDE when complemented), else MIXED; a cell is the conjunction of its
 * primitives.
 *
 * A leaf (local coordinates y = x - c, half-extents e_k: a cube, or a column longer along one
 * axis, column.c) replaces each MIXED atom by a half-space.
 * For an atom f (sign s = +1, or -1 for a complemented primitive) with value f0 and
 * gradient g at c, the remainder r(y) = f(c + y) - f0 - g.y lies in [rl, rh] over the leaf:
 *  - quadric: r(y) = A y0^2 + B y1^2 + C y2^2 + D y0 y1 + E y1 y2 + F y0 y2 exactly, so
 *    each diagonal term lies in [min(0, A e0^2), max(0, A e0^2)] and each cross term in
 *    [-|D| e0 e1, |D| e0 e1]; its mean over the box is (A e0^2 + B e1^2 + C e2^2) / 3;
 *  - torus (an exact distance D - r to the core circle, D its distance): the Hessian of D
 *    has norm <= max(1 / D, 1 / rho) (rho the distance to the axis), so over the ball of
 *    radius rad (the half-diagonal) |r| <= rad^2 / 2 max(1 / (D_c - rad), 1 / (rho_c - rad))
 *    when both are positive; tighter, the range of its Taylor model's quadric (the Hessian
 *    at c) widened by the bound on the cubic rest (torus_taylor);
 *  - otherwise vxg_atom_curvature_bound, and when it has no bound, no bracket (the leaf's
 *    lower volume is 0 and its upper volume ignores the atom).
 * Then {s g.y <= -(s f0 + max s r)} is inside the true set and {s g.y <= -(s f0 + min s r)}
 * contains it: the lower and upper polyhedra. The estimate uses s g.y <= -(s f0 + s r_mean)
 * (VXV_PLANE_MEAN) or r_mean = 0 (VXV_PLANE_TANGENT); it lies between the two, so
 * lo <= V <= hi per leaf. r_mean is the remainder's mean over the box, then (VXV_PLANE_MEAN,
 * quadrics and tori) over the polygon where the plane cuts the clipped leaf.
 *
 * A complemented primitive with several MIXED atoms excludes the convex set Q where all its
 * atoms are <= 0: the leaf's region is R minus the union of such Q_g, R the box clipped by
 * every other half-space. By inclusion and exclusion its moments are the sum over subsets S
 * of the groups of (-1)^|S| m(R and the Q_g, g in S), every term a convex polyhedron, so a
 * cavity's edges and corners are exact when its faces are planes (up to VXV_MAX_GROUPS such
 * primitives per leaf; beyond, the atom with the largest value at c stands in, complemented,
 * with no upper polyhedron). The lower region takes R's lower half-spaces and the Q_g's upper
 * ones (a bigger hole), the upper region the reverse.
 *
 * A leaf with one or two curved half-spaces, quadrics' or tori's (their Taylor models), and no
 * groups narrows its bracket to third order (third_order); pgap keeps the planar one, which
 * the estimate rule weighs by.
 * Its value is third order too (vxv_leaf.order3): the mean planes' error falls as h^5.
 *
 * The ranges are widened by a rounding allowance and every leaf's bracket by a bound on the
 * polyhedra's rounding error (cp_rounding; 1e-12 of the box's volume on the generic path). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "voxel/internal.h"
#include "geom/vec3.h"

/* rb = the box of half-extents e about the leaf centre, or (empty) inverted. */
static void bounds_box(const double e[3], int empty, double rb[6]) {
  for (int k = 0; k < 3; k++) {
    rb[k] = empty ? HUGE_VAL : -e[k];
    rb[3 + k] = empty ? -HUGE_VAL : e[k];
  }
}


void vxv_acc_zero(vxv_acc *a) {
  memset(a, 0, sizeof *a);
}


void vxv_acc_add(vxv_acc *a, int k, double x) {
  double s = a->s[k], t = s + x;
  if (fabs(s) >= fabs(x)) {
    a->c[k] += (s - t) + x;
  } else {
    a->c[k] += (x - t) + s;
  }
  a->s[k] = t;
}


void vxv_acc_merge(vxv_acc *a, const vxv_acc *b) {
  for (int k = 0; k < VXV_ACC_N; k++) {
    /* adding an exact zero changes nothing: skip it (empty sums are common) */
    if (b->s[k] != 0) {
      vxv_acc_add(a, k, b->s[k]);
    }
    if (b->c[k] != 0) {
      vxv_acc_add(a, k, b->c[k]);
    }
  }
}


double vxv_acc_get(const vxv_acc *a, int k) {
  return a->s[k] + a->c[k];
}


void vxv_acc_box(vxv_acc *a, const vxv_box *b) {
  vxg_moments m;
  vxg_box_moments(b->c, b->e, &m);
  vxv_acc_add(a, VXV_ACC_M0, m.m0);
  for (int k = 0; k < 3; k++) {
    vxv_acc_add(a, VXV_ACC_M1 + k, m.m1[k]);
  }
  for (int k = 0; k < 6; k++) {
    vxv_acc_add(a, VXV_ACC_M2 + k, m.m2[k]);
  }
  vxv_acc_add(a, VXV_ACC_LO, m.m0);
  vxv_acc_add(a, VXV_ACC_HI, m.m0);
}


/* Re-centring passes (the second and third passes were measured to change the error by less
 * than its leaf-to-leaf scatter: one is kept). */
#define RECENTRE_ITERS 1

void vxv_acc_leaf(vxv_acc *a, const vxv_leaf *l) {
  /* shift about the origin: m1 = m1' + m0 c, m2 = m2' + c m1'^T + m1' c^T + m0 c c^T */
  const double *c = l->b.c, *m = l->m;
  vxv_acc_add(a, VXV_ACC_M0, m[0]);
  for (int k = 0; k < 3; k++) {
    vxv_acc_add(a, VXV_ACC_M1 + k, m[1 + k] + m[0] * c[k]);
  }
  for (int k = 0; k < 6; k++) {
    int i = VXG_SYM_ROW[k], j = VXG_SYM_COL[k];
    vxv_acc_add(a, VXV_ACC_M2 + k,
                m[4 + k] + c[i] * m[1 + j] + m[1 + i] * c[j] + m[0] * c[i] * c[j]);
  }
  vxv_acc_add(a, VXV_ACC_LO, l->lo);
  vxv_acc_add(a, VXV_ACC_HI, l->hi);
  for (int k = 0; k < 3; k++) {
    vxv_acc_add(a, VXV_ACC_AREA + k, l->area[k]);
  }
  vxv_acc_add(a, VXV_ACC_EST, l->est);
  vxv_acc_add(a, VXV_ACC_PGAP, l->pgap);
  vxv_acc_add(a, VXV_ACC_QUAD, l->quad);
}


static uint64_t atoms_mask(int n) {
  return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}


void vxv_qcell_init(vxv_qcell *qc, const vxg_posed_cell *pc) {
  memset(qc, 0, sizeof *qc);
  qc->pc = pc;
  qc->nprim = pc->cell->nprim;
  qc->all = atoms_mask(pc->natom);
  for (int p = 0; p < qc->nprim; p++) {
    const vxg_prim *pr = &pc->cell->prim[p];
    uint64_t m = 0;
    for (int i = pr->first_atom; i < pr->first_atom + pr->natom && i < pc->natom; i++) {
      m |= (uint64_t)1 << i;
      qc->prim_of[i] = (signed char)p;
    }
    qc->pmask[p] = m;
    qc->comp[p] = pr->complement ? 1 : 0;
    if (pr->complement) {
      qc->comp_atoms |= m;
    }
  }
  qc->mslot = -1;
  for (int i = 0; i < pc->natom; i++) {
    const vxg_atom *a = &pc->atom[i];
    if (a->kind == VXG_ATOM_MESH) {
      qc->costly |= (uint64_t)1 << i;
      if (qc->mslot < 0) {
        qc->mslot = i;
      }
      vxg_mesh_info mi;
      if (a->mesh) {
        vxg_mesh_get_info(a->mesh, &mi);
        qc->tri_area[i] = mi.area / mi.ntri;
        if (mi.convex && !(qc->comp_atoms >> i & 1)) {
          qc->planar |= (uint64_t)1 << i;
        }
      }
    }
    int curved = 1;
    if (a->kind == VXG_ATOM_QUADRIC) {
      curved = 0;
      for (int k = 0; k < 6; k++) {
        curved |= a->q[k] != 0;
      }
    }
    if (curved) {
      qc->curved |= (uint64_t)1 << i;
    }
    if (a->kind == VXG_ATOM_TORUS && !(qc->comp_atoms >> i & 1)) {
      qc->tori |= (uint64_t)1 << i;
    }
    const vxg_prim *pr = qc->prim_of[i] >= 0 ? &pc->cell->prim[qc->prim_of[i]] : NULL;
    if (pr && a->kind == VXG_ATOM_QUADRIC && i == pr->first_atom &&
        ((pr->kind == VXG_CYLINDER && pr->natom == 1) ||
         (pr->kind == VXG_CONE && pr->natom == 2))) {
      qc->axial |= (uint64_t)1 << i;
    }
  }
}


void vxv_box_root(const vxv_query *q, vxv_box *b, const double c[3], double h) {
  memset(b, 0, sizeof *b);
  memcpy(b->c, c, sizeof b->c);
  b->h = b->e[0] = b->e[1] = b->e[2] = h;
  for (int k = 0; k < q->ncell; k++) {
    b->mixed[k] = q->cell[k].all;
    b->mu[k] = INFINITY;
  }
}


static int ctz64(uint64_t m) {
  return __builtin_ctzll(m);
}


/* An upper bound as a float, rounded up (infinite beyond float range). */
static float float_up(double x) {
  float f = (float)x;
  return (double)f < x ? nextafterf(f, INFINITY) : f;
}


/* Classifies atom i of cell k over b: the mesh atom mslot by a search bounded by the bound
 * the box carries from its parent (whose centre is sqrt(3) h away), keeping the new one. */
static vxg_class classify_atom(const vxv_qcell *qc, int k, int i, vxv_box *b, const double e[3]) {
  const vxg_atom *a = &qc->pc->atom[i];
  if (i != qc->mslot) {
    return vxg_atom_classify(a, b->c, e);
  }
  double bound = (double)b->mu[k] + vxv_box_radius(b), f, g[3], upper;
  vxg_class c = vxg_atom_classify_eval(a, b->c, e, bound, &f, g, &upper);
  b->mu[k] = float_up(upper);
  return c;
}


/* The hint's atom classified first (a plain one, cheap, MIXED over b), or the cheap MIXED
 * atoms of its primitive (a complemented one without searches): VXG_OUTSIDE when that
 * decides b, else VXG_MIXED with the atoms classified in done[] and b's masks updated as
 * vxv_box_classify's loop does. */
static vxg_class classify_hint(const vxv_query *q, vxv_box *b, int hint, uint64_t done[2]) {
  int k = hint >> 6, i = hint & 63;
  if (hint < 0 || k >= q->ncell) {
    return VXG_MIXED;
  }
  const vxv_qcell *qc = &q->cell[k];
  uint64_t bit = (uint64_t)1 << i;
  if (!(qc->comp_atoms & bit)) {
    if (!(b->mixed[k] & bit & ~qc->costly)) {
      return VXG_MIXED;
    }
    vxg_class c = vxg_atom_classify(&qc->pc->atom[i], b->c, b->e);
    if (c == VXG_INSIDE) {
      b->mixed[k] &= ~bit;
    }
    done[k] = bit;
    return c;
  }
  uint64_t pm = qc->pmask[qc->prim_of[i]], m = b->mixed[k] & pm;
  if (!m || (pm & qc->costly)) {
    return VXG_MIXED;
  }
  done[k] = m;
  for (; m; m &= m - 1) {
    int j = ctz64(m);
    uint64_t bj = (uint64_t)1 << j;
    vxg_class c = vxg_atom_classify(&qc->pc->atom[j], b->c, b->e);
    if (c == VXG_INSIDE) {
      b->mixed[k] &= ~bj;
    } else if (c == VXG_OUTSIDE) {
      b->outside[k] |= bj; /* outside one atom: inside the primitive */
      b->mixed[k] &= ~pm;
      return VXG_MIXED;
    }
  }
  /* every atom inside: outside the primitive, hence the cell */
  return (pm & (b->mixed[k] | b->outside[k])) == 0 ? VXG_OUTSIDE : VXG_MIXED;
}


vxg_class vxv_box_classify(const vxv_query *q, vxv_box *b, int *hint) {
  const double *e = b->e;
  int all_inside = 1;
  uint64_t done[2] = {0, 0};
  if (vxv_box_beyond_region(q, b)) {
    return VXG_OUTSIDE; /* the class its atoms would give, without them */
  }
  if (hint && classify_hint(q, b, *hint, done) == VXG_OUTSIDE) {
    return VXG_OUTSIDE;
  }
  /* cheap atoms of every cell first, searches (meshes) last: a box outside a plane of
     either cell is dropped before any search */
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < q->ncell; k++) {
      const vxv_qcell *qc = &q->cell[k];
      uint64_t m = b->mixed[k] & (pass ? qc->costly : ~qc->costly) & ~done[k];
      while (m) {
        int i = ctz64(m);
        uint64_t bit = (uint64_t)1 << i;
        m &= ~bit;
        vxg_class c = classify_atom(qc, k, i, b, e);
        if (c == VXG_MIXED) {
          continue;
        }
        b->mixed[k] &= ~bit;
        if (c == VXG_OUTSIDE) {
          if (!(qc->comp_atoms & bit)) {
            if (hint && !(qc->costly & bit)) {
              *hint = 64 * k + i;
            }
            return VXG_OUTSIDE; /* outside a plain primitive: outside the cell */
          }
          /* a complemented primitive with an atom outside: inside it, nothing more to learn */
          uint64_t pm = qc->pmask[qc->prim_of[i]];
          b->outside[k] |= bit;
          b->mixed[k] &= ~pm;
          m &= ~pm;
        }
      }
    }
  }
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    /* a complemented primitive whose atoms are all inside: outside it */
    uint64_t open = qc->comp_atoms & ~(b->mixed[k] | b->outside[k]);
    while (open) {
      int p = qc->prim_of[ctz64(open)];
      uint64_t pm = qc->pmask[p];
      if ((pm & (b->mixed[k] | b->outside[k])) == 0) {
        if (hint && !(pm & qc->costly)) {
          *hint = 64 * k + ctz64(pm);
        }
        return VXG_OUTSIDE;
      }
      open &= ~pm;
    }
    if (b->mixed[k]) {
      all_inside = 0;
    }
  }
  if (all_inside) {
    return VXG_INSIDE;
  }
  if (q->region_cut && vxv_box_region_outside(q, b)) {
    return VXG_OUTSIDE;
  }
  if (q->nflush > 0 && vxv_box_flush(q, b)) {
    return VXG_OUTSIDE;
  }
  return q->nrad > 0 && vxv_box_radical(q, b) ? VXG_OUTSIDE : VXG_MIXED;
}


int vxv_box_planar(const vxv_query *q, const vxv_box *b) {
  int any = 0;
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    if (b->mixed[k] & qc->curved & ~qc->costly) {
      return 0;
    }
    any |= (b->mixed[k] & qc->costly) != 0;
  }
  return any;
}


/* The revolution rule's reach. A torus with a plane within 20 degrees of square to its axis
 * meets it along a ring or a long crescent (a torus resting on a table), thin across where it
 * is long: linearised leaves resolve its width only with leaves far smaller than its length.
 * Elsewhere (a compact patch) a few linearised leaves cost less than one integral about the
 * axis. A rod in a bore, their axes within 20 degrees (a peg against its hole's wall, a shaft
 * in a bearing, a cone in a countersink), overlap in a crescent micrometres thick and
 * millimetres long, which no leaf of a usable size resolves: both surfaces are known, so the
 * leaf is integrated about the bore's axis at any size. */
#define RING_COS 0.93969262078590838 /* cos 20 degrees */
/* The rule's quadrature under the h_min rule: its error asked, relative to the leaf's volume,
 * and an absolute floor, relative to the box's (a flush contact's rounding is not resolved). */
#define REVOLUTION_REL 1e-6
#define REVOLUTION_TOUCH 1e-13

/* The axis (point p, unit direction u, query frame), radius r (0: a cone) and k (1: a
 * cylinder; 1 / cos^2 of a cone's half-angle) of axial atom i of cell k. */
typedef struct axial_atom {
  double p[3], u[3], r, k;
  int cell;
  const vxg_atom *atom, *nappe; /* its round face's atom, and a cone's nappe plane's */
} axial_atom;

static void axial_of(const vxv_query *q, int k, int i, axial_atom *y) {
  const vxv_qcell *qc = &q->cell[k];
  const vxg_prim *pr = &qc->pc->cell->prim[qc->prim_of[i]];
  vxg_prim_axis(pr, &qc->pc->to_frame, y->p, y->u, &y->r, &y->k);
  y->cell = k;
  y->atom = &qc->pc->atom[i];
  y->nappe = pr->kind == VXG_CONE ? &qc->pc->atom[i + 1] : NULL;
}

/* 2 when b's curved MIXED atoms are a rod of one cell and a bore of the other, their axes
 * within 20 degrees (rod and bore filled when not NULL); else 0. */
static int rod_in_bore(const vxv_query *q, const vxv_box *b, axial_atom *rod, axial_atom *bore) {
  int ka = -1, ia = -1, kb = -1, ib = -1;
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    for (uint64_t cm = b->mixed[k] & qc->curved; cm; cm &= cm - 1) {
      int i = ctz64(cm), comp = (int)(qc->comp_atoms >> i & 1);
      if (!((qc->axial >> i) & 1) || (comp ? kb : ka) >= 0) {
        return 0;
      }
      *(comp ? &kb : &ka) = k;
      *(comp ? &ib : &ia) = i;
    }
  }
  if (ka < 0 || kb < 0 || ka == kb) {
    return 0;
  }
  axial_atom y[2];
  axial_of(q, ka, ia, &y[0]);
  axial_of(q, kb, ib, &y[1]);
  if (!(fabs(y[0].u[0] * y[1].u[0] + y[0].u[1] * y[1].u[1] + y[0].u[2] * y[1].u[2]) >= RING_COS)) {
    return 0;
  }
  if (rod) {
    *rod = y[0];
    *bore = y[1];
  }
  return 2;
}

int vxv_query_rod_bore(const vxv_query *q) {
  vxv_box b;
  memset(&b, 0, sizeof b);
  for (int k = 0; k < q->ncell; k++) {
    b.mixed[k] = q->cell[k].all;
  }
  return q->ncell == 2 && vxv_box_revolution(q, &b) == 2;
}


int vxv_box_revolution(const vxv_query *q, const vxv_box *b) {
  if (!q->revolution) {
    return 0;
  }
  uint64_t tori = 0, axial = 0;
  for (int k = 0; k < q->ncell; k++) {
    if (b->mixed[k] & q->cell[k].costly) {
      return 0;
    }
    tori |= b->mixed[k] & q->cell[k].tori;
    axial |= b->mixed[k] & q->cell[k].axial;
  }
  if (axial) {
    return rod_in_bore(q, b, NULL, NULL);
  }
  if (!tori || !q->rtol_rule) {
    return 0;
  }
  const vxg_atom *t = NULL;
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    for (uint64_t cm = b->mixed[k] & qc->curved; cm; cm &= cm - 1) {
      int i = ctz64(cm);
      if (!((qc->tori >> i) & 1) || t) {
        return 0;
      }
      t = &qc->pc->atom[i];
    }
  }
  /* a MIXED plane across the axis, within 20 degrees of square to it (RING_COS) */
  static const double ez[3] = {0, 0, 1};
  double u[3];
  vxg_xform_vector_inv(&t->to_local, ez, u);
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    for (uint64_t pm = b->mixed[k] & ~qc->curved; pm; pm &= pm - 1) {
      const vxg_atom *a = &qc->pc->atom[ctz64(pm)];
      const double *g = a->q + 6;
      if (a->kind == VXG_ATOM_QUADRIC &&
          fabs(g[0] * u[0] + g[1] * u[1] + g[2] * u[2]) >=
              RING_COS * sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2])) {
        return 1;
      }
    }
  }
  return 0;
}


int vxv_box_polyhedral(const vxv_query *q, const vxv_box *b) {
  if (!vxv_box_planar(q, b)) {
    return 0;
  }
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    for (uint64_t cm = b->mixed[k] & qc->comp_atoms; cm;) {
      uint64_t pm = qc->pmask[qc->prim_of[__builtin_ctzll(cm)]], in = cm & pm;
      if (in & (in - 1)) {
        return 0; /* a group: the BSP does not take it */
      }
      cm &= ~pm;
    }
  }
  return 1;
}


int vxv_box_inexact(const vxv_query *q, const vxv_box *b) {
  int groups = 0;
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    if (b->mixed[k] & qc->curved) {
      return 1;
    }
    uint64_t cm = b->mixed[k] & qc->comp_atoms;
    while (cm) {
      uint64_t pm = qc->pmask[qc->prim_of[ctz64(cm)]];
      uint64_t in = cm & pm;
      if (in & (in - 1)) {
        groups++; /* a complemented primitive with several MIXED (plane) atoms */
      }
      cm &= ~pm;
    }
  }
  return groups > VXV_MAX_GROUPS;
}


/* Range [*lo, *hi] of the quadratic form q (coefficients A..F) over the box of half-extents
 * ex about 0 (each diagonal term between 0 and its value at the corner, each cross term
 * within +-|coefficient| times the half-extents); *qa = the sum of |coefficients|. */
static void quad_range(const double *q, const double ex[3], double *lo, double *hi, double *qa) {
  *lo = *hi = *qa = 0;
  for (int k = 0; k < 3; k++) {
    double t = q[k] * ex[k] * ex[k];
    *lo += t < 0 ? t : 0;
    *hi += t > 0 ? t : 0;
    *qa += fabs(q[k]);
  }
  for (int k = 3; k < 6; k++) {
    double t = fabs(q[k]) * ex[VXG_SYM_ROW[k]] * ex[VXG_SYM_COL[k]];
    *lo -= t;
    *hi += t;
    *qa += fabs(q[k]);
  }
}


/* Range [*rl, *rh] and mean *rm of the remainder of atom a over the box of half-extents
 * ex centred at c, where f0 = f(c) and g its gradient; for a torus given tq (torus_taylor:
 * the quadratic part tq, the rest within cub), the tighter of the curvature bound and tq's
 * range widened by cub (both rigorous). Returns 0, or -1 when no bound is known. */
static int remainder_range(const vxg_atom *a, const double c[3], const double ex[3], double f0,
                           const double g[3], const double *tq, double cub, double *rl, double *rh,
                           double *rm) {
  double e = vxv_max2(ex[0], vxv_max2(ex[1], ex[2])), e2 = e * e;
  if (a->kind == VXG_ATOM_QUADRIC) {
    const double *q = a->q;
    double lo = 0, hi = 0, qa = 0;
    int plane = q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0 && q[4] == 0 && q[5] == 0;
    if (!plane) { /* a plane's sums stay 0 */
      quad_range(q, ex, &lo, &hi, &qa);
    }
    /* rounding of f0, g and the evaluation of the plane */
    double slack =
        64 * DBL_EPSILON *
        (fabs(f0) + (fabs(g[0]) + fabs(g[1]) + fabs(g[2])) * e + 2 * qa * e2 + fabs(q[9]) +
         (fabs(q[6]) + fabs(q[7]) + fabs(q[8])) * (fabs(c[0]) + fabs(c[1]) + fabs(c[2]) + e));
    *rl = lo - slack;
    *rh = hi + slack;
    *rm = (q[0] * ex[0] * ex[0] + q[1] * ex[1] * ex[1] + q[2] * ex[2] * ex[2]) / 3;
    return 0;
  }
  double rad = sqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]), t;
  if (a->kind == VXG_ATOM_TORUS) {
    double pl[3];
    vxg_xform_point(&a->to_local, c, pl);
    double rho = hypot(pl[0], pl[1]), dist = f0 + a->size[1];
    if (dist - rad > 0 && rho - rad > 0) {
      double m = dist < rho ? dist : rho;
      t = 0.5 * rad * rad / (m - rad);
      t += 64 * DBL_EPSILON * (fabs(f0) + rad + fabs(a->size[0]) + fabs(a->size[1]));
      *rl = -t;
      *rh = t;
      *rm = 0;
      if (tq) {
        double lo, hi, qa;
        quad_range(tq, ex, &lo, &hi, &qa);
        *rl = fmax(*rl, lo - cub);
        *rh = fmin(*rh, hi + cub);
      }
      return 0;
    }
    return -1;
  }
  if (vxg_atom_curvature_bound(a, c, rad, &t) == 0 && t >= 0 && isfinite(t)) {
    *rl = -t;
    *rh = t;
    *rm = 0;
    return 0;
  }
  return -1;
}


/* Volume of a convex polyhedron (fan of each face from a vertex, apex v[0]). */
static double poly_volume(const vxg_poly *p) {
  if (p->nvert == 0) {
    return 0;
  }
  const double *o = p->v[0];
  double v6 = 0;
  for (int f = 0; f < p->nface; f++) {
    const int *fv = p->face[f];
    double a[3] = {p->v[fv[0]][0] - o[0], p->v[fv[0]][1] - o[1], p->v[fv[0]][2] - o[2]};
    for (int i = 1; i + 1 < p->face_n[f]; i++) {
      const double *pb = p->v[fv[i]], *pc = p->v[fv[i + 1]];
      double b[3] = {pb[0] - o[0], pb[1] - o[1], pb[2] - o[2]};
      double c[3] = {pc[0] - o[0], pc[1] - o[1], pc[2] - o[2]};
      v6 += a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
            a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
  }
  return v6 / 6;
}


/* dst = src (only the used parts). */
static void poly_copy(vxg_poly *dst, const vxg_poly *src) {
  dst->nvert = src->nvert;
  dst->nface = src->nface;
  memcpy(dst->v, src->v, (size_t)src->nvert * sizeof src->v[0]);
  memcpy(dst->face_n, src->face_n, (size_t)src->nface * sizeof src->face_n[0]);
  for (int f = 0; f < src->nface; f++) {
    memcpy(dst->face[f], src->face[f], (size_t)src->face_n[f] * sizeof src->face[0][0]);
  }
}


/* Half the Hessian of a torus atom (the distance D to its core circle, minus r) at c (p: c in
 * the torus's frame), as quadric coefficients A..F of the quadratic remainder (world frame).
 * The Hessian of D has eigenvalue 1 / D across the tube in the meridian plane,
 * (rho - R) / (D rho) along the parallel circle and 0 along the gradient. Returns 0, or -1
 * on the axis or the core circle. */
static int torus_hessian(const vxg_atom *a, const double p[3], double q6[6]) {
  double rho = sqrt(p[0] * p[0] + p[1] * p[1]), u = rho - a->size[0];
  double dist = sqrt(u * u + p[2] * p[2]);
  if (!(rho > 0) || !(dist > 0)) {
    return -1;
  }
  /* local frame: n along the gradient, t across the tube, f along the parallel */
  double er[3] = {p[0] / rho, p[1] / rho, 0};
  double nl[3] = {u / dist * er[0], u / dist * er[1], p[2] / dist};
  double fl[3] = {-er[1], er[0], 0};
  double tl[3] = {nl[1] * fl[2] - nl[2] * fl[1], nl[2] * fl[0] - nl[0] * fl[2],
                  nl[0] * fl[1] - nl[1] * fl[0]};
  double t[3], f[3];
  vxg_xform_vector_inv(&a->to_local, tl, t);
  vxg_xform_vector_inv(&a->to_local, fl, f);
  double kt = 0.5 / dist, kf = 0.5 * u / (dist * rho);
  double m[6];
  for (int k = 0; k < 6; k++) {
    int i = VXG_SYM_ROW[k], j = VXG_SYM_COL[k];
    m[k] = kt * t[i] * t[j] + kf * f[i] * f[j];
  }
  q6[0] = m[0];
  q6[1] = m[1];
  q6[2] = m[2];
  q6[3] = 2 * m[3];
  q6[4] = 2 * m[4];
  q6[5] = 2 * m[5];
  return 0;
}


/* The Taylor model of torus atom a (f = D - r, D the distance to the core circle) over the
 * box of half-extents ex about c, f0 = f(c): q6 its half Hessian at c (torus_hessian), and
 * bounds on the rest of the remainder r(y) = f(c + y) - f0 - g.y over the ball of radius
 * rad (the half-diagonal) that holds the box: |r - q| <= *cub, |grad (r - q)| <= *cubg.
 * Along a unit direction, D = |w| with w = (rho - R, z), rho = |(x, y)|, and the derivatives
 * of a norm |v| are bounded by 1, 1 / |v| and k / |v|^2 (k = 2 / sqrt 3 = 3 max t (1 - t^2));
 * as |w'| <= 1, |w''| <= 1 / rho and |w'''| <= k / rho^2, the chain rule gives
 * |D'''| <= T = k / D^2 + 3 / (D rho) + k / rho^2, D and rho at their least over the ball
 * (D_c - rad, rho_c - rad: both must be positive). Taylor's remainders then give
 * |r - q| <= T rad^3 / 6 and |grad (r - q)| <= T rad^2 / 2 (a symmetric trilinear form's
 * norm is its largest value on a unit direction), each widened for the rounding of f0, g
 * and q. Returns 0, or -1 (no model) near the axis or the core circle. */
static int torus_taylor(const vxg_atom *a, const double c[3], const double ex[3], double f0,
                        double q6[6], double *cub, double *cubg) {
  double pl[3];
  vxg_xform_point(&a->to_local, c, pl);
  double rad = sqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]);
  double dm = f0 + a->size[1] - rad, rm = sqrt(pl[0] * pl[0] + pl[1] * pl[1]) - rad;
  if (!(dm > 0) || !(rm > 0) || torus_hessian(a, pl, q6) != 0) {
    return -1;
  }
  const double k = 1.1547006; /* 2 / sqrt(3), rounded up */
  double T = k / (dm * dm) + 3 / (dm * rm) + k / (rm * rm);
  const double *tr = a->to_local.t;
  double scale = fabs(f0) + rad + a->size[0] + a->size[1] + fabs(tr[0]) + fabs(tr[1]) +
                 fabs(tr[2]) + fabs(c[0]) + fabs(c[1]) + fabs(c[2]);
  *cub = T * rad * rad * rad / 6 + 64 * DBL_EPSILON * scale;
  *cubg = T * rad * rad / 2 + 64 * DBL_EPSILON * (1 + scale / dm);
  return isfinite(*cub) && isfinite(*cubg) ? 0 : -1;
}


/* Adds the half-space of atom i of cell k (sign s) to th->hs; returns 0 or -1 when the atom
 * has no remainder bound (the leaf then has no lower polyhedron). A torus with a Taylor
 * model (torus_taylor) takes it as a quadric's (q = qbuf, cub, cubg): its range, its mean
 * plane and third_order's bracket. */
static int add_hs(const vxv_query *q, const vxv_box *b, int k, int i, double s, double f0,
                  const double g[3], vxv_hs *h) {
  const vxg_atom *a = &q->cell[k].pc->atom[i];
  double rl = 0, rh = 0, rm = 0;
  h->cub = h->cubg = 0;
  h->torus = NULL;
  h->atom = a;
  int taylor =
      a->kind == VXG_ATOM_TORUS && torus_taylor(a, b->c, b->e, f0, h->qbuf, &h->cub, &h->cubg) == 0;
  int ok =
      remainder_range(a, b->c, b->e, f0, g, taylor ? h->qbuf : NULL, h->cub, &rl, &rh, &rm) == 0;
  if (q->plane == VXV_PLANE_TANGENT || !ok) {
    rm = 0;
  }
  for (int j = 0; j < 3; j++) {
    h->n[j] = s * g[j];
  }
  h->cell = k;
  h->group = 0;
  h->q = a->kind == VXG_ATOM_QUADRIC ? a->q : NULL;
  if (taylor && ok) {
    h->q = h->qbuf;
    h->torus = a;
    if (q->plane == VXV_PLANE_MEAN) {
      /* the remainder's mean over the box, from its quadratic part */
      const double *ex = b->e;
      rm = (h->qbuf[0] * ex[0] * ex[0] + h->qbuf[1] * ex[1] * ex[1] + h->qbuf[2] * ex[2] * ex[2]) /
           3;
      rm = rm < rl ? rl : (rm > rh ? rh : rm);
    }
  }
  h->s = s;
  h->f0 = f0;
  h->dm = -(s * f0 + s * rm);
  if (ok) {
    /* s r lies in [rl, rh] (s = 1) or [-rh, -rl] (s = -1) */
    double smax = s > 0 ? rh : -rl, smin = s > 0 ? rl : -rh;
    h->dl = -(s * f0 + smax);
    h->dh = -(s * f0 + smin);
    h->use_hi = 1;
  } else {
    h->dl = h->dh = h->dm;
    h->use_hi = 0;
  }
  return ok ? 0 : -1;
}


/* The offset of curved quadric half-space h re-centred on the polygon where its plane meets
 * the clipped leaf (area `area`, int y dA = m1, int y y^T dA = m2, about the leaf's centre
 * c): the mean of the remainder over that polygon instead of over the whole box. The volume
 * between the true surface and a plane is, to first order, the integral of (remainder -
 * offset) / |g| over that polygon, so this offset cancels it. A torus's remainder is not its
 * quadric at c: where m1 is known, its mean comes from the torus's own Taylor model at the
 * polygon's centroid p (f(p), plus its Hessian at p over the polygon's second moments about
 * p; the gradient's term averages to 0), less the plane's f0 + g.(p - c). The polygon lies
 * off c by up to the leaf's half-edge (at the foot of a leaf over a thin contact), and the
 * torus's curvature changes over that offset: the same sign in every leaf of a ring of
 * contact. Kept inside [dl, dh], so the estimate stays inside the bracket. */
static double recentred(const vxv_hs *h, const double c[3], double area, const double m1[3],
                        const double m2[6]) {
  const double *qq = h->q;
  double rm = (qq[0] * m2[0] + qq[1] * m2[1] + qq[2] * m2[2] + qq[3] * m2[3] + qq[4] * m2[4] +
               qq[5] * m2[5]) /
              area;
  if (h->torus && m1) {
    double y[3] = {m1[0] / area, m1[1] / area, m1[2] / area}, p[3], pl[3], qc[6], mc[6];
    for (int k = 0; k < 3; k++) {
      p[k] = c[k] + y[k];
    }
    vxg_xform_point(&h->torus->to_local, p, pl);
    double fp = vxg_atom_eval(h->torus, p, NULL);
    if (isfinite(fp) && torus_hessian(h->torus, pl, qc) == 0) {
      for (int k = 0; k < 6; k++) {
        mc[k] = m2[k] / area - y[VXG_SYM_ROW[k]] * y[VXG_SYM_COL[k]];
      }
      double gy = h->s * (h->n[0] * y[0] + h->n[1] * y[1] + h->n[2] * y[2]);
      rm = fp - h->f0 - gy + qc[0] * mc[0] + qc[1] * mc[1] + qc[2] * mc[2] + qc[3] * mc[3] +
           qc[4] * mc[4] + qc[5] * mc[5];
    }
  }
  double d = -(h->s * h->f0 + h->s * rm);
  return d < h->dl ? h->dl : (d > h->dh ? h->dh : d);
}


/* Generic path (vxg_poly face lists): the faces of p lying on half-space j's plane at
 * offset d; fills area and int y y^T dA, or returns 0 when none. */
static int poly_face_on(const vxg_poly *p, const vxv_hs *h, double d, double e, double *area,
                        double m2[6], double avec[3]) {
  const double *n = h->n;
  double tol = 1e-9 * (fabs(n[0]) + fabs(n[1]) + fabs(n[2])) * e;
  for (int f = 0; f < p->nface; f++) {
    const int *fv = p->face[f];
    int on = 1;
    for (int v = 0; v < 3 && on; v++) {
      const double *x = p->v[fv[v]];
      on = fabs(n[0] * x[0] + n[1] * x[1] + n[2] * x[2] - d) <= tol;
    }
    if (!on) {
      continue;
    }
    *area = 0;
    memset(m2, 0, 6 * sizeof *m2);
    memset(avec, 0, 3 * sizeof *avec);
    const double *a = p->v[fv[0]];
    for (int v = 1; v + 1 < p->face_n[f]; v++) {
      const double *bb = p->v[fv[v]], *c = p->v[fv[v + 1]];
      double u[3] = {bb[0] - a[0], bb[1] - a[1], bb[2] - a[2]};
      double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      double x[3] = {0.5 * (u[1] * w[2] - u[2] * w[1]), 0.5 * (u[2] * w[0] - u[0] * w[2]),
                     0.5 * (u[0] * w[1] - u[1] * w[0])};
      double at = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
      double sm[3] = {a[0] + bb[0] + c[0], a[1] + bb[1] + c[1], a[2] + bb[2] + c[2]};
      *area += at;
      for (int k = 0; k < 3; k++) {
        avec[k] += x[k];
      }
      for (int k = 0; k < 6; k++) {
        int i = VXG_SYM_ROW[k], l = VXG_SYM_COL[k];
        m2[k] += at / 12 * (a[i] * a[l] + bb[i] * bb[l] + c[i] * c[l] + sm[i] * sm[l]);
      }
    }
    return 1;
  }
  return 0;
}


/* Clips a copy of base by the curved half-spaces at offsets d(j) (0: dm, 1: dl, 2: dh). */
static int poly_curved(vxg_poly *p, const vxg_poly *base, const vxv_hs *hs, int nh, int which) {
  int of = 0;
  poly_copy(p, base);
  for (int j = 0; j < nh && p->nvert > 0 && !of; j++) {
    if (hs[j].exact || (which == 2 && !hs[j].use_hi)) {
      continue;
    }
    double d = which == 0 ? hs[j].dm : (which == 1 ? hs[j].dl : hs[j].dh);
    of |= vxg_poly_clip(p, hs[j].n, d) != 0;
  }
  return of;
}


/* The generic integration (vxg_poly): used when the fast path's capacity is exceeded. */
static void leaf_generic(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_hs *hs, int nh,
                         int lo_empty, double out[25]) {
  const double zero[3] = {0, 0, 0}, *e = b->e;
  double boxvol = vxv_box_volume(b), emax = fmax(e[0], fmax(e[1], e[2]));
  vxg_poly *base = &th->base, *p = &th->poly;
  int overflow = 0, ncurved = 0;
  vxg_poly_box(base, zero, e);
  for (int j = 0; j < nh; j++) {
    if (hs[j].exact) {
      if (base->nvert > 0) {
        overflow |= vxg_poly_clip(base, hs[j].n, hs[j].dm) != 0;
      }
    } else {
      ncurved++;
    }
  }
  const vxg_poly *mid = base;
  double area, m2[6], avec[3];
  if (ncurved > 0 && base->nvert > 0) {
    overflow |= poly_curved(p, base, hs, nh, 0);
    mid = p;
    if (q->plane == VXV_PLANE_MEAN && p->nvert > 0 && !overflow) {
      int changed = 0;
      for (int j = 0; j < nh; j++) {
        if (!hs[j].exact && hs[j].q && poly_face_on(p, &hs[j], hs[j].dm, emax, &area, m2, avec) &&
            area > 0) {
          double d = recentred(&hs[j], b->c, area, NULL, m2);
          changed |= d != hs[j].dm;
          hs[j].dm = d;
        }
      }
      if (changed) {
        overflow |= poly_curved(p, base, hs, nh, 0);
      }
    }
  }
  vxg_moments mm;
  vxg_poly_moments(mid, &mm);
  out[0] = mm.m0;
  memcpy(out + 1, mm.m1, sizeof mm.m1);
  memcpy(out + 4, mm.m2, sizeof mm.m2);
  out[12] = out[13] = out[14] = 0;
  for (int j = 0; j < nh; j++) {
    if (hs[j].cell == 0 && poly_face_on(mid, &hs[j], hs[j].dm, emax, &area, m2, avec)) {
      for (int k = 0; k < 3; k++) {
        out[12 + k] += avec[k];
      }
    }
  }
  double lo, hi;
  if (overflow) {
    lo = 0;
    hi = boxvol;
  } else if (ncurved == 0 || base->nvert == 0) {
    lo = hi = mm.m0;
  } else {
    lo = lo_empty ? 0 : (poly_curved(p, base, hs, nh, 1) ? 0 : poly_volume(p));
    hi = poly_curved(p, base, hs, nh, 2) ? boxvol : poly_volume(p);
  }
  out[10] = out[15] = lo;
  out[11] = out[16] = hi;
  out[17] = 1e-12 * boxvol; /* the general polyhedra: a share of the box's volume */
  bounds_box(e, 0, out + 18);
}


/* p's volume, by its faces fan when known (NULL: walked). */
static double cp_vol(const vxv_cpoly *p, const vxv_cpfan *fan) {
  return fan ? vxv_cp_fan_volume(p, fan) : vxv_cp_volume(p);
}


/* Clips *cur by n.y <= d into buf: from *cur into buf while *cur is not buf (no copy
 * first), in buf after that; *cur then points at the result. Returns 0, or -1 when a
 * capacity is exceeded. */
static int cp_clip_into(vxv_cpoly *buf, const vxv_cpoly **cur, const double n[3], double d,
                        int bit) {
  if (*cur == buf) {
    return vxv_cp_clip(buf, n, d, bit);
  }
  int r = vxv_cp_clip_to(buf, *cur, n, d, bit);
  if (r == 0) {
    *cur = buf;
  }
  return r < 0 ? -1 : 0;
}


/* p = base clipped by the curved half-spaces at offsets d(j) (0: dm, 1: dl, 2: dh). The
 * clips are recorded in ch: the next call, at other offsets, moves the recorded result's new
 * vertices alone when its planes cut the same vertices (vxv_cp_rechain), as they mostly do.
 * *fan: the faces of p's topology, or NULL when not known. */
static int cp_curved(vxv_cpchain *ch, vxv_cpoly *p, const vxv_cpoly *base,
                     unsigned long long base_id, const vxv_hs *hs, int nh, int which,
                     const vxv_cpfan **fan) {
  const double *n[VXV_CP_CHAIN] = {NULL};
  double d[VXV_CP_CHAIN] = {0};
  int bit[VXV_CP_CHAIN] = {0}, m = 0;
  *fan = NULL;
  for (int j = 0; j < nh; j++) {
    if (hs[j].group || hs[j].exact || (which == 2 && !hs[j].use_hi)) {
      continue;
    }
    if (m < VXV_CP_CHAIN) {
      n[m] = hs[j].n;
      d[m] = which == 0 ? hs[j].dm : (which == 1 ? hs[j].dl : hs[j].dh);
      bit[m] = 6 + j;
    }
    m++;
  }
  if (vxv_cp_rechain(p, base, base_id, ch, m, n, d, bit) == 0) {
    *fan = p->nv > 0 ? vxv_cp_chain_fan(ch) : NULL; /* an empty p needs no faces */
    return 0;
  }
  int rec = m <= VXV_CP_CHAIN; /* else not recorded (nreq -1) */
  vxv_cp_chain_begin(ch, m, n, bit, base, base_id);
  const vxv_cpoly *cur = base;
  for (int j = 0; j < nh && cur->nv > 0; j++) {
    if (hs[j].group || hs[j].exact || (which == 2 && !hs[j].use_hi)) {
      continue;
    }
    double dj = which == 0 ? hs[j].dm : (which == 1 ? hs[j].dl : hs[j].dh);
    if (rec ? vxv_cp_chain_clip(ch, p, &cur, dj) != 0
            : cp_clip_into(p, &cur, hs[j].n, dj, 6 + j) != 0) {
      return -1;
    }
  }
  if (cur != p) {
    vxv_cp_copy(p, cur);
  }
  if (rec) {
    vxv_cp_chain_end(ch, p);
    *fan = p->nv > 0 ? vxv_cp_chain_fan(ch) : NULL;
  }
  return 0;
}


/* Sum over the subsets S of the groups of (-1)^|S| times the moments (m != NULL: the ten
 * moments and the area vector of cell 0's faces into m[0..9], m[12..14]) or the volume of
 * the polyhedron r clipped by the half-spaces of the groups in S, at offsets `which`
 * (0: dm, 1: dl, 2: dh); groups whose bit is set in `skip` have an empty inside. Returns
 * the signed volume sum, or NAN when a capacity is exceeded. */
static double cp_groups(vxv_thread *th, const vxv_cpoly *r, const vxv_hs *hs, int nh, int ng,
                        int which, unsigned skip, uint64_t cell0_bits, double *m) {
  double vol = 0;
  if (m) {
    memset(m, 0, 15 * sizeof *m);
  }
  for (unsigned S = 0; S < (1u << ng); S++) {
    if (S & skip) {
      continue;
    }
    double sign = (__builtin_popcount(S) & 1) ? -1 : 1;
    const vxv_cpoly *p = r;
    for (int j = 0; j < nh && p->nv > 0; j++) {
      if (hs[j].group && (S >> (hs[j].group - 1)) & 1) {
        double d = which == 0 ? hs[j].dm : (which == 1 ? hs[j].dl : hs[j].dh);
        if (cp_clip_into(&th->cterm, &p, hs[j].n, d, 6 + j) != 0) {
          return NAN;
        }
      }
    }
    if (!m) {
      vol += sign * vxv_cp_volume(p);
      continue;
    }
    double mm[10];
    vol += sign * vxv_cp_moments(p, mm, cell0_bits, th->face);
    for (int k = 0; k < 10; k++) {
      m[k] += sign * mm[k];
    }
    for (uint64_t w = cell0_bits >> 6; w; w &= w - 1) {
      const vxv_cpface *f = &th->face[__builtin_ctzll(w)];
      if (f->found) {
        for (int k = 0; k < 3; k++) {
          m[12 + k] += sign * f->avec[k];
        }
      }
    }
  }
  return vol;
}


/* A curved half-space's figures for third_order: unit normal u, |n|, the half-width delta of
 * the planar enclosures' slab about the mid plane, kappa >= max over the box of
 * |grad r . u| = |2 u^T M y| (M the remainder's matrix; a column's axis, which M does not
 * involve, adds nothing), plus a torus's cubg. */
typedef struct t3_surf {
  double nn, u[3], delta, kappa;
} t3_surf;

static int t3_init(const vxv_box *b, const vxv_hs *h, t3_surf *t) {
  const double *q = h->q;
  t->nn = sqrt(h->n[0] * h->n[0] + h->n[1] * h->n[1] + h->n[2] * h->n[2]);
  if (!(t->nn > 0)) {
    return -1;
  }
  for (int i = 0; i < 3; i++) {
    t->u[i] = h->n[i] / t->nn;
  }
  const double m[3][3] = {{q[0], 0.5 * q[3], 0.5 * q[5]},
                          {0.5 * q[3], q[1], 0.5 * q[4]},
                          {0.5 * q[5], 0.5 * q[4], q[2]}};
  t->kappa = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      t->kappa += 2 * fabs(t->u[i] * m[i][j]) * b->e[j];
    }
  }
  t->kappa = t->kappa * (1 + 1e-12) + h->cubg;
  t->delta = fmax(h->dm - h->dl, h->dh - h->dm) / t->nn;
  return t->kappa < 0.5 * t->nn && isfinite(t->delta) ? 0 : -1;
}


/* Clips *cur to h's slab into buf (cp_clip_into), its planes tagged with bits 6 + bit and
 * 63 (free: h's own plane is not among the polyhedron's, and a leaf has fewer than
 * VXV_CP_PLANES half-spaces). With ch, the clips recorded of *cur (named cur_id) by h's
 * plane alone, the first clip is a re-clip when it cuts the same vertices; with sch, the
 * second is recorded there (re-clipped when the last one's record fits) into spare, and
 * *fan gets the result's faces. Returns the plane mask of the slab, or 0 when a capacity
 * is exceeded. */
static uint64_t t3_slab(vxv_cpoly *buf, const vxv_cpoly **cur, const vxv_hs *h, const t3_surf *t,
                        int bit, vxv_cpchain *ch, unsigned long long cur_id, vxv_cpchain *sch,
                        vxv_cpoly *spare, const vxv_cpfan **fan) {
  double nm[3] = {-h->n[0], -h->n[1], -h->n[2]}, dtop = h->dm + t->delta * t->nn;
  const double *nt[1] = {h->n};
  int bt[1] = {6 + bit};
  if (ch && vxv_cp_rechain(buf, *cur, cur_id, ch, 1, nt, &dtop, bt) == 0) {
    *cur = buf;
  } else if (cp_clip_into(buf, cur, h->n, dtop, 6 + bit) != 0) {
    return 0;
  }
  double dbot = -(h->dm - t->delta * t->nn);
  if (sch) {
    const double *nb[1] = {nm};
    int bb[1] = {63};
    if (vxv_cp_rechain(spare, *cur, 0, sch, 1, nb, &dbot, bb) == 0) {
      *cur = spare;
    } else {
      vxv_cp_chain_begin(sch, 1, nb, bb, *cur, 0);
      if (vxv_cp_chain_clip(sch, spare, cur, dbot) != 0) {
        return 0;
      }
      vxv_cp_chain_end(sch, *cur);
    }
    *fan = (*cur)->nv > 0 ? vxv_cp_chain_fan(sch) : NULL;
  } else if (cp_clip_into(buf, cur, nm, dbot, 63) != 0) {
    return 0;
  }
  return ((uint64_t)1 << (6 + bit)) | ((uint64_t)1 << 63);
}


/* I = int_F sg (r - rm) dA over h's face F (f) = sg int_F r dA - sg rm area, with
 * sg rm = -dm - sg f0; *round gets an allowance for its rounding. */
static double t3_integral(const vxv_hs *h, const vxv_cpface *f, double *round) {
  const double *q = h->q;
  double qm = 0, qa = 0;
  for (int k = 0; k < 6; k++) {
    qm += q[k] * f->m2[k];
    qa += fabs(q[k] * f->m2[k]);
  }
  double c0 = h->dm + h->s * h->f0;
  *round = 1e-9 * (qa + fabs(c0) * f->area);
  return h->s * qm + c0 * f->area;
}


/* A third-order bracket for a leaf whose curved half-spaces, one or two, are quadrics' or
 * tori's (no groups). B is the leaf clipped by its exact planes, M = B and the mid half-spaces
 * {n_i.y <= dm_i} the mid polyhedron (volume vmid), F_i its face on plane i (f[i]: area,
 * int y y^T dA; none: zero). For one surface, u = n / |n| and y = s u + w: the true set is {phi <=
 * 0}, phi = n.y - dm + sg (r(y) - rm), r the quadratic remainder. As |n| > 2 kappa, phi increases
 * along every chord parallel to u. On a chord of a set C whose ends lie outside the slab
 * |n.y - dm| <= delta |n| (where the planar enclosures put the surface), the true length
 * differs from the mid plane's by -sg (r(y_m) - rm) / |n| (y_m: the chord's point on the
 * plane), up to delta kappa / |n|; integrated over the plane's section of C that is -I / |n|,
 * I = int sg (r - rm) dA, exact from a face's second moments. Chords with an end in the slab,
 * within the projection (area P) of the boundary of C inside it, differ by at most 2 delta:
 *   V(C and T) - V(C and P) = -I / |n| +- (2 delta P + delta kappa area / |n|),
 * O(h^5) per leaf where the planar enclosures give O(h^4). Two surfaces: V(B T1 T2) - vmid =
 * [V(B P2 T1) - V(B P2 P1)] + [V(B T1 T2) - V(B T1 P2)]: the first with C = B and P2 (F1
 * exactly, P from the faces of that polyhedron in slab 1); the second with C = B and T1,
 * whose section of plane 2 differs from F2 within slab 1 (area A21, a face of B, slab 1 and
 * P2: an error delta2 A21 in the integral) and whose boundary in slab 2 lies on B's faces or
 * in slabs 1 and 2 (S12, projected whole). A torus's remainder is its Taylor model's
 * quadric q plus a rest within cub (its gradient within cubg, added to kappa): I, from q,
 * is off by at most cub area. Narrows [*lo, *hi] (never widens it). Returns 0,
 * or -1 when not applicable (the bracket unchanged). */
static int third_order(vxv_thread *th, const vxv_box *b, const vxv_hs *hs, int nc, const int *jc,
                       const vxv_cpoly *base, double vmid, const vxv_cpface *f, double *lo,
                       double *hi) {
  t3_surf t[2];
  double centre = vmid, w = 0;
  for (int i = 0; i < nc; i++) {
    if (t3_init(b, &hs[jc[i]], &t[i]) != 0) {
      return -1;
    }
    double round, I = t3_integral(&hs[jc[i]], &f[i], &round);
    centre -= I / t[i].nn;
    w += (round + hs[jc[i]].cub * f[i].area) / t[i].nn; /* a torus's remainder beyond q */
  }
  const vxv_hs *h1 = &hs[jc[0]];
  vxv_cpoly *s = &th->cterm;
  /* surface 1 over C = B (and P2) */
  const vxv_cpoly *cur = base;
  if (nc == 2 && cp_clip_into(s, &cur, hs[jc[1]].n, hs[jc[1]].dm, 6 + jc[1]) != 0) {
    return -1;
  }
  /* one surface: its chain's record re-clips the slab's top, the last leaf's its bottom (into
     th->cpoly, whose polyhedra are integrated) */
  const vxv_cpfan *sfan = NULL;
  uint64_t slab = nc == 1 ? t3_slab(s, &cur, h1, &t[0], jc[0], &th->chain, th->leaf_id,
                                    &th->schain, &th->cpoly, &sfan)
                          : t3_slab(s, &cur, h1, &t[0], jc[0], NULL, 0, NULL, NULL, NULL);
  if (!slab) {
    return -1;
  }
  w += 2 * t[0].delta *
           (sfan ? vxv_cp_fan_proj_faces(cur, sfan, t[0].u, slab)
                 : vxv_cp_proj_faces(cur, t[0].u, slab)) +
       t[0].delta * t[0].kappa * f[0].area / t[0].nn;
  if (nc == 2) {
    /* surface 2 over C = B and T1 */
    const vxv_hs *h2 = &hs[jc[1]];
    cur = base;
    if (!(slab = t3_slab(s, &cur, h2, &t[1], jc[1], NULL, 0, NULL, NULL, NULL))) {
      return -1;
    }
    double band = vxv_cp_proj_faces(cur, t[1].u, slab);
    /* B in slab 1, for S12 and A21 (th->cpoly: the leaf's polyhedra are integrated) */
    const vxv_cpoly *b1 = base;
    if (!t3_slab(&th->cpoly, &b1, h1, &t[0], jc[0], NULL, 0, NULL, NULL, NULL)) {
      return -1;
    }
    cur = b1; /* S12: B in both slabs, every face */
    if (!t3_slab(s, &cur, h2, &t[1], jc[1], NULL, 0, NULL, NULL, NULL)) {
      return -1;
    }
    band += 0.5 * vxv_cp_proj_faces(cur, t[1].u, 0);
    cur = b1; /* A21: plane 2's face of B, slab 1 and P2 */
    if (cp_clip_into(s, &cur, h2->n, h2->dm, 6 + jc[1]) != 0) {
      return -1;
    }
    vxv_cpface *fa = &th->face[jc[1]];
    vxv_cp_faces(cur, (uint64_t)1 << (6 + jc[1]), th->face);
    double a21 = fa->found ? fa->area : 0;
    w += 2 * t[1].delta * band + t[1].delta * t[1].kappa * (f[1].area + a21) / t[1].nn +
         t[1].delta * a21;
  }
  if (!isfinite(centre) || !isfinite(w)) {
    return -1;
  }
  *lo = fmax(*lo, centre - w);
  *hi = fmin(*hi, centre + w);
  return 0;
}


/* Rounding of the vertices and planes (m), the delta of cp_rounding. */
double vxv_vertex_rounding(const vxv_box *b) {
  return 64 * DBL_EPSILON *
         (vxv_max2(fabs(b->c[0]), vxv_max2(fabs(b->c[1]), fabs(b->c[2]))) +
          vxv_max2(b->e[0], vxv_max2(b->e[1], b->e[2])));
}


/* 1 when the clip by h that emptied p (its nv vertices still stored) cleared every vertex
 * by more than their rounding: the exact polyhedron is empty too. */
static int cut_clear(const vxv_cpoly *p, int nv, const vxv_hs *h, const vxv_box *b) {
  double m = vxv_vertex_rounding(b) * sqrt(h->n[0] * h->n[0] + h->n[1] * h->n[1] + h->n[2] * h->n[2]);
  for (int v = 0; v < nv; v++) {
    const double *y = p->pos[v];
    if (!(h->n[0] * y[0] + h->n[1] * y[1] + h->n[2] * y[2] - h->dm > 2 * m)) {
      return 0;
    }
  }
  return 1;
}


/* A bound on the rounding error (m^3) of the volume of any polyhedron the leaf cuts from
 * base (the box clipped by its exact planes: every lower, middle and upper polyhedron and
 * every term of the groups' sums lies in it); nv0: base's vertex count before a clip that
 * emptied it not clearly (cut_clear), else 0. Two sources: each vertex is off the exact
 * crossing of its planes by delta = 64 eps (|c| + e) (the planes' offsets are evaluated at
 * the world centre c; then the clips), which moves the volume by at most the surface area
 * times delta, the area at most that of the polyhedron's bounding box; and each of the fan's
 * 2 (nv + 8) tetrahedra (8: room for the curved clips' vertices) has a determinant of vectors
 * no longer than the bounding box's diagonal D, within 8 eps D^3 of exact. One such term per
 * subset of the groups. It vanishes with the polyhedron, as a share of the box's volume does
 * not. */
static double cp_rounding(const vxv_cpoly *base, int nv0, const vxv_box *b, int ng) {
  int nv = base->nv > 0 ? base->nv : nv0;
  if (nv <= 0) {
    return 0;
  }
  double lo[3], hi[3];
  for (int k = 0; k < 3; k++) {
    lo[k] = hi[k] = base->pos[0][k];
  }
  for (int v = 1; v < nv; v++) {
    for (int k = 0; k < 3; k++) {
      lo[k] = vxv_min2(lo[k], base->pos[v][k]);
      hi[k] = vxv_max2(hi[k], base->pos[v][k]);
    }
  }
  double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
  double area = 2 * (d[0] * d[1] + d[1] * d[2] + d[0] * d[2]);
  double diag = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  double err = area * vxv_vertex_rounding(b) + 16 * (nv + 8) * DBL_EPSILON * diag * diag * diag;
  return err * (double)(1u << ng);
}


double vxv_cp_rounding(const vxv_cpoly *p, const vxv_box *b) {
  return cp_rounding(p, 0, b, 0);
}


void vxv_cp_bounds(const vxv_cpoly *p, double rb[6]) {
  for (int v = 0; v < p->nv; v++) {
    for (int k = 0; k < 3; k++) {
      rb[k] = vxv_min2(rb[k], p->pos[v][k]);
      rb[3 + k] = vxv_max2(rb[3 + k], p->pos[v][k]);
    }
  }
}



/* The volume of the region in the polyhedron p: p's own, or with mesh atoms in the leaf's
 * BSP, that of their pieces (NAN when a capacity is exceeded); *round grows by the BSP's
 * rounding bound. */
static double region_volume(const vxv_query *q, vxv_thread *th, const vxv_box *b,
                            const vxv_cpoly *p, const vxv_cpfan *fan, double *round) {
  if (th->bsp.natom == 0) {
    return cp_vol(p, fan);
  }
  double o[21];
  if (vxv_bsp_integrate(q, th, b, p, 0, 0, o) != 0) {
    return NAN;
  }
  *round += o[13];
  return o[0];
}


/* The fast integration (vxv_cpoly). The region is R minus the union of the groups' insides
 * Q_g, R the box clipped by the constraints (group 0); by inclusion and exclusion its
 * moments are the sum over subsets S of the groups of (-1)^|S| m(R and the Q_g, g in S),
 * each term a convex polyhedron. The lower polyhedra use R's lower half-spaces and the Q_g's
 * upper ones (a bigger hole), the upper ones the reverse. Returns 0, or -1 when a capacity
 * is exceeded. */
static int upper_empty(vxv_thread *th, const vxv_box *b, const vxv_hs *hs, int nh);
static int pair_apart(const vxv_box *b, const vxv_hs *hs, int nh);

/* Half-spaces few enough that the upper polyhedron never exceeds a capacity (a box cut by
 * k planes has at most 8 + 2 k vertices). */
#define FEW_HS 8

/* The order in which leaf_fast clips by hs[0 .. nh) into order: the exact half-spaces (not of a
 * group) first, deepest (least offset from the leaf's centre) first, so that the polyhedron
 * loses most of its vertices early whichever atom a plane comes from; then the others in
 * their order. */
static void clip_order(const vxv_hs *hs, int nh, int *order) {
  int m = 0;
  for (int j = 0; j < nh; j++) {
    if (hs[j].exact && !hs[j].group) {
      int i = m++;
      for (; i > 0 && hs[order[i - 1]].dm > hs[j].dm; i--) {
        order[i] = order[i - 1]; /* stable: equal offsets keep their order */
      }
      order[i] = j;
    }
  }
  for (int j = 0; j < nh; j++) {
    if (!(hs[j].exact && !hs[j].group)) {
      order[m++] = j;
    }
  }
}


/* th->cbase = the box th->cterm clipped by the exact half-spaces not of a group, in clip order
 * (order[0 .. nh)), when at most VXV_CP_CHAIN and none empties it: re-clipped from the record
 * of the last leaf's (th->echain) when its planes cut the same vertices, as neighbouring
 * leaves' mostly do, else clipped and recorded (the same bits either way). Returns 0 (done), 1
 * (not done: more planes, none, or one emptied the box; th->cterm kept), -1 when a capacity
 * is exceeded. */
static int recorded_base(vxv_thread *th, const vxv_box *b, const vxv_hs *hs, int nh,
                         const int *order) {
  const double *n[VXV_CP_CHAIN];
  double d[VXV_CP_CHAIN];
  int bit[VXV_CP_CHAIN], m = 0;
  for (int o = 0; o < nh; o++) {
    int j = order[o];
    if (hs[j].exact && !hs[j].group) {
      if (m == VXV_CP_CHAIN) {
        return 1;
      }
      n[m] = hs[j].n;
      d[m] = hs[j].dm;
      bit[m++] = 6 + j;
    }
  }
  vxv_cpoly *base = &th->cbase;
  const vxv_cpoly *cur = &th->cterm;
  vxv_cpchain *ch = &th->echain;
  if (m == 0) {
    return 1;
  }
  /* the box's positions named by its half-extents (the record's dot products serve a box of
     the same ones) */
  if (th->box_id == 0 || memcmp(th->box_e, b->e, sizeof th->box_e) != 0) {
    memcpy(th->box_e, b->e, sizeof th->box_e);
    th->box_id++;
  }
  if (vxv_cp_rechain(base, cur, th->box_id, ch, m, n, d, bit) == 0 && base->nv > 0) {
    return 0;
  }
  vxv_cp_chain_begin(ch, m, n, bit, cur, th->box_id);
  for (int i = 0; i < m; i++) {
    int nvb = cur->nv;
    if (vxv_cp_chain_clip(ch, base, &cur, d[i]) != 0) {
      return -1;
    }
    if (nvb > 0 && cur->nv == 0) {
      ch->nreq = -1; /* emptied: the caller's clips keep what its bound needs */
      return 1;
    }
  }
  if (cur != base) {
    vxv_cp_copy(base, cur);
  }
  vxv_cp_chain_end(ch, base);
  return 0;
}


/* A leaf's first test, pair_apart, costs a tenth or so of the clips it spares: it is made
 * while it drops leaves often enough (th->apart, up 6 a leaf dropped, down 1 a leaf kept:
 * about one in seven), else on every 8th leaf only, to learn when it drops them again. A leaf
 * it would drop is dropped by upper_empty all the same (its first test): the figures never
 * depend on it, only the work. */
#define APART_CAP 64
#define APART_PROBE 8

static int apart_pays(vxv_thread *th) {
  return th->apart >= 0 || ++th->apart_idle % APART_PROBE == 0;
}


static int apart_counted(vxv_thread *th, int apart) {
  th->apart += apart ? 6 : -1;
  th->apart = th->apart > APART_CAP ? APART_CAP : th->apart < -APART_CAP ? -APART_CAP : th->apart;
  return apart;
}


static int leaf_fast(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_hs *hs, int nh,
                     int ng, unsigned nohi, int lo_empty, int drop_empty, int value_only,
                     double out[25]) {
  int bsp = th->bsp.natom > 0;
  if (nh > VXV_CP_PLANES || (bsp && ng > 0)) {
    return -1;
  }
  th->bsp.bit0 = 6 + nh;
  /* with drop_empty, two half-spaces facing each other across a gap (pair_apart) drop the
     leaf at once: its upper polyhedron would come out empty (their margin lies far beyond
     the clips' rounding) and upper_empty would say so, its first test; tried while it drops
     leaves often enough (apart_pays), else left to upper_empty */
  if (drop_empty && ng == 0 && !bsp && nh <= FEW_HS && apart_pays(th) &&
      apart_counted(th, pair_apart(b, hs, nh))) {
    return 1;
  }
  double bsp_round = 0;
  vxv_cpoly *base = &th->cbase, *p = &th->cpoly;
  const vxv_cpfan *pfan = NULL; /* the faces of p's topology, when known */
  th->leaf_id++; /* base is built anew */
  int ncurved = 0, nv0 = 0;
  uint64_t curved_bits = 0, cell0_bits = 0;
  const vxv_cpoly *cur = &th->cterm; /* the box, clipped into base by the exact planes */
  vxv_cp_box(&th->cterm, b->e);
  int order[VXV_CP_PLANES];
  clip_order(hs, nh, order);
  for (int o = 0; o < nh; o++) {
    int j = order[o];
    if (hs[j].cell == 0) {
      cell0_bits |= (uint64_t)1 << (6 + j);
    }
    if (!hs[j].exact) {
      ncurved++;
    }
    if (!hs[j].exact && !hs[j].group && hs[j].q) {
      curved_bits |= (uint64_t)1 << (6 + j);
    }
  }
  int rc = recorded_base(th, b, hs, nh, order);
  if (rc < 0) {
    return -1;
  }
  for (int o = 0; o < nh && rc; o++) {
    int j = order[o];
    if (hs[j].exact && !hs[j].group) {
      /* from one buffer into the other (base and th->cterm), no copy a clip */
      const vxv_cpoly *src = cur;
      vxv_cpoly *dst = cur == base ? &th->cterm : base;
      int nvb = src->nv, cr = vxv_cp_clip_to(dst, src, hs[j].n, hs[j].dm, 6 + j);
      if (cr < 0) {
        return -1;
      }
      cur = cr == 0 ? dst : src;
      if (nvb > 0 && cur->nv == 0 && !cut_clear(src, nvb, &hs[j], b)) {
        /* emptied within rounding: the bound keeps what was there (in base, nv 0) */
        if (src != base) {
          vxv_cp_copy(base, src);
        }
        base->nv = 0;
        cur = base;
        nv0 = nvb;
      }
    }
  }
  if (rc && cur != base) {
    vxv_cp_copy(base, cur);
  }
  /* the region's bounds (out + 18): the middle polyhedron's and, with a bracket, the upper
     one's, which holds the true region (a leaf's linearised region may stop short of its
     neighbour's where the true one goes on; contact patches are joined by these bounds), when
     a visitor reads them: else the box's own */
  bounds_box(b->e, q->bounds, out + 18);
  /* with drop_empty the upper polyhedron comes first: when it is empty, so is the leaf */
  double hi_first = NAN;
  if (drop_empty && ng == 0 && !bsp && (base->nv == 0 || ncurved > 0)) {
    if (base->nv > 0 && cp_curved(&th->chain, p, base, th->leaf_id, hs, nh, 2, &pfan) != 0) {
      return -1;
    }
    if (base->nv == 0 || p->nv == 0) {
      pfan = NULL; /* upper_empty clips in p */
      if (upper_empty(th, b, hs, nh)) {
        return 1;
      }
    }
    if (base->nv > 0) {
      hi_first = cp_vol(p, pfan);
      if (q->bounds) {
        vxv_cp_bounds(p, out + 18);
      }
    }
  }
  const vxv_cpoly *mid = base;
  if (ncurved > 0 && base->nv > 0) {
    if (cp_curved(&th->chain, p, base, th->leaf_id, hs, nh, 0, &pfan) != 0) {
      return -1;
    }
    mid = p;
    for (int it = 0; it < RECENTRE_ITERS && q->plane == VXV_PLANE_MEAN && p->nv > 0 && curved_bits;
         it++) {
      if (pfan) {
        vxv_cp_fan_faces(p, pfan, curved_bits, th->face);
      } else {
        vxv_cp_faces(p, curved_bits, th->face);
      }
      int changed = 0;
      for (uint64_t w = curved_bits >> 6; w; w &= w - 1) {
        int j = __builtin_ctzll(w);
        if (th->face[j].found && th->face[j].area > 0) {
          double d = recentred(&hs[j], b->c, th->face[j].area, th->face[j].m1, th->face[j].m2);
          changed |= d != hs[j].dm;
          hs[j].dm = d;
        }
      }
      if (!changed) {
        break;
      }
      if (cp_curved(&th->chain, p, base, th->leaf_id, hs, nh, 0, &pfan) != 0) {
        return -1;
      }
    }
  }
  /* a leaf whose curved half-spaces, one or two, are quadrics' (or tori's Taylor models) gets
     a third-order bracket */
  int jc[2], nc = 0;
  for (int j = 0; j < nh && ng == 0 && ncurved <= 2 && !lo_empty && nh < VXV_CP_PLANES; j++) {
    if (!hs[j].exact && hs[j].q && hs[j].use_hi) {
      jc[nc++] = j;
    }
  }
  nc = nc == ncurved && !bsp ? nc : 0;
  /* the curved faces' data feed third_order alone: not gathered when it will not run */
  uint64_t jbit = 0;
  for (int i = 0; i < nc && !q->planar_bracket && !value_only; i++) {
    jbit |= (uint64_t)1 << (6 + jc[i]);
  }
  vxv_cpface fc[2];
  if (jbit) {
    memset(fc, 0, sizeof fc);
  }
  double mm[15];
  if (bsp) {
    double o[21];
    if (vxv_bsp_integrate(q, th, b, mid, 1, cell0_bits, o) != 0) {
      return -1;
    }
    memcpy(mm, o, 10 * sizeof *mm);
    memcpy(mm + 12, o + 10, 3 * sizeof *mm);
    memcpy(out + 18, o + 15, 6 * sizeof *out);
    bsp_round += o[13];
  } else if (ng == 0) {
    if (mid == p && pfan) {
      /* cell 0's faces for their area vector alone, the curved ones' for third_order */
      vxv_cp_fan_moments(mid, pfan, mm, cell0_bits | jbit, cell0_bits & ~jbit, th->face);
    } else {
      vxv_cp_moments(mid, mm, cell0_bits | jbit, th->face);
    }
    for (int i = 0; i < nc && jbit; i++) {
      fc[i] = th->face[jc[i]];
    }
    mm[12] = mm[13] = mm[14] = 0;
    for (uint64_t w = cell0_bits >> 6; w; w &= w - 1) {
      const vxv_cpface *f = &th->face[__builtin_ctzll(w)];
      if (f->found) {
        for (int k = 0; k < 3; k++) {
          mm[12 + k] += f->avec[k];
        }
      }
    }
  } else if (isnan(cp_groups(th, mid, hs, nh, ng, 0, 0, cell0_bits, mm))) {
    return -1;
  }
  if (!bsp && q->bounds) {
    vxv_cp_bounds(mid, out + 18);
  }
  memcpy(out, mm, 10 * sizeof *out);
  memcpy(out + 12, mm + 12, 3 * sizeof *out);
  /* one or two quadrics (or tori) on their mean planes: a third-order value (when the bracket is
     computed, also one that third_order narrows, below) */
  out[24] = nc > 0 && base->nv > 0;
  if (value_only) {
    out[10] = out[11] = out[15] = out[16] = mm[0];
    out[17] = 0;
    return 0;
  }
  double lo, hi;
  if (ncurved == 0 || base->nv == 0) {
    lo = hi = mm[0];
  } else {
    if (lo_empty) {
      lo = 0;
    } else {
      if (cp_curved(&th->chain, p, base, th->leaf_id, hs, nh, 1, &pfan) != 0) {
        return -1;
      }
      if (ng == 0) {
        lo = region_volume(q, th, b, p, pfan, &bsp_round);
      } else {
        lo = cp_groups(th, p, hs, nh, ng, 2, 0, 0, NULL);
      }
    }
    if (!isnan(hi_first)) {
      hi = hi_first;
    } else if (cp_curved(&th->chain, p, base, th->leaf_id, hs, nh, 2, &pfan) != 0) {
      return -1;
    } else {
      if (!bsp && q->bounds) {
        vxv_cp_bounds(p, out + 18);
      }
      hi = ng == 0 ? region_volume(q, th, b, p, pfan, &bsp_round)
                   : cp_groups(th, p, hs, nh, ng, 1, nohi, 0, NULL);
    }
    if (isnan(lo) || isnan(hi)) {
      return -1;
    }
  }
  out[15] = lo;
  out[16] = hi;
  /* the BSP's pieces carry their own rounding (a region that keeps none is empty) */
  out[17] = bsp ? bsp_round : cp_rounding(base, nv0, b, ng);
  out[24] = nc > 0 && mid->nv > 0 && base->nv > 0 && !q->planar_bracket &&
            third_order(th, b, hs, nc, jc, base, mm[0], fc, &lo, &hi) == 0;
  out[10] = lo;
  out[11] = hi;
  return 0;
}


/* For the generic path: each group replaced by its atom of largest value, complemented
 * (the estimate and a lower bound; no upper bound). Compacts hs; returns the new count. */
static int groups_to_heuristic(vxv_hs *hs, int nh, int ng) {
  for (int g = 1; g <= ng; g++) {
    int best = -1;
    for (int j = 0; j < nh; j++) {
      if (hs[j].group == g && (best < 0 || hs[j].f0 > hs[best].f0)) {
        best = j;
      }
    }
    if (best < 0) {
      continue;
    }
    vxv_hs *h = &hs[best];
    double dm = h->dm, dh = h->dh;
    for (int k = 0; k < 3; k++) {
      h->n[k] = -h->n[k];
    }
    /* not (n.y <= d) is -n.y >= -d; its subset uses the bigger inside (dh) */
    h->dm = -dm;
    h->dl = -dh;
    h->dh = -dm;
    h->s = -h->s;
    h->use_hi = 0;
    h->exact = 0;
    h->group = 0;
    h->q = NULL;
  }
  int m = 0;
  for (int j = 0; j < nh; j++) {
    if (hs[j].group == 0) {
      int own = hs[j].q == hs[j].qbuf; /* a torus's quadric moves with it */
      hs[m] = hs[j];
      hs[m].q = own ? hs[m].qbuf : hs[m].q;
      m++;
    }
  }
  return m;
}


/* Value and gradient of atom i of cell k at the centre of the classified box b: for the
 * mesh atom mslot, searched within the bound the box carries. */
static double atom_value(const vxv_qcell *qc, int k, int i, const vxv_box *b, double g[3]) {
  if (i == qc->mslot) {
    return vxg_atom_eval_bounded(&qc->pc->atom[i], b->c, b->mu[k], g);
  }
  return vxg_atom_eval(&qc->pc->atom[i], b->c, g);
}


static int planes_hs(const double *pl, int n, int k, const vxv_box *b, vxv_hs *hs);

/* The planes of convex mesh atom i of cell k over the leaf b as exact half-spaces hs[0 ..),
 * those that cut the box; returns their number, or -1 when the atom must be linearised
 * (too many triangles near the leaf, or no room left among the leaf's half-spaces). An
 * `attempt` (a box that will be split otherwise) is given up early when the ball is large
 * against the mesh's mean triangle. */
static int mesh_planes_hs(const vxv_qcell *qc, int k, int i, const vxv_box *b, int room,
                          int attempt, vxv_hs *hs) {
  double pl[4 * VXV_MESH_PLANES];
  int max = room < VXV_MESH_PLANES ? room : VXV_MESH_PLANES;
  double r = vxv_box_radius(b);
  if (attempt && M_PI * r * r > 4 * max * qc->tri_area[i]) {
    return -1; /* a box to be split anyway unless few (large) triangles are near: the
                  disc of its ball holds 4 max triangles of mean size */
  }
  int n = max > 0 ? vxg_atom_planes(&qc->pc->atom[i], b->c, b->e, max, pl) : -1;
  return n < 0 ? -1 : planes_hs(pl, n, k, b, hs);
}


/* The planes pl[4 j ..] (n . x <= d, query frame, j < n) of cell k as exact half-spaces of
 * the leaf b into hs, those that cut the box, deepest first; returns their number. */
static int planes_hs(const double *pl, int n, int k, const vxv_box *b, vxv_hs *hs) {
  double dj[VXV_NEAR_TRIS];
  int order[VXV_NEAR_TRIS], m = 0;
  for (int j = 0; j < n && j < VXV_NEAR_TRIS; j++) {
    const double *q = pl + 4 * j;
    /* n . (c + y) <= d  is  n . y <= d - n . c */
    double d = q[3] - (q[0] * b->c[0] + q[1] * b->c[1] + q[2] * b->c[2]);
    if (fabs(q[0]) * b->e[0] + fabs(q[1]) * b->e[1] + fabs(q[2]) * b->e[2] < d) {
      continue; /* the whole box is on the plane's inner side: it cuts nothing */
    }
    /* deepest cuts first: the polyhedron loses most of its vertices early (insertion sort
       of the indices, stable: the order stays that of the triangles among equal offsets) */
    int i = m++;
    for (; i > 0 && dj[order[i - 1]] > d; i--) {
      order[i] = order[i - 1];
    }
    order[i] = j;
    dj[j] = d;
  }
  for (int i = 0; i < m; i++) {
    const double *q = pl + 4 * order[i];
    vxv_hs *h = &hs[i];
    memcpy(h->n, q, sizeof h->n);
    h->dm = h->dl = h->dh = dj[order[i]];
    h->cell = k;
    h->use_hi = 1;
    h->exact = 1;
    h->group = 0;
    h->q = NULL;
    h->torus = NULL;
    h->atom = NULL;
    h->s = 1;
    h->f0 = -h->dm;
  }
  return m;
}


/* The half-spaces of every MIXED atom of b into hs; convex mesh atoms as their triangles'
 * planes when `planes` (1; 2: an attempt at an exact leaf, which gives up, returning -1,
 * at the first atom to linearise; 3: the same without the attempt's early refusal of a box
 * large against the mesh's triangles) and when few enough, else linearised. Returns the count;
 * *nlin counts the linearised curved atoms (and groups' stand-ins), *nplanes the meshes'
 * planes. */
static int leaf_halfspaces(const vxv_query *q, const vxv_box *b, vxv_hs *hs, int planes,
                           vxv_bsp *bsp, int *ng_out, unsigned *nohi_out, int *lo_empty_out,
                           int *nlin, int *nplanes) {
  int nh = 0, lo_empty = 0, ng = 0;
  unsigned nohi = 0;
  *nlin = 0;
  *nplanes = 0;
  if (bsp) {
    bsp->ntri = bsp->natom = 0;
    bsp->general = 0;
  }
  for (int k = 0; k < q->ncell; k++) {
    const vxv_qcell *qc = &q->cell[k];
    uint64_t m = b->mixed[k];
    while (m) {
      int i = ctz64(m);
      int p = qc->prim_of[i];
      uint64_t pm = qc->pmask[p];
      double g[3];
      if (!qc->comp[p]) {
        m &= ~((uint64_t)1 << i);
        if (planes && (qc->planar >> i & 1)) {
          int n = mesh_planes_hs(qc, k, i, b, VXV_CP_PLANES - nh, planes == 2, &hs[nh]);
          if (n >= 0) {
            nh += n;
            *nplanes += n;
            continue;
          }
        } else if (planes && bsp && (qc->costly >> i & 1)) {
          double pl[4 * VXV_NEAR_TRIS];
          int npl = 0, rc = vxv_bsp_add_atom(q, b, bsp, k, i, 0, planes == 2, pl, &npl);
          if (rc == 1 && npl <= VXV_CP_PLANES - nh) {
            int n = planes_hs(pl, npl, k, b, &hs[nh]); /* locally convex: its planes */
            nh += n;
            *nplanes += n;
            continue;
          }
          if (rc == 0) {
            *nplanes += 1;
            continue;
          }
        }
        if (planes >= 2 && (qc->curved >> i & 1)) {
          return -1;
        }
        double f0 = atom_value(qc, k, i, b, g);
        if (add_hs(q, b, k, i, 1.0, f0, g, &hs[nh]) != 0) {
          lo_empty = 1;
        }
        hs[nh].exact = !((qc->curved >> i) & 1);
        *nlin += !hs[nh].exact;
        nh++;
        continue;
      }
      /* complemented primitive: its MIXED atoms together */
      uint64_t pa = m & pm;
      m &= ~pm;
      double pl[4 * VXV_NEAR_TRIS];
      int npl;
      if (planes && bsp && pa == (pa & qc->costly) && !(pa & (pa - 1)) &&
          vxv_bsp_add_atom(q, b, bsp, k, i, 1, planes == 2, pl, &npl) == 0) {
        *nplanes += 1; /* a complemented mesh: its outside by the BSP */
        continue;
      }
      if ((pa & (pa - 1)) && ng < VXV_MAX_GROUPS) {
        /* several: a group, integrated by inclusion and exclusion */
        ng++;
        for (uint64_t t = pa; t; t &= t - 1) {
          int j = ctz64(t);
          double f0 = atom_value(qc, k, j, b, g);
          if (add_hs(q, b, k, j, 1.0, f0, g, &hs[nh]) != 0) {
            lo_empty = 1;           /* no bigger hole is known */
            nohi |= 1u << (ng - 1); /* nor a smaller one */
          }
          hs[nh].exact = !((qc->curved >> j) & 1);
          *nlin += !hs[nh].exact;
          hs[nh].group = ng;
          nh++;
        }
        continue;
      }
      int best = -1;
      double bf = -HUGE_VAL, bg[3] = {0, 0, 0};
      for (uint64_t t = pa; t; t &= t - 1) {
        int j = ctz64(t);
        double gj[3], fj = atom_value(qc, k, j, b, gj);
        if (best < 0 || fj > bf) {
          best = j;
          bf = fj;
          memcpy(bg, gj, sizeof bg);
        }
      }
      if (add_hs(q, b, k, best, -1.0, bf, bg, &hs[nh]) != 0) {
        lo_empty = 1;
      }
      hs[nh].exact = !((qc->curved >> best) & 1);
      if (pa & (pa - 1)) {
        hs[nh].use_hi = 0; /* a union of several outsides: no convex superset */
        hs[nh].exact = 0;
      }
      *nlin += !hs[nh].exact;
      nh++;
    }
  }
  *ng_out = ng;
  *nohi_out = nohi;
  *lo_empty_out = lo_empty;
  return nh;
}


/* The superset half-space of h as upper_empty takes it: n . y <= *d, the upper offset
 * widened by a margin for the clipped vertices' rounding; 0 when h has none (a group,
 * several complemented atoms, a zero normal). */
static int upper_offset(const vxv_box *b, const vxv_hs *h, double *d) {
  double n1 = fabs(h->n[0]) + fabs(h->n[1]) + fabs(h->n[2]);
  if (h->group || !h->use_hi || !(n1 > 0)) {
    return 0;
  }
  *d = h->dh + 1e-12 * vxv_max2(b->e[0], vxv_max2(b->e[1], b->e[2])) * n1;
  return 1;
}


/* 1 when two of the superset half-spaces of hs[0 .. nh) whose normals face each other leave
 * nothing of the box b: the sum of the first and |n_1| / |n_2| times the second (whose
 * normals cancel where two surfaces face each other across a gap) is a half-space that
 * misses the box by more than a second margin (Farkas: no point of the box satisfies both).
 * Decides without a clip many boxes between two close surfaces; 0 when it does not decide. */
static int pair_apart(const vxv_box *b, const vxv_hs *hs, int nh) {
  double emax = vxv_max2(b->e[0], vxv_max2(b->e[1], b->e[2]));
  /* each half-space's upper offset and normal's length, once */
  double d[2 * VXG_MAX_ATOMS], len[2 * VXG_MAX_ATOMS];
  int idx[2 * VXG_MAX_ATOMS], m = 0;
  for (int j = 0; j < nh && j < 2 * VXG_MAX_ATOMS; j++) {
    if (upper_offset(b, &hs[j], &d[m])) {
      const double *n = hs[j].n;
      len[m] = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      idx[m++] = j;
    }
  }
  for (int a = 0; a < m; a++) {
    const double *nj = hs[idx[a]].n;
    double dj = d[a], lj = len[a];
    for (int c = a + 1; c < m; c++) {
      const double *nk = hs[idx[c]].n;
      if (nj[0] * nk[0] + nj[1] * nk[1] + nj[2] * nk[2] >= 0) {
        continue; /* only pairs that face each other (others seldom decide) */
      }
      double dk = d[c], w = lj / len[c];
      double reach = 0, n1 = 0; /* the box's reach along -m, m = nj + w nk, and |m|_1 */
      for (int i = 0; i < 3; i++) {
        double mi = nj[i] + w * nk[i];
        reach += fabs(mi) * b->e[i];
        n1 += fabs(nj[i]) + w * fabs(nk[i]);
      }
      if (-reach > dj + w * dk + 1e-12 * emax * n1 && isfinite(w) && isfinite(dj + w * dk)) {
        return 1;
      }
    }
  }
  return 0;
}


/* 1 when the box b clipped by the superset half-space of every one of hs[0 .. nh) that has
 * one (groups and several complemented atoms have none) is empty, each offset widened by a
 * margin for the clipped vertices' rounding: then b holds none of the region. Two that face
 * each other across a gap are tried first (pair_apart), then the clips. Uses th->cterm and
 * th->cpoly. 0 when not decided (no such half-space, a capacity exceeded). */
static int upper_empty(vxv_thread *th, const vxv_box *b, const vxv_hs *hs, int nh) {
  if (pair_apart(b, hs, nh)) {
    return 1;
  }
  /* the box clipped from one buffer into the other (no clip in place); the last clip only
     tells whether it would leave nothing */
  vxv_cpoly *buf[2] = {&th->cterm, &th->cpoly};
  const vxv_cpoly *p = buf[0];
  int nclip = 0, last = -1;
  double d;
  for (int j = 0; j < nh; j++) {
    last = upper_offset(b, &hs[j], &d) ? j : last;
  }
  vxv_cp_box(buf[0], b->e);
  for (int j = 0; j < nh && p->nv > 0; j++) {
    const vxv_hs *h = &hs[j];
    if (!upper_offset(b, h, &d)) {
      continue;
    }
    if (j == last && isfinite(d)) {
      return vxv_cp_clears(p, h->n, d);
    }
    vxv_cpoly *dst = p == buf[0] ? buf[1] : buf[0];
    int rc = isfinite(d) ? vxv_cp_clip_to(dst, p, h->n, d, 6) : -1;
    if (rc < 0) {
      return 0; /* not decided */
    }
    if (rc == 0) {
      p = dst;
    }
    nclip++;
  }
  return nclip >= 1 && p->nv == 0;
}


/* Half-spaces upper_witness takes at most, its active-set steps, and its margin (relative to
 * the box's longest half-edge, as upper_offset's): far beyond the clips' rounding. */
#define WITNESS_MAX 24
#define WITNESS_STEPS 4
#define WITNESS_MARGIN 1e-9

/* A plane of upper_witness: unit normal u, offset t (u . y = t, y relative to the box's
 * centre). */
typedef struct wplane {
  double u[3], t;
} wplane;

/* The point nearest the box's centre on the planes a[0 .. na) into y; -1 when they are
 * nearly dependent. */
static int witness_solve(const wplane *a, int na, double y[3]) {
  const double *p = a[0].u;
  if (na == 1) {
    for (int i = 0; i < 3; i++) {
      y[i] = a[0].t * p[i];
    }
    return 0;
  }
  const double *q = a[1].u;
  if (na == 2) {
    double c = vxg_dot(p, q), det = 1 - c * c;
    if (!(det > 1e-9)) {
      return -1;
    }
    double l0 = (a[0].t - c * a[1].t) / det, l1 = (a[1].t - c * a[0].t) / det;
    for (int i = 0; i < 3; i++) {
      y[i] = l0 * p[i] + l1 * q[i];
    }
    return 0;
  }
  const double *r = a[2].u;
  double qr[3], rp[3], pq[3];
  vxg_cross(q, r, qr);
  vxg_cross(r, p, rp);
  vxg_cross(p, q, pq);
  double det = vxg_dot(p, qr);
  if (!(fabs(det) > 1e-5)) {
    return -1;
  }
  for (int i = 0; i < 3; i++) {
    y[i] = (a[0].t * qr[i] + a[1].t * rp[i] + a[2].t * pq[i]) / det;
  }
  return 0;
}


/* 1 when a point of the box b lies inside the superset half-space n . y <= d of every one of
 * hs[0 .. nh) that has one (upper_offset) and inside the box, each by a margin (WITNESS_MARGIN
 * times the box's half-edge, times |n|_1 for a half-space) that no clip's rounding comes
 * near: the upper polyhedron then holds a ball about it, and upper_empty would find it not
 * empty. Sought by active sets: the point nearest the centre on the planes, moved twice the
 * margin inside, of the constraints it violated last, up to three, one added a step (the
 * most violated per unit of its normal's 1-norm). 0 when none is found (upper_empty
 * decides). */
static int upper_witness(const vxv_box *b, const vxv_hs *hs, int nh) {
  double emax = vxv_max2(b->e[0], vxv_max2(b->e[1], b->e[2])), m = WITNESS_MARGIN * emax;
  const double *n[WITNESS_MAX];
  double d[WITNESS_MAX], r1[WITNESS_MAX]; /* offsets with the margin; 1 / |n|_1 */
  int nc = 0;
  for (int j = 0; j < nh; j++) {
    double dj;
    if (!upper_offset(b, &hs[j], &dj)) {
      continue;
    }
    double n1 = fabs(hs[j].n[0]) + fabs(hs[j].n[1]) + fabs(hs[j].n[2]);
    if (nc >= WITNESS_MAX || !isfinite(dj) || !isfinite(n1)) {
      return 0;
    }
    n[nc] = hs[j].n;
    d[nc] = dj - m * n1;
    r1[nc++] = 1 / n1;
  }
  wplane act[3];
  int na = 0;
  double y[3] = {0, 0, 0};
  for (int it = 0;; it++) {
    int worst = -1;
    double wv = 0;
    for (int k = 0; k < nc; k++) {
      double v = (n[k][0] * y[0] + n[k][1] * y[1] + n[k][2] * y[2] - d[k]) * r1[k];
      if (!(v <= wv)) {
        worst = k;
        wv = v;
      }
    }
    for (int i = 0; i < 3; i++) {
      double v = fabs(y[i]) - (b->e[i] - m);
      if (!(v <= wv)) {
        worst = nc + 2 * i + (y[i] < 0);
        wv = v;
      }
    }
    if (worst < 0) {
      return 1;
    }
    if (it == WITNESS_STEPS || !isfinite(wv)) {
      return 0;
    }
    if (na == 3) {
      act[0] = act[1];
      act[1] = act[2];
      na = 2;
    }
    wplane *w = &act[na++];
    if (worst < nc) {
      const double *nk = n[worst];
      double len = sqrt(nk[0] * nk[0] + nk[1] * nk[1] + nk[2] * nk[2]);
      for (int i = 0; i < 3; i++) {
        w->u[i] = nk[i] / len;
      }
      w->t = (d[worst] - m / r1[worst]) / len;
    } else {
      int i = (worst - nc) / 2;
      double sg = (worst - nc) % 2 ? -1 : 1;
      w->u[0] = w->u[1] = w->u[2] = 0;
      w->u[i] = sg;
      w->t = b->e[i] - 2 * m;
    }
    if (witness_solve(act, na, y) != 0) {
      return 0;
    }
  }
}


/* Keeps b's superset half-spaces hs[0 .. nh) on th for vxv_box_beyond. */
static void keep_sup(vxv_thread *th, const vxv_box *b, const vxv_hs *hs, int nh) {
  th->nsup = 0;
  for (int j = 0; j < nh; j++) {
    double d;
    if (!upper_offset(b, &hs[j], &d)) {
      continue;
    }
    if (th->nsup >= VXV_MAX_SUP || !isfinite(d)) {
      th->nsup = -1;
      return;
    }
    double *s = th->sup[th->nsup++];
    memcpy(s, hs[j].n, 3 * sizeof *s);
    s[3] = d;
  }
  memcpy(th->sup_c, b->c, sizeof th->sup_c);
  memcpy(th->sup_e, b->e, sizeof th->sup_e);
}


unsigned vxv_box_beyond(const vxv_thread *th, const vxv_box *b, const vxv_box *kid, int nk) {
  if (th->nsup <= 0 || memcmp(th->sup_c, b->c, sizeof th->sup_c) != 0 ||
      memcmp(th->sup_e, b->e, sizeof th->sup_e) != 0) {
    return 0;
  }
  double emax = vxv_max2(b->e[0], vxv_max2(b->e[1], b->e[2]));
  unsigned beyond = 0;
  for (int j = 0; j < th->nsup; j++) {
    const double *n = th->sup[j];
    double lim = n[3] + WITNESS_MARGIN * emax * (fabs(n[0]) + fabs(n[1]) + fabs(n[2]));
    if (!(lim < 0)) {
      continue; /* n . y over a child reaches 0 (y = 0, the box's centre, is on its faces) */
    }
    for (int k = 0; k < nk; k++) {
      const vxv_box *c = &kid[k];
      /* the least of n . y over the child, y relative to b's centre */
      double least = 0;
      for (int i = 0; i < 3; i++) {
        least += n[i] * (c->c[i] - b->c[i]) - fabs(n[i]) * c->e[i];
      }
      if (least > lim) {
        beyond |= 1u << k;
      }
    }
  }
  return beyond;
}


int vxv_box_empty(const vxv_query *q, vxv_thread *th, const vxv_box *b) {
  th->nsup = -1;
  int nmixed = 0;
  for (int k = 0; k < q->ncell; k++) {
    for (uint64_t m = b->mixed[k]; m; m &= m - 1) {
      if (q->cell[k].pc->atom[ctz64(m)].kind == VXG_ATOM_MESH) {
        return 0; /* no curvature bound, and a closest-point search saved */
      }
      nmixed++;
    }
  }
  if (nmixed < 2) {
    return 0; /* one surface crossing the box: the classification already says MIXED */
  }
  /* the leaf's own half-spaces; their upper offsets bound supersets of the atoms' insides */
  int ng, lo_empty, nlin, nplanes;
  unsigned nohi;
  vxv_hs *hs = th->hs;
  int nh = leaf_halfspaces(q, b, hs, 0, NULL, &ng, &nohi, &lo_empty, &nlin, &nplanes);
  keep_sup(th, b, hs, nh);
  return !upper_witness(b, hs, nh) && upper_empty(th, b, hs, nh);
}


/* The torus of the revolution rule's leaf as vxg_rod_bore's rod, its axis framing the sums
 * (no bore): 1, or 0 when hs's curved half-space is not one torus kept inside. */
static int torus_input(const vxv_hs *hs, int nh, vxg_rod_bore_in *in, int *jc) {
  int jt = -1;
  for (int j = 0; j < nh; j++) {
    if (!hs[j].exact) {
      const vxg_atom *a = hs[j].atom;
      if (jt >= 0 || !a || a->kind != VXG_ATOM_TORUS || hs[j].s < 0 || hs[j].group) {
        return 0;
      }
      jt = j;
    }
  }
  if (jt < 0) {
    return 0;
  }
  const vxg_atom *a = hs[jt].atom;
  vxg_xform to_query;
  vxg_xform_inverse(&to_query, &a->to_local);
  static const double o[3] = {0, 0, 0}, ez[3] = {0, 0, 1};
  vxg_xform_point(&to_query, o, in->pa);
  vxg_xform_vector(&to_query, ez, in->ua);
  memcpy(in->pb, in->pa, sizeof in->pb);
  memcpy(in->ub, in->ua, sizeof in->ub);
  in->ball = 1;
  in->torus_R = a->size[0];
  in->ra = a->size[1];
  in->rod_owner = hs[jt].cell;
  in->bore_owner = 1 - hs[jt].cell;
  jc[0] = jt;
  return 1;
}


/* The rod and bore of the revolution rule's leaf (rod_in_bore) as vxg_rod_bore's, jc[0 ..
 * 3) the half-spaces they stand for (-1: none): 1, or 0 when hs's curved half-spaces are
 * not they. A group (a complemented primitive with several MIXED atoms) is taken only as a
 * countersink: the bore cone's face and its nappe's plane, whose outside vxg_rod_bore
 * integrates. */
static int rod_bore_input(const vxv_query *q, const vxv_box *b, const vxv_hs *hs, int nh,
                          vxg_rod_bore_in *in, int *jc) {
  axial_atom rod, bore;
  if (!rod_in_bore(q, b, &rod, &bore)) {
    return 0;
  }
  int n = 0, ncurved = 0;
  for (int j = 0; j < nh; j++) {
    if (hs[j].group && hs[j].atom != bore.atom && (!bore.nappe || hs[j].atom != bore.nappe)) {
      return 0;
    }
    if (!hs[j].exact || hs[j].group) {
      if (n == 3) {
        return 0;
      }
      ncurved += !hs[j].exact;
      jc[n++] = j;
    }
  }
  memcpy(in->pa, rod.p, sizeof in->pa);
  memcpy(in->ua, rod.u, sizeof in->ua);
  in->ra = rod.r;
  in->ka = rod.k;
  in->rod_owner = rod.cell;
  memcpy(in->pb, bore.p, sizeof in->pb);
  memcpy(in->ub, bore.u, sizeof in->ub);
  in->rb = bore.r;
  in->kb = bore.k;
  in->bore_owner = bore.cell;
  return ncurved == 2;
}


/* The revolution rule (vxv_box_revolution's reach): the leaf integrated about an axis by
 * vxg_rod_bore. A torus (kept inside) with planes about its own axis: in each half-plane
 * through it the torus is its tube's circle and every plane a line. A rod and a bore, all
 * else planes, about the bore's axis: the bore is a line there, the rod a conic. The trace
 * is integrated in closed form across and by adaptive Gauss-Kronrod along the angle, to 1e-2
 * of rtol of the leaf's volume (1e-6 under the h_min rule). Its moments, area vector, region
 * bounds (when asked) and 16 times the quadrature's estimate (its error estimate, and its
 * moments' width) replace the linearised leaf's, which is then not refined: 1. Its bracket
 * becomes the quadrature's (16 times its estimate and rounding) cut to the polyhedra's, no
 * longer certified ([0, 0] when it finds no region); when the quadrature falls outside the
 * polyhedra's or does not converge within its budget, 0 (the leaf unchanged). */
static int revolution_leaf(const vxv_query *q, const vxv_box *b, const vxv_hs *hs, int nh,
                           int revol, vxv_leaf *l) {
  vxg_rod_bore_in in;
  memset(&in, 0, sizeof in);
  int jc[3] = {-1, -1, -1};
  if (nh > VXG_RB_MAX_PLANES + revol ||
      !(revol == 1 ? torus_input(hs, nh, &in, jc) : rod_bore_input(q, b, hs, nh, &in, jc))) {
    return 0;
  }
  for (int j = 0; j < nh; j++) {
    if (j == jc[0] || j == jc[1] || j == jc[2]) {
      continue;
    }
    const double *n = hs[j].n;
    double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(nn > 0)) {
      return 0;
    }
    vxg_rb_plane *p = &in.plane[in.nplane++];
    for (int k = 0; k < 3; k++) {
      p->n[k] = n[k] / nn;
    }
    p->d = (hs[j].dm + n[0] * b->c[0] + n[1] * b->c[1] + n[2] * b->c[2]) / nn;
    p->owner = hs[j].cell;
  }
  for (int k = 0; k < 3; k++) { /* the box cut to the region's: a tighter frame, fewer events */
    in.box[k] = fmax(b->c[k] - b->e[k], q->rlo[k]);
    in.box[3 + k] = fmin(b->c[k] + b->e[k], q->rhi[k]);
    if (!(in.box[k] <= in.box[3 + k])) {
      return 0; /* beyond the region's box: left to the linearised leaf */
    }
  }
  in.rtol = q->rtol_rule ? 1e-2 * q->rtol : REVOLUTION_REL;
  in.atol = REVOLUTION_TOUCH * vxv_box_volume(b);
  in.want_box = q->quad_bounds; /* the region's bounds, for a visitor (penetration brackets) */
  vxg_rod_bore_out out;
  if (vxg_rod_bore(&in, &out) != 0 || !(out.v >= l->lo && out.v <= l->hi)) {
    return 0;
  }
  if (q->quad_bounds) {
    for (int k = 0; k < 6; k++) {
      l->rb[k] = out.box[k] - b->c[k % 3];
    }
  }
  /* its bracket, the fast path's (the frame's rounding: the leaf's coordinates and the query
     frame's origin's), cut to the polyhedra's */
  double ext = fabs(b->c[0]) + fabs(b->c[1]) + fabs(b->c[2]) + b->e[0] + b->e[1] + b->e[2] + in.ra +
               in.rb + q->ref_size;
  double hw = vxv_quad_halfwidth(&out, 8 * DBL_EPSILON * ext);
  l->lo = fmax(l->lo, out.v - hw);
  l->hi = fmin(l->hi, out.v + hw);
  double d[3] = {out.g[0] - b->c[0], out.g[1] - b->c[1], out.g[2] - b->c[2]};
  l->m[0] = out.v;
  for (int k = 0; k < 3; k++) {
    l->m[1 + k] = out.v * d[k];
    l->area[k] = out.area[k];
  }
  for (int k = 0; k < 6; k++) {
    l->m[4 + k] = out.cm[k] + out.v * d[VXG_SYM_ROW[k]] * d[VXG_SYM_COL[k]];
  }
  l->est = l->pgap = 16 * out.err;
  l->order3 = 0;
  return 1;
}


/* vxv_leaf_eval, with drop_empty vxv_leaf_eval_kept, with value_only vxv_leaf_eval_value;
 * or_split: as vxv_leaf_eval_kept, but -2 (l unspecified) as soon as the leaf is known to be
 * inexact: at the first mesh atom that cannot be taken exactly, before the others are
 * gathered (vxv_leaf_eval_or_split). */
static int leaf_eval(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l,
                     int only_exact, int drop_empty, int value_only, int or_split) {
  double boxvol = vxv_box_volume(b);
  int ng = 0, lo_empty = 0, nlin = 0, nplanes = 0;
  unsigned nohi = 0;
  vxv_hs *hs = th->hs;
  int revol = vxv_box_revolution(q, b);
  if (only_exact && !vxv_box_planar(q, b) && !revol) {
    return 0;
  }
  int planes = only_exact && !revol ? 2 : (or_split ? 3 : 1); /* leaf_halfspaces's modes */
  int nh = leaf_halfspaces(q, b, hs, planes, &th->bsp, &ng, &nohi, &lo_empty, &nlin, &nplanes);
  if (only_exact && (nh < 0 || nlin > revol)) {
    return 0;
  }
  if (or_split && nh < 0) {
    return -2; /* a mesh atom with too many triangles near: inexact, split */
  }
  if (or_split && nlin > 0 && nplanes > 0) {
    return -2; /* inexact, and no emptiness test (that needs nplanes 0): split */
  }
  l->b = *b;
  double out[25]; /* out[24] 1: a third-order value (l->order3), set by either path */
  int exact = nlin == 0;
  int rc = leaf_fast(q, th, b, hs, nh, ng, nohi, lo_empty, drop_empty && nplanes == 0, value_only,
                     out);
  if (rc > 0) {
    return -1;
  }
  if (rc != 0) {
    if ((only_exact || or_split) && nplanes > 0) {
      return or_split ? -2 : 0; /* linearised below: inexact */
    }
    if (nplanes > 0) {
      /* the meshes' planes exceeded a capacity: linearise the meshes instead */
      nh = leaf_halfspaces(q, b, hs, 0, &th->bsp, &ng, &nohi, &lo_empty, &nlin, &nplanes);
      exact = nlin == 0;
    }
    /* the fast path changed hs[].dm only by re-centring, which the generic path redoes */
    nh = groups_to_heuristic(hs, nh, ng);
    out[24] = 0;
    leaf_generic(q, th, b, hs, nh, lo_empty, out);
  }
  memcpy(l->m, out, sizeof l->m);
  memcpy(l->area, out + 12, sizeof l->area);
  memcpy(l->rb, out + 18, sizeof l->rb);
  double mid = out[0], slack = out[17], r[4];
  for (int k = 0; k < 2; k++) {
    double lo = out[k ? 15 : 10], hi = out[k ? 16 : 11];
    lo = (lo < mid ? lo : mid) - slack;
    hi = (hi > mid ? hi : mid) + slack;
    r[2 * k] = lo > 0 ? lo : 0;
    r[2 * k + 1] = hi < boxvol ? hi : boxvol;
  }
  l->lo = r[0];
  l->hi = r[1];
  l->pgap = r[3] - r[2];
  l->order3 = !exact && out[24] != 0;
  l->est = exact ? 0 : l->pgap;
  l->exact = exact;
  l->quad = 0;
  if (!exact && revol && !value_only && ng <= (revol == 2) && th->bsp.natom == 0 && nlin == revol) {
    l->exact = l->quad = revolution_leaf(q, b, hs, nh, revol, l);
  }
  l->apart = th->bsp.natom > 0 && th->bsp.nparts > 1;
  l->dshare = 0;
  l->made = 0;
  return l->exact;
}


int vxv_leaf_eval(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l,
                  int only_exact) {
  return leaf_eval(q, th, b, l, only_exact, 0, 0, 0);
}


int vxv_leaf_eval_kept(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l) {
  return leaf_eval(q, th, b, l, 0, 1, 0, 0);
}


int vxv_leaf_eval_or_split(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l) {
  return leaf_eval(q, th, b, l, 0, 1, 0, 1);
}


int vxv_leaf_eval_value(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l) {
  return leaf_eval(q, th, b, l, 0, 0, 1, 0);
}
