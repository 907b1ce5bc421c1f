/* bench_warm.c: `vxc bench --warm N`: the cost of a query of a cell pair right after a
 * query of the same pair a little apart on the same vxc_query (warm: what the library
 * keeps from one query to the next serves it) against the same query on a query of its own
 * (cold), on the seeded validation corpus (corpus.h), the octree throughout. Each case's
 * second solid is moved by 1e-4 of the case's size (a translation of that length and a
 * rotation of 1e-4 rad, both along seeded directions). Costs are thread CPU times, the best
 * of 3 runs; the cold one includes making and freeing its vxc_query. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cli.h"
#include "tools/corpus.h"

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The case's second pose moved by 1e-4 of its size (seeded by the case). */
static vxc_pose moved(const cx_case *c, uint64_t seed, int i) {
  uint64_t s = seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1));
  vxc_pose p = c->s[1].pose;
  double d[3], ax[3], n = 0, m = 0;
  for (int k = 0; k < 3; k++) {
    d[k] = cx_uni(&s) - 0.5;
    ax[k] = cx_uni(&s) - 0.5;
    n += d[k] * d[k];
    m += ax[k] * ax[k];
  }
  double step = 1e-4 * c->size, ang = 1e-4;
  for (int k = 0; k < 3; k++) {
    p.p[k] += step * d[k] / sqrt(n);
  }
  double dq[4] = {cos(ang / 2), 0, 0, 0}, q[4];
  for (int k = 0; k < 3; k++) {
    dq[1 + k] = sin(ang / 2) * ax[k] / sqrt(m);
  }
  cx_qmul(dq, p.q, q);
  memcpy(p.q, q, sizeof q);
  return p;
}

/* CPU ms of a query of the case at pose_b, the best of 3: warm, each run on q right after
 * a query of the case's own pose; cold, each on a vxc_query of its own (made and freed in
 * the time). *v gets the volume; -1 on failure. */
static double timed(vxc_query *q, const cx_case *c, const vxc_solid *a, const vxc_solid *b,
                    const vxc_pose *pb, const vxc_query_options *o, int warm, double *v) {
  double best = HUGE_VAL;
  for (int k = 0; k < 3; k++) {
    vxc_metrics m;
    if (warm && vxc_query_run(q, a, &c->s[0].pose, b, &c->s[1].pose, o, NULL, NULL, &m, NULL) < 0) {
      return -1;
    }
    double t0 = bench_cpu_ms();
    vxc_query *own = NULL;
    if (!warm && vxc_query_create(NULL, &own, NULL) != VXC_OK) {
      return -1;
    }
    vxc_status st = vxc_query_run(warm ? q : own, a, &c->s[0].pose, b, pb, o, NULL, NULL, &m, NULL);
    *v = m.volume;
    vxc_query_free(own);
    double t = bench_cpu_ms() - t0;
    if (st < 0) {
      return -1;
    }
    best = fmin(best, t);
    if (t > 50) {
      break; /* a slow query: one run is enough */
    }
  }
  return best;
}

#define NRULE 2

static const double warm_rtol[NRULE] = {1e-3, 1e-4};

int bench_warm(int n, unsigned long long seed) {
  double *store = calloc((size_t)NRULE * 3 * (size_t)n, sizeof(double));
  vxc_query *q = NULL;
  if (!store || cx_mesh_init() != 0 || vxc_query_create(NULL, &q, NULL) != VXC_OK) {
    free(store);
    cx_mesh_free();
    return cli_lib_error(NULL, VXC_ERR_NOMEM);
  }
  int cnt[NRULE] = {0}, rc = CLI_OK;
  double dev[NRULE] = {0};
  for (int i = 0; i < n && rc == CLI_OK; i++) {
    cx_case c;
    cx_make(seed, i, &c);
    vxc_solid *a, *b;
    if (cx_solids(&c, &a, &b, NULL) != VXC_OK) {
      rc = cli_lib_error(NULL, VXC_ERR_NOMEM);
      break;
    }
    vxc_pose pb = moved(&c, seed, i);
    for (int r = 0; r < NRULE; r++) {
      vxc_query_options o;
      vxc_query_options_default(&o);
      o.closed_form = 0; /* the octree is what is measured */
      o.rtol = warm_rtol[r];
      double vc = 0, vw = 0;
      double cold = timed(q, &c, a, b, &pb, &o, 0, &vc);
      double warm = timed(q, &c, a, b, &pb, &o, 1, &vw);
      if (cold < 0 || warm < 0) {
        rc = cli_lib_error(NULL, VXC_ERR_NOMEM);
        break;
      }
      if (!(vc > 0)) {
        continue; /* moved apart */
      }
      double *x = store + (size_t)r * 3 * (size_t)n;
      x[cnt[r]] = cold;
      x[n + cnt[r]] = warm;
      x[2 * n + cnt[r]] = warm / cold;
      dev[r] = fmax(dev[r], fabs(vw - vc) / vc);
      cnt[r]++;
    }
    vxc_solid_free(a);
    vxc_solid_free(b);
  }
  if (rc == CLI_OK) {
    printf("vxc bench --warm: %d cases (seed %llu), the second solid moved by 1e-4 of the "
           "case's size; CPU ms of a cold query (on a vxc_query of its own) and of a warm one "
           "(on the vxc_query that measured the unmoved pose just before), the octree "
           "throughout; ratio: warm over cold, per case; |dV|: the largest relative "
           "difference of their volumes\n\n",
           n, seed);
    printf("%-10s %5s %9s %9s %9s %9s %9s %9s %9s\n", "rule", "cases", "cold50", "cold max",
           "warm50", "warm max", "ratio50", "ratio max", "|dV|");
    for (int r = 0; r < NRULE; r++) {
      double *x = store + (size_t)r * 3 * (size_t)n;
      int m = cnt[r];
      if (m == 0) {
        continue;
      }
      for (int k = 0; k < 3; k++) {
        qsort(x + (size_t)k * (size_t)n, (size_t)m, sizeof *x, cmp_d);
      }
      printf("rtol %-5.0e %5d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.2e\n", warm_rtol[r], m,
             x[m / 2], x[m - 1], x[n + m / 2], x[n + m - 1], x[2 * n + m / 2],
             x[2 * n + m - 1], dev[r]);
    }
  }
  vxc_query_free(q);
  cx_mesh_free();
  free(store);
  return rc;
}
