/* The table of interbench's outputs (report/output.h), from the list in report/outputs.h: in
 * the order they open (a later one that cannot open closes the earlier ones); they close in
 * the reverse order. */
#include <stddef.h>
#include "report/outputs.h"

REPORT_OUTPUTS(OUTPUT_DECLARE)

const struct report_output *const report_outputs[] = { REPORT_OUTPUTS(OUTPUT_ENTRY) NULL };
