/* tracker.c: which cell pairs (or patches of cell pairs) are in contact, step after step
 * (thesis A.4).
 *
 * A fixed array of `cap` slots; slot k is either free or held by one contact (a cell pair,
 * or one patch of it) from the step it came into contact to the step it was lost, so a
 * contact's states can live at a stable index. Each update matches the given keys to the
 * held slots of the same cell pair, nearest centroid first (with one key per pair, the
 * pair itself), classifies them into new and found, the held slots not matched into lost,
 * frees the lost slots, then gives the new keys the lowest free slots. An update that
 * cannot succeed (bad keys, more keys than slots) changes nothing. No allocation after
 * creation. */
#include <math.h>
#include <string.h>

#include "lib/internal.h"

struct vxc_tracker {
  vxc_allocator al;
  int cap;
  vxc_cell_pair *pair;   /* pair held by each slot */
  double (*centroid)[3]; /* its patch's centroid at the last update */
  vxc_contact_key *key;  /* scratch: vxc_tracker_update's pairs as keys */
  int *used;             /* 1 when the slot is held */
  int *seen;             /* scratch: slot matched during this update */
  int *slot_of;          /* scratch: slot of each given pair, -1 for new ones */
  int *new_slots, *found_slots, *lost_slots, *current_slots;
};


static void *tracker_realloc(const vxc_allocator *al, void *p, size_t n) {
  return vxg_realloc(al->realloc ? al : NULL, p, n);
}


vxc_status vxc_tracker_create(int capacity, const vxc_allocator *al, vxc_tracker **out,
                              vxc_error *err) {
  if (!out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_tracker_create: out is NULL");
  }
  if (capacity < 1 || capacity > (1 << 24)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_tracker_create: capacity %d is not in 1 .. 2^24", capacity);
  }
  vxc_allocator a = {NULL, NULL};
  if (al && al->realloc) {
    a = *al;
  }
  vxc_tracker *t = tracker_realloc(&a, NULL, sizeof *t);
  if (!t) {
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "vxc_tracker_create: out of memory");
  }
  memset(t, 0, sizeof *t);
  t->al = a;
  t->cap = capacity;
  size_t n = (size_t)capacity;
  t->pair = tracker_realloc(&a, NULL, n * sizeof *t->pair);
  t->centroid = tracker_realloc(&a, NULL, n * sizeof *t->centroid);
  t->key = tracker_realloc(&a, NULL, n * sizeof *t->key);
  int **arrays[] = {&t->used,        &t->seen,       &t->slot_of,      &t->new_slots,
                    &t->found_slots, &t->lost_slots, &t->current_slots};
  int ok = t->pair && t->centroid && t->key;
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
    *arrays[i] = ok ? tracker_realloc(&a, NULL, n * sizeof(int)) : NULL;
    ok = ok && *arrays[i];
  }
  if (!ok) {
    vxc_tracker_free(t);
    return vxg_error_set(err, VXC_ERR_NOMEM, NULL, 0, 0, "vxc_tracker_create: out of memory");
  }
  memset(t->used, 0, n * sizeof(int));
  *out = t;
  return VXC_OK;
}


void vxc_tracker_free(vxc_tracker *t) {
  if (!t) {
    return;
  }
  void *blocks[] = {t->pair,    t->centroid,  t->key,         t->used,       t->seen,
                    t->slot_of, t->new_slots, t->found_slots, t->lost_slots, t->current_slots};
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
    if (blocks[i]) {
      tracker_realloc(&t->al, blocks[i], 0);
    }
  }
  vxc_allocator a = t->al;
  tracker_realloc(&a, t, 0);
}


static int same_pair(const vxc_contact_key *k, const vxc_cell_pair *p) {
  return k->a == p->a && k->b == p->b;
}


static double dist2(const double x[3], const double y[3]) {
  double d[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}


/* The checks of the calls given keys: t and `out` (named out_name) not NULL, nkeys >= 0,
 * every key's indices >= 0 and centroid finite. VXC_OK, or VXC_ERR_ARG naming fn and the
 * argument in err (may be NULL). */
static vxc_status check_keys(const char *fn, const vxc_tracker *t, const vxc_contact_key *keys,
                             int nkeys, const void *out, const char *out_name, vxc_error *err) {
  if (!t || !out || (nkeys > 0 && !keys)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn,
                         !t ? "t" : !out ? out_name : "keys");
  }
  if (nkeys < 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: nkeys = %d is negative", fn, nkeys);
  }
  for (int i = 0; i < nkeys; i++) {
    const double *c = keys[i].centroid;
    if (keys[i].a < 0 || keys[i].b < 0) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: keys[%d] has a negative cell index",
                           fn, i);
    }
    if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(c[2])) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: keys[%d].centroid is not finite",
                           fn, i);
    }
  }
  return VXC_OK;
}


/* Matches the keys of key i's cell pair (those still at -2 in slot_of, from i on) to the
 * held slots of that pair not yet seen, nearest centroid first; the rest get -1. */
static void match_pair(vxc_tracker *t, const vxc_contact_key *keys, int n, int i, int *slot_of) {
  const vxc_cell_pair p = {keys[i].a, keys[i].b};
  for (;;) {
    double best = HUGE_VAL;
    int bj = -1, bk = -1;
    for (int j = i; j < n; j++) {
      if (slot_of[j] != -2 || keys[j].a != p.a || keys[j].b != p.b) {
        continue;
      }
      for (int k = 0; k < t->cap; k++) {
        if (t->used[k] && !t->seen[k] && same_pair(&keys[j], &t->pair[k])) {
          double d = dist2(keys[j].centroid, t->centroid[k]);
          if (bj < 0 || d < best) {
            best = d;
            bj = j;
            bk = k;
          }
        }
      }
    }
    if (bj < 0) {
      break;
    }
    slot_of[bj] = bk;
    t->seen[bk] = 1;
  }
  for (int j = i; j < n; j++) {
    if (slot_of[j] == -2 && keys[j].a == p.a && keys[j].b == p.b) {
      slot_of[j] = -1;
    }
  }
}


/* slot_of[i]: the held slot key i matches, or -1; t->seen marks the matched slots. */
static void match(vxc_tracker *t, const vxc_contact_key *keys, int n, int *slot_of) {
  memset(t->seen, 0, (size_t)t->cap * sizeof(int));
  for (int i = 0; i < n; i++) {
    slot_of[i] = -2;
  }
  for (int i = 0; i < n; i++) {
    if (slot_of[i] == -2) {
      match_pair(t, keys, n, i, slot_of);
    }
  }
}


vxc_status vxc_tracker_match(vxc_tracker *t, const vxc_contact_key *keys, int nkeys, int *slot_of,
                             vxc_error *err) {
  vxc_status st = check_keys("vxc_tracker_match", t, keys, nkeys, slot_of, "slot_of", err);
  if (st != VXC_OK) {
    return st;
  }
  match(t, keys, nkeys, slot_of);
  return VXC_OK;
}


vxc_status vxc_tracker_update_keys(vxc_tracker *t, const vxc_contact_key *keys, int nkeys,
                                   vxc_tracker_step *step, vxc_error *err) {
  static const char fn[] = "vxc_tracker_update_keys";
  vxc_status st = check_keys(fn, t, keys, nkeys, step, "step", err);
  if (st != VXC_OK) {
    return st;
  }
  if (nkeys > t->cap) {
    return vxg_error_set(err, VXC_ERR_LIMIT, NULL, 0, 0, "%s: %d contacts, more than the %d slots",
                         fn, nkeys, t->cap);
  }
  /* match the given keys against the held slots (nothing is changed yet) */
  match(t, keys, nkeys, t->slot_of);
  int nnew = 0, nheld = 0;
  for (int k = 0; k < t->cap; k++) {
    nheld += t->used[k];
  }
  for (int i = 0; i < nkeys; i++) {
    nnew += t->slot_of[i] < 0;
  }
  int nfound = nkeys - nnew, nlost = nheld - nfound;
  if (nnew > t->cap - (nheld - nlost)) {
    return vxg_error_set(err, VXC_ERR_LIMIT, NULL, 0, 0,
                         "%s: %d new contacts, more than the %d free slots", fn, nnew,
                         t->cap - (nheld - nlost));
  }
  /* lost contacts free their slots first (A.4), then new ones take the lowest free ones */
  int ilost = 0;
  for (int k = 0; k < t->cap; k++) {
    if (t->used[k] && !t->seen[k]) {
      t->used[k] = 0;
      t->lost_slots[ilost++] = k;
    }
  }
  int inew = 0, ifound = 0, next_free = 0;
  for (int i = 0; i < nkeys; i++) {
    int k = t->slot_of[i];
    if (k < 0) {
      while (t->used[next_free]) {
        next_free++;
      }
      k = next_free;
      t->used[k] = 1;
      t->pair[k].a = keys[i].a;
      t->pair[k].b = keys[i].b;
      t->new_slots[inew++] = k;
    } else {
      t->found_slots[ifound++] = k;
    }
    memcpy(t->centroid[k], keys[i].centroid, sizeof t->centroid[k]);
    t->current_slots[i] = k;
  }
  step->nnew = inew;
  step->nfound = ifound;
  step->nlost = ilost;
  step->ncurrent = nkeys;
  step->nfree = t->cap - nkeys;
  step->new_slots = t->new_slots;
  step->found_slots = t->found_slots;
  step->lost_slots = t->lost_slots;
  step->current_slots = t->current_slots;
  return VXC_OK;
}


vxc_status vxc_tracker_update(vxc_tracker *t, const vxc_cell_pair *pairs, int npairs,
                              vxc_tracker_step *step, vxc_error *err) {
  static const char fn[] = "vxc_tracker_update";
  if (!t || !step || (npairs > 0 && !pairs)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn,
                         !t ? "t" : !step ? "step" : "pairs");
  }
  if (npairs < 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: npairs = %d is negative", fn, npairs);
  }
  for (int i = 0; i < npairs; i++) {
    if (pairs[i].a < 0 || pairs[i].b < 0) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: pairs[%d] has a negative index", fn,
                           i);
    }
    for (int j = 0; j < i; j++) {
      if (pairs[j].a == pairs[i].a && pairs[j].b == pairs[i].b) {
        return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: pairs[%d] repeats pairs[%d]", fn,
                             i, j);
      }
    }
  }
  if (npairs > t->cap) { /* without duplicates, more pairs than slots cannot fit */
    return vxg_error_set(err, VXC_ERR_LIMIT, NULL, 0, 0, "%s: %d pairs, more than the %d slots", fn,
                         npairs, t->cap);
  }
  for (int i = 0; i < npairs; i++) {
    memset(&t->key[i], 0, sizeof t->key[i]);
    t->key[i].a = pairs[i].a;
    t->key[i].b = pairs[i].b;
  }
  return vxc_tracker_update_keys(t, t->key, npairs, step, err);
}


vxc_status vxc_tracker_slot(const vxc_tracker *t, int slot, vxc_cell_pair *out, vxc_error *err) {
  if (!t || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_tracker_slot: %s is NULL",
                         !t ? "t" : "out");
  }
  if (slot < 0 || slot >= t->cap || !t->used[slot]) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_tracker_slot: slot %d is %s", slot,
                         slot < 0 || slot >= t->cap ? "out of range" : "free");
  }
  *out = t->pair[slot];
  return VXC_OK;
}
