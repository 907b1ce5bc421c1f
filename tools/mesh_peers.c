/* mesh_peers.c: the peers of mesh_peers.h as child processes. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "tools/mesh_peers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef VXC_BENCH_SRCDIR
#define VXC_BENCH_SRCDIR ""
#endif

/* The folder of this program (""  when unknown). */
static void self_dir(char *dir, size_t len) {
  ssize_t n = readlink("/proc/self/exe", dir, len - 1);
  dir[n > 0 ? n : 0] = '\0';
  char *slash = strrchr(dir, '/');
  if (slash) {
    *slash = '\0';
  } else {
    dir[0] = '\0';
  }
}

/* DIR/rel or DIR/../rel for this program's folder, when it exists (mode: access's); the
 * path made canonical when it fits. */
static int beside(const char *rel, int mode, char *path, size_t len) {
  char dir[MP_PATH_MAX], real[PATH_MAX];
  if (!path || len == 0) {
    return -1;
  }
  self_dir(dir, sizeof dir);
  const char *up[2] = {"", "/.."};
  for (int i = 0; dir[0] && i < 2; i++) {
    if ((size_t)snprintf(path, len, "%s%s/%s", dir, up[i], rel) < len && access(path, mode) == 0) {
      if (realpath(path, real) && strlen(real) < len) {
        memcpy(path, real, strlen(real) + 1);
      }
      return 0;
    }
  }
  return -1;
}

static int on_path(const char *name, char *path, size_t len) {
  const char *p = getenv("PATH");
  while (path && len > 0 && p && *p) {
    const char *end = strchr(p, ':');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n > 0 && (size_t)snprintf(path, len, "%.*s/%s", (int)n, p, name) < len &&
        access(path, X_OK) == 0) {
      return 0;
    }
    p = end ? end + 1 : NULL;
  }
  return -1;
}

int mp_find_program(const char *name, char *path, size_t len) {
  return beside(name, X_OK, path, len) == 0 || on_path(name, path, len) == 0 ? 0 : -1;
}

void mp_find(mp_peers *p) {
  memset(p, 0, sizeof *p);
  const char *env = getenv("VXC_CGAL_REF");
  if (env && *env && access(env, X_OK) != 0) {
    snprintf(p->why_cgal, sizeof p->why_cgal, "$VXC_CGAL_REF (%.200s) is not a program", env);
  } else if (env && *env) {
    snprintf(p->cgal, sizeof p->cgal, "%s", env);
  } else if (mp_find_program("vxc-bench-cgal", p->cgal, sizeof p->cgal) != 0) {
    p->cgal[0] = '\0';
    snprintf(p->why_cgal, sizeof p->why_cgal,
             "vxc-bench-cgal not built (configure found no CGAL: apt-get install libcgal-dev)");
  }
  if (on_path("node", p->node, sizeof p->node) != 0) {
    p->node[0] = '\0';
    snprintf(p->why_manifold, sizeof p->why_manifold, "node not found (apt-get install nodejs)");
    return;
  }
  env = getenv("VXC_MANIFOLD_SCRIPT");
  if (env && *env) {
    snprintf(p->script, sizeof p->script, "%s", env);
  } else if (beside("bench/manifold.mjs", R_OK, p->script, sizeof p->script) != 0 &&
             !(VXC_BENCH_SRCDIR[0] &&
               (size_t)snprintf(p->script, sizeof p->script, "%s/manifold.mjs",
                                VXC_BENCH_SRCDIR) < sizeof p->script &&
               access(p->script, R_OK) == 0)) {
    p->script[0] = p->node[0] = '\0';
    snprintf(p->why_manifold, sizeof p->why_manifold, "tools/bench/manifold.mjs not found");
    return;
  }
  /* the script's own cache folder rule, to say up front when the package is missing */
  char dir[MP_PATH_MAX], pkg[MP_PATH_MAX + 64];
  const char *cache = getenv("VXC_NODE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
             *home = getenv("HOME");
  if (cache && *cache) {
    snprintf(dir, sizeof dir, "%s", cache);
  } else {
    snprintf(dir, sizeof dir, "%s%s/vxc-bench", xdg && *xdg ? xdg : home ? home : "",
             xdg && *xdg ? "" : "/.cache");
  }
  snprintf(pkg, sizeof pkg, "%s/node_modules/manifold-3d/package.json", dir);
  if (access(pkg, R_OK) != 0) {
    p->script[0] = p->node[0] = '\0';
    snprintf(p->why_manifold, sizeof p->why_manifold,
             "manifold-3d is not installed in %.300s (tools/setup peers, or npm install "
             "--prefix %.100s manifold-3d)",
             dir, dir);
  }
}

int mp_write(const mc_case *c, const char *dir, const char *name, char path[2][MP_PATH_MAX],
             char *msg, size_t msg_len) {
  for (int k = 0; k < 2; k++) {
    snprintf(path[k], MP_PATH_MAX, "%s/%s-%c.obj", dir, name, 'a' + k);
    FILE *f = fopen(path[k], "w");
    int bad = !f || ms_obj_write(f, &c->s[k].mesh) != 0;
    if (f && fclose(f) != 0) {
      bad = 1;
    }
    if (bad) {
      snprintf(msg, msg_len, "%s: cannot write: %s", path[k], strerror(errno));
      return -1;
    }
  }
  return 0;
}

static void pose_text(const vxc_pose *p, char *s, size_t len) {
  snprintf(s, len, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g", p->p[0], p->p[1], p->p[2],
           p->q[0], p->q[1], p->q[2], p->q[3]);
}

/* Reads all of fd into buf (NUL-terminated, cut at len - 1). */
static void slurp(int fd, char *buf, size_t len) {
  size_t n = 0;
  for (;;) {
    char tmp[4096];
    ssize_t r = read(fd, tmp, sizeof tmp);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r <= 0) {
      break;
    }
    size_t k = (size_t)r < len - 1 - n ? (size_t)r : len - 1 - n;
    memcpy(buf + n, tmp, k);
    n += k;
  }
  buf[n] = '\0';
}

/* The numbers after `key` in the line: 0, or -1 when missing. */
static int field(const char *line, const char *key, double *x, int n) {
  char pat[64];
  snprintf(pat, sizeof pat, "%s ", key);
  const char *s = strstr(line, pat);
  if (!s) {
    return -1;
  }
  s += strlen(pat);
  for (int k = 0; k < n; k++) {
    char *end;
    x[k] = strtod(s, &end);
    if (end == s) {
      return -1;
    }
    s = end;
  }
  return 0;
}

static int parse(const char *line, mp_result *out) {
  double runs;
  for (int k = 0; k < 3; k++) {
    out->centroid[k] = NAN;
  }
  for (int k = 0; k < 9; k++) {
    out->inertia[k] = NAN;
  }
  if (field(line, "volume", &out->volume, 1) || field(line, "ms", &out->ms, 1) ||
      field(line, "runs", &runs, 1)) {
    return -1;
  }
  out->runs = (int)runs;
  field(line, "centroid", out->centroid, 3);
  field(line, "inertia", out->inertia, 9);
  return 0;
}

int mp_run(const char *prog, const char *script, char path[2][MP_PATH_MAX], const mc_case *c,
           double budget_ms, mp_result *out, char *msg, size_t msg_len) {
  char pa[256], pb[256], budget[32];
  pose_text(&c->s[0].pose, pa, sizeof pa);
  pose_text(&c->s[1].pose, pb, sizeof pb);
  snprintf(budget, sizeof budget, "%g", budget_ms);
  const char *argv[12];
  int n = 0;
  argv[n++] = prog;
  if (script) {
    argv[n++] = script;
  }
  const char *rest[] = {path[0], path[1], "--pose-a", pa, "--pose-b", pb, "--budget-ms", budget};
  for (int k = 0; k < 8; k++) {
    argv[n++] = rest[k];
  }
  argv[n] = NULL;
  int po[2], pe[2];
  if (pipe(po) != 0 || pipe(pe) != 0) {
    snprintf(msg, msg_len, "pipe: %s", strerror(errno));
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(po[1], 1);
    dup2(pe[1], 2);
    close(po[0]);
    close(pe[0]);
    execv(prog, (char *const *)argv);
    fprintf(stderr, "cannot run %s: %s\n", prog, strerror(errno));
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);
  char so[8192], se[4096];
  /* the peers print one short line on each stream: reading them in turn cannot block */
  slurp(po[0], so, sizeof so);
  slurp(pe[0], se, sizeof se);
  close(po[0]);
  close(pe[0]);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) {
    snprintf(msg, msg_len, "cannot run %s: %s", prog, strerror(errno));
    return -1;
  }
  char *nl = strchr(se, '\n');
  if (nl) {
    *nl = '\0';
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && parse(so, out) == 0) {
    return 0;
  }
  snprintf(msg, msg_len, "%s", se[0] ? se : "no result printed");
  return WIFEXITED(status) && WEXITSTATUS(status) == 3 ? 3 : -1;
}
