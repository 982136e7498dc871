/* Write: streams a file the size of RAM (at most 1 GiB or 25% of the free space) to the work
 * directory over and over with ordinary buffered 1 MiB write(2) calls, as an application
 * saving large files would (interbench 0.20: "a streaming write to disk repeatedly"). */
#include "loads/disk.h"

static int write_prepare(struct load_ctx *ctx) { return disk_prepare(ctx, "write", NULL); }
static int write_start(struct load_ctx *ctx) { return load_threads_start(ctx, 1, disk_writer); }

const struct load_desc load_write = {
	.name = "Write",
	.help = "streams a file to --workdir over and over",
	.flags = LOAD_NORMAL | LOAD_RT | LOAD_WORKDIR,
	.reports = LOAD_REPORT_WRITTEN,
	.prepare = write_prepare,
	.start = write_start,
	.stop = load_threads_stop,
	.cleanup = disk_cleanup,
	.after_pair = disk_after_pair,
};
