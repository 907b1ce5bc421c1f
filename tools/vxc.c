/* vxc.c: the vxc command: dispatch to subcommands, global --help and --version. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const cli_command *const cli_commands[] = {&cli_cmd_info,    &cli_cmd_check, &cli_cmd_mass,
                                           &cli_cmd_metrics, &cli_cmd_force, &cli_cmd_bench,
                                           &cli_cmd_task,    &cli_cmd_sweep, NULL};

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
      "\n'vxc COMMAND --help' describes a command. Units are SI (metres, kilograms,\n"
      "seconds); exit status 0 on success, 1 on invalid input, 2 on a usage error.\n");
}


int main(int argc, char **argv) {
  if (argc < 2) {
    print_help();
    return CLI_USAGE;
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
    return cli_usage_error(NULL, "unknown option '%s'", name);
  }
  const cli_command *cmd = cli_find(name);
  if (!cmd) {
    const char *hint = cli_suggest(name);
    if (hint) {
      fprintf(stderr, "vxc: unknown command '%s'; did you mean '%s'?\n", name, hint);
    } else {
      fprintf(stderr, "vxc: unknown command '%s'\n", name);
    }
    fprintf(stderr, "Try 'vxc --help'.\n");
    return CLI_USAGE;
  }
  for (int i = 2; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      return cli_print_help(cmd);
    }
    if (strcmp(argv[i], "--") == 0) {
      break;
    }
  }
  return cmd->run(argc - 1, argv + 1);
}
