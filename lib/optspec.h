/* Table-driven command-line options, in the style of fio's `struct fio_option` tables: each
 * option is described once (names, type, range, unit, default, help, JSON key, and the offset
 * of its value in a settings struct), and parsing, messages, -h, defaults and the printing of
 * values are walks over the descriptions.  Whoever owns the struct owns the table: the core
 * settings (run/options.c), each workload's private config (workloads/), and the subcommands'
 * command lines (tools/compare.c, export.c, plot.c); lib/optparse.h parses them all. */
#ifndef IB_OPTSPEC_H
#define IB_OPTSPEC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where and how an option's value is stored (at the option's offset in its settings). */
enum optspec_type {
	OPTSPEC_FLAG,   /* bool, set to true; takes no value */
	OPTSPEC_ACTION, /* takes no value, stores nothing: the parse stops with .action (help, version) */
	OPTSPEC_UINT,   /* unsigned, a decimal integer in [min, max] */
	OPTSPEC_U64,    /* uint64_t, a decimal integer in [min, max] */
	OPTSPEC_INT,    /* int, a decimal integer (sign allowed) in [min, max] */
	OPTSPEC_I64,    /* int64_t, a decimal integer in [min, max]; the default may lie outside
	                   the range to mean "not given" (e.g. -1) */
	OPTSPEC_SIZE,   /* uint64_t bytes: a decimal integer with an optional K, M, G or T suffix
	                   (powers of 1024), in [min, max] */
	OPTSPEC_TEXT,   /* const char *, any text (kept as the argv pointer) */
	OPTSPEC_STRING, /* const char *, not empty (kept as the argv pointer) */
	OPTSPEC_MASK,   /* uint32_t bit set: each use adds the bits of a name from .name_at, or
	                   of several separated by commas */
	OPTSPEC_INTS,   /* struct optspec_ints: a comma list of integers and ranges A:B[:STEP]
	                   (B included, STEP > 0, counting down when A > B), each in [min, max],
	                   no value twice; the default is the one value def; a use replaces it */
	OPTSPEC_CPUS,   /* struct optspec_cpus: a CPU list as cyclictest takes it ("0,2-3") */
	OPTSPEC_CPU_ALTS, /* struct optspec_cpu_alts: one CPU list, or alternatives separated by
	                     '/' ("0/1", "0,1/2-3") that a sweep runs in turn; none by default */
	OPTSPEC_TEXTS,  /* struct optspec_texts: each use appends a text that is not empty (kept as
	                   the argv pointer), at most OPTSPEC_TEXTS_MAX, none twice; none by default */
	OPTSPEC_CHOICE, /* unsigned: the index of the value among .choices, matched exactly
	                   (case-sensitive); the default is index def */
	OPTSPEC_CUSTOM, /* stored by .set, the owner's own parser (compare's thresholds); no
	                   default is stored */
};

#define OPTSPEC_LIST_MAX 40   /* values of an OPTSPEC_INTS list (-20..19 is 40) */

/* An OPTSPEC_INTS value. */
struct optspec_ints {
	unsigned n;                 /* 1 .. OPTSPEC_LIST_MAX */
	int v[OPTSPEC_LIST_MAX];    /* in the order given */
};

#define OPTSPEC_MAX_CPUS 1024   /* CPU numbers below this (glibc's CPU_SETSIZE) */

/* An OPTSPEC_CPUS value: a bitmap, CPU c in bits[c / 64] bit c % 64. */
struct optspec_cpus {
	bool given;                 /* false: not set (every allowed CPU) */
	uint64_t bits[OPTSPEC_MAX_CPUS / 64];
};

#define OPTSPEC_TEXTS_MAX 8   /* texts of an OPTSPEC_TEXTS value */

/* An OPTSPEC_TEXTS value. */
struct optspec_texts {
	unsigned n;
	const char *v[OPTSPEC_TEXTS_MAX]; /* in the order given */
};

#define OPTSPEC_CPU_ALTS_MAX 8  /* alternatives of an OPTSPEC_CPU_ALTS value */

/* An OPTSPEC_CPU_ALTS value: n CPU lists (each given), in the order given, none the same. */
struct optspec_cpu_alts {
	unsigned n;                 /* 0: not set (every allowed CPU), else 1 .. OPTSPEC_CPU_ALTS_MAX */
	struct optspec_cpus v[OPTSPEC_CPU_ALTS_MAX];
};

/* Whether CPU c is in l. */
static inline bool optspec_cpu_isset(const struct optspec_cpus *l, unsigned c)
{
	return c < OPTSPEC_MAX_CPUS && (l->bits[c / 64] >> (c % 64) & 1);
}

struct optspec {
	const char *long_name;  /* "file-size" (without the dashes) */
	int short_name;         /* 't', or 0 for a long-only option */
	enum optspec_type type;
	const char *metavar;    /* the value's placeholder in -h ("SIZE"); NULL for no value */
	/* -h text, one paragraph (wrapped when printed); the main command's -h shows only its
	 * first line (up to a '\n', a ':', ';' or ',' ending it dropped), --help-all the whole */
	const char *help;
	int64_t min, max;       /* accepted range of the number types (SIZE: bytes) */
	int64_t def;            /* default of the number types and FLAG (0/1) */
	const char *def_str;    /* default of TEXT and STRING (NULL: none) */
	const char *unit;       /* the value's words in messages ("microseconds"); NULL: "an integer" */
	const char *accepted;   /* what TEXT, STRING and ACTION accept, in messages */
	const char *noun;       /* STRING: what it names ("directory name", for "empty directory
	                           name"); MASK: what a name is ("load", for "unknown load") */
	const char *json_key;   /* key of the value in the JSON "options" object; NULL: not there */
	/* Not a fact of the run that compare sets side by side (tools/result_json.c): the option
	 * selects or names the run's inputs and outputs, or compare matches it per pair. */
	bool not_a_fact;
	size_t offset;          /* of the value in the settings struct */
	/* MASK: the name of candidate i (bit i), "" for a bit that is not a candidate, NULL past
	 * the last.  Names match case-insensitively. */
	const char *(*name_at)(unsigned i);
	int action;             /* ACTION: the status optspec_set returns */
	const char *const *choices; /* CHOICE: the accepted values, NULL after the last */
	/* CUSTOM: parses arg into base (at s->offset, or wherever the owner keeps it).  Returns
	 * OPTSPEC_SET, or OPTSPEC_BAD with `what` (whatlen bytes) the whole reason. */
	int (*set)(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen);
	bool hide_short;        /* the short letter is accepted but shown nowhere (-h, messages) */
	bool hidden;            /* accepted, but no line in -h */
	/* STRING: one value a run: a second use with another value is refused ("second file name
	 * after 'a.json'"), never a silent replacement; the same value again is accepted. */
	bool once;
	/* The -h section the option is listed under (enum optspec_section); every option of the
	 * main command and of a workload has one (tests/check_options.c fails on a row without).
	 * The subcommands' tables leave it 0. */
	unsigned section;
	/* UINT, U64, I64 and INTS: nonzero makes the option a duration stored in units of this
	 * many nanoseconds (1000000000: seconds, 1000: microseconds).  Its value is then a time
	 * with a unit (parse_duration: "10s", "500ms", "2m") or a bare number in this unit, which
	 * must come to a whole number of units; min and max stay in the unit. */
	uint64_t time_unit_ns;
};

/* The sections of the main command's -h, in the order it lists them: the common ones first,
 * as cyclictest(8), fio(1) and rtla-timerlat-top(1) order theirs.  OPTSPEC_SECTION_NONE (0)
 * is no section: a missing one, which the tests refuse. */
enum optspec_section {
	OPTSPEC_SECTION_NONE = 0,
	OPTSPEC_SECTION_RUN,        /* what to run: -W, -w, -x, -X */
	OPTSPEC_SECTION_TIME,       /* how long: -t, --budget, --repeat */
	OPTSPEC_SECTION_OUTPUT,     /* outputs: --json, -c, -q, -v */
	OPTSPEC_SECTION_SCHED,      /* scheduling: -B, -N, -r, policies, slices */
	OPTSPEC_SECTION_PLACEMENT,  /* placement: --cpus, -L, -u */
	OPTSPEC_SECTION_EXPLAIN,    /* --explain and its threshold */
	OPTSPEC_SECTION_WORKLOAD,   /* a simulated task's or load's own options (--help-all only) */
	OPTSPEC_SECTION_EXPERT,     /* -l, -b, --seed */
	OPTSPEC_SECTION_INFO,       /* -h, --help-all, --version, --audit */
	OPTSPEC_SECTION_COUNT
};

/* The heading of section sec in -h ("What to run"); NULL for none or out of range. */
const char *optspec_section_title(unsigned sec);

#define OPTSPEC_HELP_WIDTH 80   /* the columns of every -h line */

/* Results of optspec_set. */
enum { OPTSPEC_SET = 0, OPTSPEC_BAD = -1 };

/* Stores the defaults of the n options of specs into base. */
void optspec_defaults(const struct optspec *specs, size_t n, void *base);

/* Parses arg (NULL for FLAG and ACTION) as option s's value into base.  Returns OPTSPEC_SET,
 * s->action for an ACTION, or OPTSPEC_BAD with `what` (whatlen bytes) saying what is wrong
 * with the value ("invalid value", "invalid size", "empty directory name", "unknown load"). */
int optspec_set(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen);

/* The option's name for messages: "-t" for one with a short form (not hidden), else
 * "--workdir". */
const char *optspec_display(const struct optspec *s, char *buf, size_t len);

/* What option s accepts as its value, for messages: "an integer from 1 to 1024",
 * "microseconds from 100 to 10000000", "1M to 1048576T, with an optional K, M, G or T
 * suffix", the MASK's names joined with ", ", or s->accepted. */
const char *optspec_accepted(const struct optspec *s, char *buf, size_t len);

/* "Did you mean": for a MASK, the candidate nearest the first name of value that is none
 * (case-insensitively: "Audoi" -> "Audio"); for a CHOICE, the choice nearest value (lib/suggest.h).
 * Returns buf, or NULL (buf "") when nothing is near enough or s is another type. */
const char *optspec_suggest(const struct optspec *s, const char *value, char *buf, size_t len);

/* Whether the value in base is the option's default. */
bool optspec_is_default(const struct optspec *s, const void *base);

/* The value in base as text, as it would be given on the command line ("64M" for a size
 * that is a whole number of MiB, "25", "/tmp", the MASK's names joined with ","); "" for a
 * NULL string.  Returns buf. */
const char *optspec_format(const struct optspec *s, const void *base, char *buf, size_t len);

/* The value in base of a number type, FLAG (0/1) or MASK (the bits); 0 for the others. */
int64_t optspec_number(const struct optspec *s, const void *base);

/* The value in base of a TEXT or STRING option (NULL when unset); NULL for the others. */
const char *optspec_text(const struct optspec *s, const void *base);

/* The layout of -h lines: the column the help text starts at (counted from 0), and the indent
 * of an option without a (shown) short letter ("      " to line up with "  -t, ", or "  "). */
struct optspec_style {
	int column;
	const char *long_indent;
};

/* The main command's layout: column 27, long-only options indented to line up. */
extern const struct optspec_style optspec_main_style;

/* Writes s's -h line(s) to f as st lays them out: "  -t, --time S             seconds..."
 * with the help text starting at st->column, word-wrapped within OPTSPEC_HELP_WIDTH columns
 * on lines indented to that column (optspec_help_brief in full); a head ("  -t, --time S")
 * reaching the column stands on a line of its own.  Nothing for a hidden option. */
void optspec_help_styled(FILE *f, const struct optspec *s, const struct optspec_style *st);

/* optspec_help_styled, but only the help text's first line (its summary) when brief.  The
 * text is one paragraph word-wrapped within OPTSPEC_HELP_WIDTH columns: a '\n' in it wraps as
 * a blank (a word longer than a line stands alone). */
void optspec_help_brief(FILE *f, const struct optspec *s, const struct optspec_style *st, bool brief);

/* Writes text to f word-wrapped within width columns: the first line after first (already
 * written, first_col columns wide), the others indented by indent columns; each '\n' of text
 * starts a new line. */
void optspec_wrap(FILE *f, const char *text, int first_col, int indent, int width);

/* optspec_help_styled for each of the n options of specs, in order. */
void optspec_help_table(FILE *f, const struct optspec *specs, unsigned n, const struct optspec_style *st);

/* For shell completion: writes " --NAME" and, unless hidden from -h, " -X" of s (nothing for
 * a hidden option) to f. */
void optspec_complete_names(FILE *f, const struct optspec *s);

/* For shell completion: writes the words s's value is one of, each after a space (a CHOICE's
 * choices, a MASK's names) to f.  Returns how many (0: s names no values). */
unsigned optspec_complete_values(FILE *f, const struct optspec *s);

/* optspec_help_styled with optspec_main_style. */
void optspec_help(FILE *f, const struct optspec *s);

/* Parses a CPU list ("0", "0,2-3", "1-3,7"), CPUs below OPTSPEC_MAX_CPUS, into l (given set).
 * Returns 0, or -1 (empty, malformed, a range backwards). */
int parse_cpu_list(const char *s, struct optspec_cpus *l);

/* Parses CPU lists separated by '/' ("0/1", "0,2-3/4"), at most OPTSPEC_CPU_ALTS_MAX of them,
 * none empty and none twice, into a.  Returns 0, or -1 (a list parse_cpu_list refuses, an
 * empty alternative, a repeated one, too many, or a whole text over 4095 bytes). */
int parse_cpu_alts(const char *s, struct optspec_cpu_alts *a);

/* Writes a's lists separated by '/' ("0/1"); "" for none.  Returns buf. */
const char *format_cpu_alts(const struct optspec_cpu_alts *a, char *buf, size_t len);

/* Writes l as a CPU list, ranges merged ("0,2-3"); "" for an empty one.  Returns buf. */
const char *format_cpu_list(const struct optspec_cpus *l, char *buf, size_t len);

/* Strict number parsers: the whole string must be a decimal integer within [min, max] (no
 * sign for the unsigned one, no leading blank).  Return 0, or -1 on anything else. */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/* The units a duration takes, for messages. */
#define OPTSPEC_TIME_UNITS "ns, us, ms, s, m, h or d"

/* Results of parse_duration besides 0. */
enum { DURATION_BAD = -1, DURATION_RANGE = -2, DURATION_INEXACT = -3 };

/* Parses a duration: a decimal number (digits, optionally a point and at most 9 more digits;
 * no sign, exponent, hex, blank, inf or nan) followed by a unit ns, us, ms, s, m (minutes),
 * h or d (days, 86400 s), or no unit meaning unit_ns nanoseconds each, into *v in units of
 * unit_ns, within [min, max] (in those units).  Returns 0; DURATION_BAD for anything else
 * (an unknown unit, a malformed number); DURATION_RANGE outside [min, max], an overflow of
 * 64 bits included; DURATION_INEXACT for a time that is not a whole number of units ("1.5"
 * for seconds, "1500ns" for microseconds: refused, never rounded). */
int parse_duration(const char *s, uint64_t unit_ns, uint64_t min, uint64_t max, uint64_t *v);

/* Parses a duration as parse_duration does with a bare number meaning bare_unit_ns
 * nanoseconds each, into *ns rounded to the nearest nanosecond, within [min_ns, max_ns].
 * Returns 0, or -1 on anything else. */
int parse_duration_ns(const char *s, uint64_t bare_unit_ns, uint64_t min_ns, uint64_t max_ns, uint64_t *ns);

/* A time in units of unit_ns as its largest exact unit ("24h", "500ms", "100us", "90s"). */
const char *format_duration(uint64_t v, uint64_t unit_ns, char *buf, size_t len);

/* Parses a size with an optional K, M, G or T suffix (powers of 1024, optional trailing
 * "iB"/"B"), at least 1 byte.  Returns 0, or -1. */
int parse_size(const char *s, uint64_t *bytes);

#endif
