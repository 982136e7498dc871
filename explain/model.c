#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include "explain/model.h"
#include "lib/optspec.h"

int explain_parse_schedstat(const char *text, struct explain_schedstat *s)
{
	char *end;
	const char *p = text;
	uint64_t v[3];
	for (int i = 0; i < 3; i++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -1;
		v[i] = strtoull(p, &end, 10);
		p = end;
	}
	while (*p == ' ' || *p == '\n')
		p++;
	if (*p)
		return -1;
	*s = (struct explain_schedstat){ .run_ns = v[0], .wait_ns = v[1], .slices = v[2] };
	return 0;
}

int explain_parse_threshold(const char *arg, uint64_t *ns)
{
	return parse_duration_ns(arg, 1000, 1000, 10000000000ull, ns);
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* The parts user space knows: the period carried over from the one before, and the timer. */
static void user_parts(const struct explain_facts *f, struct explain_period *p)
{
	*p = (struct explain_period){ .index = f->index, .start_ns = f->start_ns, .missed = f->missed };
	if (f->timer_late_ns)
		p->part_ns[EXPLAIN_TIMER] = f->timer_late_ns;
	else
		p->part_ns[EXPLAIN_CARRIED] = sub0(f->timer_ns, f->due_ns);
}

/* The named parts' sum, and unexplained set to what the delay has beyond it. */
static void close_parts(struct explain_period *p)
{
	uint64_t named = 0;
	for (int k = 0; k < EXPLAIN_PARTS; k++)
		if (k != EXPLAIN_UNEXPLAINED)
			named += p->part_ns[k];
	p->part_ns[EXPLAIN_UNEXPLAINED] = sub0(p->delay_ns, named);
}

/* Inserts c into top[0..*n) kept largest first, at most EXPLAIN_TOP. */
static void top_insert(struct explain_culprit *top, uint8_t *n, const struct explain_culprit *c)
{
	unsigned i = *n < EXPLAIN_TOP ? *n : EXPLAIN_TOP;
	if (i == EXPLAIN_TOP && top[EXPLAIN_TOP - 1].ns >= c->ns)
		return;
	if (i == EXPLAIN_TOP)
		i--;
	while (i > 0 && top[i - 1].ns < c->ns) {
		top[i] = top[i - 1];
		i--;
	}
	top[i] = *c;
	if (*n < EXPLAIN_TOP)
		(*n)++;
}

/* The waits behind other tasks: added to the parts tasks and preempted and to the owners,
 * and the largest three kept among p's. */
static void who_parts(const struct explain_acc *a, struct explain_period *p)
{
	uint32_t n = a->who_n < EXPLAIN_WHO_MAX ? a->who_n : EXPLAIN_WHO_MAX;
	for (int o = 0; o < EXPLAIN_OWNERS; o++) {
		p->part_ns[EXPLAIN_TASKS] += a->rest_ns[o];
		p->owner_ns[o] += a->rest_ns[o];
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct explain_who *w = &a->who[i];
		uint8_t owner = w->owner < EXPLAIN_OWNERS ? (uint8_t)w->owner : EXPLAIN_OWNER_OTHER;
		p->part_ns[EXPLAIN_TASKS] += w->wait_ns;
		p->part_ns[EXPLAIN_PREEMPTED] += w->preempt_ns;
		p->owner_ns[owner] += w->wait_ns + w->preempt_ns;
		struct explain_culprit c = { .pid = w->pid, .tgid = w->tgid, .policy = w->policy, .prio = w->prio,
					     .switches = w->switches, .owner = owner,
					     .ns = w->wait_ns + w->preempt_ns };
		memcpy(c.comm, w->comm, sizeof(c.comm));
		c.comm[sizeof(c.comm) - 1] = '\0';
		top_insert(p->top, &p->ntop, &c);
	}
}

/* Interrupts: while it waited (hardirq, softirq by vector), while it ran, and the largest
 * handler; added to p's. */
static void irq_parts(const struct explain_acc *a, struct explain_period *p)
{
	p->part_ns[EXPLAIN_HARDIRQ] += a->hardirq_ns;
	for (int v = 0; v < EXPLAIN_SOFTIRQS; v++) {
		p->softirq_ns[v] += a->softirq_ns[v];
		p->part_ns[EXPLAIN_SOFTIRQ] += a->softirq_ns[v];
	}
	p->part_ns[EXPLAIN_INTERRUPTED] += a->run_irq_ns;
	uint32_t n = a->irq_n < EXPLAIN_IRQ_MAX ? a->irq_n : EXPLAIN_IRQ_MAX;
	for (uint32_t i = 0; i < n; i++)
		if (a->irqs[i].ns > p->irq.ns) {
			p->irq = (struct explain_irq_time){ .irq = a->irqs[i].irq, .count = a->irqs[i].count,
							    .ns = a->irqs[i].ns };
			memcpy(p->irq.name, a->irqs[i].name, sizeof(p->irq.name));
			p->irq.name[sizeof(p->irq.name) - 1] = '\0';
		}
}

/* A thread's time on a CPU in the period f, net of interrupts while it ran: its closed
 * stretches and the open one up to the finish, counted from the period's release at the
 * earliest (a thread that never slept has been running since the period before). */
static uint64_t ran_of(const struct explain_facts *f, const struct explain_acc *a)
{
	uint64_t from_ns = a->oncpu_since_ns > f->timer_ns ? a->oncpu_since_ns : f->timer_ns;
	uint64_t oncpu_ns = a->oncpu_ns + (a->oncpu_since_ns ? sub0(f->finish_ns, from_ns) : 0);
	return sub0(oncpu_ns, a->run_irq_ns);
}

/* to[i] += from[i] for the n figures of one kind (parts, softirq vectors, owners, stages), ns. */
static void add_ns(uint64_t *to, const uint64_t *from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] += from[i];
}

/* A thread's waits from the tracer's figures a, into p's parts (added). */
static void wait_parts(const struct explain_acc *a, struct explain_period *p)
{
	who_parts(a, p);
	irq_parts(a, p);
	p->part_ns[EXPLAIN_IDLE] += a->idle_ns;
	p->part_ns[EXPLAIN_THROTTLED] += a->throttled_ns;
	p->migrations += a->migrations;
	p->preemptions += a->preemptions;
}

/* The parts that are a thread's waits. */
static uint64_t waits_in(const struct explain_period *p)
{
	static const enum explain_part waits[] = { EXPLAIN_WAKE, EXPLAIN_TASKS, EXPLAIN_PREEMPTED, EXPLAIN_HARDIRQ,
						   EXPLAIN_SOFTIRQ, EXPLAIN_IDLE, EXPLAIN_THROTTLED };
	uint64_t ns = 0;
	for (size_t i = 0; i < sizeof(waits) / sizeof(waits[0]); i++)
		ns += p->part_ns[waits[i]];
	return ns;
}

void explain_from_bpf(const struct explain_facts *f, const struct explain_acc *a, struct explain_period *p)
{
	user_parts(f, p);
	p->source = EXPLAIN_BPF;
	p->ran_ns = ran_of(f, a);
	p->delay_ns = sub0(sub0(f->finish_ns, f->due_ns), p->ran_ns);
	if (a->wakeup_ns)
		p->part_ns[EXPLAIN_WAKE] = sub0(a->wakeup_ns, f->timer_ns);
	wait_parts(a, p);
	p->first_cpu = a->first_cpu;
	p->last_cpu = a->last_cpu;
	p->stage_wait_ns[0] = waits_in(p);
	p->stage_woken_ns[0] = a->wait_ns;
	p->stage_ran_ns[0] = p->ran_ns;
	close_parts(p);
}

/* c into p's top: added to its entry when its pid is there (kept largest first), else
 * inserted as top_insert does. */
static void top_merge(struct explain_period *p, const struct explain_culprit *c)
{
	unsigned i = 0;
	while (i < p->ntop && p->top[i].pid != c->pid)
		i++;
	if (i == p->ntop) {
		top_insert(p->top, &p->ntop, c);
		return;
	}
	p->top[i].ns += c->ns;
	p->top[i].switches += c->switches;
	for (; i > 0 && p->top[i - 1].ns < p->top[i].ns; i--) {
		struct explain_culprit t = p->top[i - 1];
		p->top[i - 1] = p->top[i];
		p->top[i] = t;
	}
}

void explain_add_stage(struct explain_period *p, const struct explain_facts *f, const struct explain_acc *a,
		       unsigned stage)
{
	if (stage == 0 || stage >= EXPLAIN_MAX_STAGES)
		return;
	struct explain_period q = { 0 };
	wait_parts(a, &q);
	add_ns(p->part_ns, q.part_ns, EXPLAIN_PARTS);
	add_ns(p->softirq_ns, q.softirq_ns, EXPLAIN_SOFTIRQS);
	add_ns(p->owner_ns, q.owner_ns, EXPLAIN_OWNERS);
	for (unsigned i = 0; i < q.ntop; i++)
		top_merge(p, &q.top[i]);
	if (q.irq.ns > p->irq.ns)
		p->irq = q.irq;
	p->migrations += q.migrations;
	p->preemptions += q.preemptions;
	uint64_t ran_ns = ran_of(f, a);
	p->part_ns[EXPLAIN_STAGES] += ran_ns;
	p->stage_wait_ns[stage] += waits_in(&q);
	p->stage_woken_ns[stage] += a->wait_ns;
	p->stage_ran_ns[stage] += ran_ns;
	close_parts(p);
}

void explain_from_schedstat(const struct explain_facts *f, const struct explain_schedstat *delta,
			    struct explain_period *p)
{
	user_parts(f, p);
	p->source = EXPLAIN_SCHEDSTAT;
	/* the deltas run from the end of the period before; this period's work could run and
	 * wait only after its release (the timing thread's wake-up), so both are bounded by it */
	uint64_t window_ns = sub0(f->finish_ns, f->timer_ns > f->due_ns ? f->timer_ns : f->due_ns);
	p->ran_ns = delta->run_ns < window_ns ? delta->run_ns : window_ns;
	p->delay_ns = sub0(f->finish_ns, f->due_ns) - p->ran_ns;
	uint64_t waited_max_ns = window_ns - p->ran_ns;
	p->part_ns[EXPLAIN_RUNNABLE] = delta->wait_ns < waited_max_ns ? delta->wait_ns : waited_max_ns;
	close_parts(p);
}

/* Adds c's time to the summary's entry for its pid, or a new one; to who_rest_ns when full. */
static void merge_culprit(struct explain_summary *s, const struct explain_culprit *c)
{
	for (uint32_t i = 0; i < s->nwho; i++)
		if (s->who[i].pid == c->pid && strcmp(s->who[i].comm, c->comm) == 0) {
			s->who[i].ns += c->ns;
			s->who[i].switches += c->switches;
			return;
		}
	if (s->nwho < EXPLAIN_PAIR_WHO)
		s->who[s->nwho++] = *c;
	else
		s->who_rest_ns += c->ns;
}

static void merge_irq(struct explain_summary *s, const struct explain_irq_time *q)
{
	if (!q->count)
		return;
	for (uint32_t i = 0; i < s->nirq; i++)
		if (s->irqs[i].irq == q->irq) {
			s->irqs[i].ns += q->ns;
			s->irqs[i].count += q->count;
			return;
		}
	if (s->nirq < EXPLAIN_PAIR_IRQS)
		s->irqs[s->nirq++] = *q;
}

/* Whether p's named parts (all but unexplained) come within 10 % of its delay. */
static bool named_within_10pct(const struct explain_period *p)
{
	uint64_t parts = 0;
	for (int k = 0; k < EXPLAIN_PARTS; k++)
		if (k != EXPLAIN_UNEXPLAINED)
			parts += p->part_ns[k];
	uint64_t diff = parts > p->delay_ns ? parts - p->delay_ns : p->delay_ns - parts;
	return diff * 10 <= p->delay_ns;
}

/* p's top culprits and largest interrupt into the summary's; the tasks' and preemptions'
 * time beyond the top into who_rest_ns. */
static void summary_add_who(struct explain_summary *s, const struct explain_period *p)
{
	uint64_t topped = 0;
	for (unsigned i = 0; i < p->ntop && i < EXPLAIN_TOP; i++) {
		merge_culprit(s, &p->top[i]);
		topped += p->top[i].ns;
	}
	s->who_rest_ns += sub0(p->part_ns[EXPLAIN_TASKS] + p->part_ns[EXPLAIN_PREEMPTED], topped);
	merge_irq(s, &p->irq);
}

void explain_summary_add(struct explain_summary *s, struct explain_kept *k, const struct explain_period *p)
{
	s->source = p->source;
	s->periods++;
	s->delay_ns += p->delay_ns;
	add_ns(s->part_ns, p->part_ns, EXPLAIN_PARTS);
	add_ns(s->softirq_ns, p->softirq_ns, EXPLAIN_SOFTIRQS);
	add_ns(s->owner_ns, p->owner_ns, EXPLAIN_OWNERS);
	add_ns(s->stage_wait_ns, p->stage_wait_ns, EXPLAIN_MAX_STAGES);
	add_ns(s->stage_woken_ns, p->stage_woken_ns, EXPLAIN_MAX_STAGES);
	add_ns(s->stage_ran_ns, p->stage_ran_ns, EXPLAIN_MAX_STAGES);
	s->migrations += p->migrations;
	s->preemptions += p->preemptions;
	s->within_10pct += named_within_10pct(p);
	summary_add_who(s, p);
	if (!k)
		return;
	k->periods[k->next % EXPLAIN_KEEP] = *p;
	k->next++;
	if (k->n < EXPLAIN_KEEP)
		k->n++;
}

static int culprit_cmp(const void *a, const void *b)
{
	const struct explain_culprit *x = a, *y = b;
	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

static int irq_cmp(const void *a, const void *b)
{
	const struct explain_irq_time *x = a, *y = b;
	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

void explain_summary_sort(struct explain_summary *s)
{
	/* bounded by the tables' sizes whatever the counts say (a record from another process:
	 * run/pair.c bench_record_check refuses such counts first) */
	qsort(s->who, s->nwho < EXPLAIN_PAIR_WHO ? s->nwho : EXPLAIN_PAIR_WHO, sizeof(s->who[0]), culprit_cmp);
	qsort(s->irqs, s->nirq < EXPLAIN_PAIR_IRQS ? s->nirq : EXPLAIN_PAIR_IRQS, sizeof(s->irqs[0]), irq_cmp);
}

const struct explain_period *explain_kept_at(const struct explain_kept *k, unsigned i)
{
	return &k->periods[(k->next - k->n + i) % EXPLAIN_KEEP];
}

static const char *const part_names[EXPLAIN_PARTS] = {
	[EXPLAIN_CARRIED] = "carried", [EXPLAIN_TIMER] = "timer", [EXPLAIN_WAKE] = "wake",
	[EXPLAIN_TASKS] = "tasks", [EXPLAIN_PREEMPTED] = "preempted", [EXPLAIN_HARDIRQ] = "hardirq",
	[EXPLAIN_SOFTIRQ] = "softirq", [EXPLAIN_IDLE] = "idle", [EXPLAIN_THROTTLED] = "throttled",
	[EXPLAIN_INTERRUPTED] = "interrupted", [EXPLAIN_STAGES] = "stages",
	[EXPLAIN_RUNNABLE] = "runnable", [EXPLAIN_UNEXPLAINED] = "unexplained",
};

static const char *const part_helps[EXPLAIN_PARTS] = {
	[EXPLAIN_CARRIED] = "the period before overran into it",
	[EXPLAIN_TIMER] = "the timing thread woke late",
	[EXPLAIN_WAKE] = "timing thread awake to the task enqueued",
	[EXPLAIN_TASKS] = "other tasks ran on its CPU while it waited after its wake-up",
	[EXPLAIN_PREEMPTED] = "other tasks ran after preempting it",
	[EXPLAIN_HARDIRQ] = "hard interrupts on its CPU while it waited",
	[EXPLAIN_SOFTIRQ] = "softirqs on its CPU while it waited",
	[EXPLAIN_IDLE] = "its CPU was idle: exit from the idle state",
	[EXPLAIN_THROTTLED] = "throttled: CFS bandwidth (cpu.max), or RT throttling / the fair server",
	[EXPLAIN_INTERRUPTED] = "interrupts on its CPU while it ran",
	[EXPLAIN_STAGES] = "its chain's other threads at work (a Pipeline's workers, render thread)",
	[EXPLAIN_RUNNABLE] = "runnable but waiting (schedstat's run_delay; no tracer)",
	[EXPLAIN_UNEXPLAINED] = "the rest: the scheduler's own work, what was not traced",
};

const char *explain_part_name(enum explain_part part)
{
	return (unsigned)part < EXPLAIN_PARTS ? part_names[part] : "?";
}

const char *explain_part_help(enum explain_part part)
{
	return (unsigned)part < EXPLAIN_PARTS ? part_helps[part] : "?";
}

const char *explain_softirq_name(unsigned vec)
{
	static const char *const names[EXPLAIN_SOFTIRQS] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
							     "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };
	return vec < EXPLAIN_SOFTIRQS ? names[vec] : "?";
}

const char *explain_source_name(enum explain_source src)
{
	return src == EXPLAIN_BPF ? "bpf" : src == EXPLAIN_SCHEDSTAT ? "schedstat" : "none";
}

const char *explain_sched_text(const struct explain_culprit *c, char *buf, size_t len)
{
	switch (c->policy) {
	case 1: snprintf(buf, len, "SCHED_FIFO %d", 99 - c->prio); break;
	case 2: snprintf(buf, len, "SCHED_RR %d", 99 - c->prio); break;
	case 3: snprintf(buf, len, "SCHED_BATCH nice %d", c->prio - 120); break;
	case 5: snprintf(buf, len, "SCHED_IDLE"); break;
	case 6: snprintf(buf, len, "SCHED_DEADLINE"); break;
	default: snprintf(buf, len, "SCHED_OTHER nice %d", c->prio - 120); break;
	}
	return buf;
}
