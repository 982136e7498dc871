/* The figures of one (task, load) pair, derived from its struct sim_result in the units the
 * reports need.  Every figure is listed, with its JSON key, null rule and median group, in
 * report/figures.h. */
#ifndef IB_ENGINE_SUMMARY_H
#define IB_ENGINE_SUMMARY_H
#include <stddef.h>
#include <stdint.h>
#include "engine/sim.h"

struct pair_summary {
	uint64_t samples;            /* latency samples (one per period run) */
	double latency_mean_ns;      /* scheduling latency mean */
	double latency_sd_ns;        /* its population standard deviation (jitter) */
	uint64_t latency_max_ns;
	/* the classic latency, interbench 0.31's definition (struct sim_result.classic: scheduling
	 * latency plus one period per missed deadline), the classic table's columns */
	double classic_mean_ns, classic_sd_ns;
	uint64_t classic_max_ns;
	/* lateness: the period's nominal start -> the task running */
	double lateness_mean_ns;
	uint64_t lateness_p99_ns, lateness_max_ns;
	/* The CPU the simulated task got (its threads' own CPU clocks, summed) and the CPU its
	 * periods asked for, as % of one CPU over its run (sim_result.task_*); 0 when the run took
	 * no time. */
	double task_cpu_pct, task_cpu_wanted_pct;
	/* Stutter (every task): the longest run of missed deadlines, in periods and in ns, and the
	 * runs of 2 or more; frame time (completion to completion) percentiles and, for Gaming,
	 * the "1% low" frame rate (1 s / the p99 frame time). */
	uint64_t longest_streak, longest_streak_ns, streaks;
	/* Periods whose scheduling latency exceeded the task's period / SIM_PERCEPTIBLE_JITTER_NS
	 * (engine/sim.h): how often the max's kind of latency happened. */
	uint64_t latency_over_period, latency_over_perceptible;
	uint64_t frame_samples, frame_p50_ns, frame_p99_ns, frame_p999_ns;
	double low1_fps;
	/* The frames as the game benchmarking tools read them (engine/frames.h): the mean frame
	 * time (ns), the 0.1 % percentile low (1 s / the p99.9 frame time), the 1 % and 0.1 %
	 * average lows (1 s / the mean of the longest 1 % / 0.1 % of frame times), fps; the frames
	 * longer than 2.5 times the mean of the 20 before them, and their share of the frame time,
	 * %. */
	double frame_mean_ns, low01_fps, low1_avg_fps, low01_avg_fps;
	uint64_t stutter_frames;
	double stutter_time_pct;
	/* CPU-loop time over the calibrated work: p99 and max of the excess (stolen time), the
	 * share of periods over 10% long. */
	uint64_t loop_periods, stolen_p99_ns, stolen_max_ns;
	double stolen_pct;
	double desired_cpu_pct;      /* work done / work wanted * 100 */
	double deadlines_met_pct;    /* met / periods * 100 */
	uint64_t periods, deadlines_met, deadlines_missed, periods_skipped;
	uint64_t sched_p50_ns, sched_p90_ns, sched_p99_ns, sched_p999_ns;
	uint64_t timer_samples;
	double timer_mean_ns;
	double timer_sd_ns;          /* timer latency population standard deviation */
	uint64_t timer_max_ns;
	uint64_t timer_p50_ns, timer_p90_ns, timer_p99_ns, timer_p999_ns;
	uint64_t task_run_ns;        /* the simulated task's run, wall clock (sim_result.task_wall_ns) */
	/* Within-run confidence intervals at level 1 - ci_alpha of four judged figures, low and high, in the figures' units
	 * (lib/interval.h: batch means for the mean and the shares, the order-statistic interval
	 * with an effective sample size for p99), honest for periods that are not independent.
	 * NaN where there is none: a run too short for two batches, no samples, and a median over
	 * repeats (summary_median).  sched_p99_hi_ns is INFINITY when the p99's interval is open
	 * above (sim_interval.open_above: too few samples past the p99 for the largest to bound it):
	 * the low end is a bound, and there is no high end. */
	double latency_mean_lo_ns, latency_mean_hi_ns;
	double sched_p99_lo_ns, sched_p99_hi_ns;
	double desired_cpu_lo_pct, desired_cpu_hi_pct;
	double deadlines_met_lo_pct, deadlines_met_hi_pct;
	/* The two-sided error probability of the intervals (sim_result.ci_alpha; CI_ALPHA, 0.05,
	 * for a fixed window; the share of it spent at the look that stopped an adaptive one):
	 * the JSON's ci_level is 1 - ci_alpha. */
	double ci_alpha;
	uint64_t interval_us;        /* the task's period (sim_result.interval_us) */
	/* A task with measures of its own (struct sim_measures, engine/sim.h): its block, copied
	 * from the result (sim_result.task), which its figure rows read; name "" for any other. */
	struct sim_task_block task;
};

/* The offset in struct pair_summary of the field `field` of a task's figures laid out as
 * `type` in its block (a task's figure rows, struct task_figure.offset). */
#define PAIR_TASK_OFFSET(type, field) (offsetof(struct pair_summary, task.data) + offsetof(type, field))

/* Computes the summary of r.  Every figure is listed, with its JSON key, null rule and median
 * group, in report/figures.h. */
void pair_summarize(const struct sim_result *r, struct pair_summary *s);

#endif
