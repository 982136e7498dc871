/* Resolving a simulated task's pattern into a concrete period and work, and stating it. */
#include <stdio.h>
#include "engine/sim.h"

void sim_spec_init(struct sim_spec *spec, const struct sim_desc *desc)
{
	spec->desc = desc;
	spec->interval_us = desc->interval_us;
	spec->cpu_pct = desc->cpu_pct;
	spec->buffer_periods = 0;
	spec->deadline_us = 0;
	spec->opts = NULL;
}

uint64_t sim_work_us(const struct sim_spec *spec, uint64_t period)
{
	if (spec->desc->work_us)
		return spec->desc->work_us(spec, period);
	return spec->interval_us * spec->cpu_pct / 100;
}

void sim_work_range_us(const struct sim_spec *spec, uint64_t *lo_us, uint64_t *hi_us)
{
	unsigned n = spec->desc->cycle_periods ? spec->desc->cycle_periods : 1;
	*lo_us = *hi_us = sim_work_us(spec, 0);
	for (unsigned p = 1; p < n; p++) {
		uint64_t w = sim_work_us(spec, p);
		*lo_us = w < *lo_us ? w : *lo_us;
		*hi_us = w > *hi_us ? w : *hi_us;
	}
}

const char *sim_ms_text(uint64_t us, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%llu.%03llu", (unsigned long long)(us / 1000), (unsigned long long)(us % 1000));
	while (n > 0 && (size_t)n < len && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && (size_t)n < len && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

/* The work lo_us to hi_us and its share of the period iv_us: "1.066 ms (80 %)", or as a range
 * "0-100 ms (0-100 %)" when they differ. */
static void work_text(uint64_t lo_us, uint64_t hi_us, uint64_t iv_us, char *buf, size_t len)
{
	char lo[32], hi[32];
	unsigned long long lo_pct = (lo_us * 100 + iv_us / 2) / iv_us, hi_pct = (hi_us * 100 + iv_us / 2) / iv_us;
	if (lo_us == hi_us)
		snprintf(buf, len, "%s ms (%llu %%)", sim_ms_text(lo_us, lo, sizeof(lo)), lo_pct);
	else
		snprintf(buf, len, "%s-%s ms (%llu-%llu %%)", sim_ms_text(lo_us, lo, sizeof(lo)), sim_ms_text(hi_us, hi, sizeof(hi)),
			 lo_pct, hi_pct);
}

void sim_pattern_text(const struct sim_spec *spec, char *buf, size_t len)
{
	char period[32], work[96], note[320] = "";
	uint64_t lo_us, hi_us;
	sim_work_range_us(spec, &lo_us, &hi_us);
	work_text(lo_us, hi_us, spec->interval_us ? spec->interval_us : 1, work, sizeof(work));
	if (spec->desc->pattern_note)
		spec->desc->pattern_note(spec, note, sizeof(note));
	char buffer[48] = "no buffer";
	if (spec->buffer_periods)
		snprintf(buffer, sizeof(buffer), "buffer %u periods", spec->buffer_periods);
	snprintf(buf, len, "period %s ms, work %s, %s%s%s%s%s", sim_ms_text(spec->interval_us, period, sizeof(period)), work,
		 buffer, spec->desc->has_deadlines ? "" : ", no deadlines", note[0] ? " (" : "", note, note[0] ? ")" : "");
}
