/* pair_jacobian.c: a pair's wrench with its derivatives (vxc_pair_jacobian_get) and the states'
 * linearly implicit advance (vxc_pair_advance, and vxc_pair_step's), lib/README.md
 * section 16.
 *
 * Data: each tracked contact of the last query is linearised in its relative motion at the
 * centroid, u = (v_c, w_r) (section 4), and in its integrated states s (bristles, dwell,
 * relaxation, rolling angles); the 6-vector f = (force on A at p_c, pure torque on A) maps to
 * the bodies' wrench by G^T and u = G t, where t are the bodies' twists (G below). The
 * derivatives in u and s are the model's own, in closed form (vxci_contact_jacobian,
 * contact_jacobian.c); the pose stiffness comes from the contact's area (pose_part). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"
#include "lib/force_internal.h"
#include "lib/pair_internal.h"

/* The state entries a contact integrates. */
static const int SIDX[] = {VXC_STATE_Z,       VXC_STATE_Z + 1, VXC_STATE_Z + 2, VXC_STATE_THETA,
                           VXC_STATE_SDW,     VXC_STATE_VRO,   VXC_STATE_PHI,   VXC_STATE_PHI + 1,
                           VXC_STATE_PHI + 2, VXC_STATE_PSI};
#define NS 10

/* One contact's model and its linearisation. */
typedef struct lin_in {
  const vxc_params *p;
  const vxc_contact_geometry *g;
  double area;
  vxc_body_motion ma, mb;
  const double *state;
} lin_in;

typedef struct lin {
  double u[6], f0[6], sd0[NS];
  double du[36];      /* df/du */
  double dp[36];      /* df/d(relative displacement, rotation) */
  double fs[6 * NS];  /* df/ds */
  double su[NS * 6];  /* ds'/du */
  double ss[NS * NS]; /* ds'/ds */
  int on[NS];         /* the state entries the model uses */
  double fn;          /* f_n */
} lin;

/* ---- small dense algebra ------------------------------------------------------------------ */

/* C (n x m) += alpha A (n x k) B (k x m), row-major. */
static void gemm_add(int n, int k, int m, double alpha, const double *A, const double *B,
                     double *C) {
  for (int i = 0; i < n; i++) {
    for (int l = 0; l < k; l++) {
      double a = alpha * A[i * k + l];
      if (a != 0) {
        for (int j = 0; j < m; j++) {
          C[i * m + j] += a * B[l * m + j];
        }
      }
    }
  }
}

/* ---- one contact ------------------------------------------------------------------------ */

/* The stiffness of the volume: df/d(relative displacement at p_c) from dV = A n.dx_c on every
 * term proportional to f_n (k_v (1 + a v_cn) A n^T times f / f_n). */
static void pose_part(const lin_in *in, const vxc_wrench *w, lin *L) {
  const vxc_params *p = in->p;
  const double *n = in->g->normal, *sy = in->state;
  double u = sy[VXC_STATE_U] >= p->v_small ? sy[VXC_STATE_U] : p->v_small;
  double a = p->d / (p->e_eff * u);
  if (w->f_n > 0) {
    double g6[6];
    for (int i = 0; i < 3; i++) {
      g6[i] = (w->force_normal[i] + w->force_friction[i]) / w->f_n;
      g6[3 + i] = (w->torque_spinning[i] + (p->rolling ? w->torque_rolling[i] : 0.0)) / w->f_n;
    }
    double cx = p->k_v * (1 + a * vxg_dot(n, L->u)) * in->area;
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 3; j++) {
        L->dp[6 * i + j] += g6[i] * cx * n[j];
      }
    }
  }
}


/* Which state entries the model reads and moves (the others' rows and columns stay 0). */
static void states_on(const vxc_params *p, double r_gyr, int on[NS]) {
  for (int k = 0; k < NS; k++) {
    int i = SIDX[k];
    on[k] = i <= VXC_STATE_Z + 2 || i == VXC_STATE_SDW ||
            (i == VXC_STATE_THETA && !p->rolling && r_gyr > 0) ||
            (i == VXC_STATE_VRO && p->tau_r > 0) || (i >= VXC_STATE_PHI && p->rolling);
  }
}


/* One contact's relative motion u, its model at it (f0, s'0, f_n) and its pose stiffness
 * (pose_part). */
static vxc_status lin_base(const lin_in *in, lin *L, vxc_error *err) {
  memset(L, 0, sizeof *L);
  double ra[3], rb[3], wa[3], wb[3];
  for (int i = 0; i < 3; i++) {
    ra[i] = in->g->centroid[i] - in->ma.r[i];
    rb[i] = in->g->centroid[i] - in->mb.r[i];
  }
  vxg_cross(in->ma.w, ra, wa);
  vxg_cross(in->mb.w, rb, wb);
  for (int i = 0; i < 3; i++) {
    L->u[i] = in->ma.v[i] + wa[i] - in->mb.v[i] - wb[i];
    L->u[3 + i] = in->ma.w[i] - in->mb.w[i];
  }
  vxc_wrench w;
  double d[VXC_STATE_SIZE];
  vxc_status s = vxc_contact_eval(in->p, in->g, &in->ma, &in->mb, in->state, &w, d, err);
  if (s != VXC_OK) {
    return s;
  }
  L->fn = w.f_n;
  for (int i = 0; i < 3; i++) {
    L->f0[i] = w.force_a[i];
    L->f0[3 + i] = w.torque_rolling[i] + w.torque_spinning[i];
  }
  for (int k = 0; k < NS; k++) {
    L->sd0[k] = d[SIDX[k]];
  }
  pose_part(in, &w, L);
  return VXC_OK;
}


/* The model's derivatives D (vxci_contact_jacobian) at in's motions and states into L: df/du,
 * df/ds, ds'/du, ds'/ds (when fu, the first three too), and the states the model uses. */
static void state_blocks(const lin_in *in, int fu, lin *L) {
  double D[VXC_JAC_SIZE * VXC_JAC_SIZE];
  vxci_contact_jacobian(in->p, in->g, &in->ma, &in->mb, in->state, D);
  for (int k = 0; k < NS; k++) {
    const double *row = D + VXC_JAC_SIZE * (6 + SIDX[k]);
    for (int l = 0; l < NS; l++) {
      L->ss[NS * k + l] = row[6 + SIDX[l]];
    }
    for (int j = 0; fu && j < 6; j++) {
      L->su[6 * k + j] = row[j];
    }
  }
  for (int i = 0; fu && i < 6; i++) {
    memcpy(L->du + 6 * i, D + VXC_JAC_SIZE * i, 6 * sizeof *L->du);
    for (int k = 0; k < NS; k++) {
      L->fs[NS * i + k] = D[VXC_JAC_SIZE * i + 6 + SIDX[k]];
    }
  }
  states_on(in->p, vxc_gyration_radius(in->g), L->on);
}


/* The linearisation of one contact: f0, s'0, df/du, df/dx, df/ds, ds'/du, ds'/ds. */
static vxc_status linearize(const lin_in *in, lin *L, vxc_error *err) {
  vxc_status s = lin_base(in, L, err);
  if (s == VXC_OK) {
    state_blocks(in, 1, L);
  }
  return s;
}


/* P = (I - h ds'/ds) solved for the m columns of B (NS x m) over the states the model uses:
 * the others' rows of P are the identity's and theirs of B are 0, so they stay 0. */
static int state_solve(const lin *L, double h, int m, double *B) {
  int idx[NS], n = 0;
  for (int i = 0; i < NS; i++) {
    if (L->on[i]) {
      idx[n++] = i;
    }
  }
  double A[NS * NS], X[NS * 7];
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      A[n * a + b] = (a == b) - h * L->ss[NS * idx[a] + idx[b]];
    }
    memcpy(X + m * a, B + m * idx[a], m * sizeof *X);
  }
  if (vxci_pair_dense_solve(n, A, m, X) != 0) {
    return -1;
  }
  for (int a = 0; a < n; a++) {
    memcpy(B + m * idx[a], X + m * a, m * sizeof *X);
  }
  return 0;
}

/* ---- the pair ------------------------------------------------------------------------- */

/* u = G t: G is 6 x 12 for lever arms ra, rb (section 4). */
static void g_matrix(const double ra[3], const double rb[3], double G[72]) {
  memset(G, 0, 72 * sizeof *G);
  for (int i = 0; i < 3; i++) {
    G[12 * i + i] = 1;
    G[12 * i + 6 + i] = -1;
    G[12 * (3 + i) + 3 + i] = 1;
    G[12 * (3 + i) + 9 + i] = -1;
  }
  /* w x r = -[r]x w: row i of -[r]x */
  const double *r[2] = {ra, rb};
  for (int k = 0; k < 2; k++) {
    double sg = k ? 1 : -1, *c = G + (k ? 9 : 3);
    const double *x = r[k];
    c[0 * 12 + 1] = -sg * x[2];
    c[0 * 12 + 2] = sg * x[1];
    c[1 * 12 + 0] = sg * x[2];
    c[1 * 12 + 2] = -sg * x[0];
    c[2 * 12 + 0] = -sg * x[1];
    c[2 * 12 + 1] = sg * x[0];
  }
}


/* X = M P(r) for P(r) = [[I, -[r]x], [0, I]] (u = G t is [P(r_a), -P(r_b)] t): M's first three
 * columns, then its last three plus r x (row i's first three). */
static void mul_p(const double M[36], const double r[3], double X[36]) {
  for (int i = 0; i < 6; i++) {
    const double *m = M + 6 * i;
    double c[3];
    vxg_cross(r, m, c);
    for (int j = 0; j < 3; j++) {
      X[6 * i + j] = m[j];
      X[6 * i + 3 + j] = m[3 + j] + c[j];
    }
  }
}


/* out += G^T M G (M 6 x 6) into a 12 x 12 for lever arms r = (r_a, r_b): block (a, b) is
 * +-P(r_a)^T M P(r_b), P^T X's last three rows X's plus r x (its first three, by columns). */
static void add_gtmg(const double r[6], const double M[36], double out[144]) {
  double X[2][36];
  mul_p(M, r, X[0]);
  mul_p(M, r + 3, X[1]);
  for (int a = 0; a < 2; a++) {
    for (int b = 0; b < 2; b++) {
      double sg = a == b ? 1.0 : -1.0, *o = out + 72 * a + 6 * b;
      const double *x = X[b];
      for (int j = 0; j < 6; j++) {
        double col[3] = {x[j], x[6 + j], x[12 + j]}, c[3];
        vxg_cross(r + 3 * a, col, c);
        for (int i = 0; i < 3; i++) {
          o[12 * i + j] += sg * col[i];
          o[12 * (3 + i) + j] += sg * (x[6 * (3 + i) + j] + c[i]);
        }
      }
    }
  }
}


/* out += G^T v (v 6) into a 12-vector. */
static void add_gtv(const double G[72], const double v[6], double out[12]) {
  for (int i = 0; i < 12; i++) {
    for (int l = 0; l < 6; l++) {
      out[i] += G[12 * l + i] * v[l];
    }
  }
}


/* The normal force -n.F_a over the step, for the twists' change dt: fn + row . dt, with the
 * poses' parts (K, hu, hdp: the contact's step Jacobian, h d_pose u and h d_pose). */
static void normal_rows(const double n[3], const double G[72], const double fstep[6],
                        const double K[36], const double hu[6], const double hdp[36], double *fn,
                        double row[12], double *fn_pose, double row_pose[12]) {
  double nk[6] = {0}, np[6] = {0};
  for (int j = 0; j < 6; j++) {
    for (int i = 0; i < 3; i++) {
      nk[j] -= n[i] * K[6 * i + j];
      np[j] -= n[i] * hdp[6 * i + j];
    }
  }
  *fn -= vxg_dot(n, fstep);
  *fn_pose -= vxg_dot(n, hu);
  for (int j = 0; j < 12; j++) {
    for (int l = 0; l < 6; l++) {
      row[j] += nk[l] * G[12 * l + j];
      row_pose[j] += np[l] * G[12 * l + j];
    }
  }
}


/* Contact in's friction record (vxc_contact_friction) from its linearisation L over h: the
 * sticking law at the step's end and its normal force's rows. */
static void friction_record(const lin_in *in, const lin *L, const double G[72], double h,
                            const double fstep[6], const double K[36], const double hu[6],
                            const double hdp[36], vxc_contact_friction *r) {
  const vxc_params *p = in->p;
  const double *n = in->g->normal, *z = in->state + VXC_STATE_Z;
  memset(r, 0, sizeof *r);
  memcpy(r->g, G, sizeof r->g); /* G's first three rows: v_c */
  double fn = L->fn > 0 ? L->fn : 0.0, zn = vxg_dot(z, n), vn = vxg_dot(L->u, n);
  double c = fn * (p->sigma0 * h + p->sigma1 + p->sigma2), T[9], vt[3];
  for (int i = 0; i < 3; i++) {
    vt[i] = L->u[i] - vn * n[i];
    r->stick[i] = -fn * (p->sigma0 * (z[i] - zn * n[i] + h * vt[i]) +
                         (p->sigma1 + p->sigma2) * vt[i]);
    for (int j = 0; j < 3; j++) {
      T[3 * i + j] = (i == j) - n[i] * n[j];
    }
  }
  memset(r->stick_row, 0, sizeof r->stick_row);
  gemm_add(3, 3, 12, -c, T, G, r->stick_row);
  if (L->fn > 0) {
    normal_rows(n, G, fstep, K, hu, hdp, &r->fn, r->fn_row, &r->fn_pose, r->fn_row_pose);
  }
  double r_gyr = p->rolling ? 0.0 : vxc_gyration_radius(in->g), c_vs, c_ws;
  vxci_friction_blend(p, sqrt(vxg_dot(vt, vt)), r_gyr * vxg_dot(L->u + 3, n), !p->rolling, &c_vs,
                      &c_ws);
  r->mu_static = p->mu_s * c_vs;
  r->mu_slide = p->mu_c * c_vs;
}


/* Keeps the normal part n n^T of rows 0..2 (the force on A) of the 6 x m matrix M. */
static void drop_tangential(const double n[3], int m, double *M) {
  for (int j = 0; j < m; j++) {
    double d = n[0] * M[j] + n[1] * M[m + j] + n[2] * M[2 * m + j];
    for (int i = 0; i < 3; i++) {
      M[i * m + j] = d * n[i];
    }
  }
}


/* One contact into *out: its linearisation L over h, G and its lever arms r; with a friction
 * record rec (may be NULL) the step terms leave out the tangential friction, which rec holds. */
static void add_contact(const lin_in *in, const lin *L, const double G[72], const double r[6],
                        double h, vxc_pair_jacobian *out, vxc_contact_friction *rec) {
  const double *n = in->g->normal;
  /* the states over the step: (I - h S_s) ds = h (s'0 + S_u du) */
  double B[NS * 7];
  for (int i = 0; i < NS; i++) {
    B[7 * i] = L->on[i] ? h * L->sd0[i] : 0.0;
    for (int j = 0; j < 6; j++) {
      B[7 * i + 1 + j] = L->on[i] ? h * L->su[6 * i + j] : 0.0;
    }
  }
  double fstep[6], K[36], hu[6], hdp[36];
  if (state_solve(L, h, 7, B) != 0) { /* (I - h S_s) is an M-matrix here; never singular */
    memset(B, 0, sizeof B);
  }
  memcpy(fstep, L->f0, sizeof fstep);
  memcpy(K, L->du, sizeof K);
  for (int i = 0; i < 6; i++) {
    for (int k = 0; k < NS; k++) {
      fstep[i] += L->fs[NS * i + k] * B[7 * k];
      for (int j = 0; j < 6; j++) {
        K[6 * i + j] += L->fs[NS * i + k] * B[7 * k + 1 + j];
      }
    }
  }
  for (int i = 0; i < 36; i++) {
    hdp[i] = h * L->dp[i];
    K[i] += hdp[i];
  }
  memset(hu, 0, sizeof hu);
  gemm_add(6, 6, 1, 1, hdp, L->u, hu);
  for (int i = 0; i < 6; i++) {
    fstep[i] += hu[i];
  }
  add_gtv(G, L->f0, out->wrench);
  add_gtmg(r, L->du, out->d_twist);
  add_gtmg(r, L->dp, out->d_pose);
  if (L->fn > 0) {
    normal_rows(n, G, fstep, K, hu, hdp, &out->fn_step, out->fn_row, &out->fn_pose,
                out->fn_row_pose);
  }
  if (rec) {
    friction_record(in, L, G, h, fstep, K, hu, hdp, rec);
    drop_tangential(n, 1, fstep);
    drop_tangential(n, 6, K);
    drop_tangential(n, 1, hu);
    drop_tangential(n, 6, hdp);
  }
  add_gtv(G, fstep, out->step_wrench);
  add_gtv(G, hu, out->pose_wrench);
  add_gtmg(r, K, out->step_twist);
  add_gtmg(r, hdp, out->pose_twist);
}


static lin_in contact_in(const vxc_pair *pr, const vxci_pair_contact *c, const vxc_body_motion *ma,
                         const vxc_body_motion *mb) {
  return (lin_in){&pr->params, &c->geom, c->area, *ma, *mb, pr->state + c->slot * VXC_STATE_SIZE};
}


/* Each contact of the last step linearised at the pair's last motions: with J, wholly and added
 * to *J over h (with its friction record when the bristle kernel's); else lin_base's part
 * alone, its d_pose added to d_pose. VXC_OK, or vxc_contact_eval's status. */
static vxc_status sum_contacts(const vxc_pair *pr, double h, vxc_pair_jacobian *J,
                               double *d_pose, vxc_error *err) {
  int records = pr->params.friction_law == 0;
  for (int ci = 0; ci < pr->ncontact; ci++) {
    const vxci_pair_contact *c = &pr->contact[ci];
    if (c->slot < 0 || !(c->geom.volume > 0)) {
      continue;
    }
    lin_in in = contact_in(pr, c, &pr->ma, &pr->mb);
    lin L;
    vxc_status st = J ? linearize(&in, &L, err) : lin_base(&in, &L, err);
    if (st != VXC_OK) {
      return st;
    }
    double r[6], G[72];
    for (int i = 0; i < 3; i++) {
      r[i] = c->geom.centroid[i] - pr->ma.r[i];
      r[3 + i] = c->geom.centroid[i] - pr->mb.r[i];
    }
    if (J) {
      g_matrix(r, r + 3, G);
      add_contact(&in, &L, G, r, h, J, records ? &pr->fric[J->nfriction++] : NULL);
    } else {
      add_gtmg(r, L.dp, d_pose);
    }
  }
  return VXC_OK;
}


vxc_status vxc_pair_jacobian_get(const vxc_pair *pr, double h, vxc_pair_jacobian *out,
                                 vxc_error *err) {
  if (!pr || !out || !pr->stepped || !(h >= 0) || !isfinite(h)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_pair_jacobian_get: %s",
                         !pr || !out    ? "a NULL argument"
                         : !pr->stepped ? "no step taken yet"
                                        : "h is negative or not finite");
  }
  vxc_pair_jacobian J;
  memset(&J, 0, sizeof J);
  vxc_status st = sum_contacts(pr, h, &J, NULL, err);
  if (st != VXC_OK) {
    return st;
  }
  J.friction = J.nfriction > 0 ? pr->fric : NULL;
  const double *x = (const double *)&J, *y = (const double *)J.friction;
  size_t nx = offsetof(vxc_pair_jacobian, nfriction) / sizeof *x;
  size_t ny = (size_t)J.nfriction * sizeof *J.friction / sizeof *y;
  for (size_t i = 0; i < nx + ny; i++) {
    if (!isfinite(i < nx ? x[i] : y[i - nx])) {
      return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0,
                           "vxc_pair_jacobian_get: a derivative is not finite");
    }
  }
  *out = J;
  return VXC_OK;
}


vxc_status vxci_pair_d_pose(const vxc_pair *pr, double d_pose[144], vxc_error *err) {
  memset(d_pose, 0, 144 * sizeof *d_pose);
  return sum_contacts(pr, 0, NULL, d_pose, err);
}

/* ---- the states' advance ------------------------------------------------------------------ */

/* One contact's states advanced by h at motions ma, mb: their increments into inc (NS). */
static vxc_status advance_one(const vxc_pair *pr, const vxci_pair_contact *c, const vxc_body_motion *ma,
                              const vxc_body_motion *mb, double h, double inc[NS], vxc_error *e) {
  lin_in in = contact_in(pr, c, ma, mb);
  vxc_wrench w;
  double sd[VXC_STATE_SIZE];
  vxc_status st = vxc_contact_eval(in.p, in.g, ma, mb, in.state, &w, sd, e);
  if (st != VXC_OK) {
    return st;
  }
  lin L;
  state_blocks(&in, 0, &L);
  for (int k = 0; k < NS; k++) {
    inc[k] = L.on[k] ? h * sd[SIDX[k]] : 0.0;
  }
  if (state_solve(&L, h, 1, inc) != 0) {
    return vxg_error_set(e, VXC_ERR_NUMERIC, NULL, 0, 0, "a singular state Jacobian");
  }
  for (int k = 0; k < NS; k++) {
    if (!isfinite(in.state[SIDX[k]] + inc[k])) {
      return vxg_error_set(e, VXC_ERR_NUMERIC, NULL, 0, 0, "a contact state became non-finite");
    }
  }
  return VXC_OK;
}


vxc_status vxci_pair_advance(vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                         double h, vxc_error *err) {
  /* every increment first (into the derivatives' scratch), then applied: an error changes
   * nothing */
  for (int ci = 0; ci < pr->ncontact; ci++) {
    const vxci_pair_contact *c = &pr->contact[ci];
    if (c->slot < 0 || !(c->geom.volume > 0)) {
      continue;
    }
    vxc_error e;
    if (advance_one(pr, c, ma, mb, h, pr->dstate + c->slot * VXC_STATE_SIZE, &e) != VXC_OK) {
      return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "vxc_pair_advance: %s", e.message);
    }
  }
  for (int ci = 0; ci < pr->ncontact; ci++) {
    const vxci_pair_contact *c = &pr->contact[ci];
    if (c->slot >= 0 && c->geom.volume > 0) {
      for (int k = 0; k < NS; k++) {
        pr->state[c->slot * VXC_STATE_SIZE + SIDX[k]] += pr->dstate[c->slot * VXC_STATE_SIZE + k];
      }
    }
  }
  return VXC_OK;
}


vxc_status vxc_pair_advance(vxc_pair *pr, const vxc_body_motion *motion_a,
                            const vxc_body_motion *motion_b, double h, vxc_error *err) {
  if (!pr || !motion_a || !motion_b || !(h >= 0) || !isfinite(h) || !pr->stepped) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_pair_advance: %s",
                         !pr || !motion_a || !motion_b ? "a NULL argument"
                         : !pr->stepped                ? "no step taken yet"
                                                       : "h is negative or not finite");
  }
  return h > 0 ? vxci_pair_advance(pr, motion_a, motion_b, h, err) : VXC_OK;
}
