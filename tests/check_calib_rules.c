/* Calibration's rules with a scripted measurer (calibrate/spread.c): the fastest of several
 * measurements is kept, their spread reported, and a saved value measured again only when a
 * quick measurement disagrees with it by more than CALIB_DISAGREE_PCT; rates checked between a
 * run's pairs warn when off by as much.  Nothing is timed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include "tests/ck_run.h"
#include "calibrate/calibrate.h"
#include "results/logfile.h"

/* A measurer returning rates[0], rates[1], ... in turn (0 past the end: interrupted). */
struct script {
	const double *rates;
	unsigned n, calls;
};

static double scripted(void *ctx)
{
	struct script *s = ctx;
	return s->calls < s->n ? s->rates[s->calls++] : (s->calls++, 0);
}

START_TEST(fastest_kept_spread_reported)
{
	const double rates[] = { 3600000, 2100000, 3670000, 3650000, 3660000 };
	struct calib_result r;
	calib_spread(rates, 5, &r);
	ck_assert_uint_eq(r.loops_per_ms, 3670000);
	ck_assert_uint_eq(r.measurements, 5);
	ck_assert_double_eq_tol(r.median_below_pct, 20000.0 * 100 / 3670000, 1e-9);
	ck_assert_double_eq_tol(r.slowest_below_pct, 1570000.0 * 100 / 3670000, 1e-9);
	const double even[] = { 100, 80, 90, 70 };
	calib_spread(even, 4, &r);
	ck_assert_uint_eq(r.loops_per_ms, 100);
	ck_assert_double_eq_tol(r.median_below_pct, 15.0, 1e-9); /* median of 80 and 90 */
	ck_assert_double_eq_tol(r.slowest_below_pct, 30.0, 1e-9);
	calib_spread(rates, 0, &r);
	ck_assert_uint_eq(r.loops_per_ms, 0);
	const double interrupted[] = { 100, 0 };
	calib_spread(interrupted, 2, &r);
	ck_assert_uint_eq(r.loops_per_ms, 0);
}
END_TEST

START_TEST(measure_with_takes_n_and_stops_when_interrupted)
{
	const double rates[] = { 5, 9, 7, 8, 6, 4, 3 };
	struct script s = { rates, 7, 0 };
	struct calib_result r;
	ck_assert_uint_eq(calib_measure_with(scripted, &s, 3, &r), 9);
	ck_assert_uint_eq(s.calls, 3);
	s.calls = 0;
	ck_assert_uint_eq(calib_measure_with(scripted, &s, 99, &r), 9);   /* at most CALIB_MEASUREMENTS */
	ck_assert_uint_eq(s.calls, CALIB_MEASUREMENTS);
	s = (struct script){ rates, 2, 0 };
	ck_assert_uint_eq(calib_measure_with(scripted, &s, 5, &r), 0);    /* the third was interrupted */
	ck_assert_uint_eq(s.calls, 3);
}
END_TEST

START_TEST(disagreement_beyond_the_margin)
{
	ck_assert_int_eq(calib_compare(1000000, 1100000, 10.0), CALIB_AGREES);   /* exactly 10%: agrees */
	ck_assert_int_eq(calib_compare(1000000, 900000, 10.0), CALIB_AGREES);
	ck_assert_int_eq(calib_compare(1000000, 1100001, 10.0), CALIB_FASTER);
	ck_assert_int_eq(calib_compare(1000000, 899999, 10.0), CALIB_SLOWER);
	ck_assert_double_eq_tol(calib_diff_pct(2000, 3000), 50.0, 1e-9);
	ck_assert_double_eq_tol(calib_diff_pct(0, 3000), 0.0, 1e-9);
}
END_TEST

/* calib_check_with on saved against a script; returns the value it chose. */
static uint64_t check(uint64_t saved, const double *rates, unsigned n, struct calib_check *c, unsigned *calls)
{
	struct script s = { rates, n, 0 };
	uint64_t v = calib_check_with(saved, scripted, &s, c);
	*calls = s.calls;
	return v;
}

START_TEST(saved_value_checked)
{
	struct calib_check c;
	unsigned calls;
	const double agrees[] = { 3500000 };                 /* -4.6%: one quick measurement, kept */
	ck_assert_uint_eq(check(3670000, agrees, 1, &c, &calls), 3670000);
	ck_assert(!c.remeasured && !c.replaced);
	ck_assert_uint_eq(calls, 1);
	ck_assert_uint_eq(c.saved_loops_per_ms, 3670000);
	const double faster[] = { 3600000, 3650000, 3670000, 3600000, 3660000, 3640000 };
	ck_assert_uint_eq(check(2100000, faster, 6, &c, &calls), 3670000);  /* saved in a slow moment */
	ck_assert(c.remeasured && c.replaced);
	ck_assert_uint_eq(calls, 1 + CALIB_MEASUREMENTS);
	const double slow_moment[] = { 2100000, 3600000, 2000000, 3660000, 3500000, 3650000 };
	ck_assert_uint_eq(check(3670000, slow_moment, 6, &c, &calls), 3670000);  /* full agrees: kept */
	ck_assert(c.remeasured && !c.replaced);
	ck_assert_uint_eq(c.full.loops_per_ms, 3660000);
	const double slower[] = { 2100000, 2000000, 2050000, 2100000, 1900000, 2090000 };
	ck_assert_uint_eq(check(3670000, slower, 6, &c, &calls), 2100000);  /* the CPU is slower now */
	ck_assert(c.remeasured && c.replaced);
	ck_assert_uint_eq(check(3670000, slower, 0, &c, &calls), 0);        /* interrupted */
	ck_assert_uint_eq(check(3670000, slower, 3, &c, &calls), 0);
}
END_TEST

START_TEST(drift_between_pairs)
{
	struct calib_drift d = { 0 };
	ck_assert(!calib_drift_off(&d, 3670000, CALIB_DISAGREE_PCT));      /* no check yet */
	calib_drift_add(&d, 3600000);
	calib_drift_add(&d, 0);                                            /* interrupted: not added */
	calib_drift_add(&d, 3700000);
	ck_assert_uint_eq(d.checks, 2);
	ck_assert(!calib_drift_off(&d, 3670000, CALIB_DISAGREE_PCT));
	calib_drift_add(&d, 3000000);                                      /* -18%: a slower CPU */
	ck_assert(calib_drift_off(&d, 3670000, CALIB_DISAGREE_PCT));
	ck_assert_double_eq(d.slowest_loops_per_ms, 3000000);
	ck_assert_double_eq(d.fastest_loops_per_ms, 3700000);
	struct calib_drift fast = { 0 };
	calib_drift_add(&fast, 2400000);                                   /* the run's value was slow */
	ck_assert(calib_drift_off(&fast, 2100000, CALIB_DISAGREE_PCT));

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	logfile_drift(f, &d, 3670000);
	fclose(f);
	ck_assert_str_eq(text, "\nWarning: the CPU ran at a different speed during the run: loops_per_ms checked after "
			 "each of 3 pairs ranged from 3000000 (-18.3%) to 3700000 (+0.8%) of the run's 3670000 "
			 "(margin 10%); fixed-work figures (ProAudio) may be off\n");
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("calibration rules");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, fastest_kept_spread_reported);
	tcase_add_test(tc, measure_with_takes_n_and_stops_when_interrupted);
	tcase_add_test(tc, disagreement_beyond_the_margin);
	tcase_add_test(tc, saved_value_checked);
	tcase_add_test(tc, drift_between_pairs);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
