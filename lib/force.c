/* force.c: the volumetric contact model (lib/README.md sections 4-8) and the point contact
 * model (section 10): contact start, reset and re-projection of the states, and the
 * evaluation of one contact's wrench and state derivative.
 *
 * Data: a contact's state is VXC_STATE_SIZE doubles owned by the caller (layout in
 * vxc_force.h). Invariants kept here: a started state has z in the contact plane,
 * s_dw = 1, u >= v_small, ACTIVE = 1; a reset state is all zero. An evaluation reads the
 * state and writes only its outputs, after every input has been checked, so an error
 * leaves them untouched. Every vector is in the world frame; the normal n points from A
 * toward B, and the force on A is -f_n n + f_t at the centroid p_c. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "geom/geom.h"
#include "lib/force_internal.h"
#include "geom/vec3.h"

/* How far |n| may be from 1 before a normal is refused: the metrics give n to rounding; a
 * caller's hand-built normal may carry a few digits less. Accepted normals are
 * renormalised. */
#define VXC_UNIT_TOL 1e-6

/* Whether the n doubles at x are all finite. Branchless: an exponent field of all ones (an
 * infinity or a NaN) plus one carries into the sign bit, and the carries are or-ed. */
static int finite_n(const double *x, int n) {
  uint64_t carry = 0;
  for (int i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, x + i, sizeof u);
    carry |= (u & UINT64_C(0x7ff0000000000000)) + UINT64_C(0x0010000000000000);
  }
  return !(carry >> 63);
}


static int motion_finite(const vxc_body_motion *m) {
  return finite_n(m->r, 3) && finite_n(m->v, 3) && finite_n(m->w, 3);
}


void vxci_relative_velocity(const vxc_body_motion *a, const vxc_body_motion *b, const double x[3],
                              double v_c[3]) {
  double ra[3], rb[3], wa[3], wb[3];
  for (int i = 0; i < 3; i++) {
    ra[i] = x[i] - a->r[i];
    rb[i] = x[i] - b->r[i];
  }
  vxg_cross(a->w, ra, wa);
  vxg_cross(b->w, rb, wb);
  for (int i = 0; i < 3; i++) {
    v_c[i] = (a->v[i] + wa[i]) - (b->v[i] + wb[i]);
  }
}


double vxci_damping_factor(const vxc_params *p, const double state[VXC_STATE_SIZE]) {
  double u = state[VXC_STATE_U];
  if (!(u >= p->v_small)) {
    u = p->v_small;
  }
  return p->d / (p->e_eff * u);
}


static void start_state(const vxc_params *p, double v_n, double ref, const double n[3],
                        double state[VXC_STATE_SIZE]) {
  memset(state, 0, VXC_STATE_SIZE * sizeof state[0]);
  state[VXC_STATE_SDW] = 1.0;
  state[VXC_STATE_VRO] = p->tau_r > 0 ? ref : 0.0;
  state[VXC_STATE_U] = fabs(v_n) > p->v_small ? fabs(v_n) : p->v_small;
  for (int i = 0; i < 3; i++) {
    state[VXC_STATE_NPREV + i] = n[i];
  }
  state[VXC_STATE_ACTIVE] = 1.0;
}


/* The checks every entry shares, in the order of its statuses: a NULL argument or p not
 * prepared (VXC_ERR_ARG), then a non-finite motion or state (VXC_ERR_NUMERIC). `names`
 * lists the pointer arguments' names; `state` is checked for finiteness when `read`. */
static vxc_status check_args(const char *fn, const void *const *ptr, const char *const *names,
                             int nptr, const vxc_params *p, const vxc_body_motion *a,
                             const vxc_body_motion *b, const double *state, int read,
                             vxc_error *err) {
  for (int i = 0; i < nptr; i++) {
    if (!ptr[i]) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn, names[i]);
    }
  }
  if (!p->prepared) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "%s: p is not prepared (call vxc_params_prepare)", fn);
  }
  if (!motion_finite(a) || !motion_finite(b)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0,
                         "%s: the motion of body %s (r, v or w) is not finite", fn,
                         motion_finite(a) ? "b" : "a");
  }
  for (int i = 0; read && !finite_n(state, VXC_STATE_SIZE) && i < VXC_STATE_SIZE; i++) {
    if (!isfinite(state[i])) {
      return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: state[%d] = %g is not finite", fn,
                           i, state[i]);
    }
  }
  return VXC_OK;
}


vxc_status vxci_unit_normal(const char *fn, const char *what, const double in[3], double n[3],
                            vxc_error *err) {
  if (!finite_n(in, 3)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: %s is not finite", fn, what);
  }
  double l = sqrt(vxg_dot(in, in));
  if (!(fabs(l - 1.0) <= VXC_UNIT_TOL)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s has length %.9g, not 1 (to %g)", fn,
                         what, l, VXC_UNIT_TOL);
  }
  for (int i = 0; i < 3; i++) {
    n[i] = in[i] / l;
  }
  return VXC_OK;
}


/* The contact geometry's checks: volume and centroid (and inertia when `inertia`) finite,
 * the normal unit, V >= 0. */
static vxc_status check_geometry(const char *fn, const vxc_contact_geometry *geom, int inertia,
                                 double n[3], vxc_error *err) {
  if (!isfinite(geom->volume) || !finite_n(geom->centroid, 3) ||
      (inertia && !finite_n(geom->inertia, 9))) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: geom->%s is not finite", fn,
                         !isfinite(geom->volume)        ? "volume"
                         : !finite_n(geom->centroid, 3) ? "centroid"
                                                        : "inertia");
  }
  vxc_status st = vxci_unit_normal(fn, "geom->normal", geom->normal, n, err);
  if (st != VXC_OK) {
    return st;
  }
  if (geom->volume < 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: geom->volume = %g m^3 is negative", fn,
                         geom->volume);
  }
  return VXC_OK;
}


vxc_status vxc_contact_start(const vxc_params *p, const vxc_contact_geometry *geom,
                             const vxc_body_motion *a, const vxc_body_motion *b,
                             double state[VXC_STATE_SIZE], vxc_error *err) {
  static const char *fn = "vxc_contact_start";
  const void *ptr[] = {p, geom, a, b, state};
  static const char *const names[] = {"p", "geom", "a", "b", "state"};
  double n[3];
  vxc_status st = check_args(fn, ptr, names, 5, p, a, b, state, 0, err);
  if (st == VXC_OK) {
    st = check_geometry(fn, geom, 0, n, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  double v_c[3];
  vxci_relative_velocity(a, b, geom->centroid, v_c);
  start_state(p, vxg_dot(n, v_c), geom->volume, n, state);
  return VXC_OK;
}


/* The point model's own inputs: depth and point finite, the normal unit. */
static vxc_status check_point(const char *fn, double depth, const double point[3],
                              const double normal[3], double n[3], vxc_error *err) {
  if (!isfinite(depth) || !finite_n(point, 3)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0, "%s: %s is not finite", fn,
                         isfinite(depth) ? "point" : "depth");
  }
  return vxci_unit_normal(fn, "normal", normal, n, err);
}


vxc_status vxc_point_start(const vxc_params *p, double depth, const double point[3],
                           const double normal[3], const vxc_body_motion *a,
                           const vxc_body_motion *b, double state[VXC_STATE_SIZE], vxc_error *err) {
  static const char *fn = "vxc_point_start";
  const void *ptr[] = {p, point, normal, a, b, state};
  static const char *const names[] = {"p", "point", "normal", "a", "b", "state"};
  double n[3];
  vxc_status st = check_args(fn, ptr, names, 6, p, a, b, state, 0, err);
  if (st == VXC_OK) {
    st = check_point(fn, depth, point, normal, n, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  double v_c[3];
  vxci_relative_velocity(a, b, point, v_c);
  start_state(p, vxg_dot(n, v_c), depth > 0 ? depth : 0.0, n, state);
  return VXC_OK;
}


void vxc_contact_reset(double state[VXC_STATE_SIZE]) {
  if (state) {
    memset(state, 0, VXC_STATE_SIZE * sizeof state[0]);
  }
}


void vxc_contact_project(double state[VXC_STATE_SIZE], const double normal[3]) {
  if (!state || !normal || !finite_n(normal, 3)) {
    return;
  }
  double l = sqrt(vxg_dot(normal, normal));
  if (!(l > 0)) {
    return;
  }
  double n[3] = {normal[0] / l, normal[1] / l, normal[2] / l};
  double zn = vxg_dot(state + VXC_STATE_Z, n), pn = vxg_dot(state + VXC_STATE_PHI, n);
  for (int i = 0; i < 3; i++) {
    state[VXC_STATE_Z + i] -= zn * n[i];
    state[VXC_STATE_PHI + i] -= pn * n[i];
    state[VXC_STATE_NPREV + i] = n[i];
  }
}


double vxc_gyration_radius(const vxc_contact_geometry *geom) {
  if (!geom || !(geom->volume > 0)) {
    return 0.0;
  }
  const double *J = geom->inertia, *n = geom->normal;
  double jn[3];
  vxg_mat3_vec(J, n, jn);
  double lam = vxg_dot(n, jn);
  double nn = vxg_dot(n, n);
  if (!(lam > 0) || !(nn > 0)) {
    return 0.0;
  }
  return sqrt(lam / (nn * geom->volume));
}


/* What both models share once the normal force is known: friction through the kernel,
 * the wrench assembly of section 8, the power, and the state derivative. */
typedef struct contact_terms {
  double n[3];        /* unit normal, A -> B */
  double x[3];        /* point of action */
  double v_c[3];      /* velocity of A relative to B at x */
  double w_r[3];      /* w_a - w_b */
  double f_n;         /* normal force, N */
  double tau_roll[3]; /* rolling torque on A */
  double r_gyr;       /* 0 for the point model */
  int contensou;
  double dvro; /* d(V_ro or x_ro)/dt */
} contact_terms;


static vxc_status assemble(const vxc_params *p, const contact_terms *c, const vxc_body_motion *a,
                           const vxc_body_motion *b, const double state[VXC_STATE_SIZE],
                           vxc_wrench *out, double dstate[VXC_STATE_SIZE], const char *fn,
                           vxc_error *err) {
  const double *n = c->n;
  double v_cn = vxg_dot(n, c->v_c);
  double w_n = vxg_dot(n, c->w_r);

  /* friction on the bristle deflection projected on the current contact plane, so a
   * z left slightly out of plane by a normal change does not leak into the force */
  vxci_friction_in fi;
  const double *z = state + VXC_STATE_Z;
  double zn = vxg_dot(z, n);
  for (int i = 0; i < 3; i++) {
    fi.v_t[i] = c->v_c[i] - v_cn * n[i];
    fi.z[i] = z[i] - zn * n[i];
  }
  fi.f_n = c->f_n;
  fi.w_n = w_n;
  fi.r_gyr = p->rolling ? 0.0 : c->r_gyr; /* rate-independent: the spin has its own law */
  fi.contensou = p->rolling ? 0 : c->contensou;
  fi.theta = state[VXC_STATE_THETA];
  fi.s_dw = state[VXC_STATE_SDW];
  vxci_friction_out fo;
  vxci_friction_eval(p, &fi, &fo);
  if (p->friction_law > 0) {
    vxci_friction_law_sliding(p, &fi, &fo);
  }

  double tau_roll[3], tau_spin = fo.tau_spin, dphi[3] = {0, 0, 0}, dpsi = 0.0;
  memcpy(tau_roll, c->tau_roll, sizeof tau_roll);
  if (p->rolling) {
    vxci_rolling_eval(p, c->f_n, n, c->w_r, state, tau_roll, &tau_spin, dphi, &dpsi);
  }

  vxc_wrench w;
  memset(&w, 0, sizeof w);
  w.f_n = c->f_n;
  double ra[3], rb[3], ta[3], tb[3];
  for (int i = 0; i < 3; i++) {
    w.force_normal[i] = -c->f_n * n[i];
    w.force_friction[i] = fo.f_t[i];
    w.torque_rolling[i] = tau_roll[i];
    w.torque_spinning[i] = tau_spin * n[i];
    w.force_a[i] = w.force_normal[i] + w.force_friction[i];
    w.force_b[i] = -w.force_a[i];
    ra[i] = c->x[i] - a->r[i];
    rb[i] = c->x[i] - b->r[i];
  }
  vxg_cross(ra, w.force_a, ta);
  vxg_cross(rb, w.force_b, tb);
  double power_t = 0.0;
  for (int i = 0; i < 3; i++) {
    double tc = w.torque_rolling[i] + w.torque_spinning[i];
    w.torque_a[i] = ta[i] + tc;
    w.torque_b[i] = tb[i] - tc;
    power_t += tc * c->w_r[i];
  }
  w.stick = fo.s;
  /* power on the pair: the force acts on A at x with A's velocity there, and on B
   * reversed, so the forces' power is F_a . v_c; the pure torques' is tau . (w_a - w_b) */
  w.power = vxg_dot(w.force_a, c->v_c) + power_t;

  double ds[VXC_STATE_SIZE] = {0};
  for (int i = 0; i < 3; i++) {
    ds[VXC_STATE_Z + i] = fo.dz[i];
  }
  ds[VXC_STATE_THETA] = fo.dtheta;
  ds[VXC_STATE_SDW] = fo.ds_dw;
  ds[VXC_STATE_VRO] = c->dvro;
  for (int i = 0; i < 3; i++) {
    ds[VXC_STATE_PHI + i] = dphi[i];
  }
  ds[VXC_STATE_PSI] = dpsi;

  /* refuse to hand out overflowed or NaN results */
  if (!finite_n((const double *)&w, (int)(sizeof w / sizeof(double))) ||
      !finite_n(ds, VXC_STATE_SIZE)) {
    return vxg_error_set(err, VXC_ERR_NUMERIC, NULL, 0, 0,
                         "%s: the wrench or the state derivative is not finite (f_n = %g N; "
                         "a parameter or an input too large?)",
                         fn, c->f_n);
  }
  *out = w;
  if (dstate) {
    memcpy(dstate, ds, sizeof ds);
  }
  return VXC_OK;
}


static void zero_outputs(vxc_wrench *out, double dstate[VXC_STATE_SIZE]) {
  memset(out, 0, sizeof *out);
  if (dstate) {
    memset(dstate, 0, VXC_STATE_SIZE * sizeof dstate[0]);
  }
}


vxc_status vxc_contact_eval(const vxc_params *p, const vxc_contact_geometry *geom,
                            const vxc_body_motion *a, const vxc_body_motion *b,
                            const double state[VXC_STATE_SIZE], vxc_wrench *out,
                            double dstate[VXC_STATE_SIZE], vxc_error *err) {
  static const char *fn = "vxc_contact_eval";
  const void *ptr[] = {p, geom, a, b, state, out};
  static const char *const names[] = {"p", "geom", "a", "b", "state", "out"};
  contact_terms c;
  vxc_status st = check_args(fn, ptr, names, 6, p, a, b, state, 1, err);
  if (st == VXC_OK) {
    st = check_geometry(fn, geom, 1, c.n, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  if (geom->volume == 0) {
    zero_outputs(out, dstate);
    return VXC_OK;
  }
  const double *n = c.n;
  memcpy(c.x, geom->centroid, sizeof c.x);
  vxci_relative_velocity(a, b, c.x, c.v_c);
  for (int i = 0; i < 3; i++) {
    c.w_r[i] = a->w[i] - b->w[i];
  }

  /* normal force with the relaxed volume V_r = V - V_ro (3.44-3.45), never below 0, and
   * the force clamped at 0 once the damping would pull the bodies together */
  double vro = p->tau_r > 0 ? state[VXC_STATE_VRO] : 0.0;
  double v_r = geom->volume - vro;
  if (v_r < 0) {
    v_r = 0;
  }
  double a_d = vxci_damping_factor(p, state);
  double f_n = p->k_v * v_r * (1.0 + a_d * vxg_dot(n, c.v_c));
  c.f_n = f_n > 0 ? f_n : 0.0;
  c.dvro = p->tau_r > 0 ? -state[VXC_STATE_VRO] / p->tau_r : 0.0;

  /* rolling resistance -k_v a J w_t (4.67), with T J w_t: identical when n is an
   * eigenvector of J (J then maps the plane to itself), and still a pure damping torque
   * (w_t . T J w_t >= 0) when the metrics' n is one only to within theta_c */
  double w_n = vxg_dot(n, c.w_r), w_t[3], jw[3];
  for (int i = 0; i < 3; i++) {
    w_t[i] = c.w_r[i] - w_n * n[i];
  }
  const double *J = geom->inertia;
  vxg_mat3_vec(J, w_t, jw);
  double jn = vxg_dot(jw, n);
  for (int i = 0; i < 3; i++) {
    c.tau_roll[i] = -p->k_v * a_d * (jw[i] - jn * n[i]);
  }

  c.r_gyr = vxc_gyration_radius(geom);
  c.contensou = 1;
  return assemble(p, &c, a, b, state, out, dstate, fn, err);
}


vxc_status vxc_point_eval(const vxc_params *p, double depth, const double point[3],
                          const double normal[3], const vxc_body_motion *a,
                          const vxc_body_motion *b, const double state[VXC_STATE_SIZE],
                          vxc_wrench *out, double dstate[VXC_STATE_SIZE], vxc_error *err) {
  static const char *fn = "vxc_point_eval";
  const void *ptr[] = {p, point, normal, a, b, state, out};
  static const char *const names[] = {"p", "point", "normal", "a", "b", "state", "out"};
  contact_terms c;
  vxc_status st = check_args(fn, ptr, names, 7, p, a, b, state, 1, err);
  if (st == VXC_OK) {
    st = check_point(fn, depth, point, normal, c.n, err);
  }
  if (st != VXC_OK) {
    return st;
  }
  if (depth <= 0) {
    zero_outputs(out, dstate);
    return VXC_OK;
  }
  memcpy(c.x, point, sizeof c.x);
  vxci_relative_velocity(a, b, c.x, c.v_c);
  for (int i = 0; i < 3; i++) {
    c.w_r[i] = a->w[i] - b->w[i];
  }

  /* f_n = k_p x_r^p (1 + a xdot) with the relaxed depth x_r = x - x_ro (3.18-3.19,
   * 3.44-3.45); x_ro lives in the V_ro slot */
  double xro = p->tau_r > 0 ? state[VXC_STATE_VRO] : 0.0;
  double x_r = depth - xro;
  double f_n = 0.0;
  if (x_r > 0) {
    f_n = p->k_p * pow(x_r, p->p_exp) * (1.0 + vxci_damping_factor(p, state) * vxg_dot(c.n, c.v_c));
  }
  c.f_n = f_n > 0 ? f_n : 0.0;
  c.dvro = p->tau_r > 0 ? -state[VXC_STATE_VRO] / p->tau_r : 0.0;
  memset(c.tau_roll, 0, sizeof c.tau_roll);
  c.r_gyr = 0.0;
  c.contensou = 0;
  return assemble(p, &c, a, b, state, out, dstate, fn, err);
}
