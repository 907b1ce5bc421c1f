/* task_vtk.c: ParaView frames of a task run (vxc task --vtk DIR).
 *
 * Each body's surface is sampled and welded once in its model frame; a frame carries its
 * points to the record's pose, and writes a body only when its pose changed since its last
 * file (the .pvd shows that file again). Each contact's region is measured again at the
 * record's poses (vxc_query_run with the contact's options and `patches`; a pair measured
 * in closed form shown by the octree's coarse boxes, cli_vtk_region_add), so a frame shows
 * what the query integrated. Every file is encoded in memory first, so that a frame that
 * would pass the bound on the frames' bytes is never started. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/task_vtk.h"
#include "tools/vtk.h"

struct task_vtk {
  vxc_task *task;
  char *dir;
  int nbody, ncontact;
  vtk_mesh *mesh;    /* per body, welded, model frame */
  size_t *bytes;     /* per body: its encoded size in the model frame (the estimate) */
  double *posed;     /* scratch: the largest mesh's points at a pose */
  double *last_pose; /* per body, 7: the pose of its last file */
  int *last_file;    /* per body: the frame of its last file (-1: none) */
  int empty_file;    /* the frame of the last empty contact file (-1: none) */
  size_t empty_bytes;
  vxc_query *q;
  cli_vtk_region reg; /* the frame's regions, every contact */
  double *t;          /* per frame: the record's time */
  int *file;          /* per frame, nbody + 1: each body's file, then the contact's (frames) */
  int nframe, capframe;
  double budget;  /* bytes the frames may take (--max-output less the series) */
  double written; /* bytes written */
  int cut;        /* frames left out at the bound (the warning printed) */
  double cut_t;   /* the time of the first one, s */
};


void task_vtk_free(task_vtk *v) {
  if (!v) {
    return;
  }
  for (int i = 0; v->mesh && i < v->nbody; i++) {
    vtk_mesh_free(&v->mesh[i]);
  }
  free(v->mesh);
  free(v->bytes);
  free(v->posed);
  free(v->last_pose);
  free(v->last_file);
  vxc_query_free(v->q);
  cli_vtk_region_free(&v->reg);
  free(v->t);
  free(v->file);
  free(v->dir);
  free(v);
}


/* x = R(q) p + c for a unit quaternion q = (w, x, y, z) and c the pose's position. */
static void pose_point(const double pose[7], const double p[3], double x[3]) {
  double w = pose[3], u[3] = {pose[4], pose[5], pose[6]}, t[3], c[3];
  /* R p = p + 2 w (u x p) + 2 u x (u x p) */
  t[0] = u[1] * p[2] - u[2] * p[1];
  t[1] = u[2] * p[0] - u[0] * p[2];
  t[2] = u[0] * p[1] - u[1] * p[0];
  c[0] = u[1] * t[2] - u[2] * t[1];
  c[1] = u[2] * t[0] - u[0] * t[2];
  c[2] = u[0] * t[1] - u[1] * t[0];
  for (int k = 0; k < 3; k++) {
    x[k] = p[k] + 2 * (w * t[k] + c[k]) + pose[k];
  }
}


/* Samples, welds and encodes body i (its size into v->bytes[i]). Returns 0, or -1 after the
 * message. */
static int body_mesh(task_vtk *v, int i, double tol) {
  cli_vtk_opts o;
  cli_vtk_opts_init(&o);
  o.tol = tol;
  vxc_error err;
  vxc_surface s;
  const vxc_solid *solid = vxc_task_body_solid(v->task, i);
  vxc_status st =
      vxc_solid_surface(solid, NULL, cli_vtk_tol(&o, solid, NULL), CLI_VTK_MAX_CUBES, &s, &err);
  if (st != VXC_OK) {
    cli_lib_error(&err, st);
    return -1;
  }
  const vxc_surface *sp = &s;
  int rc = vtk_mesh_weld(&v->mesh[i], &sp, 1, &i);
  vxc_surface_free(&s);
  /* its size at a pose of no symmetry: posed coordinates compress less than the model's */
  static const double any[7] = {0.0123, -0.0456, 0.0789, 0.9, 0.1, 0.2, 0.3741657};
  const vtk_mesh *m = &v->mesh[i];
  double *posed = rc == 0 ? malloc(3 * m->np * sizeof *posed + 1) : NULL;
  vtk_blob b;
  rc = posed ? 0 : -1;
  for (size_t j = 0; posed && j < m->np; j++) {
    pose_point(any, m->point + 3 * j, posed + 3 * j);
  }
  if (rc == 0) {
    rc = vtk_mesh_encode(&b, m, posed);
    v->bytes[i] = b.size;
    vtk_blob_free(&b);
  }
  free(posed);
  if (rc != 0) {
    fprintf(stderr, "vxc: out of memory\n");
  }
  return rc;
}


task_vtk *task_vtk_open(vxc_task *t, const char *dir, double tol) {
  task_vtk *v = calloc(1, sizeof *v);
  if (!v) {
    fprintf(stderr, "vxc: out of memory\n");
    return NULL;
  }
  v->task = t;
  v->nbody = vxc_task_body_count(t);
  v->ncontact = vxc_task_contact_count(t);
  v->empty_file = -1;
  v->budget = HUGE_VAL;
  size_t nb = (size_t)v->nbody + 1;
  v->dir = malloc(strlen(dir) + 1);
  v->mesh = calloc(nb, sizeof *v->mesh);
  v->bytes = calloc(nb, sizeof *v->bytes);
  v->last_pose = calloc(7 * nb, sizeof *v->last_pose);
  v->last_file = malloc(nb * sizeof *v->last_file);
  vtk_blob empty;
  if (!v->dir || !v->mesh || !v->bytes || !v->last_pose || !v->last_file ||
      vxc_query_create(NULL, &v->q, NULL) != VXC_OK || vtk_region_encode(&empty, NULL, NULL, 0) != 0) {
    fprintf(stderr, "vxc: out of memory\n");
    task_vtk_free(v);
    return NULL;
  }
  v->empty_bytes = empty.size;
  vtk_blob_free(&empty);
  strcpy(v->dir, dir);
  size_t np = 0;
  for (int i = 0; i < v->nbody; i++) {
    v->last_file[i] = -1;
    if (body_mesh(v, i, tol) != 0) {
      task_vtk_free(v);
      return NULL;
    }
    np = v->mesh[i].np > np ? v->mesh[i].np : np;
  }
  if (!(v->posed = malloc(3 * np * sizeof *v->posed + 1))) {
    fprintf(stderr, "vxc: out of memory\n");
    task_vtk_free(v);
    return NULL;
  }
  return v;
}


/* bytes as "123 kB", "4.5 MB" (decimal units). */
static const char *human(double bytes, char buf[32]) {
  static const char *const unit[] = {"bytes", "kB", "MB", "GB", "TB"};
  int k = 0;
  while (bytes >= 1000 && k < 4) {
    bytes /= 1000;
    k++;
  }
  snprintf(buf, 32, k ? "%.3g %s" : "%.0f %s", bytes, unit[k]);
  return buf;
}


/* 1 for a body that never moves (fixed: neither free nor driven). */
static int body_fixed(const task_vtk *v, int i) {
  return !vxc_task_body_is_free(v->task, i) && !vxc_task_body_is_driven(v->task, i);
}


/* The bodies' parts of the plan: "block written once, 1.2 MB; peg 24 kB a frame" into buf;
 * the fixed bodies' bytes and the moving bodies' bytes a frame. */
static void plan_bodies(const task_vtk *v, char *buf, size_t size, double *once, double *each) {
  *once = *each = 0;
  size_t at = 0;
  buf[0] = 0;
  for (int i = 0; i < v->nbody && at < size; i++) {
    char h[32];
    int fixed = body_fixed(v, i);
    *(fixed ? once : each) += (double)v->bytes[i];
    int n = snprintf(buf + at, size - at, "%s%s %s%s", i ? "; " : "", vxc_task_body_name(v->task, i),
                     fixed ? "written once, " : "", human((double)v->bytes[i], h));
    at += n > 0 ? (size_t)n : 0;
    if (!fixed && at < size) {
      n = snprintf(buf + at, size - at, " a frame");
      at += n > 0 ? (size_t)n : 0;
    }
  }
}


int task_vtk_plan(task_vtk *v, double max_output, double row_bytes) {
  double every = vxc_task_record_every(v->task), duration = vxc_task_duration(v->task);
  double frames = every > 0 ? floor(duration / every + 1e-9) + 1 : 0;
  if (every > 0 && duration - (frames - 1) * every > 1e-9 * duration) {
    frames++; /* the last record, at the end */
  }
  v->budget = max_output - frames * row_bytes;
  char bodies[2048], h[32], hb[32], hm[32];
  double once, each;
  plan_bodies(v, bodies, sizeof bodies, &once, &each);
  if (every <= 0) {
    fprintf(stderr,
            "vxc task: ParaView frames: one a step (the task records every step, so their "
            "number is not known before the run) into %s/bodies.pvd and %s/contact.pvd (%s; "
            "and the contact regions); they stop at --max-output (%s)\n",
            v->dir, v->dir, bodies, human(max_output, h));
    return 0;
  }
  double total = once + frames * (each + (double)v->empty_bytes);
  if (total > v->budget) {
    fprintf(stderr,
            "vxc task: --vtk: %.0f frames would write about %s (%s), more than --max-output "
            "(%s) less the series (%s): record less often ((record (every T)) in the task "
            "file, now %g s), sample the surfaces coarser (--vtk-tol T), or raise --max-output\n",
            frames, human(total, h), bodies, human(max_output, hm), human(frames * row_bytes, hb),
            every);
    return -1;
  }
  fprintf(stderr,
          "vxc task: ParaView frames: %.0f (one every %g s) into %s/bodies.pvd and "
          "%s/contact.pvd, about %s (%s; and the contact regions), within --max-output (%s)\n",
          frames, every, v->dir, v->dir, human(total, h), bodies, human(max_output, hm));
  return 0;
}


static vxc_pose to_pose(const double p[7]) {
  vxc_pose x = {{p[0], p[1], p[2]}, {p[3], p[4], p[5], p[6]}};
  return x;
}


/* The regions of every contact at the record's poses into v->reg. Returns CLI_OK or
 * CLI_FAIL after the message. */
static int frame_regions(task_vtk *v, const vxc_task_record *r) {
  v->reg.n = 0;
  for (int c = 0; c < v->ncontact; c++) {
    int a, b;
    vxc_query_options o;
    vxc_task_contact_bodies(v->task, c, &a, &b, NULL);
    vxc_task_contact_query(v->task, c, &o, NULL);
    o.region = 1;
    o.patches = 1; /* the frames show each contact's patches */
    const vxc_solid *sa = vxc_task_body_solid(v->task, a), *sb = vxc_task_body_solid(v->task, b);
    vxc_pose pa = to_pose(r->body[a].pose), pb = to_pose(r->body[b].pose);
    vxc_metrics m;
    vxc_error err;
    vxc_status st = vxc_query_run(v->q, sa, &pa, sb, &pb, &o, NULL, NULL, &m, &err);
    if (st != VXC_OK && st != VXC_NO_CONTACT) {
      return cli_lib_error(&err, st);
    }
    if (cli_vtk_region_add(&v->reg, v->q, &m, &o, c, sa, &pa, sb, &pb) != CLI_OK) {
      return CLI_FAIL;
    }
  }
  return CLI_OK;
}


/* The frame's new files: blob[i] body i's (size 0: shown again), blob[nbody] the contact's.
 * Returns 0, or -1 after the message. */
static int frame_encode(task_vtk *v, const vxc_task_record *r, vtk_blob *blob) {
  for (int i = 0; i < v->nbody; i++) {
    const double *pose = r->body[i].pose;
    if (v->last_file[i] >= 0 && memcmp(pose, v->last_pose + 7 * i, 7 * sizeof *pose) == 0) {
      continue;
    }
    const vtk_mesh *m = &v->mesh[i];
    for (size_t j = 0; j < m->np; j++) {
      pose_point(pose, m->point + 3 * j, v->posed + 3 * j);
    }
    if (vtk_mesh_encode(&blob[i], m, v->posed) != 0) {
      fprintf(stderr, "vxc: out of memory\n");
      return -1;
    }
  }
  if (frame_regions(v, r) != CLI_OK) {
    return -1;
  }
  if ((v->reg.n > 0 || v->empty_file < 0) &&
      vtk_region_encode(&blob[v->nbody], v->reg.box, v->reg.tag, v->reg.n) != 0) {
    fprintf(stderr, "vxc: out of memory\n");
    return -1;
  }
  return 0;
}


/* The file name of frame f's body k (k < nbody) or contact (k == nbody). */
static void frame_name(const task_vtk *v, int f, int k, char *buf, size_t size) {
  if (k < v->nbody) {
    snprintf(buf, size, "frame-%06d-body-%d.vtp", f, k);
  } else {
    snprintf(buf, size, "frame-%06d-contact.vtu", f);
  }
}


/* Writes the frame's new files and records which file each part shows. Returns 0 or -1. */
static int frame_write(task_vtk *v, const vxc_task_record *r, const vtk_blob *blob) {
  int f = v->nframe, *file = v->file + (size_t)f * (v->nbody + 1);
  for (int k = 0; k <= v->nbody; k++) {
    if (blob[k].size == 0) {
      file[k] = k < v->nbody ? v->last_file[k] : v->empty_file;
      continue;
    }
    char name[64], path[4400];
    frame_name(v, f, k, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", v->dir, name);
    if (vtk_blob_write(path, &blob[k]) != 0) {
      return -1;
    }
    v->written += (double)blob[k].size;
    file[k] = f;
    if (k < v->nbody) {
      v->last_file[k] = f;
      memcpy(v->last_pose + 7 * k, r->body[k].pose, 7 * sizeof(double));
    } else if (v->reg.n == 0) {
      v->empty_file = f;
    }
  }
  v->t[v->nframe++] = r->t;
  return 0;
}


/* Room for one more frame. Returns 0, or -1 after the message. */
static int frame_room(task_vtk *v) {
  if (v->nframe < v->capframe) {
    return 0;
  }
  int cap = v->capframe ? 2 * v->capframe : 64;
  double *t = realloc(v->t, (size_t)cap * sizeof *t);
  if (t) {
    v->t = t;
  }
  int *file = t ? realloc(v->file, (size_t)cap * (v->nbody + 1) * sizeof *file) : NULL;
  if (!file) {
    fprintf(stderr, "vxc: out of memory\n");
    return -1;
  }
  v->file = file;
  v->capframe = cap;
  return 0;
}


static void warn_cut(const task_vtk *v) {
  char h[32];
  fprintf(stderr,
          "vxc task: warning: the ParaView frames stop at t = %.6g s: the next frame would "
          "bring them past their share of --max-output (%s); %s/bodies.pvd and "
          "%s/contact.pvd play the %d written (record less often, sample coarser with "
          "--vtk-tol, or raise --max-output)\n",
          v->cut_t, human(v->budget, h), v->dir, v->dir, v->nframe);
}


int task_vtk_frame(task_vtk *v, const vxc_task_record *r) {
  if (v->cut) {
    return 1;
  }
  if (frame_room(v) != 0) {
    return -1;
  }
  vtk_blob *blob = calloc((size_t)v->nbody + 1, sizeof *blob);
  if (!blob) {
    fprintf(stderr, "vxc: out of memory\n");
    return -1;
  }
  int rc = frame_encode(v, r, blob);
  double bytes = 0;
  for (int k = 0; k <= v->nbody; k++) {
    bytes += (double)blob[k].size;
  }
  if (rc == 0 && v->written + bytes > v->budget) {
    v->cut = 1;
    v->cut_t = r->t;
    warn_cut(v);
    rc = 1;
  } else if (rc == 0) {
    rc = frame_write(v, r, blob);
  }
  for (int k = 0; k <= v->nbody; k++) {
    vtk_blob_free(&blob[k]);
  }
  free(blob);
  return rc;
}


/* DIR/bodies.pvd (every body a part) or, when contact, DIR/contact.pvd. Returns 0 or -1. */
static int write_series(const task_vtk *v, int contact) {
  int per = contact ? 1 : v->nbody, n = v->nframe * per;
  char **file = calloc((size_t)n + 1, sizeof *file);
  int *part = malloc(((size_t)n + 1) * sizeof *part);
  double *t = malloc(((size_t)n + 1) * sizeof *t);
  int rc = file && part && t ? 0 : -1;
  for (int i = 0; rc == 0 && i < n; i++) {
    int f = i / per, k = contact ? v->nbody : i % per;
    t[i] = v->t[f];
    part[i] = contact ? 0 : k;
    if (!(file[i] = malloc(64))) {
      rc = -1;
    } else {
      frame_name(v, v->file[(size_t)f * (v->nbody + 1) + k], k, file[i], 64);
    }
  }
  if (rc != 0) {
    fprintf(stderr, "vxc: out of memory\n");
  } else {
    char path[4300];
    snprintf(path, sizeof path, "%s/%s.pvd", v->dir, contact ? "contact" : "bodies");
    rc = vtk_write_pvd(path, n, t, part, (const char *const *)file);
  }
  for (int i = 0; file && i < n; i++) {
    free(file[i]);
  }
  free(file);
  free(part);
  free(t);
  return rc;
}


int task_vtk_close(task_vtk *v) {
  if (!v) {
    return 0;
  }
  int rc = write_series(v, 0);
  if (rc == 0) {
    rc = write_series(v, 1);
  }
  if (rc == 0 && v->cut) {
    warn_cut(v);
    rc = 1;
  }
  task_vtk_free(v);
  return rc;
}
