/* The outputs of interbench (report/output.h), in the order they open: a later one that
 * cannot open closes the earlier ones, and the text output prints the run header once all
 * are open.  They close in the reverse order. */
#include <stddef.h>
#include "report/output_json.h"
#include "report/output_text.h"
#include "report/output_timeline.h"

const struct report_output *const report_outputs[] = {
	&report_output_timeline,
	&report_output_json,
	&report_output_text,
	NULL,
};
