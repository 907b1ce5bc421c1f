// main.cc: vxc-import: a STEP file as a vxc model file, one cell (or a stack of cells) per
// STEP solid, exact quadric cells where the solid allows, else an OCCT mesh beside the model.
#include "tools/import/exact.h"
#include "tools/import/guard.h"
#include "tools/import/mesh_out.h"
#include "tools/import/step_read.h"
#include "tools/import/usage.h"
#include "tools/outfile.h"

#include <BRepGProp.hxx>
#include <GProp_GProps.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <Message_Printer.hxx>
#include <Standard_Failure.hxx>
#include <Standard_OutOfMemory.hxx>

#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cerrno>
#include <csignal>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const double SCALE = 0.001;  // OCCT's session unit is the millimetre
const double DEFAULT_DEFLECTION = IMPORT_DEFLECTION;

struct Options {
  std::string in, out;
  double deflection = DEFAULT_DEFLECTION;  // metres
  double density = 0;                      // kg/m^3; 0: none written
  double max_triangles = GUARD_MAX_TRIANGLES;
  bool deflection_given = false;  // else the default, made finer for parts below 1 cm
  bool exact_only = false, mesh_only = false;
};

void usage(FILE *f) {
  std::fputs(IMPORT_USAGE, f);
}

int usage_error(const std::string &msg) {
  std::fprintf(stderr, "vxc import: %s\nTry 'vxc import --help'.\n", msg.c_str());
  return 2;
}

int parse(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    } else if (a == "-o" || a == "--deflection" || a == "--density" || a == "--max-triangles") {
      if (i + 1 >= argc) {
        return usage_error("option '" + a + "' needs a value");
      }
      const char *v = argv[++i];
      if (a == "-o") {
        o.out = v;
        continue;
      }
      char *end;
      double x = std::strtod(v, &end);
      if (*v == '\0' || *end != '\0' || !std::isfinite(x) || x <= 0) {
        return usage_error(a + " needs a positive number (" +
                           (a == "--density"         ? "kg/m^3"
                            : a == "--max-triangles" ? "a count"
                                                     : "metres") +
                           "), not '" + v + "'");
      }
      (a == "--density" ? o.density : a == "--max-triangles" ? o.max_triangles : o.deflection) = x;
      o.deflection_given = o.deflection_given || a == "--deflection";
    } else if (a == "--exact" || a == "--mesh") {
      (a == "--exact" ? o.exact_only : o.mesh_only) = true;
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else if (o.in.empty()) {
      o.in = a;
    } else {
      return usage_error("one STEP file at a time ('" + a + "' is a second)");
    }
  }
  if (o.exact_only && o.mesh_only) {
    return usage_error("--exact and --mesh exclude each other");
  }
  if (o.in.empty()) {
    return usage_error("no STEP file given");
  }
  if (o.out.empty()) {
    size_t dot = o.in.find_last_of('.'), slash = o.in.find_last_of('/');
    bool ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
    o.out = (ext ? o.in.substr(0, dot) : o.in) + ".vxm";
  }
  return -1;
}

std::string dir_of(const std::string &p) {
  size_t s = p.find_last_of('/');
  return s == std::string::npos ? "" : p.substr(0, s + 1);
}

std::string base_of(const std::string &p) {
  return p.substr(dir_of(p).size());
}

std::string stem_of(const std::string &p) {
  std::string b = base_of(p);
  size_t dot = b.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? b : b.substr(0, dot);
}

// a name as the model grammar takes it: bare when it can be, quoted otherwise
std::string vxm_name(std::string n) {
  bool bare = !n.empty();
  for (char &c : n) {
    if (c == '"' || c == '\\' || (unsigned char)c < 32) {
      c = '_';
    }
    bare = bare && (std::isalnum((unsigned char)c) || std::strchr("_-.+", c));
  }
  return bare ? n : "\"" + n + "\"";
}

struct Outcome {
  std::string name, became, why;
  int cells = 0;
  double v_exact = NAN, v_mesh = NAN, v_occt = NAN;
  std::string text;  // the cells in model grammar
};

double occt_volume(const TopoDS_Solid &s, double &rel_err) {
  GProp_GProps g;
  rel_err = BRepGProp::VolumeProperties(s, g, 1e-10);
  return g.Mass();
}

void import_solid(const StepSolid &ss, const Options &o, Outcome &r) {
  r.name = ss.name;
  double size = guard_size(ss.solid, o.in, ss.name), defl = o.deflection / SCALE;
  if (!o.deflection_given) {
    defl = std::min(defl, size / 100);
  }
  guard_tessellation(ss.solid, defl, size, o.max_triangles, o.in, ss.name);
  double err;
  double k3 = SCALE * SCALE * SCALE;
  r.v_occt = occt_volume(ss.solid, err) * k3;
  TriMesh m;
  try {
    m = mesh_solid(ss.solid, defl);
  } catch (const std::runtime_error &e) {
    throw std::runtime_error(o.in + ": solid " + ss.name + ": " + e.what());
  }
  r.v_mesh = mesh_volume(m) * k3;
  if (!o.mesh_only) {
    ExactResult ex = exact_cells(ss.solid, SCALE);
    if (ex.ok) {
      double v = 0;
      for (const ExactCell &c : ex.cells) {
        v += c.volume;
      }
      double tol = std::max(1e-7, 4 * err);
      if (std::fabs(v - r.v_occt) <= tol * std::fabs(r.v_occt)) {
        r.became = "exact";
        r.why = ex.why;
        r.v_exact = v;
        r.cells = (int)ex.cells.size();
        for (size_t i = 0; i < ex.cells.size(); i++) {
          std::string n = ex.cells.size() == 1 ? ss.name : ss.name + "-" + std::to_string(i + 1);
          r.text += "  (cell " + vxm_name(n) + " " + ex.cells[i].shapes + ")\n";
        }
        return;
      }
      char b[200];
      std::snprintf(b, sizeof b, "cells of volume %.12g m^3 disagree with OCCT's %.12g m^3", v,
                    r.v_occt);
      r.why = b;
      r.v_exact = v;
    } else {
      r.why = ex.why;
    }
  } else {
    r.why = "--mesh";
  }
  r.became = "mesh";
  r.cells = 1;
  guard_mesh(m, SCALE, o.in, ss.name);
  std::string file =
      (stem_of(o.out) == ss.name ? ss.name : stem_of(o.out) + "-" + ss.name) + ".obj";
  for (char &c : file) {
    if (!(std::isalnum((unsigned char)c) || std::strchr("_-.+", c))) {
      c = '_';
    }
  }
  std::string path = dir_of(o.out) + file;
  char note[200];
  std::snprintf(note, sizeof note,
                "%s: solid %s tessellated by OpenCASCADE, deflection %g m, millimetres",
                base_of(o.in).c_str(), ss.name.c_str(), defl * SCALE);
  if (!mesh_write_obj(m, path, note)) {
    throw std::runtime_error(path + ": the mesh file was not written");
  }
  r.text = "  (cell " + vxm_name(ss.name) + " (mesh \"" + file + "\" (scale 0.001)))\n";
}

void report(const std::vector<Outcome> &rs) {
  std::printf("%-16s %-6s %5s  %-22s %-22s %-22s %s\n", "solid", "became", "cells",
              "exact cells [m^3]", "mesh [m^3]", "OCCT [m^3]", "why");
  for (const Outcome &r : rs) {
    auto v = [](double x) {
      char b[40];
      std::snprintf(b, sizeof b, std::isnan(x) ? "-" : "%.15e", x);
      return std::string(b);
    };
    std::printf("%-16s %-6s %5d  %-22s %-22s %-22s %s\n", r.name.c_str(), r.became.c_str(), r.cells,
                v(r.v_exact).c_str(), v(r.v_mesh).c_str(), v(r.v_occt).c_str(), r.why.c_str());
  }
}

int run(const Options &o) {
  StepFile f = step_read(o.in);
  std::vector<Outcome> rs(f.solids.size());
  std::string body;
  int not_exact = 0;
  for (size_t i = 0; i < f.solids.size(); i++) {
    import_solid(f.solids[i], o, rs[i]);
    body += rs[i].text;
    not_exact += rs[i].became != "exact";
  }
  std::printf("%s: %zu solid%s, unit %s (written in metres)\n", o.in.c_str(), f.solids.size(),
              f.solids.size() == 1 ? "" : "s", f.unit.c_str());
  report(rs);
  if (o.exact_only && not_exact) {
    std::fprintf(
        stderr,
        "vxc import: %s: %d solid%s cannot become exact cells (see 'why'); nothing written\n",
        o.in.c_str(), not_exact, not_exact == 1 ? "" : "s");
    return 1;
  }
  tools_file mf;
  if (tools_file_open(&mf, "vxc import", o.out.c_str(), TOOLS_FILE_ATOMIC) != 0) {
    throw std::runtime_error(o.out + ": the model file was not written");
  }
  FILE *out = mf.f;
  std::fprintf(out,
               "; %s: imported from %s by vxc import (unit %s, written in metres)\n(solid %s\n",
               stem_of(o.out).c_str(), base_of(o.in).c_str(), f.unit.c_str(),
               vxm_name(stem_of(o.out)).c_str());
  if (o.density > 0) {
    std::fprintf(out, "  (density %.17g)\n", o.density);
  }
  std::fprintf(out, "%s)\n", body.substr(0, body.size() - 1).c_str());
  if (tools_file_finish(&mf) != 0 || !outputs_commit(&mf)) {
    throw std::runtime_error(o.out + ": the model file was not written (nor its meshes)");
  }
  std::printf("wrote %s\n", o.out.c_str());
  return 0;
}

// The file being imported, for the last-resort report below.
std::string g_input;

// An exception that meets a noexcept boundary inside OpenCASCADE (its mesher's parallel
// loops) ends in std::terminate: report it with the file named and exit 1, not abort.
[[noreturn]] void on_terminate() {
  const char *what = "an uncaught exception";
  try {
    std::exception_ptr e = std::current_exception();
    if (e) {
      std::rethrow_exception(e);
    }
  } catch (const std::bad_alloc &) {
    what = "out of memory";
  } catch (const Standard_OutOfMemory &) {
    what = "out of memory (OpenCASCADE)";
  } catch (const Standard_Failure &e) {
    what = e.GetMessageString();
  } catch (const std::exception &e) {
    what = e.what();
  } catch (...) {
  }
  std::fprintf(stderr, "vxc import: %s: OpenCASCADE failed: %s\n", g_input.c_str(), what);
  std::fflush(stderr);
  std::_Exit(1);
}

}  // namespace

// The whole command, for main below and for the STEP fuzz driver (fuzz_step.cc), which
// builds this file with VXC_IMPORT_NO_MAIN and calls it in a forked child per input.
namespace {
int contained(const Options &o);
}

int vxc_import_main(int argc, char **argv) {
  Options o;
  int st = parse(argc, argv, o);
  if (st >= 0) {
    return st;
  }
  return contained(o);
}

namespace {

int run_caught(const Options &o) {
  Message::DefaultMessenger()->RemovePrinters(STANDARD_TYPE(Message_Printer));
  g_input = o.in;
  std::set_terminate(on_terminate);
  try {
    int rc = run(o);
    outputs_discard();  // what --exact refused, or nothing
    return tools_stdout_check("vxc import") != 0 ? 1 : rc;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "vxc import: %s: out of memory\n", o.in.c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "vxc import: %s\n", e.what());
  } catch (const Standard_OutOfMemory &) {
    std::fprintf(stderr, "vxc import: %s: out of memory (OpenCASCADE)\n", o.in.c_str());
  } catch (const Standard_Failure &e) {
    std::fprintf(stderr, "vxc import: %s: OpenCASCADE failed: %s: %s\n", o.in.c_str(),
                 e.DynamicType()->Name(), e.GetMessageString());
  } catch (...) {
    std::fprintf(stderr, "vxc import: %s: OpenCASCADE failed (unknown exception)\n",
                 o.in.c_str());
  }
  outputs_discard();
  return 1;
}

// OpenCASCADE's STEP transfer trusts what it reads: a point with two coordinates where a
// vertex needs three, an edge that names itself (recursing until the stack ends), a list
// item of the wrong type. The import runs in a child process so that such a crash ends
// only the child, and the parent reports it with the file named, exit status 1.
int contained(const Options &o) {
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    return run_caught(o); // no process to spare: unguarded
  }
  if (pid == 0) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); // not left running when the parent is killed
#endif
    int st = run_caught(o);
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(st);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    return WEXITSTATUS(status);
  }
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  std::fprintf(stderr,
               "vxc import: %s: OpenCASCADE crashed (signal %d, %s) on this file; it is "
               "damaged or beyond what OCCT reads\n",
               o.in.c_str(), sig, strsignal(sig));
  return 1;
}

}  // namespace

#ifndef VXC_IMPORT_NO_MAIN
int main(int argc, char **argv) {
  return vxc_import_main(argc, argv);
}
#endif
