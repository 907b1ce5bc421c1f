/* bench_corpus.c: `vxc bench --corpus N`: the query rules on the seeded validation corpus
 * (corpus.h) against reference volumes, and their cost against the oracle: the fastest
 * fixed leaf that reaches the same actual error, found by halving the leaf. Costs are
 * thread CPU times (the best of 3 runs), so that a shared machine's other loads weigh
 * less; the ratios compare queries timed in the same process. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cli.h"
#include "tools/corpus.h"

double bench_cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* One run of a rule on a case: its relative error, whether its bracket holds the
 * reference, capped, and its best CPU time of 3 (ms). */
typedef struct run {
  int ok;
  double err, ms, bracket, h; /* bracket: (hi - lo) / V */
  int holds, capped;
} run;

static run measure(vxc_query *q, const cx_case *c, const vxc_solid *a, const vxc_solid *b,
                   const vxc_query_options *o, double V, double ref_slack) {
  run r = {0};
  r.ms = HUGE_VAL;
  for (int k = 0; k < 3; k++) {
    vxc_metrics m;
    double t0 = bench_cpu_ms();
    vxc_status st = vxc_query_run(q, a, &c->s[0].pose, b, &c->s[1].pose, o, NULL, NULL, &m, NULL);
    double t = bench_cpu_ms() - t0;
    if (st != VXC_OK && st != VXC_NO_CONTACT) {
      return r;
    }
    r.ms = fmin(r.ms, t);
    double lo = 0, hi = 0;
    for (int i = 0; i < m.npair; i++) {
      lo += m.pair[i].volume_lo;
      hi += m.pair[i].volume_hi;
    }
    r.err = fabs(m.volume - V) / V;
    r.bracket = (hi - lo) / V;
    r.holds = lo <= V * (1 + ref_slack) && V * (1 - ref_slack) <= hi;
    r.capped = m.capped;
    if (t > 50) {
      break; /* a slow query: one run is enough */
    }
  }
  r.ok = 1;
  return r;
}

/* The oracle: the fixed leaf, halved from the smaller solid's radius, until its error is at
 * most `target`; its CPU time, or a lower bound (*reached 0) when the leaves got slower
 * than `budget` ms first. */
static double oracle(vxc_query *q, const cx_case *c, const vxc_solid *a, const vxc_solid *b,
                     double V, double target, double budget, int *reached, run *best) {
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.closed_form = 0; /* the octree is what is measured */
  o.rtol = 0;
  double h = fmin(c->s[0].radius, c->s[1].radius), ms = 0;
  *reached = 0;
  for (int k = 0; k < 40; k++, h /= 2) {
    o.voxel = h;
    run r = measure(q, c, a, b, &o, V, 0);
    r.h = h;
    if (!r.ok) {
      return ms;
    }
    ms = r.ms;
    if (best) {
      *best = r;
    }
    if (r.err <= target && !r.capped) {
      *reached = 1;
      return ms;
    }
    if (ms > budget) {
      return ms;
    }
  }
  return ms;
}

#define NRULE 3 /* rtol 1e-3, rtol 1e-4 (error estimate), certified 1e-3 */

typedef struct tally {
  int n, within, within3, holds, capped;
  double worst;
  double *ratio, *ms; /* per case */
} tally;

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double quantile(double *x, int n, double p) {
  if (n == 0) {
    return NAN;
  }
  qsort(x, (size_t)n, sizeof x[0], cmp_d);
  return x[(int)floor(p * (n - 1) + 0.5)];
}

/* Gives t room for cap cases from the pool at *next. */
static void tally_slots(tally *t, int cap, double **next) {
  t->ratio = *next;
  t->ms = *next + cap;
  *next += 2 * (size_t)cap;
}

static void tally_add(tally *t, const run *r, double rtol, double ratio) {
  t->within += r->err <= rtol;
  t->within3 += r->err <= 3 * rtol;
  t->holds += r->holds;
  t->capped += r->capped;
  t->worst = fmax(t->worst, r->err);
  t->ratio[t->n] = ratio;
  t->ms[t->n++] = r->ms;
}

static void tally_print(const char *family, const char *rule, tally *t) {
  if (t->n == 0) {
    return;
  }
  printf("%-16s %-14s %5d %7.1f %7.1f %9.2e %7.1f %6d %7.2f %7.2f %8.3f %8.2f\n", family, rule,
         t->n, 100.0 * t->within / t->n, 100.0 * t->within3 / t->n, t->worst,
         100.0 * t->holds / t->n, t->capped, quantile(t->ratio, t->n, 0.5),
         quantile(t->ratio, t->n, 0.95), quantile(t->ms, t->n, 0.5), quantile(t->ms, t->n, 1));
}

/* The reference of a case: its closed form, else the chord quadrature; *slack its relative
 * accuracy (for the bracket check). */
static double reference(const cx_case *c, double *slack) {
  double V = cx_closed_form(c);
  *slack = 1e-9;
  if (isnan(V)) {
    V = cx_reference(c, CX_REF_RTOL, NULL);
    *slack = CX_REF_SLACK;
  }
  return V;
}

static const double rule_rtol[NRULE] = {1e-3, 1e-4, 1e-3};
static const char *const rule_name[NRULE] = {"rtol 1e-3", "rtol 1e-4", "certified 1e-3"};

/* Rule k's options: the octree (the closed forms off: it is what is measured). */
static void rule_options(int k, vxc_query_options *o) {
  vxc_query_options_default(o);
  o->closed_form = 0;
  o->rtol = rule_rtol[k];
  o->certified = k == 2;
}

/* The cases the library's default query (fast paths on) measures in closed form or by
 * quadrature, every pair of them, and the worst relative error of those against the
 * reference. */
typedef struct fast_tally {
  int n;
  double worst;
} fast_tally;

static void fast_path(vxc_query *q, const cx_case *c, const vxc_solid *a, const vxc_solid *b,
                      double V, fast_tally *ft) {
  vxc_metrics m;
  if (vxc_query_run(q, a, &c->s[0].pose, b, &c->s[1].pose, NULL, NULL, NULL, &m, NULL) != VXC_OK) {
    return;
  }
  int all = m.npair > 0;
  for (int i = 0; i < m.npair; i++) {
    all &= m.pair[i].closed_form != 0;
  }
  if (all) {
    ft->n++;
    ft->worst = fmax(ft->worst, fabs(m.volume - V) / V);
  }
}

/* Runs case i into the tallies of its family and of the whole corpus (the octree, closed
 * forms off); *ft tallies the cases the fast paths would take. Returns 0, 1 when it has no
 * reference, -1 on failure. */
static int corpus_case(vxc_query *q, uint64_t seed, int i, tally (*fam)[NRULE], tally *all,
                       fast_tally *ft) {
  cx_case c;
  cx_make(seed, i, &c);
  double slack, V = reference(&c, &slack);
  if (!(V > 0)) {
    return 1;
  }
  vxc_solid *a, *b;
  if (cx_solids(&c, &a, &b, NULL) != VXC_OK) {
    return -1;
  }
  fast_path(q, &c, a, b, V, ft);
  for (int k = 0; k < NRULE; k++) {
    vxc_query_options o;
    rule_options(k, &o);
    run r = measure(q, &c, a, b, &o, V, slack);
    if (!r.ok) {
      vxc_solid_free(a);
      vxc_solid_free(b);
      return -1;
    }
    /* the certified rule's actual error is far below its bracket: its oracle reaches rtol */
    double target = o.certified ? o.rtol : fmax(r.err, 1e-12);
    int reached;
    double ratio = r.ms / oracle(q, &c, a, b, V, target, 20 * r.ms, &reached, NULL);
    tally_add(&fam[c.family][k], &r, rule_rtol[k], ratio);
    tally_add(&all[k], &r, rule_rtol[k], ratio);
  }
  vxc_solid_free(a);
  vxc_solid_free(b);
  return 0;
}

int bench_corpus(int n, unsigned long long seed) {
  tally fam[CX_FAMILIES][NRULE], all[NRULE];
  memset(fam, 0, sizeof fam);
  memset(all, 0, sizeof all);
  int per_family = n / CX_FAMILIES + 1; /* case i is of family i % CX_FAMILIES */
  size_t slots = (size_t)2 * NRULE * ((size_t)n + (size_t)CX_FAMILIES * (size_t)per_family);
  double *store = calloc(slots, sizeof(double)), *next = store;
  vxc_query *q = NULL;
  if (!store || cx_mesh_init() != 0 || vxc_query_create(NULL, &q, NULL) != VXC_OK) {
    free(store);
    cx_mesh_free();
    return cli_lib_error(NULL, VXC_ERR_NOMEM);
  }
  for (int k = 0; k < NRULE; k++) {
    tally_slots(&all[k], n, &next);
    for (int f = 0; f < CX_FAMILIES; f++) {
      tally_slots(&fam[f][k], per_family, &next);
    }
  }
  int missing = 0, rc = CLI_OK;
  fast_tally ft = {0, 0};
  for (int i = 0; i < n && rc == CLI_OK; i++) {
    int r = corpus_case(q, seed, i, fam, all, &ft);
    missing += r == 1;
    rc = r < 0 ? cli_lib_error(NULL, VXC_ERR_NOMEM) : CLI_OK;
  }
  printf(
      "vxc bench --corpus: %d cases (seed %llu), %d without a reference; errors relative to "
      "the reference V; cost = CPU time over the oracle's (the fastest fixed leaf reaching "
      "the same error; for the certified rule, reaching rtol); the octree throughout (%d of "
      "the cases are caps, lenses or balls against cylinders, which the library measures in "
      "closed form or by quadrature by default, their worst error %.2g)\n\n",
      n, (unsigned long long)seed, missing, ft.n, ft.worst);
  printf("%-16s %-14s %5s %7s %7s %9s %7s %6s %7s %7s %8s %8s\n", "family", "rule", "cases",
         "%<=tol", "%<=3tol", "worst", "%holds", "capped", "cost50", "cost95", "ms50", "ms max");
  for (int f = 0; f < CX_FAMILIES; f++) {
    cx_case c;
    cx_make(seed, f, &c);
    for (int k = 0; k < NRULE; k++) {
      tally_print(c.name, rule_name[k], &fam[f][k]);
    }
  }
  for (int k = 0; k < NRULE; k++) {
    tally_print("all", rule_name[k], &all[k]);
  }
  vxc_query_free(q);
  cx_mesh_free();
  free(store);
  return rc;
}

/* ---- one line a case ------------------------------------------------------------------ */

/* Case i's line of `--list`: its family, pose, size and depth, then each rule's CPU ms and
 * relative error (no oracle). Returns 0, 1 when it has no reference, -1 on failure. */
static int list_case(vxc_query *q, uint64_t seed, int i) {
  cx_case c;
  cx_make(seed, i, &c);
  double slack, V = reference(&c, &slack);
  if (!(V > 0)) {
    printf("%6d %-16s no reference\n", i, c.name);
    return 1;
  }
  vxc_solid *a, *b;
  if (cx_solids(&c, &a, &b, NULL) != VXC_OK) {
    return -1;
  }
  printf("%6d %-16s %-7s %9.3e %9.3e", i, c.name, c.aligned ? "aligned" : "generic", c.size,
         c.depth);
  int rc = 0;
  for (int k = 0; k < NRULE && rc == 0; k++) {
    vxc_query_options o;
    rule_options(k, &o);
    run r = measure(q, &c, a, b, &o, V, slack);
    rc = r.ok ? 0 : -1;
    printf(" %9.3f %9.2e%s", r.ms, r.err, r.capped ? "c" : " ");
  }
  printf("\n");
  vxc_solid_free(a);
  vxc_solid_free(b);
  return rc;
}

int bench_corpus_list(int n, int only, unsigned long long seed) {
  vxc_query *q = NULL;
  if (cx_mesh_init() != 0 || vxc_query_create(NULL, &q, NULL) != VXC_OK) {
    cx_mesh_free();
    return cli_lib_error(NULL, VXC_ERR_NOMEM);
  }
  printf("%6s %-16s %-7s %9s %9s", "case", "family", "pose", "size", "depth");
  for (int k = 0; k < NRULE; k++) {
    printf(" %9s %10s", "ms", rule_name[k]);
  }
  printf("\n");
  int rc = CLI_OK;
  for (int i = only >= 0 ? only : 0; i < (only >= 0 ? only + 1 : n) && rc == CLI_OK; i++) {
    rc = list_case(q, seed, i) < 0 ? cli_lib_error(NULL, VXC_ERR_NOMEM) : CLI_OK;
  }
  vxc_query_free(q);
  cx_mesh_free();
  return rc;
}

/* ---- the peer set ------------------------------------------------------------------------ */

static void peer_row(const char *name, const char *rule, const run *r, double oracle_ms) {
  printf("%-34s %-15s %9.3f %9.2e %9.2e %6d %7.2f\n", name, rule, r->ms, r->err, r->bracket,
         r->capped, r->ms / oracle_ms);
}

/* One peer case: the oracle's fixed leaf for rtol 1e-3, then the two rules. */
static int peer_case(vxc_query *q, int i) {
  cx_case c;
  cx_peer(i, &c);
  double V = cx_closed_form(&c);
  vxc_solid *a, *b;
  if (!(V > 0) || cx_solids(&c, &a, &b, NULL) != VXC_OK) {
    return -1;
  }
  run fixed = {0};
  int reached;
  double om = oracle(q, &c, a, b, V, 1e-3, 1e3, &reached, &fixed);
  char rule[32];
  snprintf(rule, sizeof rule, "%sleaf %.3g mm", reached ? "" : "~", 1e3 * fixed.h);
  peer_row(c.name, rule, &fixed, om);
  for (int k = 0; k < 2; k++) {
    vxc_query_options o;
    vxc_query_options_default(&o);
    o.closed_form = 0; /* the octree is what is measured */
    o.rtol = 1e-3;
    o.certified = k;
    run r = measure(q, &c, a, b, &o, V, 1e-9);
    peer_row(c.name, k ? "certified 1e-3" : "rtol 1e-3", &r, om);
  }
  vxc_solid_free(a);
  vxc_solid_free(b);
  return 0;
}

int bench_peer(void) {
  vxc_query *q = NULL;
  if (cx_mesh_init() != 0 || vxc_query_create(NULL, &q, NULL) != VXC_OK) {
    cx_mesh_free();
    return cli_lib_error(NULL, VXC_ERR_NOMEM);
  }
  printf(
      "vxc bench --peer: one thread, CPU ms (best of 3); error and bracket relative to the "
      "closed form; cost over the largest fixed leaf reaching 1e-3\n\n");
  printf("%-34s %-15s %9s %9s %9s %6s %7s\n", "case", "rule", "ms", "error", "bracket", "capped",
         "cost");
  int rc = CLI_OK;
  for (int i = 0; i < CX_PEERS && rc == CLI_OK; i++) {
    rc = peer_case(q, i) == 0 ? CLI_OK : cli_lib_error(NULL, VXC_ERR_NOMEM);
  }
  vxc_query_free(q);
  cx_mesh_free();
  return rc;
}
