/* vxc_memory.h: a bound on the memory a run allocates through vxc (loading models, meshes
 * and tasks, and what they allocate later), as an allocator to hand to the loaders. */
#ifndef VXC_MEMORY_H
#define VXC_MEMORY_H

#include "vxc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A bound: every block allocated through its allocator is counted (its size in bytes, plus
 * a 16-byte header), and an allocation that would take the total beyond the limit fails
 * (the loader then returns VXC_ERR_NOMEM). Hand the same allocator to every loader of a
 * run (vxc_solid_load, vxc_task_load, ...) to bound the run's loading as a whole; the
 * solids and tasks borrow it, so it must outlive them. Thread-safe (atomic counts).
 * Not counted: Embree's BVHs (a mesh's, about a third of its size) and libccd's scratch. */
typedef struct vxc_memory_bound vxc_memory_bound;

/* A bound of `limit` bytes (> 0) over `base` (NULL: the C library's). Returns it (free with
 * vxc_memory_bound_free, after everything allocated through it), or NULL when `limit` is
 * 0 or memory runs out. */
VXC_API vxc_memory_bound *vxc_memory_bound_new(size_t limit, const vxc_allocator *base);
VXC_API void vxc_memory_bound_free(vxc_memory_bound *b);
/* The allocator to pass to the loaders (owned by b). */
VXC_API const vxc_allocator *vxc_memory_bound_allocator(const vxc_memory_bound *b);
/* Bytes allocated now and at most so far (headers included), and the number of
 * allocations refused because of the limit. */
VXC_API size_t vxc_memory_bound_used(const vxc_memory_bound *b);
VXC_API size_t vxc_memory_bound_peak(const vxc_memory_bound *b);
VXC_API size_t vxc_memory_bound_refused(const vxc_memory_bound *b);

#ifdef __cplusplus
}
#endif

#endif /* VXC_MEMORY_H */
