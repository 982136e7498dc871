/* Writing a JSON document of this program (a run's result, report/json_report.h; compare's
 * --json, tools/compare.h): its strings made valid UTF-8, and the document written whole to a
 * file, a new file or standard output through lib/safefile.h. */
#ifndef IB_JSONOUT_H
#define IB_JSONOUT_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "lib/safefile.h"

/* Writes doc (compact, keys in insertion order) to path, replacing what it held (--json: the
 * user named it) only once all of it is written, under a temporary name renamed into place
 * (lib/safefile.h: never through a link, never another user's file, mode 0644), or to a FIFO
 * or device of the user's as it is, or to stdout (plus a newline) when path is "-".  Returns
 * 0, or -1 with a one-line reason in err naming the failed call and file ("write out.json: No
 * space left on device"); the old file is then left whole. */
int report_write(const json_t *doc, const char *path, char *err, size_t errlen);

/* Where --json goes: standard output, or a file opened when the run starts (so a path that
 * would be refused is refused before anything is measured) and written when it ends. */
struct report_target {
	bool to_stdout;            /* path "-" */
	struct safe_out out;       /* the file, as report_write opens it */
};

/* Opens path as report_write would, without writing.  Returns 0, or -1 with err set (nothing
 * then to abort). */
int report_target_open(struct report_target *t, const char *path, char *err, size_t errlen);

/* Writes doc to the target opened by report_target_open and closes it (a file renamed into
 * place).  Returns 0, or -1 with err set, the target then closed and any old file whole. */
int report_target_write(struct report_target *t, const json_t *doc, char *err, size_t errlen);

/* Closes an opened target without writing: a temporary file removed, any old file whole. */
void report_target_abort(struct report_target *t);

#define REPORT_CREATE_TRIES 100  /* "<stem>.json", then "<stem>-2.json" ... "<stem>-100.json" */

/* Writes doc (as report_write) to a new file, never overwriting one: "<stem>.json" is created
 * exclusively (O_CREAT | O_EXCL), or when it exists "<stem>-2.json", "<stem>-3.json" ... up to
 * REPORT_CREATE_TRIES names.  name (namelen bytes) receives the name used.  Returns 0, or -1
 * with a one-line reason in err naming the failed call and file; a file left incomplete by a
 * failed write is removed. */
int report_create(const json_t *doc, const char *stem, char *name, size_t namelen, char *err, size_t errlen);

/* A JSON string holding text s made valid UTF-8: every byte that does not begin a valid
 * sequence (a stray continuation byte, a truncated or overlong sequence, a surrogate, a code
 * point above U+10FFFF) becomes U+FFFD, the rest is kept as is.  jansson refuses invalid
 * UTF-8, so every string from the user or the system (the -m comment, a path in a failure
 * reason, the CPU model, uname) goes through this before it enters a document.  Decoding is
 * libc's: mbrtowc under a "C.UTF-8" locale (glibc rejects overlongs and surrogates; the
 * U+10FFFF bound is checked here); should that locale be missing, every byte above 0x7f is
 * replaced.  Returns a new reference; NULL when s is NULL or out of memory. */
json_t *report_text(const char *s);

#endif
