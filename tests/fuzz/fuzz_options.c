/* libFuzzer harness: the option parser on arbitrary argument vectors (NUL-separated). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/options.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1);
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = "interbench";
	for (size_t i = 0; i <= size && argc < MAX_ARGS + 1;) {
		argv[argc++] = copy + i;
		i += strlen(copy + i) + 1;
	}
	argv[argc] = NULL;
	struct options o;
	char err[512];
	options_init(&o);
	enum opt_status st = options_parse(&o, argc, argv, err, sizeof(err));
	if (st == OPT_ERROR && (strlen(err) == 0 || strchr(err, '\n')))
		abort(); /* every error is one non-empty line */
	if (st == OPT_OK && (o.duration_s < 1 || o.bench_nice < -20 || o.bench_nice > 19 ||
			     o.custom_cpu_pct > 100 || (o.custom_cpu_pct != 0) != (o.custom_interval_us != 0)))
		abort(); /* accepted values stay in range */
	free(copy);
	return 0;
}
