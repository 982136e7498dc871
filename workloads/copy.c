/* Copy: copies a file the Read size to another in the work directory over and over, the source
 * read from the device every pass as Read does (Benno Senoner's latencytest ran "cp" of a large
 * file as one of its loads, http://www.gardena.net/benno/linux/audio/).  Both files are scratch files:
 * created exclusively, locked, removed at the end and on every signal. */
#include "loadkit/disk.h"
#include "workloads/workload.h"

static int copy_prepare(struct load_ctx *ctx) { return disk_prepare(ctx, "copy-dst", "copy-src"); }
static int copy_start(struct load_ctx *ctx) { return load_threads_start(ctx, 1, disk_copier); }

static const struct load_ops copy_ops = {
	.prepare = copy_prepare,
	.start = copy_start,
	.stop = load_threads_stop,
	.cleanup = disk_cleanup,
	.after_pair = disk_after_pair,
	.describe = disk_describe,
};

const struct workload wl_copy = {
	.name = "Copy",
	.load_help = "copies a file in --workdir to another over and over, past the page cache",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.options = disk_options,
	.cfg_size = sizeof(struct disk_opts),
	.preflight = disk_preflight,
	.load = &copy_ops,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_read, &load_metric_written, NULL },
};
