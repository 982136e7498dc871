/* Another run at the same time: found through its lock, with its process id, gone with it;
 * the lock file is never opened through a link or a FIFO. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "host/runlock.h"

static char root[64];

static void make_root(void)
{
	char dir[128];
	snprintf(root, sizeof(root), "/tmp/check_runlock_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/run", root);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/run/lock", root);
	ck_assert_int_eq(mkdir(dir, 01777), 0);
}

static void remove_root(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/* A child that takes its run lock and waits to be killed; returns its pid once it holds it. */
static pid_t other_run(void)
{
	int p[2];
	char c = 0, why[256];
	ck_assert_int_eq(pipe(p), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = runlock_open(root, true, why, sizeof(why));
		if (fd < 0 || runlock_take(fd, why, sizeof(why)) != 0)
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], &c, 1), 1);
	close(p[0]);
	return pid;
}

START_TEST(another_run_found)
{
	char why[256] = "";
	make_root();
	char path[128];
	struct stat st;
	snprintf(path, sizeof(path), "%s%s", root, RUNLOCK_PATH);
	ck_assert_int_eq(runlock_check(root, why, sizeof(why)), 0);    /* no file: no other run */
	ck_assert_int_eq(lstat(path, &st), -1);                         /* and none made by a check */
	int fd = runlock_open(root, true, why, sizeof(why));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(runlock_take(fd, why, sizeof(why)), 0);
	ck_assert_int_eq(runlock_other(fd), 0);                         /* our own lock is not another run */
	ck_assert_int_eq(runlock_check(root, why, sizeof(why)), 0);    /* nor through a second descriptor */
	pid_t pid = other_run();
	ck_assert_int_eq(runlock_other(fd), pid);
	ck_assert_int_eq(runlock_check(root, why, sizeof(why)), pid);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	ck_assert_int_eq(runlock_other(fd), 0);                         /* its lock went with it */
	close(fd);
	remove_root();
}
END_TEST

START_TEST(lock_file_not_followed)
{
	char path[128], why[256] = "";
	make_root();
	snprintf(path, sizeof(path), "%s%s", root, RUNLOCK_PATH);
	ck_assert_int_eq(symlink("/etc/passwd", path), 0);
	ck_assert_int_eq(runlock_open(root, true, why, sizeof(why)), -1);
	ck_assert_msg(strstr(why, "a symbolic link, not followed"), "%s", why);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	ck_assert_int_eq(runlock_open(root, true, why, sizeof(why)), -1);     /* returns: no writer needed */
	ck_assert_msg(strstr(why, "not a regular file"), "%s", why);
	remove_root();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runlock");
	TCase *tc = tcase_create("runlock");
	tcase_add_test(tc, another_run_found);
	tcase_add_test(tc, lock_file_not_followed);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
