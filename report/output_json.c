/* The JSON output (report/output_json.h). */
#define _GNU_SOURCE
#include <limits.h>
#include "lib/text.h"
#include "report/failif.h"
#include "report/json_report.h"
#include "report/output_json.h"
#include "report/run_decisions.h"
#include "workloads/workload.h"

static void out_of_memory(void)
{
	text_message(stderr, "interbench: warning: out of memory for the JSON results");
}

/* Opens --json's target.  Returns 0, or 2 when it cannot be used (reason printed). */
static int json_open(void *st, struct report_run *run)
{
	struct json_output *j = st;
	char err[PATH_MAX + 256];
	if (!run->opt->json_path)
		return 0;
	if (report_target_open(&j->target, run->opt->json_path, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --json: %s (accepted: a new file or a regular file of your own, a FIFO "
			     "or device with a reader, or - for stdout)", err);
		return 2;
	}
	j->target_open = true;
	return 0;
}

/* Starts the document (with --json, or unless -c). */
static void json_begin(void *st, struct report_run *run)
{
	struct json_output *j = st;
	if (!run->opt->json_path && run->opt->console_only)
		return;
	j->doc = report_new(run->in.machine, &run->info, run->opt);
	if (!j->doc)
		out_of_memory();
}

static void json_sweep(void *st, struct report_run *run, const struct report_sweep *sw)
{
	struct json_output *j = st;
	(void)run;
	if (j->doc && report_add_sweep(j->doc, sw->sim, sw->load, sw->rows, sw->nr, sw->cols, sw->nc, sw->cells) != 0)
		out_of_memory();
}

/* How a budget run ended, into its run.budget: "rounds" (that ran or began) and "undecided",
 * each pair not settled with its words and what it waited for ("why": a figure's name,
 * "disturbed", or "under 3 sub-runs"; matrix_undecided's reasons).  Returns 0, or -1 when out
 * of memory. */
static int budget_outcome(json_t *doc, const struct report_run *run, const struct matrix *m)
{
	json_t *budget = json_object_get(json_object_get(doc, JK_RUN), "budget"), *undecided = json_array();
	int rc = budget && undecided ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < run->in.plan->n; i++) {
		if (m->settled[i])
			continue;
		const struct plan_item *it = &run->in.plan->items[i];
		char mode[128], load_mode[128];
		report_item_words(run, it, mode, load_mode, sizeof(mode));
		rc = json_array_append_new(undecided, json_pack("{s:s, s:s, s:s, s:s, s:i, s:s}", JK_SIMULATION,
				it->task->name, JK_LOAD, workload_table[it->load_index]->name, JK_MODE, mode, JK_LOAD_MODE,
				load_mode, "subruns", (int)matrix_ran(m, i), "why", m->why[i]));
	}
	if (rc == 0 && json_object_set_new(budget, "rounds", json_integer(m->rounds)) != 0)
		rc = -1;
	if (rc == 0)
		return json_object_set_new(budget, "undecided", undecided);
	json_decref(undecided);
	return -1;
}

static void json_run_end(void *st, struct report_run *run, const struct matrix *m, int sig)
{
	struct json_output *j = st;
	if (j->doc && m->p.budget_ns && budget_outcome(j->doc, run, m) != 0)
		out_of_memory();
	if (j->doc && report_add_results(j->doc, run, m) != 0)
		out_of_memory();
	struct run_decisions rd;
	if (j->doc && run_decisions_build(m, &rd) == 0) {
		json_t *d = rd.n ? run_decisions_json(m, &rd) : NULL;
		if (rd.n && (!d || json_object_set_new(j->doc, JK_DECISIONS, d) != 0))
			out_of_memory();
		run_decisions_free(&rd);
	}
	if (sig && j->doc)
		report_mark_interrupted(j->doc, sig);
	if (j->doc && run->in.fail_if && run->fail_verdict.checks) {
		json_t *f = failif_json(run->in.fail_if, m, &run->fail_verdict);
		if (!f || json_object_set_new(j->doc, "fail_if", f) != 0)
			out_of_memory();
	}
}

/* The speed checks between pairs (run.calibration_drift) and another run seen during this
 * one (run.concurrent_run_pid). */
static void json_end_facts(struct json_output *j, const struct report_run *run, const struct report_end *end)
{
	const struct matrix *m = end->drift;
	if (m) {
		size_t n = run->in.plan->n ? run->in.plan->n : 1;
		const char *sims[n], *loads[n];
		for (size_t i = 0; i < run->in.plan->n; i++) {
			sims[i] = run->in.plan->items[i].task->name;
			loads[i] = matrix_load_name(m, i);
		}
		if (j->doc && report_set_drift(j->doc, &m->drift, calib_drift_off(&m->drift), sims, loads) != 0)
			out_of_memory();
	}
	if (end->concurrent_pid && j->doc)
		report_set_concurrent(j->doc, end->concurrent_pid);
}

/* Writes the document to --json and, unless -c, to a new "<release>-<datestamp>.json" (or -2,
 * -3... when an earlier run of the same minute has that name).  Returns 0, or -1 when a write
 * failed (reported). */
static int write_json(struct json_output *j, struct report_run *run)
{
	char err[512], stem[96], path[128];
	int rc = 0;
	if (j->target_open && report_target_write(&j->target, j->doc, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --json: %s", err);
		rc = -1;
	} else if (j->target_open)
		report_wrote(run, "JSON", run->opt->json_path);
	j->target_open = false;
	snprintf(stem, sizeof(stem), "%s-%s", run->info.kernel_release, run->info.datestamp);
	if (!run->opt->console_only && report_create(j->doc, stem, path, sizeof(path), err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: %s", err);
		rc = -1;
	} else if (!run->opt->console_only)
		report_wrote(run, "JSON", path);
	return rc;
}

static int json_close(void *st, struct report_run *run, const struct report_end *end)
{
	struct json_output *j = st;
	int rc = 0;
	if (end->commit)
		json_end_facts(j, run, end);
	if (end->commit && j->doc)
		rc = write_json(j, run);
	else if (j->target_open)
		report_target_abort(&j->target);
	j->target_open = false;
	json_decref(j->doc);
	j->doc = NULL;
	return rc;
}

static const struct safe_out *json_scratch(const void *st)
{
	return &((const struct json_output *)st)->target.out;
}

const struct report_output report_output_json = {
	.name = "json", .state_bytes = sizeof(struct json_output), .open = json_open, .begin = json_begin,
	.sweep = json_sweep, .run_end = json_run_end, .close = json_close, .scratch = json_scratch,
};
