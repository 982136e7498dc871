/* The --timeline output (report/output_timeline.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include "lib/text.h"
#include "engine/timeline.h"
#include "report/output_timeline.h"

/* Opens --timeline's file and writes its header: written under a temporary name beside it and
 * renamed into place when the run ends (lib/safefile.h: never through a link, a FIFO or another
 * user's file).  Returns 0, or 2 with one line printed. */
static int timeline_open(void *st, struct report_run *run)
{
	struct timeline_output *t = st;
	unsigned char head[TIMELINE_HEADER_BYTES];
	char err[PATH_MAX + 128];
	if (!run->opt->timeline_path)
		return 0;
	timeline_encode_header(head);
	if (safe_out_open(&t->out, run->opt->timeline_path, 0, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --timeline: %s (accepted: a new file or a regular file of your own)", err);
		return 2;
	}
	if (fcntl(t->out.fd, F_SETFL, O_APPEND) != 0 || safe_write_all(t->out.fd, head, sizeof(head)) != 0) {
		text_message(stderr, "interbench: --timeline %s: write: %s", run->opt->timeline_path, strerror(errno));
		safe_out_abort(&t->out);
		return 2;
	}
	t->open = true;
	run->timeline_fd = t->out.fd;
	return 0;
}

/* Warns once when the bench could not write the pair's periods to --timeline, or had more
 * than it keeps. */
static void timeline_pair_measured(void *st, struct report_run *run, const struct matrix *m, size_t item,
				   unsigned repeat, const struct pair_outcome *po)
{
	struct timeline_output *t = st;
	(void)m, (void)item, (void)repeat;
	if (!t->open || t->warned || (!po->bench.timeline_error && !po->bench.timeline_truncated))
		return;
	if (po->bench.timeline_error)
		text_message(stderr, "interbench: warning: --timeline %s: write: %s; the timeline is incomplete",
			run->opt->timeline_path, strerror(po->bench.timeline_error));
	else
		text_message(stderr, "interbench: warning: --timeline %s: a pair had more than %u periods; the rest are "
			"not recorded", run->opt->timeline_path, TIMELINE_MAX_RECORDS);
	t->warned = true;
}

/* Renames --timeline's file into place (commit) or removes it (a run refused before any pair).
 * Returns 0, or -1 with the reason printed. */
static int timeline_close(void *st, struct report_run *run, const struct report_end *end)
{
	struct timeline_output *t = st;
	if (!t->open)
		return 0;
	t->open = false;
	run->timeline_fd = -1;
	if (report_file_close(&t->out, end->commit, "--timeline") != 0)
		return -1;
	if (end->commit)
		report_wrote(run, "timeline", run->opt->timeline_path);
	return 0;
}

static const struct safe_out *timeline_scratch(const void *st)
{
	return &((const struct timeline_output *)st)->out;
}

const struct report_output report_output_timeline = {
	.name = "timeline", .state_bytes = sizeof(struct timeline_output), .open = timeline_open,
	.pair_measured = timeline_pair_measured, .close = timeline_close, .scratch = timeline_scratch,
};
