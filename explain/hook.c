#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "explain/tracer.h"
#include "explain/hook.h"

/* With the tracer, the stages into x's slots and their names into s. */
static void follow_stages(struct explainer *x, const struct explain_stages *stages, unsigned threads,
			  struct explain_summary *s)
{
	for (unsigned i = 0; i < stages->n_threads && x->slots < EXPLAIN_SLOTS; i++) {
		const struct explain_stage_thread *st = &stages->threads[i];
		if (st->thread == 0 || st->thread >= threads || st->stage == 0 || st->stage >= EXPLAIN_MAX_STAGES)
			continue;
		x->slot_thread[x->slots] = st->thread;
		x->slot_stage[x->slots++] = st->stage;
	}
	if (x->slots == 1 || !stages->names)
		return;
	s->nstages = (uint8_t)(stages->count < EXPLAIN_MAX_STAGES ? stages->count : EXPLAIN_MAX_STAGES);
	for (unsigned i = 0; i < s->nstages; i++)
		snprintf(s->stage_name[i], sizeof(s->stage_name[i]), "%s", stages->names[i]);
}

void explainer_init(struct explainer *x, const struct explain_config *cfg, const struct explain_stages *stages,
		    unsigned threads, struct explain_summary *s)
{
	memset(x, 0, sizeof(*x));
	x->cfg = cfg;
	x->schedstat_fd = -1;
	if (!cfg)
		return;
	x->slots = 1; /* thread 0, stage 0 */
	if (cfg->tracer && stages && stages->threads)
		follow_stages(x, stages, threads, s);
}

/* x's slot following task thread `thread`, or -1. */
static int slot_of(const struct explainer *x, unsigned thread)
{
	for (unsigned s = 0; s < x->slots; s++)
		if (x->slot_thread[s] == thread)
			return (int)s;
	return -1;
}

bool explainer_follows(const struct explainer *x, unsigned thread)
{
	return x->cfg && slot_of(x, thread) >= 0;
}

/* Reads the tracked thread's schedstat into *s.  Returns 0, or an errno value. */
static int read_schedstat(int fd, struct explain_schedstat *s)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return errno;
	buf[n] = '\0';
	return explain_parse_schedstat(buf, s) == 0 ? 0 : EPROTO;
}

int explainer_thread_start(struct explainer *x, unsigned thread)
{
	int slot = x->cfg ? slot_of(x, thread) : -1;
	if (slot < 0)
		return 0;
	if (x->cfg->tracer) {
		struct explain_owners o = { .load_tgid = (pid_t)x->cfg->load_tgid, .bench_tgid = getpid(),
					    .main_tgid = (pid_t)x->cfg->main_tgid };
		explain_track(x->cfg->tracer, (unsigned)slot, gettid(), &o);
		return 0;
	}
	x->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (x->schedstat_fd < 0)
		return errno;
	return read_schedstat(x->schedstat_fd, &x->last);
}

void explainer_thread_end(struct explainer *x, unsigned thread)
{
	int slot = x->cfg ? slot_of(x, thread) : -1;
	if (slot >= 0 && x->cfg->tracer)
		explain_track(x->cfg->tracer, (unsigned)slot, 0, NULL);
	if (slot == 0 && x->schedstat_fd >= 0)
		close(x->schedstat_fd);
	if (slot == 0)
		x->schedstat_fd = -1;
}

void explainer_arm(struct explainer *x, uint64_t period)
{
	if (x->cfg && x->cfg->tracer)
		for (unsigned s = 0; s < x->slots; s++)
			explain_arm(x->cfg->tracer, s, period + 1);
}

/* The floor: this period's schedstat deltas (read every period, so the next has its start). */
static int floor_period(struct explainer *x, const struct explain_facts *f, bool explain, struct explain_period *p)
{
	struct explain_schedstat now, d;
	int err = read_schedstat(x->schedstat_fd, &now);
	if (err)
		return err;
	d = (struct explain_schedstat){ .run_ns = now.run_ns - x->last.run_ns, .wait_ns = now.wait_ns - x->last.wait_ns };
	x->last = now;
	if (explain)
		explain_from_schedstat(f, &d, p);
	return 0;
}

/* Slot s's figures for period seq (numbered from 1) into x->acc[s]: zeroes when the tracer
 * has none for it (the thread did not run in it), but for a stretch on a CPU still open. */
static const struct explain_acc *read_slot(struct explainer *x, unsigned s, uint64_t seq)
{
	struct explain_acc *a = &x->acc[s];
	if (!explain_read(x->cfg->tracer, s, seq, a)) {
		uint64_t running_since_ns = a->oncpu_since_ns;
		memset(a, 0, sizeof(*a));
		a->oncpu_since_ns = running_since_ns;
	}
	return a;
}

/* How long slot s's thread waited and ran in the period f (the tracer's figures, read). */
static uint64_t slot_busy_ns(const struct explainer *x, unsigned s)
{
	const struct explain_acc *a = &x->acc[s];
	return a->oncpu_ns + a->wait_ns + a->preempt_ns;
}

/* The chain's later stages into p: of the threads of each stage, the busiest in the period. */
static void add_stages(struct explainer *x, const struct explain_facts *f, struct explain_period *p)
{
	for (unsigned s = 1; s < x->slots; s++)
		read_slot(x, s, f->index + 1);
	for (unsigned stage = 1; stage < EXPLAIN_MAX_STAGES; stage++) {
		int best = -1;
		for (unsigned s = 1; s < x->slots; s++)
			if (x->slot_stage[s] == stage && (best < 0 || slot_busy_ns(x, s) > slot_busy_ns(x, (unsigned)best)))
				best = (int)s;
		if (best >= 0)
			explain_add_stage(p, f, &x->acc[best], stage);
	}
}

int explainer_period_end(struct explainer *x, const struct explain_facts *f, uint64_t lateness_ns,
			 struct explain_summary *s, struct explain_kept *k)
{
	if (!x->cfg || (!x->cfg->tracer && x->schedstat_fd < 0))
		return 0;
	bool explain = f->missed || (x->cfg->threshold_ns && lateness_ns > x->cfg->threshold_ns);
	struct explain_period p;
	if (!x->cfg->tracer) {
		int err = floor_period(x, f, explain, &p);
		if (err) {
			close(x->schedstat_fd);
			x->schedstat_fd = -1;
			return err;
		}
	} else if (explain) {
		explain_from_bpf(f, read_slot(x, 0, f->index + 1), &p);
		add_stages(x, f, &p);
	}
	if (explain)
		explain_summary_add(s, k, &p);
	return 0;
}
