/* Custom as a load: the simulated Custom task running in the background (interbench 0.20 uses its
 * simulated tasks as loads too). */
#include "loads/load.h"

extern const struct sim_desc sim_custom;

static int custom_load_start(struct load_ctx *ctx) { return load_sim_start(ctx, &sim_custom); }

const struct load_desc load_custom = {
	.name = "Custom",
	.help = "the simulated Custom task as a background load",
	.flags = LOAD_NORMAL | LOAD_RT | LOAD_CUSTOM,
	.reports = LOAD_REPORT_WAKEUPS | LOAD_REPORT_LOOPS,
	.start = custom_load_start,
	.stop = load_sim_stop,
};
