#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include "report/figures.h"
#include "lib/stats.h"
#include "engine/summary.h"
#include "workloads/workload.h"

/* A row's field: its offset in struct pair_summary and type. */
#define F_U64(field) .offset = offsetof(struct pair_summary, field), .type = FIG_U64
#define F_DBL(field) .offset = offsetof(struct pair_summary, field), .type = FIG_DOUBLE
/* A scheduling, timer latency or other time in ns, null without its samples. */
#define SCHED_NS(key) .json_key = key, .unit = FIG_NS, .json_scale = 1, \
	.null_rule = FIG_NULL_NO_SAMPLES, .median = FIG_OVER_SAMPLED
#define TIMER_NS(key) .json_key = key, .unit = FIG_NS, .json_scale = 1, \
	.null_rule = FIG_NULL_NO_TIMER, .median = FIG_OVER_TIMED
/* A percentage kept in %, written in ppm. */
#define PPM(key, field) .json_key = key, F_DBL(field), .unit = FIG_PCT, .json_scale = 1e4
/* A count or time over every repeat. */
#define COUNT(key, field) .json_key = key, F_U64(field), .unit = FIG_COUNT, .json_scale = 1
#define NS(key, field) .json_key = key, F_U64(field), .unit = FIG_NS, .json_scale = 1
/* A column of the classic table's verbose or buffer group. */
#define VCOL(pos, label) .column = FIG_VERBOSE_COLUMN, .column_pos = pos, .column_label = label
/* Carried by every measured result since schema version 1: the schema requires it. */
#define V1 .required = true
/* What compare and export read (a threshold key, a name, a unit). */
#define CMP(m, k, n, u, max, req) .cmp = &(const struct figure_compare){ m, k, n, u, max, req, 0, NULL }
/* The same, judged by default with threshold thr (struct figure_compare.threshold). */
#define CMPT(m, k, n, u, max, req, thr) .cmp = &(const struct figure_compare){ m, k, n, u, max, req, thr, NULL }
/* Its within-run interval: the JSON key and the low and high fields; CI_OPEN for a percentile's,
 * whose high may be INFINITY (open above). */
#define CI(key, lo, hi) .ci = &(const struct figure_interval){ key, offsetof(struct pair_summary, lo), \
	offsetof(struct pair_summary, hi), false }
#define CI_OPEN(key, lo, hi) .ci = &(const struct figure_interval){ key, offsetof(struct pair_summary, lo), \
	offsetof(struct pair_summary, hi), true }

/* In the JSON writer's order (doc/json.md lists them): these core rows, every registered task's
 * own rows (struct sim_measures.rows, in workload_table's order), then core_tail. */
static const struct task_figure core_head[] = {
	{ COUNT("samples", samples), .median = FIG_OVER_SAMPLED, V1 },
	{ SCHED_NS("latency_mean_ns"), F_DBL(latency_mean_ns), V1,
	  CMP(JM_SMEAN, "sched-mean", "mean sched latency", "ms", 0, true),
	  CI("latency_mean_ns_ci", latency_mean_lo_ns, latency_mean_hi_ns) },
	{ SCHED_NS("latency_sd_ns"), F_DBL(latency_sd_ns), V1 },
	{ SCHED_NS("latency_max_ns"), F_U64(latency_max_ns), V1,
	  CMP(JM_SMAX, "sched-max", "max sched latency", "ms", 0, true) },
	{ COUNT("latency_over_period", latency_over_period), .null_rule = FIG_NULL_NO_SAMPLES,
	  .median = FIG_OVER_SAMPLED },
	{ COUNT("latency_over_7ms", latency_over_perceptible), .null_rule = FIG_NULL_NO_SAMPLES,
	  .median = FIG_OVER_SAMPLED },
	{ SCHED_NS("latency_p50_ns"), F_U64(sched_p50_ns), VCOL(0, "p50"), V1 },
	{ SCHED_NS("latency_p90_ns"), F_U64(sched_p90_ns), VCOL(1, "p90"), V1,
	  CMP(JM_P90, "p90", "p90 latency", "ms", 0, false) },
	{ SCHED_NS("latency_p99_ns"), F_U64(sched_p99_ns), VCOL(2, "p99"), V1,
	  CMPT(JM_P99, "p99", "p99 latency", "ms", 0, true, 10),
	  CI_OPEN("latency_p99_ns_ci", sched_p99_lo_ns, sched_p99_hi_ns) },
	{ SCHED_NS("latency_p999_ns"), F_U64(sched_p999_ns), VCOL(3, "p99.9"), V1 },
	{ SCHED_NS("interbench_latency_mean_ns"), F_DBL(classic_mean_ns),
	  CMP(JM_MEAN, "mean", "mean latency", "ms", 0, false) },
	{ SCHED_NS("interbench_latency_sd_ns"), F_DBL(classic_sd_ns) },
	{ SCHED_NS("interbench_latency_max_ns"), F_U64(classic_max_ns),
	  CMP(JM_MAX, "max", "max latency", "ms", 0, false) },
	{ SCHED_NS("lateness_mean_ns"), F_DBL(lateness_mean_ns) },
	{ SCHED_NS("lateness_p99_ns"), F_U64(lateness_p99_ns), VCOL(6, "late p99") },
	{ SCHED_NS("lateness_max_ns"), F_U64(lateness_max_ns), VCOL(7, "late max") },
	{ COUNT("longest_miss_streak", longest_streak) },
	{ NS("longest_miss_streak_ns", longest_streak_ns), VCOL(9, "streak"),
	  CMP(JM_STREAK, "streak", "longest miss run", "ms", 0, false) },
	{ COUNT("miss_streaks", streaks), VCOL(10, "streaks") },
	{ NS("frame_time_p50_ns", frame_p50_ns), .null_rule = FIG_NULL_NO_FRAMES },
	{ NS("frame_time_p99_ns", frame_p99_ns), .null_rule = FIG_NULL_NO_FRAMES, VCOL(11, "frame p99"),
	  CMP(JM_FRAME_P99, "frame", "p99 frame time", "ms", 0, false) },
	{ NS("frame_time_p999_ns", frame_p999_ns), .null_rule = FIG_NULL_NO_FRAMES },
	{ .json_key = "one_percent_low_mfps", F_DBL(low1_fps), .unit = FIG_FPS, .json_scale = 1e3,
	  .null_rule = FIG_NULL_NO_FRAMES, .higher_better = true, CMPT(JM_LOW1, "low1", "1% low fps", "fps", 0, false, 5) },
	/* the frames as MangoHud and CapFrameX read them (engine/frames.h) */
	{ COUNT("frame_time_samples", frame_samples) },
	{ .json_key = "frame_time_mean_ns", F_DBL(frame_mean_ns), .unit = FIG_NS, .json_scale = 1,
	  .null_rule = FIG_NULL_NO_FRAMES },
	{ .json_key = "point_one_percent_low_mfps", F_DBL(low01_fps), .unit = FIG_FPS, .json_scale = 1e3,
	  .null_rule = FIG_NULL_NO_FRAMES, .higher_better = true },
	{ .json_key = "one_percent_low_average_mfps", F_DBL(low1_avg_fps), .unit = FIG_FPS, .json_scale = 1e3,
	  .null_rule = FIG_NULL_NO_FRAMES, .higher_better = true,
	  CMP(JM_LOW1_AVG, "low1avg", "1% low average fps", "fps", 0, false) },
	{ .json_key = "point_one_percent_low_average_mfps", F_DBL(low01_avg_fps), .unit = FIG_FPS, .json_scale = 1e3,
	  .null_rule = FIG_NULL_NO_FRAMES, .higher_better = true },
	{ COUNT("stutter_frames", stutter_frames), .null_rule = FIG_NULL_NO_FRAMES },
	{ PPM("stutter_time_ppm", stutter_time_pct), .null_rule = FIG_NULL_NO_FRAMES,
	  CMP(JM_STUTTER, "stutter", "% stutter time", "%", 100, false) },
	{ NS("stolen_p99_ns", stolen_p99_ns), .null_rule = FIG_NULL_NO_LOOPS,
	  CMP(JM_STOLEN, "stolen", "stolen p99", "ms", 0, false) },
	{ NS("stolen_max_ns", stolen_max_ns), .null_rule = FIG_NULL_NO_LOOPS },
	{ PPM("stolen_over10_ppm", stolen_pct) },
	{ NS("task_run_ns", task_run_ns) },
	{ .json_key = "interval_us", F_U64(interval_us), .unit = FIG_US, .json_scale = 1 },
};

/* The core rows after the tasks' (figure_table). */
static const struct task_figure core_tail[] = {
	{ COUNT("timer_samples", timer_samples), .median = FIG_OVER_TIMED, V1 },
	{ TIMER_NS("timer_latency_mean_ns"), F_DBL(timer_mean_ns), V1 },
	{ TIMER_NS("timer_latency_sd_ns"), F_DBL(timer_sd_ns), V1 },
	{ TIMER_NS("timer_latency_max_ns"), F_U64(timer_max_ns), VCOL(5, "timer max"), V1 },
	{ TIMER_NS("timer_latency_p50_ns"), F_U64(timer_p50_ns), V1 },
	{ TIMER_NS("timer_latency_p90_ns"), F_U64(timer_p90_ns), V1 },
	{ TIMER_NS("timer_latency_p99_ns"), F_U64(timer_p99_ns), VCOL(4, "timer p99"), V1 },
	{ TIMER_NS("timer_latency_p999_ns"), F_U64(timer_p999_ns), V1 },
	{ PPM("desired_cpu_ppm", desired_cpu_pct), .higher_better = true, V1,
	  CMP(JM_CPU, "cpu", "% desired CPU", "%", FIG_MAX_CPU_PCT, true),
	  CI("desired_cpu_ppm_ci", desired_cpu_lo_pct, desired_cpu_hi_pct) },
	{ PPM("task_cpu_ppm", task_cpu_pct), VCOL(8, "cpu %") },
	{ PPM("task_cpu_wanted_ppm", task_cpu_wanted_pct) },
	{ PPM("deadlines_met_ppm", deadlines_met_pct), .higher_better = true, V1,
	  .cmp = &(const struct figure_compare){ JM_MET, "deadlines", "% deadlines met", "%", 100, true, 1, .alias = "met" },
	  CI("deadlines_met_ppm_ci", deadlines_met_lo_pct, deadlines_met_hi_pct) },
	{ COUNT("periods", periods), V1 },
	{ COUNT("deadlines_met", deadlines_met), .higher_better = true, V1 },
	{ COUNT("deadlines_missed", deadlines_missed), V1 },
	{ COUNT("periods_skipped", periods_skipped), V1 },
};

#define ROWS(a) (sizeof(a) / sizeof((a)[0]))

/* The whole table: core_head, the tasks' rows, core_tail. */
static struct task_figure figure_table[FIG_MAX_ROWS];
const struct task_figure *task_figures = figure_table;
size_t task_figures_n;

/* A table the build got wrong, found before main: says what and aborts. */
static void table_wrong(const char *what, const char *task)
{
	fprintf(stderr, "interbench: internal error: the figure table: %s%s%s\n", what, task ? ": " : "", task ? task : "");
	abort();
}

/* Whether 8 bytes at offset (a uint64_t or a double) lie in the task block of struct
 * pair_summary, or wholly in its core figures before it (a task's column showing a figure
 * every task has). */
static bool field_fits(size_t offset)
{
	size_t lo = offsetof(struct pair_summary, task.data), hi = lo + SIM_TASK_BLOCK_BYTES;
	return offset + 8 <= offsetof(struct pair_summary, task) || (offset >= lo && offset + 8 <= hi);
}

/* Whether a task's row r keeps its figure, and its null count, where field_fits says. */
static bool in_task_block(const struct task_figure *r)
{
	return field_fits(r->offset) && (r->null_rule != FIG_NULL_ZERO || field_fits(r->null_offset));
}

/* Appends n rows to the table: past FIG_MAX_ROWS, a task's row outside its block, or a
 * measures name longer than the block keeps (15 characters) is a build's mistake. */
static void table_append(const struct task_figure *rows, size_t n)
{
	if (task_figures_n + n > FIG_MAX_ROWS)
		table_wrong("more than FIG_MAX_ROWS rows", NULL);
	for (size_t i = 0; i < n; i++)
		if (rows[i].task && (!in_task_block(&rows[i]) ||
				     strlen(rows[i].task) >= sizeof(((struct sim_task_block *)0)->name)))
			table_wrong("a task's row past its block of SIM_TASK_BLOCK_BYTES, or its name over 15 characters",
				    rows[i].task);
	memcpy(&figure_table[task_figures_n], rows, n * sizeof(*rows));
	task_figures_n += n;
}

/* Built before main from the registry (a test's own table included), so every walker of
 * task_figures sees the tasks' rows as it sees the core ones. */
__attribute__((constructor)) static void figure_table_build(void)
{
	table_append(core_head, ROWS(core_head));
	for (unsigned w = 0; w < workload_count; w++) {
		const struct sim_desc *d = workload_table[w]->sim;
		if (d && d->measures)
			table_append(d->measures->rows, d->measures->n_rows);
	}
	table_append(core_tail, ROWS(core_tail));
}

const struct sim_measures *figure_task_measures(const struct task_figure *f)
{
	for (unsigned w = 0; f->task && w < workload_count; w++) {
		const struct sim_desc *d = workload_table[w]->sim;
		if (d && d->measures && strcmp(d->measures->name, f->task) == 0)
			return d->measures;
	}
	return NULL;
}

double figure_value(const struct task_figure *f, const struct pair_summary *s)
{
	const char *p = (const char *)s + f->offset;
	return f->type == FIG_DOUBLE ? *(const double *)p : (double)*(const uint64_t *)p;
}

void figure_set(const struct task_figure *f, struct pair_summary *s, double v)
{
	char *p = (char *)s + f->offset;
	if (f->type == FIG_DOUBLE)
		*(double *)p = v;
	else
		*(uint64_t *)p = isfinite(v) && v > 0 ? (uint64_t)llround(v) : 0;
}

/* The double at offset off of s. */
static double double_at(const struct pair_summary *s, size_t off)
{
	return *(const double *)((const char *)s + off);
}

bool figure_interval(const struct task_figure *f, const struct pair_summary *s, double *lo, double *hi)
{
	if (!f->ci)
		return false;
	*lo = double_at(s, f->ci->lo_offset);
	*hi = double_at(s, f->ci->hi_offset);
	return !isnan(*lo) && !isnan(*hi);
}

void figure_intervals_clear(struct pair_summary *s)
{
	for (size_t i = 0; i < task_figures_n; i++) {
		const struct figure_interval *ci = task_figures[i].ci;
		if (ci)
			*(double *)((char *)s + ci->lo_offset) = *(double *)((char *)s + ci->hi_offset) = NAN;
	}
}

bool figure_is_task_line(const char *line)
{
	line += strspn(line, " ");
	for (unsigned w = 0; w < workload_count; w++) {
		const struct sim_measures *m = workload_table[w]->sim ? workload_table[w]->sim->measures : NULL;
		for (unsigned k = 0; m && k < m->n_lines; k++)
			if (strncmp(line, m->lines[k].lead, strlen(m->lines[k].lead)) == 0)
				return true;
	}
	return false;
}

bool figure_is_null(const struct task_figure *f, const struct pair_summary *s, bool buffered)
{
	if (f->task && strcmp(f->task, s->task.name) != 0)
		return true;  /* another task's measures */
	switch (f->null_rule) {
	case FIG_NULL_NO_SAMPLES: return s->samples == 0;
	case FIG_NULL_NO_TIMER: return s->timer_samples == 0;
	case FIG_NULL_NO_FRAMES: return s->frame_samples == 0;
	case FIG_NULL_NO_LOOPS: return s->loop_periods == 0;
	case FIG_NULL_UNBUFFERED: return !buffered;
	case FIG_NULL_ZERO: return *(const uint64_t *)((const char *)s + f->null_offset) == 0;
	default: return false;
	}
}

const struct task_figure *figure_of_metric(const struct task_figure *tab, size_t n, enum judged_metric m)
{
	for (size_t i = 0; i < n; i++)
		if (tab[i].cmp && tab[i].cmp->metric == m)
			return &tab[i];
	return NULL;
}

/* A key the code names by its field that no written row has: the code and the table
 * disagree, whatever the input, so stop here rather than read or write a member under NULL. */
static const char *key_found(const char *key, const char *what, size_t offset)
{
	if (!key) {
		fprintf(stderr, "interbench: internal error: %s has no written figure at offset %zu\n", what, offset);
		abort();
	}
	return key;
}

const char *figure_key_of(size_t offset)
{
	for (size_t i = 0; i < task_figures_n; i++)
		if (!task_figures[i].task && task_figures[i].offset == offset && task_figures[i].json_key)
			return task_figures[i].json_key;
	return key_found(NULL, "the core's figure table", offset);
}

const char *figure_task_key_of(const struct sim_measures *m, size_t offset)
{
	for (size_t i = 0; i < m->n_rows; i++)
		if (m->rows[i].offset == offset && m->rows[i].json_key)
			return m->rows[i].json_key;
	return key_found(NULL, m->name, offset);
}

/* The row of the table compare reads as m, or NULL when m is out of range. */
static const struct task_figure *metric_row(enum judged_metric m)
{
	return m < JM_METRICS ? figure_of_metric(task_figures, task_figures_n, m) : NULL;
}

bool judged_metric_is_latency(enum judged_metric m)
{
	const struct task_figure *f = metric_row(m);
	return f && f->null_rule == FIG_NULL_NO_SAMPLES;
}

bool judged_metric_higher_worse(enum judged_metric m)
{
	const struct task_figure *f = metric_row(m);
	return !f || !f->higher_better;
}

bool judged_metric_applies(enum judged_metric m, bool has_deadlines, bool presenting)
{
	if (m == JM_MET || m == JM_STREAK)
		return has_deadlines;
	if (m == JM_LOW1)
		return !has_deadlines || presenting;
	return true;
}

double judged_metric_threshold(enum judged_metric m)
{
	const struct task_figure *f = metric_row(m);
	return f && f->cmp->threshold > 0 ? f->cmp->threshold : NAN;
}

bool judged_metric_is_share(enum judged_metric m)
{
	const struct task_figure *f = metric_row(m);
	return f && f->unit == FIG_PCT;
}

bool judged_metric_in_points(enum judged_metric m)
{
	return !judged_metric_higher_worse(m) || judged_metric_is_share(m);
}

bool judged_metric_is_time(enum judged_metric m)
{
	const struct task_figure *f = metric_row(m);
	return f && f->unit == FIG_NS;
}

const char *judged_metric_unit(enum judged_metric m)
{
	const struct task_figure *f = metric_row(m);
	return f ? f->cmp->unit : "%";
}

const char *judged_metric_name(enum judged_metric m)
{
	const struct task_figure *f = metric_row(m);
	return f ? f->cmp->name : "?";
}

const char *judged_metric_key(enum judged_metric m)
{
	const struct task_figure *f = metric_row(m);
	return f ? f->cmp->key : NULL;
}

int judged_metric_named(const char *name, size_t len)
{
	for (int m = 0; m < JM_METRICS; m++) {
		const struct task_figure *f = metric_row((enum judged_metric)m);
		const char *alias = f ? f->cmp->alias : NULL;
		if (f && ((strlen(f->cmp->key) == len && strncmp(f->cmp->key, name, len) == 0) ||
			  (alias && strlen(alias) == len && strncmp(alias, name, len) == 0)))
			return m;
	}
	return -1;
}

/* Whether repeat s counts in the median of a figure of group g: all repeats, those with
 * scheduling latency samples, those with timer latency samples. */
static bool in_group(const struct pair_summary *s, enum figure_group g)
{
	return g == FIG_OVER_ALL || (g == FIG_OVER_SAMPLED ? s->samples > 0 : s->timer_samples > 0);
}

void summary_median(const struct pair_summary *reps, unsigned n, struct pair_summary *out,
		    double *mean_lo_ns, double *mean_hi_ns)
{
	double *v = calloc(n, sizeof(*v));
	memset(out, 0, sizeof(*out));
	out->task = reps[0].task;     /* the task's measures: its rows' medians go into the block */
	memset(&out->task.data, 0, sizeof(out->task.data));
	figure_intervals_clear(out);  /* a run's interval is not one of the median's */
	*mean_lo_ns = INFINITY;
	*mean_hi_ns = 0;
	for (unsigned i = 0; i < n; i++)
		if (reps[i].samples) {  /* the range of the classic column */
			*mean_lo_ns = fmin(*mean_lo_ns, reps[i].classic_mean_ns);
			*mean_hi_ns = fmax(*mean_hi_ns, reps[i].classic_mean_ns);
		}
	if (isinf(*mean_lo_ns))
		*mean_lo_ns = 0;
	for (size_t k = 0; v && k < task_figures_n; k++) {
		const struct task_figure *f = &task_figures[k];
		unsigned nv = 0;
		if (f->task && strncmp(f->task, out->task.name, sizeof(out->task.name)) != 0)
			continue;  /* another task's row: its offset is this task's block, another field */
		for (unsigned i = 0; i < n; i++)
			if (in_group(&reps[i], f->median))
				v[nv++] = figure_value(f, &reps[i]);
		if (nv > 0)  /* else no repeat with samples: the figure stays 0, samples 0 */
			figure_set(f, out, median_of(v, nv));
	}
	/* The counts two null rules read, no figure of the table: their medians too, so a frame
	 * time or a stolen time every repeat measured is not shown as none (FIG_NULL_NO_FRAMES,
	 * FIG_NULL_NO_LOOPS). */
	for (unsigned i = 0; v && i < n; i++)
		v[i] = (double)reps[i].frame_samples;
	out->frame_samples = v ? (uint64_t)llround(median_of(v, n)) : 0;
	for (unsigned i = 0; v && i < n; i++)
		v[i] = (double)reps[i].loop_periods;
	out->loop_periods = v ? (uint64_t)llround(median_of(v, n)) : 0;
	free(v);
}
