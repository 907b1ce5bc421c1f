/* cli.h: what the subcommands of the vxc command share: the command table, argument
 * parsing helpers and error printing. The tools layer sees only the public header. */
#ifndef VXC_CLI_H
#define VXC_CLI_H

#include <stdio.h>

#include "vxc.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Exit statuses of the vxc command. */
enum {
  CLI_OK = 0,     /* success */
  CLI_FAIL = 1,   /* an input (model file, task file) is invalid or a computation failed */
  CLI_USAGE = 2   /* the command line is wrong */
};

/* One subcommand. `run` gets argv after the command name (argv[0] is the command name). */
typedef struct cli_command {
  const char *name;
  const char *summary;  /* one line for `vxc --help` */
  const char *usage;    /* full text for `vxc COMMAND --help` */
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

/* Prints `usage` of the command to stdout; returns CLI_OK. */
int cli_print_help(const cli_command *cmd);

/* Finds a command by name, or NULL. */
const cli_command *cli_find(const char *name);

/* The nearest command name to a misspelt one (edit distance <= 2), or NULL. */
const char *cli_suggest(const char *name);

/* The command table, NULL-terminated (tools/vxc.c). */
extern const cli_command *const cli_commands[];

/* Subcommands (one file each). */
extern const cli_command cli_cmd_info;
extern const cli_command cli_cmd_check;

#endif /* VXC_CLI_H */
