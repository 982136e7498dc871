/* The tables and histograms of a result (report/tabular.h, report/histview.h): CSV quoting as
 * RFC 4180 section 2 states it, Markdown cells escaped as the GFM spec's table extension and
 * CommonMark's backslash escapes say, rows and medians of a hand-made "results" array, the
 * between-run interval against a hand computation, and the coarse histogram buckets against
 * lib/histogram.h's. */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/ck_run.h"
#include "report/histview.h"
#include "report/tabular.h"

/* What fn wrote, captured (free it). */
static char *captured(void (*fn)(FILE *, const char *), const char *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	fn(f, arg);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

static void check_csv(const char *in, const char *want)
{
	char *got = captured(tabular_csv_field, in);
	ck_assert_str_eq(got, want);
	free(got);
}

static void check_md(const char *in, const char *want)
{
	char *got = captured(tabular_md_cell, in);
	ck_assert_str_eq(got, want);
	free(got);
}

/* RFC 4180 section 2: rule 6, fields with line breaks, double quotes and commas are enclosed in
 * double quotes; rule 7, a double quote inside is escaped by another; others as they are. */
START_TEST(csv_quoting)
{
	check_csv("Audio", "Audio");
	check_csv("", "");
	check_csv("nice -10", "nice -10");
	check_csv("a,b", "\"a,b\"");
	check_csv("say \"hi\"", "\"say \"\"hi\"\"\"");
	check_csv("\"", "\"\"\"\"");
	check_csv("two\nlines", "\"two\nlines\"");
	check_csv("cr\rhere", "\"cr\rhere\"");
	check_csv("x'y;z\t", "x'y;z\t");
}
END_TEST

/* GFM tables: a '|' in a cell is "\|"; the punctuation that opens inline markup is escaped so
 * that it shows as it is. */
START_TEST(markdown_escaping)
{
	check_md("Audio", "Audio");
	check_md("a|b", "a\\|b");
	check_md("||", "\\|\\|");
	check_md("*x* _y_ `z`", "\\*x\\* \\_y\\_ \\`z\\`");
	check_md("<b>[l](u)</b>", "\\<b\\>\\[l\\](u)\\</b\\>");
	check_md("a\\|b", "a\\\\\\|b");
	check_md("~&!", "\\~\\&\\!");
	check_md("nice -10, 1.5 ms", "nice -10, 1.5 ms");
}
END_TEST

/* A result of pair (sim, load), repeat, its p99 and met in the JSON's units, optionally failed or
 * interrupted. */
static json_t *result(const char *sim, const char *load, int repeat, json_int_t p99_ns, json_int_t met_ppm,
		      const char *failed, bool interrupted)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:i, s:b}", "simulation", sim, "load", load, "mode", "",
			      "load_mode", "", "repeat", repeat, "interrupted", interrupted);
	if (failed)
		json_object_set_new(r, "failed", json_string(failed));
	else {
		json_object_set_new(r, "latency_p99_ns", json_integer(p99_ns));
		json_object_set_new(r, "deadlines_met_ppm", json_integer(met_ppm));
		json_object_set_new(r, "samples", json_integer(100));
	}
	return r;
}

/* Audio/None's three sub-runs: p99 1, 3 and 2.0005 ms, met 100, 99 and 99.5 %. */
static void audio_none(json_t *res)
{
	json_array_append_new(res, result("Audio", "None", 1, 1000000, 1000000, NULL, false));
	json_array_append_new(res, result("Audio", "None", 2, 3000000, 990000, NULL, false));
	json_array_append_new(res, result("Audio", "None", 3, 2000500, 995000, NULL, false));
}

/* The table of results as fmt. */
static char *table_of(const json_t *results, enum tabular_format fmt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_int_eq(tabular_write(f, results, fmt), 0);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

/* The index of the column named name in CSV header line head ("" when last), or -1. */
static int column_index(const char *table, const char *name)
{
	const char *end = strstr(table, "\r\n");
	int idx = 0;
	for (const char *p = table; p < end; idx++) {
		size_t n = strcspn(p, ",\r");
		if (n == strlen(name) && strncmp(p, name, n) == 0)
			return idx;
		p += n + 1;
	}
	return -1;
}

/* Field idx of the line starting with lead (unquoted fields only), into buf. */
static void field_of(const char *table, const char *lead, int idx, char *buf, size_t len)
{
	const char *p = strstr(table, lead);
	ck_assert_ptr_nonnull(p);
	for (int i = 0; i < idx; i++)
		p += strcspn(p, ",") + 1;
	snprintf(buf, len, "%.*s", (int)strcspn(p, ",\r"), p);
}

/* Rows in the order of their first result (the rounds interleave them: Burn's comes first), the
 * median over the counted sub-runs in ms and %, the failed one's reason quoted, an interrupted sub-run left out
 * beside measured ones, a formula's first character defused. */
START_TEST(rows_and_medians)
{
	json_t *res = json_array();
	json_array_append_new(res, result("Audio", "Burn", 1, 0, 0, "fork: Resource temporarily unavailable, \"x\"", false));
	audio_none(res);
	json_array_append_new(res, result("Audio", "None", 4, 99000000, 0, NULL, true));
	json_array_append_new(res, result("=HYPERLINK(1)", "None", 1, 1500, 1000000, NULL, false));
	char *t = table_of(res, TABULAR_CSV), buf[64];
	int p99 = column_index(t, "latency_p99_ms"), met = column_index(t, "deadlines_met_pct");
	int subruns = column_index(t, "subruns"), lo = column_index(t, "latency_p99_ms_mean_ci95_low");
	ck_assert_int_gt(p99, 0);
	ck_assert_int_gt(met, 0);
	ck_assert_int_gt(lo, p99);
	ck_assert_ptr_nonnull(strstr(t, "\r\nAudio,,None,,3,0,"));
	ck_assert(strstr(t, "Audio,,Burn") < strstr(t, "Audio,,None"));
	field_of(t, "Audio,,None", p99, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2.0005");   /* the median of 1, 3 and 2.0005 ms; not the interrupted 99 */
	field_of(t, "Audio,,None", met, buf, sizeof(buf));
	ck_assert_str_eq(buf, "99.5");
	field_of(t, "Audio,,None", subruns, buf, sizeof(buf));
	ck_assert_str_eq(buf, "3");
	ck_assert_ptr_nonnull(strstr(t, "Audio,,Burn,,0,1,"));
	ck_assert_ptr_nonnull(strstr(t, ",\"fork: Resource temporarily unavailable, \"\"x\"\"\"\r\n"));
	ck_assert_ptr_nonnull(strstr(t, "\r\n'=HYPERLINK(1),,None,,1,0,"));
	field_of(t, "'=HYPERLINK", p99, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.0015");
	free(t);
	json_decref(res);
}
END_TEST

/* The interval columns: the t interval of the mean of 1, 3 and 2.0005 ms, mean 2.0001667 ms,
 * s = 1.0000833, t(2, 0.975) = 4.302653: half 2.4843 ms, the low end at 0 and the high end
 * 4.48445 ms rounded up to whole ns; empty for a pair of one sub-run. */
START_TEST(between_run_interval)
{
	json_t *res = json_array();
	audio_none(res);
	json_array_append_new(res, result("X", "None", 1, 7000, 1000000, NULL, false));
	char *t = table_of(res, TABULAR_CSV), buf[64];
	int lo = column_index(t, "latency_p99_ms_mean_ci95_low"), hi = column_index(t, "latency_p99_ms_mean_ci95_high");
	double mean = 6000500 / 3.0, s = sqrt(((1e6 - mean) * (1e6 - mean) + (3e6 - mean) * (3e6 - mean) +
					      (2000500 - mean) * (2000500 - mean)) / 2);
	double want_hi = ceil(mean + 4.302652729911275 * s / sqrt(3)) / 1e6;
	field_of(t, "Audio,,None", lo, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0");
	field_of(t, "Audio,,None", hi, buf, sizeof(buf));
	ck_assert_double_eq_tol(strtod(buf, NULL), want_hi, 1e-9);
	field_of(t, "X,,None", lo, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	int met_hi = column_index(t, "deadlines_met_pct_mean_ci95_high");
	field_of(t, "Audio,,None", met_hi, buf, sizeof(buf));
	ck_assert_str_eq(buf, "100");  /* a share's interval ends at 100 */
	free(t);
	json_decref(res);
}
END_TEST

/* The Markdown table: a header, a delimiter row, and every row with as many cells. */
START_TEST(markdown_table)
{
	json_t *res = json_array();
	json_array_append_new(res, result("Au|dio", "None", 1, 1000000, 1000000, NULL, false));
	json_array_append_new(res, result("Audio", "Burn", 1, 0, 0, "a | b", false));
	char *t = table_of(res, TABULAR_MARKDOWN);
	unsigned lines = 0, cells0 = 0;
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n"), lines++) {
		unsigned cells = 0;
		ck_assert_int_eq(line[0], '|');
		for (char *c = line; *c; c++)
			cells += *c == '|' && c[-1 + (c == line)] != '\\';
		if (!lines)
			cells0 = cells;
		ck_assert_uint_eq(cells, cells0);
		if (lines == 1)
			ck_assert_ptr_nonnull(strstr(line, "| --- | --- | --- | --- | ---: |"));
	}
	ck_assert_uint_eq(lines, 4);
	free(t);
	json_decref(res);
}
END_TEST

/* Coarse buckets: contiguous, each the union of whole fine buckets, 4 a power of two. */
START_TEST(coarse_buckets)
{
	ck_assert_uint_eq(hview_low_ns(0), 0);
	ck_assert_uint_eq(hview_bucket(127), 0);
	ck_assert_uint_eq(hview_bucket(128), 1);
	for (unsigned c = 1; c < HVIEW_BUCKETS; c++) {
		uint64_t lo = hview_low_ns(c);
		ck_assert_uint_eq(hview_bucket(lo), c);
		ck_assert_uint_eq(hview_bucket(lo - 1), c - 1);
		ck_assert_uint_eq(hist_bucket_low_ns(hist_bucket(lo)), lo);   /* a fine bucket's edge */
		if (c + HVIEW_SUB < HVIEW_BUCKETS)
			ck_assert_uint_eq(hview_low_ns(c + HVIEW_SUB), 2 * lo);
	}
	for (unsigned i = 0; i < HIST_BUCKETS; i++)   /* a fine bucket lies in one coarse one */
		ck_assert_uint_eq(hview_bucket(hist_bucket_low_ns(i)), hview_bucket(hist_bucket_high_ns(i)));
	ck_assert_uint_eq(hview_bucket(UINT64_MAX), HVIEW_BUCKETS - 1);
}
END_TEST

/* The text: the rows and the overflow add up to the count, which is every sample of the
 * counted sub-runs merged; the avg their means weighted by their samples, the max the JSON's. */
START_TEST(histogram_text_adds_up)
{
	json_t *res = json_array();
	for (int rep = 1; rep <= 2; rep++) {
		json_t *r = result("Audio", "None", rep, 0, 0, NULL, false);
		json_object_set_new(r, "latency_histogram", json_pack("[[i, i], [i, i], [i, i]]", 100000, 5, 101000, 3,
								       5000000 + rep, 1));
		json_object_set_new(r, "latency_max_ns", json_integer(5000100 + rep));
		json_object_set_new(r, "latency_mean_ns", json_integer(100000 * rep));
		json_array_append_new(res, r);
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_int_eq(hview_text(f, res, 1000000), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_ptr_nonnull(strstr(text, "\n# Latency histogram: Audio, scheduling latency\n"));
	ck_assert_ptr_null(strstr(text, "timer latency"));   /* no timer sample: no block */
	ck_assert_ptr_nonnull(strstr(text, "\n# over: the samples from 1048.576 us up\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n        98.304         16\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n         over:          2\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n        count:         18\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n          avg:    150.000\n"));  /* 9 samples at 100, 9 at 200 us */
	ck_assert_ptr_nonnull(strstr(text, "\n          max:   5000.102\n"));
	free(text);
	json_decref(res);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tabular");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, csv_quoting);
	tcase_add_test(tc, markdown_escaping);
	tcase_add_test(tc, rows_and_medians);
	tcase_add_test(tc, between_run_interval);
	tcase_add_test(tc, markdown_table);
	tcase_add_test(tc, coarse_buckets);
	tcase_add_test(tc, histogram_text_adds_up);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
