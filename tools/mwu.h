/* Mann-Whitney U test (Wilcoxon rank-sum), two-sided.  Exact null distribution when there are
 * no ties and nx + ny <= MWU_EXACT_MAX_N, counted with the recursion of Mann & Whitney (1947):
 * f(n, m, u) = f(n - 1, m, u - m) + f(n, m - 1, u); otherwise the normal approximation with
 * tie correction and a 0.5 continuity correction (sigma^2 = nx ny / 12 * ((N + 1) -
 * sum(t^3 - t) / (N (N - 1))), as in Hollander & Wolfe, Nonparametric Statistical Methods). */
#ifndef IB_MWU_H
#define IB_MWU_H
#include <stdbool.h>
#include <stddef.h>

#define MWU_EXACT_MAX_N 40

struct mwu_result {
	double u;      /* U of x: pairs (x_i, y_j) with x_i > y_j, ties counting 1/2 */
	double p;      /* two-sided p-value, 0 < p <= 1 */
	bool exact;    /* p from the exact distribution (else the normal approximation) */
};

/* Tests x[0..nx) against y[0..ny) (both >= 1).  Values are finite or +inf (compare's starved
 * repeat, above every finite value); equal values, infinities among them, are ties and take
 * their mean rank (the midrank).  Returns 0, or -1 on empty input or out of memory. */
int mwu_test(const double *x, size_t nx, const double *y, size_t ny, struct mwu_result *out);

/* The smallest two-sided p the exact test can give for these sizes: 2 / C(nx + ny, nx), at
 * most 1.  Below alpha means the test can ever reach significance at alpha. */
double mwu_min_p(size_t nx, size_t ny);

#endif
