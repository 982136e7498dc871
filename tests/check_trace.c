/* The --trace output (report/output_trace.c) driven through its hooks with period records of
 * known shape written where a bench process writes them (run->timeline_fd), then read back
 * with jansson: a slice per late, dropped and unfinished period, the sub-run and pair slices,
 * one counter sample a period, the caps and the "truncated" they leave in the trace, frames
 * spread over tracks so that none overlaps another on its track, the --timeline file read
 * back when one is written, and a link planted at the name refused. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/timeline.h"
#include "lib/timeutil.h"
#include "report/output_trace.h"
#include "run/options.h"
#include "run/plan.h"
#include "run/sweep.h"

struct fixture {
	struct options opt;
	struct sweep_side bench, load;
	struct plan plan;
	struct report_run run;
	struct trace_output t;
	char dir[64], path[96];
};

/* Options for task (Audio, Pipeline) against None with --trace into a fresh directory, and
 * the output opened and begun. */
static void fixture_open(struct fixture *f, const char *task, int timeline_fd)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/check_trace.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/t.json", f->dir);
	char *argv[] = { "interbench", "-W", (char *)task, "-w", "None", "-c", "--trace", f->path, NULL }, err[512];
	options_init(&f->opt);
	ck_assert_msg(options_parse(&f->opt, 8, argv, err, sizeof(err)) == OPT_OK, "%s", err);
	sweep_build(&f->opt, 97, &f->bench, &f->load);
	struct plan_input in = { .opt = &f->opt, .bench = &f->bench, .load = &f->load, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&f->plan, &in), 0);
	f->run = (struct report_run){ .opt = &f->opt, .in = { .plan = &f->plan, .bench = &f->bench, .load = &f->load },
				      .timeline_fd = timeline_fd };
	snprintf(f->run.info.kernel_release, sizeof(f->run.info.kernel_release), "6.test");
	ck_assert_int_eq(report_output_trace.open(&f->t, &f->run), 0);
	ck_assert_int_ge(f->run.timeline_fd, 0);
	report_output_trace.begin(&f->t, &f->run);
}

/* Appends records r[0..n) as the bench process does. */
static void put_records(int fd, const struct timeline_rec *r, size_t n)
{
	unsigned char buf[TIMELINE_RECORD_BYTES];
	for (size_t i = 0; i < n; i++) {
		timeline_encode(&r[i], buf);
		ck_assert_int_eq(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	}
}

/* A measured sub-run with deadlines_missed of missed, periods from origin_ns. */
static struct pair_outcome outcome(uint64_t origin_ns, uint64_t missed)
{
	struct pair_outcome po = { .ran = true, .ok = true, .timeline_pair = 0, .window_start_ns = origin_ns - 1000,
				   .window_ns = 2 * NS_PER_S };
	po.bench.start_ns = origin_ns;
	po.bench.summary.deadlines_missed = missed;
	return po;
}

/* Closes the output (committed) and reads the trace back. */
static json_t *fixture_close(struct fixture *f)
{
	struct report_end end = { .commit = true };
	ck_assert_int_eq(report_output_trace.close(&f->t, &f->run, &end), 0);
	json_error_t jerr;
	json_t *doc = json_load_file(f->path, 0, &jerr);
	ck_assert_msg(doc != NULL, "%s: %s (line %d)", f->path, jerr.text, jerr.line);
	unlink(f->path);
	ck_assert_int_eq(rmdir(f->dir), 0); /* nothing else left behind */
	plan_free(&f->plan);
	return doc;
}

/* Events of phase ph named name (NULL: any). */
static size_t count(const json_t *doc, const char *ph, const char *name)
{
	size_t n = 0, i;
	json_t *e;
	json_array_foreach(json_object_get(doc, "traceEvents"), i, e)
		n += strcmp(json_string_value(json_object_get(e, "ph")), ph) == 0 &&
		     (!name || strcmp(json_string_value(json_object_get(e, "name")), name) == 0);
	return n;
}

/* 100 periods of 10 ms, 3 of them late, the second with 2 dropped after it, and 4 deadlines
 * passed unfinished at the end: 3 + 2 + 4 slices on the late track equal deadlines_missed;
 * a counter sample a period; the sub-run and the pair as slices; the memory file emptied. */
START_TEST(late_periods_match_missed_deadlines)
{
	static struct fixture f;
	fixture_open(&f, "Audio", -1);
	uint64_t origin = now_ns(), interval = f.plan.items[0].spec.interval_us * 1000;
	struct timeline_rec r[100];
	for (uint32_t i = 0, p = 0; i < 100; i++) {
		bool late = i == 10 || i == 40 || i == 70;
		r[i] = (struct timeline_rec){ .period = p, .start_ns = p * interval, .late_ns = late ? 3 * interval / 2 : 1000,
					      .sched_ns = 500, .flags = late ? 0 : TIMELINE_MET, .skipped = i == 40 ? 2 : 0 };
		p += 1 + r[i].skipped;
	}
	put_records(f.run.timeline_fd, r, 100);
	struct pair_outcome po = outcome(origin, 3 + 2 + 4);
	report_output_trace.pair_measured(&f.t, &f.run, NULL, 0, 0, &po);
	ck_assert_int_eq(lseek(f.run.timeline_fd, 0, SEEK_END), 0);
	report_output_trace.item_complete(&f.t, &f.run, NULL, 0, &po, 1);
	json_t *doc = fixture_close(&f);
	ck_assert_uint_eq(count(doc, "X", "missed deadline"), 3);
	ck_assert_uint_eq(count(doc, "X", "dropped period"), 2);
	ck_assert_uint_eq(count(doc, "X", "unfinished period"), 4);
	ck_assert_uint_eq(count(doc, "X", "Audio / None #1"), 1);
	ck_assert_uint_eq(count(doc, "X", "Audio / None"), 1);
	ck_assert_uint_eq(count(doc, "C", "lateness"), 100);
	ck_assert_uint_eq(count(doc, "M", "process_name"), 1);
	ck_assert(json_is_false(json_object_get(json_object_get(doc, "otherData"), "truncated")));
	json_decref(doc);
}
END_TEST

/* More late periods than TRACE_LATE_MAX and more periods than TRACE_COUNTER_MAX: the first
 * TRACE_LATE_MAX traced, the rest counted in otherData, "truncated"; the counter thinned to
 * at most TRACE_COUNTER_MAX samples that keep the largest lateness. */
START_TEST(caps_say_truncated)
{
	static struct fixture f;
	fixture_open(&f, "Audio", -1);
	uint64_t origin = now_ns(), interval = f.plan.items[0].spec.interval_us * 1000, n = TRACE_LATE_MAX + 5000;
	struct timeline_rec *r = calloc(n, sizeof(*r));
	for (uint32_t i = 0; i < n; i++)
		r[i] = (struct timeline_rec){ .period = i, .start_ns = i * interval, .late_ns = i == 12345 ? 777000000 : 2000 };
	put_records(f.run.timeline_fd, r, n);
	free(r);
	struct pair_outcome po = outcome(origin, n);
	report_output_trace.pair_measured(&f.t, &f.run, NULL, 0, 0, &po);
	json_t *doc = fixture_close(&f);
	json_t *other = json_object_get(doc, "otherData");
	ck_assert_uint_eq(count(doc, "X", "missed deadline"), TRACE_LATE_MAX);
	ck_assert(json_is_true(json_object_get(other, "truncated")));
	ck_assert_int_eq(json_integer_value(json_object_get(other, "late_periods_not_traced")), 5000);
	ck_assert_uint_le(count(doc, "C", "lateness"), TRACE_COUNTER_MAX);
	ck_assert_uint_ge(count(doc, "C", "lateness"), TRACE_COUNTER_MAX / 2);
	size_t i;
	json_t *e;
	bool peak = false;
	json_array_foreach(json_object_get(doc, "traceEvents"), i, e)
		peak |= strcmp(json_string_value(json_object_get(e, "name")), "lateness") == 0 &&
			json_real_value(json_object_get(json_object_get(e, "args"), "us")) == 777000.0;
	ck_assert(peak);
	json_decref(doc);
}
END_TEST

/* Pipeline frames, each shown 2.5 periods after its start: they overlap the next two, so they
 * go on three frame tracks, none overlapping another on its own. */
START_TEST(frames_spread_over_tracks)
{
	static struct fixture f;
	fixture_open(&f, "Pipeline", -1);
	uint64_t origin = now_ns(), interval = f.plan.items[0].spec.interval_us * 1000;
	struct timeline_rec r[30];
	for (uint32_t i = 0; i < 30; i++)
		r[i] = (struct timeline_rec){ .period = i, .start_ns = i * interval, .flags = TIMELINE_MET,
					      .shown_ns = i * interval + 5 * interval / 2 };
	put_records(f.run.timeline_fd, r, 30);
	struct pair_outcome po = outcome(origin, 0);
	report_output_trace.pair_measured(&f.t, &f.run, NULL, 0, 0, &po);
	json_t *doc = fixture_close(&f);
	ck_assert_uint_eq(count(doc, "X", "frame"), 30);
	double end[16] = { 0 };
	bool used[16] = { false };
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(doc, "traceEvents"), i, e) {
		if (strcmp(json_string_value(json_object_get(e, "name")), "frame") != 0)
			continue;
		json_int_t tid = json_integer_value(json_object_get(e, "tid"));
		double ts = json_real_value(json_object_get(e, "ts")), dur = json_real_value(json_object_get(e, "dur"));
		tid -= 10;                  /* pid 1's tracks: 10 + track (report/output_trace.c tid_of) */
		ck_assert_int_ge(tid, 3);
		ck_assert_int_lt(tid, 3 + TRACE_FRAME_LANES);
		ck_assert_msg(ts >= end[tid] - 1e-3, "frame at %f overlaps the one before on track %d", ts, (int)tid);
		end[tid] = ts + dur;
		used[tid] = true;
	}
	ck_assert(used[3] && used[4] && used[5] && !used[6]);
	json_decref(doc);
}
END_TEST

/* A frame with its points: from its input (its pickup less the input's age) to its vsync, its
 * eight segments inside it end to end, to the nanosecond as Perfetto's JSON importer reads
 * ts and dur back (the double times 1000, truncated: json_utils.cc CoerceToTs); a frame whose
 * points are not whole (one not passed) from its period's start, without segments. */
START_TEST(frame_segments_nest)
{
	static struct fixture f;
	fixture_open(&f, "Pipeline", -1);
	uint64_t origin = now_ns(), interval = f.plan.items[0].spec.interval_us * 1000;
	struct timeline_rec r[2];
	for (uint32_t i = 0; i < 2; i++) {
		r[i] = (struct timeline_rec){ .period = i, .start_ns = i * 3 * interval, .flags = TIMELINE_MET,
					      .shown_ns = i * 3 * interval + 2 * interval, .input_age_ns = 700 };
		for (unsigned k = 0; k < TIMELINE_MARKS; k++)
			r[i].marks_ns[k] = 1000 * (k + 1);
	}
	r[1].marks_ns[3] = 0;
	put_records(f.run.timeline_fd, r, 2);
	struct pair_outcome po = outcome(origin, 0);
	report_output_trace.pair_measured(&f.t, &f.run, NULL, 0, 0, &po);
	json_t *doc = fixture_close(&f);
	ck_assert_uint_eq(count(doc, "X", "frame"), 2);
	const char *seg[] = { "input", "logic", "workers", "join", "render", "latch", "compose", "scanout" };
	int64_t end_ns = -1, frame_ts = -1, frame_end = -1;
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(doc, "traceEvents"), i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		int64_t ts = (int64_t)(json_real_value(json_object_get(e, "ts")) * 1000.0);
		int64_t dur = (int64_t)(json_real_value(json_object_get(e, "dur")) * 1000.0);
		if (strcmp(name, "frame") == 0 && frame_ts < 0) {
			frame_ts = ts;
			frame_end = ts + dur;
			ck_assert_int_eq(dur, (int64_t)(2 * interval - 1000 + 700));
		}
		for (unsigned k = 0; k < 8; k++)
			if (strcmp(name, seg[k]) == 0) {
				ck_assert_int_eq(ts, k ? end_ns : frame_ts);  /* end to end from the input */
				end_ns = ts + dur;
			}
	}
	ck_assert_int_eq(end_ns, frame_end);  /* the last, scanout, ends at the vsync */
	ck_assert_uint_eq(count(doc, "X", "input"), 1);   /* the second frame's points are not whole */
	ck_assert_uint_eq(count(doc, "X", "scanout"), 1);
	json_decref(doc);
}
END_TEST

/* With --timeline written, the records are read back from its file (write-only to us), after
 * its header, and the file is left as it was. */
START_TEST(reads_the_timeline_file)
{
	static struct fixture f;
	char tl[] = "/tmp/check_trace_tl.XXXXXX";
	int fd = mkstemp(tl);
	ck_assert_int_ge(fd, 0);
	int wfd = open(tl, O_WRONLY | O_APPEND);
	close(fd);
	unsigned char head[TIMELINE_HEADER_BYTES];
	timeline_encode_header(head);
	ck_assert_int_eq(write(wfd, head, sizeof(head)), (ssize_t)sizeof(head));
	fixture_open(&f, "Audio", wfd);
	ck_assert_int_eq(f.run.timeline_fd, wfd);
	uint64_t interval = f.plan.items[0].spec.interval_us * 1000;
	struct timeline_rec r[2] = { { .period = 0, .late_ns = 2 * interval }, { .period = 1, .start_ns = interval,
										  .flags = TIMELINE_MET } };
	put_records(wfd, r, 2);
	struct pair_outcome po = outcome(now_ns(), 1);
	report_output_trace.pair_measured(&f.t, &f.run, NULL, 0, 0, &po);
	json_t *doc = fixture_close(&f);
	ck_assert_uint_eq(count(doc, "X", "missed deadline"), 1);
	ck_assert_uint_eq(count(doc, "C", "lateness"), 2);
	ck_assert_int_eq(lseek(wfd, 0, SEEK_END), (off_t)(TIMELINE_HEADER_BYTES + 2 * TIMELINE_RECORD_BYTES));
	json_decref(doc);
	close(wfd);
	unlink(tl);
}
END_TEST

/* A symbolic link planted at --trace's name: refused (2), its target untouched. */
START_TEST(planted_link_refused)
{
	char dir[] = "/tmp/check_trace.XXXXXX", path[96], target[96];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.json", dir);
	snprintf(target, sizeof(target), "%s/victim", dir);
	int fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_eq(write(fd, "keep", 4), 4);
	close(fd);
	ck_assert_int_eq(symlink(target, path), 0);
	struct options opt;
	char *argv[] = { "interbench", "-W", "Audio", "-w", "None", "-c", "--trace", path, NULL }, err[512];
	options_init(&opt);
	ck_assert_int_eq(options_parse(&opt, 8, argv, err, sizeof(err)), OPT_OK);
	struct report_run run = { .opt = &opt, .timeline_fd = -1 };
	struct trace_output t = { 0 };
	ck_assert_int_eq(report_output_trace.open(&t, &run), 2);
	ck_assert_int_eq(run.timeline_fd, -1);
	struct stat st;
	ck_assert_int_eq(stat(target, &st), 0);
	ck_assert_int_eq(st.st_size, 4);
	unlink(path);
	unlink(target);
	ck_assert_int_eq(rmdir(dir), 0); /* no temporary file left */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, late_periods_match_missed_deadlines);
	tcase_add_test(tc, caps_say_truncated);
	tcase_add_test(tc, frames_spread_over_tracks);
	tcase_add_test(tc, frame_segments_nest);
	tcase_add_test(tc, reads_the_timeline_file);
	tcase_add_test(tc, planted_link_refused);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
