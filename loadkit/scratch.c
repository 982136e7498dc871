/* Scratch file registry (see scratch.h). */
#define _GNU_SOURCE /* mkostemps */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/nbrandom.h"
#include "lib/text.h"
#include "loadkit/scratch.h"

/* Whether name is a scratch file of tag: SCRATCH_PREFIX tag "-" anything SCRATCH_SUFFIX. */
static bool tag_matches(const char *name, const char *tag)
{
	size_t pl = strlen(SCRATCH_PREFIX), tl = strlen(tag), nl = strlen(name), sl = strlen(SCRATCH_SUFFIX);
	return nl > pl + tl + 1 + sl && strncmp(name, SCRATCH_PREFIX, pl) == 0 &&
	       strncmp(name + pl, tag, tl) == 0 && name[pl + tl] == '-' &&
	       strcmp(name + nl - sl, SCRATCH_SUFFIX) == 0;
}

/* Removes entry name of dirfd when it is a regular file no live run holds locked. */
static void remove_if_stale(int dirfd, const char *dir, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0)
		return;      /* a symlink (ELOOP), gone, or not ours to open: left alone */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	    unlinkat(dirfd, name, 0) != 0 && errno != ENOENT)
		text_message(stderr, "interbench: warning: unlink %s/%s: %s", dir, name, strerror(errno));
	close(fd);   /* releases the lock */
}

/* Removes dir's stale scratch files of tag. */
static int remove_stale(const char *dir, const char *tag, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "opendir %s: %s", dir, strerror(errno));
		return -1;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (tag_matches(e->d_name, tag))
			remove_if_stale(dirfd(d), dir, e->d_name);
	closedir(d);
	return 0;
}

/* Replaces the XXXXXX before SCRATCH_SUFFIX at the end of path with random letters and
 * digits (as mkstemp(3) would). */
static void randomize_name(char *path)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[6];
	random_bytes_nonblocking(rnd, sizeof(rnd));   /* never blocking: the name is exclusive anyway */
	char *x = path + strlen(path) - strlen(SCRATCH_SUFFIX) - sizeof(rnd);
	for (size_t i = 0; i < sizeof(rnd); i++)
		x[i] = chars[rnd[i] % (sizeof(chars) - 1)];
}

/* Creates path's file already locked: an unnamed O_TMPFILE file in dir, flocked, then linked
 * under path (XXXXXX made random, again while the name is taken: link never replaces nor
 * follows what is there), so no other run can ever find it unlocked and take it for stale
 * (open(2), O_TMPFILE; linkat(2) through /proc/self/fd, AT_SYMLINK_FOLLOW).  Returns the
 * locked descriptor; -1 with errno EOPNOTSUPP, EISDIR or EINVAL where dir's filesystem or the
 * kernel (before 3.11) has no O_TMPFILE, ENOENT without /proc, or the failed call's. */
static int create_locked(const char *dir, char *path)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	char proc[32];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	int rc = flock(fd, LOCK_EX | LOCK_NB);
	for (int tries = 0; rc == 0 && tries < 100; tries++) {
		randomize_name(path);
		if ((rc = linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW)) == 0 || errno != EEXIST)
			break;
	}
	if (rc != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Whether errno after create_locked says O_TMPFILE cannot be had here (open(2): EISDIR on
 * kernels before 3.11, EOPNOTSUPP on a filesystem without it; EINVAL) or /proc is missing. */
static bool no_tmpfile(void)
{
	return errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL || errno == ENOENT;
}

/* Without O_TMPFILE: a name created exclusively (mkostemps), then locked.  Between the two a
 * concurrent run's stale-file cleanup could take the file; only there. */
static int create_then_lock(char *path, char *err, size_t errlen)
{
	int fd = mkostemps(path, (int)strlen(SCRATCH_SUFFIX), O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "create %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		snprintf(err, errlen, "flock %s: %s", path, strerror(errno));
		unlink(path);
		close(fd);
		return -1;
	}
	return fd;
}

/* Creates the file of entry s->n in dir (path and descriptor, locked).  Returns 0, or -1. */
static int create_entry(struct scratch_set *s, const char *dir, const char *tag, char *err, size_t errlen)
{
	char *path = s->paths[s->n];
	int n = snprintf(path, PATH_MAX, "%s/" SCRATCH_PREFIX "%s-XXXXXX" SCRATCH_SUFFIX, dir, tag);
	if (n < 0 || n >= PATH_MAX) {
		snprintf(err, errlen, "scratch file name in %s is too long", dir);
		return -1;
	}
	int fd = create_locked(dir, path);
	if (fd < 0 && no_tmpfile()) {
		snprintf(path, PATH_MAX, "%s/" SCRATCH_PREFIX "%s-XXXXXX" SCRATCH_SUFFIX, dir, tag);
		fd = create_then_lock(path, err, errlen);
	} else if (fd < 0) {
		snprintf(err, errlen, "create %s (O_TMPFILE, flock, linkat): %s", path, strerror(errno));
	}
	if (fd < 0)
		return -1;
	s->fds[s->n] = fd;
	s->removed[s->n] = false;
	snprintf(s->tags[s->n], SCRATCH_TAG_MAX, "%s", tag);
	return 0;
}

int scratch_add(struct scratch_set *s, const char *dir, const char *tag, char *err, size_t errlen)
{
	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->tags[i], tag) == 0 && !s->removed[i])
			return (int)i;
	if (strlen(tag) >= SCRATCH_TAG_MAX) {
		snprintf(err, errlen, "scratch tag '%s' is too long", tag);
		return -1;
	}
	if (s->n == SCRATCH_MAX) {
		snprintf(err, errlen, "more than %d scratch files", SCRATCH_MAX);
		return -1;
	}
	if (remove_stale(dir, tag, err, errlen) != 0 || create_entry(s, dir, tag, err, errlen) != 0)
		return -1;
	__atomic_store_n(&s->n, s->n + 1, __ATOMIC_RELEASE); /* the path first: see scratch.h */
	return (int)s->n - 1;
}

int scratch_fd(const struct scratch_set *s, int idx)
{
	if (idx < 0 || (unsigned)idx >= s->n || s->removed[idx])
		return -1;
	return s->fds[idx];
}

void scratch_remove(struct scratch_set *s, int idx)
{
	struct stat ours, now;
	if (idx < 0 || (unsigned)idx >= s->n || s->removed[idx])
		return;
	const char *path = s->paths[idx];
	if (fstat(s->fds[idx], &ours) == 0 && lstat(path, &now) == 0) {
		if (now.st_dev != ours.st_dev || now.st_ino != ours.st_ino)
			text_message(stderr, "interbench: warning: %s was replaced during the run; left as it is", path);
		else if (unlink(path) != 0 && errno != ENOENT)
			text_message(stderr, "interbench: warning: unlink %s: %s", path, strerror(errno));
	}
	__atomic_store_n(&s->removed[idx], true, __ATOMIC_RELEASE);
	close(s->fds[idx]);
	s->fds[idx] = -1;
}

void scratch_unlink_signal_safe(const struct scratch_set *s)
{
	unsigned n = __atomic_load_n(&s->n, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; i < n && i < SCRATCH_MAX; i++)
		if (!__atomic_load_n(&s->removed[i], __ATOMIC_ACQUIRE))
			unlink(s->paths[i]);
}
