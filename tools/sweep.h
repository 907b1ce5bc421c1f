/* sweep.h: what `vxc sweep` (local worker processes) and `vxc-sweep-mpi` (MPI ranks) share:
 * the command line, running one case into a message, and the output folder (sweep.csv,
 * times.csv, resuming, the final sort, plots, the exit status).
 *
 * Data: a case's result travels as one message (sweep_msg header, then the CSV row
 * without its newline, then the error message), so the transport (a pipe, MPI) only moves
 * bytes. The parent (rank 0) alone writes the files: a row is appended and flushed as soon
 * as its case ends (and synced: a kill loses no finished row); when every case is done
 * both files are rewritten in index order, each through a temporary file renamed over it
 * (outfile.h). DIR/sweep.inputs records the digests of the files the sweep reads
 * (sweep_inputs.h); one run at a time writes DIR (tools_lock_dir). */
#ifndef VXC_TOOLS_SWEEP_H
#define VXC_TOOLS_SWEEP_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "tools/outfile.h"
#include "lib/vxc.h"

/* The command line of both programs. */
typedef struct sweep_opts {
  const char *prog; /* "vxc sweep" or "vxc-sweep-mpi", for messages */
  const char *file, *dir;
  int jobs, resume, plot;
  long long max_steps;
  long long show_case; /* --show-case I: print case I's task text (-1: no) */
} sweep_opts;

/* Parses argv (after the command name: argv[0] is the command's name). The options are
 * those `usage` (the program's help) names: another is an unknown option, with the nearest
 * one as a hint. Returns 0, or the exit status after printing a usage error. */
int sweep_parse_args(const char *prog, const char *usage, int argc, char **argv, sweep_opts *o);

/* The signal (SIGINT, SIGTERM) that interrupted the sweep, 0 if none: set by the handlers
 * sweep_catch_signals installs (unless the signal is ignored); a second signal ends the
 * process at once. The runner stops handing out cases when it is set, and sweep_out_close
 * then says how many cases were kept and how to resume, and returns 128 + the signal. */
extern volatile sig_atomic_t sweep_signal;
void sweep_catch_signals(void);

typedef struct sweep_msg {
  long long index;
  double wall_s;
  int status; /* vxc_sweep_status, or SWEEP_CRASHED */
  int rowlen, msglen;
  int pad;
} sweep_msg;

#define SWEEP_CRASHED 100 /* the process running the case died */

/* Runs case i; *out (malloc'd, *len bytes) is its message. Returns 0, or -1 out of memory. */
int sweep_case_message(const vxc_sweep *sw, long long i, long long max_steps, char **out,
                       size_t *len);

/* The output folder and the bookkeeping of the parent. */
typedef struct sweep_out {
  vxc_sweep *sw;
  const sweep_opts *o;
  long long ncase, ndone, nresumed, next;
  char **row;         /* per case: its row (with newline) once known */
  double *wall;       /* per case: wall time, NAN when unknown */
  long long count[8]; /* per vxc_sweep_status; [7] crashed */
  double sum_wall;    /* of the cases run now */
  double t0;
  tools_file csv, times; /* the rows appended as cases end */
  int werr;              /* a write failed (the message printed) */
  int started;           /* the folder was set up: the sweep ran */
  char *inputs;          /* the record of the input files (sweep_inputs.h) */
  int tty, bar_shown; /* a progress line on stderr when it is a terminal */
  char csv_path[4200], times_path[4200], inputs_path[4200];
} sweep_out;

/* Loads the sweep, creates and locks the folder, writes the headers or (--resume) keeps the
 * complete rows of an existing sweep.csv when the sweep's input files are those its rows
 * were computed from. Returns 0 or the exit status (after a message); DIR is untouched
 * when it fails before the sweep could start. */
int sweep_out_open(sweep_out *s, const sweep_opts *o);

/* The next case to run, or -1 when none is left. */
long long sweep_out_next(sweep_out *s);

/* Records one message (from sweep_case_message); returns 0 or -1 (write error). */
int sweep_out_take(sweep_out *s, const char *msg, size_t len);

/* Records case i as crashed (its process died). */
int sweep_out_crashed(sweep_out *s, long long i);

/* Sorts both files, plots (--plot), prints the summary line; frees everything. Returns the
 * exit status: 1 when a case failed, else 4 for an energy error, 3 when capped, else 0;
 * 130 or 143 when SIGINT or SIGTERM interrupted it (sweep_signal; no plots then). */
int sweep_out_close(sweep_out *s, int jobs);

/* Wall clock, s. */
double sweep_now(void);

#endif /* VXC_TOOLS_SWEEP_H */
