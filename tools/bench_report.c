/* bench_report.c: `vxc bench --report FILE`: the performance and validation page, a Markdown
 * file stamped with the version, the commit, the date and the machine, holding the bench's
 * tables (the engine's cases, the peer set, the validation corpus, warm and cold queries)
 * and the bundled
 * scenarios' real-time factors. The tables are the bench's own output (the command run
 * again with standard output captured); the page goes through the tools' atomic writer
 * (outfile.h), so FILE appears only when complete. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/vxc.h"
#include "tools/cli.h"
#include "tools/outfile.h"

/* Prints "vxc bench --report: WHAT: REASON" (as outfile.h does) and returns CLI_FAIL. */
static int fail(const char *what, int e) {
  fprintf(stderr, "vxc bench --report: %s: %s\n", what, strerror(e));
  return CLI_FAIL;
}


/* CPU seconds of the calling thread (a task runs on it). */
static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* The first line `cmd` prints, without its newline, or `fallback`. */
static void first_line(const char *cmd, char *out, size_t n, const char *fallback) {
  snprintf(out, n, "%s", fallback);
  FILE *p = popen(cmd, "r");
  if (!p) {
    return;
  }
  char line[256];
  if (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\r\n")] = 0;
    if (line[0]) {
      snprintf(out, n, "%.*s", (int)(n - 1), line);
    }
  }
  pclose(p);
}


/* The CPU's model name from /proc/cpuinfo, or "unknown". */
static void cpu_model(char *out, size_t n) {
  snprintf(out, n, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) {
    return;
  }
  char line[512];
  while (fgets(line, sizeof line, f)) {
    const char *colon = strchr(line, ':');
    if (strncmp(line, "model name", 10) == 0 && colon) {
      colon += 1 + (colon[1] == ' ');
      snprintf(out, n, "%.*s", (int)strcspn(colon, "\r\n"), colon);
      break;
    }
  }
  fclose(f);
}


static void stamp(FILE *f, int quick) {
  char commit[128], cpu[256], date[64];
  first_line("git describe --always --dirty --abbrev=12 2>/dev/null", commit, sizeof commit,
             "unknown (not run in a git checkout)");
  cpu_model(cpu, sizeof cpu);
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
  struct utsname u;
  if (uname(&u) != 0) {
    snprintf(u.sysname, sizeof u.sysname, "unknown");
    u.release[0] = u.machine[0] = 0;
  }
  fprintf(f,
          "# vxc: performance and validation\n\n"
          "Written by `vxc bench --report%s`; every figure below was measured in that one run.\n"
          "Times depend on the machine and its load: compare ratios taken in one run, not\n"
          "times across pages.\n\n"
          "| | |\n| --- | --- |\n"
          "| vxc | %s |\n| commit | %s |\n| date | %s |\n"
          "| machine | %s %s %s; %s; %ld online CPUs |\n",
          quick ? " --quick" : "", VXC_VERSION, commit, date, u.sysname, u.release, u.machine,
          cpu, sysconf(_SC_NPROCESSORS_ONLN));
#ifdef __VERSION__
  fprintf(f, "| compiler | %s |\n", __VERSION__);
#endif
  fprintf(f, "\n");
}


/* Runs `vxc bench ARGS...` with its standard output captured in a temporary file, then
 * copied to f inside a code block. Returns its exit status. */
static int section_run(FILE *f, int argc, char **argv) {
  FILE *cap = tmpfile();
  if (!cap) {
    return fail("a temporary file", errno);
  }
  fflush(stdout);
  int saved = dup(STDOUT_FILENO);
  if (saved < 0 || dup2(fileno(cap), STDOUT_FILENO) < 0) {
    int e = errno;
    if (saved >= 0) {
      close(saved);
    }
    fclose(cap);
    return fail("standard output", e);
  }
  int rc = cli_cmd_bench.run(argc, argv);
  fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  rewind(cap);
  fprintf(f, "```\n");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, cap)) > 0) {
    fwrite(buf, 1, n, f);
  }
  fclose(cap);
  fprintf(f, "```\n\n");
  return rc;
}


typedef struct cpu_budget {
  double start, limit; /* CPU s */
} cpu_budget;

static int over_budget(void *ud) {
  const cpu_budget *b = ud;
  return cpu_s() - b->start > b->limit;
}


static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}


/* Runs the task file `path` from its start until its duration or `budget` CPU seconds, with
 * its fast paths (closed forms, quadratures) as the file asks or, when closed_form is 0, off
 * for every contact. Fills *s, *cpu (CPU s of the run) and *duration (the file's); returns
 * the library's status, err filled on failure. */
static vxc_status run_task(const char *path, int closed_form, double budget, vxc_task_summary *s,
                           double *cpu, double *duration, vxc_error *err) {
  vxc_task *t = NULL;
  memset(s, 0, sizeof *s);
  cpu_budget b = {cpu_s(), budget};
  vxc_status st = vxc_task_load(path, NULL, &t, err);
  if (st == VXC_OK && !closed_form) {
    st = vxc_task_set_closed_form(t, 0, err);
  }
  if (st == VXC_OK) {
    vxc_task_set_poll(t, over_budget, &b, NULL);
    b.start = cpu_s();
    st = vxc_task_run(t, NULL, NULL, NULL, s, err);
  }
  *cpu = cpu_s() - b.start;
  *duration = t ? vxc_task_duration(t) : 0;
  vxc_task_free(t);
  return st;
}


/* One row per task file of `dir`: its run from the start until its duration or `budget` CPU
 * seconds, and the simulated seconds per CPU second, as the file asks and with the fast
 * paths off (the general engine alone). */
static void scenarios(FILE *f, const char *dir, double budget) {
  fprintf(f,
          "## Scenarios\n\n"
          "The bundled task files (`%s/*.vxt`) run by the library, each from its start until\n"
          "its duration or %.0f s of CPU time, whichever comes first: as the file asks, then\n"
          "with every fast path off (`vxc task --no-closed-form`: the octree for every\n"
          "contact). Real-time factor: simulated seconds per CPU second of the thread that\n"
          "runs it (the library's own work; a mesh's BVH is built by Embree's threads, which\n"
          "are not counted). A run stopped by the CPU budget measures only its start, often\n"
          "the cheaper part (before contact).\n\n"
          "| task | simulated s | of | CPU s | real-time factor | queries | end "
          "| fast paths off: simulated s | CPU s | real-time factor | queries | end |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
          dir, budget);
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(f, "\n(%s: %s)\n\n", dir, strerror(errno));
    return;
  }
  char *names[256];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256) {
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".vxt") == 0) {
      names[n] = strdup(e->d_name);
      n += names[n] != NULL;
    }
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof names[0], by_name);
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    fprintf(f, "| `%s` |", names[i]);
    for (int off = 0; off < 2; off++) {
      vxc_error err;
      vxc_task_summary s;
      double cpu, duration;
      if (run_task(path, !off, budget, &s, &cpu, &duration, &err) != VXC_OK) {
        fprintf(f, off ? " | | | | failed: %s |" : " | | | | | failed: %s |", err.message);
        continue;
      }
      fprintf(f, " %.3g |", s.t_end);
      if (!off) {
        fprintf(f, " %.3g |", duration);
      }
      fprintf(f, " %.3g | %.3g | %lld | %s |", cpu, cpu > 0 ? s.t_end / cpu : 0.0, s.queries,
              s.stopped ? "CPU budget" : "completed");
    }
    fprintf(f, "\n");
    free(names[i]);
  }
  fprintf(f, "\n");
}


/* A section of the page from `vxc bench FLAG N --seed SEED` over the corpus: its title, the
 * command and what it measures, then its output. Returns section_run's status. */
static int corpus_section(FILE *f, const char *title, const char *flag, int n,
                          unsigned long long seed, const char *what) {
  char ns[32], ss[32];
  snprintf(ns, sizeof ns, "%d", n);
  snprintf(ss, sizeof ss, "%llu", seed);
  fprintf(f, "## %s\n\n`vxc bench %s %s --seed %s`: %s.\n\n", title, flag, ns, ss, what);
  char *argv[] = {"bench", (char *)flag, ns, "--seed", ss, NULL};
  return section_run(f, 5, argv);
}


int bench_report(const char *path, int quick, const char *only, int corpus,
                 unsigned long long seed, const char *datadir) {
  tools_file out;
  if (tools_file_open(&out, "vxc bench --report", path, TOOLS_FILE_ATOMIC) != 0) {
    return CLI_FAIL;
  }
  FILE *f = out.f;
  stamp(f, quick);
  fprintf(f, "## The engine against closed forms\n\n"
             "`vxc bench%s%s%s`: the octree alone (fast paths off), per case and stopping rule; "
             "`vxc bench --help` explains the columns.\n\n",
          quick ? " --quick" : "", only ? " --only " : "", only ? only : "");
  char *table[5] = {"bench"};
  int argc = 1;
  if (quick) {
    table[argc++] = "--quick";
  }
  if (only) {
    table[argc++] = "--only";
    table[argc++] = (char *)only;
  }
  int rc = section_run(f, argc, table);
  fprintf(f, "## The peer set\n\n"
             "`vxc bench --peer`: the contacts other tools are timed on, by the largest fixed "
             "leaf reaching 1e-3 and both rtol 1e-3 rules.\n\n");
  char *peer[] = {"bench", "--peer", NULL};
  int rc2 = section_run(f, 2, peer);
  rc = rc ? rc : rc2;
  rc2 = corpus_section(f, "The validation corpus", "--corpus", corpus, seed,
                       "seeded random contacts of eleven families against closed forms or a "
                       "chord quadrature");
  rc = rc ? rc : rc2;
  rc2 = corpus_section(f, "Warm and cold queries", "--warm", corpus, seed,
                       "the corpus's contacts moved by 1e-4 of their size, a query on a fresh "
                       "workspace against one right after the unmoved pose");
  rc = rc ? rc : rc2;
  scenarios(f, datadir, quick ? 2 : 30);
  if (tools_file_close(&out) != 0) {
    return CLI_FAIL;
  }
  fprintf(stderr, "vxc bench: wrote %s\n", path);
  return rc;
}
