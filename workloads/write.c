/* Write: streams a file the size of RAM (at most 1 GiB or 25% of the free space) to the work
 * directory over and over with ordinary buffered 1 MiB write(2) calls, as an application
 * saving large files would (interbench 0.20: "a streaming write to disk repeatedly"). */
#include "loadkit/disk.h"
#include "workloads/workload.h"

static int write_prepare(struct load_ctx *ctx) { return disk_prepare(ctx, "write", NULL); }
static int write_start(struct load_ctx *ctx) { return load_threads_start(ctx, 1, disk_writer); }

static const struct load_ops write_ops = {
	.prepare = write_prepare,
	.start = write_start,
	.stop = load_threads_stop,
	.cleanup = disk_cleanup,
	.after_pair = disk_after_pair,
	.describe = disk_describe,
};

const struct workload wl_write = {
	.name = "Write",
	.load_help = "streams a file to --workdir over and over",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.options = disk_options,
	.cfg_size = sizeof(struct disk_opts),
	.preflight = disk_preflight,
	.load = &write_ops,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_written, NULL },
};
