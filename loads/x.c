/* X as a load: the simulated X task running in the background (interbench 0.20 uses its
 * simulated tasks as loads too). */
#include "loads/load.h"

extern const struct sim_desc sim_x;

const struct load_desc load_x = {
	.name = "X",
	.help = "the simulated X task as a background load",
	.flags = LOAD_NORMAL,
	.reports = LOAD_REPORT_WAKEUPS | LOAD_REPORT_LOOPS,
	.start = load_sim_start,
	.sim = &sim_x,
	.stop = load_sim_stop,
};
