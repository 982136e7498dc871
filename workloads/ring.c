/* Ring: -L threads in a circle, each waking the next and going back to sleep, so the
 * scheduler sees a constant stream of wake-ups with almost no CPU work. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "workloads/workload.h"

#define RING_POLL_MS 100 /* stop is noticed within this */

struct ring_state {
	int pipes[LOAD_MAX_THREADS][2]; /* thread i reads pipes[i][0], writes pipes[(i+1)%n][1] */
	unsigned n;
};

static void *ring_worker(void *arg)
{
	struct load_worker *w = arg;
	struct load_ctx *ctx = w->ctx;
	struct ring_state *rs = ctx->run_priv;
	int in = rs->pipes[w->index][0], out = rs->pipes[(w->index + 1) % rs->n][1];
	struct pollfd pfd = { .fd = in, .events = POLLIN };
	char token;

	while (!atomic_load(&ctx->stop)) {
		if (poll(&pfd, 1, RING_POLL_MS) <= 0)
			continue;
		if (read(in, &token, 1) != 1)
			continue;
		load_count(ctx, &load_metric_wakeups, 1);
		while (write(out, &token, 1) < 0 && errno == EINTR)
			;
	}
	return NULL;
}

static void ring_close(struct ring_state *rs)
{
	for (unsigned i = 0; i < rs->n; i++) {
		close(rs->pipes[i][0]);
		close(rs->pipes[i][1]);
	}
	rs->n = 0;
}

static int ring_start(struct load_ctx *ctx)
{
	struct ring_state *rs = calloc(1, sizeof(*rs));
	if (!rs) {
		ctx->counters.error = ENOMEM;
		snprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg), "calloc: %s", strerror(ENOMEM));
		return -1;
	}
	unsigned n = ctx->cfg->threads < 2 ? 2 : ctx->cfg->threads;
	if (n > LOAD_MAX_THREADS)
		n = LOAD_MAX_THREADS;
	rs->n = 0;
	for (unsigned i = 0; i < n; i++) {
		if (pipe(rs->pipes[i]) != 0) {
			ctx->counters.error = errno;
			snprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg), "pipe: %s", strerror(errno));
			ring_close(rs);
			free(rs);
			return -1;
		}
		rs->n++;
	}
	if (write(rs->pipes[0][1], "x", 1) != 1) {
		ctx->counters.error = errno;
		snprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg), "write: %s", strerror(errno));
		ring_close(rs);
		free(rs);
		return -1;
	}
	ctx->run_priv = rs;
	if (load_threads_start(ctx, n, ring_worker) != 0) {
		ring_close(rs);
		free(rs);
		ctx->run_priv = NULL;
		return -1;
	}
	return 0;
}

static void ring_stop(struct load_ctx *ctx)
{
	load_threads_stop(ctx);
	ring_close(ctx->run_priv);
	free(ctx->run_priv);
	ctx->run_priv = NULL;
}

static const struct load_ops ring_ops = { .start = ring_start, .stop = ring_stop };

const struct workload wl_ring = {
	.name = "Ring",
	.load_help = "-L threads (at least 2) waking each other in a circle",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.load = &ring_ops,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_wakeups, NULL },
};
