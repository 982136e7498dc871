/* The memory cgroup's room for Memload (see memcg.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loadkit/memcg.h"

/* Parses a decimal figure followed only by white space; false for "max", garbage or NULL. */
static bool parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	while (*end == ' ' || *end == '\n' || *end == '\t')
		end++;
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* The figure of memory.stat's line "key value", or 0 without one. */
static uint64_t stat_value(const char *stat, const char *key)
{
	size_t kl = strlen(key);
	for (const char *l = stat; l && *l;) {
		const char *eol = strchr(l, '\n');
		unsigned long long v;
		if (strncmp(l, key, kl) == 0 && l[kl] == ' ' && sscanf(l + kl + 1, "%llu", &v) == 1)
			return v;
		l = eol ? eol + 1 : NULL;
	}
	return 0;
}

/* A limit from its file's text; false when there is none. */
static bool parse_limit(const char *text, uint64_t *bytes)
{
	return parse_bytes(text, bytes) && *bytes < MEMCG_UNLIMITED_BYTES;
}

uint64_t memcg_headroom_bytes(const struct memcg_room *r)
{
	return r->used_bytes < r->limit_bytes ? r->limit_bytes - r->used_bytes : 0;
}

bool memcg_level(int version, const char *limit_text, const char *high_text, const char *usage_text,
		 const char *stat_text, struct memcg_room *out)
{
	uint64_t max, high, usage = 0;
	bool has_max = parse_limit(limit_text, &max), has_high = version == 2 && parse_limit(high_text, &high);
	memset(out, 0, sizeof(*out));
	if (!has_max && !has_high)
		return false;
	bool use_high = has_high && (!has_max || high < max);
	out->limited = true;
	out->limit_bytes = use_high ? high : max;
	snprintf(out->file, sizeof(out->file), "%s",
		 use_high ? "memory.high" : version == 2 ? "memory.max" : "memory.limit_in_bytes");
	parse_bytes(usage_text, &usage);
	uint64_t inactive = stat_value(stat_text, version == 2 ? "inactive_file" : "total_inactive_file");
	out->used_bytes = usage > inactive ? usage - inactive : 0;
	return true;
}

void memcg_tighter(struct memcg_room *best, const struct memcg_room *cand)
{
	if (cand->limited && (!best->limited || memcg_headroom_bytes(cand) < memcg_headroom_bytes(best)))
		*best = *cand;
}

void memcg_where(const char *root, struct memcg_where *w)
{
	w->n = 0;
	if (cgroup_locate_self(root, "memory", &w->loc[w->n]) == 0)
		w->n++;
	if (cgroup_locate_self(root, NULL, &w->loc[w->n]) == 0)
		w->n++;
}

void memcg_where_v2(struct memcg_where *w, const struct cgroup_loc *v2)
{
	unsigned i = 0;
	while (i < w->n && w->loc[i].version != 2)
		i++;
	if (i < sizeof(w->loc) / sizeof(w->loc[0])) {
		w->loc[i] = *v2;
		w->n = i == w->n ? w->n + 1 : w->n;
	}
}

/* Reads the file name in dir; NULL when absent or unreadable. */
static char *read_in(const char *dir, const char *name)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return cgroup_read_text("", path);
}

/* Reads the cgroup at dir of a hierarchy of the given version into *level. */
static void read_level(int version, const char *dir, struct memcg_room *level)
{
	char *limit = read_in(dir, version == 2 ? "memory.max" : "memory.limit_in_bytes");
	char *high = version == 2 ? read_in(dir, "memory.high") : NULL;
	char *usage = read_in(dir, version == 2 ? "memory.current" : "memory.usage_in_bytes");
	char *stat = read_in(dir, "memory.stat");
	if (memcg_level(version, limit, high, usage, stat, level))
		snprintf(level->dir, sizeof(level->dir), "%s", dir);
	free(limit);
	free(high);
	free(usage);
	free(stat);
}

void memcg_read(const struct memcg_where *w, struct memcg_room *out)
{
	static const struct memcg_room none;
	*out = none;
	for (unsigned i = 0; i < w->n; i++) {
		struct cgroup_loc walk = w->loc[i];
		do {
			struct memcg_room level;
			read_level(walk.version, walk.dir, &level);
			memcg_tighter(out, &level);
		} while (cgroup_up(&walk));
	}
}
