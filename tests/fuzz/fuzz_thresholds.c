/* libFuzzer harness: the threshold grammars on one arbitrary text: compare's --threshold, the
 * run's --fail-if (report/failif.h) and --on-threshold (run/threshold.h).  Each either parses
 * into values within their bounds or refuses with one non-empty line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "report/failif.h"
#include "run/threshold.h"
#include "tools/compare.h"

/* A refusal's message: one line, not empty. */
static void one_line(const char *err)
{
	if (strlen(err) == 0 || strchr(err, '\n'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct failif_spec f;
	static struct threshold_rule r;
	char *spec = malloc(size + 1);
	char err[2048];
	struct cmp_thresholds t;
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	cmp_default_thresholds(&t);
	if (cmp_parse_thresholds(spec, &t, err, sizeof(err)) != 0)
		one_line(err);
	struct optspec_texts texts = { .n = 1, .v = { spec } };
	if (failif_parse(&texts, FAILIF_POINT, &f, err, sizeof(err)) != 0)
		one_line(err);
	else
		for (unsigned i = 0; i < f.n; i++)
			if (!isfinite(f.c[i].limit) || f.c[i].limit < 0 || !f.c[i].f || f.n > FAILIF_MAX)
				abort();
	if (threshold_parse(spec, &r, err, sizeof(err)) != 0)
		one_line(err);
	else if (r.latency_ns < 1000 || (r.kind == THRESHOLD_EXEC && !r.argv[0]) ||
		 (r.kind == THRESHOLD_SIGNAL && (r.pid == 1 || r.pid < 0)))
		abort();
	free(spec);
	return 0;
}
