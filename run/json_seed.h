/* Seeding jansson's hash tables without blocking.  Left to itself, jansson seeds them when the
 * first JSON object is made by reading /dev/urandom, which before the kernel's random pool is
 * ready (early after boot, on a machine without RDRAND) makes the kernel generate entropy
 * with a timer while the reader spins: on PREEMPT_RT that timer runs in the ktimers thread
 * (SCHED_FIFO 1), which interbench's main, at the top SCHED_FIFO priority, starves forever. */
#ifndef IB_JSON_SEED_H
#define IB_JSON_SEED_H
#include <stddef.h>
#include <stdint.h>

/* A non-zero hash seed from two 64-bit inputs, through splitmix64's output function (Steele,
 * Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014). */
size_t json_seed_mix(uint64_t a, uint64_t b);

/* Seeds jansson (json_object_seed) with a non-zero seed, before the first JSON object is made:
 * getrandom(GRND_INSECURE), which never waits for the pool (Linux 5.6+); else
 * getrandom(GRND_NONBLOCK); else the clocks, the pid and a stack address.  Never blocks and
 * never opens a file.  Call once, first thing in main, before any thread starts. */
void json_seed_without_blocking(void);

#endif
