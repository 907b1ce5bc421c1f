/* vxc_test.h: what every cmocka test of vxc includes. */
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

/* Path of a file in the source tree's data/ folder (VXC_DATADIR, set by the harness).
 * Returns a static buffer. */
static inline const char *vxc_test_data(const char *name) {
  static char buf[4096];
  const char *dir = getenv("VXC_DATADIR");
  snprintf(buf, sizeof buf, "%s/%s", dir ? dir : "../data", name);
  return buf;
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

#endif /* VXC_TEST_H */
