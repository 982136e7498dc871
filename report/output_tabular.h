/* The table and histogram files of a run (report/output.h): --export-csv and --export-markdown
 * (report/tabular.h) and --histogram-csv (report/histview.h), each written when the run ends
 * from the run's results as the JSON holds them (report_results_json), so a file equals
 * `interbench export --format csv|markdown|histogram-csv` of the run's JSON; under a temporary
 * name until the run ends (lib/safefile.h), a run cut short by a signal keeping what was
 * measured. */
#ifndef IB_OUTPUT_TABULAR_H
#define IB_OUTPUT_TABULAR_H
#include <stdbool.h>
#include "lib/safefile.h"
#include "report/output.h"

/* What one of the three files is: its option, where struct options keeps its path, and its
 * writer of a "results" array (0, or -1 out of memory). */
struct tabular_file {
	const char *option;
	size_t path_offset;
	int (*write)(FILE *out, const json_t *results);
};

/* Its state for a run. */
struct tabular_output {
	const struct tabular_file *file;  /* set when its option was given */
	struct safe_out out;
	bool open;
	bool failed;                      /* a write failed (said): the file is not committed */
};

extern const struct report_output report_output_export_csv, report_output_export_markdown,
	report_output_histogram_csv;   /* listed in report/outputs.h */

#endif
