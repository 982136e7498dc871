/* The task plug-ins of the engine (engine/sim.h), each with its example registered in this
 * program's table as a plug-in would be, run through sim_start/sim_stop and through a whole
 * pair (run/pair.c) against None:
 *  - sim_desc.body: the example task with two threads of its own (tests/skeleton_task.c), and
 *    the built-in body still running periodic and free-running tasks;
 *  - sim_desc.measures: the example task with measures of its own (tests/skeleton_measures.c),
 *    which counts the periods the engine closes: its one figure row goes into its result, its
 *    summary, its JSON and its table with the core rows, and across the pipe; any other
 *    task's result has its key, null.
 * The assertions are about counts that hold on any machine (samples per completed period, CPU
 * summed over the threads), never about timing. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>
#include "report/figures.h"
#include "report/json_report.h"
#include "report/table.h"
#include "run/pair.h"
#include "lib/timeutil.h"
#include "workloads/list.h"
#include "workloads/workload.h"
#include "tests/skeleton_task.c"
#include "tests/skeleton_measures.c"

WORKLOADS(WL_DECLARE)

/* ShownEarly: one thread that shows each period's frame (sim_frame_shown) before it closes the
 * period, as a compositor may show a frame between its commit and the end of its period, with
 * its points (sim_frame_marks) 1 us apart from now on, its input 500 ns before its start. */
static void shown_early_run(struct sim_thread *t)
{
	struct sim_period p;
	while (sim_period_begin(t, &p)) {
		sim_burn(t, p.work_us);
		uint64_t at[TIMELINE_MARKS], now = now_ns();
		for (unsigned k = 0; k < TIMELINE_MARKS; k++)
			at[k] = now + k * 1000;
		sim_frame_shown(t, p.index, now + TIMELINE_MARKS * 1000, 0);
		sim_frame_marks(t, p.index, p.start_ns - 500, at);
		if (!sim_period_end(t))
			break;
	}
}
static const struct sim_body shown_early_body = { .threads = 1, .run = shown_early_run };
static const struct sim_desc shown_early_sim = { .interval_us = 10000, .cpu_pct = 10, .has_deadlines = true,
						 .body = &shown_early_body };
static const struct workload wl_shown_early = { .name = "ShownEarly", .help = "(test)", .flags = WL_BENCH_NORMAL,
						 .sim = &shown_early_sim };

/* This program's registry: interbench's, plus one line for each example task. */
const struct workload *const workload_table[] = { WORKLOADS(WL_ENTRY) &wl_skeleton_task, &wl_skeleton_measures,
						  &wl_shown_early };
const unsigned workload_count = sizeof(workload_table) / sizeof(workload_table[0]);

#define LOOPS_PER_MS 1000000ULL   /* sizes burn chunks only: the work is CPU time here */
#define RUN_NS (300 * NS_PER_MS)

/* Example task `name` resolved as interbench resolves a task named with -W. */
static void example_spec(const char *name, struct sim_spec *spec)
{
	int w = workload_find(name, false);
	ck_assert_int_ge(w, (int)workload_count - 3);
	workload_sim_spec(workload_table[w], NULL, spec);
}

/* How many of this process's threads are named name (/proc/self/task/<tid>/comm). */
static unsigned threads_named(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	unsigned n = 0;
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		char path[300], comm[32] = "";
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		FILE *f = de->d_name[0] != '.' ? fopen(path, "r") : NULL;
		if (f && fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			n += strcmp(comm, name) == 0;
		}
		if (f)
			fclose(f);
	}
	closedir(d);
	return n;
}

/* Runs spec for RUN_NS into *r (recording its timeline into tl when not NULL) and checks the
 * task's thread names meanwhile: "ib-task", then "ib-task-1" ... for `threads` threads. */
static void run_task(const struct sim_spec *spec, unsigned threads, struct timeline_buf *tl, struct sim_result *r)
{
	struct sim_run_cfg cfg = { .loops_per_ms = LOOPS_PER_MS, .timeline = tl, .timeline_pair = 7 };
	struct sim_engine *e = sim_start(spec, &cfg, r);
	ck_assert_msg(e != NULL, "%s", r->errmsg);
	sleep_for_ns(RUN_NS);
	ck_assert_uint_eq(threads_named("ib-task"), 1);
	ck_assert_uint_eq(threads_named("ib-task-1"), threads > 1);
	sim_stop(e);
	ck_assert_msg(r->error == 0, "%s", r->errmsg);
}

/* The figures of a periodic task that held after any run: one latency sample per completed
 * period, every period met or missed, and the task's CPU time (summed over its threads) at least
 * the work of its completed periods. */
static void check_periodic_counts(const struct sim_spec *spec, const struct sim_result *r)
{
	uint64_t completed = r->acct.periods - r->acct.skipped;
	ck_assert_uint_gt(completed, 0);
	ck_assert_uint_eq(r->sched.count, completed);
	ck_assert_uint_eq(r->lateness.count, completed);
	ck_assert_uint_eq(r->classic.count, completed);
	ck_assert_uint_eq(r->loop.periods, completed);
	ck_assert_uint_eq(r->frame.count, completed - 1);
	ck_assert_uint_eq(r->acct.met + r->acct.missed, r->acct.periods);
	/* the interval batches see every sample and period the figures do */
	ck_assert_uint_eq(r->sched_bm.n, completed);
	ck_assert_uint_eq(r->sched_qb.n, completed);
	ck_assert_uint_eq(r->acct.met_bm.n, r->acct.periods);
	ck_assert_uint_eq(r->acct.work_bm.x.n, r->acct.periods);
	ck_assert_uint_ge(r->task_cpu_ns, completed * sim_work_us(spec, 0) * NS_PER_US);
	ck_assert_uint_eq(r->interval_us, spec->interval_us);
}

/* check_periodic_counts on what the bench process hands main (run/pair.h struct
 * bench_record): the counts its summary keeps of the result. */
static void check_periodic_summary(const struct sim_spec *spec, const struct pair_summary *s)
{
	uint64_t completed = s->periods - s->periods_skipped;
	ck_assert_uint_gt(completed, 0);
	ck_assert_uint_eq(s->samples, completed);
	ck_assert_uint_eq(s->loop_periods, completed);
	ck_assert_uint_eq(s->frame_samples, completed - 1);
	ck_assert_uint_eq(s->deadlines_met + s->deadlines_missed, s->periods);
	/* the task's CPU time, back from its share of the run (a double: within 1 ns in 10^9) */
	ck_assert_double_ge(s->task_cpu_pct / 100 * (double)s->task_run_ns,
			    (double)(completed * sim_work_us(spec, 0) * NS_PER_US) * (1 - 1e-9));
	ck_assert_uint_eq(s->interval_us, spec->interval_us);
}

/* Two threads, one period: the producer's half and the consumer's half each count, each
 * completed period takes its samples and its timeline record, in order. */
START_TEST(two_threads_run)
{
	struct sim_spec spec;
	static struct sim_result r;
	static struct timeline_rec rec[256];
	struct timeline_buf tl = { .rec = rec, .cap = 256 };
	example_spec("SkeletonTask", &spec);
	run_task(&spec, 2, &tl, &r);
	check_periodic_counts(&spec, &r);   /* its CPU: each thread alone burnt only half */
	ck_assert_uint_eq(tl.n, r.acct.periods - r.acct.skipped);
	for (uint32_t i = 1; i < tl.n; i++)
		ck_assert_uint_eq(rec[i].period, rec[i - 1].period + 1 + rec[i - 1].skipped);
	ck_assert_uint_eq(rec[0].pair, 7);
}
END_TEST

/* The built-in body of a periodic task: one thread, the same figures. */
/* A frame shown before its period's record is pushed still marks the record: every record of
 * ShownEarly has its frame's time, after its period's start, and its points after that start,
 * 1 us apart, its input 500 ns before the start. */
START_TEST(shown_before_period_end)
{
	struct sim_spec spec;
	static struct sim_result r;
	static struct timeline_rec rec[256];
	struct timeline_buf tl = { .rec = rec, .cap = 256 };
	example_spec("ShownEarly", &spec);
	struct sim_run_cfg cfg = { .loops_per_ms = LOOPS_PER_MS, .timeline = &tl };
	struct sim_engine *e = sim_start(&spec, &cfg, &r);
	ck_assert_msg(e != NULL, "%s", r.errmsg);
	sleep_for_ns(RUN_NS);
	sim_stop(e);
	ck_assert_uint_gt(tl.n, 5);
	for (uint32_t i = 0; i < tl.n; i++) {
		ck_assert_msg(rec[i].shown_ns > rec[i].start_ns, "period %u: shown %llu, start %llu", rec[i].period,
			      (unsigned long long)rec[i].shown_ns, (unsigned long long)rec[i].start_ns);
		ck_assert_uint_gt(rec[i].marks_ns[0], 0);
		for (unsigned k = 1; k < TIMELINE_MARKS; k++)
			ck_assert_uint_eq(rec[i].marks_ns[k], rec[i].marks_ns[0] + k * 1000);
		ck_assert_uint_eq(rec[i].input_age_ns, rec[i].marks_ns[0] + 500);
	}
}
END_TEST

START_TEST(builtin_periodic)
{
	static const struct sim_desc desc = { .interval_us = 10000, .cpu_pct = 20, .has_deadlines = true };
	struct sim_spec spec;
	static struct sim_result r;
	sim_spec_init(&spec, &desc);
	run_task(&spec, 1, NULL, &r);
	check_periodic_counts(&spec, &r);
}
END_TEST

/* The built-in body of a free-running task (Gaming's pattern, shorter frames): a sample per
 * frame counted, a frame time and CPU-loop figure per frame completed (all but perhaps the
 * last, cut off by the stop), and the frames' CPU time. */
START_TEST(builtin_free_running)
{
	static const struct sim_desc desc = { .interval_us = 20000, .cpu_pct = 100, .has_deadlines = false };
	struct sim_spec spec;
	static struct sim_result r;
	sim_spec_init(&spec, &desc);
	run_task(&spec, 1, NULL, &r);
	ck_assert_uint_gt(r.acct.periods, 0);
	ck_assert_uint_eq(r.sched.count, r.acct.periods);
	ck_assert_uint_eq(r.classic.count, r.acct.periods);
	ck_assert_uint_eq(r.frame.count, r.loop.periods);
	ck_assert_uint_ge(r.frame.count + 1, r.acct.periods);
	ck_assert_uint_ge(r.task_cpu_ns, r.frame.count * spec.interval_us * NS_PER_US);
	ck_assert_uint_eq(r.acct.met + r.acct.missed, 0);
	ck_assert_uint_eq(r.sched_bm.n, r.acct.periods);
	ck_assert_uint_eq(r.acct.work_bm.x.n, r.acct.periods);
	ck_assert_uint_eq(r.acct.met_bm.n, 0);
}
END_TEST

static void idle_run(struct sim_thread *t)
{
	while (sim_period_begin(t, NULL) && sim_period_end(t))
		;
}

/* A body asking for no thread or more than SIM_MAX_THREADS is refused with EINVAL. */
START_TEST(malformed_body_refused)
{
	static const struct sim_body none = { .threads = 0, .run = idle_run };
	static const struct sim_body many = { .threads = SIM_MAX_THREADS + 1, .run = idle_run };
	static const struct sim_body no_run = { .threads = 1 };
	const struct sim_body *bodies[] = { &none, &many, &no_run };
	for (unsigned i = 0; i < 3; i++) {
		struct sim_desc desc = { .interval_us = 10000, .cpu_pct = 20, .has_deadlines = true, .body = bodies[i] };
		struct sim_spec spec;
		struct sim_run_cfg cfg = { .loops_per_ms = LOOPS_PER_MS };
		static struct sim_result r;
		sim_spec_init(&spec, &desc);
		ck_assert_ptr_null(sim_start(&spec, &cfg, &r));
		ck_assert_int_eq(r.error, EINVAL);
		ck_assert_msg(strncmp(r.errmsg, "task body: ", 11) == 0, "%s", r.errmsg);
	}
}
END_TEST

/* The whole way a benchmark takes: example task `name` in its bench process beside the None
 * load process, its result read back over the pipe into *out. */
static void pair_with_none(const char *name, struct pair_outcome *out, struct sim_spec *spec)
{
	struct load_config lc = { .threads = 1, .loops_per_ms = LOOPS_PER_MS };
	static struct load_ctx ctx;
	struct pair_params p = { .run_cfg = { .loops_per_ms = LOOPS_PER_MS }, .load = &ctx,
				 .duration_ns = RUN_NS, .timeline_fd = -1, .frame_log_fd = -1 };
	example_spec(name, &p.spec);
	workload_load_init(&ctx, workload_table[workload_find("None", true)], NULL, &lc);
	ck_assert_int_eq(pair_run(&p, out), 0);
	ck_assert_msg(out->ok, "%s", out->why);
	*spec = p.spec;
}

START_TEST(body_pair_with_none)
{
	static struct pair_outcome out;
	struct sim_spec spec;
	pair_with_none("SkeletonTask", &out, &spec);
	check_periodic_summary(&spec, &out.bench.summary);
	ck_assert_uint_gt(out.bench.sched_buckets, 0);  /* its histogram came over the pipe too */
	ck_assert_ptr_nonnull(out.bench.buckets);
	bench_record_free(&out.bench);
}
END_TEST

#define KEY "skeleton_closed_periods"

/* The JSON figures of r (as the JSON writer writes a result's). */
static json_t *figures_json(const struct sim_result *r)
{
	struct pair_summary s;
	pair_summarize(r, &s);
	json_t *o = json_object();
	ck_assert_int_eq(report_add_figures(o, task_figures, task_figures_n, &s, false), 0);
	return o;
}

/* The example's count is the engine's periods closed, in its block, its summary and its JSON. */
static void check_counted(const struct sim_result *r)
{
	uint64_t closed = r->acct.periods - r->acct.skipped;
	struct skeleton_figures fig;
	ck_assert_uint_gt(closed, 0);
	ck_assert_str_eq(r->task.name, "skeleton");
	memcpy(&fig, r->task.data.bytes, sizeof(fig));
	ck_assert_uint_eq(fig.closed_periods, closed);
	ck_assert_uint_eq(fig.closed_periods, r->sched.count);
	json_t *o = figures_json(r);
	ck_assert(json_is_integer(json_object_get(o, KEY)));
	ck_assert_uint_eq(json_integer_value(json_object_get(o, KEY)), closed);
	ck_assert(json_is_null(json_object_get(o, "vsyncs")));    /* Pipeline's rows: null here */
	json_decref(o);
}

START_TEST(measures_counted_and_written)
{
	struct sim_spec spec;
	static struct sim_result r;
	example_spec("SkeletonMeasures", &spec);
	run_task(&spec, 1, NULL, &r);
	check_counted(&r);
}
END_TEST

/* A task without measures carries no block: the example's key is in its JSON, null. */
START_TEST(measures_null_for_others)
{
	struct sim_spec spec;
	static struct sim_result r;
	example_spec("SkeletonTask", &spec);
	run_task(&spec, 2, NULL, &r);
	ck_assert_str_eq(r.task.name, "");
	json_t *o = figures_json(&r);
	ck_assert(json_is_null(json_object_get(o, KEY)));
	json_decref(o);
}
END_TEST

/* The table: the example's column after the classic ones, its count in the row, the median of
 * its repeats kept. */
START_TEST(measures_table_column)
{
	struct pair_summary s[3] = { { .samples = 1 }, { .samples = 1 }, { .samples = 1 } }, med;
	for (unsigned i = 0; i < 3; i++) {
		struct skeleton_figures fig = { .closed_periods = 10 + 5 * i };
		snprintf(s[i].task.name, sizeof(s[i].task.name), "skeleton");
		memcpy(s[i].task.data.bytes, &fig, sizeof(fig));
	}
	double lo, hi;
	summary_median(s, 3, &med, &lo, &hi);
	struct table_style st = { .has_deadlines = true, .measures = &skeleton_measures };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	table_header(f, "SkeletonMeasures", "", "", &st);
	table_row(f, "None", &med, &st);
	fclose(f);
	ck_assert_msg(strstr(buf, "Deadlines Met     closed\n") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "         15\n") != NULL, "%s", buf);   /* the median of 10, 15, 20 */
	free(buf);
}
END_TEST

/* Its block crosses the pipe with its result. */
START_TEST(measures_pair_with_none)
{
	static struct pair_outcome out;
	struct sim_spec spec;
	pair_with_none("SkeletonMeasures", &out, &spec);
	struct skeleton_figures fig;
	ck_assert_str_eq(out.bench.summary.task.name, "skeleton");
	memcpy(&fig, out.bench.summary.task.data.bytes, sizeof(fig));
	ck_assert_uint_gt(fig.closed_periods, 0);
	ck_assert_uint_eq(fig.closed_periods, out.bench.summary.samples);
	bench_record_free(&out.bench);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_body");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, two_threads_run);
	tcase_add_test(tc, shown_before_period_end);
	tcase_add_test(tc, builtin_periodic);
	tcase_add_test(tc, builtin_free_running);
	tcase_add_test(tc, malformed_body_refused);
	tcase_add_test(tc, body_pair_with_none);
	tcase_add_test(tc, measures_counted_and_written);
	tcase_add_test(tc, measures_null_for_others);
	tcase_add_test(tc, measures_table_column);
	tcase_add_test(tc, measures_pair_with_none);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
