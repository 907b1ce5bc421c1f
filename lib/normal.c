/* normal.c: the contact normal as an eigenvector of the inertia tensor of the volume of
 * interference (thesis A.3.3, lib/README.md section 3), and a Jacobi eigensolver to check it.
 *
 * Plain inverse iteration converges to the smallest eigenvalue, which for a thin,
 * pancake-shaped overlap is an in-plane axis, not the normal. Shifting by the Rayleigh
 * quotient mu of the guess makes it converge to the eigenvector whose eigenvalue is
 * nearest mu. We multiply by the adjugate of (J - mu I) instead of its inverse: same
 * direction (inverse = adjugate / det), and no division by a determinant that vanishes
 * exactly when the guess is already an eigenvector. Once the iterate is within theta_c,
 * two Rayleigh-quotient steps polish it to rounding. */
#include <math.h>
#include <string.h>

#include "geom/vec3.h"
#include "lib/internal.h"

/* An eigenvector moves by about |dJ| / gap when J is off by dJ: it is trusted only when
 * the gap to the other eigenvalues exceeds the uncertainty of J: the caller's relative
 * error of J times the largest eigenvalue, never less than rounding in the moments' sums.
 * Callers pass the certified volume bracket's relative width, which overstates the actual
 * error of the moments by two to three orders of magnitude (measured by vxc bench): that
 * is the safety margin, so the direction is sure to about 0.01 rad or better. A larger
 * factor here made every coarse-voxel query fall back to its guess, and the guess then
 * drifted toward the geometric estimate step after step. */
#define VXC_NORMAL_TRUST 1.0
/* Gap-to-uncertainty ratio from which the eigenvector is taken alone; from 1 to this ratio
 * it is blended with the guess. */
#define VXC_NORMAL_BLEND 4.0
#define VXC_NORMAL_MIN_REL_ERR 1e-12
/* The eigenvector is the normal of a thin overlap: its second moment along n (J's frame,
 * about the centroid) over the smaller of the other two, rho, is small. A blocky overlap (a
 * wedge about an edge: rho near 1/3) has eigenvectors that are no contact normal (they can
 * point outside both surfaces' normals); from rho = FLAT to BLOCKY the eigenvector is blended
 * into the guess, beyond it the guess is taken. */
#define VXC_NORMAL_FLAT 0.1
#define VXC_NORMAL_BLOCKY 0.3
/* Nor is an eigenvector far from the geometric estimate (the area vector, the mean normal
 * of A's surfaces in the overlap). Between two nearly parallel surfaces they differ by
 * about half the surfaces' angle (a degree between a peg and its hole's wall); a thin
 * overlap curved along a rim or a bore, whose curvature couples its extents, turns the
 * eigenvector several degrees away, out of the surfaces' normals (a chamfer on a rim: 60
 * degrees). Taken within NEAR of it, blended into the guess up to FAR, the guess beyond. */
#define VXC_NORMAL_NEAR (3 * M_PI / 180)
#define VXC_NORMAL_FAR (10 * M_PI / 180)

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}




static int normalise(double v[3]) {
  double n = sqrt(dot3(v, v));
  if (!(n > 0) || !isfinite(n)) {
    return -1;
  }
  for (int i = 0; i < 3; i++) {
    v[i] /= n;
  }
  return 0;
}


/* Adjugate (transpose of the cofactor matrix) of a symmetric 3x3 matrix. */
static void adjugate_sym(const double m[9], double adj[9]) {
  double a = m[0], b = m[1], c = m[2], d = m[4], e = m[5], f = m[8];
  adj[0] = d * f - e * e;
  adj[1] = c * e - b * f;
  adj[2] = b * e - c * d;
  adj[4] = a * f - c * c;
  adj[5] = b * c - a * e;
  adj[8] = a * d - b * b;
  adj[3] = adj[1];
  adj[6] = adj[2];
  adj[7] = adj[5];
}


vxc_status vxc_sym3_eigen(const double a[9], double eval[3], double evec[9], vxc_error *err) {
  static const char fn[] = "vxc_sym3_eigen";
  double m[9], v[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  if (!a || !eval || !evec) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn,
                         !a      ? "a"
                         : !eval ? "eval"
                                 : "evec");
  }
  for (int i = 0; i < 9; i++) {
    if (!isfinite(a[i])) {
      return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: a[%d] = %g is not finite", fn, i,
                           a[i]);
    }
  }
  /* symmetrise (the caller's matrix may differ from symmetric by rounding) */
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      m[3 * i + j] = 0.5 * (a[3 * i + j] + a[3 * j + i]);
    }
  }
  int converged = 0;
  for (int sweep = 0; sweep < 50 && !converged; sweep++) {
    double off = m[1] * m[1] + m[2] * m[2] + m[5] * m[5];
    double diag = m[0] * m[0] + m[4] * m[4] + m[8] * m[8];
    if (off <= 1e-32 * diag) {
      converged = 1;
      break;
    }
    for (int p = 0; p < 2; p++) {
      for (int q = p + 1; q < 3; q++) {
        double apq = m[3 * p + q];
        if (fabs(apq) <= 1e-17 * (fabs(m[3 * p + p]) + fabs(m[3 * q + q]))) {
          m[3 * p + q] = m[3 * q + p] = 0; /* below rounding of the diagonal */
          continue;
        }
        /* rotation that zeroes m[p][q] (Golub and Van Loan, sym.schur2) */
        double tau = (m[3 * q + q] - m[3 * p + p]) / (2 * apq);
        double t = (tau >= 0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1 + tau * tau));
        double c = 1 / sqrt(1 + t * t), s = t * c;
        for (int k = 0; k < 3; k++) { /* m = m J */
          double mkp = m[3 * k + p], mkq = m[3 * k + q];
          m[3 * k + p] = c * mkp - s * mkq;
          m[3 * k + q] = s * mkp + c * mkq;
        }
        for (int k = 0; k < 3; k++) { /* m = J^T m */
          double mpk = m[3 * p + k], mqk = m[3 * q + k];
          m[3 * p + k] = c * mpk - s * mqk;
          m[3 * q + k] = s * mpk + c * mqk;
        }
        for (int k = 0; k < 3; k++) { /* v = v J */
          double vkp = v[3 * k + p], vkq = v[3 * k + q];
          v[3 * k + p] = c * vkp - s * vkq;
          v[3 * k + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  if (!converged) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0,
                         "%s: Jacobi rotations did not converge in 50 sweeps", fn);
  }
  /* sort ascending, carrying the columns */
  int idx[3] = {0, 1, 2};
  double d[3] = {m[0], m[4], m[8]};
  for (int i = 0; i < 2; i++) {
    for (int j = i + 1; j < 3; j++) {
      if (d[idx[j]] < d[idx[i]]) {
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
      }
    }
  }
  double out[9];
  for (int c = 0; c < 3; c++) {
    eval[c] = d[idx[c]];
    for (int r = 0; r < 3; r++) {
      out[3 * r + c] = v[3 * r + idx[c]];
    }
  }
  /* right-handed: third column = first x second */
  double c0[3] = {out[0], out[3], out[6]}, c1[3] = {out[1], out[4], out[7]};
  double x[3] = {c0[1] * c1[2] - c0[2] * c1[1], c0[2] * c1[0] - c0[0] * c1[2],
                 c0[0] * c1[1] - c0[1] * c1[0]};
  if (dot3(x, (double[3]){out[2], out[5], out[8]}) < 0) {
    out[2] = -out[2];
    out[5] = -out[5];
    out[8] = -out[8];
  }
  memcpy(evec, out, sizeof out);
  return VXC_OK;
}


/* Flips v when it points away from ref (a normal's sign is a convention). */
static void align(double v[3], const double ref[3]) {
  if (dot3(v, ref) < 0) {
    for (int i = 0; i < 3; i++) {
      v[i] = -v[i];
    }
  }
}


/* adj(J - mu I): multiplying by it is one step of inverse iteration shifted by mu. */
static void shifted_adjugate(const double J[9], double mu, double adj[9]) {
  double shifted[9];
  memcpy(shifted, J, sizeof shifted);
  shifted[0] -= mu;
  shifted[4] -= mu;
  shifted[8] -= mu;
  adjugate_sym(shifted, adj);
}


/* The guess (A.31): mostly the previous normal, nudged toward the geometric estimate (unit);
 * geo alone without a usable previous normal. */
static void normal_guess(const double geo[3], const double *n_prev, double r_n, double guess[3]) {
  memcpy(guess, geo, 3 * sizeof *guess);
  if (!n_prev) {
    return;
  }
  double prev[3] = {n_prev[0], n_prev[1], n_prev[2]};
  if (normalise(prev) != 0) {
    return;
  }
  align(prev, geo); /* align before mixing */
  double g[3];
  for (int i = 0; i < 3; i++) {
    g[i] = (1 - r_n) * geo[i] + r_n * prev[i];
  }
  if (normalise(g) == 0) {
    memcpy(guess, g, sizeof g);
  }
}


/* Inverse iteration from the guess shifted by its Rayleigh quotient, into n, counting the
 * iterations in *it. Returns VXC_NORMAL_CONVERGED, 0 (the iteration cap), or -1 when no
 * single eigenvector is nearest the guess. */
static int normal_iterate(const double J[9], const double guess[3], double theta_c, int n_i,
                          double n[3], int *it) {
  double jg[3], adj[9];
  vxg_mat3_vec(J, guess, jg);
  shifted_adjugate(J, dot3(guess, jg), adj);
  memcpy(n, guess, 3 * sizeof *n);
  *it = 0;
  if (!(fabs(J[0]) + fabs(J[4]) + fabs(J[8]) > 0)) {
    return -1;
  }
  double cos_stop = 1 - 0.5 * theta_c * theta_c;
  while (*it < n_i) {
    double next[3];
    vxg_mat3_vec(adj, n, next);
    ++*it;
    if (normalise(next) != 0) {
      /* adj (J - mu I) n = 0: mu is a multiple eigenvalue (or n is orthogonal to the
         eigenvector), so no single eigenvector is nearest the guess */
      return -1;
    }
    align(next, n);
    double c = dot3(next, n);
    memcpy(n, next, sizeof next);
    if (c > cos_stop) {
      return VXC_NORMAL_CONVERGED;
    }
  }
  return 0;
}


/* Within theta_c of the target, two Rayleigh-quotient steps (shift updated to the current
 * iterate's quotient) converge cubically, so n becomes exact to rounding instead of to about
 * theta_c times the convergence ratio. */
static void normal_polish(const double J[9], double n[3]) {
  for (int k = 0; k < 2; k++) {
    double jn[3], next[3], adj[9];
    vxg_mat3_vec(J, n, jn);
    shifted_adjugate(J, dot3(n, jn), adj);
    vxg_mat3_vec(adj, n, next);
    if (normalise(next) != 0) {
      return; /* the quotient is already an eigenvalue to rounding: n is its eigenvector */
    }
    align(next, n);
    memcpy(n, next, sizeof next);
  }
}


/* The gap between n's eigenvalue and the other two, over the uncertainty of J: the eigenvalue
 * must stand apart, or its eigenvector is arbitrary within a plane (or the whole space).
 * *rho: the overlap's second moment along n over the smaller of the other two (the central
 * second moments are tr(J) / 2 - J's eigenvalues). Returns 0, or -1 when the eigen solver
 * fails. */
static int normal_gap_ratio(const double J[9], const double n[3], double j_rel_err, double *ratio,
                            double *rho) {
  double jn[3], ev[3], evec[9];
  vxg_mat3_vec(J, n, jn);
  double lam = dot3(n, jn);
  if (vxc_sym3_eigen(J, ev, evec, NULL) != VXC_OK) {
    return -1;
  }
  double gap = INFINITY, spread = fmax(fabs(ev[0]), fabs(ev[2]));
  int nearest = 0;
  for (int k = 1; k < 3; k++) {
    if (fabs(ev[k] - lam) < fabs(ev[nearest] - lam)) {
      nearest = k;
    }
  }
  for (int k = 0; k < 3; k++) {
    if (k != nearest) {
      gap = fmin(gap, fabs(ev[k] - ev[nearest]));
    }
  }
  double rel = fmax(j_rel_err, VXC_NORMAL_MIN_REL_ERR);
  *ratio = gap / (VXC_NORMAL_TRUST * rel * spread);
  double half = 0.5 * (ev[0] + ev[1] + ev[2]), other = INFINITY;
  for (int k = 0; k < 3; k++) {
    if (k != nearest) {
      other = fmin(other, half - ev[k]);
    }
  }
  *rho = other > 0 ? fmax(half - ev[nearest], 0) / other : INFINITY;
  return 0;
}


/* Between distrust and trust, a blend whose weight w grows linearly with the ratio, so that n
 * moves continuously as the gap opens or closes (two eigenvalues crossing as a pose moves would
 * otherwise flip n between eigenvectors, or between the eigenvector and the guess, and an
 * adaptive integrator crawls through every such jump). Returns VXC_NORMAL_BLENDED or 0. */
static int normal_blend(double n[3], const double guess[3], double w) {
  double b[3];
  double sg = dot3(n, guess) < 0 ? -1 : 1;
  for (int i = 0; i < 3; i++) {
    b[i] = w * sg * n[i] + (1 - w) * guess[i];
  }
  if (normalise(b) != 0) {
    return 0;
  }
  memcpy(n, b, sizeof b);
  return VXC_NORMAL_BLENDED;
}


/* The arguments' checks of vxc_normal_solve (err names fn and the argument); sets geo to the
 * unit n_geo. */
static vxc_status normal_check(const char *fn, const double J[9], const double n_geo[3],
                               const vxc_normal_options *o, const void *out, double geo[3],
                               vxc_error *err) {
  if (!J || !n_geo || !o || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn,
                         !J       ? "J"
                         : !n_geo ? "n_geo"
                         : !o     ? "o"
                                  : "out");
  }
  const char *bad = !(o->theta_c > 0)              ? "theta_c is not > 0"
                    : !(o->r_n >= 0 && o->r_n < 1) ? "r_n is not in [0, 1)"
                    : o->n_i < 1                   ? "n_i is not >= 1"
                    : !(o->j_rel_err >= 0 && isfinite(o->j_rel_err))
                        ? "j_rel_err is not finite and >= 0"
                        : NULL;
  if (bad) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s", fn, bad);
  }
  for (int i = 0; i < 9; i++) {
    if (!isfinite(J[i])) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: J[%d] = %g is not finite", fn, i,
                           J[i]);
    }
  }
  memcpy(geo, n_geo, 3 * sizeof *geo);
  if (normalise(geo) != 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: n_geo is zero or not finite", fn);
  }
  return VXC_OK;
}


void vxc_normal_options_default(vxc_normal_options *o) {
  o->n_prev = NULL;
  o->theta_c = M_PI / 180;
  o->r_n = 0.95;
  o->n_i = 15;
  o->j_rel_err = 0;
}


/* vxc_normal_solve; with `thin`, an eigenvector along which the overlap is not thin
 * (VXC_NORMAL_FLAT to VXC_NORMAL_BLOCKY) or far from n_geo (VXC_NORMAL_NEAR to FAR) is also
 * blended into the guess. */
static vxc_status normal_solve(const char *fn, const double J[9], const double n_geo[3],
                               const vxc_normal_options *o, int thin, vxc_normal_result *out,
                               vxc_error *err) {
  double geo[3], guess[3], n[3], ratio, rho;
  vxc_status st = normal_check(fn, J, n_geo, o, out, geo, err);
  if (st != VXC_OK) {
    return st;
  }
  normal_guess(geo, o->n_prev, o->r_n, guess);
  int it, fl = normal_iterate(J, guess, o->theta_c, o->n_i, n, &it);
  if (fl == VXC_NORMAL_CONVERGED) {
    normal_polish(J, n);
  }
  if (fl >= 0) {
    if (normal_gap_ratio(J, n, o->j_rel_err, &ratio, &rho) != 0) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: J has no eigen-decomposition", fn);
    }
    double w = (ratio - 1) / (VXC_NORMAL_BLEND - 1);
    if (thin) {
      double ang = acos(fmin(1, fabs(dot3(n, geo))));
      w = fmin(w, (VXC_NORMAL_BLOCKY - rho) / (VXC_NORMAL_BLOCKY - VXC_NORMAL_FLAT));
      w = fmin(w, (VXC_NORMAL_FAR - ang) / (VXC_NORMAL_FAR - VXC_NORMAL_NEAR));
    }
    if (!(w > 0)) {
      fl = -1;
    } else if (w < 1) {
      fl |= normal_blend(n, guess, w);
    }
  }
  if (fl < 0) {
    memcpy(n, guess, sizeof n);
    fl = VXC_NORMAL_DEGENERATE;
  } else if (!(fl & VXC_NORMAL_CONVERGED)) {
    fl |= VXC_NORMAL_MAXITER;
  }
  align(n, geo);
  memcpy(out->n, n, sizeof n);
  out->flags = fl;
  out->iterations = it;
  return VXC_OK;
}


vxc_status vxc_normal_solve(const double J[9], const double n_geo[3], const vxc_normal_options *o,
                            vxc_normal_result *out, vxc_error *err) {
  return normal_solve("vxc_normal_solve", J, n_geo, o, 0, out, err);
}


vxc_status vxci_contact_normal(const double J[9], const double n_geo[3],
                               const vxc_normal_options *o, vxc_normal_result *out) {
  return normal_solve("the contact normal", J, n_geo, o, 1, out, NULL);
}


vxc_status vxc_normal_from_inertia(const double J[9], const double n_geo[3], const double *n_prev,
                                   double theta_c, double r_n, int n_i, double j_rel_err,
                                   double n_out[3], int *flags, int *iterations, vxc_error *err) {
  static const char fn[] = "vxc_normal_from_inertia";
  vxc_normal_options o = {n_prev, theta_c, r_n, n_i, j_rel_err};
  vxc_normal_result r;
  if (!n_out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: n_out is NULL", fn);
  }
  vxc_status st = normal_solve(fn, J, n_geo, &o, 0, &r, err);
  if (st != VXC_OK) {
    return st;
  }
  memcpy(n_out, r.n, sizeof r.n);
  if (flags) {
    *flags = r.flags;
  }
  if (iterations) {
    *iterations = r.iterations;
  }
  return VXC_OK;
}
