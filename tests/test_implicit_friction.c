/* test_implicit_friction.c: vxc_implicit_step's sticking and sliding friction against statics
 * and Coulomb's law, at a 2 ms step with the gripper's contact parameters
 * (data/gripper-peg-in-hole.params: a bristle stiffness sigma0 f_n near 3e7 N/m, omega h
 * about 20 on a 1 kg box):
 * - a 1 kg, 40 mm box squeezed between two pads 0.6 mm deep (f_n near 290 N each) and lifted
 *   by them (held, then accelerated at a = 2 m/s^2, then at constant speed) sticks: each pad's
 *   friction is half of m (g + a) within 1%, never above mu_s f_n, the box slips on the pads
 *   by less than the bristle's sticking deflection mu_s / sigma0 (the largest a sticking
 *   bristle holds: 2 um), no record slides and the box never moves sideways (with the
 *   linearised bristle alone, issue 32's MuJoCo run of this lift swung +-0.09 m/s along x,
 *   the pads' friction flipping between +-mu_c f_n every step);
 * - the same box pushed across a table at 0.5 m/s decelerates at mu_c g within 1% until it
 *   stops, then stays. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#define H 2e-3     /* the step, s */
#define M 1.0      /* the box's mass, kg */
#define G 9.81     /* gravity, m/s^2 */
#define S 0.02     /* the box's half size, m */
#define INERTIA (M * (2 * S) * (2 * S) / 6)

static const double Z[3] = {0, 0, 0};

/* The gripper scene's contact parameters. */
static vxc_params gripper_params(void) {
  vxc_params p;
  vxc_params_default(&p);
  p.k_v = 1e9;
  p.e_eff = 0.5;
  p.v_small = 1e-3;
  p.tau_r = 0;
  p.mu_s = 0.2;
  p.mu_c = 0.15;
  p.sigma0 = 1e5;
  p.sigma1 = 316.2278;
  p.sigma2 = 0;
  p.v_s = 1e-3;
  p.tau_dw = 0.01;
  p.v_e = 1e-5;
  assert_int_equal(vxc_params_prepare(&p, NULL), VXC_OK);
  return p;
}


/* The 40 mm box. */
static vxc_solid *box_solid(void) {
  static const char text[] = "(solid box (density 1000) (cell b (box 0.04 0.04 0.04)))";
  vxc_solid *s = NULL;
  assert_int_equal(vxc_solid_parse(text, strlen(text), "box", NULL, &s, NULL), VXC_OK);
  return s;
}


/* A driven body (A of its pair) and the free box (B of every pair). */
typedef struct scene {
  int n;                /* pairs */
  vxc_pair *pair[2];
  vxc_pose pa[2];       /* the driven bodies' poses */
  double va[2][3];      /* and velocities */
  vxc_pose box;
  double v[3], w[3];    /* the box's twist about its centre */
  vxc_implicit_pair pp[2];
  vxc_pair_jacobian J[2];
} scene;


static vxc_body_motion motion(const vxc_pose *p, const double v[3], const double w[3]) {
  vxc_body_motion m;
  assert_int_equal(vxc_body_motion_from_pose(p, NULL, NULL, v, w, &m, NULL), VXC_OK);
  return m;
}


/* q turned by the world rotation vector r. */
static void turn(double q[4], const double r[3]) {
  double a = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]), s = a > 0 ? sin(a / 2) / a : 0.5;
  double d[4] = {cos(a / 2), s * r[0], s * r[1], s * r[2]}, o[4];
  o[0] = d[0] * q[0] - d[1] * q[1] - d[2] * q[2] - d[3] * q[3];
  o[1] = d[0] * q[1] + d[1] * q[0] + d[2] * q[3] - d[3] * q[2];
  o[2] = d[0] * q[2] - d[1] * q[3] + d[2] * q[0] + d[3] * q[1];
  o[3] = d[0] * q[3] + d[1] * q[2] - d[2] * q[1] + d[3] * q[0];
  memcpy(q, o, sizeof o);
}


/* One step: the driven bodies take their velocities va_end over the step (semi-implicit
 * Euler, as the box); the pairs at the step's start, the implicit step, the bodies moved, the
 * states advanced. */
static void step(scene *sc, double va_end[][3]) {
  memcpy(sc->va, va_end, (size_t)sc->n * sizeof *sc->va);
  double minv[36] = {0}, afree[6] = {0, 0, -G, 0, 0, 0}, wb[6], dt[6];
  for (int i = 0; i < 3; i++) {
    minv[7 * i] = 1 / M;
    minv[7 * (3 + i)] = 1 / INERTIA;
  }
  vxc_body_motion mb = motion(&sc->box, sc->v, sc->w);
  for (int k = 0; k < sc->n; k++) {
    vxc_body_motion ma = motion(&sc->pa[k], sc->va[k], Z);
    vxc_pair_wrench w;
    assert_int_equal(vxc_pair_step(sc->pair[k], &sc->pa[k], &ma, &sc->box, &mb, 0, &w, NULL),
                     VXC_OK);
    assert_int_equal(vxc_pair_jacobian_get(sc->pair[k], H, &sc->J[k], NULL), VXC_OK);
    sc->pp[k] = (vxc_implicit_pair){&sc->J[k], -1, 0, {0}, 0, 0, 0};
  }
  assert_int_equal(vxc_implicit_step(1, minv, afree, H, sc->n, sc->pp, wb, dt, NULL, NULL),
                   VXC_OK);
  double r[3];
  for (int i = 0; i < 3; i++) {
    sc->v[i] += dt[i];
    sc->w[i] += dt[3 + i];
    sc->box.p[i] += H * sc->v[i];
    r[i] = H * sc->w[i];
  }
  turn(sc->box.q, r);
  mb = motion(&sc->box, sc->v, sc->w); /* (the reference point as at the step: advance ignores it) */
  for (int k = 0; k < sc->n; k++) {
    for (int i = 0; i < 3; i++) {
      sc->pa[k].p[i] += H * sc->va[k][i];
    }
    vxc_body_motion ma = motion(&sc->pa[k], sc->va[k], Z);
    assert_int_equal(vxc_pair_advance(sc->pair[k], &ma, &mb, H, NULL), VXC_OK);
  }
}


/* The box between two pads 0.6 mm deep, held 0.1 s, lifted at a = 2 m/s^2 for 0.25 s, then at
 * 0.5 m/s for 0.1 s: every step's friction against the statics, from the first. */
static void test_lift_sticks(void **state) {
  (void)state;
  vxc_params p = gripper_params();
  vxc_solid *pad, *box = box_solid();
  assert_int_equal(vxc_solid_load(vxc_test_data("gripper-pad.vxm"), NULL, &pad, NULL), VXC_OK);
  scene sc = {.n = 2};
  sc.box = vxc_pose_identity();
  double depth = 6e-4, a = 2;
  for (int k = 0; k < 2; k++) {
    assert_int_equal(vxc_pair_create(pad, box, &p, NULL, 4, NULL, &sc.pair[k], NULL), VXC_OK);
    sc.pa[k] = vxc_pose_identity();
    sc.pa[k].p[1] = (k ? -1 : 1) * (S + 0.005 - depth);
  }
  double worst = 0, over = 0, slip = 0, side = 0, z0 = 0;
  int nstep = 225, sliding = 0;
  for (int s = 0; s < nstep; s++) {
    double t1 = (s + 1) * H, vz = t1 <= 0.1 ? 0 : t1 <= 0.35 ? a * (t1 - 0.1) : a * 0.25;
    double acc = s * H < 0.1 || s * H >= 0.35 ? 0 : a, va[2][3] = {{0, 0, vz}, {0, 0, vz}};
    step(&sc, va);
    for (int k = 0; k < 2; k++) {
      const double *w = sc.pp[k].wrench + 6; /* the force on the box */
      double fn = fabs(w[1]), ft = sqrt(w[0] * w[0] + w[2] * w[2]), share = M * (G + acc) / 2;
      sliding += sc.pp[k].sliding;
      over = fmax(over, ft / (p.mu_s * fn));
      worst = fmax(worst, fabs(w[2] / share - 1));
    }
    if (s == 0) {
      z0 = sc.box.p[2] - sc.pa[0].p[2];
    }
    slip = fmax(slip, fabs(sc.box.p[2] - sc.pa[0].p[2] - z0));
    side = fmax(side, fmax(fabs(sc.v[0]), fabs(sc.w[1]) * S));
  }
  printf("# lift: friction per pad against m (g + a) / 2, worst %.3g; largest friction / mu_s f_n %.4g; slip %.3g m (bound mu_s / sigma0 = %.3g m); "
         "largest sideways speed %.3g m/s; sliding records %d; box z %.4g m\n",
         worst, over, slip, p.mu_s / p.sigma0, side, sliding, sc.box.p[2]);
  assert_true(worst < 0.01);
  assert_true(over <= 1 + 1e-9);
  assert_true(slip < p.mu_s / p.sigma0);
  assert_true(side < 1e-5);
  assert_int_equal(sliding, 0);
  assert_double_near(sc.box.p[2], 0.5 * a * 0.25 * 0.25 + a * 0.25 * 0.1, 1e-3);
  for (int k = 0; k < 2; k++) {
    vxc_pair_free(sc.pair[k]);
  }
  vxc_solid_free(pad);
  vxc_solid_free(box);
}


/* The box on a table, its weight carried k_v V = m g, pushed at 0.5 m/s along x. */
static void test_push_slides(void **state) {
  (void)state;
  vxc_params p = gripper_params();
  vxc_solid *table, *box = box_solid();
  assert_int_equal(vxc_solid_load(vxc_test_data("table.vxm"), NULL, &table, NULL), VXC_OK);
  scene sc = {.n = 1};
  assert_int_equal(vxc_pair_create(table, box, &p, NULL, 4, NULL, &sc.pair[0], NULL), VXC_OK);
  sc.pa[0] = vxc_pose_identity();
  sc.box = vxc_pose_identity();
  sc.box.p[2] = S - M * G / (p.k_v * 4 * S * S);
  sc.v[0] = 0.5;
  double v1 = 0, t1 = 0, v2 = 0, t2 = 0, rest = 0, want = p.mu_c * G;
  int sliding = 0;
  for (int s = 0; s < 400; s++) {
    double va[1][3] = {{0, 0, 0}};
    step(&sc, va);
    double t = (s + 1) * H;
    if (s == 24) {
      v1 = sc.v[0], t1 = t;
    }
    if (sc.v[0] > 0.05) {
      v2 = sc.v[0], t2 = t;
    }
    sliding += sc.pp[0].sliding;
    if (t > 0.5) {
      rest = fmax(rest, fabs(sc.v[0]));
    }
  }
  double decel = (v1 - v2) / (t2 - t1);
  printf("# push: deceleration %.6g m/s^2 from %.3g to %.3g m/s, mu_c g %.6g; sliding steps "
         "%d; largest speed after 0.5 s %.3g m/s\n",
         decel, v1, v2, want, sliding, rest);
  assert_double_near(decel, want, 0.01 * want);
  assert_true(rest < 1e-4);
  vxc_pair_free(sc.pair[0]);
  vxc_solid_free(table);
  vxc_solid_free(box);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lift_sticks),
      cmocka_unit_test(test_push_slides),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
