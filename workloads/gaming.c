/* Gaming: burns CPU flat out in 100 ms frames of pure CPU work; no deadlines.  Its latency is
 * how much later than 100 ms each frame finishes. */
#include <stdio.h>
#include "workloads/workload.h"

static void gaming_describe(unsigned duration_s, bool realtime, char *buf, size_t len)
{
	(void)duration_s;
	snprintf(buf, len, "%s", realtime ? "Note: Gaming is not benchmarked in real time runs "
		 "(a SCHED_FIFO task burning flat out)." : "");
}

static const struct sim_desc gaming_sim = {
	.interval_us = 100000,
	.cpu_pct = 100,
	.has_deadlines = false,
	.logs_frames = true,
	.describe = gaming_describe,
};

const struct workload wl_gaming = {
	.name = "Gaming",
	.help = "flat-out CPU in 100 ms frames, no deadlines",
	.flags = WL_BENCH_NORMAL,
	.sim = &gaming_sim,
};
