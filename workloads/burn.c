/* Burn: -L threads fully CPU bound (interbench 0.20: "a configurable number of threads fully
 * cpu bound"). */
#include "workloads/workload.h"

static int burn_start(struct load_ctx *ctx)
{
	return load_threads_start(ctx, ctx->cfg->threads, burn_worker);
}

static const struct load_ops burn_ops = { .start = burn_start, .stop = load_threads_stop };

const struct workload wl_burn = {
	.name = "Burn",
	.load_help = "-L threads burning CPU flat out",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.load = &burn_ops,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_loops, NULL },
};
