/* The classic interbench table and the sweep table, written from pair summaries (report/table.h). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "lib/interval.h"
#include "lib/text.h"
#include "engine/sim.h"
#include "report/figures.h"
#include "report/logformat.h"
#include "report/table.h"

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

/* Whether row fig is one of st's tables: a core row, or a row of the task's own measures. */
static bool in_style(const struct task_figure *fig, const struct table_style *st)
{
	return !fig->task || (st->measures && strcmp(fig->task, st->measures->name) == 0);
}

/* The columns of group col (report/figures.h), in their order, each " %10s": their labels
 * (the header) when s is NULL, else the cells of s. */
static void column_group(FILE *f, enum figure_column col, const struct pair_summary *s, const struct table_style *st)
{
	for (unsigned pos = 0;; pos++) {
		const struct task_figure *fig = NULL;
		for (size_t k = 0; !fig && k < task_figures_n; k++)
			if (task_figures[k].column == col && task_figures[k].column_pos == pos && in_style(&task_figures[k], st))
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
	if (st->measures)
		column_group(f, FIG_TASK_COLUMN, NULL, st);
	if (st->repeats > 1)
		fprintf(f, "   " LOG_COL_REPEATS " range of %u", st->repeats);
	fprintf(f, "\n");
}

/* The row without its line end. */
static void row_body(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st)
{
	char mean[32] = TABLE_NO_SAMPLES, sd[32] = TABLE_NO_SAMPLES, max[32] = TABLE_NO_SAMPLES, cpu[32], met[32];
	if (s->samples) {
		fmt_sig3(to_unit(s->classic_mean_ns, st), mean, sizeof(mean));
		fmt_sig3(to_unit(s->classic_sd_ns, st), sd, sizeof(sd));
		fmt_sig3(to_unit((double)s->classic_max_ns, st), max, sizeof(max));
	}
	fmt_sig3(s->desired_cpu_pct, cpu, sizeof(cpu));
	fmt_sig3(s->deadlines_met_pct, met, sizeof(met));
	fprintf(f, "%-9s %8s +/- %-10s %11s %15s", load, mean, sd, max, cpu);
	if (st->has_deadlines)
		fprintf(f, " %16s", met);
	if (st->measures)
		column_group(f, FIG_TASK_COLUMN, s, st);
}

/* Line number `line` of the task's own (FIG_TASK_LINE rows): its lead, then "LABEL VALUE" for
 * each of its rows with a label, VALUE with its unit (a time in the table's, a share in %). */
static void task_line(FILE *f, unsigned line, const struct pair_summary *s, const struct table_style *st)
{
	const char *sep = " ";
	fprintf(f, "          %s", st->measures->lines[line].lead);
	for (size_t k = 0; k < task_figures_n; k++) {
		const struct task_figure *fig = &task_figures[k];
		char cell[32];
		if (fig->column != FIG_TASK_LINE || fig->column_pos != line || !in_style(fig, st) || !fig->column_label[0])
			continue;  /* an empty label: a slot the task does not use (a task file's threads) */
		figure_cell(fig, s, st, cell, sizeof(cell));
		const char *unit = fig->unit == FIG_NS ? (st->microseconds ? " us" : " ms") : " %";
		fprintf(f, "%s%s %s%s", sep, fig->column_label, cell, strcmp(cell, TABLE_NO_SAMPLES) ? unit : "");
		sep = ", ";
	}
	fprintf(f, "\n");
}

void table_row_task_lines(FILE *f, const struct pair_summary *s, const struct table_style *st)
{
	const struct sim_measures *m = st->measures;
	if (!m || !m->n_rows || figure_is_null(&m->rows[0], s, st->buffered))
		return;
	for (unsigned line = 0; line < m->n_lines; line++)
		task_line(f, line, s, st);
}

/* One figure of a verbose line: its field in struct pair_summary (a core row of report/
 * figures.c keeps it) and the word it is shown with. */
struct verbose_item {
	size_t offset;
	const char *word;
};

/* A verbose line: its lead (report/logformat.h) and up to three groups of figures, each named
 * ("lateness") but the first, which the lead names; at most 6 figures a group, the first with
 * a word NULL ending it. */
struct verbose_line {
	const char *lead;
	struct verbose_group {
		const char *name;
		struct verbose_item items[7];
	} groups[3];
};

#define VI(field, word) { offsetof(struct pair_summary, field), word }

/* -v's lines under a row, each figure's definition in its group's name: scheduling latency
 * apart from interbench 0.31's (the row's), the timer's and the lateness, the task's own. */
static const struct verbose_line verbose_lines[] = {
	{ LOG_ROW_SCHED, { { NULL, { VI(latency_mean_ns, "mean"), VI(sched_p50_ns, "p50"), VI(sched_p90_ns, "p90"),
				     VI(sched_p99_ns, "p99"), VI(sched_p999_ns, "p99.9"), VI(latency_max_ns, "max") } } } },
	{ LOG_ROW_TIMER, { { NULL, { VI(timer_p99_ns, "p99"), VI(timer_max_ns, "max") } },
			   { "lateness", { VI(lateness_p99_ns, "p99"), VI(lateness_max_ns, "max") } } } },
	{ LOG_ROW_TASK, { { NULL, { VI(task_cpu_pct, "") } },
			  { "misses", { VI(longest_streak_ns, "longest run"), VI(streaks, "streaks") } },
			  { "frame time", { VI(frame_p99_ns, "p99") } } } },
};

/* The core row of task_figures keeping the field at offset, or NULL. */
static const struct task_figure *figure_at(size_t offset)
{
	for (size_t k = 0; k < task_figures_n; k++)
		if (!task_figures[k].task && task_figures[k].offset == offset)
			return &task_figures[k];
	return NULL;
}

/* Group g of a verbose line: "[ NAME][ (UNIT)]: WORD VALUE, ..." ("-" where a figure has no
 * value); the unit after the name when every figure is a time, else after each time; a share
 * followed by "%". */
static void verbose_group(FILE *f, const struct verbose_group *g, const struct pair_summary *s,
			  const struct table_style *st)
{
	const char *unit = st->microseconds ? "us" : "ms";
	bool times = true;   /* every figure a time: the unit said once, after the name */
	for (unsigned i = 0; g->items[i].word; i++)
		times &= figure_at(g->items[i].offset) && figure_at(g->items[i].offset)->unit == FIG_NS;
	if (g->name)
		fprintf(f, " %s", g->name);
	if (times)
		fprintf(f, " (%s)", unit);
	fprintf(f, ":");
	for (unsigned i = 0; g->items[i].word; i++) {
		const struct task_figure *fig = figure_at(g->items[i].offset);
		char cell[32] = TABLE_NO_SAMPLES;
		if (fig)
			figure_cell(fig, s, st, cell, sizeof(cell));
		bool value = strcmp(cell, TABLE_NO_SAMPLES) != 0;
		const char *after = !value || !fig ? "" : fig->unit == FIG_PCT ? " %" :
				    fig->unit == FIG_NS && !times ? (st->microseconds ? " us" : " ms") : "";
		fprintf(f, "%s%s%s%s%s", i ? ", " : " ", g->items[i].word, g->items[i].word[0] ? " " : "", cell, after);
	}
}

#define VERBOSE_LINES (sizeof(verbose_lines) / sizeof(verbose_lines[0]))

/* Whether the field at offset has a place in verbose_lines. */
static bool verbose_placed(size_t offset)
{
	for (size_t l = 0; l < VERBOSE_LINES; l++)
		for (unsigned g = 0; g < 3; g++)
			for (unsigned i = 0; verbose_lines[l].groups[g].items[i].word; i++)
				if (verbose_lines[l].groups[g].items[i].offset == offset)
					return true;
	return false;
}

/* The line of the -v figures (FIG_VERBOSE_COLUMN core rows) verbose_lines has no place for,
 * "more: LABEL VALUE[ UNIT], ...", so none is left out; nothing when every one is placed. */
static void verbose_rest(FILE *f, const struct pair_summary *s, const struct table_style *st)
{
	bool any = false;
	for (size_t k = 0; k < task_figures_n; k++) {
		const struct task_figure *fig = &task_figures[k];
		char cell[32];
		if (fig->task || fig->column != FIG_VERBOSE_COLUMN || verbose_placed(fig->offset))
			continue;
		figure_cell(fig, s, st, cell, sizeof(cell));
		bool value = strcmp(cell, TABLE_NO_SAMPLES) != 0;
		fprintf(f, "%s %s %s%s", any ? "," : "          " LOG_ROW_MORE, fig->column_label, cell,
			!value ? "" : fig->unit == FIG_PCT ? " %" : fig->unit == FIG_NS ? (st->microseconds ? " us" : " ms") : "");
		any = true;
	}
	if (any)
		fprintf(f, "\n");
}

void table_row_verbose(FILE *f, const struct pair_summary *s, const struct table_style *st)
{
	for (size_t l = 0; l < VERBOSE_LINES; l++) {
		const struct verbose_line *v = &verbose_lines[l];
		fprintf(f, "          %s", v->lead);
		for (unsigned g = 0; g < 3 && v->groups[g].items[0].word; g++) {
			if (g)
				fprintf(f, ";");
			verbose_group(f, &v->groups[g], s, st);
		}
		fprintf(f, "\n");
	}
	verbose_rest(f, s, st);
}

void table_legend(FILE *f, const struct table_legend *lg)
{
	char text[1024];
	snprintf(text, sizeof(text), TABLE_DEFINITIONS_PREFIX ": scheduling latency (wake-up to running) plus one "
		 "period per missed deadline; %% Desired CPU: of the CPU time the task asked for, the share it got%s",
		 lg->deadlines ? "; % Deadlines Met: of its periods, those finished in time" : "");
	text_wrap(f, text, TABLE_LEGEND_COLS, "  ");
	if (lg->repeats)
		text_wrap(f, "Each row: every figure the median over the pair's sub-runs; Mean range of N: the lowest "
			  "and highest Latency mean of its N sub-runs", TABLE_LEGEND_COLS, "  ");
	for (unsigned k = 0; k < lg->n_measures; k++)
		if (lg->measures[k]->legend) {
			snprintf(text, sizeof(text), "%s's columns: %s", lg->measures_task[k], lg->measures[k]->legend);
			text_wrap(f, text, TABLE_LEGEND_COLS, "  ");
		}
	if (lg->verbose)
		text_wrap(f, "Under each row (-v): sched: the scheduling latency alone, without the periods added; "
			  "timer latency: "
			  "timer expiry to wake-up; lateness: period start to running; task cpu: its CPU time / its run "
			  "time; misses: the longest run of missed deadlines, and streaks, the runs of 2 or more; frame "
			  "time: completion to completion; within-run CI: where the run's own figure lies, not what "
			  "another run would measure", TABLE_LEGEND_COLS, "  ");
}

/* The level of intervals at error probability alpha, as "95%" or "99.93%", or "1-1.1e-11"
 * where four digits would round it to 100 %, into buf. */
static void ci_level_text(double alpha, char *buf, size_t len)
{
	snprintf(buf, len, "%.4g%%", 100 * (1 - alpha));
	if (strcmp(buf, "100%") == 0)
		snprintf(buf, len, "1-%.2g", alpha);
}

/* The name figure fig goes by on the intervals' line: a scheduling latency's as on -v's sched
 * line ("sched mean", "sched p99": the row's own latency is interbench 0.31's), else its
 * compare name ("% desired CPU"). */
static void interval_name(const struct task_figure *fig, char *buf, size_t len)
{
	const char *name = fig->cmp->name;
	if (fig->json_key && strncmp(fig->json_key, "latency_", 8) == 0)
		snprintf(buf, len, "sched %.*s", (int)strcspn(name, " "), name);
	else
		snprintf(buf, len, "%s", name);
}

/* The intervals' line of the figures in s that have one, times (times true) or the others: the
 * lead, then each "NAME LO-HI[ UNIT]" or "NAME >= LO[ UNIT] (open above)"; nothing when none. */
static void interval_line(FILE *f, const struct pair_summary *s, const struct table_style *st, bool times)
{
	char level[32];
	bool any = false;
	ci_level_text(s->ci_alpha > 0 ? s->ci_alpha : CI_ALPHA, level, sizeof(level));
	for (size_t k = 0; k < task_figures_n; k++) {
		const struct task_figure *fig = &task_figures[k];
		double lo, hi;
		if (!fig->cmp || (fig->unit == FIG_NS) != times || figure_is_null(fig, s, st->buffered) ||
		    !figure_interval(fig, s, &lo, &hi))
			continue;
		char a[32], b[32], name[64];
		const char *unit = fig->unit == FIG_NS ? (st->microseconds ? " us" : " ms") : "";
		interval_name(fig, name, sizeof(name));
		fmt_sig3(fig->unit == FIG_NS ? to_unit(lo, st) : lo, a, sizeof(a));
		fmt_sig3(fig->unit == FIG_NS ? to_unit(hi, st) : hi, b, sizeof(b));
		fprintf(f, any ? "," : "          " LOG_ROW_CI " %s CI:", level);
		if (isinf(hi))   /* open above: the low end alone is a bound */
			fprintf(f, " %s >= %s%s (open above)", name, a, unit);
		else
			fprintf(f, " %s %s-%s%s", name, a, b, unit);
		any = true;
	}
	if (any)
		fprintf(f, "\n");
}

void table_row_intervals(FILE *f, const struct pair_summary *s, const struct table_style *st)
{
	interval_line(f, s, st, true);    /* the latencies', then the shares': within 100 columns */
	interval_line(f, s, st, false);
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
