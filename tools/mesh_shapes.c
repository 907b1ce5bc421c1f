/* mesh_shapes.c: the part meshes of mesh_shapes.h and their convex pieces. */
#include "tools/mesh_shapes.h"

#include <errno.h>
#include <string.h>

/* ---- a growing mesh --------------------------------------------------------------------- */

typedef struct builder {
  mg_mesh m;
  int capv, capt;
  int weld; /* 1: a vertex equal to an earlier one is that one (small meshes: linear search) */
} builder;

static int b_vert(builder *b, double x, double y, double z) {
  if (b->weld) {
    for (int i = 0; i < b->m.nv; i++) {
      const double *v = b->m.v + 3 * i;
      if (v[0] == x && v[1] == y && v[2] == z) {
        return i;
      }
    }
  }
  if (b->m.nv == b->capv) {
    int cap = b->capv ? 2 * b->capv : 64;
    double *v = realloc(b->m.v, 3 * sizeof(double) * (size_t)cap);
    if (!v) {
      return -1;
    }
    b->m.v = v;
    b->capv = cap;
  }
  return mg_vert(&b->m, x, y, z);
}

static int b_tri(builder *b, int i, int j, int k) {
  if (i < 0 || j < 0 || k < 0) {
    return -1; /* a failed b_vert */
  }
  if (b->m.nt == b->capt) {
    int cap = b->capt ? 2 * b->capt : 64;
    int *t = realloc(b->m.t, 3 * sizeof(int) * (size_t)cap);
    if (!t) {
      return -1;
    }
    b->m.t = t;
    b->capt = cap;
  }
  mg_tri(&b->m, i, j, k);
  return 0;
}

/* The quad a b c d (counter-clockwise from outside) as two triangles. */
static int b_quad(builder *b, int a, int c1, int c2, int d) {
  return b_tri(b, a, c1, c2) || b_tri(b, a, c2, d) ? -1 : 0;
}

/* Hands the mesh over (out) or frees it on failure; returns rc. */
static int b_finish(builder *b, int rc, mg_mesh *out) {
  if (rc != 0) {
    mg_free(&b->m);
    return -1;
  }
  b->m.r_in = 0;
  *out = b->m;
  return 0;
}

void ms_pieces_free(ms_pieces *s) {
  if (!s) {
    return;
  }
  for (int i = 0; i < s->n; i++) {
    mg_free(&s->p[i]);
  }
  free(s->p);
  s->p = NULL;
  s->n = 0;
}

static int pieces_alloc(ms_pieces *s, int n) {
  s->p = calloc((size_t)n, sizeof *s->p);
  s->n = s->p ? n : 0;
  return s->p ? 0 : -1;
}

/* ---- prisms ------------------------------------------------------------------------------ */

static double cross2(const double *o, const double *a, const double *b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/* 1 when p is inside or on the triangle a b c (counter-clockwise). */
static int in_tri(const double *p, const double *a, const double *b, const double *c) {
  return cross2(a, b, p) >= 0 && cross2(b, c, p) >= 0 && cross2(c, a, p) >= 0;
}

/* Ear clipping of the simple counter-clockwise polygon: tri gets n - 2 index triples.
 * Returns 0, or -1 when no ear is found (not simple, or clockwise). */
static int ear_clip(const double (*p)[2], int n, int *tri) {
  int idx[256], m = n, nt = 0;
  if (n > 256) {
    return -1;
  }
  for (int i = 0; i < n; i++) {
    idx[i] = i;
  }
  while (m > 3) {
    int found = 0;
    for (int i = 0; i < m && !found; i++) {
      int a = idx[(i + m - 1) % m], b = idx[i], c = idx[(i + 1) % m];
      if (cross2(p[a], p[b], p[c]) <= 0) {
        continue; /* reflex */
      }
      int clear = 1;
      for (int k = 0; k < m && clear; k++) {
        int v = idx[k];
        clear = v == a || v == b || v == c || !in_tri(p[v], p[a], p[b], p[c]);
      }
      if (clear) {
        tri[3 * nt] = a;
        tri[3 * nt + 1] = b;
        tri[3 * nt + 2] = c;
        nt++;
        memmove(idx + i, idx + i + 1, sizeof(int) * (size_t)(m - i - 1));
        m--;
        found = 1;
      }
    }
    if (!found) {
      return -1;
    }
  }
  tri[3 * nt] = idx[0];
  tri[3 * nt + 1] = idx[1];
  tri[3 * nt + 2] = idx[2];
  return 0;
}

int ms_extrude(const double (*poly)[2], int n, double z0, double z1, mg_mesh *out) {
  builder b = {0};
  int tri[3 * 256];
  int rc = n < 3 || ear_clip(poly, n, tri) != 0 ? -1 : 0;
  for (int i = 0; i < n && rc == 0; i++) { /* bottom i, top n + i */
    rc = b_vert(&b, poly[i][0], poly[i][1], z0) < 0 ? -1 : 0;
  }
  for (int i = 0; i < n && rc == 0; i++) {
    rc = b_vert(&b, poly[i][0], poly[i][1], z1) < 0 ? -1 : 0;
  }
  for (int i = 0; i < n && rc == 0; i++) {
    int j = (i + 1) % n;
    rc = b_quad(&b, i, j, n + j, n + i);
  }
  for (int k = 0; k < n - 2 && rc == 0; k++) {
    const int *t = tri + 3 * k;
    rc = b_tri(&b, n + t[0], n + t[1], n + t[2]) || b_tri(&b, t[0], t[2], t[1]) ? -1 : 0;
  }
  return b_finish(&b, rc, out);
}

/* The rectangle [x0, x1] x [y0, y1] as a prism. */
static int rect_prism(double x0, double x1, double y0, double y1, double z0, double z1,
                      mg_mesh *out) {
  const double r[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  return ms_extrude(r, 4, z0, z1, out);
}

int ms_u_channel(double w, double t, double f, double h, double z0, double z1, mg_mesh *out,
                 ms_pieces *pieces) {
  double x0 = -w / 2 - t, x1 = -w / 2, x2 = w / 2, x3 = w / 2 + t;
  const double u[8][2] = {{x0, 0}, {x3, 0}, {x3, h}, {x2, h}, {x2, f}, {x1, f}, {x1, h}, {x0, h}};
  if (ms_extrude(u, 8, z0, z1, out) != 0) {
    return -1;
  }
  if (pieces && (pieces_alloc(pieces, 3) != 0 || rect_prism(x0, x1, 0, h, z0, z1, &pieces->p[0]) ||
                 rect_prism(x1, x2, 0, f, z0, z1, &pieces->p[1]) ||
                 rect_prism(x2, x3, 0, h, z0, z1, &pieces->p[2]))) {
    ms_pieces_free(pieces);
    mg_free(out);
    return -1;
  }
  return 0;
}

int ms_l_channel(double a, double b, double t, double z0, double z1, mg_mesh *out,
                 ms_pieces *pieces) {
  const double l[6][2] = {{0, 0}, {a, 0}, {a, t}, {t, t}, {t, b}, {0, b}};
  if (ms_extrude(l, 6, z0, z1, out) != 0) {
    return -1;
  }
  if (pieces && (pieces_alloc(pieces, 2) != 0 || rect_prism(0, a, 0, t, z0, z1, &pieces->p[0]) ||
                 rect_prism(0, t, t, b, z0, z1, &pieces->p[1]))) {
    ms_pieces_free(pieces);
    mg_free(out);
    return -1;
  }
  return 0;
}

int ms_ngon_prism(int n, double r, double phase, double z0, double z1, mg_mesh *out) {
  double p[64][2];
  if (n < 3 || n > 64) {
    return -1;
  }
  for (int i = 0; i < n; i++) {
    double a = phase + 2 * M_PI * i / n;
    p[i][0] = r * cos(a);
    p[i][1] = r * sin(a);
  }
  return ms_extrude(p, n, z0, z1, out);
}

/* ---- the holed block -------------------------------------------------------------------- */

/* The piece of the holed block at hole edge i: its polygon (counter-clockwise) is hole
 * vertex i, where the ray through it meets the square, the square's corners between the
 * two rays, the second ray's point, hole vertex i + 1. Returns its vertex count. */
static int block_piece(double half, int n, const double (*hole)[2], const double (*hit)[2],
                       const double *ang, int i, double (*poly)[2]) {
  int j = (i + 1) % n, m = 0;
  memcpy(poly[m++], hole[i], sizeof poly[0]);
  memcpy(poly[m++], hit[i], sizeof poly[0]);
  double a0 = ang[i], a1 = j ? ang[j] : ang[j] + 2 * M_PI;
  for (int k = 0; k < 8; k++) { /* corners at 45 + 90 k degrees, two turns */
    double c = M_PI / 4 + M_PI / 2 * k;
    if (c > a0 && c < a1) {
      poly[m][0] = cos(c) > 0 ? half : -half;
      poly[m][1] = sin(c) > 0 ? half : -half;
      m++;
    }
  }
  memcpy(poly[m++], hit[j], sizeof poly[0]);
  memcpy(poly[m++], hole[j], sizeof poly[0]);
  return m;
}

/* Adds piece i's share of the block's surface: its caps (fans from the hole vertex) and
 * its walls but the two along the rays, which are inside the block. */
static int block_surface(builder *b, const double (*poly)[2], int m, double z0, double z1) {
  int lo[16], hi[16], rc = 0;
  for (int k = 0; k < m; k++) {
    lo[k] = b_vert(b, poly[k][0], poly[k][1], z0);
    hi[k] = b_vert(b, poly[k][0], poly[k][1], z1);
  }
  for (int k = 1; k + 1 < m && rc == 0; k++) {
    rc = b_tri(b, hi[0], hi[k], hi[k + 1]) || b_tri(b, lo[0], lo[k + 1], lo[k]) ? -1 : 0;
  }
  for (int k = 1; k + 2 < m && rc == 0; k++) { /* the square's walls */
    rc = b_quad(b, lo[k], lo[k + 1], hi[k + 1], hi[k]);
  }
  /* the hole's wall: the edge from the last vertex back to the first */
  return rc ? -1 : b_quad(b, lo[m - 1], lo[0], hi[0], hi[m - 1]);
}

int ms_holed_block(double half, int n, double r, double phase, double z0, double z1, mg_mesh *out,
                   ms_pieces *pieces) {
  double hole[32][2], hit[32][2], ang[32], poly[16][2];
  if (n < 3 || n > 32 || !(r < half)) {
    return -1;
  }
  for (int i = 0; i < n; i++) {
    ang[i] = phase + 2 * M_PI * i / n;
    ang[i] -= 2 * M_PI * floor(ang[i] / (2 * M_PI)); /* in [0, 2 pi) */
    hole[i][0] = r * cos(ang[i]);
    hole[i][1] = r * sin(ang[i]);
    double s = half / fmax(fabs(hole[i][0]), fabs(hole[i][1]));
    hit[i][0] = s * hole[i][0];
    hit[i][1] = s * hole[i][1];
  }
  /* the pieces go round from the smallest angle, so that each one's angles increase */
  int first = 0;
  for (int i = 1; i < n; i++) {
    first = ang[i] < ang[first] ? i : first;
  }
  double h2[32][2], t2[32][2], a2[32];
  for (int i = 0; i < n; i++) {
    int k = (first + i) % n;
    memcpy(h2[i], hole[k], sizeof h2[0]);
    memcpy(t2[i], hit[k], sizeof t2[0]);
    a2[i] = ang[k];
  }
  builder b = {0};
  b.weld = 1;
  int rc = pieces && pieces_alloc(pieces, n) != 0 ? -1 : 0;
  for (int i = 0; i < n && rc == 0; i++) {
    int m = block_piece(half, n, (const double(*)[2])h2, (const double(*)[2])t2, a2, i, poly);
    rc = block_surface(&b, (const double(*)[2])poly, m, z0, z1);
    if (rc == 0 && pieces) {
      rc = ms_extrude((const double(*)[2])poly, m, z0, z1, &pieces->p[i]);
    }
  }
  if (rc != 0) {
    ms_pieces_free(pieces);
  }
  return b_finish(&b, rc, out);
}

/* ---- the torus --------------------------------------------------------------------------- */

static void torus_point(double R, double r, int nu, int nv, int i, int j, double p[3]) {
  double u = 2 * M_PI * i / nu, w = 2 * M_PI * j / nv;
  p[0] = (R + r * cos(w)) * cos(u);
  p[1] = (R + r * cos(w)) * sin(u);
  p[2] = r * sin(w);
}

/* The segment between meridians i and i + 1: its trapezoids and two fanned end polygons
 * (the start one faces back along the turn, the end one forward). */
static int torus_segment(double R, double r, int nu, int nv, int i, mg_mesh *out) {
  builder b = {0};
  int rc = 0, base[2];
  for (int s = 0; s < 2 && rc == 0; s++) {
    base[s] = b.m.nv;
    for (int j = 0; j < nv && rc == 0; j++) {
      double p[3];
      torus_point(R, r, nu, nv, i + s, j, p);
      rc = b_vert(&b, p[0], p[1], p[2]) < 0 ? -1 : 0;
    }
  }
  for (int j = 0; j < nv && rc == 0; j++) {
    int j1 = (j + 1) % nv;
    rc = b_quad(&b, base[0] + j, base[1] + j, base[1] + j1, base[0] + j1);
  }
  for (int j = 1; j + 1 < nv && rc == 0; j++) {
    rc = b_tri(&b, base[0], base[0] + j, base[0] + j + 1) ||
                 b_tri(&b, base[1], base[1] + j + 1, base[1] + j)
             ? -1
             : 0;
  }
  return b_finish(&b, rc, out);
}

int ms_torus(double R, double r, int nu, int nv, mg_mesh *out, ms_pieces *pieces) {
  builder b = {0};
  int rc = nu < 3 || nv < 3 || !(r < R) ? -1 : 0;
  for (int i = 0; i < nu && rc == 0; i++) {
    for (int j = 0; j < nv && rc == 0; j++) {
      double p[3];
      torus_point(R, r, nu, nv, i, j, p);
      rc = b_vert(&b, p[0], p[1], p[2]) < 0 ? -1 : 0;
    }
  }
  for (int i = 0; i < nu && rc == 0; i++) {
    for (int j = 0; j < nv && rc == 0; j++) {
      int i1 = (i + 1) % nu, j1 = (j + 1) % nv;
      rc = b_quad(&b, i * nv + j, i1 * nv + j, i1 * nv + j1, i * nv + j1);
    }
  }
  rc = rc == 0 && pieces && pieces_alloc(pieces, nu) != 0 ? -1 : rc;
  for (int i = 0; i < nu && rc == 0 && pieces; i++) {
    rc = torus_segment(R, r, nu, nv, i, &pieces->p[i]);
  }
  if (rc != 0) {
    ms_pieces_free(pieces);
  }
  return b_finish(&b, rc, out);
}

/* ---- placing, copying, files ------------------------------------------------------------ */

void ms_transform(mg_mesh *g, const double p[3], const double q[4]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                 2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                 2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  for (int i = 0; i < g->nv; i++) {
    double *v = g->v + 3 * i, o[3];
    for (int k = 0; k < 3; k++) {
      o[k] = R[3 * k] * v[0] + R[3 * k + 1] * v[1] + R[3 * k + 2] * v[2] + p[k];
    }
    memcpy(v, o, sizeof o);
  }
}

int ms_copy(const mg_mesh *g, mg_mesh *out) {
  *out = *g;
  out->v = malloc(3 * sizeof(double) * (size_t)g->nv);
  out->t = malloc(3 * sizeof(int) * (size_t)g->nt);
  if (!out->v || !out->t) {
    mg_free(out);
    return -1;
  }
  memcpy(out->v, g->v, 3 * sizeof(double) * (size_t)g->nv);
  memcpy(out->t, g->t, 3 * sizeof(int) * (size_t)g->nt);
  return 0;
}

int ms_obj_write(FILE *f, const mg_mesh *g) {
  for (int i = 0; i < g->nv; i++) {
    const double *v = g->v + 3 * i;
    fprintf(f, "v %.17g %.17g %.17g\n", v[0], v[1], v[2]);
  }
  for (int i = 0; i < g->nt; i++) {
    const int *t = g->t + 3 * i;
    fprintf(f, "f %d %d %d\n", t[0] + 1, t[1] + 1, t[2] + 1);
  }
  return ferror(f) ? -1 : 0;
}

/* Reads one f record's indices (1-based or negative, "i/j/k" forms) into idx; returns the
 * count, or -1 when malformed or out of range. */
static int obj_face(char *s, int nv, int *idx, int max) {
  int n = 0;
  for (char *tok = strtok(s, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
    char *end;
    long k = strtol(tok, &end, 10);
    if (end == tok || (*end && *end != '/') || n == max) {
      return -1;
    }
    k = k < 0 ? nv + k : k - 1;
    if (k < 0 || k >= nv) {
      return -1;
    }
    idx[n++] = (int)k;
  }
  return n;
}

typedef struct keyed {
  double x[3];
  int i;
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  for (int k = 0; k < 3; k++) {
    if (a->x[k] != b->x[k]) {
      return a->x[k] < b->x[k] ? -1 : 1;
    }
  }
  return a->i - b->i;
}

/* Makes vertices with equal coordinates one (the first), dropping the others. 0, or -1. */
static int weld(mg_mesh *g) {
  keyed *k = malloc(sizeof *k * (size_t)(g->nv ? g->nv : 1));
  int *to = malloc(sizeof(int) * (size_t)(g->nv ? g->nv : 1));
  if (!k || !to) {
    free(k);
    free(to);
    return -1;
  }
  for (int i = 0; i < g->nv; i++) {
    memcpy(k[i].x, g->v + 3 * i, sizeof k[i].x);
    k[i].i = i;
  }
  qsort(k, (size_t)g->nv, sizeof *k, cmp_keyed);
  for (int i = 0; i < g->nv; i++) { /* each to its run's first (smallest) index */
    int same = i > 0 && memcmp(k[i].x, k[i - 1].x, sizeof k[i].x) == 0;
    to[k[i].i] = same ? to[k[i - 1].i] : k[i].i;
  }
  int n = 0; /* renumber the kept vertices in order */
  for (int i = 0; i < g->nv; i++) {
    if (to[i] == i) {
      memmove(g->v + 3 * n, g->v + 3 * i, 3 * sizeof(double));
      to[i] = n++;
    } else {
      to[i] = to[to[i]];
    }
  }
  for (int i = 0; i < 3 * g->nt; i++) {
    g->t[i] = to[g->t[i]];
  }
  g->nv = n;
  free(k);
  free(to);
  return 0;
}

int ms_obj_read(const char *path, double scale, mg_mesh *out, char *msg, size_t msg_len) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msg_len, "%s: %s", path, strerror(errno));
    return -1;
  }
  builder b = {0};
  char line[4096];
  snprintf(msg, msg_len, "%s: out of memory", path);
  int rc = 0, lineno = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == 'v' && (line[1] == ' ' || line[1] == '\t')) {
      double x, y, z;
      if (sscanf(line + 2, "%lf %lf %lf", &x, &y, &z) != 3) {
        snprintf(msg, msg_len, "%s:%d:1: expected three coordinates after 'v'", path, lineno);
        rc = -1;
      } else {
        rc = b_vert(&b, scale * x, scale * y, scale * z) < 0 ? -1 : 0;
      }
    } else if (line[0] == 'f' && (line[1] == ' ' || line[1] == '\t')) {
      int idx[256];
      int n = obj_face(line + 2, b.m.nv, idx, 256);
      if (n < 3) {
        snprintf(msg, msg_len, "%s:%d:3: expected three or more vertex indices in range", path,
                 lineno);
        rc = -1;
      }
      for (int k = 1; k + 1 < n && rc == 0; k++) {
        rc = b_tri(&b, idx[0], idx[k], idx[k + 1]);
      }
    }
  }
  if (rc == 0 && ferror(f)) {
    snprintf(msg, msg_len, "%s: read error", path);
    rc = -1;
  }
  fclose(f);
  if (rc == 0) {
    rc = weld(&b.m);
  }
  return b_finish(&b, rc, out);
}
