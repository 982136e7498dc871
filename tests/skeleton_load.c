/* Skeleton: the smallest complete load, the example of doc/adding-a-workload.md (as fio ships
 * engines/skeleton_external.c).  One thread wakes every --skeleton-nap-us microseconds and
 * counts its naps.  tests/check_workload.c registers it in a table of its own and runs it
 * through every descriptor walker; it is not in interbench's table. */
#include <stddef.h>
#include <time.h>
#include "workloads/workload.h"

/* The load's own settings: its options' values (cfg_size bytes, one per run). */
struct skeleton_opts {
	uint64_t nap_us;   /* --skeleton-nap-us: sleep between wake-ups, microseconds */
};

/* Its one option: where the value goes, its range, unit, default, help and JSON key. */
static const struct optspec skeleton_opt_nap = {
	.long_name = "skeleton-nap-us", .type = OPTSPEC_U64, .metavar = "US",
	.help = "Skeleton load: microseconds between wake-ups", .unit = "microseconds",
	.min = 10, .max = 1000000, .def = 1000, .json_key = "skeleton_nap_us",
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct skeleton_opts, nap_us),
};

/* What it counts, named with its unit (the JSON key under load_work, the throughput unit). */
static const struct load_metric_info skeleton_naps = { "naps", "naps/s", 1, true };

static void *skeleton_worker(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	const struct skeleton_opts *o = ctx->opts;
	struct timespec nap = { .tv_sec = (time_t)(o->nap_us / 1000000), .tv_nsec = (long)(o->nap_us % 1000000) * 1000 };
	while (!atomic_load(&ctx->stop)) {   /* stop is polled: it must be seen within 1 s */
		nanosleep(&nap, NULL);
		load_count(ctx, &skeleton_naps, 1);
	}
	return NULL;
}

static int skeleton_start(struct load_ctx *ctx)
{
	return load_threads_start(ctx, 1, skeleton_worker);
}

static const struct load_ops skeleton_ops = { .start = skeleton_start, .stop = load_threads_stop };

const struct workload wl_skeleton = {
	.name = "Skeleton",
	.load_help = "one thread napping --skeleton-nap-us at a time (example)",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.options = (const struct optspec *const[]){ &skeleton_opt_nap, NULL },
	.cfg_size = sizeof(struct skeleton_opts),
	.load = &skeleton_ops,
	.metrics = (const struct load_metric_info *const[]){ &skeleton_naps, NULL },
};
