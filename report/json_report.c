#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/interval.h"
#include "lib/safefile.h"
#include "loadkit/load.h"
#include "lib/version.h"
#include "report/json_report.h"
#include "explain/json.h"
#include "report/jsonkeys.h"
#include "report/figures.h"
#include "run/options.h"
#include "workloads/workload.h"

/* jansson integers are signed 64-bit; no measured figure comes near the limit. */
static json_t *jint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static json_t *jround(double v)
{
	return json_integer(isfinite(v) && v > 0 ? llround(v) : 0);
}

/* A MASK option's value: the names of its set bits. */
static json_t *mask_json(const struct optspec *s, uint32_t bits)
{
	json_t *a = json_array();
	const char *name;
	for (unsigned i = 0; a && i < 32 && (name = s->name_at(i)); i++)
		if (*name && (bits & (1u << i)))
			json_array_append_new(a, json_string(name));
	return a;
}

/* The JSON value of option s in base: a number, a boolean, a string or null, an array of names;
 * null for an I64 outside its range (the "not given" default of --dma-latency). */
static json_t *option_value_json(const struct optspec *s, const void *base)
{
	int64_t v = optspec_number(s, base);
	switch (s->type) {
	case OPTSPEC_FLAG: return json_boolean(v);
	case OPTSPEC_MASK: return mask_json(s, (uint32_t)v);
	case OPTSPEC_TEXT: case OPTSPEC_STRING: {
		const char *t = optspec_text(s, base);
		return t ? report_text(t) : json_null();
	}
	case OPTSPEC_ACTION: return NULL;
	case OPTSPEC_CHOICE: return json_string(s->choices[v]); /* the name the command line takes */
	case OPTSPEC_INTS: {  /* one value as a number (as before lists), several as an array */
		const struct optspec_ints *l = (const struct optspec_ints *)((const char *)base + s->offset);
		if (l->n == 1)
			return json_integer(l->v[0]);
		json_t *a = json_array();
		for (unsigned i = 0; a && i < l->n; i++)
			json_array_append_new(a, json_integer(l->v[i]));
		return a;
	}
	case OPTSPEC_TEXTS: {  /* an array of the texts, null when none */
		const struct optspec_texts *l = (const struct optspec_texts *)((const char *)base + s->offset);
		json_t *a = l->n ? json_array() : json_null();
		for (unsigned i = 0; l->n && a && i < l->n; i++)
			json_array_append_new(a, report_text(l->v[i]));
		return a;
	}
	case OPTSPEC_CPUS: case OPTSPEC_CPU_ALTS: {
		char buf[4096];
		return optspec_is_default(s, base) ? json_null() : json_string(optspec_format(s, base, buf, sizeof(buf)));
	}
	default:
		if (s->type == OPTSPEC_I64 && (v < s->min || v > s->max))
			return json_null();
		return s->type == OPTSPEC_INT || s->type == OPTSPEC_I64 ? json_integer(v) : jint((uint64_t)v);
	}
}

/* options_walk callback: adds option s to the "options" object arg under its JSON key. */
static void option_json(const struct optspec *s, const void *base, void *arg)
{
	json_t *v;
	if (!s->json_key || !(v = option_value_json(s, base)))
		return;
	json_object_set_new(arg, s->json_key, v);
}

static json_t *machine_json(const struct machine_info *m)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:i, s:I, s:I, s:o, s:o?, s:o, s:o?, s:o}",
			 "kernel_release", report_text(m->kernel_release),
			 "kernel_version", report_text(m->kernel_version),
			 JK_UNAME_MACHINE, report_text(m->machine), JK_CPU_MODEL, report_text(m->cpu_model),
			 JK_ONLINE_CPUS, (int)m->online_cpus,
			 "ram_bytes", (json_int_t)m->ram_bytes, "swap_bytes", (json_int_t)m->swap_bytes,
			 JK_PREEMPT_MODEL, report_text(m->preempt_model),
			 JK_PREEMPT_MODE, report_text(m->preempt_mode[0] ? m->preempt_mode : NULL),
			 "preempt_source", report_text(m->preempt_source),
			 "preempt_mode_source", report_text(m->preempt_mode_source[0] ? m->preempt_mode_source : NULL),
			 "clocksource", report_text(m->clocksource));
}

/* What confined the run: the CPUs it may use, its cgroups' CPU quota, realtime budget and
 * cpuset (null where none or unknown). */
static json_t *confinement_json(const struct machine_info *m)
{
	const struct cgroup_cpu_limits *cg = &m->cgroup;
	bool quota = cg->quota_us > 0 && cg->period_us > 0, rt = cg->rt_period_us > 0;
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 JK_ALLOWED_CPUS, m->allowed_cpus ? json_integer(m->allowed_cpus) : json_null(),
			 JK_ALLOWED_CPU_LIST, m->allowed_cpus ? report_text(m->allowed_cpu_list) : json_null(),
			 JK_CPU_QUOTA_US, quota ? json_integer(cg->quota_us) : json_null(),
			 JK_CPU_QUOTA_PERIOD_US, quota ? json_integer(cg->period_us) : json_null(),
			 "cpu_quota_source", quota ? report_text(cg->quota_file) : json_null(),
			 JK_CPUSET, cg->cpuset[0] ? report_text(cg->cpuset) : json_null(),
			 "cpuset_source", cg->cpuset[0] ? report_text(cg->cpuset_file) : json_null(),
			 JK_RT_RUNTIME_US, rt ? json_integer(cg->rt_runtime_us) : json_null(),
			 JK_RT_PERIOD_US, rt ? json_integer(cg->rt_period_us) : json_null(),
			 "rt_runtime_source", rt ? report_text(cg->rt_file) : json_null());
}

/* A string member's value: text, or null when empty (a file that is not there). */
static json_t *text_or_null(const char *text)
{
	return text[0] ? report_text(text) : json_null();
}

/* One cgroup as it was at the start, its files' first lines as the kernel wrote them (null
 * where absent). */
static json_t *cgroup_json(const struct cgplace_facts *f)
{
	return json_pack("{s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o}", JK_CG_DIR, report_text(f->path),
			 JK_CG_CREATED, f->created, JK_CG_TYPE, text_or_null(f->type),
			 JK_CG_CONTROLLERS, report_text(f->controllers), JK_CG_CPU_WEIGHT, text_or_null(f->cpu_weight),
			 JK_CG_CPU_MAX, text_or_null(f->cpu_max), JK_CG_CPUSET, text_or_null(f->cpuset_cpus_effective),
			 JK_CG_MEMORY_MAX, text_or_null(f->memory_max));
}

/* run.bench_cgroups or run.load_cgroups: every cgroup of set (cgroup_json), or null without one. */
static json_t *cgroups_json(const struct cgplace_set *set)
{
	json_t *a = set && set->n ? json_array() : NULL;
	for (unsigned i = 0; a && i < set->n; i++)
		json_array_append_new(a, cgroup_json(&set->v[i].facts));
	return a ? a : json_null();
}

/* Every option with a JSON key, from the option tables (core and workloads'). */
static json_t *options_json(const struct options *o)
{
	json_t *obj = json_object();
	if (obj)
		options_walk(o, option_json, obj);
	return obj;
}

static json_t *report_new_doc(const struct machine_info *m, const struct run_info *info, const struct options *o,
			      const char *generator);

/* The audit as {name: {"value", "source", "hint"}}, in the audit's order. */
static json_t *audit_json(const struct audit *a)
{
	json_t *o = json_object();
	for (unsigned i = 0; o && i < a->n; i++)
		json_object_set_new(o, a->item[i].name, json_pack("{s:o, s:o, s:o*}", JK_AUDIT_VALUE, report_text(a->item[i].value),
				    "source", report_text(a->item[i].source),
				    "hint", a->item[i].hint[0] ? report_text(a->item[i].hint) : NULL));
	return o;
}

/* run.calibration: the measurements behind loops_per_ms (doc/json.md); null with -l. */
static json_t *calibration_json(const struct calib_check *c)
{
	if (!c)
		return json_null();
	bool full = c->remeasured, saved = c->saved_loops_per_ms != 0;
	return json_pack("{s:i, s:o, s:o, s:o, s:o}", "measurements", full ? (int)c->full.measurements : 0,
			 "median_below_pct", full ? json_real(c->full.median_below_pct) : json_null(),
			 "slowest_below_pct", full ? json_real(c->full.slowest_below_pct) : json_null(),
			 "saved_loops_per_ms", saved ? json_integer((json_int_t)c->saved_loops_per_ms) : json_null(),
			 "quick_loops_per_ms", saved ? json_integer((json_int_t)c->quick_loops_per_ms) : json_null());
}

/* The adaptive window: {"min_s", "max_s", "precision": {...}, "latency_floor_ns", "confidence"}. */
static json_t *window_json(const struct run_info *info)
{
	const struct precision *p = info->precision;
	return json_pack("{s:i, s:i, s:{s:f, s:f, s:f, s:f}, s:i, s:f}", "min_s", (int)info->min_time_s,
			 "max_s", (int)info->max_time_s, "precision", "latency_mean_pct", p->latency_mean_pct,
			 "latency_p99_pct", p->latency_p99_pct, "desired_cpu_pt", p->desired_cpu_pt,
			 "deadlines_met_pt", p->deadlines_met_pt, "latency_floor_ns", (int)STOP_LATENCY_FLOOR_NS,
			 "confidence", 1 - CI_ALPHA);
}

/* The budget's sub-runs: {"budget_s", "subrun_s", "min_subruns", "max_subruns", "precision":
 * {"latency_p99_pct", "deadlines_met_pt"}}. */
static json_t *budget_json(const struct run_info *info)
{
	const struct precision *p = info->precision;
	return json_pack("{s:i, s:i, s:i, s:i, s:{s:f, s:f}}", "budget_s", (int)info->budget_s, "subrun_s",
			 (int)info->subrun_s, "min_subruns", (int)info->min_subruns, "max_subruns", (int)info->max_subruns,
			 "precision", "latency_p99_pct", p->latency_p99_pct, "deadlines_met_pt", p->deadlines_met_pt);
}

/* How a pair's window ended: {"reason", "look", "looks", "last_look_s", "unknown": [figure names],
 * "needed_s": {figure: projected seconds, or null}}. */
static json_t *stop_json(const struct pair_stop *st)
{
	const struct stop_verdict *v = &st->verdict;
	json_t *unknown = json_array(), *needed = json_object();
	for (unsigned f = 0; unknown && needed && f < SIM_JUDGED; f++)
		if (v->unknown & (1u << f)) {
			json_array_append_new(unknown, json_string(sim_judged_name(f)));
			json_object_set_new(needed, sim_judged_name(f),
					    isfinite(v->needed_s[f]) ? json_real(round(v->needed_s[f] * 10) / 10) : json_null());
		}
	return json_pack("{s:s, s:i, s:i, s:f, s:o, s:o}", "reason", stop_reason_name(st->reason), "look", (int)st->look,
			 "looks", (int)st->looks, "last_look_s", round(st->last_look_s * 10) / 10,
			 "unknown", unknown ? unknown : json_null(),
			 "needed_s", needed ? needed : json_null());
}

/* Each workload's record (struct workload.record: a task file's model) under its key of run. */
static void add_workload_records(json_t *run, const struct options *o)
{
	for (unsigned w = 0; w < workload_count; w++) {
		const struct workload *wl = workload_table[w];
		char *text = wl->record ? wl->record(options_wl_opts(o, w)) : NULL;
		json_t *v = text ? json_loads(text, 0, NULL) : NULL;
		if (v)
			json_object_set_new(run, wl->record_key, v);
		free(text);
	}
}

json_t *report_new(const struct machine_info *m, const struct run_info *info, const struct options *o)
{
	char generator[96];
	snprintf(generator, sizeof(generator), "%s %s", REPORT_GENERATOR, ib_version());
	json_t *doc = report_new_doc(m, info, o, generator);
	if (doc)
		json_object_update_new(json_object_get(doc, JK_MACHINE), confinement_json(m));
	if (doc && (info->concurrent_pid ? report_set_concurrent(doc, info->concurrent_pid) :
		    json_object_set_new(json_object_get(doc, JK_RUN), JK_CONCURRENT_RUN_PID, json_null())) != 0) {
		json_decref(doc);
		return NULL;
	}
	if (doc)
		add_workload_records(json_object_get(doc, JK_RUN), o);
	if (doc) {
		json_object_set_new(json_object_get(doc, JK_RUN), "calibration", calibration_json(info->calib));
		json_object_set_new(json_object_get(doc, JK_RUN), "calibration_drift", json_null());
	}
	if (doc) {
		const struct cgplace_set *cg = info->cgroups;
		json_object_set_new(json_object_get(doc, JK_RUN), JK_BENCH_CGROUPS, cgroups_json(cg ? &cg[0] : NULL));
		json_object_set_new(json_object_get(doc, JK_RUN), JK_LOAD_CGROUPS, cgroups_json(cg ? &cg[1] : NULL));
	}
	if (doc && info->audit)
		json_object_set_new(json_object_get(doc, JK_MACHINE), JK_AUDIT, audit_json(info->audit));
	if (doc && info->shuffle_seed)
		json_object_set_new(json_object_get(doc, JK_RUN), "shuffle_seed", jint(info->shuffle_seed));
	if (doc && info->precision)
		json_object_set_new(json_object_get(doc, JK_RUN), info->budget_s ? "budget" : "window",
				    info->budget_s ? budget_json(info) : window_json(info));
	return doc;
}

/* The document without the audit. */
static json_t *report_new_doc(const struct machine_info *m, const struct run_info *info, const struct options *o,
			      const char *generator)
{
	return json_pack("{s:i, s:s, s:o, s:{s:o, s:I, s:s, s:i, s:i}, s:o, s:[]}",
			 JK_SCHEMA_VERSION, REPORT_SCHEMA_VERSION, JK_GENERATOR, generator,
			 JK_MACHINE, machine_json(m),
			 JK_RUN, "datestamp", report_text(info->datestamp),
			 "loops_per_ms", (json_int_t)info->loops_per_ms,
			 "loops_per_ms_source", info->loops_source ? info->loops_source : "unknown",
			 "load_threads", (int)info->load_threads, "duration_s", (int)info->duration_s,
			 JK_OPTIONS, options_json(o), JK_RESULTS);
}

/* A JSON array of n strings. */
static json_t *string_array(const char *const *v, unsigned n)
{
	json_t *a = json_array();
	for (unsigned i = 0; a && i < n; i++)
		json_array_append_new(a, report_text(v[i]));
	return a;
}

int report_add_sweep(json_t *doc, const char *sim, const char *load, const char *const *rows, unsigned nr,
		     const char *const *cols, unsigned nc, const struct sweep_cell *cells)
{
	json_t *grid = json_array();
	for (unsigned r = 0; grid && r < nr; r++) {
		json_t *row = json_array();
		for (unsigned c = 0; row && c < nc; c++) {
			const struct sweep_cell *x = &cells[r * nc + c];
			json_array_append_new(row, !x->measured ? json_null() :
				json_pack("{s:o, s:o}", FIGURE_KEY(deadlines_met_pct), jround(x->met_pct * 1e4),
					  FIGURE_KEY(sched_p99_ns), x->has_p99 ? jint(x->p99_ns) : json_null()));
		}
		json_array_append_new(grid, row);
	}
	json_t *sweeps = json_object_get(doc, JK_SWEEPS);
	if (!sweeps && json_object_set_new(doc, JK_SWEEPS, sweeps = json_array()) != 0)
		return -1;
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o}", JK_SIMULATION, report_text(sim), JK_LOAD, report_text(load),
			      JK_BENCH_SETTINGS, string_array(rows, nr), JK_LOAD_SETTINGS, string_array(cols, nc),
			      JK_CELLS, grid);
	return o && json_array_append_new(sweeps, o) == 0 ? 0 : -1;
}

/* One speed check of run.calibration_drift.speeds, after the pair sim/load. */
static json_t *speed_json(const struct calib_drift_check *c, const char *sim, const char *load)
{
	const struct calib_speed *v = &c->speed;
	return json_pack("{s:{s:o, s:o, s:i}, s:I, s:I, s:I, s:I, s:i, s:o, s:o, s:b}", "after", JK_SIMULATION,
			 report_text(sim), JK_LOAD, report_text(load), JK_REPEAT, (int)c->repeat + 1, "at_ns",
			 (json_int_t)c->at_ns, "loops_per_ms", (json_int_t)v->loops_per_ms, "slowest_loops_per_ms",
			 (json_int_t)v->slowest_loops_per_ms, "fastest_loops_per_ms", (json_int_t)v->fastest_loops_per_ms,
			 "cpu_share_ppm", (int)v->cpu_share_ppm, "cpu", v->cpu >= 0 ? json_integer(v->cpu) : json_null(),
			 "freq_khz", v->freq_khz ? json_integer(v->freq_khz) : json_null(), "off", c->off);
}

int report_set_drift(json_t *doc, const struct calib_drift *d, bool off, const char *const *sims,
		     const char *const *loads)
{
	json_t *speeds = json_array();
	unsigned kept = d->checks < d->cap ? d->checks : d->cap;
	for (unsigned i = 0; speeds && d->list && i < kept; i++)
		if (json_array_append_new(speeds, speed_json(&d->list[i], sims[d->list[i].item], loads[d->list[i].item])) != 0) {
			json_decref(speeds);
			return -1;
		}
	json_t *o = speeds ? json_pack("{s:i, s:I, s:I, s:b, s:i, s:b, s:{s:I, s:I}, s:o}", "checks", (int)d->checks,
				       "slowest_loops_per_ms", (json_int_t)d->slowest_loops_per_ms,
				       "fastest_loops_per_ms", (json_int_t)d->fastest_loops_per_ms, "off", off,
				       "off_checks", (int)d->off, "virtual_machine", d->virtual_machine, "reference", "slowest_loops_per_ms",
				       (json_int_t)d->reference.slowest_loops_per_ms, "fastest_loops_per_ms",
				       (json_int_t)d->reference.fastest_loops_per_ms, "speeds", speeds) : NULL;
	return o ? json_object_set_new(json_object_get(doc, JK_RUN), "calibration_drift", o) : -1;
}

int report_set_concurrent(json_t *doc, long pid)
{
	return json_object_set_new(json_object_get(doc, JK_RUN), JK_CONCURRENT_RUN_PID, json_integer(pid));
}

int report_mark_interrupted(json_t *doc, int sig)
{
	const char *abbrev = sigabbrev_np(sig);
	char name[32];
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(name, sizeof(name), "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(name, sizeof(name), "SIG%s", abbrev ? abbrev : "?");
	return json_object_set_new(json_object_get(doc, JK_RUN), "interrupted_by", json_string(name));
}

json_t *report_histogram(const struct hist_bucket *b, uint32_t n)
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && b && i < n; i++)
		if (json_array_append_new(a, json_pack("[o, o]", jint(hist_bucket_low_ns(b[i].index)), jint(b[i].count))) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* Figure f's 95 % interval in s: [low, high] in its JSON scale, null when it has none or the
 * figure is null. */
static json_t *interval_json(const struct task_figure *f, const struct pair_summary *s, bool buffered)
{
	double lo, hi;
	if (figure_is_null(f, s, buffered) || !figure_interval(f, s, &lo, &hi))
		return json_null();
	/* open above: the low end is a bound, the high end none */
	return json_pack("[o, o]", jround(lo * f->json_scale), isinf(hi) ? json_null() : jround(hi * f->json_scale));
}

int report_add_figures(json_t *r, const struct task_figure *tab, size_t n, const struct pair_summary *s,
		       bool buffered)
{
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		const struct task_figure *f = &tab[i];
		json_t *v;
		if (!f->json_key)
			continue;
		if (figure_is_null(f, s, buffered))
			v = json_null();
		else if (f->type == FIG_U64 && f->json_scale == 1)
			v = jint(*(const uint64_t *)((const char *)s + f->offset));
		else
			v = jround(figure_value(f, s) * f->json_scale);
		if (json_object_set_new(r, f->json_key, v) != 0)
			rc = -1;
		if (f->ci && json_object_set_new(r, f->ci->json_key, interval_json(f, s, buffered)) != 0)
			rc = -1;
	}
	return rc;
}

/* Adds the figures of a measured entry to r (task_figures), then its timer and histograms. */
static int add_figures(json_t *r, const struct report_entry *e)
{
	const struct bench_record *b = &e->rec->bench;
	bool buffered = e->spec ? e->spec->buffer_periods > 0 : e->buffered;
	int rc = report_add_figures(r, task_figures, task_figures_n, &b->summary, buffered);
	struct { const char *key; json_t *v; } f[] = {
		{ "timer_realtime", json_boolean(b->timer_rt) },
		{ JK_CI_LEVEL, json_real(1 - (b->summary.ci_alpha > 0 ? b->summary.ci_alpha : CI_ALPHA)) },
		{ JK_LATENCY_HISTOGRAM, report_histogram(b->buckets, b->sched_buckets) },
		{ JK_TIMER_LATENCY_HISTOGRAM, report_histogram(b->buckets ? b->buckets + b->sched_buckets : NULL,
							      b->timer_buckets) },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (json_object_set_new(r, f[i].key, f[i].v) != 0)
			rc = -1;
	return rc;
}

/* --explain's object of record b over a window of window_ns (explain_json); NULL when out of
 * memory. */
static json_t *record_explain_json(const struct bench_record *b, uint64_t window_ns)
{
	struct explain_kept *k = malloc(sizeof(*k)); /* 17 KB: not on the stack */
	if (!k)
		return NULL;
	bench_record_kept(b, k);
	json_t *o = explain_json(&b->explain, k, window_ns);
	free(k);
	return o;
}

/* {"looks", "stopped_looks", "cpu_ns", "stopped"}: whether the load ran through the window. */
static json_t *load_activity_json(const struct load_activity *a)
{
	return json_pack("{s:i, s:i, s:I, s:b}", "looks", (int)a->looks, "stopped_looks", (int)a->stopped_looks,
			 "cpu_ns", (json_int_t)load_activity_cpu_ns(a, sysconf(_SC_CLK_TCK)),
			 JK_LOAD_STOPPED, load_activity_stopped(a));
}

/* The load's own work counters, so a reader can see the load really loaded the machine. */
static json_t *load_work_json(const struct load_counters *c, const struct load_metric_info *const *metrics)
{
	json_t *o = json_pack("{s:I}", "elapsed_ns", (json_int_t)c->elapsed_ns);
	for (unsigned m = 0; o && metrics && m < LOAD_MAX_METRICS && metrics[m]; m++)
		if (json_object_set_new(o, metrics[m]->json_key, jint(c->count[m])) != 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/* The CPUs of a sweep's placement as a CPU list ("0,2-3"), or null when the sweep does not
 * place the side. */
static json_t *placement_json(const struct sched_setting *s)
{
	char cpus[1024];
	return s->cpus ? json_string(format_cpu_list(s->cpus, cpus, sizeof(cpus))) : json_null();
}

/* One side's setting: {"policy": "fifo", "nice": null, "rt_priority": 97, "slice_us": null,
 * "slice_kept_us": null, "wake": "thread", "cpus": null, "load_threads": null, "scheduler":
 * null, "cgroup": null}. */
static json_t *setting_json(const struct sched_setting *s)
{
	bool slice = sched_kind_has_nice(s->kind) && s->slice_ns;
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o}", "policy", sched_kind_name(s->kind),
			 "nice", sched_kind_has_nice(s->kind) ? json_integer(s->nice) : json_null(),
			 "rt_priority", s->kind == SP_FIFO || s->kind == SP_RR ? json_integer(s->rt_prio) : json_null(),
			 "slice_us", slice ? json_integer((json_int_t)(s->slice_ns / 1000)) : json_null(),
			 "slice_kept_us", slice && s->slice_kept_ns ? json_integer((json_int_t)(s->slice_kept_ns / 1000))
								    : json_null(),
			 "wake", sim_wake_name_at(s->own_timer ? SIM_WAKE_TIMER : SIM_WAKE_THREAD),
			 "cpus", placement_json(s),
			 "load_threads", s->threads ? json_integer(s->threads) : json_null(),
			 "scheduler", s->scheduler ? report_text(s->scheduler) : json_null(),
			 "cgroup", s->cgroup ? report_text(s->cgroup) : json_null());
}

/* The task's resolved settings: {"interval_us", "cpu_pct", "buffer_periods", "fixed_work",
 * "work_us", "pattern"} (struct sim_spec, engine/sim.h; cpu_pct null where the task's work per
 * period is its own, sim_desc.work_us; buffer_periods 0 without a buffer; work_us each
 * period's work, null where it varies over the cycle, sim_work_range_us; pattern the run
 * header's statement, sim_pattern_text). */
static json_t *task_settings_json(const struct sim_spec *spec)
{
	char pattern[512];
	uint64_t lo_us, hi_us;
	sim_work_range_us(spec, &lo_us, &hi_us);
	sim_pattern_text(spec, pattern, sizeof(pattern));
	return json_pack("{s:o, s:o, s:i, s:b, s:o, s:o}", FIGURE_KEY(interval_us), jint(spec->interval_us),
			 "cpu_pct", spec->desc->work_us ? json_null() : json_integer(spec->cpu_pct),
			 JK_BUFFER_PERIODS, (int)spec->buffer_periods, "fixed_work", spec->desc->fixed_work,
			 "work_us", lo_us == hi_us ? jint(lo_us) : json_null(), "pattern", report_text(pattern));
}

/* {"cpus", "outside_cpu_ns", "outside_cpu_ppm", "steal_ns", "steal_ppm"} (host/disturb.h). */
static json_t *disturbance_json(const struct disturbance *d)
{
	return json_pack("{s:i, s:o, s:o, s:o, s:o}", "cpus", (int)d->cpus, "outside_cpu_ns", jint(d->outside_cpu_ns),
			 JK_OUTSIDE_CPU_PPM, jint(d->outside_cpu_ppm), "steal_ns", jint(d->steal_ns),
			 JK_STEAL_PPM, jint(d->steal_ppm));
}

/* The load_mode words and both settings of entry e (schema version 2), and the task's. */
static int add_settings(json_t *r, const struct report_entry *e)
{
	int rc = json_object_set_new(r, JK_LOAD_MODE, report_text(e->load_mode ? e->load_mode : ""));
	if (rc == 0 && e->bench_sched)
		rc = json_object_set_new(r, "bench_setting", setting_json(e->bench_sched));
	if (rc == 0 && e->load_sched)
		rc = json_object_set_new(r, "load_setting", setting_json(e->load_sched));
	if (rc == 0 && e->rec->timeline_pair >= 0 && !e->timeline_unnamed)
		rc = json_object_set_new(r, JK_TIMELINE_PAIR, json_integer(e->rec->timeline_pair));
	if (rc == 0 && e->spec)
		rc = json_object_set_new(r, JK_TASK_SETTINGS, task_settings_json(e->spec));
	return rc;
}

/* What --on-threshold's actions did in a record: {actions: [{rule, latency_ns, period,
 * at_ns, ok, outcome}], dropped} (doc/json.md); NULL when out of memory. */
static json_t *on_threshold_json(const struct threshold_events *ev, const struct optspec_texts *rules)
{
	json_t *a = json_array();
	for (uint32_t i = 0; a && i < ev->n && i < THRESHOLD_EVENTS_MAX; i++) {
		const struct threshold_event *x = &ev->e[i];
		json_t *o = json_pack("{s:o, s:I, s:I, s:I, s:b, s:o}", "rule",
				      report_text(rules && x->rule < rules->n ? rules->v[x->rule] : "?"),
				      "latency_ns", (json_int_t)x->latency_ns, "period", (json_int_t)x->period,
				      "at_ns", (json_int_t)x->at_ns, "ok", x->ok, "outcome", report_text(x->outcome));
		if (!o || json_array_append_new(a, o) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a ? json_pack("{s:o, s:I}", "actions", a, "dropped", (json_int_t)ev->dropped) : NULL;
}

int report_add(json_t *doc, const struct report_entry *e)
{
	const struct pair_outcome *rec = e->rec;
	json_t *r = json_pack("{s:o, s:o, s:o, s:i, s:b, s:b, s:I}", JK_SIMULATION, report_text(e->simulation),
			      JK_LOAD, report_text(e->load), JK_MODE, report_text(e->mode ? e->mode : ""),
			      JK_REPEAT, (int)e->repeat,
			      JK_HAS_DEADLINES, e->has_deadlines, JK_INTERRUPTED, rec->interrupted,
			      "window_ns", (json_int_t)rec->window_ns);
	if (!r)
		return -1;
	int rc = add_settings(r, e);
	if (rc == 0)
		rc = !rec->ok ? json_object_set_new(r, JK_FAILED, report_text(rec->why)) : add_figures(r, e);
	if (rc == 0 && rec->ok)
		rc = json_object_set_new(r, "stop", stop_json(&rec->stop));
	if (rc == 0 && rec->disturbance.measured)
		rc = json_object_set_new(r, JK_DISTURBANCE, disturbance_json(&rec->disturbance));
	if (rc == 0 && rec->load_activity.looks)
		rc = json_object_set_new(r, JK_LOAD_ACTIVITY, load_activity_json(&rec->load_activity));
	if (rc == 0 && e->explain && rec->ok)
		rc = json_object_set_new(r, JK_EXPLAIN, record_explain_json(&rec->bench, rec->window_ns));
	if (rc == 0 && rec->load.elapsed_ns)
		rc = json_object_set_new(r, "load_work", load_work_json(&rec->load, e->load_metrics));
	if (rc == 0 && (rec->on_threshold.n || rec->on_threshold.dropped))
		rc = json_object_set_new(r, "on_threshold", on_threshold_json(&rec->on_threshold, e->on_threshold));
	if (rc == 0 && rec->sched_ext_ops[0])
		rc = json_object_set_new(r, "sched_ext_ops", report_text(rec->sched_ext_ops));
	if (rc == 0 && e->load_storage && e->load_storage->fs[0])
		rc = json_object_set_new(r, "load_storage", json_pack("{s:s, s:b}", "filesystem", e->load_storage->fs,
								      "in_memory", e->load_storage->in_memory));
	if (rc != 0) {
		json_decref(r);
		return -1;
	}
	return json_array_append_new(json_object_get(doc, JK_RESULTS), r) != 0 ? -1 : 0;
}
