/* vxc_test.h: what every cmocka test of vxc includes: double asserts, the data folder,
 * seeded random numbers, and the fixtures several tests share (a ball's cap in closed form,
 * a classical RK4 step, a random rigid transform for the geometry tests). */
#ifndef VXC_TEST_H
#define VXC_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846 /* -std=c11 hides it in <math.h> */
#endif

/* cmocka 1.1.5 has no double assert (assert_float_equal casts to float): fails unless
 * |a - b| <= tol, printing both values at full precision. NaN always fails. */
#define assert_double_near(a, b, tol)                                                     \
  do {                                                                                    \
    double vxc_t_a_ = (a), vxc_t_b_ = (b), vxc_t_tol_ = (tol);                            \
    if (!(fabs(vxc_t_a_ - vxc_t_b_) <= vxc_t_tol_)) {                                     \
      /* stderr: cmocka's TAP output drops fail_msg's text */                           \
      fprintf(stderr, "# %s:%d: %s = %.17g, %s = %.17g, |diff| = %.3g > tol %.3g\n",      \
              __FILE__, __LINE__, #a, vxc_t_a_, #b, vxc_t_b_, fabs(vxc_t_a_ - vxc_t_b_),  \
              vxc_t_tol_);                                                                \
      fail();                                                                             \
    }                                                                                     \
  } while (0)

/* Relative form: |a - b| <= rel * |b|. */
#define assert_double_rel(a, b, rel)                                                      \
  do {                                                                                    \
    double vxc_t_b2_ = (b);                                                               \
    assert_double_near((a), vxc_t_b2_, (rel) * fabs(vxc_t_b2_));                          \
  } while (0)

/* The source tree's data/ folder: VXC_DATADIR, set by the harness (an absolute path, so
 * out-of-tree builds find it), else ../data (a test run by hand from tests/). */
static inline const char *vxc_test_datadir(void) {
  const char *dir = getenv("VXC_DATADIR");
  return dir ? dir : "../data";
}

/* Path of a file in the data/ folder. Returns a static buffer. */
static inline const char *vxc_test_data(const char *name) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/%s", vxc_test_datadir(), name);
  return buf;
}

/* Removes the folder dir (a test's mkdtemp folder) and what it holds: 0, or -1. */
static inline int vxc_test_rmtree(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Writes `text` to the file dir/name (a test's model or task file); fails the test when
 * the file cannot be written. */
static inline void vxc_test_write(const char *dir, const char *name, const char *text) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

/* Volume (m^3) of the cap of height h (m) of a ball of radius R (m): pi h^2 (R - h / 3);
 * 0 for h <= 0. */
static inline double vxc_test_cap_volume(double R, double h) {
  return h <= 0 ? 0 : M_PI * h * h * (R - h / 3);
}

/* One classical fourth-order Runge-Kutta step of y' = f(y) over h, in place; n <= 32
 * states. f writes dy from y; ud is passed through. */
#define VXC_TEST_RK4_MAX 32
typedef void (*vxc_test_rhs)(void *ud, const double *y, double *dy);
static inline void vxc_test_rk4(vxc_test_rhs f, void *ud, int n, double *y, double h) {
  double k1[VXC_TEST_RK4_MAX], k2[VXC_TEST_RK4_MAX], k3[VXC_TEST_RK4_MAX],
      k4[VXC_TEST_RK4_MAX], t[VXC_TEST_RK4_MAX];
  if (n > VXC_TEST_RK4_MAX) {
    fail_msg("vxc_test_rk4: %d states, at most %d", n, VXC_TEST_RK4_MAX);
  }
  f(ud, y, k1);
  for (int i = 0; i < n; i++) {
    t[i] = y[i] + 0.5 * h * k1[i];
  }
  f(ud, t, k2);
  for (int i = 0; i < n; i++) {
    t[i] = y[i] + 0.5 * h * k2[i];
  }
  f(ud, t, k3);
  for (int i = 0; i < n; i++) {
    t[i] = y[i] + h * k3[i];
  }
  f(ud, t, k4);
  for (int i = 0; i < n; i++) {
    y[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
}

/* Deterministic pseudo-random numbers (xorshift64*), so a failure can be replayed. */
typedef struct vxc_rng {
  uint64_t s;
} vxc_rng;

static inline double vxc_rng_uniform(vxc_rng *r, double lo, double hi) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  uint64_t x = r->s * 2685821657736338717ULL;
  return lo + (hi - lo) * ((double)(x >> 11) * (1.0 / 9007199254740992.0));
}

/* A random rigid transform: a uniform axis and angle, a translation within reach (m) on
 * each axis. For the geometry tests, which include geom/geom.h before this header. */
#ifdef VXG_GEOM_H
static inline void vxc_test_rand_xform(vxc_rng *r, vxg_xform *x, double reach) {
  double ax[3] = {vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1),
                  vxc_rng_uniform(r, -1, 1)};
  if (vxg_xform_axis_angle(x, ax, vxc_rng_uniform(r, -M_PI, M_PI)) != 0) {
    vxg_xform_identity(x); /* an axis of length 0: drawn with probability 0 */
  }
  for (int i = 0; i < 3; i++) {
    x->t[i] = vxc_rng_uniform(r, -reach, reach);
  }
}
#endif

#endif /* VXC_TEST_H */
