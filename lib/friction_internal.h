/* friction_internal.h: what the files of the friction-law library share (friction_law.c,
 * friction_static.c, friction_dynamic.c); not installed. Invariants: the vectors are
 * 3-vectors in the caller's frame, p has passed vxc_friction_params_check. */
#ifndef VXC_LIB_FRICTION_INTERNAL_H
#define VXC_LIB_FRICTION_INTERNAL_H

#include "lib/vxc.h"

/* The signum of a vector (Marques 3.3): v / |v|, or 0 for v = 0. Returns |v|. */
double vxci_sgn3(const double v[3], double out[3]);

/* 1 when the n doubles of x are all finite. */
int vxci_finite(const double *x, int n);

/* Marques's Stribeck curve g(|v|) = F_C + (F_S - F_C) exp(-(|v| / v_s)^delta) (3.10, 3.47). */
double vxci_stribeck(const vxc_friction_params *p, double f_n, double speed);

#endif
