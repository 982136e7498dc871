/* Pipeline: a frame made by a chain of threads, as a game's or a desktop application's is, and
 * shown by a compositor at a display's vsyncs.  An input source (a gaming mouse: --input-rate
 * events a second, woken by its own timer as an interrupt-driven device is) publishes events;
 * each frame (period of 1 / --refresh) the game thread picks up the newest, runs its logic
 * (--logic-work), forks the frame's share of --worker-work to --workers threads and joins them,
 * and hands the frame to the render thread (--render-work), which commits it to the compositor
 * through an eventfd, as a client reaches a separate compositor process.  The compositor wakes
 * for each commit, and --repaint-window before each vsync (weston.ini(5) "repaint-window":
 * how long before the vsync a compositor starts composing) latches the newest committed frame,
 * composes it (--compose-work) and shows it at that vsync, or at the first one after it
 * finished composing.  Every stage burns CPU by its own thread clock.  A frame's deadline is
 * its latch: committed later, it misses the vsync.
 *
 * Figures (its measures, workloads/pipeline_chain.h): input-to-present latency per event, frame time where the frames are
 * shown, jank (vsyncs that showed no new frame), each stage's wake-to-run latency and where
 * the input-to-present time went.  The defaults ask 10 ms of CPU a frame at 60 Hz: 60 % of
 * the frame on one idle CPU.  In a run only when -W (or, as a load, -w) names it. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include "lib/timeutil.h"
#include "workloads/pipeline_chain.h"
#include "workloads/workload.h"

#define PIPE_MAX_WORKERS 12
/* Frames kept for the compositor, which reads the newest committed: the game thread makes at
 * most the frame after the one being rendered, so the slot of the newest committed frame is
 * never the one being written. */
#define PIPE_RING 8

struct pipeline_opts {
	unsigned refresh_hz;     /* --refresh */
	unsigned input_rate_hz;  /* --input-rate */
	unsigned workers;        /* --workers */
	unsigned logic_us, worker_us, render_us, repaint_us;
	int64_t compose_us;      /* --compose-work; -1: not given (compose_work_us) */
};

#define US_OPT(name, field, dflt, most, what) { \
	.long_name = name, .type = OPTSPEC_UINT, .metavar = "TIME", .time_unit_ns = 1000, \
	.help = "Pipeline: " what, .min = 0, .max = most, .def = dflt, .json_key = "pipeline_" #field, \
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct pipeline_opts, field) }

static const struct optspec pipe_opt_refresh = {
	.long_name = "refresh", .type = OPTSPEC_UINT, .metavar = "HZ", .unit = "Hz",
	.help = "Pipeline: the display's refresh rate, 24..500 Hz (default: 60)", .min = 24, .max = 500,
	.def = 60, .json_key = "pipeline_refresh_hz", .section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct pipeline_opts, refresh_hz),
};
static const struct optspec pipe_opt_input = {
	.long_name = "input-rate", .type = OPTSPEC_UINT, .metavar = "HZ", .unit = "Hz",
	.help = "Pipeline: input events a second, 10..8000 Hz (default: 1000, a gaming mouse)", .min = 10,
	.max = 8000, .def = 1000, .json_key = "pipeline_input_rate_hz",
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct pipeline_opts, input_rate_hz),
};
static const struct optspec pipe_opt_workers = {
	.long_name = "workers", .type = OPTSPEC_UINT, .metavar = "N",
	.help = "Pipeline: worker threads sharing --worker-work, 1..12 (default: 2)", .min = 1,
	.max = PIPE_MAX_WORKERS, .def = 2, .json_key = "pipeline_workers",
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct pipeline_opts, workers),
};
static const struct optspec pipe_opt_logic = US_OPT("logic-work", logic_us, 2000, 1000000,
	"the game thread's CPU per frame (a bare number: microseconds; default: 2ms)");
static const struct optspec pipe_opt_worker = US_OPT("worker-work", worker_us, 4000, 1000000,
	"CPU per frame shared by the workers (default: 4ms)");
static const struct optspec pipe_opt_render = US_OPT("render-work", render_us, 3000, 1000000,
	"the render thread's CPU per frame (default: 3ms)");
/* Not given (-1), the compositor's work follows the repaint window (compose_work_us), so that
 * every --refresh the option accepts runs with the defaults. */
static const struct optspec pipe_opt_compose = {
	.long_name = "compose-work", .type = OPTSPEC_I64, .metavar = "TIME", .time_unit_ns = 1000,
	.help = "Pipeline: the compositor's CPU per vsync, less than the repaint window (default: 1ms, "
		"or half the repaint window when that is less)",
	.min = 0, .max = 1000000, .def = -1, .json_key = "pipeline_compose_us",
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct pipeline_opts, compose_us),
};
static const struct optspec pipe_opt_repaint = US_OPT("repaint-window", repaint_us, 0, 1000000,
	"the compositor latches this long before each vsync, more than --compose-work (default: weston's 7ms, at most 40% of the frame)");

/* The task's threads: the chain's, then the workers. */
enum { PIPE_GAME, PIPE_RENDER, PIPE_COMPOSITOR, PIPE_INPUT, PIPE_WORKER0 };

/* What the threads share (sim_task_state). */
struct pipe_state {
	const struct pipeline_opts *o;
	uint64_t frame_ns, input_period_ns;
	int commit_fd;                    /* eventfd: render -> compositor */
	int vsync_fd;                     /* timerfd: the compositor's latch times */
	_Atomic uint64_t input_seq;       /* the newest input event delivered */
	/* Frames are kept in the ring in the order made, frame k in ring[k % PIPE_RING] (k counts
	 * the frames made, not the periods: a frame longer than a period skips periods, and slots
	 * by period number would let a new frame take the newest committed one's slot). */
	uint64_t made;                    /* frames the game thread began (its own) */
	uint64_t handed;                  /* the ring number k of the frame handed to render */
	_Atomic uint64_t committed;       /* frames committed: the newest is ring number committed - 1 */
	_Atomic unsigned pending;         /* workers still at the frame's fork-join share */
	uint64_t fork_ns, joined_ns, handed_ns; /* the fork, the last worker done, the hand-off */
	struct chain_frame ring[PIPE_RING];
};

/* The repaint window: --repaint-window, or weston's default of 7 ms (weston.ini(5)) cut to
 * 40 % of a frame shorter than 17.5 ms. */
static unsigned repaint_window_us(const struct pipeline_opts *o)
{
	unsigned frame_us = 1000000 / o->refresh_hz;
	if (o->repaint_us)
		return o->repaint_us;
	return frame_us * 2 / 5 < 7000 ? frame_us * 2 / 5 : 7000;
}

/* The compositor's CPU per vsync: --compose-work, or 1000 us cut to half the repaint window (a
 * frame of 5 ms or less: above 200 Hz), leaving the compositor the other half to wake in. */
static unsigned compose_work_us(const struct pipeline_opts *o)
{
	unsigned half_us = repaint_window_us(o) / 2;
	if (o->compose_us >= 0)
		return (unsigned)o->compose_us;
	return half_us < 1000 ? half_us : 1000;
}

static uint64_t pipeline_work_us(const struct sim_spec *spec, uint64_t period)
{
	(void)period;
	const struct pipeline_opts *o = spec->opts;
	return (uint64_t)o->logic_us + o->worker_us + o->render_us;
}

static void pipeline_params(const void *opts, struct sim_spec *spec)
{
	const struct pipeline_opts *o = opts;
	spec->interval_us = (1000000 + o->refresh_hz / 2) / o->refresh_hz;
}

/* The repaint window more than the compose work and less than the frame.  A --compose-work
 * given against the default window is named itself, with the window it must fit. */
static int pipeline_check(const void *opts, char *err, size_t len)
{
	const struct pipeline_opts *o = opts;
	unsigned frame_us = 1000000 / o->refresh_hz, repaint_us = repaint_window_us(o), compose_us = compose_work_us(o);
	if (repaint_us > compose_us && repaint_us < frame_us)
		return 0;
	if (!o->repaint_us && o->compose_us >= 0)
		snprintf(err, len, "--compose-work: %u (accepted: microseconds less than the repaint window, %u at --refresh "
			 "%u Hz: 40%% of the frame, at most 7000; or a longer --repaint-window, less than the frame, %u)",
			 compose_us, repaint_us, o->refresh_hz, frame_us);
	else
		snprintf(err, len, "--repaint-window: %u (accepted: microseconds more than --compose-work %u and less "
			 "than the frame at --refresh %u Hz, %u)", repaint_us, compose_us, o->refresh_hz, frame_us);
	return -1;
}

static int pipeline_setup(void *state, const struct sim_spec *spec, char *errmsg, size_t len)
{
	struct pipe_state *st = state;
	st->o = spec->opts;
	st->frame_ns = spec->interval_us * NS_PER_US;
	st->input_period_ns = 1000000000ull / st->o->input_rate_hz;
	st->commit_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	st->vsync_fd = st->commit_fd < 0 ? -1 : timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (st->vsync_fd >= 0)
		return 0;
	int err = errno;
	snprintf(errmsg, len, "%s: %s", st->commit_fd < 0 ? "eventfd" : "timerfd_create", strerror(err));
	if (st->commit_fd >= 0)
		close(st->commit_fd);
	return err;
}

static void pipeline_teardown(void *state)
{
	struct pipe_state *st = state;
	close(st->commit_fd);
	close(st->vsync_fd);
}

static void pipeline_name(unsigned i, char *buf, size_t len)
{
	static const char *const names[] = { "ib-game", "ib-render", "ib-compositor", "ib-input" };
	if (i < PIPE_WORKER0)
		snprintf(buf, len, "%s", names[i]);
	else
		snprintf(buf, len, "ib-worker-%u", i - PIPE_WORKER0);
}

static unsigned pipeline_threads(const struct sim_spec *spec)
{
	const struct pipeline_opts *o = spec->opts;
	return PIPE_WORKER0 + o->workers;
}

/* One wake-up of stage `stage`, wake_ns after it was due, into the task's chain. */
static void chain_woken(struct sim_thread *t, unsigned stage, uint64_t wake_ns)
{
	chain_wake(sim_measures_lock(t), stage, wake_ns);
	sim_measures_unlock(t);
}

_Static_assert(TIMELINE_MARKS == CHAIN_PRESENTED, "a frame's timeline marks are its chain's points before presented");

/* Vsync number index passed, showing frame f (NULL: no new frame): into the task's chain, and
 * a frame shown into the task's frame time. */
static void chain_vsync_passed(struct sim_thread *t, uint64_t index, const struct chain_frame *f)
{
	struct chain_acct *a = sim_measures_lock(t);
	uint64_t frame_ns = chain_vsync(a, index, f);
	uint64_t input_ns = f && f->input_seq ? a->input0_ns + f->input_seq * a->input_period_ns : 0;
	sim_measures_unlock(t);
	if (f) {
		sim_frame_shown(t, f->frame, f->at_ns[CHAIN_PRESENTED], frame_ns);
		sim_frame_marks(t, f->frame, input_ns, f->at_ns);
	}
}

/* When input event 0 would have happened: event 1 is at period 0's start. */
static uint64_t input0_ns(const struct sim_thread *t, const struct pipe_state *st)
{
	return sim_start_ns(t) - st->input_period_ns;
}

/* The input source: each event at its time, delivered when the thread runs (all that fell
 * due meanwhile at once, as evdev queues them); no timer slack, as an interrupt has none. */
static void pipe_input(struct sim_thread *t, struct pipe_state *st)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	uint64_t seq = 0, in0_ns = input0_ns(t, st);
	while (sim_sleep_until(t, in0_ns + (seq + 1) * st->input_period_ns)) {
		uint64_t run_ns = now_ns();
		chain_woken(t, CHAIN_INPUT, run_ns - (in0_ns + (seq + 1) * st->input_period_ns));
		seq = (run_ns - in0_ns) / st->input_period_ns;
		atomic_store_explicit(&st->input_seq, seq, memory_order_release);
	}
}

/* The game thread: each frame picks up the input, runs its logic, forks and joins the workers
 * and hands the frame to the render thread.  Returns false once stopped. */
static bool pipe_game_frame(struct sim_thread *t, struct pipe_state *st, const struct sim_period *p)
{
	uint64_t run_ns = now_ns(), k = st->made++;
	struct chain_frame *f = &st->ring[k % PIPE_RING];
	memset(f, 0, sizeof(*f));
	f->frame = p->index;
	f->input_seq = atomic_load_explicit(&st->input_seq, memory_order_acquire);
	f->at_ns[CHAIN_PICKUP] = run_ns;
	chain_woken(t, CHAIN_GAME, run_ns - p->start_ns);
	sim_burn(t, st->o->logic_us);
	atomic_store(&st->pending, st->o->workers);
	st->fork_ns = f->at_ns[CHAIN_FORK] = now_ns();
	for (unsigned i = 0; i < st->o->workers; i++)
		sim_wake(t, PIPE_WORKER0 + i);
	if (!sim_wait_woken(t))
		return false;
	f->at_ns[CHAIN_JOINED] = st->joined_ns;
	st->handed = k;
	st->handed_ns = f->at_ns[CHAIN_RESUMED] = now_ns();
	sim_wake(t, PIPE_RENDER);
	chain_woken(t, CHAIN_JOIN, f->at_ns[CHAIN_RESUMED] - st->joined_ns);
	return true;
}

static void pipe_game(struct sim_thread *t, struct pipe_state *st)
{
	struct sim_period p;
	while (sim_period_begin(t, &p) && pipe_game_frame(t, st, &p))
		;
}

/* A worker: its share of each frame's fork-join work; the last one done wakes the game. */
static void pipe_worker(struct sim_thread *t, struct pipe_state *st)
{
	while (sim_wait_woken(t)) {
		chain_woken(t, CHAIN_WORKERS, now_ns() - st->fork_ns);
		sim_burn(t, st->o->worker_us / st->o->workers);
		if (atomic_fetch_sub(&st->pending, 1) == 1) {
			st->joined_ns = now_ns();
			sim_wake(t, PIPE_GAME);
		}
	}
}

/* The render thread: renders each frame, commits it to the compositor, closes the period. */
static void pipe_render(struct sim_thread *t, struct pipe_state *st)
{
	while (sim_wait_woken(t)) {
		uint64_t k = st->handed;
		chain_woken(t, CHAIN_RENDER, now_ns() - st->handed_ns);
		sim_burn(t, st->o->render_us);
		st->ring[k % PIPE_RING].at_ns[CHAIN_COMMITTED] = now_ns();
		atomic_store_explicit(&st->committed, k + 1, memory_order_release);
		uint64_t one = 1;
		if (write(st->commit_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
			break;
		if (!sim_period_end(t))
			break;
	}
}

/* The newest committed frame into *f.  False when none was committed yet.  The copy is taken
 * again only when so many frames were committed meanwhile that its slot may have been reused:
 * the game thread writes two slots ahead of the newest committed at most, never that one, so
 * the loop ends whatever the other threads do (a game thread stopped mid-frame included). */
static bool newest_frame(struct pipe_state *st, struct chain_frame *f)
{
	for (;;) {
		uint64_t c = atomic_load_explicit(&st->committed, memory_order_acquire);
		if (!c)
			return false;
		*f = st->ring[(c - 1) % PIPE_RING];
		if (atomic_load_explicit(&st->committed, memory_order_acquire) - c < PIPE_RING - 2)
			return true;
	}
}

/* The compositor woken by a commit: drains the eventfd and times the newest commit's hop. */
static void pipe_commit_woken(struct pipe_state *st, struct sim_thread *t, uint64_t *seen)
{
	uint64_t n, run_ns = now_ns();
	struct chain_frame f;
	if (read(st->commit_fd, &n, sizeof(n)) != sizeof(n) || !newest_frame(st, &f) || f.frame + 1 <= *seen)
		return;
	*seen = f.frame + 1;
	if (run_ns > f.at_ns[CHAIN_COMMITTED])
		chain_woken(t, CHAIN_COMMIT, run_ns - f.at_ns[CHAIN_COMMITTED]);
}

/* Waits for the latch time latch_ns, serving commits meanwhile.  False once stopped. */
static bool pipe_wait_latch(struct sim_thread *t, struct pipe_state *st, uint64_t latch_ns, uint64_t *seen)
{
	struct itimerspec its = { .it_value = ns_to_timespec(latch_ns) };
	if (timerfd_settime(st->vsync_fd, TFD_TIMER_ABSTIME, &its, NULL) != 0)
		return false;
	while (!sim_stopped(t)) {
		struct pollfd pf[2] = { { .fd = st->commit_fd, .events = POLLIN }, { .fd = st->vsync_fd, .events = POLLIN } };
		if (poll(pf, 2, (int)(SIM_STOP_SLICE_NS / NS_PER_MS)) < 0 && errno != EINTR)
			return false;
		if (pf[0].revents & POLLIN)
			pipe_commit_woken(st, t, seen);
		uint64_t expiries;
		if ((pf[1].revents & POLLIN) && read(st->vsync_fd, &expiries, sizeof(expiries)) == sizeof(expiries))
			return !sim_stopped(t);
	}
	return false;
}

/* The compositor: at each latch time, the newest committed frame composed and shown at the
 * vsync after, or at the first vsync after it finished composing; every vsync passed counted. */
static void pipe_compositor(struct sim_thread *t, struct pipe_state *st)
{
	uint64_t repaint_ns = repaint_window_us(st->o) * NS_PER_US, seen = 0, shown = 0;
	unsigned compose_us = compose_work_us(st->o);
	uint64_t vsync0_ns = sim_start_ns(t) + st->frame_ns; /* latch of frame 0 at period 1's start */
	chain_setup(sim_measures_lock(t), input0_ns(t, st), st->input_period_ns, st->frame_ns);
	sim_measures_unlock(t);
	for (uint64_t j = 0;;) {
		uint64_t vsync_ns = vsync0_ns + j * st->frame_ns + repaint_ns;
		if (!pipe_wait_latch(t, st, vsync_ns - repaint_ns, &seen))
			return;
		uint64_t latch_ns = now_ns();
		chain_woken(t, CHAIN_LATCH, latch_ns - (vsync_ns - repaint_ns));
		struct chain_frame f;
		bool fresh = newest_frame(st, &f) && f.frame + 1 > shown;
		if (sim_burn_aside(t, compose_us) < compose_us)
			return;
		uint64_t done_ns = now_ns();
		for (; vsync_ns < done_ns; j++, vsync_ns += st->frame_ns)
			chain_vsync_passed(t, j, NULL); /* composed too late for it: the old frame stays */
		if (fresh) {
			f.at_ns[CHAIN_LATCHED] = latch_ns;
			f.at_ns[CHAIN_COMPOSED] = done_ns;
			f.at_ns[CHAIN_PRESENTED] = vsync_ns;
			shown = f.frame + 1;
		}
		chain_vsync_passed(t, j++, fresh ? &f : NULL);
	}
}

static void pipeline_run(struct sim_thread *t)
{
	struct pipe_state *st = sim_task_state(t);
	unsigned i = sim_thread_index(t);
	if (i == PIPE_GAME)
		pipe_game(t, st);
	else if (i == PIPE_RENDER)
		pipe_render(t, st);
	else if (i == PIPE_COMPOSITOR)
		pipe_compositor(t, st);
	else if (i == PIPE_INPUT)
		pipe_input(t, st);
	else
		pipe_worker(t, st);
}

/* --explain follows the chain a frame's deadline depends on: the game thread (stage 0), the
 * render thread and up to six workers (of which the busiest in a period counts: the one the
 * join waited for, mostly); the compositor latches after the deadline. */
static const struct explain_stage_thread pipeline_explained[] = {
	{ PIPE_RENDER, 2 }, { PIPE_WORKER0, 1 }, { PIPE_WORKER0 + 1, 1 }, { PIPE_WORKER0 + 2, 1 },
	{ PIPE_WORKER0 + 3, 1 }, { PIPE_WORKER0 + 4, 1 }, { PIPE_WORKER0 + 5, 1 },
};
static const char *const pipeline_stage_names[] = { "game", "workers", "render" };

static const struct sim_body pipeline_body = {
	.threads = PIPE_WORKER0 + PIPE_MAX_WORKERS, .threads_for = pipeline_threads, .state_bytes = sizeof(struct pipe_state),
	.run = pipeline_run, .name = pipeline_name, .setup = pipeline_setup, .teardown = pipeline_teardown,
	.explained = { .threads = pipeline_explained, .n_threads = 7, .names = pipeline_stage_names, .count = 3 },
};

/* "vsync at 144 Hz; a frame: logic 2 ms, workers 4 ms in 2 threads, render 3 ms; compositor
 * 1 ms a vsync, latching 2.777 ms before it; input at 1000 Hz": the stages' resolved work. */
static void pipeline_pattern(const struct sim_spec *spec, char *buf, size_t len)
{
	const struct pipeline_opts *o = spec->opts;
	char logic[32], workers[32], render[32], compose[32], latch[32];
	snprintf(buf, len, "vsync at %u Hz; a frame: logic %s ms, workers %s ms in %u threads, render %s ms; compositor "
		 "%s ms a vsync, latching %s ms before it; input at %u Hz", o->refresh_hz,
		 sim_ms_text(o->logic_us, logic, sizeof(logic)), sim_ms_text(o->worker_us, workers, sizeof(workers)),
		 o->workers, sim_ms_text(o->render_us, render, sizeof(render)),
		 sim_ms_text(compose_work_us(o), compose, sizeof(compose)),
		 sim_ms_text(repaint_window_us(o), latch, sizeof(latch)), o->input_rate_hz);
}

static const struct sim_desc pipeline_sim = {
	.work_us = pipeline_work_us, .has_deadlines = true, .logs_frames = true, .body = &pipeline_body,
	.measures = &pipeline_chain_measures,
	.pattern_note = pipeline_pattern,
};

static const struct load_ops pipeline_load = { .start = load_sim_start, .ready = load_sim_ready,
					       .stop = load_sim_stop };

const struct workload wl_pipeline = {
	.name = "Pipeline",
	.help = "input -> game -> workers -> render -> compositor at --refresh Hz: input-to-present, jank",
	.load_help = "the simulated Pipeline (a game) as a background load",
	.flags = WL_BENCH_NORMAL | WL_BENCH_RT | WL_LOAD_NORMAL | WL_ONLY_NAMED,
	.options = (const struct optspec *const[]){ &pipe_opt_refresh, &pipe_opt_input, &pipe_opt_workers,
						   &pipe_opt_logic, &pipe_opt_worker, &pipe_opt_render,
						   &pipe_opt_compose, &pipe_opt_repaint, NULL },
	.cfg_size = sizeof(struct pipeline_opts),
	.check = pipeline_check,
	.sim = &pipeline_sim,
	.sim_params = pipeline_params,
	.load = &pipeline_load,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_loops, &load_metric_wakeups, NULL },
};
