/* The machine a run measured: kernel, CPU, memory, preemption model and clocksource, read from
 * uname(2), sysinfo(2), /proc and /sys.  Every field has a fallback ("unknown", 0), so
 * collecting never fails. */
#ifndef IB_MACHINE_H
#define IB_MACHINE_H
#include <stddef.h>
#include <stdint.h>
#include "host/cgroup.h"
#include "lib/optspec.h"

struct machine_info {
	char kernel_release[65];   /* uname -r */
	char kernel_version[65];   /* uname -v */
	char machine[65];          /* uname -m */
	char cpu_model[128];       /* /proc/cpuinfo "model name" (or "Processor", "cpu model") */
	unsigned online_cpus;      /* sysconf(_SC_NPROCESSORS_ONLN) */
	uint64_t ram_bytes;        /* sysinfo totalram * mem_unit */
	uint64_t swap_bytes;       /* sysinfo totalswap * mem_unit */
	char preempt_model[32];    /* "PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT", "voluntary", "none", "unknown" */
	char preempt_mode[16];     /* PREEMPT_DYNAMIC's mode ("none", "voluntary", "full", "lazy"), or
	                              "" if unknown */
	char preempt_source[64];   /* the file or string the model was read from */
	char preempt_mode_source[64]; /* where the mode was read: the kernel's current one
	                              (/sys/kernel/debug/sched/preempt), the boot's (/proc/cmdline
	                              preempt=) or the build's default (kernel config); "" unknown */
	char clocksource[32];      /* current_clocksource, or "unknown" */
	unsigned allowed_cpus;     /* CPUs this process may run on (sched_getaffinity(2)); 0: unknown */
	char allowed_cpu_list[256]; /* those CPUs as a list ("1", "0-3,6"), "" when unknown */
	struct cgroup_cpu_limits cgroup; /* its cgroups' CPU quota and cpuset (host/cgroup.h) */
};

/* The CPUs this process may run on, from sched_getaffinity(2) (taskset, a cpuset, a
 * container's CPU set), into set (given).  Returns their count, or 0 when the call failed (set
 * empty). */
unsigned machine_allowed_cpus(struct optspec_cpus *set);

/* Whether this process may run on CPU c, as machine_allowed_cpus says.  True when that is
 * unknown (the call failed, e.g. more CPUs than CPU_SETSIZE): the one rule for an unknown set,
 * which every check of a CPU follows (-u's CPU 0 in run/privs.c, the --cpus lists' check), so
 * nothing is refused on a guess and a CPU truly out of reach is named by sched_setaffinity(2)
 * when the task is pinned; likewise a count of allowed CPUs falls back to the online ones. */
bool machine_cpu_allowed(unsigned c);

/* Writes "1 of 2 CPUs: 1" (allowed of online, then the list) into buf; "unknown" when allowed
 * is 0. */
void machine_allowed_text(unsigned allowed, unsigned online, const char *list, char *buf, size_t len);

/* How many CPUs the list ("0-1,4") names; 0 for an empty or malformed one. */
unsigned machine_cpu_list_count(const char *list);

/* Fills *m from the running system. */
void machine_info_collect(struct machine_info *m);

/* The texts the preemption model and mode are read from; NULL where unreadable. */
struct preempt_texts {
	const char *realtime_flag;   /* /sys/kernel/realtime ("1" on PREEMPT_RT) */
	const char *uname_v;         /* the kernel version string (uname -v) */
	const char *dyn_preempt;     /* /sys/kernel/debug/sched/preempt: the current mode is the
	                                word in parentheses, "none voluntary (full) lazy" */
	const char *cmdline;         /* /proc/cmdline: preempt=MODE chose the boot's mode */
	const char *kconfig;         /* the kernel config: voluntary from none, and the default mode
	                                (CONFIG_PREEMPT_NONE, _VOLUNTARY, CONFIG_PREEMPT, _LAZY:
	                                kernel/Kconfig.preempt) */
};

/* Derives the preemption model and mode from t (pure, for tests) into m's preempt_* fields.
 * The mode of a PREEMPT_DYNAMIC kernel is the kernel's current one where debugfs is mounted,
 * else the boot's preempt=, else the config's default (either can be stale when root changed
 * it through debugfs since); a PREEMPT_RT kernel's (dynamic since 6.13) from debugfs only. */
void machine_preempt_model(struct machine_info *m, const struct preempt_texts *t);

/* The scheduling class ordinary tasks run in, into buf: "sched_ext: NAME" when a BPF scheduler
 * is loaded (scx_state, /sys/kernel/sched_ext/state, is "enabled"; scx_ops its root/ops, NULL
 * unknown), else the fair class by kernel release: "EEVDF" from 6.6 (when it replaced CFS in
 * kernel/sched/fair.c), "CFS" before, "unknown" for a release that does not parse.  Pure.
 * Returns buf. */
const char *machine_scheduler(const char *scx_state, const char *scx_ops, const char *release, char *buf,
			      size_t len);

#endif
