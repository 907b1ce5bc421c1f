/* rodbore_events.c: the angles about the bore's axis where the rod-in-bore region's trace
 * changes shape (rodbore.c integrates between them): the vertices of the region's edges
 * (three surfaces meeting), the tangencies of the bore's and the planes' traces to the rod's
 * conic and of the half-planes to a ball, the planes through the axis, the angles where a
 * plane holds the bore's line (a cylinder's vertical plane, a plane through a countersink's
 * apex), for each of the bore's lines (a countersunk hole has two, which meet on a circle:
 * its crossings of the rod and of the planes are events too). Tangencies are roots of
 * trigonometric polynomials of degree 2, fitted exactly from five values and located
 * rigorously (each of the bore's lines r = rl + sl z has rl or sl zero, which keeps them of
 * degree 2); a point is kept only near the region. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/rodbore.h"
#include "geom/vec3.h"

/* A trigonometric polynomial c0 + a1 cos t + b1 sin t + a2 cos 2t + b2 sin 2t. */
typedef struct rb_trig {
  double c[5];
} rb_trig;

typedef void (*rb_fn)(const void *ud, double t, double *v);

/* The trigonometric polynomial through fn's values at five angles (exact for degree 2). */
static void trig_fit(rb_fn fn, const void *ud, rb_trig *p) {
  /* cos and sin of 2 pi k / 5 */
  static const double C5[5] = {1, 0.30901699437494745, -0.80901699437494734, -0.80901699437494756,
                               0.30901699437494723};
  static const double S5[5] = {0, 0.95105651629515353, 0.58778525229247325, -0.58778525229247303,
                               -0.95105651629515364};
  memset(p, 0, sizeof *p);
  for (int k = 0; k < 5; k++) {
    double v, c = C5[k], s = S5[k];
    fn(ud, 2 * M_PI * k / 5, &v);
    p->c[0] += v / 5;
    p->c[1] += 2 * v * c / 5;
    p->c[2] += 2 * v * s / 5;
    p->c[3] += 2 * v * (c - s) * (c + s) / 5;
    p->c[4] += 2 * v * 2 * s * c / 5;
  }
}

/* p at the angle whose cosine and sine are c, s. */
static double trig_at(const rb_trig *p, double c, double s) {
  return p->c[0] + p->c[1] * c + p->c[2] * s + p->c[3] * (c - s) * (c + s) + p->c[4] * 2 * s * c;
}

static double trig_eval(const rb_trig *p, double t) {
  return trig_at(p, cos(t), sin(t));
}


static void add_event(rb_events *ev, double t, int sq) {
  if (ev->n < RB_MAX_EVENTS && isfinite(t)) {
    ev->sq[ev->n] = sq;
    ev->t[ev->n++] = fmod(fmod(t, 2 * M_PI) + 2 * M_PI, 2 * M_PI);
  }
}

/* The root of p in [a, b], where it changes sign (fa, fb), by regula falsi with the Illinois
 * correction (a bisection where a step falls outside). */
static double trig_root(const rb_trig *p, double a, double b, double fa, double fb) {
  double m = 0.5 * (a + b), prev = HUGE_VAL;
  int side = 0;
  for (int it = 0; it < 100 && fabs(m - prev) > 1e-15 && b - a > 1e-15; it++) {
    prev = m;
    m = (a * fb - b * fa) / (fb - fa);
    if (!(m > a && m < b)) {
      m = 0.5 * (a + b);
    }
    double fm = trig_eval(p, m);
    if (fm == 0) {
      return m;
    }
    if ((fm < 0) == (fa < 0)) {
      a = m;
      fa = fm;
      fb = side == -1 ? 0.5 * fb : fb;
      side = -1;
    } else {
      b = m;
      fb = fm;
      fa = side == 1 ? 0.5 * fa : fa;
      side = 1;
    }
  }
  return m;
}

/* Roots of p in [a, b] (values fa, fb there) into out (at most 4): a sign change is
 * refined (trig_root); an interval whose values cannot reach zero (|f''| <= m2 bounds the gap to
 * the chord) is dropped, any other split; a deepest undecided interval counts as a root (a double
 * root: an event either way). */
static void trig_roots_in(const rb_trig *p, double m2, double a, double b, double fa, double fb,
                          int depth, double *out, int *n) {
  if (*n >= 4) {
    return;
  }
  double h = b - a;
  if ((fa < 0) != (fb < 0)) {
    out[(*n)++] = trig_root(p, a, b, fa, fb);
    return;
  }
  if (fmin(fabs(fa), fabs(fb)) > m2 * h * h / 8) {
    return;
  }
  if (depth == 0) {
    out[(*n)++] = 0.5 * (a + b);
    return;
  }
  double m = 0.5 * (a + b), fm = trig_eval(p, m);
  trig_roots_in(p, m2, a, m, fa, fm, depth - 1, out, n);
  trig_roots_in(p, m2, m, b, fm, fb, depth - 1, out, n);
}

/* Roots of p over [0, 2pi): the count, at most 4 (a nonzero polynomial of degree 2). */
static int trig_roots(const rb_trig *p, double out[4]) {
  double m2 = hypot(p->c[1], p->c[2]) + 4 * hypot(p->c[3], p->c[4]);
  int n = 0;
  if (!(m2 > 0)) {
    return 0;
  }
  /* cos and sin of k pi / 8, k = 0..16: the sixteen segments' ends */
  static const double C8[17] = {
      1,  0.92387953251128674,  0.70710678118654757,  0.38268343236508978,
      0,  -0.38268343236508978, -0.70710678118654757, -0.92387953251128674,
      -1, -0.92387953251128674, -0.70710678118654757, -0.38268343236508978,
      0,  0.38268343236508978,  0.70710678118654757,  0.92387953251128674,
      1};
  const int seg = 16;
  double fa = trig_at(p, 1, 0);
  for (int k = 0; k < seg; k++) {
    double a = 2 * M_PI * k / seg, b = 2 * M_PI * (k + 1) / seg;
    double fb = trig_at(p, C8[k + 1], C8[(k + 13) % 16]);
    trig_roots_in(p, m2, a, b, fa, fb, 30, out, &n);
    fa = fb;
  }
  return n;
}

/* Polar angle of a point of the bore frame. */
static double polar(const double x[3]) {
  return atan2(x[1], x[0]);
}

/* 1 when x lies in the region's closure, up to tol: outside the bore, inside the rod and
 * every plane (but plane `skip1`, `skip2`). */
static int near_region(const rb_prob *p, const double x[3], int skip1, int skip2) {
  double tol = 1e-9 * p->scale, dx[3];
  if (!(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]))) {
    return 0;
  }
  for (int j = 0; j < p->nl; j++) {
    if (hypot(x[0], x[1]) < p->rl[j] + p->sl[j] * x[2] - tol * (1 + p->sl[j])) {
      return 0;
    }
  }
  vxg_sub(x, p->pa, dx);
  double along = vxg_dot(dx, p->u);
  if (p->tR > 0) {
    double s = hypot(dx[0], dx[1]) - p->tR;
    dx[0] = s; /* a torus: from its core circle, in the half-plane */
    dx[1] = 0;
  }
  if (vxg_dot(dx, dx) - p->k * along * along >
      p->ra * p->ra + tol * (2 * p->ra + tol + sqrt(vxg_dot(dx, dx)))) {
    return 0;
  }
  for (int i = 0; i < p->np; i++) {
    if (i != skip1 && i != skip2 && vxg_dot(p->n[i], x) > p->d[i] + tol) {
      return 0;
    }
  }
  return 1;
}

/* Adds x's polar angle when x is near the region. */
static void add_point(const rb_prob *p, rb_events *ev, const double x[3], int s1, int s2, int sq) {
  if (near_region(p, x, s1, s2)) {
    add_event(ev, polar(x), sq);
  }
}

/* The bore's line j as the data of a function of theta. */
typedef struct rb_lfn {
  const rb_prob *p;
  int j;
} rb_lfn;

/* Q along the bore's line j at theta: A z^2 + 2 B z + C (vxg_rb_bore_line). */
static void bore_line_at(const rb_prob *p, int j, double cs, double sn, double abc[3]) {
  rb_conic q;
  vxg_rb_conic_at(p, cs, sn, &q);
  vxg_rb_bore_line(p, j, &q, &abc[0], &abc[1], &abc[2]);
}

/* The bore line's tangencies to the rod's conic: B^2 - A C. */
static void tangency_fn(const void *ud, double t, double *v) {
  const rb_lfn *f = ud;
  double abc[3];
  bore_line_at(f->p, f->j, cos(t), sin(t), abc);
  *v = abc[1] * abc[1] - abc[0] * abc[2];
}

/* The bore line's A (its direction's Q) as a function of theta. */
static void bore_a_fn(const void *ud, double t, double *v) {
  const rb_lfn *f = ud;
  double abc[3];
  bore_line_at(f->p, f->j, cos(t), sin(t), abc);
  *v = abc[0];
}

/* The point at height z of the bore's line j at theta (cs, sn); NaN beyond a countersink's
 * apex (r < 0: the other nappe, no face of the bore; near_region drops it). */
static void bore_point(const rb_prob *p, int j, double cs, double sn, double z, double x[3]) {
  double r = p->rl[j] + p->sl[j] * z;
  r = r >= 0 ? r : NAN;
  x[0] = r * cs;
  x[1] = r * sn;
  x[2] = z;
}

/* Plane i against the bore's line j and the rod, as functions of theta (trigonometric
 * polynomials of degree 2 once scaled): kind 0, where its curve on the bore crosses the rod; kind
 * 1, where its trace in the half-plane touches the rod's conic (a vertical plane's trace r = d / (n
 * . e_r) in z, any other's z = (d - (n . e_r) r) / n_z in r). */
typedef struct rb_pfn {
  const rb_prob *p;
  int i, kind, j;
} rb_pfn;

/* The tangency of kind 1 at theta: the discriminant (scaled) and the touching point. */
static double trace_touch(const rb_prob *p, int i, double cs, double sn, double x[3]) {
  const double *n = p->n[i];
  double d = p->d[i], ne = cs * n[0] + sn * n[1], nz = n[2], r, z, v;
  rb_conic q;
  vxg_rb_conic_at(p, cs, sn, &q);
  if (fabs(nz) >= 1e-9) {
    double al = q.arr * nz * nz - 2 * q.arz * ne * nz + q.azz * ne * ne;
    double be = q.arz * d * nz - q.azz * d * ne + q.br * nz * nz - q.bz * ne * nz;
    double ga = q.azz * d * d + 2 * q.bz * d * nz + q.c * nz * nz;
    v = be * be - al * ga;
    r = al != 0 ? -be / al : 0;
    z = (d - ne * r) / nz;
  } else {
    double b = q.arz * d + q.bz * ne;
    v = b * b - q.azz * (q.arr * d * d + 2 * q.br * d * ne + q.c * ne * ne);
    r = ne != 0 ? d / ne : 0;
    z = q.azz != 0 ? -(q.arz * r + q.bz) / q.azz : 0;
  }
  x[0] = r * cs;
  x[1] = r * sn;
  x[2] = z;
  return v;
}

/* The crossing of kind 0 at theta and the point on the bore: the plane meets the bore's
 * line at z = N / D (N = d - rb n.e_r, D = n_z + sb n.e_r), where Q, times D^2, is
 * A N^2 + 2 B N D + C D^2. */
static double bore_cross(const rb_prob *p, int i, int j, double cs, double sn, double x[3]) {
  const double *n = p->n[i];
  double ne = cs * n[0] + sn * n[1], nn = p->d[i] - p->rl[j] * ne, dd = n[2] + p->sl[j] * ne;
  double abc[3];
  bore_line_at(p, j, cs, sn, abc);
  bore_point(p, j, cs, sn, nn / dd, x);
  return (abc[0] * nn + 2 * abc[1] * dd) * nn + abc[2] * dd * dd;
}

static void plane_fn(const void *ud, double t, double *v) {
  const rb_pfn *f = ud;
  double x[3];
  *v = f->kind == 0 ? bore_cross(f->p, f->i, f->j, cos(t), sin(t), x)
                    : trace_touch(f->p, f->i, cos(t), sin(t), x);
}

/* 1 when plane i's section of the rod holds the bore's axis (its trace then meets the
 * conic once in every half-plane: no tangency). */
static int section_holds_axis(const rb_prob *p, int i) {
  if (fabs(p->n[i][2]) < 1e-9 || p->tR > 0) {
    return 0;
  }
  double y[3] = {-p->pa[0], -p->pa[1], p->d[i] / p->n[i][2] - p->pa[2]}, ya = vxg_dot(y, p->u);
  return vxg_dot(y, y) - p->k * ya * ya < p->ra * p->ra && (p->k <= 1 || ya > 0);
}

/* 1 when plane i holds the bore's line j in some half-planes (N or D of bore_cross
 * vanishes for every theta: a cylinder's vertical plane, a plane through a countersink's
 * apex); the angles of those half-planes go to *a, *b. */
static int holds_bore_lines(const rb_prob *p, int i, int j, double *a, double *b) {
  const double *n = p->n[i];
  double h = hypot(n[0], n[1]), ph = atan2(n[1], n[0]), c;
  if (p->sl[j] == 0) {
    /* rb (n . e_r) = d */
    if (fabs(n[2]) >= 1e-9) {
      return 0;
    }
    c = h > 0 ? p->d[i] / (p->rl[j] * h) : 2;
  } else {
    /* d = 0 and n_z + sb (n . e_r) = 0 */
    if (fabs(p->d[i]) > 64 * DBL_EPSILON * p->scale) {
      return 0;
    }
    c = h > 0 ? -n[2] / (p->sl[j] * h) : 2;
  }
  *a = *b = NAN;
  if (fabs(c) <= 1) {
    *a = ph + acos(c);
    *b = ph - acos(c);
  }
  return 1;
}

/* The roots of plane i's function of the given kind (against the bore's line j). */
static void plane_kind_events(const rb_prob *p, int i, int kind, int j, rb_events *ev) {
  rb_pfn f = {p, i, kind, j};
  rb_trig tp;
  double t[4], x[3];
  trig_fit(plane_fn, &f, &tp);
  int nr = trig_roots(&tp, t);
  for (int k = 0; k < nr; k++) {
    if (kind == 0) {
      bore_cross(p, i, j, cos(t[k]), sin(t[k]), x);
    } else {
      trace_touch(p, i, cos(t[k]), sin(t[k]), x);
    }
    add_point(p, ev, x, i, -1, kind == 1);
  }
}

/* Plane i's events: its trace touching the rod's conic; for each of the bore's lines, its
 * curve on the bore crossing the rod, or the lines it shares with the bore. */
static void plane_events(const rb_prob *p, int i, rb_events *ev) {
  if (!section_holds_axis(p, i)) {
    plane_kind_events(p, i, 1, 0, ev);
  }
  for (int j = 0; j < p->nl; j++) {
    double la, lb;
    if (holds_bore_lines(p, i, j, &la, &lb)) {
      add_event(ev, la, 0); /* add_event drops NaN: no such line */
      add_event(ev, lb, 0);
    } else {
      plane_kind_events(p, i, 0, j, ev);
    }
  }
}

/* Where the line x0 + t m crosses the quadric |x - a|^2 - k ((x - a).u)^2 = r^2 (a cylinder,
 * k 1; a cone, r 0: both nappes). */
static void line_cylinder(const rb_prob *p, rb_events *ev, const double x0[3], const double m[3],
                          const double a[3], const double u[3], double k, double r, int s1,
                          int s2) {
  double w[3];
  vxg_sub(x0, a, w);
  double mu = vxg_dot(m, u), wu = vxg_dot(w, u), t[2];
  int nt = vxg_rb_quad_roots(vxg_dot(m, m) - k * mu * mu, vxg_dot(m, w) - k * mu * wu,
                             vxg_dot(w, w) - k * wu * wu - r * r, t);
  for (int k = 0; k < nt; k++) {
    double x[3];
    for (int j = 0; j < 3; j++) {
      x[j] = x0[j] + t[k] * m[j];
    }
    add_point(p, ev, x, s1, s2, 0);
  }
}

/* Real roots of c[0] + c[1] t + ... + c[n] t^n (n <= 4) in [a, b], ascending, into r; their
 * count. Between the roots of the derivative (found alike) the polynomial is monotone: a
 * sign change there is bisected; an extreme where it vanishes to rounding (a tangency) is
 * a root too. */
static int poly_roots(const double *c, int n, double a, double b, double *r) {
  double dc[4], cr[6], scale = 0;
  for (int k = 0; k <= n; k++) {
    scale = fmax(scale, fabs(c[k]) * pow(fmax(fabs(a), fabs(b)), k));
  }
  int nc = 0, nr = 0;
  cr[nc++] = a;
  if (n > 1) {
    for (int k = 1; k <= n; k++) {
      dc[k - 1] = k * c[k];
    }
    nc += poly_roots(dc, n - 1, a, b, cr + 1);
  } else if (n == 1 && c[1] != 0) {
    double t = -c[0] / c[1];
    if (t > a && t < b) {
      r[nr++] = t;
    }
    return nr;
  }
  cr[nc++] = b;
  for (int k = 0; k + 1 < nc && n > 1; k++) {
    double lo = cr[k], hi = cr[k + 1], flo = 0, fhi = 0;
    for (int j = n; j >= 0; j--) {
      flo = flo * lo + c[j];
      fhi = fhi * hi + c[j];
    }
    if (k > 0 && fabs(flo) <= 1e-12 * scale) {
      r[nr++] = lo; /* an extreme on the axis: a double root */
      continue;
    }
    if ((flo < 0) == (fhi < 0) || flo == 0 || fhi == 0) {
      continue;
    }
    for (int it = 0; it < 80 && hi - lo > 1e-15 * (fabs(lo) + fabs(hi)); it++) {
      double m = 0.5 * (lo + hi), fm = 0;
      for (int j = n; j >= 0; j--) {
        fm = fm * m + c[j];
      }
      if ((fm < 0) == (flo < 0)) {
        lo = m;
        flo = fm;
      } else {
        hi = m;
      }
    }
    r[nr++] = 0.5 * (lo + hi);
  }
  return nr;
}

/* Where the line x0 + t m crosses the torus rod ((rho - tR)^2 + (z - pa_z)^2 = ra^2, the
 * quartic (|w|^2 + tR^2 - ra^2)^2 = 4 tR^2 (w_x^2 + w_y^2), w = x - pa), within the torus's
 * reach of x0's foot on the line. */
static void line_torus(const rb_prob *p, rb_events *ev, const double x0[3], const double m[3],
                       int s1, int s2) {
  double w[3], R2 = p->tR * p->tR;
  vxg_sub(x0, p->pa, w);
  double A = vxg_dot(m, m), B = vxg_dot(m, w), C = vxg_dot(w, w) + R2 - p->ra * p->ra;
  double a = m[0] * m[0] + m[1] * m[1], b = m[0] * w[0] + m[1] * w[1];
  double c = w[0] * w[0] + w[1] * w[1];
  if (!(A > 0)) {
    return;
  }
  double co[5] = {C * C - 4 * R2 * c, 4 * B * C - 8 * R2 * b,
                  4 * B * B + 2 * A * C - 4 * R2 * a, 4 * A * B, A * A};
  double T = (sqrt(vxg_dot(w, w)) + p->tR + p->ra) / sqrt(A) * 1.01, t[8];
  int nt = poly_roots(co, 4, -T, T, t);
  for (int k = 0; k < nt; k++) {
    double x[3];
    for (int j = 0; j < 3; j++) {
      x[j] = x0[j] + t[k] * m[j];
    }
    add_point(p, ev, x, s1, s2, 0);
  }
}

/* Planes i and j's line: its crossings of the bore, the rod and the other planes. */
static void pair_events(const rb_prob *p, int i, int j, rb_events *ev) {
  double m[3], x0[3];
  if (vxg_planes_line(p->n[i], p->d[i], p->n[j], p->d[j], m, x0) < 1e-18) {
    return;
  }
  static const double o[3] = {0, 0, 0}, ez[3] = {0, 0, 1};
  /* a countersink's other nappe lies inside the region: near_region keeps its points,
     which are no event (extra angles only split the integral) */
  for (int l = 0; l < p->nl; l++) {
    line_cylinder(p, ev, x0, m, o, ez, 1 + p->sl[l] * p->sl[l], p->rl[l], i, j);
  }
  if (p->tR > 0) {
    line_torus(p, ev, x0, m, i, j);
  } else {
    line_cylinder(p, ev, x0, m, p->pa, p->u, p->k, p->ra, i, j);
  }
  for (int k = 0; k < p->np; k++) {
    double nm = vxg_dot(p->n[k], m);
    if (k == i || k == j || p->axis[k] || fabs(nm) < 1e-12) {
      continue;
    }
    double t = (p->d[k] - vxg_dot(p->n[k], x0)) / nm, x[3];
    for (int l = 0; l < 3; l++) {
      x[l] = x0[l] + t * m[l];
    }
    add_point(p, ev, x, i, j, 0);
  }
  if (fabs(m[0]) + fabs(m[1]) < 1e-12 * fabs(m[2])) {
    add_event(ev, polar(x0), 0); /* a vertical line: one angle */
  }
}

/* A ball's tangencies to the half-planes: where the plane through the axis at theta, of
 * normal (-sin, cos, 0), lies ra from the centre (the ball's circle in it shrinks to its
 * centre, a square root). */
static void ball_events(const rb_prob *p, rb_events *ev) {
  double a = p->pa[1], b = -p->pa[0], h = hypot(a, b);
  for (int s = -1; s <= 1 && h > 0; s += 2) {
    double t = s * p->ra / h;
    if (fabs(t) > 1) {
      continue;
    }
    for (int k = -1; k <= 1; k += 2) {
      double th = atan2(b, a) + k * acos(t), x[3];
      double nx = -sin(th), ny = cos(th), dn = nx * p->pa[0] + ny * p->pa[1];
      x[0] = p->pa[0] - dn * nx;
      x[1] = p->pa[1] - dn * ny;
      x[2] = p->pa[2];
      add_point(p, ev, x, -1, -1, 1);
    }
  }
}

/* The bore's line j tangent to the rod's conic (none when the line's direction lies on the
 * rod's asymptotic cone at every theta: a parallel rod, a coaxial cone of the countersink's
 * angle). */
static void tangency_events(const rb_prob *p, int j, rb_events *ev) {
  rb_lfn f = {p, j};
  rb_trig ta, tp;
  trig_fit(bore_a_fn, &f, &ta);
  double amax = 0, r[4];
  for (int k = 0; k < 5; k++) {
    amax = fmax(amax, fabs(ta.c[k]));
  }
  if (!(amax > 1e-12 * (1 + p->sl[j] * p->sl[j]))) {
    return;
  }
  trig_fit(tangency_fn, &f, &tp);
  int nr = trig_roots(&tp, r);
  for (int k = 0; k < nr; k++) {
    /* the tangent point (rl + sl z*, z*) of the half-plane at r[k], z* = -B / A */
    double cs = cos(r[k]), sn = sin(r[k]), abc[3], x[3];
    bore_line_at(p, j, cs, sn, abc);
    bore_point(p, j, cs, sn, -abc[1] / abc[0], x);
    add_point(p, ev, x, -1, -1, 1);
  }
}

/* Q at the rim of a countersunk hole (the vertex (rb, rb / sb) of every half-plane). */
static void rim_fn(const void *ud, double t, double *v) {
  const rb_prob *p = ud;
  rb_conic q;
  vxg_rb_conic_at(p, cos(t), sin(t), &q);
  *v = vxg_rb_conic_eval(&q, p->rb, p->rb / p->sb);
}

/* A countersunk hole's rim (the circle r = rb, z = rb / sb where its lines meet): where
 * the rod's surface and each plane cross it. */
static void rim_events(const rb_prob *p, rb_events *ev) {
  double zr = p->rb / p->sb, t[4];
  rb_trig tp;
  trig_fit(rim_fn, p, &tp);
  int nr = trig_roots(&tp, t);
  for (int k = 0; k < nr; k++) {
    double x[3] = {p->rb * cos(t[k]), p->rb * sin(t[k]), zr};
    add_point(p, ev, x, -1, -1, 0);
  }
  for (int i = 0; i < p->np; i++) {
    /* rb (n . e_r) = d - n_z zr */
    const double *n = p->n[i];
    double h = hypot(n[0], n[1]), c = h > 0 ? (p->d[i] - n[2] * zr) / (p->rb * h) : 2;
    for (int s = -1; s <= 1 && fabs(c) <= 1 && !p->axis[i]; s += 2) {
      double th = atan2(n[1], n[0]) + s * acos(c);
      double x[3] = {p->rb * cos(th), p->rb * sin(th), zr};
      add_point(p, ev, x, i, -1, 0);
    }
  }
}

/* Every event of the region. */
static void events(const rb_prob *p, rb_events *ev) {
  ev->n = 0;
  if (p->k == 0) {
    ball_events(p, ev);
  }
  for (int i = 0; i < p->np; i++) {
    if (p->axis[i]) {
      double th = atan2(-p->n[i][0], p->n[i][1]);
      add_event(ev, th, 0);
      add_event(ev, th + M_PI, 0);
    }
  }
  for (int j = 0; j < p->nl; j++) {
    tangency_events(p, j, ev);
  }
  if (p->nl == 2) {
    rim_events(p, ev);
  }
  for (int i = 0; i < p->np; i++) {
    if (p->axis[i]) {
      continue;
    }
    plane_events(p, i, ev);
    for (int j = i + 1; j < p->np; j++) {
      if (!p->axis[j]) {
        pair_events(p, i, j, ev);
      }
    }
  }
}


/* Sorts and merges the events. */
static void sort_events(rb_events *ev) {
  for (int i = 1; i < ev->n; i++) {
    double t = ev->t[i];
    int sq = ev->sq[i], j = i;
    for (; j > 0 && ev->t[j - 1] > t; j--) {
      ev->t[j] = ev->t[j - 1];
      ev->sq[j] = ev->sq[j - 1];
    }
    ev->t[j] = t;
    ev->sq[j] = sq;
  }
  int m = 0;
  for (int k = 0; k < ev->n; k++) {
    if (m == 0 || ev->t[k] - ev->t[m - 1] > 1e-13) {
      ev->t[m] = ev->t[k];
      ev->sq[m++] = ev->sq[k];
    } else {
      ev->sq[m - 1] |= ev->sq[k];
    }
  }
  if (m > 1 && ev->t[0] + 2 * M_PI - ev->t[m - 1] <= 1e-13) {
    ev->sq[0] |= ev->sq[--m];
  }
  ev->n = m;
}


void vxg_rb_events(const rb_prob *p, rb_events *ev) {
  events(p, ev);
  sort_events(ev);
}
