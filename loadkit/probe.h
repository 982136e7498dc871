/* What the loads need to know about the machine: memory figures from /proc/meminfo and the
 * free space of a directory.  Both read the system at the time of the call. */
#ifndef IB_PROBE_H
#define IB_PROBE_H
#include <stdbool.h>
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

/* What holds a directory's files: its file system (statfs(2) f_type, named as in statfs(2)'s
 * list: "tmpfs", "ramfs", "overlay", else "") and whether its files live in memory, so no
 * block device is ever reached by writing or reading them: tmpfs and ramfs, and an overlay
 * whose upper directory (where new files go, /proc/self/mountinfo's upperdir=) is on either;
 * fs is then "tmpfs", "ramfs" or "overlay on tmpfs". */
struct probe_storage {
	char fs[48];
	bool in_memory;
};

/* The in-memory file system of statfs(2) type f_type ("tmpfs", "ramfs"), or NULL for any
 * other (those backed by a device, and overlay, whose upper directory decides).  Pure. */
const char *probe_memory_fs_name(unsigned long f_type);

/* The upperdir= of the overlay mount with device dev_major:dev_minor in the text of
 * /proc/self/mountinfo (proc(5): field 3 "major:minor", the file system type after " - ",
 * then the source and the super options), into upper.  Returns 0, or -1 when no such
 * overlay line has one.  Pure. */
int probe_overlay_upper(const char *mountinfo, unsigned dev_major, unsigned dev_minor, char *upper, size_t len);

/* Fills *out for dir (probe_storage).  Returns 0, or -1 with err naming statfs or stat, the
 * directory and the errno text. */
int probe_storage_of(const char *dir, struct probe_storage *out, char *err, size_t errlen);

#endif
