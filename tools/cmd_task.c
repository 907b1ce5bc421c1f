/* cmd_task.c: `vxc task FILE [--out DIR] [--plot]`: runs a task file and writes its time
 * series (DIR/series.csv), its summary (DIR/summary.json) and, with --plot, PNG plots
 * through gnuplot.
 *
 * Data: the writer state holds the open CSV file and the task; the CSV's first columns
 * and the JSON's first keys are fixed (README, Task files: other programs read them); extra
 * columns (per contact: normal, force and torque on A, stick and dwell states, pair count;
 * the energy budget) and extra keys come after them. Rows are flushed as written, so a run
 * that fails or is killed keeps what it wrote; summary.json, replaced whole (outfile.h),
 * says "running" from before the first row until the run's end gives its status, so it
 * never describes another run than series.csv's. One run at a time writes DIR. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/dirs.h"
#include "tools/outfile.h"
#include "tools/plot.h"
#include "tools/series.h"
#include "tools/task_vtk.h"

typedef struct task_out {
  tools_file csv;      /* DIR/series.csv, growing in place */
  vxc_task *task;
  int tty; /* progress bar on stderr */
  int bar_shown;
  long rows;
  int werr;            /* errno of the first failed write of series.csv (0: none) */
  char csv_path[4200]; /* DIR/series.csv */
  double max_wall;     /* --max-wall, s (0: none) */
  double wall0;        /* monotonic clock at the start, s */
  int wall_hit;        /* the run stopped at --max-wall */
  double last_line;    /* monotonic time of the last progress line (not a terminal), s */
  series_layout lay;   /* series.csv's columns */
  const char **names;  /* body names, for lay */
  int *pairs;          /* contact bodies, for lay */
  task_vtk *vtk;       /* --vtk: the ParaView frames, or NULL */
  int vtk_failed;      /* a frame could not be written (the error printed) */
} task_out;

/* The signal (SIGINT, SIGTERM) that asked the run to stop, 0 if none. */
static volatile sig_atomic_t task_signal;
/* Set by a signal or by the --max-wall timer: ends a query under way (vxc_task_set_stop). */
static volatile sig_atomic_t task_stop, task_alarm;

static void on_signal(int sig) {
  task_signal = sig;
  task_stop = 1;
}


static void on_alarm(int sig) {
  (void)sig;
  task_alarm = 1;
  task_stop = 1;
}


/* --max-wall as a timer too, so that a slow query is stopped inside (SIGALRM). */
static void arm_wall_timer(double s) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigemptyset(&sa.sa_mask);
  struct itimerval it;
  memset(&it, 0, sizeof it);
  it.it_value.tv_sec = (time_t)s;
  it.it_value.tv_usec = (suseconds_t)((s - (double)(time_t)s) * 1e6) + 1;
  if (s > 0 && sigaction(SIGALRM, &sa, NULL) == 0) {
    setitimer(ITIMER_REAL, &it, NULL);
  }
}


/* Catches SIGINT and SIGTERM (unless ignored, as in a background job without job
 * control) so that the run stops after the step under way (on_poll) with its outputs
 * written; a second signal ends the process at once (SA_RESETHAND). */
static void catch_signals(void) {
  cli_catch_signals(on_signal);
}


/* Writes series.csv's header; fills o->lay (names and pairs owned by o). Returns 0, or -1
 * when out of memory. */
static int csv_header(task_out *o) {
  vxc_task *t = o->task;
  int nb = vxc_task_body_count(t), nc = vxc_task_contact_count(t);
  o->names = malloc(sizeof *o->names * (nb + 1));
  o->pairs = malloc(sizeof *o->pairs * (2 * nc + 1));
  if (!o->names || !o->pairs) {
    return -1;
  }
  for (int i = 0; i < nb; i++) {
    o->names[i] = vxc_task_body_name(t, i);
  }
  for (int i = 0; i < nc; i++) {
    vxc_task_contact_bodies(t, i, &o->pairs[2 * i], &o->pairs[2 * i + 1], NULL);
  }
  o->lay = (series_layout){nb, o->names, nc, o->pairs, 1};
  series_header(o->csv.f, &o->lay);
  return 0;
}


static int on_record(void *ud, const vxc_task_record *r) {
  task_out *o = ud;
  if (series_row(o->csv.f, &o->lay, r) != 0) {
    o->werr = errno ? errno : EIO;
    return 1; /* stop at the first failed write */
  }
  o->rows++;
  if (o->vtk && task_vtk_frame(o->vtk, r) < 0) {
    o->vtk_failed = 1;
    return 1;
  }
  return 0; /* frames cut at --max-output: the run goes on (task_vtk_close says so) */
}


static double mono_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* After every step: stop on a signal or past --max-wall. */
static int on_poll(void *ud) {
  task_out *o = ud;
  if (task_alarm || (o->max_wall > 0 && mono_s() - o->wall0 > o->max_wall)) {
    o->wall_hit = 1;
  }
  return task_signal != 0 || o->wall_hit;
}


/* Progress: a bar on a terminal, else a line every 10 s with the time elapsed and an
 * estimate of what remains (from the simulated time's pace so far). */
static void on_progress(void *ud, double t, double duration) {
  task_out *o = ud;
  if (!o->tty) {
    double now = mono_s(), el = now - o->wall0;
    if (now - o->last_line >= 10 && t > 0) {
      fprintf(stderr, "vxc task: t = %.4g of %.4g s, %.0f s elapsed, about %.0f s to go\n", t,
              duration, el, el * (duration - t) / t);
      o->last_line = now;
    }
    return;
  }
  int width = 40, done = duration > 0 ? (int)(width * t / duration) : width;
  if (done > width) {
    done = width;
  }
  fprintf(stderr, "\r[");
  for (int i = 0; i < width; i++) {
    fputc(i < done ? '#' : '.', stderr);
  }
  fprintf(stderr, "] t = %.4g / %.4g s", t, duration);
  o->bar_shown = 1;
}


static void json_energy(FILE *f, const vxc_task_energy *e) {
  fprintf(f, "{\"kinetic\": ");
  cli_json_num(f, e->kinetic);
  fprintf(f, ", \"potential\": ");
  cli_json_num(f, e->potential);
  fprintf(f, ", \"dissipated\": ");
  cli_json_num(f, e->dissipated);
  fprintf(f, ", \"error\": ");
  cli_json_num(f, e->error);
  fprintf(f, ", \"elastic\": ");
  cli_json_num(f, e->elastic);
  fprintf(f, ", \"work_in\": ");
  cli_json_num(f, e->work_in);
  fprintf(f, ", \"dissipated_by\": {\"normal\": ");
  cli_json_num(f, e->normal);
  fprintf(f, ", \"friction\": ");
  cli_json_num(f, e->friction);
  fprintf(f, ", \"rolling\": ");
  cli_json_num(f, e->rolling);
  fprintf(f, ", \"spinning\": ");
  cli_json_num(f, e->spinning);
  fprintf(f, "}}");
}


/* The run's outcome: summary.json's "status" and the exit status it gives. */
static const char *run_status(const task_out *o, const vxc_task_summary *s, vxc_status st,
                              int *rc) {
  *rc = CLI_FAIL;
  if (o->werr || o->vtk_failed) {
    return "write-error";
  }
  if (task_signal) {
    *rc = CLI_SIGNAL + task_signal;
    return "interrupted";
  }
  if (o->wall_hit || task_alarm) {
    return "limit";
  }
  *rc = CLI_OK;
  if (st == VXC_OK) {
    return s->completed ? "completed" : "stopped";
  }
  *rc = s->energy_failed ? CLI_ENERGY : CLI_FAIL;
  if (s->energy_failed) {
    return "energy-error";
  }
  if (st == VXC_ERR_LIMIT) {
    return "limit";
  }
  for (int i = 0; i < s->ncontact && st == VXC_ERR_GEOMETRY && s->t_end == 0; i++) {
    if (s->contact[i].initial_volume > 0) {
      return "initial-overlap";
    }
  }
  return "failed";
}


/* Writes DIR/summary.json with the run's status and message. Returns 0, or -1 after
 * printing why. */
static int write_summary(const char *path, vxc_task *t, const series_layout *lay,
                         const vxc_task_summary *s, const char *status, const char *message) {
  tools_file o;
  if (tools_file_open(&o, "vxc task", path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  FILE *f = o.f;
  fprintf(f, "{");
  series_json_bodies(f, lay, s->body);
  fprintf(f, ",\n \"contacts\": {");
  for (int i = 0; i < s->ncontact; i++) {
    const vxc_task_contact_summary *c = &s->contact[i];
    fprintf(f, "%s", i ? ", " : "");
    series_json_contact(f, lay, i, c);
    fprintf(f, ", \"initial_volume\": ");
    cli_json_num(f, c->initial_volume);
    fprintf(f, ", \"initial_fn\": ");
    cli_json_num(f, c->initial_fn);
    fprintf(f, "}");
  }
  fprintf(f, "},\n \"energy\": ");
  json_energy(f, &s->energy);
  fprintf(f, ",\n \"task\": ");
  cli_json_str(f, vxc_task_name(t));
  fprintf(f, ", \"status\": \"%s\", \"message\": ", status);
  cli_json_str(f, message);
  fprintf(f, ", \"t_end\": ");
  cli_json_num(f, s->t_end);
  fprintf(f, ", \"max_abs_energy_error\": ");
  cli_json_num(f, s->max_abs_error);
  fprintf(f, ", \"energy_scale\": ");
  cli_json_num(f, s->energy_scale);
  fprintf(f,
          ",\n \"steps\": %lld, \"rejected\": %lld, \"queries\": %lld, \"capped_queries\": %lld, "
          "\"closed_form_queries\": %lld, \"min_step\": ",
          s->steps, s->rejected, s->queries, s->capped_queries, s->closed_form_queries);
  cli_json_num(f, s->min_step);
  fprintf(f, ", \"max_step\": ");
  cli_json_num(f, s->max_step);
  fprintf(f, ", \"wall_s\": ");
  cli_json_num(f, s->wall_s);
  fprintf(f, ", \"queries_per_s\": ");
  cli_json_num(f, s->wall_s > 0 ? s->queries / s->wall_s : 0);
  fprintf(f, ", \"realtime_factor\": ");
  cli_json_num(f, s->realtime_factor);
  fprintf(f, "}\n");
  return tools_file_close(&o);
}


/* DIR/summary.json of a run under way: its status "running", until write_summary. */
static int write_running(const char *path, vxc_task *t) {
  tools_file o;
  if (tools_file_open(&o, "vxc task", path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  fprintf(o.f, "{\"task\": ");
  cli_json_str(o.f, vxc_task_name(t));
  fprintf(o.f,
          ", \"status\": \"running\", \"message\": \"under way, or killed: series.csv holds "
          "the records written so far\", \"pid\": %ld}\n",
          (long)getpid());
  return tools_file_close(&o);
}


/* The curves of contact i's forces (k = 0: fn, ft and the force on A; 1: the torques). */
static void plot_contact(tools_plot *p, const char *csv, vxc_task *t, int i, int k) {
  int a, b;
  vxc_task_contact_bodies(t, i, &a, &b, NULL);
  const char *na = vxc_task_body_name(t, a), *nb = vxc_task_body_name(t, b);
  const char *cols[5] = {k ? "troll" : "fn", k ? "tspin" : "ft", "Fx", "Fy", "Fz"};
  for (int j = 0; j < (k ? 2 : 5); j++) {
    char y[700], title[600];
    snprintf(y, sizeof y, "column('%s~%s.%s')", na, nb, cols[j]);
    if (j < 2) {
      snprintf(title, sizeof title, "%s~%s.%s", na, nb, cols[j]);
    } else {
      snprintf(title, sizeof title, "%s~%s: on %s, %s", na, nb, na, cols[j]);
    }
    plot_add(p, csv, "column('t')", y, title);
  }
}


/* 1 for a body that moves (free or driven): its velocities and tilt are plotted. */
static int body_moves(vxc_task *t, int i) {
  return vxc_task_body_is_free(t, i) || vxc_task_body_is_driven(t, i);
}


/* The velocities: the linear ones (m/s) and the angular ones (rad/s) in two panels. */
static void plot_velocities(tools_plot *p, FILE *f, const char *dir, const char *csv,
                            vxc_task *t) {
  fprintf(f, "set terminal pngcairo size 1000,800 noenhanced\nset output '%s/velocities.png'\n"
             "set multiplot layout 2,1 title '%s: velocities of the moving bodies'\n",
          dir, vxc_task_name(t));
  static const char *vc[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  for (int panel = 0; panel < 2; panel++) {
    plot_begin(p, f, NULL, panel ? "angular velocity" : "linear velocity of the origin", "t [s]",
               panel ? "angular velocity [rad/s]" : "velocity [m/s]");
    for (int i = 0; i < vxc_task_body_count(t); i++) {
      for (int j = 3 * panel; j < 3 * panel + 3 && body_moves(t, i); j++) {
        char y[400], title[300];
        snprintf(y, sizeof y, "column('%s.%s')", vxc_task_body_name(t, i), vc[j]);
        snprintf(title, sizeof title, "%s.%s", vxc_task_body_name(t, i), vc[j]);
        plot_add(p, csv, "column('t')", y, title);
      }
    }
    plot_end(p);
  }
  fprintf(f, "unset multiplot\nset terminal pngcairo size 1000,600 noenhanced\n");
}


/* The energy budget and each moving body's tilt (its z axis from the world's: the
 * tippe-top's inversion, a peg's misalignment). */
static void plot_energy_tilt(tools_plot *p, FILE *f, const char *dir, const char *csv,
                             vxc_task *t) {
  char png[4300], title[400];
  snprintf(png, sizeof png, "%s/energy.png", dir);
  snprintf(title, sizeof title, "%s: energy", vxc_task_name(t));
  plot_begin(p, f, png, title, "t [s]", "energy [J]");
  plot_add(p, csv, "column('t')", "column('E.kinetic')+column('E.potential')+column('E.elastic')",
           "K + P + elastic");
  static const char *ec[] = {"kinetic", "potential", "elastic", "dissipated", "work_in"};
  for (int j = 0; j < 5; j++) {
    char y[100];
    snprintf(y, sizeof y, "column('E.%s')", ec[j]);
    plot_add(p, csv, "column('t')", y, ec[j]);
  }
  plot_end(p);
  snprintf(png, sizeof png, "%s/tilt.png", dir);
  snprintf(title, sizeof title, "%s: tilt", vxc_task_name(t));
  fprintf(f, "clamp(c) = c > 1 ? 1 : (c < -1 ? -1 : c)\n");
  plot_begin(p, f, png, title, "t [s]", "tilt of the body z axis from world z [degrees]");
  for (int i = 0; i < vxc_task_body_count(t); i++) {
    const char *nm = vxc_task_body_name(t, i);
    char y[700];
    snprintf(y, sizeof y,
             "acos(clamp(1 - 2 * (column('%s.qx')**2 + column('%s.qy')**2))) * 180 / pi", nm, nm);
    if (body_moves(t, i)) {
      plot_add(p, csv, "column('t')", y, nm);
    }
  }
  plot_end(p);
}


/* Insertion and extraction: the contact force on a driven body along z against its z
 * (depth), one plot per such contact. */
static void plot_force_depth(tools_plot *p, FILE *f, const char *dir, const char *csv,
                             vxc_task *t) {
  for (int i = 0; i < vxc_task_contact_count(t); i++) {
    int a, b;
    vxc_task_contact_bodies(t, i, &a, &b, NULL);
    int d = vxc_task_body_is_driven(t, b) ? b : vxc_task_body_is_driven(t, a) ? a : -1;
    if (d < 0) {
      continue;
    }
    const char *na = vxc_task_body_name(t, a), *nb = vxc_task_body_name(t, b);
    const char *nd = vxc_task_body_name(t, d);
    char png[4300], title[400], xl[300], yl[300], x[300], y[700], key[300];
    snprintf(png, sizeof png, "%s/%s-force-depth.png", dir, nd);
    snprintf(title, sizeof title, "%s: force against depth", vxc_task_name(t));
    snprintf(xl, sizeof xl, "%s.z [m]", nd);
    snprintf(yl, sizeof yl, "contact force on %s along z [N]", nd);
    snprintf(x, sizeof x, "column('%s.z')", nd);
    snprintf(y, sizeof y, "%scolumn('%s~%s.Fz')", d == a ? "" : "-", na, nb);
    snprintf(key, sizeof key, "%s~%s", na, nb);
    plot_begin(p, f, png, title, xl, yl);
    plot_add(p, csv, x, y, key);
    plot_end(p);
  }
}


/* Writes DIR/plots.gp and runs gnuplot on it when gnuplot is installed. */
static int write_plots(const char *dir, vxc_task *t) {
  char path[4200], csv[4200], png[4300], title[400];
  snprintf(path, sizeof path, "%s/plots.gp", dir);
  snprintf(csv, sizeof csv, "%s/series.csv", dir);
  tools_file out;
  if (tools_file_open(&out, "vxc task", path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  FILE *f = out.f;
  fprintf(f, "# gnuplot script written by vxc task: plots of %s\n", csv);
  plot_head(f, 1000, 600);
  tools_plot p;
  for (int k = 0; k < 2; k++) {
    snprintf(png, sizeof png, "%s/%s.png", dir, k ? "torques" : "forces");
    snprintf(title, sizeof title, "%s: contact %s", vxc_task_name(t), k ? "torques" : "forces");
    plot_begin(&p, f, png, title, "t [s]", k ? "torque [N m]" : "force [N]");
    for (int i = 0; i < vxc_task_contact_count(t); i++) {
      plot_contact(&p, csv, t, i, k);
    }
    plot_end(&p);
  }
  plot_velocities(&p, f, dir, csv, t);
  plot_energy_tilt(&p, f, dir, csv, t);
  plot_force_depth(&p, f, dir, csv, t);
  if (tools_file_close(&out) != 0) {
    return -1;
  }
  return tools_gnuplot("vxc task", path);
}


typedef struct task_args {
  const char *file, *dir;
  int plot;
  int no_closed_form; /* --no-closed-form */
  double duration, max_steps, max_output, max_wall;
  const char *vtk; /* --vtk DIR, or NULL */
  double vtk_tol;  /* --vtk-tol T, m (0: the default) */
} task_args;


/* Parses the command line into *a. Returns CLI_OK or the usage error's status. */
static int task_args_parse(int argc, char **argv, task_args *a) {
  *a = (task_args){NULL, ".", 0, 0, 0, (double)VXC_TASK_MAX_STEPS, 1e9, 0, NULL, 0};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--max-steps") == 0 || strcmp(argv[i], "--max-output") == 0) {
      double *x = argv[i][6] == 's' ? &a->max_steps : &a->max_output;
      if (i + 1 >= argc || cli_parse_double(argv[i + 1], x) != 0 || !(*x >= 1) || *x > 1e15 ||
          *x != floor(*x)) {
        return cli_usage_error("task", "%s: expected a whole number from 1 to 1e15", argv[i]);
      }
      i++;
    } else if (strcmp(argv[i], "--max-wall") == 0) {
      if (i + 1 >= argc || cli_parse_double(argv[i + 1], &a->max_wall) != 0 || !(a->max_wall > 0) ||
          a->max_wall > 1e9) {
        return cli_usage_error("task", "--max-wall: expected a time from 0 to 1e9 s");
      }
      i++;
    } else if (strcmp(argv[i], "--out") == 0 || strcmp(argv[i], "--duration") == 0) {
      if (i + 1 >= argc) {
        return cli_usage_error("task", "option '%s' needs a value", argv[i]);
      }
      if (argv[i][2] == 'o') {
        a->dir = argv[++i];
      } else if (cli_parse_double(argv[++i], &a->duration) != 0 || !(a->duration > 0) ||
                 a->duration > 1e9) {
        return cli_usage_error("task", "--duration: expected a time from 0 to 1e9 s, got \"%s\"",
                               argv[i]);
      }
    } else if (strcmp(argv[i], "--vtk") == 0 && i + 1 < argc && argv[i + 1][0]) {
      a->vtk = argv[++i];
    } else if (strcmp(argv[i], "--vtk-tol") == 0) {
      if (i + 1 >= argc || cli_parse_double(argv[i + 1], &a->vtk_tol) != 0 || !(a->vtk_tol > 0)) {
        return cli_usage_error("task", "--vtk-tol: expected a positive length (m)");
      }
      i++;
    } else if (strcmp(argv[i], "--vtk") == 0) {
      return cli_usage_error("task", "option '--vtk' needs a directory");
    } else if (strcmp(argv[i], "--max-memory") == 0) {
      if (i + 1 >= argc || cli_memory_set(argv[i + 1]) != 0) {
        return cli_usage_error("task", "%s", CLI_MEMORY_USAGE);
      }
      i++;
    } else if (strcmp(argv[i], "--plot") == 0) {
      a->plot = 1;
    } else if (strcmp(argv[i], "--no-closed-form") == 0) {
      a->no_closed_form = 1;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      return cli_usage_error("task", "unknown option '%s'", argv[i]);
    } else if (a->file) {
      return cli_usage_error("task", "one task file only (got '%s' and '%s')", a->file, argv[i]);
    } else {
      a->file = argv[i];
    }
  }
  return a->file ? CLI_OK : cli_usage_error("task", "missing the task file");
}


/* Warns once per model file whose lengths look like millimetres (cli_warn_units). */
static void warn_units(const vxc_task *t) {
  int n = vxc_task_body_count(t);
  for (int i = 0; i < n; i++) {
    const char *m = vxc_task_body_model(t, i);
    int seen = 0;
    for (int j = 0; j < i && !seen; j++) {
      seen = strcmp(vxc_task_body_model(t, j), m) == 0;
    }
    if (!seen) {
      cli_warn_units("task", m, vxc_task_body_solid(t, i));
    }
  }
}


/* --max-output in bytes: a row of series.csv is about 24 bytes a column. */
static double row_bytes(vxc_task *t) {
  return 24.0 * (1 + 13 * vxc_task_body_count(t) + 17 * vxc_task_contact_count(t) + 6);
}


/* Loads the task and applies the command line's duration and limits. */
static int task_open(const task_args *a, vxc_task **out) {
  vxc_error err;
  vxc_task *t = NULL;
  vxc_status st = cli_task_load(a->file, &t, &err);
  if (st != VXC_OK) {
    char doing[4200];
    snprintf(doing, sizeof doing, "loading %s and its models", a->file);
    return cli_fail("task", doing, &err, st);
  }
  warn_units(t);
  if (a->duration > 0) {
    vxc_task_set_duration(t, a->duration, NULL);
  }
  if (a->no_closed_form) {
    vxc_task_set_closed_form(t, 0, NULL);
  }
  vxc_task_set_limits(t, (long long)a->max_steps, (long long)fmax(1, a->max_output / row_bytes(t)), NULL);
  *out = t;
  return CLI_OK;
}


/* Contacts of a task contact the console lists, largest peak first (summary.json: all the
 * summary keeps). */
#define TASK_CONSOLE_PEAKS 4


/* Prints the run's outcome, final states and per-contact summaries to stdout. */
static void print_summary(vxc_task *t, const vxc_task_summary *s, const char *status,
                          const task_out *o, const char *dir) {
  printf("task %s: %s at t = %.6g s (%ld records in %s/series.csv)\n", vxc_task_name(t), status,
         s->t_end, o->rows, dir);
  printf(
      "  wall time %.3f s (real-time factor %.3g), %lld contact queries (%.0f per s; %lld in "
      "closed form), %lld steps (%lld rejected), step %.3g .. %.3g s\n",
      s->wall_s, s->realtime_factor, s->queries, s->wall_s > 0 ? s->queries / s->wall_s : 0.0,
      s->closed_form_queries, s->steps, s->rejected, s->min_step, s->max_step);
  for (int i = 0; i < s->nbody; i++) {
    const double *p = s->body[i].pose, *v = s->body[i].velocity;
    printf(
        "  %-12s pose %.6g %.6g %.6g  q %.6g %.6g %.6g %.6g  v %.4g %.4g %.4g  w %.4g %.4g "
        "%.4g\n",
        vxc_task_body_name(t, i), p[0], p[1], p[2], p[3], p[4], p[5], p[6], v[0], v[1], v[2], v[3],
        v[4], v[5]);
  }
  for (int i = 0; i < s->ncontact; i++) {
    int a, b;
    vxc_task_contact_bodies(t, i, &a, &b, NULL);
    const vxc_task_contact_summary *c = &s->contact[i];
    printf("  %s~%s: ", vxc_task_body_name(t, a), vxc_task_body_name(t, b));
    if (c->initial_volume > 0) {
      printf("overlapping at t = 0 (V %.4g m^3, f_n %.4g N), ", c->initial_volume, c->initial_fn);
    }
    if (c->first < 0) {
      printf("never in contact\n");
    } else {
      printf(
          "in contact %.6g .. %.6g s, %d pair starts, peak f_n %.6g N (one contact's "
          "%.6g N), f_t %.6g N, rolling %.4g N m, spinning %.4g N m\n",
          c->first, c->last, c->impacts, c->peak_fn, c->peak_fn_contact, c->peak_ft,
          c->peak_troll, c->peak_tspin);
    }
    for (int k = 0; c->npeak > 1 && k < c->npeak && k < TASK_CONSOLE_PEAKS; k++) {
      const vxc_task_contact_peak *p = &c->peak[k];
      printf("    contact %s~%s %.6g .. %.6g s: peak f_n %.6g N at %.6g s, f_t %.6g N, at (%.4g, "
             "%.4g, %.4g) m, normal (%.4f, %.4f, %.4f)\n",
             p->cell_a, p->cell_b, p->first, p->last, p->peak_fn, p->t_peak, p->peak_ft,
             p->centroid[0], p->centroid[1], p->centroid[2], p->normal[0], p->normal[1],
             p->normal[2]);
    }
  }
  const vxc_task_energy *e = &s->energy;
  printf(
      "  energy: kinetic %.6g J, potential %.6g J, elastic %.4g J, dissipated %.6g J "
      "(normal %.4g, friction %.4g, rolling %.4g, spinning %.4g), work in %.4g J, "
      "balance error %.3g J (largest %.3g J)\n",
      e->kinetic, e->potential, e->elastic, e->dissipated, e->normal, e->friction, e->rolling,
      e->spinning, e->work_in, e->error, s->max_abs_error);
}


/* The message of a run that did not complete: the failed write, the signal or the
 * library's error; "" when it completed. */
static void run_message(const task_out *o, const vxc_task_summary *s, vxc_status st,
                        const vxc_error *err, char *msg, size_t size) {
  if (o->werr) {
    snprintf(msg, size, "%s: %s", o->csv_path, strerror(o->werr));
  } else if (o->vtk_failed) {
    snprintf(msg, size, "the ParaView frames could not be written (at t = %.6g s)", s->t_end);
  } else if (task_signal) {
    snprintf(msg, size, "interrupted by %s at t = %.6g s",
             task_signal == SIGINT ? "SIGINT" : "SIGTERM", s->t_end);
  } else if (o->wall_hit || task_alarm) {
    snprintf(msg, size, "the wall-time limit of %g s was reached at t = %.6g s (--max-wall)",
             o->max_wall, s->t_end);
  } else {
    char doing[64];
    snprintf(doing, sizeof doing, "running the task (at t = %.6g s)", s->t_end);
    if (st != VXC_ERR_NOMEM || !cli_memory_message(doing, msg, size)) {
      snprintf(msg, size, "%s", st == VXC_OK ? "" : err->message);
    }
  }
}


/* Runs the loaded task into dir; returns the exit status. */
static int task_execute(vxc_task *t, const task_args *a) {
  task_out o;
  memset(&o, 0, sizeof o);
  o.task = t;
  o.tty = isatty(2);
  o.max_wall = a->max_wall;
  o.wall0 = mono_s();
  o.last_line = o.wall0;
  char path[4200];
  snprintf(o.csv_path, sizeof o.csv_path, "%s/series.csv", a->dir);
  snprintf(path, sizeof path, "%s/summary.json", a->dir);
  /* the frames' bodies sampled and their bytes told (or refused) before DIR is touched */
  if (a->vtk && (!(o.vtk = task_vtk_open(t, a->vtk, a->vtk_tol)) ||
                 task_vtk_plan(o.vtk, a->max_output, row_bytes(t)) != 0)) {
    task_vtk_free(o.vtk);
    return CLI_FAIL;
  }
  if (tools_make_dirs(a->dir) != 0) {
    fprintf(stderr, "vxc: %s: cannot create the directory: %s\n", a->dir, strerror(errno));
    task_vtk_free(o.vtk);
    return CLI_FAIL;
  }
  if (tools_lock_dir("vxc task", a->dir) != 0 || write_running(path, t) != 0 ||
      tools_file_open(&o.csv, "vxc task", o.csv_path, TOOLS_FILE_TRUNC) != 0) {
    task_vtk_free(o.vtk);
    return CLI_FAIL;
  }
  if (a->vtk && tools_make_dirs(a->vtk) != 0) {
    fprintf(stderr, "vxc: %s: cannot create the directory: %s\n", a->vtk, strerror(errno));
    tools_file_discard(&o.csv);
    task_vtk_free(o.vtk);
    return CLI_FAIL;
  }
  if (csv_header(&o) != 0) {
    tools_file_discard(&o.csv);
    free(o.names);
    free(o.pairs);
    task_vtk_free(o.vtk);
    fprintf(stderr, "vxc: out of memory\n");
    return CLI_FAIL;
  }
  vxc_task_summary s;
  vxc_error err;
  catch_signals();
  arm_wall_timer(o.max_wall);
  vxc_task_set_poll(t, on_poll, &o, NULL);
  vxc_task_set_stop(t, &task_stop, NULL);
  vxc_status st = vxc_task_run(t, on_record, on_progress, &o, &s, &err);
  if (o.bar_shown) {
    fprintf(stderr, "\r%60s\r", "");
  }
  if (tools_file_close(&o.csv) != 0 && !o.werr) {
    o.werr = EIO; /* the message named the file */
  }
  int rc;
  const char *status = run_status(&o, &s, st, &rc);
  char msg[sizeof err.message + 4300];
  run_message(&o, &s, st, &err, msg, sizeof msg);
  int out_rc = write_summary(path, t, &o.lay, &s, status, msg) != 0 ? CLI_FAIL : CLI_OK;
  print_summary(t, &s, status, &o, a->dir);
  if (a->plot && write_plots(a->dir, t) != 0) {
    out_rc = CLI_FAIL;
  }
  if (o.vtk && task_vtk_close(o.vtk) != 0) {
    out_rc = CLI_FAIL;
  }
  if (msg[0]) {
    fprintf(stderr, "vxc: %s (what was computed until then is in %s)\n", msg, a->dir);
  } else if (s.capped_queries > 0) {
    fprintf(stderr,
            "vxc task: warning: %lld of %lld contact queries were less accurate than their "
            "contact's (rtol R) or (voxel H) (a work cap)\n",
            s.capped_queries, s.queries);
    rc = CLI_CAPPED;
  }
  free(o.names);
  free(o.pairs);
  return rc != CLI_OK ? rc : out_rc;
}


static int task_run(int argc, char **argv) {
  task_args a;
  vxc_task *t = NULL;
  int rc = task_args_parse(argc, argv, &a);
  if (rc == CLI_OK && (rc = task_open(&a, &t)) == CLI_OK) {
    rc = task_execute(t, &a);
    vxc_task_free(t);
  }
  return rc;
}


const cli_command cli_cmd_task = {
    "task", "run a task file (.vxt): insertion, extraction or free-body simulation",
    "usage: vxc task FILE.vxt [--out DIR] [--plot] [--duration T] [--max-steps N]\n"
    "                [--max-output BYTES] [--max-wall SECONDS] [--no-closed-form]\n"
    "                [--vtk DIR [--vtk-tol T]]\n\n"
    "Runs the task: free bodies under gravity, driven bodies along their trajectories\n"
    "(optionally through a compliant gripper), contacts by Gonthier's volumetric model with\n"
    "cell-pair tracking, integrated by RK4, an adaptive embedded pair (Dormand-Prince\n"
    "5(4) or Bogacki-Shampine 3(2)), a linearly implicit Rosenbrock-W method for stiff\n"
    "(sticking) contacts, or auto (Bogacki-Shampine, Rosenbrock-W where the contacts'\n"
    "stiffness would limit its step), with first-contact event location: the task's\n"
    "(method ...). Writes\n"
    "DIR/series.csv (t; per body NAME.x .y .z .qw .qx .qy .qz .vx .vy .vz .wx .wy .wz; per\n"
    "contact A~B.V .fn .ft .troll .tspin; then per contact A~B.nx .ny .nz, the force .Fx\n"
    ".Fy .Fz and torque .Tx .Ty .Tz on A about its model-frame origin, .stick .sdw .npairs;\n"
    "then E.kinetic E.potential E.elastic E.dissipated E.work_in E.error) and\n"
    "DIR/summary.json (final poses and velocities, per contact first and last contact times\n"
    "and peak forces and torques, the energy budget with the dissipation of each term and\n"
    "the balance error, run statistics), and prints the wall time and contact queries per\n"
    "second. A run that diverges stops with a message and keeps what it wrote.\n"
    "summary.json says \"running\" from before the first row of series.csv until the run\n"
    "ends; one run at a time writes DIR (another is refused, naming its pid).\n\n"
    "  --out DIR       output directory, created if needed (default: .)\n"
    "  --plot          also DIR/forces.png, torques.png, velocities.png (m/s and rad/s\n"
    "                  in two panels), energy.png, tilt.png (each moving body's z axis\n"
    "                  from the world's, degrees)\n"
    "                  and, per contact with a driven body, DIR/BODY-force-depth.png (the\n"
    "                  contact force on it along z against its z) through gnuplot\n"
    "                  (DIR/plots.gp is written either way)\n"
    "  --duration T    run T seconds instead of the task's (duration T)\n"
    "  --max-steps N   stop with status \"limit\" after N steps (default 1e8)\n"
    "  --max-memory BYTES  bound on all the run allocates (the task, its models and\n"
    "                  meshes, the queries): passing it fails the run (exit status 1)\n"
    "  --max-output B  about B bytes of series.csv at most (default 1e9): a run that\n"
    "                  would write more is refused, or stopped with status \"limit\"; with\n"
    "                  --vtk the frames take at most B less the series' bytes: refused\n"
    "                  before the run (exit 1, nothing written) when the bodies' files\n"
    "                  alone would pass it; else, when a frame would (the contact\n"
    "                  regions outgrow the estimate), no more frames are written, the run\n"
    "                  goes on, a warning is printed and the exit status is 1\n"
    "  --max-wall S    stop with status \"limit\" after S seconds of wall time (a query\n"
    "                  under way is stopped too)\n"
    "  --no-closed-form  every contact by the octree, as (closed-form off) does for one\n"
    "  --vtk DIR       ParaView frames, one per record, binary (zlib-compressed VTK XML),\n"
    "                  announced before the run (how many, about how many bytes, where):\n"
    "                  DIR/frame-NNNNNN-body-K.vtp (body K's surface, cell data solid = K,\n"
    "                  cell; written only when its pose changed: a fixed body once) and\n"
    "                  DIR/frame-NNNNNN-contact.vtu (each contact's integrated region,\n"
    "                  cell data contact, closed_form, pair, patch, leaf, level, size, volume,\n"
    "                  volume_lo, volume_hi, bracket_width, error_estimate; a pair measured\n"
    "                  in closed form or by quadrature shown by the octree's coarse boxes),\n"
    "                  played by DIR/bodies.pvd and DIR/contact.pvd\n"
    "  --vtk-tol T     surface sampling edge, m (default: a 64th of each body's extent)\n\n"
    "SIGINT or SIGTERM stops the run after the step under way: the outputs are written,\n"
    "summary.json says \"interrupted\", and a message says when it stopped and where the\n"
    "outputs are.\n\n"
    "Exit status: 0 completed; 1 the run failed, stopped at a limit or could not write its\n"
    "outputs (the message names the file); 2 a usage error; 3 contact queries were capped;\n"
    "4 the energy balance broke; 130 or 143 interrupted by SIGINT or SIGTERM.\n",
    task_run};
