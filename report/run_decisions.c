/* A run's own decisions between its alternatives (report/run_decisions.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "host/disturb.h"
#include "lib/schedpolicy.h"
#include "report/decisions.h"
#include "report/jsonkeys.h"
#include "report/jsonout.h"
#include "report/run_decisions.h"
#include "workloads/pipeline_chain.h"
#include "workloads/workload.h"

/* The first plan item of item i's task and load (its baseline); i itself when it is first. */
static size_t base_of(const struct plan *p, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (p->items[j].task == p->items[i].task && p->items[j].load_index == p->items[i].load_index)
			return j;
	return i;
}

/* The rounds item i and its baseline b both ran: a decision rests on those alone, so that its
 * two sides' sub-runs stay interleaved when one of them was settled before the other (--budget). */
static unsigned common_rounds(const struct matrix *m, size_t i, size_t b)
{
	unsigned ri = matrix_ran(m, i), rb = matrix_ran(m, b);
	return ri < rb ? ri : rb;
}

size_t run_decisions_subruns(const struct matrix *m, size_t i, enum judged_metric metric, struct decision_subrun *s,
			     unsigned rounds)
{
	const struct pair_outcome *reps = matrix_reps(m, i);
	const struct plan_item *it = &m->p.plan->items[i];
	const struct task_figure *f = figure_of_metric(task_figures, task_figures_n, metric);
	bool buffered = it->spec.buffer_periods > 0;
	if (f && !judged_metric_applies(metric, it->spec.desc->has_deadlines,
					it->spec.desc->measures == &pipeline_chain_measures))
		f = NULL;
	size_t n = 0;
	for (unsigned r = 0; r < rounds && r < m->p.repeats; r++) {
		const struct pair_outcome *po = &reps[r];
		if (!po->ran || !po->ok)
			continue;
		const struct pair_summary *sum = &po->bench.summary;
		s[n++] = (struct decision_subrun){
			.value = f && !figure_is_null(f, sum, buffered) ? figure_value(f, sum) : NAN,
			.periods = (double)sum->periods, .samples = (double)sum->samples,
			.usable = !po->interrupted && !disturbance_marked(&po->disturbance) && !po->load_activity.stopped_looks,
		};
	}
	return n;
}

/* The thresholds of item i against base b: the rows' defaults, p99's moved to p90 when a
 * sub-run has too few samples to bound it (DECISION_P99_MIN_SAMPLES). */
static void limits_of(const struct matrix *m, size_t i, size_t b, struct decision_subrun *sa, struct decision_subrun *sb,
		      double limit[JM_METRICS])
{
	for (int k = 0; k < JM_METRICS; k++)
		limit[k] = judged_metric_threshold((enum judged_metric)k);
	unsigned rounds = common_rounds(m, i, b);
	size_t na = run_decisions_subruns(m, b, JM_P99, sa, rounds), nb = run_decisions_subruns(m, i, JM_P99, sb, rounds);
	if (!isnan(limit[JM_P99]) && !decision_p99_bounded(sa, na, sb, nb)) {
		limit[JM_P90] = limit[JM_P99];
		limit[JM_P99] = NAN;
	}
}

/* Appends the judged figures of item i against b to rd (room for JM_METRICS more). */
static void decide_item(const struct matrix *m, size_t i, size_t b, struct decision_subrun *sa,
			struct decision_subrun *sb, struct run_decisions *rd)
{
	double limit[JM_METRICS];
	limits_of(m, i, b, sa, sb, limit);
	for (int k = 0; k < JM_METRICS; k++) {
		if (isnan(limit[k]))
			continue;
		struct run_decision *x = &rd->list[rd->n];
		enum judged_metric metric = (enum judged_metric)k;
		struct decision_rule r = { .ratio = !judged_metric_in_points(metric),
					   .higher_worse = judged_metric_higher_worse(metric), .threshold = limit[k] };
		unsigned rounds = common_rounds(m, i, b);
		size_t na = run_decisions_subruns(m, b, metric, sa, rounds), nb = run_decisions_subruns(m, i, metric, sb, rounds);
		x->item = i, x->base = b, x->m = metric;
		rd->n += decision_measure_subruns(&x->d, &r, judged_metric_is_share(metric), sa, na, sb, nb);
	}
}

/* Answers rd's family and counts its answers. */
static void answer(struct run_decisions *rd)
{
	struct decision *d = malloc((rd->n ? rd->n : 1) * sizeof(*d));
	for (size_t k = 0; d && k < rd->n; k++)
		d[k] = rd->list[k].d;
	rd->family = d ? (unsigned)decision_family(d, rd->n, DECISION_ALPHA) : 0;
	for (size_t k = 0; d && k < rd->n; k++) {
		rd->list[k].d = d[k];
		rd->different += d[k].answer == DECISION_DIFFERENT;
		rd->worse += d[k].answer == DECISION_DIFFERENT && d[k].worse;
		rd->same += d[k].answer == DECISION_SAME;
		rd->unknown += d[k].answer == DECISION_UNKNOWN;
	}
	free(d);
}

int run_decisions_build(const struct matrix *m, struct run_decisions *rd)
{
	const struct plan *p = m->p.plan;
	memset(rd, 0, sizeof(*rd));
	size_t alternatives = 0;
	for (size_t i = 0; i < p->n; i++)
		alternatives += base_of(p, i) != i;
	if (!alternatives)
		return 0;
	rd->list = calloc(alternatives * JM_METRICS, sizeof(*rd->list));
	struct decision_subrun *sa = calloc(2 * (size_t)m->p.repeats, sizeof(*sa)), *sb = sa ? sa + m->p.repeats : NULL;
	if (!rd->list || !sa) {
		free(sa);
		run_decisions_free(rd);
		return -1;
	}
	for (size_t i = 0; i < p->n; i++)
		if (base_of(p, i) != i)
			decide_item(m, i, base_of(p, i), sa, sb, rd);
	free(sa);
	answer(rd);
	return 0;
}

/* The judged figures of the run: over its alternatives, the metrics with a threshold that
 * apply to their task (p99 and p90 count once: one of them is judged). */
static size_t judged_figures(const struct matrix *m)
{
	const struct plan *p = m->p.plan;
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_item *it = &p->items[i];
		for (int k = 0; k < JM_METRICS && base_of(p, i) != i; k++)
			n += k != JM_P90 && !isnan(judged_metric_threshold((enum judged_metric)k)) &&
			     judged_metric_applies((enum judged_metric)k, it->spec.desc->has_deadlines,
						   it->spec.desc->measures == &pipeline_chain_measures);
	}
	return n;
}

/* Whether s[0..n) has fewer than two usable sub-runs with a value and some were left out
 * (disturbed, interrupted, their load stopped): a figure then waits on undisturbed sub-runs. */
static bool too_few_usable(const struct decision_subrun *s, size_t n)
{
	size_t usable = 0, left_out = 0;
	for (size_t j = 0; j < n; j++) {
		usable += s[j].usable && isfinite(s[j].value);
		left_out += !s[j].usable;
	}
	return usable < 2 && left_out;
}

/* The first judged figure of item i against base b not precise at alpha_each: its name, or
 * "disturbed" when a side has too few usable sub-runs (too_few_usable); NULL when every one is. */
static const char *pair_imprecise(const struct matrix *m, size_t i, size_t b, struct decision_subrun *sa,
				  struct decision_subrun *sb, double alpha_each)
{
	double limit[JM_METRICS];
	limits_of(m, i, b, sa, sb, limit);
	for (int k = 0; k < JM_METRICS; k++) {
		if (isnan(limit[k]))
			continue;
		enum judged_metric metric = (enum judged_metric)k;
		struct decision d;
		struct decision_rule r = { .ratio = !judged_metric_in_points(metric),
					   .higher_worse = judged_metric_higher_worse(metric), .threshold = limit[k] };
		unsigned rounds = common_rounds(m, i, b);
		size_t na = run_decisions_subruns(m, b, metric, sa, rounds), nb = run_decisions_subruns(m, i, metric, sb, rounds);
		if (decision_measure_subruns(&d, &r, judged_metric_is_share(metric), sa, na, sb, nb) &&
		    !decision_precise(&d, alpha_each))
			return too_few_usable(sa, na) || too_few_usable(sb, nb) ? "disturbed" : judged_metric_name(metric);
	}
	return NULL;
}

/* The first judged figure of item i (a run without alternatives) not known to --precision: its
 * name, or "disturbed" (too_few_usable); NULL when every one is. */
static const char *own_imprecise(const struct matrix *m, size_t i, struct decision_subrun *s,
				 struct decision_subrun *spare)
{
	double limit[JM_METRICS];
	const struct precision *pr = &m->p.opt->precision;
	limits_of(m, i, i, spare, s, limit);
	for (int k = 0; k < JM_METRICS; k++) {
		if (isnan(limit[k]))
			continue;
		enum judged_metric metric = (enum judged_metric)k;
		bool ratio = !judged_metric_in_points(metric), share = judged_metric_is_share(metric);
		size_t n = run_decisions_subruns(m, i, metric, s, matrix_ran(m, i));
		bool any = false;
		for (size_t j = 0; j < n; j++)
			any |= isfinite(s[j].value);
		double target = ratio ? pr->latency_p99_pct : pr->deadlines_met_pt;
		if (any && !decision_side_precise(s, n, ratio, share, target, DECISION_ALPHA))
			return too_few_usable(s, n) ? "disturbed" : judged_metric_name(metric);
	}
	return NULL;
}

bool run_decisions_settled(const struct matrix *m, size_t item, char *why, size_t whylen)
{
	const struct plan *p = m->p.plan;
	struct decision_subrun *sa = calloc(2 * (size_t)m->p.repeats, sizeof(*sa));
	if (!sa) {
		snprintf(why, whylen, "out of memory");
		return false;
	}
	struct decision_subrun *sb = sa + m->p.repeats;
	size_t family = judged_figures(m);
	double alpha_each = DECISION_ALPHA / (double)(family ? family : 1);
	bool involved = false;
	const char *imprecise = NULL;
	for (size_t j = 0; j < p->n && !imprecise; j++) {
		size_t b = base_of(p, j);
		if (b == j || (j != item && b != item))
			continue;
		involved = true;
		imprecise = pair_imprecise(m, j, b, sa, sb, alpha_each);
	}
	if (!involved)
		imprecise = own_imprecise(m, item, sa, sb);
	free(sa);
	snprintf(why, whylen, "%s", imprecise ? imprecise : "");
	return !imprecise;
}

/* Item i's names in the table: its task with its setting, its load with the loads' setting
 * when the loads are swept. */
static void names_of(const struct matrix *m, size_t i, char *sim, size_t simlen, char *load, size_t loadlen)
{
	const struct plan_item *it = &m->p.plan->items[i];
	char b[128], l[128];
	sched_setting_label(&it->bench_sched, b, sizeof(b));
	sched_setting_label(&m->p.load->s[it->load_setting], l, sizeof(l));
	snprintf(sim, simlen, "%s %s", it->task->name, b);
	if (m->p.load->n > 1)
		snprintf(load, loadlen, "%s (%s)", matrix_load_name(m, i), l);
	else
		snprintf(load, loadlen, "%s", matrix_load_name(m, i));
}

/* The name columns' widths for rd's rows. */
static struct decision_cols cols_of(const struct matrix *m, const struct run_decisions *rd)
{
	struct decision_cols w = { 16, 8 };
	char sim[160], load[160];
	for (size_t k = 0; k < rd->n; k++) {
		names_of(m, rd->list[k].item, sim, sizeof(sim), load, sizeof(load));
		w.sim = (int)strlen(sim) > w.sim ? (int)strlen(sim) : w.sim;
		w.load = (int)strlen(load) > w.load ? (int)strlen(load) : w.load;
	}
	return w;
}

/* Prints rd's rows to out (when not NULL), and appends each as a JSON object with "base", the
 * baseline's names, to a (when not NULL).  Returns 0, or -1 when out of memory. */
static int rows(FILE *out, json_t *a, const struct matrix *m, const struct run_decisions *rd)
{
	struct decision_cols w = cols_of(m, rd);
	if (out)
		decision_header_print(out, &w);
	for (size_t k = 0; k < rd->n; k++) {
		const struct run_decision *x = &rd->list[k];
		char sim[160], load[160], bsim[160], bload[160];
		struct decision_row r;
		names_of(m, x->item, sim, sizeof(sim), load, sizeof(load));
		decision_row_of(x->m, &x->d, &r);
		if (out)
			decision_row_print(out, &w, sim, load, &r);
		if (!a)
			continue;
		names_of(m, x->base, bsim, sizeof(bsim), bload, sizeof(bload));
		json_t *o = decision_row_json(sim, load, &r);
		if (!o || json_object_set_new(o, "base", json_pack("{s:o, s:o}", JK_SIMULATION, report_text(bsim), JK_LOAD, report_text(bload))) != 0 ||
		    json_array_append_new(a, o) != 0)
			return -1;
	}
	return 0;
}

void run_decisions_print(FILE *out, const struct matrix *m, const struct run_decisions *rd)
{
	if (!rd->n)
		return;
	fprintf(out, "\nDecisions: each setting against the first of its task and load, from up to %u sub-run%s "
		"each (%s), interleaved:\n", m->rounds, m->rounds == 1 ? "" : "s", m->p.budget_ns ? "--budget" : "--repeat");
	rows(out, NULL, m, rd);
	decision_method_print(out, rd->family);
	fprintf(out, "%u DIFFERENT (%u worse, %u better), %u SAME, %u UNKNOWN\n", rd->different, rd->worse,
		rd->different - rd->worse, rd->same, rd->unknown);
}

json_t *run_decisions_json(const struct matrix *m, const struct run_decisions *rd)
{
	json_t *figures = json_array();
	if (!figures || rows(NULL, figures, m, rd) != 0) {
		json_decref(figures);
		return NULL;
	}
	struct decision_counts c = { .family = rd->family, .different = rd->different, .worse = rd->worse,
				     .same = rd->same, .unknown = rd->unknown };
	json_t *o = json_pack("{s:i, s:o}", "subruns", m->rounds, "figures", figures);
	if (!o || decision_counts_json(o, &c) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

void run_decisions_free(struct run_decisions *rd)
{
	free(rd->list);
	rd->list = NULL;
	rd->n = 0;
}
