/* vxc_types.h: the plain types of the vxc public API (no functions, no third-party headers).
 *
 * Every layer may include this header: it holds the status codes, the error record that
 * library functions fill instead of printing, and the allocator hook. Units are SI
 * throughout (metres, kilograms, seconds, radians). */
#ifndef VXC_TYPES_H
#define VXC_TYPES_H

#include <stddef.h>

#if defined(VXC_BUILDING_LIBRARY) && defined(__GNUC__)
#define VXC_API __attribute__((visibility("default")))
#else
#define VXC_API
#endif

#include "vxc_version.h" /* VXC_VERSION, VXC_VERSION_NUMBER */

/* Status of every library call: 0 is success, negative values are errors, positive values
 * are special but normal outcomes. */
typedef enum vxc_status {
  VXC_OK = 0,
  VXC_NO_CONTACT = 1,        /* a query found the bodies apart (not an error) */
  VXC_ERR_NOMEM = -1,        /* an allocation failed */
  VXC_ERR_ARG = -2,          /* an argument was invalid (the message names it) */
  VXC_ERR_IO = -3,           /* a file could not be opened or read */
  VXC_ERR_FORMAT = -4,       /* a file is malformed (the message names file, line, column) */
  VXC_ERR_GEOMETRY = -5,     /* a model is geometrically invalid (an unbounded cell, ...) */
  VXC_ERR_LIMIT = -6,        /* a fixed capacity or a work cap was exceeded */
  VXC_ERR_NUMERIC = -7,      /* a computation produced NaN or did not converge */
  VXC_ERR_STOPPED = -8       /* the caller's stop flag ended the computation */
} vxc_status;

/* Where an error is described. Library functions fill it (when the caller passes one) and
 * never print. `message` is a complete one-line message, e.g.
 * "data/box.vxm:3:7: expected a number after 'sphere'". `line` and `column` are 1-based and
 * 0 when the error is not about a position in a file. */
typedef struct vxc_error {
  vxc_status status;
  int line;
  int column;
  char file[256];
  char message[768];
} vxc_error;

/* Allocator hook (Lua's lua_Alloc in spirit). `realloc(ud, ptr, size)` behaves like
 * realloc(3): ptr NULL allocates, size 0 frees and returns NULL, NULL on failure leaves ptr
 * untouched. A NULL vxc_allocator pointer anywhere in the API means the C library's. */
typedef struct vxc_allocator {
  void *(*realloc)(void *ud, void *ptr, size_t size);
  void *ud;
} vxc_allocator;

#endif /* VXC_TYPES_H */
