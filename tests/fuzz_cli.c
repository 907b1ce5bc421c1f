/* fuzz_cli.c: the fuzzing entry point of the command line's number parsing: numbers,
 * number lists, poses (--pose-a, --pose-b, --vel-a) and parameter files (--params).
 *
 * The first byte picks the parser (and, for lists, how many numbers are allowed); the rest
 * is the argument (cut at its first NUL, as argv would be) or the file's text. It aborts
 * when an invariant breaks: an accepted number that is not finite, a list longer than
 * allowed, an accepted pose beyond 1e4 m or whose quaternion is not unit, an output written
 * on failure, a refusal without a message, a parameter file accepted whose parameters
 * vxc_params_prepare then fails without a message, or a parameter-file error without its
 * "LINE:COLUMN: " prefix. libFuzzer (tools/fuzz cli) and the regression test
 * (tests/test_fuzz_regress.c) share this file. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

int vxc_fuzz_cli(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* cli.c's command lookup wants the command table; the fuzz target has none */
const cli_command *const cli_commands[] = {NULL};


static void check_numbers(const char *s, int max) {
  double v[16] = {0};
  int n = -1;
  if (cli_parse_numbers(s, v, max, &n) == 0) {
    if (n < 1 || n > max) {
      abort();
    }
    for (int i = 0; i < n; i++) {
      if (!isfinite(v[i])) {
        abort();
      }
    }
  } else if (n != -1) {
    abort(); /* the count written on failure */
  }
}


static void check_pose(const char *s) {
  vxc_pose p, before;
  memset(&p, 0x5e, sizeof p);
  before = p;
  char msg[256] = "";
  if (cli_parse_pose(s, &p, msg, sizeof msg) == 0) {
    double qq = 0;
    for (int i = 0; i < 4; i++) {
      qq += p.q[i] * p.q[i];
    }
    for (int i = 0; i < 3; i++) {
      if (!(fabs(p.p[i]) <= 1e4)) {
        abort();
      }
    }
    if (!(fabs(qq - 1) < 1e-12)) {
      abort();
    }
  } else if (msg[0] == '\0' || memcmp(&p, &before, sizeof p) != 0) {
    abort();
  }
}


static void check_params(const char *text, size_t len) {
  vxc_params p;
  vxc_params_default(&p);
  char msg[400] = "";
  if (cli_params_text(text, len, &p, msg, sizeof msg) == 0) {
    vxc_error err;
    err.message[0] = '\0';
    if (vxc_params_prepare(&p, &err) != VXC_OK && err.message[0] == '\0') {
      abort();
    }
  } else {
    int line = 0, col = 0;
    if (sscanf(msg, "%d:%d: ", &line, &col) != 2 || line < 1 || col < 1) {
      abort();
    }
  }
}


int vxc_fuzz_cli(const uint8_t *data, size_t size) {
  if (size == 0) {
    return 0;
  }
  size_t n = size - 1;
  char *s = malloc(n + 1);
  if (!s) {
    return 0;
  }
  memcpy(s, data + 1, n);
  s[n] = '\0';
  double x = 0;
  switch (data[0] % 4) {
    case 0:
      if (cli_parse_double(s, &x) == 0 && !isfinite(x)) {
        abort();
      }
      break;
    case 1:
      check_numbers(s, 1 + (data[0] >> 2) % 16);
      break;
    case 2:
      check_pose(s);
      break;
    default:
      check_params(s, n);
      break;
  }
  free(s);
  return 0;
}


#ifndef VXC_NO_FUZZ_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return vxc_fuzz_cli(data, size);
}
#endif
