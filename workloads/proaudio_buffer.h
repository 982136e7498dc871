/* ProAudio's measures (workloads/proaudio.c): its buffer's accounting.  A period must complete
 * within (buffer_periods - 1) periods of its nominal start, else the buffer ran dry: an xrun
 * (latencytest, shared/seeds).  Pure functions of timestamps, kept by the engine as the task's
 * measures (struct sim_measures, engine/sim.h) and fed by it at each period closed and at the
 * end of the run. */
#ifndef IB_PROAUDIO_BUFFER_H
#define IB_PROAUDIO_BUFFER_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/deadline.h"
#include "engine/sim.h"

/* A buffer's counts over a run. */
struct audio_acct {
	uint64_t xruns;              /* periods completed later than the buffer allows, and dropped ones */
	uint64_t worst_overrun_ns;   /* the largest excess over the buffer */
	uint64_t start_within_1ms, start_within_2ms; /* periods started within 1 / 2 ms of their
	                                                nominal start (latencytest's figures) */
};

/* Accounts a period woken at wake_ns (interval_ns, buffer_periods >= 1) that started
 * lateness_ns late and finished at finish_ns, with v's skipped periods (each an xrun).
 * Returns whether the period itself was an xrun. */
bool audio_acct_period(struct audio_acct *a, unsigned buffer_periods, uint64_t interval_ns, uint64_t wake_ns,
		       uint64_t lateness_ns, uint64_t finish_ns, const struct deadline_verdict *v);

/* At the end of a run: the `unfinished` periods whose deadline passed before end_ns while the
 * task had not finished them (deadline_unfinished_periods), the first woken at wake_ns.  Those
 * after the first never started: each is an xrun, as a dropped period is.  The first is an xrun
 * when end_ns is already past what the buffer allows, its overrun then at least end_ns less
 * that allowance (a lower bound, for worst_overrun_ns).  Nothing when unfinished is 0. */
void audio_acct_unfinished(struct audio_acct *a, unsigned buffer_periods, uint64_t interval_ns, uint64_t wake_ns,
			   uint64_t end_ns, uint64_t unfinished);

/* ProAudio's figures, its block of the result and of the summary (sim_result.task,
 * pair_summary.task): xruns, the worst overrun (ns), and the share of periods started within 1
 * and 2 ms of their nominal start, %. */
struct audio_figures {
	uint64_t xruns, worst_overrun_ns;
	double start_1ms_pct, start_2ms_pct;
};

/* ProAudio's measures: its buffer of sim_spec.buffer_periods periods, its figures and rows. */
extern const struct sim_measures proaudio_buffer_measures;

#endif
