#include <math.h>
#include "lib/histogram.h"

unsigned hist_bucket(uint64_t value_ns)
{
	if (value_ns > HIST_MAX_NS)
		return HIST_BUCKETS - 1;
	if (value_ns < HIST_SUB_COUNT)
		return (unsigned)value_ns;
	unsigned msb = 63u - (unsigned)__builtin_clzll(value_ns);
	unsigned group = msb - HIST_SUB_BITS + 1;
	unsigned sub = (unsigned)(value_ns >> (msb - HIST_SUB_BITS)) - HIST_SUB_COUNT;
	return group * HIST_SUB_COUNT + sub;
}

uint64_t hist_bucket_low_ns(unsigned idx)
{
	if (idx < HIST_SUB_COUNT)
		return idx;
	unsigned group = idx / HIST_SUB_COUNT, sub = idx % HIST_SUB_COUNT;
	return (uint64_t)(HIST_SUB_COUNT + sub) << (group - 1);
}

uint64_t hist_bucket_high_ns(unsigned idx)
{
	if (idx < HIST_SUB_COUNT)
		return idx;
	unsigned group = idx / HIST_SUB_COUNT;
	return hist_bucket_low_ns(idx) + (1ULL << (group - 1)) - 1;
}

void hist_add(struct lat_hist *h, uint64_t value_ns)
{
	h->counts[hist_bucket(value_ns)]++;
	h->total++;
}

void hist_merge(struct lat_hist *a, const struct lat_hist *b)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		a->counts[i] += b->counts[i];
	a->total += b->total;
}

uint64_t hist_percentile_ns(const struct lat_hist *h, double pct, uint64_t max_ns)
{
	if (h->total == 0 || !(pct > 0))
		return 0;
	if (pct > 100)
		pct = 100;
	/* Nearest rank ceil(pct/100 * total) in integers (pct in thousandths of a percent), so
	 * 99.9% of 1000 samples is rank 999 exactly, not 1000 through rounding error. */
	unsigned __int128 milli = (unsigned __int128)llround(pct * 1000.0);
	uint64_t rank = (uint64_t)((milli * h->total + 100000 - 1) / 100000);
	if (rank < 1)
		rank = 1;
	if (rank > h->total)
		rank = h->total;
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank) {
			uint64_t v = hist_bucket_high_ns(i);
			/* The last bucket also holds every value above HIST_MAX_NS: its only known
			 * upper bound is the exact max. */
			if (i == HIST_BUCKETS - 1 && max_ns > v)
				return max_ns;
			return max_ns > 0 && v > max_ns ? max_ns : v;
		}
	}
	return max_ns;
}
