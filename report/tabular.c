/* CSV and Markdown tables of a result (report/tabular.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/stats.h"
#include "lib/text.h"
#include "report/figures.h"
#include "report/jsonkeys.h"
#include "report/tabular.h"

/* ---- pairs ---- */

/* A result and its pair's key, to be sorted. */
struct pair_ref {
	const char *key[4];          /* simulation, mode, load, load_mode */
	size_t idx;
	const json_t *r;
};

static const char *str_or_empty(const json_t *r, const char *key)
{
	const char *s = json_string_value(json_object_get(r, key));
	return s ? s : "";
}

static int ref_cmp(const void *a, const void *b)
{
	const struct pair_ref *x = a, *y = b;
	for (int k = 0; k < 4; k++) {
		int c = strcmp(x->key[k], y->key[k]);
		if (c)
			return c;
	}
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static bool same_key(const struct pair_ref *x, const struct pair_ref *y)
{
	for (int k = 0; k < 4; k++)
		if (strcmp(x->key[k], y->key[k]) != 0)
			return false;
	return true;
}

/* A run of refs with one key: where it starts and ends, and its first result's index. */
struct ref_run {
	size_t lo, hi, first;
};

static int run_first_cmp(const void *a, const void *b)
{
	const struct ref_run *x = a, *y = b;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* Fills pair p from its sorted refs[0..n): its key, results, counts and first failure. */
static void pair_fill(struct tabular_pair *p, const struct pair_ref *refs, size_t n, const json_t **res)
{
	p->sim = refs[0].key[0], p->mode = refs[0].key[1], p->load = refs[0].key[2], p->load_mode = refs[0].key[3];
	p->res = res;
	p->n = n;
	for (size_t k = 0; k < n; k++)
		res[k] = refs[k].r;
	for (size_t k = 0; k < n; k++) {
		const char *why = json_string_value(json_object_get(res[k], JK_FAILED));
		p->failed += why != NULL;
		if (why && !p->why)
			p->why = why;
		p->counted += tabular_counted(p, k);
	}
}

bool tabular_counted(const struct tabular_pair *p, size_t k)
{
	const json_t *r = p->res[k];
	if (json_object_get(r, JK_FAILED) && !json_is_null(json_object_get(r, JK_FAILED)))
		return false;
	return !json_is_true(json_object_get(r, JK_INTERRUPTED)) || p->n == 1;
}

/* The results of results that have a pair key into refs, sorted by key then index; their
 * count. */
static size_t sorted_refs(const json_t *results, struct pair_ref *refs)
{
	size_t m = 0;
	for (size_t i = 0; i < json_array_size(results); i++) {
		const json_t *r = json_array_get(results, i);
		if (!json_is_object(r) || !json_is_string(json_object_get(r, JK_SIMULATION)))
			continue;
		refs[m++] = (struct pair_ref){ { str_or_empty(r, JK_SIMULATION), str_or_empty(r, JK_MODE),
						 str_or_empty(r, JK_LOAD), str_or_empty(r, JK_LOAD_MODE) }, i, r };
	}
	qsort(refs, m, sizeof(*refs), ref_cmp);
	return m;
}

int tabular_pairs(const json_t *results, struct tabular_pairs *ps)
{
	size_t total = json_array_size(results) + 1, m, nr = 0;
	struct pair_ref *refs = calloc(total, sizeof(*refs));
	struct ref_run *runs = calloc(total, sizeof(*runs));
	memset(ps, 0, sizeof(*ps));
	ps->res = calloc(total, sizeof(*ps->res));
	ps->p = calloc(total, sizeof(*ps->p));
	if (!refs || !runs || !ps->res || !ps->p) {
		free(refs), free(runs), tabular_pairs_free(ps);
		return -1;
	}
	m = sorted_refs(results, refs);
	for (size_t lo = 0, hi; lo < m; lo = hi) {
		for (hi = lo + 1; hi < m && same_key(&refs[lo], &refs[hi]); hi++)
			;
		runs[nr++] = (struct ref_run){ lo, hi, refs[lo].idx };
	}
	qsort(runs, nr, sizeof(*runs), run_first_cmp);
	for (size_t i = 0, at = 0; i < nr; at += runs[i].hi - runs[i].lo, i++)
		pair_fill(&ps->p[i], refs + runs[i].lo, runs[i].hi - runs[i].lo, ps->res + at);
	ps->n = nr;
	free(refs);
	free(runs);
	return 0;
}

void tabular_pairs_free(struct tabular_pairs *ps)
{
	free(ps->p);
	free(ps->res);
	memset(ps, 0, sizeof(*ps));
}

/* ---- cells ---- */

void tabular_csv_field(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void tabular_md_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>~&!|", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* One cell: s escaped for the format, or as it is (raw: the Markdown delimiter row's). */
static void cell_put(struct tabular_out *t, const char *s, bool raw)
{
	bool csv = t->fmt == TABULAR_CSV;
	fputs(csv ? (t->col ? "," : "") : (t->col ? " | " : "| "), t->f);
	if (raw)
		fputs(s, t->f);
	else if (csv)
		tabular_csv_field(t->f, s);
	else
		tabular_md_cell(t->f, s);
	t->col++;
}

void tabular_cell(struct tabular_out *t, const char *s)
{
	cell_put(t, s, false);
}

void tabular_end(struct tabular_out *t)
{
	fputs(t->fmt == TABULAR_CSV ? "\r\n" : " |\n", t->f);
	t->col = 0;
}

int tabular_text(struct tabular_out *t, const char *s)
{
	bool formula = s[0] && strchr("=+-@", s[0]);
	char *buf = malloc(strlen(s) + 2);
	if (!buf)
		return -1;
	snprintf(buf, strlen(s) + 2, "%s%s", formula ? "'" : "", s);
	text_printable_line(buf);
	tabular_cell(t, buf);
	free(buf);
	return 0;
}

void tabular_number(struct tabular_out *t, double v)
{
	char buf[512];
	for (int d = 0; d <= 17; d++) {
		snprintf(buf, sizeof(buf), "%.*f", d, v);
		if (strtod(buf, NULL) == v) {
			tabular_cell(t, buf);
			return;
		}
	}
	snprintf(buf, sizeof(buf), "%.17g", v);
	tabular_cell(t, buf);
}

/* ---- columns ---- */

/* How a figure's unit is shown: the JSON key's suffix, the header's, Markdown's unit, and
 * what the JSON's value over json_scale is divided by to be shown. */
static const struct unit_view {
	const char *json_suffix, *suffix, *md;
	double divisor;
} unit_views[] = {
	[FIG_NS] = { "_ns", "_ms", "ms", 1e6 }, [FIG_US] = { "_us", "_ms", "ms", 1e3 },
	[FIG_PCT] = { "_ppm", "_pct", "%", 1 }, [FIG_COUNT] = { "", "", NULL, 1 },
	[FIG_FPS] = { "_mfps", "_fps", "fps", 1 },
};

/* A figure's column: whether it is written, with its interval's two. */
struct column {
	const struct task_figure *f;
	bool shown, interval;
};

static const struct unit_view *view_of(const struct task_figure *f)
{
	return &unit_views[(unsigned)f->unit < sizeof(unit_views) / sizeof(unit_views[0]) ? f->unit : FIG_COUNT];
}

/* Figure f's value in result r, in the JSON's unit (an integer there), into *v; false when r
 * has none. */
static bool figure_of(const json_t *r, const struct task_figure *f, double *v)
{
	const json_t *j = json_object_get(r, f->json_key);
	if (!json_is_number(j))
		return false;
	*v = json_number_value(j);
	return true;
}

/* A value of figure f in the JSON's unit as a cell in its shown unit: one division, so an
 * integer of ns or ppm (or a half of one, a median's) shows as its exact decimal. */
static void figure_cell(struct tabular_out *t, const struct task_figure *f, double v)
{
	tabular_number(t, v / (f->json_scale * view_of(f)->divisor));
}

/* The values of figure f in p's counted results into v (p->n of room); their count. */
static unsigned pair_values(const struct tabular_pair *p, const struct task_figure *f, double *v)
{
	unsigned n = 0;
	for (size_t k = 0; k < p->n; k++)
		if (tabular_counted(p, k) && figure_of(p->res[k], f, &v[n]))
			n++;
	return n;
}

/* The header of figure f's column (suffix after its unit: "_mean_ci95_low") into buf:
 * "latency_p99_ms..." in CSV, "latency p99... (ms)" in Markdown. */
static void header_text(const struct task_figure *f, const char *suffix, enum tabular_format fmt, char *buf,
			size_t len)
{
	const struct unit_view *u = view_of(f);
	size_t kl = strlen(f->json_key), sl = strlen(u->json_suffix);
	int stem = (int)(kl >= sl && strcmp(f->json_key + kl - sl, u->json_suffix) == 0 ? kl - sl : kl);
	if (fmt == TABULAR_CSV) {
		snprintf(buf, len, "%.*s%s%s", stem, f->json_key, u->suffix, suffix);
		return;
	}
	snprintf(buf, len, "%.*s%s%s%s%s", stem, f->json_key, suffix, u->md ? " (" : "", u->md ? u->md : "",
		 u->md ? ")" : "");
	for (char *c = buf; *c; c++)
		*c = *c == '_' ? ' ' : *c;
}

/* Whether an earlier row of task_figures has f's key (a key is one column). */
static bool key_seen(size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (task_figures[j].json_key && strcmp(task_figures[j].json_key, task_figures[i].json_key) == 0)
			return true;
	return false;
}

/* Which figures ps has (a value in some pair) and which have an interval (two counted values
 * in some pair) into cols[0..task_figures_n).  v: room for the largest pair's values. */
static void columns_find(const struct tabular_pairs *ps, struct column *cols, double *v)
{
	for (size_t i = 0; i < task_figures_n; i++) {
		struct column *c = &cols[i];
		c->f = &task_figures[i];
		if (!c->f->json_key || key_seen(i))
			continue;
		for (size_t k = 0; k < ps->n && !(c->shown && (c->interval || !c->f->cmp)); k++) {
			unsigned n = pair_values(&ps->p[k], c->f, v);
			c->shown |= n > 0;
			c->interval |= c->f->cmp && n >= 2;
		}
	}
}

/* ---- the table ---- */

static const char *const id_columns[] = { JK_SIMULATION, JK_MODE, JK_LOAD, JK_LOAD_MODE, "subruns", JK_FAILED };
#define ID_COLUMNS (sizeof(id_columns) / sizeof(id_columns[0]))
static const char *const interval_suffixes[2] = { "_mean_ci95_low", "_mean_ci95_high" };
static const char *const interval_md[2] = { " mean 95% CI low", " mean 95% CI high" };

/* The header line and, in Markdown, the delimiter row (numbers right-aligned). */
static void table_header(struct tabular_out *t, const struct column *cols)
{
	char name[256];
	unsigned n = 0;
	for (size_t i = 0; i < ID_COLUMNS; i++, n++) {
		snprintf(name, sizeof(name), "%s", id_columns[i]);
		for (char *c = name; t->fmt == TABULAR_MARKDOWN && *c; c++)
			*c = *c == '_' ? ' ' : *c;   /* Markdown's headers are words */
		tabular_cell(t, name);
	}
	for (size_t i = 0; i < task_figures_n; i++) {
		if (!cols[i].shown)
			continue;
		header_text(cols[i].f, "", t->fmt, name, sizeof(name));
		tabular_cell(t, name), n++;
		for (int e = 0; cols[i].interval && e < 2; e++, n++) {
			header_text(cols[i].f, t->fmt == TABULAR_CSV ? interval_suffixes[e] : interval_md[e], t->fmt, name,
				    sizeof(name));
			tabular_cell(t, name);
		}
	}
	tabular_cell(t, "why"), n++;
	tabular_end(t);
	for (unsigned i = 0; t->fmt == TABULAR_MARKDOWN && i < n; i++)
		cell_put(t, i < 4 || i == n - 1 ? "---" : "---:", true);
	if (t->fmt == TABULAR_MARKDOWN)
		tabular_end(t);
}

/* Figure column c's cells of pair p: its median, and its interval's ends (empty with fewer than
 * two values) widened to whole units of the JSON (ns, ppm), as the JSON's own intervals are,
 * within what the figure can be (at least 0, at most its max_value). */
static void figure_cells(struct tabular_out *t, const struct tabular_pair *p, const struct column *c, double *v)
{
	unsigned n = pair_values(p, c->f, v);
	double sum = 0, sum2 = 0, mean, lo, hi;
	for (unsigned i = 0; i < n; i++)
		sum += v[i], sum2 += v[i] * v[i];
	if (n)
		figure_cell(t, c->f, median_of(v, n));
	else
		tabular_cell(t, "");
	if (!c->interval)
		return;
	if (!mean_interval95(n, sum, sum2, 0, &mean, &lo, &hi)) {
		tabular_cell(t, ""), tabular_cell(t, "");
		return;
	}
	if (c->f->cmp->max_value > 0)
		hi = fmin(hi, c->f->cmp->max_value * c->f->json_scale);
	figure_cell(t, c->f, floor(lo));
	figure_cell(t, c->f, ceil(hi));
}

/* Pair p's row.  Returns 0, or -1 out of memory. */
static int table_row(struct tabular_out *t, const struct tabular_pair *p, const struct column *cols, double *v)
{
	const char *key[4] = { p->sim, p->mode, p->load, p->load_mode };
	for (int k = 0; k < 4; k++)
		if (tabular_text(t, key[k]) != 0)
			return -1;
	tabular_number(t, (double)p->counted);
	tabular_number(t, (double)p->failed);
	for (size_t i = 0; i < task_figures_n; i++)
		if (cols[i].shown)
			figure_cells(t, p, &cols[i], v);
	if (tabular_text(t, p->why ? p->why : "") != 0)
		return -1;
	tabular_end(t);
	return 0;
}

int tabular_write(FILE *out, const json_t *results, enum tabular_format fmt)
{
	struct tabular_pairs ps;
	if (tabular_pairs(results, &ps) != 0)
		return -1;
	size_t most = 1;
	for (size_t k = 0; k < ps.n; k++)
		most = ps.p[k].n > most ? ps.p[k].n : most;
	struct column *cols = calloc(task_figures_n + 1, sizeof(*cols));
	double *v = calloc(most, sizeof(*v));
	int rc = cols && v ? 0 : -1;
	struct tabular_out t = { out, fmt, 0 };
	if (rc == 0) {
		columns_find(&ps, cols, v);
		table_header(&t, cols);
	}
	for (size_t k = 0; rc == 0 && k < ps.n; k++)
		rc = table_row(&t, &ps.p[k], cols, v);
	free(cols);
	free(v);
	tabular_pairs_free(&ps);
	return rc;
}
