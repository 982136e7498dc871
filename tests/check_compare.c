/* compare: thresholds, answers (DIFFERENT, SAME, UNKNOWN) and exit statuses on constructed
 * results of several repeats (sub-runs) a side, the logfile reader on interbench 0.20/0.31
 * tables and ours, and the false alarms of its answers on synthetic A/A comparisons
 * (tests/ck_synth.h). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/compare.h"
#include "report/table.h"
#include "tests/ck_run.h"
#include "tests/ck_synth.h"

START_TEST(threshold_syntax)
{
	struct cmp_thresholds t;
	char err[256];
	cmp_default_thresholds(&t);
	ck_assert_double_eq(t.limit[JM_P99], 10);
	ck_assert_double_eq(t.limit[JM_MET], 1);
	ck_assert(isnan(t.limit[JM_MEAN]));
	ck_assert_int_eq(cmp_parse_thresholds("p99=5%,mean=20,deadlines=off,cpu=0.5", &t, err, sizeof(err)), 0);
	ck_assert_double_eq(t.limit[JM_P99], 5);
	ck_assert_double_eq(t.limit[JM_MEAN], 20);
	ck_assert(isnan(t.limit[JM_MET]));
	ck_assert_double_eq(t.limit[JM_CPU], 0.5);
	const char *bad[] = { "", "p99", "p98=1", "p99=-1", "p99=abc", "cpu=5%", "p99=1e400", "p99=nan", "max=5%%",
				",", "p99=5,", ",p99=5", "p99=0x10", "p99=1e1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(cmp_parse_thresholds(bad[i], &t, err, sizeof(err)) == -1, "accepted '%s'", bad[i]);
}
END_TEST

static long make_set_samples = 1000;  /* "samples" of make_set's unstarved repeats; -1: left out */

/* A JSON document with Audio/None repeated n times: p99 = p99_ns + i * step_ns, deadlines
 * met met_pct (mean and max fixed); its last starved repeats took no latency sample, written
 * as a run writes them: samples 0, the latencies null, and 100 % deadlines met (a run counts
 * 100 % when no period completed). */
static void make_set_starved(struct result_set *rs, unsigned n, long p99_ns, long step_ns, double met_pct,
			     unsigned starved)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "{\"schema_version\":1,\"generator\":\"interbench\",\"results\":[");
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%s{\"simulation\":\"Audio\",\"load\":\"None\",\"mode\":\"\",\"repeat\":%u,"
			"\"has_deadlines\":true,", i ? "," : "", i + 1);
		if (i >= n - starved)
			fprintf(f, "\"samples\":0,\"latency_mean_ns\":null,\"latency_p99_ns\":null,\"latency_max_ns\":null,"
				"\"desired_cpu_ppm\":0,\"deadlines_met_ppm\":1000000}");
		else {
			if (make_set_samples >= 0)
				fprintf(f, "\"samples\":%ld,", make_set_samples);
			fprintf(f, "\"latency_mean_ns\":5000,\"latency_p99_ns\":%ld,\"latency_max_ns\":900000,"
				"\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":%ld}", p99_ns + (long)i * step_ns,
				lround(met_pct * 1e4));
		}
	}
	fprintf(f, "]}");
	fclose(f);
	ck_assert_msg(result_set_parse(buf, len, rs, err, sizeof(err)) == 0, "%s", err);
	free(buf);
}

static void make_set(struct result_set *rs, unsigned n, long p99_ns, long step_ns, double met_pct)
{
	make_set_starved(rs, n, p99_ns, step_ns, met_pct, 0);
}

/* The default thresholds into *t, over whatever the struct held (cmp_default_thresholds sets
 * every member a comparison reads: regressions_only too). */
static void defaults(struct cmp_thresholds *t)
{
	memset(t, 0xa5, sizeof(*t));
	cmp_default_thresholds(t);
	ck_assert(!t->regressions_only && !t->match_names && !t->allow_different_machine && !t->allow_different_task &&
		  !t->json && !t->flagged);
}

/* compare_sets(a, b) under t, its text in out (outlen bytes; out NULL: discarded). */
static int compare_with(const struct result_set *a, const struct result_set *b, const struct cmp_thresholds *t,
			char *out, size_t outlen)
{
	FILE *f = out ? fmemopen(out, outlen, "w") : fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(f);
	int rc = compare_sets("old", a, "new", b, t, f, f);
	fclose(f);
	return rc;
}

/* compare(a, b) with the default thresholds, its output in out (outlen bytes). */
static int compare_text(const struct result_set *a, const struct result_set *b, char *out, size_t outlen)
{
	struct cmp_thresholds t;
	defaults(&t);
	return compare_with(a, b, &t, out, outlen);
}

/* compare_sets' status for old vs new under the default thresholds, output discarded. */
static int verdict(const struct result_set *a, const struct result_set *b)
{
	return compare_text(a, b, NULL, 0);
}

static void parse_ok(const char *text, struct result_set *rs)
{
	char err[256];
	ck_assert_msg(result_set_parse(text, strlen(text), rs, err, sizeof(err)) == 0, "%s", err);
}

/* compare_text of two JSON documents, parsed here and freed. */
static int compare_docs(const char *a_text, const char *b_text, char *out, size_t outlen)
{
	struct result_set a, b;
	parse_ok(a_text, &a);
	parse_ok(b_text, &b);
	int rc = compare_text(&a, &b, out, outlen);
	result_set_free(&a);
	result_set_free(&b);
	return rc;
}

/* One repeat (a sub-run) of a constructed pair: its p99 and p90 latency (us), its latency
 * samples and periods (0: starved), its % deadlines met, and whether other processes disturbed
 * it or its load was seen stopped. */
struct rep {
	double p99_us, p90_us;
	long samples;
	double met_pct;
	bool disturbed, stopped;
};

/* The "disturbance" object of a disturbed repeat: 23 % of the CPUs taken (host/disturb.h). */
#define HEAVY_DISTURBANCE \
	"{\"cpus\":2,\"outside_cpu_ns\":920000000,\"outside_cpu_ppm\":230000,\"steal_ns\":0,\"steal_ppm\":0}"

/* Writes pair sim/None measured once per r[0..n) to f as JSON results (without the
 * brackets), mean 5 us and max 900 us throughout. */
static void write_reps(FILE *f, const char *sim, const struct rep *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%s{\"simulation\":\"%s\",\"load\":\"None\",\"mode\":\"\",\"repeat\":%u,\"has_deadlines\":true,"
			"\"samples\":%ld,\"periods\":%ld,", i ? "," : "", sim, i + 1, r[i].samples, r[i].samples);
		if (r[i].samples == 0)
			fprintf(f, "\"latency_mean_ns\":null,\"latency_p90_ns\":null,\"latency_p99_ns\":null,"
				"\"latency_max_ns\":null,");
		else
			fprintf(f, "\"latency_mean_ns\":5000,\"latency_p90_ns\":%ld,\"latency_p99_ns\":%ld,"
				"\"latency_max_ns\":900000,", lround(r[i].p90_us * 1e3), lround(r[i].p99_us * 1e3));
		fprintf(f, "\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":%ld%s%s%s}", lround(r[i].met_pct * 1e4),
			r[i].disturbed ? ",\"disturbance\":" HEAVY_DISTURBANCE : "",
			r[i].stopped ? ",\"load_activity\":{\"stopped\":true}" : "", "");
	}
}

/* A JSON document of Audio/None measured once per r[0..n), parsed into *rs. */
static void make_reps(struct result_set *rs, const struct rep *r, unsigned n)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "{\"schema_version\":3,\"generator\":\"interbench\",\"results\":[");
	write_reps(f, "Audio", r, n);
	fprintf(f, "]}");
	fclose(f);
	ck_assert_msg(result_set_parse(buf, len, rs, err, sizeof(err)) == 0, "%s", err);
	free(buf);
}

/* n repeats (at most 8) into r: p99 p99_us and p90 half of it, each times a fixed spread of a few
 * %, samples each, 100 % deadlines met. */
static void steady_reps(struct rep *r, unsigned n, double p99_us, long samples)
{
	static const double jitter[8] = { 1.00, 1.03, 0.98, 1.01, 0.97, 1.02, 0.99, 1.015 };
	ck_assert_uint_le(n, 8);
	for (unsigned i = 0; i < n; i++)
		r[i] = (struct rep){ .p99_us = p99_us * jitter[i], .p90_us = p99_us / 2 * jitter[(i + 3) % 8],
				     .samples = samples, .met_pct = 100 };
}

/* OLD and NEW of n steady repeats (steady_reps, 1000 samples each) of p99 old_us and new_us. */
static void steady_sets(struct result_set *a, struct result_set *b, unsigned n, double old_us, double new_us)
{
	struct rep ra[8], rb[8];
	steady_reps(ra, n, old_us, 1000);
	steady_reps(rb, n, new_us, 1000);
	make_reps(a, ra, n);
	make_reps(b, rb, n);
}

/* A table line of out (the whole line, up to its newline) that starts with prefix, or "". */
static const char *table_line(const char *out, const char *prefix, char *line, size_t len)
{
	const char *p = strstr(out, prefix);
	snprintf(line, len, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
	return line;
}

/* One repeat a side answers nothing: UNKNOWN, exit 3 (0 with --regressions-only), however far
 * the figure moved: a tripled p99 is no regression shown. */
START_TEST(one_subrun_a_side_unknown)
{
	struct result_set a, b;
	char out[8192], line[256];
	steady_sets(&a, &b, 1, 100, 300);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_UNDECIDED);
	table_line(out, "Audio            None     p99 latency", line, sizeof(line));
	ck_assert_msg(strstr(line, "  1:1 ") && strstr(line, "+200.0%") && strstr(line, " UNKNOWN: one sub-run a side"),
		      "%s", out);
	ck_assert_msg(strstr(out, "1 pair compared: 0 regressions; 0 DIFFERENT (0 worse, 0 better), 0 SAME, 2 UNKNOWN "
				  "(exit 3: undecided)\n"), "%s", out);
	struct cmp_thresholds t;
	defaults(&t);
	t.regressions_only = true;
	ck_assert_int_eq(compare_with(&a, &b, &t, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "(exit 0: no regression shown; undecided figures allowed by --regressions-only)"),
		      "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* Five repeats a side, NEW's p99 tripled: DIFFERENT, worse, a regression (exit 1) that
 * --regressions-only does not hide; the other way round DIFFERENT, better, and deadlines met
 * (100 % in every sub-run of 1000 periods) SAME within its point. */
START_TEST(tripled_p99_different_worse)
{
	struct result_set a, b;
	char out[8192], line[256];
	steady_sets(&a, &b, 5, 100, 300);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_REGRESSION);
	table_line(out, "Audio            None     p99 latency", line, sizeof(line));
	ck_assert_msg(strstr(line, "  5:5 ") && strstr(line, " DIFFERENT, worse"), "%s", out);
	table_line(out, "Audio            None     % deadlines met", line, sizeof(line));
	ck_assert_msg(strstr(line, " SAME (within 1 pt)"), "%s", out);
	ck_assert_msg(!strstr(out, "p90 latency"), "%s", out);  /* 1000 samples: p99 is judged */
	ck_assert_msg(strstr(out, "1 pair compared: 1 regression; 1 DIFFERENT (1 worse, 0 better), 1 SAME, 0 UNKNOWN "
				  "(exit 1: a regression)\n"), "%s", out);
	ck_assert_msg(strstr(out, "(Holm 1979, over the 2 judged figures)"), "%s", out);
	struct cmp_thresholds t;
	defaults(&t);
	t.regressions_only = true;
	ck_assert_int_eq(compare_with(&a, &b, &t, NULL, 0), CMP_REGRESSION);
	ck_assert_int_eq(compare_text(&b, &a, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(table_line(out, "Audio            None     p99 latency", line, sizeof(line)),
			     " DIFFERENT, better"), "%s", out);
	ck_assert_msg(strstr(out, "(exit 0: no regression, every judged figure decided)"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* The answer comes first, before the OLD and NEW lines and the rows: its counts and exit
 * status, the error rates it holds to, then each judged figure with the pairs worse or better
 * named and their change. */
START_TEST(decision_first)
{
	struct result_set a, b;
	char out[8192];
	steady_sets(&a, &b, 5, 100, 300);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_REGRESSION);
	const char *want = "Decision: 1 worse, 0 better, 1 same, 0 unknown of the judged figures (exit 1: a regression)\n"
			   "  error rates: a false worse or better at most 5 %, a false same at most 5 % (Holm, 2 tested)\n";
	ck_assert_msg(strncmp(out, want, strlen(want)) == 0, "%s", out);
	const char *p99 = strstr(out, "\n  p99 latency: worse in Audio/None +"), *met = strstr(out, "\n  % deadlines met: same in 1 pair\n");
	const char *old = strstr(out, "\nOLD "), *row = strstr(out, "Audio            None     p99 latency");
	ck_assert_msg(p99 && met && old && row && p99 < old && met < old && old < row, "%s", out);
	ck_assert_int_eq(compare_text(&b, &a, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strncmp(out, "Decision: 0 worse, 1 better, 1 same, 0 unknown of the judged figures (exit 0: no "
				   "regression)\n", 90) == 0, "%s", out);
	ck_assert_msg(strstr(out, "\n  p99 latency: better in Audio/None -"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* The same tight repeats on both sides, a p99 threshold of 50 %: SAME, exit 0; with a
 * threshold narrower than what 5 sub-runs can show (0.1 %), UNKNOWN with the sub-runs a side
 * that would answer. */
START_TEST(tight_repeats_same)
{
	struct rep r[5];
	struct result_set a, b;
	char out[8192], line[256], err[128];
	steady_reps(r, 5, 100, 1000);
	make_reps(&a, r, 5);
	make_reps(&b, r, 5);
	struct cmp_thresholds t;
	defaults(&t);
	ck_assert_int_eq(cmp_parse_thresholds("p99=50", &t, err, sizeof(err)), 0);
	ck_assert_int_eq(compare_with(&a, &b, &t, out, sizeof(out)), CMP_OK);
	table_line(out, "Audio            None     p99 latency", line, sizeof(line));
	ck_assert_msg(strstr(line, "+0.0%") && strstr(line, " SAME (within 50%)"), "%s", out);
	ck_assert_int_eq(cmp_parse_thresholds("p99=0.1", &t, err, sizeof(err)), 0);
	ck_assert_int_eq(compare_with(&a, &b, &t, out, sizeof(out)), CMP_UNDECIDED);
	table_line(out, "Audio            None     p99 latency", line, sizeof(line));
	ck_assert_msg(strstr(line, " UNKNOWN: ~") && strstr(line, " sub-runs a side"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* The p99 is judged only when every usable sub-run of both sides has DECISION_P99_MIN_SAMPLES (368)
 * latency samples ("samples" in the JSON): one NEW sub-run of 100 (Audio's 5 s) or of 367
 * moves the judgement to p90 with p99's threshold, p99 then reported unjudged. */
START_TEST(p90_judged_below_368_samples)
{
	struct rep ra[5], rb[5];
	struct result_set a, b;
	char out[16384], line[256];
	static const long fewest[] = { 100, 367, 368 };
	steady_reps(ra, 5, 100, 1000);
	make_reps(&a, ra, 5);
	for (unsigned k = 0; k < 3; k++) {
		steady_reps(rb, 5, 300, 1000);
		rb[2].samples = fewest[k];
		make_reps(&b, rb, 5);
		bool p90 = fewest[k] < DECISION_P99_MIN_SAMPLES;
		double limit[JM_METRICS];
		struct cmp_thresholds t;
		defaults(&t);
		cmp_pair_limits(&a.pairs[0], &b.pairs[0], &t, limit);
		ck_assert(p90 ? limit[JM_P90] == 10 && isnan(limit[JM_P99]) : limit[JM_P99] == 10 && isnan(limit[JM_P90]));
		t.json = json_object();
		ck_assert_int_eq(compare_with(&a, &b, &t, out, sizeof(out)), CMP_REGRESSION);
		table_line(out, "Audio            None     p90 latency", line, sizeof(line));
		ck_assert_msg(p90 ? strstr(line, " DIFFERENT, worse") != NULL : !*line, "%ld: %s", fewest[k], out);
		table_line(out, "Audio            None     p99 latency", line, sizeof(line));
		ck_assert_msg(strstr(line, "+200.0%"), "%s", out);
		ck_assert_msg(p90 ? !strstr(line, "DIFFERENT") : strstr(line, " DIFFERENT, worse") != NULL, "%s", out);
		const json_t *fig = json_object_get(t.json, "figures"), *e;
		size_t i;
		unsigned seen = 0;
		json_array_foreach(fig, i, e) {
			const char *name = json_string_value(json_object_get(e, "figure"));
			bool judged = json_is_number(json_object_get(e, "threshold"));
			if (strcmp(name, "p99 latency") == 0 || strcmp(name, "p90 latency") == 0) {
				seen++;
				ck_assert_msg(judged == (p90 == (strcmp(name, "p90 latency") == 0)), "%ld: %s", fewest[k], name);
				ck_assert_str_eq(json_string_value(json_object_get(e, "answer")), judged ? "DIFFERENT" : "-");
			}
		}
		ck_assert_uint_eq(seen, p90 ? 2 : 1);
		json_decref(t.json);
		result_set_free(&b);
	}
	result_set_free(&a);
}
END_TEST

/* A disturbed repeat, or one whose load was seen stopped, is left out of the decisions (Runs
 * 4:5), however far off its figures, and warned of; the others still decide. */
START_TEST(disturbed_subrun_left_out)
{
	struct rep ra[5], rb[5];
	struct result_set a, b;
	char out[8192], line[256];
	steady_reps(ra, 5, 100, 1000);
	steady_reps(rb, 5, 100, 1000);
	ra[3].disturbed = true;
	ra[3].p99_us = 5000;
	ra[3].met_pct = 10;
	make_reps(&a, ra, 5);
	make_reps(&b, rb, 5);
	ck_assert_uint_eq(a.pairs[0].disturbed, 1);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Warning: Audio/None: 1 of OLD's 5 sub-runs disturbed (outside CPU 23 %): left out of "
				  "its answers\n"), "%s", out);
	table_line(out, "Audio            None     p99 latency", line, sizeof(line));
	ck_assert_msg(strstr(line, "  4:5 ") && strstr(line, " SAME (within 10%)"), "%s", out);
	result_set_free(&b);
	rb[1].stopped = true;
	rb[1].p99_us = 5000;
	make_reps(&b, rb, 5);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Warning: Audio/None: 1 of NEW's 5 sub-runs ran with their load stopped: left out of "
				  "its answers\n"), "%s", out);
	ck_assert_msg(strstr(table_line(out, "Audio            None     p99 latency", line, sizeof(line)), "  4:4 "),
		      "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* What marks a sub-run is read per repeat: a JSON result's "disturbance" past the levels and
 * its "load_activity" "stopped", its "samples" and "periods" (NaN when absent); a logfile's
 * "* disturbed:" and "* load stopped:" lines under the row they follow. */
START_TEST(subrun_marks_read)
{
	struct rep r[3];
	struct result_set rs;
	steady_reps(r, 3, 100, 1000);
	r[1].disturbed = true;
	r[2].stopped = true;
	r[2].samples = 100;
	make_reps(&rs, r, 3);
	const struct rs_pair *p = &rs.pairs[0];
	ck_assert_uint_eq(p->n, 3);
	ck_assert_uint_eq(p->disturbed, 1);
	ck_assert_uint_eq(p->load_stopped, 1);
	ck_assert(!p->v[0].disturbed && !p->v[0].load_stopped);
	ck_assert(p->v[1].disturbed && !p->v[1].load_stopped);
	ck_assert(!p->v[2].disturbed && p->v[2].load_stopped);
	ck_assert_double_eq(p->v[0].samples, 1000);
	ck_assert_double_eq(p->v[2].samples, 100);
	ck_assert_double_eq(p->v[2].periods, 100);
	ck_assert_double_eq_tol(p->v[0].m[JM_P90], 50500, 1e-6);  /* 100 us / 2 x steady_reps' 1.01 */
	result_set_free(&rs);
	make_set_samples = -1;
	make_set(&rs, 1, 100000, 0, 100);  /* no "samples" nor "periods": not said */
	make_set_samples = 1000;
	ck_assert(isnan(rs.pairs[0].v[0].samples) && isnan(rs.pairs[0].v[0].periods));
	result_set_free(&rs);
	static const char log[] =
		"--- Benchmarking simulated cpu of Video in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"Burn         0.127 +/- 0.03             0.253             100              3.8 *\n"
		"          * disturbed: other processes took 23.4 % of the run's CPUs during this pair (1.5 % steal)\n"
		"None         0.127 +/- 0.03             0.253             100              100\n"
		"          * load stopped: None was stopped at 9 of 10 looks during this pair's window and used 0.21 s "
		"of CPU in its 3.0 s: it did not load the machine as the row says\n";
	parse_ok(log, &rs);
	const struct rs_pair *burn = result_set_find(&rs, "Video", "Burn"), *none = result_set_find(&rs, "Video", "None");
	ck_assert(burn->v[0].disturbed && !burn->v[0].load_stopped);
	ck_assert(!none->v[0].disturbed && none->v[0].load_stopped);
	result_set_free(&rs);
}
END_TEST

/* Every sub-run of NEW disturbed: nothing left to decide on, "its sub-runs left out", exit 3;
 * never a pass. */
START_TEST(all_disturbed_unknown)
{
	struct rep ra[5], rb[5];
	struct result_set a, b;
	char out[8192], line[256];
	steady_reps(ra, 5, 100, 1000);
	steady_reps(rb, 5, 300, 1000);
	for (unsigned i = 0; i < 5; i++)
		rb[i].disturbed = true;
	make_reps(&a, ra, 5);
	make_reps(&b, rb, 5);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_UNDECIDED);
	table_line(out, "Audio            None     p99 latency", line, sizeof(line));
	ck_assert_msg(strstr(line, "  5:0 ") && strstr(line, " UNKNOWN: its sub-runs left out"), "%s", out);
	ck_assert_msg(strstr(out, "0 regressions;") && !strstr(out, "REGRESSION"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* The JSON of a comparison: each judged figure's decision (doc/json.md), the family and the
 * count of answers. */
START_TEST(json_decision_keys)
{
	static const char *const keys[] = { "simulation", "load", "figure", "unit", "old", "new", "change", "change_ci",
					     "change_unit", "verdict", "subruns_old", "subruns_new", "answer", "worse",
					     "threshold", "p_different", "p_same", "p_different_holm", "p_same_holm",
					     "subruns_needed", "why" };
	struct result_set a, b;
	steady_sets(&a, &b, 5, 100, 300);
	struct cmp_thresholds t;
	defaults(&t);
	t.json = json_object();
	ck_assert_int_eq(compare_with(&a, &b, &t, NULL, 0), CMP_REGRESSION);
	const json_t *fig = json_object_get(t.json, "figures"), *e, *p99 = NULL;
	size_t i;
	ck_assert_uint_ge(json_array_size(fig), 2);
	json_array_foreach(fig, i, e) {
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			ck_assert_msg(json_object_get(e, keys[k]), "no %s in figures[%zu]", keys[k], i);
		ck_assert_ptr_null(json_object_get(e, "p"));
		if (strcmp(json_string_value(json_object_get(e, "figure")), "p99 latency") == 0)
			p99 = e;
	}
	ck_assert_ptr_nonnull(p99);
	ck_assert_str_eq(json_string_value(json_object_get(p99, "verdict")), "DIFFERENT, worse");
	ck_assert_str_eq(json_string_value(json_object_get(p99, "answer")), "DIFFERENT");
	ck_assert(json_is_true(json_object_get(p99, "worse")));
	ck_assert_int_eq(json_integer_value(json_object_get(p99, "subruns_old")), 5);
	ck_assert_int_eq(json_integer_value(json_object_get(p99, "subruns_new")), 5);
	ck_assert_double_eq(json_number_value(json_object_get(p99, "threshold")), 10);
	double pd = json_number_value(json_object_get(p99, "p_different"));
	double pdh = json_number_value(json_object_get(p99, "p_different_holm"));
	ck_assert(pd < 0.05 && pdh >= pd && pdh <= 2 * pd + 1e-12);  /* Holm over 2: at most twice */
	ck_assert(json_is_null(json_object_get(p99, "why")) && json_is_null(json_object_get(p99, "subruns_needed")));
	ck_assert_double_eq_tol(json_number_value(json_object_get(p99, "change")), 200, 5);
	const json_t *fam = json_object_get(t.json, "family"), *ans = json_object_get(t.json, "answers");
	ck_assert_int_eq(json_integer_value(json_object_get(fam, "size")), 2);
	ck_assert_double_eq(json_number_value(json_object_get(fam, "alpha")), 0.05);
	ck_assert_str_eq(json_string_value(json_object_get(fam, "method")), "holm");
	ck_assert_int_eq(json_integer_value(json_object_get(ans, "different")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(ans, "worse")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(ans, "better")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(ans, "same")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(ans, "unknown")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(t.json, "regressions")), 1);
	json_decref(t.json);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

static const char seed_tables[] =
	"    --- Benchmarking X in the presence of loads ---\n"
	"    Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\n"
	"    None 0.495 +/- 0.495 45 100 96\n"
	"\n"
	"    Benchmarking kernel 2.6.13-rc1 with datestamp 200507121411\n"
	"\n"
	"    --- Benchmarking Audio in the presence of loads ---\n"
	"    Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\n"
	"    None 0.003 +/- 0 0.005 100 100\n"
	"    Compile 4.59 +/- 5.74 426 96.5 94\n"
	"\n"
	"    Benchmarking kernel 2.6.12-rc6-ck1 with datestamp 200507121345\n"
	"\n"
	"    --- Benchmarking Audio in the presence of loads ---\n"
	"    Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\n"
	"    None 0.003 +/- 0 0.005 100 100\n"
	"    Video 0.003 +/- 0 0.004 100 100\n"
	"    X 2.53 +/- 3.01 11 100 100\n"
	"\n"
	"    --- Benchmarking Video in the presence of loads ---\n"
	"    Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\n"
	"    Burn 0.837 +/- 2.49 50 97.7 95.5\n"
	"\n"
	"    (any trailing text that is not a table)\n";

/* A table header of more columns than the reader keeps (31 words after % Deadlines Met, the
 * last the first word of a two-word label): read up to its bound, never past the words it has
 * (the fuzzer found the reader looking one word beyond).  The columns kept are 31, "timer" the
 * last: a row needs its 7 classic fields and 31 more, a shorter one is refused by line, and
 * "p99" past the bound is no p99 column. */
START_TEST(header_of_too_many_columns)
{
	char log[2048] = "Kernel version #1\n--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
			 "Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met";
	for (int i = 0; i < 30; i++)
		strcat(log, " p50");
	strcat(log, " timer p99 late max\n");
	size_t header_len = strlen(log);
	struct result_set rs;
	char err[256];
	strcat(log, "None 0.1 +/- 0.01 0.2 100 100\n");
	ck_assert_int_eq(result_set_parse(log, strlen(log), &rs, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "line 4: malformed or truncated row for Audio");
	log[header_len] = '\0';
	strcat(log, "None 0.1 +/- 0.01 0.2 100 97");
	for (int i = 0; i < 31; i++)
		strcat(log, " 0.3");
	strcat(log, "\n");
	ck_assert_msg(result_set_parse(log, strlen(log), &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 1);
	ck_assert_str_eq(rs.pairs[0].sim, "Audio");
	ck_assert_str_eq(rs.pairs[0].load, "None");
	ck_assert_uint_eq(rs.pairs[0].n, 1);
	const struct rs_values *v = &rs.pairs[0].v[0];
	ck_assert_double_eq_tol(v->m[JM_SMEAN], 100000, 1e-6);  /* a log of ours without the definitions line */
	ck_assert_double_eq_tol(v->m[JM_SMAX], 200000, 1e-6);
	ck_assert_double_eq(v->m[JM_CPU], 100);
	ck_assert_double_eq(v->m[JM_MET], 97);
	ck_assert(isnan(v->m[JM_P99]));
	result_set_free(&rs);
}
END_TEST

START_TEST(seed_logfile)
{
	struct result_set rs;
	char err[256];
	ck_assert_msg(result_set_parse(seed_tables, sizeof(seed_tables) - 1, &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(rs.format, "logfile");
	ck_assert_uint_eq(rs.n, 4); /* the last run only */
	ck_assert(!rs.has[JM_P99]);
	ck_assert_ptr_null(result_set_find(&rs, "Audio", "Compile"));
	const struct rs_pair *p = result_set_find(&rs, "Audio", "X");
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(p->v[0].m[JM_MEAN], 2.53e6, 1e-3);
	ck_assert_double_eq_tol(p->v[0].m[JM_MAX], 11e6, 1e-3);
	p = result_set_find(&rs, "Video", "Burn");
	ck_assert_double_eq(p->v[0].m[JM_CPU], 97.7);
	ck_assert_double_eq(p->v[0].m[JM_MET], 95.5);
	result_set_free(&rs);
}
END_TEST

START_TEST(v031_and_own_logfiles)
{
	static const char v031[] =
		"Benchmarking kernel 2.6.20 at datestamp 200702211200\n\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU  % Deadlines Met\n"
		"None\t  0.003 +/- 0.000    0.005\t\t 100\t        100\n"
		"Burn\t  0.018 +/- 0.021    0.119\t\t 100\t        100\n\n"
		"--- Benchmarking simulated cpu of Gaming in the presence of simulated ---\n"
		"Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU\n"
		"None\t     0 +/- 0         0\t\t 100\n";
	/* Our own logfile, verbatim from real runs (report/sink.c writes it): a plain run, then a
	 * -v run appended to the same file in which Audio/Burn's load was SIGKILLed and the run was
	 * interrupted by SIGINT during Video/Ring; the loads' throughput lines under the rows. */
	static const char ours[] =
		"Using 3691921 loops per ms (saved), running every load for 1 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220144\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		"Comment: test\n"
		"\n"
		"\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"None         0.132 +/- 0.0316            0.21             100              100\n"
		"Burn        0.0193 +/- 0.0376           0.178             100              100\n"
		"          load: Burn 6.98G loops/s\n"
		"Using 3691921 loops per ms (saved), running every load for 2 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220144\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		"Comment: verbose, failed, interrupted\n"
		"\n"
		"\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met        p50        p90"
		"        p99      p99.9  timer p99  timer max\n"
		"Burn      failed: load process ended without a result (killed by signal 9 (Killed))\n"
		"Ring        0.0378 +/- 0.0152           0.101             100              100     0.0358     0.0486"
		"      0.101      0.101      0.082      0.082\n"
		"          95% CI: mean sched latency 0.0331-0.0425 ms, p99 latency 0.0612-0.101 ms, % deadlines met 100-100\n"
		"          load: Ring 58.0K wakeups/s\n"
		"\n"
		"--- Benchmarking simulated cpu of Video in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met        p50        p90"
		"        p99      p99.9  timer p99  timer max\n"
		"Burn         0.849 +/- 1.75              8.98            96.6             71.4     0.0089       3.62"
		"       5.57       8.98       1.54       1.54\n"
		"          load: Burn 5.47G loops/s\n"
		"Ring      failed: interrupted before the bench started\n"
		"          load: Ring 36.8K wakeups/s\n"
		"\n"
		"*** interrupted: the results above are what was measured before the signal (Interrupt)\n";
	/* A real -r -v --repeat 2 run: microseconds, medians with the range of the means, one
	 * throughput line per repeat. */
	static const char ours_repeats[] =
		"Using 3691921 loops per ms (saved), running every load for 1 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220144\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		"\n"
		"\n"
		"--- Benchmarking simulated cpu of Video real time in the presence of simulated ---\n"
		"Load      Latency +/- SD (us)    Max Latency   % Desired CPU  % Deadlines Met        p50        p90"
		"        p99      p99.9  timer p99  timer max   Mean range of 2\n"
		"None          29.8 +/- 8.12                52             100              100       27.8       40.1"
		"         52         52        208        208   25.7-34\n"
		"Burn           135 +/- 204                891             100              100       57.6        458"
		"        891        891        523        523   30.5-240\n"
		"          load (one repeat): Burn 3.33G loops/s\n"
		"          load (one repeat): Burn 3.22G loops/s\n";
	struct result_set rs;
	char err[256];
	ck_assert_msg(result_set_parse(v031, sizeof(v031) - 1, &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 3);
	ck_assert_double_eq_tol(result_set_find(&rs, "Audio", "Burn")->v[0].m[JM_MAX], 119000, 1e-6);
	ck_assert(isnan(result_set_find(&rs, "Gaming", "None")->v[0].m[JM_MET]));
	result_set_free(&rs);
	ck_assert_msg(result_set_parse(ours, sizeof(ours) - 1, &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 4); /* the last run only: no Audio/None */
	ck_assert_ptr_null(result_set_find(&rs, "Audio", "None"));
	ck_assert(rs.has[JM_P99]);
	const struct rs_pair *p = result_set_find(&rs, "Audio", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 0);
	ck_assert_uint_eq(p->failed, 1);
	ck_assert_str_eq(p->why, "load process ended without a result (killed by signal 9 (Killed))");
	p = result_set_find(&rs, "Audio", "Ring");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 1);
	ck_assert(isnan(p->v[0].m[JM_MEAN]));  /* a log of ours before the definitions line: */
	ck_assert_double_eq_tol(p->v[0].m[JM_SMEAN], 37800, 1e-6); /* its classic mean is scheduling latency */
	ck_assert_double_eq_tol(p->v[0].m[JM_P99], 101000, 1e-6);
	ck_assert_double_eq_tol(p->v[0].m[JM_MET], 100, 1e-9);
	p = result_set_find(&rs, "Video", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(p->v[0].m[JM_P99], 5.57e6, 1e-3);
	ck_assert_double_eq_tol(p->v[0].m[JM_CPU], 96.6, 1e-9);
	ck_assert_double_eq_tol(p->v[0].m[JM_MET], 71.4, 1e-9);
	p = result_set_find(&rs, "Video", "Ring");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 0);
	ck_assert_str_eq(p->why, "interrupted before the bench started");
	result_set_free(&rs);
	ck_assert_msg(result_set_parse(ours_repeats, sizeof(ours_repeats) - 1, &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 2);
	p = result_set_find(&rs, "Video real time", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 1);
	ck_assert_double_eq_tol(p->v[0].m[JM_SMEAN], 135000, 1e-6);
	ck_assert_double_eq_tol(p->v[0].m[JM_P99], 891000, 1e-6);
	result_set_free(&rs);
	/* Every truncation is either read or refused with one line; never a crash. */
	const char *const texts[] = { ours, ours_repeats };
	for (size_t t = 0; t < 2; t++)
		for (size_t cut = 0; cut < strlen(texts[t]); cut++) {
			err[0] = '\0';
			if (result_set_parse(texts[t], cut, &rs, err, sizeof(err)) == 0)
				result_set_free(&rs);
			else
				ck_assert(err[0] && !strchr(err, '\n'));
		}
	const char *bad[] = { "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (s) Max\n",
			      "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (ms) % Desired CPU\nNone 1 +/- x 1 1\n",
			      "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (ms) % Desired CPU\nNone -1 +/- 1 1 1\n",
			      "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (ms) % Desired CPU\nNone 1 +/- 1 1 1001\n",
			      "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (ms) % Desired CPU\nNone nan +/- 1 1 1\n",
			      "--- Benchmarking in the presence of x ---\n", "just some text\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(result_set_parse(bad[i], strlen(bad[i]), &rs, err, sizeof(err)) == -1, "accepted %s", bad[i]);
}
END_TEST

/* A window cut short by a signal is a partial measurement: compare must not weigh it against a
 * whole one.  The logfile marks it under its row, the JSON with "interrupted": true; both read
 * as a failed pair with RS_INTERRUPTED_WHY.  The logfile text is a real run, SIGINT mid-Burn. */
START_TEST(interrupted_windows_left_out)
{
	static const char log[] =
		"Using 3610277 loops per ms (saved), running every load for 3 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220154\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		"Comment: interrupted mid-pair\n"
		"\n"
		"\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"None        0.0171 +/- 0.00495         0.0415             100              100\n"
		"Burn          37.7 +/- 96.9               446              70               50\n"
		"          load: Burn 2.15G loops/s\n"
		"          interrupted: measured for 1.5 of 3 s\n"
		"\n"
		"*** interrupted: the results above are what was measured before the signal (Interrupt)\n";
	static const char json[] =
		"{\"schema_version\":1,\"generator\":\"interbench\",\"results\":["
		"{\"simulation\":\"Audio\",\"load\":\"Burn\",\"mode\":\"\",\"interrupted\":true,"
		"\"has_deadlines\":true,\"latency_mean_ns\":1,\"latency_p99_ns\":1,\"latency_max_ns\":1,"
		"\"desired_cpu_ppm\":1,\"deadlines_met_ppm\":1}]}";
	const char *const texts[] = { log, json };
	for (size_t t = 0; t < 2; t++) {
		struct result_set rs;
		char err[256];
		ck_assert_msg(result_set_parse(texts[t], strlen(texts[t]), &rs, err, sizeof(err)) == 0, "%s", err);
		const struct rs_pair *p = result_set_find(&rs, "Audio", "Burn");
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(p->n, 0);
		ck_assert_uint_eq(p->failed, 1);
		ck_assert_str_eq(p->why, RS_INTERRUPTED_WHY);
		if (t == 0)
			ck_assert_uint_eq(result_set_find(&rs, "Audio", "None")->n, 1);
		result_set_free(&rs);
	}
}
END_TEST

/* A starved pair in NEW (no latency sample: "-" in the log, null in JSON) is a regression,
 * never a 100% improvement; starved in both is not compared; an interrupted pair in NEW is
 * left out, not a regression; a hex figure in a log row is refused. */
START_TEST(starved_interrupted_and_hex)
{
	static const char head[] =
		"Using 3610277 loops per ms (saved), running every load for 3 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220154\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 1024 load threads\n\n\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n";
	char old_text[1024], starved_text[1024], hex_text[1024], err[256];
	snprintf(old_text, sizeof(old_text), "%sBurn          0.02 +/- 0.01            0.05             100              100\n", head);
	snprintf(starved_text, sizeof(starved_text), "%sBurn             - +/- -                  -               0                0\n", head);
	snprintf(hex_text, sizeof(hex_text), "%sBurn          0x10 +/- 0.01            0.05             100              100\n", head);
	struct result_set old, starved, json_starved, interrupted, hex;
	ck_assert_int_eq(result_set_parse(old_text, strlen(old_text), &old, err, sizeof(err)), 0);
	ck_assert_msg(result_set_parse(starved_text, strlen(starved_text), &starved, err, sizeof(err)) == 0, "%s", err);
	ck_assert(result_set_find(&starved, "Audio", "Burn")->v[0].no_samples);
	ck_assert_int_eq(verdict(&old, &starved), CMP_REGRESSION);
	ck_assert_int_eq(verdict(&starved, &starved), CMP_UNDECIDED);  /* starved in both: nothing compared */
	static const char json[] =
		"{\"schema_version\":1,\"generator\":\"interbench 1.0.0\",\"results\":["
		"{\"simulation\":\"Audio\",\"load\":\"Burn\",\"mode\":\"\",\"has_deadlines\":true,\"samples\":0,"
		"\"latency_mean_ns\":null,\"latency_p99_ns\":null,\"latency_max_ns\":null,"
		"\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	ck_assert_msg(result_set_parse(json, strlen(json), &json_starved, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(verdict(&old, &json_starved), CMP_REGRESSION);
	ck_assert_int_eq(verdict(&json_starved, &old), CMP_UNDECIDED);          /* never an improvement either */
	ck_assert_int_eq(verdict(&json_starved, &json_starved), CMP_UNDECIDED); /* nothing to compare */
	static const char cut[] =
		"{\"schema_version\":1,\"generator\":\"interbench\",\"results\":["
		"{\"simulation\":\"Audio\",\"load\":\"Burn\",\"mode\":\"\",\"interrupted\":true,\"has_deadlines\":true,"
		"\"latency_mean_ns\":1,\"latency_p99_ns\":1,\"latency_max_ns\":1,\"desired_cpu_ppm\":1,\"deadlines_met_ppm\":1}]}";
	ck_assert_int_eq(result_set_parse(cut, strlen(cut), &interrupted, err, sizeof(err)), 0);
	ck_assert_int_eq(verdict(&old, &interrupted), CMP_UNDECIDED);
	ck_assert_int_eq(result_set_parse(hex_text, strlen(hex_text), &hex, err, sizeof(err)), -1);
	char exp_text[1024];  /* interbench 0.31 prints %g: an exponent is a figure */
	snprintf(exp_text, sizeof(exp_text), "%sBurn      1.5e-05 +/- 2e-06            0.05             100              100\n", head);
	ck_assert_msg(result_set_parse(exp_text, strlen(exp_text), &hex, err, sizeof(err)) == 0, "%s", err);
	ck_assert_double_eq_tol(result_set_find(&hex, "Audio", "Burn")->v[0].m[JM_SMEAN], 15, 1e-9);
	result_set_free(&hex);
	result_set_free(&old);
	result_set_free(&starved);
	result_set_free(&json_starved);
	result_set_free(&interrupted);
}
END_TEST

/* Writes a JSON document of Audio/None measured once per r[0..n) to dir/name; its path into
 * path (256 bytes). */
static void write_doc(const char *dir, const char *name, const struct rep *r, unsigned n, char *path)
{
	snprintf(path, 256, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "{\"schema_version\":3,\"generator\":\"interbench\",\"results\":[");
	write_reps(f, "Audio", r, n);
	fprintf(f, "]}");
	ck_assert_int_eq(fclose(f), 0);
}

/* compare_main's status for argv (NULL-terminated), its text discarded. */
static int compare_argv(char **argv)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	FILE *null = fopen("/dev/null", "w");
	int rc = compare_main(argc, argv, null, null);
	fclose(null);
	return rc;
}

/* The exit statuses through the command line: 2 for bad input, 3 for one sub-run a side (0
 * with --regressions-only), 1 for a tripled p99 (with --regressions-only too), 0 for the same
 * tight repeats; --json records the status. */
START_TEST(exit_statuses)
{
	struct result_set a, b;
	char *none[] = { "compare", "/nonexistent.json", "/nonexistent2.json", NULL };
	char *one[] = { "compare", "x", NULL };
	char *badt[] = { "compare", "--threshold", "p99=x", "a", "b", NULL };
	ck_assert_int_eq(compare_argv(none), CMP_BAD_INPUT);
	ck_assert_int_eq(compare_argv(one), CMP_BAD_INPUT);
	ck_assert_int_eq(compare_argv(badt), CMP_BAD_INPUT);
	/* No pair in common. */
	make_set(&a, 1, 100000, 0, 100);
	static const char other[] = "--- Benchmarking X in the presence of loads ---\n"
		"Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\nBurn 1 +/- 1 2 100 100\n";
	ck_assert_int_eq(result_set_parse(other, sizeof(other) - 1, &b, (char[64]){ 0 }, 64), 0);
	ck_assert_int_eq(verdict(&a, &b), CMP_BAD_INPUT);
	result_set_free(&a);
	result_set_free(&b);
	char dir[] = "/tmp/check_compare.XXXXXX", one_a[256], one_b[256], five_a[256], five_b[256], json[256];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct rep ra[5], rb[5];
	steady_reps(ra, 5, 100, 1000);
	steady_reps(rb, 5, 300, 1000);
	write_doc(dir, "one_a.json", ra, 1, one_a);
	write_doc(dir, "one_b.json", rb, 1, one_b);
	write_doc(dir, "five_a.json", ra, 5, five_a);
	write_doc(dir, "five_b.json", rb, 5, five_b);
	snprintf(json, sizeof(json), "%s/cmp.json", dir);
	char *undecided[] = { "compare", one_a, one_b, NULL };
	char *undecided_only[] = { "compare", "--regressions-only", one_a, one_b, NULL };
	char *worse[] = { "compare", "--json", json, five_a, five_b, NULL };
	char *worse_only[] = { "compare", "--regressions-only", five_a, five_b, NULL };
	char *same[] = { "compare", "--threshold", "p99=50", five_a, five_a, NULL };
	char *same_not_five[] = { "compare", "--threshold", "p99=50", five_a, five_b, NULL };
	ck_assert_int_eq(compare_argv(undecided), CMP_UNDECIDED);
	ck_assert_int_eq(compare_argv(undecided_only), CMP_OK);
	ck_assert_int_eq(compare_argv(worse), CMP_REGRESSION);
	ck_assert_int_eq(compare_argv(worse_only), CMP_REGRESSION);
	ck_assert_int_eq(compare_argv(same), CMP_OK);
	ck_assert_int_eq(compare_argv(same_not_five), CMP_REGRESSION);
	json_t *doc = json_load_file(json, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "exit_status")), CMP_REGRESSION);
	json_decref(doc);
	const char *const files[] = { one_a, one_b, five_a, five_b, json };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		ck_assert_int_eq(unlink(files[i]), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST


/* A JSON result of Video against Burn, deadlines_met_ppm met, with disturbance (a JSON
 * object's text, or "" for none). */
static void video_doc(char *buf, size_t len, long met, const char *disturbance)
{
	snprintf(buf, len, "{\"schema_version\":2,\"generator\":\"interbench\",\"results\":[{\"simulation\":\"Video\","
		 "\"load\":\"Burn\",\"mode\":\"\",\"repeat\":1,\"has_deadlines\":true,\"latency_mean_ns\":5000,"
		 "\"latency_p99_ns\":9000,\"latency_max_ns\":90000,\"desired_cpu_ppm\":1000000,"
		 "\"deadlines_met_ppm\":%ld%s%s}]}", met, disturbance[0] ? ",\"disturbance\":" : "", disturbance);
}

/* A pair disturbed in either result is warned of and its disturbed sub-runs left out: with
 * one repeat a side nothing is left, UNKNOWN "its sub-runs left out", exit 3, never a pass
 * nor a regression; below the levels, or without the object, the sub-run counts as usual (one
 * a side: UNKNOWN, one sub-run a side). */
START_TEST(disturbed_pairs_not_judged)
{
	static const char heavy[] = HEAVY_DISTURBANCE;
	static const char light[] = "{\"cpus\":2,\"outside_cpu_ns\":40000000,\"outside_cpu_ppm\":10000,"
				    "\"steal_ns\":0,\"steal_ppm\":0}";
	static const char stolen[] = "{\"cpus\":2,\"outside_cpu_ns\":120000000,\"outside_cpu_ppm\":30000,"
				     "\"steal_ns\":120000000,\"steal_ppm\":30000}";
	char old_doc[1024], new_doc[1024], out[8192], line[256];
	struct result_set a, b;
	video_doc(old_doc, sizeof(old_doc), 995000, "");
	parse_ok(old_doc, &a);
	video_doc(new_doc, sizeof(new_doc), 38000, heavy);
	parse_ok(new_doc, &b);
	ck_assert_uint_eq(b.pairs[0].disturbed, 1);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: Video/Burn: 1 of NEW's 1 sub-runs disturbed (outside CPU 23 %): left out "
				  "of its answers\n"), "%s", out);
	table_line(out, "Video            Burn     % deadlines met", line, sizeof(line));
	ck_assert_msg(strstr(line, "  1:0 ") && strstr(line, " UNKNOWN: its sub-runs left out"), "%s", out);
	ck_assert_msg(!strstr(out, "REGRESSION") && strstr(out, "0 regressions"), "%s", out);
	/* in OLD: the same */
	ck_assert_int_eq(compare_text(&b, &a, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: Video/Burn: 1 of OLD's 1 sub-runs disturbed"), "%s", out);
	result_set_free(&b);
	/* steal past its level alone */
	video_doc(new_doc, sizeof(new_doc), 38000, stolen);
	parse_ok(new_doc, &b);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "1 of NEW's 1 sub-runs disturbed (outside CPU 3 %)"), "%s", out);
	result_set_free(&b);
	/* a light disturbance: no warning, the sub-run used (and alone: no answer) */
	video_doc(new_doc, sizeof(new_doc), 38000, light);
	parse_ok(new_doc, &b);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_UNDECIDED);
	table_line(out, "Video            Burn     % deadlines met", line, sizeof(line));
	ck_assert_msg(!strstr(out, "Warning:") && strstr(line, "  1:1 ") && strstr(line, "UNKNOWN: one sub-run a side"),
		      "%s", out);
	result_set_free(&b);
	/* a malformed object is refused */
	char err[256];
	video_doc(new_doc, sizeof(new_doc), 38000, "{\"outside_cpu_ppm\":-1,\"steal_ppm\":0}");
	ck_assert_int_eq(result_set_parse(new_doc, strlen(new_doc), &b, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "out of range"), "%s", err);
	result_set_free(&a);
}
END_TEST

/* Our logfile's marked row and the line under it: the pair is disturbed, its share read. */
START_TEST(disturbed_logfile_row)
{
	static const char log[] =
		"--- Benchmarking simulated cpu of Video in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"Burn         0.127 +/- 0.03             0.253             100              3.8 *\n"
		"          * disturbed: other processes took 23.4 % of the run's CPUs during this pair (1.5 % steal)\n"
		"None         0.127 +/- 0.03             0.253             100              100\n";
	struct result_set rs;
	parse_ok(log, &rs);
	ck_assert_uint_eq(rs.n, 2);
	const struct rs_pair *p = result_set_find(&rs, "Video", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 1);
	ck_assert_uint_eq(p->disturbed, 1);
	ck_assert_double_eq_tol(p->outside_cpu_pct, 23.4, 1e-9);
	ck_assert_double_eq_tol(p->steal_pct, 1.5, 1e-9);
	ck_assert_double_eq_tol(p->v[0].m[JM_MET], 3.8, 1e-9);
	ck_assert_uint_eq(result_set_find(&rs, "Video", "None")->disturbed, 0);
	result_set_free(&rs);
}
END_TEST

/* The Simulation and Load columns widen for longer names (a sweep's or -r's words), so every
 * row's load stands under "Load". */
START_TEST(wide_names_aligned)
{
	static const char doc[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"results\":[{\"simulation\":\"ProAudio\","
		"\"load\":\"Burn\",\"mode\":\"SCHED_BATCH nice -10\",\"repeat\":1,\"has_deadlines\":true,"
		"\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,\"latency_max_ns\":90000,"
		"\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	struct result_set a, b;
	parse_ok(doc, &a);
	parse_ok(doc, &b);
	char out[8192];
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_UNDECIDED);
	const char *head = strstr(out, "\nSimulation"), *row = strstr(out, "\nProAudio SCHED_BATCH nice -10 ");
	ck_assert_msg(head && row, "%s", out);
	const char *load_col = strstr(head, " Load "), *burn_col = strstr(row, " Burn ");
	ck_assert_msg(load_col && burn_col, "%s", out);
	ck_assert_int_eq(load_col - head, burn_col - row);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* The legend line logs of earlier builds carried in their header, whole on one line (report/
 * table.h TABLE_DEFINITIONS_PREFIX begins it, as it begins the legend now). */
#define DEFINITIONS_LINE_BEFORE TABLE_DEFINITIONS_PREFIX " (scheduling latency plus one period per " \
	"missed deadline); -v: p50-p99.9 scheduling latency, timer = timer latency, late = lateness, " \
	"cpu % = the task's CPU time / its run time, streak = the longest run of missed deadlines, " \
	"frame = completion to completion"

/* Mean and max latency are compared only in a definition both results carry. */
START_TEST(latency_definitions)
{
	static const char table[] =
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"Burn         0.05 +/- 0.01              0.2             100              100\n";
	char v031[1024], ours_old[1024], ours_new[1024], out[8192];
	snprintf(v031, sizeof(v031), "Benchmarking kernel 2.6.20 at datestamp 200702211200\n\n%s", table);
	snprintf(ours_old, sizeof(ours_old), "Benchmarking kernel 6.1 at datestamp 202611220000\n"
		 "Kernel version #1 SMP, 2 CPUs online, 2 load threads\n\n%s", table);
	snprintf(ours_new, sizeof(ours_new), "Benchmarking kernel 6.1 at datestamp 202611220000\n"
		 "Kernel version #1 SMP, 2 CPUs online, 2 load threads\n%s\n\n%s", DEFINITIONS_LINE_BEFORE, table);
	struct result_set a, b, c, j1, j2;
	parse_ok(v031, &a);
	parse_ok(ours_old, &b);
	parse_ok(ours_new, &c);
	ck_assert(a.has[JM_MEAN] && !a.has[JM_SMEAN]);   /* interbench 0.31: its own definition */
	ck_assert(!b.has[JM_MEAN] && b.has[JM_SMEAN]);   /* ours before the definitions line */
	ck_assert(c.has[JM_MEAN] && !c.has[JM_SMEAN]);
	ck_assert_int_eq(compare_text(&b, &c, out, sizeof(out)), CMP_BAD_INPUT);
	ck_assert_msg(strstr(out, "not comparable"), "%s", out);
	ck_assert_int_eq(compare_text(&c, &b, out, sizeof(out)), CMP_BAD_INPUT);
	ck_assert_int_eq(compare_text(&a, &c, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Latency compared: mean and max in interbench 0.31's definition"), "%s", out);
	ck_assert_msg(strstr(out, "mean latency") && !strstr(out, "sched latency"), "%s", out);
	/* JSON: a document from before the new keys against a new one compares scheduling latency. */
	static const char old_json[] =
		"{\"schema_version\":1,\"generator\":\"interbench\",\"results\":[{\"simulation\":\"Audio\",\"load\":\"Burn\","
		"\"mode\":\"\",\"has_deadlines\":true,\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,"
		"\"latency_max_ns\":10000,\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	static const char new_json[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"results\":[{\"simulation\":\"Audio\",\"load\":\"Burn\","
		"\"mode\":\"\",\"has_deadlines\":true,\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,"
		"\"latency_max_ns\":10000,\"interbench_latency_mean_ns\":60000000,\"interbench_latency_sd_ns\":1,"
		"\"interbench_latency_max_ns\":60000000,\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	parse_ok(old_json, &j1);
	parse_ok(new_json, &j2);
	ck_assert_int_eq(compare_text(&j1, &j2, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Latency compared: mean and max as scheduling latency"), "%s", out);
	ck_assert_msg(strstr(out, "mean sched latency") && !strstr(out, "Burn     mean latency"), "%s", out);
	ck_assert_int_eq(compare_text(&j2, &j2, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "interbench 0.31's definition"), "%s", out);
	ck_assert_int_eq(compare_text(&a, &j2, out, sizeof(out)), CMP_UNDECIDED);  /* 0.31's log against new JSON */
	/* A -v table of this version, verbatim: every extra column (late p99, cpu %) read as one. */
	static const char verbose[] =
		"Benchmarking kernel 6.18.44-fc-v769 at datestamp 202611221511\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		DEFINITIONS_LINE_BEFORE "\n\n\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met        p50        p90"
		"        p99      p99.9  timer p99  timer max   late p99   late max      cpu %\n"
		"Burn       0.00576 +/- 0.0014          0.0107             100              100    0.00563    0.00787"
		"     0.0107     0.0107      0.138      0.138      0.143      0.143       4.83\n";
	result_set_free(&a);
	parse_ok(verbose, &a);
	ck_assert_double_eq_tol(result_set_find(&a, "Audio", "Burn")->v[0].m[JM_P99], 10700, 1e-6);
	ck_assert_double_eq_tol(result_set_find(&a, "Audio", "Burn")->v[0].m[JM_MEAN], 5760, 1e-6);
	result_set_free(&a);
	result_set_free(&b);
	result_set_free(&c);
	result_set_free(&j1);
	result_set_free(&j2);
}
END_TEST

/* compare lists what differs between the machines and refuses different CPUs unless allowed. */
/* The results of a JSON document with one measured pair, Audio against None. */
#define ONE_AUDIO_RESULT \
	"\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\",\"mode\":\"\",\"has_deadlines\":true," \
	"\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,\"latency_max_ns\":10000,\"desired_cpu_ppm\":1000000," \
	"\"deadlines_met_ppm\":1000000}]}"

START_TEST(machine_guard)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"machine\":{\"cpu_model\":\"%s\",\"online_cpus\":2,"
		"\"audit\":{\"smt\":{\"value\":\"%s\",\"source\":\"x\"},\"scheduler\":{\"value\":\"%s\","
		"\"source\":\"x\"}}},\"options\":{\"dma_latency_us\":null}," ONE_AUDIO_RESULT;
	char a_text[1024], b_text[1024], c_text[1024], d_text[1024], out[8192];
	snprintf(a_text, sizeof(a_text), fmt, "Xeon", "1", "EEVDF");
	snprintf(b_text, sizeof(b_text), fmt, "Xeon", "0", "EEVDF");
	snprintf(c_text, sizeof(c_text), fmt, "EPYC", "1", "EEVDF");
	snprintf(d_text, sizeof(d_text), fmt, "Xeon", "1", "sched_ext: lavd");
	struct result_set a, b, c, d;
	parse_ok(a_text, &a);
	parse_ok(b_text, &b);
	parse_ok(c_text, &c);
	parse_ok(d_text, &d);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: smt differs: OLD '1', NEW '0'"), "%s", out);
	ck_assert_msg(!strstr(out, "scheduler differs"), "%s", out);
	/* another scheduler is the point of a comparison: a warning, never a refusal */
	ck_assert_int_eq(compare_text(&a, &d, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: scheduler differs: OLD 'EEVDF', NEW 'sched_ext: lavd'"), "%s", out);
	ck_assert_int_eq(compare_text(&a, &c, out, sizeof(out)), CMP_BAD_INPUT);
	ck_assert_msg(strstr(out, "different machines (cpu_model: OLD 'Xeon', NEW 'EPYC')"), "%s", out);
	struct cmp_thresholds t;
	defaults(&t);
	t.allow_different_machine = true;
	FILE *f = fmemopen(out, sizeof(out), "w");
	ck_assert_int_eq(compare_sets("old", &a, "new", &c, &t, f, f), CMP_UNDECIDED);
	fclose(f);
	ck_assert_msg(strstr(out, "Warning: cpu_model differs"), "%s", out);
	ck_assert_int_eq(compare_text(&a, &a, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(!strstr(out, "differs"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
	result_set_free(&c);
	result_set_free(&d);
}
END_TEST

/* Results of different task files (run.task_file.digest) are refused, naming both digests and
 * the flag; --allow-different-task judges them, the difference a warning; the same digest is
 * no difference. */
START_TEST(task_guard)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"machine\":{\"cpu_model\":\"Xeon\",\"online_cpus\":2},"
		"\"run\":{\"task_file\":{\"digest\":\"fnv1a64:%016x\"}}," ONE_AUDIO_RESULT;
	char a_text[1024], b_text[1024], out[8192];
	snprintf(a_text, sizeof(a_text), fmt, 0xa);
	snprintf(b_text, sizeof(b_text), fmt, 0xb);
	struct result_set a, b;
	parse_ok(a_text, &a);
	parse_ok(b_text, &b);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_BAD_INPUT);
	ck_assert_msg(strstr(out, "interbench compare: different tasks (the task files' models differ: OLD "
				  "fnv1a64:000000000000000a, NEW fnv1a64:000000000000000b;") &&
		      strstr(out, "--allow-different-task compares them anyway"), "%s", out);
	struct cmp_thresholds t;
	defaults(&t);
	t.allow_different_task = true;
	ck_assert_int_eq(compare_with(&a, &b, &t, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: task_file.digest differs: OLD 'fnv1a64:000000000000000a', NEW "
				  "'fnv1a64:000000000000000b'"), "%s", out);
	ck_assert_int_eq(compare_text(&a, &a, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(!strstr(out, "differs"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* Run options that shape every pair are facts too: a different --dsp-load, -L or --scheduler warns; the
 * settings compare matches per pair (nice, policy), the selection and the outputs do not. */
START_TEST(option_differences_warned)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"options\":{\"proaudio_dsp_load_pct\":%d,"
		"\"load_threads\":%d,\"uniprocessor\":%s,\"load_nice\":%d,\"comment\":\"%s\",\"cpus\":%s,"
		"\"schedulers\":%s},"
		ONE_AUDIO_RESULT;
	char a_text[1024], b_text[1024], out[8192];
	snprintf(a_text, sizeof(a_text), fmt, 80, 1, "false", 0, "old run", "null", "null");
	snprintf(b_text, sizeof(b_text), fmt, 40, 4, "true", 19, "new run", "[0,1]", "[\"scx_simple\"]");
	struct result_set a, b;
	parse_ok(a_text, &a);
	parse_ok(b_text, &b);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: proaudio_dsp_load_pct differs: OLD '80', NEW '40'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: load_threads differs: OLD '1', NEW '4'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: uniprocessor differs: OLD 'false', NEW 'true'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: cpus differs: OLD 'none', NEW '[0,1]'"), "%s", out);
	/* a difference of the schedulers (--scheduler) is the schedulers', not the kernels': said */
	ck_assert_msg(strstr(out, "Warning: schedulers differs: OLD 'none', NEW '[\"scx_simple\"]'"), "%s", out);
	ck_assert_msg(!strstr(out, "load_nice") && !strstr(out, "comment"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* The cgroups a run placed its sides in are facts: their paths (the option) and the settings
 * read at the start, alternatives joined; a run without one (null) compares none of its
 * settings. */
START_TEST(cgroup_differences_warned)
{
	static const char fmt[] =
		"{\"schema_version\":3,\"generator\":\"interbench\",\"options\":{\"load_cgroups\":[\"%s\"],"
		"\"bench_cgroups\":null},\"run\":{\"bench_cgroups\":null,\"load_cgroups\":[{\"dir\":\"/sys/fs/cgroup/%s\","
		"\"created\":true,\"type\":\"domain\",\"controllers\":\"cpu memory\",\"cpu_weight\":\"%s\",\"cpu_max\":\"%s\","
		"\"cpuset_cpus_effective\":null,\"memory_max\":\"max\"}%s]},"
		ONE_AUDIO_RESULT;
	static const char second[] = ",{\"dir\":\"/sys/fs/cgroup/w2\",\"created\":false,\"type\":\"domain\","
		"\"controllers\":\"cpu\",\"cpu_weight\":\"10000\",\"cpu_max\":\"max 100000\",\"cpuset_cpus_effective\":null,"
		"\"memory_max\":null}";
	char a_text[2048], b_text[2048], out[8192];
	snprintf(a_text, sizeof(a_text), fmt, "hog-w100", "hog-w100", "100", "max 100000", "");
	snprintf(b_text, sizeof(b_text), fmt, "hog-w1", "hog-w1", "1", "max 100000", "");
	ck_assert_int_eq(compare_docs(a_text, b_text, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: load_cgroups differs: OLD '[\"hog-w100\"]', NEW '[\"hog-w1\"]'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: load_cgroups.cpu_weight differs: OLD '100', NEW '1'"), "%s", out);
	ck_assert_msg(!strstr(out, "cpu_max") && !strstr(out, "memory_max") && !strstr(out, "bench_cgroups"), "%s", out);
	/* the same path, another cpu.max: said */
	snprintf(b_text, sizeof(b_text), fmt, "hog-w100", "hog-w100", "100", "50000 100000", "");
	ck_assert_int_eq(compare_docs(a_text, b_text, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: load_cgroups.cpu_max differs: OLD 'max 100000', NEW '50000 100000'"), "%s", out);
	ck_assert_msg(!strstr(out, "Warning: load_cgroups differs"), "%s", out);
	/* alternatives: each member's values joined, a file not there as none */
	snprintf(b_text, sizeof(b_text), fmt, "hog-w100", "hog-w100", "100", "max 100000", second);
	ck_assert_int_eq(compare_docs(a_text, b_text, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: load_cgroups.cpu_weight differs: OLD '100', NEW '100 / 10000'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: load_cgroups.memory_max differs: OLD 'max', NEW 'max / none'"), "%s", out);
}
END_TEST

/* A fact's name comes from the file: cut at rs_fact's 48 bytes, "\u00e9" x 30 ends mid-character,
 * which jansson refuses; the warning still reaches --json (the cut replaced by U+FFFD), and a
 * control character in a name is escaped on the terminal. */
START_TEST(fact_names_into_json)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"options\":{\"%s\":%d,\"a\\u001b[2Jb\":%d},"
		"\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\",\"mode\":\"\",\"has_deadlines\":true,"
		"\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,\"latency_max_ns\":10000,\"desired_cpu_ppm\":1000000,"
		"\"deadlines_met_ppm\":1000000}]}";
	char name[64] = "", a_text[1024], b_text[1024], out[8192];
	for (int i = 0; i < 30; i++)
		strcat(name, "\xc3\xa9");
	snprintf(a_text, sizeof(a_text), fmt, name, 1, 1);
	snprintf(b_text, sizeof(b_text), fmt, name, 2, 2);
	struct result_set a, b;
	parse_ok(a_text, &a);
	parse_ok(b_text, &b);
	struct cmp_thresholds t;
	defaults(&t);
	t.json = json_object();
	FILE *f = fmemopen(out, sizeof(out), "w");
	ck_assert_int_eq(compare_sets("old", &a, "new", &b, &t, f, f), CMP_UNDECIDED);
	fclose(f);
	ck_assert_msg(strstr(out, "Warning: a\\x1b[2Jb differs: OLD '1', NEW '2'"), "%s", out);
	json_t *w = json_object_get(t.json, "warnings");
	ck_assert_uint_eq(json_array_size(w), 2);
	char want[64];
	snprintf(want, sizeof(want), "%.46s\xef\xbf\xbd", name);  /* 23 characters, then U+FFFD */
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(w, 0), "setting")), want);
	json_decref(t.json);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST


/* --repeat 5 against 5 of which 2 starved (no latency sample): a starved repeat's latency is
 * no sub-run's value (Runs 5:3 for p99), its 0 % deadlines met is; the starved repeats' own row
 * counts them, and a larger share of them in NEW is a regression without a test. */
START_TEST(starved_repeats_rank_worst)
{
	struct result_set old, new;
	char out[8192], line[256];
	make_set(&old, 5, 100000, 1000, 100);
	make_set_starved(&new, 5, 100000, 1000, 100, 2);  /* the 3 others as OLD's first 3 */
	const struct rs_pair *a = result_set_find(&old, "Audio", "None"), *b = result_set_find(&new, "Audio", "None");
	ck_assert(b->v[4].no_samples && isinf(b->v[4].m[JM_P99]) && b->v[4].m[JM_P99] > 0);
	ck_assert_double_eq(b->v[4].m[JM_MET], 0);  /* 0 % met, whatever the document says */
	struct decision d;
	ck_assert(compare_measure(a, b, JM_P99, 10, &d));
	ck_assert_uint_eq(d.n_a, 5);
	ck_assert_uint_eq(d.n_b, 3);
	ck_assert_double_eq_tol(d.b, cbrt(100000.0 * 101000 * 102000), 1e-6);  /* their geometric mean */
	ck_assert(compare_measure(a, b, JM_MET, 1, &d));
	ck_assert_uint_eq(d.n_b, 5);
	ck_assert_double_eq_tol(d.change, -40, 1e-9);  /* 100 100 100 0 0 against 100 x 5 */
	ck_assert_int_eq(compare_text(&old, &new, out, sizeof(out)), CMP_REGRESSION);
	ck_assert_msg(strstr(table_line(out, "Audio            None     starved repeats", line, sizeof(line)),
			     "0 of 5     2 of 5 +40.00 pt -                   REGRESSION"), "%s", out);
	ck_assert_msg(strstr(table_line(out, "Audio            None     p99 latency", line, sizeof(line)), "  5:3 "),
		      "%s", out);
	ck_assert_msg(strstr(out, "\nStarved: a repeat that took no latency sample"), "%s", out);
	ck_assert_msg(strstr(out, "1 pair compared: 1 regression;"), "%s", out);
	/* fewer starved in NEW: no regression; the % met of OLD's starved repeats leaves it undecided */
	ck_assert_int_eq(compare_text(&new, &old, out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(!strstr(out, "REGRESSION"), "%s", out);
	result_set_free(&new);
	/* all 5 starved: no sub-run's latency is left, never an improvement; % met DIFFERENT, worse.
	 * The p99 row keeps OLD's value and shows none for NEW (never "nan"), judged as p99 (a
	 * starved sub-run's 0 samples say nothing of a p99's bound) and UNKNOWN for want of a
	 * value in NEW. */
	make_set_starved(&new, 5, 100000, 1000, 100, 5);
	ck_assert_int_eq(compare_text(&old, &new, out, sizeof(out)), CMP_REGRESSION);
	table_line(out, "Audio            None     p99 latency", line, sizeof(line));
	ck_assert_msg(strstr(line, "  5:0 ") && strstr(line, "UNKNOWN: no value") && !strstr(out, "nan") &&
		      !strstr(out, "p90 latency"), "%s", out);
	ck_assert_msg(strstr(table_line(out, "Audio            None     % deadlines met", line, sizeof(line)),
			     "DIFFERENT, worse"), "%s", out);
	ck_assert_msg(strstr(table_line(out, "Audio            None     starved repeats", line, sizeof(line)),
			     "0 of 5     5 of 5"), "%s", out);
	result_set_free(&new);
	result_set_free(&old);
}
END_TEST

/* A logfile of n pairs, "Sim<i / 100>" against "L<i % 100>" (the classic table of
 * report/logformat.h, one run), parsed into *rs.  Returns result_set_parse's status, its
 * reason in err (256 bytes). */
static int parse_large_log(struct result_set *rs, unsigned n, char *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "Benchmarking kernel 6.1 at datestamp 202611230000\n");
	for (unsigned i = 0; i < n; i++) {
		if (i % 100 == 0)
			fprintf(f, "\n--- Benchmarking simulated cpu of Sim%u in the presence of simulated ---\n"
				"Load      Latency +/- SD (ms)    Max Latency   %% Desired CPU  %% Deadlines Met\n", i / 100);
		fprintf(f, "L%u 0.005 +/- 0.001 0.09 100 100\n", i % 100);
	}
	fclose(f);
	int rc = result_set_parse(buf, len, rs, err, 256);
	free(buf);
	return rc;
}

static void make_large_log(struct result_set *rs, unsigned n)
{
	char err[256];
	ck_assert_msg(parse_large_log(rs, n, err) == 0, "%s", err);
}

/* 40000 pairs are read and compared pair by pair, by key and by name: each pair found where it
 * is, every pair matched, none past RS_MAX_PAIRS read.  The lookups are O(log n)
 * (tools/resultset.h, by_key); how fast is a bench's question, not this test's: its test
 * case has a timeout generous for a shared host and sanitizers. */
START_TEST(large_sets_bounded)
{
	enum { N = 40000 };
	struct result_set a, b;
	make_large_log(&a, N);
	make_large_log(&b, N);
	ck_assert_uint_eq(a.n, N);
	const struct rs_pair *p = result_set_find(&b, "Sim399", "L99");
	ck_assert_ptr_eq(p, &b.pairs[N - 1]);
	ck_assert_ptr_eq(result_set_find_name(&b, "Sim7 nice 19", "L3"), &b.pairs[703]);
	ck_assert_ptr_null(result_set_find(&b, "Sim400", "L0"));
	struct cmp_thresholds t;
	defaults(&t);
	for (int by_name = 0; by_name < 2; by_name++) {
		char tail[128];
		FILE *out = tmpfile();
		t.match_names = by_name;
		ck_assert_int_eq(compare_sets("old", &a, "new", &b, &t, out, out), CMP_UNDECIDED);
		fseek(out, -(long)sizeof(tail) + 1, SEEK_END);
		tail[fread(tail, 1, sizeof(tail) - 1, out)] = '\0';
		fclose(out);
		ck_assert_msg(strstr(tail, "\n40000 pairs compared: 0 regressions"), "%s", tail);
	}
	result_set_free(&a);
	result_set_free(&b);
	char err[256];
	ck_assert_int_eq(parse_large_log(&a, RS_MAX_PAIRS + 1, err), -1);
	ck_assert_str_eq(err, "more than 100000 (simulation, load) pairs");
}
END_TEST

/* What confined a run is a fact: a different CPU set, CPU quota or concurrent run is a warning
 * before any figure; a result written before these were recorded is not warned of. */
START_TEST(confinement_differences_warned)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"machine\":{\"online_cpus\":2%s},%s"
		ONE_AUDIO_RESULT;
	char a_text[1024], b_text[1024], c_text[1024], out[8192];
	snprintf(a_text, sizeof(a_text), fmt, ",\"allowed_cpus\":2,\"allowed_cpu_list\":\"0-1\",\"cpu_quota_us\":null",
		 "\"run\":{\"concurrent_run_pid\":null},");
	snprintf(b_text, sizeof(b_text), fmt, ",\"allowed_cpus\":1,\"allowed_cpu_list\":\"1\",\"cpu_quota_us\":5000",
		 "\"run\":{\"concurrent_run_pid\":4242},");
	snprintf(c_text, sizeof(c_text), fmt, "", "");
	const char *const texts[3] = { a_text, b_text, c_text };
	struct result_set rs[3];   /* confined differently, and from before confinement was recorded */
	for (int i = 0; i < 3; i++)
		parse_ok(texts[i], &rs[i]);
	ck_assert_int_eq(compare_text(&rs[0], &rs[1], out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(strstr(out, "Warning: allowed_cpus differs: OLD '2', NEW '1'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: allowed_cpu_list differs: OLD '0-1', NEW '1'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: cpu_quota_us differs: OLD 'none', NEW '5000'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: concurrent_run_pid differs: OLD 'none', NEW '4242'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: allowed_cpus") < strstr(out, "\nSimulation "), "%s", out);
	ck_assert_int_eq(compare_text(&rs[2], &rs[1], out, sizeof(out)), CMP_UNDECIDED);
	ck_assert_msg(!strstr(out, "Warning:"), "%s", out);
	for (int i = 0; i < 3; i++)
		result_set_free(&rs[i]);
}
END_TEST

/* compare's false alarms on A/A comparisons: OLD and NEW drawn from the same latency models,
 * every DIFFERENT (worse or better) a false one.  Each comparison is of 3 pairs, 5 sub-runs
 * (repeats) a side: Audio-like at its 5 s sub-run (100 periods, so p90 is judged in p99's
 * place), with 1 % stalls over 1200 periods (p99 judged), and Video-like with 3 % of deadlines
 * missed at random over 1200 periods; the family of its judged figures (a latency and %
 * deadlines met per pair) is under Holm's control at DECISION_ALPHA, so any false DIFFERENT
 * should come in at most 5 % of comparisons.  The share seen over n comparisons may pass 5 %
 * by chance: BINOM_Z999 = 3.090 standard errors above it is the one-sided 99.9 % bound (7.1 %
 * at 1000 comparisons), so a correct compare fails about once in a thousand seeds, and the
 * seed is fixed. */

/* A synthetic pair of an A/A comparison: its name, model and periods per sub-run. */
struct aa_pair {
	const char *sim;
	struct synth_model m;
	unsigned periods;
};

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* Writes one sub-run of pair p as a JSON result to f: its latencies drawn from p->m, their
 * nearest-rank p90 and p99, mean and max, and its deadlines met. */
static void aa_subrun(FILE *f, const struct aa_pair *p, unsigned repeat, uint64_t *rng)
{
	static uint64_t lat[1200];
	double sum = 0;
	unsigned n = p->periods, met = 0;
	ck_assert_uint_le(n, 1200);
	for (unsigned i = 0; i < n; i++) {
		lat[i] = synth_latency_ns(&p->m, rng);
		sum += (double)lat[i];
		met += !(p->m.miss_ppm && uniform(rng) * 1e6 < p->m.miss_ppm);
	}
	qsort(lat, n, sizeof(lat[0]), cmp_u64);
	fprintf(f, "{\"simulation\":\"%s\",\"load\":\"None\",\"mode\":\"\",\"repeat\":%u,\"has_deadlines\":true,"
		"\"samples\":%u,\"periods\":%u,\"latency_mean_ns\":%.0f,\"latency_p90_ns\":%llu,\"latency_p99_ns\":%llu,"
		"\"latency_max_ns\":%llu,\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":%.0f}", p->sim, repeat, n, n,
		sum / n, (unsigned long long)lat[(9 * n + 9) / 10 - 1], (unsigned long long)lat[(99 * n + 99) / 100 - 1],
		(unsigned long long)lat[n - 1], 1e6 * met / n);
}

/* One side of an A/A comparison, repeats sub-runs of each of pairs[0..npairs), into *rs. */
static void aa_side(struct result_set *rs, const struct aa_pair *pairs, unsigned npairs, unsigned repeats,
		    uint64_t *rng)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "{\"schema_version\":3,\"generator\":\"interbench\",\"results\":[");
	for (unsigned k = 0; k < repeats; k++)
		for (unsigned i = 0; i < npairs; i++) {
			fprintf(f, "%s", k + i ? "," : "");
			aa_subrun(f, &pairs[i], k + 1, rng);
		}
	fprintf(f, "]}");
	fclose(f);
	ck_assert_msg(result_set_parse(buf, len, rs, err, sizeof(err)) == 0, "%s", err);
	free(buf);
}

START_TEST(a_a_false_alarms)
{
	enum { COMPARISONS = 1000, REPEATS = 5 };
	static const struct aa_pair pairs[] = {
		{ "Audio", { .floor_ns = 20000, .scale_ns = 10000 }, 100 },
		{ "Gaming", { .floor_ns = 20000, .scale_ns = 10000, .stall_ppm = 10000, .stall_ns = 2000000 }, 1200 },
		{ "Video", { .floor_ns = 20000, .scale_ns = 10000, .miss_ppm = 30000 }, 1200 },
	};
	unsigned any = 0, different = 0, same = 0, judged = 0;
	for (unsigned c = 0; c < COMPARISONS; c++) {
		uint64_t rng = synth_seed(0xa1a0000u, c);
		struct result_set a, b;
		aa_side(&a, pairs, 3, REPEATS, &rng);
		aa_side(&b, pairs, 3, REPEATS, &rng);
		struct cmp_thresholds t;
		defaults(&t);
		t.json = json_object();
		ck_assert_int_ne(compare_with(&a, &b, &t, NULL, 0), CMP_BAD_INPUT);
		const json_t *ans = json_object_get(t.json, "answers");
		unsigned d = (unsigned)json_integer_value(json_object_get(ans, "different"));
		any += d > 0;
		different += d;
		same += (unsigned)json_integer_value(json_object_get(ans, "same"));
		judged += (unsigned)json_integer_value(json_object_get(json_object_get(t.json, "family"), "size"));
		json_decref(t.json);
		result_set_free(&a);
		result_set_free(&b);
	}
	double rate = (double)any / COMPARISONS;
	printf("A/A, %d comparisons of 3 pairs, %d sub-runs a side: any DIFFERENT in %.1f%% (bound %.1f%%); "
	       "%.2f%% of %u judged figures DIFFERENT, %.1f%% SAME\n", COMPARISONS, REPEATS, 100 * rate,
	       100 * binomial_ceiling(DECISION_ALPHA, COMPARISONS), 100.0 * different / judged, judged, 100.0 * same / judged);
	fflush(stdout);
	ck_assert_uint_eq(judged, 6 * COMPARISONS);  /* p90 or p99, and % met, of each pair */
	ck_assert_msg(rate <= binomial_ceiling(DECISION_ALPHA, COMPARISONS), "%.2f%% of A/A comparisons with a DIFFERENT",
		      100 * rate);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, threshold_syntax);
	tcase_add_test(tc, one_subrun_a_side_unknown);
	tcase_add_test(tc, tripled_p99_different_worse);
	tcase_add_test(tc, decision_first);
	tcase_add_test(tc, tight_repeats_same);
	tcase_add_test(tc, p90_judged_below_368_samples);
	tcase_add_test(tc, disturbed_subrun_left_out);
	tcase_add_test(tc, all_disturbed_unknown);
	tcase_add_test(tc, subrun_marks_read);
	tcase_add_test(tc, json_decision_keys);
	tcase_add_test(tc, latency_definitions);
	tcase_add_test(tc, machine_guard);
	tcase_add_test(tc, task_guard);
	tcase_add_test(tc, seed_logfile);
	tcase_add_test(tc, header_of_too_many_columns);
	tcase_add_test(tc, v031_and_own_logfiles);
	tcase_add_test(tc, interrupted_windows_left_out);
	tcase_add_test(tc, starved_interrupted_and_hex);
	tcase_add_test(tc, exit_statuses);
	tcase_add_test(tc, wide_names_aligned);
	tcase_add_test(tc, option_differences_warned);
	tcase_add_test(tc, cgroup_differences_warned);
	tcase_add_test(tc, starved_repeats_rank_worst);
	tcase_add_test(tc, fact_names_into_json);
	tcase_add_test(tc, confinement_differences_warned);
	tcase_add_test(tc, disturbed_pairs_not_judged);
	tcase_add_test(tc, disturbed_logfile_row);
	suite_add_tcase(s, tc);
	/* Long work, not a measure of speed: 80000 pairs read and compared; a second here, more
	 * under sanitizers or on a busy host. */
	TCase *slow = tcase_create("long");
	tcase_set_timeout(slow, 600);
	tcase_add_test(slow, large_sets_bounded);
	suite_add_tcase(s, slow);
	/* 30000 synthetic sub-runs compared, for a rate (tests/ck_synth.h CK_REPLICATIONS_TAG). */
	TCase *reps = tcase_create("replications");
	tcase_set_timeout(reps, 600);
	tcase_set_tags(reps, CK_REPLICATIONS_TAG);
	tcase_add_test(reps, a_a_false_alarms);
	suite_add_tcase(s, reps);
	return ck_run(s);
}
