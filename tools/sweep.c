/* sweep.c: the core shared by `vxc sweep` and `vxc-sweep-mpi` (sweep.h). */
#include "tools/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h" /* exit statuses */
#include "tools/dirs.h"
#include "tools/plot.h"
#include "tools/sweep_inputs.h"

double sweep_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static int usage(const char *prog, const char *fmt, const char *arg) {
  fprintf(stderr, "%s: ", prog);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry '%s --help'.\n", prog);
  return CLI_USAGE;
}


static int parse_count(const char *s, double lo, double hi, long long *out) {
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno || !(v >= lo && v <= hi) || v != floor(v) ||
      strspn(s, "0123456789+-.eE") != strlen(s)) {
    return -1;
  }
  *out = (long long)v;
  return 0;
}


int sweep_parse_args(const char *prog, const char *help, int argc, char **argv, sweep_opts *o) {
  memset(o, 0, sizeof *o);
  o->prog = prog;
  o->dir = ".";
  o->jobs = 1;
  o->show_case = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '-' && a[1] && !cli_usage_names(help, a)) {
      char hint[64];
      fprintf(stderr, "%s: unknown option '%s'%s\nTry '%s --help'.\n", prog, a,
              cli_option_hint(help, a, hint, sizeof hint), prog);
      return CLI_USAGE;
    }
    if (!strcmp(a, "--jobs") || !strcmp(a, "--out") || !strcmp(a, "--max-steps") ||
        !strcmp(a, "--show-case")) {
      if (i + 1 >= argc) {
        return usage(prog, "option '%s' needs a value", a);
      }
      long long v;
      if (!strcmp(a, "--out")) {
        o->dir = argv[++i];
      } else if (!strcmp(a, "--jobs")) {
        if (parse_count(argv[++i], 1, 1024, &v) != 0) {
          return usage(prog, "--jobs: expected a number of processes from 1 to 1024, got \"%s\"",
                       argv[i]);
        }
        o->jobs = (int)v;
      } else if (!strcmp(a, "--show-case")) {
        if (parse_count(argv[++i], 0, 1e7, &v) != 0) {
          return usage(prog, "--show-case: expected a case index, got \"%s\"", argv[i]);
        }
        o->show_case = v;
      } else {
        if (parse_count(argv[++i], 1, 1e15, &v) != 0) {
          return usage(prog, "--max-steps: expected a number from 1 to 1e15, got \"%s\"", argv[i]);
        }
        o->max_steps = v;
      }
    } else if (!strcmp(a, "--max-memory")) {
      if (i + 1 >= argc || cli_memory_set(argv[i + 1]) != 0) {
        return usage(prog, "%s", CLI_MEMORY_USAGE);
      }
      i++;
    } else if (!strcmp(a, "--resume")) {
      o->resume = 1;
    } else if (!strcmp(a, "--plot")) {
      o->plot = 1;
    } else if (a[0] == '-' && a[1]) {
      return usage(prog, "unknown option '%s'", a);
    } else if (o->file) {
      return usage(prog, "one sweep file only (got a second: '%s')", a);
    } else {
      o->file = a;
    }
  }
  if (!o->file) {
    return usage(prog, "missing the sweep file (.vxs)%s", "");
  }
  return 0;
}


volatile sig_atomic_t sweep_signal;

static void on_signal(int sig) {
  sweep_signal = sig;
}


void sweep_catch_signals(void) {
  cli_catch_signals(on_signal);
}


/* %.17g, with one spelling for NaN */
static int put_num(char *buf, size_t size, double x) {
  if (isnan(x)) {
    return snprintf(buf, size, "nan");
  }
  return snprintf(buf, size, "%.17g", x);
}


/* "INDEX,V...," of case i into buf; returns its length. */
static size_t row_prefix(const vxc_sweep *sw, long long i, char *buf, size_t size) {
  double v[256];
  vxc_sweep_case_values(sw, i, v, NULL);
  size_t n = (size_t)snprintf(buf, size, "%lld,", i);
  for (int a = 0; a < vxc_sweep_axis_count(sw) && n < size; a++) {
    n += (size_t)put_num(buf + n, size - n, v[a]);
    n += (size_t)snprintf(buf + n, size - n, ",");
  }
  return n < size ? n : size - 1;
}


static const char *status_name(int st) {
  return st == SWEEP_CRASHED ? "crashed" : vxc_sweep_status_name((vxc_sweep_status)st);
}


static size_t row_size(const vxc_sweep *sw) {
  return (size_t)(vxc_sweep_axis_count(sw) + vxc_sweep_output_count(sw)) * 32 + 64;
}


/* the row of case i (without newline) with these outputs (NULL: all nan) */
static char *make_row(const vxc_sweep *sw, long long i, const double *out, int st) {
  size_t size = row_size(sw);
  char *row = malloc(size);
  if (!row) {
    return NULL;
  }
  size_t n = row_prefix(sw, i, row, size);
  for (int k = 0; k < vxc_sweep_output_count(sw); k++) {
    n += (size_t)put_num(row + n, size - n, out ? out[k] : NAN);
    n += (size_t)snprintf(row + n, size - n, ",");
  }
  snprintf(row + n, size - n, "%s", status_name(st));
  return row;
}


int sweep_case_message(const vxc_sweep *sw, long long i, long long max_steps, char **out,
                       size_t *len) {
  double o[64];
  vxc_sweep_result res;
  size_t refused = cli_memory_refused();
  vxc_error err;
  vxc_status st = vxc_sweep_run_case(sw, i, max_steps, 0, o, &res, &err);
  if (st != VXC_OK) {
    res.status = VXC_SWEEP_FAILED;
    res.wall_s = 0;
    res.err = err;
    for (int k = 0; k < 64; k++) {
      o[k] = NAN;
    }
  }
  if (cli_memory_refused() > refused && res.status != VXC_SWEEP_COMPLETED) {
    char doing[64];
    snprintf(doing, sizeof doing, "running case %lld", i);
    res.status = VXC_SWEEP_FAILED;
    cli_memory_message(doing, res.err.message, sizeof res.err.message);
  }
  char *row = make_row(sw, i, o, res.status);
  const char *msg =
      res.status == VXC_SWEEP_COMPLETED || res.status == VXC_SWEEP_CAPPED ? "" : res.err.message;
  if (!row) {
    return -1;
  }
  sweep_msg h;
  memset(&h, 0, sizeof h);
  h.index = i;
  h.wall_s = res.wall_s;
  h.status = res.status;
  h.rowlen = (int)strlen(row);
  h.msglen = (int)strlen(msg);
  *len = sizeof h + (size_t)h.rowlen + (size_t)h.msglen;
  *out = malloc(*len);
  if (!*out) {
    free(row);
    return -1;
  }
  memcpy(*out, &h, sizeof h);
  memcpy(*out + sizeof h, row, (size_t)h.rowlen);
  memcpy(*out + sizeof h + h.rowlen, msg, (size_t)h.msglen);
  free(row);
  return 0;
}


static void write_header(const vxc_sweep *sw, FILE *f) {
  fprintf(f, "index");
  for (int a = 0; a < vxc_sweep_axis_count(sw); a++) {
    fprintf(f, ",%s", vxc_sweep_axis_name(sw, a));
  }
  for (int k = 0; k < vxc_sweep_output_count(sw); k++) {
    fprintf(f, ",%s", vxc_sweep_output_name(sw, k));
  }
  fprintf(f, ",status\n");
}


static int status_of(const char *name) {
  for (int k = 0; k <= VXC_SWEEP_INVALID; k++) {
    if (!strcmp(name, vxc_sweep_status_name((vxc_sweep_status)k))) {
      return k;
    }
  }
  return -1;
}


/* One line of the file (without its newline) into a malloc'd string; NULL at the end or
 * for a line cut short (no newline: the run was killed while writing it). */
static char *read_line(FILE *f, int *cut) {
  size_t cap = 256, n = 0;
  char *s = malloc(cap);
  int c = EOF;
  *cut = 0;
  if (!s) {
    return NULL;
  }
  while ((c = fgetc(f)) != EOF && c != '\n') {
    if (n + 1 >= cap) {
      char *ns = realloc(s, cap * 2);
      if (!ns) {
        break;
      }
      s = ns;
      cap *= 2;
    }
    s[n++] = (char)c;
  }
  if (c == EOF) {
    *cut = n > 0;
    free(s);
    return NULL;
  }
  s[n] = 0;
  return s;
}


/* Why a row of sweep.csv cannot be kept, or NULL when it can: the fields, the index, the
 * varied values (this case's), every output a number, the status. *idx and *code receive
 * the case and its status. */
static const char *row_fault(const sweep_out *s, const char *line, char *prefix, size_t psize,
                             long long *idx, int *code) {
  const vxc_sweep *sw = s->sw;
  int na = vxc_sweep_axis_count(sw), no = vxc_sweep_output_count(sw);
  int commas = 0;
  for (const char *p = line; *p; p++) {
    commas += *p == ',';
  }
  if (commas != na + no + 1) {
    return "not as many fields as the header";
  }
  char *end = NULL;
  errno = 0;
  long long i = strtoll(line, &end, 10);
  if (end == line || *end != ',' || errno || i < 0 || i >= s->ncase) {
    return "no case index";
  }
  *idx = i;
  size_t pn = row_prefix(sw, i, prefix, psize);
  if (strncmp(line, prefix, pn) != 0) {
    return "its varied values are not this case's";
  }
  const char *p = line + pn;
  for (int k = 0; k < no; k++) {
    size_t n = strcspn(p, ",");
    double v = strtod(p, &end);
    (void)v;
    if (n == 0 || end != p + n) {
      return "an output is not a number";
    }
    p += n + 1;
  }
  *code = status_of(p);
  return !strcmp(p, "crashed") ? "its case crashed" : *code < 0 ? "no status" : NULL;
}


/* Keeps row `line` (owned from here) as case i's, unless case i has one already: then
 * both go and the case runs again (dup[i]). */
static int keep_row(sweep_out *s, char *line, long long i, char *dup) {
  if (dup[i]) {
    free(line);
    return 0;
  }
  if (s->row[i]) {
    dup[i] = 1;
    free(s->row[i]);
    s->row[i] = NULL;
    free(line);
    return 0;
  }
  size_t l = strlen(line);
  char *nl = realloc(line, l + 2);
  if (!nl) {
    free(line);
    return -1;
  }
  memcpy(nl + l, "\n", 2);
  s->row[i] = nl;
  return 0;
}


/* Reads the rows of sweep.csv after its header (f), each checked by row_fault; prints
 * each dropped row's line and reason (the first ten). Returns 0, or -1 out of memory. */
static int read_rows(sweep_out *s, FILE *f) {
  size_t psize = row_size(s->sw);
  char *prefix = malloc(psize), *dup = calloc((size_t)s->ncase, 1);
  long long dropped = 0, nline = 1;
  int cut = 0, rc = prefix && dup ? 0 : -1;
  char *line;
  while (rc == 0 && (line = read_line(f, &cut)) != NULL) {
    long long i = -1;
    int code = -1; /* counted once every row is read */
    const char *why = row_fault(s, line, prefix, psize, &i, &code);
    nline++;
    if (!why && (dup[i] || s->row[i])) {
      why = "a second row of its case (the first is dropped too)";
      keep_row(s, line, i, dup);
    } else if (!why) {
      rc = keep_row(s, line, i, dup);
    } else {
      free(line);
    }
    if (why && dropped++ < 10) {
      fprintf(stderr, "vxc sweep: --resume: %s:%lld: %s: dropped, its case runs again\n",
              s->csv_path, nline, why);
    }
  }
  if (cut) {
    fprintf(stderr, "vxc sweep: --resume: %s:%lld: a row cut short: dropped\n", s->csv_path,
            nline + 1);
  }
  for (long long i = 0; i < s->ncase; i++) { /* the kept rows, each its case's only one */
    if (s->row[i]) {
      const char *st = strrchr(s->row[i], ',') + 1;
      char name[32];
      snprintf(name, sizeof name, "%.*s", (int)strcspn(st, "\n"), st);
      s->count[status_of(name)]++;
      s->ndone++;
      s->nresumed++;
    }
  }
  free(prefix);
  free(dup);
  if (dropped || cut) {
    fprintf(stderr, "vxc sweep: --resume: %lld row%s of %s kept, %lld dropped\n", s->nresumed,
            s->nresumed == 1 ? "" : "s", s->csv_path, dropped + cut);
  }
  return rc;
}


/* The wall times of the kept rows, from times.csv. */
static void read_times(sweep_out *s) {
  FILE *f = fopen(s->times_path, "r");
  int cut = 0;
  if (!f) {
    return;
  }
  char *l = read_line(f, &cut);
  free(l);
  while ((l = read_line(f, &cut)) != NULL) {
    long long i;
    double w;
    if (sscanf(l, "%lld,%lf", &i, &w) == 2 && i >= 0 && i < s->ncase && s->row[i] &&
        isnan(s->wall[i])) {
      s->wall[i] = w;
    }
    free(l);
  }
  fclose(f);
}


/* --resume: keeps the rows of sweep.csv that are whole, this sweep's (same header, same
 * input files, same values) and did not crash; their wall times from times.csv. */
static int resume(sweep_out *s, const char *header) {
  FILE *f = fopen(s->csv_path, "r");
  if (!f) {
    return 0; /* nothing to resume */
  }
  int cut = 0;
  char *line = read_line(f, &cut);
  int same = line && strncmp(line, header, strlen(header) - 1) == 0 && !line[strlen(header) - 1];
  free(line);
  if (!same) {
    fclose(f);
    fprintf(stderr,
            "vxc sweep: %s has another header (another sweep's file?): remove it, or choose "
            "another --out\n",
            s->csv_path);
    return CLI_FAIL;
  }
  if (sweep_inputs_check(s->inputs, s->inputs_path) != 0) {
    fclose(f);
    return CLI_FAIL;
  }
  int rc = read_rows(s, f);
  fclose(f);
  if (rc != 0) {
    fprintf(stderr, "vxc sweep: out of memory\n");
    return CLI_FAIL;
  }
  read_times(s);
  return 0;
}


static int write_times_row(FILE *f, long long i, double w) {
  return fprintf(f, "%lld,%.6f\n", i, w) < 0 ? -1 : 0;
}


/* Writes both files whole, rows in index order, each through a temporary file renamed
 * over it: a failure leaves the previous file. */
static int rewrite(sweep_out *s) {
  const char *paths[2] = {s->csv_path, s->times_path};
  for (int k = 0; k < 2; k++) {
    tools_file o;
    if (tools_file_open(&o, "vxc sweep", paths[k], TOOLS_FILE_ATOMIC) != 0) {
      return -1;
    }
    if (k == 0) {
      write_header(s->sw, o.f);
    } else {
      fprintf(o.f, "index,wall_s\n");
    }
    for (long long i = 0; i < s->ncase; i++) {
      if (k == 0 && s->row[i]) {
        fputs(s->row[i], o.f);
      } else if (k == 1 && s->row[i] && !isnan(s->wall[i])) {
        write_times_row(o.f, i, s->wall[i]);
      }
    }
    if (tools_file_close(&o) != 0) {
      return -1;
    }
  }
  return 0;
}


/* DIR/sweep.inputs: the record of the input files, whole or not at all. */
static int write_inputs(sweep_out *s) {
  tools_file o;
  if (tools_file_open(&o, "vxc sweep", s->inputs_path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  fputs(s->inputs, o.f);
  return tools_file_close(&o);
}


int sweep_out_open(sweep_out *s, const sweep_opts *o) {
  memset(s, 0, sizeof *s);
  s->o = o;
  s->t0 = sweep_now();
  s->tty = isatty(2);
  vxc_error err;
  vxc_status st = vxc_sweep_load(o->file, cli_allocator(), &s->sw, &err);
  if (st != VXC_OK) {
    char msg[sizeof err.message + 64], doing[4200];
    snprintf(doing, sizeof doing, "loading %s", o->file);
    if (st != VXC_ERR_NOMEM || !cli_memory_message(doing, msg, sizeof msg)) {
      snprintf(msg, sizeof msg, "%s", err.message[0] ? err.message : vxc_status_str(st));
    }
    fprintf(stderr, "vxc: %s\n", msg);
    return CLI_FAIL;
  }
  s->ncase = vxc_sweep_case_count(s->sw);
  s->row = calloc((size_t)s->ncase, sizeof *s->row);
  s->wall = malloc(sizeof *s->wall * (size_t)s->ncase);
  if (!s->row || !s->wall) {
    fprintf(stderr, "vxc sweep: out of memory\n");
    return CLI_FAIL;
  }
  for (long long i = 0; i < s->ncase; i++) {
    s->wall[i] = NAN;
  }
  if (sweep_inputs_text(s->sw, o->file, &s->inputs) != 0) {
    return CLI_FAIL;
  }
  if (tools_make_dirs(o->dir) != 0) {
    fprintf(stderr, "vxc sweep: %s: cannot create the directory: %s\n", o->dir, strerror(errno));
    return CLI_FAIL;
  }
  if (tools_lock_dir("vxc sweep", o->dir) != 0) {
    return CLI_FAIL;
  }
  snprintf(s->csv_path, sizeof s->csv_path, "%s/sweep.csv", o->dir);
  snprintf(s->times_path, sizeof s->times_path, "%s/times.csv", o->dir);
  snprintf(s->inputs_path, sizeof s->inputs_path, "%s/sweep.inputs", o->dir);
  char *header = NULL;
  size_t hlen = 0;
  FILE *hf = open_memstream(&header, &hlen);
  if (!hf) {
    return CLI_FAIL;
  }
  write_header(s->sw, hf);
  fclose(hf);
  int rc = o->resume ? resume(s, header) : 0;
  free(header);
  if (rc != 0) {
    return rc;
  }
  /* the kept rows (and only then the record of the inputs they match), then the new rows
     appended as they come */
  if (rewrite(s) != 0 || write_inputs(s) != 0 ||
      tools_file_open(&s->csv, "vxc sweep", s->csv_path, TOOLS_FILE_APPEND) != 0 ||
      tools_file_open(&s->times, "vxc sweep", s->times_path, TOOLS_FILE_APPEND) != 0) {
    return CLI_FAIL;
  }
  s->started = 1;
  return 0;
}


long long sweep_out_next(sweep_out *s) {
  while (s->next < s->ncase && s->row[s->next]) {
    s->next++;
  }
  return s->next < s->ncase ? s->next++ : -1;
}


static int record(sweep_out *s, long long i, char *row, double wall, int st, const char *msg) {
  if (i < 0 || i >= s->ncase || s->row[i]) {
    free(row);
    return 0;
  }
  s->row[i] = row;
  s->wall[i] = wall;
  s->ndone++;
  s->count[st == SWEEP_CRASHED ? 7 : st]++;
  s->sum_wall += wall;
  int rc = 0;
  fputs(row, s->csv.f);
  write_times_row(s->times.f, i, wall);
  if (tools_file_sync(&s->csv) != 0 || tools_file_sync(&s->times) != 0) {
    s->werr = 1;
    rc = -1;
  }
  if (s->tty) {
    fprintf(stderr, "\r%60s\r", "");
  }
  if (st != VXC_SWEEP_COMPLETED) {
    fprintf(stderr, "vxc sweep: case %lld: %s%s%s\n", i, status_name(st), msg[0] ? ": " : "", msg);
  }
  if (s->tty) {
    fprintf(stderr, "[%lld of %lld cases done, %.0f s]", s->ndone, s->ncase, sweep_now() - s->t0);
    s->bar_shown = 1;
  }
  return rc;
}


int sweep_out_take(sweep_out *s, const char *msg, size_t len) {
  sweep_msg h;
  if (len < sizeof h) {
    return -1;
  }
  memcpy(&h, msg, sizeof h);
  if (h.rowlen < 0 || h.msglen < 0 || len != sizeof h + (size_t)h.rowlen + (size_t)h.msglen) {
    return -1;
  }
  char *row = malloc((size_t)h.rowlen + 2);
  char *text = malloc((size_t)h.msglen + 1);
  if (!row || !text) {
    free(row);
    free(text);
    return -1;
  }
  memcpy(row, msg + sizeof h, (size_t)h.rowlen);
  memcpy(row + h.rowlen, "\n", 2);
  memcpy(text, msg + sizeof h + h.rowlen, (size_t)h.msglen);
  text[h.msglen] = 0;
  int rc = record(s, h.index, row, h.wall_s, h.status, text);
  free(text);
  return rc;
}


int sweep_out_crashed(sweep_out *s, long long i) {
  char *row = make_row(s->sw, i, NULL, SWEEP_CRASHED);
  if (!row) {
    return -1;
  }
  size_t l = strlen(row);
  char *r2 = realloc(row, l + 2);
  if (!r2) {
    free(row);
    return -1;
  }
  memcpy(r2 + l, "\n", 2);
  return record(s, i, r2, 0, SWEEP_CRASHED, "the process running it died");
}


/* One output's heat map over the axes x and y: the image of a grid, or points coloured by
 * value; the colour box, labelled with the output and its unit, is its key; its range from
 * the data (a constant output widened). */
static void plot_map(FILE *f, const vxc_sweep *sw, const char *csv, const char *x, const char *y,
                     const char *out) {
  char z[300], label[300];
  snprintf(z, sizeof z, "column('%s')", out);
  plot_range_of(f, csv, z, "zlo", "zhi");
  /* x and y over the data (an image's cells reach half a step past it) */
  fprintf(f, "set autoscale xfix\nset autoscale yfix\nset cbrange [zlo:zhi]\nset cblabel '%s'\n",
          plot_label(out, label, sizeof label));
  if (vxc_sweep_is_grid(sw) && vxc_sweep_axis_count(sw) == 2) {
    fprintf(f,
            "plot '%s' using (column('%s')):(column('%s')):(%s) with image notitle\n", csv, x,
            y, z);
  } else {
    fprintf(f,
            "plot '%s' using (column('%s')):(column('%s')):(%s) with points pointtype 5 "
            "pointsize 2 palette notitle\n",
            csv, x, y, z);
  }
}


/* DIR/sweep.gp: per output, a heat map over the first two varied axes (a line over the
 * first when only one varies), axes and colour box labelled with their units; gnuplot runs
 * it when installed. */
static int write_plots(sweep_out *s) {
  const vxc_sweep *sw = s->sw;
  const char *dir = s->o->dir;
  char path[4200], csv[4200], png[4300], title[600], xl[300], yl[300];
  snprintf(path, sizeof path, "%s/sweep.gp", dir);
  snprintf(csv, sizeof csv, "%s/sweep.csv", dir);
  tools_file o;
  if (tools_file_open(&o, "vxc sweep", path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  FILE *f = o.f;
  int na = vxc_sweep_axis_count(sw);
  const char *x = vxc_sweep_axis_name(sw, 0), *y = na > 1 ? vxc_sweep_axis_name(sw, 1) : NULL;
  fprintf(f, "# gnuplot script written by vxc sweep: plots of %s\n", csv);
  plot_head(f, 900, 700);
  fprintf(f, "set palette rgbformulae 33,13,10\n");
  plot_label(x, xl, sizeof xl);
  for (int k = 0; k < vxc_sweep_output_count(sw); k++) {
    const char *out = vxc_sweep_output_name(sw, k);
    char col[300];
    snprintf(png, sizeof png, "%s/%s.png", dir, out);
    snprintf(title, sizeof title, "%s: %s", vxc_sweep_name(sw), out);
    snprintf(col, sizeof col, "column('%s')", out);
    tools_plot p;
    if (!y) {
      plot_begin(&p, f, png, title, xl, plot_label(out, yl, sizeof yl));
      char xc[300];
      snprintf(xc, sizeof xc, "column('%s')", x);
      plot_add(&p, csv, xc, col, out);
      plot_end(&p);
      continue;
    }
    plot_begin(&p, f, png, title, xl, plot_label(y, yl, sizeof yl));
    plot_map(f, sw, csv, x, y, out);
  }
  if (tools_file_close(&o) != 0) {
    return -1;
  }
  return tools_gnuplot("vxc sweep", path);
}


int sweep_out_close(sweep_out *s, int jobs) {
  int rc = s->werr ? CLI_FAIL : CLI_OK;
  if (tools_file_close(&s->csv) != 0) {
    rc = CLI_FAIL;
  }
  if (tools_file_close(&s->times) != 0) {
    rc = CLI_FAIL;
  }
  if (s->bar_shown) {
    fprintf(stderr, "\r%60s\r", "");
  }
  /* even after a failed append: the rows are all in memory, and the rename is atomic */
  if (s->started && s->ndone == s->ncase && rewrite(s) != 0) {
    rc = CLI_FAIL;
  }
  if (s->started && s->o->plot && !sweep_signal && write_plots(s) != 0) {
    rc = CLI_FAIL;
  }
  if (s->started && rc != CLI_OK) {
    fprintf(stderr, "vxc sweep: %s: not every row could be written (above): --resume runs the "
            "missing cases\n", s->o->dir);
  }
  if (s->started) {
    double wall = sweep_now() - s->t0;
    long long nrun = s->ndone - s->nresumed;
    printf("sweep %s: %lld of %lld cases in %s (%lld run now, %lld resumed):",
           vxc_sweep_name(s->sw), s->ndone, s->ncase, s->csv_path, nrun, s->nresumed);
    for (int k = 0; k < 8; k++) {
      if (s->count[k]) {
        printf(" %lld %s", s->count[k], k == 7 ? "crashed" : vxc_sweep_status_name(k));
      }
    }
    printf(
        "\n  wall time %.3f s; the cases run now took %.3f s in all, %.3f s per job on %d "
        "job%s (%.0f%% of the wall time)\n",
        wall, s->sum_wall, s->sum_wall / jobs, jobs, jobs == 1 ? "" : "s",
        wall > 0 ? 100 * s->sum_wall / jobs / wall : 0.0);
  }
  if (s->started && sweep_signal) {
    fprintf(stderr,
            "%s: interrupted by %s: %lld of %lld cases kept in %s; rerun with --resume to run "
            "the other %lld\n",
            s->o->prog, sweep_signal == SIGINT ? "SIGINT" : "SIGTERM", s->ndone, s->ncase,
            s->csv_path, s->ncase - s->ndone);
    rc = CLI_SIGNAL + sweep_signal;
  }
  long long bad = s->count[VXC_SWEEP_FAILED] + s->count[VXC_SWEEP_INVALID] +
                  s->count[VXC_SWEEP_LIMIT] + s->count[VXC_SWEEP_OVERLAP] + s->count[7];
  if (rc == CLI_OK) {
    rc = bad                          ? CLI_FAIL
         : s->count[VXC_SWEEP_ENERGY] ? CLI_ENERGY
         : s->count[VXC_SWEEP_CAPPED] ? CLI_CAPPED
         : s->ndone < s->ncase        ? CLI_FAIL
                                      : CLI_OK;
  }
  for (long long i = 0; s->row && i < s->ncase; i++) {
    free(s->row[i]);
  }
  free(s->row);
  free(s->wall);
  free(s->inputs);
  vxc_sweep_free(s->sw);
  memset(s, 0, sizeof *s);
  return rc;
}
