/* dirs.c: output folders and plots of the tools (dirs.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/dirs.h"

int tools_make_dirs(const char *dir) {
  char buf[4096];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buf, dir, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (buf[i] == '/' || buf[i] == '\0') {
      char c = buf[i];
      buf[i] = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        return -1;
      }
      buf[i] = c;
    }
  }
  return 0;
}


int tools_gnuplot(const char *who, const char *path) {
  if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
    fprintf(stderr, "%s: gnuplot not found: wrote %s only\n", who, path);
    return 0;
  }
  char cmd[4400]; /* a path of up to 4200 bytes, quoted */
  snprintf(cmd, sizeof cmd, "gnuplot '%s'", path);
  if (system(cmd) != 0) {
    fprintf(stderr, "%s: gnuplot failed on %s\n", who, path);
    return -1;
  }
  return 0;
}
