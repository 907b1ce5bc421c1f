/* cli_vtk.c: the --vtk options of the commands that write ParaView files. */
#include <math.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/vtk.h"

/* A solid's default sampling edge: its largest extent over this. */
#define VTK_TOL_DIV 64


void cli_vtk_opts_init(cli_vtk_opts *o) {
  memset(o, 0, sizeof *o);
}


int cli_vtk_opt(int argc, char **argv, int *i, void *ud) {
  cli_vtk_opts *o = ud;
  const char *arg = argv[*i];
  if (strcmp(arg, "--patches") == 0) {
    o->patches = 1;
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


int cli_vtk_write(const cli_vtk_opts *o, const vxc_query *q, const vxc_solid *a, const vxc_pose *pa,
                  const vxc_solid *b, const vxc_pose *pb) {
  if (o->region) {
    const vxc_region_box *box = NULL;
    size_t n = 0;
    if (vxc_query_region(q, &box, &n, NULL) != VXC_OK || vtk_write_region(o->region, box, NULL, n) != 0) {
      return CLI_FAIL;
    }
  }
  if (o->solids) {
    return write_solids(o, a, pa, b, pb);
  }
  return CLI_OK;
}
