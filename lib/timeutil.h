/* Monotonic time helpers.  All times are uint64_t nanoseconds on CLOCK_MONOTONIC. */
#ifndef IB_TIMEUTIL_H
#define IB_TIMEUTIL_H
#include <stdint.h>
#include <time.h>

#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_S  1000000000ULL

/* Current CLOCK_MONOTONIC time in nanoseconds.  Never fails on Linux. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) in nanoseconds.  Never fails on
 * Linux. */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* Converts nanoseconds (a CLOCK_MONOTONIC time or a duration) to a timespec. */
static inline struct timespec ns_to_timespec(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / NS_PER_S), .tv_nsec = (long)(ns % NS_PER_S) };
	return ts;
}

/* Sleeps until the absolute CLOCK_MONOTONIC time deadline_ns (TIMER_ABSTIME, so no drift
 * accumulates).  Returns clock_nanosleep's result: 0 when the deadline passed, EINTR if a
 * signal interrupted the sleep (the caller decides whether to sleep again), EINVAL for a
 * deadline beyond the range of time_t. */
int sleep_until_ns(uint64_t deadline_ns);

/* Sleeps for duration_ns, resuming after signals. */
void sleep_for_ns(uint64_t duration_ns);

#endif
