/* bench_mesh.c: `vxc bench --mesh`: the mesh family (mesh_cases.h) through libvxc at the
 * default rtol, side by side with CGAL's exact corefinement and Manifold (mesh_peers.h) run
 * as child processes on the same meshes and poses written as OBJ files to a temporary
 * folder. Each tool's time is its own smallest CPU time of the boolean (vxc: the query)
 * alone over repeats on one thread; the volume error is relative to the exact polyhedral
 * region: a sum of convex intersections where the parts are unions of convex pieces (no
 * CGAL needed), else CGAL's exact volume. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/mesh_cases.h"
#include "tools/mesh_peers.h"

#ifndef VXC_SRC_DATADIR
#define VXC_SRC_DATADIR ""
#endif

/* Issue 30's targets for every mesh case at the default rtol: exact to TARGET_RTOL, not
 * capped, in at most TARGET_MANIFOLD of Manifold's time and TARGET_CGAL of CGAL's. */
#define TARGET_RTOL 1e-9
#define TARGET_MANIFOLD 0.5
#define TARGET_CGAL 0.2

/* One tool's answer on a case: ok 0 when it did not run (why says so). */
typedef struct tool_run {
  int ok;
  double ms, volume, err; /* err: relative to the reference volume (NAN: none) */
  char why[512];
} tool_run;

typedef struct mesh_row {
  char name[64];
  int triangles;
  const char *ref;        /* "pieces", "cut", "cgal" or "none" */
  double v_ref, c_ref[3]; /* the reference volume and centroid (NAN: none) */
  tool_run vxc, cgal, manifold;
  int capped;
  double err_c; /* vxc's centroid error over V^(1/3) */
  double ratio; /* vxc's time over the fastest peer's */
  int exact;    /* within TARGET_RTOL and not capped */
  int meets;    /* exact, and fast enough against both peers (both ran) */
} mesh_row;

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* ---- the STEP parts, imported --mesh ----------------------------------------------------- */

/* Runs argv quietly (its output to /dev/null); 0 when it exits 0. */
static int run_quiet(char *const argv[]) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open("/dev/null", O_WRONLY);
    dup2(fd, 1);
    dup2(fd, 2);
    execv(argv[0], argv);
    _exit(127);
  }
  int status;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                 WEXITSTATUS(status) == 0
             ? 0
             : -1;
}

/* Imports data/step/PART.step --mesh at `deflection` into DIR and gives the OBJ file it
 * wrote (named in the model file's (mesh "...") primitive). 0, or -1. */
static int import_mesh(const char *importer, const char *datadir, const char *part,
                       const char *deflection, const char *dir, char *obj, size_t len) {
  char step[MP_PATH_MAX], vxm[MP_PATH_MAX], text[4096];
  snprintf(step, sizeof step, "%s/step/%s.step", datadir, part);
  snprintf(vxm, sizeof vxm, "%s/%s-%s.vxm", dir, part, deflection);
  char *argv[] = {(char *)importer, step, "--mesh", "--deflection", (char *)deflection, "-o", vxm,
                  NULL};
  FILE *f = run_quiet(argv) == 0 ? fopen(vxm, "r") : NULL;
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f) {
    fclose(f);
  }
  text[n] = '\0';
  char *s = strstr(text, "(mesh \"");
  char *e = s ? strchr(s + 7, '"') : NULL;
  if (!e) {
    return -1;
  }
  snprintf(obj, len, "%s/%.*s", dir, (int)(e - s - 7), s + 7);
  return 0;
}

/* The inputs of the STEP cases: the vase's OBJ from the data folder, the peg and the hole
 * block imported when vxc-import is there. note gets what is missing. */
static void step_inputs(const char *dir, char (*paths)[MP_PATH_MAX], mc_inputs *in, char *note,
                        size_t len) {
  const char *datadir = getenv("VXC_DATADIR");
  datadir = datadir && *datadir ? datadir : VXC_SRC_DATADIR;
  memset(in, 0, sizeof *in);
  note[0] = '\0';
  snprintf(paths[0], MP_PATH_MAX, "%s/step/vase.obj", datadir);
  if (access(paths[0], R_OK) == 0) {
    in->vase_obj = paths[0];
  } else {
    snprintf(note, len, "no %.4000s (set VXC_DATADIR): the STEP cases are left out", paths[0]);
    return;
  }
  char importer[MP_PATH_MAX];
  if (mp_find_program("vxc-import", importer, sizeof importer) != 0) {
    snprintf(note, len, "vxc-import not built (no OpenCASCADE): the STEP peg is left out");
    return;
  }
  const char *defl[2] = {"1e-4", "1e-5"};
  for (int k = 0; k < 2; k++) {
    if (import_mesh(importer, datadir, "peg", defl[k], dir, paths[1 + 2 * k], MP_PATH_MAX) ||
        import_mesh(importer, datadir, "hole-block", defl[k], dir, paths[2 + 2 * k],
                    MP_PATH_MAX)) {
      snprintf(note, len, "vxc import --mesh failed on data/step: the STEP peg is left out");
      in->peg_obj[0] = in->peg_obj[1] = NULL;
      return;
    }
    in->peg_obj[k] = paths[1 + 2 * k];
    in->hole_obj[k] = paths[2 + 2 * k];
  }
}

/* ---- one case ------------------------------------------------------------------------------ */

/* vxc's smallest CPU time of the query over repeats (at least 3, about budget ms), in a
 * workspace of its own: what a query caps at depends on the memory its workspace holds,
 * which would otherwise depend on the cases run before. */
static vxc_status vxc_measure(const mc_case *c, double budget, mesh_row *r) {
  vxc_solid *s[2] = {NULL, NULL};
  vxc_query *q = NULL;
  vxc_error err;
  snprintf(err.message, sizeof err.message, "out of memory");
  vxc_status st = vxc_query_create(NULL, &q, NULL);
  for (int k = 0; k < 2 && st == VXC_OK; k++) {
    const mg_mesh *g = &c->s[k].mesh;
    st = vxc_solid_from_mesh(g->v, g->nv, g->t, g->nt, k ? "b" : "a", NULL, &s[k], &err);
  }
  double total = 0;
  int runs = 0;
  r->vxc.ms = HUGE_VAL;
  while (st == VXC_OK && runs < 50 && (runs < 3 || total < budget)) {
    vxc_metrics m;
    double t0 = cpu_ms();
    st = vxc_query_run(q, s[0], &c->s[0].pose, s[1], &c->s[1].pose, NULL, NULL, NULL, &m, &err);
    double t = cpu_ms() - t0;
    if (st == VXC_NO_CONTACT) {
      memset(&m, 0, sizeof m);
      st = VXC_OK;
    }
    if (st == VXC_OK) {
      r->vxc.ms = fmin(r->vxc.ms, t);
      r->vxc.volume = m.volume;
      r->capped = m.capped;
      double d = 0;
      for (int k = 0; k < 3; k++) {
        d += pow(m.centroid[k] - r->c_ref[k], 2);
      }
      r->err_c = sqrt(d) / cbrt(r->v_ref);
    }
    total += t;
    runs++;
  }
  vxc_solid_free(s[0]);
  vxc_solid_free(s[1]);
  vxc_query_free(q);
  r->vxc.ok = st == VXC_OK;
  if (!r->vxc.ok) {
    snprintf(r->vxc.why, sizeof r->vxc.why, "%.150s", err.message);
  }
  return st;
}

/* Runs one peer; returns mp_run's status (3: not installed). */
static int peer(const char *prog, const char *script, char path[2][MP_PATH_MAX],
                const mc_case *c, double budget, tool_run *t, mp_result *res) {
  int rc = mp_run(prog, script, path, c, budget, res, t->why, sizeof t->why);
  t->ok = rc == 0;
  t->ms = t->ok ? res->ms : NAN;
  t->volume = t->ok ? res->volume : NAN;
  return rc;
}

static double rel(double v, double ref) {
  return ref > 0 ? fabs(v - ref) / ref : NAN;
}

/* Measures case c into r: the reference, vxc, then the peers. */
static int run_case(const mc_case *c, mp_peers *p, const char *dir,
                    double budget, mesh_row *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", c->name);
  r->triangles = c->s[0].mesh.nt + c->s[1].mesh.nt;
  double J[9];
  int have = mc_reference(c, &r->v_ref, r->c_ref, J);
  if (have < 0) {
    return -1;
  }
  r->ref = have == 0 ? (c->ref == MC_REF_CUT ? "cut" : "pieces") : "none";
  char path[2][MP_PATH_MAX], msg[256];
  mp_result cg, mf;
  if (mp_write(c, dir, "case", path, msg, sizeof msg) != 0) {
    fprintf(stderr, "vxc bench: %s\n", msg);
    return -1;
  }
  r->cgal.ok = r->manifold.ok = 0;
  if (p->cgal[0]) {
    peer(p->cgal, NULL, path, c, budget, &r->cgal, &cg);
  } else {
    snprintf(r->cgal.why, sizeof r->cgal.why, "%s", p->why_cgal);
  }
  if (have == 1 && r->cgal.ok) { /* CGAL's exact region is the reference */
    r->ref = "cgal";
    r->v_ref = cg.volume;
    memcpy(r->c_ref, cg.centroid, sizeof r->c_ref);
  } else if (have == 1) {
    r->v_ref = NAN;
  }
  if (p->node[0] && peer(p->node, p->script, path, c, budget, &r->manifold, &mf) == 3) {
    /* not installed: said once, not asked again */
    snprintf(p->why_manifold, sizeof p->why_manifold, "%s", r->manifold.why);
    p->node[0] = p->script[0] = '\0';
  } else if (!p->node[0]) {
    snprintf(r->manifold.why, sizeof r->manifold.why, "%s", p->why_manifold);
  }
  if (vxc_measure(c, budget, r) != VXC_OK && r->vxc.why[0] == '\0') {
    snprintf(r->vxc.why, sizeof r->vxc.why, "query failed");
  }
  r->vxc.err = rel(r->vxc.volume, r->v_ref);
  r->cgal.err = strcmp(r->ref, "cgal") == 0 ? 0 : rel(r->cgal.volume, r->v_ref);
  r->manifold.err = rel(r->manifold.volume, r->v_ref);
  double best = fmin(r->cgal.ok ? r->cgal.ms : HUGE_VAL, r->manifold.ok ? r->manifold.ms : HUGE_VAL);
  r->ratio = r->vxc.ok && best < HUGE_VAL ? r->vxc.ms / best : NAN;
  r->exact = r->vxc.ok && r->vxc.err <= TARGET_RTOL && !r->capped;
  r->meets = r->exact && r->cgal.ok && r->manifold.ok &&
             r->vxc.ms <= TARGET_MANIFOLD * r->manifold.ms && r->vxc.ms <= TARGET_CGAL * r->cgal.ms;
  for (int k = 0; k < 2; k++) {
    unlink(path[k]);
  }
  return 0;
}

/* ---- output -------------------------------------------------------------------------------- */

static const char *HEAD = "%-28s %6s %-6s %12s %9s %9s %3s %9s %9s %9s %9s %8s\n";

static void cell(const tool_run *t, int err_col) {
  if (!t->ok) {
    printf(" %9s", "-");
    if (err_col) {
      printf(" %9s", "-");
    }
    return;
  }
  printf(" %9.3g", t->ms);
  if (err_col) {
    printf(" %9.2e", t->err);
  }
}

static void print_row(const mesh_row *r) {
  printf("%-28s %6d %-6s %12.6e", r->name, r->triangles, r->ref, r->v_ref);
  cell(&r->vxc, 1);
  printf(" %3s", r->vxc.ok ? (r->capped ? "yes" : "no") : "-");
  cell(&r->cgal, 1);
  cell(&r->manifold, 1);
  printf(" %8.3g\n", r->ratio);
  if (!r->vxc.ok) {
    printf("%-28s vxc failed: %s\n", "", r->vxc.why);
  }
  fflush(stdout);
}

static void json_tool(const char *key, const tool_run *t) {
  printf(", \"%s\": ", key);
  if (!t->ok) {
    printf("{\"skipped\": ");
    cli_json_str(stdout, t->why);
    printf("}");
    return;
  }
  printf("{\"ms\": ");
  cli_json_num(stdout, t->ms);
  printf(", \"volume\": ");
  cli_json_num(stdout, t->volume);
  printf(", \"error\": ");
  cli_json_num(stdout, t->err);
  printf("}");
}

/* The summary over the rows: how many are exact, meet the targets, the median ratio. */
typedef struct summary {
  int n, exact, meets, timed;
  double median_ratio;
} summary;

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static summary summarise(const mesh_row *rows, int n) {
  summary s = {n, 0, 0, 0, NAN};
  double *r = malloc(sizeof(double) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    s.exact += rows[i].exact;
    s.meets += rows[i].meets;
    if (r && isfinite(rows[i].ratio)) {
      r[s.timed++] = rows[i].ratio;
    }
  }
  if (r && s.timed > 0) {
    qsort(r, (size_t)s.timed, sizeof r[0], cmp_d);
    s.median_ratio = s.timed % 2 ? r[s.timed / 2] : 0.5 * (r[s.timed / 2 - 1] + r[s.timed / 2]);
  }
  free(r);
  return s;
}

static void print_summary(const summary *s) {
  printf("\n%d cases: %d exact (within %.0e, not capped), %d meeting issue 30's targets\n"
         "(exact, at most %.2g of Manifold's time and %.2g of CGAL's); ",
         s->n, s->exact, TARGET_RTOL, s->meets, TARGET_MANIFOLD, TARGET_CGAL);
  if (s->timed > 0) {
    printf("vxc/best median %.3g over the %d timed against a peer\n", s->median_ratio, s->timed);
  } else {
    printf("vxc/best: none timed against a peer\n");
  }
}

static void json_rows(const mesh_row *rows, int n, const mp_peers *p, const char *note) {
  printf("{\"peers\": {\"cgal\": ");
  cli_json_str(stdout, p->cgal[0] ? p->cgal : p->why_cgal);
  printf(", \"manifold\": ");
  cli_json_str(stdout, p->script[0] ? p->script : p->why_manifold);
  printf(", \"note\": ");
  cli_json_str(stdout, note);
  printf("}, \"cases\": [");
  for (int i = 0; i < n; i++) {
    const mesh_row *r = &rows[i];
    printf("%s\n  {\"name\": ", i ? "," : "");
    cli_json_str(stdout, r->name);
    printf(", \"triangles\": %d, \"reference\": \"%s\", \"volume_ref\": ", r->triangles, r->ref);
    cli_json_num(stdout, r->v_ref);
    json_tool("vxc", &r->vxc);
    printf(", \"capped\": %s, \"centroid_error\": ", r->capped ? "true" : "false");
    cli_json_num(stdout, r->err_c);
    json_tool("cgal", &r->cgal);
    json_tool("manifold", &r->manifold);
    printf(", \"ratio\": ");
    cli_json_num(stdout, r->ratio);
    printf(", \"exact\": %s, \"meets_targets\": %s}", r->exact ? "true" : "false",
           r->meets ? "true" : "false");
  }
  summary su = summarise(rows, n);
  printf("\n], \"summary\": {\"cases\": %d, \"exact\": %d, \"meets_targets\": %d, "
         "\"timed\": %d, \"median_ratio\": ",
         su.n, su.exact, su.meets, su.timed);
  cli_json_num(stdout, su.median_ratio);
  printf("}}\n");
}

static void peers_note(const mp_peers *p, const char *note) {
  printf("peers: CGAL %s; Manifold %s\n", p->cgal[0] ? p->cgal : p->why_cgal,
         p->node[0] ? p->script : p->why_manifold);
  if (note[0]) {
    printf("note: %s\n", note);
  }
  printf("\n");
  printf(HEAD, "case", "tris", "ref", "V ref [m^3]", "vxc ms", "vxc err", "cap", "CGAL ms",
         "CGAL err", "Mfd ms", "Mfd err", "vxc/best");
}

/* ---- the command ----------------------------------------------------------------------------- */

static int run_all(const bench_mesh_opts *o, const char *dir, mesh_row *rows, int *nrow) {
  mp_peers p;
  mp_find(&p);
  char paths[5][MP_PATH_MAX], note[MP_PATH_MAX + 256], msg[512];
  mc_inputs in;
  step_inputs(dir, paths, &in, note, sizeof note);
  if (!o->json) {
    printf("vxc bench --mesh: seed %llu; one thread, the smallest CPU time of the query or\n"
           "boolean alone over repeats, in ms; errors are relative to the exact polyhedral\n"
           "volume (ref: 'pieces' a sum of convex intersections, 'cut' a mesh cut by a\n"
           "table's plane, 'cgal' CGAL's exact corefinement); vxc at its default rtol\n",
           o->seed);
    peers_note(&p, note);
  }
  int rc = CLI_OK;
  const char *known[64];
  int nknown = 0;
  for (int t = 0; t < mc_templates() && rc == CLI_OK; t++) {
    if (nknown < 64) { /* the template's name, for the hint to --only */
      known[nknown++] = mc_template_name(t);
    }
    for (int v = 0; v < o->variants && rc == CLI_OK; v++) {
      char name[sizeof ((mc_case *)0)->name];
      snprintf(name, sizeof name, "%s #%d", mc_template_name(t), v);
      if (o->only && !strstr(name, o->only)) {
        continue; /* not built: a case's draw depends on (seed, t, v) alone */
      }
      mc_case c;
      int made = mc_make(t, v, o->seed, &in, &c, msg, sizeof msg);
      if (made == 1) {
        break;
      }
      if (made < 0) {
        fprintf(stderr, "vxc bench: %s\n", msg);
        return CLI_FAIL;
      }
      mesh_row *r = &rows[*nrow];
      if (run_case(&c, &p, dir, o->quick ? 30 : 300, r) != 0) {
        rc = CLI_FAIL;
      } else {
        (*nrow)++;
        if (!o->json) {
          print_row(r);
        }
      }
      mc_free(&c);
    }
  }
  if (rc == CLI_OK && o->only && *nrow == 0) {
    char hint[64];
    return cli_usage_error("bench", "--only '%s' matches no case of the mesh family%s", o->only,
                           cli_hint(o->only, known, nknown, hint, sizeof hint));
  }
  if (rc == CLI_OK && o->json) {
    json_rows(rows, *nrow, &p, note);
  } else if (rc == CLI_OK) {
    summary su = summarise(rows, *nrow);
    print_summary(&su);
  }
  return rc;
}

int bench_mesh(const bench_mesh_opts *o) {
  const char *tmp = getenv("TMPDIR");
  char dir[MP_PATH_MAX];
  snprintf(dir, sizeof dir, "%s/vxc-bench-mesh-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    fprintf(stderr, "vxc bench: %s: cannot make a temporary folder: %s\n", dir, strerror(errno));
    return CLI_FAIL;
  }
  mesh_row *rows = calloc((size_t)mc_templates() * (size_t)o->variants, sizeof *rows);
  int n = 0, rc = rows ? run_all(o, dir, rows, &n) : cli_lib_error(NULL, VXC_ERR_NOMEM);
  free(rows);
  char *argv[] = {"/bin/rm", "-rf", dir, NULL};
  run_quiet(argv);
  return rc;
}
