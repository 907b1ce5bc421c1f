/* cmd_force.c: `vxc force`: the contact wrench of two posed, moving solids from a zero
 * contact state, term by term, and the state's derivative. */
#include <errno.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "cli.h"

/* What the force command's own options collect. */
typedef struct force_opts {
  double vel[2][6];   /* --vel-a, --vel-b: vx vy vz wx wy wz (world) */
  const char *params; /* --params FILE */
  int nset;           /* --param NAME=VALUE, in order */
  const char *set[64];
} force_opts;


static int force_opt(int argc, char **argv, int *i, void *ud) {
  force_opts *f = ud;
  const char *arg = argv[*i];
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
  vxc_params_default(&p);
  vxc_error err;
  if (f.params && cli_read_params(f.params, &p) != 0) {
    rc = CLI_FAIL;
    goto out;
  }
  for (int i = 0; i < f.nset; i++) {
    char name[64];
    double x;
    if (cli_split_param(f.set[i], name, sizeof name, &x) != 0) {
      rc = cli_usage_error("force", "--param: expected NAME=VALUE, got '%s'", f.set[i]);
      goto out;
    }
    if (vxc_params_set(&p, name, x, &err) != VXC_OK) {
      rc = cli_usage_error("force", "--param: %s", err.message);
      goto out;
    }
  }
  if (vxc_params_prepare(&p, &err) != VXC_OK) {
    rc = cli_usage_error("force", "%s", err.message);
    goto out;
  }
  o.query.theta_c = p.theta_c;
  o.query.r_n = p.r_n;
  o.query.n_i = p.n_i;

  vxc_query *q = NULL;
  vxc_metrics m;
  vxc_status st = vxc_query_create(NULL, &q);
  if (st == VXC_OK) {
    st = vxc_query_run(q, a, &o.pose_a, b, &o.pose_b, &o.query, NULL, NULL, &m, &err);
  }
  if (st != VXC_OK && st != VXC_NO_CONTACT) {
    rc = cli_lib_error(&err, st);
    vxc_query_free(q);
    goto out;
  }
  vxc_body_motion ma, mb;
  memcpy(ma.r, o.pose_a.p, sizeof ma.r);
  memcpy(mb.r, o.pose_b.p, sizeof mb.r);
  memcpy(ma.v, f.vel[0], sizeof ma.v);
  memcpy(ma.w, f.vel[0] + 3, sizeof ma.w);
  memcpy(mb.v, f.vel[1], sizeof mb.v);
  memcpy(mb.w, f.vel[1] + 3, sizeof mb.w);
  double fa[3] = {0, 0, 0}, ta[3] = {0, 0, 0}, fb[3] = {0, 0, 0}, tb[3] = {0, 0, 0};
  if (o.json) {
    printf("{\"contact\": %s, \"pairs\": [", m.contact ? "true" : "false");
  } else if (!m.contact) {
    printf("no contact (%.6g m apart): zero wrench\n", m.distance);
  }
  for (int i = 0; i < m.npair && rc == CLI_OK; i++) {
    const vxc_pair_metrics *pm = &m.pair[i];
    double state[VXC_STATE_SIZE], ds[VXC_STATE_SIZE];
    vxc_wrench w;
    st = vxc_contact_start(&p, &pm->geom, &ma, &mb, state);
    if (st == VXC_OK) {
      st = vxc_contact_eval(&p, &pm->geom, &ma, &mb, state, &w, ds);
    }
    if (st != VXC_OK) {
      fprintf(stderr, "vxc: cells '%s' and '%s': the force model failed: %s\n", pm->name_a,
              pm->name_b, vxc_status_str(st));
      rc = CLI_FAIL;
      break;
    }
    vec_add(fa, w.force_a);
    vec_add(ta, w.torque_a);
    vec_add(fb, w.force_b);
    vec_add(tb, w.torque_b);
    if (o.json) {
      printf("%s{\"cell_a\": ", i ? ", " : "");
      cli_json_str(stdout, pm->name_a);
      printf(", \"cell_b\": ");
      cli_json_str(stdout, pm->name_b);
      printf(", \"f_n\": ");
      cli_json_num(stdout, w.f_n);
      const char *keys[] = {"normal",         "centroid",        "force_normal", "force_friction",
                            "torque_rolling", "torque_spinning", "force_a",      "torque_a",
                            "force_b",        "torque_b"};
      const double *vals[] = {pm->geom.normal,  pm->geom.centroid, w.force_normal, w.force_friction,
                              w.torque_rolling, w.torque_spinning, w.force_a,      w.torque_a,
                              w.force_b,        w.torque_b};
      for (int k = 0; k < 10; k++) {
        printf(", \"%s\": ", keys[k]);
        cli_json_vec(stdout, vals[k], 3);
      }
      printf(", \"volume\": ");
      cli_json_num(stdout, pm->geom.volume);
      printf(", \"error_estimate\": ");
      cli_json_num(stdout, pm->error_estimate);
      printf(", \"stick\": ");
      cli_json_num(stdout, w.stick);
      printf(", \"state_derivative\": ");
      cli_json_vec(stdout, ds, VXC_STATE_SIZE);
      printf(", \"capped\": %s}", pm->capped ? "true" : "false");
    } else {
      printf("  %s ~ %s: V = %.6g m^3, f_n = %.6g N, stick %.3g%s\n", pm->name_a, pm->name_b,
             pm->geom.volume, w.f_n, w.stick,
             pm->capped ? " (CAPPED: less accurate than asked)" : "");
      print_vec("normal", pm->geom.normal, "");
      print_vec("centroid", pm->geom.centroid, "m");
      print_vec("normal force on A", w.force_normal, "N");
      print_vec("friction on A", w.force_friction, "N");
      print_vec("rolling torque", w.torque_rolling, "N m");
      print_vec("spinning torque", w.torque_spinning, "N m");
      printf(
          "    state derivative: dz/dt (%.6g, %.6g, %.6g) m/s, dtheta/dt %.6g rad/s, "
          "ds_dw/dt %.6g 1/s, dV_ro/dt %.6g m^3/s\n",
          ds[VXC_STATE_Z], ds[VXC_STATE_Z + 1], ds[VXC_STATE_Z + 2], ds[VXC_STATE_THETA],
          ds[VXC_STATE_SDW], ds[VXC_STATE_VRO]);
      if (p.rolling) {
        printf(
            "    rate-independent rolling: dphi/dt (%.6g, %.6g, %.6g) rad/s, dpsi/dt %.6g "
            "rad/s\n",
            ds[VXC_STATE_PHI], ds[VXC_STATE_PHI + 1], ds[VXC_STATE_PHI + 2], ds[VXC_STATE_PSI]);
      }
    }
  }
  if (rc == CLI_OK) {
    if (o.json) {
      printf("], \"body_a\": {\"force\": ");
      cli_json_vec(stdout, fa, 3);
      printf(", \"torque\": ");
      cli_json_vec(stdout, ta, 3);
      printf("}, \"body_b\": {\"force\": ");
      cli_json_vec(stdout, fb, 3);
      printf(", \"torque\": ");
      cli_json_vec(stdout, tb, 3);
      printf("}, \"capped\": %s}\n", m.capped ? "true" : "false");
    } else {
      printf("  total on A '%s' (torque about its model-frame origin):\n", vxc_solid_name(a));
      print_vec("force", fa, "N");
      print_vec("torque", ta, "N m");
      printf("  total on B '%s':\n", vxc_solid_name(b));
      print_vec("force", fb, "N");
      print_vec("torque", tb, "N m");
    }
    rc = cli_capped("force", m.capped);
  }
  vxc_query_free(q);
out:
  vxc_solid_free(a);
  vxc_solid_free(b);
  return rc;
}


const cli_command cli_cmd_force = {
    "force", "the contact wrench of two posed, moving solids, term by term",
    "usage: vxc force A.vxm B.vxm [--pose-a \"x y z [qw qx qy qz]\"] [--pose-b ...]\n"
    "                 [--vel-a \"vx vy vz wx wy wz\"] [--vel-b ...] [--params FILE]\n"
    "                 [--param NAME=VALUE]... [--voxel H | --rtol R] [--threads N]\n               "
    "  [--max-boxes N] [--json]\n\n"
    "Measures the contact metrics as `vxc metrics` does, starts each contact from a zero\n"
    "state (the approach speed sets the impact memory u), and prints per cell pair the\n"
    "normal force, the friction force, the rolling and spinning torques (on A; B gets the\n"
    "opposite) and the state derivative, then the total wrench on each body with torques\n"
    "about each body's model-frame origin. Velocities are in the world frame: the linear\n"
    "velocity of the model-frame origin (m/s) and the angular velocity (rad/s).\n\n"
    "Parameters (symbols of lib/README.md): k_v, e_eff, v_small, tau_r, mu_s, mu_c, sigma0, "
    "sigma1,\n"
    "sigma2, v_s, tau_dw, v_e, theta_c (rad), r_n, n_i, k_p, p_exp; rolling (1: rate-\n"
    "independent rolling and spinning), eta_r, eta_s (m), phi_0 (rad). --params FILE reads\n"
    "`NAME VALUE` lines (# or ; comments); --param NAME=VALUE overrides, in order.\n" CLI_CAP_HELP
    "  --json  one object: {\"contact\", \"pairs\": [{\"cell_a\", \"cell_b\", \"f_n\", "
    "\"normal\",\n"
    "          \"centroid\", \"force_normal\", \"force_friction\", \"torque_rolling\",\n"
    "          \"torque_spinning\", ...}], \"body_a\": {\"force\", \"torque\"}, \"body_b\": "
    "{...}}\n",
    force_run};
