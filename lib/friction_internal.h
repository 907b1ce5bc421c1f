/* friction_internal.h: what the files of the friction-law library share (friction_law.c,
 * friction_static.c, friction_dynamic.c; bristle_step.c checks its arrays with
 * vxci_check_finite); not installed. Invariants: the vectors are
 * 3-vectors in the caller's frame, p has passed vxc_friction_params_check. */
#ifndef VXC_LIB_FRICTION_INTERNAL_H
#define VXC_LIB_FRICTION_INTERNAL_H

#include "lib/vxc.h"

/* The signum of a vector (Marques 3.3): v / |v|, or 0 for v = 0. Returns |v|. */
double vxci_sgn3(const double v[3], double out[3]);

/* 1 when the n doubles of x are all finite. */
int vxci_finite(const double *x, int n);

/* VXC_OK when the n doubles of x (the argument `what` of function fn) are finite, else
 * VXC_ERR_NUMERIC with err (may be NULL) naming the first that is not. */
vxc_status vxci_check_finite(const char *fn, const char *what, const double *x, int n,
                             vxc_error *err);

/* The checks an entry of the library starts with: `law` one with state (with_state 1) or a
 * static one (0), and the n pointers ptr[] (named names[]) not NULL. VXC_OK, or VXC_ERR_ARG
 * with err (may be NULL) naming fn and the law or the argument (friction_law.c). */
vxc_status vxci_friction_args(const char *fn, vxc_friction_law law, int with_state,
                              const void *const *ptr, const char *const *names, int n,
                              vxc_error *err);

/* Marques's Stribeck curve g(|v|) = F_C + (F_S - F_C) exp(-(|v| / v_s)^delta) (3.10, 3.47). */
double vxci_stribeck(const vxc_friction_params *p, double f_n, double speed);

#endif
