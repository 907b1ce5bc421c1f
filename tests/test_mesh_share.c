/* test_mesh_share.c: a mesh file named by many cells of one model is read once and shared
 * (geom/model.c, vxg_mesh_share): the cells naming one file at one scale hold the same mesh,
 * another scale or another file gets its own, loading costs the allocations of one mesh
 * plus a fixed amount per cell, and freeing the solid frees every block once (the counting
 * allocator's live count returns to zero). */
#include "tests/vxc_test.h"

#include "tests/counting_alloc.h"
#include "geom/geom.h"

/* A model of n cells, each one mesh: the cube of data/meshes/peg.obj at scale s (cell 0
 * and every cell k with k % 3 == 0) or 2 s (the others), moved apart. */
static char *model(int n, double s) {
  size_t cap = 200 + 120 * (size_t)n, k = 0;
  char *t = malloc(cap);
  assert_non_null(t);
  k += (size_t)snprintf(t + k, cap - k, "(solid many\n");
  for (int i = 0; i < n; i++) {
    k += (size_t)snprintf(t + k, cap - k,
                          "  (cell c%d (mesh \"meshes/peg.obj\" (scale %g)) (pose (translate %d 0 "
                          "0)))\n",
                          i, i % 3 == 0 ? s : 2 * s, i);
  }
  snprintf(t + k, cap - k, ")\n");
  return t;
}


/* Loads a model of n cells with allocator al (counting into al->ud, which the solid borrows:
 * al must outlive it); returns the allocations made. */
static long load_calls(int n, vxg_solid **out, const vxc_allocator *al) {
  char *t = model(n, 0.001);
  counter *c = al->ud;
  vxc_error err;
  long before = c->calls;
  vxc_status st = vxg_model_parse(al, t, strlen(t), "many.vxm", getenv("VXC_DATADIR"), out, &err);
  if (st != VXC_OK) {
    print_message("# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  free(t);
  return c->calls - before;
}


static void test_shared(void **state) {
  (void)state;
  if (!getenv("VXC_DATADIR")) {
    skip();
  }
  counter c = {0, 0, -1};
  vxc_allocator al = {counting_realloc, &c};
  vxg_solid *s = NULL;
  load_calls(30, &s, &al);
  assert_int_equal(s->ncell, 30);
  const struct vxg_mesh *m0 = s->cell[0]->prim[0].mesh, *m1 = s->cell[1]->prim[0].mesh;
  assert_ptr_not_equal(m0, m1); /* two scales: two meshes */
  for (int i = 0; i < 30; i++) {
    assert_ptr_equal(s->cell[i]->prim[0].mesh, i % 3 == 0 ? m0 : m1);
  }
  vxg_solid_free(s);
  assert_int_equal(c.live, 0); /* each mesh freed once, by its last holder */
}


/* With sharing, loading n cells costs a + b n allocations (a: the two meshes, b: a cell), so
 * the cost per added cell is the same from 3 to 6 cells as from 30 to 60, and below that
 * of a mesh load (which it would include, every time, without sharing). */
static void test_cost_per_cell(void **state) {
  (void)state;
  if (!getenv("VXC_DATADIR")) {
    skip();
  }
  counter c = {0, 0, -1};
  vxc_allocator al = {counting_realloc, &c};
  long n[4] = {3, 6, 30, 60}, calls[4];
  for (int i = 0; i < 4; i++) {
    vxg_solid *s = NULL;
    calls[i] = load_calls((int)n[i], &s, &al);
    vxg_solid_free(s);
    assert_int_equal(c.live, 0);
  }
  double small = (double)(calls[1] - calls[0]) / 3, large = (double)(calls[3] - calls[2]) / 30;
  vxg_solid *one = NULL;
  counter c1 = {0, 0, -1};
  vxc_allocator al1 = {counting_realloc, &c1};
  long mesh_calls = load_calls(1, &one, &al1); /* a model of one cell: one mesh load */
  vxg_solid_free(one);
  print_message("# allocations per added cell: %.2f (3 to 6 cells), %.2f (30 to 60); one cell's "
                "model with its mesh: %ld\n", small, large, mesh_calls);
  assert_true(fabs(small - large) <= 1.0);
  assert_true(large < mesh_calls / 2.0);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shared),
      cmocka_unit_test(test_cost_per_cell),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
