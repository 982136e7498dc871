/* Video: 60 frames a second, 40% CPU (interbench 0.20 announcement: "tries to receive cpu
 * 60 times per second and uses 40% cpu"). */
#include "sims/sim.h"

const struct sim_desc sim_video = {
	.name = "Video",
	.help = "60 Hz (16.7 ms period), 40% CPU",
	.interval_us = 16667,
	.cpu_pct = 40,
	.has_deadlines = true,
	.flags = SIM_BENCH_NORMAL | SIM_BENCH_RT,
};
