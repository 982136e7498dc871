/* A result as a table for spreadsheets and documents (as hyperfine's --export-csv and
 * --export-markdown, fio's terse output): one row per pair (task, its setting, load, the
 * load's setting), a column per figure of the figure table (report/figures.h task_figures,
 * walked: no second list), each in the unit its header names.  Written from a JSON result's
 * "results" array (doc/json.md), by `interbench export --format csv|markdown` (tools/export.c)
 * and, for a run, --export-csv and --export-markdown (report/output_tabular.c), which build
 * that array from the run's records, so both give the same table of one run. */
#ifndef IB_TABULAR_H
#define IB_TABULAR_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

enum tabular_format {
	TABULAR_CSV,       /* RFC 4180: comma-separated, CRLF line ends, a header line */
	TABULAR_MARKDOWN,  /* a GitHub-flavoured Markdown table (GFM spec, "Tables (extension)") */
};

/* One pair of a "results" array: the results of one task and load at one setting. */
struct tabular_pair {
	const char *sim, *mode, *load, *load_mode; /* its key (JSON strings; "" when absent) */
	const json_t **res;          /* its results, in the array's order */
	size_t n;
	size_t counted;              /* of them measured and counted: not failed, and not
	                                interrupted unless the pair has no other result (a partial
	                                window stays out of a median, as in the text table) */
	const char *why;             /* the first failed result's reason, or NULL */
	size_t failed;               /* its failed results */
};

/* The pairs of a "results" array. */
struct tabular_pairs {
	struct tabular_pair *p;
	size_t n;
	const json_t **res;          /* every pair's results, one array */
};

/* The pairs of results (an array of result objects; an element that is no object, or has no
 * string "simulation", is skipped) into *ps, in the order of their first result: O(n log n)
 * whatever the input.  Returns 0, or -1 out of memory.  Free with tabular_pairs_free. */
int tabular_pairs(const json_t *results, struct tabular_pairs *ps);
void tabular_pairs_free(struct tabular_pairs *ps);

/* Whether result k of p is counted (struct tabular_pair.counted). */
bool tabular_counted(const struct tabular_pair *p, size_t k);

/* Writes s as one CSV field (RFC 4180 section 2, rules 5-7): as it is, unless it holds a comma,
 * a double quote, CR or LF, then between double quotes with each double quote doubled. */
void tabular_csv_field(FILE *out, const char *s);

/* Writes s as the text of one GFM table cell: '|' as "\|" (the GFM spec's escape inside a
 * table), and the other ASCII punctuation that starts inline markup (\ ` * _ [ ] < > ~ & !)
 * backslash-escaped (CommonMark section 2.4), so a cell shows s as it is, never a link, an
 * emphasis or HTML. */
void tabular_md_cell(FILE *out, const char *s);

/* A table being written: its format and the next cell's place in its line. */
struct tabular_out {
	FILE *f;
	enum tabular_format fmt;
	unsigned col;
};

/* Writes cell s, escaped for t's format (tabular_csv_field, tabular_md_cell), after the
 * line's cells so far. */
void tabular_cell(struct tabular_out *t, const char *s);

/* A cell of text from a result: made printable (text_printable_line, lib/text.h) and, where
 * it begins with = + - @ (a spreadsheet's formula), after a ' (OWASP's CSV injection
 * advice).  Returns 0, or -1 out of memory. */
int tabular_text(struct tabular_out *t, const char *s);

/* A cell of v as the shortest fixed-point decimal text that strtod(3) reads back as v (no
 * exponent). */
void tabular_number(struct tabular_out *t, double v);

/* Ends a line: CRLF in CSV (RFC 4180 rule 1), " |" and LF in Markdown. */
void tabular_end(struct tabular_out *t);

/* Writes the table of results (a JSON result's "results" array, as read by tools/plot.h
 * result_json_load or built by report_add_results) to out as fmt.
 * Rows: one per pair, keyed by "simulation", "mode", "load" and "load_mode", in the order of
 * its first result.  Columns: simulation, mode, load, load_mode; subruns (its measured results
 * counted: every one not failed, an interrupted one only when the pair has no other) and
 * failed (its failed results); then every figure of task_figures with a value in some row, its
 * value the median over the row's counted results that have it, empty where none has; for a
 * figure compare judges (struct task_figure.cmp) with two counted values or more in some row,
 * two more columns: the 95 % t interval of its mean over the sub-runs (between runs,
 * lib/stats.h mean_interval95; never a run's own within-run "_ci"), empty with fewer than two;
 * last, why: the first failure's reason.  Headers name units: CSV "latency_p99_ms",
 * "latency_p99_ms_mean_ci95_low", Markdown "latency p99 (ms)"; times in ms, shares in %
 * ("_pct"), frame rates in fps, counts bare.  Numbers exact: the shortest decimal text that
 * reads back as the value, never an exponent.  Text from the result is made printable
 * (text_printable_line, lib/text.h) and, where it begins with = + - @ (a spreadsheet's
 * formula), begins with a ' (OWASP's CSV injection advice).  Returns 0, or -1 out of memory. */
int tabular_write(FILE *out, const json_t *results, enum tabular_format fmt);

#endif
