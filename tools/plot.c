#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/safefile.h"
#include "lib/optparse.h"
#include "lib/text.h"
#include "engine/sim.h"
#include "engine/timeline.h"
#include "report/jsonkeys.h"
#include "engine/summary.h"   /* FIGURE_KEY's fields */
#include "workloads/pipeline_chain.h"

/* The JSON key of Pipeline's figure in field of its block (the chain figure draws it). */
#define CHAIN_KEY(field) TASK_FIGURE_KEY(pipeline_chain_measures, struct chain_figures, field)
#include "explain/model.h"
#include "tools/plot.h"
#include "tools/plot_fig.h"
#include "tools/resultset.h"

/* Bounds on what a timeline can make plot do (the others: tools/plot_fig.h). */
#define PLOT_MAX_TL_RECORDS (4u * TIMELINE_MAX_RECORDS)  /* records a --timeline may hold */

/* A figure per simulation of one bar per load stacked by part, from the JSON results. */
struct stacked {
	const char *prefix;        /* the stem: PREFIX-SIM */
	const char *data;          /* the data block's header comment, after "# load, then " */
	const char *title;         /* after "SIM: " */
	const char *ylabel;
	unsigned (*parts)(void);         /* how many parts */
	const char *(*part)(unsigned k); /* part k's name */
	/* Writes r's row (the load, then each part, then `extra` more columns) into f's data;
	 * false when r has none. */
	bool (*row)(struct figure *f, const json_t *results, const json_t *r);
	const char *extra;         /* plot clauses after the bars ("%u": the first extra column), or NULL */
};

/* Adds the explained delay and its parts (ns) of result r into delay_ns and part_ns. */
static void causes_add(const json_t *r, double *delay_ns, double part_ns[EXPLAIN_PARTS])
{
	const json_t *e = json_object_get(r, JK_EXPLAIN), *parts = json_object_get(e, EK_PARTS_NS);
	if (!json_is_object(parts) || !(plot_jnum(e, EK_DELAY_NS) > 0))
		return;
	*delay_ns += plot_jnum(e, EK_DELAY_NS);
	for (int k = 0; k < EXPLAIN_PARTS; k++)
		part_ns[k] += fmax(plot_jnum(parts, explain_part_name((enum explain_part)k)), 0);
}

/* One row of causes-SIM's data: the load of r (its first sub-run), then each part's share of
 * the explained delay of all its sub-runs (of results), %.  Returns whether they had explained
 * periods. */
static bool causes_row(struct figure *f, const json_t *results, const json_t *r)
{
	double delay_ns = 0, part_ns[EXPLAIN_PARTS] = { 0 };
	char label[160], other[160];
	size_t i;
	const json_t *s;
	plot_load_label(r, label, sizeof(label));
	json_array_foreach(results, i, s) {
		plot_load_label(s, other, sizeof(other));
		if (!json_object_get(s, JK_FAILED) && strcmp(plot_jstr(s, JK_SIMULATION), plot_jstr(r, JK_SIMULATION)) == 0 &&
		    strcmp(label, other) == 0)
			causes_add(s, &delay_ns, part_ns);
	}
	if (!(delay_ns > 0))
		return false;
	fprintf(f->head, "\"%s\"", label);
	for (int k = 0; k < EXPLAIN_PARTS; k++)
		fprintf(f->head, " %g", 100 * part_ns[k] / delay_ns);
	fputc('\n', f->head);
	return true;
}

static unsigned causes(void)
{
	return EXPLAIN_PARTS;
}

static const char *cause_name(unsigned k)
{
	return explain_part_name((enum explain_part)k);
}

/* Whether row f is a share of the input-to-present time: a row of the line of shares
 * (struct figure_line.shares) of Pipeline's measures. */
static bool is_segment(const struct task_figure *f)
{
	const struct sim_measures *m = figure_task_measures(f);
	return m == &pipeline_chain_measures && f->column == FIG_TASK_LINE && f->column_pos < m->n_lines &&
	       m->lines[f->column_pos].shares;
}

/* The row giving segment k's share, counted in the figure table's order, or NULL. */
static const struct task_figure *segment_figure(unsigned k)
{
	for (size_t i = 0; i < task_figures_n; i++)
		if (is_segment(&task_figures[i]) && k-- == 0)
			return &task_figures[i];
	return NULL;
}

/* How many segments there are (plot's chain figure's parts). */
static unsigned segments(void)
{
	unsigned n = 0;
	while (segment_figure(n))
		n++;
	return n;
}

static const char *segment_name(unsigned k)
{
	return segment_figure(k)->column_label;
}

/* One row of chain-SIM's data: the load, then each segment's part of the mean input-to-present
 * latency (ms), then the p99 (ms).  Returns whether r presented input. */
static bool chain_row(struct figure *f, const json_t *results, const json_t *r)
{
	(void)results;
	double mean_ns = plot_jnum(r, CHAIN_KEY(i2p_mean_ns)), p99_ns = plot_jnum(r, CHAIN_KEY(i2p_p99_ns));
	if (!(mean_ns > 0))
		return false;
	char label[160];
	plot_load_label(r, label, sizeof(label));
	fprintf(f->head, "\"%s\"", label);
	for (unsigned k = 0; segment_figure(k); k++) {
		double ppm = plot_jnum(r, segment_figure(k)->json_key);
		fprintf(f->head, " %g", ppm > 0 ? mean_ns * ppm / 1e6 / 1e6 : 0);
	}
	fprintf(f->head, " %g\n", p99_ns > 0 ? p99_ns / 1e6 : 0);
	return true;
}

/* causes-SIM (with --explain): per load, a bar of the explained delay of its sub-runs stacked
 * by cause. */
static const struct stacked causes_figure = {
	.prefix = "causes", .data = "each cause's share of the explained delay (%)",
	.title = "why periods were late, share of the explained delay by cause (%)", .ylabel = "% of the delay",
	.parts = causes, .part = cause_name, .row = causes_row,
};

/* chain-SIM (a task that presents frames): per load, its mean input-to-present latency as a
 * bar stacked by segment, and its p99 as a point. */
static const struct stacked chain_figure = {
	.prefix = "chain", .data = "each segment's part of the mean input-to-present latency (ms), then its p99 (ms)",
	.title = "input-to-present latency, mean by segment, and p99 (ms)", .ylabel = "ms",
	.parts = segments, .part = segment_name, .row = chain_row,
	.extra = ", $d0 using 0:%u with points pt 7 ps 1.5 lc rgb 'black' title 'p99'",
};

/* The stacked figure st of simulation sim, when some of its results have a row. */
static void plot_stacked(struct plot_job *j, const json_t *results, const char *sim, const struct stacked *st)
{
	struct figure f = { .blocks = 0 };
	char s[64], title[256];
	text_slug(sim, s, sizeof(s));
	snprintf(f.stem, sizeof(f.stem), "%s-%s", st->prefix, s);
	if (!fig_begin(j, &f, NULL))
		return;
	unsigned long rows = 0, loads = 0;
	size_t i;
	json_t *r;
	block_begin(&f);
	fprintf(f.head, "# load, then %s:", st->data);
	for (unsigned k = 0; k < st->parts(); k++)
		fprintf(f.head, " %s", st->part(k));
	fputc('\n', f.head);
	json_array_foreach(results, i, r)  /* a row's work is O(results): at most PLOT_MAX_LOADS rows tried */
		if (plot_of_sim(r, sim) && loads++ < PLOT_MAX_LOADS)
			rows += st->row(&f, results, r);
	block_end(&f);
	snprintf(title, sizeof(title), "%s: %s", sim, st->title);
	gp_head(f.plot, j, f.stem, title);
	fprintf(f.plot, "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.8 border -1\n"
		"set boxwidth 0.6\nset yrange [0:*]\nset ylabel '%s'\nset xtics rotate by -30\nplot ", st->ylabel);
	for (unsigned k = 0; k < st->parts(); k++) {  /* a colour each, the last (unexplained) hatched grey */
		fprintf(f.plot, "%s$d0 using %u%s ", k ? ", \\\n     " : "", k + 2, k ? "" : ":xtic(1)");
		plot_fill_style(f.plot, k);
		fprintf(f.plot, " title '%s'", st->part(k));
	}
	if (st->extra)
		fprintf(f.plot, st->extra, st->parts() + 2);
	fputc('\n', f.plot);
	plot_too_many(j, f.stem, "loads", loads, PLOT_MAX_LOADS);
	fig_end(j, &f, rows > 0);
}

/* The curves of column c of sweep sw: % met and p99 of each bench setting, loads at setting c. */
static void sweep_column(struct figure *f, const json_t *sw, size_t c)
{
	const json_t *rows = json_object_get(sw, JK_BENCH_SETTINGS), *cells = json_object_get(sw, JK_CELLS);
	char col[96], x[64], title[160], q[2][256];
	snprintf(col, sizeof(col), "%s", json_string_value(json_array_get(json_object_get(sw, JK_LOAD_SETTINGS), c)));
	plot_dat_text(col);
	unsigned b = block_begin(f);
	fprintf(f->head, "# loads %s\n", col);
	for (size_t rr = 0; rr < json_array_size(rows); rr++) {
		const json_t *cell = json_array_get(json_array_get(cells, rr), c);
		snprintf(x, sizeof(x), "%s", json_string_value(json_array_get(rows, rr)));
		plot_dat_text(x); /* a quoted string in the data: its spaces stay */
		if (json_is_object(cell))
			fprintf(f->head, "%zu \"%s\" %g %g\n", rr, x, plot_jnum(cell, FIGURE_KEY(deadlines_met_pct)) / 1e4,
				plot_jnum(cell, FIGURE_KEY(sched_p99_ns)) >= 0 ? plot_jnum(cell, FIGURE_KEY(sched_p99_ns)) / 1e6 : 0.0);
	}
	block_end(f);
	snprintf(title, sizeof(title), "loads %s met", col);
	gp_str(title, q[0], sizeof(q[0]));
	snprintf(title, sizeof(title), "loads %s p99", col);
	/* a load setting's two series in its colour: met a line with filled points, p99 open ones */
	fprintf(f->plot, "%s$d%u using 1:3:xtic(2) with linespoints pt 7 lw 2 lc rgb '%s' title %s, $d%u using 1:4 axes x1y2 "
		"with points pt 6 ps 1.5 lw 2 lc rgb '%s' title %s", b ? ", \\\n     " : "plot ", b, plot_line_colour(b), q[0], b,
		plot_line_colour(b), gp_str(title, q[1], sizeof(q[1])));
}

/* sweep-SIM-LOAD: one figure per sweep summary of the JSON (validated: result_json_load). */
static void plot_sweep(struct plot_job *j, const json_t *sw)
{
	struct figure f = { .blocks = 0 };
	char s[64], l[64], title[256];
	text_slug(plot_jstr(sw, JK_SIMULATION), s, sizeof(s));
	text_slug(plot_jstr(sw, JK_LOAD), l, sizeof(l));
	snprintf(f.stem, sizeof(f.stem), "sweep-%s-%s", s, l);
	snprintf(title, sizeof(title), "%s against %s: %% deadlines met (lines), p99 (open points, right)",
		 plot_jstr(sw, JK_SIMULATION), plot_jstr(sw, JK_LOAD));
	if (!fig_begin(j, &f, title))
		return;
	fprintf(f.head, "set ylabel '%% deadlines met'\nset y2label 'p99 (ms)'\nset y2tics\nset yrange [0:105]\n"
		"set xtics rotate by -30\n");
	for (size_t c = 0; c < json_array_size(json_object_get(sw, JK_LOAD_SETTINGS)); c++)
		sweep_column(&f, sw, c);
	fputs("\n", f.plot);
	fig_end(j, &f, true);
}

/* A timeline figure: its pair and result, and its records as they are read. */
struct tl_pair {
	uint32_t id;
	size_t order;                 /* its result's index: of equal ids, the first is drawn */
	const json_t *res;
	struct figure f;              /* begun at the pair's first record */
	unsigned long records;
	unsigned long shown;          /* records of frames shown (a presenting task's) */
	uint64_t last_shown_ns;       /* the last one's vsync */
	bool broken;                  /* its figure could not be begun */
};

/* The timeline figures, one per pair id of the result (at most PLOT_MAX_PAIRS), sorted by id. */
struct tl_set {
	struct tl_pair p[PLOT_MAX_PAIRS];
	size_t n;
	struct tl_pair *last;         /* the last found: records come pair after pair */
	unsigned long unknown;        /* records of ids no result has */
};

/* qsort(3) and bsearch(3) orders: by pair id; by pair id, then result index. */
static int tl_cmp_id(const void *a, const void *b)
{
	const struct tl_pair *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int tl_cmp(const void *a, const void *b)
{
	const struct tl_pair *x = a, *y = b;
	return tl_cmp_id(a, b) ? tl_cmp_id(a, b) : x->order < y->order ? -1 : x->order > y->order;
}

/* Fills set with the results that name a timeline pair, sorted by id, each id once. */
static void tl_index(struct plot_job *j, const json_t *results, struct tl_set *set)
{
	size_t i, n = 0;
	unsigned long named = 0;
	json_t *r;
	json_array_foreach(results, i, r)
		if (json_is_integer(json_object_get(r, JK_TIMELINE_PAIR)) && named++ < PLOT_MAX_PAIRS)
			set->p[n++] = (struct tl_pair){ .id = (uint32_t)json_integer_value(json_object_get(r, JK_TIMELINE_PAIR)),
							.order = i, .res = r };
	plot_too_many(j, j->result, "timeline pairs", named, PLOT_MAX_PAIRS);
	qsort(set->p, n, sizeof(set->p[0]), tl_cmp);
	set->n = 0;
	for (i = 0; i < n; i++)
		if (set->n == 0 || set->p[set->n - 1].id != set->p[i].id)
			set->p[set->n++] = set->p[i];
}

/* The figure of pair id, or NULL. */
static struct tl_pair *tl_find(struct tl_set *set, uint32_t id)
{
	if (set->last && set->last->id == id)
		return set->last;
	struct tl_pair key = { .id = id };
	struct tl_pair *p = bsearch(&key, set->p, set->n, sizeof(set->p[0]), tl_cmp_id);
	return p ? (set->last = p) : NULL;
}

/* Begins p's figure: timeline-PAIR, its title and deadline lines, its datablock opened. */
static void tl_begin(struct plot_job *j, struct tl_pair *p)
{
	char title[256];
	snprintf(p->f.stem, sizeof(p->f.stem), "timeline-%u", p->id);
	snprintf(title, sizeof(title), "pair %u: %s against %s: lateness of each period%s", p->id,
		 plot_jstr(p->res, JK_SIMULATION), plot_jstr(p->res, JK_LOAD),
		 json_is_integer(json_object_get(p->res, CHAIN_KEY(vsyncs))) ? ", frame time where shown" : "");
	p->broken = !fig_begin(j, &p->f, title);
	if (p->broken)
		return;
	double period_ms = plot_jnum(p->res, FIGURE_KEY(interval_us)) / 1e3;
	/* the buffer's length in periods (a result without task_settings: none known, no line) */
	double periods = plot_jnum(json_object_get(p->res, JK_TASK_SETTINGS), JK_BUFFER_PERIODS);
	fprintf(p->f.head, "set xlabel 'time (s)'\nset ylabel 'lateness (ms)'\n");
	if (period_ms > 0)
		fprintf(p->f.head, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 2 lc 'red'\n",
			period_ms, period_ms);
	if (period_ms > 0 && periods > 1)
		fprintf(p->f.head, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 3 lc 'orange'\n",
			period_ms * (periods - 1), period_ms * (periods - 1));
	block_begin(&p->f);
	fprintf(p->f.head, "# time_s lateness_ms xrun [shown_s frame_time_ms: a frame shown after the one before]\n");
}

/* Opens --timeline (lib/safefile: a regular file or a handed pipe, never waiting on a FIFO) and
 * reads its header.  Returns the stream at its first record, or NULL having said why. */
static FILE *tl_open(struct plot_job *j)
{
	char why[256];
	unsigned char head[TIMELINE_HEADER_BYTES];
	struct stat st;
	int fd = safe_open_read(j->timeline, why, sizeof(why));
	FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (fd >= 0 && !in)
		snprintf(why, sizeof(why), "fdopen: %s", strerror(errno));
	else if (in && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		 (uintmax_t)st.st_size > TIMELINE_HEADER_BYTES + (uintmax_t)PLOT_MAX_TL_RECORDS * TIMELINE_RECORD_BYTES)
		snprintf(why, sizeof(why), "more than %u records (%u MiB): refused", PLOT_MAX_TL_RECORDS,
			 (unsigned)(((uintmax_t)PLOT_MAX_TL_RECORDS * TIMELINE_RECORD_BYTES) >> 20));
	else if (in && (fread(head, 1, sizeof(head), in) != sizeof(head) ||
			(j->tl_record_bytes = timeline_decode_header(head)) == 0))
		snprintf(why, sizeof(why), "not an interbench timeline (doc/timeline.md)");
	else if (in)
		return in;
	text_message(j->err, "%s: --timeline %s: %s", j->who, j->timeline, why);
	if (in)
		fclose(in);
	else if (fd >= 0)
		close(fd);
	return NULL;
}

/* Adds record r to its pair's figure, or counts it unknown. */
static void tl_add(struct plot_job *j, struct tl_set *set, const struct timeline_rec *r)
{
	struct tl_pair *p = tl_find(set, r->pair);
	if (!p) {
		set->unknown++;
		return;
	}
	if (!p->f.head && !p->broken)
		tl_begin(j, p);
	if (p->broken)
		return;
	fprintf(p->f.head, "%.6f %.6f %u", r->start_ns / 1e9, r->late_ns / 1e6, (r->flags & TIMELINE_XRUN) ? 1u : 0u);
	if (r->shown_ns > p->last_shown_ns && p->last_shown_ns) {
		fprintf(p->f.head, " %.6f %.6f", r->shown_ns / 1e9, (double)(r->shown_ns - p->last_shown_ns) / 1e6);
		p->shown++;
	}
	fputc('\n', p->f.head);
	if (r->shown_ns > p->last_shown_ns)
		p->last_shown_ns = r->shown_ns;
	p->records++;
}

/* Reads in's records, at most PLOT_MAX_TL_RECORDS, into set.  Returns 0, or 2 having said why;
 * a record cut short at the end and records of unknown pairs are reported. */
static int tl_read(struct plot_job *j, FILE *in, unsigned record_bytes, struct tl_set *set)
{
	unsigned char rec[TIMELINE_RECORD_BYTES];
	struct timeline_rec r;
	unsigned long n = 0;
	size_t got;
	while ((got = fread(rec, 1, record_bytes, in)) == record_bytes && n++ < PLOT_MAX_TL_RECORDS) {
		timeline_decode(rec, record_bytes, &r);
		tl_add(j, set, &r);
	}
	bool bad = ferror(in) || n > PLOT_MAX_TL_RECORDS;
	if (ferror(in))
		text_message(j->err, "%s: --timeline %s: read: %s", j->who, j->timeline, strerror(errno));
	else if (bad)
		text_message(j->err, "%s: --timeline %s: more than %u records: refused", j->who, j->timeline, PLOT_MAX_TL_RECORDS);
	else if (got)
		text_message(j->err, "%s: --timeline %s: warning: its last record is cut short (%zu of %u bytes); ignored",
			j->who, j->timeline, got, record_bytes);
	if (set->unknown)
		text_message(j->err, "%s: --timeline %s: %lu records of pairs that %s has no result for (timeline_pair) "
			"skipped", j->who, j->timeline, set->unknown, j->result);
	return bad ? 2 : 0;
}

/* timeline-PAIR figures: lateness over time per pair of the result that has records, the
 * deadline and buffer lines, xruns marked.  Returns 0, or 2 on a timeline refused. */
static int plot_timeline(struct plot_job *j, const json_t *doc, FILE *in)
{
	struct tl_set *set = calloc(1, sizeof(*set));
	if (!set) {
		text_message(j->err, "%s: --timeline: out of memory", j->who);
		return 2;
	}
	tl_index(j, json_object_get(doc, JK_RESULTS), set);
	int rc = tl_read(j, in, j->tl_record_bytes, set);
	for (size_t i = 0; i < set->n; i++) {
		struct tl_pair *p = &set->p[i];
		if (!p->f.head)
			continue;
		block_end(&p->f);
		if (p->shown)
			fprintf(p->f.plot, "set y2label 'frame time (ms)'\nset y2range [0:*]\nset y2tics\nset ytics nomirror\n");
		fprintf(p->f.plot, "plot $d0 using 1:2 with impulses title 'lateness', "
			"$d0 using 1:($3 > 0 ? $2 : 1/0) with points pt 7 lc 'red' title 'xrun'%s\n",
			p->shown ? ", $d0 using 4:5 axes x1y2 with steps lc 'dark-green' title 'frame time'" : "");
		fig_end(j, &p->f, rc == 0);
	}
	free(set);
	return rc;
}

/* latency-SIM and percentiles-SIM of each simulation, once, in the order of the results (at
 * most PLOT_MAX_SIMS). */
static void plot_sims(struct plot_job *j, const json_t *results)
{
	const char *done[PLOT_MAX_SIMS];
	unsigned ndone = 0;
	bool more = false;
	size_t i;
	json_t *r;
	json_array_foreach(results, i, r) {
		const char *sim = plot_jstr(r, JK_SIMULATION);
		bool seen = false;
		for (unsigned k = 0; k < ndone && !seen; k++)
			seen = strcmp(done[k], sim) == 0;
		more |= !seen && ndone == PLOT_MAX_SIMS;
		if (seen || ndone == PLOT_MAX_SIMS)
			continue;
		done[ndone++] = sim;
		plot_tails(j, results, sim);
		plot_stacked(j, results, sim, &causes_figure);
		plot_stacked(j, results, sim, &chain_figure);
	}
	if (more)
		text_message(j->err, "%s: %s: more than %u simulations, the first %u drawn", j->who, j->result, PLOT_MAX_SIMS,
			PLOT_MAX_SIMS);
}

/* sweep-SIM-LOAD of each sweep (at most PLOT_MAX_SWEEPS). */
static void plot_sweeps(struct plot_job *j, const json_t *sweeps)
{
	for (size_t i = 0; i < json_array_size(sweeps) && i < PLOT_MAX_SWEEPS; i++)
		plot_sweep(j, json_array_get(sweeps, i));
	plot_too_many(j, j->result, JK_SWEEPS, json_array_size(sweeps), PLOT_MAX_SWEEPS);
}

/* plot's command line. */
struct plot_args {
	const char *timeline, *out_dir;
	unsigned format;          /* --format: the index of its value in plot_formats */
};

enum { PLOT_HELP = 1 };  /* -h's action */

static const char *const plot_formats[] = { "png", "svg", NULL };

#define PA(field) offsetof(struct plot_args, field)

/* plot's options, in --help order (-h and --help are accepted but not listed). */
static const struct optspec plot_options[] = {
	{ .long_name = "timeline", .type = OPTSPEC_TEXT, .metavar = "FILE",
	  .help = "the --timeline file of the same run", .offset = PA(timeline) },
	{ .long_name = "out", .type = OPTSPEC_TEXT, .metavar = "DIR", .def_str = ".",
	  .help = "where the pictures go (created; yours or root's, writable by no other\n"
		  "user unless sticky; default: .)", .offset = PA(out_dir) },
	{ .long_name = "format", .type = OPTSPEC_CHOICE, .metavar = "F", .choices = plot_formats,
	  .help = "png (default) or svg", .offset = PA(format) },
	{ .long_name = "help", .short_name = 'h', .type = OPTSPEC_ACTION, .hidden = true, .action = PLOT_HELP },
};
#define PLOT_OPTIONS (sizeof(plot_options) / sizeof(plot_options[0]))

const struct optspec *plot_option_table(unsigned *n)
{
	*n = PLOT_OPTIONS;
	return plot_options;
}

static const struct optspec_style plot_style = { .column = 20, .long_indent = "  " };

static void plot_usage(FILE *f)
{
	fprintf(f, "Usage: interbench plot RESULT.json [--timeline FILE] [--out DIR]\n"
		"                  [--format png|svg]\n"
		"       interbench plot OLD.json NEW.json [--out DIR] [--format png|svg]\n"
		"Draws a result with gnuplot: latency tails (log-log) and percentiles per task,\n"
		"causes, sweeps, and with --timeline each pair's periods; of two results,\n"
		"compare's answer about each judged figure and the tails of the pairs that\n"
		"changed.  Each picture beside the gnuplot script, data included, that drew it.\n");
	optspec_help_table(f, plot_options, PLOT_OPTIONS, &plot_style);
}

/* Parses the options into j.  Returns -1 to go on, else the exit status. */
static int plot_args(int argc, char **argv, struct plot_job *j)
{
	struct optparse_fault f;
	struct plot_args a;
	optspec_defaults(plot_options, PLOT_OPTIONS, &a);
	int rc = optparse_table(plot_options, PLOT_OPTIONS, &a, false, argc, argv, &f);
	if (rc == PLOT_HELP) {
		plot_usage(j->out);
		return 0;
	}
	if (rc == OPTSPEC_BAD) {
		text_message(j->err, "interbench plot: %s: %s (accepted: --timeline FILE, --out DIR, --format png|svg; "
			"see --help)", f.word, f.kind == OPTPARSE_BAD_VALUE ? "invalid format" :
			"unknown option or missing value");
		return 2;
	}
	if (argc - optind != 1 && argc - optind != 2) {
		text_message(j->err, "interbench plot: expected one result file, or two to compare (see --help)");
		return 2;
	}
	if (argc - optind == 2 && a.timeline) {
		text_message(j->err, "interbench plot: --timeline: one run's file, not for two results (accepted: "
			"--timeline with one result)");
		return 2;
	}
	j->result_new = argc - optind == 2 ? argv[optind + 1] : NULL;
	j->timeline = a.timeline;
	j->out_dir = a.out_dir;
	j->format = plot_formats[a.format];
	j->result = argv[optind];
	return -1;
}

/* Draws every figure of doc, with the timeline in tl (or NULL).  Returns 0, 1 when a figure
 * failed, 2 when the timeline was refused. */
static int plot_all(struct plot_job *j, const json_t *doc, FILE *tl)
{
	plot_sims(j, json_object_get(doc, JK_RESULTS));
	plot_sweeps(j, json_object_get(doc, JK_SWEEPS));
	int rc = tl ? plot_timeline(j, doc, tl) : 0;
	fprintf(j->out, "%u figure%s drawn in %s%s\n", j->made, j->made == 1 ? "" : "s", j->out_dir,
		j->failed ? " (some failed: see above)" : "");
	return rc ? rc : j->failed ? 1 : 0;
}

/* A stream that drops what is written to it (fopencookie(3)): compare's text, when plot draws
 * its answers. */
static ssize_t drop_write(void *cookie, const char *buf, size_t len)
{
	(void)cookie, (void)buf;
	return (ssize_t)len;
}

/* Compares j->result (OLD) and j->result_new (NEW) as `interbench compare` does with its
 * defaults into *ans and *flagged.  Returns 0, or 2 having said why (compare's reason). */
static int plot_compared(struct plot_job *j, struct cmp_answers *ans, struct cmp_flagged *flagged)
{
	const char *names[2] = { j->result, j->result_new };
	struct result_set sets[2];
	struct cmp_thresholds t;
	char msg[512];
	int loaded = 0, rc = CMP_BAD_INPUT;
	for (; loaded < 2; loaded++)
		if (result_set_load(names[loaded], &sets[loaded], msg, sizeof(msg)) != 0) {
			text_message(j->err, "%s: %s: %s", j->who, names[loaded], msg);
			break;
		}
	FILE *sink = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = drop_write });
	cmp_default_thresholds(&t);
	t.answers = ans, t.flagged = flagged;
	if (loaded == 2 && sink)
		rc = compare_sets(names[0], &sets[0], names[1], &sets[1], &t, sink, j->err);
	if (sink)
		fclose(sink);
	while (loaded-- > 0)
		result_set_free(&sets[loaded]);
	if (rc == CMP_BAD_INPUT)
		text_message(j->err, "%s: %s and %s not compared (accepted: two results interbench compare takes; it "
			"also takes --threshold, --match, --allow-different-machine and --allow-different-task with "
			"--plot DIR)", j->who, names[0], names[1]);
	return rc == CMP_BAD_INPUT ? 2 : 0;
}

/* plot OLD NEW: the pictures of their comparison (plot_compare_job). */
static int plot_two(struct plot_job *j)
{
	struct cmp_answers ans = { NULL, 0 };
	struct cmp_flagged flagged = { .n = 0 };
	const char *paths[2] = { j->result, j->result_new };
	int rc = plot_compared(j, &ans, &flagged);
	if (rc == 0)
		rc = plot_compare_job(j, paths, &flagged, &ans);
	if (rc != 2)
		fprintf(j->out, "%u figure%s drawn in %s%s\n", j->made, j->made == 1 ? "" : "s", j->out_dir,
			j->failed ? " (some failed: see above)" : "");
	free(ans.a);
	return rc;
}

int plot_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct plot_job j = { .out_dir = ".", .format = "png", .who = "interbench plot", .out_opt = "--out", .out = out,
			      .err = err };
	int rc = plot_args(argc, argv, &j);
	if (rc >= 0)
		return rc;
	if (j.result_new)
		return plot_two(&j);
	char why[512];
	json_t *doc = result_json_load(j.result, why, sizeof(why));
	if (!doc) {
		text_message(err, "interbench plot: %s: %s", j.result, why);
		return 2;
	}
	FILE *tl = j.timeline ? tl_open(&j) : NULL;
	rc = (j.timeline && !tl) || !plot_have_gnuplot(&j) || plot_out_dir_ready(&j) != 0 ? 2 : plot_all(&j, doc, tl);
	if (tl)
		fclose(tl);
	json_decref(doc);
	return rc;
}
