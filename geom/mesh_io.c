/* mesh_io.c: mesh file readers (binary and ASCII STL, Wavefront OBJ, ASCII and binary
 * little-endian PLY), over a buffer that gzip data is first inflated into.
 *
 * Data: every reader appends to a vxg_soup (mesh.h): vertices in file units and triangles
 * with the line (text formats) or byte offset (binary formats) they came from. Polygons
 * (OBJ and PLY faces) are fanned from their first vertex. Readers never trust a count from
 * the file to size a buffer: arrays grow as data is actually read, so a lying header costs
 * nothing. Numbers go through a bounded token buffer and strtod, and must be finite.
 *
 * Format detection (the content decides; the name's extension only breaks the tie between a
 * binary STL and text): gzip magic 1f 8b -> inflate first; "ply" line -> PLY; 84 + 50 n
 * bytes with n the count at byte 80 -> binary STL; "solid" followed by "facet" or "endsolid"
 * -> ASCII STL; a name ending in .stl -> binary STL (whose size then does not match);
 * otherwise OBJ. Errors go through vxg_error_set with the name and a position. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "geom/input.h"
#include "geom/mesh.h"

#define TOKEN_MAX 128

/* ---------------------------------------------------------------------------------------
 * gzip */

/* ---------------------------------------------------------------------------------------
 * Text scanning */

typedef struct text {
  const unsigned char *p;
  size_t len, pos;
  long line;
  vxg_soup *s;
  vxc_error *err;
  char tok[TOKEN_MAX + 1];
} text;

static int is_blank(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}


/* Reads the next token into t->tok. With `line_only`, stops at the end of the line (returns
 * 0 there without consuming the newline); otherwise newlines are spaces. `comment` (or 0)
 * starts a comment to the end of the line. Returns 1 with a token, 0 at the end, -1 on a
 * token longer than TOKEN_MAX or a NUL byte (error set). */
static int next_token(text *t, int line_only, int comment) {
  for (;;) {
    while (t->pos < t->len && is_blank(t->p[t->pos])) {
      t->pos++;
    }
    if (t->pos >= t->len) {
      return 0;
    }
    int c = t->p[t->pos];
    if (comment && c == comment) {
      while (t->pos < t->len && t->p[t->pos] != '\n') {
        t->pos++;
      }
      continue;
    }
    if (c == '\n') {
      if (line_only) {
        return 0;
      }
      t->pos++;
      t->line++;
      continue;
    }
    break;
  }
  size_t n = 0;
  while (t->pos < t->len && !is_blank(t->p[t->pos]) && t->p[t->pos] != '\n') {
    if (t->p[t->pos] == 0) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                    "unexpected NUL byte in a text mesh file");
      return -1;
    }
    if (n == TOKEN_MAX) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                    "a word longer than %d characters", TOKEN_MAX);
      return -1;
    }
    t->tok[n++] = (char)t->p[t->pos++];
  }
  t->tok[n] = '\0';
  return 1;
}


/* Skips to the start of the next line. */
static void next_line(text *t) {
  while (t->pos < t->len && t->p[t->pos] != '\n') {
    t->pos++;
  }
  if (t->pos < t->len) {
    t->pos++;
    t->line++;
  }
}


static int bad_line(text *t, vxc_status st, const char *what) {
  vxg_error_set(t->err, st, t->s->name, (int)(t->line > 0 ? t->line : 1), 1, "%s", what);
  return -1;
}


/* t->tok as a finite number. 0, or -1 with the error set (`what` names it). */
static int tok_number(text *t, const char *what, double *out) {
  char *end;
  double v = strtod(t->tok, &end);
  if (end == t->tok || *end != '\0') {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "expected a number for %s, got '%s'", what, t->tok);
    return -1;
  }
  if (!isfinite(v)) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "%s is not a finite number ('%s')", what, t->tok);
    return -1;
  }
  *out = v;
  return 0;
}


/* Reads a token that must be a finite number. */
static int read_number(text *t, int line_only, const char *what, double *out) {
  int r = next_token(t, line_only, 0);
  if (r < 0) {
    return -1;
  }
  if (r == 0) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "%s: expected a number for %s",
                  t->pos >= t->len ? "unexpected end of file" : "unexpected end of line", what);
    return -1;
  }
  return tok_number(t, what, out);
}


static int nomem(text *t) {
  if (t->s->nv >= VXG_MESH_MAX_COUNT || t->s->nt >= VXG_MESH_MAX_COUNT) {
    vxg_error_set(t->err, VXC_ERR_LIMIT, t->s->name, (int)t->line, 1,
                  "more than %d vertices or triangles", VXG_MESH_MAX_COUNT);
    return -1;
  }
  vxg_error_set(t->err, VXC_ERR_NOMEM, t->s->name, 0, 0, "out of memory");
  return -1;
}


/* ---------------------------------------------------------------------------------------
 * ASCII STL */

static int expect_word(text *t, const char *w, const char *ctx) {
  int r = next_token(t, 0, 0);
  if (r < 0) {
    return -1;
  }
  if (r == 0) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "unexpected end of file: expected '%s' %s (truncated file?)", w, ctx);
    return -1;
  }
  if (strcmp(t->tok, w) != 0) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1, "expected '%s' %s, got '%s'",
                  w, ctx, t->tok);
    return -1;
  }
  return 0;
}


static int parse_stl_ascii(text *t) {
  int in_solid = 0;
  for (;;) {
    int r = next_token(t, 0, 0);
    if (r < 0) {
      return -1;
    }
    if (r == 0) {
      if (in_solid) {
        return bad_line(t, VXC_ERR_FORMAT,
                        "unexpected end of file: 'endsolid' missing (truncated file?)");
      }
      return 0;
    }
    if (!in_solid) {
      if (strcmp(t->tok, "solid") != 0) {
        vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                      "expected 'solid' to start an ASCII STL solid, got '%s'", t->tok);
        return -1;
      }
      next_line(t); /* the solid's name, if any */
      in_solid = 1;
      continue;
    }
    if (strcmp(t->tok, "endsolid") == 0) {
      next_line(t);
      in_solid = 0;
      continue;
    }
    if (strcmp(t->tok, "facet") != 0) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                    "expected 'facet' or 'endsolid', got '%s'", t->tok);
      return -1;
    }
    long fline = t->line;
    double n;
    if (expect_word(t, "normal", "after 'facet'") != 0 ||
        read_number(t, 0, "the facet normal", &n) != 0 ||
        read_number(t, 0, "the facet normal", &n) != 0 ||
        read_number(t, 0, "the facet normal", &n) != 0 ||
        expect_word(t, "outer", "after the facet normal") != 0 ||
        expect_word(t, "loop", "after 'outer'") != 0) {
      return -1;
    }
    int idx[3];
    for (int k = 0; k < 3; k++) {
      double x, y, z;
      if (expect_word(t, "vertex", "(a facet has exactly three vertices)") != 0 ||
          read_number(t, 0, "vertex x", &x) != 0 || read_number(t, 0, "vertex y", &y) != 0 ||
          read_number(t, 0, "vertex z", &z) != 0) {
        return -1;
      }
      if (vxg_soup_vertex(t->s, x, y, z) != 0) {
        return nomem(t);
      }
      idx[k] = (int)t->s->nv - 1;
    }
    if (expect_word(t, "endloop", "(a facet has exactly three vertices)") != 0 ||
        expect_word(t, "endfacet", "after 'endloop'") != 0) {
      return -1;
    }
    if (vxg_soup_tri(t->s, idx[0], idx[1], idx[2], fline) != 0) {
      return nomem(t);
    }
  }
}


/* ---------------------------------------------------------------------------------------
 * OBJ */

/* The vertex index of a face corner "i", "i/j", "i//k" or "i/j/k" (1-based, negative
 * relative to the end). Returns 0, or -1 with the error set. */
static int obj_index(text *t, long nv, long *out) {
  char *end;
  long i = strtol(t->tok, &end, 10);
  if (end == t->tok || (*end != '\0' && *end != '/')) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "expected a vertex index in a face, got '%s'", t->tok);
    return -1;
  }
  if (i == 0) {
    return bad_line(t, VXC_ERR_FORMAT, "vertex index 0 in a face (OBJ indices start at 1)");
  }
  long k = i > 0 ? i - 1 : nv + i;
  if (k < 0 || (i < 0 && k >= nv) || i > VXG_MESH_MAX_COUNT) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "vertex index %ld out of range (%ld vertices so far)", i, nv);
    return -1;
  }
  *out = k;
  return 0;
}


static int parse_obj(text *t) {
  for (;;) {
    int r = next_token(t, 1, '#');
    if (r < 0) {
      return -1;
    }
    if (r == 0) {
      if (t->pos >= t->len) {
        break;
      }
      next_line(t);
      continue;
    }
    if (strcmp(t->tok, "v") == 0) {
      double x, y, z;
      if (read_number(t, 1, "vertex x", &x) != 0 || read_number(t, 1, "vertex y", &y) != 0 ||
          read_number(t, 1, "vertex z", &z) != 0) {
        return -1;
      }
      if (vxg_soup_vertex(t->s, x, y, z) != 0) {
        return nomem(t);
      }
    } else if (strcmp(t->tok, "f") == 0) {
      long nv = (long)t->s->nv, first = -1, prev = -1;
      int n = 0;
      while ((r = next_token(t, 1, '#')) == 1) {
        long k = 0;
        if (obj_index(t, nv, &k) != 0) {
          return -1;
        }
        if (n == 0) {
          first = k;
        } else if (n >= 2) {
          if (vxg_soup_tri(t->s, (int)first, (int)prev, (int)k, t->line) != 0) {
            return nomem(t);
          }
        }
        prev = k;
        n++;
      }
      if (r < 0) {
        return -1;
      }
      if (n < 3) {
        vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                      "a face needs at least 3 vertices, got %d", n);
        return -1;
      }
    }
    /* other statements (vt, vn, g, o, s, usemtl, mtllib, l, ...) carry no geometry */
    next_line(t);
  }
  /* forward references are resolved now that every vertex is known */
  for (size_t i = 0; i < 3 * t->s->nt; i++) {
    if ((size_t)t->s->t[i] >= t->s->nv) {
      t->line = t->s->pos[i / 3];
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                    "vertex index %d out of range (the file has %zu vertices)", t->s->t[i] + 1,
                    t->s->nv);
      return -1;
    }
  }
  return 0;
}


/* ---------------------------------------------------------------------------------------
 * PLY */

typedef enum ptype { P_NONE = 0, P_I8, P_U8, P_I16, P_U16, P_I32, P_U32, P_F32, P_F64 } ptype;

static const int ptype_size[] = {0, 1, 1, 2, 2, 4, 4, 4, 8};

static ptype ptype_parse(const char *s) {
  static const struct {
    const char *name;
    ptype t;
  } tab[] = {{"char", P_I8},   {"int8", P_I8},     {"uchar", P_U8},   {"uint8", P_U8},
             {"short", P_I16}, {"int16", P_I16},   {"ushort", P_U16}, {"uint16", P_U16},
             {"int", P_I32},   {"int32", P_I32},   {"uint", P_U32},   {"uint32", P_U32},
             {"float", P_F32}, {"float32", P_F32}, {"double", P_F64}, {"float64", P_F64}};
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    if (strcmp(s, tab[i].name) == 0) {
      return tab[i].t;
    }
  }
  return P_NONE;
}


#define PLY_MAX_ELEM 16
#define PLY_MAX_PROP 32

typedef struct ply_prop {
  ptype type;       /* scalar type, or the list's item type */
  ptype count_type; /* lists: the count's type; P_NONE for scalars */
  int role;         /* 0 other, 1..3 x y z, 4 the face's vertex list */
} ply_prop;

typedef struct ply_elem {
  char name[TOKEN_MAX + 1];
  long count;
  int nprop;
  ply_prop prop[PLY_MAX_PROP];
} ply_elem;

/* Little-endian value of type ty at p. */
static double le_value(const unsigned char *p, ptype ty) {
  uint64_t u = 0;
  for (int i = ptype_size[ty] - 1; i >= 0; i--) {
    u = (u << 8) | p[i];
  }
  switch (ty) {
    case P_I8:
      return (double)(int8_t)u;
    case P_U8:
      return (double)(uint8_t)u;
    case P_I16:
      return (double)(int16_t)u;
    case P_U16:
      return (double)(uint16_t)u;
    case P_I32:
      return (double)(int32_t)u;
    case P_U32:
      return (double)(uint32_t)u;
    case P_F32: {
      uint32_t w = (uint32_t)u;
      float f;
      memcpy(&f, &w, sizeof f);
      return f;
    }
    case P_F64: {
      double d;
      memcpy(&d, &u, sizeof d);
      return d;
    }
    default:
      return 0;
  }
}


/* Reads one value of type ty: ASCII (a token) or binary (advancing t->pos). 0 or -1. */
static int ply_value(text *t, int binary, ptype ty, const char *elem, long index, double *out) {
  if (binary) {
    size_t n = (size_t)ptype_size[ty];
    if (t->len - t->pos < n) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, 0, 0,
                    "unexpected end of file in %s %ld (byte offset %zu): the file is truncated "
                    "or its header's counts are wrong",
                    elem, index, t->pos);
      return -1;
    }
    *out = le_value(t->p + t->pos, ty);
    t->pos += n;
  } else {
    int r = next_token(t, 0, 0);
    if (r < 0) {
      return -1;
    }
    if (r == 0) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                    "unexpected end of file in %s %ld: the file is truncated or its header's "
                    "counts are wrong",
                    elem, index);
      return -1;
    }
    if (tok_number(t, elem, out) != 0) {
      return -1;
    }
  }
  if (!isfinite(*out)) {
    if (binary) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, 0, 0,
                    "%s %ld (byte offset %zu): a value is not a finite number", elem, index,
                    t->pos - (size_t)ptype_size[ty]);
    } else {
      bad_line(t, VXC_ERR_FORMAT, "a value is not a finite number");
    }
    return -1;
  }
  return 0;
}


/* A PLY header as read: its elements in order, the data format, and which elements are the
 * vertices (vi) and the faces (fi). */
typedef struct ply_header {
  ply_elem el[PLY_MAX_ELEM];
  int nel, binary, vi, fi;
} ply_header;


/* "format ascii|binary_little_endian VERSION" */
static int ply_format_line(text *t, ply_header *h) {
  if (next_token(t, 1, 0) != 1) {
    return bad_line(t, VXC_ERR_FORMAT, "PLY format line without a format");
  }
  if (strcmp(t->tok, "ascii") == 0) {
    h->binary = 0;
  } else if (strcmp(t->tok, "binary_little_endian") == 0) {
    h->binary = 1;
  } else {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "unsupported PLY format '%s' (ascii and binary_little_endian are read)", t->tok);
    return -1;
  }
  return 0;
}


/* "element NAME COUNT" */
static int ply_element_line(text *t, ply_header *h) {
  if (h->nel == PLY_MAX_ELEM) {
    return bad_line(t, VXC_ERR_FORMAT, "too many PLY elements");
  }
  ply_elem *e = &h->el[h->nel];
  memset(e, 0, sizeof *e);
  double c;
  if (next_token(t, 1, 0) != 1) {
    return bad_line(t, VXC_ERR_FORMAT, "PLY element without a name");
  }
  memcpy(e->name, t->tok, sizeof e->name);
  if (read_number(t, 1, "the element count", &c) != 0) {
    return -1;
  }
  if (c < 0 || c != floor(c) || c > VXG_MESH_MAX_COUNT) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "bad PLY element count %g (0 to %d)", c, VXG_MESH_MAX_COUNT);
    return -1;
  }
  e->count = (long)c;
  h->nel++;
  return 0;
}


/* "property TYPE NAME" or "property list COUNT_TYPE ITEM_TYPE NAME", of the last element; the
 * vertex's x y z and the face's vertex list get their roles. */
static int ply_property_line(text *t, ply_header *h) {
  if (h->nel == 0) {
    return bad_line(t, VXC_ERR_FORMAT, "PLY property before any element");
  }
  ply_elem *e = &h->el[h->nel - 1];
  if (e->nprop == PLY_MAX_PROP) {
    return bad_line(t, VXC_ERR_FORMAT, "too many PLY properties in one element");
  }
  ply_prop *pp = &e->prop[e->nprop];
  memset(pp, 0, sizeof *pp);
  if (next_token(t, 1, 0) != 1) {
    return bad_line(t, VXC_ERR_FORMAT, "PLY property without a type");
  }
  if (strcmp(t->tok, "list") == 0) {
    if (next_token(t, 1, 0) != 1 || (pp->count_type = ptype_parse(t->tok)) == P_NONE ||
        pp->count_type == P_F32 || pp->count_type == P_F64 || next_token(t, 1, 0) != 1 ||
        (pp->type = ptype_parse(t->tok)) == P_NONE) {
      return bad_line(t, VXC_ERR_FORMAT,
                      "bad PLY list property (expected 'property list COUNT_TYPE "
                      "ITEM_TYPE NAME' with an integer count type)");
    }
  } else if ((pp->type = ptype_parse(t->tok)) == P_NONE) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                  "unknown PLY property type '%s'", t->tok);
    return -1;
  }
  if (next_token(t, 1, 0) != 1) {
    return bad_line(t, VXC_ERR_FORMAT, "PLY property without a name");
  }
  int vert = strcmp(e->name, "vertex") == 0, face = strcmp(e->name, "face") == 0;
  if (vert && !pp->count_type && strlen(t->tok) == 1 && t->tok[0] >= 'x' && t->tok[0] <= 'z') {
    pp->role = 1 + t->tok[0] - 'x';
  }
  if (face && pp->count_type &&
      (strcmp(t->tok, "vertex_indices") == 0 || strcmp(t->tok, "vertex_index") == 0)) {
    pp->role = 4;
  }
  e->nprop++;
  return 0;
}


/* The header's lines after "ply", through "end_header". */
static int ply_header_lines(text *t, ply_header *h) {
  for (;;) {
    int r = next_token(t, 1, 0);
    if (r < 0) {
      return -1;
    }
    if (r == 0) {
      if (t->pos >= t->len) {
        return bad_line(t, VXC_ERR_FORMAT, "unexpected end of file in the PLY header");
      }
      next_line(t);
      continue;
    }
    int end = strcmp(t->tok, "end_header") == 0;
    if (strcmp(t->tok, "format") == 0) {
      r = ply_format_line(t, h);
    } else if (strcmp(t->tok, "element") == 0) {
      r = ply_element_line(t, h);
    } else if (strcmp(t->tok, "property") == 0) {
      r = ply_property_line(t, h);
    } else if (!end && strcmp(t->tok, "comment") != 0 && strcmp(t->tok, "obj_info") != 0) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                    "unknown PLY header line '%s'", t->tok);
      return -1;
    }
    if (r < 0) {
      return -1;
    }
    next_line(t);
    if (end) {
      return 0;
    }
  }
}


/* Reads the header and checks it describes a mesh: a format, a 'vertex' element with x y z
 * followed by a 'face' element with a vertex list. */
static int ply_read_header(text *t, ply_header *h) {
  h->nel = 0;
  h->binary = -1;
  next_line(t); /* "ply" */
  if (ply_header_lines(t, h) != 0) {
    return -1;
  }
  if (h->binary < 0) {
    return bad_line(t, VXC_ERR_FORMAT, "the PLY header has no format line");
  }
  t->s->binary = h->binary;
  h->vi = h->fi = -1;
  for (int i = 0; i < h->nel; i++) {
    if (strcmp(h->el[i].name, "vertex") == 0 && h->vi < 0) {
      h->vi = i;
    } else if (strcmp(h->el[i].name, "face") == 0 && h->fi < 0) {
      h->fi = i;
    }
  }
  if (h->vi < 0 || h->fi < 0 || h->fi < h->vi) {
    return bad_line(t, VXC_ERR_FORMAT,
                    "a PLY mesh needs a 'vertex' element followed by a 'face' element");
  }
  int have[5] = {0};
  for (int k = 0; k < h->el[h->vi].nprop; k++) {
    have[h->el[h->vi].prop[k].role]++;
  }
  for (int k = 0; k < h->el[h->fi].nprop; k++) {
    have[h->el[h->fi].prop[k].role]++;
  }
  if (have[1] != 1 || have[2] != 1 || have[3] != 1 || have[4] != 1) {
    return bad_line(t, VXC_ERR_FORMAT,
                    "the PLY header needs vertex properties x, y, z and a face list "
                    "'vertex_indices'");
  }
  return 0;
}


/* Reads list property pp of item j of element e (starting at line or byte offset `start`); a
 * face's vertex list (role 4) is fanned into triangles of the vertices from vbase on. */
static int ply_list(text *t, const ply_header *h, const ply_elem *e, const ply_prop *pp, long j,
                    long start, size_t vbase) {
  int binary = h->binary;
  long nvert = h->el[h->vi].count;
  double cnt, v;
  if (ply_value(t, binary, pp->count_type, e->name, j, &cnt) != 0) {
    return -1;
  }
  if (cnt < 0) {
    if (binary) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, 0, 0,
                    "%s %ld (byte offset %ld): negative list length", e->name, j, start);
    } else {
      bad_line(t, VXC_ERR_FORMAT, "negative list length");
    }
    return -1;
  }
  if (pp->role == 4 && cnt < 3) {
    if (binary) {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, 0, 0,
                    "face %ld (byte offset %ld): a face needs at least 3 vertices, got %.0f", j,
                    start, cnt);
    } else {
      vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                    "face %ld: a face needs at least 3 vertices, got %.0f", j, cnt);
    }
    return -1;
  }
  long first = -1, prev = -1;
  for (long c = 0; c < (long)cnt; c++) {
    if (ply_value(t, binary, pp->type, e->name, j, &v) != 0) {
      return -1;
    }
    if (pp->role != 4) {
      continue;
    }
    if (v < 0 || v != floor(v) || v >= (double)nvert) {
      if (binary) {
        vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, 0, 0,
                      "face %ld (byte offset %ld): vertex index %g out of range (%ld vertices)", j,
                      start, v, nvert);
      } else {
        vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, (int)t->line, 1,
                      "face %ld: vertex index %g out of range (%ld vertices)", j, v, nvert);
      }
      return -1;
    }
    long k2 = (long)vbase + (long)v;
    if (c == 0) {
      first = k2;
    } else if (c >= 2 &&
               vxg_soup_tri(t->s, (int)first, (int)prev, (int)k2, binary ? start : t->line)) {
      return nomem(t);
    }
    prev = k2;
  }
  return 0;
}


/* Reads every item of element i; the vertex element's items become vertices. */
static int ply_element(text *t, const ply_header *h, int i, size_t vbase) {
  const ply_elem *e = &h->el[i];
  for (long j = 0; j < e->count; j++) {
    double xyz[3] = {0, 0, 0};
    long start = h->binary ? (long)t->pos : t->line;
    for (int k = 0; k < e->nprop; k++) {
      const ply_prop *pp = &e->prop[k];
      double v;
      if (pp->count_type) {
        if (ply_list(t, h, e, pp, j, start, vbase) != 0) {
          return -1;
        }
        continue;
      }
      if (ply_value(t, h->binary, pp->type, e->name, j, &v) != 0) {
        return -1;
      }
      if (pp->role >= 1 && pp->role <= 3) {
        xyz[pp->role - 1] = v;
      }
    }
    if (i == h->vi && vxg_soup_vertex(t->s, xyz[0], xyz[1], xyz[2]) != 0) {
      return nomem(t);
    }
  }
  return 0;
}


/* Nothing may follow the last element: the header's counts must match the data. */
static int ply_check_end(text *t, int binary) {
  if (binary && t->pos != t->len) {
    vxg_error_set(t->err, VXC_ERR_FORMAT, t->s->name, 0, 0,
                  "%zu bytes after the last PLY element (byte offset %zu): the header's counts "
                  "do not match the data",
                  t->len - t->pos, t->pos);
    return -1;
  }
  if (!binary) {
    int r = next_token(t, 0, 0);
    if (r != 0) {
      return r < 0 ? -1
                   : bad_line(t, VXC_ERR_FORMAT,
                              "data after the last PLY element: the header's counts do not "
                              "match the data");
    }
  }
  return 0;
}


static int parse_ply(text *t) {
  ply_header h;
  if (ply_read_header(t, &h) != 0) {
    return -1;
  }
  size_t vbase = t->s->nv;
  for (int i = 0; i < h.nel; i++) {
    if (ply_element(t, &h, i, vbase) != 0) {
      return -1;
    }
  }
  return ply_check_end(t, h.binary);
}


/* ---------------------------------------------------------------------------------------
 * Binary STL */

static float le_f32(const unsigned char *p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}


static vxc_status parse_stl_binary(vxg_soup *s, const unsigned char *p, size_t len,
                                   vxc_error *err) {
  if (len < 84) {
    return vxg_error_set(err, VXC_ERR_FORMAT, s->name, 0, 0,
                         "binary STL too short: %zu bytes, the header alone takes 84", len);
  }
  uint32_t n =
      (uint32_t)p[80] | (uint32_t)p[81] << 8 | (uint32_t)p[82] << 16 | (uint32_t)p[83] << 24;
  uint64_t want = 84 + 50 * (uint64_t)n;
  if (want != len) {
    return vxg_error_set(err, VXC_ERR_FORMAT, s->name, 0, 0,
                         "binary STL size mismatch: the header announces %u triangles (%llu "
                         "bytes), the file has %zu bytes%s",
                         n, (unsigned long long)want, len, want > len ? " (truncated?)" : "");
  }
  if (n > VXG_MESH_MAX_COUNT / 3) {
    return vxg_error_set(err, VXC_ERR_LIMIT, s->name, 0, 0, "more than %d triangles",
                         VXG_MESH_MAX_COUNT / 3);
  }
  for (uint32_t i = 0; i < n; i++) {
    size_t off = 84 + 50 * (size_t)i;
    for (int k = 0; k < 3; k++) {
      double x[3];
      for (int a = 0; a < 3; a++) {
        x[a] = le_f32(p + off + 12 + 12 * k + 4 * a);
        if (!isfinite(x[a])) {
          return vxg_error_set(err, VXC_ERR_FORMAT, s->name, 0, 0,
                               "triangle %u (byte offset %zu): vertex %d has a coordinate that "
                               "is not a finite number",
                               i, off, k + 1);
        }
      }
      if (vxg_soup_vertex(s, x[0], x[1], x[2]) != 0) {
        return vxg_error_set(err, VXC_ERR_NOMEM, s->name, 0, 0, "out of memory");
      }
    }
    int b = (int)s->nv - 3;
    if (vxg_soup_tri(s, b, b + 1, b + 2, (long)off) != 0) {
      return vxg_error_set(err, VXC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    }
  }
  return VXC_OK;
}


/* ---------------------------------------------------------------------------------------
 * Detection */

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcasecmp(s + n - k, suffix) == 0;
}


/* 1 when the text after leading blanks starts with `w` followed by a blank or the end. */
static int starts_with_word(const unsigned char *p, size_t len, const char *w) {
  size_t i = 0, k = strlen(w);
  while (i < len && (is_blank(p[i]) || p[i] == '\n')) {
    i++;
  }
  if (len - i < k || memcmp(p + i, w, k) != 0) {
    return 0;
  }
  return i + k == len || is_blank(p[i + k]) || p[i + k] == '\n';
}


/* 1 when `w` occurs in the first `lim` bytes. */
static int contains(const unsigned char *p, size_t len, size_t lim, const char *w) {
  size_t k = strlen(w), n = len < lim ? len : lim;
  for (size_t i = 0; i + k <= n; i++) {
    if (memcmp(p + i, w, k) == 0) {
      return 1;
    }
  }
  return 0;
}


vxc_status vxg_mesh_io_parse(vxg_soup *s, const unsigned char *buf, size_t len, vxc_error *err) {
  const char *name = s->name ? s->name : "";
  if (len > VXG_MESH_MAX_INPUT) {
    return vxg_error_set(err, VXC_ERR_LIMIT, name, 0, 0, "mesh file larger than %zu MiB",
                         VXG_MESH_MAX_INPUT >> 20);
  }
  char *inflated = NULL;
  if (vxg_is_gzip(buf, len)) {
    vxc_status st = vxg_gunzip(s->al, buf, len, name, VXG_MESH_MAX_INPUT, &inflated, &len, err);
    if (st != VXC_OK) {
      return st;
    }
    buf = (const unsigned char *)inflated;
    s->gzip = 1;
  }
  text t;
  memset(&t, 0, sizeof t);
  t.p = buf;
  t.len = len;
  t.line = 1;
  t.s = s;
  t.err = err;
  int r;
  vxc_status st = VXC_OK;
  int stl_name = ends_with(name, ".stl") || ends_with(name, ".stl.gz");
  if (len >= 4 && memcmp(buf, "ply", 3) == 0 && (buf[3] == '\n' || buf[3] == '\r')) {
    s->format = "PLY";
    r = parse_ply(&t);
    if (r == 0) {
      s->format = s->binary ? "binary PLY" : "ASCII PLY";
    }
  } else if (len >= 84 && 84 + 50 * (uint64_t)((uint32_t)buf[80] | (uint32_t)buf[81] << 8 |
                                               (uint32_t)buf[82] << 16 | (uint32_t)buf[83] << 24) ==
                              len) {
    s->format = "binary STL";
    s->binary = 1;
    st = parse_stl_binary(s, buf, len, err);
    r = st == VXC_OK ? 0 : -1;
  } else if (starts_with_word(buf, len, "solid") &&
             (contains(buf, len, 4096, "facet") || contains(buf, len, 4096, "endsolid"))) {
    s->format = "ASCII STL";
    r = parse_stl_ascii(&t);
  } else if (stl_name) {
    s->format = "binary STL";
    s->binary = 1;
    st = parse_stl_binary(s, buf, len, err);
    r = st == VXC_OK ? 0 : -1;
  } else {
    s->format = "OBJ";
    r = parse_obj(&t);
  }
  if (r != 0 && st == VXC_OK) {
    st = err ? err->status : VXC_ERR_FORMAT;
    if (st == VXC_OK) {
      st = VXC_ERR_FORMAT;
    }
  }
  vxg_free(s->al, inflated);
  return st;
}
