/* Messages, type checks and the model's arrays, for both readers (taskfile/build.h). */
#include "taskfile/build.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/optspec.h"
#include "lib/suggest.h"
#include "lib/text.h"

int tfb_fail(struct tfb *b, const struct jt_node *n, const char *path, const char *fmt, ...)
{
	char what[640];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (n && n->line)
		snprintf(b->err, b->errlen, "%s:%" PRIu32 ": %s%s%s", b->name, n->line, path, *path ? ": " : "", what);
	else
		snprintf(b->err, b->errlen, "%s: %s%s%s", b->name, path, *path ? ": " : "", what);
	text_printable_line(b->err);
	return -1;
}

static bool plain_key(const char *key)
{
	if (!*key)
		return false;
	for (const char *p = key; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		      *p == '-'))
			return false;
	return true;
}

const char *tfb_path_key(char *out, const char *path, const char *key)
{
	char k[64];
	snprintf(k, sizeof(k), "%s", key);
	if (plain_key(key))
		snprintf(out, TFB_PATH_MAX, "%s%s%s", path, *path ? "." : "", k);
	else
		snprintf(out, TFB_PATH_MAX, "%s[\"%s\"]", path, k);
	return out;
}

const char *tfb_path_index(char *out, const char *path, unsigned i)
{
	snprintf(out, TFB_PATH_MAX, "%s[%u]", path, i);
	return out;
}

const char *tfb_value(const struct jt_node *n, char *buf, size_t len)
{
	switch (n->kind) {
	case JT_STRING: {
		char cut[64];
		snprintf(cut, sizeof(cut), "%s", n->text);
		snprintf(buf, len, "\"%s%s\"", cut, strlen(n->text) >= sizeof(cut) ? "..." : "");
		break;
	}
	case JT_NUMBER:
		snprintf(buf, len, "%.60s", n->text);
		break;
	case JT_BOOL:
		snprintf(buf, len, "%s", n->boolean ? "true" : "false");
		break;
	default:
		snprintf(buf, len, "%s", jt_kind_name(n->kind));
	}
	return buf;
}

int tfb_want(struct tfb *b, const struct jt_node *n, const char *path, enum jt_kind kind, const char *what)
{
	char v[96];
	if (n->kind == kind)
		return 0;
	return tfb_fail(b, n, path, "%s (accepted: %s)", tfb_value(n, v, sizeof(v)), what);
}

int tfb_int(struct tfb *b, const struct jt_node *n, const char *path, int64_t min, int64_t max, const char *what,
	    int64_t *v)
{
	char t[96];
	if (n->kind != JT_NUMBER || !n->is_int || n->i < min || n->i > max)
		return tfb_fail(b, n, path, "%s (accepted: %s)", tfb_value(n, t, sizeof(t)), what);
	*v = n->i;
	return 0;
}

/* A member and its place in its object, sorted by key, then place. */
struct keyed {
	const struct jt_node *m;
	unsigned at;
};

static int by_key_then_place(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->m->key, y->m->key);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

int tfb_no_duplicates(struct tfb *b, const struct jt_node *obj, const char *path)
{
	if (obj->n < 2)
		return 0;
	/* sorted, so that an object of 100000 keys costs n log n, not n * n */
	struct keyed *k = malloc(obj->n * sizeof(*k));
	if (!k)
		return tfb_fail(b, obj, path, "out of memory");
	unsigned n = 0;
	for (const struct jt_node *m = obj->first; m; m = m->next, n++)
		k[n] = (struct keyed){ m, n };
	qsort(k, n, sizeof(*k), by_key_then_place);
	const struct keyed *first = NULL, *again = NULL;   /* the repeat that comes first in the file */
	for (unsigned i = 1; i < n; i++)
		if (strcmp(k[i].m->key, k[i - 1].m->key) == 0 && (i < 2 || strcmp(k[i - 1].m->key, k[i - 2].m->key) != 0) &&
		    (!again || k[i].at < again->at))
			first = &k[i - 1], again = &k[i];
	int rc = 0;
	char p[TFB_PATH_MAX];
	if (again)
		rc = first->m->line == again->m->line ?
			     tfb_fail(b, again->m, tfb_path_key(p, path, again->m->key), "given twice on this line (accepted: a key "
											       "once per object)") :
			     tfb_fail(b, again->m, tfb_path_key(p, path, again->m->key), "given twice, on lines %" PRIu32 " and %"
											       PRIu32 " (accepted: a key once per object)",
				      first->m->line, again->m->line);
	free(k);
	return rc;
}

int tfb_known_keys(struct tfb *b, const struct jt_node *obj, const char *path, const char *const *keys)
{
	for (const struct jt_node *m = obj->first; m; m = m->next) {
		bool known = false;
		for (unsigned i = 0; keys[i] && !known; i++)
			known = strcmp(m->key, keys[i]) == 0;
		if (known)
			continue;
		char list[400] = "", p[TFB_PATH_MAX], mean[80] = "";
		struct suggest sg;
		suggest_begin(&sg, m->key, true);
		for (unsigned i = 0; keys[i]; i++) {
			size_t l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "", keys[i]);
			suggest_offer(&sg, keys[i]);
		}
		if (sg.best)
			snprintf(mean, sizeof(mean), "; did you mean %s?", sg.best);
		return tfb_fail(b, m, tfb_path_key(p, path, m->key), "unknown key (accepted: %s)%s", list, mean);
	}
	return 0;
}

bool tfb_name_ok(const char *s)
{
	size_t n = strlen(s);
	return n >= 1 && n < TF_NAME_MAX && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") == n;
}

struct tf_step *tfb_step(struct tfb *b, const struct jt_node *n, const char *path, enum tf_op op)
{
	struct tf_task *t = b->task;
	if (t->n_steps >= TF_MAX_STEPS) {
		tfb_fail(b, n, path, "more than %d steps (accepted: up to %d in all threads together)", TF_MAX_STEPS,
			 TF_MAX_STEPS);
		return NULL;
	}
	struct tf_step *s = &t->steps[t->n_steps++];
	memset(s, 0, sizeof(*s));
	s->op = op;
	s->line = n ? n->line : 0;
	return s;
}

struct tf_phase *tfb_phase(struct tfb *b, const struct jt_node *n, const char *path, int64_t loops)
{
	struct tf_task *t = b->task;
	if (t->n_phases >= TF_MAX_PHASES) {
		tfb_fail(b, n, path, "more than %d phases (accepted: up to %d in all threads together)", TF_MAX_PHASES,
			 TF_MAX_PHASES);
		return NULL;
	}
	struct tf_phase *p = &t->phases[t->n_phases++];
	p->first = t->n_steps, p->n = 0, p->loops = loops;
	return p;
}

void tfb_phase_end(struct tfb *b, struct tf_phase *p)
{
	p->n = b->task->n_steps - p->first;
}

int tfb_resource(struct tfb *b, const struct jt_node *n, const char *path, const char *name, enum tf_res_kind kind,
		 uint64_t period_us)
{
	struct tf_task *t = b->task;
	size_t len = strlen(name);
	if (len == 0 || len >= TF_RES_NAME_MAX)
		return tfb_fail(b, n, path, "a resource name of %zu bytes (accepted: 1..%d bytes)", len, TF_RES_NAME_MAX - 1);
	for (unsigned i = 0; i < t->n_resources; i++) {
		struct tf_resource *r = &t->res[i];
		if (r->kind != kind || strcmp(r->name, name) != 0)
			continue;
		if (kind == TF_RES_TIMER && r->period_us != period_us)
			return tfb_fail(b, n, path, "timer \"%s\" with a period of %" PRIu64 "us, given %" PRIu64
						    "us before (accepted: one period per timer)", name, period_us, r->period_us);
		return (int)i;
	}
	if (t->n_resources >= TF_MAX_RESOURCES)
		return tfb_fail(b, n, path, "more than %d resources (accepted: up to %d)", TF_MAX_RESOURCES, TF_MAX_RESOURCES);
	struct tf_resource *r = &t->res[t->n_resources];
	memset(r, 0, sizeof(*r));
	memcpy(r->name, name, len + 1);
	r->kind = kind;
	r->period_us = kind == TF_RES_TIMER ? period_us : 0;
	return (int)t->n_resources++;
}

int tfb_cpus(struct tfb *b, const struct jt_node *c, const char *path, bool list_text, struct tf_thread *th)
{
	const char *what = list_text ? "an array of CPU numbers 0..1023, or a CPU list \"0,2-3\"" :
				       "an array of CPU numbers 0..1023";
	char v[96];
	struct optspec_cpus l = { 0 };
	if (c->kind == JT_STRING && list_text) {
		if (parse_cpu_list(c->text, &l) != 0)
			return tfb_fail(b, c, path, "%s (accepted: %s)", tfb_value(c, v, sizeof(v)), what);
	} else if (c->kind == JT_ARRAY && c->n > 0) {
		char p[TFB_PATH_MAX];
		unsigned k = 0;
		for (const struct jt_node *e = c->first; e; e = e->next, k++) {
			int64_t cpu = 0;
			if (tfb_int(b, e, tfb_path_index(p, path, k), 0, OPTSPEC_MAX_CPUS - 1, "a CPU number, 0..1023", &cpu))
				return -1;
			if (l.bits[cpu / 64] >> (cpu % 64) & 1)
				return tfb_fail(b, e, p, "CPU %" PRId64 " given twice", cpu);
			l.bits[cpu / 64] |= 1ull << (cpu % 64);
		}
	} else {
		return tfb_fail(b, c, path, "%s (accepted: %s)", tfb_value(c, v, sizeof(v)), what);
	}
	l.given = true;
	th->cpus = l;
	return 0;
}
