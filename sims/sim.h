/* Simulated interactive tasks: the periodic pattern a task follows (struct sim_desc, part of
 * its workload descriptor in workloads/), the periodic engine and its realtime timing thread. */
#ifndef IB_SIM_H
#define IB_SIM_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/histogram.h"
#include "lib/schedpolicy.h"
#include "lib/timeline.h"
#include "lib/stats.h"
#include "sims/deadline.h"

struct sim_spec;

/* A simulated task.  Periodic tasks are woken every interval_us by the timing thread and must
 * do work_us() of CPU work before the next wake-up; free-running tasks (Gaming) burn
 * interval_us of CPU per frame with no timing thread and no deadlines. */
struct sim_desc {
	uint64_t interval_us;     /* period (0 when its workload's options give it: Custom's -I) */
	unsigned cpu_pct;         /* CPU per period, % (0 when from the options; unused with work_us) */
	/* CPU work of period number `period` in microseconds; NULL means interval * cpu_pct. */
	uint64_t (*work_us)(const struct sim_spec *spec, uint64_t period);
	bool has_deadlines;       /* false: free-running frames (Gaming) */
	/* The interval interbench 0.31 counts missed deadlines of period number `period` in, for
	 * its latency (sims/deadline.h deadline_interbench_latency_ns), in microseconds; NULL:
	 * the period.  X's: the frame's idle part, as 0.31's emulate_x passes (100 - i) ms. */
	uint64_t (*ib_interval_us)(const struct sim_spec *spec, uint64_t period);
	/* true: each period's work is a fixed count of calibrated loops, as latencytest's DSP
	 * computation was: a CPU slower than at calibration (time stolen while the task runs)
	 * makes the work take longer and shows as lateness and xruns.  false (every other task):
	 * the work is CPU time burnt by the thread's own clock (calibrate/calibrate.h burn_cpu_us),
	 * so the task uses the CPU share it asks for whatever the CPU's speed. */
	bool fixed_work;
	/* A note for the run header about how this task behaves in this run (duration_s per
	 * pair, -r or not), e.g. X's partial sweep, written into buf ("" for none); called for
	 * every task the -W/-X selection names.  NULL: never a note. */
	void (*describe)(unsigned duration_s, bool realtime, char *buf, size_t len);
};

/* A task made concrete for one run: the descriptor plus its resolved period and CPU share. */
struct sim_spec {
	const struct sim_desc *desc;
	uint64_t interval_us;
	unsigned cpu_pct;
	/* Audio buffering, in periods (ProAudio's --periods): a period must complete within
	 * (buffer_periods - 1) periods of its nominal start, else the buffer ran dry (an xrun).
	 * 0: not an audio task, no xrun accounting. */
	unsigned buffer_periods;
};

/* How a bench (or load) process runs the task. */
struct sim_run_cfg {
	uint64_t loops_per_ms; /* burn loops per millisecond of CPU, from calibrate/ or -l */
	struct sched_setting sched; /* the simulated thread's policy, nice, priority or reservation
	                               (zeroed: SCHED_OTHER at nice 0, left as it is) */
	int timer_prio;      /* SCHED_FIFO priority of the timing thread; 0 = normal priority */
	struct timeline_buf *timeline; /* every period recorded here (--timeline), or NULL */
	uint32_t timeline_pair;        /* the pair id of those records */
};

/* Everything measured in one run of a simulated task. */
struct sim_result {
	struct deadline_acct acct;
	/* Scheduling latency: timing thread wake -> task running, ns.  This and every other latency
	 * take one sample per completed period (Gaming: per frame), none for a period cut off. */
	struct lat_stats sched;
	struct lat_stats timer;      /* timer latency: deadline -> timing thread awake, ns */
	/* Lateness: the period's nominal start (its wake time) -> task running, ns; timer latency
	 * plus scheduling latency, and the overrun of the period before when that made it late. */
	struct lat_stats lateness;
	/* interbench 0.31's latency, one sample per period run: the lateness less the timer's
	 * oversleep (the scheduling latency when the timer slept, the lateness when the period was
	 * already due), plus one whole period for each deadline the period missed, its own and the
	 * skipped ones after it (interbench 0.31 interbench.c, periodic_schedule's missed_latency).
	 * Gaming: the frame's overrun, as there.  Its mean, SD and max are the classic table's. */
	struct lat_stats interbench;
	struct lat_hist sched_hist;
	struct lat_hist timer_hist;
	struct lat_hist lateness_hist;
	uint64_t interval_us;        /* the task's period (for streak lengths in time) */
	/* Frame time: from one period's completion to the next's (Gaming: each frame's length), ns;
	 * the stutter a user sees, and Gaming's "1% low" frame rate. */
	struct lat_stats frame;
	struct lat_hist frame_hist;
	struct loop_acct loop;       /* CPU-loop time (sims/deadline.h) */
	struct audio_acct audio;     /* audio buffering, when spec.buffer_periods > 0 */
	int timeline_error;          /* 0, or the errno of a failed write of the pair's timeline */
	bool timeline_truncated;     /* the pair had more periods than TIMELINE_MAX_RECORDS */
	/* The simulated thread's own CPU time (CLOCK_THREAD_CPUTIME_ID) and the wall time over the
	 * same span, from its first period (Gaming: its first frame) to its end, ns: the CPU the
	 * task really got, measured apart from the work accounting. */
	uint64_t task_cpu_ns, task_wall_ns;
	bool timer_rt;               /* the timing thread really ran SCHED_FIFO */
	int error;                   /* 0, or an errno value from a failed call */
	char errmsg[160];            /* names the call that failed */
};

/* Resolves desc into spec with the pattern's own period and CPU share (a workload whose options
 * give them sets them afterwards: workload_sim_spec). */
void sim_spec_init(struct sim_spec *spec, const struct sim_desc *desc);

/* Work in microseconds for period `period` of spec (the descriptor's work_us, or the fixed
 * interval * cpu_pct / 100). */
uint64_t sim_work_us(const struct sim_spec *spec, uint64_t period);

struct sim_engine;

/* Starts the task: creates the timing thread (SCHED_FIFO at cfg->timer_prio when permitted)
 * and the simulated thread, which record into *out (zeroed here) until sim_stop().
 * Returns the engine, or NULL with out->error / out->errmsg set when a thread could not be
 * created.  The caller's thread is free meanwhile (it waits for the stop request). */
struct sim_engine *sim_start(const struct sim_spec *spec, const struct sim_run_cfg *cfg,
			     struct sim_result *out);

/* Stops the task within one burn chunk (~100 us of work) or one 100 ms sleep slice, joins
 * both threads and frees the engine.  The period in progress takes no latency sample (its
 * latency is unknown); it and the periods after it whose deadline had passed count as missed
 * deadlines, and for an audio task as xruns as the buffer allows.  With a
 * SCHED_FIFO timing thread (cfg.timer_prio > 0) the simulated thread is raised to that
 * priority first, so it sees the stop at once even on CPUs saturated by load threads. */
void sim_stop(struct sim_engine *e);

#endif
