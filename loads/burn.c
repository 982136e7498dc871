/* Burn: -L threads fully CPU bound (interbench 0.20: "a configurable number of threads fully
 * cpu bound"). */
#include "calibrate/calibrate.h"
#include "loads/load.h"

void *burn_worker(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	uint64_t chunk = ctx->cfg->loops_per_ms; /* 1 ms of work between stop checks */

	while (!atomic_load(&ctx->stop)) {
		burn_loops(chunk);
		LOAD_COUNT(ctx, LOAD_LOOPS, chunk / 1000);
	}
	return NULL;
}

static int burn_start(struct load_ctx *ctx)
{
	return load_threads_start(ctx, ctx->cfg->threads, burn_worker);
}

const struct load_desc load_burn = {
	.name = "Burn",
	.help = "-L threads burning CPU flat out",
	.flags = LOAD_NORMAL | LOAD_RT,
	.reports = LOAD_REPORTS(LOAD_LOOPS),
	.start = burn_start,
	.stop = load_threads_stop,
};
