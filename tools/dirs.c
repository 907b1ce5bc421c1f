/* dirs.c: output folders and plots of the tools (dirs.h). */
#define _DEFAULT_SOURCE /* flock */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <sys/file.h>
#include <unistd.h>
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


static int lock_fd = -1;

/* Removes the temporary files (NAME.tmp.PID, outfile.h) that a killed run left in dir, for
 * the outputs of the tools that lock a folder: with the lock held, none is being written. */
static void remove_stale(const char *dir) {
  static const char *const names[] = {"sweep.csv", "times.csv",  "sweep.inputs", "sweep.gp",
                                      "series.csv", "summary.json", "plots.gp"};
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    const char *t = strstr(e->d_name, ".tmp.");
    for (size_t i = 0; t && t[5] && i < sizeof names / sizeof *names; i++) {
      size_t n = strlen(names[i]);
      if ((size_t)(t - e->d_name) == n && !strncmp(e->d_name, names[i], n) &&
          strspn(t + 5, "0123456789") == strlen(t + 5)) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
      }
    }
  }
  if (d) {
    closedir(d);
  }
}

int tools_lock_fd(void) {
  return lock_fd;
}


int tools_lock_dir(const char *who, const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/.vxc.lock", dir);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    fprintf(stderr, "%s: %s: cannot make the lock file: %s\n", who, path, strerror(errno));
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    char buf[32] = "";
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    buf[strcspn(buf, "\n")] = 0;
    close(fd);
    if (err == EWOULDBLOCK) {
      fprintf(stderr,
              "%s: %s is being written by another run (pid %s): wait for it to end, or "
              "choose another output folder\n",
              who, dir, buf[0] ? buf : "unknown");
    } else {
      fprintf(stderr, "%s: %s: cannot lock: %s\n", who, path, strerror(err));
    }
    return -1;
  }
  char pid[32];
  int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
    fprintf(stderr, "%s: %s: cannot write: %s\n", who, path, strerror(errno));
    close(fd);
    return -1;
  }
  lock_fd = fd;
  remove_stale(dir);
  return 0;
}
