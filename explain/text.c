/* --explain's text (explain/text.h): why a pair's periods were late, and how the causes
 * shifted between two result sets, in words. */
#include <math.h>
#include <inttypes.h>
#include <stdbool.h>
#include "explain/text.h"

/* "tasks 71.3 %, preempted 12.0 %, softirq 6.1 % (TIMER 4.0 %), ...": each part's share. */
static void why_parts(FILE *f, const char *prefix, const struct explain_summary *s)
{
	double total = (double)s->delay_ns;
	bool first = true;
	fprintf(f, "%s ", prefix);
	for (int k = 0; k < EXPLAIN_PARTS; k++) {
		double pct = 100.0 * (double)s->part_ns[k] / total;
		if (pct < 0.05)
			continue;
		fprintf(f, "%s%s %.1f %%", first ? "" : ", ", explain_part_name((enum explain_part)k), pct);
		first = false;
		if (k != EXPLAIN_SOFTIRQ)
			continue;
		const char *sep = " (";
		for (unsigned v = 0; v < EXPLAIN_SOFTIRQS; v++)
			if (100.0 * (double)s->softirq_ns[v] / total >= 0.05) {
				fprintf(f, "%s%s %.1f %%", sep, explain_softirq_name(v), 100.0 * (double)s->softirq_ns[v] / total);
				sep = ", ";
			}
		if (sep[0] == ',')
			fputc(')', f);
	}
	fputc('\n', f);
}

/* "whose tasks: the Burn load 64.2 %, interbench 0.3 %, others 2.0 %": the tasks and
 * preempted parts by whose the tasks were (the tracer's owners; none without it), those of
 * 0.05 % or more. */
static void why_owners(FILE *f, const char *prefix, const struct explain_summary *s, const char *load_name)
{
	static const int order[EXPLAIN_OWNERS] = { EXPLAIN_OWNER_LOAD, EXPLAIN_OWNER_BENCH, EXPLAIN_OWNER_OTHER };
	double total = (double)s->delay_ns;
	const char *sep = "whose tasks: ";
	for (int i = 0; i < EXPLAIN_OWNERS; i++) {
		double pct = 100.0 * (double)s->owner_ns[order[i]] / total;
		if (!(pct >= 0.05))
			continue;
		if (*sep == 'w')
			fprintf(f, "%s ", prefix);
		if (order[i] == EXPLAIN_OWNER_LOAD)
			fprintf(f, "%sthe %s load %.1f %%", sep, load_name, pct);
		else
			fprintf(f, "%s%s %.1f %%", sep, order[i] == EXPLAIN_OWNER_BENCH ? "interbench" : "others", pct);
		sep = ", ";
	}
	if (*sep != 'w')
		fputc('\n', f);
}

/* "by burn (pid 1234, the Burn load, SCHED_OTHER nice 0) 64.2 % in 120 switch-ins; ...": the
 * other tasks with the largest shares, and the largest interrupt handler. */
static void why_culprits(FILE *f, const char *prefix, const struct explain_summary *s, const char *load_name)
{
	double total = (double)s->delay_ns;
	if (!s->nwho && !s->nirq)
		return;
	fprintf(f, "%s by ", prefix);
	for (uint32_t i = 0; i < s->nwho && i < EXPLAIN_TOP; i++) {
		const struct explain_culprit *c = &s->who[i];
		char sched[48], owner[64] = "";
		if (c->owner == EXPLAIN_OWNER_LOAD)
			snprintf(owner, sizeof(owner), "the %s load, ", load_name);
		else if (c->owner == EXPLAIN_OWNER_BENCH)
			snprintf(owner, sizeof(owner), "interbench, ");
		fprintf(f, "%s%s (pid %u, %s%s) %.1f %% in %u switch-ins", i ? "; " : "", c->comm, c->pid, owner,
			explain_sched_text(c, sched, sizeof(sched)), 100.0 * (double)c->ns / total, c->switches);
	}
	if (s->nirq)
		fprintf(f, "%sirq %d %s %.1f %% in %u", s->nwho ? "; " : "", s->irqs[0].irq, s->irqs[0].name,
			100.0 * (double)s->irqs[0].ns / total, s->irqs[0].count);
	fputc('\n', f);
}

/* "stages: game waited 12.0 % (woken 4.0 %), workers waited 30.1 % (woken 9.0 %) and worked
 * 20.0 %, ...": a chain's stages' waits, of them the waits after a wake-up (gross), and past
 * the first (whose own work is not in the delay) their work, as shares of the delay. */
static void why_stages(FILE *f, const char *prefix, const struct explain_summary *s)
{
	double total = (double)s->delay_ns;
	if (s->nstages < 2)
		return;
	fprintf(f, "%s stages:", prefix);
	for (unsigned i = 0; i < s->nstages && i < EXPLAIN_MAX_STAGES; i++) {
		fprintf(f, "%s %s waited %.1f %% (woken %.1f %%)", i ? "," : "", s->stage_name[i],
			100.0 * (double)s->stage_wait_ns[i] / total, 100.0 * (double)s->stage_woken_ns[i] / total);
		if (i)
			fprintf(f, " and worked %.1f %%", 100.0 * (double)s->stage_ran_ns[i] / total);
	}
	fputc('\n', f);
}

/* Ends a why line with the tracer's own CPU share, when known. */
static void why_tracer(FILE *f, const struct explain_summary *s, uint64_t window_ns)
{
	if (s->tracer_run_ns >= 0 && window_ns)
		fprintf(f, "; the tracer took %.3f %% of a CPU", 100.0 * (double)s->tracer_run_ns / (double)window_ns);
	fputc('\n', f);
}

void explain_text_why(FILE *f, const char *prefix, const struct explain_summary *s, const char *load_name,
		      unsigned repeat, uint64_t window_ns)
{
	char rep[32] = "", which[64] = "missed their deadline";
	if (repeat)
		snprintf(rep, sizeof(rep), " (repeat %u)", repeat);
	if (s->threshold_ns)
		snprintf(which, sizeof(which), "missed their deadline or were over %g us late", (double)s->threshold_ns / 1e3);
	if (!s->periods) {
		fprintf(f, "%s no period %s%s", prefix, which, rep);
		why_tracer(f, s, window_ns);
		return;
	}
	fprintf(f, "%s %" PRIu64 " periods %s%s, %.1f ms of delay in all (%s):\n", prefix, s->periods,
		which, rep, (double)s->delay_ns / 1e6, explain_source_name((enum explain_source)s->source));
	why_parts(f, prefix, s);
	why_owners(f, prefix, s, load_name);
	why_culprits(f, prefix, s, load_name);
	why_stages(f, prefix, s);
	fprintf(f, "%s migrations %" PRIu64 ", preemptions %" PRIu64 "; the named parts come within 10 %% "
		"of the delay in %" PRIu64 " of %" PRIu64 " periods", prefix, s->migrations, s->preemptions,
		s->within_10pct, s->periods);
	why_tracer(f, s, window_ns);
}

/* A share for the JSON, null when not finite (a side without delay). */
static json_t *pct_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Appends to f the parts' shares of the explained delay in x -> y (those at 0.5 % or more on
 * either side), then the owners' and the culprits', and sets each pair [x %, y %] in parts,
 * owners and culprits. */
void explain_text_shift(FILE *out, const struct explain_causes *x, const struct explain_causes *y, json_t *parts, json_t *owners,
			json_t *culprits)
{
	if (!(x->periods > 0 || y->periods > 0))
		fputs(" none on either side (no period missed its deadline or passed --explain-threshold)", out);
	const char *sep = " ";
	for (int k = 0; k < EXPLAIN_PARTS; k++) {
		double p0 = explain_causes_part_pct(x, (enum explain_part)k), p1 = explain_causes_part_pct(y, (enum explain_part)k);
		if (!(p0 >= 0.5 || p1 >= 0.5))
			continue;
		fprintf(out, "%s%s %.1f -> %.1f %%", sep, explain_part_name((enum explain_part)k), p0, p1);
		json_object_set_new(parts, explain_part_name((enum explain_part)k), json_pack("[o, o]", pct_json(p0), pct_json(p1)));
		sep = ", ";
	}
	for (unsigned o = 0; o < EXPLAIN_OWNERS; o++) {
		double p0 = explain_causes_owner_pct(x, o), p1 = explain_causes_owner_pct(y, o);
		if (!(p0 >= 0.5 || p1 >= 0.5))
			continue;
		fprintf(out, "%s%s tasks %.1f -> %.1f %%", sep, explain_owner_name(o), p0, p1);
		json_object_set_new(owners, explain_owner_name(o), json_pack("[o, o]", pct_json(p0), pct_json(p1)));
		sep = ", ";
	}
	for (int side = 0; side < 2; side++) {
		const struct explain_causes *c = side ? y : x;
		for (unsigned i = 0; i < c->nculprits && i < 3; i++) {
			const struct explain_culprit_share *k = &c->culprits[i];
			if (side && explain_causes_culprit_pct(x, k->comm, k->owner) > 0)
				continue; /* shown from OLD's side */
			double p0 = explain_causes_culprit_pct(x, k->comm, k->owner), p1 = explain_causes_culprit_pct(y, k->comm, k->owner);
			fprintf(out, "%s%s (%s) %.1f -> %.1f %%", sep, k->comm, k->owner, p0, p1);
			json_array_append_new(culprits, json_pack("{s:s, s:s, s:o, s:o}", EK_COMM, k->comm, EK_OWNER, k->owner,
								  "old_pct", pct_json(p0), "new_pct", pct_json(p1)));
			sep = "; ";
		}
	}
	fputc('\n', out);
}
