/* A figure row: what the figure tables (report/figures.h) say of one figure of struct
 * pair_summary (engine/summary.h): where it is kept, its JSON key and scale, when it is null,
 * which repeats its median is taken over, its column in the classic table and how compare and
 * export read it.  The core rows are report/figures.c's; a task with measures of its own
 * (struct sim_measures, engine/sim.h) brings its rows, which read its block of the summary
 * (pair_summary.task).  Defined here, below workloads/, so a workload can export its rows. */
#ifndef IB_FIGURE_ROW_H
#define IB_FIGURE_ROW_H
#include <stdbool.h>
#include <stddef.h>

/* The figures compare and export read back (enum order: the order compare lists them in).
 * Latencies in ns, percentages in % (0..100).  Mean and max latency come in two definitions:
 * JM_MEAN and JM_MAX are interbench 0.31's (scheduling latency plus one period per missed
 * deadline: the classic table of interbench 0.31 and of this program from schema version 2
 * on), JM_SMEAN and JM_SMAX scheduling latency alone (this program's JSON, and the classic
 * table of its logfiles before the definitions line); JM_P99 is scheduling latency.
 * JM_STREAK .. JM_STOLEN (JSON of schema version 2 only): the longest run of missed deadlines
 * (ns), the p99 frame time (ns), the "1% low" frame rate (fps), xruns per minute, the p99
 * stolen CPU-loop time (ns); a presenting task's p99 input-to-present latency (ns) and its
 * jank vsyncs (%).  JM_P90 is scheduling latency's p90: compare judges it in place of p99 where
 * a sub-run has too few samples for its p99 to be more than its largest (tools/compare.h).
 * JM_LOW1_AVG is the "1% low average" frame rate (fps) and JM_STUTTER the share of the frame
 * time in frames that stuttered (%), engine/frames.h. */
enum judged_metric {
	JM_MEAN, JM_SMEAN, JM_P99, JM_MAX, JM_SMAX, JM_CPU, JM_MET,
	JM_STREAK, JM_FRAME_P99, JM_LOW1, JM_XRUNS, JM_STOLEN, JM_I2P_P99, JM_JANK,
	JM_P90, JM_LOW1_AVG, JM_STUTTER,
	JM_METRICS
};

/* The type of a figure's field in struct pair_summary. */
enum figure_type { FIG_U64, FIG_DOUBLE };

/* When a figure has no value (null in JSON, TABLE_NO_SAMPLES in the table). */
enum figure_null {
	FIG_NEVER_NULL,
	FIG_NULL_NO_SAMPLES,       /* no scheduling latency sample (pair_summary.samples 0) */
	FIG_NULL_NO_TIMER,         /* no timer latency sample */
	FIG_NULL_NO_FRAMES,        /* no frame completed twice (frame_samples 0) */
	FIG_NULL_NO_LOOPS,         /* no period's CPU loop finished (loop_periods 0) */
	FIG_NULL_UNBUFFERED,       /* a task without a buffer to run dry (sim_spec.buffer_periods 0) */
	FIG_NULL_ZERO,             /* the count (uint64_t) at null_offset in struct pair_summary is 0
	                              (a task's row: "no vsync passed") */
};

/* Which repeats summary_median takes a figure's median over. */
enum figure_group { FIG_OVER_ALL, FIG_OVER_SAMPLED, FIG_OVER_TIMED };

/* Where the classic table shows a figure: nowhere (its classic columns are written by hand),
 * in the verbose columns, the task's own columns (a task's row, shown in its tables after the
 * classic ones: table_style.measures: ProAudio's buffer, Pipeline's chain), or, with
 * verbose, in one of the task's labelled lines under its row (FIG_TASK_LINE: line number
 * column_pos of its struct sim_measures.lines, "LABEL VALUE" each). */
enum figure_column { FIG_NO_COLUMN, FIG_VERBOSE_COLUMN, FIG_TASK_COLUMN, FIG_TASK_LINE };

/* A figure's unit: a time in ns (shown in the table's ms or us, compare's ms) or in us, a
 * percentage, a count, frames per second. */
enum figure_unit { FIG_NS, FIG_US, FIG_PCT, FIG_COUNT, FIG_FPS };

/* How compare and export read a figure back. */
struct figure_compare {
	enum judged_metric metric;
	const char *key;           /* compare --threshold KEY */
	const char *name;          /* compare's and export's name of it */
	const char *unit;          /* the unit they show it in: "ms" (kept in ns), "%", "fps", "/min" */
	double max_value;          /* the largest value a reader accepts, in the field's unit; 0: any */
	bool required;             /* every JSON result carries it (schema version 1 on) */
	/* The least change that matters by default, judged by compare and by a run's decisions
	 * between its alternatives: % of the old value for a latency, points for a share or a
	 * figure worse when lower; 0: the figure is reported, not judged, unless a threshold is
	 * given. */
	double threshold;
	const char *alias;         /* another name a command line may give it (--precision's "met"
	                              for deadlines), or NULL */
};

/* A figure's within-run confidence interval: its JSON key (the figure's key and "_ci", an array
 * [low, high] in the figure's JSON scale, null when NaN; high null when the high field is
 * INFINITY, an interval open above) and the offsets of its low and high fields in struct
 * pair_summary (doubles in the figure's unit, NaN: none). */
struct figure_interval {
	const char *json_key;
	size_t lo_offset, hi_offset;
	bool may_open_above;       /* a percentile's: its high may be INFINITY (JSON null) */
};

struct task_figure {
	const char *json_key;      /* its key in a JSON result (doc/json.md), NULL: not written */
	size_t offset;             /* of its field in struct pair_summary */
	enum figure_type type;
	enum figure_unit unit;
	double json_scale;         /* JSON integer = field * json_scale, rounded (% -> ppm: 1e4) */
	enum figure_null null_rule;
	enum figure_group median;
	bool higher_better;        /* false: lower is better (latencies, misses), or neutral */
	bool required;             /* every measured result carries it, schema version 1 on (the
	                              schema requires it; tests/check_figures.c) */
	enum figure_column column;
	unsigned column_pos;       /* its place among its column group's, from 0 (FIG_TASK_LINE: its
	                              line's number; its place is its order among the line's rows) */
	const char *column_label;  /* the column's header word(s), at most 10 characters */
	const struct figure_compare *cmp; /* how compare and export read it; NULL: they do not */
	const struct figure_interval *ci; /* its confidence interval; NULL: none */
	size_t null_offset;        /* FIG_NULL_ZERO: the count's offset in struct pair_summary */
	/* A task's row (struct sim_measures.rows): the name of the measures whose block of the
	 * summary (pair_summary.task) it reads, null in any other task's result; NULL: a core row. */
	const char *task;
};

/* A labelled line a task writes under its row with verbose (FIG_TASK_LINE rows): lead, then
 * "LABEL VALUE UNIT" for each of its rows, the unit the table's time unit (FIG_NS) or "%". */
struct figure_line {
	const char *lead;          /* the line's first word(s) ("stages: wake-to-run p99") */
	bool shares;               /* its rows are shares of one whole, in % (plot stacks them) */
};

#endif
