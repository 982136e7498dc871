/* Latency histograms for reading and plotting (--histogram, --histogram-csv; `interbench export
 * --format histogram|histogram-csv`): each pair's scheduling and timer latency histograms of a
 * JSON result's "results" array (doc/json.md: [[low_ns, count], ...], lib/histogram.h's
 * log-linear buckets, 128 a power of two), merged into coarser buckets of the same kind, 4 a
 * power of two (each 16 % to 25 % of its low bound wide, exact unions of the fine ones), so that
 * a tail three decades out stays a few dozen rows away.  The text is cyclictest -h's and rtla
 * timerlat hist's shape: a row a bucket, a column a pair (a load of one task and setting), then
 * the overflow, the count and the maximum. */
#ifndef IB_HISTVIEW_H
#define IB_HISTVIEW_H
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/histogram.h"

#define HVIEW_SUB 4  /* buckets a power of two */
/* One bucket for 0-127 ns (lib/histogram.h's linear part), then HVIEW_SUB for each power of
 * two up to HIST_MAX_NS; the last also holds every value above. */
#define HVIEW_BUCKETS (1 + (HIST_MAX_BITS - HIST_SUB_BITS) * HVIEW_SUB)

/* The coarse bucket of value_ns (of a fine bucket's low bound: the whole fine bucket). */
unsigned hview_bucket(uint64_t value_ns);

/* The smallest value of coarse bucket c, ns. */
uint64_t hview_low_ns(unsigned c);

/* Writes, for each run of consecutive pairs of results sharing a task and settings (mode,
 * load_mode), a block for scheduling latency and one for timer latency (left out when no pair of
 * it has a sample): its title, then a row a coarse bucket from the lowest to the highest
 * holding a sample, labelled with its low bound in us (exact, 3 decimals), a column a pair
 * (its load) holding the pair's counted results' samples (report/tabular.h tabular_counted)
 * merged.  max_ns (0: none) is the highest bucket shown, cyclictest -h's limit: the samples in
 * buckets wholly above it are the "over" row.  Then "count" (every sample: the rows and the
 * overflow add up to it) and "max" (the JSON's exact latency_max_ns or timer_latency_max_ns, the
 * largest of the counted results, us).  Returns 0, or -1 out of memory. */
int hview_text(FILE *out, const json_t *results, uint64_t max_ns);

/* Writes the same buckets as CSV (RFC 4180, report/tabular.h), a line a bucket of a pair's
 * histogram from its lowest to its highest bucket holding a sample: simulation, mode, load,
 * load_mode, latency ("scheduling" or "timer"), from_us and to_us (the bucket's range
 * [from, to), us, exact; to_us empty for the last, which holds every larger value) and count.
 * Returns 0, or -1 out of memory. */
int hview_csv(FILE *out, const json_t *results);

#endif
