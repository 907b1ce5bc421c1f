/* voxel.h: placeholder */
#include "geom/geom.h"
