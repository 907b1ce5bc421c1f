/* task_rosw.c: the task runner's linearly implicit integrator, `(method rosw)`: the
 * Rosenbrock-W method ROS34PW2 of Rang and Angermann (BIT 45, 2005: 4 stages, order 3 for any
 * Jacobian, an embedded order-2 solution for the error, L-stable and stiffly accurate); and
 * `(method auto)`'s choice, step by step, between it and bs3 (vxci_sim_rosw_implicit): bs3
 * where its step is stable for J's spectrum (through impacts, in flight), rosw where the held
 * contacts' stiff modes would hold bs3 at its stability limit.
 *
 * Why: a sticking contact's bristle damping sigma1 f_n (thesis 4.227-4.230) against a body's
 * mass is a decay rate of 1e4 1/s for the 2 kg ball, so explicit steps are held near 0.3 ms
 * whatever the tolerance. Here each stage solves (I - h gamma J) k = h f + h J sum gamma_ij k_j
 * with J the Jacobian of f in the fast variables u only: the dynamic bodies' velocities and the
 * held contact slots' friction states (bristle z, spin bristle theta, dwell s_dw, relaxation
 * V_ro), as the bristle LCP of Peiret, Kovecses and Font-Llagunes integrates the bristle and the
 * velocities together (their eq. 3, 4), so the step is limited by the bodies' own motion. J is
 * taken by finite differences of f at the step's start with that start's contact query (the
 * geometry depends on the poses only), so it costs no query; a W-method keeps its order with
 * such an approximate J, so it serves the next steps too while the contacts stay
 * (vxci_sim_rosw_step_done). Every other variable (poses, the energy integrals) gets J's rows in u,
 * so the energy integrals follow the same linearly implicit stages as the velocities whose
 * power they integrate: the budget K + P + E + D - W still balances to the step's error.
 *
 * Data: s->jac (task_sim.h); the stage increments in s->k[1..4], f(t + h, y1) in
 * s->k[ROSW_KEND], the stage right-hand side in s->k[6]. */
#include <math.h>
#include <string.h>

#include "lib/dense.h"
#include "lib/task_sim.h"

/* ROS34PW2 (Rang and Angermann 2005, table 4.1): alpha_ij, gamma_ij (j < i), gamma, and the
 * weights of the solution b and of the embedded solution b_hat. */
#define RW_S 4
static const double RW_GAMMA = 4.3586652150845900e-01;
static const double RW_A[RW_S][RW_S] = {{0, 0, 0, 0},
                                        {8.7173304301691801e-01, 0, 0, 0},
                                        {8.4457060015369423e-01, -1.1299064236484185e-01, 0, 0},
                                        {0, 0, 1, 0}};
static const double RW_G[RW_S][RW_S] = {
    {0, 0, 0, 0},
    {-8.7173304301691801e-01, 0, 0, 0},
    {-9.0338057013044082e-01, 5.4180672388095326e-02, 0, 0},
    {2.4212380706095346e-01, -1.2232505839045147e+00, 5.4526025533510214e-01, 0}};
static const double RW_B[RW_S] = {2.4212380706095346e-01, -1.2232505839045147e+00,
                                  1.5452602553351020e+00, 4.3586652150845900e-01};
static const double RW_BH[RW_S] = {3.7810903145819369e-01, -9.6042292212423178e-02, 0.5,
                                   2.1793326075422950e-01};

/* The friction states of a slot that are integrated (VXC_STATE_Z .. VXC_STATE_VRO). */
#define SLOT_FAST 6

vxc_status vxci_sim_rosw_init(sim *s) {
  const vxc_task *T = s->t;
  sim_jac *j = &s->jac;
  int mmax = 0;
  for (int i = 0; i < T->nbody; i++) {
    mmax += s->b[i].off >= 0 ? 6 : 0;
  }
  for (int ci = 0; ci < T->ncontact; ci++) {
    mmax += SLOT_FAST * T->contact[ci].slots;
  }
  j->mmax = mmax;
  size_t nm = (size_t)s->n * (mmax > 0 ? mmax : 1);
  j->u = vxci_task_alloc(T, sizeof *j->u * (mmax + 1));
  j->piv = vxci_task_alloc(T, sizeof *j->piv * (mmax + 1));
  j->J = vxci_task_alloc(T, sizeof *j->J * nm);
  j->W = vxci_task_alloc(T, sizeof *j->W * ((size_t)mmax * mmax + 1));
  j->f0 = vxci_task_alloc(T, sizeof *j->f0 * s->n);
  j->g = vxci_task_alloc(T, sizeof *j->g * (mmax + 1));
  j->u2 = vxci_task_alloc(T, sizeof *j->u2 * (mmax + 1));
  j->d = vxci_task_alloc(T, sizeof *j->d * (mmax + 1));
  j->ok = 0;
  j->h = 0;
  return j->u && j->piv && j->J && j->W && j->f0 && j->g && j->d && j->u2 ? VXC_OK
                                                                          : VXC_ERR_NOMEM;
}


void vxci_sim_rosw_free(sim *s) {
  sim_jac *j = &s->jac;
  void *v[] = {j->u, j->piv, j->J, j->W, j->f0, j->g, j->d, j->u2};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
    vxci_task_free_mem(s->t, v[i]);
  }
  memset(j, 0, sizeof *j);
}


/* Whether slot `sl` of contact ci is held. */
static int held(const sim *s, int ci, int sl) {
  return s->y[s->c[ci].off + sl * VXC_STATE_SIZE + VXC_STATE_ACTIVE] > 0.5;
}


/* The fast variables at s->y: the friction states of each held slot and the velocities of the
 * dynamic bodies it touches. While a contact sticks its bristle is a stiff, nearly linear
 * spring-damper (sigma0 f_n, sigma1 f_n) that J captures; while it slides toward a stop its
 * Coulomb force, f_n mu_c C_v over the slip (the Contensou factor, lib/README.md section 7), is
 * a damping that grows as the slip falls, as stiff near the stop as the bristle, and J holds
 * it too. */
static int fast_set(const sim *s, int *u) {
  const vxc_task *T = s->t;
  int m = 0;
  for (int i = 0; i < T->nbody; i++) {
    int stiff = 0;
    for (int ci = 0; ci < T->ncontact && s->b[i].off >= 0; ci++) {
      for (int sl = 0; sl < T->contact[ci].slots; sl++) {
        stiff |= (T->contact[ci].a == i || T->contact[ci].b == i) && held(s, ci, sl);
      }
    }
    for (int k = 0; k < 6 && stiff; k++) {
      u[m++] = s->b[i].off + 7 + k;
    }
  }
  for (int ci = 0; ci < T->ncontact; ci++) {
    for (int sl = 0; sl < T->contact[ci].slots; sl++) {
      int off = s->c[ci].off + sl * VXC_STATE_SIZE;
      for (int k = 0; k < SLOT_FAST && held(s, ci, sl); k++) {
        u[m++] = off + k;
      }
    }
  }
  return m;
}


/* The finite-difference step of fast variable y[i]: small against the scales on which the
 * friction model bends (v_e = 1e-5 m/s, the bristle's pre-sliding deflection mu_s / sigma0),
 * large against rounding. */
static double fd_step(const sim *s, int i, double v) {
  int body = s->t->ncontact == 0 || i < s->c[0].off;
  double floor = body ? 1e-10 : 1e-14;
  return 1e-7 * fabs(v) + floor;
}


/* An estimate of the spectral radius of J_uu (1/s) by power iteration in the error norm's
 * scales D (D^-1 J_uu D has J_uu's eigenvalues): the growth of |J^k x| over iterations 8 to
 * 24 from x = (1, ..., 1), which a dominant pair of complex eigenvalues does not stop from
 * converging in modulus. s->jac.g and .W (refactored before use) are its scratch. */
static double spectral_radius(sim *s) {
  sim_jac *j = &s->jac;
  int m = j->m;
  double *x = j->g, *y = j->W, lg = 0;
  for (int c = 0; c < m; c++) {
    x[c] = 1;
  }
  for (int it = 0; it < 24; it++) {
    double nrm = 0;
    for (int r = 0; r < m; r++) {
      double acc = 0;
      for (int c = 0; c < m; c++) {
        acc += j->J[(size_t)c * s->n + j->u[r]] * j->d[c] / j->d[r] * x[c];
      }
      y[r] = acc;
      nrm = fmax(nrm, fabs(acc));
    }
    if (!(nrm > 0) || !isfinite(nrm)) {
      return isfinite(nrm) ? 0 : HUGE_VAL;
    }
    for (int r = 0; r < m; r++) {
      x[r] = y[r] / nrm;
    }
    lg += it >= 8 ? log(nrm) : 0;
  }
  return exp(lg / 16);
}


/* J = df/du at (t, s->y) with the last query (made at s->y). */
static vxc_status jacobian(sim *s, double t) {
  sim_jac *j = &s->jac;
  int n = s->n;
  vxc_status st = vxci_sim_eval(s, t, s->y, j->f0, 0);
  j->m = fast_set(s, j->u);
  j->age = 0;
  for (int c = 0; c < j->m; c++) {
    double d = s->t->atol + s->t->rtol * fabs(s->y[j->u[c]]);
    j->d[c] = d > 0 ? d : 1;
  }
  double *yp = s->ytmp, *fp = s->k[6];
  memcpy(yp, s->y, sizeof *yp * n);
  for (int c = 0; c < j->m && st == VXC_OK; c++) {
    int i = j->u[c];
    double d = fd_step(s, i, s->y[i]);
    yp[i] = s->y[i] + d;
    d = yp[i] - s->y[i]; /* the step actually taken */
    st = vxci_sim_eval(s, t, yp, fp, 0);
    yp[i] = s->y[i];
    double *col = j->J + (size_t)c * n;
    for (int r = 0; r < n && st == VXC_OK; r++) {
      col[r] = (fp[r] - j->f0[r]) / d;
    }
  }
  j->ok = st == VXC_OK;
  j->h = 0;
  j->rho = j->ok ? spectral_radius(s) : 0;
  return st;
}


/* W = D^-1 (I - h gamma J_uu) D, factored, D the fast variables' scales. 0 when singular.
 * Their units span twenty orders of magnitude (a bristle's 1e-8 m against a body's
 * velocities, J's entries from 1e-14 to 1e7); in the error norm's scales the entries are
 * moderate, so partial pivoting chooses by significance rather than by units. */
static int factor_w(sim *s, double h) {
  sim_jac *j = &s->jac;
  int m = j->m;
  for (int r = 0; r < m; r++) {
    for (int c = 0; c < m; c++) {
      double jrc = j->J[(size_t)c * s->n + j->u[r]] * j->d[c] / j->d[r];
      j->W[r * m + c] = (r == c) - h * RW_GAMMA * jrc;
    }
  }
  j->h = vxci_lu_factor(j->W, m, j->piv) ? h : 0;
  return j->h > 0;
}


/* x += a J v_u, v_u the fast components of v. */
static void add_jv(const sim *s, double a, const double *v, double *x) {
  const sim_jac *j = &s->jac;
  for (int c = 0; c < j->m; c++) {
    double w = a * v[j->u[c]];
    if (w != 0) {
      const double *col = j->J + (size_t)c * s->n;
      for (int r = 0; r < s->n; r++) {
        x[r] += w * col[r];
      }
    }
  }
}


/* Solves (I - h gamma J) k = r in place: the fast block through W, then the other rows
 * k_r = r_r + h gamma (J k_u)_r. */
static void stage_solve(sim *s, double h, double *k) {
  sim_jac *j = &s->jac;
  for (int c = 0; c < j->m; c++) {
    j->g[c] = k[j->u[c]] / j->d[c];
  }
  vxci_lu_solve(j->W, j->m, j->piv, j->g);
  for (int c = 0; c < j->m; c++) {
    j->g[c] *= j->d[c];
  }
  for (int c = 0; c < j->m; c++) {
    k[j->u[c]] = 0;
  }
  double *tmp = s->yerr; /* scratch: the fast part of k alone */
  memset(tmp, 0, sizeof *tmp * s->n);
  for (int c = 0; c < j->m; c++) {
    tmp[j->u[c]] = j->g[c];
  }
  add_jv(s, h * RW_GAMMA, tmp, k);
  for (int c = 0; c < j->m; c++) {
    k[j->u[c]] = j->g[c];
  }
}


/* The step's change of the energy balance K + P + E + D - W, over atol + rtol times the
 * energy in play at its start (K + |P - P0| + |E| + D + |W|). A W-method's embedded error
 * shares its Jacobian's linearisation, so where that is poor (a contact's force rising
 * within the step, as in an impact) it can miss errors that break the balance; the balance
 * is an independent check of the same step. */
static double balance_error(const sim *s, const double *y, const double *y1) {
  vxc_task_energy e0, e1;
  vxci_sim_energy(s, y, &e0);
  vxci_sim_energy(s, y1, &e1);
  double scale =
      e0.kinetic + fabs(e0.potential - s->p0) + fabs(e0.elastic) + e0.dissipated + fabs(e0.work_in);
  return fabs(e1.error - e0.error) / (s->t->atol + s->t->rtol * scale);
}


void vxci_sim_rosw_step_done(sim *s, int accepted, int changed) {
  sim_jac *j = &s->jac;
  if (!j->ok) {
    return;
  }
  if (!accepted) {
    j->ok = j->age == 0; /* a stale J may be what failed: take it anew */
    return;
  }
  j->age++;
  if (changed || j->age >= ROSW_JAC_AGE || fast_set(s, j->u2) != j->m ||
      memcmp(j->u2, j->u, sizeof *j->u * j->m) != 0) {
    j->ok = 0;
  }
}


vxc_status vxci_sim_rosw_implicit(sim *s, double t, double h, int *implicit) {
  vxc_status st = VXC_OK;
  *implicit = 1;
  if (!s->jac.ok && (st = jacobian(s, t)) != VXC_OK) {
    return st;
  }
  *implicit = !(h * s->jac.rho <= ROSW_EXPLICIT_REACH);
  return VXC_OK;
}


vxc_status vxci_sim_rosw_trial(sim *s, double t, double h, double *errn) {
  int n = s->n;
  double *y = s->y, *y1 = s->y1, *yt = s->ytmp, *f = s->k[6], **K = s->k + 1;
  vxc_status st;
  *errn = HUGE_VAL;
  if (!s->jac.ok && (st = jacobian(s, t)) != VXC_OK) {
    return st;
  }
  if (s->jac.h != h && !factor_w(s, h)) {
    return VXC_OK; /* singular: rejected, a shorter step will do */
  }
  for (int i = 0; i < RW_S; i++) {
    const double *fi = s->k[0];
    if (i > 0) {
      for (int r = 0; r < n; r++) {
        double acc = 0;
        for (int q = 0; q < i; q++) {
          acc += RW_A[i][q] * K[q][r];
        }
        yt[r] = y[r] + acc;
      }
      double ti = 0;
      for (int q = 0; q < i; q++) {
        ti += RW_A[i][q];
      }
      if ((st = vxci_sim_eval(s, t + ti * h, yt, f, 1)) != VXC_OK) {
        return st;
      }
      fi = f;
    }
    /* r = h f_i + h J sum_q gamma_iq K_q */
    double *g = s->y1; /* scratch until y1 is formed */
    memset(g, 0, sizeof *g * n);
    for (int q = 0; q < i; q++) {
      for (int c = 0; c < s->jac.m; c++) {
        g[s->jac.u[c]] += RW_G[i][q] * K[q][s->jac.u[c]];
      }
    }
    for (int r = 0; r < n; r++) {
      K[i][r] = h * fi[r];
    }
    add_jv(s, h, g, K[i]);
    stage_solve(s, h, K[i]);
  }
  for (int r = 0; r < n; r++) {
    double a = 0, e = 0;
    for (int q = 0; q < RW_S; q++) {
      a += RW_B[q] * K[q][r];
      e += (RW_B[q] - RW_BH[q]) * K[q][r];
    }
    y1[r] = y[r] + a;
    yt[r] = e;
  }
  vxci_sim_normalize_quats(s, y1);
  *errn = fmax(vxci_sim_error_norm(s, y, y1, yt), balance_error(s, y, y1));
  if (!(*errn <= 1)) {
    return VXC_OK; /* rejected: no need of f(t + h, y1) */
  }
  return vxci_sim_eval(s, t + h, y1, s->k[ROSW_KEND], 1);
}
