#include <stdio.h>
#include <string.h>
#include "run/sweep.h"
#include "lib/timeutil.h"

/* What one side sweeps: its policies (bits of enum sched_kind), nice levels, slices (us), wake-ups
 * (bits SIM_WAKE_*; thread alone on the load side), CPU alternatives (none: the run's own) and
 * thread counts (0 alone: the run's own). */
struct side_axes {
	uint32_t kinds;
	const struct optspec_ints *nices, *slices;
	uint32_t wakes;
	const struct optspec_cpu_alts *places;
	const struct optspec_ints *threads;
	const struct optspec_texts *schedulers; /* none: the machine's as it is */
	const struct optspec_texts *cgroups;    /* alternatives when several: the run's one else */
	int rt_prio;
};

/* Adds s to side once per cgroup alternative of a, each once per scheduler of a (once with
 * none), in the order given. */
static void add_per_scheduler(struct sweep_side *side, const struct side_axes *a, struct sched_setting s)
{
	unsigned n = a->schedulers->n ? a->schedulers->n : 1, groups = a->cgroups->n > 1 ? a->cgroups->n : 1;
	for (unsigned g = 0; g < groups; g++)
		for (unsigned i = 0; i < n && side->n < SWEEP_MAX; i++) {
			s.cgroup = a->cgroups->n > 1 ? a->cgroups->v[g] : NULL;
			s.cgroup_index = a->cgroups->n > 1 ? g : 0;
			s.scheduler = a->schedulers->n ? a->schedulers->v[i] : NULL;
			side->s[side->n++] = s;
		}
}

/* Adds kind k's settings at nice level nice and slice slice_us to side: each wake-up, then each
 * placement, then each thread count, then each scheduler, in the order given. */
static void add_kind_settings(struct sweep_side *side, const struct side_axes *a, enum sched_kind k, int nice,
			      int slice_us)
{
	unsigned places = a->places->n > 1 ? a->places->n : 1;
	unsigned widths = a->threads->n > 1 ? a->threads->n : 1;
	for (unsigned w = 0; w <= SIM_WAKE_TIMER; w++)
		for (unsigned c = 0; (a->wakes & (1u << w)) && c < places; c++)
			for (unsigned t = 0; t < widths; t++)
				add_per_scheduler(side, a, (struct sched_setting){
					.kind = k,
					.nice = nice,
					.rt_prio = a->rt_prio,
					.slice_ns = (uint64_t)slice_us * NS_PER_US,
					.own_timer = w == SIM_WAKE_TIMER,
					.cpus = a->places->n > 1 ? &a->places->v[c] : NULL,
					.threads = a->threads->n > 1 ? (unsigned)a->threads->v[t] : 0,
				});
}

/* Fills side with the settings of axes a: policies in the order of enum sched_kind, nice
 * before slice before the axes of add_kind_settings. */
static void side_fill(struct sweep_side *side, const struct side_axes *a)
{
	side->n = 0;
	for (unsigned k = 0; k < SP_KINDS; k++) {
		if (!(a->kinds & (1u << k)))
			continue;
		bool fair = sched_kind_has_nice((enum sched_kind)k);
		unsigned levels = fair ? a->nices->n : 1, lengths = fair && a->slices->n ? a->slices->n : 1;
		for (unsigned i = 0; i < levels; i++)
			for (unsigned j = 0; j < lengths; j++)
				add_kind_settings(side, a, (enum sched_kind)k, fair ? a->nices->v[i] : 0,
						  fair && a->slices->n ? a->slices->v[j] : 0);
	}
}

void sweep_build(const struct options *o, int rt_prio, struct sweep_side *bench, struct sweep_side *load)
{
	static const struct optspec_ints one_width = { .n = 1 };
	static const struct optspec_texts none = { .n = 0 };
	int prio = o->rt_priority ? (int)o->rt_priority : rt_prio;
	uint32_t bmask = o->bench_policies | (o->realtime ? 1u << SP_FIFO : 0);
	side_fill(bench, &(struct side_axes){ .kinds = bmask ? bmask : 1u << SP_OTHER, .nices = &o->bench_nices,
					      .slices = &o->bench_slices, .wakes = o->wakes ? o->wakes : 1u << SIM_WAKE_THREAD,
					      .places = &o->bench_cpus, .threads = &one_width, .schedulers = &o->schedulers,
					      .cgroups = &o->bench_cgroups, .rt_prio = prio });
	side_fill(load, &(struct side_axes){ .kinds = o->load_policies ? o->load_policies : 1u << SP_OTHER,
					     .nices = &o->load_nices, .slices = &o->load_slices,
					     .wakes = 1u << SIM_WAKE_THREAD, .places = &o->load_cpus,
					     .threads = &o->load_threads, .schedulers = &none, .cgroups = &o->load_cgroups,
					     .rt_prio = prio });
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
		char label[128];
		int w = snprintf(buf + *used, len - *used, "%s%s", i ? ", " : "",
				 sched_setting_label(&side->s[i], label, sizeof(label)));
		*used += w > 0 ? (size_t)w : 0;
	}
}

const struct optspec_cpus *sweep_fixed_cpus(const struct options *o, const struct optspec_cpu_alts *alts)
{
	if (alts->n > 1)
		return NULL;
	return alts->n ? &alts->v[0] : o->cpus.given ? &o->cpus : NULL;
}

const char *sweep_describe(const struct options *o, const struct sweep_side *bench, const struct sweep_side *load,
			   char *buf, size_t len)
{
	bool plain = bench->n == 1 && load->n == 1 && sched_setting_is_default(&bench->s[0]) &&
		     !bench->s[0].own_timer && !bench->s[0].scheduler && sched_setting_is_default(&load->s[0]);
	const struct optspec_cpus *bc = sweep_fixed_cpus(o, &o->bench_cpus), *lc = sweep_fixed_cpus(o, &o->load_cpus);
	size_t used = 0;
	buf[0] = '\0';
	if (plain && !bc && !lc)
		return buf;
	used += (size_t)snprintf(buf, len, "Settings: task ");
	side_labels(bench, buf, len, &used);
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "; loads ");
	side_labels(load, buf, len, &used);
	char cpus[256];
	if (bc && used < len)
		used += (size_t)snprintf(buf + used, len - used, "; task CPUs %s", format_cpu_list(bc, cpus, sizeof(cpus)));
	if (lc && used < len)
		snprintf(buf + used, len - used, "; load CPUs %s", format_cpu_list(lc, cpus, sizeof(cpus)));
	return buf;
}
