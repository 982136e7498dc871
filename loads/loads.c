/* The table of loads, in the order they are run against each simulated task. */
#include <strings.h>
#include "loads/load.h"

extern const struct load_desc load_none, load_video, load_x, load_burn, load_write, load_read,
	load_compile, load_memload, load_hack, load_ring, load_custom;

const struct load_desc *const load_table[] = {
	&load_none, &load_video, &load_x, &load_burn, &load_write, &load_read,
	&load_compile, &load_memload, &load_hack, &load_ring, &load_custom,
};
const unsigned load_count = sizeof(load_table) / sizeof(load_table[0]);

int load_find(const char *name)
{
	for (unsigned i = 0; i < load_count; i++)
		if (strcasecmp(load_table[i]->name, name) == 0)
			return (int)i;
	return -1;
}
