/* A budget run's settling (report/run_decisions.h run_decisions_settled) on hand-made sub-runs:
 * a pair without alternatives is settled when its judged figures are known to --precision,
 * and says what it waits for when not: the first figure not yet precise, p90 in p99's place
 * below the samples that bound a p99, or "disturbed" when too few sub-runs were usable. */
#include <check.h>
#include "tests/ck_run.h"
#include <string.h>
#include "report/run_decisions.h"
#include "run/matrix.h"
#include "run/options.h"
#include "run/plan.h"
#include "run/sweep.h"
#include "lib/timeutil.h"

static struct options opt;
static struct sweep_side bench, load;
static struct plan plan;
static struct matrix m;
static const volatile sig_atomic_t stop;

/* The matrix of Audio against None (one item), room for 20 sub-runs, none run yet. */
static void setup(void)
{
	char *argv[] = { "interbench", "-W", "Audio", "-w", "None", NULL }, err[512];
	options_init(&opt);
	ck_assert_msg(options_parse(&opt, 5, argv, err, sizeof(err)) == OPT_OK, "%s", err);
	sweep_build(&opt, 97, &bench, &load);
	struct plan_input in = { .opt = &opt, .bench = &bench, .load = &load, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&plan, &in), 0);
	ck_assert_uint_eq(plan.n, 1);
	struct matrix_params p = { .plan = &plan, .opt = &opt, .load = &load, .repeats = MATRIX_BUDGET_MAX_SUBRUNS,
				   .duration_ns = 5 * NS_PER_S, .budget_ns = 30 * NS_PER_S, .interrupted = &stop };
	ck_assert_int_eq(matrix_init(&m, &p), 0);
}

static void teardown(void)
{
	matrix_free(&m);
	plan_free(&plan);
}

/* Sub-run k of the item: measured, samples periods all met, p90 and p99 as given (us). */
static void subrun(unsigned k, uint64_t samples, double p90_us, double p99_us)
{
	struct pair_outcome *po = &m.reps[k];
	po->ran = po->ok = true;
	struct pair_summary *s = &po->bench.summary;
	s->samples = s->periods = samples;
	s->deadlines_met_pct = 100;
	s->latency_mean_ns = p90_us * 500;
	s->sched_p50_ns = (uint64_t)(p90_us * 500);
	s->sched_p90_ns = (uint64_t)(p90_us * 1000);
	s->sched_p99_ns = s->latency_max_ns = (uint64_t)(p99_us * 1000);
}

/* Sub-runs 0-2: 1000 samples each, p99 within 2 % of each other. */
static void three_close(void)
{
	subrun(0, 1000, 50, 100);
	subrun(1, 1000, 51, 101);
	subrun(2, 1000, 49, 99);
}

/* Three sub-runs of 1000 samples within 2 % of each other: known (p99 within 20 % at 95 %, %
 * met within 2 points of its 3000 periods); one far off makes p99 what it waits for. */
START_TEST(known_or_p99)
{
	char why[MATRIX_WHY_LEN];
	three_close();
	ck_assert(run_decisions_settled(&m, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "");
	subrun(2, 1000, 49, 400);
	ck_assert(!run_decisions_settled(&m, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "p99 latency");
}
END_TEST

/* 100 samples a sub-run cannot bound a p99: p90 is judged in its place, and waited for when
 * it spreads, whatever p99 does. */
START_TEST(p90_below_the_bound)
{
	char why[MATRIX_WHY_LEN];
	subrun(0, 100, 50, 100);
	subrun(1, 100, 150, 101);
	subrun(2, 100, 20, 99);
	ck_assert(!run_decisions_settled(&m, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "p90 latency");
}
END_TEST

/* Two of three sub-runs disturbed: one usable is no spread, so the pair waits for undisturbed
 * sub-runs and says so; once two are usable and close, it is known. */
START_TEST(disturbed_waits)
{
	char why[MATRIX_WHY_LEN];
	three_close();
	for (unsigned k = 1; k < 3; k++)
		m.reps[k].disturbance = (struct disturbance){ .measured = true, .cpus = 2, .outside_cpu_ppm = 200000 };
	ck_assert(!run_decisions_settled(&m, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "disturbed");
	subrun(3, 1000, 50, 100);
	ck_assert(run_decisions_settled(&m, 0, why, sizeof(why)));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("run_decisions");
	TCase *tc = tcase_create("settled");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, known_or_p99);
	tcase_add_test(tc, p90_below_the_bound);
	tcase_add_test(tc, disturbed_waits);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
