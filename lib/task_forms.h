/* task_forms.h: the forms of the task file (.vxt), one table read by the task reader
 * (task_read.c) and walked by the sweep (sweep.c) (not installed).
 *
 * Data: vxci_task_forms[id] names form id, the place it may appear in (TP_*: the items of
 * (task ...), of a (body ...), of its motion form, ...), the place its own sub-forms make,
 * and its numbers: how many (min .. max), their names in order (the sweep's field names;
 * NULL for a single number, named by the form alone) and, where the reader fills what a
 * file leaves out with constants, those values (the sweep writes them in before varying
 * one). The reader dispatches on the id vxci_form_find returns, so a form it accepts is a
 * row of this table; a sweep path names the forms from (task ...) down, then a keyframe's
 * index and a field (vxc_sweep.h). A form marked TFL_HIDDEN is not named in a path: its
 * sub-forms or numbers are named in its parent's place ((body B mass) for the mass of its
 * (free ...), (body B gripper k) for the k of (gripper (stiffness K KR) ...)). */
#ifndef VXC_TASK_FORMS_H
#define VXC_TASK_FORMS_H

#include <stddef.h>

/* The places a form may appear in (the list of sub-forms of a form). */
enum {
  TP_NONE = 0,   /* a form without sub-forms */
  TP_ROOT,       /* the file: (task ...) */
  TP_TASK,       /* (task NAME item...) */
  TP_RECORD,     /* (record ...) */
  TP_INTEGRATOR, /* (integrator rk4|adaptive ...) */
  TP_BODY,       /* (body NAME ...) */
  TP_MOTION,     /* (free ...), (driven ...) */
  TP_GRIPPER,    /* (gripper ...) */
  TP_CONTACT,    /* (contact A B ...) */
  TP_PARAMS,     /* (params ...): also (NAME VALUE) for every name of vxc_params_set */
  TP_ROLLING     /* (rolling rate-independent ...) */
};

/* Form flags (task_form.flags). */
enum {
  TFL_MANY = 1,      /* may be given more than once in its place */
  TFL_HIDDEN = 2,    /* a sweep path names its sub-forms or numbers in its parent's place */
  TFL_MOTION = 4,    /* a body's motion: (fixed), (free ...), (driven ...) */
  TFL_DRIVEN = 8,    /* only in (driven ...) */
  TFL_ADAPTIVE = 16  /* only in (integrator adaptive ...) */
};

/* The forms, in the order of the table (the order of the reader's hints). */
enum {
  TF_TASK,
  TF_GRAVITY, TF_DURATION, TF_RECORD, TF_INTEGRATOR, TF_BODY, TF_CONTACT, TF_INITIAL_OVERLAP,
  TF_ENERGY_TOLERANCE,
  TF_EVERY,
  TF_STEP, TF_RTOL, TF_ATOL, TF_METHOD, TF_MAX_STEP,
  TF_MODEL, TF_FIXED, TF_FREE, TF_DRIVEN, TF_POSE, TF_VELOCITY,
  TF_MASS, TF_DENSITY, TF_COM, TF_INERTIA, TF_KEYFRAME, TF_LINE, TF_GRIPPER,
  TF_STIFFNESS, TF_DAMPING,
  TF_PARAMS, TF_VOXEL, TF_CONTACT_RTOL, TF_CERTIFIED, TF_CONTACT_ATOL, TF_SLOTS, TF_EVENT_FORCE,
  TF_ROLLING, TF_PATCHES, TF_CLOSED_FORM,
  TF_FRICTION_LAW,
  TF_ETA_R, TF_ETA_S, TF_PHI_0,
  TF_COUNT
};

typedef struct task_form {
  const char *name;
  int in;         /* the place it appears in (TP_*) */
  int place;      /* the place of its sub-forms, TP_NONE when it has none */
  int flags;      /* TFL_* */
  int min, max;   /* its numbers (0, 0: none) */
  const char *const *fields; /* the names of its max numbers, NULL when max < 2 */
  const double *dflt; /* max values: the reader's for an absent form or a short form's tail,
                         NULL when it takes none (or not constants) */
  const char *holds;  /* what it holds when not numbers ("a file name"), for messages */
} task_form;

extern const task_form vxci_task_forms[TF_COUNT];

/* The id of the form named h in place `place` whose TFL_DRIVEN and TFL_ADAPTIVE flags are all
 * in `allow`, or -1 (h may be NULL). */
int vxci_form_find(int place, const char *h, int allow);

/* The names of the forms of `place` allowed by `allow` (as vxci_form_find), in table order,
 * into names (at most cap); returns the count. */
int vxci_form_names(int place, int allow, const char **names, int cap);

/* What the path word w names in place `place`: a form of the place, or (through a
 * TFL_HIDDEN form of it) a sub-form or one of the numbers of the hidden form. Returns the
 * form's id and sets *field to the number's index, or -1 when w names the form itself;
 * -1 when w names nothing. */
int vxci_form_path(int place, const char *w, int *field);

/* 1 when a path can reach a number from form id: it has numbers, or a form in its place
 * does. */
int vxci_form_varies(int id);

/* The words a path may take in place `place` (as vxci_form_path, only those reaching a
 * number), joined by ", " into out (size bytes). */
void vxci_form_path_names(int place, char *out, size_t size);

#endif /* VXC_TASK_FORMS_H */
