/* Read: reads a file of the Write size over and over, dropping it from the page cache before
 * every pass so each pass reaches the device (interbench 0.20: "repeatedly reading a file from
 * disk ... to avoid any caching effects").  The file is made before the timed windows. */
#include "loadkit/disk.h"
#include "workloads/workload.h"

static int read_prepare(struct load_ctx *ctx) { return disk_prepare(ctx, NULL, "read"); }
static int read_start(struct load_ctx *ctx) { return load_threads_start(ctx, 1, disk_reader); }

static const struct load_ops read_ops = {
	.prepare = read_prepare,
	.start = read_start,
	.stop = load_threads_stop,
	.cleanup = disk_cleanup,
	.after_pair = disk_after_pair,
	.describe = disk_describe,
};

const struct workload wl_read = {
	.name = "Read",
	.load_help = "reads a file in --workdir over and over, past the page cache",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.options = disk_options,
	.cfg_size = sizeof(struct disk_opts),
	.preflight = disk_preflight,
	.load = &read_ops,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_read, NULL },
};
