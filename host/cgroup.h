/* Where this process's cgroups are: its cgroup directory in a controller's v1 hierarchy or in
 * the unified (v2) one, found from /proc/self/cgroup and /proc/self/mountinfo.  The parsing is
 * pure (cgroup_locate, cgroup_up); cgroup_locate_self and cgroup_read_text read the files, under
 * a root prefix so tests can hand them a fake tree. */
#ifndef IB_CGROUP_H
#define IB_CGROUP_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cgroup_loc {
	int version;          /* 1: a controller's own hierarchy, 2: the unified one */
	char mount[PATH_MAX]; /* where the hierarchy is mounted, e.g. "/sys/fs/cgroup/memory" */
	char dir[PATH_MAX];   /* the process's cgroup: mount plus its path below the mount's root */
};

/* Finds the process's cgroup directory.  proc_cgroup is the text of /proc/self/cgroup
 * ("hierarchy-id:controllers:path" lines), mountinfo the text of /proc/self/mountinfo
 * (proc(5)).  With controller set (e.g. "memory", "cpu"), the v1 hierarchy holding it (fs type
 * "cgroup" with the controller among its super options); with controller NULL, the unified
 * hierarchy ("0::" line, fs type "cgroup2").  The mount taken is the first of that hierarchy
 * whose root contains the process's path.  Returns 0 with loc filled, or -1 when the process
 * is in no such hierarchy, it is not mounted where the path is visible, the path climbs out
 * of its namespace ("/.."), or a path does not fit in PATH_MAX. */
int cgroup_locate(const char *proc_cgroup, const char *mountinfo, const char *controller,
		  struct cgroup_loc *loc);

/* The mount of mountinfo (proc(5)) holding path: the one whose mount point is the longest
 * prefix of path in whole components (the last such line when one is mounted over another),
 * its mount point into mnt, file system type ("cgroup2", "cgroup", "tmpfs") into fstype and
 * super options ("rw,cpu") into opts, each buffer PATH_MAX bytes.  With path NULL, the first
 * cgroup2 mount instead.  Returns 0, or -1 when there is none. */
int cgroup_mount_of(const char *mountinfo, const char *path, char *mnt, char *fstype, char *opts);

/* Moves loc->dir to its parent cgroup.  Returns false (loc unchanged) when loc->dir already is
 * the mount point, the highest cgroup visible here. */
bool cgroup_up(struct cgroup_loc *loc);

/* Reads the file root + path (root "" for the real system, else a directory standing in for
 * "/") into a malloc'd NUL-terminated string, at most 4 MiB.  Returns it, or NULL with errno
 * set (EFBIG when larger).  The caller frees it. */
char *cgroup_read_text(const char *root, const char *path);

/* cgroup_locate on root's proc/self/cgroup and proc/self/mountinfo; loc's paths include the
 * root prefix, so they can be opened directly.  Returns 0, or -1 (files unreadable, or as
 * cgroup_locate). */
int cgroup_locate_self(const char *root, const char *controller, struct cgroup_loc *loc);

/* What the process's cgroups allow it of the CPUs: the tightest CPU bandwidth quota of its
 * cgroup and its ancestors, the tightest realtime budget, and the CPUs of its cpuset.  Ancestors above the cgroup namespace's
 * root (a container's host side) are not visible and not counted. */
struct cgroup_cpu_limits {
	int64_t quota_us;          /* CPU time allowed per period, microseconds; -1: no quota */
	int64_t period_us;         /* the period the quota applies to, microseconds; 0: no quota */
	char quota_file[PATH_MAX]; /* the file setting it ("/sys/fs/cgroup/a/cpu.max"), "" without */
	char cpuset[256];          /* the cpuset's CPUs ("0-1"), "" when unknown */
	char cpuset_file[PATH_MAX]; /* where they were read, "" when unknown */
	int64_t rt_runtime_us;     /* CPU time its realtime tasks may use per rt_period_us on each
	                              CPU, microseconds (RT throttling); -1: unlimited */
	int64_t rt_period_us;      /* the period of rt_runtime_us, microseconds; 0: unknown */
	char rt_file[PATH_MAX];    /* the file setting it: a cgroup's cpu.rt_runtime_us or
	                              /proc/sys/kernel/sched_rt_runtime_us; "" when unknown */
};

/* The kernel's default realtime budget, 950000 us of each 1000000 us
 * (Documentation/scheduler/sched-rt-group.rst): a tighter one can throttle the run's realtime
 * timing thread, which the default leaves alone but for a runaway task. */
#define CGROUP_RT_DEFAULT_RUNTIME_US 950000
#define CGROUP_RT_DEFAULT_PERIOD_US 1000000

/* Whether lim's realtime budget is known and allows less of a CPU than the kernel's default. */
bool cgroup_rt_budget_tight(const struct cgroup_cpu_limits *lim);

/* Writes lim's realtime budget as "50000 us per 1000000 us (5 % of each CPU)", "unlimited" or
 * "unknown" into buf. */
void cgroup_rt_budget_text(const struct cgroup_cpu_limits *lim, char *buf, size_t len);

/* Parses the text of a v2 cpu.max: "$MAX $PERIOD" with $MAX "max" for no limit
 * (Documentation/admin-guide/cgroup-v2.rst, "cpu.max").  Returns 0 with *quota_us (-1 for
 * "max") and *period_us set, or -1 when the text is not of that form. */
int cgroup_parse_cpu_max(const char *text, int64_t *quota_us, int64_t *period_us);

/* Reads the CPU limits of the process's cgroups under root ("" for the real system, else a
 * directory standing in for "/"): every v2 cpu.max from its cgroup up to the mount, and
 * every v1 cpu.cfs_quota_us with its cpu.cfs_period_us (-1: no quota;
 * Documentation/scheduler/sched-bwc.rst), keeping the quota that allows the smallest share of
 * a CPU; the realtime budget from /proc/sys/kernel/sched_rt_runtime_us and
 * sched_rt_period_us and, where the kernel has RT group scheduling (CONFIG_RT_GROUP_SCHED), the
 * cpu.rt_runtime_us and cpu.rt_period_us of its cpu cgroup and its ancestors (v1 or v2),
 * keeping the smallest share; the cpuset's CPUs from v2 cpuset.cpus.effective, else v1
 * cpuset.cpus.  The file names kept are without the root prefix.  Never fails: what cannot be
 * read is left "none" (quota_us -1), unknown (rt_period_us 0) or "" (cpuset). */
void cgroup_cpu_limits_read(const char *root, struct cgroup_cpu_limits *lim);

/* Writes lim's quota as "5000 us per 100000 us (5 % of one CPU)" into buf, or "none". */
void cgroup_quota_text(const struct cgroup_cpu_limits *lim, char *buf, size_t len);

#endif
