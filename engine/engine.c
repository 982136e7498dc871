/* The periodic engine: a timing thread that sleeps to each absolute deadline and wakes the
 * task, whose threads run its body (sim_desc.body, one thread doing each period's work when
 * none): the engine's calls they make (sim.h) record latencies, burn the period's work and
 * account the deadline.  Free-running tasks (Gaming) have no timing thread. */
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
#include "lib/schedpolicy.h"
#include "lib/timeutil.h"
#include "explain/hook.h"
#include "engine/sim.h"

/* Longest single sleep of the timing thread, so a stop request is seen within 100 ms. */
#define SLEEP_SLICE_NS SIM_STOP_SLICE_NS

/* One task thread. */
struct sim_thread {
	struct sim_engine *e;
	unsigned index;          /* 0 .. body->threads - 1 */
	pthread_t tid;
	bool started;
	sem_t woken;             /* sim_wake -> sim_wait_woken */
	uint64_t cpu_ns;         /* its CPU time from its start to its end (read after join) */
	uint64_t end_ns;         /* when its body returned (read after join) */
};

/* The period open now, between sim_period_begin and sim_period_end.  The burns add to it
 * atomically: several threads may burn for one period. */
struct period_figures {
	uint64_t start_ns;       /* its nominal start (free-running: the frame's start) */
	uint64_t work_us;        /* the work it asks for */
	uint64_t latency_ns;     /* timing thread awake -> task running */
	uint64_t lateness_ns;    /* nominal start -> task running */
	_Atomic uint64_t done_us, loops, cpu_ns; /* work done, loops run, CPU time of the burns */
	atomic_bool cut;         /* a burn was cut short by the stop */
};

struct sim_engine {
	struct sim_spec spec;
	struct sim_run_cfg cfg;
	struct sim_result *out;
	const struct sim_body *body;
	atomic_bool stop;
	sem_t wake;              /* timing thread -> task (sim_period_begin) */
	sem_t done;              /* task (sim_period_end) -> timing thread */
	uint64_t start_ns;       /* wake time of period 0 */
	uint64_t wake_ns;        /* wake time (deadline) of the current period */
	uint64_t timer_ns;       /* when the timing thread woke for it */
	uint64_t timer_late_ns;  /* how late the timer woke for it (0 when it was already due) */
	uint64_t next_wake_ns;   /* wake time of the first unfinished period (sim_period_end sets
	                            it before posting done; start_ns at first) */
	uint64_t period;         /* index of that period (task; read after join) */
	uint64_t created_ns;     /* when sim_start ran: the first Gaming frame starts here */
	uint64_t prev_finish_ns; /* when the last completed period finished, 0 before the first */
	uint64_t shown_early_period; /* --timeline: a frame shown before its period's record was
	                                pushed (the commit comes before the period's end), */
	uint64_t shown_early_ns;      /* and when, from start_ns (0: none waiting) */
	uint64_t marks_early_period;  /* the same for its marks (sim_frame_marks): its period, */
	uint64_t marks_early_input_ns, marks_early_ns[TIMELINE_MARKS]; /* its input and points (0: none) */
	struct period_figures cur;
	struct frame_acct frames; /* the frames' lows and stutter (engine/frames.h) */
	void *state;             /* body->state_bytes shared by the task's threads, or NULL */
	pthread_mutex_t err_lock; /* the first task thread's scheduling failure goes into out */
	pthread_mutex_t rec_lock; /* held while a period's figures are recorded into out, so
	                             sim_snapshot reads them whole */
	pthread_mutex_t measures_lock; /* held while the task's measures (and a task's frame
	                                  figures where shown) are recorded */
	const struct sim_measures *measures; /* spec.desc->measures, or NULL */
	void *measures_state;    /* its accounting (measures->state_bytes), or NULL */
	struct explainer explain; /* --explain (cfg.explain) */
	pthread_t timer_tid;
	bool timer_started;
	bool setup_failed;       /* body->setup refused: no teardown */
	unsigned threads;        /* task threads (body->threads), thr[] set up for each */
	struct sim_thread thr[SIM_MAX_THREADS];
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
		explainer_arm(&e->explain, e->period);
		sem_post(&e->wake);
		sem_wait_intr(&e->done);
		if (atomic_load(&e->stop)) /* that post may be sim_stop's, not the task's */
			break;
		next_ns = e->next_wake_ns;
	}
	return NULL;
}

/* Records the first refusal of a task thread's setting (msg, errno err) in out: it fails the
 * pair with the kernel's reason, as its figures would be labelled with a setting it never had. */
static void record_refusal(struct sim_engine *e, int err, const char *msg)
{
	struct sim_result *r = e->out;
	pthread_mutex_lock(&e->err_lock);
	if (!r->error) {
		r->error = err;
		snprintf(r->errmsg, sizeof(r->errmsg), "%s", msg);
	}
	pthread_mutex_unlock(&e->err_lock);
}

/* Whether thread i's own setting own leaves it below the realtime timing thread (and main, one
 * above it), which must preempt it: busy at or above them on every CPU, a task's threads would
 * starve both for good (RT throttling's share goes to SCHED_OTHER only).  False with the
 * refusal in msg (len bytes). */
static bool below_timing_thread(const struct sim_engine *e, unsigned i, const struct sched_setting *own, char *msg,
				size_t len)
{
	if ((own->kind != SP_FIFO && own->kind != SP_RR) || e->cfg.timer_prio <= 0 || own->rt_prio < e->cfg.timer_prio)
		return true;
	snprintf(msg, len, "task thread %u: %s %d is not below the timing thread's %d, which must preempt it "
		 "(accepted: 1 to %d here; the thread runs at the run's setting)", i, sched_kind_name(own->kind),
		 own->rt_prio, e->cfg.timer_prio, e->cfg.timer_prio - 1);
	return false;
}

/* Gives task thread number i (the caller) its policy and nice, priority or reservation: the
 * body's own for it (sim_body.thread_sched), else the run's (-B, -r, --bench-policy), and its
 * own CPUs (sim_body.thread_cpus).  A refusal is recorded (record_refusal); the task still
 * runs, so the engine's hand-offs stay as they are. */
static void set_sim_priority(struct sim_engine *e, unsigned i)
{
	struct sched_setting own;
	const struct sched_setting *s = &e->cfg.sched;
	char msg[sizeof(e->out->errmsg)];
	if (e->body->thread_sched && e->body->thread_sched(i, &e->spec, &own))
		s = &own;
	if (s == &own && !below_timing_thread(e, i, &own, msg, sizeof(msg))) {
		record_refusal(e, EPERM, msg);
		s = &e->cfg.sched;
	}
	if (!sched_setting_is_default(s) && sched_setting_apply(0, s, msg, sizeof(msg)) != 0)
		record_refusal(e, errno, msg);
	if (e->body->thread_cpus && sched_pin_cpus(e->body->thread_cpus(i, &e->spec), msg, sizeof(msg)) != 0)
		record_refusal(e, errno, msg);
}

/* interbench 0.31's latency of the period woken at e->wake_ns (number `period`) that the task
 * started latency_ns after the timing thread woke it and finished at finish_ns
 * (engine/deadline.h). */
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

/* One scheduling latency sample: its statistics, histogram and the batches of its intervals. */
static void add_sched_sample(struct sim_result *r, uint64_t latency_ns)
{
	lat_stats_add(&r->sched, latency_ns);
	hist_add(&r->sched_hist, latency_ns);
	bm_add(&r->sched_bm, (double)latency_ns);
	qb_add(&r->sched_qb, latency_ns);
	r->sched_over_period += latency_ns > r->interval_us * NS_PER_US;
	r->sched_over_perceptible += latency_ns > SIM_PERCEPTIBLE_JITTER_NS;
}

/* The latencies of a period's start, recorded once the period has completed: a period cut off
 * by the end of the run takes no sample, so every latency figure is over completed periods and a
 * task that completed none has none (shown as "-", never as 0). */
static void add_start_samples(struct sim_result *r, uint64_t latency_ns, uint64_t lateness_ns)
{
	add_sched_sample(r, latency_ns);
	lat_stats_add(&r->lateness, lateness_ns);
	hist_add(&r->lateness_hist, lateness_ns);
}

/* Clears the open period's figures for a period starting at start_ns. */
static void open_period(struct sim_engine *e, uint64_t start_ns, uint64_t work_us)
{
	struct period_figures *c = &e->cur;
	c->start_ns = start_ns;
	c->work_us = work_us;
	c->latency_ns = c->lateness_ns = 0;
	atomic_store(&c->done_us, 0);
	atomic_store(&c->loops, 0);
	atomic_store(&c->cpu_ns, 0);
	atomic_store(&c->cut, false);
}

const char *sim_wake_name_at(unsigned i)
{
	static const char *const names[] = { "thread", "timer" };
	return i < sizeof(names) / sizeof(names[0]) ? names[i] : NULL;
}

/* --wake timer: sleeps on the task's own absolute timer to the period's start (the period
 * before overran: at once), with the thread's own timer slack (prctl(2) PR_SET_TIMERSLACK:
 * 50 us by default for a normal thread, none for a realtime one), as an application does.  Stamps what the timing thread would: the start, and as "awake"
 * the start itself when it slept (its latency is then its whole wake-up), else the moment it
 * asked. */
static bool own_timer(struct sim_engine *e)
{
	uint64_t due_ns = e->next_wake_ns, asked_ns = now_ns();
	explainer_arm(&e->explain, e->period);
	bool slept = sleep_until_or_stop(e, due_ns);
	if (atomic_load(&e->stop))
		return false;
	e->wake_ns = due_ns;
	e->timer_ns = slept ? due_ns : asked_ns;
	e->timer_late_ns = 0;
	return true;
}

/* Periodic: waits for the timing thread's wake-up (or its own timer) and opens its period,
 * its latencies taken now.  False when stopped. */
static bool wait_for_period(struct sim_engine *e)
{
	if (e->cfg.sched.own_timer) {
		if (!own_timer(e))
			return false;
	} else {
		sem_wait_intr(&e->wake);
	}
	if (atomic_load(&e->stop))
		return false;
	uint64_t run_ns = now_ns();
	open_period(e, e->wake_ns, sim_work_us(&e->spec, e->period));
	e->cur.latency_ns = run_ns - e->timer_ns;
	e->cur.lateness_ns = run_ns - e->wake_ns;
	return true;
}

/* Free-running: opens the next frame at once (the first at sim_start).  False when stopped. */
static bool start_frame(struct sim_engine *e)
{
	if (atomic_load(&e->stop))
		return false;
	open_period(e, e->period ? now_ns() : e->created_ns, e->spec.interval_us);
	return true;
}

bool sim_period_begin(struct sim_thread *t, struct sim_period *p)
{
	struct sim_engine *e = t->e;
	bool opened = e->spec.desc->has_deadlines ? wait_for_period(e) : start_frame(e);
	if (opened && p)
		sim_period_current(t, p);
	return opened;
}

void sim_period_current(const struct sim_thread *t, struct sim_period *p)
{
	const struct sim_engine *e = t->e;
	*p = (struct sim_period){ .index = e->period, .start_ns = e->cur.start_ns, .work_us = e->cur.work_us };
}

uint64_t sim_burn(struct sim_thread *t, uint64_t work_us)
{
	struct sim_engine *e = t->e;
	uint64_t loops = 0, cpu0_ns = thread_cpu_ns();
	uint64_t done_us = burn_work(e, work_us, &loops);
	atomic_fetch_add(&e->cur.cpu_ns, thread_cpu_ns() - cpu0_ns);
	atomic_fetch_add(&e->cur.loops, loops);
	atomic_fetch_add(&e->cur.done_us, done_us);
	if (done_us < work_us)
		atomic_store(&e->cur.cut, true);
	return done_us;
}

/* The open period's CPU-loop time: its burns' CPU time against their loops' calibrated
 * length.  Returns that CPU time, ns. */
static uint64_t account_loop(struct sim_engine *e)
{
	uint64_t cpu_ns = atomic_load(&e->cur.cpu_ns);
	loop_acct_period(&e->out->loop, cpu_ns, atomic_load(&e->cur.loops) * NS_PER_MS / e->cfg.loops_per_ms);
	return cpu_ns;
}

/* One frame of frame_ns that ended (was shown) at at_ns: the frame figures (sim_result.frame,
 * frame_hist, the lows and stutter of engine/frames.h) and, with --frame-log, its record, timed
 * from period 0's start (a free-running task's first frame). */
static void record_frame(struct sim_engine *e, uint64_t frame_ns, uint64_t at_ns)
{
	uint64_t origin_ns = e->spec.desc->has_deadlines ? e->start_ns : e->created_ns;
	lat_stats_add(&e->out->frame, frame_ns);
	hist_add(&e->out->frame_hist, frame_ns);
	frame_acct_add(&e->frames, frame_ns);
	if (e->cfg.frame_log)
		frame_log_push(e->cfg.frame_log, at_ns > origin_ns ? at_ns - origin_ns : 0, frame_ns);
}

/* Frame time: from the last completed period's finish to this one's at finish_ns. */
static void add_frame_time(struct sim_engine *e, uint64_t finish_ns)
{
	if (e->prev_finish_ns)
		record_frame(e, finish_ns - e->prev_finish_ns, finish_ns);
	e->prev_finish_ns = finish_ns;
}

/* The --timeline record of the open period, judged v, whose loops took loop_ns. */
static void push_timeline(struct sim_engine *e, const struct deadline_verdict *v, bool xrun, uint64_t loop_ns)
{
	const struct period_figures *c = &e->cur;
	struct timeline_rec r = {
		.pair = e->cfg.timeline_pair, .period = (uint32_t)e->period, .start_ns = e->wake_ns - e->start_ns,
		.timer_ns = timeline_u32(e->timer_late_ns), .sched_ns = timeline_u32(c->latency_ns),
		.late_ns = timeline_u32(c->lateness_ns), .loop_ns = timeline_u32(loop_ns),
		.flags = (v->met ? TIMELINE_MET : 0) | (xrun ? TIMELINE_XRUN : 0),
		.skipped = (uint32_t)v->skipped,
		.shown_ns = e->shown_early_period == e->period ? e->shown_early_ns : 0 };
	if (e->marks_early_period == e->period && e->marks_early_ns[0])
		timeline_set_marks(&r, e->wake_ns, e->marks_early_input_ns, e->marks_early_ns);
	timeline_push(e->cfg.timeline, &r);
}

/* The open period's deadline and the periods dropped after it (v), then on to the next. */
static void account_deadline(struct sim_engine *e, const struct deadline_verdict *v)
{
	deadline_acct_period(&e->out->acct, v, e->cur.work_us);
	for (uint64_t k = 1; k <= v->skipped; k++)
		deadline_acct_skip(&e->out->acct, sim_work_us(&e->spec, e->period + k));
	e->period += 1 + v->skipped;
	e->next_wake_ns = v->next_wake_ns;
}

/* --explain: the period ending at finish_ns, explained when it missed (or was late enough). */
static void explain_period(struct sim_engine *e, uint64_t finish_ns, bool missed)
{
	if (!e->explain.cfg || e->out->explain_error)
		return;
	struct explain_facts f = { .index = e->period, .start_ns = e->wake_ns - e->start_ns, .due_ns = e->wake_ns,
				   .timer_ns = e->timer_ns, .timer_late_ns = e->timer_late_ns, .finish_ns = finish_ns,
				   .missed = missed };
	e->out->explain_error = explainer_period_end(&e->explain, &f, e->cur.lateness_ns, &e->out->explain,
						     &e->out->explain_kept);
	if (e->out->explain_error)
		e->out->explain.source = EXPLAIN_NONE; /* the floor stopped */
}

/* The task's measures' look at the period completed at finish_ns, judged v.  Returns whether
 * they mark it in the timeline (sim_measures.period_end). */
static bool measures_period_end(struct sim_engine *e, uint64_t finish_ns, const struct deadline_verdict *v)
{
	if (!e->measures || !e->measures->period_end)
		return false;
	struct sim_period_facts f = { .index = e->period, .wake_ns = e->wake_ns, .lateness_ns = e->cur.lateness_ns,
				      .finish_ns = finish_ns, .met = v->met, .skipped = v->skipped };
	pthread_mutex_lock(&e->measures_lock);
	bool marked = e->measures->period_end(e->measures_state, &f);
	pthread_mutex_unlock(&e->measures_lock);
	return marked;
}

/* --on-threshold: posts the period closing now (number e->period, its --explain record the
 * last kept when explained) to the watch when its scheduling latency exceeds the threshold
 * and main has taken the last post, with e->rec_lock held.  Returns whether to notify main
 * (late_notify, after the hand-off). */
static bool late_post(struct sim_engine *e, uint64_t latency_ns, uint64_t start_ns)
{
	struct sim_late_watch *w = e->cfg.late;
	if (!w || latency_ns <= atomic_load_explicit(&w->threshold_ns, memory_order_relaxed) ||
	    atomic_load_explicit(&w->pending, memory_order_acquire))
		return false;
	const struct explain_kept *k = &e->out->explain_kept;
	const struct explain_period *last = k->n ? &k->periods[(k->next + EXPLAIN_KEEP - 1) % EXPLAIN_KEEP] : NULL;
	w->latency_ns = latency_ns;
	w->period = e->period;
	w->at_ns = start_ns;
	w->explained = last && last->index == e->period;
	if (w->explained)
		w->why = *last;
	atomic_store_explicit(&w->pending, 1, memory_order_release);
	return true;
}

/* Tells main a period was posted: one byte, never blocking (a full pipe already tells it). */
static void late_notify(struct sim_engine *e)
{
	if (e->cfg.late->notify_fd >= 0 && write(e->cfg.late->notify_fd, "!", 1) != 1) {
		/* EAGAIN: main has bytes to read already; main is gone: the stop follows */
	}
}

/* Periodic: records the completed period and lets the timing thread sleep to the next. */
static bool end_period(struct sim_engine *e)
{
	struct sim_result *r = e->out;
	const struct period_figures *c = &e->cur;
	uint64_t interval_ns = e->spec.interval_us * NS_PER_US;
	if (atomic_load(&c->cut))
		return false;  /* unfinished: no latency sample (account_unfinished) */
	uint64_t finish_ns = now_ns();
	pthread_mutex_lock(&e->rec_lock);
	add_start_samples(r, c->latency_ns, c->lateness_ns);
	uint64_t loop_ns = account_loop(e);
	struct deadline_verdict v = deadline_check(e->wake_ns, interval_ns, finish_ns);
	if (e->spec.deadline_us && finish_ns > e->wake_ns + e->spec.deadline_us * NS_PER_US)
		v.met = false;  /* its own deadline, before the next period (sim_spec.deadline_us) */
	if (!e->measures || !e->measures->shows_frames)
		add_frame_time(e, finish_ns);
	bool xrun = measures_period_end(e, finish_ns, &v);
	if (e->cfg.timeline)
		push_timeline(e, &v, xrun, loop_ns);
	lat_stats_add(&r->classic, interbench_latency_ns(e, c->latency_ns, finish_ns, e->period));
	explain_period(e, finish_ns, !v.met);
	bool late = late_post(e, c->latency_ns, e->wake_ns - e->start_ns);
	account_deadline(e, &v);
	pthread_mutex_unlock(&e->rec_lock);
	if (!e->cfg.sched.own_timer) /* else no timing thread waits for it */
		sem_post(&e->done);
	if (late)
		late_notify(e);
	return true;
}

/* Free-running (Gaming): the frame's latency is its overrun.  A frame cut off by the stop
 * counts only once it has overrun: it is late by at least that, and a task starved for the
 * whole window must not look unharmed. */
static bool end_frame(struct sim_engine *e)
{
	struct sim_result *r = e->out;
	uint64_t frame_ns = e->spec.interval_us * NS_PER_US, end_ns = now_ns(), wall_ns = end_ns - e->cur.start_ns;
	bool cut = atomic_load(&e->cur.cut);
	if (!cut) {
		account_loop(e);
		record_frame(e, wall_ns, end_ns);
	}
	uint64_t late_ns = wall_ns > frame_ns ? wall_ns - frame_ns : 0;
	if (cut && late_ns == 0)
		return false;
	pthread_mutex_lock(&e->rec_lock);
	add_sched_sample(r, late_ns);
	lat_stats_add(&r->classic, late_ns);
	uint64_t done_us = atomic_load(&e->cur.done_us), wanted_us = wall_ns / NS_PER_US;
	r->acct.periods++;
	r->acct.work_done_us += done_us;
	r->acct.work_wanted_us += wanted_us; /* CPU it would have had alone */
	br_add(&r->acct.work_bm, (double)done_us, (double)wanted_us);
	bool late = late_post(e, late_ns, e->cur.start_ns - e->created_ns);
	pthread_mutex_unlock(&e->rec_lock);
	if (late)
		late_notify(e);
	e->period++;
	return !cut;
}

bool sim_period_end(struct sim_thread *t)
{
	return t->e->spec.desc->has_deadlines ? end_period(t->e) : end_frame(t->e);
}

uint64_t sim_burn_aside(struct sim_thread *t, uint64_t work_us)
{
	uint64_t loops = 0, done_us = burn_cpu_us(t->e->cfg.loops_per_ms, work_us, &t->e->stop, &loops);
	__atomic_fetch_add(&t->e->out->aside_loops, loops, __ATOMIC_RELAXED);
	return done_us;
}

bool sim_sleep_until(struct sim_thread *t, uint64_t at_ns)
{
	sleep_until_or_stop(t->e, at_ns);
	return !atomic_load(&t->e->stop);
}

uint64_t sim_start_ns(const struct sim_thread *t)
{
	return t->e->start_ns;
}

const struct sim_spec *sim_task_spec(const struct sim_thread *t)
{
	return &t->e->spec;
}

void *sim_measures_lock(struct sim_thread *t)
{
	if (!t->e->measures_state)
		return NULL;
	pthread_mutex_lock(&t->e->measures_lock);
	return t->e->measures_state;
}

void sim_measures_unlock(struct sim_thread *t)
{
	if (t->e->measures_state)
		pthread_mutex_unlock(&t->e->measures_lock);
}

void sim_frame_shown(struct sim_thread *t, uint64_t frame, uint64_t shown_ns, uint64_t frame_ns)
{
	struct sim_engine *e = t->e;
	pthread_mutex_lock(&e->rec_lock);
	if (frame_ns)
		record_frame(e, frame_ns, shown_ns);
	/* its period's record, pushed when the frame was committed a few periods ago at most; or,
	 * when the compositor showed it between its commit and its period's end, to be pushed */
	if (e->cfg.timeline && shown_ns >= e->start_ns &&
	    !timeline_mark_shown(e->cfg.timeline, (uint32_t)frame, shown_ns - e->start_ns, SIM_SHOWN_WITHIN) &&
	    frame >= e->period) {
		e->shown_early_period = frame;
		e->shown_early_ns = shown_ns - e->start_ns;
	}
	pthread_mutex_unlock(&e->rec_lock);
}

void sim_frame_marks(struct sim_thread *t, uint64_t frame, uint64_t input_ns, const uint64_t *at_ns)
{
	struct sim_engine *e = t->e;
	if (!e->cfg.timeline)
		return;
	pthread_mutex_lock(&e->rec_lock);
	/* as sim_frame_shown: its record, or kept for it until it is pushed */
	if (!timeline_mark_frame(e->cfg.timeline, (uint32_t)frame, e->start_ns, input_ns, at_ns, SIM_SHOWN_WITHIN) &&
	    frame >= e->period) {
		e->marks_early_period = frame;
		e->marks_early_input_ns = input_ns;
		memcpy(e->marks_early_ns, at_ns, sizeof(e->marks_early_ns));
	}
	pthread_mutex_unlock(&e->rec_lock);
}

bool sim_stopped(const struct sim_thread *t)
{
	return atomic_load(&t->e->stop);
}

void sim_wake(struct sim_thread *t, unsigned to)
{
	if (to < t->e->threads)
		sem_post(&t->e->thr[to].woken);
}

bool sim_wait_woken(struct sim_thread *t)
{
	sem_wait_intr(&t->woken);
	return !atomic_load(&t->e->stop);
}

unsigned sim_thread_index(const struct sim_thread *t)
{
	return t->index;
}

void *sim_task_state(const struct sim_thread *t)
{
	return t->e->state;
}

/* The task without a body of its own: one thread does each period's (each frame's) work. */
static void one_thread_run(struct sim_thread *t)
{
	struct sim_period p;
	while (sim_period_begin(t, &p)) {
		sim_burn(t, p.work_us);
		if (!sim_period_end(t))
			break;
	}
}

static const struct sim_body one_thread_body = { .threads = 1, .run = one_thread_run };

/* Every task thread: its scheduling setting, its body, and its CPU time over the body. */
static void *task_thread(void *arg)
{
	struct sim_thread *t = arg;
	set_sim_priority(t->e, t->index);
	bool tracked = explainer_follows(&t->e->explain, t->index);
	int err = tracked ? explainer_thread_start(&t->e->explain, t->index) : 0;
	if (err) {
		t->e->out->explain_error = err;
		t->e->out->explain.source = EXPLAIN_NONE;
	}
	uint64_t cpu0_ns = thread_cpu_ns();
	t->e->body->run(t);
	t->cpu_ns = thread_cpu_ns() - cpu0_ns;
	if (tracked)
		explainer_thread_end(&t->e->explain, t->index);
	t->end_ns = now_ns();
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

/* Creates the body's task threads, named "ib-task" (found by name from outside: bench/),
 * "ib-task-1", ...  Returns 0, or pthread_create's error (the threads made so far run on). */
static int start_task_threads(struct sim_engine *e)
{
	for (unsigned i = 0; i < e->threads; i++) {
		struct sim_thread *t = &e->thr[i];
		char name[16];
		int rc = pthread_create(&t->tid, NULL, task_thread, t);
		if (rc != 0)
			return rc;
		t->started = true;
		if (e->body->name)
			e->body->name(i, name, sizeof(name));
		else
			snprintf(name, sizeof(name), i ? "ib-task-%u" : "ib-task", i);
		pthread_setname_np(t->tid, name);
	}
	return 0;
}

/* The body a task runs: its own, or one thread doing each period's work.  NULL with out's
 * error set when it asks for no or too many threads, or has no run. */
static const struct sim_body *task_body(const struct sim_desc *desc, struct sim_result *out)
{
	const struct sim_body *b = desc->body ? desc->body : &one_thread_body;
	if (b->threads >= 1 && b->threads <= SIM_MAX_THREADS && b->run)
		return b;
	out->error = EINVAL;
	snprintf(out->errmsg, sizeof(out->errmsg), "task body: %u threads (1 to %u)%s", b->threads,
		 SIM_MAX_THREADS, b->run ? "" : ", no run");
	return NULL;
}

/* The engine for spec and cfg recording into out, with its semaphores and the task threads'
 * descriptions, no thread started yet.  Returns NULL with out->error / errmsg set when the
 * body is malformed or memory short. */
static struct sim_engine *engine_new(const struct sim_spec *spec, const struct sim_run_cfg *cfg,
				     struct sim_result *out)
{
	const struct sim_body *body = task_body(spec->desc, out);
	if (!body)
		return NULL;
	struct sim_engine *e = malloc(sizeof(*e));
	void *state = body->state_bytes ? calloc(1, body->state_bytes) : NULL;
	const struct sim_measures *m = spec->desc->measures;
	void *acct = m && m->state_bytes ? calloc(1, m->state_bytes) : NULL;
	if (!e || (body->state_bytes && !state) || (m && m->state_bytes && !acct)) {
		free(e);
		free(state);
		free(acct);
		out->error = ENOMEM;
		snprintf(out->errmsg, sizeof(out->errmsg), "malloc: %s", strerror(ENOMEM));
		return NULL;
	}
	*e = (struct sim_engine){ .spec = *spec, .cfg = *cfg, .out = out, .body = body, .state = state,
				  .measures = m, .measures_state = acct, .threads = body->threads };
	if (m && m->start)
		m->start(acct, spec);
	if (body->threads_for && body->threads_for(spec) < body->threads)
		e->threads = body->threads_for(spec) ? body->threads_for(spec) : 1;
	explainer_init(&e->explain, spec->desc->has_deadlines ? cfg->explain : NULL, &body->explained, e->threads, &out->explain);
	if (e->explain.cfg) { /* what explains, known before any period is */
		out->explain.threshold_ns = e->explain.cfg->threshold_ns;
		out->explain.source = e->explain.cfg->tracer ? EXPLAIN_BPF : EXPLAIN_SCHEDSTAT;
	}
	atomic_init(&e->stop, false);
	sem_init(&e->wake, 0, 0); /* cannot fail: unshared, initial value 0 */
	sem_init(&e->done, 0, 0);
	pthread_mutex_init(&e->err_lock, NULL);
	pthread_mutex_init(&e->rec_lock, NULL);
	pthread_mutex_init(&e->measures_lock, NULL);
	for (unsigned i = 0; i < e->threads; i++) {
		e->thr[i] = (struct sim_thread){ .e = e, .index = i };
		sem_init(&e->thr[i].woken, 0, 0);
	}
	return e;
}

struct sim_engine *sim_start(const struct sim_spec *spec, const struct sim_run_cfg *cfg,
			     struct sim_result *out)
{
	memset(out, 0, sizeof(*out));
	struct sim_engine *e = engine_new(spec, cfg, out);
	if (!e)
		return NULL;
	out->interval_us = spec->interval_us;
	e->created_ns = now_ns();
	e->start_ns = e->created_ns + e->spec.interval_us * NS_PER_US;
	e->next_wake_ns = e->start_ns;
	out->start_ns = spec->desc->has_deadlines ? e->start_ns : e->created_ns;
	if (e->body->setup) {
		int err = e->body->setup(e->state, &e->spec, out->errmsg, sizeof(out->errmsg));
		if (err) {
			out->error = err;
			e->setup_failed = true;
			sim_stop(e);
			return NULL;
		}
	}

	int rc = start_task_threads(e);
	if (rc == 0 && spec->desc->has_deadlines && !cfg->sched.own_timer) {
		rc = start_timing_thread(e);
		e->timer_started = rc == 0;
	}
	if (rc != 0) {
		out->error = rc;
		snprintf(out->errmsg, sizeof(out->errmsg), "pthread_create: %s", strerror(rc));
		sim_stop(e);
		return NULL;
	}
	return e;
}

/* After every thread is joined: the periods whose deadline passed before the stop at end_ns
 * while the task had not finished them are missed, their work not done, and counted by the
 * task's measures as they count them (ProAudio's: xruns as the buffer allows), so a task stuck
 * in its first period is not left looking perfect. */
static void account_unfinished(struct sim_engine *e, uint64_t end_ns)
{
	if (!e->spec.desc->has_deadlines || !e->thr[0].started)
		return;
	uint64_t interval_ns = e->spec.interval_us * NS_PER_US;
	uint64_t n = deadline_unfinished_periods(e->next_wake_ns, interval_ns, end_ns);
	for (uint64_t k = 0; k < n; k++)
		deadline_acct_skip(&e->out->acct, sim_work_us(&e->spec, e->period + k));
	if (e->measures && e->measures->unfinished)
		e->measures->unfinished(e->measures_state, e->next_wake_ns, end_ns, n);
	deadline_acct_streak_end(&e->out->acct);
}

/* After every thread is joined: the task's CPU time, summed over its threads, and its wall time
 * from its first period (a free-running task's first frame) to the end of its last thread. */
static void account_task_time(struct sim_engine *e)
{
	uint64_t cpu_ns = 0, end_ns = 0, from_ns = e->spec.desc->has_deadlines ? e->start_ns : e->created_ns;
	for (unsigned i = 0; i < e->threads; i++) {
		cpu_ns += e->thr[i].cpu_ns;
		if (e->thr[i].end_ns > end_ns)
			end_ns = e->thr[i].end_ns;
	}
	e->out->task_cpu_ns = cpu_ns;
	e->out->task_wall_ns = end_ns > from_ns ? end_ns - from_ns : 0;
}

/* Asks every thread to stop: raised to SCHED_FIFO with a realtime timing thread, then woken
 * wherever it waits. */
static void wake_for_stop(struct sim_engine *e)
{
	atomic_store(&e->stop, true);
	for (unsigned i = 0; i < e->threads && e->cfg.timer_prio > 0; i++) {
		/* The measurement is over: let the task see the stop now, not after a fair share
		 * among however many load threads (best effort; refused without privilege). */
		struct sched_param sp = { .sched_priority = e->cfg.timer_prio };
		if (e->thr[i].started)
			pthread_setschedparam(e->thr[i].tid, SCHED_FIFO, &sp);
	}
	sem_post(&e->wake);
	sem_post(&e->done);
	for (unsigned i = 0; i < e->threads; i++)
		sem_post(&e->thr[i].woken);
}

void sim_stop(struct sim_engine *e)
{
	if (!e)
		return;
	uint64_t end_ns = now_ns();
	wake_for_stop(e);
	if (e->timer_started)
		pthread_join(e->timer_tid, NULL);
	for (unsigned i = 0; i < e->threads; i++)
		if (e->thr[i].started)
			pthread_join(e->thr[i].tid, NULL);
	account_task_time(e);
	account_unfinished(e, end_ns);
	frame_acct_figures(&e->frames, &e->out->frame_hist, &e->out->frame_figs);
	frame_acct_free(&e->frames);
	if (e->measures && e->measures->figures) {
		snprintf(e->out->task.name, sizeof(e->out->task.name), "%s", e->measures->name);
		e->measures->figures(e->measures_state, e->out->task.data.bytes);
	}
	for (unsigned i = 0; i < e->threads; i++)
		sem_destroy(&e->thr[i].woken);
	sem_destroy(&e->wake);
	sem_destroy(&e->done);
	pthread_mutex_destroy(&e->err_lock);
	pthread_mutex_destroy(&e->rec_lock);
	pthread_mutex_destroy(&e->measures_lock);
	if (e->body->teardown && !e->setup_failed)
		e->body->teardown(e->state);
	free(e->state);
	free(e->measures_state);
	free(e);
}

void sim_snapshot(struct sim_engine *e, struct sim_result *dst)
{
	const struct sim_result *r = e->out;
	pthread_mutex_lock(&e->rec_lock);
	dst->sched = r->sched;
	dst->sched_hist = r->sched_hist;
	dst->sched_bm = r->sched_bm;
	dst->sched_qb = r->sched_qb;
	dst->acct = r->acct;
	pthread_mutex_unlock(&e->rec_lock);
	dst->interval_us = r->interval_us;
}
