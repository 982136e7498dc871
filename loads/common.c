/* Shared plumbing for loads: worker threads and simulated tasks run as loads. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "loads/load.h"

/* Every worker's body: wait at the gate, then run the load's function. */
static void *gated_worker(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	pthread_mutex_lock(&ctx->gate_lock);
	while (!ctx->gate_open)
		pthread_cond_wait(&ctx->gate, &ctx->gate_lock);
	pthread_mutex_unlock(&ctx->gate_lock);
	return ctx->worker_fn(arg);
}

static void open_gate(struct load_ctx *ctx)
{
	pthread_mutex_lock(&ctx->gate_lock);
	ctx->gate_open = true;
	pthread_cond_broadcast(&ctx->gate);
	pthread_mutex_unlock(&ctx->gate_lock);
}

int load_threads_start(struct load_ctx *ctx, unsigned n, void *(*fn)(void *))
{
	if (n > LOAD_MAX_THREADS)
		n = LOAD_MAX_THREADS;
	atomic_store(&ctx->stop, false);
	ctx->nthreads = 0;
	ctx->worker_fn = fn;
	ctx->gate_open = false;
	pthread_mutex_init(&ctx->gate_lock, NULL); /* default attributes: cannot fail on Linux */
	pthread_cond_init(&ctx->gate, NULL);
	ctx->gate_ready = true;
	for (unsigned i = 0; i < n; i++) {
		ctx->workers[i] = (struct load_worker){ .ctx = ctx, .index = i };
		int rc = pthread_create(&ctx->tids[i], NULL, gated_worker, &ctx->workers[i]);
		if (rc != 0) {
			ctx->counters.error = rc;
			snprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg),
				 "pthread_create: %s", strerror(rc));
			load_threads_stop(ctx);
			return -1;
		}
		ctx->nthreads++;
	}
	open_gate(ctx);
	return 0;
}

void load_threads_stop(struct load_ctx *ctx)
{
	atomic_store(&ctx->stop, true);
	if (!ctx->gate_ready) /* never started, or already stopped */
		return;
	open_gate(ctx); /* workers still at the gate see the stop at once */
	for (unsigned i = 0; i < ctx->nthreads; i++)
		pthread_join(ctx->tids[i], NULL);
	ctx->nthreads = 0;
	pthread_cond_destroy(&ctx->gate);
	pthread_mutex_destroy(&ctx->gate_lock);
	ctx->gate_ready = false;
}

int load_sim_start(struct load_ctx *ctx)
{
	const struct sim_desc *desc = ctx->desc->sim;
	struct sim_spec spec;
	struct sim_run_cfg cfg = { .loops_per_ms = ctx->cfg->loops_per_ms };
	sim_spec_init(&spec, desc, ctx->cfg->custom_interval_us, (unsigned)ctx->cfg->custom_cpu_pct);
	ctx->engine = sim_start(&spec, &cfg, &ctx->sim_result);
	if (!ctx->engine) {
		ctx->counters.error = ctx->sim_result.error;
		snprintf(ctx->counters.errmsg, sizeof(ctx->counters.errmsg), "%s", ctx->sim_result.errmsg);
		return -1;
	}
	return 0;
}

void load_sim_stop(struct load_ctx *ctx)
{
	sim_stop(ctx->engine);
	ctx->engine = NULL;
	ctx->counters.wakeups += ctx->sim_result.acct.periods - ctx->sim_result.acct.skipped; /* woken only */
	ctx->counters.loops += ctx->sim_result.acct.work_done_us * ctx->cfg->loops_per_ms / 1000 / 1000;
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

void load_throughput_format(const struct load_desc *d, const struct load_counters *c, char *buf, size_t len)
{
	static const struct { unsigned bit; double scale; bool si; const char *unit; } parts[] = {
		{ LOAD_REPORT_WRITTEN, 1e-6, false, "MB/s written" },
		{ LOAD_REPORT_READ, 1e-6, false, "MB/s read" },
		{ LOAD_REPORT_TOUCHED, 1, false, "MiB/s touched" },
		{ LOAD_REPORT_MESSAGES, 1, true, "messages/s" },
		{ LOAD_REPORT_LOOPS, 1000, true, "loops/s" },
		{ LOAD_REPORT_WAKEUPS, 1, true, "wakeups/s" },
	};
	const uint64_t counts[] = { c->bytes_written, c->bytes_read, c->mib_touched, c->messages,
				    c->loops, c->wakeups };
	double secs = (double)c->elapsed_ns / 1e9;
	size_t pos = 0;
	buf[0] = '\0';
	if (!d->reports || len == 0)
		return;
	pos += (size_t)snprintf(buf, len, "%s", d->name);
	for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]) && pos < len; i++) {
		if (!(d->reports & parts[i].bit))
			continue;
		char num[32];
		rate_human(secs > 0 ? (double)counts[i] * parts[i].scale / secs : 0, parts[i].si, num, sizeof(num));
		pos += (size_t)snprintf(buf + pos, len - pos, "%s %s %s", pos > strlen(d->name) ? "," : "",
					num, parts[i].unit);
	}
}
