/* workspace.c: the per-query workspace: memory accounting and the thread pool.
 *
 * Memory: every buffer goes through vxv_ws_alloc / vxv_ws_grow, which count the bytes held
 * (ws->bytes), record the peak (ws->peak, reset at each query) and refuse to grow past the
 * query's cap (ws->max_bytes). Buffers are kept across queries; they grow by doubling, so a
 * query of a size seen before allocates nothing.
 *
 * Pool: `nworker` POSIX threads (ids 1..nworker) sleep on a condition variable; vxv_ws_run
 * bumps a generation counter, and the first n - 1 workers run the job with the caller as
 * id 0; the caller then waits until every worker is idle again. A job claims subtree
 * indices one at a time (vxv_ws_claim) until none is left, so which thread processes which
 * subtree varies, but no figure depends on it (internal.h). Workers are created on demand
 * and joined by vxv_workspace_free. */
#include <stdlib.h>
#include <string.h>

#include "voxel/internal.h"

static void *ws_realloc(const vxc_allocator *al, void *p, size_t size) {
  if (al && al->realloc) {
    return al->realloc(al->ud, p, size);
  }
  if (size == 0) {
    free(p);
    return NULL;
  }
  return realloc(p, size);
}


void *vxv_ws_alloc(vxv_workspace *ws, size_t size) {
  void *p = ws_realloc(ws->al, NULL, size);
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
    ws_realloc(ws->al, p, 0);
    ws->bytes -= size;
  }
}


int vxv_ws_grow(vxv_workspace *ws, void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) {
    return 0;
  }
  size_t ncap = *cap ? *cap : 64;
  while (ncap < need) {
    if (ncap > ((size_t)-1 / 2) / elem) {
      return -1;
    }
    ncap *= 2;
  }
  int rc = -1;
  pthread_mutex_lock(&ws->mem_mu);
  size_t add = (ncap - *cap) * elem;
  if (ws->bytes + add <= ws->max_bytes) {
    void *q = ws_realloc(ws->al, *p, ncap * elem);
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


static void *worker_main(void *arg);

vxc_status vxv_workspace_create(const vxc_allocator *al, vxv_workspace **out) {
  if (!out) {
    return VXC_ERR_ARG;
  }
  vxv_workspace *ws = ws_realloc(al, NULL, sizeof *ws);
  if (!ws) {
    return VXC_ERR_NOMEM;
  }
  memset(ws, 0, sizeof *ws);
  ws->al = al;
  ws->bytes = ws->peak = sizeof *ws;
  ws->max_bytes = VXV_DEFAULT_MAX_BYTES;
  if (pthread_mutex_init(&ws->mem_mu, NULL) != 0) {
    ws_realloc(al, ws, 0);
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
    ws->stop = 1;
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
    vxv_ws_free(ws, th, sizeof *th);
  }
  vxv_ws_free(ws, ws->sub, ws->capsub * sizeof(vxv_subtree));
  vxv_ws_free(ws, ws->gaps, ws->capgaps * sizeof(double));
  for (int k = 0; k < 2; k++) {
    vxv_ws_free(ws, ws->list[k], ws->capl[k] * sizeof(vxv_box));
  }
  pthread_mutex_destroy(&ws->mem_mu);
  ws_realloc(ws->al, ws, 0);
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
    ws->warg[id].seen = ws->gen;
    pthread_mutex_unlock(&ws->mu);
    if (pthread_create(&ws->tid[id], NULL, worker_main, &ws->warg[id]) != 0) {
      break;
    }
    ws->nworker = id;
  }
  return n < ws->nworker + 1 ? n : ws->nworker + 1;
}


static void *worker_main(void *arg) {
  vxv_warg *wa = arg;
  vxv_workspace *ws = wa->ws;
  int id = wa->id;
  pthread_mutex_lock(&ws->mu);
  unsigned long seen = wa->seen;
  for (;;) {
    while (ws->gen == seen && !ws->stop) {
      pthread_cond_wait(&ws->go, &ws->mu);
    }
    if (ws->stop) {
      break;
    }
    seen = ws->gen;
    int use = id < ws->nuse;
    void (*job)(vxv_workspace *, int) = ws->job;
    pthread_mutex_unlock(&ws->mu);
    if (use) {
      job(ws, id);
    }
    pthread_mutex_lock(&ws->mu);
    if (--ws->busy == 0) {
      pthread_cond_signal(&ws->done);
    }
  }
  pthread_mutex_unlock(&ws->mu);
  return NULL;
}


void vxv_ws_run(vxv_workspace *ws, int n, void (*job)(vxv_workspace *ws, int tid)) {
  ws->next = 0;
  if (n <= 1 || ws->nworker == 0) {
    job(ws, 0);
    return;
  }
  pthread_mutex_lock(&ws->mu);
  ws->job = job;
  ws->nuse = n;
  ws->busy = ws->nworker;
  ws->gen++;
  pthread_cond_broadcast(&ws->go);
  pthread_mutex_unlock(&ws->mu);
  job(ws, 0);
  pthread_mutex_lock(&ws->mu);
  while (ws->busy > 0) {
    pthread_cond_wait(&ws->done, &ws->mu);
  }
  pthread_mutex_unlock(&ws->mu);
}


int vxv_ws_claim(vxv_workspace *ws) {
  int i;
  if (ws->nworker == 0) {
    i = ws->next < ws->nsub ? ws->next++ : -1;
    return i;
  }
  pthread_mutex_lock(&ws->mu);
  i = ws->next < ws->nsub ? ws->next++ : -1;
  pthread_mutex_unlock(&ws->mu);
  return i;
}
