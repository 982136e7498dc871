/* The run's scratch file registry: every file a load leaves in the work directory is created
 * here, in main, before any load process starts, and used only through the descriptor held
 * here (load processes inherit it), never reopened by name: a symlink or file planted in a
 * shared work directory is never followed, truncated or written.  Each file is created once,
 * mode 0600, under an unpredictable name <workdir>/interbench-<tag>-XXXXXX.tmp, and holds an
 * exclusive flock for its whole life, so another run (in any PID namespace) can tell a live
 * file from a stale one.  The lock is taken before the name exists: the file is made unnamed
 * (O_TMPFILE), locked, then linked under its name (linkat, which never replaces nor follows
 * what is there).  Where the filesystem has no O_TMPFILE, the name is created with
 * O_CREAT|O_EXCL (mkostemps) and locked just after, a moment in which another run's
 * stale-file cleanup could take it.
 * Main owns the one set of the run (loads reach it through load_config.scratch); each load's
 * cleanup hook removes its own entries, and a second signal, which exits at once, unlinks
 * every registered path from the handler. */
#ifndef IB_SCRATCH_H
#define IB_SCRATCH_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define SCRATCH_PREFIX "interbench-"
#define SCRATCH_SUFFIX ".tmp"
#define SCRATCH_MAX 8        /* files per run: Write, Read, Compile's two and Copy's two use 6 */
#define SCRATCH_TAG_MAX 16   /* bytes of a tag, with the NUL */

struct scratch_set {
	char paths[SCRATCH_MAX][PATH_MAX];
	char tags[SCRATCH_MAX][SCRATCH_TAG_MAX];
	int fds[SCRATCH_MAX];        /* read-write descriptor of each file, flocked; -1 once removed */
	bool removed[SCRATCH_MAX];   /* unlinked by scratch_remove: the handler leaves it alone */
	unsigned n;     /* entries 0..n-1 are complete; raised only after a path is written, so a
	                   signal handler never sees half a name */
};

/* Creates and registers the scratch file for tag (lowercase, at most SCRATCH_TAG_MAX - 1
 * bytes, e.g. "write") in dir, and returns its index in the set; registering a tag again
 * returns the same index.  First removes stale files of the same tag left in dir by runs that
 * ended without cleaning up: those whose flock can be taken (a live run holds its lock);
 * entries that are not regular files are left alone.  Returns -1 with err set (the failed
 * call and errno, name too long, set full). */
int scratch_add(struct scratch_set *s, const char *dir, const char *tag, char *err, size_t errlen);

/* The read-write descriptor of file idx (shared across fork: use pread/pwrite, never the
 * file offset), or -1 when idx is out of range or the file was removed. */
int scratch_fd(const struct scratch_set *s, int idx);

/* Removes file idx: unlinks its path only while the path still names the file created (a
 * replaced entry is left, with a warning), then closes the descriptor.  Idempotent; idx < 0
 * is ignored; failures other than a missing file print a warning naming the path. */
void scratch_remove(struct scratch_set *s, int idx);

/* Unlinks every registered file not removed yet, silently: async-signal-safe, for a handler
 * that is about to _exit.  Safe on an empty set. */
void scratch_unlink_signal_safe(const struct scratch_set *s);

#endif
