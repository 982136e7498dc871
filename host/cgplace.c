/* Placing the run's processes in a cgroup the user names (see cgplace.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "host/cgplace.h"
#include "host/cgroup.h"

#define CGPLACE_POLL_MS 10          /* how often a release looks whether the cgroup emptied */
#define CGPLACE_SIGNAL_WAIT_MS 1000 /* how long a signal handler waits for it to empty */

/* Where a path resolves: the mount it is under and the path below it. */
struct cg_where {
	char mnt[PATH_MAX];  /* the cgroup2 mount point, as mountinfo names it */
	char rel[PATH_MAX];  /* the path below it, no leading or trailing '/'; "." for the mount */
};

/* Opens rel (relative, "." for dirfd itself) below dirfd as an O_PATH directory, refusing a
 * '..' above dirfd, a symbolic link and another mount (openat2(2)).  Returns the descriptor, or
 * -1 with errno set. */
static int open_beneath(int dirfd, const char *rel)
{
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
					   RESOLVE_NO_XDEV };
	return (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
}

/* Reads the first line of the file name in dirfd into buf ("" when it cannot be read).  Never
 * blocks: a FIFO planted there reads as nothing. */
static void read_line_at(int dirfd, const char *name, char *buf, size_t len)
{
	buf[0] = '\0';
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return;
	ssize_t got = read(fd, buf, len - 1);
	close(fd);
	buf[got > 0 ? got : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* Writes text to the file name in dirfd.  Async-signal-safe.  Returns 0, or -1 with errno. */
static int write_at(int dirfd, const char *name, const char *text)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	int e = errno;
	close(fd);
	if (w == (ssize_t)n)
		return 0;
	errno = w < 0 ? e : EIO;
	return -1;
}

/* Copies path below mnt into w->rel without its slashes at either end ("." when none). */
static void set_rel(struct cg_where *w, const char *below)
{
	below += strspn(below, "/");
	size_t n = strlen(below);
	while (n && below[n - 1] == '/')
		n--;
	if (n)
		snprintf(w->rel, sizeof(w->rel), "%.*s", (int)n, below);
	else
		strcpy(w->rel, ".");
}

/* The unified hierarchy's mount for a relative path: the one holding this process's cgroup,
 * else the first cgroup2 mount.  Returns 0, or -1 when none is mounted. */
static int v2_mount(const char *root, const char *mi, char *mnt)
{
	char fstype[PATH_MAX], opts[PATH_MAX];
	struct cgroup_loc loc;
	char *pc = cgroup_read_text(root, "/proc/self/cgroup");
	int rc = cgroup_locate(pc, mi, NULL, &loc);
	free(pc);
	if (rc == 0) {
		snprintf(mnt, PATH_MAX, "%s", loc.mount);
		return 0;
	}
	return cgroup_mount_of(mi, NULL, mnt, fstype, opts);
}

/* Where arg is: under a cgroup2 mount, or refused (a v1 hierarchy, no cgroup at all) with err. */
static int find_mount(const char *root, const char *mi, const char *option, const char *arg, struct cg_where *w,
		      char *err, size_t errlen)
{
	char fstype[PATH_MAX], opts[PATH_MAX], v2[PATH_MAX] = "";
	bool have_v2 = v2_mount(root, mi, v2) == 0;
	if (arg[0] != '/' && have_v2) {
		snprintf(w->mnt, sizeof(w->mnt), "%s", v2);
		set_rel(w, arg);
		return 0;
	}
	if (arg[0] == '/' && cgroup_mount_of(mi, arg, w->mnt, fstype, opts) == 0 && strcmp(fstype, "cgroup2") == 0) {
		set_rel(w, arg + (strcmp(w->mnt, "/") == 0 ? 0 : strlen(w->mnt)));
		return 0;
	}
	char where[PATH_MAX + 64];
	snprintf(where, sizeof(where), have_v2 ? "a cgroup v2 path under %s, or one relative to it" :
		 "cgroup v2, which no mount here provides (no cgroup2 in /proc/self/mountinfo)", v2);
	if (arg[0] != '/')
		snprintf(err, errlen, "%s '%s': a relative path is taken under the cgroup v2 mount, and none is "
			 "mounted here (accepted: %s)", option, arg, where);
	else if (strcmp(fstype, "cgroup") == 0)
		snprintf(err, errlen, "%s '%s': is in a cgroup v1 hierarchy (mounted at %s, options %s); interbench places "
			 "tasks in cgroup v2 only (accepted: %s)", option, arg, w->mnt, opts, where);
	else
		snprintf(err, errlen, "%s '%s': is not in a cgroup v2 hierarchy (it is on %s mounted at %s) "
			 "(accepted: %s)", option, arg, fstype, w->mnt, where);
	return -1;
}

/* Says why openat2 refused a path below mount m (errno e) into err. */
static void resolve_refusal(int e, const char *option, const char *arg, const char *m, char *err, size_t errlen)
{
	const char *why = e == EXDEV ? "leads out of the cgroup v2 mount ('..' above it, or another mount inside it)"
		: e == ELOOP ? "goes through a symbolic link"
		: e == ENOTDIR ? "a component of it is not a directory"
		: e == ENOSYS ? "openat2 is not implemented (Linux 5.6 or later resolves it safely)"
		: NULL;
	if (why)
		snprintf(err, errlen, "%s '%s': %s (accepted: a cgroup v2 path under %s, or one relative to it)", option, arg,
			 why, m);
	else
		snprintf(err, errlen, "%s '%s': openat2: %s", option, arg, strerror(e));
}

/* Opens w's cgroup into cg->dir_fd, creating its last component when it alone is missing.
 * Returns 0, or -1 with err set. */
static int open_or_create(struct cgplace *cg, int mfd, const struct cg_where *w, const char *arg, char *err,
			  size_t errlen)
{
	if ((cg->dir_fd = open_beneath(mfd, w->rel)) >= 0)
		return 0;
	char parent[PATH_MAX];
	const char *slash = strrchr(w->rel, '/'), *leaf = slash ? slash + 1 : w->rel;
	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - w->rel) : 1, slash ? w->rel : ".");
	int e = errno, pfd = -1;
	if (e != ENOENT || strcmp(leaf, "..") == 0 || strcmp(leaf, ".") == 0 || (pfd = open_beneath(mfd, parent)) < 0) {
		if (e == ENOENT && pfd < 0 && errno == ENOENT)
			snprintf(err, errlen, "%s '%s': its parent %s/%s does not exist (accepted: an existing cgroup, or a "
				 "new one under an existing parent)", cg->option, arg, w->mnt, parent);
		else
			resolve_refusal(e == ENOENT ? errno : e, cg->option, arg, w->mnt, err, errlen);
		return -1;
	}
	bool made = mkdirat(pfd, leaf, 0755) == 0;
	if (!made && errno != EEXIST) {
		snprintf(err, errlen, "%s '%s': not writable: mkdir: %s (accepted: an existing cgroup, or a new one under "
			 "a parent this user may create cgroups in)", cg->option, arg, strerror(errno));
		close(pfd);
		return -1;
	}
	cg->dir_fd = open_beneath(pfd, leaf);
	e = errno;
	if (made) { /* ours from now on: a refusal below removes it */
		cg->parent_fd = pfd;
		snprintf(cg->leaf, sizeof(cg->leaf), "%.*s", NAME_MAX, leaf); /* mkdir took it: it fits */
		cg->facts.created = true;
	} else {
		close(pfd);
	}
	if (cg->dir_fd < 0)
		resolve_refusal(e, cg->option, arg, w->mnt, err, errlen);
	return cg->dir_fd < 0 ? -1 : 0;
}

/* The path of descriptor fd as seen here, the root prefix cut off, into cg->facts.path. */
static void canonical_path(struct cgplace *cg, const char *root, const char *fallback)
{
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", cg->dir_fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	size_t rl = strlen(root);
	if (n <= 0) {
		snprintf(cg->facts.path, sizeof(cg->facts.path), "%s", fallback);
		return;
	}
	target[n] = '\0';
	snprintf(cg->facts.path, sizeof(cg->facts.path), "%s",
		 rl && strncmp(target, root, rl) == 0 && target[rl] == '/' ? target + rl : target);
}

/* For a threaded cgroup: opens its threaded domain (the nearest ancestor whose cgroup.type is
 * "domain threaded", or the hierarchy's root, which has no cgroup.type and is the domain of
 * threaded cgroups right below it) below mfd into cg->domain_fd.  rel is the cgroup's path
 * below the mount.  Returns 0, or -1. */
static int open_domain(struct cgplace *cg, int mfd, const char *rel)
{
	char up[PATH_MAX], type[24];
	snprintf(up, sizeof(up), "%s", rel);
	for (char *slash; (slash = strrchr(up, '/')) != NULL || strcmp(up, ".") != 0;) {
		if (slash)
			*slash = '\0';
		else
			strcpy(up, ".");
		int fd = open_beneath(mfd, up);
		if (fd < 0)
			return -1;
		read_line_at(fd, "cgroup.type", type, sizeof(type));
		if (strcmp(type, "domain threaded") == 0 || strcmp(up, ".") == 0) {
			cg->domain_fd = fd;
			return 0;
		}
		close(fd);
	}
	return -1;
}

void cgplace_move_refusal(int e, const struct cgplace *cg, char *buf, size_t len)
{
	const char *type = cg->facts.type[0] ? cg->facts.type : "unknown";
	if (e == EBUSY)
		snprintf(buf, len, "the kernel refused to move a process there (%s): it has controllers enabled in its "
			 "cgroup.subtree_control, and such a cgroup holds no processes (the no-internal-process rule); "
			 "name a leaf cgroup below it", strerror(e));
	else if (e == EOPNOTSUPP)
		snprintf(buf, len, "the kernel refused to move a process there (%s): its cgroup.type is '%s', which takes "
			 "no processes (a cgroup below a threaded one is 'domain invalid' until made threaded: echo "
			 "threaded > its cgroup.type)", strerror(e), type);
	else if (e == EACCES || e == EPERM)
		snprintf(buf, len, "not writable: moving a process there: %s (a user needs write access to its "
			 "cgroup.procs and to that of the common ancestor of interbench's cgroup and this one, as in a "
			 "subtree delegated to them)", strerror(e));
	else
		snprintf(buf, len, "moving a process there: %s", strerror(e));
}

/* cgplace_enter without words: 0, the errno of the write to cgroup.procs, or minus that of the
 * write to cgroup.threads.  Async-signal-safe. */
static int enter(const struct cgplace *cg)
{
	if (write_at(cg->domain_fd >= 0 ? cg->domain_fd : cg->dir_fd, "cgroup.procs", "0") != 0)
		return errno;
	if (cg->domain_fd >= 0 && write_at(cg->dir_fd, "cgroup.threads", "0") != 0)
		return -errno;
	return 0;
}

/* Moves a throwaway child into cg (cgplace_enter), which then exits.  Returns 0, or the errno
 * of the refusal (EINTR-free), or -1 when the child could not be run (err set). */
static int try_move(const struct cgplace *cg, char *err, size_t errlen)
{
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "%s '%s': fork (a test move): %s", cg->option, cg->facts.path, strerror(errno));
		return -1;
	}
	if (pid == 0) { /* nothing but system calls: main may have threads (a lock held by one) */
		int e = enter(cg);
		e = e < 0 ? -e : e;
		_exit(e > 0 && e < 256 ? e : e ? EIO : 0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "%s '%s': waitpid (a test move): %s", cg->option, cg->facts.path, strerror(errno));
			return -1;
		}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	snprintf(err, errlen, "%s '%s': the test move's process died (status %d)", cg->option, cg->facts.path, status);
	return -1;
}

/* Whether cg can take the run's processes: its type, write access, then a test move.  Returns
 * 0, or -1 with err set. */
static int check_entry(struct cgplace *cg, int mfd, const char *rel, char *err, size_t errlen)
{
	const char *opt = cg->option, *path = cg->facts.path;
	char why[400];
	if (faccessat(cg->dir_fd, "cgroup.procs", F_OK, 0) != 0) {
		snprintf(err, errlen, "%s '%s': is not a cgroup (no cgroup.procs in it) (accepted: a cgroup v2 directory)",
			 opt, path);
		return -1;
	}
	read_line_at(cg->dir_fd, "cgroup.type", cg->facts.type, sizeof(cg->facts.type));
	bool threaded = strcmp(cg->facts.type, "threaded") == 0;
	if (threaded && open_domain(cg, mfd, rel) != 0) {
		snprintf(err, errlen, "%s '%s': is a threaded cgroup with no threaded domain above it", opt, path);
		return -1;
	}
	const char *file = threaded ? "cgroup.threads" : "cgroup.procs";
	bool domain_ok = !threaded || faccessat(cg->domain_fd, "cgroup.procs", W_OK, AT_EACCESS) == 0;
	if (!domain_ok || faccessat(cg->dir_fd, file, W_OK, AT_EACCESS) != 0) {
		snprintf(err, errlen, "%s '%s': not writable: %s: %s (accepted: a cgroup whose %s this user may write)", opt,
			 path, domain_ok ? file : "its threaded domain's cgroup.procs", strerror(errno), file);
		return -1;
	}
	int e = try_move(cg, err, errlen);
	if (e <= 0)
		return e;
	cgplace_move_refusal(e, cg, why, sizeof(why));
	snprintf(err, errlen, "%s '%s': %s", opt, path, why);
	return -1;
}

int cgplace_resolve(const char *root, const char *option, const char *arg, struct cgplace *cg, char *err,
		    size_t errlen)
{
	memset(cg, 0, sizeof(*cg));
	cg->option = option;
	cg->dir_fd = cg->domain_fd = cg->parent_fd = -1;
	struct cg_where w;
	char *mi = cgroup_read_text(root, "/proc/self/mountinfo");
	if (!mi) {
		snprintf(err, errlen, "%s '%s': cannot read /proc/self/mountinfo: %s", option, arg, strerror(errno));
		return -1;
	}
	int rc = find_mount(root, mi, option, arg, &w, err, errlen);
	free(mi);
	if (rc != 0)
		return -1;
	char mpath[PATH_MAX];
	if (snprintf(mpath, sizeof(mpath), "%s%s", root, w.mnt) >= (int)sizeof(mpath)) {
		snprintf(err, errlen, "%s '%s': %s: %s", option, arg, w.mnt, strerror(ENAMETOOLONG));
		return -1;
	}
	int mfd = open(mpath, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0) {
		snprintf(err, errlen, "%s '%s': open %s: %s", option, arg, w.mnt, strerror(errno));
		return -1;
	}
	rc = open_or_create(cg, mfd, &w, arg, err, errlen);
	if (rc == 0) {
		canonical_path(cg, root, arg);
		cg->loc.version = 2;
		snprintf(cg->loc.mount, sizeof(cg->loc.mount), "%s", mpath);
		if (snprintf(cg->loc.dir, sizeof(cg->loc.dir), "%s%s", root, cg->facts.path) >= (int)sizeof(cg->loc.dir)) {
			snprintf(err, errlen, "%s '%s': %s", option, arg, strerror(ENAMETOOLONG));
			rc = -1;
		}
	}
	if (rc == 0) {
		rc = check_entry(cg, mfd, w.rel, err, errlen);
	}
	close(mfd);
	if (rc != 0) {
		char ignored[8];
		cgplace_release(cg, 0, ignored, sizeof(ignored));
	}
	return rc;
}

/* Adds name to list (space-separated) when it is not among the words of have. */
static void note_missing(const char *have, const char *name, char *list, size_t len)
{
	size_t n = strlen(name);
	for (const char *p = have; (p = strstr(p, name)) != NULL; p += n)
		if ((p == have || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return;
	size_t used = strlen(list);
	snprintf(list + used, len - used, "%s%s", used ? " " : "", name);
}

void cgplace_read_facts(struct cgplace *cg)
{
	struct cgplace_facts *f = &cg->facts;
	read_line_at(cg->dir_fd, "cgroup.type", f->type, sizeof(f->type));
	read_line_at(cg->dir_fd, "cgroup.controllers", f->controllers, sizeof(f->controllers));
	read_line_at(cg->dir_fd, "cpu.weight", f->cpu_weight, sizeof(f->cpu_weight));
	read_line_at(cg->dir_fd, "cpu.max", f->cpu_max, sizeof(f->cpu_max));
	read_line_at(cg->dir_fd, "cpuset.cpus.effective", f->cpuset_cpus_effective, sizeof(f->cpuset_cpus_effective));
	read_line_at(cg->dir_fd, "memory.max", f->memory_max, sizeof(f->memory_max));
	f->missing[0] = '\0';
	static const char *const wanted[] = { "cpu", "cpuset", "memory" };
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
		note_missing(f->controllers, wanted[i], f->missing, sizeof(f->missing));
}

const char *cgplace_facts_text(const struct cgplace_facts *f, char *buf, size_t len)
{
	const struct { const char *file, *value; } v[] = { { "cpu.weight", f->cpu_weight }, { "cpu.max", f->cpu_max },
		{ "cpuset.cpus.effective", f->cpuset_cpus_effective }, { "memory.max", f->memory_max } };
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i].value[0] && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "", v[i].file, v[i].value);
	if (f->missing[0] && used < len)
		snprintf(buf + used, len - used, "%scontrollers not enabled in it: %s", used ? "; " : "", f->missing);
	return buf;
}

int cgplace_enter(const struct cgplace *cg, char *err, size_t errlen)
{
	int e = enter(cg);
	if (!e)
		return 0;
	bool threads = cg->domain_fd >= 0 && e < 0;
	e = e < 0 ? -e : e;
	snprintf(err, errlen, "write %s%s: %s", cg->facts.path, threads ? "/cgroup.threads" : cg->domain_fd >= 0 ?
		 "'s threaded domain's cgroup.procs" : "/cgroup.procs", strerror(e));
	errno = e;
	return -1;
}

unsigned cgplace_fds(const struct cgplace *cg, int fds[2])
{
	unsigned n = 0;
	if (cg && cg->dir_fd >= 0)
		fds[n++] = cg->dir_fd;
	if (cg && cg->domain_fd >= 0)
		fds[n++] = cg->domain_fd;
	return n;
}

/* Whether cgroup.events in dirfd says it holds no process ("populated 0"); a missing file
 * counts as empty.  Async-signal-safe. */
static bool unpopulated(int dirfd)
{
	char buf[128];
	int fd = openat(dirfd, "cgroup.events", O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return true;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n <= 0 || strstr(buf, "populated 1") == NULL;
}

/* Sleeps CGPLACE_POLL_MS.  Async-signal-safe. */
static void poll_pause(void)
{
	struct timespec ts = { 0, CGPLACE_POLL_MS * 1000000L };
	nanosleep(&ts, NULL);
}

/* Removes cg's directory when it is ours, once it is empty, waiting at most wait_ms for that.
 * Returns 0, or -1 with errno (EBUSY: still populated).  Async-signal-safe. */
static int remove_created(const struct cgplace *cg, int wait_ms)
{
	if (!cg->facts.created || cg->parent_fd < 0)
		return 0;
	for (int waited = 0;; waited += CGPLACE_POLL_MS) {
		if (cg->dir_fd < 0 || unpopulated(cg->dir_fd)) {
			if (unlinkat(cg->parent_fd, cg->leaf, AT_REMOVEDIR) == 0)
				return 0;
			if (errno != EBUSY)
				return -1;
		}
		if (waited >= wait_ms) {
			errno = EBUSY;
			return -1;
		}
		poll_pause();
	}
}

int cgplace_release(struct cgplace *cg, int wait_ms, char *err, size_t errlen)
{
	int rc = remove_created(cg, wait_ms);
	if (rc != 0)
		snprintf(err, errlen, "%s: left %s, which interbench created: %s", cg->option, cg->facts.path,
			 errno == EBUSY ? "processes are still in it (cgroup.events: populated 1)" : strerror(errno));
	int *fds[] = { &cg->dir_fd, &cg->domain_fd, &cg->parent_fd };
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	cg->facts.created = false;
	return rc;
}

int cgplace_set_resolve(const char *root, const char *option, const char *const *args, unsigned n,
			struct cgplace_set *set, char *err, size_t errlen)
{
	set->n = 0;
	for (unsigned i = 0; i < n && i < CGPLACE_ALTS_MAX; i++) {
		if (cgplace_resolve(root, option, args[i], &set->v[i], err, errlen) != 0) {
			cgplace_set_release(set, 0, NULL);
			return -1;
		}
		cgplace_read_facts(&set->v[i]);
		set->n = i + 1;  /* after it is whole: a signal handler reads n */
	}
	return 0;
}

unsigned cgplace_set_release(struct cgplace_set *set, int wait_ms, void (*warn)(const char *err))
{
	unsigned stay = 0;
	char err[PATH_MAX + 256];
	for (unsigned n = set->n; n > 0; n--) {
		set->n = n - 1;  /* before: a signal handler never sees it half released */
		if (cgplace_release(&set->v[n - 1], wait_ms, err, sizeof(err)) != 0) {
			stay++;
			if (warn)
				warn(err);
		}
	}
	return stay;
}

void cgplace_set_release_signal_safe(const struct cgplace_set *set)
{
	for (unsigned i = 0; i < set->n && i < CGPLACE_ALTS_MAX; i++)
		cgplace_release_signal_safe(&set->v[i]);
}

void cgplace_release_signal_safe(const struct cgplace *cg)
{
	if (!cg->facts.created || cg->dir_fd < 0)
		return;
	int saved = errno;
	if (write_at(cg->dir_fd, "cgroup.kill", "1") != 0) { /* before Linux 5.14: the children die with main */ }
	remove_created(cg, CGPLACE_SIGNAL_WAIT_MS);
	errno = saved;
}
