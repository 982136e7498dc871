/* The table of task figures (report/figures.h): every key documented in doc/json.md and
 * doc/interbench-result.schema.json, the table's own consistency, and a figure added by one
 * table row (here a test-only one) flowing into a JSON result and back. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/figures.h"
#include "report/json_report.h"
#include "report/jsonkeys.h"
#include "tools/resultset.h"
#include "engine/summary.h"

/* The whole of file path (run from the source tree, as `make unit` does), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 20);
	size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* Whether text holds key between the quote characters q ("`key`", "\"key\""). */
static bool has_quoted(const char *text, const char *key, char q)
{
	char want[128];
	snprintf(want, sizeof(want), "%c%s%c", q, key, q);
	return strstr(text, want) != NULL;
}

START_TEST(test_keys_documented)
{
	char *md = slurp("doc/json.md"), *schema = slurp("doc/interbench-result.schema.json");
	ck_assert_ptr_nonnull(md);
	ck_assert_ptr_nonnull(schema);
	for (size_t i = 0; i < task_figures_n; i++) {
		const char *k = task_figures[i].json_key;
		if (!k)
			continue;
		ck_assert_msg(has_quoted(md, k, '`'), "%s is not in doc/json.md", k);
		ck_assert_msg(has_quoted(schema, k, '"'), "%s is not in doc/interbench-result.schema.json", k);
		const struct figure_interval *ci = task_figures[i].ci;
		if (ci) {
			ck_assert_msg(has_quoted(md, ci->json_key, '`'), "%s is not in doc/json.md", ci->json_key);
			ck_assert_msg(has_quoted(schema, ci->json_key, '"'), "%s is not in the schema", ci->json_key);
		}
	}
	const char *settings[] = { JK_TASK_SETTINGS, JK_BUFFER_PERIODS, "cpu_pct", "fixed_work" };
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		ck_assert_msg(has_quoted(md, settings[i], '`'), "%s is not in doc/json.md", settings[i]);
		ck_assert_msg(has_quoted(schema, settings[i], '"'), "%s is not in the schema", settings[i]);
	}
	free(md);
	free(schema);
}
END_TEST

/* The positions of the columns of kind col of task (NULL: the core's) run 0, 1, ... once each,
 * their labels at most 10 characters. */
static void check_positions(enum figure_column col, const char *task)
{
	unsigned n = 0, seen = 0;
	for (size_t i = 0; i < task_figures_n; i++) {
		const struct task_figure *f = &task_figures[i];
		if (f->column != col || (task ? !f->task || strcmp(f->task, task) : f->task != NULL))
			continue;
		n++;
		seen |= 1u << f->column_pos;
		ck_assert_uint_le(strlen(f->column_label), 10);
	}
	ck_assert_msg(seen == (1u << n) - 1, "columns of %s: positions 0x%x of %u", task ? task : "the core", seen, n);
}

/* Every compared figure has one row; each column group's positions run 0, 1, ... once each. */
START_TEST(test_table_consistent)
{
	for (int m = 0; m < JM_METRICS; m++) {
		unsigned rows = 0;
		for (size_t i = 0; i < task_figures_n; i++)
			rows += task_figures[i].cmp && task_figures[i].cmp->metric == (enum judged_metric)m;
		ck_assert_msg(rows == 1, "metric %d has %u rows", m, rows);
		ck_assert_ptr_nonnull(judged_metric_key((enum judged_metric)m));
	}
	check_positions(FIG_VERBOSE_COLUMN, NULL);
	for (size_t i = 0; i < task_figures_n; i++)  /* each task's own columns */
		if (task_figures[i].task)
			check_positions(FIG_TASK_COLUMN, task_figures[i].task);
}
END_TEST

/* The table plus one test-only figure: the p99 lateness in us, null without samples. */
static struct task_figure *with_test_figure(size_t *n)
{
	struct task_figure *tab = calloc(task_figures_n + 1, sizeof(*tab));
	memcpy(tab, task_figures, task_figures_n * sizeof(*tab));
	tab[task_figures_n] = (struct task_figure){ .json_key = "test_lateness_p99_us",
		.offset = offsetof(struct pair_summary, lateness_p99_ns), .type = FIG_U64, .unit = FIG_US,
		.json_scale = 1e-3, .null_rule = FIG_NULL_NO_SAMPLES, .median = FIG_OVER_SAMPLED };
	*n = task_figures_n + 1;
	return tab;
}

/* A result object with the names readers need and the figures of s (tab[0..n)). */
static json_t *result_of(const struct task_figure *tab, size_t n, const struct pair_summary *s)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:i, s:b, s:b, s:i}", JK_SIMULATION, "Audio", JK_LOAD, "None", JK_MODE, "",
			      "repeat", 1, JK_HAS_DEADLINES, 1, JK_INTERRUPTED, 0, "window_ns", 1000);
	ck_assert_int_eq(report_add_figures(r, tab, n, s, false), 0);
	return r;
}

START_TEST(test_added_figure_flows)
{
	size_t n;
	struct task_figure *tab = with_test_figure(&n);
	struct pair_summary s = { .samples = 10, .lateness_p99_ns = 123456, .sched_p99_ns = 2000000,
				  .deadlines_met_pct = 99.5, .desired_cpu_pct = 100, .periods = 10 };
	json_t *r = result_of(tab, n, &s);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "test_lateness_p99_us")), 123);
	/* the rest as the real table writes it: the row added nothing else */
	json_t *real = result_of(task_figures, task_figures_n, &s);
	ck_assert_uint_eq(json_object_size(r), json_object_size(real) + 1);
	json_object_del(r, "test_lateness_p99_us");
	ck_assert(json_equal(r, real));
	json_decref(real);
	json_decref(r);

	/* written in a document and read back: the reader takes it, the compared figures intact */
	r = result_of(tab, n, &s);
	json_t *doc = json_pack("{s:i, s:s, s:[o]}", JK_SCHEMA_VERSION, REPORT_SCHEMA_VERSION, JK_GENERATOR,
				REPORT_GENERATOR " 1.0", JK_RESULTS, r);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER), err[256];
	struct result_set rs;
	ck_assert_msg(result_set_parse(text, strlen(text), &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_double_eq(rs.pairs[0].v[0].m[JM_P99], 2000000);
	ck_assert_double_eq_tol(rs.pairs[0].v[0].m[JM_MET], 99.5, 1e-9);
	result_set_free(&rs);
	json_t *back = json_loads(text, 0, NULL);
	const json_t *v = json_object_get(json_array_get(json_object_get(back, JK_RESULTS), 0), "test_lateness_p99_us");
	ck_assert_double_eq_tol((double)json_integer_value(v) / tab[n - 1].json_scale, 123000, 1e-6);
	json_decref(back);
	free(text);
	json_decref(doc);

	/* its null rule: no samples, null */
	s.samples = 0;
	r = result_of(tab, n, &s);
	ck_assert(json_is_null(json_object_get(r, "test_lateness_p99_us")));
	json_decref(r);
	free(tab);
}
END_TEST

/* The four judged figures carry an interval: written as [low, high] in the figure's JSON scale,
 * null where none was computed, and no median has one. */
START_TEST(test_intervals_written)
{
	struct pair_summary s = { .samples = 100, .sched_p99_ns = 2000000, .deadlines_met_pct = 99.5, .periods = 100 };
	figure_intervals_clear(&s);
	s.sched_p99_lo_ns = 1500000;
	s.sched_p99_hi_ns = 2500000;
	s.deadlines_met_lo_pct = 98.25;
	s.deadlines_met_hi_pct = 100;
	json_t *r = result_of(task_figures, task_figures_n, &s);
	const json_t *p99 = json_object_get(r, "latency_p99_ns_ci"), *met = json_object_get(r, "deadlines_met_ppm_ci");
	ck_assert_int_eq(json_integer_value(json_array_get(p99, 0)), 1500000);
	ck_assert_int_eq(json_integer_value(json_array_get(p99, 1)), 2500000);
	ck_assert_int_eq(json_integer_value(json_array_get(met, 0)), 982500);
	ck_assert_int_eq(json_integer_value(json_array_get(met, 1)), 1000000);
	ck_assert(json_is_null(json_object_get(r, "latency_mean_ns_ci")));
	ck_assert(json_is_null(json_object_get(r, "desired_cpu_ppm_ci")));
	json_decref(r);
	s.samples = 0;  /* the figure null: its interval too */
	r = result_of(task_figures, task_figures_n, &s);
	ck_assert(json_is_null(json_object_get(r, "latency_p99_ns_ci")));
	json_decref(r);
	struct pair_summary med;
	double lo, hi;
	summary_median(&s, 1, &med, &lo, &hi);
	ck_assert(!figure_interval(figure_of_metric(task_figures, task_figures_n, JM_MET), &med, &lo, &hi));
}
END_TEST

/* pair_summarize: the intervals of a run hold its figures; a run of fewer than BM_MIN_SAMPLES
 * periods has none. */
START_TEST(test_summarize_intervals)
{
	static struct sim_result r;
	struct pair_summary s;
	struct deadline_verdict met = { .met = true }, late = { .met = false };
	for (unsigned i = 0; i < 1000; i++) {
		uint64_t lat_ns = 10000 + (i % 50) * 1000 + (i % 100 == 99) * 5000000;
		lat_stats_add(&r.sched, lat_ns);
		hist_add(&r.sched_hist, lat_ns);
		bm_add(&r.sched_bm, (double)lat_ns);
		qb_add(&r.sched_qb, lat_ns);
		deadline_acct_period(&r.acct, i % 100 == 99 ? &late : &met, 1000);
		if (i == BM_MIN_SAMPLES - 2) {
			pair_summarize(&r, &s);
			ck_assert(isnan(s.latency_mean_lo_ns) && isnan(s.sched_p99_hi_ns) && isnan(s.deadlines_met_lo_pct));
		}
	}
	pair_summarize(&r, &s);
	ck_assert(s.latency_mean_lo_ns <= s.latency_mean_ns && s.latency_mean_ns <= s.latency_mean_hi_ns);
	ck_assert(s.sched_p99_lo_ns <= s.sched_p99_ns && s.sched_p99_ns <= s.sched_p99_hi_ns);
	ck_assert(s.deadlines_met_lo_pct <= s.deadlines_met_pct && s.deadlines_met_pct <= s.deadlines_met_hi_pct);
	/* never varied: the exact interval of no shortfall in 1000 periods, not a point */
	ck_assert_double_eq_tol(s.desired_cpu_lo_pct, 100 * (1 - zero_events_upper(1000, CI_ALPHA)), 1e-9);
	ck_assert(s.desired_cpu_lo_pct > 99.5 && s.desired_cpu_hi_pct == 100);
}
END_TEST

/* summary_median takes each figure over its group's repeats (report/figures.h). */
START_TEST(test_median_groups)
{
	struct pair_summary reps[3] = {
		{ .samples = 0, .sched_p99_ns = 0, .periods = 10, .task_run_ns = 1000 },
		{ .samples = 5, .sched_p99_ns = 300, .periods = 20, .task_run_ns = 2000 },
		{ .samples = 7, .sched_p99_ns = 500, .periods = 30, .task_run_ns = 3000 },
	};
	struct pair_summary med;
	double lo, hi;
	summary_median(reps, 3, &med, &lo, &hi);
	ck_assert_uint_eq(med.sched_p99_ns, 400);  /* over the 2 with samples */
	ck_assert_uint_eq(med.periods, 20);        /* over all 3 */
	ck_assert_uint_eq(med.task_run_ns, 2000);
	ck_assert_uint_eq(med.samples, 6);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("figures");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_keys_documented);
	tcase_add_test(tc, test_table_consistent);
	tcase_add_test(tc, test_added_figure_flows);
	tcase_add_test(tc, test_median_groups);
	tcase_add_test(tc, test_intervals_written);
	tcase_add_test(tc, test_summarize_intervals);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
