/* The JSON output (report/output.h): the run's JSON document (report/json_report.h), started
 * with the run header, its results added from the matrix's records when the run ends (in plan
 * order, round by round), written to --json and, unless -c, to a new
 * "<release>-<datestamp>.json". */
#ifndef IB_OUTPUT_JSON_H
#define IB_OUTPUT_JSON_H
#include <jansson.h>
#include <stdbool.h>
#include "report/jsonout.h"
#include "report/output.h"

/* Its state for a run. */
struct json_output {
	json_t *doc;                     /* the document, or NULL (-c without --json, or out of memory) */
	struct report_target target;     /* --json's, opened with the run */
	bool target_open;
};

extern const struct report_output report_output_json; /* listed in report/outputs.h */

#endif
