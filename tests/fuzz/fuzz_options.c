/* libFuzzer harness: the option parser on arbitrary argument vectors (NUL-separated). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/options.h"

#define MAX_ARGS 64

/* options_walk callback: a number outside its range that is not its default. */
static void out_of_range(const struct optspec *s, const void *base, void *arg)
{
	bool number = s->type == OPTSPEC_UINT || s->type == OPTSPEC_U64 || s->type == OPTSPEC_INT ||
		      s->type == OPTSPEC_I64 || s->type == OPTSPEC_SIZE;
	int64_t v = optspec_number(s, base);
	if (number && v != s->def && (v < s->min || v > s->max))
		*(bool *)arg = true;
}

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
	bool bad = false;
	char cpu[32], interval[32];
	if (st == OPT_OK) {
		options_walk(&o, out_of_range, &bad);
		options_get(&o, "custom-cpu", cpu, sizeof(cpu));
		options_get(&o, "custom-interval", interval, sizeof(interval));
		bad |= (strcmp(cpu, "0") == 0) != (strcmp(interval, "0") == 0); /* -C needs -I */
	}
	if (bad)
		abort(); /* accepted values stay in range, and the workloads' checks hold */
	free(copy);
	return 0;
}
