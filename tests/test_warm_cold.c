/* test_warm_cold.c: a query on a vxc_query that has just measured a nearby pose (warm)
 * gives bit for bit what a query on a fresh vxc_query gives (cold) on the same pose: the
 * same V, centroid, J, normal, bracket, error estimate and work, whatever the workspace
 * kept from before. Seeded contacts of the validation corpus (tools/corpus.h) whose
 * every family (spheres, ellipsoids, finite cylinders, capped cones and boxes on a table,
 * two balls, an ellipsoid on a ball, a ball in a hole, a convex mesh on a table: quadric
 * cells and meshes), each stepped
 * through a sequence of poses (the first solid moved and turned by a twentieth of the
 * contact's depth a step), by the default rule and by the octree alone (closed forms
 * off); where the volume has a closed form at every pose (all families but the ellipsoids
 * and the ball in a hole), every result is also within the asked rtol of it. */
#include "tests/vxc_test.h"

#include "tools/corpus.h"
#include "lib/vxc.h"

#define SEED 31
#define NPOSE 4
#define PER_FAMILY 2
#define RTOL 1e-3

/* every family of the corpus; those whose closed form holds at any pose of the first solid
 * (a sphere, cylinder, cone, box or mesh on the table, two balls) are checked against it */
static int has_closed_form(int f) {
  return f == 0 || f == 2 || f == 3 || f == 4 || f == 5 || f == 8;
}

/* The next pose of the sequence: the first solid translated by depth / 20 and turned by
 * depth / (20 size) rad about its own origin, along seeded directions. */
static void step_pose(cx_case *c, uint64_t *s) {
  double d[3], ax[3], nd = 0, na = 0;
  for (int k = 0; k < 3; k++) {
    d[k] = cx_uni(s) - 0.5;
    ax[k] = cx_uni(s) - 0.5;
    nd += d[k] * d[k];
    na += ax[k] * ax[k];
  }
  vxc_pose *p = &c->s[0].pose;
  double step = c->depth / 20, ang = c->depth / (20 * c->size);
  for (int k = 0; k < 3; k++) {
    p->p[k] += step * d[k] / sqrt(nd);
  }
  double dq[4] = {cos(ang / 2), 0, 0, 0}, q[4];
  for (int k = 0; k < 3; k++) {
    dq[1 + k] = sin(ang / 2) * ax[k] / sqrt(na);
  }
  cx_qmul(dq, p->q, q);
  memcpy(p->q, q, sizeof q);
}

/* Fails unless the two results are the same bit for bit. */
static void assert_same(const vxc_metrics *w, const vxc_metrics *c) {
  assert_int_equal(w->npair, c->npair);
  assert_int_equal(w->contact, c->contact);
  assert_memory_equal(&w->volume, &c->volume, sizeof w->volume);
  assert_memory_equal(w->centroid, c->centroid, sizeof w->centroid);
  for (int i = 0; i < w->npair; i++) {
    const vxc_pair_metrics *a = &w->pair[i], *b = &c->pair[i];
    assert_int_equal(a->cell_a, b->cell_a);
    assert_int_equal(a->cell_b, b->cell_b);
    assert_memory_equal(&a->geom, &b->geom, sizeof a->geom); /* V, p_c, J, n */
    assert_memory_equal(&a->volume_lo, &b->volume_lo, sizeof a->volume_lo);
    assert_memory_equal(&a->volume_hi, &b->volume_hi, sizeof a->volume_hi);
    assert_memory_equal(&a->error_estimate, &b->error_estimate, sizeof a->error_estimate);
    assert_memory_equal(&a->penetration, &b->penetration, sizeof a->penetration);
    assert_memory_equal(&a->area, &b->area, sizeof a->area);
    assert_true(a->boxes == b->boxes && a->leaves == b->leaves && a->level == b->level);
    assert_int_equal(a->closed_form, b->closed_form);
    assert_int_equal(a->npatch, b->npatch);
  }
}

/* Fails unless the result's volume is within RTOL of V and its bracket holds V. */
static void assert_meets(const vxc_metrics *m, double V) {
  assert_double_rel(m->volume, V, RTOL);
  double lo = 0, hi = 0;
  for (int p = 0; p < m->npair; p++) {
    lo += m->pair[p].volume_lo;
    hi += m->pair[p].volume_hi;
  }
  assert_true(lo <= V * (1 + 1e-9) && V * (1 - 1e-9) <= hi);
}


/* Steps case i of the corpus through NPOSE poses with options o: each pose measured on the
 * shared query `warm` and on a fresh one, the two compared, and V against the closed form
 * where there is one. Returns the pairs measured. */
static int run_case(vxc_query *warm, int i, const vxc_query_options *o) {
  cx_case c;
  cx_make(SEED, i, &c);
  uint64_t s = 0x5eed0000u + (uint64_t)i;
  int pairs = 0;
  for (int k = 0; k < NPOSE; k++) {
    vxc_solid *a, *b;
    assert_int_equal(cx_solids(&c, &a, &b, NULL), VXC_OK);
    int closed = has_closed_form(c.family);
    double V = closed ? cx_closed_form(&c) : 0;
    assert_true(!closed || V > 0);
    vxc_metrics mw, mc;
    assert_true(vxc_query_run(warm, a, &c.s[0].pose, b, &c.s[1].pose, o, NULL, NULL, &mw, NULL) ==
                VXC_OK);
    vxc_query *cold = NULL;
    assert_int_equal(vxc_query_create(NULL, &cold, NULL), VXC_OK);
    assert_true(vxc_query_run(cold, a, &c.s[0].pose, b, &c.s[1].pose, o, NULL, NULL, &mc, NULL) ==
                VXC_OK);
    assert_same(&mw, &mc);
    assert_false(mw.capped);
    assert_true(mw.volume > 0);
    pairs += mw.npair;
    vxc_query_free(cold);
    if (closed) {
      assert_meets(&mw, V);
    }
    vxc_solid_free(a);
    vxc_solid_free(b);
    step_pose(&c, &s);
  }
  return pairs;
}

/* Every case's poses, one after the other on one warm query, with options o. */
static void run_all(const vxc_query_options *o) {
  vxc_query *warm = NULL;
  assert_int_equal(vxc_query_create(NULL, &warm, NULL), VXC_OK);
  int pairs = 0;
  for (int i = 0; i < CX_FAMILIES * PER_FAMILY; i++) {
    pairs += run_case(warm, i, o); /* case i is of family i % CX_FAMILIES */
  }
  assert_true(pairs >= CX_FAMILIES * PER_FAMILY * NPOSE);
  vxc_query_free(warm);
}

// the default rule (closed forms and quadratures where they apply, patches on)
static void test_warm_equals_cold_default(void **state) {
  (void)state;
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = RTOL;
  run_all(&o);
}

// the octree alone (closed forms off), where the workspace's buffers and leaves are reused
static void test_warm_equals_cold_octree(void **state) {
  (void)state;
  vxc_query_options o;
  vxc_query_options_default(&o);
  o.rtol = RTOL;
  o.closed_form = 0;
  run_all(&o);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_warm_equals_cold_default),
      cmocka_unit_test(test_warm_equals_cold_octree),
  };
  if (cx_mesh_init() != 0) {
    return 1; /* the corpus's mesh: out of memory */
  }
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  cx_mesh_free();
  return failed;
}
