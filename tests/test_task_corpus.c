/* test_task_corpus.c: seeded random bodies set down on a table by `vxc_task_run`, every
 * family of shape (a ball, an ellipsoid on its shortest axis, a box on a face, a cylinder
 * standing and lying, a torus lying flat), sized from 1 cm to 20 cm, turned about the
 * vertical at random (a third of them axis-aligned) and tilted up to 1.5 degrees, dropped
 * from one rest depth above their rest, with or without the closed forms. None is a bundled
 * scenario. After settling, each must rest as statics says, which no part of the engine
 * assumes:
 *  - the run completes, no query capped, the energy balance kept;
 *  - the normal force carries the weight (within 1%);
 *  - the contact's torque about the centre of mass vanishes (the force acts below it);
 *  - the depth of the rest is that of the closed-form interference volume m g / k_v of the
 *    shape's cap, segment, slab or ring at that depth (within 2% of the depth). */
#include "tests/vxc_test.h"

#include <unistd.h>

#include "lib/vxc.h"

enum { BALL, ELLIPSOID, BOX, STANDING, LYING, TORUS, NFAMILY };

static const char *const FAMILY[NFAMILY] = {"ball",     "ellipsoid", "box",
                                            "standing", "lying",     "torus"};

typedef struct body {
  int family;
  double a[3];     /* the shape's dimensions, m (see shape_text) */
  double mass;     /* kg */
  double inertia[3];
  double height;   /* the centre's height over the base when the body touches, m */
  double depth;    /* the rest's depth from statics, m */
} body;

/* Area of the segment of depth d of a disc of radius r, m^2. */
static double segment(double r, double d) {
  return r * r * acos((r - d) / r) - (r - d) * sqrt(d * (2 * r - d));
}

/* The interference volume of the body sunk by d into the table, m^3. */
static double sunk_volume(const body *b, double d) {
  switch (b->family) {
    case BALL:
      return vxc_test_cap_volume(b->a[0], d);
    case ELLIPSOID: /* the cap of height d of the semi-axis c, cut across it */
      return M_PI * b->a[0] * b->a[1] * d * d * (3 * b->a[2] - d) / (3 * b->a[2] * b->a[2]);
    case BOX:
      return b->a[0] * b->a[1] * d;
    case STANDING:
      return M_PI * b->a[0] * b->a[0] * d;
    case LYING:
      return b->a[1] * segment(b->a[0], d);
    default: /* a ring of the tube's segments about the axis (Pappus: centroid at R) */
      return 2 * M_PI * b->a[0] * segment(b->a[1], d);
  }
}

/* The depth at which the interference volume is v (bisection on the increasing volume). */
static double depth_for(const body *b, double v) {
  double lo = 0, hi = b->height;
  for (int k = 0; k < 200; k++) {
    double mid = 0.5 * (lo + hi);
    if (sunk_volume(b, mid) < v) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

/* A body of the family, its size s (m) and density rho (kg/m^3): dimensions, mass,
 * principal inertia about the centre (model axes) in closed form. */
static void make_body(vxc_rng *r, int family, double s, double rho, body *b) {
  memset(b, 0, sizeof *b);
  b->family = family;
  double v = 0;
  double *a = b->a, *I = b->inertia;
  switch (family) {
    case BALL:
      a[0] = s / 2;
      v = 4.0 / 3.0 * M_PI * a[0] * a[0] * a[0];
      b->mass = rho * v;
      I[0] = I[1] = I[2] = 0.4 * b->mass * a[0] * a[0];
      b->height = a[0];
      break;
    case ELLIPSOID:
      a[0] = s / 2;
      a[1] = a[0] * vxc_rng_uniform(r, 0.6, 1.0);
      a[2] = a[1] * vxc_rng_uniform(r, 0.4, 0.8); /* c, vertical, the shortest */
      v = 4.0 / 3.0 * M_PI * a[0] * a[1] * a[2];
      b->mass = rho * v;
      I[0] = b->mass * (a[1] * a[1] + a[2] * a[2]) / 5;
      I[1] = b->mass * (a[0] * a[0] + a[2] * a[2]) / 5;
      I[2] = b->mass * (a[0] * a[0] + a[1] * a[1]) / 5;
      b->height = a[2];
      break;
    case BOX:
      a[0] = s;
      a[1] = s * vxc_rng_uniform(r, 0.5, 1.0);
      a[2] = s * vxc_rng_uniform(r, 0.2, 0.6); /* height */
      b->mass = rho * a[0] * a[1] * a[2];
      I[0] = b->mass * (a[1] * a[1] + a[2] * a[2]) / 12;
      I[1] = b->mass * (a[0] * a[0] + a[2] * a[2]) / 12;
      I[2] = b->mass * (a[0] * a[0] + a[1] * a[1]) / 12;
      b->height = a[2] / 2;
      break;
    case STANDING:
    case LYING:
      a[0] = s / 2;                               /* radius */
      a[1] = s * vxc_rng_uniform(r, 0.3, 1.5);    /* length, along the model's z */
      b->mass = rho * M_PI * a[0] * a[0] * a[1];
      I[0] = I[1] = b->mass * (3 * a[0] * a[0] + a[1] * a[1]) / 12;
      I[2] = b->mass * a[0] * a[0] / 2;
      b->height = family == STANDING ? a[1] / 2 : a[0];
      break;
    default:
      a[0] = s / 2;                               /* R, the axis vertical */
      a[1] = a[0] * vxc_rng_uniform(r, 0.15, 0.5); /* r */
      b->mass = rho * 2 * M_PI * M_PI * a[0] * a[1] * a[1];
      I[0] = I[1] = b->mass * (a[0] * a[0] / 2 + 5.0 / 8.0 * a[1] * a[1]);
      I[2] = b->mass * (a[0] * a[0] + 0.75 * a[1] * a[1]);
      b->height = a[1];
      break;
  }
}

/* The model text of the body. */
static void shape_text(const body *b, char *out, size_t n) {
  const double *a = b->a;
  switch (b->family) {
    case BALL:
      snprintf(out, n, "(solid s (cell c (sphere %.17g)))", a[0]);
      break;
    case ELLIPSOID:
      snprintf(out, n, "(solid s (cell c (ellipsoid %.17g %.17g %.17g)))", a[0], a[1], a[2]);
      break;
    case BOX:
      snprintf(out, n, "(solid s (cell c (box %.17g %.17g %.17g)))", a[0], a[1], a[2]);
      break;
    case STANDING:
    case LYING:
      snprintf(out, n, "(solid s (cell c (cylinder %.17g) (slab z %.17g %.17g)))", a[0],
               -a[1] / 2, a[1] / 2);
      break;
    default:
      snprintf(out, n, "(solid s (cell c (torus %.17g %.17g)))", a[0], a[1]);
      break;
  }
}

/* q = a b (quaternions w x y z). */
static void qmul(const double a[4], const double b[4], double q[4]) {
  q[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  q[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  q[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  q[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

static void axis_quat(const double ax[3], double angle, double q[4]) {
  double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
  q[0] = cos(angle / 2);
  for (int k = 0; k < 3; k++) {
    q[1 + k] = sin(angle / 2) * ax[k] / n;
  }
}

/* Case i of the corpus: the body, the task's text (the table's top at z = 0). */
static void make_case(int i, body *b, double *k_v, char *task, size_t n, int *closed) {
  vxc_rng r = {0x5eed0000ULL + 7919ULL * (uint64_t)(i + 1)};
  for (int k = 0; k < 4; k++) {
    vxc_rng_uniform(&r, 0, 1);
  }
  int family = i % NFAMILY;
  double s = exp(vxc_rng_uniform(&r, log(0.01), log(0.2)));
  make_body(&r, family, s, vxc_rng_uniform(&r, 500, 8000), b);
  /* stiff enough that the rest sinks about 1e-3 of the height */
  double d0 = 1e-3 * b->height * vxc_rng_uniform(&r, 0.5, 2);
  *k_v = b->mass * 9.81 / sunk_volume(b, d0);
  b->depth = depth_for(b, b->mass * 9.81 / *k_v);
  int aligned = i % 3 == 0;
  double up[3] = {0, 0, 1}, q0[4] = {1, 0, 0, 0}, qy[4], qt[4], q1[4], q[4];
  if (family == LYING) {
    double ax[3] = {1, 0, 0};
    axis_quat(ax, M_PI / 2, q0); /* the axis along y */
  }
  axis_quat(up, aligned ? M_PI / 2 * (double)(i % 4) : vxc_rng_uniform(&r, 0, 2 * M_PI), qy);
  int flat = family == BOX || family == STANDING;
  double tilt = flat && !aligned ? vxc_rng_uniform(&r, 0, 1.5) * M_PI / 180 : 0;
  double tax[3] = {vxc_rng_uniform(&r, -1, 1), vxc_rng_uniform(&r, -1, 1), 0};
  axis_quat(tax, tilt, qt);
  qmul(qy, q0, q1);
  qmul(qt, q1, q);
  /* released one rest depth above the rest (a tilted flat base: its lowest corner there); a
     torus, whose ring of contact costs thousands of leaves a query, at its rest for 50 ms */
  double lift = flat ? (family == BOX ? hypot(b->a[0], b->a[1]) / 2 : b->a[0]) * sin(tilt) : 0;
  double z = b->height - (family == TORUS ? b->depth : 0) + lift;
  double duration = family == TORUS ? 0.05 : 0.3;
  *closed = (i / NFAMILY) % 2 == 0;
  /* the damping of small motions about the rest, k_v a V_rest, about critical: a = d / (e_eff
     v_small) near 2 / sqrt(g depth) with d(0.5) = 0.28 (a slower rest creeps, a faster rings) */
  double m = b->mass, mu = 0.5, sigma0 = 20 * m * 9.81 / (1e-3 * b->height);
  double v_small = 0.28 / 0.5 * sqrt(9.81 * b->depth) / 2;
  snprintf(task, n,
           "(task t%d (gravity 0 0 -9.81) (duration %g) (initial-overlap allow)\n"
           "  (integrator adaptive (method auto) (rtol 1e-6) (atol 1e-9) (max-step 2e-3))\n"
           "  (record (every 0.01))\n"
           "  (body table (model \"table.vxm\") (fixed) (pose 0 0 0))\n"
           "  (body s (model \"s.vxm\") (free (mass %.17g) (inertia %.17g %.17g %.17g))\n"
           "    (pose 0 0 %.17g %.17g %.17g %.17g %.17g))\n"
           "  (contact table s (params (k_v %.17g) (e_eff 0.5) (v_small %.17g) (tau_r 0)\n"
           "    (mu_s %g) (mu_c %g) (sigma0 %.17g) (sigma1 %.17g) (sigma2 0) (v_s 1e-3)\n"
           "    (tau_dw 0.01) (v_e 1e-5)) (rtol 1e-3) (closed-form %s)))\n",
           i, duration, m, b->inertia[0], b->inertia[1], b->inertia[2], z, q[0], q[1], q[2], q[3],
           *k_v, v_small, mu,
           0.8 * mu, sigma0, 2 * sqrt(sigma0 * m), *closed ? "on" : "off");
}

typedef struct last {
  vxc_task_body_state body;
  vxc_task_contact_state contact;
} last;

static int keep_last(void *ud, const vxc_task_record *rec) {
  last *l = ud;
  if (rec->nbody == 2 && rec->ncontact == 1) {
    l->body = rec->body[1];
    l->contact = rec->contact[0];
  }
  return 0;
}

static void test_rest(void **state) {
  (void)state;
  char dir[] = "/tmp/vxc-task-corpus-XXXXXX";
  assert_non_null(mkdtemp(dir));
  vxc_test_write(dir, "table.vxm", "(solid table (cell top (box 1 1 0.04) (pose (translate 0 0 -0.02))))");
  int ncase = 2 * NFAMILY;
  for (int i = 0; i < ncase; i++) {
    body b;
    double k_v;
    int closed;
    char task[4096], model[512];
    make_case(i, &b, &k_v, task, sizeof task, &closed);
    shape_text(&b, model, sizeof model);
    vxc_test_write(dir, "s.vxm", model);
    vxc_task *t = NULL;
    vxc_error err;
    vxc_status st = vxc_task_parse(task, strlen(task), "corpus", dir, NULL, &t, &err);
    if (st != VXC_OK) {
      fprintf(stderr, "# %s\n", err.message);
    }
    assert_int_equal(st, VXC_OK);
    last l;
    memset(&l, 0, sizeof l);
    vxc_task_summary sum;
    st = vxc_task_run(t, keep_last, NULL, &l, &sum, &err);
    double w = b.mass * 9.81;
    /* the torque about the centre of mass of the table's reaction: -(tau_A + (O_A - c) x F_A) */
    const double *F = l.contact.force_a, *T = l.contact.torque_a, *c = l.body.pose;
    double tc[3] = {-(T[0] + (-c[1] * F[2] + c[2] * F[1])), -(T[1] + (-c[2] * F[0] + c[0] * F[2])),
                    -(T[2] + (-c[0] * F[1] + c[1] * F[0]))};
    double depth = b.height - c[2];
    fprintf(stderr,
            "# %2d %-9s %s s %.3g m, m %.3g kg, k_v %.3g: %lld queries (%lld capped), %.2f s "
            "wall; f_n/mg %.5f, |torque|/(mg s) %.2e, depth %.4g (statics %.4g)\n",
            i, FAMILY[b.family], closed ? "closed-form" : "octree     ", 2 * b.height, b.mass, k_v,
            sum.queries, sum.capped_queries, sum.wall_s, l.contact.f_n / w,
            sqrt(tc[0] * tc[0] + tc[1] * tc[1] + tc[2] * tc[2]) / (w * b.height), depth,
            b.depth);
    if (st != VXC_OK) {
      fprintf(stderr, "# %s\n", err.message);
    }
    assert_int_equal(st, VXC_OK);
    assert_int_equal(sum.completed, 1);
    assert_int_equal(sum.capped_queries, 0);
    assert_int_equal(sum.energy_failed, 0);
    assert_double_near(l.contact.f_n, w, 0.01 * w);
    assert_double_near(sqrt(tc[0] * tc[0] + tc[1] * tc[1] + tc[2] * tc[2]), 0,
                       1e-3 * w * b.height);
    assert_double_near(depth, b.depth, 0.02 * b.depth);
    vxc_task_free(t);
  }
  assert_int_equal(vxc_test_rmtree(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rest),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
