/* mesh_peers.h: the other tools `vxc bench --mesh` and tests/test_mesh_oracle.c run on the
 * mesh family's cases, as child processes on OBJ files: vxc-bench-cgal (tools/bench/
 * cgal_ref.cc, CGAL's exact corefinement: the reference) and node with
 * tools/bench/manifold.mjs (the npm package manifold-3d). Each prints the volume of the
 * intersection and the smallest CPU time of the boolean alone; their own timings count. */
#ifndef VXC_MESH_PEERS_H
#define VXC_MESH_PEERS_H

#include <stddef.h>

#include "tools/mesh_cases.h"

#define MP_PATH_MAX 4096

/* What a peer printed. */
typedef struct mp_result {
  double volume;      /* m^3 */
  double centroid[3]; /* m (CGAL only; else NAN) */
  double inertia[9];  /* m^5 about the centroid (CGAL only; else NAN) */
  double ms;          /* smallest CPU time of one boolean, ms */
  int runs;
} mp_result;

/* The peer programs found: cgal (the vxc-bench-cgal path, "" when not found), node and the
 * script (both "" when not found), and why a peer is missing (for the bench's note). */
typedef struct mp_peers {
  char cgal[MP_PATH_MAX];
  char node[MP_PATH_MAX];
  char script[MP_PATH_MAX];
  char why_cgal[256], why_manifold[512];
} mp_peers;

/* Looks for the peers: $VXC_CGAL_REF, else vxc-bench-cgal beside this program (or one
 * folder up, for the build tree's .libs), else on the PATH; node on the PATH and
 * $VXC_MANIFOLD_SCRIPT, else bench/manifold.mjs beside this program or one folder up,
 * else the source tree's. */
void mp_find(mp_peers *p);

/* Writes the case's two meshes (their own frames) as DIR/NAME-a.obj and -b.obj; paths get
 * the file names. Returns 0, or -1 with msg set. */
int mp_write(const mc_case *c, const char *dir, const char *name, char path[2][MP_PATH_MAX],
             char *msg, size_t msg_len);

/* Runs program `prog` (with `script` first when not NULL: node) on the two files and the
 * case's poses, each peer repeating its boolean for about budget_ms. Returns 0 with *out
 * set; 3 when the peer says it is not installed (msg: its words); -1 on any other failure
 * (msg: the peer's first line on standard error, or why it did not run). */
int mp_run(const char *prog, const char *script, char path[2][MP_PATH_MAX], const mc_case *c,
           double budget_ms, mp_result *out, char *msg, size_t msg_len);

/* Finds a program beside this one (or one folder up), else on the PATH: 0 with path set,
 * or -1. */
int mp_find_program(const char *name, char *path, size_t len);

#endif /* VXC_MESH_PEERS_H */
