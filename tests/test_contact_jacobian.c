/* test_contact_jacobian.c: vxc_contact_jacobian, the contact model's derivatives in closed
 * form, against central differences of vxc_contact_eval (its wrench and state rates: an
 * independent answer) on seeded random contacts, resting, sticking, sliding, spinning,
 * rolling (volumetric and rate-independent), approaching and relaxing, at k_v 1e7 to 1e11
 * and contact sizes 1 mm to 0.1 m, every block (force, torque and rates over v_c, w_r and
 * the states).
 *
 * Each input y_j is stepped by h_j = 1e-4 L_j, L_j the scale on which the model bends along
 * it (v_e for the slip, v_e / r_gyr for the spin, the pre-sliding distance mu_s / sigma0 for
 * the bristle, phi_0 for the rolling angles, 1 for s_dw, V for V_ro, u for the impact speed).
 * Entry (i, j) is compared as its change over L_j, |analytic - difference| L_j, against the
 * output's scale |out_i| + max_j |difference_ij| L_j, within 1e-6. The difference's errors:
 * its truncation h^2 |f'''| / 6 is 1.7e-9 of that scale where f''' ~ f' / L^2 (the cubic
 * blends dir_e and sgn_e reach 3 f' / L^2 within v_e); its rounding is the inputs' (v_c is
 * rebuilt from the bodies' motions, up to about 2 m/s, so it carries eps |v| = 4e-16 m/s,
 * 4e-7 of the slip's step h = 1e-9 m/s) and the outputs' (eps |f| / h, 2.2e-12). A friction
 * law of the library is itself differentiated by central differences at 1e-3 v_e
 * (truncation 1.7e-7): its cases are held to 1e-5. */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

#define NY VXC_JAC_SIZE

typedef enum { RESTING, STICKING, SLIDING, SPINNING, ROLLING, RATE_INDEPENDENT, LAW } motion;

static const char *const NAMES[] = {"resting",  "sticking", "sliding", "spinning",
                                    "rolling",  "rate-independent rolling", "lugre law"};

/* One random contact of its class: parameters, geometry, motions and state. */
typedef struct contact {
  vxc_params p;
  vxc_contact_geometry g;
  vxc_body_motion a, b;
  double state[VXC_STATE_SIZE];
  double r_gyr;
} contact;

/* A unit vector in the plane normal to the unit n, at a random angle. */
static void tangent(vxc_rng *r, const double n[3], double t[3]) {
  double e[3] = {vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1)};
  double en = e[0] * n[0] + e[1] * n[1] + e[2] * n[2], l = 0;
  for (int i = 0; i < 3; i++) {
    t[i] = e[i] - en * n[i];
    l += t[i] * t[i];
  }
  for (int i = 0; i < 3; i++) {
    t[i] /= sqrt(l);
  }
}


/* log-uniform in [lo, hi] */
static double logu(vxc_rng *r, double lo, double hi) {
  return lo * pow(hi / lo, vxc_rng_uniform(r, 0, 1));
}


/* The contact's geometry at size L (m): a thin overlap of volume c L^3 about a random
 * centroid, with n an eigenvector of its inertia (the metrics' normal is one). */
static void geometry(vxc_rng *r, double L, contact *c) {
  double n[3] = {vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1), vxc_rng_uniform(r, -1, 1)};
  double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), t1[3], t2[3];
  for (int i = 0; i < 3; i++) {
    n[i] /= l;
  }
  tangent(r, n, t1);
  t2[0] = n[1] * t1[2] - n[2] * t1[1];
  t2[1] = n[2] * t1[0] - n[0] * t1[2];
  t2[2] = n[0] * t1[1] - n[1] * t1[0];
  double V = L * L * L * logu(r, 1e-3, 1e-2), thick = V / (L * L);
  double lam[3] = {V * L * L * vxc_rng_uniform(r, 0.05, 0.2),
                   V * L * L * vxc_rng_uniform(r, 0.05, 0.2), V * thick * thick / 12};
  const double *ax[3] = {t1, t2, n};
  c->g.volume = V;
  for (int i = 0; i < 3; i++) {
    c->g.normal[i] = n[i];
    c->g.centroid[i] = vxc_rng_uniform(r, -L, L);
    for (int j = 0; j < 3; j++) { /* J = sum lam_k ax_k ax_k^T, its polar moment about n lam[2] */
      c->g.inertia[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) {
        c->g.inertia[3 * i + j] += (lam[(k + 1) % 3] + lam[(k + 2) % 3]) * ax[k][i] * ax[k][j];
      }
    }
  }
  c->r_gyr = vxc_gyration_radius(&c->g);
}


/* A relative motion at the centroid made of slip vt along a tangent, approach vn along n, spin
 * wn about n and rolling wt about a tangent, set as A's motion over B's random one. */
static void motions(vxc_rng *r, double L, double vt, double vn, double wn, double wt, contact *c) {
  const double *n = c->g.normal;
  double t[3], tw[3], wr[3], vc[3];
  tangent(r, n, t);
  tangent(r, n, tw);
  for (int i = 0; i < 3; i++) {
    c->b.r[i] = c->g.centroid[i] + vxc_rng_uniform(r, -10 * L, 10 * L);
    c->a.r[i] = c->g.centroid[i] + vxc_rng_uniform(r, -10 * L, 10 * L);
    c->b.v[i] = vxc_rng_uniform(r, -1, 1);
    c->b.w[i] = vxc_rng_uniform(r, -1, 1);
    wr[i] = wn * n[i] + wt * tw[i];
    vc[i] = vt * t[i] + vn * n[i];
  }
  /* v_c = v_a + w_a x (p_c - r_a) - (v_b + w_b x (p_c - r_b)) */
  double ra[3], rb[3];
  for (int i = 0; i < 3; i++) {
    c->a.w[i] = c->b.w[i] + wr[i];
    ra[i] = c->g.centroid[i] - c->a.r[i];
    rb[i] = c->g.centroid[i] - c->b.r[i];
  }
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    double vb = c->b.v[i] + c->b.w[j] * rb[k] - c->b.w[k] * rb[j];
    double wa = c->a.w[j] * ra[k] - c->a.w[k] * ra[j];
    c->a.v[i] = vb + vc[i] - wa;
  }
}


/* A random contact of class m at stiffness k_v and size L. */
static void make(vxc_rng *r, motion m, double k_v, double L, contact *c) {
  memset(c, 0, sizeof *c);
  vxc_params_default(&c->p);
  c->p.k_v = k_v;
  c->p.e_eff = vxc_rng_uniform(r, 0.2, 0.9);
  c->p.sigma2 = vxc_rng_uniform(r, 0, 0.05);
  c->p.tau_r = m == STICKING ? 0.5 : 0.0; /* relaxation in one class */
  c->p.rolling = m == RATE_INDEPENDENT;
  c->p.eta_r = c->p.rolling ? logu(r, 1e-4, 1e-2) : 0;
  c->p.eta_s = c->p.rolling ? logu(r, 1e-4, 1e-2) : 0;
  if (m == LAW) {
    assert_int_equal(vxc_params_set_law(&c->p, "lugre", NULL), VXC_OK);
  }
  assert_int_equal(vxc_params_prepare(&c->p, NULL), VXC_OK);
  geometry(r, L, c);
  const vxc_params *p = &c->p;
  double ve = p->v_e, vs = p->v_s, zs = p->mu_s / p->sigma0, rg = c->r_gyr;
  double vt = 0, wn = 0, wt = 0, vn = vxc_rng_uniform(r, -0.3, 0.3) * p->v_small, zl = 0.5;
  switch (m) {
    case RESTING:
      vt = logu(r, 1e-3, 0.5) * ve;
      wn = logu(r, 1e-3, 0.5) * ve / rg;
      break;
    case STICKING:
    case LAW:
      vt = logu(r, 2, 50) * ve;
      wn = vxc_rng_uniform(r, -0.5, 0.5) * ve / rg;
      break;
    case SLIDING: /* a spin off 0: x |x| (C_ws's kink times sgn_e) has a central difference
                     off by h there */
      vt = logu(r, 10, 1e3) * vs;
      wn = logu(r, 0.01, 0.5) * ve / rg * (vxc_rng_uniform(r, 0, 1) < 0.5 ? -1 : 1);
      zl = 1.5;
      break;
    case SPINNING:
      vt = logu(r, 0.1, 5) * ve;
      wn = logu(r, 1, 100) * vs / rg * (vxc_rng_uniform(r, 0, 1) < 0.5 ? -1 : 1);
      zl = 1.5;
      break;
    case ROLLING:
    case RATE_INDEPENDENT:
      vt = logu(r, 0.1, 10) * vs;
      wt = logu(r, 0.01, 10);
      wn = logu(r, 0.01, 1) * (vxc_rng_uniform(r, 0, 1) < 0.5 ? -1 : 1);
      break;
  }
  if (m == SLIDING || m == LAW) {
    vn = vxc_rng_uniform(r, -1, 1) * 0.1; /* an impact's approach */
  }
  motions(r, L, vt, vn, wn, wt, c);
  double *s = c->state, t[3];
  tangent(r, c->g.normal, t);
  double zm = vxc_rng_uniform(r, 0, zl) * zs;
  for (int i = 0; i < 3; i++) {
    s[VXC_STATE_Z + i] = zm * t[i];
    s[VXC_STATE_NPREV + i] = c->g.normal[i];
  }
  tangent(r, c->g.normal, t);
  double pm = vxc_rng_uniform(r, 0, 2) * p->phi_0;
  for (int i = 0; i < 3; i++) {
    s[VXC_STATE_PHI + i] = c->p.rolling ? pm * t[i] : 0;
  }
  s[VXC_STATE_PSI] = c->p.rolling ? vxc_rng_uniform(r, -2, 2) * p->phi_0 : 0;
  s[VXC_STATE_THETA] = vxc_rng_uniform(r, -zl, zl) * zs / rg;
  s[VXC_STATE_SDW] = vxc_rng_uniform(r, 0.05, 0.95);
  s[VXC_STATE_VRO] = p->tau_r > 0 ? vxc_rng_uniform(r, 0, 0.5) * c->g.volume : 0;
  s[VXC_STATE_U] = logu(r, 1.5, 100) * p->v_small;
  s[VXC_STATE_ACTIVE] = 1;
}


/* The model's outputs (force_a, pure torque, rates) at y moved by d along input j. */
static void outputs(const contact *c, int j, double d, double out[NY]) {
  vxc_body_motion a = c->a;
  double s[VXC_STATE_SIZE];
  memcpy(s, c->state, sizeof s);
  if (j < 3) { /* v_c: A's velocity */
    a.v[j] += d;
  } else if (j < 6) { /* w_r: A's spin, its point velocity at p_c kept */
    double e[3] = {0, 0, 0}, ra[3];
    e[j - 3] = d;
    for (int i = 0; i < 3; i++) {
      ra[i] = c->g.centroid[i] - a.r[i];
      a.w[i] += e[i];
    }
    for (int i = 0; i < 3; i++) {
      int k = (i + 1) % 3, l = (i + 2) % 3;
      a.v[i] -= e[k] * ra[l] - e[l] * ra[k];
    }
  } else {
    s[j - 6] += d;
  }
  vxc_wrench w;
  assert_int_equal(vxc_contact_eval(&c->p, &c->g, &a, &c->b, s, &w, out + 6, NULL), VXC_OK);
  for (int i = 0; i < 3; i++) {
    out[i] = w.force_a[i];
    out[3 + i] = w.torque_rolling[i] + w.torque_spinning[i];
  }
}


/* The scale L_j of input j. */
static double scale(const contact *c, int j) {
  const vxc_params *p = &c->p;
  double zs = p->mu_s / p->sigma0;
  if (j < 3) {
    return p->v_e;
  }
  if (j < 6) {
    return p->v_e / c->r_gyr;
  }
  switch (j - 6) {
    case VXC_STATE_THETA:
      return zs / c->r_gyr;
    case VXC_STATE_SDW:
      return 1.0;
    case VXC_STATE_VRO:
      return c->g.volume;
    case VXC_STATE_U:
      return c->state[VXC_STATE_U];
    case VXC_STATE_PHI:
    case VXC_STATE_PHI + 1:
    case VXC_STATE_PHI + 2:
    case VXC_STATE_PSI:
      return p->phi_0;
    default:
      return zs; /* z, and the entries the model does not read */
  }
}


/* The largest difference of the analytic matrix from central differences, relative as the
 * header says; *row, *col: the entry where it is. */
static double compare(const contact *c, int *row, int *col) {
  double jac[NY * NY], fd[NY * NY], o0[NY], big[NY];
  assert_int_equal(vxc_contact_jacobian(&c->p, &c->g, &c->a, &c->b, c->state, jac, NULL), VXC_OK);
  outputs(c, 0, 0, o0);
  for (int i = 0; i < NY; i++) {
    big[i] = fabs(o0[i]);
  }
  for (int j = 0; j < NY; j++) {
    double L = scale(c, j), h = 1e-4 * L, up[NY], dn[NY];
    outputs(c, j, h, up);
    outputs(c, j, -h, dn);
    for (int i = 0; i < NY; i++) {
      fd[NY * i + j] = (up[i] - dn[i]) / (2 * h);
      big[i] = fmax(big[i], fabs(fd[NY * i + j]) * L);
    }
  }
  double worst = 0;
  for (int i = 0; i < NY; i++) {
    for (int j = 0; j < NY; j++) {
      double e = fabs(jac[NY * i + j] - fd[NY * i + j]) * scale(c, j);
      e = e > 0 ? e / fmax(big[i], 1e-300) : 0;
      if (e > worst) {
        worst = e;
        *row = i;
        *col = j;
      }
    }
  }
  return worst;
}


/* Every class at every scale, several seeded contacts each. */
static void test_against_differences(void **state) {
  (void)state;
  vxc_rng r = {0x9e3779b97f4a7c15ULL};
  static const double KV[] = {1e7, 1e9, 1e11}, LEN[] = {1e-3, 1e-2, 1e-1};
  double all = 0;
  for (int m = RESTING; m <= LAW; m++) {
    double worst = 0;
    int wr = 0, wc = 0;
    for (int k = 0; k < 3; k++) {
      for (int l = 0; l < 3; l++) {
        for (int rep = 0; rep < 4; rep++) {
          contact c;
          make(&r, (motion)m, KV[k], LEN[l], &c);
          int i = 0, j = 0;
          double e = compare(&c, &i, &j);
          if (e > worst) {
            worst = e;
            wr = i;
            wc = j;
          }
        }
      }
    }
    printf("# %s: largest relative difference %.3g (output %d, input %d), 36 contacts\n", NAMES[m],
           worst, wr, wc);
    assert_true(worst < (m == LAW ? 1e-5 : 1e-6));
    all = fmax(all, m == LAW ? 0 : worst);
  }
  printf("# closed forms: largest relative difference %.3g\n", all);
}


/* The statuses: a NULL jac, a state that is not finite (named as vxc_contact_jacobian's,
 * jac untouched), no volume (zeros). */
static void test_errors(void **state) {
  (void)state;
  vxc_rng r = {7};
  contact c;
  make(&r, SLIDING, 1e9, 1e-2, &c);
  vxc_error e;
  double jac[NY * NY];
  assert_int_equal(vxc_contact_jacobian(&c.p, &c.g, &c.a, &c.b, c.state, NULL, &e), VXC_ERR_ARG);
  assert_non_null(strstr(e.message, "vxc_contact_jacobian: jac"));
  jac[5] = 42;
  c.state[VXC_STATE_SDW] = NAN;
  assert_int_equal(vxc_contact_jacobian(&c.p, &c.g, &c.a, &c.b, c.state, jac, &e),
                   VXC_ERR_NUMERIC);
  assert_non_null(strstr(e.message, "vxc_contact_jacobian: state[4]"));
  assert_true(jac[5] == 42);
  c.state[VXC_STATE_SDW] = 0.5;
  c.g.volume = 0;
  assert_int_equal(vxc_contact_jacobian(&c.p, &c.g, &c.a, &c.b, c.state, jac, NULL), VXC_OK);
  for (int i = 0; i < NY * NY; i++) {
    assert_true(jac[i] == 0);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_against_differences),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
