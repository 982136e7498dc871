/* Locating this process's cgroups (see cgroup.h). */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "host/cgroup.h"

#define CGROUP_TEXT_MAX_BYTES (4u << 20) /* mountinfo of a host with thousands of mounts fits */
#define MOUNTINFO_FIELDS 16             /* the fields we look at come first; extra are ignored */

/* Whether token is one of the comma-separated items of list[0..len). */
static bool in_list(const char *list, size_t len, const char *token)
{
	size_t tl = strlen(token);
	for (size_t i = 0; i < len;) {
		size_t end = i;
		while (end < len && list[end] != ',')
			end++;
		if (end - i == tl && strncmp(list + i, token, tl) == 0)
			return true;
		i = end + 1;
	}
	return false;
}

/* Copies line's cgroup path (after the second ':') for the hierarchy wanted into path. */
static int cgroup_path_of(const char *proc_cgroup, const char *controller, char *path, size_t len)
{
	for (const char *line = proc_cgroup; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t ll = eol ? (size_t)(eol - line) : strlen(line);
		const char *c1 = memchr(line, ':', ll);
		const char *c2 = c1 ? memchr(c1 + 1, ':', ll - (size_t)(c1 + 1 - line)) : NULL;
		if (c2) {
			size_t clen = (size_t)(c2 - c1 - 1), plen = ll - (size_t)(c2 + 1 - line);
			bool want = controller ? in_list(c1 + 1, clen, controller)
				: (c1 - line == 1 && line[0] == '0' && clen == 0);
			if (want && plen < len) {
				memcpy(path, c2 + 1, plen);
				path[plen] = '\0';
				return 0;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return -1;
}

/* Decodes mountinfo's octal escapes ("\040" for a space) in place. */
static void unescape(char *s)
{
	char *out = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Splits line (modified) at spaces into at most MOUNTINFO_FIELDS fields; returns the count. */
static int split_fields(char *line, char **f)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " ", &save); t && n < MOUNTINFO_FIELDS;
	     t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	return n;
}

/* Whether path climbs out of the namespace's root (a "/.." component). */
static bool climbs_out(const char *path)
{
	for (const char *p = strstr(path, "/.."); p; p = strstr(p + 1, "/.."))
		if (p[3] == '\0' || p[3] == '/')
			return true;
	return false;
}

/* Checks one mountinfo line (modified) against the hierarchy wanted; on a match whose root
 * contains path, fills loc and returns 0. */
static int try_mount(char *line, const char *controller, const char *path, struct cgroup_loc *loc)
{
	char *f[MOUNTINFO_FIELDS];
	int n = split_fields(line, f), sep = 6;
	while (sep < n && strcmp(f[sep], "-") != 0)
		sep++;
	if (sep + 3 >= n)
		return -1;
	const char *fstype = f[sep + 1], *opts = f[sep + 3];
	bool match = controller ? strcmp(fstype, "cgroup") == 0 && in_list(opts, strlen(opts), controller)
		: strcmp(fstype, "cgroup2") == 0;
	if (!match)
		return -1;
	char *root = f[3], *mnt = f[4];
	unescape(root);
	unescape(mnt);
	size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
	if (strncmp(path, root, rl) != 0 || (path[rl] != '\0' && path[rl] != '/'))
		return -1;
	const char *rel = path + rl;
	if (strcmp(rel, "/") == 0)
		rel = "";
	int w1 = snprintf(loc->mount, sizeof(loc->mount), "%s", mnt);
	int w2 = snprintf(loc->dir, sizeof(loc->dir), "%s%s", mnt, rel);
	if (w1 < 0 || w2 < 0 || (size_t)w2 >= sizeof(loc->dir))
		return -1;
	loc->version = controller ? 1 : 2;
	return 0;
}

int cgroup_locate(const char *proc_cgroup, const char *mountinfo, const char *controller,
		  struct cgroup_loc *loc)
{
	char path[PATH_MAX], line[2 * PATH_MAX + 512];
	if (!proc_cgroup || !mountinfo || cgroup_path_of(proc_cgroup, controller, path, sizeof(path)) != 0 ||
	    path[0] != '/' || climbs_out(path))
		return -1;
	for (const char *l = mountinfo; *l;) {
		const char *eol = strchr(l, '\n');
		size_t ll = eol ? (size_t)(eol - l) : strlen(l);
		if (ll < sizeof(line)) {
			memcpy(line, l, ll);
			line[ll] = '\0';
			if (try_mount(line, controller, path, loc) == 0)
				return 0;
		}
		if (!eol)
			break;
		l = eol + 1;
	}
	return -1;
}

/* Whether the mount point mnt holds path: equal, or a prefix ending at a '/' of path. */
static bool mount_holds(const char *mnt, const char *path)
{
	size_t ml = strcmp(mnt, "/") == 0 ? 0 : strlen(mnt);
	return strncmp(path, mnt, ml) == 0 && (path[ml] == '\0' || path[ml] == '/');
}

int cgroup_mount_of(const char *mountinfo, const char *path, char *mnt, char *fstype, char *opts)
{
	char line[2 * PATH_MAX + 512];
	size_t best = 0;
	bool found = false;
	for (const char *l = mountinfo; l && *l;) {
		const char *eol = strchr(l, '\n');
		size_t ll = eol ? (size_t)(eol - l) : strlen(l);
		char *f[MOUNTINFO_FIELDS];
		int n = 0, sep = 6;
		if (ll < sizeof(line)) {
			memcpy(line, l, ll);
			line[ll] = '\0';
			n = split_fields(line, f);
		}
		while (sep < n && strcmp(f[sep], "-") != 0)
			sep++;
		if (sep + 3 < n) {
			unescape(f[4]);
			size_t ml = strlen(f[4]);
			bool take = path ? mount_holds(f[4], path) && ml >= best
				: !found && strcmp(f[sep + 1], "cgroup2") == 0;
			if (take && ml < PATH_MAX && strlen(f[sep + 1]) < PATH_MAX && strlen(f[sep + 3]) < PATH_MAX) {
				strcpy(mnt, f[4]);
				strcpy(fstype, f[sep + 1]);
				strcpy(opts, f[sep + 3]);
				best = ml;
				found = true;
			}
		}
		l = eol ? eol + 1 : NULL;
	}
	return found ? 0 : -1;
}

bool cgroup_up(struct cgroup_loc *loc)
{
	size_t ml = strlen(loc->mount);
	if (strcmp(loc->dir, loc->mount) == 0)
		return false;
	char *slash = strrchr(loc->dir, '/');
	if (!slash || (size_t)(slash - loc->dir) < ml)
		memcpy(loc->dir, loc->mount, ml + 1);
	else
		*slash = '\0';
	return true;
}

char *cgroup_read_text(const char *root, const char *path)
{
	char full[2 * PATH_MAX];
	if (snprintf(full, sizeof(full), "%s%s", root, path) >= (int)sizeof(full)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return NULL;
	size_t cap = 0, used = 0;
	char *buf = NULL;
	int e = 0;
	for (;;) {
		if (cap - used < 2) {
			char *more = cap < CGROUP_TEXT_MAX_BYTES ? realloc(buf, cap ? cap * 2 : 4096) : NULL;
			if (!more) {
				e = cap < CGROUP_TEXT_MAX_BYTES ? ENOMEM : EFBIG;
				break;
			}
			buf = more;
			cap = cap ? cap * 2 : 4096;
		}
		ssize_t got = read(fd, buf + used, cap - 1 - used);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			e = got < 0 ? errno : 0;
			break;
		}
		used += (size_t)got;
	}
	close(fd);
	if (e) {
		free(buf);
		errno = e;
		return NULL;
	}
	buf[used] = '\0';
	return buf;
}

int cgroup_locate_self(const char *root, const char *controller, struct cgroup_loc *loc)
{
	char *cg = cgroup_read_text(root, "/proc/self/cgroup");
	char *mi = cg ? cgroup_read_text(root, "/proc/self/mountinfo") : NULL;
	int rc = cgroup_locate(cg, mi, controller, loc);
	free(cg);
	free(mi);
	if (rc != 0 || !root[0])
		return rc;
	char mount[PATH_MAX], dir[PATH_MAX];
	if (snprintf(mount, sizeof(mount), "%s%s", root, loc->mount) >= (int)sizeof(mount) ||
	    snprintf(dir, sizeof(dir), "%s%s", root, loc->dir) >= (int)sizeof(dir))
		return -1;
	memcpy(loc->mount, mount, sizeof(mount));
	memcpy(loc->dir, dir, sizeof(dir));
	return 0;
}

int cgroup_parse_cpu_max(const char *text, int64_t *quota_us, int64_t *period_us)
{
	char max[32];
	long long period;
	int used = 0;
	if (sscanf(text, "%31s %lld%n", max, &period, &used) != 2 || period <= 0 || text[used + strspn(text + used, " \n")])
		return -1;
	char *end;
	long long q = strcmp(max, "max") == 0 ? -1 : strtoll(max, &end, 10);
	if (q == 0 || (q > 0 && *end) || (q < 0 && strcmp(max, "max") != 0))
		return -1;
	*quota_us = q;
	*period_us = period;
	return 0;
}

/* Reads a decimal integer from the file dir/name.  Returns 0, or -1 when unreadable or not a
 * number. */
static int read_int_file(const char *dir, const char *name, int64_t *v)
{
	char path[PATH_MAX + 64], *end;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *text = cgroup_read_text("", path);
	int rc = -1;
	if (text) {
		long long x = strtoll(text, &end, 10);
		if (end != text && (*end == '\0' || *end == '\n')) {
			*v = x;
			rc = 0;
		}
	}
	free(text);
	return rc;
}

/* Keeps us per period_us, set by file (root prefix cut off), in *kept_us, *kept_period_us and
 * kept_file when it allows less of a CPU than what they hold: nothing yet (*kept_period_us 0),
 * unlimited (*kept_us -1), or a larger share.  us -1 is unlimited: it replaces only nothing. */
static void keep_smaller_share(int64_t *kept_us, int64_t *kept_period_us, char kept_file[PATH_MAX], int64_t us,
			       int64_t period_us, const char *file)
{
	if (period_us <= 0 || us < -1)
		return;
	bool have = *kept_period_us > 0;
	if (have && (us < 0 || (*kept_us >= 0 && (double)us / (double)period_us >= (double)*kept_us / (double)*kept_period_us)))
		return;
	*kept_us = us;
	*kept_period_us = period_us;
	snprintf(kept_file, PATH_MAX, "%s", file);
}

/* Keeps a CPU quota (quota_us > 0; "max" and -1 are none) when tighter than lim's. */
static void keep_tighter(struct cgroup_cpu_limits *lim, int64_t quota_us, int64_t period_us, const char *file)
{
	if (quota_us > 0)
		keep_smaller_share(&lim->quota_us, &lim->period_us, lim->quota_file, quota_us, period_us, file);
}

/* One level's quota: v2 cpu.max, or v1 cpu.cfs_quota_us and cpu.cfs_period_us. */
static void level_quota(struct cgroup_cpu_limits *lim, const struct cgroup_loc *loc, size_t root_len)
{
	char path[PATH_MAX + 64];
	int64_t q, p;
	if (loc->version == 2) {
		snprintf(path, sizeof(path), "%s/cpu.max", loc->dir);
		char *text = cgroup_read_text("", path);
		if (text && cgroup_parse_cpu_max(text, &q, &p) == 0)
			keep_tighter(lim, q, p, path + root_len);
		free(text);
	} else if (read_int_file(loc->dir, "cpu.cfs_quota_us", &q) == 0 &&
		   read_int_file(loc->dir, "cpu.cfs_period_us", &p) == 0) {
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", loc->dir);
		keep_tighter(lim, q, p, path + root_len);
	}
}

/* Keeps a realtime budget (runtime_us -1: unlimited) when tighter than lim's. */
static void keep_tighter_rt(struct cgroup_cpu_limits *lim, int64_t runtime_us, int64_t period_us, const char *file)
{
	keep_smaller_share(&lim->rt_runtime_us, &lim->rt_period_us, lim->rt_file, runtime_us, period_us, file);
}

/* One cgroup's realtime budget (cpu.rt_runtime_us, cpu.rt_period_us: RT group scheduling). */
static void level_rt(struct cgroup_cpu_limits *lim, const struct cgroup_loc *loc, size_t root_len)
{
	char path[PATH_MAX + 64];
	int64_t r, p;
	if (read_int_file(loc->dir, "cpu.rt_runtime_us", &r) == 0 && read_int_file(loc->dir, "cpu.rt_period_us", &p) == 0) {
		snprintf(path, sizeof(path), "%s/cpu.rt_runtime_us", loc->dir);
		keep_tighter_rt(lim, r, p, path + root_len);
	}
}

/* The system's realtime budget (proc(5): /proc/sys/kernel/sched_rt_runtime_us). */
static void global_rt(struct cgroup_cpu_limits *lim, const char *root)
{
	char dir[PATH_MAX];
	int64_t r, p;
	snprintf(dir, sizeof(dir), "%s/proc/sys/kernel", root);
	if (read_int_file(dir, "sched_rt_runtime_us", &r) == 0 && read_int_file(dir, "sched_rt_period_us", &p) == 0)
		keep_tighter_rt(lim, r, p, "/proc/sys/kernel/sched_rt_runtime_us");
}

bool cgroup_rt_budget_tight(const struct cgroup_cpu_limits *lim)
{
	return lim->rt_period_us > 0 && lim->rt_runtime_us >= 0 &&
	       (double)lim->rt_runtime_us / (double)lim->rt_period_us <
		       (double)CGROUP_RT_DEFAULT_RUNTIME_US / CGROUP_RT_DEFAULT_PERIOD_US;
}

void cgroup_rt_budget_text(const struct cgroup_cpu_limits *lim, char *buf, size_t len)
{
	if (lim->rt_period_us <= 0)
		snprintf(buf, len, "unknown");
	else if (lim->rt_runtime_us < 0)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%" PRId64 " us per %" PRId64 " us (%.4g %% of each CPU)", lim->rt_runtime_us,
			 lim->rt_period_us, 100.0 * (double)lim->rt_runtime_us / (double)lim->rt_period_us);
}

/* Reads the cpuset's CPUs from dir/name into lim when there is none yet.  */
static void read_cpuset(struct cgroup_cpu_limits *lim, const char *dir, const char *name, size_t root_len)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *text = lim->cpuset[0] ? NULL : cgroup_read_text("", path);
	if (text && text[0] && text[0] != '\n') {
		snprintf(lim->cpuset, sizeof(lim->cpuset), "%.*s", (int)strcspn(text, "\n"), text);
		snprintf(lim->cpuset_file, sizeof(lim->cpuset_file), "%s", path + root_len);
	}
	free(text);
}

void cgroup_cpu_limits_read(const char *root, struct cgroup_cpu_limits *lim)
{
	struct cgroup_loc loc;
	size_t root_len = strlen(root);
	memset(lim, 0, sizeof(*lim));
	lim->quota_us = -1;
	global_rt(lim, root);
	if (cgroup_locate_self(root, NULL, &loc) == 0) {
		read_cpuset(lim, loc.dir, "cpuset.cpus.effective", root_len);
		do {
			level_quota(lim, &loc, root_len);
			level_rt(lim, &loc, root_len);
		} while (cgroup_up(&loc));
	}
	if (cgroup_locate_self(root, "cpu", &loc) == 0)
		do {
			level_quota(lim, &loc, root_len);
			level_rt(lim, &loc, root_len);
		} while (cgroup_up(&loc));
	if (cgroup_locate_self(root, "cpuset", &loc) == 0)
		read_cpuset(lim, loc.dir, "cpuset.cpus", root_len);
}

void cgroup_quota_text(const struct cgroup_cpu_limits *lim, char *buf, size_t len)
{
	if (lim->quota_us <= 0 || lim->period_us <= 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%" PRId64 " us per %" PRId64 " us (%.4g %% of one CPU)", lim->quota_us, lim->period_us,
			 100.0 * (double)lim->quota_us / (double)lim->period_us);
}
