#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "lib/distrib.h"
#include "lib/optparse.h"
#include "lib/stats.h"
#include "lib/text.h"
#include "lib/utf8.h"
#include "report/jsonkeys.h"
#include "report/histview.h"
#include "report/tabular.h"
#include "tools/export.h"
#include "tools/plot.h"


/* ---- test names ---- */

/* A pair's test names, export_cases's: its simulation's and its load's. */
struct pair_names {
	char sim[sizeof(((struct export_case *)0)->sim_slug)];
	char load[sizeof(((struct export_case *)0)->load_slug)];
};

/* One pair's simulation (or load) name and its slug, to be sorted. */
struct name_ref {
	char slug[sizeof(((struct export_case *)0)->sim_slug)];
	const char *name;
	size_t pair;
};

static int name_ref_cmp(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = strcmp(x->slug, y->slug);
	return c ? c : strcmp(x->name, y->name);
}

/* Writes refs[lo, hi), one slug's run in sorted order, as their test names (at out + pair *
 * stride, outlen bytes): the slug alone when the run has one name and the slug is not empty,
 * else the slug and "--N", N the name's place among the run's names. */
static void name_run(const struct name_ref *refs, size_t lo, size_t hi, char *out, size_t stride, size_t outlen)
{
	bool plain = *refs[lo].slug && strcmp(refs[lo].name, refs[hi - 1].name) == 0;
	unsigned place = 1;
	for (size_t i = lo; i < hi; i++) {
		place += i > lo && strcmp(refs[i].name, refs[i - 1].name) != 0;
		snprintf(out + refs[i].pair * stride, outlen, plain ? "%s" : "%s--%u", refs[i].slug, place);
	}
}

/* The test names of rs's simulations (load: its loads) into names (see export_cases): refs
 * sorted by slug then name, O(n log n) whatever the names.  Returns 0, or -1 out of memory. */
static int name_side(const struct result_set *rs, bool load, struct pair_names *names)
{
	struct name_ref *refs = calloc(rs->n ? rs->n : 1, sizeof(*refs));
	size_t outlen = load ? sizeof(names->load) : sizeof(names->sim);
	if (!refs)
		return -1;
	for (size_t i = 0; i < rs->n; i++) {
		refs[i].name = load ? rs->pairs[i].load : rs->pairs[i].sim;
		refs[i].pair = i;
		text_slug(refs[i].name, refs[i].slug, outlen - EXPORT_NAME_ROOM);
	}
	qsort(refs, rs->n, sizeof(*refs), name_ref_cmp);
	char *out = load ? names->load : names->sim;
	for (size_t lo = 0, hi; lo < rs->n; lo = hi) {
		for (hi = lo + 1; hi < rs->n && strcmp(refs[hi].slug, refs[lo].slug) == 0; hi++)
			;
		name_run(refs, lo, hi, out, sizeof(*names), outlen);
	}
	free(refs);
	return 0;
}

/* Every pair's test names, names[i] pair i's; NULL out of memory.  Free it with free(3). */
static struct pair_names *test_names(const struct result_set *rs)
{
	struct pair_names *names = calloc(rs->n ? rs->n : 1, sizeof(*names));
	if (names && (name_side(rs, false, names) != 0 || name_side(rs, true, names) != 0)) {
		free(names);
		return NULL;
	}
	return names;
}

/* ---- cases ---- */

/* The case of pair p itself, named names, against old (its baseline's pair, or NULL): ERROR
 * when any repeat failed, FAIL when compare would flag its starved repeats
 * (cmp_starved_regression), else PASS. */
static void pair_case(const struct rs_pair *p, const struct pair_names *names, const struct rs_pair *old,
		      const struct export_spec *spec, struct export_case *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->sim_slug, sizeof(c->sim_slug), "%s", names->sim);
	snprintf(c->load_slug, sizeof(c->load_slug), "%s", names->load);
	snprintf(c->id, sizeof(c->id), "%s-%s", c->sim_slug, c->load_slug);
	c->result = p->failed ? EXPORT_RESULT_ERROR : EXPORT_RESULT_PASS;
	if (!p->failed && old && cmp_starved_regression(old, p, &spec->thresholds))
		c->result = EXPORT_RESULT_FAIL;
	c->value_ns = c->lo = c->hi = c->lo_ns = c->hi_ns = NAN;
}

/* The mean of figure m over p's sub-runs (its measured repeats with a finite value) into *mean
 * and its 95 % interval between sub-runs (mean_interval95, lib/stats.h) into *lo and *hi
 * (within what the figure can be: at least 0, a share at most 100); false with fewer than two
 * (one run's own interval is within-run: no figure's). */
static bool subrun_interval(const struct rs_pair *p, enum judged_metric m, double *mean_out, double *lo, double *hi)
{
	double sum = 0, sum2 = 0, n = 0;
	for (size_t i = 0; i < p->n; i++)
		if (isfinite(p->v[i].m[m])) {
			n++;
			sum += p->v[i].m[m];
			sum2 += p->v[i].m[m] * p->v[i].m[m];
		}
	if (!mean_interval95(n, sum, sum2, 0, mean_out, lo, hi))
		return false;
	if (judged_metric_is_share(m))
		*hi = fmin(*hi, 100);
	return true;
}

/* The case of figure m of pair p, from the pair's case pc; d its decision against the
 * baseline's pair (answered with the whole family, export_cases), or NULL.  A starved median
 * (+inf) has no measurement: without a baseline the case is ERROR, no latency could be
 * measured.  Returns false when no measured repeat of p has the figure. */
static bool figure_case(const struct rs_pair *p, const struct decision *d, enum judged_metric m,
			const struct export_spec *spec, const struct export_case *pc, struct export_case *c)
{
	double med = cmp_median(p, m), lo, hi, mean;
	if (isnan(med))
		return false;
	*c = *pc;
	text_slug(judged_metric_name(m), c->figure_slug, sizeof(c->figure_slug));
	snprintf(c->id, sizeof(c->id), "%s-%s-%s", c->sim_slug, c->load_slug, c->figure_slug);
	c->has_value = isfinite(med);
	c->value = c->has_value ? (judged_metric_is_time(m) ? med / 1e6 : med) : NAN;
	c->value_ns = c->has_value && judged_metric_is_time(m) ? med : NAN;
	c->unit = c->has_value ? judged_metric_unit(m) : NULL;
	c->result = c->has_value ? EXPORT_RESULT_MEASURED : EXPORT_RESULT_ERROR;
	c->lo = c->hi = c->lo_ns = c->hi_ns = NAN;
	if (c->has_value && subrun_interval(p, m, &mean, &lo, &hi)) {
		bool time = judged_metric_is_time(m);
		c->value = time ? mean / 1e6 : mean;  /* the interval's own centre: the sub-runs' mean */
		c->value_ns = time ? mean : NAN;
		c->lo = time ? lo / 1e6 : lo;
		c->hi = time ? hi / 1e6 : hi;
		c->lo_ns = time ? lo : NAN;
		c->hi_ns = time ? hi : NAN;
	}
	if (spec->baseline)  /* without the pair or the figure in the baseline: nothing to fail */
		c->result = d && d->answer == DECISION_DIFFERENT && d->worse ? EXPORT_RESULT_FAIL : EXPORT_RESULT_PASS;
	return true;
}

/* The decisions of every figure of rs's pairs against the baseline's, rs->n x JM_METRICS
 * (answer DECISION_REPORTED where there is none), answered as one family (compare's
 * thresholds and rules, tools/compare.h); NULL without a baseline or memory. */
static struct decision *baseline_decisions(const struct result_set *rs, const struct export_spec *spec)
{
	if (!spec->baseline)
		return NULL;
	size_t n = rs->n * JM_METRICS;
	struct decision *d = calloc(n ? n : 1, sizeof(*d));
	for (size_t i = 0; d && i < rs->n; i++) {
		const struct rs_pair *p = &rs->pairs[i], *old = result_set_find(spec->baseline, p->sim, p->load);
		double limit[JM_METRICS];
		if (old)
			cmp_pair_limits(old, p, &spec->thresholds, limit);
		for (int m = 0; m < JM_METRICS; m++) {
			struct decision *x = &d[i * JM_METRICS + (size_t)m];
			if (!old || old->n == 0 || p->n == 0 || !compare_measure(old, p, (enum judged_metric)m, limit[m], x))
				x->answer = DECISION_REPORTED;
		}
	}
	if (d)
		decision_family(d, n, DECISION_ALPHA);
	return d;
}

static bool failed(enum export_result r) { return r == EXPORT_RESULT_FAIL || r == EXPORT_RESULT_ERROR; }

long export_cases(const struct result_set *rs, const struct export_spec *spec,
		  void (*fn)(const struct export_case *c, void *arg), void *arg)
{
	struct pair_names *names = test_names(rs);
	struct decision *d = baseline_decisions(rs, spec);
	long fails = 0;
	if (!names || (spec->baseline && !d)) {
		free(names);
		free(d);
		return -1;
	}
	for (size_t i = 0; i < rs->n; i++) {
		const struct rs_pair *p = &rs->pairs[i];
		const struct rs_pair *old = spec->baseline ? result_set_find(spec->baseline, p->sim, p->load) : NULL;
		struct export_case pc, c;
		pair_case(p, &names[i], old, spec, &pc);
		fn(&pc, arg);
		fails += failed(pc.result);
		for (int m = 0; m < JM_METRICS; m++)
			if (rs->has[m] && figure_case(p, d ? &d[i * JM_METRICS + (size_t)m] : NULL, (enum judged_metric)m, spec,
						      &pc, &c)) {
				fn(&c, arg);
				fails += failed(c.result);
			}
	}
	free(names);
	free(d);
	return fails;
}

/* ---- LAVA ---- */

/* One LAVA test case line: ID, pass or fail, then the measurement and its unit when any. */
static void lava_case(FILE *out, const char *id, const char *suffix, bool fail, const struct export_case *c, double v)
{
	fprintf(out, "%s%s %s", id, suffix, fail ? "fail" : "pass");
	if (c->has_value) /* exact: ns in ms, ppm in % */
		fprintf(out, c->unit[0] == '%' ? " %.4f %s" : " %.6f %s", v, c->unit);
	fputc('\n', out);
}

/* A case's line, and with an interval two more, ID-ci95-low and ID-ci95-high: a LAVA test
 * case carries one measurement. */
static void lava_line(const struct export_case *c, void *arg)
{
	FILE *out = arg;
	lava_case(out, c->id, "", failed(c->result), c, c->value);
	if (!isnan(c->lo)) {
		lava_case(out, c->id, "-ci95-low", failed(c->result), c, c->lo);
		lava_case(out, c->id, "-ci95-high", failed(c->result), c, c->hi);
	}
}

long export_lava(const struct result_set *rs, const struct export_spec *spec, FILE *out)
{
	return export_cases(rs, spec, lava_line, out);
}

/* ---- KCIDB ---- */

static const char *kcidb_status(enum export_result r)
{
	static const char *const names[] = {
		[EXPORT_RESULT_MEASURED] = "DONE", [EXPORT_RESULT_PASS] = "PASS",
		[EXPORT_RESULT_FAIL] = "FAIL", [EXPORT_RESULT_ERROR] = "ERROR",
	};
	return names[r];
}

struct kcidb_out {
	const struct kcidb_ids *ids;
	json_t *tests;
	bool oom;
};

/* A case's 95 % interval, when it has one, as test.misc.ci95 {"low", "high"} in its number's
 * unit (KCIDB's number has no interval; misc is its place for what the schema does not
 * model).  Returns 0, or -1 out of memory. */
static int kcidb_interval(json_t *t, const struct export_case *c)
{
	if (isnan(c->lo))
		return 0;
	bool ns = !isnan(c->lo_ns);
	json_t *misc = json_pack("{s:{s:f, s:f}}", "ci95", "low", ns ? c->lo_ns / 1e9 : c->lo, "high",
				 ns ? c->hi_ns / 1e9 : c->hi);
	return misc ? json_object_set_new(t, "misc", misc) : -1;
}

static void kcidb_test(const struct export_case *c, void *arg)
{
	struct kcidb_out *k = arg;
	char path[200], id[600];
	snprintf(path, sizeof(path), "interbench.%s.%s%s%s", c->sim_slug, c->load_slug, *c->figure_slug ? "." : "",
		 c->figure_slug);
	snprintf(id, sizeof(id), "%s:%s%s%s", k->ids->build_id, path, k->ids->run ? ":" : "",
		 k->ids->run ? k->ids->run : "");
	json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", id, "build_id", k->ids->build_id, "origin",
			      k->ids->origin, "path", path, "status", kcidb_status(c->result));
	if (t && c->has_value) {
		json_t *num = isnan(c->value_ns) ? json_pack("{s:f, s:s}", "value", c->value, "unit", c->unit)
			: json_pack("{s:f, s:s, s:s}", "value", c->value_ns / 1e9, "unit", "s", "prefix", "metric");
		if (!num || json_object_set_new(t, "number", num) != 0 || kcidb_interval(t, c) != 0) {
			json_decref(t);
			t = NULL;
		}
	}
	if (!t || json_array_append_new(k->tests, t) != 0)
		k->oom = true;
}

int export_kcidb(const struct result_set *rs, const struct export_spec *spec, const struct kcidb_ids *ids,
		 FILE *out)
{
	struct kcidb_out k = { .ids = ids, .tests = json_array() };
	long fails = k.tests ? export_cases(rs, spec, kcidb_test, &k) : 0;
	json_t *doc = k.tests && !k.oom && fails >= 0 ? json_pack("{s:{s:i, s:i}, s:O}", "version", "major", 5, "minor", 3,
						    "tests", k.tests) : NULL;
	int rc = doc && json_dumpf(doc, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) == 0 && fputc('\n', out) != EOF ?
		(int)fails : -1;
	json_decref(doc);
	json_decref(k.tests);
	return rc;
}

/* ---- metrics ---- */

/* A unit as the end of a metric's name: "ms", "pct" (%), "fps", "per_min" (/min). */
static const char *unit_suffix(const char *unit)
{
	return strcmp(unit, "%") == 0 ? "pct" : strcmp(unit, "/min") == 0 ? "per_min" : unit;
}

/* s with every '-' as '_' into buf. */
static const char *underscored(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s);
	for (char *c = buf; *c; c++)
		if (*c == '-')
			*c = '_';
	return buf;
}

/* One metric line, "NAME_UNIT: VALUE", at the precision of the LAVA lines (exact ns in ms,
 * ppm in %). */
static void metric(FILE *out, const char *name, const char *what, const struct export_case *c, double v)
{
	fprintf(out, strcmp(c->unit, "%") == 0 ? "%s%s_%s: %.4f\n" : "%s%s_%s: %.6f\n", name, what,
		unit_suffix(c->unit), v);
}

/* A figure's lines: "SIM.LOAD.FIGURE_UNIT: VALUE", and with an interval _ci95_low and
 * _ci95_high; a pair's own case and a figure without a value print none. */
static void metrics_line(const struct export_case *c, void *arg)
{
	FILE *out = arg;
	if (!c->has_value)
		return;
	char sim[sizeof(c->sim_slug)], load[sizeof(c->load_slug)], fig[sizeof(c->figure_slug)], name[200];
	snprintf(name, sizeof(name), "%s.%s.%s", underscored(c->sim_slug, sim, sizeof(sim)),
		 underscored(c->load_slug, load, sizeof(load)), underscored(c->figure_slug, fig, sizeof(fig)));
	metric(out, name, "", c, c->value);
	if (!isnan(c->lo)) {
		metric(out, name, "_ci95_low", c, c->lo);
		metric(out, name, "_ci95_high", c, c->hi);
	}
}

long export_metrics(const struct result_set *rs, const struct export_spec *spec, FILE *out)
{
	return export_cases(rs, spec, metrics_line, out);
}

static bool only_chars(const char *s, const char *accepted)
{
	return *s && strspn(s, accepted) == strlen(s);
}

/* The build id's rule, said in every message about it. */
#define BUILD_ID_ACCEPTED "(accepted: '%s:' followed by the build's id, valid UTF-8 text of at most 300 bytes)"

int export_kcidb_ids_check(const struct kcidb_ids *ids, char *err, size_t errlen)
{
	static const char lower[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
	static const char word[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";
	char origin[128], build[128], run[128];  /* the values quoted, escaped (and cut short) */
	text_escape_line(ids->origin ? ids->origin : "", origin, sizeof(origin));
	text_escape_line(ids->build_id ? ids->build_id : "", build, sizeof(build));
	text_escape_line(ids->run ? ids->run : "", run, sizeof(run));
	size_t olen = ids->origin ? strlen(ids->origin) : 0;
	if (!ids->origin || !only_chars(ids->origin, lower))
		snprintf(err, errlen, "--origin: '%s' is not a KCIDB origin (accepted: [a-z0-9_]+, the CI system's name)",
			 origin);
	else if (!ids->build_id || strncmp(ids->build_id, ids->origin, olen) != 0 || ids->build_id[olen] != ':' ||
		 strlen(ids->build_id) > 300)
		snprintf(err, errlen, "--build-id: '%s' is not a build of origin '%s' " BUILD_ID_ACCEPTED, build, origin,
			 origin);
	else if (!utf8_valid(ids->build_id))  /* jansson refuses it: no report could carry it */
		snprintf(err, errlen, "--build-id: '%s' is not valid UTF-8 " BUILD_ID_ACCEPTED, build, origin);
	else if (ids->run && (!only_chars(ids->run, word) || strlen(ids->run) > 100))
		snprintf(err, errlen, "--run: '%s' is not accepted (accepted: 1 to 100 of [A-Za-z0-9_.-])", run);
	else
		return 0;
	return -1;
}

/* ---- the subcommand ---- */

/* The parsed command line. */
struct export_args {
	unsigned format;            /* --format: the index of its value in formats */
	bool threshold_given;
	const char *against, *result;
	struct kcidb_ids ids;
	struct cmp_thresholds t;
};

enum { EXPORT_HELP = 1 };  /* -h's action */

static const char *const formats[] = { "lava", "kcidb", "metrics", "csv", "markdown", "histogram", "histogram-csv",
				       NULL };
enum { FORMAT_LAVA, FORMAT_KCIDB, FORMAT_METRICS, FORMAT_CSV, FORMAT_MARKDOWN, FORMAT_HISTOGRAM, FORMAT_HISTOGRAM_CSV };

/* Whether format f is a table or histograms of the result (report/tabular.h, report/histview.h),
 * not test cases. */
static bool format_is_table(unsigned f)
{
	return f >= FORMAT_CSV;
}

/* --threshold: compare's limits, noted as given (they need --against). */
static int threshold_option(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	((struct export_args *)base)->threshold_given = true;
	return cmp_threshold_option(s, base, arg, what, whatlen);
}

#define EA(field) offsetof(struct export_args, field)

/* export's options, in --help order. */
static const struct optspec export_options[] = {
	{ .long_name = "format", .short_name = 'f', .type = OPTSPEC_CHOICE, .metavar = "FMT", .choices = formats,
	  .help = "lava: 'ID pass|fail [MEASUREMENT UNITS]' lines (default);\n"
		  "kcidb: a KCIDB v5.3 report (needs --origin and --build-id);\n"
		  "metrics: 'SIM.LOAD.FIGURE_UNIT: VALUE' lines, as test farms parse;\n"
		  "csv, markdown: a table, a row a pair, a column a figure\n"
		  "(RFC 4180 CSV; a GitHub Markdown table);\n"
		  "histogram, histogram-csv: each pair's latency histograms\n"
		  "as --histogram and --histogram-csv write them", .offset = EA(format) },
	{ .long_name = "against", .short_name = 'a', .type = OPTSPEC_TEXT, .metavar = "OLD",
	  .help = "a figure fails where 'interbench compare OLD RESULT' finds a regression", .offset = EA(against) },
	{ .long_name = "threshold", .short_name = 'T', .type = OPTSPEC_CUSTOM, .metavar = "SPEC",
	  .help = "compare's limits, with --against (default: p99=10%,deadlines=1)", .set = threshold_option,
	  .offset = EA(t) },
	{ .long_name = "origin", .type = OPTSPEC_TEXT, .metavar = "NAME", .help = "KCIDB origin, [a-z0-9_]+",
	  .offset = EA(ids.origin) },
	{ .long_name = "build-id", .type = OPTSPEC_TEXT, .metavar = "ID", .help = "KCIDB build tested, NAME:...",
	  .offset = EA(ids.build_id) },
	{ .long_name = "run", .type = OPTSPEC_TEXT, .metavar = "NAME",
	  .help = "appended to the KCIDB test ids, to keep runs of one build apart", .offset = EA(ids.run) },
	{ .long_name = "help", .short_name = 'h', .type = OPTSPEC_ACTION, .help = "this help", .action = EXPORT_HELP },
};
#define EXPORT_OPTIONS (sizeof(export_options) / sizeof(export_options[0]))

const struct optspec *export_option_table(unsigned *n)
{
	*n = EXPORT_OPTIONS;
	return export_options;
}

/* export's --help layout: compare's, long-only options not lined up. */
static const struct optspec_style export_style = { .column = 24, .long_indent = "  " };

static void export_usage(FILE *f)
{
	fprintf(f, "Usage: interbench export [--format lava|kcidb|metrics]\n"
		"                         [--against OLD [--threshold SPEC]]\n"
		"                         [--origin NAME --build-id ID [--run NAME]] RESULT\n"
		"       interbench export --format csv|markdown|histogram[-csv] RESULT.json\n"
		"Writes RESULT (JSON from --json, or a classic logfile) as test cases for kernel\n"
		"CI: a case a (simulation, load) pair and one a figure, with the median over the\n"
		"repeats.  With csv, markdown, histogram[-csv]: a JSON result as a table (a row\n"
		"a pair, a column a figure in the unit its header names) or latency histograms.\n"
		"Exit status: 0 every case passed, 1 a case failed, 2 bad input.\n");
	optspec_help_table(f, export_options, EXPORT_OPTIONS, &export_style);
}

/* Says on err what stopped export's command line. */
static void export_fault(const struct optparse_fault *f, FILE *err)
{
	char value[512];
	if (f->kind == OPTPARSE_BAD_VALUE && f->spec->type == OPTSPEC_CUSTOM)
		text_message(err, "interbench export: %s", f->what);
	else if (f->kind == OPTPARSE_BAD_VALUE) {
		char accepted[128] = "";
		for (unsigned i = 0; formats[i]; i++)
			snprintf(accepted + strlen(accepted), sizeof(accepted) - strlen(accepted), "%s%s", i ? ", " : "",
				 formats[i]);
		text_escape_line(f->value, value, sizeof(value));
		text_message(err, "interbench export: --%s: '%s' is not a format (accepted: %s)", f->spec->long_name,
			     value, accepted);
	} else if (f->kind == OPTPARSE_NO_MEMORY)
		text_message(err, "interbench export: out of memory");
	else
		text_message(err, "interbench export: %s: %s (%s%s%ssee --help)", f->word,
			f->kind == OPTPARSE_MISSING ? "missing value" : "unknown option",
			f->suggest[0] ? "did you mean " : "", f->suggest, f->suggest[0] ? "? " : "");
}

/* The checks across options, once all are read.  Returns 0, or EXPORT_BAD_INPUT with a line on err. */
static int export_check(struct export_args *a, FILE *err)
{
	char msg[512];
	if (a->threshold_given && !a->against) {
		text_message(err, "interbench export: --threshold: needs --against OLD (the limits are on the change from OLD)");
		return EXPORT_BAD_INPUT;
	}
	if (format_is_table(a->format) && a->against) {
		text_message(err, "interbench export: --against: not with --format %s (a table has no verdicts; "
			     "interbench compare OLD RESULT judges)", formats[a->format]);
		return EXPORT_BAD_INPUT;
	}
	if (a->format == FORMAT_KCIDB && export_kcidb_ids_check(&a->ids, msg, sizeof(msg)) != 0) {
		text_message(err, "interbench export: %s", msg);
		return EXPORT_BAD_INPUT;
	}
	return 0;
}

/* Parses argv into a, the defaults first.  Returns 0 (EXPORT_HELP for -h), or EXPORT_BAD_INPUT
 * with a line on err. */
static int export_parse(int argc, char **argv, struct export_args *a, FILE *err)
{
	struct optparse_fault f;
	memset(a, 0, sizeof(*a));
	cmp_default_thresholds(&a->t);
	int rc = optparse_table(export_options, EXPORT_OPTIONS, a, true, argc, argv, &f);
	if (rc == EXPORT_HELP)
		return EXPORT_HELP;
	if (rc == OPTSPEC_BAD) {
		export_fault(&f, err);
		return EXPORT_BAD_INPUT;
	}
	if (argc - optind != 1) {
		text_message(err, "interbench export: expected one file, RESULT (see --help)");
		return EXPORT_BAD_INPUT;
	}
	a->result = argv[optind];
	return export_check(a, err);
}

/* Loads path into *rs; on failure says why on err and returns -1. */
static int load_set(const char *path, struct result_set *rs, FILE *err)
{
	char msg[512];
	if (result_set_load(path, rs, msg, sizeof(msg)) == 0)
		return 0;
	text_message(err, "interbench export: %s: %s", path, msg);
	return -1;
}

/* Says a failed write of out (errno's) or, when none, out of memory; returns EXPORT_BAD_INPUT. */
static int write_fault(FILE *out, FILE *err)
{
	bool write_failed = fflush(out) != 0 || ferror(out);
	text_message(err, "interbench export: %s%s", write_failed ? "write: " : "", write_failed ?
		     strerror(errno ? errno : EIO) : "out of memory");
	return EXPORT_BAD_INPUT;
}

/* --format csv, markdown, histogram or histogram-csv: the JSON result at path as a table
 * (report/tabular.h) or histograms (report/histview.h), read and checked as plot reads it
 * (result_json_load).  Returns the exit status. */
static int export_table(const char *path, unsigned format, FILE *out, FILE *err)
{
	char msg[512];
	json_t *doc = result_json_load(path, msg, sizeof(msg));
	if (!doc) {
		text_message(err, "interbench export: %s: %s", path, msg);
		return EXPORT_BAD_INPUT;
	}
	errno = 0;
	const json_t *results = json_object_get(doc, JK_RESULTS);
	int rc = format == FORMAT_HISTOGRAM ? hview_text(out, results, 0)
	       : format == FORMAT_HISTOGRAM_CSV ? hview_csv(out, results)
	       : tabular_write(out, results, format == FORMAT_CSV ? TABULAR_CSV : TABULAR_MARKDOWN);
	json_decref(doc);
	if (rc != 0 || fflush(out) != 0 || ferror(out))
		return write_fault(out, err);
	return EXPORT_PASS;
}

int export_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct export_args a;
	int rc = export_parse(argc, argv, &a, err);
	if (rc == EXPORT_HELP)
		export_usage(out);
	if (rc != 0)
		return rc == EXPORT_HELP ? EXPORT_PASS : rc;
	if (format_is_table(a.format))
		return export_table(a.result, a.format, out, err);
	struct result_set base, rs;
	if (a.against && load_set(a.against, &base, err) != 0)
		return EXPORT_BAD_INPUT;
	if (load_set(a.result, &rs, err) != 0) {
		if (a.against)
			result_set_free(&base);
		return EXPORT_BAD_INPUT;
	}
	struct export_spec spec = { .baseline = a.against ? &base : NULL, .thresholds = a.t };
	errno = 0;
	long fails = a.format == FORMAT_KCIDB ? export_kcidb(&rs, &spec, &a.ids, out)
		   : a.format == FORMAT_METRICS ? export_metrics(&rs, &spec, out) : export_lava(&rs, &spec, out);
	if (fails < 0 || fflush(out) != 0 || ferror(out)) {
		write_fault(out, err);
		fails = -1;
	}
	result_set_free(&rs);
	if (a.against)
		result_set_free(&base);
	return fails < 0 ? EXPORT_BAD_INPUT : fails ? EXPORT_FAIL : EXPORT_PASS;
}
