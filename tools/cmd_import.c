/* cmd_import.c: `vxc import`: runs the vxc-import tool (C++, OpenCASCADE), found beside the
 * vxc program (or above it, for the build tree's .libs) or on the PATH. Its help is the
 * tool's own text (tools/import/usage.h), so that vxc checks the options with a hint for a
 * misspelt one, and helps even when built without OpenCASCADE. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/import/usage.h"

/* tries DIR/vxc-import and DIR/../vxc-import for the directory of this program */
static void exec_beside(char **argv) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    return;
  }
  self[n] = '\0';
  char *slash = strrchr(self, '/');
  if (!slash) {
    return;
  }
  *slash = '\0';
  const char *rel[] = {"/vxc-import", "/../vxc-import"};
  for (int i = 0; i < 2; i++) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s%s", self, rel[i]);
    if (access(path, X_OK) == 0) {
      execv(path, argv);
    }
  }
}

static int run_import(int argc, char **argv) {
  (void)argc;
  static char name[] = "vxc-import";
  argv[0] = name;
  exec_beside(argv);
  execvp("vxc-import", argv);
  fprintf(stderr,
          "usage: vxc import PART.step [-o PART.vxm] [--deflection D] [--exact|--mesh]\n"
          "vxc import: cannot run vxc-import (%s): vxc was built without OpenCASCADE; install\n"
          "libocct-data-exchange-dev and rerun configure (--with-occt makes it required)\n",
          strerror(errno));
  return CLI_FAIL;
}

const cli_command cli_cmd_import = {"import", "a STEP file as a model file (exact cells or meshes)",
                                    IMPORT_USAGE, run_import};
