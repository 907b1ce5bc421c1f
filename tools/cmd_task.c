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
  static const int sigs[] = {SIGINT, SIGTERM};
  for (int i = 0; i < 2; i++) {
    struct sigaction old, sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) {
      sigaction(sigs[i], &sa, NULL);
    }
  }
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
  if (o->vtk && task_vtk_frame(o->vtk, r) != 0) {
    o->vtk_failed = 1;
    return 1;
  }
  return 0;
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
    *rc = 128 + task_signal;
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


/* Writes DIR/plots.gp and runs gnuplot on it when gnuplot is installed. */
static int write_plots(const char *dir, vxc_task *t) {
  char path[4200];
  snprintf(path, sizeof path, "%s/plots.gp", dir);
  tools_file out;
  if (tools_file_open(&out, "vxc task", path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  FILE *f = out.f;
  fprintf(f,
          "# gnuplot script written by vxc task: plots of %s/series.csv\n"
          "set datafile separator ','\nset terminal png size 1000,600 noenhanced\n"
          "set grid\nset xlabel 't [s]'\nset key outside right\n",
          dir);
  static const char *what[4][3] = {{"forces", "force [N]", "fn ft"},
                                   {"torques", "torque [N m]", "troll tspin"},
                                   {"velocities", "velocity [m/s, rad/s]", ""},
                                   {"energy", "energy [J]", ""}};
  for (int k = 0; k < 4; k++) {
    fprintf(f, "set output '%s/%s.png'\nset ylabel '%s'\nset title '%s: %s'\nplot ", dir,
            what[k][0], what[k][1], vxc_task_name(t), what[k][0]);
    int n = 0;
    if (k < 2) {
      for (int i = 0; i < vxc_task_contact_count(t); i++) {
        int a, b;
        vxc_task_contact_bodies(t, i, &a, &b, NULL);
        const char *cols[2] = {k ? "troll" : "fn", k ? "tspin" : "ft"};
        for (int j = 0; j < 2; j++) {
          fprintf(f,
                  "%s'%s/series.csv' using (column('t')):(column('%s~%s.%s')) with lines "
                  "title '%s~%s.%s'",
                  n++ ? ", \\\n  " : "", dir, vxc_task_body_name(t, a), vxc_task_body_name(t, b),
                  cols[j], vxc_task_body_name(t, a), vxc_task_body_name(t, b), cols[j]);
        }
      }
      if (k == 0) {
        for (int i = 0; i < vxc_task_contact_count(t); i++) {
          int a, b;
          vxc_task_contact_bodies(t, i, &a, &b, NULL);
          for (int j = 0; j < 3; j++) {
            fprintf(f,
                    ", \\\n  '%s/series.csv' using (column('t')):(column('%s~%s.F%c')) "
                    "with lines title 'on %s: F%c'",
                    dir, vxc_task_body_name(t, a), vxc_task_body_name(t, b), "xyz"[j],
                    vxc_task_body_name(t, a), "xyz"[j]);
          }
        }
      }
    } else if (k == 2) {
      static const char *vc[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
      for (int i = 0; i < vxc_task_body_count(t); i++) {
        if (!vxc_task_body_is_free(t, i) && !vxc_task_body_is_driven(t, i)) {
          continue;
        }
        for (int j = 0; j < 6; j++) {
          fprintf(f,
                  "%s'%s/series.csv' using (column('t')):(column('%s.%s')) with lines "
                  "title '%s.%s'",
                  n++ ? ", \\\n  " : "", dir, vxc_task_body_name(t, i), vc[j],
                  vxc_task_body_name(t, i), vc[j]);
        }
      }
    } else {
      static const char *ec[] = {"kinetic", "potential", "elastic", "dissipated", "work_in"};
      fprintf(f,
              "'%s/series.csv' using (column('t')):(column('E.kinetic')+column('E.potential')"
              "+column('E.elastic')) with lines title 'K + P + elastic'",
              dir);
      n++;
      for (int j = 0; j < 5; j++) {
        fprintf(f,
                ", \\\n  '%s/series.csv' using (column('t')):(column('E.%s')) with lines "
                "title '%s'",
                dir, ec[j], ec[j]);
      }
    }
    if (n == 0) {
      fprintf(f, "0 title 'nothing to plot'");
    }
    fprintf(f, "\n");
  }
  /* the tilt of each moving body's z axis from the world's z axis (the tippe-top's
     inversion, a peg's misalignment), degrees */
  fprintf(f,
          "set output '%s/tilt.png'\nset ylabel 'tilt of the body z axis from world z "
          "[degrees]'\nset title '%s: tilt'\nclamp(c) = c > 1 ? 1 : (c < -1 ? -1 : c)\nplot ",
          dir, vxc_task_name(t));
  int nt = 0;
  for (int i = 0; i < vxc_task_body_count(t); i++) {
    if (!vxc_task_body_is_free(t, i) && !vxc_task_body_is_driven(t, i)) {
      continue;
    }
    const char *nm = vxc_task_body_name(t, i);
    fprintf(f,
            "%s'%s/series.csv' using (column('t')):(acos(clamp(1 - 2 * (column('%s.qx')**2 + "
            "column('%s.qy')**2))) * 180 / pi) with lines title '%s'",
            nt++ ? ", \\\n  " : "", dir, nm, nm, nm);
  }
  fprintf(f, "%s\n", nt ? "" : "0 title 'nothing to plot'");
  /* insertion and extraction: the contact force on a driven body along z against its
     z (depth), one plot per such contact */
  for (int i = 0; i < vxc_task_contact_count(t); i++) {
    int a, b;
    vxc_task_contact_bodies(t, i, &a, &b, NULL);
    int d = vxc_task_body_is_driven(t, b) ? b : vxc_task_body_is_driven(t, a) ? a : -1;
    if (d < 0) {
      continue;
    }
    const char *na = vxc_task_body_name(t, a), *nb = vxc_task_body_name(t, b);
    fprintf(f,
            "set output '%s/%s-force-depth.png'\nset xlabel '%s.z [m]'\n"
            "set ylabel 'contact force on %s along z [N]'\nset title '%s: force against "
            "depth'\nplot '%s/series.csv' using (column('%s.z')):(%scolumn('%s~%s.Fz')) "
            "with lines title '%s~%s'\nset xlabel 't [s]'\n",
            dir, vxc_task_body_name(t, d), vxc_task_body_name(t, d), vxc_task_body_name(t, d),
            vxc_task_name(t), dir, vxc_task_body_name(t, d), d == a ? "" : "-", na, nb, na, nb);
  }
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


/* Loads the task and applies the command line's duration and limits. */
static int task_open(const task_args *a, vxc_task **out) {
  vxc_error err;
  vxc_task *t = NULL;
  vxc_status st = cli_task_load(a->file, &t, &err);
  if (st != VXC_OK) {
    return cli_lib_error(&err, st);
  }
  if (a->duration > 0) {
    vxc_task_set_duration(t, a->duration, NULL);
  }
  if (a->no_closed_form) {
    vxc_task_set_closed_form(t, 0, NULL);
  }
  /* --max-output in bytes: a row of series.csv is about 24 bytes a column */
  double row = 24.0 * (1 + 13 * vxc_task_body_count(t) + 17 * vxc_task_contact_count(t) + 6);
  vxc_task_set_limits(t, (long long)a->max_steps, (long long)fmax(1, a->max_output / row), NULL);
  *out = t;
  return CLI_OK;
}


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
    snprintf(msg, size, "%s", st == VXC_OK ? "" : err->message);
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
  if (tools_make_dirs(a->dir) != 0) {
    fprintf(stderr, "vxc: %s: cannot create the directory: %s\n", a->dir, strerror(errno));
    return CLI_FAIL;
  }
  if (tools_lock_dir("vxc task", a->dir) != 0 || write_running(path, t) != 0 ||
      tools_file_open(&o.csv, "vxc task", o.csv_path, TOOLS_FILE_TRUNC) != 0) {
    return CLI_FAIL;
  }
  if (a->vtk && tools_make_dirs(a->vtk) != 0) {
    fprintf(stderr, "vxc: %s: cannot create the directory: %s\n", a->vtk, strerror(errno));
    tools_file_discard(&o.csv);
    return CLI_FAIL;
  }
  if (a->vtk && !(o.vtk = task_vtk_open(t, a->vtk, a->vtk_tol))) {
    tools_file_discard(&o.csv);
    return CLI_FAIL;
  }
  if (csv_header(&o) != 0) {
    tools_file_discard(&o.csv);
    free(o.names);
    free(o.pairs);
    task_vtk_close(o.vtk);
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
    "cell-pair tracking, integrated by RK4 or an adaptive embedded pair (Dormand-Prince\n"
    "5(4) or Bogacki-Shampine 3(2)) with first-contact event location. Writes\n"
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
    "  --plot          also DIR/forces.png, torques.png, velocities.png, energy.png,\n"
    "                  tilt.png (each moving body's z axis from the world's, degrees)\n"
    "                  and, per contact with a driven body, DIR/BODY-force-depth.png (the\n"
    "                  contact force on it along z against its z) through gnuplot\n"
    "                  (DIR/plots.gp is written either way)\n"
    "  --duration T    run T seconds instead of the task's (duration T)\n"
    "  --max-steps N   stop with status \"limit\" after N steps (default 1e8)\n"
    "  --max-output B  about B bytes of series.csv at most (default 1e9): a run that\n"
    "                  would write more is refused, or stopped with status \"limit\"\n"
    "  --max-wall S    stop with status \"limit\" after S seconds of wall time (a query\n"
    "                  under way is stopped too)\n"
    "  --no-closed-form  every contact by the octree, as (closed-form off) does for one\n"
    "  --vtk DIR       ParaView frames, one per record: DIR/frame-NNNNNN-bodies.vtp (the\n"
    "                  posed bodies' surfaces, cell data solid = body index, cell) and\n"
    "                  DIR/frame-NNNNNN-contact.vtu (each contact's integrated region,\n"
    "                  cell data contact, pair, patch, leaf, level, size, volume, volume_lo,\n"
    "                  volume_hi, bracket_width, error_estimate), played by DIR/bodies.pvd\n"
    "                  and DIR/contact.pvd\n"
    "  --vtk-tol T     surface sampling edge, m (default: a 64th of each body's extent)\n\n"
    "SIGINT or SIGTERM stops the run after the step under way: the outputs are written,\n"
    "summary.json says \"interrupted\" and the exit status is 130 or 143. Exit status 1\n"
    "when the run failed, stopped at a limit or could not write its outputs (the message\n"
    "names the file), 3 when contact queries were capped, 4 when the energy balance broke.\n",
    task_run};
