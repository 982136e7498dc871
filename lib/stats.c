#include <stdlib.h>
#include "lib/distrib.h"
#include "lib/stats.h"
#include <math.h>

void lat_stats_add(struct lat_stats *s, uint64_t sample_ns)
{
	double x = (double)sample_ns;
	s->count++;
	double delta = x - s->mean_ns;
	s->mean_ns += delta / (double)s->count;
	s->m2_ns2 += delta * (x - s->mean_ns);
	if (s->count == 1 || sample_ns < s->min_ns)
		s->min_ns = sample_ns;
	if (sample_ns > s->max_ns)
		s->max_ns = sample_ns;
}

double lat_stats_sd_ns(const struct lat_stats *s)
{
	if (s->count < 2 || s->m2_ns2 <= 0)
		return 0.0;
	return sqrt(s->m2_ns2 / (double)s->count);
}

void lat_stats_merge(struct lat_stats *a, const struct lat_stats *b)
{
	if (b->count == 0)
		return;
	if (a->count == 0) {
		*a = *b;
		return;
	}
	double na = (double)a->count, nb = (double)b->count, n = na + nb;
	double delta = b->mean_ns - a->mean_ns;
	a->mean_ns += delta * nb / n;
	a->m2_ns2 += b->m2_ns2 + delta * delta * na * nb / n;
	a->count += b->count;
	if (b->min_ns < a->min_ns)
		a->min_ns = b->min_ns;
	if (b->max_ns > a->max_ns)
		a->max_ns = b->max_ns;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool mean_interval95(double n, double sum, double sum_sq, double floor, double *mean, double *lo, double *hi)
{
	if (n < 2)
		return false;
	double m = sum / n, var = (sum_sq - n * m * m) / (n - 1);
	double half = student_t_quantile_real(n - 1, 0.975) * sqrt(var > 0 ? var : 0) / sqrt(n);
	*mean = m;
	*lo = fmax(m - half, floor);
	*hi = m + half;
	return true;
}
