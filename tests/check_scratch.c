/* Scratch files: created locked, so another run's stale-file cleanup never finds one unlocked. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "loadkit/scratch.h"

static char g_dir[64];          /* the test's work directory */
static int g_visible_unlocked;  /* LOCK_EX calls made while a scratch file already had its name */

/* Whether g_dir holds a scratch file of the tag "test". */
static int named_file_exists(void)
{
	DIR *d = opendir(g_dir);
	struct dirent *e;
	int found = 0;
	while (d && (e = readdir(d)) != NULL)
		found |= strncmp(e->d_name, SCRATCH_PREFIX "test-", strlen(SCRATCH_PREFIX "test-")) == 0;
	if (d)
		closedir(d);
	return found;
}

/* Stands in for the C library's flock in this test program (the archive's calls resolve to
 * it): notes a lock taken on a file whose name another run could already see, then locks. */
int flock(int fd, int op)
{
	if ((op & LOCK_EX) && g_dir[0] && named_file_exists())
		g_visible_unlocked++;
	return (int)syscall(SYS_flock, fd, op);
}

/* The file is locked before its name appears, locked while it lives, and 0600. */
START_TEST(locked_before_named)
{
	snprintf(g_dir, sizeof(g_dir), "/tmp/ib-check-scratch-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(g_dir));
	static struct scratch_set s;
	char err[256] = "";
	int idx = scratch_add(&s, g_dir, "test", err, sizeof(err));
	ck_assert_msg(idx == 0, "scratch_add: %s", err);
	ck_assert_int_eq(g_visible_unlocked, 0);
	struct stat st;
	ck_assert_int_eq(lstat(s.paths[0], &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	ck_assert_int_eq(strncmp(s.paths[0] + strlen(g_dir), "/" SCRATCH_PREFIX "test-", 16), 0);
	int other = open(s.paths[0], O_RDONLY);
	ck_assert_int_ge(other, 0);
	ck_assert_int_eq(flock(other, LOCK_EX | LOCK_NB), -1);   /* a live run's file */
	ck_assert_int_eq(errno, EWOULDBLOCK);
	close(other);
	static struct scratch_set another;  /* a second run in the same directory keeps it */
	ck_assert_int_eq(scratch_add(&another, g_dir, "test", err, sizeof(err)), 0);
	ck_assert_int_eq(access(s.paths[0], F_OK), 0);
	ck_assert_str_ne(s.paths[0], another.paths[0]);
	scratch_remove(&another, 0);
	scratch_remove(&s, 0);
	ck_assert_int_eq(access(s.paths[0], F_OK), -1);
	ck_assert_int_eq(rmdir(g_dir), 0);   /* nothing left */
	g_dir[0] = '\0';
}
END_TEST

int main(void)
{
	Suite *s = suite_create("scratch");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, locked_before_named);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
