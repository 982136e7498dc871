/* libFuzzer harness: compare's reader (JSON results, our logfiles, interbench 0.31
 * logfiles) on arbitrary bytes, then a compare of the set against itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/compare.h"
#include "tools/resultset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_set rs;
	char err[512];
	memset(&rs, 0, sizeof(rs));
	if (result_set_parse((const char *)data, size, &rs, err, sizeof(err)) == 0) {
		struct cmp_thresholds t;
		cmp_default_thresholds(&t);
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			/* A set compared with itself never regresses. */
			if (rs.n > 0 && compare_sets("a", &rs, "b", &rs, &t, null, null) == CMP_REGRESSION)
				abort();
			fclose(null);
		}
	} else if (strlen(err) == 0 || strchr(err, '\n')) {
		abort(); /* every rejection is one non-empty line */
	}
	result_set_free(&rs);
	return 0;
}
