/* test_voxel_bsp.c: the exact leaves of non-convex and complemented meshes (voxel/bsp.c)
 * against independent polyhedral answers, on seeded random poses (a third axis-aligned) and
 * scales from a millimetre to ten metres:
 *  - a box (a 12-triangle mesh) against a U-channel and an L-channel (one concave mesh
 *    each): the channel is the union of convex prisms that meet only on faces, so the
 *    interference is the sum of convex-convex intersections (tools/mesh_gen.h, by the
 *    divergence theorem);
 *  - the U-channel against the L-channel, both non-convex: the double sum over their pieces;
 *  - a box inside a big box with the U-channel cut out (a complemented mesh): the box's
 *    volume minus its meeting with the channel;
 *  - a box poking through a face, an edge or a corner of a cubic cavity (a complemented
 *    convex mesh, whose kept side near a leaf is a union of half-spaces): the box's volume
 *    minus its meeting with the cavity's cube;
 *  - a torus mesh cut by three planes through one point p: the region's boundary is the
 *    torus's triangles clipped by the planes plus faces on planes through p, so its moments
 *    are the tetrahedra of the clipped triangles with apex p;
 *  - the L-channel and a twisted prism (not convex near any side) along the wall of a
 *    cubic cavity, through it or clear of it: their convex pieces' meetings with the slab
 *    beyond the wall, or no contact;
 *  - the L-channel about the twisted prism, through its side or clear of it: the sum over the
 *    prism's tetrahedra (about the origin) and the L's pieces;
 *  - the L-channel stepped by micrometres against the U-channel on one workspace (its cache
 *    of gathers warm): each step exact and bitwise equal to a fresh workspace's result.
 * Each answer must be exact to 1e-9 (volume, centroid; 1e-8 of the inertia's trace), with a
 * certified bracket at most 1e-9 of V wide, at the default rtol, not capped. */
#include "tests/vxc_test.h"

#include "geom/geom.h"
#include "geom/vec3.h"
#include "tools/mesh_gen.h"
#include "voxel/internal.h"
#include "voxel/voxel.h"
#include "tests/voxel_exact.h"

#define REL 1e-9

/* A prism: the simple polygon poly (n corners, counter-clockwise seen from +z) between
 * z = z0 and z = z1, its caps triangulated by ear clipping. Returns 0, or -1. */
static int prism(mg_mesh *m, const double (*poly)[2], int n, double z0, double z1) {
  *m = (mg_mesh){0};
  m->v = malloc(3 * sizeof(double) * 2 * (size_t)n);
  m->t = malloc(3 * sizeof(int) * (size_t)(4 * n));
  if (!m->v || !m->t || n > 32) {
    return -1;
  }
  for (int i = 0; i < 2 * n; i++) {
    mg_vert(m, poly[i % n][0], poly[i % n][1], i < n ? z0 : z1);
  }
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    mg_tri(m, i, j, n + j);
    mg_tri(m, i, n + j, n + i);
  }
  int idx[32], k = n;
  for (int i = 0; i < n; i++) {
    idx[i] = i;
  }
  while (k > 3) {
    int cut = -1;
    for (int e = 0; e < k && cut < 0; e++) {
      const double *a = poly[idx[(e + k - 1) % k]], *b = poly[idx[e]], *c = poly[idx[(e + 1) % k]];
      double cr = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
      int ear = cr > 0;
      for (int o = 0; o < k && ear; o++) {
        const double *p = poly[idx[o]];
        if (p == a || p == b || p == c) {
          continue;
        }
        double s0 = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        double s1 = (c[0] - b[0]) * (p[1] - b[1]) - (c[1] - b[1]) * (p[0] - b[0]);
        double s2 = (a[0] - c[0]) * (p[1] - c[1]) - (a[1] - c[1]) * (p[0] - c[0]);
        ear = !(s0 >= 0 && s1 >= 0 && s2 >= 0);
      }
      cut = ear ? e : -1;
    }
    if (cut < 0) {
      return -1;
    }
    int a = idx[(cut + k - 1) % k], b = idx[cut], c = idx[(cut + 1) % k];
    mg_tri(m, n + a, n + b, n + c);
    mg_tri(m, a, c, b);
    memmove(idx + cut, idx + cut + 1, (size_t)(k - cut - 1) * sizeof *idx);
    k--;
  }
  mg_tri(m, n + idx[0], n + idx[1], n + idx[2]);
  mg_tri(m, idx[0], idx[2], idx[1]);
  return 0;
}


/* A rectangle [x0, x1] x [y0, y1] as a polygon. */
static void rect(double x0, double y0, double x1, double y1, double (*p)[2]) {
  const double q[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  memcpy(p, q, sizeof q);
}


/* A channel: its polygon and its convex pieces (rectangles meeting on edges), scaled by s,
 * between z = -h and h. */
typedef struct channel {
  mg_mesh whole;
  mg_mesh piece[3];
  int npiece;
} channel;

static void channel_free(channel *c) {
  mg_free(&c->whole);
  for (int i = 0; i < c->npiece; i++) {
    mg_free(&c->piece[i]);
  }
}

/* U: floor [-5, 5] x [0, 1], walls [-5, -3] and [3, 5] x [1, 5] (units of s); L: floor
 * [0, 6] x [0, 1], wall [0, 1] x [1, 6]. */
static int make_channel(channel *c, int shape, double s, double h) {
  static const double U[8][2] = {{-5, 0}, {5, 0}, {5, 5}, {3, 5}, {3, 1}, {-3, 1}, {-3, 5}, {-5, 5}};
  static const double L[6][2] = {{0, 0}, {6, 0}, {6, 1}, {1, 1}, {1, 6}, {0, 6}};
  static const double Up[3][4] = {{-5, 0, 5, 1}, {-5, 1, -3, 5}, {3, 1, 5, 5}};
  static const double Lp[2][4] = {{0, 0, 6, 1}, {0, 1, 1, 6}};
  const double(*poly)[2] = shape ? L : U;
  int n = shape ? 6 : 8;
  double sp[8][2], r[4][2];
  for (int i = 0; i < n; i++) {
    sp[i][0] = s * poly[i][0];
    sp[i][1] = s * poly[i][1];
  }
  *c = (channel){0};
  if (prism(&c->whole, (const double(*)[2])sp, n, -h, h) != 0) {
    return -1;
  }
  c->npiece = shape ? 2 : 3;
  for (int i = 0; i < c->npiece; i++) {
    const double *q = shape ? Lp[i] : Up[i];
    rect(s * q[0], s * q[1], s * q[2], s * q[3], r);
    if (prism(&c->piece[i], (const double(*)[2])r, 4, -h, h) != 0) {
      return -1;
    }
  }
  return 0;
}


/* A cell of one mesh primitive (complemented when comp, then cut by the box of half-edge
 * `bound` about the origin), the cell owning the mesh. */
static vxg_cell *mesh_cell(fixture *f, const char *base, const mg_mesh *g, int comp, double bound) {
  static int serial; /* cell names are unique within the fixture's solid */
  char name[64];
  snprintf(name, sizeof name, "%s%d", base, serial++);
  struct vxg_mesh *m = NULL;
  vxc_error err;
  if (vxg_mesh_create(NULL, g->v, g->nv, g->t, g->nt, 1, name, &m, &err) != VXC_OK) {
    fprintf(stderr, "# %s\n", err.message);
    return NULL;
  }
  vxg_cell *c = NULL;
  vxg_prim p;
  const double one = 1, box[3] = {2 * bound, 2 * bound, 2 * bound};
  if (vxg_solid_add_cell(f->s, name, NULL, &c, &err) != VXC_OK ||
      vxg_prim_init(&p, VXG_MESH, &one, 1, comp, NULL, &err) != VXC_OK) {
    vxg_mesh_free(m);
    return NULL;
  }
  p.mesh = m;
  if (vxg_cell_add_prim(c, &p, &err) != VXC_OK) {
    return NULL;
  }
  if (comp && (vxg_prim_init(&p, VXG_BOX, box, 3, 0, NULL, &err) != VXC_OK ||
               vxg_cell_add_prim(c, &p, &err) != VXC_OK)) {
    return NULL;
  }
  return vxg_cell_finish(c, NULL, &err) == VXC_OK ? c : NULL;
}


/* A copy of g with its vertices moved by x. */
static int moved(const mg_mesh *g, const vxg_xform *x, mg_mesh *out) {
  *out = (mg_mesh){0};
  out->v = malloc(3 * sizeof(double) * (size_t)g->nv);
  out->t = malloc(3 * sizeof(int) * (size_t)g->nt);
  if (!out->v || !out->t) {
    return -1;
  }
  for (int i = 0; i < g->nv; i++) {
    vxg_xform_point(x, g->v + 3 * i, out->v + 3 * i);
  }
  memcpy(out->t, g->t, 3 * sizeof(int) * (size_t)g->nt);
  out->nv = g->nv;
  out->nt = g->nt;
  return 0;
}


/* The query's figures, taken back to the frame of the exact answer by world = w(x), against
 * the exact moments ex; size is the scale of lengths. */
static void expect_exact(const vxv_result *r, const mg_moments *ex, const vxg_xform *w,
                         double size) {
  assert_false(r->capped);
  assert_double_rel(r->volume, ex->m0, REL);
  assert_true(r->volume_hi - r->volume_lo <= REL * ex->m0);
  /* the bracket holds the answer, within the answer's own rounding (its tetrahedra span
     the scene, so it is absolute) */
  double slack = 1e-12 * ex->m0 + 1e-15 * size * size * size;
  assert_true(r->volume_lo <= ex->m0 + slack && r->volume_hi >= ex->m0 - slack);
  double c[3], J[9], cl[3], d[3];
  mg_moments_inertia(ex, c, J);
  for (int k = 0; k < 3; k++) {
    d[k] = r->centroid[k] - w->t[k];
  }
  vxg_xform_vector_inv(w, d, cl);
  double tr = J[0] + J[4] + J[8];
  for (int k = 0; k < 3; k++) {
    assert_double_near(cl[k], c[k], REL * size);
  }
  /* J turned back: R^T J_world R; the answer's J comes from moments about the origin,
     within their rounding */
  double tj = 1e-8 * tr + 1e-12 * (ex->m2[0] + ex->m2[1] + ex->m2[2]) + 1e-13 * pow(size, 5);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
          s += w->r[3 * a + i] * r->inertia[3 * a + b] * w->r[3 * b + j];
        }
      }
      assert_double_near(s, J[3 * i + j], tj);
    }
  }
}


/* Sum of the exact moments of a's meetings with the convex pieces of b. */
static void meet_pieces(const mg_mesh *a, const mg_mesh *pieces, int n, mg_moments *sum) {
  const double zero[3] = {0, 0, 0};
  memset(sum, 0, sizeof *sum);
  for (int i = 0; i < n; i++) {
    mg_moments m;
    assert_int_equal(mg_convex_meet_moments(a, zero, &pieces[i], zero, &m), 0);
    sum->m0 += m.m0;
    for (int k = 0; k < 3; k++) {
      sum->m1[k] += m.m1[k];
    }
    for (int k = 0; k < 6; k++) {
      sum->m2[k] += m.m2[k];
    }
  }
}


/* The exact moments of the channel l placed by lp meeting the channel u: the double sum
 * over their convex pieces. */
static void channels_meet(const channel *l, const vxg_xform *lp, const channel *u, mg_moments *ex) {
  memset(ex, 0, sizeof *ex);
  for (int j = 0; j < l->npiece; j++) {
    mg_mesh pj;
    mg_moments m;
    assert_int_equal(moved(&l->piece[j], lp, &pj), 0);
    meet_pieces(&pj, u->piece, u->npiece, &m);
    ex->m0 += m.m0;
    for (int k = 0; k < 3; k++) {
      ex->m1[k] += m.m1[k];
    }
    for (int k = 0; k < 6; k++) {
      ex->m2[k] += m.m2[k];
    }
    mg_free(&pj);
  }
}


/* Cell a placed by w after p (its pose in b's frame) against b placed by w, at the default
 * options (with reuse_gathers 1 when reuse), into r. */
static vxc_status query_reuse(fixture *f, const vxg_cell *a, const vxg_xform *p,
                              const vxg_cell *b, const vxg_xform *w, int reuse, vxv_result *r) {
  vxg_xform wa;
  vxg_xform_compose(&wa, w, p);
  vxv_options o;
  vxv_options_default(&o);
  o.reuse_gathers = reuse;
  return vxv_intersect(f->ws, a, &wa, b, w, &o, r);
}


static vxc_status query_pair(fixture *f, const vxg_cell *a, const vxg_xform *p, const vxg_cell *b,
                             const vxg_xform *w, vxv_result *r) {
  return query_reuse(f, a, p, b, w, 0, r);
}


static const double SCALES[3] = {1e-3, 0.01, 2};

// a box against a U- and an L-channel: the sum of its meetings with the channel's pieces
static void test_bsp_box_in_channel(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x9e3779b97f4a7c15ULL};
  int cases = 0;
  for (int it = 0; it < 36; it++) {
    double s = SCALES[it % 3];
    int shape = it / 3 % 2, aligned = it % 3 == 0;
    channel ch;
    mg_mesh box, boxp;
    assert_int_equal(make_channel(&ch, shape, s, 3 * s), 0);
    assert_int_equal(mg_box(&box, s * vxc_rng_uniform(&g, 1, 7), s * vxc_rng_uniform(&g, 1, 4),
                            s * vxc_rng_uniform(&g, 1, 4)), 0);
    /* the box about a point of the channel's walls or floor */
    vxg_xform bp, w;
    vx_random_pose(&g, aligned, 0, &bp);
    double at[3] = {s * vxc_rng_uniform(&g, shape ? 0 : -5, 5), s * vxc_rng_uniform(&g, 0, 5),
                    s * vxc_rng_uniform(&g, -2, 2)};
    memcpy(bp.t, at, sizeof at);
    vx_random_pose(&g, it % 2, 20 * s, &w);
    assert_int_equal(moved(&box, &bp, &boxp), 0);
    mg_moments ex;
    meet_pieces(&boxp, ch.piece, ch.npiece, &ex);
    vxg_cell *a = mesh_cell(f, "box", &box, 0, 0), *b = mesh_cell(f, "channel", &ch.whole, 0, 0);
    assert_non_null(a);
    assert_non_null(b);
    vxv_result r;
    vxc_status st = query_pair(f, a, &bp, b, &w, &r);
    if (ex.m0 > 1e-9 * s * s * s) {
      assert_int_equal(st, VXC_OK);
      expect_exact(&r, &ex, &w, s);
      cases++;
    } else {
      assert_true(st == VXC_NO_CONTACT || r.volume <= 1e-9 * s * s * s);
    }
    mg_free(&box);
    mg_free(&boxp);
    channel_free(&ch);
  }
  fprintf(stderr, "# %d boxes in channels exact\n", cases);
  assert_true(cases >= 24);
}


// the U-channel against the L-channel: the double sum over their pieces
static void test_bsp_channel_pair(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x2545f4914f6cdd1dULL};
  int cases = 0;
  for (int it = 0; it < 18; it++) {
    double s = SCALES[it % 3];
    channel u, l;
    assert_int_equal(make_channel(&u, 0, s, 3 * s), 0);
    assert_int_equal(make_channel(&l, 1, s, 2 * s), 0);
    vxg_xform lp, w;
    vx_random_pose(&g, it % 3 == 0, 0, &lp);
    double at[3] = {s * vxc_rng_uniform(&g, -6, 2), s * vxc_rng_uniform(&g, -2, 4),
                    s * vxc_rng_uniform(&g, -2, 2)};
    memcpy(lp.t, at, sizeof at);
    vx_random_pose(&g, it % 2, 20 * s, &w);
    mg_moments ex;
    channels_meet(&l, &lp, &u, &ex);
    vxg_cell *a = mesh_cell(f, "l", &l.whole, 0, 0), *b = mesh_cell(f, "u", &u.whole, 0, 0);
    assert_non_null(a);
    assert_non_null(b);
    vxv_result r;
    vxc_status st = query_pair(f, a, &lp, b, &w, &r);
    if (ex.m0 > 1e-9 * s * s * s) {
      assert_int_equal(st, VXC_OK);
      expect_exact(&r, &ex, &w, s);
      cases++;
    }
    channel_free(&u);
    channel_free(&l);
  }
  fprintf(stderr, "# %d channel pairs exact\n", cases);
  assert_true(cases >= 10);
}


// the L-channel stepped against the U-channel by a micrometre or so at a time, as an
// integrator's stages move a body, on one workspace reusing gathers (vxv_options
// .reuse_gathers, a tracked pair's): every result exact against the double
// sum over their pieces and bitwise that of a fresh workspace (the thread's cache of mesh
// gathers, warm after the first step, changes no figure)
static void test_bsp_steps_warm_cache(void **state) {
  fixture *f = *state;
  const double s = 0.01;
  channel u, l;
  assert_int_equal(make_channel(&u, 0, s, 3 * s), 0);
  assert_int_equal(make_channel(&l, 1, s, 2 * s), 0);
  vxc_rng g = {0x7f4a7c159e3779b9ULL};
  vxg_xform lp, w;
  vx_random_pose(&g, 0, 0, &lp);
  const double at[3] = {-2.5 * s, 0.5 * s, 0.3 * s};
  memcpy(lp.t, at, sizeof at);
  vx_random_pose(&g, 1, 20 * s, &w);
  vxg_cell *a = mesh_cell(f, "l", &l.whole, 0, 0), *b = mesh_cell(f, "u", &u.whole, 0, 0);
  assert_non_null(a);
  assert_non_null(b);
  int exact = 0;
  for (int step = 0; step < 12; step++) {
    for (int k = 0; k < 3; k++) {
      lp.t[k] += vxc_rng_uniform(&g, -2e-4, 2e-4) * s;
    }
    mg_moments ex;
    channels_meet(&l, &lp, &u, &ex);
    vxv_result warm, cold;
    fixture fresh = {f->s, NULL};
    assert_int_equal(vxv_workspace_create(NULL, &fresh.ws), VXC_OK);
    assert_int_equal(query_reuse(f, a, &lp, b, &w, 1, &warm), VXC_OK);
    assert_int_equal(query_reuse(&fresh, a, &lp, b, &w, 1, &cold), VXC_OK);
    vxv_workspace_free(fresh.ws);
    assert_true(ex.m0 > 1e-3 * s * s * s);
    expect_exact(&warm, &ex, &w, s);
    exact++;
    assert_memory_equal(&warm.volume, &cold.volume, sizeof warm.volume);
    assert_memory_equal(&warm.volume_lo, &cold.volume_lo, sizeof warm.volume_lo);
    assert_memory_equal(&warm.volume_hi, &cold.volume_hi, sizeof warm.volume_hi);
    assert_memory_equal(warm.centroid, cold.centroid, sizeof warm.centroid);
    assert_memory_equal(warm.inertia, cold.inertia, sizeof warm.inertia);
  }
  assert_int_equal(exact, 12);
  /* the warm workspace read most of its gathers from its cache */
  const vxg_gather_cache *c = &f->ws->th[0]->bsp.gcache;
  fprintf(stderr, "# warm cache: %lld hits, %lld misses\n", c->hits, c->misses);
  assert_true(c->hits > 4 * c->misses && c->misses > 0);
  channel_free(&u);
  channel_free(&l);
}


// a box in a big box with the U-channel cut out: the box's volume minus the channel's share
static void test_bsp_complement(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x853c49e6748fea9bULL};
  for (int it = 0; it < 12; it++) {
    double s = SCALES[it % 3];
    channel ch;
    mg_mesh box, boxp;
    assert_int_equal(make_channel(&ch, 0, s, 3 * s), 0);
    assert_int_equal(mg_box(&box, s * vxc_rng_uniform(&g, 1, 4), s * vxc_rng_uniform(&g, 1, 4),
                            s * vxc_rng_uniform(&g, 1, 4)), 0);
    vxg_xform bp, w;
    vx_random_pose(&g, it % 3 == 0, 0, &bp);
    double at[3] = {s * vxc_rng_uniform(&g, -5, 5), s * vxc_rng_uniform(&g, 0, 5), 0};
    memcpy(bp.t, at, sizeof at);
    vx_random_pose(&g, it % 2, 20 * s, &w);
    assert_int_equal(moved(&box, &bp, &boxp), 0);
    mg_moments in, whole, ex;
    meet_pieces(&boxp, ch.piece, ch.npiece, &in);
    memset(&whole, 0, sizeof whole);
    for (int t = 0; t < boxp.nt; t++) {
      mg_add_tet(&whole, boxp.v + 3 * boxp.t[3 * t], boxp.v + 3 * boxp.t[3 * t + 1],
                 boxp.v + 3 * boxp.t[3 * t + 2]);
    }
    ex.m0 = whole.m0 - in.m0;
    for (int k = 0; k < 3; k++) {
      ex.m1[k] = whole.m1[k] - in.m1[k];
    }
    for (int k = 0; k < 6; k++) {
      ex.m2[k] = whole.m2[k] - in.m2[k];
    }
    vxg_cell *a = mesh_cell(f, "box", &box, 0, 0), *b = mesh_cell(f, "cut", &ch.whole, 1, 20 * s);
    assert_non_null(a);
    assert_non_null(b);
    vxv_result r;
    vxc_status st = query_pair(f, a, &bp, b, &w, &r);
    if (ex.m0 > 1e-9 * s * s * s) {
      assert_int_equal(st, VXC_OK);
      expect_exact(&r, &ex, &w, s);
    } else { /* the box inside the channel's material */
      assert_true(st == VXC_NO_CONTACT || r.volume <= 1e-9 * s * s * s);
    }
    mg_free(&box);
    mg_free(&boxp);
    channel_free(&ch);
  }
}


/* The exact moments of g minus its meeting with the convex mesh c. */
static void minus_meet(const mg_mesh *g, const mg_mesh *c, mg_moments *ex) {
  mg_moments in;
  meet_pieces(g, c, 1, &in);
  memset(ex, 0, sizeof *ex);
  for (int t = 0; t < g->nt; t++) {
    mg_add_tet(ex, g->v + 3 * g->t[3 * t], g->v + 3 * g->t[3 * t + 1], g->v + 3 * g->t[3 * t + 2]);
  }
  ex->m0 -= in.m0;
  for (int k = 0; k < 3; k++) {
    ex->m1[k] -= in.m1[k];
  }
  for (int k = 0; k < 6; k++) {
    ex->m2[k] -= in.m2[k];
  }
}


// a box through a face, an edge or a corner of a cubic cavity, or through the wall of a
// spherical one (an icosphere of 320 triangles: many planes near a leaf); both are
// complemented convex meshes
static void test_bsp_cavity(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x2545f4914f6cdd1dULL};
  for (int it = 0; it < 24; it++) {
    double s = SCALES[it % 3];
    mg_mesh cube, box, boxp;
    int ball = it % 8 >= 4;
    assert_int_equal(ball ? mg_icosphere(&cube, 2 * s, 2) : mg_box(&cube, 4 * s, 4 * s, 4 * s), 0);
    assert_int_equal(mg_box(&box, s * vxc_rng_uniform(&g, 0.5, 2), s * vxc_rng_uniform(&g, 0.5, 2),
                            s * vxc_rng_uniform(&g, 0.5, 2)), 0);
    /* a point on the cube's surface: on a face (it % 4 < 2), an edge or a corner */
    double at[3];
    int pinned = it % 4 < 2 ? 1 : it % 4 == 2 ? 2 : 3;
    for (int k = 0; k < 3; k++) {
      at[k] = k < pinned ? (vxc_rng_uniform(&g, 0, 1) < 0.5 ? -2 * s : 2 * s)
                         : s * vxc_rng_uniform(&g, -1.5, 1.5);
    }
    if (ball) { /* on the sphere, in a random direction */
      double l = sqrt(at[0] * at[0] + at[1] * at[1] + at[2] * at[2]);
      for (int k = 0; k < 3; k++) {
        at[k] *= 1.95 * s / l;
      }
    }
    vxg_xform bp, w;
    vx_random_pose(&g, it % 3 == 0, 0, &bp);
    memcpy(bp.t, at, sizeof at);
    vx_random_pose(&g, it % 2, 20 * s, &w);
    assert_int_equal(moved(&box, &bp, &boxp), 0);
    mg_moments ex;
    minus_meet(&boxp, &cube, &ex);
    vxg_cell *a = mesh_cell(f, "probe", &box, 0, 0), *b = mesh_cell(f, "cavity", &cube, 1, 20 * s);
    assert_non_null(a);
    assert_non_null(b);
    vxv_result r;
    assert_int_equal(query_pair(f, a, &bp, b, &w, &r), VXC_OK);
    expect_exact(&r, &ex, &w, s);
    mg_free(&cube);
    mg_free(&box);
    mg_free(&boxp);
  }
}


/* sum += m (moments). */
static void moments_add(mg_moments *sum, const mg_moments *m) {
  sum->m0 += m->m0;
  for (int k = 0; k < 3; k++) {
    sum->m1[k] += m->m1[k];
  }
  for (int k = 0; k < 6; k++) {
    sum->m2[k] += m->m2[k];
  }
}


/* Cell a placed by w after lp against b placed by w, at the default rtol and on fixed leaves
 * of edge 3 s / 8 reusing gathers (a task's contact: many leaves crossed by both surfaces):
 * exact against ex, or no contact when ex holds nothing; count[0] counts the first kind,
 * count[1] the second. */
static void both_rules(fixture *f, const vxg_cell *a, const vxg_xform *lp, const vxg_cell *b,
                       const vxg_xform *w, const mg_moments *ex, double s, int count[2]) {
  for (int rule = 0; rule < 2; rule++) {
    vxg_xform wa;
    vxg_xform_compose(&wa, w, lp);
    vxv_options o;
    vxv_options_default(&o);
    if (rule) {
      o.rtol = 0;
      o.h_min = 3 * s / 8;
      o.reuse_gathers = 1;
    }
    vxv_result r;
    vxc_status st = vxv_intersect(f->ws, a, &wa, b, w, &o, &r);
    if (ex->m0 > 1e-9 * s * s * s) {
      assert_int_equal(st, VXC_OK);
      expect_exact(&r, ex, w, s);
      count[0]++;
    } else {
      assert_true(st == VXC_NO_CONTACT || r.volume <= 1e-9 * s * s * s);
      count[1]++;
    }
  }
}


/* A prism of n sides about z (radius R, z in [-h, h]) whose top ring is turned by `twist`
 * (rad) and each of whose side quads is cut along its reflex diagonal: a mesh that is not
 * convex near any side (a CAD tessellation's rings of different phase). Its caps are fans
 * from their centres; every triangle with the origin is a tetrahedron of a partition of the
 * solid (star-shaped about the origin), each into pieces[0 .. 2 n + 2 n) (convex). */
static int twisted_prism(mg_mesh *m, mg_mesh *pieces, int n, double R, double h, double twist) {
  *m = (mg_mesh){0};
  m->v = malloc(3 * sizeof(double) * (size_t)(2 * n + 2));
  m->t = malloc(3 * sizeof(int) * (size_t)(4 * n));
  if (!m->v || !m->t) {
    return -1;
  }
  for (int i = 0; i < 2 * n; i++) {
    double a = 2 * M_PI * (i % n) / n + (i < n ? 0 : twist);
    mg_vert(m, R * cos(a), R * sin(a), i < n ? -h : h);
  }
  int cb = mg_vert(m, 0, 0, -h), ct = mg_vert(m, 0, 0, h);
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    /* the quad (i, j, n + j, n + i), counter-clockwise from outside, cut along (i, n + j)
       when n + i lies beyond the plane of (i, j, n + j): that edge is reflex */
    const double *a = m->v + 3 * i, *b = m->v + 3 * j, *c = m->v + 3 * (n + j), *d = m->v + 3 * (n + i);
    double u[3], w[3], nrm[3], e[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    for (int k = 0; k < 3; k++) {
      u[k] = b[k] - a[k];
      w[k] = c[k] - a[k];
    }
    vxg_cross(u, w, nrm);
    if (vxg_dot(nrm, e) > 0) {
      mg_tri(m, i, j, n + j);
      mg_tri(m, i, n + j, n + i);
    } else {
      mg_tri(m, i, j, n + i);
      mg_tri(m, j, n + j, n + i);
    }
    mg_tri(m, cb, j, i);
    mg_tri(m, ct, n + i, n + j);
  }
  for (int t = 0; t < m->nt; t++) {
    mg_mesh *q = &pieces[t];
    *q = (mg_mesh){0};
    q->v = malloc(3 * sizeof(double) * 4);
    q->t = malloc(3 * sizeof(int) * 4);
    if (!q->v || !q->t) {
      return -1;
    }
    mg_vert(q, 0, 0, 0);
    for (int k = 0; k < 3; k++) {
      const double *v = m->v + 3 * m->t[3 * t + k];
      mg_vert(q, v[0], v[1], v[2]);
    }
    mg_tri(q, 1, 2, 3);
    mg_tri(q, 0, 2, 1);
    mg_tri(q, 0, 3, 2);
    mg_tri(q, 0, 1, 3);
  }
  return 0;
}


/* The probe (mesh g, its convex pieces) placed by lp inside a cubic cavity of edge 8 s about
 * the origin, reaching no wall but x = 4 s, seen by w, under both rules (both_rules) against
 * its pieces' meetings with the slab [4, 12] x [-4, 4]^2 s beyond the wall (no difference
 * of volumes). */
static void probe_in_cavity(fixture *f, const mg_mesh *g, const mg_mesh *pieces, int npiece,
                            const vxg_xform *lp, const vxg_xform *w, double s, int count[2]) {
  mg_mesh cube, slab0, slab;
  vxg_xform sx;
  vxg_xform_translation(&sx, 8 * s, 0, 0);
  assert_int_equal(mg_box(&cube, 8 * s, 8 * s, 8 * s), 0);
  assert_int_equal(mg_box(&slab0, 8 * s, 8 * s, 8 * s), 0);
  assert_int_equal(moved(&slab0, &sx, &slab), 0);
  mg_moments ex;
  memset(&ex, 0, sizeof ex);
  for (int j = 0; j < npiece; j++) {
    mg_mesh pj;
    mg_moments m;
    assert_int_equal(moved(&pieces[j], lp, &pj), 0);
    meet_pieces(&pj, &slab, 1, &m);
    moments_add(&ex, &m);
    mg_free(&pj);
  }
  vxg_cell *a = mesh_cell(f, "probe", g, 0, 0), *b = mesh_cell(f, "cavity", &cube, 1, 20 * s);
  assert_non_null(a);
  assert_non_null(b);
  both_rules(f, a, lp, b, w, &ex, s, count);
  mg_free(&cube);
  mg_free(&slab0);
  mg_free(&slab);
}


/* lp: turned about x (the wall's normal) at random, then tilted about y by up to 0.05 rad,
 * the probe's point c0 moved to x in [x0, x1] s, y and z in [-1, 1] s. */
static void wall_pose(vxc_rng *g, const double c0[3], double x0, double x1, double s,
                      vxg_xform *lp) {
  vxg_xform turn, tilt;
  const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0};
  assert_int_equal(vxg_xform_axis_angle(&turn, ex, vxc_rng_uniform(g, -M_PI, M_PI)), 0);
  assert_int_equal(vxg_xform_axis_angle(&tilt, ey, vxc_rng_uniform(g, -0.05, 0.05)), 0);
  vxg_xform_compose(lp, &tilt, &turn);
  double rc[3], at[3] = {s * vxc_rng_uniform(g, x0, x1), s * vxc_rng_uniform(g, -1, 1),
                         s * vxc_rng_uniform(g, -1, 1)};
  vxg_xform_vector(lp, c0, rc);
  for (int k = 0; k < 3; k++) {
    lp->t[k] = at[k] - rc[k];
  }
}


// meshes that are not convex (their BSP runs on their triangles) along a wall of a cubic
// cavity (a complemented convex mesh, peeled by its planes), as a peg along its bore: the
// L-channel, and a twisted prism lying along the wall (not convex near any side); through
// the wall exact, inside it with clearance no contact. A leaf drops the triangles whose
// part in it lies on the cavity's side of a peeled plane from the pieces beyond it, and
// one whose triangles all lie inside the cavity's planes reads one side for all its pieces
static void test_bsp_general_in_cavity(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xd1b54a32d192ed03ULL};
  int count[2][2] = {{0, 0}, {0, 0}};
  for (int it = 0; it < 24; it++) {
    double s = SCALES[it % 3];
    int twisted = it % 2;
    mg_mesh tp, tets[64];
    channel l;
    vxg_xform lp, w;
    if (twisted) {
      /* its axis along y (lying along the wall), its side at 1 s from it */
      assert_int_equal(twisted_prism(&tp, tets, 16, s, 1.5 * s, 0.08), 0);
      vxg_xform down;
      const double ex[3] = {1, 0, 0}, c0[3] = {0, 0, 0};
      assert_int_equal(vxg_xform_axis_angle(&down, ex, M_PI / 2), 0);
      wall_pose(&g, c0, 2.5, 3.4, s, &lp);
      lp.t[1] = lp.t[2] = 0; /* its ends away from the walls y, z = +-4 s */
      vxg_xform_compose(&lp, &lp, &down);
      vx_random_pose(&g, it % 4 == 1, 20 * s, &w);
      probe_in_cavity(f, &tp, tets, tp.nt, &lp, &w, s, count[1]);
      for (int t = 0; t < tp.nt; t++) {
        mg_free(&tets[t]);
      }
      mg_free(&tp);
      continue;
    }
    assert_int_equal(make_channel(&l, 1, 0.5 * s, 0.5 * s), 0);
    const double c0[3] = {0.75 * s, 0.75 * s, 0};
    wall_pose(&g, c0, 1.2, 2.4, s, &lp);
    vx_random_pose(&g, it % 4 == 0, 20 * s, &w);
    probe_in_cavity(f, &l.whole, l.piece, l.npiece, &lp, &w, s, count[0]);
    channel_free(&l);
  }
  fprintf(stderr, "# L in a cavity: %d through the wall exact, %d clear; twisted prism: %d, %d\n",
          count[0][0], count[0][1], count[1][0], count[1][1]);
  for (int k = 0; k < 2; k++) {
    assert_true(count[k][0] >= 6 && count[k][1] >= 6);
  }
}

// two meshes not convex near each other: the twisted prism lying along y and the L-channel
// about it at random, through its side or clear of it (general leaves of both, some parted
// by a plane between their triangles), at the default rtol and on fixed leaves reusing
// gathers: exact against the sum over the prism's tetrahedra and the L's pieces, or no contact
static void test_bsp_general_pair(void **state) {
  fixture *f = *state;
  vxc_rng g = {0x94d049bb133111ebULL};
  int count[2] = {0, 0};
  for (int it = 0; it < 18; it++) {
    double s = SCALES[it % 3];
    mg_mesh tp, tets[64];
    channel l;
    assert_int_equal(twisted_prism(&tp, tets, 16, s, 1.5 * s, 0.08), 0);
    assert_int_equal(make_channel(&l, 1, 0.5 * s, 0.5 * s), 0);
    /* the prism lying along y; the L turned at random, its centre (0.75, 0.75, 0) s at 0.5
       to 2.1 s from the prism's axis */
    vxg_xform down, lp, w;
    const double ex[3] = {1, 0, 0}, c0[3] = {0.75 * s, 0.75 * s, 0};
    assert_int_equal(vxg_xform_axis_angle(&down, ex, M_PI / 2), 0);
    vx_random_pose(&g, 0, 0, &lp);
    double phi = vxc_rng_uniform(&g, -M_PI, M_PI), d = s * vxc_rng_uniform(&g, 0.5, 2.1), rc[3];
    double at[3] = {d * cos(phi), s * vxc_rng_uniform(&g, -0.5, 0.5), d * sin(phi)};
    vxg_xform_vector(&lp, c0, rc);
    for (int k = 0; k < 3; k++) {
      lp.t[k] = at[k] - rc[k];
    }
    vx_random_pose(&g, it % 4 == 1, 20 * s, &w);
    mg_moments ex_;
    memset(&ex_, 0, sizeof ex_);
    for (int t = 0; t < tp.nt; t++) {
      mg_mesh tt;
      mg_moments m;
      assert_int_equal(moved(&tets[t], &down, &tt), 0);
      for (int j = 0; j < l.npiece; j++) {
        mg_mesh pj;
        assert_int_equal(moved(&l.piece[j], &lp, &pj), 0);
        meet_pieces(&tt, &pj, 1, &m);
        moments_add(&ex_, &m);
        mg_free(&pj);
      }
      mg_free(&tt);
    }
    mg_mesh tpl;
    assert_int_equal(moved(&tp, &down, &tpl), 0);
    vxg_cell *a = mesh_cell(f, "l", &l.whole, 0, 0), *b = mesh_cell(f, "prism", &tpl, 0, 0);
    assert_non_null(a);
    assert_non_null(b);
    both_rules(f, a, &lp, b, &w, &ex_, s, count);
    for (int t = 0; t < tp.nt; t++) {
      mg_free(&tets[t]);
    }
    mg_free(&tp);
    mg_free(&tpl);
    channel_free(&l);
  }
  fprintf(stderr, "# L by a twisted prism: %d through its side exact, %d clear\n", count[0],
          count[1]);
  assert_true(count[0] >= 6 && count[1] >= 4);
}

/* A torus mesh (axis z, radii R and r), nu x nv quads, each two triangles. */
static int torus_mesh(mg_mesh *m, double R, double r, int nu, int nv) {
  *m = (mg_mesh){0};
  m->v = malloc(3 * sizeof(double) * (size_t)(nu * nv));
  m->t = malloc(3 * sizeof(int) * (size_t)(2 * nu * nv));
  if (!m->v || !m->t) {
    return -1;
  }
  for (int i = 0; i < nu; i++) {
    for (int j = 0; j < nv; j++) {
      double u = 2 * M_PI * i / nu, v = 2 * M_PI * j / nv;
      mg_vert(m, (R + r * cos(v)) * cos(u), (R + r * cos(v)) * sin(u), r * sin(v));
    }
  }
  for (int i = 0; i < nu; i++) {
    for (int j = 0; j < nv; j++) {
      int a = i * nv + j, b = ((i + 1) % nu) * nv + j, c = ((i + 1) % nu) * nv + (j + 1) % nv,
          d = i * nv + (j + 1) % nv;
      mg_tri(m, a, b, c);
      mg_tri(m, a, c, d);
    }
  }
  return 0;
}


// a torus mesh cut by three planes through one point: the tetrahedra of its clipped
// triangles with apex at that point
static void test_bsp_torus_corner(void **state) {
  fixture *f = *state;
  vxc_rng g = {0xda942042e4dd58b5ULL};
  for (int it = 0; it < 9; it++) {
    double s = SCALES[it % 3], R = 0.05 * s / 0.01, rr = 0.02 * s / 0.01;
    mg_mesh tor;
    assert_int_equal(torus_mesh(&tor, R, rr, 24 + it, 12 + it), 0);
    /* the corner at a point near the tube, its planes' normals random (aligned every third) */
    double p[3] = {R + vxc_rng_uniform(&g, -rr, rr), vxc_rng_uniform(&g, -rr, rr),
                   vxc_rng_uniform(&g, -rr, rr)};
    double nrm[9], d[3];
    for (int k = 0; k < 3; k++) {
      double n[3] = {0, 0, 0};
      if (it % 3 == 0) {
        n[k] = vxc_rng_uniform(&g, 0, 1) < 0.5 ? -1 : 1;
      } else {
        vx_random_dir(&g, it * 3 + k, n);
      }
      memcpy(nrm + 3 * k, n, sizeof n);
      d[k] = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
    }
    /* the exact moments about p, then about the origin */
    mg_moments ex;
    memset(&ex, 0, sizeof ex);
    {
      mg_mesh sh;
      vxg_xform back;
      vxg_xform_translation(&back, -p[0], -p[1], -p[2]);
      assert_int_equal(moved(&tor, &back, &sh), 0);
      double d0[3] = {0, 0, 0};
      const double all[6] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL};
      mg_moments mp;
      memset(&mp, 0, sizeof mp);
      assert_int_equal(mg_add_clipped(&mp, &sh, sh.v, nrm, d0, 3, all), 0);
      ex.m0 = mp.m0;
      for (int k = 0; k < 3; k++) {
        ex.m1[k] = mp.m1[k] + mp.m0 * p[k];
      }
      for (int k = 0; k < 6; k++) {
        int i = MG_SYM_ROW[k], j = MG_SYM_COL[k];
        ex.m2[k] = mp.m2[k] + p[i] * mp.m1[j] + mp.m1[i] * p[j] + mp.m0 * p[i] * p[j];
      }
      mg_free(&sh);
    }
    /* the cell: the mesh and the three half-spaces; the other a big box */
    struct vxg_mesh *m = NULL;
    vxc_error err;
    vxc_status st = vxg_mesh_create(NULL, tor.v, tor.nv, tor.t, tor.nt, 1, "torus", &m, &err);
    if (st != VXC_OK) {
      fprintf(stderr, "# %s\n", err.message);
    }
    assert_int_equal(st, VXC_OK);
    vxg_cell *a = NULL;
    vxg_prim pr;
    const double one = 1;
    char name[32];
    snprintf(name, sizeof name, "corner%d", it);
    assert_int_equal(vxg_solid_add_cell(f->s, name, NULL, &a, &err), VXC_OK);
    assert_int_equal(vxg_prim_init(&pr, VXG_MESH, &one, 1, 0, NULL, &err), VXC_OK);
    pr.mesh = m;
    assert_int_equal(vxg_cell_add_prim(a, &pr, &err), VXC_OK);
    for (int k = 0; k < 3; k++) {
      double hp[4] = {nrm[3 * k], nrm[3 * k + 1], nrm[3 * k + 2], d[k]};
      assert_int_equal(vxg_prim_init(&pr, VXG_HALFSPACE, hp, 4, 0, NULL, &err), VXC_OK);
      assert_int_equal(vxg_cell_add_prim(a, &pr, &err), VXC_OK);
    }
    assert_int_equal(vxg_cell_finish(a, NULL, &err), VXC_OK);
    vx_prim_spec bx = {VXG_BOX, {10 * R, 10 * R, 10 * R}, 3, 0, NULL};
    snprintf(name, sizeof name, "big%d", it);
    vxg_cell *b = vx_cell(f->s, name, &bx, 1);
    assert_non_null(b);
    vxg_xform w, id;
    vxg_xform_identity(&id);
    vx_random_pose(&g, it % 2, 10 * s, &w);
    vxv_options o;
    vxv_options_default(&o);
    vxv_result r;
    if (ex.m0 <= 1e-9 * R * R * R) {
      mg_free(&tor);
      continue;
    }
    assert_int_equal(vxv_intersect(f->ws, a, &w, b, &w, &o, &r), VXC_OK);
    expect_exact(&r, &ex, &w, R);
    mg_free(&tor);
  }
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_bsp_box_in_channel, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bsp_channel_pair, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bsp_steps_warm_cache, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bsp_complement, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bsp_cavity, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bsp_general_in_cavity, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bsp_general_pair, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bsp_torus_corner, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
