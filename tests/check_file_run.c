/* File's threads (workloads/file_run.c) through the engine, on task files of tests/taskfiles/run/
 * compiled as --task-file compiles them (the workload's check hook), counting wake-ups, never
 * timing them:
 *  - rt-app's conditions: a thread that signals and then waits on the same condition (rt-app's
 *    "signal" then "wait") never takes its own signal: its partner, waiting already, is the one
 *    released, so the two wake each other in turn (their wake-ups differ by one at most), as
 *    POSIX's pthread_cond_signal unblocks a thread blocked on the condition at the time;
 *  - interbench's joins: in a diamond a -> (b, c) -> d, b and c are woken once a period and d
 *    once for the two (a join of 2), every completed period closed by d. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include "tests/ck_run.h"
#include <string.h>
#include <time.h>
#include "lib/timeutil.h"
#include "workloads/file.h"
#include "workloads/list.h"
#include "workloads/workload.h"

WORKLOADS(WL_DECLARE)
const struct workload *const workload_table[] = { WORKLOADS(WL_ENTRY) };
const unsigned workload_count = sizeof(workload_table) / sizeof(workload_table[0]);

/* Runs the task file at path as File for run_ms under cfg, the engine's result into *r. */
static void run_file_cfg(const char *path, unsigned run_ms, const struct sim_run_cfg *cfg, struct sim_result *r)
{
	const char *opts[8] = { path };   /* File's options: its --task-file first */
	char err[512] = "";
	int w = workload_find("File", false);
	ck_assert_int_ge(w, 0);
	ck_assert_msg(workload_table[w]->check(opts, err, sizeof(err)) == 0, "%s", err);
	struct sim_spec spec;
	workload_sim_spec(workload_table[w], opts, &spec);
	struct sim_engine *e = sim_start(&spec, cfg, r);
	ck_assert_msg(e != NULL, "%s", r->errmsg);
	struct timespec ts = { .tv_sec = run_ms / 1000, .tv_nsec = (long)(run_ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
	sim_stop(e);
}

/* Runs the task file at path as File for run_ms, its figures into *f, the engine's into *r. */
static void run_file(const char *path, unsigned run_ms, struct sim_result *r, struct file_figures *f)
{
	struct sim_run_cfg cfg = { .loops_per_ms = 1000000 };
	run_file_cfg(path, run_ms, &cfg, r);
	ck_assert_msg(r->error == 0, "%s", r->errmsg);
	ck_assert_str_eq(r->task.name, "file");
	memcpy(f, r->task.data.bytes, sizeof(*f));
}

START_TEST(signal_then_wait_wakes_the_partner)
{
	static struct sim_result r;
	struct file_figures f;
	run_file("tests/taskfiles/run/pingpong.json", 1000, &r, &f);
	/* threads: tick, ping, pong; ping sleeps 20 ms a turn, so about 45 turns in 1 s */
	ck_assert_uint_ge(f.wakes[2], 10);
	ck_assert_msg(f.wakes[1] + 1 >= f.wakes[2] && f.wakes[2] + 1 >= f.wakes[1],
		      "ping woken %u times, pong %u: not in turn", f.wakes[1], f.wakes[2]);
}
END_TEST

START_TEST(join_of_two_once_a_period)
{
	static struct sim_result r;
	struct file_figures f;
	run_file("tests/taskfiles/run/chain3.json", 500, &r, &f);
	uint64_t closed = f.chain_samples;
	ck_assert_uint_ge(closed, 20);
	ck_assert_uint_eq(closed, r.sched.count);   /* every period the engine completed, closed by d */
	ck_assert_uint_eq(f.wakes[0], 0);   /* the root is woken by the engine, not counted here */
	for (unsigned i = 1; i <= 3; i++)   /* each of b, c, d once a period closed, the last one perhaps not closed */
		ck_assert_msg(f.wakes[i] >= closed && f.wakes[i] <= closed + 1, "thread %u woken %u times in %llu periods",
			      i, f.wakes[i], (unsigned long long)closed);
}
END_TEST

/* The stages --explain follows (sim_body.explained): the period's thread, then the chain's
 * threads in file order, then the others, up to EXPLAIN_MAX_STAGES; a stage's thread number
 * is its place in the file. */
START_TEST(explain_stages_follow_the_chain)
{
	const char *opts[8] = { "tests/taskfiles/run/stages.json" };
	char err[512] = "";
	int w = workload_find("File", false);
	ck_assert_msg(workload_table[w]->check(opts, err, sizeof(err)) == 0, "%s", err);
	struct sim_spec spec;
	workload_sim_spec(workload_table[w], opts, &spec);
	const struct explain_stages *x = &spec.desc->body->explained;
	ck_assert_uint_eq(x->count, EXPLAIN_MAX_STAGES);
	ck_assert_uint_eq(x->n_threads, EXPLAIN_MAX_STAGES - 1);
	const char *want[] = { "src", "s1", "s2", "s3", "s4", "s5", "s6", "s7" };  /* not clock, not s8 */
	for (unsigned i = 0; i < EXPLAIN_MAX_STAGES; i++)
		ck_assert_str_eq(x->names[i], want[i]);
	for (unsigned i = 0; i < x->n_threads; i++)
		ck_assert(x->threads[i].stage == i + 1 && x->threads[i].thread == i + 2);
	opts[0] = "tests/taskfiles/run/aside.json";   /* clock, on its own timer, first in the file */
	ck_assert_msg(workload_table[w]->check(opts, err, sizeof(err)) == 0, "%s", err);
	workload_sim_spec(workload_table[w], opts, &spec);
	x = &spec.desc->body->explained;
	ck_assert_uint_eq(x->count, 3);
	ck_assert(!strcmp(x->names[0], "src") && !strcmp(x->names[1], "sink") && !strcmp(x->names[2], "clock"));
	ck_assert(x->threads[0].thread == 2 && x->threads[1].thread == 0);
}
END_TEST

/* A thread's own realtime priority at or above the timing thread's is not applied (threads busy
 * there on every CPU would starve the timing thread and main for good): the refusal is recorded,
 * named, and the task runs at the run's setting.  Whether the timing thread got its priority
 * (root) or not, the bound is the one asked for. */
START_TEST(priority_not_above_the_timing_thread)
{
	static struct sim_result r;
	struct sim_run_cfg cfg = { .loops_per_ms = 1000000, .timer_prio = 10 };
	run_file_cfg("tests/taskfiles/run/fifo20.json", 200, &cfg, &r);
	ck_assert_int_eq(r.error, EPERM);
	ck_assert_str_eq(r.errmsg, "task thread 0: fifo 20 is not below the timing thread's 10, which must preempt it "
				   "(accepted: 1 to 9 here; the thread runs at the run's setting)");
	ck_assert_uint_gt(r.sched.count, 5);   /* it ran its periods all the same */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("file_run");
	TCase *tc = tcase_create("sync");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, signal_then_wait_wakes_the_partner);
	tcase_add_test(tc, join_of_two_once_a_period);
	tcase_add_test(tc, explain_stages_follow_the_chain);
	tcase_add_test(tc, priority_not_above_the_timing_thread);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
