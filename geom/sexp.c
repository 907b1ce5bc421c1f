/* sexp.c: placeholder, being written */
#include "geom.h"
