/* What plot reads of a JSON result beyond what compare reads (result_json_load, tools/plot.h):
 * the histograms, the integers it draws or matches, the task settings and the sweeps. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/histogram.h"
#include "lib/safefile.h"
#include "report/jsonkeys.h"
#include "engine/summary.h"   /* FIGURE_KEY's fields */
#include "tools/plot.h"
#include "tools/result_read.h"

/* Whether v is an integer within [0, max]. */
static bool json_in_range(const json_t *v, json_int_t max)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= max;
}

/* results[idx].key, when present: an array of at most HIST_BUCKETS [low_ns, count] pairs, both
 * non-negative integers (doc/json.md). */
static int json_hist_check(const json_t *r, const char *key, size_t idx, char *err, size_t errlen)
{
	const json_t *h = json_object_get(r, key), *b;
	size_t i;
	if (!h)
		return 0;
	if (!json_is_array(h) || json_array_size(h) > HIST_BUCKETS)
		return rs_fail(err, errlen, "results[%zu].%s: not an array of at most %u buckets", idx, key, HIST_BUCKETS);
	json_array_foreach(h, i, b)
		if (json_array_size(b) != 2 || !json_in_range(json_array_get(b, 0), INT64_MAX) ||
		    !json_in_range(json_array_get(b, 1), INT64_MAX))
			return rs_fail(err, errlen, "results[%zu].%s[%zu]: not a [low_ns, count] pair of non-negative integers",
				    idx, key, i);
	return 0;
}

/* What plot reads of results[idx] beyond the figures compare reads: the histograms, and the
 * optional integers it draws or matches (absent or null, else within their range). */
static int json_drawn_check(const json_t *r, size_t idx, char *err, size_t errlen)
{
	const struct { const char *key; json_int_t max; } opt[] = {
		{ JK_REPEAT, RS_MAX_REPEATS }, { FIGURE_KEY(interval_us), INT64_MAX }, { FIGURE_KEY(sched_p50_ns), INT64_MAX },
		{ JK_TIMELINE_PAIR, UINT32_MAX },
	};
	for (size_t k = 0; k < sizeof(opt) / sizeof(opt[0]); k++) {
		const json_t *v = json_object_get(r, opt[k].key);
		if (v && !json_is_null(v) && !json_in_range(v, opt[k].max))
			return rs_fail(err, errlen, "results[%zu].%s: not an integer in 0..%lld", idx, opt[k].key,
				    (long long)opt[k].max);
	}
	const json_t *ts = json_object_get(r, JK_TASK_SETTINGS), *bp = json_object_get(ts, JK_BUFFER_PERIODS);
	if (ts && (!json_is_object(ts) || (bp && !json_in_range(bp, UINT32_MAX))))
		return rs_fail(err, errlen, "results[%zu].%s: not an object with %s an integer in 0..%u", idx,
			    JK_TASK_SETTINGS, JK_BUFFER_PERIODS, UINT32_MAX);
	if (json_hist_check(r, JK_LATENCY_HISTOGRAM, idx, err, errlen) != 0)
		return -1;
	return json_hist_check(r, JK_TIMER_LATENCY_HISTOGRAM, idx, err, errlen);
}

/* Whether a is an array of 1 to RS_MAX_SWEEP_SETTINGS strings. */
static bool json_setting_names(const json_t *a)
{
	size_t i;
	const json_t *s;
	if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > RS_MAX_SWEEP_SETTINGS)
		return false;
	json_array_foreach(a, i, s)
		if (!json_is_string(s))
			return false;
	return true;
}

/* A sweep cell: null (not measured) or the % deadlines met (ppm) and p99 (ns or null). */
static bool json_sweep_cell(const json_t *c)
{
	const json_t *p99 = json_object_get(c, FIGURE_KEY(sched_p99_ns));
	return json_is_null(c) || (json_is_object(c) && json_in_range(json_object_get(c, FIGURE_KEY(deadlines_met_pct)), 1000000) &&
				   (json_is_null(p99) || json_in_range(p99, INT64_MAX)));
}

/* sweeps[idx]: names, the settings of both axes and a cell per pair of them. */
static int json_sweep_check(const json_t *sw, size_t idx, char *err, size_t errlen)
{
	const json_t *rows = json_object_get(sw, JK_BENCH_SETTINGS), *cols = json_object_get(sw, JK_LOAD_SETTINGS);
	const json_t *cells = json_object_get(sw, JK_CELLS);
	if (!rs_json_str(sw, JK_SIMULATION) || !rs_json_str(sw, JK_LOAD) || !json_setting_names(rows) ||
	    !json_setting_names(cols) || json_array_size(cells) != json_array_size(rows))
		return rs_fail(err, errlen, "sweeps[%zu]: not an object with string \"simulation\" and \"load\", 1 to %d "
			    "\"bench_settings\" and \"load_settings\" and a row of \"cells\" per bench setting", idx,
			    RS_MAX_SWEEP_SETTINGS);
	for (size_t r = 0; r < json_array_size(rows); r++) {
		const json_t *row = json_array_get(cells, r);
		if (json_array_size(row) != json_array_size(cols))
			return rs_fail(err, errlen, "sweeps[%zu].cells[%zu]: not an array of a cell per load setting", idx, r);
		for (size_t c = 0; c < json_array_size(cols); c++)
			if (!json_sweep_cell(json_array_get(row, c)))
				return rs_fail(err, errlen, "sweeps[%zu].cells[%zu][%zu]: not null or an object with integer "
					    "\"%s\" (0..1000000) and \"%s\"", idx, r, c, FIGURE_KEY(deadlines_met_pct), FIGURE_KEY(sched_p99_ns));
	}
	return 0;
}

/* Checks what of doc result_set_parse does not read (json_drawn_check, json_sweep_check). */
static int json_doc_drawn_check(const json_t *doc, char *err, size_t errlen)
{
	const json_t *sweeps = json_object_get(doc, JK_SWEEPS), *v;
	size_t i;
	json_array_foreach(json_object_get(doc, JK_RESULTS), i, v)
		if (json_drawn_check(v, i, err, errlen) != 0)
			return -1;
	if (sweeps && !json_is_array(sweeps))
		return rs_fail(err, errlen, "\"sweeps\": not an array");
	json_array_foreach(sweeps, i, v)
		if (json_sweep_check(v, i, err, errlen) != 0)
			return -1;
	return 0;
}

json_t *result_json_load(const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	struct result_set rs;
	json_t *doc = NULL;
	char *buf = safe_read_file(path, RS_MAX_BYTES, &len, err, errlen);
	if (!buf)
		return NULL;
	memset(&rs, 0, sizeof(rs));
	if (buf[strspn(buf, " \t\r\n")] != '{')
		rs_fail(err, errlen, "not a JSON result (a logfile carries no histograms)");
	else
		doc = rs_load_json(buf, len, err, errlen);
	free(buf);   /* the document is parsed once, then validated as compare and plot read it */
	if (doc && (rs_parse_json_doc(doc, &rs, err, errlen) != 0 || json_doc_drawn_check(doc, err, errlen) != 0)) {
		json_decref(doc);
		doc = NULL;
	}
	result_set_free(&rs);
	return doc;
}
