/* export: case names, the LAVA lines and the KCIDB report of constructed results, verdicts
 * against a baseline under compare's thresholds, the subcommand's exit statuses, and the
 * non-blocking jansson seed. */
#define _GNU_SOURCE
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/export.h"
#include "run/json_seed.h"
#include "tests/ck_run.h"

/* A JSON document: Audio/Burn repeated n times with p99 = p99_ns + i * step_ns (mean 5 us, max
 * 900 us, 100 % CPU, deadlines met met_pct, 1000 samples: enough to bound a p99); then, when
 * video_failed, a failed Video/Burn. */
static char *make_doc(unsigned n, long p99_ns, long step_ns, double met_pct, bool video_failed)
{
	json_t *results = json_array();
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(results, json_pack("{s:s, s:s, s:s, s:i, s:b, s:i, s:i, s:I, s:i, s:i, s:I}",
			"simulation", "Audio", "load", "Burn", "mode", "", "repeat", (int)i + 1, "has_deadlines", 1,
			"samples", 1000,
			"latency_mean_ns", 5000, "latency_p99_ns", (json_int_t)(p99_ns + (long)i * step_ns),
			"latency_max_ns", 900000, "desired_cpu_ppm", 1000000,
			"deadlines_met_ppm", (json_int_t)lround(met_pct * 1e4)));
	if (video_failed)
		json_array_append_new(results, json_pack("{s:s, s:s, s:s, s:i, s:b, s:s}", "simulation", "Video",
			"load", "Burn", "mode", "real time", "repeat", 1, "has_deadlines", 1,
			"failed", "fork: Resource temporarily unavailable"));
	json_t *doc = json_pack("{s:i, s:s, s:o}", "schema_version", 1, "generator", "interbench 1.0.0",
				"results", results);
	char *text = json_dumps(doc, 0);
	json_decref(doc);
	ck_assert_ptr_nonnull(text);
	return text;
}

static void make_set(struct result_set *rs, unsigned n, long p99_ns, long step_ns, double met_pct, bool video_failed)
{
	char err[256], *doc = make_doc(n, p99_ns, step_ns, met_pct, video_failed);
	ck_assert_msg(result_set_parse(doc, strlen(doc), rs, err, sizeof(err)) == 0, "%s", err);
	free(doc);
}

/* export_lava's output for rs (against base when not NULL, under spec_str or the defaults)
 * and its failure count. */
static char *lava_text(const struct result_set *rs, const struct result_set *base, const char *spec_str,
		       unsigned *fails)
{
	struct export_spec spec = { .baseline = base };
	char *buf = NULL, err[256];
	size_t len = 0;
	cmp_default_thresholds(&spec.thresholds);
	if (spec_str)
		ck_assert_int_eq(cmp_parse_thresholds(spec_str, &spec.thresholds, err, sizeof(err)), 0);
	FILE *f = open_memstream(&buf, &len);
	*fails = export_lava(rs, &spec, f);
	fclose(f);
	return buf;
}

START_TEST(lava_lines_without_baseline)
{
	struct result_set rs;
	unsigned fails;
	make_set(&rs, 5, 100000, 1000, 99.5, true);
	char *text = lava_text(&rs, NULL, NULL, &fails);
	/* Medians of 5 repeats: p99 102000 ns, the 95 % interval of the sub-runs' mean 102 -+
	 * t(4, 0.975) s / sqrt(5) = 102 -+ 2.776445 x 1.581139 / 2.236068 = 102 -+ 1.963243 us;
	 * the figures without spread an interval of no width; the failed pair is one failing
	 * case, no figures. */
	ck_assert_str_eq(text,
		"audio-burn pass\n"
		"audio-burn-mean-sched-latency pass 0.005000 ms\n"
		"audio-burn-mean-sched-latency-ci95-low pass 0.005000 ms\n"
		"audio-burn-mean-sched-latency-ci95-high pass 0.005000 ms\n"
		"audio-burn-p99-latency pass 0.102000 ms\n"
		"audio-burn-p99-latency-ci95-low pass 0.100037 ms\n"
		"audio-burn-p99-latency-ci95-high pass 0.103963 ms\n"
		"audio-burn-max-sched-latency pass 0.900000 ms\n"
		"audio-burn-max-sched-latency-ci95-low pass 0.900000 ms\n"
		"audio-burn-max-sched-latency-ci95-high pass 0.900000 ms\n"
		"audio-burn-desired-cpu pass 100.0000 %\n"
		"audio-burn-desired-cpu-ci95-low pass 100.0000 %\n"
		"audio-burn-desired-cpu-ci95-high pass 100.0000 %\n"
		"audio-burn-deadlines-met pass 99.5000 %\n"
		"audio-burn-deadlines-met-ci95-low pass 99.5000 %\n"
		"audio-burn-deadlines-met-ci95-high pass 99.5000 %\n"
		"video-real-time-burn fail\n");
	ck_assert_uint_eq(fails, 1);
	free(text);
	result_set_free(&rs);
}
END_TEST

/* Whether line (with its '\n') is in text. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

START_TEST(lava_verdicts_against_baseline)
{
	struct result_set old, new;
	unsigned fails;
	make_set(&old, 5, 100000, 1000, 100, false);
	/* p99 +20 % and clearly separated, deadlines 0.5 points lower: p99 fails, deadlines pass. */
	make_set(&new, 5, 120000, 1000, 99.5, false);
	char *text = lava_text(&new, &old, NULL, &fails);
	ck_assert_msg(has_line(text, "audio-burn-p99-latency fail 0.122000 ms"), "%s", text);
	ck_assert_msg(has_line(text, "audio-burn-deadlines-met pass 99.5000 %"), "%s", text);
	ck_assert_msg(has_line(text, "audio-burn pass"), "%s", text);
	ck_assert_uint_eq(fails, 1);
	free(text);
	/* The same under p99=off and deadlines=0.1: p99 passes, deadlines fail. */
	text = lava_text(&new, &old, "p99=off,deadlines=0.1", &fails);
	ck_assert_msg(has_line(text, "audio-burn-p99-latency pass 0.122000 ms"), "%s", text);
	ck_assert_msg(has_line(text, "audio-burn-deadlines-met fail 99.5000 %"), "%s", text);
	ck_assert_uint_eq(fails, 1);
	free(text);
	result_set_free(&new);
	/* Median +12 % but overlapping spreads (p > 5 %): no regression, as compare says. */
	make_set(&new, 5, 92000, 10000, 100, true);
	text = lava_text(&new, &old, NULL, &fails);
	ck_assert_msg(has_line(text, "audio-burn-p99-latency pass 0.112000 ms"), "%s", text);
	/* A pair the baseline lacks: its figures have nothing to fail against; its failure counts. */
	ck_assert_msg(has_line(text, "video-real-time-burn fail"), "%s", text);
	ck_assert_uint_eq(fails, 1);
	free(text);
	result_set_free(&new);
	result_set_free(&old);
}
END_TEST

/* The "tests" array of export_kcidb's report of rs, after checking the version. */
static json_t *kcidb_tests(const struct result_set *rs, const struct result_set *base, int *rc)
{
	struct export_spec spec = { .baseline = base };
	struct kcidb_ids ids = { .origin = "interbench_ci", .build_id = "interbench_ci:build-7", .run = "r1" };
	char *buf = NULL;
	size_t len = 0;
	json_error_t je;
	cmp_default_thresholds(&spec.thresholds);
	FILE *f = open_memstream(&buf, &len);
	*rc = export_kcidb(rs, &spec, &ids, f);
	fclose(f);
	json_t *doc = json_loads(buf, JSON_REJECT_DUPLICATES, &je);
	ck_assert_msg(doc != NULL, "%s: %s", je.text, buf);
	free(buf);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(doc, "version"), "major")), 5);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(doc, "version"), "minor")), 3);
	json_t *tests = json_incref(json_object_get(doc, "tests"));
	json_decref(doc);
	return tests;
}

/* A KCIDB test path: dot-separated non-empty components of [a-zA-Z0-9_-]. */
static bool kcidb_path_ok(const char *p)
{
	static const char comp[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	for (;;) {
		size_t n = strspn(p, comp);
		if (n == 0 || (p[n] != '.' && p[n] != '\0'))
			return false;
		if (p[n] == '\0')
			return true;
		p += n + 1;
	}
}

START_TEST(kcidb_report)
{
	struct result_set rs, old;
	int rc;
	make_set(&rs, 5, 100000, 1000, 99.5, true);
	json_t *tests = kcidb_tests(&rs, NULL, &rc);
	ck_assert_int_eq(rc, 1);
	ck_assert_uint_eq(json_array_size(tests), 7);
	size_t i;
	json_t *t;
	json_array_foreach(tests, i, t) {
		const char *id = json_string_value(json_object_get(t, "id"));
		const char *path = json_string_value(json_object_get(t, "path"));
		ck_assert_str_eq(json_string_value(json_object_get(t, "origin")), "interbench_ci");
		ck_assert_str_eq(json_string_value(json_object_get(t, "build_id")), "interbench_ci:build-7");
		ck_assert_msg(strncmp(id, "interbench_ci:build-7:", 22) == 0 && strstr(id, path) && strstr(id, ":r1"), "%s", id);
		ck_assert_msg(kcidb_path_ok(path), "%s", path);
	}
	t = json_array_get(tests, 2);
	ck_assert_str_eq(json_string_value(json_object_get(t, "path")), "interbench.audio.burn.p99-latency");
	ck_assert_str_eq(json_string_value(json_object_get(t, "status")), "DONE");
	json_t *num = json_object_get(t, "number");
	ck_assert_double_eq_tol(json_real_value(json_object_get(num, "value")), 102000e-9, 1e-15);
	ck_assert_str_eq(json_string_value(json_object_get(num, "unit")), "s");
	ck_assert_str_eq(json_string_value(json_object_get(num, "prefix")), "metric");
	t = json_array_get(tests, 5);
	ck_assert_double_eq_tol(json_real_value(json_object_get(json_object_get(t, "number"), "value")), 99.5, 1e-9);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(t, "number"), "unit")), "%");
	t = json_array_get(tests, 6);
	ck_assert_str_eq(json_string_value(json_object_get(t, "path")), "interbench.video-real-time.burn");
	ck_assert_str_eq(json_string_value(json_object_get(t, "status")), "ERROR");
	ck_assert_ptr_null(json_object_get(t, "number"));
	json_decref(tests);
	/* Against a baseline 20 % better and separated: p99 FAIL, the other figures PASS. */
	make_set(&old, 5, 80000, 1000, 99.5, false);
	tests = kcidb_tests(&rs, &old, &rc);
	ck_assert_int_eq(rc, 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(tests, 2), "status")), "FAIL");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(tests, 1), "status")), "PASS");
	json_decref(tests);
	result_set_free(&old);
	result_set_free(&rs);
}
END_TEST

/* Audio/Burn repeated 5 times (p99 100 us, 100 % met), its last starved ones without a
 * latency sample, as a run writes them (samples 0, latencies null, 100 % met). */
static void make_starved_set(struct result_set *rs, unsigned starved)
{
	json_t *results = json_array();
	for (unsigned i = 0; i < 5; i++) {
		bool s = i >= 5 - starved;
		json_t *lat = s ? json_null() : json_integer(100000);
		json_array_append_new(results, json_pack("{s:s, s:s, s:s, s:i, s:b, s:i, s:O, s:O, s:O, s:i, s:i}",
			"simulation", "Audio", "load", "Burn", "mode", "", "repeat", (int)i + 1, "has_deadlines", 1,
			"samples", s ? 0 : 100, "latency_mean_ns", lat, "latency_p99_ns", lat, "latency_max_ns", lat,
			"desired_cpu_ppm", 1000000, "deadlines_met_ppm", 1000000));
		json_decref(lat);
	}
	json_t *doc = json_pack("{s:i, s:s, s:o}", "schema_version", 1, "generator", "interbench 1.0.0",
				"results", results);
	char *text = json_dumps(doc, 0), err[256];
	json_decref(doc);
	ck_assert_msg(result_set_parse(text, strlen(text), rs, err, sizeof(err)) == 0, "%s", err);
	free(text);
}

/* export_metrics's output for rs without a baseline, which fails no case. */
static char *metrics_text(const struct result_set *rs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct export_spec spec = { 0 };
	cmp_default_thresholds(&spec.thresholds);
	ck_assert_uint_eq(export_metrics(rs, &spec, f), 0);
	fclose(f);
	return buf;
}

/* Reads JSON document doc (released) into rs. */
static void parse_doc(json_t *doc, struct result_set *rs)
{
	char *text = json_dumps(doc, 0), err[256];
	json_decref(doc);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(result_set_parse(text, strlen(text), rs, err, sizeof(err)) == 0, "%s", err);
	free(text);
}

/* A starved median has no number (never "inf"): without a baseline its case is an error, no
 * latency could be measured; against a baseline, more starved repeats fail the pair's case,
 * as compare calls them a regression, and the KCIDB report is written (jansson refuses inf). */
/* A figure's 95 % interval is the spread between its sub-runs (the pair's repeats): mean -+
 * t(n - 1, 0.975) s / sqrt(n).  Three repeats of p99 90, 100 and 110 us: s = 10 us,
 * t(2, 0.975) = 4.302653 (NIST's t table), half-width 24.8414 us, [75.1586, 124.8414] us; two
 * more LAVA cases per figure, test.misc.ci95 in KCIDB (seconds for a latency).  A single run
 * has none, whatever its own within-run interval (schema version 3's "_ci"): that is no
 * figure's interval. */
START_TEST(intervals_exported)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:i, s:b, s:i, s:i, s:[i, i], s:i, s:i, s:i}", "simulation", "Audio",
			      "load", "Burn", "mode", "", "repeat", 1, "has_deadlines", 1, "latency_mean_ns", 5000,
			      "latency_p99_ns", 100000, "latency_p99_ns_ci", 90000, 120000, "latency_max_ns", 900000,
			      "desired_cpu_ppm", 1000000, "deadlines_met_ppm", 995000);
	json_t *doc = json_pack("{s:i, s:s, s:[o]}", "schema_version", 3, "generator", "interbench 1.0.0", "results", r);
	struct result_set rs;
	parse_doc(doc, &rs);
	unsigned fails;
	int rc;
	char *lava = lava_text(&rs, NULL, NULL, &fails);
	ck_assert_msg(strstr(lava, "audio-burn-p99-latency pass 0.100000 ms\n") && !strstr(lava, "ci95"), "%s", lava);
	free(lava);
	json_t *tests = kcidb_tests(&rs, NULL, &rc), *t;
	size_t i;
	json_array_foreach(tests, i, t)
		ck_assert_ptr_null(json_object_get(json_object_get(t, "misc"), "ci95"));
	json_decref(tests);
	char *buf = metrics_text(&rs);
	ck_assert_msg(!strstr(buf, "ci95"), "%s", buf);
	free(buf);
	result_set_free(&rs);
	make_set(&rs, 3, 90000, 10000, 99.5, false);
	lava = lava_text(&rs, NULL, NULL, &fails);
	ck_assert_msg(strstr(lava, "audio-burn-p99-latency pass 0.100000 ms\n"
				   "audio-burn-p99-latency-ci95-low pass 0.075159 ms\n"
				   "audio-burn-p99-latency-ci95-high pass 0.124841 ms\n"), "%s", lava);
	ck_assert_msg(strstr(lava, "audio-burn-deadlines-met pass 99.5000 %\n"   /* no spread: no width */
				   "audio-burn-deadlines-met-ci95-low pass 99.5000 %\n"
				   "audio-burn-deadlines-met-ci95-high pass 99.5000 %\n"), "%s", lava);
	free(lava);
	tests = kcidb_tests(&rs, NULL, &rc);
	unsigned with_ci = 0;
	json_array_foreach(tests, i, t) {
		json_t *ci = json_object_get(json_object_get(t, "misc"), "ci95");
		if (!ci)
			continue;
		with_ci++;
		if (strcmp(json_string_value(json_object_get(t, "path")), "interbench.audio.burn.p99-latency") != 0)
			continue;
		ck_assert_double_eq_tol(json_real_value(json_object_get(ci, "low")), 75.1586e-6, 1e-10);
		ck_assert_double_eq_tol(json_real_value(json_object_get(ci, "high")), 124.8414e-6, 1e-10);
	}
	ck_assert_uint_eq(with_ci, 5);  /* mean, p99, max, % CPU, % met: each with its sub-runs' interval */
	json_decref(tests);
	buf = metrics_text(&rs);
	ck_assert_msg(strstr(buf, "audio.burn.p99_latency_ms: 0.100000\n"
				  "audio.burn.p99_latency_ci95_low_ms: 0.075159\n"
				  "audio.burn.p99_latency_ci95_high_ms: 0.124841\n"), "%s", buf);
	free(buf);
	result_set_free(&rs);
}
END_TEST

/* Whether every line of text has a first word (up to sep) of its own. */
static bool first_words_unique(const char *text, char sep)
{
	for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, (char[]){ sep, '\n', 0 });
		for (const char *q = strchr(p, '\n') + 1; *q; q = strchr(q, '\n') + 1)
			if (strncmp(p, q, n) == 0 && q[n] == sep)
				return false;
	}
	return true;
}

/* Names that slug alike ("Audio", "AUDIO") or to nothing ("!!!") keep distinct test names,
 * each "--N" by its place in byte order among its slug's names (tools/export.h), in LAVA ids,
 * KCIDB paths and metric names alike; a name alone on its slug keeps the plain slug. */
START_TEST(names_unique)
{
	static const char *const pairs[][2] = { { "Audio", "Burn" }, { "AUDIO", "Burn" }, { "!!!", "Burn" },
						 { "Video", "burn" }, { "Video", "BURN" }, { "Audio", "None" } };
	json_t *results = json_array();
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		json_array_append_new(results, json_pack("{s:s, s:s, s:s, s:i, s:b, s:i, s:i, s:i, s:i, s:i}",
			"simulation", pairs[i][0], "load", pairs[i][1], "mode", "", "repeat", 1, "has_deadlines", 1,
			"latency_mean_ns", 5000, "latency_p99_ns", 6000, "latency_max_ns", 7000,
			"desired_cpu_ppm", 1000000, "deadlines_met_ppm", 1000000));
	json_t *doc = json_pack("{s:i, s:s, s:o}", "schema_version", 1, "generator", "interbench 1.0.0", "results", results);
	struct result_set rs;
	parse_doc(doc, &rs);
	unsigned fails;
	char *lava = lava_text(&rs, NULL, NULL, &fails);
	static const char *const ids[] = { "audio--2-burn--2", "audio--1-burn--2", "--1-burn--2", "video-burn--3",
					   "video-burn--1", "audio--2-none" };
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char line[64];
		snprintf(line, sizeof(line), "%s pass", ids[i]);
		ck_assert_msg(has_line(lava, line), "no '%s' in:\n%s", line, lava);
	}
	ck_assert_msg(first_words_unique(lava, ' '), "%s", lava);
	free(lava);
	char *buf = metrics_text(&rs);
	ck_assert_msg(has_line(buf, "__1.burn__2.p99_latency_ms: 0.006000") && !strstr(buf, "..") &&
		      first_words_unique(buf, ':'), "%s", buf);
	free(buf);
	int rc;
	json_t *tests = kcidb_tests(&rs, NULL, &rc), *t;
	size_t i;
	json_array_foreach(tests, i, t)  /* every path differs from every earlier one */
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(json_string_value(json_object_get(t, "path")),
					 json_string_value(json_object_get(json_array_get(tests, j), "path")));
	ck_assert_uint_eq(json_array_size(tests), 6 * 6);
	json_decref(tests);
	result_set_free(&rs);
}
END_TEST

START_TEST(starved_medians)
{
	struct result_set good, two, three;
	unsigned fails;
	int rc;
	make_starved_set(&good, 0);
	make_starved_set(&two, 2);
	make_starved_set(&three, 3);
	char *text = lava_text(&three, NULL, NULL, &fails);
	ck_assert_msg(has_line(text, "audio-burn-p99-latency fail") && !strstr(text, "inf"), "%s", text);
	/* its % met: the mean of the five sub-runs (three starved at 0, two at 100), the centre of
	 * their interval, which a share keeps within 0..100 */
	ck_assert_msg(has_line(text, "audio-burn-deadlines-met pass 40.0000 %") &&
		      has_line(text, "audio-burn-deadlines-met-ci95-high pass 100.0000 %"), "%s", text);
	ck_assert_uint_eq(fails, 3);  /* mean, p99 and max */
	free(text);
	text = lava_text(&two, &good, NULL, &fails);
	ck_assert_msg(has_line(text, "audio-burn fail") && has_line(text, "audio-burn-p99-latency pass 0.100000 ms"),
		      "%s", text);
	ck_assert_uint_eq(fails, 1);
	free(text);
	json_t *tests = kcidb_tests(&three, NULL, &rc);
	ck_assert_int_eq(rc, 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(tests, 2), "status")), "ERROR");
	ck_assert_ptr_null(json_object_get(json_array_get(tests, 2), "number"));
	json_decref(tests);
	result_set_free(&good);
	result_set_free(&two);
	result_set_free(&three);
}
END_TEST

START_TEST(kcidb_ids)
{
	char err[256];
	struct kcidb_ids ok = { "lab_1", "lab_1:k-6.1", NULL }, ok_run = { "lab_1", "lab_1:x", "run-2.a" };
	ck_assert_int_eq(export_kcidb_ids_check(&ok, err, sizeof(err)), 0);
	ck_assert_int_eq(export_kcidb_ids_check(&ok_run, err, sizeof(err)), 0);
	const struct kcidb_ids bad[] = {
		{ NULL, "lab:x", NULL }, { "Lab", "Lab:x", NULL }, { "lab-1", "lab-1:x", NULL }, { "", ":x", NULL },
		{ "lab", NULL, NULL }, { "lab", "other:x", NULL }, { "lab", "labx:y", NULL }, { "lab", "lab", NULL },
		{ "lab", "lab:x", "a b" }, { "lab", "lab:x", "" }, { "lab", "lab:x", "r\n" }, { "lab", "lab:\xff", NULL },
		{ "lab", "lab:\xc3", NULL }, { "lab", "lab:\xed\xa0\x80", NULL }, { "lab", "lab:\xc0\xaf", NULL },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(export_kcidb_ids_check(&bad[i], err, sizeof(err)) == -1, "accepted case %zu", i);
		ck_assert_msg(strchr(err, '\n') == NULL && strstr(err, "accepted"), "%s", err);
	}
	/* Not UTF-8, which jansson refuses (the report said "out of memory"): the option, the value
	 * escaped, what is accepted. */
	struct kcidb_ids latin1 = { "lab", "lab:caf\xe9\n", NULL }, utf8 = { "lab", "lab:caf\xc3\xa9", NULL };
	ck_assert_int_eq(export_kcidb_ids_check(&latin1, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "--build-id: 'lab:caf\\xe9\\n' is not valid UTF-8 (accepted: 'lab:' followed by the "
			 "build's id, valid UTF-8 text of at most 300 bytes)");
	ck_assert_int_eq(export_kcidb_ids_check(&utf8, err, sizeof(err)), 0);
}
END_TEST

/* Writes text to a new temporary file whose path goes to path (512 bytes). */
static void temp_file(const char *text, char *path)
{
	snprintf(path, 512, "%s/check_export.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* export_main's status with argv (NULL-terminated), its output into out (NULL: discarded). */
static int run_export(const char *const *argv, FILE *out)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	FILE *null = fopen("/dev/null", "w");
	int rc = export_main(argc, (char **)argv, out ? out : null, null);
	fclose(null);
	return rc;
}

START_TEST(subcommand_statuses)
{
	char old[512], new[512], *doc;
	doc = make_doc(5, 100000, 1000, 100, false);
	temp_file(doc, old);
	free(doc);
	doc = make_doc(5, 130000, 1000, 100, false);
	temp_file(doc, new);
	free(doc);
	const char *pass[] = { "export", new, NULL };
	ck_assert_int_eq(run_export(pass, NULL), EXPORT_PASS);
	const char *regress[] = { "export", "--against", old, new, NULL };
	ck_assert_int_eq(run_export(regress, NULL), EXPORT_FAIL);
	const char *within[] = { "export", "-a", old, "-T", "p99=50%", new, NULL };
	ck_assert_int_eq(run_export(within, NULL), EXPORT_PASS);
	const char *kcidb[] = { "export", "-f", "kcidb", "--origin", "ci", "--build-id", "ci:1", new, NULL };
	ck_assert_int_eq(run_export(kcidb, NULL), EXPORT_PASS);
	const char *const bad[][9] = {
		{ "export", NULL }, { "export", old, new, NULL }, { "export", "/nonexistent/r.json", NULL },
		{ "export", "-T", "p99=5%", new, NULL }, { "export", "-a", "/nonexistent", new, NULL },
		{ "export", "-f", "junit", new, NULL }, { "export", "-f", "kcidb", new, NULL },
		{ "export", "-f", "kcidb", "--origin", "ci", "--build-id", "other:1", new, NULL },
		{ "export", "-a", old, "-T", "p99=x", new, NULL },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(run_export(bad[i], NULL) == EXPORT_BAD_INPUT, "case %zu", i);
	/* A full output device: the write failure is bad, never a silent pass. */
	FILE *full = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(full);
	ck_assert_int_eq(run_export(pass, full), EXPORT_BAD_INPUT);
	fclose(full);
	unlink(old);
	unlink(new);
}
END_TEST

START_TEST(seed_never_zero)
{
	/* jansson takes a zero seed as "read /dev/urandom": the mix must never give it. */
	size_t first = json_seed_mix(0, 0);
	ck_assert_uint_ne(first, 0);
	for (uint64_t a = 0; a < 1000; a++)
		ck_assert_uint_ne(json_seed_mix(a, a * 7919), 0);
	ck_assert_uint_ne(json_seed_mix(1, 0), first);
	ck_assert_uint_ne(json_seed_mix(0, 1), first);
	json_seed_without_blocking();
	json_t *o = json_pack("{s:i, s:i}", "a", 1, "b", 2);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "b")), 2);
	json_decref(o);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("export");
	tcase_add_test(tc, lava_lines_without_baseline);
	tcase_add_test(tc, lava_verdicts_against_baseline);
	tcase_add_test(tc, kcidb_report);
	tcase_add_test(tc, starved_medians);
	tcase_add_test(tc, names_unique);
	tcase_add_test(tc, intervals_exported);
	tcase_add_test(tc, kcidb_ids);
	tcase_add_test(tc, subcommand_statuses);
	tcase_add_test(tc, seed_never_zero);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
