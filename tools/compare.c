#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "tools/compare.h"
#include "report/jsonout.h"
#include "report/jsonkeys.h"
#include "tools/plot.h"
#include "lib/optparse.h"
#include "lib/text.h"
#include "lib/interval.h"
#include "decide/decision.h"
#include "report/decisions.h"
#include "explain/text.h"
#include "lib/stats.h"

/* --threshold keys: judged_metric_key (report/figures.c).  mean= and max= also limit the scheduling-latency mean and max when those
 * are the figures compared (latency_definitions). */

static bool is_latency(enum judged_metric m) { return judged_metric_is_latency(m); }

void cmp_default_thresholds(struct cmp_thresholds *t)
{
	for (int m = 0; m < JM_METRICS; m++)
		t->limit[m] = NAN;
	t->match_names = false;
	t->allow_different_machine = false;
	t->allow_different_task = false;
	t->regressions_only = false;
	t->flagged = NULL;
	t->answers = NULL;
	t->json = NULL;
	for (int m = 0; m < JM_METRICS; m++)  /* the figure rows' own (report/figures.c, a task's rows) */
		t->limit[m] = judged_metric_threshold((enum judged_metric)m);
}

static int threshold_bad_value(const char *val, const char *item, int m, char *err, size_t errlen)
{
	snprintf(err, errlen, "--threshold: invalid value '%s' for %s (accepted: a number from 0 to 1000000%s, or off)",
		 val, item, judged_metric_in_points(m) ? "" : ", optionally followed by %");
	return -1;
}

/* One KEY=VALUE item (item is NUL-terminated).  Returns 0, or -1 with err set. */
static int threshold_item(char *item, struct cmp_thresholds *t, char *err, size_t errlen)
{
	char *eq = strchr(item, '=');
	int m = 0;
	if (eq)
		*eq = '\0';
	while (m < JM_METRICS && strcmp(item, judged_metric_key((enum judged_metric)m)) != 0)
		m++;
	if (!eq || m == JM_METRICS) {
		snprintf(err, errlen, "--threshold: invalid item '%s' (accepted: mean=, p99=, max= a percentage; "
			 "cpu=, deadlines= points; or KEY=off)", item);
		return -1;
	}
	const char *val = eq + 1;
	if (strcmp(val, "off") == 0) {
		t->limit[m] = NAN;
		return 0;
	}
	char *end;
	if (strspn(val, "0123456789.%") != strlen(val)) /* decimal only: no hex, exponent, inf */
		return threshold_bad_value(val, item, m, err, errlen);
	double v = strtod(val, &end);
	if (!judged_metric_in_points(m) && *end == '%')
		end++;
	if (end == val || *end || !isfinite(v) || v < 0 || v > 1e6 || *val == '-' || *val == ' ')
		return threshold_bad_value(val, item, m, err, errlen);
	t->limit[m] = v;
	return 0;
}

static int parse_thresholds(const char *spec, struct cmp_thresholds *t, char *err, size_t errlen);

int cmp_parse_thresholds(const char *spec, struct cmp_thresholds *t, char *err, size_t errlen)
{
	int rc = parse_thresholds(spec, t, err, errlen);
	if (rc != 0)
		text_printable_line(err);
	return rc;
}

static int parse_thresholds(const char *spec, struct cmp_thresholds *t, char *err, size_t errlen)
{
	char *copy = strdup(spec), *rest = copy;
	int rc = copy && *copy ? 0 : -1;
	if (rc)
		snprintf(err, errlen, "--threshold: empty (accepted: e.g. p99=10%%,deadlines=1)");
	for (char *it = rc ? NULL : strsep(&rest, ","); it && rc == 0; it = strsep(&rest, ","))
		rc = threshold_item(it, t, err, errlen);  /* an empty item ("p99=5," or ",") is refused */
	free(copy);
	return rc;
}

/* Values of metric m over p's repeats into v (n of them, NaN skipped).  Returns the count. */
static size_t collect(const struct rs_pair *p, enum judged_metric m, double *v)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++)
		if (!isnan(p->v[i].m[m]))
			v[n++] = p->v[i].m[m];
	return n;
}

double cmp_median(const struct rs_pair *p, enum judged_metric m)
{
	double *v = malloc((p->n + 1) * sizeof(double));
	size_t n = v ? collect(p, m, v) : 0;
	double med = n ? median_of(v, (unsigned)n) : NAN;
	free(v);
	return med;
}

/* The repeats of p that took no latency sample (rs_values.no_samples: the task never ran). */
static size_t starved_repeats(const struct rs_pair *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++)
		n += p->v[i].no_samples;
	return n;
}

/* Whether t limits any latency figure. */
static bool latency_limited(const struct cmp_thresholds *t)
{
	for (int m = 0; m < JM_METRICS; m++)
		if (is_latency((enum judged_metric)m) && !isnan(t->limit[m]))
			return true;
	return false;
}

bool cmp_starved_regression(const struct rs_pair *a, const struct rs_pair *b, const struct cmp_thresholds *t)
{
	if (a->n == 0 || b->n == 0 || !latency_limited(t))
		return false;
	return starved_repeats(b) * a->n > starved_repeats(a) * b->n;  /* b's share > a's */
}

/* The sub-runs of metric m of p into s[0..p->n): each repeat's value (a starved repeat's
 * latency, +inf, left out: the starved repeats' row judges those), its periods and samples,
 * usable unless disturbed or run with its load stopped. */
static void subruns_of(const struct rs_pair *p, enum judged_metric m, struct decision_subrun *s)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct rs_values *v = &p->v[i];
		s[i] = (struct decision_subrun){ .value = m < JM_METRICS ? v->m[m] : NAN, .periods = v->periods,
						 .samples = v->samples, .usable = !v->disturbed && !v->load_stopped };
	}
}

/* Whether a repeat of p carries metric m. */
static bool carries(const struct rs_pair *p, enum judged_metric m)
{
	for (size_t i = 0; i < p->n; i++)
		if (!isnan(p->v[i].m[m]))
			return true;
	return false;
}

void cmp_pair_limits(const struct rs_pair *a, const struct rs_pair *b, const struct cmp_thresholds *t,
		     double limit[JM_METRICS])
{
	memcpy(limit, t->limit, sizeof(t->limit));
	struct decision_subrun *s = malloc((a->n + b->n + 1) * sizeof(*s));
	bool bounded = true;
	if (s) {
		subruns_of(a, JM_METRICS, s);
		subruns_of(b, JM_METRICS, s + a->n);
		bounded = decision_p99_bounded(s, a->n, s + a->n, b->n);
	}
	free(s);
	if (isnan(t->limit[JM_P99]) || bounded)
		return;
	limit[JM_P99] = NAN;  /* reported, not judged: p90 in its place where both results carry it */
	if (isnan(limit[JM_P90]) && carries(a, JM_P90) && carries(b, JM_P90))
		limit[JM_P90] = t->limit[JM_P99];
}

bool compare_measure(const struct rs_pair *a, const struct rs_pair *b, enum judged_metric m, double limit,
		     struct decision *d)
{
	struct decision_subrun *s = malloc((a->n + b->n + 1) * sizeof(*s));
	struct decision_rule r = { .ratio = !judged_metric_in_points(m), .higher_worse = judged_metric_higher_worse(m),
				   .threshold = limit };
	bool have = false;
	if (s) {
		subruns_of(a, m, s);
		subruns_of(b, m, s + a->n);
		have = decision_measure_subruns(d, &r, judged_metric_is_share(m), s, a->n, s + a->n, b->n);
	} else {
		decision_measure(d, &r, NULL, 0, NULL, 0, 0, 0);
	}
	free(s);
	return have;
}

/* Appends value v to the array under key of t->json (created on first use). */
static void json_push(const struct cmp_thresholds *t, const char *key, json_t *v)
{
	if (!t->json) {
		json_decref(v);
		return;
	}
	json_t *a = json_object_get(t->json, key);
	if (!a)
		json_object_set_new(t->json, key, a = json_array());
	json_array_append_new(a, v);
}

/* The "starved repeats" row of pairs a (OLD) and b (NEW), when either has one: how many of
 * their repeats took no latency sample, a regression as cmp_starved_regression says.  Returns
 * whether it is one. */
static bool print_starved(FILE *out, const struct decision_cols *w, const struct rs_pair *a, const struct rs_pair *b,
			  const struct cmp_thresholds *t)
{
	size_t sa = starved_repeats(a), sb = starved_repeats(b);
	bool regression = cmp_starved_regression(a, b, t);
	struct decision_row r = {
		.figure = "starved repeats", .unit = "%", .change_unit = "pt", .interval = "-",
		.change_lo = NAN, .change_hi = NAN,
		.old_v = 100.0 * (double)sa / (double)a->n, .new_v = 100.0 * (double)sb / (double)b->n,
	};
	snprintf(r.answer, sizeof(r.answer), "%s", regression ? "REGRESSION" : "");
	r.change_v = r.new_v - r.old_v;
	snprintf(r.runs, sizeof(r.runs), "%zu:%zu", a->n, b->n);
	snprintf(r.old, sizeof(r.old), "%zu of %zu", sa, a->n);
	snprintf(r.new, sizeof(r.new), "%zu of %zu", sb, b->n);
	snprintf(r.change, sizeof(r.change), "%+.2f pt", r.change_v);
	decision_row_print(out, w, a->sim, a->load, &r);
	if (t->json)
		json_push(t, "figures", decision_row_json(a->sim, a->load, &r));
	return regression;
}

/* Notes pair a as flagged, once. */
static void note_flagged(struct cmp_flagged *f, const struct rs_pair *a)
{
	for (unsigned i = 0; i < f->n; i++)
		if (strcmp(f->sim[i], a->sim) == 0 && strcmp(f->load[i], a->load) == 0)
			return;
	if (f->n == CMP_FLAGGED_MAX)
		return;
	snprintf(f->sim[f->n], sizeof(f->sim[f->n]), "%s", a->sim);
	snprintf(f->load[f->n], sizeof(f->load[f->n]), "%s", a->load);
	f->n++;
}

/* The tally of a comparison's answers, for the lines under the table and the exit status. */
struct cmp_tally {
	unsigned regressions;     /* DIFFERENT worse, starved in NEW, failed in NEW only */
	unsigned different, better, same, unknown, family;
	unsigned undecided_pairs; /* pairs failed in OLD, or with nothing to judge */
	bool starved;             /* a pair has a starved repeat */
};

/* The line of a pair that failed in OLD or NEW (no repeat measured).  Returns whether it is a
 * regression: failed in NEW only, and not because a signal cut its window short (left out, as
 * the README says). */
static bool print_failed(FILE *out, const struct decision_cols *w, const struct rs_pair *a, const struct rs_pair *b,
			 const struct cmp_thresholds *t)
{
	bool regressed = a->n > 0 && strcmp(b->why, RS_INTERRUPTED_WHY) != 0;
	const char *in = a->n == 0 ? "OLD" : "NEW", *why = a->n == 0 ? a->why : b->why;
	fprintf(out, "%-*s %-*s failed in %s: %s%s\n", w->sim, a->sim, w->load, a->load, in, why,
		regressed ? "  REGRESSION" : " (not compared)");
	if (t->json)
		json_push(t, "failed", json_pack("{s:o, s:o, s:s, s:o, s:b}", JK_SIMULATION, report_text(a->sim),
			JK_LOAD, report_text(a->load), "in", in, "why", report_text(why), "regression", regressed));
	return regressed;
}

/* For a flagged pair whose results carry --explain's causes, how they shifted
 * (explain_text_shift): one line under its rows, and "causes" in the JSON. */
static void print_causes(FILE *out, const struct decision_cols *w, const struct rs_pair *a, const struct rs_pair *b,
			 const struct cmp_thresholds *t)
{
	const struct explain_causes *x = &a->causes, *y = &b->causes;
	if (!x->has && !y->has)
		return;
	json_t *parts = json_object(), *owners = json_object(), *culprits = json_array();
	fprintf(out, "%-*s %-*s causes, share of the explained delay OLD -> NEW (%.0f -> %.0f periods):", w->sim, a->sim,
		w->load, a->load, x->periods, y->periods);
	explain_text_shift(out, x, y, parts, owners, culprits);
	json_push(t, "causes", json_pack("{s:o, s:o, s:o, s:o, s:o}", JK_SIMULATION, report_text(a->sim), JK_LOAD,
					 report_text(a->load), "parts_pct", parts, "owners_pct", owners, "culprits",
					 culprits));
}

/* One judged or reported figure of a pair in both sets. */
struct cmp_figure {
	const struct rs_pair *a, *b;
	enum judged_metric m;
	struct decision d;
};

/* A comparison's figures, measured before any is answered (the family is answered whole). */
struct cmp_family {
	struct cmp_figure *f;
	size_t n, cap;
};

/* Measures every figure of pair a (OLD) against b (NEW) into fam.  Returns -1 when out of
 * memory. */
static int measure_pair(const struct rs_pair *a, const struct rs_pair *b, const struct cmp_thresholds *t,
			const bool skip[JM_METRICS], struct cmp_family *fam)
{
	double limit[JM_METRICS];
	cmp_pair_limits(a, b, t, limit);
	for (int m = 0; m < JM_METRICS; m++) {
		if (skip[m] || (m == JM_P90 && isnan(limit[m])))
			continue;
		if (fam->n == fam->cap) {
			size_t cap = fam->cap ? 2 * fam->cap : 64;
			struct cmp_figure *f = realloc(fam->f, cap * sizeof(*f));
			if (!f)
				return -1;
			fam->f = f, fam->cap = cap;
		}
		struct cmp_figure *f = &fam->f[fam->n];
		f->a = a, f->b = b, f->m = (enum judged_metric)m;
		fam->n += compare_measure(a, b, f->m, limit[m], &f->d);
	}
	return 0;
}

/* Prints pair a's figures (fam->f[*at..], in order) and its starved repeats' row when either
 * side has one, counting the answers into tl. */
static void print_pair(FILE *out, const struct decision_cols *w, const struct cmp_family *fam, size_t *at,
		       const struct rs_pair *a, const struct rs_pair *b, const struct cmp_thresholds *t, struct cmp_tally *tl)
{
	unsigned regressions = 0;
	for (; *at < fam->n && fam->f[*at].a == a; (*at)++) {
		const struct cmp_figure *f = &fam->f[*at];
		struct decision_row r;
		decision_row_of(f->m, &f->d, &r);
		decision_row_print(out, w, a->sim, a->load, &r);
		if (t->json)
			json_push(t, "figures", decision_row_json(a->sim, a->load, &r));
		bool worse = f->d.answer == DECISION_DIFFERENT && f->d.worse;
		regressions += worse;
		tl->different += f->d.answer == DECISION_DIFFERENT;
		tl->better += f->d.answer == DECISION_DIFFERENT && !f->d.worse;
		tl->same += f->d.answer == DECISION_SAME;
		tl->unknown += f->d.answer == DECISION_UNKNOWN;
	}
	if (starved_repeats(a) || starved_repeats(b)) {
		tl->starved = true;
		regressions += print_starved(out, w, a, b, t);
	}
	if (regressions && t->flagged)
		note_flagged(t->flagged, a);
	if (regressions)
		print_causes(out, w, a, b, t);
	tl->regressions += regressions;
}

/* The lines under the table: how the answers were reached and what they add up to. */
static void print_answers(FILE *out, const struct cmp_tally *tl, const struct cmp_thresholds *t)
{
	decision_method_print(out, tl->family);
	if (tl->starved)
		fprintf(out, "Starved: a repeat that took no latency sample (the task never ran) is left out of the figures "
			"and counted in its own row; a larger share of starved repeats in NEW than in OLD is a regression "
			"whenever a latency threshold is set.\n");
	struct decision_counts c = { .family = tl->family, .different = tl->different,
				     .worse = tl->different - tl->better, .same = tl->same, .unknown = tl->unknown };
	if (t->json)
		decision_counts_json(t->json, &c);
}

static size_t max_repeats(const struct result_set *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n = s->pairs[i].n > n ? s->pairs[i].n : n;
	return n;
}

static void print_notes(FILE *out, const struct result_set *old, const struct result_set *new,
			const struct cmp_thresholds *t, const bool skip[JM_METRICS])
{
	fprintf(out, "Thresholds:");
	bool any = false;
	for (int m = 0; m < JM_METRICS; m++)  /* those of figures some result has */
		if (!isnan(t->limit[m]) && !skip[m] && (old->has[m] || new->has[m])) {
			fprintf(out, "%s %s %s%g%s", any ? "," : "", judged_metric_name(m), judged_metric_higher_worse(m) ? "+" : "-",
				t->limit[m], judged_metric_in_points(m) ? " pt" : "%");
			any = true;
		}
	fprintf(out, "%s\n", any ? "" : " none (report only)");
	for (int m = 0; m < JM_METRICS; m++)
		if (!skip[m] && old->has[m] != new->has[m])
			fprintf(out, "Not compared: %s (not in %s: %s)%s\n", judged_metric_name(m), !old->has[m] ? "OLD" : "NEW",
				!old->has[m] ? old->format : new->format,
				isnan(t->limit[m]) ? "" : "; its threshold is not applied");
}

/* Says that fact a of OLD and b of NEW (same name) differ: a warning, or for a different CPU
 * model or count without --allow-different-machine, or a different task file's model without
 * --allow-different-task, a refusal.  The names and values come from
 * the files: escaped on the terminal (text_escape_line), replaced where not UTF-8 in the JSON
 * (report_text; a name cut at rs_fact's size may end mid-character).  Returns 0, or -1
 * (reason on err). */
static int fact_differs(const struct rs_fact *a, const struct rs_fact *b, const struct cmp_thresholds *t, FILE *out,
			FILE *err)
{
	char name[4 * sizeof(a->name)], va[sizeof(a->value)], vb[sizeof(b->value)];
	text_escape_line(a->name, name, sizeof(name));
	text_escape_line(a->value, va, sizeof(va));
	text_escape_line(b->value, vb, sizeof(vb));
	if (strcmp(a->name, JK_TASK_FILE_DIGEST) == 0 && !t->allow_different_task) {
		text_message(err, "interbench compare: different tasks (the task files' models differ: OLD %s, NEW %s; "
			     "the run's JSON has each under run.task_file.model); a change of the task is not one of "
			     "the kernel: --allow-different-task compares them anyway, to judge the task's change", va, vb);
		return -1;
	}
	bool machine = strcmp(a->name, JK_CPU_MODEL) == 0 || strcmp(a->name, JK_ONLINE_CPUS) == 0;
	if (machine && !t->allow_different_machine) {
		text_message(err, "interbench compare: different machines (%s: OLD '%s', NEW '%s'); "
			"--allow-different-machine compares them anyway", name, va, vb);
		return -1;
	}
	fprintf(out, "Warning: %s differs: OLD '%s', NEW '%s'\n", name, va, vb);
	json_push(t, "warnings", json_pack("{s:o, s:o, s:o}", "setting", report_text(a->name),
					    "old", report_text(a->value), "new", report_text(b->value)));
	return 0;
}

/* Lists, before any figure, the facts of the machine and set-up that differ between OLD and
 * NEW (the kernel aside: usually the point).  A different CPU model or count makes the
 * comparison one of machines, refused unless allowed.  Returns 0, or -1 (reason on err).
 * At most RS_FACTS x RS_FACTS comparisons. */
static int machine_guard(const struct result_set *old, const struct result_set *new, const struct cmp_thresholds *t,
			 FILE *out, FILE *err)
{
	for (unsigned i = 0; i < old->n_facts; i++)
		for (unsigned j = 0; j < new->n_facts; j++) {
			const struct rs_fact *a = &old->facts[i], *b = &new->facts[j];
			if (strcmp(a->name, b->name) == 0 && strcmp(a->value, b->value) != 0 &&
			    fact_differs(a, b, t, out, err) != 0)
				return -1;
		}
	return 0;
}

/* The definition of mean and max latency both results carry (resultset.h): interbench 0.31's
 * when both have it, else scheduling latency (with mean= and max= limiting it), the other
 * left out through skip.  Writes the line saying which was compared to out.  Returns 0, or -1
 * (reason on err) when both carry mean latency but in no common definition: comparing them
 * would report a change of definition as a change of the kernel. */
static int latency_definitions(const char *old_name, const struct result_set *old, const char *new_name,
			       const struct result_set *new, struct cmp_thresholds *t, bool skip[JM_METRICS],
			       FILE *out, FILE *err)
{
	bool ib = old->has[JM_MEAN] && new->has[JM_MEAN], sched = old->has[JM_SMEAN] && new->has[JM_SMEAN];
	bool old_any = old->has[JM_MEAN] || old->has[JM_SMEAN], new_any = new->has[JM_MEAN] || new->has[JM_SMEAN];
	if (!ib && !sched && old_any && new_any) {
		const struct result_set *s = old->has[JM_MEAN] ? new : old;
		text_message(err, "interbench compare: %s's mean and max latency are scheduling latency, %s's are interbench "
			"0.31's (scheduling latency plus one period per missed deadline): not comparable (a logfile of this "
			"program from before the definitions line; compare JSON results, which carry both, or logfiles "
			"of the same kind)", s == old ? old_name : new_name, s == old ? new_name : old_name);
		return -1;
	}
	skip[ib ? JM_SMEAN : JM_MEAN] = skip[ib ? JM_SMAX : JM_MAX] = true;
	if (!ib && sched) {
		t->limit[JM_SMEAN] = t->limit[JM_MEAN];
		t->limit[JM_SMAX] = t->limit[JM_MAX];
	}
	const char *what = ib ? "mean and max in interbench 0.31's definition (scheduling latency plus one period per "
				"missed deadline)" : sched ? "mean and max as scheduling latency (interbench 0.31's definition is "
				"not in both)" : "no mean or max latency is in both";
	char line[400];
	snprintf(line, sizeof(line), "Latency compared: %s; p99 and p90 are scheduling latency", what);
	text_wrap(out, line, 100, "  ");
	if (t->json)
		json_object_set_new(t->json, "latency_compared", json_string(ib ? "interbench" : sched ? "scheduling" : "none"));
	return 0;
}

/* NEW's pair matching OLD's pair a: same key, or with by_name the same task and load names. */
static const struct rs_pair *match(const struct result_set *new, const struct rs_pair *a, bool by_name)
{
	return by_name ? result_set_find_name(new, a->sim, a->load) : result_set_find(new, a->sim, a->load);
}

static struct decision_cols table_cols(const struct result_set *old, const struct result_set *new, bool match_names)
{
	struct decision_cols w = { 16, 8 };
	for (size_t i = 0; i < old->n; i++)
		if (match(new, &old->pairs[i], match_names)) {
			int ns = (int)strlen(old->pairs[i].sim), nl = (int)strlen(old->pairs[i].load);
			w.sim = ns > w.sim ? ns : w.sim;
			w.load = nl > w.load ? nl : w.load;
		}
	return w;
}

/* Warns that pair p of side in ("OLD", "NEW") was disturbed: other processes took the run's
 * CPUs (tools/resultset.h rs_pair.disturbed): those sub-runs are left out of its answers. */
static void disturbed_warning(const struct rs_pair *p, const char *in, const struct cmp_thresholds *t, FILE *out)
{
	char sim[4 * sizeof(p->sim)], load[4 * sizeof(p->load)], share[48] = "";
	text_escape_line(p->sim, sim, sizeof(sim));
	text_escape_line(p->load, load, sizeof(load));
	if (!isnan(p->outside_cpu_pct))
		snprintf(share, sizeof(share), " (outside CPU %.0f %%)", p->outside_cpu_pct);
	fprintf(out, "Warning: %s/%s: %u of %s's %zu sub-runs disturbed%s: left out of its answers\n", sim, load,
		p->disturbed, in, p->n, share);
	json_push(t, "disturbed", json_pack("{s:o, s:o, s:s, s:o}", JK_SIMULATION, report_text(p->sim),
					     JK_LOAD, report_text(p->load), "in", in,
					     "outside_cpu_pct", decision_json_number(p->outside_cpu_pct)));
}

/* Warns that pair p of side in ("OLD", "NEW") was measured with its load stopped (tools/
 * resultset.h rs_pair.load_stopped): those sub-runs do not measure their load and are left out. */
static void load_stopped_warning(const struct rs_pair *p, const char *in, const struct cmp_thresholds *t, FILE *out)
{
	char sim[4 * sizeof(p->sim)], load[4 * sizeof(p->load)];
	text_escape_line(p->sim, sim, sizeof(sim));
	text_escape_line(p->load, load, sizeof(load));
	fprintf(out, "Warning: %s/%s: %u of %s's %zu sub-runs ran with their load stopped: left out of its answers\n",
		sim, load, p->load_stopped, in, p->n);
	json_push(t, "load_stopped", json_pack("{s:o, s:o, s:s}", JK_SIMULATION, report_text(p->sim),
						JK_LOAD, report_text(p->load), "in", in));
}

/* Warns, before the table, of every pair in both sets disturbed in either. */
static void disturbed_warnings(const struct result_set *old, const struct result_set *new,
			       const struct cmp_thresholds *t, FILE *out)
{
	for (size_t i = 0; i < old->n; i++) {
		const struct rs_pair *a = &old->pairs[i], *b = match(new, a, t->match_names);
		if (b && a->disturbed)
			disturbed_warning(a, "OLD", t, out);
		if (b && b->disturbed)
			disturbed_warning(b, "NEW", t, out);
		if (b && a->load_stopped)
			load_stopped_warning(a, "OLD", t, out);
		if (b && b->load_stopped)
			load_stopped_warning(b, "NEW", t, out);
	}
}

/* Measures every figure of the pairs in both sets into fam, in OLD's order, and prints the
 * lines of pairs failed on either side into tl.  Returns -1 when out of memory. */
static int measure_all(const struct result_set *old, const struct result_set *new, const struct cmp_thresholds *t,
		       const bool skip[JM_METRICS], struct cmp_family *fam)
{
	for (size_t i = 0; i < old->n; i++) {
		const struct rs_pair *a = &old->pairs[i], *b = match(new, a, t->match_names);
		if (b && a->n > 0 && b->n > 0 && measure_pair(a, b, t, skip, fam) != 0)
			return -1;
	}
	return 0;
}

/* Copies the answered figures of fam into *out (none when out of memory). */
static void keep_answers(const struct cmp_family *fam, struct cmp_answers *out)
{
	out->a = malloc((fam->n ? fam->n : 1) * sizeof(*out->a));
	out->n = 0;
	for (size_t i = 0; out->a && i < fam->n; i++, out->n++) {
		struct cmp_answer *c = &out->a[i];
		snprintf(c->sim, sizeof(c->sim), "%s", fam->f[i].a->sim);
		snprintf(c->load, sizeof(c->load), "%s", fam->f[i].a->load);
		c->m = fam->f[i].m;
		c->d = fam->f[i].d;
	}
}

/* Prints the table of the pairs in both sets from fam (answered), tallying into tl. */
static void print_table(FILE *out, const struct result_set *old, const struct result_set *new,
			const struct cmp_thresholds *t, const struct cmp_family *fam, struct cmp_tally *tl)
{
	struct decision_cols w = table_cols(old, new, t->match_names);
	size_t at = 0;
	decision_header_print(out, &w);
	for (size_t i = 0; i < old->n; i++) {
		const struct rs_pair *a = &old->pairs[i], *b = match(new, a, t->match_names);
		if (!b)
			continue;
		if (a->n == 0 || b->n == 0) {
			bool regressed = print_failed(out, &w, a, b, t);
			tl->regressions += regressed;
			tl->undecided_pairs += !regressed;
			continue;
		}
		print_pair(out, &w, fam, &at, a, b, t, tl);
	}
}

/* The comparison's exit status from its tally: a regression 1, else something undecided 3
 * (0 with t->regressions_only), else 0. */
static int exit_status(const struct cmp_tally *tl, const struct cmp_thresholds *t)
{
	if (tl->regressions)
		return CMP_REGRESSION;
	return (tl->unknown || tl->undecided_pairs) && !t->regressions_only ? CMP_UNDECIDED : CMP_OK;
}

/* The last line: the answer in one line. */
static void print_verdict(FILE *out, unsigned common, const struct cmp_tally *tl, int rc, const struct cmp_thresholds *t)
{
	fprintf(out, "%u pair%s compared: %u regression%s; %u DIFFERENT (%u worse, %u better), %u SAME, %u UNKNOWN%s",
		common, common == 1 ? "" : "s", tl->regressions, tl->regressions == 1 ? "" : "s", tl->different,
		tl->different - tl->better, tl->better, tl->same, tl->unknown,
		tl->undecided_pairs ? "; pairs failed in OLD not compared" : "");
	fprintf(out, " (exit %d: %s)\n", rc, rc == CMP_REGRESSION ? "a regression" : rc == CMP_UNDECIDED ? "undecided" :
		tl->unknown || tl->undecided_pairs ? "no regression shown; undecided figures allowed by --regressions-only" :
		"no regression, every judged figure decided");
	if (t->json) {
		json_object_set_new(t->json, "pairs_compared", json_integer(common));
		json_object_set_new(t->json, "regressions", json_integer(tl->regressions));
	}
}

/* The pairs of fam whose figure m was answered a (and, for DIFFERENT, worse or not), as
 * "Audio/Hack +37.4%, X/Burn +272.2%" into buf when at most `list` of them, else their count
 * ("9 pairs").  Returns how many there were. */
static unsigned answer_pairs(const struct cmp_family *fam, enum judged_metric m, enum decision_answer a, bool worse,
			     unsigned list, char *buf, size_t len)
{
	unsigned n = 0;
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < fam->n; i++)
		n += fam->f[i].m == m && fam->f[i].d.answer == a && (a != DECISION_DIFFERENT || fam->f[i].d.worse == worse);
	if (n > list) {
		snprintf(buf, len, "%u pair%s", n, n == 1 ? "" : "s");
		return n;
	}
	for (size_t i = 0; i < fam->n && at < len; i++) {
		const struct cmp_figure *f = &fam->f[i];
		if (f->m != m || f->d.answer != a || (a == DECISION_DIFFERENT && f->d.worse != worse))
			continue;
		char sim[4 * sizeof(f->a->sim)], load[4 * sizeof(f->a->load)], change[40];
		struct decision_row r;
		decision_row_of(m, &f->d, &r);
		snprintf(change, sizeof(change), " %s", r.change);
		text_escape_line(f->a->sim, sim, sizeof(sim));
		text_escape_line(f->a->load, load, sizeof(load));
		int w = snprintf(buf + at, len - at, "%s%s/%s%s", at ? ", " : "", sim, load,
				 a == DECISION_DIFFERENT ? change : "");
		at += w > 0 ? (size_t)w : 0;
	}
	return n;
}

/* The rest of figure m's line of the decision: " worse in Audio/Hack +37.4%; same in 4 pairs;
 * unknown in 4 pairs" (the pairs named for worse and better, up to 8, counted for the others). */
static void decision_figure(FILE *out, const struct cmp_family *fam, enum judged_metric m)
{
	static const struct { enum decision_answer a; bool worse; const char *word; unsigned list; } kinds[] = {
		{ DECISION_DIFFERENT, true, "worse", 8 }, { DECISION_DIFFERENT, false, "better", 8 },
		{ DECISION_SAME, false, "same", 0 }, { DECISION_UNKNOWN, false, "unknown", 0 },
	};
	char pairs[1024];
	bool any = false;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (!answer_pairs(fam, m, kinds[k].a, kinds[k].worse, kinds[k].list, pairs, sizeof(pairs)))
			continue;
		fprintf(out, "%s%s in %s", any ? "; " : " ", kinds[k].word, pairs);
		any = true;
	}
}

/* The answer first: one line of counts and the exit status, the error rates the answers
 * hold to, then one line per judged figure (decision_figure); the rows follow. */
static void print_decision(FILE *out, const struct cmp_family *fam, const struct cmp_tally *tl, int rc)
{
	fprintf(out, "Decision: %u worse, %u better, %u same, %u unknown of the judged figures", tl->different - tl->better,
		tl->better, tl->same, tl->unknown);
	if (tl->regressions > tl->different - tl->better)
		fprintf(out, "; %u more regressions (pairs failed or starved in NEW)", tl->regressions - (tl->different - tl->better));
	fprintf(out, " (exit %d: %s)\n", rc, rc == CMP_REGRESSION ? "a regression" : rc == CMP_UNDECIDED ? "undecided" :
		"no regression");
	if (tl->family)
		fprintf(out, "  error rates: a false worse or better at most %.0f %%, a false same at most %.0f %% "
			"(Holm, %u tested)\n", 100 * DECISION_ALPHA, 100 * DECISION_ALPHA, tl->family);
	else
		fprintf(out, "  error rates: no figure had the sub-runs a side for a test, so none is decided\n");
	for (int m = 0; m < JM_METRICS; m++) {
		bool answered = false;
		for (size_t i = 0; i < fam->n && !answered; i++)
			answered = (int)fam->f[i].m == m && fam->f[i].d.answer != DECISION_REPORTED;
		if (!answered)
			continue;
		fprintf(out, "  %s:", judged_metric_name((enum judged_metric)m));
		decision_figure(out, fam, (enum judged_metric)m);
		fprintf(out, "\n");
	}
}

/* compare_sets' work, its text into out (compare_sets prints the decision before it): the
 * family measured and answered into fam, the answers tallied into tl.  Returns the exit
 * status. */
static int compare_body(const char *old_name, const struct result_set *old, const char *new_name,
			const struct result_set *new, struct cmp_thresholds *t, FILE *out, FILE *err,
			struct cmp_family *fam, struct cmp_tally *tally)
{
	unsigned common = 0;
	bool skip[JM_METRICS] = { false };
	for (size_t i = 0; i < old->n; i++)
		common += match(new, &old->pairs[i], t->match_names) != NULL;
	if (common == 0) {
		bool by_name = false;
		for (size_t i = 0; i < old->n; i++)
			by_name |= match(new, &old->pairs[i], true) != NULL;
		if (by_name)
			text_message(err, "interbench compare: %s and %s have no (simulation, load) pair at the same settings "
				"(nice, policy, slice, wake-up, CPUs, load threads, scheduler); --match simulation,load "
				"compares them anyway", old_name, new_name);
		else
			text_message(err, "interbench compare: %s and %s have no (simulation, load) pair in common", old_name,
				new_name);
		return CMP_BAD_INPUT;
	}
	fprintf(out, "OLD %s (%s, up to %zu sub-runs)\nNEW %s (%s, up to %zu sub-runs)\n", old_name, old->format,
		max_repeats(old), new_name, new->format, max_repeats(new));
	if (t->json) {
		json_object_set_new(t->json, "old", report_text(old_name));
		json_object_set_new(t->json, "new", report_text(new_name));
	}
	if (machine_guard(old, new, t, out, err) != 0 ||
	    latency_definitions(old_name, old, new_name, new, t, skip, out, err) != 0)
		return CMP_BAD_INPUT;
	print_notes(out, old, new, t, skip);
	disturbed_warnings(old, new, t, out);
	if (measure_all(old, new, t, skip, fam) != 0) {
		text_message(err, "interbench compare: out of memory");
		return CMP_BAD_INPUT;
	}
	struct decision *d = malloc((fam->n ? fam->n : 1) * sizeof(*d));
	for (size_t i = 0; d && i < fam->n; i++)
		d[i] = fam->f[i].d;
	tally->family = d ? (unsigned)decision_family(d, fam->n, DECISION_ALPHA) : 0;
	for (size_t i = 0; d && i < fam->n; i++)
		fam->f[i].d = d[i];
	free(d);
	if (t->answers)
		keep_answers(fam, t->answers);
	print_table(out, old, new, t, fam, tally);
	print_answers(out, tally, t);
	int rc = exit_status(tally, t);
	print_verdict(out, common, tally, rc, t);
	return rc;
}

int compare_sets(const char *old_name, const struct result_set *old, const char *new_name,
		 const struct result_set *new, const struct cmp_thresholds *limits, FILE *out, FILE *err)
{
	struct cmp_thresholds tl_ = *limits, *t = &tl_;
	struct cmp_family fam = { NULL, 0, 0 };
	struct cmp_tally tally = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *body = open_memstream(&text, &len);
	if (!body) {
		text_message(err, "interbench compare: open_memstream: %s", strerror(errno));
		return CMP_BAD_INPUT;
	}
	int rc = compare_body(old_name, old, new_name, new, t, body, err, &fam, &tally);
	if (fclose(body) != 0 || !text) {
		free(text);
		free(fam.f);
		text_message(err, "interbench compare: out of memory");
		return CMP_BAD_INPUT;
	}
	if (rc != CMP_BAD_INPUT)
		print_decision(out, &fam, &tally, rc);
	fwrite(text, 1, len, out);
	free(text);
	free(fam.f);
	return rc;
}

int cmp_threshold_option(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	return cmp_parse_thresholds(arg, (struct cmp_thresholds *)((char *)base + s->offset), what, whatlen) == 0 ?
		OPTSPEC_SET : OPTSPEC_BAD;
}

/* compare's command line. */
struct compare_args {
	struct cmp_thresholds t;  /* --threshold, --allow-different-machine (t.match_names: match) */
	unsigned match;           /* --match: the index of its value in match_values */
	const char *plot_dir, *json_path;
};

enum { COMPARE_HELP = 1 };  /* -h's action */

static const char *const match_values[] = { "simulation,load,settings", "simulation,load", NULL };

#define CA(field) offsetof(struct compare_args, field)

/* compare's options, in --help order (-M is --match's short form, shown nowhere). */
static const struct optspec compare_options[] = {
	{ .long_name = "threshold", .short_name = 'T', .type = OPTSPEC_CUSTOM, .metavar = "SPEC",
	  .help = "limits, KEY=VALUE[,...]: mean, p99, max as % worse; cpu, deadlines as\n"
		  "points lower; VALUE off drops one (default: p99=10%,deadlines=1)",
	  .set = cmp_threshold_option, .offset = CA(t) },
	{ .long_name = "match", .short_name = 'M', .hide_short = true, .type = OPTSPEC_CHOICE,
	  .metavar = "simulation,load", .choices = match_values,
	  .help = "match pairs on the task and load alone, their settings (nice,\npolicy) set aside "
		  "(default: simulation,load,settings)",
	  .accepted = "simulation,load to set the settings aside, or simulation,load,settings, the default",
	  .offset = CA(match) },
	{ .long_name = "json", .type = OPTSPEC_TEXT, .metavar = "FILE",
	  .help = "also write the comparison as JSON to FILE (- for stdout)", .offset = CA(json_path) },
	{ .long_name = "plot", .type = OPTSPEC_TEXT, .metavar = "DIR",
	  .help = "draw in DIR with gnuplot each judged figure, OLD and NEW with their\n"
		  "intervals and the answer, and the latency tails of each pair found\nDIFFERENT (JSON results)",
	  .offset = CA(plot_dir) },
	{ .long_name = "regressions-only", .type = OPTSPEC_FLAG,
	  .help = "exit 0, not 3, when nothing is worse but something is undecided",
	  .offset = CA(t.regressions_only) },
	{ .long_name = "allow-different-machine", .type = OPTSPEC_FLAG,
	  .help = "compare results of different CPU models or counts", .offset = CA(t.allow_different_machine) },
	{ .long_name = "allow-different-task", .type = OPTSPEC_FLAG,
	  .help = "compare results of different task files (--task-file), to judge\nthe task's change",
	  .offset = CA(t.allow_different_task) },
	{ .long_name = "help", .short_name = 'h', .type = OPTSPEC_ACTION, .help = "this help", .action = COMPARE_HELP },
};
#define COMPARE_OPTIONS (sizeof(compare_options) / sizeof(compare_options[0]))

const struct optspec *compare_option_table(unsigned *n)
{
	*n = COMPARE_OPTIONS;
	return compare_options;
}

static const struct optspec_style compare_style = { .column = 24, .long_indent = "      " };

static void compare_usage(FILE *f)
{
	fprintf(f, "Usage: interbench compare [--threshold SPEC] [--match simulation,load]\n"
		"       [--regressions-only] [--allow-different-machine] [--allow-different-task]\n"
		"       OLD NEW\n"
		"Compares two interbench results (JSON from --json, or classic logfiles; the last\n"
		"run of a logfile) pair by pair, each repeat a sub-run: every judged figure\n"
		"DIFFERENT, SAME or UNKNOWN.\n"
		"Exit status: 0 no regression and every judged figure decided, 1 a regression,\n"
		"2 bad input, 3 undecided (nothing worse shown, something UNKNOWN).\n");
	optspec_help_table(f, compare_options, COMPARE_OPTIONS, &compare_style);
}

/* Says on err what stopped compare's command line. */
static void compare_fault(const struct optparse_fault *f, FILE *err)
{
	char name[64], acc[320], value[512];
	if (f->kind == OPTPARSE_MISSING)
		text_message(err, "interbench compare: %s: missing value (accepted: comma-separated "
			"metric=limit items, e.g. p99=10%%,deadlines=1)", f->word);
	else if (f->kind == OPTPARSE_BAD_VALUE && f->spec->type == OPTSPEC_CUSTOM)
		text_message(err, "interbench compare: %s", f->what);
	else if (f->kind == OPTPARSE_BAD_VALUE) {
		text_escape_line(f->value, value, sizeof(value));
		text_message(err, "interbench compare: %s: %s '%s' (accepted: %s)", optspec_display(f->spec, name,
			sizeof(name)), f->what, value, optspec_accepted(f->spec, acc, sizeof(acc)));
	} else if (f->kind == OPTPARSE_NO_MEMORY)
		text_message(err, "interbench compare: out of memory");
	else
		text_message(err, "interbench compare: %s: unknown option (%s%s%ssee --help)", f->word,
			     f->suggest[0] ? "did you mean " : "", f->suggest, f->suggest[0] ? "? " : "");
}

/* compare's command line into a, the defaults first.  Returns -1 to go on (the files at
 * argv[optind]), else the exit status (help: 0; a bad option: 2). */
static int compare_args(int argc, char **argv, struct compare_args *a, FILE *out, FILE *err)
{
	struct optparse_fault f;
	memset(a, 0, sizeof(*a));
	cmp_default_thresholds(&a->t);
	int rc = optparse_table(compare_options, COMPARE_OPTIONS, a, true, argc, argv, &f);
	if (rc == COMPARE_HELP) {
		compare_usage(out);
		return CMP_OK;
	}
	if (rc == OPTSPEC_BAD) {
		compare_fault(&f, err);
		return CMP_BAD_INPUT;
	}
	a->t.match_names = strcmp(match_values[a->match], "simulation,load") == 0;
	if (argc - optind == 2)
		return -1;
	text_message(err, "interbench compare: expected two files, OLD and NEW (see --help)");
	return CMP_BAD_INPUT;
}

/* Writes t->json with the exit status rc to path.  Returns rc, or CMP_BAD_INPUT when it cannot
 * be written (said on err). */
static int write_compare_json(struct cmp_thresholds *t, const char *path, int rc, FILE *err)
{
	char msg[512];
	json_object_set_new(t->json, "exit_status", json_integer(rc));
	if (report_write(t->json, path, msg, sizeof(msg)) != 0) {
		text_message(err, "interbench compare: --json: %s", msg);
		rc = CMP_BAD_INPUT;
	}
	json_decref(t->json);
	t->json = NULL;
	return rc;
}

int compare_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct compare_args a;
	struct cmp_flagged flagged = { .n = 0 };
	struct cmp_answers answers = { NULL, 0 };
	char msg[512];
	int rc = compare_args(argc, argv, &a, out, err);
	if (rc >= 0)
		return rc;
	struct cmp_thresholds t = a.t;
	const char *plot_dir = a.plot_dir, *json_path = a.json_path;
	t.flagged = &flagged;
	t.answers = a.plot_dir ? &answers : NULL;
	const char *names[2] = { argv[optind], argv[optind + 1] };
	struct result_set sets[2];
	for (int i = 0; i < 2; i++)
		if (result_set_load(names[i], &sets[i], msg, sizeof(msg)) != 0) {
			text_message(err, "interbench compare: %s: %s", names[i], msg);
			if (i == 1)
				result_set_free(&sets[0]);
			return CMP_BAD_INPUT;
		}
	t.json = json_path ? json_object() : NULL;
	FILE *text = json_path && strcmp(json_path, "-") == 0 ? err : out;  /* --json -: the text to stderr */
	rc = compare_sets(names[0], &sets[0], names[1], &sets[1], &t, text, err);
	if (t.json)
		rc = write_compare_json(&t, json_path, rc, err);
	if (plot_dir && rc != CMP_BAD_INPUT && plot_compare(plot_dir, names, &flagged, &answers, out, err) == 2)
		rc = CMP_BAD_INPUT;
	free(answers.a);
	result_set_free(&sets[0]);
	result_set_free(&sets[1]);
	return rc;
}
