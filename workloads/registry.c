/* The registry of workloads: one line each in WORKLOADS (workloads/list.h), naming the `wl_<name>`
 * descriptor its file in workloads/ exports.  Simulated tasks are benchmarked in table order
 * (Audio, Video, X, Gaming, ProAudio, Custom) and the loads run against each in table order (None, Video,
 * X, Burn, Write, Read, Compile, Memload, Hack, Ring, then latencytest's Copy and Proc, Custom), as
 * interbench 0.31 orders its own.
 * Alone in its file so a test program can link a table of its own from the same list
 * (workloads/list.h, tests/check_workload.c). */
#include "workloads/list.h"

WORKLOADS(WL_DECLARE)

const struct workload *const workload_table[] = { WORKLOADS(WL_ENTRY) };
const unsigned workload_count = sizeof(workload_table) / sizeof(workload_table[0]);
_Static_assert(sizeof(workload_table) / sizeof(workload_table[0]) <= WL_MAX, "-W/-w masks are 32-bit");
