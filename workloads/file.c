/* File: the task a task file describes (workloads/file.h; doc/task-file.md), given by
 * --task-file PATH (or -W file:PATH).  The file is read and compiled once, when the options are
 * checked, so a bad file is refused (exit 2) before anything runs; each run of the task then
 * runs the model's threads (workloads/file_run.c) in the periodic engine, with the model's
 * period, deadline and work, and its measures (workloads/file_measures.c).  As a load (-w File)
 * it runs the same task in the background. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "explain/model.h"
#include "host/machine.h"
#include "lib/text.h"
#include "workloads/file.h"
#include "workloads/workload.h"

struct tf_task file_model;

struct file_opts {
	const char *path;   /* --task-file; NULL: not given */
};

/* The path the model was compiled from (file_check), to compile it once. */
static char loaded_path[4096];

static const struct optspec file_opt_path = {
	.long_name = "task-file", .type = OPTSPEC_STRING, .metavar = "FILE", .once = true, .noun = "task file",
	.accepted = "one task file a run, interbench's format or rt-app's JSON (doc/task-file.md); compare "
		    "--allow-different-task judges two runs' files",
	.help = "run the task FILE describes as the task File: interbench's format or rt-app's JSON "
		"(doc/task-file.md); -W file:FILE says the same",
	.json_key = "task_file", .section = OPTSPEC_SECTION_RUN, .offset = offsetof(struct file_opts, path),
};

static uint64_t file_work_us(const struct sim_spec *spec, uint64_t period)
{
	(void)spec;
	(void)period;
	return file_model.work_per_period_us;
}

static void file_thread_name(unsigned i, char *buf, size_t len)
{
	snprintf(buf, len, "%s", i < file_model.n_threads ? file_model.threads[i].name : "?");
}

static bool file_thread_sched(unsigned i, const struct sim_spec *spec, struct sched_setting *s)
{
	(void)spec;
	if (i >= file_model.n_threads || !file_model.threads[i].has_sched)
		return false;
	*s = file_model.threads[i].sched;
	return true;
}

static const struct optspec_cpus *file_thread_cpus(unsigned i, const struct sim_spec *spec)
{
	(void)spec;
	return i < file_model.n_threads && file_model.threads[i].cpus.given ? &file_model.threads[i].cpus : NULL;
}

static void file_pattern_note(const struct sim_spec *spec, char *buf, size_t len)
{
	(void)spec;
	char deadline[48] = "", path[256];
	if (file_model.deadline_us && file_model.deadline_us < file_model.period_us)
		snprintf(deadline, sizeof(deadline), ", deadline %llu us", (unsigned long long)file_model.deadline_us);
	text_escape(loaded_path, path, sizeof(path), false);   /* the header stays one line per task */
	snprintf(buf, len, "task %s: %u thread%s from %s (%s)%s", file_model.name, file_model.n_threads,
		 file_model.n_threads == 1 ? "" : "s", path,
		 file_model.format == TF_FORMAT_RTAPP ? "rt-app's JSON" : "interbench's format", deadline);
}

/* --explain follows the root and up to EXPLAIN_MAX_STAGES - 1 threads after it: the chain's
 * first, then the others, each in the file's order (name_stages). */
static struct explain_stage_thread explained_threads[EXPLAIN_MAX_STAGES - 1];
static const char *explained_names[EXPLAIN_MAX_STAGES];

static struct sim_body file_body = {
	.state_bytes = sizeof(struct file_state), .run = file_run, .name = file_thread_name,
	.setup = file_setup, .teardown = file_teardown, .thread_sched = file_thread_sched,
	.thread_cpus = file_thread_cpus,
};

static struct sim_desc file_sim = {
	.has_deadlines = true, .work_us = file_work_us, .body = &file_body, .measures = &file_measures,
	.pattern_note = file_pattern_note,
};

/* The stages --explain names: the root, then the chain's threads (file_runs_in_chain), then
 * the others (a thread on its own timer, one signalled aside), while stages are left. */
static void name_stages(const struct tf_task *m)
{
	unsigned n = 0;
	explained_names[0] = m->threads[m->root].name;
	for (int chain = 1; chain >= 0; chain--)
		for (unsigned i = 0; i < m->n_threads && n < EXPLAIN_MAX_STAGES - 1; i++) {
			if (i == m->root || file_runs_in_chain(m, i) != (bool)chain)
				continue;
			explained_threads[n] = (struct explain_stage_thread){ .thread = i, .stage = n + 1 };
			explained_names[n + 1] = m->threads[i].name;
			n++;
		}
	file_body.explained = (struct explain_stages){ .threads = explained_threads, .n_threads = n,
						       .names = explained_names, .count = n + 1 };
}

/* Puts the compiled model in place for the engine: threads, period, work, stages, rows. */
static void file_install(void)
{
	const struct tf_task *m = &file_model;
	file_body.threads = m->n_threads;
	file_sim.interval_us = m->period_us;
	file_sim.fixed_work = m->work_as_loops;
	file_sim.logs_frames = m->frames;
	name_stages(m);
	file_measures_name_threads(m);
}

/* Compiles --task-file (once per path): a bad file is refused here, before anything runs. */
static int file_check(const void *opts, char *err, size_t len)
{
	const struct file_opts *o = opts;
	if (!o->path || strcmp(o->path, loaded_path) == 0)
		return 0;
	char why[512];
	if (tf_load(o->path, &file_model, why, sizeof(why)) != 0) {
		snprintf(err, len, "--task-file: %s", why);
		return -1;
	}
	snprintf(loaded_path, sizeof(loaded_path), "%s", o->path);
	file_install();
	return 0;
}

/* As the run's task: a file with a period (a periodless one, rt-app's without a timer, has no
 * task figures: a load only). */
static int file_check_as_task(const void *opts, char *err, size_t len)
{
	const struct file_opts *o = opts;
	if (!o->path || !file_model.periodless)
		return 0;
	char path[256];
	text_escape(loaded_path, path, sizeof(path), false);
	snprintf(err, len, "--task-file: %s: no task has a timer, so the file has no period and no task figures: it "
		 "runs as a load only (accepted: -w File beside a task, -W Audio -w File; as the task, a file whose "
		 "first timer gives the period: doc/task-file.md)", path);
	return -1;
}

/* Before anything runs: each thread given its own CPUs has one this run may use
 * (sched_getaffinity(2): --cpus, taskset, a cpuset), else the kernel would refuse it
 * mid-run. */
static int file_preflight(const void *opts, char *err, size_t len)
{
	const struct file_opts *o = opts;
	struct optspec_cpus may;
	if (!o->path || machine_allowed_cpus(&may) == 0)
		return 0;
	for (unsigned i = 0; i < file_model.n_threads; i++) {
		const struct tf_thread *th = &file_model.threads[i];
		bool any = false;
		if (!th->cpus.given)
			continue;
		for (unsigned w = 0; w < OPTSPEC_MAX_CPUS / 64; w++)
			any = any || (th->cpus.bits[w] & may.bits[w]);
		if (!any) {
			char a[256], b[256];
			snprintf(err, len, "--task-file: %s: thread %s: CPUs %s (accepted: CPUs this run may use, %s)",
				 loaded_path, th->name, format_cpu_list(&th->cpus, a, sizeof(a)), format_cpu_list(&may, b, sizeof(b)));
			return -1;
		}
	}
	return 0;
}

static bool file_supported(const void *opts, char *why, size_t len)
{
	const struct file_opts *o = opts;
	snprintf(why, len, "File needs --task-file PATH");
	return o->path != NULL;
}

static void file_params(const void *opts, struct sim_spec *spec)
{
	(void)opts;
	spec->interval_us = file_model.period_us;
	spec->cpu_pct = 0;
	spec->deadline_us = file_model.deadline_us < file_model.period_us ? file_model.deadline_us : 0;
}

/* FNV-1a, 64 bits, of text: a short name for the model that tells two tasks apart in a result
 * (Fowler, Noll and Vo; the constants of draft-eastlake-fnv-21, section 2.2).  Not a
 * cryptographic digest: it names, it does not guard. */
static uint64_t fnv1a64(const char *text)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h;
}

/* The result's record of the task file (doc/json.md "task_file"): {"path", "format", "name",
 * "threads": [names], "digest": "fnv1a64:HEX" of the canonical model, "model": the model}. */
static char *file_record(const void *opts)
{
	const struct file_opts *o = opts;
	if (!o->path || strcmp(o->path, loaded_path) != 0)
		return NULL;
	char *model = tf_canonical_json(&file_model);
	json_t *names = json_array(), *m = model ? json_loads(model, 0, NULL) : NULL;
	for (unsigned i = 0; names && i < file_model.n_threads; i++)
		json_array_append_new(names, json_string(file_model.threads[i].name));
	char digest[32];
	snprintf(digest, sizeof(digest), "fnv1a64:%016llx", model ? (unsigned long long)fnv1a64(model) : 0ull);
	json_t *r = m && names ? json_pack("{s:s%, s:s, s:s, s:o, s:s, s:o}", "path", loaded_path, strlen(loaded_path),
					   "format", file_model.format == TF_FORMAT_RTAPP ? "rt-app" : "interbench",
					   "name", file_model.name, "threads", names, "digest", digest, "model", m) : NULL;
	if (!r) {
		json_decref(names);
		json_decref(m);
	}
	free(model);
	char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
	json_decref(r);
	return text;
}

static const struct load_ops file_load = { .start = load_sim_start, .ready = load_sim_ready, .stop = load_sim_stop };

const struct workload wl_file = {
	.name = "File",
	.help = "the task --task-file PATH describes (doc/task-file.md)",
	.load_help = "the task file's task as a background load",
	.flags = WL_BENCH_NORMAL | WL_BENCH_RT | WL_LOAD_NORMAL | WL_LOAD_RT | WL_SELECTED_BY_OPTIONS,
	.options = (const struct optspec *const[]){ &file_opt_path, NULL },
	.cfg_size = sizeof(struct file_opts),
	.check = file_check,
	.supported = file_supported,
	.preflight = file_preflight,
	.check_as_task = file_check_as_task,
	.sim = &file_sim,
	.sim_params = file_params,
	.load = &file_load,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_loops, &load_metric_wakeups, NULL },
	.record_key = "task_file",
	.record = file_record,
};
