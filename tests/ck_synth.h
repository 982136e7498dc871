/* Synthetic measurements whose truth is known, for the statistics tests (tests/check_*.c):
 * a deterministic generator, and runs of a periodic task built from it as the engine builds
 * them (engine/engine.c add_sched_sample), so the project's own interval code
 * (engine/intervals.h) reads them as it reads a real run. */
#ifndef IB_CK_SYNTH_H
#define IB_CK_SYNTH_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "engine/sim.h"

/* xorshift64 (Marsaglia, "Xorshift RNGs", J. Stat. Softw. 8 (2003)): a uniform in (0, 1) from
 * state *s (never 0). */
static inline double uniform(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0; /* in (0, 1) */
}

/* Standard normal by Box-Muller. */
static inline double normal(uint64_t *s)
{
	return sqrt(-2 * log(uniform(s))) * cos(2 * M_PI * uniform(s));
}

/* The standard normal quantile of 0.999: a binomial count's one-sided 99.9 % bound lies this
 * many standard errors from its mean (normal approximation). */
#define BINOM_Z999 3.090232

/* The check tag of the test cases that repeat the same arithmetic thousands of times to
 * measure a rate (a coverage, a false-alarm rate).  tests/sanitize.sh leaves them out
 * (CK_EXCLUDE_TAGS): a sanitizer meets the same code in the other cases, and the native run
 * of `make check` measures the rates. */
#define CK_REPLICATIONS_TAG "replications"

/* The lowest share of n independent trials of success probability p that is not below
 * p's one-sided 99.9 % bound: a test asserting share >= this fails by chance once in a
 * thousand seeds when the true probability is p. */
static inline double binomial_floor(double p, unsigned n)
{
	return p - BINOM_Z999 * sqrt(p * (1 - p) / n);
}

/* The highest share likewise: p plus BINOM_Z999 standard errors. */
static inline double binomial_ceiling(double p, unsigned n)
{
	return p + BINOM_Z999 * sqrt(p * (1 - p) / n);
}

/* A seed for replication rep of a test: distinct, never 0. */
static inline uint64_t synth_seed(uint64_t salt, unsigned rep)
{
	return 0x9e3779b97f4a7c15ULL * (rep + 1) ^ salt;
}

/* A latency model: FLOOR_NS plus an exponential of mean SCALE_NS, and with probability
 * stall_ppm / 1e6 per period a stall of STALL_NS plus an exponential of mean STALL_NS instead
 * (a preempted period, or time a hypervisor stole). */
struct synth_model {
	double floor_ns, scale_ns;
	uint32_t stall_ppm;
	double stall_ns;
	uint32_t miss_ppm;    /* synth_run: each period misses its deadline with this probability / 1e6 */
};

/* One latency, ns, from model m. */
static inline uint64_t synth_latency_ns(const struct synth_model *m, uint64_t *rng)
{
	double e = -log(uniform(rng));
	if (m->stall_ppm && uniform(rng) * 1e6 < m->stall_ppm)
		return (uint64_t)(m->stall_ns + m->stall_ns * e);
	return (uint64_t)(m->floor_ns + m->scale_ns * e);
}

/* The model's true p-quantile (0 < p < 1), ns: the root of the mixture's upper tail
 * s exp(-(x - S) / S) + (1 - s) exp(-(x - F) / c) = 1 - p by bisection (s the stall
 * share, S stall_ns, F floor_ns, c scale_ns). */
static inline double synth_quantile_ns(const struct synth_model *m, double p)
{
	double s = m->stall_ppm / 1e6, lo = m->floor_ns, hi = 1e12;
	for (int i = 0; i < 200; i++) {
		double x = (lo + hi) / 2;
		double tail = (1 - s) * (x > m->floor_ns ? exp(-(x - m->floor_ns) / m->scale_ns) : 1) +
			      s * (x > m->stall_ns ? exp(-(x - m->stall_ns) / m->stall_ns) : 1);
		*(tail > 1 - p ? &lo : &hi) = x;
	}
	return (lo + hi) / 2;
}

/* The model's true mean, ns. */
static inline double synth_mean_ns(const struct synth_model *m)
{
	double s = m->stall_ppm / 1e6;
	return (1 - s) * (m->floor_ns + m->scale_ns) + s * 2 * m->stall_ns;
}

/* Adds one scheduling latency sample to r as the engine does (its statistics, histogram and
 * the batches of its intervals). */
static inline void synth_add(struct sim_result *r, uint64_t latency_ns)
{
	lat_stats_add(&r->sched, latency_ns);
	hist_add(&r->sched_hist, latency_ns);
	bm_add(&r->sched_bm, (double)latency_ns);
	qb_add(&r->sched_qb, latency_ns);
}

/* Zeroes what synth_add and the deadline accounting fill in *r (the rest of a struct
 * sim_result is 32 KB histograms the intervals never read). */
static inline void synth_reset(struct sim_result *r)
{
	memset(&r->acct, 0, sizeof(r->acct));
	memset(&r->sched, 0, sizeof(r->sched));
	memset(&r->sched_hist, 0, sizeof(r->sched_hist));
	memset(&r->sched_bm, 0, sizeof(r->sched_bm));
	memset(&r->sched_qb, 0, sizeof(r->sched_qb));
}

/* Fills *r (synth_reset first) with n periods of model m from *rng: a latency each, and a
 * deadline met or (m->miss_ppm) missed with 100 us of work done. */
static inline void synth_run(struct sim_result *r, const struct synth_model *m, unsigned n, uint64_t *rng)
{
	synth_reset(r);
	for (unsigned i = 0; i < n; i++) {
		synth_add(r, synth_latency_ns(m, rng));
		struct deadline_verdict v = { .met = !(m->miss_ppm && uniform(rng) * 1e6 < m->miss_ppm) };
		deadline_acct_period(&r->acct, &v, 100);
	}
}

#endif
