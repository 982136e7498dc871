/* What a dead child's reason says about its likely killer, and the OOM killer's order. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "host/child.h"
#include "host/oom.h"

/* A wait status of a death by signal sig (wait(2): the signal in the low 7 bits). */
#define DIED_OF(sig) (sig)

/* A command the user wrote, started from a SCHED_FIFO process, execs as SCHED_OTHER: the child
 * (no exec needed) reports its policy by its exit status.  Without CAP_SYS_NICE the parent
 * takes SCHED_BATCH instead, which any process may: the child is reset from it all the same. */
START_TEST(exec_child_not_realtime)
{
	struct sched_param p = { .sched_priority = 1 };
	if (sched_setscheduler(0, SCHED_FIFO, &p) != 0) {
		p.sched_priority = 0;
		ck_assert_int_eq(sched_setscheduler(0, SCHED_BATCH, &p), 0);
	}
	pid_t parent = getpid(), pid = fork();
	if (pid == 0)
		_exit(child_exec_prepare(parent, 1, 2, -1) == 0 && sched_getscheduler(0) == SCHED_OTHER ? 0 : 1);
	p.sched_priority = 0;
	ck_assert_int_eq(sched_setscheduler(0, SCHED_OTHER, &p), 0);
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
}
END_TEST

/* A realtime child killed under a finite RLIMIT_RTTIME: the hard limit for SIGKILL, the soft
 * one for SIGXCPU; nothing more for a child that ran no realtime thread. */
START_TEST(rttime_named)
{
	struct rlimit rl = { .rlim_cur = 100000, .rlim_max = 200000 };
	ck_assert_int_eq(setrlimit(RLIMIT_RTTIME, &rl), 0);   /* lowering is always allowed */
	char buf[200];
	struct child_fate rt = { .realtime = true, .oom_kills_before = UINT64_MAX };
	child_describe_death(DIED_OF(SIGKILL), &rt, buf, sizeof(buf));
	ck_assert_str_eq(buf, "killed by signal 9 (Killed): RLIMIT_RTTIME of 200000 us exceeded?");
	child_describe_death(DIED_OF(SIGXCPU), &rt, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "): RLIMIT_RTTIME soft limit of 100000 us exceeded?"));
	struct child_fate other = { .realtime = false, .oom_kills_before = UINT64_MAX };
	child_describe_death(DIED_OF(SIGKILL), &other, buf, sizeof(buf));
	ck_assert_str_eq(buf, "killed by signal 9 (Killed)");
	child_describe_death(DIED_OF(SIGTERM), &rt, buf, sizeof(buf));
	ck_assert_str_eq(buf, "killed by signal 15 (Terminated)");
	child_describe_death(3 << 8, &rt, buf, sizeof(buf));
	ck_assert_str_eq(buf, "exit status 3");
}
END_TEST

/* A SIGKILL while the kernel's OOM kill count grew names the OOM killer, before any limit. */
START_TEST(oom_kill_named)
{
	uint64_t kills = oom_kill_count();
	if (kills == UINT64_MAX || kills == 0)
		return;  /* no /proc/vmstat oom_kill here, or no kill yet to pretend was during the pair */
	char buf[200];
	struct child_fate f = { .realtime = true, .oom_kills_before = kills - 1 };
	child_describe_death(DIED_OF(SIGKILL), &f, buf, sizeof(buf));
	ck_assert_str_eq(buf, "killed by signal 9 (Killed): the OOM killer? (1 OOM kill meanwhile)");
	f.oom_kills_before = kills;
	child_describe_death(DIED_OF(SIGTERM), &f, buf, sizeof(buf));
	ck_assert_str_eq(buf, "killed by signal 15 (Terminated)");
}
END_TEST

/* Reads /proc/self/oom_score_adj. */
static int read_adj(void)
{
	int v = 12345;
	FILE *f = fopen("/proc/self/oom_score_adj", "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 12345;
		fclose(f);
	}
	return v;
}

/* Main lowers itself when allowed; a load child goes to +1000, a bench child halfway between
 * main and the loads (0, or 500 where main could not lower its 0).  In a child of the test, so
 * the runner keeps its own value. */
START_TEST(oom_order)
{
	int start = read_adj();
	ck_assert_int_ne(start, 12345);
	pid_t pid = fork();
	if (pid == 0) {
		char err[128] = "";
		int rc = oom_adj_protect_main(err, sizeof(err));
		int main_adj = read_adj();
		if (rc == 0 ? main_adj != OOM_ADJ_MAIN : main_adj != start)
			_exit(1);
		if (oom_adj_bench() != (main_adj + OOM_ADJ_LOAD) / 2 || oom_adj_bench() <= main_adj)
			_exit(2);
		if (oom_adj_child(false) != 0 || read_adj() != oom_adj_bench())
			_exit(2);
		if (oom_adj_child(true) != 0 || read_adj() != OOM_ADJ_LOAD)
			_exit(3);
		_exit(0);
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("child");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, rttime_named);
	tcase_add_test(tc, exec_child_not_realtime);
	tcase_add_test(tc, oom_kill_named);
	tcase_add_test(tc, oom_order);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
