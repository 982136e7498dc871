/* Deadline accounting on synthetic timestamp sequences. */
#include <check.h>
#include "tests/ck_run.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine/deadline.h"
#include "engine/intervals.h"
#include "lib/interval.h"
#include "run/options.h"
#include "engine/summary.h"
#include "engine/sim.h"
#include "workloads/proaudio_buffer.h"
#include "workloads/workload.h"
#include "tests/ck_synth.h"

#define MS 1000000ULL

START_TEST(met_on_time)
{
	struct deadline_verdict v = deadline_check(100 * MS, 50 * MS, 120 * MS);
	ck_assert(v.met);
	ck_assert_uint_eq(v.skipped, 0);
	ck_assert_uint_eq(v.next_wake_ns, 150 * MS);
}
END_TEST

START_TEST(met_exactly_at_deadline)
{
	struct deadline_verdict v = deadline_check(0, 50 * MS, 50 * MS);
	ck_assert(v.met);
	ck_assert_uint_eq(v.next_wake_ns, 50 * MS);
}
END_TEST

START_TEST(late_within_next_period)
{
	/* Finished 10 ms into the next period: missed, nothing skipped, next runs at once. */
	struct deadline_verdict v = deadline_check(0, 50 * MS, 60 * MS);
	ck_assert(!v.met);
	ck_assert_uint_eq(v.skipped, 0);
	ck_assert_uint_eq(v.next_wake_ns, 50 * MS);
}
END_TEST

START_TEST(late_one_ns)
{
	struct deadline_verdict v = deadline_check(0, 50 * MS, 50 * MS + 1);
	ck_assert(!v.met);
	ck_assert_uint_eq(v.skipped, 0);
}
END_TEST

START_TEST(multi_period_skip)
{
	/* Finished at 230 ms with 50 ms periods woken at 0: periods at 50, 100 and 150 ms had
	 * their deadlines (100, 150, 200 ms) pass; the one at 200 ms (deadline 250) still runs. */
	struct deadline_verdict v = deadline_check(0, 50 * MS, 230 * MS);
	ck_assert(!v.met);
	ck_assert_uint_eq(v.skipped, 3);
	ck_assert_uint_eq(v.next_wake_ns, 200 * MS);
}
END_TEST

START_TEST(skip_boundary_exact_deadline)
{
	/* Finished exactly at 150 ms = the deadline of the period woken at 100 ms: that period
	 * has no time left and is skipped; next is the one at 150 ms. */
	struct deadline_verdict v = deadline_check(0, 50 * MS, 150 * MS);
	ck_assert(!v.met);
	ck_assert_uint_eq(v.skipped, 2);
	ck_assert_uint_eq(v.next_wake_ns, 150 * MS);
}
END_TEST

START_TEST(accounting_sequence)
{
	/* Audio-like: 50 ms period, 2.5 ms work.  Three met, one late with two skips. */
	struct deadline_acct a = { 0 };
	uint64_t work_us = 2500;
	for (int i = 0; i < 3; i++) {
		struct deadline_verdict v = deadline_check((uint64_t)i * 50 * MS, 50 * MS, (uint64_t)i * 50 * MS + 3 * MS);
		deadline_acct_period(&a, &v, work_us);
	}
	struct deadline_verdict v = deadline_check(150 * MS, 50 * MS, 310 * MS);
	deadline_acct_period(&a, &v, work_us);
	ck_assert_uint_eq(v.skipped, 2);
	for (uint64_t k = 0; k < v.skipped; k++)
		deadline_acct_skip(&a, work_us);
	ck_assert_uint_eq(a.periods, 6);
	ck_assert_uint_eq(a.met, 3);
	ck_assert_uint_eq(a.missed, 3);
	ck_assert_uint_eq(a.skipped, 2);
	ck_assert_double_eq_tol(deadline_met_pct(&a), 50.0, 1e-9);
	ck_assert_double_eq_tol(deadline_desired_cpu_pct(&a), 400.0 / 6.0, 1e-9);
}
END_TEST

START_TEST(empty_is_perfect)
{
	struct deadline_acct a = { 0 };
	ck_assert_double_eq(deadline_met_pct(&a), 100.0);
	ck_assert_double_eq(deadline_desired_cpu_pct(&a), 100.0);
}
END_TEST

/* The end of a run: only deadlines strictly before it count against an unfinished task. */
START_TEST(unfinished_at_end)
{
	const uint64_t wake = 1000000, iv = 50000000; /* 50 ms */
	ck_assert_uint_eq(deadline_unfinished_periods(wake, iv, wake - 1), 0);      /* not yet woken */
	ck_assert_uint_eq(deadline_unfinished_periods(wake, iv, wake + iv / 2), 0); /* deadline ahead */
	ck_assert_uint_eq(deadline_unfinished_periods(wake, iv, wake + iv), 0);     /* exactly at it */
	ck_assert_uint_eq(deadline_unfinished_periods(wake, iv, wake + iv + 1), 1);
	ck_assert_uint_eq(deadline_unfinished_periods(wake, iv, wake + 20 * iv + 1), 20); /* starved 1 s */
	ck_assert_uint_eq(deadline_unfinished_periods(wake, 0, wake + iv), 0);
	/* A task starved for a whole second of Audio: 20 missed periods, no CPU, not 100%. */
	struct deadline_acct a = { 0 };
	for (uint64_t k = 0; k < deadline_unfinished_periods(wake, iv, wake + 20 * iv + 1); k++)
		deadline_acct_skip(&a, 2500);
	ck_assert_double_eq(deadline_met_pct(&a), 0);
	ck_assert_double_eq(deadline_desired_cpu_pct(&a), 0);
}
END_TEST

/* The intervals of % met and % desired CPU, exact on a hand-worked case; none before two
 * batches.  64 periods are 16 batches of 4 (lib/interval.h): batches alternate 4 met and 2 met
 * 2 skipped (no work done), so both shares are 75 %.
 * % met: the misses come in 8 runs of 2, and the batches' inflation of the met indicator is
 * m s^2 / (q (1 - q)) = 4 (1 / 15) / (0.75 x 0.25) = 1.42 (batch means 1 and 0.5 eight times
 * each, s^2 = 16 (0.25)^2 / 15 = 1 / 15), so VIF = 2: 8 misses in 32 effective periods, whose
 * exact (Clopper-Pearson) 95 % interval of the miss share is 11.461-43.405 % (the binomial sums
 * solved by bisection), % met 56.595-88.538.
 * % desired CPU: batch sums of work done 400 or 200 against 400 wanted, d = done - 0.75 wanted =
 * +-100, Var = (16 x 100^2 / 15) / (16 x 400^2) = 1 / 240, the half-width t(15, 0.975) sqrt(1 /
 * 240) = 2.131 x 0.25820 / 4 = 13.7555 points. */
START_TEST(intervals_of_met_and_cpu)
{
	struct deadline_acct a = { 0 };
	struct deadline_verdict met = { .met = true };
	double lo, hi, half = 100 * student_t975(15) * sqrt(1.0 / 15) / 4;
	ck_assert_double_eq_tol(half, 13.7555, 1e-4);
	deadline_acct_period(&a, &met, 100);
	ck_assert(!deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert(!deadline_desired_cpu_interval_pct(&a, CI_ALPHA, &lo, &hi));
	for (unsigned i = 1; i < 64; i++) {
		if ((i / 4) % 2 == 1 && i % 4 >= 2)
			deadline_acct_skip(&a, 100);
		else
			deadline_acct_period(&a, &met, 100);
	}
	ck_assert_uint_eq(a.met_bm.batches, 16);
	ck_assert_uint_eq(a.met_bm.batch_size, 4);
	ck_assert_double_eq(deadline_met_pct(&a), 75);
	ck_assert_double_eq(deadline_desired_cpu_pct(&a), 75);
	ck_assert_uint_eq(a.miss_runs, 8);
	ck_assert_double_eq_tol(bm_proportion_inflation(&a.met_bm), 4.0 / 15 / 0.1875, 1e-12);
	ck_assert_double_eq(deadline_miss_inflation(&a), 2);
	ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert_double_eq_tol(lo, 56.595063, 1e-5);
	ck_assert_double_eq_tol(hi, 88.538399, 1e-5);
	ck_assert(deadline_desired_cpu_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert_double_eq_tol(lo, 75 - half, 1e-9);
	ck_assert_double_eq_tol(hi, 75 + half, 1e-9);
}
END_TEST

/* Coverage of the share intervals against known truth: periods missed independently with
 * probability MISS (skipped: no work done; work wanted 1..10 units at random), COVER_REPS runs
 * each from a fixed seed, the share of runs whose 95 % interval holds the true share 100 (1 -
 * MISS).  A valid interval covers 95 %; over 1000 runs the share seen falls below 95 % -
 * 3.090 x sqrt(0.95 x 0.05 / 1000) = 92.9 % by chance once in a thousand (a 99.9 % one-sided
 * binomial bound). */
#define COVER_REPS 1000
#define COVER_MIN binomial_floor(0.95, COVER_REPS)

/* The coverage of % met and of % desired CPU over COVER_REPS runs of n periods. */
static void share_coverage(unsigned n, double miss, double *met_cov, double *cpu_cov)
{
	unsigned met_hit = 0, cpu_hit = 0;
	double truth = 100 * (1 - miss), lo, hi;
	struct deadline_verdict met = { .met = true };
	for (unsigned rep = 0; rep < COVER_REPS; rep++) {
		uint64_t rng = synth_seed(0xdead11e5, rep);
		struct deadline_acct a = { 0 };
		for (unsigned i = 0; i < n; i++) {
			uint64_t work = 1 + (uint64_t)(10 * uniform(&rng));
			if (uniform(&rng) < miss)
				deadline_acct_skip(&a, work);
			else
				deadline_acct_period(&a, &met, work);
		}
		ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
		met_hit += lo <= truth && truth <= hi;
		ck_assert(deadline_desired_cpu_interval_pct(&a, CI_ALPHA, &lo, &hi));
		cpu_hit += lo <= truth && truth <= hi;
	}
	*met_cov = (double)met_hit / COVER_REPS;
	*cpu_cov = (double)cpu_hit / COVER_REPS;
}

START_TEST(share_intervals_cover)
{
	static const struct { unsigned n; double miss; } c[] = { { 1200, 0.03 }, { 1200, 0.10 }, { 300, 0.10 } };
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		double met_cov, cpu_cov;
		share_coverage(c[i].n, c[i].miss, &met_cov, &cpu_cov);
		printf("coverage of the 95%% share intervals, %u periods, %.0f%% missed: met %.1f%%, cpu %.1f%%\n",
		       c[i].n, 100 * c[i].miss, 100 * met_cov, 100 * cpu_cov);
		fflush(stdout);
		ck_assert_double_ge(met_cov, COVER_MIN);
		ck_assert_double_ge(cpu_cov, COVER_MIN);
	}
}
END_TEST

/* 1200 met periods, then the deadline of each period in miss[] (indexes) missed. */
static void acct_with_misses(struct deadline_acct *a, const unsigned *miss, unsigned n_miss)
{
	struct deadline_verdict met = { .met = true }, late = { .met = false };
	memset(a, 0, sizeof(*a));
	for (unsigned i = 0, j = 0; i < 1200; i++) {
		bool missed = j < n_miss && miss[j] == i;
		j += missed;
		deadline_acct_period(a, missed ? &late : &met, 100);
	}
}

/* The constructed cases of % met, each against its exact interval (the binomial sums solved by
 * bisection, by hand): 1200 periods are 18 full batches of 64 and 48 in the batch being
 * filled.  No miss: 99.693065-100 ((alpha / 2)^(1 / 1200)).  One miss in the batch being
 * filled: Clopper-Pearson for 1 of 1200, 99.536580-99.997890, lower and wider than no miss,
 * not a point.  One miss in a full batch: the batches' inflation is about 1, the interval
 * about the same.  One stall of 5 periods in a row (62-66, across two batches, whose own
 * inflation is below 5): 5 misses that are 1 event, 1 in 240 effective periods,
 * 97.700472-99.989451. */
START_TEST(share_constructed_cases)
{
	struct deadline_acct a;
	double lo0, hi0, lo, hi;
	acct_with_misses(&a, NULL, 0);
	ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo0, &hi0));
	ck_assert_double_eq_tol(lo0, 99.693065, 1e-5);
	ck_assert_double_eq(hi0, 100);
	acct_with_misses(&a, (const unsigned[]){ 1199 }, 1);
	ck_assert_uint_eq(a.met_bm.batches, 18);
	ck_assert_uint_eq(a.met_bm.partial_n, 48);
	ck_assert_double_eq(deadline_miss_inflation(&a), 1);
	ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert_double_eq_tol(lo, 99.536580, 1e-5);
	ck_assert_double_eq_tol(hi, 99.997890, 1e-5);
	ck_assert(lo < lo0 && hi - lo > hi0 - lo0);
	acct_with_misses(&a, (const unsigned[]){ 100 }, 1);
	ck_assert_double_le(deadline_miss_inflation(&a), 1.01);
	ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert(lo < lo0 && hi - lo > hi0 - lo0);
	ck_assert_double_eq_tol(lo, 99.536580, 0.01);
	acct_with_misses(&a, (const unsigned[]){ 62, 63, 64, 65, 66 }, 5);
	ck_assert_uint_eq(a.miss_runs, 1);
	ck_assert_double_lt(bm_proportion_inflation(&a.met_bm), 5);
	ck_assert_double_eq(deadline_miss_inflation(&a), 5);
	ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert_double_eq_tol(lo, 97.700472, 1e-5);
	ck_assert_double_eq_tol(hi, 99.989451, 1e-5);
}
END_TEST

/* Coverage of % met when misses come in stalls: a two-state Markov chain, a stall starting
 * with probability 0.01 a period and going on with probability 0.8 (geometric lengths, 5
 * periods on average), started from its stationary state, so 0.01 / 0.21 = 4.76 % of the
 * periods are missed.  COVER_REPS seeded runs each of 300 and 1200 periods; the share whose
 * 95 % interval holds the true 95.238 % is at least COVER_MIN at 1200 periods (about 11 stalls
 * a run).  At 300 periods (about 3) it falls short, and the case asserts the share measured
 * with these seeds (88.1 %, less 3.090 binomial standard errors) so that it cannot get worse
 * unseen: a run that saw no stall (4 % of them) gets the interval of no miss, and one that saw a
 * single short stall takes it for the stalls' size (a third of those with one stall miss the
 * truth); what one run did not show, no interval from it can allow for. */
START_TEST(share_clustered_cover)
{
	static const struct { unsigned n; double measured; } c[] = { { 300, 0.881 }, { 1200, 0 } };
	const double start = 0.01, stay = 0.8, truth = 100 * (1 - start / (start + 1 - stay));
	struct deadline_verdict met = { .met = true }, late = { .met = false };
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		unsigned hit = 0;
		for (unsigned rep = 0; rep < COVER_REPS; rep++) {
			uint64_t rng = synth_seed(0xc105731d, rep);
			struct deadline_acct a = { 0 };
			bool stalled = uniform(&rng) < 1 - truth / 100;
			double lo, hi;
			for (unsigned i = 0; i < c[k].n; i++) {
				stalled = uniform(&rng) < (stalled ? stay : start);
				deadline_acct_period(&a, stalled ? &late : &met, 100);
			}
			ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
			hit += lo <= truth && truth <= hi;
		}
		printf("coverage of the 95%% interval of %% met, stalls of 5 periods, %u periods: %.1f%%\n", c[k].n,
		       100.0 * hit / COVER_REPS);
		fflush(stdout);
		ck_assert_double_ge((double)hit / COVER_REPS,
				    c[k].measured > 0 ? binomial_floor(c[k].measured, COVER_REPS) : COVER_MIN);
	}
}
END_TEST

/* A share every period had in full is not a point: its interval is the exact one of no miss in
 * that many periods (370 periods: 99.0 to 100 % at 95 %); one no period had rises from 0. */
START_TEST(a_pinned_share_keeps_its_uncertainty)
{
	struct deadline_acct a = { 0 };
	struct deadline_verdict met = { .met = true };
	double lo, hi;
	for (unsigned i = 0; i < 370; i++)
		deadline_acct_period(&a, &met, 100);
	ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert_double_eq_tol(lo, 100 * (1 - zero_events_upper(370, CI_ALPHA)), 1e-9);
	ck_assert_double_eq_tol(lo, 99.0, 0.01);
	ck_assert_double_eq(hi, 100);
	ck_assert(deadline_desired_cpu_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert_double_eq_tol(lo, 99.0, 0.01);
	ck_assert_double_eq(hi, 100);
	/* more periods, narrower; a stricter level, wider */
	for (unsigned i = 0; i < 3700; i++)
		deadline_acct_period(&a, &met, 100);
	ck_assert(deadline_met_interval_pct(&a, CI_ALPHA, &lo, &hi));
	ck_assert(lo > 99.9 && lo < 100);
	double lo3;
	ck_assert(deadline_met_interval_pct(&a, CI_ALPHA / 3, &lo3, &hi));
	ck_assert(lo3 < lo);
	struct deadline_acct none = { 0 };
	struct deadline_verdict late = { .met = false };
	for (unsigned i = 0; i < 370; i++)
		deadline_acct_period(&none, &late, 100);
	ck_assert(deadline_met_interval_pct(&none, CI_ALPHA, &lo, &hi));
	ck_assert_double_eq(lo, 0);
	ck_assert_double_eq_tol(hi, 1.0, 0.01);
}
END_TEST

/* interbench 0.31's latency: the scheduling latency on time, and a whole interval more per
 * interval the finish came after the deadline. */
START_TEST(interbench_latency)
{
	const uint64_t iv = 50 * MS;
	ck_assert_uint_eq(deadline_interbench_latency_ns(100000, 0, iv), 100000);            /* met */
	ck_assert_uint_eq(deadline_interbench_latency_ns(100000, 1, iv), 100000 + iv);       /* by 1 ns */
	ck_assert_uint_eq(deadline_interbench_latency_ns(100000, iv - 1, iv), 100000 + iv);
	ck_assert_uint_eq(deadline_interbench_latency_ns(100000, iv, iv), 100000 + 2 * iv);
	/* Two periods dropped (finish 2 intervals + 1 ns after the deadline): as deadline_check
	 * counts them, one interval for its own deadline and one per skipped period. */
	struct deadline_verdict v = deadline_check(0, iv, 3 * iv + 1);
	ck_assert_uint_eq(v.skipped, 2);
	ck_assert_uint_eq(deadline_interbench_latency_ns(5 * MS, 2 * iv + 1, iv), 5 * MS + (1 + v.skipped) * iv);
	/* X at step 80 of a 100 ms frame: 0.31 counts in its 20 ms idle part; 30 ms late is two
	 * such intervals; at step 100 (no idle part) nothing is added. */
	ck_assert_uint_eq(deadline_interbench_latency_ns(0, 30 * MS, 20 * MS), 40 * MS);
	ck_assert_uint_eq(deadline_interbench_latency_ns(1 * MS, 30 * MS, 0), 1 * MS);
}
END_TEST

/* Runs of missed deadlines: a lone miss is one run of 1; two in a row, or a miss with a skipped
 * period after it, a stutter; a met deadline ends a run; the end of the run counts the last. */
START_TEST(miss_streaks)
{
	const uint64_t iv = 10 * MS;
	struct deadline_acct a = { 0 };
	struct deadline_verdict met = deadline_check(0, iv, iv / 2), late = deadline_check(0, iv, iv + 1);
	struct deadline_verdict very = deadline_check(0, iv, 3 * iv + 1);   /* two skipped */
	deadline_acct_period(&a, &met, 1);
	deadline_acct_period(&a, &late, 1);                    /* a lone late frame */
	deadline_acct_period(&a, &met, 1);
	ck_assert_uint_eq(a.longest_streak, 1);
	ck_assert_uint_eq(a.streaks, 0);
	deadline_acct_period(&a, &late, 1);
	deadline_acct_period(&a, &late, 1);                    /* a stutter of 2 */
	deadline_acct_period(&a, &met, 1);
	ck_assert_uint_eq(a.longest_streak, 2);
	ck_assert_uint_eq(a.streaks, 1);
	deadline_acct_period(&a, &very, 1);                    /* 1 missed + 2 skipped */
	for (uint64_t k = 0; k < very.skipped; k++)
		deadline_acct_skip(&a, 1);
	deadline_acct_skip(&a, 1);                             /* unfinished at the end */
	deadline_acct_streak_end(&a);
	ck_assert_uint_eq(a.longest_streak, 4);
	ck_assert_uint_eq(a.streaks, 2);
	ck_assert_uint_eq(a.streak, 0);
}
END_TEST

/* Audio buffering on synthetic periods: 2 periods of buffer allow a period to complete one
 * period after its start; 3 allow two.  Starts within 1 and 2 ms counted; dropped periods are
 * xruns. */
START_TEST(audio_xruns)
{
	const uint64_t iv = 2667000;   /* 128 frames at 48 kHz */
	struct audio_acct a = { 0 };
	struct deadline_verdict ontime = deadline_check(0, iv, iv), late = deadline_check(0, iv, iv + 1);
	ck_assert(!audio_acct_period(&a, 2, iv, 0, 500000, iv, &ontime));           /* exactly one period */
	ck_assert(audio_acct_period(&a, 2, iv, 0, 1500000, iv + 1, &late));         /* 1 ns over */
	ck_assert_uint_eq(a.worst_overrun_ns, 1);
	ck_assert(!audio_acct_period(&a, 3, iv, 0, 2500000, 2 * iv, &late));        /* 3 periods: fine */
	struct deadline_verdict dropped = deadline_check(0, iv, 4 * iv + 10);      /* 3 dropped after it */
	ck_assert_uint_eq(dropped.skipped, 3);
	ck_assert(audio_acct_period(&a, 3, iv, 0, 0, 4 * iv + 10, &dropped));
	ck_assert_uint_eq(a.xruns, 1 + 1 + 3);
	ck_assert_uint_eq(a.worst_overrun_ns, 2 * iv + 10);
	ck_assert_uint_eq(a.start_within_1ms, 2);   /* 0.5 ms and 0 */
	ck_assert_uint_eq(a.start_within_2ms, 3);   /* and 1.5 ms; not 2.5 ms */
}
END_TEST

/* The end of a run in a ProAudio task: periods never started are xruns, the one in progress
 * only once the buffer's allowance has passed, its overrun then a lower bound. */
START_TEST(audio_unfinished)
{
	const uint64_t iv = 2667000;
	struct audio_acct a = { 0 };
	audio_acct_unfinished(&a, 2, iv, 0, 10 * iv, 0);           /* nothing unfinished */
	ck_assert_uint_eq(a.xruns, 0);
	audio_acct_unfinished(&a, 2, iv, 0, iv + 5, 1);            /* in progress, 5 ns over */
	ck_assert_uint_eq(a.xruns, 1);
	ck_assert_uint_eq(a.worst_overrun_ns, 5);
	memset(&a, 0, sizeof(a));
	audio_acct_unfinished(&a, 4, iv, 0, 2 * iv + 1, 2);        /* 3 periods of buffer left 1 */
	ck_assert_uint_eq(a.xruns, 1);
	ck_assert_uint_eq(a.worst_overrun_ns, 0);
	audio_acct_unfinished(&a, 2, iv, 0, 374 * iv + 1, 374);    /* stuck in the first period */
	ck_assert_uint_eq(a.xruns, 1 + 374);
	ck_assert_uint_eq(a.worst_overrun_ns, 373 * iv + 1);
}
END_TEST

/* A period's work of 10^12 us: at 10^6 loops per ms, 10^15 loops, days on any CPU. */
static uint64_t endless_work_us(const struct sim_spec *spec, uint64_t period)
{
	(void)spec, (void)period;
	return 1000000000000ULL;
}

/* A ProAudio-like task whose first period never ends (absurd work): every deadline passed is
 * missed and an xrun, and it has no latency sample, so its latency shows "-" rather than a
 * perfect 0. */
START_TEST(stuck_first_period)
{
	static const struct sim_desc desc = { .interval_us = 2000, .cpu_pct = 50, .has_deadlines = true,
					      .fixed_work = true, .work_us = endless_work_us,
					      .measures = &proaudio_buffer_measures };
	struct sim_spec spec;
	sim_spec_init(&spec, &desc);
	spec.buffer_periods = 2;
	/* the first period cannot end whatever the machine's speed or load; the work checks for
	 * the stop every 10^5 loops (calibrate/calibrate.c burn_us_done) */
	struct sim_run_cfg cfg = { .loops_per_ms = 1000000ULL };
	static struct sim_result r;
	struct sim_engine *e = sim_start(&spec, &cfg, &r);
	ck_assert_ptr_nonnull(e);
	/* at least 30 ms (longer on a busy host, which only adds periods): the first period
	 * starts 2 ms after sim_start, so at least (28 ms - 1 ns) / 2 ms = 13 deadlines pass */
	nanosleep(&(struct timespec){ .tv_nsec = 30 * 1000000L }, NULL);
	sim_stop(e);
	ck_assert_uint_ge(r.acct.missed, 13);
	ck_assert_uint_eq(r.acct.met, 0);
	struct audio_figures audio;
	memcpy(&audio, r.task.data.bytes, sizeof(audio));
	ck_assert_str_eq(r.task.name, "buffer");
	ck_assert_uint_eq(audio.xruns, r.acct.missed);
	ck_assert_uint_eq(r.sched.count, 0);
	ck_assert_uint_eq(r.classic.count, 0);
	struct pair_summary s;
	pair_summarize(&r, &s);
	ck_assert_uint_eq(s.samples, 0);   /* the tables' "-", the JSON's null */
	memcpy(&audio, s.task.data.bytes, sizeof(audio));
	ck_assert_uint_eq(audio.xruns, s.deadlines_missed);
}
END_TEST

/* Stolen time on synthetic burns: CPU time above the calibrated length of the loops run, the
 * share over 10%. */
START_TEST(stolen_time)
{
	static struct loop_acct l;
	memset(&l, 0, sizeof(l));
	loop_acct_period(&l, 950000, 1000000);   /* faster than calibrated: nothing stolen */
	loop_acct_period(&l, 1050000, 1000000);  /* 5% over */
	loop_acct_period(&l, 1500000, 1000000);  /* an SMI: 0.5 ms stolen */
	loop_acct_period(&l, 123, 0);            /* no work: not measured */
	ck_assert_uint_eq(l.periods, 3);
	ck_assert_uint_eq(l.over10, 1);
	ck_assert_uint_eq(l.excess.max_ns, 500000);
	ck_assert_uint_eq(l.excess.min_ns, 0);
	ck_assert_uint_eq(hist_percentile_ns(&l.excess_hist, 50, l.excess.max_ns) / 1000, 50); /* ~50 us */
}
END_TEST

START_TEST(x_sweep_work)
{
	struct options o;
	struct sim_spec spec;
	int x = workload_find("X", false);
	ck_assert_int_ge(x, 0);
	options_init(&o);
	workload_sim_spec(workload_table[x], options_wl_opts(&o, (unsigned)x), &spec);
	ck_assert_uint_eq(spec.interval_us, 100000);          /* 100 ms frames */
	ck_assert_uint_eq(sim_work_us(&spec, 0), 0);          /* 0%: no work at all */
	ck_assert_uint_eq(sim_work_us(&spec, 1), 1000);       /* 1% of 100 ms */
	ck_assert_uint_eq(sim_work_us(&spec, 100), 100000);   /* 100%: zero sleep */
	ck_assert_uint_eq(sim_work_us(&spec, 101), 0);        /* 101 steps: the sweep starts over */
}
END_TEST

START_TEST(x_zero_sleep_steps)
{
	/* At 100% the work fills the frame: finishing on the deadline meets it; a zero-work
	 * step finishes at its wake time and meets it too. */
	struct deadline_acct a = { 0 };
	struct deadline_verdict v = deadline_check(0, 100 * MS, 100 * MS);
	deadline_acct_period(&a, &v, 100000);
	v = deadline_check(100 * MS, 100 * MS, 100 * MS);
	deadline_acct_period(&a, &v, 0);
	ck_assert_uint_eq(a.met, 2);
	ck_assert_double_eq(deadline_desired_cpu_pct(&a), 100.0);
	/* A 100% step preempted for 1 ms misses, and the next frame starts late but runs. */
	v = deadline_check(200 * MS, 100 * MS, 301 * MS);
	ck_assert(!v.met);
	ck_assert_uint_eq(v.skipped, 0);
	ck_assert_uint_eq(v.next_wake_ns, 300 * MS);
}
END_TEST

START_TEST(custom_spec)
{
	struct options o;
	struct sim_spec spec;
	char err[256];
	char *argv[] = { "interbench", "-C", "25", "-I", "2000", NULL };
	int c = workload_find("Custom", false);
	ck_assert_int_ge(c, 0);
	options_init(&o);
	ck_assert_int_eq(options_parse(&o, 5, argv, err, sizeof(err)), OPT_OK);
	workload_sim_spec(workload_table[c], options_wl_opts(&o, (unsigned)c), &spec);
	ck_assert_uint_eq(spec.interval_us, 2000);
	ck_assert_uint_eq(sim_work_us(&spec, 7), 500);
}
END_TEST

/* The p99 of 100 independent samples has no upper bound inside them: open above, with the
 * samples it would need (368 at 95 % for independent samples, lib/interval.h, times the
 * estimated inflation); 3000 samples close it. */
static void add_samples(struct sim_result *r, unsigned n, uint64_t *seed)
{
	for (unsigned i = 0; i < n; i++) {
		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t v_ns = 1000 + (*seed >> 33) % 100000;
		lat_stats_add(&r->sched, v_ns);
		hist_add(&r->sched_hist, v_ns);
		bm_add(&r->sched_bm, (double)v_ns);
		qb_add(&r->sched_qb, v_ns);
	}
}

START_TEST(p99_interval_open_until_enough_samples)
{
	static struct sim_result r;
	struct sim_interval iv[SIM_JUDGED];
	uint64_t seed = 42;
	memset(&r, 0, sizeof(r));
	add_samples(&r, 100, &seed);
	sim_intervals(&r, CI_ALPHA, iv);
	ck_assert(iv[SIM_LATENCY_P99].has && iv[SIM_LATENCY_P99].open_above);
	ck_assert_uint_eq(iv[SIM_LATENCY_P99].n, 100);
	ck_assert_double_ge(iv[SIM_LATENCY_P99].n_needed, 368);
	ck_assert_double_le(iv[SIM_LATENCY_P99].n_needed, 2000);
	sim_intervals(&r, CI_ALPHA / 3, iv);   /* a stricter level: more samples */
	double three = iv[SIM_LATENCY_P99].n_needed;
	sim_intervals(&r, CI_ALPHA, iv);
	ck_assert_double_gt(three, iv[SIM_LATENCY_P99].n_needed);
	add_samples(&r, 2900, &seed);
	sim_intervals(&r, CI_ALPHA / 3, iv);
	ck_assert(iv[SIM_LATENCY_P99].has && !iv[SIM_LATENCY_P99].open_above);
	ck_assert_double_eq(iv[SIM_LATENCY_P99].n_needed, BM_MIN_SAMPLES);
	ck_assert(iv[SIM_LATENCY_MEAN].lo < iv[SIM_LATENCY_MEAN].value && iv[SIM_LATENCY_MEAN].value < iv[SIM_LATENCY_MEAN].hi);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("deadline");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, met_on_time);
	tcase_add_test(tc, met_exactly_at_deadline);
	tcase_add_test(tc, late_within_next_period);
	tcase_add_test(tc, late_one_ns);
	tcase_add_test(tc, multi_period_skip);
	tcase_add_test(tc, skip_boundary_exact_deadline);
	tcase_add_test(tc, accounting_sequence);
	tcase_add_test(tc, empty_is_perfect);
	tcase_add_test(tc, unfinished_at_end);
	tcase_add_test(tc, a_pinned_share_keeps_its_uncertainty);
	tcase_add_test(tc, interbench_latency);
	tcase_add_test(tc, intervals_of_met_and_cpu);
	tcase_add_test(tc, share_intervals_cover);
	tcase_add_test(tc, share_constructed_cases);
	tcase_add_test(tc, share_clustered_cover);
	tcase_add_test(tc, miss_streaks);
	tcase_add_test(tc, audio_xruns);
	tcase_add_test(tc, audio_unfinished);
	tcase_add_test(tc, stuck_first_period);
	tcase_add_test(tc, stolen_time);
	tcase_add_test(tc, x_sweep_work);
	tcase_add_test(tc, x_zero_sleep_steps);
	tcase_add_test(tc, custom_spec);
	tcase_add_test(tc, p99_interval_open_until_enough_samples);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
