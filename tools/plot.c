/* plot.c: the gnuplot scripts the tools write (plot.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/plot.h"

/* The first colours: dark and saturated enough on white, told apart by hue (no yellow). */
static const char *const COLOURS[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                      "#000000", "#e69f00", "#56b4e9", "#8c564b",
                                      "#7f7f7f", "#9467bd", "#808000", "#e41a1c"};
#define NCOLOUR ((int)(sizeof COLOURS / sizeof *COLOURS))


const char *plot_colour(int i, char buf[8]) {
  if (i < NCOLOUR) {
    memcpy(buf, COLOURS[i], 8);
    return buf;
  }
  /* hue by the golden angle from the fixed set on, saturation 0.9, value 0.7 */
  double h = fmod(0.61803398874989485 * (i - NCOLOUR), 1.0) * 6, v = 0.7, s = 0.9;
  int k = (int)h;
  double f = h - k, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
  snprintf(buf, 8, "#%02x%02x%02x", (int)(255 * rgb[k % 6][0]), (int)(255 * rgb[k % 6][1]),
           (int)(255 * rgb[k % 6][2]));
  return buf;
}


/* s as a gnuplot string in single quotes ('' for a quote). */
static void put_str(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'') {
      fputc('\'', f);
    }
    fputc(*s, f);
  }
  fputc('\'', f);
}


void plot_head(FILE *f, int w, int h) {
  fprintf(f,
          "set terminal pngcairo size %d,%d noenhanced\nset datafile separator ','\n"
          "set grid\nset key outside right\n"
          "# a range's margin: 5%% of its span, or of a constant series 1%% of its value (or 1)\n"
          "margin(lo, hi) = hi > lo ? 0.05 * (hi - lo) : (abs(lo) > 0 ? 0.01 * abs(lo) : 1)\n",
          w, h);
}


void plot_begin(tools_plot *p, FILE *f, const char *png, const char *title, const char *xlabel,
                const char *ylabel) {
  memset(p, 0, sizeof *p);
  p->f = f;
  if (png) {
    fprintf(f, "set output ");
    put_str(f, png);
    fprintf(f, "\n");
  }
  fprintf(f, "set title ");
  put_str(f, title);
  fprintf(f, "\nset xlabel ");
  put_str(f, xlabel);
  fprintf(f, "\nset ylabel ");
  put_str(f, ylabel);
  fprintf(f, "\n");
}


static char *dup(const char *s) {
  char *d = malloc(strlen(s) + 1);
  return d ? strcpy(d, s) : NULL;
}


void plot_add(tools_plot *p, const char *file, const char *x, const char *y, const char *title) {
  if (p->n == p->cap) {
    int cap = p->cap ? 2 * p->cap : 16;
    plot_curve *c = realloc(p->c, (size_t)cap * sizeof *c);
    if (!c) {
      p->nomem = 1;
      return;
    }
    p->c = c;
    p->cap = cap;
  }
  plot_curve *c = &p->c[p->n];
  *c = (plot_curve){dup(file), dup(x), dup(y), dup(title)};
  if (!c->file || !c->x || !c->y || !c->title) {
    free(c->file);
    free(c->x);
    free(c->y);
    free(c->title);
    p->nomem = 1;
    return;
  }
  p->n++;
}


/* stats of the expression e over file into the range lo..hi (gnuplot variables), widened.
 * One column at a time: two columns of two points make gnuplot warn of its regression. */
static void widen(FILE *f, const char *file, const char *e, const char *lo, const char *hi) {
  fprintf(f, "undefine STATS_*\nstats ");
  put_str(f, file);
  fprintf(f,
          " using (%s) nooutput\nif (exists('STATS_min')) { %s = STATS_min < %s ? STATS_min : "
          "%s; %s = STATS_max > %s ? STATS_max : %s }\n",
          e, lo, lo, lo, hi, hi, hi);
}


int plot_end(tools_plot *p) {
  FILE *f = p->f;
  /* stats counts only the points inside the ranges set: none set while it runs */
  fprintf(f, "set autoscale xy\nxlo = 1e308; xhi = -1e308; ylo = 1e308; yhi = -1e308\n");
  for (int i = 0; i < p->n; i++) {
    widen(f, p->c[i].file, p->c[i].x, "xlo", "xhi");
    widen(f, p->c[i].file, p->c[i].y, "ylo", "yhi");
  }
  /* x exactly over the data (widened only when it is one value), y with margins */
  fprintf(f,
          "if (xhi > xlo) { set xrange [xlo:xhi] } else { if (xhi == xlo) { set xrange [xlo - "
          "margin(xlo, xhi):xhi + margin(xlo, xhi)] } else { set xrange [0:1] } }\n"
          "if (yhi >= ylo) { set yrange [ylo - margin(ylo, yhi):yhi + margin(ylo, yhi)] } else "
          "{ set yrange [-1:1] }\nplot ");
  for (int i = 0; i < p->n; i++) {
    const plot_curve *c = &p->c[i];
    char col[8];
    fprintf(f, "%s", i ? ", \\\n  " : "");
    put_str(f, c->file);
    fprintf(f, " using (%s):(%s) with lines lw 1.5 lc rgb '%s' title ", c->x, c->y,
            plot_colour(i, col));
    put_str(f, c->title);
    free(c->file);
    free(c->x);
    free(c->y);
    free(c->title);
  }
  if (p->n == 0) {
    fprintf(f, "0 with lines lc rgb '%s' title 'nothing to plot'", COLOURS[0]);
  }
  fprintf(f, "\n");
  free(p->c);
  int rc = p->nomem ? -1 : 0;
  memset(p, 0, sizeof *p);
  return rc;
}


void plot_range_of(FILE *f, const char *file, const char *expr, const char *lo, const char *hi) {
  fprintf(f, "set autoscale\n%s = 1e308; %s = -1e308\n", lo, hi);
  widen(f, file, expr, lo, hi);
  fprintf(f,
          "if (%s > %s) { %s = 0; %s = 1 } else { if (%s == %s) { plot_m = margin(%s, %s); "
          "%s = %s - plot_m; %s = %s + plot_m } }\n",
          lo, hi, lo, hi, lo, hi, lo, hi, lo, lo, hi, hi);
}


/* Units by a name's last path element (sweep axes and outputs). */
static const char *const UNITS[][2] = {
    {"x", "m"},          {"y", "m"},         {"z", "m"},          {"qw", "1"},
    {"qx", "1"},         {"qy", "1"},        {"qz", "1"},         {"rx-deg", "degrees"},
    {"ry-deg", "degrees"}, {"rz-deg", "degrees"}, {"vx", "m/s"},  {"vy", "m/s"},
    {"vz", "m/s"},       {"wx", "rad/s"},    {"wy", "rad/s"},     {"wz", "rad/s"},
    {"t", "s"},          {"mass", "kg"},     {"ixx", "kg m^2"},   {"iyy", "kg m^2"},
    {"izz", "kg m^2"},   {"ixy", "kg m^2"},  {"ixz", "kg m^2"},   {"iyz", "kg m^2"},
    {"k", "N/m"},        {"kr", "N m/rad"},  {"c", "N s/m"},      {"cr", "N m s/rad"},
    {"k_v", "N/m^3"},    {"e_eff", "1"},     {"v_small", "m/s"},  {"tau_r", "s"},
    {"mu_s", "1"},       {"mu_c", "1"},      {"sigma0", "1/m"},   {"sigma1", "s/m"},
    {"sigma2", "s/m"},   {"v_s", "m/s"},     {"tau_dw", "s"},     {"v_e", "m/s"},
    {"eta_r", "m"},      {"voxel", "m"},     {"rtol", "1"},       {"atol", "m^3"},
    {"duration", "s"},   {"every", "s"},     {"step", "s"},       {"max-step", "s"},
    {"peak_fn", "N"},    {"peak_ft", "N"},   {"peak_troll", "N m"}, {"peak_tspin", "N m"},
    {"first_contact", "s"}, {"impacts", "count"}, {"t_end", "s"},  {"steps", "count"},
    {"queries", "count"}, {"capped_queries", "count"}, {"energy_error", "J"},
    {"depth", "m"},      {"inserted", "0 or 1: went in"}, {"wall_s", "s"}};


const char *plot_unit(const char *name) {
  const char *dot = strrchr(name, '.');
  const char *last = dot ? dot + 1 : name;
  for (size_t i = 0; i < sizeof UNITS / sizeof *UNITS; i++) {
    if (strcmp(last, UNITS[i][0]) == 0) {
      return UNITS[i][1];
    }
  }
  return NULL;
}


const char *plot_label(const char *name, char *buf, size_t size) {
  const char *u = plot_unit(name);
  if (u) {
    snprintf(buf, size, "%s [%s]", name, u);
  } else {
    snprintf(buf, size, "%s", name);
  }
  return buf;
}
