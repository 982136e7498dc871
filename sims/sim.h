/* Simulated interactive tasks: descriptors, the periodic engine and its realtime timing
 * thread.  One file per task in sims/ exports a struct sim_desc; sims/sims.c lists them. */
#ifndef IB_SIM_H
#define IB_SIM_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/histogram.h"
#include "lib/stats.h"
#include "sims/deadline.h"

struct sim_spec;

/* A simulated task.  Periodic tasks are woken every interval_us by the timing thread and must
 * do work_us() of CPU work before the next wake-up; free-running tasks (Gaming) burn
 * interval_us of CPU per frame with no timing thread and no deadlines. */
struct sim_desc {
	const char *name;
	const char *help;         /* one line for -h */
	uint64_t interval_us;     /* period (0 for Custom: from -I) */
	unsigned cpu_pct;         /* CPU per period, % (0 for Custom: from -C; unused with work_us) */
	/* CPU work of period number `period` in microseconds; NULL means interval * cpu_pct. */
	uint64_t (*work_us)(const struct sim_spec *spec, uint64_t period);
	bool has_deadlines;       /* false: free-running frames (Gaming) */
	unsigned flags;           /* SIM_* */
	/* A note for the run header about how this task behaves in this run (duration_s per
	 * pair, -r or not), e.g. X's partial sweep, written into buf ("" for none); called for
	 * every task the -W/-X selection names.  NULL: never a note. */
	void (*describe)(unsigned duration_s, bool realtime, char *buf, size_t len);
};

#define SIM_BENCH_NORMAL 0x1u /* benchmarked in normal (SCHED_OTHER) runs */
#define SIM_BENCH_RT     0x2u /* benchmarked in -r (SCHED_FIFO) runs */
#define SIM_CUSTOM       0x4u /* interval and CPU come from -I / -C; skipped unless given */

/* A task made concrete for one run: the descriptor plus its resolved period and CPU share. */
struct sim_spec {
	const struct sim_desc *desc;
	uint64_t interval_us;
	unsigned cpu_pct;
};

/* How a bench (or load) process runs the task. */
struct sim_run_cfg {
	uint64_t loops_per_ms; /* burn loops per millisecond of CPU, from calibrate/ or -l */
	bool realtime;       /* simulated thread SCHED_FIFO at sim_prio (else SCHED_OTHER at nice) */
	int sim_prio;        /* SCHED_FIFO priority for realtime runs */
	int nice;            /* nice of the simulated thread for normal runs */
	int timer_prio;      /* SCHED_FIFO priority of the timing thread; 0 = normal priority */
};

/* Everything measured in one run of a simulated task. */
struct sim_result {
	struct deadline_acct acct;
	struct lat_stats sched;      /* scheduling latency: timing thread wake -> task running, ns */
	struct lat_stats timer;      /* timer latency: deadline -> timing thread awake, ns */
	struct lat_hist sched_hist;
	struct lat_hist timer_hist;
	bool timer_rt;               /* the timing thread really ran SCHED_FIFO */
	int error;                   /* 0, or an errno value from a failed call */
	char errmsg[160];            /* names the call that failed */
};

/* Resolves desc into spec; Custom takes custom_interval_us and custom_cpu_pct. */
void sim_spec_init(struct sim_spec *spec, const struct sim_desc *desc,
		   uint64_t custom_interval_us, unsigned custom_cpu_pct);

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
 * both threads and frees the engine; the period in progress is not accounted.  With a
 * SCHED_FIFO timing thread (cfg.timer_prio > 0) the simulated thread is raised to that
 * priority first, so it sees the stop at once even on CPUs saturated by load threads. */
void sim_stop(struct sim_engine *e);

/* The table of simulated tasks, in benchmark order, and lookups in it. */
extern const struct sim_desc *const sim_table[];
extern const unsigned sim_count;
/* Index of the task named name (case-insensitive), or -1. */
int sim_find(const char *name);

/* X's sweep length: 101 steps of 0..100% CPU, one per 100 ms frame.  The 0-100% range is
 * interbench's X (0.20 announcement in shared/seeds); 1% steps in 100 ms frames are issue 2's
 * specification of the sweep. */
#define X_STEPS 101u
#define X_FRAME_US 100000u

#endif
