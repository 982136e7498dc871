/* The pure rules of calibration (calibrate/calibrate.h): the fastest of several measurements
 * and their spread, and when a measurement disagrees with a saved value. */
#include <stdlib.h>
#include "calibrate/calibrate.h"

static int cmp_rate(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Percent by which rate falls below fastest. */
static double below_pct(double fastest, double rate)
{
	return fastest > 0 ? (fastest - rate) * 100.0 / fastest : 0;
}

void calib_spread(const double *rates, unsigned n, struct calib_result *out)
{
	double sorted[CALIB_MEASUREMENTS];
	*out = (struct calib_result){ .measurements = n };
	if (n == 0 || n > CALIB_MEASUREMENTS)
		return;
	for (unsigned i = 0; i < n; i++)
		sorted[i] = rates[i];
	qsort(sorted, n, sizeof(sorted[0]), cmp_rate);
	if (!(sorted[0] > 0))
		return;
	double fastest = sorted[n - 1];
	double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	out->loops_per_ms = fastest >= 1.0 ? (uint64_t)fastest : 1;
	out->median_below_pct = below_pct(fastest, median);
	out->slowest_below_pct = below_pct(fastest, sorted[0]);
}

uint64_t calib_measure_with(calib_measurer measure, void *ctx, unsigned n, struct calib_result *out)
{
	double rates[CALIB_MEASUREMENTS];
	unsigned taken = 0;
	if (n > CALIB_MEASUREMENTS)
		n = CALIB_MEASUREMENTS;
	while (taken < n) {
		rates[taken] = measure(ctx);
		if (!(rates[taken++] > 0))
			break;
	}
	calib_spread(rates, taken, out);
	if (taken < n)
		out->loops_per_ms = 0;
	return out->loops_per_ms;
}

double calib_diff_pct(uint64_t reference_loops_per_ms, double loops_per_ms)
{
	if (reference_loops_per_ms == 0)
		return 0;
	return (loops_per_ms - (double)reference_loops_per_ms) * 100.0 / (double)reference_loops_per_ms;
}

enum calib_agreement calib_compare(uint64_t reference_loops_per_ms, double loops_per_ms, double margin_pct)
{
	double d = calib_diff_pct(reference_loops_per_ms, loops_per_ms);
	return d > margin_pct ? CALIB_FASTER : d < -margin_pct ? CALIB_SLOWER : CALIB_AGREES;
}

uint64_t calib_check_with(uint64_t saved, calib_measurer measure, void *ctx, struct calib_check *out)
{
	*out = (struct calib_check){ .saved_loops_per_ms = saved, .quick_loops_per_ms = measure(ctx) };
	if (!(out->quick_loops_per_ms > 0))
		return 0;
	if (calib_compare(saved, out->quick_loops_per_ms, CALIB_DISAGREE_PCT) == CALIB_AGREES)
		return out->loops_per_ms = saved;
	out->remeasured = true;
	if (calib_measure_with(measure, ctx, CALIB_MEASUREMENTS, &out->full) == 0)
		return 0;
	out->replaced = calib_compare(saved, (double)out->full.loops_per_ms, CALIB_DISAGREE_PCT) != CALIB_AGREES;
	return out->loops_per_ms = out->replaced ? out->full.loops_per_ms : saved;
}

void calib_drift_add(struct calib_drift *d, double loops_per_ms)
{
	if (!(loops_per_ms > 0))
		return;
	if (!d->checks || loops_per_ms < d->slowest_loops_per_ms)
		d->slowest_loops_per_ms = loops_per_ms;
	if (!d->checks || loops_per_ms > d->fastest_loops_per_ms)
		d->fastest_loops_per_ms = loops_per_ms;
	d->checks++;
}

bool calib_drift_off(const struct calib_drift *d, uint64_t run_loops_per_ms, double margin_pct)
{
	return d->checks && (calib_compare(run_loops_per_ms, d->slowest_loops_per_ms, margin_pct) != CALIB_AGREES ||
			     calib_compare(run_loops_per_ms, d->fastest_loops_per_ms, margin_pct) != CALIB_AGREES);
}
