/* Figures of one (simulation, load) pair derived from a struct sim_result, in the units the
 * reports need, and the classic interbench table built from them. */
#ifndef IB_SUMMARY_H
#define IB_SUMMARY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "engine/sim.h"

struct pair_summary {
	uint64_t samples;            /* latency samples (one per period run) */
	double latency_mean_ns;      /* scheduling latency mean */
	double latency_sd_ns;        /* its population standard deviation (jitter) */
	uint64_t latency_max_ns;
	/* interbench 0.31's latency (struct sim_result.interbench): the classic table's columns */
	double ib_mean_ns, ib_sd_ns;
	uint64_t ib_max_ns;
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
	/* CPU-loop time over the calibrated work: p99 and max of the excess (stolen time), the
	 * share of periods over 10% long. */
	uint64_t loop_periods, stolen_p99_ns, stolen_max_ns;
	double stolen_pct;
	/* Buffering (a task with sim_spec.buffer_periods): xruns, per minute of run, the worst overrun, and the share
	 * of periods started within 1 and 2 ms of their nominal start. */
	uint64_t xruns, worst_overrun_ns;
	double xruns_per_min, start_1ms_pct, start_2ms_pct;
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
	/* 95 % confidence intervals (simultaneous over ci_looks) of four judged figures, low and high, in the figures' units
	 * (lib/interval.h: batch means for the mean and the shares, the order-statistic interval
	 * with an effective sample size for p99), honest for periods that are not independent.
	 * NaN where there is none: a run too short for two batches, no samples, and a median over
	 * repeats (summary_median). */
	double latency_mean_lo_ns, latency_mean_hi_ns;
	double sched_p99_lo_ns, sched_p99_hi_ns;
	double desired_cpu_lo_pct, desired_cpu_hi_pct;
	double deadlines_met_lo_pct, deadlines_met_hi_pct;
	/* The looks the intervals hold over together (sim_result.ci_looks, at least 1): each is at
	 * level 1 - 0.05 / ci_looks (engine/intervals.h). */
	unsigned ci_looks;
	uint64_t interval_us;        /* the task's period (sim_result.interval_us) */
	/* A task that presents frames (sim_desc.presents, engine/chain.h): the vsyncs passed (0:
	 * none, and every figure below is null), those that showed no new frame (count, % of the
	 * vsyncs, the longest run of them), input-to-present latency (events, mean, p50, p99,
	 * max), each stage's wake-to-run p99 (enum chain_stage) and each segment's share of the
	 * input-to-present time (enum chain_point), %. */
	uint64_t vsyncs, jank, jank_streak;
	double jank_pct;
	uint64_t i2p_samples, i2p_p50_ns, i2p_p99_ns, i2p_max_ns;
	double i2p_mean_ns;
	uint64_t stage_wake_p99_ns[CHAIN_STAGES];
	double segment_pct[CHAIN_POINTS];
};

/* Computes the summary of r.  Every figure is listed, with its JSON key, null rule and median
 * group, in report/figures.h. */
void pair_summarize(const struct sim_result *r, struct pair_summary *s);

/* Formats v with three significant digits and no exponent, trailing zeros dropped:
 * 0.000518 -> "0.000518", 0.5 -> "0.5", 27.94 -> "27.9", 1815.2 -> "1815", 0 -> "0".
 * Values of 1000 and more are printed whole.  Negative values keep their sign. */
void fmt_sig3(double v, char *buf, size_t len);

/* What a latency column shows for a pair that took no sample of that latency (a starved
 * task): never "0", which would read as the best latency possible.  The log reader
 * (tools/resultset.c) reads it back as "no samples". */
#define TABLE_NO_SAMPLES "-"

/* Table layout: classic columns (Latency +/- SD and Max Latency in interbench 0.31's
 * definition); verbose adds p50/p90/p99/p99.9 scheduling latency, the timer latency's p99 and
 * max, the lateness's p99 and max, the task's CPU share, the longest run of missed deadlines
 * (in the table's unit), the runs of 2 or more and the p99 frame time; repeats > 1 adds the range of the mean latency last. */
struct table_style {
	bool has_deadlines;   /* print "% Deadlines Met" (not for a free-running task) */
	bool microseconds;    /* latency columns in us (-r runs) instead of ms */
	bool verbose;
	unsigned repeats;     /* rows are medians of this many repeats (0 or 1: single runs) */
	bool presents;        /* a task that presents frames (sim_desc.presents): the chain columns
	                         (input-to-present, frame time, 1% low, jank) after the classic
	                         ones, and with verbose its stages under each row */
	bool buffered;        /* a task with a buffer (sim_spec.buffer_periods > 0): the buffer
	                         columns (report/figures.h: xruns, overrun, start<1ms, start<2ms,
	                         stolen) after the classic ones */
};

/* The run header line naming the latency definitions of the tables (TABLE_DEFINITIONS_LINE
 * without its newline); a logfile carrying it has interbench 0.31's latency in its classic
 * columns (the log reader, tools/resultset.c, tells it from this program's older logs). */
#define TABLE_DEFINITIONS_PREFIX "Latency +/- SD and Max Latency: interbench 0.31's definition"
#define TABLE_DEFINITIONS_LINE TABLE_DEFINITIONS_PREFIX " (scheduling latency plus one period per " \
	"missed deadline); -v: p50-p99.9 scheduling latency, timer = timer latency, late = lateness, " \
	"cpu % = the task's CPU time / its run time, streak = the longest run of missed deadlines, " \
	"frame = completion to completion"

/* Writes the "--- Benchmarking simulated cpu of NAME[ MODE] in the presence of simulated ---"
 * line and the column header.  mode is "real time", "nice N" or "" (interbench's words), and
 * load_mode the loads' ("nice 19": "... in the presence of simulated nice 19 ---"). */
void table_header(FILE *f, const char *sim_name, const char *mode, const char *load_mode,
		  const struct table_style *st);

/* Writes one row for load `load`. */
void table_row(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st);

/* Writes the line under a single run's row giving the 95 % confidence intervals of its figures
 * that have one (report/figures.h, struct figure_interval), as LOG_ROW_CI then "NAME LO-HI
 * UNIT" for each (latencies in the table's unit; the p99 interval is not symmetric, so ranges,
 * not half-widths); nothing when no figure has one (a run under 32 periods). */
void table_row_intervals(FILE *f, const struct pair_summary *s, const struct table_style *st);

/* Writes, for a task that presents frames, the lines under its row naming each stage's
 * wake-to-run p99 (in the table's unit) and each segment's share of the input-to-present time
 * (report/figures.h FIG_STAGE_COLUMN, FIG_SEGMENT_COLUMN), as LOG_ROW_STAGES then "NAME
 * VALUE" for each; nothing when no vsync passed. */
void table_row_stages(FILE *f, const struct pair_summary *s, const struct table_style *st);

/* Writes the row of a pair measured several times: s holds the medians (summary_median) and
 * the last column the range mean_lo_ns-mean_hi_ns of the mean latency over the repeats, with
 * "(N failed)" when some repeats could not be measured. */
void table_row_repeats(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st,
		       double mean_lo_ns, double mean_hi_ns, unsigned failed);

/* Median across reps[0..n) (n >= 1) of every figure, field by field, into *out (the middle
 * value, or the mean of the two middle ones); scheduling latency figures only over the
 * repeats with samples, timer latency figures over those with timer samples (none: 0 samples
 * in *out, shown as no samples).  *mean_lo_ns / *mean_hi_ns receive the smallest and largest
 * latency_mean_ns of the repeats with samples. */
void summary_median(const struct pair_summary *reps, unsigned n, struct pair_summary *out,
		    double *mean_lo_ns, double *mean_hi_ns);

/* Median of v[0..n) (n >= 1), sorting v in place. */
double median_of(double *v, unsigned n);

/* Writes a row for a pair that could not be measured, with the reason. */
/* One cell of a sweep summary: the pair at one bench and one load setting. */
struct sweep_cell {
	bool measured;            /* some repeat measured it */
	double met_pct;           /* % deadlines met (median over repeats) */
	bool has_p99;             /* it took latency samples */
	uint64_t p99_ns;          /* p99 scheduling latency (median over repeats) */
};

/* Writes the sweep summary of task sim against load: a title line "--- Sweep of SIM against
 * LOAD: % deadlines met / p99 latency (ms) ---", then one row per bench setting (rows[nr]) and
 * one column per load setting (cols[nc]), cells[r * nc + c] as "MET / P99" ("-" where not
 * measured, "-" for MET without deadlines), so the setting where the task stops meeting its
 * deadlines shows at a glance.  Latency in ms, or us when microseconds. */
void sweep_table(FILE *f, const char *sim, const char *load, const char *const *rows, unsigned nr,
		 const char *const *cols, unsigned nc, const struct sweep_cell *cells, bool has_deadlines,
		 bool microseconds);

void table_row_failed(FILE *f, const char *load, const char *why);

#endif
