/* X: an idle desktop where a window is grabbed and dragged.  CPU demand sweeps from 0% to
 * 100% in 1% steps, one step per 100 ms frame: in step i the task does i ms of work within
 * its frame and sleeps the rest.  The step follows the frame number, so skipped frames skip
 * their steps, as a real redraw would be dropped.  Also a background load (not in -r runs), as
 * interbench 0.20 uses its simulated tasks as loads too. */
#include <stdio.h>
#include "workloads/workload.h"

/* The sweep: 101 steps of 0..100% CPU, one per 100 ms frame.  The 0-100% range is
 * interbench's X (Con Kolivas's interbench 0.20 announcement, linux-kernel, July 2006); 1%
 * steps in 100 ms frames make the sweep last 10.1 s. */
#define X_STEPS 101u
#define X_FRAME_US 100000u

static uint64_t x_work_us(const struct sim_spec *spec, uint64_t period)
{
	uint64_t step_pct = period % X_STEPS;
	return spec->interval_us * step_pct / 100;
}

/* interbench 0.31's emulate_x passes the frame's idle part, (100 - i) ms, as the interval in
 * which periodic_schedule counts missed deadlines and adds their latency: so does our classic
 * Latency column, to stay comparable with 0.31's X rows. */
static uint64_t x_ib_interval_us(const struct sim_spec *spec, uint64_t period)
{
	return spec->interval_us - x_work_us(spec, period);
}

static void x_describe(unsigned duration_s, bool realtime, char *buf, size_t len)
{
	(void)realtime;
	buf[0] = '\0';
	if (duration_s && (uint64_t)duration_s * 1000000 < (uint64_t)X_STEPS * X_FRAME_US)
		snprintf(buf, len, "Note: X sweeps 0-100%% CPU over %.1f s; with -t %u each X run covers only part of the sweep.",
			 X_STEPS * X_FRAME_US / 1e6, duration_s);
}

static void x_pattern(const struct sim_spec *spec, char *buf, size_t len)
{
	(void)spec;
	snprintf(buf, len, "1 %% more each period, %u periods a sweep", X_STEPS);
}

static const struct sim_desc x_sim = {
	.interval_us = X_FRAME_US,
	.work_us = x_work_us,
	.ib_interval_us = x_ib_interval_us,
	.has_deadlines = true,
	.cycle_periods = X_STEPS,
	.describe = x_describe,
	.pattern_note = x_pattern,
};

static const struct load_ops x_load = { .start = load_sim_start, .ready = load_sim_ready, .stop = load_sim_stop };

const struct workload wl_x = {
	.name = "X",
	.help = "100 ms frames sweeping 0-100% CPU in 1% steps",
	.load_help = "the simulated X task as a background load",
	.flags = WL_BENCH_NORMAL | WL_BENCH_RT | WL_LOAD_NORMAL,
	.sim = &x_sim,
	.load = &x_load,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_loops, &load_metric_wakeups, NULL },
};
