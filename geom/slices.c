/* slices.c: the interference of a ball with a cylinder (a rod: ball intersect cylinder; a
 * bore or groove: ball minus cylinder) by quadrature along the cylinder's axis.
 *
 * In the plane across the axis at height t above the ball centre's projection, the ball is
 * a disk of radius rho(t) = sqrt(R^2 - t^2) at distance d from the axis and the cylinder a
 * circle of radius rc: the slice is their lens (rod) or the disk minus the lens (bore),
 * whose area, first and second moments are sums of circular segments, in closed form. The
 * region is symmetric in t and across the plane of the axis and the ball's centre, so only
 * A, int x, int x^2, int y^2 and int t^2 A need integrating. The interval is split where
 * the slice changes shape (tangencies), each piece integrated by Gauss-Legendre in theta
 * with t = R sin(phi), phi = mid + half sin(theta): the first makes rho analytic, the second
 * the square roots at a piece's ends (the middle piece, symmetric, has no other); two rules
 * (n and 2n nodes) give the error estimate. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/vec3.h"

/* Gauss-Legendre rules on [-1, 1], their nodes x > 0 and weights (the rule is symmetric):
 * 10 nodes for a segment's small angles, 24 and 48 for the slices (the error estimate). */
static const double GL10_X[5] = {0.14887433898163121, 0.43339539412924719, 0.67940956829902441,
                                 0.86506336668898451, 0.97390652851717172};
static const double GL10_W[5] = {0.29552422471475287, 0.26926671930999636, 0.21908636251598204,
                                 0.14945134915058059, 0.066671344308688138};
static const double GL24_X[12] = {0.064056892862605626, 0.19111886747361631, 0.31504267969616337,
                                  0.43379350762604514,  0.54542147138883954, 0.64809365193697557,
                                  0.74012419157855436,  0.82000198597390292, 0.88641552700440103,
                                  0.93827455200273276,  0.9747285559713095,  0.99518721999702136};
static const double GL24_W[12] = {0.12793819534675216,  0.1258374563468283,   0.12167047292780339,
                                  0.1155056680537256,   0.10744427011596563,  0.097618652104113888,
                                  0.086190161531953276, 0.073346481411080306, 0.059298584915436781,
                                  0.044277438817419806, 0.028531388628933663, 0.012341229799987199};
static const double GL48_X[24] = {
    0.032380170962869362, 0.097004699209462699, 0.16122235606889172, 0.22476379039468906,
    0.28736248735545558,  0.34875588629216074,  0.40868648199071673, 0.4669029047509584,
    0.52316097472223303,  0.5772247260839727,   0.62886739677651362, 0.67787237963266391,
    0.72403413092381465,  0.76715903251574034,  0.80706620402944263, 0.84358826162439353,
    0.87657202027424789,  0.90587913671556967,  0.93138669070655433, 0.95298770316043086,
    0.97059159254624725,  0.98412458372282686,  0.99353017226635076, 0.99877100725242612};
static const double GL48_W[24] = {
    0.064737696812683922, 0.064466164435950082, 0.063924238584648187,  0.063114192286254026,
    0.062039423159892664, 0.06070443916589388,  0.059114839698395636,  0.057277292100403216,
    0.055199503699984163, 0.052890189485193667, 0.050359035553854475,  0.047616658492490475,
    0.04467456085669428,  0.041545082943464749, 0.038241351065830706,  0.034777222564770439,
    0.031167227832798089, 0.027426509708356948, 0.023570760839324379,  0.019616160457355528,
    0.015579315722943849, 0.011477234579234539, 0.0073275539012762621, 0.0031533460523058387};

typedef struct bc_rule {
  int n; /* nodes, even */
  const double *x, *w;
} bc_rule;

static const bc_rule RULE_SEG = {10, GL10_X, GL10_W};
static const bc_rule RULE_N = {24, GL24_X, GL24_W};
static const bc_rule RULE_2N = {48, GL48_X, GL48_W};

/* Node k (0 .. n-1) of rule g: its abscissa on [-1, 1] and weight. */
static double node(const bc_rule *g, int k, double *w) {
  int h = g->n / 2, i = k < h ? h - 1 - k : k - h;
  *w = g->w[i];
  return k < h ? -g->x[i] : g->x[i];
}


/* A circular segment of radius r and half-angle al (0..pi): its area and, with u the
 * distance from its chord toward its arc and y along the chord, int u dA, int u^2 dA and
 * int y^2 dA. With x = r cos(phi): A = 2 r^2 I0, int u = 2 r^3 I1, int u^2 = 2 r^4 I2,
 * int y^2 = 2/3 r^4 S4, I_k = int_0^al (cos phi - cos al)^k sin^2 phi, S4 = int sin^4.
 * Small angles, whose closed forms cancel, by a Gauss rule (the integrands are smooth). */
typedef struct bc_seg {
  double a, u1, u2, y2;
} bc_seg;

static void segment(double r, double al, const bc_rule *gs, bc_seg *s) {
  double i0 = 0, i1 = 0, i2 = 0, s4 = 0;
  if (al < 0.5) {
    for (int k = 0; k < gs->n; k++) {
      double wk, xk = node(gs, k, &wk), ph = 0.5 * al * (1 + xk), w = 0.5 * al * wk;
      double sn = sin(ph), sn2 = sn * sn;
      double dc = 2 * sin(0.5 * (al + ph)) * sin(0.5 * (al - ph)); /* cos ph - cos al */
      i0 += w * sn2;
      i1 += w * dc * sn2;
      i2 += w * dc * dc * sn2;
      s4 += w * sn2 * sn2;
    }
  } else {
    double c = cos(al), sa = sin(al);
    i0 = 0.5 * (al - sa * c);
    i1 = sa * sa * sa / 3 - c * i0;
    i2 = (al - 0.25 * sin(4 * al)) / 8 - 2 * c * sa * sa * sa / 3 + c * c * i0;
    s4 = 0.375 * al - 0.25 * sin(2 * al) + sin(4 * al) / 32;
  }
  s->a = 2 * r * r * i0;
  s->u1 = 2 * r * r * r * i1;
  s->u2 = 2 * r * r * r * r * i2;
  s->y2 = 2.0 / 3 * r * r * r * r * s4;
}


/* The problem in the slices' frame: x from the axis toward the ball's centre (at x = d),
 * moments about x = x0. */
typedef struct bc_prob {
  double R, rc, d, x0;
  int inside;
  double dout, din; /* rc + R - d, R + d - rc: the depths at t = 0 */
} bc_prob;

/* Per slice: area, int (x - x0), int (x - x0)^2, int y^2, the wall's chord (its vector area
 * per unit length along x, outward of the region), the parts' magnitudes (rounding). */
enum { S_A, S_X, S_XX, S_YY, S_TT, S_W, S_PARTS, S_N };

static void disk(double r, double cx, double x0, double sign, double f[S_N]) {
  double a = M_PI * r * r, e = cx - x0;
  f[S_A] += sign * a;
  f[S_X] += sign * e * a;
  f[S_XX] += sign * (0.25 * a * r * r + e * e * a);
  f[S_YY] += sign * 0.25 * a * r * r;
  f[S_PARTS] += a;
}

/* Adds sign times segment s, whose chord is at x = a1 and whose arc lies toward dir. */
static void add_seg(const bc_seg *s, double a1, double x0, double dir, double sign, double f[S_N]) {
  double e = a1 - x0, v1 = dir * s->u1;
  f[S_A] += sign * s->a;
  f[S_X] += sign * (v1 + e * s->a);
  f[S_XX] += sign * (s->u2 + 2 * e * v1 + e * e * s->a);
  f[S_YY] += sign * s->y2;
  f[S_PARTS] += s->a;
}

/* The slice at angle phi above the ball's centre: t = R sin(phi), rho = R cos(phi). */
static void slice(const bc_prob *p, double phi, double f[S_N]) {
  memset(f, 0, S_N * sizeof f[0]);
  double rho = p->R * cos(phi), sh = sin(0.5 * phi), drop = 2 * p->R * sh * sh; /* R - rho */
  if (!(rho > 0)) {
    return;
  }
  double dout = p->dout - drop, din = p->din - drop, dc = p->rc + p->d - rho;
  if (!(dout > 0)) { /* the disk outside the circle */
    if (p->inside) {
      disk(rho, p->d, p->x0, 1, f);
    }
    return;
  }
  if (!(din > 0)) { /* the disk inside the circle */
    if (!p->inside) {
      disk(rho, p->d, p->x0, 1, f);
    }
    return;
  }
  if (!(dc > 0)) { /* the circle inside the disk */
    if (p->inside) {
      disk(rho, p->d, p->x0, 1, f);
    }
    disk(p->rc, 0, p->x0, p->inside ? -1 : 1, f);
    return;
  }
  double s1 = dout * din / (2 * p->d), s2 = dout * dc / (2 * p->d);
  double h = sqrt(fmax(0, s1 * (2 * p->rc - s1))), a1 = p->rc - s1;
  double al1 = atan2(h, p->rc - s1), al2 = atan2(h, rho - s2);
  bc_seg g1, g2;
  segment(p->rc, al1, &RULE_SEG, &g1);
  if (p->inside) {
    segment(rho, M_PI - al2, &RULE_SEG, &g2); /* the disk beyond the chord */
    add_seg(&g2, a1, p->x0, 1, 1, f);
    add_seg(&g1, a1, p->x0, 1, -1, f);
    f[S_W] = -2 * h;
  } else {
    segment(rho, al2, &RULE_SEG, &g2);
    add_seg(&g1, a1, p->x0, 1, 1, f);
    add_seg(&g2, a1, p->x0, -1, 1, f);
    f[S_W] = 2 * h;
  }
}


/* 1 when the slice at phi is a lens (its wall's arc neither empty nor whole). */
static int is_lens(const bc_prob *p, double phi) {
  double rho = p->R * cos(phi), sh = sin(0.5 * phi), drop = 2 * p->R * sh * sh;
  return p->dout - drop > 0 && p->din - drop > 0 && p->rc + p->d - rho > 0;
}


/* Integrates the slices over phi in [lo, hi] (times mult) with the rule g: in theta, phi =
 * mid + half sin(theta) on a lens's piece, else in phi; t = R sin(phi). */
static void integrate(const bc_prob *p, double lo, double hi, double mult, const bc_rule *g,
                      double acc[S_N]) {
  double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
  /* a lens's ends are tangencies (square roots); other shapes and a piece without
   * tangencies are analytic in phi */
  int whole = (lo == -0.5 * M_PI && hi == 0.5 * M_PI) || !is_lens(p, mid);
  for (int i = 0; i < g->n; i++) {
    double wi, xi = node(g, i, &wi), th = 0.5 * M_PI * xi,
               phi = mid + half * (whole ? xi : sin(th));
    double w = half * wi * (whole ? 1 : 0.5 * M_PI * cos(th)) * p->R * cos(phi) * mult;
    double t = p->R * sin(phi), f[S_N];
    slice(p, phi, f);
    f[S_TT] = t * t * f[S_A];
    for (int k = 0; k < S_N; k++) {
      acc[k] += w * (k == S_PARTS ? fabs(f[k]) : f[k]);
    }
  }
}


/* The ends of the pieces of [0, pi/2] in phi (t = R sin(phi)): 0, where the slice changes
 * shape (rho = R cos(phi) at a tangency), pi/2. */
static int breaks(const bc_prob *p, double tb[4]) {
  double R = p->R, gap[2] = {p->d > p->rc ? p->dout : p->din, R - p->d - p->rc};
  int n = 0;
  tb[n++] = 0;
  for (int k = 0; k < 2; k++) {
    double b = R - gap[k]; /* the tangency's rho */
    if (gap[k] > 0 && b > 0) {
      tb[n++] = atan2(sqrt(gap[k] * (R + b)), b);
    }
  }
  if (n == 3 && tb[1] > tb[2]) {
    double x = tb[1];
    tb[1] = tb[2];
    tb[2] = x;
  }
  tb[n++] = 0.5 * M_PI;
  return n;
}


static void quadrature(const bc_prob *p, const double tb[4], int nb, const bc_rule *g,
                       double acc[S_N]) {
  memset(acc, 0, S_N * sizeof acc[0]);
  integrate(p, -tb[1], tb[1], 1, g, acc); /* the middle piece, symmetric */
  for (int i = 1; i + 1 < nb; i++) {
    if (tb[i + 1] > tb[i]) {
      integrate(p, tb[i], tb[i + 1], 2, g, acc);
    }
  }
}


int vxg_ball_cylinder(const double c[3], double r, const double pa[3], const double u[3], double rc,
                      int inside, vxg_ball_cyl *out) {
  memset(out, 0, sizeof *out);
  if (!(r > 0) || !(rc > 0)) {
    return -1;
  }
  double w[3], e1[3], e2[3], o[3];
  vxg_sub(c, pa, w);
  double tc = vxg_dot(w, u);
  for (int k = 0; k < 3; k++) {
    o[k] = pa[k] + tc * u[k]; /* the ball centre's projection on the axis */
    e1[k] = w[k] - tc * u[k];
  }
  double d = sqrt(vxg_dot(e1, e1));
  if (d > 0) {
    for (int k = 0; k < 3; k++) {
      e1[k] /= d;
    }
  } else { /* on the axis: any direction across it */
    double a[3] = {fabs(u[0]) < 0.6 ? 1 : 0, fabs(u[0]) < 0.6 ? 0 : 1, 0};
    double s = vxg_dot(a, u);
    for (int k = 0; k < 3; k++) {
      e1[k] = a[k] - s * u[k];
    }
    double n = sqrt(vxg_dot(e1, e1));
    for (int k = 0; k < 3; k++) {
      e1[k] /= n;
    }
  }
  vxg_cross(u, e1, e2);
  bc_prob p = {.R = r, .rc = rc, .d = d, .inside = inside};
  p.dout = rc + r - d;
  p.din = r + d - rc;
  out->depth = inside ? p.din : p.dout;
  memcpy(out->g, c, sizeof out->g);
  if ((!inside && !(p.dout > 0)) || (inside && !(p.din > 0))) {
    return 0; /* apart from the rod, or wholly in the bore: empty */
  }
  /* moments about the chord at t = 0 (or the ball's centre): near the region */
  double dc0 = rc + d - r;
  int chord = p.dout > 0 && p.din > 0 && dc0 > 0;
  p.x0 = chord ? rc - p.dout * p.din / (2 * d) : d;
  /* the region's side: the rod within x <= rc; in a bore, the ball centred inside, beyond
   * the chord at t = 0 (the chords move outward with |t|, the other slices are empty) */
  out->has_plane = !inside || (chord && d < rc);
  double oe = vxg_dot(o, e1), s = inside ? -1 : 1;
  for (int k = 0; k < 3; k++) {
    out->pn[k] = s * e1[k];
  }
  out->pd = s * (oe + (inside ? p.x0 : rc));
  double tb[4], a1[S_N], a2[S_N];
  int nb = breaks(&p, tb);
  quadrature(&p, tb, nb, &RULE_N, a1);
  quadrature(&p, tb, nb, &RULE_2N, a2);
  double v = a2[S_A];
  out->v = v;
  out->err = fabs(a2[S_A] - a1[S_A]);
  out->parts = a2[S_PARTS];
  for (int k = 0; k < 3; k++) {
    out->area[k] = a2[S_W] * e1[k];
  }
  if (!(v > 0)) {
    out->v = 0;
    return 0;
  }
  double xb = a2[S_X] / v;
  double cxx = a2[S_XX] - a2[S_X] * xb, cyy = a2[S_YY], ctt = a2[S_TT];
  for (int k = 0; k < 3; k++) {
    out->g[k] = o[k] + (p.x0 + xb) * e1[k];
  }
  for (int s = 0; s < 6; s++) {
    int i = VXG_SYM_ROW[s], j = VXG_SYM_COL[s];
    out->cm[s] = cxx * e1[i] * e1[j] + cyy * e2[i] * e2[j] + ctt * u[i] * u[j];
  }
  return 0;
}
