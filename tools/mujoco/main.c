/* main.c: vxc-mujoco, MuJoCo stepping an MJCF model whose named body pairs touch through vxc's
 * volumetric contact (bridge.h), writing series.csv and summary.json as `vxc task` does.
 *
 * Data: the options, then the bridge; records every --every seconds of simulated time, at a
 * step's start. Exit statuses as the vxc command's (tools/cli.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/dirs.h"
#include "tools/outfile.h"
#include "tools/series.h"
#include "tools/mujoco/bridge.h"

const cli_command *const cli_commands[] = {NULL}; /* cli.c's table: no subcommands here */

static const char USAGE[] =
    "usage: vxc-mujoco MODEL.xml --contact BODY_A=A.vxm BODY_B=B.vxm [--contact ...]\n"
    "                  [--params FILE] [--param NAME=VALUE]... [--voxel H] [--rtol R]\n"
    "                  [--slots N] [--duration T] [--timestep H] [--every T] [--key KEYFRAME]\n"
    "                  [--out DIR] [--plot] [--native]\n"
    "Steps the MuJoCo model MODEL.xml with vxc's volumetric contact between each pair of\n"
    "bodies named by --contact (their own MuJoCo contacts excluded; each vxc model in its\n"
    "body's frame) and writes DIR/series.csv and DIR/summary.json with the columns and keys\n"
    "of `vxc task` (no energy budget).\n"
    "  --contact A=a.vxm B=b.vxm   a contact between bodies A and B (up to 16)\n"
    "  --params FILE, --param NAME=VALUE   contact parameters (vxc task's names)\n"
    "  --voxel H, --rtol R   query accuracy: fixed leaves of edge H (m), or relative volume\n"
    "                        tolerance R (default 1e-3)\n"
    "  --slots N             most cell pairs in contact at once per contact (64)\n"
    "  --duration T          simulated time, s (1)\n"
    "  --timestep H          MuJoCo's time step, s (default: the model's)\n"
    "  --every T             record interval, s (1e-3)\n"
    "  --key KEYFRAME        start from a keyframe (name or index)\n"
    "  --out DIR             output folder (.): one run at a time (another is refused,\n"
    "                        naming its pid); summary.json says \"running\" until the end\n"
    "  --plot                DIR/plots.gp and, with gnuplot, PNG plots\n"
    "  --native              MuJoCo's own contact instead, for comparison\n";

typedef struct args {
  const char *xml, *key, *dir, *params;
  const char *cbody[2 * BRIDGE_MAX_CONTACTS], *cfile[2 * BRIDGE_MAX_CONTACTS];
  int ncontact, slots, plot, native;
  double duration, every, voxel, rtol, timestep;
  vxc_params p;
} args;

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
  if (strcmp(o, "--plot") == 0 || strcmp(o, "--native") == 0) {
    *(o[2] == 'p' ? &a->plot : &a->native) = 1;
    return 0;
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
  } else if (strcmp(o, "--key") == 0 || strcmp(o, "--out") == 0) {
    *(o[2] == 'k' ? &a->key : &a->dir) = v;
  } else if (strcmp(o, "--duration") == 0 || strcmp(o, "--every") == 0) {
    return number(o, v, 1e-9, 1e9, o[2] == 'd' ? &a->duration : &a->every) ? CLI_USAGE : 0;
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
  vxc_params_default(&a->p);
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      fputs(USAGE, stdout);
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
  if (a->ncontact == 0) {
    return usage_error("%s", "no --contact BODY_A=A.vxm BODY_B=B.vxm given");
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
  fprintf(f, ", \"contact_model\": \"%s\", \"status\": \"%s\", \"message\": ",
          a->native ? "mujoco" : "vxc", status);
  cli_json_str(f, msg);
  double n = br->steps > 0 ? (double)br->steps : 1;
  const double v[] = {br->d->time,
                      br->m->opt.timestep,
                      wall,
                      br->d->time / wall,
                      br->wall_step / n,
                      br->wall_vxc / n,
                      br->wall_query / n,
                      br->wall_query > 0 ? br->wall_step / br->wall_query - 1 : 0};
  static const char *k[] = {"t_end",       "step",       "wall_s",       "realtime_factor",
                            "step_wall_s", "vxc_wall_s", "query_wall_s", "bridge_overhead"};
  fprintf(f, ",\n \"steps\": %lld, \"queries\": %lld, \"capped_queries\": %lld", br->steps,
          br->queries, br->capped);
  for (size_t j = 0; j < sizeof v / sizeof *v; j++) {
    fprintf(f, ", \"%s\": ", k[j]);
    cli_json_num(f, v[j]);
  }
  fprintf(f, "}\n");
  return tools_file_close(&o);
}


static int write_plots(const args *a, const bridge *br) {
  tools_file o;
  FILE *f = open_out(a, "plots.gp", &o);
  if (!f) {
    return -1;
  }
  fprintf(f,
          "set terminal pngcairo size 900,500\nset datafile separator ','\nset key "
          "autotitle columnhead\nset xlabel 't (s)'\n");
  fprintf(f, "set output '%s/height.png'\nset ylabel 'z (m)'\nplot ", a->dir);
  for (int i = 0; i < br->nbody; i++) {
    fprintf(f, "%s'%s/series.csv' using 1:'%s.z' with lines", i ? ", " : "", a->dir, br->name[i]);
  }
  fprintf(f, "\nset output '%s/forces.png'\nset ylabel 'N, N m'\nplot ", a->dir);
  for (int i = 0; i < br->ncontact; i++) {
    const char *p = br->name[br->pair_index[2 * i]], *q = br->name[br->pair_index[2 * i + 1]];
    fprintf(f,
            "%s'%s/series.csv' using 1:'%s~%s.fn' with lines, '' using 1:'%s~%s.ft' with "
            "lines, '' using 1:'%s~%s.tspin' with lines",
            i ? ", " : "", a->dir, p, q, p, q, p, q);
  }
  fprintf(f, "\n");
  if (tools_file_close(&o) != 0) {
    return -1;
  }
  return tools_gnuplot("vxc-mujoco", o.path);
}

/* ---- the run ---------------------------------------------------------------------------- */

/* series.csv's columns for the bridge's bodies and contacts (names: room for 2 x
 * BRIDGE_MAX_CONTACTS). */
static series_layout layout(const bridge *br, const char **names) {
  for (int i = 0; i < br->nbody; i++) {
    names[i] = br->name[i] ? br->name[i] : "body";
  }
  return (series_layout){br->nbody, names, br->ncontact, br->pair_index, 0};
}


/* Adds the contacts and resets to the keyframe: what can be refused, before any output is
 * touched. Returns 0, CLI_USAGE or CLI_FAIL (msg says why). */
static int prepare(const args *a, bridge *br, char *msg, size_t size) {
  vxc_query_options o;
  vxc_query_options_default(&o);
  if (a->voxel > 0) {
    o.voxel = a->voxel;
    o.rtol = a->rtol;
  } else if (a->rtol > 0) {
    o.rtol = a->rtol;
  }
  for (int i = 0; i < a->ncontact; i++) {
    int rc = bridge_add_contact(br, a->cbody[2 * i], a->cfile[2 * i], a->cbody[2 * i + 1],
                                a->cfile[2 * i + 1], &a->p, &o, a->slots, msg, size);
    if (rc != 0) {
      return rc == -1 ? CLI_USAGE : CLI_FAIL;
    }
  }
  if (bridge_reset(br, a->key, msg, size) != 0) {
    return CLI_USAGE;
  }
  if (a->timestep > 0) {
    br->m->opt.timestep = a->timestep;
  }
  return 0;
}


static int run(const args *a, bridge *br, FILE *csv, char *msg, size_t size) {
  const char *names[2 * BRIDGE_MAX_CONTACTS];
  series_layout lay = layout(br, names);
  series_header(csv, &lay);
  long long nstep = llround(a->duration / br->m->opt.timestep);
  long long every = llround(a->every / br->m->opt.timestep);
  every = every < 1 ? 1 : every;
  vxc_task_contact_state cs[BRIDGE_MAX_CONTACTS];
  for (long long k = 0; k <= nstep; k++) {
    double t = br->d->time;
    if (bridge_step(br, k < nstep, msg, size) != 0) {
      return CLI_FAIL;
    }
    if (k % every == 0 || k == nstep) {
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
      if (series_row(csv, &lay, &r) != 0) {
        snprintf(msg, size, "%s/series.csv: write error: %s", a->dir, strerror(errno));
        return CLI_FAIL;
      }
    }
  }
  return br->capped > 0 ? CLI_CAPPED : CLI_OK;
}


int main(int argc, char **argv) {
  args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != 0) {
    return rc;
  }
  char csv_path[4200], msg[2048] = "";
  snprintf(csv_path, sizeof csv_path, "%s/series.csv", a.dir);
  bridge br;
  if (bridge_load(&br, a.xml, a.native, msg, sizeof msg) != 0) {
    fprintf(stderr, "vxc-mujoco: %s\n", msg);
    bridge_free(&br);
    return CLI_FAIL;
  }
  if ((rc = prepare(&a, &br, msg, sizeof msg)) != 0) { /* refused: no output touched */
    fprintf(stderr, "vxc-mujoco: %s\n", msg);
    bridge_free(&br);
    return rc;
  }
  /* one run at a time in DIR; summary.json says "running" before series.csv is emptied */
  tools_file csv;
  if (tools_make_dirs(a.dir) != 0) {
    fprintf(stderr, "vxc-mujoco: %s: cannot create the directory: %s\n", a.dir, strerror(errno));
    bridge_free(&br);
    return CLI_FAIL;
  }
  if (tools_lock_dir("vxc-mujoco", a.dir) != 0 || write_running(&a) != 0 ||
      tools_file_open(&csv, "vxc-mujoco", csv_path, TOOLS_FILE_TRUNC) != 0) {
    bridge_free(&br);
    return CLI_FAIL;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  rc = run(&a, &br, csv.f, msg, sizeof msg);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
  int out = tools_file_close(&csv);
  const char *status = rc == CLI_OK ? "completed" : rc == CLI_CAPPED ? "capped" : "failed";
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
  if (rc == CLI_OK && a.plot && write_plots(&a, &br) != 0) {
    rc = CLI_FAIL;
  }
  if (rc == CLI_OK || rc == CLI_CAPPED) {
    printf(
        "vxc-mujoco: %s, %.4g s simulated in %.3g s (real-time factor %.3g), %lld steps of "
        "%.3g s, %lld vxc queries\n",
        a.native ? "MuJoCo contact" : "vxc contact", br.d->time, wall, br.d->time / wall, br.steps,
        br.m->opt.timestep, br.queries);
  }
  bridge_free(&br);
  if (tools_stdout_check("vxc-mujoco") != 0 && (rc == CLI_OK || rc == CLI_CAPPED)) {
    rc = CLI_FAIL;
  }
  return rc;
}
