/* solid.c: allocation through the caller's allocator, error records, and the solid as an
 * owning array of cells. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom/geom.h"

void *vxg_realloc(const vxc_allocator *al, void *ptr, size_t size) {
  if (al && al->realloc) {
    return al->realloc(al->ud, ptr, size);
  }
  if (size == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, size);
}


int vxg_grow_cap(size_t cap, size_t need, size_t elem, size_t *out) {
  size_t n = cap ? cap : 16;
  while (n < need) {
    if (n > SIZE_MAX / 2) {
      return -1;
    }
    n *= 2;
  }
  if (elem && n > SIZE_MAX / elem) {
    return -1;
  }
  *out = n;
  return 0;
}


int vxg_grow(const vxc_allocator *al, void **p, size_t *cap, size_t need, size_t elem) {
  size_t n;
  if (need <= *cap) {
    return 0;
  }
  if (vxg_grow_cap(*cap, need, elem, &n) != 0) {
    return -1;
  }
  void *q = vxg_realloc(al, *p, n * elem);
  if (!q) {
    return -1;
  }
  *p = q;
  *cap = n;
  return 0;
}


void *vxg_alloc(const vxc_allocator *al, size_t size) {
  return vxg_realloc(al, NULL, size ? size : 1);
}


void vxg_free(const vxc_allocator *al, void *ptr) {
  if (ptr) {
    vxg_realloc(al, ptr, 0);
  }
}


char *vxg_strdup(const vxc_allocator *al, const char *s) {
  size_t n = strlen(s) + 1;
  char *d = vxg_alloc(al, n);
  if (d) {
    memcpy(d, s, n);
  }
  return d;
}


vxc_status vxg_error_set(vxc_error *err, vxc_status status, const char *file, int line, int column,
                         const char *fmt, ...) {
  if (!err) {
    return status;
  }
  err->status = status;
  err->line = line;
  err->column = column;
  snprintf(err->file, sizeof err->file, "%s", file ? file : "");
  char what[480];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (file && line > 0) {
    snprintf(err->message, sizeof err->message, "%s:%d:%d: %s", file, line, column, what);
  } else if (file && *file) {
    snprintf(err->message, sizeof err->message, "%s: %s", file, what);
  } else {
    snprintf(err->message, sizeof err->message, "%s", what);
  }
  return status;
}


vxc_status vxg_solid_create(const vxc_allocator *al, const char *name, vxg_solid **out) {
  vxg_solid *s = vxg_alloc(al, sizeof *s);
  if (!s) {
    return VXC_ERR_NOMEM;
  }
  memset(s, 0, sizeof *s);
  s->al = al;
  s->name = vxg_strdup(al, name ? name : "");
  if (!s->name) {
    vxg_free(al, s);
    return VXC_ERR_NOMEM;
  }
  *out = s;
  return VXC_OK;
}


static void cell_free(const vxc_allocator *al, vxg_cell *c) {
  for (int i = 0; i < c->nprim; i++) {
    vxg_mesh_free(c->prim[i].mesh);
    vxg_free(al, c->prim[i].mesh_path);
  }
  vxg_free(al, c->name);
  vxg_free(al, c);
}


void vxg_solid_free(vxg_solid *s) {
  if (!s) {
    return;
  }
  for (int i = 0; i < s->ncell; i++) {
    cell_free(s->al, s->cell[i]);
  }
  vxg_free(s->al, s->cell);
  vxg_free(s->al, s->path);
  vxg_free(s->al, s->name);
  vxg_free(s->al, s);
}


vxc_status vxg_solid_add_cell(vxg_solid *s, const char *name, const vxg_xform *pose, vxg_cell **out,
                              vxc_error *err) {
  for (int i = 0; i < s->ncell; i++) {
    if (strcmp(s->cell[i]->name, name) == 0) {
      return vxg_error_set(err, VXC_ERR_ARG, s->path, 0, 0,
                           "duplicate cell name '%s' in solid '%s'", name, s->name);
    }
  }
  if (vxg_grow(s->al, (void **)&s->cell, &s->cap, (size_t)s->ncell + 1, sizeof *s->cell) != 0) {
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }
  vxg_cell *c = vxg_alloc(s->al, sizeof *c);
  if (!c) {
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }
  memset(c, 0, sizeof *c);
  c->name = vxg_strdup(s->al, name);
  if (!c->name) {
    vxg_free(s->al, c);
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  }
  if (pose) {
    c->pose = *pose;
  } else {
    vxg_xform_identity(&c->pose);
  }
  s->cell[s->ncell++] = c;
  *out = c;
  return VXC_OK;
}
