/* cli_args.c: command-line conventions the commands share: `--opt=value` as `--opt value`,
 * and options checked against the command's usage text (the one list of a command's
 * options), with the nearest option suggested for a misspelt one. */
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

char **cli_split_equals(int argc, char **argv, int *argc_out) {
  size_t room = sizeof(char *) * (2 * (size_t)argc + 1);
  for (int i = 0; i < argc; i++) {
    room += strlen(argv[i]) + 3;
  }
  char **out = malloc(room), *text = (char *)(out + 2 * argc + 1);
  if (!out) {
    return NULL;
  }
  int n = 0, rest = 0;
  for (int i = 0; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    if (!rest && i > 0 && strcmp(argv[i], "--") == 0) {
      rest = 1; /* the end of the options: dropped */
    } else if (rest && argv[i][0] == '-') {
      out[n++] = text; /* a file whose name starts with '-' (even "-" itself) */
      text += sprintf(text, "./%s", argv[i]) + 1;
    } else if (!rest && i > 0 && strncmp(argv[i], "--", 2) == 0 && eq && eq > argv[i] + 2) {
      *eq = '\0'; /* argv's strings are the program's to change */
      out[n++] = argv[i];
      out[n++] = eq + 1;
    } else {
      out[n++] = argv[i];
    }
  }
  out[n] = NULL;
  *argc_out = n;
  return out;
}


int cli_usage_names(const char *usage, const char *opt) {
  size_t n = strlen(opt);
  for (const char *p = strstr(usage, opt); p; p = strstr(p + 1, opt)) {
    if ((p == usage || strchr(" [|(\n", p[-1])) && strchr(" ]|)=\n", p[n] ? p[n] : ' ')) {
      return 1;
    }
  }
  return 0;
}


int cli_nearest_option(const char *usage, const char *opt, char *best, size_t size) {
  char cand[64][40];
  const char *names[64];
  int k = 0;
  for (const char *p = strstr(usage, "--"); p && k < 64; p = strstr(p + 2, "--")) {
    size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-") + 2;
    if (n <= 2 || n >= sizeof cand[0]) {
      continue;
    }
    memcpy(cand[k], p, n);
    cand[k][n] = '\0';
    names[k] = cand[k];
    k++;
  }
  const char *b = vxc_nearest_name(opt, names, k);
  if (b) {
    snprintf(best, size, "%s", b);
  }
  return b != NULL;
}


const char *cli_hint(const char *name, const char *const *names, int n, char *buf, size_t size) {
  const char *b = vxc_nearest_name(name, names, n);
  if (b) {
    snprintf(buf, size, "; did you mean '%s'?", b);
  } else if (size > 0) {
    buf[0] = '\0';
  }
  return buf;
}


const char *cli_option_hint(const char *usage, const char *opt, char *buf, size_t size) {
  char best[40];
  if (cli_nearest_option(usage, opt, best, sizeof best)) {
    snprintf(buf, size, "; did you mean '%s'?", best);
  } else if (size > 0) {
    buf[0] = '\0';
  }
  return buf;
}


int cli_check_options(const cli_command *cmd, int argc, char **argv) {
  if (!cmd->usage) {
    return CLI_OK;
  }
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) {
      break;
    }
    if (strncmp(argv[i], "--", 2) != 0 || cli_usage_names(cmd->usage, argv[i])) {
      continue;
    }
    char hint[64];
    return cli_usage_error(cmd->name, "unknown option '%s'%s", argv[i],
                           cli_option_hint(cmd->usage, argv[i], hint, sizeof hint));
  }
  return CLI_OK;
}


int cli_split_param(const char *arg, char *name, size_t size, double *value) {
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg || (size_t)(eq - arg) >= size || cli_parse_double(eq + 1, value) != 0) {
    return -1;
  }
  memcpy(name, arg, (size_t)(eq - arg));
  name[eq - arg] = '\0';
  return 0;
}
