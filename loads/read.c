/* Read: reads a file of the Write size over and over, dropping it from the page cache before
 * every pass so each pass reaches the device (interbench 0.20: "repeatedly reading a file from
 * disk ... to avoid any caching effects").  The file is made before the timed windows. */
#include "loads/disk.h"

static int read_prepare(struct load_ctx *ctx) { return disk_prepare(ctx, NULL, "read"); }
static int read_start(struct load_ctx *ctx) { return load_threads_start(ctx, 1, disk_reader); }

const struct load_desc load_read = {
	.name = "Read",
	.help = "reads a file in --workdir over and over, past the page cache",
	.flags = LOAD_NORMAL | LOAD_RT | LOAD_WORKDIR,
	.reports = LOAD_REPORT_READ,
	.prepare = read_prepare,
	.start = read_start,
	.stop = load_threads_stop,
	.cleanup = disk_cleanup,
	.after_pair = disk_after_pair,
};
