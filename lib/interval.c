/* Batch-means and order-statistic intervals (lib/interval.h names the sources). */
#include <math.h>
#include <string.h>
#include "lib/distrib.h"
#include "lib/interval.h"

/* t(dof, 0.975), dof 1..30: NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2. */
static const double t975_table[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

#define Z975 1.959964

double zero_events_upper(uint64_t n, double alpha)
{
	return n ? 1 - pow(alpha / 2, 1.0 / (double)n) : 1;
}

double normal_quantile(double p)
{
	if (p <= 0 || p >= 1)
		return p <= 0 ? -INFINITY : INFINITY;
	double q = p < 0.5 ? p : 1 - p, t = sqrt(-2 * log(q));
	/* Abramowitz & Stegun 26.2.23 */
	double x = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
			   (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
	return p < 0.5 ? -x : x;
}

double student_t_quantile(unsigned dof, double p)
{
	if (fabs(p - 0.975) < 1e-12 && dof >= 1 && dof <= 30)
		return t975_table[dof - 1];
	if (dof == 0 && fabs(p - 0.975) < 1e-12)
		return Z975;
	return student_t_quantile_real(dof ? (double)dof : INFINITY, p);
}

double obf_spent_alpha(double t, double alpha)
{
	if (!(t > 0))
		return 0;
	if (t >= 1)
		return alpha;
	/* 2 - 2 Phi(x) as 2 Phi(-x): no cancellation for the tiny values of early looks */
	return 2 * normal_cdf(-student_t_quantile_real(INFINITY, 1 - alpha / 2) / sqrt(t));
}

double student_t975(unsigned dof)
{
	return student_t_quantile(dof, 0.975);
}

/* Halves a full set of batches: adjacent pairs merged, the batch size doubled. */
static void bm_halve(struct batch_means *b)
{
	for (unsigned i = 0; i < BM_HALF_BATCHES; i++)
		b->mean[i] = (b->mean[2 * i] + b->mean[2 * i + 1]) / 2;
	b->batches = BM_HALF_BATCHES;
	b->batch_size *= 2;
}

void bm_add(struct batch_means *b, double x)
{
	if (b->batch_size == 0)
		b->batch_size = 1;
	b->n++;
	b->sum += x;
	b->partial_sum += x;
	if (++b->partial_n < b->batch_size)
		return;
	b->mean[b->batches++] = b->partial_sum / (double)b->partial_n;
	b->partial_sum = 0;
	b->partial_n = 0;
	if (b->batches == BM_MAX_BATCHES)
		bm_halve(b);
}

double bm_mean(const struct batch_means *b)
{
	return b->n ? b->sum / (double)b->n : 0;
}

/* Sample variance of v[0..k) about c (k >= 2). */
static double sample_var(const double *v, unsigned k, double c)
{
	double ss = 0;
	for (unsigned i = 0; i < k; i++)
		ss += (v[i] - c) * (v[i] - c);
	return ss / (k - 1);
}

/* The mean of v[0..k) (k >= 1). */
static double mean_of(const double *v, unsigned k)
{
	double s = 0;
	for (unsigned i = 0; i < k; i++)
		s += v[i];
	return s / k;
}

bool bm_interval(const struct batch_means *b, double alpha, double *lo, double *hi)
{
	unsigned k = b->batches;
	if (b->n < BM_MIN_SAMPLES)
		return false;
	double half = student_t_quantile(k - 1, 1 - alpha / 2) * sqrt(sample_var(b->mean, k, mean_of(b->mean, k)) / k);
	double m = bm_mean(b);
	*lo = m - half;
	*hi = m + half;
	return true;
}

void br_add(struct batch_ratio *r, double y, double x)
{
	bm_add(&r->y, y);
	bm_add(&r->x, x);
}

bool br_interval(const struct batch_ratio *r, double alpha, double *lo, double *hi)
{
	unsigned k = r->y.batches;
	if (r->y.n < BM_MIN_SAMPLES || r->x.sum <= 0)
		return false;
	/* centre and variance over the same samples, every one: the batches' sums as clusters,
	 * the batch being filled one more (Cochran 6.2 for clusters of unequal size) */
	double ratio = r->y.sum / r->x.sum, bs = (double)r->y.batch_size, ss = 0;
	for (unsigned i = 0; i < k; i++) {
		double d = bs * (r->y.mean[i] - ratio * r->x.mean[i]);
		ss += d * d;
	}
	unsigned clusters = k + (r->y.partial_n > 0);
	if (r->y.partial_n > 0)
		ss += (r->y.partial_sum - ratio * r->x.partial_sum) * (r->y.partial_sum - ratio * r->x.partial_sum);
	double var = (double)clusters / (clusters - 1) * ss / (r->x.sum * r->x.sum);
	double half = student_t_quantile(clusters - 1, 1 - alpha / 2) * sqrt(var);
	*lo = ratio - half;
	*hi = ratio + half;
	return true;
}

/* The cell of value_ns: the first threshold at or above it, QB_THRESHOLDS above them all. */
static unsigned qb_cell(uint64_t value_ns)
{
	if (value_ns <= (1ULL << QB_MIN_LOG2))
		return 0;
	double c = ceil(2 * (log2((double)value_ns) - QB_MIN_LOG2));
	return c >= QB_THRESHOLDS ? QB_THRESHOLDS : (unsigned)c;
}

static void qb_halve(struct quantile_batches *q)
{
	for (unsigned i = 0; i < BM_HALF_BATCHES; i++)
		for (unsigned c = 0; c < QB_CELLS; c++)
			q->count[i][c] = q->count[2 * i][c] + q->count[2 * i + 1][c];
	memset(q->count[BM_HALF_BATCHES], 0, sizeof(q->count) / 2);
	q->batches = BM_HALF_BATCHES;
	q->batch_size *= 2;
}

void qb_add(struct quantile_batches *q, uint64_t value_ns)
{
	if (q->batch_size == 0)
		q->batch_size = 1;
	q->n++;
	q->partial[qb_cell(value_ns)]++;
	if (++q->partial_n < q->batch_size)
		return;
	memcpy(q->count[q->batches++], q->partial, sizeof(q->partial));
	memset(q->partial, 0, sizeof(q->partial));
	q->partial_n = 0;
	if (q->batches == BM_MAX_BATCHES)
		qb_halve(q);
}

/* Fills prop[i] with batch i's proportion of samples at or below threshold j; returns their
 * mean. */
static double qb_props(const struct quantile_batches *q, unsigned j, double *prop)
{
	for (unsigned i = 0; i < q->batches; i++) {
		uint64_t at_or_below = 0;
		for (unsigned c = 0; c <= j; c++)
			at_or_below += q->count[i][c];
		prop[i] = (double)at_or_below / (double)q->batch_size;
	}
	return mean_of(prop, q->batches);
}

/* The threshold whose proportion over the full batches is strictly between 0 and 1 and
 * nearest p; QB_THRESHOLDS when none is. */
static unsigned qb_nearest(const struct quantile_batches *q, double p)
{
	double prop[BM_MAX_BATCHES], best = 2;
	unsigned at = QB_THRESHOLDS;
	for (unsigned j = 0; j < QB_THRESHOLDS; j++) {
		double m = qb_props(q, j, prop);
		if (m > 0 && m < 1 && fabs(m - p) < best) {
			best = fabs(m - p);
			at = j;
		}
	}
	return at;
}

/* The variance inflation of k >= 2 batch proportions prop[] of batch_size samples each, mean
 * m: batch_size s^2 / (m (1 - m)), at least 1; 1 when m is 0 or 1. */
static double prop_inflation(const double *prop, unsigned k, uint64_t batch_size, double m)
{
	if (!(m > 0 && m < 1))
		return 1;
	double vif = (double)batch_size * sample_var(prop, k, m) / (m * (1 - m));
	return vif > 1 ? vif : 1;
}

double qb_inflation(const struct quantile_batches *q, double pct)
{
	if (q->batches < 2)
		return 1;
	unsigned j = qb_nearest(q, pct / 100);
	if (j == QB_THRESHOLDS)
		return 1;
	double prop[BM_MAX_BATCHES], m = qb_props(q, j, prop);
	return prop_inflation(prop, q->batches, q->batch_size, m);
}

double bm_proportion_inflation(const struct batch_means *b)
{
	if (b->batches < 2)
		return 1;
	return prop_inflation(b->mean, b->batches, b->batch_size, mean_of(b->mean, b->batches));
}

/* The bucket holding the rank-th smallest sample of h (1 <= rank <= total). */
static unsigned bucket_of_rank(const struct lat_hist *h, uint64_t rank)
{
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			return i;
	}
	return HIST_BUCKETS - 1;
}

/* The factor n is divided by for the effective sample size: 1 for independent samples
 * (inflation floored at 1: the exact ranks need no quantile); inflation (t / z)^2 when it came
 * from dof + 1 batches, t = t(dof, 1 - alpha / 2) and z the normal quantile, so that the
 * estimated inflation's own uncertainty widens the ranks as the batch-means t interval's does. */
static double ess_factor(double inflation, unsigned dof, double alpha)
{
	if (!(inflation > 1))
		return 1;
	if (dof == 0)
		return inflation;
	double t = student_t_quantile_real(dof, 1 - alpha / 2), z = student_t_quantile_real(INFINITY, 1 - alpha / 2);
	return inflation * (t / z) * (t / z);
}

/* P(B <= k) and P(B >= k) for B ~ Binomial(n, p), 0 <= k <= n, from the incomplete beta
 * (lib/distrib.h), each on the side where it is small and accurate. */
static double binom_at_most(uint64_t k, uint64_t n, double p)
{
	return k >= n ? 1 : beta_inc((double)(n - k), (double)k + 1, 1 - p);
}

static double binom_at_least(uint64_t k, uint64_t n, double p)
{
	return k == 0 ? 1 : beta_inc((double)k, (double)(n - k) + 1, p);
}

bool order_stat_ranks(uint64_t n, double p, double alpha, uint64_t *r, uint64_t *s)
{
	/* r: the largest in 1..n with P(B <= r - 1) <= alpha / 2 (0 when none) */
	uint64_t lo = 0, hi = n;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;
		if (binom_at_most(mid - 1, n, p) <= alpha / 2)
			lo = mid;
		else
			hi = mid - 1;
	}
	*r = lo;
	/* s: the smallest in 1..n with P(B >= s) <= alpha / 2 (n + 1 when none) */
	lo = 1;
	hi = n + 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (binom_at_least(mid, n, p) <= alpha / 2)
			hi = mid;
		else
			lo = mid + 1;
	}
	*s = lo;
	return *s <= n;
}

double hist_percentile_n_needed(double pct, double inflation, unsigned dof, double alpha)
{
	double p = pct / 100, m = ceil(log(alpha / 2) / log(p));
	if (pow(p, m) > alpha / 2)   /* p^m <= alpha / 2: the largest of m bounds the quantile */
		m++;
	return ceil(m * ess_factor(inflation, dof, alpha));
}

bool hist_percentile_interval_ns(const struct lat_hist *h, uint64_t max_ns, double pct, double inflation,
				 unsigned dof, double alpha, uint64_t *lo_ns, uint64_t *hi_ns, bool *open_above)
{
	if (h->total == 0)
		return false;
	uint64_t n = h->total, n_eff = (uint64_t)floor((double)n / ess_factor(inflation, dof, alpha));
	uint64_t r_eff = 0, s_eff = 1;
	bool closed = n_eff > 0 && order_stat_ranks(n_eff, pct / 100, alpha, &r_eff, &s_eff);
	/* back to ranks in the whole sample, rounded outward */
	double scale = n_eff ? (double)n / (double)n_eff : 1;
	uint64_t r = (uint64_t)floor((double)r_eff * scale);
	*lo_ns = hist_bucket_low_ns(bucket_of_rank(h, r < 1 ? 1 : r));
	if (open_above)
		*open_above = !closed;
	if (!closed) {
		*hi_ns = max_ns;
		return true;
	}
	uint64_t s = (uint64_t)ceil((double)s_eff * scale);
	unsigned b = bucket_of_rank(h, s < n ? s : n);
	uint64_t hi = hist_bucket_high_ns(b);
	/* the last bucket also holds every value above HIST_MAX_NS (lib/histogram.h) */
	*hi_ns = max_ns > 0 && (hi > max_ns || b == HIST_BUCKETS - 1) ? max_ns : hi;
	return true;
}
