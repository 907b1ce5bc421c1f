/* test_memory_bound.c: the memory bound (lib/memory.c, vxc_memory.h) through the public API:
 * every byte it counts comes back when the solids are freed (used returns to 0), a bound
 * below a model's peak refuses it with VXC_ERR_NOMEM and leaks nothing, and one bound
 * shared by two loads covers both (the second fails when the pair would pass it, though
 * either alone fits). */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

static const char *model(const char *name) {
  static char path[1024];
  const char *d = getenv("VXC_DATADIR");
  snprintf(path, sizeof path, "%s/%s", d ? d : "../data", name);
  return path;
}


/* The peak of loading `name` alone under a generous bound; the solid is freed and the
 * bound's count must return to zero. */
static size_t peak_alone(const char *name) {
  vxc_memory_bound *b = vxc_memory_bound_new((size_t)1 << 40, NULL);
  assert_non_null(b);
  vxc_solid *s = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_load(model(name), vxc_memory_bound_allocator(b), &s, &err), VXC_OK);
  assert_true(vxc_memory_bound_used(b) > 0);
  size_t peak = vxc_memory_bound_peak(b);
  assert_true(peak >= vxc_memory_bound_used(b));
  vxc_solid_free(s);
  assert_int_equal(vxc_memory_bound_used(b), 0);
  assert_int_equal(vxc_memory_bound_refused(b), 0);
  vxc_memory_bound_free(b);
  return peak;
}


static void test_counts_return(void **state) {
  (void)state;
  size_t p = peak_alone("mesh-torus.vxm");
  print_message("# mesh-torus.vxm: peak %zu bytes through the bound\n", p);
  assert_true(p > 576 * 3 * sizeof(int)); /* at least its 576 triangles' indices */
}


static void test_below_peak_refused(void **state) {
  (void)state;
  size_t p = peak_alone("mesh-torus.vxm");
  vxc_memory_bound *b = vxc_memory_bound_new(p / 2, NULL);
  vxc_solid *s = NULL;
  vxc_error err;
  assert_int_equal(vxc_solid_load(model("mesh-torus.vxm"), vxc_memory_bound_allocator(b), &s, &err),
                   VXC_ERR_NOMEM);
  assert_null(s);
  assert_true(vxc_memory_bound_refused(b) > 0);
  assert_int_equal(vxc_memory_bound_used(b), 0); /* nothing kept after the failure */
  vxc_memory_bound_free(b);
}


static void test_whole_run(void **state) {
  (void)state;
  size_t pa = peak_alone("mesh-torus.vxm"), pb = peak_alone("mesh-icosphere.vxm");
  size_t big = pa > pb ? pa : pb;
  /* each alone fits in big + 1 KiB; both kept at once need more than that */
  vxc_memory_bound *b = vxc_memory_bound_new(big + 1024, NULL);
  vxc_solid *a = NULL, *c = NULL;
  vxc_error err;
  const vxc_allocator *al = vxc_memory_bound_allocator(b);
  assert_int_equal(vxc_solid_load(model("mesh-torus.vxm"), al, &a, &err), VXC_OK);
  size_t kept = vxc_memory_bound_used(b);
  print_message("# torus: peak %zu, kept %zu; icosphere: peak %zu; bound %zu\n", pa, kept, pb,
                big + 1024);
  assert_true(kept + pb > big + 1024); /* the pair does not fit */
  assert_int_equal(vxc_solid_load(model("mesh-icosphere.vxm"), al, &c, &err), VXC_ERR_NOMEM);
  assert_int_equal(vxc_memory_bound_used(b), kept);
  vxc_solid_free(a);
  /* the first freed, the second fits */
  assert_int_equal(vxc_solid_load(model("mesh-icosphere.vxm"), al, &c, &err), VXC_OK);
  vxc_solid_free(c);
  assert_int_equal(vxc_memory_bound_used(b), 0);
  vxc_memory_bound_free(b);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_counts_return),
      cmocka_unit_test(test_below_peak_refused),
      cmocka_unit_test(test_whole_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
