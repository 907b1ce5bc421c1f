/* cmd_mass.c: `vxc mass`: volume, centroid and inertia of each cell and of the solid, with
 * the certified volume bracket (and mass and mass inertia with a density). */
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static void print_props(const char *label, const vxc_mass_props *m) {
  printf("  %-14s V = %.9g m^3  in [%.9g, %.9g]%s\n", label, m->volume, m->volume_lo, m->volume_hi,
         m->capped ? " (CAPPED: less accurate than asked)" : "");
  printf("  %-14s centroid (%.6g, %.6g, %.6g) m\n", "", m->centroid[0], m->centroid[1],
         m->centroid[2]);
  printf("  %-14s J about the centroid (m^5): [%.6g %.6g %.6g; %.6g %.6g %.6g; %.6g %.6g %.6g]\n",
         "", m->inertia[0], m->inertia[1], m->inertia[2], m->inertia[3], m->inertia[4],
         m->inertia[5], m->inertia[6], m->inertia[7], m->inertia[8]);
}


static void json_props(const vxc_mass_props *m) {
  const double vol[4] = {m->volume, m->volume_lo, m->volume_hi, m->error_estimate};
  cli_json_measure(stdout, vol, m->centroid, m->inertia);
  printf(", \"capped\": %s", m->capped ? "true" : "false");
}


static void print_json(const vxc_solid *s, const vxc_mass_props *cell,
                       const vxc_mass_props *total) {
  printf("{\"cells\": [");
  for (int c = 0; c < vxc_solid_cell_count(s); c++) {
    vxc_cell_info ci;
    vxc_solid_cell(s, c, &ci, NULL);
    printf("%s{\"name\": ", c ? ", " : "");
    cli_json_str(stdout, ci.name);
    printf(", ");
    json_props(&cell[c]);
    printf("}");
  }
  printf("], \"total\": {");
  json_props(total);
  if (total->density > 0) {
    printf(", \"mass\": ");
    cli_json_num(stdout, total->mass);
    printf(", \"mass_inertia\": ");
    cli_json_mat3(stdout, total->mass_inertia);
  }
  printf(", \"time_ms\": ");
  cli_json_num(stdout, total->time_ms);
  printf("}}\n");
}


static void print_table(const char *file, const vxc_solid *s, const vxc_mass_props *cell,
                        const vxc_mass_props *total) {
  printf("%s: solid '%s'", file, vxc_solid_name(s));
  if (total->density > 0) {
    printf(", density %g kg/m^3", total->density);
  }
  printf(" (unit density for V, centroid and J)\n");
  for (int c = 0; c < vxc_solid_cell_count(s); c++) {
    vxc_cell_info ci;
    vxc_solid_cell(s, c, &ci, NULL);
    char label[80];
    snprintf(label, sizeof label, "cell %s", ci.name);
    print_props(label, &cell[c]);
  }
  print_props("solid", total);
  if (total->density > 0) {
    const double *I = total->mass_inertia;
    printf(
        "  %-14s mass %.9g kg, inertia about the centroid (kg m^2): "
        "[%.6g %.6g %.6g; %.6g %.6g %.6g; %.6g %.6g %.6g]\n",
        "", total->mass, I[0], I[1], I[2], I[3], I[4], I[5], I[6], I[7], I[8]);
  }
  printf("  %-14s %lld boxes, %lld boundary leaves, %.3g ms\n", "", total->boxes, total->leaves,
         total->time_ms);
}


static int mass_run(int argc, char **argv) {
  cli_geom_opts o;
  cli_geom_opts_init(&o);
  const char *file = NULL;
  double density = 0;
  for (int i = 1; i < argc; i++) {
    int r = cli_geom_opt("mass", argc, argv, &i, &o, 0);
    if (r < 0) {
      return CLI_USAGE;
    }
    if (r > 0) {
      continue;
    }
    if (strcmp(argv[i], "--density") == 0) {
      if (i + 1 >= argc || cli_parse_double(argv[i + 1], &density) != 0 || !(density > 0)) {
        return cli_usage_error("mass", "--density: expected a positive number (kg/m^3)");
      }
      i++;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cli_usage_error("mass", "unknown option '%s'", argv[i]);
    } else if (file) {
      return cli_usage_error("mass", "one model file at a time ('%s' and '%s')", file, argv[i]);
    } else {
      file = argv[i];
    }
  }
  if (!file) {
    return cli_usage_error("mass", "no model file given");
  }
  vxc_error err;
  vxc_solid *s = NULL;
  vxc_query *q = NULL;
  vxc_mass_props *cell = NULL;
  char doing[4200];
  snprintf(doing, sizeof doing, "loading %s", file);
  vxc_status st = cli_solid_load(file, &s, &err);
  if (st != VXC_OK) {
    return cli_fail("mass", doing, &err, st);
  }
  cli_memory_query(&o.query);
  st = vxc_query_create(cli_allocator(), &q, &err);
  if (st != VXC_OK) {
    vxc_solid_free(s);
    return cli_fail("mass", "making the query", &err, st);
  }
  /* everything is computed before anything is printed: a failure leaves no half output */
  int n = vxc_solid_cell_count(s), rc = CLI_OK, capped = 0;
  cli_warn_units("mass", file, s);
  if (cli_warn_overlaps("mass", file, s) < 0) {
    rc = CLI_FAIL;
    goto done;
  }
  vxc_mass_props total;
  cell = malloc(sizeof *cell * (size_t)(n > 0 ? n : 1));
  if (!cell) {
    rc = cli_lib_error(NULL, VXC_ERR_NOMEM);
    goto done;
  }
  st = vxc_solid_mass(q, s, -1, density, &o.query, &total, &err);
  for (int c = 0; c < n && st == VXC_OK; c++) {
    st = vxc_solid_mass(q, s, c, density, &o.query, &cell[c], &err);
    capped |= st == VXC_OK && cell[c].capped;
  }
  if (st != VXC_OK) {
    snprintf(doing, sizeof doing, "measuring the mass properties of %s", file);
    rc = cli_fail("mass", doing, &err, st);
    goto done;
  }
  capped |= total.capped;
  if (o.json) {
    print_json(s, cell, &total);
  } else {
    print_table(file, s, cell, &total);
  }
  rc = cli_capped("mass", capped);
done:
  free(cell);
  vxc_query_free(q);
  vxc_solid_free(s);
  return rc;
}


const cli_command cli_cmd_mass = {
    "mass", "volume, centroid and inertia of a solid and its cells",
    "usage: vxc mass FILE.vxm [--density RHO] [--rtol R | --voxel H] [--threads N]\n               "
    " [--max-boxes N] [--max-bytes N] [--json]\n\n"
    "Integrates each cell and the whole solid (cells taken as disjoint) by adaptive octree\n"
    "voxelisation: volume V (m^3) with a certified bracket [V_lo, V_hi] containing the true\n"
    "volume, centroid (m, solid frame), and inertia tensor about the centroid at unit\n"
    "density (m^5). With a density (--density, kg/m^3, or the model's own) also the mass\n"
    "(kg) and the mass inertia (kg m^2).\n" CLI_STDIN_HELP
    "\n"
    "  --rtol R     refine until the error estimate is <= R V (default 1e-3)\n"
    "  --voxel H    leaf edge H (m); alone, the thesis's fixed voxel size\n"
    "  --threads N  threads per query (default 1)\n" CLI_CAP_HELP
    "  --json       one JSON object: {\"cells\": [{\"name\", \"volume\", \"volume_lo\",\n"
    "               \"volume_hi\", \"error_estimate\", \"centroid\", \"inertia\",\n"
    "               \"capped\"}...], \"total\": {the same, \"mass\" and \"mass_inertia\"\n"
    "               with a density, \"time_ms\"}}\n" CLI_EXIT_HELP,
    mass_run};
