/* Distribution functions (lib/distrib.h names the sources). */
#include <math.h>
#include "lib/distrib.h"

/* The continued fraction needs about sqrt(max(a, b)) terms near the centre of the distribution
 * (its convergence is governed by the terms m of order sqrt(a)): allow ten times that and 400
 * more, and give NaN rather than a truncated value when even that does not converge. */
#define CF_BASE_TERMS 400
#define CF_EPS 1e-15
#define CF_TINY 1e-300

/* The continued fraction of I_x(a, b) (A&S 26.5.8) by the modified Lentz method: the value of
 * 1 / (1 + d1 / (1 + d2 / (1 + ...))). */
static double beta_cf(double a, double b, double x)
{
	double max_terms = CF_BASE_TERMS + 10 * sqrt(a > b ? a : b);
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < CF_TINY ? CF_TINY : d;
	d = 1 / d;
	double f = d;
	for (double m = 1; m <= max_terms; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
					 : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			d = 1 + num * d;
			d = fabs(d) < CF_TINY ? CF_TINY : d;
			c = 1 + num / c;
			c = fabs(c) < CF_TINY ? CF_TINY : c;
			d = 1 / d;
			f *= c * d;
			if (odd && fabs(c * d - 1) < CF_EPS)
				return f;
		}
	}
	return NAN;
}

double beta_inc(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	double ln_front = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(ln_front) * beta_cf(a, b, x) / a;
	return 1 - exp(ln_front) * beta_cf(b, a, 1 - x) / b;
}

/* Bisection of the increasing function f on [lo, hi] for f(x) = p, to 1e-12 of the range. */
static double bisect(double (*f)(double x, const double *arg), const double *arg, double p, double lo, double hi)
{
	for (int i = 0; i < 200 && hi - lo > 1e-12 * (fabs(lo) + fabs(hi) + 1e-300); i++) {
		double mid = lo + (hi - lo) / 2;
		if (f(mid, arg) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

static double beta_of(double x, const double *ab)
{
	return beta_inc(ab[0], ab[1], x);
}

double beta_quantile(double a, double b, double p)
{
	if (!(a > 0) || !(b > 0) || !(p >= 0) || !(p <= 1))
		return NAN;
	if (p == 0 || p == 1)
		return p;
	double ab[2] = { a, b };
	return bisect(beta_of, ab, p, 0, 1);
}

double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2));
}

double student_t_cdf(double t, double dof)
{
	if (isnan(t) || !(dof > 0))
		return NAN;
	if (isinf(dof))
		return normal_cdf(t);
	if (isinf(t))
		return t > 0 ? 1 : 0;
	double tail = 0.5 * beta_inc(dof / 2, 0.5, dof / (dof + t * t));  /* P(T > |t|) */
	return t > 0 ? 1 - tail : tail;
}

static double t_of(double x, const double *dof)
{
	return student_t_cdf(x, *dof);
}

double student_t_quantile_real(double dof, double p)
{
	if (p <= 0 || p >= 1)
		return p <= 0 ? -INFINITY : INFINITY;
	if (!(dof > 0))
		return NAN;
	if (p < 0.5)
		return -student_t_quantile_real(dof, 1 - p);
	/* above the median: t in [0, hi], hi doubled until it holds the quantile */
	double hi = 1;
	while (student_t_cdf(hi, dof) < p && hi < 1e300)
		hi *= 2;
	return bisect(t_of, &dof, p, 0, hi);
}

bool clopper_pearson(double k, double n, double alpha, double *lo, double *hi)
{
	if (!(n > 0) || !(k >= 0) || !(k <= n))
		return false;
	*lo = k > 0 ? beta_quantile(k, n - k + 1, alpha / 2) : 0;
	*hi = k < n ? beta_quantile(k + 1, n - k, 1 - alpha / 2) : 1;
	return true;
}

double binomial_cdf(int64_t k, int64_t n, double p)
{
	if (k < 0)
		return 0;
	if (k >= n)
		return 1;
	return 1 - beta_inc((double)k + 1, (double)(n - k), p);
}
