/* X: an idle desktop where a window is grabbed and dragged.  CPU demand sweeps from 0% to
 * 100% in 1% steps, one step per 100 ms frame: in step i the task does i ms of work within
 * its frame and sleeps the rest.  The step follows the frame number, so skipped frames skip
 * their steps, as a real redraw would be dropped. */
#include <stdio.h>
#include "sims/sim.h"

static uint64_t x_work_us(const struct sim_spec *spec, uint64_t period)
{
	uint64_t step_pct = period % X_STEPS;
	return spec->interval_us * step_pct / 100;
}

static void x_describe(unsigned duration_s, bool realtime, char *buf, size_t len)
{
	(void)realtime;
	buf[0] = '\0';
	if ((uint64_t)duration_s * 1000000 < (uint64_t)X_STEPS * X_FRAME_US)
		snprintf(buf, len, "Note: X sweeps 0-100%% CPU over %.1f s; with -t %u each X run covers only part of the sweep.",
			 X_STEPS * X_FRAME_US / 1e6, duration_s);
}

const struct sim_desc sim_x = {
	.name = "X",
	.help = "100 ms frames sweeping 0-100% CPU in 1% steps",
	.interval_us = X_FRAME_US,
	.work_us = x_work_us,
	.has_deadlines = true,
	.flags = SIM_BENCH_NORMAL | SIM_BENCH_RT,
	.describe = x_describe,
};
