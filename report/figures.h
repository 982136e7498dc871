/* The figures of a task: one table (task_figures) saying, for every figure of struct
 * pair_summary (engine/summary.h), where it is kept, its JSON key and scale, when it is null,
 * which repeats its median is taken over, its column in the classic table and how compare and
 * export read it.  The table writer's verbose and task columns, the JSON writer
 * (report/json_report.c), summary_median, the JSON reader (tools/result_json.c), compare and
 * export iterate it; readers name a figure's key through it (FIGURE_KEY, figure_of_metric),
 * never by typing it.  tests/check_figures.c checks doc/interbench-result.schema.json's and
 * doc/json.md's figures against it field by field (type, null rule, unit in the key, interval,
 * required).  Adding a figure: a field in struct pair_summary, the code in pair_summarize that
 * computes it, one row in report/figures.c, and its entries in the schema and doc/json.md; a task's own
 * figure: a field of its measures' block and one row of its measures (struct sim_measures,
 * engine/sim.h; doc/adding-a-workload.md "A task with measures of its own"). */
#ifndef IB_FIGURES_H
#define IB_FIGURES_H
#include <stdbool.h>
#include <stddef.h>
#include "engine/figure_row.h"

struct pair_summary;

/* % desired CPU may pass 100 (Gaming's frames, or any work, done on a CPU running faster than
 * at calibration); above this a figure is taken as corrupt. */
#define FIG_MAX_CPU_PCT 1000

/* Most rows of the table, the core's and every registered task's together. */
#define FIG_MAX_ROWS 160

/* The table, in the order the JSON writer writes the figures, task_figures_n rows: the core
 * rows (report/figures.c) with every registered task's own rows (struct sim_measures.rows,
 * engine/sim.h, walked in workload_table's order) among them, built before main. */
extern const struct task_figure *task_figures;
extern size_t task_figures_n;

/* The measures a task's row belongs to (f->task), from the registry; NULL for a core row. */
const struct sim_measures *figure_task_measures(const struct task_figure *f);

/* Whether line (its leading blanks skipped) is one a registered task writes under its row
 * (struct sim_measures.lines: it begins with one's lead). */
bool figure_is_task_line(const char *line);

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

/* The JSON key of the first written core row of task_figures whose field is at offset in
 * struct pair_summary.  None is a disagreement of the code with the table, the same for every
 * input: it says so on stderr and aborts. */
const char *figure_key_of(size_t offset);

/* The JSON key of the figure kept in pair_summary's field (its struct complete where used,
 * engine/summary.h): a reader names a figure it draws by its field, never by typing its key. */
#define FIGURE_KEY(field) figure_key_of(offsetof(struct pair_summary, field))

/* The JSON key of measures m's row whose field is at offset in struct pair_summary
 * (PAIR_TASK_OFFSET); none aborts, as figure_key_of. */
const char *figure_task_key_of(const struct sim_measures *m, size_t offset);

/* The JSON key of the figure a task's measures keep in field of their block, struct type (a
 * reader that draws a task's own figure, as plot draws Pipeline's). */
#define TASK_FIGURE_KEY(measures, type, field) figure_task_key_of(&(measures), PAIR_TASK_OFFSET(type, field))

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

/* Whether metric m is a figure of a task with (has_deadlines) or without deadlines, presenting
 * frames or not (presenting: the Pipeline, whose measures count vsyncs): % deadlines met and
 * the longest miss run only with deadlines; the "1% low" frame rate only for a free-running
 * task (Gaming) or a presenting one.  compare reads a figure only where it applies (tools/
 * result_json.c) and a run decides it only there (report/run_decisions.c). */
bool judged_metric_applies(enum judged_metric m, bool has_deadlines, bool presenting);

/* The default threshold of metric m (struct figure_compare.threshold): NaN where it has none
 * (reported, not judged). */
double judged_metric_threshold(enum judged_metric m);

/* compare --threshold's key of metric m ("p99", "deadlines"); NULL when out of range. */
const char *judged_metric_key(enum judged_metric m);

/* The metric whose key (judged_metric_key) or alias (struct figure_compare.alias: "met") is the
 * len bytes at name, matched exactly; -1 when none is.  The one lookup of a figure's name on a
 * command line (--fail-if). */
int judged_metric_named(const char *name, size_t len);

/* Median across reps[0..n) (n >= 1) of every figure, field by field, into *out (the middle
 * value, or the mean of the two middle ones); scheduling latency figures only over the
 * repeats with samples, timer latency figures over those with timer samples (none: 0 samples
 * in *out, shown as no samples).  *mean_lo_ns / *mean_hi_ns receive the smallest and largest
 * classic_mean_ns (interbench 0.31's mean) of the repeats with samples. */
void summary_median(const struct pair_summary *reps, unsigned n, struct pair_summary *out,
		    double *mean_lo_ns, double *mean_hi_ns);

#endif
