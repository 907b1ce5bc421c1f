/* test_rodbore_box.c: the box vxg_rod_bore reports around its region (vxg_rod_bore_out.box,
 * the bounds of the element that carries a penetration's bracket) against points sampled
 * in the region by rejection with the exact membership tests (inside the rod, outside the
 * bore, inside the planes and the box), on seeded random configurations: a cylinder pressed
 * into a bore's wall (parallel or tilted, cut by its end plane, the block's top face and at
 * times a plane through the bore's axis or a box face across the region), a cone into a
 * countersink (or a countersunk hole), a ball into a bore; axes random or along the world's.
 * Every sampled point lies in the box (sampled over the input's box and, densely, over the
 * reported box widened by its own size on every side), and the box is within 2.5 times the
 * sampled points' box on every axis (sampled densely in the reported box). */
#include "geom/geom.h"
#include "geom/vec3.h"

#include "tests/vxc_test.h"

#define NCASE 48
#define NSAMPLE 200000

/* Whether x lies in the region of in (the quadrature's exact membership). */
static int in_region(const vxg_rod_bore_in *in, const double x[3]) {
  double w[3], wb[3];
  vxg_sub(x, in->pa, w);
  vxg_sub(x, in->pb, wb);
  double wu = vxg_dot(w, in->ua), ww = vxg_dot(w, w), bu = vxg_dot(wb, in->ub);
  double k = in->ka == 0 ? 1 : in->ka;
  if (in->ball ? ww > in->ra * in->ra : ww - k * wu * wu > in->ra * in->ra) {
    return 0;
  }
  double kb = in->kb == 0 ? 1 : in->kb, bb = vxg_dot(wb, wb);
  if ((in->rb > 0 || kb == 1) && bb - bu * bu < in->rb * in->rb) {
    return 0;
  }
  if (kb > 1 && bu >= 0 && bb - kb * bu * bu <= 0) {
    return 0;
  }
  for (int i = 0; i < in->nplane; i++) {
    if (vxg_dot(in->plane[i].n, x) > in->plane[i].d) {
      return 0;
    }
  }
  for (int j = 0; j < 3; j++) {
    if (x[j] < in->box[j] || x[j] > in->box[3 + j]) {
      return 0;
    }
  }
  return 1;
}

/* Appends the plane n.x <= d (local frame, n unit) posed by t. */
static void add_plane(vxg_rod_bore_in *in, const vxg_xform *t, const double n[3],
                      const double p[3]) {
  vxg_rb_plane *pl = &in->plane[in->nplane++];
  double q[3];
  vxg_xform_vector(t, n, pl->n);
  vxg_xform_point(t, p, q);
  pl->d = vxg_dot(pl->n, q);
  pl->owner = 0;
}

/* A random configuration (kind 0 cylinder, 1 cone in a countersink, 2 ball), the bore of
 * radius s about the local z axis, posed by t. */
static void draw(vxc_rng *g, int kind, double s, const vxg_xform *t, vxg_rod_bore_in *in) {
  memset(in, 0, sizeof *in);
  double pa[3], tilt = vxc_rng_uniform(g, 0, 1) < 0.3 ? 0 : vxc_rng_uniform(g, -0.2, 0.2);
  double ul[3] = {sin(tilt), 0, cos(tilt)}, zt = vxc_rng_uniform(g, 0.5, 2) * s;
  double depth = s * pow(10, vxc_rng_uniform(g, -3, -0.7));
  double bu[3] = {0, 0, 1}, o[3] = {0, 0, 0};
  if (kind == 0) {
    in->ra = vxc_rng_uniform(g, 0.5, 0.98) * s;
    double pl[3] = {s - in->ra + depth, 0, vxc_rng_uniform(g, -1, 0) * s};
    vxg_xform_point(t, pl, pa);
    in->rb = s;
    double m[3] = {-ul[0], -ul[1], -ul[2]};
    add_plane(in, t, m, pl); /* the rod's end */
  } else if (kind == 1) {
    double beta = vxc_rng_uniform(g, 0.3, 0.8), alpha = beta + vxc_rng_uniform(g, 0.001, 0.05);
    in->kb = 1 / (cos(beta) * cos(beta));
    in->ka = 1 / (cos(alpha) * cos(alpha));
    in->rb = vxc_rng_uniform(g, 0, 1) < 0.5 ? 0 : 0.3 * s;
    double pl[3] = {vxc_rng_uniform(g, -0.05, 0.05) * s, 0, -depth};
    vxg_xform_point(t, pl, pa);
    double m[3] = {-ul[0], -ul[1], -ul[2]};
    add_plane(in, t, m, pl); /* the cone's nappe */
  } else {
    in->ball = 1;
    in->ra = vxc_rng_uniform(g, 0.2, 0.9) * s;
    double pl[3] = {s - in->ra + depth, 0, vxc_rng_uniform(g, -0.5, 0.5) * s};
    vxg_xform_point(t, pl, pa);
    in->rb = s;
  }
  memcpy(in->pa, pa, sizeof pa);
  vxg_xform_vector(t, ul, in->ua);
  vxg_xform_vector(t, bu, in->ub);
  vxg_xform_point(t, o, in->pb);
  double top[3] = {0, 0, 1}, pt[3] = {0, 0, zt};
  add_plane(in, t, top, pt); /* the block's top face */
  if (vxc_rng_uniform(g, 0, 1) < 0.3) {
    double ph = vxc_rng_uniform(g, -0.5, 0.5), ax[3] = {-sin(ph), cos(ph), 0};
    add_plane(in, t, ax, o); /* a quadrant's face, through the bore's axis */
  }
  /* the box: the local cube of half-edge 3 s posed, at times cut across the region */
  double cut = vxc_rng_uniform(g, 0, 1) < 0.3 ? vxc_rng_uniform(g, 0.3, 1) : 3;
  for (int j = 0; j < 3; j++) {
    in->box[j] = HUGE_VAL;
    in->box[3 + j] = -HUGE_VAL;
  }
  for (int c = 0; c < 8; c++) {
    double x[3] = {c & 1 ? 3 * s : -cut * s, c & 2 ? 3 * s : -3 * s, c & 4 ? 3 * s : -3 * s}, y[3];
    vxg_xform_point(t, x, y);
    for (int j = 0; j < 3; j++) {
      in->box[j] = fmin(in->box[j], y[j]);
      in->box[3 + j] = fmax(in->box[3 + j], y[j]);
    }
  }
  in->rtol = 1e-8;
  in->atol = 0;
  in->want_box = 1;
}

/* Samples n points uniformly in box b; those in the region must lie in inner (asserted),
 * their box grown into hit; the count of hits. */
static int sample(vxc_rng *g, const vxg_rod_bore_in *in, const double b[6], const double inner[6],
                  int n, double hit[6]) {
  int nh = 0;
  for (int i = 0; i < n; i++) {
    double x[3];
    for (int j = 0; j < 3; j++) {
      x[j] = vxc_rng_uniform(g, b[j], b[3 + j]);
    }
    if (!in_region(in, x)) {
      continue;
    }
    nh++;
    for (int j = 0; j < 3; j++) {
      if (!(x[j] >= inner[j] && x[j] <= inner[3 + j])) {
        fail_msg("point %d axis %d: %.17g outside [%.17g, %.17g]", i, j, x[j], inner[j],
                 inner[3 + j]);
      }
      hit[j] = fmin(hit[j], x[j]);
      hit[3 + j] = fmax(hit[3 + j], x[j]);
    }
  }
  return nh;
}

static void test_box_holds_region(void **state) {
  (void)state;
  vxc_rng g = {0x5eedb0c5ULL};
  int tested = 0;
  for (int i = 0; i < NCASE; i++) {
    vxg_xform t;
    double s = i % 2 ? 1e-2 : 1;
    if (i % 3 == 2) {
      vxg_xform_identity(&t); /* the bore's axis along the world's z */
      t.t[0] = vxc_rng_uniform(&g, -s, s);
    } else {
      vxc_test_rand_xform(&g, &t, 2 * s);
    }
    vxg_rod_bore_in in;
    vxg_rod_bore_out out;
    draw(&g, i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : (i / 3) % 2 ? 2 : 0, s, &t, &in);
    int rc = vxg_rod_bore(&in, &out);
    assert_true(rc >= 0);
    double hit[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, wide[6];
    sample(&g, &in, in.box, out.box, NSAMPLE, hit);
    if (!(out.v > 0)) {
      assert_true(hit[3] < hit[0]); /* nothing sampled in an empty region */
      continue;
    }
    for (int j = 0; j < 3; j++) {
      double e = out.box[3 + j] - out.box[j];
      assert_true(out.box[j] >= in.box[j] && out.box[3 + j] <= in.box[3 + j]);
      wide[j] = fmax(in.box[j], out.box[j] - e);
      wide[3 + j] = fmin(in.box[3 + j], out.box[3 + j] + e);
    }
    sample(&g, &in, wide, out.box, NSAMPLE, hit);
    int nh = sample(&g, &in, out.box, out.box, NSAMPLE, hit);
    if (nh < 1000) {
      continue;
    }
    tested++;
    for (int j = 0; j < 3; j++) {
      double e = out.box[3 + j] - out.box[j], h = hit[3 + j] - hit[j];
      if (!(e <= 2.5 * h)) {
        fail_msg("case %d axis %d: box %.6g, points' %.6g", i, j, e, h);
      }
    }
  }
  assert_true(tested >= NCASE / 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_box_holds_region),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
