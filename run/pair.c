#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "host/child.h"
#include "host/disturb.h"
#include "explain/tracer.h"
#include "host/machine.h"
#include "host/oom.h"
#include "run/pair.h"
#include "lib/schedpolicy.h"
#include "lib/timeutil.h"

#define STOP_GRACE_MS 2000  /* a stopped child must report within this */
#define POLL_SLICE_MS 200   /* how often the window re-checks for a signal */
#define READY_POLL_MS 2     /* how often the load process checks its readiness */

/* What the load process needs: the pair, and where it says it is ready. */
struct load_arg { const struct pair_params *p; int ready_fd; };

struct bench_arg {
	const struct pair_params *p;
	struct bench_record *rec;  /* what it hands main (the bench process's copy of it) */
	struct pair_stop *stop;
	pid_t load_pid;          /* the load process running beside it */
};

/* How long main waits past the last look for an adaptive bench to stop itself and report. */
#define LOOK_GRACE_MS 2000

/* In the bench process: until main asks to stop (a fixed window), or until the first of
 * p->stop's looks at which stop_now says so (engine/intervals.h, run/stoprule.h), the last
 * look at most.  The looks count from now.  *st says how it ended. */
static void bench_window_wait(const struct pair_params *p, struct sim_engine *e, int ctl_fd, struct pair_stop *st)
{
	static struct sim_result snap; /* sizeof(struct sim_result), about 186 KB: not on the stack */
	const struct stop_plan *sp = p->stop;
	memset(st, 0, sizeof(*st));
	if (!sp) {
		child_wait_stop(ctl_fd);
		st->reason = STOP_FIXED;  /* main says when a signal cut it short */
		return;
	}
	uint64_t t0_ns = now_ns();
	st->looks = sp->looks;
	st->last_look_s = (float)(sp->at_ns[sp->looks - 1] / 1e9);
	for (unsigned k = 0; k < sp->looks; k++) {
		uint64_t t;
		while ((t = now_ns()) < t0_ns + sp->at_ns[k])
			if (child_stop_requested(ctl_fd, (int)((t0_ns + sp->at_ns[k] - t + NS_PER_MS - 1) / NS_PER_MS))) {
				st->reason = STOP_INTERRUPTED;
				return;
			}
		struct sim_interval iv[SIM_JUDGED];
		struct stop_verdict prev = st->verdict;
		sim_snapshot(e, &snap);
		sim_intervals(&snap, stop_look_alpha(sp, k), iv);
		st->look = k + 1;
		stop_judge(sp, k, iv, k ? &prev : NULL, &st->verdict);
		if (stop_now(sp, k, &st->verdict, &st->reason))
			return;
	}
}

/* Moves the calling process, a child with its one thread, into cg (NULL: stays).  Returns 0,
 * or -1 with errno set and err naming the file. */
static int enter_cgroup(const struct cgplace *cg, char *err, size_t errlen)
{
	return cg ? cgplace_enter(cg, err, errlen) : 0;
}

/* Records a pair's timeline or frame log may need: its periods over the window and the load's
 * ramp, with a margin, within max. */
static uint32_t period_capacity(const struct pair_params *p, uint32_t max)
{
	uint64_t interval_ns = p->spec.interval_us ? p->spec.interval_us * NS_PER_US : NS_PER_MS;
	uint64_t n = (p->duration_ns + (uint64_t)(PAIR_READY_MAX_MS + LOOK_GRACE_MS) * NS_PER_MS) / interval_ns * 5 / 4 + 64;
	return n > max ? max : (uint32_t)n;
}

/* The non-empty buckets of h into out (NULL: only counted).  Returns their count. */
static uint32_t buckets_of(const struct lat_hist *h, struct hist_bucket *out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < HIST_BUCKETS; i++)
		if (h->counts[i]) {
			if (out)
				out[n] = (struct hist_bucket){ .index = i, .count = h->counts[i] };
			n++;
		}
	return n;
}

int bench_record_make(const struct sim_result *r, struct bench_record *out)
{
	memset(out, 0, sizeof(*out));
	pair_summarize(r, &out->summary);
	out->timer_rt = r->timer_rt;
	out->start_ns = r->start_ns;
	out->explain = r->explain;
	out->timeline_error = r->timeline_error;
	out->timeline_truncated = r->timeline_truncated;
	out->error = r->error;
	snprintf(out->errmsg, sizeof(out->errmsg), "%s", r->errmsg);
	uint32_t ns = buckets_of(&r->sched_hist, NULL), nt = buckets_of(&r->timer_hist, NULL);
	uint32_t nk = r->explain_kept.n < EXPLAIN_KEEP ? r->explain_kept.n : EXPLAIN_KEEP;
	out->buckets = ns + nt ? malloc((ns + nt) * sizeof(*out->buckets)) : NULL;
	out->kept = nk ? malloc(nk * sizeof(*out->kept)) : NULL;
	if ((ns + nt && !out->buckets) || (nk && !out->kept)) {
		bench_record_free(out);
		out->error = ENOMEM;
		snprintf(out->errmsg, sizeof(out->errmsg), "malloc (bench record): %s", strerror(ENOMEM));
		errno = ENOMEM;
		return -1;
	}
	out->sched_buckets = buckets_of(&r->sched_hist, out->buckets);
	out->timer_buckets = buckets_of(&r->timer_hist, out->buckets ? out->buckets + ns : NULL);
	for (out->kept_periods = 0; out->kept_periods < nk; out->kept_periods++)
		out->kept[out->kept_periods] = *explain_kept_at(&r->explain_kept, out->kept_periods);
	return 0;
}

void bench_record_free(struct bench_record *b)
{
	free(b->buckets);
	free(b->kept);
	b->buckets = NULL;
	b->kept = NULL;
}

void bench_record_kept(const struct bench_record *b, struct explain_kept *out)
{
	out->n = b->kept ? b->kept_periods : 0;
	out->next = out->n;  /* explain_kept_at: period i at periods[i] */
	for (uint32_t i = 0; i < out->n; i++)
		out->periods[i] = b->kept[i];
}

/* The bench's report to main: the fixed part of its record, how its window ended, then the
 * record's arrays.  Returns the child's exit status. */
static int bench_report(int res_fd, const struct bench_arg *b)
{
	const struct bench_record *r = b->rec;
	size_t nb = (size_t)r->sched_buckets + r->timer_buckets;
	return fd_write_all(res_fd, r, sizeof(*r)) == 0 && fd_write_all(res_fd, b->stop, sizeof(*b->stop)) == 0 &&
	       (!nb || fd_write_all(res_fd, r->buckets, nb * sizeof(*r->buckets)) == 0) &&
	       (!r->kept_periods || fd_write_all(res_fd, r->kept, r->kept_periods * sizeof(*r->kept)) == 0) ? 0 : 1;
}

/* Reads len bytes of fd into buf by end_ns (fd_read_all, waiting only what is left of it).
 * Returns 0, or -1 with errno as fd_read_all sets it (ETIMEDOUT once end_ns has passed). */
static int read_by(int fd, void *buf, size_t len, uint64_t end_ns)
{
	uint64_t t = now_ns();
	if (!len)
		return 0;
	if (t >= end_ns) {
		errno = ETIMEDOUT;
		return -1;
	}
	return fd_read_all(fd, buf, len, (int)((end_ns - t + NS_PER_MS - 1) / NS_PER_MS));
}

/* Refuses a count n of member past its array's max entries: -1 with errno EPROTO and err
 * naming them.  Returns 0 when n is within. */
static int bound(const char *member, uint64_t n, uint64_t max, char *err, size_t errlen)
{
	if (n <= max)
		return 0;
	snprintf(err, errlen, "%s %llu, at most %llu", member, (unsigned long long)n, (unsigned long long)max);
	errno = EPROTO;
	return -1;
}

/* The record's counts within their arrays (bench_record_check's first half). */
static int counts_check(const struct bench_record *b, char *err, size_t errlen)
{
	const struct explain_summary *x = &b->explain;
	if (bound("sched_buckets", b->sched_buckets, HIST_BUCKETS, err, errlen) ||
	    bound("timer_buckets", b->timer_buckets, HIST_BUCKETS, err, errlen) ||
	    bound("kept_periods", b->kept_periods, EXPLAIN_KEEP, err, errlen) ||
	    bound("explain.nwho", x->nwho, EXPLAIN_PAIR_WHO, err, errlen) ||
	    bound("explain.nirq", x->nirq, EXPLAIN_PAIR_IRQS, err, errlen) ||
	    bound("explain.nstages", x->nstages, EXPLAIN_MAX_STAGES, err, errlen))
		return -1;
	for (uint32_t i = 0; b->kept && i < b->kept_periods; i++) {
		char member[32];
		snprintf(member, sizeof(member), "kept[%u].ntop", i);
		if (bound(member, b->kept[i].ntop, EXPLAIN_TOP, err, errlen))
			return -1;
	}
	return 0;
}

/* The n buckets h of one histogram (member names it): each non-empty, below HIST_BUCKETS
 * (hist_bucket_low_ns shifts by the index's group) and after the one before, as buckets_of
 * writes them.  Returns 0, or -1 with errno EPROTO and err naming the first that is not. */
static int buckets_check(const char *member, const struct hist_bucket *h, uint32_t n, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < n; i++)
		if (h[i].index >= HIST_BUCKETS || !h[i].count || (i && h[i].index <= h[i - 1].index)) {
			snprintf(err, errlen, "%s[%u] index %u count %llu (wanted: non-empty, index below %u and rising)",
				 member, i, h[i].index, (unsigned long long)h[i].count, (unsigned)HIST_BUCKETS);
			errno = EPROTO;
			return -1;
		}
	return 0;
}

#define TERMINATE(a) ((a)[sizeof(a) - 1] = '\0')

/* Forces a NUL at the end of the strings of the record's fixed part. */
static void fixed_strings_terminate(struct bench_record *b)
{
	TERMINATE(b->errmsg);
	TERMINATE(b->summary.task.name);
	for (unsigned i = 0; i < EXPLAIN_PAIR_WHO; i++)
		TERMINATE(b->explain.who[i].comm);
	for (unsigned i = 0; i < EXPLAIN_PAIR_IRQS; i++)
		TERMINATE(b->explain.irqs[i].name);
	for (unsigned i = 0; i < EXPLAIN_MAX_STAGES; i++)
		TERMINATE(b->explain.stage_name[i]);
}

int bench_record_check(struct bench_record *b, char *err, size_t errlen)
{
	fixed_strings_terminate(b);
	if (counts_check(b, err, errlen) != 0 ||
	    (b->buckets && (buckets_check("sched bucket", b->buckets, b->sched_buckets, err, errlen) != 0 ||
			    buckets_check("timer bucket", b->buckets + b->sched_buckets, b->timer_buckets, err, errlen) != 0)))
		return -1;
	for (uint32_t i = 0; b->kept && i < b->kept_periods; i++) {
		for (unsigned j = 0; j < EXPLAIN_TOP; j++)
			TERMINATE(b->kept[i].top[j].comm);
		TERMINATE(b->kept[i].irq.name);
	}
	return 0;
}

/* Reads the arrays of rec (its counts checked) from fd by end_ns.  Returns 0, or -1 with
 * errno set. */
static int arrays_read(int fd, struct bench_record *rec, uint64_t end_ns)
{
	size_t nb = (size_t)rec->sched_buckets + rec->timer_buckets;
	if ((nb && !(rec->buckets = malloc(nb * sizeof(*rec->buckets)))) ||
	    (rec->kept_periods && !(rec->kept = malloc(rec->kept_periods * sizeof(*rec->kept)))))
		return -1;
	return read_by(fd, rec->buckets, nb * sizeof(*rec->buckets), end_ns) == 0 &&
	       read_by(fd, rec->kept, rec->kept_periods * sizeof(*rec->kept), end_ns) == 0 ? 0 : -1;
}

int bench_record_receive(int fd, struct bench_record *rec, struct pair_stop *stop, uint64_t end_ns, char *err,
			 size_t errlen)
{
	int rc = read_by(fd, rec, sizeof(*rec), end_ns);
	if (rc == 0)
		rc = read_by(fd, stop, sizeof(*stop), end_ns);
	rec->buckets = NULL;  /* the pointers read are the bench process's, or torn */
	rec->kept = NULL;
	fixed_strings_terminate(rec);
	if (rc == 0)
		rc = counts_check(rec, err, errlen);
	if (rc == 0)
		rc = arrays_read(fd, rec, end_ns);
	if (rc == 0)
		rc = bench_record_check(rec, err, errlen);
	if (rc == 0)
		return 0;
	int e = errno;
	if (e != EPROTO)
		snprintf(err, errlen, "%s", strerror(e));
	bench_record_free(rec);
	rec->sched_buckets = rec->timer_buckets = rec->kept_periods = 0;
	rec->explain.nwho = rec->explain.nirq = 0;
	rec->explain.nstages = 0;
	errno = e;
	return -1;
}

/* Runs the task over the window into res (zeroed), then writes its --timeline records. */
static void bench_measure(struct bench_arg *b, int ctl_fd, struct sim_result *res)
{
	char err[160];
	if (enter_cgroup(b->p->bench_cgroup, err, sizeof(err)) != 0 ||
	    sched_pin_cpus(b->p->bench_cpus, err, sizeof(err)) != 0) {
		res->error = errno;
		snprintf(res->errmsg, sizeof(res->errmsg), "%s", err);
		return;
	}
	struct sim_run_cfg cfg = b->p->run_cfg;
	struct explain_config explain;
	if (cfg.explain) { /* the tasks of the run are named as such */
		explain = *cfg.explain;
		explain.load_tgid = (uint32_t)b->load_pid;
		explain.main_tgid = (uint32_t)getppid();
		cfg.explain = &explain;
	}
	struct timeline_buf tl = { .cap = period_capacity(b->p, TIMELINE_MAX_RECORDS) };
	if (b->p->timeline_fd >= 0 && (tl.rec = calloc(tl.cap, sizeof(*tl.rec))) != NULL) {
		cfg.timeline = &tl;
		cfg.timeline_pair = b->p->timeline_pair;
	}
	bool logs_frames = b->p->frame_log_fd >= 0 && b->p->spec.desc->logs_frames;
	struct frame_log_buf fl = { .cap = period_capacity(b->p, FRAME_LOG_MAX_RECORDS) };
	if (logs_frames && (fl.rec = calloc(fl.cap, sizeof(*fl.rec))) != NULL)
		cfg.frame_log = &fl;
	struct sim_engine *e = sim_start(&b->p->spec, &cfg, res);
	if (e) {
		child_control_priority(b->p->run_cfg.timer_prio);
		bench_window_wait(b->p, e, ctl_fd, b->stop);
		sim_stop(e);
		res->ci_alpha = stop_result_alpha(b->p->stop, b->stop);
	}
	if (b->p->timeline_fd >= 0) {
		if (!tl.rec || timeline_write(b->p->timeline_fd, &tl) != 0)
			res->timeline_error = tl.rec ? errno : ENOMEM;
		res->timeline_truncated = tl.truncated;
		free(tl.rec);
	}
	/* main reads what is there after the pair, and says so when it holds no whole log (no
	 * memory, a failed write): the pair's figures stand without it */
	if (logs_frames && fl.rec)
		frame_log_write(b->p->frame_log_fd, &fl);
	free(fl.rec);
}

/* The bench process: measures into a result of its own, and hands main its record. */
static int bench_body(void *arg, int ctl_fd, int res_fd)
{
	struct bench_arg *b = arg;
	oom_adj_child(false);  /* between main and the loads; best effort */
	memset(b->rec, 0, sizeof(*b->rec));
	struct sim_result *res = calloc(1, sizeof(*res)); /* 186 KB: not on the stack */
	if (!res) {
		b->rec->error = errno;
		snprintf(b->rec->errmsg, sizeof(b->rec->errmsg), "calloc (bench result): %s", strerror(b->rec->error));
		return bench_report(res_fd, b);
	}
	bench_measure(b, ctl_fd, res);
	bench_record_make(res, b->rec); /* a failure says so in the record */
	free(res);
	int rc = bench_report(res_fd, b);
	bench_record_free(b->rec);
	return rc;
}

/* In the load process: waits until the load is really loading, PAIR_READY_MAX_MS have passed
 * or main asks to stop, then tells main with one byte on ready_fd: 'r' ready, 'n' not yet. */
static void report_ready(struct load_ctx *ctx, int ctl_fd, int ready_fd)
{
	uint64_t end_ns = now_ns() + (uint64_t)PAIR_READY_MAX_MS * NS_PER_MS;
	bool ready;
	while (!(ready = load_is_ready(ctx)) && now_ns() < end_ns && !child_stop_requested(ctl_fd, READY_POLL_MS))
		;
	char b = ready ? 'r' : 'n';
	if (write(ready_fd, &b, 1) != 1) { /* main is gone or stopping: the stop request follows */ }
	close(ready_fd);
}

static int load_body(void *arg, int ctl_fd, int res_fd)
{
	const struct load_arg *la = arg;
	const struct pair_params *p = la->p;
	struct load_ctx *ctx = p->load;
	const struct sched_setting *ls = &p->load_sched;
	struct load_counters *c = &ctx->counters;
	memset(c, 0, sizeof(*c));
	oom_adj_child(true);   /* raising is always allowed */
	if (enter_cgroup(p->load_cgroup, c->errmsg, sizeof(c->errmsg)) != 0 ||
	    sched_pin_cpus(p->load_cpus, c->errmsg, sizeof(c->errmsg)) != 0 ||
	    (!sched_setting_is_default(ls) && sched_setting_apply(0, ls, c->errmsg, sizeof(c->errmsg)) != 0)) {
		c->error = errno ? errno : EINVAL;
	} else {
		uint64_t t0 = now_ns();
		if (ctx->ops->start(ctx) == 0) {
			child_control_priority(p->run_cfg.timer_prio);
			report_ready(ctx, ctl_fd, la->ready_fd);
			child_wait_stop(ctl_fd);
			ctx->ops->stop(ctx);
		}
		ctx->counters.elapsed_ns = now_ns() - t0;
	}
	return fd_write_all(res_fd, &ctx->counters, sizeof(ctx->counters)) == 0 ? 0 : 1;
}

/* Adds a reading of the load process (kids[0]) to *act (NULL: none): its state and CPU time
 * (host/disturb.h struct load_activity).  A reading that fails (the load just ended) is left
 * out. */
static void look_at_load(struct child *kids[2], struct load_activity *act)
{
	uint64_t ticks;
	char state, err[8];
	if (act && kids[0] && kids[0]->pid > 0 && disturb_read_pid(kids[0]->pid, &ticks, &state, err, sizeof(err)) == 0)
		load_activity_add(act, ticks, state);
}

/* Waits until end_ns, returning early when a child's result pipe becomes readable or hung
 * up (it finished early: failed or died), when extra_fd (-1: none) becomes readable, or on a
 * signal; at each wake-up, and at the end, looks at the load (look_at_load, act may be NULL).
 * Returns the index of the child that spoke (0 load, 1 bench), 2 for extra_fd, -1 at the end
 * of the window, -2 when interrupted. */
static int watch_window(const struct pair_params *p, struct child *kids[2], uint64_t end_ns, int extra_fd,
			struct load_activity *act)
{
	for (;;) {
		look_at_load(kids, act);
		if (p->interrupted && *p->interrupted)
			return -2;
		uint64_t t = now_ns();
		if (p->tick)
			p->tick(p->tick_arg, t);
		if (t >= end_ns)
			return -1;
		uint64_t left_ms = (end_ns - t + NS_PER_MS - 1) / NS_PER_MS;
		struct pollfd pfd[3];
		int n = 0;
		for (int i = 0; i < 2; i++)
			if (kids[i])
				pfd[n++] = (struct pollfd){ .fd = kids[i]->res_fd, .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = extra_fd, .events = POLLIN }; /* fd -1 is ignored */
		int rc = poll(pfd, (nfds_t)n, left_ms < POLL_SLICE_MS ? (int)left_ms : POLL_SLICE_MS);
		if (rc <= 0)
			continue;
		for (int i = 0, j = 0; i < 2; i++)
			if (kids[i] && pfd[j++].revents)
				return i;
		if (pfd[n - 1].revents)
			return 2;
	}
}

/* Whether s runs a thread under a realtime policy, to which RLIMIT_RTTIME applies. */
static bool is_realtime(const struct sched_setting *s)
{
	return s->kind == SP_FIFO || s->kind == SP_RR;
}

/* Reads a child's result after asking it to stop: the bench's record into rec and *stop
 * (bench_record_receive), or else len bytes into buf, the whole of it within STOP_GRACE_MS;
 * on failure rec holds no array, and why describes what happened, with fate's hint at what
 * killed it (child_describe_death). */
static bool collect(struct child *c, const struct child_fate *fate, void *buf, size_t len, struct bench_record *rec,
		    struct pair_stop *stop, const char *what, char *why, size_t whylen)
{
	child_request_stop(c);
	uint64_t end_ns = now_ns() + (uint64_t)STOP_GRACE_MS * NS_PER_MS;
	char err[160] = "";
	int rc = rec ? bench_record_receive(c->res_fd, rec, stop, end_ns, err, sizeof(err))
		     : read_by(c->res_fd, buf, len, end_ns);
	int e = errno;
	int killed = child_reap(c, STOP_GRACE_MS);
	if (rc == 0)
		return true;
	char how[160];
	child_describe_death(c->status, fate, how, sizeof(how));
	if (e == EPROTO) /* refused: a child still writing the rest was killed for it, not late */
		snprintf(why, whylen, "reading the %s result: %s: %s", what, strerror(e), err);
	else if (killed || e == ETIMEDOUT) /* strerror(ETIMEDOUT) would say "Connection timed out" */
		snprintf(why, whylen, "%s process did not report within %d ms%s", what, STOP_GRACE_MS,
			 killed ? " and was killed" : "");
	else if (e == EPIPE)
		snprintf(why, whylen, "%s process ended without a result (%s)", what, how);
	else
		snprintf(why, whylen, "reading the %s result: %s", what, strerror(e));
	return false;
}

/* The CPUs the run uses: both sides' lists when both are given, else every CPU this process
 * may run on (an empty set, when unknown, means every CPU of /proc/stat). */
static const struct optspec_cpus *run_cpus(const struct pair_params *p, struct optspec_cpus *set)
{
	if (!p->bench_cpus || !p->bench_cpus->given || !p->load_cpus || !p->load_cpus->given)
		return machine_allowed_cpus(set) ? set : NULL;
	*set = *p->bench_cpus;
	for (size_t i = 0; i < sizeof(set->bits) / sizeof(set->bits[0]); i++)
		set->bits[i] |= p->load_cpus->bits[i];
	return set;
}

/* One edge of the window: the run's CPUs and processes (main, then the running children)
 * read into *s, its time into *t_ns.  Returns 0, or -1 when a reading failed. */
static int sample_edge(const struct optspec_cpus *cpus, struct child *kids[2], struct disturb_sample *s,
		       uint64_t *t_ns)
{
	pid_t pids[3] = { getpid() };
	unsigned n = 1;
	char err[160];
	for (int i = 0; i < 2; i++)
		if (kids[i] && kids[i]->pid > 0)
			pids[n++] = kids[i]->pid;
	int rc = disturb_sample(cpus, pids, n, s, err, sizeof(err));
	*t_ns = now_ns();
	return rc;
}

/* Starts the bench beside the running load and watches the timed window, then collects the
 * bench's result into out.  Returns watch_window's verdict, or -3 when the bench could not be
 * forked (out->why says so). */
static int bench_window(const struct pair_params *p, struct child *kids[2], struct child *bench,
			struct pair_outcome *out)
{
	struct bench_arg barg = { .p = p, .rec = &out->bench, .stop = &out->stop, .load_pid = kids[0] ? kids[0]->pid : 0 };
	int keep[2 + 3];  /* cgplace_fds's two at most, then the timeline, the frame log, --on-threshold */
	unsigned nkeep = cgplace_fds(p->bench_cgroup, keep);
	int late_fd = threshold_poll_fd(p->threshold);
	if (p->timeline_fd >= 0)
		keep[nkeep++] = p->timeline_fd;
	if (p->frame_log_fd >= 0)
		keep[nkeep++] = p->frame_log_fd;
	if (late_fd >= 0)
		keep[nkeep++] = p->threshold->notify[1];
	if (child_spawn(bench, "ib-bench", bench_body, &barg, keep, nkeep) != 0) {
		snprintf(out->why, sizeof(out->why), "fork (bench): %s", strerror(errno));
		return -3;
	}
	kids[1] = bench;
	if (p->threshold)
		p->threshold->bench_pid = bench->pid;
	struct optspec_cpus set;
	const struct optspec_cpus *cpus = run_cpus(p, &set);
	struct disturb_sample s0, s1;
	uint64_t s0_ns, s1_ns;
	bool sampled = sample_edge(cpus, kids, &s0, &s0_ns) == 0;
	struct explain_tracer *tracer = p->run_cfg.explain ? p->run_cfg.explain->tracer : NULL;
	int64_t run0_ns = explain_tracer_run_ns(tracer);
	uint64_t t0_ns = now_ns();
	out->window_start_ns = t0_ns;
	uint64_t grace_ns = p->stop ? (uint64_t)LOOK_GRACE_MS * NS_PER_MS : 0;
	int spoke;
	while ((spoke = watch_window(p, kids, t0_ns + p->duration_ns + grace_ns, late_fd, &out->load_activity)) == 2)
		threshold_take(p->threshold);  /* a late period: main acts, the window goes on */
	out->window_ns = now_ns() - t0_ns;
	int64_t run1_ns = explain_tracer_run_ns(tracer);
	if (sampled && sample_edge(cpus, kids, &s1, &s1_ns) == 0)
		disturb_compute(&s0, &s1, s1_ns - s0_ns, sysconf(_SC_CLK_TCK), &out->disturbance);
	/* the timing thread and a load's control thread block at every turn: RLIMIT_RTTIME can
	 * only take a realtime task or load */
	struct child_fate fate = { .realtime = is_realtime(&p->run_cfg.sched),
				   .oom_kills_before = out->oom_kills_before };
	out->ok = collect(bench, &fate, NULL, 0, &out->bench, &out->stop, "bench", out->why, sizeof(out->why));
	if (spoke == -2)
		out->stop.reason = STOP_INTERRUPTED;
	out->bench.explain.tracer_run_ns = run0_ns >= 0 && run1_ns >= run0_ns ? run1_ns - run0_ns : -1;
	if (out->ok && out->bench.error) {
		out->ok = false;
		snprintf(out->why, sizeof(out->why), "bench: %s", out->bench.errmsg);
	}
	return spoke;
}

/* The pair's verdict once the bench succeeded (or never started): the load must have
 * reported, without error, and run through the whole window. */
static void load_verdict(const struct pair_params *p, struct pair_outcome *out, bool load_ok,
			 const char *load_why, int spoke, bool bench_started)
{
	const struct load_activity *a = &out->load_activity;
	out->ok = false;
	if (!load_ok && load_activity_stopped(a)) /* a load stopped to the end cannot report */
		snprintf(out->why, sizeof(out->why), "%s; it was seen stopped (SIGSTOP, SIGTSTP or a debugger) at %u of %u "
			 "looks during the window", load_why, a->stopped_looks, a->looks);
	else if (!load_ok)
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

/* The load's head start: waits for its readiness byte on ready_fd (a little longer than the
 * load itself waits), then PAIR_SETTLE_MS, and at least PAIR_RAMP_MIN_MS from t0_ns, the
 * load's start.  Returns watch_window's verdict: -1 when the bench may start. */
static int ramp(const struct pair_params *p, struct child *kids[2], int ready_fd, uint64_t t0_ns,
		struct pair_outcome *out)
{
	uint64_t bound_ns = t0_ns + (uint64_t)(PAIR_READY_MAX_MS + POLL_SLICE_MS) * NS_PER_MS;
	int spoke = watch_window(p, kids, bound_ns, ready_fd, NULL);
	if (spoke == 2) {
		char b = 0;
		out->load_ready = read(ready_fd, &b, 1) == 1 && b == 'r';
		uint64_t settle_end_ns = now_ns() + (uint64_t)PAIR_SETTLE_MS * NS_PER_MS;
		uint64_t min_end_ns = t0_ns + (uint64_t)PAIR_RAMP_MIN_MS * NS_PER_MS;
		spoke = watch_window(p, kids, settle_end_ns > min_end_ns ? settle_end_ns : min_end_ns, -1, NULL);
	}
	out->ramp_ns = now_ns() - t0_ns;
	return spoke;
}

int pair_run(const struct pair_params *p, struct pair_outcome *out)
{
	struct child load, bench;
	int ready[2];
	memset(out, 0, sizeof(*out));
	out->oom_kills_before = oom_kill_count();
	if (pipe2(ready, O_CLOEXEC) != 0) {
		snprintf(out->why, sizeof(out->why), "pipe (load %s): %s", p->load->name, strerror(errno));
		return -1;
	}

	const struct scratch_set *sc = p->load->cfg->scratch;
	int keep[SCRATCH_MAX + 3];
	unsigned nkeep = cgplace_fds(p->load_cgroup, keep);
	keep[nkeep++] = ready[1];
	for (unsigned i = 0; sc && i < sc->n; i++) /* the load works through the run's scratch files */
		if (scratch_fd(sc, (int)i) >= 0)
			keep[nkeep++] = scratch_fd(sc, (int)i);
	struct load_arg la = { .p = p, .ready_fd = ready[1] };
	uint64_t t0_ns = now_ns();
	int rc = child_spawn(&load, "ib-load", load_body, &la, keep, nkeep);
	int e = errno;
	close(ready[1]);
	if (rc != 0) {
		close(ready[0]);
		snprintf(out->why, sizeof(out->why), "fork (load %s): %s", p->load->name, strerror(e));
		return -1;
	}
	struct child *kids[2] = { &load, NULL };
	int spoke = ramp(p, kids, ready[0], t0_ns, out);
	close(ready[0]);
	if (spoke == -1)
		spoke = bench_window(p, kids, &bench, out);
	if (spoke == -3) {
		child_reap(&load, STOP_GRACE_MS);
		return -1;
	}
	out->interrupted = spoke == -2;
	char load_why[200] = "";
	struct child_fate fate = { .realtime = is_realtime(&p->load_sched),
				   .oom_kills_before = out->oom_kills_before };
	bool load_ok = collect(&load, &fate, &out->load, sizeof(out->load), NULL, NULL, "load", load_why,
			       sizeof(load_why));
	out->load.errmsg[sizeof(out->load.errmsg) - 1] = '\0'; /* the load's message, as the bench's */
	if (kids[1] && !out->ok)
		return 0; /* the bench's failure is the reason */
	load_verdict(p, out, load_ok, load_why, spoke, kids[1] != NULL);
	return 0;
}
