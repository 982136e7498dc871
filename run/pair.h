/* One benchmark pair: a simulated task measured in its own process while a load runs in
 * another.  The load starts first; once it reports that it is really loading (load_is_ready)
 * and a short settle time has passed, the bench runs for the duration; both are stopped,
 * their results read back over pipes, and both reaped. */
#ifndef IB_PAIR_H
#define IB_PAIR_H
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "host/cgplace.h"
#include "host/disturb.h"
#include "host/scx.h"
#include "lib/optspec.h"
#include "lib/schedpolicy.h"
#include "run/stoprule.h"
#include "run/threshold.h"
#include "loadkit/load.h"
#include "engine/sim.h"
#include "engine/summary.h"

/* The load's head start before the bench: the bench starts PAIR_SETTLE_MS after the load
 * reports ready, but never before PAIR_RAMP_MIN_MS from the load's start: three half-lives of
 * the scheduler's PELT load average (32 ms, kernel/sched/pelt.c), so the kernel sees the
 * load at about 90% of its steady weight.  A load not ready within PAIR_READY_MAX_MS (the
 * fixed 1 s ramp of interbench 0.31 and of this program before readiness) gets the bench
 * anyway, and the pair says so (pair_outcome.load_ready). */
#define PAIR_RAMP_MIN_MS 100u
#define PAIR_SETTLE_MS 50u
#define PAIR_READY_MAX_MS 1000u

struct pair_params {
	struct sim_spec spec;
	struct sim_run_cfg run_cfg;      /* how the bench process runs the task */
	struct load_ctx *load;           /* prepared load */
	struct sched_setting load_sched; /* the load process's policy and nice (-N, --load-policy),
	                                    inherited by its threads */
	const struct optspec_cpus *bench_cpus; /* CPUs of the bench process (--bench-cpus), NULL: any */
	const struct optspec_cpus *load_cpus;  /* CPUs of the load process (--load-cpus), NULL: any */
	/* The cgroups the bench and the load process enter first thing, before any thread of
	 * theirs starts (--bench-cgroup, --load-cgroup: host/cgplace.h); NULL: main's */
	const struct cgplace *bench_cgroup, *load_cgroup;
	uint64_t duration_ns;            /* timed window of the bench (with stop: its most, the
	                                    last look, to which main adds a grace) */
	const struct stop_plan *stop;    /* the looks of an adaptive window (no -t), or NULL: a
	                                    fixed window of duration_ns */
	int timeline_fd;                 /* --timeline file (O_APPEND), or -1: the bench process
	                                    writes the pair's periods there after its stop */
	uint32_t timeline_pair;          /* the pair id its records carry */
	int frame_log_fd;                /* --frame-log's private file, or -1: for a task that logs
	                                    frames (sim_desc.logs_frames) the bench process writes
	                                    the pair's frames there after its stop, from offset 0
	                                    (engine/frames.h frame_log_write) */
	const volatile sig_atomic_t *interrupted; /* set by main's signal handler */
	/* --on-threshold: the bench process keeps the watch's pipe (threshold_pair_begin made it)
	 * and main takes each period it posts as it comes (threshold_take); NULL: none. */
	struct threshold_run *threshold;
	void (*tick)(void *arg, uint64_t now_ns); /* called at each of main's wake-ups while the
	                                             pair runs (every POLL_SLICE_MS at most), or NULL */
	void *tick_arg;
};

/* One non-empty bucket of a latency histogram (lib/histogram.h): its index and count. */
struct hist_bucket {
	uint32_t index;
	uint64_t count;
};

/* What the bench process hands main for one run of the task: what the outputs read of its
 * struct sim_result (engine/sim.h), made where it was measured (bench_record_make), so the
 * summary is computed once and the result itself (about 186 KB, mostly empty histogram
 * buckets) never leaves that process.  On the pipe: the fixed part, then the arrays its
 * counts size (the pointers are the reader's own). */
struct bench_record {
	struct pair_summary summary;     /* every figure (engine/summary.h) */
	bool timer_rt;                   /* the timing thread really ran SCHED_FIFO */
	uint64_t start_ns;               /* sim_result.start_ns: the task's period 0, CLOCK_MONOTONIC ns */
	/* --explain's periods as measured (explain/model.h), unsorted: each output sorts its own
	 * copy (explain_summary_sort); explain.tracer_run_ns is set by main (pair_run) */
	struct explain_summary explain;
	int timeline_error;              /* 0, or the errno of a failed write of the pair's timeline */
	bool timeline_truncated;         /* the pair had more periods than TIMELINE_MAX_RECORDS */
	int error;                       /* 0, or an errno value from a failed call */
	char errmsg[160];                /* names the call that failed */
	/* The JSON's latency_histogram and timer_latency_histogram: the non-empty buckets of
	 * sim_result.sched_hist, then of timer_hist, by index (at most HIST_BUCKETS each) */
	uint32_t sched_buckets, timer_buckets;
	struct hist_bucket *buckets;     /* sched_buckets + timer_buckets, or NULL when none */
	uint32_t kept_periods;           /* --explain's periods kept (explain_kept.n) */
	struct explain_period *kept;     /* them, oldest first, or NULL when none */
};

/* The bench_record of r into *out: its summary (pair_summarize) and what the outputs read
 * besides, the arrays allocated (bench_record_free).  Returns 0, or -1 with errno ENOMEM
 * (out then holds no array and says so in error and errmsg). */
int bench_record_make(const struct sim_result *r, struct bench_record *out);

/* Frees what b's arrays hold (b's counts stay); NULL arrays are fine. */
void bench_record_free(struct bench_record *b);

/* Checks a record that crossed the pipe from the bench process, which main does not trust:
 * every count within its array (sched_buckets and timer_buckets at most HIST_BUCKETS,
 * kept_periods at most EXPLAIN_KEEP, explain.nwho, nirq and nstages at most EXPLAIN_PAIR_WHO,
 * EXPLAIN_PAIR_IRQS and EXPLAIN_MAX_STAGES, each kept period's ntop at most EXPLAIN_TOP); each
 * histogram's buckets (when b->buckets holds them) non-empty, below HIST_BUCKETS and in
 * rising index order, as bench_record_make writes them.  Then forces a NUL at the end of
 * every string: errmsg, summary.task.name, the explain summary's and the kept periods' comm
 * and name.  Counts whose arrays are NULL are only bounded.  Returns 0, or -1 with errno
 * EPROTO and err naming the member, its value and its bound ("explain.nwho 13, at most 12"). */
int bench_record_check(struct bench_record *b, char *err, size_t errlen);

/* Reads a bench record from fd as the bench process writes it: its fixed part, *stop, then
 * the arrays its counts size, all by end_ns (now_ns's clock), and checks it
 * (bench_record_check).  Returns 0, or -1 with errno ETIMEDOUT (end_ns passed), EPIPE (the
 * writer closed early), EPROTO (refused: err names why), ENOMEM or poll/read's error; rec then
 * holds no array and zero counts, and err says what failed. */
int bench_record_receive(int fd, struct bench_record *rec, struct pair_stop *stop, uint64_t end_ns, char *err,
			 size_t errlen);

/* b's kept periods as struct explain_kept into *out (explain_kept_at gives them in order). */
void bench_record_kept(const struct bench_record *b, struct explain_kept *out);

/* The one record of a run of a pair: what pair_run measured, kept whole by the run's matrix
 * (run/matrix.h) and read there by every output (report/sink.h). */
struct pair_outcome {
	bool ran;                        /* set by the matrix: this repeat was attempted (pair_run
	                                    zeroes the record first) */
	int64_t timeline_pair;           /* set by the matrix: the pair id its --timeline records
	                                    carry, or -1 when none were written */
	bool ok;                         /* both processes ran and reported */
	bool interrupted;                /* the window was cut short by a signal */
	char why[320];                   /* the reason when !ok */
	struct bench_record bench;       /* the bench's measurements (valid when ok) */
	struct pair_stop stop;           /* how the window ended (valid when ok) */
	struct load_counters load;       /* the load's counters (zero if it never reported) */
	uint64_t window_ns;              /* how long the bench actually ran */
	uint64_t window_start_ns;        /* when that window began, CLOCK_MONOTONIC ns (0: never) */
	uint64_t ramp_ns;                /* from the load's start to the bench's */
	bool load_ready;                 /* the load reported ready within PAIR_READY_MAX_MS */
	struct disturbance disturbance;  /* what else ran on the run's CPUs over the window:
	                                    pair_run says how it is measured */
	struct load_activity load_activity; /* whether the load ran through the window: its state
	                                       and CPU time at each of main's wake-ups in it */
	uint64_t oom_kills_before;       /* the kernel's OOM kills before the pair (host/oom.h), to
	                                    name the OOM killer as a child's likely killer */
	struct threshold_events on_threshold; /* what --on-threshold's actions did in this pair */
	char sched_ext_ops[SCX_OPS_NAME_MAX]; /* set by the matrix under --scheduler: the name the
	                                    kernel gave the sched_ext scheduler the pair ran under
	                                    (root/ops, its version in it where the scheduler puts
	                                    one), "" for the fair class or without --scheduler */
};

/* Runs the pair.  Over the bench's timed window it measures out->disturbance (host/disturb.h):
 * /proc/stat's busy time of the run's CPUs (the union of bench_cpus and load_cpus when both
 * are given, else the CPUs this process may run on: machine_allowed_cpus) minus the CPU time
 * of the run's own processes, main, the bench and the load with every thread (utime + stime
 * of /proc/<pid>/stat, read at both edges of the window while all three are alive: exact for
 * the window up to a tick per reading, where the children's rusage would only come at their
 * reaping and include their start and stop).  Main's time is subtracted though it may run on
 * other CPUs, and processes the load forks are not the run's: both err towards less outside
 * time, never more.  A reading that fails leaves disturbance.measured false.
 * Every wait is bounded: a child that does not report within its grace time
 * is killed.  A child that dies early is noticed within the poll interval and named in why.
 * Returns 0 (see out->ok), or -1 when a process could not even be started (why says so). */
int pair_run(const struct pair_params *p, struct pair_outcome *out);

#endif
