/* vxc_test_api.h: what the black-box tests of the public API share (include after
 * vxc_test.h and vxc.h): a solid from model text, the angle between two vectors, and a
 * quaternion's rotation matrix. */
#ifndef VXC_TEST_API_H
#define VXC_TEST_API_H

#include <unistd.h>

/* Writes model text to a temporary file and loads it (the test fails when it does not
 * load, after printing the message). */
static inline vxc_solid *vxc_test_load_text(const char *text) {
  char path[] = "/tmp/vxc_test_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  vxc_solid *s = NULL;
  vxc_error err;
  vxc_status st = vxc_solid_load(path, NULL, &s, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  unlink(path);
  assert_int_equal(st, VXC_OK);
  return s;
}


/* The default query options with the closed forms off (vxc_query_options.closed_form): the
 * tests of the octree on caps and lenses measure the octree, not the formula. */
static inline void vxc_test_octree_options(vxc_query_options *o) {
  vxc_query_options_default(o);
  o->closed_form = 0;
}


/* The angle between a and b, rad (atan2 of |a x b| and a.b: accurate near 0). */
static inline double vxc_test_angle(const double a[3], const double b[3]) {
  double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  double x[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  return atan2(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), c);
}

/* The rotation matrix R (row-major) of the unit quaternion q = (w, x, y, z). */
static inline void vxc_test_quat_matrix(const double q[4], double R[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                 2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                 2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  memcpy(R, r, sizeof r);
}

#endif /* VXC_TEST_API_H */
