#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "lib/nbrandom.h"

uint64_t random_mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

void random_bytes_nonblocking(void *buf, size_t n)
{
	static uint64_t counter;
	if (getrandom(buf, n, GRND_INSECURE) == (ssize_t)n || getrandom(buf, n, GRND_NONBLOCK) == (ssize_t)n)
		return;
	struct timespec mono, real;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	uint64_t state = (uint64_t)mono.tv_sec * 1000000000u + (uint64_t)mono.tv_nsec;
	state ^= ((uint64_t)real.tv_sec * 1000000000u + (uint64_t)real.tv_nsec) * 0x9e3779b97f4a7c15u;
	state ^= (uint64_t)getpid() << 40 ^ (uint64_t)(uintptr_t)&mono;
	for (size_t i = 0; i < n; i += sizeof(uint64_t)) {
		uint64_t v = random_mix64(state += 0x9e3779b97f4a7c15u + ++counter);
		memcpy((char *)buf + i, &v, n - i < sizeof(v) ? n - i : sizeof(v));
	}
}
