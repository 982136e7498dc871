/* The text output (report/output.h): the classic interbench table and the lines around it,
 * written to the console and, unless -c, to the kernel-stamped logfile (report/logfile.h):
 * the run header (the logfile's whole, the console's with one audit line), the loads'
 * descriptions and the tasks' patterns, each table's header, its rows (a single run's, or the
 * medians of the repeats') with the lines under them, the sweep tables, and the interrupted,
 * drift and concurrent-run marks.  Both get the same text but for the lines only the logfile
 * keeps unless -v (the load's throughput, --explain's blocks). */
#ifndef IB_OUTPUT_TEXT_H
#define IB_OUTPUT_TEXT_H
#include <stdio.h>
#include "report/output.h"

/* Its state for a run. */
struct text_output {
	FILE *log;                       /* the logfile, NULL with -c */
	char log_path[128];
	int log_errno;                   /* the logfile's first write error, or 0 */
	/* The text for the console and the logfile written since it was last sent to them
	 * (open_memstream(3)): printed here, then sent to both (send_pending). */
	FILE *pending;
	char *pending_text;
	size_t pending_size;
	const struct plan_item *last_header; /* the item whose table header was printed last */
};

extern const struct report_output report_output_text; /* listed in report/outputs.h */

#endif
