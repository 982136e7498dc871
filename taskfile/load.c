/* Reading a task file: its bytes (lib/safefile.h), its JSON (taskfile/jsontree.h), its format
 * told apart, and the reader of that format (taskfile/native.c, taskfile/rtapp.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/safefile.h"
#include "lib/text.h"
#include "taskfile/build.h"
#include "taskfile/jsontree.h"
#include "taskfile/model.h"

const char *tf_op_name(enum tf_op op)
{
	static const char *const names[TF_OPS] = {
		[TF_PERIOD] = "period", [TF_CLOSE] = "close", [TF_RUN] = "run", [TF_RUNTIME] = "runtime",
		[TF_SLEEP] = "sleep", [TF_TIMER] = "timer", [TF_WAKE] = "wake", [TF_JOIN] = "join",
		[TF_RESUME] = "resume", [TF_SUSPEND] = "suspend", [TF_LOCK] = "lock", [TF_UNLOCK] = "unlock",
		[TF_SIGNAL] = "signal", [TF_BROADCAST] = "broadcast", [TF_WAIT] = "wait", [TF_SYNC] = "sync",
		[TF_BARRIER] = "barrier",
	};
	return (unsigned)op < TF_OPS ? names[op] : "?";
}

/* The word of a waiting step's wake-ups, NULL for a step that does not wait. */
static const char *wake_word(enum tf_op op)
{
	switch (op) {
	case TF_PERIOD:
	case TF_TIMER:
		return "timer";
	case TF_JOIN:
		return "join";
	case TF_SUSPEND:
		return "resume";
	case TF_WAIT:
	case TF_SYNC:
		return "signal";
	case TF_BARRIER:
		return "barrier";
	default:
		return NULL;
	}
}

const char *tf_wakes_on(const struct tf_task *task, const struct tf_thread *th)
{
	for (uint32_t p = th->first_phase; p < th->first_phase + th->n_phases; p++)
		for (uint32_t s = task->phases[p].first; s < task->phases[p].first + task->phases[p].n; s++) {
			const char *w = wake_word(task->steps[s].op);
			if (w)
				return w;
		}
	return "";
}

/* Tells the format apart and runs its reader. */
static int compile(struct tfb *b, const struct jt_doc *doc)
{
	const struct jt_node *root = doc->root;
	bool native = jt_get(root, "interbench_task") != NULL, rtapp = jt_get(root, "tasks") != NULL;
	if (native && rtapp)
		return tfb_fail(b, root, "", "both \"interbench_task\" and \"tasks\" (accepted: interbench's format, with "
					     "\"interbench_task\": 1, or rt-app's, with \"tasks\", not both)");
	if (!native && !rtapp)
		return tfb_fail(b, root, "", "neither \"interbench_task\" nor \"tasks\" (accepted: interbench's format, with "
					     "\"interbench_task\": 1, or rt-app's JSON, with \"tasks\": doc/task-file.md)");
	b->task->format = native ? TF_FORMAT_INTERBENCH : TF_FORMAT_RTAPP;
	return native ? tf_read_native(b, doc) : tf_read_rtapp(b, doc);
}

int tf_parse(const char *name, const char *buf, size_t len, struct tf_task *task, char *err, size_t errlen)
{
	struct jt_doc doc;
	struct tfb b = { .name = name, .task = task, .err = err, .errlen = errlen };
	memset(task, 0, sizeof(*task));
	if (jt_parse(name, buf, len, &doc, err, errlen) != 0) {
		jt_free(&doc);
		return -1;
	}
	int rc = doc.root->kind == JT_OBJECT ? compile(&b, &doc) :
		 tfb_fail(&b, doc.root, "", "%s at the top (accepted: a JSON object)", jt_kind_name(doc.root->kind));
	jt_free(&doc);
	if (rc != 0)
		memset(task, 0, sizeof(*task));
	return rc;
}

int tf_load(const char *path, struct tf_task *task, char *err, size_t errlen)
{
	char why[256];
	size_t len;
	memset(task, 0, sizeof(*task));
	char *buf = safe_read_file(path, TF_FILE_MAX_BYTES, &len, why, sizeof(why));
	if (!buf) {
		snprintf(err, errlen, "%s: %s", path, why);
		text_printable_line(err);
		return -1;
	}
	int rc = tf_parse(path, buf, len, task, err, errlen);
	free(buf);
	return rc;
}
