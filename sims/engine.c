/* The periodic engine: a timing thread that sleeps to each absolute deadline and wakes the
 * simulated thread, which records latencies, burns the period's work and accounts the
 * deadline.  Free-running tasks (Gaming) have only the simulated thread. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include "calibrate/calibrate.h"
#include "lib/timeutil.h"
#include "sims/sim.h"

/* Longest single sleep of the timing thread, so a stop request is seen within 100 ms. */
#define SLEEP_SLICE_NS (100 * NS_PER_MS)

struct sim_engine {
	struct sim_spec spec;
	struct sim_run_cfg cfg;
	struct sim_result *out;
	atomic_bool stop;
	sem_t wake;              /* timing thread -> simulated thread */
	sem_t done;              /* simulated thread -> timing thread */
	uint64_t start_ns;       /* wake time of period 0 */
	uint64_t wake_ns;        /* wake time (deadline) of the current period */
	uint64_t timer_ns;       /* when the timing thread woke for it */
	uint64_t timer_late_ns;  /* how late the timer woke for it (0 when it was already due) */
	uint64_t next_wake_ns;   /* wake time of the first unfinished period (the simulated thread
	                            sets it before posting done; start_ns at first) */
	uint64_t period;         /* index of that period (simulated thread; read after join) */
	uint64_t created_ns;     /* when sim_start ran: the first Gaming frame starts here */
	pthread_t timer_tid, sim_tid;
	bool timer_started, sim_started;
};

static void sem_wait_intr(sem_t *s)
{
	while (sem_wait(s) != 0 && errno == EINTR)
		;
}

/* Sleeps until deadline_ns in slices, returning early when stopped.  True if it slept. */
static bool sleep_until_or_stop(struct sim_engine *e, uint64_t deadline_ns)
{
	uint64_t t = now_ns();
	if (deadline_ns <= t)
		return false;
	while (!atomic_load(&e->stop)) {
		t = now_ns();
		if (deadline_ns <= t)
			break;
		uint64_t until = deadline_ns - t > SLEEP_SLICE_NS ? t + SLEEP_SLICE_NS : deadline_ns;
		sleep_until_ns(until);
	}
	return true;
}

static void *timing_thread(void *arg)
{
	struct sim_engine *e = arg;
	uint64_t next_ns = e->start_ns;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	while (!atomic_load(&e->stop)) {
		bool slept = sleep_until_or_stop(e, next_ns);
		uint64_t t = now_ns();
		if (atomic_load(&e->stop))
			break;
		/* A deadline already past when we got here is lateness of the task, not the timer. */
		if (slept) {
			lat_stats_add(&e->out->timer, t - next_ns);
			hist_add(&e->out->timer_hist, t - next_ns);
		}
		e->wake_ns = next_ns;
		e->timer_ns = t;
		e->timer_late_ns = slept ? t - next_ns : 0;
		sem_post(&e->wake);
		sem_wait_intr(&e->done);
		if (atomic_load(&e->stop)) /* that post may be sim_stop's, not the task's */
			break;
		next_ns = e->next_wake_ns;
	}
	return NULL;
}

/* Gives the simulated thread its policy and nice, priority or reservation (-B, -r,
 * --bench-policy).  A failure is recorded in out, which fails the pair with the kernel's
 * reason: its figures would be labelled with a setting it never had.  The task still runs, so
 * the engine's hand-offs stay as they are. */
static void set_sim_priority(struct sim_engine *e)
{
	struct sim_result *r = e->out;
	const struct sched_setting *s = &e->cfg.sched;
	if (s->kind == SP_OTHER && s->nice == 0)
		return;
	if (sched_setting_apply(0, s, r->errmsg, sizeof(r->errmsg)) != 0)
		r->error = errno;
}

/* interbench 0.31's latency of the period woken at e->wake_ns (number `period`) that the task
 * started latency_ns after the timing thread woke it and finished at finish_ns
 * (sims/deadline.h). */
static uint64_t interbench_latency_ns(const struct sim_engine *e, uint64_t latency_ns, uint64_t finish_ns,
				      uint64_t period)
{
	uint64_t deadline_ns = e->wake_ns + e->spec.interval_us * NS_PER_US;
	uint64_t unit_us = e->spec.desc->ib_interval_us ? e->spec.desc->ib_interval_us(&e->spec, period)
							: e->spec.interval_us;
	return deadline_interbench_latency_ns(latency_ns, finish_ns > deadline_ns ? finish_ns - deadline_ns : 0,
					      unit_us * NS_PER_US);
}

/* Burns a period's work as the task defines it (sim_desc.fixed_work): a fixed count of
 * calibrated loops, or CPU time by the thread's clock.  Returns the work done (us, less when
 * stopped) and the loops run in *loops. */
static uint64_t burn_work(struct sim_engine *e, uint64_t work_us, uint64_t *loops)
{
	if (!e->spec.desc->fixed_work)
		return burn_cpu_us(e->cfg.loops_per_ms, work_us, &e->stop, loops);
	uint64_t done_us = burn_us_done(e->cfg.loops_per_ms, work_us, &e->stop);
	*loops = done_us * e->cfg.loops_per_ms / 1000;
	return done_us;
}

/* The latencies of a period's start, recorded once the period has completed: a period cut off
 * by the end of the run takes no sample, so every latency figure is over completed periods and a
 * task that completed none has none (shown as "-", never as 0). */
static void add_start_samples(struct sim_result *r, uint64_t latency_ns, uint64_t lateness_ns)
{
	lat_stats_add(&r->sched, latency_ns);
	hist_add(&r->sched_hist, latency_ns);
	lat_stats_add(&r->lateness, lateness_ns);
	hist_add(&r->lateness_hist, lateness_ns);
}

static void *periodic_thread(void *arg)
{
	struct sim_engine *e = arg;
	struct sim_result *r = e->out;
	uint64_t interval_ns = e->spec.interval_us * NS_PER_US;
	uint64_t period = 0;

	set_sim_priority(e);
	uint64_t cpu0_ns = thread_cpu_ns(), prev_finish_ns = 0;
	r->interval_us = e->spec.interval_us;
	/* e->period and e->next_wake_ns always name the first unfinished period. */
	for (;;) {
		sem_wait_intr(&e->wake);
		if (atomic_load(&e->stop))
			break;
		uint64_t run_ns = now_ns();
		uint64_t latency_ns = run_ns - e->timer_ns, lateness_ns = run_ns - e->wake_ns;
		uint64_t work_us = sim_work_us(&e->spec, period), cpu0 = thread_cpu_ns(), loops = 0;
		if (burn_work(e, work_us, &loops) < work_us)
			break;  /* unfinished: no latency sample (account_unfinished) */
		add_start_samples(r, latency_ns, lateness_ns);
		uint64_t finish_ns = now_ns(), loop_ns = thread_cpu_ns() - cpu0;
		loop_acct_period(&r->loop, loop_ns, loops * NS_PER_MS / e->cfg.loops_per_ms);
		struct deadline_verdict v = deadline_check(e->wake_ns, interval_ns, finish_ns);
		if (prev_finish_ns) {
			lat_stats_add(&r->frame, finish_ns - prev_finish_ns);
			hist_add(&r->frame_hist, finish_ns - prev_finish_ns);
		}
		prev_finish_ns = finish_ns;
		bool xrun = e->spec.buffer_periods &&
			    audio_acct_period(&r->audio, e->spec.buffer_periods, interval_ns, e->wake_ns, lateness_ns, finish_ns, &v);
		if (e->cfg.timeline)
			timeline_push(e->cfg.timeline, &(struct timeline_rec){
				.pair = e->cfg.timeline_pair, .period = (uint32_t)period, .start_ns = e->wake_ns - e->start_ns,
				.timer_ns = timeline_u32(e->timer_late_ns), .sched_ns = timeline_u32(latency_ns),
				.late_ns = timeline_u32(lateness_ns), .loop_ns = timeline_u32(loop_ns),
				.flags = (v.met ? TIMELINE_MET : 0) | (xrun ? TIMELINE_XRUN : 0),
				.skipped = (uint32_t)v.skipped });
		lat_stats_add(&r->interbench, interbench_latency_ns(e, latency_ns, finish_ns, period));
		deadline_acct_period(&r->acct, &v, work_us);
		for (uint64_t k = 1; k <= v.skipped; k++)
			deadline_acct_skip(&r->acct, sim_work_us(&e->spec, period + k));
		period += 1 + v.skipped;
		e->period = period;
		e->next_wake_ns = v.next_wake_ns;
		sem_post(&e->done);
	}
	uint64_t end_ns = now_ns();
	r->task_cpu_ns = thread_cpu_ns() - cpu0_ns;
	r->task_wall_ns = end_ns > e->start_ns ? end_ns - e->start_ns : 0;
	sem_post(&e->done);
	return NULL;
}

/* Gaming: frames of interval_us of pure CPU back to back; latency is each frame's overrun. */
static void *free_running_thread(void *arg)
{
	struct sim_engine *e = arg;
	struct sim_result *r = e->out;
	uint64_t frame_us = e->spec.interval_us;

	set_sim_priority(e);
	uint64_t cpu0_ns = thread_cpu_ns();
	r->interval_us = frame_us;
	for (uint64_t t0_ns = e->created_ns; !atomic_load(&e->stop); t0_ns = now_ns()) {
		uint64_t cpu_ns = thread_cpu_ns(), loops = 0;
		uint64_t done_us = burn_cpu_us(e->cfg.loops_per_ms, frame_us, &e->stop, &loops);
		uint64_t wall_ns = now_ns() - t0_ns;
		if (done_us == frame_us) {
			loop_acct_period(&r->loop, thread_cpu_ns() - cpu_ns, loops * NS_PER_MS / e->cfg.loops_per_ms);
			lat_stats_add(&r->frame, wall_ns);
			hist_add(&r->frame_hist, wall_ns);
		}
		uint64_t late_ns = wall_ns > frame_us * NS_PER_US ? wall_ns - frame_us * NS_PER_US : 0;
		/* A frame cut off by the stop counts only once it has overrun: it is late by at least
		 * late_ns, and a task starved for the whole window must not look unharmed. */
		if (done_us < frame_us && late_ns == 0)
			break;
		lat_stats_add(&r->sched, late_ns);
		hist_add(&r->sched_hist, late_ns);
		lat_stats_add(&r->interbench, late_ns);
		r->acct.periods++;
		r->acct.work_done_us += done_us;
		r->acct.work_wanted_us += wall_ns / NS_PER_US; /* CPU it would have had alone */
	}
	r->task_cpu_ns = thread_cpu_ns() - cpu0_ns;
	r->task_wall_ns = now_ns() - e->created_ns;
	return NULL;
}

static int start_timing_thread(struct sim_engine *e)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	if (e->cfg.timer_prio > 0) {
		struct sched_param sp = { .sched_priority = e->cfg.timer_prio };
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
	}
	int rc = pthread_create(&e->timer_tid, &attr, timing_thread, e);
	if (rc == EPERM && e->cfg.timer_prio > 0) {
		/* No privilege for SCHED_FIFO: run the timing thread at normal priority. */
		pthread_attr_setinheritsched(&attr, PTHREAD_INHERIT_SCHED);
		rc = pthread_create(&e->timer_tid, &attr, timing_thread, e);
	} else if (rc == 0 && e->cfg.timer_prio > 0) {
		e->out->timer_rt = true;
	}
	if (rc == 0)
		pthread_setname_np(e->timer_tid, "ib-timer");
	pthread_attr_destroy(&attr);
	return rc;
}

struct sim_engine *sim_start(const struct sim_spec *spec, const struct sim_run_cfg *cfg,
			     struct sim_result *out)
{
	memset(out, 0, sizeof(*out));
	struct sim_engine *e = calloc(1, sizeof(*e));
	if (!e) {
		out->error = ENOMEM;
		snprintf(out->errmsg, sizeof(out->errmsg), "calloc: %s", strerror(ENOMEM));
		return NULL;
	}
	e->spec = *spec;
	e->cfg = *cfg;
	e->out = out;
	atomic_init(&e->stop, false);
	sem_init(&e->wake, 0, 0); /* cannot fail: unshared, initial value 0 */
	sem_init(&e->done, 0, 0);
	e->created_ns = now_ns();
	e->start_ns = e->created_ns + e->spec.interval_us * NS_PER_US;
	e->next_wake_ns = e->start_ns;

	bool periodic = spec->desc->has_deadlines;
	int rc = pthread_create(&e->sim_tid, NULL, periodic ? periodic_thread : free_running_thread, e);
	if (rc == 0) {
		e->sim_started = true;
		pthread_setname_np(e->sim_tid, "ib-task");  /* found by name from outside (bench/) */
		if (periodic) {
			rc = start_timing_thread(e);
			e->timer_started = rc == 0;
		}
	}
	if (rc != 0) {
		out->error = rc;
		snprintf(out->errmsg, sizeof(out->errmsg), "pthread_create: %s", strerror(rc));
		sim_stop(e);
		return NULL;
	}
	return e;
}

/* After both threads are joined: the periods whose deadline passed before the stop at end_ns
 * while the task had not finished them are missed, their work not done, and for an audio task
 * xruns as the buffer allows (a task stuck in its first period is not left looking perfect). */
static void account_unfinished(struct sim_engine *e, uint64_t end_ns)
{
	if (!e->spec.desc->has_deadlines || !e->sim_started)
		return;
	uint64_t interval_ns = e->spec.interval_us * NS_PER_US;
	uint64_t n = deadline_unfinished_periods(e->next_wake_ns, interval_ns, end_ns);
	for (uint64_t k = 0; k < n; k++)
		deadline_acct_skip(&e->out->acct, sim_work_us(&e->spec, e->period + k));
	if (e->spec.buffer_periods)
		audio_acct_unfinished(&e->out->audio, e->spec.buffer_periods, interval_ns, e->next_wake_ns, end_ns, n);
	deadline_acct_streak_end(&e->out->acct);
}

void sim_stop(struct sim_engine *e)
{
	if (!e)
		return;
	uint64_t end_ns = now_ns();
	atomic_store(&e->stop, true);
	if (e->sim_started && e->cfg.timer_prio > 0) {
		/* The measurement is over: let the task see the stop now, not after a fair share
		 * among however many load threads (best effort; refused without privilege). */
		struct sched_param sp = { .sched_priority = e->cfg.timer_prio };
		pthread_setschedparam(e->sim_tid, SCHED_FIFO, &sp);
	}
	sem_post(&e->wake);
	sem_post(&e->done);
	if (e->timer_started)
		pthread_join(e->timer_tid, NULL);
	if (e->sim_started)
		pthread_join(e->sim_tid, NULL);
	account_unfinished(e, end_ns);
	sem_destroy(&e->wake);
	sem_destroy(&e->done);
	free(e);
}
