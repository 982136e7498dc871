/* Distribution functions (lib/distrib.h) against published values: Student's t critical values
 * (NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2), incomplete beta values worked
 * by hand from its polynomial form for integer parameters, binomial sums, and the exact
 * Clopper-Pearson limits of one event in 1200 trials and of none (1 - (alpha / 2)^(1 / n)). */
#include <check.h>
#include "tests/ck_run.h"
#include <math.h>
#include "lib/distrib.h"

START_TEST(beta_inc_integer_parameters)
{
	/* I_x(1, 1) = x; I_x(2, 3) = sum_{j=2}^{4} C(4, j) x^j (1 - x)^(4 - j) */
	ck_assert_double_eq_tol(beta_inc(1, 1, 0.3), 0.3, 1e-12);
	double x = 0.5;
	double want = 6 * x * x * (1 - x) * (1 - x) + 4 * x * x * x * (1 - x) + x * x * x * x;
	ck_assert_double_eq_tol(beta_inc(2, 3, x), want, 1e-12);
	x = 0.9;
	want = 6 * x * x * (1 - x) * (1 - x) + 4 * x * x * x * (1 - x) + x * x * x * x;
	ck_assert_double_eq_tol(beta_inc(2, 3, x), want, 1e-12);
	ck_assert(isnan(beta_inc(0, 1, 0.5)));
	ck_assert(isnan(beta_inc(1, 1, 1.5)));
	ck_assert_double_eq(beta_inc(3, 4, 0), 0);
	ck_assert_double_eq(beta_inc(3, 4, 1), 1);
}
END_TEST

START_TEST(beta_quantile_inverts)
{
	for (double p = 0.01; p < 1; p += 0.07)
		ck_assert_double_eq_tol(beta_inc(2.5, 7.25, beta_quantile(2.5, 7.25, p)), p, 1e-10);
}
END_TEST

START_TEST(t_critical_values)
{
	static const struct { double dof, p, t; } tab[] = {
		{ 1, 0.975, 12.706 }, { 2, 0.975, 4.303 }, { 4, 0.975, 2.776 }, { 9, 0.975, 2.262 },
		{ 10, 0.995, 3.169 }, { 15, 0.995, 2.947 }, { 30, 0.9975, 3.030 }, { 100, 0.95, 1.660 },
	};
	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		ck_assert_double_eq_tol(student_t_quantile_real(tab[i].dof, tab[i].p), tab[i].t, 6e-4);
		/* the tables round t to 3 decimals: p within the density times 5e-4 */
		ck_assert_double_eq_tol(student_t_cdf(tab[i].t, tab[i].dof), tab[i].p, 1e-4);
		ck_assert_double_eq_tol(student_t_cdf(-tab[i].t, tab[i].dof), 1 - tab[i].p, 1e-4);
	}
	ck_assert_double_eq_tol(student_t_quantile_real(INFINITY, 0.975), 1.959964, 1e-6);
	ck_assert_double_eq_tol(student_t_cdf(0, 3.7), 0.5, 1e-12);
	/* t with 1 degree of freedom is Cauchy: P(T <= 1) = 3/4 */
	ck_assert_double_eq_tol(student_t_cdf(1, 1), 0.75, 1e-12);
}
END_TEST

START_TEST(binomial_sums)
{
	/* P(X <= 1), X ~ Bin(4, 0.5) = (1 + 4) / 16 */
	ck_assert_double_eq_tol(binomial_cdf(1, 4, 0.5), 5.0 / 16, 1e-12);
	/* P(X <= 91), X ~ Bin(92, 0.99) = 1 - 0.99^92: the largest of 92 samples bounds the p99
	 * with that probability */
	ck_assert_double_eq_tol(1 - binomial_cdf(91, 92, 0.99), pow(0.99, 92), 1e-12);
	ck_assert_double_eq(binomial_cdf(-1, 4, 0.5), 0);
	ck_assert_double_eq(binomial_cdf(4, 4, 0.5), 1);
}
END_TEST

START_TEST(clopper_pearson_limits)
{
	double lo, hi;
	/* one miss in 1200 periods at the level of three looks, 1 - 0.05 / 3: 99.431 %
	 * (the Poisson form (1 + x) e^-x = alpha / 2 gives x = 6.8); at 95 %, P(X >= 1199 | lo) =
	 * alpha / 2 = P(X <= 1199 | hi) */
	ck_assert(clopper_pearson(1199, 1200, 0.05 / 3, &lo, &hi));
	ck_assert_double_eq_tol(lo, 0.99431, 2e-5);
	ck_assert(clopper_pearson(1199, 1200, 0.05, &lo, &hi));
	ck_assert_double_eq_tol(1 - binomial_cdf(1198, 1200, lo), 0.025, 1e-9);
	ck_assert_double_eq_tol(binomial_cdf(1199, 1200, hi), 0.025, 1e-9);
	ck_assert_double_eq_tol(hi, pow(0.975, 1.0 / 1200), 1e-10);
	ck_assert(clopper_pearson(1200, 1200, 0.05, &lo, &hi));
	ck_assert_double_eq_tol(lo, pow(0.025, 1.0 / 1200), 1e-10);
	ck_assert_double_eq(hi, 1);
	ck_assert(clopper_pearson(0, 10, 0.05, &lo, &hi));
	ck_assert_double_eq(lo, 0);
	ck_assert_double_eq_tol(hi, 1 - pow(0.025, 0.1), 1e-10);
	/* fewer events, a lower interval: monotone in k */
	double lo0, hi0;
	ck_assert(clopper_pearson(1200, 1200, 0.05, &lo0, &hi0));
	ck_assert(clopper_pearson(1199, 1200, 0.05, &lo, &hi));
	ck_assert(lo < lo0 && hi <= hi0);
	ck_assert(!clopper_pearson(3, 2, 0.05, &lo, &hi));
	ck_assert(!clopper_pearson(0, 0, 0.05, &lo, &hi));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("distrib");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, beta_inc_integer_parameters);
	tcase_add_test(tc, beta_quantile_inverts);
	tcase_add_test(tc, t_critical_values);
	tcase_add_test(tc, binomial_sums);
	tcase_add_test(tc, clopper_pearson_limits);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
