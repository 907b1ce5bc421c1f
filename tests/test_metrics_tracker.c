/* test_metrics_tracker.c: cell-pair tracking through scripted contact sequences (a sphere
 * sliding across a block made of cells 0, 1, 2 in a row). */
#include "tests/vxc_test.h"

#include "lib/vxc.h"

static int contains(const int *a, int n, int v) {
  for (int i = 0; i < n; i++) {
    if (a[i] == v) {
      return 1;
    }
  }
  return 0;
}


// pairs appear, persist, vanish and reappear; slots stay put while a pair is in contact,
// lost slots are freed before new pairs take the lowest free one
static void test_tracker_sliding_sphere_sequence(void **state) {
  (void)state;
  vxc_tracker *t = NULL;
  assert_int_equal(vxc_tracker_create(4, NULL, &t, NULL), VXC_OK);
  vxc_tracker_step s;
  vxc_cell_pair p;

  vxc_cell_pair s1[] = {{0, 0}};  // the sphere lands on cell 0
  assert_int_equal(vxc_tracker_update(t, s1, 1, &s, NULL), VXC_OK);
  assert_int_equal(s.nnew, 1);
  assert_int_equal(s.nfound, 0);
  assert_int_equal(s.nlost, 0);
  assert_int_equal(s.new_slots[0], 0);
  assert_int_equal(s.nfree, 3);

  vxc_cell_pair s2[] = {{0, 1}, {0, 0}};  // it reaches cell 1 while still on cell 0
  assert_int_equal(vxc_tracker_update(t, s2, 2, &s, NULL), VXC_OK);
  assert_int_equal(s.nnew, 1);
  assert_int_equal(s.nfound, 1);
  assert_int_equal(s.found_slots[0], 0);
  assert_int_equal(s.new_slots[0], 1);
  assert_int_equal(s.current_slots[0], 1);  // order of the pairs given
  assert_int_equal(s.current_slots[1], 0);

  vxc_cell_pair s3[] = {{0, 1}};  // it leaves cell 0
  assert_int_equal(vxc_tracker_update(t, s3, 1, &s, NULL), VXC_OK);
  assert_int_equal(s.nlost, 1);
  assert_int_equal(s.lost_slots[0], 0);
  assert_int_equal(s.nfound, 1);
  assert_int_equal(s.found_slots[0], 1);
  assert_int_equal(vxc_tracker_slot(t, 0, &p, NULL), VXC_ERR_ARG);  // slot 0 is free now

  vxc_cell_pair s4[] = {{0, 1}, {0, 2}};  // cell 2 comes in: it takes the freed slot 0
  assert_int_equal(vxc_tracker_update(t, s4, 2, &s, NULL), VXC_OK);
  assert_int_equal(s.nnew, 1);
  assert_int_equal(s.new_slots[0], 0);
  assert_int_equal(vxc_tracker_slot(t, 0, &p, NULL), VXC_OK);
  assert_int_equal(p.b, 2);

  vxc_cell_pair s5[] = {{0, 0}};  // it bounces back onto cell 0 alone: both others lost
  assert_int_equal(vxc_tracker_update(t, s5, 1, &s, NULL), VXC_OK);
  assert_int_equal(s.nlost, 2);
  assert_true(contains(s.lost_slots, 2, 0) && contains(s.lost_slots, 2, 1));
  assert_int_equal(s.nnew, 1);
  assert_int_equal(s.new_slots[0], 0);  // lost slots were freed first
  assert_int_equal(vxc_tracker_slot(t, 0, &p, NULL), VXC_OK);
  assert_int_equal(p.b, 0);

  assert_int_equal(vxc_tracker_update(t, NULL, 0, &s, NULL), VXC_OK);  // it flies off
  assert_int_equal(s.nlost, 1);
  assert_int_equal(s.ncurrent, 0);
  assert_int_equal(s.nfree, 4);
  vxc_tracker_free(t);
}


// more pairs than slots: VXC_ERR_LIMIT and nothing changes (the next update sees the old
// pairs as found)
static void test_tracker_overflow_returns_limit_and_keeps_state(void **state) {
  (void)state;
  vxc_tracker *t = NULL;
  assert_int_equal(vxc_tracker_create(2, NULL, &t, NULL), VXC_OK);
  vxc_tracker_step s;
  vxc_cell_pair two[] = {{0, 0}, {1, 1}};
  assert_int_equal(vxc_tracker_update(t, two, 2, &s, NULL), VXC_OK);
  vxc_cell_pair three[] = {{0, 0}, {1, 1}, {2, 2}};
  s.nnew = -5;
  assert_int_equal(vxc_tracker_update(t, three, 3, &s, NULL), VXC_ERR_LIMIT);
  assert_int_equal(s.nnew, -5);             // untouched
  vxc_cell_pair swap[] = {{0, 0}, {3, 3}};  // {1,1} lost, {3,3} new: fits
  assert_int_equal(vxc_tracker_update(t, swap, 2, &s, NULL), VXC_OK);
  assert_int_equal(s.nfound, 1);
  assert_int_equal(s.nlost, 1);
  assert_int_equal(s.nnew, 1);
  assert_int_equal(s.new_slots[0], 1);  // {1,1}'s slot, freed by its loss
  vxc_tracker_free(t);
}


// duplicates and negative indices are refused; bad sizes too
static void test_tracker_bad_input(void **state) {
  (void)state;
  vxc_tracker *t = NULL;
  assert_int_equal(vxc_tracker_create(0, NULL, &t, NULL), VXC_ERR_ARG);
  assert_null(t);
  assert_int_equal(vxc_tracker_create(3, NULL, &t, NULL), VXC_OK);
  vxc_tracker_step s;
  vxc_cell_pair dup[] = {{1, 2}, {1, 2}};
  assert_int_equal(vxc_tracker_update(t, dup, 2, &s, NULL), VXC_ERR_ARG);
  vxc_cell_pair neg[] = {{-1, 2}};
  assert_int_equal(vxc_tracker_update(t, neg, 1, &s, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_tracker_update(t, NULL, 1, &s, NULL), VXC_ERR_ARG);
  vxc_cell_pair p;
  assert_int_equal(vxc_tracker_slot(t, 3, &p, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_tracker_slot(t, -1, &p, NULL), VXC_ERR_ARG);
  vxc_tracker_free(t);
  vxc_tracker_free(NULL);
}


// a long random sequence: every current pair holds exactly one slot, slots never change
// while a pair stays in contact, and new + found = current, lost + found = previous
static void test_tracker_random_sequence_invariants(void **state) {
  (void)state;
  enum { CAP = 16, NA = 4, NB = 6 };
  vxc_tracker *t = NULL;
  assert_int_equal(vxc_tracker_create(CAP, NULL, &t, NULL), VXC_OK);
  vxc_rng r = {42};
  int slot_of[NA][NB];
  memset(slot_of, -1, sizeof slot_of);
  int nprev = 0;
  for (int step = 0; step < 5000; step++) {
    vxc_cell_pair pairs[NA * NB];
    int n = 0, in[NA][NB];
    for (int a = 0; a < NA; a++) {
      for (int b = 0; b < NB; b++) {
        in[a][b] = vxc_rng_uniform(&r, 0, 1) < 0.4 && n < CAP;
        if (in[a][b]) {
          pairs[n].a = a;
          pairs[n].b = b;
          n++;
        }
      }
    }
    vxc_tracker_step s;
    assert_int_equal(vxc_tracker_update(t, pairs, n, &s, NULL), VXC_OK);
    assert_int_equal(s.nnew + s.nfound, n);
    assert_int_equal(s.nlost + s.nfound, nprev);
    for (int i = 0; i < n; i++) {
      int a = pairs[i].a, b = pairs[i].b, k = s.current_slots[i];
      if (slot_of[a][b] >= 0) {
        assert_int_equal(k, slot_of[a][b]);  // kept its slot
      }
      for (int j = 0; j < i; j++) {
        assert_int_not_equal(k, s.current_slots[j]);
      }
      vxc_cell_pair p;
      assert_int_equal(vxc_tracker_slot(t, k, &p, NULL), VXC_OK);
      assert_int_equal(p.a, a);
      assert_int_equal(p.b, b);
    }
    for (int a = 0; a < NA; a++) {
      for (int b = 0; b < NB; b++) {
        if (!in[a][b]) {
          slot_of[a][b] = -1;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      slot_of[pairs[i].a][pairs[i].b] = s.current_slots[i];
    }
    nprev = n;
  }
  vxc_tracker_free(t);
}

// patches of one cell pair (a peg between two walls, then a third wall): each keeps its
// slot by nearest centroid whatever order the keys come in; a new patch takes a free slot,
// a vanished one is lost; vxc_tracker_match predicts the update without changing anything
static void test_tracker_patches_follow_centroids(void **state) {
  (void)state;
  vxc_tracker *t = NULL;
  assert_int_equal(vxc_tracker_create(4, NULL, &t, NULL), VXC_OK);
  vxc_tracker_step s;
  vxc_contact_key k1[] = {{0, 0, {-1, 0, 0}}, {0, 0, {1, 0, 0}}};
  assert_int_equal(vxc_tracker_update_keys(t, k1, 2, &s, NULL), VXC_OK);
  assert_int_equal(s.nnew, 2);
  int left = s.current_slots[0], right = s.current_slots[1];
  // the peg moves up by 0.3 and the keys come in the other order: each matches its wall
  vxc_contact_key k2[] = {{0, 0, {1, 0.3, 0}}, {0, 0, {-1, 0.3, 0}}};
  int slot_of[2] = {-9, -9};
  assert_int_equal(vxc_tracker_match(t, k2, 2, slot_of, NULL), VXC_OK);
  assert_int_equal(slot_of[0], right);
  assert_int_equal(slot_of[1], left);
  assert_int_equal(vxc_tracker_update_keys(t, k2, 2, &s, NULL), VXC_OK);
  assert_int_equal(s.nnew, 0);
  assert_int_equal(s.nfound, 2);
  assert_int_equal(s.current_slots[0], right);
  assert_int_equal(s.current_slots[1], left);
  // a third wall comes in between them, listed before the right one: the nearest held
  // and given patches are matched first, so the two old patches keep their slots
  vxc_contact_key k3[] = {{0, 0, {-1, 0.6, 0}}, {0, 0, {0, 1, 0}}, {0, 0, {1, 0.6, 0}}};
  assert_int_equal(vxc_tracker_update_keys(t, k3, 3, &s, NULL), VXC_OK);
  assert_int_equal(s.nnew, 1);
  assert_int_equal(s.current_slots[0], left);
  assert_int_equal(s.current_slots[2], right);
  int third = s.current_slots[1];
  assert_true(third != left && third != right);
  // the right patch vanishes: lost, the others kept
  vxc_contact_key k4[] = {{0, 0, {0, 1, 0}}, {0, 0, {-1, 0.6, 0}}};
  assert_int_equal(vxc_tracker_update_keys(t, k4, 2, &s, NULL), VXC_OK);
  assert_int_equal(s.nlost, 1);
  assert_int_equal(s.lost_slots[0], right);
  assert_int_equal(s.current_slots[0], third);
  assert_int_equal(s.current_slots[1], left);
  // another cell pair's patch never takes this pair's slot, however near
  vxc_contact_key k5[] = {{0, 0, {0, 1, 0}}, {1, 0, {-1, 0.6, 0}}};
  assert_int_equal(vxc_tracker_update_keys(t, k5, 2, &s, NULL), VXC_OK);
  assert_int_equal(s.current_slots[0], third);
  assert_int_equal(s.nnew, 1);
  assert_int_equal(s.nlost, 1);
  assert_int_equal(s.lost_slots[0], left);
  // bad keys change nothing
  vxc_contact_key bad[] = {{0, 0, {NAN, 0, 0}}};
  assert_int_equal(vxc_tracker_update_keys(t, bad, 1, &s, NULL), VXC_ERR_ARG);
  assert_int_equal(vxc_tracker_match(t, bad, 1, slot_of, NULL), VXC_ERR_ARG);
  vxc_contact_key many[5] = {{0, 0, {0, 0, 0}}};
  assert_int_equal(vxc_tracker_update_keys(t, many, 5, &s, NULL), VXC_ERR_LIMIT);
  assert_int_equal(vxc_tracker_update_keys(t, k5, 2, &s, NULL), VXC_OK);
  assert_int_equal(s.nfound, 2);
  vxc_tracker_free(t);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tracker_sliding_sphere_sequence),
      cmocka_unit_test(test_tracker_overflow_returns_limit_and_keeps_state),
      cmocka_unit_test(test_tracker_bad_input),
      cmocka_unit_test(test_tracker_random_sequence_invariants),
      cmocka_unit_test(test_tracker_patches_follow_centroids),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
