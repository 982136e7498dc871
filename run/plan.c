#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/plan.h"

bool plan_supported(const struct options *o, unsigned i)
{
	char why[160];
	const struct workload *w = workload_table[i];
	return !w->supported || w->supported(options_wl_opts(o, i), why, sizeof(why));
}

bool plan_task_named(const struct options *o, unsigned i)
{
	return !(o->sim_include && !(o->sim_include & (1u << i))) && !(o->sim_exclude & (1u << i));
}

/* Whether task i is in the run at all: named, supported with its options. */
static bool sim_selected(const struct options *o, unsigned i)
{
	const struct workload *w = workload_table[i];
	if ((w->flags & WL_ONLY_NAMED) && !(o->sim_include & (1u << i)))
		return false;
	return w->sim && w->help && plan_task_named(o, i) && plan_supported(o, i);
}

/* Whether task w (resolved as spec) is benchmarked at setting b: its modes allow a realtime
 * or a normal policy, and SCHED_DEADLINE only for a fixed work per period. */
static bool sim_runs_at(const struct workload *w, const struct sim_spec *spec, const struct sched_setting *b)
{
	if (b->kind == SP_DEADLINE && !sweep_deadline_fits(spec))
		return false;
	return (w->flags & (sched_kind_realtime(b->kind) ? WL_BENCH_RT : WL_BENCH_NORMAL)) != 0;
}

/* Whether workload li runs as a load against task si benchmarked at setting b (a task is
 * never its own load). */
static bool load_selected(const struct options *o, unsigned li, unsigned si, const struct sched_setting *b)
{
	const struct workload *w = workload_table[li];
	if (!w->load || li == si || !plan_supported(o, li))
		return false;
	if ((o->load_include && !(o->load_include & (1u << li))) || (o->load_exclude & (1u << li)))
		return false;
	if ((w->flags & WL_ONLY_NAMED) && !(o->load_include & (1u << li)))
		return false;
	return (w->flags & (sched_kind_realtime(b->kind) ? WL_LOAD_RT : WL_LOAD_NORMAL)) != 0;
}

/* Setting b made concrete for task w resolved as spec (plan_item.bench_sched). */
static struct sched_setting concrete_setting(const struct plan_input *in, const struct workload *w,
					     const struct sim_spec *spec, const struct sched_setting *b)
{
	const struct options *o = in->opt;
	if (b->kind == SP_DEADLINE)
		return sweep_deadline_for(b, spec);
	/* a sweep of the wake-up, the placement, the cgroup or the scheduler alone asks for no
	 * policy: each setting comes once per wake-up, placement, cgroup and scheduler */
	unsigned per_policy = (o->wakes & (o->wakes - 1) ? 2u : 1u) * (o->bench_cpus.n > 1 ? o->bench_cpus.n : 1u) *
			      (o->schedulers.n ? o->schedulers.n : 1u) * (o->bench_cgroups.n > 1 ? o->bench_cgroups.n : 1u);
	bool asked = o->realtime || o->bench_policies || in->bench->n > per_policy;
	if ((w->flags & WL_PREFERS_FIFO) && !asked && in->rt_ok && sched_setting_is_default(b)) {
		struct sched_setting fifo;
		memset(&fifo, 0, sizeof(fifo)); /* padding too: a plan is the same bytes every time */
		fifo.kind = SP_FIFO;
		fifo.rt_prio = o->rt_priority ? (int)o->rt_priority : in->fifo_prio;
		fifo.own_timer = b->own_timer;
		fifo.cpus = b->cpus;
		fifo.scheduler = b->scheduler;
		fifo.cgroup = b->cgroup;
		fifo.cgroup_index = b->cgroup_index;
		return fifo;
	}
	return *b;
}

/* Appends task si's pairs at bench setting b to p. */
static void add_pairs(struct plan *p, const struct plan_input *in, unsigned si, const struct sim_spec *spec,
		      unsigned b)
{
	const struct sched_setting *bs = &in->bench->s[b];
	for (unsigned l = 0; l < in->load->n; l++)
		for (unsigned li = 0; li < workload_count; li++)
			if (load_selected(in->opt, li, si, bs)) {
				struct plan_item *it = &p->items[p->n++];
				memset(it, 0, sizeof(*it)); /* padding too: a plan is the same bytes every time */
				it->task = workload_table[si];
				it->spec = *spec;
				it->load_index = li;
				it->bench_setting = b;
				it->load_setting = l;
				it->bench_sched = concrete_setting(in, workload_table[si], spec, bs);
			}
}

int plan_build(struct plan *p, const struct plan_input *in)
{
	size_t max = (size_t)workload_count * workload_count * in->bench->n * in->load->n;
	plan_free(p);
	p->items = calloc(max ? max : 1, sizeof(*p->items));
	if (!p->items)
		return -1;
	for (unsigned si = 0; si < workload_count; si++) {
		struct sim_spec spec;
		if (!sim_selected(in->opt, si))
			continue;
		workload_sim_spec(workload_table[si], options_wl_opts(in->opt, si), &spec);
		for (unsigned b = 0; b < in->bench->n; b++)
			if (sim_runs_at(workload_table[si], &spec, &in->bench->s[b]))
				add_pairs(p, in, si, &spec, b);
	}
	return 0;
}

void plan_free(struct plan *p)
{
	free(p->items);
	p->items = NULL;
	p->n = 0;
}

bool plan_uses(const struct plan *p, unsigned i)
{
	for (size_t k = 0; k < p->n; k++)
		if (p->items[k].load_index == i || p->items[k].task == workload_table[i])
			return true;
	return false;
}

int plan_preflight(const struct plan *p, const struct options *o, char *err, size_t len)
{
	for (unsigned i = 0; i < workload_count; i++) {
		const struct workload *w = workload_table[i];
		if (w->preflight && plan_uses(p, i) && w->preflight(options_wl_opts(o, i), err, len) != 0)
			return -1;
	}
	return 0;
}

void plan_no_pair_reasons(const struct options *o, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < workload_count && used < len; i++) {
		char why[160];
		const struct workload *w = workload_table[i];
		bool named = (o->sim_include | o->load_include) & (1u << i);
		if (named && w->supported && !w->supported(options_wl_opts(o, i), why, sizeof(why))) {
			int n = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", why);
			used += n > 0 ? (size_t)n : 0;
		}
	}
	if (!buf[0])
		snprintf(buf, len, "a selection with at least one pair; a task is never its own load, and each "
			 "runs only in the modes its -h line allows");
}
