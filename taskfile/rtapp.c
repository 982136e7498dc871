/* rt-app's JSON (doc/task-file.md, "rt-app's JSON"; rt-app's doc/tutorial.txt is the reference of
 * every key) compiled into the model (taskfile/model.h).  Its events are read in file order, a
 * key given twice kept twice ("run", "resume", "run" is three steps), a key with a suffix
 * ("run1", as workgen writes them) the same event, as rt-app matches an event by its name's
 * start.  Each task is a thread (instance N: N threads, NAME-0...); its phases are the model's.
 *
 * The period: the first task in file order with a timer (its first instance) is the root: it
 * starts with a phase run once, [TF_PERIOD], and each of its timers becomes [TF_CLOSE,
 * TF_PERIOD], so a period is met when the root reached its next timer before the tick (rt-app's
 * slack was not negative).  Every other timer is a TF_TIMER on its own resource.  A file with no
 * timer has no period: it compiles periodless (taskfile/model.h), to run as a load only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "taskfile/build.h"

/* The events rt-app knows that interbench has no step for, and why. */
static const struct { const char *prefix, *why; } refused_events[] = {
	{ "memrun", "interbench has no memory-bound work step" },
	{ "mem", "interbench has no memory-bound work step" },
	{ "iorun", "interbench has no I/O step (its loads do I/O)" },
	{ "yield", "interbench has no yield step" },
	{ "fork", "interbench creates its threads before the run, never during it" },
	{ "sem_post", "interbench has no semaphore step" },
	{ "sem_wait", "interbench has no semaphore step" },
};

/* The keys of a task that are not events, and those refused with why. */
static const char *const task_keys[] = { "instance", "policy", "priority", "dl-runtime", "dl-period", "dl-deadline",
					 "cpus", "delay", "loop", "phases", NULL };
static const struct { const char *key, *why; } refused_keys[] = {
	{ "lock_pages", "rt-app's global setting, not a task's (interbench locks its memory itself)" },
	{ "util_min", "interbench sets no utilization clamp" },
	{ "util_max", "interbench sets no utilization clamp" },
	{ "taskgroup", "interbench places tasks in cgroups by --bench-cgroup" },
	{ "nodes_membind", "interbench binds no memory to NUMA nodes" },
};

/* rt-app's global keys: run settings of rt-app's own that interbench's options give. */
static const char *const global_ignored[] = { "duration", "calibration", "logdir", "log_basename", "log_size", "ftrace",
					      "gnuplot", "lock_pages", "frag", "io_device", "mem_buffer_size",
					      "cumulative_slack", NULL };

static const char *const policy_names[] = { [SP_OTHER] = "SCHED_OTHER", [SP_BATCH] = "SCHED_BATCH",
					    [SP_IDLE] = "SCHED_IDLE", [SP_FIFO] = "SCHED_FIFO",
					    [SP_RR] = "SCHED_RR", [SP_DEADLINE] = "SCHED_DEADLINE" };

/* A task of the file. */
struct rtask {
	const struct jt_node *node;
	char path[TFB_PATH_MAX];
	unsigned instances, first_thread;
	bool has_timer;
};

/* The compilation's state. */
struct rctx {
	struct tfb *b;
	struct rtask tasks[TF_MAX_THREADS];
	unsigned n_tasks;
	int default_policy;              /* -1: not given */
	int root;                        /* the root thread, -1 before it is known */
	char period_ref[TF_RES_NAME_MAX];
	char step_path[TF_MAX_STEPS][TFB_PATH_MAX];
	unsigned step_thread[TF_MAX_STEPS];
};

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int policy_of(const struct jt_node *n)
{
	for (int k = 0; k < SP_KINDS; k++)
		if (n->kind == JT_STRING && strcmp(n->text, policy_names[k]) == 0)
			return k;
	return -1;
}

static int bad_policy(struct tfb *b, const struct jt_node *n, const char *path)
{
	char v[96];
	return tfb_fail(b, n, path, "%s (accepted: SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR, "
				    "SCHED_DEADLINE)", tfb_value(n, v, sizeof(v)));
}

static int read_global(struct rctx *c, const struct jt_node *g)
{
	struct tfb *b = c->b;
	char p[TFB_PATH_MAX], v[96];
	if (tfb_want(b, g, "global", JT_OBJECT, "an object"))
		return -1;
	for (const struct jt_node *m = g->first; m; m = m->next) {
		bool ignored = false;
		for (unsigned i = 0; global_ignored[i] && !ignored; i++)
			ignored = strcmp(m->key, global_ignored[i]) == 0;
		tfb_path_key(p, "global", m->key);
		if (ignored)
			continue;
		if (strcmp(m->key, "default_policy") == 0) {
			if ((c->default_policy = policy_of(m)) < 0)
				return bad_policy(b, m, p);
		} else if (strcmp(m->key, "pi_enabled") == 0) {
			if (m->kind != JT_BOOL || m->boolean)
				return tfb_fail(b, m, p, "%s (accepted: false: interbench's mutexes do not inherit priority)",
						tfb_value(m, v, sizeof(v)));
		} else {
			return tfb_fail(b, m, p, "unknown key (accepted: default_policy, pi_enabled false, and rt-app's run "
						 "settings duration, calibration, logdir, log_basename, log_size, ftrace, gnuplot, "
						 "lock_pages, frag, io_device, mem_buffer_size, cumulative_slack, which "
						 "interbench's options give)");
		}
	}
	return 0;
}

static int read_resources(struct rctx *c, const struct jt_node *r)
{
	static const char *const types[] = { "mutex", "wait", "signal", "broadcast", "barrier", "timer", NULL };
	static const char *const keys[] = { "type", NULL };
	struct tfb *b = c->b;
	char p[TFB_PATH_MAX], pt[TFB_PATH_MAX], v[96];
	if (tfb_want(b, r, "resources", JT_OBJECT, "an object of resources, each {\"type\": TYPE}"))
		return -1;
	for (const struct jt_node *m = r->first; m; m = m->next) {
		tfb_path_key(p, "resources", m->key);
		if (tfb_want(b, m, p, JT_OBJECT, "{\"type\": TYPE}") || tfb_known_keys(b, m, p, keys))
			return -1;
		const struct jt_node *t = jt_get(m, "type");
		bool ok = false;
		for (unsigned i = 0; t && t->kind == JT_STRING && types[i] && !ok; i++)
			ok = strcmp(t->text, types[i]) == 0;
		if (!ok)
			return tfb_fail(b, t ? t : m, tfb_path_key(pt, p, "type"), "%s (accepted: mutex, wait, signal, "
					"broadcast, barrier, timer)", t ? tfb_value(t, v, sizeof(v)) : "missing");
	}
	return 0;
}

/* Whether an event key names a timer: the task has a timer, and may be the root. */
static bool has_timer(const struct jt_node *o)
{
	for (const struct jt_node *m = o->first; m; m = m->next) {
		if (starts(m->key, "timer"))
			return true;
		if (strcmp(m->key, "phases") == 0 && m->kind == JT_OBJECT)
			for (const struct jt_node *ph = m->first; ph; ph = ph->next)
				if (ph->kind == JT_OBJECT && has_timer(ph))
					return true;
	}
	return false;
}

static int keys_ok(struct tfb *b, const struct jt_node *o, const char *path, bool is_task);

static int read_tasks(struct rctx *c, const struct jt_node *tasks)
{
	struct tfb *b = c->b;
	unsigned total = 0;
	if (!tasks)
		return tfb_fail(b, NULL, "tasks", "missing (accepted: an object of tasks)");
	if (tfb_want(b, tasks, "tasks", JT_OBJECT, "an object of tasks"))
		return -1;
	if (tasks->n == 0)
		return tfb_fail(b, tasks, "tasks", "no task (accepted: 1..%d threads)", TF_MAX_THREADS);
	for (const struct jt_node *t = tasks->first; t; t = t->next) {
		char p[TFB_PATH_MAX], pi[TFB_PATH_MAX];
		int64_t inst = 1;
		tfb_path_key(p, "tasks", t->key);
		if (tfb_want(b, t, p, JT_OBJECT, "an object: a task"))
			return -1;
		const struct jt_node *in = jt_get(t, "instance");
		if (in && tfb_int(b, in, tfb_path_key(pi, p, "instance"), 1, TF_MAX_THREADS, "1..32", &inst))
			return -1;
		total += (unsigned)inst;
		if (total > TF_MAX_THREADS) {
			unsigned all = 0;
			for (const struct jt_node *u = tasks->first; u; u = u->next) {
				const struct jt_node *ui = u->kind == JT_OBJECT ? jt_get(u, "instance") : NULL;
				all += ui && ui->kind == JT_NUMBER && ui->is_int && ui->i > 0 && ui->i <= 1000000 ? (unsigned)ui->i : 1;
			}
			return tfb_fail(b, tasks, "tasks", "%u threads (accepted: 1..%d; each instance is one)", all,
					TF_MAX_THREADS);
		}
		struct rtask *rt = &c->tasks[c->n_tasks++];
		rt->node = t, rt->instances = (unsigned)inst;
		snprintf(rt->path, sizeof(rt->path), "%s", p);
		rt->has_timer = has_timer(t);
		if (keys_ok(b, t, p, true))
			return -1;
	}
	return 0;
}

static int read_sched(struct rctx *c, struct rtask *rt, struct tf_thread *th)
{
	struct tfb *b = c->b;
	struct sched_setting *s = &th->sched;
	char p[TFB_PATH_MAX];
	int64_t v;
	const struct jt_node *pol = jt_get(rt->node, "policy"), *pri = jt_get(rt->node, "priority");
	int k = c->default_policy >= 0 ? c->default_policy : SP_OTHER;
	if (pol && (k = policy_of(pol)) < 0)
		return bad_policy(b, pol, tfb_path_key(p, rt->path, "policy"));
	memset(s, 0, sizeof(*s));
	s->kind = (enum sched_kind)k;
	th->has_sched = pol || pri || c->default_policy > SP_OTHER;
	if (pri) {
		tfb_path_key(p, rt->path, "priority");
		if (k == SP_IDLE || k == SP_DEADLINE)
			return tfb_fail(b, pri, p, "a priority with %s (accepted: with SCHED_OTHER, SCHED_BATCH: a nice level, "
						   "-20..19; with SCHED_FIFO, SCHED_RR: " TF_RT_PRIO_RANGE ")", policy_names[k]);
		bool rt = k == SP_FIFO || k == SP_RR;
		if (tfb_int(b, pri, p, rt ? 1 : -20, rt ? TF_RT_PRIO_MAX : 19,
			    rt ? TF_RT_PRIO_RANGE " with SCHED_FIFO and SCHED_RR: " TF_RT_PRIO_WHY :
					 "a nice level, -20..19, with SCHED_OTHER and SCHED_BATCH", &v))
			return -1;
		*(rt ? &s->rt_prio : &s->nice) = (int)v;
	} else if (k == SP_FIFO || k == SP_RR) {
		s->rt_prio = 10;   /* rt-app's default priority of the realtime classes (doc/tutorial.txt) */
	}
	return 0;
}

static int read_dl(struct rctx *c, struct rtask *rt, struct tf_thread *th)
{
	static const char *const keys[] = { "dl-runtime", "dl-period", "dl-deadline" };
	struct tfb *b = c->b;
	char p[3][TFB_PATH_MAX];
	const struct jt_node *n[3];
	int64_t us[3] = { 0, 0, 0 };
	for (int i = 0; i < 3; i++) {
		n[i] = jt_get(rt->node, keys[i]);
		tfb_path_key(p[i], rt->path, keys[i]);
		if (n[i] && th->sched.kind != SP_DEADLINE)
			return tfb_fail(b, n[i], p[i], "a deadline reservation with %s (accepted: with SCHED_DEADLINE)",
					policy_names[th->sched.kind]);
		if (n[i] && tfb_int(b, n[i], p[i], 1, TF_TIME_MAX_US, "microseconds, 1..10000000", &us[i]))
			return -1;
	}
	if (th->sched.kind != SP_DEADLINE)
		return 0;
	if (!n[0])
		return tfb_fail(b, rt->node, p[0], "missing with SCHED_DEADLINE (accepted: the runtime, microseconds)");
	if (!n[1])
		us[1] = us[0];
	if (!n[2])
		us[2] = us[1];
	if (us[0] > us[2] || us[2] > us[1])
		return tfb_fail(b, n[0], p[0], "%" PRId64 ", dl-deadline %" PRId64 ", dl-period %" PRId64
					       " (accepted: dl-runtime <= dl-deadline <= dl-period)", us[0], us[2], us[1]);
	th->sched.dl_runtime_ns = (uint64_t)us[0] * 1000;
	th->sched.dl_period_ns = (uint64_t)us[1] * 1000;
	th->sched.dl_deadline_ns = (uint64_t)us[2] * 1000;
	return 0;
}

/* A loop count: -1 (for ever) or 1 and more. */
static int read_loop(struct tfb *b, const struct jt_node *n, const char *path, int64_t *loops)
{
	char v[96];
	if (n->kind != JT_NUMBER || !n->is_int || n->i == 0 || n->i < -1)
		return tfb_fail(b, n, path, "%s (accepted: -1, for ever, or a count, 1 and more)", tfb_value(n, v, sizeof(v)));
	*loops = n->i;
	return 0;
}

/* A string member of a wait/sync/timer object. */
static const char *obj_string(struct tfb *b, const struct jt_node *o, const char *path, const char *key, const char *what)
{
	char p[TFB_PATH_MAX];
	const struct jt_node *n = jt_get(o, key);
	tfb_path_key(p, path, key);
	if (!n) {
		tfb_fail(b, o, p, "missing (accepted: %s)", what);
		return NULL;
	}
	return tfb_want(b, n, p, JT_STRING, what) ? NULL : n->text;
}

/* The current thread being compiled. */
struct cur {
	struct rctx *c;
	struct rtask *rt;
	unsigned thread;
};

static struct tf_step *step(struct cur *k, const struct jt_node *n, const char *path, enum tf_op op)
{
	struct tf_step *s = tfb_step(k->c->b, n, path, op);
	if (s) {
		unsigned i = (unsigned)(s - k->c->b->task->steps);
		snprintf(k->c->step_path[i], TFB_PATH_MAX, "%s", path);
		k->c->step_thread[i] = k->thread;
	}
	return s;
}

static int ev_time(struct cur *k, const struct jt_node *n, const char *path, enum tf_op op)
{
	int64_t us;
	if (tfb_int(k->c->b, n, path, 0, TF_TIME_MAX_US, "microseconds, 0..10000000", &us))
		return -1;
	struct tf_step *s = step(k, n, path, op);
	if (s)
		s->us = (uint64_t)us;
	return s ? 0 : -1;
}

/* A step on one resource named by a string value. */
static int ev_named(struct cur *k, const struct jt_node *n, const char *path, enum tf_op op, enum tf_res_kind kind,
		    const char *what)
{
	struct tfb *b = k->c->b;
	if (tfb_want(b, n, path, JT_STRING, what))
		return -1;
	const char *name = n->text;
	if (op == TF_SUSPEND && !*name)
		name = k->rt->node->key;   /* what workgen writes for a bare "suspend": the task's name */
	int r = tfb_resource(b, n, path, name, kind, 0);
	struct tf_step *s = r < 0 ? NULL : step(k, n, path, op);
	if (s)
		s->res = (uint16_t)r;
	return s ? 0 : -1;
}

static int ev_wait(struct cur *k, const struct jt_node *n, const char *path, enum tf_op op)
{
	static const char *const keys[] = { "ref", "mutex", NULL };
	struct tfb *b = k->c->b;
	if (tfb_want(b, n, path, JT_OBJECT, "{\"ref\": CONDITION, \"mutex\": MUTEX}") || tfb_known_keys(b, n, path, keys))
		return -1;
	const char *ref = obj_string(b, n, path, "ref", "a condition's name");
	const char *mtx = ref ? obj_string(b, n, path, "mutex", "a mutex's name") : NULL;
	if (!mtx)
		return -1;
	int rc = tfb_resource(b, n, path, ref, TF_RES_COND, 0), rm = rc < 0 ? -1 : tfb_resource(b, n, path, mtx, TF_RES_MUTEX, 0);
	struct tf_step *s = rm < 0 ? NULL : step(k, n, path, op);
	if (s)
		s->res = (uint16_t)rc, s->res2 = (uint16_t)rm;
	return s ? 0 : -1;
}

static int timer_root(struct cur *k, const struct jt_node *n, const char *path, const char *ref, uint64_t period)
{
	struct rctx *c = k->c;
	struct tf_task *t = c->b->task;
	size_t len = strlen(ref);
	if (len >= TF_RES_NAME_MAX)
		return tfb_fail(c->b, n, path, "a timer name of %zu bytes (accepted: 1..%d bytes)", len, TF_RES_NAME_MAX - 1);
	if (!c->period_ref[0]) {
		memcpy(c->period_ref, ref, len + 1);
		t->period_us = t->deadline_us = period;
	} else if (strcmp(c->period_ref, ref) != 0) {
		return tfb_fail(c->b, n, path, "a second timer, \"%s\", in the period's task (its timer \"%s\" gives the "
					      "period; accepted: one timer in it)", ref, c->period_ref);
	} else if (period != t->period_us) {
		return tfb_fail(c->b, n, path, "a period of %" PRIu64 "us, %" PRIu64 "us before (accepted: one period per "
					      "timer)", period, t->period_us);
	}
	return step(k, n, path, TF_CLOSE) && step(k, n, path, TF_PERIOD) ? 0 : -1;
}

static int ev_timer(struct cur *k, const struct jt_node *n, const char *path)
{
	static const char *const keys[] = { "ref", "period", "mode", NULL };
	struct tfb *b = k->c->b;
	char p[TFB_PATH_MAX], name[2 * TF_RES_NAME_MAX];
	int64_t period;
	if (tfb_want(b, n, path, JT_OBJECT, "{\"ref\": NAME, \"period\": MICROSECONDS}") || tfb_known_keys(b, n, path, keys))
		return -1;
	const char *ref = obj_string(b, n, path, "ref", "a timer's name");
	const struct jt_node *pn = jt_get(n, "period"), *mode = jt_get(n, "mode");
	if (!ref)
		return -1;
	if (!pn)
		return tfb_fail(b, n, tfb_path_key(p, path, "period"), "missing (accepted: microseconds, 100..10000000)");
	if (tfb_int(b, pn, tfb_path_key(p, path, "period"), TF_PERIOD_MIN_US, TF_TIME_MAX_US, "microseconds, 100..10000000",
		    &period))
		return -1;
	if (mode && (mode->kind != JT_STRING || (strcmp(mode->text, "relative") && strcmp(mode->text, "absolute")))) {
		char v[96];
		return tfb_fail(b, mode, tfb_path_key(p, path, "mode"), "%s (accepted: \"relative\" or \"absolute\")",
				tfb_value(mode, v, sizeof(v)));
	}
	/* "unique..." is the thread's own timer (each instance its own), any other name shared */
	if (starts(ref, "unique"))
		snprintf(name, sizeof(name), "%s@%s", ref, b->task->threads[k->thread].name);
	else
		snprintf(name, sizeof(name), "%s", ref);
	if ((int)k->thread == k->c->root)
		return timer_root(k, n, path, name, (uint64_t)period);
	if (strcmp(name, k->c->period_ref) == 0 && (uint64_t)period != b->task->period_us)
		return tfb_fail(b, n, path, "timer \"%s\" with a period of %" PRId64 "us, the period's timer of %" PRIu64
					    "us (accepted: one period per timer)", name, period, b->task->period_us);
	int r = tfb_resource(b, n, path, name, TF_RES_TIMER, (uint64_t)period);
	struct tf_step *s = r < 0 ? NULL : step(k, n, path, TF_TIMER);
	if (s)
		s->res = (uint16_t)r;
	return s ? 0 : -1;
}

/* The events that map, by the start of their key (rt-app matches them so: "run1" is a run;
 * "runtime" is looked for before "run", "unlock" before "lock"). */
enum ev_form { EV_TIME, EV_NAMED, EV_WAIT, EV_TIMER };
static const struct evdef {
	const char *prefix;
	enum tf_op op;
	enum ev_form form;
	enum tf_res_kind kind;
	const char *what;
} events[] = {
	{ "runtime", TF_RUNTIME, EV_TIME, 0, NULL },
	{ "run", TF_RUN, EV_TIME, 0, NULL },
	{ "sleep", TF_SLEEP, EV_TIME, 0, NULL },
	{ "timer", TF_TIMER, EV_TIMER, 0, NULL },
	{ "resume", TF_RESUME, EV_NAMED, TF_RES_EVENT, "the name of the event resumed" },
	{ "suspend", TF_SUSPEND, EV_NAMED, TF_RES_EVENT, "the name of the event waited for" },
	{ "unlock", TF_UNLOCK, EV_NAMED, TF_RES_MUTEX, "a mutex's name" },
	{ "lock", TF_LOCK, EV_NAMED, TF_RES_MUTEX, "a mutex's name" },
	{ "signal", TF_SIGNAL, EV_NAMED, TF_RES_COND, "a condition's name" },
	{ "broad", TF_BROADCAST, EV_NAMED, TF_RES_COND, "a condition's name" },
	{ "barrier", TF_BARRIER, EV_NAMED, TF_RES_BARRIER, "a barrier's name" },
	{ "wait", TF_WAIT, EV_WAIT, 0, NULL },
	{ "sync", TF_SYNC, EV_WAIT, 0, NULL },
};

static const struct evdef *find_event(const char *key)
{
	if (strcmp(key, "lock_pages") == 0)
		return NULL;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (starts(key, events[i].prefix))
			return &events[i];
	return NULL;
}

/* The refused event key starts with, or NULL. */
static const char *refused_event(const char *key)
{
	for (size_t i = 0; i < sizeof(refused_events) / sizeof(refused_events[0]); i++)
		if (starts(key, refused_events[i].prefix))
			return refused_events[i].why;
	return NULL;
}

/* One event: key's step(s), or a refusal.  Returns 1 when key is not an event. */
static int event(struct cur *k, const struct jt_node *n, const char *path)
{
	const char *why = refused_event(n->key);
	if (why)
		return tfb_fail(k->c->b, n, path, "rt-app's event does not map (%s)", why);
	const struct evdef *e = find_event(n->key);
	if (!e)
		return 1;
	switch (e->form) {
	case EV_TIME:
		return ev_time(k, n, path, e->op);
	case EV_NAMED:
		return ev_named(k, n, path, e->op, e->kind, e->what);
	case EV_WAIT:
		return ev_wait(k, n, path, e->op);
	default:
		return ev_timer(k, n, path);
	}
}

/* Whether key names an event rt-app knows (by its start, as rt-app matches them). */
static bool event_key(const char *key)
{
	return refused_event(key) || find_event(key);
}

static int refused_key(struct tfb *b, const struct jt_node *m, const char *path)
{
	for (size_t i = 0; i < sizeof(refused_keys) / sizeof(refused_keys[0]); i++)
		if (strcmp(m->key, refused_keys[i].key) == 0)
			return tfb_fail(b, m, path, "does not map (%s)", refused_keys[i].why);
	return 0;
}

/* The keys of a task (is_task) or of one of its phases: each an event that maps, or a key of its
 * own; the rest refused, naming why. */
static int keys_ok(struct tfb *b, const struct jt_node *o, const char *path, bool is_task)
{
	static const char events_list[] = "the events run, runtime, sleep, timer, resume, suspend, lock, unlock, signal, "
					  "broad, wait, sync, barrier";
	for (const struct jt_node *m = o->first; m; m = m->next) {
		char p[TFB_PATH_MAX];
		const char *why = refused_event(m->key);
		tfb_path_key(p, path, m->key);
		if (refused_key(b, m, p))
			return -1;
		if (why)
			return tfb_fail(b, m, p, "rt-app's event does not map (%s)", why);
		bool task_key = false;
		for (unsigned i = 0; task_keys[i] && !task_key; i++)
			task_key = strcmp(m->key, task_keys[i]) == 0;
		if (find_event(m->key) || strcmp(m->key, "loop") == 0 || (task_key && is_task))
			continue;
		if (task_key)
			return tfb_fail(b, m, p, "a task's key in a phase (accepted: in the task: interbench sets a thread's "
						 "scheduling and CPUs once)");
		return tfb_fail(b, m, p, "unknown key (accepted: %s%s)", is_task ? "instance, policy, priority, dl-runtime, "
				"dl-period, dl-deadline, cpus, delay, loop, phases and " : "loop and ", events_list);
	}
	const struct jt_node *phases = is_task ? jt_get(o, "phases") : NULL;
	char pp[TFB_PATH_MAX], p[TFB_PATH_MAX];
	tfb_path_key(pp, path, "phases");
	for (const struct jt_node *ph = phases && phases->kind == JT_OBJECT ? phases->first : NULL; ph; ph = ph->next)
		if (ph->kind == JT_OBJECT && keys_ok(b, ph, tfb_path_key(p, pp, ph->key), false))
			return -1;
	return 0;
}

/* The events of object o (a phase, or a task without phases; its keys checked by keys_ok) as
 * one phase of `loops`. */
static int phase(struct cur *k, const struct jt_node *o, const char *path, int64_t loops)
{
	struct tfb *b = k->c->b;
	struct tf_phase *ph = tfb_phase(b, o, path, loops);
	unsigned events = 0;
	if (!ph)
		return -1;
	for (const struct jt_node *m = o->first; m; m = m->next) {
		char p[TFB_PATH_MAX];
		int rc = event(k, m, tfb_path_key(p, path, m->key));
		if (rc < 0)
			return -1;
		events += rc == 0;
	}
	if (!events)
		return tfb_fail(b, o, path, "no event (accepted: one or more of run, runtime, sleep, timer, resume, suspend, "
					    "lock, unlock, signal, broad, wait, sync, barrier)");
	tfb_phase_end(b, ph);
	return 0;
}


/* The phases of thread k: the root's [TF_PERIOD] first, then the task's phases (or the task as
 * one phase). */
/* A task's "phases": each a phase of its own loop count (1 when it gives none). */
static int phases_of(struct cur *k, const struct jt_node *phases)
{
	struct tfb *b = k->c->b;
	const struct rtask *rt = k->rt;
	char pp[TFB_PATH_MAX], p[TFB_PATH_MAX], pl_path[TFB_PATH_MAX];
	for (const struct jt_node *m = rt->node->first; m; m = m->next)
		if (event_key(m->key))
			return tfb_fail(b, m, tfb_path_key(p, rt->path, m->key), "an event beside \"phases\" (accepted: the "
						"events in the phases; rt-app runs only the phases then)");
	tfb_path_key(pp, rt->path, "phases");
	if (tfb_want(b, phases, pp, JT_OBJECT, "an object of phases"))
		return -1;
	if (phases->n == 0)
		return tfb_fail(b, phases, pp, "no phase (accepted: one or more)");
	for (const struct jt_node *ph = phases->first; ph; ph = ph->next) {
		const struct jt_node *pl;
		int64_t loops = 1;
		tfb_path_key(p, pp, ph->key);
		if (tfb_want(b, ph, p, JT_OBJECT, "an object: a phase") ||
		    ((pl = jt_get(ph, "loop")) && read_loop(b, pl, tfb_path_key(pl_path, p, "loop"), &loops)) ||
		    phase(k, ph, p, loops))
			return -1;
	}
	return 0;
}

static int thread_phases(struct cur *k)
{
	struct tfb *b = k->c->b;
	struct rtask *rt = k->rt;
	struct tf_thread *th = &b->task->threads[k->thread];
	const struct jt_node *phases = jt_get(rt->node, "phases"), *loop = jt_get(rt->node, "loop");
	char p[TFB_PATH_MAX];
	int64_t loops = -1, phase_loops = 1;
	th->first_phase = b->task->n_phases;
	if ((int)k->thread == k->c->root) {
		struct tf_phase *once = tfb_phase(b, rt->node, rt->path, 1);
		if (!once || !step(k, rt->node, rt->path, TF_PERIOD))
			return -1;
		tfb_phase_end(b, once);
		th->once_phases = 1;
	}
	if (loop && read_loop(b, loop, tfb_path_key(p, rt->path, "loop"), phases ? &loops : &phase_loops))
		return -1;
	if (!phases) {
		/* no phases: "loop" counts the task's events (rt-app's doc/tutorial.txt); -1 or none: for ever */
		loops = loop && phase_loops != -1 ? 1 : -1;
		if (phase(k, rt->node, rt->path, phase_loops))
			return -1;
	} else if (phases_of(k, phases)) {
		return -1;
	}
	th->n_phases = b->task->n_phases - th->first_phase;
	th->loops = loops;
	if ((int)k->thread == k->c->root && loops != -1)
		return tfb_fail(b, loop, tfb_path_key(p, rt->path, "loop"), "%" PRId64 " in the period's task (accepted: -1, "
					"or none: the task whose timer gives the period loops for ever, as long as the run)", loops);
	return 0;
}

static int thread_settings(struct cur *k)
{
	struct tfb *b = k->c->b;
	struct rtask *rt = k->rt;
	struct tf_thread *th = &b->task->threads[k->thread];
	char p[TFB_PATH_MAX];
	int64_t delay;
	const struct jt_node *n;
	if (read_sched(k->c, rt, th) || read_dl(k->c, rt, th))
		return -1;
	if ((n = jt_get(rt->node, "cpus")) && tfb_cpus(b, n, tfb_path_key(p, rt->path, "cpus"), false, th))
		return -1;
	if ((n = jt_get(rt->node, "delay"))) {
		if (tfb_int(b, n, tfb_path_key(p, rt->path, "delay"), 0, TF_TIME_MAX_US, "microseconds, 0..10000000", &delay))
			return -1;
		th->delay_us = (uint64_t)delay;
	}
	return 0;
}

/* The task among the first `upto` + 1 (those named so far) thread j is an instance of. */
static const struct rtask *owner(const struct rctx *c, unsigned upto, unsigned j)
{
	unsigned t = 0;
	while (t < upto && c->tasks[t + 1].first_thread <= j)
		t++;
	return &c->tasks[t];
}

/* Thread i of task rt's name: the task's, cut to the kernel's 15 bytes (as the kernel cuts a
 * longer thread name, TASK_COMM_LEN), then "-I" with instance. */
static void thread_name(const struct rtask *rt, unsigned i, char name[TF_NAME_MAX])
{
	char suffix[16] = "";
	if (rt->instances > 1)
		snprintf(suffix, sizeof(suffix), "-%u", i);
	size_t keep = TF_NAME_MAX - 1 - strlen(suffix), len = strlen(rt->node->key);
	if (len > keep)
		len = keep;
	memcpy(name, rt->node->key, len);
	memcpy(name + len, suffix, strlen(suffix) + 1);
}

static int name_threads(struct rctx *c)
{
	struct tfb *b = c->b;
	unsigned n = 0;
	for (unsigned t = 0; t < c->n_tasks; t++) {
		struct rtask *rt = &c->tasks[t];
		const char *key = rt->node->key;
		rt->first_thread = n;
		if (!*key || strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != strlen(key))
			return tfb_fail(b, rt->node, rt->path, "a task name of other characters than A-Za-z0-9_.- (accepted: "
								 "1 or more of them; 15 make a thread's name)");
		for (unsigned i = 0; i < rt->instances; i++, n++) {
			char *name = b->task->threads[n].name;
			thread_name(rt, i, name);
			for (unsigned j = 0; j < n; j++)
				if (strcmp(b->task->threads[j].name, name) == 0)
					return tfb_fail(b, rt->node, rt->path, "the thread name \"%s\" (the task's name cut to "
								 "15 bytes, the kernel's length) is %s's too (accepted: names that "
								 "differ in their first 15 bytes)", name, owner(c, t, j)->path);
		}
	}
	b->task->n_threads = n;
	return 0;
}

static int compile_threads(struct rctx *c)
{
	if (name_threads(c))
		return -1;
	for (unsigned t = 0; t < c->n_tasks; t++)
		if (c->tasks[t].has_timer && c->root < 0)
			c->root = (int)c->tasks[t].first_thread;
	struct tf_task *task = c->b->task;
	task->periodless = c->root < 0;   /* no timer: a load only (rt-app's browser examples) */
	task->root = c->root < 0 ? 0 : (unsigned)c->root;
	if (task->periodless)
		task->period_us = task->deadline_us = TF_PERIODLESS_US;
	for (unsigned t = 0; t < c->n_tasks; t++) {
		struct rtask *rt = &c->tasks[t];
		for (unsigned i = 0; i < rt->instances; i++) {
			struct cur k = { .c = c, .rt = rt, .thread = rt->first_thread + i };
			if (thread_settings(&k) || thread_phases(&k))
				return -1;
		}
	}
	return 0;
}

/* --- checks over the whole task --- */

static unsigned thread_of_step(const struct rctx *c, unsigned s)
{
	return c->step_thread[s];
}

/* Whether a thread other than `self` has a step of op (or op2) on resource res. */
static int other_has(const struct rctx *c, unsigned self, uint16_t res, enum tf_op op, enum tf_op op2, enum tf_op op3,
		     bool *self_too)
{
	const struct tf_task *t = c->b->task;
	int found = 0;
	for (unsigned s = 0; s < t->n_steps; s++) {
		const struct tf_step *st = &t->steps[s];
		if ((st->op != op && st->op != op2 && st->op != op3) || st->res != res)
			continue;
		if (thread_of_step(c, s) == self)
			*self_too = true;
		else
			found = 1;
	}
	return found;
}

static int check_waits(struct rctx *c)
{
	struct tf_task *t = c->b->task;
	for (unsigned s = 0; s < t->n_steps; s++) {
		const struct tf_step *st = &t->steps[s];
		bool susp = st->op == TF_SUSPEND, wait = st->op == TF_WAIT || st->op == TF_SYNC;
		if (!susp && !wait)
			continue;
		bool self_too = false;
		unsigned me = thread_of_step(c, s);
		if (susp ? other_has(c, me, st->res, TF_RESUME, TF_RESUME, TF_RESUME, &self_too) :
			   other_has(c, me, st->res, TF_SIGNAL, TF_BROADCAST, TF_SYNC, &self_too))
			continue;
		const char *what = susp ? "resumes" : "signals";
		return tfb_fail(c->b, &(struct jt_node){ .line = st->line }, c->step_path[s],
				"%s \"%s\" %s (accepted: an event or condition another thread %s)", susp ? "suspends on" : "waits on",
				t->res[st->res].name, self_too ? (susp ? "that only this thread resumes: it would wait on itself" :
									 "that only this thread signals: it would wait on itself") :
							       (susp ? "that no thread resumes" : "that no thread signals"), what);
	}
	return 0;
}

static int check_barriers(struct rctx *c)
{
	struct tf_task *t = c->b->task;
	for (unsigned r = 0; r < t->n_resources; r++) {
		if (t->res[r].kind != TF_RES_BARRIER)
			continue;
		uint64_t seen = 0;
		unsigned parties = 0, last = 0;
		for (unsigned s = 0; s < t->n_steps; s++) {
			if (t->steps[s].op != TF_BARRIER || t->steps[s].res != r)
				continue;
			unsigned th = thread_of_step(c, s);
			if (seen >> th & 1)
				return tfb_fail(c->b, &(struct jt_node){ .line = t->steps[s].line }, c->step_path[s],
						"a second use of barrier \"%s\" in one thread (accepted: once per thread: rt-app "
						"counts each use as a thread to wait for)", t->res[r].name);
			seen |= 1ull << th, parties++, last = s;
		}
		if (parties < 2)
			return tfb_fail(c->b, &(struct jt_node){ .line = t->steps[last].line }, c->step_path[last],
					"barrier \"%s\" met by one thread only (accepted: two threads or more)", t->res[r].name);
		t->res[r].parties = parties;
	}
	return 0;
}


/* A thread's mutexes: taken and released in order, held by a wait or sync, none still held where
 * a loop comes back or the thread ends. */
static int check_mutexes_of(struct rctx *c, unsigned i)
{
	const struct rtask *rt = owner(c, c->n_tasks - 1, i);
	struct tf_task *t = c->b->task;
	struct tf_thread *th = &t->threads[i];
	uint64_t held = 0;
	for (uint32_t p = th->first_phase; p < th->first_phase + th->n_phases; p++) {
		uint64_t at_start = held;
		const struct tf_phase *ph = &t->phases[p];
		for (uint32_t s = ph->first; s < ph->first + ph->n; s++) {
			const struct tf_step *st = &t->steps[s];
			struct jt_node at = { .line = st->line };
			uint16_t m = st->op == TF_WAIT || st->op == TF_SYNC ? st->res2 : st->res;
			bool is_held = held >> m & 1;
			const char *bad = st->op == TF_LOCK && is_held ? "takes mutex \"%s\" it holds already" :
					  st->op == TF_UNLOCK && !is_held ? "releases mutex \"%s\" it does not hold" :
					  (st->op == TF_WAIT || st->op == TF_SYNC) && !is_held ?
						  "waits with mutex \"%s\" it does not hold (accepted: a lock before)" : NULL;
			if (bad)
				return tfb_fail(c->b, &at, c->step_path[s], bad, t->res[m].name);
			if (st->op == TF_LOCK)
				held |= 1ull << m;
			else if (st->op == TF_UNLOCK)
				held &= ~(1ull << m);
		}
		if (held != at_start && ph->loops != 1)
			return tfb_fail(c->b, rt->node, rt->path, "a phase that loops ends holding other mutexes than it "
								  "began with (accepted: each lock released in the same phase)");
	}
	if (held)
		return tfb_fail(c->b, rt->node, rt->path, "ends its loop holding a mutex (accepted: each lock released)");
	return 0;
}

/* The root's mean work per period: its runs over its timers, over one cycle of its phases (up
 * to the first that loops for ever). */
static void work_per_period(struct tf_task *t)
{
	const struct tf_thread *th = &t->threads[t->root];
	double work = 0, periods = 0;
	for (uint32_t p = th->first_phase + th->once_phases; p < th->first_phase + th->n_phases; p++) {
		const struct tf_phase *ph = &t->phases[p];
		double w = 0, n = 0, loops = ph->loops < 0 ? 1 : (double)ph->loops;
		for (uint32_t s = ph->first; s < ph->first + ph->n; s++) {
			w += t->steps[s].op == TF_RUN || t->steps[s].op == TF_RUNTIME ? (double)t->steps[s].us : 0;
			n += t->steps[s].op == TF_CLOSE;
		}
		work += w * loops, periods += n * loops;
		if (ph->loops < 0)
			break;
	}
	t->work_per_period_us = periods > 0 ? (uint64_t)(work / periods + 0.5) : 0;
}

int tf_read_rtapp(struct tfb *b, const struct jt_doc *doc)
{
	static const char *const top[] = { "tasks", "global", "resources", NULL };
	const struct jt_node *root = doc->root, *n;
	struct rctx *c = calloc(1, sizeof(*c));
	if (!c)
		return tfb_fail(b, NULL, "", "out of memory");
	c->b = b, c->default_policy = -1, c->root = -1;
	snprintf(b->task->name, sizeof(b->task->name), "File");
	b->task->work_as_loops = true;   /* rt-app's run is calibrated loops; runtime is wall-clock */
	int rc = tfb_known_keys(b, root, "", top);
	if (!rc && (n = jt_get(root, "global")))
		rc = read_global(c, n);
	if (!rc && (n = jt_get(root, "resources")))
		rc = read_resources(c, n);
	if (!rc)
		rc = read_tasks(c, jt_get(root, "tasks"));
	if (!rc)
		rc = compile_threads(c);
	if (!rc)
		rc = check_waits(c);
	if (!rc)
		rc = check_barriers(c);
	for (unsigned i = 0; !rc && i < b->task->n_threads; i++)
		rc = check_mutexes_of(c, i);
	if (!rc && !b->task->periodless) {
		b->task->closers = 1;
		work_per_period(b->task);
	}
	free(c);
	return rc;
}
