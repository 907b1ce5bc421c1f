#include "vxc.h"
int main(void) { return 0; }
