/* test_voxel_clip.c: the leaves' building blocks (voxel/clip.c, voxel/leaf.c): the fast
 * vertex-neighbour polyhedra against the corner simplex's closed forms and against the face-
 * list polyhedra of geom/polyhedron.c (themselves tested against closed forms), their face
 * data, and the compensated accumulators. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "voxel/internal.h"

static const double HALF[3] = {0.5, 0.5, 0.5}; /* the unit cube's half-extents */

/* A random plane n.x <= d (d uniform in [-0.4, dhi]); with `snapped`, integer normals and
 * quarter offsets, so that planes pass through the cube's vertices and edges. */
static double random_plane(vxc_rng *r, int snapped, double dhi, double n[3]) {
  for (int a = 0; a < 3; a++) {
    n[a] = vxc_rng_uniform(r, -1, 1);
  }
  double d = vxc_rng_uniform(r, -0.4, dhi);
  if (snapped) {
    for (int a = 0; a < 3; a++) {
      n[a] = round(2 * n[a]);
    }
    d = 0.25 * round(4 * d);
  }
  return d;
}

// the cube [-1/2, 1/2]^3 cut by x + y + z <= s - 3/2 leaves the corner simplex of edge s
static void test_voxel_clip_corner_simplex_matches_dirichlet_moments(void **state) {
  (void)state;
  const double n[3] = {1, 1, 1};
  for (int k = 1; k <= 4; k++) {
    double s = 0.25 * k;
    vxv_cpoly p;
    vxv_cp_box(&p, HALF);
    assert_int_equal(vxv_cp_clip(&p, n, s - 1.5, 6), 0);
    double m[10];
    double v = vxv_cp_moments(&p, m, 0, NULL);
    /* about the corner (-1/2, -1/2, -1/2): V = s^3/6, int x' = s^4/24, int x'^2 = s^5/60,
     * int x'y' = s^5/120; shifted to the centre by x = x' - 1/2 */
    double V = s * s * s / 6, m1 = s * s * s * s / 24, xx = s * s * s * s * s / 60,
           xy = s * s * s * s * s / 120;
    assert_double_near(v, V, 1e-15);
    assert_double_near(m[0], V, 1e-15);
    assert_double_near(m[1], m1 - 0.5 * V, 1e-15);
    assert_double_near(m[4], xx - m1 + 0.25 * V, 1e-15);
    assert_double_near(m[7], xy - m1 + 0.25 * V, 1e-15);
  }
}


/* The unit cube as both polyhedra (cp, gp), clipped by np random planes (snapped or not; their
 * normals and offsets into n, d when not NULL). */
static void clip_both(vxc_rng *r, int snapped, int np, vxv_cpoly *cp, vxg_poly *gp,
                      double (*n)[3], double *d) {
  const double z[3] = {0, 0, 0}, e[3] = {0.5, 0.5, 0.5};
  vxv_cp_box(cp, HALF);
  vxg_poly_box(gp, z, e);
  for (int k = 0; k < np; k++) {
    double nk[3], dk = random_plane(r, snapped, 0.4, nk);
    assert_int_equal(vxv_cp_clip(cp, nk, dk, 6 + k), 0);
    assert_int_equal(vxg_poly_clip(gp, nk, dk), 0);
    if (n) {
      memcpy(n[k], nk, sizeof nk);
      d[k] = dk;
    }
  }
}


// random clips (general and through vertices/edges) agree with the face-list polyhedra, and
// the volume alone with the moments' m0
static void test_voxel_clip_agrees_with_face_list_polyhedra(void **state) {
  (void)state;
  vxc_rng r = {2024};
  for (int it = 0; it < 20000; it++) {
    vxv_cpoly cp;
    vxg_poly gp;
    clip_both(&r, it % 3 == 0, 1 + it % 5, &cp, &gp, NULL, NULL);
    double m[10];
    vxv_cp_moments(&cp, m, 0, NULL);
    vxg_moments gm;
    vxg_poly_moments(&gp, &gm);
    assert_double_near(m[0], gm.m0, 1e-14);
    /* the volume alone is the full walk's m0, bit for bit */
    double vol = vxv_cp_volume(&cp);
    assert_memory_equal(&vol, &m[0], sizeof vol);
    for (int a = 0; a < 3; a++) {
      assert_double_near(m[1 + a], gm.m1[a], 1e-14);
    }
    for (int a = 0; a < 6; a++) {
      assert_double_near(m[4 + a], gm.m2[a], 1e-14);
    }
  }
}


// clipping into another polyhedron by a plane and by its complement splits the volume
// (their volumes sum to the polyhedron's), and a plane that cuts nothing away is said so
// only when every vertex lies on its inner side
static void test_voxel_clip_to_splits_the_volume(void **state) {
  (void)state;
  vxc_rng r = {77};
  int cut = 0, uncut = 0;
  for (int it = 0; it < 5000; it++) {
    vxv_cpoly cp, out, rest;
    vxv_cp_box(&cp, HALF);
    for (int k = 0; k < 1 + it % 6 && cp.nv > 0; k++) {
      double n[3], d = random_plane(&r, it % 3 == 0, 1.0, n);
      double mn[3] = {-n[0], -n[1], -n[2]};
      double v0 = vxv_cp_volume(&cp);
      int rc = vxv_cp_clip_to(&out, &cp, n, d, 6 + k);
      if (rc == 1) {
        for (int i = 0; i < cp.nv; i++) {
          const double *x = cp.pos[i];
          assert_true(n[0] * x[0] + n[1] * x[1] + n[2] * x[2] <= d + 1e-12);
        }
        uncut++;
        continue;
      }
      assert_int_equal(rc, 0);
      double vout = out.nv > 0 ? vxv_cp_volume(&out) : 0, vrest = v0;
      if (vxv_cp_clip_to(&rest, &cp, mn, -d, 6 + k) == 0) {
        vrest = rest.nv > 0 ? vxv_cp_volume(&rest) : 0;
      }
      assert_double_near(vout + vrest, v0, 1e-14);
      cp = out;
      cut++;
    }
  }
  assert_true(cut > 1000 && uncut > 100);
}


// vxv_cp_faces gives vxv_cp_moments's face data bit for bit, degenerate cuts included
static void test_voxel_clip_faces_match_the_moments_walk(void **state) {
  (void)state;
  vxc_rng r = {91};
  int found = 0;
  for (int it = 0; it < 3000; it++) {
    vxv_cpoly cp;
    vxv_cp_box(&cp, HALF);
    int nk = 1 + it % 5;
    for (int k = 0; k < nk && cp.nv > 0; k++) {
      double n[3], d = random_plane(&r, it % 3 == 0, 1.0, n);
      assert_true(vxv_cp_clip(&cp, n, d, 6 + k) == 0);
    }
    /* every plane, or one of them */
    uint64_t want = it % 2 ? (((uint64_t)1 << nk) - 1) << 6 : (uint64_t)1 << (6 + it % nk);
    vxv_cpface a[8], b[8];
    memset(a, 0x5a, sizeof a);
    memset(b, 0x5a, sizeof b);
    vxv_cp_moments(&cp, NULL, want, a);
    vxv_cp_faces(&cp, want, b);
    for (int j = 0; j < nk; j++) {
      if (!(want >> (6 + j) & 1)) {
        continue;
      }
      assert_int_equal(a[j].found, b[j].found);
      assert_memory_equal(&a[j].area, &b[j].area, sizeof a[j].area);
      assert_memory_equal(a[j].avec, b[j].avec, sizeof a[j].avec);
      assert_memory_equal(a[j].m2, b[j].m2, sizeof a[j].m2);
      found += a[j].found;
    }
  }
  assert_true(found > 1000);
}

/* p = base clipped by the planes n[i] . y <= d[i] (bits 6 + i) in turn, as the leaves clip
 * their curved half-spaces (in place after the first); -1 on capacity. */
static int clip_chain(vxv_cpoly *p, const vxv_cpoly *base, int m, double n[][3], const double *d) {
  *p = *base;
  for (int i = 0; i < m && p->nv > 0; i++) {
    if (vxv_cp_clip(p, n[i], d[i], 6 + i) != 0) {
      return -1;
    }
  }
  return 0;
}


/* re (from vxv_cp_rechain) against plain (the clips): the same polyhedron bit for bit, and
 * the recorded topology's faces give the walks' figures bit for bit. */
static void assert_same_clip(const vxv_cpoly *re, const vxv_cpoly *plain, vxv_cpchain *ch, int m) {
  assert_int_equal(re->nv, plain->nv);
  assert_memory_equal(re->pos, plain->pos, (size_t)re->nv * sizeof re->pos[0]);
  assert_memory_equal(re->nbr, plain->nbr, (size_t)re->nv * sizeof re->nbr[0]);
  assert_memory_equal(re->on, plain->on, (size_t)re->nv * sizeof re->on[0]);
  const vxv_cpfan *f = vxv_cp_chain_fan(ch);
  uint64_t want = (((uint64_t)1 << m) - 1) << 6;
  double ma[10], mb[10];
  vxv_cpface fa[3], fb[3];
  double va = vxv_cp_moments(plain, ma, want, fa);
  double vb = vxv_cp_fan_moments(re, f, mb, want, 0, fb);
  assert_memory_equal(&va, &vb, sizeof va);
  assert_memory_equal(ma, mb, sizeof ma);
  double vol = vxv_cp_fan_volume(re, f);
  assert_memory_equal(&vol, &va, sizeof vol);
  for (int i = 0; i < m; i++) {
    assert_int_equal(fa[i].found, fb[i].found);
    assert_memory_equal(&fa[i].area, &fb[i].area, sizeof fa[i].area);
    assert_memory_equal(fa[i].m2, fb[i].m2, sizeof fa[i].m2);
  }
  const double u[3] = {0.6, 0, 0.8};
  double pa = vxv_cp_proj_faces(plain, u, (uint64_t)1 << 6);
  double pb = vxv_cp_fan_proj_faces(re, f, u, (uint64_t)1 << 6);
  assert_memory_equal(&pa, &pb, sizeof pa);
}


/* The chain ch re-clipping src (named id) by the m planes (n, offsets d): when it accepts
 * (*hit counted), the plain clips' polyhedron bit for bit; else *declined counted. */
static void rechain_case(const vxv_cpoly *src, unsigned long long id, vxv_cpchain *ch, int m,
                         double (*n)[3], const double *const np[], const double *d,
                         const int *bit, int *hit, int *declined) {
  vxv_cpoly plain, re;
  assert_int_equal(clip_chain(&plain, src, m, n, d), 0);
  if (vxv_cp_rechain(&re, src, id, ch, m, np, d, bit) == 0) {
    ++*hit;
    assert_same_clip(&re, &plain, ch, m);
  } else {
    ++*declined;
  }
}


// a recorded chain of clips, re-clipped at other offsets (the same source) or of another
// source of the same links (the box cut by a moved plane, tilted normals), gives the plain
// clips' polyhedron bit for bit (positions, links, plane bits), and its faces list their
// walks' sums, whenever it says so; it declines when the planes cut other vertices
static void test_voxel_clip_rechain_matches_the_clips(void **state) {
  (void)state;
  vxc_rng r = {4242};
  int same = 0, moved = 0, declined = 0;
  for (int it = 0; it < 4000; it++) {
    vxv_cpoly base, base2, rec, plain;
    vxv_cp_box(&base, HALF);
    base2 = base;
    double n0[3], d0 = random_plane(&r, it % 3 == 0, 0.4, n0);
    assert_int_equal(vxv_cp_clip(&base, n0, d0, 5 + 6), 0); /* an exact plane */
    assert_int_equal(vxv_cp_clip(&base2, n0, d0 + 1e-3, 5 + 6), 0); /* moved */
    int m = 1 + it % 3;
    double n[3][3], n2[3][3], d[3], d2[3];
    const double *np[3], *np2[3];
    int bit[3];
    for (int i = 0; i < m; i++) {
      d[i] = random_plane(&r, 0, 0.4, n[i]);
      /* a small shift (mostly the same vertices cut), or a large one */
      d2[i] = d[i] + vxc_rng_uniform(&r, -1, 1) * (it % 4 == 0 ? 0.3 : 1e-3);
      for (int a = 0; a < 3; a++) {
        n2[i][a] = n[i][a] + vxc_rng_uniform(&r, -1e-3, 1e-3);
      }
      np[i] = n[i];
      np2[i] = n2[i];
      bit[i] = 6 + i;
    }
    vxv_cpchain ch;
    vxv_cp_chain_begin(&ch, m, np, bit, &base, 1);
    const vxv_cpoly *cur = &base;
    for (int i = 0; i < m && cur->nv > 0; i++) {
      assert_int_equal(vxv_cp_chain_clip(&ch, &rec, &cur, d[i]), 0);
    }
    if (cur != &rec) {
      rec = *cur;
    }
    vxv_cp_chain_end(&ch, &rec);
    assert_int_equal(clip_chain(&plain, &base, m, n, d), 0);
    assert_int_equal(rec.nv, plain.nv);
    /* the same source (named 1) at other offsets; another source (no name), other normals */
    rechain_case(&base, 1, &ch, m, n, np, d2, bit, &same, &declined);
    rechain_case(&base2, 0, &ch, m, n2, np2, d2, bit, &moved, &declined);
  }
  assert_true(same > 1000 && moved > 1000 && declined > 100);
}


// the face on a clipping plane is found with its area, vector area and second moments
static void test_voxel_clip_reports_the_face_on_a_plane(void **state) {
  (void)state;
  vxv_cpoly p;
  vxv_cp_box(&p, HALF);
  const double n[3] = {0, 0, 2};
  assert_int_equal(vxv_cp_clip(&p, n, 0.2, 6), 0); /* z <= 0.1 */
  vxv_cpface f[2];
  double m[10];
  vxv_cp_moments(&p, m, (uint64_t)1 << 6, f);
  assert_double_near(m[0], 0.6, 1e-15);
  assert_true(f[0].found);
  /* the unit square at z = 0.1, outward +z; int x^2 dA = 1/12, int z^2 dA = 0.01 */
  assert_double_near(f[0].area, 1, 1e-15);
  assert_double_near(f[0].avec[2], 1, 1e-15);
  assert_double_near(f[0].avec[0], 0, 1e-15);
  assert_double_near(f[0].m2[0], 1.0 / 12, 1e-15);
  assert_double_near(f[0].m2[2], 0.01, 1e-15);
  assert_double_near(f[0].m2[3], 0, 1e-15);
  /* a plane that misses the box adds no face */
  vxv_cp_box(&p, HALF);
  assert_int_equal(vxv_cp_clip(&p, n, 5, 7), 0);
  vxv_cp_moments(&p, m, (uint64_t)1 << 7, f);
  assert_false(f[1].found);
  assert_double_near(m[0], 1, 1e-15);
}


/* The vector area of the faces of the face-list polyhedron gp whose vertices all lie on the
 * plane n.y = d (within tol), fanned from their first vertex; returns 1 when there is one. */
static int poly_face_vec(const vxg_poly *gp, const double n[3], double d, double tol,
                         double vec[3]) {
  int found = 0;
  vec[0] = vec[1] = vec[2] = 0;
  for (int f = 0; f < gp->nface; f++) {
    int on = 1;
    for (int i = 0; i < gp->face_n[f] && on; i++) {
      const double *x = gp->v[gp->face[f][i]];
      on = fabs(n[0] * x[0] + n[1] * x[1] + n[2] * x[2] - d) <= tol;
    }
    if (!on) {
      continue;
    }
    found = 1;
    const double *a = gp->v[gp->face[f][0]];
    for (int i = 1; i + 1 < gp->face_n[f]; i++) {
      const double *b = gp->v[gp->face[f][i]], *c = gp->v[gp->face[f][i + 1]];
      double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
      double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      vec[0] += 0.5 * (u[1] * w[2] - u[2] * w[1]);
      vec[1] += 0.5 * (u[2] * w[0] - u[0] * w[2]);
      vec[2] += 0.5 * (u[0] * w[1] - u[1] * w[0]);
    }
  }
  return found;
}


// the face data credited to each clipping plane is that plane's face alone (not the faces
// beside it, whose first edge lies on it): its vector area and area against the face-list
// polyhedra's face on the plane, by the faces walk and by the moments walk (in full, or its
// vector area alone)
static void test_voxel_clip_face_data_is_the_planes_face(void **state) {
  (void)state;
  vxc_rng r = {4242};
  int found = 0;
  for (int it = 0; it < 4000; it++) {
    vxv_cpoly cp;
    vxg_poly gp;
    int nk = 1 + it % 4;
    double n[4][3], d[4];
    clip_both(&r, 0, nk, &cp, &gp, n, d);
    uint64_t want = (((uint64_t)1 << nk) - 1) << 6, vec_only = it % 2 ? want : 0;
    vxv_cpface a[4], b[4];
    double m[10];
    vxv_cp_faces(&cp, want, a);
    vxv_cpfan fan;
    vxv_cp_fan(&cp, &fan);
    vxv_cp_fan_moments(&cp, &fan, m, want, vec_only, b);
    for (int k = 0; k < nk; k++) {
      double ln = sqrt(n[k][0] * n[k][0] + n[k][1] * n[k][1] + n[k][2] * n[k][2]), vec[3];
      int on = poly_face_vec(&gp, n[k], d[k], 1e-12 * ln, vec);
      double area = sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]);
      if (!on || area < 1e-9) {
        continue; /* cut away by a later plane, or a sliver */
      }
      assert_true(a[k].found && b[k].found);
      assert_double_near(a[k].area, area, 1e-13);
      for (int c = 0; c < 3; c++) {
        assert_double_near(a[k].avec[c], vec[c], 1e-13);
        assert_double_near(b[k].avec[c], vec[c], 1e-13);
      }
      found++;
    }
  }
  assert_true(found > 3000);
}


// compensated sums of many values of mixed sign and size keep the exact total
static void test_voxel_accumulator_is_compensated(void **state) {
  (void)state;
  vxv_acc a;
  vxv_acc_zero(&a);
  /* 1 + many tiny values that a plain sum would lose, then -1 */
  vxv_acc_add(&a, 0, 1.0);
  for (int i = 0; i < 100000; i++) {
    vxv_acc_add(&a, 0, 1e-17);
  }
  vxv_acc_add(&a, 0, -1.0);
  assert_double_near(vxv_acc_get(&a, 0), 1e-12, 1e-24);
  /* merging two accumulators keeps the compensation */
  vxv_acc b;
  vxv_acc_zero(&b);
  vxv_acc_add(&b, 0, 1e-12);
  vxv_acc_merge(&a, &b);
  assert_double_near(vxv_acc_get(&a, 0), 2e-12, 1e-24);
}


// a box's moments about the origin enter the sums exactly as vxg_box_moments gives them
static void test_voxel_accumulator_adds_box_and_leaf_moments(void **state) {
  (void)state;
  vxv_acc a;
  vxv_acc_zero(&a);
  vxv_box b;
  memset(&b, 0, sizeof b);
  b.c[0] = 1;
  b.c[1] = 2;
  b.c[2] = 3;
  b.h = b.e[0] = b.e[1] = b.e[2] = 0.5;
  vxv_acc_box(&a, &b);
  /* V = 1, int x = 1, int x^2 = 1 + 1/12, int xy = 2 */
  assert_double_near(vxv_acc_get(&a, VXV_ACC_M0), 1, 1e-15);
  assert_double_near(vxv_acc_get(&a, VXV_ACC_M1), 1, 1e-15);
  assert_double_near(vxv_acc_get(&a, VXV_ACC_M2), 1 + 1.0 / 12, 1e-15);
  assert_double_near(vxv_acc_get(&a, VXV_ACC_M2 + 3), 2, 1e-15);
  assert_double_near(vxv_acc_get(&a, VXV_ACC_LO), 1, 1e-15);
  /* a leaf holding the whole box's moments about its centre adds the same again */
  vxv_leaf l;
  memset(&l, 0, sizeof l);
  l.b = b;
  l.m[0] = 1;
  l.m[4] = l.m[5] = l.m[6] = 1.0 / 12;
  l.lo = l.hi = 1;
  vxv_acc_leaf(&a, &l);
  assert_double_near(vxv_acc_get(&a, VXV_ACC_M1 + 2), 6, 1e-15);
  assert_double_near(vxv_acc_get(&a, VXV_ACC_M2 + 4), 12, 1e-14);
  assert_double_near(vxv_acc_get(&a, VXV_ACC_HI), 2, 1e-15);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_voxel_clip_corner_simplex_matches_dirichlet_moments),
      cmocka_unit_test(test_voxel_clip_agrees_with_face_list_polyhedra),
      cmocka_unit_test(test_voxel_clip_to_splits_the_volume),
      cmocka_unit_test(test_voxel_clip_faces_match_the_moments_walk),
      cmocka_unit_test(test_voxel_clip_rechain_matches_the_clips),
      cmocka_unit_test(test_voxel_clip_face_data_is_the_planes_face),
      cmocka_unit_test(test_voxel_clip_reports_the_face_on_a_plane),
      cmocka_unit_test(test_voxel_accumulator_is_compensated),
      cmocka_unit_test(test_voxel_accumulator_adds_box_and_leaf_moments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
