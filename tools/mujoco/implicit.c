/* implicit.c: the vxc contacts' wrenches over a MuJoCo step, linearly implicit (bridge.h):
 * the bodies' twists t = J qvel (each body's centre-of-mass velocity and angular velocity,
 * world: mj_jacBodyCom's J, made from cdof), their inverse mass matrix in those coordinates
 * J M^-1 J^T (M^-1 J^T by tree from the factorisation of M MuJoCo's step made) and their free
 * accelerations J M^-1 (passive + actuator + applied - bias forces) give vxc_implicit_step
 * the velocity change the contact wrenches cause over the step; the wrenches it returns,
 * applied through xfrc_applied, make MuJoCo's step the linearly implicit one (lib/README.md
 * section 16). Bodies welded to the world are fixed (twist index -1). A tree whose qpos has
 * not changed keeps its part of J, M^-1 J^T and J M^-1 J^T. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/mujoco/bridge.h"

/* Whether MuJoCo's step takes the joints' damping implicitly: its Euler integrator (unless
 * told not to) on a model with damping. */
static int euler_damping(const mjModel *m) {
  int on = m->opt.integrator == mjINT_EULER;
#if mjVERSION_HEADER >= 300
  on = on && !(m->opt.disableflags & mjDSBL_EULERDAMP);
#endif
  for (int j = 0; on && j < m->nv; j++) {
    if (m->dof_damping[j] > 0) {
      return 1;
    }
  }
  return 0;
}


int bridge_implicit_init(bridge *br, char *msg, size_t size) {
  const mjModel *m = br->m;
  br->ntw = 0;
  for (int i = 0; i < br->nbody; i++) {
    br->tw[i] = m->body_weldid[br->body[i]] == 0 ? -1 : br->ntw++;
  }
  br->damped = br->ntw > 0 && euler_damping(m);
  size_t n = 6 * (size_t)br->ntw, nv = (size_t)(m->nv > 0 ? m->nv : 1);
  br->chain = calloc(n > 0 ? n * nv : 1, sizeof *br->chain);
  br->qkept = calloc(m->nq > 0 ? (size_t)m->nq : 1, sizeof *br->qkept);
  br->fkept = calloc(nv, sizeof *br->fkept);
  br->fresh = 1;
  if (!br->chain || !br->qkept || !br->fkept) {
    snprintf(msg, size, "out of memory");
    return -1;
  }
  double **arr[] = {&br->J,   &br->MJ,    &br->minv,    &br->afree, &br->wout,
                    &br->dtw, &br->qvel0, &br->scratch, &br->Mh,    &br->corr};
  size_t len[] = {n * nv, n * nv, n * n, n, n, n, nv, 3 * n + 2 * nv, nv * nv, n * n + nv};
  for (size_t k = 0; k < sizeof len / sizeof *len; k++) {
    *arr[k] = calloc(len[k] ? len[k] : 1, sizeof(double));
    if (!*arr[k]) {
      snprintf(msg, size, "out of memory");
      return -1;
    }
  }
  for (int i = 0; i < br->nbody; i++) {
    int k = br->tw[i];
    if (k < 0) {
      continue;
    }
    br->root[k] = m->body_rootid[br->body[i]];
    int b = br->body[i], *chain = br->chain + (size_t)k * nv;
    while (b > 0 && m->body_dofnum[b] == 0) { /* its chain: from the nearest body with dofs */
      b = m->body_parentid[b];
    }
    br->nchain[k] = 0;
    for (int j = b > 0 ? m->body_dofadr[b] + m->body_dofnum[b] - 1 : -1; j >= 0;
         j = m->dof_parentid[j]) {
      chain[br->nchain[k]++] = j;
    }
    br->dof0[k] = br->tree0[k] = m->nv;
    br->dof1[k] = br->tree1[k] = 0;
    for (int j = 0; j < m->nv; j++) { /* dof j moves the body when its body is the body or
                                         one of its ancestors */
      int b = br->body[i];
      while (b > 0 && b != m->dof_bodyid[j]) {
        b = m->body_parentid[b];
      }
      if (b > 0) {
        br->dof0[k] = j < br->dof0[k] ? j : br->dof0[k];
        br->dof1[k] = j + 1;
      }
      if (m->body_rootid[m->dof_bodyid[j]] == br->root[k]) {
        br->tree0[k] = j < br->tree0[k] ? j : br->tree0[k];
        br->tree1[k] = j + 1;
      }
    }
    br->simple[k] = 1;
    br->qpos0[k] = m->nq;
    br->qpos1[k] = 0;
    for (int j = br->tree0[k]; j < br->tree1[k]; j++) {
      br->simple[k] = br->simple[k] && m->dof_simplenum[j] > 0;
      int jnt = m->dof_jntid[j], t = m->jnt_type[jnt], a = m->jnt_qposadr[jnt];
      int len = t == mjJNT_FREE ? 7 : t == mjJNT_BALL ? 4 : 1;
      br->qpos0[k] = a < br->qpos0[k] ? a : br->qpos0[k];
      br->qpos1[k] = a + len > br->qpos1[k] ? a + len : br->qpos1[k];
    }
  }
  return 0;
}


/* Factors M + h B (MuJoCo's Euler step's mass matrix, with the joints' damping B) into Mh
 * (when that step takes the damping implicitly: br->damped). */
static void factor_mass(bridge *br) {
  const mjModel *m = br->m;
  int nv = m->nv;
  mj_fullM(m, br->Mh, br->d->qM);
  for (int j = 0; j < nv; j++) {
    br->Mh[(size_t)j * nv + j] += m->opt.timestep * m->dof_damping[j];
  }
  mju_cholFactor(br->Mh, nv, 0);
}


/* a . b over n entries (MuJoCo's mju_dot is a call away). */
static inline double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += a[i] * b[i];
  }
  return s;
}


/* out[r] = row r of a body's six rows R (by dof, bridge.h) dotted with x over the dofs [j0,
 * j1), each sum taken in the dofs' order, as dot. */
static void rows_dot(const double *R, int j0, int j1, const double *x, double out[6]) {
  double s[6] = {0};
  for (int j = j0; j < j1; j++) {
    for (int r = 0; r < 6; r++) {
      s[r] += R[6 * j + r] * x[j];
    }
  }
  memcpy(out, s, sizeof s);
}


/* s[6 r + q] = row r of the six rows A dotted with row q of the six rows B (by dof) over the
 * dofs [j0, j1), each sum in the dofs' order as dot; with `upper` for q >= r only. */
static inline void dot_rows(const double *A, const double *B, int j0, int j1, int upper,
                            double s[36]) {
  for (int j = j0; j < j1; j++) {
    const double *a = A + 6 * j, *b = B + 6 * j;
    for (int r = 0; r < 6; r++) {
      for (int q = upper ? r : 0; q < 6; q++) {
        s[6 * r + q] += a[r] * b[q];
      }
    }
  }
}


/* Block (k, l) of J M^-1 J^T (l != k) into minv, and its mirror (l, k): row r of the six
 * rows at A (J's, or when damped MJ's, of body k) dotted with row q of the six at B (MJ's of
 * body l) over the dofs [j0, j1). */
static void minv_block(bridge *br, const double *A, const double *B, int j0, int j1, int k, int l) {
  int n = 6 * br->ntw;
  double s[36] = {0};
  dot_rows(A, B, j0, j1, 0, s);
  for (int r = 0; r < 6; r++) {
    double *row = br->minv + (size_t)(6 * k + r) * n + 6 * l;
    double *col = br->minv + (size_t)(6 * l) * n + 6 * k + r;
    for (int q = 0; q < 6; q++) {
      row[q] = s[6 * r + q];
      col[(size_t)q * n] = s[6 * r + q];
    }
  }
}


/* Diagonal block k of J M^-1 J^T into minv, as minv_block: its upper triangle, mirrored
 * (J M^-1 J^T is symmetric). */
static void minv_diagonal(bridge *br, const double *A, const double *B, int j0, int j1, int k) {
  int n = 6 * br->ntw;
  double s[36] = {0};
  dot_rows(A, B, j0, j1, 1, s);
  for (int r = 0; r < 6; r++) {
    double *row = br->minv + (size_t)(6 * k + r) * n + 6 * k;
    for (int q = 0; q < 6; q++) {
      row[q] = q < r ? s[6 * q + r] : s[6 * r + q];
    }
  }
}


/* Moving body k's twist rows of J dotted with x over its dofs: out = J_k x. */
static void jdot(const bridge *br, int k, const double *x, double out[6]) {
  rows_dot(br->J + (size_t)6 * k * br->m->nv, br->dof0[k], br->dof1[k], x, out);
}


/* y = L^-1 b, L the lower triangle of the factored M + h B (mju_cholFactor: L L^T, row-major,
 * on and below the diagonal). */
static void forward_sub(const double *L, int nv, const double *b, double *y) {
  for (int i = 0; i < nv; i++) {
    const double *row = L + (size_t)i * nv;
    double s = b[i];
    for (int j = 0; j < i; j++) {
      s -= row[j] * y[j];
    }
    y[i] = s / row[i];
  }
}


/* Y = L^-1 B for a body's six rows B (by dof), each row as forward_sub. */
static void forward_sub6(const double *L, int nv, const double *B, double *Y) {
  for (int i = 0; i < nv; i++) {
    const double *row = L + (size_t)i * nv;
    double s[6];
    for (int r = 0; r < 6; r++) {
      s[r] = B[6 * i + r];
    }
    for (int j = 0; j < i; j++) {
      for (int r = 0; r < 6; r++) {
        s[r] -= row[j] * Y[6 * j + r];
      }
    }
    for (int r = 0; r < 6; r++) {
      Y[6 * i + r] = s[r] / row[i];
    }
  }
}


/* x = L^-T x in place (L as in forward_sub). */
static void backward_sub(const double *L, int nv, double *x) {
  for (int i = nv - 1; i >= 0; i--) {
    for (int j = i + 1; j < nv; j++) {
      x[i] -= L[(size_t)j * nv + i] * x[j];
    }
    x[i] /= L[(size_t)i * nv + i];
  }
}


/* Whether the n doubles at a and b are bitwise the same. */
static int same_bits(const double *a, const double *b, int n) {
  return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}


/* Moving body k (record body i)'s twist rows of J: on each dof j of its chain, the angular
 * rows cdof_j's rotation and the linear rows its translation plus rotation x (x_com - the
 * tree's centre of mass), cdof being the dof's motion about that centre (mj_jacBodyCom's
 * rows, in its operations); the other columns stay nil, as calloc left them. */
static void body_jacobian(bridge *br, int i, int k) {
  const mjModel *m = br->m;
  const mjData *d = br->d;
  int nv = m->nv, id = br->body[i];
  const mjtNum *x = d->xipos + 3 * id, *c = d->subtree_com + 3 * m->body_rootid[id];
  const double off[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
  double *Jk = br->J + (size_t)6 * k * nv;
  const int *chain = br->chain + (size_t)k * nv;
  for (int q = 0; q < br->nchain[k]; q++) {
    int j = chain[q];
    const mjtNum *a = d->cdof + 6 * j;
    const double col[6] = {a[3] + (a[1] * off[2] - a[2] * off[1]), /* linear rows 0-2 */
                           a[4] + (a[2] * off[0] - a[0] * off[2]),
                           a[5] + (a[0] * off[1] - a[1] * off[0]),
                           a[0], /* angular rows 3-5 */
                           a[1],
                           a[2]};
    memcpy(Jk + 6 * j, col, sizeof col);
  }
}


#if mjVERSION_HEADER < 300
/* X = M^-1 B for moving body k's six rows of B (nil outside its tree), on its tree's dofs
 * alone, from the factorisation MuJoCo's step made (qLD: M = L^T D L by dof_Madr, the simple
 * dofs' L the identity): mj_solveM's operations, which leave the other dofs nil. */
static void solve_tree(const bridge *br, int k, const double *B, double *X) {
  const mjModel *m = br->m;
  const mjData *d = br->d;
  int nv = m->nv, a = br->tree0[k], b = br->tree1[k];
  const int *parent = m->dof_parentid;
  const mjtNum *dinv = d->qLDiagInv;
  B += (size_t)6 * k * nv;
  X += (size_t)6 * k * nv;
  if (br->simple[k]) { /* L the identity: x = D^-1 b */
    for (int i = a; i < b; i++) {
      for (int r = 0; r < 6; r++) {
        X[6 * i + r] = B[6 * i + r] * dinv[i];
      }
    }
    return;
  }
  memcpy(X + 6 * a, B + 6 * a, (size_t)6 * (b - a) * sizeof *X);
  for (int i = b - 1; i >= a; i--) { /* x <- L^-T x, skipping nil entries */
    const mjtNum *L = d->qLD + m->dof_Madr[i] + 1;
    for (int j = m->dof_simplenum[i] ? -1 : parent[i]; j >= 0; j = parent[j], L++) {
      for (int r = 0; r < 6; r++) {
        double xi = X[6 * i + r];
        if (xi != 0) {
          X[6 * j + r] -= xi * *L;
        }
      }
    }
  }
  for (int i = a; i < b; i++) { /* x <- D^-1 x */
    for (int r = 0; r < 6; r++) {
      X[6 * i + r] *= dinv[i];
    }
  }
  for (int i = a; i < b; i++) { /* x <- L^-1 x */
    const mjtNum *L = d->qLD + m->dof_Madr[i] + 1;
    for (int j = m->dof_simplenum[i] ? -1 : parent[i]; j >= 0; j = parent[j], L++) {
      for (int r = 0; r < 6; r++) {
        X[6 * i + r] -= X[6 * j + r] * *L;
      }
    }
  }
}
#endif


/* fresh[k]: 1 when moving body k's J, MJ rows and J M^-1 J^T blocks are to be made again: with
 * damping, at the first step, or when its tree's qpos differs bitwise from the one they were
 * made from (they are functions of it alone: MuJoCo's kinematics, mass matrix and its
 * factorisation, which is block diagonal by tree); qkept takes the tree's qpos. */
static void tree_fresh(bridge *br, int fresh[]) {
  const double *q = br->d->qpos;
  for (int k = 0; k < br->ntw; k++) {
    int a = br->qpos0[k], n = br->qpos1[k] - a;
    fresh[k] = br->fresh || br->damped || !same_bits(br->qkept + a, q + a, n);
  }
  for (int k = 0; k < br->ntw; k++) {
    memcpy(br->qkept + br->qpos0[k], q + br->qpos0[k],
           (size_t)(br->qpos1[k] - br->qpos0[k]) * sizeof *q);
  }
}


/* MJ from J, with M the mass matrix of MuJoCo's step (M, or the factored M + h B when damped,
 * so the velocity change the contacts' implicit step predicts is the one MuJoCo's step
 * makes): M^-1 J^T, or when damped the half solve L^-1 J^T. */
static void solve_twists(bridge *br, const int fresh[]) {
  int nv = br->m->nv;
  for (int k = 0; k < br->ntw && br->damped; k++) { /* L L^T = M + h B (fresh: all) */
    forward_sub6(br->Mh, nv, br->J + (size_t)6 * k * nv, br->MJ + (size_t)6 * k * nv);
  }
  if (br->damped) {
    return;
  }
#if mjVERSION_HEADER < 300
  for (int k = 0; k < br->ntw; k++) { /* by body, over its tree */
    if (fresh[k]) {
      solve_tree(br, k, br->J, br->MJ);
    }
  }
#else
  double *x = br->scratch; /* each row apart, gathered from its body's rows by dof */
  for (int a = 0; a < 6 * br->ntw; a++) {
    if (!fresh[a / 6]) {
      continue;
    }
    const double *J = br->J + (size_t)6 * (a / 6) * nv + a % 6;
    double *X = br->MJ + (size_t)6 * (a / 6) * nv + a % 6;
    for (int j = 0; j < nv; j++) {
      x[j] = J[6 * j];
    }
    mj_solveM(br->m, br->d, x, x, 1);
    for (int j = 0; j < nv; j++) {
      X[6 * j] = x[j];
    }
  }
#endif
}


/* The twists' Jacobian J, MJ (M^-1 J^T, or L^-1 J^T when damped), J M^-1 J^T, the free
 * accelerations and t0 = J qvel. */
void bridge_implicit_prepare(bridge *br) {
  const mjModel *m = br->m;
  mjData *d = br->d;
  int nv = m->nv, n = 6 * br->ntw;
  memcpy(br->qvel0, d->qvel, (size_t)nv * sizeof *d->qvel);
  if (n == 0) {
    return;
  }
  int fresh[2 * BRIDGE_MAX_CONTACTS];
  tree_fresh(br, fresh);
  br->prepared++;
  for (int k = 0; k < br->ntw; k++) {
    br->made[k] = fresh[k] ? br->prepared : br->made[k];
  }
  for (int i = 0; i < br->nbody; i++) {
    if (br->tw[i] >= 0 && fresh[br->tw[i]]) {
      body_jacobian(br, i, br->tw[i]);
    }
  }
  if (br->damped) {
    factor_mass(br);
  }
  solve_twists(br, fresh);
  /* J M^-1 J^T = left MJ^T by 6 x 6 blocks, symmetric: block (k, l) for l >= k, its upper
   * triangle on the diagonal; J's rows over their body's dofs; blocks between kinematic trees
   * nil, as calloc left them */
  const double *left = br->damped ? br->MJ : br->J;
  for (int k = 0; k < br->ntw; k++) {
    if (!fresh[k]) { /* its tree's blocks the last step's */
      continue;
    }
    const double *lk = left + (size_t)6 * k * nv;
    int j0 = br->damped ? 0 : br->dof0[k], j1 = br->damped ? nv : br->dof1[k];
    for (int l = k; l < br->ntw; l++) {
      if (br->root[k] != br->root[l]) {
        continue;
      }
      if (l == k) {
        minv_diagonal(br, lk, br->MJ + (size_t)6 * l * nv, j0, j1, k);
      } else {
        minv_block(br, lk, br->MJ + (size_t)6 * l * nv, j0, j1, k, l);
      }
    }
  }
  double *t0 = br->scratch, *f = t0 + n, *qacc = f + nv;
  if (m->nu > 0) { /* else qfrc_actuator nil, as mj_step2's mj_fwdActuation left it */
    mj_fwdActuation(m, d);
  }
  for (int j = 0; j < nv; j++) {
    f[j] = d->qfrc_passive[j] - d->qfrc_bias[j] + d->qfrc_applied[j] + d->qfrc_actuator[j];
  }
  if (br->damped) {
    forward_sub(br->Mh, nv, f, qacc); /* L^-1 f */
  }
  for (int k = 0; k < br->ntw; k++) { /* J M^-1 f: (M^-1 J^T)^T f over the body's tree's dofs */
    const double *rows = br->MJ + (size_t)6 * k * nv; /* damped: L^-1 J^T, with L^-1 f */
    int a = br->tree0[k], kept = !fresh[k] && same_bits(br->fkept + a, f + a, br->tree1[k] - a);
    if (!kept) { /* else its MJ rows and f on its tree the last step's: so is afree */
      rows_dot(rows, br->damped ? 0 : a, br->damped ? nv : br->tree1[k], br->damped ? qacc : f,
               br->afree + 6 * k);
    }
    jdot(br, k, d->qvel, t0 + 6 * k);
  }
  memcpy(br->fkept, f, (size_t)nv * sizeof *f);
  memset(br->dtw, 0, (size_t)n * sizeof *br->dtw);
  br->fresh = 0;
}


void bridge_twist(const bridge *br, int i, double frac, double t[6]) {
  int k = br->tw[i];
  for (int j = 0; j < 6; j++) {
    t[j] = k < 0 ? 0.0 : br->scratch[6 * k + j] + frac * br->dtw[6 * k + j];
  }
}


/* Contact i's bodies' block of J M^-1 J^T and free accelerations into c->m12, c->a12 (12 x
 * 12 and 12): its moving bodies' rows and columns (a fixed body's stay nil, as the contact's
 * creation left them); m12 only when a block was made since it was last copied. */
static void pair_block(const bridge *br, int i, bridge_contact *c) {
  int n = 6 * br->ntw, k[2] = {br->tw[br->pair_index[2 * i]], br->tw[br->pair_index[2 * i + 1]]};
  double *m12 = c->m12, *a12 = c->a12;
  int copy = 0;
  for (int p = 0; p < 2; p++) {
    copy |= k[p] >= 0 && br->made[k[p]] > c->m12_at;
  }
  c->m12_at = br->prepared;
  for (int p = 0; p < 2; p++) {
    if (k[p] < 0) {
      continue;
    }
    memcpy(a12 + 6 * p, br->afree + 6 * k[p], 6 * sizeof *a12);
    for (int q = 0; q < 2 && copy; q++) {
      for (int r = 0; r < 6 && k[q] >= 0; r++) { /* block (p, q), its row r */
        memcpy(m12 + 12 * (6 * p + r) + 6 * q, br->minv + (size_t)(6 * k[p] + r) * n + 6 * k[q],
               6 * sizeof *m12);
      }
    }
  }
}


/* Whether contact i shares a moving body with another contact that touches: vxc_pair_substep
 * moves one pair's bodies alone, so two such pairs sub-stepped apart would each move the
 * shared body as if the other were not there (a grasp's pads and the table under the
 * part); their impacts are taken by the joint implicit step instead. */
static int shares_body(const bridge *br, int i) {
  for (int j = 0; j < br->ncontact; j++) {
    if (j == i || br->c[j].w.npairs == 0) {
      continue;
    }
    for (int k = 0; k < 4; k++) {
      int b = br->pair_index[2 * i + k / 2], o = br->pair_index[2 * j + k % 2];
      if (b == o && br->tw[b] >= 0) {
        return 1;
      }
    }
  }
  return 0;
}


/* Contact i's impact in sub-steps when vxc_pair_impact asks for them and it shares no moving
 * body with another touching contact: c->sub, c->sr. 0, or -1 with a message. */
static int substeps(bridge *br, int i, char *msg, size_t size) {
  bridge_contact *c = &br->c[i];
  c->sub = 0;
  if (br->ntw == 0 || c->w.npairs == 0 || shares_body(br, i)) {
    return 0;
  }
  pair_block(br, i, c);
  long long t0 = bridge_clock();
  int impact = vxc_pair_impact(c->pair, &c->jac, c->m12, br->m->opt.timestep);
  br->wall_vxc += bridge_clock() - t0;
  if (!impact) {
    return 0;
  }
  vxc_body_motion mo[2];
  bridge_substep_motion(br, c, c->m12, c->a12, mo);
  vxc_error err;
  t0 = bridge_clock();
  vxc_status st = vxc_pair_substep(c->pair, c->pose[0], &mo[0], c->pose[1], &mo[1], c->m12, c->a12,
                                   br->m->opt.timestep, &c->sr, &err);
  br->wall_vxc += bridge_clock() - t0;
  if (st != VXC_OK) {
    snprintf(msg, size, "t = %.9g s: %s", br->d->time, err.message);
    return -1;
  }
  c->sub = 1;
  return bridge_substep_end(br, c, msg, size);
}


/* The sub-stepped contacts' wrenches, per body (6 ntw), and the free accelerations with
 * them (afree + minv w) for the other contacts' implicit step; 0 when there are none (wsub
 * nil, afree br->afree's). */
static int substep_wrenches(bridge *br, double *wsub, double *afree) {
  int n = 6 * br->ntw, any = 0;
  memset(wsub, 0, (size_t)n * sizeof *wsub);
  for (int i = 0; i < br->ncontact; i++) {
    const bridge_contact *c = &br->c[i];
    for (int k = 0; k < 2 && c->sub; k++) {
      int t = br->tw[br->pair_index[2 * i + k]];
      for (int j = 0; j < 6 && t >= 0; j++) {
        wsub[6 * t + j] += c->sr.wrench[6 * k + j] + c->half[6 * k + j];
        any = 1;
      }
    }
  }
  for (int a = 0; a < n && any; a++) {
    afree[a] = br->afree[a] + dot(br->minv + (size_t)a * n, wsub, n);
  }
  if (!any) {
    memcpy(afree, br->afree, (size_t)n * sizeof *afree);
  }
  return any;
}


int bridge_implicit_apply(bridge *br, char *msg, size_t size) {
  vxc_implicit_pair pp[BRIDGE_MAX_CONTACTS];
  int np = 0, idx[BRIDGE_MAX_CONTACTS], n = 6 * br->ntw;
  for (int i = 0; i < br->ncontact; i++) {
    if (substeps(br, i, msg, size) != 0) {
      return -1;
    }
    if (!br->c[i].sub) {
      idx[np] = i;
      pp[np++] = (vxc_implicit_pair){&br->c[i].jac,
                                     br->tw[br->pair_index[2 * i]],
                                     br->tw[br->pair_index[2 * i + 1]],
                                     {0},
                                     0,
                                     0,
                                     0};
    }
  }
  double *wsub = br->scratch + n, *afree = wsub + n;
  if (br->ntw > 0) {
    int any = substep_wrenches(br, wsub, afree);
    vxc_error err;
    long long t0 = bridge_clock();
    vxc_status st = vxc_implicit_step(br->ntw, br->minv, afree, br->m->opt.timestep, np, pp,
                                      br->wout, NULL, NULL, &err);
    br->wall_vxc += bridge_clock() - t0;
    if (st != VXC_OK) {
      snprintf(msg, size, "t = %.9g s: %s", br->d->time, err.message);
      return -1;
    }
    for (int a = 0; a < n && any; a++) {
      br->wout[a] += wsub[a];
    }
  }
  for (int i = 0; i < br->ncontact; i++) { /* no moving body: nothing to solve */
    bridge_contact *c = &br->c[i];
    if (c->sub || br->ntw == 0) {
      memcpy(c->applied, c->sub ? c->sr.wrench : c->jac.wrench, sizeof c->applied);
    }
    c->was_sub = c->sub;
  }
  for (int k = 0; k < np && br->ntw > 0; k++) {
    memcpy(br->c[idx[k]].applied, pp[k].wrench, sizeof pp[k].wrench);
  }
  for (int i = 0; i < br->nbody; i++) {
    int k = br->tw[i];
    if (k >= 0) {
      mjtNum *x = br->d->xfrc_applied + 6 * br->body[i];
      for (int j = 0; j < 6; j++) {
        x[j] += br->wout[6 * k + j];
      }
    }
  }
  return 0;
}


void bridge_implicit_end(bridge *br) {
  int nv = br->m->nv, n = 6 * br->ntw;
  double *dq = br->scratch + n;
  for (int j = 0; j < nv; j++) {
    dq[j] = br->d->qvel[j] - br->qvel0[j];
  }
  for (int k = 0; k < br->ntw; k++) {
    jdot(br, k, dq, br->dtw + 6 * k);
  }
  for (int i = 0; i < br->nbody; i++) {
    int k = br->tw[i] < 0 ? 0 : br->tw[i], fixed = br->tw[i] < 0;
    const double *s = br->scratch + 6 * k, *ds = br->dtw + 6 * k;
    for (int j = 0; j < 6; j++) { /* bridge_twist's at 1 less at 0 */
      br->dtwist[i][j] = fixed ? 0.0 : (s[j] + 1.0 * ds[j]) - (s[j] + 0.0 * ds[j]);
    }
    const double *dt = br->dtwist[i];
    const vxc_body_motion *mo = &br->mo[i];
    vxc_body_motion *mid = &br->mid[i], *end = &br->end[i];
    for (int j = 0; j < 3; j++) {
      mid->r[j] = end->r[j] = mo->r[j];
      mid->v[j] = mo->v[j] + 0.5 * dt[j];
      mid->w[j] = mo->w[j] + 0.5 * dt[3 + j];
      end->v[j] = mo->v[j] + dt[j];
      end->w[j] = mo->w[j] + dt[3 + j];
    }
  }
}


int bridge_implicit_advance(bridge *br, char *msg, size_t size) {
  const mjModel *m = br->m;
  for (int i = 0; i < br->ncontact && !br->native; i++) {
    bridge_contact *c = &br->c[i];
    if (c->sub) {
      continue; /* its states advanced through the sub-steps */
    }
    const vxc_body_motion *a = &br->end[br->pair_index[2 * i]],
                          *b = &br->end[br->pair_index[2 * i + 1]];
    vxc_error err;
    long long t0 = bridge_clock();
    vxc_status st = vxc_pair_advance(c->pair, a, b, m->opt.timestep, &err);
    br->wall_vxc += bridge_clock() - t0;
    if (st != VXC_OK) {
      snprintf(msg, size, "t = %.9g s: %s", br->d->time, err.message);
      return -1;
    }
  }
  return 0;
}


/* The rotation vector of q1 q0^-1 (world): the turn from q0 to q1. */
static void turn(const double q0[4], const double q1[4], double r[3]) {
  double w = q1[0] * q0[0] + q1[1] * q0[1] + q1[2] * q0[2] + q1[3] * q0[3];
  double v[3] = {-q1[0] * q0[1] + q1[1] * q0[0] - q1[2] * q0[3] + q1[3] * q0[2],
                 -q1[0] * q0[2] + q1[1] * q0[3] + q1[2] * q0[0] - q1[3] * q0[1],
                 -q1[0] * q0[3] - q1[1] * q0[2] + q1[2] * q0[1] + q1[3] * q0[0]};
  double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  double a = s > 0 ? 2 * atan2(s, w) / s : 2.0;
  for (int i = 0; i < 3; i++) {
    r[i] = a * v[i];
  }
}


/* Body i's centre of mass at pose p. */
static void com_at(const bridge *br, int i, const vxc_pose *p, double x[3]) {
  const mjtNum *ip = br->m->body_ipos + 3 * br->body[i];
  double R[9];
  mju_quat2Mat(R, p->q);
  for (int j = 0; j < 3; j++) {
    x[j] = p->p[j] + R[3 * j] * ip[0] + R[3 * j + 1] * ip[1] + R[3 * j + 2] * ip[2];
  }
}


void bridge_implicit_correct(bridge *br) {
  int n = 6 * br->ntw, nv = br->m->nv, any = 0;
  for (int i = 0; i < br->ncontact; i++) {
    any |= br->c[i].sub;
  }
  if (!any || br->native) {
    return;
  }
  any = 0;
  double *e = br->scratch + n, *A = br->corr, *dq = br->corr + (size_t)n * n;
  memset(e, 0, (size_t)n * sizeof *e);
  for (int i = 0; i < br->ncontact && !br->native; i++) {
    const bridge_contact *c = &br->c[i];
    for (int k = 0; k < 2 && c->sub; k++) {
      int b = br->pair_index[2 * i + k], t = br->tw[b];
      if (t < 0) {
        continue;
      }
      double x1[3], r[3], tw[6];
      com_at(br, b, &c->sr.pose[k], x1);
      turn(c->pose[k]->q, c->sr.pose[k].q, r);
      bridge_twist(br, b, 1, tw);
      for (int j = 0; j < 3; j++) { /* where the sub-steps left it, less where MuJoCo did */
        e[6 * t + j] = x1[j] - c->mo[k]->r[j] - br->m->opt.timestep * tw[j];
        e[6 * t + 3 + j] = r[j] - br->m->opt.timestep * tw[3 + j];
      }
      any = 1;
    }
  }
  if (!any) {
    return;
  }
  double tr = 0;
  for (int a = 0; a < n; a++) {
    tr += br->minv[(size_t)a * n + a];
  }
  for (int a = 0; a < n * n; a++) { /* (J M^-1 J^T + eps I) lambda = e */
    A[a] = br->minv[a] + (a % (n + 1) == 0 ? 1e-12 * tr / n : 0.0);
  }
  memset(dq, 0, (size_t)nv * sizeof *dq);
  if (mju_cholFactor(A, n, 0) == n) {
    mju_cholSolve(e, A, e, n);
    for (int a = 0; a < n; a++) {
      for (int j = 0; j < nv; j++) {
        dq[j] += e[a] * br->MJ[(size_t)6 * (a / 6) * nv + 6 * j + a % 6];
      }
    }
    if (br->damped) { /* M^-1 J^T lambda = L^-T (L^-1 J^T lambda) */
      backward_sub(br->Mh, nv, dq);
    }
    mj_integratePos(br->m, br->d->qpos, dq, 1);
  }
}
