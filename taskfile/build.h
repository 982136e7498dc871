/* What both readers of task files share (taskfile/native.c, taskfile/rtapp.c): messages that name
 * the file, the line and the JSON path; the checks of a value's type; and the model's growing
 * arrays (steps, phases, resources, threads) within their limits (taskfile/model.h). */
#ifndef IB_TASKFILE_BUILD_H
#define IB_TASKFILE_BUILD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "taskfile/jsontree.h"
#include "taskfile/model.h"

#define TFB_PATH_MAX 192   /* a JSON path in a message, bytes */

/* A compilation in progress: the task built, where messages go. */
struct tfb {
	const char *name;         /* the file's name in messages */
	struct tf_task *task;
	char *err;
	size_t errlen;
};

/* Writes "NAME:LINE: PATH: WHAT" into b->err as one printable line (n's line; line 0 when n is
 * NULL: "NAME: PATH: WHAT").  Returns -1. */
int tfb_fail(struct tfb *b, const struct jt_node *n, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* path + "." + key (or + "[\"key\"]" when key is not all letters, digits, '_' and '-'), cut to
 * fit.  Returns out. */
const char *tfb_path_key(char *out, const char *path, const char *key);

/* path + "[i]".  Returns out. */
const char *tfb_path_index(char *out, const char *path, unsigned i);

/* The value n as a message quotes it: a string in quotes, a number as written, "true", "null",
 * "an object", "an array" (cut to about 60 bytes).  Returns buf. */
const char *tfb_value(const struct jt_node *n, char *buf, size_t len);

/* Refuses n unless it is of kind: "PATH: VALUE (accepted: WHAT)".  Returns 0 or -1. */
int tfb_want(struct tfb *b, const struct jt_node *n, const char *path, enum jt_kind kind, const char *what);

/* An integer member n within [min, max] into *v; else "PATH: VALUE (accepted: WHAT)". */
int tfb_int(struct tfb *b, const struct jt_node *n, const char *path, int64_t min, int64_t max, const char *what,
	    int64_t *v);

/* Refuses a key given twice in object obj (interbench's format): "PATH.KEY: given twice, on
 * lines A and B (accepted: a key once per object)".  Returns 0 or -1. */
int tfb_no_duplicates(struct tfb *b, const struct jt_node *obj, const char *path);

/* Refuses a member of obj whose key is not among the NULL-terminated keys: "PATH.KEY: unknown
 * key (accepted: K1, K2, ...)", with the nearest accepted key when one is near ("did you
 * mean"). */
int tfb_known_keys(struct tfb *b, const struct jt_node *obj, const char *path, const char *const *keys);

/* A thread's CPUs: an array of CPU numbers (not empty, none twice), or with list_text a CPU
 * list as cyclictest takes it ("0,2-3"), into th->cpus (given set). */
int tfb_cpus(struct tfb *b, const struct jt_node *c, const char *path, bool list_text, struct tf_thread *th);

/* Whether s is a thread's or task's name: 1..TF_NAME_MAX-1 of A-Za-z0-9 _ . - */
bool tfb_name_ok(const char *s);

/* Appends a step to the task, its line n's; returns it zeroed but for op and line, or NULL with
 * err set ("PATH: more than 4096 steps (accepted: up to 4096 in all threads)"). */
struct tf_step *tfb_step(struct tfb *b, const struct jt_node *n, const char *path, enum tf_op op);

/* Opens a phase at the next step, running loops times; NULL with err set past TF_MAX_PHASES. */
struct tf_phase *tfb_phase(struct tfb *b, const struct jt_node *n, const char *path, int64_t loops);

/* Closes phase p: its steps are those added since it was opened. */
void tfb_phase_end(struct tfb *b, struct tf_phase *p);

/* The index of the resource of that name and kind, added when new (timers: period_us is set
 * then, and a timer of another period is refused).  Returns it, or -1 with err set (a name too
 * long, empty, or past TF_MAX_RESOURCES). */
int tfb_resource(struct tfb *b, const struct jt_node *n, const char *path, const char *name, enum tf_res_kind kind,
		 uint64_t period_us);

/* The readers: doc's root (an object) compiled into b->task (zeroed, its format set).  Return 0,
 * or -1 with b->err set.  interbench's format: taskfile/native.c; rt-app's: taskfile/rtapp.c. */
int tf_read_native(struct tfb *b, const struct jt_doc *doc);
int tf_read_rtapp(struct tfb *b, const struct jt_doc *doc);

#endif
