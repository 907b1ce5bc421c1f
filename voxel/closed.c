/* closed.c: the interference of the commonest contacts in closed form (a ball on a plane,
 * two balls), before any octree box.
 *
 * The query's region (the intersection of the cells' bounding boxes) holds the
 * interference. Each atom of both cells is classified over it: when the only surfaces left
 * undecided are one ball (a sphere primitive, not complemented) and planes, or two balls,
 * the candidates are the ball whole, the ball cut by each plane (a cap), or the two balls'
 * lens (geom/cap.c). A candidate K is the interference when every other primitive of both
 * cells holds K's bounding box (a complemented one: the box lies outside one of its
 * atoms); then the cells' intersection is K exactly, whatever the region. A cap that is
 * empty proves the cells apart. Anything else (a truncating plane that cuts the cap, a
 * complemented or curved surface, a mesh) is left to the octree.
 *
 * The result is exact up to rounding: its bracket is the volume at the cap's height (or the
 * lens's depth) moved by its rounding allowance, the error estimate 0.
 *
 * A ball against one cylinder (a rod, or a bore or groove: the cylinder complemented), the
 * other primitives holding the box of the ball's cap by a plane that holds the region, is
 * integrated by quadrature along the axis (geom/slices.c): not certified, so taken under
 * the rtol rule when its bracket (a multiple of its rules' difference, about 1e-15 of V,
 * plus rounding) is within the asked width, under the h_min rule within CF_QUAD_REL of V,
 * never under the certified rule; vxv_result.closed_form is then 2.
 *
 * A rod (a cylinder, or a cone: its nappe's plane is one of the planes) of one cell against
 * a bore (a complemented cylinder), a countersink (a complemented cone) or both on one axis
 * (a countersunk hole) of the other, every other undecided surface a plane, is integrated about the
 * bore's axis (geom/rodbore.c), the planes that meet the region and the region's box bounding it
 * (every decided primitive holds that box): a peg's shaft or chamfer in its hole, a cone in
 * its countersink; a ball in a countersink likewise. A rod whose surface is the bore's (a
 * flush pair, flush.c; a cone's nappe the countersink's) lies in the bore's solid: the
 * result is empty, exact. A ball cut by two planes (over a table's edge) takes the
 * quadrature too, with no bore, about the planes' common line. The same tolerances as the
 * ball's quadrature, the region's touch (CF_TOUCH of its box) passed as an absolute one;
 * closed_form 2.
 *
 * Before these, a cell inside the other's bore (bore.c) proves the cells apart: an empty
 * result, exact (closed_form 1). A query of one cell (its mass properties)
 * takes the same paths over that cell's atoms alone, but for the bore. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "geom/vec3.h"
#include "voxel/internal.h"

/* A quadrature whose bracket is within this share of its region's box counts as a touch. */
#define CF_TOUCH 1e-12
/* Planes left undecided over the region: those tried as the cap's (a box table thinner
 * than the ball leaves its top and bottom faces), and as many as the rod-in-bore quadrature
 * takes (a cone in a countersunk block turned in the world: the block's six faces, the
 * cone's end and nappe planes). */
#define CF_MAX_PLANES VXG_RB_MAX_PLANES
/* Rounding allowance of the formulas' volume, relative. */
#define CF_REL (32 * DBL_EPSILON)
/* A quadrature's bracket: this multiple of its rules' difference (plus rounding). */
#define CF_QUAD_SAFETY 16
/* h_min rule: a quadrature is taken when its bracket is within this fraction of its volume. */
#define CF_QUAD_REL 1e-6

/* An undecided surface: a ball (cell, atom, centre c, radius r) or a plane n.x <= d. */
typedef struct cf_surf {
  int cell, atom;
  double c[3], r;
  double n[3], d;
} cf_surf;

/* An undecided cylinder (cell, atom): axis through p along u (unit), radius r; complement
 * 1 for a bore or groove (the cell holds its outside). Or a cone (k = 1 / cos^2 of its
 * half-angle, > 1): apex p, axis u into its nappe, r 0 (its nappe's plane is another atom;
 * complement 1: a countersink, the outside of that nappe). */
typedef struct cf_cyl {
  int cell, atom, complement;
  double p[3], u[3], r, k;
} cf_cyl;

typedef struct cf_scan {
  int nsph, npl, ncyl;
  cf_surf sph[2], pl[CF_MAX_PLANES];
  cf_cyl cyl[3];
} cf_scan;

/* The bore of the rod-in-bore quadrature, of one cell: a complemented cylinder, a
 * countersink (a complemented cone) or both on one axis (a countersunk hole). */
typedef struct cf_bore {
  const cf_cyl *cyl, *cone; /* NULL: none */
  int cell;
} cf_bore;

/* A candidate: one or two caps (a lens), the cell of each cap's ball, the plane's cell (-1:
 * none) and the volume bracket. */
typedef struct cf_solid {
  int ncap;
  vxg_cap cap[2];
  int cap_cell[2];
  int plane_cell;
  uint64_t used[2]; /* the atoms it is made of, per cell */
  double lo, hi;
} cf_solid;


/* 1 when the atom is a plane (no quadratic part). */
static int is_plane(const vxg_atom *a) {
  if (a->kind != VXG_ATOM_QUADRIC) {
    return 0;
  }
  for (int k = 0; k < 6; k++) {
    if (a->q[k] != 0) {
      return 0;
    }
  }
  return a->q[6] != 0 || a->q[7] != 0 || a->q[8] != 0;
}


/* Records the cylinder primitive pr (one atom, i) of posed cell k; 0 when one is recorded
 * already. */
static int record_cyl(cf_scan *s, const vxg_posed_cell *pc, int k, const vxg_prim *pr) {
  int cone = pr->kind == VXG_CONE;
  if (s->ncyl == 3 || pr->natom != 1 + cone) {
    return 0;
  }
  cf_cyl *y = &s->cyl[s->ncyl++];
  y->cell = k;
  y->atom = pr->first_atom;
  y->complement = pr->complement;
  vxg_prim_axis(pr, &pc->to_frame, y->p, y->u, &y->r, &y->k);
  return 1;
}


/* Records the MIXED atom i (primitive pr) of posed cell k; 0 when it is neither a ball, a
 * plane nor a cylinder, or there are too many. */
static int record(cf_scan *s, const vxg_posed_cell *pc, int k, const vxg_prim *pr, int i) {
  const vxg_atom *a = &pc->atom[i];
  cf_surf *f;
  if (pr->kind == VXG_CYLINDER || (pr->kind == VXG_CONE && i == pr->first_atom)) {
    return record_cyl(s, pc, k, pr);
  }
  if (pr->kind == VXG_SPHERE) {
    if (s->nsph == 2) {
      return 0;
    }
    f = &s->sph[s->nsph++];
    vxg_xform_point(&pc->to_frame, pr->move.t, f->c); /* the centre, from the model */
    f->r = pr->param[0];
  } else if (is_plane(a)) {
    if (s->npl == CF_MAX_PLANES) {
      return 0;
    }
    f = &s->pl[s->npl++];
    double len = sqrt(vxg_dot(a->q + 6, a->q + 6));
    for (int j = 0; j < 3; j++) {
      f->n[j] = a->q[6 + j] / len;
    }
    f->d = -a->q[9] / len;
  } else {
    return 0;
  }
  f->cell = k;
  f->atom = i;
  return 1;
}


/* 1 when primitive pr of posed cell pc holds the box (c, e), its atoms in `skip` aside. */
static int prim_holds(const vxg_posed_cell *pc, const vxg_prim *pr, uint64_t skip,
                      const double c[3], const double e[3]) {
  for (int i = pr->first_atom; i < pr->first_atom + pr->natom; i++) {
    if (skip >> i & 1) {
      continue;
    }
    vxg_class cl = vxg_atom_classify(&pc->atom[i], c, e);
    if (pr->complement && cl == VXG_OUTSIDE) {
      return 1; /* outside one atom: inside the complement */
    }
    if (!pr->complement && cl != VXG_INSIDE) {
      return 0;
    }
  }
  return !pr->complement;
}


/* The undecided surfaces of the query's cells over the box (c, e). 0 when a cell has a mesh
 * (its classification costs a search), a primitive is outside or undecided but not a ball,
 * a plane or a cylinder (complemented primitives must hold the box, but for one
 * cylinder), or there are not one or two balls. */
static int scan(const vxv_workspace *ws, const double c[3], const double e[3], cf_scan *s) {
  memset(s, 0, sizeof *s);
  for (int k = 0; k < ws->q.ncell; k++) {
    const vxg_posed_cell *pc = &ws->pc[k];
    for (int i = 0; i < pc->natom; i++) {
      if (pc->atom[i].kind == VXG_ATOM_MESH) {
        return 0;
      }
    }
    for (int p = 0; p < pc->cell->nprim; p++) {
      const vxg_prim *pr = &pc->cell->prim[p];
      if (pr->complement) {
        if (!prim_holds(pc, pr, 0, c, e) &&
            !((pr->kind == VXG_CYLINDER || pr->kind == VXG_CONE) && record_cyl(s, pc, k, pr))) {
          return 0;
        }
        continue;
      }
      for (int i = pr->first_atom; i < pr->first_atom + pr->natom; i++) {
        vxg_class cl = vxg_atom_classify(&pc->atom[i], c, e);
        if (cl == VXG_OUTSIDE || (cl == VXG_MIXED && !record(s, pc, k, pr, i))) {
          return 0;
        }
      }
    }
  }
  return s->nsph >= 1 || s->ncyl >= 2;
}


/* The candidate's bounding box (lo x y z, hi x y z, query frame). */
static void solid_box(const cf_solid *k, double box[6]) {
  vxg_cap_aabb(&k->cap[0], box);
  for (int i = 1; i < k->ncap; i++) {
    double b2[6];
    vxg_cap_aabb(&k->cap[i], b2);
    for (int j = 0; j < 3; j++) {
      box[j] = fmin(box[j], b2[j]);
      box[3 + j] = fmax(box[3 + j], b2[3 + j]);
    }
  }
}


/* 1 when every primitive of both cells but the atoms in used (a primitive all of whose
 * atoms are used aside) holds the box (widened by its rounding, size r). */
static int box_held(const vxv_workspace *ws, const double box[6], const uint64_t used[2],
                    double r) {
  double c[3], e[3];
  for (int j = 0; j < 3; j++) {
    double pad = 64 * DBL_EPSILON * (fabs(box[j]) + fabs(box[3 + j]) + r);
    c[j] = 0.5 * (box[j] + box[3 + j]);
    e[j] = 0.5 * (box[3 + j] - box[j]) + pad;
  }
  for (int n = 0; n < ws->q.ncell; n++) {
    const vxg_posed_cell *pc = &ws->pc[n];
    for (int p = 0; p < pc->cell->nprim; p++) {
      const vxg_prim *pr = &pc->cell->prim[p];
      uint64_t mine = ((((uint64_t)1 << pr->natom) - 1) << pr->first_atom);
      if (pr->natom > 0 && pr->natom < 64 && (used[n] & mine) == mine) {
        continue;
      }
      if (!prim_holds(pc, pr, used[n], c, e)) {
        return 0;
      }
    }
  }
  return 1;
}


/* 1 when every primitive of both cells but the candidate's atoms holds the candidate's
 * bounding box. */
static int others_hold(const vxv_workspace *ws, const cf_solid *k) {
  double box[6];
  solid_box(k, box);
  return box_held(ws, box, k->used, k->cap[0].r);
}


static void use_atom(cf_solid *k, const cf_surf *f) {
  k->used[f->cell] |= (uint64_t)1 << f->atom;
}


/* The rounding of a length of the query frame: that of the posed atoms' coefficients, which
 * were computed from the world's (ref far from the world's origin), and of the formulas. */
static double frame_ulp(const vxv_workspace *ws, double size) {
  return 8 * DBL_EPSILON * (size + fabs(ws->ref[0]) + fabs(ws->ref[1]) + fabs(ws->ref[2]));
}


double vxv_quad_halfwidth(const vxg_rod_bore_out *o, double dd) {
  /* the surfaces' positions, rounded by dd: the volume moves by about its faces' area dd */
  return CF_QUAD_SAFETY * o->err + CF_REL * o->v + 2 * sqrt(vxg_dot(o->area, o->area)) * dd;
}


/* The ball s cut by the plane p (NULL: the ball whole), with its bracket. */
static void cap_candidate(const vxv_workspace *ws, const cf_surf *s, const cf_surf *p,
                          cf_solid *k) {
  memset(k, 0, sizeof *k);
  k->ncap = 1;
  k->cap_cell[0] = s->cell;
  k->plane_cell = p ? p->cell : -1;
  use_atom(k, s);
  if (!p) {
    static const double up[3] = {0, 0, 1};
    vxg_cap_of_plane(s->c, s->r, up, HUGE_VAL, &k->cap[0]);
    double v = vxg_cap_volume(s->r, 2 * s->r);
    k->lo = v * (1 - CF_REL);
    k->hi = v * (1 + CF_REL);
    return;
  }
  use_atom(k, p);
  vxg_cap_of_plane(s->c, s->r, p->n, p->d, &k->cap[0]);
  /* the height r + d - n.c, rounded in d, n.c and the sum */
  double h = s->r + (p->d - vxg_dot(p->n, s->c));
  double dh = frame_ulp(ws, s->r + fabs(p->d) + fabs(p->n[0] * s->c[0]) + fabs(p->n[1] * s->c[1]) +
                                fabs(p->n[2] * s->c[2]));
  k->lo = vxg_cap_volume(s->r, h - dh) * (1 - CF_REL);
  k->hi = vxg_cap_volume(s->r, h + dh) * (1 + CF_REL);
}


/* The lens of balls s1 and s2, with its bracket. */
static void lens_candidate(const vxv_workspace *ws, const cf_surf *s1, const cf_surf *s2,
                           cf_solid *k) {
  memset(k, 0, sizeof *k);
  k->ncap = 2;
  k->cap_cell[0] = s1->cell;
  k->cap_cell[1] = s2->cell;
  k->plane_cell = -1;
  use_atom(k, s1);
  use_atom(k, s2);
  vxg_lens_caps(s1->c, s1->r, s2->c, s2->r, k->cap);
  double u[3];
  vxg_sub(s2->c, s1->c, u);
  double dist = sqrt(vxg_dot(u, u));
  double dd = frame_ulp(ws, dist + fabs(s1->c[0]) + fabs(s1->c[1]) + fabs(s1->c[2]) +
                                fabs(s2->c[0]) + fabs(s2->c[1]) + fabs(s2->c[2]));
  k->lo = vxg_lens_volume(s1->r, s2->r, dist + dd) * (1 - CF_REL);
  k->hi = vxg_lens_volume(s1->r, s2->r, dist - dd) * (1 + CF_REL);
}


/* Volume, centroid and central second moments of the candidate's caps together. */
static void solid_central(const cf_solid *k, double *v, double g[3], double cm[6]) {
  double vi[2], gi[2][3], ci[2][6];
  *v = 0;
  memset(g, 0, 3 * sizeof g[0]);
  memset(cm, 0, 6 * sizeof cm[0]);
  for (int i = 0; i < k->ncap; i++) {
    vxg_cap_central(&k->cap[i], &vi[i], gi[i], ci[i]);
    *v += vi[i];
  }
  if (!(*v > 0)) {
    return;
  }
  for (int j = 0; j < 3; j++) {
    for (int i = 0; i < k->ncap; i++) {
      g[j] += vi[i] / *v * gi[i][j];
    }
  }
  for (int i = 0; i < k->ncap; i++) {
    double dg[3];
    vxg_sub(gi[i], g, dg);
    for (int s = 0; s < 6; s++) {
      cm[s] += ci[i][s] + vi[i] * dg[VXG_SYM_ROW[s]] * dg[VXG_SYM_COL[s]];
    }
  }
}


/* The area vector of cell A's surface inside B: a cap's spherical part has minus its flat
 * face's vector area (pi a^2 n), the flat face (a plane of A) plus it. */
static void solid_area(const cf_solid *k, double area[3]) {
  memset(area, 0, 3 * sizeof area[0]);
  for (int i = 0; i < k->ncap; i++) {
    double s = (k->cap_cell[i] == 0 ? -1.0 : 0.0) + (k->plane_cell == 0 ? 1.0 : 0.0);
    double a2 = M_PI * vxg_cap_rim2(&k->cap[i]);
    for (int j = 0; j < 3; j++) {
      area[j] += s * a2 * k->cap[i].n[j];
    }
  }
}


/* The moments (m0, m1, m2 as vxv_visit.m) about o of a region of volume v, centroid g and
 * central second moments cm. */
static void moments_about(double v, const double g[3], const double cm[6], const double o[3],
                          double m[10]) {
  double p[3];
  vxg_sub(g, o, p);
  m[0] = v;
  for (int j = 0; j < 3; j++) {
    m[1 + j] = v * p[j];
  }
  for (int s = 0; s < 6; s++) {
    m[4 + s] = cm[s] + v * p[VXG_SYM_ROW[s]] * p[VXG_SYM_COL[s]];
  }
}


/* Reports the solid in box to the query's visitor as one leaf: the box, with bounds (a
 * box within it holding the region) as its region's bounding box. */
static void visit_solid(const vxv_workspace *ws, const double box[6], const double bounds[6],
                        const vxv_result *r, double v, const double g[3], const double cm[6]) {
  vxv_visit vis;
  memset(&vis, 0, sizeof vis);
  vis.kind = VXV_VISIT_LEAF;
  double bc[3];
  vis.h = HUGE_VAL;
  for (int j = 0; j < 3; j++) {
    bc[j] = 0.5 * (box[j] + box[3 + j]);
    vis.c[j] = ws->ref[j] + bc[j];
    vis.e[j] = 0.5 * (box[3 + j] - box[j]);
    vis.h = fmin(vis.h, vis.e[j]);
    vis.rb[j] = ws->ref[j] + bounds[j];
    vis.rb[3 + j] = ws->ref[j] + bounds[3 + j];
  }
  moments_about(v, g, cm, bc, vis.m);
  vis.lo = r->volume_lo;
  vis.hi = r->volume_hi;
  memcpy(vis.area, r->area_vector, sizeof vis.area);
  ws->visit(ws->visit_ud, &vis);
}


/* Fills r's volume, moments, centroid, inertia and counters from the solid's volume v,
 * centroid g and central moments cm (query frame: the world translated by ws->ref). */
static void fill_moments(const vxv_workspace *ws, double v, const double g[3], const double cm[6],
                         long long boxes, vxv_result *r) {
  double m[10];
  moments_about(v, g, cm, (const double[3]){0, 0, 0}, m);
  r->volume = r->mom.m0 = v;
  memcpy(r->mom.m1, m + 1, sizeof r->mom.m1);
  memcpy(r->mom.m2, m + 4, sizeof r->mom.m2);
  memcpy(r->ref, ws->ref, sizeof r->ref);
  double tr = cm[0] + cm[1] + cm[2];
  memset(r->inertia, 0, sizeof r->inertia);
  for (int s = 0; s < 6; s++) {
    int a = VXG_SYM_ROW[s], b = VXG_SYM_COL[s];
    r->inertia[3 * a + b] = r->inertia[3 * b + a] = (a == b ? tr : 0) - cm[s];
  }
  for (int j = 0; j < 3; j++) {
    r->centroid[j] = ws->ref[j] + (v > 0 ? g[j] : 0);
  }
  r->boxes = boxes;
  r->leaves = v > 0; /* the solid, one leaf (ws->visit's) */
  r->peak_bytes = ws->peak;
}


/* Fills r from candidate k. */
static void fill_result(const vxv_workspace *ws, const cf_solid *k, long long boxes,
                        vxv_result *r) {
  double v, g[3], cm[6];
  solid_central(k, &v, g, cm);
  fill_moments(ws, v, g, cm, boxes, r);
  r->volume_lo = fmin(k->lo, v);
  r->volume_hi = fmax(k->hi, v);
  solid_area(k, r->area_vector);
  r->contact_area = sqrt(vxg_dot(r->area_vector, r->area_vector));
  r->closed_form = 1;
  if (ws->visit && v > 0) {
    double box[6];
    solid_box(k, box);
    visit_solid(ws, box, box, r, v, g, cm);
  }
}


/* The ball's tolerance on a quadrature's bracket (its half-width), m^3: under the rtol rule
 * (not certified) half the asked width, under the h_min rule CF_QUAD_REL of the volume; -1
 * under the certified rule (no quadrature). */
static double quad_tolerance(const vxv_options *opt, double v) {
  if (opt->rtol > 0) {
    return opt->certified ? -1 : 0.5 * fmax(opt->rtol * v, opt->atol);
  }
  return CF_QUAD_REL * v;
}


/* A quadrature's result (volume v, centroid g, central moments cm, error estimate err,
 * bracket half-width hw, area vector area, region box, bounds: a box within it holding the
 * region) into r when hw is within the asked tolerance: 1, else 0. */
static int take_quadrature(const vxv_workspace *ws, const vxv_options *opt, double v,
                           const double g[3], const double cm[6], double err, double hw,
                           const double area[3], const double box[6], const double bounds[6],
                           vxv_result *r) {
  double boxvol = (box[3] - box[0]) * (box[4] - box[1]) * (box[5] - box[2]);
  /* a bracket within a 1e-12 share of the region's box is a touch (a peg resting on its
     bore: the tangency's square roots keep the relative error from closing) */
  if (v > 0 && hw > quad_tolerance(opt, v) && !(v + hw <= CF_TOUCH * boxvol)) {
    return 0;
  }
  fill_moments(ws, v, g, cm, 1, r);
  r->volume_lo = fmax(0, v - hw);
  r->volume_hi = v + hw;
  r->error_estimate = err;
  r->moment_width = hw;
  memcpy(r->area_vector, area, sizeof r->area_vector);
  r->contact_area = sqrt(vxg_dot(r->area_vector, r->area_vector));
  r->closed_form = 2;
  if (ws->visit && v > 0) {
    visit_solid(ws, box, bounds, r, v, g, cm);
  }
  return 1;
}


/* A ball against one cylinder (a rod, or a bore when complemented) by quadrature
 * (geom/slices.c), when every other primitive holds the ball's box and the rules' error
 * is within the asked tolerance: 1 with r filled, else 0. */
static int ball_cylinder(const vxv_workspace *ws, const vxv_options *opt, const cf_surf *b,
                         const cf_cyl *y, vxv_result *r) {
  if (quad_tolerance(opt, 1) < 0) {
    return 0;
  }
  vxg_ball_cyl q;
  if (vxg_ball_cylinder(b->c, b->r, y->p, y->u, y->r, y->complement, &q) != 0) {
    return 0;
  }
  /* the ball's distance from the axis, rounded by dd: the volume moves by |area| dd */
  double dd = frame_ulp(ws, y->r + b->r + fabs(b->c[0]) + fabs(b->c[1]) + fabs(b->c[2]) +
                                fabs(y->p[0]) + fabs(y->p[1]) + fabs(y->p[2]));
  /* the region's box: the ball's, or its cap by the plane that holds the region */
  double box[6];
  vxg_cap cap;
  vxg_cap_of_plane(b->c, b->r, q.has_plane ? q.pn : (const double[3]){0, 0, 1},
                   q.has_plane ? q.pd + dd : HUGE_VAL, &cap);
  vxg_cap_aabb(&cap, box);
  uint64_t used[2] = {0, 0};
  used[b->cell] |= (uint64_t)1 << b->atom;
  used[y->cell] |= (uint64_t)1 << y->atom;
  if (!box_held(ws, box, used, b->r)) {
    return 0;
  }
  double wa = sqrt(vxg_dot(q.area, q.area));
  double hw = CF_QUAD_SAFETY * q.err + CF_REL * q.parts + (wa + M_PI * b->r * dd) * dd;
  if (q.depth + dd <= 0) {
    hw = 0; /* apart, or wholly in the bore, beyond the rounding */
  }
  /* the wall's part (the cylinder's cell) has the vector, the ball's part minus it */
  double area[3];
  for (int j = 0; j < 3; j++) {
    area[j] = ((y->cell == 0) - (b->cell == 0)) * q.area[j];
  }
  return take_quadrature(ws, opt, q.v, q.g, q.cm, q.err, hw, area, box, box, r);
}


/* The plane atoms of both cells' primitives (not complemented) that meet the box (c, e)
 * widened by its rounding, into in; 0 when there are too many. */
static int collect_planes(const vxv_workspace *ws, const double c[3], const double e[3],
                          vxg_rod_bore_in *in) {
  double ew[3];
  for (int j = 0; j < 3; j++) {
    ew[j] = e[j] * (1 + 1e-9) + 64 * DBL_EPSILON * fabs(c[j]);
  }
  in->nplane = 0;
  for (int k = 0; k < ws->q.ncell; k++) {
    const vxg_posed_cell *pc = &ws->pc[k];
    for (int p = 0; p < pc->cell->nprim; p++) {
      const vxg_prim *pr = &pc->cell->prim[p];
      for (int i = pr->first_atom; i < pr->first_atom + pr->natom && !pr->complement; i++) {
        const vxg_atom *a = &pc->atom[i];
        if (!is_plane(a) || vxg_atom_classify(a, c, ew) != VXG_MIXED) {
          continue;
        }
        if (in->nplane == VXG_RB_MAX_PLANES) {
          return 0;
        }
        vxg_rb_plane *pl = &in->plane[in->nplane++];
        double len = sqrt(vxg_dot(a->q + 6, a->q + 6));
        for (int j = 0; j < 3; j++) {
          pl->n[j] = a->q[6 + j] / len;
        }
        pl->d = -a->q[9] / len;
        pl->owner = k;
      }
    }
  }
  return 1;
}


/* The region box (c, e) and the tolerances into in, then vxg_rod_bore's result into r
 * (take_quadrature): 1, or 0 when it is out of reach or misses the tolerance. */
static int run_rod_bore(const vxv_workspace *ws, const vxv_options *opt, const double c[3],
                        const double e[3], vxg_rod_bore_in *in, vxv_result *r) {
  for (int j = 0; j < 3; j++) {
    in->box[j] = c[j] - e[j];
    in->box[3 + j] = c[j] + e[j];
  }
  /* a quarter of the asked half-width for the rules, the rest for rounding; a region
     within a touch's share of the box (a flush contact's rounding) need not be resolved */
  double boxvol = 8 * e[0] * e[1] * e[2];
  in->rtol = opt->rtol > 0 ? 0.25 * opt->rtol : 0.5 * CF_QUAD_REL;
  in->atol = fmax(opt->rtol > 0 ? 0.25 * opt->atol : 0, CF_TOUCH * boxvol / (4 * CF_QUAD_SAFETY));
  in->want_box = ws->visit != NULL && !opt->loose_bounds; /* the element's bounds */
  vxg_rod_bore_out q;
  if (vxg_rod_bore(in, &q) != 0) {
    return 0;
  }
  double dd =
      frame_ulp(ws, in->ra + in->rb + fabs(c[0]) + fabs(c[1]) + fabs(c[2]) + e[0] + e[1] + e[2]);
  double hw = vxv_quad_halfwidth(&q, dd);
  return take_quadrature(ws, opt, q.v, q.g, q.cm, q.err, hw, q.area, in->box, q.box, r);
}


/* 1 when the rod's surface is the bore surface y's (a flush pair, flush.c) and, for a
 * cone, its nappe the countersink's: the rod lies in y's solid, part of the hole. */
static int flush_with(const vxv_workspace *ws, const cf_cyl *rod, const cf_cyl *y) {
  const vxv_query *q = &ws->q;
  if (!y || (rod->k > 1 && !(vxg_dot(rod->u, y->u) > 0))) {
    return 0;
  }
  for (int f = 0; f < q->nflush; f++) {
    if (q->flush[f][rod->cell] == rod->atom && q->flush[f][y->cell] == y->atom) {
      return 1;
    }
  }
  return 0;
}


/* 1 when the rod lies in the bore's hole by a flush surface: the region is empty (a peg in
 * a bore of its radius, a cone seated in a countersink of its angle). */
static int flush_nested(const vxv_workspace *ws, const cf_cyl *rod, const cf_bore *b) {
  return flush_with(ws, rod, b->cyl) || flush_with(ws, rod, b->cone);
}


/* The rod (NULL: none, or a ball's) and the bore among s's cylinders and cones: 1 when the
 * complemented ones make a bore (one cylinder, one cone or both of one cell on one axis, to
 * the frame's rounding) and at most one other is left, of the other cell. */
static int split_rod_bore(const vxv_workspace *ws, const cf_scan *s, const cf_cyl **rod,
                          cf_bore *b) {
  memset(b, 0, sizeof *b);
  *rod = NULL;
  for (int i = 0; i < s->ncyl; i++) {
    const cf_cyl *y = &s->cyl[i], **slot = !y->complement ? rod : y->k > 1 ? &b->cone : &b->cyl;
    if (*slot) {
      return 0;
    }
    *slot = y;
  }
  const cf_cyl *one = b->cone ? b->cone : b->cyl;
  if (!one || (b->cyl && b->cyl->cell != one->cell) || (*rod && (*rod)->cell == one->cell)) {
    return 0;
  }
  b->cell = one->cell;
  if (b->cyl && b->cone) {
    /* the cone's axis the cylinder's: parallel, its apex on it */
    double x[3], d[3], t;
    vxg_cross(b->cyl->u, b->cone->u, x);
    vxg_sub(b->cone->p, b->cyl->p, d);
    t = vxg_dot(d, b->cyl->u);
    for (int j = 0; j < 3; j++) {
      d[j] -= t * b->cyl->u[j];
    }
    double tol = frame_ulp(
        ws, b->cyl->r + fabs(t) + fabs(b->cone->p[0]) + fabs(b->cone->p[1]) + fabs(b->cone->p[2]));
    if (vxg_dot(x, x) > 1e-26 || sqrt(vxg_dot(d, d)) > tol) {
      return 0;
    }
  }
  return 1;
}


/* The bore's part of the quadrature's input. */
static void bore_input(const cf_bore *b, vxg_rod_bore_in *in) {
  const cf_cyl *frame = b->cone ? b->cone : b->cyl;
  memcpy(in->pb, frame->p, sizeof in->pb);
  memcpy(in->ub, frame->u, sizeof in->ub);
  in->rb = b->cyl ? b->cyl->r : 0;
  in->kb = b->cone ? b->cone->k : 1;
  in->bore_owner = b->cell;
}


/* An empty result, exact (closed_form 1): the cells are apart. */
static void fill_empty(const vxv_workspace *ws, vxv_result *r) {
  static const double z[6] = {0, 0, 0, 0, 0, 0};
  fill_moments(ws, 0, z, z, 1, r);
  r->volume_lo = r->volume_hi = 0;
  r->closed_form = 1;
}


/* A rod (a cylinder or a cone of one cell) against a bore of the other (a hole, a
 * countersink or a countersunk hole) by quadrature about the bore's axis
 * (geom/rodbore.c), the cells' planes that meet the region and the region's box bounding
 * it: 1 with r filled when its bracket is within the asked tolerance, else 0. */
static int rod_bore(const vxv_workspace *ws, const vxv_options *opt, const cf_cyl *rod,
                    const cf_bore *b, const double c[3], const double e[3], vxv_result *r) {
  if (quad_tolerance(opt, 1) < 0) {
    return 0;
  }
  if (flush_nested(ws, rod, b)) {
    fill_empty(ws, r);
    return 1;
  }
  vxg_rod_bore_in in;
  memset(&in, 0, sizeof in);
  if (!collect_planes(ws, c, e, &in)) {
    return 0;
  }
  memcpy(in.pa, rod->p, sizeof in.pa);
  memcpy(in.ua, rod->u, sizeof in.ua);
  in.ra = rod->r;
  in.ka = rod->k;
  in.rod_owner = rod->cell;
  bore_input(b, &in);
  return run_rod_bore(ws, opt, c, e, &in, r);
}


/* A ball in a countersink or a countersunk hole of the other cell by the same quadrature
 * about the cone's axis, the ball the rod: 1 with r filled, else 0. */
static int ball_countersink(const vxv_workspace *ws, const vxv_options *opt, const cf_surf *b,
                            const cf_bore *y, const double c[3], const double e[3], vxv_result *r) {
  vxg_rod_bore_in in;
  memset(&in, 0, sizeof in);
  if (!y->cone || y->cell == b->cell || quad_tolerance(opt, 1) < 0 ||
      !collect_planes(ws, c, e, &in)) {
    return 0;
  }
  memcpy(in.pa, b->c, sizeof in.pa);
  in.ra = b->r;
  in.ball = 1;
  in.rod_owner = b->cell;
  bore_input(y, &in);
  return run_rod_bore(ws, opt, c, e, &in, r);
}


/* A ball cut by two planes (a ball over a table's edge: neither cap holds the region) by
 * the same quadrature about the planes' common line, with no bore: both planes then bound
 * theta. 1 with r filled, else 0. */
static int ball_wedge(const vxv_workspace *ws, const vxv_options *opt, const cf_scan *s,
                      const double c[3], const double e[3], vxv_result *r) {
  const cf_surf *b = &s->sph[0], *p0 = &s->pl[0], *p1 = &s->pl[1];
  vxg_rod_bore_in in;
  memset(&in, 0, sizeof in);
  double m[3], mm = s->npl == 2 ? vxg_planes_line(p0->n, p0->d, p1->n, p1->d, m, in.pb) : 0;
  if (ws->q.ncell != 2 || !(mm > 1e-12) || quad_tolerance(opt, 1) < 0 ||
      !collect_planes(ws, c, e, &in)) {
    return 0;
  }
  for (int j = 0; j < 3; j++) {
    in.ub[j] = m[j] / sqrt(mm);
  }
  memcpy(in.pa, b->c, sizeof in.pa);
  in.ra = b->r;
  in.ball = 1;
  in.rod_owner = b->cell;
  in.bore_owner = -1;
  return run_rod_bore(ws, opt, c, e, &in, r);
}


/* The fast paths over the region (c, e): 1 with r filled, else 0. */
static int fast_paths(const vxv_workspace *ws, const vxv_options *opt, const double c[3],
                      const double e[3], vxv_result *r) {
  cf_scan s;
  if (!scan(ws, c, e, &s)) {
    return 0;
  }
  if (s.ncyl == 1 && s.cyl[0].k == 1) {
    return s.nsph == 1 && ball_cylinder(ws, opt, &s.sph[0], &s.cyl[0], r);
  }
  if (s.ncyl) {
    const cf_cyl *rod;
    cf_bore b;
    if (!split_rod_bore(ws, &s, &rod, &b)) {
      return 0;
    }
    return rod ? s.nsph == 0 && rod_bore(ws, opt, rod, &b, c, e, r)
               : s.nsph == 1 && ball_countersink(ws, opt, &s.sph[0], &b, c, e, r);
  }
  long long boxes = 1;
  cf_solid k;
  if (s.nsph == 2) {
    lens_candidate(ws, &s.sph[0], &s.sph[1], &k);
    boxes++;
    if (!(k.hi > 0) || others_hold(ws, &k)) {
      fill_result(ws, &k, boxes, r);
      return 1;
    }
    return 0;
  }
  for (int j = -1; j < s.npl; j++) {
    cap_candidate(ws, &s.sph[0], j < 0 ? NULL : &s.pl[j], &k);
    boxes++;
    /* an empty cap proves the cells apart, whatever their other surfaces */
    if (!(k.hi > 0) || others_hold(ws, &k)) {
      fill_result(ws, &k, boxes, r);
      return 1;
    }
  }
  return ball_wedge(ws, opt, &s, c, e, r);
}


int vxv_closed_form(const vxv_workspace *ws, const vxv_options *opt, const double lo[3],
                    const double hi[3], vxv_result *r) {
  if (ws->q.ncell < 1 || ws->q.ncell > 2) {
    return 0;
  }
  double c[3], e[3];
  vxv_region_centre(ws, lo, hi, c, e);
  if (ws->q.ncell == 2 && vxv_bore_apart(ws, c, e, 1, 0, NULL)) {
    fill_empty(ws, r); /* first: cheaper than a quadrature's empty result */
    return 1;
  }
  return fast_paths(ws, opt, c, e, r);
}
