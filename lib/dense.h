/* dense.h: a dense LU factorisation with partial pivoting, factored once and solved for many
 * right-hand sides (task_rosw.c: each stage of a step); not installed. Matrices are
 * row-major n x n doubles. (vxci_pair_dense_solve, pair_internal.h, eliminates with its
 * right-hand sides at once.) */
#ifndef VXC_DENSE_H
#define VXC_DENSE_H

/* Factors A in place into P A = L U (L unit lower, below the diagonal; U on and above it),
 * swapping whole rows; piv[k] is the row swapped with row k at step k. 1, or 0 when A is
 * singular (a zero pivot; A and piv then partly written). */
int vxci_lu_factor(double *A, int n, int *piv);

/* Solves A x = b in place (x holds b on entry) from vxci_lu_factor's A and piv. */
void vxci_lu_solve(const double *A, int n, const int *piv, double *x);

#endif /* VXC_DENSE_H */
