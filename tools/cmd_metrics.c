/* cmd_metrics.c: `vxc metrics`: the contact metrics of two posed solids, pair by pair. */
#include <string.h>

#include "tools/cli.h"
#include "tools/vtk.h"

/* Loads the two model files named in argv; returns CLI_OK or an exit status. */
int cli_load_pair(const char *command, int argc, char **argv, cli_geom_opts *o,
                  int (*extra)(int argc, char **argv, int *i, void *ud), void *ud, vxc_solid **a,
                  vxc_solid **b) {
  const char *files[2] = {NULL, NULL};
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    int r = cli_geom_opt(command, argc, argv, &i, o, 1);
    if (r < 0) {
      return CLI_USAGE;
    }
    if (r > 0) {
      continue;
    }
    if (extra) {
      r = extra(argc, argv, &i, ud);
      if (r < 0) {
        return CLI_USAGE;
      }
      if (r > 0) {
        continue;
      }
    }
    if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cli_usage_error(command, "unknown option '%s'", argv[i]);
    }
    if (nfiles == 2) {
      return cli_usage_error(command, "expected two model files, got a third: '%s'", argv[i]);
    }
    files[nfiles++] = argv[i];
  }
  if (nfiles != 2) {
    return cli_usage_error(command, "expected two model files (A.vxm B.vxm)");
  }
  vxc_error err;
  char doing[4200];
  snprintf(doing, sizeof doing, "loading %s", files[0]);
  vxc_status st = vxc_solid_load(files[0], cli_allocator(), a, &err);
  if (st != VXC_OK) {
    return cli_fail(command, doing, &err, st);
  }
  snprintf(doing, sizeof doing, "loading %s", files[1]);
  st = vxc_solid_load(files[1], cli_allocator(), b, &err);
  if (st != VXC_OK) {
    vxc_solid_free(*a);
    *a = NULL;
    return cli_fail(command, doing, &err, st);
  }
  cli_memory_query(&o->query);
  cli_warn_units(command, files[0], *a);
  cli_warn_units(command, files[1], *b);
  return CLI_OK;
}


static void json_patch(const vxc_patch *p) {
  printf("{");
  cli_json_patch_keys(stdout, p);
  printf("}");
}


static void json_pair(const vxc_pair_metrics *p) {
  printf("{\"cell_a\": ");
  cli_json_str(stdout, p->name_a);
  printf(", \"cell_b\": ");
  cli_json_str(stdout, p->name_b);
  const double vol[4] = {p->geom.volume, p->volume_lo, p->volume_hi, p->error_estimate};
  printf(", ");
  cli_json_measure(stdout, vol, p->geom.centroid, p->geom.inertia);
  printf(", \"normal\": ");
  cli_json_vec(stdout, p->geom.normal, 3);
  printf(", \"normal_geo\": ");
  cli_json_vec(stdout, p->normal_geo, 3);
  printf(", \"depth\": ");
  cli_json_num(stdout, p->depth);
  printf(", \"penetration\": ");
  cli_json_num(stdout, p->penetration);
  printf(", \"penetration_lo\": ");
  cli_json_num(stdout, p->penetration_lo);
  printf(", \"penetration_hi\": ");
  cli_json_num(stdout, p->penetration_hi);
  printf(", \"radius_of_gyration\": ");
  cli_json_num(stdout, p->r_gyr);
  printf(", \"area\": ");
  cli_json_num(stdout, p->area);
  printf(", \"leaves\": %lld, \"time_ms\": ", p->leaves);
  cli_json_num(stdout, p->time_ms);
  printf(", \"capped\": %s, \"closed_form\": %s, \"quadrature\": %s", p->capped ? "true" : "false",
         p->closed_form ? "true" : "false",
         p->closed_form == 2 || p->quadrature_leaves > 0 ? "true" : "false");
  if (p->patch) {
    printf(", \"patches\": [");
    for (int i = 0; i < p->npatch; i++) {
      printf(i ? ", " : "");
      json_patch(&p->patch[i]);
    }
    printf("]");
  }
  printf("}");
}


static int metrics_run(int argc, char **argv) {
  cli_geom_opts o;
  cli_geom_opts_init(&o);
  cli_vtk_opts vo;
  cli_vtk_opts_init(&vo);
  vxc_solid *a = NULL, *b = NULL;
  int rc = cli_load_pair("metrics", argc, argv, &o, cli_vtk_opt, &vo, &a, &b);
  if (rc != CLI_OK) {
    return rc;
  }
  o.query.region = vo.region != NULL;
  o.query.patches = !vo.merge;
  vxc_query *q = NULL;
  vxc_metrics m;
  vxc_error err;
  vxc_status st = vxc_query_create(cli_allocator(), &q, &err);
  if (st == VXC_OK) {
    st = vxc_query_run(q, a, &o.pose_a, b, &o.pose_b, &o.query, NULL, NULL, &m, &err);
  }
  if (st == VXC_OK || st == VXC_NO_CONTACT) {
    rc = cli_vtk_write(&vo, q, &m, &o.query, a, &o.pose_a, b, &o.pose_b);
  }
  if (rc != CLI_OK) {
    /* reported */
  } else if (st != VXC_OK && st != VXC_NO_CONTACT) {
    rc = cli_fail("metrics", "measuring the contact", &err, st);
  } else if (o.json) {
    printf("{\"contact\": %s", m.contact ? "true" : "false");
    if (!m.contact) {
      printf(", \"distance\": ");
      cli_json_num(stdout, m.distance);
      printf(", \"distance_exact\": %s", m.distance_exact ? "true" : "false");
    }
    printf(", \"pairs\": [");
    for (int i = 0; i < m.npair; i++) {
      if (i) {
        printf(", ");
      }
      json_pair(&m.pair[i]);
    }
    printf("], \"total\": {\"capped\": %s, \"volume\": ", m.capped ? "true" : "false");
    cli_json_num(stdout, m.volume);
    printf(", \"centroid\": ");
    if (m.contact) {
      cli_json_vec(stdout, m.centroid, 3);
    } else {
      printf("null");
    }
    printf("}}\n");
  } else if (!m.contact) {
    printf("no contact: %s '%s' and '%s' are %.6g m apart%s\n",
           m.distance_exact ? "solids" : "the convex hulls of", vxc_solid_name(a),
           vxc_solid_name(b), m.distance, m.distance_exact ? "" : " (a lower bound)");
  } else {
    printf(
        "%d cell pair%s in contact (%d candidates), total V = %.6g m^3 at (%.6g, %.6g, "
        "%.6g) m, %.3g ms\n",
        m.npair, m.npair == 1 ? "" : "s", m.candidates, m.volume, m.centroid[0], m.centroid[1],
        m.centroid[2], m.time_ms);
    for (int i = 0; i < m.npair; i++) {
      const vxc_pair_metrics *p = &m.pair[i];
      printf("  %s ~ %s\n", p->name_a, p->name_b);
      printf("    V = %.6g m^3 in [%.6g, %.6g], depth x = -V^(1/3) = %.6g m\n", p->geom.volume,
             p->volume_lo, p->volume_hi, p->depth);
      printf("    penetration along the normal %.6g m in [%.6g, %.6g]\n", p->penetration,
             p->penetration_lo, p->penetration_hi);
      printf("    centroid (%.6g, %.6g, %.6g) m, area %.6g m^2, r_gyr %.6g m\n",
             p->geom.centroid[0], p->geom.centroid[1], p->geom.centroid[2], p->area, p->r_gyr);
      printf(
          "    normal (%.6f, %.6f, %.6f) from %s estimate (%.6f, %.6f, %.6f)%s\n",
          p->geom.normal[0], p->geom.normal[1], p->geom.normal[2],
          p->normal_from_mpr ? "the MPR" : "the area-vector", p->normal_geo[0], p->normal_geo[1],
          p->normal_geo[2],
          (p->normal_flags & VXC_NORMAL_DEGENERATE) ? " [degenerate inertia: estimate kept]" : "");
      printf("    %s%lld boxes, %lld leaves%s, depth %d%s, %.3g ms\n",
             p->closed_form == 2   ? "by quadrature (its error estimated, not certified), "
             : p->closed_form == 1 ? "closed form (exact), "
                                   : "",
             p->boxes, p->leaves,
             p->quadrature_leaves > 0 ? " (by quadrature about an axis: not certified)" : "",
             p->level, p->capped ? " (CAPPED: less accurate than asked)" : "", p->time_ms);
      for (int k = 0; k < p->npatch; k++) {
        const vxc_patch *c = &p->patch[k];
        printf(
            "    patch %d: V = %.6g m^3 in [%.6g, %.6g] at (%.6g, %.6g, %.6g) m, normal "
            "(%.6f, %.6f, %.6f), area %.6g m^2, penetration %.6g m in [%.6g, %.6g]\n",
            k, c->volume, c->volume_lo, c->volume_hi, c->centroid[0], c->centroid[1],
            c->centroid[2], c->normal[0], c->normal[1], c->normal[2], c->area, c->penetration,
            c->penetration_lo, c->penetration_hi);
      }
    }
  }
  if (rc == CLI_OK && st == VXC_OK) {
    rc = cli_capped("metrics", m.capped);
  }
  vxc_query_free(q);
  vxc_solid_free(a);
  vxc_solid_free(b);
  return rc;
}


const cli_command cli_cmd_metrics = {
    "metrics", "contact metrics of two posed solids, cell pair by cell pair",
    "usage: vxc metrics A.vxm B.vxm [--pose-a \"x y z [qw qx qy qz]\"]\n"
    "                   [--pose-b \"x y z [qw qx qy qz]\"] [--voxel H | --rtol R]\n"
    "                   [--threads N] [--max-boxes N] [--max-bytes N] [--json]\n"
    "                   [--merge-patches] [--vtk FILE.vtu] [--vtk-solids FILE.vtp]\n"
    "                   [--vtk-tol T]\n\n"
    "Places each solid's model frame in the world (metres; unit quaternion, normalised)\n"
    "and reports, for each pair of cells that overlap: the volume of interference V with\n"
    "its certified bracket, centroid, inertia tensor J (m^5), the contact normal (the\n"
    "eigenvector of J nearest the geometric estimate, from A toward B), the thesis's\n"
    "penetration measure x = -V^(1/3) (\"depth\"), the largest penetration along the normal\n"
    "(\"penetration\", with its bracket \"penetration_lo\", \"penetration_hi\": exact for\n"
    "two convex cells, within a leaf edge for the octree's leaves, within the box of\n"
    "the region for a pair measured by quadrature), radius of gyration about the\n"
    "normal and contact area. When the\n"
    "solids are apart it reports the distance between their closest cells.\n\n"
    "  --rtol R     refine until each pair's error estimate is <= R V (default 1e-3)\n"
    "  --voxel H    leaf edge H (m); alone, the thesis's fixed voxel size\n"
    "  --threads N  threads per query (default 1)\n" CLI_CAP_HELP
    "  --json       one object: {\"contact\", \"distance\" and \"distance_exact\" (apart only;\n"
    "               true for convex cells and where a mesh meets a mesh or a convex cell;\n"
    "               false: a lower bound, between convex hulls), \"pairs\": [{\"cell_a\",\n"
    "               \"cell_b\", \"volume\", \"volume_lo\", \"volume_hi\", \"error_estimate\",\n"
    "               \"centroid\", "
    "\"inertia\",\n"
    "               \"normal\", \"normal_geo\", \"depth\", \"penetration\", \"penetration_lo\",\n"
    "               \"penetration_hi\", \"radius_of_gyration\", \"area\", \"leaves\", \"time_ms\", "
    "\"capped\",\n               \"closed_form\" (no octree), \"quadrature\" (by quadrature,\n"
    "               the pair or some leaves: an estimated error, not certified)}],\n"
    "               \"total\": {\"capped\", \"volume\",\n"
    "               \"centroid\"}}\n"
    "               Each pair is split into contact patches (its connected parts: the\n"
    "               octree's boxes and leaves that touch; two convex cells meet in one),\n"
    "               each measured as a pair: \"patches\": [{\"volume\", \"volume_lo\",\n"
    "               \"volume_hi\", \"error_estimate\", \"centroid\", \"inertia\", \"normal\",\n"
    "               \"area\", \"penetration\", \"penetration_lo\", \"penetration_hi\",\n"
    "               \"boxes\"}] in each pair, largest first (one patch: the pair's\n"
    "               figures); a pair's penetration is its deepest patch's, along that\n"
    "               patch's normal\n"
    "  --merge-patches  one contact per cell pair: no \"patches\" (the default's old\n"
    "               option --patches is accepted)\n" CLI_VTK_HELP CLI_EXIT_HELP,
    metrics_run};
