#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/optspec.h"

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
	case OPTSPEC_UINT: *(unsigned *)at(base, s) = (unsigned)v; break;
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
	case OPTSPEC_UINT: return *(const unsigned *)cat(base, s);
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
		else
			store_number(s, base, s->def);
	}
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

static int set_number(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	int64_t v = 0;
	uint64_t u = 0;
	int rc;
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

int optspec_set(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	switch (s->type) {
	case OPTSPEC_ACTION:
		return s->action;
	case OPTSPEC_FLAG:
		store_number(s, base, 1);
		return OPTSPEC_SET;
	case OPTSPEC_TEXT:
		*(const char **)at(base, s) = arg;
		return OPTSPEC_SET;
	case OPTSPEC_STRING:
		if (!*arg) {
			snprintf(what, whatlen, "empty %s", s->noun ? s->noun : "value");
			return OPTSPEC_BAD;
		}
		*(const char **)at(base, s) = arg;
		return OPTSPEC_SET;
	case OPTSPEC_MASK: {
		int i = mask_find(s, arg);
		if (i < 0) {
			snprintf(what, whatlen, "unknown %s", s->noun ? s->noun : "name");
			return OPTSPEC_BAD;
		}
		*(uint32_t *)at(base, s) |= 1u << i;
		return OPTSPEC_SET;
	}
	default:
		return set_number(s, base, arg, what, whatlen);
	}
}

const char *optspec_display(const struct optspec *s, char *buf, size_t len)
{
	if (s->short_name)
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
		snprintf(buf, len, "%s from %" PRId64 " to %" PRId64, s->unit ? s->unit : "an integer", s->min, s->max);
		break;
	case OPTSPEC_MASK:
		mask_names(s, 0, false, ", ", buf, len);
		break;
	default:
		snprintf(buf, len, "%s", s->accepted ? s->accepted : "see -h");
		break;
	}
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
	return s->type == OPTSPEC_ACTION || load_number(s, base) == s->def;
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
	case OPTSPEC_FLAG: snprintf(buf, len, "%s", v ? "yes" : "no"); break;
	case OPTSPEC_ACTION: buf[0] = '\0'; break;
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

void optspec_help(FILE *f, const struct optspec *s)
{
	char head[80];
	int n;
	if (s->short_name)
		n = snprintf(head, sizeof(head), "  -%c, --%s", s->short_name, s->long_name);
	else
		n = snprintf(head, sizeof(head), "      --%s", s->long_name);
	if (s->metavar && n >= 0 && (size_t)n < sizeof(head))
		snprintf(head + n, sizeof(head) - (size_t)n, " %s", s->metavar);
	const char *h = s->help ? s->help : "";
	const char *nl = strchr(h, '\n');
	fprintf(f, "%-*s %.*s\n", HELP_COLUMN - 1, head, nl ? (int)(nl - h) : (int)strlen(h), h);
	while (nl) {
		h = nl + 1;
		nl = strchr(h, '\n');
		fprintf(f, "%*s%.*s\n", HELP_COLUMN, "", nl ? (int)(nl - h) : (int)strlen(h), h);
	}
}
