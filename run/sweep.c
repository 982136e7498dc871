#include <stdio.h>
#include <string.h>
#include "run/sweep.h"
#include "lib/timeutil.h"

/* Adds the settings of policy set mask with nice levels nices and slices (us) to side, nice
 * before slice, each with the wake-ups of set wakes (bits SIM_WAKE_*; thread alone on the load
 * side) last. */
static void side_fill(struct sweep_side *side, uint32_t mask, const struct optspec_ints *nices,
		      const struct optspec_ints *slices, int rt_prio, uint32_t wakes)
{
	side->n = 0;
	for (unsigned k = 0; k < SP_KINDS; k++) {
		if (!(mask & (1u << k)))
			continue;
		bool fair = sched_kind_has_nice((enum sched_kind)k);
		unsigned levels = fair ? nices->n : 1, lengths = fair && slices->n ? slices->n : 1;
		for (unsigned i = 0; i < levels; i++)
			for (unsigned j = 0; j < lengths; j++)
				for (unsigned w = 0; w <= SIM_WAKE_TIMER && side->n < SWEEP_MAX; w++)
					if (wakes & (1u << w))
						side->s[side->n++] = (struct sched_setting){
							.kind = (enum sched_kind)k,
							.nice = fair ? nices->v[i] : 0,
							.rt_prio = rt_prio,
							.slice_ns = fair && slices->n ? (uint64_t)slices->v[j] * NS_PER_US : 0,
							.own_timer = w == SIM_WAKE_TIMER,
						};
	}
}

void sweep_build(const struct options *o, int rt_prio, struct sweep_side *bench, struct sweep_side *load)
{
	int prio = o->rt_priority ? (int)o->rt_priority : rt_prio;
	uint32_t bmask = o->bench_policies | (o->realtime ? 1u << SP_FIFO : 0);
	side_fill(bench, bmask ? bmask : 1u << SP_OTHER, &o->bench_nices, &o->bench_slices, prio,
		  o->wakes ? o->wakes : 1u << SIM_WAKE_THREAD);
	side_fill(load, o->load_policies ? o->load_policies : 1u << SP_OTHER, &o->load_nices, &o->load_slices, prio,
		  1u << SIM_WAKE_THREAD);
}

/* Probes side's slices (each value once), filling slice_kept_ns.  Returns 0, or 2 with one
 * line naming option, the value and the kernel's answer printed. */
static int probe_side(struct sweep_side *side, const char *option)
{
	for (unsigned i = 0; i < side->n; i++) {
		struct sched_setting *s = &side->s[i];
		if (!s->slice_ns || s->slice_kept_ns)
			continue;
		char why[256];
		uint64_t kept_ns;
		if (sched_slice_probe(s->slice_ns, &kept_ns, why, sizeof(why)) != 0) {
			fprintf(stderr, "interbench: %s: %llu: %s\n", option, (unsigned long long)(s->slice_ns / NS_PER_US), why);
			return 2;
		}
		for (unsigned j = i; j < side->n; j++)
			if (side->s[j].slice_ns == s->slice_ns)
				side->s[j].slice_kept_ns = kept_ns;
	}
	return 0;
}

int sweep_probe_slices(struct sweep_side *bench, struct sweep_side *load)
{
	int rc = probe_side(bench, "--bench-slice");
	return rc ? rc : probe_side(load, "--load-slice");
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
	bool plain = bench->n == 1 && load->n == 1 && sched_setting_is_default(&bench->s[0]) &&
		     !bench->s[0].own_timer && sched_setting_is_default(&load->s[0]);
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
