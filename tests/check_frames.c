/* The frame-time figures (engine/frames.h): the average lows and the stutter rule on synthetic
 * frame sequences with known answers, and against a plain reference computed from the whole
 * sequence (sorted for the lows, the 20 frames before each for the stutter). */
#include <check.h>
#include "tests/ck_run.h"
#include <stdlib.h>
#include <string.h>
#include "engine/frames.h"
#include "engine/summary.h"
#include "lib/histogram.h"

#define MS 1000000ull

/* Adds frames[0..n) to a and to h. */
static void add_all(struct frame_acct *a, struct lat_hist *h, const uint64_t *frames, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		frame_acct_add(a, frames[i]);
		hist_add(h, frames[i]);
	}
}

/* 1000 frames of 16.7 ms with 10 of 50 ms, each 100 frames apart: 10 stutters (50 > 2.5 x
 * 16.7 = 41.75), the longest 1 % (10 frames) and 0.1 % (1 frame) all 50 ms. */
START_TEST(ten_long_frames_in_a_thousand)
{
	static struct lat_hist h;
	struct frame_acct a = { 0 };
	memset(&h, 0, sizeof(h));
	for (unsigned i = 0; i < 1000; i++) {
		uint64_t f = i % 100 == 50 ? 50 * MS : 16700000;
		frame_acct_add(&a, f);
		hist_add(&h, f);
	}
	struct frame_figures f;
	frame_acct_figures(&a, &h, &f);
	ck_assert_uint_eq(f.stutters, 10);
	ck_assert_uint_eq(f.stutter_ns, 500 * MS);
	ck_assert_uint_eq(f.total_ns, 990 * 16700000ull + 500 * MS);
	ck_assert_double_eq(f.low1_mean_ns, 50.0 * MS);
	ck_assert_double_eq(f.low01_mean_ns, 50.0 * MS);
	/* eleven long frames: the 1 % (10) are all long, the mean of the longest 2 (0.1 % of
	 * 1001 rounds up to 2) too */
	frame_acct_add(&a, 50 * MS);
	hist_add(&h, 50 * MS);
	ck_assert_double_eq(frame_acct_worst_mean_ns(&a, &h, 1), 50.0 * MS);
	frame_acct_free(&a);
}
END_TEST

/* The 1 % mixes: 5 frames of 50 ms among 1000, the other 995 of 10 ms: the longest 10 are 5
 * of 50 and 5 of 10, mean 30 ms. */
START_TEST(low_average_mixes_when_few_are_long)
{
	static struct lat_hist h;
	struct frame_acct a = { 0 };
	memset(&h, 0, sizeof(h));
	for (unsigned i = 0; i < 1000; i++) {
		uint64_t f = i < 5 ? 50 * MS : 10 * MS;
		frame_acct_add(&a, f);
		hist_add(&h, f);
	}
	ck_assert_double_eq(frame_acct_worst_mean_ns(&a, &h, 1), 30.0 * MS);
	ck_assert_double_eq(frame_acct_worst_mean_ns(&a, &h, 0.1), 50.0 * MS);
	/* the first 20 frames are not judged: the five long ones came first */
	ck_assert_uint_eq(a.stutters, 0);
	frame_acct_free(&a);
}
END_TEST

/* The rule's edges: exactly 2.5 times the mean is no stutter, a nanosecond more is; the mean
 * is of the 20 frames before, a long frame among them raising it for the next. */
START_TEST(stutter_edges)
{
	struct frame_acct a = { 0 };
	for (unsigned i = 0; i < 20; i++)
		ck_assert(!frame_acct_add(&a, 10 * MS));
	ck_assert(!frame_acct_add(&a, 25 * MS));       /* mean 10 ms: 25 is not above 25 */
	/* now the 20 before: 19 of 10 ms and one of 25: mean 10.75 ms, 2.5 x = 26.875 ms */
	ck_assert(!frame_acct_add(&a, 26875000));
	/* 18 of 10, 25, 26.875: mean 11.59375 ms, 2.5 x = 28.984375 ms */
	ck_assert(frame_acct_add(&a, 28984376));
	ck_assert_uint_eq(a.stutters, 1);
	ck_assert_uint_eq(a.stutter_ns, 28984376);
	frame_acct_free(&a);
}
END_TEST

/* xorshift64 (Marsaglia 2003): deterministic test data. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int cmp_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* The reference: stutters counted with the 20 frames before each summed afresh, and the mean
 * of the longest k from a sorted copy. */
static uint64_t ref_stutters(const uint64_t *f, size_t n)
{
	uint64_t count = 0;
	for (size_t i = 20; i < n; i++) {
		uint64_t sum = 0;
		for (size_t j = i - 20; j < i; j++)
			sum += f[j];
		count += (double)f[i] > 2.5 * (double)sum / 20;
	}
	return count;
}

static double ref_worst_mean(const uint64_t *f, size_t n, uint64_t k)
{
	uint64_t *s = malloc(n * sizeof(*s));
	ck_assert_ptr_nonnull(s);
	memcpy(s, f, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_desc);
	double sum = 0;
	for (uint64_t i = 0; i < k; i++)
		sum += (double)s[i];
	free(s);
	return sum / (double)k;
}

/* Random frame times, mostly near 16.7 ms with spikes, against the reference. */
START_TEST(random_against_reference)
{
	static struct lat_hist h;
	enum { N = 54321 };
	static uint64_t f[N];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < N; i++) {
		uint64_t r = rnd(&seed);
		f[i] = 15 * MS + r % (4 * MS) + (r % 97 == 0 ? (r >> 20) % (80 * MS) : 0);
	}
	struct frame_acct a = { 0 };
	memset(&h, 0, sizeof(h));
	add_all(&a, &h, f, N);
	ck_assert_uint_eq(a.stutters, ref_stutters(f, N));
	ck_assert_uint_gt(a.stutters, 0);
	ck_assert_double_eq_tol(frame_acct_worst_mean_ns(&a, &h, 1), ref_worst_mean(f, N, (N + 99) / 100), 1e-3);
	ck_assert_double_eq_tol(frame_acct_worst_mean_ns(&a, &h, 0.1), ref_worst_mean(f, N, (N + 999) / 1000), 1e-3);
	frame_acct_free(&a);
}
END_TEST

/* Past 100 x FRAME_WORST_MAX frames the 1 % no longer fits what is kept: the histogram answers,
 * within half a bucket (0.4 %) of the exact mean; the 0.1 % is still exact. */
START_TEST(past_the_kept_worst)
{
	static struct lat_hist h;
	size_t n = 100 * (size_t)FRAME_WORST_MAX + 1000;
	uint64_t *f = malloc(n * sizeof(*f));
	ck_assert_ptr_nonnull(f);
	uint64_t seed = 12345;
	for (size_t i = 0; i < n; i++)
		f[i] = 1 * MS + rnd(&seed) % (9 * MS);
	struct frame_acct a = { 0 };
	memset(&h, 0, sizeof(h));
	add_all(&a, &h, f, n);
	ck_assert_uint_eq(a.worst_n, FRAME_WORST_MAX);
	double exact = ref_worst_mean(f, n, (n + 99) / 100);
	ck_assert_double_eq_tol(frame_acct_worst_mean_ns(&a, &h, 1), exact, exact * 0.004);
	ck_assert_double_eq_tol(frame_acct_worst_mean_ns(&a, &h, 0.1), ref_worst_mean(f, n, (n + 999) / 1000), 1e-3);
	frame_acct_free(&a);
	free(f);
}
END_TEST

/* Through a pair's summary (engine/summary.c), as the JSON gets them: README's example of 1000
 * frames of 16.7 ms with 10 of 50 ms.  The percentile low stays near 60 fps (the p99 frame
 * time is the 16.7 ms bucket's upper bound, 16.711679 ms: lib/histogram.h), the average low
 * is 20 fps, 10 frames stutter. */
START_TEST(through_the_summary)
{
	static struct sim_result r;
	static struct pair_summary s;
	struct frame_acct a = { 0 };
	memset(&r, 0, sizeof(r));
	for (unsigned i = 0; i < 1000; i++) {
		uint64_t f = i % 100 == 50 ? 50 * MS : 16700000;
		lat_stats_add(&r.frame, f);
		hist_add(&r.frame_hist, f);
		frame_acct_add(&a, f);
	}
	frame_acct_figures(&a, &r.frame_hist, &r.frame_figs);
	frame_acct_free(&a);
	pair_summarize(&r, &s);
	ck_assert_uint_eq(s.frame_samples, 1000);
	ck_assert_double_eq_tol(s.frame_mean_ns, (990 * 16.7e6 + 500e6) / 1000, 1e-3);
	ck_assert_double_eq_tol(s.low1_fps, 1e9 / 16711679.0, 1e-9);
	ck_assert_double_eq_tol(s.low1_avg_fps, 20, 1e-9);
	ck_assert_double_eq_tol(s.low01_avg_fps, 20, 1e-9);
	ck_assert_double_eq_tol(s.low01_fps, 20, 1e-9);   /* the p99.9 is a 50 ms frame, its exact max */
	ck_assert_uint_eq(s.stutter_frames, 10);
	ck_assert_double_eq_tol(s.stutter_time_pct, 100 * 500e6 / (990 * 16.7e6 + 500e6), 1e-9);
}
END_TEST

START_TEST(no_frames)
{
	static struct lat_hist h;
	struct frame_acct a = { 0 };
	struct frame_figures f;
	memset(&h, 0, sizeof(h));
	frame_acct_figures(&a, &h, &f);
	ck_assert_double_eq(f.low1_mean_ns, 0);
	ck_assert_uint_eq(f.stutters, 0);
	frame_acct_free(&a);
}
END_TEST

/* The log buffer keeps its capacity and says when frames were dropped. */
START_TEST(log_buffer_bounded)
{
	struct frame_rec rec[3];
	struct frame_log_buf b = { .rec = rec, .cap = 3 };
	for (unsigned i = 0; i < 5; i++)
		frame_log_push(&b, i * 10, i + 1);
	ck_assert_uint_eq(b.n, 3);
	ck_assert(b.truncated);
	ck_assert_uint_eq(rec[2].at_ns, 20);
	ck_assert_uint_eq(rec[2].frame_ns, 3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("frames");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ten_long_frames_in_a_thousand);
	tcase_add_test(tc, low_average_mixes_when_few_are_long);
	tcase_add_test(tc, stutter_edges);
	tcase_add_test(tc, random_against_reference);
	tcase_add_test(tc, past_the_kept_worst);
	tcase_add_test(tc, through_the_summary);
	tcase_add_test(tc, no_frames);
	tcase_add_test(tc, log_buffer_bounded);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
