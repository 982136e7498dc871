#define _GNU_SOURCE
#include <jansson.h>
#include "run/json_seed.h"
#include "lib/nbrandom.h"

size_t json_seed_mix(uint64_t a, uint64_t b)
{
	size_t seed = (size_t)random_mix64(a + 0x9e3779b97f4a7c15u * (b + 1));
	return seed ? seed : 1; /* jansson takes 0 as "seed from /dev/urandom" */
}

void json_seed_without_blocking(void)
{
	uint64_t bytes[2];
	random_bytes_nonblocking(bytes, sizeof(bytes));
	json_object_seed(json_seed_mix(bytes[0], bytes[1]));
}
