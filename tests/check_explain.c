/* explain/model.h: a period's delay composed from the tracer's figures and from schedstat, the
 * parts adding up, the culprits named and owned, a pair's summary merged, the ring of kept
 * periods, and the parsers of schedstat and --explain-threshold. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "explain/model.h"
#include "explain/json.h"
#include "explain/text.h"
#include "tests/ck_run.h"

#define MS 1000000ull

START_TEST(schedstat_parsed)
{
	struct explain_schedstat s;
	ck_assert_int_eq(explain_parse_schedstat("1167092 60393 3\n", &s), 0);
	ck_assert_uint_eq(s.run_ns, 1167092);
	ck_assert_uint_eq(s.wait_ns, 60393);
	ck_assert_uint_eq(s.slices, 3);
	ck_assert_int_eq(explain_parse_schedstat("1 2\n", &s), -1);
	ck_assert_int_eq(explain_parse_schedstat("1 2 3 4\n", &s), -1);
	ck_assert_int_eq(explain_parse_schedstat("a 2 3\n", &s), -1);
	ck_assert_int_eq(explain_parse_schedstat("", &s), -1);
}
END_TEST

START_TEST(threshold_parsed)
{
	uint64_t ns = 0;
	ck_assert_int_eq(explain_parse_threshold("500us", &ns), 0);
	ck_assert_uint_eq(ns, 500000);
	ck_assert_int_eq(explain_parse_threshold("2ms", &ns), 0);
	ck_assert_uint_eq(ns, 2 * MS);
	ck_assert_int_eq(explain_parse_threshold("1.5ms", &ns), 0);
	ck_assert_uint_eq(ns, 1500000);
	ck_assert_int_eq(explain_parse_threshold("300", &ns), 0); /* no unit: microseconds */
	ck_assert_uint_eq(ns, 300000);
	ck_assert_int_eq(explain_parse_threshold("10s", &ns), 0);
	ck_assert_uint_eq(ns, 10000000000ull);
	ck_assert_int_eq(explain_parse_threshold("0.0015s", &ns), 0);
	ck_assert_uint_eq(ns, 1500000);
	ck_assert_int_eq(explain_parse_threshold("1.0000005ms", &ns), 0); /* to the nearest ns */
	ck_assert_uint_eq(ns, 1000001);
	/* only plain decimals, as every other numeric option: no hex, exponent, sign or blank */
	const char *bad[] = { "0.5us", "11s", "x", "5 ms", "-1ms", "", "1e9s", "ms", "3x", "0x10", "0x1p3",
			      "1e3", "1e3us", "+300", " 300", "300 ", "inf", "nan", "1.", ".5ms", "1..5ms",
			      "1.0000000001s", "99999999999999999999", "18446744073709551616ns" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(explain_parse_threshold(bad[i], &ns) == -1, "'%s' accepted", bad[i]);
}
END_TEST

/* A tracked thread's acc with one other task of tgid tgid, the tracer's owner, wait_ns behind it. */
static void add_who(struct explain_acc *a, uint32_t pid, uint32_t tgid, uint32_t owner, const char *comm,
		    uint64_t wait_ns, uint64_t preempt_ns)
{
	struct explain_who *w = &a->who[a->who_n++];
	*w = (struct explain_who){ .pid = pid, .tgid = tgid, .owner = owner, .prio = 120,
				   .switches = 2, .wait_ns = wait_ns, .preempt_ns = preempt_ns };
	snprintf(w->comm, sizeof(w->comm), "%s", comm);
}

/* A period due at 100 ms, its timer 0.2 ms late, woken 50 us after, waiting 6 ms behind a load
 * thread, 1 ms behind a kworker, preempted 2 ms by the
 * load, 0.3 ms of softirq; it ran 4 ms and finished at 113.5 ms. */
static void late_period(struct explain_facts *f, struct explain_acc *a)
{
	*f = (struct explain_facts){ .index = 7, .start_ns = 70 * MS, .due_ns = 100 * MS, .timer_ns = 100 * MS + 200000,
				     .timer_late_ns = 200000, .finish_ns = 113500000, .missed = true };
	memset(a, 0, sizeof(*a));
	a->seq = 8;
	a->wakeup_ns = f->timer_ns + 50000;
	a->oncpu_ns = 1 * MS;              /* before its preemption */
	a->oncpu_since_ns = 110500000;     /* then 3 ms to the finish */
	add_who(a, 501, 500, EXPLAIN_OWNER_LOAD, "burn", 6 * MS, 2 * MS);
	add_who(a, 40, 40, EXPLAIN_OWNER_OTHER, "kworker/0:1", 1 * MS, 0);
	a->softirq_ns[1] = 300000;         /* TIMER */
	a->preemptions = 1;
}

START_TEST(bpf_period_composed)
{
	struct explain_facts f;
	struct explain_acc a;
	struct explain_period p;
	late_period(&f, &a);
	explain_from_bpf(&f, &a, &p);
	ck_assert_uint_eq(p.source, EXPLAIN_BPF);
	ck_assert_uint_eq(p.ran_ns, 4 * MS);
	ck_assert_uint_eq(p.delay_ns, 13500000 - 4 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_TIMER], 200000);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_CARRIED], 0);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_WAKE], 50000);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_TASKS], 7 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_PREEMPTED], 2 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_SOFTIRQ], 300000);
	ck_assert_uint_eq(p.softirq_ns[1], 300000);
	/* 9.5 ms of delay, 9.55 ms named: nothing unexplained */
	ck_assert_uint_eq(p.part_ns[EXPLAIN_UNEXPLAINED], 0);
	ck_assert_uint_eq(p.ntop, 2);
	ck_assert_str_eq(p.top[0].comm, "burn");
	ck_assert_uint_eq(p.top[0].ns, 8 * MS);
	ck_assert_uint_eq(p.top[0].owner, EXPLAIN_OWNER_LOAD);
	ck_assert_uint_eq(p.top[1].owner, EXPLAIN_OWNER_OTHER);
	ck_assert_uint_eq(p.owner_ns[EXPLAIN_OWNER_LOAD], 8 * MS);
	ck_assert_uint_eq(p.owner_ns[EXPLAIN_OWNER_OTHER], 1 * MS);
	ck_assert_uint_eq(p.owner_ns[EXPLAIN_OWNER_BENCH], 0);
}
END_TEST

/* Tasks the tracer's table had no room for still count, to their owner and to tasks. */
START_TEST(rest_counts_by_owner)
{
	struct explain_facts f;
	struct explain_acc a;
	struct explain_period p;
	late_period(&f, &a);
	a.rest_ns[EXPLAIN_OWNER_LOAD] = 3 * MS;
	a.rest_ns[EXPLAIN_OWNER_BENCH] = 1 * MS;
	f.finish_ns += 4 * MS;
	a.oncpu_since_ns += 4 * MS;
	explain_from_bpf(&f, &a, &p);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_TASKS], 11 * MS);
	ck_assert_uint_eq(p.owner_ns[EXPLAIN_OWNER_LOAD], 11 * MS);
	ck_assert_uint_eq(p.owner_ns[EXPLAIN_OWNER_BENCH], 1 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_UNEXPLAINED], 0);
	struct explain_summary s = { 0 };
	explain_summary_add(&s, NULL, &p);
	explain_summary_add(&s, NULL, &p);
	ck_assert_uint_eq(s.owner_ns[EXPLAIN_OWNER_LOAD], 22 * MS);
}
END_TEST

/* A chain: late_period's thread hands its frame on at 113.5 ms to a render thread that waits
 * 1.5 ms behind the same load thread and 0.5 ms behind another, then runs 3 ms to the
 * period's finish at 120 ms.  Its waits join the parts and the culprits, its work the part
 * stages; the stages' figures are kept apart. */
START_TEST(chain_stage_added)
{
	struct explain_facts f;
	struct explain_acc game, render = { .seq = 8 };
	struct explain_period p;
	late_period(&f, &game);
	game.oncpu_ns = 4 * MS;          /* its stretches closed: it handed off and slept */
	game.oncpu_since_ns = 0;
	f.finish_ns = 120 * MS;
	add_who(&render, 501, 500, EXPLAIN_OWNER_LOAD, "burn", 1500000, 0);
	add_who(&render, 77, 77, EXPLAIN_OWNER_OTHER, "kswapd0", 500000, 0);
	render.oncpu_since_ns = 117 * MS;
	explain_from_bpf(&f, &game, &p);
	ck_assert_uint_eq(p.delay_ns, 16 * MS);
	explain_add_stage(&p, &f, &render, 2);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_TASKS], 9 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_STAGES], 3 * MS);
	ck_assert_uint_eq(p.owner_ns[EXPLAIN_OWNER_LOAD], 9500000);
	ck_assert_uint_eq(p.stage_wait_ns[0], 9350000);   /* wake, tasks, preempted, softirq */
	ck_assert_uint_eq(p.stage_wait_ns[2], 2 * MS);
	ck_assert_uint_eq(p.stage_ran_ns[0], 4 * MS);
	ck_assert_uint_eq(p.stage_ran_ns[2], 3 * MS);
	/* 16 ms of delay; named: timer 0.2, wake 0.05, tasks 9, preempted 2, softirq 0.3, stages 3 */
	ck_assert_uint_eq(p.part_ns[EXPLAIN_UNEXPLAINED], 1450000);
	ck_assert_uint_eq(p.ntop, 3);
	ck_assert_str_eq(p.top[0].comm, "burn");          /* merged by pid: 8 + 1.5 ms */
	ck_assert_uint_eq(p.top[0].ns, 9500000);
	ck_assert_str_eq(p.top[2].comm, "kswapd0");
	explain_add_stage(&p, &f, &render, EXPLAIN_MAX_STAGES); /* out of range: nothing */
	ck_assert_uint_eq(p.part_ns[EXPLAIN_STAGES], 3 * MS);
	struct explain_summary s = { 0 };
	explain_summary_add(&s, NULL, &p);
	ck_assert_uint_eq(s.stage_wait_ns[2], 2 * MS);
	ck_assert_uint_eq(s.stage_ran_ns[2], 3 * MS);
}
END_TEST

START_TEST(unexplained_is_the_rest)
{
	struct explain_facts f;
	struct explain_acc a;
	struct explain_period p;
	late_period(&f, &a);
	f.finish_ns += 2 * MS;           /* 2 ms more delay that no event accounts for */
	a.oncpu_since_ns += 2 * MS;
	explain_from_bpf(&f, &a, &p);
	uint64_t named = 0;
	for (int k = 0; k < EXPLAIN_PARTS; k++)
		if (k != EXPLAIN_UNEXPLAINED)
			named += p.part_ns[k];
	ck_assert_uint_eq(p.ran_ns, 4 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_UNEXPLAINED], 1950000);
	ck_assert_uint_eq(named + p.part_ns[EXPLAIN_UNEXPLAINED], p.delay_ns);
}
END_TEST

/* A task that never slept: the timing thread released the period at once after the one before
 * overran, and the tracer saw nothing in it. */
START_TEST(carried_period)
{
	struct explain_facts f = { .index = 3, .due_ns = 100 * MS, .timer_ns = 104 * MS, .timer_late_ns = 0,
				   .finish_ns = 109 * MS, .missed = true };
	struct explain_acc a = { .oncpu_since_ns = 90 * MS };
	struct explain_period p;
	explain_from_bpf(&f, &a, &p);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_CARRIED], 4 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_TIMER], 0);
	ck_assert_uint_eq(p.ran_ns, 5 * MS);  /* from its release, not from the earlier switch-in */
	ck_assert_uint_eq(p.delay_ns, 4 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_UNEXPLAINED], 0);
}
END_TEST

START_TEST(schedstat_period_composed)
{
	struct explain_facts f = { .due_ns = 100 * MS, .timer_ns = 100 * MS + 100000, .timer_late_ns = 100000,
				   .finish_ns = 112 * MS, .missed = true };
	struct explain_schedstat d = { .run_ns = 5 * MS, .wait_ns = 6 * MS };
	struct explain_period p;
	explain_from_schedstat(&f, &d, &p);
	ck_assert_uint_eq(p.source, EXPLAIN_SCHEDSTAT);
	ck_assert_uint_eq(p.ran_ns, 5 * MS);
	ck_assert_uint_eq(p.delay_ns, 7 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_RUNNABLE], 6 * MS);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_TIMER], 100000);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_UNEXPLAINED], 900000);
}
END_TEST

/* The deltas hold what ran before the release too: a timer 3.7 ms late leaves the work 0.1 ms
 * to finish in, so it cannot have run 0.5 ms of it, and the parts never pass the delay. */
START_TEST(schedstat_bounded_by_release)
{
	struct explain_facts f = { .due_ns = 100 * MS, .timer_ns = 103 * MS + 700000, .timer_late_ns = 3700000,
				   .finish_ns = 103 * MS + 800000, .missed = false };
	struct explain_schedstat d = { .run_ns = 500000, .wait_ns = 2 * MS };
	struct explain_period p;
	explain_from_schedstat(&f, &d, &p);
	ck_assert_uint_eq(p.ran_ns, 100000);
	ck_assert_uint_eq(p.delay_ns, 3700000);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_RUNNABLE], 0);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_TIMER], 3700000);
	ck_assert_uint_eq(p.part_ns[EXPLAIN_UNEXPLAINED], 0);
}
END_TEST

static struct explain_summary s;
static struct explain_kept k;

/* s and k with n of late_period's periods, numbered from 0. */
static void summary_of(unsigned n)
{
	struct explain_facts f;
	struct explain_acc a;
	struct explain_period p;
	memset(&s, 0, sizeof(s));
	memset(&k, 0, sizeof(k));
	late_period(&f, &a);
	for (unsigned i = 0; i < n; i++) {
		f.index = i;
		explain_from_bpf(&f, &a, &p);
		explain_summary_add(&s, &k, &p);
	}
}

START_TEST(summary_merges_and_keeps_the_latest)
{
	summary_of(EXPLAIN_KEEP + 5);
	ck_assert_uint_eq(s.periods, EXPLAIN_KEEP + 5);
	ck_assert_uint_eq(s.delay_ns, (EXPLAIN_KEEP + 5) * 9500000ull);
	ck_assert_uint_eq(s.nwho, 2);  /* merged by pid */
	explain_summary_sort(&s);
	ck_assert_str_eq(s.who[0].comm, "burn");
	ck_assert_uint_eq(s.who[0].ns, (EXPLAIN_KEEP + 5) * 8 * MS);
	ck_assert_uint_eq(s.within_10pct, EXPLAIN_KEEP + 5);
	ck_assert_uint_eq(k.n, EXPLAIN_KEEP);
	ck_assert_uint_eq(explain_kept_at(&k, 0)->index, 5);
	ck_assert_uint_eq(explain_kept_at(&k, EXPLAIN_KEEP - 1)->index, EXPLAIN_KEEP + 4);
}
END_TEST

START_TEST(names)
{
	char buf[48];
	struct explain_culprit c = { .policy = 0, .prio = 139 };
	ck_assert_str_eq(explain_sched_text(&c, buf, sizeof(buf)), "SCHED_OTHER nice 19");
	c = (struct explain_culprit){ .policy = 1, .prio = 49 };
	ck_assert_str_eq(explain_sched_text(&c, buf, sizeof(buf)), "SCHED_FIFO 50");
	ck_assert_str_eq(explain_softirq_name(3), "NET_RX");
	ck_assert_str_eq(explain_softirq_name(99), "?");
	for (int k = 0; k < EXPLAIN_PARTS; k++)
		ck_assert_str_ne(explain_part_name((enum explain_part)k), "?");
}
END_TEST

/* The JSON object as the writer makes it and the reader (compare) reads it back. */
START_TEST(json_round_trip)
{
	summary_of(2);
	s.tracer_run_ns = 5000;
	json_t *o = explain_json(&s, &k, 10 * MS);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "tracer_cpu_ppm")), 500);
	ck_assert_int_eq(json_array_size(json_object_get(o, "periods")), 2);
	struct explain_causes c = { 0 };
	char err[200] = "";
	ck_assert_msg(explain_read_json(&c, o, 0, err, sizeof(err)) == 0, "%s", err);
	ck_assert(c.has);
	ck_assert_double_eq(c.periods, 2);
	ck_assert_double_eq(c.delay_ns, 2 * 9500000.0);
	ck_assert_double_eq_tol(explain_causes_part_pct(&c, EXPLAIN_TASKS), 100.0 * 7 / 9.5, 1e-9);
	ck_assert_double_eq_tol(explain_causes_culprit_pct(&c, "burn", "load"), 100.0 * 8 / 9.5, 1e-9);
	ck_assert_double_eq(explain_causes_culprit_pct(&c, "burn", "other"), 0);
	json_object_set_new(o, "delay_ns", json_string("x"));
	ck_assert_int_eq(explain_read_json(&c, o, 2, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "results[2].explain.delay_ns: not an integer");
	json_object_set_new(o, "delay_ns", json_integer(1));
	json_array_append_new(json_object_get(o, "culprits"), json_pack("{s:s, s:s, s:i}", "comm", "x", "owner", "other",
									"ns", -5));
	ck_assert_int_eq(explain_read_json(&c, o, 2, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "results[2].explain.culprits[2].ns: negative");
	json_decref(o);
}
END_TEST

/* The text lines under a row (explain/text.c), each starting with the caller's prefix: the
 * parts as shares of the delay (those under 0.05 % left out, softirq's vectors in brackets),
 * whose the tasks were, the culprits, and a line when no period was explained. */
START_TEST(why_lines_written)
{
	struct explain_summary s;
	memset(&s, 0, sizeof(s));
	s.source = EXPLAIN_BPF;
	s.periods = 4;
	s.delay_ns = 10000000;
	s.part_ns[EXPLAIN_TASKS] = 6000000;
	s.part_ns[EXPLAIN_SOFTIRQ] = 3000000;
	s.softirq_ns[1] = 3000000;                   /* TIMER */
	s.part_ns[EXPLAIN_UNEXPLAINED] = 1000000;
	s.part_ns[EXPLAIN_TIMER] = 4000;             /* 0.04 %: left out */
	s.owner_ns[EXPLAIN_OWNER_LOAD] = 6000000;
	s.nwho = 1;
	s.who[0] = (struct explain_culprit){ .pid = 7, .prio = 120, .switches = 5, .owner = EXPLAIN_OWNER_LOAD,
					     .ns = 6000000 };
	strcpy(s.who[0].comm, "burn");
	s.migrations = 1;
	s.within_10pct = 3;
	s.tracer_run_ns = -1;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	explain_text_why(f, "> why:", &s, "Burn", 2, 1000000000);
	s.periods = 0;
	s.tracer_run_ns = 10000000;
	explain_text_why(f, "> why:", &s, "Burn", 0, 1000000000);
	fclose(f);
	ck_assert_str_eq(text,
			 "> why: 4 periods missed their deadline (repeat 2), 10.0 ms of delay in all (bpf):\n"
			 "> why: tasks 60.0 %, softirq 30.0 % (TIMER 30.0 %), unexplained 10.0 %\n"
			 "> why: whose tasks: the Burn load 60.0 %\n"
			 "> why: by burn (pid 7, the Burn load, SCHED_OTHER nice 0) 60.0 % in 5 switch-ins\n"
			 "> why: migrations 1, preemptions 0; the named parts come within 10 % of the delay in 3 of 4 periods\n"
			 "> why: no period missed their deadline; the tracer took 1.000 % of a CPU\n");
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("explain");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, schedstat_parsed);
	tcase_add_test(tc, why_lines_written);
	tcase_add_test(tc, threshold_parsed);
	tcase_add_test(tc, bpf_period_composed);
	tcase_add_test(tc, rest_counts_by_owner);
	tcase_add_test(tc, chain_stage_added);
	tcase_add_test(tc, unexplained_is_the_rest);
	tcase_add_test(tc, carried_period);
	tcase_add_test(tc, schedstat_period_composed);
	tcase_add_test(tc, schedstat_bounded_by_release);
	tcase_add_test(tc, summary_merges_and_keeps_the_latest);
	tcase_add_test(tc, names);
	tcase_add_test(tc, json_round_trip);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
