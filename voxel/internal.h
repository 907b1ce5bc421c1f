/* internal.h: what the voxel layer's files share (not for other layers).
 *
 * Data structures of one query:
 *  - vxv_qcell: a posed cell prepared for box classification: per primitive the bit mask of
 *    its atoms (atoms are grouped per primitive, at most 64, so one uint64_t per cell) and
 *    its complement flag; per atom whether its linearisation is exact (a plane).
 *  - vxv_box: an octree box (centre, half-extents, level) with, per cell, the atoms still
 *    MIXED over the box and the atoms certainly OUTSIDE it. Invariant: an atom that is
 *    INSIDE or OUTSIDE a box is so for every sub-box, so children start from the parent's
 *    masks and classify only its MIXED atoms. Per cell, an upper bound on |f| of its first
 *    mesh atom at the box centre: a child starts with its parent's, which plus the
 *    distance between the centres bounds the child's search, and a leaf's own bounds the
 *    search for its value. (A float: the box is copied often and stored with leaves.)
 *  - vxv_leaf: a boundary leaf with its integration: moments of the clipped polyhedron
 *    about the leaf centre, the certified volumes lo <= V <= hi, the area vector.
 *  - vxv_acc: compensated (Neumaier) sums of the query's figures, relative to the query
 *    frame's origin (the reference point).
 *  - vxv_subtree: one independent piece of the tree with its own sums and leaf list.
 *  - vxv_thread: one thread's scratch (DFS stack, polyhedra, leaf buffers).
 * The workspace (vxv_workspace, workspace.c) owns all of them. */
#ifndef VXV_INTERNAL_H
#define VXV_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "voxel/voxel.h"

/* Figures summed per query: m0, m1[3], m2[6] (about the query origin), lo, hi, area[3],
 * est. */
#define VXV_ACC_M0 0
#define VXV_ACC_M1 1
#define VXV_ACC_M2 4
#define VXV_ACC_LO 10
#define VXV_ACC_HI 11
#define VXV_ACC_AREA 12
#define VXV_ACC_EST 15  /* the leaves' error estimates, summed in absolute value */
#define VXV_ACC_PGAP 16 /* the leaves' planar enclosures' widths (vxv_leaf.pgap) */
#define VXV_ACC_QUAD 17 /* the leaves integrated by quadrature (vxv_leaf.quad), a count */
#define VXV_ACC_N 18

/* Deepest level a box may reach below the root grid, and the DFS stack that needs. */
#define VXV_MAX_LEVEL 40
#define VXV_STACK (8 * (VXV_MAX_LEVEL + 2))
/* Subtrees the top of the tree is cut into (at least, when the geometry allows). */
#define VXV_MIN_SUBTREES 32

typedef struct vxv_acc {
  double s[VXV_ACC_N];
  double c[VXV_ACC_N]; /* Neumaier compensation */
} vxv_acc;

typedef struct vxv_qcell {
  const vxg_posed_cell *pc;
  int nprim;
  uint64_t all;                  /* every atom */
  uint64_t curved;               /* atoms whose linearisation is not exact */
  uint64_t pmask[VXG_MAX_PRIMS]; /* atoms of each primitive */
  unsigned char comp[VXG_MAX_PRIMS];
  uint64_t comp_atoms;            /* atoms of complemented primitives */
  uint64_t tori;                  /* torus atoms of plain primitives (leaf.c, the revolution
                                     rule) */
  uint64_t axial;                 /* the round faces of cylinders and cones (a cone's first
                                     atom): a rod or, complemented, a bore (the revolution
                                     rule) */
  uint64_t costly;                /* atoms whose classification is a search (meshes): done last */
  uint64_t planar;                /* convex mesh atoms of plain primitives: a leaf may replace each
                                     by the planes of the triangles near it, exactly */
  double tri_area[VXG_MAX_ATOMS]; /* planar atoms: their mesh's mean triangle area, m^2 */
  int mslot;                      /* the first mesh atom, whose value boxes carry (-1: none) */
  signed char prim_of[VXG_MAX_ATOMS];
} vxv_qcell;

typedef struct vxv_box {
  double c[3]; /* centre, query frame */
  double h;    /* half-edge: the smallest of e (a cube's, or a column's across its axis) */
  double e[3]; /* half-extents along the axes: all h, but a column's along its axis (column.c) */
  int level;
  uint64_t mixed[2];
  uint64_t outside[2];
  float mu[2]; /* per cell: an upper bound on |f| of atom mslot at c, rounded up (infinite:
                  none; the parent's until the box is classified) */
  int leaf;    /* k + 1 when the top of the tree integrated the box as an exact leaf into
                  ws->topleaf[k] (octree.c), else 0 */
} vxv_box;

typedef struct vxv_leaf {
  vxv_box b;
  double m[10];   /* m0, m1, m2 of the clipped polyhedron about b.c */
  double lo, hi;  /* certified volumes of the leaf (but for quad) */
  double pgap;    /* the width of the planar enclosures' bracket (the lower and upper
                     polyhedra), which lo and hi may narrow (leaf.c, third_order): what the
                     estimate rule shares its differences by */
  double area[3]; /* area vector of A's facets */
  double rb[6];   /* bounding box of the region in the leaf, about b.c (lo x y z, hi x y z;
                     of the middle and, with a bracket, the upper polyhedron; the box's own
                     when unknown or not wanted (query.bounds 0), inverted when the region is
                     empty) */
  double est;     /* estimate of |V_leaf - true volume in the leaf|, m^3: 0 when exact; the
                     gap pgap until the leaf's parent is known, then its share of
                     |V_parent - sum of V_children| (octree.c) */
  double dshare;  /* its share of |V_parent - sum of V_children| before any scaling (0:
                     none yet) */
  int made;       /* the round whose split of its parent made it (0: none) */
  int exact;      /* 1: integrated exactly (no linearised surface): never split */
  int quad;       /* 1: integrated by quadrature about an axis (leaf.c, the revolution rule;
                     also exact): lo and hi its estimate's bracket cut to the polyhedra's,
                     not certified */
  int order3;     /* 1: its curved surfaces are one or two quadrics or tori, on their mean planes
                     (leaf.c): its value's error falls as h^5 rather than the planar
                     enclosures' h^4; with a bracket, also one third_order narrowed */
  int apart;      /* 1: the region in it has parts whose bounding boxes do not meet (a mesh
                     leaf's BSP): so that each contact patch has elements of its own, each
                     part is reported to the visitor on its own (octree.c, from the BSP
                     that integrated it: an exact leaf of at most VXV_BSP_PARTS parts), else
                     the leaf is split when the region is visited */
} vxv_leaf;

/* Most planes a convex mesh atom contributes to a leaf (beyond, it is linearised). */
#define VXV_MESH_PLANES 32

/* Pairs of coincident surfaces a query tracks (flush.c). */
#define VXV_MAX_FLUSH 8
/* Pairs of curved surfaces of nearly equal curvature a query combines (radical.c). */
#define VXV_MAX_RADICAL 4

/* Two curved quadric atoms, one of each cell, combined (radical.c): every point of the
 * region satisfies c(x) <= 0 (c: the sum of their kept sides' quadrics, the second scaled),
 * mag[k] bounding the coefficients and their rounding. */
typedef struct vxv_radical {
  int atom[2]; /* cell 0's atom, cell 1's */
  double c[10], mag[10];
} vxv_radical;

typedef struct vxv_query {
  int ncell;
  vxv_qcell cell[2];
  int rtol_rule;  /* 1: rtol rounds, 0: h_min rule */
  double h_min;   /* leaf edge floor (0: none) */
  int parent_est; /* h_min rule: the final leaves' estimate from their parent (vxv_options) */
  double tau;     /* rtol rule: a leaf whose weight (vxv_leaf_weight) exceeds tau is split */
  int round;
  int certified; /* 1: rounds are driven by the leaves' gaps, 0: by their error estimates */
  int revolution; /* 1: the revolution rule may take leaves (not certified, not
                     vxv_options.linear_leaves) */
  double rtol;   /* the rtol rule's tolerance (vxv_options.rtol) */
  int nflush;    /* pairs of coincident surfaces kept on opposite sides (flush.c) */
  int quad_bounds;    /* 1: a revolution leaf's bounds are its quadrature's box of its region
                         (vxv_options.loose_bounds 0): a few times its sums' cost */
  int bounds;         /* 1: the leaves' region bounds (vxv_leaf.rb) are computed, for a
                         visitor; 0: no one reads them (the box's own) */
  int planar_bracket; /* vxv_options.planar_bracket, under the fixed-leaf rule without
                         parent_est (elsewhere the third-order values steer the refinement) */
  int reuse_gathers; /* vxv_options.reuse_gathers: mesh gathers by canonical balls, through
                        the thread's cache */
  int flush[VXV_MAX_FLUSH][2]; /* their atoms: cell 0's, cell 1's */
  double ref_size;             /* |ref| summed over the axes (m): the posed atoms' rounding */
  double rlo[3], rhi[3];       /* the region's box (both cells' boxes' intersection), a
                                  little widened, query frame (m) */
  int region_cut;              /* 1: a MIXED box is also classified cut to that box
                                  (vxv_box_region_outside) */
  int nrad;                    /* pairs of nearly equally curved surfaces (radical.c) */
  vxv_radical rad[VXV_MAX_RADICAL];
  vxv_plane plane;
} vxv_query;

typedef struct vxv_subtree {
  vxv_box root;
  vxv_acc full;     /* whole boxes and retired leaves, over all rounds */
  vxv_acc leafsum;  /* the stored leaves (recomputed each round) */
  int owner;        /* thread whose buffer of the round's parity holds the leaves */
  size_t off, n;    /* the leaves: buf[parity][off .. off + n) of the owner */
  long long boxes;  /* boxes classified, all rounds */
  long long rboxes; /* boxes classified this round */
  long long budget; /* boxes this round may classify */
  long long leaves; /* leaves retired (integrated for good) */
  long long nsplit; /* leaves split this round */
  double fall[2];   /* this round's split leaves: the sum of their shares of their parents'
                       differences, and of their own families' differences (octree.c) */
  double rho;       /* the last round's fall fall[0] / fall[1] (0: none) */
  int depth;
  int capped;
  double hmin_leaf; /* smallest leaf half-edge */
  int vowner;       /* with ws->visit_defer: the thread whose vis holds this round's elements */
  size_t voff, vn;  /* they are its vis[voff .. voff + vn) */
} vxv_subtree;

/* A subtree of a round and its expected work (leaves to split). */
typedef struct vxv_claim {
  long long cost;
  int sub;
} vxv_claim;

/* A half-space n.y <= d in a leaf's local coordinates y = x - c, with its lower (subset)
 * and upper (superset) offsets. */
typedef struct vxv_hs {
  double n[3];
  double dm, dl, dh;
  int cell;
  int use_hi;      /* 0: no superset half-space is known (the upper polyhedron ignores it) */
  int exact;       /* 1: a plane (its half-space is the atom itself) */
  int group;       /* 0: a constraint of the leaf's region; g >= 1: an atom of the g-th
                      complemented primitive with several MIXED atoms, in its own sense
                      f <= 0 (the region excludes the intersection of the group's sides) */
  const double *q; /* the remainder's quadratic coefficients A..F (the quadric's own, or
                      qbuf for a torus), for re-centring; NULL: none */
  double qbuf[6];
  double cub, cubg; /* a torus's q = qbuf: bounds over the leaf on |r - q| (m) and on
                       |grad (r - q)| (r the exact remainder); 0 for a quadric */
  double s, f0;          /* sign (-1: complemented) and value at the centre */
  const vxg_atom *torus; /* a torus's atom (q = qbuf), for re-centring its mean plane on its
                            face's centroid (leaf.c, recentred); else NULL */
  const vxg_atom *atom;  /* the atom it stands for (NULL: a mesh's plane) */
} vxv_hs;

/* Superset half-spaces vxv_box_empty keeps for vxv_box_beyond (more: none kept). */
#define VXV_MAX_SUP 16

/* Complemented primitives with several MIXED atoms a leaf integrates exactly, by inclusion
 * and exclusion over their (convex) insides; beyond, the atom of largest value stands in. */
#define VXV_MAX_GROUPS 3

/* A convex polyhedron for the leaves (clip.c): every vertex has exactly three neighbours,
 * listed counter-clockwise seen from outside (the representation of Powell and Abel's r3d,
 * which clips in time linear in the vertices with no face lists); degenerate cuts leave
 * coincident vertices and zero-length edges, which weigh nothing in the moments. `on` has
 * bit k set when the vertex lies on plane k (bits 0-5: the box faces, 6 + j: half-space j),
 * so a face lies on plane k when all its vertices have bit k. */
#define VXV_CP_MAX 96
#define VXV_CP_PLANES 58 /* half-spaces a leaf can tag (64 bits - 6 box faces) */

typedef struct vxv_cpoly {
  int nv;
  double pos[VXV_CP_MAX][3];
  int nbr[VXV_CP_MAX][3];
  uint64_t on[VXV_CP_MAX];
} vxv_cpoly;

/* The faces of a vxv_cpoly in the order every walk of clip.c takes them: face f starts at
 * vertex face[f].a, its fan triangles are (a, tri[t][0], tri[t][1]) for t in [first,
 * first + n), `mask` has the plane bits all its vertices share. Built once, it serves every
 * walk of polyhedra of the same topology (the same nv, nbr and on), whatever their
 * positions. */
typedef struct vxv_cpfan {
  int nface;
  struct {
    uint64_t mask;
    short a, first, n;
  } face[3 * VXV_CP_MAX];
  unsigned char tri[3 * VXV_CP_MAX][2];
} vxv_cpfan;

/* One recorded clip of a chain (clip.c): the plane's normal and bit, the source's vertex
 * count, which vertices it cut away (cut[v] 1) and kept (kept[0 .. nin), in order), for
 * each new vertex the source edge (kept end, cut end) it lies on, in the order of creation,
 * and the source's dot products with the normal. */
typedef struct vxv_cpstep {
  double n[3];
  int bit;
  int nv, nin, nn; /* source vertices, kept ones, the result's (0: emptied) */
  unsigned char cut[VXV_CP_MAX], kept[VXV_CP_MAX];
  unsigned char ev[VXV_CP_MAX][2];
  double dot[VXV_CP_MAX]; /* n . y of the source's vertices */
} vxv_cpstep;

/* A chain of clips of a source polyhedron, recorded so that the same chain of a source of
 * the same topology (links and plane bits), at other offsets or normals, is re-clipped by
 * moving the new vertices alone when it cuts the same vertices (vxv_cp_rechain): the result
 * of a clip has links and plane bits that depend on the source's and on which vertices are
 * cut, nothing else. The leaves clip their base polyhedron by each curved surface's lower,
 * middle and upper planes, parallel, which mostly cut the same vertices, and neighbouring
 * leaves are mostly cut alike. nreq steps requested (their bits in step[]), nexec executed
 * (fewer when one emptied the polyhedron); src holds the source's topology and src_id the
 * caller's name for its positions (0: none), which the first step's dot products are of;
 * res holds the result's topology, fan its faces. */
#define VXV_CP_CHAIN 4

typedef struct vxv_cpchain {
  unsigned long long src_id;
  vxv_cpoly src;
  int nreq, nexec; /* nreq -1: nothing recorded */
  int last_cut;    /* the last step that cut some vertices and kept some (-1: none) */
  int has_fan;
  vxv_cpstep step[VXV_CP_CHAIN];
  vxv_cpoly res;
  vxv_cpfan fan;
} vxv_cpchain;

/* What a walk over the faces of a vxv_cpoly gathers for one plane (clip.c). */
typedef struct vxv_cpface {
  int found;
  double area;    /* area of the face on the plane */
  double avec[3]; /* its vector area */
  double m1[3];   /* int over it of y */
  double m2[6];   /* int over it of y y^T (xx yy zz xy yz xz) */
} vxv_cpface;

/* A leaf's mesh atoms that are not convex (or are complemented), integrated by a local BSP
 * of their triangles (bsp.c): at most VXV_BSP_TRIS triangles of VXV_BSP_ATOMS atoms, and
 * VXV_BSP_DEPTH nested splits (each tags its pieces' new faces with one plane bit). */
#define VXV_BSP_TRIS 96
/* The mean triangles of a mesh whose disc a leaf's ball is sized for: root cubes are halved
 * while their ball's disc holds more (octree.c), and an attempt at an exact leaf is refused
 * when its ball's disc holds over 4 times as many (bsp.c). */
#define VXV_DISC_TRIS 32
/* Triangles of one mesh atom a leaf may look at to decide its local shape; a locally
 * convex or concave atom is cut by its planes alone, so only a general one needs them in
 * the BSP's VXV_BSP_TRIS. */
#define VXV_NEAR_TRIS VXG_MESH_TRIS_MAX
#define VXV_BSP_ATOMS 4
#define VXV_BSP_DEPTH 24

typedef struct vxv_btri {
  double v[9];    /* corners, leaf-local (y = x - c), counter-clockwise from outside */
  double n[3], d; /* the plane n.y <= d of its coplanar group, n unit and outward */
  double o[3][3]; /* its edges' outward normals in its plane (edge k from corner k), and */
  double w[3];    /* their offsets: a point y is beyond edge k when o[k].y > w[k] */
  double olen[3]; /* |o[k]| (o, w, olen: once edges is 1, when a BSP first tests it) */
  int edges;
  int group;      /* the coplanar group (mesh triangle index) */
  int atom;       /* index in vxv_bsp.atom */
  int ncv;        /* corners of its part in the leaf's box (grown by the rounding), cv;
                     -1 until a BSP after a peel needs them */
  double cv[9][3];
} vxv_btri;

typedef struct vxv_batom {
  int cell, atom; /* the mesh atom */
  int comp;       /* 1: the cell keeps the mesh's outside (a complemented primitive) */
  double bound;   /* an upper bound on |f| at the leaf centre (HUGE_VAL: none) */
  int shape;      /* VXG_LOCAL_*: how a piece's side is read (general: the signed distance) */
  int npl;        /* the distinct planes of its triangles near the leaf, leaf-local */
  double pl[VXV_NEAR_TRIS][4];
} vxv_batom;

/* Groups of kept pieces a leaf's BSP tells apart (bounding boxes that do not meet), each
 * with its sums: bounding box (leaf-local: lo x y z, hi x y z), moments about the leaf
 * centre, cell 0's area vector and the pieces' rounding allowance (m^3). */
#define VXV_BSP_PARTS 8

typedef struct vxv_bpart {
  double rb[6];
  double m[10];
  double area[3];
  double round;
} vxv_bpart;

typedef struct vxv_bsp {
  int ntri, natom;
  int nparts;                      /* groups of the last integration's kept pieces (the
                                      moments' one): VXV_BSP_PARTS + 1 when more */
  vxv_bpart parts[VXV_BSP_PARTS];  /* their sums */
  unsigned general; /* bit a: atom a is of shape VXG_LOCAL_GENERAL (the others are peeled by
                      their planes) */
  int bit0; /* the plane bit of the first split (6 + the leaf's half-spaces) */
  vxv_btri tri[VXV_BSP_TRIS];
  vxv_batom atom[VXV_BSP_ATOMS];
  vxv_cpoly poly[VXV_BSP_DEPTH];                /* the piece of each depth */
  int list[VXV_BSP_DEPTH + 1][VXV_BSP_TRIS];   /* its triangles */
  vxg_gather_cache gcache; /* the thread's mesh gathers (vxv_options.reuse_gathers), kept
                              from one query to the next (geom/gather.c: a hit gives what a
                              miss computes; no slots when the memory cap has no room) */
} vxv_bsp;

/* Slots of a thread's cache of mesh gathers (a power of two), allocated by the first query
 * with a mesh that reuses gathers. */
#define VXV_GATHER_SLOTS 512

typedef struct vxv_thread {
  vxv_box stack[VXV_STACK];
  vxg_poly base, poly;
  vxv_cpoly cbase, cpoly, cterm;
  vxv_cpchain chain;            /* the curved clips of cbase (leaf.c) */
  vxv_cpchain schain;           /* third_order's clip of one slab's bottom (leaf.c) */
  vxv_cpchain echain;           /* the exact clips of the box into cbase (leaf.c) */
  unsigned long long box_id;    /* names the box cterm holds for echain: its half-extents */
  int apart, apart_idle;        /* the leaves' account of their first test, pair_apart (leaf.c) */
  double box_e[3];
  unsigned long long leaf_id;   /* counts the cbase built, naming their positions */
  vxv_cpface face[VXV_CP_PLANES];
  vxv_hs hs[2 * VXG_MAX_ATOMS];
  int hint; /* vxv_box_classify's hint for the boxes this thread splits */
  /* the superset half-spaces n . (x - sup_c) <= d (sup[j]: n, d) of the last box
     vxv_box_empty tested (centre sup_c, half-extents sup_e); nsup -1: none */
  double sup[VXV_MAX_SUP][4], sup_c[3], sup_e[3];
  int nsup;
  vxv_bsp bsp;
  vxv_leaf *buf[2];
  size_t n[2], cap[2];
  vxv_visit *vis; /* elements for the visitor this round (ws->visit_defer) */
  size_t nvis, capvis;
} vxv_thread;

typedef struct vxv_warg {
  struct vxv_workspace *ws;
  int id;
  unsigned long seen;    /* pool generation when the worker was created */
  unsigned long alerted; /* alert count then */
} vxv_warg;

struct vxv_workspace {
  const vxc_allocator *al;
  size_t bytes, peak, max_bytes;
  pthread_mutex_t mem_mu;
  int mem_failed;   /* a buffer could not grow (the cap or the allocator): refinement ends */
  int alloc_failed; /* the allocator itself refused: the query fails with VXC_ERR_NOMEM */

  vxg_posed_cell pc[2];
  vxv_query q;
  vxv_visit_fn visit; /* the running query's visitor (vxv_options.visit), or NULL */
  const volatile sig_atomic_t *halt; /* the running query's stop flag (vxv_options.stop), or NULL */
  void *visit_ud;
  int visit_defer; /* several threads: the rounds' elements are kept per subtree (vxv_thread
                      vis) and reported after each round in subtree order, from the caller's
                      thread, so that the visitor sees them in the one-thread order */
  int visit_lost;  /* an element could not be kept: the query fails with VXC_ERR_NOMEM */
  double ref[3]; /* the running query's reference point, world */

  vxv_subtree *sub;
  int nsub;
  size_t capsub;
  vxv_box *list[2]; /* scratch lists of boxes while cutting the top of the tree */
  size_t capl[2];
  unsigned char *cls; /* what each box of a level of the top is (octree.c) */
  size_t capcls;
  vxv_box *top; /* the level being classified, and its length */
  int ntop;
  int top_mesh;  /* 1 when a cell of the query has a mesh atom (costly classifications) */
  int top_chunk; /* boxes a claim of the running level of the top covers */
  /* the hull test (vxv_options.hull_test): pending while the root grid is classified, run
     by the thread that claims item 0, on the cells and world poses of the query */
  int mpr_todo, mpr_done, mpr_status;
  const vxg_cell *mpr_cell[2];
  const vxg_xform *mpr_pose[2];
  vxg_mpr_result mpr;
  double *gaps; /* the stored leaves' gaps, sorted to choose a round's threshold */
  size_t capgaps;

  vxv_thread *th[VXV_MAX_THREADS];
  int nth; /* thread scratch areas allocated */

  /* the order in which a round's subtrees are claimed (largest expected work first) */
  vxv_claim *order;
  vxv_leaf *topleaf; /* the exact leaves the top of the tree integrated (vxv_box.leaf) */
  size_t captopleaf;
  int ntopleaf;
  vxv_bpart *toppart; /* the parts of those whose region lies apart, in their order */
  size_t captoppart;
  int ntoppart;
  int *toppart0;      /* per top leaf: its first part in toppart (its count: the next's
                         first, or ntoppart) */
  size_t captoppart0;
  size_t caporder;

  /* the pool: nworker threads (ids 1..nworker); the caller is id 0. gen and alert are
     bumped under mu (sleepers wait on `go`). A job's seats: gate holds the job's generation
     (shifted left by 8) and the seats left; a worker joins by taking one, the caller closes
     the gate when its own share is done, and waits only for the workers that joined
     (`finished` counts them out; `waiting`: the caller sleeps on `done`) */
  int pool_ok;
  int nworker;
  pthread_t tid[VXV_MAX_THREADS];
  vxv_warg warg[VXV_MAX_THREADS];
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  atomic_ulong gen, alert;
  atomic_int stop, finished, waiting;
  atomic_ulong gate;
  atomic_int hot; /* 1 while a query on several threads runs: its threads spin */
  int nalert;
  void (*job)(vxv_workspace *ws, int tid);
  /* the running job's items: nrange ranges, each with the next item to claim and its end,
     a cache line each and apart from the fields the threads read (vxv_ws_run) */
  int nrange;
  char pad0[64];
  struct {
    atomic_int next;
    int end;
    char pad[64 - sizeof(atomic_int) - sizeof(int)];
  } range[VXV_MAX_THREADS];
};

/* workspace.c */
void *vxv_ws_alloc(vxv_workspace *ws, size_t size);
void vxv_ws_free(vxv_workspace *ws, void *p, size_t size);
/* Grows *p (an array of *cap elements of `elem` bytes) to hold at least `need`; thread-safe
 * against the memory cap. Returns 0, or -1 (cap or allocation failure; *p unchanged). */
int vxv_ws_grow(vxv_workspace *ws, void **p, size_t *cap, size_t need, size_t elem);
/* Frees the threads' leaf buffers when the workspace holds more than half of max_bytes (a
 * query's start): what an earlier query kept does not count against this one's cap. */
void vxv_ws_trim(vxv_workspace *ws);
/* Gives threads 0 .. nt - 1 their caches of mesh gathers (VXV_GATHER_SLOTS each) unless they
 * have one; a thread whose cache would take more than an eighth of the memory cap, pass the
 * cap or be refused by the allocator goes without (a cache only saves work). */
void vxv_ws_gather_caches(vxv_workspace *ws, int nt);
/* Makes sure `n` thread scratch areas exist. Returns the number available (>= 1), or 0. */
int vxv_ws_threads(vxv_workspace *ws, int n);
/* Runs job(ws, tid) on `n` threads (the caller as tid 0) over `nitems` items, which the
 * threads take with vxv_ws_claim, and waits for all of them. With `split`, the items are
 * neighbours in space (a level of the top, a first round's subtrees in list order): they are
 * cut into n ranges of consecutive items and thread tid starts on range tid mod n, so that
 * each thread works on one region of the cells; without, every thread takes the next item in
 * index order (a round's subtrees sorted largest first). */
void vxv_ws_run(vxv_workspace *ws, int n, int nitems, int split,
                void (*job)(vxv_workspace *ws, int tid));
/* Claims an item of the running job for thread tid: the next of its own range, else of the
 * next range with items left. Returns the item (0 .. nitems - 1), or -1 when none is left. */
int vxv_ws_claim(vxv_workspace *ws, int tid);
/* Tells the sleeping workers of a query on `n` threads that a job follows soon, so that
 * they are awake (spinning) when it is posted: a query calls it before its serial start,
 * and vxv_ws_cool at its end (until then, the pool's threads spin rather than sleep). */
void vxv_ws_alert(vxv_workspace *ws, int n);
void vxv_ws_cool(vxv_workspace *ws);

/* leaf.c */
void vxv_acc_zero(vxv_acc *a);
void vxv_acc_add(vxv_acc *a, int k, double x);
void vxv_acc_merge(vxv_acc *a, const vxv_acc *b);
double vxv_acc_get(const vxv_acc *a, int k);
/* Adds the moments of the whole box b (and its volume to lo and hi). */
void vxv_acc_box(vxv_acc *a, const vxv_box *b);
/* Adds a leaf (its moments shifted from its centre to the query origin). */
void vxv_acc_leaf(vxv_acc *a, const vxv_leaf *l);

/* fmax and fmin inlined (the library calls cost more than the hot loops' work): the
 * larger (smaller) of two numbers, the other one when one is NaN, b on ties (as glibc's
 * x86-64 fmax and fmin, maxsd and minsd, so the figures keep their bits there). */
static inline double vxv_max2(double a, double b) {
  return a > b ? a : (b == b ? b : a);
}

static inline double vxv_min2(double a, double b) {
  return a < b ? a : (b == b ? b : a);
}

/* What drives a leaf's refinement: its gap hi - lo (certified), or its error estimate. */
static inline double vxv_leaf_weight(const vxv_query *q, const vxv_leaf *l) {
  return q->certified ? l->hi - l->lo : l->est;
}
/* Prepares a posed cell for a query. */
void vxv_qcell_init(vxv_qcell *qc, const vxg_posed_cell *pc);
/* Starts a box: every atom MIXED, none OUTSIDE. */
void vxv_box_root(const vxv_query *q, vxv_box *b, const double c[3], double h);
/* Classifies b against the query's cells, starting from the masks it holds (its parent's)
 * and updating them. VXG_INSIDE: inside every cell; VXG_OUTSIDE: outside one; else MIXED.
 * *hint (NULL: none) names the plain atom, or an atom of the complemented primitive, that
 * last put a box outside (64 cell + atom, or -1); it (or the primitive's atoms) is
 * classified first, and the hint updated: the order of the atoms changes neither the class
 * nor the masks, only the work (neighbouring boxes tend to lie outside the same atom). */
vxg_class vxv_box_classify(const vxv_query *q, vxv_box *b, int *hint);
/* 1 when the integration of the MIXED box b is not exact (a curved atom or a complemented
 * primitive with several MIXED atoms): the h_min rule refines such boxes. */
int vxv_box_inexact(const vxv_query *q, const vxv_box *b);
/* 1 when the MIXED box b provably holds no part of the region: the box clipped by the
 * superset half-space of every MIXED atom that has one (its tangent plane at the centre
 * shifted by the remainder's bound, as for a leaf's upper polyhedron) is empty. Then b
 * contributes nothing (no volume, no area) and need not be split. Uses th->hs and
 * th->cterm. 0 when not decided (one MIXED atom, a mesh atom, no bounds, a capacity
 * exceeded). */
int vxv_box_empty(const vxv_query *q, vxv_thread *th, const vxv_box *b);
/* The children kid[0 .. nk) of box b that lie beyond one of the superset half-spaces that
 * vxv_box_empty found for b on th (the last box it tested, with two or more MIXED atoms of
 * no mesh), by a margin beyond their rounding, as a mask (bit k: kid[k]): they hold none of
 * the region, and are dropped unclassified (under the fixed-leaf rule without parent_est,
 * as vxv_box_region_outside drops a box). 0 when none is decided. */
unsigned vxv_box_beyond(const vxv_thread *th, const vxv_box *b, const vxv_box *kid, int nk);
/* 1 when b is inexact only through mesh atoms, which a leaf may integrate exactly by their
 * triangles (convex ones by their planes, others by a BSP) when few triangles come near it. */
int vxv_box_planar(const vxv_query *q, const vxv_box *b);
/* vxv_box_planar, and no complemented primitive with several MIXED atoms (which the BSP does
 * not take): a leaf of b is exact once few enough triangles come near it. */
int vxv_box_polyhedral(const vxv_query *q, const vxv_box *b);
/* The revolution rule's reach over b (q->revolution; no mesh atom MIXED): 1
 * under the rtol rule when b's only curved MIXED atom is a torus's in a primitive that is not
 * complemented, with a MIXED plane within 20 degrees of square to its axis; 2 under either
 * rule when its only curved MIXED atoms are a rod (a cylinder's or a cone's round face) of
 * one cell and a bore (the same, complemented) of the other, their axes within 20 degrees;
 * else 0. A leaf of b is integrated about the axis (leaf.c) and counted exact. */
int vxv_box_revolution(const vxv_query *q, const vxv_box *b);
/* The half-width of the bracket of vxg_rod_bore's result o (closed.c): 16 times its estimate,
 * its sums' rounding and its surfaces' area times dd, a rounding of their positions (m). */
double vxv_quad_halfwidth(const vxg_rod_bore_out *o, double dd);
/* 1 when vxv_box_revolution would take a box crossed by every atom of the query's two
 * cells as a rod in a bore: the region may be one leaf (octree.c, the root grid). */
int vxv_query_rod_bore(const vxv_query *q);
/* Integrates the MIXED box b as a leaf into l (l->b = *b); returns l->exact. With
 * `only_exact`, gives up (returns 0, l unspecified) as soon as the leaf cannot be exact. */
int vxv_leaf_eval(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l,
                  int only_exact);
/* vxv_leaf_eval(q, th, b, l, 0), or -1 (l unspecified) when b provably holds none of the
 * region: its upper polyhedron (as for vxv_box_empty, but for any number of MIXED atoms) is
 * empty. The emptiness test shares the leaf's half-spaces and upper polyhedron, so a box
 * that holds some of the region costs no more than the leaf. */
int vxv_leaf_eval_kept(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l);
/* vxv_leaf_eval_kept, or -2 (l unspecified) as soon as the leaf is known to be inexact (a
 * mesh atom with too many triangles near it, found before the other atoms are gathered): for
 * a box of meshes and planes alone (vxv_box_polyhedral), which a caller splits then without
 * looking at it. */
int vxv_leaf_eval_or_split(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l);
/* vxv_leaf_eval(q, th, b, l, 0) without the bracket (lo = hi = V, pgap 0), its moments and
 * order3 the same: a family's parent under parent_est, whose value alone is compared. */
int vxv_leaf_eval_value(const vxv_query *q, vxv_thread *th, const vxv_box *b, vxv_leaf *l);

/* column.c */
/* The axis (0..2) along which every MIXED atom of b that is not a plane is a quadric
 * invariant under translation (a cylinder or elliptic cylinder along it: its remainder over
 * the box does not grow with the box's extent along it), or -1 (none). */
int vxv_box_column_axis(const vxv_query *q, const vxv_box *b);
/* The children of b into kid[]: halved along every axis but its column axis (if any),
 * numbered as split's octants; returns their count, 8 or 4. */
int vxv_box_split(const vxv_query *q, const vxv_box *b, vxv_box kid[8]);
/* The axes (bits 0..2) along which the quadratic part of quadric coefficients q (A..F) does
 * not change: a cylinder's axis, all three for a plane. */
unsigned vxv_quadric_axes(const double *q);
/* Half-diagonal of b, and its volume. */
double vxv_box_radius(const vxv_box *b);
double vxv_box_volume(const vxv_box *b);

/* clip.c */
/* The box [-e0, e0] x [-e1, e1] x [-e2, e2]. */
void vxv_cp_box(vxv_cpoly *p, const double e[3]);
/* Keeps the part where n.y <= d; new vertices get plane bit `bit`. Returns 0, or -1 when
 * the vertex capacity would be exceeded (p is then garbage). */
int vxv_cp_clip(vxv_cpoly *p, const double n[3], double d, int bit);
/* vxv_cp_clip of src written into dst (dst != src; the same vertices in the same order,
 * without copying src first). Returns 1 when the plane cuts nothing away (dst untouched:
 * the result is src), 0 when dst holds the result, -1 as vxv_cp_clip (dst is garbage). */
int vxv_cp_clip_to(vxv_cpoly *dst, const vxv_cpoly *src, const double n[3], double d, int bit);
/* dst = src (its first nv vertices: positions, links, plane bits). */
void vxv_cp_copy(vxv_cpoly *dst, const vxv_cpoly *src);
/* 1 when clipping p (not empty) by n.y <= d would leave nothing: every vertex lies beyond
 * the plane by the clips' own reckoning. */
int vxv_cp_clears(const vxv_cpoly *p, const double n[3], double d);
/* Begins recording a chain of nreq clips (at most VXV_CP_CHAIN; beyond, nothing is
 * recorded) of src (whose positions the caller names src_id, 0: no name) by the planes of
 * normals n[i] and bits bit[i]. */
void vxv_cp_chain_begin(vxv_cpchain *ch, int nreq, const double *const n[], const int bit[],
                        const vxv_cpoly *src, unsigned long long src_id);
/* The chain's next clip, at offset d: as cp_clip_into in leaf.c, *cur clipped into buf (in
 * place once *cur is buf), *cur then the result; recorded. Returns 0, or -1 when a capacity
 * is exceeded (the record dropped). */
int vxv_cp_chain_clip(vxv_cpchain *ch, vxv_cpoly *buf, const vxv_cpoly **cur, double d);
/* Ends the recording with the chain's result p (its topology kept). */
void vxv_cp_chain_end(vxv_cpchain *ch, const vxv_cpoly *p);
/* dst = src clipped by the nreq planes (n[i], offset d[i], bit[i]) in turn, as the clips
 * would give it bit for bit, when src has the recorded source's topology, the planes the
 * recorded bits and they cut the recorded vertices: returns 0; else 1 (dst's positions may
 * have been overwritten). src_id: the caller's name for src's positions (the same name for
 * the same positions; 0: none); dst is not src. */
int vxv_cp_rechain(vxv_cpoly *dst, const vxv_cpoly *src, unsigned long long src_id,
                   vxv_cpchain *ch, int nreq, const double *const n[], const double d[],
                   const int bit[]);
/* The faces of the recorded chain's result (built on the first call). */
const vxv_cpfan *vxv_cp_chain_fan(vxv_cpchain *ch);

/* The faces of p in the walks' order. */
void vxv_cp_fan(const vxv_cpoly *p, vxv_cpfan *f);
/* vxv_cp_moments, vxv_cp_faces, vxv_cp_volume and vxv_cp_proj_faces over the faces f of
 * p's topology (vxv_cp_fan), bit for bit the same; the moments' faces on the planes of
 * vec_only (and on no other wanted plane) get their vector area alone (area and m2 0). */
double vxv_cp_fan_moments(const vxv_cpoly *p, const vxv_cpfan *f, double *m, uint64_t want,
                          uint64_t vec_only, vxv_cpface *face);
void vxv_cp_fan_faces(const vxv_cpoly *p, const vxv_cpfan *f, uint64_t want, vxv_cpface *face);
double vxv_cp_fan_volume(const vxv_cpoly *p, const vxv_cpfan *f);
double vxv_cp_fan_proj_faces(const vxv_cpoly *p, const vxv_cpfan *f, const double u[3],
                             uint64_t skip);

/* Volume, or the ten moments m0, m1, m2 about the local origin when m != NULL; when
 * `want` is not 0, fills face[j] for every plane bit 6 + j set in `want` (the face lying
 * on it, if any). Returns the volume. */
double vxv_cp_moments(const vxv_cpoly *p, double *m, uint64_t want, vxv_cpface *face);
/* The face data alone, bit for bit that of vxv_cp_moments(p, NULL, want, face), walking
 * only the faces that may lie on a wanted plane. */
void vxv_cp_faces(const vxv_cpoly *p, uint64_t want, vxv_cpface *face);
/* The volume alone, bit for bit vxv_cp_moments(p, NULL, 0, NULL) (m^3; 0 when empty). */
double vxv_cp_volume(const vxv_cpoly *p);

/* Sum over the faces of p that lie on none of the planes `skip` (plane bits) of |u . A_f|,
 * A_f the face's vector area: the sum of their areas projected along the unit vector u (a
 * face is skipped when all its vertices carry one of the bits). */
double vxv_cp_proj_faces(const vxv_cpoly *p, const double u[3], uint64_t skip);

/* frame.c */
/* The cell (0 or 1) whose own frame a query of the posed cells q (world axes) is integrated
 * in: one whose curved atoms are quadrics sharing an axis of invariance in its frame but
 * along no world axis, while the other cell is planes alone; else -1. */
int vxv_frame_cell(const vxv_query *q, const vxg_cell *const *cells);
/* The cells' transforms into cell fc's frame (cell frame -> frame): fc's the identity. */
void vxv_frame_xforms(const vxg_xform *const *to_world, int fc, vxg_xform xf[2]);
/* Sums about ref in a frame placed by f (frame -> world) into world axes, ref into the
 * world. */
void vxv_frame_to_world(const vxg_xform *f, double ref[3], vxv_acc *tot);
/* p (a point of the frame placed by f) into the world, in place. */
void vxv_frame_point(const vxg_xform *f, double p[3]);

/* flush.c: finds the pairs of quadric atoms of the query's two cells that are one surface
 * kept on opposite sides (q->flush). */
void vxv_flush_init(vxv_query *q);
/* 1 when the MIXED box b holds no volume of the region because both atoms of a flush pair
 * decide their cells over it: the region in b lies on their common surface. */
int vxv_box_flush(const vxv_query *q, const vxv_box *b);
/* The side of atom i that its cell qc keeps where it alone decides its primitive: 1 f <= 0,
 * -1 f >= 0 (a complemented primitive's). */
int vxv_kept_side(const vxv_qcell *qc, int i);
/* 1 when cell k (qc) keeps atom i's side over the box b: atom i is undecided, and in a
 * complemented primitive the only one (the others INSIDE). */
int vxv_atom_alone(const vxv_qcell *qc, const vxv_box *b, int k, int i);

/* radical.c: the region's box [lo, hi] (world axes translated, m) as its centre c in the
 * query frame (origin ws->ref) and half-extents e. */
void vxv_region_centre(const vxv_workspace *ws, const double lo[3], const double hi[3],
                       double c[3], double e[3]);

/* radical.c: keeps the region's box [lo, hi] (the query frame's axes, m; it must hold both
 * cells' intersection) in the query frame (origin ref), and sets q->region_cut: two cells
 * under the fixed-leaf rule without parent_est (pose the cells first). */
void vxv_region_init(vxv_query *q, const double lo[3], const double hi[3], const double ref[3]);
/* 1 when the MIXED box b holds no point of the region: cut to the region's box (q->rlo, rhi;
 * q->region_cut), it lies outside a plain atom of either cell, or inside every atom of a
 * complemented primitive. The box as a whole may meet them all (a cube of a table's top face
 * around a ball's shallow cap: its part above the table is outside the table, the rest below
 * the ball). */
int vxv_box_region_outside(const vxv_query *q, const vxv_box *b);
/* 1 when the box b lies beyond the region's box (q->region_cut): it holds no point of the
 * region, whatever its atoms' classes (a box inside both cells lies inside both cells' boxes,
 * which the region's box holds, widened), so vxv_box_classify drops it before any atom. */
int vxv_box_beyond_region(const vxv_query *q, const vxv_box *b);
/* Finds the pairs of curved quadric atoms, one of each of the query's two cells, whose kept
 * sides' quadratic parts nearly cancel, and combines them (q->rad; none under the rtol rules
 * or with parent_est: vxv_region_init first). */
void vxv_radical_init(vxv_query *q);
/* 1 when the MIXED box b holds no point of the region: a pair's combination, whose atoms
 * both decide their cells over b, is positive over b cut to the region's box (rounding
 * included). */
int vxv_box_radical(const vxv_query *q, const vxv_box *b);

/* bsp.c */
/* Adds mesh atom i of cell k (comp: the cell keeps its outside) to the leaf b's BSP s, with
 * its triangles that may cross b. An `attempt` (a box that will be split otherwise) gives
 * up when b's ball is large against the mesh's mean triangle. Returns 0; 1 when the atom
 * needs no BSP: it is kept as its inside (not comp) and that is locally convex, the
 * intersection of the half-spaces planes[4 j ..] (n . x <= d, query frame, j < *nplanes);
 * or -1 when the atom does not fit (too many triangles or atoms): it must be linearised. */
int vxv_bsp_add_atom(const vxv_query *q, const vxv_box *b, vxv_bsp *s, int k, int i, int comp,
                     int attempt, double *planes, int *nplanes);
/* The region of the leaf b inside the convex polyhedron p (leaf-local) on the wanted side of
 * every atom of th->bsp: out[0 .. 10) its moments about b's centre (out[0] alone unless
 * `moments`), out[10 .. 13) the vector area of cell 0's faces (those on the plane bits
 * `want` and on cell 0's triangles), out[13] a bound on the rounding of the volume (m^3),
 * out[14] the pieces visited, out[15 .. 21) the kept pieces' bounding box (leaf-local, lo x
 * y z, hi x y z; inverted when none is kept). Returns 0, or -1 when a capacity was
 * exceeded. */
int vxv_bsp_integrate(const vxv_query *q, vxv_thread *th, const vxv_box *b, const vxv_cpoly *p,
                      int moments, uint64_t want, double out[21]);

/* leaf.c: the rounding of a leaf's vertices (m), and a bound on the rounding of the volume
 * of a polyhedron p cut from the leaf b (m^3). */
double vxv_vertex_rounding(const vxv_box *b);
double vxv_cp_rounding(const vxv_cpoly *p, const vxv_box *b);
/* Grows the box rb (lo x y z, hi x y z) to hold p's vertices. */
void vxv_cp_bounds(const vxv_cpoly *p, double rb[6]);

/* massprops.c: 1 when the cell is one closed mesh alone (not complemented, not cut). */
int vxv_mesh_alone(const vxg_cell *c);
/* Fills res with the exact mass properties of such a cell placed by to_world: volume,
 * moments, centroid and J from the triangles (vxg_mesh_moments), a bracket of the rounding's
 * width, no boxes; ref is the centre of its world bounding box. */
void vxv_mesh_massprops(const vxg_cell *c, const vxg_xform *to_world, vxv_result *res);

/* closed.c: with the query's two cells posed (ws->q, ws->pc, ws->ref) and the region
 * [lo, hi] (world) that holds their interference, measures it in closed form when it is a
 * ball's cap by a plane or two balls' lens that no other surface of the cells meets (or by
 * quadrature, a ball against a cylinder, when opt's rule accepts its error), or proves
 * the cells apart (a cap that is empty; one cell inside the other's bore, bore.c): fills
 * *r but for `threads` (a zero volume when the cells are apart), reports it to ws->visit
 * as one leaf, and returns 1; else returns 0 (r untouched). */
int vxv_closed_form(const vxv_workspace *ws, const vxv_options *opt, const double lo[3],
                    const double hi[3], vxv_result *r);
/* bore.c: 1 when the two posed cells are proved apart because one lies, over the region
 * (centre c, half-extents e, query frame) that holds their interference, inside the
 * cylinder of a complemented cylinder primitive of the other; else 0. With `touch`, a hull
 * within BORE_TOUCH of the scale outside the cylinder counts as inside (closed.c: a peg
 * resting on its bore); without, the proof is strict (the octree's own answer). With
 * reach > 0 (strict), the region is grown by D = reach times the cylinder's radius on every
 * side and the radius shrunk by D, and *grown (when not NULL) gets D when it holds: the
 * interference stays empty while one cell moves by at most D relative to the other (a point
 * of it within the grown region lies at least D inside the cylinder). */
int vxv_bore_apart(const vxv_workspace *ws, const double c[3], const double e[3], int touch,
                   double reach, double *grown);

/* octree.c: fills volume, bracket, moments, centroid, J and area vector of res from sums
 * about ref (query frame = world axes translated to ref). */
void vxv_finish_result(const double ref[3], const vxv_acc *tot, vxv_result *res);


#endif /* VXV_INTERNAL_H */
