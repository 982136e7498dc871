/* Privilege checks on synthetic capability and limit sets. */
#include <check.h>
#include "tests/ck_run.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/privs.h"

static const struct privs root = { .cap_sys_nice = true, .cap_ipc_lock = true,
				   .rlimit_memlock_bytes = UINT64_MAX, .cpu0_allowed = true,
				   .rt_runtime_us = 950000 };
static const struct privs user = { .rlimit_memlock_bytes = 8 << 20, .cpu0_allowed = true,
				   .rt_runtime_us = 950000 };
static char err[512];

static int check(const struct privs *p, bool rt, int bnice, int lnice, bool uni)
{
	struct options o;
	options_init(&o);
	o.realtime = rt;
	o.bench_nice = bnice;
	o.load_nice = lnice;
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

int main(void)
{
	Suite *s = suite_create("privs");
	TCase *tc = tcase_create("check");
	tcase_add_test(tc, root_may_do_all);
	tcase_add_test(tc, user_refusals);
	tcase_add_test(tc, rlimits_grant);
	tcase_add_test(tc, cpu0_for_uniprocessor);
	tcase_add_test(tc, warnings_counted);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
