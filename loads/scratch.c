/* Scratch file registry (see scratch.h). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "loads/scratch.h"

/* Returns the pid in an entry named SCRATCH_PREFIX tag "-" pid SCRATCH_SUFFIX, or 0. */
static pid_t stale_pid(const char *name, const char *tag)
{
	size_t pl = strlen(SCRATCH_PREFIX), tl = strlen(tag);
	if (strncmp(name, SCRATCH_PREFIX, pl) != 0 || strncmp(name + pl, tag, tl) != 0 || name[pl + tl] != '-')
		return 0;
	const char *digits = name + pl + tl + 1;
	char *end;
	errno = 0;
	long pid = strtol(digits, &end, 10);
	if (end == digits || *digits < '0' || *digits > '9' || errno || pid <= 0 || strcmp(end, SCRATCH_SUFFIX) != 0)
		return 0;
	return (pid_t)pid;
}

/* Removes dir's scratch files of tag whose process is gone (or is this process). */
static int remove_stale(const char *dir, const char *tag, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "opendir %s: %s", dir, strerror(errno));
		return -1;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		pid_t pid = stale_pid(e->d_name, tag);
		if (pid == 0 || (pid != getpid() && (kill(pid, 0) == 0 || errno != ESRCH)))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) != 0 && errno != ENOENT)
			fprintf(stderr, "interbench: warning: unlink %s/%s: %s\n", dir, e->d_name, strerror(errno));
	}
	closedir(d);
	return 0;
}

int scratch_add(struct scratch_set *s, const char *dir, const char *tag, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/" SCRATCH_PREFIX "%s-%ld" SCRATCH_SUFFIX, dir, tag, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(path)) {
		snprintf(err, errlen, "scratch file name in %s is too long", dir);
		return -1;
	}
	if (remove_stale(dir, tag, err, errlen) != 0)
		return -1;
	for (unsigned i = 0; i < s->n; i++)
		if (strcmp(s->paths[i], path) == 0)
			return (int)i;
	if (s->n == SCRATCH_MAX) {
		snprintf(err, errlen, "more than %d scratch files", SCRATCH_MAX);
		return -1;
	}
	memcpy(s->paths[s->n], path, (size_t)n + 1);
	__atomic_store_n(&s->n, s->n + 1, __ATOMIC_RELEASE); /* the path first: see scratch.h */
	return (int)s->n - 1;
}

void scratch_remove(const struct scratch_set *s, int idx)
{
	if (idx < 0 || (unsigned)idx >= s->n)
		return;
	if (unlink(s->paths[idx]) != 0 && errno != ENOENT)
		fprintf(stderr, "interbench: warning: unlink %s: %s\n", s->paths[idx], strerror(errno));
}

void scratch_unlink_signal_safe(const struct scratch_set *s)
{
	unsigned n = __atomic_load_n(&s->n, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; i < n && i < SCRATCH_MAX; i++)
		unlink(s->paths[i]);
}
