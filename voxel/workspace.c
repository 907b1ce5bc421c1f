/* workspace.c: the per-query workspace: memory accounting and the thread pool.
 *
 * Memory: every buffer goes through vxv_ws_alloc / vxv_ws_grow, which count the bytes held
 * (ws->bytes), record the peak (ws->peak, reset at each query) and refuse to grow past the
 * query's cap (ws->max_bytes). Buffers are kept across queries; they grow by doubling, so a
 * query of a size seen before allocates nothing.
 *
 * Pool: `nworker` POSIX threads (ids 1..nworker); vxv_ws_run bumps a generation counter and
 * opens n - 1 seats; the first n - 1 workers to come take them and run the job with the caller as
 * id 0. When the caller's own share is done every item is claimed, so it closes the seats: a worker
 * still waking up stays out (waiting for it cost a wake-up, see SPIN_NS), and the caller waits only
 * for the workers that joined. A job's threads claim item indices one at a time (vxv_ws_claim, an
 * atomic counter per range of items: see vxv_ws_run) until none is left, so which thread
 * processes which item varies, but no figure depends on it (internal.h). A query alerts the
 * sleeping workers at its start (vxv_ws_alert), so that they are awake when its first job comes,
 * and until its end (vxv_ws_cool) workers spin for the next job and the caller for the end of the
 * running one rather than sleep on a condition variable (see SPIN_NS). Workers are created on
 * demand and joined by vxv_workspace_free. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "voxel/internal.h"

void *vxv_ws_alloc(vxv_workspace *ws, size_t size) {
  void *p = vxg_realloc(ws->al, NULL, size);
  ws->alloc_failed |= !p;
  if (p) {
    ws->bytes += size;
    if (ws->bytes > ws->peak) {
      ws->peak = ws->bytes;
    }
  }
  return p;
}


void vxv_ws_free(vxv_workspace *ws, void *p, size_t size) {
  if (p) {
    vxg_realloc(ws->al, p, 0);
    ws->bytes -= size;
  }
}


int vxv_ws_grow(vxv_workspace *ws, void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) {
    return 0;
  }
  size_t ncap;
  if (vxg_grow_cap(*cap, need, elem, &ncap) != 0) {
    return -1;
  }
  int rc = -1;
  pthread_mutex_lock(&ws->mem_mu);
  size_t add = (ncap - *cap) * elem;
  if (ws->bytes + add <= ws->max_bytes) {
    void *q = vxg_realloc(ws->al, *p, ncap * elem);
    ws->alloc_failed |= !q;
    if (q) {
      *p = q;
      *cap = ncap;
      ws->bytes += add;
      if (ws->bytes > ws->peak) {
        ws->peak = ws->bytes;
      }
      rc = 0;
    }
  }
  if (rc != 0) {
    ws->mem_failed = 1;
  }
  pthread_mutex_unlock(&ws->mem_mu);
  return rc;
}


void vxv_ws_gather_caches(vxv_workspace *ws, int nt) {
  size_t size = VXV_GATHER_SLOTS * sizeof(vxg_gather_slot);
  for (int t = 0; t < nt && t < ws->nth; t++) {
    vxg_gather_cache *c = &ws->th[t]->bsp.gcache;
    if (c->slot || size > ws->max_bytes / 8 || ws->bytes + size > ws->max_bytes) {
      continue;
    }
    /* not vxv_ws_alloc: a refusal leaves the thread without a cache, the query unharmed */
    c->slot = vxg_realloc(ws->al, NULL, size);
    if (c->slot) {
      memset(c->slot, 0, size); /* every slot empty */
      c->nslot = VXV_GATHER_SLOTS;
      ws->bytes += size;
      ws->peak = ws->bytes > ws->peak ? ws->bytes : ws->peak;
    }
  }
}


static void *worker_main(void *arg);

vxc_status vxv_workspace_create(const vxc_allocator *al, vxv_workspace **out) {
  if (!out) {
    return VXC_ERR_ARG;
  }
  vxv_workspace *ws = vxg_realloc(al, NULL, sizeof *ws);
  if (!ws) {
    return VXC_ERR_NOMEM;
  }
  memset(ws, 0, sizeof *ws);
  atomic_init(&ws->gen, 0);
  atomic_init(&ws->alert, 0);
  atomic_init(&ws->stop, 0);
  atomic_init(&ws->finished, 0);
  atomic_init(&ws->waiting, 0);
  atomic_init(&ws->gate, 0);
  atomic_init(&ws->hot, 0);
  for (int r = 0; r < VXV_MAX_THREADS; r++) {
    atomic_init(&ws->range[r].next, 0);
  }
  ws->al = al;
  ws->bytes = ws->peak = sizeof *ws;
  ws->max_bytes = VXV_DEFAULT_MAX_BYTES;
  if (pthread_mutex_init(&ws->mem_mu, NULL) != 0) {
    vxg_realloc(al, ws, 0);
    return VXC_ERR_NOMEM;
  }
  if (pthread_mutex_init(&ws->mu, NULL) == 0) {
    if (pthread_cond_init(&ws->go, NULL) == 0) {
      if (pthread_cond_init(&ws->done, NULL) == 0) {
        ws->pool_ok = 1;
      } else {
        pthread_cond_destroy(&ws->go);
        pthread_mutex_destroy(&ws->mu);
      }
    } else {
      pthread_mutex_destroy(&ws->mu);
    }
  }
  /* the caller's scratch area always exists */
  if (vxv_ws_threads(ws, 1) < 1) {
    vxv_workspace_free(ws);
    return VXC_ERR_NOMEM;
  }
  *out = ws;
  return VXC_OK;
}


void vxv_workspace_free(vxv_workspace *ws) {
  if (!ws) {
    return;
  }
  if (ws->pool_ok) {
    pthread_mutex_lock(&ws->mu);
    atomic_store(&ws->stop, 1);
    pthread_cond_broadcast(&ws->go);
    pthread_mutex_unlock(&ws->mu);
    for (int i = 1; i <= ws->nworker; i++) {
      pthread_join(ws->tid[i], NULL);
    }
    pthread_cond_destroy(&ws->done);
    pthread_cond_destroy(&ws->go);
    pthread_mutex_destroy(&ws->mu);
  }
  for (int t = 0; t < ws->nth; t++) {
    vxv_thread *th = ws->th[t];
    for (int k = 0; k < 2; k++) {
      vxv_ws_free(ws, th->buf[k], th->cap[k] * sizeof(vxv_leaf));
    }
    vxv_ws_free(ws, th->vis, th->capvis * sizeof *th->vis);
    vxv_ws_free(ws, th->bsp.gcache.slot, (size_t)th->bsp.gcache.nslot * sizeof(vxg_gather_slot));
    vxv_ws_free(ws, th, sizeof *th);
  }
  vxv_ws_free(ws, ws->sub, ws->capsub * sizeof(vxv_subtree));
  vxv_ws_free(ws, ws->gaps, ws->capgaps * sizeof(double));
  vxv_ws_free(ws, ws->order, ws->caporder * sizeof *ws->order);
  vxv_ws_free(ws, ws->topleaf, ws->captopleaf * sizeof *ws->topleaf);
  vxv_ws_free(ws, ws->toppart, ws->captoppart * sizeof *ws->toppart);
  vxv_ws_free(ws, ws->toppart0, ws->captoppart0 * sizeof *ws->toppart0);
  vxv_ws_free(ws, ws->cls, ws->capcls);
  for (int k = 0; k < 2; k++) {
    vxv_ws_free(ws, ws->list[k], ws->capl[k] * sizeof(vxv_box));
  }
  pthread_mutex_destroy(&ws->mem_mu);
  vxg_realloc(ws->al, ws, 0);
}


void vxv_ws_trim(vxv_workspace *ws) {
  if (ws->bytes <= ws->max_bytes / 2) {
    return;
  }
  for (int t = 0; t < ws->nth; t++) {
    vxv_thread *th = ws->th[t];
    for (int k = 0; k < 2; k++) {
      vxv_ws_free(ws, th->buf[k], th->cap[k] * sizeof(vxv_leaf));
      th->buf[k] = NULL;
      th->n[k] = th->cap[k] = 0;
    }
  }
}


size_t vxv_workspace_bytes(const vxv_workspace *ws) {
  return ws ? ws->bytes : 0;
}


int vxv_workspace_reserve(vxv_workspace *ws, int threads) {
  if (!ws) {
    return 0;
  }
  int n = vxv_ws_threads(ws, threads > 1 ? threads : 1);
  return n < 1 ? 1 : n;
}


int vxv_ws_threads(vxv_workspace *ws, int n) {
  if (n > VXV_MAX_THREADS) {
    n = VXV_MAX_THREADS;
  }
  /* scratch areas */
  while (ws->nth < n) {
    vxv_thread *th = vxv_ws_alloc(ws, sizeof *th);
    if (!th) {
      break;
    }
    memset(th, 0, sizeof *th);
    th->hint = -1;
    th->chain.nreq = th->schain.nreq = th->echain.nreq = -1; /* nothing recorded */
    ws->th[ws->nth++] = th;
  }
  if (ws->nth < n) {
    n = ws->nth;
  }
  /* worker threads */
  if (!ws->pool_ok) {
    return n < 1 ? n : 1;
  }
  while (ws->nworker < n - 1) {
    int id = ws->nworker + 1;
    ws->warg[id].ws = ws;
    ws->warg[id].id = id;
    /* the generation the worker starts from: it must not miss a job posted before it runs */
    pthread_mutex_lock(&ws->mu);
    ws->warg[id].seen = atomic_load(&ws->gen);
    ws->warg[id].alerted = atomic_load(&ws->alert);
    pthread_mutex_unlock(&ws->mu);
    if (pthread_create(&ws->tid[id], NULL, worker_main, &ws->warg[id]) != 0) {
      break;
    }
    ws->nworker = id;
  }
  return n < ws->nworker + 1 ? n : ws->nworker + 1;
}


/* How long a thread of the pool spins for what it waits for (a job, or the end of one)
 * before sleeping on a condition variable: while a query is running (between vxv_ws_alert
 * and vxv_ws_cool), up to SPIN_HOT_NS; else SPIN_NS. A wake-up through the condition
 * variable is slow when the core has meanwhile gone to another process, even a nice 19 one
 * (the scheduler lets it finish its slice): one such wake-up in a round undoes the second
 * thread. The bench case: the x2t column of `vxc bench` on a busy machine. */
#define SPIN_NS 100000LL
#define SPIN_HOT_NS 20000000LL

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}


static void cpu_relax(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __builtin_ia32_pause();
#endif
}


/* 1 while a thread that started waiting at `start` should go on spinning. */
static int spin_on(vxv_workspace *ws, long long start) {
  long long t = now_ns() - start;
  return t < SPIN_NS || (atomic_load(&ws->hot) && t < SPIN_HOT_NS);
}


/* Spins while the pool's generation is `seen` and no stop is asked (see SPIN_NS). Returns
 * the generation last read. */
static unsigned long spin_gen(vxv_workspace *ws, unsigned long seen) {
  long long start = now_ns();
  for (;;) {
    for (int i = 0; i < 32; i++) {
      unsigned long g = atomic_load(&ws->gen);
      if (g != seen || atomic_load(&ws->stop)) {
        return g;
      }
      cpu_relax();
    }
    if (!spin_on(ws, start)) {
      return seen;
    }
  }
}


#define GATE_GEN(g) ((g) & (~0UL >> 8))

/* 1 when the worker took a seat of the job of generation g (still open, seats left). */
static int take_seat(vxv_workspace *ws, unsigned long g) {
  unsigned long v = atomic_load(&ws->gate);
  while ((v >> 8) == GATE_GEN(g) && (v & 255) > 0) {
    if (atomic_compare_exchange_weak(&ws->gate, &v, v - 1)) {
      return 1;
    }
  }
  return 0;
}


static void *worker_main(void *arg) {
  vxv_warg *wa = arg;
  vxv_workspace *ws = wa->ws;
  int id = wa->id;
  unsigned long seen = wa->seen, alerted = wa->alerted;
  for (;;) {
    unsigned long g = spin_gen(ws, seen);
    if (g == seen && !atomic_load(&ws->stop)) {
      pthread_mutex_lock(&ws->mu);
      while ((g = atomic_load(&ws->gen)) == seen && !atomic_load(&ws->stop)) {
        unsigned long a = atomic_load(&ws->alert);
        if (a != alerted && id < ws->nalert) {
          /* a job follows soon: be awake for it */
          alerted = a;
          pthread_mutex_unlock(&ws->mu);
          spin_gen(ws, seen);
          pthread_mutex_lock(&ws->mu);
          continue;
        }
        alerted = a;
        pthread_cond_wait(&ws->go, &ws->mu);
      }
      pthread_mutex_unlock(&ws->mu);
    }
    if (atomic_load(&ws->stop)) {
      break;
    }
    /* the job's fields were written before its seats were opened: read them only with a
       seat (a worker late for a job may find the next one's being written) */
    seen = g;
    if (take_seat(ws, g)) {
      ws->job(ws, id);
      atomic_fetch_add(&ws->finished, 1);
      if (atomic_load(&ws->waiting)) {
        pthread_mutex_lock(&ws->mu);
        pthread_cond_signal(&ws->done);
        pthread_mutex_unlock(&ws->mu);
      }
    }
  }
  return NULL;
}


void vxv_ws_alert(vxv_workspace *ws, int n) {
  if (ws->nworker == 0 || n <= 1) {
    return;
  }
  atomic_store(&ws->hot, 1);
  pthread_mutex_lock(&ws->mu);
  ws->nalert = n;
  atomic_fetch_add(&ws->alert, 1);
  pthread_cond_broadcast(&ws->go);
  pthread_mutex_unlock(&ws->mu);
}


void vxv_ws_cool(vxv_workspace *ws) {
  atomic_store(&ws->hot, 0);
}


void vxv_ws_run(vxv_workspace *ws, int n, int nitems, int split,
                void (*job)(vxv_workspace *ws, int tid)) {
  int nr = n <= 1 || ws->nworker == 0 || !split ? 1 : n < VXV_MAX_THREADS ? n : VXV_MAX_THREADS;
  ws->nrange = nr;
  for (int r = 0; r < nr; r++) {
    atomic_store(&ws->range[r].next, (int)((long long)nitems * r / nr));
    ws->range[r].end = (int)((long long)nitems * (r + 1) / nr);
  }
  if (n <= 1 || ws->nworker == 0) {
    job(ws, 0);
    return;
  }
  /* the previous job is over (every worker that joined it has finished): no worker reads
     these now */
  int seats = n - 1 < ws->nworker ? n - 1 : ws->nworker;
  ws->job = job;
  atomic_store(&ws->finished, 0);
  unsigned long g = atomic_load(&ws->gen) + 1;
  atomic_store(&ws->gate, (GATE_GEN(g) << 8) | (unsigned long)seats);
  pthread_mutex_lock(&ws->mu);
  atomic_store(&ws->gen, g);
  pthread_cond_broadcast(&ws->go);
  pthread_mutex_unlock(&ws->mu);
  job(ws, 0);
  /* every item is claimed: close the seats, and wait for those taken */
  unsigned long v = atomic_exchange(&ws->gate, GATE_GEN(g) << 8);
  int joined = seats - (int)(v & 255);
  long long start = now_ns();
  while (atomic_load(&ws->finished) < joined && spin_on(ws, start)) {
    for (int i = 0; i < 32; i++) {
      cpu_relax();
    }
  }
  if (atomic_load(&ws->finished) < joined) {
    pthread_mutex_lock(&ws->mu);
    atomic_store(&ws->waiting, 1);
    while (atomic_load(&ws->finished) < joined) {
      pthread_cond_wait(&ws->done, &ws->mu);
    }
    atomic_store(&ws->waiting, 0);
    pthread_mutex_unlock(&ws->mu);
  }
}


int vxv_ws_claim(vxv_workspace *ws, int tid) {
  int nr = ws->nrange;
  for (int k = 0; k < nr; k++) {
    int r = (tid + k) % nr;
    if (atomic_load_explicit(&ws->range[r].next, memory_order_relaxed) >= ws->range[r].end) {
      continue; /* spent: do not bump its counter */
    }
    int i = atomic_fetch_add_explicit(&ws->range[r].next, 1, memory_order_relaxed);
    if (i < ws->range[r].end) {
      return i;
    }
  }
  return -1;
}
