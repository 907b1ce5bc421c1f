/* vxc-sweep-mpi.c: `mpirun -n P vxc-sweep-mpi FILE.vxs [--out DIR] [--resume] [--plot]`: the
 * cases of a parameter sweep on MPI ranks, with the same files as `vxc sweep`.
 *
 * Data: rank 0 is the dispatcher: it alone writes the files (tools/sweep.c) and hands
 * out case indices one at a time (a long long, tag TAG_CASE; -1 to stop) to whichever rank
 * answers; ranks 1 .. P-1 load the sweep themselves, run the case and send its message
 * (sweep_case_message's bytes, tag TAG_RESULT). With one rank, rank 0 runs the cases
 * itself. Rank 0 waits for results by polling with short sleeps, so that on a machine with
 * fewer cores than ranks it leaves the cores to the workers. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cli.h"
#include "tools/sweep.h"

enum { TAG_CASE = 1, TAG_RESULT = 2 };

const cli_command *const cli_commands[] = {NULL}; /* cli.c's table: no subcommands here */

static const char usage_text[] =
    "usage: mpirun -n P vxc-sweep-mpi FILE.vxs [--out DIR] [--resume] [--plot] [--max-steps N]\n"
    "                                [--max-memory BYTES]\n\n"
    "Runs the cases of a parameter sweep (.vxs) on MPI ranks: rank 0 hands out case\n"
    "indices and writes DIR/sweep.csv and DIR/times.csv, the other ranks run the cases.\n"
    "The files and options are those of `vxc sweep` (see vxc sweep --help); sweep.csv has\n"
    "the same bytes as a local run's.\n\n"
    "Exit status: 0 every case completed; 1 a case failed (or was invalid, limited, crashed)\n"
    "or an output could not be written; 2 a usage error; 3 some cases were only capped; 4\n"
    "energy errors; 130 or 143 when SIGINT or SIGTERM stopped rank 0 (the rows kept say how\n"
    "many cases ran: --resume runs the others).\n";


static void nap(void) {
  struct timespec ts = {0, 2000000}; /* 2 ms */
  nanosleep(&ts, NULL);
}


static int worker(const sweep_opts *o) {
  vxc_sweep *sw = NULL;
  vxc_error err;
  vxc_status st = vxc_sweep_load(o->file, cli_allocator(), &sw, &err);
  for (;;) {
    long long i;
    MPI_Recv(&i, 1, MPI_LONG_LONG, 0, TAG_CASE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (i < 0) {
      break;
    }
    char *msg = NULL;
    size_t len = 0;
    if (st != VXC_OK || sweep_case_message(sw, i, o->max_steps, &msg, &len) != 0) {
      /* an empty message: rank 0 records the case as crashed */
      len = 0;
    }
    MPI_Send(msg, (int)len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    free(msg);
  }
  vxc_sweep_free(sw);
  return 0;
}


static int dispatcher(const sweep_opts *o, int size, int ok_args) {
  sweep_out s;
  int rc = ok_args ? sweep_out_open(&s, o) : CLI_USAGE;
  int go = rc == 0;
  if (go) {
    sweep_catch_signals();
  }
  MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!go) {
    if (ok_args) {
      sweep_out_close(&s, 1);
    }
    return rc;
  }
  int failed = 0;
  if (size == 1) {
    long long i;
    while (!failed && !sweep_signal && (i = sweep_out_next(&s)) >= 0) {
      char *msg = NULL;
      size_t len = 0;
      failed = sweep_case_message(s.sw, i, o->max_steps, &msg, &len) != 0 ||
               sweep_out_take(&s, msg, len) != 0;
      free(msg);
    }
    rc = sweep_out_close(&s, 1);
    return failed ? CLI_FAIL : rc;
  }
  long long *busy = malloc(sizeof *busy * (size_t)size);
  int nbusy = 0;
  for (int r = 1; r < size; r++) {
    long long i = failed ? -1 : sweep_out_next(&s);
    MPI_Send(&i, 1, MPI_LONG_LONG, r, TAG_CASE, MPI_COMM_WORLD);
    busy[r] = i;
    nbusy += i >= 0;
  }
  while (nbusy > 0) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &status);
    if (!flag && sweep_signal) {
      break; /* main ends the ranks still running a case (MPI_Abort) */
    }
    if (!flag) {
      nap();
      continue;
    }
    int len = 0;
    MPI_Get_count(&status, MPI_BYTE, &len);
    char *msg = malloc(len > 0 ? (size_t)len : 1);
    int r = status.MPI_SOURCE;
    MPI_Recv(msg, len, MPI_BYTE, r, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (len == 0 ? sweep_out_crashed(&s, busy[r]) != 0
                 : sweep_out_take(&s, msg, (size_t)len) != 0) {
      failed = 1;
    }
    free(msg);
    long long i = failed ? -1 : sweep_out_next(&s);
    MPI_Send(&i, 1, MPI_LONG_LONG, r, TAG_CASE, MPI_COMM_WORLD);
    busy[r] = i;
    nbusy -= i < 0;
  }
  free(busy);
  rc = sweep_out_close(&s, size - 1);
  return failed ? CLI_FAIL : rc;
}


int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      if (rank == 0) {
        fputs(usage_text, stdout);
      }
      MPI_Finalize();
      return 0;
    }
  }
  sweep_opts o;
  int rc = 0;
  if (rank == 0) {
    rc = sweep_parse_args("vxc-sweep-mpi", usage_text, argc, argv, &o);
    rc = dispatcher(&o, size, rc == 0);
    if (tools_stdout_check("vxc-sweep-mpi") != 0 && rc == 0) {
      rc = CLI_FAIL;
    }
    if (sweep_signal && size > 1) {
      fflush(NULL);
      MPI_Abort(MPI_COMM_WORLD, rc); /* the other ranks are in the middle of cases */
    }
  } else {
    int go = 0;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    /* rank 0 accepted the same argv: parsing it here prints nothing */
    if (go && sweep_parse_args("vxc-sweep-mpi", usage_text, argc, argv, &o) == 0) {
      worker(&o);
    }
  }
  MPI_Finalize();
  return rc;
}
