/* task_forms.c: the task file's forms (task_forms.h), the table and its look-ups. */
#include <stdio.h>
#include <string.h>

#include "lib/task_forms.h"

static const char *const XYZ[] = {"x", "y", "z"};
static const char *const POSE[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
static const char *const VEL[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
static const char *const KEY[] = {"t", "x", "y", "z", "qw", "qx", "qy", "qz"};
static const char *const INERTIA[] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
static const char *const STIFF[] = {"k", "kr"};
static const char *const DAMP[] = {"c", "cr"};

/* the reader's values for what a file leaves out: a zero gravity and velocity, the
   energy tolerance, an identity quaternion after a position, no products of inertia, no
   angular velocity of a line */
static const double ZERO[6] = {0, 0, 0, 0, 0, 0};
static const double ENERGY_TOL[1] = {1e-2};
static const double POSE_TAIL[7] = {0, 0, 0, 1, 0, 0, 0};
static const double KEY_TAIL[8] = {0, 0, 0, 0, 1, 0, 0, 0};

#define WORDS(in, place, flags, holds) in, place, flags, 0, 0, NULL, NULL, holds
#define NUMBERS(in, flags, min, max, fields, dflt) in, TP_NONE, flags, min, max, fields, dflt, NULL

const task_form vxci_task_forms[TF_COUNT] = {
    [TF_TASK] = {"task", WORDS(TP_ROOT, TP_TASK, 0, "the whole task")},
    [TF_GRAVITY] = {"gravity", NUMBERS(TP_TASK, 0, 3, 3, XYZ, ZERO)},
    [TF_DURATION] = {"duration", NUMBERS(TP_TASK, 0, 1, 1, NULL, NULL)},
    [TF_RECORD] = {"record", WORDS(TP_TASK, TP_RECORD, 0, "forms")},
    [TF_INTEGRATOR] = {"integrator", WORDS(TP_TASK, TP_INTEGRATOR, 0, "a method and forms")},
    [TF_BODY] = {"body", WORDS(TP_TASK, TP_BODY, TFL_MANY, "a body")},
    [TF_CONTACT] = {"contact", WORDS(TP_TASK, TP_CONTACT, TFL_MANY, "a contact")},
    [TF_INITIAL_OVERLAP] = {"initial-overlap", WORDS(TP_TASK, TP_NONE, 0, "a word (allow or refuse)")},
    [TF_ENERGY_TOLERANCE] = {"energy-tolerance", NUMBERS(TP_TASK, 0, 1, 1, NULL, ENERGY_TOL)},
    [TF_EVERY] = {"every", NUMBERS(TP_RECORD, 0, 1, 1, NULL, NULL)},
    [TF_STEP] = {"step", NUMBERS(TP_INTEGRATOR, 0, 1, 1, NULL, NULL)},
    [TF_RTOL] = {"rtol", NUMBERS(TP_INTEGRATOR, TFL_ADAPTIVE, 1, 1, NULL, NULL)},
    [TF_ATOL] = {"atol", NUMBERS(TP_INTEGRATOR, TFL_ADAPTIVE, 1, 1, NULL, NULL)},
    [TF_METHOD] = {"method", WORDS(TP_INTEGRATOR, TP_NONE, TFL_ADAPTIVE, "a word (dp5, bs3, rosw or auto)")},
    [TF_MAX_STEP] = {"max-step", NUMBERS(TP_INTEGRATOR, TFL_ADAPTIVE, 1, 1, NULL, NULL)},
    [TF_MODEL] = {"model", WORDS(TP_BODY, TP_NONE, 0, "a file name")},
    [TF_FIXED] = {"fixed", WORDS(TP_BODY, TP_NONE, TFL_MOTION | TFL_HIDDEN, "a motion without numbers")},
    [TF_FREE] = {"free", WORDS(TP_BODY, TP_MOTION, TFL_MOTION | TFL_HIDDEN, "forms")},
    [TF_DRIVEN] = {"driven", WORDS(TP_BODY, TP_MOTION, TFL_MOTION | TFL_HIDDEN, "forms")},
    [TF_POSE] = {"pose", NUMBERS(TP_BODY, 0, 3, 7, POSE, POSE_TAIL)},
    [TF_VELOCITY] = {"velocity", NUMBERS(TP_BODY, 0, 6, 6, VEL, ZERO)},
    [TF_MASS] = {"mass", NUMBERS(TP_MOTION, 0, 1, 1, NULL, NULL)},
    [TF_DENSITY] = {"density", NUMBERS(TP_MOTION, 0, 1, 1, NULL, NULL)},
    [TF_COM] = {"com", NUMBERS(TP_MOTION, 0, 3, 3, XYZ, NULL)},
    [TF_INERTIA] = {"inertia", NUMBERS(TP_MOTION, 0, 3, 6, INERTIA, ZERO)},
    [TF_KEYFRAME] = {"keyframe", NUMBERS(TP_MOTION, TFL_DRIVEN | TFL_MANY, 4, 8, KEY, KEY_TAIL)},
    [TF_LINE] = {"line", NUMBERS(TP_MOTION, TFL_DRIVEN, 3, 6, VEL, ZERO)},
    [TF_GRIPPER] = {"gripper", WORDS(TP_MOTION, TP_GRIPPER, TFL_DRIVEN, "forms")},
    [TF_STIFFNESS] = {"stiffness", NUMBERS(TP_GRIPPER, TFL_HIDDEN, 2, 2, STIFF, NULL)},
    [TF_DAMPING] = {"damping", NUMBERS(TP_GRIPPER, TFL_HIDDEN, 2, 2, DAMP, NULL)},
    [TF_PARAMS] = {"params", WORDS(TP_CONTACT, TP_PARAMS, TFL_MANY, "a list of (NAME VALUE)")},
    [TF_VOXEL] = {"voxel", NUMBERS(TP_CONTACT, 0, 1, 1, NULL, NULL)},
    [TF_CONTACT_RTOL] = {"rtol", NUMBERS(TP_CONTACT, 0, 1, 1, NULL, NULL)},
    [TF_CERTIFIED] = {"certified", WORDS(TP_CONTACT, TP_NONE, 0, "a flag")},
    [TF_CONTACT_ATOL] = {"atol", NUMBERS(TP_CONTACT, 0, 1, 1, NULL, NULL)},
    [TF_SLOTS] = {"slots", NUMBERS(TP_CONTACT, 0, 1, 1, NULL, NULL)},
    [TF_EVENT_FORCE] = {"event-force", NUMBERS(TP_CONTACT, 0, 1, 1, NULL, NULL)},
    [TF_ROLLING] = {"rolling", WORDS(TP_CONTACT, TP_ROLLING, TFL_HIDDEN, "a law and forms")},
    [TF_PATCHES] = {"patches", WORDS(TP_CONTACT, TP_NONE, 0, "a word (on or off), or none")},
    [TF_CLOSED_FORM] = {"closed-form", WORDS(TP_CONTACT, TP_NONE, 0, "a word (on or off)")},
    [TF_FRICTION_LAW] = {"friction-law", WORDS(TP_PARAMS, TP_NONE, 0, "a law's name")},
    [TF_ETA_R] = {"eta_r", NUMBERS(TP_ROLLING, 0, 1, 1, NULL, NULL)},
    [TF_ETA_S] = {"eta_s", NUMBERS(TP_ROLLING, 0, 1, 1, NULL, NULL)},
    [TF_PHI_0] = {"phi_0", NUMBERS(TP_ROLLING, 0, 1, 1, NULL, NULL)},
};


static int allowed(const task_form *f, int place, int allow) {
  return f->in == place && (f->flags & (TFL_DRIVEN | TFL_ADAPTIVE) & ~allow) == 0;
}


int vxci_form_find(int place, const char *h, int allow) {
  for (int i = 0; h && i < TF_COUNT; i++) {
    if (allowed(&vxci_task_forms[i], place, allow) && strcmp(vxci_task_forms[i].name, h) == 0) {
      return i;
    }
  }
  return -1;
}


int vxci_form_names(int place, int allow, const char **names, int cap) {
  int n = 0;
  for (int i = 0; i < TF_COUNT && n < cap; i++) {
    if (allowed(&vxci_task_forms[i], place, allow)) {
      names[n++] = vxci_task_forms[i].name;
    }
  }
  return n;
}


int vxci_form_path(int place, const char *w, int *field) {
  *field = -1;
  for (int i = 0; w && place != TP_NONE && i < TF_COUNT; i++) {
    const task_form *f = &vxci_task_forms[i];
    if (f->in != place) {
      continue;
    }
    if (!(f->flags & TFL_HIDDEN)) {
      if (strcmp(f->name, w) == 0) {
        return i;
      }
      continue;
    }
    for (int k = 0; f->fields && k < f->max; k++) {
      if (strcmp(f->fields[k], w) == 0) {
        *field = k;
        return i;
      }
    }
    int id = f->place != place ? vxci_form_path(f->place, w, field) : -1;
    if (id >= 0) {
      return id;
    }
  }
  return -1;
}


int vxci_form_varies(int id) {
  const task_form *f = &vxci_task_forms[id];
  if (f->max > 0) {
    return 1;
  }
  for (int i = 0; f->place != TP_NONE && i < TF_COUNT; i++) {
    if (vxci_task_forms[i].in == f->place && vxci_form_varies(i)) {
      return 1;
    }
  }
  return 0;
}


/* Appends w to the ", "-joined list out unless it is there. */
static void add_name(char *out, size_t size, const char *w) {
  size_t l = strlen(out), n = strlen(w);
  for (const char *p = out; (p = strstr(p, w)) != NULL; p += n) {
    if ((p == out || p[-1] == ' ') && (p[n] == ',' || p[n] == 0)) {
      return;
    }
  }
  snprintf(out + l, size - l, "%s%s", l ? ", " : "", w);
}


static void path_names(int place, char *out, size_t size) {
  for (int i = 0; i < TF_COUNT; i++) {
    const task_form *f = &vxci_task_forms[i];
    if (f->in != place || !vxci_form_varies(i)) {
      continue;
    }
    if (!(f->flags & TFL_HIDDEN)) {
      add_name(out, size, f->name);
    }
    for (int k = 0; (f->flags & TFL_HIDDEN) && f->fields && k < f->max; k++) {
      add_name(out, size, f->fields[k]);
    }
    if ((f->flags & TFL_HIDDEN) && f->place != TP_NONE && f->place != place) {
      path_names(f->place, out, size);
    }
  }
}


void vxci_form_path_names(int place, char *out, size_t size) {
  out[0] = 0;
  path_names(place, out, size);
}
