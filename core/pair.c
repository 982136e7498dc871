#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "lib/child.h"
#include "core/pair.h"
#include "lib/timeutil.h"

#define STOP_GRACE_MS 2000  /* a stopped child must report within this */
#define POLL_SLICE_MS 200   /* how often the window re-checks for a signal */

struct bench_arg { const struct pair_params *p; struct sim_result *res; };

static int bench_body(void *arg, int ctl_fd, int res_fd)
{
	struct bench_arg *b = arg;
	struct sim_engine *e = sim_start(&b->p->spec, &b->p->run_cfg, b->res);
	if (e) {
		child_control_priority(b->p->run_cfg.timer_prio);
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
		if (ctx->ops->start(ctx) == 0) {
			child_control_priority(p->run_cfg.timer_prio);
			child_wait_stop(ctl_fd);
			ctx->ops->stop(ctx);
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
		if (p->tick)
			p->tick(p->tick_arg, t);
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
	if (killed || e == ETIMEDOUT) /* strerror(ETIMEDOUT) would say "Connection timed out" */
		snprintf(why, whylen, "%s process did not report within %d ms%s", what, STOP_GRACE_MS,
			 killed ? " and was killed" : "");
	else if (e == EPIPE)
		snprintf(why, whylen, "%s process ended without a result (%s)", what, how);
	else
		snprintf(why, whylen, "reading the %s result: %s", what, strerror(e));
	return false;
}

/* Starts the bench beside the running load and watches the timed window, then collects the
 * bench's result into out.  Returns watch_window's verdict, or -3 when the bench could not be
 * forked (out->why says so). */
static int bench_window(const struct pair_params *p, struct child *kids[2], struct child *bench,
			struct pair_outcome *out)
{
	struct bench_arg barg = { .p = p, .res = &out->sim };
	if (child_spawn(bench, bench_body, &barg, NULL, 0) != 0) {
		snprintf(out->why, sizeof(out->why), "fork (bench): %s", strerror(errno));
		return -3;
	}
	kids[1] = bench;
	uint64_t t0_ns = now_ns();
	int spoke = watch_window(p, kids, t0_ns + p->duration_ns);
	out->window_ns = now_ns() - t0_ns;
	out->ok = collect(bench, &out->sim, sizeof(out->sim), "bench", out->why, sizeof(out->why));
	if (out->ok && out->sim.error) {
		out->ok = false;
		snprintf(out->why, sizeof(out->why), "bench: %s", out->sim.errmsg);
	}
	return spoke;
}

/* The pair's verdict once the bench succeeded (or never started): the load must have
 * reported, without error, and run through the whole window. */
static void load_verdict(const struct pair_params *p, struct pair_outcome *out, bool load_ok,
			 const char *load_why, int spoke, bool bench_started)
{
	out->ok = false;
	if (!load_ok)
		snprintf(out->why, sizeof(out->why), "%s", load_why);
	else if (out->load.error)
		snprintf(out->why, sizeof(out->why), "load %s: %s", p->load->name, out->load.errmsg);
	else if (spoke == 0)
		snprintf(out->why, sizeof(out->why), "load %s stopped before the end of the window",
			 p->load->name);
	else if (!bench_started)
		snprintf(out->why, sizeof(out->why), "interrupted before the bench started");
	else
		out->ok = true;
}

int pair_run(const struct pair_params *p, struct pair_outcome *out)
{
	struct child load, bench;
	memset(out, 0, sizeof(*out));

	const struct scratch_set *sc = p->load->cfg->scratch;
	int keep[SCRATCH_MAX];
	unsigned nkeep = 0;
	for (unsigned i = 0; sc && i < sc->n; i++) /* the load works through the run's scratch files */
		if (scratch_fd(sc, (int)i) >= 0)
			keep[nkeep++] = scratch_fd(sc, (int)i);
	if (child_spawn(&load, load_body, (void *)p, keep, nkeep) != 0) {
		snprintf(out->why, sizeof(out->why), "fork (load %s): %s", p->load->name, strerror(errno));
		return -1;
	}
	struct child *kids[2] = { &load, NULL };
	int spoke = watch_window(p, kids, now_ns() + p->ramp_ns);
	if (spoke == -1)
		spoke = bench_window(p, kids, &bench, out);
	if (spoke == -3) {
		child_reap(&load, STOP_GRACE_MS);
		return -1;
	}
	out->interrupted = spoke == -2;
	char load_why[200] = "";
	bool load_ok = collect(&load, &out->load, sizeof(out->load), "load", load_why, sizeof(load_why));
	if (kids[1] && !out->ok)
		return 0; /* the bench's failure is the reason */
	load_verdict(p, out, load_ok, load_why, spoke, kids[1] != NULL);
	return 0;
}
