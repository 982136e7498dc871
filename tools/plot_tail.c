/* The tail figures of a result (tools/plot.h): each load's latency as a complementary CDF on
 * log axes, the fraction of its periods later than x against x, from the histograms the JSON
 * carries (lib/histogram.h buckets: exact at each bucket's edge, so a step curve), its p99
 * marked with the interval between its sub-runs and its max; and the percentiles by load. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/histogram.h"
#include "lib/stats.h"
#include "lib/text.h"
#include "decide/decision.h"
#include "report/jsonkeys.h"
#include "engine/summary.h"   /* FIGURE_KEY's fields */
#include "tools/plot_fig.h"
#include "tools/resultset.h"

/* Which latency a tail figure draws: the JSON keys of its histogram and figures. */
struct tail_kind {
	const char *prefix;           /* the stem: PREFIX-SIM */
	const char *what;             /* "scheduling latency" */
	const char *hist, *p99, *max, *samples, *p99_ci;   /* p99_ci NULL: none */
};

static struct tail_kind sched_kind(void)
{
	return (struct tail_kind){ "latency", "scheduling latency", JK_LATENCY_HISTOGRAM, FIGURE_KEY(sched_p99_ns),
				   FIGURE_KEY(latency_max_ns), FIGURE_KEY(samples),
				   figure_of_metric(task_figures, task_figures_n, JM_P99)->ci->json_key };
}

static struct tail_kind timer_kind(void)
{
	return (struct tail_kind){ "timer", "timer latency", JK_TIMER_LATENCY_HISTOGRAM, FIGURE_KEY(timer_p99_ns),
				   FIGURE_KEY(timer_max_ns), FIGURE_KEY(timer_samples), NULL };
}

/* One curve of a tail figure: the measured sub-runs of a pair (a load, or a setting) pooled. */
struct tail_series {
	char label[160];
	struct lat_hist *h;           /* the sub-runs' buckets summed (saturating) */
	double max_ns;                /* the largest sub-run's max; -1: none */
	double *p99_ns, *p50_ns, *classic_max_ns; /* each sub-run's (NaN: none, a starved one) */
	size_t subruns;               /* sub-runs in the arrays */
	unsigned open;                /* of them, those whose p99 no sample bounds: starved, fewer
	                                 than DECISION_P99_MIN_SAMPLES samples, or its own
	                                 interval open above */
	double period_ms;             /* the task's period; -1: none */
	size_t cap;                   /* room in the arrays */
	bool broken;                  /* memory ran out: a sub-run left out */
};

/* Adds histogram h (validated: [low_ns, count] pairs of non-negative integers) into s->h. */
static void tail_add_hist(struct tail_series *s, const json_t *h)
{
	size_t k;
	json_t *b;
	json_array_foreach(h, k, b) {
		uint64_t *c = &s->h->counts[hist_bucket((uint64_t)json_integer_value(json_array_get(b, 0)))];
		uint64_t n = (uint64_t)json_integer_value(json_array_get(b, 1));
		*c = __builtin_add_overflow(*c, n, c) ? UINT64_MAX : *c;
		s->h->total = __builtin_add_overflow(s->h->total, n, &s->h->total) ? UINT64_MAX : s->h->total;
	}
}

/* Makes room in s for one more sub-run (the arrays doubled).  Returns false out of memory. */
static bool tail_room(struct tail_series *s)
{
	if (s->subruns < s->cap)
		return true;
	size_t cap = s->cap ? 2 * s->cap : 8;
	double **a[] = { &s->p99_ns, &s->p50_ns, &s->classic_max_ns };
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		double *v = realloc(*a[i], cap * sizeof(double));
		if (!v)
			return false;
		*a[i] = v;
	}
	s->cap = cap;
	return true;
}

/* Adds result r, one sub-run, to s (nothing when memory runs out: s->broken). */
static void tail_add(struct tail_series *s, const json_t *r, const struct tail_kind *k)
{
	const json_t *ci = k->p99_ci ? json_object_get(r, k->p99_ci) : NULL;
	double p99 = plot_jnum(r, k->p99), samples = plot_jnum(r, k->samples);
	double p50 = plot_jnum(r, FIGURE_KEY(sched_p50_ns)), cmax = plot_jnum(r, FIGURE_KEY(classic_max_ns));
	if (!s->h || !tail_room(s)) {
		s->broken = true;
		return;
	}
	size_t i = s->subruns++;
	s->p99_ns[i] = p99 > 0 ? p99 : NAN;
	s->p50_ns[i] = p50 >= 0 ? p50 : NAN;
	cmax = cmax >= 0 ? cmax : plot_jnum(r, FIGURE_KEY(latency_max_ns));
	s->classic_max_ns[i] = cmax >= 0 ? cmax : NAN;
	s->open += !(p99 > 0) || (samples >= 0 && samples < DECISION_P99_MIN_SAMPLES) ||
		   (json_is_array(ci) && json_is_null(json_array_get(ci, 1)));
	s->max_ns = fmax(s->max_ns, plot_jnum(r, k->max));
	if (plot_jnum(r, FIGURE_KEY(interval_us)) > 0)
		s->period_ms = plot_jnum(r, FIGURE_KEY(interval_us)) / 1e3;
	tail_add_hist(s, json_object_get(r, k->hist));
}

/* Starts series s labelled label (made safe in a datablock), empty. */
static void tail_init(struct tail_series *s, const char *label)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->label, sizeof(s->label), "%s", label);
	plot_dat_text(s->label);
	s->max_ns = s->period_ms = -1;
	s->h = calloc(1, sizeof(*s->h));
}

static void tail_free(struct tail_series *s)
{
	free(s->h);
	free(s->p99_ns);
	free(s->p50_ns);
	free(s->classic_max_ns);
	memset(s, 0, sizeof(*s));
}

/* How the p99 of a series is marked (the key's words: tail_key). */
enum p99_mark { P99_INTERVAL, P99_SINGLE, P99_OPEN, P99_NONE };

/* s's p99 mark: its estimate over the sub-runs (the geometric mean, as compare estimates a
 * side: decision_side_interval) in *x_ns with the 95 % interval between them in *lo_ns, *hi_ns;
 * a single point with one sub-run; open above when a sub-run's p99 is not bounded (a sub-run
 * too short, starved, or its interval open): no interval then, the estimate where the arrow
 * starts (*lo_ns = *hi_ns = *x_ns).  One run's own interval is within-run: never drawn. */
static enum p99_mark p99_mark_of(const struct tail_series *s, double *x_ns, double *lo_ns, double *hi_ns)
{
	bool two = decision_side_interval(s->p99_ns, s->subruns, true, 0, x_ns, lo_ns, hi_ns);
	if (isnan(*x_ns) || *x_ns <= 0)
		return P99_NONE;
	if (s->open || !two)
		*lo_ns = *hi_ns = *x_ns;
	return s->open ? P99_OPEN : two ? P99_INTERVAL : P99_SINGLE;
}

/* s's curve as datablock $dN of f: the fraction of its periods later than x (us), a step at
 * each non-empty bucket's upper edge, where it is exact; within a bucket the fraction at its
 * lower edge (an upper bound).  The last step falls to floor (below the axis: no periods
 * later).  Returns N. */
static unsigned ccdf_block(struct figure *f, const struct tail_series *s, double floor)
{
	unsigned b = block_begin(f);
	uint64_t seen = 0;
	bool first = true;
	double n = (double)s->h->total;
	fprintf(f->head, "# %s: latency_us fraction_later (steps at bucket edges, lib/histogram.h)\n", s->label);
	for (unsigned k = 0; k < HIST_BUCKETS; k++) {
		if (!s->h->counts[k])
			continue;
		if (first)
			fprintf(f->head, "%.6g 1\n", fmax((double)hist_bucket_low_ns(k), 1) / 1e3);
		first = false;
		seen = seen + s->h->counts[k] < seen ? UINT64_MAX : seen + s->h->counts[k];
		double later = seen >= s->h->total ? floor : (n - (double)seen) / n;
		fprintf(f->head, "%.6g %.6g\n", ((double)hist_bucket_high_ns(k) + 1) / 1e3, later);
	}
	block_end(f);
	return b;
}

/* s's marks as datablock $dN of f, one row each: kind (enum p99_mark, 3: the max), x, low and
 * high (us), y.  Sets bit kind of *kinds for each mark written.  Returns N. */
static unsigned marks_block(struct figure *f, const struct tail_series *s, unsigned *kinds)
{
	double x, lo, hi, n = (double)s->h->total;
	enum p99_mark m = p99_mark_of(s, &x, &lo, &hi);
	unsigned b = block_begin(f);
	fprintf(f->head, "# %s: kind (0 p99 with its between-run interval, 1 p99 of one sub-run, 2 p99 open above "
		"from its estimate, 3 max) x_us low_us high_us y\n", s->label);
	if (m != P99_NONE)
		fprintf(f->head, "%d %.6g %.6g %.6g 0.01\n", (int)m, x / 1e3, lo / 1e3, hi / 1e3);
	if (s->max_ns > 0 && n > 0)
		fprintf(f->head, "3 %.6g %.6g %.6g %.6g\n", s->max_ns / 1e3, s->max_ns / 1e3, s->max_ns / 1e3, 1 / n);
	block_end(f);
	*kinds |= (m != P99_NONE ? 1u << m : 0) | (s->max_ns > 0 && n > 0 ? 1u << 3 : 0);
	return b;
}

/* The plot clauses of series i (its curve $dC and marks $dM), in its colour and dash. */
static void series_clauses(struct figure *f, const struct tail_series *s, unsigned i, unsigned c, unsigned m)
{
	char title[256], q[512];
	const char *col = plot_line_colour(i);
	snprintf(title, sizeof(title), "%s (%zu sub-run%s, %llu periods)", s->label, s->subruns, s->subruns == 1 ? "" : "s",
		 (unsigned long long)s->h->total);
	fprintf(f->plot, "%s$d%u using 1:2 with steps lw 2 ", i ? ", \\\n     " : "plot ", c);
	plot_line_style(f->plot, i);
	fprintf(f->plot, " title %s, \\\n     $d%u using ($1 == 0 ? $2 : 1/0):5:3:4 with xerrorbars pt 7 ps 1.4 lw 2 "
		"lc rgb '%s' notitle", gp_str(title, q, sizeof(q)), m, col);
	fprintf(f->plot, ", \\\n     $d%u using ($1 == 1 ? $2 : 1/0):5 with points pt 6 ps 1.6 lw 2 lc rgb '%s' notitle", m,
		col);
	fprintf(f->plot, ", \\\n     $d%u using ($1 == 2 ? $2 : 1/0):5:($2 * 2):(0) with vectors head filled lw 2 "
		"lc rgb '%s' notitle", m, col);
	fprintf(f->plot, ", \\\n     $d%u using ($1 == 3 ? $2 : 1/0):5 with points pt 9 ps 1.6 lc rgb '%s' notitle", m, col);
}

/* The key's entries for the kinds of marks drawn (bits of enum p99_mark, 3 the max). */
static void tail_key(struct figure *f, unsigned kinds)
{
	static const char *const words[] = {
		"with xerrorbars pt 7 lc rgb 'black' title 'p99: geometric mean of sub-runs, 95 % interval between them'",
		"with points pt 6 lc rgb 'black' title 'p99 of one sub-run: no between-run interval'",
		("with vectors head filled lc rgb 'black' "
		 "title 'p99 open above (a sub-run could not bound it): from their estimate'"),
		"with points pt 9 lc rgb 'black' title 'max of its sub-runs'",
	};
	for (unsigned k = 0; k < 4; k++)
		if (kinds & (1u << k))
			fprintf(f->plot, ", \\\n     keyentry %s", words[k]);
}

/* The preamble of a tail figure: log axes, y from 1 down to bottom, the 1 % line (the p99,
 * where its mark sits), the task's period. */
static void tail_axes(struct figure *f, double bottom, double period_ms)
{
	fprintf(f->head, "set logscale xy\nset format x '%%g'\nset format y '%%g'\nset xlabel 'latency x (us)'\n"
		"set ylabel 'fraction of periods later than x'\nset yrange [%g:1.5]\nset mytics 10\n"
		"set key outside below maxcols 2\nset arrow from graph 0, first 0.01 to graph 1, first 0.01 nohead dt 3 "
		"lc rgb '#808080'\nset label '1 %% (p99)' at graph 0.01, first 0.012 tc rgb '#606060'\n", bottom);
	if (period_ms > 0)
		fprintf(f->head, "set arrow from first %g, graph 0 to first %g, graph 1 nohead dt 2 lc rgb '#808080'\n"
			"set label 'period' at first %g, graph 0.97 right offset -0.5, 0 tc rgb '#606060'\n",
			period_ms * 1e3, period_ms * 1e3, period_ms * 1e3);
}

/* Draws the tail figure f of series s[0..n) (each with periods), titled title. */
static void tail_draw(struct plot_job *j, struct figure *f, const struct tail_series *s, unsigned n, const char *title)
{
	unsigned kinds = 0, drawn = 0;
	double most = 1, period_ms = -1;
	for (unsigned i = 0; i < n; i++) {
		most = fmax(most, (double)s[i].h->total);
		period_ms = fmax(period_ms, s[i].period_ms);
	}
	if (!fig_begin(j, f, NULL))
		return;
	gp_head_size(f->head, j, f->stem, title, 900, 600 + 18 * n);  /* room for the key below */
	double bottom = fmin(0.5 / most, 0.003);  /* past one period of any series, and the 1 % line */
	tail_axes(f, bottom, period_ms);
	for (unsigned i = 0; i < n; i++)
		if (s[i].h->total) {
			unsigned c = ccdf_block(f, &s[i], bottom / 10);
			series_clauses(f, &s[i], drawn++, c, marks_block(f, &s[i], &kinds));
		}
	tail_key(f, kinds);
	fputc('\n', f->plot);
	fig_end(j, f, drawn > 0);
}

/* The index in s[0..*n) of the series labelled label, begun (as s[i] and s[PLOT_MAX_LOADS + i])
 * when new and there is room; -1 past PLOT_MAX_LOADS. */
static int series_of(struct tail_series *s, unsigned *n, const char *label)
{
	char safe[160];
	snprintf(safe, sizeof(safe), "%s", label);
	plot_dat_text(safe);
	for (unsigned i = 0; i < *n; i++)
		if (strcmp(s[i].label, safe) == 0)
			return (int)i;
	if (*n == PLOT_MAX_LOADS)
		return -1;
	tail_init(&s[*n], label);
	tail_init(&s[PLOT_MAX_LOADS + *n], label);
	return (int)(*n)++;
}

/* The series of sim's loads, one pass over results: scheduling latency's in s[0..n), timer
 * latency's in s[PLOT_MAX_LOADS..PLOT_MAX_LOADS + n).  Returns n; *left the sub-runs of loads
 * past the first PLOT_MAX_LOADS. */
static unsigned sim_series(const json_t *results, const char *sim, const struct tail_kind kinds[2],
			   struct tail_series *s, unsigned long *left)
{
	unsigned n = 0;
	size_t i;
	json_t *r;
	char label[160];
	json_array_foreach(results, i, r) {
		if (json_object_get(r, JK_FAILED) || strcmp(plot_jstr(r, JK_SIMULATION), sim) != 0)
			continue;
		plot_load_label(r, label, sizeof(label));
		int at = series_of(s, &n, label);
		*left += at < 0;
		for (int k = 0; k < 2 && at >= 0; k++)
			tail_add(&s[k * PLOT_MAX_LOADS + at], r, &kinds[k]);
	}
	return n;
}

/* One row of percentiles-SIM's data: the load, p50 (the median of the sub-runs'), p99 (their
 * geometric mean) and max (the largest; interbench's definition where given), then the p99's
 * 95 % interval between the sub-runs (ms; the p99 itself for both without one: no bar). */
static void percentiles_row(struct figure *f, const struct tail_series *s)
{
	double x, lo, hi, maxv = -1, *p50 = malloc((s->subruns + 1) * sizeof(double));
	unsigned n50 = 0;
	enum p99_mark m = p99_mark_of(s, &x, &lo, &hi);
	for (size_t i = 0; i < s->subruns; i++) {
		if (p50 && !isnan(s->p50_ns[i]))
			p50[n50++] = s->p50_ns[i];
		maxv = isnan(s->classic_max_ns[i]) ? maxv : fmax(maxv, s->classic_max_ns[i]);
	}
	if (m != P99_INTERVAL)
		lo = hi = x;
	fprintf(f->head, "\"%s\" %g %g %g %g %g\n", s->label, n50 ? median_of(p50, n50) / 1e6 : NAN, x / 1e6, maxv / 1e6,
		lo / 1e6, hi / 1e6);
	free(p50);
}

/* percentiles-SIM: p50, p99 and max per load as bars, the p99's between-run interval as its
 * error bar, the period as a line. */
static void plot_percentiles(struct plot_job *j, const struct tail_series *s, unsigned n, const char *sim)
{
	struct figure f = { .blocks = 0 };
	char slug[64], title[256];
	double period_ms = -1;
	text_slug(sim, slug, sizeof(slug));
	snprintf(f.stem, sizeof(f.stem), "percentiles-%s", slug);
	if (!fig_begin(j, &f, NULL))
		return;
	block_begin(&f);
	fprintf(f.head, "# load p50_ms p99_ms max_ms p99_low_ms p99_high_ms (low = high: no between-run interval)\n");
	for (unsigned i = 0; i < n; i++) {
		percentiles_row(&f, &s[i]);
		period_ms = fmax(period_ms, s[i].period_ms);
	}
	block_end(&f);
	snprintf(title, sizeof(title), "%s: latency by load (ms); bar on p99: 95%% interval between sub-runs%s", sim,
		 period_ms > 0 ? "; line: period" : "");
	gp_head(f.plot, j, f.stem, title);
	/* errorbars: every series gives y, ylow, yhigh; p50 and max have none (ylow = yhigh = y) */
	fprintf(f.plot, "set style data histograms\nset style histogram errorbars gap 2 lw 1\nset style fill solid 0.6\n"
		"set logscale y\nset ylabel 'ms'\nset xtics rotate by -30\n");
	if (period_ms > 0)
		fprintf(f.plot, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 2\n", period_ms, period_ms);
	fprintf(f.plot, "plot $d0 using 2:2:2:xtic(1) lc rgb '%s' title 'p50 (sched)', $d0 using 3:5:6 lc rgb '%s' "
		"title 'p99 (sched)', $d0 using 4:4:4 lc rgb '%s' title 'max (interbench)'\n", plot_line_colour(5),
		plot_line_colour(0), plot_line_colour(1));
	fig_end(j, &f, n > 0);
}

/* A tail figure of sim: kind k's CCDF of every load. */
static void plot_ccdf(struct plot_job *j, const struct tail_series *s, unsigned n, const char *sim,
		      const struct tail_kind *k)
{
	struct figure f = { .blocks = 0 };
	char slug[64], title[256];
	text_slug(sim, slug, sizeof(slug));
	snprintf(f.stem, sizeof(f.stem), "%s-%s", k->prefix, slug);
	snprintf(title, sizeof(title), "%s: %s tail, the fraction of periods later than x (log-log)", sim, k->what);
	tail_draw(j, &f, s, n, title);
}

void plot_tails(struct plot_job *j, const json_t *results, const char *sim)
{
	struct tail_series *s = calloc(2 * PLOT_MAX_LOADS, sizeof(*s));
	struct tail_kind kinds[2] = { sched_kind(), timer_kind() };
	unsigned long left = 0;
	unsigned n = s ? sim_series(results, sim, kinds, s, &left) : 0;
	bool broken = !s;
	for (unsigned i = 0; i < 2 * PLOT_MAX_LOADS && s; i++)
		broken |= s[i].broken;
	if (broken) {
		text_message(j->err, "%s: %s: out of memory", j->who, sim);
		j->failed++;
	} else {
		plot_ccdf(j, s, n, sim, &kinds[0]);
		plot_percentiles(j, s, n, sim);
		plot_ccdf(j, s + PLOT_MAX_LOADS, n, sim, &kinds[1]);
	}
	if (left)
		text_message(j->err, "%s: %s: loads past the first %u not drawn (%lu sub-runs)", j->who, sim, PLOT_MAX_LOADS,
			left);
	for (unsigned i = 0; i < 2 * PLOT_MAX_LOADS && s; i++)
		tail_free(&s[i]);
	free(s);
}

/* The series of the results of docs keyed key (result_set_json_key) against load, labelled
 * name, into *s.  Returns false (s freed) when none matched or memory ran out. */
static bool pair_series(const json_t *doc, const char *key, const char *load, const char *name,
			const struct tail_kind *k, struct tail_series *s)
{
	size_t i;
	json_t *r;
	char rk[192];
	tail_init(s, name);
	json_array_foreach(json_object_get(doc, JK_RESULTS), i, r)
		if (!json_object_get(r, JK_FAILED) && result_set_json_key(r, rk, sizeof(rk)) == 0 && strcmp(rk, key) == 0 &&
		    strcmp(plot_jstr(r, JK_LOAD), load) == 0)
			tail_add(s, r, k);
	if (s->subruns && !s->broken)
		return true;
	tail_free(s);
	return false;
}

void plot_tail_overlay(struct plot_job *j, const json_t *docs[2], const char *names[2], const char *key,
		       const char *load, const char *stem)
{
	struct tail_series s[2];
	struct tail_kind k = sched_kind();
	struct figure f = { .blocks = 0 };
	char title[256];
	unsigned n = 0;
	for (int i = 0; i < 2; i++)
		n += pair_series(docs[i], key, load, names[i], &k, &s[n]);
	snprintf(f.stem, sizeof(f.stem), "%s", stem);
	snprintf(title, sizeof(title), "%s against %s: scheduling latency tail, OLD and NEW (log-log)", key, load);
	if (n == 2)
		tail_draw(j, &f, s, n, title);
	for (unsigned i = 0; i < n; i++)
		tail_free(&s[i]);
}
