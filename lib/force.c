/* force.c: placeholder, being written */
#include "lib/internal.h"
