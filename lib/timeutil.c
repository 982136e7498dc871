#include "lib/timeutil.h"
#include <errno.h>

int sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts = ns_to_timespec(deadline_ns);
	return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

void sleep_for_ns(uint64_t duration_ns)
{
	uint64_t deadline_ns = now_ns() + duration_ns;
	while (sleep_until_ns(deadline_ns) == EINTR)
		;
}
