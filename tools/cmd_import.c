/* cmd_import.c: `vxc import`: runs the vxc-import tool (C++, OpenCASCADE), found beside the
 * vxc program (or above it, for the build tree's .libs) or on the PATH. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char import_usage[] =
    "usage: vxc import PART.step [-o PART.vxm] [--deflection D] [--exact|--mesh]\n\n"
    "Writes a model file with one cell per STEP solid, named after the solid: exact\n"
    "quadric cells when the solid is a stack of convex prisms (planes, one cylinder)\n"
    "minus cylindrical holes and box pockets, or of cone, sphere and torus slices;\n"
    "otherwise a mesh cell (OBJ beside the model) tessellated by OpenCASCADE.\n\n"
    "  -o FILE         model file to write (default: PART.vxm beside PART.step)\n"
    "  --deflection D  mesh chordal deflection, metres (default 1e-4: 0.1 mm)\n"
    "  --exact         fail (exit 1) when a solid cannot become exact cells\n"
    "  --mesh          make every solid a mesh cell\n\n"
    "Exit status: 0 written, 1 invalid input or a solid not exact under --exact,\n"
    "2 usage error. Needs vxc-import (built when configure finds OpenCASCADE).\n";

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
          "vxc import: cannot run vxc-import (%s): vxc was built without OpenCASCADE; install\n"
          "libocct-data-exchange-dev and rerun configure (--with-occt makes it required)\n",
          strerror(errno));
  return CLI_FAIL;
}

const cli_command cli_cmd_import = {"import", "a STEP file as a model file (exact cells or meshes)",
                                    import_usage, run_import};
