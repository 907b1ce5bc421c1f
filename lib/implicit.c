/* implicit.c: the linearly implicit step of a simulator's bodies under the contact wrenches of
 * several pairs (vxc_implicit_step, lib/README.md section 16): one dense linear system in the
 * bodies' twists, solved again without the pairs whose normal force would pull. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"
#include "lib/pair_internal.h"

/* Solves A X = B in place (A n x n, B n x m, row-major; partial pivoting). 0, or -1 when A is
 * singular. */
int vxci_pair_dense_solve(int n, double *A, int m, double *B) {
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++) {
      if (fabs(A[i * n + k]) > fabs(A[piv * n + k])) {
        piv = i;
      }
    }
    if (!(fabs(A[piv * n + k]) > 0)) {
      return -1;
    }
    if (piv != k) {
      for (int j = 0; j < n; j++) {
        double t = A[k * n + j];
        A[k * n + j] = A[piv * n + j];
        A[piv * n + j] = t;
      }
      for (int j = 0; j < m; j++) {
        double t = B[k * m + j];
        B[k * m + j] = B[piv * m + j];
        B[piv * m + j] = t;
      }
    }
    for (int i = k + 1; i < n; i++) {
      double f = A[i * n + k] / A[k * n + k];
      if (f == 0) {
        continue;
      }
      for (int j = k; j < n; j++) {
        A[i * n + j] -= f * A[k * n + j];
      }
      for (int j = 0; j < m; j++) {
        B[i * m + j] -= f * B[k * m + j];
      }
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    for (int j = 0; j < m; j++) {
      double s = B[k * m + j];
      for (int i = k + 1; i < n; i++) {
        s -= A[k * n + i] * B[i * m + j];
      }
      B[k * m + j] = s / A[k * n + k];
    }
  }
  return 0;
}


/* Pair k's 12 twist entries among the 6 nbody: the index of each, or -1 (a body not moved). */
static void pair_index(const vxc_implicit_pair *pp, int idx[12]) {
  for (int i = 0; i < 12; i++) {
    int b = i < 6 ? pp->body_a : pp->body_b;
    idx[i] = b < 0 ? -1 : 6 * b + i % 6;
  }
}


/* Each pair's weight of its pose stiffness (vxc_pair.h): omega^2 = trace(-minv d_pose) over
 * its bodies' entries. */
static void pair_thetas(int n, const double *minv, double h, int npair, vxc_implicit_pair *pairs) {
  for (int k = 0; k < npair; k++) {
    vxc_implicit_pair *pp = &pairs[k];
    int idx[12];
    pair_index(pp, idx);
    double w2 = 0;
    for (int i = 0; i < 12; i++) {
      for (int j = 0; j < 12; j++) {
        if (idx[i] >= 0 && idx[j] >= 0) {
          w2 -= minv[(size_t)idx[i] * n + idx[j]] * pp->jac->d_pose[12 * j + i];
        }
      }
    }
    double x = w2 * h * h;
    pp->theta = x > 2 ? 0.5 - 1 / x : 0.0;
  }
}


/* Pair pp's step wrench entry i and step Jacobian entry (i, j), its pose stiffness weighed by
 * its theta. */
static double step_w(const vxc_implicit_pair *pp, int i) {
  return pp->jac->step_wrench[i] - (1 - pp->theta) * pp->jac->pose_wrench[i];
}


static double step_k(const vxc_implicit_pair *pp, int i, int j) {
  return pp->jac->step_twist[12 * i + j] - (1 - pp->theta) * pp->jac->pose_twist[12 * i + j];
}


/* A friction record's mode over the step: sticking, or sliding along dir. */
typedef struct fmode {
  int slide;
  double dir[3];
} fmode;

/* Friction record r of pair pp in mode m as a force on A at p_c linear in the twists' change
 * (12 entries, idx as pair_index): f0 (3) and its row (3 x 12). */
static void record_lin(const vxc_implicit_pair *pp, const vxc_contact_friction *r,
                       const fmode *m, double f0[3], double row[36]) {
  if (!m->slide) {
    memcpy(f0, r->stick, 3 * sizeof *f0);
    memcpy(row, r->stick_row, 36 * sizeof *row);
    return;
  }
  double c = 1 - pp->theta, fn = r->fn - c * r->fn_pose;
  for (int i = 0; i < 3; i++) {
    f0[i] = r->mu_slide * fn * m->dir[i];
    for (int j = 0; j < 12; j++) {
      row[12 * i + j] = r->mu_slide * m->dir[i] * (r->fn_row[j] - c * r->fn_row_pose[j]);
    }
  }
}


/* The linear form (f0, row) at the twists' change dt (n entries) through idx: f (m entries). */
static void lin_at(int m, const double *f0, const double *row, const int idx[12],
                   const double *dt, double *f) {
  for (int i = 0; i < m; i++) {
    f[i] = f0[i];
    for (int j = 0; j < 12; j++) {
      f[i] += idx[j] < 0 ? 0.0 : row[12 * i + j] * dt[idx[j]];
    }
  }
}


/* The closed pairs' friction records into K and W_s: G^T f0 and G^T row. */
static void assemble_records(int n, int npair, const vxc_implicit_pair *pairs,
                             const fmode *mode, double *K, double *ws) {
  const fmode *m = mode;
  for (int k = 0; k < npair; k++) {
    const vxc_implicit_pair *pp = &pairs[k];
    int idx[12];
    pair_index(pp, idx);
    for (int r = 0; r < pp->jac->nfriction; r++, m++) {
      const vxc_contact_friction *rc = &pp->jac->friction[r];
      double f0[3], row[36];
      if (pp->open) {
        continue;
      }
      record_lin(pp, rc, m, f0, row);
      for (int i = 0; i < 12; i++) {
        if (idx[i] < 0) {
          continue;
        }
        for (int l = 0; l < 3; l++) {
          double g = rc->g[12 * l + i];
          ws[idx[i]] += g * f0[l];
          for (int j = 0; j < 12; j++) {
            if (idx[j] >= 0) {
              K[(size_t)idx[i] * n + idx[j]] += g * row[12 * l + j];
            }
          }
        }
      }
    }
  }
}


/* K and W_s summed over the closed pairs. */
static void assemble(int n, int npair, const vxc_implicit_pair *pairs, const fmode *mode,
                     double *K, double *ws) {
  memset(K, 0, (size_t)n * (size_t)n * sizeof *K);
  memset(ws, 0, (size_t)n * sizeof *ws);
  for (int k = 0; k < npair; k++) {
    const vxc_implicit_pair *pp = &pairs[k];
    if (pp->open) {
      continue;
    }
    int idx[12];
    pair_index(pp, idx);
    for (int i = 0; i < 12; i++) {
      if (idx[i] < 0) {
        continue;
      }
      ws[idx[i]] += step_w(pp, i);
      for (int j = 0; j < 12; j++) {
        if (idx[j] >= 0) {
          K[(size_t)idx[i] * n + idx[j]] += step_k(pp, i, j);
        }
      }
    }
  }
  assemble_records(n, npair, pairs, mode, K, ws);
}


/* Turns the closed pairs' sticking records whose force at dt would exceed mu_static times
 * their normal force there to sliding along that force; the count. */
static int slide_exceeding(int npair, const vxc_implicit_pair *pairs, const double *dt,
                           fmode *mode) {
  int changed = 0;
  fmode *m = mode;
  for (int k = 0; k < npair; k++) {
    const vxc_implicit_pair *pp = &pairs[k];
    int idx[12];
    pair_index(pp, idx);
    double c = 1 - pp->theta;
    for (int r = 0; r < pp->jac->nfriction; r++, m++) {
      const vxc_contact_friction *rc = &pp->jac->friction[r];
      if (pp->open || m->slide) {
        continue;
      }
      double f[3], fn, fn0 = rc->fn - c * rc->fn_pose, row[12];
      for (int j = 0; j < 12; j++) {
        row[j] = rc->fn_row[j] - c * rc->fn_row_pose[j];
      }
      lin_at(3, rc->stick, rc->stick_row, idx, dt, f);
      lin_at(1, &fn0, row, idx, dt, &fn);
      double fm = sqrt(vxg_dot(f, f));
      if (fm > rc->mu_static * (fn > 0 ? fn : 0.0)) {
        m->slide = 1;
        for (int i = 0; i < 3; i++) {
          m->dir[i] = f[i] / fm;
        }
        changed++;
      }
    }
  }
  return changed;
}


/* (I - h minv K) dt = h (a_free + minv ws): dt into x. A is n x n scratch. 0 or -1. */
static int solve_dt(int n, const double *minv, const double *a_free, double h, const double *K,
                    const double *ws, double *A, double *x) {
  for (int i = 0; i < n; i++) {
    double b = a_free[i];
    for (int j = 0; j < n; j++) {
      b += minv[(size_t)i * n + j] * ws[j];
      double s = 0;
      for (int l = 0; l < n; l++) {
        s += minv[(size_t)i * n + l] * K[(size_t)l * n + j];
      }
      A[(size_t)i * n + j] = (i == j) - h * s;
    }
    x[i] = h * b;
  }
  return vxci_pair_dense_solve(n, A, 1, x);
}


/* Opens the closed pairs whose normal force over the step would be negative; the count. */
static int open_pulling(int npair, vxc_implicit_pair *pairs, const double *dt) {
  int changed = 0;
  for (int k = 0; k < npair; k++) {
    vxc_implicit_pair *pp = &pairs[k];
    if (pp->open || !(pp->jac->fn_step > 0 || vxg_dot(pp->jac->fn_row, pp->jac->fn_row) > 0)) {
      continue;
    }
    int idx[12];
    pair_index(pp, idx);
    const vxc_pair_jacobian *J = pp->jac;
    double c = 1 - pp->theta, fn = J->fn_step - c * J->fn_pose;
    for (int i = 0; i < 12; i++) {
      fn += idx[i] < 0 ? 0.0 : (J->fn_row[i] - c * J->fn_row_pose[i]) * dt[idx[i]];
    }
    if (fn < 0) {
      pp->open = 1;
      changed++;
    }
  }
  return changed;
}


/* Each pair's wrench over the step, its sliding records, and their sum per body. */
static void pair_wrenches(int n, int npair, vxc_implicit_pair *pairs, const fmode *mode,
                          const double *dt, double *w_out) {
  memset(w_out, 0, (size_t)n * sizeof *w_out);
  const fmode *m = mode;
  for (int k = 0; k < npair; k++) {
    vxc_implicit_pair *pp = &pairs[k];
    int idx[12];
    pair_index(pp, idx);
    for (int i = 0; i < 12; i++) {
      double w = 0;
      if (!pp->open) {
        w = step_w(pp, i);
        for (int j = 0; j < 12; j++) {
          w += idx[j] < 0 ? 0.0 : step_k(pp, i, j) * dt[idx[j]];
        }
      }
      pp->wrench[i] = w;
    }
    pp->sliding = 0;
    for (int r = 0; r < pp->jac->nfriction; r++, m++) {
      const vxc_contact_friction *rc = &pp->jac->friction[r];
      double f0[3], row[36], f[3];
      if (pp->open) {
        continue;
      }
      pp->sliding += m->slide;
      record_lin(pp, rc, m, f0, row);
      lin_at(3, f0, row, idx, dt, f);
      for (int i = 0; i < 12; i++) {
        pp->wrench[i] += rc->g[i] * f[0] + rc->g[12 + i] * f[1] + rc->g[24 + i] * f[2];
      }
    }
    for (int i = 0; i < 12; i++) {
      if (idx[i] >= 0) {
        w_out[idx[i]] += pp->wrench[i];
      }
    }
  }
}


vxc_status vxc_implicit_step(int nbody, const double *minv, const double *a_free, double h,
                             int npair, vxc_implicit_pair *pairs, double *w_out, double *dt_out,
                             const vxc_allocator *al, vxc_error *err) {
  static const char *fn = "vxc_implicit_step";
  if (!minv || !a_free || !w_out || (npair > 0 && !pairs) || nbody < 1 || nbody > (1 << 12) ||
      npair < 0 || !(h > 0) || !isfinite(h)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s", fn,
                         nbody < 1 || nbody > (1 << 12) ? "nbody is not in [1, 4096]"
                         : npair < 0                    ? "npair is negative"
                         : !(h > 0) || !isfinite(h)     ? "h is not positive"
                                                        : "a NULL argument");
  }
  for (int k = 0; k < npair; k++) {
    const vxc_implicit_pair *pp = &pairs[k];
    if (!pp->jac || pp->body_a < -1 || pp->body_a >= nbody || pp->body_b < -1 ||
        pp->body_b >= nbody) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                           "%s: pair %d: a NULL jac or a body index not in [-1, %d)", fn, k, nbody);
    }
  }
  al = al && al->realloc ? al : NULL;
  int n = 6 * nbody;
  size_t nn = (size_t)n * (size_t)n, nrec = 0;
  for (int k = 0; k < npair; k++) {
    nrec += pairs[k].jac->friction ? (size_t)pairs[k].jac->nfriction : 0;
    if (pairs[k].jac->nfriction > 0 && !pairs[k].jac->friction) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: pair %d: no friction records", fn,
                           k);
    }
  }
  double *K = vxg_realloc(al, NULL, (2 * nn + 2 * (size_t)n) * sizeof *K);
  fmode *mode = vxg_realloc(al, NULL, (nrec > 0 ? nrec : 1) * sizeof *mode);
  if (!K || !mode) {
    vxg_free(al, K);
    vxg_free(al, mode);
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "%s: out of memory", fn);
  }
  memset(mode, 0, (nrec > 0 ? nrec : 1) * sizeof *mode);
  double *A = K + nn, *ws = A + nn, *dt = ws + n;
  for (int k = 0; k < npair; k++) {
    pairs[k].open = 0;
  }
  pair_thetas(n, minv, h, npair, pairs);
  vxc_status st = VXC_OK;
  for (size_t round = 0; round <= (size_t)npair + nrec; round++) {
    assemble(n, npair, pairs, mode, K, ws);
    if (solve_dt(n, minv, a_free, h, K, ws, A, dt) != 0) {
      st = vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: a singular system", fn);
      break;
    }
    int changed = open_pulling(npair, pairs, dt);
    changed += slide_exceeding(npair, pairs, dt, mode);
    if (changed == 0) {
      break;
    }
  }
  for (int i = 0; st == VXC_OK && i < n; i++) {
    if (!isfinite(dt[i])) {
      st = vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: a non-finite result", fn);
    }
  }
  if (st == VXC_OK) {
    pair_wrenches(n, npair, pairs, mode, dt, w_out);
    if (dt_out) {
      memcpy(dt_out, dt, (size_t)n * sizeof *dt);
    }
  }
  vxg_free(al, K);
  vxg_free(al, mode);
  return st;
}
