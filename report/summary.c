#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"
#include "report/figures.h"
#include "report/logformat.h"
#include "report/summary.h"
#include "engine/intervals.h"

/* The stutter, CPU-loop and audio figures of r into s. */
static void stutter_summarize(const struct sim_result *r, struct pair_summary *s)
{
	s->longest_streak = r->acct.longest_streak;
	s->longest_streak_ns = r->acct.longest_streak * r->interval_us * 1000;
	s->streaks = r->acct.streaks;
	s->latency_over_period = r->sched_over_period;
	s->latency_over_perceptible = r->sched_over_perceptible;
	s->frame_samples = r->frame.count;
	s->frame_p50_ns = hist_percentile_ns(&r->frame_hist, 50, r->frame.max_ns);
	s->frame_p99_ns = hist_percentile_ns(&r->frame_hist, 99, r->frame.max_ns);
	s->frame_p999_ns = hist_percentile_ns(&r->frame_hist, 99.9, r->frame.max_ns);
	s->low1_fps = s->frame_p99_ns ? 1e9 / (double)s->frame_p99_ns : 0;
	s->loop_periods = r->loop.periods;
	s->stolen_p99_ns = hist_percentile_ns(&r->loop.excess_hist, 99, r->loop.excess.max_ns);
	s->stolen_max_ns = r->loop.excess.max_ns;
	s->stolen_pct = r->loop.periods ? 100.0 * (double)r->loop.over10 / (double)r->loop.periods : 0;
	s->xruns = r->audio.xruns;
	s->worst_overrun_ns = r->audio.worst_overrun_ns;
	s->xruns_per_min = r->task_wall_ns ? (double)r->audio.xruns * 60e9 / (double)r->task_wall_ns : 0;
	uint64_t ran = r->acct.periods - r->acct.skipped;
	s->start_1ms_pct = ran ? 100.0 * (double)r->audio.start_within_1ms / (double)ran : 0;
	s->start_2ms_pct = ran ? 100.0 * (double)r->audio.start_within_2ms / (double)ran : 0;
}

/* A presenting task's chain figures of r into s (engine/chain.h). */
static void chain_summarize(const struct sim_result *r, struct pair_summary *s)
{
	const struct chain_figures *c = &r->chain;
	s->vsyncs = c->vsyncs;
	s->jank = c->jank;
	s->jank_streak = c->jank_streak_max;
	s->jank_pct = c->jank_pct;
	s->i2p_samples = c->i2p.count;
	s->i2p_mean_ns = c->i2p.mean_ns;
	s->i2p_p50_ns = c->i2p_p50_ns;
	s->i2p_p99_ns = c->i2p_p99_ns;
	s->i2p_max_ns = c->i2p.max_ns;
	for (unsigned k = 0; k < CHAIN_STAGES; k++)
		s->stage_wake_p99_ns[k] = c->stage_wake_p99_ns[k];
	double total = c->i2p.mean_ns * (double)c->i2p.count;
	for (unsigned p = 0; p < CHAIN_POINTS; p++)
		s->segment_pct[p] = total > 0 ? 100.0 * c->segment_ns[p] / total : 0;
}

/* The intervals of r's judged figures into s (engine/intervals.h; NaN where there is none). */
static void intervals_summarize(const struct sim_result *r, struct pair_summary *s)
{
	struct sim_interval iv[SIM_JUDGED];
	sim_intervals(r, r->ci_looks, iv);
	s->latency_mean_lo_ns = iv[SIM_LATENCY_MEAN].lo;
	s->latency_mean_hi_ns = iv[SIM_LATENCY_MEAN].hi;
	s->sched_p99_lo_ns = iv[SIM_LATENCY_P99].lo;
	s->sched_p99_hi_ns = iv[SIM_LATENCY_P99].hi;
	s->desired_cpu_lo_pct = iv[SIM_DESIRED_CPU].lo;
	s->desired_cpu_hi_pct = iv[SIM_DESIRED_CPU].hi;
	s->deadlines_met_lo_pct = iv[SIM_DEADLINES_MET].lo;
	s->deadlines_met_hi_pct = iv[SIM_DEADLINES_MET].hi;
	s->ci_looks = r->ci_looks > 1 ? r->ci_looks : 1;
}

void pair_summarize(const struct sim_result *r, struct pair_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->samples = r->sched.count;
	s->latency_mean_ns = r->sched.mean_ns;
	s->latency_sd_ns = lat_stats_sd_ns(&r->sched);
	s->latency_max_ns = r->sched.max_ns;
	s->ib_mean_ns = r->interbench.mean_ns;
	s->ib_sd_ns = lat_stats_sd_ns(&r->interbench);
	s->ib_max_ns = r->interbench.max_ns;
	s->lateness_mean_ns = r->lateness.mean_ns;
	s->lateness_max_ns = r->lateness.max_ns;
	s->lateness_p99_ns = hist_percentile_ns(&r->lateness_hist, 99, r->lateness.max_ns);
	stutter_summarize(r, s);
	chain_summarize(r, s);
	if (r->task_wall_ns) {
		s->task_cpu_pct = (double)r->task_cpu_ns * 100 / (double)r->task_wall_ns;
		s->task_cpu_wanted_pct = (double)r->acct.work_wanted_us * 1e3 * 100 / (double)r->task_wall_ns;
	}
	s->desired_cpu_pct = deadline_desired_cpu_pct(&r->acct);
	s->deadlines_met_pct = deadline_met_pct(&r->acct);
	s->periods = r->acct.periods;
	s->deadlines_met = r->acct.met;
	s->deadlines_missed = r->acct.missed;
	s->periods_skipped = r->acct.skipped;
	s->sched_p50_ns = hist_percentile_ns(&r->sched_hist, 50, r->sched.max_ns);
	s->sched_p90_ns = hist_percentile_ns(&r->sched_hist, 90, r->sched.max_ns);
	s->sched_p99_ns = hist_percentile_ns(&r->sched_hist, 99, r->sched.max_ns);
	s->sched_p999_ns = hist_percentile_ns(&r->sched_hist, 99.9, r->sched.max_ns);
	s->timer_samples = r->timer.count;
	s->timer_mean_ns = r->timer.mean_ns;
	s->timer_sd_ns = lat_stats_sd_ns(&r->timer);
	s->timer_max_ns = r->timer.max_ns;
	s->timer_p50_ns = hist_percentile_ns(&r->timer_hist, 50, r->timer.max_ns);
	s->timer_p90_ns = hist_percentile_ns(&r->timer_hist, 90, r->timer.max_ns);
	s->timer_p99_ns = hist_percentile_ns(&r->timer_hist, 99, r->timer.max_ns);
	s->timer_p999_ns = hist_percentile_ns(&r->timer_hist, 99.9, r->timer.max_ns);
	s->task_run_ns = r->task_wall_ns;
	s->interval_us = r->interval_us;
	intervals_summarize(r, s);
}

void fmt_sig3(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
		return;
	}
	double a = fabs(v);
	if (a == 0.0) {
		snprintf(buf, len, "0");
		return;
	}
	int decimals = 0;
	if (a < 999.5) {
		/* Digits after the point so that three significant digits remain. */
		int mag = (int)floor(log10(a));
		decimals = 2 - mag;
		/* Rounding can carry into the next decade (9.996 -> 10.0). */
		double rounded = round(a * pow(10, decimals)) / pow(10, decimals);
		if (rounded >= pow(10, mag + 1))
			decimals--;
		if (decimals < 0)
			decimals = 0;
	}
	snprintf(buf, len, "%.*f", decimals, v);
	if (decimals > 0) {
		char *end = buf + strlen(buf) - 1;
		while (*end == '0')
			*end-- = '\0';
		if (*end == '.')
			*end = '\0';
	}
}

static double to_unit(double ns, const struct table_style *st)
{
	return ns / (st->microseconds ? 1e3 : 1e6);
}

/* One cell of figure fig: TABLE_NO_SAMPLES when it has no value, a time in the table's unit, a
 * count whole, anything else with three significant digits. */
static void figure_cell(const struct task_figure *fig, const struct pair_summary *s, const struct table_style *st,
			char *buf, size_t len)
{
	double v = figure_value(fig, s);
	if (figure_is_null(fig, s, st->buffered))
		snprintf(buf, len, TABLE_NO_SAMPLES);
	else if (fig->unit == FIG_COUNT && fig->type == FIG_U64)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		fmt_sig3(fig->unit == FIG_NS ? to_unit(v, st) : v, buf, len);
}

/* The columns of group col (report/figures.h), in their order, each " %10s": their labels
 * (the header) when s is NULL, else the cells of s. */
static void column_group(FILE *f, enum figure_column col, const struct pair_summary *s, const struct table_style *st)
{
	for (unsigned pos = 0;; pos++) {
		const struct task_figure *fig = NULL;
		for (size_t k = 0; !fig && k < task_figures_n; k++)
			if (task_figures[k].column == col && task_figures[k].column_pos == pos)
				fig = &task_figures[k];
		if (!fig)
			return;
		char cell[32];
		if (s)
			figure_cell(fig, s, st, cell, sizeof(cell));
		fprintf(f, " %10s", s ? cell : fig->column_label);
	}
}

void table_header(FILE *f, const char *sim_name, const char *mode, const char *load_mode,
		  const struct table_style *st)
{
	const char *unit = st->microseconds ? "us" : "ms";
	fprintf(f, LOG_TITLE LOG_TITLE_SIM "%s%s%s" LOG_TITLE_PRESENCE LOG_TITLE_SIMULATED " %s%s" LOG_TITLE_END "\n",
		sim_name, mode && *mode ? " " : "", mode ? mode : "", load_mode ? load_mode : "",
		load_mode && *load_mode ? " " : "");
	fprintf(f, "Load      " LOG_COL_LATENCY "%s)    Max Latency   %% " LOG_COL_DESIRED, unit);
	if (st->has_deadlines)
		fprintf(f, "  %% " LOG_COL_DEADLINES);
	if (st->presents)
		column_group(f, FIG_CHAIN_COLUMN, NULL, st);
	if (st->buffered)
		column_group(f, FIG_BUFFER_COLUMN, NULL, st);
	if (st->verbose)
		column_group(f, FIG_VERBOSE_COLUMN, NULL, st);
	if (st->repeats > 1)
		fprintf(f, "   " LOG_COL_REPEATS " range of %u", st->repeats);
	fprintf(f, "\n");
}

/* The row without its line end. */
static void row_body(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st)
{
	char mean[32] = TABLE_NO_SAMPLES, sd[32] = TABLE_NO_SAMPLES, max[32] = TABLE_NO_SAMPLES, cpu[32], met[32];
	if (s->samples) {
		fmt_sig3(to_unit(s->ib_mean_ns, st), mean, sizeof(mean));
		fmt_sig3(to_unit(s->ib_sd_ns, st), sd, sizeof(sd));
		fmt_sig3(to_unit((double)s->ib_max_ns, st), max, sizeof(max));
	}
	fmt_sig3(s->desired_cpu_pct, cpu, sizeof(cpu));
	fmt_sig3(s->deadlines_met_pct, met, sizeof(met));
	fprintf(f, "%-9s %8s +/- %-10s %11s %15s", load, mean, sd, max, cpu);
	if (st->has_deadlines)
		fprintf(f, " %16s", met);
	if (st->presents)
		column_group(f, FIG_CHAIN_COLUMN, s, st);
	if (st->buffered)
		column_group(f, FIG_BUFFER_COLUMN, s, st);
	if (st->verbose)
		column_group(f, FIG_VERBOSE_COLUMN, s, st);
}

/* The cells of group col in one line after lead, "NAME VALUE" each, VALUE with unit. */
static void labelled_group(FILE *f, const char *lead, enum figure_column col, const struct pair_summary *s,
			   const struct table_style *st, const char *unit)
{
	const char *sep = " ";
	fprintf(f, "          %s", lead);
	for (size_t k = 0; k < task_figures_n; k++) {
		const struct task_figure *fig = &task_figures[k];
		char cell[32];
		if (fig->column != col)
			continue;
		figure_cell(fig, s, st, cell, sizeof(cell));
		fprintf(f, "%s%s %s%s", sep, fig->column_label, cell, strcmp(cell, TABLE_NO_SAMPLES) ? unit : "");
		sep = ", ";
	}
	fprintf(f, "\n");
}

void table_row_stages(FILE *f, const struct pair_summary *s, const struct table_style *st)
{
	if (!s->vsyncs)
		return;
	labelled_group(f, LOG_ROW_STAGES " wake-to-run p99", FIG_STAGE_COLUMN, s, st, st->microseconds ? " us" : " ms");
	labelled_group(f, LOG_ROW_SEGMENTS, FIG_SEGMENT_COLUMN, s, st, " %");
}

void table_row_intervals(FILE *f, const struct pair_summary *s, const struct table_style *st)
{
	const char *sep = "          " LOG_ROW_CI " ";
	for (size_t k = 0; k < task_figures_n; k++) {
		const struct task_figure *fig = &task_figures[k];
		double lo, hi;
		if (!fig->cmp || figure_is_null(fig, s, st->buffered) || !figure_interval(fig, s, &lo, &hi))
			continue;
		char a[32], b[32];
		fmt_sig3(fig->unit == FIG_NS ? to_unit(lo, st) : lo, a, sizeof(a));
		fmt_sig3(fig->unit == FIG_NS ? to_unit(hi, st) : hi, b, sizeof(b));
		fprintf(f, "%s%s %s-%s%s", sep, fig->cmp->name, a, b,
			fig->unit == FIG_NS ? (st->microseconds ? " us" : " ms") : "");
		sep = ", ";
	}
	if (*sep == ',')
		fprintf(f, "\n");
}

void table_row(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st)
{
	row_body(f, load, s, st);
	fprintf(f, "\n");
}

void table_row_repeats(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st,
		       double mean_lo_ns, double mean_hi_ns, unsigned failed)
{
	char lo[32], hi[32];
	fmt_sig3(to_unit(mean_lo_ns, st), lo, sizeof(lo));
	fmt_sig3(to_unit(mean_hi_ns, st), hi, sizeof(hi));
	row_body(f, load, s, st);
	if (s->samples)
		fprintf(f, "   %s-%s", lo, hi);
	else
		fprintf(f, "   %s", TABLE_NO_SAMPLES);
	if (failed)
		fprintf(f, " (%u failed)", failed);
	fprintf(f, "\n");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
	figure_intervals_clear(out);  /* a run's interval is not one of the median's */
	*mean_lo_ns = INFINITY;
	*mean_hi_ns = 0;
	for (unsigned i = 0; i < n; i++)
		if (reps[i].samples) {  /* the range of the classic column */
			*mean_lo_ns = fmin(*mean_lo_ns, reps[i].ib_mean_ns);
			*mean_hi_ns = fmax(*mean_hi_ns, reps[i].ib_mean_ns);
		}
	if (isinf(*mean_lo_ns))
		*mean_lo_ns = 0;
	for (size_t k = 0; v && k < task_figures_n; k++) {
		const struct task_figure *f = &task_figures[k];
		unsigned nv = 0;
		for (unsigned i = 0; i < n; i++)
			if (in_group(&reps[i], f->median))
				v[nv++] = figure_value(f, &reps[i]);
		if (nv > 0)  /* else no repeat with samples: the figure stays 0, samples 0 */
			figure_set(f, out, median_of(v, nv));
	}
	free(v);
}

void table_row_failed(FILE *f, const char *load, const char *why)
{
	char text[1024];
	text_escape_line(why, text, sizeof(text));
	fprintf(f, "%-9s " LOG_FAILED " %s\n", load, text);
}

void sweep_table(FILE *f, const char *sim, const char *load, const char *const *rows, unsigned nr,
		 const char *const *cols, unsigned nc, const struct sweep_cell *cells, bool has_deadlines,
		 bool microseconds)
{
	fprintf(f, "\n--- Sweep of %s against %s: %% deadlines met / p99 latency (%s) ---\n", sim, load,
		microseconds ? "us" : "ms");
	fprintf(f, "%-18s", "Bench \\ Loads");
	for (unsigned c = 0; c < nc; c++)
		fprintf(f, " %18s", cols[c]);
	fprintf(f, "\n");
	for (unsigned r = 0; r < nr; r++) {
		fprintf(f, "%-18s", rows[r]);
		for (unsigned c = 0; c < nc; c++) {
			const struct sweep_cell *x = &cells[r * nc + c];
			char met[32] = "-", p99[32] = "-", cell[80];
			if (x->measured && has_deadlines)
				fmt_sig3(x->met_pct, met, sizeof(met));
			if (x->measured && x->has_p99)
				fmt_sig3((double)x->p99_ns / (microseconds ? 1e3 : 1e6), p99, sizeof(p99));
			snprintf(cell, sizeof(cell), "%s / %s", met, p99);
			fprintf(f, " %18s", cell);
		}
		fprintf(f, "\n");
	}
}
