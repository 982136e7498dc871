/* Shared plumbing for loads: worker threads and simulated tasks run as loads. */
#include <stdio.h>
#include <string.h>
#include "loads/load.h"

int load_threads_start(struct load_ctx *ctx, unsigned n, void *(*fn)(void *))
{
	if (n > LOAD_MAX_THREADS)
		n = LOAD_MAX_THREADS;
	atomic_store(&ctx->stop, false);
	ctx->nthreads = 0;
	for (unsigned i = 0; i < n; i++) {
		ctx->workers[i] = (struct load_worker){ .ctx = ctx, .index = i };
		int rc = pthread_create(&ctx->tids[i], NULL, fn, &ctx->workers[i]);
		if (rc != 0) {
			ctx->counters.error = rc;
			snprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg),
				 "pthread_create: %s", strerror(rc));
			load_threads_stop(ctx);
			return -1;
		}
		ctx->nthreads++;
	}
	return 0;
}

void load_threads_stop(struct load_ctx *ctx)
{
	atomic_store(&ctx->stop, true);
	for (unsigned i = 0; i < ctx->nthreads; i++)
		pthread_join(ctx->tids[i], NULL);
	ctx->nthreads = 0;
}

int load_sim_start(struct load_ctx *ctx, const struct sim_desc *desc)
{
	struct sim_spec spec;
	struct sim_run_cfg cfg = { .loops_per_ms = ctx->cfg->loops_per_ms };
	sim_spec_init(&spec, desc, ctx->cfg->custom_interval_us, (unsigned)ctx->cfg->custom_cpu_pct);
	ctx->engine = sim_start(&spec, &cfg, &ctx->sim_result);
	if (!ctx->engine) {
		ctx->counters.error = ctx->sim_result.error;
		snprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg), "%s", ctx->sim_result.errmsg);
		return -1;
	}
	return 0;
}

void load_sim_stop(struct load_ctx *ctx)
{
	sim_stop(ctx->engine);
	ctx->engine = NULL;
	ctx->counters.wakeups += ctx->sim_result.acct.periods;
	ctx->counters.loops += ctx->sim_result.acct.work_done_us * ctx->cfg->loops_per_ms / 1000 / 1000;
}
