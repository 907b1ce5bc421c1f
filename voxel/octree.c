/* octree.c: placeholder */
#include "voxel.h"
