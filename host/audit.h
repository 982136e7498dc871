/* The system audit (--audit): what on this machine decides interactivity, read-only, each
 * setting with its value, the file it was read from, and a one-line hint where it is known to
 * hurt (the checks rtcqs and realtimeconfigquickscan make).  A file that is missing (a VM has
 * no cpufreq) reads as "not available", never as an error. */
#ifndef IB_AUDIT_H
#define IB_AUDIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define AUDIT_MAX 32
#define AUDIT_NA "not available"

/* The names of the audit's items compare sets side by side as facts of the run
 * (tools/result_json.c): each the key of its item in the JSON "audit" object. */
#define AUDIT_GOVERNOR   "cpufreq_governor"
#define AUDIT_SMT        "smt"
#define AUDIT_IDLE_STATE "deepest_idle_state"
#define AUDIT_SCHEDULER  "scheduler"
#define AUDIT_SCHED_EXT  "sched_ext"
#define AUDIT_CMDLINE    "cmdline"

/* One setting. */
struct audit_item {
	char name[32];        /* a stable key: "cpufreq_governor", "smt", ... */
	char value[256];      /* its value, or AUDIT_NA */
	char source[128];     /* the file (or call) it was read from */
	char hint[256];       /* why it hurts and what helps, "" when it does not */
};

struct audit {
	struct audit_item item[AUDIT_MAX];
	unsigned n;
};

/* Reads every setting of the running system into a (root "/" for the real machine; a test
 * gives a directory holding a fake proc/ and sys/).  Never fails. */
void audit_collect(struct audit *a, const char *root);

/* The item named name, or NULL. */
const struct audit_item *audit_find(const struct audit *a, const char *name);

/* How many items carry a hint (settings known to hurt interactivity). */
unsigned audit_hurts(const struct audit *a);

/* Writes the audit, one setting a line ("smt: on (/sys/devices/system/cpu/smt/active)") and
 * each hint under its setting. */
void audit_print(FILE *f, const struct audit *a);

/* Pure judges, for tests: the hint for a value, or "" when it does not hurt. */
const char *audit_governor_hint(const char *governor);
const char *audit_preempt_hint(const char *model);
const char *audit_clocksource_hint(const char *clocksource);
/* exit latency of the deepest enabled idle state, microseconds (< 0: unknown) */
const char *audit_idle_hint(long exit_latency_us);
/* allowed of online CPUs usable by the process (sched_getaffinity(2)): hurts below online */
const char *audit_allowed_cpus_hint(unsigned allowed, unsigned online);
/* the tightest CPU quota of its cgroups, microseconds per period (<= 0: none; cgroup-v2.rst
 * cpu.max, sched-bwc.rst) */
const char *audit_cpu_quota_hint(int64_t quota_us);
/* a realtime budget below the kernel's default (host/cgroup.h cgroup_rt_budget_tight): tight */
const char *audit_rt_budget_hint(bool tight);
/* the process id of another interbench run at the same time (0: none; host/runlock.h) */
const char *audit_concurrent_hint(long pid);

#endif
