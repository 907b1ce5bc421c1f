/* cmd_sweep.c: `vxc sweep FILE.vxs [--jobs N] [--out DIR] [--resume] [--plot]`: runs every
 * case of a parameter sweep on N local worker processes.
 *
 * Data: each worker is a forked process with two pipes. The parent writes a case index
 * (a long long; -1 to stop) down one, the worker answers with the case's message (its
 * length as a size_t, then sweep_case_message's bytes) up the other and waits for the
 * next index: cases go to whichever worker is free (dynamic assignment). The parent alone
 * writes the files (tools/sweep.c). A worker that dies is replaced and its case recorded
 * as crashed. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/dirs.h"
#include "tools/sweep.h"

typedef struct worker {
  pid_t pid;
  int to, from;   /* parent's ends */
  long long busy; /* the case it runs, -1 when idle */
} worker;


static int write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w <= 0) {
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}


/* 0, or -1 at end of file or on error */
static int read_all(int fd, void *buf, size_t n) {
  char *p = buf;
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r <= 0) {
      return -1;
    }
    p += r;
    n -= (size_t)r;
  }
  return 0;
}


static void worker_loop(const vxc_sweep *sw, long long max_steps, int in, int out) {
  long long i;
  while (read_all(in, &i, sizeof i) == 0 && i >= 0) {
    char *msg = NULL;
    size_t len = 0;
    if (sweep_case_message(sw, i, max_steps, &msg, &len) != 0) {
      _exit(1);
    }
    if (write_all(out, &len, sizeof len) != 0 || write_all(out, msg, len) != 0) {
      _exit(1);
    }
    free(msg);
  }
  _exit(0);
}


static int spawn(worker *w, worker *all, int n, const sweep_out *s) {
  int to[2], from[2];
  if (pipe(to) != 0) {
    return -1;
  }
  if (pipe(from) != 0) {
    close(to[0]);
    close(to[1]);
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(to[0]);
    close(to[1]);
    close(from[0]);
    close(from[1]);
    return -1;
  }
  if (pid == 0) {
    for (int k = 0; k < n; k++) {
      if (all[k].pid > 0) {
        close(all[k].to);
        close(all[k].from);
      }
    }
    close(to[1]);
    close(from[0]);
    signal(SIGINT, SIG_IGN); /* the parent stops the sweep and its workers (sweep_signal) */
    signal(SIGTERM, SIG_DFL);
    if (tools_lock_fd() >= 0) {
      close(tools_lock_fd()); /* the lock goes with the parent (the flock is shared) */
    }
    worker_loop(s->sw, s->o->max_steps, to[0], from[1]);
  }
  close(to[0]);
  close(from[1]);
  w->pid = pid;
  w->to = to[1];
  w->from = from[0];
  w->busy = -1;
  return 0;
}


static void stop(worker *w) {
  long long end = -1;
  write_all(w->to, &end, sizeof end);
  close(w->to);
  close(w->from);
  waitpid(w->pid, NULL, 0);
  w->pid = 0;
}


/* --show-case I: the task text of case I, as vxc_task_parse reads it */
static int show_case(const sweep_opts *o) {
  vxc_sweep *sw = NULL;
  vxc_error err;
  vxc_status st = vxc_sweep_load(o->file, cli_allocator(), &sw, &err);
  if (st != VXC_OK) {
    return cli_lib_error(&err, st);
  }
  char *text = NULL;
  size_t len = 0;
  if (o->show_case >= vxc_sweep_case_count(sw)) {
    fprintf(stderr, "vxc sweep: --show-case: the sweep has cases 0 to %lld\n",
            vxc_sweep_case_count(sw) - 1);
    vxc_sweep_free(sw);
    return CLI_USAGE;
  }
  st = vxc_sweep_case_text(sw, o->show_case, &text, &len, &err);
  if (st == VXC_OK) {
    fwrite(text, 1, len, stdout);
  }
  vxc_sweep_text_free(sw, text);
  vxc_sweep_free(sw);
  return st == VXC_OK ? CLI_OK : cli_lib_error(&err, st);
}


static int sweep_run(int argc, char **argv) {
  sweep_opts o;
  int rc = sweep_parse_args("vxc sweep", cli_cmd_sweep.usage, argc, argv, &o);
  if (rc != 0) {
    return rc;
  }
  if (o.show_case >= 0) {
    return show_case(&o);
  }
  sweep_out s;
  rc = sweep_out_open(&s, &o);
  if (rc != 0) {
    sweep_out_close(&s, 1);
    return rc;
  }
  signal(SIGPIPE, SIG_IGN);
  sweep_catch_signals();
  long long left = s.ncase - s.ndone;
  int n = o.jobs < left ? o.jobs : (int)left;
  worker *w = calloc((size_t)(n > 0 ? n : 1), sizeof *w);
  struct pollfd *pf = calloc((size_t)(n > 0 ? n : 1), sizeof *pf);
  int *who = calloc((size_t)(n > 0 ? n : 1), sizeof *who);
  int failed = !w || !pf || !who;
  for (int k = 0; k < n && !failed; k++) {
    long long i = sweep_out_next(&s);
    if (i < 0) {
      break;
    }
    if (spawn(&w[k], w, n, &s) != 0 || write_all(w[k].to, &i, sizeof i) != 0) {
      fprintf(stderr, "vxc sweep: cannot start a worker process: %s\n", strerror(errno));
      failed = 1;
      break;
    }
    w[k].busy = i;
  }
  while (!sweep_signal) {
    int np = 0;
    for (int k = 0; k < n; k++) {
      if (w[k].pid > 0 && w[k].busy >= 0) {
        pf[np].fd = w[k].from;
        pf[np].events = POLLIN;
        who[np++] = k;
      }
    }
    if (np == 0) {
      break;
    }
    if (poll(pf, (nfds_t)np, 200) < 0) { /* a timeout: sweep_signal is looked at again */
      if (errno == EINTR) {
        continue;
      }
      failed = 1;
      break;
    }
    for (int p = 0; p < np; p++) {
      if (!(pf[p].revents & (POLLIN | POLLHUP | POLLERR))) {
        continue;
      }
      worker *x = &w[who[p]];
      size_t len = 0;
      char *msg = NULL;
      int got = read_all(x->from, &len, sizeof len) == 0 && len < (64u << 20) &&
                (msg = malloc(len)) != NULL && read_all(x->from, msg, len) == 0;
      if (!got) {
        /* the worker died: its case crashed; a new worker takes its place */
        long long dead = x->busy;
        free(msg);
        close(x->to);
        close(x->from);
        waitpid(x->pid, NULL, 0);
        x->pid = 0;
        x->busy = -1;
        if (sweep_out_crashed(&s, dead) != 0) {
          failed = 1;
        }
        long long i = sweep_out_next(&s);
        if (i >= 0 && !failed) {
          if (spawn(x, w, n, &s) != 0 || write_all(x->to, &i, sizeof i) != 0) {
            failed = 1;
          } else {
            x->busy = i;
          }
        }
        continue;
      }
      if (sweep_out_take(&s, msg, len) != 0) {
        failed = 1;
      }
      free(msg);
      x->busy = -1;
      long long i = failed ? -1 : sweep_out_next(&s);
      if (i >= 0) {
        if (write_all(x->to, &i, sizeof i) != 0) {
          failed = 1;
        } else {
          x->busy = i;
        }
      }
    }
    if (failed) {
      break;
    }
  }
  for (int k = 0; k < n; k++) {
    if (w[k].pid > 0) {
      if (failed || sweep_signal) {
        kill(w[k].pid, SIGTERM);
      }
      stop(&w[k]);
    }
  }
  free(w);
  free(pf);
  free(who);
  rc = sweep_out_close(&s, n > 0 ? n : 1);
  return failed ? CLI_FAIL : rc;
}


const cli_command cli_cmd_sweep = {
    "sweep", "run a parameter sweep (.vxs) over a task file on several processes",
    "usage: vxc sweep FILE.vxs [--jobs N] [--out DIR] [--resume] [--plot] [--max-steps N]\n\n"
    "Runs every case of the sweep (the task file with the varied numbers written in) on N\n"
    "worker processes, each taking the next case when it finishes one. Writes DIR/sweep.csv\n"
    "(index, the varied values, the outputs, status; a row appended and flushed as each\n"
    "case ends, the file sorted by index when all are done: the same bytes whatever N) and\n"
    "DIR/times.csv (index, wall_s: wall times, which vary from run to run). A case that\n"
    "fails is recorded with its status (failed, limit, energy-error, initial-overlap,\n"
    "capped, invalid, crashed) and the sweep goes on (the exit status says so, below).\n"
    "DIR/sweep.inputs records the digests of the sweep, task, model and mesh files. One\n"
    "run at a time writes DIR (another is refused, naming its pid); a failed write is an\n"
    "error naming the file (exit 1), files rewritten whole are replaced only when\n"
    "complete.\n\n"
    "  --jobs N        worker processes (default 1)\n"
    "  --out DIR       output directory, created if needed (default: .)\n"
    "  --resume        keep the complete rows of an existing DIR/sweep.csv and run the rest;\n"
    "                  refused when a file in DIR/sweep.inputs changed; a row that does not\n"
    "                  parse, or a second row of one case, is dropped (and said) and rerun\n"
    "  --plot          also DIR/OUTPUT.png per output through gnuplot: a heat map over the\n"
    "                  first two varied numbers, axes and colour box with their units\n"
    "                  (DIR/sweep.gp is written either way)\n"
    "  --max-steps N   per case: stop with status \"limit\" after N steps (default 1e8)\n"
    "  --max-memory BYTES  bound on all a worker allocates (the sweep, each case's task,\n"
    "                  models and queries): a case that passes it fails, naming the bound\n"
    "  --show-case I   print the task file of case I (from 0) and exit\n\n"
    "SIGINT or SIGTERM stops the sweep: the cases under way are abandoned, the rows of the\n"
    "cases that ended stay in DIR/sweep.csv, and a message says how many and that --resume\n"
    "runs the others.\n\n"
    "Exit status: 0 every case completed; 1 a case failed, was invalid, stopped at a limit\n"
    "or crashed, or an output could not be written; 2 a usage error; 3 some cases were only\n"
    "capped; 4 energy errors (as for vxc task); 130 or 143 interrupted by SIGINT or SIGTERM.\n",
    sweep_run};
