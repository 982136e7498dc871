/* Simulated interactive tasks: the periodic pattern a task follows (struct sim_desc, part of
 * its workload descriptor in workloads/), the periodic engine and its realtime timing thread. */
#ifndef IB_SIM_H
#define IB_SIM_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "explain/hook.h"
#include "lib/histogram.h"
#include "lib/interval.h"
#include "lib/schedpolicy.h"
#include "engine/timeline.h"
#include "lib/stats.h"
#include "engine/figure_row.h"
#include "engine/deadline.h"
#include "engine/frames.h"

struct sim_spec;
struct sim_thread;

/* "Average humans' limit of perception for jitter is in the order of 7ms" (the interbench 0.20
 * announcement, Con Kolivas, 2005): a latency above it is one a user may notice. */
#define SIM_PERCEPTIBLE_JITTER_NS 7000000ull

/* Most threads a task may have (sim_body.threads). */
#define SIM_MAX_THREADS 32

/* A task with threads of its own: the engine starts `threads` task threads, each running
 * run(t), and keeps the rest (the timing thread, the stop, each thread's scheduling setting and
 * name, and every period's accounting).  A body drives the periods with the calls below
 * sim_stop: one of its threads opens each period (sim_period_begin), its threads burn the
 * period's work (sim_burn) and wake each other (sim_wake, sim_wait_woken), and one closes it
 * (sim_period_end).  run must return once sim_stopped() is true: it may block only in
 * sim_period_begin, sim_wait_woken and sim_sleep_until, which the stop ends, or in a wait of
 * its own of at most SIM_STOP_SLICE_NS after which it looks at sim_stopped, and burn only by
 * sim_burn or sim_burn_aside.
 * tests/skeleton_task.c is the example (doc/adding-a-workload.md). */
struct sim_body {
	unsigned threads;       /* task threads, 1 to SIM_MAX_THREADS; thread 0 is named "ib-task",
	                           thread i "ib-task-<i>" */
	/* Memory the task's threads share for one run (sim_task_state), zeroed at the start, in
	 * bytes; 0 for none. */
	size_t state_bytes;
	void (*run)(struct sim_thread *t);  /* each thread's body; sim_thread_index(t) says which */
	/* Thread i's name (at most 15 characters, shown by ps and --explain's culprits) into buf;
	 * NULL: the names above. */
	void (*name)(unsigned i, char *buf, size_t len);
	/* The threads this run of the task starts, when its options decide (at most threads);
	 * NULL: threads. */
	unsigned (*threads_for)(const struct sim_spec *spec);
	/* Before any thread starts: sets up what the threads share beyond memory (a file
	 * descriptor) in state (state_bytes, zeroed).  Returns 0, or an errno value (the task
	 * does not start; errmsg names the call).  NULL: nothing. */
	int (*setup)(void *state, const struct sim_spec *spec, char *errmsg, size_t len);
	/* After every thread has returned: releases what setup took.  NULL: nothing. */
	void (*teardown)(void *state);
	/* The later stages of the task's chain --explain follows besides thread 0 (explain/hook.h);
	 * all zero: thread 0 alone. */
	struct explain_stages explained;
	/* Thread i's own scheduling, in place of the run's (-r, --policy, --nice; sim_run_cfg.sched):
	 * returns true and fills *s (its kind, nice, priority, reservation or slice) when thread i
	 * has one, false for the run's.  The engine applies it as it applies the run's, recording a
	 * refusal the same way.  NULL: every thread the run's. */
	bool (*thread_sched)(unsigned i, const struct sim_spec *spec, struct sched_setting *s);
	/* Thread i's CPUs, when it has its own: returns them (given), or NULL for the process's.
	 * Applied with sched_pin_cpus (sched_setaffinity(2)), a refusal recorded as above.  NULL:
	 * every thread the process's. */
	const struct optspec_cpus *(*thread_cpus)(unsigned i, const struct sim_spec *spec);
};


/* What the engine tells a task's measures of a period it closed (struct sim_measures
 * period_end), CLOCK_MONOTONIC ns. */
struct sim_period_facts {
	uint64_t index;          /* the period's number */
	uint64_t wake_ns;        /* its nominal start */
	uint64_t lateness_ns;    /* its start -> the task running */
	uint64_t finish_ns;      /* when it was closed */
	bool met;                /* finished by its deadline */
	uint64_t skipped;        /* whole periods dropped after it */
};

/* Bytes of the result's block a task's measures fill (sim_result.task): the largest task's
 * (a task file's figures, workloads/file.h: 32 threads' wake-up p99s and counts, and the
 * chain's). */
#define SIM_TASK_BLOCK_BYTES 448

/* A task with measures of its own (sim_desc.measures): per-run accounting the engine keeps
 * for it, fed by its body's threads (sim_measures_lock) and by the engine at defined points
 * (each period closed; each frame shown: sim_frame_shown), turned at sim_stop into a block of
 * the result (sim_result.task) that its figure rows read.  The figure tables
 * (report/figures.c) walk every registered task's rows with the core rows, so the table,
 * JSON writer, medians, reader, compare and export take them as they take the core figures.
 * tests/skeleton_measures.c is the example (doc/adding-a-workload.md). */
struct sim_measures {
	const char *name;        /* names the block (sim_result.task.name), at most 15 characters */
	size_t state_bytes;      /* the accounting, zeroed at sim_start, freed at sim_stop */
	/* true: the task's frame time is taken where its frames are shown (sim_frame_shown), not
	 * from one period's completion to the next. */
	bool shows_frames;
	/* At sim_start, before any thread: what the accounting needs of the task as it runs
	 * (ProAudio's buffer); NULL: nothing. */
	void (*start)(void *state, const struct sim_spec *spec);
	/* Called by the engine when a period was completed (not for one cut by the stop), with
	 * the accounting's lock held.  Returns true to mark the period in --timeline as one the
	 * task failed in its own terms (TIMELINE_XRUN: ProAudio's xrun).  NULL: nothing. */
	bool (*period_end)(void *state, const struct sim_period_facts *f);
	/* At sim_stop, after every thread is joined: the `unfinished` periods whose deadline
	 * passed while the task had not finished them, the first woken at wake_ns, the run
	 * stopped at end_ns (engine/deadline.h deadline_unfinished_periods); not called for a
	 * free-running task.  NULL: nothing. */
	void (*unfinished)(void *state, uint64_t wake_ns, uint64_t end_ns, uint64_t unfinished);
	/* At sim_stop, after every thread is joined: the accounting into the result's block of
	 * SIM_TASK_BLOCK_BYTES (zeroed), laid out as the rows' offsets in pair_summary.task say. */
	void (*figures)(const void *state, void *block);
	/* Its figure rows (offsets into struct pair_summary, engine/summary.h PAIR_TASK_OFFSET),
	 * in the JSON writer's order, and the labelled lines some of them go in (FIG_TASK_LINE). */
	const struct task_figure *rows;
	size_t n_rows;
	const struct figure_line *lines;
	unsigned n_lines;
	/* What its table columns (FIG_TASK_COLUMN rows) mean, for the run header's legend
	 * (report/table.h table_legend): "xruns: ...; overrun: ..." in words, or NULL. */
	const char *legend;
};

/* A result's block of a task's measures: its name ("" when the task has none) and the
 * figures its sim_measures.figures wrote. */
struct sim_task_block {
	char name[16];
	union {
		unsigned char bytes[SIM_TASK_BLOCK_BYTES];
		uint64_t align_u64;
		double align_double;
	} data;
};

/* The longest a task thread waits without looking at the stop: the engine's own sleeps are cut
 * into slices of it. */
#define SIM_STOP_SLICE_NS 100000000ull

/* A simulated task.  Periodic tasks are woken every interval_us by the timing thread and must
 * do work_us() of CPU work before the next wake-up; free-running tasks (Gaming) burn
 * interval_us of CPU per frame with no timing thread and no deadlines. */
struct sim_desc {
	uint64_t interval_us;     /* period (0 when its workload's options give it: Custom's -I) */
	unsigned cpu_pct;         /* CPU per period, % (0 when from the options; unused with work_us) */
	/* CPU work of period number `period` in microseconds; NULL means interval * cpu_pct. */
	uint64_t (*work_us)(const struct sim_spec *spec, uint64_t period);
	bool has_deadlines;       /* false: free-running frames (Gaming) */
	bool logs_frames;         /* its periods are frames a user watches (Video, Gaming, Pipeline):
	                             --frame-log writes them (report/output_framelog.h) */
	/* Periods in the task's own cycle, the least a run of it must cover to show its whole
	 * pattern (X: one 0-100 % sweep); 0: one period. */
	unsigned cycle_periods;
	/* The interval interbench 0.31 counts missed deadlines of period number `period` in, for
	 * its latency (engine/deadline.h deadline_interbench_latency_ns), in microseconds; NULL:
	 * the period.  X's: the frame's idle part, as 0.31's emulate_x passes (100 - i) ms. */
	uint64_t (*ib_interval_us)(const struct sim_spec *spec, uint64_t period);
	/* true: each period's work is a fixed count of calibrated loops, as latencytest's DSP
	 * computation was: a CPU slower than at calibration (time stolen while the task runs)
	 * makes the work take longer and shows as lateness and xruns.  false (every other task):
	 * the work is CPU time burnt by the thread's own clock (calibrate/calibrate.h burn_cpu_us),
	 * so the task uses the CPU share it asks for whatever the CPU's speed. */
	bool fixed_work;
	/* A note for the run header about how this task behaves in this run (duration_s per
	 * pair, 0 when each pair runs until its figures are known and at least cycle_periods; -r
	 * or not), e.g. X's partial sweep, written into buf ("" for none); called for
	 * every task the -W/-X selection names.  NULL: never a note. */
	void (*describe)(unsigned duration_s, bool realtime, char *buf, size_t len);
	/* The task's threads and what each does; NULL: one thread that does each period's work
	 * (each frame's, when free-running). */
	const struct sim_body *body;
	/* The task's own measures (its accounting, its result block and its figure rows), or
	 * NULL: the engine's figures only. */
	const struct sim_measures *measures;
	/* What spec's options resolved beyond its period, work and buffering, for the statement
	 * of its pattern (sim_pattern_text), into buf: ProAudio's "64 frames at 48000 Hz",
	 * Pipeline's vsync, stages and compositor.  NULL: nothing more. */
	void (*pattern_note)(const struct sim_spec *spec, char *buf, size_t len);
};

/* A task made concrete for one run: the descriptor plus its resolved period and CPU share. */
struct sim_spec {
	const struct sim_desc *desc;
	uint64_t interval_us;
	unsigned cpu_pct;
	/* Audio buffering, in periods (ProAudio's --periods): a period must complete within
	 * (buffer_periods - 1) periods of its nominal start, else the buffer ran dry (an xrun,
	 * counted by ProAudio's measures, workloads/proaudio_buffer.h).  0: not an audio task. */
	unsigned buffer_periods;
	/* A period is met when completed within deadline_us of its nominal start (a task file's
	 * "deadline"); 0: by the next period's start.  Periods are still dropped by the period. */
	uint64_t deadline_us;
	/* The workload's own options (its private config), for a body that reads them; NULL. */
	const void *opts;
};

/* A watch on the task's periods for --on-threshold (run/threshold.h), in memory the main
 * process shares with the bench process (MAP_SHARED, mapped before the fork).  A completed
 * period whose scheduling latency (the sample the latency figures take: the timing thread
 * awake -> the task running; a free-running task's overrun) exceeds threshold_ns is posted:
 * when main has taken the last one (pending 0), the thread that closed the period writes the
 * record, sets pending and, after the period's hand-off to the timing thread, writes one byte
 * to notify_fd (non-blocking; main polls its other end).  Nothing else runs in the task's or the
 * timing thread: what is done about it is main's.  The check is one compare per period. */
struct sim_late_watch {
	_Atomic uint64_t threshold_ns;   /* set by main; UINT64_MAX: nothing is posted */
	int notify_fd;                   /* the pipe's write end, or -1 */
	atomic_uint pending;             /* 1: a record main has not taken */
	/* The record (valid while pending): */
	uint64_t latency_ns;             /* the period's scheduling latency, ns */
	uint64_t period;                 /* its number in the pair */
	uint64_t at_ns;                  /* its nominal start, from the pair's first period */
	bool explained;                  /* --explain explained it: why holds it */
	struct explain_period why;
};

/* How a bench (or load) process runs the task. */
struct sim_run_cfg {
	uint64_t loops_per_ms; /* burn loops per millisecond of CPU, from calibrate/ or -l */
	struct sched_setting sched; /* each task thread's policy, nice, priority or reservation
	                               (zeroed: SCHED_OTHER at nice 0, left as it is), and how a
	                               periodic task is woken: with sched.own_timer it sleeps on its
	                               own absolute timer (clock_nanosleep) to each period's start and
	                               no timing thread runs, so no other thread's wake-up hands it a
	                               scheduling point; its latency is then its whole wake-up latency
	                               (timer expiry, wake-up, runqueue wait), no timer latency apart */
	int timer_prio;      /* SCHED_FIFO priority of the timing thread; 0 = normal priority */
	struct timeline_buf *timeline; /* every period recorded here (--timeline), or NULL */
	uint32_t timeline_pair;        /* the pair id of those records */
	struct frame_log_buf *frame_log; /* every frame recorded here (--frame-log), or NULL */
	const struct explain_config *explain; /* --explain, or NULL (periodic tasks only) */
	struct sim_late_watch *late;   /* --on-threshold's watch (shared with main), or NULL */
};

/* How a periodic task is woken (--wake), and the names the command line gives them. */
enum { SIM_WAKE_THREAD, SIM_WAKE_TIMER };

/* The name of wake-up i ("thread", "timer"), NULL past the last (an optspec name_at callback). */
const char *sim_wake_name_at(unsigned i);

/* Everything measured in one run of a simulated task. */
struct sim_result {
	struct deadline_acct acct;
	/* Scheduling latency: timing thread wake -> task running, ns.  This and every other latency
	 * take one sample per completed period (Gaming: per frame), none for a period cut off. */
	struct lat_stats sched;
	/* The max gets no interval (one sample decides it); these say how often latency was
	 * large instead: the periods whose scheduling latency exceeded the task's period (Gaming:
	 * a frame's overrun longer than a frame), and SIM_PERCEPTIBLE_JITTER_NS. */
	uint64_t sched_over_period, sched_over_perceptible;
	struct lat_stats timer;      /* timer latency: deadline -> timing thread awake, ns */
	/* Lateness: the period's nominal start (its wake time) -> task running, ns; timer latency
	 * plus scheduling latency, and the overrun of the period before when that made it late. */
	struct lat_stats lateness;
	/* The classic latency, interbench 0.31's definition, one sample per period run: the lateness
	 * less the timer's oversleep (the scheduling latency when the timer slept, the lateness when
	 * the period was already due), plus one whole period for each deadline the period missed, its
	 * own and the skipped ones after it (interbench 0.31 interbench.c, periodic_schedule's
	 * missed_latency). Gaming: the frame's overrun, as there.  Its mean, SD and max are the
	 * classic table's. */
	struct lat_stats classic;
	struct lat_hist sched_hist;
	/* The scheduling latency samples in order, for the 95 % intervals of their mean and p99
	 * (lib/interval.h: batch means, and batch counts below thresholds). */
	struct batch_means sched_bm;
	struct quantile_batches sched_qb;
	struct lat_hist timer_hist;
	struct lat_hist lateness_hist;
	uint64_t interval_us;        /* the task's period (for streak lengths in time) */
	/* Frame time: from one period's completion to the next's (Gaming: each frame's length), ns;
	 * the stutter a user sees, and Gaming's "1% low" frame rate. */
	struct lat_stats frame;
	struct lat_hist frame_hist;
	/* The same frames' average lows and stutter (engine/frames.h), taken at sim_stop. */
	struct frame_figures frame_figs;
	/* A task with measures of its own (sim_desc.measures): their block, taken at sim_stop;
	 * zeroed else. */
	struct sim_task_block task;
	struct loop_acct loop;       /* CPU-loop time (engine/deadline.h) */
	/* Calibrated loops burned beside the periods' work (sim_burn_aside: a task file's threads
	 * off its chain, all of a periodless file's), which a load counts as its work too. */
	uint64_t aside_loops;
	int timeline_error;          /* 0, or the errno of a failed write of the pair's timeline */
	bool timeline_truncated;     /* the pair had more periods than TIMELINE_MAX_RECORDS */
	/* The task threads' own CPU time (CLOCK_THREAD_CPUTIME_ID, summed over its threads) and the
	 * wall time from its first period (Gaming: its first frame) to the end of its last thread,
	 * ns: the CPU the task really got, measured apart from the work accounting. */
	uint64_t task_cpu_ns, task_wall_ns;
	/* When the task's period 0 was due (a free-running task: when it was started),
	 * CLOCK_MONOTONIC ns: the origin of its periods' start_ns (engine/timeline.h), for an
	 * output that places them on the run's clock (report/output_trace.c); 0 when it never
	 * started. */
	uint64_t start_ns;
	bool timer_rt;               /* the timing thread really ran SCHED_FIFO */
	/* --explain: the explained periods (explain/model.h); explain_error: 0, or the errno of a
	 * failed read of the schedstat floor (no periods are explained after it). */
	struct explain_summary explain;
	struct explain_kept explain_kept;
	int explain_error;
	/* The two-sided error probability its within-run intervals are computed at: the share of
	 * CI_ALPHA spent at the look that ended the run (engine/intervals.h, run/stoprule.h
	 * stop_result_alpha), set by whoever ran the engine and looked at it (run/pair.c); 0 for
	 * CI_ALPHA, a fixed window. */
	double ci_alpha;
	int error;                   /* 0, or an errno value from a failed call */
	char errmsg[160];            /* names the call that failed */
};

/* Resolves desc into spec with the pattern's own period and CPU share (a workload whose options
 * give them sets them afterwards: workload_sim_spec). */
void sim_spec_init(struct sim_spec *spec, const struct sim_desc *desc);

/* Work in microseconds for period `period` of spec (the descriptor's work_us, or the fixed
 * interval * cpu_pct / 100). */
uint64_t sim_work_us(const struct sim_spec *spec, uint64_t period);

/* The least and most work of spec's periods over its cycle (sim_desc.cycle_periods, one period
 * when 0), microseconds: equal for a task whose every period asks the same. */
void sim_work_range_us(const struct sim_spec *spec, uint64_t *lo_us, uint64_t *hi_us);

/* us as milliseconds to the microsecond, trailing zeros dropped ("1.333", "50", "2.5"), into
 * buf of len bytes; returns buf. */
const char *sim_ms_text(uint64_t us, char *buf, size_t len);

/* The task's resolved pattern as the run header states it and the JSON's task_settings keeps
 * it: "period 1.333 ms, work 1.066 ms (80 %), buffer 2 periods (64 frames at 48000 Hz)" (times
 * in ms to the microsecond; work as a range over the cycle when it varies, X's "0-100 ms
 * (0-100 %)"; "no buffer"; "no deadlines" for a free-running task; the descriptor's
 * pattern_note in parentheses), into buf of len bytes. */
void sim_pattern_text(const struct sim_spec *spec, char *buf, size_t len);

struct sim_engine;

/* Starts the task: creates the timing thread (SCHED_FIFO at cfg->timer_prio when permitted;
 * none for a free-running task) and the task's threads (sim_desc.body), which record into
 * *out (zeroed here) until sim_stop().  Each task thread applies cfg->sched to itself; a
 * refusal is recorded in out->error / errmsg and the task runs on.  Returns the engine, or
 * NULL with out->error / out->errmsg set when a thread or memory could not be had (ENOMEM,
 * pthread_create's error) or the body asks for 0 or more than SIM_MAX_THREADS threads (EINVAL).
 * The caller's thread is free meanwhile (it waits for the stop request). */
struct sim_engine *sim_start(const struct sim_spec *spec, const struct sim_run_cfg *cfg,
			     struct sim_result *out);

/* Stops the task within one burn chunk (~100 us of work) or one 100 ms sleep slice, joins
 * every thread and frees the engine.  The period in progress takes no latency sample (its
 * latency is unknown); it and the periods after it whose deadline had passed count as missed
 * deadlines, and for a task with measures as they count them (sim_measures.unfinished).  With a
 * SCHED_FIFO timing thread (cfg.timer_prio > 0) each task thread is raised to that
 * priority first, so it sees the stop at once even on CPUs saturated by load threads.
 * NULL: nothing. */
void sim_stop(struct sim_engine *e);

/* Copies, while the task runs, what engine/intervals.h reads of its result so far into dst:
 * sched, sched_hist, sched_bm, sched_qb, acct and interval_us, each taken whole between two
 * periods (a lock the recording of a period holds; about 45 KB copied, so a period that ends
 * meanwhile waits a few microseconds).  The other fields of dst are left as they are.  The
 * periods not finished yet are not in it: sim_stop accounts them. */
void sim_snapshot(struct sim_engine *e, struct sim_result *dst);

/* The calls a body (struct sim_body) makes from its task threads. */

/* One period (a frame, when free-running) as its body sees it. */
struct sim_period {
	uint64_t index;      /* period number, from 0; skipped periods take numbers too */
	uint64_t start_ns;   /* its nominal start, CLOCK_MONOTONIC ns: the timing thread's wake time
	                        (free-running: when the frame began) */
	uint64_t work_us;    /* the CPU work it asks for, microseconds (sim_work_us; free-running:
	                        the frame, interval_us) */
};

/* Opens the next period: waits for the timing thread to wake the task for it (free-running:
 * begins the next frame at once) and fills *p (may be NULL).  The scheduling latency and
 * lateness are taken from when it returns.  Returns false, with nothing opened, once the task
 * is stopped.  One thread calls it per period, after the period before was closed. */
bool sim_period_begin(struct sim_thread *t, struct sim_period *p);

/* Fills *p with the period open now (for a thread other than the one that opened it, after it
 * was woken for it). */
void sim_period_current(const struct sim_thread *t, struct sim_period *p);

/* Burns work_us microseconds of the open period's work on the calling thread, as the task
 * defines work (sim_desc.fixed_work: calibrated loops, else the thread's own CPU time), and
 * adds the loops run and CPU time used to the period's CPU-loop figure.  Stops early, within
 * one burn chunk, when the task is stopped; the period is then unfinished.  Returns the work
 * done, microseconds (work_us unless stopped).  Threads may burn for one period at once. */
uint64_t sim_burn(struct sim_thread *t, uint64_t work_us);

/* Closes the open period once all its work is burnt (any thread, once): records its latency
 * samples, CPU-loop time, frame time, deadline (or the frame's overrun), audio xruns and
 * timeline record, and hands the next period's wake time to the timing thread.  A period whose
 * work was cut short by the stop records nothing (sim_stop accounts it); a free-running frame
 * so cut records its overrun when it already had one.  Returns true when the period was
 * completed, false when the body should return. */
bool sim_period_end(struct sim_thread *t);

/* Burns work_us microseconds of CPU on the calling thread by its own clock, as sim_burn does,
 * for work that is not the open period's (a compositor's at each vsync): nothing is added to
 * the period's figures (its loops go to sim_result.aside_loops).  Stops early when the task is
 * stopped.  Returns the work done, us. */
uint64_t sim_burn_aside(struct sim_thread *t, uint64_t work_us);

/* Sleeps until the absolute CLOCK_MONOTONIC time at_ns, in slices, returning early when the
 * task is stopped.  Returns false once stopped, true at or after at_ns. */
bool sim_sleep_until(struct sim_thread *t, uint64_t at_ns);

/* The nominal start of the task's period 0, CLOCK_MONOTONIC ns (fixed at sim_start). */
uint64_t sim_start_ns(const struct sim_thread *t);

/* The task as it runs: its period, CPU share and its workload's options (sim_spec.opts). */
const struct sim_spec *sim_task_spec(const struct sim_thread *t);

/* A task with measures of its own (sim_desc.measures): its accounting state, locked against
 * the engine's and the other threads' use of it until sim_measures_unlock; NULL (nothing
 * locked) for a task without. */
void *sim_measures_lock(struct sim_thread *t);
void sim_measures_unlock(struct sim_thread *t);

/* A task whose measures show frames (sim_measures.shows_frames): frame number `frame` (a
 * period's index) was shown at shown_ns, frame_ns after the last frame shown before it (0: the
 * first, no frame time).  Its frame time goes into the task's frame figures and, with
 * --timeline, shown_ns into its period's record (a period among the last SIM_SHOWN_WITHIN
 * recorded). */
#define SIM_SHOWN_WITHIN 16u
void sim_frame_shown(struct sim_thread *t, uint64_t frame, uint64_t shown_ns, uint64_t frame_ns);

/* A task whose measures show frames: the points frame number `frame` passed on its way to the
 * display before it was shown, at_ns[0..TIMELINE_MARKS) (CLOCK_MONOTONIC ns, 0: not passed),
 * and when the input it picked up at at_ns[0] happened, input_ns (0: none); with --timeline,
 * into its period's record (engine/timeline.h marks_ns, input_age_ns), as sim_frame_shown puts
 * shown_ns. */
void sim_frame_marks(struct sim_thread *t, uint64_t frame, uint64_t input_ns, const uint64_t *at_ns);

/* Whether the task is being stopped (sim_stop). */
bool sim_stopped(const struct sim_thread *t);

/* Wakes task thread number `to` (below sim_body.threads; a counting wake-up, so none is lost
 * when it is not waiting yet).  Another number is ignored. */
void sim_wake(struct sim_thread *t, unsigned to);

/* Waits until another task thread wakes the calling one (sim_wake).  Returns true when woken,
 * false once the task is stopped. */
bool sim_wait_woken(struct sim_thread *t);

/* The calling thread's number, 0 to sim_body.threads - 1. */
unsigned sim_thread_index(const struct sim_thread *t);

/* The task's shared memory (sim_body.state_bytes, zeroed at sim_start), or NULL when it asked
 * for none. */
void *sim_task_state(const struct sim_thread *t);

#endif
