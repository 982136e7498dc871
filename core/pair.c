#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "core/child.h"
#include "core/pair.h"
#include "core/timeutil.h"

#define STOP_GRACE_MS 2000  /* a stopped child must report within this */
#define POLL_SLICE_MS 200   /* how often the window re-checks for a signal */

struct bench_arg { const struct pair_params *p; struct sim_result *res; };

static int bench_body(void *arg, int ctl_fd, int res_fd)
{
	struct bench_arg *b = arg;
	struct sim_engine *e = sim_start(&b->p->spec, &b->p->run_cfg, b->res);
	if (e) {
		child_wait_stop(ctl_fd);
		sim_stop(e);
	}
	return fd_write_all(res_fd, b->res, sizeof(*b->res)) == 0 ? 0 : 1;
}

static int load_body(void *arg, int ctl_fd, int res_fd)
{
	const struct pair_params *p = arg;
	struct load_ctx *ctx = p->load;
	memset(&ctx->counters, 0, sizeof(ctx->counters));
	if (p->load_nice != 0 && setpriority(PRIO_PROCESS, 0, p->load_nice) != 0) {
		ctx->counters.error = errno;
		snprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg), "setpriority(%d): %s",
			 p->load_nice, strerror(errno));
	} else {
		uint64_t t0 = now_ns();
		if (ctx->desc->start(ctx) == 0) {
			child_wait_stop(ctl_fd);
			ctx->desc->stop(ctx);
		}
		ctx->counters.elapsed_ns = now_ns() - t0;
	}
	return fd_write_all(res_fd, &ctx->counters, sizeof(ctx->counters)) == 0 ? 0 : 1;
}

/* Waits until end_ns, returning early when a child's result pipe becomes readable or hung
 * up (it finished early: failed or died) or on a signal.  Returns the index of the child
 * that spoke (0 load, 1 bench), -1 at the end of the window, -2 when interrupted. */
static int watch_window(const struct pair_params *p, struct child *kids[2], uint64_t end_ns)
{
	for (;;) {
		if (p->interrupted && *p->interrupted)
			return -2;
		uint64_t t = now_ns();
		if (t >= end_ns)
			return -1;
		uint64_t left_ms = (end_ns - t + NS_PER_MS - 1) / NS_PER_MS;
		struct pollfd pfd[2];
		int n = 0;
		for (int i = 0; i < 2; i++)
			if (kids[i])
				pfd[n++] = (struct pollfd){ .fd = kids[i]->res_fd, .events = POLLIN };
		int rc = poll(pfd, (nfds_t)n, left_ms < POLL_SLICE_MS ? (int)left_ms : POLL_SLICE_MS);
		if (rc <= 0)
			continue;
		for (int i = 0, j = 0; i < 2; i++)
			if (kids[i] && pfd[j++].revents)
				return i;
	}
}

/* Reads a child's result after asking it to stop; on failure describes what happened. */
static bool collect(struct child *c, void *buf, size_t len, const char *what, char *why, size_t whylen)
{
	child_request_stop(c);
	int rc = fd_read_all(c->res_fd, buf, len, STOP_GRACE_MS);
	int e = errno;
	int killed = child_reap(c, STOP_GRACE_MS);
	if (rc == 0)
		return true;
	char how[96];
	child_describe_status(c->status, how, sizeof(how));
	if (killed)
		snprintf(why, whylen, "%s process did not report within %d ms and was killed", what, STOP_GRACE_MS);
	else if (e == EPIPE)
		snprintf(why, whylen, "%s process ended without a result (%s)", what, how);
	else
		snprintf(why, whylen, "reading the %s result: %s", what, strerror(e));
	return false;
}

int pair_run(const struct pair_params *p, struct pair_outcome *out)
{
	struct child load, bench;
	struct bench_arg barg = { .p = p, .res = &out->sim };
	memset(out, 0, sizeof(*out));

	if (child_spawn(&load, load_body, (void *)p) != 0) {
		snprintf(out->why, sizeof(out->why), "fork (load %s): %s", p->load->desc->name, strerror(errno));
		return -1;
	}
	struct child *kids[2] = { &load, NULL };
	int spoke = watch_window(p, kids, now_ns() + p->ramp_ns);
	uint64_t t0 = now_ns();
	if (spoke == -1) {
		if (child_spawn(&bench, bench_body, &barg) != 0) {
			snprintf(out->why, sizeof(out->why), "fork (bench): %s", strerror(errno));
			child_reap(&load, STOP_GRACE_MS);
			return -1;
		}
		kids[1] = &bench;
		spoke = watch_window(p, kids, now_ns() + p->duration_ns);
		out->window_ns = now_ns() - t0;
		bool bench_ok = collect(&bench, &out->sim, sizeof(out->sim), "bench", out->why, sizeof(out->why));
		out->ok = bench_ok;
		if (bench_ok && out->sim.error) {
			out->ok = false;
			snprintf(out->why, sizeof(out->why), "bench: %s", out->sim.errmsg);
		}
	}
	out->interrupted = spoke == -2;
	char lwhy[200] = "";
	bool load_ok = collect(&load, &out->load, sizeof(out->load), "load", lwhy, sizeof(lwhy));
	if (!out->ok && kids[1])
		return 0; /* the bench's failure is the reason */
	out->ok = false;
	if (!load_ok)
		snprintf(out->why, sizeof(out->why), "%s", lwhy);
	else if (out->load.error)
		snprintf(out->why, sizeof(out->why), "load %s: %s", p->load->desc->name, out->load.errmsg);
	else if (spoke == 0)
		snprintf(out->why, sizeof(out->why), "load %s stopped before the end of the window",
			 p->load->desc->name);
	else if (!kids[1])
		snprintf(out->why, sizeof(out->why), "interrupted before the bench started");
	else
		out->ok = true;
	return 0;
}
