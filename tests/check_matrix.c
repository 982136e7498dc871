/* The run's matrix (run/matrix.c) with a stub pair runner: the order in which it tells its
 * sink, the item-major store of records (which repeats ran, which failed and why), the timeline
 * pair ids, and a signal's stop keeping what was measured. */
#include <check.h>
#include "tests/ck_args.h"
#include "tests/ck_run.h"
#include "tests/ck_scx.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "run/matrix.h"
#include "run/options.h"
#include "run/plan.h"
#include "run/sweep.h"
#include "lib/timeutil.h"

static struct options opt;
static struct sweep_side bench, load;
static struct plan plan;
static struct load_config load_cfg = { .threads = 1, .loops_per_ms = 1000 };
static struct matrix m;
static volatile sig_atomic_t stop;
static char events[1024];       /* the sink's calls, in order */
static unsigned pairs_run;      /* the stub's calls */
static uint32_t pair_ids[16];   /* the timeline pair id of each */
static unsigned fail_at = ~0u;  /* the stub call that fails, or none */
static unsigned signal_at = ~0u; /* the stub call a signal cuts short, or none */
static uint64_t seed;           /* the rounds' shuffle seed (matrix_params.shuffle_seed) */
static unsigned settle_asks;    /* the calls of settle_stub */

static void event(const char *fmt, ...)
{
	va_list ap;
	size_t used = strlen(events);
	va_start(ap, fmt);
	vsnprintf(events + used, sizeof(events) - used, fmt, ap);
	va_end(ap);
}

/* Stands in for pair_run: measured, but for call fail_at (failed) and signal_at (a signal
 * cuts its window short at 0.5 s). */
static int stub_pair_run(const struct pair_params *p, struct pair_outcome *out)
{
	unsigned call = pairs_run++;
	memset(out, 0, sizeof(*out));
	pair_ids[call % 16] = p->timeline_pair;
	ck_assert_uint_eq(p->duration_ns, 2 * NS_PER_S);
	out->ok = call != fail_at;
	out->window_ns = p->duration_ns;
	if (!out->ok)
		snprintf(out->why, sizeof(out->why), "stub failure %u", call);
	if (call == signal_at) {
		out->interrupted = true;
		out->window_ns = NS_PER_S / 2;
		stop = SIGINT;
	}
	return 0;
}

static void on_begin(void *arg, const struct matrix *mx)
{
	(void)arg, (void)mx;
	event("begin ");
}

static void on_pair(void *arg, const struct matrix *mx, size_t item, unsigned repeat, const struct pair_outcome *po,
		    int64_t timeline_pair)
{
	(void)arg;
	ck_assert(matrix_reps(mx, item)[repeat].ran);      /* already in the store */
	ck_assert_int_eq(matrix_reps(mx, item)[repeat].ok, po->ok);
	event("pair%zu.%u@%lld ", item, repeat, (long long)timeline_pair);
}

static void on_item(void *arg, const struct matrix *mx, size_t item, const struct pair_outcome *reps, unsigned n)
{
	(void)arg;
	ck_assert_ptr_eq(reps, matrix_reps(mx, item));
	event("item%zu/%u ", item, n);
}

static void on_round(void *arg, const struct matrix *mx, unsigned round, bool interrupted)
{
	(void)arg, (void)mx;
	event("round%u%s ", round, interrupted ? "!" : "");
}

static void on_end(void *arg, const struct matrix *mx, int sig)
{
	(void)arg, (void)mx;
	event("end%d", sig);
}

static const struct matrix_sink recorder = { .run_begin = on_begin, .pair_measured = on_pair,
					     .item_complete = on_item, .round_done = on_round, .run_end = on_end };

/* Sets m up for the plan of the options argv (argc of them, argv[0] the program), `repeats`
 * times with the stub; timeline_fd as --timeline's. */
static void start_with(unsigned repeats, int timeline_fd, int argc, char **argv)
{
	char err[512];
	options_init(&opt);
	ck_assert_msg(options_parse(&opt, argc, argv, err, sizeof(err)) == OPT_OK, "%s", err);
	opt.quiet = true;
	sweep_build(&opt, 97, &bench, &load);
	struct plan_input in = { .opt = &opt, .bench = &bench, .load = &load, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&plan, &in), 0);
	struct matrix_params p = { .plan = &plan, .opt = &opt, .load = &load, .repeats = repeats,
				   .duration_ns = 2 * NS_PER_S, .load_cfg = &load_cfg, .timeline_fd = timeline_fd, .frame_log_fd = -1,
				   .interrupted = &stop, .pair_run = stub_pair_run, .shuffle_seed = seed };
	ck_assert_int_eq(matrix_init(&m, &p), 0);
}

/* start_with the plan of Audio against None and Burn (two items; loads with nothing to
 * prepare). */
static void start(unsigned repeats, int timeline_fd)
{
	char *argv[] = { "interbench", "-W", "Audio", "-w", "None", "-w", "Burn", NULL };
	start_with(repeats, timeline_fd, 7, argv);
	ck_assert_uint_eq(plan.n, 2);
}

/* start, then the matrix run into the recording sink.  Returns matrix_run's value. */
static int run(unsigned repeats, int timeline_fd)
{
	start(repeats, timeline_fd);
	return matrix_run(&m, &recorder);
}

static void setup(void)
{
	events[0] = '\0';
	pairs_run = 0;
	fail_at = signal_at = ~0u;
	stop = 0;
	seed = 0;
	settle_asks = 0;
}

/* Whether matrix_round_order(s, round) keeps the plan order of n items. */
static bool plan_order(uint64_t s, unsigned round, size_t n)
{
	size_t order[16];
	matrix_round_order(s, round, order, n);
	for (size_t i = 0; i < n; i++)
		if (order[i] != i)
			return false;
	return true;
}

static void teardown(void)
{
	matrix_free(&m);
	plan_free(&plan);
}

START_TEST(one_repeat_rows_as_pairs_end)
{
	ck_assert_int_eq(run(1, -1), 0);
	ck_assert_str_eq(events, "begin pair0.0@-1 item0/1 pair1.0@-1 item1/1 round0 end0");
	ck_assert_str_eq(matrix_load_name(&m, 0), "None");
	ck_assert_str_eq(matrix_load_name(&m, 1), "Burn");
	ck_assert_uint_eq(matrix_measured(&m), 2);
}
END_TEST

START_TEST(repeats_rows_after_the_last_round)
{
	fail_at = 2;  /* item 0, repeat 1 */
	for (unsigned r = 0; r < 3; r++)  /* seed 0 keeps the plan order of these rounds */
		ck_assert(plan_order(0, r, 2));
	ck_assert_int_eq(run(3, -1), 0);
	ck_assert_str_eq(events, "begin pair0.0@-1 pair1.0@-1 round0 pair0.1@-1 pair1.1@-1 round1 "
			 "pair0.2@-1 pair1.2@-1 round2 item0/3 item1/3 end0");
	ck_assert_uint_eq(pairs_run, 6);
	ck_assert_uint_eq(matrix_measured(&m), 5);
	/* item-major: item 0's repeats, then item 1's */
	ck_assert_ptr_eq(matrix_reps(&m, 1), &m.reps[3]);
	ck_assert(!matrix_reps(&m, 0)[1].ok);
	ck_assert_str_eq(matrix_reps(&m, 0)[1].why, "stub failure 2");
	ck_assert(matrix_reps(&m, 0)[2].ok && matrix_reps(&m, 1)[1].ok);
	ck_assert_uint_eq(matrix_ran(&m, 0), 3);
	ck_assert_uint_eq(matrix_ran(&m, 1), 3);
}
END_TEST

START_TEST(signal_keeps_what_ran)
{
	signal_at = 2;  /* item 0 of round 1, cut short (seed 0: plan order, as above) */
	ck_assert_int_eq(run(3, -1), SIGINT);
	ck_assert_str_eq(events, "begin pair0.0@-1 pair1.0@-1 round0 pair0.1@-1 round1! item0/2 item1/1 end2");
	ck_assert_uint_eq(pairs_run, 3);
	ck_assert_uint_eq(matrix_ran(&m, 0), 2);
	ck_assert_uint_eq(matrix_ran(&m, 1), 1);
	const struct pair_outcome *r = &matrix_reps(&m, 0)[1];
	ck_assert(r->ran && r->ok && r->interrupted);
	ck_assert_uint_eq(r->window_ns, NS_PER_S / 2);
	ck_assert(!matrix_reps(&m, 1)[1].ran);
	ck_assert_uint_eq(matrix_measured(&m), 3);
}
END_TEST

START_TEST(timeline_pair_ids_count_pairs)
{
	ck_assert_int_eq(run(2, 99), 0);  /* a descriptor the stub never writes to */
	ck_assert_str_eq(events, "begin pair0.0@0 pair1.0@1 round0 pair0.1@2 pair1.1@3 round1 item0/2 item1/2 end0");
	for (unsigned k = 0; k < 4; k++)
		ck_assert_uint_eq(pair_ids[k], k);
}
END_TEST

/* Each round's order is a permutation of the plan, the same for the same seed and round, and
 * other than the plan's for some seed. */
START_TEST(round_order_shuffled)
{
	size_t a[10], b[10];
	unsigned shuffled = 0;
	for (uint64_t s = 1; s <= 50; s++)
		for (unsigned r = 0; r < 4; r++) {
			bool seen[10] = { false };
			matrix_round_order(s, r, a, 10);
			for (size_t i = 0; i < 10; i++) {
				ck_assert_uint_lt(a[i], 10);
				ck_assert(!seen[a[i]]);
				seen[a[i]] = true;
			}
			matrix_round_order(s, r, b, 10);
			ck_assert_mem_eq(a, b, sizeof(a));
			shuffled += !plan_order(s, r, 10);
		}
	ck_assert_uint_gt(shuffled, 190);  /* 1 in 10! keeps the plan order by chance */
	matrix_round_order(7, 0, a, 10);
	matrix_round_order(7, 1, b, 10);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	matrix_round_order(7, 0, a, 0);  /* no item: nothing */
}
END_TEST

/* With several rounds the matrix runs each in the seed's order, the store and the rows in the
 * plan's; the same seed runs the same order. */
START_TEST(repeats_run_shuffled)
{
	uint64_t s = 1;
	while (plan_order(s, 0, 2))  /* a seed whose first round runs item 1 first */
		s++;
	char first[1024];
	for (int pass = 0; pass < 2; pass++) {
		teardown();
		setup();
		seed = s;
		ck_assert_int_eq(run(3, -1), 0);
		ck_assert_msg(strncmp(events, "begin pair1.0@-1 pair0.0@-1 round0 ", 35) == 0, "%s", events);
		ck_assert_msg(strstr(events, "item0/3 item1/3 end0"), "%s", events);
		ck_assert_uint_eq(matrix_ran(&m, 0), 3);
		ck_assert_uint_eq(matrix_ran(&m, 1), 3);
		if (pass == 0)
			snprintf(first, sizeof(first), "%s", events);
		else
			ck_assert_str_eq(events, first);
	}
}
END_TEST

START_TEST(no_sink)
{
	start(1, -1);
	ck_assert_int_eq(matrix_run(&m, NULL), 0);
	ck_assert_uint_eq(matrix_measured(&m), 2);
}
END_TEST

/* --budget: the sink's item_settled settles item 0 as soon as it is asked (after the third
 * round, MATRIX_BUDGET_MIN_SUBRUNS) and item 1 after its fifth sub-run; the rounds then run
 * only what is unsettled and the run ends when both are settled, well before its 20 rounds. */
static bool settle_stub(void *arg, const struct matrix *mx, size_t item, char *why, size_t whylen)
{
	(void)arg;
	settle_asks++;
	ck_assert_uint_ge(matrix_ran(mx, item), MATRIX_BUDGET_MIN_SUBRUNS);
	snprintf(why, whylen, "p99 latency");
	return item == 0 || matrix_ran(mx, item) >= 5;
}

/* A round's end as the --budget run reports it: the items settled by then, and what the
 * others wait for (matrix_undecided). */
static void on_round_settled(void *arg, const struct matrix *mx, unsigned round, bool interrupted)
{
	(void)arg, (void)interrupted;
	char undecided[64];
	matrix_undecided(mx, undecided, sizeof(undecided));
	event("round%u[%d%d](%s) ", round, mx->settled[0], mx->settled[1], undecided);
}

START_TEST(budget_runs_what_is_unsettled)
{
	start(MATRIX_BUDGET_MAX_SUBRUNS, -1);
	m.p.budget_ns = 3600 * NS_PER_S;  /* a budget the stub never reaches */
	struct matrix_sink s = recorder;
	s.item_settled = settle_stub;
	s.round_done = on_round_settled;
	ck_assert_int_eq(matrix_run(&m, &s), 0);
	/* each round's line knows what that round settled: item 0 after the third, both after the fifth */
	ck_assert_msg(strstr(events, "round1[00](undecided 2: under 3 sub-runs 2) ") &&
		      strstr(events, "round2[10](undecided 1: p99 latency 1) ") && strstr(events, "round4[11]() "),
		      "%s", events);
	ck_assert_uint_eq(matrix_ran(&m, 0), 3);
	ck_assert_uint_eq(matrix_ran(&m, 1), 5);
	ck_assert_uint_eq(pairs_run, 8);
	ck_assert_uint_eq(m.rounds, 5);
	ck_assert(m.settled[0] && m.settled[1]);
	ck_assert_uint_eq(settle_asks, 1 + 3);  /* item 0 once; item 1 after rounds 3, 4, 5 */
	ck_assert(strstr(events, "item0/3 ") && strstr(events, "item1/5 "));
}
END_TEST

/* --budget: a budget already spent ends the run after its first round (the next would not
 * fit), settled or not; without a budget every round runs. */
START_TEST(budget_spent_stops)
{
	start(MATRIX_BUDGET_MAX_SUBRUNS, -1);
	m.p.budget_ns = 1;
	struct matrix_sink s = recorder;
	s.item_settled = settle_stub;
	ck_assert_int_eq(matrix_run(&m, &s), 0);
	ck_assert_uint_eq(pairs_run, 2);
	ck_assert_uint_eq(matrix_ran(&m, 0), 1);
	ck_assert(!m.settled[0] && !m.settled[1]);
}
END_TEST

/* The budget's default: 30 s a pair, or four sub-runs of X's whole 10.1 s sweep plus 1.5 s
 * each (46.4 s); --budget replaces it; no budget outside the budget's window. */
START_TEST(default_budget_per_pair)
{
	start(1, -1);
	ck_assert_uint_eq(matrix_budget_ns(&opt, &plan), 2 * 30 * NS_PER_S);  /* Audio/None, Audio/Burn */
	char *argv[] = { "interbench", "-W", "X", "-W", "Audio", "-w", "None", NULL }, err[512];
	struct options o;
	struct plan p;
	options_init(&o);
	ck_assert_msg(options_parse(&o, 7, argv, err, sizeof(err)) == OPT_OK, "%s", err);
	struct sweep_side b, l;
	sweep_build(&o, 97, &b, &l);
	struct plan_input in = { .opt = &o, .bench = &b, .load = &l, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&p, &in), 0);
	ck_assert_uint_eq(p.n, 2);
	ck_assert_uint_eq(matrix_budget_ns(&o, &p), 30 * NS_PER_S + 4 * (10100 + 1500) * NS_PER_MS);
	o.budget_s = 90;
	ck_assert_uint_eq(matrix_budget_ns(&o, &p), 90 * NS_PER_S);
	o.window = RUN_WINDOW_FIXED;
	ck_assert_uint_eq(matrix_budget_ns(&o, &p), 0);
	plan_free(&p);
}
END_TEST

/* What each stub call was given: the CPUs of both sides ("" for any) and the load's threads. */
static char placed[8][64];

/* Keeps what the stub call was given (its text) in placed and counts it; the pair succeeds. */
static int placed_ok(const char *text, struct pair_outcome *out)
{
	snprintf(placed[pairs_run++ % 8], sizeof(placed[0]), "%s", text);
	memset(out, 0, sizeof(*out));
	out->ok = true;
	return 0;
}

static int placement_stub(const struct pair_params *p, struct pair_outcome *out)
{
	char b[16] = "", l[16] = "", text[64];
	if (p->bench_cpus)
		format_cpu_list(p->bench_cpus, b, sizeof(b));
	if (p->load_cpus)
		format_cpu_list(p->load_cpus, l, sizeof(l));
	snprintf(text, sizeof(text), "%s|%s|%u", b, l, p->load->cfg->threads);
	return placed_ok(text, out);
}

/* The sweep's placements and thread counts reach each pair: the task pinned by its setting,
 * the loads by theirs or by their one list, the load's threads its setting's for that pair
 * only (the run's own again after it). */
START_TEST(placement_and_threads_reach_the_pair)
{
	char *argv[] = { "interbench", "-W", "Audio", "-w", "Burn", "--bench-cpus", "0/1", "--load-cpus", "1",
			 "-L", "2,3", NULL };
	start_with(1, -1, 11, argv);
	ck_assert_uint_eq(plan.n, 4);
	m.p.pair_run = placement_stub;
	ck_assert_int_eq(matrix_run(&m, NULL), 0);
	ck_assert_uint_eq(pairs_run, 4);
	ck_assert_str_eq(placed[0], "0|1|2");
	ck_assert_str_eq(placed[1], "0|1|3");
	ck_assert_str_eq(placed[2], "1|1|2");
	ck_assert_str_eq(placed[3], "1|1|3");
	ck_assert_ptr_eq(m.loads[plan.items[0].load_index].ctx.cfg, &load_cfg);
	char *plain[] = { "interbench", "-W", "Audio", "-w", "Burn", "--cpus", "0", NULL };
	matrix_free(&m);
	plan_free(&plan);
	pairs_run = 0;
	start_with(1, -1, 7, plain);
	m.p.pair_run = placement_stub;
	ck_assert_int_eq(matrix_run(&m, NULL), 0);
	ck_assert_str_eq(placed[0], "0|0|1");             /* --cpus places both; the run's threads */
}
END_TEST

/* The cgroups of the run, and which of them each stub call was given ("b0|l1", "-" for none). */
static struct cgplace_set cg_sets[2];

static void cgroup_name(const struct cgplace_set *set, const struct cgplace *cg, char side, char *buf, size_t len)
{
	if (cg)
		snprintf(buf, len, "%c%ld", side, (long)(cg - set->v));
	else
		snprintf(buf, len, "-");
}

static int cgroup_stub(const struct pair_params *p, struct pair_outcome *out)
{
	char b[24], l[24], text[64];
	cgroup_name(&cg_sets[0], p->bench_cgroup, 'b', b, sizeof(b));
	cgroup_name(&cg_sets[1], p->load_cgroup, 'l', l, sizeof(l));
	snprintf(text, sizeof(text), "%s|%s", b, l);
	return placed_ok(text, out);
}

/* The cgroups reach each pair: the one of a side for every pair, a side's alternatives each
 * for its setting's pairs, none where none is given. */
START_TEST(cgroups_reach_the_pair)
{
	char *argv[] = { "interbench", "-W", "Audio", "-w", "Burn", "--bench-cgroup", "t", "--load-cgroup", "w100",
			 "--load-cgroup", "w1", NULL };
	start_with(1, -1, 11, argv);
	ck_assert_uint_eq(plan.n, 2);
	cg_sets[0].n = 1;
	cg_sets[1].n = 2;
	m.p.cgroups = cg_sets;
	m.p.pair_run = cgroup_stub;
	ck_assert_int_eq(matrix_run(&m, NULL), 0);
	ck_assert_uint_eq(pairs_run, 2);
	ck_assert_str_eq(placed[0], "b0|l0");
	ck_assert_str_eq(placed[1], "b0|l1");
	matrix_free(&m);
	plan_free(&plan);
	pairs_run = 0;
	char *plain[] = { "interbench", "-W", "Audio", "-w", "Burn", NULL };
	start_with(1, -1, 5, plain);
	m.p.pair_run = cgroup_stub;
	ck_assert_int_eq(matrix_run(&m, NULL), 0);
	ck_assert_str_eq(placed[0], "-|-");
}
END_TEST

/* What the fake sched_ext said during each stub call; the call that kills the scheduler. */
static enum scx_state seen[8];
static unsigned kill_at = ~0u;
static struct run_scheduler sched;

static int scheduler_stub(const struct pair_params *p, struct pair_outcome *out)
{
	(void)p;
	struct scx_status st;
	unsigned call = pairs_run++;
	ck_assert_int_eq(scx_status_read(scx_dir, &st), 0);
	seen[call % 8] = st.state;
	if (call == kill_at)
		ck_assert_int_eq(kill(sched.r.pid, SIGKILL), 0);
	sleep_for_ns(100 * NS_PER_MS);
	memset(out, 0, sizeof(*out));
	out->ok = true;
	return 0;
}

/* --scheduler: each pair runs under its setting's scheduler, the fair class stopping ours; the
 * kernel's name of it is kept with the pair; one lost during a pair fails that pair, and the
 * run ends on the fair class. */
START_TEST(scheduler_per_pair)
{
	char cmd[256];
	scx_fake_setup();
	snprintf(cmd, sizeof(cmd), "%s %s ok", scx_script, scx_dir);
	char *argv[] = { "interbench", "-W", "Audio", "-w", "None", "--scheduler", "fair", "--scheduler", cmd, NULL };
	start_with(1, -1, 9, argv);
	ck_assert_uint_eq(plan.n, 2);
	run_scheduler_init(&sched, scx_dir, NULL);
	m.p.scheduler = &sched;
	m.p.pair_run = scheduler_stub;
	ck_assert_int_eq(matrix_run(&m, NULL), 0);
	ck_assert_int_eq(seen[0], SCX_DISABLED);
	ck_assert_int_eq(seen[1], SCX_ENABLED);
	ck_assert(matrix_reps(&m, 0)[0].ok && !matrix_reps(&m, 0)[0].sched_ext_ops[0]);
	ck_assert(matrix_reps(&m, 1)[0].ok);
	ck_assert_str_eq(matrix_reps(&m, 1)[0].sched_ext_ops, "fake");
	ck_assert_int_eq(run_scheduler_stop(&sched), 0);
	struct scx_status st;
	ck_assert_int_eq(scx_status_read(scx_dir, &st), 0);
	ck_assert_int_eq(st.state, SCX_DISABLED);
	matrix_free(&m);
	plan_free(&plan);
	pairs_run = 0;
	kill_at = 1;   /* the scheduler dies during its pair */
	start_with(1, -1, 9, argv);
	run_scheduler_init(&sched, scx_dir, NULL);
	m.p.scheduler = &sched;
	m.p.pair_run = scheduler_stub;
	ck_assert_int_eq(matrix_run(&m, NULL), 0);
	ck_assert(!matrix_reps(&m, 1)[0].ok);
	ck_assert_msg(strstr(matrix_reps(&m, 1)[0].why, "lost during the pair: its process killed by signal 9"), "%s",
		      matrix_reps(&m, 1)[0].why);
	ck_assert_ptr_null(sched.current);
	kill_at = ~0u;
	scx_fake_teardown();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("matrix");
	TCase *tc = tcase_create("matrix");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, one_repeat_rows_as_pairs_end);
	tcase_add_test(tc, repeats_rows_after_the_last_round);
	tcase_add_test(tc, signal_keeps_what_ran);
	tcase_add_test(tc, timeline_pair_ids_count_pairs);
	tcase_add_test(tc, round_order_shuffled);
	tcase_add_test(tc, repeats_run_shuffled);
	tcase_add_test(tc, no_sink);
	tcase_add_test(tc, budget_runs_what_is_unsettled);
	tcase_add_test(tc, budget_spent_stops);
	tcase_add_test(tc, default_budget_per_pair);
	tcase_add_test(tc, placement_and_threads_reach_the_pair);
	tcase_add_test(tc, cgroups_reach_the_pair);
	tcase_add_test(tc, scheduler_per_pair);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
