#include <string.h>
#include "report/jsonkeys.h"

bool report_generator_is_ours(const char *generator)
{
	return strcmp(generator, REPORT_GENERATOR) == 0 ||
	       (strncmp(generator, REPORT_GENERATOR " ", sizeof(REPORT_GENERATOR)) == 0 &&
		generator[sizeof(REPORT_GENERATOR)] != '\0');
}
