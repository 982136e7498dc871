/* The registry of workloads: one line each in WORKLOADS below, naming the `wl_<name>`
 * descriptor its file in workloads/ exports.  Simulated tasks are benchmarked in table order
 * (Audio, Video, X, Gaming, ProAudio, Custom) and the loads run against each in table order (None, Video,
 * X, Burn, Write, Read, Compile, Memload, Hack, Ring, then latencytest's Copy and Proc, Custom), as
 * interbench 0.31 orders its own.
 * Alone in its file so a test program can link a table of its own (tests/check_workload.c). */
#include "workloads/workload.h"

#define WORKLOADS(X) \
	X(none)      \
	X(audio)     \
	X(video)     \
	X(x)         \
	X(gaming)    \
	X(proaudio)  \
	X(burn)      \
	X(write)     \
	X(read)      \
	X(compile)   \
	X(memload)   \
	X(hack)      \
	X(ring)      \
	X(copy)      \
	X(proc)      \
	X(custom)

#define WL_DECLARE(name) extern const struct workload wl_##name;
#define WL_ENTRY(name) &wl_##name,
WORKLOADS(WL_DECLARE)

const struct workload *const workload_table[] = { WORKLOADS(WL_ENTRY) };
const unsigned workload_count = sizeof(workload_table) / sizeof(workload_table[0]);
_Static_assert(sizeof(workload_table) / sizeof(workload_table[0]) <= WL_MAX, "-W/-w masks are 32-bit");
