/* cli_help.c: a command's help as `vxc COMMAND --help` prints it: its usage text, with the
 * table of the contact model's parameters (name, the library's default, unit, meaning)
 * where the text holds CLI_HELP_PARAMS, so that the defaults printed are the ones
 * vxc_params_default sets. */
#include <stddef.h>
#include <string.h>

#include "tools/cli.h"

/* One parameter of vxc_params: its name for vxc_params_set, where the struct holds it, its
 * unit ("-": none) and what it is. */
typedef struct param_row {
  const char *name;
  size_t off;
  int is_int;
  const char *unit, *what;
} param_row;

#define DBL(f) #f, offsetof(vxc_params, f), 0
#define INT(f) #f, offsetof(vxc_params, f), 1

static const param_row rows[] = {
    {DBL(k_v), "N/m^3", "volumetric stiffness (f_n = k_v V (1 + a v_cn))"},
    {DBL(e_eff), "-", "effective coefficient of restitution, in (0, 1]"},
    {DBL(v_small), "m/s", "smallest impact speed of the damping factor"},
    {DBL(tau_r), "s", "constraint relaxation time (0: off)"},
    {DBL(mu_s), "-", "stiction coefficient, >= mu_c"},
    {DBL(mu_c), "-", "Coulomb coefficient"},
    {DBL(sigma0), "1/m", "bristle stiffness (per newton of f_n)"},
    {DBL(sigma1), "s/m", "bristle damping (per newton of f_n)"},
    {DBL(sigma2), "s/m", "viscous friction (per newton of f_n)"},
    {DBL(v_s), "m/s", "Stribeck velocity"},
    {DBL(tau_dw), "s", "dwell time constant"},
    {DBL(v_e), "m/s", "velocity tolerance (v_s / 100 unless set)"},
    {DBL(theta_c), "rad", "convergence angle of the normal's iteration"},
    {DBL(r_n), "-", "weight of the previous normal in its guess, in [0, 1)"},
    {INT(n_i), "-", "most iterations of the normal"},
    {DBL(k_p), "N/m^p_exp", "point-contact stiffness"},
    {DBL(p_exp), "-", "point-contact exponent (1.5: Hertz)"},
    {INT(rolling), "-", "rolling and spinning: 0 volumetric, 1 rate-independent"},
    {DBL(eta_r), "m", "rolling friction length (rolling 1)"},
    {DBL(eta_s), "m", "spinning friction length (rolling 1)"},
    {DBL(phi_0), "rad", "bristle angle at the bound eta f_n (rolling 1)"},
};


void cli_print_params(FILE *f) {
  vxc_params p;
  vxc_params_default(&p);
  fprintf(f, "  %-8s %-10s %s\n", "NAME", "default", "unit");
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const char *at = (const char *)&p + rows[i].off;
    double v;
    if (rows[i].is_int) {
      int k;
      memcpy(&k, at, sizeof k);
      v = k;
    } else {
      memcpy(&v, at, sizeof v);
    }
    fprintf(f, "  %-8s %-10.6g %-10s %s\n", rows[i].name, v, rows[i].unit, rows[i].what);
  }
}


int cli_print_help(const cli_command *cmd) {
  const char *mark = strstr(cmd->usage, CLI_HELP_PARAMS);
  if (!mark) {
    fputs(cmd->usage, stdout);
    return CLI_OK;
  }
  fwrite(cmd->usage, 1, (size_t)(mark - cmd->usage), stdout);
  cli_print_params(stdout);
  fputs(mark + strlen(CLI_HELP_PARAMS), stdout);
  return CLI_OK;
}
