/* test_force_stiction.c: a block resting flat on an inclined half-space, with the
 * volumetric contact model (normal force and bristle friction, lib/README.md sections 5 and 7).
 * Below the stiction angle atan(mu_s) the block stays put; above it, it slides with the
 * Coulomb acceleration g (sin a - mu_c cos a).
 *
 * The scene is written in the slope's frame: the half-space A = {z <= 0}, n = +z (from A to
 * the block B), gravity g (sin a, 0, -cos a). The block (mass m, base L x W) is pressed a
 * depth delta into the plane: the volume of interference is the thin box L x W x delta,
 * V = L W delta, centroid delta/2 under the base's centre, and J the box's,
 * V/12 diag(W^2 + delta^2, L^2 + delta^2, L^2 + W^2). The block's translation along the
 * slope (x) and along the normal (z) is integrated by RK4 together with the contact state;
 * it does not rotate (the contact's torque about the base's centre would be balanced by a
 * second contact edge in reality; the test is about the friction force). */
#include "tests/vxc_test.h"
#include "lib/vxc.h"

#define G 9.81
#define NSTATE (4 + VXC_STATE_SIZE)

typedef struct block {
  const vxc_params *p;
  double mass, L, W;
  double grav[3]; /* gravity in the slope frame, m/s^2 */
} block;


/* y = (x, z of the base's centre, vx, vz, contact state...); dy = its derivative. */
static void block_rhs(const block *b, const double y[NSTATE], double dy[NSTATE]) {
  double delta = -y[1];
  vxc_contact_geometry g;
  memset(&g, 0, sizeof g);
  g.normal[2] = 1;
  if (delta > 0) {
    double V = b->L * b->W * delta;
    g.volume = V;
    g.centroid[0] = y[0];
    g.centroid[2] = -0.5 * delta;
    g.inertia[0] = V / 12 * (b->W * b->W + delta * delta);
    g.inertia[4] = V / 12 * (b->L * b->L + delta * delta);
    g.inertia[8] = V / 12 * (b->L * b->L + b->W * b->W);
  }
  vxc_body_motion plane = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  vxc_body_motion blk = {{y[0], 0, y[1]}, {y[2], 0, y[3]}, {0, 0, 0}};
  vxc_wrench w;
  assert_int_equal(vxc_contact_eval(b->p, &g, &plane, &blk, y + 4, &w, dy + 4, NULL), VXC_OK);
  dy[0] = y[2];
  dy[1] = y[3];
  dy[2] = b->grav[0] + w.force_b[0] / b->mass;
  dy[3] = b->grav[2] + w.force_b[2] / b->mass;
}


/* block_rhs as a vxc_test_rhs */
static void rhs(void *ud, const double *y, double *dy) {
  block_rhs(ud, y, dy);
}


/* Contact parameters of this test: mu_s = 0.5, mu_c = 0.3 (so that between 16.7 and 26.6
 * degrees only stiction holds the block), bristle by the guidelines with dz = 0.1 mm, no
 * viscous term (the sliding acceleration is then Coulomb's), k_v = 1e9 N/m^3 (the 1 kg
 * block on 0.01 m^2 rests about 1 um deep). */
static vxc_params block_params(void) {
  vxc_params p;
  vxc_params_default(&p);
  p.k_v = 1e9;
  p.e_eff = 0.5;
  p.mu_s = 0.5;
  p.mu_c = 0.3;
  p.sigma0 = p.mu_s / 1e-4;
  p.sigma1 = 2 * sqrt(p.sigma0 / G);
  p.sigma2 = 0;
  p.v_s = 1e-3;
  p.v_e = 1e-5;
  p.tau_dw = 0.3;
  assert_int_equal(vxc_params_prepare(&p, NULL), VXC_OK);
  return p;
}


/* Sets up the block at rest at its static depth on a slope of angle `deg`; with
 * `preload`, the bristle already carries the static friction (a block that was put down
 * and has settled). */
static void block_start(block *b, const vxc_params *p, double deg, int preload, double y[NSTATE]) {
  double a = deg * M_PI / 180;
  b->p = p;
  b->mass = 1.0;
  b->L = 0.1;
  b->W = 0.1;
  b->grav[0] = G * sin(a);
  b->grav[1] = 0;
  b->grav[2] = -G * cos(a);
  memset(y, 0, NSTATE * sizeof y[0]);
  double delta = b->mass * G * cos(a) / (p->k_v * b->L * b->W);
  y[1] = -delta;
  vxc_contact_geometry g;
  memset(&g, 0, sizeof g);
  g.volume = b->L * b->W * delta;
  g.normal[2] = 1;
  g.centroid[2] = -0.5 * delta;
  g.inertia[0] = g.inertia[4] = g.inertia[8] = g.volume * b->L * b->L / 6;
  vxc_body_motion plane = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  vxc_body_motion blk = {{0, 0, y[1]}, {0, 0, 0}, {0, 0, 0}};
  assert_int_equal(vxc_contact_start(p, &g, &plane, &blk, y + 4, NULL), VXC_OK);
  if (preload) {
    /* the force on B is +f_n sigma0 z along x: it must hold m g sin a uphill, so
     * z = -tan(a) / sigma0 along x */
    y[4 + VXC_STATE_Z] = -tan(a) / p->sigma0;
  }
}


/* below atan(mu_s) = 26.6 degrees the block, nudged downhill at a tenth of the Stribeck
 * velocity, settles and then drifts less than 1e-6 m over 10 s. (A nudge of v_s / 2 already
 * frees it at 25 degrees: at v ~ v_s the stick indicator s = exp(-(v / v_s)^2) blends in
 * the sliding rate, which relaxes the bristle toward the Coulomb force mu_c < tan 25.) */
static void test_stiction_block_below_angle_stays(void **state) {
  (void)state;
  vxc_params p = block_params();
  const double angles[] = {20.0, 25.0};
  for (int k = 0; k < 2; k++) {
    block b;
    double y[NSTATE];
    block_start(&b, &p, angles[k], 1, y);
    y[2] = 0.1 * p.v_s;
    double h = 2e-5, x1 = 0;
    long n1 = lround(1.0 / h), n10 = lround(10.0 / h);
    for (long n = 1; n <= n10; n++) {
      vxc_test_rk4(rhs, &b, NSTATE, y, h);
      if (n == n1) {
        x1 = y[0];
      }
    }
    double drift = fabs(y[0] - x1);
    printf(
        "# %.0f deg: moved %.3g m in the first second, drift %.3g m over 1..10 s, "
        "v = %.3g m/s\n",
        angles[k], x1, drift, y[2]);
    assert_true(drift < 1e-6);
    assert_true(fabs(y[2]) < 1e-6);
    /* the friction force holds the block: tan(a) is carried by the bristle, below mu_s */
    assert_double_rel(-p.sigma0 * y[4 + VXC_STATE_Z], tan(angles[k] * M_PI / 180), 1e-3);
  }
}


/* above atan(mu_s) the block slides, and once v >> v_s it accelerates at
 * g (sin a - mu_c cos a) within 1 % (the model's Coulomb limit) */
static void test_stiction_block_above_angle_slides_with_coulomb_acceleration(void **state) {
  (void)state;
  vxc_params p = block_params();
  const double angles[] = {28.0, 35.0};
  for (int k = 0; k < 2; k++) {
    block b;
    double y[NSTATE];
    block_start(&b, &p, angles[k], 1, y);
    double h = 2e-5;
    double v1 = 0;
    long n1 = lround(1.0 / h), n2 = lround(2.0 / h);
    for (long n = 1; n <= n2; n++) {
      vxc_test_rk4(rhs, &b, NSTATE, y, h);
      if (n == n1) {
        v1 = y[2];
      }
    }
    double a = angles[k] * M_PI / 180;
    double acc = (y[2] - v1) / 1.0;
    double coulomb = G * (sin(a) - p.mu_c * cos(a));
    printf("# %.0f deg: acceleration %.9g m/s^2, Coulomb %.9g (rel. error %.2g)\n", angles[k], acc,
           coulomb, fabs(acc - coulomb) / coulomb);
    assert_true(v1 > 100 * p.v_s);
    assert_double_rel(acc, coulomb, 0.01);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stiction_block_below_angle_stays),
      cmocka_unit_test(test_stiction_block_above_angle_slides_with_coulomb_acceleration),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
