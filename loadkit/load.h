/* Background loads' plumbing: the hooks a load implements (struct load_ops, listed in its
 * struct workload, workloads/), its context, worker threads and counters.  A load is prepared
 * in the main process (before any timed window: scratch files and the like), started and
 * stopped in its own child process, and cleaned up by main at the end of the run. */
#ifndef IB_LOAD_H
#define IB_LOAD_H
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "loadkit/probe.h"
#include "loadkit/scratch.h"
#include "engine/sim.h"

struct cgroup_loc; /* host/cgroup.h */

/* Upper bound for -L: thread counts and socketpairs stay far below RLIMIT_NOFILE's usual
 * hard limit (Hack uses 2 descriptors per sender/receiver pair, capped separately). */
#define LOAD_MAX_THREADS 1024
#define LOAD_MAX_METRICS 8 /* bound of a workload's metric list */

/* One thing a load counts, named with its unit.  A workload lists the metrics it counts
 * (struct workload.metrics); the shared ones below are defined once in loadkit/common.c, a
 * workload's own (Hack's messages) in its file.  Workers count with load_count(). */
struct load_metric_info {
	const char *json_key;  /* key under the JSON's load_work, e.g. "bytes_written" */
	const char *rate_unit; /* throughput unit, e.g. "MB/s written" (MB = 10^6 bytes) */
	double rate_scale;     /* count x rate_scale / seconds = the rate in rate_unit */
	bool si;               /* the rate takes a K/M/G suffix ("1.2M messages/s") */
};
extern const struct load_metric_info load_metric_written; /* bytes written, "MB/s written" */
extern const struct load_metric_info load_metric_read;    /* bytes read, "MB/s read" */
extern const struct load_metric_info load_metric_loops;   /* burn loops in thousands, "loops/s" */
extern const struct load_metric_info load_metric_wakeups; /* wake-ups passed, "wakeups/s" */

/* Settings of the run every load may read; filled by main.  A load's own settings are its
 * workload's options, in load_ctx.opts. */
struct load_config {
	unsigned threads;          /* -L: worker count for Burn, Ring, Hack (>= 1) */
	uint64_t loops_per_ms;
	const volatile sig_atomic_t *interrupted; /* main's signal flag, polled by prepare hooks */
	struct scratch_set *scratch; /* the run's scratch file registry (main's; loadkit/scratch.h) */
	/* The cgroup v2 the load processes enter (--load-cgroup, its first alternative), for what
	 * main says of them before they run (Memload's size in the header); NULL: main's own.  A
	 * load process itself reads the cgroup it is in. */
	const struct cgroup_loc *cgroup_v2;
};

/* Work a load did in one pair, sent back to main from the load process. */
struct load_counters {
	uint64_t elapsed_ns;       /* from start to stop */
	uint64_t count[LOAD_MAX_METRICS]; /* the work done, by position in load_ctx.metrics */
	int error;                 /* 0, or the errno of a failure that stopped the load */
	char errmsg[200];          /* names the call (and file) that failed */
};

struct load_ctx;
/* Argument of each worker thread started by load_threads_start. */
struct load_worker {
	struct load_ctx *ctx;
	unsigned index;   /* 0 .. n-1 */
};

/* A load's worker threads, allocated by load_threads_start in the load process. */
struct load_threads {
	pthread_t *tids;
	struct load_worker *workers;
	unsigned n;                       /* started */
	/* Workers wait at the gate until every one exists, so creating many threads is not
	 * starved by the ones already running. */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate;
	bool gate_open;
	void *(*worker_fn)(void *);       /* what each worker runs once the gate opens */
};

/* One load for a whole run.  Main fills the description part and runs prepare, after_pair
 * and cleanup on it; the load process gets a copy at fork and runs start and stop, whose
 * state (threads, engine, counters) lives and dies there. */
struct load_ctx {
	/* Description, set by main: */
	const char *name;                 /* the workload's name */
	const struct load_ops *ops;
	const struct load_config *cfg;
	const void *opts;                 /* the workload's own option values (its config) */
	const struct load_metric_info *const *metrics; /* what it counts, NULL-terminated */
	struct sim_spec sim_spec;         /* the simulated task it runs (sim_spec.desc NULL: none) */
	void *priv;                       /* state made by prepare (scratch file indices...) */
	struct probe_storage storage;     /* where a disk load's files live, set by its prepare
	                                     (loadkit/probe.h); fs "" for other loads */
	/* The load process's: */
	atomic_bool stop;                 /* set by load_stop(); workers poll it */
	struct load_counters counters;    /* updated by workers with __atomic builtins; prepare
	                                     failures in main set its errmsg too */
	struct load_threads *threads;     /* load_threads_start's, or NULL */
	struct sim_engine *engine;        /* simulated tasks used as loads: the engine, */
	struct sim_result *sim_result;    /* and what it records (load_sim_start allocates it) */
	void *run_priv;                   /* the load's own state while it runs */
};

struct load_ops {
	/* In main before the pair's timed window; idempotent for the run.  Returns 0, or -1 with
	 * counters.errmsg set (the pair is then reported failed).  NULL: nothing to prepare. */
	int (*prepare)(struct load_ctx *ctx);
	/* In the load process: start the work (threads) and return.  Returns 0, or -1 with
	 * counters.error / errmsg set. */
	int (*start)(struct load_ctx *ctx);
	/* In the load process after start, polled every few ms: whether the load is really
	 * loading yet (the bench's window starts a short settle time after it is).  NULL: once
	 * every metric it lists has counted something (Burn's first ms burnt, Write's first MiB
	 * written, Memload's first block touched, Hack's first messages), or at once for a load
	 * that counts nothing.  A load that counts only at stop must give this hook. */
	bool (*ready)(struct load_ctx *ctx);
	/* In the load process: stop the work within 1 s and join it.  Main waits
	 * STOP_GRACE_MS (2 s, run/pair.c) for the result before it kills the process and
	 * reports the pair failed. */
	void (*stop)(struct load_ctx *ctx);
	/* In main at the end of the run (and on error or signal): remove scratch files.  Must be
	 * safe to call more than once and without prepare.  NULL: nothing to clean. */
	void (*cleanup)(struct load_ctx *ctx);
	/* In main after each pair with this load that was not interrupted, outside every timed
	 * window and at normal priority: settle what the pair left behind (the disk loads write
	 * back their dirty pages) given the counters c the load reported.  NULL: nothing. */
	void (*after_pair)(struct load_ctx *ctx, const struct load_counters *c);
	/* In main before the run, when the load is in it: one line for the run header (console
	 * and logfile), e.g. Memload's size policy, from the run's settings and the load's own
	 * options.  Returns 0, or -1 when the load cannot run (the line then says why).  NULL,
	 * or an empty line: no line; a line another load of the run gave already (the disk loads
	 * share --workdir) is not repeated. */
	int (*describe)(const struct load_config *cfg, const void *opts, char *buf, size_t len);
};

/* Helpers for loads built from worker threads: start n workers running fn(ctx, index) until
 * ctx->stop; stop sets the flag and joins them (it cannot fail: workers poll the flag).
 * The workers begin together once all n exist (with -L in the hundreds, creating threads
 * while the first ones burn took seconds).  Start returns 0, or -1 with counters set naming
 * pthread_create and its error (workers already started are stopped). */
int load_threads_start(struct load_ctx *ctx, unsigned n, void *(*fn)(void *));
void load_threads_stop(struct load_ctx *ctx);

/* Start/ready/stop hooks for loads that run a simulated task (Video, X, Custom):
 * ctx->sim_spec.  Such a load is ready once its engine runs (it counts only at stop). */
int load_sim_start(struct load_ctx *ctx);
bool load_sim_ready(struct load_ctx *ctx);
void load_sim_stop(struct load_ctx *ctx);

/* Whether a started load is really loading: its ops->ready, else every metric it lists has
 * counted something (true at once when it lists none). */
bool load_is_ready(struct load_ctx *ctx);

/* Records the first failure of a load from any worker thread: sets counters.error to err and
 * errmsg from the printf-style format; later failures are dropped (reported once). */
void load_fail(struct load_ctx *ctx, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Formats a load's throughput over counters->elapsed_ns from its metrics, e.g. "Write 512
 * MB/s written" (MB = 10^6 bytes), "Hack 1.2M messages/s", "Memload 3100 MiB/s touched".  buf
 * is empty for a load that counts nothing (None). */
void load_throughput_format(const char *name, const struct load_metric_info *const *metrics,
			    const struct load_counters *c, char *buf, size_t len);

/* The worker of the Burn load (argument: struct load_worker): burns 1 ms of calibrated loops
 * at a time until ctx->stop, counting load_metric_loops.  Reused by Compile. */
void *burn_worker(void *arg);

/* True when the load must stop: load_stop() was called, or (in main, during prepare) a
 * signal asked the run to end. */
static inline bool load_should_stop(struct load_ctx *ctx)
{
	return atomic_load(&ctx->stop) || (ctx->cfg->interrupted && *ctx->cfg->interrupted);
}

/* The count of metric m in counters c of load ctx; 0 when the load does not list m. */
static inline uint64_t load_counted(const struct load_ctx *ctx, const struct load_counters *c,
				    const struct load_metric_info *m)
{
	for (unsigned i = 0; i < LOAD_MAX_METRICS && ctx->metrics && ctx->metrics[i]; i++)
		if (ctx->metrics[i] == m)
			return c->count[i];
	return 0;
}

/* Adds n to metric m of ctx from any worker thread; nothing when the load does not list m. */
static inline void load_count(struct load_ctx *ctx, const struct load_metric_info *m, uint64_t n)
{
	for (unsigned i = 0; i < LOAD_MAX_METRICS && ctx->metrics && ctx->metrics[i]; i++)
		if (ctx->metrics[i] == m) {
			__atomic_fetch_add(&ctx->counters.count[i], n, __ATOMIC_RELAXED);
			return;
		}
}

#endif
