/* None: an otherwise idle machine, the baseline row of every table. */
#include "workloads/workload.h"

static int none_start(struct load_ctx *ctx) { (void)ctx; return 0; }
static void none_stop(struct load_ctx *ctx) { (void)ctx; }

static const struct load_ops none_ops = { .start = none_start, .stop = none_stop };

const struct workload wl_none = {
	.name = "None",
	.load_help = "no background load",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.load = &none_ops,
};
