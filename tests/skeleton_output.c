/* Skeleton: the smallest complete output, the example of doc/adding-an-output.md (as
 * tests/skeleton_load.c is of a load).  It writes one line per pair measured, "TASK LOAD
 * p99_ns" (the pair's p99 scheduling latency, engine/summary.h), one per row ("TASK LOAD rows
 * N"), one per sweep summary and one at the end of the run, to the file skeleton_output_path
 * names (a real output takes its path from its option in struct options, as --timeline does),
 * under a temporary name renamed into place when the run ends (lib/safefile.h).
 * tests/check_output.c registers it in a list of its own beside interbench's outputs and runs
 * a matrix through the report; it is not in interbench's list. */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "lib/safefile.h"
#include "lib/text.h"
#include "report/output.h"

/* Where the skeleton writes: a test sets it before sink_open. */
static const char *skeleton_output_path;

/* Its state for a run: sink_open gives it zeroed. */
struct skeleton_output {
	struct safe_out out;
	bool open;
};

/* Appends one line to the file.  A write error would be kept and said at close by a real
 * output (report/output_text.c keeps the logfile's first one). */
static void skeleton_line(struct skeleton_output *k, const char *line)
{
	if (k->open)
		safe_write_all(k->out.fd, line, strlen(line));
}

static int skeleton_open(void *st, struct report_run *run)
{
	struct skeleton_output *k = st;
	char err[PATH_MAX + 128];
	(void)run;
	if (safe_out_open(&k->out, skeleton_output_path, 0, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: skeleton output: %s", err);
		return 2;
	}
	k->open = true;
	return 0;
}

static void skeleton_pair_measured(void *st, struct report_run *run, const struct matrix *m, size_t item,
				   unsigned repeat, const struct pair_outcome *po)
{
	const struct plan_item *it = &run->in.plan->items[item];
	char line[256];
	(void)repeat;
	if (!po->ok)
		return;
	snprintf(line, sizeof(line), "%s %s %" PRIu64 "\n", it->task->name, matrix_load_name(m, item),
		 po->bench.summary.sched_p99_ns);
	skeleton_line(st, line);
}

static void skeleton_item_complete(void *st, struct report_run *run, const struct matrix *m, size_t item,
				   const struct pair_outcome *reps, unsigned n)
{
	char line[256];
	(void)reps;
	snprintf(line, sizeof(line), "%s %s rows %u\n", run->in.plan->items[item].task->name, matrix_load_name(m, item), n);
	skeleton_line(st, line);
}

static void skeleton_sweep(void *st, struct report_run *run, const struct report_sweep *sw)
{
	char line[256];
	(void)run;
	snprintf(line, sizeof(line), "sweep %s %s %ux%u\n", sw->sim, sw->load, sw->nr, sw->nc);
	skeleton_line(st, line);
}

static void skeleton_run_end(void *st, struct report_run *run, const struct matrix *m, int sig)
{
	char line[64];
	(void)run, (void)m;
	snprintf(line, sizeof(line), "end %d\n", sig);
	skeleton_line(st, line);
}

/* Renames the file into place, or removes it when the run was refused. */
static int skeleton_close(void *st, struct report_run *run, const struct report_end *end)
{
	struct skeleton_output *k = st;
	(void)run;
	if (!k->open)
		return 0;
	k->open = false;
	return report_file_close(&k->out, end->commit, "skeleton output");
}

static const struct safe_out *skeleton_scratch(const void *st)
{
	return &((const struct skeleton_output *)st)->out;
}

const struct report_output report_output_skeleton = {
	.name = "skeleton", .state_bytes = sizeof(struct skeleton_output), .open = skeleton_open,
	.pair_measured = skeleton_pair_measured, .item_complete = skeleton_item_complete, .sweep = skeleton_sweep,
	.run_end = skeleton_run_end, .close = skeleton_close, .scratch = skeleton_scratch,
};
