/* The pictures of a comparison (tools/plot.h plot_compare): each judged figure's answers as
 * compare gave them, and the latency tails of the pairs that changed. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"
#include "report/decisions.h"
#include "report/jsonkeys.h"
#include "tools/compare.h"
#include "tools/plot.h"
#include "tools/plot_fig.h"

/* The most rows (pairs) of a decisions figure, and the most bytes of a row's label: the
 * margins (decisions_plot) hold that much, whatever the names in the results. */
#define PLOT_MAX_ROWS 256
#define PLOT_MAX_LABEL 48

/* Cuts text to at most max bytes, "..." ending what was cut, at a UTF-8 character's start. */
static void cut_label(char *text, size_t max)
{
	size_t n = strlen(text);
	if (n <= max)
		return;
	n = max - 3;
	while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
		n--;
	memcpy(text + n, "...", 4);
}

/* The colour of NEW's mark for answer d (plot_line_colour's indexes): worse vermillion, better
 * bluish green, same sky blue, unknown orange. */
static unsigned answer_colour(const struct decision *d)
{
	if (d->answer == DECISION_DIFFERENT)
		return d->worse ? 1 : 2;
	return d->answer == DECISION_SAME ? 5 : 4;
}

/* The band of "no change that matters" about OLD's estimate a of figure d into *lo, *hi: within
 * the threshold (a ratio's a factor 1 + T / 100 either way, as decide/decision.h's margin).
 * False without a threshold or an estimate. */
static bool same_band(const struct decision *d, double *lo, double *hi)
{
	double t = d->rule.threshold;
	if (!(t > 0) || !isfinite(d->a))
		return false;
	*lo = d->rule.ratio ? d->a / (1 + t / 100) : d->a - t;
	*hi = d->rule.ratio ? d->a * (1 + t / 100) : d->a + t;
	return true;
}

/* v in the unit drawn (ms for a time), or NaN. */
static double drawn(enum judged_metric m, double v)
{
	return isfinite(v) ? (judged_metric_is_time(m) ? v / 1e6 : v) : NAN;
}

/* An estimate v with its interval [lo, hi] in the unit drawn, as "v lo hi" (a share's within
 * 0..100 %): without an interval (fewer than 2 sub-runs) lo = hi = v, a point without a bar. */
static void side_cells(FILE *g, enum judged_metric m, double v, double lo, double hi)
{
	bool bar = isfinite(lo) && isfinite(hi);
	if (bar && judged_metric_is_share(m))  /* a share lies within 0..100 % */
		lo = fmax(lo, 0), hi = fmin(hi, 100);
	fprintf(g, " %g %g %g", drawn(m, v), drawn(m, bar ? lo : v), drawn(m, bar ? hi : v));
}

/* One row of decisions-FIGURE's data (row y): the pair; OLD's estimate, low, high; NEW's;
 * the band's low and high; the colour of NEW's mark (0xRRGGBB); the answer as written. */
static void decision_row(struct figure *f, const struct cmp_answer *c, unsigned y)
{
	struct decision_row r;
	char pair[160], answer[160];
	double lo = NAN, hi = NAN;
	const struct decision *d = &c->d;
	decision_row_of(c->m, d, &r);
	snprintf(pair, sizeof(pair), "%s / %s", c->sim, c->load);
	snprintf(answer, sizeof(answer), "%s: %s [%s]", r.answer, r.change, r.interval);
	plot_dat_text(pair);
	plot_dat_text(answer);
	cut_label(pair, PLOT_MAX_LABEL);
	cut_label(answer, PLOT_MAX_LABEL + 16);
	same_band(d, &lo, &hi);
	fprintf(f->head, "%u \"%s\"", y, pair);
	side_cells(f->head, c->m, d->a, d->a_lo, d->a_hi);
	side_cells(f->head, c->m, d->b, d->b_lo, d->b_hi);
	fprintf(f->head, " %g %g %ld \"%s\"\n", drawn(c->m, lo), drawn(c->m, hi),
		strtol(plot_line_colour(answer_colour(d)) + 1, NULL, 16), answer);
}

/* Whether answer c is of metric m and judged (a threshold: not merely reported). */
static bool judged_as(const struct cmp_answer *c, enum judged_metric m)
{
	return c->m == m && c->d.answer != DECISION_REPORTED;
}

/* Tics at 1, 2 and 5 times each power of ten from lo to hi (> 0) when they span under 2.5
 * decades: so narrow a log axis has too few of gnuplot's own (one a decade). */
static void log_tics(FILE *g, double lo, double hi)
{
	const char *sep = "set xtics (";
	for (double p = pow(10, floor(log10(lo))); p <= hi && hi / lo < 300; p *= 10)
		for (int k = 0; k < 3; k++) {
			double v = p * (k == 0 ? 1 : k == 1 ? 2 : 5);
			if (v >= lo && v <= hi) {
				fprintf(g, "%s%g", sep, v);
				sep = ", ";
			}
		}
	if (*sep == ',')
		fputs(")\n", g);
}

/* The x range of decisions-FIGURE's rows ans (metric m): the estimates and the bands, padded
 * (a factor 3 on a log axis); the intervals beyond are cut at the border.  xmid, a point within
 * it, places the rows' labels (a row without a value has them too). */
static void decisions_xrange(FILE *g, const struct cmp_answers *ans, enum judged_metric m)
{
	double lo = INFINITY, hi = -INFINITY, v[4];
	bool log_x = !judged_metric_in_points(m);
	for (size_t i = 0; i < ans->n; i++) {
		const struct decision *d = &ans->a[i].d;
		if (!judged_as(&ans->a[i], m))
			continue;
		v[0] = d->a, v[1] = d->b, v[2] = v[3] = NAN;
		same_band(d, &v[2], &v[3]);
		for (int k = 0; k < 4; k++)
			if (isfinite(v[k]) && (!log_x || v[k] > 0)) {
				lo = fmin(lo, drawn(m, v[k]));
				hi = fmax(hi, drawn(m, v[k]));
			}
	}
	if (!isfinite(lo))  /* no value at all (every sub-run left out): an axis for the answers */
		lo = hi = log_x ? 1 : 50;
	if (log_x) {
		fprintf(g, "set logscale x\nset xrange [%g:%g]\nxmid = %g\n", lo / 3, hi * 3, sqrt(lo * hi));
		log_tics(g, lo / 3, hi * 3);
	} else {
		fprintf(g, "set xrange [%g:%g]\nxmid = %g\n", lo - 0.2 * (hi - lo) - 1, hi + 0.2 * (hi - lo) + 1,
			(lo + hi) / 2);
	}
}

/* The plot command of decisions-FIGURE: the band, OLD's and NEW's estimates with their
 * intervals (a point alone: fewer than 2 sub-runs), the pairs on the left, the answers on the
 * right. */
static void decisions_plot(struct figure *f, enum judged_metric m, unsigned rows)
{
	fprintf(f->plot, "set xlabel '%s (%s)'\nset format x '%%g'\nset yrange [-0.7:%g]\nset ytics nomirror\n"
		"set y2tics\nset y2range [-0.7:%g]\nset grid x\nset key outside bottom center horizontal Left reverse maxcols 4\n"
		"set lmargin at screen 0.24\nset rmargin at screen 0.58\n",
		judged_metric_name(m), judged_metric_is_time(m) ? "ms" : judged_metric_unit(m), rows - 0.3, rows - 0.3);
	fprintf(f->plot, "plot $d0 using (($9 + $10) / 2):1:9:10:($1 - 0.4):($1 + 0.4) with boxxyerror fs solid 0.25 "
		"noborder lc rgb '#A0A0A0' title 'within the threshold of OLD', \\\n"
		"     $d0 using (xmid):1:ytic(2) with points ps 0 notitle, $d0 using (xmid):1:y2tic(12) axes x1y2 with "
		"points ps 0 notitle, \\\n"
		"     $d0 using 3:($1 + 0.15):4:5 with xerrorbars pt 7 ps 1.4 lw 2 lc rgb '%s' title 'OLD', \\\n"
		"     $d0 using 6:($1 - 0.15):7:8:11 with xerrorbars pt 5 ps 1.4 lw 2 lc rgb variable "
		"title 'NEW (colour: the answer)', \\\n"
		"     keyentry with points pt 5 lc rgb '%s' title 'worse', keyentry with points pt 5 lc rgb '%s' "
		"title 'better', keyentry with points pt 5 lc rgb '%s' title 'same', keyentry with points pt 5 "
		"lc rgb '%s' title 'unknown'\n", plot_line_colour(0), plot_line_colour(1), plot_line_colour(2),
		plot_line_colour(5), plot_line_colour(4));
}

/* decisions-FIGURE: every pair's answer about metric m, a row each (at most PLOT_MAX_ROWS). */
static void plot_decisions(struct plot_job *j, const struct cmp_answers *ans, enum judged_metric m)
{
	struct figure f = { .blocks = 0 };
	char slug[64], title[256];
	unsigned long rows = 0;
	for (size_t i = 0; i < ans->n; i++)
		rows += judged_as(&ans->a[i], m);
	if (!rows)
		return;
	text_slug(judged_metric_name(m), slug, sizeof(slug));
	snprintf(f.stem, sizeof(f.stem), "decisions-%s", slug);
	if (!fig_begin(j, &f, NULL))
		return;
	block_begin(&f);
	fprintf(f.head, "# row pair old old_low old_high new new_low new_high same_low same_high colour answer "
		"(intervals: 95 %% between sub-runs, as compare computed them; NaN: none)\n");
	unsigned y = (unsigned)(rows < PLOT_MAX_ROWS ? rows : PLOT_MAX_ROWS);
	for (size_t i = 0; i < ans->n && y > 0; i++)
		if (judged_as(&ans->a[i], m))
			decision_row(&f, &ans->a[i], --y);
	block_end(&f);
	snprintf(title, sizeof(title), "%s: OLD and NEW, 95%% intervals between sub-runs; compare's answers",
		 judged_metric_name(m));
	gp_head_size(f.plot, j, f.stem, title, 1400, 300 + 44 * (rows < PLOT_MAX_ROWS ? (unsigned)rows : PLOT_MAX_ROWS));
	decisions_xrange(f.plot, ans, m);
	decisions_plot(&f, m, rows < PLOT_MAX_ROWS ? (unsigned)rows : PLOT_MAX_ROWS);
	plot_too_many(j, f.stem, "pairs", rows, PLOT_MAX_ROWS);
	fig_end(j, &f, true);
}

/* Whether pair (sim, load) has a figure answered DIFFERENT in ans, or is flagged. */
static bool changed(const struct cmp_answers *ans, const struct cmp_flagged *flagged, const char *sim,
		    const char *load)
{
	for (size_t i = 0; i < ans->n; i++)
		if (ans->a[i].d.answer == DECISION_DIFFERENT && strcmp(ans->a[i].sim, sim) == 0 &&
		    strcmp(ans->a[i].load, load) == 0)
			return true;
	for (unsigned i = 0; flagged && i < flagged->n; i++)
		if (strcmp(flagged->sim[i], sim) == 0 && strcmp(flagged->load[i], load) == 0)
			return true;
	return false;
}

/* compare-SIM-LOAD of each pair that changed, each once. */
static void plot_overlays(struct plot_job *j, const json_t *docs[2], const struct cmp_answers *ans,
			  const struct cmp_flagged *flagged)
{
	const char *names[2] = { "OLD", "NEW" };
	unsigned drawn = 0;
	for (size_t i = 0; i < ans->n + (flagged ? flagged->n : 0) && drawn < PLOT_MAX_PAIRS; i++) {
		const char *sim = i < ans->n ? ans->a[i].sim : flagged->sim[i - ans->n];
		const char *load = i < ans->n ? ans->a[i].load : flagged->load[i - ans->n];
		bool first = true;  /* the pair's first row: drawn once */
		for (size_t k = 0; k < i && k < ans->n && first; k++)
			first = strcmp(ans->a[k].sim, sim) != 0 || strcmp(ans->a[k].load, load) != 0;
		if (!first || !changed(ans, flagged, sim, load) || (i >= ans->n && changed(ans, NULL, sim, load)))
			continue;
		char s[96], l[48], stem[192];
		text_slug(sim, s, sizeof(s));
		text_slug(load, l, sizeof(l));
		snprintf(stem, sizeof(stem), "compare-%s-%s", s, l);
		plot_tail_overlay(j, docs, names, sim, load, stem);
		drawn++;
	}
}

int plot_compare_job(struct plot_job *j, const char *const paths[2], const struct cmp_flagged *flagged,
		     const struct cmp_answers *ans)
{
	json_t *docs[2] = { NULL, NULL };
	char why[512];
	int rc = 0;
	for (int i = 0; i < 2 && rc == 0; i++)
		if (!(docs[i] = result_json_load(paths[i], why, sizeof(why)))) {
			text_message(j->err, "%s: %s: %s", j->who, paths[i], why);
			rc = 2;
		}
	if (rc == 0 && (!plot_have_gnuplot(j) || plot_out_dir_ready(j) != 0))
		rc = 2;
	for (int m = 0; rc == 0 && m < JM_METRICS; m++)
		plot_decisions(j, ans, (enum judged_metric)m);
	if (rc == 0)
		plot_overlays(j, (const json_t **)docs, ans, flagged);
	json_decref(docs[0]);
	json_decref(docs[1]);
	return rc ? rc : j->failed ? 1 : 0;
}

int plot_compare(const char *dir, const char *const paths[2], const struct cmp_flagged *flagged,
		 const struct cmp_answers *answers, FILE *out, FILE *err)
{
	struct plot_job j = { .out_dir = dir, .format = "png", .who = "interbench compare", .out_opt = "--plot",
			      .out = out, .err = err };
	return plot_compare_job(&j, paths, flagged, answers);
}
