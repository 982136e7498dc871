/* The JSON reader of the result set: a result document (doc/json.md) into struct result_set,
 * every member it reads checked (type and range). */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/jsonkeys.h"
#include "engine/summary.h"   /* FIGURE_KEY's fields */
#include "workloads/pipeline_chain.h"
#include "run/options.h"
#include "host/audit.h"
#include "host/disturb.h"
#include "tools/result_read.h"

/* Integer member key of result object o (results[idx]) within [0, max]. */
static int json_uint(const json_t *o, const char *key, size_t idx, json_int_t max, double *out,
		     char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);
	if (!v)
		return rs_fail(err, errlen, "results[%zu]: missing \"%s\"", idx, key);
	if (!json_is_integer(v))
		return rs_fail(err, errlen, "results[%zu].%s: not an integer", idx, key);
	json_int_t i = json_integer_value(v);
	if (i < 0 || i > max)
		return rs_fail(err, errlen, "results[%zu].%s: %lld out of range 0..%lld", idx, key,
			    (long long)i, (long long)max);
	*out = (double)i;
	return 0;
}

const char *rs_json_str(const json_t *o, const char *key)
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
 * null, NaN; else [low, high], integers with low <= high, divided by the figure's JSON scale,
 * or [low, null], an interval open above: v->hi INFINITY.  Returns 0, or -1 with err set. */
static int json_interval(const json_t *r, size_t idx, const struct task_figure *f, struct rs_values *v, char *err,
			 size_t errlen)
{
	enum judged_metric m = f->cmp->metric;
	const json_t *a = json_object_get(r, f->ci->json_key);
	v->lo[m] = v->hi[m] = NAN;
	if (!a || json_is_null(a))
		return 0;
	const json_t *lo = json_array_get(a, 0), *hi = json_array_get(a, 1);
	bool open = json_is_null(hi);
	if (!json_is_array(a) || json_array_size(a) != 2 || !json_is_integer(lo) || (!open && !json_is_integer(hi)) ||
	    json_integer_value(lo) < 0 || (!open && json_integer_value(lo) > json_integer_value(hi)))
		return rs_fail(err, errlen,
			       "results[%zu].%s: not null, [low, high] or [low, null], integers with 0 <= low <= high",
			       idx, f->ci->json_key);
	v->lo[m] = (double)json_integer_value(lo) * (1 / f->json_scale);
	v->hi[m] = open ? INFINITY : (double)json_integer_value(hi) * (1 / f->json_scale);
	return 0;
}

static int json_values(const json_t *r, size_t idx, struct rs_values *v, char *err, size_t errlen)
{
	double samples = NAN;   /* absent: not said, figures taken as they are */
	if (json_object_get(r, FIGURE_KEY(samples)) && json_uint(r, FIGURE_KEY(samples), idx, INT64_MAX, &samples, err, errlen) != 0)
		return -1;
	v->no_samples = samples == 0;  /* results before null existed wrote 0s: no figure either */
	v->samples = samples;
	if (json_object_get(r, FIGURE_KEY(periods)) &&
	    json_uint(r, FIGURE_KEY(periods), idx, INT64_MAX, &v->periods, err, errlen) != 0)
		return -1;
	for (size_t k = 0; k < task_figures_n; k++)
		if (task_figures[k].cmp && (json_figure(r, idx, &task_figures[k], v, err, errlen) != 0 ||
					    (task_figures[k].ci && json_interval(r, idx, &task_figures[k], v, err, errlen) != 0)))
			return -1;
	bool deadlines = json_is_true(json_object_get(r, JK_HAS_DEADLINES));
	bool presenting = json_is_integer(json_object_get(r, TASK_FIGURE_KEY(pipeline_chain_measures, struct chain_figures,
									      vsyncs)));
	for (int m = 0; m < JM_METRICS; m++)
		if (!judged_metric_applies((enum judged_metric)m, deadlines, presenting))
			v->m[m] = NAN;
	rs_starved_met(v);
	double run_ns = NAN;      /* xruns per minute of the task's run */
	if (!isnan(v->m[JM_XRUNS]) && json_uint(r, FIGURE_KEY(task_run_ns), idx, INT64_MAX, &run_ns, err, errlen) != 0)
		return -1;
	if (!isnan(v->m[JM_XRUNS]))
		v->m[JM_XRUNS] = run_ns > 0 ? v->m[JM_XRUNS] * 60e9 / run_ns : NAN;
	return 0;
}

int result_set_json_key(const json_t *r, char *buf, size_t len)
{
	const char *sim = rs_json_str(r, JK_SIMULATION), *mode = rs_json_str(r, JK_MODE), *load_mode = rs_json_str(r, JK_LOAD_MODE);
	char sim_mode[128];
	if (!sim)
		return -1;
	snprintf(sim_mode, sizeof(sim_mode), "%s%s%s", sim, mode && *mode ? " " : "", mode ? mode : "");
	rs_pair_key(buf, len, "%.*s", (int)strlen(sim_mode), sim_mode, load_mode ? (int)strlen(load_mode) : 0,
		    load_mode ? load_mode : "");
	return 0;
}

/* A measured result's "disturbance" object, when present (doc/json.md): a repeat past the
 * levels of host/disturb.h is noted on p.  Returns 0, or -1 when malformed. */
static int json_disturbance(struct rs_pair *p, struct rs_values *v, const json_t *r, size_t idx, char *err,
			    size_t errlen)
{
	const json_t *d = json_object_get(r, JK_DISTURBANCE);
	double outside, steal;
	if (!d)
		return 0;
	if (!json_is_object(d))
		return rs_fail(err, errlen, "results[%zu].disturbance: not an object", idx);
	if (json_uint(d, JK_OUTSIDE_CPU_PPM, idx, INT64_MAX, &outside, err, errlen) != 0 ||
	    json_uint(d, JK_STEAL_PPM, idx, INT64_MAX, &steal, err, errlen) != 0)
		return -1;
	if ((v->disturbed = disturb_ppm_marked((uint64_t)outside, (uint64_t)steal)))
		rs_pair_disturbed(p, outside / 1e4, steal / 1e4);
	return 0;
}

/* A measured result's "load_activity" object, when present: a repeat whose load was seen
 * stopped is noted on p.  Returns 0, or -1 when malformed. */
static int json_load_activity(struct rs_pair *p, struct rs_values *v, const json_t *r, size_t idx, char *err,
			      size_t errlen)
{
	const json_t *a = json_object_get(r, JK_LOAD_ACTIVITY);
	if (!a)
		return 0;
	if (!json_is_object(a) || !json_is_boolean(json_object_get(a, JK_LOAD_STOPPED)))
		return rs_fail(err, errlen, "results[%zu].load_activity: not an object with a boolean \"stopped\"", idx);
	v->load_stopped = json_is_true(json_object_get(a, JK_LOAD_STOPPED));
	p->load_stopped += v->load_stopped;
	return 0;
}

static int json_result(struct result_set *rs, const json_t *r, size_t idx, char *err, size_t errlen)
{
	const char *load = rs_json_str(r, JK_LOAD);
	char key[192];
	if (!json_is_object(r) || result_set_json_key(r, key, sizeof(key)) != 0 || !load)
		return rs_fail(err, errlen, "results[%zu]: not an object with string \"simulation\" and \"load\"", idx);
	struct rs_pair *p = rs_pair_get(rs, key, load, err, errlen);
	if (!p)
		return -1;
	const json_t *failed = json_object_get(r, JK_FAILED);
	if (failed) {
		if (!json_is_string(failed))
			return rs_fail(err, errlen, "results[%zu].failed: not a string", idx);
		rs_pair_failed(p, json_string_value(failed));
		return 0;
	}
	if (json_is_true(json_object_get(r, JK_INTERRUPTED))) {
		rs_pair_failed(p, RS_INTERRUPTED_WHY);
		return 0;
	}
	struct rs_values v;
	rs_values_init(&v);
	if (json_values(r, idx, &v, err, errlen) != 0 || json_disturbance(p, &v, r, idx, err, errlen) != 0 ||
	    json_load_activity(p, &v, r, idx, err, errlen) != 0)
		return -1;
	const json_t *e = json_object_get(r, JK_EXPLAIN);
	if (e && explain_read_json(&p->causes, e, idx, err, errlen) != 0)
		return -1;
	return rs_pair_add(rs, p, &v, err, errlen);
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

/* The settings of the cgroups the run placed a side in (run.bench_cgroups, run.load_cgroups:
 * an array, or null), as facts named "side.member": their cpu.weight, cpu.max, cpuset and
 * memory.max as they were at the start, the alternatives' values joined with " / " ("100 / 1",
 * "none" for a file that was not there).  Where is the options' fact (bench_cgroups). */
static void cgroup_facts(struct result_set *rs, const json_t *cgs, const char *side)
{
	static const char *const members[] = { JK_CG_CPU_WEIGHT, JK_CG_CPU_MAX, JK_CG_CPUSET, JK_CG_MEMORY_MAX };
	char name[sizeof(rs->facts[0].name)], value[sizeof(rs->facts[0].value)];
	for (size_t i = 0; json_array_size(cgs) && i < sizeof(members) / sizeof(members[0]); i++) {
		size_t used = 0;
		for (size_t k = 0; k < json_array_size(cgs) && used < sizeof(value); k++) {
			const char *v = json_string_value(json_object_get(json_array_get(cgs, k), members[i]));
			used += (size_t)snprintf(value + used, sizeof(value) - used, "%s%s", k ? " / " : "", v ? v : "none");
		}
		snprintf(name, sizeof(name), "%s.%s", side, members[i]);
		json_t *text = json_string(value);
		add_fact(rs, name, text ? text : json_null());
		json_decref(text);
	}
}

/* The facts compare sets side by side: the machine, what confined the run (the CPUs it
 * could use, its cgroups' CPU quota, realtime budget and cpuset, another run at the same time), its audit's
 * settings that decide interactivity, the settings of the cgroups the run placed its
 * processes in, and the run's options that shape every pair (-t, -L, CPU and cgroup
 * placement, the wakeup latency limit held, each workload's own options such as --dsp-load).
 * A fact a result does not carry (written before it was recorded) is not compared. */
static void json_facts(struct result_set *rs, const json_t *doc)
{
	static const char *const machine[] = { JK_CPU_MODEL, JK_ONLINE_CPUS, JK_PREEMPT_MODEL, JK_PREEMPT_MODE,
		JK_ALLOWED_CPUS, JK_ALLOWED_CPU_LIST, JK_CPU_QUOTA_US, JK_CPU_QUOTA_PERIOD_US, JK_CPUSET,
		JK_RT_RUNTIME_US, JK_RT_PERIOD_US };
	static const char *const audit[] = { AUDIT_GOVERNOR, AUDIT_SMT, AUDIT_IDLE_STATE, AUDIT_SCHEDULER,
		AUDIT_SCHED_EXT, AUDIT_CMDLINE };
	const json_t *m = json_object_get(doc, JK_MACHINE), *a = json_object_get(m, JK_AUDIT), *v;
	for (size_t i = 0; i < sizeof(machine) / sizeof(machine[0]); i++)
		add_fact(rs, machine[i], json_object_get(m, machine[i]));
	add_fact(rs, JK_TASK_FILE_DIGEST, json_object_get(json_object_get(json_object_get(doc, JK_RUN), JK_TASK_FILE), "digest"));
	add_fact(rs, JK_CONCURRENT_RUN_PID, json_object_get(json_object_get(doc, JK_RUN), JK_CONCURRENT_RUN_PID));
	cgroup_facts(rs, json_object_get(json_object_get(doc, JK_RUN), JK_BENCH_CGROUPS), JK_BENCH_CGROUPS);
	cgroup_facts(rs, json_object_get(json_object_get(doc, JK_RUN), JK_LOAD_CGROUPS), JK_LOAD_CGROUPS);
	for (size_t i = 0; i < sizeof(audit) / sizeof(audit[0]); i++)
		add_fact(rs, audit[i], json_object_get(json_object_get(a, audit[i]), JK_AUDIT_VALUE));
	const char *key;
	json_object_foreach(json_object_get(doc, JK_OPTIONS), key, v)
		if (options_key_is_fact(key))
			add_fact(rs, key, v);
}

/* Reads the parsed document doc into rs (validating what compare reads).  Returns 0, or -1
 * with err set. */
int rs_parse_json_doc(const json_t *doc, struct result_set *rs, char *err, size_t errlen)
{
	int rc = -1;
	rs->format = "json";
	const json_t *ver = json_object_get(doc, JK_SCHEMA_VERSION), *results = json_object_get(doc, JK_RESULTS);
	const char *gen = rs_json_str(doc, JK_GENERATOR);
	if (!json_is_object(doc) || !gen || !report_generator_is_ours(gen))
		rs_fail(err, errlen, "not an interbench result (no \"generator\": \"interbench VERSION\")");
	else if (!json_is_integer(ver))
		rs_fail(err, errlen, "\"schema_version\" missing or not an integer");
	else if (json_integer_value(ver) < REPORT_SCHEMA_OLDEST || json_integer_value(ver) > REPORT_SCHEMA_VERSION)
		rs_fail(err, errlen, "schema version %lld is not supported (this interbench reads versions %d to %d)",
		     (long long)json_integer_value(ver), REPORT_SCHEMA_OLDEST, REPORT_SCHEMA_VERSION);
	else if (!json_is_array(results))
		rs_fail(err, errlen, "\"results\" missing or not an array");
	else
		rc = 0;
	for (size_t i = 0; rc == 0 && i < json_array_size(results); i++)
		rc = json_result(rs, json_array_get(results, i), i, err, errlen);
	if (rc == 0)
		json_facts(rs, doc);
	if (rc == 0 && rs->n == 0)
		rc = rs_fail(err, errlen, "no results in the file");
	return rc;
}

/* Parses buf[0..len) as JSON (duplicate keys refused), or says where it is not.  Returns the
 * document, or NULL with err set. */
json_t *rs_load_json(const char *buf, size_t len, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!doc)
		rs_fail(err, errlen, "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
	return doc;
}

int rs_parse_json(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen)
{
	json_t *doc = rs_load_json(buf, len, err, errlen);
	int rc = doc ? rs_parse_json_doc(doc, rs, err, errlen) : -1;
	json_decref(doc);
	return rc;
}
