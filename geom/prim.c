/* prim.c: primitives, their atoms, and conservative classification of boxes.
 *
 * Data: a primitive (vxg_prim) is a kind, parameters and a move (primitive frame -> cell
 * frame). vxg_cell_add_prim turns it into atoms in the cell frame, appended to the cell's
 * atom array; prim->first_atom and prim->natom locate them. Atoms per kind (own frame):
 *   half-space  1 linear quadric     n.x - d
 *   slab        2 linear quadrics    x_k - hi, lo - x_k (two planes stay exact; a single
 *                                    quadratic (x_k - lo)(x_k - hi) would not under the
 *                                    voxel engine's linearisation)
 *   box         6 linear quadrics    +-x_k - l_k / 2
 *   sphere, ellipsoid, cylinder      1 quadric scaled so |grad f| is about 1 on the surface
 *   cone        double-cone quadric x^2 + y^2 - tan^2(a) z^2, and the half-space -z <= 0
 *   quadric     itself;  torus: the exact distance atom;  mesh: the mesh atom.
 * Invariants: a primitive is the conjunction {every atom f <= 0}; a complemented primitive
 * is the complement {some atom f > 0}; a cell is the intersection of its primitives.
 * vxg_cell_contains and the classifiers use the same vxg_atom_eval values, so a box called
 * INSIDE or OUTSIDE never contradicts a point test at any point of the box.
 *
 * Quadric coefficients q = A..J: f = x^T M x + b.x + c with
 *   M = [[A, D/2, F/2], [D/2, B, E/2], [F/2, E/2, C]], b = (G, H, I), c = J.
 * The classification path allocates nothing and calls no libm function but sqrt. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "geom/geom.h"

/* Relative rounding allowance of the box bounds: a generous multiple of the few roundings
 * in vxg_atom_eval and in the bound itself, applied to the sum of term magnitudes. */
#define ROUND_MARGIN (64.0 * DBL_EPSILON)

static const char *const kind_name[VXG_NPRIM_KIND] = {"halfspace", "slab",     "box",  "sphere",
                                                      "ellipsoid", "cylinder", "cone", "torus",
                                                      "quadric",   "mesh"};
static const int kind_nparam[VXG_NPRIM_KIND] = {4, 3, 3, 1, 3, 1, 1, 2, 10, 0};


const char *vxg_prim_kind_name(vxg_prim_kind kind) {
  if ((int)kind < 0 || kind >= VXG_NPRIM_KIND) {
    return "?";
  }
  return kind_name[kind];
}


void vxg_prim_axis(const vxg_prim *pr, const vxg_xform *to_frame, double p[3], double u[3],
                   double *r, double *k) {
  static const double ez[3] = {0, 0, 1};
  int cone = pr->kind == VXG_CONE;
  double uc[3];
  vxg_xform_point(to_frame, pr->move.t, p);
  vxg_xform_vector(&pr->move, ez, uc);
  vxg_xform_vector(to_frame, uc, u);
  double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (int j = 0; j < 3; j++) {
    u[j] /= n;
  }
  *r = cone ? 0 : pr->param[0];
  *k = cone ? 1 / (cos(pr->param[0]) * cos(pr->param[0])) : 1;
}


int vxg_prim_kind_nparam(vxg_prim_kind kind) {
  if ((int)kind < 0 || kind >= VXG_NPRIM_KIND) {
    return 0;
  }
  return kind_nparam[kind];
}


/* ---------------------------------------------------------------------------------------
 * Parameter checks */

/* A length that must be positive, finite and at most VXG_MAX_LENGTH. */
static vxc_status check_length(const char *kind, const char *what, double v, vxc_error *err) {
  if (!(v > 0) || !(v <= VXG_MAX_LENGTH)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "%s: %s must be positive and at most %g m (got %g)", kind, what,
                         VXG_MAX_LENGTH, v);
  }
  return VXC_OK;
}


/* A coordinate: finite with |v| <= VXG_MAX_LENGTH. */
static vxc_status check_coord(const char *kind, const char *what, double v, vxc_error *err) {
  if (!(fabs(v) <= VXG_MAX_LENGTH)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "%s: %s must be finite and at most %g m in magnitude (got %g)", kind, what,
                         VXG_MAX_LENGTH, v);
  }
  return VXC_OK;
}


static vxc_status check_params(vxg_prim *p, vxc_error *err) {
  static const char *const axyz[3] = {"x", "y", "z"};
  const char *k = kind_name[p->kind];
  double *v = p->param;
  vxc_status st = VXC_OK;
  switch (p->kind) {
    case VXG_HALFSPACE: {
      for (int i = 0; i < 3; i++) {
        if (!isfinite(v[i])) {
          return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                               "halfspace: normal component n%s must be finite (got %g)", axyz[i],
                               v[i]);
        }
      }
      double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      if (!(n > 0) || !isfinite(n)) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                             "halfspace: normal (nx ny nz) must be non-zero and finite");
      }
      if (!isfinite(v[3])) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                             "halfspace: offset d must be finite (got %g)", v[3]);
      }
      for (int i = 0; i < 4; i++) {
        v[i] /= n;
      }
      return check_coord(k, "offset d (after normalising the normal)", v[3], err);
    }
    case VXG_SLAB:
      if (!(v[0] == 0 || v[0] == 1 || v[0] == 2)) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                             "slab: axis must be 0, 1 or 2 (x, y or z) (got %g)", v[0]);
      }
      if ((st = check_coord(k, "lo", v[1], err)) || (st = check_coord(k, "hi", v[2], err))) {
        return st;
      }
      if (!(v[1] < v[2])) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                             "slab: lo must be less than hi (got lo %g, hi %g)", v[1], v[2]);
      }
      return VXC_OK;
    case VXG_BOX:
      if ((st = check_length(k, "lx", v[0], err)) || (st = check_length(k, "ly", v[1], err)) ||
          (st = check_length(k, "lz", v[2], err))) {
        return st;
      }
      return VXC_OK;
    case VXG_SPHERE:
    case VXG_CYLINDER:
      return check_length(k, "radius r", v[0], err);
    case VXG_ELLIPSOID:
      if ((st = check_length(k, "semi-axis a", v[0], err)) ||
          (st = check_length(k, "semi-axis b", v[1], err)) ||
          (st = check_length(k, "semi-axis c", v[2], err))) {
        return st;
      }
      return VXC_OK;
    case VXG_CONE:
      if (!(v[0] > 0) || !(v[0] < 0.5 * M_PI)) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                             "cone: half-angle must be between 0 and 90 degrees, exclusive "
                             "(got %g rad)",
                             v[0]);
      }
      return VXC_OK;
    case VXG_TORUS:
      if ((st = check_length(k, "major radius R", v[0], err)) ||
          (st = check_length(k, "minor radius r", v[1], err))) {
        return st;
      }
      return VXC_OK;
    case VXG_QUADRIC: {
      static const char *const qn[10] = {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"};
      int nonzero = 0;
      for (int i = 0; i < 10; i++) {
        if (!isfinite(v[i])) {
          return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                               "quadric: coefficient %s must be finite (got %g)", qn[i], v[i]);
        }
        nonzero |= v[i] != 0;
      }
      if (!nonzero) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                             "quadric: coefficients A..J must not all be zero");
      }
      return VXC_OK;
    }
    case VXG_MESH:
      return check_length(k, "scale", v[0], err);
    default:
      break;
  }
  return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "unknown primitive kind %d", (int)p->kind);
}


vxc_status vxg_prim_init(vxg_prim *p, vxg_prim_kind kind, const double *param, int nparam,
                         int complement, const vxg_xform *move, vxc_error *err) {
  if ((int)kind < 0 || kind >= VXG_NPRIM_KIND) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "unknown primitive kind %d", (int)kind);
  }
  /* a mesh takes no parameter in a model file; its scale may be passed as one */
  int want = kind_nparam[kind];
  int ok = nparam == want || (kind == VXG_MESH && nparam == 1);
  if (!ok || (nparam > 0 && !param)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s takes %d parameter%s (got %d)",
                         kind_name[kind], want, want == 1 ? "" : "s", nparam);
  }
  vxg_prim q; /* built aside so *p stays untouched on failure */
  memset(&q, 0, sizeof q);
  q.kind = kind;
  q.complement = complement ? 1 : 0;
  for (int i = 0; i < nparam; i++) {
    q.param[i] = param[i];
  }
  if (kind == VXG_MESH && nparam == 0) {
    q.param[0] = 1.0;
  }
  if (move) {
    for (int i = 0; i < 9; i++) {
      if (!isfinite(move->r[i])) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: move is not finite",
                             kind_name[kind]);
      }
    }
    for (int i = 0; i < 3; i++) {
      if (!(fabs(move->t[i]) <= VXG_MAX_LENGTH)) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                             "%s: move translation must be finite and at most %g m",
                             kind_name[kind], VXG_MAX_LENGTH);
      }
    }
    q.move = *move;
  } else {
    vxg_xform_identity(&q.move);
  }
  vxc_status st = check_params(&q, err);
  if (st != VXC_OK) {
    return st;
  }
  *p = q;
  return VXC_OK;
}


/* ---------------------------------------------------------------------------------------
 * Atoms */

static void quadric_atom(vxg_atom *a, const double q[10]) {
  memset(a, 0, sizeof *a);
  a->kind = VXG_ATOM_QUADRIC;
  memcpy(a->q, q, sizeof a->q);
  vxg_xform_identity(&a->to_local);
}


/* The linear atom n.x - d (n not necessarily unit). */
static void linear_atom(vxg_atom *a, double nx, double ny, double nz, double d) {
  const double q[10] = {0, 0, 0, 0, 0, 0, nx, ny, nz, -d};
  quadric_atom(a, q);
}


/* The quadric's value at p: the one formula every membership test and bound relies on. */
static inline double quadric_value(const double q[10], const double p[3]) {
  double x = p[0], y = p[1], z = p[2];
  return x * (q[0] * x + q[3] * y + q[5] * z + q[6]) + y * (q[1] * y + q[4] * z + q[7]) +
         z * (q[2] * z + q[8]) + q[9];
}


static inline void quadric_grad(const double q[10], const double p[3], double g[3]) {
  double x = p[0], y = p[1], z = p[2];
  g[0] = 2 * q[0] * x + q[3] * y + q[5] * z + q[6];
  g[1] = q[3] * x + 2 * q[1] * y + q[4] * z + q[7];
  g[2] = q[5] * x + q[4] * y + 2 * q[2] * z + q[8];
}


double vxg_atom_eval(const vxg_atom *a, const double p[3], double grad[3]) {
  switch (a->kind) {
    case VXG_ATOM_QUADRIC:
      if (grad) {
        quadric_grad(a->q, p, grad);
      }
      return quadric_value(a->q, p);
    case VXG_ATOM_TORUS: {
      double l[3];
      vxg_xform_point(&a->to_local, p, l);
      double rho = sqrt(l[0] * l[0] + l[1] * l[1]);
      double u = rho - a->size[0];
      double dist = sqrt(u * u + l[2] * l[2]);
      if (grad) {
        /* gradient of the distance to the core circle; zero where it is undefined */
        double gl[3] = {0, 0, 0};
        if (dist > 0) {
          if (rho > 0) {
            gl[0] = u / dist * l[0] / rho;
            gl[1] = u / dist * l[1] / rho;
          }
          gl[2] = l[2] / dist;
        }
        vxg_xform_vector_inv(&a->to_local, gl, grad);
      }
      return dist - a->size[1];
    }
    case VXG_ATOM_MESH:
      if (a->mesh) {
        /* the signed distance in the mesh's frame; the frame change is rigid */
        double l[3], gl[3];
        vxg_xform_point(&a->to_local, p, l);
        double f = vxg_mesh_distance(a->mesh, l, grad ? gl : NULL, NULL);
        if (grad) {
          vxg_xform_vector_inv(&a->to_local, gl, grad);
        }
        return f;
      }
      /* a mesh atom without its mesh reads as its boundary */
      if (grad) {
        grad[0] = grad[1] = grad[2] = 0;
      }
      return 0.0;
    default:
      if (grad) {
        grad[0] = grad[1] = grad[2] = 0;
      }
      return 0.0;
  }
}


/* Bounds of f over the box: [l - w, h + w] bounds f(c + d), |d_i| <= e_i, with
 * w = cross + ROUND_MARGIN quadric_slack. f(c + d) = f(c) + g.d + d^T M d with g = grad f(c);
 * each axis' 1-D part g_i d_i + M_ii d_i^2 is bounded exactly ([l, h]), the cross terms by
 * 2 |M_ij| e_i e_j (cross). */
static inline void quadric_range(const double q[10], const double c[3], const double e[3],
                                 double *lp, double *hp, double *cross) {
  double g[3];
  quadric_grad(q, c, g);
  double fc = quadric_value(q, c);
  double l = fc, h = fc;
  for (int i = 0; i < 3; i++) {
    double m = q[i], gi = fabs(g[i]) * e[i], mi = m * e[i] * e[i];
    /* endpoints give mi +- gi; the vertex -g^2 / (4 m) lies inside when |g| < 2 |m| e */
    if (m > 0 && fabs(g[i]) < 2 * m * e[i]) {
      l -= g[i] * g[i] / (4 * m);
    } else {
      l += mi - gi;
    }
    if (m < 0 && fabs(g[i]) < -2 * m * e[i]) {
      h -= g[i] * g[i] / (4 * m);
    } else {
      h += mi + gi;
    }
  }
  *lp = l;
  *hp = h;
  *cross = fabs(q[3]) * e[0] * e[1] + fabs(q[4]) * e[1] * e[2] + fabs(q[5]) * e[0] * e[2];
}


/* The magnitude of every monomial at the box's farthest reach `ax` = |c| + e (componentwise),
 * which bounds the rounding of vxg_atom_eval anywhere in the box, and of quadric_range. */
static inline double quadric_slack(const double q[10], const double ax[3]) {
  return fabs(q[0]) * ax[0] * ax[0] + fabs(q[1]) * ax[1] * ax[1] + fabs(q[2]) * ax[2] * ax[2] +
         fabs(q[3]) * ax[0] * ax[1] + fabs(q[4]) * ax[1] * ax[2] + fabs(q[5]) * ax[0] * ax[2] +
         fabs(q[6]) * ax[0] + fabs(q[7]) * ax[1] + fabs(q[8]) * ax[2] + fabs(q[9]);
}


double vxg_quadric_lower(const double q[10], const double mag[10], const double c[3],
                         const double e[3]) {
  const double ax[3] = {fabs(c[0]) + e[0], fabs(c[1]) + e[1], fabs(c[2]) + e[2]};
  double l, h, cross;
  quadric_range(q, c, e, &l, &h, &cross);
  return l - cross - ROUND_MARGIN * quadric_slack(mag, ax);
}


/* 1 when A..F are all +-0: OR of their bit patterns without the sign bits (one branch
 * instead of six floating-point comparisons on the hottest path). */
static inline int quadratic_part_zero(const double q[10]) {
  uint64_t b[6];
  memcpy(b, q, sizeof b);
  return ((b[0] | b[1] | b[2] | b[3] | b[4] | b[5]) << 1) == 0;
}


/* A mesh atom over the box: the signed distance is 1-Lipschitz, so the box is decided when
 * no triangle comes within the half-diagonal (plus rounding) of the centre. `bound`, f and
 * grad as in vxg_atom_classify_eval. */
static vxg_class mesh_classify(const vxg_atom *a, const double c[3], const double e[3],
                               const double ax[3], double bound, double *f, double grad[3],
                               double *upper) {
  double l[3], gl[3];
  vxg_xform_point(&a->to_local, c, l);
  double rad = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  const double *t = a->to_local.t;
  double scale =
      ax[0] + ax[1] + ax[2] + fabs(t[0]) + fabs(t[1]) + fabs(t[2]) + a->size[0] + a->size[1];
  int side = vxg_mesh_classify_ball_dist(a->mesh, l, rad + ROUND_MARGIN * scale, bound, f,
                                         grad ? gl : NULL, upper);
  if (grad && f && !isnan(*f)) {
    vxg_xform_vector_inv(&a->to_local, gl, grad);
  }
  return side > 0 ? VXG_OUTSIDE : (side < 0 ? VXG_INSIDE : VXG_MIXED);
}


/* The classification proper, with ax = |c| + e computed once per box by the caller. */
static inline vxg_class atom_classify(const vxg_atom *a, const double c[3], const double e[3],
                                      const double ax[3]) {
  if (a->kind == VXG_ATOM_QUADRIC) {
    const double *q = a->q;
    double lo, hi;
    if (quadratic_part_zero(q)) {
      /* planes (half-spaces, slabs, boxes), the common case: f(c) +- sum |b_i| e_i */
      double g0 = fabs(q[6]), g1 = fabs(q[7]), g2 = fabs(q[8]);
      double fc = q[6] * c[0] + q[7] * c[1] + q[8] * c[2] + q[9];
      double r = g0 * e[0] + g1 * e[1] + g2 * e[2];
      double s = g0 * ax[0] + g1 * ax[1] + g2 * ax[2] + fabs(q[9]);
      double w = r + ROUND_MARGIN * s;
      lo = fc - w;
      hi = fc + w;
    } else {
      double l, h, cross;
      quadric_range(q, c, e, &l, &h, &cross);
      if (l - cross <= 0 && h + cross > 0) {
        /* MIXED whatever the rounding allowance, which only widens the range (w >= cross,
           so l - w <= l - cross and h + w >= h + cross, rounded as well) */
        return VXG_MIXED;
      }
      double w = cross + ROUND_MARGIN * quadric_slack(q, ax);
      lo = l - w;
      hi = h + w;
    }
    return lo > 0 ? VXG_OUTSIDE : (hi <= 0 ? VXG_INSIDE : VXG_MIXED);
  }
  if (a->kind == VXG_ATOM_MESH && a->mesh) {
    return mesh_classify(a, c, e, ax, HUGE_VAL, NULL, NULL, NULL);
  }
  if (a->kind == VXG_ATOM_TORUS) {
    /* f is 1-Lipschitz: it changes by at most the half-diagonal over the box */
    double fc = vxg_atom_eval(a, c, NULL);
    double rad = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    const double *t = a->to_local.t;
    double scale =
        ax[0] + ax[1] + ax[2] + fabs(t[0]) + fabs(t[1]) + fabs(t[2]) + a->size[0] + a->size[1];
    double reach = rad + ROUND_MARGIN * scale;
    return fc > reach ? VXG_OUTSIDE : (fc < -reach ? VXG_INSIDE : VXG_MIXED);
  }
  return VXG_MIXED; /* a mesh atom without its mesh */
}


vxg_class vxg_atom_classify(const vxg_atom *a, const double c[3], const double e[3]) {
  const double ax[3] = {fabs(c[0]) + e[0], fabs(c[1]) + e[1], fabs(c[2]) + e[2]};
  return atom_classify(a, c, e, ax);
}


double vxg_atom_eval_bounded(const vxg_atom *a, const double p[3], double bound, double grad[3]) {
  if (a->kind != VXG_ATOM_MESH || !a->mesh) {
    return vxg_atom_eval(a, p, grad);
  }
  double l[3], gl[3];
  vxg_xform_point(&a->to_local, p, l);
  double f = vxg_mesh_distance_bounded(a->mesh, l, bound, grad ? gl : NULL, NULL);
  if (grad) {
    vxg_xform_vector_inv(&a->to_local, gl, grad);
  }
  return f;
}


vxg_class vxg_atom_classify_eval(const vxg_atom *a, const double c[3], const double e[3],
                                 double bound, double *f, double grad[3], double *upper) {
  const double ax[3] = {fabs(c[0]) + e[0], fabs(c[1]) + e[1], fabs(c[2]) + e[2]};
  if (a->kind == VXG_ATOM_MESH && a->mesh) {
    return mesh_classify(a, c, e, ax, bound, f, grad, upper);
  }
  *f = NAN;
  *upper = HUGE_VAL;
  return atom_classify(a, c, e, ax);
}


/* The plane q (n . x <= d, the mesh's frame) in the atom's frame, where x_mesh = R x + t:
 * n . (R x + t) <= d is (R^T n) . x <= d - n . t. */
static void plane_to_frame(const vxg_xform *to_local, double q[4]) {
  double nq[3];
  vxg_xform_vector_inv(to_local, q, nq);
  q[3] -= q[0] * to_local->t[0] + q[1] * to_local->t[1] + q[2] * to_local->t[2];
  memcpy(q, nq, sizeof nq);
}


int vxg_atom_triangles(const vxg_atom *a, const double c[3], double r, int max, double tol,
                       vxg_gather_cache *cache, double *tri, double *plane, int *group,
                       int *first, int *gfirst, int *shape) {
  if (a->kind != VXG_ATOM_MESH || !a->mesh) {
    return -1;
  }
  double l[3];
  int own[3 * VXG_MESH_TRIS_MAX], gown[VXG_MESH_TRIS_MAX];
  first = first ? first : own;
  gfirst = gfirst ? gfirst : gown;
  vxg_xform_point(&a->to_local, c, l);
  /* a little beyond r, for the rounding of the frame change */
  double reach[2], rg = r * (1 + 1e-9) + ROUND_MARGIN * a->size[1];
  int n = vxg_mesh_gather(a->mesh, l, rg, max, cache, tri, plane, group, first, gfirst, reach);
  /* the shape from the mesh's own coordinates (no vertex beyond, or none within, a group's
     plane by more than tol; the reach is exact up to its cap): a shape other than general
     needs only the groups' planes in the query frame */
  int general = 1, sure = tol < VXG_REACH_CAP * rg;
  if (shape && n >= 0) {
    *shape = sure && n > 0 && reach[0] <= tol   ? VXG_LOCAL_CONVEX
             : sure && n > 0 && reach[1] <= tol ? VXG_LOCAL_CONCAVE
                                                : VXG_LOCAL_GENERAL;
    general = *shape == VXG_LOCAL_GENERAL;
  }
  for (int i = 0; i < n; i++) {
    if (gfirst[i] == i) {
      plane_to_frame(&a->to_local, plane + 4 * i);
    } else if (general) {
      memcpy(plane + 4 * i, plane + 4 * gfirst[i], 4 * sizeof *plane); /* its group's, moved */
    }
  }
  if (!general) {
    return n;
  }
  const double *t = a->to_local.t;
  for (int k = 0; k < 3 * n; k++) {
    double *v = tri + 3 * k;
    if (first[k] != k) {
      memcpy(v, tri + 3 * first[k], 3 * sizeof *v); /* moved already */
      continue;
    }
    double u[3] = {v[0] - t[0], v[1] - t[1], v[2] - t[2]};
    vxg_xform_vector_inv(&a->to_local, u, v); /* x = R^T (l - t) */
  }
  return n;
}


int vxg_atom_planes(const vxg_atom *a, const double c[3], const double e[3], int max,
                    double *planes) {
  if (a->kind != VXG_ATOM_MESH || !a->mesh) {
    return -1;
  }
  vxg_mesh_info mi;
  vxg_mesh_get_info(a->mesh, &mi);
  if (!mi.convex) {
    return -1;
  }
  double l[3], box[15];
  vxg_xform_point(&a->to_local, c, l);
  /* the query frame's axis j in the mesh's frame: column j of the rotation; the ball and
     the box a little larger, for the rounding of the frame change */
  const double *rot = a->to_local.r, pad = ROUND_MARGIN * a->size[1];
  for (int j = 0; j < 3; j++) {
    box[3 * j] = rot[j];
    box[3 * j + 1] = rot[3 + j];
    box[3 * j + 2] = rot[6 + j];
    box[9 + j] = e[j] * (1 + 1e-9) + pad;
    box[12 + j] = e[j] * (1 - 1e-9) - pad;
  }
  double r = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  int n = vxg_mesh_planes(a->mesh, l, r * (1 + 1e-9) + pad, box, max, planes);
  for (int i = 0; i < n; i++) {
    plane_to_frame(&a->to_local, planes + 4 * i);
  }
  return n;
}


/* Largest |eigenvalue| of the symmetric 3x3 matrix (closed form; a bound, slightly
 * widened for rounding). */
static double sym3_norm(const double m[6]) {
  /* m = xx yy zz xy yz xz */
  double fro =
      sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + 2 * (m[3] * m[3] + m[4] * m[4] + m[5] * m[5]));
  if (fro == 0) {
    return 0;
  }
  double p1 = m[3] * m[3] + m[4] * m[4] + m[5] * m[5];
  double tr = (m[0] + m[1] + m[2]) / 3;
  double p2 =
      (m[0] - tr) * (m[0] - tr) + (m[1] - tr) * (m[1] - tr) + (m[2] - tr) * (m[2] - tr) + 2 * p1;
  double p = sqrt(p2 / 6);
  double lmax;
  if (p == 0) {
    lmax = fabs(tr);
  } else {
    double b[6] = {(m[0] - tr) / p, (m[1] - tr) / p, (m[2] - tr) / p, m[3] / p, m[4] / p, m[5] / p};
    double det = b[0] * (b[1] * b[2] - b[4] * b[4]) - b[3] * (b[3] * b[2] - b[4] * b[5]) +
                 b[5] * (b[3] * b[4] - b[1] * b[5]);
    double r = det / 2;
    r = r < -1 ? -1 : (r > 1 ? 1 : r);
    double phi = acos(r) / 3;
    double l1 = tr + 2 * p * cos(phi);
    double l3 = tr + 2 * p * cos(phi + 2 * M_PI / 3);
    lmax = fmax(fabs(l1), fabs(l3));
  }
  /* never above the Frobenius norm; widened by a rounding allowance of the closed form */
  return fmin(lmax + 1e-12 * fro, fro);
}


int vxg_atom_curvature_bound(const vxg_atom *a, const double c[3], double rad, double *curv_bound) {
  (void)c;
  if (a->kind != VXG_ATOM_QUADRIC) {
    return -1;
  }
  /* f(c + d) - f(c) - g.d = d^T M d exactly, and |d^T M d| <= ||M||_2 |d|^2 */
  const double *q = a->q;
  const double m[6] = {q[0], q[1], q[2], 0.5 * q[3], 0.5 * q[4], 0.5 * q[5]};
  *curv_bound = sym3_norm(m) * rad * rad;
  return 0;
}


void vxg_atom_transform(vxg_atom *out, const vxg_atom *a, const vxg_xform *t) {
  vxg_atom o = *a;
  if (a->kind == VXG_ATOM_QUADRIC) {
    /* y = R^T (x - t): M' = R M R^T, b' = R b - 2 M' t, c' = c + t^T M' t - (R b).t */
    const double *q = a->q;
    const double *r = t->r;
    double m[3][3] = {{q[0], 0.5 * q[3], 0.5 * q[5]},
                      {0.5 * q[3], q[1], 0.5 * q[4]},
                      {0.5 * q[5], 0.5 * q[4], q[2]}};
    double rm[3][3], mp[3][3];
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        rm[i][j] = r[3 * i] * m[0][j] + r[3 * i + 1] * m[1][j] + r[3 * i + 2] * m[2][j];
      }
    }
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        mp[i][j] = rm[i][0] * r[3 * j] + rm[i][1] * r[3 * j + 1] + rm[i][2] * r[3 * j + 2];
      }
    }
    /* symmetrise against rounding */
    for (int i = 0; i < 3; i++) {
      for (int j = i + 1; j < 3; j++) {
        mp[i][j] = mp[j][i] = 0.5 * (mp[i][j] + mp[j][i]);
      }
    }
    double b[3] = {q[6], q[7], q[8]}, rb[3];
    vxg_xform_vector(t, b, rb);
    double mt[3];
    for (int i = 0; i < 3; i++) {
      mt[i] = mp[i][0] * t->t[0] + mp[i][1] * t->t[1] + mp[i][2] * t->t[2];
    }
    o.q[0] = mp[0][0];
    o.q[1] = mp[1][1];
    o.q[2] = mp[2][2];
    o.q[3] = 2 * mp[0][1];
    o.q[4] = 2 * mp[1][2];
    o.q[5] = 2 * mp[0][2];
    for (int i = 0; i < 3; i++) {
      o.q[6 + i] = rb[i] - 2 * mt[i];
    }
    o.q[9] = q[9] + (mt[0] * t->t[0] + mt[1] * t->t[1] + mt[2] * t->t[2]) -
             (rb[0] * t->t[0] + rb[1] * t->t[1] + rb[2] * t->t[2]);
  } else {
    /* to_local maps the atom's frame to the local one: compose with the inverse move */
    vxg_xform inv;
    vxg_xform_inverse(&inv, t);
    vxg_xform_compose(&o.to_local, &a->to_local, &inv);
  }
  *out = o;
}


/* ---------------------------------------------------------------------------------------
 * Cells: atoms of a primitive, membership and classification */

/* The primitive's atoms in its own frame; returns their number (at most 6). */
static int prim_atoms(const vxg_prim *p, vxg_atom out[6]) {
  const double *v = p->param;
  switch (p->kind) {
    case VXG_HALFSPACE:
      linear_atom(&out[0], v[0], v[1], v[2], v[3]);
      return 1;
    case VXG_SLAB: {
      double n[3] = {0, 0, 0};
      n[(int)v[0]] = 1;
      linear_atom(&out[0], n[0], n[1], n[2], v[2]);
      linear_atom(&out[1], -n[0], -n[1], -n[2], -v[1]);
      return 2;
    }
    case VXG_BOX:
      for (int k = 0; k < 3; k++) {
        double n[3] = {0, 0, 0};
        n[k] = 1;
        linear_atom(&out[2 * k], n[0], n[1], n[2], 0.5 * v[k]);
        linear_atom(&out[2 * k + 1], -n[0], -n[1], -n[2], 0.5 * v[k]);
      }
      return 6;
    case VXG_SPHERE: {
      /* (|x|^2 - r^2) / (2 r): the signed distance to first order near the surface */
      double s = 0.5 / v[0];
      const double q[10] = {s, s, s, 0, 0, 0, 0, 0, 0, -s * v[0] * v[0]};
      quadric_atom(&out[0], q);
      return 1;
    }
    case VXG_ELLIPSOID: {
      double mn = fmin(v[0], fmin(v[1], v[2])), s = 0.5 * mn;
      const double q[10] = {
          s / (v[0] * v[0]), s / (v[1] * v[1]), s / (v[2] * v[2]), 0, 0, 0, 0, 0, 0, -s};
      quadric_atom(&out[0], q);
      return 1;
    }
    case VXG_CYLINDER: {
      double s = 0.5 / v[0];
      const double q[10] = {s, s, 0, 0, 0, 0, 0, 0, 0, -s * v[0] * v[0]};
      quadric_atom(&out[0], q);
      return 1;
    }
    case VXG_CONE: {
      /* scaled by cos^2(a) / 2: x^2 + y^2 - tan^2(a) z^2 becomes (rho^2 cos^2 - z^2 sin^2) / 2,
       * whose gradient is about the distance's near the surface at unit range */
      double ca = cos(v[0]), sa = sin(v[0]);
      double s = 0.5 * ca * ca, t2 = s * (sa / ca) * (sa / ca);
      const double q[10] = {s, s, -t2, 0, 0, 0, 0, 0, 0, 0};
      quadric_atom(&out[0], q);
      linear_atom(&out[1], 0, 0, -1, 0);
      return 2;
    }
    case VXG_QUADRIC:
      quadric_atom(&out[0], v);
      return 1;
    case VXG_TORUS:
      memset(&out[0], 0, sizeof out[0]);
      out[0].kind = VXG_ATOM_TORUS;
      vxg_xform_identity(&out[0].to_local);
      out[0].size[0] = v[0];
      out[0].size[1] = v[1];
      return 1;
    case VXG_MESH:
    default:
      memset(&out[0], 0, sizeof out[0]);
      out[0].kind = VXG_ATOM_MESH;
      vxg_xform_identity(&out[0].to_local);
      out[0].size[0] = v[0];
      out[0].mesh = p->mesh;
      if (p->mesh) {
        vxg_mesh_info mi;
        vxg_mesh_get_info(p->mesh, &mi);
        for (int k = 0; k < 3; k++) {
          out[0].size[1] += fabs(mi.aabb[k]) + fabs(mi.aabb[3 + k]);
        }
      }
      return 1;
  }
}


vxc_status vxg_cell_add_prim(vxg_cell *c, const vxg_prim *p, vxc_error *err) {
  const char *name = c->name ? c->name : "";
  if (c->nprim >= VXG_MAX_PRIMS) {
    return vxg_error_set(err, VXC_ERR_LIMIT, NULL, p->line, p->column,
                         "cell '%s' has more than %d primitives", name, VXG_MAX_PRIMS);
  }
  vxg_atom a[6];
  int n = prim_atoms(p, a);
  if (c->natom + n > VXG_MAX_ATOMS) {
    return vxg_error_set(err, VXC_ERR_LIMIT, NULL, p->line, p->column,
                         "cell '%s' needs more than %d atoms (a box takes 6, a slab or a cone "
                         "2, other primitives 1)",
                         name, VXG_MAX_ATOMS);
  }
  vxg_prim *q = &c->prim[c->nprim++];
  *q = *p;
  q->first_atom = c->natom;
  q->natom = n;
  for (int i = 0; i < n; i++) {
    vxg_atom_transform(&c->atom[c->natom++], &a[i], &p->move);
  }
  return VXC_OK;
}


/* Membership of p in the primitive whose atoms are `at[0..n)`. */
static int prim_contains(const vxg_atom *at, int n, int complement, const double p[3]) {
  int in = 1;
  for (int i = 0; i < n && in; i++) {
    if (at[i].kind == VXG_ATOM_MESH && at[i].mesh) {
      double l[3]; /* the sign alone: a small convex mesh needs no closest point */
      vxg_xform_point(&at[i].to_local, p, l);
      in = vxg_mesh_contains(at[i].mesh, l);
    } else {
      in = vxg_atom_eval(&at[i], p, NULL) <= 0;
    }
  }
  return complement ? !in : in;
}


static int cell_contains_atoms(const vxg_cell *c, const vxg_atom *atoms, const double p[3]) {
  for (int i = 0; i < c->nprim; i++) {
    const vxg_prim *pr = &c->prim[i];
    if (!prim_contains(atoms + pr->first_atom, pr->natom, pr->complement, p)) {
      return 0;
    }
  }
  return 1;
}


int vxg_cell_contains(const vxg_cell *c, const double p[3]) {
  return cell_contains_atoms(c, c->atom, p);
}


void vxg_posed_cell_init(vxg_posed_cell *pc, const vxg_cell *c, const vxg_xform *to_frame) {
  pc->cell = c;
  pc->to_frame = *to_frame;
  pc->natom = c->natom;
  for (int i = 0; i < c->natom; i++) {
    vxg_atom_transform(&pc->atom[i], &c->atom[i], to_frame);
  }
  vxg_cell_aabb(c, to_frame, pc->aabb);
}


vxg_class vxg_posed_cell_classify(const vxg_posed_cell *pc, const double c[3], const double e[3]) {
  const vxg_cell *cell = pc->cell;
  const double ax[3] = {fabs(c[0]) + e[0], fabs(c[1]) + e[1], fabs(c[2]) + e[2]};
  vxg_class acc = VXG_INSIDE;
  for (int i = 0; i < cell->nprim; i++) {
    const vxg_prim *pr = &cell->prim[i];
    /* conjunction of the primitive's atoms */
    vxg_class k = VXG_INSIDE;
    for (int j = 0; j < pr->natom; j++) {
      vxg_class a = atom_classify(&pc->atom[pr->first_atom + j], c, e, ax);
      if (a == VXG_OUTSIDE) {
        k = VXG_OUTSIDE;
        break;
      }
      if (a == VXG_MIXED) {
        k = VXG_MIXED;
      }
    }
    if (pr->complement && k != VXG_MIXED) {
      /* INSIDE {all f <= 0} everywhere <=> OUTSIDE {some f > 0} everywhere, and back */
      k = k == VXG_INSIDE ? VXG_OUTSIDE : VXG_INSIDE;
    }
    if (k == VXG_OUTSIDE) {
      return VXG_OUTSIDE;
    }
    if (k == VXG_MIXED) {
      acc = VXG_MIXED;
    }
  }
  return acc;
}


int vxg_posed_cell_contains(const vxg_posed_cell *pc, const double p[3]) {
  return cell_contains_atoms(pc->cell, pc->atom, p);
}
