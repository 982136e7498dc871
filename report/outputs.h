/* The list of interbench's outputs (report/output.h), one line each, in the order they open:
 * the one list both the program's table (report/outputs.c) and a test's table
 * (tests/check_output.c, which adds an example) are built from, so neither can leave one out.
 * REPORT_OUTPUTS(X) applies X to each name; OUTPUT_DECLARE declares its struct
 * report_output_<name>, OUTPUT_ENTRY makes its table entry.  The text output comes last: it
 * prints the run header once every output is open. */
#ifndef IB_OUTPUTS_H
#define IB_OUTPUTS_H
#include "report/output.h"

#define REPORT_OUTPUTS(X) \
	X(timeline)       \
	X(framelog)       \
	X(export_csv)     \
	X(export_markdown) \
	X(histogram_csv)  \
	X(trace)          \
	X(json)           \
	X(text)

#define OUTPUT_DECLARE(name) extern const struct report_output report_output_##name;
#define OUTPUT_ENTRY(name) &report_output_##name,
#endif
