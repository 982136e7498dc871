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

void calib_reference(const struct calib_check *c, uint64_t loops_per_ms, struct calib_range *out)
{
	if (c->remeasured && c->full.loops_per_ms) {
		out->fastest_loops_per_ms = (double)c->full.loops_per_ms;
		out->slowest_loops_per_ms = (double)c->full.loops_per_ms * (1 - c->full.slowest_below_pct / 100);
	} else {
		out->fastest_loops_per_ms = (double)loops_per_ms * (1 + CALIB_DISAGREE_PCT / 100);
		out->slowest_loops_per_ms = (double)loops_per_ms * (1 - CALIB_DISAGREE_PCT / 100);
	}
}

void calib_speed_of(const double *rates, unsigned n, uint64_t wall_ns, uint64_t cpu_ns, struct calib_speed *out)
{
	struct calib_result r;
	calib_spread(rates, n, &r);
	out->loops_per_ms = out->slowest_loops_per_ms = out->fastest_loops_per_ms = 0;
	out->cpu_share_ppm = 0;
	if (!r.loops_per_ms)
		return;
	double fastest = 0;
	for (unsigned i = 0; i < n; i++)
		fastest = rates[i] > fastest ? rates[i] : fastest;
	out->fastest_loops_per_ms = fastest;
	out->loops_per_ms = fastest * (1 - r.median_below_pct / 100);
	out->slowest_loops_per_ms = fastest * (1 - r.slowest_below_pct / 100);
	uint64_t share = wall_ns ? cpu_ns * 1000000 / wall_ns : 0;
	out->cpu_share_ppm = share > 1000000 ? 1000000 : (uint32_t)share;
}

bool calib_speed_off(const struct calib_speed *s, const struct calib_range *ref)
{
	double spread = s->fastest_loops_per_ms > 0 ? 1 - s->slowest_loops_per_ms / s->fastest_loops_per_ms : 0;
	return s->loops_per_ms < ref->slowest_loops_per_ms * (1 - spread) ||
	       s->loops_per_ms > ref->fastest_loops_per_ms * (1 + spread);
}

void calib_drift_add(struct calib_drift *d, const struct calib_drift_check *c)
{
	double v = c->speed.loops_per_ms;
	if (!(v > 0))
		return;
	if (!d->checks || v < d->slowest_loops_per_ms)
		d->slowest_loops_per_ms = v;
	if (!d->checks || v > d->fastest_loops_per_ms)
		d->fastest_loops_per_ms = v;
	bool off = calib_speed_off(&c->speed, &d->reference);
	d->off += off;
	if (d->list && d->checks < d->cap) {
		d->list[d->checks] = *c;
		d->list[d->checks].off = off;
	}
	d->checks++;
}

bool calib_drift_off(const struct calib_drift *d)
{
	return d->off >= 2 || (d->off == 1 && d->checks == 1);
}

/* How far check c lies outside ref, as a share of ref's nearer end; 0 inside. */
static double outside_share(const struct calib_drift_check *c, const struct calib_range *ref)
{
	double v = c->speed.loops_per_ms;
	if (v < ref->slowest_loops_per_ms)
		return (ref->slowest_loops_per_ms - v) / ref->slowest_loops_per_ms;
	if (v > ref->fastest_loops_per_ms)
		return (v - ref->fastest_loops_per_ms) / ref->fastest_loops_per_ms;
	return 0;
}

const struct calib_drift_check *calib_drift_worst(const struct calib_drift *d)
{
	const struct calib_drift_check *worst = NULL;
	unsigned kept = d->checks < d->cap ? d->checks : d->cap;
	for (unsigned i = 0; d->list && i < kept; i++)
		if (d->list[i].off && (!worst || outside_share(&d->list[i], &d->reference) > outside_share(worst, &d->reference)))
			worst = &d->list[i];
	return worst;
}
