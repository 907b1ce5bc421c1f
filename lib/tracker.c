/* tracker.c: which cell pairs are in contact, step after step (thesis A.4).
 *
 * A fixed array of `cap` slots; slot k is either free or held by one cell pair from the
 * step it came into contact to the step it was lost, so a contact's states can live at a
 * stable index. Each update classifies the given pairs into new and found, the held pairs
 * not given into lost, frees the lost slots, then gives the new pairs the lowest free
 * slots. An update that cannot succeed (duplicates, more pairs than slots) changes
 * nothing. No allocation after creation. */
#include <string.h>

#include "lib/internal.h"

struct vxc_tracker {
  vxc_allocator al;
  int cap;
  vxc_cell_pair *pair; /* pair held by each slot */
  int *used;           /* 1 when the slot is held */
  int *seen;           /* scratch: slot matched during this update */
  int *slot_of;        /* scratch: slot of each given pair, -1 for new ones */
  int *new_slots, *found_slots, *lost_slots, *current_slots;
};


static void *tracker_realloc(const vxc_allocator *al, void *p, size_t n) {
  return vxg_realloc(al->realloc ? al : NULL, p, n);
}


vxc_status vxc_tracker_create(int capacity, const vxc_allocator *al, vxc_tracker **out) {
  if (capacity < 1 || !out || capacity > (1 << 24)) {
    return VXC_ERR_ARG;
  }
  vxc_allocator a = {NULL, NULL};
  if (al && al->realloc) {
    a = *al;
  }
  vxc_tracker *t = tracker_realloc(&a, NULL, sizeof *t);
  if (!t) {
    return VXC_ERR_NOMEM;
  }
  memset(t, 0, sizeof *t);
  t->al = a;
  t->cap = capacity;
  size_t n = (size_t)capacity;
  t->pair = tracker_realloc(&a, NULL, n * sizeof *t->pair);
  int **arrays[] = {&t->used,        &t->seen,       &t->slot_of,      &t->new_slots,
                    &t->found_slots, &t->lost_slots, &t->current_slots};
  int ok = t->pair != NULL;
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
    *arrays[i] = ok ? tracker_realloc(&a, NULL, n * sizeof(int)) : NULL;
    ok = ok && *arrays[i];
  }
  if (!ok) {
    vxc_tracker_free(t);
    return VXC_ERR_NOMEM;
  }
  memset(t->used, 0, n * sizeof(int));
  *out = t;
  return VXC_OK;
}


void vxc_tracker_free(vxc_tracker *t) {
  if (!t) {
    return;
  }
  void *blocks[] = {t->pair,      t->used,        t->seen,       t->slot_of,
                    t->new_slots, t->found_slots, t->lost_slots, t->current_slots};
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
    if (blocks[i]) {
      tracker_realloc(&t->al, blocks[i], 0);
    }
  }
  vxc_allocator a = t->al;
  tracker_realloc(&a, t, 0);
}


vxc_status vxc_tracker_update(vxc_tracker *t, const vxc_cell_pair *pairs, int npairs,
                              vxc_tracker_step *step) {
  if (!t || !step || npairs < 0 || (npairs > 0 && !pairs)) {
    return VXC_ERR_ARG;
  }
  for (int i = 0; i < npairs; i++) {
    if (pairs[i].a < 0 || pairs[i].b < 0) {
      return VXC_ERR_ARG;
    }
    for (int j = 0; j < i; j++) {
      if (pairs[j].a == pairs[i].a && pairs[j].b == pairs[i].b) {
        return VXC_ERR_ARG;
      }
    }
  }
  if (npairs > t->cap) {
    return VXC_ERR_LIMIT; /* without duplicates, more pairs than slots cannot fit */
  }
  /* match the given pairs against the held slots (nothing is changed yet) */
  memset(t->seen, 0, (size_t)t->cap * sizeof(int));
  int nnew = 0, nheld = 0;
  for (int k = 0; k < t->cap; k++) {
    nheld += t->used[k];
  }
  for (int i = 0; i < npairs; i++) {
    t->slot_of[i] = -1;
    for (int k = 0; k < t->cap; k++) {
      if (t->used[k] && t->pair[k].a == pairs[i].a && t->pair[k].b == pairs[i].b) {
        t->slot_of[i] = k;
        t->seen[k] = 1;
        break;
      }
    }
    nnew += t->slot_of[i] < 0;
  }
  int nfound = npairs - nnew, nlost = nheld - nfound;
  if (nnew > t->cap - (nheld - nlost)) {
    return VXC_ERR_LIMIT;
  }
  /* lost pairs free their slots first (A.4), then new pairs take the lowest free ones */
  int ilost = 0;
  for (int k = 0; k < t->cap; k++) {
    if (t->used[k] && !t->seen[k]) {
      t->used[k] = 0;
      t->lost_slots[ilost++] = k;
    }
  }
  int inew = 0, ifound = 0, next_free = 0;
  for (int i = 0; i < npairs; i++) {
    int k = t->slot_of[i];
    if (k < 0) {
      while (t->used[next_free]) {
        next_free++;
      }
      k = next_free;
      t->used[k] = 1;
      t->pair[k] = pairs[i];
      t->new_slots[inew++] = k;
    } else {
      t->found_slots[ifound++] = k;
    }
    t->current_slots[i] = k;
  }
  step->nnew = inew;
  step->nfound = ifound;
  step->nlost = ilost;
  step->ncurrent = npairs;
  step->nfree = t->cap - npairs;
  step->new_slots = t->new_slots;
  step->found_slots = t->found_slots;
  step->lost_slots = t->lost_slots;
  step->current_slots = t->current_slots;
  return VXC_OK;
}


vxc_status vxc_tracker_slot(const vxc_tracker *t, int slot, vxc_cell_pair *out) {
  if (!t || !out || slot < 0 || slot >= t->cap || !t->used[slot]) {
    return VXC_ERR_ARG;
  }
  *out = t->pair[slot];
  return VXC_OK;
}
