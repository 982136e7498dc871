/* The run's matrix: every pair of the plan (run/plan.h), round by round for --repeat, each in
 * its own pair of processes (run/pair.h), its load prepared once for the run, settled after
 * each pair and cleaned up at the end; each run of a pair leaves its one record (struct
 * pair_outcome, run/pair.h) in the result store, item-major, which every output reads.  A signal (the flag in matrix_params.interrupted) stops the matrix after the pair
 * it cuts short, whose partial measurement is kept.  The matrix prints nothing: it says what
 * happens through a struct matrix_sink (the run's report implements it, report/sink.h), and a
 * test can give it a stub pair runner and a sink that records the calls (tests/check_matrix.c).
 * The shape of fio's backend.c and rtla's run_tool() over its tool_ops: the loop here, the
 * outputs behind callbacks. */
#ifndef IB_MATRIX_H
#define IB_MATRIX_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "calibrate/calibrate.h"
#include "run/mainproc.h"
#include "run/options.h"
#include "run/pair.h"
#include "run/scheduler.h"
#include "run/plan.h"
#include "run/sweep.h"
#include "run/progress.h"
#include "host/runlock.h"
#include "loadkit/load.h"

/* A load for the whole run: its context (copied into each of its load processes) and main's
 * own record of its prepare hook. */
struct matrix_load {
	struct load_ctx ctx;
	bool prepared;             /* prepare succeeded (not run again) */
	bool prepare_failed;       /* prepare failed: every pair with this load is reported failed */
	char prepare_why[200];     /* why, when prepare_failed */
};

/* What the matrix runs, set by the caller before matrix_init; every pointer must outlive the
 * matrix. */
struct matrix_params {
	const struct plan *plan;
	const struct options *opt;       /* the workloads' options (load contexts), -q, --cpus */
	const struct sweep_side *load;   /* the load settings: item l runs at load->s[l] */
	unsigned repeats;                /* rounds (--repeat), at least 1 */
	uint64_t shuffle_seed;           /* with several rounds, each runs its pairs in the order
	                                    matrix_round_order gives for this seed */
	uint64_t duration_ns;            /* the timed window of each pair, nanoseconds; with
	                                    precision, its most (--max-time) */
	/* The adaptive window (no -t): each pair stops at the first of its looks at which its
	 * judged figures are known to this precision (run/stoprule.h), after at least min_ns
	 * and its task's cycle; NULL: a fixed window of duration_ns. */
	const struct precision *precision;
	uint64_t min_ns;
	/* --budget: rounds of sub-runs (each pair's window duration_ns, at least its task's
	 * cycle), from MATRIX_BUDGET_MIN_SUBRUNS rounds on only the pairs the sink's item_settled
	 * says need more, until every pair is settled, `repeats` rounds ran, or the next round
	 * would end past budget_ns from the first pair's start (estimated from the last round's
	 * time per pair); 0: every round runs every pair. */
	uint64_t budget_ns;
	const struct load_config *load_cfg; /* what every load shares (threads, loops_per_ms) */
	struct mainproc main;            /* main's scheduling: the timer priority, SCHED_OTHER
	                                    between pairs */
	int timeline_fd;                 /* --timeline's file, or -1 */
	int frame_log_fd;                /* --frame-log's private file (run/pair.h), or -1 */
	const volatile sig_atomic_t *interrupted; /* set by main's signal handler: stop */
	struct run_watch *watch;         /* polled for another run while pairs run, or NULL */
	/* After every pair, check the CPU's speed (calib_check_speed, about 0.45 s) into
	 * matrix.drift against speed_reference (calib_reference of the run's calibration), so a
	 * CPU that ran at another speed than calibrated during the run is noticed. */
	bool check_rate;
	struct calib_range speed_reference;
	/* --scheduler: switched to each pair's (its bench setting's scheduler) before it runs and
	 * checked after it (run/scheduler.h); NULL without --scheduler. */
	struct run_scheduler *scheduler;
	/* --on-threshold's rules (run/threshold.h), or NULL: each pair is watched with them, and a
	 * stop action ends the matrix after the pair it fired in, as a signal would but with its
	 * items complete and run_end told no signal. */
	struct threshold_run *threshold;
	/* --bench-cgroup and --load-cgroup ([0] and [1]): the cgroup each bench and load process
	 * enters (run/pair.h), the one given or its setting's alternative; NULL or empty: main's. */
	const struct cgplace_set *cgroups;
	/* Runs one pair as pair_run does (run/pair.h); NULL: pair_run.  A test's stub. */
	int (*pair_run)(const struct pair_params *p, struct pair_outcome *out);
};

/* The fewest rounds of a --budget run before a pair may be settled: two sub-runs give a
 * spread of one degree of freedom, three the least that the decisions' intervals are
 * usefully narrow at (t(2, 0.975) = 4.30 against 12.71). */
#define MATRIX_BUDGET_MIN_SUBRUNS 3
/* A --budget run's most sub-runs a pair, unless --repeat gives another. */
#define MATRIX_BUDGET_MAX_SUBRUNS 20
/* A --budget run's sub-run window without -t, seconds (and at least the task's cycle). */
#define MATRIX_BUDGET_SUBRUN_S 5
/* The budget's default, seconds for each pair (plan item) of the run, interbench 0.31's
 * default window; a pair whose sub-runs are longer (X: one 10.1 s sweep each) gets room for
 * one more than MATRIX_BUDGET_MIN_SUBRUNS of them instead (matrix_budget_ns). */
#define MATRIX_BUDGET_PER_PAIR_S 30
/* What a sub-run takes beyond its window, for the budget's default: the ramp-up (0.1 to 1 s),
 * the CPU speed check after it (about 0.45 s) and the pair's start and stop (bench/RESULTS.md,
 * "Overhead per pair": 0.12 s); 5 s sub-runs of Audio took 5.5 to 6 s here. */
#define MATRIX_SUBRUN_OVERHEAD_MS 1500

/* The budget of a run of o (o->window RUN_WINDOW_BUDGET) over the items of plan, nanoseconds:
 * --budget, else for each item the larger of MATRIX_BUDGET_PER_PAIR_S and MATRIX_BUDGET_MIN_SUBRUNS
 * + 1 of its sub-runs (its window, at least its task's cycle, plus MATRIX_SUBRUN_OVERHEAD_MS);
 * 0 for the other windows. */
uint64_t matrix_budget_ns(const struct options *o, const struct plan *plan);

/* The room for what an unsettled pair waits for (struct matrix .why), the NUL included. */
#define MATRIX_WHY_LEN 32

/* The matrix of a run: its parameters, loads and result store. */
struct matrix {
	struct matrix_params p;
	struct matrix_load *loads;       /* one per workload_table entry */
	struct pair_outcome *reps;       /* the records, plan->n x repeats, item-major: matrix_reps;
	                                    pair_run writes each in place */
	size_t *order;                   /* the running order of the round running: plan items */
	uint32_t timeline_seq;           /* the pair id of the pair running: pairs run so far */
	struct progress progress;        /* the status line on a terminal's stderr (run/progress.h) */
	struct calib_drift drift;        /* the speeds checked after the pairs (check_rate), its
	                                    list one per pair run */
	uint64_t t0_ns;                  /* when matrix_run began (now_ns), for the checks' times */
	bool *settled;                   /* --budget: plan item i needs no more sub-runs */
	char (*why)[MATRIX_WHY_LEN];     /* --budget: what item i, not settled, waits for (the sink's
	                                    item_settled: "p99 latency", "disturbed"; "under 3
	                                    sub-runs" before it was asked) */
	uint64_t *last_ns;               /* plan item i's last run, its speed check included, ns */
	unsigned rounds;                 /* the rounds that ran (or began) */
};

/* Where the matrix reports, in this order: run_begin once; per pair, pair_measured; per item
 * whose repeats are all run (right after its pair with one repeat, after the last round with
 * several, for every item with at least one repeat run), item_complete; round_done after each
 * round; run_end once, after the loads are cleaned up.  Every callback may be NULL; arg is
 * passed back to each. */
struct matrix_sink {
	void *arg;
	/* Before the first pair. */
	void (*run_begin)(void *arg, const struct matrix *m);
	/* Repeat `repeat` (0-based) of plan item `item` ran: po is its record in the store
	 * (matrix_reps); timeline_pair is po->timeline_pair. */
	void (*pair_measured)(void *arg, const struct matrix *m, size_t item, unsigned repeat,
			      const struct pair_outcome *po, int64_t timeline_pair);
	/* Item `item` has its repeats: reps[0..n) (n >= 1, the leading repeats that ran). */
	void (*item_complete)(void *arg, const struct matrix *m, size_t item, const struct pair_outcome *reps,
			      unsigned n);
	/* --budget, after each round from MATRIX_BUDGET_MIN_SUBRUNS on: whether item `item`, not
	 * yet settled, needs no more sub-runs (report/run_decisions.h); when not, what it waits for
	 * in why (whylen bytes).  NULL: never settled. */
	bool (*item_settled)(void *arg, const struct matrix *m, size_t item, char *why, size_t whylen);
	/* Round `round` (0-based) of m->p.repeats ended; interrupted when a signal cut it short. */
	void (*round_done)(void *arg, const struct matrix *m, unsigned round, bool interrupted);
	/* The run ended: sig is the signal that stopped it, or 0. */
	void (*run_end)(void *arg, const struct matrix *m, int sig);
};

/* The running order of round `round` (0-based) of a run with shuffle seed `seed`: order[0..n)
 * a permutation of 0..n-1, by Fisher-Yates from splitmix64 (lib/nbrandom.h) seeded by seed
 * and round; the same for the same arguments.  A drift of the machine through a round then
 * falls on no setting more than another, while the store and the tables keep the plan's
 * order.  matrix_run uses it with several rounds; one round keeps the plan's order. */
void matrix_round_order(uint64_t seed, unsigned round, size_t *order, size_t n);

/* Sets m up for p: the result store (every repeat not yet run) and one load context per
 * workload_table entry.  Returns 0, or -1 with errno set by calloc (m then holds nothing to
 * free). */
int matrix_init(struct matrix *m, const struct matrix_params *p);

/* Runs the plan round by round (each round's pairs in matrix_round_order's order when there
 * are several rounds, else in the plan's) until every repeat ran or the interrupted flag is set, telling
 * sink (may be NULL) as struct matrix_sink says, then cleans up the loads (their scratch
 * files).  Returns the signal that stopped it, or 0. */
int matrix_run(struct matrix *m, const struct matrix_sink *sink);

/* Plan item `item`'s records, reps[0..m->p.repeats), in repeat order. */
const struct pair_outcome *matrix_reps(const struct matrix *m, size_t item);

/* How many leading repeats of plan item `item` ran (a signal stops a round part way). */
unsigned matrix_ran(const struct matrix *m, size_t item);

/* How many (item, repeat) runs were measured (ran and ok), interrupted ones included. */
size_t matrix_measured(const struct matrix *m);

/* How many (item, repeat) runs failed (ran, not ok: a load or the task could not start, was
 * killed, did not report), interrupted ones included. */
size_t matrix_failed(const struct matrix *m);

/* The name of plan item `item`'s load ("Burn"). */
const char *matrix_load_name(const struct matrix *m, size_t item);

/* The seed of a run's shuffled rounds (matrix_params.shuffle_seed): o's --seed, else drawn
 * without blocking (lib/nbrandom.h), in 1 up to OPT_MAX_SEED; 0 with one round (plan order). */
uint64_t matrix_shuffle_seed(const struct options *o);

/* Cleans up the loads (again: their cleanup hooks allow it) and frees what m holds. */
void matrix_free(struct matrix *m);

/* What the pairs of a budget run not yet settled wait for, into buf (len bytes): "undecided 5:
 * p99 latency 3, disturbed 2" (each reason with its count, in the order first met; "under 3
 * sub-runs" before a pair was asked), "" when none is left or without a budget. */
void matrix_undecided(const struct matrix *m, char *buf, size_t len);

#endif
