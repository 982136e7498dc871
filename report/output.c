/* What the outputs share besides their interface (report/output.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"
#include "report/output.h"

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
