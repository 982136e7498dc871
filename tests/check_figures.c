/* The table of task figures (report/figures.h): the figure part of
 * doc/interbench-result.schema.json and doc/json.md checked against it field by field (type,
 * unit in the key, null rule, interval, required), no figure key typed again by a writer or
 * reader, the table's own consistency, and a figure added by one
 * table row (here a test-only one) flowing into a JSON result and back. */
#define _GNU_SOURCE
#include <check.h>
#include <glob.h>
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
#include "workloads/proaudio_buffer.h"
#include "workloads/pipeline_chain.h"

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

/* Row i of the figure table, or NULL past its end: the one place these tests walk it. */
static const struct task_figure *figure_row(size_t i)
{
	return i < task_figures_n ? &task_figures[i] : NULL;
}

/* The schema of a measured result: the branch of results.items.oneOf whose properties hold
 * "samples" (the other is a failed pair's). */
static const json_t *measured_result_schema(const json_t *schema)
{
	const json_t *branches = json_object_get(json_object_get(json_object_get(json_object_get(schema, "properties"),
								 JK_RESULTS), "items"), "oneOf"), *b;
	size_t i;
	json_array_foreach(branches, i, b)
		if (json_object_get(json_object_get(b, "properties"), "samples"))
			return b;
	return NULL;
}

/* Whether the schema's array of required keys req holds key. */
static bool schema_requires(const json_t *req, const char *key)
{
	size_t i;
	const json_t *k;
	json_array_foreach(req, i, k)
		if (strcmp(json_string_value(k), key) == 0)
			return true;
	return false;
}

/* Whether the schema type t is exactly type, or [type, "null"] when nullable. */
static bool schema_type_is(const json_t *t, const char *type, bool nullable)
{
	if (!nullable)
		return json_is_string(t) && strcmp(json_string_value(t), type) == 0;
	return json_array_size(t) == 2 && strcmp(json_string_value(json_array_get(t, 0)), type) == 0 &&
	       strcmp(json_string_value(json_array_get(t, 1)), "null") == 0;
}

/* The schema's figure part, field by field from the table: each written figure an integer
 * (the writer rounds, report/json_report.c) of minimum 0, nullable exactly when it has a null
 * rule, required exactly when the row is; its interval an array of two integers >= 0 or null,
 * the high one also null exactly when the interval may be open above (a percentile's), never
 * required. */
START_TEST(test_schema_figures)
{
	json_error_t je;
	json_t *schema = json_load_file("doc/interbench-result.schema.json", 0, &je);
	ck_assert_msg(schema, "doc/interbench-result.schema.json: %s", je.text);
	const json_t *res = measured_result_schema(schema);
	ck_assert_ptr_nonnull(res);
	const json_t *props = json_object_get(res, "properties"), *req = json_object_get(res, "required");
	const struct task_figure *f;
	for (size_t i = 0; (f = figure_row(i)); i++) {
		if (!f->json_key)
			continue;
		const json_t *p = json_object_get(props, f->json_key);
		ck_assert_msg(p, "%s is not in the schema", f->json_key);
		ck_assert_msg(schema_type_is(json_object_get(p, "type"), "integer", f->null_rule != FIG_NEVER_NULL),
			      "%s: the schema's type is not integer%s", f->json_key,
			      f->null_rule != FIG_NEVER_NULL ? " or null (the figure has a null rule)" : " (no null rule)");
		ck_assert_msg(json_integer_value(json_object_get(p, "minimum")) == 0 && json_object_get(p, "minimum"),
			      "%s: the schema's minimum is not 0", f->json_key);
		ck_assert_msg(schema_requires(req, f->json_key) == f->required, "%s: the schema %s it, the table %s",
			      f->json_key, f->required ? "does not require" : "requires", f->required ? "does" : "does not");
		if (!f->ci)
			continue;
		const json_t *c = json_object_get(props, f->ci->json_key), *items = json_object_get(c, "items");
		const json_t *pre = json_object_get(c, "prefixItems");
		ck_assert_msg(c, "%s is not in the schema", f->ci->json_key);
		/* an interval that may be open above: [low, high or null] as prefixItems, nothing after */
		const json_t *low = f->ci->may_open_above ? json_array_get(pre, 0) : items;
		const json_t *high = f->ci->may_open_above ? json_array_get(pre, 1) : items;
		ck_assert_msg(schema_type_is(json_object_get(c, "type"), "array", true) &&
			      schema_type_is(json_object_get(low, "type"), "integer", false) &&
			      schema_type_is(json_object_get(high, "type"), "integer", f->ci->may_open_above) &&
			      json_object_get(low, "minimum") && json_integer_value(json_object_get(low, "minimum")) == 0 &&
			      json_object_get(high, "minimum") && json_integer_value(json_object_get(high, "minimum")) == 0 &&
			      (!f->ci->may_open_above || (json_array_size(pre) == 2 && json_is_false(items))) &&
			      (f->ci->may_open_above || !pre) &&
			      json_integer_value(json_object_get(c, "minItems")) == 2 &&
			      json_integer_value(json_object_get(c, "maxItems")) == 2,
			      "%s: not [low, high] integers >= 0%s or null in the schema", f->ci->json_key,
			      f->ci->may_open_above ? " (high null when open above)" : "");
		ck_assert_msg(!schema_requires(req, f->ci->json_key), "%s: required by the schema", f->ci->json_key);
	}
	json_decref(schema);
}
END_TEST

/* The unit in each written figure's key (doc/json.md "Units"): _ns, _us, _ppm (a % written
 * x 1e4), _mfps (fps x 1e3), and a count with none of them; its interval's key is the
 * figure's and "_ci". */
START_TEST(test_key_units)
{
	static const char *const suffix[] = { [FIG_NS] = "_ns", [FIG_US] = "_us", [FIG_PCT] = "_ppm", [FIG_FPS] = "_mfps" };
	static const double scale[] = { [FIG_NS] = 1, [FIG_US] = 1, [FIG_PCT] = 1e4, [FIG_FPS] = 1e3, [FIG_COUNT] = 1 };
	const struct task_figure *f;
	for (size_t i = 0; (f = figure_row(i)); i++) {
		if (!f->json_key)
			continue;
		size_t n = strlen(f->json_key);
		ck_assert_msg(f->json_scale == scale[f->unit], "%s: JSON scale %g", f->json_key, f->json_scale);
		for (unsigned u = 0; u < sizeof(suffix) / sizeof(suffix[0]); u++) {
			if (!suffix[u])
				continue;
			bool ends = n > strlen(suffix[u]) && strcmp(f->json_key + n - strlen(suffix[u]), suffix[u]) == 0;
			ck_assert_msg(ends == (u == f->unit), "%s: its key %s the unit %s", f->json_key,
				      ends ? "ends in" : "does not end in", suffix[u]);
		}
		if (f->ci) {
			char want[128];
			snprintf(want, sizeof(want), "%s_ci", f->json_key);
			ck_assert_str_eq(f->ci->json_key, want);
		}
		/* one flag says it: the compared figures' copy agrees.  Save p90's (JM_P90), which
		 * report/figures.c has compare read as optional though every result carries it since
		 * schema version 1: documents written by hand or by other tools with only the keys
		 * compare read before p90 was judged (p99, mean, max) still read. */
		if (f->cmp && f->cmp->metric != JM_P90)
			ck_assert_msg(f->cmp->required == f->required, "%s: required differs in its compare row", f->json_key);
		if (f->cmp && f->cmp->metric == JM_P90)
			ck_assert_msg(f->required && !f->cmp->required, "%s: p90's exception no longer holds", f->json_key);
	}
}
END_TEST

/* The keys in the first column of doc/json.md's table under "## A result", into keys (n max),
 * each NUL-terminated in the returned buffer.  Returns how many. */
static size_t doc_result_keys(const char *md, char keys[][64], size_t max)
{
	const char *at = strstr(md, "\n## A result"), *end = at ? strstr(at + 1, "\n## ") : NULL;
	size_t n = 0;
	for (const char *line = at; line && line < end && (line = strstr(line, "\n| `")) && line < end; line++) {
		const char *cell_end = strstr(line + 3, " |");
		for (const char *k = strchr(line, '`'); k && k < cell_end && n < max; k = strchr(k, '`')) {
			const char *close = strchr(k + 1, '`');
			if (!close || close > cell_end || close - k - 1 >= 64)
				break;
			snprintf(keys[n++], 64, "%.*s", (int)(close - k - 1), k + 1);
			k = close + 1;
		}
	}
	return n;
}

/* Whether key is written by some row of the table, as a figure or as its interval. */
static bool is_figure_key(const char *key)
{
	const struct task_figure *f;
	for (size_t i = 0; (f = figure_row(i)); i++)
		if ((f->json_key && strcmp(f->json_key, key) == 0) || (f->ci && strcmp(f->ci->json_key, key) == 0))
			return true;
	return false;
}

/* doc/json.md's table of a result names every figure and interval the table writes in its key
 * column, and no figure the table does not write (the other members: named here). */
START_TEST(test_doc_figures)
{
	static const char *const members[] = { "timer_realtime", JK_CI_LEVEL, JK_TASK_SETTINGS, "bench_setting", "load_setting",
		"load_work", "load_storage", "sched_ext_ops", "on_threshold", "stop", JK_DISTURBANCE, JK_LOAD_ACTIVITY, JK_EXPLAIN, JK_LATENCY_HISTOGRAM,
		JK_TIMER_LATENCY_HISTOGRAM };
	char *md = slurp("doc/json.md"), keys[256][64];
	ck_assert_ptr_nonnull(md);
	size_t n = doc_result_keys(md, keys, 256);
	ck_assert_uint_gt(n, 0);
	const struct task_figure *f;
	for (size_t i = 0; (f = figure_row(i)); i++)
		for (unsigned c = 0; f->json_key && c < 1u + (f->ci != NULL); c++) {
			const char *k = c ? f->ci->json_key : f->json_key;
			bool found = false;
			for (size_t j = 0; j < n && !found; j++)
				found = strcmp(keys[j], k) == 0;
			ck_assert_msg(found, "%s is not in the key column of doc/json.md's \"A result\" table", k);
		}
	for (size_t j = 0; j < n; j++) {
		bool known = is_figure_key(keys[j]);
		for (size_t m = 0; m < sizeof(members) / sizeof(members[0]) && !known; m++)
			known = strcmp(keys[j], members[m]) == 0;
		ck_assert_msg(known, "doc/json.md names %s, which no table row writes", keys[j]);
	}
	const char *settings[] = { JK_TASK_SETTINGS, JK_BUFFER_PERIODS, "cpu_pct", "fixed_work" };
	char *schema = slurp("doc/interbench-result.schema.json");
	ck_assert_ptr_nonnull(schema);
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		ck_assert_msg(has_quoted(md, settings[i], '`'), "%s is not in doc/json.md", settings[i]);
		ck_assert_msg(has_quoted(schema, settings[i], '"'), "%s is not in the schema", settings[i]);
	}
	free(schema);
	free(md);
}
END_TEST

/* The end of the string or character literal opening at p (its closing quote, or the line's
 * end), escapes skipped. */
static char *literal_end(char *p)
{
	char q = *p++;
	while (*p && *p != q && *p != '\n')
		p += p[0] == '\\' && p[1] ? 2 : 1;
	return p;
}

/* text with every comment blanked (newlines kept): slash-star ... star-slash over any number
 * of lines and slash-slash to the line's end; quotes inside a literal or a comment are not
 * taken for a comment's start or end. */
static void blank_comments(char *text)
{
	for (char *p = text; *p;) {
		if (*p == '"' || *p == '\'') {
			p = literal_end(p);
			p += *p != '\0';
		} else if (p[0] == '/' && (p[1] == '*' || p[1] == '/')) {
			char *end = p[1] == '*' ? strstr(p + 2, "*/") : strchr(p, '\n');
			end = end ? end + (p[1] == '*' ? 2 : 0) : p + strlen(p);
			for (; p < end; p++)
				if (*p != '\n')
					*p = ' ';
		} else {
			p++;
		}
	}
}

/* No figure's key is typed again by a writer or a reader of results (every .c file of report/
 * and tools/ but the table's own, report/figures.c): they take it from the table (FIGURE_KEY,
 * TASK_FIGURE_KEY, figure_of_metric).  explain/ is left out: its "periods" are --explain's
 * kept periods, not the figure. */
START_TEST(test_figure_keys_not_typed)
{
	glob_t g;
	ck_assert_int_eq(glob("report/*.c", 0, NULL, &g), 0);
	ck_assert_int_eq(glob("tools/*.c", GLOB_APPEND, NULL, &g), 0);
	ck_assert_uint_gt(g.gl_pathc, 10);
	for (size_t k = 0; k < g.gl_pathc; k++) {
		if (strcmp(g.gl_pathv[k], "report/figures.c") == 0)
			continue;
		char *text = slurp(g.gl_pathv[k]);
		ck_assert_msg(text, "%s: cannot read", g.gl_pathv[k]);
		blank_comments(text);
		const struct task_figure *f;
		for (size_t i = 0; (f = figure_row(i)); i++) {
			ck_assert_msg(!f->json_key || !has_quoted(text, f->json_key, '"'), "%s types \"%s\"", g.gl_pathv[k],
				      f->json_key);
			ck_assert_msg(!f->ci || !has_quoted(text, f->ci->json_key, '"'), "%s types \"%s\"", g.gl_pathv[k],
				      f->ci->json_key);
		}
		free(text);
	}
	globfree(&g);
}
END_TEST

/* blank_comments blanks what is a comment and keeps code, whatever a line starts with. */
START_TEST(test_blank_comments)
{
	char text[] = "a = 1; /* \"x\"\n * \"y\" */ *p = \"z\";\n// \"w\"\ns = \"/* \\\" */\"; c = '\"';";
	blank_comments(text);
	ck_assert_msg(!has_quoted(text, "x", '"') && !has_quoted(text, "y", '"') && !has_quoted(text, "w", '"'), "%s", text);
	ck_assert_msg(has_quoted(text, "z", '"') && strstr(text, "*p = ") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "s = \"/* \\\" */\"") != NULL, "%s", text);
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
	s.sched_p99_hi_ns = INFINITY;  /* open above: [low, null], the max no bound */
	r = result_of(task_figures, task_figures_n, &s);
	p99 = json_object_get(r, "latency_p99_ns_ci");
	ck_assert_int_eq(json_integer_value(json_array_get(p99, 0)), 1500000);
	ck_assert(json_array_size(p99) == 2 && json_is_null(json_array_get(p99, 1)));
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
 * periods has none; one of 200 periods has a p99 interval open above (high INFINITY). */
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
		if (i == 199) {   /* 200 periods: too few for any to bound the p99 (368 at 95 %) */
			pair_summarize(&r, &s);
			ck_assert(s.sched_p99_lo_ns <= s.sched_p99_ns && isinf(s.sched_p99_hi_ns));
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
		{ .samples = 0, .sched_p99_ns = 0, .periods = 10, .task_run_ns = 1000, .frame_samples = 0 },
		{ .samples = 5, .sched_p99_ns = 300, .periods = 20, .task_run_ns = 2000, .frame_samples = 19,
		  .loop_periods = 20 },
		{ .samples = 7, .sched_p99_ns = 500, .periods = 30, .task_run_ns = 3000, .frame_samples = 29,
		  .loop_periods = 30 },
	};
	struct pair_summary med;
	double lo, hi;
	summary_median(reps, 3, &med, &lo, &hi);
	ck_assert_uint_eq(med.sched_p99_ns, 400);  /* over the 2 with samples */
	ck_assert_uint_eq(med.periods, 20);        /* over all 3 */
	ck_assert_uint_eq(med.task_run_ns, 2000);
	ck_assert_uint_eq(med.samples, 6);
	/* the counts the null rules read: a frame time and a stolen time most repeats measured shown */
	ck_assert_uint_eq(med.frame_samples, 19);
	ck_assert_uint_eq(med.loop_periods, 20);
}
END_TEST

/* A task's medians take its own rows alone: ProAudio's block read through Pipeline's rows at
 * the same offsets (a double's bits as an integer) must not overwrite them.  Two repeats, so
 * the median is the mean of the two: start<1ms 60 and 99 give 79.5. */
START_TEST(test_median_own_rows)
{
	struct pair_summary s[2] = { { .samples = 10 }, { .samples = 10 } }, med;
	const double start_1ms[2] = { 60, 99 };
	for (unsigned i = 0; i < 2; i++) {
		struct audio_figures fig = { .xruns = 2 * i, .worst_overrun_ns = 1000, .start_1ms_pct = start_1ms[i],
					     .start_2ms_pct = 100 };
		snprintf(s[i].task.name, sizeof(s[i].task.name), "%s", proaudio_buffer_measures.name);
		memcpy(s[i].task.data.bytes, &fig, sizeof(fig));
	}
	double lo, hi;
	summary_median(s, 2, &med, &lo, &hi);
	struct audio_figures got;
	memcpy(&got, med.task.data.bytes, sizeof(got));
	ck_assert_double_eq_tol(got.start_1ms_pct, 79.5, 1e-9);
	ck_assert_double_eq_tol(got.start_2ms_pct, 100, 1e-9);
	ck_assert_uint_eq(got.xruns, 1);
	ck_assert_str_eq(med.task.name, proaudio_buffer_measures.name);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("figures");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_schema_figures);
	tcase_add_test(tc, test_key_units);
	tcase_add_test(tc, test_doc_figures);
	tcase_add_test(tc, test_figure_keys_not_typed);
	tcase_add_test(tc, test_blank_comments);
	tcase_add_test(tc, test_table_consistent);
	tcase_add_test(tc, test_added_figure_flows);
	tcase_add_test(tc, test_median_groups);
	tcase_add_test(tc, test_median_own_rows);
	tcase_add_test(tc, test_intervals_written);
	tcase_add_test(tc, test_summarize_intervals);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
