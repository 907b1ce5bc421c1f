/* task_sim.h: the running simulation of a task, shared by the task runner (lib/task_run.c:
 * the right-hand side, the explicit integrators, the step loop) and its linearly implicit
 * integrator (lib/task_rosw.c); not installed.
 *
 * Data: the state vector y (layout at the top of task_run.c: 13 doubles per dynamic body,
 * `slots` contact-state blocks per contact, 6 energy integrals) and its work arrays; the
 * contacts' pairs hold the last query. Invariant: after every accepted step (and at the start)
 * the pairs' last query is the one at s->y, so the right-hand side can be evaluated again at
 * other velocities and contact states without a new query (vxci_sim_eval with query = 0). */
#ifndef VXC_TASK_SIM_H
#define VXC_TASK_SIM_H

#include "lib/pair_internal.h"
#include "lib/task_internal.h"

typedef struct body_rt {
  int off;        /* offset of the 13 states (dynamic), else -1 */
  double Iinv[9]; /* inverse inertia about the com, body axes */
} body_rt;

typedef struct contact_rt {
  int off;        /* offset of slot 0's state block */
  vxc_pair *pair; /* query, tracker, slot map, the last metrics, wrenches and `deep` (largest
                     k_v V of an overlapping untracked pair at the last eval) */
} contact_rt;

/* The linearly implicit integrator's Jacobian (task_rosw.c): the columns of df/dy for the
 * fast variables u (the dynamic bodies' velocities and the held slots' friction states),
 * at the step's start. */
typedef struct sim_jac {
  int m;      /* fast variables now */
  int mmax;   /* capacity */
  int *u;     /* [mmax] their indices in y */
  double *J;  /* [n * mmax], column c = df/dy[u[c]] */
  double *W;  /* [mmax * mmax], LU of I - h gamma J_uu */
  int *piv;   /* [mmax] */
  double *f0; /* [n] f at the step's start, without a new query */
  double *g;  /* [mmax] scratch */
  double *d;  /* [mmax] the fast variables' scales at the step's start (the error norm's
                 atol + rtol |y|); W is factored as D^-1 (I - h gamma J_uu) D */
  int ok;     /* 1 while J may serve s->y (vxci_sim_rosw_step_done) */
  int age;    /* steps accepted since J was taken */
  int *u2;    /* [mmax] scratch: the fast set now */
  double h;   /* the step W was factored for, 0: none */
  double rho; /* an estimate of J_uu's spectral radius, 1/s (0: no fast variable) */
} sim_jac;

typedef struct sim {
  vxc_task *t;
  int n;    /* state size */
  int eoff; /* energy offset */
  body_rt *b;
  contact_rt *c;
  double *y, *y1, *k[7], *ytmp, *yerr;
  int *live;  /* [2 * nlive]: the ranges [lo, hi) of y that a step of the explicit
                 integrators updates: the bodies, the held slots' blocks, the energy
                 integrals (the free slots' blocks stay zero; sim_live) */
  int nlive;
  struct sim_life *life; /* per contact's slot, the contact holding it (task_peaks.c) */
  int *life_off;         /* contact ci's slots: life[life_off[ci] ..] */
  vxc_task_body_state *bs;    /* per body, at the last eval */
  vxc_task_contact_state *cs; /* per contact, at the last eval */
  double e0;                  /* initial K + P + E + D - W */
  double p0;                  /* initial potential energy, J */
  double escale;              /* energy scale of the run so far (energy_check), J */
  long long queries;
  long long capped_queries;      /* queries less accurate than their contact's tolerance */
  long long closed_form_queries; /* queries in contact measured in closed form throughout */
  vxc_error *err;
  sim_jac jac; /* (method rosw) only */
} sim;

/* dy = f(t, y). With query = 1 the contacts are queried at y's poses (s->queries counts it);
 * with 0 the last query is reused, which is right only while y has the poses it was made at.
 * Fills s->bs, s->cs and each pair's wrenches and `deep`. dy is one of s->k[], s->jac.f0:
 * only the ranges s->live are written, the free slots' entries being zero there already.
 * Statuses: VXC_OK, VXC_ERR_NOMEM, a query's or the force model's (s->err says which
 * contact and when). */
vxc_status vxci_sim_eval(sim *s, double t, const double *y, double *dy, int query);

/* The energy terms of state y (J): kinetic, potential, the integrals, and the balance error
 * against s->e0. */
void vxci_sim_energy(const sim *s, const double *y, vxc_task_energy *e);

/* Normalises the dynamic bodies' quaternions in y. */
void vxci_sim_normalize_quats(sim *s, double *y);

/* The adaptive integrators' error norm: max over i of |d_i| / (atol + rtol max(|y_i|, |y1_i|)),
 * NaN or infinite when d is; a body's velocity and angular velocity scaled as vectors, by
 * their magnitudes in place of |y_i| (their components are the frames', so a component that
 * is small because of the body's orientation gets the tolerance of the whole vector). */
double vxci_sim_error_norm(const sim *s, const double *y, const double *y1, const double *d);

/* Each contact's own peaks (task_peaks.c): vxci_peaks_init allocates the slots' lives
 * (VXC_OK, VXC_ERR_NOMEM), vxci_peaks_track follows the held slots after an accepted step
 * at time t (the pairs' last query and wrenches at s->y), vxci_peaks_finish keeps the lives
 * still open at the run's end in the summary (T->sum_contact[].peak), vxci_peaks_free
 * releases them (NULL fields are fine). */
vxc_status vxci_peaks_init(sim *s);
void vxci_peaks_track(sim *s, double t);
void vxci_peaks_finish(sim *s);
void vxci_peaks_free(sim *s);

/* The Rosenbrock-W integrator (task_rosw.c). vxci_sim_rosw_init allocates s->jac for the task's
 * largest fast set (VXC_OK, VXC_ERR_NOMEM); vxci_sim_rosw_free releases it (a zeroed jac is fine).
 * vxci_sim_rosw_trial takes one trial step of size h from (t, s->y), s->k[0] = f(t, y) given,
 * writing s->y1, s->k[ROSW_KEND] = f(t + h, y1) and the scaled error *errn (infinite when the
 * step's linear system is singular). Statuses of vxci_sim_eval. */
#define ROSW_KEND 5
#define ROSW_ORDER 3
vxc_status vxci_sim_rosw_init(sim *s);
void vxci_sim_rosw_free(sim *s);
vxc_status vxci_sim_rosw_trial(sim *s, double t, double h, double *errn);

/* (method auto): whether a step of size h from (t, s->y) should be rosw's: 1 when h times the
 * spectral radius of the fast variables' Jacobian (taken here when s->jac has none for s->y)
 * passes ROSW_EXPLICIT_REACH; 0 when bs3, three queries a step against rosw's four, is stable
 * at h. bs3's stability region holds the half-disk |h lambda| <= sqrt(3) of the left
 * half-plane (on the imaginary axis |R(iy)|^2 = 1 - y^4 / 12 + y^6 / 36); the reach, 1, leaves
 * a margin for the estimate of the radius, and lies well below bs3's real reach 2.51, where
 * a step held by the stiff mode settles, so such a step turns to rosw. Statuses of
 * vxci_sim_eval (*implicit then 1). */
#define ROSW_EXPLICIT_REACH 1.0
vxc_status vxci_sim_rosw_implicit(sim *s, double t, double h, int *implicit);

/* After a trial step (accepted or not; changed: the contacts' pairs changed with it): whether
 * the fast variables' Jacobian still serves the next step's start. A W-method keeps its order
 * with any J, so J is kept over up to ROSW_JAC_AGE accepted steps while the fast set and the
 * contacts' pairs stay, and taken anew after a rejection of a step that used an older one. */
#define ROSW_JAC_AGE 8
void vxci_sim_rosw_step_done(sim *s, int accepted, int changed);

#endif /* VXC_TASK_SIM_H */
