/* sched_ext schedulers started and stopped by the run (host/scx.c, run/scheduler.c), against
 * the fake sysfs directory and scheduler of tests/ck_scx.h.  Each way a scheduler misbehaves ends in a reason, never a hang, and
 * with nothing left running. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/ck_run.h"
#include "tests/ck_scx.h"
#include "host/scx.h"
#include "run/options.h"
#include "run/scheduler.h"
#include "lib/timeutil.h"

static void setup(void)
{
	scx_fake_setup();
}

static void teardown(void)
{
	scx_fake_teardown();
}

/* The state the fake directory reads now. */
static enum scx_state state_now(void)
{
	struct scx_status st;
	ck_assert_int_eq(scx_status_read(scx_dir, &st), 0);
	return st.state;
}

/* Starts the fake with argv under r, which must succeed. */
static void started(struct scx_runner *r, char *const *argv)
{
	char err[512] = "";
	scx_runner_init(r, scx_dir, argv);
	ck_assert_msg(scx_start(r, 5 * NS_PER_S, err, sizeof(err)) == 0, "%s", err);
}

START_TEST(status_read)
{
	struct scx_status st;
	scx_put("state", "enabled\n");
	scx_put("root/ops", "lavd_1.0.4_x86_64_unknown_linux_gnu\n");
	ck_assert_int_eq(scx_status_read(scx_dir, &st), 0);
	ck_assert_int_eq(st.state, SCX_ENABLED);
	ck_assert_str_eq(st.ops, "lavd_1.0.4_x86_64_unknown_linux_gnu");
	ck_assert(st.have_seq);
	ck_assert_uint_eq(st.enable_seq, 3);
	scx_put("state", "bogus\n");
	scx_put("enable_seq", "x\n");
	ck_assert_int_eq(scx_status_read(scx_dir, &st), 0);
	ck_assert_int_eq(st.state, SCX_UNKNOWN);
	ck_assert(!st.have_seq);
	errno = 0;
	ck_assert_int_eq(scx_status_read("/nonexistent/sched_ext", &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(scx_state_name(SCX_DISABLING), "disabling");
}
END_TEST

START_TEST(started_checked_stopped)
{
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "ok", NULL }, err[512] = "";
	started(&r, argv);
	ck_assert_int_gt(r.pid, 0);
	ck_assert_str_eq(r.loaded.ops, "fake");
	ck_assert_uint_eq(r.loaded.enable_seq, 4);
	ck_assert_msg(scx_check(&r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(scx_stop(&r, 5 * NS_PER_S, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.pid, 0);
	ck_assert_int_eq(r.out_fd, -1);
	ck_assert_int_eq(state_now(), SCX_DISABLED);
	ck_assert_int_eq(scx_stop(&r, NS_PER_S, err, sizeof(err)), 0);  /* twice: nothing to do */
}
END_TEST

/* A scheduler already loaded is the user's: left alone, nothing started. */
START_TEST(one_loaded_is_left_alone)
{
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "ok", NULL }, err[512] = "";
	scx_put("state", "enabled\n");
	scx_put("root/ops", "lavd\n");
	scx_runner_init(&r, scx_dir, argv);
	ck_assert_int_eq(scx_start(&r, 5 * NS_PER_S, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "sched_ext is enabled with 'lavd', a scheduler this run did not start"), "%s", err);
	ck_assert_int_eq(r.pid, 0);
	ck_assert_int_eq(state_now(), SCX_ENABLED);
	ck_assert_int_eq(scx_stop(&r, NS_PER_S, err, sizeof(err)), 0);
	ck_assert_int_eq(state_now(), SCX_ENABLED);               /* still theirs */
}
END_TEST

START_TEST(no_sched_ext)
{
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "ok", NULL }, err[512] = "";
	scx_runner_init(&r, "/nonexistent/sched_ext", argv);
	ck_assert_int_eq(scx_start(&r, NS_PER_S, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "/nonexistent/sched_ext/state: No such file or directory (a kernel without "
				  "sched_ext, CONFIG_SCHED_CLASS_EXT)"), "%s", err);
}
END_TEST

START_TEST(exits_before_enabled)
{
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "exit", NULL }, err[512] = "";
	scx_runner_init(&r, scx_dir, argv);
	ck_assert_int_eq(scx_start(&r, 5 * NS_PER_S, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "exited with status 1 before the kernel enabled it (state disabled): fake scheduler: "
				  "exit | failed to load BPF program: Operation not permitted"), "%s", err);
	ck_assert_int_eq(r.pid, 0);
	ck_assert_int_eq(r.out_fd, -1);
	char *missing[] = { "/nonexistent/scx_none", NULL };
	scx_runner_init(&r, scx_dir, missing);
	ck_assert_int_eq(scx_start(&r, 5 * NS_PER_S, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "exited with status 127") && strstr(err, "execvp(/nonexistent/scx_none): No such file"),
		      "%s", err);
}
END_TEST

START_TEST(never_enabled)
{
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "never", NULL }, err[512] = "";
	scx_runner_init(&r, scx_dir, argv);
	uint64_t t0 = now_ns();
	/* 2 s: the fake, a shell script, has said "enabling" well before, even on a crowded machine
	 * (a package build's tests side by side) */
	ck_assert_int_eq(scx_start(&r, 2 * NS_PER_S, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, ": not enabled within 2 s (state enabling), stopped; its output: fake scheduler: never"),
		      "%s", err);
	ck_assert_uint_lt(now_ns() - t0, 10 * NS_PER_S);           /* bounded, not hung */
	ck_assert_int_eq(r.pid, 0);
	ck_assert_int_eq(state_now(), SCX_DISABLED);
}
END_TEST

/* A signal while a scheduler is being waited for: the wait ends at once, not at its bound, and
 * nothing is left running. */
START_TEST(interrupted_while_waiting)
{
	static volatile sig_atomic_t stop;
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "never", NULL }, err[512] = "";
	scx_runner_init(&r, scx_dir, argv);
	r.interrupted = &stop;
	stop = SIGINT;
	uint64_t t0 = now_ns();
	ck_assert_int_eq(scx_start(&r, 30 * NS_PER_S, err, sizeof(err)), -1);
	ck_assert_uint_lt(now_ns() - t0, 10 * NS_PER_S);
	ck_assert_msg(strstr(err, ": interrupted by Interrupt before the kernel enabled it (state "), "%s", err);
	ck_assert_int_eq(r.pid, 0);
	ck_assert_int_eq(state_now(), SCX_DISABLED);
}
END_TEST

/* SIGINT ignored: SIGKILL after the bound, and the kernel unloads it as its process ends. */
START_TEST(deaf_to_sigint)
{
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "deaf", NULL }, err[512] = "";
	started(&r, argv);
	ck_assert_msg(scx_stop(&r, NS_PER_S / 2, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.pid, 0);
	ck_assert_int_eq(state_now(), SCX_DISABLED);
}
END_TEST

START_TEST(ejected_mid_run)
{
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "eject", NULL }, err[512] = "";
	started(&r, argv);
	for (uint64_t end = now_ns() + 5 * NS_PER_S; state_now() != SCX_DISABLED && now_ns() < end;)
		sleep_for_ns(10 * NS_PER_MS);
	sleep_for_ns(100 * NS_PER_MS);                       /* its last words */
	ck_assert_int_eq(scx_check(&r, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "sched_ext scheduler 'fake' lost during the pair: ejected by the kernel (sched_ext state "
				  "disabled); its output: fake scheduler: eject | EXIT: runnable task stall (fake)"), "%s", err);
	ck_assert_msg(scx_stop(&r, NS_PER_S, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.pid, 0);
}
END_TEST

START_TEST(killed_mid_run)
{
	struct scx_runner r;
	char *argv[] = { scx_script, scx_dir, "ok", NULL }, err[512] = "";
	started(&r, argv);
	ck_assert_int_eq(kill(r.pid, SIGKILL), 0);
	sleep_for_ns(200 * NS_PER_MS);
	ck_assert_int_eq(scx_check(&r, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "lost during the pair: its process killed by signal 9"), "%s", err);
	ck_assert_int_eq(r.pid, 0);
	ck_assert_msg(scx_stop(&r, 5 * NS_PER_S, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(state_now(), SCX_DISABLED);
}
END_TEST

/* interbench killed with SIGKILL while its scheduler runs: the scheduler dies with it
 * (PR_SET_PDEATHSIG), so the kernel unloads it; nothing is left loaded. */
START_TEST(dies_with_interbench)
{
	char *argv[] = { scx_script, scx_dir, "deaf", NULL };
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t run = fork();
	ck_assert_int_ge(run, 0);
	if (run == 0) {   /* the "interbench": starts the scheduler, says its pid, waits */
		struct scx_runner r;
		char err[512];
		scx_runner_init(&r, scx_dir, argv);
		if (scx_start(&r, 5 * NS_PER_S, err, sizeof(err)) != 0)
			_exit(1);
		(void)!write(fds[1], &r.pid, sizeof(r.pid));
		for (;;)
			pause();
	}
	close(fds[1]);
	pid_t sched_pid = 0;
	ck_assert_int_eq(read(fds[0], &sched_pid, sizeof(sched_pid)), (ssize_t)sizeof(sched_pid));
	close(fds[0]);
	ck_assert_int_eq(state_now(), SCX_ENABLED);
	ck_assert_int_eq(kill(run, SIGKILL), 0);
	ck_assert_int_eq(waitpid(run, NULL, 0), run);
	uint64_t end = now_ns() + 5 * NS_PER_S;
	while ((kill(sched_pid, 0) == 0 || state_now() != SCX_DISABLED) && now_ns() < end)
		sleep_for_ns(10 * NS_PER_MS);
	ck_assert_msg(kill(sched_pid, 0) != 0 && errno == ESRCH, "the scheduler outlived interbench");
	ck_assert_int_eq(state_now(), SCX_DISABLED);
}
END_TEST

/* The run's switching between pairs: fair stops ours, the same command keeps it, another
 * replaces it; a command that fails is remembered and fails again at once. */
START_TEST(run_switches_between_pairs)
{
	struct run_scheduler rs;
	char ok_cmd[256], bad_cmd[256], why[512] = "";
	snprintf(ok_cmd, sizeof(ok_cmd), "%s %s ok", scx_script, scx_dir);
	snprintf(bad_cmd, sizeof(bad_cmd), "%s %s exit", scx_script, scx_dir);
	run_scheduler_init(&rs, scx_dir, NULL);
	ck_assert_int_eq(run_scheduler_switch(&rs, "fair", why, sizeof(why)), 0);
	ck_assert_ptr_null(rs.current);
	ck_assert_msg(run_scheduler_switch(&rs, ok_cmd, why, sizeof(why)) == 0, "%s", why);
	pid_t first = rs.r.pid;
	ck_assert_int_eq(state_now(), SCX_ENABLED);
	ck_assert_int_eq(run_scheduler_switch(&rs, ok_cmd, why, sizeof(why)), 0);
	ck_assert_int_eq(rs.r.pid, first);                         /* kept between its pairs */
	ck_assert_int_eq(run_scheduler_check(&rs, why, sizeof(why)), 0);
	ck_assert_int_eq(run_scheduler_switch(&rs, "fair", why, sizeof(why)), 0);
	ck_assert_int_eq(state_now(), SCX_DISABLED);
	ck_assert_int_eq(run_scheduler_switch(&rs, bad_cmd, why, sizeof(why)), -1);
	ck_assert_msg(strstr(why, "exited with status 1 before the kernel enabled it"), "%s", why);
	uint64_t t0 = now_ns();
	why[0] = '\0';
	ck_assert_int_eq(run_scheduler_switch(&rs, bad_cmd, why, sizeof(why)), -1);  /* remembered */
	ck_assert_msg(strstr(why, "exited with status 1"), "%s", why);
	ck_assert_uint_lt(now_ns() - t0, 50 * NS_PER_MS);
	ck_assert_msg(run_scheduler_switch(&rs, ok_cmd, why, sizeof(why)) == 0, "%s", why);
	ck_assert_int_eq(kill(rs.r.pid, SIGKILL), 0);               /* lost during a pair */
	sleep_for_ns(200 * NS_PER_MS);
	ck_assert_int_eq(run_scheduler_check(&rs, why, sizeof(why)), -1);
	ck_assert_msg(strstr(why, "killed by signal 9"), "%s", why);
	ck_assert_ptr_null(rs.current);
	ck_assert_int_eq(state_now(), SCX_DISABLED);                /* fair again before the next pair */
	ck_assert_msg(run_scheduler_switch(&rs, ok_cmd, why, sizeof(why)) == 0, "%s", why); /* started anew */
	ck_assert_int_eq(run_scheduler_stop(&rs), 0);
	ck_assert_int_eq(state_now(), SCX_DISABLED);
}
END_TEST

/* The refusals before anything starts, each one line on stderr, exit 2. */
START_TEST(run_preflight)
{
	struct options o;
	options_init(&o);
	ck_assert_int_eq(run_scheduler_preflight(&o, "/nonexistent", false), 0);   /* not asked */
	o.schedulers = (struct optspec_texts){ .n = 2, .v = { "fair", "scx_simple -f" } };
	ck_assert_int_eq(run_scheduler_preflight(&o, scx_dir, true), 0);
	ck_assert_int_eq(run_scheduler_preflight(&o, scx_dir, false), 2);              /* not root */
	ck_assert_int_eq(run_scheduler_preflight(&o, "/nonexistent", true), 2);    /* no sched_ext */
	scx_put("state", "enabled\n");
	ck_assert_int_eq(run_scheduler_preflight(&o, scx_dir, true), 2);               /* one loaded */
	scx_put("state", "disabled\n");
	static char many[200];
	for (int i = 0; i < 33; i++)
		strcat(many, "a ");
	o.schedulers.v[1] = many;
	ck_assert_int_eq(run_scheduler_preflight(&o, scx_dir, true), 2);               /* 33 words */
	o.schedulers.v[1] = "   ";
	ck_assert_int_eq(run_scheduler_preflight(&o, scx_dir, true), 2);               /* no word */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("scx");
	TCase *tc = tcase_create("scx");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, status_read);
	tcase_add_test(tc, started_checked_stopped);
	tcase_add_test(tc, one_loaded_is_left_alone);
	tcase_add_test(tc, no_sched_ext);
	tcase_add_test(tc, exits_before_enabled);
	tcase_add_test(tc, never_enabled);
	tcase_add_test(tc, interrupted_while_waiting);
	tcase_add_test(tc, deaf_to_sigint);
	tcase_add_test(tc, ejected_mid_run);
	tcase_add_test(tc, killed_mid_run);
	tcase_add_test(tc, dies_with_interbench);
	tcase_add_test(tc, run_switches_between_pairs);
	tcase_add_test(tc, run_preflight);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
