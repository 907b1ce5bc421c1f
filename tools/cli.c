/* cli.c: argument parsing and error printing shared by the vxc subcommands. */
#include "tools/cli.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The last error message printed by cli_usage_error or cli_lib_error, for the JSON error
 * object of a failed command given --json. */
static char last_error[1024];

int cli_usage_error(const char *command, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  fprintf(stderr, "vxc%s%s: %s\n", command ? " " : "", command ? command : "", last_error);
  fprintf(stderr, "Try 'vxc %s%s--help'.\n", command ? command : "", command ? " " : "");
  return CLI_USAGE;
}


int cli_lib_error(const vxc_error *err, vxc_status status) {
  snprintf(last_error, sizeof last_error, "%s",
           err && err->message[0] ? err->message : vxc_status_str(status));
  fprintf(stderr, "vxc: %s\n", last_error);
  return CLI_FAIL;
}


int cli_fail(const char *command, const char *doing, const vxc_error *err, vxc_status st) {
  if (st == VXC_ERR_NOMEM && cli_memory_message(doing, last_error, sizeof last_error)) {
    fprintf(stderr, "vxc %s: %s\n", command, last_error);
    return CLI_FAIL;
  }
  return cli_lib_error(err, st);
}


void cli_json_error(int rc) {
  printf("{\"error\": {\"exit_status\": %d, \"message\": ", rc);
  cli_json_str(stdout, last_error[0] ? last_error : "failed (see standard error)");
  printf("}}\n");
}


int cli_parse_double(const char *s, double *out) {
  if (!s || !*s) {
    return -1;
  }
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    return -1;
  }
  /* strtod accepts hexadecimal and "inf"/"nan" spellings: only decimal is meant */
  for (const char *p = s; *p; p++) {
    if (strchr("0123456789+-.eE", *p) == NULL) {
      return -1;
    }
  }
  *out = v;
  return 0;
}


int cli_parse_numbers(const char *s, double *out, int max, int *n) {
  char buf[1024];
  if (!s || strlen(s) >= sizeof buf) {
    return -1;
  }
  strcpy(buf, s);
  double tmp[16];
  int k = 0;
  for (char *tok = strtok(buf, " ,\t"); tok; tok = strtok(NULL, " ,\t")) {
    if (k >= max || k >= 16 || cli_parse_double(tok, &tmp[k]) != 0) {
      return -1;
    }
    k++;
  }
  if (k == 0) {
    return -1;
  }
  memcpy(out, tmp, (size_t)k * sizeof *out);
  *n = k;
  return 0;
}


int cli_parse_pose(const char *s, vxc_pose *out, char *msg, size_t msg_size) {
  double v[7];
  int n = 0;
  if (cli_parse_numbers(s, v, 7, &n) != 0 || (n != 3 && n != 7)) {
    snprintf(msg, msg_size,
             "expected \"x y z\" or \"x y z qw qx qy qz\" (finite numbers), got \"%s\"",
             s ? s : "");
    return -1;
  }
  for (int i = 0; i < 3; i++) {
    if (!(fabs(v[i]) <= 1e4)) {
      snprintf(msg, msg_size, "position %g m is beyond 1e4 m (the limit of model files)", v[i]);
      return -1;
    }
  }
  vxc_pose p = vxc_pose_identity();
  memcpy(p.p, v, sizeof p.p);
  if (n == 7) {
    double big = fmax(fmax(fabs(v[3]), fabs(v[4])), fmax(fabs(v[5]), fabs(v[6])));
    if (!(big > 0)) {
      snprintf(msg, msg_size, "the quaternion \"%g %g %g %g\" is zero", v[3], v[4], v[5], v[6]);
      return -1;
    }
    double norm = 0; /* of the quaternion scaled by its largest component: no overflow */
    for (int i = 0; i < 4; i++) {
      norm += (v[3 + i] / big) * (v[3 + i] / big);
    }
    for (int i = 0; i < 4; i++) {
      p.q[i] = v[3 + i] / big / sqrt(norm);
    }
  }
  *out = p;
  return 0;
}


int cli_is_help(const char *arg) {
  return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}


const cli_command *cli_find(const char *name) {
  for (int i = 0; cli_commands[i]; i++) {
    if (strcmp(cli_commands[i]->name, name) == 0) {
      return cli_commands[i];
    }
  }
  return NULL;
}


/* Levenshtein distance of two short strings (longer ones count as far apart). */
const char *cli_suggest(const char *name) {
  const char *names[64];
  int n = 0;
  for (int i = 0; cli_commands[i] && n < 64; i++) {
    names[n++] = cli_commands[i]->name;
  }
  return vxc_nearest_name(name, names, n);
}


void cli_geom_opts_init(cli_geom_opts *o) {
  memset(o, 0, sizeof *o);
  vxc_query_options_default(&o->query);
  o->pose_a = vxc_pose_identity();
  o->pose_b = vxc_pose_identity();
}


int cli_geom_opt(const char *command, int argc, char **argv, int *i, cli_geom_opts *o,
                 int allow_pose) {
  const char *arg = argv[*i];
  if (strcmp(arg, "--json") == 0) {
    o->json = 1;
    return 1;
  }
  if (strcmp(arg, "--certified") == 0) {
    o->query.certified = 1;
    return 1;
  }
  if (strcmp(arg, "--no-closed-form") == 0) {
    o->query.closed_form = 0;
    return 1;
  }
  int is_pose = strcmp(arg, "--pose-a") == 0 || strcmp(arg, "--pose-b") == 0;
  int known = (allow_pose && is_pose) || strcmp(arg, "--voxel") == 0 ||
              strcmp(arg, "--rtol") == 0 || strcmp(arg, "--threads") == 0 ||
              strcmp(arg, "--max-boxes") == 0 || strcmp(arg, "--max-bytes") == 0 ||
              strcmp(arg, "--atol") == 0 || strcmp(arg, "--max-memory") == 0;
  if (!known) {
    return 0;
  }
  if (*i + 1 >= argc) {
    cli_usage_error(command, "option '%s' needs a value", arg);
    return -1;
  }
  const char *val = argv[++*i];
  double x;
  char msg[256];
  if (is_pose) {
    vxc_pose *p = arg[7] == 'a' ? &o->pose_a : &o->pose_b;
    if (cli_parse_pose(val, p, msg, sizeof msg) != 0) {
      cli_usage_error(command, "%s: %s", arg, msg);
      return -1;
    }
  } else if (strcmp(arg, "--threads") == 0) {
    if (cli_parse_double(val, &x) != 0 || x < 1 || x > 64 || x != (int)x) {
      cli_usage_error(command, "--threads: expected a whole number from 1 to 64, got '%s'", val);
      return -1;
    }
    o->query.threads = (int)x;
  } else if (strcmp(arg, "--max-boxes") == 0) {
    if (cli_parse_double(val, &x) != 0 || x < 1 || x > 1e12 || x != floor(x)) {
      cli_usage_error(command, "--max-boxes: expected a whole number from 1 to 1e12, got '%s'",
                      val);
      return -1;
    }
    o->query.max_boxes = (long long)x;
  } else if (strcmp(arg, "--max-bytes") == 0) {
    if (cli_parse_double(val, &x) != 0 || x < 1e6 || x > 1e12 || x != floor(x)) {
      cli_usage_error(command, "--max-bytes: expected a whole number from 1e6 to 1e12, got '%s'",
                      val);
      return -1;
    }
    o->query.max_bytes = (size_t)x;
  } else if (strcmp(arg, "--max-memory") == 0) {
    if (cli_memory_set(val) != 0) {
      cli_usage_error(command, "%s, got '%s'", CLI_MEMORY_USAGE, val);
      return -1;
    }
  } else if (strcmp(arg, "--atol") == 0) {
    if (cli_parse_double(val, &x) != 0 || !(x >= 0) || x > 1) {
      cli_usage_error(command, "--atol: expected a volume from 0 to 1 (m^3), got '%s'", val);
      return -1;
    }
    o->query.atol = x;
  } else {
    if (cli_parse_double(val, &x) != 0 || !(x > 0)) {
      cli_usage_error(command, "%s: expected a positive number, got '%s'", arg, val);
      return -1;
    }
    int both = o->have_rtol || o->have_voxel;
    if (strcmp(arg, "--voxel") == 0) {
      o->query.voxel = x;
      o->have_voxel = 1;
      if (!o->have_rtol) {
        o->query.rtol = 0; /* --voxel alone: the thesis's fixed voxel size */
      }
    } else {
      o->query.rtol = x;
      o->have_rtol = 1;
    }
    if (both && o->have_rtol && o->have_voxel) {
      fprintf(stderr,
              "vxc %s: warning: --rtol and --voxel both given: refining to --rtol, with no "
              "leaf smaller than --voxel\n",
              command);
    }
  }
  return 1;
}


int cli_warn_overlaps(const char *command, const char *file, const vxc_solid *s) {
  vxc_query *q = NULL;
  vxc_error err;
  vxc_status st = vxc_query_create(cli_allocator(), &q, &err);
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = 1e-2;
  cli_memory_query(&o);
  vxc_pose id = vxc_pose_identity();
  int n = vxc_solid_cell_count(s), found = 0;
  for (int i = 0; i < n && st == VXC_OK; i++) {
    for (int j = i + 1; j < n && st == VXC_OK; j++) {
      vxc_pair_metrics m;
      st = vxc_query_pair(q, s, i, &id, s, j, &id, &o, 0, &m, &err);
      if (st == VXC_NO_CONTACT) {
        st = VXC_OK;
      } else if (st == VXC_OK && m.volume_lo > 0) {
        fprintf(stderr,
                "vxc %s: warning: %s: cells '%s' and '%s' overlap by %.3g m^3 (at least "
                "%.3g): the solid's mass properties count that volume twice\n",
                command, file, m.name_a, m.name_b, m.geom.volume, m.volume_lo);
        found++;
      }
    }
  }
  vxc_query_free(q);
  if (st != VXC_OK) {
    char doing[4200];
    snprintf(doing, sizeof doing, "checking the cells of %s for overlaps", file);
    cli_fail(command, doing, st == VXC_ERR_NOMEM ? NULL : &err, st);
    return -1;
  }
  return found;
}


int cli_warn_units(const char *command, const char *file, const vxc_solid *s) {
  char why[512];
  if (!vxc_solid_units_suspect(s, why, sizeof why)) {
    return 0;
  }
  fprintf(stderr, "vxc %s: warning: %s: %s\n", command, file, why);
  return 1;
}


int cli_capped(const char *command, int capped) {
  if (!capped) {
    return CLI_OK;
  }
  fprintf(stderr,
          "vxc %s: warning: the work or memory cap stopped refinement before the tolerance "
          "asked for: the result is less accurate than asked (its bracket still holds; "
          "\"capped\": true in the JSON). A coarser --voxel, a larger --rtol, a larger "
          "--max-boxes or a larger --max-bytes%s may help.\n",
          command, cli_allocator() ? " (held within --max-memory)" : "");
  return CLI_CAPPED;
}


void cli_json_num(FILE *f, double x) {
  if (isfinite(x)) {
    fprintf(f, "%.17g", x);
  } else {
    fputs("null", f);
  }
}


void cli_json_vec(FILE *f, const double *v, int n) {
  fputc('[', f);
  for (int i = 0; i < n; i++) {
    if (i) {
      fputs(", ", f);
    }
    cli_json_num(f, v[i]);
  }
  fputc(']', f);
}


void cli_json_mat3(FILE *f, const double m[9]) {
  fputc('[', f);
  for (int i = 0; i < 3; i++) {
    if (i) {
      fputs(", ", f);
    }
    cli_json_vec(f, m + 3 * i, 3);
  }
  fputc(']', f);
}


void cli_json_measure(FILE *f, const double vol[4], const double centroid[3],
                      const double inertia[9]) {
  static const char *const key[4] = {"volume", "volume_lo", "volume_hi", "error_estimate"};
  for (int k = 0; k < 4; k++) {
    fprintf(f, "%s\"%s\": ", k ? ", " : "", key[k]);
    cli_json_num(f, vol[k]);
  }
  fputs(", \"centroid\": ", f);
  cli_json_vec(f, centroid, 3);
  fputs(", \"inertia\": ", f);
  cli_json_mat3(f, inertia);
}


void cli_json_patch_keys(FILE *f, const vxc_patch *p) {
  const double vol[4] = {p->volume, p->volume_lo, p->volume_hi, p->error_estimate};
  cli_json_measure(f, vol, p->centroid, p->inertia);
  fputs(", \"normal\": ", f);
  cli_json_vec(f, p->normal, 3);
  fputs(", \"area\": ", f);
  cli_json_num(f, p->area);
  fputs(", \"penetration\": ", f);
  cli_json_num(f, p->penetration);
  fputs(", \"penetration_lo\": ", f);
  cli_json_num(f, p->penetration_lo);
  fputs(", \"penetration_hi\": ", f);
  cli_json_num(f, p->penetration_hi);
  fprintf(f, ", \"boxes\": %lld", p->boxes);
}


void cli_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fprintf(f, "\\%c", c);
    } else if (c < 0x20) {
      fprintf(f, "\\u%04x", c);
    } else {
      fputc(c, f);
    }
  }
  fputc('"', f);
}


void cli_catch_signals(void (*handler)(int)) {
  static const int sigs[] = {SIGINT, SIGTERM};
  for (int i = 0; i < 2; i++) {
    struct sigaction old, sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) {
      sigaction(sigs[i], &sa, NULL);
    }
  }
}


int cli_finish_stdout(int rc) {
  int bad = ferror(stdout);
  errno = 0;
  if (fflush(stdout) != 0 || bad) {
    fprintf(stderr, "vxc: standard output: write error: %s\n", strerror(errno ? errno : EIO));
    return rc == CLI_OK ? CLI_FAIL : rc;
  }
  return rc;
}
