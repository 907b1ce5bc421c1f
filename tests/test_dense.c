/* test_dense.c: the dense LU factorisation of lib/dense.c (white-box: the file is compiled in)
 * against the systems it solves: the residual A x - b of random systems whose partial
 * pivoting interchanges rows at several steps (so the multipliers the factorisation moves
 * must meet the right entries of b), a permutation matrix (pivots at every step, the answer
 * is b permuted back), and a singular matrix refused. */
#include "tests/vxc_test.h"

#include "lib/dense.h"

#define NMAX 12

/* max |A x - b| over max |b|, A the original matrix. */
static double residual(const double *A, int n, const double *x, const double *b) {
  double r = 0, bm = 0;
  for (int i = 0; i < n; i++) {
    double s = -b[i];
    for (int j = 0; j < n; j++) {
      s += A[i * n + j] * x[j];
    }
    r = fmax(r, fabs(s));
    bm = fmax(bm, fabs(b[i]));
  }
  return r / bm;
}


static void test_random_systems(void **state) {
  (void)state;
  vxc_rng rng = {12345};
  int swapped_late = 0;
  for (int trial = 0; trial < 200; trial++) {
    int n = 2 + trial % (NMAX - 1);
    double A[NMAX * NMAX], F[NMAX * NMAX], b[NMAX], x[NMAX];
    int piv[NMAX];
    for (int i = 0; i < n * n; i++) {
      A[i] = vxc_rng_uniform(&rng, -1, 1);
    }
    for (int i = 0; i < n; i++) {
      A[i * n + i] += 0.1; /* away from singular, the pivots still chosen by size */
      b[i] = vxc_rng_uniform(&rng, -1, 1);
    }
    memcpy(F, A, sizeof(double) * n * n);
    assert_int_equal(vxci_lu_factor(F, n, piv), 1);
    for (int k = 1; k < n; k++) {
      swapped_late += piv[k] != k;
    }
    memcpy(x, b, sizeof(double) * n);
    vxci_lu_solve(F, n, piv, x);
    double r = residual(A, n, x, b);
    if (!(r < 1e-10)) {
      fprintf(stderr, "# n = %d: residual %.3g\n", n, r);
    }
    assert_true(r < 1e-10);
    /* a second right-hand side through the same factors */
    for (int i = 0; i < n; i++) {
      b[i] = vxc_rng_uniform(&rng, -1, 1);
    }
    memcpy(x, b, sizeof(double) * n);
    vxci_lu_solve(F, n, piv, x);
    assert_true(residual(A, n, x, b) < 1e-10);
  }
  assert_true(swapped_late > 100); /* the case that needs the interchanges applied first */
}


/* A cyclic permutation: row i has its one at column i + 1 (mod n), so A x = b is
 * x[i + 1] = b[i]. */
static void test_permutation(void **state) {
  (void)state;
  const int n = 7;
  double A[7 * 7] = {0}, b[7], x[7];
  int piv[7];
  for (int i = 0; i < n; i++) {
    A[i * n + (i + 1) % n] = 1;
    b[i] = i + 1;
  }
  assert_int_equal(vxci_lu_factor(A, n, piv), 1);
  memcpy(x, b, sizeof x);
  vxci_lu_solve(A, n, piv, x);
  for (int i = 0; i < n; i++) {
    assert_double_near(x[(i + 1) % n], b[i], 0);
  }
}


static void test_singular(void **state) {
  (void)state;
  double A[9] = {1, 2, 3, 2, 4, 6, 0, 1, 1}; /* row 2 = 2 row 1 */
  int piv[3];
  assert_int_equal(vxci_lu_factor(A, 3, piv), 0);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_systems),
      cmocka_unit_test(test_permutation),
      cmocka_unit_test(test_singular),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
