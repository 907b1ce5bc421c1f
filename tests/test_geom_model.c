/* test_geom_model.c: the model-file reader (geom/model.c on geom/sexp.c).
 *
 * Error cases assert the status, the exact line and column (counted by hand from the texts
 * below, 1-based, in bytes) and a key phrase of the message. Transform cases check where
 * points land against positions computed by hand. The data-folder cases load every .vxm
 * there, plain and gzip-compressed. Allocation-failure cases fail the Nth allocation for
 * N = 0, 1, 2... and count live blocks. */
#include <dirent.h>
#include <unistd.h>
#include <zlib.h>

#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/sexp.h"

#include "tests/counting_alloc.h"

#define NAME "t.vxm"

static vxg_solid *const SENTINEL = (vxg_solid *)(uintptr_t)0x5e5e;

/* Parses a NUL-terminated text. */
static vxc_status parse(const char *text, vxg_solid **s, vxc_error *err) {
  return vxg_model_parse(NULL, text, strlen(text), NAME, NULL, s, err);
}


/* Parses `text` (len bytes), which must fail with `st` at line:col with `phrase` in the
 * message, and leave the output untouched. */
static void expect_error_n(const char *text, size_t len, vxc_status st, int line, int col,
                           const char *phrase) {
  vxg_solid *s = SENTINEL;
  vxc_error err;
  memset(&err, 0, sizeof err);
  vxc_status got = vxg_model_parse(NULL, text, len, NAME, NULL, &s, &err);
  if (got != st || err.status != st || err.line != line || err.column != col ||
      !strstr(err.message, phrase)) {
    fail_msg(
        "input '%.80s': want status %d at %d:%d with '%s'; got status %d (err %d) at "
        "%d:%d: '%s'",
        text, st, line, col, phrase, got, err.status, err.line, err.column, err.message);
  }
  assert_ptr_equal(s, SENTINEL);
  assert_string_equal(err.file, NAME);
  char prefix[64];
  if (line > 0) {
    snprintf(prefix, sizeof prefix, NAME ":%d:%d: ", line, col);
  } else {
    snprintf(prefix, sizeof prefix, NAME ": ");
  }
  if (strncmp(err.message, prefix, strlen(prefix)) != 0) {
    fail_msg("message '%s' does not start with '%s'", err.message, prefix);
  }
}


static void expect_error(const char *text, vxc_status st, int line, int col, const char *phrase) {
  expect_error_n(text, strlen(text), st, line, col, phrase);
}


/* Parses a text that must load; returns the solid. */
static vxg_solid *must_parse(const char *text) {
  vxg_solid *s = NULL;
  vxc_error err;
  memset(&err, 0, sizeof err);
  vxc_status st = parse(text, &s, &err);
  if (st != VXC_OK) {
    fail_msg("'%.80s' failed: %s", text, err.message);
  }
  assert_non_null(s);
  return s;
}


/* Whether point p of the solid frame is in cell i (through its pose). */
static int solid_cell_contains(const vxg_solid *s, int i, double x, double y, double z) {
  const vxg_cell *c = s->cell[i];
  vxg_xform inv;
  vxg_xform_inverse(&inv, &c->pose);
  double p[3] = {x, y, z}, q[3];
  vxg_xform_point(&inv, p, q);
  return vxg_cell_contains(c, q);
}


static void assert_point_near(const double p[3], double x, double y, double z, double tol) {
  assert_double_near(p[0], x, tol);
  assert_double_near(p[1], y, tol);
  assert_double_near(p[2], z, tol);
}


/* A fresh temporary folder (removed by rm_tree). */
static void make_tmpdir(char *dir, size_t size) {
  const char *t = getenv("TMPDIR");
  snprintf(dir, size, "%s/vxc-model-XXXXXX", t && *t ? t : "/tmp");
  assert_non_null(mkdtemp(dir));
}


static void write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}


/* Writes `len` bytes gzip-compressed with zlib's gz* functions. */
static void write_gzip(const char *path, const void *data, size_t len) {
  gzFile g = gzopen(path, "wb9");
  assert_non_null(g);
  assert_int_equal(gzwrite(g, data, (unsigned)len), (int)len);
  assert_int_equal(gzclose(g), Z_OK);
}


/* Reads a whole file into a malloc'ed buffer. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  assert_non_null(buf);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      cap *= 2;
      buf = realloc(buf, cap);
      assert_non_null(buf);
    }
  }
  fclose(f);
  *len = n;
  return buf;
}


/* Asserts that two solids were read to the same data (bit for bit). */
static void assert_same_solid(const vxg_solid *a, const vxg_solid *b) {
  assert_string_equal(a->name, b->name);
  assert_memory_equal(&a->density, &b->density, sizeof a->density);
  assert_int_equal(a->ncell, b->ncell);
  for (int i = 0; i < a->ncell; i++) {
    const vxg_cell *ca = a->cell[i], *cb = b->cell[i];
    assert_string_equal(ca->name, cb->name);
    assert_int_equal(ca->line, cb->line);
    assert_int_equal(ca->column, cb->column);
    assert_memory_equal(&ca->pose, &cb->pose, sizeof ca->pose);
    assert_int_equal(ca->nprim, cb->nprim);
    assert_int_equal(ca->natom, cb->natom);
    for (int k = 0; k < ca->nprim; k++) {
      const vxg_prim *pa = &ca->prim[k], *pb = &cb->prim[k];
      assert_int_equal(pa->kind, pb->kind);
      assert_int_equal(pa->complement, pb->complement);
      assert_memory_equal(pa->param, pb->param, sizeof pa->param);
      assert_memory_equal(&pa->move, &pb->move, sizeof pa->move);
      assert_int_equal(pa->line, pb->line);
      assert_int_equal(pa->column, pb->column);
    }
    assert_memory_equal(ca->aabb, cb->aabb, sizeof ca->aabb);
  }
}


static void rm_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
      }
    }
    closedir(d);
  }
  rmdir(dir);
}


/* The grammar's own example: a block with a groove and a lid. */
static const char grooved[] =
    "; a block with a cylindrical groove along x, and a lid\n"
    "(solid grooved-block\n"
    "  (density 7800)\n"
    "  (cell body\n"
    "    (box 0.4 0.4 0.2)\n"
    "    (not (move (rotate y 90) (translate 0 0 0.1) (cylinder 0.12))))\n"
    "  (cell lid (box 0.4 0.4 0.02) (pose (translate 0 0 0.11))))\n";

/* ---------------------------------------------------------------------------------------
 * What loads. */

// the grammar's example: density, two cells, the groove where it should be
static void test_model_design_example_loads(void **state) {
  (void)state;
  vxg_solid *s = must_parse(grooved);
  assert_string_equal(s->name, "grooved-block");
  assert_double_near(s->density, 7800, 0);
  assert_int_equal(s->ncell, 2);
  const vxg_cell *body = s->cell[0], *lid = s->cell[1];
  assert_string_equal(body->name, "body");
  assert_int_equal(body->line, 4);
  assert_int_equal(body->column, 3);
  assert_int_equal(body->nprim, 2);
  assert_int_equal(body->prim[0].kind, VXG_BOX);
  assert_int_equal(body->prim[0].complement, 0);
  assert_int_equal(body->prim[0].line, 5);
  assert_int_equal(body->prim[0].column, 5);
  const vxg_prim *cyl = &body->prim[1];
  assert_int_equal(cyl->kind, VXG_CYLINDER);
  assert_int_equal(cyl->complement, 1);
  assert_double_near(cyl->param[0], 0.12, 0);
  /* rotate y 90 turns the z axis onto +x, then the axis is lifted to z = 0.1 */
  const double o[3] = {0, 0, 0}, ez[3] = {0, 0, 1};
  double p[3];
  vxg_xform_point(&cyl->move, o, p);
  assert_point_near(p, 0, 0, 0.1, 1e-15);
  vxg_xform_vector(&cyl->move, ez, p);
  assert_point_near(p, 1, 0, 0, 1e-15);
  /* the groove: |(y, z - 0.1)| < 0.12 is cut away from the box */
  assert_false(vxg_cell_contains(body, (double[3]){0, 0, 0.09}));
  assert_false(vxg_cell_contains(body, (double[3]){0.19, 0.1, 0.05}));
  assert_true(vxg_cell_contains(body, (double[3]){0, 0.15, 0.05}));
  assert_true(vxg_cell_contains(body, (double[3]){0.19, 0, -0.05}));
  assert_false(vxg_cell_contains(body, (double[3]){0.21, 0.15, -0.05}));
  /* the lid sits on top: its pose lifts it by 0.11 */
  assert_string_equal(lid->name, "lid");
  vxg_xform_point(&lid->pose, o, p);
  assert_point_near(p, 0, 0, 0.11, 0);
  assert_true(solid_cell_contains(s, 1, 0.1, 0.1, 0.115));
  assert_false(solid_cell_contains(s, 1, 0.1, 0.1, 0.095));
  vxg_solid_free(s);
}


// every primitive of the grammar reads, with its parameters in SI units
static void test_model_every_primitive_reads(void **state) {
  (void)state;
  vxg_solid *s = must_parse(
      "(solid every\n"
      "  (cell a (sphere 0.1) (halfspace 0 0 2 0.1))\n"
      "  (cell b (cylinder 0.02) (slab z 0 0.1))\n"
      "  (cell c (box 0.4 0.2 0.1))\n"
      "  (cell d (ellipsoid 0.3 0.2 0.1))\n"
      "  (cell e (cone 30) (slab z 0 0.1))\n"
      "  (cell f (torus 0.1 0.02))\n"
      "  (cell g (quadric 1 1 4 0 0 0 0 0 0 -0.01))\n"
      "  (cell h (box 0.2 0.2 0.1) (not (cylinder 0.03))))\n");
  assert_int_equal(s->ncell, 8);
  static const vxg_prim_kind kinds[8] = {VXG_SPHERE, VXG_CYLINDER, VXG_BOX,     VXG_ELLIPSOID,
                                         VXG_CONE,   VXG_TORUS,    VXG_QUADRIC, VXG_BOX};
  for (int i = 0; i < 8; i++) {
    assert_int_equal(s->cell[i]->prim[0].kind, kinds[i]);
    assert_int_equal(s->cell[i]->line, i + 2);
  }
  assert_int_equal(s->cell[0]->prim[1].kind, VXG_HALFSPACE);
  assert_int_equal(s->cell[1]->prim[1].kind, VXG_SLAB);
  assert_double_near(s->cell[1]->prim[1].param[0], 2, 0); /* z */
  assert_double_near(s->cell[1]->prim[1].param[2], 0.1, 0);
  assert_double_near(s->cell[2]->prim[0].param[1], 0.2, 0);
  assert_double_near(s->cell[3]->prim[0].param[2], 0.1, 0);
  assert_double_near(s->cell[5]->prim[0].param[1], 0.02, 0);
  assert_double_near(s->cell[6]->prim[0].param[9], -0.01, 0);
  assert_double_near(s->cell[6]->prim[0].param[2], 4, 0);
  assert_int_equal(s->cell[7]->prim[1].complement, 1);
  /* points by hand: a sphere cut at z = 0.05; an x^2 + y^2 + 4 z^2 <= 0.01 ellipsoid */
  assert_true(vxg_cell_contains(s->cell[0], (double[3]){0, 0, 0.04}));
  assert_false(vxg_cell_contains(s->cell[0], (double[3]){0, 0, 0.06}));
  assert_true(vxg_cell_contains(s->cell[6], (double[3]){0, 0, 0.049}));
  assert_false(vxg_cell_contains(s->cell[6], (double[3]){0, 0, 0.051}));
  assert_true(vxg_cell_contains(s->cell[5], (double[3]){0.11, 0, 0}));
  assert_false(vxg_cell_contains(s->cell[5], (double[3]){0, 0, 0}));
  assert_false(vxg_cell_contains(s->cell[7], (double[3]){0.02, 0, 0}));
  assert_true(vxg_cell_contains(s->cell[7], (double[3]){0.04, 0, 0}));
  vxg_solid_free(s);
}


// the cone's half-angle is read in degrees and stored in radians
static void test_model_cone_degrees_become_radians(void **state) {
  (void)state;
  vxg_solid *s = must_parse("(solid s (cell c (cone 30) (slab z 0 1)))");
  const vxg_prim *p = &s->cell[0]->prim[0];
  assert_double_near(p->param[0], M_PI / 6, 1e-15);
  /* at height 1 the radius is tan 30 = 0.57735 */
  assert_true(vxg_cell_contains(s->cell[0], (double[3]){0.57, 0, 0.999}));
  assert_false(vxg_cell_contains(s->cell[0], (double[3]){0.585, 0, 0.999}));
  vxg_solid_free(s);
}


// (rotate AXIS DEG) takes degrees: 30 degrees about z maps x to (cos 30, sin 30, 0)
static void test_model_rotate_takes_degrees(void **state) {
  (void)state;
  vxg_solid *s = must_parse("(solid s (cell c (sphere 1) (pose (rotate z 30))))");
  double p[3];
  vxg_xform_point(&s->cell[0]->pose, (double[3]){1, 0, 0}, p);
  assert_point_near(p, sqrt(3) / 2, 0.5, 0, 1e-15);
  vxg_solid_free(s);
  /* a negative angle about x: y goes to -z */
  s = must_parse("(solid s (cell c (sphere 1) (pose (rotate x -90))))");
  vxg_xform_point(&s->cell[0]->pose, (double[3]){0, 1, 0}, p);
  assert_point_near(p, 0, 0, -1, 1e-15);
  vxg_solid_free(s);
  /* 120 degrees about (1 1 1) permutes the axes: x -> y -> z */
  s = must_parse("(solid s (cell c (sphere 1) (pose (rotate 1 1 1 120))))");
  vxg_xform_point(&s->cell[0]->pose, (double[3]){1, 0, 0}, p);
  assert_point_near(p, 0, 1, 0, 1e-15);
  vxg_xform_point(&s->cell[0]->pose, (double[3]){0, 1, 0}, p);
  assert_point_near(p, 0, 0, 1, 1e-15);
  vxg_solid_free(s);
  /* an unnormalised quaternion is normalised: (2 0 0 2) is 90 degrees about z */
  s = must_parse("(solid s (cell c (sphere 1) (pose (quat 2 0 0 2))))");
  vxg_xform_point(&s->cell[0]->pose, (double[3]){1, 0, 0}, p);
  assert_point_near(p, 0, 1, 0, 1e-15);
  double det = 0;
  const double *r = s->cell[0]->pose.r;
  det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) +
        r[2] * (r[3] * r[7] - r[4] * r[6]);
  assert_double_near(det, 1, 1e-15);
  vxg_solid_free(s);
}


// transforms in one list apply in the order written: rotate, then translate
static void test_model_move_applies_in_written_order(void **state) {
  (void)state;
  /* a bar 0.4 long along x; turned onto y, then moved to x = 1 */
  vxg_solid *s =
      must_parse("(solid s (cell c (move (rotate z 90) (translate 1 0 0) (box 0.4 0.1 0.1))))");
  const vxg_cell *c = s->cell[0];
  double p[3];
  vxg_xform_point(&c->prim[0].move, (double[3]){0, 0, 0}, p);
  assert_point_near(p, 1, 0, 0, 1e-15);
  vxg_xform_point(&c->prim[0].move, (double[3]){0.2, 0, 0}, p);
  assert_point_near(p, 1, 0.2, 0, 1e-15);
  assert_true(vxg_cell_contains(c, (double[3]){1, 0.15, 0}));
  assert_false(vxg_cell_contains(c, (double[3]){1.15, 0, 0}));
  /* the other order would put the bar at (0, 1, 0) */
  assert_false(vxg_cell_contains(c, (double[3]){0, 1, 0}));
  vxg_solid_free(s);
  /* translate first, then rotate: the centre goes to (0, 1, 0), the bar along y */
  s = must_parse("(solid s (cell c (move (translate 1 0 0) (rotate z 90) (box 0.4 0.1 0.1))))");
  c = s->cell[0];
  assert_true(vxg_cell_contains(c, (double[3]){0, 1.15, 0}));
  assert_false(vxg_cell_contains(c, (double[3]){1, 0, 0}));
  assert_false(vxg_cell_contains(c, (double[3]){0.15, 1, 0}));
  vxg_solid_free(s);
}


// nested moves compose outward: the inner move applies first
static void test_model_nested_moves_compose_outward(void **state) {
  (void)state;
  vxg_solid *s = must_parse(
      "(solid s (cell c (move (translate 1 0 0)\n"
      "  (move (rotate z 90) (box 0.4 0.1 0.1)))))");
  double p[3];
  vxg_xform_point(&s->cell[0]->prim[0].move, (double[3]){0.2, 0, 0}, p);
  assert_point_near(p, 1, 0.2, 0, 1e-15);
  vxg_solid_free(s);
  s = must_parse(
      "(solid s (cell c (move (rotate z 90)\n"
      "  (move (translate 1 0 0) (box 0.4 0.1 0.1)))))");
  vxg_xform_point(&s->cell[0]->prim[0].move, (double[3]){0.2, 0, 0}, p);
  assert_point_near(p, 0, 1.2, 0, 1e-15);
  /* translated to (1, 0, 0), then turned with it: along y, centred at (0, 1, 0) */
  assert_true(vxg_cell_contains(s->cell[0], (double[3]){0, 1.15, 0}));
  assert_false(vxg_cell_contains(s->cell[0], (double[3]){0.15, 1, 0}));
  vxg_solid_free(s);
}


// not and move nest in either order; two nots cancel
static void test_model_not_and_move_nest_either_way(void **state) {
  (void)state;
  const char *texts[2] = {
      "(solid s (cell c (box 4 4 4) (not (move (translate 1 0 0) (sphere 0.5)))))",
      "(solid s (cell c (box 4 4 4) (move (translate 1 0 0) (not (sphere 0.5)))))"};
  for (int i = 0; i < 2; i++) {
    vxg_solid *s = must_parse(texts[i]);
    const vxg_cell *c = s->cell[0];
    assert_int_equal(c->prim[1].complement, 1);
    assert_false(vxg_cell_contains(c, (double[3]){1.2, 0, 0}));
    assert_true(vxg_cell_contains(c, (double[3]){-1, 0, 0}));
    assert_true(vxg_cell_contains(c, (double[3]){1.6, 0, 0}));
    vxg_solid_free(s);
  }
  vxg_solid *s = must_parse(
      "(solid s (cell c (not (move (translate 0 0 1) (not (move (rotate x 90) "
      "(sphere 0.5)))))))");
  assert_int_equal(s->cell[0]->prim[0].complement, 0);
  assert_true(vxg_cell_contains(s->cell[0], (double[3]){0, 0, 1.4}));
  assert_false(vxg_cell_contains(s->cell[0], (double[3]){0, 0, 0.4}));
  vxg_solid_free(s);
}


// a pose's transforms apply in the order written too
static void test_model_pose_applies_in_written_order(void **state) {
  (void)state;
  vxg_solid *s =
      must_parse("(solid s (cell c (box 0.4 0.1 0.1) (pose (rotate z 90) (translate 1 0 0))))");
  double p[3];
  vxg_xform_point(&s->cell[0]->pose, (double[3]){0, 0, 0}, p);
  assert_point_near(p, 1, 0, 0, 1e-15);
  vxg_xform_point(&s->cell[0]->pose, (double[3]){1, 0, 0}, p);
  assert_point_near(p, 1, 1, 0, 1e-15);
  assert_true(solid_cell_contains(s, 0, 1, 0.15, 0));
  assert_false(solid_cell_contains(s, 0, 1.15, 0, 0));
  vxg_solid_free(s);
}


// a half-space's normal is normalised and its offset divided by the normal's length
static void test_model_halfspace_is_normalised(void **state) {
  (void)state;
  vxg_solid *s = must_parse("(solid s (cell c (sphere 5) (halfspace 3 0 4 10)))");
  const vxg_prim *h = &s->cell[0]->prim[1];
  assert_int_equal(h->kind, VXG_HALFSPACE);
  assert_double_near(h->param[0], 0.6, 1e-15);
  assert_double_near(h->param[1], 0, 0);
  assert_double_near(h->param[2], 0.8, 1e-15);
  assert_double_near(h->param[3], 2, 1e-15);
  /* 0.8 z <= 2: z = 2.4 is in, z = 2.6 out */
  assert_true(vxg_cell_contains(s->cell[0], (double[3]){0, 0, 2.4}));
  assert_false(vxg_cell_contains(s->cell[0], (double[3]){0, 0, 2.6}));
  vxg_solid_free(s);
}


// comments, quoted names with escapes, and every number form of the grammar
static void test_model_syntax_comments_strings_numbers(void **state) {
  (void)state;
  vxg_solid *s = must_parse(
      "\xef\xbb\xbf; a byte-order mark, then a comment\r\n"
      "(solid \"my \\\"quoted\\\" \\\\ solid\" ; a comment ) (\n"
      "  (density +2.5E+3)\n"
      "  (cell \"with space\" (box 1. .5 5e-1))\n"
      "  (cell 2nd\t(sphere 0.25e-0)) (cell c3 (box 1 1 1) (pose (translate -.5 -1E-1 +0))))\n");
  assert_string_equal(s->name, "my \"quoted\" \\ solid");
  assert_double_near(s->density, 2500, 0);
  assert_int_equal(s->ncell, 3);
  assert_string_equal(s->cell[0]->name, "with space");
  assert_double_near(s->cell[0]->prim[0].param[0], 1, 0);
  assert_double_near(s->cell[0]->prim[0].param[1], 0.5, 0);
  assert_double_near(s->cell[0]->prim[0].param[2], 0.5, 0);
  assert_string_equal(s->cell[1]->name, "2nd");
  assert_int_equal(s->cell[1]->line, 5);
  assert_int_equal(s->cell[1]->column, 3);
  assert_int_equal(s->cell[1]->prim[0].column, 13); /* a tab is one column */
  assert_double_near(s->cell[1]->prim[0].param[0], 0.25, 0);
  assert_double_near(s->cell[2]->pose.t[0], -0.5, 0);
  assert_double_near(s->cell[2]->pose.t[1], -0.1, 0);
  vxg_solid_free(s);
}


// the S-expression layer: kinds, texts, values and positions of nodes
static void test_model_sexp_nodes_have_positions(void **state) {
  (void)state;
  const char *text = "(a \"b\nc\" -1.5e2)\n  (x (y)) ; z\n\tw";
  vxg_sexp_doc *doc = NULL;
  vxc_error err;
  assert_int_equal(vxg_sexp_parse(NULL, text, strlen(text), "s", &doc, &err), VXC_OK);
  const vxg_sexp *root = doc->root;
  assert_int_equal(root->nchild, 3);
  const vxg_sexp *l1 = root->child, *l2 = l1->next, *w = l2->next;
  assert_int_equal(l1->kind, VXG_SEXP_LIST);
  assert_int_equal(l1->nchild, 3);
  const vxg_sexp *a = l1->child, *b = a->next, *n = b->next;
  assert_int_equal(a->kind, VXG_SEXP_WORD);
  assert_string_equal(a->text, "a");
  assert_int_equal(b->kind, VXG_SEXP_STRING);
  assert_string_equal(b->text, "b\nc");
  assert_int_equal(b->line, 1);
  assert_int_equal(b->column, 4);
  assert_int_equal(n->kind, VXG_SEXP_NUMBER);
  assert_double_near(n->num, -150, 0);
  assert_string_equal(n->text, "-1.5e2");
  assert_int_equal(n->line, 2);
  assert_int_equal(n->column, 4);
  assert_int_equal(l2->line, 3);
  assert_int_equal(l2->column, 3);
  assert_int_equal(l2->child->next->kind, VXG_SEXP_LIST);
  assert_int_equal(l2->child->next->column, 6);
  assert_string_equal(l2->child->next->child->text, "y");
  assert_int_equal(w->kind, VXG_SEXP_WORD);
  assert_int_equal(w->line, 4);
  assert_int_equal(w->column, 2);
  assert_null(w->next);
  assert_int_equal(doc->end_line, 4);
  assert_int_equal(doc->end_column, 3);
  vxg_sexp_free(doc);
}

/* ---------------------------------------------------------------------------------------
 * Errors: status, line, column, and what the message says. */

// an unknown primitive is named, with the closest keyword suggested
static void test_model_unknown_primitive_suggests_keyword(void **state) {
  (void)state;
  expect_error("(solid s\n  (cell c (spere 0.1)))", VXC_ERR_FORMAT, 2, 12,
               "unknown primitive 'spere'");
  expect_error("(solid s\n  (cell c (spere 0.1)))", VXC_ERR_FORMAT, 2, 12, "did you mean 'sphere'");
  expect_error("(solid s (cell c (blob 1)))", VXC_ERR_FORMAT, 1, 19, "unknown primitive 'blob'");
  expect_error("(solid s (cell c (translate 1 0 0)))", VXC_ERR_FORMAT, 1, 19,
               "'translate' is a transform");
  expect_error("(solid s (cell c sphere))", VXC_ERR_FORMAT, 1, 18, "expected a shape");
  expect_error("(solid s (cell c ()))", VXC_ERR_FORMAT, 1, 18, "expected a shape");
}


// unknown forms in a solid and unknown transforms are named
static void test_model_unknown_form_is_named(void **state) {
  (void)state;
  expect_error("(solid s\n  (mass 2)\n  (cell c (sphere 0.1)))", VXC_ERR_FORMAT, 2, 4,
               "unknown form 'mass'");
  expect_error("(solid s (densty 2) (cell c (sphere 0.1)))", VXC_ERR_FORMAT, 1, 11,
               "did you mean 'density'");
  expect_error("(solid s (sphere 1))", VXC_ERR_FORMAT, 1, 11, "inside (cell NAME SHAPE...)");
  expect_error("(solid s\n  (cell c (move (rotat z 90) (sphere 0.1))))", VXC_ERR_FORMAT, 2, 18,
               "did you mean 'rotate'");
  expect_error("(solid s (cell c (move (sphere 1) (translate 1 0 0))))", VXC_ERR_FORMAT, 1, 25,
               "the shape comes last");
  expect_error("(solod s (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 2, "did you mean 'solid'");
  expect_error("42", VXC_ERR_FORMAT, 1, 1, "expected (solid NAME");
}


// a wrong number of arguments names the form and what it takes
static void test_model_wrong_argument_count(void **state) {
  (void)state;
  expect_error("(solid s\n  (cell c (box 0.1 0.2)))", VXC_ERR_FORMAT, 2, 11,
               "box takes 3 arguments (box LX LY LZ), got 2");
  expect_error("(solid s (cell c (sphere 0.1 0.2)))", VXC_ERR_FORMAT, 1, 18,
               "sphere takes 1 argument (sphere R), got 2");
  expect_error("(solid s (cell c (move (rotate z 1 2) (sphere 1))))", VXC_ERR_FORMAT, 1, 24,
               "rotate takes 2 arguments");
  expect_error("(solid s (cell c (not (sphere 1) (sphere 2))))", VXC_ERR_FORMAT, 1, 18,
               "not takes exactly one shape");
  expect_error("(solid s (cell c (move)))", VXC_ERR_FORMAT, 1, 18, "move needs a shape");
  expect_error("(solid s (density) (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 10,
               "density takes 1 argument");
  expect_error("(solid s (cell c (quadric 1 2 3)))", VXC_ERR_FORMAT, 1, 18,
               "quadric takes 10 arguments");
  expect_error("(solid)", VXC_ERR_FORMAT, 1, 1, "solid needs a name");
  expect_error("(solid s (cell))", VXC_ERR_FORMAT, 1, 10, "cell needs a name");
}


// a word or a string where a number is expected is named with the parameter
static void test_model_non_number_is_rejected(void **state) {
  (void)state;
  expect_error("(solid s\n  (cell c (sphere big)))", VXC_ERR_FORMAT, 2, 19,
               "expected a number for R of sphere, got 'big'");
  expect_error("(solid s (cell c (move (translate 1 \"2\" 3) (sphere 1))))", VXC_ERR_FORMAT, 1, 37,
               "expected a number for Y of translate");
  expect_error("(solid s (cell c (box 1 (2) 3)))", VXC_ERR_FORMAT, 1, 25,
               "expected a number for LY of box");
  expect_error("(solid s (cell c (sphere 1x)))", VXC_ERR_FORMAT, 1, 26, "got '1x'");
  expect_error("(solid s (cell c (slab w 0 1) (sphere 1)))", VXC_ERR_FORMAT, 1, 24,
               "expected an axis (x, y or z)");
  expect_error("(solid 12 (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 8, "expected a name");
}


// radii and lengths must be positive; so must the density
static void test_model_non_positive_length_is_rejected(void **state) {
  (void)state;
  expect_error("(solid s\n  (cell c (box 0.1 -0.2 0.3)))", VXC_ERR_FORMAT, 2, 20,
               "LY of box must be positive");
  expect_error("(solid s (cell c (sphere 0)))", VXC_ERR_FORMAT, 1, 26,
               "R of sphere must be positive");
  expect_error("(solid s (cell c (torus 0.1 -0)))", VXC_ERR_FORMAT, 1, 29,
               "R_MINOR of torus must be positive");
  expect_error("(solid s (cell c (cylinder -1) (slab z 0 1)))", VXC_ERR_FORMAT, 1, 28,
               "R of cylinder must be positive");
  expect_error("(solid s (density -1) (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 19,
               "RHO of density must be positive");
}


// other bad values: the cone angle, slab bounds, zero normals and rotations
static void test_model_bad_values_are_rejected(void **state) {
  (void)state;
  expect_error("(solid s (cell c (cone 90) (slab z 0 1)))", VXC_ERR_FORMAT, 1, 24,
               "between 0 and 90 degrees");
  expect_error("(solid s (cell c (sphere 1) (slab z 0.5 0.1)))", VXC_ERR_FORMAT, 1, 41, "LO < HI");
  expect_error("(solid s (cell c (sphere 1) (halfspace 0 0 0 1)))", VXC_ERR_FORMAT, 1, 29,
               "must not be zero");
  expect_error("(solid s (cell c (move (quat 0 0 0 0) (sphere 1))))", VXC_ERR_FORMAT, 1, 24,
               "must not be zero");
  expect_error("(solid s (cell c (move (rotate 0 0 0 45) (sphere 1))))", VXC_ERR_FORMAT, 1, 24,
               "must not be zero");
  /* found by vxg_prim_init, reported at the primitive */
  expect_error("(solid s (cell c (sphere 1) (quadric 0 0 0 0 0 0 0 0 0 0)))", VXC_ERR_FORMAT, 1, 29,
               "invalid quadric");
}


// NaN, infinities and overflowing numbers are refused where they are written
static void test_model_nan_and_infinite_numbers_are_rejected(void **state) {
  (void)state;
  expect_error("(solid s (cell c (sphere nan)))", VXC_ERR_FORMAT, 1, 26, "NaN");
  expect_error("(solid s (cell c (sphere -Inf)))", VXC_ERR_FORMAT, 1, 26,
               "NaN and infinite numbers are not allowed");
  expect_error("(solid s (cell c (sphere 1e999)))", VXC_ERR_FORMAT, 1, 26,
               "'1e999' is out of range");
  expect_error("(solid s\n  (cell c (move (translate 0 0 -1e400) (sphere 1))))", VXC_ERR_FORMAT, 2,
               32, "out of range");
  expect_error("(solid s (density 1e309) (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 19,
               "out of range");
}


// numbers beyond VXG_MAX_LENGTH where a length is meant are taken for a unit mistake
static void test_model_lengths_beyond_limit_are_rejected(void **state) {
  (void)state;
  expect_error("(solid s (cell c (sphere 2e4)))", VXC_ERR_FORMAT, 1, 26,
               "larger than the 10000 m limit");
  expect_error("(solid s (cell c (move (translate 0 20000 0) (sphere 1))))", VXC_ERR_FORMAT, 1, 37,
               "Y of translate is 20000 m");
  expect_error("(solid s (cell c (sphere 1) (halfspace 0 0 1e-3 100)))", VXC_ERR_FORMAT, 1, 49,
               "larger than the 10000 m limit");
  expect_error("(solid s (cell c (sphere 1) (slab x -10001 0)))", VXC_ERR_FORMAT, 1, 37,
               "LO of slab");
  /* a large number that is not a length is fine */
  vxg_solid *s =
      must_parse("(solid s (density 1e5) (cell c (quadric 1e6 1e6 1e6 0 0 0 0 0 0 -1)))");
  assert_double_near(s->density, 1e5, 0);
  vxg_solid_free(s);
}


// an unclosed list is reported where it opened; a stray ')' where it stands
static void test_model_unbalanced_parentheses(void **state) {
  (void)state;
  expect_error("(solid s\n  (cell c (sphere 0.1))\n", VXC_ERR_FORMAT, 1, 1, "not closed");
  expect_error("(solid s\n  (cell c (sphere 0.1))\n", VXC_ERR_FORMAT, 1, 1,
               "unbalanced parentheses");
  expect_error("(solid s\n  (cell c (sphere 0.1)\n", VXC_ERR_FORMAT, 2, 3, "not closed");
  expect_error("(solid s (cell c (sphere 0.1)))\n)", VXC_ERR_FORMAT, 2, 1, "unexpected ')'");
  expect_error("(solid s (cell c (sphere 0.1))))", VXC_ERR_FORMAT, 1, 32, "unexpected ')'");
}


// strings: unterminated, unknown escapes; binary bytes
static void test_model_bad_strings_and_bytes(void **state) {
  (void)state;
  expect_error("(solid \"abc\n(cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 8, "unterminated string");
  expect_error("(solid \"a\\nb\" (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 10,
               "unknown escape '\\n'");
  expect_error("(solid s\x01 (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 9, "control byte 0x01");
  const char nul[] = "(solid s (cell c (sphere 1))\0)";
  expect_error_n(nul, sizeof nul - 1, VXC_ERR_FORMAT, 1, 29, "control byte 0x00");
  expect_error("(solid \"\" (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 8, "must not be empty");
}


// an unbounded cell is a geometry error at the cell, naming it
static void test_model_unbounded_cell_is_rejected(void **state) {
  (void)state;
  expect_error("(solid s\n  (cell ok (sphere 1))\n  (cell tube (cylinder 0.1)))", VXC_ERR_GEOMETRY,
               3, 3, "cell 'tube'");
  expect_error("(solid s\n  (cell ok (sphere 1))\n  (cell tube (cylinder 0.1)))", VXC_ERR_GEOMETRY,
               3, 3, "unbounded");
  expect_error("(solid s (cell c (halfspace 0 0 1 0)))", VXC_ERR_GEOMETRY, 1, 10, "unbounded");
  expect_error("(solid s (cell c (pose (translate 1 0 0))))", VXC_ERR_GEOMETRY, 1, 10,
               "cell 'c' has no shapes");
}


// a cell whose primitives have no common point is a geometry error at the cell
static void test_model_empty_cell_is_rejected(void **state) {
  (void)state;
  const char *text = "(solid s\n  (cell apart (sphere 1) (move (translate 5 0 0) (sphere 1))))";
  expect_error(text, VXC_ERR_GEOMETRY, 2, 3, "cell 'apart'");
  expect_error(text, VXC_ERR_GEOMETRY, 2, 3, "empty");
}


// a solid without cells is a geometry error
static void test_model_empty_solid_is_rejected(void **state) {
  (void)state;
  expect_error("(solid s (density 5))", VXC_ERR_GEOMETRY, 1, 1, "solid 's' has no cells");
  expect_error("\n  (solid s)", VXC_ERR_GEOMETRY, 2, 3, "has no cells");
}


// a duplicate cell name points at the second cell and says where the first one is
static void test_model_duplicate_cell_name_points_at_second(void **state) {
  (void)state;
  const char *text = "(solid s\n  (cell a (sphere 1))\n  (cell a (sphere 2)))";
  expect_error(text, VXC_ERR_GEOMETRY, 3, 9, "duplicate cell name 'a'");
  expect_error(text, VXC_ERR_GEOMETRY, 3, 9, "line 2, column 3");
}


// anything after the solid is refused
static void test_model_trailing_content_is_rejected(void **state) {
  (void)state;
  expect_error("(solid s (cell c (sphere 1)))\n(solid t (cell c (sphere 1)))", VXC_ERR_FORMAT, 2, 1,
               "after the solid");
  expect_error("(solid s (cell c (sphere 1))) extra", VXC_ERR_FORMAT, 1, 31, "'extra'");
}


// forms in the wrong place or given twice
static void test_model_misplaced_forms(void **state) {
  (void)state;
  expect_error("(solid s (cell c (pose (translate 1 0 0)) (sphere 1)))", VXC_ERR_FORMAT, 1, 18,
               "must be the last item");
  expect_error("(solid s (density 1) (density 2) (cell c (sphere 1)))", VXC_ERR_FORMAT, 1, 22,
               "density is given twice");
  expect_error("(solid s (cell c (not (pose))))", VXC_ERR_FORMAT, 1, 24, "pose");
}


// an empty file, or one with only comments, is a format error at its end
static void test_model_empty_file_is_rejected(void **state) {
  (void)state;
  expect_error("", VXC_ERR_FORMAT, 1, 1, "empty model file");
  expect_error("; just a comment\n\n", VXC_ERR_FORMAT, 3, 1, "empty model file");
  expect_error("  ", VXC_ERR_FORMAT, 1, 3, "empty model file");
  /* and through the file reader */
  char dir[256], path[512];
  make_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/empty.vxm", dir);
  write_file(path, "", 0);
  vxg_solid *s = SENTINEL;
  vxc_error err;
  assert_int_equal(vxg_model_read(NULL, path, &s, &err), VXC_ERR_FORMAT);
  assert_ptr_equal(s, SENTINEL);
  assert_int_equal(err.line, 1);
  assert_int_equal(err.column, 1);
  assert_non_null(strstr(err.message, path));
  assert_non_null(strstr(err.message, "empty model file"));
  rm_tree(dir);
}


// a missing file is an I/O error naming the file; so is a folder
static void test_model_missing_file_is_io_error(void **state) {
  (void)state;
  vxg_solid *s = SENTINEL;
  vxc_error err;
  const char *path = "/nonexistent-vxc-dir/none.vxm";
  assert_int_equal(vxg_model_read(NULL, path, &s, &err), VXC_ERR_IO);
  assert_ptr_equal(s, SENTINEL);
  assert_int_equal(err.status, VXC_ERR_IO);
  assert_int_equal(err.line, 0);
  assert_string_equal(err.file, path);
  assert_non_null(strstr(err.message, path));
  assert_non_null(strstr(err.message, "cannot open"));
  char dir[256];
  make_tmpdir(dir, sizeof dir);
  assert_int_equal(vxg_model_read(NULL, dir, &s, &err), VXC_ERR_IO);
  assert_ptr_equal(s, SENTINEL);
  assert_non_null(strstr(err.message, "cannot read"));
  rm_tree(dir);
}


// the limits: nesting depth, token length, name length, primitives per cell
static void test_model_limits_are_reported(void **state) {
  (void)state;
  char text[8192];
  memset(text, '(', 80);
  text[80] = '\0';
  expect_error(text, VXC_ERR_LIMIT, 1, VXG_SEXP_MAX_DEPTH + 1, "nested more than 64");
  snprintf(text, sizeof text, "(solid ");
  memset(text + 7, 'a', 5000);
  text[5007] = '\0';
  expect_error(text, VXC_ERR_LIMIT, 1, 8, "longer than 4096");
  snprintf(text, sizeof text, "(solid \"");
  memset(text + 8, 'a', 5000);
  snprintf(text + 5008, 64, "\" (cell c (sphere 1)))");
  expect_error(text, VXC_ERR_LIMIT, 1, 8, "longer than 4096");
  snprintf(text, sizeof text, "(solid ");
  memset(text + 7, 'b', 200);
  snprintf(text + 207, 64, " (cell c (sphere 1)))");
  expect_error(text, VXC_ERR_LIMIT, 1, 8, "longer than 127");
  /* 33 primitives in one cell: the 33rd is refused (VXG_MAX_PRIMS = 32) */
  int n = snprintf(text, sizeof text, "(solid s (cell c");
  for (int i = 0; i < VXG_MAX_PRIMS + 1; i++) {
    n += snprintf(text + n, sizeof text - (size_t)n, " (sphere 1)");
  }
  snprintf(text + n, sizeof text - (size_t)n, "))");
  expect_error(text, VXC_ERR_LIMIT, 1, 18 + 11 * VXG_MAX_PRIMS, "in cell 'c'");
}


// a mesh names its file relative to the model's folder; loading errors are passed on
static void test_model_mesh_error_is_propagated(void **state) {
  (void)state;
  const char *text = "(solid s (cell c (mesh \"parts/nope.stl\" (scale 0.001))))";
  vxg_solid *s = SENTINEL;
  vxc_error err;
  vxc_status st = vxg_model_parse(NULL, text, strlen(text), NAME, "/nonexistent-vxc", &s, &err);
  assert_true(st == VXC_ERR_IO || st == VXC_ERR_FORMAT);
  assert_int_equal(err.status, st);
  assert_ptr_equal(s, SENTINEL);
  assert_non_null(strstr(err.message, "/nonexistent-vxc/parts/nope.stl"));
  if (err.line > 0 && strcmp(err.file, NAME) == 0) {
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 24);
  }
  expect_error("(solid s (cell c (mesh 12)))", VXC_ERR_FORMAT, 1, 24, "expected a file name");
  expect_error("(solid s (cell c (mesh \"m.stl\" (size 2))))", VXC_ERR_FORMAT, 1, 32,
               "expected (scale S)");
  expect_error("(solid s (cell c (mesh \"m.stl\" (scale 0))))", VXC_ERR_FORMAT, 1, 39,
               "S of scale must be positive");
}

// input larger than VXG_SEXP_MAX_INPUT is refused, and gzip data inflating more than 64
// times past 16 MiB (a gzip bomb) too
static void test_model_input_size_limit(void **state) {
  (void)state;
  size_t big = (size_t)VXG_SEXP_MAX_INPUT + 1;
  char *text = malloc(big);
  assert_non_null(text);
  memset(text, ' ', big);
  expect_error_n(text, big, VXC_ERR_LIMIT, 0, 0, "larger than 64 MiB");
  free(text);
  /* a gzip stream of 65 MiB of spaces (about 65 kB compressed) */
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), Z_OK);
  static char chunk[1 << 20];
  memset(chunk, ' ', sizeof chunk);
  size_t cap = 1 << 20;
  unsigned char *gz = malloc(cap);
  assert_non_null(gz);
  zs.next_out = gz;
  zs.avail_out = (uInt)cap;
  for (int i = 0; i < 65; i++) {
    zs.next_in = (Bytef *)chunk;
    zs.avail_in = sizeof chunk;
    assert_int_equal(deflate(&zs, i == 64 ? Z_FINISH : Z_NO_FLUSH), i == 64 ? Z_STREAM_END : Z_OK);
    assert_int_equal(zs.avail_in, 0);
  }
  size_t len = cap - zs.avail_out;
  deflateEnd(&zs);
  /* 1000 times its size: stopped by the ratio bound at 16 MiB, not at 64 MiB */
  expect_error_n((const char *)gz, len, VXC_ERR_LIMIT, 0, 0,
                 "decompressed data larger than 16 MiB");
  free(gz);
}

/* ---------------------------------------------------------------------------------------
 * Gzip. */

// a gzip-compressed model loads to exactly the same solid as the plain one
static void test_model_gzip_loads_like_plain(void **state) {
  (void)state;
  char dir[256], plain[512], packed[512];
  make_tmpdir(dir, sizeof dir);
  snprintf(plain, sizeof plain, "%s/block.vxm", dir);
  snprintf(packed, sizeof packed, "%s/block-packed.txt", dir); /* whatever the name */
  write_file(plain, grooved, strlen(grooved));
  write_gzip(packed, grooved, strlen(grooved));
  vxg_solid *a = NULL, *b = NULL;
  vxc_error err;
  assert_int_equal(vxg_model_read(NULL, plain, &a, &err), VXC_OK);
  assert_int_equal(vxg_model_read(NULL, packed, &b, &err), VXC_OK);
  assert_string_equal(a->path, plain);
  assert_string_equal(b->path, packed);
  assert_same_solid(a, b);
  vxg_solid_free(a);
  vxg_solid_free(b);
  /* errors in compressed text are positioned in the decompressed text */
  const char *typo = "(solid s\n  (cell c (spere 0.1)))";
  write_gzip(packed, typo, strlen(typo));
  b = SENTINEL;
  assert_int_equal(vxg_model_read(NULL, packed, &b, &err), VXC_ERR_FORMAT);
  assert_ptr_equal(b, SENTINEL);
  assert_int_equal(err.line, 2);
  assert_int_equal(err.column, 12);
  rm_tree(dir);
}


// corrupt, truncated or trailing gzip data is a format error naming the file
static void test_model_corrupt_gzip_is_rejected(void **state) {
  (void)state;
  char dir[256], path[512];
  make_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/g.gz", dir);
  write_gzip(path, grooved, strlen(grooved));
  size_t len;
  char *gz = slurp(path, &len);
  assert_true(len > 40);
  /* truncated: the last 20 bytes (part of the data and the trailer) missing */
  expect_error_n(gz, len - 20, VXC_ERR_FORMAT, 0, 0, "truncated gzip");
  expect_error_n(gz, 2, VXC_ERR_FORMAT, 0, 0, "truncated gzip");
  /* a flipped byte in the deflate data or the CRC */
  char *bad = malloc(len + 8);
  assert_non_null(bad);
  memcpy(bad, gz, len);
  bad[len - 6] ^= 0x55; /* in the CRC-32 */
  expect_error_n(bad, len, VXC_ERR_FORMAT, 0, 0, "corrupt gzip");
  memcpy(bad, gz, len);
  bad[3] = 0x40; /* reserved header flag */
  expect_error_n(bad, len, VXC_ERR_FORMAT, 0, 0, "corrupt gzip");
  /* garbage after the stream */
  memcpy(bad, gz, len);
  memcpy(bad + len, "garbage!", 8);
  expect_error_n(bad, len + 8, VXC_ERR_FORMAT, 0, 0, "after the end of the gzip stream");
  /* two members, as `cat a.gz b.gz` makes, are one text: here a duplicate solid */
  char *two = malloc(2 * len);
  assert_non_null(two);
  memcpy(two, gz, len);
  memcpy(two + len, gz, len);
  expect_error_n(two, 2 * len, VXC_ERR_FORMAT, 9, 1, "after the solid");
  free(two);
  free(bad);
  free(gz);
  rm_tree(dir);
}

/* ---------------------------------------------------------------------------------------
 * The bundled models. */

/* Calls fn on the path of every .vxm file of the data folder; returns how many. */
static int for_each_data_model(void (*fn)(const char *path)) {
  const char *dir = getenv("VXC_DATADIR");
  if (!dir) {
    dir = "../data";
  }
  DIR *d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".vxm") == 0) {
      fn(vxc_test_data(e->d_name));
      n++;
    }
  }
  closedir(d);
  return n;
}


static void check_data_model(const char *path) {
  vxg_solid *s = NULL;
  vxc_error err;
  vxc_status st = vxg_model_read(NULL, path, &s, &err);
  if (st != VXC_OK) {
    fail_msg("%s: %s", path, err.message);
  }
  assert_true(s->ncell > 0);
  assert_string_equal(s->path, path);
  for (int i = 0; i < s->ncell; i++) {
    assert_true(s->cell[i]->nprim > 0);
    assert_true(s->cell[i]->line > 0);
  }
  /* the same file gzip-compressed reads to the same solid (not for models with meshes:
   * their paths are relative to the model's folder, and the copy lives elsewhere) */
  for (int i = 0; i < s->ncell; i++) {
    for (int j = 0; j < s->cell[i]->nprim; j++) {
      if (s->cell[i]->prim[j].kind == VXG_MESH) {
        vxg_solid_free(s);
        return;
      }
    }
  }
  size_t len;
  char *text = slurp(path, &len);
  char dir[256], gz[512];
  make_tmpdir(dir, sizeof dir);
  snprintf(gz, sizeof gz, "%s/model.vxm.gz", dir);
  write_gzip(gz, text, len);
  vxg_solid *g = NULL;
  assert_int_equal(vxg_model_read(NULL, gz, &g, &err), VXC_OK);
  assert_same_solid(s, g);
  vxg_solid_free(g);
  free(text);
  rm_tree(dir);
  vxg_solid_free(s);
}


// every model of the data folder loads, plain and gzip-compressed alike
static void test_model_every_data_model_loads(void **state) {
  (void)state;
  assert_true(for_each_data_model(check_data_model) > 0);
}

/* ---------------------------------------------------------------------------------------
 * Allocation failures. */

/* Loads with the Nth allocation failing for N = 0, 1, 2... until it succeeds: every failure
 * must be VXC_ERR_NOMEM with a message, leave *out untouched and leak nothing. Either `path`
 * (the file reader) or `text` (the buffer parser). Returns the number of failing runs. */
static int fail_each_allocation(const char *path, const char *text, size_t len) {
  for (int n = 0; n < 100000; n++) {
    counter f = {0, 0, n}; /* grants allocations 0 .. n - 1 */
    vxc_allocator al = {counting_realloc, &f};
    vxg_solid *s = SENTINEL;
    vxc_error err;
    memset(&err, 0, sizeof err);
    vxc_status st = path ? vxg_model_read(&al, path, &s, &err)
                         : vxg_model_parse(&al, text, len, NAME, NULL, &s, &err);
    if (st == VXC_OK) {
      assert_true(s != SENTINEL && s != NULL);
      vxg_solid_free(s);
      assert_int_equal(f.live, 0);
      return n;
    }
    if (st != VXC_ERR_NOMEM) {
      fail_msg("%s: allocation %d failing gave status %d: %s", path ? path : "text", n, st,
               err.message);
    }
    assert_int_equal(err.status, VXC_ERR_NOMEM);
    assert_true(err.message[0] != '\0');
    assert_ptr_equal(s, SENTINEL);
    assert_int_equal(f.live, 0);
  }
  fail_msg("never succeeded");
  return -1;
}


static void fail_each_allocation_of_file(const char *path) {
  assert_true(fail_each_allocation(path, NULL, 0) > 0);
}


// every allocation failure gives VXC_ERR_NOMEM and leaks nothing, plain and gzip input
static void test_model_allocation_failures_are_clean(void **state) {
  (void)state;
  assert_true(fail_each_allocation(NULL, grooved, strlen(grooved)) > 0);
  char dir[256], path[512];
  make_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/g.vxm", dir);
  write_gzip(path, grooved, strlen(grooved));
  /* more failing runs than the plain text: zlib's allocations go through it too */
  assert_true(fail_each_allocation(path, NULL, 0) >
              fail_each_allocation(NULL, grooved, strlen(grooved)));
  rm_tree(dir);
  assert_true(for_each_data_model(fail_each_allocation_of_file) > 0);
}


// a NULL error record is allowed; NULL outputs are argument errors
static void test_model_null_arguments(void **state) {
  (void)state;
  vxg_solid *s = SENTINEL;
  assert_int_equal(parse("(solid s (cell c (spere 1)))", &s, NULL), VXC_ERR_FORMAT);
  assert_ptr_equal(s, SENTINEL);
  vxc_error err;
  assert_int_equal(vxg_model_parse(NULL, "x", 1, NAME, NULL, NULL, &err), VXC_ERR_ARG);
  assert_int_equal(vxg_model_parse(NULL, NULL, 5, NAME, NULL, &s, &err), VXC_ERR_ARG);
  assert_int_equal(vxg_model_read(NULL, NULL, &s, &err), VXC_ERR_ARG);
  assert_ptr_equal(s, SENTINEL);
  /* a NULL name is replaced in messages */
  assert_int_equal(vxg_model_parse(NULL, "", 0, NULL, NULL, &s, &err), VXC_ERR_FORMAT);
  assert_true(err.message[0] != '\0');
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_model_design_example_loads),
      cmocka_unit_test(test_model_every_primitive_reads),
      cmocka_unit_test(test_model_cone_degrees_become_radians),
      cmocka_unit_test(test_model_rotate_takes_degrees),
      cmocka_unit_test(test_model_move_applies_in_written_order),
      cmocka_unit_test(test_model_nested_moves_compose_outward),
      cmocka_unit_test(test_model_not_and_move_nest_either_way),
      cmocka_unit_test(test_model_pose_applies_in_written_order),
      cmocka_unit_test(test_model_halfspace_is_normalised),
      cmocka_unit_test(test_model_syntax_comments_strings_numbers),
      cmocka_unit_test(test_model_sexp_nodes_have_positions),
      cmocka_unit_test(test_model_unknown_primitive_suggests_keyword),
      cmocka_unit_test(test_model_unknown_form_is_named),
      cmocka_unit_test(test_model_wrong_argument_count),
      cmocka_unit_test(test_model_non_number_is_rejected),
      cmocka_unit_test(test_model_non_positive_length_is_rejected),
      cmocka_unit_test(test_model_bad_values_are_rejected),
      cmocka_unit_test(test_model_nan_and_infinite_numbers_are_rejected),
      cmocka_unit_test(test_model_lengths_beyond_limit_are_rejected),
      cmocka_unit_test(test_model_unbalanced_parentheses),
      cmocka_unit_test(test_model_bad_strings_and_bytes),
      cmocka_unit_test(test_model_unbounded_cell_is_rejected),
      cmocka_unit_test(test_model_empty_cell_is_rejected),
      cmocka_unit_test(test_model_empty_solid_is_rejected),
      cmocka_unit_test(test_model_duplicate_cell_name_points_at_second),
      cmocka_unit_test(test_model_trailing_content_is_rejected),
      cmocka_unit_test(test_model_misplaced_forms),
      cmocka_unit_test(test_model_empty_file_is_rejected),
      cmocka_unit_test(test_model_missing_file_is_io_error),
      cmocka_unit_test(test_model_limits_are_reported),
      cmocka_unit_test(test_model_mesh_error_is_propagated),
      cmocka_unit_test(test_model_input_size_limit),
      cmocka_unit_test(test_model_gzip_loads_like_plain),
      cmocka_unit_test(test_model_corrupt_gzip_is_rejected),
      cmocka_unit_test(test_model_every_data_model_loads),
      cmocka_unit_test(test_model_allocation_failures_are_clean),
      cmocka_unit_test(test_model_null_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
