/* The table of simulated tasks, in the order they are benchmarked. */
#include <strings.h>
#include "sims/sim.h"

extern const struct sim_desc sim_audio, sim_video, sim_x, sim_gaming, sim_custom;

const struct sim_desc *const sim_table[] = {
	&sim_audio, &sim_video, &sim_x, &sim_gaming, &sim_custom,
};
const unsigned sim_count = sizeof(sim_table) / sizeof(sim_table[0]);

int sim_find(const char *name)
{
	for (unsigned i = 0; i < sim_count; i++)
		if (strcasecmp(sim_table[i]->name, name) == 0)
			return (int)i;
	return -1;
}

void sim_spec_init(struct sim_spec *spec, const struct sim_desc *desc,
		   uint64_t custom_interval_us, unsigned custom_cpu_pct)
{
	spec->desc = desc;
	spec->interval_us = (desc->flags & SIM_CUSTOM) ? custom_interval_us : desc->interval_us;
	spec->cpu_pct = (desc->flags & SIM_CUSTOM) ? custom_cpu_pct : desc->cpu_pct;
}

uint64_t sim_work_us(const struct sim_spec *spec, uint64_t period)
{
	if (spec->desc->work_us)
		return spec->desc->work_us(spec, period);
	return spec->interval_us * spec->cpu_pct / 100;
}
