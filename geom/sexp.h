/* sexp.h: the S-expression reader under the model-file (and task-file) syntax (internal).
 *
 * Syntax: `;` starts a comment that runs to the end of the line; `(` and `)` delimit lists;
 * a double-quoted string may contain \" and \\ (no other escape) and spans lines; any other
 * run of characters up to whitespace, a parenthesis, a quote or `;` is a token, which is a
 * number when it is a whole decimal number ([+-] digits [. digits] [e [+-] digits], or
 * [+-] . digits [e ...]) and a bare word otherwise. Bytes 0x00-0x1f (other than whitespace)
 * and 0x7f outside strings and comments are rejected; a UTF-8 byte-order mark at the start
 * is skipped. Input starting with the gzip magic bytes 1f 8b is inflated first.
 *
 * Data structure: a document owns an arena (a chain of blocks from the caller's allocator)
 * that holds every node and every token text. Nodes form a tree by first-child / next-sibling
 * links; the document's root is a list node standing for the whole input, whose children are
 * the top-level forms. Nothing in a tree is freed separately: vxg_sexp_free releases the
 * document and its arena at once.
 *
 * Positions are 1-based lines and columns counted in bytes (a tab is one column) of the
 * inflated text. The parser is iterative (an explicit stack bounded by VXG_SEXP_MAX_DEPTH),
 * so no input can exhaust the C stack. */
#ifndef VXG_SEXP_H
#define VXG_SEXP_H

#include <stddef.h>

#include "geom/vxc_types.h"

#define VXG_SEXP_MAX_DEPTH 64              /* lists nested deeper are rejected */
#define VXG_SEXP_MAX_INPUT (64u << 20)     /* bytes of text (after inflation) */
#define VXG_SEXP_MAX_TOKEN 4096            /* bytes in one word, number or string */
#define VXG_SEXP_MAX_NODES (1 << 20)       /* nodes in one document */

typedef enum vxg_sexp_kind {
  VXG_SEXP_LIST = 0,  /* ( ... ): child, nchild */
  VXG_SEXP_WORD,      /* a bare word: text */
  VXG_SEXP_STRING,    /* a double-quoted string: text, escapes resolved */
  VXG_SEXP_NUMBER     /* a decimal number: text as written, num its finite value */
} vxg_sexp_kind;

typedef struct vxg_sexp {
  vxg_sexp_kind kind;
  int line, column;          /* of the first byte ('(' for a list, '"' for a string) */
  int nchild;                /* LIST: number of elements */
  struct vxg_sexp *child;    /* LIST: first element, NULL when empty */
  struct vxg_sexp *next;     /* next element of the enclosing list, NULL at its end */
  const char *text;          /* WORD, STRING, NUMBER: NUL-terminated; NULL for a LIST */
  double num;                /* NUMBER: the value (always finite); 0 otherwise */
} vxg_sexp;

struct vxg_sexp_block;

typedef struct vxg_sexp_doc {
  vxg_sexp *root;             /* LIST of the top-level forms, at line 1, column 1 */
  int end_line, end_column;   /* position just past the last byte of the text */
  int nnode;                  /* nodes allocated (the root included) */
  const vxc_allocator *al;    /* borrowed: must outlive the document */
  struct vxg_sexp_block *blocks; /* the arena, owned */
} vxg_sexp_doc;

/* Parses `len` bytes of `buf` (not NUL-terminated; plain text or gzip data). `file` names
 * the input in messages (NULL: none). On success *out is a document owned by the caller
 * (vxg_sexp_free). Returns VXC_OK; VXC_ERR_FORMAT (an unbalanced parenthesis, with the
 * position of the unclosed '(' or of the stray ')'; an unterminated string or unknown
 * escape; a control byte; a number that overflows a double; corrupt or truncated gzip data);
 * VXC_ERR_LIMIT (nesting deeper than VXG_SEXP_MAX_DEPTH, text larger than
 * VXG_SEXP_MAX_INPUT, a token longer than VXG_SEXP_MAX_TOKEN, more than VXG_SEXP_MAX_NODES
 * nodes); VXC_ERR_NOMEM. `err` (nullable) is filled on failure, with file, line and column
 * when the error is about a position; *out is untouched on failure. An empty input is not
 * an error (the root has no children). */
vxc_status vxg_sexp_parse(const vxc_allocator *al, const char *buf, size_t len,
                          const char *file, vxg_sexp_doc **out, vxc_error *err);

/* Frees a document and every node and text in it; NULL is a no-op. */
void vxg_sexp_free(vxg_sexp_doc *doc);

/* 1 when `n` is a bare word equal to `word`, else 0 (n may be NULL). */
int vxg_sexp_is_word(const vxg_sexp *n, const char *word);

#endif /* VXG_SEXP_H */
