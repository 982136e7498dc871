/* Custom: the period (-I, microseconds) and CPU share (-C, percent) come from the command
 * line; it runs only when both are given. */
#include "sims/sim.h"

const struct sim_desc sim_custom = {
	.name = "Custom",
	.help = "-C percent CPU every -I microseconds",
	.has_deadlines = true,
	.flags = SIM_BENCH_NORMAL | SIM_BENCH_RT | SIM_CUSTOM,
};
