/* task_internal.h: the task object shared by lib/task_read.c (reading) and lib/task_run.c
 * (running).
 *
 * Data: a task owns its bodies (each with its loaded solid), its contacts (body pairs with
 * prepared parameters and query options) and the result arrays that records and the
 * summary point into. Invariants after a successful parse: every body has a solid; a
 * free body (or a driven body with a gripper) has mass > 0, a symmetric positive inertia
 * about its centre of mass (model frame) and a centre of mass `com` (model frame);
 * keyframes are in increasing time with unit quaternions; every contact names two
 * different bodies, not both fixed (a contact between two kinematic bodies is measured and
 * reported, moving neither), and its params are prepared. */
#ifndef VXC_TASK_INTERNAL_H
#define VXC_TASK_INTERNAL_H

#include "lib/vxc.h"

enum { TASK_FIXED = 0, TASK_FREE = 1, TASK_DRIVEN = 2 };
enum { TASK_RK4 = 0, TASK_ADAPTIVE = 1 };
/* the adaptive integrator's embedded pair (task_run.c, PAIRS) */
enum { TASK_DP5 = 0, TASK_BS3 = 1, TASK_ROSW = 2, TASK_AUTO = 3 };

typedef struct task_keyframe {
  double t;
  double p[3];
  double q[4];
} task_keyframe;

typedef struct task_body {
  char *name;
  char *model; /* resolved model path */
  vxc_solid *solid;
  int kind;         /* TASK_* */
  int line, column; /* of the body form */
  vxc_pose pose0;   /* initial pose of the model-frame origin */
  double vel0[6];   /* initial velocity of the origin (world), angular velocity */
  /* mass properties (free bodies and gripped payloads) */
  int dynamic;       /* 1: integrated (free, or driven through a gripper) */
  double mass;       /* kg */
  double inertia[9]; /* about the centre of mass, model axes, kg m^2 */
  double com[3];     /* centre of mass, model frame, m */
  int have_mass, have_inertia, have_com;
  double density; /* (density RHO) given instead of a mass, kg/m^3; 0: none */
  /* driven motion */
  int nkey;
  task_keyframe *key;
  int have_line; /* (line VX VY VZ [WX WY WZ]) from the initial pose */
  double line_v[6];
  int gripper; /* 1: a spring-damper between the trajectory and the payload */
  double grip_k, grip_c, grip_kr, grip_cr; /* N/m, N s/m, N m/rad, N m s/rad */
} task_body;

typedef struct task_contact {
  int a, b;
  vxc_params params;
  vxc_query_options query;
  int slots;          /* tracker capacity */
  double event_force; /* a new cell pair's k_v V at which its first contact is accepted, N */
} task_contact;

struct vxc_task {
  vxc_allocator al;
  char *name;
  double gravity[3];
  double duration;
  int integrator; /* TASK_* */
  int method;     /* adaptive: TASK_DP5, TASK_BS3, TASK_ROSW or TASK_AUTO (task_rosw.c) */
  double step;    /* rk4: the step; adaptive: the first step, s */
  double rtol, atol, max_step;
  double every;                     /* record interval, s (0: every step) */
  int allow_overlap;                /* (initial-overlap allow): bodies may overlap at t = 0 */
  long long max_steps, max_records; /* run bounds (vxc_task_set_limits) */
  vxc_task_poll_fn poll;            /* stop request, after every step (vxc_task_set_poll) */
  const volatile sig_atomic_t *stop; /* stop request, inside queries too (vxc_task_set_stop) */
  void *poll_ud;
  double energy_tol; /* (energy-tolerance R): largest |energy error| / energy scale */
  int nbody, ncontact;
  task_body *body;
  task_contact *contact;
  /* results (task_run.c) */
  vxc_task_body_state *rec_body;
  vxc_task_contact_state *rec_contact;
  vxc_task_contact_summary *sum_contact;
};

/* Allocation through the task's allocator. */
void *vxci_task_alloc(const vxc_task *t, size_t size);
void vxci_task_free_mem(const vxc_task *t, void *p);

#endif /* VXC_TASK_INTERNAL_H */
