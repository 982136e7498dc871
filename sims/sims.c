/* Resolving a simulated task's pattern into a concrete period and work. */
#include "sims/sim.h"

void sim_spec_init(struct sim_spec *spec, const struct sim_desc *desc)
{
	spec->desc = desc;
	spec->interval_us = desc->interval_us;
	spec->cpu_pct = desc->cpu_pct;
	spec->buffer_periods = 0;
	spec->opts = NULL;
}

uint64_t sim_work_us(const struct sim_spec *spec, uint64_t period)
{
	if (spec->desc->work_us)
		return spec->desc->work_us(spec, period);
	return spec->interval_us * spec->cpu_pct / 100;
}
