/* Audio: wakes every 50 ms and needs 5% CPU (interbench 0.20 announcement: "a thread that
 * tries to run at 50ms intervals that then requires 5% cpu"). */
#include "sims/sim.h"

const struct sim_desc sim_audio = {
	.name = "Audio",
	.help = "50 ms period, 5% CPU",
	.interval_us = 50000,
	.cpu_pct = 5,
	.has_deadlines = true,
	.flags = SIM_BENCH_NORMAL | SIM_BENCH_RT,
};
