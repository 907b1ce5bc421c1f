/* task_peaks.c: each contact's own peaks over a task's run (vxc_task_contact_summary.peak).
 *
 * A task contact (two bodies) holds several contacts at once: its cell pairs, or their
 * patches, each in a tracker slot. A slot's contact lasts from the step a cell pair takes
 * the slot to the step it leaves it (or another cell pair takes it): its life. After every
 * accepted step each held slot's life gets the slot's wrench (largest normal force with
 * its time, centroid and normal; largest friction force); a life that ends is kept in the
 * summary's list when its peak normal force is among the VXC_TASK_PEAKS largest. So two
 * walls that press a peg from both sides show their own 16 N where the net is near 0. */
#include <math.h>
#include <string.h>

#include "geom/vec3.h"
#include "lib/task_sim.h"

/* The life of slot k of contact ci: s->life[s->life_off[ci] + k]. */
struct sim_life {
  int open;               /* a contact holds the slot */
  int cell_a, cell_b;     /* its cell pair */
  vxc_task_contact_peak p; /* its figures so far */
};


vxc_status vxci_peaks_init(sim *s) {
  const vxc_task *T = s->t;
  s->life_off = vxci_task_alloc(T, sizeof *s->life_off * (size_t)(T->ncontact + 1));
  if (!s->life_off) {
    return VXC_ERR_NOMEM;
  }
  int n = 0;
  for (int ci = 0; ci < T->ncontact; ci++) {
    s->life_off[ci] = n;
    n += T->contact[ci].slots;
  }
  s->life_off[T->ncontact] = n;
  s->life = vxci_task_alloc(T, sizeof *s->life * (size_t)(n > 0 ? n : 1));
  return s->life ? VXC_OK : VXC_ERR_NOMEM;
}


void vxci_peaks_free(sim *s) {
  vxci_task_free_mem(s->t, s->life);
  vxci_task_free_mem(s->t, s->life_off);
  s->life = NULL;
  s->life_off = NULL;
}


/* Keeps a life that ended in cs's list when it is among the largest (sorted, largest
 * peak_fn first; the earlier first on ties). */
static void keep(vxc_task_contact_summary *cs, struct sim_life *l) {
  l->open = 0;
  int n = cs->npeak, at = n;
  while (at > 0 && cs->peak[at - 1].peak_fn < l->p.peak_fn) {
    at--;
  }
  if (at >= VXC_TASK_PEAKS) {
    return;
  }
  n = n < VXC_TASK_PEAKS ? n + 1 : n;
  memmove(&cs->peak[at + 1], &cs->peak[at], sizeof *cs->peak * (size_t)(n - 1 - at));
  cs->peak[at] = l->p;
  cs->npeak = n;
}


/* The held contacts of task contact ci at time t into their lives. */
static void track_contact(sim *s, int ci, double t) {
  const vxc_pair *pr = s->c[ci].pair;
  struct sim_life *life = s->life + s->life_off[ci];
  int slots = s->t->contact[ci].slots;
  vxc_task_contact_summary *cs = &s->t->sum_contact[ci];
  for (int k = 0; k < slots; k++) {
    life[k].open = -life[k].open; /* -1: held at the last step, not yet seen now */
  }
  for (int k = 0; k < pr->ncontact; k++) {
    const vxci_pair_contact *c = &pr->contact[k];
    if (c->slot < 0) {
      continue;
    }
    const vxc_pair_metrics *pm = &pr->m.pair[c->pair];
    struct sim_life *l = &life[c->slot];
    if (l->open && (l->cell_a != pm->cell_a || l->cell_b != pm->cell_b)) {
      keep(cs, l); /* another cell pair took the slot */
    }
    int fresh = !l->open;
    if (fresh) {
      memset(l, 0, sizeof *l);
      l->cell_a = pm->cell_a;
      l->cell_b = pm->cell_b;
      l->p.cell_a = pm->name_a;
      l->p.cell_b = pm->name_b;
      l->p.first = t;
    }
    l->open = 1;
    l->p.last = t;
    const vxc_wrench *w = &pr->w[c->slot];
    double fn = sqrt(vxg_dot(w->force_normal, w->force_normal));
    if (fresh || fn > l->p.peak_fn) {
      l->p.peak_fn = fn;
      l->p.t_peak = t;
      memcpy(l->p.centroid, c->geom.centroid, sizeof l->p.centroid);
      memcpy(l->p.normal, c->geom.normal, sizeof l->p.normal);
    }
    l->p.peak_ft = fmax(l->p.peak_ft, sqrt(vxg_dot(w->force_friction, w->force_friction)));
  }
  for (int k = 0; k < slots; k++) {
    if (life[k].open < 0) {
      keep(cs, &life[k]); /* its contact ended */
    }
  }
}


void vxci_peaks_track(sim *s, double t) {
  for (int ci = 0; ci < s->t->ncontact; ci++) {
    track_contact(s, ci, t);
  }
}


void vxci_peaks_finish(sim *s) {
  for (int ci = 0; ci < s->t->ncontact; ci++) {
    struct sim_life *life = s->life + s->life_off[ci];
    for (int k = 0; k < s->t->contact[ci].slots; k++) {
      if (life[k].open) {
        keep(&s->t->sum_contact[ci], &life[k]);
      }
    }
  }
}
