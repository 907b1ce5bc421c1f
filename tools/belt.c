/* belt.c: the block-on-belt benchmark (belt.h): RK4 at a fixed step, with the stick
 * phases of the set-valued static laws held exactly.
 *
 * Data: the state y = (x, x', z...) with z the law's own state. A static law whose force
 * at zero relative velocity is set-valued (it reports the contact stuck) runs in two
 * modes: STICK, where the block moves with the belt (x' = v_belt exactly) until the force
 * needed to stick, k_s x, leaves the law's bound; and SLIP, plain RK4, where a step over
 * which the relative velocity changes sign is cut at the zero (bisection) and the law
 * asked again whether the contact sticks. Stick phases are the stretches with
 * |v_belt - x'| <= v_tol or in STICK; a phase with a STICK stretch starts and ends where
 * STICK does (the exact break-away and re-stick). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/belt.h"

#define NY (2 + VXC_FRICTION_STATE_MAX)

void belt_default(belt_config *c, vxc_friction_law law) {
  memset(c, 0, sizeof *c);
  c->law = law;
  vxc_friction_params_default(&c->fp);
  c->m = BELT_M;
  c->k_s = BELT_K_S;
  c->v_belt = BELT_V_BELT;
  c->g = BELT_G;
  c->duration = BELT_DURATION;
  c->h = BELT_STEP;
  c->v_tol = BELT_V_TOL;
  c->min_stick = BELT_MIN_STICK;
  c->record = BELT_RECORD;
}


vxc_status belt_set(belt_config *c, const char *name, double value, vxc_error *err) {
  static const char *const names[] = {"m", "k_s", "v_belt", "g", "v_tol", "min_stick"};
  double *slots[] = {&c->m, &c->k_s, &c->v_belt, &c->g, &c->v_tol, &c->min_stick};
  const int n = (int)(sizeof names / sizeof names[0]);
  for (int i = 0; i < n; i++) {
    if (strcmp(name, names[i]) == 0) {
      *slots[i] = value;
      return VXC_OK;
    }
  }
  vxc_status st = vxc_friction_param_set(&c->fp, name, value, err);
  const char *near = st == VXC_ERR_ARG ? vxc_nearest_name(name, names, n) : NULL;
  if (near && err) { /* nearer one of the benchmark's own names than none */
    snprintf(err->message, sizeof err->message, "unknown parameter '%.200s'; did you mean '%s'?",
             name, near);
  }
  return st;
}


/* The friction force on the block and, for a static law, whether it holds the block.
 * dir = +-1 is the direction of a slip under way: a relative velocity on the other side
 * of zero is taken as just past zero on this side, so that a slip phase is one smooth
 * vector field and its end is a zero of the relative velocity, not a chatter. */
static vxc_status friction(const belt_config *c, const double *y, int dir, double *f, double *dz,
                           int *stuck) {
  double v[3] = {c->v_belt - y[1], 0, 0}, fe[3] = {c->k_s * y[0], 0, 0}, F[3];
  if (dir != 0 && v[0] * dir <= 0) {
    v[0] = dir * DBL_MIN;
  }
  double f_n = c->m * c->g;
  vxc_status st;
  *stuck = 0;
  if (vxc_friction_state_size(c->law) == 0) {
    st = vxc_friction_static(c->law, &c->fp, v, f_n, fe, F, stuck, NULL);
  } else {
    st = vxc_friction_eval(c->law, &c->fp, v, f_n, y + 2, F, dz, NULL);
  }
  *f = F[0];
  return st;
}


static vxc_status deriv(const belt_config *c, const double *y, int dir, double *dy) {
  double f;
  int stuck;
  vxc_status st = friction(c, y, dir, &f, dy + 2, &stuck);
  dy[0] = y[1];
  dy[1] = (f - c->k_s * y[0]) / c->m;
  return st;
}


static vxc_status rk4(const belt_config *c, int n, const double *y, int dir, double h,
                      double *out) {
  double k[4][NY], t[NY];
  static const double a[4] = {0, 0.5, 0.5, 1};
  vxc_status st = VXC_OK;
  for (int s = 0; s < 4 && st == VXC_OK; s++) {
    for (int i = 0; i < n; i++) {
      t[i] = y[i] + (s ? a[s] * h * k[s - 1][i] : 0.0);
    }
    st = deriv(c, t, dir, k[s]);
  }
  for (int i = 0; i < n; i++) {
    out[i] = y[i] + h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
  }
  return st;
}


/* The run's bookkeeping: stick phases, maxima of x, the peak force. */
typedef struct tally {
  const belt_config *c;
  belt_result *r;
  int in_phase, phases;
  double start, last_t, last_x;
  double mode_start, mode_t, mode_x; /* the phase's held stretch (NAN: none) */
  double prev_t, prev_v;             /* the previous step end, for the maxima of x */
  double max_t[2];
  int nmax;
} tally;


/* A stick phase ended at tl (ended = 0: the run ended inside it). */
static void phase_close(tally *k, int ended) {
  k->in_phase = 0;
  if (!isnan(k->mode_start)) { /* held exactly: its ends are the switches of mode */
    k->start = k->mode_start, k->last_t = k->mode_t, k->last_x = k->mode_x;
  }
  if (k->last_t - k->start < k->c->min_stick) {
    return;
  }
  if (++k->phases == 2) {
    k->r->restick_t = k->start;
  }
  if (ended && ++k->r->breakaways == 1) {
    k->r->breakaway_t = k->last_t;
    k->r->breakaway_x = k->last_x;
  }
}


static void tally_step(tally *k, double t, const double *y, double f, int stuck, int held) {
  if (stuck || held) {
    if (!k->in_phase) {
      k->in_phase = 1;
      k->start = t;
      k->mode_start = NAN;
    }
    if (held && isnan(k->mode_start)) {
      k->mode_start = t;
    }
    if (held) {
      k->mode_t = t, k->mode_x = y[0];
    }
    k->last_t = t;
    k->last_x = y[0];
  } else if (k->in_phase) {
    phase_close(k, 1);
  }
  if (k->prev_v > 0 && y[1] <= 0) { /* a maximum of x, interpolated */
    double tm = k->prev_t + (t - k->prev_t) * k->prev_v / (k->prev_v - y[1]);
    k->max_t[0] = k->max_t[1];
    k->max_t[1] = tm;
    k->nmax++;
  }
  k->prev_t = t;
  k->prev_v = y[1];
  if (fabs(f) > k->r->peak_force) {
    k->r->peak_force = fabs(f);
  }
}


/* Fills err (may be NULL) with status st and the message; returns st. */
static vxc_status fail(vxc_error *err, vxc_status st, const char *what, double value) {
  if (err) {
    memset(err, 0, sizeof *err);
    err->status = st;
    snprintf(err->message, sizeof err->message, "belt: %s (got %g)", what, value);
  }
  return st;
}


static vxc_status check_config(const belt_config *c, vxc_error *err) {
  if (!vxc_friction_law_name(c->law)) {
    return fail(err, VXC_ERR_ARG, "no such friction law", (double)c->law);
  }
  const struct {
    const char *what;
    double v;
  } pos[] = {{"m must be finite and > 0", c->m},
             {"k_s must be finite and > 0", c->k_s},
             {"g must be finite and > 0", c->g},
             {"v_belt must be finite and > 0", c->v_belt},
             {"the duration must be finite and > 0", c->duration},
             {"the step must be finite and > 0", c->h},
             {"v_tol must be finite and > 0", c->v_tol},
             {"the record interval must be finite and > 0", c->record},
             {"min_stick must be finite and >= 0", c->min_stick + 1}};
  for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
    if (!(pos[i].v > 0 && isfinite(pos[i].v))) {
      return fail(err, VXC_ERR_ARG, pos[i].what, pos[i].v);
    }
  }
  if (c->duration / c->h > 1e9) {
    return fail(err, VXC_ERR_ARG, "duration / step must be at most 1e9 steps", c->duration / c->h);
  }
  return vxc_friction_params_check(&c->fp, err);
}


/* Whether a static law holds the block in state y. */
static int holds(const belt_config *c, const double *y) {
  double f, dz[VXC_FRICTION_STATE_MAX];
  int stuck;
  return friction(c, y, 0, &f, dz, &stuck) == VXC_OK && stuck;
}


/* One STICK step from y over at most h: the block moves with the belt; a step at whose end
 * the law no longer holds it is cut where that happens (bisection), so the break-away is
 * timed to rounding, not to the step. Returns the step taken. */
static double stick_step(const belt_config *c, double *y, double h) {
  double ye[NY];
  memcpy(ye, y, sizeof ye);
  ye[0] = y[0] + c->v_belt * h;
  if (!holds(c, ye)) {
    double lo = 0, hi = h;
    for (int it = 0; it < 60; it++) {
      double mid = 0.5 * (lo + hi);
      ye[0] = y[0] + c->v_belt * mid;
      *(holds(c, ye) ? &lo : &hi) = mid;
    }
    h = hi;
  }
  y[0] += c->v_belt * h;
  return h;
}


/* One SLIP step of a static law from y over at most h: cut at a zero of the relative
 * velocity, where the block sticks if the law holds it. Returns the step taken. */
static double slip_step(const belt_config *c, double *y, double h, int *mode, vxc_status *st) {
  double y1[NY], v0 = c->v_belt - y[1];
  int dir = v0 > 0 || (v0 == 0 && y[0] > 0) ? 1 : -1; /* from rest: F_e = k_s x wins */
  *st = rk4(c, 2, y, dir, h, y1);
  double v1 = c->v_belt - y1[1];
  if (*st == VXC_OK && v1 * dir <= 0) {
    double lo = 0, hi = h;
    for (int it = 0; it < 60 && *st == VXC_OK; it++) {
      double mid = 0.5 * (lo + hi), ym[NY];
      *st = rk4(c, 2, y, dir, mid, ym);
      if ((c->v_belt - ym[1]) * dir > 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    h = hi;
    *st = rk4(c, 2, y, dir, h, y1);
    y1[1] = c->v_belt;
  }
  memcpy(y, y1, sizeof y1);
  if (holds(c, y)) {
    y[1] = c->v_belt;
    *mode = 1;
  }
  return h;
}


vxc_status belt_run(const belt_config *c, belt_result *r, belt_sample sample, void *ud,
                    vxc_error *err) {
  vxc_status st = check_config(c, err);
  if (st != VXC_OK) {
    return st;
  }
  int ns = vxc_friction_state_size(c->law), n = 2 + ns;
  double y[NY] = {0, c->v_belt, 0, 0, 0, 0};
  if (ns > 0) {
    vxc_friction_init(c->law, y + 2, NULL);
  }
  double probe[NY] = {1e-12 / c->k_s, c->v_belt, 0, 0, 0, 0};
  int exact = ns == 0 && holds(c, probe); /* a set-valued law: stick phases held exactly */
  int mode = exact && holds(c, y);        /* 1: STICK */
  belt_result res = {NAN, NAN, NAN, NAN, 0, 0, 0};
  tally k = {c, &res, 0, 0, 0, 0, 0, NAN, 0, 0, 0, c->v_belt, {NAN, NAN}, 0};
  double t = 0, next = 0, f = 0;
  int stuck = fabs(c->v_belt - y[1]) <= c->v_tol;
  while (st == VXC_OK) {
    double dz[VXC_FRICTION_STATE_MAX];
    int hold;
    st = friction(c, y, 0, &f, dz, &hold);
    tally_step(&k, t, y, f, stuck, mode);
    if (st == VXC_OK && sample && t >= next - 1e-9 * c->h) {
      if (sample(ud, t, y[0], y[1], c->v_belt - y[1], f)) {
        st = VXC_ERR_IO;
        break;
      }
      next += c->record;
    }
    if (st != VXC_OK || t >= c->duration - 1e-9 * c->h) {
      break;
    }
    double h = fmin(c->h, c->duration - t);
    if (mode && !holds(c, y)) {
      mode = 0; /* break-away: the force needed to stick left the law's bound */
    }
    if (mode) {
      h = stick_step(c, y, h);
    } else if (ns == 0) {
      h = slip_step(c, y, h, &mode, &st);
    } else {
      double y1[NY];
      st = rk4(c, n, y, 0, h, y1);
      memcpy(y, y1, sizeof y1);
      double v[3] = {c->v_belt - y[1], 0, 0};
      vxc_friction_project(c->law, &c->fp, v, c->m * c->g, y + 2, NULL);
    }
    t += h;
    stuck = fabs(c->v_belt - y[1]) <= c->v_tol;
    for (int i = 0; i < n && st == VXC_OK; i++) {
      if (!isfinite(y[i])) {
        st = VXC_ERR_NUMERIC;
      }
    }
  }
  if (st == VXC_ERR_NUMERIC) {
    fail(err, st, "the state became non-finite at t (s)", t);
  }
  if (k.in_phase) {
    phase_close(&k, 0);
  }
  res.stick_slip = res.breakaways >= 2;
  if (k.nmax >= 2) {
    res.period = k.max_t[1] - k.max_t[0];
  }
  *r = res;
  return st;
}
