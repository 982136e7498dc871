#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "loads/load.h"
#include "results/json_report.h"
#include "results/summary.h"

/* jansson integers are signed 64-bit; no measured figure comes near the limit. */
static json_t *jint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static json_t *jround(double v)
{
	return json_integer(isfinite(v) && v > 0 ? llround(v) : 0);
}

static json_t *names_of(uint32_t mask, bool sims)
{
	json_t *a = json_array();
	unsigned n = sims ? sim_count : load_count;
	for (unsigned i = 0; a && i < n; i++)
		if (mask & (1u << i))
			json_array_append_new(a, json_string(sims ? sim_table[i]->name : load_table[i]->name));
	return a;
}

static json_t *machine_json(const struct machine_info *m)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:I, s:I, s:s, s:s?, s:s, s:s}",
			 "kernel_release", m->kernel_release, "kernel_version", m->kernel_version,
			 "machine", m->machine, "cpu_model", m->cpu_model,
			 "online_cpus", (int)m->online_cpus,
			 "ram_bytes", (json_int_t)m->ram_bytes, "swap_bytes", (json_int_t)m->swap_bytes,
			 "preempt_model", m->preempt_model,
			 "preempt_mode", m->preempt_mode[0] ? m->preempt_mode : NULL,
			 "preempt_source", m->preempt_source, "clocksource", m->clocksource);
}

static json_t *options_json(const struct options *o)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:b, s:b, s:b, s:b, s:i, s:I, s:s?, s:o, s:o, s:o, s:o, s:i}",
			 "duration_s", (int)o->duration_s, "load_threads", (int)o->load_threads,
			 "bench_nice", o->bench_nice, "load_nice", o->load_nice,
			 "uniprocessor", o->uniprocessor, "realtime", o->realtime,
			 "recalibrate", o->recalibrate, "console_only", o->console_only,
			 "custom_cpu_pct", (int)o->custom_cpu_pct,
			 "custom_interval_us", (json_int_t)o->custom_interval_us, "comment", o->comment,
			 "sims", names_of(o->sim_include, true), "exclude_sims", names_of(o->sim_exclude, true),
			 "loads", names_of(o->load_include, false),
			 "exclude_loads", names_of(o->load_exclude, false), "repeat", (int)o->repeat);
}

json_t *report_new(const struct machine_info *m, const struct run_info *info, const struct options *o)
{
	return json_pack("{s:i, s:s, s:o, s:{s:s, s:I, s:s, s:i, s:i}, s:o, s:[]}",
			 "schema_version", REPORT_SCHEMA_VERSION, "generator", "interbench",
			 "machine", machine_json(m),
			 "run", "datestamp", info->datestamp,
			 "loops_per_ms", (json_int_t)info->loops_per_ms,
			 "loops_per_ms_source", info->loops_source ? info->loops_source : "unknown",
			 "load_threads", (int)info->load_threads, "duration_s", (int)info->duration_s,
			 "options", options_json(o), "results");
}

int report_mark_interrupted(json_t *doc, int sig)
{
	const char *abbrev = sigabbrev_np(sig);
	char name[32];
	snprintf(name, sizeof(name), "SIG%s", abbrev ? abbrev : "?");
	return json_object_set_new(json_object_get(doc, "run"), "interrupted_by", json_string(name));
}

json_t *report_histogram(const struct lat_hist *h)
{
	json_t *a = json_array();
	for (unsigned i = 0; a && i < HIST_BUCKETS; i++)
		if (h->counts[i] && json_array_append_new(a, json_pack("[o, o]", jint(hist_bucket_low_ns(i)),
								       jint(h->counts[i]))) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* Adds the figures of a measured entry to r. */
static int add_figures(json_t *r, const struct report_entry *e)
{
	struct pair_summary s;
	pair_summarize(e->sim, &s);
	struct { const char *key; json_t *v; } f[] = {
		{ "samples", jint(s.samples) },
		{ "latency_mean_ns", jround(s.latency_mean_ns) },
		{ "latency_sd_ns", jround(s.latency_sd_ns) },
		{ "latency_max_ns", jint(s.latency_max_ns) },
		{ "latency_p50_ns", jint(s.sched_p50_ns) },
		{ "latency_p90_ns", jint(s.sched_p90_ns) },
		{ "latency_p99_ns", jint(s.sched_p99_ns) },
		{ "latency_p999_ns", jint(s.sched_p999_ns) },
		{ "timer_samples", jint(s.timer_samples) },
		{ "timer_latency_mean_ns", jround(s.timer_mean_ns) },
		{ "timer_latency_sd_ns", jround(s.timer_sd_ns) },
		{ "timer_latency_max_ns", jint(s.timer_max_ns) },
		{ "timer_latency_p50_ns", jint(s.timer_p50_ns) },
		{ "timer_latency_p90_ns", jint(s.timer_p90_ns) },
		{ "timer_latency_p99_ns", jint(s.timer_p99_ns) },
		{ "timer_latency_p999_ns", jint(s.timer_p999_ns) },
		{ "desired_cpu_ppm", jround(s.desired_cpu_pct * 1e4) },
		{ "deadlines_met_ppm", jround(s.deadlines_met_pct * 1e4) },
		{ "periods", jint(s.periods) },
		{ "deadlines_met", jint(s.deadlines_met) },
		{ "deadlines_missed", jint(s.deadlines_missed) },
		{ "periods_skipped", jint(s.periods_skipped) },
		{ "timer_realtime", json_boolean(e->sim->timer_rt) },
		{ "latency_histogram", report_histogram(&e->sim->sched_hist) },
		{ "timer_latency_histogram", report_histogram(&e->sim->timer_hist) },
	};
	int rc = 0;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (json_object_set_new(r, f[i].key, f[i].v) != 0)
			rc = -1;
	return rc;
}

/* The load's own work counters, so a reader can see the load really loaded the machine. */
static json_t *load_work_json(const struct load_counters *c)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "elapsed_ns", (json_int_t)c->elapsed_ns,
			 "burn_loops_thousands", (json_int_t)c->loops, "wakeups", (json_int_t)c->wakeups,
			 "bytes_written", (json_int_t)c->bytes_written, "bytes_read", (json_int_t)c->bytes_read,
			 "mib_touched", (json_int_t)c->mib_touched, "messages", (json_int_t)c->messages);
}

int report_add(json_t *doc, const struct report_entry *e)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:i, s:b, s:b, s:I}", "simulation", e->simulation,
			      "load", e->load, "mode", e->mode ? e->mode : "", "repeat", (int)e->repeat,
			      "has_deadlines", e->has_deadlines, "interrupted", e->interrupted,
			      "window_ns", (json_int_t)e->window_ns);
	if (!r)
		return -1;
	int rc = e->failed ? json_object_set_new(r, "failed", json_string(e->failed)) : add_figures(r, e);
	if (rc == 0 && e->load_work && e->load_work->elapsed_ns)
		rc = json_object_set_new(r, "load_work", load_work_json(e->load_work));
	if (rc != 0) {
		json_decref(r);
		return -1;
	}
	return json_array_append_new(json_object_get(doc, "results"), r) != 0 ? -1 : 0;
}

int report_write(const json_t *doc, const char *path, char *err, size_t errlen)
{
	const size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER;
	if (strcmp(path, "-") == 0) {
		if (json_dumpf(doc, stdout, flags) != 0 || fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
			snprintf(err, errlen, "cannot write the JSON document to stdout: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (json_dump_file(doc, path, flags) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
