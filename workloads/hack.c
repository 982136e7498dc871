/* Hack: hackbench-style messaging.  -L groups, each of HACK_SENDERS sender and HACK_RECEIVERS
 * receiver threads; every receiver owns a socketpair and every sender of its group sends it
 * 100-byte messages.  Sockets are nonblocking and every wait is a poll with a timeout, so the
 * load is bounded by the socket buffers and always stops within HACK_POLL_MS. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "workloads/workload.h"

#define HACK_SENDERS 10
#define HACK_RECEIVERS 10
#define HACK_GROUP_THREADS (HACK_SENDERS + HACK_RECEIVERS)
#define HACK_MSG_BYTES 100
#define HACK_POLL_MS 100
#define HACK_COUNT_EVERY 256   /* messages a receiver counts locally before publishing */

/* What Hack counts: messages passed, each HACK_MSG_BYTES long. */
static const struct load_metric_info hack_messages = { "messages", "messages/s", 1, true };

struct hack_state {
	unsigned groups;
	int (*pairs)[2];   /* groups * HACK_RECEIVERS socketpairs: [0] receiver end, [1] senders' end */
};

static void hack_receive(struct load_ctx *ctx, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[HACK_MSG_BYTES];
	uint64_t bytes = 0;

	while (!atomic_load(&ctx->stop)) {
		if (poll(&pfd, 1, HACK_POLL_MS) <= 0)
			continue;
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0)
			bytes += (uint64_t)n;
		if (bytes >= HACK_COUNT_EVERY * HACK_MSG_BYTES) {
			load_count(ctx, &hack_messages, bytes / HACK_MSG_BYTES);
			bytes %= HACK_MSG_BYTES;
		}
	}
	load_count(ctx, &hack_messages, bytes / HACK_MSG_BYTES);
}

static void hack_send(struct load_ctx *ctx, int (*group)[2])
{
	struct pollfd pfd[HACK_RECEIVERS];
	char msg[HACK_MSG_BYTES];
	memset(msg, 'h', sizeof(msg));
	for (unsigned r = 0; r < HACK_RECEIVERS; r++)
		pfd[r] = (struct pollfd){ .fd = group[r][1], .events = POLLOUT };

	while (!atomic_load(&ctx->stop)) {
		if (poll(pfd, HACK_RECEIVERS, HACK_POLL_MS) <= 0)
			continue;
		for (unsigned r = 0; r < HACK_RECEIVERS; r++)
			if (pfd[r].revents & POLLOUT)
				(void)send(pfd[r].fd, msg, sizeof(msg), MSG_DONTWAIT | MSG_NOSIGNAL);
	}
}

static void *hack_worker(void *arg)
{
	struct load_worker *w = arg;
	struct hack_state *hs = w->ctx->run_priv;
	int (*group)[2] = &hs->pairs[w->index / HACK_GROUP_THREADS * HACK_RECEIVERS];
	unsigned role = w->index % HACK_GROUP_THREADS;

	if (role < HACK_RECEIVERS)
		hack_receive(w->ctx, group[role][0]);
	else
		hack_send(w->ctx, group);
	return NULL;
}

static void hack_free(struct hack_state *hs, unsigned npairs)
{
	for (unsigned i = 0; i < npairs; i++) {
		close(hs->pairs[i][0]);
		close(hs->pairs[i][1]);
	}
	free(hs->pairs);
	free(hs);
}

static int hack_start(struct load_ctx *ctx)
{
	struct hack_state *hs = calloc(1, sizeof(*hs));
	unsigned groups = ctx->cfg->threads ? ctx->cfg->threads : 1;
	if (groups > LOAD_MAX_THREADS / HACK_GROUP_THREADS)
		groups = LOAD_MAX_THREADS / HACK_GROUP_THREADS;
	if (!hs || !(hs->pairs = calloc((size_t)groups * HACK_RECEIVERS, sizeof(*hs->pairs)))) {
		free(hs);
		load_fail(ctx, ENOMEM, "calloc: %s", strerror(ENOMEM));
		return -1;
	}
	hs->groups = groups;
	for (unsigned i = 0; i < groups * HACK_RECEIVERS; i++)
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, hs->pairs[i]) != 0) {
			load_fail(ctx, errno, "socketpair: %s", strerror(errno));
			hack_free(hs, i);
			return -1;
		}
	ctx->run_priv = hs;
	if (load_threads_start(ctx, groups * HACK_GROUP_THREADS, hack_worker) != 0) {
		hack_free(hs, groups * HACK_RECEIVERS);
		ctx->run_priv = NULL;
		return -1;
	}
	return 0;
}

static void hack_stop(struct load_ctx *ctx)
{
	struct hack_state *hs = ctx->run_priv;
	load_threads_stop(ctx);
	hack_free(hs, hs->groups * HACK_RECEIVERS);
	ctx->run_priv = NULL;
}

static const struct load_ops hack_ops = { .start = hack_start, .stop = hack_stop };

const struct workload wl_hack = {
	.name = "Hack",
	.load_help = "hackbench-style messaging: -L groups of 10 senders and 10 receivers over socketpairs",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.load = &hack_ops,
	.metrics = (const struct load_metric_info *const[]){ &hack_messages, NULL },
};
