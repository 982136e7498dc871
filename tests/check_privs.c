/* Privilege checks on synthetic capability and limit sets. */
#include <check.h>
#include "tests/ck_run.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/privs.h"

static const struct privs root = { .cap_sys_nice = true, .cap_ipc_lock = true,
				   .rlimit_memlock_bytes = UINT64_MAX, .cpu0_allowed = true,
				   .rt_runtime_us = 950000, .cg_rt_runtime_us = PRIVS_RT_UNKNOWN };
static const struct privs user = { .rlimit_memlock_bytes = 8 << 20, .cpu0_allowed = true,
				   .rt_runtime_us = 950000, .cg_rt_runtime_us = PRIVS_RT_UNKNOWN };
static char err[512];

static int check(const struct privs *p, bool rt, int bnice, int lnice, bool uni)
{
	struct options o;
	options_init(&o);
	o.realtime = rt;
	o.bench_nices = (struct optspec_ints){ .n = 1, .v = { bnice } };
	o.load_nices = (struct optspec_ints){ .n = 1, .v = { lnice } };
	o.uniprocessor = uni;
	err[0] = '\0';
	return privs_check_options(p, &o, 3, err, sizeof(err));
}

START_TEST(root_may_do_all)
{
	ck_assert_int_eq(check(&root, true, -20, -20, true), 0);
}
END_TEST

START_TEST(user_refusals)
{
	ck_assert_int_eq(check(&user, false, 0, 19, false), 0);
	ck_assert_int_eq(check(&user, false, 5, 0, false), 0);
	ck_assert_int_eq(check(&user, true, 0, 0, false), -1);
	ck_assert(strstr(err, "-r") && strstr(err, "CAP_SYS_NICE") && strstr(err, "setcap") && strstr(err, "rtprio"));
	ck_assert_int_eq(check(&user, false, -1, 0, false), -1);
	ck_assert(strstr(err, "-B") && strstr(err, "nice -1"));
	ck_assert_int_eq(check(&user, false, 0, -5, false), -1);
	ck_assert(strstr(err, "-N"));
}
END_TEST

START_TEST(rlimits_grant)
{
	struct privs p = user;
	p.rlimit_rtprio = 99;
	p.rlimit_nice = 25; /* nice down to -5 */
	ck_assert_int_eq(check(&p, true, -5, 0, false), 0);
	ck_assert_int_eq(check(&p, false, -6, 0, false), -1);
	p.rlimit_rtprio = 2;
	ck_assert_int_eq(check(&p, true, 0, 0, false), -1);
}
END_TEST

START_TEST(cpu0_for_uniprocessor)
{
	struct privs p = root;
	p.cpu0_allowed = false;
	ck_assert_int_eq(check(&p, false, 0, 0, true), -1);
	ck_assert(strstr(err, "-u"));
}
END_TEST

static int warnings(const struct privs *p, bool rt)
{
	struct options o;
	options_init(&o);
	o.realtime = rt;
	FILE *f = fopen("/dev/null", "w");
	int n = privs_warn(p, &o, 3, f);
	fclose(f);
	return n;
}

START_TEST(warnings_counted)
{
	ck_assert_int_eq(warnings(&root, true), 0);
	ck_assert_int_eq(warnings(&user, false), 2);  /* no FIFO, no memory locking */
	struct privs p = root;
	p.rt_runtime_us = -1;
	ck_assert_int_eq(warnings(&p, false), 0);
	ck_assert_int_eq(warnings(&p, true), 1);      /* -r with RT throttling off */
}
END_TEST

/* root whose test thread was refused SCHED_FIFO 99 with EPERM, in a cpu cgroup whose
 * cpu.rt_runtime_us is rt_us (PRIVS_RT_UNKNOWN: none readable). */
static struct privs refused(long long rt_us)
{
	struct privs p = root;
	p.fifo_refused_errno = EPERM;
	p.fifo_refused_prio = 99;
	p.cg_rt_runtime_us = rt_us;
	if (rt_us != PRIVS_RT_UNKNOWN)
		snprintf(p.cg_cpu_dir, sizeof(p.cg_cpu_dir), "/sys/fs/cgroup/cpu/box");
	return p;
}

START_TEST(no_rt_budget_refuses_realtime)
{
	struct privs p = refused(0);
	ck_assert_int_eq(check(&p, true, 0, 0, false), -1);
	ck_assert_str_eq(err, "-r: the kernel refused SCHED_FIFO priority 99 on a test thread "
			 "(sched_setscheduler: Operation not permitted): the cpu cgroup /sys/fs/cgroup/cpu/box "
			 "has cpu.rt_runtime_us = 0, no realtime budget; give it one, e.g. echo 500000 > "
			 "/sys/fs/cgroup/cpu/box/cpu.rt_runtime_us (its parent's budget must cover it), or "
			 "run from a cgroup that has one");
	/* without -r: no refusal, a warning instead */
	ck_assert_int_eq(check(&p, false, 0, 0, false), 0);
}
END_TEST

START_TEST(refusal_from_elsewhere_named)
{
	struct privs p = refused(950000);
	ck_assert_int_eq(check(&p, true, 0, 0, false), -1);
	ck_assert(strstr(err, "/sys/fs/cgroup/cpu/box has cpu.rt_runtime_us = 950000, so something else refuses it"));
	ck_assert(strstr(err, "seccomp") && !strstr(err, "user namespace"));
	p.in_user_ns = true;
	ck_assert_int_eq(check(&p, true, 0, 0, false), -1);
	ck_assert(strstr(err, "this process is in a user namespace, whose capabilities do not count"));
	p.cg_rt_runtime_us = 0;   /* a cgroup without budget is the first thing to fix */
	ck_assert_int_eq(check(&p, true, 0, 0, false), -1);
	ck_assert(strstr(err, "cpu.rt_runtime_us = 0, no realtime budget"));
	p = refused(PRIVS_RT_UNKNOWN);
	ck_assert_int_eq(check(&p, true, 0, 0, false), -1);
	ck_assert(strstr(err, "-r: the kernel refused SCHED_FIFO priority 99") &&
		  strstr(err, "no cgroup realtime budget applies"));
	ck_assert(!strstr(err, "echo"));
	ck_assert(!strchr(err, '\n'));
	/* a refusal by privilege keeps its own message and fix */
	struct privs u = user;
	u.fifo_refused_errno = EPERM;
	ck_assert_int_eq(check(&u, true, 0, 0, false), -1);
	ck_assert(strstr(err, "not permitted (no CAP_SYS_NICE"));
}
END_TEST

START_TEST(refusal_warns_without_realtime)
{
	char *text = NULL;
	size_t len = 0;
	struct options o;
	options_init(&o);
	struct privs p = refused(0);
	FILE *f = open_memstream(&text, &len);
	ck_assert_int_eq(privs_warn(&p, &o, 3, f), 1);
	fclose(f);
	ck_assert(strncmp(text, "interbench: warning: no SCHED_FIFO: the timing thread runs at normal priority", 77) == 0);
	ck_assert(strstr(text, "cpu cgroup /sys/fs/cgroup/cpu/box has cpu.rt_runtime_us = 0"));
	ck_assert(strchr(text, '\n') == text + len - 1);
	free(text);
	ck_assert_int_eq(warnings(&root, false), 0); /* granted: no warning */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("privs");
	TCase *tc = tcase_create("check");
	tcase_add_test(tc, root_may_do_all);
	tcase_add_test(tc, user_refusals);
	tcase_add_test(tc, rlimits_grant);
	tcase_add_test(tc, cpu0_for_uniprocessor);
	tcase_add_test(tc, warnings_counted);
	tcase_add_test(tc, no_rt_budget_refuses_realtime);
	tcase_add_test(tc, refusal_from_elsewhere_named);
	tcase_add_test(tc, refusal_warns_without_realtime);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
