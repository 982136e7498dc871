/* Distribution functions the intervals and the decisions stand on, computed to about 1e-10
 * (not tables): the regularized incomplete beta function and the distributions built on it
 * (Student's t with any real degrees of freedom, the binomial), the normal distribution, and
 * the exact (Clopper-Pearson) interval of a proportion.
 *
 * The incomplete beta is its continued fraction (Abramowitz & Stegun, "Handbook of
 * Mathematical Functions", 26.5.8), evaluated by the modified Lentz method (Lentz, "Generating
 * Bessel functions in Mie scattering calculations using continued fractions", Applied Optics
 * 15 (1976) 668-671; Thompson & Barnett, J. Comput. Phys. 64 (1986) 490-509), on the side of
 * the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where it converges fast (x < (a + 1) / (a + b + 2)).
 * Quantiles are found by bisection on the distribution function (monotone, so always found, to
 * 1e-12 of the range). */
#ifndef IB_DISTRIB_H
#define IB_DISTRIB_H
#include <stdbool.h>
#include <stdint.h>

/* I_x(a, b), the regularized incomplete beta function, for a, b > 0 and 0 <= x <= 1: 0 at
 * x = 0, 1 at x = 1; NaN for arguments out of range, or where the continued fraction does not
 * converge (not seen up to a + b = 1e9: binomial_cdf(5e8, 1e9, 0.5) = 0.5000126). */
double beta_inc(double a, double b, double x);

/* The x with beta_inc(a, b, x) = p (0 <= p <= 1): the p-quantile of the Beta(a, b)
 * distribution. */
double beta_quantile(double a, double b, double p);

/* P(T <= t) for Student's t with dof > 0 degrees of freedom (any real dof: Welch's
 * approximation gives fractional ones); dof = INFINITY is the normal distribution.  From
 * beta_inc: P(|T| > |t|) = I_{dof / (dof + t^2)}(dof / 2, 1 / 2). */
double student_t_cdf(double t, double dof);

/* The p-quantile (0 < p < 1) of Student's t with dof > 0 degrees of freedom (real; INFINITY:
 * the normal); -inf / +inf for p <= 0 / p >= 1. */
double student_t_quantile_real(double dof, double p);

/* P(Z <= z) for the standard normal distribution (erfc from libm). */
double normal_cdf(double z);

/* The exact two-sided 1 - alpha interval of a probability of which n trials showed k events
 * (0 <= k <= n, n >= 1): Clopper & Pearson, "The use of confidence or fiducial limits
 * illustrated in the case of the binomial", Biometrika 26 (1934) 404-413, as Beta quantiles:
 * lo = B(alpha / 2; k, n - k + 1) (0 when k = 0), hi = B(1 - alpha / 2; k + 1, n - k) (1 when
 * k = n).  n and k may be real (an effective count: n / VIF trials, k scaled alike), as
 * Brown, Cai & DasGupta, "Interval estimation for a binomial proportion", Statist. Sci. 16
 * (2001) 101-133, do for the adjusted intervals.  Returns false for n <= 0 or k out of 0..n. */
bool clopper_pearson(double k, double n, double alpha, double *lo, double *hi);

/* P(X <= k) for X ~ Binomial(n, p): 1 - I_p(k + 1, n - k) (1 for k >= n, 0 for k < 0). */
double binomial_cdf(int64_t k, int64_t n, double p);

#endif
