/* test_task_kinematic.c: a prescribed-displacement insertion: a peg driven along a line (no
 * gripper) into the bore of a fixed block. Both bodies are kinematic, so the contact moves
 * neither; its force is measured and reported. The peg, a rod of radius r, is off the bore's
 * axis by e with r + e > R, so it cuts into one side of the bore (radius R) over the inserted
 * depth d: the region is a prism of height d on the lune of the rod's disc outside the
 * bore's, V = d (pi r^2 - lens(r, R, e)), and with no damping (e_eff = 1) the normal force is
 * k_v V, at every record and as the summary's peak. */
#include "tests/vxc_test.h"

#include <unistd.h>

#include "lib/vxc.h"

#define ROD_R 0.01     /* m */
#define BORE_R 0.0101  /* m */
#define OFFSET 0.0005  /* e, m: the lune is r + e - R = 0.4 mm wide */
#define BLOCK_H 0.03   /* the bore's length, m (the block's top face at z = 0) */
#define SPEED 0.1      /* m/s, down */
#define START 0.001    /* the rod's end above the block at t = 0, m */
#define K_V 1e10       /* N/m^3 */

/* Area of the intersection of two discs of radii a and b whose centres are d apart
 * (|a - b| < d < a + b). */
static double lens_area(double a, double b, double d) {
  double ka = acos((d * d + a * a - b * b) / (2 * d * a));
  double kb = acos((d * d + b * b - a * a) / (2 * d * b));
  double s = sqrt((-d + a + b) * (d + a - b) * (d - a + b) * (d + a + b));
  return a * a * ka + b * b * kb - 0.5 * s;
}


/* The interference volume with the rod's end at depth d below the block's top face. */
static double expected_volume(double d) {
  double area = M_PI * ROD_R * ROD_R - lens_area(ROD_R, BORE_R, OFFSET);
  return d <= 0 ? 0 : area * fmin(d, BLOCK_H);
}


static void remove_file(const char *dir, const char *name) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  unlink(path);
}


typedef struct seen {
  int checked;      /* records in contact, checked */
  double last_d;    /* the depth at the last record */
} seen;

/* At each record: the block where it was, the peg on its line, and in contact (past 2 mm)
 * V and f_n against the closed form, whatever the normal (the damping is off). */
static int check_record(void *ud, const vxc_task_record *r) {
  seen *s = ud;
  assert_int_equal(r->nbody, 2);
  for (int j = 0; j < 3; j++) {
    assert_true(r->body[0].pose[j] == 0);
  }
  double z = START - SPEED * r->t, d = -z;
  assert_double_near(r->body[1].pose[2], z, 1e-15);
  assert_double_near(r->body[1].pose[0], OFFSET, 0);
  double v = expected_volume(d);
  if (d > 2e-3) {
    assert_double_rel(r->contact[0].volume, v, 1e-9);
    assert_double_rel(r->contact[0].f_n, K_V * v, 1e-9);
    assert_double_near(r->contact[0].normal[1], 0, 1e-9); /* in the plane of the offset */
    s->checked++;
  } else if (d < 0) {
    assert_int_equal(r->contact[0].npairs, 0);
  }
  s->last_d = d;
  return 0;
}


static void test_driven_peg_into_fixed_block(void **state) {
  (void)state;
  char dir[] = "/tmp/vxc-kinematic-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char text[2048];
  snprintf(text, sizeof text, "(solid rod (cell rod (cylinder %.17g) (slab z 0 0.05)))\n", ROD_R);
  vxc_test_write(dir, "rod.vxm", text);
  snprintf(text, sizeof text,
           "(solid bore (cell body (box 0.04 0.04 %.17g) (not (cylinder %.17g))\n"
           "  (pose (translate 0 0 %.17g))))\n",
           BLOCK_H, BORE_R, -BLOCK_H / 2);
  vxc_test_write(dir, "bore.vxm", text);
  snprintf(text, sizeof text,
           "(task insert (duration 0.2) (integrator rk4 (step 1e-3)) (record (every 0.01))\n"
           "  (body block (model \"bore.vxm\") (fixed) (pose 0 0 0))\n"
           "  (body peg (model \"rod.vxm\") (driven (line 0 0 %.17g)) (pose %.17g 0 %.17g))\n"
           "  (contact block peg (params (k_v %.17g) (e_eff 1) (mu_s 0.2) (mu_c 0.15))))\n",
           -SPEED, OFFSET, START, K_V);
  vxc_task *t = NULL;
  vxc_error err;
  vxc_status st = vxc_task_parse(text, strlen(text), "insert.vxt", dir, NULL, &t, &err);
  remove_file(dir, "rod.vxm");
  remove_file(dir, "bore.vxm");
  rmdir(dir);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK); /* a kinematic pair is a contact no longer refused */
  seen s = {0, 0};
  vxc_task_summary sum;
  st = vxc_task_run(t, check_record, NULL, &s, &sum, &err);
  if (st != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
  }
  assert_int_equal(st, VXC_OK);
  assert_true(sum.completed);
  assert_true(s.checked >= 15);
  /* the deepest record is the last: the peak is k_v V there */
  assert_double_rel(sum.contact[0].peak_fn, K_V * expected_volume(s.last_d), 1e-9);
  assert_double_near(sum.contact[0].first, START / SPEED, 1e-6);
  /* sliding at mu_c against the wall: the friction's peak is mu_c f_n */
  assert_double_rel(sum.contact[0].peak_ft, 0.15 * sum.contact[0].peak_fn, 1e-3);
  /* the driver's work is what the contact stored and dissipated */
  assert_double_near(sum.energy.work_in, sum.energy.elastic + sum.energy.dissipated,
                     1e-9 * sum.energy.work_in);
  vxc_task_free(t);
}


/* Two fixed bodies still cannot form a contact; a driven body and a fixed one can. */
static void test_kinematic_pairs_read(void **state) {
  (void)state;
  const char *fixed =
      "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
      " (body b (model \"ball.vxm\") (fixed) (pose 0 0 1))\n (contact a b))";
  vxc_task *t = NULL;
  vxc_error err;
  assert_int_equal(vxc_task_parse(fixed, strlen(fixed), "x.vxt", vxc_test_datadir(), NULL, &t, &err),
                   VXC_ERR_FORMAT);
  assert_non_null(strstr(err.message, "both bodies are fixed"));
  const char *driven =
      "(task x (duration 1)\n (body a (model \"ball.vxm\") (fixed) (pose 0 0 0))\n"
      " (body b (model \"ball.vxm\") (driven (keyframe 0 0 0 1) (keyframe 1 0 0 0.5))\n"
      "   (pose 0 0 1))\n (contact a b))";
  assert_int_equal(vxc_task_parse(driven, strlen(driven), "x.vxt", vxc_test_datadir(), NULL, &t, &err),
                   VXC_OK);
  vxc_task_free(t);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_driven_peg_into_fixed_block),
      cmocka_unit_test(test_kinematic_pairs_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
