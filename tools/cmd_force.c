/* cmd_force.c: `vxc force`: the contact wrench of two posed, moving solids from a zero
 * contact state, term by term, and the state's derivative. */
#include <errno.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "tools/cli.h"

/* What the force command's own options collect. */
typedef struct force_opts {
  double vel[2][6];   /* --vel-a, --vel-b: vx vy vz wx wy wz (world) */
  const char *params; /* --params FILE */
  int nset;           /* --param NAME=VALUE, in order */
  const char *set[64];
  int merge; /* --merge-patches: one contact per cell pair, not per patch */
} force_opts;


static int force_opt(int argc, char **argv, int *i, void *ud) {
  force_opts *f = ud;
  const char *arg = argv[*i];
  if (strcmp(arg, "--patches") == 0 || strcmp(arg, "--merge-patches") == 0) {
    f->merge = arg[2] == 'm'; /* --patches: the default, kept for older scripts */
    return 1;
  }
  int vel_a = strcmp(arg, "--vel-a") == 0, vel_b = strcmp(arg, "--vel-b") == 0;
  int known = vel_a || vel_b || strcmp(arg, "--params") == 0 || strcmp(arg, "--param") == 0;
  if (!known) {
    return 0;
  }
  if (*i + 1 >= argc) {
    cli_usage_error("force", "option '%s' needs a value", arg);
    return -1;
  }
  const char *val = argv[++*i];
  if (vel_a || vel_b) {
    int n = 0;
    if (cli_parse_numbers(val, f->vel[vel_b], 6, &n) != 0 || n != 6) {
      cli_usage_error("force", "%s: expected \"vx vy vz wx wy wz\" (m/s, rad/s), got \"%s\"", arg,
                      val);
      return -1;
    }
    for (int k = 0; k < 6; k++) {
      if (!(fabs(f->vel[vel_b][k]) <= 1e6)) {
        cli_usage_error("force", "%s: %g is beyond 1e6 (m/s or rad/s)", arg, f->vel[vel_b][k]);
        return -1;
      }
    }
  } else if (strcmp(arg, "--params") == 0) {
    f->params = val;
  } else {
    if (f->nset == 64) {
      cli_usage_error("force", "too many --param options (64 at most)");
      return -1;
    }
    f->set[f->nset++] = val;
  }
  return 1;
}


static void vec_add(double *a, const double *b) {
  for (int k = 0; k < 3; k++) {
    a[k] += b[k];
  }
}


static void print_vec(const char *label, const double v[3], const char *unit) {
  printf("    %-18s (%12.6g, %12.6g, %12.6g) %s\n", label, v[0], v[1], v[2], unit);
}


/* The model parameters: defaults, then --params FILE, then each --param in order, prepared.
 * CLI_OK, or the exit status after the message. */
static int force_params(const force_opts *f, vxc_params *p) {
  vxc_error err;
  vxc_params_default(p);
  if (f->params && cli_read_params(f->params, p) != 0) {
    return CLI_FAIL;
  }
  for (int i = 0; i < f->nset; i++) {
    char name[64];
    double x;
    if (cli_split_param(f->set[i], name, sizeof name, &x) != 0) {
      return cli_usage_error("force", "--param: expected NAME=VALUE, got '%s'", f->set[i]);
    }
    if (vxc_params_set(p, name, x, &err) != VXC_OK) {
      return cli_usage_error("force", "--param: %s", err.message);
    }
  }
  if (vxc_params_prepare(p, &err) != VXC_OK) {
    return cli_usage_error("force", "%s", err.message);
  }
  return CLI_OK;
}


/* A body's motion from its pose and its --vel-* value (v then w). */
static void force_motion(const vxc_pose *pose, const double vel[6], vxc_body_motion *m) {
  memcpy(m->r, pose->p, sizeof m->r);
  memcpy(m->v, vel, sizeof m->v);
  memcpy(m->w, vel + 3, sizeof m->w);
}


/* One patch's entry of a pair's JSON "patches" list: its measure and its wrench w. */
static void force_patch_json(int i, const vxc_patch *pa, const vxc_wrench *w) {
  printf("%s{", i ? ", " : "");
  cli_json_patch_keys(stdout, pa);
  printf(", \"f_n\": ");
  cli_json_num(stdout, w->f_n);
  const char *keys[] = {"force", "torque", "force_normal", "force_friction", "force_b", "torque_b"};
  const double *vals[] = {w->force_a,        w->torque_a, w->force_normal,
                          w->force_friction, w->force_b,  w->torque_b};
  for (int k = 0; k < 6; k++) {
    printf(", \"%s\": ", keys[k]);
    cli_json_vec(stdout, vals[k], 3);
  }
  printf(", \"stick\": ");
  cli_json_num(stdout, w->stick);
  printf("}");
}


/* One pair's entry of the JSON "pairs" list (with pw, its patches' wrenches, when split). */
static void force_pair_json(int i, const vxc_pair_metrics *pm, const vxc_wrench *w,
                            const double ds[VXC_STATE_SIZE], const vxc_wrench *pw) {
  printf("%s{\"cell_a\": ", i ? ", " : "");
  cli_json_str(stdout, pm->name_a);
  printf(", \"cell_b\": ");
  cli_json_str(stdout, pm->name_b);
  printf(", \"f_n\": ");
  cli_json_num(stdout, w->f_n);
  const char *keys[] = {"normal",         "centroid",        "force_normal", "force_friction",
                        "torque_rolling", "torque_spinning", "force_a",      "torque_a",
                        "force_b",        "torque_b"};
  const double *vals[] = {pm->geom.normal,   pm->geom.centroid,  w->force_normal, w->force_friction,
                          w->torque_rolling, w->torque_spinning, w->force_a,      w->torque_a,
                          w->force_b,        w->torque_b};
  for (int k = 0; k < 10; k++) {
    printf(", \"%s\": ", keys[k]);
    cli_json_vec(stdout, vals[k], 3);
  }
  printf(", \"volume\": ");
  cli_json_num(stdout, pm->geom.volume);
  printf(", \"error_estimate\": ");
  cli_json_num(stdout, pm->error_estimate);
  printf(", \"penetration\": ");
  cli_json_num(stdout, pm->penetration);
  printf(", \"stick\": ");
  cli_json_num(stdout, w->stick);
  printf(", \"state_derivative\": ");
  cli_json_vec(stdout, ds, VXC_STATE_SIZE);
  printf(", \"capped\": %s", pm->capped ? "true" : "false");
  if (pw) {
    printf(", \"patches\": [");
    for (int k = 0; k < pm->npatch; k++) {
      force_patch_json(k, &pm->patch[k], &pw[k]);
    }
    printf("]");
  }
  printf("}");
}


/* One pair's lines of the text report. */
static void force_pair_text(const vxc_pair_metrics *pm, const vxc_wrench *w,
                            const double ds[VXC_STATE_SIZE], int rolling) {
  printf("  %s ~ %s: V = %.6g m^3, f_n = %.6g N, stick %.3g%s\n", pm->name_a, pm->name_b,
         pm->geom.volume, w->f_n, w->stick,
         pm->capped ? " (CAPPED: less accurate than asked)" : "");
  print_vec("normal", pm->geom.normal, "");
  print_vec("centroid", pm->geom.centroid, "m");
  print_vec("normal force on A", w->force_normal, "N");
  print_vec("friction on A", w->force_friction, "N");
  print_vec("rolling torque", w->torque_rolling, "N m");
  print_vec("spinning torque", w->torque_spinning, "N m");
  printf(
      "    state derivative: dz/dt (%.6g, %.6g, %.6g) m/s, dtheta/dt %.6g rad/s, "
      "ds_dw/dt %.6g 1/s, dV_ro/dt %.6g m^3/s\n",
      ds[VXC_STATE_Z], ds[VXC_STATE_Z + 1], ds[VXC_STATE_Z + 2], ds[VXC_STATE_THETA],
      ds[VXC_STATE_SDW], ds[VXC_STATE_VRO]);
  if (rolling) {
    printf("    rate-independent rolling: dphi/dt (%.6g, %.6g, %.6g) rad/s, dpsi/dt %.6g rad/s\n",
           ds[VXC_STATE_PHI], ds[VXC_STATE_PHI + 1], ds[VXC_STATE_PHI + 2], ds[VXC_STATE_PSI]);
  }
}


/* One contact's wrench w and state derivative ds from a zero state. */
static vxc_status force_eval(const vxc_params *p, const vxc_contact_geometry *g,
                             const vxc_body_motion *ma, const vxc_body_motion *mb, vxc_wrench *w,
                             double ds[VXC_STATE_SIZE], vxc_error *e) {
  double state[VXC_STATE_SIZE];
  vxc_status st = vxc_contact_start(p, g, ma, mb, state, e);
  return st == VXC_OK ? vxc_contact_eval(p, g, ma, mb, state, w, ds, e) : st;
}


static void wrench_add(vxc_wrench *s, const vxc_wrench *w) {
  s->f_n += w->f_n;
  vec_add(s->force_normal, w->force_normal);
  vec_add(s->force_friction, w->force_friction);
  vec_add(s->torque_rolling, w->torque_rolling);
  vec_add(s->torque_spinning, w->torque_spinning);
  vec_add(s->force_a, w->force_a);
  vec_add(s->torque_a, w->torque_a);
  vec_add(s->force_b, w->force_b);
  vec_add(s->torque_b, w->torque_b);
}


/* A pair split into patches: each patch a contact of its own (pw[k]), the pair's wrench w
 * their sum (f_n the sum of theirs; stick and ds those of the largest patch, the first). */
static vxc_status force_patches(const vxc_params *p, const vxc_pair_metrics *pm,
                                const vxc_body_motion *ma, const vxc_body_motion *mb,
                                vxc_wrench *pw, vxc_wrench *w, double ds[VXC_STATE_SIZE],
                                vxc_error *e) {
  memset(w, 0, sizeof *w);
  for (int k = 0; k < pm->npatch; k++) {
    const vxc_patch *pa = &pm->patch[k];
    vxc_contact_geometry g = pm->geom;
    g.volume = pa->volume;
    memcpy(g.centroid, pa->centroid, sizeof g.centroid);
    memcpy(g.inertia, pa->inertia, sizeof g.inertia);
    memcpy(g.normal, pa->normal, sizeof g.normal);
    double dk[VXC_STATE_SIZE];
    vxc_status st = force_eval(p, &g, ma, mb, &pw[k], dk, e);
    if (st != VXC_OK) {
      return st;
    }
    wrench_add(w, &pw[k]);
    if (k == 0) {
      w->stick = pw[k].stick;
      memcpy(ds, dk, sizeof dk);
    }
  }
  return VXC_OK;
}


/* Each pair's wrench from a zero state (with patches, the sum of its patches'), reported
 * (unless `report` is 0: a first pass that only checks, so that a failure leaves no partial
 * JSON) and summed into tot (force and torque on A, then on B). CLI_OK, or CLI_FAIL after
 * the message when the force model fails or memory runs out. */
static int force_pairs(const vxc_params *p, const vxc_metrics *m, const vxc_body_motion *ma,
                       const vxc_body_motion *mb, int json, int report, double tot[4][3]) {
  for (int i = 0; i < m->npair; i++) {
    const vxc_pair_metrics *pm = &m->pair[i];
    double ds[VXC_STATE_SIZE];
    vxc_wrench w, *pw = NULL;
    vxc_error e = {.status = VXC_ERR_NOMEM, .message = "out of memory"};
    vxc_status st = VXC_ERR_NOMEM;
    if (pm->npatch > 0) {
      pw = calloc((size_t)pm->npatch, sizeof *pw);
      st = pw ? force_patches(p, pm, ma, mb, pw, &w, ds, &e) : VXC_ERR_NOMEM;
    } else {
      st = force_eval(p, &pm->geom, ma, mb, &w, ds, &e);
    }
    if (st != VXC_OK) {
      vxc_error named = e;
      snprintf(named.message, sizeof named.message, "cells '%s' and '%s': %s", pm->name_a,
               pm->name_b, e.message);
      free(pw);
      return cli_lib_error(&named, st);
    }
    vec_add(tot[0], w.force_a);
    vec_add(tot[1], w.torque_a);
    vec_add(tot[2], w.force_b);
    vec_add(tot[3], w.torque_b);
    if (report && json) {
      force_pair_json(i, pm, &w, ds, pw);
    } else if (report) {
      force_pair_text(pm, &w, ds, p->rolling);
      for (int k = 0; pm->npatch > 1 && k < pm->npatch; k++) {
        const vxc_patch *pa = &pm->patch[k];
        printf("    patch %d: V = %.6g m^3, f_n = %.6g N, normal (%.6f, %.6f, %.6f), centroid "
               "(%.6g, %.6g, %.6g) m, penetration %.6g m in [%.6g, %.6g]\n",
               k, pa->volume, pw[k].f_n, pa->normal[0], pa->normal[1], pa->normal[2],
               pa->centroid[0], pa->centroid[1], pa->centroid[2], pa->penetration,
               pa->penetration_lo, pa->penetration_hi);
      }
    }
    free(pw);
  }
  return CLI_OK;
}


/* The total wrench on each body, closing the JSON object. */
static void force_totals(int json, const vxc_solid *a, const vxc_solid *b, double tot[4][3],
                         int capped) {
  if (json) {
    printf("], \"body_a\": {\"force\": ");
    cli_json_vec(stdout, tot[0], 3);
    printf(", \"torque\": ");
    cli_json_vec(stdout, tot[1], 3);
    printf("}, \"body_b\": {\"force\": ");
    cli_json_vec(stdout, tot[2], 3);
    printf(", \"torque\": ");
    cli_json_vec(stdout, tot[3], 3);
    printf("}, \"capped\": %s}\n", capped ? "true" : "false");
  } else {
    printf("  total on A '%s' (torque about its model-frame origin):\n", vxc_solid_name(a));
    print_vec("force", tot[0], "N");
    print_vec("torque", tot[1], "N m");
    printf("  total on B '%s':\n", vxc_solid_name(b));
    print_vec("force", tot[2], "N");
    print_vec("torque", tot[3], "N m");
  }
}


/* Measures the pair's contact and reports its wrench. */
static int force_report(const cli_geom_opts *o, const force_opts *f, const vxc_params *p,
                        const vxc_solid *a, const vxc_solid *b) {
  vxc_query *q = NULL;
  vxc_metrics m;
  vxc_error err;
  vxc_status st = vxc_query_create(cli_allocator(), &q, &err);
  if (st == VXC_OK) {
    st = vxc_query_run(q, a, &o->pose_a, b, &o->pose_b, &o->query, NULL, NULL, &m, &err);
  }
  if (st != VXC_OK && st != VXC_NO_CONTACT) {
    vxc_query_free(q);
    return cli_fail("force", "measuring the contact", &err, st);
  }
  vxc_body_motion ma, mb;
  force_motion(&o->pose_a, f->vel[0], &ma);
  force_motion(&o->pose_b, f->vel[1], &mb);
  double tot[4][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  int rc = force_pairs(p, &m, &ma, &mb, o->json, 0, tot);
  if (rc == CLI_OK) {
    memset(tot, 0, sizeof tot);
    if (o->json) {
      printf("{\"contact\": %s, \"pairs\": [", m.contact ? "true" : "false");
    } else if (!m.contact) {
      printf("no contact (%.6g m apart): zero wrench\n", m.distance);
    }
    rc = force_pairs(p, &m, &ma, &mb, o->json, 1, tot);
  }
  if (rc == CLI_OK) {
    force_totals(o->json, a, b, tot, m.capped);
    rc = cli_capped("force", m.capped);
  }
  vxc_query_free(q);
  return rc;
}


static int force_run(int argc, char **argv) {
  cli_geom_opts o;
  cli_geom_opts_init(&o);
  force_opts f;
  memset(&f, 0, sizeof f);
  vxc_solid *a = NULL, *b = NULL;
  int rc = cli_load_pair("force", argc, argv, &o, force_opt, &f, &a, &b);
  if (rc != CLI_OK) {
    return rc;
  }
  vxc_params p;
  rc = force_params(&f, &p);
  if (rc == CLI_OK) {
    o.query.theta_c = p.theta_c;
    o.query.r_n = p.r_n;
    o.query.n_i = p.n_i;
    o.query.patches = !f.merge;
    rc = force_report(&o, &f, &p, a, b);
  }
  vxc_solid_free(a);
  vxc_solid_free(b);
  return rc;
}


const cli_command cli_cmd_force = {
    "force", "the contact wrench of two posed, moving solids, term by term",
    "usage: vxc force A.vxm B.vxm [--pose-a \"x y z [qw qx qy qz]\"] [--pose-b ...]\n"
    "                 [--vel-a \"vx vy vz wx wy wz\"] [--vel-b ...] [--params FILE]\n"
    "                 [--param NAME=VALUE]... [--voxel H | --rtol R] [--threads N]\n               "
    "  [--max-boxes N] [--max-bytes N] [--merge-patches] [--json]\n\n"
    "Measures the contact metrics as `vxc metrics` does, starts each contact from a zero\n"
    "state (the approach speed sets the impact memory u), and prints per cell pair the\n"
    "normal force, the friction force, the rolling and spinning torques (on A; B gets the\n"
    "opposite) and the state derivative, then the total wrench on each body with torques\n"
    "about each body's model-frame origin. Velocities are in the world frame: the linear\n"
    "velocity of the model-frame origin (m/s) and the angular velocity (rad/s).\n\n"
    "Model parameters (symbols of lib/README.md) with the library's defaults: --params FILE\n"
    "reads `NAME VALUE` lines (# or ; comments); --param NAME=VALUE overrides, in order.\n"
    CLI_HELP_PARAMS "\n" CLI_CAP_HELP
    "  --json  one object: {\"contact\", \"pairs\": [{\"cell_a\", \"cell_b\", \"f_n\", "
    "\"normal\",\n"
    "          \"centroid\", \"force_normal\", \"force_friction\", \"torque_rolling\",\n"
    "          \"torque_spinning\", ..., \"penetration\" (m, as vxc metrics)}], \"body_a\": "
    "{\"force\", \"torque\"}, \"body_b\": {...}}\n"
    "          Each connected part of a pair's interference (a patch) is a contact of its\n"
    "          own; the pair's wrench is their sum (its stick and state derivative those of\n"
    "          its largest patch), and each pair has \"patches\": [{\"volume\", \"volume_lo\",\n"
    "          \"volume_hi\", \"error_estimate\", \"centroid\", \"inertia\", \"normal\", "
    "\"area\",\n"
    "          \"penetration\", \"penetration_lo\", \"penetration_hi\",\n"
    "          \"boxes\", \"f_n\", \"force\", \"torque\" (on A), \"force_normal\",\n"
    "          \"force_friction\", \"force_b\", \"torque_b\", \"stick\"}], largest first (one\n"
    "          patch: the pair's); the text report lists them when there are several\n"
    "  --merge-patches  one contact per cell pair, at its merged figures (no \"patches\";\n"
    "          the default's old option --patches is accepted)\n" CLI_EXIT_HELP,
    force_run};
