/* test_geom_mesh.c: triangle meshes (geom/mesh.c, mesh_io.c, mesh_embree.c): every reader on
 * the bundled files and on soups written here, welding, the closed / manifold / orientation
 * errors with their counts and first offending triangle, the inside-out fix, dropped
 * degenerate triangles, malformed input (truncated, NaN, size mismatch, corrupt gzip), the
 * signed distance against exact spheres and boxes within the tessellation error, the
 * conservative box classification against point sampling, hulls and model files. Volumes,
 * areas and distances are compared with closed forms or with bounds computed in
 * tools/mesh_gen.h, never with the code's own output. */
#include <zlib.h>

#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/mesh.h"
#include "geom/vec3.h"
#include "tools/mesh_gen.h"

/* ---------------------------------------------------------------------------------------
 * Writers of soups (text into a malloc'ed buffer) */

typedef struct buf {
  char *p;
  size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (b->p && b->n + (size_t)k < b->cap) {
      b->n += (size_t)k;
      return;
    }
    b->cap = 2 * (b->cap + (size_t)k + 64);
    b->p = realloc(b->p, b->cap);
    assert_non_null(b->p);
  }
}


/* ASCII STL of a mesh; triangle `skip` is left out, `flip` is written reversed, `all`
 * reverses every triangle. Triangle i's facet starts on line 2 + 7 i (when none skipped). */
static buf stl_ascii(const mg_mesh *m, int skip, int flip, int all) {
  buf b = {0};
  put(&b, "solid test\n");
  for (int i = 0; i < m->nt; i++) {
    if (i == skip) {
      continue;
    }
    int r = (i == flip) != all;
    const int *t = m->t + 3 * i;
    int o[3] = {t[0], r ? t[2] : t[1], r ? t[1] : t[2]};
    put(&b, "facet normal 0 0 0\nouter loop\n");
    for (int k = 0; k < 3; k++) {
      const double *v = m->v + 3 * o[k];
      put(&b, "vertex %.17g %.17g %.17g\n", v[0], v[1], v[2]);
    }
    put(&b, "endloop\nendfacet\n");
  }
  put(&b, "endsolid test\n");
  return b;
}


static void le32(unsigned char *p, uint32_t u) {
  for (int i = 0; i < 4; i++) {
    p[i] = (unsigned char)(u >> (8 * i));
  }
}


/* Binary STL of a mesh (float32 vertices). */
static buf stl_binary(const mg_mesh *m) {
  buf b = {0};
  b.cap = b.n = 84 + 50 * (size_t)m->nt;
  b.p = calloc(1, b.cap);
  assert_non_null(b.p);
  memcpy(b.p, "binary test", 11);
  le32((unsigned char *)b.p + 80, (uint32_t)m->nt);
  for (int i = 0; i < m->nt; i++) {
    unsigned char *q = (unsigned char *)b.p + 84 + 50 * i + 12;
    for (int k = 0; k < 3; k++) {
      for (int a = 0; a < 3; a++) {
        float f = (float)m->v[3 * m->t[3 * i + k] + a];
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        le32(q + 12 * k + 4 * a, u);
      }
    }
  }
  return b;
}


static buf gzip_buf(const buf *in) {
  buf b = {0};
  b.cap = compressBound(in->n) + 64;
  b.p = malloc(b.cap);
  assert_non_null(b.p);
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  zs.next_in = (Bytef *)in->p;
  zs.avail_in = (uInt)in->n;
  zs.next_out = (Bytef *)b.p;
  zs.avail_out = (uInt)b.cap;
  assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
  b.n = b.cap - zs.avail_out;
  deflateEnd(&zs);
  return b;
}


static vxc_status parse(const buf *b, const char *name, struct vxg_mesh **m, vxc_error *err) {
  *m = NULL;
  memset(err, 0, sizeof *err);
  return vxg_mesh_parse(NULL, b->p, b->n, name, 1.0, m, err);
}


/* The mesh of the generated g, in metres (asserts that it builds). */
static struct vxg_mesh *mesh_of(const mg_mesh *g, const char *name) {
  struct vxg_mesh *m = NULL;
  vxc_error err;
  assert_int_equal(vxg_mesh_create(NULL, g->v, g->nv, g->t, g->nt, 1, name, &m, &err), VXC_OK);
  return m;
}


static vxg_mesh_info info_of(const struct vxg_mesh *m) {
  vxg_mesh_info in;
  vxg_mesh_get_info(m, &in);
  return in;
}


/* ---------------------------------------------------------------------------------------
 * Loading */

// every bundled mesh loads with the closed-form volume and area of what it tessellates
static void test_mesh_load_bundled_files(void **state) {
  (void)state;
  struct {
    const char *file;
    double scale;
    const char *format;
    int gzip, ntri, convex;
    double volume, area; /* exact for polyhedra; < 0: checked separately */
  } c[] = {
      {"meshes/box-mm.stl", 0.001, "binary STL", 0, 12, 1, 0.1 * 0.06 * 0.04,
       2 * (0.1 * 0.06 + 0.1 * 0.04 + 0.06 * 0.04)},
      {"meshes/peg.obj", 1, "OBJ", 0, 12, 1, 0.02 * 0.02 * 0.06, 2 * 0.02 * 0.02 + 4 * 0.02 * 0.06},
      {"meshes/hole-block.obj", 1, "OBJ", 0, 32, 0, (0.08 * 0.08 - 0.024 * 0.024) * 0.04,
       2 * (0.08 * 0.08 - 0.024 * 0.024) + 4 * 0.08 * 0.04 + 4 * 0.024 * 0.04},
      {"meshes/icosphere.stl", 1, "ASCII STL", 0, 320, 1, -1, -1},
      {"meshes/torus.ply", 1, "ASCII PLY", 0, 576, 0, -1, -1},
      {"meshes/torus-bin.ply", 1, "binary PLY", 0, 576, 0, -1, -1},
      {"meshes/torus.ply.gz", 1, "ASCII PLY", 1, 576, 0, -1, -1},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    struct vxg_mesh *m = NULL;
    vxc_error err;
    assert_int_equal(vxg_mesh_load(NULL, vxc_test_data(c[i].file), c[i].scale, &m, &err), VXC_OK);
    vxg_mesh_info in = info_of(m);
    assert_string_equal(in.format, c[i].format);
    assert_int_equal(in.gzip, c[i].gzip);
    assert_int_equal(in.ntri, c[i].ntri);
    assert_int_equal(in.convex, c[i].convex);
    assert_int_equal(in.ncomponent, 1);
    assert_int_equal(in.ndegenerate, 0);
    assert_int_equal(in.flipped, 0);
    if (c[i].volume > 0) {
      assert_double_rel(in.volume, c[i].volume, 1e-6);
      assert_double_rel(in.area, c[i].area, 1e-6);
    }
    if (strstr(c[i].file, "icosphere")) {
      /* inscribed in the ball of radius 0.05, containing the ball of its inradius */
      mg_mesh g;
      assert_int_equal(mg_icosphere(&g, 0.05, 2), 0);
      assert_true(in.volume < 4.0 / 3 * M_PI * pow(0.05, 3));
      assert_true(in.volume > 4.0 / 3 * M_PI * pow(g.r_in * (1 - 1e-7), 3));
      assert_int_equal(in.nvert, g.nv);
      mg_free(&g);
    }
    if (strstr(c[i].file, "torus")) {
      /* vertices on the torus R 0.04, r 0.015; the polyhedron is inscribed in it, and
       * holds the torus of minor radius r cos(pi / 12) cos(pi / 24)-ish: bound loosely */
      double vt = 2 * M_PI * M_PI * 0.04 * 0.015 * 0.015;
      assert_true(in.volume < vt && in.volume > 0.9 * vt);
      assert_double_near(in.aabb[5], 0.015, 1e-6);
      assert_double_near(in.aabb[3], 0.055, 1e-6);
    }
    vxg_mesh_free(m);
  }
}


// the text, binary and gzip forms of one soup give the same mesh; STL is welded
static void test_mesh_formats_agree_and_weld(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 0.1, 2), 0);
  buf a = stl_ascii(&g, -1, -1, 0), b = stl_binary(&g), z = gzip_buf(&a);
  struct vxg_mesh *ma, *mb, *mz;
  vxc_error err;
  assert_int_equal(parse(&a, "a.stl", &ma, &err), VXC_OK);
  assert_int_equal(parse(&b, "b.stl", &mb, &err), VXC_OK);
  assert_int_equal(parse(&z, "z.stl.gz", &mz, &err), VXC_OK);
  vxg_mesh_info ia = info_of(ma), ib = info_of(mb), iz = info_of(mz);
  assert_string_equal(ia.format, "ASCII STL");
  assert_string_equal(ib.format, "binary STL");
  assert_int_equal(iz.gzip, 1);
  assert_int_equal(ia.nvert, g.nv);
  assert_int_equal(ib.nvert, g.nv);
  assert_int_equal(ia.nwelded, 3 * g.nt - g.nv);
  assert_double_rel(ib.volume, ia.volume, 1e-6); /* float32 rounding */
  assert_double_near(iz.volume, ia.volume, 0);
  vxg_mesh_free(ma);
  vxg_mesh_free(mb);
  vxg_mesh_free(mz);
  free(a.p);
  free(b.p);
  free(z.p);
  mg_free(&g);
}


// a copy moved by far less than the weld tolerance welds; one moved by much more does not
static void test_mesh_weld_tolerance(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_box(&g, 1, 1, 1), 0);
  double size = sqrt(3.0);
  for (int pass = 0; pass < 2; pass++) {
    /* an unshared soup: every triangle its own vertices, the first corner of triangle 0
     * moved by 1e-8 or 1e-4 of the diagonal */
    double v[108];
    int t[36];
    for (int i = 0; i < 36; i++) {
      memcpy(v + 3 * i, g.v + 3 * g.t[i], 3 * sizeof(double));
      t[i] = i;
    }
    v[0] += (pass ? 1e-4 : 1e-8) * size;
    struct vxg_mesh *m = NULL;
    vxc_error err;
    vxc_status st = vxg_mesh_create(NULL, v, 36, t, 12, 1, "w", &m, &err);
    if (pass == 0) {
      assert_int_equal(st, VXC_OK);
      assert_int_equal(info_of(m).nvert, 8);
      assert_int_equal(info_of(m).nwelded, 28);
      vxg_mesh_free(m);
    } else {
      /* the moved corner's two edges, and their unmatched partners */
      assert_int_equal(st, VXC_ERR_GEOMETRY);
      assert_non_null(strstr(err.message, "4 boundary edges"));
      assert_null(m);
    }
  }
  mg_free(&g);
}


// OBJ polygons are fanned, negative indices count from the end, other statements ignored;
// PLY skips unknown properties and elements
static void test_mesh_obj_polygons_and_ply_properties(void **state) {
  (void)state;
  /* a hexagonal prism of circumradius 1, height 2: two hexagons and six quads */
  buf o = {0};
  put(&o, "# prism\nmtllib x.mtl\no prism\n");
  for (int z = 0; z < 2; z++) {
    for (int i = 0; i < 6; i++) {
      put(&o, "v %.17g %.17g %d 1.0\n", cos(M_PI * i / 3), sin(M_PI * i / 3), 2 * z);
    }
  }
  put(&o, "vt 0 0\nvn 0 0 1\ns off\nusemtl m\nf 6 5 4 3 2 1\nf 7/1/1 8/1/1 9 10 11 12\n");
  for (int i = 0; i < 6; i++) {
    int j = (i + 1) % 6;
    put(&o, "f %d %d %d %d\n", i + 1 - 13, j + 1 - 13, j + 7 - 13, i + 7 - 13);
  }
  struct vxg_mesh *m;
  vxc_error err;
  assert_int_equal(parse(&o, "prism.obj", &m, &err), VXC_OK);
  vxg_mesh_info in = info_of(m);
  assert_int_equal(in.ntri, 2 * 4 + 6 * 2);
  assert_double_rel(in.volume, 1.5 * sqrt(3.0) * 2, 1e-12);
  assert_int_equal(in.convex, 1);
  vxg_mesh_free(m);
  free(o.p);

  /* a tetrahedron as PLY with normals, colours, an extra element and a comment */
  buf p = {0};
  put(&p,
      "ply\nformat ascii 1.0\ncomment made by hand\nelement vertex 4\n"
      "property double x\nproperty float nx\nproperty double y\nproperty double z\n"
      "property uchar red\nelement face 4\nproperty uchar flags\n"
      "property list uchar int vertex_indices\nelement edge 1\nproperty int a\n"
      "property int b\nend_header\n"
      "0 9 0 0 255\n1 9 0 0 0\n0 9 1 0 0\n0 9 0 1 0\n"
      "7 3 0 2 1\n7 3 0 1 3\n7 3 0 3 2\n7 3 1 2 3\n0 1\n");
  assert_int_equal(parse(&p, "tet.ply", &m, &err), VXC_OK);
  in = info_of(m);
  assert_int_equal(in.ntri, 4);
  assert_double_rel(in.volume, 1.0 / 6, 1e-12);
  assert_double_rel(in.area, 1.5 + sqrt(3.0) / 2, 1e-12);
  vxg_mesh_free(m);
  free(p.p);
}


/* ---------------------------------------------------------------------------------------
 * Topology errors and fixes */

// a missing triangle: three boundary edges, the first neighbour named by its line
static void test_mesh_open_reports_boundary_edges(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 1, 1), 0);
  int skip = 17;
  /* the lowest triangle sharing an edge with the skipped one, and its line once skipped */
  int first = -1;
  for (int i = 0; i < g.nt && first < 0; i++) {
    int shared = 0;
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        shared += g.t[3 * i + a] == g.t[3 * skip + b];
      }
    }
    if (i != skip && shared == 2) {
      first = i;
    }
  }
  int line = 2 + 7 * (first > skip ? first - 1 : first);
  buf a = stl_ascii(&g, skip, -1, 0);
  struct vxg_mesh *m = (struct vxg_mesh *)&g; /* must stay untouched */
  vxc_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(vxg_mesh_parse(NULL, a.p, a.n, "open.stl", 1, &m, &err), VXC_ERR_GEOMETRY);
  assert_ptr_equal(m, (struct vxg_mesh *)&g);
  assert_int_equal(err.status, VXC_ERR_GEOMETRY);
  assert_int_equal(err.line, line);
  assert_non_null(strstr(err.message, "3 boundary edges"));
  assert_non_null(strstr(err.message, "0 non-manifold edges"));
  assert_non_null(strstr(err.message, "open.stl:"));
  free(a.p);
  mg_free(&g);
}


// a fin on an edge: one non-manifold edge and the fin's two free edges
static void test_mesh_non_manifold_edge(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_box(&g, 1, 1, 1), 0);
  double v[27];
  memcpy(v, g.v, sizeof(double) * 24);
  v[24] = 0, v[25] = 0, v[26] = 3; /* far above, on no face */
  int t[39];
  memcpy(t, g.t, sizeof(int) * 36);
  t[36] = g.t[0], t[37] = g.t[1], t[38] = 8; /* shares triangle 0's first edge */
  struct vxg_mesh *m = NULL;
  vxc_error err;
  assert_int_equal(vxg_mesh_create(NULL, v, 9, t, 13, 1, "fin", &m, &err), VXC_ERR_GEOMETRY);
  assert_non_null(strstr(err.message, "2 boundary edges"));
  assert_non_null(strstr(err.message, "1 non-manifold edge "));
  assert_non_null(strstr(err.message, "first offending triangle: triangle 0"));
  mg_free(&g);
}


// one reversed face is reported with its line; two cubes touching at a corner are not
// manifold
static void test_mesh_flipped_face_and_pinched_vertex(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 1, 1), 0);
  buf a = stl_ascii(&g, -1, 33, 0);
  struct vxg_mesh *m;
  vxc_error err;
  assert_int_equal(parse(&a, "flip.stl", &m, &err), VXC_ERR_GEOMETRY);
  assert_non_null(strstr(err.message, "1 face is flipped"));
  assert_int_equal(err.line, 2 + 7 * 33);
  free(a.p);
  mg_free(&g);

  mg_mesh b;
  assert_int_equal(mg_box(&b, 1, 1, 1), 0);
  double v[48];
  int t[72];
  for (int i = 0; i < 8; i++) {
    for (int k = 0; k < 3; k++) {
      v[3 * i + k] = b.v[3 * i + k];
      v[24 + 3 * i + k] = b.v[3 * i + k] + 1; /* corner 7 of the first is corner 0 here */
    }
  }
  for (int i = 0; i < 36; i++) {
    t[i] = b.t[i];
    t[36 + i] = b.t[i] == 0 ? 7 : b.t[i] + 8;
  }
  assert_int_equal(vxg_mesh_create(NULL, v, 16, t, 24, 1, "pinch", &m, &err), VXC_ERR_GEOMETRY);
  assert_non_null(strstr(err.message, "1 vertex is shared by separate fans"));
  mg_free(&b);
}


// an inside-out file is turned outward: positive volume, negative distance inside
static void test_mesh_inside_out_is_fixed(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_box(&g, 2, 1, 0.5), 0);
  buf a = stl_ascii(&g, -1, -1, 1);
  struct vxg_mesh *m;
  vxc_error err;
  assert_int_equal(parse(&a, "inv.stl", &m, &err), VXC_OK);
  vxg_mesh_info in = info_of(m);
  assert_int_equal(in.flipped, 1);
  assert_double_rel(in.volume, 1.0, 1e-12);
  const double c[3] = {0.1, 0.1, 0.1}, out[3] = {3, 0, 0};
  double gr[3];
  assert_double_near(vxg_mesh_distance(m, c, gr, NULL), -0.15, 1e-12);
  assert_double_near(gr[2], 1, 1e-12);
  assert_double_near(vxg_mesh_distance(m, out, gr, NULL), 2, 1e-12);
  vxg_mesh_free(m);
  free(a.p);
  mg_free(&g);
}


// degenerate triangles (a repeated vertex, zero area) are dropped and counted
static void test_mesh_degenerate_dropped_with_count(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_box(&g, 1, 1, 1), 0);
  int t[42];
  memcpy(t, g.t, sizeof(int) * 36);
  t[36] = 0, t[37] = 0, t[38] = 5;
  t[39] = 3, t[40] = 6, t[41] = 3;
  struct vxg_mesh *m = NULL;
  vxc_error err;
  assert_int_equal(vxg_mesh_create(NULL, g.v, 8, t, 14, 1, "deg", &m, &err), VXC_OK);
  assert_int_equal(info_of(m).ndegenerate, 2);
  assert_int_equal(info_of(m).ntri, 12);
  vxg_mesh_free(m);
  mg_free(&g);
}


/* ---------------------------------------------------------------------------------------
 * Malformed input: errors, never crashes */

static void expect_error(const char *text, size_t n, const char *name, vxc_status st, int line,
                         const char *what) {
  struct vxg_mesh *m = NULL;
  vxc_error err;
  memset(&err, 0, sizeof err);
  vxc_status got = vxg_mesh_parse(NULL, text, n, name, 1, &m, &err);
  if (got != st || !strstr(err.message, what) || (line >= 0 && err.line != line)) {
    fprintf(stderr, "# %s: status %d line %d message '%s'\n", name, got, err.line, err.message);
    fail();
  }
  assert_null(m);
  assert_int_equal(err.status, st);
}


// truncated and miscounted files of every format, NaN coordinates, a binary STL of the
// wrong size and corrupt or truncated gzip data are errors naming the position
static void test_mesh_malformed_files(void **state) {
  (void)state;
  const char *trunc = "solid t\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n";
  expect_error(trunc, strlen(trunc), "t.stl", VXC_ERR_FORMAT, 6, "unexpected end of file");
  const char *nan = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 nan 0\n";
  expect_error(nan, strlen(nan), "n.stl", VXC_ERR_FORMAT, 4, "not a finite number");
  const char *four =
      "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
      "vertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\nendsolid\n";
  expect_error(four, strlen(four), "f.stl", VXC_ERR_FORMAT, 7, "exactly three vertices");
  const char *obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n";
  expect_error(obj, strlen(obj), "o.obj", VXC_ERR_FORMAT, 4, "out of range");
  const char *objn = "v 0 0 0\nv 1 0 inf\n";
  expect_error(objn, strlen(objn), "o.obj", VXC_ERR_FORMAT, 2, "not a finite number");
  const char *ply =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face 1\nproperty list uchar int vertex_indices\n"
      "end_header\n0 0 0\n1 0 0\n";
  expect_error(ply, strlen(ply), "p.ply", VXC_ERR_FORMAT, -1, "unexpected end of file");
  const char *big = "ply\nformat binary_big_endian 1.0\nend_header\n";
  expect_error(big, strlen(big), "b.ply", VXC_ERR_FORMAT, 2, "unsupported PLY format");
  expect_error("", 0, "e.obj", VXC_ERR_GEOMETRY, -1, "no triangles");

  /* binary: one byte short, one too many, a NaN in triangle 3 */
  mg_mesh g;
  assert_int_equal(mg_box(&g, 1, 1, 1), 0);
  buf b = stl_binary(&g);
  expect_error(b.p, b.n - 1, "b.stl", VXC_ERR_FORMAT, 0, "size mismatch");
  char *b2 = malloc(b.n + 1);
  memcpy(b2, b.p, b.n);
  b2[b.n] = 0;
  expect_error(b2, b.n + 1, "b.stl", VXC_ERR_FORMAT, 0, "684 bytes), the file has 685");
  free(b2);
  const float fnan = NAN;
  memcpy(b.p + 84 + 50 * 3 + 12 + 4, &fnan, 4);
  expect_error(b.p, b.n, "b.stl", VXC_ERR_FORMAT, 0, "triangle 3 (byte offset 234)");

  /* gzip: truncated, and a corrupted byte in the middle */
  mg_mesh s;
  assert_int_equal(mg_icosphere(&s, 1, 2), 0);
  buf a = stl_ascii(&s, -1, -1, 0), z = gzip_buf(&a);
  expect_error(z.p, z.n / 2, "z.stl.gz", VXC_ERR_FORMAT, 0, "truncated gzip data");
  z.p[z.n / 2] ^= 0x55;
  z.p[z.n / 2 + 1] ^= 0x55;
  expect_error(z.p, z.n, "z.stl.gz", VXC_ERR_FORMAT, 0, "gzip data");
  free(a.p);
  free(z.p);
  free(b.p);
  mg_free(&g);
  mg_free(&s);
}


// a shell that encloses no volume is refused, naming its first triangle: one triangle
// written twice facing both ways (closed, manifold and consistently oriented, volume 0 to
// rounding), alone or beside a good box; a box a thousandth as thick as it is wide (well
// above the welding distance of 1e-6 of the size) is kept, its volume exact
static void test_mesh_shell_without_volume_refused(void **state) {
  (void)state;
  const char *twice =
      "v -0.026 0.004 -0.013\nv 0.01 0.013 -0.043\nv -0.049 0.034 -0.024\n"
      "f 1 2 3\nf 3 2 1\n";
  expect_error(twice, strlen(twice), "twice.obj", VXC_ERR_GEOMETRY, 4, "encloses no volume");
  mg_mesh g;
  assert_int_equal(mg_box(&g, 1, 1, 1), 0);
  double v[33];
  int t[42];
  memcpy(v, g.v, sizeof(double) * 24);
  memcpy(t, g.t, sizeof(int) * 36);
  const double far[9] = {3, 0, 0, 4, 0, 0, 3, 1, 0};
  memcpy(v + 24, far, sizeof far);
  const int both[6] = {8, 9, 10, 10, 9, 8};
  memcpy(t + 36, both, sizeof both);
  struct vxg_mesh *m = NULL;
  vxc_error err;
  assert_int_equal(vxg_mesh_create(NULL, v, 11, t, 14, 1, "box+sheet", &m, &err), VXC_ERR_GEOMETRY);
  assert_null(m);
  assert_non_null(strstr(err.message, "encloses no volume"));
  mg_free(&g);
  assert_int_equal(mg_box(&g, 1, 1, 1e-3), 0);
  assert_int_equal(vxg_mesh_create(NULL, g.v, 8, g.t, 12, 1, "plate", &m, &err), VXC_OK);
  assert_double_rel(info_of(m).volume, 1e-3, 1e-12);
  vxg_mesh_free(m);
  mg_free(&g);
}


// a missing file is an I/O error; a model naming a broken mesh reports the mesh's position
static void test_mesh_model_files(void **state) {
  (void)state;
  struct vxg_mesh *m = NULL;
  vxc_error err;
  assert_int_equal(vxg_mesh_load(NULL, "/nonexistent/x.stl", 1, &m, &err), VXC_ERR_IO);
  assert_null(m);
  const char *names[] = {"mesh-icosphere.vxm", "mesh-box.vxm", "mesh-peg.vxm",
                         "mesh-hole-block.vxm", "mesh-torus.vxm"};
  for (int i = 0; i < 5; i++) {
    vxg_solid *s = NULL;
    assert_int_equal(vxg_model_read(NULL, vxc_test_data(names[i]), &s, &err), VXC_OK);
    vxg_solid_free(s);
  }
  /* the bundled box in millimetres: 1000 times too large without its scale, and its cell is
   * exactly its convex hull */
  const char *model = "(solid s (cell c (mesh \"meshes/box-mm.stl\" (scale 0.001))))";
  const char *dir = getenv("VXC_DATADIR");
  vxg_solid *s = NULL;
  assert_int_equal(
      vxg_model_parse(NULL, model, strlen(model), "m.vxm", dir ? dir : "../data", &s, &err),
      VXC_OK);
  const vxg_cell *c = s->cell[0];
  assert_int_equal(c->convex, 1);
  assert_int_equal(c->hull.kind, VXG_HULL_POINTS);
  assert_int_equal(c->hull.exact, 1);
  assert_double_near(c->aabb[3], 0.05, 1e-9);
  assert_double_near(c->aabb[1], -0.03, 1e-9);
  vxg_solid_free(s);
  const char *missing = "(solid s\n (cell c (mesh \"meshes/none.stl\")))";
  assert_int_equal(
      vxg_model_parse(NULL, missing, strlen(missing), "m.vxm", dir ? dir : "../data", &s, &err),
      VXC_ERR_IO);
  assert_int_equal(err.line, 2);
  assert_non_null(strstr(err.message, "none.stl"));
}


/* ---------------------------------------------------------------------------------------
 * Queries */

// the signed distance to an icosphere is that to its sphere within the shell R - r_in,
// with the gradient along the radius away from the surface
static void test_mesh_distance_icosphere_within_tessellation(void **state) {
  (void)state;
  const double R = 0.3;
  for (int level = 1; level <= 4; level++) {
    mg_mesh g;
    assert_int_equal(mg_icosphere(&g, R, level), 0);
    struct vxg_mesh *m = mesh_of(&g, "ico");
    double tess = R - g.r_in, worst = 0;
    vxc_rng rng = {0x1234567ull + (uint64_t)level};
    for (int i = 0; i < 2000; i++) {
      double p[3], gr[3];
      for (int k = 0; k < 3; k++) {
        p[k] = vxc_rng_uniform(&rng, -2 * R, 2 * R);
      }
      double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      double d = vxg_mesh_distance(m, p, gr, NULL), e = fabs(d - (r - R));
      worst = fmax(worst, e);
      assert_true(e <= tess * (1 + 1e-9) + 1e-15);
      assert_double_near(gr[0] * gr[0] + gr[1] * gr[1] + gr[2] * gr[2], 1, 1e-12);
      if (fabs(r - R) > 4 * tess) {
        /* far from the shell: the sign is the sphere's */
        assert_true((d < 0) == (r < R));
        double cosang = (gr[0] * p[0] + gr[1] * p[1] + gr[2] * p[2]) / r;
        assert_true(cosang > (r > R ? 1 - 2 * tess / (r - R) : -1));
      }
    }
    fprintf(stderr, "# icosphere level %d (%d triangles): worst |d - d_sphere| %.3g, bound %.3g\n",
            level, g.nt, worst, tess);
    vxg_mesh_free(m);
    mg_free(&g);
  }
}


// exact box signed distance
static double box_sdf(const double p[3], const double h[3]) {
  double q[3], out = 0, in = -HUGE_VAL;
  for (int k = 0; k < 3; k++) {
    q[k] = fabs(p[k]) - h[k];
    out += q[k] > 0 ? q[k] * q[k] : 0;
    in = fmax(in, q[k]);
  }
  return out > 0 ? sqrt(out) : in;
}


// a 12-triangle box has the box's exact signed distance, at edges and corners too
static void test_mesh_distance_box_exact(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_box(&g, 0.4, 0.2, 0.1), 0);
  struct vxg_mesh *m = mesh_of(&g, "box");
  const double h[3] = {0.2, 0.1, 0.05};
  vxc_rng rng = {99};
  for (int i = 0; i < 5000; i++) {
    double p[3];
    for (int k = 0; k < 3; k++) {
      p[k] = vxc_rng_uniform(&rng, -2 * h[k] - 0.05, 2 * h[k] + 0.05);
    }
    if (i % 5 == 0) {
      p[i % 3] = (i % 2 ? 1 : -1) * h[i % 3]; /* on a face's plane */
    }
    double d = vxg_mesh_distance(m, p, NULL, NULL);
    assert_double_near(d, box_sdf(p, h), 1e-14);
  }
  vxg_mesh_free(m);
  mg_free(&g);
}


// classification of random boxes is never contradicted by the signed distance's sign at
// points sampled in them (a non-convex torus, in a moved and turned cell)
static void test_mesh_classify_never_contradicts_points(void **state) {
  (void)state;
  const char *dir = getenv("VXC_DATADIR");
  const char *model =
      "(solid s (cell c (move (rotate 1 2 3 40) (translate 0.01 -0.02 0.005) "
      "(mesh \"meshes/torus.ply\")) (halfspace 0.3 0.2 1 0.004)))";
  vxg_solid *s = NULL;
  vxc_error err;
  assert_int_equal(
      vxg_model_parse(NULL, model, strlen(model), "t.vxm", dir ? dir : "../data", &s, &err),
      VXC_OK);
  vxg_xform to;
  const double axis[3] = {0, 1, 1};
  vxg_xform_axis_angle(&to, axis, 0.7);
  to.t[0] = 0.3;
  vxg_posed_cell pc;
  vxg_posed_cell_init(&pc, s->cell[0], &to);
  vxc_rng rng = {7};
  int decided = 0, contradictions = 0;
  for (int i = 0; i < 3000; i++) {
    double c[3], e[3];
    double sz = vxc_rng_uniform(&rng, 1e-4, 0.02);
    for (int k = 0; k < 3; k++) {
      c[k] = 0.5 * (pc.aabb[k] + pc.aabb[3 + k]) + vxc_rng_uniform(&rng, -0.07, 0.07);
      e[k] = sz * vxc_rng_uniform(&rng, 0.5, 1);
    }
    vxg_class k = vxg_posed_cell_classify(&pc, c, e);
    if (k == VXG_MIXED) {
      continue;
    }
    decided++;
    for (int j = 0; j < 30; j++) {
      double p[3];
      for (int a = 0; a < 3; a++) {
        p[a] = c[a] + (j < 8 ? ((j >> a) & 1 ? e[a] : -e[a]) : vxc_rng_uniform(&rng, -e[a], e[a]));
      }
      int in = vxg_posed_cell_contains(&pc, p);
      contradictions += in != (k == VXG_INSIDE);
    }
  }
  fprintf(stderr, "# %d of 3000 boxes decided, %d contradictions\n", decided, contradictions);
  assert_true(decided > 1000);
  assert_int_equal(contradictions, 0);
  vxg_solid_free(s);
}


// a search given a bound, right or wrong, finds the same distance as the unbounded one;
// classifying a ball with the distance agrees with the nearest-triangle and parity test
static void test_mesh_bounded_search_agrees(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 0.05, 3), 0);
  struct vxg_mesh *m = mesh_of(&g, "ico");
  vxc_rng rng = {11};
  int mixed = 0, decided = 0;
  for (int i = 0; i < 3000; i++) {
    double p[3], g0[3], g1[3];
    for (int k = 0; k < 3; k++) {
      p[k] = vxc_rng_uniform(&rng, -0.08, 0.08);
    }
    double d = vxg_mesh_distance(m, p, g0, NULL);
    /* a right bound, a tight one and a wrong one (a quarter of the distance) */
    const double bounds[3] = {fabs(d) + 0.01, fabs(d), 0.25 * fabs(d)};
    for (int b = 0; b < 3; b++) {
      double db = vxg_mesh_distance_bounded(m, p, bounds[b], g1, NULL);
      assert_double_near(db, d, 0);
      for (int k = 0; k < 3; k++) {
        assert_double_near(g1[k], g0[k], 0);
      }
    }
    double r = vxc_rng_uniform(&rng, 1e-4, 0.02), dist, upper, gr[3];
    int side = vxg_mesh_classify_ball(m, p, r);
    mixed += side == 0;
    decided += side != 0;
    for (int b = 0; b < 2; b++) {
      /* no bound, then the bound a parent box 2r away would give */
      double bound = b == 0 ? HUGE_VAL : fabs(d) + 2 * r;
      int s2 = vxg_mesh_classify_ball_dist(m, p, r, bound, &dist, gr, &upper);
      assert_int_equal(s2, side);
      assert_true(upper >= fabs(d));
      if (!isnan(dist)) {
        assert_double_near(dist, d, 0);
      }
    }
  }
  fprintf(stderr, "# bounded searches: %d balls undecided, %d decided\n", mixed, decided);
  assert_true(mixed > 100 && decided > 100);
  vxg_mesh_free(m);
  mg_free(&g);
}


// the planes near a point of a box mesh are its faces there (two triangles, one plane),
// and a moved convex mesh atom gives them in the cell's frame; a torus gives none
static void test_mesh_planes_near_a_point(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_box(&g, 0.4, 0.2, 0.1), 0);
  struct vxg_mesh *m = mesh_of(&g, "box");
  vxc_error err;
  double pl[4 * VXG_MESH_PLANES_MAX];
  const double corner[3] = {0.2, 0.1, 0.05}, face[3] = {0, 0, 0.05}, far[3] = {1, 1, 1};
  const double origin[3] = {0, 0, 0};
  assert_int_equal(vxg_mesh_planes(m, corner, 0.01, NULL, 32, pl), 3);
  double seen[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) {
    /* each an axis with the half-extent as offset */
    int a = fabs(pl[4 * i]) > 0.5 ? 0 : (fabs(pl[4 * i + 1]) > 0.5 ? 1 : 2);
    assert_double_near(pl[4 * i + a], 1, 1e-15);
    assert_double_near(pl[4 * i + 3], corner[a], 1e-15);
    seen[a] = 1;
  }
  assert_true(seen[0] && seen[1] && seen[2]);
  assert_int_equal(vxg_mesh_planes(m, face, 0.01, NULL, 32, pl), 1);
  assert_double_near(pl[2], 1, 1e-15);
  assert_double_near(pl[3], 0.05, 1e-15);
  assert_int_equal(vxg_mesh_planes(m, origin, 1, NULL, 32, pl), 6);
  assert_int_equal(vxg_mesh_planes(m, origin, 1, NULL, 5, pl), -1);
  assert_int_equal(vxg_mesh_planes(m, far, 0.01, NULL, 32, pl), -1);
  /* a box within the ball: only the faces that meet it; when none does, the ball's */
  const double near_top[3] = {0.195, 0.095, 0.05}, inner[3] = {0.19, 0.09, 0.04};
  double box[15] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.002, 0.002, 0.002, 0.002, 0.002, 0.002};
  assert_int_equal(vxg_mesh_planes(m, near_top, 0.01, NULL, 32, pl), 3);
  assert_int_equal(vxg_mesh_planes(m, near_top, 0.01, box, 32, pl), 1);
  assert_double_near(pl[2], 1, 1e-15);
  box[9] = 0.006; /* now reaching the face x = 0.2 too */
  assert_int_equal(vxg_mesh_planes(m, near_top, 0.01, box, 32, pl), 2);
  box[9] = 0.002;
  assert_int_equal(vxg_mesh_planes(m, inner, 0.02, box, 32, pl), 3);
  /* a box just beyond an edge meets both faces' slabs but neither face: the ball's */
  const double beyond[3] = {0.2025, 0.1025, 0};
  assert_int_equal(vxg_mesh_planes(m, beyond, 0.01, box, 32, pl), 2);
  box[9] = box[10] = 0.0015; /* nor their slabs: still the ball's */
  assert_int_equal(vxg_mesh_planes(m, beyond, 0.01, box, 32, pl), 2);
  /* the box as a moved primitive of a cell: its corner's planes in the cell's frame */
  vxg_solid *s = NULL;
  assert_int_equal(vxg_solid_create(NULL, "s", &s), VXC_OK);
  vxg_cell *c = NULL;
  assert_int_equal(vxg_solid_add_cell(s, "c", NULL, &c, &err), VXC_OK);
  vxg_xform mv, tr;
  const double axis[3] = {1, 2, 3};
  assert_int_equal(vxg_xform_axis_angle(&mv, axis, 0.7), 0);
  vxg_xform_translation(&tr, 0.03, -0.02, 0.01);
  vxg_xform_compose(&mv, &tr, &mv);
  vxg_prim p;
  const double one = 1;
  assert_int_equal(vxg_prim_init(&p, VXG_MESH, &one, 1, 0, &mv, &err), VXC_OK);
  p.mesh = m;
  assert_int_equal(vxg_cell_add_prim(c, &p, &err), VXC_OK);
  assert_int_equal(vxg_cell_finish(c, NULL, &err), VXC_OK);
  double cw[3], centre[3];
  const double he[3] = {0.005, 0.005, 0.005}; /* a cube about the corner meets its 3 faces */
  vxg_xform_point(&mv, corner, cw);
  vxg_xform_point(&mv, origin, centre);
  assert_int_equal(vxg_atom_planes(&c->atom[0], cw, he, 32, pl), 3);
  for (int i = 0; i < 3; i++) {
    const double *q = pl + 4 * i;
    assert_double_near(q[0] * q[0] + q[1] * q[1] + q[2] * q[2], 1, 1e-14);
    assert_double_near(q[0] * cw[0] + q[1] * cw[1] + q[2] * cw[2], q[3], 1e-15);
    assert_true(q[0] * centre[0] + q[1] * centre[1] + q[2] * centre[2] < q[3] - 0.04);
  }
  vxg_solid_free(s); /* frees the mesh with its cell */
  /* a torus is not convex: no planes */
  struct vxg_mesh *torus = NULL;
  char path[4096];
  snprintf(path, sizeof path, "%s", vxc_test_data("meshes/torus.ply"));
  assert_int_equal(vxg_mesh_load(NULL, path, 1, &torus, &err), VXC_OK);
  vxg_atom a;
  memset(&a, 0, sizeof a);
  a.kind = VXG_ATOM_MESH;
  a.mesh = torus;
  vxg_xform_identity(&a.to_local);
  const double on[3] = {0.055, 0, 0};
  assert_int_equal(vxg_atom_planes(&a, on, he, 32, pl), -1);
  vxg_mesh_free(torus);
  mg_free(&g);
}


// the support of a convex mesh's hull (hill climbing) is the farthest vertex, whether the
// climb starts from point 0 or from the best seed
static void test_mesh_hull_support_is_farthest_vertex(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 1, 3), 0);
  struct vxg_mesh *m = mesh_of(&g, "ico");
  vxg_hull h;
  memset(&h, 0, sizeof h);
  h.kind = VXG_HULL_POINTS;
  vxg_xform_identity(&h.frame);
  h.pts = vxg_mesh_vertices(m, &h.npts);
  vxg_mesh_adjacency(m, &h.adj_off, &h.adj);
  vxc_rng rng = {3};
  for (int i = 0; i < 1000; i++) {
    if (i == 500) {
      vxg_hull_seeds(&h);
    }
    double d[3] = {vxc_rng_uniform(&rng, -1, 1), vxc_rng_uniform(&rng, -1, 1),
                   vxc_rng_uniform(&rng, -1, 1)};
    double s[3], best = -HUGE_VAL;
    vxg_hull_support(&h, d, s);
    for (int k = 0; k < g.nv; k++) {
      best = fmax(best, d[0] * g.v[3 * k] + d[1] * g.v[3 * k + 1] + d[2] * g.v[3 * k + 2]);
    }
    assert_double_near(d[0] * s[0] + d[1] * s[1] + d[2] * s[2], best, 1e-12);
  }
  vxg_mesh_free(m);
  mg_free(&g);
}


/* 1 when the triangle of corners c is among the n triangles of tri (as vxg_mesh_triangles
 * gives them). */
static int holds_triangle(const double *tri, int n, const double *c) {
  for (int i = 0; i < n; i++) {
    if (!memcmp(tri + 9 * i, c, 9 * sizeof *c)) {
      return 1;
    }
  }
  return 0;
}


// with a cache, a gather reads a canonical ball that holds the asked one (at most 8 % wider),
// every triangle meeting the asked ball among its triangles and none beyond it; through a
// cache's slots it gives bitwise what it gives reading the ball each time, on a walk of small
// steps (hits) and jumps (misses); without a cache, the asked ball's own triangles
static void test_mesh_gather_canonical_ball_and_cache(void **state) {
  (void)state;
  mg_mesh g;
  assert_int_equal(mg_icosphere(&g, 0.3, 3), 0);
  struct vxg_mesh *m = mesh_of(&g, "ico");
  vxg_gather_cache cache = {calloc(64, sizeof(vxg_gather_slot)), 64, 0, 0, 0};
  assert_non_null(cache.slot);
  enum { MAX = VXG_MESH_TRIS_MAX };
  static double t0[9 * MAX], p0[4 * MAX], t1[9 * MAX], p1[4 * MAX], te[9 * MAX], pe[4 * MAX];
  int g0[MAX], f0[3 * MAX], h0[MAX], g1[MAX], f1[3 * MAX], h1[MAX], ge[MAX];
  vxc_rng rng = {0x5eed5eedull};
  double p[3] = {0.3, 0, 0}, r = 0.02;
  int checked = 0;
  for (int i = 0; i < 3000; i++) {
    if (i % 100 == 0) { /* a jump: a new point near the surface and a new radius */
      for (int k = 0; k < 3; k++) {
        p[k] = vxc_rng_uniform(&rng, -0.35, 0.35);
      }
      r = 0.3 * exp(vxc_rng_uniform(&rng, -6, -2));
    } else { /* a step of a micrometre or so, as a body moves between queries */
      for (int k = 0; k < 3; k++) {
        p[k] += vxc_rng_uniform(&rng, -2e-6, 2e-6);
      }
    }
    double cp[3], cr, d[3];
    long long key[4];
    assert_int_equal(vxg_gather_ball(p, r, cp, &cr, key), 0);
    for (int k = 0; k < 3; k++) {
      d[k] = p[k] - cp[k];
    }
    assert_true(sqrt(vxg_dot(d, d)) + r <= cr && cr <= 1.08 * r);
    double r0[2], r1[2];
    vxg_gather_cache none = {NULL, 0, 0, 0, 0}; /* the canonical ball read each time */
    int n0 = vxg_mesh_gather(m, p, r, MAX, &none, t0, p0, g0, f0, h0, r0);
    int n1 = vxg_mesh_gather(m, p, r, MAX, &cache, t1, p1, g1, f1, h1, r1);
    assert_int_equal(n0, n1);
    if (n0 < 0) {
      continue;
    }
    assert_memory_equal(t0, t1, 9 * (size_t)n0 * sizeof *t0);
    assert_memory_equal(p0, p1, 4 * (size_t)n0 * sizeof *p0);
    assert_memory_equal(g0, g1, (size_t)n0 * sizeof *g0);
    assert_memory_equal(f0, f1, 3 * (size_t)n0 * sizeof *f0);
    assert_memory_equal(h0, h1, (size_t)n0 * sizeof *h0);
    assert_memory_equal(r0, r1, sizeof r0);
    /* a convex mesh: no vertex beyond a plane of its triangles (to rounding), and some
       within one when it gives triangles of two planes */
    assert_true(n0 == 0 || r0[0] <= 1e-15);
    assert_true(n0 < 2 || h0[n0 - 1] == 0 || r0[1] > 0);
    /* the asked ball's own triangles are all there; every one is within the canonical ball */
    int ne = vxg_mesh_triangles(m, p, r, MAX, te, pe, ge, NULL);
    assert_true(ne >= 0 && ne <= n0);
    assert_int_equal(vxg_mesh_gather(m, p, r, MAX, NULL, t1, p1, g1, f1, h1, r1), ne);
    assert_memory_equal(t1, te, 9 * (size_t)ne * sizeof *te);
    for (int j = 0; j < ne; j++) {
      assert_true(holds_triangle(t0, n0, te + 9 * j));
    }
    for (int j = 0; j < n0; j++) {
      double c[3];
      int feat;
      double d2 = vxg_tri_closest(cp, t0 + 9 * j, t0 + 9 * j + 3, t0 + 9 * j + 6, c, &feat);
      assert_true(sqrt(d2) <= cr * (1 + 1e-9));
      assert_true(h0[j] <= j && g0[h0[j]] == g0[j]); /* the lowest of its group */
      for (int i = 0; i < h0[j]; i++) {
        assert_true(g0[i] != g0[j]);
      }
    }
    checked++;
  }
  fprintf(stderr, "# %d gathers checked: %lld cache hits, %lld misses\n", checked, cache.hits,
          cache.misses);
  assert_true(checked > 1000 && cache.hits > 1000 && cache.misses >= 30);
  free(cache.slot);
  vxg_mesh_free(m);
  mg_free(&g);
}


/* reach as shape_reach defines it, by brute force: every vertex of the n triangles against
 * the plane of every group's first triangle (h[j] == j). */
static void reach_brute(const double *tri, const double *pl, const int *h, int n, double out[2]) {
  out[0] = out[1] = -HUGE_VAL;
  for (int j = 0; j < n; j++) {
    for (int v = 0; v < 3 * n && h[j] == j; v++) {
      double s = vxg_dot(pl + 4 * j, tri + 3 * v) - pl[4 * j + 3];
      out[0] = fmax(out[0], s);
      out[1] = fmax(out[1], -s);
    }
  }
}


// a gather's reach is exact while either side is within VXG_REACH_CAP of the ball's radius
// (the shape may be convex or concave there) and both above it otherwise, never above the
// brute-force figures: on a sphere whose vertices are moved radially at random (general
// almost everywhere, convex or concave at a few balls) and on the convex sphere itself
static void test_mesh_gather_reach_exact_below_cap(void **state) {
  (void)state;
  enum { MAX = VXG_MESH_TRIS_MAX };
  static double t[9 * MAX], pl[4 * MAX];
  int g[MAX], f[3 * MAX], h[MAX], general = 0, shaped = 0;
  vxc_rng rng = {0xca9ca9ull};
  for (int bumpy = 0; bumpy < 2; bumpy++) {
    mg_mesh gm;
    assert_int_equal(mg_icosphere(&gm, 0.3, 3), 0);
    for (int v = 0; v < gm.nv && bumpy; v++) {
      double s = vxc_rng_uniform(&rng, 0.9, 1.1);
      for (int k = 0; k < 3; k++) {
        gm.v[3 * v + k] *= s;
      }
    }
    struct vxg_mesh *m = mesh_of(&gm, bumpy ? "bumpy" : "ico");
    for (int i = 0; i < 1500; i++) {
      double p[3], r = 0.3 * exp(vxc_rng_uniform(&rng, -5, -2)), reach[2], brute[2];
      for (int k = 0; k < 3; k++) {
        p[k] = vxc_rng_uniform(&rng, -1, 1);
      }
      double to_surface = 0.3 * vxc_rng_uniform(&rng, 0.85, 1.15) / sqrt(vxg_dot(p, p));
      for (int k = 0; k < 3; k++) {
        p[k] *= to_surface; /* within the bumps' reach of the sphere */
      }
      int n = vxg_mesh_gather(m, p, r, MAX, NULL, t, pl, g, f, h, reach);
      if (n <= 0) {
        continue;
      }
      reach_brute(t, pl, h, n, brute);
      double cap = VXG_REACH_CAP * r;
      if (brute[0] <= cap || brute[1] <= cap) {
        assert_true(reach[0] == brute[0] && reach[1] == brute[1]);
        shaped++;
      } else {
        assert_true(reach[0] > cap && reach[0] <= brute[0]);
        assert_true(reach[1] > cap && reach[1] <= brute[1]);
        general++;
      }
    }
    vxg_mesh_free(m);
    mg_free(&gm);
  }
  fprintf(stderr, "# %d gathers general beyond the cap, %d shaped within it\n", general, shaped);
  assert_true(general > 100 && shaped > 100);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mesh_load_bundled_files),
      cmocka_unit_test(test_mesh_formats_agree_and_weld),
      cmocka_unit_test(test_mesh_weld_tolerance),
      cmocka_unit_test(test_mesh_obj_polygons_and_ply_properties),
      cmocka_unit_test(test_mesh_open_reports_boundary_edges),
      cmocka_unit_test(test_mesh_non_manifold_edge),
      cmocka_unit_test(test_mesh_flipped_face_and_pinched_vertex),
      cmocka_unit_test(test_mesh_inside_out_is_fixed),
      cmocka_unit_test(test_mesh_degenerate_dropped_with_count),
      cmocka_unit_test(test_mesh_malformed_files),
      cmocka_unit_test(test_mesh_shell_without_volume_refused),
      cmocka_unit_test(test_mesh_model_files),
      cmocka_unit_test(test_mesh_distance_icosphere_within_tessellation),
      cmocka_unit_test(test_mesh_distance_box_exact),
      cmocka_unit_test(test_mesh_classify_never_contradicts_points),
      cmocka_unit_test(test_mesh_hull_support_is_farthest_vertex),
      cmocka_unit_test(test_mesh_bounded_search_agrees),
      cmocka_unit_test(test_mesh_planes_near_a_point),
      cmocka_unit_test(test_mesh_gather_canonical_ball_and_cache),
      cmocka_unit_test(test_mesh_gather_reach_exact_below_cap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
