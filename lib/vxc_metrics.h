/* vxc_metrics.h: the contact-metrics API (included by <vxc/vxc.h>), one header a concept:
 * vxc_normal.h (the contact normal), vxc_query.h (volume of interference, contact metrics,
 * mass properties) and vxc_tracker.h (cell-pair tracking). */
#ifndef VXC_METRICS_H
#define VXC_METRICS_H

#include "vxc_normal.h"
#include "vxc_query.h"
#include "vxc_tracker.h"

#endif /* VXC_METRICS_H */
