/* input.h: whole-file input for the readers (model, mesh and task files): one file reader
 * and one gzip inflater, both bounded, both through the caller's allocator. */
#ifndef VXG_INPUT_H
#define VXG_INPUT_H

#include <stddef.h>

#include "geom/vxc_types.h"

/* Inflated data may be at most this many times the compressed size once past
 * VXG_GZIP_FREE_BYTES: text and meshes compress 3 to 20 times, a gzip bomb 1000 times, so a
 * bomb stops after a few MiB instead of at the size limit. */
#define VXG_GZIP_MAX_RATIO 64
#define VXG_GZIP_FREE_BYTES ((size_t)16 << 20)

/* Reads the whole file `path` into a new buffer allocated with `al` (free with vxg_free),
 * NUL-terminated after *len bytes. A regular file over `limit` bytes is refused from its
 * size before anything is read; another (a pipe, a device) is read up to limit + 1 bytes.
 * `what` names the file in messages ("model file"). Returns VXC_OK; VXC_ERR_IO (cannot
 * open or read: the message says why), VXC_ERR_LIMIT ("WHAT larger than N MiB"),
 * VXC_ERR_NOMEM; the outputs are untouched on failure. */
vxc_status vxg_read_file(const vxc_allocator *al, const char *path, size_t limit, const char *what,
                         char **out, size_t *len, vxc_error *err);

/* 1 when `buf` starts with the gzip magic bytes 1f 8b. */
int vxg_is_gzip(const void *buf, size_t len);

/* Inflates gzip data (concatenated members allowed) into a new buffer allocated with `al`,
 * NUL-terminated after *out_len bytes. At most `limit` bytes, and at most
 * VXG_GZIP_MAX_RATIO times `len` beyond VXG_GZIP_FREE_BYTES. `name` names the data in
 * messages. Returns VXC_OK; VXC_ERR_FORMAT (corrupt, truncated or trailing data);
 * VXC_ERR_LIMIT (either bound); VXC_ERR_NOMEM; the outputs are untouched on failure. */
vxc_status vxg_gunzip(const vxc_allocator *al, const unsigned char *buf, size_t len,
                      const char *name, size_t limit, char **out, size_t *out_len, vxc_error *err);

#endif /* VXG_INPUT_H */
