/* outfile.c: checked, atomic output files of the tools (outfile.h). The stream is a stdio
 * cookie stream over our own descriptor, so that every write(2) is checked here (a short or
 * failed write is remembered even when stdio would lose it) and the test hook can fail one. */
#define _GNU_SOURCE
#include "tools/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct cookie {
  int fd;
  int err;  /* errno of the first failed write, 0 if none */
  int told; /* its message printed */
} cookie;

/* VXC_TEST_FAIL_WRITE=K: the K-th write fails with ENOSPC (0: the hook is off) */
static long fault_at = -1, nwrites;

static int fault_now(void) {
  if (fault_at < 0) {
    const char *e = getenv("VXC_TEST_FAIL_WRITE");
    fault_at = e ? strtol(e, NULL, 10) : 0;
  }
  return fault_at > 0 && ++nwrites == fault_at;
}


static ssize_t ck_write(void *c, const char *buf, size_t n) {
  cookie *k = c;
  size_t done = 0;
  if (k->err) {
    errno = k->err;
    return 0;
  }
  if (fault_now()) {
    k->err = errno = ENOSPC;
    return 0;
  }
  while (done < n) {
    ssize_t w = write(k->fd, buf + done, n - done);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w <= 0) {
      k->err = errno = w < 0 ? errno : EIO;
      return 0; /* stdio marks the stream in error */
    }
    done += (size_t)w;
  }
  return (ssize_t)n;
}


static int ck_close(void *c) {
  cookie *k = c;
  int rc = close(k->fd);
  if (rc != 0 && !k->err) {
    k->err = errno;
  }
  k->fd = -1;
  return rc;
}


static void fail(const tools_file *o, const char *what, int err) {
  cookie *k = o->ck;
  if (!k || !k->told) {
    fprintf(stderr, "%s: %s: %s%s\n", o->who, o->path, what, strerror(err ? err : EIO));
  }
  if (k) {
    k->told = 1;
  }
}


int tools_file_open(tools_file *o, const char *who, const char *path, tools_file_mode mode) {
  memset(o, 0, sizeof *o);
  o->who = who;
  o->mode = mode;
  snprintf(o->path, sizeof o->path, "%s", path);
  snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld", path, (long)getpid());
  const char *open_path = mode == TOOLS_FILE_ATOMIC ? o->tmp : o->path;
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == TOOLS_FILE_APPEND ? O_APPEND : O_TRUNC);
  cookie *k = malloc(sizeof *k);
  if (!k) {
    fail(o, "cannot write: ", ENOMEM);
    return -1;
  }
  k->err = k->told = 0;
  k->fd = open(open_path, flags, 0666);
  if (k->fd < 0) {
    fail(o, "cannot write: ", errno);
    free(k);
    return -1;
  }
  cookie_io_functions_t io = {NULL, ck_write, NULL, ck_close};
  o->f = fopencookie(k, "w", io);
  if (!o->f) {
    fail(o, "cannot write: ", errno);
    close(k->fd);
    if (mode == TOOLS_FILE_ATOMIC) {
      unlink(o->tmp);
    }
    free(k);
    return -1;
  }
  o->ck = k;
  return 0;
}


int tools_file_sync(tools_file *o) {
  cookie *k = o->ck;
  if (!o->f) {
    return 0;
  }
  if (fflush(o->f) != 0 || ferror(o->f) || k->err) {
    fail(o, "write error: ", k->err ? k->err : errno);
    return -1;
  }
  if (fdatasync(k->fd) != 0 && errno != EINVAL && errno != EROFS) {
    k->err = errno;
    fail(o, "write error: ", errno);
    return -1;
  }
  return 0;
}


int tools_file_finish(tools_file *o) {
  if (!o->f) {
    return 0;
  }
  cookie *k = o->ck;
  int rc = tools_file_sync(o); /* prints the error */
  if (fclose(o->f) != 0 && rc == 0) {
    rc = -1;
  }
  if (rc == 0 && k->err) {
    rc = -1;
  }
  if (rc != 0) {
    fail(o, "write error: ", k->err ? k->err : errno); /* unless told */
  }
  if (rc != 0 && o->mode == TOOLS_FILE_ATOMIC) {
    unlink(o->tmp);
  }
  free(k);
  o->f = NULL;
  o->ck = NULL;
  o->finished = rc == 0 && o->mode == TOOLS_FILE_ATOMIC;
  return rc;
}


/* Syncs the folder holding path, so that a rename survives a crash (best effort: a file
 * system that cannot sync a folder is not an error). */
static void sync_dir(const char *path) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash == dir) {
    slash[1] = 0;
  } else if (slash) {
    *slash = 0;
  } else {
    strcpy(dir, ".");
  }
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}


int tools_file_commit(tools_file *o) {
  if (!o->finished) {
    return 0;
  }
  o->finished = 0;
  if (rename(o->tmp, o->path) != 0) {
    fail(o, "cannot replace it: ", errno);
    unlink(o->tmp);
    return -1;
  }
  sync_dir(o->path);
  return 0;
}


int tools_file_close(tools_file *o) {
  int rc = tools_file_finish(o);
  return rc == 0 ? tools_file_commit(o) : (tools_file_discard(o), rc);
}


void tools_file_discard(tools_file *o) {
  if (o->f) {
    fclose(o->f);
    free(o->ck);
    o->f = NULL;
    o->ck = NULL;
    o->finished = o->mode == TOOLS_FILE_ATOMIC;
  }
  if (o->finished) {
    unlink(o->tmp);
    o->finished = 0;
  }
}


int tools_stdout_check(const char *who) {
  int bad = ferror(stdout);
  errno = 0;
  if (fflush(stdout) != 0 || bad) {
    fprintf(stderr, "%s: standard output: write error: %s\n", who, strerror(errno ? errno : EIO));
    return -1;
  }
  return 0;
}
