/* sexp.c: the S-expression reader (syntax and limits in sexp.h).
 *
 * Data structures: a document (vxg_sexp_doc) owns an arena, a singly linked chain of blocks
 * allocated through the caller's allocator; nodes and token texts are carved from the newest
 * block (16-byte aligned) and freed only with the whole document. The parser keeps an explicit
 * stack of the open lists, each with a pointer to its last element so that appending is O(1);
 * stack[0] is the document's root. A token is first copied into a fixed buffer in the lexer
 * (its length is bounded by VXG_SEXP_MAX_TOKEN) and then into the arena.
 *
 * Gzip input is inflated into a temporary buffer (freed before returning) and then parsed as
 * text; zlib allocates through the caller's allocator too. */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "geom/geom.h"
#include "geom/input.h"
#include "geom/sexp.h"

/* An arena block: this header, then `cap` bytes of which `used` are handed out. */
struct vxg_sexp_block {
  struct vxg_sexp_block *next;
  size_t used, cap;
};

#define ARENA_ALIGN 16
#define ARENA_HEADER \
  ((sizeof(struct vxg_sexp_block) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))
#define ARENA_BLOCK 32768


static void *arena_alloc(vxg_sexp_doc *doc, size_t size) {
  size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  struct vxg_sexp_block *b = doc->blocks;
  if (!b || b->cap - b->used < size) {
    size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
    b = vxg_alloc(doc->al, ARENA_HEADER + cap);
    if (!b) {
      return NULL;
    }
    b->next = doc->blocks;
    b->used = 0;
    b->cap = cap;
    doc->blocks = b;
  }
  void *p = (unsigned char *)b + ARENA_HEADER + b->used;
  b->used += size;
  return p;
}


void vxg_sexp_free(vxg_sexp_doc *doc) {
  if (!doc) {
    return;
  }
  struct vxg_sexp_block *b = doc->blocks;
  while (b) {
    struct vxg_sexp_block *next = b->next;
    vxg_free(doc->al, b);
    b = next;
  }
  vxg_free(doc->al, doc);
}


int vxg_sexp_is_word(const vxg_sexp *n, const char *word) {
  return n && n->kind == VXG_SEXP_WORD && strcmp(n->text, word) == 0;
}


/* ---------------------------------------------------------------------------------------
 * Gzip. */

/* ---------------------------------------------------------------------------------------
 * Lexing and parsing. */

typedef struct lexer {
  const unsigned char *p; /* the text */
  size_t len, pos;        /* its length, the current byte */
  int line, col;          /* position of p[pos] */
  const char *file;
  vxc_error *err;
  vxg_sexp_doc *doc;
  size_t ntok;                      /* bytes in tok */
  char tok[VXG_SEXP_MAX_TOKEN + 1]; /* the token being read, NUL-terminated */
} lexer;

/* An open list on the parser's stack and its last element. */
typedef struct frame {
  vxg_sexp *list;
  vxg_sexp *tail;
} frame;


static int is_space(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}


static int is_control(int c) {
  return (c < 0x20 && !is_space(c)) || c == 0x7f;
}


/* 1 when c ends a bare word or number. */
static int is_delim(int c) {
  return is_space(c) || c == '(' || c == ')' || c == '"' || c == ';' || is_control(c);
}


static int is_digit(int c) {
  return c >= '0' && c <= '9';
}


/* 1 when s (n bytes) is a whole decimal number: [+-] (d+ [. d*] | . d+) [(e|E) [+-] d+]. */
static int is_decimal(const char *s, size_t n) {
  size_t i = 0, digits = 0;
  if (i < n && (s[i] == '+' || s[i] == '-')) {
    i++;
  }
  while (i < n && is_digit(s[i])) {
    i++;
    digits++;
  }
  if (i < n && s[i] == '.') {
    i++;
    while (i < n && is_digit(s[i])) {
      i++;
      digits++;
    }
  }
  if (digits == 0) {
    return 0;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
      i++;
    }
    size_t exp_digits = 0;
    while (i < n && is_digit(s[i])) {
      i++;
      exp_digits++;
    }
    if (exp_digits == 0) {
      return 0;
    }
  }
  return i == n;
}


/* Converts a decimal number (is_decimal holds) whatever the C locale's decimal point: the
 * '.' is replaced by the locale's before strtod. Returns the value (infinite on overflow). */
static double decimal_value(const char *s, size_t n) {
  const char *dp = localeconv()->decimal_point;
  if (!dp || (dp[0] == '.' && dp[1] == '\0') || !strchr(s, '.')) {
    return strtod(s, NULL);
  }
  size_t ndp = strlen(dp);
  char buf[VXG_SEXP_MAX_TOKEN + 16];
  if (ndp > 8) {
    return strtod(s, NULL); /* no such locale; keep the buffer bounded */
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '.') {
      memcpy(buf + k, dp, ndp);
      k += ndp;
    } else {
      buf[k++] = s[i];
    }
  }
  buf[k] = '\0';
  return strtod(buf, NULL);
}


static vxg_sexp *new_node(lexer *lx, vxg_sexp_kind kind, int line, int col) {
  if (lx->doc->nnode >= VXG_SEXP_MAX_NODES) {
    vxg_error_set(lx->err, VXC_ERR_LIMIT, lx->file, line, col, "too many elements (more than %d)",
                  VXG_SEXP_MAX_NODES);
    return NULL;
  }
  vxg_sexp *n = arena_alloc(lx->doc, sizeof *n);
  if (!n) {
    vxg_error_set(lx->err, VXC_ERR_NOMEM, lx->file, 0, 0, "out of memory");
    return NULL;
  }
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->line = line;
  n->column = col;
  lx->doc->nnode++;
  return n;
}


/* A node for the token in lx->tok. Returns NULL with the error set on failure. */
static vxg_sexp *token_node(lexer *lx, vxg_sexp_kind kind, int line, int col) {
  vxg_sexp *n = new_node(lx, kind, line, col);
  if (!n) {
    return NULL;
  }
  char *text = arena_alloc(lx->doc, lx->ntok + 1);
  if (!text) {
    vxg_error_set(lx->err, VXC_ERR_NOMEM, lx->file, 0, 0, "out of memory");
    return NULL;
  }
  memcpy(text, lx->tok, lx->ntok + 1);
  n->text = text;
  if (kind == VXG_SEXP_WORD && is_decimal(text, lx->ntok)) {
    double v = decimal_value(text, lx->ntok);
    if (!isfinite(v)) {
      vxg_error_set(lx->err, VXC_ERR_FORMAT, lx->file, line, col,
                    "number '%s' is out of range (too large for a double)", text);
      return NULL;
    }
    n->kind = VXG_SEXP_NUMBER;
    n->num = v;
  }
  return n;
}


static void advance(lexer *lx) {
  if (lx->p[lx->pos] == '\n') {
    lx->line++;
    lx->col = 1;
  } else {
    lx->col++;
  }
  lx->pos++;
}


/* Reads a string whose opening quote is at lx->pos into lx->tok. 0, or -1 with the error
 * set. */
static int read_string(lexer *lx) {
  int line = lx->line, col = lx->col;
  advance(lx); /* the opening quote */
  lx->ntok = 0;
  for (;;) {
    if (lx->pos >= lx->len) {
      vxg_error_set(lx->err, VXC_ERR_FORMAT, lx->file, line, col,
                    "unterminated string: the '\"' opened here is never closed");
      return -1;
    }
    int c = lx->p[lx->pos];
    if (c == '"') {
      advance(lx);
      break;
    }
    if (c == '\0') {
      vxg_error_set(lx->err, VXC_ERR_FORMAT, lx->file, lx->line, lx->col,
                    "unexpected NUL byte in a string (is this a binary file?)");
      return -1;
    }
    if (c == '\\') {
      int eline = lx->line, ecol = lx->col;
      advance(lx);
      if (lx->pos >= lx->len) {
        continue; /* reported as unterminated */
      }
      c = lx->p[lx->pos];
      if (c != '"' && c != '\\') {
        if (c >= 0x20 && c < 0x7f) {
          vxg_error_set(lx->err, VXC_ERR_FORMAT, lx->file, eline, ecol,
                        "unknown escape '\\%c' in a string (only \\\" and \\\\ are allowed)", c);
        } else {
          vxg_error_set(lx->err, VXC_ERR_FORMAT, lx->file, eline, ecol,
                        "unknown escape in a string (only \\\" and \\\\ are allowed)");
        }
        return -1;
      }
    }
    if (lx->ntok >= VXG_SEXP_MAX_TOKEN) {
      vxg_error_set(lx->err, VXC_ERR_LIMIT, lx->file, line, col, "string longer than %d bytes",
                    VXG_SEXP_MAX_TOKEN);
      return -1;
    }
    lx->tok[lx->ntok++] = (char)c;
    advance(lx);
  }
  lx->tok[lx->ntok] = '\0';
  return 0;
}


/* Reads a bare word or number at lx->pos into lx->tok. 0, or -1 with the error set. */
static int read_word(lexer *lx) {
  int line = lx->line, col = lx->col;
  lx->ntok = 0;
  while (lx->pos < lx->len && !is_delim(lx->p[lx->pos])) {
    if (lx->ntok >= VXG_SEXP_MAX_TOKEN) {
      vxg_error_set(lx->err, VXC_ERR_LIMIT, lx->file, line, col, "word longer than %d bytes",
                    VXG_SEXP_MAX_TOKEN);
      return -1;
    }
    lx->tok[lx->ntok++] = (char)lx->p[lx->pos];
    lx->pos++;
    lx->col++;
  }
  lx->tok[lx->ntok] = '\0';
  return 0;
}


static void append(frame *f, vxg_sexp *n) {
  if (f->tail) {
    f->tail->next = n;
  } else {
    f->list->child = n;
  }
  f->tail = n;
  f->list->nchild++;
}


/* Parses text into doc (whose root exists). 0, or -1 with the error set. */
static int parse_text(lexer *lx) {
  frame stack[VXG_SEXP_MAX_DEPTH + 1];
  int depth = 0;
  stack[0].list = lx->doc->root;
  stack[0].tail = NULL;
  /* a UTF-8 byte-order mark is not content */
  if (lx->len >= 3 && lx->p[0] == 0xef && lx->p[1] == 0xbb && lx->p[2] == 0xbf) {
    lx->pos = 3;
  }
  while (lx->pos < lx->len) {
    int c = lx->p[lx->pos];
    if (is_space(c)) {
      advance(lx);
    } else if (c == ';') {
      while (lx->pos < lx->len && lx->p[lx->pos] != '\n') {
        lx->pos++;
        lx->col++;
      }
    } else if (c == '(') {
      if (depth == VXG_SEXP_MAX_DEPTH) {
        vxg_error_set(lx->err, VXC_ERR_LIMIT, lx->file, lx->line, lx->col,
                      "lists nested more than %d deep", VXG_SEXP_MAX_DEPTH);
        return -1;
      }
      vxg_sexp *n = new_node(lx, VXG_SEXP_LIST, lx->line, lx->col);
      if (!n) {
        return -1;
      }
      append(&stack[depth], n);
      depth++;
      stack[depth].list = n;
      stack[depth].tail = NULL;
      advance(lx);
    } else if (c == ')') {
      if (depth == 0) {
        vxg_error_set(lx->err, VXC_ERR_FORMAT, lx->file, lx->line, lx->col,
                      "unbalanced parentheses: unexpected ')' with no list open");
        return -1;
      }
      depth--;
      advance(lx);
    } else if (c == '"') {
      int line = lx->line, col = lx->col;
      if (read_string(lx) != 0) {
        return -1;
      }
      vxg_sexp *n = token_node(lx, VXG_SEXP_STRING, line, col);
      if (!n) {
        return -1;
      }
      append(&stack[depth], n);
    } else if (is_control(c)) {
      vxg_error_set(lx->err, VXC_ERR_FORMAT, lx->file, lx->line, lx->col,
                    "unexpected control byte 0x%02x (is this a binary file?)", c);
      return -1;
    } else {
      int line = lx->line, col = lx->col;
      if (read_word(lx) != 0) {
        return -1;
      }
      vxg_sexp *n = token_node(lx, VXG_SEXP_WORD, line, col);
      if (!n) {
        return -1;
      }
      append(&stack[depth], n);
    }
  }
  lx->doc->end_line = lx->line;
  lx->doc->end_column = lx->col;
  if (depth > 0) {
    const vxg_sexp *open = stack[depth].list;
    vxg_error_set(lx->err, VXC_ERR_FORMAT, lx->file, open->line, open->column,
                  "unbalanced parentheses: the list opened here is not closed before the end "
                  "of the input (line %d)%s",
                  lx->line, depth > 1 ? "; more lists around it are open too" : "");
    return -1;
  }
  return 0;
}


vxc_status vxg_sexp_parse(const vxc_allocator *al, const char *buf, size_t len, const char *file,
                          vxg_sexp_doc **out, vxc_error *err) {
  vxc_error local;
  if (!err) {
    err = &local;
  }
  if (!buf && len > 0) {
    return vxg_error_set(err, VXC_ERR_ARG, file, 0, 0, "no input buffer");
  }
  char *inflated = NULL;
  const unsigned char *text = (const unsigned char *)buf;
  if (len >= 2 && text[0] == 0x1f && text[1] == 0x8b) {
    vxc_status st = vxg_gunzip(al, text, len, file, VXG_SEXP_MAX_INPUT, &inflated, &len, err);
    if (st != VXC_OK) {
      return st;
    }
    text = (const unsigned char *)inflated;
  } else if (len > VXG_SEXP_MAX_INPUT) {
    return vxg_error_set(err, VXC_ERR_LIMIT, file, 0, 0, "input is larger than %u MiB",
                         VXG_SEXP_MAX_INPUT >> 20);
  }
  vxg_sexp_doc *doc = vxg_alloc(al, sizeof *doc);
  if (!doc) {
    vxg_free(al, inflated);
    return vxg_error_set(err, VXC_ERR_NOMEM, file, 0, 0, "out of memory");
  }
  memset(doc, 0, sizeof *doc);
  doc->al = al;
  doc->end_line = doc->end_column = 1;
  /* the lexer holds a token buffer of VXG_SEXP_MAX_TOKEN bytes: keep it off the stack */
  lexer *lx = vxg_alloc(al, sizeof *lx);
  if (!lx) {
    vxg_free(al, inflated);
    vxg_sexp_free(doc);
    return vxg_error_set(err, VXC_ERR_NOMEM, file, 0, 0, "out of memory");
  }
  lx->p = text;
  lx->len = len;
  lx->pos = 0;
  lx->line = lx->col = 1;
  lx->file = file;
  lx->err = err;
  lx->doc = doc;
  lx->ntok = 0;
  doc->root = new_node(lx, VXG_SEXP_LIST, 1, 1);
  int ok = doc->root && parse_text(lx) == 0;
  vxc_status st = ok ? VXC_OK : err->status;
  vxg_free(al, lx);
  vxg_free(al, inflated);
  if (!ok) {
    vxg_sexp_free(doc);
    return st;
  }
  *out = doc;
  return VXC_OK;
}
