/* The ordered JSON tree of taskfile/jsontree.h, built from yajl's events. */
#include "taskfile/jsontree.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>
#include "lib/text.h"
#include "lib/utf8.h"
#include "taskfile/model.h"

/* The arena: blocks of at least ARENA_BLOCK bytes, each starting with its link. */
#define ARENA_BLOCK 65536
struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

static void *arena_alloc(struct jt_doc *doc, size_t n)
{
	struct arena_block *b = doc->arena;
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!b || b->size - b->used < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		struct arena_block *nb = malloc(sizeof(*nb) + size);
		if (!nb)
			return NULL;
		nb->next = b, nb->used = 0, nb->size = size;
		doc->arena = b = nb;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

void jt_free(struct jt_doc *doc)
{
	struct arena_block *b = doc->arena;
	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	doc->arena = NULL;
	doc->root = NULL;
}

const struct jt_node *jt_get(const struct jt_node *obj, const char *key)
{
	if (!obj || obj->kind != JT_OBJECT)
		return NULL;
	for (const struct jt_node *m = obj->first; m; m = m->next)
		if (strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

const char *jt_kind_name(enum jt_kind kind)
{
	static const char *const names[] = { "null", "a boolean", "a number", "a string", "an object", "an array" };
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

/* The reader's state, yajl's callbacks' context. */
struct reader {
	struct jt_doc *doc;
	const char *name, *text;      /* the file's name, its text (NUL-terminated) */
	yajl_handle h;
	size_t base;                  /* where the chunk yajl is reading starts */
	size_t counted;               /* lines are counted up to here */
	uint32_t line;                /* the line at `counted` */
	struct jt_node *stack[TF_DEPTH_MAX + 1];
	unsigned depth;
	const char *key;              /* the key read, waiting for its value */
	unsigned nodes;
	char *err;
	size_t errlen;
	bool failed;
};

static uint32_t line_at(struct reader *r, size_t off)
{
	for (; r->counted < off && r->text[r->counted]; r->counted++)
		if (r->text[r->counted] == '\n')
			r->line++;
	return r->line;
}

/* The line of the token yajl just read (it ends at the bytes consumed). */
static uint32_t token_line(struct reader *r)
{
	size_t end = r->base + yajl_get_bytes_consumed(r->h);
	return line_at(r, end ? end - 1 : 0);
}

static int fail(struct reader *r, uint32_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct reader *r, uint32_t line, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s:%" PRIu32 ": %s", r->name, line, what);
	text_printable_line(r->err);
	r->failed = true;
	return 0;
}

static char *arena_strndup(struct jt_doc *doc, const char *s, size_t n)
{
	char *p = arena_alloc(doc, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* A new node of kind, put in its place: the root, or its parent's last member. */
static struct jt_node *add(struct reader *r, enum jt_kind kind)
{
	uint32_t line = token_line(r);
	if (++r->nodes > JT_NODES_MAX) {
		fail(r, line, "more than %d JSON values (accepted: up to %d)", JT_NODES_MAX, JT_NODES_MAX);
		return NULL;
	}
	struct jt_node *n = arena_alloc(r->doc, sizeof(*n));
	if (!n) {
		fail(r, line, "out of memory");
		return NULL;
	}
	memset(n, 0, sizeof(*n));
	n->kind = kind, n->line = line;
	if (r->depth == 0) {
		r->doc->root = n;
		return n;
	}
	struct jt_node *p = r->stack[r->depth - 1];
	if (p->kind == JT_OBJECT)
		n->key = r->key, r->key = NULL;
	if (p->last)
		p->last->next = n;
	else
		p->first = n;
	p->last = n;
	p->n++;
	return n;
}

static int on_null(void *ctx)
{
	return add(ctx, JT_NULL) != NULL;
}

static int on_bool(void *ctx, int b)
{
	struct jt_node *n = add(ctx, JT_BOOL);
	if (n)
		n->boolean = b != 0;
	return n != NULL;
}

/* Numbers as written: an integer within int64 also as its value; anything else (a fraction, an
 * exponent, 99999999999999999999) only as text, refused by whoever needs a number. */
static int on_number(void *ctx, const char *s, size_t len)
{
	struct reader *r = ctx;
	struct jt_node *n = add(r, JT_NUMBER);
	if (!n || !(n->text = arena_strndup(r->doc, s, len)))
		return n ? fail(r, n->line, "out of memory") : 0;
	if (strpbrk(n->text, ".eE"))
		return 1;
	char *end;
	errno = 0;
	long long v = strtoll(n->text, &end, 10);
	n->is_int = errno == 0 && *end == '\0';
	n->i = v;
	return 1;
}

/* A string's text, checked: at most JT_STRING_MAX bytes, no \u0000 (yajl has checked UTF-8). */
static const char *string_text(struct reader *r, const unsigned char *s, size_t len, const char *what)
{
	uint32_t line = token_line(r);
	if (len > JT_STRING_MAX) {
		fail(r, line, "a %s of %zu bytes (accepted: up to %d bytes)", what, len, JT_STRING_MAX);
		return NULL;
	}
	if (memchr(s, '\0', len)) {
		fail(r, line, "a %s holding \\u0000 (accepted: text without NUL characters)", what);
		return NULL;
	}
	const char *t = arena_strndup(r->doc, (const char *)s, len);
	if (!t)
		fail(r, line, "out of memory");
	else if (!utf8_valid(t))   /* as decoded from \u escapes: yajl checks the raw bytes only */
		return fail(r, line, "a %s that is not UTF-8 once its escapes are read (accepted: UTF-8 text)", what), NULL;
	return t;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	const char *t = string_text(r, s, len, "string");
	struct jt_node *n = t ? add(r, JT_STRING) : NULL;
	if (n)
		n->text = t;
	return n != NULL;
}

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	r->key = string_text(r, s, len, "key");
	return r->key != NULL;
}

static int open_container(struct reader *r, enum jt_kind kind)
{
	if (r->depth >= TF_DEPTH_MAX)
		return fail(r, token_line(r), "JSON nested deeper than %d levels (accepted: up to %d)",
			    TF_DEPTH_MAX, TF_DEPTH_MAX);
	struct jt_node *n = add(r, kind);
	if (n)
		r->stack[r->depth++] = n;
	return n != NULL;
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, JT_OBJECT);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, JT_ARRAY);
}

static int on_end(void *ctx)
{
	struct reader *r = ctx;
	r->depth--;
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end,
};

/* Skips a comment at t[i] ('/' then '/' or '*'); returns the index past it, or i when there is
 * none there. */
static size_t skip_comment(const char *t, size_t i, size_t len)
{
	if (i + 1 >= len || t[i] != '/')
		return i;
	if (t[i + 1] == '/') {
		const char *nl = memchr(t + i, '\n', len - i);
		return nl ? (size_t)(nl - t) : len;
	}
	if (t[i + 1] == '*') {
		const char *e = strstr(t + i + 2, "*/");
		return e ? (size_t)(e - t) + 2 : len;
	}
	return i;
}

static uint32_t count_lines(const char *t, size_t upto)
{
	uint32_t line = 1;
	for (size_t i = 0; i < upto; i++)
		line += t[i] == '\n';
	return line;
}

/* Walks t (NUL-terminated) as JSON's lexer would, outside strings: notes the first comment, and
 * blanks every comma that only whitespace and comments separate from a '}' or ']' (json-c, rt-app's
 * reader, takes them; yajl does not), noting the first. */
static void prescan(char *t, size_t len, struct jt_doc *doc)
{
	char last = 0;   /* the last character of a token before i: a comma after '[', '{' or ',' is kept */
	for (size_t i = 0; i < len; i++) {
		if (!strchr(" \t\r\n/,", t[i]))
			last = t[i];
		if (t[i] == '"') {
			for (i++; i < len && t[i] != '"'; i++)
				if (t[i] == '\\' && i + 1 < len)
					i++;
		} else if (t[i] == '/' && skip_comment(t, i, len) != i) {
			if (!doc->comment_line)
				doc->comment_line = count_lines(t, i);
			i = skip_comment(t, i, len) - 1;
		} else if (t[i] == ',') {
			char before = last;
			last = ',';
			size_t j = i + 1;
			for (;;) {
				while (j < len && strchr(" \t\r\n", t[j]))
					j++;
				size_t k = skip_comment(t, j, len);
				if (k == j)
					break;
				j = k;
			}
			if (j < len && (t[j] == '}' || t[j] == ']') && before && !strchr("[{,", before)) {
				if (!doc->trailing_comma_line)
					doc->trailing_comma_line = count_lines(t, i);
				t[i] = ' ';
			}
		}
	}
}

/* Checks the bytes: no NUL, UTF-8 throughout.  Returns 0, or -1 with err set. */
static int check_bytes(struct reader *r, const char *buf, size_t len)
{
	const char *nul = memchr(buf, '\0', len);
	if (nul)
		return fail(r, count_lines(buf, (size_t)(nul - buf)), "a NUL byte (accepted: UTF-8 text)"), -1;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_char_len(r->text + i);
		if (n == 0)
			return fail(r, count_lines(buf, i), "byte 0x%02x at offset %zu is not UTF-8 (accepted: UTF-8 text)",
				    (unsigned char)buf[i], i), -1;
		i += n;
	}
	return 0;
}

/* yajl's own message (several lines with verbose 0 too: its text ends in a newline) as one
 * line; a key with no value said in words (rt-app's workgen writes a bare "suspend",). */
static void yajl_failure(struct reader *r, size_t off)
{
	uint32_t line = line_at(r, off);
	unsigned char *msg = yajl_get_error(r->h, 0, NULL, 0);
	char one[256];
	snprintf(one, sizeof(one), "%s", msg ? (const char *)msg : "unknown error");
	if (msg)
		yajl_free_error(r->h, msg);
	one[strcspn(one, "\r\n")] = '\0';
	if (r->key && strstr(one, "separated by a colon")) {
		if (strncmp(r->key, "suspend", 7) == 0)
			fail(r, line, "\"%s\" without a value is not JSON (a bare \"suspend\" is rt-app's workgen shorthand, "
				      "which fills in the task's name): write \"suspend\": \"NAME\"", r->key);
		else
			fail(r, line, "\"%s\" without a value is not JSON (accepted: \"%s\": VALUE)", r->key, r->key);
		return;
	}
	fail(r, line, "not JSON: %s", one);
}

static int run_yajl(struct reader *r, size_t len)
{
	r->h = yajl_alloc(&callbacks, NULL, r);
	if (!r->h)
		return fail(r, 1, "out of memory"), -1;
	yajl_config(r->h, yajl_allow_comments, 1);
	yajl_status st = yajl_parse(r->h, (const unsigned char *)r->text, len);
	size_t off = yajl_get_bytes_consumed(r->h);
	if (st == yajl_status_ok) {
		r->base = len;
		st = yajl_complete_parse(r->h);
		off = len;
	}
	if (st != yajl_status_ok && !r->failed)
		yajl_failure(r, off);
	yajl_free(r->h);
	return st == yajl_status_ok && !r->failed ? 0 : -1;
}

int jt_parse(const char *name, const char *buf, size_t len, struct jt_doc *doc, char *err, size_t errlen)
{
	memset(doc, 0, sizeof(*doc));
	struct reader r = { .doc = doc, .name = name, .line = 1, .err = err, .errlen = errlen };
	if (len > TF_FILE_MAX_BYTES) {
		snprintf(err, errlen, "%s: %zu bytes (accepted: up to %u bytes)", name, len, TF_FILE_MAX_BYTES);
		text_printable_line(err);
		return -1;
	}
	char *t = arena_alloc(doc, len + 1);
	if (!t)
		return snprintf(err, errlen, "%s: out of memory", name), -1;
	/* a UTF-8 byte order mark, which RFC 8259 lets a reader ignore, read as a blank */
	size_t bom = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	memcpy(t, buf, len);
	memset(t, ' ', bom);
	t[len] = '\0';
	r.text = t;
	if (check_bytes(&r, buf, len) != 0)
		return jt_free(doc), -1;
	if (strspn(t, " \t\r\n") == len) {
		fail(&r, 1, "the file is empty (accepted: a JSON object)");
		return jt_free(doc), -1;
	}
	prescan(t, len, doc);
	uint32_t tc = doc->trailing_comma_line, cl = doc->comment_line;
	if (run_yajl(&r, len) != 0)
		return jt_free(doc), -1;
	doc->trailing_comma_line = tc, doc->comment_line = cl;
	return 0;
}
