/* Log-linear latency histogram: values below 2^HIST_SUB_BITS ns get one bucket each; above
 * that, every power of two is split into 2^HIST_SUB_BITS equal buckets, so a bucket is at most
 * 1/128 (0.78%) of its value wide.  Covers 0 to HIST_MAX_NS (2^37 ns, about 137 s) in fixed
 * memory with constant-time insert; larger values land in the last bucket.  The same idea as
 * fio's and schbench's latency buckets and HdrHistogram. */
#ifndef IB_HISTOGRAM_H
#define IB_HISTOGRAM_H
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB_COUNT (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 37
#define HIST_MAX_NS ((1ULL << HIST_MAX_BITS) - 1)
/* Linear part (one group) plus one group per power of two from 2^SUB_BITS to 2^MAX_BITS. */
#define HIST_BUCKETS ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB_COUNT)

struct lat_hist {
	uint64_t total;               /* samples recorded */
	uint64_t counts[HIST_BUCKETS];
};

/* Bucket index of value_ns (values above HIST_MAX_NS map to the last bucket). */
unsigned hist_bucket(uint64_t value_ns);

/* Smallest and largest value (ns, inclusive) that map to bucket idx. */
uint64_t hist_bucket_low_ns(unsigned idx);
uint64_t hist_bucket_high_ns(unsigned idx);

/* Records one sample. */
void hist_add(struct lat_hist *h, uint64_t value_ns);

/* Adds every count of b into a. */
void hist_merge(struct lat_hist *a, const struct lat_hist *b);

/* The pct-th percentile (0 < pct <= 100) by the nearest-rank method: the upper bound of the
 * bucket holding the ceil(pct/100 * total)-th smallest sample, clamped to max_ns when
 * max_ns > 0 (so p100 equals the exact max).  When the rank falls in the last bucket, which
 * also holds the values above HIST_MAX_NS, max_ns is returned if larger, so the result is never
 * below the exact value when max_ns is the true max.  Returns 0 for an empty histogram. */
uint64_t hist_percentile_ns(const struct lat_hist *h, double pct, uint64_t max_ns);

#endif
