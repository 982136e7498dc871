/* Decisions about figures between two sides (decide/decision.h names the methods). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "decide/decision.h"
#include "decide/permutation.h"
#include "lib/distrib.h"

/* A side's values on the test scale: its count, mean and the variance of that mean. */
struct side {
	size_t n;
	double mean, var_of_mean, dof;
	double raw_mean;          /* the values' own mean, whatever the scale */
	bool all_positive;
};

/* The side's values v[0..n) (NaN skipped), logged for a ratio, into *s; var_of_mean never below
 * floor_var (then with no degrees of freedom lost: the floor is known, not estimated). */
static void side_of(const double *v, size_t n, bool ratio, double floor_var, struct side *s)
{
	double sum = 0, sum2 = 0;
	memset(s, 0, sizeof(*s));
	s->all_positive = true;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		s->all_positive &= v[i] > 0 && isfinite(v[i]);
		double x = ratio ? log(v[i] > 0 ? v[i] : 1) : v[i];
		s->n++;
		sum += x;
		s->raw_mean += v[i];
	}
	if (s->n)
		s->raw_mean /= (double)s->n;
	if (s->n == 0)
		return;
	s->mean = sum / (double)s->n;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i])) {
			double x = (ratio ? log(v[i] > 0 ? v[i] : 1) : v[i]) - s->mean;
			sum2 += x * x;
		}
	double var = s->n > 1 ? sum2 / (double)(s->n - 1) / (double)s->n : 0;
	s->dof = s->n > 1 ? (double)(s->n - 1) : 0;
	if (floor_var > var) {
		var = floor_var;
		s->dof = INFINITY;
	}
	s->var_of_mean = var;
}

/* Side s's estimate in the figure's unit: the geometric mean for a ratio (every value > 0),
 * else the mean; NaN without a value. */
static double estimate_of(const struct side *s, bool ratio)
{
	if (!s->n)
		return NAN;
	return ratio && s->all_positive ? exp(s->mean) : s->raw_mean;
}

/* Side s's interval at level 1 - alpha in the figure's unit into *lo and *hi (NaN below 2
 * values, or a ratio with a value not above 0). */
static void side_interval(const struct side *s, bool ratio, double alpha, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (s->n < 2 || (ratio && !s->all_positive))
		return;
	double half = student_t_quantile_real(s->dof, 1 - alpha / 2) * sqrt(s->var_of_mean);
	*lo = ratio ? exp(s->mean - half) : s->mean - half;
	*hi = ratio ? exp(s->mean + half) : s->mean + half;
}

bool decision_side_interval(const double *v, size_t n, bool ratio, double floor_var, double *est, double *lo,
			    double *hi)
{
	struct side s;
	side_of(v, n, ratio, floor_var, &s);
	*est = estimate_of(&s, ratio);
	side_interval(&s, ratio, DECISION_ALPHA, lo, hi);
	return !isnan(*lo);
}

/* The change in its unit (% of A or points) from a difference on the test scale. */
static double change_of(bool ratio, double diff)
{
	return ratio ? (exp(diff) - 1) * 100 : diff;
}

/* Welch-Satterthwaite degrees of freedom of va + vb (each side's dof INFINITY when floored). */
static double welch_dof(const struct side *a, const struct side *b)
{
	double va = a->var_of_mean, vb = b->var_of_mean;
	double den = (isinf(a->dof) ? 0 : va * va / a->dof) + (isinf(b->dof) ? 0 : vb * vb / b->dof);
	return den > 0 ? (va + vb) * (va + vb) / den : INFINITY;
}

/* The test's p-values of d (diff on the test scale, margin m there; m NaN: none). */
static void test_of(struct decision *d, double diff, double margin)
{
	if (d->se > 0) {
		double t = fabs(diff) / d->se;
		d->p_different = 2 * (1 - student_t_cdf(t, d->dof));
		if (isnan(margin)) {
			d->p_same = 1;
		} else {
			double p_low = 1 - student_t_cdf((diff + margin) / d->se, d->dof);  /* H0: diff <= -m */
			double p_high = student_t_cdf((diff - margin) / d->se, d->dof);     /* H0: diff >= m */
			d->p_same = fmax(p_low, p_high);
		}
	} else {  /* no spread at all, on either side: the difference is what it is */
		d->p_different = diff == 0 ? 1 : 0;
		d->p_same = !isnan(margin) && fabs(diff) < margin ? 0 : 1;
	}
	double half = d->se * student_t_quantile_real(d->dof, 1 - DECISION_ALPHA / 2);
	d->change_lo = change_of(d->rule.ratio, diff - half);
	d->change_hi = change_of(d->rule.ratio, diff + half);
}

/* The finite values of v[0..n) on the test scale (logged for a ratio) into out.  Returns how many. */
static size_t scaled(const double *v, size_t n, bool ratio, double *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			out[k++] = ratio ? log(v[i]) : v[i];
	return k;
}

/* The permutation test's p-values of d's sub-runs a[0..na), b[0..nb) (margin on the test scale,
 * NaN: none) joined to Welch's: each answer needs both tests, the larger p stands.  Out of
 * memory: p 1 (no answer). */
static void permutation_join(struct decision *d, const double *a, size_t na, const double *b, size_t nb, double margin)
{
	double *v = malloc((na + nb + 1) * sizeof(double));
	struct perm_splits s;
	size_t ka = v ? scaled(a, na, d->rule.ratio, v) : 0, kb = v ? scaled(b, nb, d->rule.ratio, v + ka) : 0;
	if (v && ka + kb > PERM_MAX_VALUES) {  /* Welch's alone (decide/permutation.h) */
		free(v);
		return;
	}
	if (!v || perm_splits_make(&s, v, ka, v + ka, kb) != 0) {
		d->p_different = d->p_same = 1;
		free(v);
		return;
	}
	d->perm_drawn = !s.exact;
	d->p_different = fmax(d->p_different, perm_p_two_sided(&s, 0));
	if (!isnan(margin))
		d->p_same = fmax(d->p_same, fmax(perm_p_one_sided(&s, margin, true), perm_p_one_sided(&s, -margin, false)));
	perm_splits_free(&s);
	free(v);
}

/* The margin on the test scale of rule r: log(1 + threshold / 100) for a ratio; NaN: none. */
static double margin_of(const struct decision_rule *r)
{
	if (isnan(r->threshold) || !(r->threshold > 0))
		return NAN;
	return r->ratio ? log1p(r->threshold / 100) : r->threshold;
}

void decision_measure(struct decision *d, const struct decision_rule *r, const double *a, size_t na,
		      const double *b, size_t nb, double floor_var_a, double floor_var_b)
{
	struct side sa, sb;
	memset(d, 0, sizeof(*d));
	d->rule = *r;
	d->answer = isnan(r->threshold) ? DECISION_REPORTED : DECISION_UNKNOWN;
	d->change = d->change_lo = d->change_hi = d->p_different = d->p_same = NAN;
	d->p_different_adj = d->p_same_adj = NAN;
	d->a = d->b = d->se = d->dof = NAN;
	d->subruns_needed = INFINITY;
	side_of(a, na, r->ratio, floor_var_a, &sa);
	side_of(b, nb, r->ratio, floor_var_b, &sb);
	d->n_a = (unsigned)sa.n;
	d->n_b = (unsigned)sb.n;
	d->a = estimate_of(&sa, r->ratio);
	d->b = estimate_of(&sb, r->ratio);
	side_interval(&sa, r->ratio, DECISION_ALPHA, &d->a_lo, &d->a_hi);
	side_interval(&sb, r->ratio, DECISION_ALPHA, &d->b_lo, &d->b_hi);
	if (sa.n == 0 || sb.n == 0) {
		d->why = "no value";
		return;
	}
	if (r->ratio && (!sa.all_positive || !sb.all_positive)) {
		d->why = "a value of 0 has no ratio";
		return;
	}
	double diff = sb.mean - sa.mean;
	d->change = change_of(r->ratio, diff);
	d->worse = r->higher_worse ? diff > 0 : diff < 0;
	if (sa.n < 2 || sb.n < 2) {
		d->why = "one sub-run a side";
		return;
	}
	d->tested = true;
	d->se = sqrt(sa.var_of_mean + sb.var_of_mean);
	d->dof = welch_dof(&sa, &sb);
	test_of(d, diff, margin_of(r));
	d->p_different_welch = d->p_different;
	d->p_same_welch = d->p_same;
	permutation_join(d, a, na, b, nb, margin_of(r));
	d->why = NULL;
}

bool decision_p99_bounded(const struct decision_subrun *a, size_t na, const struct decision_subrun *b, size_t nb)
{
	for (size_t i = 0; i < na + nb; i++) {
		const struct decision_subrun *s = i < na ? &a[i] : &b[i - na];
		/* a starved sub-run (0 samples) has no p99 to bound; one whose count is not said (NaN:
		 * a logfile) cannot show that it is bounded */
		if (s->usable && s->samples != 0 && !(s->samples >= DECISION_P99_MIN_SAMPLES))
			return false;
	}
	return true;
}

/* The share floor of side s[0..n) (points squared), as decision_measure_subruns says. */
static double share_floor(const struct decision_subrun *s, size_t n)
{
	double periods = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i].usable && isfinite(s[i].value) && s[i].periods > 0) {
			periods += s[i].periods;
			k += s[i].value / 100 * s[i].periods;
		}
	if (periods == 0)
		return 0;
	double q = (k + 2) / (periods + 4);
	return 1e4 * q * (1 - q) / (periods + 4);
}

/* The usable finite values of s[0..n) into v[0..n) (NaN for the others).  Returns how many
 * finite values were left out as unusable; *any whether any sub-run had a finite value. */
static size_t usable_values(const struct decision_subrun *s, size_t n, double *v, bool *any)
{
	size_t out = 0;
	*any = false;
	for (size_t i = 0; i < n; i++) {
		bool finite = isfinite(s[i].value);
		*any |= !isnan(s[i].value);  /* carried, if only as a starved repeat's infinity */
		out += finite && !s[i].usable;
		v[i] = finite && s[i].usable ? s[i].value : NAN;
	}
	return out;
}

bool decision_measure_subruns(struct decision *d, const struct decision_rule *r, bool share,
			      const struct decision_subrun *a, size_t na, const struct decision_subrun *b, size_t nb)
{
	double *v = malloc((na + nb + 1) * sizeof(double));
	bool any_a = false, any_b = false;
	if (!v) {
		decision_measure(d, r, NULL, 0, NULL, 0, 0, 0);
		return false;
	}
	size_t out = usable_values(a, na, v, &any_a) + usable_values(b, nb, v + na, &any_b);
	decision_measure(d, r, v, na, v + na, nb, share ? share_floor(a, na) : 0, share ? share_floor(b, nb) : 0);
	if (d->why && strcmp(d->why, "no value") == 0 && out)
		d->why = "its sub-runs left out";
	free(v);
	return any_a && any_b;
}

bool decision_precise(const struct decision *d, double alpha_each)
{
	double margin = margin_of(&d->rule);
	if (isnan(margin))
		return true;
	if (!d->tested)
		return false;
	bool reachable = !perm_enumerated(d->n_a, d->n_b) || perm_min_p(d->n_a, d->n_b) <= alpha_each;
	return reachable && student_t_quantile_real(d->dof, 1 - alpha_each / 2) * d->se <= margin / 2;
}

/* One side's usable sub-runs s[0..n) as struct side (decision_side_precise's and
 * decision_subruns_interval's), and the half-width of the t interval of its mean at level
 * 1 - alpha on the test scale into *half.  Returns false without two usable values (or, for a
 * ratio, with one not above 0) or when out of memory. */
static bool side_half_width(const struct decision_subrun *sub, size_t n, bool ratio, bool share, double alpha,
			    struct side *s, double *half)
{
	bool any;
	double *v = malloc((n ? n : 1) * sizeof(double));
	if (!v)
		return false;
	usable_values(sub, n, v, &any);
	side_of(v, n, ratio, share ? share_floor(sub, n) : 0, s);
	free(v);
	if (s->n < 2 || (ratio && !s->all_positive))
		return false;
	*half = student_t_quantile_real(isinf(s->dof) ? INFINITY : s->dof, 1 - alpha / 2) * sqrt(s->var_of_mean);
	return true;
}

bool decision_side_precise(const struct decision_subrun *sub, size_t n, bool ratio, bool share, double target,
			   double alpha)
{
	struct side s;
	double half;
	return side_half_width(sub, n, ratio, share, alpha, &s, &half) && half <= (ratio ? log1p(target / 100) : target);
}

size_t decision_subruns_interval(const struct decision_subrun *sub, size_t n, bool ratio, bool share, double alpha,
				 double *est, double *lo, double *hi)
{
	struct side s;
	double half;
	if (!side_half_width(sub, n, ratio, share, alpha, &s, &half)) {
		*est = *lo = *hi = NAN;
		return 0;
	}
	*est = estimate_of(&s, ratio);
	side_interval(&s, ratio, alpha, lo, hi);
	return s.n;
}

/* Sorts indexes by their p-value, ascending (qsort's context through a file-scope pointer is
 * avoided: the pairs carry their value). */
struct ranked {
	double p;
	size_t at;
};

static int by_p(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->p, b = ((const struct ranked *)y)->p;
	return a < b ? -1 : a > b;
}

size_t holm_adjust(const double *p, double *adj, size_t n)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]) && r)
			r[m++] = (struct ranked){ p[i], i };
	}
	if (!r)
		return 0;
	qsort(r, m, sizeof(*r), by_p);
	double running = 0;
	for (size_t j = 0; j < m; j++) {
		double v = fmin(1, (double)(m - j) * r[j].p);
		running = fmax(running, v);
		adj[r[j].at] = running;
	}
	free(r);
	return m;
}

/* Whether n sub-runs a side, each of spread sigma on the test scale, would answer d: its
 * difference diff shown (two-sided at alpha_each) or shown within margin (one-sided), with
 * Student's t at 2 n - 2 degrees of freedom. */
static bool would_answer(double n, double sigma, double diff, double margin, double alpha_each)
{
	double se = sigma * sqrt(2 / n), dof = 2 * n - 2;
	bool differs = diff != 0 && student_t_quantile_real(dof, 1 - alpha_each / 2) * se < fabs(diff);
	bool same = !isnan(margin) && fabs(diff) + student_t_quantile_real(dof, 1 - alpha_each) * se < margin;
	return differs || same;
}

/* The sub-runs a side at which d's interval would answer at level alpha_each, the spread per
 * sub-run as seen (both sides pooled: se^2 = sigma^2 (1/na + 1/nb)) and the change as
 * estimated; INFINITY when none up to DECISION_MAX_SUBRUNS would. */
static double subruns_needed(const struct decision *d, double alpha_each)
{
	if (!d->tested)
		return INFINITY;
	double diff = d->rule.ratio ? log1p(d->change / 100) : d->change, margin = margin_of(&d->rule);
	if (!(d->se > 0)) {  /* no spread: only the permutation test's floor stands in the way */
		if (diff == 0 && !(fabs(diff) < margin))
			return INFINITY;
		double n = 2;
		while (perm_min_p((size_t)n, (size_t)n) > alpha_each && n < DECISION_MAX_SUBRUNS)
			n++;
		return n;
	}
	double sigma = d->se / sqrt(1.0 / d->n_a + 1.0 / d->n_b);
	double lo = 2, hi = 2;
	while (perm_min_p((size_t)hi, (size_t)hi) > alpha_each)  /* the permutation test's least p */
		lo = hi++;
	while (!would_answer(hi, sigma, diff, margin, alpha_each)) {
		if (hi >= DECISION_MAX_SUBRUNS)
			return INFINITY;
		lo = hi;
		hi = fmin(2 * hi, DECISION_MAX_SUBRUNS);
	}
	while (hi - lo > 1) {  /* the least n that answers, in (lo, hi] */
		double mid = floor((lo + hi) / 2);
		*(would_answer(mid, sigma, diff, margin, alpha_each) ? &hi : &lo) = mid;
	}
	return hi;
}

size_t decision_family(struct decision *d, size_t n, double alpha)
{
	double *buf = calloc(4 * (n ? n : 1), sizeof(double));
	if (!buf)
		return 0;
	double *pd = buf, *ps = buf + n, *ad = buf + 2 * n, *as = buf + 3 * n;
	for (size_t i = 0; i < n; i++) {
		bool judged = d[i].answer != DECISION_REPORTED && d[i].tested;
		pd[i] = judged ? d[i].p_different : NAN;
		ps[i] = judged ? d[i].p_same : NAN;
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += !isnan(pd[i]);
	for (size_t i = 0; m && i < n; i++)  /* drawn splits' floor above the family's first level */
		if (!isnan(pd[i]) && d[i].perm_drawn && 1.0 / PERM_MAX_SPLITS > alpha / (double)m) {
			pd[i] = d[i].p_different_welch;
			ps[i] = d[i].p_same_welch;
		}
	holm_adjust(pd, ad, n);
	holm_adjust(ps, as, n);
	for (size_t i = 0; i < n; i++) {
		if (d[i].answer == DECISION_REPORTED)
			continue;
		d[i].p_different_adj = ad[i];
		d[i].p_same_adj = as[i];
		d[i].answer = !d[i].tested ? DECISION_UNKNOWN : as[i] <= alpha ? DECISION_SAME :
			      ad[i] <= alpha ? DECISION_DIFFERENT : DECISION_UNKNOWN;
		d[i].subruns_needed = d[i].answer == DECISION_UNKNOWN ?
				      subruns_needed(&d[i], alpha / (double)(m ? m : 1)) : 0;
	}
	free(buf);
	return m;
}

const char *decision_answer_name(enum decision_answer a)
{
	switch (a) {
	case DECISION_DIFFERENT: return "DIFFERENT";
	case DECISION_SAME: return "SAME";
	case DECISION_UNKNOWN: return "UNKNOWN";
	default: return "-";
	}
}
