/* Welford running statistics against a two-pass reference (mean first, then the sum of squared
 * deviations from it), on random data with and without a large offset, and a known answer. */
#include <check.h>
#include "tests/ck_run.h"
#include <math.h>
#include <stdlib.h>
#include "lib/stats.h"

static uint64_t rnd(uint64_t *s) /* xorshift64 (Marsaglia 2003) */
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void two_pass(const uint64_t *v, size_t n, double *mean, double *sd)
{
	double sum = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		sum += (double)v[i];
	*mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += ((double)v[i] - *mean) * ((double)v[i] - *mean);
	*sd = sqrt(ss / (double)n);
}

static void fill(uint64_t *v, size_t n, uint64_t offset, unsigned noise_bits, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = offset + (rnd(seed) >> (64 - noise_bits));
}

/* At offsets of 1e9 and 1e12 ns the naive sqrt(E[x^2] - E[x]^2) cancels catastrophically (x^2
 * near 1e18..1e24 against a variance near 1e5); Welford must still match the reference.  The
 * reference is the two-pass SD of the noise alone: the SD does not depend on the offset, and
 * the noise (0..1023) is small enough for the reference to be exact to double precision. */
START_TEST(welford_matches_two_pass)
{
	enum { N = 100000 };
	uint64_t *v = malloc(N * sizeof(*v)), *noise = malloc(N * sizeof(*noise)), seed = 88172645463325252ULL;
	const uint64_t offsets[] = { 0, 1000000, 1000000000ULL, 1000000000000ULL };
	ck_assert(v && noise);
	for (size_t k = 0; k < 4; k++) {
		fill(noise, N, 0, 10, &seed); /* noise 0..1023 ns */
		struct lat_stats s = { 0 };
		uint64_t lo = UINT64_MAX, hi = 0;
		for (size_t i = 0; i < N; i++) {
			v[i] = offsets[k] + noise[i];
			lat_stats_add(&s, v[i]);
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
		double mean, sd;
		two_pass(noise, N, &mean, &sd);
		mean += (double)offsets[k];
		ck_assert_uint_eq(s.count, N);
		ck_assert_double_eq_tol(s.mean_ns, mean, 1e-9 * (mean + 1));
		ck_assert_msg(fabs(lat_stats_sd_ns(&s) - sd) <= 1e-6 * sd, "offset %llu: SD %.9g, reference %.9g",
			      (unsigned long long)offsets[k], lat_stats_sd_ns(&s), sd);
		ck_assert_uint_eq(s.min_ns, lo);
		ck_assert_uint_eq(s.max_ns, hi);
	}
	free(v);
	free(noise);
}
END_TEST

/* A known answer far from zero: 1e12 and 1e12 + 2 alternating have SD exactly 1 ns. */
START_TEST(large_offset_known_sd)
{
	struct lat_stats s = { 0 };
	for (int i = 0; i < 100000; i++)
		lat_stats_add(&s, 1000000000000ULL + (uint64_t)(i % 2) * 2);
	ck_assert_double_eq_tol(s.mean_ns, 1000000000001.0, 1e-3);
	ck_assert_double_eq_tol(lat_stats_sd_ns(&s), 1.0, 1e-9);
}
END_TEST

START_TEST(merge_equals_one_pass)
{
	enum { N = 5000 };
	uint64_t v[N], seed = 12345;
	fill(v, N, 1000000000ULL, 16, &seed);
	const size_t splits[] = { 0, 1, 2, 2500, 4999, 5000 };
	for (size_t k = 0; k < 6; k++) {
		struct lat_stats all = { 0 }, a = { 0 }, b = { 0 };
		for (size_t i = 0; i < N; i++) {
			lat_stats_add(&all, v[i]);
			lat_stats_add(i < splits[k] ? &a : &b, v[i]);
		}
		lat_stats_merge(&a, &b);
		ck_assert_uint_eq(a.count, all.count);
		ck_assert_double_eq_tol(a.mean_ns, all.mean_ns, 1e-12 * all.mean_ns);
		ck_assert_double_eq_tol(lat_stats_sd_ns(&a), lat_stats_sd_ns(&all), 1e-6 * lat_stats_sd_ns(&all));
		ck_assert_uint_eq(a.min_ns, all.min_ns);
		ck_assert_uint_eq(a.max_ns, all.max_ns);
	}
}
END_TEST

START_TEST(small_counts)
{
	struct lat_stats s = { 0 };
	ck_assert_double_eq(lat_stats_sd_ns(&s), 0);
	lat_stats_add(&s, 42);
	ck_assert_double_eq(s.mean_ns, 42);
	ck_assert_double_eq(lat_stats_sd_ns(&s), 0);
	ck_assert_uint_eq(s.min_ns, 42);
	lat_stats_add(&s, 44);
	ck_assert_double_eq(s.mean_ns, 43);
	ck_assert_double_eq(lat_stats_sd_ns(&s), 1); /* population SD of {42, 44} */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, welford_matches_two_pass);
	tcase_add_test(tc, large_offset_known_sd);
	tcase_add_test(tc, merge_equals_one_pass);
	tcase_add_test(tc, small_counts);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
