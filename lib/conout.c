#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/conout.h"

/* A private non-blocking open file description of fd when it is a terminal or a pipe, or -1.
 * Reopening /proc/self/fd/N reaches the very terminal or pipe fd is on (checked by its
 * device and inode); a pipe without a reader refuses it (ENXIO). */
static int open_private(int fd)
{
	struct stat want, got;
	if (fstat(fd, &want) != 0 || !(S_ISFIFO(want.st_mode) || (S_ISCHR(want.st_mode) && isatty(fd))))
		return -1;
	char path[32];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int nfd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (nfd < 0)
		return -1;
	if (fstat(nfd, &got) != 0 || got.st_dev != want.st_dev || got.st_ino != want.st_ino ||
	    got.st_rdev != want.st_rdev) {
		close(nfd);
		return -1;
	}
	return nfd;
}

/* Writes what is queued, as much as the reader takes now (wait false) or all of it, waiting
 * for room (wait true).  Returns 0, or -1 with c->error set. */
static int drain(struct conout *c, bool wait)
{
	while (c->done < c->len) {
		ssize_t n = write(c->fd, c->queue + c->done, c->len - c->done);
		if (n > 0) {
			c->done += (size_t)n;
		} else if (n < 0 && errno == EAGAIN) {
			if (!wait)
				return 0;
			struct pollfd pfd = { .fd = c->fd, .events = POLLOUT };
			if (poll(&pfd, 1, -1) < 0 && errno != EINTR) {
				c->error = errno;
				return -1;
			}
		} else if (n < 0 && errno != EINTR) {
			c->error = errno;
			return -1;
		}
	}
	c->len = c->done = 0;
	return 0;
}

/* Appends size bytes to the queue.  Returns 0, or -1 with errno ENOMEM. */
static int enqueue(struct conout *c, const char *buf, size_t size)
{
	if (c->len + size > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		while (cap < c->len + size)
			cap *= 2;
		char *q = realloc(c->queue, cap);
		if (!q)
			return -1;
		c->queue = q;
		c->cap = cap;
	}
	memcpy(c->queue + c->len, buf, size);
	c->len += size;
	return 0;
}

/* The stream's write function (fopencookie(3)): queues, then writes what the reader takes.
 * A write error is reported as the stream's error, as a direct write would be. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
	struct conout *c = cookie;
	if (!c->error && enqueue(c, buf, size) != 0)
		c->error = ENOMEM;
	if (!c->error)
		drain(c, false);
	if (c->error) {
		errno = c->error;
		return -1;
	}
	return (ssize_t)size;
}

/* The console set up last, finished at exit (atexit(3) handlers run before stdio's streams
 * are flushed): a run that ends early, on an error, still delivers every line. */
static struct conout *g_at_exit;

static void finish_at_exit(void)
{
	if (g_at_exit)
		conout_finish(g_at_exit);
}

FILE *conout_open(struct conout *c, FILE *target)
{
	memset(c, 0, sizeof(*c));
	c->target = c->stream = target;
	fflush(target);
	c->fd = open_private(fileno(target));
	if (c->fd < 0)
		return target;
	FILE *f = fopencookie(c, "w", (cookie_io_functions_t){ .write = cookie_write });
	/* buffered as stdio buffers the console: by line on a terminal, in blocks on a pipe */
	if (!f || setvbuf(f, NULL, isatty(c->fd) ? _IOLBF : _IOFBF, BUFSIZ) != 0) {
		if (f)
			fclose(f);
		close(c->fd);
		c->fd = -1;
		return target;
	}
	if (!g_at_exit)
		atexit(finish_at_exit);
	g_at_exit = c;
	return c->stream = f;
}

int conout_finish(struct conout *c)
{
	if (c->fd < 0)
		return 0;
	fflush(c->stream);
	if (!c->error)
		drain(c, true);
	if (c->error) {
		errno = c->error;
		return -1;
	}
	return 0;
}
