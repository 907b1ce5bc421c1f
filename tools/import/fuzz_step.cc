// fuzz_step.cc: vxc-fuzz-step, a mutation fuzzer of vxc import (tools/fuzz step runs it).
// Each input is a seed STEP part (data/step/) changed by one to four STEP-aware mutations
// (a number scaled, negated, zeroed or made huge; a unit prefix swapped; an entity
// reference redirected; a line deleted, duplicated or taken from another seed; a byte
// flipped; the file cut short). The import runs in a forked child (the parent has loaded
// OpenCASCADE once) under a 1 GB address-space limit and 10 s of CPU, and an exit-0 import
// must have written a model that vxc reads back. Findings, each saved in the work folder's
// artifacts/: a crash (a signal), a timeout, an input that reached the memory limit (its
// import ran out of memory), a refusal whose message does not name the file, a model
// written that vxc rejects, any other exit status.
#include "lib/vxc.h"

#include <STEPControl_Reader.hxx>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

int vxc_import_main(int argc, char **argv);

namespace {

const rlim_t MEMORY = (rlim_t)1 << 30;  // bytes of address space per input
const rlim_t CPU_SECONDS = 10;
const int WALL_SECONDS = 30;  // a child blocked rather than computing
// the triangle budget given to vxc import: OCCT makes about 1e4 triangles a second, so the
// default budget (1e6) lets a legitimate large part run for minutes
const char *TRIANGLES = "5e4";

struct Config {
  std::string work = "/tmp/vxc-fuzz/step";
  long count = 1000;
  double seconds = 0;  // 0: no time limit
  unsigned seed = 1;
  std::vector<std::string> seeds;
};

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// ---- mutations ---------------------------------------------------------------------------

struct Mutator {
  std::mt19937_64 rng;
  const std::vector<std::string> *seeds;

  size_t pick(size_t n) { return n ? std::uniform_int_distribution<size_t>(0, n - 1)(rng) : 0; }

  // [begin, end) of the numbers in s after the DATA; section (not inside #ids)
  std::vector<std::pair<size_t, size_t>> numbers(const std::string &s) {
    std::vector<std::pair<size_t, size_t>> out;
    size_t i = s.find("DATA;");
    i = i == std::string::npos ? 0 : i;
    while (i < s.size()) {
      char c = s[i];
      bool start = (std::isdigit((unsigned char)c) || ((c == '-' || c == '.') && i + 1 < s.size() &&
                                                       std::isdigit((unsigned char)s[i + 1])));
      if (start && i > 0 && (s[i - 1] == '#' || std::isalnum((unsigned char)s[i - 1]))) {
        do {
          i++;
        } while (i < s.size() && std::isalnum((unsigned char)s[i]));
        continue;
      }
      if (start) {
        size_t b = i++;
        while (i < s.size() && (std::isdigit((unsigned char)s[i]) || std::strchr(".Ee+-", s[i]))) {
          i++;
        }
        out.push_back({b, i});
      } else {
        i++;
      }
    }
    return out;
  }

  std::string number_like(const std::string &old) {
    double x = std::strtod(old.c_str(), nullptr);
    char b[64];
    switch (pick(8)) {
    case 0:
      std::snprintf(b, sizeof b, "%.6E", x * std::pow(10.0, (double)((int)pick(41) - 20)));
      break;
    case 1:
      std::snprintf(b, sizeof b, "%.6E", -x);
      break;
    case 2:
      return "0.";
    case 3:
      return pick(2) ? "1.E+308" : "1.E-308";
    case 4:
      return pick(2) ? "1.E+999" : "-1.E+999";
    case 5:
      std::snprintf(b, sizeof b, "%.6E", x * (1 + 1e-3 * ((double)pick(2001) - 1000)));
      break;
    case 6:
      std::snprintf(b, sizeof b, "%d", (int)pick(100000));
      break;
    default:
      std::snprintf(b, sizeof b, "%.6E", x + 1e-9);
      break;
    }
    return b;
  }

  std::vector<std::string> lines(const std::string &s) {
    std::vector<std::string> v;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) {
      v.push_back(l + "\n");
    }
    return v;
  }

  static std::string join(const std::vector<std::string> &v) {
    std::string s;
    for (const auto &l : v) {
      s += l;
    }
    return s;
  }

  void mutate_once(std::string &s) {
    static const char *prefixes[] = {".EXA.",  ".PETA.", ".TERA.",  ".GIGA.",  ".MEGA.", ".KILO.",
                                     ".HECTO.", ".DECA.", ".DECI.",  ".CENTI.", ".MILLI.",
                                     ".MICRO.", ".NANO.", ".PICO.",  ".FEMTO.", ".ATTO.", "$"};
    switch (pick(10)) {
    case 0:
    case 1:
    case 2: {  // a number
      auto ns = numbers(s);
      if (!ns.empty()) {
        auto r = ns[pick(ns.size())];
        s.replace(r.first, r.second - r.first, number_like(s.substr(r.first, r.second - r.first)));
      }
      break;
    }
    case 3: {  // the length unit's prefix
      size_t i = s.find("SI_UNIT(");
      while (i != std::string::npos && pick(3) == 0) {
        i = s.find("SI_UNIT(", i + 1);
      }
      if (i != std::string::npos) {
        size_t b = i + 8, e = s.find(',', b);
        if (e != std::string::npos && e - b < 12) {
          s.replace(b, e - b, prefixes[pick(sizeof prefixes / sizeof *prefixes)]);
        }
      }
      break;
    }
    case 4: {  // a reference redirected
      std::vector<size_t> refs;
      for (size_t i = s.find("DATA;"); i != std::string::npos && i < s.size(); i++) {
        if (s[i] == '#' && i > 0 && s[i - 1] != '\n') {
          refs.push_back(i);
        }
      }
      if (!refs.empty()) {
        size_t i = refs[pick(refs.size())] + 1, e = i;
        while (e < s.size() && std::isdigit((unsigned char)s[e])) {
          e++;
        }
        s.replace(i, e - i, std::to_string(1 + pick(600)));
      }
      break;
    }
    case 5:
    case 6: {  // a line deleted or duplicated
      auto v = lines(s);
      if (v.size() > 2) {
        size_t k = 1 + pick(v.size() - 2);
        if (pick(2)) {
          v.erase(v.begin() + (long)k);
        } else {
          v.insert(v.begin() + (long)k, v[k]);
        }
        s = join(v);
      }
      break;
    }
    case 7: {  // a line of another seed
      const std::string &o = (*seeds)[pick(seeds->size())];
      auto v = lines(s), w = lines(o);
      if (v.size() > 2 && w.size() > 2) {
        v.insert(v.begin() + (long)(1 + pick(v.size() - 2)), w[1 + pick(w.size() - 2)]);
        s = join(v);
      }
      break;
    }
    case 8: {  // a byte
      if (!s.empty()) {
        size_t i = pick(s.size());
        s[i] = pick(2) ? (char)(s[i] ^ (1 << pick(8))) : "();,.'#=$*-0123456789E"[pick(22)];
      }
      break;
    }
    default:  // cut short (the trailer check), rarely
      if (pick(8) == 0 && s.size() > 16) {
        s.resize(pick(s.size()));
      } else {
        auto ns = numbers(s);
        if (!ns.empty()) {
          auto r = ns[pick(ns.size())];
          s.replace(r.first, r.second - r.first, number_like(s.substr(r.first, r.second - r.first)));
        }
      }
      break;
    }
  }
};

// ---- one input in a child ----------------------------------------------------------------

enum Verdict { OK, REFUSED, CONTAINED, CRASH, TIMEOUT, OOM, UNNAMED, BADMODEL, BADEXIT, NVERDICT };
const char *verdict_name[] = {"ok",  "refused", "contained", "crash",   "timeout",
                              "oom", "unnamed", "badmodel",  "badexit"};

[[noreturn]] void child(const std::string &in, const std::string &out, const std::string &err) {
  struct rlimit as = {MEMORY, MEMORY}, cpu = {CPU_SECONDS, CPU_SECONDS + 1};
  setrlimit(RLIMIT_AS, &as);
  setrlimit(RLIMIT_CPU, &cpu);
  int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int nul = open("/dev/null", O_WRONLY);
  if (fd < 0 || nul < 0) {
    _exit(70);
  }
  dup2(fd, 2);
  dup2(nul, 1);
  std::vector<std::string> args = {"vxc-import", in, "-o", out, "--max-triangles", TRIANGLES};
  std::vector<char *> argv;
  for (auto &a : args) {
    argv.push_back(&a[0]);
  }
  argv.push_back(nullptr);
  int st = vxc_import_main((int)args.size(), argv.data());
  std::fflush(stdout);
  std::fflush(stderr);
  if (st == 0) {
    vxc_solid *s = nullptr;
    vxc_error e;
    if (vxc_solid_load(out.c_str(), nullptr, &s, &e) != VXC_OK) {
      std::fprintf(stderr, "fuzz: written model rejected: %s\n", e.message);
      std::fflush(stderr);
      _exit(71);
    }
    vxc_solid_free(s);
  }
  _exit(st);
}

Verdict run_one(const Config &c, const std::string &in, double *cpu) {
  std::string out = c.work + "/out/model.vxm", err = c.work + "/out/stderr";
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fuzz: fork");
    std::exit(2);
  }
  if (pid == 0) {
    child(in, out, err);
  }
  int status = 0;
  struct rusage ru;
  for (int waited = 0;; waited++) {
    pid_t w = wait4(pid, &status, WNOHANG, &ru);
    if (w == pid) {
      break;
    }
    if (waited > WALL_SECONDS * 100) {
      kill(pid, SIGKILL);
    }
    usleep(10000);
  }
  *cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    return sig == SIGXCPU || sig == SIGKILL ? TIMEOUT : CRASH;
  }
  int code = WEXITSTATUS(status);
  std::string msg = slurp(err);
  if (code == 0) {
    return OK;
  }
  if (code == 71) {
    return BADMODEL;
  }
  if (code != 1) {
    return BADEXIT;
  }
  if (msg.find(": out of memory") != std::string::npos) {
    return OOM;
  }
  size_t k = msg.find("OpenCASCADE crashed (signal ");
  if (k != std::string::npos) {  // the import's own child died: a crash it contained
    int sig = std::atoi(msg.c_str() + k + std::strlen("OpenCASCADE crashed (signal "));
    return sig == SIGXCPU || sig == SIGKILL ? TIMEOUT : CONTAINED;
  }
  return msg.find(in) == std::string::npos ? UNNAMED : REFUSED;
}

int usage() {
  std::fprintf(stderr,
               "usage: vxc-fuzz-step [-n COUNT] [-t SECONDS] [-s SEED] [-w WORKDIR] SEED.step...\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  Config c;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i += 2) {
    if (i + 1 >= argc) {
      return usage();
    }
    std::string a = argv[i], v = argv[i + 1];
    if (a == "-n") {
      c.count = std::atol(v.c_str());
    } else if (a == "-t") {
      c.seconds = std::atof(v.c_str());
    } else if (a == "-s") {
      c.seed = (unsigned)std::atol(v.c_str());
    } else if (a == "-w") {
      c.work = v;
    } else {
      return usage();
    }
  }
  std::vector<std::string> seeds;
  for (; i < argc; i++) {
    seeds.push_back(slurp(argv[i]));
  }
  if (seeds.empty()) {
    return usage();
  }
  std::string mk = "mkdir -p '" + c.work + "/out' '" + c.work + "/artifacts'";
  if (std::system(mk.c_str()) != 0) {
    return 2;
  }
  { STEPControl_Reader warm; }  // OCCT's STEP protocol set up once, before the forks
  Mutator m{std::mt19937_64(c.seed), &seeds};
  long counts[NVERDICT] = {0};
  double cpu_total = 0, cpu_max = 0;
  struct timeval t0, t;
  gettimeofday(&t0, nullptr);
  std::string in = c.work + "/out/input.step";
  long n = 0, findings = 0;
  for (; n < c.count; n++) {
    gettimeofday(&t, nullptr);
    double el = (double)(t.tv_sec - t0.tv_sec) + 1e-6 * (double)(t.tv_usec - t0.tv_usec);
    if (c.seconds > 0 && el > c.seconds) {
      break;
    }
    std::string s = seeds[m.pick(seeds.size())];
    for (size_t k = 0, nm = 1 + m.pick(4); k < nm; k++) {
      m.mutate_once(s);
    }
    std::ofstream(in, std::ios::binary) << s;
    double cpu;
    Verdict v = run_one(c, in, &cpu);
    counts[v]++;
    cpu_total += cpu;
    cpu_max = std::max(cpu_max, cpu);
    if (v != OK && v != REFUSED) {  // contained crashes too: each wants a guard
      findings++;
      std::string a = c.work + "/artifacts/" + verdict_name[v] + "-" + std::to_string(n) + ".step";
      std::ofstream(a, std::ios::binary) << s;
      std::fprintf(stderr, "fuzz: input %ld: %s (%.2f s CPU), saved %s\n", n, verdict_name[v],
                   cpu, a.c_str());
    }
    if ((n + 1) % 1000 == 0) {
      std::fprintf(stderr, "fuzz: %ld inputs, %.1f s, %.1f per second, %ld findings\n", n + 1, el,
                   (double)(n + 1) / el, findings);
    }
  }
  gettimeofday(&t, nullptr);
  double el = (double)(t.tv_sec - t0.tv_sec) + 1e-6 * (double)(t.tv_usec - t0.tv_usec);
  std::printf("fuzz: %ld inputs in %.0f s (%.1f per second), child CPU %.3f s mean, %.2f s max\n", n,
              el, (double)n / el, n ? cpu_total / (double)n : 0.0, cpu_max);
  for (int k = 0; k < NVERDICT; k++) {
    std::printf("  %-9s %ld\n", verdict_name[k], counts[k]);
  }
  return findings ? 1 : 0;
}
