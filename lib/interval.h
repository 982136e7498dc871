/* 95 % confidence intervals for figures measured over one run, honest for samples that are not
 * independent (a load that starves a task makes many periods in a row late).
 *
 * Means and proportions: the method of batch means (Law & Kelton, "Simulation Modeling and
 * Analysis", chapter "Output Data Analysis for a Single System", section on batch means):
 * the samples, in order, are cut into k batches of m; the batch means are close to
 * independent once m is long against the correlation, so grand mean +- t(k-1, 0.975) *
 * s_batch / sqrt(k), s_batch the sample standard deviation of the k batch means.  The run
 * length is not known in advance, so the batches are kept dynamically: at most
 * 2 * BM_HALF_BATCHES batch means; when they are all full, adjacent pairs are merged and the
 * batch size doubles, so k stays between BM_HALF_BATCHES and 2 * BM_HALF_BATCHES once there
 * are that many samples (Fishman's LBATCH and the "dynamic batch means" of Yeh & Schmeiser
 * follow the same idea of doubling batches in fixed memory).  Below BM_MIN_SAMPLES samples
 * each batch would be one sample, blind to correlation: no interval is given then.
 *
 * A ratio of sums (work done / work wanted): the same batches of numerator and denominator,
 * its variance by the ratio estimator's first-order (delta method) formula, Cochran,
 * "Sampling Techniques", 3rd ed. (1977), chapter 6: Var(R) ~ S^2(y - R x) / (n xbar^2),
 * here over batch sums.
 *
 * Percentiles: the distribution-free order-statistic interval in its exact form (Conover,
 * "Practical Nonparametric Statistics", 3rd ed., section 3.2, confidence interval for a
 * quantile: with B ~ Binomial(n, p), the lower rank r is the largest with
 * P(B <= r - 1) <= alpha / 2 and the upper rank s the smallest with P(B >= s) <= alpha / 2, so
 * that P(X_(r) <= x_p <= X_(s)) >= 1 - alpha for any continuous distribution), read off a
 * lat_hist.  For samples that are not independent the ranks are found on an effective sample
 * size n / VIF and mapped back to the whole sample by proportion.  The variance inflation VIF
 * is estimated by batch means of the indicator "sample <= threshold" at the fixed threshold (a
 * grid of half octaves) whose overall proportion is nearest p: VIF = m s^2 / (q (1 - q)), the
 * batch-means variance of the indicator's mean against its variance for independent samples
 * (a heuristic of this project, no published source: batch quantiles, Seila 1982, would use the
 * tail's own dependence).  The indicator, not a histogram per batch, keeps the accumulator a
 * few KB (lat_hist is 32 KB).  No upper bound exists below ln(alpha / 2) / ln(p) effective
 * samples: 368 for p99 at 95 %.
 *
 * All of these are within-run intervals: they hold the long-run figure of the run they were
 * measured in, not what another run of the same pair would measure (between runs the figures
 * vary more: bench/RESULTS.md).
 *
 * Every accumulator is plain data (no pointers), zeroed to start, so a result holding it is
 * copied whole (engine/sim.h sim_snapshot). */
#ifndef IB_INTERVAL_H
#define IB_INTERVAL_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/histogram.h"

/* K: the batches kept are between K and 2K once there are 2K samples. */
#define BM_HALF_BATCHES 16
#define BM_MAX_BATCHES (2 * BM_HALF_BATCHES)
/* The fewest samples an interval is given for: batches of 2 samples or more. */
#define BM_MIN_SAMPLES BM_MAX_BATCHES

/* Batch means of one sequence of samples (any unit; the interval is in the same unit). */
struct batch_means {
	uint64_t n;              /* samples added */
	uint64_t batch_size;     /* samples per batch (0 before the first sample: 1) */
	uint32_t batches;        /* full batches in mean[] */
	double sum;              /* sum of every sample (the grand mean's numerator) */
	double partial_sum;      /* sum of the batch being filled */
	uint64_t partial_n;      /* its samples */
	double mean[BM_MAX_BATCHES];
};

/* Adds one sample x. */
void bm_add(struct batch_means *b, double x);

/* The grand mean over every sample; 0 when there are none. */
double bm_mean(const struct batch_means *b);

/* The usual two-sided error probability of the intervals: 0.05, a 95 % interval. */
#define CI_ALPHA 0.05

/* The 1 - alpha interval of the mean (alpha: CI_ALPHA for 95 %): grand mean +-
 * t(k-1, 1 - alpha/2) s_batch / sqrt(k) over the k full batches.  Returns false (lo, hi
 * untouched) below BM_MIN_SAMPLES samples.  When every batch mean is equal the interval is the
 * point (no variation was seen). */
bool bm_interval(const struct batch_means *b, double alpha, double *lo, double *hi);

/* The variance inflation of a 0/1 sequence's mean that b's full batches show: m s^2 / (q (1 -
 * q)), the batch means' variance against the variance of the mean of independent samples (m
 * the batch size, s^2 the batch means' sample variance, q their mean); at least 1, and 1 with
 * fewer than 2 full batches or when every full batch is all 0 or all 1.  (b holds 0s and 1s.) */
double bm_proportion_inflation(const struct batch_means *b);

/* A ratio of sums, sum(y) / sum(x), y and x added in pairs (one pair per period). */
struct batch_ratio {
	struct batch_means y, x;
};

/* Adds one pair: numerator y, denominator x (x >= 0). */
void br_add(struct batch_ratio *r, double y, double x);

/* The 1 - alpha interval of R = sum(y) / sum(x): R +- t(K-1, 1 - alpha/2) sqrt(V), V =
 * K / (K - 1) sum_i (y_i - R x_i)^2 / sum(x)^2 over the K clusters of samples, the full
 * batches' sums and the batch being filled (Cochran's ratio estimator for clusters of unequal
 * size), so that centre and variance rest on the same samples.  Returns false below
 * BM_MIN_SAMPLES pairs or when sum(x) == 0. */
bool br_interval(const struct batch_ratio *r, double alpha, double *lo, double *hi);

/* The indicator thresholds for percentile intervals: QB_THRESHOLDS half octaves,
 * threshold j = 2^(QB_MIN_LOG2 + j / 2) ns, from 1 us to about 2^37 ns (HIST_MAX_NS). */
#define QB_MIN_LOG2 10
#define QB_THRESHOLDS 54
#define QB_CELLS (QB_THRESHOLDS + 1)

/* Batch counts of the samples between consecutive thresholds (cell c: threshold c-1 <
 * sample <= threshold c; the last cell above every threshold).  Counts are 32 bits: exact
 * while a batch holds fewer than 2^32 samples (a run of 2^36 samples). */
struct quantile_batches {
	uint64_t n;
	uint64_t batch_size;
	uint32_t batches;
	uint32_t partial_n;
	uint32_t partial[QB_CELLS];
	uint32_t count[BM_MAX_BATCHES][QB_CELLS];
};

/* Adds one sample, ns. */
void qb_add(struct quantile_batches *q, uint64_t value_ns);

/* The variance inflation of the indicator "sample <= threshold" at the threshold whose
 * proportion is nearest pct / 100: at least 1 (never narrower than independent samples); 1
 * when no threshold has a proportion strictly between 0 and 1 or there are fewer than 2 full
 * batches. */
double qb_inflation(const struct quantile_batches *q, double pct);

/* The exact order-statistic ranks of the p-quantile (0 < p < 1) in n independent samples at
 * two-sided level 1 - alpha (Conover, section 3.2, exact form; lib/interval.h): *r the largest
 * rank with P(B <= r - 1) <= alpha / 2 (0 when even rank 1 is not a lower bound), *s the
 * smallest with P(B >= s) <= alpha / 2, B ~ Binomial(n, p).  Returns whether an upper rank
 * exists (s <= n); when not, *s is n + 1 and the interval is open above. */
bool order_stat_ranks(uint64_t n, double p, double alpha, uint64_t *r, uint64_t *s);

/* The 1 - alpha within-run interval of the pct-th percentile (0 < pct < 100) of h's samples
 * (max_ns their exact maximum).  The exact ranks (order_stat_ranks) are found on the effective
 * sample size n_eff = floor(n / f) and mapped back as r n / n_eff (rounded down) and
 * s n / n_eff (rounded up), where f = 1 when inflation is 1 (independent samples, or the
 * inflation floored at 1) and f = inflation (t / z)^2 when it came from dof + 1 batches (t the
 * Student quantile with dof degrees of freedom at 1 - alpha / 2, z the normal one: the
 * estimated inflation's uncertainty widens the ranks as the t interval's does; dof 0: f =
 * inflation).  lo = the lower edge of the bucket holding rank r (rank 1 when r < 1), hi = the
 * upper edge of the bucket holding rank s, clamped to max_ns.  When no upper rank exists the
 * interval is open above: *open_above (may be NULL) says so and hi is max_ns, which is then no
 * bound.  Returns false (lo, hi untouched) for an empty histogram.  (The caller decides
 * whether the run is long enough: quantile_batches.n >= BM_MIN_SAMPLES, as for the means.) */
bool hist_percentile_interval_ns(const struct lat_hist *h, uint64_t max_ns, double pct, double inflation,
				 unsigned dof, double alpha, uint64_t *lo_ns, uint64_t *hi_ns, bool *open_above);

/* The fewest samples n for which hist_percentile_interval_ns at pct, inflation, dof and alpha
 * is closed above: m f rounded up, m the fewest independent samples whose largest bounds the
 * quantile (p^m <= alpha / 2, m = ceil(ln(alpha / 2) / ln p): 368 for p99 at 95 %, 477 at
 * 1 - 0.05 / 3, 369 at the last of three looks under run/stoprule.h's spending) and f the
 * effective-size factor above. */
double hist_percentile_n_needed(double pct, double inflation, unsigned dof, double alpha);

/* The upper end of the exact two-sided 1 - alpha interval of a probability of which n trials
 * showed no event: 1 - (alpha / 2)^(1 / n), Clopper & Pearson, "The use of confidence or
 * fiducial limits illustrated in the case of the binomial", Biometrika 26 (1934) 404-413, at
 * zero events (about 3.7 / n at alpha 0.05; Hanley & Lippman-Hand's one-sided "rule of three",
 * 3 / n, JAMA 249 (1983) 1743-1745).  1 when n is 0. */
double zero_events_upper(uint64_t n, double alpha);

/* The p-quantile (0 < p < 1) of the standard normal distribution, by Abramowitz & Stegun
 * 26.2.23 (absolute error below 4.5e-4); -inf / +inf for p <= 0 / p >= 1. */
double normal_quantile(double p);

/* The p-quantile (0.5 <= p < 1) of Student's t with dof degrees of freedom.  For p = 0.975 and
 * dof 1 to 30: the NIST/SEMATECH e-Handbook of Statistical Methods' table of t critical values
 * (section 1.3.6.7.2).  Otherwise lib/distrib.h's student_t_quantile_real, exact to about
 * 1e-10 at any level (the early looks' levels reach 1 - 1e-11).  dof 0 means infinite: the
 * normal quantile. */
double student_t_quantile(unsigned dof, double p);

/* The error spent by information fraction t (0 <= t <= 1) of a two-sided 1 - alpha design by
 * the O'Brien-Fleming-type spending function of Lan & DeMets, "Discrete sequential boundaries
 * for clinical trials", Biometrika 70 (1983) 659-663: alpha(t) = 2 - 2 Phi(z_{1-alpha/2} /
 * sqrt(t)), 0 at t = 0, alpha at t = 1.  A look at fraction t_k tested at alpha(t_k) -
 * alpha(t_{k-1}) keeps the chance that any look's interval misses at most alpha (the union
 * bound), and leaves almost all of alpha to the last look: at 5, 20 and 60 s, 1.1e-11, 6.9e-4
 * and 0.0493 (z 6.79, 3.39, 1.97). */
double obf_spent_alpha(double t, double alpha);

/* student_t_quantile(dof, 0.975): the half-width factor of a 95 % interval. */
double student_t975(unsigned dof);

#endif
