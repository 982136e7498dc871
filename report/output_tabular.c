/* The table and histogram files of a run (report/output_tabular.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"
#include "report/histview.h"
#include "report/jsonkeys.h"
#include "report/output_tabular.h"
#include "report/tabular.h"

static int write_csv(FILE *out, const json_t *results)
{
	return tabular_write(out, results, TABULAR_CSV);
}

static int write_markdown(FILE *out, const json_t *results)
{
	return tabular_write(out, results, TABULAR_MARKDOWN);
}

static const struct tabular_file csv_file = { "--export-csv", offsetof(struct options, export_csv_path), write_csv };
static const struct tabular_file markdown_file = { "--export-markdown", offsetof(struct options, export_markdown_path),
						   write_markdown };
static const struct tabular_file histogram_file = { "--histogram-csv", offsetof(struct options, histogram_csv_path),
						    hview_csv };

/* Opens f's file when its option was given: a new file or a regular file of the user's own, a
 * FIFO or device with a reader (lib/safefile.h SAFE_OUT_DEVICES).  Returns 0, or 2 with one
 * line printed. */
static int file_open(struct tabular_output *t, const struct report_run *run, const struct tabular_file *f)
{
	const char *path = *(const char *const *)((const char *)run->opt + f->path_offset);
	char err[PATH_MAX + 128];
	if (!path)
		return 0;
	if (safe_out_open(&t->out, path, SAFE_OUT_DEVICES, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: %s: %s (accepted: a new file or a regular file of your own, a FIFO or "
			     "device with a reader)", f->option, err);
		return 2;
	}
	t->file = f;
	t->open = true;
	return 0;
}

static int csv_open(void *st, struct report_run *run)
{
	return file_open(st, run, &csv_file);
}

static int markdown_open(void *st, struct report_run *run)
{
	return file_open(st, run, &markdown_file);
}

static int histogram_open(void *st, struct report_run *run)
{
	return file_open(st, run, &histogram_file);
}

/* Writes the file from the run's results (every pair that ran, a signal's partial run too).
 * A failure is said once, naming the option, the file and the errno text. */
static void tabular_run_end(void *st, struct report_run *run, const struct matrix *m, int sig)
{
	struct tabular_output *t = st;
	char *text = NULL;
	size_t len = 0;
	(void)sig;
	if (!t->open)
		return;
	json_t *doc = report_results_json(run, m);
	FILE *mem = open_memstream(&text, &len);
	int rc = doc && mem ? t->file->write(mem, json_object_get(doc, JK_RESULTS)) : -1;
	errno = ENOMEM;
	if ((mem && fclose(mem) != 0) || rc != 0 || safe_write_all(t->out.fd, text, len) != 0) {
		text_message(stderr, "interbench: %s %s: write: %s", t->file->option, t->out.path, strerror(errno));
		t->failed = true;
	}
	free(text);
	json_decref(doc);
}

/* Renames the file into place (commit) or removes it (a run refused before any pair, or a
 * write that failed).  Returns 0, or -1 with the reason printed. */
static int tabular_close(void *st, struct report_run *run, const struct report_end *end)
{
	struct tabular_output *t = st;
	if (!t->open)
		return 0;
	t->open = false;
	int rc = report_file_close(&t->out, end->commit && !t->failed, t->file->option);
	if (rc == 0 && end->commit && !t->failed)
		report_wrote(run, t->file->option + 2, *(const char *const *)((const char *)run->opt + t->file->path_offset));
	return t->failed ? -1 : rc;
}

static const struct safe_out *tabular_scratch(const void *st)
{
	const struct tabular_output *t = st;
	return t->open ? &t->out : NULL;
}

#define TABULAR_OUTPUT(var, label, opener) \
	const struct report_output var = { .name = label, .state_bytes = sizeof(struct tabular_output), \
		.open = opener, .run_end = tabular_run_end, .close = tabular_close, .scratch = tabular_scratch }

TABULAR_OUTPUT(report_output_export_csv, "export-csv", csv_open);
TABULAR_OUTPUT(report_output_export_markdown, "export-markdown", markdown_open);
TABULAR_OUTPUT(report_output_histogram_csv, "histogram-csv", histogram_open);
