/* Placing processes in a named cgroup (host/cgplace.h): the path resolved against a fake root
 * (its proc/self/mountinfo names a hybrid host: v1 controllers and the unified hierarchy at
 * /sys/fs/cgroup/unified), every refusal's message, and the mount lookup it stands on. */
#include <check.h>
#include "tests/ck_run.h"
#include "tests/ck_tree.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host/cgplace.h"
#include "host/cgroup.h"
#include "run/mainproc.h"
#include "run/options.h"

static const char hybrid_mountinfo[] =
	"22 1 0:21 / / rw - ext4 /dev/vda rw\n"
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

#define UNIFIED "/sys/fs/cgroup/unified"

static char root[] = "/tmp/check_cgplace.XXXXXX";

/* Writes text to root/rel (tests/ck_tree.h). */
static void put(const char *rel, const char *text)
{
	ck_tree_put(root, rel, text);
}

/* The text of root/rel ("" when unreadable), in a static buffer. */
static const char *got(const char *rel)
{
	static char buf[256];
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

static bool exists(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return lstat(path, &st) == 0;
}

/* A fake hybrid host: a domain cgroup "a" with cpu and memory, a threaded subtree "dom/t", a
 * symbolic link, a FIFO planted as cgroup.procs, a cgroup.procs that is a directory. */
static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(root));
	put("proc/self/mountinfo", hybrid_mountinfo);
	put("proc/self/cgroup", "1:cpu:/\n0::/\n");
	put("sys/fs/cgroup/cpu/cgroup.procs", "");
	put(UNIFIED "/cgroup.procs", "");
	put(UNIFIED "/cgroup.controllers", "cpu memory\n");
	put(UNIFIED "/a/cgroup.procs", "");
	put(UNIFIED "/a/cgroup.type", "domain\n");
	put(UNIFIED "/a/cgroup.controllers", "cpu memory\n");
	put(UNIFIED "/a/cpu.weight", "1\n");
	put(UNIFIED "/a/cpu.max", "50000 100000\n");
	put(UNIFIED "/a/memory.max", "max\n");
	put(UNIFIED "/dom/cgroup.procs", "");
	put(UNIFIED "/dom/cgroup.type", "domain threaded\n");
	put(UNIFIED "/dom/t/cgroup.procs", "");
	put(UNIFIED "/dom/t/cgroup.threads", "");
	put(UNIFIED "/dom/t/cgroup.type", "threaded\n");
	put(UNIFIED "/fifo/cgroup.type", "domain\n");
	put(UNIFIED "/isdir/cgroup.type", "domain\n");
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s" UNIFIED "/fifo/cgroup.procs", root);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s" UNIFIED "/isdir/cgroup.procs", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s" UNIFIED "/link", root);
	ck_assert_int_eq(symlink("a", path), 0);
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(root, "/tmp/check_cgplace.XXXXXX");
}

/* Resolves arg as --load-cgroup; refused, its message into err. */
static int resolve(const char *arg, struct cgplace *cg, char *err, size_t len)
{
	err[0] = '\0';
	return cgplace_resolve(root, "--load-cgroup", arg, cg, err, len);
}

/* arg is refused with a message holding the option, the value and want. */
static void refused(const char *arg, const char *want)
{
	struct cgplace cg;
	char err[2 * PATH_MAX];
	ck_assert_int_eq(resolve(arg, &cg, err, sizeof(err)), -1);
	char head[PATH_MAX + 32];
	snprintf(head, sizeof(head), "--load-cgroup '");
	ck_assert_msg(strncmp(err, head, strlen(head)) == 0 && strstr(err, want), "%s: %s", arg, err);
	ck_assert_int_eq(cg.dir_fd, -1);
	ck_assert_int_eq(cg.parent_fd, -1);
	ck_assert_int_eq(cg.domain_fd, -1);
}

START_TEST(mount_of_path)
{
	char mnt[PATH_MAX], fs[PATH_MAX], opts[PATH_MAX];
	ck_assert_int_eq(cgroup_mount_of(hybrid_mountinfo, UNIFIED "/a/b", mnt, fs, opts), 0);
	ck_assert_str_eq(mnt, UNIFIED);
	ck_assert_str_eq(fs, "cgroup2");
	ck_assert_int_eq(cgroup_mount_of(hybrid_mountinfo, UNIFIED, mnt, fs, opts), 0);
	ck_assert_str_eq(mnt, UNIFIED);
	/* whole components: /sys/fs/cgroup/unifiedX is on the tmpfs */
	ck_assert_int_eq(cgroup_mount_of(hybrid_mountinfo, UNIFIED "X/a", mnt, fs, opts), 0);
	ck_assert_str_eq(mnt, "/sys/fs/cgroup");
	ck_assert_str_eq(fs, "tmpfs");
	ck_assert_int_eq(cgroup_mount_of(hybrid_mountinfo, "/sys/fs/cgroup/cpu/x", mnt, fs, opts), 0);
	ck_assert_str_eq(fs, "cgroup");
	ck_assert_str_eq(opts, "rw,cpu");
	ck_assert_int_eq(cgroup_mount_of(hybrid_mountinfo, "/tmp", mnt, fs, opts), 0);
	ck_assert_str_eq(mnt, "/");
	/* the first cgroup2 mount; none in a v1-only table */
	ck_assert_int_eq(cgroup_mount_of(hybrid_mountinfo, NULL, mnt, fs, opts), 0);
	ck_assert_str_eq(mnt, UNIFIED);
	static const char v1_only[] = "31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n";
	ck_assert_int_eq(cgroup_mount_of(v1_only, NULL, mnt, fs, opts), -1);
	/* an escaped space in a mount point */
	ck_assert_int_eq(cgroup_mount_of("9 1 0:5 / /mnt/c\\040g rw - cgroup2 cgroup2 rw\n", "/mnt/c g/x", mnt, fs, opts), 0);
	ck_assert_str_eq(mnt, "/mnt/c g");
}
END_TEST

/* An existing cgroup, by every spelling: absolute, relative, with slashes and dots; its facts
 * read; not created, so not removed. */
START_TEST(existing_cgroup)
{
	static const char *const spellings[] = { UNIFIED "/a", "a", "a/", "./a", UNIFIED "//a/", UNIFIED "/dom/../a" };
	char err[2 * PATH_MAX];
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		struct cgplace cg;
		ck_assert_msg(resolve(spellings[i], &cg, err, sizeof(err)) == 0, "%s: %s", spellings[i], err);
		ck_assert_str_eq(cg.facts.path, UNIFIED "/a");
		char want[PATH_MAX];
		snprintf(want, sizeof(want), "%s" UNIFIED "/a", root);
		ck_assert_str_eq(cg.loc.dir, want);
		snprintf(want, sizeof(want), "%s" UNIFIED, root);
		ck_assert_str_eq(cg.loc.mount, want);
		ck_assert_int_eq(cg.loc.version, 2);
		ck_assert(!cg.facts.created);
		ck_assert_int_eq(cg.domain_fd, -1);
		cgplace_read_facts(&cg);
		ck_assert_str_eq(cg.facts.type, "domain");
		ck_assert_str_eq(cg.facts.cpu_weight, "1");
		ck_assert_str_eq(cg.facts.cpu_max, "50000 100000");
		ck_assert_str_eq(cg.facts.memory_max, "max");
		ck_assert_str_eq(cg.facts.cpuset_cpus_effective, "");
		ck_assert_str_eq(cg.facts.missing, "cpuset");
		ck_assert_int_eq(cgplace_release(&cg, 0, err, sizeof(err)), 0);
		ck_assert_int_eq(cg.dir_fd, -1);
		ck_assert(exists(UNIFIED "/a/cpu.weight"));
	}
	/* the test move wrote "0", the calling process, to its cgroup.procs */
	ck_assert_str_eq(got(UNIFIED "/a/cgroup.procs"), "0");
	/* the hierarchy's root itself */
	struct cgplace cg;
	ck_assert_msg(resolve(UNIFIED, &cg, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(cg.facts.path, UNIFIED);
	cgplace_read_facts(&cg);
	ck_assert_str_eq(cg.facts.missing, "cpuset");
	cgplace_release(&cg, 0, err, sizeof(err));
}
END_TEST

/* A threaded cgroup: the process goes to its threaded domain, the thread to it. */
START_TEST(threaded_cgroup)
{
	struct cgplace cg;
	char err[2 * PATH_MAX];
	ck_assert_msg(resolve("dom/t", &cg, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_ge(cg.domain_fd, 0);
	int fds[2];
	ck_assert_uint_eq(cgplace_fds(&cg, fds), 2);
	ck_assert_str_eq(got(UNIFIED "/dom/cgroup.procs"), "0");
	ck_assert_str_eq(got(UNIFIED "/dom/t/cgroup.threads"), "0");
	ck_assert_str_eq(got(UNIFIED "/dom/t/cgroup.procs"), "");
	cgplace_release(&cg, 0, err, sizeof(err));
	ck_assert_uint_eq(cgplace_fds(&cg, fds), 0);
	/* right below the hierarchy's root, which is its threaded domain (it has no cgroup.type) */
	put(UNIFIED "/top/cgroup.procs", "");
	put(UNIFIED "/top/cgroup.threads", "");
	put(UNIFIED "/top/cgroup.type", "threaded\n");
	ck_assert_msg(resolve("top", &cg, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(got(UNIFIED "/cgroup.procs"), "0");
	ck_assert_str_eq(got(UNIFIED "/top/cgroup.threads"), "0");
	cgplace_release(&cg, 0, err, sizeof(err));
	/* a threaded cgroup.threads that cannot be written: the move fails on it */
	put(UNIFIED "/dom/t2/cgroup.procs", "");
	put(UNIFIED "/dom/t2/cgroup.type", "threaded\n");
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s" UNIFIED "/dom/t2/cgroup.threads", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	refused("dom/t2", "moving a process there: Is a directory");
}
END_TEST

/* Every refusal: where the path is, how it is spelt, what is at its end. */
START_TEST(refusals)
{
	refused("/sys/fs/cgroup/cpu/x", "is in a cgroup v1 hierarchy (mounted at /sys/fs/cgroup/cpu, options rw,cpu); "
		"interbench places tasks in cgroup v2 only (accepted: a cgroup v2 path under " UNIFIED ", or one relative to it)");
	refused("/tmp/x", "is not in a cgroup v2 hierarchy (it is on ext4 mounted at /)");
	refused("/a", "is not in a cgroup v2 hierarchy (it is on ext4 mounted at /)"); /* absolute: not the mount's */
	refused("/sys/fs/cgroup/x", "is not in a cgroup v2 hierarchy (it is on tmpfs mounted at /sys/fs/cgroup)");
	refused("..", "leads out of the cgroup v2 mount ('..' above it, or another mount inside it)");
	refused("../cpu", "leads out of the cgroup v2 mount");
	refused(UNIFIED "/a/../../cpu/x", "leads out of the cgroup v2 mount");
	refused("link", "goes through a symbolic link");
	refused("link/x", "goes through a symbolic link");
	refused("a/cpu.weight", "a component of it is not a directory");
	refused("nope/x", "its parent " UNIFIED "/nope does not exist (accepted: an existing cgroup, or a new one under "
		"an existing parent)");
	/* a FIFO planted as cgroup.procs: the test move fails at once (no reader), nothing hangs */
	refused("fifo", "moving a process there: No such device or address");
	refused("isdir", "moving a process there: Is a directory");
	/* a directory that is no cgroup */
	put(UNIFIED "/plain/x", "");
	refused("plain", "is not a cgroup (no cgroup.procs in it)");
}
END_TEST

/* A missing last component is made, and removed again when the cgroup is refused afterwards:
 * here a plain directory, which holds no cgroup.procs (cgroupfs would have made one). */
START_TEST(created_then_refused_is_removed)
{
	ck_assert(!exists(UNIFIED "/a/new"));
	refused("a/new", "is not a cgroup");
	ck_assert(!exists(UNIFIED "/a/new"));
	ck_assert(exists(UNIFIED "/a/cgroup.procs"));
	/* "." and ".." are never made */
	refused("nope/..", "does not exist");
}
END_TEST

/* Without a unified hierarchy, a relative path has nothing to be relative to. */
START_TEST(no_cgroup_v2)
{
	put("proc/self/mountinfo", "31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
	put("proc/self/cgroup", "1:cpu:/\n");
	refused("a", "a relative path is taken under the cgroup v2 mount, and none is mounted here (accepted: cgroup v2, "
		"which no mount here provides (no cgroup2 in /proc/self/mountinfo))");
	refused("/sys/fs/cgroup/cpu", "is in a cgroup v1 hierarchy");
	put("proc/self/mountinfo", "");
	refused("a", "none is mounted here");
}
END_TEST

/* In a container: the unified hierarchy mounted from the cgroup namespace's root, or a
 * subtree of the host's bind-mounted at /sys/fs/cgroup (mountinfo's root /docker/abc), as the
 * only cgroup mount; a relative path is below that mount either way. */
START_TEST(in_a_container)
{
	put("proc/self/mountinfo", "99 1 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n");
	put("proc/self/cgroup", "0::/docker/abc\n");
	put("sys/fs/cgroup/cgroup.procs", "");
	put("sys/fs/cgroup/ib/cgroup.procs", "");
	put("sys/fs/cgroup/ib/cgroup.type", "domain\n");
	struct cgplace cg;
	char err[2 * PATH_MAX];
	ck_assert_msg(resolve("ib", &cg, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(cg.facts.path, "/sys/fs/cgroup/ib");
	cgplace_release(&cg, 0, err, sizeof(err));
	ck_assert_msg(resolve("/sys/fs/cgroup/ib", &cg, err, sizeof(err)) == 0, "%s", err);
	cgplace_release(&cg, 0, err, sizeof(err));
	refused("/sys/fs/cgroup/../x", "leads out of the cgroup v2 mount");
	/* this process's cgroup outside the mount's root (a cgroup namespace not unshared): a
	 * relative path still goes below the one cgroup2 mount */
	put("proc/self/cgroup", "0::/elsewhere\n");
	ck_assert_msg(resolve("ib", &cg, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(cg.facts.path, "/sys/fs/cgroup/ib");
	cgplace_release(&cg, 0, err, sizeof(err));
}
END_TEST

/* The kernel's refusals of a move, in words: the rule each one applies. */
START_TEST(move_refusals_in_words)
{
	struct cgplace cg = { .option = "--bench-cgroup" };
	char buf[512];
	snprintf(cg.facts.type, sizeof(cg.facts.type), "domain invalid");
	cgplace_move_refusal(EBUSY, &cg, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "(Device or resource busy)") && strstr(buf, "the no-internal-process rule") &&
		      strstr(buf, "name a leaf cgroup"), "%s", buf);
	cgplace_move_refusal(EOPNOTSUPP, &cg, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "its cgroup.type is 'domain invalid'") && strstr(buf, "echo threaded"), "%s", buf);
	cgplace_move_refusal(EACCES, &cg, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "not writable") && strstr(buf, "common ancestor"), "%s", buf);
	cgplace_move_refusal(ENOENT, &cg, buf, sizeof(buf));
	ck_assert_str_eq(buf, "moving a process there: No such file or directory");
}
END_TEST

/* A side's CPU lists against its cgroups' cpusets: refused only when a list holds none of a
 * cpuset's CPUs (its pins would fail); a side's own lists replace --cpus. */
START_TEST(cpus_against_the_cpuset)
{
	static struct cgplace_set sets[2];
	static struct options o;
	char err[256];
	sets[1].n = 1;
	snprintf(sets[1].v[0].facts.path, sizeof(sets[1].v[0].facts.path), UNIFIED "/hogs");
	snprintf(sets[1].v[0].facts.cpuset_cpus_effective, sizeof(sets[1].v[0].facts.cpuset_cpus_effective), "0-1");
	char *ok_args[] = { "interbench", "--load-cpus", "1/1-3", "--cpus", "2", NULL };
	options_init(&o);
	ck_assert_int_eq(options_parse(&o, 5, ok_args, err, sizeof(err)), OPT_OK);
	ck_assert_int_eq(mainproc_check_cgroup_cpus(&o, sets), 0);
	char *bad_args[] = { "interbench", "--load-cpus", "1/2-3", NULL };
	options_init(&o);
	ck_assert_int_eq(options_parse(&o, 3, bad_args, err, sizeof(err)), OPT_OK);
	ck_assert_int_eq(mainproc_check_cgroup_cpus(&o, sets), 2);
	char *cpus_args[] = { "interbench", "--cpus", "3", NULL };
	options_init(&o);
	ck_assert_int_eq(options_parse(&o, 3, cpus_args, err, sizeof(err)), OPT_OK);
	ck_assert_int_eq(mainproc_check_cgroup_cpus(&o, sets), 2);
	sets[1].v[0].facts.cpuset_cpus_effective[0] = '\0';  /* no cpuset controller: nothing to check */
	ck_assert_int_eq(mainproc_check_cgroup_cpus(&o, sets), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cgplace");
	TCase *tc = tcase_create("resolve");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, mount_of_path);
	tcase_add_test(tc, existing_cgroup);
	tcase_add_test(tc, threaded_cgroup);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, created_then_refused_is_removed);
	tcase_add_test(tc, no_cgroup_v2);
	tcase_add_test(tc, in_a_container);
	tcase_add_test(tc, cpus_against_the_cpuset);
	tcase_add_test(tc, move_refusals_in_words);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
