#include <string.h>
#include "tools/compare.h"
#include "tools/completion.h"
#include "tools/export.h"
#include "tools/plot.h"
#include "tools/subcommand.h"

const struct subcommand subcommands[] = {
	{ "compare", compare_main, compare_option_table, "[--threshold SPEC] OLD NEW" },
	{ "export", export_main, export_option_table, "[--format FORMAT] RESULT" },
	{ "plot", plot_main, plot_option_table, "RESULT.json [--timeline FILE] [--out DIR]" },
	{ "completion", completion_main, NULL, "bash|zsh   (a completion script)" },
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
	fprintf(f, "       (a subcommand's own options: %s SUBCOMMAND --help)\n", prog);
}
