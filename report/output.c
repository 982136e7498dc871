/* What the outputs share besides their interface (report/output.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"
#include "report/json_report.h"
#include "report/output.h"
#include "workloads/workload.h"

void report_flush(FILE *f, int *first)
{
	errno = 0;
	if (fflush(f) != 0 && !*first)
		*first = errno ? errno : EIO;
}

void report_wrote(struct report_run *run, const char *what, const char *path)
{
	char abs[PATH_MAX];
	if (!path || strcmp(path, "-") == 0 || run->n_wrote >= REPORT_WROTE_MAX)
		return;
	snprintf(run->wrote[run->n_wrote++], sizeof(run->wrote[0]), "%s (%s)", realpath(path, abs) ? abs : path, what);
}

void report_item_words(const struct report_run *run, const struct plan_item *it, char *bench, char *load, size_t len)
{
	sched_setting_words(&it->bench_sched, bench, len);
	sched_setting_words(&run->in.load->s[it->load_setting], load, len);
}

int report_file_close(struct safe_out *out, bool commit, const char *what)
{
	char err[PATH_MAX + 128];
	if (!commit) {
		safe_out_abort(out);
		return 0;
	}
	if (safe_out_commit(out, err, sizeof(err)) == 0)
		return 0;
	text_message(stderr, "interbench: %s: %s", what, err);
	return -1;
}

/* Run `repeat` of plan item i in doc's results: the item's words and settings beside its
 * record.  Returns report_add's value. */
static int result_json(json_t *doc, const struct report_run *run, const struct matrix *m, size_t i, unsigned repeat)
{
	const struct plan_item *it = &run->in.plan->items[i];
	const struct workload *lw = workload_table[it->load_index];
	char mode[128], load_mode[128];
	report_item_words(run, it, mode, load_mode, sizeof(mode));
	struct report_entry e = {
		.simulation = it->task->name, .load = lw->name, .mode = mode, .load_mode = load_mode,
		.bench_sched = &it->bench_sched, .load_sched = &run->in.load->s[it->load_setting], .repeat = repeat + 1,
		.has_deadlines = it->spec.desc->has_deadlines, .spec = &it->spec, .load_metrics = lw->metrics,
		.load_storage = &m->loads[it->load_index].ctx.storage, .explain = run->opt->explain && it->spec.desc->has_deadlines,
		.rec = &matrix_reps(m, i)[repeat], .on_threshold = &run->opt->on_threshold,
		.timeline_unnamed = !run->opt->timeline_path,
	};
	return report_add(doc, &e);
}

int report_add_results(json_t *doc, const struct report_run *run, const struct matrix *m)
{
	int rc = 0;
	for (unsigned r = 0; r < m->p.repeats; r++)
		for (size_t i = 0; i < run->in.plan->n; i++)
			if (matrix_reps(m, i)[r].ran && result_json(doc, run, m, i, r) != 0)
				rc = -1;
	return rc;
}

json_t *report_results_json(const struct report_run *run, const struct matrix *m)
{
	json_t *doc = json_pack("{s:[]}", JK_RESULTS);
	if (doc && report_add_results(doc, run, m) != 0) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
