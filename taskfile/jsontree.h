/* A JSON document read into a tree that keeps what jansson and yajl_tree lose: a key given twice
 * in one object is kept twice, members stay in file order, and each value knows the line it
 * starts on (rt-app's files repeat keys and mean their order: "run", "resume", "run").  Read with
 * yajl's event parser (yajl/yajl_parse.h); every node and string lives in one arena, so freeing
 * a tree is one walk over its blocks, whatever its depth.
 *
 * What is refused, each with one line: more than TF_FILE_MAX_BYTES, a NUL byte, bytes that are
 * not UTF-8 (RFC 3629), nesting deeper than TF_DEPTH_MAX, a string longer than JT_STRING_MAX or
 * holding \u0000, more than JT_NODES_MAX values, and anything yajl finds not JSON.  Two things
 * rt-app's reader (json-c, not strict) takes are read and reported, for the caller to refuse or
 * not: comments, and a comma before a closing '}' or ']'. */
#ifndef IB_TASKFILE_JSONTREE_H
#define IB_TASKFILE_JSONTREE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JT_STRING_MAX 4096     /* the longest string read, bytes */
#define JT_NODES_MAX 100000    /* the most values (objects, arrays, scalars) of a document */

enum jt_kind { JT_NULL, JT_BOOL, JT_NUMBER, JT_STRING, JT_OBJECT, JT_ARRAY };

/* One value. */
struct jt_node {
	enum jt_kind kind;
	uint32_t line;            /* the 1-based line it starts on */
	const char *key;          /* as a member of an object: its key (UTF-8, no NUL); else NULL */
	const char *text;         /* JT_STRING: the value (UTF-8, no NUL); JT_NUMBER: as written */
	bool boolean;             /* JT_BOOL */
	bool is_int;              /* JT_NUMBER: an integer (no fraction, no exponent) within int64 */
	int64_t i;                /* JT_NUMBER with is_int: its value */
	unsigned n;               /* JT_OBJECT, JT_ARRAY: its members */
	struct jt_node *first;    /* JT_OBJECT, JT_ARRAY: its first member, in file order */
	struct jt_node *next;     /* the next member of the same parent */
	struct jt_node *last;     /* (while reading) the last member */
};

/* A document read. */
struct jt_doc {
	struct jt_node *root;
	uint32_t trailing_comma_line; /* the line of the first comma before a '}' or ']' (read as
	                                 if absent), 0: none */
	uint32_t comment_line;        /* the line of the first comment, 0: none */
	void *arena;                  /* private: every node and string */
};

/* Reads buf[0..len) (any bytes; it need not end in NUL) into doc.  name is the file's name in
 * messages.  Returns 0, or -1 with one line in err: "NAME:LINE: WHAT" ("t.json:3: not JSON:
 * parse error: ..."); doc is then empty.  Free doc with jt_free either way. */
int jt_parse(const char *name, const char *buf, size_t len, struct jt_doc *doc, char *err, size_t errlen);

/* Frees everything of doc (an empty or zeroed doc too). */
void jt_free(struct jt_doc *doc);

/* The first member of object obj named key, or NULL (none, or obj not an object). */
const struct jt_node *jt_get(const struct jt_node *obj, const char *key);

/* The name of kind for messages: "null", "a boolean", "a number", "a string", "an object",
 * "an array". */
const char *jt_kind_name(enum jt_kind kind);

#endif
