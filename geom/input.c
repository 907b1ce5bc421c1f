/* input.c: whole-file input for the readers: the file reader and the gzip inflater they
 * share (input.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "geom/geom.h"
#include "geom/input.h"

static void reason(int e, char *why, size_t size) {
  if (strerror_r(e, why, size) != 0) {
    snprintf(why, size, "error %d", e);
  }
}


/* Reads f into buf (cap bytes, grown by doubling to at most limit + 2). */
static vxc_status read_stream(const vxc_allocator *al, FILE *f, const char *path, size_t limit,
                              const char *what, char **buf, size_t *n, vxc_error *err) {
  size_t cap = 65536;
  char *b = vxg_alloc(al, cap);
  if (!b) {
    return vxg_error_set(err, VXC_ERR_NOMEM, path, 0, 0, "out of memory");
  }
  size_t used = 0;
  for (;;) {
    if (used == cap - 1) { /* keep a byte for the NUL */
      if (used > limit) {
        vxg_free(al, b);
        return vxg_error_set(err, VXC_ERR_LIMIT, path, 0, 0, "%s larger than %zu MiB", what,
                             limit >> 20);
      }
      size_t ncap = 2 * cap > limit + 2 ? limit + 2 : 2 * cap;
      char *g = vxg_realloc(al, b, ncap);
      if (!g) {
        vxg_free(al, b);
        return vxg_error_set(err, VXC_ERR_NOMEM, path, 0, 0, "out of memory");
      }
      b = g;
      cap = ncap;
    }
    size_t got = fread(b + used, 1, cap - 1 - used, f);
    used += got;
    if (got == 0) {
      break;
    }
  }
  if (ferror(f)) {
    char why[128];
    reason(errno, why, sizeof why);
    vxg_free(al, b);
    return vxg_error_set(err, VXC_ERR_IO, path, 0, 0, "cannot read the %s: %s", what, why);
  }
  b[used] = '\0';
  *buf = b;
  *n = used;
  return VXC_OK;
}


vxc_status vxg_read_file(const vxc_allocator *al, const char *path, size_t limit, const char *what,
                         char **out, size_t *len, vxc_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    char why[128];
    reason(errno, why, sizeof why);
    return vxg_error_set(err, VXC_ERR_IO, path, 0, 0, "cannot open the %s: %s", what, why);
  }
  struct stat sb;
  vxc_status st;
  if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > limit) {
    st = vxg_error_set(err, VXC_ERR_LIMIT, path, 0, 0, "%s larger than %zu MiB", what, limit >> 20);
  } else {
    st = read_stream(al, f, path, limit, what, out, len, err);
  }
  fclose(f);
  return st;
}


int vxg_is_gzip(const void *buf, size_t len) {
  const unsigned char *b = buf;
  return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}


static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
  if (size != 0 && items > SIZE_MAX / size) {
    return Z_NULL;
  }
  return vxg_alloc((const vxc_allocator *)opaque, (size_t)items * size);
}


static void z_free(voidpf opaque, voidpf ptr) {
  vxg_free((const vxc_allocator *)opaque, ptr);
}


/* The error of an inflate() return that ends the stream badly. */
static vxc_status inflate_error(int zret, const z_stream *zs, const char *name, size_t len,
                                vxc_error *err) {
  if (zret == Z_MEM_ERROR) {
    return vxg_error_set(err, VXC_ERR_NOMEM, name, 0, 0, "out of memory");
  }
  if (zret == Z_BUF_ERROR) {
    return vxg_error_set(err, VXC_ERR_FORMAT, name, 0, 0,
                         "truncated gzip data (the stream ends early, after %zu bytes)", len);
  }
  return vxg_error_set(err, VXC_ERR_FORMAT, name, 0, 0,
                       "corrupt gzip data near byte offset %zu (%s)", len - zs->avail_in,
                       zs->msg ? zs->msg : "inflate failed");
}


/* Grows the output for inflating: doubles it up to the bound (one byte past it detects an
 * overflow). Returns VXC_OK or the error. */
static vxc_status grow_output(const vxc_allocator *al, z_stream *zs, char **o, size_t *cap,
                              size_t bound, size_t len, const char *name, vxc_error *err) {
  size_t used = *cap - 1 - zs->avail_out;
  if (used > bound) {
    return vxg_error_set(err, VXC_ERR_LIMIT, name, 0, 0,
                         "decompressed data larger than %zu MiB, the bound for %zu bytes of "
                         "gzip data (%d times their size, at least %zu MiB)",
                         bound >> 20, len, VXG_GZIP_MAX_RATIO, VXG_GZIP_FREE_BYTES >> 20);
  }
  size_t ncap = 2 * *cap > bound + 2 ? bound + 2 : 2 * *cap;
  char *g = vxg_realloc(al, *o, ncap);
  if (!g) {
    return vxg_error_set(err, VXC_ERR_NOMEM, name, 0, 0, "out of memory");
  }
  *o = g;
  *cap = ncap;
  zs->next_out = (Bytef *)g + used;
  zs->avail_out = (uInt)(ncap - 1 - used);
  return VXC_OK;
}


vxc_status vxg_gunzip(const vxc_allocator *al, const unsigned char *buf, size_t len,
                      const char *name, size_t limit, char **out, size_t *out_len, vxc_error *err) {
  size_t ratio = len > SIZE_MAX / VXG_GZIP_MAX_RATIO ? SIZE_MAX : len * VXG_GZIP_MAX_RATIO;
  size_t bound = ratio > VXG_GZIP_FREE_BYTES ? ratio : VXG_GZIP_FREE_BYTES;
  bound = bound < limit ? bound : limit;
  if (len > limit || len > (1u << 30)) { /* zlib counts its input in uInt */
    return vxg_error_set(err, VXC_ERR_LIMIT, name, 0, 0, "gzip data larger than %zu MiB",
                         (limit < (1u << 30) ? limit : (1u << 30)) >> 20);
  }
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  zs.zalloc = z_alloc;
  zs.zfree = z_free;
  zs.opaque = (voidpf)(uintptr_t)al;
  /* 16 + MAX_WBITS: a gzip wrapper, not zlib's own, with the largest window */
  int zret = inflateInit2(&zs, 16 + MAX_WBITS);
  if (zret != Z_OK) {
    return vxg_error_set(err, zret == Z_MEM_ERROR ? VXC_ERR_NOMEM : VXC_ERR_FORMAT, name, 0, 0,
                         zret == Z_MEM_ERROR ? "out of memory" : "cannot start inflating");
  }
  size_t cap = len < 1024 ? 4096 : 4 * len; /* typical ratios; grows by doubling */
  cap = cap > bound + 2 ? bound + 2 : cap;
  char *o = vxg_alloc(al, cap);
  vxc_status st = o ? VXC_OK : vxg_error_set(err, VXC_ERR_NOMEM, name, 0, 0, "out of memory");
  zs.next_in = (Bytef *)(uintptr_t)buf;
  zs.avail_in = (uInt)len;
  zs.next_out = (Bytef *)o;
  zs.avail_out = (uInt)(cap - 1); /* room for the terminating NUL */
  while (st == VXC_OK) {
    if (zs.avail_out == 0 &&
        (st = grow_output(al, &zs, &o, &cap, bound, len, name, err)) != VXC_OK) {
      break;
    }
    zret = inflate(&zs, Z_NO_FLUSH);
    if (zret == Z_STREAM_END) {
      if (zs.avail_in == 0) {
        break;
      }
      /* another gzip member follows (as `cat a.gz b.gz` makes), or garbage */
      if (vxg_is_gzip(zs.next_in, zs.avail_in)) {
        inflateReset(&zs);
        continue;
      }
      st = vxg_error_set(err, VXC_ERR_FORMAT, name, 0, 0,
                         "unexpected data after the end of the gzip stream (byte offset %zu)",
                         len - zs.avail_in);
    } else if (zret != Z_OK && !(zret == Z_BUF_ERROR && zs.avail_out == 0)) {
      st = inflate_error(zret, &zs, name, len, err);
    }
  }
  size_t n = o ? cap - 1 - zs.avail_out : 0;
  inflateEnd(&zs);
  if (st != VXC_OK) {
    vxg_free(al, o);
    return st;
  }
  o[n] = '\0';
  *out = o;
  *out_len = n;
  return VXC_OK;
}
