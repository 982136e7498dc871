/* The figures of a task: one table (task_figures) saying, for every figure of struct
 * pair_summary (engine/summary.h), where it is kept, its JSON key and scale, when it is null,
 * which repeats its median is taken over, its column in the classic table and how compare and
 * export read it.  The table writer's verbose and buffer columns, the JSON writer
 * (report/json_report.c), summary_median, the JSON reader (tools/result_json.c), compare and
 * export iterate it; readers name a figure's key through it (FIGURE_KEY, figure_of_metric),
 * never by typing it.  tests/check_figures.c checks doc/interbench-result.schema.json's and
 * doc/json.md's figures against it field by field (type, null rule, unit in the key, interval,
 * required).  Adding a figure: a field in struct pair_summary, the code in pair_summarize that
 * computes it, one row in report/figures.c, and its entries in the schema and doc/json.md. */
#ifndef IB_FIGURES_H
#define IB_FIGURES_H
#include <stdbool.h>
#include <stddef.h>

struct pair_summary;

/* % desired CPU may pass 100 (Gaming's frames, or any work, done on a CPU running faster than
 * at calibration); above this a figure is taken as corrupt. */
#define FIG_MAX_CPU_PCT 1000

/* The figures compare and export read back (enum order: the order compare lists them in).
 * Latencies in ns, percentages in % (0..100).  Mean and max latency come in two definitions:
 * JM_MEAN and JM_MAX are interbench 0.31's (scheduling latency plus one period per missed
 * deadline: the classic table of interbench 0.31 and of this program from schema version 2
 * on), JM_SMEAN and JM_SMAX scheduling latency alone (this program's JSON, and the classic
 * table of its logfiles before the definitions line); JM_P99 is scheduling latency.
 * JM_STREAK .. JM_STOLEN (JSON of schema version 2 only): the longest run of missed deadlines
 * (ns), the p99 frame time (ns), the "1% low" frame rate (fps), xruns per minute, the p99
 * stolen CPU-loop time (ns); a presenting task's p99 input-to-present latency (ns) and its
 * jank vsyncs (%). */
enum judged_metric {
	JM_MEAN, JM_SMEAN, JM_P99, JM_MAX, JM_SMAX, JM_CPU, JM_MET,
	JM_STREAK, JM_FRAME_P99, JM_LOW1, JM_XRUNS, JM_STOLEN, JM_I2P_P99, JM_JANK,
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
	FIG_NULL_NO_VSYNCS,        /* no vsync passed: not a task that presents frames (vsyncs 0) */
	FIG_NULL_NO_INPUT,         /* no input event was presented (i2p_samples 0) */
};

/* Which repeats summary_median takes a figure's median over. */
enum figure_group { FIG_OVER_ALL, FIG_OVER_SAMPLED, FIG_OVER_TIMED };

/* Where the classic table shows a figure: nowhere (its classic columns are written by hand),
 * in the buffer columns (table_style.buffered), the verbose ones, the chain columns
 * (table_style.presents), or, for a presenting task with verbose, in the stage line under its
 * row: a stage's wake-to-run p99 (FIG_STAGE_COLUMN) or a segment's share (FIG_SEGMENT_COLUMN),
 * labelled with the stage's or segment's name. */
enum figure_column { FIG_NO_COLUMN, FIG_BUFFER_COLUMN, FIG_VERBOSE_COLUMN, FIG_CHAIN_COLUMN, FIG_STAGE_COLUMN,
		     FIG_SEGMENT_COLUMN };

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
};

/* A figure's 95 % confidence interval: its JSON key (the figure's key and "_ci", an array
 * [low, high] in the figure's JSON scale, null when NaN) and the offsets of its low and high
 * fields in struct pair_summary (doubles in the figure's unit, NaN: none). */
struct figure_interval {
	const char *json_key;
	size_t lo_offset, hi_offset;
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
	unsigned column_pos;       /* its place among its column group's, from 0 */
	const char *column_label;  /* the column's header word(s), at most 10 characters */
	const struct figure_compare *cmp; /* how compare and export read it; NULL: they do not */
	const struct figure_interval *ci; /* its confidence interval; NULL: none */
};

/* The table, in the order the JSON writer writes the figures; task_figures_n rows. */
extern const struct task_figure task_figures[];
extern const size_t task_figures_n;

/* The figure's value in s, as a double (the field's unit). */
double figure_value(const struct task_figure *f, const struct pair_summary *s);

/* Sets the figure's field in s to v (rounded for a FIG_U64 field, negative as 0). */
void figure_set(const struct task_figure *f, struct pair_summary *s, double v);

/* The figure's 95 % interval in s into *lo, *hi (the field's unit).  Returns false when the
 * figure has none (f->ci NULL) or none was computed (NaN). */
bool figure_interval(const struct task_figure *f, const struct pair_summary *s, double *lo, double *hi);

/* Sets every figure's interval in s to none (NaN). */
void figure_intervals_clear(struct pair_summary *s);

/* Whether the figure has no value in s (its null_rule); buffered: the task has a buffer
 * (sim_spec.buffer_periods > 0). */
bool figure_is_null(const struct task_figure *f, const struct pair_summary *s, bool buffered);

/* The row of tab[0..n) whose metric is m, or NULL. */
const struct task_figure *figure_of_metric(const struct task_figure *tab, size_t n, enum judged_metric m);

/* The JSON key of the first written row of task_figures whose field is at offset in struct
 * pair_summary, or NULL when no written row has it. */
const char *figure_key_of(size_t offset);

/* The JSON key of the figure kept in pair_summary's field (its struct complete where used,
 * engine/summary.h): a reader names a figure it draws by its field, never by typing its key. */
#define FIGURE_KEY(field) figure_key_of(offsetof(struct pair_summary, field))

/* Whether metric m is a latency (ns; worse when higher): null without samples. */
bool judged_metric_is_latency(enum judged_metric m);

/* Whether metric m is worse when higher (latencies, streaks, frame times, xruns, stolen
 * time), its change then shown in % of the old value; else worse when lower (% desired CPU,
 * % deadlines met, 1% low fps), its change in points. */
bool judged_metric_higher_worse(enum judged_metric m);

/* Whether metric m's change is in points (new - old): a share in % (deadlines met, jank) or a
 * figure worse when lower (1% low fps); else in % of the old value. */
bool judged_metric_in_points(enum judged_metric m);

/* Whether metric m is a share in %, 0 to 100. */
bool judged_metric_is_share(enum judged_metric m);

/* Whether metric m is a time in ns (shown in ms). */
bool judged_metric_is_time(enum judged_metric m);

/* The unit metric m is shown in: "ms" (times), "%", "fps", "/min". */
const char *judged_metric_unit(enum judged_metric m);

/* Display name of metric m ("p99 latency", "% deadlines met"); "?" when out of range. */
const char *judged_metric_name(enum judged_metric m);

/* compare --threshold's key of metric m ("p99", "deadlines"); NULL when out of range. */
const char *judged_metric_key(enum judged_metric m);

/* Median across reps[0..n) (n >= 1) of every figure, field by field, into *out (the middle
 * value, or the mean of the two middle ones); scheduling latency figures only over the
 * repeats with samples, timer latency figures over those with timer samples (none: 0 samples
 * in *out, shown as no samples).  *mean_lo_ns / *mean_hi_ns receive the smallest and largest
 * latency_mean_ns of the repeats with samples. */
void summary_median(const struct pair_summary *reps, unsigned n, struct pair_summary *out,
		    double *mean_lo_ns, double *mean_hi_ns);

#endif
