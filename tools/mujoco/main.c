/* main.c: vxc-mujoco, MuJoCo stepping an MJCF model whose named body pairs touch through vxc's
 * volumetric contact (bridge.h), writing series.csv and summary.json as `vxc task` does.
 *
 * Data: the options, then the bridge; records every --every seconds of simulated time, at a
 * step's start. Exit statuses as the vxc command's (tools/cli.h). */
#include <errno.h>
#include <stddef.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cli.h"
#include "tools/dirs.h"
#include "tools/outfile.h"
#include "tools/plot.h"
#include "tools/series.h"
#include "tools/mujoco/bridge.h"

const cli_command *const cli_commands[] = {NULL}; /* cli.c's table: no subcommands here */

static const char USAGE[] =
    "usage: vxc-mujoco MODEL.xml --contact BODY_A=A.vxm BODY_B=B.vxm [--contact ...]\n"
    "                  [--params FILE] [--param NAME=VALUE]... [--pair-params A B FILE]...\n"
    "                  [--voxel H] [--rtol R]\n"
    "                  [--merge-patches] [--slots N] [--duration T] [--timestep H] [--every T]\n"
    "                  [--key KEYFRAME] [--schedule PREFIX] [--energy-tolerance R]\n"
    "                  [--explicit] [--out DIR]\n"
    "                  [--plot] [--plot-against DIR] [--quiet]\n"
    "       vxc-mujoco MODEL.xml --native [--contact BODY_A=A.vxm BODY_B=B.vxm]... [...]\n"
    "       vxc-mujoco --help | --version\n"
    "Steps the MuJoCo model MODEL.xml with vxc's volumetric contact between each pair of\n"
    "bodies named by --contact (their own MuJoCo contacts excluded; each vxc model in its\n"
    "body's frame) and writes DIR/series.csv and DIR/summary.json with the columns and keys\n"
    "of `vxc task`, its energy budget included. The contact wrenches are linearly implicit\n"
    "over MuJoCo's step (its mass matrix and the wrenches' derivatives), so stiff and damped\n"
    "contacts hold at MuJoCo's own steps.\n"
    "  --contact A=a.vxm B=b.vxm   a contact between bodies A and B (up to 16)\n"
    "  --params FILE, --param NAME=VALUE   contact parameters (vxc task's names; `vxc force\n"
    "                        --help` lists them with their defaults and units), for every\n"
    "                        contact, in the order given\n"
    "  --pair-params A B FILE   the contact between bodies A and B (either order) takes\n"
    "                        FILE's entries over those: e.g. a file of one line `k_v 1e11`\n"
    "  --voxel H, --rtol R   query accuracy: fixed leaves of edge H (m), or relative volume\n"
    "                        tolerance R (default 1e-3)\n"
    "  --merge-patches       one contact per cell pair; by default each connected part of\n"
    "                        a cell pair's overlap is a contact of its own (--patches is\n"
    "                        accepted) and DIR/contacts.csv lists every contact at every\n"
    "                        record\n"
    "  --slots N             most contacts (cell pairs or patches) at once per --contact (64)\n"
    "  --duration T          simulated time, s (1)\n"
    "  --timestep H          MuJoCo's time step, s (default: the model's)\n"
    "  --every T             record interval, s (1e-3)\n"
    "  --key KEYFRAME        start from a keyframe (name or index)\n"
    "  --schedule PREFIX     the actuators' controls follow the keyframes named PREFIX...,\n"
    "                        linearly between their times (held before the first and\n"
    "                        after the last)\n"
    "  --energy-tolerance R  a run whose bodies gain more than R, or whose energy budget's\n"
    "                        error passes 10 R, of the energy they could have had (kinetic\n"
    "                        at the start, potential released, positive work put in) stops:\n"
    "                        status \"energy-error\", exit status 4 (default 1e-2)\n"
    "  --explicit            apply each step's starting wrench instead (stable only at steps\n"
    "                        well below the contact's time scales), for comparison\n"
    "  --out DIR             output folder (.): one run at a time (another is refused,\n"
    "                        naming its pid); summary.json says \"running\" until the end\n"
    "  --plot                DIR/plots.gp and, with gnuplot, PNG plots\n"
    "  --plot-against TDIR   with --plot, per contact A~B that TDIR/series.csv (a `vxc\n"
    "                        task` run's) also has, A~B-force-depth.png: the force on B\n"
    "                        along z against B's z, this run's curve and the task's\n"
    "  --quiet               no progress on standard error\n"
    "  --native              MuJoCo's own contact everywhere, for comparison; --contact then\n"
    "                        names the body pairs whose MuJoCo contact forces are recorded\n"
    "                        (without it, every body is recorded and no contact)\n"
    "Exit status: 0 done, 1 a failure, 2 a usage error, 3 capped queries, 4 energy created.\n";

typedef struct args {
  const char *xml, *key, *dir, *params, *schedule, *against;
  const char *cbody[2 * BRIDGE_MAX_CONTACTS], *cfile[2 * BRIDGE_MAX_CONTACTS];
  const char *ppbody[2 * BRIDGE_MAX_CONTACTS], *ppfile[BRIDGE_MAX_CONTACTS]; /* --pair-params */
  int npp;
  int ncontact, slots, plot, native, patches, merge, explicit_coupling, quiet;
  double duration, every, voxel, rtol, timestep, energy_tol;
  vxc_params p;
} args;

static double mono_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}


static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "vxc-mujoco: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(vxc-mujoco --help shows the usage)\n");
  return CLI_USAGE;
}


/* BODY=FILE into its two parts (argv modified). 0, or -1. */
static int body_file(char *s, const char **body, const char **file) {
  char *eq = strchr(s, '=');
  if (!eq || eq == s || !eq[1]) {
    return -1;
  }
  *eq = '\0';
  *body = s;
  *file = eq + 1;
  return 0;
}


static int number(const char *opt, const char *s, double lo, double hi, double *x) {
  if (!s || cli_parse_double(s, x) != 0 || !(*x >= lo) || !(*x <= hi)) {
    fprintf(stderr, "vxc-mujoco: %s: expected a number from %g to %g, got '%s'\n", opt, lo, hi,
            s ? s : "nothing");
    return -1;
  }
  return 0;
}


static int parse_option(args *a, int argc, char **argv, int *i) {
  const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
  double x;
  static const struct {
    const char *name;
    size_t off;
  } flags[] = {{"--plot", offsetof(args, plot)},
               {"--native", offsetof(args, native)},
               {"--patches", offsetof(args, patches)},
               {"--merge-patches", offsetof(args, merge)},
               {"--explicit", offsetof(args, explicit_coupling)},
               {"--quiet", offsetof(args, quiet)}};
  for (size_t k = 0; k < sizeof flags / sizeof *flags; k++) {
    if (strcmp(o, flags[k].name) == 0) {
      *(int *)((char *)a + flags[k].off) = 1;
      return 0;
    }
  }
  if (!cli_usage_names(USAGE, o)) {
    char hint[64];
    fprintf(stderr, "vxc-mujoco: unknown option '%s'%s\n(vxc-mujoco --help shows the usage)\n", o,
            cli_option_hint(USAGE, o, hint, sizeof hint));
    return CLI_USAGE;
  }
  if (!v) {
    return usage_error("option '%s' needs a value", o);
  }
  (*i)++;
  if (strcmp(o, "--contact") == 0) {
    int k = 2 * a->ncontact;
    if (a->ncontact == BRIDGE_MAX_CONTACTS || *i + 1 >= argc ||
        body_file(argv[*i], &a->cbody[k], &a->cfile[k]) != 0 ||
        body_file(argv[*i + 1], &a->cbody[k + 1], &a->cfile[k + 1]) != 0) {
      return usage_error("--contact: expected BODY_A=A.vxm BODY_B=B.vxm (at most 16), got '%s'", v);
    }
    (*i)++;
    a->ncontact++;
  } else if (strcmp(o, "--pair-params") == 0) {
    if (a->npp == BRIDGE_MAX_CONTACTS || *i + 2 >= argc) {
      return usage_error("--pair-params: expected BODY_A BODY_B FILE (at most 16), got '%s'", v);
    }
    a->ppbody[2 * a->npp] = v;
    a->ppbody[2 * a->npp + 1] = argv[*i + 1];
    a->ppfile[a->npp++] = argv[*i + 2];
    *i += 2;
  } else if (strcmp(o, "--params") == 0) {
    return cli_read_params(v, &a->p) != 0 ? CLI_USAGE : 0;
  } else if (strcmp(o, "--param") == 0) {
    char name[64];
    const char *eq = strchr(v, '=');
    vxc_error err;
    if (!eq || eq == v || eq - v >= (long)sizeof name || cli_parse_double(eq + 1, &x) != 0) {
      return usage_error("--param: expected NAME=VALUE, got '%s'", v);
    }
    memcpy(name, v, eq - v);
    name[eq - v] = '\0';
    if (vxc_params_set(&a->p, name, x, &err) != VXC_OK) {
      return usage_error("--param: %s", err.message);
    }
  } else if (strcmp(o, "--schedule") == 0) {
    a->schedule = v;
  } else if (strcmp(o, "--plot-against") == 0) {
    a->against = v;
  } else if (strcmp(o, "--key") == 0 || strcmp(o, "--out") == 0) {
    *(o[2] == 'k' ? &a->key : &a->dir) = v;
  } else if (strcmp(o, "--duration") == 0 || strcmp(o, "--every") == 0) {
    return number(o, v, 1e-9, 1e9, o[2] == 'd' ? &a->duration : &a->every) ? CLI_USAGE : 0;
  } else if (strcmp(o, "--energy-tolerance") == 0) {
    return number(o, v, 1e-12, 1e6, &a->energy_tol) ? CLI_USAGE : 0;
  } else if (strcmp(o, "--timestep") == 0) {
    return number(o, v, 1e-9, 1, &a->timestep) ? CLI_USAGE : 0;
  } else if (strcmp(o, "--voxel") == 0 || strcmp(o, "--rtol") == 0) {
    return number(o, v, 1e-9, 1, o[2] == 'v' ? &a->voxel : &a->rtol) ? CLI_USAGE : 0;
  } else if (strcmp(o, "--slots") == 0) {
    if (number(o, v, 1, 1 << 20, &x) != 0) {
      return CLI_USAGE;
    }
    a->slots = (int)x;
  } else {
    return usage_error("unknown option '%s'", o);
  }
  return 0;
}


static int parse_args(int argc, char **argv, args *a) {
  memset(a, 0, sizeof *a);
  a->dir = ".";
  a->slots = 64;
  a->duration = 1;
  a->every = 1e-3;
  a->energy_tol = 1e-2;
  vxc_params_default(&a->p);
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      fputs(USAGE, stdout);
      exit(CLI_OK);
    }
    if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
      printf("vxc-mujoco %s (MuJoCo %d)\n", vxc_version(), mj_version());
      exit(CLI_OK);
    }
    if (argv[i][0] == '-' && argv[i][1]) {
      int rc = parse_option(a, argc, argv, &i);
      if (rc != 0) {
        return rc;
      }
    } else if (a->xml) {
      return usage_error("one model only (got a second, '%s')", argv[i]);
    } else {
      a->xml = argv[i];
    }
  }
  if (!a->xml) {
    return usage_error("%s", "missing the model (MODEL.xml)");
  }
  if (a->ncontact == 0 && !a->native) {
    return usage_error("%s",
                       "no --contact BODY_A=A.vxm BODY_B=B.vxm given (or --native: "
                       "MuJoCo's contact everywhere)");
  }
  vxc_error err;
  if (vxc_params_prepare(&a->p, &err) != VXC_OK) {
    return usage_error("%s", err.message);
  }
  return 0;
}

/* ---- outputs ---------------------------------------------------------------------------- */

/* DIR/NAME opened for writing whole or not at all (outfile.h), or NULL after a message. */
static FILE *open_out(const args *a, const char *name, tools_file *o) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", a->dir, name);
  return tools_file_open(o, "vxc-mujoco", path, TOOLS_FILE_ATOMIC) == 0 ? o->f : NULL;
}


/* DIR/summary.json of a run under way: "running" until write_summary replaces it. */
static int write_running(const args *a) {
  tools_file o;
  if (!open_out(a, "summary.json", &o)) {
    return -1;
  }
  fprintf(o.f,
          "{\"status\": \"running\", \"message\": \"under way, or killed: series.csv holds the "
          "records written so far\", \"pid\": %ld}\n",
          (long)getpid());
  return tools_file_close(&o);
}


static void json_energy(FILE *f, const bridge *br) {
  const vxc_task_energy *e = &br->e;
  const double v[] = {e->kinetic, e->potential, e->elastic,  e->dissipated, e->work_in,
                      e->error,   e->normal,    e->friction, e->rolling,    e->spinning};
  static const char *k[] = {"kinetic", "potential", "elastic",  "dissipated", "work_in",
                            "error",   "normal",    "friction", "rolling",    "spinning"};
  fprintf(f, "{");
  for (size_t j = 0; j < sizeof v / sizeof *v; j++) {
    fprintf(f, "%s\"%s\": ", j ? ", " : "", k[j]);
    cli_json_num(f, v[j]);
  }
  fprintf(f, "}, \"energy_scale\": ");
  cli_json_num(f, br->escale);
  fprintf(f, ", \"energy_reference\": ");
  cli_json_num(f, br->eref);
  fprintf(f, ", \"max_abs_energy_error\": ");
  cli_json_num(f, br->max_error);
  fprintf(f, ", \"max_energy_created\": ");
  cli_json_num(f, br->max_created);
}


static int write_summary(const args *a, const bridge *br, const series_layout *lay,
                         const char *status, const char *msg, double wall) {
  tools_file o;
  FILE *f = open_out(a, "summary.json", &o);
  if (!f) {
    return -1;
  }
  fprintf(f, "{");
  series_json_bodies(f, lay, br->bs);
  fprintf(f, ",\n \"contacts\": {");
  for (int i = 0; i < br->ncontact; i++) {
    fprintf(f, "%s", i ? ", " : "");
    series_json_contact(f, lay, i, &br->c[i].sum);
    fprintf(f, "}");
  }
  fprintf(f, "}");
  fprintf(f, ",\n \"model\": ");
  cli_json_str(f, a->xml);
  fprintf(f, ", \"contact_model\": \"%s\", \"coupling\": \"%s\", \"status\": \"%s\", \"message\": ",
          a->native ? "mujoco" : "vxc",
          a->native              ? "none"
          : a->explicit_coupling ? "explicit"
                                 : "implicit",
          status);
  cli_json_str(f, msg);
  fprintf(f, ",\n \"energy\": ");
  json_energy(f, br);
  double n = br->steps > 0 ? (double)br->steps : 1;
  const double v[] = {
      br->d->time,
      br->m->opt.timestep,
      wall,
      br->d->time / wall,
      1e-9 * br->wall_step / n,
      1e-9 * br->wall_vxc / n,
      br->wall_query / n,
      1e-9 * br->wall_mujoco / n,
      br->wall_step > 0 ? (double)(br->wall_step - br->wall_vxc - br->wall_mujoco) / br->wall_step
                        : 0};
  static const char *k[] = {"t_end",           "step",          "wall_s",
                            "realtime_factor", "step_wall_s",   "vxc_wall_s",
                            "query_wall_s",    "mujoco_wall_s", "bridge_overhead"};
  fprintf(f, ",\n \"steps\": %lld, \"queries\": %lld, \"capped_queries\": %lld", br->steps,
          br->queries, br->capped);
  for (size_t j = 0; j < sizeof v / sizeof *v; j++) {
    fprintf(f, ", \"%s\": ", k[j]);
    cli_json_num(f, v[j]);
  }
  fprintf(f, "}\n");
  return tools_file_close(&o);
}


/* One plot of plots.gp: DIR/png, its title and y label (one unit). */
static void plot_start(tools_plot *p, FILE *f, const args *a, const char *png, const char *title,
                       const char *ylabel) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", a->dir, png);
  plot_begin(p, f, path, title, "t [s]", ylabel);
}


/* Curve `col` of series.csv titled `title`. */
static void plot_col(tools_plot *p, const args *a, const char *col, const char *title) {
  char csv[4400], y[400];
  snprintf(csv, sizeof csv, "%s/series.csv", a->dir);
  snprintf(y, sizeof y, "column('%s')", col);
  plot_add(p, csv, "column('t')", y, title);
}


/* Whether the first line of the CSV file `path` has the column `col`. */
static int csv_has_column(const char *path, const char *col) {
  FILE *f = fopen(path, "r");
  if (!f) {
    return 0;
  }
  size_t k = 0, n = strlen(col);
  int match = 1, found = 0, c;
  while (!found && (c = fgetc(f)) != EOF) {
    if (c == ',' || c == '\n' || c == '\r') {
      found = match && k == n;
      match = 1;
      k = 0;
      if (c != ',') {
        break;
      }
    } else {
      match = match && k < n && col[k] == c;
      k++;
    }
  }
  fclose(f);
  return found;
}


/* With --plot-against TDIR: per contact A~B whose A~B.Fz or B~A.Fz TDIR/series.csv also
 * has, DIR/A~B-force-depth.png, the contact force on B along z against B's z (mm) while
 * the two are in contact, this run's curve and the task's. */
static void plot_against(tools_plot *p, FILE *f, const args *a, const bridge *br) {
  char tcsv[4400], csv[4400], png[4700], col[300], x[300], y[800], key[400], title[400];
  snprintf(tcsv, sizeof tcsv, "%s/series.csv", a->against);
  snprintf(csv, sizeof csv, "%s/series.csv", a->dir);
  for (int i = 0; i < br->ncontact; i++) {
    const char *pa = br->name[br->pair_index[2 * i]], *q = br->name[br->pair_index[2 * i + 1]];
    int swap = 0;
    snprintf(col, sizeof col, "%s~%s.Fz", pa, q);
    if (!csv_has_column(tcsv, col)) {
      snprintf(col, sizeof col, "%s~%s.Fz", q, pa);
      if (!csv_has_column(tcsv, col)) {
        continue;
      }
      swap = 1;
    }
    snprintf(png, sizeof png, "%s/%s~%s-force-depth.png", a->dir, pa, q);
    snprintf(title, sizeof title, "%s~%s: force against depth, vxc-mujoco and vxc task", pa, q);
    snprintf(x, sizeof x, "%s.z [mm]", q);
    snprintf(y, sizeof y, "contact force on %s along z [N]", q);
    plot_begin(p, f, png, title, x, y);
    for (int run = 0; run < 2; run++) { /* this run's curve, then the task's */
      const char *c0 = run && swap ? q : pa, *c1 = run && swap ? pa : q;
      snprintf(x, sizeof x, "column('%s~%s.npairs') > 0 ? 1000 * column('%s.z') : 1/0", c0, c1, q);
      snprintf(y, sizeof y, "column('%s~%s.npairs') > 0 ? %scolumn('%s~%s.Fz') : 1/0", c0, c1,
               run && swap ? "" : "-", c0, c1);
      const char *from = run ? a->against : a->xml, *slash = strrchr(from, '/');
      snprintf(key, sizeof key, run ? "vxc task: %s" : "vxc-mujoco: %s",
               slash && slash[1] ? slash + 1 : from);
      plot_add(p, run ? tcsv : csv, x, y, key);
    }
    plot_end(p);
  }
}


static int write_plots(const args *a, const bridge *br) {
  char col[300], title[300];
  tools_file o;
  FILE *f = open_out(a, "plots.gp", &o);
  if (!f) {
    return -1;
  }
  plot_head(f, 900, 500);
  tools_plot p;
  plot_start(&p, f, a, "height.png", "Height of each body's origin", "z [m]");
  for (int i = 0; i < br->nbody; i++) {
    snprintf(col, sizeof col, "%s.z", br->name[i]);
    plot_col(&p, a, col, br->name[i]);
  }
  plot_end(&p);
  static const char *fcol[] = {"fn", "ft"}, *fname[] = {"normal force", "friction force"};
  static const char *tcol[] = {"troll", "tspin"}, *tname[] = {"rolling torque", "spinning torque"};
  for (int pass = 0; pass < 2 && br->ncontact > 0; pass++) {
    plot_start(&p, f, a, pass ? "torques.png" : "forces.png",
               pass ? "Contact torques on A" : "Contact forces on A",
               pass ? "torque [N m]" : "force [N]");
    for (int i = 0; i < br->ncontact; i++) {
      const char *pa = br->name[br->pair_index[2 * i]], *q = br->name[br->pair_index[2 * i + 1]];
      for (int j = 0; j < 2; j++) {
        snprintf(col, sizeof col, "%s~%s.%s", pa, q, pass ? tcol[j] : fcol[j]);
        snprintf(title, sizeof title, "%s~%s %s", pa, q, pass ? tname[j] : fname[j]);
        plot_col(&p, a, col, title);
      }
    }
    plot_end(&p);
  }
  plot_start(&p, f, a, "energy.png", "Energy budget (K + P + E + D - W - its start = error)",
             "energy [J]");
  static const char *ecol[] = {"kinetic", "potential", "elastic", "dissipated", "work_in", "error"};
  for (int j = 0; j < 6; j++) {
    snprintf(col, sizeof col, "E.%s", ecol[j]);
    plot_col(&p, a, col, ecol[j]);
  }
  plot_end(&p);
  if (a->against) {
    plot_against(&p, f, a, br);
  }
  if (tools_file_close(&o) != 0) {
    return -1;
  }
  return tools_gnuplot("vxc-mujoco", o.path);
}

/* ---- the run ---------------------------------------------------------------------------- */

/* series.csv's columns for the bridge's bodies and contacts (names: room for 2 x
 * BRIDGE_MAX_CONTACTS), the energy budget's among them. */
static series_layout layout(const bridge *br, const char **names) {
  for (int i = 0; i < br->nbody; i++) {
    names[i] = br->name[i] ? br->name[i] : "body";
  }
  return (series_layout){br->nbody, names, br->ncontact, br->pair_index, 1};
}


/* The --contact whose bodies are x and y (either order), or -1. */
static int pair_of(const args *a, const char *x, const char *y) {
  for (int i = 0; i < a->ncontact; i++) {
    const char *p = a->cbody[2 * i], *q = a->cbody[2 * i + 1];
    if ((strcmp(p, x) == 0 && strcmp(q, y) == 0) || (strcmp(p, y) == 0 && strcmp(q, x) == 0)) {
      return i;
    }
  }
  return -1;
}


/* Contact i's parameters: the shared ones with each --pair-params file of its bodies read
 * over them, prepared. 0, or -1 with a message (the file's own on standard error). */
static int contact_params(const args *a, int i, vxc_params *p, char *msg, size_t size) {
  *p = a->p;
  for (int k = 0; k < a->npp; k++) {
    if (pair_of(a, a->ppbody[2 * k], a->ppbody[2 * k + 1]) != i) {
      continue;
    }
    vxc_error err;
    if (cli_read_params(a->ppfile[k], p) != 0) {
      snprintf(msg, size, "--pair-params %s %s: %s: not read", a->ppbody[2 * k],
               a->ppbody[2 * k + 1], a->ppfile[k]);
      return -1;
    }
    if (vxc_params_prepare(p, &err) != VXC_OK) {
      snprintf(msg, size, "--pair-params %s %s: %s", a->ppbody[2 * k], a->ppbody[2 * k + 1],
               err.message);
      return -1;
    }
  }
  return 0;
}


/* Everything a run needs before its outputs are opened: the contacts, the keyframe, the step.
 * CLI_OK, or the exit status with a message in msg. */
static int setup(const args *a, bridge *br, char *msg, size_t size) {
  vxc_query_options o;
  vxc_query_options_default(&o);
  if (a->voxel > 0) {
    o.voxel = a->voxel;
    o.rtol = a->rtol;
  } else if (a->rtol > 0) {
    o.rtol = a->rtol;
  }
  o.patches = !a->merge;
  for (int k = 0; k < a->npp; k++) {
    if (pair_of(a, a->ppbody[2 * k], a->ppbody[2 * k + 1]) < 0) {
      snprintf(msg, size, "--pair-params %s %s: no --contact between these bodies",
               a->ppbody[2 * k], a->ppbody[2 * k + 1]);
      return CLI_USAGE;
    }
  }
  for (int i = 0; i < a->ncontact; i++) {
    vxc_params p;
    if (contact_params(a, i, &p, msg, size) != 0) {
      return CLI_USAGE;
    }
    int rc = bridge_add_contact(br, a->cbody[2 * i], a->cfile[2 * i], a->cbody[2 * i + 1],
                                a->cfile[2 * i + 1], &p, &o, a->slots, msg, size);
    if (rc != 0) {
      return rc == -1 ? CLI_USAGE : CLI_FAIL;
    }
  }
  if (a->ncontact == 0) {
    bridge_record_all(br);
  }
  if (bridge_reset(br, a->key, msg, size) != 0 ||
      (a->schedule && schedule_load(br->m, a->schedule, &br->sched, msg, size) != 0)) {
    return CLI_USAGE;
  }
  if (a->timestep > 0) {
    br->m->opt.timestep = a->timestep;
  }
  br->explicit_coupling = a->explicit_coupling;
  br->energy_tol = a->energy_tol;
  return bridge_implicit_init(br, msg, size) != 0 ? CLI_FAIL : CLI_OK;
}


/* Progress on standard error: a bar on a terminal, else a line every 10 s with the time
 * elapsed and an estimate of what remains (from the simulated time's pace so far). */
typedef struct progress {
  int tty, shown;
  double t0, last;
} progress;

static void show_progress(progress *p, double t, double duration) {
  double now = mono_now(), el = now - p->t0;
  if (!p->tty) {
    if (now - p->last >= 10 && t > 0) {
      fprintf(stderr, "vxc-mujoco: t = %.4g of %.4g s, %.0f s elapsed, about %.0f s to go\n", t,
              duration, el, el * (duration - t) / t);
      p->last = now;
    }
    return;
  }
  if (now - p->last < 0.2) {
    return;
  }
  p->last = now;
  int width = 40, done = duration > 0 ? (int)(width * t / duration) : width;
  done = done > width ? width : done;
  fprintf(stderr, "\r[");
  for (int i = 0; i < width; i++) {
    fputc(i < done ? '#' : '.', stderr);
  }
  fprintf(stderr, "] t = %.4g / %.4g s, about %.0f s to go ", t, duration,
          t > 0 ? el * (duration - t) / t : 0.0);
  p->shown = 1;
}


/* Every contact of every pair at time t into contacts.csv (unless --merge-patches). */
static int contacts_row(FILE *f, const bridge *br, double t) {
  for (int i = 0; i < br->ncontact && !br->native; i++) {
    const bridge_contact *c = &br->c[i];
    int n = vxc_pair_contact_count(c->pair);
    for (int k = 0; k < n; k++) {
      vxc_pair_contact pc;
      if (vxc_pair_contact_get(c->pair, k, &pc, NULL) != VXC_OK) {
        continue;
      }
      const vxc_wrench *w = &pc.wrench;
      const vxc_contact_geometry *g = &pc.geom;
      fprintf(f,
              "%.9g,%s~%s,%d,%d,%d,%d,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%"
              ".8g,%.8g\n",
              t, br->name[br->pair_index[2 * i]], br->name[br->pair_index[2 * i + 1]], k, pc.cell_a,
              pc.cell_b, pc.patch, g->volume, g->centroid[0], g->centroid[1], g->centroid[2],
              g->normal[0], g->normal[1], g->normal[2], w->f_n, w->force_a[0], w->force_a[1],
              w->force_a[2], w->torque_a[0], w->torque_a[1], w->torque_a[2]);
    }
  }
  return fflush(f) != 0 || ferror(f) ? -1 : 0;
}


static int record(const args *a, bridge *br, FILE *csv, FILE *cts, const series_layout *lay,
                  double t, char *msg, size_t size) {
  vxc_task_contact_state cs[BRIDGE_MAX_CONTACTS];
  for (int i = 0; i < br->ncontact; i++) {
    cs[i] = br->c[i].state;
  }
  vxc_task_record r;
  memset(&r, 0, sizeof r);
  r.t = t;
  r.nbody = br->nbody;
  r.ncontact = br->ncontact;
  r.body = br->bs;
  r.contact = cs;
  r.energy = br->e;
  if (series_row(csv, lay, &r) != 0 || (cts && contacts_row(cts, br, t) != 0)) {
    snprintf(msg, size, "%s/%s: write error: %s", a->dir,
             cts && ferror(cts) ? "contacts.csv" : "series.csv", strerror(errno));
    return -1;
  }
  return 0;
}


static int run(const args *a, bridge *br, FILE *csv, FILE *cts, char *msg, size_t size) {
  const char *names[2 * BRIDGE_MAX_CONTACTS];
  series_layout lay = layout(br, names);
  series_header(csv, &lay);
  if (cts) {
    fprintf(cts, "t,pair,contact,cell_a,cell_b,patch,V,px,py,pz,nx,ny,nz,fn,Fx,Fy,Fz,Tx,Ty,Tz\n");
  }
  long long nstep = llround(a->duration / br->m->opt.timestep);
  long long every = llround(a->every / br->m->opt.timestep);
  every = every < 1 ? 1 : every;
  progress pg = {isatty(2), 0, mono_now(), mono_now()};
  int rc = CLI_OK;
  for (long long k = 0; k <= nstep; k++) {
    double t = br->d->time;
    int st = bridge_step(br, k < nstep, k % every == 0 || k == nstep, msg, size);
    if (st == -1) {
      rc = CLI_FAIL;
      break;
    }
    if (k % every == 0 || k == nstep || st == -2) {
      if (record(a, br, csv, cts, &lay, t, msg, size) != 0) {
        rc = CLI_FAIL;
        break;
      }
    }
    if (st == -2) {
      rc = CLI_ENERGY;
      break;
    }
    if (!a->quiet && (k & 63) == 0) {
      show_progress(&pg, t, a->duration);
    }
  }
  if (pg.shown) {
    fprintf(stderr, "\n");
  }
  return rc != CLI_OK ? rc : br->capped > 0 ? CLI_CAPPED : CLI_OK;
}


int main(int argc, char **argv) {
  args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != 0) {
    return rc;
  }
  char csv_path[4200], cts_path[4200], msg[2048] = "";
  bridge br;
  /* the model, the contacts and the keyframe before any output: a usage error or a bad
   * input leaves an existing --out untouched */
  if (bridge_load(&br, a.xml, a.native, msg, sizeof msg) != 0 ||
      (rc = setup(&a, &br, msg, sizeof msg)) != CLI_OK) {
    fprintf(stderr, "vxc-mujoco: %s\n", msg);
    if (rc == CLI_USAGE) {
      fprintf(stderr, "(vxc-mujoco --help shows the usage)\n");
    }
    bridge_free(&br);
    return rc != CLI_OK ? rc : CLI_FAIL;
  }
  snprintf(csv_path, sizeof csv_path, "%s/series.csv", a.dir);
  snprintf(cts_path, sizeof cts_path, "%s/contacts.csv", a.dir);
  if (tools_make_dirs(a.dir) != 0) {
    fprintf(stderr, "vxc-mujoco: %s: cannot create the directory: %s\n", a.dir, strerror(errno));
    bridge_free(&br);
    return CLI_FAIL;
  }
  /* one run at a time in DIR; summary.json says "running" before series.csv is emptied */
  tools_file csv, cts;
  int with_cts = !a.merge && !a.native;
  if (tools_lock_dir("vxc-mujoco", a.dir) != 0 || write_running(&a) != 0 ||
      tools_file_open(&csv, "vxc-mujoco", csv_path, TOOLS_FILE_TRUNC) != 0) {
    bridge_free(&br);
    return CLI_FAIL;
  }
  if (with_cts && tools_file_open(&cts, "vxc-mujoco", cts_path, TOOLS_FILE_TRUNC) != 0) {
    tools_file_close(&csv);
    bridge_free(&br);
    return CLI_FAIL;
  }
  double t0 = mono_now();
  rc = run(&a, &br, csv.f, with_cts ? cts.f : NULL, msg, sizeof msg);
  double wall = mono_now() - t0;
  int out = tools_file_close(&csv);
  if (with_cts && tools_file_close(&cts) != 0) {
    out = -1;
  }
  const char *status = rc == CLI_OK       ? "completed"
                       : rc == CLI_CAPPED ? "capped"
                       : rc == CLI_ENERGY ? "energy-error"
                                          : "failed";
  if (rc == CLI_CAPPED) {
    snprintf(msg, sizeof msg,
             "%lld of %lld contact queries were less accurate than asked (a "
             "work cap)",
             br.capped, br.queries);
  }
  const char *names[2 * BRIDGE_MAX_CONTACTS];
  series_layout lay = layout(&br, names);
  if (write_summary(&a, &br, &lay, status, msg, wall) != 0 || out != 0) {
    rc = rc ? rc : CLI_FAIL;
  }
  if (msg[0]) {
    fprintf(stderr, "vxc-mujoco: %s\n", msg);
  }
  if ((rc == CLI_OK || rc == CLI_ENERGY) && a.plot && write_plots(&a, &br) != 0) {
    rc = rc ? rc : CLI_FAIL;
  }
  if (rc == CLI_OK || rc == CLI_CAPPED) {
    printf(
        "vxc-mujoco: %s, %.4g s simulated in %.3g s (real-time factor %.3g), %lld steps of "
        "%.3g s, %lld vxc queries\n",
        a.native              ? "MuJoCo contact"
        : a.explicit_coupling ? "vxc contact (explicit)"
                              : "vxc contact",
        br.d->time, wall, br.d->time / wall, br.steps, br.m->opt.timestep, br.queries);
  }
  bridge_free(&br);
  if (tools_stdout_check("vxc-mujoco") != 0 && (rc == CLI_OK || rc == CLI_CAPPED)) {
    rc = CLI_FAIL;
  }
  return rc;
}
