/* Another interbench run at the same time (see runlock.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host/runlock.h"

int runlock_open(const char *root, bool create, char *why, size_t whylen)
{
	char path[PATH_MAX];
	struct stat st;
	const int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	snprintf(path, sizeof(path), "%s%s", root, RUNLOCK_PATH);
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 2; tries++) {
		fd = open(path, flags);
		if (fd < 0 && errno == ENOENT && create)
			fd = open(path, flags | O_CREAT | O_EXCL, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int e = errno;
		snprintf(why, whylen, "open %s: %s", path, e == ELOOP ? "a symbolic link, not followed" : strerror(e));
		errno = e;
		return -1;
	}
	const char *bad = fstat(fd, &st) != 0 ? strerror(errno) : !S_ISREG(st.st_mode) ? "not a regular file" : NULL;
	if (bad) {
		snprintf(why, whylen, "%s: %s", path, bad);
		close(fd);
		return -1;
	}
	return fd;
}

int runlock_take(int fd, char *why, size_t whylen)
{
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = getpid(), .l_len = 1 };
	if (fcntl(fd, F_OFD_SETLK, &fl) != 0) {
		snprintf(why, whylen, "fcntl F_OFD_SETLK %s: %s", RUNLOCK_PATH, strerror(errno));
		return -1;
	}
	return 0;
}

/* The offset of a lock on fd conflicting with a write lock on [start, start + len) (len 0: to
 * the end), 0 when none, -1 on failure. */
static pid_t lock_in(int fd, off_t start, off_t len)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	if (fcntl(fd, F_OFD_GETLK, &fl) != 0)
		return -1;
	return fl.l_type == F_UNLCK ? 0 : (pid_t)fl.l_start;
}

pid_t runlock_other(int fd)
{
	pid_t self = getpid();
	pid_t below = self > 1 ? lock_in(fd, 1, self - 1) : 0;   /* pids start at 1 */
	return below != 0 ? below : lock_in(fd, (off_t)self + 1, 0);
}

pid_t runlock_check(const char *root, char *why, size_t whylen)
{
	int fd = runlock_open(root, false, why, whylen);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	pid_t other = runlock_other(fd);
	if (other < 0)
		snprintf(why, whylen, "fcntl F_OFD_GETLK %s: %s", RUNLOCK_PATH, strerror(errno));
	close(fd);
	return other;
}

int run_watch_start(struct run_watch *w, uint64_t now_ns, char *why, size_t whylen)
{
	*w = (struct run_watch){ .fd = runlock_open("", true, why, whylen), .next_ns = now_ns + RUN_WATCH_POLL_NS };
	if (w->fd < 0)
		return -1;
	if (runlock_take(w->fd, why, whylen) != 0) {
		run_watch_end(w);
		return -1;
	}
	pid_t other = runlock_other(w->fd);
	w->at_start = other > 0 ? other : 0;
	return 0;
}

void run_watch_poll(struct run_watch *w, uint64_t now_ns)
{
	if (w->fd < 0 || now_ns < w->next_ns || run_watch_seen(w))
		return;
	w->next_ns = now_ns + RUN_WATCH_POLL_NS;
	pid_t other = runlock_other(w->fd);
	if (other > 0)
		w->during = other;
}

pid_t run_watch_seen(const struct run_watch *w)
{
	return w->at_start ? w->at_start : w->during;
}

void run_watch_end(struct run_watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}
