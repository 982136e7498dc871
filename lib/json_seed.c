#define _GNU_SOURCE
#include <jansson.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "lib/json_seed.h"

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
	uint64_t bytes[2] = { 0, 0 };
	if (getrandom(bytes, sizeof(bytes), GRND_INSECURE) != (ssize_t)sizeof(bytes) &&
	    getrandom(bytes, sizeof(bytes), GRND_NONBLOCK) != (ssize_t)sizeof(bytes)) {
		struct timespec mono, real;
		clock_gettime(CLOCK_MONOTONIC, &mono);
		clock_gettime(CLOCK_REALTIME, &real);
		bytes[0] = (uint64_t)mono.tv_sec * 1000000000u + (uint64_t)mono.tv_nsec + (uint64_t)(uintptr_t)&mono;
		bytes[1] = (uint64_t)real.tv_sec * 1000000000u + (uint64_t)real.tv_nsec + ((uint64_t)getpid() << 32);
	}
	json_object_seed(json_seed_mix(bytes[0], bytes[1]));
}
