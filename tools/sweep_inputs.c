/* sweep_inputs.c: the files a sweep reads and their digests (sweep_inputs.h). zlib's crc32
 * (already a dependency of libvxc): the record guards against edits and mix-ups, not
 * against an adversary, so a 32-bit checksum with the size beside it is enough. */
#include "tools/sweep_inputs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Appends "ROLE CRC BYTES PATH\n" for `path` to f. Returns 0, or -1 after a message. */
static int add_file(FILE *f, const char *role, const char *path) {
  FILE *in = fopen(path, "rb");
  if (!in) {
    fprintf(stderr, "vxc sweep: %s: cannot read: %s\n", path, strerror(errno));
    return -1;
  }
  unsigned char buf[65536];
  uLong crc = crc32(0L, Z_NULL, 0);
  long long size = 0;
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
    crc = crc32(crc, buf, (uInt)n);
    size += (long long)n;
  }
  int bad = ferror(in);
  fclose(in);
  if (bad) {
    fprintf(stderr, "vxc sweep: %s: read error\n", path);
    return -1;
  }
  fprintf(f, "%s %08lx %lld %s\n", role, (unsigned long)crc, size, path);
  return 0;
}


/* 1 when `path` is already on a line of the text so far */
static int listed(FILE *f, char **text, const char *path) {
  fflush(f);
  size_t n = strlen(path);
  for (const char *p = *text; p && (p = strstr(p, path)) != NULL; p += n) {
    if (p > *text && p[-1] == ' ' && p[n] == '\n') {
      return 1;
    }
  }
  return 0;
}


/* The task's model files and the meshes they name, each once. */
static int add_models(FILE *f, char **text, const char *task_path) {
  vxc_task *t = NULL;
  vxc_error err;
  vxc_status st = vxc_task_load(task_path, NULL, &t, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "vxc: %s\n", err.message[0] ? err.message : vxc_status_str(st));
    return -1;
  }
  int rc = 0;
  for (int b = 0; rc == 0 && b < vxc_task_body_count(t); b++) {
    const char *model = vxc_task_body_model(t, b);
    if (model && !listed(f, text, model)) {
      rc = add_file(f, "model", model);
    }
    const vxc_solid *s = vxc_task_body_solid(t, b);
    for (int c = 0; rc == 0 && c < vxc_solid_cell_count(s); c++) {
      vxc_cell_info ci;
      vxc_solid_cell(s, c, &ci, NULL);
      for (int p = 0; rc == 0 && p < ci.nprim; p++) {
        vxc_prim_info pi;
        if (vxc_solid_prim(s, c, p, &pi, NULL) == VXC_OK && pi.mesh_path &&
            !listed(f, text, pi.mesh_path)) {
          rc = add_file(f, "mesh", pi.mesh_path);
        }
      }
    }
  }
  vxc_task_free(t);
  return rc;
}


int sweep_inputs_text(const vxc_sweep *sw, const char *sweep_file, char **out) {
  size_t len = 0;
  *out = NULL;
  FILE *f = open_memstream(out, &len);
  if (!f) {
    fprintf(stderr, "vxc sweep: out of memory\n");
    return -1;
  }
  int rc = add_file(f, "sweep", sweep_file);
  if (rc == 0) {
    rc = add_file(f, "task", vxc_sweep_task_path(sw));
  }
  if (rc == 0) {
    rc = add_models(f, out, vxc_sweep_task_path(sw));
  }
  if (fclose(f) != 0 || rc != 0) {
    free(*out);
    *out = NULL;
    return -1;
  }
  return 0;
}


/* Line `k` of text (0-based) into buf, without its newline; 0 past the end. */
static int line_at(const char *text, int k, char *buf, size_t size) {
  for (; k > 0 && text; k--) {
    text = strchr(text, '\n');
    text = text ? text + 1 : NULL;
  }
  if (!text || !*text) {
    return 0;
  }
  size_t n = strcspn(text, "\n");
  n = n < size - 1 ? n : size - 1;
  memcpy(buf, text, n);
  buf[n] = 0;
  return 1;
}


/* "ROLE CRC BYTES" of a line: its length up to the path */
static size_t key_len(const char *line) {
  const char *p = line;
  for (int sp = 0; *p && sp < 3; p++) {
    sp += *p == ' ';
  }
  return (size_t)(p - line);
}


int sweep_inputs_check(const char *now, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr,
            "vxc sweep: --resume: %s: no record of the files the rows were computed from "
            "(%s): run without --resume, or into another --out\n",
            path, strerror(errno));
    return -1;
  }
  char rec[65536];
  size_t n = fread(rec, 1, sizeof rec - 1, f);
  rec[n] = 0;
  fclose(f);
  char a[4400], b[4400];
  for (int k = 0;; k++) {
    int ha = line_at(now, k, a, sizeof a), hb = line_at(rec, k, b, sizeof b);
    if (!ha && !hb) {
      return 0;
    }
    if (ha && hb && key_len(a) == key_len(b) && strncmp(a, b, key_len(a)) == 0) {
      continue;
    }
    const char *name = ha ? a + key_len(a) : b + key_len(b);
    char role[16] = "";
    sscanf(ha ? a : b, "%15s", role);
    fprintf(stderr,
            "vxc sweep: --resume: the %s file %s %s since the rows were computed (%s): run "
            "without --resume, or restore it\n",
            role, name, ha && hb ? "changed" : ha ? "is new" : "is no longer read", path);
    return -1;
  }
}
