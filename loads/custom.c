/* Custom as a load: the simulated Custom task running in the background (interbench 0.20 uses its
 * simulated tasks as loads too). */
#include "loads/load.h"

extern const struct sim_desc sim_custom;

const struct load_desc load_custom = {
	.name = "Custom",
	.help = "the simulated Custom task as a background load",
	.flags = LOAD_NORMAL | LOAD_RT | LOAD_CUSTOM,
	.reports = LOAD_REPORT_WAKEUPS | LOAD_REPORT_LOOPS,
	.start = load_sim_start,
	.sim = &sim_custom,
	.stop = load_sim_stop,
};
