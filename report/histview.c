/* Latency histograms for reading and plotting (report/histview.h). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"
#include "engine/summary.h"   /* FIGURE_KEY's fields */
#include "report/figures.h"
#include "report/histview.h"
#include "report/jsonkeys.h"
#include "report/tabular.h"

#define FINE_PER_COARSE (HIST_SUB_COUNT / HVIEW_SUB)

unsigned hview_bucket(uint64_t value_ns)
{
	unsigned i = hist_bucket(value_ns);
	if (i < HIST_SUB_COUNT)
		return 0;
	return 1 + (i / HIST_SUB_COUNT - 1) * HVIEW_SUB + i % HIST_SUB_COUNT / FINE_PER_COARSE;
}

uint64_t hview_low_ns(unsigned c)
{
	if (c == 0)
		return 0;
	unsigned group = (c - 1) / HVIEW_SUB + 1, sub = (c - 1) % HVIEW_SUB;
	return hist_bucket_low_ns(group * HIST_SUB_COUNT + sub * FINE_PER_COARSE);
}

/* The two latencies a result has a histogram of: its JSON keys. */
static const struct kind {
	const char *name, *hist_key;
	size_t mean_field, max_field; /* offsets of its mean and max in struct pair_summary
	                                 (their keys: figure_key_of) */
} kinds[] = {
	{ "scheduling", JK_LATENCY_HISTOGRAM, offsetof(struct pair_summary, latency_mean_ns),
	  offsetof(struct pair_summary, latency_max_ns) },
	{ "timer", JK_TIMER_LATENCY_HISTOGRAM, offsetof(struct pair_summary, timer_mean_ns),
	  offsetof(struct pair_summary, timer_max_ns) },
};

/* One pair's histogram of one kind, its counted results merged. */
struct column {
	uint64_t count[HVIEW_BUCKETS];
	uint64_t total;
	double mean_ns;              /* the counted results' means weighted by their samples; -1:
	                                none */
	double max_ns;               /* the largest counted result's max; -1: none */
};

/* Adds histogram h ([[low_ns, count], ...]; anything else in it skipped) into c.  A sum past
 * UINT64_MAX stays there. */
static void column_add(struct column *c, const json_t *h)
{
	size_t i;
	const json_t *b;
	json_array_foreach(h, i, b) {
		json_int_t low = json_integer_value(json_array_get(b, 0)), n = json_integer_value(json_array_get(b, 1));
		if (json_array_size(b) != 2 || low < 0 || n <= 0)
			continue;
		uint64_t *slot = &c->count[hview_bucket((uint64_t)low)];
		*slot = UINT64_MAX - *slot < (uint64_t)n ? UINT64_MAX : *slot + (uint64_t)n;
		c->total = UINT64_MAX - c->total < (uint64_t)n ? UINT64_MAX : c->total + (uint64_t)n;
	}
}

/* Pair p's histogram of kind k into c, with its mean and max. */
static void column_of(const struct tabular_pair *p, const struct kind *k, struct column *c)
{
	const char *mean_key = figure_key_of(k->mean_field), *max_key = figure_key_of(k->max_field);
	double sum = 0, weight = 0;
	memset(c, 0, sizeof(*c));
	c->max_ns = -1;
	for (size_t r = 0; r < p->n; r++) {
		if (!tabular_counted(p, r))
			continue;
		uint64_t before = c->total;
		column_add(c, json_object_get(p->res[r], k->hist_key));
		const json_t *mean = json_object_get(p->res[r], mean_key), *max = json_object_get(p->res[r], max_key);
		if (json_is_number(mean) && c->total > before) {
			sum += json_number_value(mean) * (double)(c->total - before);
			weight += (double)(c->total - before);
		}
		if (json_is_number(max) && json_number_value(max) > c->max_ns)
			c->max_ns = json_number_value(max);
	}
	c->mean_ns = weight > 0 ? sum / weight : -1;
}

/* The lowest and highest bucket holding a sample of cols[0..n) into *lo, *hi; false when none. */
static bool bucket_range(const struct column *cols, size_t n, unsigned *lo, unsigned *hi)
{
	*lo = HVIEW_BUCKETS, *hi = 0;
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < HVIEW_BUCKETS; b++)
			if (cols[i].count[b]) {
				*lo = b < *lo ? b : *lo;
				*hi = b > *hi ? b : *hi;
			}
	return *lo < HVIEW_BUCKETS;
}

/* ---- the text ---- */

#define BLOCK_COLUMNS 8   /* pairs a block at most: the rest in the next, 120 columns at most */
#define LABEL_WIDTH 14
#define NAME_BYTES 24     /* of a column's name shown */

/* The columns of a block: pairs[0..n) (n <= BLOCK_COLUMNS), their names and widths. */
struct block {
	const struct tabular_pair *pairs;
	size_t n;
	struct column cols[BLOCK_COLUMNS];
	char names[BLOCK_COLUMNS][NAME_BYTES];
	int width[BLOCK_COLUMNS];
};

/* The block's title: its task and settings ("Audio", "Audio (nice -10, loads at nice 19)") and
 * what its rows are. */
static void block_title(FILE *out, const struct tabular_pair *p, const struct kind *k)
{
	char sim[96], mode[96], load_mode[96], settings[256];
	text_escape_line(p->sim, sim, sizeof(sim));
	text_escape_line(p->mode, mode, sizeof(mode));
	text_escape_line(p->load_mode, load_mode, sizeof(load_mode));
	snprintf(settings, sizeof(settings), "%s%s%s%s%s%s", *mode || *load_mode ? " (" : "", mode,
		 *mode && *load_mode ? ", " : "", *load_mode ? "loads at " : "", load_mode, *mode || *load_mode ? ")" : "");
	fprintf(out, "\n# Latency histogram: %s%s, %s latency\n# Time unit is microseconds (us); a row a bucket "
		"from its low bound, %d a power of two\n", sim, settings, k->name, HVIEW_SUB);
}

/* One row: its label, then a number a column ("-" for a negative one). */
static void block_row(FILE *out, const struct block *b, const char *label, const double *v, int decimals)
{
	fprintf(out, "%*s", LABEL_WIDTH, label);
	for (size_t i = 0; i < b->n; i++)
		if (v[i] < 0)
			fprintf(out, "%*s", b->width[i], "-");
		else
			fprintf(out, "%*.*f", b->width[i], decimals, v[i]);
	fputc('\n', out);
}

/* Block b's histogram of kind k (its columns filled): nothing when no pair has a sample. */
static void block_text(FILE *out, const struct block *b, const struct kind *k, uint64_t max_ns)
{
	unsigned lo, hi, cap = max_ns ? hview_bucket(max_ns) : HVIEW_BUCKETS - 1;
	double v[BLOCK_COLUMNS];
	char label[32];
	if (!bucket_range(b->cols, b->n, &lo, &hi))
		return;
	block_title(out, &b->pairs[0], k);
	if (max_ns && cap + 1 < HVIEW_BUCKETS)
		fprintf(out, "# over: the samples from %.3f us up\n", hview_low_ns(cap + 1) / 1e3);
	fprintf(out, "%*s", LABEL_WIDTH, "from_us");
	for (size_t i = 0; i < b->n; i++)
		fprintf(out, "%*s", b->width[i], b->names[i]);
	fputc('\n', out);
	for (unsigned r = lo; r <= hi && r <= cap; r++) {
		for (size_t i = 0; i < b->n; i++)
			v[i] = (double)b->cols[i].count[r];
		snprintf(label, sizeof(label), "%.3f", hview_low_ns(r) / 1e3);
		block_row(out, b, label, v, 0);
	}
	if (max_ns) {
		for (size_t i = 0; i < b->n; i++) {
			v[i] = 0;
			for (unsigned r = cap + 1; r < HVIEW_BUCKETS; r++)
				v[i] += (double)b->cols[i].count[r];
		}
		block_row(out, b, "over:", v, 0);
	}
	for (size_t i = 0; i < b->n; i++)
		v[i] = (double)b->cols[i].total;
	block_row(out, b, "count:", v, 0);
	for (size_t i = 0; i < b->n; i++)
		v[i] = b->cols[i].mean_ns < 0 ? -1 : b->cols[i].mean_ns / 1e3;
	block_row(out, b, "avg:", v, 3);
	for (size_t i = 0; i < b->n; i++)
		v[i] = b->cols[i].max_ns < 0 ? -1 : b->cols[i].max_ns / 1e3;
	block_row(out, b, "max:", v, 3);
}

/* Whether pairs a and b share a task and settings (one block). */
static bool same_block(const struct tabular_pair *a, const struct tabular_pair *b)
{
	return strcmp(a->sim, b->sim) == 0 && strcmp(a->mode, b->mode) == 0 && strcmp(a->load_mode, b->load_mode) == 0;
}

/* Block b of pairs[0..n): names and widths, then a histogram of each kind. */
static void block_write(FILE *out, struct block *b, const struct tabular_pair *pairs, size_t n, uint64_t max_ns)
{
	b->pairs = pairs;
	b->n = n;
	for (size_t i = 0; i < n; i++) {
		text_escape_line(pairs[i].load, b->names[i], sizeof(b->names[i]));
		int w = (int)strlen(b->names[i]) + 2;
		b->width[i] = w > 11 ? w : 11;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		for (size_t i = 0; i < n; i++)
			column_of(&pairs[i], &kinds[k], &b->cols[i]);
		block_text(out, b, &kinds[k], max_ns);
	}
}

int hview_text(FILE *out, const json_t *results, uint64_t max_ns)
{
	struct tabular_pairs ps;
	struct block *b = malloc(sizeof(*b));
	if (!b || tabular_pairs(results, &ps) != 0) {
		free(b);
		return -1;
	}
	for (size_t lo = 0, hi; lo < ps.n; lo = hi) {
		for (hi = lo + 1; hi < ps.n && hi - lo < BLOCK_COLUMNS && same_block(&ps.p[lo], &ps.p[hi]); hi++)
			;
		block_write(out, b, &ps.p[lo], hi - lo, max_ns);
	}
	tabular_pairs_free(&ps);
	free(b);
	return 0;
}

/* ---- CSV ---- */

/* Pair p's lines of kind k (its histogram in c).  Returns 0, or -1 out of memory. */
static int pair_csv(struct tabular_out *t, const struct tabular_pair *p, const struct kind *k, const struct column *c)
{
	unsigned lo, hi;
	const char *key[4] = { p->sim, p->mode, p->load, p->load_mode };
	if (!bucket_range(c, 1, &lo, &hi))
		return 0;
	for (unsigned r = lo; r <= hi; r++) {
		for (int i = 0; i < 4; i++)
			if (tabular_text(t, key[i]) != 0)
				return -1;
		tabular_cell(t, k->name);
		tabular_number(t, hview_low_ns(r) / 1e3);
		if (r + 1 < HVIEW_BUCKETS)
			tabular_number(t, hview_low_ns(r + 1) / 1e3);
		else
			tabular_cell(t, "");
		tabular_number(t, (double)c->count[r]);
		tabular_end(t);
	}
	return 0;
}

int hview_csv(FILE *out, const json_t *results)
{
	static const char *const header[] = { JK_SIMULATION, JK_MODE, JK_LOAD, JK_LOAD_MODE, "latency", "from_us", "to_us",
					      "count" };
	struct tabular_out t = { out, TABULAR_CSV, 0 };
	struct tabular_pairs ps;
	struct column *c = malloc(sizeof(*c));
	int rc = 0;
	if (!c || tabular_pairs(results, &ps) != 0) {
		free(c);
		return -1;
	}
	for (size_t i = 0; i < sizeof(header) / sizeof(header[0]); i++)
		tabular_cell(&t, header[i]);
	tabular_end(&t);
	for (size_t i = 0; rc == 0 && i < ps.n; i++)
		for (size_t k = 0; rc == 0 && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			column_of(&ps.p[i], &kinds[k], c);
			rc = pair_csv(&t, &ps.p[i], &kinds[k], c);
		}
	tabular_pairs_free(&ps);
	free(c);
	return rc;
}
