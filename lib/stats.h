/* Running latency statistics: count, mean and standard deviation by Welford's method
 * (numerically stable, one pass), min and max.  Samples are nanoseconds. */
#ifndef IB_STATS_H
#define IB_STATS_H
#include <stdbool.h>
#include <stdint.h>

struct lat_stats {
	uint64_t count;
	double mean_ns;   /* running mean */
	double m2_ns2;    /* sum of squared deviations from the mean (Welford's M2) */
	uint64_t min_ns;
	uint64_t max_ns;
};

/* Adds one sample. */
void lat_stats_add(struct lat_stats *s, uint64_t sample_ns);

/* Population standard deviation in ns (sqrt(M2 / n)); 0 for fewer than two samples. */
double lat_stats_sd_ns(const struct lat_stats *s);

/* Combines b into a (Chan et al. parallel variance formula). */
void lat_stats_merge(struct lat_stats *a, const struct lat_stats *b);

/* Median of v[0..n) (n >= 1), sorting v in place. */
double median_of(double *v, unsigned n);

/* The 95 % t interval of the mean of n values (each one run's figure: the between-run spread)
 * given by their sum and sum of squares, mean -+ t(n - 1, 0.975) s / sqrt(n) with s the
 * sample standard deviation, into *lo and *hi (the low end at least floor), the mean into
 * *mean.  Returns false (nothing set) with fewer than two values. */
bool mean_interval95(double n, double sum, double sum_sq, double floor, double *mean, double *lo, double *hi);

#endif
