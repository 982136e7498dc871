/* Fake directory trees for tests that read the system's files under a root prefix. */
#ifndef IB_CK_TREE_H
#define IB_CK_TREE_H
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Writes text to root/rel, creating the directories on the way. */
static inline void ck_tree_put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

#endif
