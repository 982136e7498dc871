/* What the loads need to know about the machine: memory figures from /proc/meminfo and the
 * free space of a directory.  Both read the system at the time of the call. */
#ifndef IB_PROBE_H
#define IB_PROBE_H
#include <stddef.h>
#include <stdint.h>

struct mem_facts {
	uint64_t ram_bytes;           /* MemTotal */
	uint64_t mem_available_bytes; /* MemAvailable */
	uint64_t swap_total_bytes;    /* SwapTotal */
	uint64_t swap_free_bytes;     /* SwapFree */
};

/* Reads /proc/meminfo.  Returns 0, or -1 with err naming the call and the errno text (or the
 * missing field). */
int probe_memory(struct mem_facts *m, char *err, size_t errlen);

/* The bytes unprivileged users may still write in dir (statvfs f_bavail * f_frsize).
 * Returns 0, or -1 with err naming statvfs, the directory and the errno text. */
int probe_free_bytes(const char *dir, uint64_t *free_bytes, char *err, size_t errlen);

#endif
