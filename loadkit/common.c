#define _GNU_SOURCE
/* Shared plumbing for loads: worker threads, the Burn worker, simulated tasks run as loads,
 * the shared metrics and the throughput line. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "calibrate/calibrate.h"
#include "loadkit/load.h"

/* Every worker's body: wait at the gate, then run the load's function. */
static void *gated_worker(void *arg)
{
	struct load_threads *t = ((struct load_worker *)arg)->ctx->threads;
	pthread_mutex_lock(&t->gate_lock);
	while (!t->gate_open)
		pthread_cond_wait(&t->gate, &t->gate_lock);
	pthread_mutex_unlock(&t->gate_lock);
	return t->worker_fn(arg);
}

/* Names worker i of load `load` "ib-<load in lower case>-<i>" (comm: 15 bytes kept), so
 * ps, top and --explain's culprits say whose thread it is. */
static void name_worker(pthread_t tid, const char *load, unsigned i)
{
	char name[16];
	int n = snprintf(name, sizeof(name), "ib-%s-%u", load ? load : "load", i);
	for (int k = 3; k < n && k < (int)sizeof(name); k++)
		name[k] = (char)tolower((unsigned char)name[k]);
	pthread_setname_np(tid, name);
}

static void open_gate(struct load_threads *t)
{
	pthread_mutex_lock(&t->gate_lock);
	t->gate_open = true;
	pthread_cond_broadcast(&t->gate);
	pthread_mutex_unlock(&t->gate_lock);
}

/* A thread set for n workers running fn, gate closed; NULL when out of memory. */
static struct load_threads *threads_new(unsigned n, void *(*fn)(void *))
{
	struct load_threads *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tids = calloc(n ? n : 1, sizeof(*t->tids));
	t->workers = calloc(n ? n : 1, sizeof(*t->workers));
	if (!t->tids || !t->workers) {
		free(t->tids);
		free(t->workers);
		free(t);
		return NULL;
	}
	t->worker_fn = fn;
	pthread_mutex_init(&t->gate_lock, NULL); /* default attributes: cannot fail on Linux */
	pthread_cond_init(&t->gate, NULL);
	return t;
}

int load_threads_start(struct load_ctx *ctx, unsigned n, void *(*fn)(void *))
{
	if (n > LOAD_MAX_THREADS)
		n = LOAD_MAX_THREADS;
	atomic_store(&ctx->stop, false);
	ctx->threads = threads_new(n, fn);
	if (!ctx->threads) {
		load_fail(ctx, ENOMEM, "calloc: %s", strerror(ENOMEM));
		return -1;
	}
	struct load_threads *t = ctx->threads;
	for (unsigned i = 0; i < n; i++) {
		t->workers[i] = (struct load_worker){ .ctx = ctx, .index = i };
		int rc = pthread_create(&t->tids[i], NULL, gated_worker, &t->workers[i]);
		if (rc != 0) {
			load_fail(ctx, rc, "pthread_create: %s", strerror(rc));
			load_threads_stop(ctx);
			return -1;
		}
		t->n++;
		name_worker(t->tids[i], ctx->name, i);
	}
	open_gate(t);
	return 0;
}

void load_threads_stop(struct load_ctx *ctx)
{
	struct load_threads *t = ctx->threads;
	atomic_store(&ctx->stop, true);
	if (!t) /* never started, or already stopped */
		return;
	open_gate(t); /* workers still at the gate see the stop at once */
	for (unsigned i = 0; i < t->n; i++)
		pthread_join(t->tids[i], NULL);
	pthread_cond_destroy(&t->gate);
	pthread_mutex_destroy(&t->gate_lock);
	free(t->tids);
	free(t->workers);
	free(t);
	ctx->threads = NULL;
}

void *burn_worker(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	uint64_t chunk = ctx->cfg->loops_per_ms; /* 1 ms of work between stop checks */

	while (!atomic_load(&ctx->stop)) {
		burn_loops(chunk);
		load_count(ctx, &load_metric_loops, chunk / 1000);
	}
	return NULL;
}

int load_sim_start(struct load_ctx *ctx)
{
	struct sim_run_cfg cfg = { .loops_per_ms = ctx->cfg->loops_per_ms };
	ctx->sim_result = malloc(sizeof(*ctx->sim_result));
	if (!ctx->sim_result) {
		load_fail(ctx, ENOMEM, "malloc: %s", strerror(ENOMEM));
		return -1;
	}
	ctx->engine = sim_start(&ctx->sim_spec, &cfg, ctx->sim_result);
	if (!ctx->engine) {
		load_fail(ctx, ctx->sim_result->error, "%s", ctx->sim_result->errmsg);
		free(ctx->sim_result);
		ctx->sim_result = NULL;
		return -1;
	}
	return 0;
}

bool load_sim_ready(struct load_ctx *ctx)
{
	return ctx->engine != NULL;
}

bool load_is_ready(struct load_ctx *ctx)
{
	if (ctx->ops->ready)
		return ctx->ops->ready(ctx);
	for (unsigned i = 0; i < LOAD_MAX_METRICS && ctx->metrics && ctx->metrics[i]; i++)
		if (__atomic_load_n(&ctx->counters.count[i], __ATOMIC_RELAXED) == 0)
			return false;
	return true;
}

void load_sim_stop(struct load_ctx *ctx)
{
	sim_stop(ctx->engine);
	ctx->engine = NULL;
	const struct deadline_acct *a = &ctx->sim_result->acct;
	load_count(ctx, &load_metric_wakeups, a->periods - a->skipped); /* woken only */
	load_count(ctx, &load_metric_loops,
		   (a->work_done_us * ctx->cfg->loops_per_ms / 1000 + ctx->sim_result->aside_loops) / 1000);
	free(ctx->sim_result);
	ctx->sim_result = NULL;
}

void load_fail(struct load_ctx *ctx, int err, const char *fmt, ...)
{
	int none = 0;
	if (!__atomic_compare_exchange_n(&ctx->counters.error, &none, err ? err : -1, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg), fmt, ap);
	va_end(ap);
}

const struct load_metric_info load_metric_written = { "bytes_written", "MB/s written", 1e-6, false };
const struct load_metric_info load_metric_read = { "bytes_read", "MB/s read", 1e-6, false };
const struct load_metric_info load_metric_loops = { "burn_loops_thousands", "loops/s", 1000, true };
const struct load_metric_info load_metric_wakeups = { "wakeups", "wakeups/s", 1, true };

/* Formats a rate with three significant figures ("12.3", "512", "2048"), with a K/M/G suffix
 * when si ("1.23M", "456K"). */
static void rate_human(double v, bool si, char *buf, size_t len)
{
	static const char sfx[] = " KMG";
	unsigned i = 0;
	while (si && v >= 999.5 && i < 3) {
		v /= 1000;
		i++;
	}
	int prec = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
	snprintf(buf, len, "%.*f%.*s", prec, v, i ? 1 : 0, &sfx[i]);
}

void load_throughput_format(const char *name, const struct load_metric_info *const *metrics,
			    const struct load_counters *c, char *buf, size_t len)
{
	double secs = (double)c->elapsed_ns / 1e9;
	size_t pos = 0;
	buf[0] = '\0';
	if (!metrics || !metrics[0] || len == 0)
		return;
	pos += (size_t)snprintf(buf, len, "%s", name);
	for (unsigned m = 0; m < LOAD_MAX_METRICS && metrics[m] && pos < len; m++) {
		char num[32];
		rate_human(secs > 0 ? (double)c->count[m] * metrics[m]->rate_scale / secs : 0, metrics[m]->si, num,
			   sizeof(num));
		pos += (size_t)snprintf(buf + pos, len - pos, "%s %s %s", m ? "," : "", num, metrics[m]->rate_unit);
	}
}
