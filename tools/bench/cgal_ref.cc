// cgal_ref.cc: vxc-bench-cgal, the exact polyhedral reference of `vxc bench --mesh` and of
// tests/test_mesh_oracle.c: the intersection of two closed triangle meshes (OBJ) placed by
// two poses, by CGAL's corefinement (Polygon Mesh Processing) on the exact-constructions
// kernel, timed alone on one thread.
//
//   vxc-bench-cgal A.obj B.obj [--pose-a "X Y Z QW QX QY QZ"] [--pose-b ...]
//                  [--budget-ms T] [--max-runs N]
//
// Poses are metres and a unit quaternion (w first), applied to the files' vertices as
// x -> R(q) x + p in double precision, the same formula as the benchmark's (mesh_shapes.c).
// Prints one line of keys and values: `volume V centroid X Y Z inertia J11 .. J33 ms T runs N
// triangles N`: V the exact volume rounded to double (m^3), the centroid (m) and the
// inertia about it (unit density, m^5, row-major) from the result's vertices rounded to
// double, T the smallest CPU time (ms) of one corefinement over N runs on fresh copies of
// the meshes (runs go on while their total stays under T ms, at least 3). Exit status 0;
// 1 on a file that cannot be read, a mesh that is not closed, or a failed corefinement
// (the message says which); 2 on a usage error.
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/corefinement.h>
#include <CGAL/Polygon_mesh_processing/measure.h>
#include <CGAL/Polygon_mesh_processing/polygon_soup_to_polygon_mesh.h>
#include <CGAL/Surface_mesh.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

typedef CGAL::Exact_predicates_exact_constructions_kernel K;
typedef CGAL::Surface_mesh<K::Point_3> Mesh;
namespace PMP = CGAL::Polygon_mesh_processing;

namespace {

struct Soup {
  std::vector<std::array<double, 3>> v;
  std::vector<std::vector<std::size_t>> f;
};

[[noreturn]] void fail(const std::string &msg, int status = 1) {
  std::fprintf(stderr, "vxc-bench-cgal: %s\n", msg.c_str());
  std::exit(status);
}

// v and f records of an OBJ file; f's "i/j/k" forms and negative indices; vertices welded
// (equal coordinates are one vertex), as vxc and the other tools read them.
Soup read_obj(const std::string &path) {
  std::ifstream in(path);
  if (!in) {
    fail(path + ": cannot open");
  }
  Soup s;
  std::vector<std::size_t> ids;  // file index -> welded vertex
  std::map<std::array<double, 3>, std::size_t> seen;
  std::string line;
  for (int n = 1; std::getline(in, line); n++) {
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    if (key == "v") {
      std::array<double, 3> p;
      if (!(ls >> p[0] >> p[1] >> p[2])) {
        fail(path + ":" + std::to_string(n) + ":1: expected three coordinates after 'v'");
      }
      auto it = seen.emplace(p, s.v.size());
      if (it.second) {
        s.v.push_back(p);
      }
      ids.push_back(it.first->second);
    } else if (key == "f") {
      std::vector<std::size_t> face;
      std::string tok;
      while (ls >> tok) {
        long k = std::strtol(tok.c_str(), nullptr, 10);
        k = k < 0 ? (long)ids.size() + k : k - 1;
        if (k < 0 || k >= (long)ids.size()) {
          fail(path + ":" + std::to_string(n) + ":3: vertex index '" + tok + "' out of range");
        }
        face.push_back(ids[(std::size_t)k]);
      }
      if (face.size() < 3) {
        fail(path + ":" + std::to_string(n) + ":3: a face needs three vertices");
      }
      s.f.push_back(face);
    }
  }
  return s;
}

// x -> R(q) x + p, in the order of the benchmark's ms_transform.
void place(Soup &s, const double pose[7]) {
  double w = pose[3], x = pose[4], y = pose[5], z = pose[6];
  double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                 2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                 2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  for (auto &v : s.v) {
    double o[3];
    for (int k = 0; k < 3; k++) {
      o[k] = R[3 * k] * v[0] + R[3 * k + 1] * v[1] + R[3 * k + 2] * v[2] + pose[k];
    }
    v = {o[0], o[1], o[2]};
  }
}

Mesh to_mesh(const Soup &s, const std::string &name) {
  std::vector<K::Point_3> pts;
  pts.reserve(s.v.size());
  for (const auto &v : s.v) {
    pts.emplace_back(v[0], v[1], v[2]);
  }
  Mesh m;
  PMP::polygon_soup_to_polygon_mesh(pts, s.f, m);
  if (m.is_empty() || !CGAL::is_closed(m)) {
    fail(name + ": not a closed manifold mesh");
  }
  return m;
}

double cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

void parse_pose(const char *text, double pose[7]) {
  std::istringstream is(text);
  for (int k = 0; k < 7; k++) {
    if (!(is >> pose[k])) {
      fail(std::string("--pose: expected 7 numbers (x y z qw qx qy qz), got '") + text + "'", 2);
    }
  }
}

// Volume-weighted moments of the closed mesh m about o, in double from rounded vertices:
// m0, m1 (3), m2 (xx yy zz xy yz xz), by signed tetrahedra with o.
void moments(const Mesh &m, const double o[3], double *m0, double m1[3], double m2[6]) {
  static const int ia[6] = {0, 1, 2, 0, 1, 0}, ib[6] = {0, 1, 2, 1, 2, 2};
  *m0 = 0;
  std::memset(m1, 0, 3 * sizeof(double));
  std::memset(m2, 0, 6 * sizeof(double));
  for (auto f : m.faces()) {
    double p[3][3];
    int n = 0;
    for (auto v : CGAL::vertices_around_face(m.halfedge(f), m)) {
      if (n < 3) {
        const K::Point_3 &q = m.point(v);
        p[n][0] = CGAL::to_double(q.x()) - o[0];
        p[n][1] = CGAL::to_double(q.y()) - o[1];
        p[n][2] = CGAL::to_double(q.z()) - o[2];
      }
      n++;
    }
    const double *a = p[0], *b = p[1], *c = p[2];
    double v = (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                a[2] * (b[0] * c[1] - b[1] * c[0])) /
               6;
    double sum[3];
    for (int k = 0; k < 3; k++) {
      sum[k] = a[k] + b[k] + c[k];
      m1[k] += v * sum[k] / 4;
    }
    *m0 += v;
    for (int k = 0; k < 6; k++) {
      int i = ia[k], j = ib[k];
      m2[k] += v / 20 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + sum[i] * sum[j]);
    }
  }
}

}  // namespace

int main(int argc, char **argv) {
  const char *path[2] = {nullptr, nullptr};
  double pose[2][7] = {{0, 0, 0, 1, 0, 0, 0}, {0, 0, 0, 1, 0, 0, 0}};
  double budget = 300;
  int max_runs = 50, np = 0;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if ((a == "--pose-a" || a == "--pose-b") && i + 1 < argc) {
      parse_pose(argv[++i], pose[a == "--pose-b"]);
    } else if (a == "--budget-ms" && i + 1 < argc) {
      budget = std::atof(argv[++i]);
    } else if (a == "--max-runs" && i + 1 < argc) {
      max_runs = std::max(1, std::atoi(argv[++i]));
    } else if (a[0] != '-' && np < 2) {
      path[np++] = argv[i];
    } else {
      fail("usage: vxc-bench-cgal A.obj B.obj [--pose-a \"X Y Z QW QX QY QZ\"] [--pose-b ...] "
           "[--budget-ms T] [--max-runs N] (unexpected '" + a + "')", 2);
    }
  }
  if (np != 2) {
    fail("usage: vxc-bench-cgal A.obj B.obj [--pose-a ...] [--pose-b ...]", 2);
  }
  Soup soup[2];
  for (int k = 0; k < 2; k++) {
    soup[k] = read_obj(path[k]);
    place(soup[k], pose[k]);
  }
  double best = HUGE_VAL, total = 0;
  int runs = 0;
  Mesh out;
  while (runs < max_runs && (runs < 3 || total < budget)) {
    // fresh meshes from the doubles: no exact value cached by an earlier run
    Mesh a = to_mesh(soup[0], path[0]), b = to_mesh(soup[1], path[1]), r;
    double t0 = cpu_ms();
    bool ok = PMP::corefine_and_compute_intersection(a, b, r);
    double t = cpu_ms() - t0;
    if (!ok) {
      fail("corefinement failed (self-intersecting or not bounding a volume)");
    }
    best = std::min(best, t);
    total += t;
    runs++;
    out = r;
  }
  double volume = out.is_empty() ? 0 : CGAL::to_double(CGAL::exact(PMP::volume(out)));
  double o[3] = {0, 0, 0}, m0, m1[3], m2[6], c[3] = {0, 0, 0}, J[9] = {0};
  if (!out.is_empty()) {
    const K::Point_3 &p = out.point(*out.vertices().begin());
    o[0] = CGAL::to_double(p.x());
    o[1] = CGAL::to_double(p.y());
    o[2] = CGAL::to_double(p.z());
  }
  moments(out, o, &m0, m1, m2);
  if (m0 > 0) {
    double cc[6];
    static const int ia[6] = {0, 1, 2, 0, 1, 0}, ib[6] = {0, 1, 2, 1, 2, 2};
    for (int k = 0; k < 3; k++) {
      c[k] = m1[k] / m0;
    }
    for (int k = 0; k < 6; k++) {
      cc[k] = m2[k] - m1[ia[k]] * c[ib[k]];
    }
    double tr = cc[0] + cc[1] + cc[2];
    J[0] = tr - cc[0];
    J[4] = tr - cc[1];
    J[8] = tr - cc[2];
    J[1] = J[3] = -cc[3];
    J[5] = J[7] = -cc[4];
    J[2] = J[6] = -cc[5];
    for (int k = 0; k < 3; k++) {
      c[k] += o[k];
    }
  }
  std::printf("volume %.17g centroid %.17g %.17g %.17g inertia", volume, c[0], c[1], c[2]);
  for (int k = 0; k < 9; k++) {
    std::printf(" %.17g", J[k]);
  }
  std::printf(" ms %.6g runs %d triangles %zu\n", best, runs,
              (std::size_t)(soup[0].f.size() + soup[1].f.size()));
  return 0;
}
