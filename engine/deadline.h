/* Deadline accounting for periodic simulated tasks, as a pure function of timestamps.
 *
 * Period k is woken at wake_k = t0 + k * interval and must finish its work by the next wake,
 * wake_k + interval (its deadline).  Finishing on or before the deadline meets it; finishing
 * later misses it.  When the task is so late that whole periods have gone by (their deadlines
 * passed before it could even start them), those periods are skipped: each counts as a missed
 * deadline and its work as CPU not received (a dropped frame, an audio skip), as the
 * interbench 0.20 announcement (shared/seeds) describes for redraws dropped to catch up. */
#ifndef IB_DEADLINE_H
#define IB_DEADLINE_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/histogram.h"
#include "lib/interval.h"
#include "lib/stats.h"

struct deadline_verdict {
	bool met;              /* finished by wake_ns + interval_ns */
	uint64_t skipped;      /* whole periods dropped after this one */
	uint64_t next_wake_ns; /* wake time of the next period to run (may already be past) */
};

/* Judges the period woken at wake_ns (interval_ns > 0) that finished at finish_ns.
 * The next period to run is the first whose deadline is still after finish_ns. */
struct deadline_verdict deadline_check(uint64_t wake_ns, uint64_t interval_ns, uint64_t finish_ns);

/* Totals for one run of a simulated task. */
struct deadline_acct {
	uint64_t periods;        /* periods run plus periods skipped */
	uint64_t met;            /* deadlines met */
	uint64_t missed;         /* deadlines missed, skipped periods included */
	uint64_t skipped;        /* periods dropped entirely */
	uint64_t work_wanted_us; /* CPU work the periods asked for */
	uint64_t work_done_us;   /* CPU work actually done */
	/* Stutter: runs of consecutive missed deadlines (skipped periods included).  A user sees
	 * a run of 2 or more as a stutter, a lone late frame hardly. */
	uint64_t streak;         /* the missed deadlines of the run in progress */
	uint64_t longest_streak; /* the longest run so far, in periods */
	uint64_t streaks;        /* runs of 2 or more, counted when they end (or at the end) */
	uint64_t miss_runs;      /* runs of 1 or more, counted when they start: missed / miss_runs
	                            is the mean length of a run of misses */
	uint64_t miss_run_sq;    /* the sum of the squared lengths of the runs ended (periods^2) */
	/* Batch means (lib/interval.h) of each period in order, for the within-run intervals of
	 * deadline_met_pct (1 for a deadline met, 0 for one missed, a skipped period's
	 * included) and deadline_desired_cpu_pct (its work done and work wanted, us). */
	struct batch_means met_bm;
	struct batch_ratio work_bm;
};

/* Ends the run of missed deadlines in progress (counting it when 2 or more); called when a
 * deadline is met and once at the end of a run. */
void deadline_acct_streak_end(struct deadline_acct *a);

/* Accounts a period that ran and did work_us of work with verdict v.  The skipped periods are
 * accounted separately by deadline_acct_skip, since their work can differ (X's sweep). */
void deadline_acct_period(struct deadline_acct *a, const struct deadline_verdict *v, uint64_t work_us);

/* Accounts one skipped period that wanted work_us: a missed deadline, no work done. */
void deadline_acct_skip(struct deadline_acct *a, uint64_t work_us);

/* At the end of a run: how many periods, counting from the unfinished one woken at wake_ns,
 * had their deadline (wake + interval_ns) pass before end_ns while the task had not finished
 * them.  Each is a missed deadline with its work not done (deadline_acct_skip); periods whose
 * deadline is still ahead were cut off by the end of the run and count for nothing.  Without
 * this, a task starved for the whole window would report no periods, hence 100%. */
uint64_t deadline_unfinished_periods(uint64_t wake_ns, uint64_t interval_ns, uint64_t end_ns);

/* interbench 0.31's latency of one period (interbench.c, periodic_schedule): the scheduling
 * latency sched_latency_ns (timing thread to task) plus, when the period finished overrun_ns > 0
 * after its deadline, (overrun_ns / unit_ns + 1) whole unit_ns: the intervals 0.31 counts as
 * missed, so a dropped frame counts as the jerk a user sees.  unit_ns is the interval 0.31
 * passes to periodic_schedule: the period for Audio, Video and Custom (one period for the
 * period's own deadline and one per period dropped after it, deadline_verdict.skipped), the
 * frame's idle part for X (sim_desc.ib_interval_us); 0 adds nothing, as 0.31 at X's 100% step.
 * A period started late because the one before overran is charged nothing more: 0.31 has
 * charged that time to the period before and sleeps to the next period instead. */
uint64_t deadline_interbench_latency_ns(uint64_t sched_latency_ns, uint64_t overrun_ns, uint64_t unit_ns);

/* CPU-loop time: the thread's own CPU time for each period's fixed work against the work's
 * calibrated length.  Work that took longer while the task ran is time stolen from it (an SMI,
 * bus contention, a hypervisor): Benno Senoner's latencytest "CPU loop" figure. */
struct loop_acct {
	struct lat_stats excess;     /* CPU time over the calibrated length (0 when under), ns */
	struct lat_hist excess_hist;
	uint64_t periods;            /* periods measured (some work done) */
	uint64_t over10;             /* of them, those that took over 10% longer */
};

/* Accounts a period whose work took cpu_ns of the thread's CPU time and would have taken
 * nominal_ns at calibrated speed (calibrate/calibrate.h burn_cpu_us: the loops it ran). */
void loop_acct_period(struct loop_acct *l, uint64_t cpu_ns, uint64_t nominal_ns);

/* % desired CPU (work done / work wanted * 100); 100 when nothing was wanted. */
double deadline_desired_cpu_pct(const struct deadline_acct *a);

/* % deadlines met (met / periods * 100); 100 when there were no periods. */
double deadline_met_pct(const struct deadline_acct *a);

/* The variance inflation of the missed-deadline count of a: the larger of the batch means'
 * inflation of the 0/1 met indicator (lib/interval.h bm_proportion_inflation) and, while misses
 * are the rarer outcome (missed <= met), the mean length of the run of consecutive misses a
 * miss belongs to, sum(len^2) / sum(len) over the runs (the one in progress included): misses
 * clustered in stalls are that many times fewer independent events.  For runs of one length c
 * it is c, the plain mean; for lengths that vary it is larger, as the count's variance is: with
 * a Poisson number of runs of mean lambda, Var(missed) = lambda E[len^2] = E[missed] E[len^2] /
 * E[len] (the plain mean covered 80 % at 1200 periods with geometric stalls of mean 5,
 * tests/check_deadline.c).  At least 1. */
double deadline_miss_inflation(const struct deadline_acct *a);

/* The 1 - alpha within-run interval (CI_ALPHA: 95 %) of deadline_met_pct, in %: the exact
 * Clopper-Pearson interval (lib/distrib.h clopper_pearson) of the share of missed deadlines
 * on the effective count, n / VIF periods with missed / VIF misses (VIF:
 * deadline_miss_inflation), for every number of misses: 370 periods all met give 99.0-100 %,
 * one miss in 1200 a lower, wider interval than none, and a miss in the batch being filled
 * counts like any other.  Returns false (lo, hi untouched) below BM_MIN_SAMPLES periods. */
bool deadline_met_interval_pct(const struct deadline_acct *a, double alpha, double *lo_pct, double *hi_pct);

/* The 1 - alpha within-run interval of deadline_desired_cpu_pct, in %, clamped to 0..100
 * (Cochran's ratio estimator over batch means: lib/interval.h br_interval).  When every
 * period's work was done in full (or none at all) the batches see no variation: then the exact
 * interval of no shortfall in that many periods (lib/interval.h zero_events_upper), not a
 * point.  Returns false (lo, hi untouched) below BM_MIN_SAMPLES periods or with no work
 * wanted. */
bool deadline_desired_cpu_interval_pct(const struct deadline_acct *a, double alpha, double *lo_pct, double *hi_pct);

#endif
