/* What this process may do that a benchmark needs: SCHED_FIFO, negative nice, locking its
 * memory.  Probed with libcap and getrlimit, so a refusal can name exactly what is missing
 * and how to grant it. */
#ifndef IB_PRIVS_H
#define IB_PRIVS_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "run/options.h"

struct privs {
	bool cap_sys_nice;          /* CAP_SYS_NICE effective: SCHED_FIFO, negative nice, affinity */
	bool cap_ipc_lock;          /* CAP_IPC_LOCK effective: mlockall without limit */
	uint64_t rlimit_rtprio;     /* RLIMIT_RTPRIO soft limit (highest FIFO priority allowed) */
	uint64_t rlimit_nice;       /* RLIMIT_NICE soft limit: nice may go down to 20 - this */
	uint64_t rlimit_memlock_bytes; /* RLIMIT_MEMLOCK soft limit (UINT64_MAX = unlimited) */
	bool cpu0_allowed;          /* CPU 0 is in our affinity mask (for -u): machine_cpu_allowed */
	int rt_runtime_us;          /* /proc/sys/kernel/sched_rt_runtime_us; -1 = throttling off,
	                               INT32_MIN when unreadable */
	int fifo_refused_errno;     /* 0, or the errno with which the kernel refused SCHED_FIFO on
	                               a test thread although the privileges above allow it */
	int fifo_refused_prio;      /* the priority it refused */
	long long cg_rt_runtime_us; /* cpu.rt_runtime_us of the process's cpu cgroup (RT group
	                               scheduling), read after a refusal; PRIVS_RT_UNKNOWN if not */
	char cg_cpu_dir[PATH_MAX];  /* that cgroup's directory, "" when unknown */
	bool in_user_ns;            /* in a user namespace other than the initial one (read after a
	                               refusal): its capabilities do not count for SCHED_FIFO */
};

#define PRIVS_RT_UNKNOWN LLONG_MIN

/* Fills p for the calling process.  When the privileges allow SCHED_FIFO at fifo_levels
 * priorities (privs_fifo_max), sets and resets it on a throwaway thread at each of the
 * fifo_levels highest, as the run will use them, so a kernel that refuses it anyway (a cpu
 * cgroup without a realtime budget, a user namespace, a security policy) is known before
 * anything starts.  Never fails: what cannot be read counts as not held. */
void privs_probe(struct privs *p, int fifo_levels);

/* True when SCHED_FIFO at priority prio is permitted by capability or RLIMIT_RTPRIO (whether
 * the kernel grants it is fifo_refused_errno's business). */
bool privs_can_fifo(const struct privs *p, int prio);

/* The highest SCHED_FIFO priority the capabilities or RLIMIT_RTPRIO allow (0 = none). */
int privs_fifo_max(const struct privs *p);

/* True when nice may be set to the value nice. */
bool privs_can_nice(const struct privs *p, int nice);

/* Checks the options against p before anything starts: -r without SCHED_FIFO (no privilege,
 * or the kernel refused it on the test thread: the message then names the cgroup and its
 * cpu.rt_runtime_us where that is the cause), a negative -B or -N without the right to lower
 * nice, -u when CPU 0 is not ours.  Returns 0, or -1 with err set to one line naming the
 * option, what is missing and the fix. */
int privs_check_options(const struct privs *p, const struct options *o, int fifo_prio,
			char *err, size_t errlen);

/* Writes one warning line per missing privilege that makes a normal run less reliable
 * (no SCHED_FIFO for the timing thread, by privilege or by the kernel's refusal; no memory
 * locking), and a warning when -r is asked with RT throttling disabled.  Returns the number
 * of lines written. */
int privs_warn(const struct privs *p, const struct options *o, int fifo_prio, FILE *f);

#endif
