/* The system audit on a fake /proc and /sys: values and sources read, hints where a setting is
 * known to hurt, "not available" for what is missing (a VM), "none" for what is empty. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/audit.h"

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

START_TEST(fake_machine)
{
	struct audit a;
	snprintf(root, sizeof(root), "/tmp/check_audit_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
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
	ck_assert_uint_ge(audit_hurts(&a), 6);
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
	ck_assert_str_eq(audit_idle_hint(-1), "");
	ck_assert(audit_idle_hint(133)[0]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("audit");
	tcase_add_test(tc, fake_machine);
	tcase_add_test(tc, judges);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
