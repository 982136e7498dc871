/* The adaptive window's looks and its stopping rule (run/stoprule.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/interval.h"
#include "run/stoprule.h"

/* x rounded up (up = true) or down to a whole number of cycles (cycle 0: x itself). */
static uint64_t whole_cycles(uint64_t x, uint64_t cycle, bool up)
{
	if (!cycle)
		return x;
	return (up ? (x + cycle - 1) / cycle : x / cycle) * cycle;
}

void stop_plan_init(struct stop_plan *sp, uint64_t min_ns, uint64_t max_ns, uint64_t cycle_ns,
		    const struct precision *target, bool has_deadlines)
{
	memset(sp, 0, sizeof(*sp));
	sp->target = *target;
	sp->has_deadlines = has_deadlines;
	uint64_t first = whole_cycles(min_ns > cycle_ns ? min_ns : cycle_ns, cycle_ns, true);
	uint64_t last = whole_cycles(max_ns, cycle_ns, false);
	if (last < first)
		last = first > max_ns ? first : max_ns;  /* the cycle or the minimum decides */
	for (uint64_t t = first; t < last && sp->looks < STOP_MAX_LOOKS - 1;
	     t = whole_cycles(t * STOP_LOOK_GROWTH, cycle_ns, false))
		sp->at_ns[sp->looks++] = t;
	sp->at_ns[sp->looks++] = last;
}

/* The tolerance of a latency figure: pct of it, at least STOP_LATENCY_FLOOR_NS. */
static double latency_tol(double value_ns, double pct)
{
	double tol = value_ns * pct / 100;
	return tol > STOP_LATENCY_FLOOR_NS ? tol : STOP_LATENCY_FLOOR_NS;
}

/* Figure f's tolerance under sp's precision. */
static double tolerance(const struct stop_plan *sp, enum sim_judged f, const struct sim_interval *iv)
{
	const struct precision *t = &sp->target;
	switch (f) {
	case SIM_LATENCY_MEAN: return latency_tol(iv->value, t->latency_mean_pct);
	case SIM_LATENCY_P99: return latency_tol(iv->value, t->latency_p99_pct);
	case SIM_DESIRED_CPU: return t->desired_cpu_pt;
	default: return t->deadlines_met_pt;
	}
}

/* The larger side of iv's interval about its figure, in the figure's unit; 0 without one. */
static double half_width(const struct sim_interval *iv)
{
	if (!iv->has)
		return 0;
	double below = iv->value - iv->lo, above = iv->hi - iv->value;
	return above > below ? above : below;
}

/* The power of time at which a half-width narrowed from prev_half at prev_s to half at t_s
 * seconds (h ~ t^-b), within [STOP_SHRINK_MIN, STOP_SHRINK_MAX]; STOP_SHRINK_MAX, the
 * square root of the theory, without an earlier half-width to compare. */
static double shrink_power(double prev_half, double prev_s, double half, double t_s)
{
	if (prev_half <= 0 || half <= 0 || prev_s <= 0 || t_s <= prev_s)
		return STOP_SHRINK_MAX;
	double b = log(prev_half / half) / log(t_s / prev_s);
	return b > STOP_SHRINK_MAX ? STOP_SHRINK_MAX : b < STOP_SHRINK_MIN ? STOP_SHRINK_MIN : b;
}

double stop_look_alpha(const struct stop_plan *sp, unsigned k)
{
	if (sp->looks <= 1 || k >= sp->looks)
		return CI_ALPHA;
	double last = (double)sp->at_ns[sp->looks - 1];
	double before = k ? obf_spent_alpha((double)sp->at_ns[k - 1] / last, CI_ALPHA) : 0;
	return obf_spent_alpha((double)sp->at_ns[k] / last, CI_ALPHA) - before;
}

double stop_result_alpha(const struct stop_plan *sp, const struct pair_stop *st)
{
	if (!sp)
		return CI_ALPHA;
	if (st->look >= 1 && st->reason != STOP_INTERRUPTED)
		return stop_look_alpha(sp, st->look - 1);
	double least = CI_ALPHA;
	for (unsigned k = 0; k < sp->looks; k++)
		least = fmin(least, stop_look_alpha(sp, k));
	return least;
}

/* What a half-width at error probability alpha becomes at last_alpha: the ratio of the
 * quantiles it stands on (dof degrees of freedom, 0: the normal's). */
static double level_scale(unsigned dof, double alpha, double last_alpha)
{
	if (alpha == last_alpha)
		return 1;
	return student_t_quantile(dof, 1 - last_alpha / 2) / student_t_quantile(dof, 1 - alpha / 2);
}

/* When (seconds from the start) a figure not known after t_s seconds would be: the samples
 * an interval needs at the rate seen, and its half-width `half` (half_width) narrowing to tol
 * at power b of time.  A percentile open above (or not yet computed) is projected by its
 * sample count alone: when its samples reach those a closed bound needs at the last look's
 * level, last_alpha (hist_percentile_n_needed), never from its provisional upper end, the
 * sample's max, which grows with the sample.  INFINITY without a sample. */
static double needed_s(const struct sim_interval *iv, double half, double tol, double t_s, double b,
		       bool percentile, double last_alpha)
{
	if (iv->n == 0)
		return INFINITY;
	double n_needed = iv->n_needed;
	if (percentile && (iv->open_above || !iv->has))
		n_needed = fmax(BM_MIN_SAMPLES, hist_percentile_n_needed(99, iv->inflation, iv->dof, last_alpha));
	double need = (double)iv->n < n_needed ? t_s * n_needed / (double)iv->n : t_s;
	if (percentile && (iv->open_above || !iv->has))
		return need;
	if (half > tol) {
		double w = t_s * pow(half / tol, 1 / b);
		if (w > need)
			need = w;
	}
	return need;
}

void stop_judge(const struct stop_plan *sp, unsigned look, const struct sim_interval iv[SIM_JUDGED],
		const struct stop_verdict *prev, struct stop_verdict *v)
{
	double t_s = sp->at_ns[look] / 1e9, last_s = sp->at_ns[sp->looks - 1] / 1e9;
	double prev_s = prev && look > 0 ? sp->at_ns[look - 1] / 1e9 : 0;
	double alpha = stop_look_alpha(sp, look), last_alpha = stop_look_alpha(sp, sp->looks - 1);
	memset(v, 0, sizeof(*v));
	for (unsigned f = 0; f < SIM_JUDGED; f++) {
		double half = half_width(&iv[f]);
		/* projected and compared at the last look's level; an interval open above has no
		 * half-width to take a rate from at the next look */
		double half_last = half * level_scale(iv[f].dof, alpha, last_alpha);
		v->half[f] = iv[f].open_above ? 0 : (float)half_last;
		if (f == SIM_DEADLINES_MET && !sp->has_deadlines)
			continue;
		double tol = tolerance(sp, f, &iv[f]);
		if (iv[f].has && !iv[f].open_above && half <= tol)
			continue;
		v->unknown |= 1u << f;
		double b = shrink_power(prev_s ? prev->half[f] : 0, prev_s, half_last, t_s);
		v->needed_s[f] = (float)needed_s(&iv[f], half_last, tol, t_s, b, f == SIM_LATENCY_P99, last_alpha);
		if (v->needed_s[f] > last_s)
			v->futile |= 1u << f;
	}
}

bool stop_now(const struct stop_plan *sp, unsigned look, const struct stop_verdict *v, enum stop_reason *reason)
{
	if (!v->unknown)
		*reason = STOP_KNOWN;
	else if (v->unknown == v->futile && look + 1 < sp->looks)
		*reason = STOP_FUTILE;
	else if (look + 1 >= sp->looks)
		*reason = STOP_MAX_TIME;
	else
		return false;
	return true;
}

const char *stop_reason_name(enum stop_reason r)
{
	static const char *const names[] = { "time", "known", "futile", "max-time", "interrupted" };
	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : "?";
}

/* Sets the field of p that name (n bytes) names to v.  Returns false for an unknown name. */
static bool precision_set(struct precision *p, const char *name, size_t n, double v)
{
	struct { const char *name; double *field; } f[] = {
		{ "mean", &p->latency_mean_pct }, { "p99", &p->latency_p99_pct },
		{ "cpu", &p->desired_cpu_pt }, { "met", &p->deadlines_met_pt },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (strlen(f[i].name) == n && strncmp(f[i].name, name, n) == 0) {
			*f[i].field = v;
			return true;
		}
	return false;
}

/* One FIGURE=VALUE item of n bytes at item.  Returns 0, or -1 with err set. */
static int precision_item(const char *item, size_t n, struct precision *p, char *err, size_t errlen)
{
	const char *eq = memchr(item, '=', n);
	char val[32];
	size_t vn = eq ? n - (size_t)(eq + 1 - item) : 0;
	if (eq && vn > 0 && vn < sizeof(val)) {
		memcpy(val, eq + 1, vn);
		val[vn] = '\0';
		if (val[vn - 1] == '%')
			val[vn - 1] = '\0';
		char *end;
		errno = 0;
		double v = strtod(val, &end);
		if (end != val && !*end && !errno && isfinite(v) && v > 0 && v <= 100 &&
		    precision_set(p, item, (size_t)(eq - item), v))
			return 0;
	}
	snprintf(err, errlen, "item '%.*s' in", (int)n, item);
	return -1;
}

int precision_parse(const char *spec, struct precision *p, char *err, size_t errlen)
{
	const char *s = spec;
	do {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		if (precision_item(s, n, p, err, errlen) != 0)
			return -1;
		s = comma ? comma + 1 : NULL;
	} while (s);
	return 0;
}
