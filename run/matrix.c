/* The run's matrix (run/matrix.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/matrix.h"
#include "lib/nbrandom.h"
#include "lib/timeutil.h"
#include "workloads/workload.h"

void matrix_round_order(uint64_t seed, unsigned round, size_t *order, size_t n)
{
	uint64_t state = random_mix64(seed) ^ ((uint64_t)round << 32 | round);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		state += 0x9e3779b97f4a7c15ULL;  /* splitmix64's step */
		size_t j = (size_t)(random_mix64(state) % i);  /* bias below n / 2^64: none to see */
		size_t t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}

int matrix_init(struct matrix *m, const struct matrix_params *p)
{
	memset(m, 0, sizeof(*m));
	m->p = *p;
	m->loads = calloc(workload_count, sizeof(*m->loads));
	m->reps = calloc(p->plan->n ? p->plan->n * p->repeats : 1, sizeof(*m->reps));
	m->order = calloc(p->plan->n ? p->plan->n : 1, sizeof(*m->order));
	m->settled = calloc(p->plan->n ? p->plan->n : 1, sizeof(*m->settled));
	m->last_ns = calloc(p->plan->n ? p->plan->n : 1, sizeof(*m->last_ns));
	m->why = calloc(p->plan->n ? p->plan->n : 1, sizeof(*m->why));
	m->drift.reference = p->speed_reference;
	m->drift.cap = p->check_rate ? (unsigned)(p->plan->n * p->repeats) : 0;
	m->drift.virtual_machine = p->check_rate && calib_under_hypervisor();
	m->drift.list = m->drift.cap ? calloc(m->drift.cap, sizeof(*m->drift.list)) : NULL;
	if (!m->loads || !m->reps || !m->order || !m->settled || !m->last_ns || !m->why || (m->drift.cap && !m->drift.list)) {
		int e = errno;
		matrix_free(m);
		errno = e;
		return -1;
	}
	for (size_t i = 0; i < p->plan->n; i++)  /* what a pair waits for until it is first asked */
		snprintf(m->why[i], sizeof(m->why[i]), "under %d sub-runs", MATRIX_BUDGET_MIN_SUBRUNS);
	for (unsigned i = 0; i < workload_count; i++)
		workload_load_init(&m->loads[i].ctx, workload_table[i], options_wl_opts(p->opt, i), p->load_cfg);
	return 0;
}

const struct pair_outcome *matrix_reps(const struct matrix *m, size_t item)
{
	return &m->reps[item * m->p.repeats];
}

unsigned matrix_ran(const struct matrix *m, size_t item)
{
	const struct pair_outcome *reps = matrix_reps(m, item);
	unsigned ran = 0;
	while (ran < m->p.repeats && reps[ran].ran)
		ran++;
	return ran;
}

size_t matrix_measured(const struct matrix *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->p.plan->n * m->p.repeats; i++)
		n += m->reps[i].ran && m->reps[i].ok;
	return n;
}

size_t matrix_failed(const struct matrix *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->p.plan->n * m->p.repeats; i++)
		n += m->reps[i].ran && !m->reps[i].ok;
	return n;
}

const char *matrix_load_name(const struct matrix *m, size_t item)
{
	return m->loads[m->p.plan->items[item].load_index].ctx.name;
}

static void cleanup_loads(struct matrix *m)
{
	for (unsigned i = 0; m->loads && i < workload_count; i++)
		if (m->loads[i].ctx.ops && m->loads[i].ctx.ops->cleanup)
			m->loads[i].ctx.ops->cleanup(&m->loads[i].ctx);
}

void matrix_free(struct matrix *m)
{
	cleanup_loads(m);
	free(m->loads);
	for (size_t i = 0; m->reps && i < m->p.plan->n * m->p.repeats; i++)
		bench_record_free(&m->reps[i].bench);
	free(m->reps);
	free(m->order);
	free(m->settled);
	free(m->last_ns);
	free(m->why);
	free(m->drift.list);
	m->order = NULL;
	m->settled = NULL;
	m->last_ns = NULL;
	m->why = NULL;
	m->loads = NULL;
	m->reps = NULL;
}

/* Runs a load's prepare hook (scratch files: up to a GiB of writing) at normal priority, once
 * for the run: a failure is kept with its reason and not retried for every later pair (unless
 * a signal cut it short).  Returns whether the load is prepared. */
static bool prepare_load(struct matrix *m, struct matrix_load *slot)
{
	struct load_ctx *lctx = &slot->ctx;
	if (!lctx->ops->prepare || slot->prepared)
		return true;
	if (slot->prepare_failed)
		return false;
	mainproc_priority_normal(&m->p.main, true);
	slot->prepared = lctx->ops->prepare(lctx) == 0;
	mainproc_priority_normal(&m->p.main, false);
	if (!slot->prepared) {
		snprintf(slot->prepare_why, sizeof(slot->prepare_why), "%s", lctx->counters.errmsg);
		slot->prepare_failed = !*m->p.interrupted;
		memset(&lctx->counters, 0, sizeof(lctx->counters)); /* the load processes start clean */
	}
	return slot->prepared;
}

/* Runs a load's after_pair hook (writeback of what the pair left dirty) at normal priority,
 * outside every window. */
static void settle_load(struct matrix *m, struct load_ctx *lctx, const struct load_counters *c)
{
	mainproc_priority_normal(&m->p.main, true);
	lctx->ops->after_pair(lctx, c);
	mainproc_priority_normal(&m->p.main, false);
}

static void tick(void *arg, uint64_t t_ns)
{
	struct matrix *m = arg;
	progress_tick(&m->progress, t_ns);
	threshold_poll(m->p.threshold, t_ns);
	if (m->p.watch)
		run_watch_poll(m->p.watch, t_ns);
}

/* The CPUs of one side at its setting s: the sweep's placement, else the side's fixed list
 * (sweep_fixed_cpus), else NULL (any). */
static const struct optspec_cpus *cpus_of(const struct options *o, const struct sched_setting *s,
					  const struct optspec_cpu_alts *own)
{
	return s->cpus ? s->cpus : sweep_fixed_cpus(o, own);
}

/* --explain's threshold for the pairs: --explain-threshold's, lowered to --on-threshold's
 * least latency so that a period an action is taken on is explained (its lateness is at least
 * its scheduling latency); 0 (missed deadlines only) when neither is given. */
static uint64_t explain_threshold_ns(const struct matrix *m)
{
	uint64_t given = m->p.opt->explain_threshold_ns, least = threshold_least_ns(m->p.threshold);
	if (least == UINT64_MAX)
		return given;
	return given && given < least ? given : least;
}

/* Whether the matrix stops: a signal, or --on-threshold's stop (after the pair it fired in). */
static bool stopping(const struct matrix *m)
{
	return *m->p.interrupted || threshold_stopping(m->p.threshold);
}

/* The adaptive window's looks for plan item it into *sp (matrix_params.precision), or NULL
 * for a fixed window. */
static const struct stop_plan *stop_plan_of(const struct matrix *m, const struct plan_item *it, struct stop_plan *sp)
{
	if (!m->p.precision)
		return NULL;
	const struct sim_desc *d = it->spec.desc;
	uint64_t cycle_ns = (uint64_t)d->cycle_periods * it->spec.interval_us * NS_PER_US;
	stop_plan_init(sp, m->p.min_ns, m->p.duration_ns, cycle_ns, m->p.precision, d->has_deadlines);
	return sp;
}

/* duration_ns, or plan item it's task's cycle when longer (X: one whole sweep). */
static uint64_t cycle_window_ns(const struct plan_item *it, uint64_t duration_ns)
{
	uint64_t cycle_ns = (uint64_t)it->spec.desc->cycle_periods * it->spec.interval_us * NS_PER_US;
	return cycle_ns > duration_ns ? cycle_ns : duration_ns;
}

/* The fixed window of plan item it: duration_ns, and in a --budget run at least its task's
 * cycle, so every sub-run measures the same thing. */
static uint64_t window_ns(const struct matrix *m, const struct plan_item *it)
{
	return m->p.budget_ns ? cycle_window_ns(it, m->p.duration_ns) : m->p.duration_ns;
}

/* The cgroup of side (0 the bench, 1 the loads) at setting s: its alternative when the sweep
 * varies it, else the one given; NULL without one. */
static const struct cgplace *cgroup_of(const struct cgplace_set *sets, int side, const struct sched_setting *s)
{
	const struct cgplace_set *set = sets ? &sets[side] : NULL;
	if (!set || !set->n)
		return NULL;
	return &set->v[set->n > 1 && s->cgroup_index < set->n ? s->cgroup_index : 0];
}

/* Puts the machine under plan item it's scheduler (--scheduler), at normal priority.  Returns
 * whether it could, with why when not. */
static bool switch_scheduler(struct matrix *m, const struct plan_item *it, char *why, size_t len)
{
	if (!m->p.scheduler)
		return true;
	mainproc_priority_normal(&m->p.main, true);
	int rc = run_scheduler_switch(m->p.scheduler, it->bench_sched.scheduler, why, len);
	mainproc_priority_normal(&m->p.main, false);
	return rc == 0;
}

/* Runs plan item it once into its record po: its scheduler switched to and its load prepared
 * first, its scheduler checked and its load settled after. */
static void run_pair(struct matrix *m, const struct plan_item *it, struct pair_outcome *po, unsigned repeat_no)
{
	struct stop_plan sp;
	const struct stop_plan *stop = stop_plan_of(m, it, &sp);
	struct matrix_load *slot = &m->loads[it->load_index];
	struct load_ctx *lctx = &slot->ctx;
	struct explain_config explain = { .tracer = m->p.main.tracer, .threshold_ns = explain_threshold_ns(m) };
	const struct sched_setting *ls = &m->p.load->s[it->load_setting];
	struct load_config width = *m->p.load_cfg; /* the run's, with the setting's threads when it sweeps -L */
	if (ls->threads)
		width.threads = ls->threads;
	const struct cgplace *lcg = cgroup_of(m->p.cgroups, 1, ls);
	if (lcg)  /* what main decides for the load (Memload's size), in the setting's cgroup */
		width.cgroup_v2 = &lcg->loc;
	lctx->cfg = &width;
	struct pair_params p = {
		.spec = it->spec,
		.run_cfg = {
			.loops_per_ms = m->p.load_cfg->loops_per_ms,
			.sched = it->bench_sched,
			.timer_prio = m->p.main.rt_ok ? m->p.main.prio_max - 1 : 0,
			.explain = m->p.main.tracer || m->p.main.explain_floor ? &explain : NULL,
			.late = m->p.threshold ? m->p.threshold->watch : NULL,
		},
		.load = lctx,
		.load_sched = *ls,
		.bench_cpus = cpus_of(m->p.opt, &it->bench_sched, &m->p.opt->bench_cpus),
		.load_cpus = cpus_of(m->p.opt, ls, &m->p.opt->load_cpus),
		.bench_cgroup = cgroup_of(m->p.cgroups, 0, &it->bench_sched),
		.load_cgroup = lcg,
		.duration_ns = stop ? stop->at_ns[stop->looks - 1] : window_ns(m, it),
		.stop = stop,
		.timeline_fd = m->p.timeline_fd,
		.timeline_pair = m->timeline_seq,
		.frame_log_fd = m->p.frame_log_fd,
		.interrupted = m->p.interrupted,
		.threshold = m->p.threshold,
		.tick = tick,
		.tick_arg = m,
	};
	char why[sizeof(po->why)];
	bool switched = switch_scheduler(m, it, why, sizeof(why));
	if (!switched || !prepare_load(m, slot)) {
		memset(po, 0, sizeof(*po));
		snprintf(po->why, sizeof(po->why), "%s", switched ? slot->prepare_why : why);
	} else {
		threshold_pair_begin(m->p.threshold, it->task->name, lctx->name, repeat_no, &po->on_threshold);
		(m->p.pair_run ? m->p.pair_run : pair_run)(&p, po);
		threshold_pair_end(m->p.threshold, *m->p.interrupted);
		if (m->p.scheduler && m->p.scheduler->current)
			snprintf(po->sched_ext_ops, sizeof(po->sched_ext_ops), "%s", m->p.scheduler->r.loaded.ops);
		if (m->p.scheduler && run_scheduler_check(m->p.scheduler, why, sizeof(why)) != 0 && po->ok) {
			po->ok = false;
			snprintf(po->why, sizeof(po->why), "%s", why);
		}
		if (lctx->ops->after_pair && !*m->p.interrupted)
			settle_load(m, lctx, &po->load);
	}
	lctx->cfg = m->p.load_cfg;
}

/* Checks the CPU's speed after run `repeat` of plan item i into m->drift (calibrate/calibrate.h
 * calib_check_speed: its processes are reaped, the check lets the CPUs rest first). */
static void check_speed(struct matrix *m, size_t i, unsigned repeat)
{
	struct calib_drift_check c = { .item = i, .repeat = repeat, .at_ns = now_ns() - m->t0_ns };
	calib_check_speed(m->p.load_cfg->loops_per_ms, m->p.interrupted, &c.speed);
	calib_drift_add(&m->drift, &c);
}

/* Runs every pair of the plan once (round `round`, 0-based), in plan order with one round,
 * else in matrix_round_order's; with one repeat each item is complete as its pair finishes. */
static void settle(struct matrix *m, const struct matrix_sink *s, unsigned round);

static void run_round(struct matrix *m, unsigned round, const struct matrix_sink *s)
{
	size_t n = m->p.plan->n;
	if (m->p.repeats > 1)
		matrix_round_order(m->p.shuffle_seed, round, m->order, n);
	if (m->p.budget_ns) {
		char undecided[sizeof(m->progress.undecided)];
		size_t unsettled = 0;
		for (size_t i = 0; i < n; i++)
			unsettled += !m->settled[i];
		matrix_undecided(m, undecided, sizeof(undecided));
		progress_round(&m->progress, round + 1, unsettled, round ? undecided : "");
	}
	for (size_t k = 0; k < n && !stopping(m); k++) {
		size_t i = m->p.repeats > 1 ? m->order[k] : k;
		const struct plan_item *it = &m->p.plan->items[i];
		if (m->settled[i])
			continue;
		progress_run_begin(&m->progress, it->task->name, matrix_load_name(m, i), round + 1,
				   m->p.budget_ns ? 1 : m->p.repeats, now_ns());
		struct pair_outcome *po = &m->reps[i * m->p.repeats + round];
		uint64_t begin_ns = now_ns();
		run_pair(m, it, po, round + 1);
		progress_run_end(&m->progress, now_ns());
		po->ran = true;
		po->timeline_pair = m->p.timeline_fd >= 0 && !po->bench.timeline_error ? (int64_t)m->timeline_seq : -1;
		if (s->pair_measured)
			s->pair_measured(s->arg, m, i, round, po, po->timeline_pair);
		m->timeline_seq++;
		if (m->p.check_rate && !*m->p.interrupted)
			check_speed(m, i, round);
		m->last_ns[i] = now_ns() - begin_ns;
		if (m->p.repeats == 1 && s->item_complete)
			s->item_complete(s->arg, m, i, matrix_reps(m, i), 1);
	}
	if (m->p.budget_ns && !stopping(m))
		settle(m, s, round);
	if (s->round_done)
		s->round_done(s->arg, m, round, *m->p.interrupted != 0);
}

/* After round `round` of a --budget run: settles the items the sink says need no more sub-runs
 * (from MATRIX_BUDGET_MIN_SUBRUNS rounds on, those that ran this round; an item once settled
 * stays so), before the round is reported done. */
static void settle(struct matrix *m, const struct matrix_sink *s, unsigned round)
{
	if (round + 1 < MATRIX_BUDGET_MIN_SUBRUNS || !s->item_settled)
		return;
	for (size_t i = 0; i < m->p.plan->n; i++)
		if (!m->settled[i] && matrix_ran(m, i) == round + 1)
			m->settled[i] = s->item_settled(s->arg, m, i, m->why[i], sizeof(m->why[i]));
}

uint64_t matrix_budget_ns(const struct options *o, const struct plan *plan)
{
	if (o->window != RUN_WINDOW_BUDGET)
		return 0;
	if (o->budget_s)
		return (uint64_t)o->budget_s * NS_PER_S;
	uint64_t budget_ns = 0, subrun_window_ns = (uint64_t)options_window_s(o) * NS_PER_S;
	for (size_t i = 0; i < plan->n; i++) {
		uint64_t subrun_ns = cycle_window_ns(&plan->items[i], subrun_window_ns) +
				     MATRIX_SUBRUN_OVERHEAD_MS * NS_PER_MS;
		uint64_t least_ns = (MATRIX_BUDGET_MIN_SUBRUNS + 1) * subrun_ns;
		budget_ns += least_ns > MATRIX_BUDGET_PER_PAIR_S * NS_PER_S ? least_ns : MATRIX_BUDGET_PER_PAIR_S * NS_PER_S;
	}
	return budget_ns;
}

void matrix_undecided(const struct matrix *m, char *buf, size_t len)
{
	enum { REASONS = 8 };
	const char *reason[REASONS];
	size_t count[REASONS] = { 0 }, reasons = 0, left = 0;
	buf[0] = '\0';
	for (size_t i = 0; m->p.budget_ns && i < m->p.plan->n; i++) {
		if (m->settled[i])
			continue;
		left++;
		const char *why = m->why[i];
		size_t k = 0;
		while (k < reasons && strcmp(reason[k], why) != 0)
			k++;
		if (k == reasons && reasons < REASONS)
			reason[reasons++] = why;
		count[k] += k < reasons;
	}
	if (!left)
		return;
	size_t at = (size_t)snprintf(buf, len, "undecided %zu", left);
	for (size_t k = 0; k < reasons && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s %zu", k ? ", " : ": ", reason[k], count[k]);
}

/* Whether another round of a --budget run is wanted (a pair not settled) and fits the budget:
 * the next round estimated from each unsettled pair's own last run (X's whole sweep is longer
 * than another task's window), the speed checks after each included. */
static bool budget_goes_on(const struct matrix *m)
{
	uint64_t next_ns = 0;
	size_t left = 0;
	for (size_t i = 0; i < m->p.plan->n; i++)
		if (!m->settled[i]) {
			left++;
			next_ns += m->last_ns[i];
		}
	return left && now_ns() - m->t0_ns + next_ns <= m->p.budget_ns;
}

int matrix_run(struct matrix *m, const struct matrix_sink *sink)
{
	static const struct matrix_sink none;
	const struct matrix_sink *s = sink ? sink : &none;
	size_t n = m->p.plan->n;
	m->t0_ns = now_ns();
	if (s->run_begin)
		s->run_begin(s->arg, m);
	uint64_t ramp_ns = (uint64_t)PAIR_RAMP_MIN_MS * NS_PER_MS;
	progress_open(&m->progress, m->p.opt->quiet, n * m->p.repeats,
		      ramp_ns + (m->p.precision ? m->p.min_ns : m->p.duration_ns), ramp_ns + m->p.duration_ns);
	if (m->p.budget_ns)
		progress_budget(&m->progress, m->p.budget_ns);
	for (unsigned round = 0; round < m->p.repeats && !stopping(m); round++) {
		m->rounds = round + 1;
		run_round(m, round, s);
		if (m->p.budget_ns && !budget_goes_on(m))
			break;
	}
	progress_close(&m->progress);
	/* With repeats, the items are complete after the last round, from every repeat that ran. */
	for (size_t i = 0; i < n && m->p.repeats > 1; i++) {
		unsigned ran = matrix_ran(m, i);
		if (ran && s->item_complete)
			s->item_complete(s->arg, m, i, matrix_reps(m, i), ran);
	}
	cleanup_loads(m);
	int sig = *m->p.interrupted;
	if (s->run_end)
		s->run_end(s->arg, m, sig);
	return sig;
}

uint64_t matrix_shuffle_seed(const struct options *o)
{
	uint64_t seed = o->seed;
	if (o->repeat < 2)
		return 0;
	while (seed == 0) {
		random_bytes_nonblocking(&seed, sizeof(seed));
		seed &= (uint64_t)OPT_MAX_SEED;
	}
	return seed;
}
