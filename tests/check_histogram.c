/* Log-linear histogram: bucket boundaries, and percentiles against exact nearest-rank values
 * computed from sorted copies of the same samples. */
#include <check.h>
#include "tests/ck_run.h"
#include <stdlib.h>
#include <string.h>
#include "lib/histogram.h"

/* xorshift64 (Marsaglia 2003): deterministic test data, state passed explicitly. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

START_TEST(buckets_are_contiguous)
{
	ck_assert_uint_eq(hist_bucket_low_ns(0), 0);
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_low_ns(i), hi = hist_bucket_high_ns(i);
		ck_assert_uint_le(lo, hi);
		ck_assert_uint_eq(hist_bucket(lo), i);
		ck_assert_uint_eq(hist_bucket(hi), i);
		if (i + 1 < HIST_BUCKETS)
			ck_assert_uint_eq(hist_bucket_low_ns(i + 1), hi + 1);
		if (lo >= HIST_SUB_COUNT) /* relative width <= 1/128 above the linear part */
			ck_assert_uint_le((hi - lo + 1) * HIST_SUB_COUNT, lo);
		else
			ck_assert_uint_eq(hi, lo);
	}
	ck_assert_uint_eq(hist_bucket_high_ns(HIST_BUCKETS - 1), HIST_MAX_NS);
	ck_assert_uint_eq(hist_bucket(HIST_MAX_NS + 1), HIST_BUCKETS - 1);
	ck_assert_uint_eq(hist_bucket(UINT64_MAX), HIST_BUCKETS - 1);
}
END_TEST

/* Exact nearest-rank percentile of sorted[0..n): the ceil(pct/100 * n)-th smallest, with pct
 * in thousandths of a percent as the histogram computes it. */
static uint64_t exact_rank_value(const uint64_t *sorted, uint64_t n, unsigned pct_milli)
{
	uint64_t rank = ((unsigned __int128)pct_milli * n + 99999) / 100000;
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

/* Records v[0..n), then checks p50/p90/p99/p99.9/p100: never below the exact value and at most
 * one bucket width above it. */
static void check_percentiles(uint64_t *v, size_t n)
{
	static struct lat_hist h;
	memset(&h, 0, sizeof(h));
	uint64_t max = 0;
	for (size_t i = 0; i < n; i++) {
		hist_add(&h, v[i]);
		if (v[i] > max)
			max = v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	const unsigned pcts[] = { 50000, 90000, 99000, 99900, 100000 };
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		uint64_t exact = exact_rank_value(v, n, pcts[k]);
		uint64_t got = hist_percentile_ns(&h, pcts[k] / 1000.0, max);
		unsigned b = hist_bucket(exact);
		uint64_t width = hist_bucket_high_ns(b) - hist_bucket_low_ns(b) + 1;
		ck_assert_msg(got >= exact, "p%.1f: %llu below exact %llu (n=%zu)", pcts[k] / 1000.0,
			      (unsigned long long)got, (unsigned long long)exact, n);
		if (exact <= HIST_MAX_NS)
			ck_assert_msg(got - exact < width, "p%.1f: %llu vs exact %llu", pcts[k] / 1000.0,
				      (unsigned long long)got, (unsigned long long)exact);
		else
			ck_assert_uint_eq(got, max);
	}
	ck_assert_uint_eq(hist_percentile_ns(&h, 100, max), max);
}

START_TEST(percentiles_random)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	const size_t sizes[] = { 1, 2, 3, 7, 10, 999, 1000, 1001, 12345 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t *v = malloc(sizes[s] * sizeof(*v));
		for (int shift = 8; shift <= 40; shift += 8) {
			for (size_t i = 0; i < sizes[s]; i++)
				v[i] = rnd(&seed) >> (64 - shift);
			check_percentiles(v, sizes[s]);
		}
		free(v);
	}
}
END_TEST

START_TEST(percentiles_adversarial)
{
	enum { N = 2000 };
	uint64_t v[N];
	/* Every value on a bucket boundary. */
	for (unsigned i = 0; i < N; i++)
		v[i] = hist_bucket_high_ns((i * 7) % HIST_BUCKETS);
	check_percentiles(v, N);
	for (unsigned i = 0; i < N; i++)
		v[i] = hist_bucket_low_ns((i * 13) % HIST_BUCKETS);
	check_percentiles(v, N);
	/* One huge outlier among small values, and values beyond the histogram's range. */
	for (unsigned i = 0; i < N; i++)
		v[i] = i == N / 2 ? (1ULL << 40) : 100 + i % 3;
	check_percentiles(v, N);
	for (unsigned i = 0; i < N; i++)
		v[i] = i < 995 ? 5 : HIST_MAX_NS + 1000 + i;
	check_percentiles(v, N);
	/* Descending, and two clusters straddling a power of two. */
	for (unsigned i = 0; i < N; i++)
		v[i] = (uint64_t)(N - i) * 1000003ULL;
	check_percentiles(v, N);
	for (unsigned i = 0; i < N; i++)
		v[i] = i % 2 ? 255 : 256;
	check_percentiles(v, N);
}
END_TEST

START_TEST(single_and_equal)
{
	uint64_t one = 123456789;
	check_percentiles(&one, 1);
	uint64_t zero = 0;
	check_percentiles(&zero, 1);
	uint64_t eq[1000];
	for (unsigned i = 0; i < 1000; i++)
		eq[i] = 50000;
	check_percentiles(eq, 1000);
	static struct lat_hist h;
	memset(&h, 0, sizeof(h));
	hist_add(&h, 777);
	/* Without the exact max, the bucket's upper bound. */
	ck_assert_uint_eq(hist_percentile_ns(&h, 50, 0), hist_bucket_high_ns(hist_bucket(777)));
	ck_assert_uint_eq(hist_percentile_ns(&h, 50, 777), 777);
}
END_TEST

START_TEST(empty_and_merge)
{
	static struct lat_hist a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ck_assert_uint_eq(hist_percentile_ns(&a, 99, 0), 0);
	ck_assert_uint_eq(hist_percentile_ns(&a, 0, 5), 0);
	for (uint64_t i = 1; i <= 100; i++)
		hist_add(i % 2 ? &a : &b, i * 1000);
	hist_merge(&a, &b);
	ck_assert_uint_eq(a.total, 100);
	uint64_t p50 = hist_percentile_ns(&a, 50, 100000);
	ck_assert_uint_ge(p50, 50000);
	ck_assert_uint_lt(p50, 50000 + 512);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("histogram");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, buckets_are_contiguous);
	tcase_add_test(tc, percentiles_random);
	tcase_add_test(tc, percentiles_adversarial);
	tcase_add_test(tc, single_and_equal);
	tcase_add_test(tc, empty_and_merge);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
