/* vxc.c: the vxc command: dispatch to subcommands, global --help and --version. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

const cli_command *const cli_commands[] = {
    &cli_cmd_info,  &cli_cmd_check, &cli_cmd_mass, &cli_cmd_metrics,
    &cli_cmd_force, &cli_cmd_bench, &cli_cmd_task, &cli_cmd_import,
    &cli_cmd_sweep, &cli_cmd_belt,  NULL};

/* The options of `vxc` itself, for the hint to a misspelt one. */
static const char GENERAL_OPTIONS[] = "--help --version";

static void print_help(void) {
  printf(
      "usage: vxc COMMAND [ARGS...]\n"
      "       vxc --help | --version\n\n"
      "vxc measures the volume of interference of two solids (volume, centroid, inertia)\n"
      "and turns it into contact forces (Gonthier's volumetric contact model).\n\n"
      "Commands:\n");
  for (int i = 0; cli_commands[i]; i++) {
    printf("  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
  }
  printf(
      "\n'vxc COMMAND --help' or 'vxc help COMMAND' describes a command; --opt=value is\n"
      "--opt value. Units are SI (metres, kilograms, seconds). A model or task file of '-'\n"
      "(info, check, mass, task) reads standard input; the files it names resolve against\n"
      "the current directory.\n\n"
      "Exit status (each command's help says which it uses):\n"
      "  %-4d success\n"
      "  %-4d invalid input, a failed computation, a task or sweep case that failed or\n"
      "       stopped at a limit, or an output that could not be written\n"
      "  %-4d a usage error (the command line is wrong)\n"
      "  %-4d a result capped: computed, but less accurate than asked (mass, metrics,\n"
      "       force, task, sweep)\n"
      "  %-4d a task's energy balance broke, its outputs kept (task, sweep)\n"
      "  %-4d interrupted by SIGINT, what was computed kept (task, sweep)\n"
      "  %-4d interrupted by SIGTERM, the same\n",
      CLI_OK, CLI_FAIL, CLI_USAGE, CLI_CAPPED, CLI_ENERGY, CLI_SIGNAL + SIGINT,
      CLI_SIGNAL + SIGTERM);
}


/* "unknown command" with the nearest command's name (`vxc NAME`, `vxc help NAME`). */
static int unknown_command(const char *name) {
  const char *near = cli_suggest(name);
  return cli_usage_error(NULL, "unknown command '%s'%s%s%s", name, near ? "; did you mean '" : "",
                         near ? near : "", near ? "'?" : "");
}


static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    print_help();
    return CLI_USAGE;
  }
  if (strcmp(argv[1], "help") == 0 && argc <= 3) { /* vxc help [COMMAND] */
    const cli_command *c = argc == 3 ? cli_find(argv[2]) : NULL;
    if (argc == 3 && c && c->usage) {
      return cli_print_help(c);
    }
    if (argc == 3 && !c) {
      return unknown_command(argv[2]);
    }
    if (argc == 2) {
      print_help();
      return CLI_OK;
    }
    argv[1] = argv[2]; /* a command that helps itself: `vxc COMMAND --help` */
    argv[2] = "--help";
  }
  const char *name = argv[1];
  if (cli_is_help(name)) {
    print_help();
    return CLI_OK;
  }
  if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
    printf("vxc %s\n", vxc_version());
    return CLI_OK;
  }
  if (name[0] == '-') {
    char hint[64];
    return cli_usage_error(NULL, "unknown option '%s'%s", name,
                           cli_option_hint(GENERAL_OPTIONS, name, hint, sizeof hint));
  }
  const cli_command *cmd = cli_find(name);
  if (!cmd) {
    return unknown_command(name);
  }
  for (int i = 2; i < argc; i++) {
    if (cli_is_help(argv[i]) && cmd->usage) { /* no usage: the command's own program helps */
      return cli_print_help(cmd);
    }
    if (strcmp(argv[i], "--") == 0) {
      break;
    }
  }
  int rc = cli_check_options(cmd, argc - 1, argv + 1);
  return rc == CLI_OK ? cmd->run(argc - 1, argv + 1) : rc;
}


int main(int argc, char **argv) {
  int n;
  char **args = cli_split_equals(argc, argv, &n);
  if (!args) {
    fprintf(stderr, "vxc: out of memory\n");
    return CLI_FAIL;
  }
  int rc = dispatch(n, args), json = 0;
  for (int i = 2; i < n && strcmp(args[i], "--") != 0; i++) {
    json |= strcmp(args[i], "--json") == 0;
  }
  if (json && (rc == CLI_FAIL || rc == CLI_USAGE)) {
    cli_json_error(rc); /* a failed command given --json wrote no object of its own */
  }
  rc = cli_finish_stdout(rc);
  free(args);
  return rc;
}
