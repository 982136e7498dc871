#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report/conout.h"
#include "lib/timeutil.h"

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

/* Writes what is queued, as much as the reader takes now.  Returns 0 (then c->len == c->done
 * when all of it went), or -1 with c->error set. */
static int drain_now(struct conout *c)
{
	while (c->done < c->len) {
		ssize_t n = write(c->fd, c->queue + c->done, c->len - c->done);
		if (n > 0)
			c->done += (size_t)n;
		else if (n < 0 && errno == EAGAIN)
			return 0;
		else if (n < 0 && errno != EINTR) {
			c->error = errno;
			return -1;
		}
	}
	c->len = c->done = 0;
	return 0;
}

/* Writes what is queued, waiting for the reader while it takes something at least every
 * CONOUT_STALL_MS and no stop signal arrives during the wait (*c->stop turning non-zero; a run
 * a signal cut short before still gets its lines to a reader that reads).  Returns 0 when all
 * of it went, 1 when the rest was dropped (c->dropped, c->why say how much and why), or -1
 * with c->error set. */
static int drain_bounded(struct conout *c)
{
	uint64_t deadline_ns = now_ns() + CONOUT_STALL_MS * NS_PER_MS;
	bool stopped_before = c->stop && *c->stop;
	for (;;) {
		size_t before = c->done;
		if (drain_now(c) != 0)
			return -1;
		if (c->len == 0)
			return 0;
		uint64_t t_ns = now_ns();
		if (c->done != before)
			deadline_ns = t_ns + CONOUT_STALL_MS * NS_PER_MS;
		const char *why = !stopped_before && c->stop && *c->stop ? "a stop signal arrived while waiting for the reader" :
				  t_ns >= deadline_ns ? "the reader took none of it for " CONOUT_STALL_TEXT : NULL;
		if (why) {
			c->dropped += c->len - c->done;
			c->why = why;
			c->len = c->done = 0;
			return 1;
		}
		struct pollfd pfd = { .fd = c->fd, .events = POLLOUT };
		int left_ms = (int)((deadline_ns - t_ns + NS_PER_MS - 1) / NS_PER_MS);
		if (poll(&pfd, 1, left_ms) < 0 && errno != EINTR) {  /* a signal: looked at above */
			c->error = errno;
			return -1;
		}
	}
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
		drain_now(c);
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

FILE *conout_open(struct conout *c, FILE *target, const volatile sig_atomic_t *stop)
{
	memset(c, 0, sizeof(*c));
	c->target = c->stream = target;
	c->stop = stop;
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

/* Says on stderr how much of the console was dropped and why, without waiting: through a
 * private non-blocking description when stderr is a terminal or a pipe (it may be the console
 * itself, or another reader that is not reading), dropped too when it takes nothing. */
static void note_dropped(const struct conout *c)
{
	char line[256];
	int len = snprintf(line, sizeof(line), "interbench: console: %zu bytes dropped: %s\n", c->dropped, c->why);
	int fd = open_private(STDERR_FILENO);
	if (fd < 0) {
		fputs(line, stderr);
		fflush(stderr);
		return;
	}
	ssize_t n = write(fd, line, (size_t)len);
	(void)n;  /* a note nobody can take is dropped too */
	close(fd);
}

int conout_finish(struct conout *c)
{
	if (c->fd < 0)
		return 0;
	fflush(c->stream);
	if (c->error)
		;
	else if (c->why)      /* gave up already: what came since goes only if taken at once */
		drain_now(c);
	else if (drain_bounded(c) == 1)
		note_dropped(c);
	if (c->error) {
		errno = c->error;
		return -1;
	}
	return 0;
}
