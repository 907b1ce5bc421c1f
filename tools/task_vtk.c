/* task_vtk.c: ParaView frames of a task run (vxc task --vtk DIR).
 *
 * Each body's surface is sampled once in its model frame and carried to each record's pose;
 * each contact's region is measured again at the record's poses (vxc_query_run with the
 * contact's options and `region`), so a frame shows exactly what the query integrated. */
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
  vxc_surface *model; /* per body, model frame */
  vxc_surface *posed; /* per body, scratch: the record's pose */
  vxc_query *q;
  vxc_region_box *reg; /* the frame's regions, every contact */
  int *reg_contact;
  size_t nreg, capreg;
  double *t; /* the frames' times */
  int nframe, capframe;
};


/* Frees v without writing anything. */
static void vtk_free(task_vtk *v) {
  for (int i = 0; i < v->nbody; i++) {
    if (v->model) {
      vxc_surface_free(&v->model[i]);
    }
    if (v->posed) {
      free(v->posed[i].v);
    }
  }
  free(v->model);
  free(v->posed);
  vxc_query_free(v->q);
  free(v->reg);
  free(v->reg_contact);
  free(v->t);
  free(v->dir);
  free(v);
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
  v->dir = malloc(strlen(dir) + 1);
  v->model = calloc((size_t)v->nbody, sizeof *v->model);
  v->posed = calloc((size_t)v->nbody, sizeof *v->posed);
  if (!v->dir || !v->model || !v->posed || vxc_query_create(NULL, &v->q, NULL) != VXC_OK) {
    fprintf(stderr, "vxc: out of memory\n");
    vtk_free(v);
    return NULL;
  }
  strcpy(v->dir, dir);
  cli_vtk_opts o;
  cli_vtk_opts_init(&o);
  o.tol = tol;
  for (int i = 0; i < v->nbody; i++) {
    vxc_error err;
    const vxc_solid *s = vxc_task_body_solid(t, i);
    vxc_status st =
        vxc_solid_surface(s, NULL, cli_vtk_tol(&o, s, NULL), CLI_VTK_MAX_CUBES, &v->model[i], &err);
    if (st == VXC_OK) {
      v->posed[i] = v->model[i];
      v->posed[i].v = malloc(9 * v->model[i].ntri * sizeof(double) + 1);
      st = v->posed[i].v ? VXC_OK : VXC_ERR_NOMEM;
      snprintf(err.message, sizeof err.message, "out of memory");
    }
    if (st != VXC_OK) {
      cli_lib_error(&err, st);
      vtk_free(v);
      return NULL;
    }
  }
  return v;
}


/* x = R(q) p + c for a unit quaternion q = (w, x, y, z). */
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


static vxc_pose to_pose(const double p[7]) {
  vxc_pose x = {{p[0], p[1], p[2]}, {p[3], p[4], p[5], p[6]}};
  return x;
}


/* Appends the region the query just measured, as contact c. Returns 0 or -1. */
static int keep_region(task_vtk *v, int c) {
  const vxc_region_box *b;
  size_t n;
  vxc_query_region(v->q, &b, &n, NULL);
  if (n == 0) {
    return 0; /* nothing measured (b may be NULL) */
  }
  if (v->nreg + n > v->capreg) {
    size_t cap = 2 * (v->nreg + n);
    vxc_region_box *r = realloc(v->reg, cap * sizeof *r);
    if (r) {
      v->reg = r;
    }
    int *rc = r ? realloc(v->reg_contact, cap * sizeof *rc) : NULL;
    if (!rc) {
      return -1;
    }
    v->reg_contact = rc;
    v->capreg = cap;
  }
  memcpy(v->reg + v->nreg, b, n * sizeof *b);
  for (size_t i = 0; i < n; i++) {
    v->reg_contact[v->nreg + i] = c;
  }
  v->nreg += n;
  return 0;
}


/* The regions of every contact at the record's poses. Returns CLI_OK or CLI_FAIL. */
static int frame_regions(task_vtk *v, const vxc_task_record *r) {
  v->nreg = 0;
  for (int c = 0; c < v->ncontact; c++) {
    int a, b;
    vxc_query_options o;
    vxc_task_contact_bodies(v->task, c, &a, &b, NULL);
    vxc_task_contact_query(v->task, c, &o, NULL);
    o.region = 1;
    o.patches = 1; /* the frames show each contact's patches */
    vxc_pose pa = to_pose(r->body[a].pose), pb = to_pose(r->body[b].pose);
    vxc_metrics m;
    vxc_error err;
    vxc_status st = vxc_query_run(v->q, vxc_task_body_solid(v->task, a), &pa,
                                  vxc_task_body_solid(v->task, b), &pb, &o, NULL, NULL, &m, &err);
    if (st != VXC_OK && st != VXC_NO_CONTACT) {
      return cli_lib_error(&err, st);
    }
    if (keep_region(v, c) != 0) {
      fprintf(stderr, "vxc: out of memory\n");
      return CLI_FAIL;
    }
  }
  return CLI_OK;
}


int task_vtk_frame(task_vtk *v, const vxc_task_record *r) {
  if (v->nframe == v->capframe) {
    int cap = v->capframe ? 2 * v->capframe : 64;
    double *t = realloc(v->t, (size_t)cap * sizeof *t);
    if (!t) {
      fprintf(stderr, "vxc: out of memory\n");
      return -1;
    }
    v->t = t;
    v->capframe = cap;
  }
  const vxc_surface **s = malloc((size_t)v->nbody * sizeof *s + 1);
  if (!s) {
    fprintf(stderr, "vxc: out of memory\n");
    return -1;
  }
  for (int i = 0; i < v->nbody; i++) {
    for (size_t j = 0; j < 3 * v->model[i].ntri; j++) {
      pose_point(r->body[i].pose, v->model[i].v + 3 * j, v->posed[i].v + 3 * j);
    }
    s[i] = &v->posed[i];
  }
  char path[4300];
  snprintf(path, sizeof path, "%s/frame-%06d-bodies.vtp", v->dir, v->nframe);
  int rc = vtk_write_surfaces(path, s, v->nbody);
  free(s);
  if (rc == 0 && frame_regions(v, r) != CLI_OK) {
    rc = -1;
  }
  snprintf(path, sizeof path, "%s/frame-%06d-contact.vtu", v->dir, v->nframe);
  if (rc == 0) {
    rc = vtk_write_region(path, v->reg, v->reg_contact, v->nreg);
  }
  if (rc == 0) {
    v->t[v->nframe++] = r->t;
  }
  return rc;
}


/* DIR/NAME.pvd listing frame-NNNNNN-NAME.EXT. */
static int write_series(const task_vtk *v, const char *name, const char *ext) {
  char path[4300];
  char **file = malloc((size_t)v->nframe * sizeof *file + 1);
  int *part = calloc((size_t)v->nframe + 1, sizeof *part);
  int rc = file && part ? 0 : -1;
  int n = 0;
  for (; rc == 0 && n < v->nframe; n++) {
    file[n] = malloc(64);
    if (!file[n]) {
      rc = -1;
      break;
    }
    snprintf(file[n], 64, "frame-%06d-%s.%s", n, name, ext);
  }
  if (rc != 0) {
    fprintf(stderr, "vxc: out of memory\n");
  } else {
    snprintf(path, sizeof path, "%s/%s.pvd", v->dir, name);
    rc = vtk_write_pvd(path, v->nframe, v->t, part, (const char *const *)file);
  }
  for (int i = 0; i < n; i++) {
    free(file[i]);
  }
  free(file);
  free(part);
  return rc;
}


int task_vtk_close(task_vtk *v) {
  if (!v) {
    return 0;
  }
  int rc = write_series(v, "bodies", "vtp");
  if (rc == 0) {
    rc = write_series(v, "contact", "vtu");
  }
  vtk_free(v);
  return rc;
}
