/* Video: 60 frames a second, 40% CPU (interbench 0.20 announcement: "tries to receive cpu
 * 60 times per second and uses 40% cpu"); also a background load, as interbench 0.20 uses its
 * simulated tasks as loads too. */
#include "workloads/workload.h"

static const struct sim_desc video_sim = {
	.interval_us = 16667,
	.cpu_pct = 40,
	.has_deadlines = true,
	.logs_frames = true,
};

static const struct load_ops video_load = { .start = load_sim_start, .ready = load_sim_ready, .stop = load_sim_stop };

const struct workload wl_video = {
	.name = "Video",
	.help = "60 Hz (16.7 ms period), 40% CPU",
	.load_help = "the simulated Video task as a background load",
	.flags = WL_BENCH_NORMAL | WL_BENCH_RT | WL_LOAD_NORMAL | WL_LOAD_RT,
	.sim = &video_sim,
	.load = &video_load,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_loops, &load_metric_wakeups, NULL },
};
