/* Sweeps: nice lists and ranges, CPU lists, policy lists, the settings built from
 * them, SCHED_DEADLINE's reservation, and applying settings to a real thread through
 * sched_setattr (each policy this kernel and privilege allow; a refusal is skipped with the
 * kernel's reason). */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_args.h"
#include "tests/ck_options.h"
#include "tests/ck_run.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "run/options.h"
#include "run/sweep.h"
#include "lib/schedpolicy.h"
#include "workloads/workload.h"

START_TEST(nice_lists_and_ranges)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-B", "0,-10", "-N", "0:19:5", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "bench-nice"), "0,-10");
	ck_assert_str_eq(val(&o, "load-nice"), "0,5,10,15,19");   /* the end is included */
	ck_assert_int_eq(parse(&o, "-B", "0:-20:10", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "bench-nice"), "0,-10,-20");     /* counting down */
	ck_assert_int_eq(parse(&o, "-N", "19:19", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "load-nice"), "19");
	ck_assert_int_eq(parse(&o, "-B", "-5", NULL), OPT_OK);     /* a single negative level, as before */
	ck_assert_str_eq(val(&o, "bench-nice"), "-5");
	static const char *const bad[] = { "0,,1", ",0", "0,", "0:30", "0:5:0", "0:5:-1", "1,1", "0:2,2", "a",
					   "0:1:2:3", "", "20", "-21", "0x1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(parse(&o, "-N", bad[i], NULL) == OPT_ERROR, "'%s' accepted", bad[i]);
		ck_assert_msg(strstr(err, "-N: invalid list") && strstr(err, "accepted:"), "%s", err);
	}
}
END_TEST

START_TEST(cpu_lists)
{
	struct optspec_cpus l;
	char buf[64];
	ck_assert_int_eq(parse_cpu_list("0,2-3", &l), 0);
	ck_assert(optspec_cpu_isset(&l, 0) && !optspec_cpu_isset(&l, 1) && optspec_cpu_isset(&l, 3));
	ck_assert_str_eq(format_cpu_list(&l, buf, sizeof(buf)), "0,2-3");
	ck_assert_int_eq(parse_cpu_list("5,1-2,3", &l), 0);
	ck_assert_str_eq(format_cpu_list(&l, buf, sizeof(buf)), "1-3,5");
	static const char *const bad[] = { "", "3-1", "1-", "-1", "a", "1,,2", "1 ", "1024", "0-99999999999999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(parse_cpu_list(bad[i], &l) == -1, "'%s' accepted", bad[i]);
	struct options o;
	ck_assert_int_eq(parse(&o, "--bench-cpus", "1", "--load-cpus", "0", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "bench-cpus"), "1");
	ck_assert_str_eq(val(&o, "cpus"), "");
}
END_TEST

START_TEST(cpu_alternatives)
{
	struct optspec_cpu_alts a;
	char buf[64];
	ck_assert_int_eq(parse_cpu_alts("0/1", &a), 0);
	ck_assert_uint_eq(a.n, 2);
	ck_assert(optspec_cpu_isset(&a.v[0], 0) && !optspec_cpu_isset(&a.v[0], 1) && optspec_cpu_isset(&a.v[1], 1));
	ck_assert_int_eq(parse_cpu_alts("3,0-1/2", &a), 0);
	ck_assert_str_eq(format_cpu_alts(&a, buf, sizeof(buf)), "0-1,3/2");
	ck_assert_int_eq(parse_cpu_alts("0-1", &a), 0);          /* one list: no alternatives */
	ck_assert_uint_eq(a.n, 1);
	ck_assert_int_eq(parse_cpu_alts("0/1/2/3/4/5/6/7", &a), 0);
	ck_assert_uint_eq(a.n, OPTSPEC_CPU_ALTS_MAX);
	static const char *const bad[] = { "", "/", "0/", "/0", "0//1", "0/0", "0,1/1,0", "0/1/2/3/4/5/6/7/8",
					   "0/a", "0 /1", "0/1024" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(parse_cpu_alts(bad[i], &a) == -1, "'%s' accepted", bad[i]);
	char huge[5000];
	memset(huge, '0', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	ck_assert_int_eq(parse_cpu_alts(huge, &a), -1);         /* bounded, never overrun */
	struct options o;
	ck_assert_int_eq(parse(&o, "--bench-cpus", "0/1", "--load-cpus", "1", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "bench-cpus"), "0/1");
	ck_assert_int_eq(parse(&o, "--cpus", "0/1", NULL), OPT_ERROR); /* --cpus places both sides: one list */
	ck_assert_msg(strstr(err, "--cpus: invalid CPU list '0/1'"), "%s", err);
	ck_assert_int_eq(parse(&o, "--load-cpus", "0/0", NULL), OPT_ERROR);
	ck_assert_msg(strstr(err, "--load-cpus: invalid CPU list or alternatives '0/0'") && strstr(err, "'/'"), "%s", err);
	ck_assert_int_eq(parse(&o, "-u", "--bench-cpus", "0/1", NULL), OPT_ERROR);
	ck_assert_msg(strstr(err, "--bench-cpus: CPU alternatives with -u"), "%s", err);
	ck_assert_int_eq(parse(&o, "-u", "--bench-cpus", "0", NULL), OPT_OK);
}
END_TEST

/* sweep_build of o into b and l, each side with one setting. */
static void built_alone(const struct options *o, struct sweep_side *b, struct sweep_side *l)
{
	sweep_build(o, 97, b, l);
	ck_assert_uint_eq(b->n, 1);
	ck_assert_uint_eq(l->n, 1);
}

/* Placements and thread counts given as alternatives are settings of the sweep, labelled;
 * one value is the run's own and names nothing. */
START_TEST(placement_and_threads_built)
{
	struct options o;
	struct sweep_side b, l;
	char w[128], d[512];
	ck_assert_int_eq(parse(&o, "--bench-cpus", "1", "-L", "4", NULL), OPT_OK);
	built_alone(&o, &b, &l);
	ck_assert_ptr_null(b.s[0].cpus);
	ck_assert_uint_eq(l.s[0].threads, 0);
	ck_assert_str_eq(sched_setting_words(&b.s[0], w, sizeof(w)), "");
	ck_assert_str_eq(sweep_describe(&o, &b, &l, d, sizeof(d)), "Settings: task nice 0; loads nice 0; task CPUs 1");
	ck_assert_int_eq(parse(&o, "--bench-cpus", "0/1", "-B", "0,5", "-L", "1,4", "--load-cpus", "0,1/1", NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 4);                          /* nice 0 and 5, each on CPU 0 then 1 */
	ck_assert(b.s[0].cpus && optspec_cpu_isset(b.s[0].cpus, 0) && !optspec_cpu_isset(b.s[0].cpus, 1));
	ck_assert(b.s[1].cpus && optspec_cpu_isset(b.s[1].cpus, 1) && b.s[1].nice == 0);
	ck_assert_str_eq(sched_setting_label(&b.s[1], w, sizeof(w)), "nice 0 CPUs 1");
	ck_assert_str_eq(sched_setting_words(&b.s[3], w, sizeof(w)), "nice 5 CPUs 1");
	ck_assert(sched_setting_is_default(&b.s[1]));       /* sched_setattr is told nothing */
	ck_assert_uint_eq(l.n, 4);                          /* CPUs 0-1 then 1, each with 1 and 4 threads */
	ck_assert_uint_eq(l.s[0].threads, 1);
	ck_assert_uint_eq(l.s[1].threads, 4);
	ck_assert_uint_eq(b.s[0].threads, 0);               /* -L is the loads' */
	ck_assert_str_eq(sched_setting_words(&l.s[0], w, sizeof(w)), "CPUs 0-1 1 thread");
	ck_assert_str_eq(sched_setting_label(&l.s[3], w, sizeof(w)), "nice 0 CPUs 1 4 threads");
	ck_assert_str_eq(sweep_describe(&o, &b, &l, d, sizeof(d)),
			 "Settings: task nice 0 CPUs 0, nice 0 CPUs 1, nice 5 CPUs 0, nice 5 CPUs 1; loads nice 0 CPUs 0-1 "
			 "1 thread, nice 0 CPUs 0-1 4 threads, nice 0 CPUs 1 1 thread, nice 0 CPUs 1 4 threads");
	ck_assert(sweep_is_sweep(&b, &l));
	/* every side's combinations bounded together: 5 nice levels x 8 placements = 40, one more refused */
	ck_assert_int_eq(parse(&o, "-B", "0:4", "--bench-cpus", "0/1/2/3/4/5/6/7", NULL), OPT_OK);
	ck_assert_int_eq(parse(&o, "-N", "0:4", "--load-cpus", "0/1/2/3/4/5/6/7", "-L", "1,2", NULL), OPT_ERROR);
	ck_assert_msg(strstr(err, "-N, --load-slice, --load-cpus, --load-cgroup, -L: 5 nice levels, 1 slices, 8 CPU "
			       "alternatives, 1 cgroups and 2 thread counts are 80 settings"), "%s", err);
	ck_assert_int_eq(parse(&o, "-L", "0", NULL), OPT_ERROR);
	/* --scheduler: the bench side's last axis, labelled even alone (the whole run is under it) */
	ck_assert_int_eq(parse(&o, "--scheduler", "fair", "--scheduler", "scx_simple -f", "-B", "0,5", NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 4);
	ck_assert_str_eq(sched_setting_label(&b.s[0], w, sizeof(w)), "nice 0 fair");
	ck_assert_str_eq(sched_setting_words(&b.s[1], w, sizeof(w)), "sched_ext scx_simple -f");
	ck_assert_str_eq(sched_setting_words(&b.s[3], w, sizeof(w)), "nice 5 sched_ext scx_simple -f");
	ck_assert_ptr_null(l.s[0].scheduler);
	ck_assert_int_eq(parse(&o, "--scheduler", "scx_lavd", NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 1);
	ck_assert_str_eq(sweep_describe(&o, &b, &l, d, sizeof(d)), "Settings: task nice 0 sched_ext scx_lavd; loads nice 0");
	ck_assert_int_eq(parse(&o, "--scheduler", "a", "--scheduler", "a", NULL), OPT_ERROR);
	ck_assert_msg(strstr(err, "--scheduler: scheduler given twice 'a'"), "%s", err);
	ck_assert_int_eq(parse(&o, "-B", "0:4", "--bench-cpus", "0/1/2/3/4", "--scheduler", "fair", "--scheduler", "x",
			       NULL), OPT_ERROR);                    /* 5 x 5 x 2 = 50 */
	ck_assert_msg(strstr(err, "and 2 schedulers are 50 settings"), "%s", err);
}
END_TEST

/* --bench-cgroup and --load-cgroup: one for the whole run (no setting names it), repeated
 * an axis of their side, labelled "cgroup PATH", each setting with its index among them. */
START_TEST(cgroup_alternatives_built)
{
	struct options o;
	struct sweep_side b, l;
	char w[128], d[512];
	ck_assert_int_eq(parse(&o, "--load-cgroup", "hog-w100", "--bench-cgroup", "task", NULL), OPT_OK);
	built_alone(&o, &b, &l);
	ck_assert_ptr_null(b.s[0].cgroup);
	ck_assert_ptr_null(l.s[0].cgroup);
	ck_assert(!sweep_is_sweep(&b, &l));
	ck_assert_int_eq(parse(&o, "--load-cgroup", "hog-w100", "--load-cgroup", "/sys/fs/cgroup/hog-w1", "-N", "0,19",
			       NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 1);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_str_eq(sched_setting_label(&l.s[0], w, sizeof(w)), "nice 0 cgroup hog-w100");
	ck_assert_str_eq(sched_setting_label(&l.s[1], w, sizeof(w)), "nice 0 cgroup /sys/fs/cgroup/hog-w1");
	ck_assert_str_eq(sched_setting_label(&l.s[3], w, sizeof(w)), "nice 19 cgroup /sys/fs/cgroup/hog-w1");
	ck_assert_uint_eq(l.s[0].cgroup_index, 0);
	ck_assert_uint_eq(l.s[3].cgroup_index, 1);
	ck_assert_str_eq(sweep_describe(&o, &b, &l, d, sizeof(d)), "Settings: task nice 0; loads nice 0 cgroup hog-w100, "
			 "nice 0 cgroup /sys/fs/cgroup/hog-w1, nice 19 cgroup hog-w100, nice 19 cgroup /sys/fs/cgroup/hog-w1");
	ck_assert(sweep_is_sweep(&b, &l));
	/* the bench side's, before its scheduler */
	ck_assert_int_eq(parse(&o, "--bench-cgroup", "a", "--bench-cgroup", "b", "--scheduler", "fair", NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 2);
	ck_assert_str_eq(sched_setting_words(&b.s[1], w, sizeof(w)), "cgroup b fair");
	ck_assert_int_eq(parse(&o, "--load-cgroup", "a", "--load-cgroup", "a", NULL), OPT_ERROR);
	ck_assert_msg(strstr(err, "--load-cgroup: cgroup path given twice 'a'"), "%s", err);
	ck_assert_int_eq(parse(&o, "-B", "0:4", "--bench-cgroup", "a", "--bench-cgroup", "b", "--bench-cpus", "0/1/2/3/4",
			       NULL), OPT_ERROR);                    /* 5 x 2 x 5 = 50 */
	ck_assert_msg(strstr(err, "5 CPU alternatives, 2 cgroups and 1 schedulers are 50 settings"), "%s", err);
}
END_TEST

START_TEST(policies)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "--bench-policy", "other,batch", "--bench-policy", "deadline", "--load-policy", "idle",
			       NULL), OPT_OK);
	ck_assert_uint_eq(o.bench_policies, (1u << SP_OTHER) | (1u << SP_BATCH) | (1u << SP_DEADLINE));
	ck_assert_uint_eq(o.load_policies, 1u << SP_IDLE);
	ck_assert_int_eq(parse(&o, "--bench-policy", "idle", NULL), OPT_ERROR);
	ck_assert_msg(strstr(err, "--bench-policy: idle"), "%s", err);
	ck_assert_int_eq(parse(&o, "--load-policy", "deadline", NULL), OPT_ERROR);
	ck_assert_int_eq(parse(&o, "--bench-policy", "other,fast", NULL), OPT_ERROR);
	ck_assert_msg(strstr(err, "unknown policy 'other,fast'") && strstr(err, "other, batch, idle, fifo, rr, deadline"),
		      "%s", err);
	ck_assert_int_eq(parse(&o, "--rt-priority", "0", NULL), OPT_ERROR);
	ck_assert_int_eq(parse(&o, "--rt-priority", "50", NULL), OPT_OK);
}
END_TEST

START_TEST(settings_built)
{
	struct options o;
	struct sweep_side b, l;
	char w[64];
	ck_assert_int_eq(parse(&o, NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 1);
	ck_assert_int_eq(b.s[0].kind, SP_OTHER);
	ck_assert(!sweep_is_sweep(&b, &l));
	ck_assert_int_eq(parse(&o, "-r", NULL), OPT_OK);           /* -r is --bench-policy fifo */
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 1);
	ck_assert_int_eq(b.s[0].kind, SP_FIFO);
	ck_assert_int_eq(b.s[0].rt_prio, 97);
	ck_assert_str_eq(sched_setting_words(&b.s[0], w, sizeof(w)), "real time");
	/* nice levels apply to other and batch, once each to fifo; --rt-priority over the default */
	ck_assert_int_eq(parse(&o, "-B", "0,5", "--bench-policy", "other,fifo,batch", "--rt-priority", "40",
			       "-N", "0,19", NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 5);                          /* other x2, batch x2, fifo */
	ck_assert_str_eq(sched_setting_words(&b.s[1], w, sizeof(w)), "nice 5");
	ck_assert_str_eq(sched_setting_words(&b.s[3], w, sizeof(w)), "SCHED_BATCH nice 5");
	ck_assert_int_eq(b.s[4].rt_prio, 40);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_str_eq(sched_setting_words(&l.s[1], w, sizeof(w)), "nice 19");
	ck_assert(sweep_is_sweep(&b, &l));
	/* slices: each nice level with each slice, on other and batch only; 0 is the default */
	ck_assert_int_eq(parse(&o, "-B", "0,5", "--bench-slice", "0,3000", "--bench-policy", "other,fifo", NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 5);                          /* other: 2 nice x 2 slices, fifo */
	ck_assert_str_eq(sched_setting_words(&b.s[0], w, sizeof(w)), "");
	ck_assert(sched_setting_is_default(&b.s[0]));
	ck_assert_str_eq(sched_setting_words(&b.s[1], w, sizeof(w)), "slice 3000us");
	ck_assert(!sched_setting_is_default(&b.s[1]));
	ck_assert_str_eq(sched_setting_words(&b.s[3], w, sizeof(w)), "nice 5 slice 3000us");
	ck_assert_str_eq(sched_setting_label(&b.s[2], w, sizeof(w)), "nice 5");
	ck_assert_uint_eq(b.s[4].slice_ns, 0);              /* no slice for fifo */
	ck_assert_str_eq(sched_setting_words(&b.s[4], w, sizeof(w)), "real time");
	ck_assert_int_eq(parse(&o, "--load-slice", "100:1000:100", "-N", "0:4", NULL), OPT_ERROR); /* 50 settings */
	/* --wake: each bench setting once per wake-up, the timer-woken labelled; loads never */
	ck_assert_int_eq(parse(&o, "--wake", "thread,timer", "-B", "0,5", NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 4);                          /* nice 0 and 5, each both ways */
	ck_assert(!b.s[0].own_timer && b.s[1].own_timer && b.s[0].nice == b.s[1].nice);
	ck_assert_str_eq(sched_setting_words(&b.s[1], w, sizeof(w)), "timer-woken");
	ck_assert(sched_setting_is_default(&b.s[1]));       /* the kernel is told nothing else */
	ck_assert_str_eq(sched_setting_label(&b.s[3], w, sizeof(w)), "nice 5 timer-woken");
	ck_assert_uint_eq(l.n, 1);
	ck_assert(!l.s[0].own_timer);
	ck_assert_int_eq(parse(&o, "--wake", "timer", NULL), OPT_OK);
	sweep_build(&o, 97, &b, &l);
	ck_assert_uint_eq(b.n, 1);
	ck_assert(b.s[0].own_timer);
}
END_TEST

START_TEST(deadline_reservation)
{
	struct options o;
	struct sim_spec audio, x;
	options_init(&o);
	int a = workload_find("Audio", false), xi = workload_find("X", false);
	workload_sim_spec(workload_table[a], options_wl_opts(&o, (unsigned)a), &audio);
	workload_sim_spec(workload_table[xi], options_wl_opts(&o, (unsigned)xi), &x);
	ck_assert(sweep_deadline_fits(&audio));
	ck_assert(!sweep_deadline_fits(&x));                /* its work changes every frame */
	struct sched_setting s = { .kind = SP_DEADLINE };
	struct sched_setting d = sweep_deadline_for(&s, &audio);
	ck_assert_uint_eq(d.dl_period_ns, 50000000ull);     /* Audio: 2.5 ms every 50 ms */
	ck_assert_uint_eq(d.dl_deadline_ns, 50000000ull);
	ck_assert_uint_eq(d.dl_runtime_ns, 2500000ull + 250000ull); /* + 10% */
}
END_TEST

/* Applies s on a fresh thread and reads it back.  Returns 0, or the errno of a refusal. */
struct apply_arg { struct sched_setting s, got; int rc; char err[256]; };

static void *apply_thread(void *arg)
{
	struct apply_arg *a = arg;
	a->rc = sched_setting_apply(0, &a->s, a->err, sizeof(a->err)) == 0 ? 0 : errno;
	if (a->rc == 0 && sched_setting_get(0, &a->got) != 0)
		a->rc = errno;
	return NULL;
}

START_TEST(sched_setattr_each_policy)
{
	const struct sched_setting settings[] = {
		{ .kind = SP_OTHER, .nice = 5 }, { .kind = SP_BATCH, .nice = 3 }, { .kind = SP_IDLE },
		{ .kind = SP_FIFO, .rt_prio = 1 }, { .kind = SP_RR, .rt_prio = 1 },
		{ .kind = SP_DEADLINE, .dl_runtime_ns = 1000000, .dl_deadline_ns = 10000000, .dl_period_ns = 10000000 },
	};
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		struct apply_arg a = { .s = settings[i] };
		pthread_t t;
		ck_assert_int_eq(pthread_create(&t, NULL, apply_thread, &a), 0);
		pthread_join(t, NULL);
		if (a.rc != 0) {   /* no privilege, or the kernel's admission control: its reason */
			ck_assert_msg(strstr(a.err, "sched_setattr(") && strstr(a.err, strerror(a.rc)), "%s", a.err);
			fprintf(stderr, "check_sweep: skipped %s: %s\n", sched_kind_name(settings[i].kind), a.err);
			continue;
		}
		ck_assert_int_eq(a.got.kind, settings[i].kind);
		if (sched_kind_has_nice(settings[i].kind))
			ck_assert_int_eq(a.got.nice, settings[i].nice);
		if (settings[i].kind == SP_FIFO || settings[i].kind == SP_RR)
			ck_assert_int_eq(a.got.rt_prio, settings[i].rt_prio);
		if (settings[i].kind == SP_DEADLINE)
			ck_assert_uint_eq(a.got.dl_runtime_ns, settings[i].dl_runtime_ns);
	}
}
END_TEST

/* sched_pin_cpus: nothing given leaves the thread be; a CPU it may run on pins it there alone;
 * a CPU no machine here has is the kernel's EINVAL, named with the list. */
START_TEST(pin_cpus)
{
	cpu_set_t before, after;
	char err[128] = "";
	ck_assert_int_eq(sched_getaffinity(0, sizeof(before), &before), 0);
	struct optspec_cpus none = { .given = false }, one = { .given = true }, far = { .given = true };
	ck_assert_int_eq(sched_pin_cpus(NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(sched_pin_cpus(&none, err, sizeof(err)), 0);
	unsigned first = 0;
	while (!CPU_ISSET(first, &before))
		first++;
	one.bits[first / 64] |= 1ull << (first % 64);
	ck_assert_int_eq(sched_pin_cpus(&one, err, sizeof(err)), 0);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(after), &after), 0);
	ck_assert(CPU_COUNT(&after) == 1 && CPU_ISSET(first, &after));
	far.bits[1023 / 64] |= 1ull << (1023 % 64);
	errno = 0;
	ck_assert_int_eq(sched_pin_cpus(&far, err, sizeof(err)), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(err, "sched_setaffinity(1023): Invalid argument");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep");
	tcase_add_test(tc, nice_lists_and_ranges);
	tcase_add_test(tc, cpu_lists);
	tcase_add_test(tc, cpu_alternatives);
	tcase_add_test(tc, placement_and_threads_built);
	tcase_add_test(tc, cgroup_alternatives_built);
	tcase_add_test(tc, policies);
	tcase_add_test(tc, settings_built);
	tcase_add_test(tc, deadline_reservation);
	tcase_add_test(tc, sched_setattr_each_policy);
	tcase_add_test(tc, pin_cpus);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
