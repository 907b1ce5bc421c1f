/* series.c: the rows of series.csv (series.h), for `vxc task` and vxc-mujoco. */
#include <errno.h>

#include "tools/cli.h"
#include "tools/series.h"

void series_header(FILE *f, const series_layout *l) {
  static const char *bcol[] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                               "vx", "vy", "vz", "wx", "wy", "wz"};
  static const char *ccol[] = {"V", "fn", "ft", "troll", "tspin"};
  static const char *xcol[] = {"nx", "ny", "nz", "Fx",    "Fy",  "Fz",
                               "Tx", "Ty", "Tz", "stick", "sdw", "npairs"};
  fprintf(f, "t");
  for (int i = 0; i < l->nbody; i++) {
    for (int j = 0; j < 13; j++) {
      fprintf(f, ",%s.%s", l->body[i], bcol[j]);
    }
  }
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < l->ncontact; i++) {
      const char *a = l->body[l->pair[2 * i]], *b = l->body[l->pair[2 * i + 1]];
      int n = pass ? 12 : 5;
      for (int j = 0; j < n; j++) {
        fprintf(f, ",%s~%s.%s", a, b, pass ? xcol[j] : ccol[j]);
      }
    }
  }
  if (l->energy) {
    fprintf(f, ",E.kinetic,E.potential,E.elastic,E.dissipated,E.work_in,E.error");
  }
  fprintf(f, "\n");
}


int series_row(FILE *f, const series_layout *l, const vxc_task_record *r) {
  fprintf(f, "%.9g", r->t);
  for (int i = 0; i < r->nbody; i++) {
    for (int j = 0; j < 7; j++) {
      fprintf(f, ",%.10g", r->body[i].pose[j]);
    }
    for (int j = 0; j < 6; j++) {
      fprintf(f, ",%.10g", r->body[i].velocity[j]);
    }
  }
  for (int i = 0; i < r->ncontact; i++) {
    const vxc_task_contact_state *c = &r->contact[i];
    fprintf(f, ",%.8g,%.8g,%.8g,%.8g,%.8g", c->volume, c->f_n, c->f_t, c->t_roll, c->t_spin);
  }
  for (int i = 0; i < r->ncontact; i++) {
    const vxc_task_contact_state *c = &r->contact[i];
    fprintf(f, ",%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.6g,%.6g,%d", c->normal[0],
            c->normal[1], c->normal[2], c->force_a[0], c->force_a[1], c->force_a[2], c->torque_a[0],
            c->torque_a[1], c->torque_a[2], c->stick, c->sdw, c->npairs);
  }
  if (l->energy) {
    const vxc_task_energy *e = &r->energy;
    fprintf(f, ",%.10g,%.10g,%.10g,%.10g,%.10g,%.6g", e->kinetic, e->potential, e->elastic,
            e->dissipated, e->work_in, e->error);
  }
  fprintf(f, "\n");
  if (fflush(f) != 0 || ferror(f)) {
    errno = errno ? errno : EIO;
    return -1;
  }
  return 0;
}


void series_json_bodies(FILE *f, const series_layout *l, const vxc_task_body_state *b) {
  fprintf(f, "\"bodies\": {");
  for (int i = 0; i < l->nbody; i++) {
    fprintf(f, "%s", i ? ", " : "");
    cli_json_str(f, l->body[i]);
    fprintf(f, ": {\"pose\": ");
    cli_json_vec(f, b[i].pose, 7);
    fprintf(f, ", \"velocity\": ");
    cli_json_vec(f, b[i].velocity, 6);
    fprintf(f, "}");
  }
  fprintf(f, "}");
}


void series_json_contact(FILE *f, const series_layout *l, int i,
                         const vxc_task_contact_summary *c) {
  fprintf(f, "\"%s~%s\": {\"first\": ", l->body[l->pair[2 * i]], l->body[l->pair[2 * i + 1]]);
  if (c->first >= 0) {
    cli_json_num(f, c->first);
    fprintf(f, ", \"last\": ");
    cli_json_num(f, c->last);
  } else {
    fprintf(f, "null, \"last\": null");
  }
  const double v[4] = {c->peak_fn, c->peak_ft, c->peak_troll, c->peak_tspin};
  static const char *k[4] = {"peak_fn", "peak_ft", "peak_troll", "peak_tspin"};
  for (int j = 0; j < 4; j++) {
    fprintf(f, ", \"%s\": ", k[j]);
    cli_json_num(f, v[j]);
  }
  fprintf(f, ", \"peak_fn_contact\": ");
  cli_json_num(f, c->peak_fn_contact);
  fprintf(f, ", \"impacts\": %d, \"peaks\": [", c->impacts);
  for (int k = 0; k < c->npeak; k++) {
    const vxc_task_contact_peak *p = &c->peak[k];
    fprintf(f, "%s{\"cell_a\": ", k ? ", " : "");
    cli_json_str(f, p->cell_a);
    fprintf(f, ", \"cell_b\": ");
    cli_json_str(f, p->cell_b);
    const char *key[5] = {"first", "last", "t_peak", "peak_fn", "peak_ft"};
    const double val[5] = {p->first, p->last, p->t_peak, p->peak_fn, p->peak_ft};
    for (int j = 0; j < 5; j++) {
      fprintf(f, ", \"%s\": ", key[j]);
      cli_json_num(f, val[j]);
    }
    fprintf(f, ", \"centroid\": ");
    cli_json_vec(f, p->centroid, 3);
    fprintf(f, ", \"normal\": ");
    cli_json_vec(f, p->normal, 3);
    fprintf(f, "}");
  }
  fprintf(f, "]");
}
