#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "lib/optparse.h"

/* getopt_long's value for option i: its short letter, or 256 + i for a long-only option. */
static int option_val(const struct optparse *p, unsigned i)
{
	const struct optspec *s = p->spec(p->ctx, i);
	return s->short_name ? s->short_name : 256 + (int)i;
}

/* The index of the option getopt_long returned as val, or -1. */
static int option_of_val(const struct optparse *p, int val)
{
	for (unsigned i = 0; i < p->n; i++)
		if (option_val(p, i) == val)
			return (int)i;
	return -1;
}

static bool takes_value(const struct optspec *s)
{
	return s->type != OPTSPEC_FLAG && s->type != OPTSPEC_ACTION;
}

/* getopt_long's tables: lo (p->n + 1 entries) and the short option string (2 * p->n + 3). */
static void getopt_tables(const struct optparse *p, struct option *lo, char *shorts)
{
	size_t k = 0;
	if (p->in_order)
		shorts[k++] = '+';
	shorts[k++] = ':';
	for (unsigned i = 0; i < p->n; i++) {
		const struct optspec *s = p->spec(p->ctx, i);
		lo[i] = (struct option){ s->long_name, takes_value(s) ? required_argument : no_argument, NULL,
					 option_val(p, i) };
		if (s->short_name) {
			shorts[k++] = (char)s->short_name;
			if (takes_value(s))
				shorts[k++] = ':';
		}
	}
	lo[p->n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[k] = '\0';
}

/* The long option nearest word ("--bugdet" or "--bugdet=5"), as "--budget" into f->suggest. */
static void suggest_option(const struct optparse *p, const char *word, struct optparse_fault *f)
{
	char name[SUGGEST_MAX_LEN + 1];
	struct suggest sg;
	if (strncmp(word, "--", 2) != 0)
		return;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(word + 2, "="), word + 2);
	suggest_begin(&sg, name, false);
	for (unsigned i = 0; i < p->n; i++)
		if (!p->spec(p->ctx, i)->hidden)
			suggest_offer(&sg, p->spec(p->ctx, i)->long_name);
	if (sg.best)
		snprintf(f->suggest, sizeof(f->suggest), "--%s", sg.best);
}

/* Fills f for getopt_long's ':' (missing value) or '?' (unknown option). */
static void getopt_fault(const struct optparse *p, int c, char **argv, struct optparse_fault *f)
{
	int i = option_of_val(p, optopt);
	f->kind = c == ':' && i >= 0 ? OPTPARSE_MISSING : OPTPARSE_UNKNOWN;
	f->spec = f->kind == OPTPARSE_MISSING ? p->spec(p->ctx, (unsigned)i) : NULL;
	f->letter = optopt;
	f->word = argv[optind - 1];
	if (f->kind == OPTPARSE_UNKNOWN && !optopt)
		suggest_option(p, f->word, f);
}

/* The getopt_long loop over the tables lo and shorts. */
static int parse_loop(const struct optparse *p, const struct option *lo, const char *shorts, int argc, char **argv,
		      struct optparse_fault *f)
{
	int c;
	optind = 0; /* a full reset, so that a parser can run more than once (tests) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		int i = c == ':' || c == '?' ? -1 : option_of_val(p, c);
		if (i < 0) {
			getopt_fault(p, c, argv, f);
			return OPTSPEC_BAD;
		}
		int rc = p->set(p->ctx, (unsigned)i, optarg, f->what, sizeof(f->what));
		if (rc == OPTSPEC_BAD) {
			f->kind = OPTPARSE_BAD_VALUE;
			f->spec = p->spec(p->ctx, (unsigned)i);
			f->letter = c;
			f->word = argv[optind - 1];
			f->value = optarg;
			optspec_suggest(f->spec, optarg, f->suggest, sizeof(f->suggest));
		}
		if (rc != OPTSPEC_SET)
			return rc;
	}
	return OPTSPEC_SET;
}

int optparse_run(const struct optparse *p, int argc, char **argv, struct optparse_fault *f)
{
	struct option *lo = calloc(p->n + 1, sizeof(*lo));
	char *shorts = malloc(2 * (size_t)p->n + 3);
	*f = (struct optparse_fault){ .kind = OPTPARSE_NO_MEMORY };
	int rc = OPTSPEC_BAD;
	if (lo && shorts) {
		getopt_tables(p, lo, shorts);
		rc = parse_loop(p, lo, shorts, argc, argv, f);
	}
	free(lo);
	free(shorts);
	return rc;
}

/* optparse_table's context: one table, one base. */
struct one_table {
	const struct optspec *specs;
	void *base;
};

static const struct optspec *table_spec(void *ctx, unsigned i)
{
	return &((struct one_table *)ctx)->specs[i];
}

static int table_set(void *ctx, unsigned i, const char *arg, char *what, size_t whatlen)
{
	struct one_table *t = ctx;
	return optspec_set(&t->specs[i], t->base, arg, what, whatlen);
}

int optparse_table(const struct optspec *specs, unsigned n, void *base, bool in_order, int argc, char **argv,
		   struct optparse_fault *f)
{
	struct one_table t = { .specs = specs, .base = base };
	struct optparse p = { .n = n, .spec = table_spec, .set = table_set, .ctx = &t, .in_order = in_order };
	return optparse_run(&p, argc, argv, f);
}
