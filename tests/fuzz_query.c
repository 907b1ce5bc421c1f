/* fuzz_query.c: the differential fuzzing entry point of the voxel layer's fast paths
 * (voxel/closed.c: a ball against planes or a ball in closed form, a ball against a
 * cylinder, a rod, a cone or a ball against a bore or a countersink and a ball over an edge
 * by quadrature, a cell inside another's bore proved apart) against the octree.
 *
 * vxc_fuzz_query decodes the bytes into two cells of 1 to 4 primitives each from a menu
 * (sphere, half-space, box, cylinder, complemented cylinder, slab, cone or complemented
 * cone; lengths 1e-4 to 10 m on
 * a grid of quarter steps or continuous, so that faces and centres coincide often; poses
 * identity, one of the 24 exact axis-aligned turns, a tilt or any rotation) and the
 * options of the fast run (rtol 1e-3 or 1e-4, the certified rule, or the h_min rule; the
 * cells in either order). It runs vxv_intersect with the closed forms on, then, when a
 * fast path answered, off (the octree, rtol QF_RTOL, at most QF_MAX_BOXES boxes), and
 * aborts, after printing what broke, when: a status is neither VXC_OK nor VXC_NO_CONTACT; a figure
 * is not finite; a result's volume lies outside its own bracket; a fast result (closed_form 1 or 2)
 * lies outside the octree's certified bracket widened by QF_REL of the volume and the rounding of
 * the region's size (when the octree was not capped); the fast path proves the cells apart while
 * the octree's lower bound is above that rounding; a fast result's centroid lies outside the
 * bounding box of the octree's elements that may hold the region. Decoding never fails: missing
 * bytes read as 0, and an input whose cell is unbounded or empty is skipped. With
 * VXC_FUZZ_QUERY_VERBOSE set in the environment it prints both results of every input a fast
 * path answered. libFuzzer (tools/fuzz query) and the regression test
 * (tests/test_fuzz_regress.c) share this file. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom/geom.h"
#include "voxel/voxel.h"

int vxc_fuzz_query(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The octree's work cap per query and its rtol (an input takes about a tenth of a second
 * under ASan at most; the fast run's octree, when no fast path answers, a quarter of it). */
#define QF_MAX_BOXES 40000
#define QF_RTOL 1e-4
/* The relative allowance of a fast result against the octree's bracket. */
#define QF_REL 1e-9
/* The absolute allowance, as a multiple of the cube of the region's largest edge. */
#define QF_ABS (256 * DBL_EPSILON)

/* The input, read a byte at a time (0 past its end). */
typedef struct qf_in {
  const uint8_t *p;
  size_t n, i;
  double scale; /* the length unit, m */
} qf_in;

static unsigned byte_at(qf_in *in) {
  return in->i < in->n ? in->p[in->i++] : 0;
}


static double u16(qf_in *in) {
  unsigned hi = byte_at(in);
  return (hi << 8 | byte_at(in)) / 65535.0;
}


/* A length: scale times 1 to 39/8 in eighths (byte < 128), or continuous over 1e-3 to 10
 * of the scale; clamped to 1e-4..10 m. */
static double length(qf_in *in) {
  unsigned b = byte_at(in);
  double v = b < 128 ? in->scale * ((b % 32) + 8) / 8 : in->scale * 1e-3 * pow(1e4, u16(in));
  return fmin(10, fmax(1e-4, v));
}


/* A coordinate: scale times -2 to 2 in eighths (byte < 128; 0 reads 0), or continuous over
 * -4 to 4 of the scale. */
static double coord(qf_in *in) {
  unsigned b = byte_at(in);
  if (b < 128) {
    int v = (int)(b % 33);
    return in->scale * (v <= 16 ? v : 16 - v) / 8;
  }
  return in->scale * (u16(in) * 8 - 4);
}


/* A signed unit-range number, -1 to 1 in 127ths (0 reads 0). */
static double unit(qf_in *in) {
  int b = (int)byte_at(in);
  return (b < 128 ? b : b - 256) / 127.0;
}


/* One of the 24 rotations that permute the axes with signs, exactly. */
static void axis_turn(unsigned k, vxg_xform *x) {
  static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}};
  const int *pm = perm[k % 6];
  int odd = k % 6 >= 3;
  int s0 = k / 6 % 2 ? -1 : 1, s1 = k / 12 % 2 ? -1 : 1;
  int s2 = s0 * s1 * (odd ? -1 : 1); /* determinant +1 */
  int s[3] = {s0, s1, s2};
  memset(x->r, 0, sizeof x->r);
  for (int i = 0; i < 3; i++) {
    x->r[3 * i + pm[i]] = s[i];
  }
}


/* A pose: a rotation (identity, an axis turn, a tilt about any axis up to about 0.2 rad, any
 * rotation) and a translation. */
static void pose(qf_in *in, vxg_xform *x) {
  unsigned r = byte_at(in);
  vxg_xform_identity(x);
  if (r % 4 == 1) {
    axis_turn(byte_at(in), x);
  } else if (r % 4 == 2) {
    double ax[3] = {unit(in), unit(in), unit(in)};
    vxg_xform_axis_angle(x, ax, 0.2 * unit(in)); /* a zero axis leaves the identity */
  } else if (r % 4 == 3) {
    vxg_xform_quat(x, unit(in), unit(in), unit(in), unit(in));
  }
  for (int i = 0; i < 3; i++) {
    x->t[i] = coord(in);
  }
}


/* A unit-ish direction: an axis with a sign (even byte), or any (odd byte; the z axis when
 * zero). */
static void direction(qf_in *in, double n[3]) {
  unsigned b = byte_at(in);
  n[0] = n[1] = n[2] = 0;
  if (b % 2 == 0) {
    n[b / 2 % 3] = b / 6 % 2 ? -1 : 1;
    return;
  }
  for (int i = 0; i < 3; i++) {
    n[i] = unit(in);
  }
  if (n[0] == 0 && n[1] == 0 && n[2] == 0) {
    n[2] = 1;
  }
}


/* Adds one primitive from the menu to c; 0 when the library refused it. */
static int add_prim(qf_in *in, vxg_cell *c) {
  unsigned k = byte_at(in) % 6;
  double p[4] = {0};
  int np = 1, comp = 0;
  vxg_prim_kind kind = VXG_SPHERE;
  switch (k) {
    case 0:
      p[0] = length(in);
      break;
    case 1:
      kind = VXG_HALFSPACE;
      direction(in, p);
      p[3] = coord(in);
      np = 4;
      break;
    case 2:
      kind = VXG_BOX;
      p[0] = length(in), p[1] = length(in), p[2] = length(in);
      np = 3;
      break;
    case 3:
    case 4:
      kind = VXG_CYLINDER;
      p[0] = length(in);
      comp = k == 4;
      break;
    default: {
      unsigned b = byte_at(in);
      if (b >= 192) { /* a cone (a chamfer), half-angle 1 to 64 degrees */
        kind = VXG_CONE;
        p[0] = (b - 191) * M_PI / 180;
        break;
      }
      if (b >= 160) { /* a countersink (a complemented cone), half-angle 2 to 64 degrees */
        kind = VXG_CONE;
        p[0] = (b - 159) * M_PI / 90;
        comp = 1;
        break;
      }
      kind = VXG_SLAB;
      p[0] = b % 3;
      p[1] = coord(in);
      p[2] = p[1] + length(in);
      np = 3;
    }
  }
  vxg_xform move;
  pose(in, &move);
  vxg_prim pr;
  vxc_error err;
  return vxg_prim_init(&pr, kind, p, np, comp, &move, &err) == VXC_OK &&
         vxg_cell_add_prim(c, &pr, &err) == VXC_OK;
}


/* A cell of 1 to 4 primitives and its pose (cell -> world); NULL when unusable. */
static vxg_cell *make_cell(qf_in *in, vxg_solid *s, const char *name, vxg_xform *to_world) {
  vxg_xform id;
  vxg_xform_identity(&id);
  vxg_cell *c = NULL;
  vxc_error err;
  int n = 1 + (int)(byte_at(in) % 4);
  pose(in, to_world);
  if (vxg_solid_add_cell(s, name, &id, &c, &err) != VXC_OK) {
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    if (!add_prim(in, c)) {
      return NULL;
    }
  }
  return vxg_cell_finish(c, NULL, &err) == VXC_OK ? c : NULL;
}


/* The bounding box of the octree's elements that may hold some of the region. */
typedef struct qf_bounds {
  double lo[3], hi[3];
} qf_bounds;

static void bounds_reset(qf_bounds *b) {
  for (int i = 0; i < 3; i++) {
    b->lo[i] = INFINITY, b->hi[i] = -INFINITY;
  }
}


static void visit(void *ud, const vxv_visit *v) {
  qf_bounds *b = ud;
  if (v->kind == VXV_VISIT_RESET) {
    bounds_reset(b);
    return;
  }
  if (!(v->hi > 0)) {
    return;
  }
  for (int i = 0; i < 3; i++) {
    b->lo[i] = fmin(b->lo[i], v->c[i] - v->e[i]);
    b->hi[i] = fmax(b->hi[i], v->c[i] + v->e[i]);
  }
}


/* Prints the broken invariant and the two results, then aborts. */
static void broken(const char *what, const vxv_result *f, const vxv_result *o) {
  fprintf(stderr,
          "fuzz_query: %s\n  fast:   closed_form %d V %.17g [%.17g, %.17g] centroid %.17g %.17g "
          "%.17g\n  octree: capped %d V %.17g [%.17g, %.17g] centroid %.17g %.17g %.17g\n",
          what, f->closed_form, f->volume, f->volume_lo, f->volume_hi, f->centroid[0],
          f->centroid[1], f->centroid[2], o->capped, o->volume, o->volume_lo, o->volume_hi,
          o->centroid[0], o->centroid[1], o->centroid[2]);
  abort();
}


/* A result's own invariants: finite figures, V within its bracket, not below 0 by more
 * than the rounding of the region's size `L` (the octree's leaves sum to about -1e-34 L^3
 * over a sliver). */
static void check_result(const char *run, const vxv_result *r, const vxv_result *f,
                         const vxv_result *o, double L) {
  char what[96];
  int finite = isfinite(r->volume) && isfinite(r->volume_lo) && isfinite(r->volume_hi) &&
               isfinite(r->error_estimate) && isfinite(r->contact_area);
  for (int i = 0; i < 3; i++) {
    finite = finite && isfinite(r->centroid[i]) && isfinite(r->area_vector[i]);
  }
  for (int i = 0; i < 9; i++) {
    finite = finite && isfinite(r->inertia[i]);
  }
  if (!finite) {
    snprintf(what, sizeof what, "%s: a figure is not finite", run);
    broken(what, f, o);
  }
  if (!(r->volume_lo <= r->volume && r->volume <= r->volume_hi &&
        r->volume_lo >= -QF_ABS * L * L * L)) {
    snprintf(what, sizeof what, "%s: V outside its own bracket", run);
    broken(what, f, o);
  }
}


/* The fast result against the octree's: `L` the region's largest edge, m. */
static void compare(const vxv_result *f, const vxv_result *o, const qf_bounds *ob, double L) {
  double abs_tol = QF_ABS * L * L * L;
  if (!f->closed_form) {
    return;
  }
  if (f->volume == 0) {
    if (o->volume_lo > abs_tol) {
      broken("the fast path proves the cells apart, the octree's lower bound is above 0", f, o);
    }
    return;
  }
  double slack = QF_REL * fmax(f->volume, o->volume_hi) + (f->volume_hi - f->volume_lo) + abs_tol;
  if (!o->capped && (f->volume < o->volume_lo - slack || f->volume > o->volume_hi + slack)) {
    broken("the fast path's volume lies outside the octree's bracket", f, o);
  }
  if (o->volume > 0) {
    for (int i = 0; i < 3; i++) {
      double w = 1e-9 * L + 64 * DBL_EPSILON * fabs(f->centroid[i]);
      if (f->centroid[i] < ob->lo[i] - w || f->centroid[i] > ob->hi[i] + w) {
        broken("the fast path's centroid lies outside the octree's elements", f, o);
      }
    }
  }
}


/* The largest edge of the intersection of the cells' world bounding boxes (0: none). */
static double region_edge(const vxg_cell *a, const vxg_xform *xa, const vxg_cell *b,
                          const vxg_xform *xb) {
  double ba[6], bb[6], L = 0;
  vxg_cell_aabb(a, xa, ba);
  vxg_cell_aabb(b, xb, bb);
  for (int i = 0; i < 3; i++) {
    L = fmax(L, fmin(ba[3 + i], bb[3 + i]) - fmax(ba[i], bb[i]));
  }
  return L;
}


static int status_ok(vxc_status st) {
  return st == VXC_OK || st == VXC_NO_CONTACT;
}


/* Runs the pair both ways and checks the invariants. */
static void run_pair(vxv_workspace *ws, unsigned flags, const vxg_cell *a, const vxg_xform *xa,
                     const vxg_cell *b, const vxg_xform *xb) {
  double L = region_edge(a, xa, b, xb);
  vxv_options fo, oo;
  vxv_options_default(&fo);
  fo.max_boxes = QF_MAX_BOXES / 4;
  switch (flags % 4) {
    case 1:
      fo.rtol = 1e-4;
      break;
    case 2:
      fo.certified = 1;
      break;
    case 3:
      fo.rtol = 0;
      fo.h_min = fmax(L, 1e-4) / 32;
  }
  vxv_options_default(&oo);
  oo.rtol = QF_RTOL;
  oo.max_boxes = QF_MAX_BOXES;
  oo.closed_form = 0;
  oo.skip_apart_proof = 1; /* the octree alone, not the general engine's bore proof */
  qf_bounds ob;
  bounds_reset(&ob);
  oo.visit = visit;
  oo.visit_ud = &ob;
  vxv_result f, o;
  memset(&f, 0, sizeof f);
  memset(&o, 0, sizeof o);
  int swap = flags / 4 % 2;
  vxc_status sf =
      swap ? vxv_intersect(ws, b, xb, a, xa, &fo, &f) : vxv_intersect(ws, a, xa, b, xb, &fo, &f);
  if (!status_ok(sf)) {
    broken("a status is neither VXC_OK nor VXC_NO_CONTACT", &f, &o);
  }
  if (!f.closed_form) { /* the octree answered: its own invariants only */
    check_result("fast", &f, &f, &o, L);
    return;
  }
  vxc_status so = vxv_intersect(ws, a, xa, b, xb, &oo, &o);
  if (!status_ok(so)) {
    broken("a status is neither VXC_OK nor VXC_NO_CONTACT", &f, &o);
  }
  if (getenv("VXC_FUZZ_QUERY_VERBOSE")) {
    printf(
        "fast:   closed_form %d V %.17g [%.17g, %.17g] boxes %lld\n"
        "octree: capped %d V %.17g [%.17g, %.17g] boxes %lld\n",
        f.closed_form, f.volume, f.volume_lo, f.volume_hi, f.boxes, o.capped, o.volume, o.volume_lo,
        o.volume_hi, o.boxes);
  }
  check_result("fast", &f, &f, &o, L);
  check_result("octree", &o, &f, &o, L);
  compare(&f, &o, &ob, L);
}


int vxc_fuzz_query(const uint8_t *data, size_t size) {
  static const double scales[6] = {1e-4, 1e-3, 1e-2, 0.1, 1, 10};
  static vxv_workspace *ws; /* kept between inputs, as a simulation keeps it */
  if (!ws && vxv_workspace_create(NULL, &ws) != VXC_OK) {
    return 0;
  }
  qf_in in = {data, size, 0, 1};
  unsigned flags = byte_at(&in);
  in.scale = scales[flags / 8 % 6];
  vxg_solid *s = NULL;
  if (vxg_solid_create(NULL, "fuzz", &s) != VXC_OK) {
    return 0;
  }
  vxg_xform xa, xb;
  vxg_cell *a = make_cell(&in, s, "a", &xa);
  vxg_cell *b = a ? make_cell(&in, s, "b", &xb) : NULL;
  if (a && b) {
    run_pair(ws, flags, a, &xa, b, &xb);
  }
  vxg_solid_free(s);
  return 1;
}


#ifndef VXC_NO_FUZZ_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxc_fuzz_query(data, size);
  return 0;
}
#endif
