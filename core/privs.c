#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/resource.h>
#include "core/privs.h"

#define FIX_CAPS "run as root, or grant it: setcap cap_sys_nice,cap_ipc_lock+ep ./interbench"
#define FIX_RTPRIO "or add an rtprio line to /etc/security/limits.conf (e.g. '@audio - rtprio 99')"

static bool cap_effective(cap_t caps, cap_value_t cap)
{
	cap_flag_value_t v = CAP_CLEAR;
	return caps && cap_get_flag(caps, cap, CAP_EFFECTIVE, &v) == 0 && v == CAP_SET;
}

static uint64_t soft_limit(int resource)
{
	struct rlimit rl;
	if (getrlimit(resource, &rl) != 0)
		return 0;
	return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
}

static int read_rt_runtime_us(void)
{
	FILE *f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "r");
	int v;
	if (!f)
		return INT32_MIN;
	if (fscanf(f, "%d", &v) != 1)
		v = INT32_MIN;
	fclose(f);
	return v;
}

void privs_probe(struct privs *p)
{
	cpu_set_t set;
	memset(p, 0, sizeof(*p));
	cap_t caps = cap_get_proc();
	p->cap_sys_nice = cap_effective(caps, CAP_SYS_NICE);
	p->cap_ipc_lock = cap_effective(caps, CAP_IPC_LOCK);
	if (caps)
		cap_free(caps);
	p->rlimit_rtprio = soft_limit(RLIMIT_RTPRIO);
	p->rlimit_nice = soft_limit(RLIMIT_NICE);
	p->rlimit_memlock_bytes = soft_limit(RLIMIT_MEMLOCK);
	p->cpu0_allowed = sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_ISSET(0, &set);
	p->rt_runtime_us = read_rt_runtime_us();
}

bool privs_can_fifo(const struct privs *p, int prio)
{
	return p->cap_sys_nice || p->rlimit_rtprio >= (uint64_t)prio;
}

bool privs_can_nice(const struct privs *p, int nice)
{
	/* RLIMIT_NICE allows nice values down to 20 - limit (sched(7)). */
	return nice >= 0 || p->cap_sys_nice || p->rlimit_nice >= (uint64_t)(20 - nice);
}

int privs_check_options(const struct privs *p, const struct options *o, int fifo_prio,
			char *err, size_t errlen)
{
	if (o->realtime && !privs_can_fifo(p, fifo_prio)) {
		snprintf(err, errlen, "-r: SCHED_FIFO priority %d is not permitted (no CAP_SYS_NICE, "
			 "RLIMIT_RTPRIO is %llu): %s, %s", fifo_prio,
			 (unsigned long long)p->rlimit_rtprio, FIX_CAPS, FIX_RTPRIO);
		return -1;
	}
	const int nices[2] = { o->bench_nice, o->load_nice };
	for (int i = 0; i < 2; i++) {
		if (!privs_can_nice(p, nices[i])) {
			snprintf(err, errlen, "-%c: nice %d is not permitted (no CAP_SYS_NICE, RLIMIT_NICE is "
				 "%llu): %s, or add a nice line to /etc/security/limits.conf",
				 i ? 'N' : 'B', nices[i], (unsigned long long)p->rlimit_nice, FIX_CAPS);
			return -1;
		}
	}
	if (o->uniprocessor && !p->cpu0_allowed) {
		snprintf(err, errlen, "-u: CPU 0 is not in this process's affinity mask (cpuset); "
			 "run where CPU 0 is allowed, e.g. outside the restricting cgroup");
		return -1;
	}
	return 0;
}

int privs_warn(const struct privs *p, const struct options *o, int fifo_prio, FILE *f)
{
	int lines = 0;
	if (!privs_can_fifo(p, fifo_prio)) {
		fprintf(f, "interbench: warning: no SCHED_FIFO (no CAP_SYS_NICE, RLIMIT_RTPRIO %llu): the "
			"timing thread runs at normal priority and results are less reliable; %s\n",
			(unsigned long long)p->rlimit_rtprio, FIX_CAPS);
		lines++;
	}
	if (!p->cap_ipc_lock && p->rlimit_memlock_bytes != UINT64_MAX) {
		fprintf(f, "interbench: warning: no CAP_IPC_LOCK and RLIMIT_MEMLOCK is %llu bytes: main "
			"cannot lock its memory and may be paged out; %s\n",
			(unsigned long long)p->rlimit_memlock_bytes, FIX_CAPS);
		lines++;
	}
	if (o->realtime && p->rt_runtime_us == -1) {
		fprintf(f, "interbench: warning: RT throttling is disabled (sched_rt_runtime_us = -1): a "
			"runaway SCHED_FIFO task could lock up this machine\n");
		lines++;
	}
	return lines;
}
