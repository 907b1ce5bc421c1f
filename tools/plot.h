/* plot.h: the gnuplot scripts the tools write (vxc task, sweep, belt; vxc-mujoco).
 *
 * Every plot has a title, axis labels of one unit each and a key; each curve has its own
 * colour (dark enough to read on white) and a title; the axes' ranges come from the data
 * (gnuplot's `stats` over every curve, then the y range widened by 5% of its span, or by 1%
 * of the value, or 1, when a series is constant), so that nothing sits clipped on the
 * border and gnuplot never warns of an empty range. */
#ifndef VXC_TOOLS_PLOT_H
#define VXC_TOOLS_PLOT_H

#include <stdio.h>

/* The script's head: a PNG terminal of w x h pixels, comma-separated data, a grid, the key
 * outside on the right. */
void plot_head(FILE *f, int w, int h);

/* A plot being written: its curves, emitted by plot_end. */
typedef struct plot_curve {
  char *file, *x, *y, *title; /* the data file, gnuplot expressions of x and y, the key */
} plot_curve;
typedef struct tools_plot {
  FILE *f;
  plot_curve *c;
  int n, cap;
  int nomem; /* a curve could not be kept (plot_end returns -1) */
} tools_plot;

/* Starts a plot into `png` (NULL: the next panel of a multiplot) with its title and axis
 * labels (each naming one unit, "t [s]"). */
void plot_begin(tools_plot *p, FILE *f, const char *png, const char *title, const char *xlabel,
                const char *ylabel);
/* Adds a curve: `x` and `y` gnuplot expressions of the columns of `file` ("column('t')"),
 * titled `title` in the key. */
void plot_add(tools_plot *p, const char *file, const char *x, const char *y, const char *title);
/* Writes the ranges (from the curves' data) and the plot command, curve i in colour i, and
 * forgets the curves. A plot with no curve says "nothing to plot". Returns 0, or -1 when
 * out of memory (a curve was left out). */
int plot_end(tools_plot *p);

/* Colour i of a plot ("#rrggbb"), distinct for every i: a fixed set of 12, then hues
 * spaced by the golden angle. */
const char *plot_colour(int i, char buf[8]);

/* Sets gnuplot's variables lo and hi (named by `lo`, `hi`) to the range of the expression
 * `expr` over `file`, with margins as above (for a colour box or an axis of a map). */
void plot_range_of(FILE *f, const char *file, const char *expr, const char *lo, const char *hi);

/* The SI unit of a sweep's varied number or output, from its last path element ("m" for
 * peg.pose.x, "N" for peak_fn, "1" for a ratio such as mu_c), or NULL when unknown. */
const char *plot_unit(const char *name);
/* "NAME [UNIT]" into buf (NAME alone when the unit is unknown). */
const char *plot_label(const char *name, char *buf, size_t size);

#endif /* VXC_TOOLS_PLOT_H */
