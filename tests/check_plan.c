/* The plan (run/plan.c): which pairs a command line runs, in which order, at which settings,
 * built from parsed options with no side effects. */
#include <check.h>
#include "tests/ck_args.h"
#include "tests/ck_run.h"
#include <stdarg.h>
#include <string.h>
#include "run/options.h"
#include "run/plan.h"
#include "run/sweep.h"
#include "workloads/workload.h"

static struct options opt;
static struct sweep_side bench, load;
static struct plan plan;

/* Parses the arguments (NULL-terminated) and builds the plan with rt_ok and priority 97. */
static void plan_of(bool rt_ok, const char *first, ...)
{
	char *argv[CK_ARGV_MAX], err[512];
	va_list ap;
	va_start(ap, first);
	int argc = ck_argv(argv, first, ap);
	va_end(ap);
	options_init(&opt);
	ck_assert_msg(options_parse(&opt, argc, argv, err, sizeof(err)) == OPT_OK, "%s", err);
	sweep_build(&opt, 97, &bench, &load);
	struct plan_input in = { .opt = &opt, .bench = &bench, .load = &load, .rt_ok = rt_ok, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&plan, &in), 0);
}

static const char *load_name(size_t k)
{
	return workload_table[plan.items[k].load_index]->name;
}

static void teardown(void)
{
	plan_free(&plan);
}

START_TEST(one_pair)
{
	plan_of(false, "-W", "Audio", "-w", "None", NULL);
	ck_assert_uint_eq(plan.n, 1);
	ck_assert_str_eq(plan.items[0].task->name, "Audio");
	ck_assert_str_eq(load_name(0), "None");
	ck_assert_int_eq(plan.items[0].bench_sched.kind, SP_OTHER);
}
END_TEST

START_TEST(default_never_its_own_load)
{
	plan_of(false, NULL);
	ck_assert_uint_gt(plan.n, 10);
	unsigned last_sim = 0;
	for (size_t k = 0; k < plan.n; k++) {
		const struct plan_item *it = &plan.items[k];
		ck_assert_ptr_ne(it->task, workload_table[it->load_index]);           /* never its own load */
		ck_assert_ptr_nonnull(workload_table[it->load_index]->load);
		unsigned si = 0;
		while (workload_table[si] != it->task)
			si++;
		ck_assert_uint_ge(si, last_sim);                             /* grouped by task, in table order */
		last_sim = si;
	}
	ck_assert(plan_uses(&plan, 0) || plan_uses(&plan, 1));
}
END_TEST

START_TEST(exclusions)
{
	plan_of(false, "-W", "Audio", "-x", "Burn", NULL);
	for (size_t k = 0; k < plan.n; k++)
		ck_assert_str_ne(load_name(k), "Burn");
	ck_assert_uint_gt(plan.n, 0);
	plan_of(false, "-W", "Video", "-w", "Video", NULL);
	ck_assert_uint_eq(plan.n, 0);
	char why[256];
	plan_no_pair_reasons(&opt, why, sizeof(why));
	ck_assert_ptr_nonnull(strstr(why, "a task is never its own load"));
}
END_TEST

START_TEST(sweep_order)
{
	plan_of(false, "-W", "Audio", "-w", "None", "-w", "Burn", "-N", "0,19", NULL);
	ck_assert_uint_eq(plan.n, 4);   /* by load setting, then load */
	const char *want[4] = { "None", "Burn", "None", "Burn" };
	for (size_t k = 0; k < 4; k++) {
		ck_assert_str_eq(load_name(k), want[k]);
		ck_assert_uint_eq(plan.items[k].load_setting, k / 2);
	}
	ck_assert_int_eq(load.s[plan.items[2].load_setting].nice, 19);
}
END_TEST

START_TEST(prefers_fifo_when_available)
{
	plan_of(true, "-W", "ProAudio", "-w", "None", NULL);
	ck_assert_uint_eq(plan.n, 1);
	ck_assert_int_eq(plan.items[0].bench_sched.kind, SP_FIFO);
	ck_assert_int_eq(plan.items[0].bench_sched.rt_prio, 97);
	plan_of(false, "-W", "ProAudio", "-w", "None", NULL);
	ck_assert_int_eq(plan.items[0].bench_sched.kind, SP_OTHER);
	/* a sweep of the placement alone asks for no policy: fifo on each CPU, the placement kept */
	plan_of(true, "-W", "ProAudio", "-w", "None", "--bench-cpus", "0/1", NULL);
	ck_assert_uint_eq(plan.n, 2);
	ck_assert_int_eq(plan.items[1].bench_sched.kind, SP_FIFO);
	ck_assert(plan.items[1].bench_sched.cpus && optspec_cpu_isset(plan.items[1].bench_sched.cpus, 1));
	plan_of(true, "-W", "ProAudio", "-w", "None", "--bench-cpus", "0/1", "-B", "0,5", NULL);
	ck_assert_int_eq(plan.items[0].bench_sched.kind, SP_OTHER); /* nice levels asked for */
}
END_TEST

START_TEST(deadline_only_for_fixed_work)
{
	plan_of(false, "-W", "Audio", "-W", "X", "-w", "None", "--bench-policy", "deadline", NULL);
	ck_assert_uint_eq(plan.n, 1);   /* X's work changes every frame: no reservation fits */
	ck_assert_str_eq(plan.items[0].task->name, "Audio");
	ck_assert_int_eq(plan.items[0].bench_sched.kind, SP_DEADLINE);
	ck_assert_uint_gt(plan.items[0].bench_sched.dl_runtime_ns, 0);
}
END_TEST

START_TEST(pure)
{
	plan_of(true, "-N", "0,19", NULL);
	size_t n = plan.n;
	struct plan_item first[256];
	ck_assert_uint_le(n, 256);
	memcpy(first, plan.items, n * sizeof(*first));
	struct plan_input in = { .opt = &opt, .bench = &bench, .load = &load, .rt_ok = true, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&plan, &in), 0);   /* built again from the same input: the same plan */
	ck_assert_uint_eq(plan.n, n);
	ck_assert_int_eq(memcmp(first, plan.items, n * sizeof(*first)), 0);
}
END_TEST

/* The preflight hooks of the workloads a plan uses, and only those: a --workdir that does not
 * exist refuses a plan with a disk load (Write), naming the option, and not one without. */
START_TEST(preflight_of_the_used_workloads)
{
	char err[512] = "";
	const char *missing = "/nonexistent-ib-check-plan";
	plan_of(false, "-W", "Audio", "-w", "Write", "--workdir", missing, NULL);
	ck_assert_uint_eq(plan.n, 1);
	ck_assert_int_eq(plan_preflight(&plan, &opt, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "--workdir: '/nonexistent-ib-check-plan' is not usable") != NULL, "%s", err);
	plan_of(false, "-W", "Audio", "-w", "None", "--workdir", missing, NULL);
	ck_assert_int_eq(plan_preflight(&plan, &opt, err, sizeof(err)), 0);
	plan_of(false, "-W", "Audio", "-w", "Write", "--workdir", "/tmp", NULL);
	ck_assert_int_eq(plan_preflight(&plan, &opt, err, sizeof(err)), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, one_pair);
	tcase_add_test(tc, default_never_its_own_load);
	tcase_add_test(tc, exclusions);
	tcase_add_test(tc, sweep_order);
	tcase_add_test(tc, prefers_fifo_when_available);
	tcase_add_test(tc, deadline_only_for_fixed_work);
	tcase_add_test(tc, pure);
	tcase_add_test(tc, preflight_of_the_used_workloads);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
