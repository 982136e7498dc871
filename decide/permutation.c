/* The two-sample permutation test of a shift (decide/permutation.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "decide/permutation.h"
#include "lib/nbrandom.h"

/* C(n, k), or INFINITY past 1e15. */
static double choose(size_t n, size_t k)
{
	double c = 1;
	for (size_t i = 1; i <= k && c < 1e15; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c < 1e15 ? floor(c + 0.5) : INFINITY;
}

bool perm_enumerated(size_t n_a, size_t n_b)
{
	return n_a + n_b <= PERM_MAX_VALUES && choose(n_a + n_b, n_a) <= PERM_MAX_SPLITS;
}

double perm_min_p(size_t n_a, size_t n_b)
{
	if (n_a + n_b > PERM_MAX_VALUES)
		return 0;  /* not run: it never stands in the way */
	double c = choose(n_a + n_b, n_a), p = (n_a == n_b ? 2 : 1) / c;
	if (c > PERM_MAX_SPLITS)
		p = 1.0 / PERM_MAX_SPLITS;
	return p < 1 ? p : 1;
}

/* Records the split whose group A is idx[0..n_a) of the pooled values v (B's from n_a on). */
static void record(struct perm_splits *s, const double *v, const size_t *idx)
{
	double sum = 0;
	unsigned from_b = 0;
	for (size_t i = 0; i < s->n_a; i++) {
		sum += v[idx[i]];
		from_b += idx[i] >= s->n_a;
	}
	s->sum[s->count] = sum;
	s->from_b[s->count++] = from_b;
}

/* Every split, in lexicographic order of group A's indexes. */
static void enumerate(struct perm_splits *s, const double *v, size_t *idx)
{
	size_t n = s->n_a + s->n_b, k = s->n_a;
	for (size_t i = 0; i < k; i++)
		idx[i] = i;
	for (;;) {
		record(s, v, idx);
		size_t i = k;
		while (i > 0 && idx[i - 1] == n - k + i - 1)
			i--;
		if (i == 0)
			return;
		idx[i - 1]++;
		for (size_t j = i; j < k; j++)
			idx[j] = idx[j - 1] + 1;
	}
}

/* PERM_MAX_SPLITS random splits (partial Fisher-Yates from splitmix64, a fixed seed: the same
 * data give the same p), the observed one first. */
static void draw(struct perm_splits *s, const double *v, size_t *idx)
{
	size_t n = s->n_a + s->n_b;
	uint64_t state = 0x6a09e667f3bcc909ULL;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	record(s, v, idx);
	while (s->count < PERM_MAX_SPLITS) {
		for (size_t i = 0; i < s->n_a; i++) {
			state += 0x9e3779b97f4a7c15ULL;
			size_t j = i + (size_t)(random_mix64(state) % (n - i));
			size_t t = idx[i];
			idx[i] = idx[j];
			idx[j] = t;
		}
		record(s, v, idx);
	}
}

int perm_splits_make(struct perm_splits *s, const double *a, size_t n_a, const double *b, size_t n_b)
{
	memset(s, 0, sizeof(*s));
	s->n_a = n_a, s->n_b = n_b;
	double c = choose(n_a + n_b, n_a);
	s->exact = c <= PERM_MAX_SPLITS;
	size_t cap = s->exact ? (size_t)c : PERM_MAX_SPLITS;
	double *v = malloc((n_a + n_b) * sizeof(double));
	size_t *idx = malloc((n_a + n_b) * sizeof(size_t));
	s->sum = malloc(cap * sizeof(double));
	s->from_b = malloc(cap * sizeof(unsigned));
	if (!v || !idx || !s->sum || !s->from_b) {
		free(v);
		free(idx);
		perm_splits_free(s);
		return -1;
	}
	for (size_t i = 0; i < n_a; i++)
		s->sum_a += v[i] = a[i];
	for (size_t i = 0; i < n_b; i++)
		s->sum_b += v[n_a + i] = b[i];
	(s->exact ? enumerate : draw)(s, v, idx);
	free(v);
	free(idx);
	return 0;
}

/* Split k's statistic, mean(B) - mean(A), with B's values shifted by -delta0. */
static double stat(const struct perm_splits *s, size_t k, double delta0)
{
	double total = s->sum_a + s->sum_b - (double)s->n_b * delta0;
	double in_a = s->sum[k] - (double)s->from_b[k] * delta0;
	return (total - in_a) / (double)s->n_b - in_a / (double)s->n_a;
}

/* The p-value from count splits at least as extreme among s's: exact, or with the observed
 * split among the drawn ones (1 + extreme draws) / (1 + draws), Phipson & Smyth's. */
static double p_of(const struct perm_splits *s, size_t count)
{
	return (double)count / (double)s->count;
}

/* A tolerance for equal statistics reached by different sums (floating rounding), relative to
 * the means (the statistic's scale), not to the sums, which grow with the sub-runs. */
static double tolerance(const struct perm_splits *s)
{
	return 1e-9 * (fabs(s->sum_a) / (double)s->n_a + fabs(s->sum_b) / (double)s->n_b + 1e-300);
}

double perm_p_two_sided(const struct perm_splits *s, double delta0)
{
	double obs = fabs((s->sum_b - (double)s->n_b * delta0) / (double)s->n_b - s->sum_a / (double)s->n_a);
	size_t count = 0;
	for (size_t k = 0; k < s->count; k++)
		count += fabs(stat(s, k, delta0)) >= obs - tolerance(s);
	return p_of(s, count);
}

double perm_p_one_sided(const struct perm_splits *s, double delta0, bool below)
{
	double obs = (s->sum_b - (double)s->n_b * delta0) / (double)s->n_b - s->sum_a / (double)s->n_a;
	size_t count = 0;
	for (size_t k = 0; k < s->count; k++) {
		double d = stat(s, k, delta0);
		count += below ? d <= obs + tolerance(s) : d >= obs - tolerance(s);
	}
	return p_of(s, count);
}

void perm_splits_free(struct perm_splits *s)
{
	free(s->sum);
	free(s->from_b);
	s->sum = NULL;
	s->from_b = NULL;
	s->count = 0;
}
