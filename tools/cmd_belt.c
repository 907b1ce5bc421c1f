/* cmd_belt.c: `vxc belt`: the block-on-belt friction benchmark (belt.h) for one law or
 * all of them: the measured events on the console or as JSON, and with --out the series
 * and a gnuplot script per law. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/belt.h"
#include "tools/cli.h"
#include "tools/dirs.h"
#include "tools/outfile.h"
#include "tools/plot.h"

#define BELT_MAX_SET 64

typedef struct belt_args {
  const char *law, *dir;
  const char *set[BELT_MAX_SET];
  int nset, plot, json;
  double duration, step;
} belt_args;


static int parse_args(int argc, char **argv, belt_args *a) {
  memset(a, 0, sizeof *a);
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i];
    if (strcmp(o, "--plot") == 0 || strcmp(o, "--json") == 0) {
      *(o[2] == 'p' ? &a->plot : &a->json) = 1;
      continue;
    }
    if (strncmp(o, "--", 2) != 0) {
      return cli_usage_error("belt", "unexpected argument '%s'", o);
    }
    if (i + 1 >= argc) {
      return cli_usage_error("belt", "option '%s' needs a value", o);
    }
    const char *val = argv[++i];
    if (strcmp(o, "--law") == 0) {
      a->law = val;
    } else if (strcmp(o, "--out") == 0) {
      a->dir = val;
    } else if (strcmp(o, "--param") == 0) {
      if (a->nset == BELT_MAX_SET) {
        return cli_usage_error("belt", "too many --param options (%d at most)", BELT_MAX_SET);
      }
      a->set[a->nset++] = val;
    } else {
      double *slot = strcmp(o, "--duration") == 0 ? &a->duration : &a->step;
      if (cli_parse_double(val, slot) != 0 || !(*slot > 0)) {
        return cli_usage_error("belt", "%s: expected a number > 0 (s), got '%s'", o, val);
      }
    }
  }
  if (!a->law) {
    return cli_usage_error("belt", "missing --law NAME (or --law all)");
  }
  if (a->plot && !a->dir) {
    return cli_usage_error("belt", "--plot needs --out DIR");
  }
  return CLI_OK;
}


/* The settings of one law from the defaults and the command line. */
static int configure(const belt_args *a, vxc_friction_law law, belt_config *c) {
  belt_default(c, law);
  if (a->duration > 0) {
    c->duration = a->duration;
  }
  if (a->step > 0) {
    c->h = a->step;
  }
  for (int i = 0; i < a->nset; i++) {
    char name[64];
    double x;
    vxc_error err;
    if (cli_split_param(a->set[i], name, sizeof name, &x) != 0) {
      return cli_usage_error("belt", "--param: expected NAME=VALUE, got '%s'", a->set[i]);
    }
    if (belt_set(c, name, x, &err) != VXC_OK) {
      return cli_usage_error("belt", "--param: %s", err.message);
    }
  }
  return CLI_OK;
}


typedef struct series {
  FILE *f;
} series;


static int write_sample(void *ud, double t, double x, double v, double v_rel, double f) {
  series *s = ud;
  return fprintf(s->f, "%.9g,%.9g,%.9g,%.9g,%.9g\n", t, x, v, v_rel, f) < 0;
}


static void json_result(FILE *f, vxc_friction_law law, const belt_result *r) {
  fprintf(f, "{\"law\": ");
  cli_json_str(f, vxc_friction_law_name(law));
  const char *keys[] = {"breakaway_t", "breakaway_x", "restick_t", "period", "peak_force"};
  const double vals[] = {r->breakaway_t, r->breakaway_x, r->restick_t, r->period, r->peak_force};
  for (int i = 0; i < 5; i++) {
    fprintf(f, ", \"%s\": ", keys[i]);
    cli_json_num(f, vals[i]);
  }
  fprintf(f, ", \"breakaways\": %d, \"stick_slip\": %s}", r->breakaways,
          r->stick_slip ? "true" : "false");
}


/* The gnuplot script of one law's series: x, v and F against t, F against x, one panel
 * each. */
static int write_plot(const char *dir, vxc_friction_law law) {
  char path[4200], csv[4200];
  snprintf(path, sizeof path, "%.4096s/plots.gp", dir);
  snprintf(csv, sizeof csv, "%.4096s/series.csv", dir);
  tools_file o;
  if (tools_file_open(&o, "vxc belt", path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  FILE *f = o.f;
  const char *nm = vxc_friction_law_name(law);
  plot_head(f, 1000, 800);
  fprintf(f, "set key below\nset output '%s/belt.png'\n"
             "set multiplot layout 2,2 title 'block on a belt: %s'\n",
          dir, nm);
  static const char *const panel[4][6] = {
      {"block position", "t [s]", "x [m]", "column('t')", "column('x')", "x"},
      {"block velocity", "t [s]", "block velocity [m/s]", "column('t')", "column('v')", "v"},
      {"friction force", "t [s]", "friction force [N]", "column('t')", "column('F')", "F"},
      {"friction force against position", "x [m]", "friction force [N]", "column('x')",
       "column('F')", "F(x)"}};
  tools_plot p;
  for (int k = 0; k < 4; k++) {
    plot_begin(&p, f, NULL, panel[k][0], panel[k][1], panel[k][2]);
    char key[200];
    snprintf(key, sizeof key, "%s: %s", nm, panel[k][5]);
    plot_add(&p, csv, panel[k][3], panel[k][4], key);
    plot_end(&p);
  }
  fprintf(f, "unset multiplot\n");
  if (tools_file_close(&o) != 0) {
    return -1;
  }
  return tools_gnuplot("vxc belt", path);
}


/* Runs one law; with a folder, writes its series (and plot script) there. */
static int run_law(const belt_args *a, vxc_friction_law law, const char *dir, belt_result *r) {
  belt_config c;
  int rc = configure(a, law, &c);
  if (rc != CLI_OK) {
    return rc;
  }
  series s = {NULL};
  tools_file out = {0};
  if (dir) {
    char path[4200];
    snprintf(path, sizeof path, "%.4096s/series.csv", dir);
    if (tools_make_dirs(dir) != 0) {
      fprintf(stderr, "vxc: %s: %s\n", dir, strerror(errno));
      return CLI_FAIL;
    }
    if (tools_file_open(&out, "vxc belt", path, TOOLS_FILE_ATOMIC) != 0) {
      return CLI_FAIL;
    }
    s.f = out.f;
    fprintf(s.f, "t,x,v,v_rel,F\n");
  }
  vxc_error err;
  memset(&err, 0, sizeof err);
  vxc_status st = belt_run(&c, r, dir ? write_sample : NULL, &s, &err);
  if (tools_file_close(&out) != 0) {
    return CLI_FAIL;
  }
  if (st == VXC_ERR_ARG) {
    return cli_usage_error("belt", "%s", err.message);
  }
  if (st != VXC_OK) {
    return cli_lib_error(&err, st);
  }
  return a->plot && write_plot(dir, law) != 0 ? CLI_FAIL : CLI_OK;
}


static void print_num(double x, const char *fmt) {
  if (isnan(x)) {
    printf("%12s", "-");
  } else {
    printf(fmt, x);
  }
}


static void print_row(vxc_friction_law law, const belt_result *r) {
  printf("%-17s", vxc_friction_law_name(law));
  print_num(r->breakaway_t, "%12.4f");
  print_num(r->breakaway_x, "%12.5f");
  print_num(r->restick_t, "%12.4f");
  print_num(r->period, "%12.4f");
  print_num(r->peak_force, "%12.4f");
  printf("  %s\n", r->stick_slip ? "yes" : "no");
}


static int belt_main(int argc, char **argv) {
  belt_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != CLI_OK) {
    return rc;
  }
  int all = strcmp(a.law, "all") == 0;
  vxc_friction_law one = VXC_LAW_COULOMB;
  vxc_error err;
  if (!all && vxc_friction_law_find(a.law, &one, &err) != VXC_OK) {
    const char *names[VXC_LAW_COUNT + 1] = {"all"};
    for (int l = 0; l < VXC_LAW_COUNT; l++) {
      names[l + 1] = vxc_friction_law_name((vxc_friction_law)l);
    }
    char hint[64];
    return cli_usage_error("belt", "--law: unknown friction law '%s'%s", a.law,
                           cli_hint(a.law, names, VXC_LAW_COUNT + 1, hint, sizeof hint));
  }
  belt_result res[VXC_LAW_COUNT];
  int first = all ? 0 : (int)one, last = all ? VXC_LAW_COUNT - 1 : (int)one;
  for (int l = first; l <= last && rc == CLI_OK; l++) {
    char dir[4200];
    if (a.dir) {
      snprintf(dir, sizeof dir, all ? "%.4000s/%s" : "%.4000s", a.dir, vxc_friction_law_name(l));
    }
    rc = run_law(&a, (vxc_friction_law)l, a.dir ? dir : NULL, &res[l]);
  }
  if (rc != CLI_OK) {
    return rc;
  }
  FILE *js = NULL;
  tools_file jo = {0};
  if (a.dir) {
    char path[4200];
    snprintf(path, sizeof path, "%.4096s/summary.json", a.dir);
    if (tools_file_open(&jo, "vxc belt", path, TOOLS_FILE_ATOMIC) != 0) {
      return CLI_FAIL;
    }
    js = jo.f;
  }
  FILE *outs[2] = {a.json ? stdout : NULL, js};
  for (int o = 0; o < 2; o++) {
    if (!outs[o]) {
      continue;
    }
    fprintf(outs[o], all ? "{\"laws\": [" : "");
    for (int l = first; l <= last; l++) {
      fprintf(outs[o], l > first ? ", " : "");
      json_result(outs[o], (vxc_friction_law)l, &res[l]);
    }
    fprintf(outs[o], all ? "]}\n" : "\n");
  }
  if (tools_file_close(&jo) != 0) {
    return CLI_FAIL;
  }
  if (!a.json) {
    printf("%-17s%12s%12s%12s%12s%12s  %s\n", "law", "breakaway_t", "breakaway_x", "restick_t",
           "period", "peak_force", "stick_slip");
    for (int l = first; l <= last; l++) {
      print_row((vxc_friction_law)l, &res[l]);
    }
  }
  return CLI_OK;
}


const cli_command cli_cmd_belt = {
    "belt", "the block-on-belt friction benchmark for any friction law",
    "usage: vxc belt --law NAME|all [--param NAME=VALUE]... [--duration T] [--step H]\n"
    "                [--out DIR] [--plot] [--json]\n\n"
    "Integrates m x'' + k_s x = F(v_belt - x') for a block on a belt held by a spring,\n"
    "starting at x = 0 at rest relative to the belt (Marques, \"Frictional Contacts in\n"
    "Multibody Dynamics\", section 3.4), with RK4 at a fixed step; the normal force is m g.\n"
    "Prints the first break-away (time, s, and position, m), the first re-stick (s), the\n"
    "period (s, between the last two maxima of x), the largest friction force (N) and\n"
    "whether the block sticks and slips (at least two break-aways); '-' when it did not\n"
    "happen. A stick phase is where the block moves with the belt: exactly, for the laws\n"
    "set-valued at zero velocity (coulomb, coulomb-stiction, coulomb-viscous, stribeck,\n"
    "stribeck-viscous, karnopp, awrejcewicz), else within v_tol = " BELT_STR(BELT_V_TOL) " m/s;\n"
    "it counts when it lasts min_stick = " BELT_STR(BELT_MIN_STICK) " s or more (a grazing orbit is no stick).\n"
    "The set-valued laws are held exactly at zero relative velocity (the steps cut there):\n"
    "coulomb-stiction re-sticks and shows a stick-slip period, as its exact solution does\n"
    "(tools/README.md derives both), where Marques reports that it reaches the static\n"
    "friction only at the first peak and never sticks again; his RK4 at a fixed step rarely\n"
    "meets exactly zero velocity, where alone that law sticks (his section 3.2.2).\n\n"
    "  --law NAME   coulomb coulomb-stiction viscous coulomb-viscous stribeck\n"
    "               stribeck-viscous karnopp coulomb-linear coulomb-tanh threlfall\n"
    "               bengisu-akay ambrosio awrejcewicz dahl lugre elasto-plastic\n"
    "               reset-integrator liang gonthier; all: every law, one table\n"
    "  --param NAME=VALUE  the benchmark's m (" BELT_STR(BELT_M) " kg), k_s (" BELT_STR(BELT_K_S) " N/m), v_belt\n"
    "               (" BELT_STR(BELT_V_BELT) " m/s), g (" BELT_STR(BELT_G) " m/s^2), v_tol and min_stick (above), or a\n"
    "               friction parameter (vxc_friction.h; defaults are Marques's table\n"
    "               3.2): mu_s mu_k f_v v_s delta d_v v_0 v_a0 v_a1 k_reg xi a sigma0\n"
    "               sigma1 sigma2 tau_dw v_e z_ratio k_b c_b v_d\n"
    "  --duration T  simulated time, s (" BELT_STR(BELT_DURATION) "); --step H  RK4 step, s (" BELT_STR(BELT_STEP) ")\n"
    "  --out DIR    writes DIR/series.csv (t,x,v,v_rel,F every " BELT_STR(BELT_RECORD) " s) and\n"
    "               DIR/summary.json; with --law all, one folder per law in DIR\n"
    "  --plot       with --out: DIR/plots.gp and, with gnuplot, DIR/belt.png (x, v, F\n"
    "               against t; F against x)\n"
    "  --json       one object {\"law\", \"breakaway_t\", \"breakaway_x\", \"restick_t\",\n"
    "               \"period\", \"peak_force\", \"breakaways\", \"stick_slip\"}; with --law\n"
    "               all {\"laws\": [...]}\n\n"
    "Exit status: 0 done, 1 a run diverged or an output could not be written, 2 a usage\n"
    "error (an unknown law or parameter, an impossible value).\n",
    belt_main};
