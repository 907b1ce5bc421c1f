/* cli_input.c: the one model or task file a command reads, `-` standing for standard input.
 *
 * Standard input is read whole (a pipe has no name to reopen) and handed to the library's
 * in-memory readers under the name "<stdin>", so messages read "<stdin>:LINE:COLUMN: ...";
 * the mesh and model files it names resolve against the current directory, as there is no
 * file whose directory they could be relative to. It can be read once per command. Both
 * load through the --max-memory bound (cli_allocator). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

/* One byte past the readers' 64 MiB limit on a file's text: a larger input is read that far
 * and refused by the reader, never cut. */
#define CLI_STDIN_MAX ((64u << 20) + 1)

static int stdin_read; /* standard input has been consumed */


/* Sets *err to a message about standard input; returns the status. */
static vxc_status stdin_error(vxc_error *err, vxc_status st, const char *msg) {
  memset(err, 0, sizeof *err);
  err->status = st;
  snprintf(err->file, sizeof err->file, "%s", CLI_STDIN_NAME);
  snprintf(err->message, sizeof err->message, "%s: %s", CLI_STDIN_NAME, msg);
  return st;
}


/* Reads standard input whole (up to CLI_STDIN_MAX bytes) into *text (free with free()). */
static vxc_status read_stdin(char **text, size_t *len, vxc_error *err) {
  if (stdin_read) {
    return stdin_error(err, VXC_ERR_ARG, "standard input ('-') can be read only once");
  }
  stdin_read = 1;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, stdin);
    if (n < cap || cap >= CLI_STDIN_MAX) {
      break;
    }
    size_t ncap = cap * 2 < CLI_STDIN_MAX ? cap * 2 : CLI_STDIN_MAX;
    char *nb = realloc(buf, ncap);
    if (!nb) {
      free(buf);
      buf = NULL;
    } else {
      buf = nb;
      cap = ncap;
    }
  }
  if (!buf) {
    return stdin_error(err, VXC_ERR_NOMEM, "out of memory");
  }
  if (ferror(stdin)) {
    char msg[300];
    snprintf(msg, sizeof msg, "read error: %s", strerror(errno));
    free(buf);
    return stdin_error(err, VXC_ERR_IO, msg);
  }
  *text = buf;
  *len = n;
  return VXC_OK;
}


static int cli_is_stdin(const char *path) {
  return path && strcmp(path, "-") == 0;
}


vxc_status cli_solid_load(const char *path, vxc_solid **out, vxc_error *err) {
  if (!cli_is_stdin(path)) {
    return vxc_solid_load(path, cli_allocator(), out, err);
  }
  char *text = NULL;
  size_t len = 0;
  vxc_status st = read_stdin(&text, &len, err);
  if (st == VXC_OK) {
    st = vxc_solid_parse(text, len, CLI_STDIN_NAME, cli_allocator(), out, err);
  }
  free(text);
  return st;
}


vxc_status cli_task_load(const char *path, vxc_task **out, vxc_error *err) {
  if (!cli_is_stdin(path)) {
    return vxc_task_load(path, cli_allocator(), out, err);
  }
  char *text = NULL;
  size_t len = 0;
  vxc_status st = read_stdin(&text, &len, err);
  if (st == VXC_OK) {
    st = vxc_task_parse(text, len, CLI_STDIN_NAME, NULL, cli_allocator(), out, err);
  }
  free(text);
  return st;
}
