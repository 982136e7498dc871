/* Calibration file: reuse only while the key matches; a corrupt file is never trusted. */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include "tests/ck_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "calibrate/calibrate.h"
#include "lib/timeutil.h"

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ib-calib-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sub/loops_per_ms", dir);
}

static void teardown(void)
{
	unlink(path);
	char sub[128];
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	rmdir(sub);
	rmdir(dir);
}

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(round_trip)
{
	struct calib_key k;
	calib_key_current(&k);
	ck_assert_int_eq(calib_save(path, &k, 123456, NULL, 0), 0);
	ck_assert_uint_eq(calib_load(path, &k, NULL, 0), 123456);
}
END_TEST

/* An interrupted measurement returns 0; saving it must fail and keep the old value. */
START_TEST(save_refuses_unloadable_values)
{
	struct calib_key k;
	calib_key_current(&k);
	ck_assert_int_eq(calib_save(path, &k, 5000, NULL, 0), 0);
	errno = 0;
	ck_assert_int_eq(calib_save(path, &k, 0, NULL, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(calib_save(path, &k, UINT32_MAX + 1ULL, NULL, 0), -1);
	ck_assert_uint_eq(calib_load(path, &k, NULL, 0), 5000);
}
END_TEST

START_TEST(stale_key)
{
	struct calib_key k, other;
	char why[64];
	calib_key_current(&k);
	ck_assert_int_eq(calib_save(path, &k, 1000, NULL, 0), 0);
	other = k;
	other.online_cpus++;
	ck_assert_uint_eq(calib_load(path, &other, why, sizeof(why)), 0);
	other = k;
	snprintf(other.kernel_release, sizeof(other.kernel_release), "0.0.0-other");
	ck_assert_uint_eq(calib_load(path, &other, why, sizeof(why)), 0);
	ck_assert(strstr(why, "another"));
}
END_TEST

START_TEST(corrupt_files)
{
	static const char *bad[] = {
		"", "garbage\n", "loops_per_ms=abc\n", "loops_per_ms=-5\n", "loops_per_ms=0\n",
		"loops_per_ms=99999999999999999999999\n", "loops_per_ms=4294967296\n", "loops_per_ms=12",
		"loops_per_ms=1000\nunknown_key=1\n",
	};
	struct calib_key k;
	calib_key_current(&k);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(bad[i]);
		ck_assert_msg(calib_load(path, &k, NULL, 0) == 0, "trusted: '%s'", bad[i]);
	}
}
END_TEST

/* A forged or damaged value outside what any CPU could measure is not trusted, and a path
 * that is not a small regular file is refused at once (a FIFO must not block the start). */
START_TEST(implausible_values_and_odd_files)
{
	struct calib_key k;
	char why[96], line[256];
	calib_key_current(&k);
	static const unsigned long long forged[] = { 1, 999, 100000001ULL, 4294967295ULL };
	for (unsigned i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
		snprintf(line, sizeof(line), "loops_per_ms=%llu\ncpu_model=%s\nonline_cpus=%u\nkernel_release=%s\n",
			 forged[i], k.cpu_model, k.online_cpus, k.kernel_release);
		write_file(line);
		ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);
		ck_assert_msg(strstr(why, "implausible"), "%llu: %s", forged[i], why);
		ck_assert_int_eq(calib_save(path, &k, forged[i], NULL, 0), -1);
	}
	unlink(path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);   /* returns: no reader needed */
	ck_assert_str_eq(why, "not a regular file");
	unlink(path);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "a directory");
	rmdir(path);
	ck_assert_int_eq(symlink("/etc/hostname", path), 0);
	ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "a symbolic link, not followed");
	ck_assert_int_eq(calib_save(path, &k, 5000, NULL, 0), 0);              /* replaces the link itself */
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_uint_eq(calib_load(path, &k, NULL, 0), 5000);
}
END_TEST

/* A good cache file (this machine's key, a plausible value) that another user could have
 * written is not trusted: another user's file, a file or directory others may write, a
 * directory on the way that is another user's or a symbolic link.  Nothing is saved there
 * either.  As root the files are given to nobody (65534). */
START_TEST(untrusted_cache_refused)
{
	struct calib_key k;
	char why[PATH_MAX + 256], sub[128], real[128], line[512];
	calib_key_current(&k);
	snprintf(line, sizeof(line), "loops_per_ms=1000\ncpu_model=%s\nonline_cpus=%u\nkernel_release=%s\n",
		 k.cpu_model, k.online_cpus, k.kernel_release);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	write_file(line);
	ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 1000);   /* the user's own: trusted */
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, "is writable by others (mode 0666); not trusted"), "%s", why);
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(chmod(sub, 0777), 0);
	ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, sub) && strstr(why, "writable by others"), "%s", why);
	ck_assert_int_eq(calib_save(path, &k, 5000, why, sizeof(why)), -1);
	ck_assert_int_eq(chmod(sub, 0755), 0);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);
		ck_assert_msg(strstr(why, "belongs to uid 65534"), "%s", why);
		ck_assert_int_eq(chown(path, 0, 0), 0);
		ck_assert_int_eq(chown(sub, 65534, 65534), 0);
		ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);
		ck_assert_msg(strstr(why, sub) && strstr(why, "belongs to uid 65534"), "%s", why);
		ck_assert_int_eq(calib_save(path, &k, 5000, why, sizeof(why)), -1);
		ck_assert_int_eq(chown(sub, 0, 0), 0);
		ck_assert_uint_eq(calib_load(path, &k, NULL, 0), 1000);    /* untouched by the refused save */
	}
	/* a symbolic link on the way: neither read nor written through */
	snprintf(real, sizeof(real), "%s/real", dir);
	ck_assert_int_eq(rename(sub, real), 0);
	ck_assert_int_eq(symlink("real", sub), 0);
	ck_assert_uint_eq(calib_load(path, &k, why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, "is a symbolic link; not followed"), "%s", why);
	ck_assert_int_eq(calib_save(path, &k, 5000, why, sizeof(why)), -1);
	ck_assert_int_eq(unlink(sub), 0);
	ck_assert_int_eq(rename(real, sub), 0);
	ck_assert_uint_eq(calib_load(path, &k, NULL, 0), 1000);
}
END_TEST

START_TEST(burn_stops)
{
	atomic_bool stop;
	atomic_init(&stop, true);
	ck_assert(!burn_us(1000, 1000000, &stop));   /* a second of work, stopped at once */
	atomic_store(&stop, false);
	ck_assert(burn_us(1000, 10, &stop));
}
END_TEST

/* burn_cpu_us burns the CPU time asked for, by the thread's own clock (never less, and within a
 * chunk more), whatever the loops_per_ms given: a slower or faster CPU than calibrated changes
 * the loops run, not the CPU used.  CPU time, not wall time: no timed assertion. */
START_TEST(burn_cpu_time)
{
	atomic_bool stop;
	atomic_init(&stop, false);
	const uint64_t lpms[] = { 1000, 100000, 50000000 };   /* far below and far above the real speed */
	for (size_t i = 0; i < sizeof(lpms) / sizeof(lpms[0]); i++) {
		uint64_t loops = 0, t0 = thread_cpu_ns();
		ck_assert_uint_eq(burn_cpu_us(lpms[i], 20000, &stop, &loops), 20000);
		uint64_t used_ns = thread_cpu_ns() - t0;
		ck_assert_uint_ge(used_ns, 20000000);
		ck_assert_msg(used_ns < 20000000 + 5000000, "loops_per_ms %llu: %llu ns for 20 ms", (unsigned long long)lpms[i],
			      (unsigned long long)used_ns);   /* one chunk of a too-high loops_per_ms at most */
		ck_assert_uint_gt(loops, 0);
	}
	atomic_store(&stop, true);
	ck_assert_uint_lt(burn_cpu_us(1000, 1000000, &stop, NULL), 1000000);   /* stopped at once */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("calibrate");
	TCase *tc = tcase_create("file");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, save_refuses_unloadable_values);
	tcase_add_test(tc, stale_key);
	tcase_add_test(tc, corrupt_files);
	tcase_add_test(tc, implausible_values_and_odd_files);
	tcase_add_test(tc, untrusted_cache_refused);
	tcase_add_test(tc, burn_stops);
	tcase_add_test(tc, burn_cpu_time);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
