#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <search.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report/logformat.h"
#include "report/jsonkeys.h"
#include "host/disturb.h"
#include "lib/histogram.h"
#include "lib/safefile.h"
#include "tools/resultset.h"
#include "report/table.h"
#include "lib/text.h"


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

void result_set_free(struct result_set *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->pairs[i].v);
	free(rs->pairs);
	tdestroy(rs->by_key, free);
	tdestroy(rs->by_name, free);
	rs->by_key = rs->by_name = NULL;
	rs->pairs = NULL;
	rs->n = rs->cap = 0;
}

/* ---- the indexes (struct result_set.by_key, .by_name) ---- */

/* A node of an index: the pair's place in pairs and what it is ordered by, "FIRST\0LOAD\0"
 * with FIRST its key (by_key) or its task name (by_name). */
struct rs_key {
	size_t idx;
	size_t first_len;          /* bytes of FIRST */
	char text[];
};

/* Room for the text of any pair's key: names longer than rs_pair's fields match no pair. */
#define RS_KEY_TEXT (sizeof(((struct rs_pair *)0)->sim) + sizeof(((struct rs_pair *)0)->load))

/* The order of both indexes: FIRST, then LOAD, byte by byte (strcmp). */
static int key_cmp(const void *a, const void *b)
{
	const struct rs_key *x = a, *y = b;
	int c = strcmp(x->text, y->text);
	return c ? c : strcmp(x->text + x->first_len + 1, y->text + y->first_len + 1);
}

/* Fills k (with room for RS_KEY_TEXT bytes of text) with first[0..first_len) and load.
 * Returns false when they do not fit: no pair has such names. */
static bool key_fill(struct rs_key *k, size_t idx, const char *first, size_t first_len, const char *load)
{
	size_t load_len = strlen(load);
	if (first_len + load_len + 2 > RS_KEY_TEXT)
		return false;
	k->idx = idx;
	k->first_len = first_len;
	memcpy(k->text, first, first_len);
	k->text[first_len] = '\0';
	memcpy(k->text + first_len + 1, load, load_len + 1);
	return true;
}

/* The pair of index root whose FIRST is first[0..first_len) and whose load is load, or NULL. */
static const struct rs_pair *index_find(const struct result_set *rs, void *const *root, const char *first,
					size_t first_len, const char *load)
{
	_Alignas(struct rs_key) char buf[sizeof(struct rs_key) + RS_KEY_TEXT];
	struct rs_key *probe = (struct rs_key *)buf;
	if (!key_fill(probe, 0, first, first_len, load))
		return NULL;
	struct rs_key *const *hit = tfind(probe, root, key_cmp);
	return hit ? &rs->pairs[(*hit)->idx] : NULL;
}

/* Adds pairs[idx] to index *root under first[0..first_len) and its load, unless a pair is
 * there under the same text already (by_name keeps the first).  Returns 0, or -1 when out of
 * memory. */
static int index_add(void **root, const struct rs_pair *p, size_t idx, size_t first_len)
{
	struct rs_key *k = malloc(sizeof(*k) + first_len + strlen(p->load) + 2);
	if (!k || !key_fill(k, idx, p->sim, first_len, p->load)) {
		free(k);
		return -1;
	}
	struct rs_key **node = tsearch(k, root, key_cmp);
	if (!node || *node != k)
		free(k);
	return node ? 0 : -1;
}

const struct rs_pair *result_set_find_name(const struct result_set *rs, const char *sim, const char *load)
{
	return index_find(rs, &rs->by_name, sim, strcspn(sim, " "), load);
}

const struct rs_pair *result_set_find(const struct result_set *rs, const char *sim, const char *load)
{
	return index_find(rs, &rs->by_key, sim, strlen(sim), load);
}

/* Makes room for one more element in arr (n used of *cap, elem bytes each), doubling from
 * first.  Returns the array, moved or not, or NULL when out of memory (arr then unchanged). */
static void *grow(void *arr, size_t *cap, size_t n, size_t elem, size_t first)
{
	if (n < *cap)
		return arr;
	size_t ncap = *cap ? *cap * 2 : first;
	void *na = realloc(arr, ncap * elem);
	if (na)
		*cap = ncap;
	return na;
}

/* Appends a pair named sim and load (checked to fit) to rs and its indexes.  NULL with err set
 * beyond RS_MAX_PAIRS or when out of memory. */
static struct rs_pair *pair_new(struct result_set *rs, const char *sim, const char *load, char *err, size_t errlen)
{
	if (rs->n >= RS_MAX_PAIRS) {
		fail(err, errlen, "more than %d (simulation, load) pairs", RS_MAX_PAIRS);
		return NULL;
	}
	struct rs_pair *pairs = grow(rs->pairs, &rs->cap, rs->n, sizeof(*rs->pairs), 16);
	if (!pairs) {
		fail(err, errlen, "out of memory");
		return NULL;
	}
	rs->pairs = pairs;
	struct rs_pair *p = &rs->pairs[rs->n];
	memset(p, 0, sizeof(*p));
	snprintf(p->sim, sizeof(p->sim), "%s", sim);
	snprintf(p->load, sizeof(p->load), "%s", load);
	if (index_add(&rs->by_key, p, rs->n, strlen(p->sim)) != 0 ||
	    index_add(&rs->by_name, p, rs->n, strcspn(p->sim, " ")) != 0) {
		fail(err, errlen, "out of memory");
		return NULL;
	}
	rs->n++;
	return p;
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
	return pair_new(rs, sim, load, err, errlen);
}

static int pair_add(struct result_set *rs, struct rs_pair *p, const struct rs_values *v, char *err, size_t errlen)
{
	if (p->n >= RS_MAX_REPEATS)
		return fail(err, errlen, "more than %d repeats of %s/%s", RS_MAX_REPEATS, p->sim, p->load);
	struct rs_values *v_new = grow(p->v, &p->cap, p->n, sizeof(*p->v), 4);
	if (!v_new)
		return fail(err, errlen, "out of memory");
	p->v = v_new;
	p->v[p->n++] = *v;
	for (int m = 0; m < JM_METRICS; m++)
		if (!isnan(v->m[m]))
			rs->has[m] = true;
	return 0;
}

static void pair_failed(struct rs_pair *p, const char *why)
{
	if (p->failed++ == 0)
		text_escape_line(why, p->why, sizeof(p->why));
}

/* A repeat that took no latency sample (rs_values.no_samples: the task never ran) met no
 * deadline, whatever its source says (a run without a period counts 100 %): its % deadlines
 * met is 0 where the figure is carried. */
static void starved_met(struct rs_values *v)
{
	if (v->no_samples && !isnan(v->m[JM_MET]))
		v->m[JM_MET] = 0;
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

/* Sets every figure and interval of v to NaN (not in the result) and no_samples false. */
static void rs_values_init(struct rs_values *v)
{
	v->no_samples = false;
	for (int m = 0; m < JM_METRICS; m++)
		v->m[m] = v->lo[m] = v->hi[m] = NAN;
}

/* Reads figure f (compared: f->cmp) of results[idx] into v: absent in a document written
 * before the key existed (not f->cmp->required), or null where the figure has no value (no
 * frames, no buffer), it is NaN; a latency null only when the result took no sample, then
 * +INFINITY (rs_values.no_samples); else an integer in range, divided by its JSON scale.
 * Returns 0, or -1 with err set. */
static int json_figure(const json_t *r, size_t idx, const struct task_figure *f, struct rs_values *v, char *err,
		       size_t errlen)
{
	const struct figure_compare *c = f->cmp;
	bool latency = f->null_rule == FIG_NULL_NO_SAMPLES;
	const json_t *jv = json_object_get(r, f->json_key);
	double *out = &v->m[c->metric];
	json_int_t max = c->max_value > 0 ? (json_int_t)(c->max_value * f->json_scale) : INT64_MAX;
	if (!c->required && (!jv || (!latency && json_is_null(jv)))) {
		*out = NAN;
		return 0;
	}
	if (json_uint_or_null(r, f->json_key, idx, max, latency && v->no_samples, out, err, errlen) != 0)
		return -1;
	*out = latency && v->no_samples ? INFINITY : *out * (1 / f->json_scale); /* 1 / 1e4 is 1e-4 */
	return 0;
}

/* Reads the interval of figure f (f->ci) of results[idx] into v->lo and v->hi: absent or
 * null, NaN; else [low, high], integers with low <= high, divided by the figure's JSON scale.
 * Returns 0, or -1 with err set. */
static int json_interval(const json_t *r, size_t idx, const struct task_figure *f, struct rs_values *v, char *err,
			 size_t errlen)
{
	enum judged_metric m = f->cmp->metric;
	const json_t *a = json_object_get(r, f->ci->json_key);
	v->lo[m] = v->hi[m] = NAN;
	if (!a || json_is_null(a))
		return 0;
	const json_t *lo = json_array_get(a, 0), *hi = json_array_get(a, 1);
	if (!json_is_array(a) || json_array_size(a) != 2 || !json_is_integer(lo) || !json_is_integer(hi) ||
	    json_integer_value(lo) < 0 || json_integer_value(lo) > json_integer_value(hi))
		return fail(err, errlen, "results[%zu].%s: not null or [low, high], integers with 0 <= low <= high",
			    idx, f->ci->json_key);
	v->lo[m] = (double)json_integer_value(lo) * (1 / f->json_scale);
	v->hi[m] = (double)json_integer_value(hi) * (1 / f->json_scale);
	return 0;
}

static int json_values(const json_t *r, size_t idx, struct rs_values *v, char *err, size_t errlen)
{
	double samples = NAN;   /* absent: not said, figures taken as they are */
	if (json_object_get(r, JK_SAMPLES) && json_uint(r, JK_SAMPLES, idx, INT64_MAX, &samples, err, errlen) != 0)
		return -1;
	v->no_samples = samples == 0;  /* results before null existed wrote 0s: no figure either */
	for (size_t k = 0; k < task_figures_n; k++)
		if (task_figures[k].cmp && (json_figure(r, idx, &task_figures[k], v, err, errlen) != 0 ||
					    (task_figures[k].ci && json_interval(r, idx, &task_figures[k], v, err, errlen) != 0)))
			return -1;
	if (!json_is_true(json_object_get(r, JK_HAS_DEADLINES)))
		v->m[JM_MET] = v->m[JM_STREAK] = NAN;
	else if (!json_is_integer(json_object_get(r, JK_VSYNCS)))
		v->m[JM_LOW1] = NAN;  /* "1% low" is a free-running or presenting task's figure */
	starved_met(v);
	double run_ns = NAN;      /* xruns per minute of the task's run */
	if (!isnan(v->m[JM_XRUNS]) && json_uint(r, JK_TASK_RUN, idx, INT64_MAX, &run_ns, err, errlen) != 0)
		return -1;
	if (!isnan(v->m[JM_XRUNS]))
		v->m[JM_XRUNS] = run_ns > 0 ? v->m[JM_XRUNS] * 60e9 / run_ns : NAN;
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

/* Notes a disturbed repeat of p: other processes took outside_pct % of the run's CPUs, steal_pct
 * % of it steal (NaN: not said); the worst repeat's figures are kept. */
static void pair_disturbed(struct rs_pair *p, double outside_pct, double steal_pct)
{
	if (p->disturbed++ == 0 || outside_pct > p->outside_cpu_pct || isnan(p->outside_cpu_pct)) {
		p->outside_cpu_pct = outside_pct;
		p->steal_pct = steal_pct;
	}
}

/* A measured result's "disturbance" object, when present (doc/json.md): a repeat past the
 * levels of host/disturb.h is noted on p.  Returns 0, or -1 when malformed. */
static int json_disturbance(struct rs_pair *p, const json_t *r, size_t idx, char *err, size_t errlen)
{
	const json_t *d = json_object_get(r, "disturbance");
	double outside, steal;
	if (!d)
		return 0;
	if (!json_is_object(d))
		return fail(err, errlen, "results[%zu].disturbance: not an object", idx);
	if (json_uint(d, "outside_cpu_ppm", idx, INT64_MAX, &outside, err, errlen) != 0 ||
	    json_uint(d, "steal_ppm", idx, INT64_MAX, &steal, err, errlen) != 0)
		return -1;
	if (disturb_ppm_marked((uint64_t)outside, (uint64_t)steal))
		pair_disturbed(p, outside / 1e4, steal / 1e4);
	return 0;
}

/* A measured result's "load_activity" object, when present: a repeat whose load was seen
 * stopped is noted on p.  Returns 0, or -1 when malformed. */
static int json_load_activity(struct rs_pair *p, const json_t *r, size_t idx, char *err, size_t errlen)
{
	const json_t *a = json_object_get(r, "load_activity");
	if (!a)
		return 0;
	if (!json_is_object(a) || !json_is_boolean(json_object_get(a, "stopped")))
		return fail(err, errlen, "results[%zu].load_activity: not an object with a boolean \"stopped\"", idx);
	p->load_stopped += json_is_true(json_object_get(a, "stopped"));
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
	rs_values_init(&v);
	if (json_values(r, idx, &v, err, errlen) != 0 || json_disturbance(p, r, idx, err, errlen) != 0 ||
	    json_load_activity(p, r, idx, err, errlen) != 0)
		return -1;
	const json_t *e = json_object_get(r, "explain");
	if (e && explain_read_json(&p->causes, e, idx, err, errlen) != 0)
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
		"bench_policy", "load_policy", "bench_slice_us", "load_slice_us", "wake" };
	for (size_t i = 0; i < sizeof(not_facts) / sizeof(not_facts[0]); i++)
		if (strcmp(key, not_facts[i]) == 0)
			return false;
	return true;
}

/* The facts compare sets side by side: the machine, what confined the run (the CPUs it
 * could use, its cgroups' CPU quota, realtime budget and cpuset, another run at the same time), its audit's
 * settings that decide interactivity, and the run's options that shape every pair (-t, -L,
 * CPU placement, the wakeup latency limit held, each workload's own options such as
 * --dsp-load).  A fact a result does not carry (written before it was recorded) is not
 * compared. */
static void json_facts(struct result_set *rs, const json_t *doc)
{
	static const char *const machine[] = { "cpu_model", "online_cpus", "preempt_model", "preempt_mode",
		"allowed_cpus", "allowed_cpu_list", "cpu_quota_us", "cpu_quota_period_us", "cpuset",
		"rt_runtime_us", "rt_period_us" };
	static const char *const audit[] = { "cpufreq_governor", "smt", "deepest_idle_state", "scheduler", "sched_ext",
		"cmdline" };
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

/* Reads the parsed document doc into rs (validating what compare reads).  Returns 0, or -1
 * with err set. */
static int parse_json_doc(const json_t *doc, struct result_set *rs, char *err, size_t errlen)
{
	int rc = -1;
	rs->format = "json";
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
	if (rc == 0 && rs->n == 0)
		rc = fail(err, errlen, "no results in the file");
	return rc;
}

/* Parses buf[0..len) as JSON (duplicate keys refused), or says where it is not.  Returns the
 * document, or NULL with err set. */
static json_t *load_json(const char *buf, size_t len, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!doc)
		fail(err, errlen, "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
	return doc;
}

static int parse_json(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen)
{
	json_t *doc = load_json(buf, len, err, errlen);
	int rc = doc ? parse_json_doc(doc, rs, err, errlen) : -1;
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

/* Whether "a b" is the label of a column of the table (report/figures.c column_label: the
 * writer's labels are the reader's, whatever group they are in). */
static bool two_word_label(const char *a, const char *b)
{
	size_t la = strlen(a);
	for (size_t k = 0; k < task_figures_n; k++) {
		const char *l = task_figures[k].column_label;
		if (l && strncmp(l, a, la) == 0 && l[la] == ' ' && strcmp(l + la + 1, b) == 0)
			return true;
	}
	return false;
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
	if (n > 31)
		n = 31;  /* tokenize says "more" with 32: tok[31] is not set */
	for (int i = 0; i < n && strcmp(tok[i], LOG_COL_REPEATS) != 0; i++) {
		if (i + 1 < n && two_word_label(tok[i], tok[i + 1]))
			i++; /* "timer p99", "cpu %", "i2p p99", "1% low": one column */
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
	struct rs_values v;
	double sd;
	rs_values_init(&v);
	if (n >= classic + c->extra && strcmp(tok[1], TABLE_NO_SAMPLES) == 0 && strcmp(tok[3], TABLE_NO_SAMPLES) == 0 &&
	    strcmp(tok[4], TABLE_NO_SAMPLES) == 0) {  /* a pair with no latency sample */
		v.no_samples = true;
		tok[1] = tok[3] = tok[4] = "0";
		if (c->p99_col >= 0)
			tok[classic + c->p99_col] = "0";
	}
	if (n < classic + c->extra || strcmp(tok[2], "+/-") != 0 || number(tok[1], 1e15, &v.m[JM_MEAN]) ||
	    number(tok[3], 1e15, &sd) || number(tok[4], 1e15, &v.m[JM_MAX]) ||
	    number(tok[5], FIG_MAX_CPU_PCT, &v.m[JM_CPU]) || (c->deadlines && number(tok[6], 100, &v.m[JM_MET])) ||
	    (c->p99_col >= 0 && number(tok[classic + c->p99_col], 1e15, &v.m[JM_P99])))
		return fail(err, errlen, "line %zu: malformed or truncated row for %s", lineno, c->sim);
	v.m[JM_MEAN] = v.no_samples ? INFINITY : v.m[JM_MEAN] * c->unit_ns;
	v.m[JM_MAX] = v.no_samples ? INFINITY : v.m[JM_MAX] * c->unit_ns;
	v.m[JM_P99] = v.no_samples && c->p99_col >= 0 ? INFINITY : v.m[JM_P99] * c->unit_ns;
	starved_met(&v);
	if (c->sched_classic) {  /* an older log of ours: the classic columns are scheduling latency */
		v.m[JM_SMEAN] = v.m[JM_MEAN];
		v.m[JM_SMAX] = v.m[JM_MAX];
		v.m[JM_MEAN] = v.m[JM_MAX] = NAN;
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

/* "* disturbed: other processes took X % of the run's CPUs ... (Y % steal)" under a row: the
 * pair of the row above was disturbed (its figures: NaN when they cannot be read). */
static void disturbed_row(struct result_set *rs, const struct table_cols *c, const char *line)
{
	if (c->last_row < 0)
		return;
	const char *took = strstr(line, LOG_ROW_DISTURBED_TOOK), *paren = strrchr(line, '(');
	double outside = NAN, steal = NAN;
	if (!took || sscanf(took + strlen(LOG_ROW_DISTURBED_TOOK), "%lf", &outside) != 1 || !isfinite(outside))
		outside = NAN;
	if (!paren || sscanf(paren + 1 + strcspn(paren + 1, "0123456789"), "%lf", &steal) != 1 || !isfinite(steal))
		steal = NAN;
	pair_disturbed(&rs->pairs[c->last_row], outside, steal);
}

/* A line our logfile puts under a row that compare does not read: the load's throughput
 * ("load: Burn 5.80G loops/s", "load (one repeat): ..."), -v's confidence intervals, the
 * adaptive window's line, --explain's causes or a task's own lines (Pipeline's stages). */
static bool under_row_line(const char *line)
{
	return log_starts(line, LOG_LOAD_WORK) || log_starts(line, LOG_LOAD_WORK_REPEAT) || log_starts(line, LOG_ROW_CI) ||
	       log_starts(line, LOG_ROW_WINDOW) || log_starts(line, LOG_ROW_WHY) || figure_is_task_line(line);
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
	if (under_row_line(line))
		return 0;
	if (log_starts(line, LOG_ROW_INTERRUPTED)) {
		interrupted_row(rs, c);
		return 0;
	}
	if (log_starts(line, LOG_ROW_DISTURBED)) {
		disturbed_row(rs, c, line);
		return 0;
	}
	if (log_starts(line, LOG_ROW_LOAD_STOPPED)) {
		if (c->last_row >= 0)
			rs->pairs[c->last_row].load_stopped++;
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

/* ---- the validated JSON document, for plot ---- */

/* Whether v is an integer within [0, max]. */
static bool json_in_range(const json_t *v, json_int_t max)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= max;
}

/* results[idx].key, when present: an array of at most HIST_BUCKETS [low_ns, count] pairs, both
 * non-negative integers (doc/json.md). */
static int json_hist_check(const json_t *r, const char *key, size_t idx, char *err, size_t errlen)
{
	const json_t *h = json_object_get(r, key), *b;
	size_t i;
	if (!h)
		return 0;
	if (!json_is_array(h) || json_array_size(h) > HIST_BUCKETS)
		return fail(err, errlen, "results[%zu].%s: not an array of at most %u buckets", idx, key, HIST_BUCKETS);
	json_array_foreach(h, i, b)
		if (json_array_size(b) != 2 || !json_in_range(json_array_get(b, 0), INT64_MAX) ||
		    !json_in_range(json_array_get(b, 1), INT64_MAX))
			return fail(err, errlen, "results[%zu].%s[%zu]: not a [low_ns, count] pair of non-negative integers",
				    idx, key, i);
	return 0;
}

/* What plot reads of results[idx] beyond the figures compare reads: the histograms, and the
 * optional integers it draws or matches (absent or null, else within their range). */
static int json_drawn_check(const json_t *r, size_t idx, char *err, size_t errlen)
{
	static const struct { const char *key; json_int_t max; } opt[] = {
		{ "repeat", RS_MAX_REPEATS }, { "interval_us", INT64_MAX }, { "latency_p50_ns", INT64_MAX },
		{ "timeline_pair", UINT32_MAX },
	};
	for (size_t k = 0; k < sizeof(opt) / sizeof(opt[0]); k++) {
		const json_t *v = json_object_get(r, opt[k].key);
		if (v && !json_is_null(v) && !json_in_range(v, opt[k].max))
			return fail(err, errlen, "results[%zu].%s: not an integer in 0..%lld", idx, opt[k].key,
				    (long long)opt[k].max);
	}
	const json_t *ts = json_object_get(r, JK_TASK_SETTINGS), *bp = json_object_get(ts, JK_BUFFER_PERIODS);
	if (ts && (!json_is_object(ts) || (bp && !json_in_range(bp, UINT32_MAX))))
		return fail(err, errlen, "results[%zu].%s: not an object with %s an integer in 0..%u", idx,
			    JK_TASK_SETTINGS, JK_BUFFER_PERIODS, UINT32_MAX);
	if (json_hist_check(r, "latency_histogram", idx, err, errlen) != 0)
		return -1;
	return json_hist_check(r, "timer_latency_histogram", idx, err, errlen);
}

/* Whether a is an array of 1 to RS_MAX_SWEEP_SETTINGS strings. */
static bool json_setting_names(const json_t *a)
{
	size_t i;
	const json_t *s;
	if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > RS_MAX_SWEEP_SETTINGS)
		return false;
	json_array_foreach(a, i, s)
		if (!json_is_string(s))
			return false;
	return true;
}

/* A sweep cell: null (not measured) or the % deadlines met (ppm) and p99 (ns or null). */
static bool json_sweep_cell(const json_t *c)
{
	const json_t *p99 = json_object_get(c, JK_LATENCY_P99);
	return json_is_null(c) || (json_is_object(c) && json_in_range(json_object_get(c, JK_DEADLINES_MET), 1000000) &&
				   (json_is_null(p99) || json_in_range(p99, INT64_MAX)));
}

/* sweeps[idx]: names, the settings of both axes and a cell per pair of them. */
static int json_sweep_check(const json_t *sw, size_t idx, char *err, size_t errlen)
{
	const json_t *rows = json_object_get(sw, "bench_settings"), *cols = json_object_get(sw, "load_settings");
	const json_t *cells = json_object_get(sw, "cells");
	if (!json_str(sw, JK_SIMULATION) || !json_str(sw, JK_LOAD) || !json_setting_names(rows) ||
	    !json_setting_names(cols) || json_array_size(cells) != json_array_size(rows))
		return fail(err, errlen, "sweeps[%zu]: not an object with string \"simulation\" and \"load\", 1 to %d "
			    "\"bench_settings\" and \"load_settings\" and a row of \"cells\" per bench setting", idx,
			    RS_MAX_SWEEP_SETTINGS);
	for (size_t r = 0; r < json_array_size(rows); r++) {
		const json_t *row = json_array_get(cells, r);
		if (json_array_size(row) != json_array_size(cols))
			return fail(err, errlen, "sweeps[%zu].cells[%zu]: not an array of a cell per load setting", idx, r);
		for (size_t c = 0; c < json_array_size(cols); c++)
			if (!json_sweep_cell(json_array_get(row, c)))
				return fail(err, errlen, "sweeps[%zu].cells[%zu][%zu]: not null or an object with integer "
					    "\"%s\" (0..1000000) and \"%s\"", idx, r, c, JK_DEADLINES_MET, JK_LATENCY_P99);
	}
	return 0;
}

/* Checks what of doc result_set_parse does not read (json_drawn_check, json_sweep_check). */
static int json_doc_drawn_check(const json_t *doc, char *err, size_t errlen)
{
	const json_t *sweeps = json_object_get(doc, "sweeps"), *v;
	size_t i;
	json_array_foreach(json_object_get(doc, JK_RESULTS), i, v)
		if (json_drawn_check(v, i, err, errlen) != 0)
			return -1;
	if (sweeps && !json_is_array(sweeps))
		return fail(err, errlen, "\"sweeps\": not an array");
	json_array_foreach(sweeps, i, v)
		if (json_sweep_check(v, i, err, errlen) != 0)
			return -1;
	return 0;
}

json_t *result_json_load(const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	struct result_set rs;
	json_t *doc = NULL;
	char *buf = safe_read_file(path, RS_MAX_BYTES, &len, err, errlen);
	if (!buf)
		return NULL;
	memset(&rs, 0, sizeof(rs));
	if (buf[strspn(buf, " \t\r\n")] != '{')
		fail(err, errlen, "not a JSON result (a logfile carries no histograms)");
	else
		doc = load_json(buf, len, err, errlen);
	free(buf);   /* the document is parsed once, then validated as compare and plot read it */
	if (doc && (parse_json_doc(doc, &rs, err, errlen) != 0 || json_doc_drawn_check(doc, err, errlen) != 0)) {
		json_decref(doc);
		doc = NULL;
	}
	result_set_free(&rs);
	return doc;
}
