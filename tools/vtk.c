/* vtk.c: ParaView files in the VTK XML formats (vtk.h): binary arrays, zlib-compressed, in
 * the file's appended data. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tools/outfile.h"
#include "tools/vtk.h"

/* Uncompressed bytes of a compressed block (VTK's default). */
#define VTK_BLOCK 32768
/* zlib's level: the frames of a run are many, their arrays mostly floating point */
#define VTK_ZLEVEL 1


void vtk_blob_free(vtk_blob *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}


/* Room for n more bytes at b->data + b->size: the pointer, or NULL (b->nomem set). */
static unsigned char *blob_room(vtk_blob *b, size_t n) {
  if (b->nomem) {
    return NULL;
  }
  if (b->size + n > b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 4096;
    while (cap < b->size + n) {
      cap *= 2;
    }
    unsigned char *d = realloc(b->data, cap);
    if (!d) {
      b->nomem = 1;
      return NULL;
    }
    b->data = d;
    b->cap = cap;
  }
  return b->data + b->size;
}


static void blob_put(vtk_blob *b, const void *p, size_t n) {
  unsigned char *at = blob_room(b, n);
  if (at) {
    memcpy(at, p, n);
    b->size += n;
  }
}


static void blob_printf(vtk_blob *b, const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  blob_put(b, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}


int vtk_blob_write(const char *path, const vtk_blob *b) {
  if (b->nomem) {
    fprintf(stderr, "vxc: %s: out of memory\n", path);
    return -1;
  }
  tools_file o;
  if (tools_file_open(&o, "vxc", path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  fwrite(b->data, 1, b->size, o.f); /* checked by tools_file_close */
  return tools_file_close(&o);
}


/* A file being encoded: its XML and its appended data. */
typedef struct vtk_enc {
  vtk_blob xml, app;
} vtk_enc;


static int little_endian(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}


static void enc_head(vtk_enc *e, const char *type) {
  blob_printf(&e->xml,
              "<?xml version=\"1.0\"?>\n<VTKFile type=\"%s\" version=\"1.0\" "
              "byte_order=\"%s\" header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\">\n"
              "  <%s>\n",
              type, little_endian() ? "LittleEndian" : "BigEndian", type);
}


/* An array: its DataArray element in the XML, its bytes compressed into the appended data
 * (the header n_blocks, block size, last block's size (0: full), then each block's
 * compressed size, all UInt64, then the blocks). */
static void enc_array(vtk_enc *e, const char *type, const char *name, int ncomp, const void *data,
                      size_t bytes) {
  blob_printf(&e->xml,
              "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" "
              "format=\"appended\" offset=\"%zu\"/>\n",
              type, name, ncomp, e->app.size);
  size_t nb = (bytes + VTK_BLOCK - 1) / VTK_BLOCK;
  uint64_t head[3] = {nb, VTK_BLOCK, bytes % VTK_BLOCK};
  blob_put(&e->app, head, sizeof head);
  size_t sizes_at = e->app.size;
  if (!blob_room(&e->app, 8 * nb)) {
    return;
  }
  e->app.size += 8 * nb;
  for (size_t k = 0; k < nb; k++) {
    size_t n = k + 1 < nb || bytes % VTK_BLOCK == 0 ? VTK_BLOCK : bytes % VTK_BLOCK;
    uLongf len = compressBound((uLong)n);
    unsigned char *at = blob_room(&e->app, len);
    if (!at || compress2(at, &len, (const Bytef *)data + k * VTK_BLOCK, (uLong)n, VTK_ZLEVEL) !=
                   Z_OK) {
      e->app.nomem = 1;
      return;
    }
    uint64_t size = len;
    memcpy(e->app.data + sizes_at + 8 * k, &size, 8);
    e->app.size += len;
  }
}


/* The whole file into out: the XML, then "_" and the appended data. Frees e. */
static int enc_finish(vtk_enc *e, const char *type, vtk_blob *out) {
  blob_printf(&e->xml, "  </%s>\n  <AppendedData encoding=\"raw\">\n   _", type);
  *out = e->xml;
  if (!e->app.nomem) {
    blob_put(out, e->app.data, e->app.size);
  }
  blob_printf(out, "\n  </AppendedData>\n</VTKFile>\n");
  out->nomem |= e->app.nomem;
  free(e->app.data);
  return out->nomem ? -1 : 0;
}


/* The n indices v (or, v NULL, base + step * i) as an array: Int32 when they all fit, else
 * Int64. Returns 0 or -1 (out of
 * memory). */
static int enc_index(vtk_enc *e, const char *name, size_t n, const int64_t *v, int64_t base,
                     int64_t step) {
  int64_t big = base + step * (int64_t)n;
  for (size_t i = 0; v && i < n; i++) {
    big = v[i] > big ? v[i] : big;
  }
  int narrow = big <= INT32_MAX;
  size_t size = narrow ? 4 : 8;
  unsigned char *buf = malloc(n * size + 1);
  if (!buf) {
    e->app.nomem = 1;
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    int64_t x = v ? v[i] : base + step * (int64_t)i;
    int32_t y = (int32_t)x;
    memcpy(buf + i * size, narrow ? (const void *)&y : (const void *)&x, size);
  }
  enc_array(e, narrow ? "Int32" : "Int64", name, 1, buf, n * size);
  free(buf);
  return 0;
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


/* An int of each region box, by field. */
enum { I_CONTACT, I_CLOSED, I_PAIR, I_PATCH, I_LEAF, I_LEVEL, I_NFIELD };
static const char *const I_NAME[I_NFIELD] = {"contact", "closed_form", "pair",
                                             "patch",   "leaf",        "level"};

static int32_t region_int(const vxc_region_box *b, const vtk_region_tag *tag, int k) {
  int32_t v[I_NFIELD] = {tag ? tag->contact : 0, tag ? tag->closed_form : 0, b->pair, b->patch,
                         b->leaf,                b->level};
  return v[k];
}


/* The 8 corners of each box in VTK_VOXEL's order (x fastest, then y, then z). */
static void region_points(vtk_enc *e, const vxc_region_box *box, size_t n, double *p) {
  for (size_t i = 0; i < n; i++) {
    const double *c = box[i].center, *x = box[i].extent;
    for (int j = 0; j < 8; j++) {
      for (int k = 0; k < 3; k++) {
        p[24 * i + 3 * j + k] = c[k] + 0.5 * (j & (1 << k) ? x[k] : -x[k]);
      }
    }
  }
  enc_array(e, "Float64", "points", 3, p, 24 * n * sizeof *p);
}


int vtk_region_encode(vtk_blob *out, const vxc_region_box *box, const vtk_region_tag *tag,
                      size_t n) {
  vtk_enc e;
  memset(&e, 0, sizeof e);
  memset(out, 0, sizeof *out);
  double *p = malloc(24 * n * sizeof *p + 1), *d = malloc(n * sizeof *d + 1);
  int32_t *iv = malloc(n * sizeof *iv + 1);
  uint8_t *type = malloc(n + 1);
  if (!p || !d || !iv || !type) {
    e.app.nomem = 1;
  }
  enc_head(&e, "UnstructuredGrid");
  blob_printf(&e.xml, "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n      <Points>\n",
              8 * n, n);
  if (!e.app.nomem) {
    region_points(&e, box, n, p);
    blob_printf(&e.xml, "      </Points>\n      <Cells>\n");
    enc_index(&e, "connectivity", 8 * n, NULL, 0, 1);
    enc_index(&e, "offsets", n, NULL, 8, 8);
    memset(type, 11, n); /* VTK_VOXEL */
    enc_array(&e, "UInt8", "types", 1, type, n);
    blob_printf(&e.xml, "      </Cells>\n      <CellData Scalars=\"volume\">\n");
    for (int k = 0; k < I_NFIELD; k++) {
      for (size_t i = 0; i < n; i++) {
        iv[i] = region_int(&box[i], tag ? &tag[i] : NULL, k);
      }
      enc_array(&e, "Int32", I_NAME[k], 1, iv, n * sizeof *iv);
    }
    for (int k = 0; k < R_NFIELD; k++) {
      for (size_t i = 0; i < n; i++) {
        d[i] = region_field(&box[i], k);
      }
      enc_array(&e, "Float64", R_NAME[k], 1, d, n * sizeof *d);
    }
    blob_printf(&e.xml, "      </CellData>\n    </Piece>\n");
  }
  free(p);
  free(d);
  free(iv);
  free(type);
  return enc_finish(&e, "UnstructuredGrid", out);
}


int vtk_write_region(const char *path, const vxc_region_box *box, const vtk_region_tag *tag,
                     size_t n) {
  vtk_blob b;
  vtk_region_encode(&b, box, tag, n);
  int rc = vtk_blob_write(path, &b);
  vtk_blob_free(&b);
  return rc;
}


void vtk_mesh_free(vtk_mesh *m) {
  free(m->point);
  free(m->tri);
  free(m->solid);
  free(m->cell);
  vtk_blob_free(&m->topo_xml);
  vtk_blob_free(&m->topo_app);
  memset(m, 0, sizeof *m);
}


/* FNV-1a over a point's 24 bytes. */
static uint64_t point_hash(const double *p) {
  uint64_t h = 1469598103934665603ULL;
  const unsigned char *b = (const unsigned char *)p;
  for (int c = 0; c < 24; c++) {
    h = (h ^ b[c]) * 1099511628211ULL;
  }
  return h;
}


/* Welds the corners into m->point and m->tri (open addressing on the points' bits). */
static int weld(vtk_mesh *m, const vxc_surface *const *s, int ns) {
  size_t cap = 16;
  while (cap < 2 * 3 * m->nt) {
    cap *= 2;
  }
  size_t *slot = calloc(cap, sizeof *slot); /* point index + 1, 0: free */
  if (!slot) {
    return -1;
  }
  size_t j = 0;
  for (int k = 0; k < ns; k++) {
    for (size_t i = 0; i < 3 * s[k]->ntri; i++, j++) {
      const double *p = s[k]->v + 3 * i;
      size_t at = (size_t)point_hash(p) & (cap - 1);
      while (slot[at] && memcmp(m->point + 3 * (slot[at] - 1), p, 3 * sizeof *p) != 0) {
        at = (at + 1) & (cap - 1);
      }
      if (!slot[at]) {
        memcpy(m->point + 3 * m->np, p, 3 * sizeof *p);
        slot[at] = ++m->np;
      }
      m->tri[j] = (int64_t)slot[at] - 1;
    }
  }
  free(slot);
  return 0;
}


/* The mesh's arrays that do not change with its pose (connectivity, offsets, solid, cell),
 * encoded once: their compressed bytes lead every file's appended data, their XML is
 * m->topo_xml (split at m->topo_split between the Polys and the CellData). Returns 0 or
 * -1 (out of memory). */
static int mesh_topology(vtk_mesh *m) {
  vtk_enc e;
  memset(&e, 0, sizeof e);
  enc_index(&e, "connectivity", 3 * m->nt, m->tri, 0, 0);
  enc_index(&e, "offsets", m->nt, NULL, 3, 3);
  m->topo_split = e.xml.size;
  enc_array(&e, "Int32", "solid", 1, m->solid, m->nt * sizeof *m->solid);
  enc_array(&e, "Int32", "cell", 1, m->cell, m->nt * sizeof *m->cell);
  m->topo_xml = e.xml;
  m->topo_app = e.app;
  return e.xml.nomem || e.app.nomem ? -1 : 0;
}


int vtk_mesh_weld(vtk_mesh *m, const vxc_surface *const *s, int ns, const int *solid_id) {
  memset(m, 0, sizeof *m);
  for (int k = 0; k < ns; k++) {
    m->nt += s[k]->ntri;
  }
  m->point = malloc(9 * m->nt * sizeof *m->point + 1);
  m->tri = malloc(3 * m->nt * sizeof *m->tri + 1);
  m->solid = malloc(m->nt * sizeof *m->solid + 1);
  m->cell = malloc(m->nt * sizeof *m->cell + 1);
  if (!m->point || !m->tri || !m->solid || !m->cell || weld(m, s, ns) != 0) {
    vtk_mesh_free(m);
    return -1;
  }
  size_t j = 0;
  for (int k = 0; k < ns; k++) {
    for (size_t i = 0; i < s[k]->ntri; i++, j++) {
      m->solid[j] = solid_id ? solid_id[k] : k;
      m->cell[j] = s[k]->cell[i];
    }
  }
  double *p = realloc(m->point, 3 * m->np * sizeof *p + 1); /* give back the unused room */
  if (p) {
    m->point = p;
  }
  if (mesh_topology(m) != 0) {
    vtk_mesh_free(m);
    return -1;
  }
  return 0;
}


int vtk_mesh_encode(vtk_blob *out, const vtk_mesh *m, const double *point) {
  vtk_enc e;
  memset(&e, 0, sizeof e);
  memset(out, 0, sizeof *out);
  const double *p = point ? point : m->point;
  float *pf = malloc(3 * m->np * sizeof *pf + 1);
  if (!pf) {
    e.app.nomem = 1;
  }
  enc_head(&e, "PolyData");
  blob_printf(&e.xml,
              "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"0\" NumberOfLines=\"0\" "
              "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\">\n      <Points>\n",
              m->np, m->nt);
  if (pf) {
    for (size_t i = 0; i < 3 * m->np; i++) {
      pf[i] = (float)p[i];
    }
    blob_put(&e.app, m->topo_app.data, m->topo_app.size);
    enc_array(&e, "Float32", "points", 3, pf, 3 * m->np * sizeof *pf);
    free(pf);
    blob_printf(&e.xml, "      </Points>\n      <Polys>\n");
    blob_put(&e.xml, m->topo_xml.data, m->topo_split);
    blob_printf(&e.xml, "      </Polys>\n      <CellData Scalars=\"solid\">\n");
    blob_put(&e.xml, m->topo_xml.data + m->topo_split, m->topo_xml.size - m->topo_split);
    blob_printf(&e.xml, "      </CellData>\n    </Piece>\n");
  }
  return enc_finish(&e, "PolyData", out);
}


int vtk_write_surfaces(const char *path, const vxc_surface *const *s, int ns) {
  vtk_mesh m;
  vtk_blob b;
  memset(&b, 0, sizeof b);
  if (vtk_mesh_weld(&m, s, ns, NULL) != 0) {
    b.nomem = 1;
  } else {
    vtk_mesh_encode(&b, &m, NULL);
    vtk_mesh_free(&m);
  }
  int rc = vtk_blob_write(path, &b);
  vtk_blob_free(&b);
  return rc;
}


/* An XML attribute's value, escaped. */
static void xml_attr(FILE *f, const char *s) {
  for (const char *c = s; *c; c++) {
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
}


int vtk_write_pvd(const char *path, int n, const double *t, const int *part,
                  const char *const *file) {
  tools_file o;
  if (tools_file_open(&o, "vxc", path, TOOLS_FILE_ATOMIC) != 0) {
    return -1;
  }
  FILE *f = o.f;
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n"
             "  <Collection>\n");
  for (int i = 0; i < n; i++) {
    fprintf(f, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"%d\" file=\"", t[i], part[i]);
    xml_attr(f, file[i]);
    fprintf(f, "\"/>\n");
  }
  fprintf(f, "  </Collection>\n</VTKFile>\n");
  return tools_file_close(&o);
}
