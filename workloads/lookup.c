/* Lookups in the registry of workloads (the table itself is workloads/registry.c, the list workloads/list.h). */
#include <string.h>
#include <strings.h>
#include "workloads/workload.h"

/* Whether workload w is a simulated task (as_load false) or a load (true). */
static bool is_kind(const struct workload *w, bool as_load)
{
	return as_load ? w->load != NULL : w->sim != NULL && w->help != NULL;
}

int workload_find(const char *name, bool as_load)
{
	for (unsigned i = 0; i < workload_count; i++)
		if (is_kind(workload_table[i], as_load) && strcasecmp(workload_table[i]->name, name) == 0)
			return (int)i;
	return -1;
}

void workload_sim_spec(const struct workload *w, const void *opts, struct sim_spec *spec)
{
	sim_spec_init(spec, w->sim);
	spec->opts = opts;
	if (w->sim_params)
		w->sim_params(opts, spec);
}

static const char *name_at(unsigned i, bool as_load)
{
	if (i >= workload_count)
		return NULL;
	return is_kind(workload_table[i], as_load) ? workload_table[i]->name : "";
}

const char *workload_sim_name_at(unsigned i) { return name_at(i, false); }
const char *workload_load_name_at(unsigned i) { return name_at(i, true); }

int workload_option_find(const struct workload *w, const char *long_name)
{
	for (unsigned k = 0; w->options && w->options[k]; k++)
		if (strcmp(w->options[k]->long_name, long_name) == 0)
			return (int)k;
	return -1;
}

void workload_load_init(struct load_ctx *ctx, const struct workload *w, const void *opts,
			const struct load_config *cfg)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->name = w->name;
	ctx->ops = w->load;
	ctx->cfg = cfg;
	ctx->opts = opts;
	ctx->metrics = w->metrics;
	if (w->load && w->sim)
		workload_sim_spec(w, opts, &ctx->sim_spec);
}
