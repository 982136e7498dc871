/* --fail-if (report/failif.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "decide/decision.h"
#include "lib/schedpolicy.h"
#include "lib/text.h"
#include "report/failif.h"
#include "report/jsonkeys.h"
#include "report/run_decisions.h"
#include "workloads/pipeline_chain.h"
#include "workloads/workload.h"

/* The comparisons, longest first so "<=" is not read as "<". */
static const struct { const char *text; enum failif_op op; } ops[] = {
	{ "<=", FAILIF_LE }, { ">=", FAILIF_GE }, { "<", FAILIF_LT }, { ">", FAILIF_GT },
};

static const char *op_text(enum failif_op op)
{
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].op == op)
			return ops[i].text;
	return "?";
}

/* A plain decimal number (digits and at most one point, nothing else) into *v.  Returns 0 or -1. */
static int plain_number(const char *s, double *v)
{
	size_t n = strspn(s, "0123456789.");
	const char *dot = strchr(s, '.');
	if (n == 0 || s[n] || (dot && strchr(dot + 1, '.')) || strcmp(s, ".") == 0)
		return -1;
	errno = 0;
	*v = strtod(s, NULL);
	return errno || !isfinite(*v) ? -1 : 0;
}

/* A time with its unit (ns, us, ms, s as parse_duration_ns takes them; m and h whole minutes
 * and hours of it) into *ns.  Returns 0, or -1 without a unit or when malformed. */
static int time_with_unit(const char *s, double *ns)
{
	char buf[FAILIF_TEXT_MAX];
	size_t n = strlen(s);
	uint64_t v, scale = 1;
	if (n == 0 || n >= sizeof(buf) - 1)
		return -1;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == 'h' || (buf[n - 1] == 'm' && (n < 2 || buf[n - 2] != 'n'))) {
		scale = buf[n - 1] == 'h' ? 3600 : 60;  /* "1h" read as "1s", times 3600 */
		buf[n - 1] = 's';
	}
	if (parse_duration_ns(buf, 0, 0, UINT64_MAX / scale, &v) != 0)
		return -1;
	*ns = (double)v * (double)scale;
	return 0;
}

/* VALUE of a condition on metric m into *v in the field's unit: a time needs its unit; a share,
 * a frame rate or a rate may end in its unit ("%", "fps", "/min").  Returns 0 or -1. */
static int value_of(enum judged_metric m, const char *s, double *v)
{
	if (judged_metric_is_time(m))
		return time_with_unit(s, v);
	char buf[FAILIF_TEXT_MAX];
	const char *unit = judged_metric_unit(m);
	size_t n = strlen(s), u = strlen(unit);
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	if (n > u && strcmp(buf + n - u, unit) == 0)
		buf[n - u] = '\0';
	return plain_number(buf, v);
}

/* The workload_table index of name (n bytes, case-insensitive) as a task or a load; -1 for
 * "*"; -2 when none is so named. */
static int pair_name(const char *name, size_t n, bool as_load)
{
	char buf[64];
	if (n == 1 && name[0] == '*')
		return -1;
	if (n == 0 || n >= sizeof(buf))
		return -2;
	memcpy(buf, name, n);
	buf[n] = '\0';
	int w = workload_find(buf, as_load);
	return w < 0 ? -2 : w;
}

/* The TASK[/LOAD] part (n bytes at s) into c.  Returns 0, or -1 with what (whatlen bytes). */
static int pair_of(const char *s, size_t n, struct failif_cond *c, char *what, size_t whatlen)
{
	const char *slash = memchr(s, '/', n);
	size_t tn = slash ? (size_t)(slash - s) : n;
	c->task = pair_name(s, tn, false);
	c->load = slash ? pair_name(slash + 1, n - tn - 1, true) : -1;
	if (c->task == -2)
		snprintf(what, whatlen, "no simulated task '%.*s'", (int)tn, s);
	else if (c->load == -2)
		snprintf(what, whatlen, "no load '%.*s'", (int)(n - tn - 1), slash + 1);
	return c->task == -2 || c->load == -2 ? -1 : 0;
}

/* FIGURE OP VALUE (n bytes at s) into c.  Returns 0, or -1 with what (whatlen bytes). */
static int test_of(const char *s, size_t n, struct failif_cond *c, char *what, size_t whatlen)
{
	size_t at = strcspn(s, "<>");
	if (at >= n) {
		snprintf(what, whatlen, "no comparison");
		return -1;
	}
	size_t k = 0;
	while (strncmp(s + at, ops[k].text, strlen(ops[k].text)) != 0)
		k++;
	c->op = ops[k].op;
	int m = judged_metric_named(s, at);
	if (m < 0) {
		snprintf(what, whatlen, "no figure '%.*s'", (int)at, s);
		return -1;
	}
	c->metric = (enum judged_metric)m;
	c->f = figure_of_metric(task_figures, task_figures_n, c->metric);
	char val[FAILIF_TEXT_MAX];
	size_t from = at + strlen(ops[k].text);
	snprintf(val, sizeof(val), "%.*s", (int)(n - from), s + from);
	if (!c->f || value_of(c->metric, val, &c->limit) != 0) {
		snprintf(what, whatlen, "invalid value '%s' for %s (in %s%s)", val, judged_metric_key(c->metric),
			 judged_metric_unit(c->metric), judged_metric_is_time(c->metric) ? ": a time with its unit" : "");
		return -1;
	}
	return 0;
}

/* One condition (n bytes at s, blanks removed) into c.  Returns 0, or -1 with err set. */
static int cond_of(const char *s, size_t n, struct failif_cond *c, char *err, size_t errlen)
{
	char what[160] = "";
	const char *colon = memchr(s, ':', n);
	size_t pn = colon ? (size_t)(colon - s) + 1 : 0;
	memset(c, 0, sizeof(*c));
	c->task = c->load = -1;
	if (n == 0 || n >= sizeof(c->text))
		snprintf(what, sizeof(what), n ? "longer than %d bytes" : "empty", FAILIF_TEXT_MAX - 1);
	else if ((!colon || pair_of(s, pn - 1, c, what, sizeof(what)) == 0) &&
		 test_of(s + pn, n - pn, c, what, sizeof(what)) == 0)
		what[0] = '\0';
	if (what[0]) {
		snprintf(err, errlen, "--fail-if: condition '%.*s': %s (accepted: %s)", (int)(n < 200 ? n : 200), s, what,
			 FAILIF_ACCEPTED);
		return -1;
	}
	snprintf(c->text, sizeof(c->text), "%.*s", (int)n, s);
	return 0;
}

/* The conditions of one --fail-if text into spec.  Returns 0, or -1 with err set. */
static int text_of(const char *arg, struct failif_spec *spec, char *err, size_t errlen)
{
	char flat[1024];
	size_t n = 0;
	for (const char *p = arg; *p && n + 1 < sizeof(flat); p++)
		if (*p != ' ' && *p != '\t')
			flat[n++] = *p;
	flat[n] = '\0';
	const char *s = flat;
	do {
		size_t len = strcspn(s, ",");
		if (spec->n == FAILIF_MAX) {
			snprintf(err, errlen, "--fail-if: more than %d conditions (accepted: at most %d in all)", FAILIF_MAX,
				 FAILIF_MAX);
			return -1;
		}
		if (cond_of(s, len, &spec->c[spec->n], err, errlen) != 0)
			return -1;
		spec->n++;
		s = s[len] ? s + len + 1 : NULL;
	} while (s);
	return 0;
}

int failif_parse(const struct optspec_texts *texts, enum failif_mode mode, struct failif_spec *spec, char *err,
		 size_t errlen)
{
	memset(spec, 0, sizeof(*spec));
	spec->mode = mode;
	for (unsigned i = 0; i < texts->n; i++)
		if (text_of(texts->v[i], spec, err, errlen) != 0) {
			text_printable_line(err);  /* it quotes the user's text: one printable line */
			return -1;
		}
	return 0;
}

/* Whether metric m is a figure plan item it's task has. */
static bool applies(enum judged_metric m, const struct task_figure *f, const struct plan_item *it)
{
	const struct sim_desc *d = it->spec.desc;
	if (f->task)  /* a task's own figure (xruns, jank, i2p) */
		return d->measures && strcmp(d->measures->name, f->task) == 0;
	return judged_metric_applies(m, d->has_deadlines, d->measures == &pipeline_chain_measures);
}

/* Whether c names plan item it (its pair; the figure may still not apply). */
static bool names(const struct failif_cond *c, const struct plan_item *it)
{
	return (c->task < 0 || workload_table[c->task] == it->task) && (c->load < 0 || (size_t)c->load == it->load_index);
}

int failif_check_plan(const struct failif_spec *spec, const struct plan *plan, char *err, size_t errlen)
{
	for (unsigned k = 0; k < spec->n; k++) {
		const struct failif_cond *c = &spec->c[k];
		bool named = false, fits = false;
		for (size_t i = 0; i < plan->n; i++) {
			named |= names(c, &plan->items[i]);
			fits |= names(c, &plan->items[i]) && applies(c->metric, c->f, &plan->items[i]);
		}
		if (!fits) {
			snprintf(err, errlen, "--fail-if: condition '%s' would check nothing: %s (accepted: a condition on "
				 "a pair -W and -w run, with a figure its task has)", c->text,
				 named ? "its figure applies to none of the pairs it names" : "it names no pair of this run");
			return -1;
		}
	}
	return 0;
}

/* Whether value v is beyond c's limit (the condition holds). */
static bool beyond(const struct failif_cond *c, double v)
{
	switch (c->op) {
	case FAILIF_LT: return v < c->limit;
	case FAILIF_LE: return v <= c->limit;
	case FAILIF_GT: return v > c->limit;
	default: return v >= c->limit;
	}
}

/* c on plan item i in point mode: its figure as the table shows it (report/output_text.c's
 * row: the one run, or the median over the runs measured whole). */
static void check_point(const struct failif_cond *c, const struct matrix *m, size_t i, struct failif_check *k)
{
	const struct pair_outcome *reps = matrix_reps(m, i);
	unsigned n = matrix_ran(m, i), nok = 0;
	struct pair_summary *ok = calloc(n ? n : 1, sizeof(*ok)), med;
	double lo, hi;
	for (unsigned r = 0; ok && r < n; r++)
		if (reps[r].ok && !(reps[r].interrupted && n > 1))
			ok[nok++] = reps[r].bench.summary;
	if (nok == 1 && n == 1)
		med = ok[0];
	else if (nok)
		summary_median(ok, nok, &med, &lo, &hi);
	k->subruns = nok;
	k->lo = k->hi = NAN;
	k->value = nok && !figure_is_null(c->f, &med, m->p.plan->items[i].spec.buffer_periods > 0) ?
		   figure_value(c->f, &med) : NAN;
	free(ok);
	if (!nok)
		k->why = ok ? "the pair measured nothing" : "out of memory";
	else if (isnan(k->value))
		k->why = "the figure has no value (no sample)";
	k->r = isnan(k->value) || beyond(c, k->value) ? FAILIF_FAIL : FAILIF_PASS;
}

/* c on plan item i in interval mode: its between-sub-run interval at level 1 - alpha wholly
 * beyond the limit. */
static void check_interval(const struct failif_cond *c, const struct matrix *m, size_t i, double alpha,
			   struct failif_check *k)
{
	unsigned ran = matrix_ran(m, i);
	struct decision_subrun *s = calloc(ran ? ran : 1, sizeof(*s));
	size_t n = s ? run_decisions_subruns(m, i, c->metric, s, ran) : 0;
	k->subruns = (unsigned)decision_subruns_interval(s, n, !judged_metric_in_points(c->metric),
						      judged_metric_is_share(c->metric), alpha, &k->value, &k->lo, &k->hi);
	bool any = false;
	for (size_t j = 0; j < n; j++)
		any |= isfinite(s[j].value);
	free(s);
	if (!n || !any) {  /* as in point mode: nothing measured is no pass */
		k->r = FAILIF_FAIL;
		k->why = n ? "the figure has no value (no sample)" : "the pair measured nothing";
	} else if (!k->subruns) {
		k->r = FAILIF_UNKNOWN;
		k->why = "no between-sub-run interval (fewer than 2 usable sub-runs with a value; --repeat or the "
			 "budget gives more)";
	} else {
		bool low_side = c->op == FAILIF_LT || c->op == FAILIF_LE;
		k->r = beyond(c, low_side ? k->hi : k->lo) ? FAILIF_FAIL : FAILIF_PASS;
	}
}

/* Whether condition c is checked on plan item i: it names the pair, its figure applies. */
static bool checked_on(const struct failif_cond *c, const struct plan_item *it)
{
	return names(c, it) && applies(c->metric, c->f, it);
}

/* The interval checks' family: the checks made on pairs that ran.  Each interval is at level
 * 1 - CI_ALPHA / family, so that a false fail anywhere in the run is at most CI_ALPHA
 * (Bonferroni: Dunn, "Multiple comparisons among means", JASA 56, 1961; it holds whatever the
 * checks' dependence, as compare's Holm does for its family). */
static unsigned interval_family(const struct failif_spec *spec, const struct matrix *m)
{
	unsigned n = 0;
	for (size_t i = 0; i < m->p.plan->n; i++)
		for (unsigned c = 0; c < spec->n; c++)
			n += checked_on(&spec->c[c], &m->p.plan->items[i]) && matrix_ran(m, i);
	return n;
}

int failif_judge(const struct failif_spec *spec, const struct matrix *m, struct failif_verdict *v)
{
	size_t items = m->p.plan->n;
	memset(v, 0, sizeof(*v));
	v->checks = calloc(items * spec->n + 1, sizeof(*v->checks));
	if (!v->checks)
		return -1;
	v->items = items;
	v->family = spec->mode == FAILIF_INTERVAL ? interval_family(spec, m) : 0;
	v->alpha_each = CI_ALPHA / (v->family ? v->family : 1);
	for (size_t i = 0; i < items; i++) {
		bool failed = false, named = false;
		for (unsigned c = 0; c < spec->n; c++) {
			const struct failif_cond *cd = &spec->c[c];
			struct failif_check *k = &v->checks[i * spec->n + c];
			k->value = k->lo = k->hi = NAN;
			if (!checked_on(cd, &m->p.plan->items[i]))
				continue;  /* FAILIF_NA */
			named = true;
			if (!matrix_ran(m, i))
				continue;
			if (spec->mode == FAILIF_INTERVAL)
				check_interval(cd, m, i, v->alpha_each, k);
			else
				check_point(cd, m, i, k);
			v->checked++;
			v->failed += k->r == FAILIF_FAIL;
			v->unknown += k->r == FAILIF_UNKNOWN;
			failed |= k->r == FAILIF_FAIL;
		}
		v->pairs_failed += failed;
		v->not_run += named && !matrix_ran(m, i);
	}
	return 0;
}

/* v in metric m's shown unit ("2.31 ms", "98.5 %"), into buf. */
static const char *shown(enum judged_metric m, double v, char *buf, size_t len)
{
	if (judged_metric_is_time(m))
		snprintf(buf, len, "%.3g ms", v / 1e6);
	else
		snprintf(buf, len, "%.3g %s", v, judged_metric_unit(m));
	return buf;
}

/* The pair's words: "Audio vs Burn", with its settings when it has some. */
static const char *pair_words(const struct matrix *m, size_t i, char *buf, size_t len)
{
	const struct plan_item *it = &m->p.plan->items[i];
	char bench[128], load[128];
	sched_setting_words(&it->bench_sched, bench, sizeof(bench));
	sched_setting_words(&m->p.load->s[it->load_setting], load, sizeof(load));
	snprintf(buf, len, "%s%s%s vs %s%s%s", it->task->name, bench[0] ? " " : "", bench, matrix_load_name(m, i),
		 load[0] ? " " : "", load);
	return buf;
}

/* One line for check k of condition c on item i. */
static void print_check(FILE *f, const struct failif_spec *spec, const struct failif_cond *c, const struct matrix *m,
			size_t i, const struct failif_verdict *v, const struct failif_check *k)
{
	char pair[300], val[48], lim[48], lo[48], hi[48];
	pair_words(m, i, pair, sizeof(pair));
	shown(c->metric, c->limit, lim, sizeof(lim));
	if (k->r == FAILIF_UNKNOWN || isnan(k->value)) {
		text_message(f, "interbench: --fail-if: %s: %s: %s: %s", pair, c->text,
			     k->r == FAILIF_FAIL ? "fails" : "unknown", k->why);
	} else if (spec->mode == FAILIF_INTERVAL) {
		text_message(f, "interbench: --fail-if: %s: %s %s, its %.4g %% interval over %u sub-runs %s to %s wholly "
			     "%s %s (%s; 95 %% for the run's %u interval checks together, Bonferroni)",
			     pair, judged_metric_name(c->metric), shown(c->metric, k->value, val, sizeof(val)),
			     100 * (1 - v->alpha_each), k->subruns,
			     shown(c->metric, k->lo, lo, sizeof(lo)), shown(c->metric, k->hi, hi, sizeof(hi)),
			     c->op == FAILIF_LT || c->op == FAILIF_LE ? "below" : "above", lim, c->text, v->family);
	} else {
		text_message(f, "interbench: --fail-if: %s: %s %s %s %s (%s; %s, a point estimate)", pair,
			     judged_metric_name(c->metric), shown(c->metric, k->value, val, sizeof(val)), op_text(c->op), lim,
			     c->text, k->subruns > 1 ? "the median of its sub-runs" : "its one run");
	}
}

void failif_print(FILE *f, const struct failif_spec *spec, const struct matrix *m, const struct failif_verdict *v)
{
	for (size_t i = 0; i < v->items; i++)
		for (unsigned c = 0; c < spec->n; c++) {
			const struct failif_check *k = &v->checks[i * spec->n + c];
			if (k->r == FAILIF_FAIL || k->r == FAILIF_UNKNOWN)
				print_check(f, spec, &spec->c[c], m, i, v, k);
		}
	if (v->not_run)
		text_message(f, "interbench: --fail-if: %zu pair%s the conditions name did not run (the run was stopped "
			     "before them): not checked", v->not_run, v->not_run == 1 ? "" : "s");
	if (v->failed)
		text_message(f, "interbench: --fail-if: FAIL: %u of %u check%s failed, on %zu pair%s (exit status %d)", v->failed,
			     v->checked, v->checked == 1 ? "" : "s", v->pairs_failed, v->pairs_failed == 1 ? "" : "s",
			     FAILIF_EXIT_STATUS);
	else if (v->unknown)
		text_message(f, "interbench: --fail-if: pass: %u check%s, %u of them unknown (no interval), none with its "
			     "interval wholly beyond its limit", v->checked, v->checked == 1 ? "" : "s", v->unknown);
	else
		text_message(f, "interbench: --fail-if: pass: %u check%s, none beyond its limit (%s)", v->checked,
			     v->checked == 1 ? "" : "s", spec->mode == FAILIF_INTERVAL ? "by its interval" : "a point estimate");
}

/* A figure value as its key writes it (an integer in the unit the key names), or null. */
static json_t *scaled(const struct failif_cond *c, double v)
{
	return isfinite(v) ? json_integer((json_int_t)llround(v * c->f->json_scale)) : json_null();
}

static const char *result_name(enum failif_result r)
{
	return r == FAILIF_PASS ? "pass" : r == FAILIF_FAIL ? "fail" : "unknown";
}

/* Check k of c as its JSON object. */
static json_t *check_json(const struct failif_cond *c, const struct failif_check *k)
{
	json_t *iv = isfinite(k->lo) ? json_pack("[o, o]", scaled(c, k->lo), scaled(c, k->hi)) : json_null();
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:i, s:s, s:s*}", "condition", c->text, "figure", c->f->json_key,
			 "measured", scaled(c, k->value), "limit", scaled(c, c->limit), "interval", iv, "subruns",
			 (int)k->subruns, "result", result_name(k->r), "why", k->why);
}

/* Plan item i's checks as its JSON object; NULL when none applies or out of memory (*none). */
static json_t *pair_json(const struct failif_spec *spec, const struct matrix *m, const struct failif_verdict *v,
			 size_t i, bool *none)
{
	const struct plan_item *it = &m->p.plan->items[i];
	char bench[128], load[128];
	json_t *checks = json_array();
	enum failif_result worst = FAILIF_PASS;
	for (unsigned c = 0; checks && c < spec->n; c++) {
		const struct failif_check *k = &v->checks[i * spec->n + c];
		if (k->r == FAILIF_NA)
			continue;
		worst = k->r == FAILIF_FAIL || worst == FAILIF_FAIL ? FAILIF_FAIL : k->r == FAILIF_UNKNOWN ? k->r : worst;
		json_array_append_new(checks, check_json(&spec->c[c], k));
	}
	*none = checks && json_array_size(checks) == 0;
	if (!checks || *none) {
		json_decref(checks);
		return NULL;
	}
	sched_setting_words(&it->bench_sched, bench, sizeof(bench));
	sched_setting_words(&m->p.load->s[it->load_setting], load, sizeof(load));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", JK_SIMULATION, it->task->name, JK_LOAD, matrix_load_name(m, i),
			 JK_MODE, bench, JK_LOAD_MODE, load, "verdict", result_name(worst), "checks", checks);
}

json_t *failif_json(const struct failif_spec *spec, const struct matrix *m, const struct failif_verdict *v)
{
	json_t *conds = json_array(), *pairs = json_array();
	bool ok = conds && pairs;
	for (unsigned c = 0; ok && c < spec->n; c++)
		ok = json_array_append_new(conds, json_string(spec->c[c].text)) == 0;
	for (size_t i = 0; ok && i < v->items; i++) {
		bool none;
		json_t *p = pair_json(spec, m, v, i, &none);
		ok = none || (p && json_array_append_new(pairs, p) == 0);
	}
	if (!ok) {
		json_decref(conds);
		json_decref(pairs);
		return NULL;
	}
	json_t *level = spec->mode == FAILIF_INTERVAL ? json_real(1 - v->alpha_each) : json_null();
	return json_pack("{s:s, s:o, s:o, s:s, s:i, s:i, s:i, s:i, s:o}", "check_on", spec->mode == FAILIF_INTERVAL ? "interval" : "point",
			 "interval_level", level, "conditions", conds, "verdict", v->failed ? "fail" : "pass", "checked", (int)v->checked,
			 "checks_failed", (int)v->failed, "unknown", (int)v->unknown, "not_run", (int)v->not_run, "pairs", pairs);
}

void failif_free(struct failif_verdict *v)
{
	free(v->checks);
	v->checks = NULL;
}
