#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "results/json_report.h"
#include "results/logformat.h"
#include "results/jsonkeys.h"
#include "lib/safefile.h"
#include "results/resultset.h"
#include "results/summary.h"
#include "lib/text.h"

#define RS_MAX_PAIRS 100000
#define RS_MAX_REPEATS 100000

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The pair key of a task with its mode words (a printf format and its args for "%.*s") and
 * the loads' setting words: "Audio nice -10", "Audio nice -10 (loads nice 19)". */
static void rs_pair_key(char *buf, size_t len, const char *fmt, int n, const char *sim, int ln, const char *lw)
{
	int w = snprintf(buf, len, fmt, n, sim);
	if (ln > 0 && w > 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, " (loads %.*s)", ln, lw);
}

bool rs_metric_is_latency(enum rs_metric m)
{
	return m == RS_MEAN || m == RS_P99 || m == RS_MAX || m == RS_SMEAN || m == RS_SMAX;
}

bool rs_metric_higher_worse(enum rs_metric m)
{
	return m != RS_CPU && m != RS_MET && m != RS_LOW1;
}

bool rs_metric_is_time(enum rs_metric m)
{
	return rs_metric_is_latency(m) || m == RS_STREAK || m == RS_FRAME_P99 || m == RS_STOLEN;
}

const char *rs_metric_unit(enum rs_metric m)
{
	return rs_metric_is_time(m) ? "ms" : m == RS_LOW1 ? "fps" : m == RS_XRUNS ? "/min" : "%";
}

const char *rs_metric_name(enum rs_metric m)
{
	static const char *const names[RS_METRICS] = {
		[RS_MEAN] = "mean latency", [RS_P99] = "p99 latency", [RS_MAX] = "max latency",
		[RS_CPU] = "% desired CPU", [RS_MET] = "% deadlines met", [RS_SMEAN] = "mean sched latency",
		[RS_SMAX] = "max sched latency", [RS_STREAK] = "longest miss run", [RS_FRAME_P99] = "p99 frame time",
		[RS_LOW1] = "1% low fps", [RS_XRUNS] = "xruns per minute", [RS_STOLEN] = "stolen p99",
	};
	return m < RS_METRICS ? names[m] : "?";
}

void result_set_free(struct result_set *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->pairs[i].v);
	free(rs->pairs);
	rs->pairs = NULL;
	rs->n = rs->cap = 0;
}

const struct rs_pair *result_set_find_name(const struct result_set *rs, const char *sim, const char *load)
{
	size_t n = strcspn(sim, " ");
	for (size_t i = 0; i < rs->n; i++)
		if (strcspn(rs->pairs[i].sim, " ") == n && strncmp(rs->pairs[i].sim, sim, n) == 0 &&
		    strcmp(rs->pairs[i].load, load) == 0)
			return &rs->pairs[i];
	return NULL;
}

const struct rs_pair *result_set_find(const struct result_set *rs, const char *sim, const char *load)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->pairs[i].sim, sim) == 0 && strcmp(rs->pairs[i].load, load) == 0)
			return &rs->pairs[i];
	return NULL;
}

/* The pair (sim, load), created when new; the names are kept escaped (text_escape_line), so
 * no input can put a control character or escape sequence on the terminal.  NULL with err set
 * on a too long name or too many. */
static struct rs_pair *pair_get(struct result_set *rs, const char *raw_sim, const char *raw_load, char *err,
				size_t errlen)
{
	char sim[sizeof(((struct rs_pair *)0)->sim) + 1], load[sizeof(((struct rs_pair *)0)->load) + 1];
	text_escape_line(raw_sim, sim, sizeof(sim));
	text_escape_line(raw_load, load, sizeof(load));
	struct rs_pair *p = (struct rs_pair *)result_set_find(rs, sim, load);
	if (p)
		return p;
	if (strlen(sim) >= sizeof(p->sim) || strlen(load) >= sizeof(p->load) || !*sim || !*load) {
		fail(err, errlen, "simulation or load name empty or too long");
		return NULL;
	}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 16;
		void *np = rs->n >= RS_MAX_PAIRS ? NULL : realloc(rs->pairs, cap * sizeof(*rs->pairs));
		if (!np) {
			fail(err, errlen, "too many pairs");
			return NULL;
		}
		rs->pairs = np;
		rs->cap = cap;
	}
	p = &rs->pairs[rs->n++];
	memset(p, 0, sizeof(*p));
	snprintf(p->sim, sizeof(p->sim), "%s", sim);
	snprintf(p->load, sizeof(p->load), "%s", load);
	return p;
}

static int pair_add(struct result_set *rs, struct rs_pair *p, const struct rs_values *v, char *err, size_t errlen)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 4;
		void *nv = p->n >= RS_MAX_REPEATS ? NULL : realloc(p->v, cap * sizeof(*p->v));
		if (!nv)
			return fail(err, errlen, "too many repeats of %s/%s", p->sim, p->load);
		p->v = nv;
		p->cap = cap;
	}
	p->v[p->n++] = *v;
	for (int m = 0; m < RS_METRICS; m++)
		if (!isnan(v->m[m]))
			rs->has[m] = true;
	return 0;
}

static void pair_failed(struct rs_pair *p, const char *why)
{
	if (p->failed++ == 0)
		text_escape_line(why, p->why, sizeof(p->why));
}

/* ---- JSON ---- */

/* Integer member key of result object o (results[idx]) within [0, max]. */
static int json_uint(const json_t *o, const char *key, size_t idx, json_int_t max, double *out,
		     char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return fail(err, errlen, "results[%zu]: missing \"%s\"", idx, key);
	if (!json_is_integer(v))
		return fail(err, errlen, "results[%zu].%s: not an integer", idx, key);
	json_int_t i = json_integer_value(v);
	if (i < 0 || i > max)
		return fail(err, errlen, "results[%zu].%s: %lld out of range 0..%lld", idx, key,
			    (long long)i, (long long)max);
	*out = (double)i;
	return 0;
}

static const char *json_str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Reads key as json_uint does, or null (NaN) when allow_null.  Returns 0, or -1. */
static int json_uint_or_null(const json_t *o, const char *key, size_t idx, json_int_t max, bool allow_null,
			     double *out, char *err, size_t errlen)
{
	if (allow_null && json_is_null(json_object_get(o, key))) {
		*out = NAN;
		return 0;
	}
	return json_uint(o, key, idx, max, out, err, errlen);
}

static int json_values(const json_t *r, size_t idx, struct rs_values *v, char *err, size_t errlen)
{
	double samples = NAN;   /* absent: not said, figures taken as they are */
	if (json_object_get(r, JK_SAMPLES) && json_uint(r, JK_SAMPLES, idx, INT64_MAX, &samples, err, errlen) != 0)
		return -1;
	v->no_samples = samples == 0;  /* results before null existed wrote 0s: no figure either */
	/* optional: absent in documents written before the key existed (the figure is then NaN);
	 * the stutter and audio figures may also be null (no frames, not an audio task) */
	static const struct { enum rs_metric m; const char *key; json_int_t max; double scale; bool optional; } f[] = {
		{ RS_STREAK, JK_MISS_STREAK_NS, INT64_MAX, 1, true }, { RS_FRAME_P99, JK_FRAME_P99, INT64_MAX, 1, true },
		{ RS_LOW1, JK_LOW1, INT64_MAX, 1e-3, true }, { RS_XRUNS, JK_XRUNS, INT64_MAX, 1, true },
		{ RS_STOLEN, JK_STOLEN_P99, INT64_MAX, 1, true },
		{ RS_MEAN, JK_IB_LATENCY_MEAN, INT64_MAX, 1, true }, { RS_P99, JK_LATENCY_P99, INT64_MAX, 1, false },
		{ RS_MAX, JK_IB_LATENCY_MAX, INT64_MAX, 1, true }, { RS_CPU, JK_DESIRED_CPU, RS_MAX_CPU_PCT * 10000, 1e-4, false },
		{ RS_MET, JK_DEADLINES_MET, 1000000, 1e-4, false }, { RS_SMEAN, JK_LATENCY_MEAN, INT64_MAX, 1, false },
		{ RS_SMAX, JK_LATENCY_MAX, INT64_MAX, 1, false },
	};
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		bool latency = rs_metric_is_latency(f[k].m);
		const json_t *jv = json_object_get(r, f[k].key);
		if (f[k].optional && (!jv || (f[k].m >= RS_STREAK && json_is_null(jv)))) {
			v->m[f[k].m] = NAN;
			continue;
		}
		if (json_uint_or_null(r, f[k].key, idx, f[k].max, latency && v->no_samples, &v->m[f[k].m],
				      err, errlen) != 0)
			return -1;
		v->m[f[k].m] = latency && v->no_samples ? NAN : v->m[f[k].m] * f[k].scale;
	}
	if (!json_is_true(json_object_get(r, JK_HAS_DEADLINES)))
		v->m[RS_MET] = v->m[RS_STREAK] = NAN;
	else
		v->m[RS_LOW1] = NAN;  /* "1% low" is Gaming's figure */
	double run_ns = NAN;      /* xruns per minute of the task's run */
	if (!isnan(v->m[RS_XRUNS]) && json_uint(r, JK_TASK_RUN, idx, INT64_MAX, &run_ns, err, errlen) != 0)
		return -1;
	if (!isnan(v->m[RS_XRUNS]))
		v->m[RS_XRUNS] = run_ns > 0 ? v->m[RS_XRUNS] * 60e9 / run_ns : NAN;
	return 0;
}

int result_set_json_key(const json_t *r, char *buf, size_t len)
{
	const char *sim = json_str(r, JK_SIMULATION), *mode = json_str(r, JK_MODE), *load_mode = json_str(r, JK_LOAD_MODE);
	char sim_mode[128];
	if (!sim)
		return -1;
	snprintf(sim_mode, sizeof(sim_mode), "%s%s%s", sim, mode && *mode ? " " : "", mode ? mode : "");
	rs_pair_key(buf, len, "%.*s", (int)strlen(sim_mode), sim_mode, load_mode ? (int)strlen(load_mode) : 0,
		    load_mode ? load_mode : "");
	return 0;
}

static int json_result(struct result_set *rs, const json_t *r, size_t idx, char *err, size_t errlen)
{
	const char *load = json_str(r, JK_LOAD);
	char key[192];
	if (!json_is_object(r) || result_set_json_key(r, key, sizeof(key)) != 0 || !load)
		return fail(err, errlen, "results[%zu]: not an object with string \"simulation\" and \"load\"", idx);
	struct rs_pair *p = pair_get(rs, key, load, err, errlen);
	if (!p)
		return -1;
	const json_t *failed = json_object_get(r, JK_FAILED);
	if (failed) {
		if (!json_is_string(failed))
			return fail(err, errlen, "results[%zu].failed: not a string", idx);
		pair_failed(p, json_string_value(failed));
		return 0;
	}
	if (json_is_true(json_object_get(r, JK_INTERRUPTED))) {
		pair_failed(p, RS_INTERRUPTED_WHY);
		return 0;
	}
	struct rs_values v;
	if (json_values(r, idx, &v, err, errlen) != 0)
		return -1;
	return pair_add(rs, p, &v, err, errlen);
}

/* Adds fact name = the JSON value v: a string as it is, null as "none", anything else as its
 * compact JSON text. */
static void add_fact(struct result_set *rs, const char *name, const json_t *v)
{
	if (!v || rs->n_facts == RS_FACTS)
		return;
	struct rs_fact *f = &rs->facts[rs->n_facts++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	char *text = json_is_string(v) || json_is_null(v) ? NULL : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	snprintf(f->value, sizeof(f->value), "%s",
		 json_is_string(v) ? json_string_value(v) : text ? text : "none");
	free(text);
}

/* Whether run option key is a fact: not when compare matches it per pair (the task's and the
 * loads' settings, -r), nor when it only selects or names the run's inputs and outputs. */
static bool option_is_fact(const char *key)
{
	static const char *const not_facts[] = { "comment", "timeline", "loads", "exclude_loads", "sims",
		"exclude_sims", "repeat", "recalibrate", "console_only", "realtime", "bench_nice", "load_nice",
		"bench_policy", "load_policy" };
	for (size_t i = 0; i < sizeof(not_facts) / sizeof(not_facts[0]); i++)
		if (strcmp(key, not_facts[i]) == 0)
			return false;
	return true;
}

/* The facts compare sets side by side: the machine, what confined the run (the CPUs it
 * could use, its cgroups' CPU quota and cpuset, another run at the same time), its audit's
 * settings that decide interactivity, and the run's options that shape every pair (-t, -L,
 * CPU placement, the wakeup latency limit held, each workload's own options such as
 * --dsp-load).  A fact a result does not carry (written before it was recorded) is not
 * compared. */
static void json_facts(struct result_set *rs, const json_t *doc)
{
	static const char *const machine[] = { "cpu_model", "online_cpus", "preempt_model", "preempt_mode",
		"allowed_cpus", "allowed_cpu_list", "cpu_quota_us", "cpu_quota_period_us", "cpuset" };
	static const char *const audit[] = { "cpufreq_governor", "smt", "deepest_idle_state", "sched_ext", "cmdline" };
	const json_t *m = json_object_get(doc, "machine"), *a = json_object_get(m, "audit"), *v;
	for (size_t i = 0; i < sizeof(machine) / sizeof(machine[0]); i++)
		add_fact(rs, machine[i], json_object_get(m, machine[i]));
	add_fact(rs, "concurrent_run_pid", json_object_get(json_object_get(doc, "run"), "concurrent_run_pid"));
	for (size_t i = 0; i < sizeof(audit) / sizeof(audit[0]); i++)
		add_fact(rs, audit[i], json_object_get(json_object_get(a, audit[i]), "value"));
	const char *key;
	json_object_foreach(json_object_get(doc, "options"), key, v)
		if (option_is_fact(key))
			add_fact(rs, key, v);
}

static int parse_json(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	int rc = -1;
	rs->format = "json";
	if (!doc)
		return fail(err, errlen, "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
	const json_t *ver = json_object_get(doc, JK_SCHEMA_VERSION), *results = json_object_get(doc, JK_RESULTS);
	const char *gen = json_str(doc, JK_GENERATOR);
	if (!json_is_object(doc) || !gen || !report_generator_is_ours(gen))
		fail(err, errlen, "not an interbench result (no \"generator\": \"interbench VERSION\")");
	else if (!json_is_integer(ver))
		fail(err, errlen, "\"schema_version\" missing or not an integer");
	else if (json_integer_value(ver) < REPORT_SCHEMA_OLDEST || json_integer_value(ver) > REPORT_SCHEMA_VERSION)
		fail(err, errlen, "schema version %lld is not supported (this interbench reads versions %d to %d)",
		     (long long)json_integer_value(ver), REPORT_SCHEMA_OLDEST, REPORT_SCHEMA_VERSION);
	else if (!json_is_array(results))
		fail(err, errlen, "\"results\" missing or not an array");
	else
		rc = 0;
	for (size_t i = 0; rc == 0 && i < json_array_size(results); i++)
		rc = json_result(rs, json_array_get(results, i), i, err, errlen);
	if (rc == 0)
		json_facts(rs, doc);
	json_decref(doc);
	return rc;
}

/* ---- logfiles ---- */

/* Table state while reading a logfile. */
struct table_cols {
	char sim[96];         /* current table's simulation, "" outside a table */
	bool header;          /* the column header has been read */
	double unit_ns;       /* 1e6 for (ms), 1e3 for (us) */
	bool deadlines;       /* "% Deadlines Met" column */
	int extra;            /* verbose columns after the classic ones */
	int p99_col;          /* index of "p99" among them, or -1 */
	long last_row;        /* index in rs->pairs of the pair the last row added to, or -1 */
	bool sched_classic;   /* this run's classic columns are scheduling latency (a log of this
	                         program from before TABLE_DEFINITIONS_LINE), not interbench's */
};

/* Splits line (modified) into at most max whitespace-separated tokens; returns the count, or
 * max + 1 when there are more. */
static int tokenize(char *line, char **tok, int max)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == max)
			return max + 1;
		tok[n++] = t;
	}
	return n;
}

/* A non-negative finite number, the whole token, at most max. */
/* Whether s is a figure as the tables print it: digits, an optional fraction and an optional
 * exponent ("0.518", "1.2e+03": interbench 0.31 writes %g); no sign, hex, inf or nan. */
static bool plain_decimal(const char *s)
{
	size_t i = strspn(s, "0123456789");
	if (i == 0)
		return false;
	if (s[i] == '.')
		i += 1 + strspn(s + i + 1, "0123456789");
	if (s[i] == 'e' || s[i] == 'E') {
		i += 1 + (s[i + 1] == '+' || s[i + 1] == '-');
		size_t d = strspn(s + i, "0123456789");
		if (d == 0)
			return false;
		i += d;
	}
	return s[i] == '\0';
}

static int number(const char *s, double max, double *out)
{
	char *end;
	if (!plain_decimal(s))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "--- Benchmarking [simulated cpu of ]NAME[ MODE] in the presence of ..." */
static int table_title(struct table_cols *c, const char *line, size_t lineno, char *err, size_t errlen)
{
	const char *s = line + strlen(LOG_TITLE);
	if (log_starts(s, LOG_TITLE_SIM))
		s += strlen(LOG_TITLE_SIM);
	const char *end = strstr(s, LOG_TITLE_PRESENCE);
	if (!end || end == s || (size_t)(end - s) >= sizeof(c->sim))
		return fail(err, errlen, "line %zu: malformed table title", lineno);
	/* the loads' setting: "... in the presence of simulated nice 19 ---" */
	const char *lw = end + strlen(LOG_TITLE_PRESENCE);
	lw += strspn(lw, " ");
	bool simulated = log_starts(lw, LOG_TITLE_SIMULATED);  /* 0.31 and ours; 0.20 says "loads" */
	lw += simulated ? strlen(LOG_TITLE_SIMULATED) : 0;
	lw += strspn(lw, " ");
	const char *lend = strstr(lw, LOG_TITLE_END);
	size_t llen = simulated && lend ? (size_t)(lend - lw) : 0;
	while (llen && lw[llen - 1] == ' ')
		llen--;
	bool sched_classic = c->sched_classic;  /* the run's, kept across its tables */
	memset(c, 0, sizeof(*c));
	c->last_row = -1;
	c->sched_classic = sched_classic;
	rs_pair_key(c->sim, sizeof(c->sim), "%.*s", (int)(end - s), s, (int)llen, lw);
	return 0;
}

static int table_header_line(struct table_cols *c, char *line, size_t lineno, char *err, size_t errlen)
{
	const char *unit = strstr(line, LOG_COL_LATENCY);
	if (!unit)
		return fail(err, errlen, "line %zu: expected the column header", lineno);
	unit += strlen(LOG_COL_LATENCY);
	c->unit_ns = strncmp(unit, "ms)", 3) == 0 ? 1e6 : strncmp(unit, "us)", 3) == 0 ? 1e3 : 0;
	if (c->unit_ns == 0)
		return fail(err, errlen, "line %zu: unknown latency unit", lineno);
	c->deadlines = strstr(line, LOG_COL_DEADLINES) != NULL;
	c->p99_col = -1;
	const char *last = c->deadlines ? LOG_COL_DEADLINES : LOG_COL_DESIRED;
	const char *tail = strstr(line, last);
	if (!tail)
		return fail(err, errlen, "line %zu: expected a %% Desired CPU column", lineno);
	char buf[512], *tok[32];
	snprintf(buf, sizeof(buf), "%s", tail + strlen(last));
	int n = tokenize(buf, tok, 31);
	for (int i = 0; i < n && i < 31 && strcmp(tok[i], LOG_COL_REPEATS) != 0; i++) {
		if ((strcmp(tok[i], "timer") == 0 || strcmp(tok[i], "late") == 0 || strcmp(tok[i], "cpu") == 0 ||
		     strcmp(tok[i], "frame") == 0) && i + 1 < n)
			i++; /* "timer p99", "late max", "cpu %", "frame p99": one column */
		else if (strcmp(tok[i], "p99") == 0)
			c->p99_col = c->extra;
		c->extra++;
	}
	c->header = true;
	return 0;
}

static int table_row_line(struct result_set *rs, struct table_cols *c, char *line, size_t lineno,
			  char *err, size_t errlen)
{
	/* "LOAD failed: REASON": the reason is the rest of the line, spaces and all. */
	char why[sizeof(((struct rs_pair *)0)->why)] = "";
	const char *after = line + strcspn(line, " \t");
	after += strspn(after, " \t");
	bool failed = log_starts(after, LOG_FAILED);
	if (failed) {
		after += strlen(LOG_FAILED) + strspn(after + strlen(LOG_FAILED), " \t");
		snprintf(why, sizeof(why), "%.*s", (int)strcspn(after, "\r"), after);
	}
	char *tok[48];
	int n = tokenize(line, tok, 47);
	struct rs_pair *p = n > 0 ? pair_get(rs, c->sim, tok[0], err, errlen) : NULL;
	if (!p)
		return n > 0 ? -1 : 0;
	if (failed) {
		pair_failed(p, why[0] ? why : JK_FAILED);
		return 0;
	}
	int classic = c->deadlines ? 7 : 6; /* load mean +/- sd max cpu [met] */
	struct rs_values v = { .no_samples = false };
	double sd;
	for (int m = 0; m < RS_METRICS; m++)
		v.m[m] = NAN;
	if (n >= classic + c->extra && strcmp(tok[1], TABLE_NO_SAMPLES) == 0 && strcmp(tok[3], TABLE_NO_SAMPLES) == 0 &&
	    strcmp(tok[4], TABLE_NO_SAMPLES) == 0) {  /* a pair with no latency sample */
		v.no_samples = true;
		tok[1] = tok[3] = tok[4] = "0";
		if (c->p99_col >= 0)
			tok[classic + c->p99_col] = "0";
	}
	if (n < classic + c->extra || strcmp(tok[2], "+/-") != 0 || number(tok[1], 1e15, &v.m[RS_MEAN]) ||
	    number(tok[3], 1e15, &sd) || number(tok[4], 1e15, &v.m[RS_MAX]) ||
	    number(tok[5], RS_MAX_CPU_PCT, &v.m[RS_CPU]) || (c->deadlines && number(tok[6], 100, &v.m[RS_MET])) ||
	    (c->p99_col >= 0 && number(tok[classic + c->p99_col], 1e15, &v.m[RS_P99])))
		return fail(err, errlen, "line %zu: malformed or truncated row for %s", lineno, c->sim);
	v.m[RS_MEAN] = v.no_samples ? NAN : v.m[RS_MEAN] * c->unit_ns;
	v.m[RS_MAX] = v.no_samples ? NAN : v.m[RS_MAX] * c->unit_ns;
	v.m[RS_P99] = v.no_samples ? NAN : v.m[RS_P99] * c->unit_ns;
	if (c->sched_classic) {  /* an older log of ours: the classic columns are scheduling latency */
		v.m[RS_SMEAN] = v.m[RS_MEAN];
		v.m[RS_SMAX] = v.m[RS_MAX];
		v.m[RS_MEAN] = v.m[RS_MAX] = NAN;
	}
	c->last_row = p - rs->pairs;
	return pair_add(rs, p, &v, err, errlen);
}

/* "interrupted: measured for X of Y s" under a row: that row is a partial window, so it is
 * taken back and the pair counted as failed, as its JSON entry (JK_INTERRUPTED: true) is. */
static void interrupted_row(struct result_set *rs, struct table_cols *c)
{
	if (c->last_row < 0)
		return;
	struct rs_pair *p = &rs->pairs[c->last_row];
	if (p->n > 0)
		p->n--;
	pair_failed(p, RS_INTERRUPTED_WHY);
	c->last_row = -1;
}

/* A line our logfile puts under a row: the load's throughput ("load: Burn 5.80G loops/s",
 * "load (one repeat): ..."), which compare does not read. */
static bool load_work_line(const char *line)
{
	return log_starts(line, LOG_LOAD_WORK) || log_starts(line, LOG_LOAD_WORK_REPEAT);
}

/* One line of a logfile (without its newline; modified). */
static int log_line(struct result_set *rs, struct table_cols *c, char *line, size_t lineno, char *err, size_t errlen)
{
	line += strspn(line, " \t");
	/* "*** interrupted: ..." and the next run's "Using N loops per ms" (appended right after
	 * the last row) end any table. */
	if (log_starts(line, "*** ") || (log_starts(line, LOG_USING) && strstr(line, LOG_USING_LOOPS))) {
		c->sim[0] = '\0';
		return 0;
	}
	if (log_starts(line, LOG_KERNEL)) { /* a new run: keep only the last */
		result_set_free(rs);
		memset(rs->has, 0, sizeof(rs->has));
		c->sim[0] = '\0';
		c->last_row = -1;
		c->sched_classic = false;  /* interbench 0.31's, unless the header says it is ours */
		return 0;
	}
	if (!c->sim[0] && log_starts(line, LOG_KERNEL_VERSION)) { /* our header: our tables */
		c->sched_classic = true;
		return 0;
	}
	if (!c->sim[0] && strncmp(line, TABLE_DEFINITIONS_PREFIX, strlen(TABLE_DEFINITIONS_PREFIX)) == 0) {
		c->sched_classic = false;
		return 0;
	}
	if (log_starts(line, LOG_TITLE))
		return table_title(c, line, lineno, err, errlen);
	if (!*line || *line == '\r' || !c->sim[0]) {
		c->sim[0] = '\0'; /* a blank line ends a table; prose outside tables is skipped */
		return 0;
	}
	if (!c->header)
		return table_header_line(c, line, lineno, err, errlen);
	if (load_work_line(line))
		return 0;
	if (log_starts(line, LOG_ROW_INTERRUPTED)) {
		interrupted_row(rs, c);
		return 0;
	}
	return table_row_line(rs, c, line, lineno, err, errlen);
}

static int parse_logfile(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen)
{
	struct table_cols c = { .sim = "", .last_row = -1 };
	char *copy = malloc(len + 1);
	rs->format = "logfile";
	if (!copy)
		return fail(err, errlen, "out of memory");
	memcpy(copy, buf, len);
	copy[len] = '\0';
	int rc = 0;
	size_t lineno = 1;
	for (char *line = copy, *nl; rc == 0 && line; line = nl ? nl + 1 : NULL, lineno++) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		rc = log_line(rs, &c, line, lineno, err, errlen);
	}
	free(copy);
	if (rc == 0 && rs->n == 0)
		rc = fail(err, errlen, "not an interbench result (no benchmark table found)");
	return rc;
}

int result_set_parse(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen)
{
	memset(rs, 0, sizeof(*rs));
	size_t skip = 0;
	while (skip < len && strchr(" \t\r\n", buf[skip]) && buf[skip])
		skip++;
	int rc;
	if (skip == len)
		rc = fail(err, errlen, "empty file");
	else if (memchr(buf, '\0', len))
		rc = fail(err, errlen, "binary data (NUL bytes): not an interbench result");
	else if (buf[skip] == '{')
		rc = parse_json(buf, len, rs, err, errlen);
	else
		rc = parse_logfile(buf, len, rs, err, errlen);
	if (rc == 0 && rs->n == 0)
		rc = fail(err, errlen, "no results in the file");
	if (rc != 0)
		result_set_free(rs);
	return rc;
}

int result_set_load(const char *path, struct result_set *rs, char *err, size_t errlen)
{
	size_t len = 0;
	memset(rs, 0, sizeof(*rs));
	char *buf = safe_read_file(path, RS_MAX_BYTES, &len, err, errlen);
	if (!buf)
		return -1;
	int rc = result_set_parse(buf, len, rs, err, errlen);
	free(buf);
	return rc;
}
