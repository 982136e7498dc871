/* Outputs replaced atomically and never through a link, FIFO or another user's file; inputs read
 * without blocking and up to a bound.  Each case works in its own temporary directory; the
 * ownership cases need root (chown) and are skipped otherwise. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/safefile.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ib-safefile.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *name, const char *text)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *name)
{
	static char buf[256];
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static unsigned entries(void)
{
	DIR *d = opendir(dir);
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

/* Writes text to dir/name through safe_out; returns what commit returned. */
static int write_out(const char *name, const char *text, unsigned flags, char *err)
{
	struct safe_out o;
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (safe_out_open(&o, p, flags, err, 256) != 0)
		return -2;
	ck_assert_int_eq(safe_write_all(o.fd, text, strlen(text)), 0);
	return safe_out_commit(&o, err, 256);
}

START_TEST(replaces_atomically)
{
	char err[256], p[PATH_MAX];
	struct safe_out o;
	put("r.json", "old");
	snprintf(p, sizeof(p), "%s/r.json", dir);
	ck_assert_int_eq(safe_out_open(&o, p, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(safe_write_all(o.fd, "new", 3), 0);
	ck_assert_str_eq(slurp("r.json"), "old");          /* not visible before the commit */
	safe_out_abort(&o);
	ck_assert_str_eq(slurp("r.json"), "old");          /* an abort leaves the old file */
	ck_assert_uint_eq(entries(), 1);                   /* and no temporary file */
	ck_assert_int_eq(write_out("r.json", "new", 0, err), 0);
	ck_assert_str_eq(slurp("r.json"), "new");
	ck_assert_uint_eq(entries(), 1);
	struct stat st;
	umask(0);
	ck_assert_int_eq(write_out("u.json", "x", 0, err), 0);
	umask(022);
	snprintf(p, sizeof(p), "%s/u.json", dir);
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0644);        /* umask 000: still 0644 */
}
END_TEST

START_TEST(links_never_followed)
{
	char err[256], p[PATH_MAX], victim[PATH_MAX];
	put("victim", "precious");
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(p, sizeof(p), "%s/sym", dir);
	ck_assert_int_eq(symlink(victim, p), 0);
	ck_assert_int_eq(write_out("sym", "evil", 0, err), -2);
	ck_assert_ptr_nonnull(strstr(err, "symbolic link"));
	snprintf(p, sizeof(p), "%s/hard", dir);
	ck_assert_int_eq(link(victim, p), 0);
	ck_assert_int_eq(write_out("hard", "evil", 0, err), 0);   /* the name is replaced ... */
	ck_assert_str_eq(slurp("victim"), "precious");             /* ... the other link untouched */
	ck_assert_str_eq(slurp("hard"), "evil");
}
END_TEST

START_TEST(fifo_refused_or_never_blocks)
{
	char err[256], p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	ck_assert_int_eq(write_out("fifo", "x", 0, err), -2);
	ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
	ck_assert_int_eq(write_out("fifo", "x", SAFE_OUT_DEVICES, err), -2);   /* no reader: no hang */
	ck_assert_ptr_nonnull(strstr(err, "no reader"));
	ck_assert_int_eq(safe_open_read(p, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "FIFO"));
	ck_assert_int_eq(write_out("null", "x", 0, err), 0);
	snprintf(p, sizeof(p), "/dev/null");
	struct safe_out o;
	ck_assert_int_eq(safe_out_open(&o, p, SAFE_OUT_DEVICES, err, sizeof(err)), 0);
	ck_assert_int_eq(safe_out_commit(&o, err, sizeof(err)), 0);
	int fds[2];   /* a pipe handed as /dev/fd/N is written as it is */
	char got[8] = "";
	ck_assert_int_eq(pipe(fds), 0);
	snprintf(p, sizeof(p), "/dev/fd/%d", fds[1]);
	ck_assert_int_eq(safe_out_open(&o, p, SAFE_OUT_DEVICES, err, sizeof(err)), 0);
	ck_assert_int_eq(safe_write_all(o.fd, "doc", 3), 0);
	ck_assert_int_eq(safe_out_commit(&o, err, sizeof(err)), 0);
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], got, sizeof(got)), 3);
	ck_assert_str_eq(got, "doc");
	close(fds[0]);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);   /* a handed directory or file is not */
	snprintf(p, sizeof(p), "/dev/fd/%d", fd);
	ck_assert_int_eq(safe_out_open(&o, p, SAFE_OUT_DEVICES, err, sizeof(err)), -1);
	close(fd);
}
END_TEST

START_TEST(other_users_files_and_dirs)
{
	char err[256], p[PATH_MAX];
	if (geteuid() != 0)
		return;   /* chown needs root */
	put("theirs", "theirs");
	snprintf(p, sizeof(p), "%s/theirs", dir);
	ck_assert_int_eq(chown(p, 65534, 65534), 0);
	ck_assert_int_eq(write_out("theirs", "ours", 0, err), -2);
	ck_assert_ptr_nonnull(strstr(err, "belongs to uid 65534"));
	ck_assert_str_eq(slurp("theirs"), "theirs");
	ck_assert_int_eq(chmod(dir, 0777), 0);
	ck_assert_int_eq(write_out("x", "x", SAFE_OUT_CHECK_DIR, err), -2);
	ck_assert_ptr_nonnull(strstr(err, "writable by others (mode 0777) without the sticky bit"));
	ck_assert_int_eq(chmod(dir, 01777), 0);
	ck_assert_int_eq(write_out("x", "x", SAFE_OUT_CHECK_DIR, err), 0);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	ck_assert_int_eq(chown(dir, 65534, 65534), 0);
	ck_assert_int_eq(safe_dir_check(dir, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "belongs to uid 65534"));
	ck_assert_int_eq(chown(dir, 0, 0), 0);
	snprintf(p, sizeof(p), "%s/lnk", dir);   /* a link to a trusted directory is not followed */
	ck_assert_int_eq(symlink("/", p), 0);
	ck_assert_int_eq(safe_dir_check(p, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "symbolic link"));
	snprintf(p, sizeof(p), "%s/lnk/x", dir);
	ck_assert_int_eq(write_out("lnk/x", "x", SAFE_OUT_CHECK_DIR, err), -2);
}
END_TEST

START_TEST(creates_new_names_only)
{
	char p[PATH_MAX], name[32];
	struct stat st;
	int d = open(dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(d, 0);
	put("taken", "precious");
	ck_assert_int_eq(symlinkat("taken", d, "link"), 0);
	ck_assert_int_eq(mkfifoat(d, "fifo", 0600), 0);
	const char *const refused[] = { "taken", "link", "fifo" };
	for (int i = 0; i < 3; i++) {
		errno = 0;
		ck_assert_int_eq(safe_create_new(d, refused[i], 0), -1);
		ck_assert_int_eq(errno, EEXIST);
	}
	ck_assert_str_eq(slurp("taken"), "precious");
	umask(0);
	int fd = safe_create_new(d, "new", O_APPEND);
	umask(022);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, SAFE_FILE_MODE);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & (O_ACCMODE | O_APPEND), O_WRONLY | O_APPEND);
	close(fd);
	snprintf(name, sizeof(name), "u-XXXXXX.log");
	fd = safe_create_unique(d, name, 4, 0);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(strncmp(name, "u-", 2), 0);
	ck_assert_str_eq(name + 8, ".log");
	ck_assert_int_ne(strncmp(name + 2, "XXXXXX", 6), 0);
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	ck_assert_int_eq(lstat(p, &st), 0);
	snprintf(name, sizeof(name), "no-x.log");
	errno = 0;
	ck_assert_int_eq(safe_create_unique(d, name, 4, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	close(d);
}
END_TEST

START_TEST(reads_bounded)
{
	char err[256], p[PATH_MAX];
	size_t len = 0;
	put("small", "0123456789");
	snprintf(p, sizeof(p), "%s/small", dir);
	char *b = safe_read_file(p, 10, &len, err, sizeof(err));
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(len, 10);
	ck_assert_str_eq(b, "0123456789");
	free(b);
	ck_assert_ptr_null(safe_read_file(p, 9, &len, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "larger than 9 bytes"));
	ck_assert_ptr_null(safe_read_file("/dev/zero", 1 << 20, &len, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
	ck_assert_ptr_null(safe_read_file(dir, 1 << 20, &len, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "directory"));
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], "piped", 5), 5);
	close(fds[1]);
	snprintf(p, sizeof(p), "/dev/fd/%d", fds[0]);
	ck_assert(safe_path_is_handed_fd(p));
	ck_assert(!safe_path_is_handed_fd("/dev/fd/x"));
	b = safe_read_file(p, 4, &len, err, sizeof(err));   /* a pipe is bounded too */
	ck_assert_ptr_null(b);
	close(fds[0]);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], "piped", 5), 5);
	close(fds[1]);
	snprintf(p, sizeof(p), "/dev/fd/%d", fds[0]);
	b = safe_read_file(p, 100, &len, err, sizeof(err));
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b, "piped");
	free(b);
	close(fds[0]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("safefile");
	TCase *tc = tcase_create("safefile");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, replaces_atomically);
	tcase_add_test(tc, links_never_followed);
	tcase_add_test(tc, fifo_refused_or_never_blocks);
	tcase_add_test(tc, other_users_files_and_dirs);
	tcase_add_test(tc, reads_bounded);
	tcase_add_test(tc, creates_new_names_only);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
