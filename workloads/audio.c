/* Audio: wakes every 50 ms and needs 5% CPU (interbench 0.20 announcement: "a thread that
 * tries to run at 50ms intervals that then requires 5% cpu"). */
#include "workloads/workload.h"

static const struct sim_desc audio_sim = {
	.interval_us = 50000,
	.cpu_pct = 5,
	.has_deadlines = true,
};

const struct workload wl_audio = {
	.name = "Audio",
	.help = "50 ms period, 5% CPU",
	.flags = WL_BENCH_NORMAL | WL_BENCH_RT,
	.sim = &audio_sim,
};
