/* The list of interbench's workloads, one line each, in benchmark order (workloads/registry.c
 * explains the order): the one list both the program's registry and a test's registry
 * (tests/check_workload.c, which adds an example) are built from, so neither can leave one out.
 * WORKLOADS(X) applies X to each name; WL_DECLARE declares its descriptor wl_<name>, WL_ENTRY
 * makes its table entry. */
#ifndef IB_WORKLOADS_LIST_H
#define IB_WORKLOADS_LIST_H
#include "workloads/workload.h"

#define WORKLOADS(X) \
	X(none)      \
	X(audio)     \
	X(video)     \
	X(x)         \
	X(gaming)    \
	X(proaudio)  \
	X(pipeline)  \
	X(burn)      \
	X(write)     \
	X(read)      \
	X(compile)   \
	X(memload)   \
	X(hack)      \
	X(ring)      \
	X(copy)      \
	X(proc)      \
	X(custom)    \
	X(file)

#define WL_DECLARE(name) extern const struct workload wl_##name;
#define WL_ENTRY(name) &wl_##name,
#endif
