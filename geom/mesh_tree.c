/* mesh_tree.c: a mesh's bounding-box tree, for distances between meshes and from a mesh to
 * a convex cell (geom/cell_distance.c), which Embree's point queries do not give.
 *
 * Built once with the mesh (immutable after, read from any thread): top down, each node's
 * triangles split at the median of their centroids along the longest side of the
 * centroids' box (a balanced tree: depth about log2(ntri / VXG_MESH_TREE_LEAF)), until at
 * most VXG_MESH_TREE_LEAF remain. A node's box bounds its triangles' corners in double
 * precision, so a distance to it never exceeds the distance to a triangle it holds. The
 * children of a node are stored side by side; the root is node 0. */
#include <math.h>
#include <string.h>

#include "geom/mesh.h"

void vxg_mesh_tri_corners(const vxg_mesh *m, int t, double c[9]) {
  for (int k = 0; k < 3; k++) {
    memcpy(c + 3 * k, m->v + 3 * m->tri[3 * t + k], 3 * sizeof *c);
  }
}


/* Twice the centroid of triangle t along axis k (its corners' sum). */
static double key(const vxg_mesh *m, int t, int k) {
  const int *c = m->tri + 3 * t;
  return m->v[3 * c[0] + k] + m->v[3 * c[1] + k] + m->v[3 * c[2] + k];
}


/* Reorders idx[0 .. n) so that idx[mid] has the key (along axis k) it would have sorted,
 * none before it larger and none after it smaller (Hoare's selection). */
static void select_median(const vxg_mesh *m, int *idx, int n, int mid, int k) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    double pivot = key(m, idx[(lo + hi) / 2], k);
    int i = lo, j = hi;
    while (i <= j) {
      while (key(m, idx[i], k) < pivot) {
        i++;
      }
      while (key(m, idx[j], k) > pivot) {
        j--;
      }
      if (i <= j) {
        int t = idx[i];
        idx[i++] = idx[j];
        idx[j--] = t;
      }
    }
    if (mid <= j) {
      hi = j;
    } else if (mid >= i) {
      lo = i;
    } else {
      return;
    }
  }
}


/* Node nd over tree_tri[first .. first + count): its box, and the axis of the longest side
 * of its triangles' centroids' box. */
static int node_bounds(const vxg_mesh *m, vxg_mesh_node *nd, int first, int count) {
  double clo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, chi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (int k = 0; k < 3; k++) {
    nd->lo[k] = HUGE_VAL;
    nd->hi[k] = -HUGE_VAL;
  }
  for (int i = first; i < first + count; i++) {
    int t = m->tree_tri[i];
    for (int k = 0; k < 3; k++) {
      for (int c = 0; c < 3; c++) {
        double x = m->v[3 * m->tri[3 * t + c] + k];
        nd->lo[k] = fmin(nd->lo[k], x);
        nd->hi[k] = fmax(nd->hi[k], x);
      }
      clo[k] = fmin(clo[k], key(m, t, k));
      chi[k] = fmax(chi[k], key(m, t, k));
    }
  }
  int axis = 0;
  for (int k = 1; k < 3; k++) {
    if (chi[k] - clo[k] > chi[axis] - clo[axis]) {
      axis = k;
    }
  }
  return axis;
}


/* The nodes of the trees over a and a + 1 triangles into f[0], f[1]: the splits halve the
 * counts (n / 2 and the rest) down to VXG_MESH_TREE_LEAF or fewer, so both children of
 * either lie in {a / 2, a / 2 + 1}, one level down (O(log a)). */
static void node_counts(int a, int f[2]) {
  if (a + 1 <= VXG_MESH_TREE_LEAF) {
    f[0] = f[1] = 1;
    return;
  }
  int h = a / 2, g[2];
  node_counts(h, g);
  for (int k = 0; k < 2; k++) {
    int n = a + k;
    f[k] = n <= VXG_MESH_TREE_LEAF ? 1 : 1 + g[n / 2 - h] + g[n - n / 2 - h];
  }
}


vxc_status vxg_mesh_tree_build(vxg_mesh *m, vxc_error *err) {
  int n = m->ntri, cap[2];
  node_counts(n, cap);
  m->tree = vxg_alloc(m->al, (size_t)cap[0] * sizeof *m->tree);
  m->tree_tri = vxg_alloc(m->al, (size_t)n * sizeof *m->tree_tri);
  if (!m->tree || !m->tree_tri) {
    vxg_mesh_tree_free(m);
    return vxg_error_set(err, VXC_ERR_NOMEM, m->name, 0, 0, "out of memory");
  }
  for (int t = 0; t < n; t++) {
    m->tree_tri[t] = t;
  }
  /* nodes are made in order; a node's range waits in (first, count) until it is split */
  m->ntree = 1;
  m->tree[0].first = 0;
  m->tree[0].count = n;
  for (int i = 0; i < m->ntree; i++) {
    vxg_mesh_node *nd = &m->tree[i];
    int first = nd->first, count = nd->count;
    int axis = node_bounds(m, nd, first, count);
    if (count <= VXG_MESH_TREE_LEAF || m->ntree + 2 > cap[0]) {
      continue; /* a leaf (cap[0] is the exact count: never short) */
    }
    int half = count / 2;
    select_median(m, m->tree_tri + first, count, half, axis);
    vxg_mesh_node *c = &m->tree[m->ntree];
    c[0].first = first;
    c[0].count = half;
    c[1].first = first + half;
    c[1].count = count - half;
    nd->first = m->ntree;
    nd->count = 0;
    m->ntree += 2;
  }
  return VXC_OK;
}


void vxg_mesh_tree_free(vxg_mesh *m) {
  vxg_free(m->al, m->tree);
  vxg_free(m->al, m->tree_tri);
  m->tree = NULL;
  m->tree_tri = NULL;
  m->ntree = 0;
}
