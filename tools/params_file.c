/* params_file.c: contact-parameter files (--params FILE): one `NAME VALUE` or
 * `NAME = VALUE` per line, `#` or `;` starting a comment. The text parser works on memory
 * (the command-line fuzz target calls it); the file reader bounds what it reads. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

/* Parses one line (NUL-terminated, modified in place). Returns 0, or -1 with "COL: why". */
static int params_line(char *line, vxc_params *p, int *col, char *msg, size_t size) {
  char *c = strpbrk(line, "#;");
  if (c) {
    *c = '\0';
  }
  for (char *e = line; *e; e++) {
    *e = *e == '=' ? ' ' : *e;
  }
  char *name = line + strspn(line, " \t\r");
  if (*name == '\0') {
    return 0;
  }
  char *end = name + strcspn(name, " \t\r");
  char *val = end + strspn(end, " \t\r");
  char *vend = val + strcspn(val, " \t\r");
  char *rest = vend + strspn(vend, " \t\r");
  int col_name = (int)(name - line) + 1, col_val = (int)(val - line) + 1;
  *end = '\0';
  *vend = '\0'; /* a blank or the end: `rest` starts after it */
  double x;
  vxc_error err;
  if (*val == '\0') {
    *col = col_name + (int)strlen(name);
    snprintf(msg, size, "expected a value after '%.64s'", name);
  } else if (cli_parse_double(val, &x) != 0) {
    *col = col_val;
    snprintf(msg, size, "expected a number for '%.64s', got '%.64s'", name, val);
  } else if (*rest != '\0') {
    *col = (int)(rest - line) + 1;
    snprintf(msg, size, "unexpected '%.64s' after the value of '%.64s'", rest, name);
  } else if (vxc_params_set(p, name, x, &err) != VXC_OK) {
    *col = col_name;
    snprintf(msg, size, "%.190s", err.message);
  } else {
    return 0;
  }
  return -1;
}


int cli_params_text(const char *text, size_t len, vxc_params *p, char *msg, size_t size) {
  char line[CLI_PARAMS_LINE_MAX + 1];
  size_t at = 0;
  for (int lineno = 1; at < len; lineno++) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
    if (memchr(text + at, '\0', n)) {
      snprintf(msg, size, "%d:%d: a NUL byte: not a text file", lineno,
               (int)((const char *)memchr(text + at, '\0', n) - (text + at)) + 1);
      return -1;
    }
    if (n > CLI_PARAMS_LINE_MAX) {
      snprintf(msg, size, "%d:%d: line longer than %d characters", lineno, CLI_PARAMS_LINE_MAX + 1,
               CLI_PARAMS_LINE_MAX);
      return -1;
    }
    memcpy(line, text + at, n);
    line[n] = '\0';
    int col = 0;
    char why[200];
    if (params_line(line, p, &col, why, sizeof why) != 0) {
      snprintf(msg, size, "%d:%d: %s", lineno, col, why);
      return -1;
    }
    at += n + 1;
  }
  return 0;
}


int cli_read_params(const char *path, vxc_params *p) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "vxc: %s: cannot open: %s\n", path, strerror(errno));
    return -1;
  }
  char *buf = malloc(CLI_PARAMS_FILE_MAX + 1);
  size_t n = buf ? fread(buf, 1, CLI_PARAMS_FILE_MAX + 1, f) : 0;
  int bad = !buf || ferror(f);
  fclose(f);
  int rc = -1;
  char msg[400];
  if (bad) {
    fprintf(stderr, "vxc: %s: %s\n", path, buf ? "read error" : "out of memory");
  } else if (n > CLI_PARAMS_FILE_MAX) {
    fprintf(stderr, "vxc: %s: parameter file larger than %d KiB\n", path,
            CLI_PARAMS_FILE_MAX >> 10);
  } else if (cli_params_text(buf, n, p, msg, sizeof msg) != 0) {
    fprintf(stderr, "vxc: %s:%s\n", path, msg);
  } else {
    rc = 0;
  }
  free(buf);
  return rc;
}
