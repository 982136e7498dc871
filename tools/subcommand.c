#include <string.h>
#include "tools/compare.h"
#include "tools/completion.h"
#include "tools/export.h"
#include "tools/plot.h"
#include "tools/subcommand.h"

const struct subcommand subcommands[] = {
	{ "compare", compare_main, compare_option_table,
	  "[--threshold SPEC] OLD NEW   (see interbench compare --help)" },
	{ "export", export_main, export_option_table,
	  "[--format FMT] RESULT  (see interbench export --help)" },
	{ "plot", plot_main, plot_option_table, "RESULT.json [--timeline FILE] [--out DIR] (see interbench plot --help)" },
	{ "completion", completion_main, NULL, "bash   (a bash completion script, from these options)" },
};
const unsigned subcommand_count = sizeof(subcommands) / sizeof(subcommands[0]);

const struct subcommand *subcommand_find(const char *name)
{
	for (unsigned i = 0; name && i < subcommand_count; i++)
		if (strcmp(subcommands[i].name, name) == 0)
			return &subcommands[i];
	return NULL;
}

void subcommand_usage(FILE *f, const char *prog)
{
	for (unsigned i = 0; i < subcommand_count; i++)
		fprintf(f, "       %s %s %s\n", prog, subcommands[i].name, subcommands[i].usage);
}
