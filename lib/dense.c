/* dense.c: LU factorisation with partial pivoting and its solves (dense.h).
 *
 * vxci_lu_factor swaps whole rows, the multipliers already stored below the diagonal
 * included, so that they end in their rows' final places: vxci_lu_solve then applies every
 * interchange to b before the forward substitution. (Interleaving the interchanges with the
 * substitution, as for a factorisation that swaps only the columns still to be eliminated,
 * would reduce entries of b against rows a later interchange moves.) */
#include <math.h>
#include <string.h>

#include "lib/dense.h"

int vxci_lu_factor(double *A, int n, int *piv) {
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int r = k + 1; r < n; r++) {
      if (fabs(A[r * n + k]) > fabs(A[p * n + k])) {
        p = r;
      }
    }
    piv[k] = p;
    if (!(fabs(A[p * n + k]) > 0)) {
      return 0;
    }
    if (p != k) {
      for (int c = 0; c < n; c++) {
        double tmp = A[k * n + c];
        A[k * n + c] = A[p * n + c];
        A[p * n + c] = tmp;
      }
    }
    for (int r = k + 1; r < n; r++) {
      double f = A[r * n + k] /= A[k * n + k];
      for (int c = k + 1; c < n; c++) {
        A[r * n + c] -= f * A[k * n + c];
      }
    }
  }
  return 1;
}


void vxci_lu_solve(const double *A, int n, const int *piv, double *x) {
  for (int k = 0; k < n; k++) {
    double tmp = x[k];
    x[k] = x[piv[k]];
    x[piv[k]] = tmp;
  }
  for (int k = 0; k < n; k++) {
    for (int r = k + 1; r < n; r++) {
      x[r] -= A[r * n + k] * x[k];
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    for (int c = k + 1; c < n; c++) {
      x[k] -= A[k * n + c] * x[c];
    }
    x[k] /= A[k * n + k];
  }
}
