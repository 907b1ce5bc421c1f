/* vtk.c: ParaView files in the VTK XML formats (ASCII, numbers as %.17g so that a reader
 * gets the doubles back exactly). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/outfile.h"
#include "tools/vtk.h"

/* path, written whole or not at all (outfile.h): the stream, or NULL after a message */
static FILE *vtk_open(tools_file *o, const char *path) {
  return tools_file_open(o, "vxc", path, TOOLS_FILE_ATOMIC) == 0 ? o->f : NULL;
}


static void vtk_head(FILE *f, const char *type) {
  fprintf(f,
          "<?xml version=\"1.0\"?>\n<VTKFile type=\"%s\" version=\"0.1\" "
          "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <%s>\n",
          type, type);
}


static void vtk_tail(FILE *f, const char *type) {
  fprintf(f, "  </%s>\n</VTKFile>\n", type);
}


static void array_open(FILE *f, const char *type, const char *name, int ncomp) {
  fprintf(f,
          "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" "
          "format=\"ascii\">\n",
          type, name, ncomp);
}


static void array_close(FILE *f) {
  fprintf(f, "        </DataArray>\n");
}


/* Connectivity 0 .. n_cells * per - 1 (each cell has its own points), offsets and types. */
static void cells_plain(FILE *f, size_t ncell, int per, int vtk_type, const char *tag) {
  fprintf(f, "      <%s>\n", tag);
  array_open(f, "Int64", "connectivity", 1);
  for (size_t i = 0; i < ncell * (size_t)per; i++) {
    fprintf(f, "%zu\n", i);
  }
  array_close(f);
  array_open(f, "Int64", "offsets", 1);
  for (size_t i = 1; i <= ncell; i++) {
    fprintf(f, "%zu\n", i * (size_t)per);
  }
  array_close(f);
  if (vtk_type > 0) {
    array_open(f, "UInt8", "types", 1);
    for (size_t i = 0; i < ncell; i++) {
      fprintf(f, "%d\n", vtk_type);
    }
    array_close(f);
  }
  fprintf(f, "      </%s>\n", tag);
}


/* A double of each region box, by field. */
enum { R_SIZE, R_VOLUME, R_LO, R_HI, R_WIDTH, R_EST, R_NFIELD };
static const char *const R_NAME[R_NFIELD] = {"size",      "volume",        "volume_lo",
                                             "volume_hi", "bracket_width", "error_estimate"};

static double region_field(const vxc_region_box *b, int k) {
  switch (k) {
    case R_SIZE:
      return b->size;
    case R_VOLUME:
      return b->volume;
    case R_LO:
      return b->volume_lo;
    case R_HI:
      return b->volume_hi;
    case R_WIDTH:
      return b->volume_hi - b->volume_lo;
    default:
      return b->error_estimate;
  }
}


int vtk_write_region(const char *path, const vxc_region_box *box, const int *contact, size_t n) {
  tools_file o;
  FILE *f = vtk_open(&o, path);
  if (!f) {
    return -1;
  }
  vtk_head(f, "UnstructuredGrid");
  fprintf(f, "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n      <Points>\n", 8 * n,
          n);
  array_open(f, "Float64", "points", 3);
  for (size_t i = 0; i < n; i++) {
    const vxc_region_box *b = &box[i];
    const double *x = b->extent;
    for (int j = 0; j < 8; j++) { /* VTK_VOXEL's order: x fastest, then y, then z */
      fprintf(f, "%.17g %.17g %.17g\n", b->center[0] + 0.5 * (j & 1 ? x[0] : -x[0]),
              b->center[1] + 0.5 * (j & 2 ? x[1] : -x[1]),
              b->center[2] + 0.5 * (j & 4 ? x[2] : -x[2]));
    }
  }
  array_close(f);
  fprintf(f, "      </Points>\n");
  cells_plain(f, n, 8, 11, "Cells");
  fprintf(f, "      <CellData Scalars=\"volume\">\n");
  const char *ints[5] = {"contact", "pair", "patch", "leaf", "level"};
  for (int k = 0; k < 5; k++) {
    array_open(f, "Int32", ints[k], 1);
    for (size_t i = 0; i < n; i++) {
      const vxc_region_box *b = &box[i];
      int v[5] = {contact ? contact[i] : 0, b->pair, b->patch, b->leaf, b->level};
      fprintf(f, "%d\n", v[k]);
    }
    array_close(f);
  }
  for (int k = 0; k < R_NFIELD; k++) {
    array_open(f, "Float64", R_NAME[k], 1);
    for (size_t i = 0; i < n; i++) {
      fprintf(f, "%.17g\n", region_field(&box[i], k));
    }
    array_close(f);
  }
  fprintf(f, "      </CellData>\n    </Piece>\n");
  vtk_tail(f, "UnstructuredGrid");
  return tools_file_close(&o);
}


/* Point j of the surfaces' corners, in order. */
static const double *corner(const vxc_surface *const *s, int ns, size_t j) {
  for (int k = 0; k < ns; k++) {
    if (j < 3 * s[k]->ntri) {
      return s[k]->v + 3 * j;
    }
    j -= 3 * s[k]->ntri;
  }
  return NULL;
}


/* Welds the n corners of the surfaces that are equal to the last bit (the sampler computes
 * a shared vertex identically): id[j] is corner j's point, numbered in order of first
 * appearance; first[p] the first corner of point p. Returns the number of points, or -1
 * when out of memory. */
static long long weld(const vxc_surface *const *s, int ns, size_t n, size_t *id, size_t *first) {
  size_t cap = 16;
  while (cap < 2 * n) {
    cap *= 2;
  }
  size_t *slot = malloc(cap * sizeof *slot); /* corner + 1 of a point's first copy, 0: free */
  if (!slot) {
    return -1;
  }
  memset(slot, 0, cap * sizeof *slot);
  size_t np = 0, j = 0;
  for (int k = 0; k < ns; k++) {
    for (size_t i = 0; i < 3 * s[k]->ntri; i++, j++) {
      const double *p = s[k]->v + 3 * i;
      uint64_t h = 1469598103934665603ULL; /* FNV-1a over the 24 bytes */
      const unsigned char *b = (const unsigned char *)p;
      for (int c = 0; c < 24; c++) {
        h = (h ^ b[c]) * 1099511628211ULL;
      }
      size_t at = (size_t)h & (cap - 1);
      while (slot[at] && memcmp(corner(s, ns, slot[at] - 1), p, 3 * sizeof *p) != 0) {
        at = (at + 1) & (cap - 1);
      }
      if (!slot[at]) {
        slot[at] = j + 1;
        first[np] = j;
        id[j] = np++;
      } else {
        id[j] = id[slot[at] - 1];
      }
    }
  }
  free(slot);
  return (long long)np;
}


int vtk_write_surfaces(const char *path, const vxc_surface *const *s, int ns) {
  size_t nt = 0;
  for (int k = 0; k < ns; k++) {
    nt += s[k]->ntri;
  }
  size_t *id = malloc(3 * nt * sizeof *id + 1), *first = malloc(3 * nt * sizeof *first + 1);
  long long np = id && first ? weld(s, ns, 3 * nt, id, first) : -1;
  tools_file o;
  FILE *f = np >= 0 ? vtk_open(&o, path) : NULL;
  if (!f) {
    if (np < 0) {
      fprintf(stderr, "vxc: %s: out of memory\n", path);
    }
    free(id);
    free(first);
    return -1;
  }
  vtk_head(f, "PolyData");
  fprintf(f,
          "    <Piece NumberOfPoints=\"%lld\" NumberOfVerts=\"0\" NumberOfLines=\"0\" "
          "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\">\n      <Points>\n",
          np, nt);
  array_open(f, "Float64", "points", 3);
  for (long long i = 0; i < np; i++) {
    const double *p = corner(s, ns, first[i]);
    fprintf(f, "%.9g %.9g %.9g\n", p[0], p[1], p[2]); /* for viewing */
  }
  array_close(f);
  fprintf(f, "      </Points>\n      <Polys>\n");
  array_open(f, "Int64", "connectivity", 1);
  for (size_t i = 0; i < nt; i++) {
    fprintf(f, "%zu %zu %zu\n", id[3 * i], id[3 * i + 1], id[3 * i + 2]);
  }
  array_close(f);
  array_open(f, "Int64", "offsets", 1);
  for (size_t i = 1; i <= nt; i++) {
    fprintf(f, "%zu\n", 3 * i);
  }
  array_close(f);
  fprintf(f, "      </Polys>\n      <CellData Scalars=\"solid\">\n");
  free(id);
  free(first);
  array_open(f, "Int32", "solid", 1);
  for (int k = 0; k < ns; k++) {
    for (size_t i = 0; i < s[k]->ntri; i++) {
      fprintf(f, "%d\n", k);
    }
  }
  array_close(f);
  array_open(f, "Int32", "cell", 1);
  for (int k = 0; k < ns; k++) {
    for (size_t i = 0; i < s[k]->ntri; i++) {
      fprintf(f, "%d\n", s[k]->cell[i]);
    }
  }
  array_close(f);
  fprintf(f, "      </CellData>\n    </Piece>\n");
  vtk_tail(f, "PolyData");
  return tools_file_close(&o);
}


int vtk_write_pvd(const char *path, int n, const double *t, const int *part,
                  const char *const *file) {
  tools_file o;
  FILE *f = vtk_open(&o, path);
  if (!f) {
    return -1;
  }
  vtk_head(f, "Collection");
  for (int i = 0; i < n; i++) {
    fprintf(f, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"%d\" file=\"", t[i], part[i]);
    for (const char *c = file[i]; *c; c++) { /* XML attribute escapes */
      if (*c == '&') {
        fputs("&amp;", f);
      } else if (*c == '"') {
        fputs("&quot;", f);
      } else if (*c == '<') {
        fputs("&lt;", f);
      } else {
        fputc(*c, f);
      }
    }
    fprintf(f, "\"/>\n");
  }
  vtk_tail(f, "Collection");
  return tools_file_close(&o);
}
