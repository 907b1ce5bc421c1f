/* belt.h: the block-on-belt friction benchmark of Marques, "Frictional Contacts in
 * Multibody Dynamics", section 3.4 (`vxc belt`): a block of mass m on a belt moving at
 * v_belt, held by a spring k_s to a fixed point, m x'' + k_s x = F(v_belt - x'), starting
 * at x = 0 at rest relative to the belt, for any law of the friction-law library. */
#ifndef VXC_TOOLS_BELT_H
#define VXC_TOOLS_BELT_H

#include "lib/vxc.h"

/* The defaults (Marques's table 3.1, and how a stick phase is told), written once for
 * belt_default and the help of `vxc belt` (BELT_STR spells a default as written here). */
#define BELT_M 1            /* block mass, kg */
#define BELT_K_S 2          /* spring stiffness, N/m */
#define BELT_V_BELT 0.1     /* belt speed, m/s */
#define BELT_G 9.81         /* gravity, m/s^2 */
#define BELT_DURATION 20    /* simulated time, s */
#define BELT_STEP 5e-5      /* RK4 step, s */
#define BELT_V_TOL 1e-4     /* a smooth law is stuck below this relative speed, m/s */
#define BELT_MIN_STICK 0.1  /* the shortest stick phase that counts, s */
#define BELT_RECORD 1e-3    /* sampling interval of the series, s */
#define BELT_STR_(x) #x
#define BELT_STR(x) BELT_STR_(x)

/* The benchmark's settings (table 3.1 by default) and the friction law. */
typedef struct belt_config {
  vxc_friction_law law;
  vxc_friction_params fp; /* table 3.2 by default */
  double m;               /* block mass, kg (1) */
  double k_s;             /* spring stiffness, N/m (2) */
  double v_belt;          /* belt speed, m/s (0.1) */
  double g;               /* gravity, m/s^2 (9.81): the normal force is m g */
  double duration;        /* s (20) */
  double h;               /* RK4 step, s (5e-5) */
  double v_tol;           /* relative speed below which a smooth law counts as stuck, m/s
                             (1e-4: 0.1 % of the belt speed) */
  double min_stick;       /* shortest stick phase that counts, s (0.1: a grazing orbit,
                             which touches zero relative speed, is no stick phase) */
  double record;          /* sampling interval of the series, s (1e-3) */
} belt_config;

/* What a run measured. Times in s, x in m, forces in N; NAN when it did not happen. */
typedef struct belt_result {
  double breakaway_t, breakaway_x; /* end of the first stick phase */
  double restick_t;                /* start of the second stick phase */
  double period;                   /* the last interval between maxima of x */
  double peak_force;               /* largest |F| at the step ends */
  int breakaways;                  /* stick phases that ended (counted ones) */
  int stick_slip;                  /* 1 when at least two stick phases ended */
} belt_result;

/* Fills c with the tables' values for `law`. */
void belt_default(belt_config *c, vxc_friction_law law);

/* Sets a benchmark setting (m, k_s, v_belt, g, v_tol, min_stick) or else a friction
 * parameter by name. Returns VXC_OK or VXC_ERR_ARG naming the unknown name, with the
 * nearest known one. Values are checked by belt_run. */
vxc_status belt_set(belt_config *c, const char *name, double value, vxc_error *err);

/* One recorded sample: time, block position and velocity, relative velocity, friction
 * force on the block (s, m, m/s, m/s, N). Return non-zero to stop the run (an output
 * error). */
typedef int (*belt_sample)(void *ud, double t, double x, double v, double v_rel, double f);

/* Runs the benchmark, calling `sample` (may be NULL) every c->record seconds and at the
 * start. Returns VXC_OK, VXC_ERR_ARG (bad settings, with a message), VXC_ERR_NUMERIC
 * (the state became non-finite: the message gives the time) or VXC_ERR_IO (`sample`
 * asked to stop). */
vxc_status belt_run(const belt_config *c, belt_result *r, belt_sample sample, void *ud,
                    vxc_error *err);

#endif /* VXC_TOOLS_BELT_H */
