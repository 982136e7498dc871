/* Machine probes for the loads' size policy (see probe.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include "loads/probe.h"

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
