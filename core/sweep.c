#include <stdio.h>
#include <string.h>
#include "core/sweep.h"
#include "lib/timeutil.h"

/* Adds the settings of policy set mask with nice levels nices to side. */
static void side_fill(struct sweep_side *side, uint32_t mask, const struct optspec_ints *nices, int rt_prio)
{
	side->n = 0;
	for (unsigned k = 0; k < SP_KINDS; k++) {
		if (!(mask & (1u << k)))
			continue;
		unsigned levels = sched_kind_has_nice((enum sched_kind)k) ? nices->n : 1;
		for (unsigned i = 0; i < levels && side->n < SWEEP_MAX; i++)
			side->s[side->n++] = (struct sched_setting){
				.kind = (enum sched_kind)k,
				.nice = sched_kind_has_nice((enum sched_kind)k) ? nices->v[i] : 0,
				.rt_prio = rt_prio,
			};
	}
}

void sweep_build(const struct options *o, int rt_prio, struct sweep_side *bench, struct sweep_side *load)
{
	int prio = o->rt_priority ? (int)o->rt_priority : rt_prio;
	uint32_t bmask = o->bench_policies | (o->realtime ? 1u << SP_FIFO : 0);
	side_fill(bench, bmask ? bmask : 1u << SP_OTHER, &o->bench_nices, prio);
	side_fill(load, o->load_policies ? o->load_policies : 1u << SP_OTHER, &o->load_nices, prio);
}

bool sweep_deadline_fits(const struct sim_spec *spec)
{
	return spec->desc->has_deadlines && !spec->desc->work_us && spec->interval_us > 0;
}

struct sched_setting sweep_deadline_for(const struct sched_setting *s, const struct sim_spec *spec)
{
	struct sched_setting d = *s;
	uint64_t period_ns = spec->interval_us * NS_PER_US;
	uint64_t work_ns = sim_work_us(spec, 0) * NS_PER_US;
	uint64_t margin_ns = work_ns * SWEEP_DL_MARGIN_PCT / 100;
	if (margin_ns < SWEEP_DL_MARGIN_MIN_NS)
		margin_ns = SWEEP_DL_MARGIN_MIN_NS;
	d.dl_runtime_ns = work_ns + margin_ns < period_ns ? work_ns + margin_ns : period_ns;
	d.dl_deadline_ns = d.dl_period_ns = period_ns;
	return d;
}

bool sweep_is_sweep(const struct sweep_side *bench, const struct sweep_side *load)
{
	return bench->n > 1 || load->n > 1;
}

/* Appends the labels of side to buf at *used. */
static void side_labels(const struct sweep_side *side, char *buf, size_t len, size_t *used)
{
	for (unsigned i = 0; i < side->n && *used < len; i++) {
		char label[48];
		int w = snprintf(buf + *used, len - *used, "%s%s", i ? ", " : "",
				 sched_setting_label(&side->s[i], label, sizeof(label)));
		*used += w > 0 ? (size_t)w : 0;
	}
}

const char *sweep_describe(const struct options *o, const struct sweep_side *bench, const struct sweep_side *load,
			   char *buf, size_t len)
{
	bool plain = bench->n == 1 && load->n == 1 && bench->s[0].kind == SP_OTHER && bench->s[0].nice == 0 &&
		     load->s[0].kind == SP_OTHER && load->s[0].nice == 0;
	const struct optspec_cpus *bc = o->bench_cpus.given ? &o->bench_cpus : &o->cpus;
	const struct optspec_cpus *lc = o->load_cpus.given ? &o->load_cpus : &o->cpus;
	size_t used = 0;
	buf[0] = '\0';
	if (plain && !bc->given && !lc->given)
		return buf;
	used += (size_t)snprintf(buf, len, "Settings: task ");
	side_labels(bench, buf, len, &used);
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "; loads ");
	side_labels(load, buf, len, &used);
	char cpus[256];
	if (bc->given && used < len)
		used += (size_t)snprintf(buf + used, len - used, "; task CPUs %s", format_cpu_list(bc, cpus, sizeof(cpus)));
	if (lc->given && used < len)
		snprintf(buf + used, len - used, "; load CPUs %s", format_cpu_list(lc, cpus, sizeof(cpus)));
	return buf;
}
