/* Video as a load: the simulated Video task running in the background (interbench 0.20 uses its
 * simulated tasks as loads too). */
#include "loads/load.h"

extern const struct sim_desc sim_video;

const struct load_desc load_video = {
	.name = "Video",
	.help = "the simulated Video task as a background load",
	.flags = LOAD_NORMAL | LOAD_RT,
	.reports = LOAD_REPORT_WAKEUPS | LOAD_REPORT_LOOPS,
	.start = load_sim_start,
	.sim = &sim_video,
	.stop = load_sim_stop,
};
