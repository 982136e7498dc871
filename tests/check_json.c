/* JSON results: a document written by the report writer reads back through compare's reader
 * with the same numbers; malformed, truncated and hostile input is refused with one line. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/version.h"
#include "report/json_report.h"
#include "tools/resultset.h"
#include "engine/summary.h"
#include "tests/ck_run.h"

/* A measured result with known figures: latencies 1000, 2000, ... 100000 ns. */
static void fake_result(struct sim_result *r)
{
	memset(r, 0, sizeof(*r));
	for (uint64_t i = 1; i <= 100; i++) {
		lat_stats_add(&r->sched, i * 1000);
		hist_add(&r->sched_hist, i * 1000);
		lat_stats_add(&r->timer, i * 10);
		hist_add(&r->timer_hist, i * 10);
		lat_stats_add(&r->classic, i * 2000);  /* interbench 0.31's latency, distinct */
	}
	r->acct = (struct deadline_acct){ .periods = 100, .met = 97, .missed = 3, .skipped = 1,
					  .work_wanted_us = 300000, .work_done_us = 299000 };
}

/* A new document for this machine with the default options, -m comment (or NULL) and, unless
 * NULL, cpu_model in place of the real one. */
static json_t *new_doc(const char *comment, const char *cpu_model)
{
	struct machine_info m;
	struct run_info info = { .kernel_release = "6.1.0", .datestamp = "202601010000", .loops_per_ms = 1000,
				 .loops_source = "-l", .duration_s = 1, .cpus = 2, .load_threads = 2 };
	struct options o;
	options_init(&o);
	o.comment = comment;
	machine_info_collect(&m);
	if (cpu_model)
		snprintf(m.cpu_model, sizeof(m.cpu_model), "%s", cpu_model);
	json_t *doc = report_new(&m, &info, &o);
	ck_assert_ptr_nonnull(doc);
	return doc;
}

/* rec as the record of a run of 1 s: measured as r (the bench process's bench_record_make), or
 * failed with why when r is NULL; returns rec (bench_record_free frees it). */
static const struct pair_outcome *record_of(struct pair_outcome *rec, const struct sim_result *r, const char *why)
{
	bench_record_free(&rec->bench);
	memset(rec, 0, sizeof(*rec));
	rec->ok = r != NULL;
	rec->window_ns = 1000000000;
	if (r)
		ck_assert_int_eq(bench_record_make(r, &rec->bench), 0);
	else
		snprintf(rec->why, sizeof(rec->why), "%s", why);
	return rec;
}

/* Writes a document with Audio/None measured (repeats 1 and 2) and Audio/Burn failed; returns
 * the document text (malloc'd). */
static char *write_doc(const struct sim_result *r, char *path)
{
	static struct pair_outcome rec;
	json_t *doc = new_doc(NULL, NULL);
	struct report_entry e = { .simulation = "Audio", .load = "None", .mode = "", .repeat = 1,
				  .has_deadlines = true, .rec = record_of(&rec, r, NULL) };
	ck_assert_int_eq(report_add(doc, &e), 0);
	e.repeat = 2;
	ck_assert_int_eq(report_add(doc, &e), 0);
	e.load = "Burn";
	e.rec = record_of(&rec, NULL, "load: cannot start");
	ck_assert_int_eq(report_add(doc, &e), 0);
	bench_record_free(&rec.bench);
	char err[256];
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(report_write(doc, path, err, sizeof(err)), 0);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(doc);
	return text;
}

/* The compact text of a document holding fake_result's pairs (the file it went through removed). */
static char *fake_doc_text(void)
{
	static struct sim_result r;
	char path[] = "/tmp/check_json_XXXXXX";
	fake_result(&r);
	char *text = write_doc(&r, path);
	unlink(path);
	return text;
}

START_TEST(round_trip)
{
	static struct sim_result r;
	struct pair_summary s;
	struct result_set rs;
	char path[] = "/tmp/check_json_XXXXXX", err[256] = "";
	fake_result(&r);
	pair_summarize(&r, &s);
	free(write_doc(&r, path));
	ck_assert_msg(result_set_load(path, &rs, err, sizeof(err)) == 0, "%s", err);
	unlink(path);
	ck_assert_str_eq(rs.format, "json");
	const struct rs_pair *p = result_set_find(&rs, "Audio", "None");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 2);
	ck_assert_double_eq(p->v[1].m[JM_SMEAN], (double)llround(s.latency_mean_ns));
	ck_assert_double_eq(p->v[1].m[JM_SMEAN], 50500);     /* scheduling latency */
	ck_assert_double_eq(p->v[1].m[JM_MEAN], (double)llround(s.classic_mean_ns));
	ck_assert_double_eq(p->v[1].m[JM_MEAN], 101000);     /* interbench 0.31's definition */
	ck_assert_double_eq(p->v[1].m[JM_P99], (double)s.sched_p99_ns);
	ck_assert_double_eq(p->v[1].m[JM_SMAX], 100000);
	ck_assert_double_eq(p->v[1].m[JM_MAX], 200000);
	ck_assert_double_eq_tol(p->v[1].m[JM_CPU], s.desired_cpu_pct, 1e-4);
	ck_assert_double_eq(p->v[1].m[JM_MET], 97);
	const struct rs_pair *f = result_set_find(&rs, "Audio", "Burn");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->n, 0);
	ck_assert_uint_eq(f->failed, 1);
	ck_assert_str_eq(f->why, "load: cannot start");
	result_set_free(&rs);
}
END_TEST

/* The generator names this program with its version; results from before the version was
 * added ("interbench" alone) stay readable, anything else is not ours. */
START_TEST(generator_names_the_version)
{
	char *text = fake_doc_text();
	json_t *doc = json_loads(text, 0, NULL);
	free(text);
	const char *gen = json_string_value(json_object_get(doc, "generator"));
	char want[96];
	snprintf(want, sizeof(want), "interbench %s", ib_version());
	ck_assert_str_eq(gen, want);
	json_decref(doc);
	ck_assert(report_generator_is_ours("interbench"));
	ck_assert(report_generator_is_ours("interbench 1.0.0-g64ec61c-dirty"));
	ck_assert(!report_generator_is_ours("interbench "));
	ck_assert(!report_generator_is_ours("interbenchX 1.0"));
	ck_assert(!report_generator_is_ours("fio 3.33"));
}
END_TEST

/* Parses text; asserts it is refused with a single-line reason. */
static void refused(const char *text, size_t len, const char *what)
{
	struct result_set rs;
	char err[256] = "";
	ck_assert_msg(result_set_parse(text, len, &rs, err, sizeof(err)) == -1, "%s: accepted", what);
	ck_assert_msg(err[0] && !strchr(err, '\n'), "%s: reason '%s'", what, err);
	ck_assert_ptr_null(rs.pairs);
}

START_TEST(truncated_documents)
{
	char *text = fake_doc_text();
	size_t len = strlen(text);
	for (size_t cut = 0; cut < len; cut += 3)
		refused(text, cut, "truncated document");
	free(text);
}
END_TEST

static const char *const bad_docs[] = {
	"{}",
	"[]",
	"{\"generator\":\"interbench\",\"schema_version\":4,\"results\":[]}",
	"{\"generator\":\"interbench\",\"schema_version\":\"1\",\"results\":[]}",
	"{\"generator\":\"other\",\"schema_version\":1,\"results\":[]}",
	"{\"generator\":\"interbench\",\"schema_version\":1}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":{}}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[42]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\"}]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\","
	"\"latency_mean_ns\":-5,\"latency_p99_ns\":1,\"latency_max_ns\":1,\"desired_cpu_ppm\":1,\"deadlines_met_ppm\":1}]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\","
	"\"latency_mean_ns\":1.5,\"latency_p99_ns\":1,\"latency_max_ns\":1,\"desired_cpu_ppm\":1,\"deadlines_met_ppm\":1}]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\","
	"\"latency_mean_ns\":99999999999999999999999,\"latency_p99_ns\":1,\"latency_max_ns\":1}]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\","
	"\"latency_mean_ns\":NaN}]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\","
	"\"latency_mean_ns\":1,\"latency_p99_ns\":1,\"latency_max_ns\":1,\"desired_cpu_ppm\":20000000,\"deadlines_met_ppm\":1}]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\",\"failed\":7}]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"schema_version\":1,\"results\":[]}",
	"{\"generator\":\"interbench\",\"schema_version\":1,\"results\":[{\"simulation\":\"\",\"load\":\"None\",\"failed\":\"x\"}]}",
	"",
	"   \n\t ",
	"garbage",
	"{\"a\":",
};

START_TEST(malformed_documents)
{
	for (size_t i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++)
		refused(bad_docs[i], strlen(bad_docs[i]), bad_docs[i]);
	static const char nul[] = "{\"generator\":\"interbench\"\0}";
	refused(nul, sizeof(nul) - 1, "NUL byte");
	/* Deeply nested arrays: jansson limits the depth. */
	size_t depth = 100000;
	char *deep = malloc(depth + 1);
	memset(deep, '[', depth);
	deep[depth] = '\0';
	deep[0] = '{';
	refused(deep, depth, "deep nesting");
	free(deep);
}
END_TEST

START_TEST(hostile_files)
{
	struct result_set rs;
	char err[256] = "";
	ck_assert_int_eq(result_set_load("/nonexistent/x.json", &rs, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "open: No such file or directory");
	ck_assert_int_eq(result_set_load("/tmp", &rs, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "is a directory");
	ck_assert_int_eq(result_set_load("/dev/zero", &rs, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "is not a regular file");
	char big[] = "/tmp/ib-big.XXXXXX";
	int fd = mkstemp(big);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, RS_MAX_BYTES + 1), 0);   /* sparse: no disk used */
	close(fd);
	ck_assert_int_eq(result_set_load(big, &rs, err, sizeof(err)), -1);
	unlink(big);
	ck_assert_ptr_nonnull(strstr(err, "64 MiB"));
	int fds[2];   /* a pipe handed as /dev/fd/N is read, and bounded the same way */
	ck_assert_int_eq(pipe(fds), 0);
	close(fds[1]);
	snprintf(big, sizeof(big), "/dev/fd/%d", fds[0]);
	ck_assert_int_eq(result_set_load(big, &rs, err, sizeof(err)), -1);
	close(fds[0]);
	ck_assert_str_eq(err, "empty file");
}
END_TEST

/* report_text(in)'s string equals want. */
static void text_is(const char *in, const char *want)
{
	json_t *j = report_text(in);
	ck_assert_ptr_nonnull(j);
	ck_assert_msg(strcmp(json_string_value(j), want) == 0, "'%s' gave '%s', wanted '%s'", in,
		      json_string_value(j), want);
	json_decref(j);
}

#define FFFD "\xef\xbf\xbd"

START_TEST(utf8_repair)
{
	const char *valid[] = { "", "plain ASCII: -m \"x\" \\ /tmp/wd", "Gr\xc3\xbc\xc3\x9f""e",
				"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "\xf0\x9f\x98\x80 U+1F600",
				"\xf4\x8f\xbf\xbf (U+10FFFF)", FFFD " itself", "\xed\x9f\xbf (U+D7FF)" };
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++)
		text_is(valid[i], valid[i]);
	text_is("\xff", FFFD);
	text_is("a\x80z", "a" FFFD "z");                       /* stray continuation byte */
	text_is("end \xc3", "end " FFFD);                      /* truncated at the end */
	text_is("\xe2\x82x", FFFD FFFD "x");                    /* truncated in the middle */
	text_is("\xf0\x9f\x98", FFFD FFFD FFFD);
	text_is("\xc0\xaf", FFFD FFFD);                         /* overlong '/' */
	text_is("\xe0\x80\xaf", FFFD FFFD FFFD);
	text_is("\xf0\x80\x80\xaf", FFFD FFFD FFFD FFFD);
	text_is("\xed\xa0\x80", FFFD FFFD FFFD);                 /* surrogate U+D800 */
	text_is("\xed\xbf\xbf", FFFD FFFD FFFD);                 /* surrogate U+DFFF */
	text_is("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD);         /* U+110000 */
	text_is("\xf8\x88\x80\x80\x80", FFFD FFFD FFFD FFFD FFFD); /* 5-byte form */
	text_is("/tmp/\xfe\xff" "dir: \xc3\xa9t\xc3", "/tmp/" FFFD FFFD "dir: \xc3\xa9t" FFFD);
	ck_assert_ptr_null(report_text(NULL));
}
END_TEST

/* A report whose comment, machine and failure reason carry invalid UTF-8 still serialises, and
 * reads back with U+FFFD in their place. */
START_TEST(invalid_text_serialises)
{
	static struct pair_outcome rec;
	json_t *doc = new_doc("bad \xff comment", "CPU \xc0\xaf");
	struct report_entry e = { .simulation = "Audio", .load = "Write", .mode = "", .repeat = 1, .has_deadlines = true,
				  .rec = record_of(&rec, NULL, "open /tmp/\xfe/interbench-x.tmp: Permission denied") };
	ck_assert_int_eq(report_add(doc, &e), 0);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(doc);
	ck_assert_ptr_nonnull(text);
	json_error_t je;
	json_t *back = json_loads(text, 0, &je);
	free(text);
	ck_assert_msg(back != NULL, "%s", je.text);
	const char *comment = json_string_value(json_object_get(json_object_get(back, "options"), "comment"));
	ck_assert_str_eq(comment, "bad " FFFD " comment");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(back, "machine"), "cpu_model")),
			 "CPU " FFFD FFFD);
	json_t *res = json_array_get(json_object_get(back, "results"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(res, "failed")),
			 "open /tmp/" FFFD "/interbench-x.tmp: Permission denied");
	json_decref(back);
}
END_TEST

/* The whole content of path (malloc'd). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	ck_assert_int_gt(n, 0);
	return buf;
}

START_TEST(create_never_overwrites)
{
	static struct sim_result r;
	static struct pair_outcome rec;
	char dir[] = "/tmp/check_json_XXXXXX", stem[64], name[3][96], err[256] = "";
	fake_result(&r);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(stem, sizeof(stem), "%s/6.1.0-202601010000", dir);
	json_t *doc = new_doc("same minute", NULL);
	struct report_entry e = { .simulation = "Audio", .load = "None", .mode = "", .repeat = 1,
				  .has_deadlines = true, .rec = record_of(&rec, &r, NULL) };
	ck_assert_int_eq(report_add(doc, &e), 0);
	bench_record_free(&rec.bench);
	for (int i = 0; i < 3; i++)
		ck_assert_msg(report_create(doc, stem, name[i], sizeof(name[i]), err, sizeof(err)) == 0, "%s", err);
	char want[96];
	snprintf(want, sizeof(want), "%s.json", stem);
	ck_assert_str_eq(name[0], want);
	snprintf(want, sizeof(want), "%s-2.json", stem);
	ck_assert_str_eq(name[1], want);
	snprintf(want, sizeof(want), "%s-3.json", stem);
	ck_assert_str_eq(name[2], want);
	char *a = slurp(name[0]), *b = slurp(name[1]), *dumped = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(a, b);
	ck_assert_str_eq(a, dumped);
	free(a);
	free(b);
	free(dumped);
	/* Bounded: once every name up to -100 is taken, the next refuses to overwrite. */
	for (int i = 4; i <= REPORT_CREATE_TRIES; i++)
		ck_assert_msg(report_create(doc, stem, name[0], sizeof(name[0]), err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(report_create(doc, stem, name[0], sizeof(name[0]), err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "open %s-%d.json: File exists", stem, REPORT_CREATE_TRIES);
	ck_assert_str_eq(err, want);
	for (int i = 1; i <= REPORT_CREATE_TRIES; i++) {
		char path[96];
		if (i == 1)
			snprintf(path, sizeof(path), "%s.json", stem);
		else
			snprintf(path, sizeof(path), "%s-%d.json", stem, i);
		ck_assert_int_eq(unlink(path), 0);
	}
	/* Errors name the system call and the file. */
	ck_assert_int_eq(report_create(doc, "/nonexistent/x", name[0], sizeof(name[0]), err, sizeof(err)), -1);
	ck_assert_str_eq(err, "open /nonexistent/x.json: No such file or directory");
	ck_assert_int_eq(report_write(doc, "/nonexistent/y.json", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "open /nonexistent: No such file or directory (the directory of /nonexistent/y.json)");
	ck_assert_int_eq(report_create(doc, stem, name[0], 8, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "file name too long"));
	json_decref(doc);
	rmdir(dir);
}
END_TEST

/* The non-empty buckets of h match the n of b, in order. */
static void buckets_match(const struct lat_hist *h, const struct hist_bucket *b, uint32_t n)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < HIST_BUCKETS; i++)
		if (h->counts[i]) {
			ck_assert_uint_lt(k, n);
			ck_assert_uint_eq(b[k].index, i);
			ck_assert_uint_eq(b[k].count, h->counts[i]);
			k++;
		}
	ck_assert_uint_eq(k, n);
}

/* The record the bench process sends (run/pair.h) keeps what the JSON writes of its result:
 * both histograms' non-empty buckets, by index, and the explained periods kept, oldest first,
 * after the ring went round. */
START_TEST(record_keeps_what_the_json_writes)
{
	static struct sim_result r;
	static struct pair_outcome rec;
	static struct explain_kept k;
	fake_result(&r);
	for (uint64_t i = 0; i < EXPLAIN_KEEP + 5; i++) {
		struct explain_period p = { .index = i, .start_ns = i * 1000, .delay_ns = 10 + i };
		explain_summary_add(&r.explain, &r.explain_kept, &p);
	}
	record_of(&rec, &r, NULL);
	const struct bench_record *b = &rec.bench;
	ck_assert_uint_gt(b->sched_buckets, 1);
	buckets_match(&r.sched_hist, b->buckets, b->sched_buckets);
	buckets_match(&r.timer_hist, b->buckets + b->sched_buckets, b->timer_buckets);
	json_t *h = report_histogram(b->buckets, b->sched_buckets);
	ck_assert_uint_eq(json_array_size(h), b->sched_buckets);
	ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(h, 0), 0)),
			 (json_int_t)hist_bucket_low_ns(b->buckets[0].index));
	ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(h, 0), 1)), (json_int_t)b->buckets[0].count);
	json_decref(h);
	bench_record_kept(b, &k);
	ck_assert_uint_eq(k.n, EXPLAIN_KEEP);
	for (unsigned i = 0; i < k.n; i++)
		ck_assert_mem_eq(explain_kept_at(&k, i), explain_kept_at(&r.explain_kept, i), sizeof(struct explain_period));
	ck_assert_uint_eq(explain_kept_at(&k, 0)->index, 5);  /* the five oldest went round the ring */
	bench_record_free(&rec.bench);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, generator_names_the_version);
	tcase_add_test(tc, truncated_documents);
	tcase_add_test(tc, malformed_documents);
	tcase_add_test(tc, hostile_files);
	tcase_add_test(tc, utf8_repair);
	tcase_add_test(tc, invalid_text_serialises);
	tcase_add_test(tc, create_never_overwrites);
	tcase_add_test(tc, record_keeps_what_the_json_writes);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
