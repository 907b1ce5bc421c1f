/* cmd_info.c: `vxc info` (what a model holds) and `vxc check` (is it valid). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/cli.h"

/* Bounding boxes are padded by a few rounding units so that they always hold the cell;
 * show such residues as zero. */
static double tidy(double x) {
  return fabs(x) < 1e-12 ? 0.0 : x;
}


/* Prints a primitive's parameters with the names the model-file grammar uses. */
static void print_prim(const vxc_prim_info *p) {
  printf("      %s(%s", p->complement ? "not " : "", p->kind);
  if (strcmp(p->kind, "slab") == 0) {
    printf(" %c %.6g %.6g", "xyz"[(int)p->param[0] % 3], p -> param[1], p -> param[2]);
  } else if (strcmp(p->kind, "cone") == 0) {
    printf(" %.6g deg", p->param[0] * 180.0 / M_PI);
  } else if (strcmp(p->kind, "mesh") == 0) {
    printf(" \"%s\" (scale %.6g)", p->mesh_path ? p->mesh_path : "?", p->param[0]);
  } else {
    for (int i = 0; i < p->nparam; i++) {
      printf(" %.6g", p->param[i]);
    }
  }
  printf(")");
  const double *t = p->move.p, *q = p->move.q;
  if (t[0] != 0 || t[1] != 0 || t[2] != 0) {
    printf(" moved by (%.6g, %.6g, %.6g) m", t[0], t[1], t[2]);
  }
  if (fabs(q[0]) < 1) {
    double ang = 2 * acos(fmin(1.0, fabs(q[0]))) * 180.0 / M_PI;
    double s = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (ang > 1e-9 && s > 0) {
      printf(" rotated %.6g deg about (%.4g, %.4g, %.4g)", ang, q[1] / s, q[2] / s, q[3] / s);
    }
  }
  printf("\n");
  if (p->mesh_triangles > 0) {
    printf("        %s%s, %d triangles, volume %.6g m^3, area %.6g m^2, %s\n", p->mesh_format,
           p->mesh_gzip ? " (gzip)" : "", p->mesh_triangles, p->mesh_volume, p->mesh_area,
           p->mesh_convex ? "convex" : "not convex");
    if (p->mesh_degenerate > 0) {
      printf("        warning: %d degenerate triangle%s dropped\n", p->mesh_degenerate,
             p->mesh_degenerate == 1 ? "" : "s");
    }
    if (p->mesh_flipped) {
      printf("        note: the mesh was inside out and was turned outward\n");
    }
  }
}


static int info_run(int argc, char **argv) {
  int nfiles = 0, failed = 0;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cli_usage_error("info", "unknown option '%s'", argv[i]);
    }
    nfiles++;
  }
  if (nfiles == 0) {
    return cli_usage_error("info", "no model file given");
  }
  for (int i = 1; i < argc; i++) {
    vxc_solid *s = NULL;
    vxc_error err;
    vxc_status st = cli_solid_load(argv[i], &s, &err);
    if (st != VXC_OK) {
      cli_lib_error(&err, st);
      failed++;
      continue;
    }
    int n = vxc_solid_cell_count(s);
    printf("%s: solid '%s'", argv[i], vxc_solid_name(s));
    if (vxc_solid_density(s) > 0) {
      printf(", density %g kg/m^3", vxc_solid_density(s));
    }
    printf(", %d cell%s\n", n, n == 1 ? "" : "s");
    for (int c = 0; c < n; c++) {
      vxc_cell_info ci;
      vxc_solid_cell(s, c, &ci, NULL);
      printf("  cell '%s' (line %d): %d primitive%s, %s, libccd sees %s %s\n", ci.name, ci.line,
             ci.nprim, ci.nprim == 1 ? "" : "s", ci.convex ? "convex" : "not convex",
             ci.exact_hull ? "it exactly as a" : "a bounding", ci.hull);
      for (int k = 0; k < ci.nprim; k++) {
        vxc_prim_info pi;
        vxc_solid_prim(s, c, k, &pi, NULL);
        print_prim(&pi);
      }
      printf("    bounding box (m): x [%.6g, %.6g]  y [%.6g, %.6g]  z [%.6g, %.6g]\n",
             tidy(ci.aabb[0]), tidy(ci.aabb[3]), tidy(ci.aabb[1]), tidy(ci.aabb[4]),
             tidy(ci.aabb[2]), tidy(ci.aabb[5]));
    }
    double box[6];
    vxc_solid_aabb(s, NULL, box, NULL);
    printf("  solid bounding box (m): x [%.6g, %.6g]  y [%.6g, %.6g]  z [%.6g, %.6g]\n",
           tidy(box[0]), tidy(box[3]), tidy(box[1]), tidy(box[4]), tidy(box[2]), tidy(box[5]));
    vxc_solid_free(s);
  }
  return failed ? CLI_FAIL : CLI_OK;
}


static int check_run(int argc, char **argv) {
  int nfiles = 0, failed = 0, quiet = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) {
      quiet = 1;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cli_usage_error("check", "unknown option '%s'", argv[i]);
    } else {
      nfiles++;
    }
  }
  if (nfiles == 0) {
    return cli_usage_error("check", "no model file given");
  }
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1] != '\0') {
      continue;
    }
    vxc_solid *s = NULL;
    vxc_error err;
    vxc_status st = cli_solid_load(argv[i], &s, &err);
    if (st != VXC_OK) {
      cli_lib_error(&err, st);
      failed++;
      continue;
    }
    cli_warn_units("check", argv[i], s);
    if (cli_warn_overlaps("check", argv[i], s) < 0) {
      failed++;
    } else if (!quiet) {
      printf("%s: ok (solid '%s', %d cells)\n", argv[i], vxc_solid_name(s),
             vxc_solid_cell_count(s));
    }
    vxc_solid_free(s);
  }
  return failed ? CLI_FAIL : CLI_OK;
}


const cli_command cli_cmd_info = {
    "info", "show the cells, primitives and bounding boxes of model files",
    "usage: vxc info FILE.vxm...\n\n"
    "Reads each model file and prints its solid, its cells with their primitives (as\n"
    "written, SI units; cone angles in degrees), whether each cell is convex, the convex\n"
    "stand-in libccd uses for it, and bounding boxes in the solid's frame.\n" CLI_STDIN_HELP
    "Exit status: 0 when every file loads, 1 otherwise (each error names file, line and\n"
    "column), 2 on a usage error.\n",
    info_run};

const cli_command cli_cmd_check = {
    "check", "validate model files; print every error",
    "usage: vxc check [-q|--quiet] FILE.vxm...\n\n"
    "Reads each model file and reports either 'ok' or the first error in it, with file,\n"
    "line and column, and warns of cells of one solid that overlap (their volume would\n"
    "count twice in its mass). With --quiet only errors and warnings are printed.\n" CLI_STDIN_HELP
    "Exit status: 0 when every file is valid, 1 otherwise, 2 on a usage error.\n",
    check_run};
