/* Locating the process's cgroups and the memory cgroup's room, from synthetic /proc texts and
 * from a fake root directory. */
#include <check.h>
#include "tests/ck_run.h"
#include "tests/ck_tree.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host/cgroup.h"
#include "loadkit/memcg.h"

#define MiB (1ull << 20)

/* A hybrid host as systemd sets it up: v1 controllers plus an empty unified hierarchy. */
static const char hybrid_cgroup[] =
	"9:name=systemd:/\n"
	"4:memory:/process_api/2cae\n"
	"3:cpuset:/\n"
	"1:cpu,cpuacct:/user/job\n"
	"0::/\n";
static const char hybrid_mountinfo[] =
	"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:7 - cgroup cgroup rw,cpu,cpuacct\n"
	"33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
	"34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw";

START_TEST(locate_v1_controllers)
{
	struct cgroup_loc loc;
	ck_assert_int_eq(cgroup_locate(hybrid_cgroup, hybrid_mountinfo, "memory", &loc), 0);
	ck_assert_int_eq(loc.version, 1);
	ck_assert_str_eq(loc.mount, "/sys/fs/cgroup/memory");
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/memory/process_api/2cae");
	ck_assert_int_eq(cgroup_locate(hybrid_cgroup, hybrid_mountinfo, "cpu", &loc), 0);
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/cpu,cpuacct/user/job");
	ck_assert_int_eq(cgroup_locate(hybrid_cgroup, hybrid_mountinfo, "cpuacct", &loc), 0);
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/cpu,cpuacct/user/job");
	/* whole names only: "cpu" is not "cpuset", "mem" is no controller */
	ck_assert_int_eq(cgroup_locate("3:cpuset:/\n", hybrid_mountinfo, "cpu", &loc), -1);
	ck_assert_int_eq(cgroup_locate(hybrid_cgroup, hybrid_mountinfo, "mem", &loc), -1);
	/* in the hierarchy but not mounted */
	ck_assert_int_eq(cgroup_locate("5:pids:/a\n", hybrid_mountinfo, "pids", &loc), -1);
}
END_TEST

START_TEST(locate_v2)
{
	struct cgroup_loc loc;
	const char *mi = "25 1 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";
	ck_assert_int_eq(cgroup_locate("0::/user.slice/session-2.scope\n", mi, NULL, &loc), 0);
	ck_assert_int_eq(loc.version, 2);
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/user.slice/session-2.scope");
	ck_assert_int_eq(cgroup_locate("0::/\n", mi, NULL, &loc), 0);
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup");
	ck_assert_int_eq(cgroup_locate(hybrid_cgroup, hybrid_mountinfo, NULL, &loc), 0);
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/unified");
	/* a v1 memory line is not the unified hierarchy */
	ck_assert_int_eq(cgroup_locate("4:memory:/a\n", mi, NULL, &loc), -1);
}
END_TEST

START_TEST(locate_below_a_mount_root)
{
	struct cgroup_loc loc;
	/* a container's view: its own cgroup bind-mounted at /sys/fs/cgroup, an escaped space */
	const char *mi = "99 1 0:26 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"
			 "98 1 0:26 /docker/x\\040y /mnt/c\\040g rw - cgroup2 cgroup2 rw\n";
	ck_assert_int_eq(cgroup_locate("0::/docker/abc/sub\n", mi, NULL, &loc), 0);
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/sub");
	ck_assert_str_eq(loc.mount, "/sys/fs/cgroup");
	ck_assert_int_eq(cgroup_locate("0::/docker/abc\n", mi, NULL, &loc), 0);
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup");
	ck_assert_int_eq(cgroup_locate("0::/docker/x y/z\n", mi, NULL, &loc), 0);
	ck_assert_str_eq(loc.dir, "/mnt/c g/z");
	/* "/docker/abcd" is not below "/docker/abc" */
	ck_assert_int_eq(cgroup_locate("0::/docker/abcd\n", mi, NULL, &loc), -1);
	/* outside the cgroup namespace's root */
	ck_assert_int_eq(cgroup_locate("0::/../../other\n", "1 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
				       NULL, &loc), -1);
	/* nonsense */
	ck_assert_int_eq(cgroup_locate("garbage\n", mi, NULL, &loc), -1);
	ck_assert_int_eq(cgroup_locate("0::/a\n", "short line\n", NULL, &loc), -1);
	ck_assert_int_eq(cgroup_locate(NULL, mi, NULL, &loc), -1);
}
END_TEST

START_TEST(walk_up_to_the_mount)
{
	struct cgroup_loc loc = { .version = 1, .mount = "/sys/fs/cgroup/memory",
				  .dir = "/sys/fs/cgroup/memory/a/b" };
	ck_assert(cgroup_up(&loc));
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/memory/a");
	ck_assert(cgroup_up(&loc));
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/memory");
	ck_assert(!cgroup_up(&loc));
	ck_assert_str_eq(loc.dir, "/sys/fs/cgroup/memory");
}
END_TEST

START_TEST(memcg_level_files)
{
	struct memcg_room r;
	ck_assert(!memcg_level(2, "max\n", "max\n", "1000\n", NULL, &r));
	ck_assert(!memcg_level(2, NULL, NULL, NULL, NULL, &r));
	ck_assert(!memcg_level(1, "9223372036854771712\n", NULL, "1000\n", NULL, &r)); /* v1 "no limit" */
	ck_assert(memcg_level(2, "536870912\n", "max\n", "104857600\n",
			      "anon 1\nactive_file 999999999\ninactive_file 20971520\n", &r));
	ck_assert_uint_eq(r.limit_bytes, 512 * MiB);
	ck_assert_str_eq(r.file, "memory.max");
	ck_assert_uint_eq(r.used_bytes, 80 * MiB);   /* 100 MiB less 20 MiB of inactive file cache */
	ck_assert_uint_eq(memcg_headroom_bytes(&r), 432 * MiB);
	/* memory.high below memory.max is the limit */
	ck_assert(memcg_level(2, "536870912\n", "268435456\n", "0\n", NULL, &r));
	ck_assert_uint_eq(r.limit_bytes, 256 * MiB);
	ck_assert_str_eq(r.file, "memory.high");
	ck_assert(memcg_level(2, "max\n", "268435456\n", "0\n", NULL, &r));
	ck_assert_str_eq(r.file, "memory.high");
	/* v1 has no memory.high; its hierarchical figure is total_inactive_file */
	ck_assert(memcg_level(1, "536870912\n", "1\n", "104857600\n",
			      "inactive_file 1048576\ntotal_inactive_file 10485760\n", &r));
	ck_assert_str_eq(r.file, "memory.limit_in_bytes");
	ck_assert_uint_eq(r.limit_bytes, 512 * MiB);
	ck_assert_uint_eq(r.used_bytes, 90 * MiB);
	/* usage above the limit leaves no room; unreadable usage counts as 0 */
	ck_assert(memcg_level(2, "1048576\n", NULL, "2097152\n", NULL, &r));
	ck_assert_uint_eq(memcg_headroom_bytes(&r), 0);
	ck_assert(memcg_level(2, "1048576\n", NULL, "junk", NULL, &r));
	ck_assert_uint_eq(r.used_bytes, 0);
}
END_TEST

START_TEST(memcg_tightest_room_wins)
{
	/* a parent nearly full beats a child with a lower limit but room to spare */
	struct memcg_room best = { .limited = false };
	struct memcg_room child = { .limited = true, .limit_bytes = 512 * MiB, .used_bytes = 10 * MiB };
	struct memcg_room parent = { .limited = true, .limit_bytes = 1024 * MiB, .used_bytes = 900 * MiB };
	struct memcg_room none = { .limited = false };
	memcg_tighter(&best, &child);
	ck_assert_uint_eq(best.limit_bytes, 512 * MiB);
	memcg_tighter(&best, &parent);
	ck_assert_uint_eq(best.limit_bytes, 1024 * MiB);
	memcg_tighter(&best, &none);
	memcg_tighter(&best, &child);
	ck_assert_uint_eq(best.limit_bytes, 1024 * MiB);
}
END_TEST

/* Writes text to root/rel (tests/ck_tree.h). */
static void put(const char *root, const char *rel, const char *text)
{
	ck_tree_put(root, rel, text);
}

START_TEST(memcg_fake_root)
{
	char root[] = "/tmp/check_cgroup.XXXXXX", want[PATH_MAX];
	ck_assert_ptr_nonnull(mkdtemp(root));
	put(root, "proc/self/cgroup", "4:memory:/a/b\n0::/u\n");
	put(root, "proc/self/mountinfo",
	    "34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
	    "40 30 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	put(root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put(root, "sys/fs/cgroup/memory/memory.usage_in_bytes", "20000000000\n");
	put(root, "sys/fs/cgroup/memory/a/memory.limit_in_bytes", "1073741824\n");
	put(root, "sys/fs/cgroup/memory/a/memory.usage_in_bytes", "943718400\n");     /* 900 MiB */
	put(root, "sys/fs/cgroup/memory/a/b/memory.limit_in_bytes", "536870912\n");
	put(root, "sys/fs/cgroup/memory/a/b/memory.usage_in_bytes", "10485760\n");
	put(root, "sys/fs/cgroup/unified/u/memory.max", "314572800\n");               /* 300 MiB */
	put(root, "sys/fs/cgroup/unified/u/memory.current", "0\n");

	struct memcg_where w;
	struct memcg_room r;
	memcg_where(root, &w);
	ck_assert_uint_eq(w.n, 2);
	memcg_read(&w, &r);
	/* the nearly full ancestor a: 124 MiB, tighter than b (502 MiB) and the v2 300 MiB */
	ck_assert(r.limited);
	ck_assert_uint_eq(memcg_headroom_bytes(&r), 124 * MiB);
	ck_assert_str_eq(r.file, "memory.limit_in_bytes");
	snprintf(want, sizeof(want), "%s/sys/fs/cgroup/memory/a", root);
	ck_assert_str_eq(r.dir, want);

	/* a leaves room now: the v2 memory.high of u decides */
	put(root, "sys/fs/cgroup/memory/a/memory.usage_in_bytes", "0\n");
	put(root, "sys/fs/cgroup/unified/u/memory.high", "209715200\n");
	memcg_read(&w, &r);
	ck_assert_uint_eq(r.limit_bytes, 200 * MiB);
	ck_assert_str_eq(r.file, "memory.high");
	snprintf(want, sizeof(want), "%s/sys/fs/cgroup/unified/u", root);
	ck_assert_str_eq(r.dir, want);

	/* the loads placed in another v2 cgroup (--load-cgroup): its limit instead of u's; the v1
	 * memory cgroup stays theirs */
	put(root, "sys/fs/cgroup/unified/hogs/memory.max", "104857600\n");           /* 100 MiB */
	put(root, "sys/fs/cgroup/unified/hogs/memory.current", "0\n");
	struct cgroup_loc hogs = { .version = 2 };
	snprintf(hogs.mount, sizeof(hogs.mount), "%s/sys/fs/cgroup/unified", root);
	snprintf(hogs.dir, sizeof(hogs.dir), "%s/sys/fs/cgroup/unified/hogs", root);
	struct memcg_where placed = w;
	memcg_where_v2(&placed, &hogs);
	ck_assert_uint_eq(placed.n, 2);
	memcg_read(&placed, &r);
	ck_assert_uint_eq(r.limit_bytes, 100 * MiB);
	ck_assert_str_eq(r.dir, hogs.dir);
	placed.n = 1;                        /* no v2 cgroup of its own: added */
	memcg_where_v2(&placed, &hogs);
	ck_assert_uint_eq(placed.n, 2);
	ck_assert_str_eq(placed.loc[1].dir, hogs.dir);

	/* no cgroup files at all: no limit */
	put(root, "proc/self/cgroup", "0::/elsewhere\n");
	memcg_where(root, &w);
	memcg_read(&w, &r);
	ck_assert(!r.limited);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(cpu_max_parsing)
{
	int64_t q = 0, p = 0;
	ck_assert_int_eq(cgroup_parse_cpu_max("5000 100000\n", &q, &p), 0);
	ck_assert_int_eq(q, 5000);
	ck_assert_int_eq(p, 100000);
	ck_assert_int_eq(cgroup_parse_cpu_max("max 100000\n", &q, &p), 0);
	ck_assert_int_eq(q, -1);
	static const char *const bad[] = { "", "max", "5000", "0 100000", "5000 0", "x 100000", "50x 100000",
					   "5000 100000 7" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(cgroup_parse_cpu_max(bad[i], &q, &p) == -1, "accepted '%s'", bad[i]);
}
END_TEST

/* The tightest CPU quota of the cgroup and its ancestors, v2 and v1, and the cpuset. */
START_TEST(cpu_limits_fake_root)
{
	char root[] = "/tmp/check_cgroup.XXXXXX";
	struct cgroup_cpu_limits lim;
	ck_assert_ptr_nonnull(mkdtemp(root));
	put(root, "proc/self/cgroup", "3:cpuset:/s\n1:cpu,cpuacct:/j/k\n0::/a/b\n");
	put(root, "proc/self/mountinfo",
	    "31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	    "33 30 0:30 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n"
	    "40 30 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	cgroup_cpu_limits_read(root, &lim);              /* no files at all: no limit */
	ck_assert_int_eq(lim.quota_us, -1);
	ck_assert_str_eq(lim.cpuset, "");
	put(root, "sys/fs/cgroup/unified/a/b/cpu.max", "max 100000\n");
	put(root, "sys/fs/cgroup/unified/a/cpu.max", "50000 100000\n");              /* half a CPU */
	put(root, "sys/fs/cgroup/cpuset/s/cpuset.cpus", "1\n");
	cgroup_cpu_limits_read(root, &lim);
	ck_assert_int_eq(lim.quota_us, 50000);
	ck_assert_int_eq(lim.period_us, 100000);
	ck_assert_str_eq(lim.quota_file, "/sys/fs/cgroup/unified/a/cpu.max");
	ck_assert_str_eq(lim.cpuset, "1");
	ck_assert_str_eq(lim.cpuset_file, "/sys/fs/cgroup/cpuset/s/cpuset.cpus");
	put(root, "sys/fs/cgroup/cpu,cpuacct/j/cpu.cfs_quota_us", "5000\n");           /* 5 % of a CPU */
	put(root, "sys/fs/cgroup/cpu,cpuacct/j/cpu.cfs_period_us", "100000\n");
	put(root, "sys/fs/cgroup/cpu,cpuacct/j/k/cpu.cfs_quota_us", "-1\n");
	put(root, "sys/fs/cgroup/cpu,cpuacct/j/k/cpu.cfs_period_us", "100000\n");
	put(root, "sys/fs/cgroup/unified/a/b/cpuset.cpus.effective", "0-1\n");
	cgroup_cpu_limits_read(root, &lim);
	ck_assert_int_eq(lim.quota_us, 5000);
	ck_assert_str_eq(lim.quota_file, "/sys/fs/cgroup/cpu,cpuacct/j/cpu.cfs_quota_us");
	ck_assert_str_eq(lim.cpuset, "0-1");                          /* v2's effective set first */
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The tightest realtime budget: the system's (sched_rt_runtime_us), then a v1 cpu cgroup's and
 * a v2 one's cpu.rt_runtime_us when they allow less of a CPU; -1 (unlimited) never replaces a
 * budget; the judge of "below the kernel's default" and the text. */
START_TEST(rt_budget_fake_root)
{
	char root[] = "/tmp/check_cgroup.XXXXXX", text[128];
	struct cgroup_cpu_limits lim;
	ck_assert_ptr_nonnull(mkdtemp(root));
	put(root, "proc/self/cgroup", "1:cpu,cpuacct:/j/k\n0::/a/b\n");
	put(root, "proc/self/mountinfo",
	    "31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	    "40 30 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	cgroup_cpu_limits_read(root, &lim);              /* nothing readable: unknown */
	ck_assert_int_eq(lim.rt_period_us, 0);
	ck_assert(!cgroup_rt_budget_tight(&lim));
	cgroup_rt_budget_text(&lim, text, sizeof(text));
	ck_assert_str_eq(text, "unknown");
	put(root, "proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	put(root, "proc/sys/kernel/sched_rt_period_us", "1000000\n");
	cgroup_cpu_limits_read(root, &lim);
	ck_assert_int_eq(lim.rt_runtime_us, -1);
	ck_assert_str_eq(lim.rt_file, "/proc/sys/kernel/sched_rt_runtime_us");
	ck_assert(!cgroup_rt_budget_tight(&lim));
	cgroup_rt_budget_text(&lim, text, sizeof(text));
	ck_assert_str_eq(text, "unlimited");
	put(root, "proc/sys/kernel/sched_rt_runtime_us", "950000\n");   /* the default: not tight */
	put(root, "sys/fs/cgroup/cpu,cpuacct/j/k/cpu.rt_runtime_us", "-1\n");
	put(root, "sys/fs/cgroup/cpu,cpuacct/j/k/cpu.rt_period_us", "1000000\n");
	cgroup_cpu_limits_read(root, &lim);
	ck_assert_int_eq(lim.rt_runtime_us, 950000);
	ck_assert(!cgroup_rt_budget_tight(&lim));
	put(root, "sys/fs/cgroup/cpu,cpuacct/j/cpu.rt_runtime_us", "50000\n");   /* 5 % */
	put(root, "sys/fs/cgroup/cpu,cpuacct/j/cpu.rt_period_us", "1000000\n");
	cgroup_cpu_limits_read(root, &lim);
	ck_assert_int_eq(lim.rt_runtime_us, 50000);
	ck_assert_int_eq(lim.rt_period_us, 1000000);
	ck_assert_str_eq(lim.rt_file, "/sys/fs/cgroup/cpu,cpuacct/j/cpu.rt_runtime_us");
	ck_assert(cgroup_rt_budget_tight(&lim));
	cgroup_rt_budget_text(&lim, text, sizeof(text));
	ck_assert_str_eq(text, "50000 us per 1000000 us (5 % of each CPU)");
	put(root, "sys/fs/cgroup/unified/a/cpu.rt_runtime_us", "1000\n");       /* v2: 1 % of 100 ms */
	put(root, "sys/fs/cgroup/unified/a/cpu.rt_period_us", "100000\n");
	cgroup_cpu_limits_read(root, &lim);
	ck_assert_int_eq(lim.rt_runtime_us, 1000);
	ck_assert_str_eq(lim.rt_file, "/sys/fs/cgroup/unified/a/cpu.rt_runtime_us");
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("locate");
	tcase_add_test(tc, locate_v1_controllers);
	tcase_add_test(tc, locate_v2);
	tcase_add_test(tc, locate_below_a_mount_root);
	tcase_add_test(tc, walk_up_to_the_mount);
	tcase_add_test(tc, memcg_level_files);
	tcase_add_test(tc, memcg_tightest_room_wins);
	tcase_add_test(tc, memcg_fake_root);
	tcase_add_test(tc, cpu_max_parsing);
	tcase_add_test(tc, cpu_limits_fake_root);
	tcase_add_test(tc, rt_budget_fake_root);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
