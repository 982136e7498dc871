/* Machine probes for the loads' size policy (see probe.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include "loadkit/probe.h"

int probe_memory(struct mem_facts *m, char *err, size_t errlen)
{
	static const char *const keys[4] = { "MemTotal:", "MemAvailable:", "SwapTotal:", "SwapFree:" };
	uint64_t *vals[4] = { &m->ram_bytes, &m->mem_available_bytes, &m->swap_total_bytes,
			      &m->swap_free_bytes };
	unsigned found = 0;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "re");
	if (!f) {
		snprintf(err, errlen, "fopen /proc/meminfo: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		for (unsigned i = 0; i < 4; i++) {
			unsigned long long kib;
			size_t kl = strlen(keys[i]);
			if (strncmp(line, keys[i], kl) == 0 && sscanf(line + kl, "%llu", &kib) == 1) {
				*vals[i] = (uint64_t)kib * 1024;
				found |= 1u << i;
			}
		}
	fclose(f);
	for (unsigned i = 0; i < 4; i++)
		if (!(found & (1u << i))) {
			snprintf(err, errlen, "/proc/meminfo: no %s line", keys[i]);
			return -1;
		}
	return 0;
}

int probe_free_bytes(const char *dir, uint64_t *free_bytes, char *err, size_t errlen)
{
	struct statvfs sv;
	if (statvfs(dir, &sv) != 0) {
		snprintf(err, errlen, "statvfs %s: %s", dir, strerror(errno));
		return -1;
	}
	*free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

const char *probe_memory_fs_name(unsigned long f_type)
{
	switch (f_type) { /* the magic numbers of <linux/magic.h>, listed in statfs(2) */
	case TMPFS_MAGIC: return "tmpfs";
	case RAMFS_MAGIC: return "ramfs";
	default: return NULL;
	}
}

/* The value of option key= in a comma-separated option list opts (its end at the first
 * space or newline), into buf.  Returns 0, or -1 when absent. */
static int option_value(const char *opts, const char *key, char *buf, size_t len)
{
	char list[8192], *save = NULL;
	size_t kl = strlen(key);
	snprintf(list, sizeof(list), "%.*s", (int)strcspn(opts, " \n"), opts);
	for (char *o = strtok_r(list, ",", &save); o; o = strtok_r(NULL, ",", &save))
		if (strncmp(o, key, kl) == 0 && o[kl] == '=') {
			snprintf(buf, len, "%s", o + kl + 1);
			return 0;
		}
	return -1;
}

int probe_overlay_upper(const char *mountinfo, unsigned dev_major, unsigned dev_minor, char *upper, size_t len)
{
	for (const char *line = mountinfo; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		unsigned maj, min;
		const char *sep = strstr(line, " - "), *eol = strchr(line, '\n');
		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) != 2 || maj != dev_major || min != dev_minor || !sep ||
		    (eol && sep > eol) || strncmp(sep + 3, "overlay ", 8) != 0)
			continue;
		const char *super = strchr(sep + 11, ' '); /* after the type and the source */
		if (super && option_value(super + 1, "upperdir", upper, len) == 0)
			return 0;
	}
	return -1;
}

/* The upper directory of the overlay holding st (a stat of a directory in it), into upper.
 * Returns 0, or -1 when /proc/self/mountinfo cannot be read or names none. */
static int overlay_upper_of(const struct stat *st, char *upper, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *text = NULL;
	size_t cap = 0;
	if (!f)
		return -1;
	ssize_t n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	int rc = n > 0 ? probe_overlay_upper(text, major(st->st_dev), minor(st->st_dev), upper, len) : -1;
	free(text);
	return rc;
}

int probe_storage_of(const char *dir, struct probe_storage *out, char *err, size_t errlen)
{
	struct statfs sf;
	struct stat st;
	char upper[4096];
	*out = (struct probe_storage){ .fs = "" };
	if (statfs(dir, &sf) != 0 || stat(dir, &st) != 0) {
		snprintf(err, errlen, "statfs %s: %s", dir, strerror(errno));
		return -1;
	}
	const char *mem = probe_memory_fs_name((unsigned long)sf.f_type);
	if (mem) {
		snprintf(out->fs, sizeof(out->fs), "%s", mem);
		out->in_memory = true;
	} else if ((unsigned long)sf.f_type == OVERLAYFS_SUPER_MAGIC) {
		snprintf(out->fs, sizeof(out->fs), "overlay");
		if (overlay_upper_of(&st, upper, sizeof(upper)) == 0 && statfs(upper, &sf) == 0 &&
		    (mem = probe_memory_fs_name((unsigned long)sf.f_type)) != NULL) {
			snprintf(out->fs, sizeof(out->fs), "overlay on %s", mem);
			out->in_memory = true;
		}
	}
	return 0;
}
