/* cell.c: what vxg_cell_finish derives from a cell's primitives: convexity, the hull and
 * the bounding box; and bounding boxes of posed cells.
 *
 * Derived data (geom.h, vxg_cell):
 *  - convex: 1 only when every primitive is a convex set (proved from its kind and, for a
 *    general quadric, from the signs of its matrix's eigenvalues), so the intersection is;
 *  - hull: a convex superset of the cell with a closed-form support (support.c). Candidates
 *    are every bounded primitive (sphere, ellipsoid, box, positive definite quadric, torus,
 *    mesh: the hull of its vertices when convex, else its bounding box),
 *    the recognised combinations (cylinder + perpendicular caps = finite cylinder, cone +
 *    perpendicular caps = frustum, sphere + half-space = segment) and the bounding box of a
 *    polyhedral outer approximation of the cell; the smallest by volume wins. exact = 1 only
 *    when the candidate is provably the cell itself;
 *  - aabb: the intersection of every candidate's box and of the polyhedron's box, in the
 *    cell frame, padded by a few rounding units so that it always contains the cell.
 * The polyhedron starts from the candidates' box (or, with no bounded candidate, from a cube
 * of half-size CUBE) and is clipped by outer planes of the convex primitives: half-spaces,
 * slabs and boxes exactly, a cylinder by a circumscribed NGON-gon prism, a cone by a
 * circumscribed pyramid, spheres, ellipsoids and tori by their boxes. If it still reaches
 * the cube, no finite box holds the cell: it is unbounded. An empty polyhedron or box means
 * the cell is provably empty. Both are errors, and leave the cell with the cube as its
 * hull and box so that later queries stay conservative. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "geom/geom.h"

/* Half-size of the starting cube: primitives' coordinates and lengths are at most
 * VXG_MAX_LENGTH each, and a move adds up to as much again, so a bounded cell lies well
 * within four times that. */
#define CUBE (4.0 * VXG_MAX_LENGTH)
#define NGON 32 /* sides of the prisms and pyramids about cylinders and cones */
#define MAX_PLANES (VXG_MAX_PRIMS * (NGON + 2)) /* every cone at full count */
/* Two unit normals closer than this (|n x a|) count as parallel for caps. */
#define PARALLEL_TOL 1e-9

typedef struct plane {
  double n[3], d; /* n.x <= d in the cell frame */
  int prim;       /* source primitive */
  int exact;      /* 1: a face of the primitive, not an outer approximation */
} plane;

typedef struct finish_ctx {
  vxg_cell *c;
  int nplane;
  /* best hull so far, its volume and the intersection of every candidate's box */
  int have_best;
  vxg_hull best;
  double best_vol;
  double box[6];
  int have_box;
  int empty;
  plane pl[MAX_PLANES]; /* last: only the fields above are cleared */
} finish_ctx;


/* ---------------------------------------------------------------------------------------
 * Small linear algebra */

/* Eigen-decomposition of the symmetric 3x3 m (row-major) by cyclic Jacobi rotations:
 * m = V diag(w) V^T with V's columns the eigenvectors (v[3 * i + k]: row i, column k). */
static void sym3_eigen(const double m[9], double w[3], double v[9]) {
  double a[9];
  memcpy(a, m, sizeof a);
  for (int i = 0; i < 9; i++) {
    v[i] = (i % 4 == 0) ? 1.0 : 0.0;
  }
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = fabs(a[1]) + fabs(a[2]) + fabs(a[5]);
    double diag = fabs(a[0]) + fabs(a[4]) + fabs(a[8]);
    if (off <= 1e-300 || off <= 1e-17 * diag) {
      break;
    }
    for (int p = 0; p < 2; p++) {
      for (int q = p + 1; q < 3; q++) {
        double apq = a[3 * p + q];
        if (apq == 0) {
          continue;
        }
        double theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
        double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
        double c = 1 / sqrt(t * t + 1), s = t * c;
        /* a <- J^T a J with J the rotation in the (p, q) plane */
        for (int k = 0; k < 3; k++) {
          double akp = a[3 * k + p], akq = a[3 * k + q];
          a[3 * k + p] = c * akp - s * akq;
          a[3 * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) {
          double apk = a[3 * p + k], aqk = a[3 * q + k];
          a[3 * p + k] = c * apk - s * aqk;
          a[3 * q + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; k++) {
          double vkp = v[3 * k + p], vkq = v[3 * k + q];
          v[3 * k + p] = c * vkp - s * vkq;
          v[3 * k + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  w[0] = a[0];
  w[1] = a[4];
  w[2] = a[8];
}


/* A right-handed orthonormal frame (columns u, v, n) whose third axis is the unit n. */
static void frame_from_axis(const double n[3], double r[9]) {
  double h[3] = {0, 0, 0};
  int k = fabs(n[0]) <= fabs(n[1]) ? (fabs(n[0]) <= fabs(n[2]) ? 0 : 2)
                                   : (fabs(n[1]) <= fabs(n[2]) ? 1 : 2);
  h[k] = 1;
  double u[3] = {h[1] * n[2] - h[2] * n[1], h[2] * n[0] - h[0] * n[2], h[0] * n[1] - h[1] * n[0]};
  double un = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (int i = 0; i < 3; i++) {
    u[i] /= un;
  }
  double v[3] = {n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]};
  for (int i = 0; i < 3; i++) {
    r[3 * i] = u[i];
    r[3 * i + 1] = v[i];
    r[3 * i + 2] = n[i];
  }
}


/* Matrix of a quadric (row-major) from its coefficients. */
static void quadric_matrix(const double q[10], double m[9]) {
  m[0] = q[0];
  m[4] = q[1];
  m[8] = q[2];
  m[1] = m[3] = 0.5 * q[3];
  m[5] = m[7] = 0.5 * q[4];
  m[2] = m[6] = 0.5 * q[5];
}


/* What a quadric {f <= 0} is, from its matrix's eigenvalues. */
typedef struct quadric_info {
  double w[3], v[9]; /* eigenvalues and eigenvectors (columns), right-handed */
  int linear;        /* zero matrix */
  int psd, pd, nsd;  /* positive semi-definite, definite, negative semi-definite */
  /* PSD with no linear term along the null space: an ellipsoid (rank 3), an elliptic
   * cylinder (rank 2) or a slab (rank 1) about x0 with semi-axes s over the rank axes */
  int cylindrical;
  double x0[3], s[3], k;
  int rank_axis[3], rank;
} quadric_info;


static void quadric_analyse(const double q[10], quadric_info *qi) {
  memset(qi, 0, sizeof *qi);
  double m[9];
  quadric_matrix(q, m);
  sym3_eigen(m, qi->w, qi->v);
  /* make V a rotation */
  const double *v = qi->v;
  double det = v[0] * (v[4] * v[8] - v[5] * v[7]) - v[1] * (v[3] * v[8] - v[5] * v[6]) +
               v[2] * (v[3] * v[7] - v[4] * v[6]);
  if (det < 0) {
    for (int i = 0; i < 3; i++) {
      qi->v[3 * i + 2] = -qi->v[3 * i + 2];
    }
  }
  double wmax = fmax(fabs(qi->w[0]), fmax(fabs(qi->w[1]), fabs(qi->w[2])));
  double tol = 1e-12 * wmax;
  qi->linear = wmax == 0;
  qi->psd = qi->w[0] >= -tol && qi->w[1] >= -tol && qi->w[2] >= -tol;
  qi->nsd = qi->w[0] <= tol && qi->w[1] <= tol && qi->w[2] <= tol;
  qi->pd = !qi->linear && qi->w[0] > tol && qi->w[1] > tol && qi->w[2] > tol;
  if (!qi->psd || qi->linear) {
    return;
  }
  /* in eigen coordinates y = V^T x: f = sum w_i y_i^2 + beta.y + c */
  double beta[3], bn = sqrt(q[6] * q[6] + q[7] * q[7] + q[8] * q[8]);
  for (int k = 0; k < 3; k++) {
    beta[k] = qi->v[k] * q[6] + qi->v[3 + k] * q[7] + qi->v[6 + k] * q[8];
  }
  double y0[3] = {0, 0, 0}, kk = -q[9];
  for (int k = 0; k < 3; k++) {
    if (qi->w[k] > tol) {
      y0[k] = -beta[k] / (2 * qi->w[k]);
      kk += qi->w[k] * y0[k] * y0[k];
      qi->rank_axis[qi->rank++] = k;
    } else if (fabs(beta[k]) > 1e-10 * bn) {
      return; /* a paraboloid-like set: no closed outer planes here */
    }
  }
  qi->cylindrical = 1;
  qi->k = kk;
  for (int i = 0; i < 3; i++) {
    qi->x0[i] = qi->v[3 * i] * y0[0] + qi->v[3 * i + 1] * y0[1] + qi->v[3 * i + 2] * y0[2];
  }
  for (int j = 0; j < qi->rank; j++) {
    int k = qi->rank_axis[j];
    qi->s[k] = kk > 0 ? sqrt(kk / qi->w[k]) : 0;
  }
}


/* ---------------------------------------------------------------------------------------
 * Convexity */

static int prim_convex(const vxg_prim *p) {
  switch (p->kind) {
    case VXG_HALFSPACE:
      return 1; /* its complement is an open half-space */
    case VXG_SLAB:
    case VXG_BOX:
    case VXG_SPHERE:
    case VXG_ELLIPSOID:
    case VXG_CYLINDER:
    case VXG_CONE:
      return !p->complement;
    case VXG_MESH: {
      /* a convex mesh (vxg_mesh_info.convex) bounds a convex set; its complement is not */
      vxg_mesh_info mi;
      if (p->complement || !p->mesh) {
        return 0;
      }
      vxg_mesh_get_info(p->mesh, &mi);
      return mi.convex;
    }
    case VXG_QUADRIC: {
      /* {f <= 0} is convex for a PSD matrix; {f > 0} = {-f < 0} for a NSD one */
      quadric_info qi;
      quadric_analyse(p->param, &qi);
      return p->complement ? qi.nsd : qi.psd;
    }
    default:
      return 0;
  }
}


/* ---------------------------------------------------------------------------------------
 * Outer planes of the convex primitives */

static void add_plane(finish_ctx *fc, int prim, const double nl[3], double dl, int exact) {
  if (fc->nplane >= MAX_PLANES) {
    return; /* dropping a plane keeps a superset */
  }
  const vxg_xform *mv = &fc->c->prim[prim].move;
  plane *pl = &fc->pl[fc->nplane++];
  vxg_xform_vector(mv, nl, pl->n);
  pl->d = dl + pl->n[0] * mv->t[0] + pl->n[1] * mv->t[1] + pl->n[2] * mv->t[2];
  pl->prim = prim;
  pl->exact = exact;
}


/* Planes about an ellipsoidal set centred at x0 with semi-axes s along V's rank axes (prim
 * frame): two per axis, plus NGON about a two-axis section. */
static void add_quadric_planes(finish_ctx *fc, int prim, const quadric_info *qi) {
  for (int j = 0; j < qi->rank && j < 3; j++) {
    int k = qi->rank_axis[j];
    double ax[3] = {qi->v[k], qi->v[3 + k], qi->v[6 + k]};
    double c = ax[0] * qi->x0[0] + ax[1] * qi->x0[1] + ax[2] * qi->x0[2];
    double neg[3] = {-ax[0], -ax[1], -ax[2]};
    add_plane(fc, prim, ax, c + qi->s[k], 0);
    add_plane(fc, prim, neg, -c + qi->s[k], 0);
  }
  if (qi->rank == 2) {
    int a = qi->rank_axis[0], b = qi->rank_axis[1];
    for (int i = 0; i < NGON; i++) {
      double th = 2 * M_PI * (i + 0.5) / NGON, ca = cos(th), sa = sin(th);
      double n[3];
      for (int r = 0; r < 3; r++) {
        n[r] = ca * qi->v[3 * r + a] + sa * qi->v[3 * r + b];
      }
      double h = n[0] * qi->x0[0] + n[1] * qi->x0[1] + n[2] * qi->x0[2] +
                 sqrt(qi->s[a] * qi->s[a] * ca * ca + qi->s[b] * qi->s[b] * sa * sa);
      add_plane(fc, prim, n, h, 0);
    }
  }
}


static void prim_planes(finish_ctx *fc, int i) {
  const vxg_prim *p = &fc->c->prim[i];
  const double *v = p->param;
  if (p->kind == VXG_HALFSPACE) {
    double s = p->complement ? -1 : 1; /* the closure of the complement is the flip */
    const double n[3] = {s * v[0], s * v[1], s * v[2]};
    add_plane(fc, i, n, s * v[3], 1);
    return;
  }
  if (p->complement) {
    return;
  }
  switch (p->kind) {
    case VXG_SLAB: {
      double n[3] = {0, 0, 0};
      n[(int)v[0]] = 1;
      add_plane(fc, i, n, v[2], 1);
      n[(int)v[0]] = -1;
      add_plane(fc, i, n, -v[1], 1);
      break;
    }
    case VXG_BOX:
    case VXG_SPHERE:
    case VXG_ELLIPSOID:
    case VXG_TORUS: {
      double e[3];
      if (p->kind == VXG_BOX) {
        e[0] = 0.5 * v[0], e[1] = 0.5 * v[1], e[2] = 0.5 * v[2];
      } else if (p->kind == VXG_SPHERE) {
        e[0] = e[1] = e[2] = v[0];
      } else if (p->kind == VXG_ELLIPSOID) {
        e[0] = v[0], e[1] = v[1], e[2] = v[2];
      } else {
        e[0] = e[1] = v[0] + v[1], e[2] = v[1];
      }
      for (int k = 0; k < 3; k++) {
        double n[3] = {0, 0, 0};
        n[k] = 1;
        add_plane(fc, i, n, e[k], p->kind == VXG_BOX);
        n[k] = -1;
        add_plane(fc, i, n, e[k], p->kind == VXG_BOX);
      }
      break;
    }
    case VXG_MESH:
      /* the mesh's bounding box (mesh frame) */
      if (p->mesh) {
        vxg_mesh_info mi;
        vxg_mesh_get_info(p->mesh, &mi);
        for (int k = 0; k < 3; k++) {
          double n[3] = {0, 0, 0};
          n[k] = 1;
          add_plane(fc, i, n, mi.aabb[3 + k], 0);
          n[k] = -1;
          add_plane(fc, i, n, -mi.aabb[k], 0);
        }
      }
      break;
    case VXG_CYLINDER:
      /* tangent planes: the circumscribed polygon holds the circle */
      for (int k = 0; k < NGON; k++) {
        double th = 2 * M_PI * k / NGON;
        const double n[3] = {cos(th), sin(th), 0};
        add_plane(fc, i, n, v[0], 0);
      }
      break;
    case VXG_CONE: {
      /* planes through the apex tangent along a generator: (cos, sin, -tan a).x <= 0 */
      double t = tan(v[0]);
      for (int k = 0; k < NGON; k++) {
        double th = 2 * M_PI * k / NGON;
        const double n[3] = {cos(th), sin(th), -t};
        add_plane(fc, i, n, 0, 0);
      }
      const double down[3] = {0, 0, -1};
      add_plane(fc, i, down, 0, 1);
      break;
    }
    case VXG_QUADRIC: {
      quadric_info qi;
      quadric_analyse(v, &qi);
      if (qi.linear) {
        double bn = sqrt(v[6] * v[6] + v[7] * v[7] + v[8] * v[8]);
        if (bn > 0) {
          const double n[3] = {v[6], v[7], v[8]};
          add_plane(fc, i, n, -v[9], 1);
        } else if (v[9] > 0) {
          fc->empty = 1; /* the constant c > 0 holds nowhere */
        }
      } else if (qi.cylindrical) {
        if (qi.k < 0 || (qi.k == 0 && qi.rank == 3)) {
          fc->empty = 1;
        } else {
          add_quadric_planes(fc, i, &qi);
        }
      }
      break;
    }
    default:
      break;
  }
}


/* ---------------------------------------------------------------------------------------
 * Hull candidates */

/* Widens a box by `rel` of its extent plus rounding units of its coordinates. */
static void pad_box(double box[6], double rel) {
  for (int i = 0; i < 3; i++) {
    double ext = box[3 + i] - box[i];
    double mag = fmax(fabs(box[i]), fabs(box[3 + i]));
    double pad = rel * fabs(ext) + 16 * DBL_EPSILON * (mag + fabs(ext));
    box[i] -= pad;
    box[3 + i] += pad;
  }
}


static void box_intersect(finish_ctx *fc, const double b[6]) {
  if (!fc->have_box) {
    memcpy(fc->box, b, sizeof fc->box);
    fc->have_box = 1;
    return;
  }
  for (int i = 0; i < 3; i++) {
    fc->box[i] = fmax(fc->box[i], b[i]);
    fc->box[3 + i] = fmin(fc->box[3 + i], b[3 + i]);
  }
}


static void offer(finish_ctx *fc, const vxg_hull *h, double vol) {
  vxg_xform id;
  vxg_xform_identity(&id);
  double b[6];
  vxg_hull_box(h, &id, b);
  pad_box(b, 0);
  box_intersect(fc, b);
  /* smallest volume wins; near-ties keep the earlier (primitive, exact) candidate */
  if (!fc->have_best || vol < fc->best_vol * (1 - 1e-9) ||
      (h->exact && !fc->best.exact && vol <= fc->best_vol * (1 + 1e-9))) {
    fc->best = *h;
    fc->best_vol = vol;
    fc->have_best = 1;
  }
}


static void hull_init(vxg_hull *h, vxg_hull_kind kind, const vxg_xform *frame, int exact) {
  memset(h, 0, sizeof *h);
  h->kind = kind;
  h->frame = *frame;
  h->exact = exact;
}


/* Candidates of single bounded primitives. */
static void offer_prims(finish_ctx *fc) {
  const vxg_cell *c = fc->c;
  int alone = c->nprim == 1;
  for (int i = 0; i < c->nprim; i++) {
    const vxg_prim *p = &c->prim[i];
    const double *v = p->param;
    if (p->complement) {
      continue;
    }
    vxg_hull h;
    switch (p->kind) {
      case VXG_SPHERE:
        hull_init(&h, VXG_HULL_SPHERE, &p->move, alone);
        h.p[0] = v[0];
        offer(fc, &h, 4.0 / 3.0 * M_PI * v[0] * v[0] * v[0]);
        break;
      case VXG_ELLIPSOID:
        hull_init(&h, VXG_HULL_ELLIPSOID, &p->move, alone);
        memcpy(h.p, v, 3 * sizeof *v);
        offer(fc, &h, 4.0 / 3.0 * M_PI * v[0] * v[1] * v[2]);
        break;
      case VXG_BOX:
        hull_init(&h, VXG_HULL_BOX, &p->move, alone);
        for (int k = 0; k < 3; k++) {
          h.p[k] = 0.5 * v[k];
        }
        offer(fc, &h, v[0] * v[1] * v[2]);
        break;
      case VXG_MESH: {
        if (!p->mesh) {
          break;
        }
        vxg_mesh_info mi;
        vxg_mesh_get_info(p->mesh, &mi);
        if (mi.convex) {
          /* a convex mesh is the hull of its vertices */
          hull_init(&h, VXG_HULL_POINTS, &p->move, alone);
          h.pts = vxg_mesh_vertices(p->mesh, &h.npts);
          vxg_mesh_adjacency(p->mesh, &h.adj_off, &h.adj);
          vxg_hull_seeds(&h);
          /* the points' mean and reach, once (libccd asks for the centre on every query) */
          for (int i = 0; i < h.npts; i++) {
            const double *q = h.pts + 3 * i;
            for (int k = 0; k < 3; k++) {
              h.p[k] += q[k];
            }
            h.p[3] = fmax(h.p[3], sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]));
          }
          for (int k = 0; k < 3 && h.npts > 0; k++) {
            h.p[k] /= h.npts;
          }
          offer(fc, &h, mi.volume);
        } else {
          vxg_xform mid, fr;
          const double *b = mi.aabb;
          vxg_xform_translation(&mid, 0.5 * (b[0] + b[3]), 0.5 * (b[1] + b[4]),
                                0.5 * (b[2] + b[5]));
          vxg_xform_compose(&fr, &p->move, &mid);
          hull_init(&h, VXG_HULL_BOX, &fr, 0);
          for (int k = 0; k < 3; k++) {
            h.p[k] = 0.5 * (b[3 + k] - b[k]);
          }
          offer(fc, &h, 8 * h.p[0] * h.p[1] * h.p[2]);
        }
        break;
      }
      case VXG_TORUS:
        hull_init(&h, VXG_HULL_TORUS, &p->move, 0);
        h.p[0] = v[0];
        h.p[1] = v[1];
        offer(fc, &h, M_PI * (v[0] + v[1]) * (v[0] + v[1]) * 2 * v[1]);
        break;
      case VXG_QUADRIC: {
        quadric_info qi;
        quadric_analyse(v, &qi);
        if (!qi.pd || !qi.cylindrical) {
          break;
        }
        if (!(qi.k > 0)) {
          fc->empty = 1;
          break;
        }
        vxg_xform ef, fr;
        memcpy(ef.r, qi.v, sizeof ef.r);
        memcpy(ef.t, qi.x0, sizeof ef.t);
        vxg_xform_compose(&fr, &p->move, &ef);
        hull_init(&h, VXG_HULL_ELLIPSOID, &fr, alone);
        memcpy(h.p, qi.s, 3 * sizeof *qi.s);
        offer(fc, &h, 4.0 / 3.0 * M_PI * qi.s[0] * qi.s[1] * qi.s[2]);
        break;
      }
      default:
        break;
    }
  }
}


/* Range [lo, hi] of the axial coordinate (along the unit `axis` from `o`, cell frame) that
 * the exact planes perpendicular to the axis allow. Sets *all_caps when every other
 * primitive is a half-space or slab made of such planes. */
static void axial_caps(const finish_ctx *fc, int self, const double axis[3], const double o[3],
                       double *lo, double *hi, int *all_caps) {
  const vxg_cell *c = fc->c;
  *lo = -HUGE_VAL;
  *hi = HUGE_VAL;
  int used[VXG_MAX_PRIMS] = {0}, bad[VXG_MAX_PRIMS] = {0};
  double ao = axis[0] * o[0] + axis[1] * o[1] + axis[2] * o[2];
  for (int k = 0; k < fc->nplane; k++) {
    const plane *pl = &fc->pl[k];
    if (pl->prim == self) {
      continue;
    }
    const double *n = pl->n;
    double cr[3] = {n[1] * axis[2] - n[2] * axis[1], n[2] * axis[0] - n[0] * axis[2],
                    n[0] * axis[1] - n[1] * axis[0]};
    double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double crn = sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
    if (!pl->exact || crn > PARALLEL_TOL * nn) {
      bad[pl->prim] = 1;
      continue;
    }
    /* n = alpha axis: alpha (z + a.o) <= d */
    double alpha = n[0] * axis[0] + n[1] * axis[1] + n[2] * axis[2];
    double z = pl->d / alpha - ao;
    if (alpha > 0) {
      *hi = fmin(*hi, z);
    } else {
      *lo = fmax(*lo, z);
    }
    used[pl->prim] = 1;
  }
  *all_caps = 1;
  for (int i = 0; i < c->nprim; i++) {
    if (i == self) {
      continue;
    }
    vxg_prim_kind k = c->prim[i].kind;
    int capish = k == VXG_HALFSPACE || (k == VXG_SLAB && !c->prim[i].complement);
    if (!capish || bad[i] || !used[i]) {
      *all_caps = 0;
    }
  }
}


/* Finite cylinders, frustums and sphere segments. */
static void offer_combos(finish_ctx *fc) {
  const vxg_cell *c = fc->c;
  for (int i = 0; i < c->nprim; i++) {
    const vxg_prim *p = &c->prim[i];
    if (p->complement) {
      continue;
    }
    const double *mr = p->move.r, *o = p->move.t;
    const double axis[3] = {mr[2], mr[5], mr[8]};
    if (p->kind == VXG_CYLINDER || p->kind == VXG_CONE) {
      double lo, hi;
      int all_caps;
      axial_caps(fc, i, axis, o, &lo, &hi, &all_caps);
      if (p->kind == VXG_CONE) {
        lo = fmax(lo, 0);
      }
      if (!(hi < HUGE_VAL) || !(lo > -HUGE_VAL)) {
        continue;
      }
      if (!(lo < hi)) {
        fc->empty = 1;
        continue;
      }
      vxg_hull h;
      double r = p->param[0];
      if (p->kind == VXG_CYLINDER) {
        vxg_xform mid, fr;
        vxg_xform_translation(&mid, 0, 0, 0.5 * (lo + hi));
        vxg_xform_compose(&fr, &p->move, &mid);
        hull_init(&h, VXG_HULL_CYLINDER, &fr, all_caps);
        h.p[0] = r;
        h.p[1] = 0.5 * (hi - lo);
        offer(fc, &h, M_PI * r * r * (hi - lo));
      } else {
        double t = tan(r), r0 = lo * t, r1 = hi * t;
        hull_init(&h, VXG_HULL_FRUSTUM, &p->move, all_caps);
        h.p[0] = lo;
        h.p[1] = r0;
        h.p[2] = hi;
        h.p[3] = r1;
        offer(fc, &h, M_PI / 3 * (hi - lo) * (r0 * r0 + r0 * r1 + r1 * r1));
      }
    } else if (p->kind == VXG_SPHERE) {
      double r = p->param[0];
      for (int k = 0; k < fc->nplane; k++) {
        const plane *pl = &fc->pl[k];
        if (!pl->exact || pl->prim == i) {
          continue;
        }
        double nn = sqrt(pl->n[0] * pl->n[0] + pl->n[1] * pl->n[1] + pl->n[2] * pl->n[2]);
        double n[3] = {pl->n[0] / nn, pl->n[1] / nn, pl->n[2] / nn};
        double zc = pl->d / nn - (n[0] * o[0] + n[1] * o[1] + n[2] * o[2]);
        if (zc <= -r) {
          fc->empty = 1;
          continue;
        }
        vxg_hull h;
        int exact = c->nprim == 2 && c->prim[pl->prim].kind == VXG_HALFSPACE;
        if (zc >= r) {
          /* the plane misses the sphere: with nothing else the cell is the whole ball */
          if (exact) {
            hull_init(&h, VXG_HULL_SPHERE, &p->move, 1);
            h.p[0] = r;
            offer(fc, &h, 4.0 / 3.0 * M_PI * r * r * r);
          }
          continue;
        }
        vxg_xform fr;
        frame_from_axis(n, fr.r);
        memcpy(fr.t, o, sizeof fr.t);
        hull_init(&h, VXG_HULL_SEGMENT, &fr, exact);
        h.p[0] = r;
        h.p[1] = zc;
        double t = r - zc;
        offer(fc, &h, 4.0 / 3.0 * M_PI * r * r * r - M_PI * t * t * (3 * r - t) / 3);
      }
    }
  }
}


/* A cell made only of planes in three mutually perpendicular directions, each bounded on
 * both sides, is exactly a box in those directions (slabs or boxes in any pose). */
static void offer_planar_box(finish_ctx *fc) {
  double dir[3][3], lo[3], hi[3];
  int nd = 0;
  for (int k = 0; k < fc->nplane; k++) {
    const plane *pl = &fc->pl[k];
    double nn = sqrt(pl->n[0] * pl->n[0] + pl->n[1] * pl->n[1] + pl->n[2] * pl->n[2]);
    double u[3] = {pl->n[0] / nn, pl->n[1] / nn, pl->n[2] / nn}, off = pl->d / nn;
    int j = 0;
    for (; j < nd; j++) {
      const double *a = dir[j];
      double cr[3] = {u[1] * a[2] - u[2] * a[1], u[2] * a[0] - u[0] * a[2],
                      u[0] * a[1] - u[1] * a[0]};
      if (sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]) <= PARALLEL_TOL) {
        break;
      }
    }
    if (j == nd) {
      if (nd == 3) {
        return;
      }
      memcpy(dir[nd], u, sizeof u);
      lo[nd] = -HUGE_VAL;
      hi[nd] = off;
      nd++;
      continue;
    }
    double dot = u[0] * dir[j][0] + u[1] * dir[j][1] + u[2] * dir[j][2];
    if (dot > 0) {
      hi[j] = fmin(hi[j], off);
    } else {
      lo[j] = fmax(lo[j], -off);
    }
  }
  if (nd != 3) {
    return;
  }
  for (int j = 0; j < 3; j++) {
    const double *a = dir[j], *b = dir[(j + 1) % 3];
    if (fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) > PARALLEL_TOL || !(lo[j] > -HUGE_VAL) ||
        !(hi[j] < HUGE_VAL)) {
      return;
    }
    if (!(lo[j] < hi[j])) {
      fc->empty = 1;
      return;
    }
  }
  /* right-handed: flip the third direction if needed */
  double det = dir[0][0] * (dir[1][1] * dir[2][2] - dir[1][2] * dir[2][1]) -
               dir[0][1] * (dir[1][0] * dir[2][2] - dir[1][2] * dir[2][0]) +
               dir[0][2] * (dir[1][0] * dir[2][1] - dir[1][1] * dir[2][0]);
  if (det < 0) {
    double t = lo[2];
    lo[2] = -hi[2];
    hi[2] = -t;
    for (int i = 0; i < 3; i++) {
      dir[2][i] = -dir[2][i];
    }
  }
  vxg_xform fr;
  vxg_hull h;
  for (int i = 0; i < 3; i++) {
    fr.t[i] = 0;
    for (int j = 0; j < 3; j++) {
      fr.r[3 * i + j] = dir[j][i];
      fr.t[i] += dir[j][i] * 0.5 * (lo[j] + hi[j]);
    }
  }
  hull_init(&h, VXG_HULL_BOX, &fr, 1);
  for (int j = 0; j < 3; j++) {
    h.p[j] = 0.5 * (hi[j] - lo[j]);
  }
  offer(fc, &h, 8 * h.p[0] * h.p[1] * h.p[2]);
}


/* Clips `poly` by every plane; returns 1 when no plane had to be skipped. */
static int clip_all(finish_ctx *fc, vxg_poly *poly) {
  int complete = 1;
  for (int k = 0; k < fc->nplane && poly->nvert > 0; k++) {
    if (vxg_poly_clip(poly, fc->pl[k].n, fc->pl[k].d) != 0) {
      complete = 0; /* over capacity: skipping the plane keeps a superset */
    }
  }
  return complete;
}


static void poly_box(const vxg_poly *p, double b[6]) {
  for (int a = 0; a < 3; a++) {
    b[a] = HUGE_VAL;
    b[3 + a] = -HUGE_VAL;
  }
  for (int i = 0; i < p->nvert; i++) {
    for (int a = 0; a < 3; a++) {
      b[a] = fmin(b[a], p->v[i][a]);
      b[3 + a] = fmax(b[3 + a], p->v[i][a]);
    }
  }
}


/* 1 when every vertex of p is a corner of the box b (then p is that box). */
static int poly_is_box(const vxg_poly *p, const double b[6]) {
  int seen = 0;
  for (int i = 0; i < p->nvert; i++) {
    int corner = 0;
    for (int a = 0; a < 3; a++) {
      double tol = 1e-9 * (b[3 + a] - b[a]) + 8 * DBL_EPSILON * fmax(fabs(b[a]), fabs(b[3 + a]));
      if (fabs(p->v[i][a] - b[a]) <= tol) {
        continue;
      }
      if (fabs(p->v[i][a] - b[3 + a]) <= tol) {
        corner |= 1 << a;
        continue;
      }
      return 0;
    }
    seen |= 1 << corner;
  }
  return seen == 0xff;
}


static vxc_status fail(vxg_cell *c, const char *file, vxc_error *err, const char *what) {
  /* leave conservative derived data behind: the whole modelling cube */
  vxg_xform id;
  vxg_xform_identity(&id);
  hull_init(&c->hull, VXG_HULL_BOX, &id, 0);
  for (int i = 0; i < 3; i++) {
    c->hull.p[i] = CUBE;
    c->aabb[i] = -CUBE;
    c->aabb[3 + i] = CUBE;
  }
  return vxg_error_set(err, VXC_ERR_GEOMETRY, file, c->line, c->column, "cell '%s' %s",
                       c->name ? c->name : "", what);
}


vxc_status vxg_cell_finish(vxg_cell *c, const char *file, vxc_error *err) {
  c->convex = 0;
  if (c->nprim == 0) {
    return fail(c, file, err, "has no primitive");
  }
  int convex = 1, planar = 1;
  for (int i = 0; i < c->nprim; i++) {
    convex &= prim_convex(&c->prim[i]);
    vxg_prim_kind k = c->prim[i].kind;
    planar &= k == VXG_HALFSPACE || (!c->prim[i].complement && (k == VXG_SLAB || k == VXG_BOX));
  }
  c->convex = convex;

  /* about 55 kB of planes and polyhedron on the stack: no allocation, and well within any
   * thread's stack */
  finish_ctx fcs;
  vxg_poly polys;
  finish_ctx *fc = &fcs;
  vxg_poly *poly = &polys;
  memset(fc, 0, offsetof(finish_ctx, pl));
  fc->c = c;
  for (int i = 0; i < c->nprim; i++) {
    prim_planes(fc, i);
  }
  offer_prims(fc);
  offer_combos(fc);
  if (planar) {
    offer_planar_box(fc);
  }

  vxc_status st = VXC_OK;
  const char *why = NULL;
  if (fc->empty) {
    why = "is empty: its primitives have no common point";
    goto done;
  }

  /* polyhedral outer approximation, from the candidates' box or the modelling cube */
  double start[6];
  if (fc->have_box) {
    memcpy(start, fc->box, sizeof start);
  } else {
    const double cz[3] = {0, 0, 0}, ce[3] = {CUBE, CUBE, CUBE};
    vxg_poly_box(poly, cz, ce);
    clip_all(fc, poly);
    if (poly->nvert == 0) {
      why = "is empty: its primitives have no common point";
      goto done;
    }
    poly_box(poly, start);
    for (int a = 0; a < 3; a++) {
      if (start[a] <= -CUBE * (1 - 1e-9) || start[3 + a] >= CUBE * (1 - 1e-9)) {
        why =
            "is unbounded: no primitive or set of primitives closes it (add a bounded "
            "primitive, or caps such as a slab)";
        goto done;
      }
    }
    pad_box(start, 1e-3); /* redo from a box of the cell's size, for accurate vertices */
  }
  if (!(start[0] <= start[3] && start[1] <= start[4] && start[2] <= start[5])) {
    why = "is empty: its primitives have no common point";
    goto done;
  }
  double sc[3], se[3];
  for (int a = 0; a < 3; a++) {
    sc[a] = 0.5 * (start[a] + start[3 + a]);
    se[a] = 0.5 * (start[3 + a] - start[a]);
  }
  vxg_poly_box(poly, sc, se);
  int complete = clip_all(fc, poly);
  if (poly->nvert == 0) {
    why = "is empty: its primitives have no common point";
    goto done;
  }
  double pb[6];
  poly_box(poly, pb);
  {
    vxg_hull h;
    vxg_xform fr;
    vxg_xform_translation(&fr, 0.5 * (pb[0] + pb[3]), 0.5 * (pb[1] + pb[4]), 0.5 * (pb[2] + pb[5]));
    int exact = planar && complete && poly_is_box(poly, pb);
    hull_init(&h, VXG_HULL_BOX, &fr, exact);
    for (int a = 0; a < 3; a++) {
      h.p[a] = 0.5 * (pb[3 + a] - pb[a]);
    }
    /* a non-exact box is padded so that it holds the cell despite the vertices' rounding */
    double pv[6];
    memcpy(pv, pb, sizeof pv);
    if (!exact) {
      pad_box(pv, 1e-9);
      for (int a = 0; a < 3; a++) {
        h.p[a] = 0.5 * (pv[3 + a] - pv[a]);
      }
    }
    offer(fc, &h, 8 * h.p[0] * h.p[1] * h.p[2]);
  }
  if (!(fc->box[0] <= fc->box[3] && fc->box[1] <= fc->box[4] && fc->box[2] <= fc->box[5])) {
    why = "is empty: its primitives have no common point";
    goto done;
  }
  c->hull = fc->best;
  memcpy(c->aabb, fc->box, sizeof c->aabb);

done:
  if (why) {
    st = fail(c, file, err, why);
  }
  return st;
}


void vxg_cell_aabb(const vxg_cell *c, const vxg_xform *to_frame, double aabb[6]) {
  double hb[6];
  vxg_hull_box(&c->hull, to_frame, hb);
  pad_box(hb, 0);
  /* the cell-frame box moved into the frame may be tighter for inexact hulls */
  double cc[3], ce[3], tc[3];
  for (int a = 0; a < 3; a++) {
    cc[a] = 0.5 * (c->aabb[a] + c->aabb[3 + a]);
    ce[a] = 0.5 * (c->aabb[3 + a] - c->aabb[a]);
  }
  vxg_xform_point(to_frame, cc, tc);
  for (int i = 0; i < 3; i++) {
    const double *r = to_frame->r + 3 * i;
    double h = fabs(r[0]) * ce[0] + fabs(r[1]) * ce[1] + fabs(r[2]) * ce[2];
    double pad = 16 * DBL_EPSILON * (fabs(tc[i]) + h);
    aabb[i] = fmax(hb[i], tc[i] - h - pad);
    aabb[3 + i] = fmin(hb[3 + i], tc[i] + h + pad);
  }
}
