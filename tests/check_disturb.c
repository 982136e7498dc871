/* host/disturb.h: /proc/stat's per-CPU lines and /proc/<pid>/stat parsed from given text, the
 * run's CPUs selected, the run's own time subtracted and clamped, and the shares in ppm. */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include "host/disturb.h"
#include "lib/timeutil.h"
#include "tests/ck_run.h"

/* Two CPUs and a third, as proc(5) shows them: user nice system idle iowait irq softirq steal
 * guest guest_nice. */
static const char stat_a[] =
	"cpu  600 60 300 9000 10 6 3 30 50 0\n"
	"cpu0 100 10 50 3000 5 1 1 10 50 0\n"
	"cpu1 200 20 100 3000 5 2 1 10 0 0\n"
	"cpu2 300 30 150 3000 0 3 1 10 0 0\n"
	"intr 12345 0 1 2\nctxt 99\n";

START_TEST(stat_lines_summed)
{
	struct cpu_ticks t;
	ck_assert_int_eq(disturb_parse_stat(stat_a, NULL, &t), 0);
	ck_assert_uint_eq(t.cpus, 3);
	/* user + nice + system + irq + softirq + steal; guest is inside user, idle and iowait out */
	ck_assert_uint_eq(t.busy, (100 + 10 + 50 + 1 + 1 + 10) + (200 + 20 + 100 + 2 + 1 + 10) +
			  (300 + 30 + 150 + 3 + 1 + 10));
	ck_assert_uint_eq(t.steal, 30);
}
END_TEST

START_TEST(stat_cpus_selected)
{
	struct optspec_cpus set;
	struct cpu_ticks t;
	ck_assert_int_eq(parse_cpu_list("0,2", &set), 0);
	ck_assert_int_eq(disturb_parse_stat(stat_a, &set, &t), 0);
	ck_assert_uint_eq(t.cpus, 2);
	ck_assert_uint_eq(t.busy, 172 + 494);
	ck_assert_int_eq(parse_cpu_list("5", &set), 0);
	ck_assert_int_eq(disturb_parse_stat(stat_a, &set, &t), -1);  /* no line of the run's CPUs */
	/* an old kernel's four columns: no steal */
	ck_assert_int_eq(disturb_parse_stat("cpu  1 2 3 4\ncpu0 1 2 3 4\n", NULL, &t), 0);
	ck_assert_uint_eq(t.busy, 6);
	ck_assert_uint_eq(t.steal, 0);
	ck_assert_int_eq(disturb_parse_stat("cpu0 1 2\n", NULL, &t), -1);
	ck_assert_int_eq(disturb_parse_stat("", NULL, &t), -1);
}
END_TEST

START_TEST(pid_stat_parsed)
{
	uint64_t ticks;
	/* the command name may hold spaces and parentheses: fields count from the last ')' */
	ck_assert_int_eq(disturb_parse_pid_stat("42 (a) b (c)) R 1 42 42 0 -1 4194560 100 0 0 0 "
						"17 5 0 0 20 0 3 0 1000 0 0\n", &ticks), 0);
	ck_assert_uint_eq(ticks, 22);
	ck_assert_int_eq(disturb_parse_pid_stat("42 (x) R 1 2", &ticks), -1);
	ck_assert_int_eq(disturb_parse_pid_stat("no parenthesis", &ticks), -1);
}
END_TEST

/* A sample of busy and steal ticks on cpus CPUs, own ticks of the run. */
static struct disturb_sample sample(uint64_t busy, uint64_t steal, unsigned cpus, uint64_t own)
{
	return (struct disturb_sample){ .cpu = { .busy = busy, .steal = steal, .cpus = cpus }, .own_ticks = own };
}

START_TEST(outside_time_and_ppm)
{
	struct disturbance d;
	/* 2 s on 2 CPUs at 100 Hz: 400 ticks; 300 busy, 180 the run's own, 20 stolen */
	struct disturb_sample a = sample(1000, 50, 2, 500), b = sample(1300, 70, 2, 680);
	disturb_compute(&a, &b, 2 * NS_PER_S, 100, &d);
	ck_assert(d.measured);
	ck_assert_uint_eq(d.cpus, 2);
	ck_assert_uint_eq(d.outside_cpu_ns, 120 * 10 * NS_PER_MS);
	ck_assert_uint_eq(d.outside_cpu_ppm, 300000);
	ck_assert_uint_eq(d.steal_ns, 20 * 10 * NS_PER_MS);
	ck_assert_uint_eq(d.steal_ppm, 50000);
	ck_assert(disturbance_marked(&d));
	/* the run's own time above the CPUs' busy time (it ran elsewhere, ticks rounded): 0 */
	b = sample(1100, 50, 2, 700);
	disturb_compute(&a, &b, 2 * NS_PER_S, 100, &d);
	ck_assert(d.measured);
	ck_assert_uint_eq(d.outside_cpu_ns, 0);
	ck_assert_uint_eq(d.outside_cpu_ppm, 0);
	ck_assert(!disturbance_marked(&d));
	/* the same with 1 tick stolen meanwhile (CI saw it: 0 outside, 10 ms stolen): stolen
	 * time is never the run's own, so outside holds at least it */
	b = sample(1100, 51, 2, 700);
	disturb_compute(&a, &b, 2 * NS_PER_S, 100, &d);
	ck_assert_uint_eq(d.steal_ns, 10 * NS_PER_MS);
	ck_assert_uint_eq(d.outside_cpu_ns, 10 * NS_PER_MS);
	ck_assert_uint_ge(d.outside_cpu_ppm, d.steal_ppm);
	/* 250 Hz: 4 ms a tick */
	b = sample(1010, 50, 2, 500);
	disturb_compute(&a, &b, NS_PER_S, 250, &d);
	ck_assert_uint_eq(d.outside_cpu_ns, 40 * NS_PER_MS);
	ck_assert_uint_eq(d.outside_cpu_ppm, 20000);
	/* a counter backwards, another CPU count, no window: not measured */
	b = sample(900, 50, 2, 500);
	disturb_compute(&a, &b, NS_PER_S, 100, &d);
	ck_assert(!d.measured);
	b = sample(1100, 50, 3, 500);
	disturb_compute(&a, &b, NS_PER_S, 100, &d);
	ck_assert(!d.measured);
	disturb_compute(&a, &a, 0, 100, &d);
	ck_assert(!d.measured);
}
END_TEST

START_TEST(levels)
{
	ck_assert(!disturb_ppm_marked(DISTURB_OUTSIDE_PPM_MAX, DISTURB_STEAL_PPM_MAX));
	ck_assert(disturb_ppm_marked(DISTURB_OUTSIDE_PPM_MAX + 1, 0));
	ck_assert(disturb_ppm_marked(0, DISTURB_STEAL_PPM_MAX + 1));
	struct disturbance d = { .measured = false, .outside_cpu_ppm = 900000 };
	ck_assert(!disturbance_marked(&d));
}
END_TEST

START_TEST(live_sample)
{
	struct disturb_sample s;
	char err[160];
	pid_t self = getpid();
	if (disturb_sample(NULL, &self, 1, &s, err, sizeof(err)) != 0)
		ck_abort_msg("%s", err);  /* /proc is mounted wherever the tests run */
	ck_assert_uint_ge(s.cpu.cpus, 1);
	pid_t none = 0x7ffffff0;
	ck_assert_int_eq(disturb_sample(NULL, &none, 1, &s, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "open /proc/") && strstr(err, "No such file"), "%s", err);
}
END_TEST

/* The state letter after the last ')'; a stopped load (T, or t under a debugger) is noted at
 * each reading, its CPU time taken between the first and the last. */
START_TEST(load_activity_stopped_looks)
{
	char st;
	ck_assert_int_eq(disturb_parse_pid_state("42 (ib-load (x)) T 1 42", &st), 0);
	ck_assert_int_eq(st, 'T');
	ck_assert_int_eq(disturb_parse_pid_state("no parenthesis", &st), -1);
	struct load_activity a = { 0 };
	ck_assert(!load_activity_stopped(&a));
	ck_assert_uint_eq(load_activity_cpu_ns(&a, 100), 0);
	load_activity_add(&a, 500, 'S');
	ck_assert_uint_eq(load_activity_cpu_ns(&a, 100), 0);       /* one reading: no interval */
	load_activity_add(&a, 540, 'R');
	ck_assert(!load_activity_stopped(&a));
	load_activity_add(&a, 540, 'T');
	load_activity_add(&a, 541, 't');
	ck_assert(load_activity_stopped(&a));
	ck_assert_uint_eq(a.looks, 4);
	ck_assert_uint_eq(a.stopped_looks, 2);
	ck_assert_uint_eq(load_activity_cpu_ns(&a, 100), 41 * NS_PER_S / 100);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("disturb");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, stat_lines_summed);
	tcase_add_test(tc, stat_cpus_selected);
	tcase_add_test(tc, pid_stat_parsed);
	tcase_add_test(tc, load_activity_stopped_looks);
	tcase_add_test(tc, outside_time_and_ppm);
	tcase_add_test(tc, levels);
	tcase_add_test(tc, live_sample);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
