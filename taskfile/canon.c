/* The task as canonical JSON (taskfile/model.h tf_canonical_json): the model in interbench's
 * terms, whichever format it was read from, with nothing of the file's own (its lines, its
 * format, the order of its threads and resources: threads and resources are objects keyed by
 * name, keys sorted), so two files that mean the same give the same text. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/optspec.h"
#include "taskfile/model.h"

static const char *const res_kinds[] = { [TF_RES_TIMER] = "timer", [TF_RES_EVENT] = "event",
					 [TF_RES_MUTEX] = "mutex", [TF_RES_COND] = "condition",
					 [TF_RES_BARRIER] = "barrier" };

/* Sets key to a new value v (NULL: out of memory) in o; returns -1 then. */
static int put(json_t *o, const char *key, json_t *v)
{
	return v && json_object_set_new(o, key, v) == 0 ? 0 : -1;
}

static json_t *step_json(const struct tf_task *t, const struct tf_step *s)
{
	json_t *o = json_object();
	int rc = o ? put(o, "op", json_string(tf_op_name(s->op))) : -1;
	switch (s->op) {
	case TF_RUN:
	case TF_RUNTIME:
	case TF_SLEEP:
		rc |= put(o, "us", json_integer((json_int_t)s->us));
		if (s->op == TF_RUN && s->us_max > s->us)
			rc |= put(o, "us_max", json_integer((json_int_t)s->us_max));
		break;
	case TF_WAKE:
		rc |= put(o, "thread", json_string(t->threads[s->thread].name));
		break;
	case TF_JOIN:
		rc |= put(o, "count", json_integer(s->count));
		break;
	case TF_PERIOD:
	case TF_CLOSE:
	case TF_OPS:
		break;
	default:
		rc |= put(o, "res", json_string(t->res[s->res].name));
		if (s->op == TF_WAIT || s->op == TF_SYNC)
			rc |= put(o, "mutex", json_string(t->res[s->res2].name));
	}
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *phases_json(const struct tf_task *t, const struct tf_thread *th)
{
	json_t *a = json_array();
	for (uint32_t p = th->first_phase; a && p < th->first_phase + th->n_phases; p++) {
		const struct tf_phase *ph = &t->phases[p];
		json_t *o = json_object(), *steps = json_array();
		int rc = o && steps ? put(o, "loops", json_integer(ph->loops)) : -1;
		for (uint32_t s = ph->first; !rc && s < ph->first + ph->n; s++)
			rc = json_array_append_new(steps, step_json(t, &t->steps[s]));
		rc = rc || put(o, "steps", steps) || json_array_append_new(a, o);
		if (rc) {
			json_decref(o);
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *sched_json(const struct sched_setting *s)
{
	json_t *o = json_object();
	int rc = o ? put(o, "policy", json_string(sched_kind_name(s->kind))) : -1;
	if (s->kind == SP_OTHER || s->kind == SP_BATCH) {
		rc |= put(o, "nice", json_integer(s->nice));
		if (s->slice_ns)
			rc |= put(o, "slice_ns", json_integer((json_int_t)s->slice_ns));
	} else if (s->kind == SP_FIFO || s->kind == SP_RR) {
		rc |= put(o, "priority", json_integer(s->rt_prio));
	} else if (s->kind == SP_DEADLINE) {
		rc |= put(o, "dl_runtime_ns", json_integer((json_int_t)s->dl_runtime_ns));
		rc |= put(o, "dl_deadline_ns", json_integer((json_int_t)s->dl_deadline_ns));
		rc |= put(o, "dl_period_ns", json_integer((json_int_t)s->dl_period_ns));
	}
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *thread_json(const struct tf_task *t, const struct tf_thread *th)
{
	json_t *o = json_object();
	int rc = o ? 0 : -1;
	rc = rc || put(o, "loops", json_integer(th->loops)) || put(o, "once_phases", json_integer(th->once_phases)) ||
	     put(o, "delay_us", json_integer((json_int_t)th->delay_us)) ||
	     put(o, "wakes_on", json_string(tf_wakes_on(t, th))) ||
	     put(o, "phases", phases_json(t, th));
	if (!rc && th->has_sched)
		rc = put(o, "sched", sched_json(&th->sched));
	if (!rc && th->cpus.given) {
		char buf[4096];
		rc = put(o, "cpus", json_string(format_cpu_list(&th->cpus, buf, sizeof(buf))));
	}
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *resources_json(const struct tf_task *t)
{
	json_t *o = json_object();
	for (unsigned i = 0; o && i < t->n_resources; i++) {
		const struct tf_resource *r = &t->res[i];
		json_t *kind = json_object_get(o, res_kinds[r->kind]), *v = json_object();
		if (!kind && put(o, res_kinds[r->kind], kind = json_object()))
			kind = NULL;
		int rc = kind && v ? 0 : -1;
		if (!rc && r->kind == TF_RES_TIMER)
			rc = put(v, "period_us", json_integer((json_int_t)r->period_us));
		if (!rc && r->kind == TF_RES_BARRIER)
			rc = put(v, "parties", json_integer(r->parties));
		if (rc || put(kind, r->name, v)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

char *tf_canonical_json(const struct tf_task *t)
{
	json_t *o = json_object(), *threads = json_object();
	int rc = o && threads ? 0 : -1;
	for (unsigned i = 0; !rc && i < t->n_threads; i++)
		rc = put(threads, t->threads[i].name, thread_json(t, &t->threads[i]));
	rc = rc || put(o, "name", json_string(t->name)) || put(o, "period_us", json_integer((json_int_t)t->period_us)) ||
	     put(o, "deadline_us", json_integer((json_int_t)t->deadline_us)) ||
	     put(o, "root", json_string(t->threads[t->root].name)) || put(o, "closers", json_integer(t->closers)) ||
	     put(o, "work_as", json_string(t->work_as_loops ? "loops" : "cpu_time")) ||
	     put(o, "frames", json_boolean(t->frames)) ||
	     put(o, "work_per_period_us", json_integer((json_int_t)t->work_per_period_us)) ||
	     put(o, "resources", resources_json(t));
	if (!rc && t->periodless)   /* said only when so: the periodic models' digests stay */
		rc = put(o, "periodless", json_true());
	if (!rc) {
		rc = put(o, "threads", threads);
		threads = NULL;
	}
	char *s = rc ? NULL : json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(threads);
	json_decref(o);
	return s;
}
