/* test_help_params.c: `vxc force --help` lists the contact model's parameters with the
 * library's defaults. Each line's name must be one vxc_params_set knows, and its default
 * the value vxc_params_default gives: the field the name sets is found by setting it to a
 * sentinel (so the test needs no copy of the struct's layout), and the help's number is
 * compared with the default held there, to the 6 digits printed. Black-box: runs the vxc
 * of the build ($VXC_BIN) and links only the public library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/vxc_test.h"
#include "lib/vxc.h"

/* The default of the field `name` sets: the double or int of p that becomes `sentinel`
 * when `name` is set to it. Returns 1 with *out, or 0 when no field took the sentinel. */
static int default_of(const char *name, double sentinel, double *out) {
  vxc_params p, q;
  vxc_params_default(&p);
  q = p;
  vxc_error err;
  if (vxc_params_set(&q, name, sentinel, &err) != VXC_OK) {
    return 0;
  }
  const char *a = (const char *)&p, *b = (const char *)&q;
  for (size_t k = 0; k + sizeof(int) <= sizeof p; k += sizeof(int)) {
    double d;
    int i;
    if (k % sizeof(double) == 0 && k + sizeof d <= sizeof p) {
      memcpy(&d, b + k, sizeof d);
      if (d == sentinel) {
        memcpy(out, a + k, sizeof *out);
        return 1;
      }
    }
    memcpy(&i, b + k, sizeof i);
    if (i == sentinel) {
      memcpy(&i, a + k, sizeof i);
      *out = i;
      return 1;
    }
  }
  return 0;
}


static void test_force_help_defaults_are_the_library_s(void **state) {
  (void)state;
  const char *bin = getenv("VXC_BIN");
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "'%s' force --help", bin ? bin : "../tools/vxc");
  FILE *f = popen(cmd, "r");
  assert_non_null(f);
  char line[512], seen[2048] = " ";
  int in_table = 0;
  while (fgets(line, sizeof line, f)) {
    char name[64], unit[64];
    double shown;
    if (strncmp(line, "  NAME ", 7) == 0) {
      in_table = 1;
      continue;
    }
    if (!in_table) {
      continue;
    }
    if (sscanf(line, "  %63s %lf %63s", name, &shown, unit) != 3) {
      break; /* the table ends */
    }
    /* a sentinel no default is and every parameter accepts (rolling: 0 or 1, n_i: whole) */
    double sentinel = strcmp(name, "rolling") == 0 ? 1 - shown : shown + 1;
    double lib = NAN;
    int found = default_of(name, sentinel, &lib);
    printf("# %-8s help %-12g library %-12.17g unit %s\n", name, shown, found ? lib : NAN, unit);
    assert_true(found);
    assert_true(fabs(shown - lib) <= 5e-6 * fabs(lib));
    strncat(seen, name, sizeof seen - strlen(seen) - 2);
    strcat(seen, " ");
  }
  while (fgets(line, sizeof line, f)) {
    /* the rest read, so that vxc never writes into a closed pipe */
  }
  assert_int_equal(pclose(f), 0);
  /* every parameter vxc_params_set names in its header comment (lib/vxc_force.h) */
  static const char *const all[] = {"k_v",    "e_eff",   "v_small", "tau_r", "mu_s",
                                    "mu_c",   "sigma0",  "sigma1",  "sigma2", "v_s",
                                    "tau_dw", "v_e",     "theta_c", "r_n",   "n_i",
                                    "k_p",    "p_exp",   "rolling", "eta_r", "eta_s",
                                    "phi_0"};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    char word[80];
    snprintf(word, sizeof word, " %s ", all[i]);
    printf("# %s listed\n", all[i]);
    assert_non_null(strstr(seen, word));
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_force_help_defaults_are_the_library_s),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
