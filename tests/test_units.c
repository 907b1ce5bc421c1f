/* test_units.c: a model file's (units U) and the millimetre warning (vxc_solid_units_suspect).
 *
 * Every bundled model (the .vxm files of data/, data/step/ and tests/fuzz/models/) is rewritten in
 * millimetres by a converter that knows the grammar (README.md, Model files): each length
 * argument's decimal text gets its exponent raised by 3 (so 0.017 becomes 0.017e3, exactly
 * 17, with no rounding), a quadric's linear coefficients by 3 and its constant by 6, a mesh's
 * (scale S) by 3 (a mesh without one gets (scale 1e3)). With (units mm) the rewritten file
 * must give the original's volume, centroid, inertia and mass (to 1e-12 relative); without
 * it, read as metres, it is the model scaled by 1000, and the warning must fire on it and on
 * no original. */
#include "tests/vxc_test.h"

#include <ctype.h>
#include <dirent.h>

#include "lib/vxc.h"

/* ---- the millimetre rewriter ------------------------------------------------------- */

typedef struct out_buf {
  char *s;
  size_t n, cap;
} out_buf;

static void put(out_buf *o, const char *s, size_t n) {
  if (o->n + n + 1 > o->cap) {
    o->cap = 2 * (o->n + n + 1);
    o->s = realloc(o->s, o->cap);
    assert_non_null(o->s);
  }
  memcpy(o->s + o->n, s, n);
  o->n += n;
  o->s[o->n] = '\0';
}


static void puts_(out_buf *o, const char *s) {
  put(o, s, strlen(s));
}


/* The number `tok` (n bytes) times 10^k, written exactly: its exponent raised by k. */
static void put_scaled(out_buf *o, const char *tok, size_t n, int k) {
  char num[128], out[160];
  assert_true(n < sizeof num);
  memcpy(num, tok, n);
  num[n] = '\0';
  char *e = strpbrk(num, "eE");
  int exp = 0;
  if (e) {
    exp = atoi(e + 1);
    *e = '\0';
  }
  snprintf(out, sizeof out, "%se%d", num, exp + k);
  puts_(o, out);
}


/* The power of 10^3 argument `arg` (1-based) of form `head` is scaled by: 0 (not a length),
 * 1 (a length) or 2 (the quadric's constant). */
static int length_power(const char *head, int arg) {
  static const char *const all[] = {"translate", "box", "sphere", "ellipsoid",
                                    "cylinder",  "torus", "scale", NULL};
  for (int i = 0; all[i]; i++) {
    if (strcmp(head, all[i]) == 0) {
      return 1;
    }
  }
  if (strcmp(head, "slab") == 0) {
    return arg >= 2;
  }
  if (strcmp(head, "halfspace") == 0) {
    return arg == 4;
  }
  if (strcmp(head, "quadric") == 0) {
    return arg == 10 ? 2 : arg >= 7;
  }
  return 0;
}


typedef struct frame {
  char head[32];
  int arg;        /* arguments seen after the head */
  int has_scale;  /* a mesh: its (scale S) seen */
} frame;

/* Rewrites model text in millimetres; `units` adds (units mm) after the solid's name.
 * Relative mesh paths are joined with `dir`. Returns a malloc'd string. */
static char *to_millimetres(const char *text, const char *dir, int units) {
  out_buf o = {NULL, 0, 0};
  frame st[64];
  int depth = 0;
  const char *p = text;
  while (*p) {
    if (*p == ';') {
      while (*p && *p != '\n') {
        p++;
      }
    } else if (*p == '(') {
      assert_true(depth < 64);
      memset(&st[depth++], 0, sizeof st[0]);
      puts_(&o, "(");
      p++;
    } else if (*p == ')') {
      frame *f = &st[depth - 1];
      if (strcmp(f->head, "mesh") == 0 && !f->has_scale) {
        puts_(&o, " (scale 1e3)");
      }
      if (strcmp(f->head, "scale") == 0 && depth >= 2) {
        st[depth - 2].has_scale = 1;
      }
      depth--;
      puts_(&o, ")");
      p++;
    } else if (*p == '"') {
      const char *q = strchr(p + 1, '"');
      assert_non_null(q);
      puts_(&o, "\"");
      if (p[1] != '/') {
        puts_(&o, dir);
        puts_(&o, "/");
      }
      put(&o, p + 1, (size_t)(q - p));
      st[depth - 1].arg++;
      p = q + 1;
    } else if (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') {
      put(&o, p++, 1);
    } else {
      size_t n = strcspn(p, " \t\r\n();\"");
      frame *f = &st[depth - 1];
      if (f->head[0] == '\0') {
        assert_true(n < sizeof f->head);
        memcpy(f->head, p, n);
        put(&o, p, n);
      } else {
        f->arg++;
        int k = length_power(f->head, f->arg);
        if (k > 0 && (isdigit((unsigned char)p[0]) || p[0] == '-' || p[0] == '+' || p[0] == '.')) {
          put_scaled(&o, p, n, 3 * k);
        } else {
          put(&o, p, n);
        }
        if (units && depth == 1 && strcmp(f->head, "solid") == 0 && f->arg == 1) {
          puts_(&o, " (units mm)");
        }
      }
      p += n;
    }
  }
  return o.s;
}

/* ---- the checks -------------------------------------------------------------------- */

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  out_buf o = {NULL, 0, 0};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
    put(&o, buf, n);
  }
  fclose(f);
  return o.s;
}


static vxc_solid *parse(const char *text, const char *name) {
  vxc_solid *s = NULL;
  vxc_error err;
  vxc_status st = vxc_solid_parse(text, strlen(text), name, NULL, &s, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n%s\n", err.message, text);
  }
  assert_int_equal(st, VXC_OK);
  return s;
}


static void mass_of(const vxc_solid *s, vxc_mass_props *m) {
  vxc_query *q = NULL;
  assert_int_equal(vxc_query_create(NULL, &q, NULL), VXC_OK);
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = 1e-2;
  vxc_error err;
  assert_int_equal(vxc_solid_mass(q, s, -1, 0, &o, m, &err), VXC_OK);
  vxc_query_free(q);
}


/* Solid b has solid a's volume, mass, centroid and inertia, to 1e-12 relative. */
static void assert_same_mass(const vxc_solid *sa, const vxc_solid *sb) {
  vxc_mass_props ma, mb, *a = &ma, *b = &mb;
  mass_of(sa, a);
  mass_of(sb, b);
  double scale_i = fabs(a->inertia[0]) + fabs(a->inertia[4]) + fabs(a->inertia[8]);
  assert_double_rel(b->volume, a->volume, 1e-12);
  assert_double_rel(b->mass, a->mass, 1e-12);
  for (int i = 0; i < 3; i++) {
    assert_double_near(b->centroid[i], a->centroid[i], 1e-12 * (1 + fabs(a->centroid[i])));
  }
  for (int i = 0; i < 9; i++) {
    assert_double_near(b->inertia[i], a->inertia[i], 1e-12 * scale_i);
  }
}


/* One bundled model: no warning; in mm with (units mm) the same mass properties and no
 * warning; in mm read as metres (scaled by 1000) the warning. */
static void check_model(const char *dir, const char *file) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  vxc_solid *orig = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_load(path, NULL, &orig, &err), VXC_OK);
  char why[512];
  if (vxc_solid_units_suspect(orig, why, sizeof why)) {
    fail_msg("%s: warned: %s", path, why);
  }
  char *text = read_text(path);
  char *mm = to_millimetres(text, dir, 1), *raw = to_millimetres(text, dir, 0);
  vxc_solid *in_mm = parse(mm, path), *scaled = parse(raw, path);
  assert_false(vxc_solid_units_suspect(in_mm, NULL, 0));
  if (!vxc_solid_units_suspect(scaled, why, sizeof why)) {
    fail_msg("%s scaled by 1000: no warning", path);
  }
  assert_non_null(strstr(why, "(units mm)"));
  assert_same_mass(orig, in_mm);
  free(text);
  free(mm);
  free(raw);
  vxc_solid_free(orig);
  vxc_solid_free(in_mm);
  vxc_solid_free(scaled);
}


static int check_folder(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".vxm") == 0) {
      check_model(dir, e->d_name);
      n++;
    }
  }
  closedir(d);
  return n;
}


static void test_bundled_models_in_millimetres(void **state) {
  (void)state;
  char dir[4200];
  int n = check_folder(vxc_test_datadir());
  snprintf(dir, sizeof dir, "%s/step", vxc_test_datadir());
  n += check_folder(dir);
  const char *tests = getenv("VXC_TESTDIR");
  snprintf(dir, sizeof dir, "%s/fuzz/models", tests ? tests : ".");
  n += check_folder(dir);
  assert_true(n >= 30);
}


/* (units cm) and (units in) on each kind of length: a half-space's offset, a quadric's
 * linear and constant terms, a translation, a sphere's radius; the same solid in metres
 * (written by hand) gives the same mass properties. (units m) silences the warning. */
static void test_other_units(void **state) {
  (void)state;
  const char *in_cm =
      "(solid s (units cm) (cell a (quadric 1 1 1 0 0 0 -2 0 0 -8)) ; (x - 1)^2 + y^2 + z^2 <= 9\n"
      "  (cell b (sphere 2) (halfspace 0 0 2 2) (pose (translate 0 0 6))))";
  const char *in_m =
      "(solid s (cell a (quadric 1 1 1 0 0 0 -0.02 0 0 -0.0008))\n"
      "  (cell b (sphere 0.02) (halfspace 0 0 2 0.02) (pose (translate 0 0 0.06))))";
  const char *in_in = "(solid s (units in) (cell a (box 2 4 0.5) (pose (translate 1 0 0))))";
  const char *in_m2 = "(solid s (cell a (box 0.0508 0.1016 0.0127) (pose (translate 0.0254 0 0))))";
  const char *pairs[2][2] = {{in_cm, in_m}, {in_in, in_m2}};
  for (int k = 0; k < 2; k++) {
    vxc_solid *a = parse(pairs[k][0], "u.vxm"), *b = parse(pairs[k][1], "m.vxm");
    assert_same_mass(b, a);
    vxc_solid_free(a);
    vxc_solid_free(b);
  }
  const char *big = "(solid big (density 7850) (cell a (box 40 40 100)))";
  const char *said = "(solid big (units m) (density 7850) (cell a (box 40 40 100)))";
  const char *light = "(solid big (density 1) (cell a (box 40 1 1)))";
  vxc_solid *a = parse(big, "big.vxm"), *b = parse(said, "said.vxm"), *c = parse(light, "l.vxm");
  assert_true(vxc_solid_units_suspect(a, NULL, 0));
  assert_false(vxc_solid_units_suspect(b, NULL, 0));
  assert_false(vxc_solid_units_suspect(c, NULL, 0)); /* 40 kg at most: a light part */
  vxc_solid_free(a);
  vxc_solid_free(b);
  vxc_solid_free(c);
}


/* The reader's errors: an unknown unit (with a hint), units given twice, lengths beyond the
 * 10 km workspace once in metres. */
static void test_units_errors(void **state) {
  (void)state;
  const char *bad[][2] = {
      {"(solid s (units mn) (cell a (sphere 1)))", "1:17: unknown unit 'mn': expected m, cm, mm or in (did you mean 'mm'?)"},
      {"(solid s (units mm) (cell a (sphere 1)) (units mm))", "1:41: units are given twice"},
      {"(solid s (units mm mm) (cell a (sphere 1)))", "1:10: units takes 1 argument"},
      {"(solid s (units in) (cell a (sphere 500000)))", "R of sphere is 500000 in, larger than the 10000 m limit"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    vxc_solid *s = NULL;
    vxc_error err;
    assert_int_equal(vxc_solid_parse(bad[k][0], strlen(bad[k][0]), "u.vxm", NULL, &s, &err),
                     VXC_ERR_FORMAT);
    if (!strstr(err.message, bad[k][1])) {
      fail_msg("'%s': got '%s'", bad[k][0], err.message);
    }
  }
  /* 20,000 mm is 20 m: within the workspace */
  vxc_solid *s = parse("(solid s (units mm) (cell a (box 20000 10 10)))", "u.vxm");
  vxc_solid_free(s);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bundled_models_in_millimetres),
      cmocka_unit_test(test_other_units),
      cmocka_unit_test(test_units_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
