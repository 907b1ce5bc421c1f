/* mesh_cases.c: the cases of mesh_cases.h and their exact references. Each template builds
 * its two solids in a design frame at the nominal size (metres), randomised from the
 * first variant on; mc_make then scales the case and moves both solids by one random rigid
 * motion, which leaves their interference's shape unchanged. */
#include "tools/mesh_cases.h"

#include <stdio.h>
#include <string.h>

#include "tools/corpus.h" /* the seeded random numbers and rotations */

#define DEG (M_PI / 180)
#define MM 1e-3

/* U(lo, hi) when randomising, else the nominal value. */
static double pick(uint64_t *r, int rnd, double nominal, double lo, double hi) {
  return rnd ? lo + (hi - lo) * cx_uni(r) : nominal;
}

/* The pose of a rotation by angle (rad) about the unit axis, then the translation t. */
static vxc_pose axis_pose(const double axis[3], double angle, double tx, double ty, double tz) {
  vxc_pose p = {{tx, ty, tz}, {cos(angle / 2), 0, 0, 0}};
  for (int k = 0; k < 3; k++) {
    p.q[1 + k] = sin(angle / 2) * axis[k];
  }
  return p;
}

/* The lowest z of solid s's mesh at its pose. */
static double lowest_z(const mc_solid *s) {
  double z = HUGE_VAL;
  for (int i = 0; i < s->mesh.nv; i++) {
    double w[3];
    cx_qrot(s->pose.q, 0, s->mesh.v + 3 * i, w);
    z = fmin(z, w[2] + s->pose.p[2]);
  }
  return z;
}

/* A table: the box 0.2 x 0.2 x 0.04 m with its top at z = top (design frame). */
static int table(mc_solid *s, double top) {
  s->convex = 1;
  s->pose = vxc_pose_identity();
  s->pose.p[2] = top - 0.02;
  return mg_box(&s->mesh, 0.2, 0.2, 0.04);
}

/* ---- the templates --------------------------------------------------------------------- */

/* Icospheres of radius 0.05 m at subdivision `level`, `overlap` deep along a random
 * direction (an axis when aligned). */
static int icospheres(mc_case *c, uint64_t *r, int rnd, int level, double overlap) {
  const double R = 0.05;
  double d = 2 * R - pick(r, rnd, overlap, 0.5 * overlap, 1.5 * overlap), n[3] = {1, 0, 0};
  if (rnd && !c->aligned) {
    double z = 2 * cx_uni(r) - 1, ph = 2 * M_PI * cx_uni(r);
    n[0] = sqrt(1 - z * z) * cos(ph);
    n[1] = sqrt(1 - z * z) * sin(ph);
    n[2] = z;
  }
  for (int k = 0; k < 2; k++) {
    c->s[k].convex = 1;
    c->s[k].pose = vxc_pose_identity();
    if (mg_icosphere(&c->s[k].mesh, R, level) != 0) {
      return -1;
    }
  }
  for (int k = 0; k < 3; k++) {
    c->s[1].pose.p[k] = d * n[k];
  }
  c->ref = MC_REF_PIECES;
  return 0;
}

static int ico5k(mc_case *c, uint64_t *r, int rnd) {
  return icospheres(c, r, rnd, 4, 1 * MM);
}

static int ico80k(mc_case *c, uint64_t *r, int rnd) {
  return icospheres(c, r, rnd, 6, 10 * MM);
}

/* A box pressed into both walls of a U-channel (gap 40 mm, walls 10 mm thick and 40 mm
 * high, 100 mm long) by 0.5 mm each, clear of the floor, its top above the walls;
 * randomised: each side's depth, and a turn about the channel's axis (generic poses). */
static int u_channel(mc_case *c, uint64_t *r, int rnd) {
  const double w = 0.04;
  double dl = pick(r, rnd, 0.5 * MM, 0.25 * MM, 0.75 * MM);
  double dr = pick(r, rnd, 0.5 * MM, 0.25 * MM, 0.75 * MM);
  double turn = rnd && !c->aligned ? (2 * cx_uni(r) - 1) * 0.3 * DEG : 0;
  const double z[3] = {0, 0, 1};
  if (ms_u_channel(w, 0.01, 0.01, 0.04, 0, 0.1, &c->s[0].mesh, &c->s[0].pieces) != 0 ||
      mg_box(&c->s[1].mesh, w + dl + dr, 0.03, 0.06) != 0) {
    return -1;
  }
  c->s[0].pose = vxc_pose_identity();
  c->s[1].convex = 1;
  c->s[1].pose = axis_pose(z, turn, (dr - dl) / 2, 0.03, 0.05);
  c->ref = MC_REF_PIECES;
  return 0;
}

/* A 30 x 30 x 60 mm box in the inner corner of an L-channel (legs 60 mm, 10 mm thick),
 * 0.5 mm into both legs. */
static int l_channel(mc_case *c, uint64_t *r, int rnd) {
  const double t = 0.01, e = 0.03;
  double dx = pick(r, rnd, 0.5 * MM, 0.25 * MM, 0.75 * MM);
  double dy = pick(r, rnd, 0.5 * MM, 0.25 * MM, 0.75 * MM);
  if (ms_l_channel(0.06, 0.06, t, 0, 0.1, &c->s[0].mesh, &c->s[0].pieces) != 0 ||
      mg_box(&c->s[1].mesh, e, e, 0.06) != 0) {
    return -1;
  }
  c->s[0].pose = vxc_pose_identity();
  c->s[1].convex = 1;
  c->s[1].pose = vxc_pose_identity();
  c->s[1].pose.p[0] = t - dx + e / 2;
  c->s[1].pose.p[1] = t - dy + e / 2;
  c->s[1].pose.p[2] = 0.05;
  c->ref = MC_REF_PIECES;
  return 0;
}

/* A 40 x 60 x 30 mm box on a table, turned by ax about x and ay about y, its lowest
 * vertex `depth` below the table's top. */
static int box_on_box(mc_case *c, double ax, double ay, double depth) {
  const double x[3] = {1, 0, 0}, y[3] = {0, 1, 0};
  if (table(&c->s[0], 0) != 0 || mg_box(&c->s[1].mesh, 0.04, 0.06, 0.03) != 0) {
    return -1;
  }
  vxc_pose px = axis_pose(x, ax, 0, 0, 0), py = axis_pose(y, ay, 0, 0, 0);
  c->s[1].convex = 1;
  c->s[1].pose = vxc_pose_identity();
  cx_qmul(py.q, px.q, c->s[1].pose.q);
  c->s[1].pose.p[2] = -depth - lowest_z(&c->s[1]);
  c->ref = MC_REF_PIECES;
  return 0;
}

static int box_tilted(mc_case *c, uint64_t *r, int rnd) {
  double sx = rnd && cx_uni(r) < 0.5 ? -1 : 1, sy = rnd && cx_uni(r) < 0.5 ? -1 : 1;
  return box_on_box(c, sx * pick(r, rnd, 10 * DEG, 2 * DEG, 20 * DEG),
                    sy * pick(r, rnd, 8 * DEG, 2 * DEG, 20 * DEG),
                    pick(r, rnd, 1 * MM, 0.5 * MM, 1.5 * MM));
}

static int box_flat(mc_case *c, uint64_t *r, int rnd) {
  return box_on_box(c, 0, 0, pick(r, rnd, 0.5 * MM, 0.25 * MM, 0.75 * MM));
}

/* A torus (R 40 mm, r 15 mm, 24 x 12 quads) at pose q (design), lowest vertex `depth`
 * below z = 0, as solid s. */
static int torus_at(mc_solid *s, const double q[4], double x, double depth) {
  if (ms_torus(0.04, 0.015, 24, 12, &s->mesh, &s->pieces) != 0) {
    return -1;
  }
  s->pose = vxc_pose_identity();
  memcpy(s->pose.q, q, sizeof s->pose.q);
  s->pose.p[0] = x;
  s->pose.p[2] = -depth - lowest_z(s);
  return 0;
}

/* A torus lying on a table 1 mm deep (randomised: tilted up to 3 degrees). */
static int torus_flat(mc_case *c, uint64_t *r, int rnd) {
  const double a[3] = {M_SQRT1_2, M_SQRT1_2, 0};
  vxc_pose t = axis_pose(a, pick(r, rnd, 0, 0, 3 * DEG), 0, 0, 0);
  if (table(&c->s[1], 0) != 0 ||
      torus_at(&c->s[0], t.q, 0, pick(r, rnd, 1 * MM, 0.5 * MM, 1.5 * MM)) != 0) {
    return -1;
  }
  c->ref = MC_REF_PIECES;
  return 0;
}

/* A torus standing on its rim on a table, turned 7 degrees about its axis so that no
 * vertex is lowest alone, 1 mm deep. */
static int torus_edge(mc_case *c, uint64_t *r, int rnd) {
  const double x[3] = {1, 0, 0}, z[3] = {0, 0, 1};
  vxc_pose up = axis_pose(x, M_PI / 2, 0, 0, 0), spin = axis_pose(z, 7 * DEG, 0, 0, 0);
  vxc_pose tilt = axis_pose(z, pick(r, rnd, 0, -20 * DEG, 20 * DEG), 0, 0, 0);
  double q[4];
  cx_qmul(up.q, spin.q, q);
  cx_qmul(tilt.q, q, q);
  if (table(&c->s[1], 0) != 0 ||
      torus_at(&c->s[0], q, 0, pick(r, rnd, 1 * MM, 0.5 * MM, 1.5 * MM)) != 0) {
    return -1;
  }
  c->ref = MC_REF_PIECES;
  return 0;
}

/* Two tori lying side by side, rims 2 mm into each other (randomised: the second turned
 * about its axis and tilted a few degrees). */
static int torus_torus(mc_case *c, uint64_t *r, int rnd) {
  const double z[3] = {0, 0, 1}, y[3] = {0, 1, 0};
  double d = pick(r, rnd, 2 * MM, 1 * MM, 3 * MM);
  vxc_pose spin = axis_pose(z, pick(r, rnd, 0, 0, 15 * DEG), 0, 0, 0);
  vxc_pose tilt = axis_pose(y, pick(r, rnd, 0, -4 * DEG, 4 * DEG), 0, 0, 0);
  const double one[4] = {1, 0, 0, 0};
  double q[4];
  cx_qmul(tilt.q, spin.q, q);
  if (torus_at(&c->s[0], one, 0, 0) != 0 || torus_at(&c->s[1], q, 0, 0) != 0) {
    return -1;
  }
  /* B moves along x until its extent overlaps A's by d (the tilt lifts nothing: both
     lowest points sit at z = 0, the rims meet in the middle plane's neighbourhood) */
  double ax = -HUGE_VAL, bx = HUGE_VAL;
  for (int i = 0; i < c->s[0].mesh.nv; i++) {
    ax = fmax(ax, c->s[0].mesh.v[3 * i]);
    double w[3];
    cx_qrot(q, 0, c->s[1].mesh.v + 3 * i, w);
    bx = fmin(bx, w[0]);
  }
  c->s[1].pose.p[0] = ax - bx - d;
  c->s[1].pose.p[2] = 0;
  c->s[0].pose.p[2] = 0;
  c->ref = MC_REF_PIECES;
  return 0;
}

/* An n-gon peg (the hole's shape, 0.5 mm smaller on every side) in a block 80 x 80 x 40 mm
 * with an n-gon through-hole of circumradius 15 mm, pushed across the clearance and
 * `depth` into the wall of the hole's first face. */
static int ngon_peg(mc_case *c, uint64_t *r, int rnd, int n) {
  const double rh = 0.015, clear = 0.5 * MM;
  double phase = pick(r, rnd, 0.1, 0.05, 2 * M_PI / n - 0.05);
  double depth = pick(r, rnd, 0.2 * MM, 0.1 * MM, 0.3 * MM);
  double rp = (rh * cos(M_PI / n) - clear) / cos(M_PI / n), nf = phase + M_PI / n;
  if (ms_holed_block(0.04, n, rh, phase, -0.04, 0, &c->s[0].mesh, &c->s[0].pieces) != 0 ||
      ms_ngon_prism(n, rp, phase, -0.03, 0.02, &c->s[1].mesh) != 0) {
    return -1;
  }
  c->s[0].pose = vxc_pose_identity();
  c->s[1].convex = 1;
  c->s[1].pose = vxc_pose_identity();
  c->s[1].pose.p[0] = (clear + depth) * cos(nf);
  c->s[1].pose.p[1] = (clear + depth) * sin(nf);
  c->ref = MC_REF_PIECES;
  return 0;
}

static int peg3(mc_case *c, uint64_t *r, int rnd) {
  return ngon_peg(c, r, rnd, 3);
}

static int peg6(mc_case *c, uint64_t *r, int rnd) {
  return ngon_peg(c, r, rnd, 6);
}

static int peg8(mc_case *c, uint64_t *r, int rnd) {
  return ngon_peg(c, r, rnd, 8);
}

/* The STEP peg (40 mm shaft, 3 mm chamfer) in the STEP block's 41 mm hole, 70 mm down,
 * pushed 0.6 mm off the axis: 0.1 mm into the wall for the true cylinders. */
static int step_peg(mc_case *c, uint64_t *r, int rnd, const char *peg, const char *hole,
                    char *msg, size_t msg_len) {
  if (ms_obj_read(peg, MM, &c->s[1].mesh, msg, msg_len) != 0 ||
      ms_obj_read(hole, MM, &c->s[0].mesh, msg, msg_len) != 0) {
    return -1;
  }
  double off = 0.5 * MM + pick(r, rnd, 0.1 * MM, 0.05 * MM, 0.15 * MM);
  double ph = pick(r, rnd, 0, 0, 2 * M_PI);
  c->s[0].pose = vxc_pose_identity();
  c->s[1].pose = vxc_pose_identity();
  c->s[1].pose.p[0] = off * cos(ph);
  c->s[1].pose.p[1] = off * sin(ph);
  c->s[1].pose.p[2] = -0.07;
  c->ref = MC_REF_NONE;
  return 0;
}

/* The STEP vase standing on a table 0.5 mm deep (randomised: tilted up to 2 degrees). */
static int vase(mc_case *c, uint64_t *r, int rnd, const char *obj, char *msg, size_t msg_len) {
  const double y[3] = {0, 1, 0};
  if (ms_obj_read(obj, MM, &c->s[0].mesh, msg, msg_len) != 0 || table(&c->s[1], 0) != 0) {
    return -1;
  }
  c->s[0].pose = axis_pose(y, pick(r, rnd, 0, 0, 2 * DEG), 0, 0, 0);
  c->s[0].pose.p[2] = -pick(r, rnd, 0.5 * MM, 0.25 * MM, 0.75 * MM) - lowest_z(&c->s[0]);
  c->ref = MC_REF_CUT;
  c->cut_point[2] = 0.02; /* the table's top, in its frame */
  return 0;
}

typedef int (*template_fn)(mc_case *c, uint64_t *r, int rnd);

static const struct {
  const char *name;
  template_fn make;
  int step; /* 0: built here; 1, 2: the STEP peg at deflection 1e-4, 1e-5; 3: the vase */
} templates[] = {
    {"icospheres 5k 1 mm", ico5k, 0},
    {"icospheres 80k 10 mm", ico80k, 0},
    {"u-channel 0.5 mm", u_channel, 0},
    {"l-channel 0.5 mm", l_channel, 0},
    {"box tilted on box", box_tilted, 0},
    {"box flat on box", box_flat, 0},
    {"torus flat on box", torus_flat, 0},
    {"torus on edge", torus_edge, 0},
    {"torus on torus", torus_torus, 0},
    {"triangle peg 0.2 mm", peg3, 0},
    {"hexagon peg 0.2 mm", peg6, 0},
    {"octagon peg 0.2 mm", peg8, 0},
    {"step peg 0.1 mm", NULL, 1},
    {"step peg fine 0.1 mm", NULL, 2},
    {"step vase 0.5 mm", NULL, 3},
};

int mc_templates(void) {
  return (int)(sizeof templates / sizeof templates[0]);
}

const char *mc_template_name(int t) {
  return templates[t].name;
}

/* ---- scale and the common motion ------------------------------------------------------- */

static void scale_mesh(mg_mesh *g, double s) {
  for (int i = 0; i < 3 * g->nv; i++) {
    g->v[i] *= s;
  }
}

/* Scales the case by s, then moves both solids by the rotation q and the translation p. */
static void place(mc_case *c, double s, const double q[4], const double p[3]) {
  for (int k = 0; k < 2; k++) {
    mc_solid *so = &c->s[k];
    scale_mesh(&so->mesh, s);
    for (int i = 0; i < so->pieces.n; i++) {
      scale_mesh(&so->pieces.p[i], s);
    }
    double t[3];
    for (int j = 0; j < 3; j++) {
      t[j] = s * so->pose.p[j];
    }
    cx_qrot(q, 0, t, so->pose.p);
    for (int j = 0; j < 3; j++) {
      so->pose.p[j] += p[j];
    }
    cx_qmul(q, so->pose.q, so->pose.q);
  }
  for (int j = 0; j < 3; j++) {
    c->cut_point[j] *= s;
  }
}

int mc_make(int t, int v, uint64_t seed, const mc_inputs *in, mc_case *c, char *msg,
            size_t msg_len) {
  static const double scales[4] = {1, 0.1, 1, 10};
  const char *peg = NULL, *hole = NULL;
  if (templates[t].step == 1 || templates[t].step == 2) {
    peg = in ? in->peg_obj[templates[t].step - 1] : NULL;
    hole = in ? in->hole_obj[templates[t].step - 1] : NULL;
    if (!peg || !hole) {
      return 1;
    }
  }
  if (templates[t].step == 3 && !(in && in->vase_obj)) {
    return 1;
  }
  memset(c, 0, sizeof *c);
  uint64_t r = seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(1 + t)) ^ ((uint64_t)v << 40);
  cx_splitmix(&r);
  c->shape = templates[t].name;
  c->variant = v;
  c->aligned = v % 2 == 0;
  c->scale = v == 0 ? 1 : scales[v % 4];
  snprintf(c->name, sizeof c->name, "%s #%d", c->shape, v);
  snprintf(msg, msg_len, "out of memory");
  int rc = templates[t].step == 0   ? templates[t].make(c, &r, v > 0)
           : templates[t].step == 3 ? vase(c, &r, v > 0, in->vase_obj, msg, msg_len)
                                    : step_peg(c, &r, v > 0, peg, hole, msg, msg_len);
  if (rc != 0) {
    mc_free(c);
    return -1;
  }
  double q[4], p[3];
  cx_random_rotation(&r, c->aligned, q);
  for (int k = 0; k < 3; k++) {
    p[k] = c->scale * 0.2 * (2 * cx_uni(&r) - 1);
  }
  place(c, c->scale, q, p);
  return 0;
}

void mc_free(mc_case *c) {
  for (int k = 0; k < 2; k++) {
    mg_free(&c->s[k].mesh);
    ms_pieces_free(&c->s[k].pieces);
  }
}

/* ---- the exact references -------------------------------------------------------------- */

static int world_copy(const mg_mesh *g, const vxc_pose *pose, mg_mesh *out) {
  if (ms_copy(g, out) != 0) {
    return -1;
  }
  ms_transform(out, pose->p, pose->q);
  return 0;
}

int mc_world_mesh(const mc_solid *s, mg_mesh *out) {
  return world_copy(&s->mesh, &s->pose, out);
}

static void add_moments(mg_moments *sum, const mg_moments *m) {
  sum->m0 += m->m0;
  for (int k = 0; k < 3; k++) {
    sum->m1[k] += m->m1[k];
  }
  for (int k = 0; k < 6; k++) {
    sum->m2[k] += m->m2[k];
  }
}

/* The solid's convex pieces in the world (the mesh itself when convex); n pieces. */
static int world_pieces(const mc_solid *s, mg_mesh **out, int *n) {
  *n = s->convex ? 1 : s->pieces.n;
  *out = calloc((size_t)*n, sizeof **out);
  int rc = *out ? 0 : -1;
  for (int i = 0; i < *n && rc == 0; i++) {
    rc = world_copy(s->convex ? &s->mesh : &s->pieces.p[i], &s->pose, &(*out)[i]);
  }
  return rc;
}

static void free_pieces(mg_mesh *p, int n) {
  for (int i = 0; p && i < n; i++) {
    mg_free(&p[i]);
  }
  free(p);
}

/* The centre of the overlap of the solids' world bounding boxes: the origin of the sums,
 * near the region, so that their terms cancel little. */
static void sums_origin(const mg_mesh *a, const mg_mesh *b, double o[3]) {
  for (int k = 0; k < 3; k++) {
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (int s = 0; s < 2; s++) {
      const mg_mesh *g = s ? b : a;
      for (int i = 0; i < g->nv; i++) {
        lo[s] = fmin(lo[s], g->v[3 * i + k]);
        hi[s] = fmax(hi[s], g->v[3 * i + k]);
      }
    }
    o[k] = 0.5 * (fmax(lo[0], lo[1]) + fmin(hi[0], hi[1]));
  }
}

/* Sum over piece pairs of their convex intersections, about o. */
static int pieces_moments(const mc_case *c, const double o[3], mg_moments *sum) {
  mg_mesh *pa = NULL, *pb = NULL;
  int na = 0, nb = 0;
  int rc = world_pieces(&c->s[0], &pa, &na) || world_pieces(&c->s[1], &pb, &nb) ? -1 : 0;
  double t[3] = {-o[0], -o[1], -o[2]};
  memset(sum, 0, sizeof *sum);
  for (int i = 0; i < na && rc == 0; i++) {
    for (int j = 0; j < nb && rc == 0; j++) {
      mg_moments m;
      rc = mg_convex_meet_moments(&pa[i], t, &pb[j], t, &m);
      add_moments(sum, &m);
    }
  }
  free_pieces(pa, na);
  free_pieces(pb, nb);
  return rc;
}

/* A's triangles clipped by B's face planes, about o on B's one face that crosses A: that
 * face's share of the boundary weighs nothing about a point of its plane. */
static int cut_moments(const mg_mesh *a, const mg_mesh *b, const double o[3], mg_moments *m) {
  double *va = mg_placed(a, (const double[3]){-o[0], -o[1], -o[2]});
  double *vb = mg_placed(b, (const double[3]){-o[0], -o[1], -o[2]});
  double *nrm = NULL, *d = NULL;
  const double all[6] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL};
  int rc = va && vb && mg_face_planes(b, vb, &nrm, &d) == 0 ? 0 : -1;
  memset(m, 0, sizeof *m);
  if (rc == 0) {
    rc = mg_add_clipped(m, a, va, nrm, d, b->nt, all);
  }
  free(va);
  free(vb);
  free(nrm);
  free(d);
  return rc;
}

int mc_reference(const mc_case *c, double *volume, double centroid[3], double inertia[9]) {
  if (c->ref == MC_REF_NONE) {
    return 1;
  }
  mg_mesh a = {0}, b = {0};
  mg_moments m;
  double o[3];
  int rc = mc_world_mesh(&c->s[0], &a) || mc_world_mesh(&c->s[1], &b) ? -1 : 0;
  if (rc == 0 && c->ref == MC_REF_PIECES) {
    sums_origin(&a, &b, o);
    rc = pieces_moments(c, o, &m);
  } else if (rc == 0) {
    cx_qrot(c->s[1].pose.q, 0, c->cut_point, o);
    for (int k = 0; k < 3; k++) {
      o[k] += c->s[1].pose.p[k];
    }
    rc = cut_moments(&a, &b, o, &m);
  }
  if (rc == 0) {
    *volume = m.m0;
    memset(centroid, 0, 3 * sizeof(double));
    memset(inertia, 0, 9 * sizeof(double));
    if (m.m0 > 0) {
      mg_moments_inertia(&m, centroid, inertia);
    }
    for (int k = 0; k < 3; k++) {
      centroid[k] += o[k];
    }
  }
  mg_free(&a);
  mg_free(&b);
  return rc;
}
