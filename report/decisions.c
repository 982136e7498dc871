/* The decision table (report/decisions.h). */
#include <math.h>
#include <string.h>
#include "report/decisions.h"
#include "report/jsonkeys.h"
#include "report/jsonout.h"
#include "lib/text.h"

json_t *decision_json_number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* [lo, hi] for the JSON, null when the interval is not known. */
static json_t *json_interval(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) ? json_pack("[f, f]", lo, hi) : json_null();
}

/* A p-value, or null. */
static json_t *json_p(double p)
{
	return isnan(p) ? json_null() : json_real(p);
}

/* The largest upper end of a change in % the table shows as a number (the JSON keeps it). */
#define DECISION_SHOWN_MAX_PCT 9999.0

/* A value as shown: in its unit, three significant digits; "-" without one. */
static void fmt_value(enum judged_metric m, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		fmt_sig3(judged_metric_is_time(m) ? v / 1e6 : v, buf, len);
}

/* A change as shown: "+12.3%" or "-1.50 pt"; "-" without one. */
static void fmt_change(enum judged_metric m, double change, char *buf, size_t len)
{
	if (!isfinite(change))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, judged_metric_in_points(m) ? "%+.2f pt" : "%+.1f%%", change);
}

/* The answer column of decision d: what was decided, or for UNKNOWN what it would take. */
static void fmt_answer(const struct decision *d, enum judged_metric m, char *buf, size_t len)
{
	const char *unit = judged_metric_in_points(m) ? " pt" : "%";
	switch (d->answer) {
	case DECISION_DIFFERENT:
		snprintf(buf, len, "DIFFERENT, %s", d->worse ? "worse" : "better");
		break;
	case DECISION_SAME:
		snprintf(buf, len, "SAME (within %g%s)", d->rule.threshold, unit);
		break;
	case DECISION_UNKNOWN:
		if (d->why)
			snprintf(buf, len, "UNKNOWN: %s", d->why);
		else if (isfinite(d->subruns_needed))
			snprintf(buf, len, "UNKNOWN: ~%.0f sub-runs a side", d->subruns_needed);
		else
			snprintf(buf, len, "UNKNOWN: at its threshold");
		break;
	default:
		*buf = 0;
	}
}

void decision_row_of(enum judged_metric m, const struct decision *d, struct decision_row *r)
{
	double scale = judged_metric_is_time(m) ? 1e-6 : 1;  /* ns shown in ms */
	memset(r, 0, sizeof(*r));
	r->figure = judged_metric_name(m);
	r->unit = judged_metric_unit(m);
	r->change_unit = judged_metric_in_points(m) ? "pt" : "%";
	r->old_v = d->a * scale, r->new_v = d->b * scale, r->change_v = d->change;
	r->change_lo = d->change_lo, r->change_hi = d->change_hi, r->d = d;
	fmt_value(m, d->a, r->old, sizeof(r->old));
	fmt_value(m, d->b, r->new, sizeof(r->new));
	fmt_change(m, d->change, r->change, sizeof(r->change));
	snprintf(r->runs, sizeof(r->runs), "%u:%u", d->n_a, d->n_b);
	if (isnan(d->change_lo))
		snprintf(r->interval, sizeof(r->interval), "-");
	else if (judged_metric_in_points(m))
		snprintf(r->interval, sizeof(r->interval), "%+.2f..%+.2f pt", d->change_lo, d->change_hi);
	else if (d->change_hi > DECISION_SHOWN_MAX_PCT)  /* a ratio's interval from two wide sub-runs */
		snprintf(r->interval, sizeof(r->interval), "%+.1f..>%+.0f%%", d->change_lo, DECISION_SHOWN_MAX_PCT);
	else
		snprintf(r->interval, sizeof(r->interval), "%+.1f..%+.1f%%", d->change_lo, d->change_hi);
	fmt_answer(d, m, r->answer, sizeof(r->answer));
}

void decision_header_print(FILE *out, const struct decision_cols *w)
{
	fprintf(out, "\n%-*s %-*s %-20s %5s %10s %10s %9s %-19s %s\n", w->sim, "Simulation", w->load, "Load",
		"Figure (ms, %)", "Runs", "Old", "New", "Change", "95% interval", "Answer");
}

/* The decision's members of a row's JSON object (doc/json.md). */
static void json_decision(json_t *o, const struct decision *d)
{
	json_object_set_new(o, "subruns_old", json_integer(d->n_a));
	json_object_set_new(o, "subruns_new", json_integer(d->n_b));
	json_object_set_new(o, "answer", json_string(decision_answer_name(d->answer)));
	json_object_set_new(o, "worse", json_boolean(d->answer == DECISION_DIFFERENT && d->worse));
	json_object_set_new(o, "threshold", decision_json_number(d->rule.threshold));
	json_object_set_new(o, "p_different", json_p(d->p_different));
	json_object_set_new(o, "p_same", json_p(d->p_same));
	json_object_set_new(o, "p_different_holm", json_p(d->p_different_adj));
	json_object_set_new(o, "p_same_holm", json_p(d->p_same_adj));
	json_object_set_new(o, "subruns_needed", decision_json_number(d->subruns_needed > 0 ? d->subruns_needed : NAN));
	json_object_set_new(o, "why", d->why ? json_string(d->why) : json_null());
}

void decision_row_print(FILE *out, const struct decision_cols *w, const char *sim, const char *load,
			const struct decision_row *r)
{
	fprintf(out, "%-*s %-*s %-20s %5s %10s %10s %9s %-19s%s%s\n", w->sim, sim, w->load, load, r->figure, r->runs,
		r->old, r->new, r->change, r->interval, *r->answer ? " " : "", r->answer);
}

json_t *decision_row_json(const char *sim, const char *load, const struct decision_row *r)
{
	json_t *o = json_pack("{s:o, s:o, s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:s}",
		JK_SIMULATION, report_text(sim), JK_LOAD, report_text(load), "figure", r->figure,
		"unit", r->unit, "old", decision_json_number(r->old_v), "new", decision_json_number(r->new_v),
		"change", decision_json_number(r->change_v), "change_ci", json_interval(r->change_lo, r->change_hi),
		"change_unit", r->change_unit, "verdict", r->answer);
	if (o && r->d)
		json_decision(o, r->d);
	return o;
}

int decision_counts_json(json_t *obj, const struct decision_counts *c)
{
	json_t *family = json_pack("{s:i, s:f, s:s}", "size", c->family, "alpha", DECISION_ALPHA, "method", "holm");
	json_t *answers = json_pack("{s:i, s:i, s:i, s:i, s:i}", "different", c->different, "worse", c->worse,
				    "better", c->different - c->worse, "same", c->same, "unknown", c->unknown);
	int a = json_object_set_new(obj, "family", family), b = json_object_set_new(obj, "answers", answers);
	return family && answers && a == 0 && b == 0 ? 0 : -1;
}

void decision_method_print(FILE *out, unsigned family)
{
	fprintf(out, "\nAnswers: the unit is the sub-run (each repeat of a pair; Runs says how many of OLD's and NEW's\n"
		"were used, disturbed ones left out).  A latency's change is the ratio of the sub-runs' geometric\n"
		"means, a share's the difference of their means, each with its 95 %% interval (Welch).  DIFFERENT:\n"
		"a change is shown; SAME: the change is shown within the threshold (two one-sided tests,\n"
		"Schuirmann 1987); each needs both Welch's test and the exact permutation test of the sub-runs'\n"
		"labels (Pitman 1937), so 4 or 5 sub-runs a side or more (more in a larger family); UNKNOWN:\n"
		"neither yet, with the sub-runs a side that would answer at the spread seen.  A p99 is judged\n"
		"only where every sub-run says it has the %d samples that can bound it, else p90 is, with\n"
		"p99's threshold, where both sides carry it.\n"
		"Family error (Holm 1979, over the %u judged figures): any false DIFFERENT at most %.0f %%, any\n"
		"false SAME at most %.0f %%.\n",
		DECISION_P99_MIN_SAMPLES, family, 100 * DECISION_ALPHA, 100 * DECISION_ALPHA);
}
