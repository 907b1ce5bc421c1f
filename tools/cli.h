/* cli.h: what the subcommands of the vxc command share: the command table, argument
 * parsing helpers and error printing. The tools layer sees only the public header. */
#ifndef VXC_CLI_H
#define VXC_CLI_H

#include <stdio.h>

#include "lib/vxc.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Exit statuses of the vxc command. */
enum {
  CLI_OK = 0,     /* success */
  CLI_FAIL = 1,   /* an input (model file, task file) is invalid or a computation failed */
  CLI_USAGE = 2,  /* the command line is wrong */
  CLI_CAPPED = 3, /* a result was computed but missed the tolerance asked for (a cap) */
  CLI_ENERGY = 4,  /* a task ran but its energy balance broke (outputs kept) */
  CLI_SIGNAL = 128 /* plus the signal (SIGINT 130, SIGTERM 143): a run interrupted, its
                      outputs kept (vxc task, vxc sweep) */
};

/* One subcommand. `run` gets argv after the command name (argv[0] is the command name). */
typedef struct cli_command {
  const char *name;
  const char *summary; /* one line for `vxc --help` */
  const char *usage;   /* full text for `vxc COMMAND --help`; NULL: `run` gets --help */
  int (*run)(int argc, char **argv);
} cli_command;

/* Prints "vxc COMMAND: message" to stderr, and a hint to the command's help. Returns
 * CLI_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints a library error ("vxc: <message>") to stderr and returns CLI_FAIL. */
int cli_lib_error(const vxc_error *err, vxc_status status);
/* Prints {"error": {"exit_status": rc, "message": ...}} to stdout: what a command given
 * --json answers when it fails (exit status 1 or 2) instead of its JSON object; the
 * message is the last one printed by cli_usage_error or cli_lib_error. */
void cli_json_error(int rc);

/* Strict number parsing: the whole string must be one finite decimal number. Returns 0,
 * or -1 (out untouched). */
int cli_parse_double(const char *s, double *out);

/* Parses 1 to `max` numbers separated by spaces or commas; *n receives how many. Returns
 * 0, or -1 on a malformed or non-finite number or too many numbers. */
int cli_parse_numbers(const char *s, double *out, int max, int *n);

/* Parses "x y z [qw qx qy qz]" (metres; quaternion normalised later by the library).
 * Returns 0, or -1 with a reason in msg. */
int cli_parse_pose(const char *s, vxc_pose *out, char *msg, size_t msg_size);

/* Returns 1 when argv[i] is `-h` or `--help`. */
int cli_is_help(const char *arg);

/* Prints `usage` of the command to stdout, a line CLI_HELP_PARAMS in it replaced by the
 * table of cli_print_params (cli_help.c); returns CLI_OK. */
int cli_print_help(const cli_command *cmd);
/* The line of a usage text where its help lists the contact model's parameters. */
#define CLI_HELP_PARAMS "@PARAMETERS@\n"
/* Prints the contact model's parameters (vxc_params_set's names), one a line: name, the
 * library's default (vxc_params_default), unit and meaning. */
void cli_print_params(FILE *f);

/* Finds a command by name, or NULL. */
const cli_command *cli_find(const char *name);

/* The nearest command name to a misspelt one (edit distance <= 2), or NULL. */
const char *cli_suggest(const char *name);
/* Command-line conventions every command shares (cli_args.c): splits `--opt=value` into
 * `--opt` `value` (before a `--`) into a new argv (*argv_out, free with free(); NULL when
 * out of memory). A `--` ends the options and is dropped; an argument after it that starts
 * with '-' is a file and becomes "./ARG" (so `-- -` names a file called "-", not standard
 * input). */
char **cli_split_equals(int argc, char **argv, int *argc_out);
/* Checks every `--option` of a command line (before `--`) against the options its usage
 * text names; prints "unknown option" with the nearest one and returns CLI_USAGE, else
 * CLI_OK. A command without a usage text (its own program helps) is not checked. */
int cli_check_options(const cli_command *cmd, int argc, char **argv);
/* The option `usage` names (a "--word") nearest to `opt` (edit distance <= 2): 1 with it
 * copied to best, or 0. */
int cli_nearest_option(const char *usage, const char *opt, char *best, size_t size);
/* Whether the usage text names the option `opt` (followed by a blank, a bracket, a bar, a
 * parenthesis or an '=' sign, or at the end). */
int cli_usage_names(const char *usage, const char *opt);
/* The hint every "unknown ..." message of the tools ends with: "; did you mean 'NAME'?"
 * for the one of the n `names` nearest `name` (vxc_nearest_name), or "" when none is
 * near; written into buf (64 bytes hold a 40-character name), which is returned. */
const char *cli_hint(const char *name, const char *const *names, int n, char *buf, size_t size);
/* The same hint for an option against the options a usage text names. */
const char *cli_option_hint(const char *usage, const char *opt, char *buf, size_t size);
/* Splits a `--param` value "NAME=VALUE" into name (at most size - 1 characters) and a
 * finite number. Returns 0, or -1 (outputs unspecified) when it is not of that form. */
int cli_split_param(const char *arg, char *name, size_t size, double *value);

/* Options shared by the commands that measure contacts (metrics, force, mass, bench). */
typedef struct cli_geom_opts {
  vxc_query_options query; /* --voxel, --rtol, --atol, --certified, --threads, --max-boxes,
                              --no-closed-form */
  vxc_pose pose_a, pose_b; /* --pose-a, --pose-b */
  int json;                /* --json */
  int have_voxel, have_rtol;
} cli_geom_opts;

/* Sets the defaults (identity poses, rtol 1e-3, one thread, table output). */
void cli_geom_opts_init(cli_geom_opts *o);

/* If argv[*i] is one of the shared options (with its value in argv[*i + 1]), applies it,
 * advances *i past it and returns 1; returns 0 when it is not a shared option, and -1
 * after printing a usage error for a malformed or missing value. `allow_pose` says whether
 * --pose-a/--pose-b are accepted. */
int cli_geom_opt(const char *command, int argc, char **argv, int *i, cli_geom_opts *o,
                 int allow_pose);

/* Parses the command line of a two-solid command (metrics, force): two model files and
 * the shared options; other options go to `extra` (may be NULL), which returns 1 when it
 * consumed argv[*i] (and maybe its value), 0 when it does not know it, -1 after a usage
 * error. Loads both solids into *a, *b. Returns CLI_OK or the exit status to return. */
int cli_load_pair(const char *command, int argc, char **argv, cli_geom_opts *o,
                  int (*extra)(int argc, char **argv, int *i, void *ud), void *ud, vxc_solid **a,
                  vxc_solid **b);

/* The --max-memory bound of a run (cli_memory.c): one vxc_memory_bound over everything the
 * command loads and queries. cli_memory_set parses BYTES (a whole number from 1 to 1e15) and
 * makes the bound: 0, or -1 (malformed, given twice, or out of memory). cli_allocator is
 * its allocator for every loader and vxc_query_create (NULL without the option);
 * cli_memory_query holds a query's workspace cap (max_bytes) within the bound;
 * cli_memory_refused counts the allocations the bound refused. cli_memory_message, when the
 * bound refused one, writes "the --max-memory bound of N bytes was reached while DOING ..."
 * to msg and returns 1, else 0. */
#define CLI_MEMORY_USAGE "--max-memory: expected a whole number of bytes from 1 to 1e15"
int cli_memory_set(const char *val);
const vxc_allocator *cli_allocator(void);
void cli_memory_query(vxc_query_options *q);
size_t cli_memory_refused(void);
int cli_memory_message(const char *doing, char *msg, size_t size);
/* A failed step of `command` while DOING: the bound's message (cli_memory_message) when the
 * bound was reached, else the library's error (cli_lib_error). Returns CLI_FAIL. */
int cli_fail(const char *command, const char *doing, const vxc_error *err, vxc_status st);

/* Help text of --max-boxes and --max-bytes, shared by mass, metrics and force. */
#define CLI_CAP_HELP                                                                        \
  "  --atol A     with --rtol: an error of A m^3 is enough too (default 0)\n"               \
  "  --certified  stop on the certified bracket (V_hi - V_lo <= max(R V, A)), not on the\n" \
  "               error estimate: a guarantee, at a higher cost\n"                          \
  "  --no-closed-form  measure every pair by the octree (by default a ball's cap or two\n"   \
  "               balls' lens are exact, in closed form, and a ball against a cylinder\n"   \
  "               or a rod, a cone or a ball in a bore or a countersink by quadrature)\n"   \
  "  --max-boxes N  work cap per cell pair (default 2e7 boxes); a result that misses its\n" \
  "               tolerance says \"capped\": true, warns, and the exit status is 3\n"  \
  "  --max-bytes N  memory cap of a query's workspace (default 67108864 bytes, 64 MiB);\n" \
  "               reaching it is a cap as --max-boxes is\n"                             \
  "  --max-memory BYTES  bound on all the run allocates (models, meshes, queries);\n"   \
  "               passing it is an error (exit status 1) naming the bound\n"

/* Warns on stderr, naming `file`, when the solid's lengths look like millimetres
 * (vxc_solid_units_suspect). Returns 1 when it warned, else 0. */
int cli_warn_units(const char *command, const char *file, const vxc_solid *s);

/* The exit statuses of the commands that measure (mass, metrics, force). */
#define CLI_EXIT_HELP                                                                      \
  "\nExit status: 0 done, 1 invalid input (a model or parameter file) or a failed query,\n" \
  "2 a usage error, 3 a capped result (--max-boxes, --max-bytes).\n"

/* Warns on stderr when a result is capped (missed its tolerance: vxc_pair_metrics,
 * vxc_mass_props); returns CLI_CAPPED then, else CLI_OK. */
int cli_capped(const char *command, int capped);

/* Warns on stderr, naming `file` and both cells, of every pair of the solid's cells whose
 * overlap is certainly not empty (its certified lower bound is positive, at rtol 1e-2): the
 * mass properties count such volume twice. Returns the number of such pairs, or -1 when a
 * query failed (the error printed). */
int cli_warn_overlaps(const char *command, const char *file, const vxc_solid *s);

/* JSON output helpers: a number (%.17g; non-finite numbers as null), a 3-vector, a 3x3
 * row-major matrix, a string with escapes. */
void cli_json_num(FILE *f, double x);
void cli_json_vec(FILE *f, const double *v, int n);
void cli_json_mat3(FILE *f, const double m[9]);
void cli_json_str(FILE *f, const char *s);
/* A contact patch's keys (no braces): the measure of cli_json_measure, "normal", "area",
 * "boxes". */
void cli_json_patch_keys(FILE *f, const vxc_patch *p);

/* The keys of a measured region, without braces: "volume", "volume_lo", "volume_hi",
 * "error_estimate" (vol[0 .. 3]), "centroid", "inertia". */
void cli_json_measure(FILE *f, const double vol[4], const double centroid[3],
                      const double inertia[9]);

/* Parameter files (--params FILE): `NAME VALUE` or `NAME = VALUE` a line, `#` or `;`
 * comments; at most CLI_PARAMS_FILE_MAX bytes and CLI_PARAMS_LINE_MAX characters a line. */
#define CLI_PARAMS_FILE_MAX (1 << 20)
#define CLI_PARAMS_LINE_MAX 1023
/* Applies the `len` bytes of parameter-file text to *p (vxc_params_set, in order). Returns
 * 0, or -1 with "LINE:COLUMN: reason" in msg (*p then holds the lines before). */
int cli_params_text(const char *text, size_t len, vxc_params *p, char *msg, size_t size);
/* Reads the parameter file `path` into *p. Returns 0, or -1 after printing
 * "vxc: PATH:LINE:COLUMN: reason" (or why the file cannot be read) to stderr. */
int cli_read_params(const char *path, vxc_params *p);

/* Installs `handler` for SIGINT and SIGTERM, unless the signal is ignored (a background
 * job without job control), with SA_RESETHAND: a second signal ends the process at once.
 * The runs that stop cleanly on a signal (vxc task, vxc sweep) use it. */
void cli_catch_signals(void (*handler)(int));

/* Flushes stdout at the end of a command; returns `rc`, or CLI_FAIL after printing the
 * error when a write to stdout failed (a full disk, a closed pipe). */
int cli_finish_stdout(int rc);

/* The input file of a command that reads one model or task file (cli_input.c): `-` reads
 * standard input whole, once per command, named CLI_STDIN_NAME in messages, with the files it
 * names relative to the current directory; another path goes to vxc_solid_load or
 * vxc_task_load (default allocator). Statuses as those functions, and for `-` also VXC_ERR_IO
 * (a read error), VXC_ERR_ARG (standard input already read) and VXC_ERR_NOMEM, with *err
 * set. */
#define CLI_STDIN_NAME "<stdin>"
vxc_status cli_solid_load(const char *path, vxc_solid **out, vxc_error *err);
vxc_status cli_task_load(const char *path, vxc_task **out, vxc_error *err);
/* Help text for `-`, shared by the commands that accept it. */
#define CLI_STDIN_HELP                                                                   \
  "A FILE of '-' reads standard input; the files it names resolve against the current\n" \
  "directory.\n"

/* `vxc bench --corpus N --seed S` (bench_corpus.c): returns a CLI_ exit status. */
int bench_corpus(int n, unsigned long long seed);
/* `vxc bench --corpus N --list [--case I]` (bench_corpus.c): one line a case (case `only`
 * alone when it is not negative), each rule's CPU ms and error; a CLI_ exit status. */
int bench_corpus_list(int n, int only, unsigned long long seed);
/* The calling thread's CPU time, ms (bench_corpus.c): what the corpus benches time. */
double bench_cpu_ms(void);
/* `vxc bench --warm N --seed S` (bench_warm.c): warm against cold queries on the corpus;
 * returns a CLI_ exit status. */
int bench_warm(int n, unsigned long long seed);
/* `vxc bench --peer` (bench_corpus.c): the peer set (corpus.h); a CLI_ exit status. */
int bench_peer(void);
/* `vxc bench --report FILE` (bench_report.c): the performance and validation page, with
 * the table's cases whose name contains `only` (NULL: all), `corpus` cases of the corpus from `seed` and the task files of `datadir`; a CLI_ exit
 * status. */
int bench_report(const char *path, int quick, const char *only, int corpus,
                 unsigned long long seed, const char *datadir);

/* `vxc bench --mesh` (bench_mesh.c): the mesh family against CGAL and Manifold. */
typedef struct bench_mesh_opts {
  int quick;              /* shorter repeats (30 ms a tool and case instead of 300) */
  int json;               /* a JSON object instead of the table */
  int variants;           /* poses per case template (>= 1) */
  unsigned long long seed;
  const char *only;       /* NULL, or run the cases whose name contains this */
} bench_mesh_opts;
/* Returns a CLI_ exit status. */
int bench_mesh(const bench_mesh_opts *o);

/* The command table, NULL-terminated (tools/vxc.c). */
extern const cli_command *const cli_commands[];

/* Subcommands (one file each). */
extern const cli_command cli_cmd_info;
extern const cli_command cli_cmd_check;
extern const cli_command cli_cmd_mass;
extern const cli_command cli_cmd_metrics;
extern const cli_command cli_cmd_force;
extern const cli_command cli_cmd_task;
extern const cli_command cli_cmd_import;
extern const cli_command cli_cmd_bench;
extern const cli_command cli_cmd_sweep;
extern const cli_command cli_cmd_belt;

#endif /* VXC_CLI_H */
