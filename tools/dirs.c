/* dirs.c: output folders of the tools (dirs.h). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "dirs.h"

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
