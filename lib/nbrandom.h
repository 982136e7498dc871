/* Random bytes that never block, for names made exclusive by O_EXCL and for hash seeds, never
 * for secrets. */
#ifndef IB_NBRANDOM_H
#define IB_NBRANDOM_H
#include <stddef.h>
#include <stdint.h>

/* splitmix64's output function (Steele, Lea and Flood, OOPSLA 2014): x's bits mixed so that
 * nearby inputs give unrelated outputs. */
uint64_t random_mix64(uint64_t x);

/* Fills buf with n bytes of the kernel's random pool without ever blocking: getrandom(2) with
 * GRND_INSECURE (Linux 5.6), else GRND_NONBLOCK, else, while the pool is not yet initialised
 * (early boot: a guest under qemu's TCG without a hardware random source waited minutes in a
 * plain getrandom), the clocks, the process id and a counter mixed by splitmix64
 * (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014). */
void random_bytes_nonblocking(void *buf, size_t n);

#endif
