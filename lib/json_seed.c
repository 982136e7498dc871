#define _GNU_SOURCE
#include <jansson.h>
#include "lib/json_seed.h"
#include "lib/nbrandom.h"

size_t json_seed_mix(uint64_t a, uint64_t b)
{
	uint64_t z = a + 0x9e3779b97f4a7c15u * (b + 1);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	z ^= z >> 31;
	size_t seed = (size_t)z;
	return seed ? seed : 1; /* jansson takes 0 as "seed from /dev/urandom" */
}

void json_seed_without_blocking(void)
{
	uint64_t bytes[2];
	random_bytes_nonblocking(bytes, sizeof(bytes));
	json_object_seed(json_seed_mix(bytes[0], bytes[1]));
}
