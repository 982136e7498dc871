/* libFuzzer harness: compare's --threshold parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tools/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	char err[512];
	struct cmp_thresholds t;
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	cmp_default_thresholds(&t);
	if (cmp_parse_thresholds(spec, &t, err, sizeof(err)) != 0 && (strlen(err) == 0 || strchr(err, '\n')))
		abort();
	free(spec);
	return 0;
}
