#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/optspec.h"
#include "lib/suggest.h"

#define HELP_COLUMN 27 /* where -h's help text starts */

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	if (!s || !(*s == '-' || (*s >= '0' && *s <= '9')))
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && (end[0] == 'i' || end[0] == 'I') && (end[1] == 'b' || end[1] == 'B'))
		end += 2;
	else if (end[0] == 'b' || end[0] == 'B')
		end++;
	if (*end || v == 0 || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*bytes = (uint64_t)v << shift;
	return 0;
}

/* Reads the decimal digits at *p (at most max_digits) into *v, *p moved past them.  Returns
 * the number of digits, or -1 when there are more than max_digits. */
static int read_digits(const char **p, int max_digits, uint64_t *v)
{
	int n = 0;
	*v = 0;
	for (; **p >= '0' && **p <= '9'; (*p)++, n++) {
		if (n == max_digits)
			return -1;
		*v = *v * 10 + (uint64_t)(**p - '0');
	}
	return n;
}

/* The units a duration takes: name and nanoseconds, smallest first. */
static const struct { const char *name; uint64_t ns; } time_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	{ "m", 60000000000ull }, { "h", 3600000000000ull }, { "d", 86400000000000ull } };
#define TIME_UNITS (sizeof(time_units) / sizeof(time_units[0]))

/* The nanoseconds in one of unit (a name of time_units, "" for bare_unit_ns), or 0. */
static uint64_t duration_unit_ns(const char *unit, uint64_t bare_unit_ns)
{
	if (!*unit)
		return bare_unit_ns;
	for (size_t i = 0; i < TIME_UNITS; i++)
		if (strcmp(unit, time_units[i].name) == 0)
			return time_units[i].ns;
	return 0;
}

/* The time s says, in units of unit_ns (bare numbers meaning bare_unit_ns nanoseconds):
 * *q the whole units, *inexact whether a remainder was left (rounded to the nearest unit when
 * round).  Exact in 128 bits: at most 18 digits before the point and 9 after.  Returns 0,
 * DURATION_BAD or DURATION_RANGE (more than 64 bits of units). */
static int duration_units(const char *s, uint64_t bare_unit_ns, uint64_t unit_ns, bool round, uint64_t *q,
			  bool *inexact)
{
	uint64_t whole, frac = 0, scale = 1;
	const char *p = s;
	if (!s || read_digits(&p, 18, &whole) < 1)
		return DURATION_BAD;
	if (*p == '.') {
		p++;
		int k = read_digits(&p, 9, &frac);
		if (k < 1)
			return DURATION_BAD;
		while (k-- > 0)
			scale *= 10;
	}
	uint64_t unit = duration_unit_ns(p, bare_unit_ns);
	if (!unit)
		return DURATION_BAD;
	unsigned __int128 whole_ns = (unsigned __int128)whole * unit;   /* < 1e18 * 8.64e13 */
	if (whole_ns / unit_ns > UINT64_MAX)
		return DURATION_RANGE;
	/* whole_ns < 2^64 * unit_ns <= 1.9e28, times scale <= 1e9: within 128 bits */
	unsigned __int128 total = whole_ns * scale + (unsigned __int128)frac * unit, div = (unsigned __int128)scale * unit_ns;
	unsigned __int128 v = (total + (round ? div / 2 : 0)) / div;
	if (v > UINT64_MAX)
		return DURATION_RANGE;
	*inexact = total % div != 0;
	*q = (uint64_t)v;
	return 0;
}

int parse_duration(const char *s, uint64_t unit_ns, uint64_t min, uint64_t max, uint64_t *v)
{
	bool inexact;
	uint64_t q;
	int rc = duration_units(s, unit_ns, unit_ns, false, &q, &inexact);
	if (rc == 0 && inexact)
		rc = DURATION_INEXACT;
	if (rc == 0 && (q < min || q > max))
		rc = DURATION_RANGE;
	if (rc == 0)
		*v = q;
	return rc;
}

int parse_duration_ns(const char *s, uint64_t bare_unit_ns, uint64_t min_ns, uint64_t max_ns, uint64_t *ns)
{
	bool inexact;
	uint64_t q;
	if (duration_units(s, bare_unit_ns, 1, true, &q, &inexact) != 0 || q < min_ns || q > max_ns)
		return -1;
	*ns = q;
	return 0;
}

const char *format_duration(uint64_t v, uint64_t unit_ns, char *buf, size_t len)
{
	unsigned __int128 ns = (unsigned __int128)v * unit_ns;
	size_t k = 0;
	for (size_t i = 0; i < TIME_UNITS; i++)
		if (ns % time_units[i].ns == 0)
			k = i;
	for (size_t i = 0; ns == 0 && i < TIME_UNITS; i++)
		if (time_units[i].ns == unit_ns)
			k = i;   /* zero in the option's own unit */
	snprintf(buf, len, "%" PRIu64 "%s", (uint64_t)(ns / time_units[k].ns), time_units[k].name);
	return buf;
}

/* The name of the unit of unit_ns nanoseconds in words ("seconds"), for messages. */
static const char *time_unit_words(uint64_t unit_ns)
{
	switch (unit_ns) {
	case 1: return "nanoseconds";
	case 1000: return "microseconds";
	case 1000000: return "milliseconds";
	case 1000000000: return "seconds";
	default: return "units";
	}
}

/* A size as the largest K/M/G/T multiple that is exact ("64M", "1048576T", "1000"). */
static void size_text(uint64_t bytes, char *buf, size_t len)
{
	static const char sfx[] = "KMGT";
	int k = -1;
	while (k < 3 && bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		k++;
	}
	snprintf(buf, len, "%" PRIu64 "%.*s", bytes, k >= 0 ? 1 : 0, k >= 0 ? &sfx[k] : "");
}

static void *at(void *base, const struct optspec *s) { return (char *)base + s->offset; }
static const void *cat(const void *base, const struct optspec *s) { return (const char *)base + s->offset; }

/* Stores v (already range-checked) at s's offset as s's number type. */
static void store_number(const struct optspec *s, void *base, int64_t v)
{
	switch (s->type) {
	case OPTSPEC_FLAG: *(bool *)at(base, s) = v != 0; break;
	case OPTSPEC_UINT: case OPTSPEC_CHOICE: *(unsigned *)at(base, s) = (unsigned)v; break;
	case OPTSPEC_INT: *(int *)at(base, s) = (int)v; break;
	case OPTSPEC_I64: *(int64_t *)at(base, s) = v; break;
	case OPTSPEC_U64: case OPTSPEC_SIZE: *(uint64_t *)at(base, s) = (uint64_t)v; break;
	default: break;
	}
}

/* The number in base at s's offset; 0 for the non-number types. */
static int64_t load_number(const struct optspec *s, const void *base)
{
	switch (s->type) {
	case OPTSPEC_FLAG: return *(const bool *)cat(base, s);
	case OPTSPEC_UINT: case OPTSPEC_CHOICE: return *(const unsigned *)cat(base, s);
	case OPTSPEC_INT: return *(const int *)cat(base, s);
	case OPTSPEC_I64: return *(const int64_t *)cat(base, s);
	case OPTSPEC_U64: case OPTSPEC_SIZE: return (int64_t)*(const uint64_t *)cat(base, s);
	case OPTSPEC_MASK: return *(const uint32_t *)cat(base, s);
	default: return 0;
	}
}

void optspec_defaults(const struct optspec *specs, size_t n, void *base)
{
	for (size_t i = 0; i < n; i++) {
		const struct optspec *s = &specs[i];
		if (s->type == OPTSPEC_TEXT || s->type == OPTSPEC_STRING)
			*(const char **)at(base, s) = s->def_str;
		else if (s->type == OPTSPEC_MASK)
			*(uint32_t *)at(base, s) = 0;
		else if (s->type == OPTSPEC_INTS)
			*(struct optspec_ints *)at(base, s) = (struct optspec_ints){ .n = 1, .v = { (int)s->def } };
		else if (s->type == OPTSPEC_CPUS)
			memset(at(base, s), 0, sizeof(struct optspec_cpus));
		else if (s->type == OPTSPEC_CPU_ALTS)
			memset(at(base, s), 0, sizeof(struct optspec_cpu_alts));
		else if (s->type == OPTSPEC_TEXTS)
			memset(at(base, s), 0, sizeof(struct optspec_texts));
		else if (s->type != OPTSPEC_CUSTOM)
			store_number(s, base, s->def);
	}
}

int parse_cpu_list(const char *s, struct optspec_cpus *l)
{
	memset(l, 0, sizeof(*l));
	if (!s || !*s)
		return -1;
	for (const char *p = s;;) {
		uint64_t lo, hi;
		char *end;
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		lo = hi = strtoull(p, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -1;
			hi = strtoull(end + 1, &end, 10);
		}
		if (errno || hi < lo || hi >= OPTSPEC_MAX_CPUS)
			return -1;
		for (uint64_t c = lo; c <= hi; c++)
			l->bits[c / 64] |= 1ull << (c % 64);
		if (*end == '\0') {
			l->given = true;
			return 0;
		}
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

const char *format_cpu_list(const struct optspec_cpus *l, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned c = 0; c < OPTSPEC_MAX_CPUS && used < len; c++) {
		if (!optspec_cpu_isset(l, c))
			continue;
		unsigned end = c;
		while (optspec_cpu_isset(l, end + 1))
			end++;
		int w = end > c ? snprintf(buf + used, len - used, "%s%u-%u", used ? "," : "", c, end) :
				  snprintf(buf + used, len - used, "%s%u", used ? "," : "", c);
		used += w > 0 ? (size_t)w : 0;
		c = end;
	}
	return buf;
}

int parse_cpu_alts(const char *s, struct optspec_cpu_alts *a)
{
	char list[4096];
	memset(a, 0, sizeof(*a));
	if (!s || strlen(s) >= sizeof(list))
		return -1;
	for (const char *p = s;; a->n++) {
		size_t len = strcspn(p, "/");
		if (a->n == OPTSPEC_CPU_ALTS_MAX)
			return -1;
		memcpy(list, p, len);
		list[len] = '\0';
		if (parse_cpu_list(list, &a->v[a->n]) != 0)
			return -1;
		for (unsigned i = 0; i < a->n; i++)
			if (!memcmp(a->v[i].bits, a->v[a->n].bits, sizeof(a->v[i].bits)))
				return -1;
		if (!p[len]) {
			a->n++;
			return 0;
		}
		p += len + 1;
	}
}

const char *format_cpu_alts(const struct optspec_cpu_alts *a, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < a->n && used + 1 < len; i++) {
		if (i)
			buf[used++] = '/';
		format_cpu_list(&a->v[i], buf + used, len - used);
		used += strlen(buf + used);
	}
	buf[used < len ? used : len - 1] = '\0';
	return buf;
}

/* Adds v to list l unless it is there; -1 when full or a duplicate. */
static int ints_add(struct optspec_ints *l, int v)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return -1;
	if (l->n == OPTSPEC_LIST_MAX)
		return -1;
	l->v[l->n++] = v;
	return 0;
}

/* One number of an OPTSPEC_INTS list in [min, max]: an integer, or a time for a duration
 * option (whose min is not negative).  Returns 0, or -1. */
static int ints_number(const struct optspec *s, const char *text, int64_t min, int64_t max, int64_t *v)
{
	uint64_t u;
	if (!s->time_unit_ns)
		return parse_i64(text, min, max, v);
	if (min < 0 || parse_duration(text, s->time_unit_ns, (uint64_t)min, (uint64_t)max, &u) != 0)
		return -1;
	*v = (int64_t)u;
	return 0;
}

/* One item of an OPTSPEC_INTS list: N, or A:B[:STEP]. */
static int ints_item(const struct optspec *s, char *item, struct optspec_ints *l)
{
	char *f[3] = { item, NULL, NULL };
	int64_t a, b, step = 1;
	for (int k = 1; k < 3 && (f[k] = strchr(f[k - 1], ':')); k++)
		*f[k]++ = '\0';
	if (strchr(f[2] ? f[2] : "", ':') || ints_number(s, f[0], s->min, s->max, &a) != 0)
		return -1;
	b = a;
	if (f[1] && ints_number(s, f[1], s->min, s->max, &b) != 0)
		return -1;
	if (f[2] && ints_number(s, f[2], 1, s->max - s->min > 0 ? s->max - s->min : 1, &step) != 0)
		return -1;
	for (int64_t v = a;; v += a <= b ? step : -step) {
		if ((a <= b && v >= b) || (a > b && v <= b)) {
			return ints_add(l, (int)b);   /* the end is always in */
		}
		if (ints_add(l, (int)v) != 0)
			return -1;
	}
}

static int set_ints(const struct optspec *s, void *base, const char *arg)
{
	char buf[512];
	struct optspec_ints l = { .n = 0 };
	if (!*arg || strlen(arg) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *save = NULL, *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save))
		if (ints_item(s, item, &l) != 0)
			return -1;
	if (l.n == 0 || arg[strlen(arg) - 1] == ',' || arg[0] == ',' || strstr(arg, ",,"))
		return -1;
	*(struct optspec_ints *)at(base, s) = l;
	return 0;
}

/* Index of name among s's MASK candidates, or -1. */
static int mask_find(const struct optspec *s, const char *name)
{
	const char *cand;
	for (unsigned i = 0; i < 32 && (cand = s->name_at(i)); i++)
		if (*cand && strcasecmp(cand, name) == 0)
			return (int)i;
	return -1;
}

/* A MASK value: one name, or several separated by commas ("other,fifo"); all or nothing. */
static int set_mask(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	char buf[512];
	uint32_t bits = 0;
	if (!*arg || strlen(arg) >= sizeof(buf) || arg[0] == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,")) {
		snprintf(what, whatlen, "unknown %s", s->noun ? s->noun : "name");
		return OPTSPEC_BAD;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *save = NULL, *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int i = mask_find(s, name);
		if (i < 0) {
			snprintf(what, whatlen, "unknown %s", s->noun ? s->noun : "name");
			return OPTSPEC_BAD;
		}
		bits |= 1u << i;
	}
	*(uint32_t *)at(base, s) |= bits;
	return OPTSPEC_SET;
}

/* A duration option's value (struct optspec.time_unit_ns) into base.  Returns OPTSPEC_SET, or
 * OPTSPEC_BAD with what set. */
static int set_time(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	uint64_t u = 0;
	int rc = parse_duration(arg, s->time_unit_ns, s->min > 0 ? (uint64_t)s->min : 0, (uint64_t)s->max, &u);
	if (rc == DURATION_INEXACT)
		snprintf(what, whatlen, "not a whole number of %s", time_unit_words(s->time_unit_ns));
	else if (rc == DURATION_RANGE)
		snprintf(what, whatlen, "time out of range");
	else if (rc != 0)
		snprintf(what, whatlen, "invalid time");
	if (rc != 0)
		return OPTSPEC_BAD;
	store_number(s, base, (int64_t)u);
	return OPTSPEC_SET;
}

static int set_number(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	int64_t v = 0;
	uint64_t u = 0;
	int rc;
	if (s->time_unit_ns)
		return set_time(s, base, arg, what, whatlen);
	if (s->type == OPTSPEC_SIZE)
		rc = parse_size(arg, &u) || u < (uint64_t)s->min || u > (uint64_t)s->max ? -1 : 0;
	else if (s->type == OPTSPEC_INT || s->type == OPTSPEC_I64)
		rc = parse_i64(arg, s->min, s->max, &v);
	else
		rc = parse_u64(arg, (uint64_t)s->min, (uint64_t)s->max, &u);
	if (rc != 0) {
		snprintf(what, whatlen, s->type == OPTSPEC_SIZE ? "invalid size" : "invalid value");
		return OPTSPEC_BAD;
	}
	store_number(s, base, s->type == OPTSPEC_INT || s->type == OPTSPEC_I64 ? v : (int64_t)u);
	return OPTSPEC_SET;
}

/* A CHOICE value: one of s->choices, exactly. */
static int set_choice(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	for (unsigned i = 0; s->choices[i]; i++)
		if (strcmp(s->choices[i], arg) == 0) {
			store_number(s, base, i);
			return OPTSPEC_SET;
		}
	snprintf(what, whatlen, "invalid value");
	return OPTSPEC_BAD;
}

/* Appends arg to s's OPTSPEC_TEXTS list.  Returns OPTSPEC_SET, or OPTSPEC_BAD with what set. */
static int add_text(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	struct optspec_texts *l = at(base, s);
	for (unsigned i = 0; i < l->n; i++)
		if (strcmp(l->v[i], arg) == 0) {
			snprintf(what, whatlen, "%s given twice", s->noun ? s->noun : "value");
			return OPTSPEC_BAD;
		}
	if (!*arg || l->n == OPTSPEC_TEXTS_MAX) {
		snprintf(what, whatlen, *arg ? "one %s too many" : "empty %s", s->noun ? s->noun : "value");
		return OPTSPEC_BAD;
	}
	l->v[l->n++] = arg;
	return OPTSPEC_SET;
}

int optspec_set(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	switch (s->type) {
	case OPTSPEC_CHOICE:
		return set_choice(s, base, arg, what, whatlen);
	case OPTSPEC_CUSTOM:
		return s->set(s, base, arg, what, whatlen) == OPTSPEC_SET ? OPTSPEC_SET : OPTSPEC_BAD;
	case OPTSPEC_ACTION:
		return s->action;
	case OPTSPEC_FLAG:
		store_number(s, base, 1);
		return OPTSPEC_SET;
	case OPTSPEC_TEXT:
		*(const char **)at(base, s) = arg;
		return OPTSPEC_SET;
	case OPTSPEC_TEXTS:
		return add_text(s, base, arg, what, whatlen);
	case OPTSPEC_STRING: {
		const char **v = at(base, s);
		if (!*arg) {
			snprintf(what, whatlen, "empty %s", s->noun ? s->noun : "value");
			return OPTSPEC_BAD;
		}
		if (s->once && *v && strcmp(*v, arg) != 0) {
			snprintf(what, whatlen, "second %s after '%s'", s->noun ? s->noun : "value", *v);
			return OPTSPEC_BAD;
		}
		*v = arg;
		return OPTSPEC_SET;
	}
	case OPTSPEC_INTS:
		if (set_ints(s, base, arg) != 0) {
			snprintf(what, whatlen, "invalid list");
			return OPTSPEC_BAD;
		}
		return OPTSPEC_SET;
	case OPTSPEC_CPUS: {
		if (parse_cpu_list(arg, at(base, s)) != 0) {
			snprintf(what, whatlen, "invalid CPU list");
			return OPTSPEC_BAD;
		}
		return OPTSPEC_SET;
	}
	case OPTSPEC_CPU_ALTS:
		if (parse_cpu_alts(arg, at(base, s)) != 0) {
			snprintf(what, whatlen, "invalid CPU list or alternatives");
			return OPTSPEC_BAD;
		}
		return OPTSPEC_SET;
	case OPTSPEC_MASK:
		return set_mask(s, base, arg, what, whatlen);
	default:
		return set_number(s, base, arg, what, whatlen);
	}
}

const char *optspec_display(const struct optspec *s, char *buf, size_t len)
{
	if (s->short_name && !s->hide_short)
		snprintf(buf, len, "-%c", s->short_name);
	else
		snprintf(buf, len, "--%s", s->long_name);
	return buf;
}

/* The MASK's candidate names (those of set bits only when only_set) joined with sep. */
static void mask_names(const struct optspec *s, uint32_t bits, bool only_set, const char *sep, char *buf, size_t len)
{
	size_t used = 0;
	const char *cand;
	buf[0] = '\0';
	for (unsigned i = 0; i < 32 && (cand = s->name_at(i)) && used < len; i++) {
		if (!*cand || (only_set && !(bits & (1u << i))))
			continue;
		int w = snprintf(buf + used, len - used, "%s%s", used ? sep : "", cand);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* The CHOICE's values joined with ", ". */
static void join_choices(const struct optspec *s, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; s->choices[i] && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", s->choices[i]);
		used += w > 0 ? (size_t)w : 0;
	}
}

/* What a duration option accepts: "a time from 1s to 24h in whole seconds, with a unit ns,
 * us, ms, s, m, h or d (no unit: seconds)".  Returns buf. */
static const char *time_accepted(const struct optspec *s, char *buf, size_t len)
{
	char lo[32], hi[32];
	const char *words = time_unit_words(s->time_unit_ns);
	format_duration(s->min > 0 ? (uint64_t)s->min : 0, s->time_unit_ns, lo, sizeof(lo));
	format_duration((uint64_t)s->max, s->time_unit_ns, hi, sizeof(hi));
	snprintf(buf, len, "a time from %s to %s in whole %s, with a unit %s (no unit: %s)", lo, hi, words,
		 OPTSPEC_TIME_UNITS, words);
	return buf;
}

const char *optspec_accepted(const struct optspec *s, char *buf, size_t len)
{
	char lo[32], hi[32];
	switch (s->type) {
	case OPTSPEC_SIZE:
		size_text((uint64_t)s->min, lo, sizeof(lo));
		size_text((uint64_t)s->max, hi, sizeof(hi));
		snprintf(buf, len, "%s to %s, with an optional K, M, G or T suffix", lo, hi);
		break;
	case OPTSPEC_UINT: case OPTSPEC_U64: case OPTSPEC_INT: case OPTSPEC_I64:
		if (s->time_unit_ns) {
			time_accepted(s, buf, len);
			break;
		}
		snprintf(buf, len, "%s from %" PRId64 " to %" PRId64, s->unit ? s->unit : "an integer", s->min, s->max);
		break;
	case OPTSPEC_MASK:
		mask_names(s, 0, false, ", ", buf, len);
		break;
	case OPTSPEC_INTS:
		if (s->time_unit_ns) {
			size_t used = strlen(time_accepted(s, buf, len));
			snprintf(buf + used, len - used, "; comma-separated, and ranges A:B or A:B:STEP (B included), "
				 "no value twice");
			break;
		}
		snprintf(buf, len, "integers from %" PRId64 " to %" PRId64 ", comma-separated, and ranges A:B or "
			 "A:B:STEP (B included), no value twice", s->min, s->max);
		break;
	case OPTSPEC_CPUS:
		snprintf(buf, len, "a CPU list such as 0,2-3");
		break;
	case OPTSPEC_TEXTS:
		snprintf(buf, len, "up to %d different %ss, one a use", OPTSPEC_TEXTS_MAX, s->noun ? s->noun : "value");
		break;
	case OPTSPEC_CPU_ALTS:
		snprintf(buf, len, "a CPU list such as 0,2-3, or up to %d different ones separated by '/' (0/1), "
			 "alternatives the run compares", OPTSPEC_CPU_ALTS_MAX);
		break;
	case OPTSPEC_CHOICE:
		if (!s->accepted) {
			join_choices(s, buf, len);
			break;
		}
		/* fall through */
	default:
		snprintf(buf, len, "%s", s->accepted ? s->accepted : "see -h");
		break;
	}
	return buf;
}

/* The first comma-separated name of value that is none of s's MASK candidates, into name. */
static bool first_unknown_name(const struct optspec *s, const char *value, char *name, size_t len)
{
	for (const char *p = value; *p; p += *p == ',') {
		size_t n = strcspn(p, ",");
		snprintf(name, len, "%.*s", (int)n, p);
		p += n;
		if (mask_find(s, name) < 0)
			return true;
	}
	return false;
}

const char *optspec_suggest(const struct optspec *s, const char *value, char *buf, size_t len)
{
	char name[SUGGEST_MAX_LEN + 1];
	struct suggest sg;
	buf[0] = '\0';
	if (!value || (s->type != OPTSPEC_MASK && s->type != OPTSPEC_CHOICE))
		return NULL;
	if (s->type == OPTSPEC_MASK) {
		if (!first_unknown_name(s, value, name, sizeof(name)))
			return NULL;
		suggest_begin(&sg, name, true);
		for (unsigned i = 0; i < 32 && s->name_at(i); i++)
			suggest_offer(&sg, s->name_at(i));
	} else {
		suggest_begin(&sg, value, false);
		for (unsigned i = 0; s->choices[i]; i++)
			suggest_offer(&sg, s->choices[i]);
	}
	if (!sg.best)
		return NULL;
	snprintf(buf, len, "%s", sg.best);
	return buf;
}

bool optspec_is_default(const struct optspec *s, const void *base)
{
	if (s->type == OPTSPEC_TEXT || s->type == OPTSPEC_STRING) {
		const char *v = *(const char *const *)cat(base, s);
		return v == s->def_str || (v && s->def_str && strcmp(v, s->def_str) == 0);
	}
	if (s->type == OPTSPEC_MASK)
		return load_number(s, base) == 0;
	if (s->type == OPTSPEC_INTS) {
		const struct optspec_ints *l = cat(base, s);
		return l->n == 1 && l->v[0] == s->def;
	}
	if (s->type == OPTSPEC_CPUS)
		return !((const struct optspec_cpus *)cat(base, s))->given;
	if (s->type == OPTSPEC_CPU_ALTS)
		return !((const struct optspec_cpu_alts *)cat(base, s))->n;
	if (s->type == OPTSPEC_TEXTS)
		return !((const struct optspec_texts *)cat(base, s))->n;
	return s->type == OPTSPEC_ACTION || s->type == OPTSPEC_CUSTOM || load_number(s, base) == s->def;
}

/* Appends fmt's text to buf (len bytes) at *used, truncated at its end. */
static void appendf(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	if (*used >= len)
		return;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	*used += w > 0 ? (size_t)w : 0;
}

const char *optspec_format(const struct optspec *s, const void *base, char *buf, size_t len)
{
	int64_t v = load_number(s, base);
	switch (s->type) {
	case OPTSPEC_TEXT: case OPTSPEC_STRING: {
		const char *str = *(const char *const *)cat(base, s);
		snprintf(buf, len, "%s", str ? str : "");
		break;
	}
	case OPTSPEC_SIZE: size_text((uint64_t)v, buf, len); break;
	case OPTSPEC_MASK: mask_names(s, (uint32_t)v, true, ",", buf, len); break;
	case OPTSPEC_INTS: {
		const struct optspec_ints *l = cat(base, s);
		size_t used = 0;
		buf[0] = '\0';
		for (unsigned i = 0; i < l->n; i++)
			appendf(buf, len, &used, "%s%d", i ? "," : "", l->v[i]);
		break;
	}
	case OPTSPEC_CPUS: {
		const struct optspec_cpus *c = cat(base, s);
		if (c->given)
			format_cpu_list(c, buf, len);
		else
			buf[0] = '\0';
		break;
	}
	case OPTSPEC_CPU_ALTS: format_cpu_alts(cat(base, s), buf, len); break;
	case OPTSPEC_TEXTS: {
		const struct optspec_texts *l = cat(base, s);
		size_t used = 0;
		buf[0] = '\0';
		for (unsigned i = 0; i < l->n; i++)
			appendf(buf, len, &used, "%s%s", i ? " / " : "", l->v[i]);
		break;
	}
	case OPTSPEC_FLAG: snprintf(buf, len, "%s", v ? "yes" : "no"); break;
	case OPTSPEC_ACTION: case OPTSPEC_CUSTOM: buf[0] = '\0'; break;
	case OPTSPEC_CHOICE: snprintf(buf, len, "%s", s->choices[v]); break;
	case OPTSPEC_U64: snprintf(buf, len, "%" PRIu64, (uint64_t)v); break;
	default: snprintf(buf, len, "%" PRId64, v); break;
	}
	return buf;
}

int64_t optspec_number(const struct optspec *s, const void *base)
{
	return load_number(s, base);
}

const char *optspec_text(const struct optspec *s, const void *base)
{
	if (s->type != OPTSPEC_TEXT && s->type != OPTSPEC_STRING)
		return NULL;
	return *(const char *const *)cat(base, s);
}

const struct optspec_style optspec_main_style = { .column = HELP_COLUMN, .long_indent = "      " };

/* s's head in -h: "  -t, --time S", "      --workdir DIR". */
static int help_head(const struct optspec *s, const struct optspec_style *st, char *head, size_t len)
{
	int n;
	if (s->short_name && !s->hide_short)
		n = snprintf(head, len, "  -%c, --%s", s->short_name, s->long_name);
	else
		n = snprintf(head, len, "%s--%s", st->long_indent, s->long_name);
	if (s->metavar && n >= 0 && (size_t)n < len)
		n += snprintf(head + n, len - (size_t)n, " %s", s->metavar);
	return n;
}

void optspec_wrap(FILE *f, const char *text, int first_col, int indent, int width)
{
	int col = first_col, start = first_col;   /* start: where the line's text began */
	for (const char *p = text; *p;) {
		if (*p == '\n' || *p == ' ') {
			if (*p++ == '\n') {
				fprintf(f, "\n%*s", indent, "");
				col = start = indent;
			}
			continue;
		}
		int w = (int)strcspn(p, " \n");
		if (col > start && col + 1 + w > width) {
			fprintf(f, "\n%*s", indent, "");
			col = start = indent;
		}
		fprintf(f, "%s%.*s", col > start ? " " : "", w, p);
		col += (col > start ? 1 : 0) + w;
		p += w;
	}
	fputc('\n', f);
}

void optspec_help_brief(FILE *f, const struct optspec *s, const struct optspec_style *st, bool brief)
{
	char head[80], text[2048];
	if (s->hidden)
		return;
	int n = help_head(s, st, head, sizeof(head));
	const char *help = s->help ? s->help : "";
	snprintf(text, sizeof(text), "%.*s", brief ? (int)strcspn(help, "\n") : (int)strlen(help), help);
	size_t end = strlen(text);
	if (brief && end && strchr(":;,", text[end - 1]))
		text[end - 1] = '\0';   /* the summary's joint to the rest */
	for (char *nl = text; (nl = strchr(nl, '\n'));)
		*nl = ' ';   /* in full, the help is one paragraph: its '\n's (the summary's end) wrap as blanks */
	if (n < st->column)
		fprintf(f, "%-*s ", st->column - 1, head);
	else
		fprintf(f, "%s\n%*s", head, st->column, "");
	optspec_wrap(f, text, st->column, st->column, OPTSPEC_HELP_WIDTH);
}

void optspec_help_styled(FILE *f, const struct optspec *s, const struct optspec_style *st)
{
	optspec_help_brief(f, s, st, false);
}

const char *optspec_section_title(unsigned sec)
{
	static const char *const titles[OPTSPEC_SECTION_COUNT] = {
		[OPTSPEC_SECTION_RUN] = "What to run",
		[OPTSPEC_SECTION_TIME] = "How long",
		[OPTSPEC_SECTION_OUTPUT] = "Output",
		[OPTSPEC_SECTION_SCHED] = "Scheduling",
		[OPTSPEC_SECTION_PLACEMENT] = "Placement",
		[OPTSPEC_SECTION_EXPLAIN] = "Why periods were late",
		[OPTSPEC_SECTION_WORKLOAD] = "Options of the simulated tasks and loads",
		[OPTSPEC_SECTION_EXPERT] = "Expert",
		[OPTSPEC_SECTION_INFO] = "Information",
	};
	return sec < OPTSPEC_SECTION_COUNT ? titles[sec] : NULL;
}

void optspec_help_table(FILE *f, const struct optspec *specs, unsigned n, const struct optspec_style *st)
{
	for (unsigned i = 0; i < n; i++)
		optspec_help_styled(f, &specs[i], st);
}

void optspec_help(FILE *f, const struct optspec *s)
{
	optspec_help_styled(f, s, &optspec_main_style);
}

void optspec_complete_names(FILE *f, const struct optspec *s)
{
	if (s->hidden)
		return;
	fprintf(f, " --%s", s->long_name);
	if (s->short_name && !s->hide_short)
		fprintf(f, " -%c", s->short_name);
}

unsigned optspec_complete_values(FILE *f, const struct optspec *s)
{
	unsigned n = 0;
	if (s->type == OPTSPEC_CHOICE)
		for (; s->choices[n]; n++)
			fprintf(f, " %s", s->choices[n]);
	if (s->type == OPTSPEC_MASK)
		for (unsigned i = 0; s->name_at(i); i++)
			if (*s->name_at(i) && ++n)
				fprintf(f, " %s", s->name_at(i));
	return n;
}
