/* pair_substep.c: an impact shorter than a simulator's step, resolved in sub-steps of the
 * pair's own bodies (vxc_pair_substep, lib/README.md section 16).
 *
 * Data: the two bodies' poses and twists, advanced by the leapfrog at variable steps (a half
 * kick, then drifts of the sub-steps' lengths with kicks of their means between them, and a
 * closing half kick: positions and velocities both at the step's end) under their inverse
 * mass matrix and free accelerations (held over the step) and the pair's linearly implicit
 * wrench (vxc_implicit_step), taken at the mean of each kick's velocities (the trapezoidal
 * rule: second order in the damping as in the stiffness; the closing half kick at its end
 * velocity) at sub-steps short against the contact's own period; a contact found already
 * overlapping (late, at the step's start) is first moved back along the bodies' twists to
 * where it began. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"
#include "lib/pair_internal.h"

#define MAX_SUBSTEPS 4096

/* A body during the sub-steps: its pose, its reference point's offset in its model frame,
 * its twist at the reference point. */
typedef struct sub_body {
  vxc_pose pose;
  double ref[3];
  double t[6];
} sub_body;

static void body_init(sub_body *b, const vxc_pose *pose, const vxc_body_motion *m) {
  b->pose = *pose;
  double R[9], d[3];
  vxg_quat_to_mat(pose->q, R);
  for (int i = 0; i < 3; i++) {
    d[i] = m->r[i] - pose->p[i];
  }
  for (int i = 0; i < 3; i++) {
    b->ref[i] = R[i] * d[0] + R[3 + i] * d[1] + R[6 + i] * d[2]; /* R^T d */
  }
  memcpy(b->t, m->v, 3 * sizeof *b->t);
  memcpy(b->t + 3, m->w, 3 * sizeof *b->t);
}


/* The reference point in the world. */
static void body_ref(const sub_body *b, double r[3]) {
  double R[9];
  vxg_quat_to_mat(b->pose.q, R);
  for (int i = 0; i < 3; i++) {
    r[i] =
        b->pose.p[i] + R[3 * i] * b->ref[0] + R[3 * i + 1] * b->ref[1] + R[3 * i + 2] * b->ref[2];
  }
}


static vxc_body_motion body_motion(const sub_body *b) {
  vxc_body_motion m;
  body_ref(b, m.r);
  memcpy(m.v, b->t, sizeof m.v);
  memcpy(m.w, b->t + 3, sizeof m.w);
  return m;
}


/* The body moved by dt (s, may be negative) at its twist: the reference point along v, the
 * orientation turned by w dt about it (q <- exp(w dt) q). */
static void body_move(sub_body *b, double dt) {
  double r[3];
  body_ref(b, r);
  const double *w = b->t + 3;
  double a = sqrt(vxg_dot(w, w)) * dt, q[4];
  double s = a != 0 ? sin(a / 2) / (a / dt) : dt / 2, c = cos(a / 2);
  double e[4] = {c, s * w[0], s * w[1], s * w[2]};
  const double *p = b->pose.q;
  vxg_quat_mul(e, p, q);
  double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; i++) {
    b->pose.q[i] = q[i] / l;
  }
  double R[9], rr[3];
  vxg_quat_to_mat(b->pose.q, R);
  vxg_mat3_vec(R, b->ref, rr);
  for (int i = 0; i < 3; i++) {
    r[i] += b->t[i] * dt;
    b->pose.p[i] = r[i] - rr[i];
  }
}


/* The pair stepped (dt = 0) at the bodies' poses and motions: its wrench in *w. */
static vxc_status step_at(vxc_pair *pr, const sub_body b[2], vxc_pair_wrench *w, vxc_error *err) {
  vxc_body_motion ma = body_motion(&b[0]), mb = body_motion(&b[1]);
  return vxc_pair_step(pr, &b[0].pose, &ma, &b[1].pose, &mb, 0, w, err);
}


/* The bodies as they were tau before: twists less tau a_free, moved back at the mean twist. */
static void back_by(const sub_body b[2], const double a_free[12], double tau, sub_body t[2]) {
  memcpy(t, b, 2 * sizeof *b);
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 6; i++) {
      t[k].t[i] -= 0.5 * tau * a_free[6 * k + i];
    }
    body_move(&t[k], -tau);
    for (int i = 0; i < 6; i++) {
      t[k].t[i] -= 0.5 * tau * a_free[6 * k + i];
    }
  }
}


/* A contact found overlapping at its first step: the bodies moved back along their motion
 * (their free accelerations held) to just after it began (bisection on the time back,
 * within h / 2048), the time back returned; 0 when it overlapped a whole step back too (not
 * a late find). The pair ends stepped there (the contact started afresh). */
static vxc_status move_back(vxc_pair *pr, sub_body b[2], const double a_free[12], double h,
                            double *back, vxc_error *err) {
  sub_body t[2];
  vxc_pair_wrench w;
  double lo = 0, hi = h;
  *back = 0;
  for (int it = 0; it < 12; it++) {
    double tau = it == 0 ? hi : 0.5 * (lo + hi);
    back_by(b, a_free, tau, t);
    vxc_status st = step_at(pr, t, &w, err);
    if (st != VXC_OK) {
      return st;
    }
    if (it == 0 && w.npairs > 0) {
      return step_at(pr, b, &w, err); /* overlapping a step back as well */
    }
    *(w.npairs > 0 ? &lo : &hi) = tau;
  }
  *back = lo; /* in contact by at most the bracket's motion: the force starts near zero */
  back_by(b, a_free, lo, t);
  memcpy(b, t, sizeof t);
  return step_at(pr, b, &w, err);
}


/* The elastic work k_v V_r dx of the pair's contacts over a sub-step whose normal displacement
 * at each centroid is dt times the relative velocity of motions ma, mb. */
static double elastic_work(const vxc_pair *pr, const vxc_body_motion *ma, const vxc_body_motion *mb,
                           double dt) {
  double e = 0;
  for (int ci = 0; ci < pr->ncontact; ci++) {
    const vxci_pair_contact *c = &pr->contact[ci];
    if (c->slot < 0 || !(c->geom.volume > 0)) {
      continue;
    }
    const double *x = c->geom.centroid, *n = c->geom.normal;
    double ra[3], rb[3], wa[3], wb[3], vn = 0;
    for (int i = 0; i < 3; i++) {
      ra[i] = x[i] - ma->r[i];
      rb[i] = x[i] - mb->r[i];
    }
    vxg_cross(ma->w, ra, wa);
    vxg_cross(mb->w, rb, wb);
    for (int i = 0; i < 3; i++) {
      vn += n[i] * (ma->v[i] + wa[i] - mb->v[i] - wb[i]);
    }
    const double *sy = pr->state + c->slot * VXC_STATE_SIZE;
    double vr = c->geom.volume - (pr->params.tau_r > 0 ? sy[VXC_STATE_VRO] : 0.0);
    double dx = vn * dt;
    e += pr->params.k_v * ((vr > 0 ? vr : 0.0) + 0.5 * c->area * dx) * dx;
  }
  return e;
}


/* The largest rate of a contact's relative depth change, |v_cn| / (V / A) (1/s), over the
 * last step's contacts. */
static double depth_rate(const vxc_pair *pr) {
  double rate = 0;
  for (int ci = 0; ci < pr->ncontact; ci++) {
    const vxci_pair_contact *c = &pr->contact[ci];
    if (c->slot < 0 || !(c->geom.volume > 0) || !(c->area > 0)) {
      continue;
    }
    const double *x = c->geom.centroid, *n = c->geom.normal;
    double ra[3], rb[3], wa[3], wb[3], vn = 0;
    for (int i = 0; i < 3; i++) {
      ra[i] = x[i] - pr->ma.r[i];
      rb[i] = x[i] - pr->mb.r[i];
    }
    vxg_cross(pr->ma.w, ra, wa);
    vxg_cross(pr->mb.w, rb, wb);
    for (int i = 0; i < 3; i++) {
      vn += n[i] * (pr->ma.v[i] + wa[i] - pr->mb.v[i] - wb[i]);
    }
    rate = fmax(rate, fabs(vn) / (c->geom.volume / c->area));
  }
  return rate;
}


/* omega^2 = trace(-minv d_pose): the contact's stiffness over the bodies' masses (1/s^2). */
static double omega2(const double d_pose[144], const double *minv) {
  double w2 = 0;
  for (int i = 0; i < 12; i++) {
    for (int j = 0; j < 12; j++) {
      w2 -= minv[12 * i + j] * d_pose[12 * j + i];
    }
  }
  return w2;
}


/* The next sub-step's length: at most h, 0.05 / omega (omega^2 the contact's stiffness
 * over the masses), the
 * time its depth takes to change by a fifth (|v_cn| / (V / A)), and twice the last one (a
 * contact starting from zero depth grows its steps geometrically); at least h / 4096. */
static double sub_length(const vxc_pair *pr, const double d_pose[144], const double *minv,
                         double h, double last) {
  double w2 = omega2(d_pose, minv), rate = depth_rate(pr), hs = fmin(h, 2 * last);
  if (w2 > 0) {
    hs = fmin(hs, 0.05 / sqrt(w2));
  }
  if (rate > 0) {
    hs = fmin(hs, 0.2 / rate);
  }
  return fmax(hs, h / MAX_SUBSTEPS);
}


/* A kick of length k (the pair stepped at the bodies' present poses): the twists' change dt
 * with the pair's wrench linear in it taken at the twists plus lam dt (lam 1/2: the kick's
 * mean twist; 1: its end's). vxc_implicit_step over lam k solves (I - lam k minv K) dt' = lam
 * k (a_free + minv W_s), so dt = dt' / lam and its wrench W_s + K dt' is that one. The
 * result's impulse and work accumulated. */
static vxc_status kick(vxc_pair *pr, sub_body b[2], const double *minv, const double *a_free,
                       double k, double lam, vxc_pair_jacobian *J, vxc_substep_result *out,
                       vxc_error *err) {
  vxc_status st = vxc_pair_jacobian_get(pr, lam * k, J, err);
  vxc_implicit_pair ip = {J, 0, 1, {0}, 0, 0, 0};
  double w[12], dt[12];
  if (st == VXC_OK) {
    st = vxc_implicit_step(2, minv, a_free, lam * k, 1, &ip, w, dt, &pr->al, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  for (int i = 0; i < 12; i++) {
    double t0 = b[i / 6].t[i % 6];
    dt[i] /= lam;
    b[i / 6].t[i % 6] += dt[i];
    out->wrench[i] += k * ip.wrench[i];
    out->work += k * ip.wrench[i] * (t0 + 0.5 * dt[i]);
  }
  return VXC_OK;
}


/* A drift of length hs at the bodies' twists: the poses moved, the states advanced, the
 * elastic work accumulated. */
static vxc_status drift(vxc_pair *pr, sub_body b[2], double hs, vxc_substep_result *out,
                        vxc_error *err) {
  vxc_body_motion ma = body_motion(&b[0]), mb = body_motion(&b[1]);
  out->elastic += elastic_work(pr, &ma, &mb, hs);
  body_move(&b[0], hs);
  body_move(&b[1], hs);
  return vxc_pair_advance(pr, &ma, &mb, hs, err);
}


vxc_status vxc_pair_substep(vxc_pair *pr, const vxc_pose *pose_a, const vxc_body_motion *motion_a,
                            const vxc_pose *pose_b, const vxc_body_motion *motion_b,
                            const double minv[144], const double a_free[12], double h,
                            vxc_substep_result *out, vxc_error *err) {
  static const char *fn = "vxc_pair_substep";
  if (!pr || !pose_a || !motion_a || !pose_b || !motion_b || !minv || !a_free || !out || !(h > 0) ||
      !isfinite(h)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s", fn,
                         !(h > 0) || !isfinite(h) ? "h is not positive" : "a NULL argument");
  }
  vxc_substep_result r;
  memset(&r, 0, sizeof r);
  sub_body b[2];
  body_init(&b[0], pose_a, motion_a);
  body_init(&b[1], pose_b, motion_b);
  vxc_pair_wrench w;
  int started = pr->stepped && pr->last_started > 0; /* the caller's step found it new */
  vxc_status st = step_at(pr, b, &w, err);
  int fresh = started || w.started > 0; /* a new contact grows its sub-steps from h / 8 */
  if (st == VXC_OK && fresh) {
    st = move_back(pr, b, a_free, h, &r.back, err);
  }
  vxc_pair_jacobian J;
  double t = -r.back, hs = fresh ? h / 16 : h, last = 0, d_pose[144];
  while (st == VXC_OK && t < h * (1 - 1e-12)) {
    if (r.substeps == MAX_SUBSTEPS) {
      return vxg_error_set(err, VXC_ERR_LIMIT, NULL, 0, 0, "%s: more than %d sub-steps", fn,
                           MAX_SUBSTEPS);
    }
    if (r.substeps > 0) {
      st = step_at(pr, b, &w, err);
    }
    if (st == VXC_OK) {
      st = vxci_pair_d_pose(pr, d_pose, err);
    }
    if (st != VXC_OK) {
      break;
    }
    hs = fmin(sub_length(pr, d_pose, minv, h, hs), h - t);
    st = kick(pr, b, minv, a_free, 0.5 * (last + hs), 0.5, &J, &r, err);
    if (st == VXC_OK) {
      st = drift(pr, b, hs, &r, err);
    }
    last = hs;
    t += hs;
    r.substeps++;
  }
  if (st == VXC_OK) { /* the last half kick, at the end's poses */
    st = step_at(pr, b, &w, err);
  }
  if (st == VXC_OK) {
    st = kick(pr, b, minv, a_free, 0.5 * last, 1, &J, &r, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  for (int i = 0; i < 12; i++) {
    r.wrench[i] /= h;
    r.twist[i] = b[i / 6].t[i % 6];
  }
  r.pose[0] = b[0].pose;
  r.pose[1] = b[1].pose;
  pr->in_impact = 1; /* until the contact opens or rests (vxc_pair_step, vxc_pair_impact) */
  *out = r;
  return VXC_OK;
}


int vxc_pair_impact(const vxc_pair *pr, const vxc_pair_jacobian *J, const double minv[144],
                    double h) {
  if (!pr || !J || !minv || !pr->stepped) {
    return 0;
  }
  for (int ci = 0; ci < pr->ncontact; ci++) {
    if (pr->last_started > 0 && pr->contact[ci].slot >= 0 && pr->contact[ci].geom.volume > 0) {
      return 1;
    }
  }
  double moved = depth_rate(pr) * h, wh2 = omega2(J->d_pose, minv) * h * h;
  return ((wh2 > 1 || pr->in_impact) && moved > 0.01) || moved > 0.5;
}
