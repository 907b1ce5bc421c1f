/* mesh.c: closed triangle meshes as cells. Loading and queries come with the mesh issue;
 * until then a model that names a mesh is rejected with a clear message. */
#include "geom.h"

vxc_status vxg_mesh_load(const vxc_allocator *al, const char *path, double scale,
                         struct vxg_mesh **out, vxc_error *err) {
  (void)al;
  (void)scale;
  (void)out;
  return vxg_error_set(err, VXC_ERR_FORMAT, path, 0, 0,
                       "triangle meshes are not supported by this build yet");
}


void vxg_mesh_free(struct vxg_mesh *m) {
  (void)m;
}
