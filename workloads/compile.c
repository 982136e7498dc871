/* Compile: Burn, Write and Read at once, as a heavy "make -j" would load the machine
 * (interbench 0.20).  Worker 0 writes, worker 1 reads, the other -L burn; each runs the very
 * worker of its own load. */
#include "loadkit/disk.h"
#include "workloads/workload.h"

static void *compile_worker(void *arg)
{
	switch (((struct load_worker *)arg)->index) {
	case 0: return disk_writer(arg);
	case 1: return disk_reader(arg);
	default: return burn_worker(arg);
	}
}

static int compile_prepare(struct load_ctx *ctx) { return disk_prepare(ctx, "compile-write", "compile-read"); }

static int compile_start(struct load_ctx *ctx)
{
	return load_threads_start(ctx, 2 + ctx->cfg->threads, compile_worker);
}

static const struct load_ops compile_ops = {
	.prepare = compile_prepare,
	.start = compile_start,
	.stop = load_threads_stop,
	.cleanup = disk_cleanup,
	.after_pair = disk_after_pair,
	.describe = disk_describe,
};

const struct workload wl_compile = {
	.name = "Compile",
	.load_help = "Burn, Write and Read at once, like a heavy make -j",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.options = disk_options,
	.cfg_size = sizeof(struct disk_opts),
	.preflight = disk_preflight,
	.load = &compile_ops,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_written, &load_metric_read, &load_metric_loops, NULL },
};
