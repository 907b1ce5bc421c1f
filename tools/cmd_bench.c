/* cmd_bench.c: `vxc bench`: the speed and accuracy of the voxel engine on a fixed suite
 * of cases with exact answers, against a uniform-grid baseline run in the same process.
 *
 * Every figure is a ratio or an error against a closed form measured in this run, because
 * the machines are shared and noisy: times are medians of repeats, and the baseline's and
 * the two-thread times are taken right next to the case they are compared with.
 *
 * Exact references: the volume, centroid and inertia of a spherical cap come from
 * integrating its circular slices in z with 3-point Gauss-Legendre quadrature, which is
 * exact for these polynomial integrands (degree <= 5); a lens is two caps.
 *
 * Mesh cases (tessellated spheres built in memory by mesh_gen.h): a faceted sphere is not a
 * sphere, so their reference is the exact region of the polyhedra, by the divergence
 * theorem: the region's boundary is made of mesh triangles clipped to the other solid, plus
 * faces lying on a plane through the origin of the sums (a cap's flat face) that weigh
 * nothing; the volume and moments are sums over the clipped triangles of the signed
 * tetrahedra they make with that origin. Two convex meshes: the boundary of their
 * intersection is each one's triangles clipped by the other's face planes. The smooth
 * spheres' closed forms are printed next to them, to show the tessellation's own share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cli.h"
#include "tools/mesh_gen.h"

/* Exact region moments: volume, centroid, inertia about the centroid (unit density). */
typedef struct exact {
  int have; /* 0: no closed form (times only) */
  double volume;
  double centroid[3];
  double inertia[9];
  int have_j; /* 1 when inertia is known */
} exact;

/* Raw moments about the origin accumulated from slices: m0, m1 (z only: axisymmetric
 * about z), and the integrals of x^2 (= y^2) and z^2. */
typedef struct slices {
  double m0, mz, mxx, mzz;
} slices;

/* Adds the disc slices of the sphere x^2 + y^2 + (z - zc)^2 <= R^2 for z in [z0, z1]. */
static void add_sphere_slices(slices *s, double R, double zc, double z0, double z1) {
  static const double gx[3] = {-0.7745966692414834, 0, 0.7745966692414834};
  static const double gw[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
  double half = 0.5 * (z1 - z0), mid = 0.5 * (z1 + z0);
  for (int i = 0; i < 3; i++) {
    double z = mid + half * gx[i], w = gw[i] * half;
    double r2 = R * R - (z - zc) * (z - zc); /* disc area pi r2, int x^2 over it pi r2^2/4 */
    s->m0 += w * M_PI * r2;
    s->mz += w * M_PI * r2 * z;
    s->mxx += w * M_PI * r2 * r2 / 4;
    s->mzz += w * M_PI * r2 * z * z;
  }
}


static void slices_to_exact(const slices *s, exact *e) {
  memset(e, 0, sizeof *e);
  e->have = e->have_j = 1;
  e->volume = s->m0;
  double zbar = s->mz / s->m0;
  e->centroid[2] = zbar;
  double ixx = s->mxx, izz = s->mzz - s->m0 * zbar * zbar; /* central: int x^2, int z'^2 */
  e->inertia[0] = ixx + izz;                               /* int (y^2 + z^2) */
  e->inertia[4] = ixx + izz;
  e->inertia[8] = 2 * ixx; /* int (x^2 + y^2) */
}


/* One benchmark case: two solids in given poses and its exact answer. */
typedef struct bench_case {
  const char *name;
  const char *model_a, *model_b;
  const mg_mesh *mesh_a; /* when not NULL, solid A is this mesh (model_a unused) */
  const mg_mesh *mesh_b; /* the same for B */
  vxc_pose pose_a, pose_b;
  exact ex;
  double smooth_volume; /* mesh cases: the smooth spheres' volume (0: none) */
  double targets[2];    /* volume errors the leaf-size sweep aims at (0: unused) */
  double rtol[2];       /* rtol settings to run, by both rules (0: unused) */
  double h0;            /* largest leaf edge of the sweep, m */
  double grid_cubes;    /* most cubes the refined grid baseline may use */
} bench_case;

static const char *BALL = "(solid ball (cell c (sphere 0.1)))";
static const char *GROUND = "(solid ground (cell c (box 1 1 0.2) (pose (translate 0 0 -0.1))))";


/* ---- exact moments of polyhedral regions (mesh_gen.h) --------------------------------- */

static void moments_to_exact(const mg_moments *m, exact *e) {
  memset(e, 0, sizeof *e);
  e->have = e->have_j = 1;
  e->volume = m->m0;
  mg_moments_inertia(m, e->centroid, e->inertia);
}

/* Exact moments of mesh g translated by t, cut to z <= 0. Returns 0 or -1. */
static int exact_mesh_cap(const mg_mesh *g, const double t[3], exact *e) {
  mg_moments m;
  if (mg_cap_moments(g, t, &m) != 0) {
    return -1;
  }
  moments_to_exact(&m, e);
  return 0;
}

/* Exact moments of the intersection of convex meshes ga, gb translated by ta, tb. */
static int exact_mesh_lens(const mg_mesh *ga, const double ta[3], const mg_mesh *gb,
                           const double tb[3], exact *e) {
  mg_moments m;
  if (mg_convex_meet_moments(ga, ta, gb, tb, &m) != 0) {
    return -1;
  }
  moments_to_exact(&m, e);
  return 0;
}


/* The meshes of the mesh cases (built once, by make_mesh_cases). */
static mg_mesh mesh_ball100k, mesh_ball100k_pole, mesh_ball20k_a, mesh_ball20k_b;

static void free_meshes(void) {
  mg_free(&mesh_ball100k);
  mg_free(&mesh_ball100k_pole);
  mg_free(&mesh_ball20k_a);
  mg_free(&mesh_ball20k_b);
}

/* Appends the mesh cases to c[*n..]. Returns 0, or -1 (memory). */
static int make_mesh_cases(bench_case *c, int *n) {
  /* a 100,000-triangle uv sphere (250 x 201 steps), R 0.1 m, 1 mm into the ground (its
     lowest vertex at z = -1 mm): turned (x, y, z) -> (x, -z, y) so that its equator, where
     the quads are even, meets the ground; then the same sphere pole down, where 250
     slivers meet at the lowest vertex (a tessellation's worst case) */
  const double R = 0.1, h = 1e-3;
  if (mg_uvsphere(&mesh_ball100k, R, 250, 201) != 0 ||
      mg_uvsphere(&mesh_ball100k_pole, R, 250, 201) != 0) {
    return -1;
  }
  double zmin = HUGE_VAL;
  for (int i = 0; i < mesh_ball100k.nv; i++) {
    double *v = mesh_ball100k.v + 3 * i, y = v[1];
    v[1] = -v[2];
    v[2] = y;
    zmin = fmin(zmin, y);
  }
  for (int k = 0; k < 2; k++) {
    bench_case *b = &c[(*n)++];
    memset(b, 0, sizeof *b);
    b->name = k == 0 ? "mesh cap 1 mm" : "mesh cap pole";
    b->mesh_a = k == 0 ? &mesh_ball100k : &mesh_ball100k_pole;
    b->model_b = GROUND;
    b->pose_a = vxc_pose_identity();
    b->pose_a.p[2] = k == 0 ? -zmin - h : R - h;
    b->pose_b = vxc_pose_identity();
    if (exact_mesh_cap(b->mesh_a, b->pose_a.p, &b->ex) != 0) {
      return -1;
    }
    b->smooth_volume = M_PI * h * h * (R - h / 3);
    b->targets[0] = 1e-3;
    b->h0 = 0.032;
    b->grid_cubes = 2e6;
  }
  /* two 20,000-triangle uv spheres (100 x 101 steps), R 0.1 and 0.06 m, centres along x
     0.157 m apart (3 mm of overlap between the smooth spheres), equator to equator */
  const double r1 = 0.1, r2 = 0.06, d = r1 + r2 - 3e-3;
  if (mg_uvsphere(&mesh_ball20k_a, r1, 100, 101) != 0 ||
      mg_uvsphere(&mesh_ball20k_b, r2, 100, 101) != 0) {
    return -1;
  }
  bench_case *b = &c[(*n)++];
  memset(b, 0, sizeof *b);
  b->name = "mesh lens";
  b->mesh_a = &mesh_ball20k_a;
  b->mesh_b = &mesh_ball20k_b;
  b->pose_a = vxc_pose_identity();
  b->pose_b = vxc_pose_identity();
  b->pose_b.p[0] = d;
  if (exact_mesh_lens(b->mesh_a, b->pose_a.p, b->mesh_b, b->pose_b.p, &b->ex) != 0) {
    return -1;
  }
  /* the smooth lens: two caps of heights h1, h2 */
  double xp = (d * d + r1 * r1 - r2 * r2) / (2 * d), h1 = r1 - xp, h2 = r2 - (d - xp);
  b->smooth_volume = M_PI * h1 * h1 * (r1 - h1 / 3) + M_PI * h2 * h2 * (r2 - h2 / 3);
  b->targets[0] = 1e-3;
  b->h0 = 0.032;
  b->grid_cubes = 2e6;
  return 0;
}


static void make_cases(bench_case *c, int *n) {
  int k = 0;
  /* sphere R = 0.1 pressed 1 mm and 25 um into the ground (the 2 kg ball at rest at k_v = 1e11) */
  const double depths[2] = {1e-3, 25e-6};
  const char *names[2] = {"cap 1 mm", "cap 25 um"};
  for (int i = 0; i < 2; i++) {
    double R = 0.1, h = depths[i];
    bench_case *b = &c[k++];
    memset(b, 0, sizeof *b);
    b->name = names[i];
    b->model_a = BALL;
    b->model_b = GROUND;
    b->pose_a = vxc_pose_identity();
    b->pose_a.p[2] = R - h;
    b->pose_b = vxc_pose_identity();
    slices s = {0, 0, 0, 0};
    add_sphere_slices(&s, R, R - h, -h, 0);
    slices_to_exact(&s, &b->ex);
    b->targets[0] = 1e-3;
    b->targets[1] = 1e-5;
    b->rtol[0] = 1e-3;
    b->rtol[1] = i == 0 ? 1e-5 : 0;
    b->h0 = 0.032;
    b->grid_cubes = 3e8;
  }
  /* a lens: spheres of 0.1 and 0.06 m with centres 0.15 m apart along z */
  {
    double r1 = 0.1, r2 = 0.06, d = 0.15;
    double zp = (d * d + r1 * r1 - r2 * r2) / (2 * d); /* plane of the lens' rim */
    bench_case *b = &c[k++];
    memset(b, 0, sizeof *b);
    b->name = "lens";
    b->model_a = BALL;
    b->model_b = "(solid small (cell c (sphere 0.06)))";
    b->pose_a = vxc_pose_identity();
    b->pose_b = vxc_pose_identity();
    b->pose_b.p[2] = d;
    slices s = {0, 0, 0, 0};
    add_sphere_slices(&s, r2, d, d - r2, zp);
    add_sphere_slices(&s, r1, 0, zp, r1);
    slices_to_exact(&s, &b->ex);
    b->targets[0] = 1e-3;
    b->targets[1] = 1e-5;
    b->rtol[0] = 1e-3;
    b->rtol[1] = 1e-5;
    b->h0 = 0.032;
    b->grid_cubes = 3e8;
  }
  /* a cylinder R 0.05 m, 0.3 m long, lying 2 mm deep: a circular-segment prism (volume) */
  {
    double R = 0.05, L = 0.3, h = 2e-3;
    bench_case *b = &c[k++];
    memset(b, 0, sizeof *b);
    b->name = "cylinder 2 mm";
    b->model_a = "(solid cyl (cell c (move (rotate y 90) (cylinder 0.05)) (slab x -0.15 0.15)))";
    b->model_b = GROUND;
    b->pose_a = vxc_pose_identity();
    b->pose_a.p[2] = R - h;
    b->pose_b = vxc_pose_identity();
    b->ex.have = 1;
    b->ex.volume = L * (R * R * acos((R - h) / R) - (R - h) * sqrt(2 * R * h - h * h));
    b->targets[0] = 1e-3;
    b->targets[1] = 1e-5;
    b->rtol[0] = 1e-3;
    b->h0 = 0.016;
    b->grid_cubes = 3e8;
  }
  *n = k;
}


static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}


static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}


/* 1 when a query ran: it found an overlap or found none. */
static int ran(vxc_status st) {
  return st == VXC_OK || st == VXC_NO_CONTACT;
}


/* Median wall time (ms) of repeated pair queries, at least 3 runs and about budget_ms. */
static vxc_status timed_pair(vxc_query *q, const vxc_solid *a, const vxc_pose *pa,
                             const vxc_solid *b, const vxc_pose *pb, const vxc_query_options *o,
                             double grid_h, double budget_ms, vxc_pair_metrics *out,
                             double *median_ms) {
  double t[201];
  int n = 0;
  double start = now_ms();
  vxc_status st = VXC_OK;
  while (n < 201 && (n < 3 || now_ms() - start < budget_ms)) {
    double t0 = now_ms();
    st = vxc_query_pair(q, a, 0, pa, b, 0, pb, o, grid_h, out, NULL);
    t[n++] = now_ms() - t0;
    if (!ran(st)) {
      return st;
    }
  }
  qsort(t, (size_t)n, sizeof t[0], cmp_double);
  *median_ms = t[n / 2];
  return st;
}


static double median_of(double *x, int n) {
  qsort(x, (size_t)n, sizeof x[0], cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}


/* The speed-up of two threads over one: runs of RUN_LEN one-thread queries and RUN_LEN
 * two-thread queries alternate for about budget_ms, at least min_rounds times, each thread
 * count in a workspace of its own; the figure is the median over the rounds of the last
 * one-thread time over the last two-thread time (warm, as the consecutive queries of a task
 * run; neighbours in time share the machine's load). NAN when a query fails or is capped
 * (its work then depends on the memory the workspace holds) or the results differ: they
 * must be bitwise the same whatever the thread count. */
#define RUN_LEN 4
#define RATIO_MAX_ROUNDS 1000
static double thread_speedup(const vxc_solid *a, const vxc_pose *pa, const vxc_solid *b,
                             const vxc_pose *pb, const vxc_query_options *o1, double budget_ms,
                             int min_rounds) {
  vxc_query_options o[2] = {*o1, *o1};
  o[1].threads = 2;
  vxc_query *q[2] = {NULL, NULL};
  vxc_pair_metrics m[2];
  static double ratio[RATIO_MAX_ROUNDS];
  int np = 0;
  int ok = vxc_query_create(NULL, &q[0], NULL) == VXC_OK && vxc_query_create(NULL, &q[1], NULL) == VXC_OK;
  for (int k = 0; ok && k < 2; k++) {
    ok = ran(vxc_query_pair(q[k], a, 0, pa, b, 0, pb, &o[k], 0, &m[k], NULL)) && !m[k].capped;
  }
  double start = now_ms();
  while (ok && np < RATIO_MAX_ROUNDS && (np < min_rounds || now_ms() - start < budget_ms)) {
    double t[2] = {0, 0}; /* the last of each run */
    for (int k = 0; k < 2 * RUN_LEN && ok; k++) {
      int nt = k / RUN_LEN;
      double t0 = now_ms();
      ok = ran(vxc_query_pair(q[nt], a, 0, pa, b, 0, pb, &o[nt], 0, &m[nt], NULL));
      t[nt] = now_ms() - t0;
    }
    ok = ok && t[1] > 0;
    if (ok) {
      ratio[np++] = t[0] / t[1];
    }
  }
  int same = ok && np > 0 && memcmp(&m[0].geom, &m[1].geom, sizeof m[0].geom) == 0 &&
             m[0].volume_lo == m[1].volume_lo && m[0].volume_hi == m[1].volume_hi;
  vxc_query_free(q[0]);
  vxc_query_free(q[1]);
  return same ? median_of(ratio, np) : NAN;
}


/* Relative errors of a result against the exact answer: volume, centroid (distance over
 * V^(1/3)), inertia (Frobenius norm of the difference over that of the exact tensor). */
static void errors(const vxc_pair_metrics *m, const exact *e, double *ev, double *ec, double *ej) {
  *ev = fabs(m->geom.volume - e->volume) / e->volume;
  double dc = 0;
  for (int k = 0; k < 3; k++) {
    dc += pow(m->geom.centroid[k] - e->centroid[k], 2);
  }
  *ec = e->have_j ? sqrt(dc) / cbrt(e->volume) : NAN;
  double dj = 0, nj = 0;
  for (int k = 0; k < 9; k++) {
    dj += pow(m->geom.inertia[k] - e->inertia[k], 2);
    nj += e->inertia[k] * e->inertia[k];
  }
  *ej = e->have_j ? sqrt(dj / nj) : NAN;
}


/* Prints a number right-aligned in a column `width` wide after a blank, or '-' when it is
 * not known (NaN: not measured, or no closed form to compare with). */
static void col(const char *fmt, double x, int width) {
  char buf[40];
  if (isnan(x)) {
    snprintf(buf, sizeof buf, "-");
  } else {
    snprintf(buf, sizeof buf, fmt, x);
  }
  printf(" %*s", width, buf);
}


/* Prints one measured setting with its baseline comparison. */
static void report(const bench_case *b, const vxc_solid *sa, const vxc_solid *sb,
                   const char *setting, const vxc_query_options *o1, double budget, int quick) {
  vxc_pair_metrics m, g;
  double t1, speedup = NAN;
  /* a workspace of its own, so that its peak memory is this setting's */
  vxc_query *q = NULL;
  if (vxc_query_create(NULL, &q, NULL) != VXC_OK ||
      timed_pair(q, sa, &b->pose_a, sb, &b->pose_b, o1, 0, budget, &m, &t1) != VXC_OK) {
    printf("%-14s %-16s failed\n", b->name, setting);
    vxc_query_free(q);
    return;
  }
  double mib = (double)m.workspace_bytes / (1 << 20);
  if (t1 > 1 || !quick) {
    speedup = thread_speedup(sa, &b->pose_a, sb, &b->pose_b, o1, quick ? budget : 20 * budget,
                             quick ? 8 : 25);
  }
  double ev, ec, ej;
  errors(&m, &b->ex, &ev, &ec, &ej);
  /* the baseline at the octree's smallest leaf, then refined by halving until its error is
     no larger than the octree's (equal error), while its grid stays below 3e8 cubes */
  double gerr = NAN, tg = NAN, teq = NAN;
  int reached = 0;
  if (m.leaf_min > 0 && !quick) {
    double h = m.leaf_min;
    /* a coarse grid can miss a shallow contact altogether (no cube centre inside both):
       its error is then 1, and the refinement goes on */
    vxc_status gs = timed_pair(q, sa, &b->pose_a, sb, &b->pose_b, o1, h, budget, &g, &tg);
    if (ran(gs)) {
      gerr = gs == VXC_OK ? fabs(g.geom.volume - b->ex.volume) / b->ex.volume : 1;
      double e = gerr, t = tg;
      while (e > ev && g.boxes < b->grid_cubes / 8) {
        h *= 0.5;
        gs = timed_pair(q, sa, &b->pose_a, sb, &b->pose_b, o1, h, 0, &g, &t);
        if (!ran(gs)) {
          break;
        }
        e = gs == VXC_OK ? fabs(g.geom.volume - b->ex.volume) / b->ex.volume : 1;
      }
      teq = t;
      reached = e <= ev;
    }
  }
  printf("%-14s %-16s", b->name, setting);
  col("%.4g", t1, 9);
  col("%.2e", ev, 9);
  col("%.2e", ec, 9);
  col("%.2e", ej, 9);
  col("%.2e", (m.volume_hi - m.volume_lo) / m.geom.volume, 9);
  col("%.2g", m.leaf_min, 8);
  col("%.0f", (double)m.boxes, 9);
  col("%.2f", mib, 6);
  if (isnan(speedup) && (t1 > 1 || !quick)) {
    printf(" %5s", "x"); /* measured, but capped or the results differed */
  } else {
    col("%.2f", speedup, 5);
  }
  col("%.2e", gerr, 9);
  col("%.3g", tg / t1, 9);
  char eq[32];
  snprintf(eq, sizeof eq, "%s%.3g", reached ? "" : ">", teq / t1);
  printf(" %9s\n", isnan(teq) ? "-" : eq);
  fflush(stdout);
  vxc_query_free(q);
}


/* The largest leaf edge h0 / 2^k whose volume error is at most `target` at it and at the
 * next halving (the error of one grid placement can be lucky). Returns 0 when none is found
 * down to h0 / 2^12. */
static double sweep_h(vxc_query *q, const bench_case *b, const vxc_solid *sa, const vxc_solid *sb,
                      double target) {
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.closed_form = 0; /* the octree is what is measured */
  o.rtol = 0;
  double prev_ok = 0;
  for (int k = 0; k <= 12; k++) {
    o.voxel = b->h0 / (double)(1 << k);
    vxc_pair_metrics m;
    vxc_status st = vxc_query_pair(q, sa, 0, &b->pose_a, sb, 0, &b->pose_b, &o, 0, &m, NULL);
    if (!ran(st)) {
      return 0;
    }
    /* a leaf much larger than the contact can miss it (VXC_NO_CONTACT): not ok */
    int ok = st == VXC_OK && fabs(m.geom.volume - b->ex.volume) <= target * b->ex.volume;
    if (ok && prev_ok > 0) {
      return prev_ok;
    }
    prev_ok = ok ? o.voxel : 0;
  }
  return 0;
}


/* Solid A or B of a case: the mesh when given, else the model text. */
static vxc_status make_solid(const char *model, const mg_mesh *g, vxc_solid **out, vxc_error *err) {
  if (g) {
    return vxc_solid_from_mesh(g->v, g->nv, g->t, g->nt, "bench-mesh", NULL, out, err);
  }
  return vxc_solid_parse(model, strlen(model), "bench", NULL, out, err);
}


static int bench_run(int argc, char **argv) {
  int quick = 0, corpus = 0, warm = 0, peer = 0, mesh = 0, json = 0, list = 0, one = -1;
  double seed = 1, variants = 2;
  const char *only = NULL, *report_file = NULL, *datadir = "data";
  for (int i = 1; i < argc; i++) {
    double x;
    if (strcmp(argv[i], "--quick") == 0) {
      quick = 1;
    } else if (strcmp(argv[i], "--peer") == 0) {
      peer = 1;
    } else if (strcmp(argv[i], "--mesh") == 0) {
      mesh = 1;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "--list") == 0) {
      list = 1;
    } else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
      if (cli_parse_double(argv[++i], &x) != 0 || x < 0 || x > 1e6 || x != floor(x)) {
        return cli_usage_error("bench", "--case: expected a whole number from 0 to 1e6, got '%s'",
                               argv[i]);
      }
      one = (int)x;
    } else if (strcmp(argv[i], "--variants") == 0 && i + 1 < argc) {
      if (cli_parse_double(argv[++i], &variants) != 0 || variants < 1 || variants > 100 ||
          variants != floor(variants)) {
        return cli_usage_error("bench", "--variants: expected a whole number from 1 to 100, got '%s'",
                               argv[i]);
      }
    } else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) {
      report_file = argv[++i];
    } else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
      datadir = argv[++i];
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) {
      if (cli_parse_double(argv[++i], &x) != 0 || x < 1 || x > 1e6 || x != floor(x)) {
        return cli_usage_error("bench",
                               "--corpus: expected a whole number of cases from 1 to "
                               "1e6, got '%s'",
                               argv[i]);
      }
      corpus = (int)x;
    } else if (strcmp(argv[i], "--warm") == 0 && i + 1 < argc) {
      if (cli_parse_double(argv[++i], &x) != 0 || x < 1 || x > 1e6 || x != floor(x)) {
        return cli_usage_error("bench",
                               "--warm: expected a whole number of cases from 1 to 1e6, got '%s'",
                               argv[i]);
      }
      warm = (int)x;
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      if (cli_parse_double(argv[++i], &seed) != 0 || seed < 0 || seed > 1e15 ||
          seed != floor(seed)) {
        return cli_usage_error("bench", "--seed: expected a whole number from 0 to 1e15, got '%s'",
                               argv[i]);
      }
    } else {
      return cli_usage_error("bench", "unknown option '%s'", argv[i]);
    }
  }
  if (json && !mesh) {
    return cli_usage_error("bench", "--json: only with --mesh");
  }
  if ((list || one >= 0) && !corpus) {
    return cli_usage_error("bench", "%s: only with --corpus", list ? "--list" : "--case");
  }
  if (report_file) {
    return bench_report(report_file, quick, only, corpus ? corpus : quick ? 100 : 1000,
                        (unsigned long long)seed, datadir);
  }
  if (peer) {
    return bench_peer();
  }
  if (mesh) {
    bench_mesh_opts mo = {quick, json, (int)variants, (unsigned long long)seed, only};
    return bench_mesh(&mo);
  }
  if (warm) {
    return bench_warm(warm, (unsigned long long)seed);
  }
  if (corpus && (list || one >= 0)) {
    return bench_corpus_list(corpus, one, (unsigned long long)seed);
  }
  if (corpus) {
    return bench_corpus(corpus, (unsigned long long)seed);
  }
  double budget = quick ? 20 : 300; /* ms of repeats per measurement */
  bench_case cases[10];
  int ncase = 0;
  make_cases(cases, &ncase);
  vxc_query *q = NULL;
  if (make_mesh_cases(cases, &ncase) != 0 || vxc_query_create(NULL, &q, NULL) != VXC_OK) {
    free_meshes();
    return cli_lib_error(NULL, VXC_ERR_NOMEM);
  }
  const char *names[10];
  int matched = 0;
  for (int c = 0; c < ncase; c++) {
    names[c] = cases[c].name;
    matched += !only || strstr(cases[c].name, only) != NULL;
  }
  if (!matched) {
    char hint[64];
    vxc_query_free(q);
    free_meshes();
    return cli_usage_error("bench", "--only '%s' matches no case of the table%s", only,
                           cli_hint(only, names, ncase, hint, sizeof hint));
  }
  printf(
      "vxc bench: median ms per query on one thread, errors against closed forms "
      "('vxc bench --help' explains the columns)\n\n");
  printf("%-14s %-16s %9s %9s %9s %9s %9s %8s %9s %6s %5s %9s %9s %9s\n", "case", "setting", "ms",
         "err V", "err p_c", "err J", "bracket", "leaf", "boxes", "MiB", "x2t", "grid err",
         "x grid@h", "x grid@e");
  int rc = CLI_OK;
  for (int c = 0; c < ncase && rc == CLI_OK; c++) {
    bench_case *b = &cases[c];
    if (only && !strstr(b->name, only)) {
      continue;
    }
    vxc_solid *sa = NULL, *sb = NULL;
    vxc_error err;
    vxc_status st = make_solid(b->model_a, b->mesh_a, &sa, &err);
    if (st == VXC_OK) {
      st = make_solid(b->model_b, b->mesh_b, &sb, &err);
    }
    if (st != VXC_OK) {
      rc = cli_lib_error(&err, st);
      vxc_solid_free(sa);
      break;
    }
    for (int t = 0; t < 2; t++) {
      if (b->targets[t] <= 0) {
        continue;
      }
      double h = sweep_h(q, b, sa, sb, b->targets[t]);
      if (h > 0) {
        char setting[32];
        snprintf(setting, sizeof setting, "h=%.2g[%.0e]", h, b->targets[t]);
        vxc_query_options o;
        vxc_query_options_default(&o);
        o.closed_form = 0; /* the octree is what is measured */
        o.rtol = 0;
        o.voxel = h;
        report(b, sa, sb, setting, &o, budget, quick);
      }
    }
    for (int s = 0; s < 4; s++) { /* each rtol by the error estimate, then certified */
      if (b->rtol[s / 2] <= 0 || (quick && s > 0)) { /* --quick: the first rtol alone */
        continue;
      }
      char setting[32];
      snprintf(setting, sizeof setting, "%s=%.0e", s % 2 ? "cert" : "rtol", b->rtol[s / 2]);
      vxc_query_options o;
      vxc_query_options_default(&o);
      o.closed_form = 0; /* the octree is what is measured */
      o.rtol = b->rtol[s / 2];
      o.certified = s % 2;
      report(b, sa, sb, setting, &o, budget, quick);
    }
    if (b->smooth_volume > 0) {
      printf("%-14s (the polyhedra's V %.6e m^3; the smooth spheres' V %.6e m^3)\n", "",
             b->ex.volume, b->smooth_volume);
    }
    vxc_solid_free(sa);
    vxc_solid_free(sb);
  }
  vxc_query_free(q);
  free_meshes();
  return rc;
}


const cli_command cli_cmd_bench = {
    "bench", "speed and accuracy of the voxel engine on cases with exact answers",
    "usage: vxc bench [--quick] [--only TEXT]\n"
    "       vxc bench --corpus N [--seed S] [--list] [--case I]\n"
    "       vxc bench --warm N [--seed S]\n"
    "       vxc bench --peer\n"
    "       vxc bench --mesh [--variants N] [--seed S] [--only TEXT] [--quick] [--json]\n"
    "       vxc bench --report FILE [--quick] [--only TEXT] [--corpus N] [--seed S]\n"
    "                 [--data DIR]\n\n"
    "Runs a fixed suite with exact answers (a sphere 1 mm and 25 um into a plane, a\n"
    "sphere-sphere lens, a cylinder lying on a plane; a 100,000-triangle sphere 1 mm into a\n"
    "plane, equator down and pole down, and two 20,000-triangle spheres overlapping by\n"
    "3 mm, built in memory) at the leaf sizes that reach 1e-3 and 1e-5 relative volume\n"
    "error (a halving sweep; 1e-3 only for meshes) and with both rtol rules (not for\n"
    "meshes). --quick repeats each for 20 ms instead of 300, runs rtol=1e-3 alone of the\n"
    "rtol rules (no rtol=1e-5, no cert= rows), times x2t only where a query takes over\n"
    "1 ms and skips the grid baseline; --only runs the cases whose name contains TEXT\n"
    "(e.g. --only mesh). '-' in a column: not measured (--quick), or no closed form to\n"
    "compare with (the lying cylinder's p_c and J). Columns:\n"
    "  setting   h=H: a fixed leaf edge H (m), the largest whose volume error met the\n"
    "            target in brackets; rtol=R: refine until the error estimate is within\n"
    "            R V; cert=R: until the certified bracket is\n"
    "  ms        median wall time per query, one thread\n"
    "  err       relative errors of V, p_c (distance over V^(1/3)) and J (Frobenius\n"
    "            norm) against the closed form; for meshes, the exact polyhedral region\n"
    "            (the smooth spheres' volume is printed below them)\n"
    "  bracket   relative width of the certified volume bracket\n"
    "  leaf      smallest leaf edge integrated (m)\n"
    "  boxes     boxes classified; MiB: the workspace's peak for that setting\n"
    "  x2t       speed-up of two threads over one: median over alternating runs of the\n"
    "            one-thread time over the two-thread time ('x': capped, or the results\n"
    "            differ)\n"
    "  grid err  volume error of a uniform grid of cubes of the octree's smallest leaf,\n"
    "            classified by their centres; x grid@h: its time over the octree's;\n"
    "            x grid@e: the same with the grid refined to the octree's error ('>': it\n"
    "            did not get there within 3e8 cubes, 2e6 for meshes: a lower bound)\n"
    "--corpus N: the seeded validation corpus (N random contacts over eleven families of\n"
    "shapes, against closed forms or a chord quadrature), per family and rule: the share\n"
    "within rtol and 3 rtol, the worst error, the share of brackets holding the reference,\n"
    "capped queries, and the CPU cost over the oracle (the fastest fixed leaf reaching the\n"
    "same error; for the certified rule, reaching rtol) at the median and 95th percentile.\n"
    "--list: instead, one line a case (family, pose, size, depth, then each rule's CPU ms,\n"
    "best of 3, and relative error; 'c' capped), no oracle; --case I: case I alone.\n"
    "--warm N: the first N cases of the corpus, the second solid moved by 1e-4 of the\n"
    "case's size: CPU ms (best of 3, the octree) of a cold query of the moved pose (on a\n"
    "query workspace of its own) and of a warm one (on the workspace that measured the\n"
    "unmoved pose just before, keeping whatever the library keeps from one query to the\n"
    "next), at rtol 1e-3 and 1e-4: medians, largest, the ratio warm over cold per case\n"
    "(median, largest) and the largest relative difference of V.\n"
    "--peer: six contacts other tools are timed on (spheres 0.1, 1 and 10 mm into a plane,\n"
    "a sphere lens, a finite cylinder lying 1 mm deep, a tilted cube), each by the largest\n"
    "fixed leaf reaching 1e-3 and both rtol 1e-3 rules, in CPU ms.\n"
    "--mesh: the mesh family (tools/README.md, Mesh benchmark): pairs of closed meshes as\n"
    "CAD users bring them (icospheres, a box in a U- and an L-channel, tilted boxes on boxes,\n"
    "tori on boxes and tori, N-gon pegs in N-gon holes, the STEP peg in its hole and the\n"
    "STEP vase on a table), N seeded poses each (default 2; every other one axis-aligned, at\n"
    "scales 0.1 to 10), through vxc at the default rtol and through CGAL's exact\n"
    "corefinement (vxc-bench-cgal, built when configure finds CGAL) and Manifold (node and\n"
    "the npm package manifold-3d, in $VXC_NODE_CACHE, default ~/.cache/vxc-bench) as child\n"
    "processes. Columns: tris (both meshes), ref (how the exact volume is known: 'pieces'\n"
    "a sum of convex intersections, 'cut' a mesh cut by a table's plane, 'cgal'), V ref,\n"
    "each tool's smallest CPU ms of the boolean alone and its relative volume error, cap\n"
    "(vxc capped), vxc/best (vxc's time over the fastest peer's); then how many cases are\n"
    "exact (1e-9, not capped) and meet issue 30's targets (also at most 1/2 of Manifold's\n"
    "and 1/5 of CGAL's time). A missing peer's columns read '-' and the header says why.\n"
    "--json: the same as one object.\n"
    "--report FILE: the performance and validation page (Markdown), stamped with the\n"
    "version, commit, date and machine: the table above, --peer, --corpus N (default\n"
    "1000, --quick 100), --warm over as many cases and the real-time factor of every task file in DIR (default data;\n"
    "each run until its duration or 30 s of CPU, --quick 2 s). FILE appears only when\n"
    "complete.\n\n"
    "Exit status: 0 done, 1 a case could not be built or measured or the report could not\n"
    "be written, 2 a usage error (also --only TEXT matching no case of the table).\n",
    bench_run};
