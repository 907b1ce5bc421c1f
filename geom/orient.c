/* orient.c: exact orientation predicates (orient.h), after Shewchuk, "Adaptive precision
 * floating-point arithmetic and fast robust geometric predicates" (1997): a filtered
 * floating-point determinant, and its exact value as an expansion when the filter cannot
 * decide. An expansion is an array of doubles of increasing magnitude that do not overlap;
 * its sign is that of its last (largest) non-zero component. */
#include <math.h>

#include "geom/orient.h"

/* Shewchuk's error bounds for the floating-point determinants (eps = 2^-53). */
#define EPS 0x1p-53
#define O3_BOUND ((7.0 + 56.0 * EPS) * EPS)
#define O2_BOUND ((3.0 + 16.0 * EPS) * EPS)

/* Largest expansion of orient3d: a difference has 2 terms, a 2x2 minor at most 16, times a
 * third difference 64, and the sum of three such 192 (zero-eliminated: usually far fewer). */
#define O3_MAX 192

/* x + y = a + b exactly, x = fl(a + b). */
static inline void two_sum(double a, double b, double *x, double *y) {
  double s = a + b, bv = s - a, av = s - bv;
  *x = s;
  *y = (a - av) + (b - bv);
}


/* h = e + b (e of n terms); returns h's length (h may not alias e). */
static int grow(const double *e, int n, double b, double *h) {
  double q = b, hh;
  int k = 0;
  for (int i = 0; i < n; i++) {
    two_sum(q, e[i], &q, &hh);
    if (hh != 0) {
      h[k++] = hh;
    }
  }
  if (q != 0 || k == 0) {
    h[k++] = q;
  }
  return k;
}


/* h = e + f; returns h's length. tmp holds at least n + m doubles; h may be tmp's twin. */
static int add(const double *e, int n, const double *f, int m, double *h, double *tmp) {
  double *src = tmp, *dst = h;
  int k = n;
  for (int i = 0; i < n; i++) {
    src[i] = e[i];
  }
  for (int j = 0; j < m; j++) {
    k = grow(src, k, f[j], dst);
    double *t = src;
    src = dst;
    dst = t;
  }
  if (src != h) {
    for (int i = 0; i < k; i++) {
      h[i] = src[i];
    }
  }
  return k;
}


/* h = e * b exactly (Shewchuk's Scale-Expansion with zero elimination); returns h's
 * length, at most 2 n. */
static int scale(const double *e, int n, double b, double *h) {
  double q = e[0] * b, hh = fma(e[0], b, -q);
  int k = 0;
  if (hh != 0) {
    h[k++] = hh;
  }
  for (int i = 1; i < n; i++) {
    double p1 = e[i] * b, p0 = fma(e[i], b, -p1), s;
    two_sum(q, p0, &s, &hh);
    if (hh != 0) {
      h[k++] = hh;
    }
    two_sum(p1, s, &q, &hh);
    if (hh != 0) {
      h[k++] = hh;
    }
  }
  if (q != 0 || k == 0) {
    h[k++] = q;
  }
  return k;
}


/* h = e * f (f of 2 terms); returns h's length, at most 4 n. */
static int mul2(const double *e, int n, const double f[2], double *h) {
  double a[2 * O3_MAX], b[2 * O3_MAX], tmp[4 * O3_MAX];
  int na = scale(e, n, f[0], a), nb = scale(e, n, f[1], b);
  return add(a, na, b, nb, h, tmp);
}


static int sign_of(const double *e, int n) {
  double top = e[n - 1];
  return (top > 0) - (top < 0);
}


/* e[0..1] = a - b exactly. */
static void diff(double a, double b, double e[2]) {
  two_sum(a, -b, &e[1], &e[0]);
}


/* The 2x2 minor p[i] q[j] - p[j] q[i] of two exact differences, into h; returns its length. */
static int minor2(const double p[3][2], const double q[3][2], int i, int j, double *h) {
  double x[16], y[16], tmp[32];
  int nx = mul2(p[i], 2, q[j], x);
  int ny = mul2(p[j], 2, q[i], y);
  for (int k = 0; k < ny; k++) {
    y[k] = -y[k];
  }
  return add(x, nx, y, ny, h, tmp);
}


static int orient3d_exact(const double a[3], const double b[3], const double c[3],
                          const double d[3]) {
  double ad[3][2], bd[3][2], cd[3][2];
  for (int k = 0; k < 3; k++) {
    diff(a[k], d[k], ad[k]);
    diff(b[k], d[k], bd[k]);
    diff(c[k], d[k], cd[k]);
  }
  /* det = ad.z (bd.x cd.y - bd.y cd.x) + bd.z (cd.x ad.y - cd.y ad.x)
   *     + cd.z (ad.x bd.y - ad.y bd.x) */
  double m[32], t[O3_MAX], acc[O3_MAX + 1], nxt[O3_MAX + 1], tmp[2 * O3_MAX + 2];
  const double(*rows[3][3])[2] = {{bd, cd, ad}, {cd, ad, bd}, {ad, bd, cd}};
  int nacc = 1;
  acc[0] = 0;
  for (int r = 0; r < 3; r++) {
    int nm = minor2(rows[r][0], rows[r][1], 0, 1, m);
    int nt = mul2(m, nm, rows[r][2][2], t);
    nacc = add(acc, nacc, t, nt, nxt, tmp);
    for (int i = 0; i < nacc; i++) {
      acc[i] = nxt[i];
    }
  }
  return sign_of(acc, nacc);
}


int vxg_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]) {
  double adx = a[0] - d[0], ady = a[1] - d[1], adz = a[2] - d[2];
  double bdx = b[0] - d[0], bdy = b[1] - d[1], bdz = b[2] - d[2];
  double cdx = c[0] - d[0], cdy = c[1] - d[1], cdz = c[2] - d[2];
  double bc = bdx * cdy, cb = cdx * bdy, ca = cdx * ady, ac = adx * cdy, ab = adx * bdy,
         ba = bdx * ady;
  double det = adz * (bc - cb) + bdz * (ca - ac) + cdz * (ab - ba);
  double perm = (fabs(bc) + fabs(cb)) * fabs(adz) + (fabs(ca) + fabs(ac)) * fabs(bdz) +
                (fabs(ab) + fabs(ba)) * fabs(cdz);
  double bound = O3_BOUND * perm;
  if (det > bound) {
    return 1;
  }
  if (det < -bound) {
    return -1;
  }
  return orient3d_exact(a, b, c, d);
}


int vxg_orient2d(const double a[3], const double b[3], const double c[3], int i, int j) {
  double l = (a[i] - c[i]) * (b[j] - c[j]), r = (a[j] - c[j]) * (b[i] - c[i]);
  double det = l - r, bound = O2_BOUND * (fabs(l) + fabs(r));
  if (det > bound) {
    return 1;
  }
  if (det < -bound) {
    return -1;
  }
  double p[3][2], q[3][2], h[32];
  diff(a[i], c[i], p[0]);
  diff(a[j], c[j], p[1]);
  diff(b[i], c[i], q[0]);
  diff(b[j], c[j], q[1]);
  return sign_of(h, minor2(p, q, 0, 1, h));
}
