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

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}


static void mat_vec(const double m[9], const double v[3], double o[3]) {
  for (int i = 0; i < 3; i++) {
    o[i] = m[3 * i] * v[0] + m[3 * i + 1] * v[1] + m[3 * i + 2] * v[2];
  }
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


vxc_status vxc_sym3_eigen(const double a[9], double eval[3], double evec[9]) {
  double m[9], v[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int i = 0; i < 9; i++) {
    if (!isfinite(a[i])) {
      return VXC_ERR_NUMERIC;
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
    return VXC_ERR_NUMERIC;
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


vxc_status vxc_normal_from_inertia(const double J[9], const double n_geo[3], const double *n_prev,
                                   double theta_c, double r_n, int n_i, double j_rel_err,
                                   double n_out[3], int *flags, int *iterations) {
  if (!J || !n_geo || !n_out || !(theta_c > 0) || !(r_n >= 0 && r_n < 1) || n_i < 1 ||
      !(j_rel_err >= 0) || !isfinite(j_rel_err)) {
    return VXC_ERR_ARG;
  }
  for (int i = 0; i < 9; i++) {
    if (!isfinite(J[i])) {
      return VXC_ERR_ARG;
    }
  }
  double geo[3] = {n_geo[0], n_geo[1], n_geo[2]};
  if (normalise(geo) != 0) {
    return VXC_ERR_ARG;
  }
  /* the guess (A.31): mostly the previous normal, nudged toward the geometric estimate */
  double guess[3];
  memcpy(guess, geo, sizeof guess);
  if (n_prev) {
    double prev[3] = {n_prev[0], n_prev[1], n_prev[2]};
    if (normalise(prev) == 0) {
      if (dot3(prev, geo) < 0) { /* a normal's sign is a convention: align before mixing */
        for (int i = 0; i < 3; i++) {
          prev[i] = -prev[i];
        }
      }
      double g[3];
      for (int i = 0; i < 3; i++) {
        g[i] = (1 - r_n) * geo[i] + r_n * prev[i];
      }
      if (normalise(g) == 0) {
        memcpy(guess, g, sizeof g);
      }
    }
  }

  double jg[3];
  mat_vec(J, guess, jg);
  double mu = dot3(guess, jg);
  double scale = fabs(J[0]) + fabs(J[4]) + fabs(J[8]);
  double shifted[9], adj[9];
  memcpy(shifted, J, sizeof shifted);
  shifted[0] -= mu;
  shifted[4] -= mu;
  shifted[8] -= mu;
  adjugate_sym(shifted, adj);

  int fl = 0, it = 0;
  double n[3];
  memcpy(n, guess, sizeof n);
  double cos_stop = 1 - 0.5 * theta_c * theta_c;
  int degenerate = !(scale > 0);
  while (!degenerate && it < n_i) {
    double next[3];
    mat_vec(adj, n, next);
    it++;
    if (normalise(next) != 0) {
      /* adj (J - mu I) n = 0: mu is a multiple eigenvalue (or n is orthogonal to the
         eigenvector), so no single eigenvector is nearest the guess */
      degenerate = 1;
      break;
    }
    double c = dot3(next, n);
    if (c < 0) {
      for (int i = 0; i < 3; i++) {
        next[i] = -next[i];
      }
      c = -c;
    }
    memcpy(n, next, sizeof n);
    if (c > cos_stop) {
      fl |= VXC_NORMAL_CONVERGED;
      break;
    }
  }
  if (!degenerate && (fl & VXC_NORMAL_CONVERGED)) {
    /* polish: within theta_c of the target, two Rayleigh-quotient steps (shift updated to
       the current iterate's quotient) converge cubically, so the vector is exact to
       rounding instead of to about theta_c times the convergence ratio */
    for (int k = 0; k < 2; k++) {
      double jn[3], next[3];
      mat_vec(J, n, jn);
      double rq = dot3(n, jn);
      memcpy(shifted, J, sizeof shifted);
      shifted[0] -= rq;
      shifted[4] -= rq;
      shifted[8] -= rq;
      adjugate_sym(shifted, adj);
      mat_vec(adj, n, next);
      if (normalise(next) != 0) {
        break; /* rq is already an eigenvalue to rounding: n is its eigenvector */
      }
      if (dot3(next, n) < 0) {
        for (int i = 0; i < 3; i++) {
          next[i] = -next[i];
        }
      }
      memcpy(n, next, sizeof n);
    }
  }
  if (!degenerate) {
    /* the eigenvalue found must stand apart from the other two, or its eigenvector is
       arbitrary within a plane (or the whole space) */
    double jn[3], ev[3], evec[9];
    mat_vec(J, n, jn);
    double lam = dot3(n, jn);
    if (vxc_sym3_eigen(J, ev, evec) != VXC_OK) {
      return VXC_ERR_ARG;
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
    double ratio = gap / (VXC_NORMAL_TRUST * rel * spread);
    if (!(ratio > 1)) {
      degenerate = 1;
    } else if (ratio < VXC_NORMAL_BLEND) {
      /* between distrust and trust, a blend whose weight grows linearly with the ratio, so
         that n moves continuously as the gap opens or closes (two eigenvalues crossing as a
         pose moves would otherwise flip n between eigenvectors, or between the eigenvector
         and the guess, and an adaptive integrator crawls through every such jump) */
      double w = (ratio - 1) / (VXC_NORMAL_BLEND - 1), b[3];
      double sg = dot3(n, guess) < 0 ? -1 : 1;
      for (int i = 0; i < 3; i++) {
        b[i] = w * sg * n[i] + (1 - w) * guess[i];
      }
      if (normalise(b) == 0) {
        memcpy(n, b, sizeof n);
        fl |= VXC_NORMAL_BLENDED;
      }
    }
  }
  if (degenerate) {
    memcpy(n, guess, sizeof n);
    fl = VXC_NORMAL_DEGENERATE;
  } else if (!(fl & VXC_NORMAL_CONVERGED)) {
    fl |= VXC_NORMAL_MAXITER;
  }
  if (dot3(n, geo) < 0) {
    for (int i = 0; i < 3; i++) {
      n[i] = -n[i];
    }
  }
  memcpy(n_out, n, sizeof n);
  if (flags) {
    *flags = fl;
  }
  if (iterations) {
    *iterations = it;
  }
  return VXC_OK;
}
