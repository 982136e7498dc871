/* Placing the run's processes in a cgroup the user names (--bench-cgroup, --load-cgroup), as
 * rtla's -C places its measurement threads: cgroup v2 only.  The path is resolved under the
 * unified hierarchy's mount (an absolute path below it, or a path relative to it) with
 * openat2(2) RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV, so neither '..' nor a
 * link nor another mount leads out of it.  A missing last component is created (mkdir) under
 * its existing parent and removed at the end; a cgroup that existed is never removed.  Before
 * anything runs, a throwaway child is moved there and back out by exiting, so every rule the
 * kernel applies to the move (Documentation/admin-guide/cgroup-v2.rst: the no-internal-process
 * rule, domain and threaded cgroups, write access to the common ancestor's cgroup.procs in a
 * delegated subtree) is checked by the kernel itself, and refused with its reason.
 *
 * Controllers are never enabled: a cgroup whose parent's cgroup.subtree_control lacks cpu,
 * cpuset or memory has none of their files, and the run says so (cgplace_facts.missing).
 *
 * Everything takes a root prefix ("" for the real system, else a directory standing in for
 * "/", whose proc/self/mountinfo names the mounts), so tests can hand it a fake tree. */
#ifndef IB_CGPLACE_H
#define IB_CGPLACE_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "host/cgroup.h"

/* What a cgroup was at the start of the run, as the kernel wrote its files (the first line of
 * each, "" when the file is absent: its controller is not enabled there, or it is the root). */
struct cgplace_facts {
	char path[PATH_MAX];        /* where it is, as seen here ("/sys/fs/cgroup/ib"), without the root prefix */
	bool created;               /* interbench made it, and removes it at the end */
	char type[24];              /* cgroup.type: "domain", "domain threaded", "threaded"; "" in the root */
	char controllers[128];      /* cgroup.controllers: those enabled in it ("cpu memory pids") */
	char cpu_weight[16];        /* cpu.weight, 1..10000 (default 100) */
	char cpu_max[48];           /* cpu.max: "$MAX $PERIOD" in microseconds, "max 100000": no quota */
	char cpuset_cpus_effective[256]; /* cpuset.cpus.effective: the CPUs it may use ("0-3") */
	char memory_max[32];        /* memory.max: bytes, or "max" */
	char missing[32];           /* of cpu, cpuset and memory, those not in controllers ("cpu
	                               memory"); "" when all three are there */
};

/* A cgroup resolved for placement.  The descriptors are O_PATH ones the children use to enter
 * it (cgplace_enter) and main to read and remove it; -1 when unused. */
struct cgplace {
	const char *option;         /* "--bench-cgroup", "--load-cgroup": for messages */
	int dir_fd;                 /* the cgroup */
	int domain_fd;              /* a threaded cgroup's threaded domain (the nearest ancestor of
	                               type "domain threaded"), where the process goes; -1 else */
	int parent_fd;              /* its parent, kept when created (to remove it); -1 else */
	char leaf[NAME_MAX + 1];    /* its name in the parent, when created */
	struct cgroup_loc loc;      /* where it is as host/cgroup.h locates cgroups (version 2, the
	                               mount and the cgroup's directory, root prefix included) */
	struct cgplace_facts facts;
};

/* The cgroups one option names (--bench-cgroup, --load-cgroup): one for the whole run, or
 * alternatives a sweep runs in turn. */
#define CGPLACE_ALTS_MAX 8
struct cgplace_set {
	unsigned n;                 /* resolved, in the order given */
	struct cgplace v[CGPLACE_ALTS_MAX];
};

/* Resolves args[0..n) (n at most CGPLACE_ALTS_MAX), option's values, into set under root, each
 * as cgplace_resolve, then reads its facts.  Returns 0, or -1 with err set and set emptied (the
 * cgroups it had created removed). */
int cgplace_set_resolve(const char *root, const char *option, const char *const *args, unsigned n,
			struct cgplace_set *set, char *err, size_t errlen);

/* cgplace_release of every cgroup of set, waiting at most wait_ms for each; set is empty after.
 * Calls warn(err) for each that stays.  Returns how many stay. */
unsigned cgplace_set_release(struct cgplace_set *set, int wait_ms, void (*warn)(const char *err));

/* cgplace_release_signal_safe of every cgroup of set.  Async-signal-safe. */
void cgplace_set_release_signal_safe(const struct cgplace_set *set);

/* Resolves arg, option's value, into cg under root: finds the mount of arg (an absolute path)
 * or the unified hierarchy (a relative one) in root's proc/self/mountinfo; refuses a cgroup v1
 * hierarchy, a path outside any cgroup2 mount, '..' climbing out, a symbolic link, another
 * mount, a missing parent; creates a missing last component (mode 0755); checks that it can be
 * entered: its cgroup.type, write access to cgroup.procs (cgroup.threads for a threaded one),
 * then a throwaway child moved into it (cgplace_enter).  A cgroup created and then refused is
 * removed again.  Returns 0 with cg ready, or -1 with err one line naming the option, the
 * value, why and what is accepted (cg then holds no descriptor). */
int cgplace_resolve(const char *root, const char *option, const char *arg, struct cgplace *cg, char *err,
		    size_t errlen);

/* f's settings in words, as the run header states them: "cpu.weight 1, cpu.max max 100000,
 * cpuset.cpus.effective 0-1, memory.max max", each file that is not there left out, then the
 * controllers not enabled ("; controllers not enabled in it: cpuset").  Returns buf. */
const char *cgplace_facts_text(const struct cgplace_facts *f, char *buf, size_t len);

/* Reads cg's facts (cgplace_facts) from its files now.  Never fails: an unreadable file is "". */
void cgplace_read_facts(struct cgplace *cg);

/* In a child that has only its one thread (right after fork): moves the calling process into
 * cg, writing "0" to its cgroup.procs, or for a threaded cgroup the process to its threaded
 * domain's cgroup.procs and the thread to cg's cgroup.threads; the threads it starts later are
 * born there.  Async-signal-safe.  Returns 0, or -1 with errno set and err naming the file. */
int cgplace_enter(const struct cgplace *cg, char *err, size_t errlen);

/* The descriptors a child needs to enter cg, into fds (room for 2).  Returns their count. */
unsigned cgplace_fds(const struct cgplace *cg, int fds[2]);

/* Why the kernel refused a move into cg with errno e, in words (the rule it applies), into buf. */
void cgplace_move_refusal(int e, const struct cgplace *cg, char *buf, size_t len);

/* When cg was created: waits at most wait_ms for it to empty (cgroup.events "populated 0"),
 * then removes it.  Closes cg's descriptors either way.  Returns 0 (removed, or not ours), or
 * -1 with err saying why it stays (still populated, rmdir's error). */
int cgplace_release(struct cgplace *cg, int wait_ms, char *err, size_t errlen);

/* For a signal handler whose process is about to exit: when cg was created, kills what is in
 * it (cgroup.kill, Linux 5.14 and later), waits at most about a second for it to empty and
 * removes it.  Async-signal-safe; best effort. */
void cgplace_release_signal_safe(const struct cgplace *cg);

#endif
