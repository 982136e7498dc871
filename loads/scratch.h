/* The scratch file registry: every file a load leaves in the work directory is named and
 * registered here, and removed from here.  A load keeps its struct scratch_set in ctx->priv;
 * its cleanup hook walks the set.  Names are <workdir>/interbench-<tag>-<pid>.tmp. */
#ifndef IB_SCRATCH_H
#define IB_SCRATCH_H
#include <limits.h>
#include <stddef.h>

#define SCRATCH_PREFIX "interbench-"
#define SCRATCH_SUFFIX ".tmp"
#define SCRATCH_MAX 4   /* files per set */

struct scratch_set {
	char paths[SCRATCH_MAX][PATH_MAX];
	unsigned n;
};

/* Registers the scratch file for tag (lowercase, e.g. "write") in dir for this process and
 * returns its index in the set; registering a tag again returns the same index.  First
 * removes stale files of the same tag: those of processes that no longer exist, and this
 * process's own.  Returns -1 with err set (opendir failed naming errno, name too long, set
 * full). */
int scratch_add(struct scratch_set *s, const char *dir, const char *tag, char *err, size_t errlen);

/* Unlinks every registered file (a missing file is not an error); the files stay registered,
 * so this may be called again.  Safe on an empty set. */
void scratch_remove_all(struct scratch_set *s);

#endif
