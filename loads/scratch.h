/* The run's scratch file registry: every file a load leaves in the work directory is named
 * and registered here, in main, before any load process starts.  Main owns the one set of the
 * run (loads reach it through load_config.scratch); each load's cleanup hook removes its own
 * entries, and a second signal, which exits at once, unlinks every registered path from the
 * handler.  Names are <workdir>/interbench-<tag>-<pid>.tmp, pid being main's. */
#ifndef IB_SCRATCH_H
#define IB_SCRATCH_H
#include <limits.h>
#include <stddef.h>

#define SCRATCH_PREFIX "interbench-"
#define SCRATCH_SUFFIX ".tmp"
#define SCRATCH_MAX 8   /* files per run: Write, Read and Compile's two use 4 */

struct scratch_set {
	char paths[SCRATCH_MAX][PATH_MAX];
	unsigned n;     /* entries 0..n-1 are complete; raised only after a path is written, so a
	                   signal handler never sees half a name */
};

/* Registers the scratch file for tag (lowercase, e.g. "write") in dir for this process and
 * returns its index in the set; registering a tag again returns the same index.  First
 * removes stale files of the same tag: those of processes that no longer exist, and this
 * process's own.  Returns -1 with err set (opendir failed naming errno, name too long, set
 * full). */
int scratch_add(struct scratch_set *s, const char *dir, const char *tag, char *err, size_t errlen);

/* Unlinks registered file idx (a missing file or idx < 0 is not an error; other failures
 * print a warning naming the path); it stays registered, so this may be called again. */
void scratch_remove(const struct scratch_set *s, int idx);

/* Unlinks every registered file, silently: async-signal-safe, for a handler that is about to
 * _exit.  Safe on an empty set. */
void scratch_unlink_signal_safe(const struct scratch_set *s);

#endif
