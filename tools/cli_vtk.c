/* cli_vtk.c: the --vtk options of the commands that write ParaView files. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/vtk.h"

/* A solid's default sampling edge: its largest extent over this. */
#define VTK_TOL_DIV 64
/* A closed-form pair's region: the octree's boxes at a 16th of its leaf's largest edge, at
 * most this many boxes classified. */
#define CLI_VTK_COARSE 16
#define CLI_VTK_COARSE_BOXES 200000


void cli_vtk_opts_init(cli_vtk_opts *o) {
  memset(o, 0, sizeof *o);
}


int cli_vtk_opt(int argc, char **argv, int *i, void *ud) {
  cli_vtk_opts *o = ud;
  const char *arg = argv[*i];
  if (strcmp(arg, "--patches") == 0 || strcmp(arg, "--merge-patches") == 0) {
    o->merge = arg[2] == 'm'; /* --patches: the default, kept for older scripts */
    return 1;
  }
  int is_region = strcmp(arg, "--vtk") == 0, is_solids = strcmp(arg, "--vtk-solids") == 0;
  if (!is_region && !is_solids && strcmp(arg, "--vtk-tol") != 0) {
    return 0;
  }
  if (*i + 1 >= argc || argv[*i + 1][0] == '\0') {
    cli_usage_error(argv[0], "option '%s' needs a value", arg);
    return -1;
  }
  const char *val = argv[++*i];
  if (is_region) {
    o->region = val;
  } else if (is_solids) {
    o->solids = val;
  } else if (cli_parse_double(val, &o->tol) != 0 || !(o->tol > 0)) {
    cli_usage_error(argv[0], "--vtk-tol: expected a positive length (m), got '%s'", val);
    return -1;
  }
  return 1;
}


double cli_vtk_tol(const cli_vtk_opts *o, const vxc_solid *s, const vxc_pose *p) {
  if (o->tol > 0) {
    return o->tol;
  }
  double bb[6], ext = 0;
  vxc_solid_aabb(s, p, bb, NULL);
  for (int k = 0; k < 3; k++) {
    ext = fmax(ext, bb[3 + k] - bb[k]);
  }
  return ext / VTK_TOL_DIV;
}


static int write_solids(const cli_vtk_opts *o, const vxc_solid *a, const vxc_pose *pa,
                        const vxc_solid *b, const vxc_pose *pb) {
  vxc_surface s[2];
  memset(s, 0, sizeof s);
  const vxc_solid *solid[2] = {a, b};
  const vxc_pose *pose[2] = {pa, pb};
  int rc = CLI_OK;
  for (int k = 0; k < 2 && rc == CLI_OK; k++) {
    vxc_error err;
    vxc_status st = vxc_solid_surface(solid[k], pose[k], cli_vtk_tol(o, solid[k], pose[k]),
                                      CLI_VTK_MAX_CUBES, &s[k], &err);
    if (st != VXC_OK) {
      rc = cli_lib_error(&err, st);
    }
  }
  const vxc_surface *sp[2] = {&s[0], &s[1]};
  if (rc == CLI_OK && vtk_write_surfaces(o->solids, sp, 2) != 0) {
    rc = CLI_FAIL;
  }
  vxc_surface_free(&s[0]);
  vxc_surface_free(&s[1]);
  return rc;
}


/* Room for n more boxes in r. Returns 0, or -1 when out of memory. */
static int region_room(cli_vtk_region *r, size_t n) {
  if (r->n + n <= r->cap) {
    return 0;
  }
  size_t cap = 2 * (r->n + n);
  vxc_region_box *b = realloc(r->box, cap * sizeof *b);
  if (b) {
    r->box = b;
  }
  vtk_region_tag *t = b ? realloc(r->tag, cap * sizeof *t) : NULL;
  if (!t) {
    return -1;
  }
  r->tag = t;
  r->cap = cap;
  return 0;
}


/* Appends n boxes, each with pair and (when >= -1) patch replaced and the tag {contact,
 * closed_form}. Returns 0 or -1. */
static int region_append(cli_vtk_region *r, const vxc_region_box *b, size_t n, int pair, int patch,
                         int contact, int closed_form) {
  if (region_room(r, n) != 0) {
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    vxc_region_box *x = &r->box[r->n];
    *x = b[i];
    if (pair >= 0) {
      x->pair = pair;
      x->patch = patch;
    }
    r->tag[r->n++] = (vtk_region_tag){contact, closed_form};
  }
  return 0;
}


/* Pair k of m, measured in closed form with the one leaf `leaf`: the octree's boxes of that
 * cell pair at a coarse edge. Returns CLI_OK or CLI_FAIL after the message. */
static int region_coarse(cli_vtk_region *r, const vxc_pair_metrics *p, int k,
                         const vxc_region_box *leaf, const vxc_query_options *opt, int contact,
                         const vxc_solid *a, const vxc_pose *pa, const vxc_solid *b,
                         const vxc_pose *pb) {
  vxc_error err;
  vxc_status st = VXC_OK;
  if (!r->coarse) {
    st = vxc_query_create(NULL, &r->coarse, &err);
  }
  vxc_query_options o = *opt;
  double e = fmax(leaf->extent[0], fmax(leaf->extent[1], leaf->extent[2]));
  o.voxel = e / CLI_VTK_COARSE;
  o.rtol = 0;
  o.closed_form = 0;
  o.linear_leaves = 1; /* its voxels, not one leaf integrated about the bore's axis */
  o.region = 1;
  o.patches = 0;
  o.threads = 1;
  o.max_boxes = CLI_VTK_COARSE_BOXES;
  vxc_pair_metrics pm;
  if (st == VXC_OK && e > 0) {
    st = vxc_query_pair(r->coarse, a, p->cell_a, pa, b, p->cell_b, pb, &o, 0, &pm, &err);
  }
  if (st != VXC_OK && st != VXC_NO_CONTACT) {
    return cli_lib_error(&err, st);
  }
  const vxc_region_box *box = NULL;
  size_t n = 0;
  if (e > 0) {
    vxc_query_region(r->coarse, &box, &n, NULL);
  }
  if (n == 0) { /* nothing the octree can see at that edge: the leaf itself */
    box = leaf;
    n = 1;
  }
  if (region_append(r, box, n, k, leaf->patch, contact, p->closed_form) != 0) {
    fprintf(stderr, "vxc: out of memory\n");
    return CLI_FAIL;
  }
  return CLI_OK;
}


int cli_vtk_region_add(cli_vtk_region *r, const vxc_query *q, const vxc_metrics *m,
                       const vxc_query_options *opt, int contact, const vxc_solid *a,
                       const vxc_pose *pa, const vxc_solid *b, const vxc_pose *pb) {
  const vxc_region_box *box = NULL;
  size_t n = 0;
  vxc_query_region(q, &box, &n, NULL);
  for (size_t i = 0; i < n; i++) {
    const vxc_pair_metrics *p = box[i].pair < m->npair ? &m->pair[box[i].pair] : NULL;
    int rc = CLI_OK;
    if (p && p->closed_form) {
      rc = region_coarse(r, p, box[i].pair, &box[i], opt, contact, a, pa, b, pb);
    } else if (region_append(r, &box[i], 1, -1, 0, contact, 0) != 0) {
      fprintf(stderr, "vxc: out of memory\n");
      rc = CLI_FAIL;
    }
    if (rc != CLI_OK) {
      return rc;
    }
  }
  return CLI_OK;
}


void cli_vtk_region_free(cli_vtk_region *r) {
  free(r->box);
  free(r->tag);
  vxc_query_free(r->coarse);
  memset(r, 0, sizeof *r);
}


int cli_vtk_write(const cli_vtk_opts *o, const vxc_query *q, const vxc_metrics *m,
                  const vxc_query_options *opt, const vxc_solid *a, const vxc_pose *pa,
                  const vxc_solid *b, const vxc_pose *pb) {
  if (o->region) {
    cli_vtk_region r;
    memset(&r, 0, sizeof r);
    int rc = m ? cli_vtk_region_add(&r, q, m, opt, 0, a, pa, b, pb) : CLI_OK;
    if (rc == CLI_OK && vtk_write_region(o->region, r.box, r.tag, r.n) != 0) {
      rc = CLI_FAIL;
    }
    cli_vtk_region_free(&r);
    if (rc != CLI_OK) {
      return rc;
    }
  }
  if (o->solids) {
    return write_solids(o, a, pa, b, pb);
  }
  return CLI_OK;
}
