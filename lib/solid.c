/* solid.c: the public face of solids (vxc_solid wraps a geometry-layer solid). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "geom/geom.h"
#include "lib/internal.h"

static const char *hull_names[] = {"box",     "sphere",  "ellipsoid", "cylinder",
                                   "frustum", "segment", "torus",     "vertex hull"};

const char *vxc_version(void) {
  return VXC_VERSION;
}


const char *vxc_nearest_name(const char *name, const char *const *names, int n) {
  return n > 0 ? vxg_nearest_name(name, names, n) : NULL;
}


const char *vxc_status_str(vxc_status status) {
  switch (status) {
    case VXC_OK:
      return "success";
    case VXC_NO_CONTACT:
      return "no contact";
    case VXC_ERR_NOMEM:
      return "out of memory";
    case VXC_ERR_ARG:
      return "invalid argument";
    case VXC_ERR_IO:
      return "input/output error";
    case VXC_ERR_FORMAT:
      return "malformed file";
    case VXC_ERR_GEOMETRY:
      return "invalid geometry";
    case VXC_ERR_LIMIT:
      return "capacity exceeded";
    case VXC_ERR_NUMERIC:
      return "numerical failure";
    case VXC_ERR_STOPPED:
      return "stopped";
  }
  return "unknown status";
}


vxc_pose vxc_pose_identity(void) {
  vxc_pose p = {{0, 0, 0}, {1, 0, 0, 0}};
  return p;
}


vxc_status vxci_pose_xform(const vxc_pose *pose, vxg_xform *x, const char *what, vxc_error *err) {
  if (!pose) {
    vxg_xform_identity(x);
    return VXC_OK;
  }
  for (int i = 0; i < 3; i++) {
    if (!(fabs(pose->p[i]) <= VXG_MAX_LENGTH)) {
      return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                           "%s: position %g m is not finite or beyond %g m (as in model files)",
                           what, pose->p[i], VXG_MAX_LENGTH);
    }
  }
  vxg_xform t;
  if (vxg_xform_quat(&t, pose->q[0], pose->q[1], pose->q[2], pose->q[3]) != 0) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: quaternion is zero or not finite",
                         what);
  }
  memcpy(t.t, pose->p, sizeof t.t);
  *x = t;
  return VXC_OK;
}


static void *libc_realloc(void *ud, void *ptr, size_t size);

/* A new, empty solid shell with the caller's allocator (NULL: the C library's), for the
 * three constructors below; `what` names the input in the out-of-memory message. */
static vxc_status solid_shell(const vxc_allocator *al, const char *what, vxc_solid **out,
                              vxc_error *err) {
  vxc_allocator a = {libc_realloc, NULL};
  if (al && al->realloc) {
    a = *al;
  }
  vxc_solid *s = a.realloc(a.ud, NULL, sizeof *s);
  if (!s) {
    return vxg_error_set(err, VXC_ERR_NOMEM, what, 0, 0, "out of memory");
  }
  memset(s, 0, sizeof *s);
  s->al = a;
  *out = s;
  return VXC_OK;
}


/* Frees a shell whose solid was never built (geom NULL) or is freed already. */
static void solid_shell_free(vxc_solid *s) {
  vxc_allocator a = s->al;
  a.realloc(a.ud, s, 0);
}


vxc_status vxc_solid_load(const char *path, const vxc_allocator *al, vxc_solid **out,
                          vxc_error *err) {
  if (!path || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_solid_load: path and out must not be NULL");
  }
  vxc_solid *s = NULL;
  vxc_status st = solid_shell(al, path, &s, err);
  if (st != VXC_OK) {
    return st;
  }
  st = vxg_model_read(&s->al, path, &s->geom, err);
  if (st != VXC_OK) {
    solid_shell_free(s);
    return st;
  }
  *out = s;
  return VXC_OK;
}


vxc_status vxc_solid_parse(const char *text, size_t len, const char *name, const vxc_allocator *al,
                           vxc_solid **out, vxc_error *err) {
  if (!text || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_solid_parse: text and out must not be NULL");
  }
  vxc_solid *s = NULL;
  vxc_status st = solid_shell(al, name, &s, err);
  if (st != VXC_OK) {
    return st;
  }
  st = vxg_model_parse(&s->al, text, len, name ? name : "(text)", NULL, &s->geom, err);
  if (st != VXC_OK) {
    solid_shell_free(s);
    return st;
  }
  *out = s;
  return VXC_OK;
}


vxc_status vxc_solid_from_mesh(const double *v, int nv, const int *tri, int nt, const char *name,
                               const vxc_allocator *al, vxc_solid **out, vxc_error *err) {
  if (!name) {
    name = "mesh";
  }
  if (!out || nv < 0 || nt < 0 || (nv > 0 && !v) || (nt > 0 && !tri)) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_solid_from_mesh: out must not be NULL, counts must not be "
                         "negative, arrays must not be NULL when their count is positive");
  }
  if (strlen(name) >= VXG_NAME_MAX) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0,
                         "vxc_solid_from_mesh: name longer than %d bytes", VXG_NAME_MAX - 1);
  }
  vxc_solid *s = NULL;
  vxc_status st = solid_shell(al, name, &s, err);
  if (st != VXC_OK) {
    return st;
  }
  struct vxg_mesh *m = NULL;
  vxg_cell *c = NULL;
  vxg_prim p;
  const double one = 1;
  st = vxg_solid_create(&s->al, name, &s->geom);
  if (st != VXC_OK) {
    st = vxg_error_set(err, st, name, 0, 0, "out of memory");
  }
  if (st == VXC_OK) {
    st = vxg_mesh_create(&s->al, v, nv, tri, nt, 1, name, &m, err);
  }
  if (st == VXC_OK) {
    st = vxg_solid_add_cell(s->geom, name, NULL, &c, err);
  }
  if (st == VXC_OK) {
    st = vxg_prim_init(&p, VXG_MESH, &one, 1, 0, NULL, err);
  }
  if (st == VXC_OK) {
    p.mesh = m;
    m = NULL; /* the cell owns it from here, also on failure of the next call */
    st = vxg_cell_add_prim(c, &p, err);
    if (st != VXC_OK) {
      vxg_mesh_free(p.mesh);
    }
  }
  if (st == VXC_OK) {
    st = vxg_cell_finish(c, name, err);
  }
  if (st != VXC_OK) {
    vxg_mesh_free(m);
    vxg_solid_free(s->geom);
    solid_shell_free(s);
    return st;
  }
  *out = s;
  return VXC_OK;
}


void vxc_solid_free(vxc_solid *solid) {
  if (!solid) {
    return;
  }
  vxg_solid_free(solid->geom);
  solid_shell_free(solid);
}


const char *vxc_solid_name(const vxc_solid *solid) {
  return solid->geom->name;
}


double vxc_solid_density(const vxc_solid *solid) {
  return solid->geom->density;
}


int vxc_solid_cell_count(const vxc_solid *solid) {
  return solid->geom->ncell;
}


/* A cell index's check: VXC_ERR_ARG naming fn and the index unless 0 <= cell < ncell. */
static vxc_status check_cell(const char *fn, const vxc_solid *solid, int cell, vxc_error *err) {
  if (cell < 0 || cell >= solid->geom->ncell) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: cell %d is not in 0 .. %d", fn, cell,
                         solid->geom->ncell - 1);
  }
  return VXC_OK;
}


vxc_status vxc_solid_cell(const vxc_solid *solid, int index, vxc_cell_info *out, vxc_error *err) {
  if (!solid || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_solid_cell: %s is NULL",
                         !solid ? "solid" : "out");
  }
  vxc_status st = check_cell("vxc_solid_cell", solid, index, err);
  if (st != VXC_OK) {
    return st;
  }
  const vxg_cell *c = solid->geom->cell[index];
  vxc_cell_info info;
  info.name = c->name;
  info.line = c->line;
  info.nprim = c->nprim;
  info.convex = c->convex;
  info.exact_hull = c->hull.exact;
  info.hull = hull_names[c->hull.kind];
  vxg_cell_aabb(c, &c->pose, info.aabb);
  *out = info;
  return VXC_OK;
}


vxc_status vxc_solid_prim(const vxc_solid *solid, int cell, int prim, vxc_prim_info *out,
                          vxc_error *err) {
  static const char fn[] = "vxc_solid_prim";
  if (!solid || !out) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: %s is NULL", fn,
                         !solid ? "solid" : "out");
  }
  vxc_status st = check_cell(fn, solid, cell, err);
  if (st != VXC_OK) {
    return st;
  }
  const vxg_cell *c = solid->geom->cell[cell];
  if (prim < 0 || prim >= c->nprim) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "%s: primitive %d of cell %d is not in 0 .. %d",
                         fn, prim, cell, c->nprim - 1);
  }
  const vxg_prim *p = &c->prim[prim];
  vxc_prim_info info;
  memset(&info, 0, sizeof info);
  info.kind = vxg_prim_kind_name(p->kind);
  info.complement = p->complement;
  info.nparam = vxg_prim_kind_nparam(p->kind);
  memcpy(info.param, p->param, sizeof info.param);
  info.mesh_path = p->mesh_path;
  if (p->mesh) {
    vxg_mesh_info mi;
    vxg_mesh_get_info(p->mesh, &mi);
    info.mesh_format = mi.format;
    info.mesh_gzip = mi.gzip;
    info.mesh_triangles = mi.ntri;
    info.mesh_volume = mi.volume;
    info.mesh_area = mi.area;
    memcpy(info.mesh_aabb, mi.aabb, sizeof info.mesh_aabb);
    info.mesh_convex = mi.convex;
    info.mesh_degenerate = mi.ndegenerate;
    info.mesh_flipped = mi.flipped;
  }
  memcpy(info.move.p, p->move.t, sizeof info.move.p);
  vxg_xform_to_quat(&p->move, info.move.q);
  *out = info;
  return VXC_OK;
}


vxc_status vxc_solid_aabb(const vxc_solid *solid, const vxc_pose *pose, double aabb[6],
                          vxc_error *err) {
  vxg_xform x;
  if (!solid || !aabb) {
    return vxg_error_set(err, VXC_ERR_ARG, NULL, 0, 0, "vxc_solid_aabb: %s is NULL",
                         !solid ? "solid" : "aabb");
  }
  vxc_status st = vxci_pose_xform(pose, &x, "vxc_solid_aabb: pose", err);
  if (st != VXC_OK) {
    return st;
  }
  double box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < solid->geom->ncell; i++) {
    const vxg_cell *c = solid->geom->cell[i];
    vxg_xform to_world;
    vxg_xform_compose(&to_world, &x, &c->pose);
    double b[6];
    vxg_cell_aabb(c, &to_world, b);
    for (int k = 0; k < 3; k++) {
      box[k] = fmin(box[k], b[k]);
      box[k + 3] = fmax(box[k + 3], b[k + 3]);
    }
  }
  memcpy(aabb, box, sizeof box);
  return VXC_OK;
}


int vxc_solid_units_suspect(const vxc_solid *solid, char *why, size_t size) {
  double box[6];
  if (!solid || solid->geom->unit > 0 || vxc_solid_aabb(solid, NULL, box, NULL) != VXC_OK) {
    return 0;
  }
  double e[3] = {box[3] - box[0], box[4] - box[1], box[5] - box[2]};
  double extent = fmax(e[0], fmax(e[1], e[2])), rho = solid->geom->density;
  double mass = rho * e[0] * e[1] * e[2];
  if (!(extent > VXC_UNITS_EXTENT) || (rho > 0 && !(mass > VXC_UNITS_MASS))) {
    return 0;
  }
  if (why && size > 0) {
    char heavy[128] = "";
    if (rho > 0) {
      snprintf(heavy, sizeof heavy, " and up to %.3g kg at %g kg/m^3", mass, rho);
    }
    snprintf(why, size,
             "solid '%s' is %.4g m across%s: lengths are metres; if it is drawn in "
             "millimetres, add (units mm) to its model file (or (units m) to say metres)",
             solid->geom->name, extent, heavy);
  }
  return 1;
}


static void *libc_realloc(void *ud, void *ptr, size_t size) {
  (void)ud;
  return vxg_realloc(NULL, ptr, size);
}
