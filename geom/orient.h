/* orient.h: exact orientation predicates on double-precision points (internal to geom/).
 *
 * Each returns the sign (-1, 0 or 1) of a determinant computed exactly: a floating-point
 * evaluation with Shewchuk's static error bound answers when it can, otherwise the
 * determinant is evaluated in expansion arithmetic (sums of non-overlapping doubles, with
 * fma for exact products). Exact only for finite inputs whose products neither overflow nor
 * underflow (coordinates within about 1e-100 .. 1e100, as every mesh coordinate in metres
 * is), and only with the default floating-point mode (no flush-to-zero). */
#ifndef VXG_ORIENT_H
#define VXG_ORIENT_H

/* Sign of det [a - d; b - d; c - d]: positive when d lies below the plane through a, b, c
 * seen counter-clockwise from above (d on the side opposite to (b - a) x (c - a)). */
int vxg_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]);

/* Sign of (a - c) x (b - c) for 2D points (x, y) = (p[i], p[j]): positive when a, b, c turn
 * counter-clockwise. */
int vxg_orient2d(const double a[3], const double b[3], const double c[3], int i, int j);

#endif /* VXG_ORIENT_H */
