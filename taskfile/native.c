/* interbench's task-file format (doc/task-file.md, "interbench's format") compiled into the model
 * (taskfile/model.h): threads triggered by the period, by other threads (after: a join) or by
 * their own timer (every), each one phase looping for ever:
 *   the period thread: [TF_PERIOD, TF_RUN, TF_WAKE each follower..., TF_CLOSE if a sink]
 *   an after thread:   [TF_JOIN n, TF_RUN, TF_WAKE each follower..., TF_CLOSE if a sink]
 *   an every thread:   [TF_TIMER (its own timer), TF_RUN] */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "lib/optspec.h"
#include "lib/schedpolicy.h"
#include "taskfile/build.h"

enum trigger { TRIG_PERIOD, TRIG_AFTER, TRIG_EVERY };

/* A thread as read, before its program is built. */
struct nthread {
	const struct jt_node *node, *trig_node;
	char path[TFB_PATH_MAX];
	enum trigger trig;
	unsigned after[TF_MAX_THREADS], n_after;
	uint64_t every_us, work_us, work_max_us;
};

/* The whole file as read. */
struct nfile {
	struct nthread th[TF_MAX_THREADS];
	unsigned n, period_thread;
};

static const char *const top_keys[] = { "interbench_task", "name", "period", "deadline", "work_as", "frames", "threads", NULL };
static const char *const thread_keys[] = { "name", "trigger", "work", "policy", "priority", "nice", "slice", "runtime",
					   "dl_deadline", "dl_period", "cpus", NULL };

/* A time: an integer of microseconds, or a string of a number and a unit ("2.5ms"), within
 * [min_us, max_us]. */
static bool time_value(const struct jt_node *n, uint64_t min_us, uint64_t max_us, uint64_t *us)
{
	if (n->kind == JT_NUMBER && n->is_int && n->i >= 0 && (uint64_t)n->i >= min_us && (uint64_t)n->i <= max_us) {
		*us = (uint64_t)n->i;
		return true;
	}
	return n->kind == JT_STRING && parse_duration(n->text, 1000, min_us, max_us, us) == 0;
}

static int ntime(struct tfb *b, const struct jt_node *n, const char *path, uint64_t min_us, uint64_t max_us, uint64_t *us)
{
	char lo[32], hi[32], v[96];
	if (time_value(n, min_us, max_us, us))
		return 0;
	return tfb_fail(b, n, path, "%s (accepted: a time, %s..%s, in whole microseconds: an integer of microseconds, "
				    "or a number and a unit, ns, us, ms or s: \"2.5ms\")",
			tfb_value(n, v, sizeof(v)), format_duration(min_us, 1000, lo, sizeof(lo)),
			format_duration(max_us, 1000, hi, sizeof(hi)));
}

/* A member that may be absent: its node, and its path in p. */
static const struct jt_node *member(const struct jt_node *obj, const char *key, const char *path, char *p)
{
	tfb_path_key(p, path, key);
	return jt_get(obj, key);
}

static int read_work(struct tfb *b, const struct jt_node *w, const char *path, struct nthread *t)
{
	static const char what[] = "a time, 0us..10s (an integer of microseconds, or a string with a unit: \"2.5ms\"), "
				   "or {\"uniform\": [MIN, MAX]}";
	char p[TFB_PATH_MAX], v[96];
	if (w->kind != JT_OBJECT)
		return time_value(w, 0, TF_TIME_MAX_US, &t->work_us) ? 0 :
		       tfb_fail(b, w, path, "%s (accepted: %s)", tfb_value(w, v, sizeof(v)), what);
	static const char *const keys[] = { "uniform", NULL };
	const struct jt_node *u = jt_get(w, "uniform");
	if (tfb_known_keys(b, w, path, keys) || tfb_no_duplicates(b, w, path))
		return -1;
	if (!u)
		return tfb_fail(b, w, path, "an empty object (accepted: %s)", what);
	tfb_path_key(p, path, "uniform");
	if (u->kind != JT_ARRAY || u->n != 2)
		return tfb_fail(b, u, p, "%s (accepted: [MIN, MAX], two times)", tfb_value(u, v, sizeof(v)));
	char p0[TFB_PATH_MAX], p1[TFB_PATH_MAX];
	if (ntime(b, u->first, tfb_path_index(p0, p, 0), 0, TF_TIME_MAX_US, &t->work_us) ||
	    ntime(b, u->first->next, tfb_path_index(p1, p, 1), 0, TF_TIME_MAX_US, &t->work_max_us))
		return -1;
	if (t->work_max_us < t->work_us)
		return tfb_fail(b, u, p, "MAX %" PRIu64 "us below MIN %" PRIu64 "us (accepted: MIN <= MAX)", t->work_max_us,
				t->work_us);
	if (t->work_max_us == t->work_us)
		t->work_max_us = 0;
	return 0;
}

static int find_thread(const struct tfb *b, const struct nfile *f, const char *name)
{
	for (unsigned i = 0; i < f->n; i++)
		if (strcmp(b->task->threads[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int read_after(struct tfb *b, struct nfile *f, struct nthread *t, const struct jt_node *a, const char *path)
{
	char v[96], p[TFB_PATH_MAX];
	if (a->kind != JT_ARRAY || a->n == 0 || a->n > TF_MAX_THREADS)
		return tfb_fail(b, a, path, "%s (accepted: an array of 1..%d thread names)", tfb_value(a, v, sizeof(v)),
				TF_MAX_THREADS);
	unsigned k = 0;
	const char *self = b->task->threads[t - f->th].name;
	for (const struct jt_node *e = a->first; e; e = e->next, k++) {
		tfb_path_index(p, path, k);
		if (tfb_want(b, e, p, JT_STRING, "a thread's name"))
			return -1;
		if (strcmp(e->text, self) == 0)
			return tfb_fail(b, e, p, "\"%s\" is the thread itself (a thread cannot follow itself)", e->text);
		int j = find_thread(b, f, e->text);
		if (j < 0)
			return tfb_fail(b, e, p, "\"%s\" names no thread of this file", e->text);
		for (unsigned q = 0; q < t->n_after; q++)
			if (t->after[q] == (unsigned)j)
				return tfb_fail(b, e, p, "\"%s\" named twice", e->text);
		t->after[t->n_after++] = (unsigned)j;
	}
	return 0;
}

static int read_trigger(struct tfb *b, struct nfile *f, struct nthread *t, const char *path)
{
	static const char what[] = "\"period\", {\"after\": [NAMES]} or {\"every\": TIME}";
	char v[96], p[TFB_PATH_MAX];
	const struct jt_node *g = t->trig_node;
	if (g->kind == JT_STRING && strcmp(g->text, "period") == 0)
		return t->trig = TRIG_PERIOD, 0;
	if (g->kind != JT_OBJECT || g->n != 1)
		return tfb_fail(b, g, path, "%s (accepted: %s)", tfb_value(g, v, sizeof(v)), what);
	static const char *const keys[] = { "after", "every", NULL };
	if (tfb_known_keys(b, g, path, keys))
		return -1;
	tfb_path_key(p, path, g->first->key);
	if (strcmp(g->first->key, "every") == 0) {
		t->trig = TRIG_EVERY;
		return ntime(b, g->first, p, TF_PERIOD_MIN_US, TF_TIME_MAX_US, &t->every_us);
	}
	t->trig = TRIG_AFTER;
	return read_after(b, f, t, g->first, p);
}

static int read_policy(struct tfb *b, const struct jt_node *o, const char *path, struct sched_setting *s, bool *given)
{
	char p[TFB_PATH_MAX], v[96];
	const struct jt_node *n = member(o, "policy", path, p);
	if (!n)
		return 0;
	for (unsigned k = 0; sched_kind_name(k); k++)
		if (n->kind == JT_STRING && strcmp(n->text, sched_kind_name(k)) == 0) {
			s->kind = k;
			return *given = true, 0;
		}
	return tfb_fail(b, n, p, "%s (accepted: other, batch, idle, fifo, rr, deadline)", tfb_value(n, v, sizeof(v)));
}

/* A key that applies to some policies only: refused under another one. */
static int policy_fits(struct tfb *b, const struct jt_node *n, const char *p, const struct sched_setting *s,
		       bool policy_given, bool rt)
{
	bool ok = rt ? (s->kind == SP_FIFO || s->kind == SP_RR) : sched_kind_has_nice(s->kind);
	if (ok && (policy_given || !rt))
		return 0;
	char v[96];
	return tfb_fail(b, n, p, "%s %s%s (accepted: with \"policy\" %s)", tfb_value(n, v, sizeof(v)),
			policy_given ? "with policy " : "without a policy", policy_given ? sched_kind_name(s->kind) : "",
			rt ? "fifo or rr" : "other or batch");
}

static int read_dl(struct tfb *b, const struct jt_node *o, const char *path, struct sched_setting *s, bool *any)
{
	static const char *const keys[] = { "runtime", "dl_deadline", "dl_period" };
	uint64_t us[3] = { 0 };
	const struct jt_node *n[3];
	char p[3][TFB_PATH_MAX];
	for (int i = 0; i < 3; i++) {
		n[i] = member(o, keys[i], path, p[i]);
		if (n[i] && s->kind != SP_DEADLINE)
			return tfb_fail(b, n[i], p[i], "a deadline reservation %s (accepted: with \"policy\": \"deadline\")",
					*any ? "with another policy" : "without a policy");
		if (n[i] && ntime(b, n[i], p[i], 1, TF_TIME_MAX_US, &us[i]))
			return -1;
	}
	if (s->kind != SP_DEADLINE)
		return 0;
	char pp[TFB_PATH_MAX];
	if (!n[0] || !n[2])
		return tfb_fail(b, jt_get(o, "policy"), tfb_path_key(pp, path, "policy"),
				"deadline without %s (accepted: runtime and dl_period given, dl_deadline optional)",
				!n[0] ? "runtime" : "dl_period");
	if (!n[1])
		us[1] = us[2];
	if (us[0] > us[1] || us[1] > us[2])
		return tfb_fail(b, n[0], p[0], "runtime %" PRIu64 "us, dl_deadline %" PRIu64 "us, dl_period %" PRIu64
					       "us (accepted: runtime <= dl_deadline <= dl_period)", us[0], us[1], us[2]);
	s->dl_runtime_ns = us[0] * 1000, s->dl_deadline_ns = us[1] * 1000, s->dl_period_ns = us[2] * 1000;
	return 0;
}

static int read_sched(struct tfb *b, const struct jt_node *o, const char *path, struct tf_thread *th)
{
	struct sched_setting *s = &th->sched;
	bool policy = false;
	char p[TFB_PATH_MAX];
	int64_t v;
	uint64_t slice_us;
	memset(s, 0, sizeof(*s));
	if (read_policy(b, o, path, s, &policy))
		return -1;
	const struct jt_node *n = member(o, "priority", path, p);
	if (n && (policy_fits(b, n, p, s, policy, true) ||
		  tfb_int(b, n, p, 1, TF_RT_PRIO_MAX, TF_RT_PRIO_RANGE ": " TF_RT_PRIO_WHY, &v)))
		return -1;
	if (n)
		s->rt_prio = (int)v;
	else if (s->kind == SP_FIFO || s->kind == SP_RR)
		return tfb_fail(b, jt_get(o, "policy"), tfb_path_key(p, path, "policy"),
				"%s without a priority (accepted: \"priority\" " TF_RT_PRIO_RANGE " beside it)", sched_kind_name(s->kind));
	bool any = policy || n;
	if ((n = member(o, "nice", path, p))) {
		if (policy_fits(b, n, p, s, policy, false) || tfb_int(b, n, p, -20, 19, "-20..19", &v))
			return -1;
		s->nice = (int)v, any = true;
	}
	if ((n = member(o, "slice", path, p))) {
		if (policy_fits(b, n, p, s, policy, false) || ntime(b, n, p, 100, 100000, &slice_us))
			return -1;
		s->slice_ns = slice_us * 1000, any = true;
	}
	if (read_dl(b, o, path, s, &policy))
		return -1;
	th->has_sched = any;
	return 0;
}

static int read_thread_keys(struct tfb *b, struct nfile *f, unsigned i, const struct jt_node *o)
{
	struct nthread *t = &f->th[i];
	char p[TFB_PATH_MAX], v[96];
	const struct jt_node *name = member(o, "name", t->path, p);
	if (!name)
		return tfb_fail(b, o, t->path, "no \"name\" (accepted: 1..15 of A-Za-z0-9_.-)");
	if (name->kind != JT_STRING || !tfb_name_ok(name->text))
		return tfb_fail(b, name, p, "%s (accepted: 1..15 of A-Za-z0-9_.-)", tfb_value(name, v, sizeof(v)));
	for (unsigned j = 0; j < i; j++)
		if (strcmp(jt_get(f->th[j].node, "name")->text, name->text) == 0)
			return tfb_fail(b, name, p, "\"%s\" names %s too (accepted: a name of its own)", name->text, f->th[j].path);
	struct tf_thread *th = &b->task->threads[i];
	snprintf(th->name, sizeof(th->name), "%s", name->text);
	const struct jt_node *w = member(o, "work", t->path, p);
	if (!w)
		return tfb_fail(b, o, t->path, "no \"work\" (accepted: a time, or {\"uniform\": [MIN, MAX]})");
	if (read_work(b, w, p, t) || read_sched(b, o, t->path, th))
		return -1;
	const struct jt_node *c = member(o, "cpus", t->path, p);
	if (c && tfb_cpus(b, c, p, true, th))
		return -1;
	t->trig_node = member(o, "trigger", t->path, p);
	if (!t->trig_node)
		return tfb_fail(b, o, t->path, "no \"trigger\" (accepted: \"period\", {\"after\": [NAMES]} or {\"every\": TIME})");
	return 0;
}

static int read_threads(struct tfb *b, struct nfile *f, const struct jt_node *a)
{
	char v[96];
	if (a->kind != JT_ARRAY)
		return tfb_fail(b, a, "threads", "%s (accepted: an array of 1..%d threads)", tfb_value(a, v, sizeof(v)),
				TF_MAX_THREADS);
	if (a->n < 1 || a->n > TF_MAX_THREADS)
		return tfb_fail(b, a, "threads", "%u threads (accepted: 1..%d)", a->n, TF_MAX_THREADS);
	unsigned i = 0;
	for (const struct jt_node *o = a->first; o; o = o->next, i++) {
		struct nthread *t = &f->th[i];
		t->node = o;
		tfb_path_index(t->path, "threads", i);
		if (tfb_want(b, o, t->path, JT_OBJECT, "an object: a thread") || tfb_no_duplicates(b, o, t->path) ||
		    tfb_known_keys(b, o, t->path, thread_keys) || read_thread_keys(b, f, i, o))
			return -1;
		f->n = i + 1;
	}
	b->task->n_threads = f->n;
	for (i = 0; i < f->n; i++) {
		char p[TFB_PATH_MAX];
		if (read_trigger(b, f, &f->th[i], tfb_path_key(p, f->th[i].path, "trigger")))
			return -1;
	}
	return 0;
}

/* Depth-first search for a cycle of after (an edge i -> j: j follows i).  state: 0 unseen, 1 on
 * the path, 2 done.  On a cycle, writes it ("a -> b -> a") into cyc and returns the thread it
 * closes at. */
static int find_cycle(const struct tfb *b, const struct nfile *f, unsigned i, unsigned char *state, unsigned *stack,
		      unsigned depth, char *cyc, size_t len)
{
	state[i] = 1, stack[depth] = i;
	for (unsigned q = 0; q < f->th[i].n_after; q++) {
		unsigned j = f->th[i].after[q];
		if (state[j] == 1) {
			unsigned from = 0;
			while (stack[from] != j)
				from++;
			/* the stack follows "after" backwards: said the way the wake-ups go, from j */
			size_t o = (size_t)snprintf(cyc, len, "%s", b->task->threads[j].name);
			for (unsigned k = depth; k > from && o < len; k--)
				o += (size_t)snprintf(cyc + o, len - o, " -> %s", b->task->threads[stack[k]].name);
			if (o < len)
				snprintf(cyc + o, len - o, " -> %s", b->task->threads[j].name);
			return (int)j;
		}
		if (state[j] == 0) {
			int c = find_cycle(b, f, j, state, stack, depth + 1, cyc, len);
			if (c >= 0)
				return c;
		}
	}
	state[i] = 2;
	return -1;
}

static bool follows(const struct nthread *t, unsigned i)
{
	for (unsigned q = 0; q < t->n_after; q++)
		if (t->after[q] == i)
			return true;
	return false;
}

/* Every after thread is the period's: it follows, directly or not, only threads the period
 * thread reaches (never an every thread, which wakes nobody). */
static int check_reach(struct tfb *b, const struct nfile *f)
{
	bool reach[TF_MAX_THREADS] = { false };
	char p[TFB_PATH_MAX];
	reach[f->period_thread] = true;
	for (bool grew = true; grew;) {
		grew = false;
		for (unsigned i = 0; i < f->n; i++) {
			bool all = f->th[i].trig == TRIG_AFTER;
			for (unsigned q = 0; all && q < f->th[i].n_after; q++)
				all = reach[f->th[i].after[q]];
			if (all && !reach[i])
				reach[i] = grew = true;
		}
	}
	for (unsigned i = 0; i < f->n; i++)
		if (f->th[i].trig == TRIG_AFTER && !reach[i])
			return tfb_fail(b, f->th[i].trig_node, tfb_path_key(p, f->th[i].path, "trigger"),
					"\"%s\" follows a thread the period does not reach (an \"every\" thread, or one after it); "
					"accepted: after threads of the period's chain", b->task->threads[i].name);
	return 0;
}

static int check_graph(struct tfb *b, struct nfile *f, const struct jt_node *threads)
{
	int period = -1;
	char p[TFB_PATH_MAX];
	for (unsigned i = 0; i < f->n; i++)
		if (f->th[i].trig == TRIG_PERIOD) {
			if (period >= 0)
				return tfb_fail(b, f->th[i].trig_node, tfb_path_key(p, f->th[i].path, "trigger"),
						"a second \"period\" thread (%s is one; accepted: exactly one)", f->th[period].path);
			period = (int)i;
		}
	if (period < 0)
		return tfb_fail(b, threads, "threads", "no thread has the trigger \"period\" (accepted: exactly one)");
	f->period_thread = (unsigned)period;
	unsigned char state[TF_MAX_THREADS] = { 0 };
	unsigned stack[TF_MAX_THREADS];
	char cyc[TF_MAX_THREADS * TF_NAME_MAX + 8];
	for (unsigned i = 0; i < f->n; i++) {
		int c = state[i] ? -1 : find_cycle(b, f, i, state, stack, 0, cyc, sizeof(cyc));
		if (c >= 0)
			return tfb_fail(b, f->th[c].trig_node, tfb_path_key(p, f->th[c].path, "trigger"),
					"the threads' \"after\" make a cycle: %s (accepted: a graph without cycles)", cyc);
	}
	return check_reach(b, f);
}

/* [TF_RUN, TF_WAKE each follower..., TF_CLOSE if none] after the thread's waiting step. */
static int emit_chain_tail(struct tfb *b, struct nfile *f, unsigned i)
{
	struct nthread *t = &f->th[i];
	struct tf_step *s = tfb_step(b, t->node, t->path, TF_RUN);
	if (!s)
		return -1;
	s->us = t->work_us, s->us_max = t->work_max_us;
	bool sink = true;
	for (unsigned j = 0; j < f->n; j++)
		if (f->th[j].trig == TRIG_AFTER && follows(&f->th[j], i)) {
			if (!(s = tfb_step(b, f->th[j].node, t->path, TF_WAKE)))
				return -1;
			s->thread = (uint16_t)j, sink = false;
		}
	if (sink && !tfb_step(b, t->node, t->path, TF_CLOSE))
		return -1;
	b->task->closers += sink;
	b->task->work_per_period_us += t->work_max_us ? (t->work_us + t->work_max_us) / 2 : t->work_us;
	return 0;
}

static int emit_thread(struct tfb *b, struct nfile *f, unsigned i)
{
	struct nthread *t = &f->th[i];
	struct tf_thread *th = &b->task->threads[i];
	struct tf_phase *ph = tfb_phase(b, t->node, t->path, -1);
	struct tf_step *s;
	if (!ph)
		return -1;
	th->first_phase = b->task->n_phases - 1, th->n_phases = 1, th->loops = -1;
	if (t->trig == TRIG_EVERY) {
		int r = tfb_resource(b, t->trig_node, t->path, th->name, TF_RES_TIMER, t->every_us);
		if (r < 0 || !(s = tfb_step(b, t->trig_node, t->path, TF_TIMER)))
			return -1;
		s->res = (uint16_t)r;
		if (!(s = tfb_step(b, t->node, t->path, TF_RUN)))
			return -1;
		s->us = t->work_us, s->us_max = t->work_max_us;
	} else {
		if (!(s = tfb_step(b, t->trig_node, t->path, t->trig == TRIG_PERIOD ? TF_PERIOD : TF_JOIN)))
			return -1;
		s->count = t->trig == TRIG_AFTER ? t->n_after : 0;
		if (emit_chain_tail(b, f, i))
			return -1;
	}
	tfb_phase_end(b, ph);
	return 0;
}

static int read_top(struct tfb *b, const struct jt_node *root)
{
	struct tf_task *task = b->task;
	char v[96];
	const struct jt_node *n = jt_get(root, "interbench_task");
	if (n->kind != JT_NUMBER || !n->is_int || n->i != 1)
		return tfb_fail(b, n, "interbench_task", "%s (accepted: 1, this format's version)", tfb_value(n, v, sizeof(v)));
	snprintf(task->name, sizeof(task->name), "File");
	if ((n = jt_get(root, "name"))) {
		if (n->kind != JT_STRING || !tfb_name_ok(n->text))
			return tfb_fail(b, n, "name", "%s (accepted: 1..15 of A-Za-z0-9_.-)", tfb_value(n, v, sizeof(v)));
		snprintf(task->name, sizeof(task->name), "%s", n->text);
	}
	if (!(n = jt_get(root, "period")))
		return tfb_fail(b, root, "period", "missing (accepted: a time, 100us..10s)");
	if (ntime(b, n, "period", TF_PERIOD_MIN_US, TF_TIME_MAX_US, &task->period_us))
		return -1;
	task->deadline_us = task->period_us;
	if ((n = jt_get(root, "deadline"))) {
		if (ntime(b, n, "deadline", 1, TF_TIME_MAX_US, &task->deadline_us))
			return -1;
		if (task->deadline_us > task->period_us)
			return tfb_fail(b, n, "deadline", "%" PRIu64 "us is longer than the period, %" PRIu64
							  "us (accepted: 1us..the period)", task->deadline_us, task->period_us);
	}
	if ((n = jt_get(root, "work_as"))) {
		if (n->kind != JT_STRING || (strcmp(n->text, "cpu_time") && strcmp(n->text, "loops")))
			return tfb_fail(b, n, "work_as", "%s (accepted: \"cpu_time\" or \"loops\")", tfb_value(n, v, sizeof(v)));
		task->work_as_loops = strcmp(n->text, "loops") == 0;
	}
	if ((n = jt_get(root, "frames"))) {
		if (n->kind != JT_BOOL)
			return tfb_fail(b, n, "frames", "%s (accepted: true or false)", tfb_value(n, v, sizeof(v)));
		task->frames = n->boolean;
	}
	return 0;
}

int tf_read_native(struct tfb *b, const struct jt_doc *doc)
{
	struct nfile nf, *f = &nf;
	memset(f, 0, sizeof(*f));
	const struct jt_node *root = doc->root, *threads;
	if (doc->trailing_comma_line)
		return tfb_fail(b, &(struct jt_node){ .line = doc->trailing_comma_line }, "",
				"a comma before a closing bracket is not JSON (accepted: RFC 8259 JSON in interbench's format)");
	if (doc->comment_line)
		return tfb_fail(b, &(struct jt_node){ .line = doc->comment_line }, "",
				"a comment is not JSON (accepted: RFC 8259 JSON in interbench's format)");
	if (tfb_no_duplicates(b, root, "") || tfb_known_keys(b, root, "", top_keys) || read_top(b, root))
		return -1;
	if (!(threads = jt_get(root, "threads")))
		return tfb_fail(b, root, "threads", "missing (accepted: an array of 1..%d threads)", TF_MAX_THREADS);
	if (read_threads(b, f, threads) || check_graph(b, f, threads))
		return -1;
	b->task->root = f->period_thread;
	for (unsigned i = 0; i < f->n; i++)
		if (emit_thread(b, f, i))
			return -1;
	return 0;
}
