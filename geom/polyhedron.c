/* polyhedron.c: placeholder, being written */
#include "geom.h"
