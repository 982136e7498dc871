/* None: an otherwise idle machine, the baseline row of every table. */
#include "loads/load.h"

static int none_start(struct load_ctx *ctx) { (void)ctx; return 0; }
static void none_stop(struct load_ctx *ctx) { (void)ctx; }

const struct load_desc load_none = {
	.name = "None",
	.help = "no background load",
	.flags = LOAD_NORMAL | LOAD_RT,
	.start = none_start,
	.stop = none_stop,
};
