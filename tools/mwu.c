#include <math.h>
#include <stdlib.h>
#include "tools/mwu.h"

struct ranked {
	double v;
	int side;   /* 0 = x, 1 = y */
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;
	return x < y ? -1 : x > y;
}

/* Ranks the pooled sample (ties get their mean rank); returns the rank sum of x and, in
 * *tie_sum, sum(t^3 - t) over the groups of ties. */
static double rank_sum_x(struct ranked *all, size_t n, double *tie_sum)
{
	double rx = 0;
	*tie_sum = 0;
	qsort(all, n, sizeof(*all), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && all[j + 1].v == all[i].v)
			j++;
		double t = (double)(j - i + 1), rank = (double)(i + j) / 2 + 1;
		*tie_sum += t * t * t - t;
		for (size_t k = i; k <= j; k++)
			if (all[k].side == 0)
				rx += rank;
		i = j + 1;
	}
	return rx;
}

/* P(U <= u) under the null, no ties, by counting arrangements. */
static double exact_cdf(size_t nx, size_t ny, double u)
{
	size_t umax = nx * ny;
	/* f[m][k]: arrangements of i x's and m y's with U = k, built up over i. */
	double *f = calloc((ny + 1) * (umax + 1), sizeof(*f));
	if (!f)
		return NAN;
	for (size_t m = 0; m <= ny; m++)
		f[m * (umax + 1)] = 1; /* i = 0: only U = 0 */
	for (size_t i = 1; i <= nx; i++)
		/* f(i, m, k) = f(i - 1, m, k - m) + f(i, m - 1, k): m upwards (row m - 1 is already
		 * for i), k downwards (row m below k is still for i - 1). */
		for (size_t m = 0; m <= ny; m++)
			for (size_t k = umax + 1; k-- > 0;) {
				double a = k >= m ? f[m * (umax + 1) + k - m] : 0;
				double b = m > 0 ? f[(m - 1) * (umax + 1) + k] : 0;
				f[m * (umax + 1) + k] = a + b;
			}
	double below = 0, total = 0;
	for (size_t k = 0; k <= umax; k++) {
		total += f[ny * (umax + 1) + k];
		if ((double)k <= u + 1e-9)
			below += f[ny * (umax + 1) + k];
	}
	free(f);
	return below / total;
}

int mwu_test(const double *x, size_t nx, const double *y, size_t ny, struct mwu_result *out)
{
	size_t n = nx + ny;
	if (nx == 0 || ny == 0)
		return -1;
	struct ranked *all = malloc(n * sizeof(*all));
	if (!all)
		return -1;
	for (size_t i = 0; i < n; i++)
		all[i] = (struct ranked){ i < nx ? x[i] : y[i - nx], i < nx ? 0 : 1 };
	double ties;
	double u = rank_sum_x(all, n, &ties) - (double)nx * (double)(nx + 1) / 2;
	free(all);
	double mu = (double)nx * (double)ny / 2;
	out->u = u;
	out->exact = ties == 0 && n <= MWU_EXACT_MAX_N;
	if (out->exact) {
		/* The null distribution is symmetric about mu: fold onto the lower tail. */
		double lower = u <= mu ? u : 2 * mu - u;
		out->p = fmin(1.0, 2 * exact_cdf(nx, ny, lower));
		return isnan(out->p) ? -1 : 0;
	}
	double var = (double)nx * (double)ny / 12 * ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (var <= 0) {
		out->p = 1;
		return 0;
	}
	double z = fmax(0, fabs(u - mu) - 0.5) / sqrt(var);
	out->p = fmin(1.0, erfc(z / sqrt(2)));
	return 0;
}

double mwu_min_p(size_t nx, size_t ny)
{
	double c = 1; /* C(nx + ny, nx), in floating point */
	for (size_t i = 1; i <= nx; i++)
		c = c * (double)(ny + i) / (double)i;
	return fmin(1.0, 2 / c);
}
