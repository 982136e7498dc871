/* The system audit on a fake /proc and /sys: values and sources read, hints where a setting is
 * known to hurt, "not available" for what is missing (a VM), "none" for what is empty. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "host/audit.h"
#include "host/machine.h"
#include "host/runlock.h"

static char root[64];

/* Writes text to root/rel, creating its directories. */
static void put(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A new empty directory standing in for "/", in root. */
static void new_root(void)
{
	snprintf(root, sizeof(root), "/tmp/check_audit_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

START_TEST(fake_machine)
{
	struct audit a;
	new_root();
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	put("sys/devices/system/cpu/smt/active", "1\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state0/name", "POLL\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state0/latency", "0\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/name", "C6\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/latency", "133\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state2/name", "C10\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state2/latency", "890\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state2/disable", "1\n");   /* disabled: not the deepest */
	put("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("sys/devices/system/cpu/isolated", "\n");
	put("proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	put("proc/cmdline", "quiet threadirqs\n");
	put("proc/sys/vm/swappiness", "60\n");
	put("proc/meminfo", "MemTotal: 1000 kB\nSwapTotal: 2097152 kB\n");
	put("sys/kernel/sched_ext/state", "enabled\n");
	put("sys/kernel/sched_ext/root/ops", "lavd\n");
	audit_collect(&a, root);
	ck_assert_str_eq(audit_find(&a, "cpufreq_governor")->value, "powersave");
	ck_assert_str_eq(audit_find(&a, "cpufreq_governor")->source,
			 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	ck_assert(audit_find(&a, "cpufreq_governor")->hint[0]);
	ck_assert(audit_find(&a, "smt")->hint[0]);
	ck_assert_str_eq(audit_find(&a, "deepest_idle_state")->value, "C6 (exit latency 133 us)");
	ck_assert(audit_find(&a, "deepest_idle_state")->hint[0]);
	ck_assert(audit_find(&a, "transparent_hugepage")->hint[0]);
	ck_assert(audit_find(&a, "rt_runtime_us")->hint[0]);
	ck_assert_str_eq(audit_find(&a, "threadirqs")->value, "yes");
	ck_assert_str_eq(audit_find(&a, "swappiness")->value, "60 (swap 2048 MiB)");
	ck_assert(audit_find(&a, "swappiness")->hint[0]);
	ck_assert_str_eq(audit_find(&a, "isolated_cpus")->value, "none");
	ck_assert_str_eq(audit_find(&a, "nohz_full")->value, AUDIT_NA);
	ck_assert_str_eq(audit_find(&a, "clocksource")->value, AUDIT_NA);
	ck_assert(!audit_find(&a, "clocksource")->hint[0]);        /* missing is no hurt */
	ck_assert_str_eq(audit_find(&a, "sched_ext")->value, "enabled (lavd)");
	ck_assert_str_eq(audit_find(&a, "scheduler")->value, "sched_ext: lavd");
	ck_assert_uint_ge(audit_hurts(&a), 6);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The preemption mode from the kernel's current one, else the boot's preempt=, else the
 * build's default; a PREEMPT_RT kernel's from debugfs only.  The audit reads the same. */
START_TEST(preempt_mode_sources)
{
	struct machine_info m;
	const char *cfg = "#\nCONFIG_PREEMPT_BUILD=y\nCONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n";
	struct preempt_texts t = { .uname_v = "#1 SMP PREEMPT_DYNAMIC Debian", .dyn_preempt = "none voluntary full (lazy)\n",
				   .cmdline = "quiet preempt=full", .kconfig = cfg };
	machine_preempt_model(&m, &t);
	ck_assert_str_eq(m.preempt_model, "PREEMPT_DYNAMIC");
	ck_assert_str_eq(m.preempt_mode, "lazy");
	ck_assert_str_eq(m.preempt_mode_source, "/sys/kernel/debug/sched/preempt");
	t.dyn_preempt = NULL;                       /* debugfs not mounted */
	machine_preempt_model(&m, &t);
	ck_assert_str_eq(m.preempt_mode, "full");
	ck_assert_str_eq(m.preempt_mode_source, "/proc/cmdline preempt=");
	t.cmdline = "quiet nopreempt=x";            /* a longer word is not preempt= */
	machine_preempt_model(&m, &t);
	ck_assert_str_eq(m.preempt_mode, "voluntary");
	ck_assert_str_eq(m.preempt_mode_source, "kernel config default");
	t.kconfig = NULL;
	machine_preempt_model(&m, &t);
	ck_assert_str_eq(m.preempt_mode, "");
	ck_assert_str_eq(m.preempt_mode_source, "");
	struct preempt_texts rt = { .realtime_flag = "1\n", .uname_v = "#1 SMP PREEMPT_RT", .cmdline = "preempt=none" };
	machine_preempt_model(&m, &rt);
	ck_assert_str_eq(m.preempt_model, "PREEMPT_RT");
	ck_assert_str_eq(m.preempt_mode, "");       /* the boot's word is not trusted on RT */
	rt.dyn_preempt = "full (lazy)";
	machine_preempt_model(&m, &rt);
	ck_assert_str_eq(m.preempt_mode, "lazy");
	struct preempt_texts lazy = { .uname_v = "#1 SMP PREEMPT_LAZY" };
	machine_preempt_model(&m, &lazy);
	ck_assert_str_eq(m.preempt_model, "PREEMPT_LAZY");

	new_root();
	put("proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian\n");
	put("proc/sys/kernel/osrelease", "6.12.9-amd64\n");
	put("boot/config-6.12.9-amd64", "#\nCONFIG_PREEMPT_NONE=y\n");
	struct audit a;
	audit_collect(&a, root);
	ck_assert_str_eq(audit_find(&a, "preemption")->value, "PREEMPT_DYNAMIC (none)");
	ck_assert_str_eq(audit_find(&a, "preemption")->source, "uname -v; mode: kernel config default");
	ck_assert(audit_find(&a, "preemption")->hint[0]);   /* none hurts */
	ck_assert_str_eq(audit_find(&a, "scheduler")->value, "EEVDF");
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The class by release, and a loaded sched_ext scheduler before it. */
START_TEST(scheduler_named)
{
	char b[64];
	ck_assert_str_eq(machine_scheduler(NULL, NULL, "6.1.0-56-amd64", b, sizeof(b)), "CFS");
	ck_assert_str_eq(machine_scheduler("disabled\n", NULL, "6.6.0", b, sizeof(b)), "EEVDF");
	ck_assert_str_eq(machine_scheduler(NULL, NULL, "7.0-rc1", b, sizeof(b)), "EEVDF");
	ck_assert_str_eq(machine_scheduler("enabled\n", "rusty_1.0.4\n", "6.12.1", b, sizeof(b)), "sched_ext: rusty_1.0.4");
	ck_assert_str_eq(machine_scheduler("enabled", NULL, "6.12.1", b, sizeof(b)), "sched_ext: unknown");
	ck_assert_str_eq(machine_scheduler(NULL, NULL, "garbage", b, sizeof(b)), "unknown");
}
END_TEST

/* What confines the process: a restricted CPU set, a CPU quota of its cgroup, another run
 * holding its lock, a realtime budget of 5 %: each read with its source and flagged with a hint. */
START_TEST(confinement)
{
	struct audit a;
	char want[160];
	int p[2];
	new_root();
	put("proc/self/cgroup", "0::/a\n");
	put("proc/self/mountinfo", "40 30 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/cpu.max", "max 100000\n");
	put("sys/fs/cgroup/a/cpu.max", "5000 100000\n");
	put("sys/fs/cgroup/a/cpuset.cpus.effective", "1\n");
	put("sys/fs/cgroup/a/cpu.rt_runtime_us", "50000\n");               /* RT group scheduling */
	put("sys/fs/cgroup/a/cpu.rt_period_us", "1000000\n");
	put("run/lock/.keep", "");                                         /* the lock file's directory */
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);   /* as taskset -c 0 */
	ck_assert_int_eq(pipe(p), 0);
	pid_t other = fork();
	ck_assert_int_ge(other, 0);
	if (other == 0) {   /* another run: holds its lock until killed */
		char why[256];
		int fd = runlock_open(root, true, why, sizeof(why));
		if (fd < 0 || runlock_take(fd, why, sizeof(why)) != 0 || write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	char c;
	ck_assert_int_eq(read(p[0], &c, 1), 1);
	audit_collect(&a, root);
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
	snprintf(want, sizeof(want), "1 of %ld CPUs: 0", online);
	ck_assert_str_eq(audit_find(&a, "allowed_cpus")->value, want);
	ck_assert_int_eq(audit_find(&a, "allowed_cpus")->hint[0] != '\0', online > 1);
	ck_assert_str_eq(audit_find(&a, "cpu_quota")->value, "5000 us per 100000 us (5 % of one CPU)");
	ck_assert_str_eq(audit_find(&a, "cpu_quota")->source, "/sys/fs/cgroup/a/cpu.max");
	ck_assert(audit_find(&a, "cpu_quota")->hint[0]);
	ck_assert_str_eq(audit_find(&a, "rt_budget")->value, "50000 us per 1000000 us (5 % of each CPU)");
	ck_assert_str_eq(audit_find(&a, "rt_budget")->source, "/sys/fs/cgroup/a/cpu.rt_runtime_us");
	ck_assert(audit_find(&a, "rt_budget")->hint[0]);
	ck_assert_str_eq(audit_find(&a, "cpuset")->value, "1");
	snprintf(want, sizeof(want), "interbench pid %ld", (long)other);
	ck_assert_str_eq(audit_find(&a, "concurrent_run")->value, want);
	ck_assert(audit_find(&a, "concurrent_run")->hint[0]);
	audit_collect(&a, root);                                          /* that run has ended */
	ck_assert_str_eq(audit_find(&a, "concurrent_run")->value, "none");
	ck_assert(!audit_find(&a, "concurrent_run")->hint[0]);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(judges)
{
	ck_assert_str_eq(audit_governor_hint("performance"), "");
	ck_assert(audit_governor_hint("ondemand")[0]);
	ck_assert(audit_preempt_hint("voluntary")[0]);
	ck_assert_str_eq(audit_preempt_hint("PREEMPT_RT"), "");
	ck_assert_str_eq(audit_preempt_hint("full"), "");
	ck_assert(audit_clocksource_hint("hpet")[0]);
	ck_assert_str_eq(audit_clocksource_hint("tsc"), "");
	ck_assert_str_eq(audit_idle_hint(2), "");
	ck_assert_str_eq(audit_allowed_cpus_hint(2, 2), "");
	ck_assert(audit_allowed_cpus_hint(1, 2)[0]);
	ck_assert_str_eq(audit_cpu_quota_hint(-1), "");
	ck_assert(audit_cpu_quota_hint(5000)[0]);
	ck_assert_str_eq(audit_rt_budget_hint(false), "");
	ck_assert(audit_rt_budget_hint(true)[0]);
	ck_assert_str_eq(audit_concurrent_hint(0), "");
	ck_assert(audit_concurrent_hint(1234)[0]);
	ck_assert_str_eq(audit_idle_hint(-1), "");
	ck_assert(audit_idle_hint(133)[0]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("audit");
	tcase_add_test(tc, fake_machine);
	tcase_add_test(tc, confinement);
	tcase_add_test(tc, preempt_mode_sources);
	tcase_add_test(tc, scheduler_named);
	tcase_add_test(tc, judges);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
