/* The --timeline output (report/output.h): the file every period of every pair is written to
 * (engine/timeline.h), its header written when it opens, the bench processes appending their
 * records to run->timeline_fd, renamed into place when the run ends (lib/safefile.h). */
#ifndef IB_OUTPUT_TIMELINE_H
#define IB_OUTPUT_TIMELINE_H
#include <stdbool.h>
#include "lib/safefile.h"
#include "report/output.h"

/* Its state for a run. */
struct timeline_output {
	struct safe_out out;             /* --timeline's file, under a temporary name until close */
	bool open;
	bool warned;                     /* a write failure of it was reported */
};

extern const struct report_output report_output_timeline; /* listed in report/outputs.h */

#endif
