/* File's threads (workloads/file.h): each runs its program (taskfile/model.h) step by step,
 * through the engine's calls (engine/sim.h) for what the engine keeps (the period, the work,
 * the counting wake-ups, sleeps) and through the file's own mutexes, conditions, events and
 * barriers for the rest.  Every wait is cut into slices of SIM_STOP_SLICE_NS at most, after
 * which the thread looks at sim_stopped, so a stop ends each within a slice. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lib/nbrandom.h"
#include "lib/timeutil.h"
#include "workloads/file.h"

/* One thread as it runs its program. */
struct runner {
	struct sim_thread *t;
	const struct tf_task *m;
	struct file_state *st;
	unsigned index;
	bool in_chain;                            /* its runs are the period's work (sim_burn) */
	uint64_t draws;                           /* uniform works drawn */
	uint64_t next_tick_ns[TF_MAX_RESOURCES];  /* each own timer's next tick, 0: not started */
	uint64_t held[(TF_MAX_RESOURCES + 63) / 64]; /* the mutexes it holds */
};

/* The absolute CLOCK_MONOTONIC time at most one stop slice from now, for a timed wait. */
static struct timespec slice_deadline(void)
{
	return ns_to_timespec(now_ns() + SIM_STOP_SLICE_NS);
}

static void record_wake(struct runner *r, uint64_t from_ns)
{
	uint64_t now = now_ns();
	struct file_acct *a = sim_measures_lock(r->t);
	if (a)
		hist_add(&a->wake_hist[r->index], now > from_ns ? now - from_ns : 0);
	sim_measures_unlock(r->t);
}

/* TF_RUN: us, or uniform in [us, us_max] (splitmix64 of the thread and draw: the same works in
 * every run). */
static bool run_work(struct runner *r, const struct tf_step *s)
{
	uint64_t us = s->us;
	if (s->us_max > s->us)
		us += random_mix64(((uint64_t)r->index << 40) + r->draws++) % (s->us_max - s->us + 1);
	uint64_t done = r->in_chain ? sim_burn(r->t, us) : sim_burn_aside(r->t, us);
	return done == us;
}

/* TF_RUNTIME: CPU until us of wall time has passed. */
static bool run_wall(struct runner *r, uint64_t us)
{
	uint64_t end_ns = now_ns() + us * NS_PER_US;
	while (now_ns() < end_ns)
		if (sim_burn_aside(r->t, 100) != 100)
			return false;
	return true;
}

/* TF_TIMER: to the next tick of timer res (from the task's period 0, as rt-app's absolute
 * timers); a tick already past is an overrun, counted, and the next is taken at once. */
static bool timer_wait(struct runner *r, unsigned res)
{
	uint64_t period_ns = r->m->res[res].period_us * NS_PER_US, *next = &r->next_tick_ns[res];
	if (!*next)
		*next = sim_start_ns(r->t) + period_ns;
	uint64_t tick_ns = *next;
	*next += period_ns;
	if (now_ns() >= tick_ns) {
		struct file_acct *a = sim_measures_lock(r->t);
		if (a)
			a->timer_overruns++;
		sim_measures_unlock(r->t);
		return !sim_stopped(r->t);
	}
	if (!sim_sleep_until(r->t, tick_ns))
		return false;
	record_wake(r, tick_ns);
	return true;
}

/* TF_JOIN: count counting wake-ups; the last waker's call -> running is the wake-up. */
static bool join_wait(struct runner *r, uint32_t count)
{
	for (uint32_t k = 0; k < count; k++)
		if (!sim_wait_woken(r->t))
			return false;
	record_wake(r, atomic_load(&r->st->woken_ns[r->index]));
	return true;
}

/* Waits on y's condition (its lock held) until done(y, arg) says so or the task stops.  Returns
 * true when done. */
static bool sync_wait(struct runner *r, struct file_sync *y, bool (*done)(struct file_sync *, uint64_t), uint64_t arg)
{
	while (!done(y, arg)) {
		if (sim_stopped(r->t))
			return false;
		struct timespec ts = slice_deadline();
		pthread_cond_timedwait(&y->cond, &y->lock, &ts);
	}
	return true;
}

static bool generation_passed(struct file_sync *y, uint64_t gen)
{
	return y->generation != gen;
}

static bool generation_reached(struct file_sync *y, uint64_t gen)
{
	return y->generation >= gen;
}

static bool released(struct file_sync *y, uint64_t my)
{
	return y->released > my;
}

/* TF_RESUME / TF_SIGNAL / TF_BROADCAST on y: wakes its current waiters (all, or for a signal
 * the one waiting longest, as the POSIX condition "unblocks at least one of the threads that
 * are blocked", and never one that comes to wait after: the signaller's own wait that follows
 * (rt-app's signal then wait) must not take it); lost when none waits. */
static void sync_wake(struct file_sync *y, bool one, bool event)
{
	pthread_mutex_lock(&y->lock);
	y->woken_ns = now_ns();
	if (event)
		y->generation++;
	else if (y->released < y->queued)
		y->released = one ? y->released + 1 : y->queued;
	pthread_cond_broadcast(&y->cond);
	pthread_mutex_unlock(&y->lock);
}

/* TF_SUSPEND: the next resume of event y. */
static bool suspend_wait(struct runner *r, struct file_sync *y)
{
	pthread_mutex_lock(&y->lock);
	bool ok = sync_wait(r, y, generation_passed, y->generation);
	uint64_t from_ns = y->woken_ns;
	pthread_mutex_unlock(&y->lock);
	if (ok)
		record_wake(r, from_ns);
	return ok;
}

static bool holds(const struct runner *r, unsigned res)
{
	return r->held[res / 64] >> (res % 64) & 1;
}

/* TF_LOCK: mutex res, in slices. */
static bool mutex_take(struct runner *r, unsigned res)
{
	if (holds(r, res))
		return true;   /* taken already: the file locks it twice (not recursive in rt-app either) */
	for (;;) {
		/* timedlock on CLOCK_REALTIME, not clocklock: the sanitizers know it; a clock step only
		 * changes one slice's length */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts = ns_to_timespec((uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec + SIM_STOP_SLICE_NS);
		int rc = pthread_mutex_timedlock(&r->st->mutex[res], &ts);
		if (rc == 0)
			break;
		if (sim_stopped(r->t))
			return false;
	}
	r->held[res / 64] |= 1ull << (res % 64);
	return true;
}

static void mutex_give(struct runner *r, unsigned res)
{
	if (!holds(r, res))
		return;
	r->held[res / 64] &= ~(1ull << (res % 64));
	pthread_mutex_unlock(&r->st->mutex[res]);
}

/* TF_WAIT / TF_SYNC: waits on condition res, its mutex res2 released meanwhile (queued as a
 * waiter first, so a signal given once res2 is free reaches it), until a signal released its
 * place in the queue; a sync signals first, before it queues. */
static bool cond_wait(struct runner *r, unsigned res, unsigned res2, bool sync)
{
	struct file_sync *y = &r->st->sync[res];
	if (sync)
		sync_wake(y, true, false);
	pthread_mutex_lock(&y->lock);
	uint64_t my = y->queued++;
	bool had = holds(r, res2);
	mutex_give(r, res2);
	bool ok = sync_wait(r, y, released, my);
	uint64_t from_ns = y->woken_ns;
	pthread_mutex_unlock(&y->lock);
	if (!ok)
		return false;
	record_wake(r, from_ns);
	return !had || mutex_take(r, res2);
}

/* Until `parties` threads arrived at y (a barrier's round: y->waiting counts the arrivals). */
static bool meet(struct runner *r, struct file_sync *y, unsigned parties)
{
	pthread_mutex_lock(&y->lock);
	bool ok = true;
	if (++y->waiting >= parties) {
		y->waiting = 0;
		y->generation++;
		y->woken_ns = now_ns();
		pthread_cond_broadcast(&y->cond);
	} else {
		ok = sync_wait(r, y, generation_passed, y->generation);
	}
	pthread_mutex_unlock(&y->lock);
	return ok;
}

/* TF_BARRIER: until every party of barrier res arrived. */
static bool barrier_wait(struct runner *r, unsigned res)
{
	return meet(r, &r->st->sync[res], r->m->res[res].parties);
}

/* TF_PERIOD (the root): once the period before is closed, opens the next. */
static bool period_open(struct runner *r)
{
	struct file_state *st = r->st;
	struct file_sync *y = &st->close;
	pthread_mutex_lock(&y->lock);
	bool ok = sync_wait(r, y, generation_reached, st->opened);
	pthread_mutex_unlock(&y->lock);
	struct sim_period p;
	if (!ok || !sim_period_begin(r->t, &p))
		return false;
	st->period_start_ns = p.start_ns;
	atomic_store(&st->closes_left, r->m->closers);
	st->opened++;
	return true;
}

/* TF_CLOSE: the last closing thread closes the period (its chain time; sim_period_end); nothing
 * before the first period is open. */
static bool period_close(struct runner *r)
{
	struct file_state *st = r->st;
	if (!st->opened)
		return true;  /* before the first period: rt-app's first loop, before its first timer */
	if (atomic_fetch_sub(&st->closes_left, 1) != 1)
		return true;
	uint64_t now = now_ns(), chain_ns = now > st->period_start_ns ? now - st->period_start_ns : 0;
	struct file_acct *a = sim_measures_lock(r->t);
	if (a) {
		lat_stats_add(&a->chain, chain_ns);
		hist_add(&a->chain_hist, chain_ns);
	}
	sim_measures_unlock(r->t);
	bool ok = sim_period_end(r->t);
	pthread_mutex_lock(&st->close.lock);
	st->close.generation = st->opened;
	pthread_cond_broadcast(&st->close.cond);
	pthread_mutex_unlock(&st->close.lock);
	return ok;
}

/* One step; false when the thread should end (the task stopped, or its period was cut). */
static bool step(struct runner *r, const struct tf_step *s)
{
	struct file_state *st = r->st;
	switch (s->op) {
	case TF_PERIOD: return period_open(r);
	case TF_CLOSE: return period_close(r);
	case TF_RUN: return run_work(r, s);
	case TF_RUNTIME: return run_wall(r, s->us);
	case TF_SLEEP: return sim_sleep_until(r->t, now_ns() + s->us * NS_PER_US);
	case TF_TIMER: return timer_wait(r, s->res);
	case TF_WAKE:
		atomic_store(&st->woken_ns[s->thread], now_ns());
		sim_wake(r->t, s->thread);
		return true;
	case TF_JOIN: return join_wait(r, s->count);
	case TF_RESUME: sync_wake(&st->sync[s->res], false, true); return true;
	case TF_SUSPEND: return suspend_wait(r, &st->sync[s->res]);
	case TF_LOCK: return mutex_take(r, s->res);
	case TF_UNLOCK: mutex_give(r, s->res); return true;
	case TF_SIGNAL: sync_wake(&st->sync[s->res], true, false); return true;
	case TF_BROADCAST: sync_wake(&st->sync[s->res], false, false); return true;
	case TF_WAIT: return cond_wait(r, s->res, s->res2, false);
	case TF_SYNC: return cond_wait(r, s->res, s->res2, true);
	case TF_BARRIER: return barrier_wait(r, s->res);
	default: return false;
	}
}

/* Phase ph, its loops times (-1: until the thread ends). */
static bool run_phase(struct runner *r, const struct tf_phase *ph)
{
	for (int64_t k = 0; ph->loops < 0 || k < ph->loops; k++) {
		if (sim_stopped(r->t))
			return false;
		for (uint32_t i = 0; i < ph->n; i++)
			if (!step(r, &r->m->steps[ph->first + i]))
				return false;
	}
	return true;
}

bool file_runs_in_chain(const struct tf_task *m, unsigned i)
{
	const struct tf_thread *th = &m->threads[i];
	if (m->periodless)
		return false;   /* no period for its runs to be the work of */
	if (i == m->root)
		return true;
	if (m->format != TF_FORMAT_INTERBENCH || !th->n_phases || !m->phases[th->first_phase].n)
		return false;
	return m->steps[m->phases[th->first_phase].first].op == TF_JOIN;
}

void file_run(struct sim_thread *t)
{
	static _Thread_local struct runner r;   /* 600 bytes off the task thread's stack */
	r = (struct runner){ .t = t, .m = &file_model, .st = sim_task_state(t), .index = sim_thread_index(t) };
	const struct tf_thread *th = &r.m->threads[r.index];
	r.in_chain = file_runs_in_chain(r.m, r.index);
	/* every thread started before any runs its program: a signal given before its waiter
	 * was even created would be lost (rt-app's conditions lose a signal nobody waits for) */
	bool ok = meet(&r, &r.st->started, r.m->n_threads);
	ok = ok && (!th->delay_us || sim_sleep_until(t, now_ns() + th->delay_us * NS_PER_US));
	for (uint32_t p = 0; ok && p < th->once_phases && p < th->n_phases; p++)
		ok = run_phase(&r, &r.m->phases[th->first_phase + p]);
	for (int64_t l = 0; ok && th->n_phases > th->once_phases && (th->loops < 0 || l < th->loops); l++)
		for (uint32_t p = th->once_phases; ok && p < th->n_phases; p++)
			ok = run_phase(&r, &r.m->phases[th->first_phase + p]);
	for (unsigned res = 0; res < r.m->n_resources; res++)
		mutex_give(&r, res);
	while (ok && sim_sleep_until(t, UINT64_MAX))
		;  /* its loops are done: idle until the stop */
}

/* A condition on CLOCK_MONOTONIC, as slice_deadline measures. */
static int sync_init(struct file_sync *y)
{
	pthread_condattr_t ca;
	int rc = pthread_condattr_init(&ca);
	if (rc == 0)
		rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pthread_cond_init(&y->cond, &ca);
	pthread_condattr_destroy(&ca);
	return rc ? rc : pthread_mutex_init(&y->lock, NULL);
}

int file_setup(void *state, const struct sim_spec *spec, char *errmsg, size_t len)
{
	(void)spec;
	struct file_state *st = state;
	int rc = sync_init(&st->close);
	if (rc == 0)
		rc = sync_init(&st->started);
	for (unsigned i = 0; rc == 0 && i < TF_MAX_RESOURCES; i++) {
		rc = sync_init(&st->sync[i]);
		if (rc == 0)
			rc = pthread_mutex_init(&st->mutex[i], NULL);
	}
	if (rc)
		snprintf(errmsg, len, "pthread_cond_init: %s", strerror(rc));
	return rc;
}

void file_teardown(void *state)
{
	struct file_state *st = state;
	pthread_cond_destroy(&st->close.cond);
	pthread_mutex_destroy(&st->close.lock);
	pthread_cond_destroy(&st->started.cond);
	pthread_mutex_destroy(&st->started.lock);
	for (unsigned i = 0; i < TF_MAX_RESOURCES; i++) {
		pthread_cond_destroy(&st->sync[i].cond);
		pthread_mutex_destroy(&st->sync[i].lock);
		pthread_mutex_destroy(&st->mutex[i]);
	}
}
