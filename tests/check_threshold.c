/* Thresholds that act: --fail-if's grammar, its refusals and its verdict on hand-made sub-runs
 * (report/failif.h), and --on-threshold's grammar and actions taken on a period posted by hand
 * to the watch, as the bench process posts one (run/threshold.h): stop, a signal to a process
 * of the test's own, the user's command with the period's facts in its environment, a command
 * that does not exist and one that hangs (bounded by its timeout, killed and reaped). */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/timeutil.h"
#include "decide/decision.h"
#include "report/failif.h"
#include "run/matrix.h"
#include "run/options.h"
#include "run/plan.h"
#include "run/sweep.h"
#include "run/threshold.h"

static struct options opt;
static struct sweep_side bench, load;
static struct plan plan;
static struct matrix m;
static const volatile sig_atomic_t no_signal;

/* Parses args (NULL-terminated, after "interbench") into opt.  Returns options_parse's status. */
static enum opt_status parse(const char *const *args, char *err, size_t errlen)
{
	char *argv[32] = { "interbench" };
	int argc = 1;
	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	options_init(&opt);
	return options_parse(&opt, argc, argv, err, errlen);
}

/* --fail-if given texts, parsed in mode into *spec.  Returns failif_parse's value, err set. */
static int conditions(struct failif_spec *spec, enum failif_mode mode, const char *a, const char *b, char *err,
		   size_t errlen)
{
	struct optspec_texts t = { .n = b ? 2 : 1, .v = { a, b } };
	return failif_parse(&t, mode, spec, err, errlen);
}

/* Every form of a condition: units, comparisons, pairs, wildcards, the met alias, blanks, two
 * --fail-if texts and a list. */
START_TEST(fail_if_forms)
{
	struct failif_spec s;
	char err[1024];
	ck_assert_msg(conditions(&s, FAILIF_POINT, "met<99,p99>2ms", " Audio/Burn : p99 >= 500us ", err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_int_eq(s.c[0].metric, JM_MET);
	ck_assert_int_eq(s.c[0].op, FAILIF_LT);
	ck_assert(s.c[0].limit == 99);
	ck_assert_int_eq(s.c[0].task, -1);
	ck_assert_int_eq(s.c[1].metric, JM_P99);
	ck_assert(s.c[1].limit == 2e6);
	ck_assert_str_eq(s.c[2].text, "Audio/Burn:p99>=500us");
	ck_assert_int_eq(s.c[2].op, FAILIF_GE);
	ck_assert(s.c[2].limit == 5e5);
	ck_assert_int_eq(s.c[2].task, workload_find("Audio", false));
	ck_assert_int_eq(s.c[2].load, workload_find("Burn", true));
	ck_assert_msg(conditions(&s, FAILIF_INTERVAL, "*/burn:sched-max<=1.5s,video:deadlines<99.5%,p90>1h,max>2m,"
			      "mean>10ns,cpu<90,low1<30fps,xruns>1/min,jank>5", NULL, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(s.n, 9);
	ck_assert_int_eq(s.mode, FAILIF_INTERVAL);
	ck_assert_int_eq(s.c[0].task, -1);
	ck_assert_int_eq(s.c[0].metric, JM_SMAX);
	ck_assert(s.c[0].limit == 1.5e9);
	ck_assert_int_eq(s.c[1].load, -1);
	ck_assert_int_eq(s.c[1].metric, JM_MET);
	ck_assert(s.c[1].limit == 99.5);
	ck_assert(s.c[2].limit == 3600e9);
	ck_assert(s.c[3].limit == 120e9);
	ck_assert(s.c[4].limit == 10);
	ck_assert_int_eq(s.c[5].metric, JM_CPU);
	ck_assert(s.c[6].limit == 30);
	ck_assert_int_eq(s.c[7].metric, JM_XRUNS);
	ck_assert(s.c[7].limit == 1);
	ck_assert_int_eq(s.c[8].metric, JM_JANK);
}
END_TEST

/* Each refusal names the condition and what is wrong, then what is accepted. */
START_TEST(fail_if_refusals)
{
	static const struct { const char *text, *what; } bad[] = {
		{ "foo<1", "condition 'foo<1': no figure 'foo'" },
		{ "p99>2", "condition 'p99>2': invalid value '2' for p99 (in ms: a time with its unit)" },
		{ "p99>-2ms", "condition 'p99>-2ms': invalid value '-2ms' for p99 (in ms: a time with its unit)" },
		{ "met<abc", "condition 'met<abc': invalid value 'abc' for deadlines (in %)" },
		{ "met<1.2.3", "condition 'met<1.2.3': invalid value '1.2.3' for deadlines (in %)" },
		{ "p99=2ms", "condition 'p99=2ms': no comparison" },
		{ "Nope:p99>1ms", "condition 'Nope:p99>1ms': no simulated task 'Nope'" },
		{ "Audio/Nope:p99>1ms", "condition 'Audio/Nope:p99>1ms': no load 'Nope'" },
		{ "met<99,", "condition '': empty" },
		{ "<1", "condition '<1': no figure ''" },
	};
	char err[1024], want[1024];
	struct failif_spec s;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(conditions(&s, FAILIF_POINT, bad[i].text, NULL, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "--fail-if: %s (accepted: %s)", bad[i].what, FAILIF_ACCEPTED);
		ck_assert_str_eq(err, want);
	}
}
END_TEST

/* The plan of -W Audio -w None -w Burn, two items. */
static void plan_setup(void)
{
	static const char *const args[] = { "-W", "Audio", "-w", "None", "-w", "Burn", NULL };
	char err[512];
	ck_assert_msg(parse(args, err, sizeof(err)) == OPT_OK, "%s", err);
	sweep_build(&opt, 97, &bench, &load);
	struct plan_input in = { .opt = &opt, .bench = &bench, .load = &load, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&plan, &in), 0);
	ck_assert_uint_eq(plan.n, 2);
	struct matrix_params p = { .plan = &plan, .opt = &opt, .load = &load, .repeats = 6,
				   .duration_ns = 5 * NS_PER_S, .interrupted = &no_signal };
	ck_assert_int_eq(matrix_init(&m, &p), 0);
}

static void plan_teardown(void)
{
	matrix_free(&m);
	plan_free(&plan);
}

/* A condition that checks nothing in the run is refused before it starts. */
START_TEST(fail_if_checks_nothing)
{
	struct failif_spec s;
	char err[1024];
	ck_assert_int_eq(conditions(&s, FAILIF_POINT, "met<99,Audio/Burn:p99>1ms", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_check_plan(&s, &plan, err, sizeof(err)), 0);
	ck_assert_int_eq(conditions(&s, FAILIF_POINT, "Video:p99>1ms", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_check_plan(&s, &plan, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "--fail-if: condition 'Video:p99>1ms' would check nothing: it names no pair of this run "
			      "(accepted: a condition on a pair -W and -w run, with a figure its task has)");
	ck_assert_int_eq(conditions(&s, FAILIF_POINT, "xruns>0", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_check_plan(&s, &plan, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "--fail-if: condition 'xruns>0' would check nothing: its figure applies to none of the "
			      "pairs it names (accepted: a condition on a pair -W and -w run, with a figure its task has)");
}
END_TEST

/* Sub-run k of item i: measured, 1000 samples and periods, p99 as given (us), % met as given. */
static void subrun(size_t i, unsigned k, double p99_us, double met_pct)
{
	struct pair_outcome *po = &m.reps[i * m.p.repeats + k];
	po->ran = po->ok = true;
	struct pair_summary *s = &po->bench.summary;
	s->samples = s->periods = 1000;
	s->deadlines_met_pct = met_pct;
	s->deadlines_met = (uint64_t)(met_pct * 10);
	s->sched_p99_ns = s->latency_max_ns = (uint64_t)(p99_us * 1000);
}

/* The point: the median of the sub-runs against the limit; "<" and ">" each way; a pair without
 * a sample fails; pairs the condition does not name are not checked. */
START_TEST(fail_if_point)
{
	struct failif_spec s;
	struct failif_verdict v;
	char err[1024];
	double p99[] = { 900, 1100, 1200, 1000, 1050 }; /* median 1050 us */
	for (unsigned k = 0; k < 5; k++) {
		subrun(0, k, p99[k], 99.0);
		subrun(1, k, 100, 100);
	}
	ck_assert_int_eq(conditions(&s, FAILIF_POINT, "p99>1ms,*/None:met<99.5,*/Burn:met<=99", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_judge(&s, &m, &v), 0);
	ck_assert_uint_eq(v.checked, 4);  /* p99 on both, met on None alone, Burn's met */
	ck_assert_uint_eq(v.failed, 2);
	ck_assert_uint_eq(v.pairs_failed, 1);
	ck_assert_int_eq(v.checks[0].r, FAILIF_FAIL);
	ck_assert(v.checks[0].value == 1050e3);
	ck_assert_uint_eq(v.checks[0].subruns, 5);
	ck_assert_int_eq(v.checks[1].r, FAILIF_FAIL);
	ck_assert_int_eq(v.checks[2].r, FAILIF_NA);
	ck_assert_int_eq(v.checks[3].r, FAILIF_PASS);
	ck_assert_int_eq(v.checks[4].r, FAILIF_NA);
	ck_assert_int_eq(v.checks[5].r, FAILIF_PASS);
	json_t *j = failif_json(&s, &m, &v);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_object_get(j, "verdict")), "fail");
	ck_assert_uint_eq(json_array_size(json_object_get(j, "pairs")), 2);
	json_t *c0 = json_array_get(json_object_get(json_array_get(json_object_get(j, "pairs"), 0), "checks"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(c0, "measured")), 1050000);
	ck_assert_ptr_null(json_object_get(c0, "why"));  /* absent, never null: only with a reason */
	json_decref(j);
	failif_free(&v);
	for (unsigned k = 0; k < 5; k++)  /* starved: no sample is no pass */
		m.reps[m.p.repeats + k].bench.summary.samples = 0;
	ck_assert_int_eq(conditions(&s, FAILIF_POINT, "*/Burn:p99>1h", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_judge(&s, &m, &v), 0);
	ck_assert_uint_eq(v.failed, 1);
	ck_assert_str_eq(v.checks[1].why, "the figure has no value (no sample)");
	j = failif_json(&s, &m, &v);
	c0 = json_array_get(json_object_get(json_array_get(json_object_get(j, "pairs"), 0), "checks"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(c0, "why")), "the figure has no value (no sample)");
	ck_assert(json_is_null(json_object_get(c0, "measured")));
	json_decref(j);
	failif_free(&v);
}
END_TEST

/* The interval: fails only when the between-sub-run interval lies wholly beyond the limit;
 * one sub-run has none (unknown, not failed); the point mode fails the same pair at once. */
START_TEST(fail_if_interval)
{
	struct failif_spec s;
	struct failif_verdict v;
	char err[1024];
	double p99[] = { 900, 1100, 1200, 1000, 1050 };
	for (unsigned k = 0; k < 5; k++)
		subrun(0, k, p99[k], 100);
	subrun(1, 0, 5000, 100);
	ck_assert_int_eq(conditions(&s, FAILIF_INTERVAL, "p99>1ms", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_judge(&s, &m, &v), 0);
	ck_assert_int_eq(v.checks[0].r, FAILIF_PASS);  /* its interval spans 1 ms */
	ck_assert(v.checks[0].lo < 1e6 && v.checks[0].hi > 1e6);
	ck_assert_int_eq(v.checks[1].r, FAILIF_UNKNOWN);
	ck_assert_uint_eq(v.unknown, 1);
	ck_assert_uint_eq(v.failed, 0);
	failif_free(&v);
	ck_assert_int_eq(conditions(&s, FAILIF_INTERVAL, "p99>500us", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_judge(&s, &m, &v), 0);
	ck_assert_int_eq(v.checks[0].r, FAILIF_FAIL);  /* 900..1200 us: wholly above */
	ck_assert(v.checks[0].lo > 5e5);
	failif_free(&v);
	ck_assert_int_eq(conditions(&s, FAILIF_POINT, "*/Burn:p99>1ms", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_judge(&s, &m, &v), 0);
	ck_assert_int_eq(v.checks[1].r, FAILIF_FAIL);
	failif_free(&v);
}
END_TEST

/* The interval checks are a family: each interval at 1 - 0.05 / K for the run's K interval
 * checks (Bonferroni).  A limit between the 95 % and the 97.5 % interval's low ends fails the
 * None pair checked alone (K = 1) and passes it checked beside Burn (K = 2). */
START_TEST(fail_if_interval_family)
{
	struct failif_spec s;
	struct failif_verdict v;
	char err[1024], cond[64];
	double p99[] = { 900, 1100, 1200, 1000, 1050 }, est, lo95, lo975, hi;
	struct decision_subrun sub[5];
	for (unsigned k = 0; k < 5; k++) {
		subrun(0, k, p99[k], 100);
		subrun(1, k, p99[k], 100);
		sub[k] = (struct decision_subrun){ .value = p99[k] * 1000, .periods = 1000, .samples = 1000, .usable = true };
	}
	ck_assert_uint_eq(decision_subruns_interval(sub, 5, true, false, 0.05, &est, &lo95, &hi), 5);
	ck_assert_uint_eq(decision_subruns_interval(sub, 5, true, false, 0.025, &est, &lo975, &hi), 5);
	ck_assert(lo975 < lo95 - 2000);
	snprintf(cond, sizeof(cond), "*/None:p99>%.0fus", (lo95 + lo975) / 2 / 1000);
	ck_assert_int_eq(conditions(&s, FAILIF_INTERVAL, cond, NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(failif_judge(&s, &m, &v), 0);
	ck_assert_uint_eq(v.family, 1);
	ck_assert_int_eq(v.checks[0].r, FAILIF_FAIL);
	failif_free(&v);
	ck_assert_int_eq(conditions(&s, FAILIF_INTERVAL, cond + 7, NULL, err, sizeof(err)), 0);  /* both pairs */
	ck_assert_int_eq(failif_judge(&s, &m, &v), 0);
	ck_assert_uint_eq(v.family, 2);
	ck_assert(fabs(v.alpha_each - 0.025) < 1e-12);
	ck_assert(fabs(v.checks[0].lo - lo975) < 1);
	ck_assert_int_eq(v.checks[0].r, FAILIF_PASS);
	ck_assert_int_eq(v.checks[1].r, FAILIF_PASS);
	failif_free(&v);
}
END_TEST

/* --on-threshold: every form, and each refusal's exact message (through the options' parse). */
START_TEST(on_threshold_grammar)
{
	struct threshold_rule r;
	char err[1024], want[1024];
	ck_assert_int_eq(threshold_parse("500us:stop", &r, err, sizeof(err)), 0);
	ck_assert_int_eq(r.kind, THRESHOLD_STOP);
	ck_assert_uint_eq(r.latency_ns, 500000);
	ck_assert_int_eq(threshold_parse("2ms:signal=USR1,pid=1234", &r, err, sizeof(err)), 0);
	ck_assert_int_eq(r.kind, THRESHOLD_SIGNAL);
	ck_assert_int_eq(r.signo, SIGUSR1);
	ck_assert_int_eq(r.pid, 1234);
	ck_assert_int_eq(threshold_parse("300:signal=sigint,pid=parent", &r, err, sizeof(err)), 0);
	ck_assert_uint_eq(r.latency_ns, 300000);
	ck_assert_int_eq(r.signo, SIGINT);
	ck_assert_int_eq(r.pid, 0);
	ck_assert_int_eq(threshold_parse("1ms:signal=10,pid=99", &r, err, sizeof(err)), 0);
	ck_assert_int_eq(r.signo, 10);
	ck_assert_int_eq(threshold_parse("1ms:exec=/bin/sh -c  'echo $X \"a\"' \"b\\\"c\" d\\ e ''", &r, err, sizeof(err)), 0);
	ck_assert_int_eq(r.kind, THRESHOLD_EXEC);
	ck_assert_str_eq(r.argv[0], "/bin/sh");
	ck_assert_str_eq(r.argv[2], "echo $X \"a\"");  /* nothing expanded */
	ck_assert_str_eq(r.argv[3], "b\"c");
	ck_assert_str_eq(r.argv[4], "d e");
	ck_assert_str_eq(r.argv[5], "");
	ck_assert_ptr_null(r.argv[6]);
	static const struct { const char *text, *what; } bad[] = {
		{ "stop", "no LATENCY: before the action" },
		{ "0us:stop", "invalid latency" },
		{ "11s:stop", "invalid latency" },
		{ "1us:halt", "unknown action" },
		{ "1us:signal=USR1", "signal needs SIG,pid=PID" },
		{ "1us:signal=NOPE,pid=2", "no such signal" },
		{ "1us:signal=USR1,pid=-1", "PID must be a process above 1 or parent (never a group, every process or init)" },
		{ "1us:signal=USR1,pid=1", "PID must be a process above 1 or parent (never a group, every process or init)" },
		{ "1us:exec=", "exec needs a command of 1 to 32 words within 1023 bytes, its quotes closed" },
		{ "1us:exec=sh -c 'echo", "exec needs a command of 1 to 32 words within 1023 bytes, its quotes closed" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { "--on-threshold", bad[i].text, NULL };
		ck_assert_int_eq(parse(args, err, sizeof(err)), OPT_ERROR);
		snprintf(want, sizeof(want), "--on-threshold: '%s': %s (accepted: %s)", bad[i].text, bad[i].what,
			 THRESHOLD_ACCEPTED);
		ck_assert_str_eq(err, want);
	}
}
END_TEST

static struct threshold_run th;
static struct threshold_events ev;

/* th from --on-threshold texts a and b (b may be NULL), timeout_s, repeat; a pair begun. */
static void watch(const char *a, const char *b, const char *timeout_s, bool repeat)
{
	const char *args[] = { "--on-threshold", a, "--on-threshold-timeout", timeout_s,
			       repeat ? "--on-threshold-repeat" : NULL, NULL, NULL, NULL };
	if (b) {
		args[repeat ? 5 : 4] = "--on-threshold";
		args[repeat ? 6 : 5] = b;
	}
	char err[1024];
	ck_assert_msg(parse(args, err, sizeof(err)) == OPT_OK, "%s", err);
	ck_assert_int_eq(threshold_init(&th, &opt), 0);
	memset(&ev, 0, sizeof(ev));
	ck_assert_int_ge(threshold_pair_begin(&th, "Audio", "Burn", 1, &ev), 0);
}

/* The bench process's post of a period late by latency_us, and main's taking it. */
static void post(uint64_t latency_us, uint64_t period)
{
	struct sim_late_watch *w = th.watch;
	if (latency_us * 1000 <= atomic_load(&w->threshold_ns) || atomic_load(&w->pending))
		return;  /* as engine/engine.c late_post: not over the armed threshold, or not taken */
	w->latency_ns = latency_us * 1000;
	w->period = period;
	w->at_ns = period * 50 * NS_PER_MS;
	atomic_store(&w->pending, 1);
	ck_assert_int_eq(write(w->notify_fd, "!", 1), 1);
	threshold_take(&th);
}

static void unwatch(void)
{
	threshold_pair_end(&th, false);
	threshold_free(&th);
}

/* stop: once a pair, only over its latency; the next rule (larger) acts at its own. */
START_TEST(on_threshold_stop_once)
{
	watch("1ms:stop", "5ms:signal=CONT,pid=parent", "10", false);
	post(900, 1);
	ck_assert(!threshold_stopping(&th));
	post(1500, 2);
	ck_assert(threshold_stopping(&th));
	ck_assert_uint_eq(ev.n, 1);
	ck_assert_str_eq(ev.e[0].outcome, "stopping the run after this pair");
	ck_assert_uint_eq(ev.e[0].period, 2);
	post(3000, 3);  /* stop fired already; CONT's 5 ms not reached */
	ck_assert_uint_eq(ev.n, 1);
	post(6000, 4);
	ck_assert_uint_eq(ev.n, 2);
	ck_assert_uint_eq(ev.e[1].rule, 1);
	ck_assert(ev.e[1].ok);
	post(9000, 5);  /* both fired: nothing is armed */
	ck_assert_uint_eq(atomic_load(&th.watch->threshold_ns), UINT64_MAX);
	ck_assert_uint_eq(ev.n, 2);
	unwatch();
}
END_TEST

/* With repeat every post acts; past the record's 8 actions they are counted, not kept. */
START_TEST(on_threshold_repeat_counts)
{
	watch("1ms:signal=CONT,pid=parent", NULL, "10", true);
	for (unsigned k = 0; k < 10; k++)
		post(2000 + k, k);
	ck_assert_uint_eq(ev.n, THRESHOLD_EVENTS_MAX);
	ck_assert_uint_eq(ev.dropped, 2);
	ck_assert_uint_eq(ev.e[7].period, 7);
	ck_assert(ev.e[7].ok);
	unwatch();
}
END_TEST

/* signal: to a sleeping process of the test's own, which dies of it; with repeat every post
 * acts, and a process that is gone is said by kill's errno. */
START_TEST(on_threshold_signal)
{
	int ready[2];
	ck_assert_int_eq(pipe(ready), 0);
	pid_t kid = fork();
	if (kid == 0) {
		signal(SIGTERM, SIG_DFL);  /* check's handler would take the test's group with it */
		if (write(ready[1], "r", 1) == 1)
			pause();
		_exit(0);
	}
	char b;
	ck_assert_int_eq(read(ready[0], &b, 1), 1);
	char text[64];
	snprintf(text, sizeof(text), "1ms:signal=TERM,pid=%d", (int)kid);
	watch(text, NULL, "10", true);
	post(2000, 7);
	int ws;
	ck_assert_int_eq(waitpid(kid, &ws, 0), kid);
	ck_assert(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGTERM);
	ck_assert(ev.e[0].ok);
	post(3000, 8);
	ck_assert_uint_eq(ev.n, 2);
	ck_assert(!ev.e[1].ok);
	char want[128];
	snprintf(want, sizeof(want), "kill(%d, SIGTERM): No such process", (int)kid);
	ck_assert_str_eq(ev.e[1].outcome, want);
	unwatch();
}
END_TEST

/* exec: the user's command, its facts in the environment; the pair's end waits for it. */
START_TEST(on_threshold_exec)
{
	char dir[] = "/tmp/check_threshold-XXXXXX", file[64], text[256], got[128] = "";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/out", dir);
	snprintf(text, sizeof(text), "1ms:exec=/bin/sh -c 'echo $IB_LATENCY_US $IB_TASK $IB_LOAD $IB_PERIOD > %s'", file);
	watch(text, NULL, "10", false);
	post(2345, 12);
	unwatch();
	FILE *f = fopen(file, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(got, sizeof(got), f));
	fclose(f);
	unlink(file);
	rmdir(dir);
	ck_assert_str_eq(got, "2345 Audio Burn 12\n");
	ck_assert(ev.e[0].ok);
	ck_assert_str_eq(ev.e[0].outcome, "exit status 0");
}
END_TEST

/* A command that does not exist is said with execvp's errno; one that hangs is killed at its
 * timeout and reaped, and the pair's end returns (within its time and the kill grace). */
START_TEST(on_threshold_hostile)
{
	watch("1ms:exec=/nonexistent/interbench-action", NULL, "1", false);
	post(2000, 1);
	unwatch();
	ck_assert(!ev.e[0].ok);
	ck_assert_str_eq(ev.e[0].outcome, "execvp(/nonexistent/interbench-action): No such file or directory");
	watch("1ms:exec=/bin/sh -c 'trap \"\" TERM; sleep 100'", NULL, "1", false);
	uint64_t t0 = now_ns();
	post(2000, 1);
	pid_t child = th.r[0].child;
	ck_assert_int_gt(child, 0);
	unwatch();
	double took_s = (now_ns() - t0) / 1e9;
	ck_assert_msg(took_s < 1 + 1 + 5, "took %.1f s", took_s);  /* timeout + grace, 5 s to spare */
	ck_assert_int_eq(kill(child, 0), -1);  /* reaped: no such process */
	ck_assert(!ev.e[0].ok);
	ck_assert_str_eq(ev.e[0].outcome, "killed after 1 s (--on-threshold-timeout)");
}
END_TEST

/* The engine's side: a periodic task whose every period is over an armed watch's 1 ns posts
 * its first completed period, writes one byte, and posts no more until main takes it; a watch
 * at UINT64_MAX (disarmed) is never posted to. */
START_TEST(engine_posts_once_until_taken)
{
	static const struct sim_desc desc = { .interval_us = 10000, .cpu_pct = 10, .has_deadlines = true };
	static struct sim_result r;
	static struct sim_late_watch w;
	struct sim_spec spec;
	int fds[2];
	char buf[8];
	ck_assert_int_eq(pipe2(fds, O_NONBLOCK), 0);
	sim_spec_init(&spec, &desc);
	for (int armed = 1; armed >= 0; armed--) {
		memset(&w, 0, sizeof(w));
		atomic_store(&w.threshold_ns, armed ? 1 : UINT64_MAX);
		w.notify_fd = fds[1];
		struct sim_run_cfg cfg = { .loops_per_ms = 1000000, .late = &w };
		struct sim_engine *e = sim_start(&spec, &cfg, &r);
		ck_assert_msg(e != NULL, "%s", r.errmsg);
		sleep_for_ns(200 * NS_PER_MS);
		sim_stop(e);
		ck_assert_uint_gt(r.acct.periods, 3);
		ck_assert_uint_eq(atomic_load(&w.pending), (unsigned)armed);
		ck_assert_int_eq(read(fds[0], buf, sizeof(buf)), armed ? 1 : -1);
		if (armed) {
			ck_assert_uint_eq(w.period, 0);  /* the first completed period */
			ck_assert_uint_gt(w.latency_ns, 1);
			ck_assert(!w.explained);
		}
	}
	close(fds[0]);
	close(fds[1]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("threshold");
	TCase *g = tcase_create("grammar");
	tcase_add_test(g, fail_if_forms);
	tcase_add_test(g, fail_if_refusals);
	tcase_add_test(g, on_threshold_grammar);
	suite_add_tcase(s, g);
	TCase *v = tcase_create("verdict");
	tcase_add_checked_fixture(v, plan_setup, plan_teardown);
	tcase_add_test(v, fail_if_checks_nothing);
	tcase_add_test(v, fail_if_point);
	tcase_add_test(v, fail_if_interval);
	tcase_add_test(v, fail_if_interval_family);
	suite_add_tcase(s, v);
	TCase *a = tcase_create("actions");
	tcase_set_timeout(a, 30);
	tcase_add_test(a, on_threshold_stop_once);
	tcase_add_test(a, on_threshold_repeat_counts);
	tcase_add_test(a, on_threshold_signal);
	tcase_add_test(a, on_threshold_exec);
	tcase_add_test(a, on_threshold_hostile);
	tcase_add_test(a, engine_posts_once_until_taken);
	suite_add_tcase(s, a);
	return ck_run(s);
}
