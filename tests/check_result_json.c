/* result_json_load: the JSON document plot walks is read bounded and refused, with the
 * validator's reason, when compare would refuse it or when what plot draws (histograms, the
 * integers it matches, sweeps) is malformed; a FIFO is refused without waiting. */
#define _GNU_SOURCE
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include "tools/plot.h"
#include "tools/resultset.h"
#include "tests/ck_run.h"

static char dir[64], path[96];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ib-result-json.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
}

static void teardown(void)
{
	unlink(path);
	rmdir(dir);
}

/* A valid one-result document, with a sweep. */
static json_t *good_doc(void)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:i, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:[[i,i],[i,i]]}",
		"simulation", "Audio", "load", "Burn", "mode", "", "repeat", 1, "has_deadlines", 1, "latency_mean_ns", 5000,
		"latency_p99_ns", 9000, "latency_max_ns", 90000, "desired_cpu_ppm", 1000000, "deadlines_met_ppm", 1000000,
		"interval_us", 20000, "timeline_pair", 0, "latency_histogram", 1000, 5, 2000, 7);
	json_t *sweep = json_pack("{s:s, s:s, s:[s], s:[s,s], s:[[{s:i, s:i}, n]]}", "simulation", "Audio", "load",
		"Burn", "bench_settings", "nice 0", "load_settings", "nice 0", "nice 19", "cells", "deadlines_met_ppm",
		990000, "latency_p99_ns", 9000);
	return json_pack("{s:i, s:s, s:[o], s:[o]}", "schema_version", 2, "generator", "interbench 1.0.0", "results", r,
			 "sweeps", sweep);
}

/* Writes doc (taken) to path and loads it: NULL with err set, or the document. */
static json_t *load(json_t *doc, char *err, size_t errlen)
{
	ck_assert_int_eq(json_dump_file(doc, path, 0), 0);
	json_decref(doc);
	err[0] = '\0';
	return result_json_load(path, err, errlen);
}

/* doc after setting key of results[0] (or of the document when top) to v (taken) is refused
 * with a reason containing want. */
static void refused(bool top, const char *key, json_t *v, const char *want)
{
	json_t *doc = good_doc();
	json_object_set_new(top ? doc : json_array_get(json_object_get(doc, "results"), 0), key, v);
	char err[256];
	json_t *got = load(doc, err, sizeof(err));
	ck_assert_msg(got == NULL, "%s accepted", key);
	ck_assert_msg(strstr(err, want) != NULL, "%s: \"%s\" lacks \"%s\"", key, err, want);
}

START_TEST(valid_document_returned)
{
	char err[256];
	json_t *doc = load(good_doc(), err, sizeof(err));
	ck_assert_msg(doc != NULL, "%s", err);
	ck_assert_int_eq(json_array_size(json_object_get(doc, "results")), 1);
	json_decref(doc);
}
END_TEST

START_TEST(what_compare_refuses_is_refused)
{
	refused(true, "schema_version", json_integer(99), "schema version 99 is not supported");
	refused(false, "latency_p99_ns", json_integer(-1), "latency_p99_ns: -1 out of range");
	refused(false, "latency_p99_ns", json_string("9000"), "latency_p99_ns: not an integer");
	refused(true, "results", json_array(), "no results");
}
END_TEST

/* A p99 interval open above is [low, null]: read with no upper end (INFINITY), never the max;
 * a null low or a high below the low is refused. */
START_TEST(open_interval_read)
{
	static const char doc[] = "{\"schema_version\":3,\"generator\":\"interbench\",\"results\":[{"
		"\"simulation\":\"Audio\",\"load\":\"None\",\"mode\":\"\",\"repeat\":1,\"has_deadlines\":true,"
		"\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,\"latency_p99_ns_ci\":[8000,null],"
		"\"latency_max_ns\":90000,\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	struct result_set rs = { 0 };
	char err[256];
	ck_assert_msg(result_set_parse(doc, strlen(doc), &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 1);
	ck_assert_double_eq(rs.pairs[0].v[0].lo[JM_P99], 8000);
	ck_assert(isinf(rs.pairs[0].v[0].hi[JM_P99]) && rs.pairs[0].v[0].hi[JM_P99] > 0);
	result_set_free(&rs);
	refused(false, "latency_p99_ns_ci", json_pack("[n,i]", 9000), "latency_p99_ns_ci");
	refused(false, "latency_p99_ns_ci", json_pack("[i,i]", 9000, 8000), "latency_p99_ns_ci");
}
END_TEST

START_TEST(what_plot_draws_is_checked)
{
	refused(false, "latency_histogram", json_pack("[[i,i],[i]]", 1, 2, 3), "latency_histogram[1]: not a [low_ns, count]");
	refused(false, "timer_latency_histogram", json_pack("[[i,i]]", 1, -2), "timer_latency_histogram[0]");
	refused(false, "latency_histogram", json_pack("[[s,i]]", "1", 2), "latency_histogram[0]");
	json_t *many = json_array();
	for (int i = 0; i < 5000; i++)
		json_array_append_new(many, json_pack("[i,i]", i, 1));
	refused(false, "latency_histogram", many, "at most 3968 buckets");
	refused(false, "timeline_pair", json_integer(-3), "timeline_pair: not an integer in 0..4294967295");
	refused(false, "interval_us", json_string("20000"), "interval_us");
	refused(true, "sweeps", json_pack("[{s:s, s:s, s:[s], s:[s], s:[[{s:i}]]}]", "simulation", "A", "load", "B",
		"bench_settings", "x", "load_settings", "y", "cells", "deadlines_met_ppm", 2000000), "sweeps[0].cells[0][0]");
	refused(true, "sweeps", json_pack("[{s:s, s:s, s:[s], s:[s], s:[]}]", "simulation", "A", "load", "B",
		"bench_settings", "x", "load_settings", "y", "cells"), "sweeps[0]: not an object");
}
END_TEST

START_TEST(fifo_and_logfile_refused)
{
	char err[256];
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_ptr_null(result_json_load(path, err, sizeof(err)));
	ck_assert_msg(strstr(err, "is a FIFO") != NULL, "%s", err);
	unlink(path);
	FILE *f = fopen(path, "w");
	fputs("Using 1 loops per ms\n", f);
	fclose(f);
	ck_assert_ptr_null(result_json_load(path, err, sizeof(err)));
	ck_assert_msg(strstr(err, "not a JSON result") != NULL, "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("result_json");
	TCase *tc = tcase_create("result_json");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, valid_document_returned);
	tcase_add_test(tc, what_compare_refuses_is_refused);
	tcase_add_test(tc, what_plot_draws_is_checked);
	tcase_add_test(tc, open_interval_read);
	tcase_add_test(tc, fifo_and_logfile_refused);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
