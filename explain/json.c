#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "explain/json.h"

static json_t *ns_json(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

/* {part name: ns} over every part. */
static json_t *parts_json(const uint64_t part_ns[EXPLAIN_PARTS])
{
	json_t *o = json_object();
	for (int k = 0; o && k < EXPLAIN_PARTS; k++)
		json_object_set_new(o, explain_part_name((enum explain_part)k), ns_json(part_ns[k]));
	return o;
}

/* {vector name: ns} over the vectors with time. */
static json_t *softirq_json(const uint64_t softirq_ns[EXPLAIN_SOFTIRQS])
{
	json_t *o = json_object();
	for (unsigned v = 0; o && v < EXPLAIN_SOFTIRQS; v++)
		if (softirq_ns[v])
			json_object_set_new(o, explain_softirq_name(v), ns_json(softirq_ns[v]));
	return o;
}

static const char *owner_name(unsigned owner)
{
	return owner == EXPLAIN_OWNER_LOAD ? "load" : owner == EXPLAIN_OWNER_BENCH ? "interbench" : "other";
}

/* {"load": ns, "interbench": ns, "other": ns}. */
static json_t *owners_json(const uint64_t owner_ns[EXPLAIN_OWNERS])
{
	json_t *o = json_object();
	for (unsigned k = 0; o && k < EXPLAIN_OWNERS; k++)
		json_object_set_new(o, owner_name(k), ns_json(owner_ns[k]));
	return o;
}

static json_t *culprit_json(const struct explain_culprit *c)
{
	char sched[48];
	return json_pack("{s:s, s:i, s:i, s:s, s:s, s:i, s:o}", EK_COMM, c->comm, "pid", (int)c->pid, "tgid",
			 (int)c->tgid, EK_OWNER, owner_name(c->owner), "sched", explain_sched_text(c, sched, sizeof(sched)),
			 "switches", (int)c->switches, EK_NS, ns_json(c->ns));
}

static json_t *irq_json(const struct explain_irq_time *q)
{
	return json_pack("{s:i, s:s, s:i, s:o}", "irq", (int)q->irq, "name", q->name, "count", (int)q->count, EK_NS,
			 ns_json(q->ns));
}

/* A chain's stages, [{"stage", "wait_ns", "woken_wait_ns", "ran_ns"}] (names from s), or null
 * without them. */
static json_t *stages_json(const struct explain_summary *s, const uint64_t wait_ns[EXPLAIN_MAX_STAGES],
			   const uint64_t woken_ns[EXPLAIN_MAX_STAGES], const uint64_t ran_ns[EXPLAIN_MAX_STAGES])
{
	json_t *a = s->nstages ? json_array() : NULL;
	for (unsigned i = 0; a && i < s->nstages && i < EXPLAIN_MAX_STAGES; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o}", "stage", s->stage_name[i], "wait_ns",
						   ns_json(wait_ns[i]), "woken_wait_ns", ns_json(woken_ns[i]), "ran_ns",
						   ns_json(ran_ns[i])));
	return a ? a : json_null();
}

json_t *explain_period_json(const struct explain_period *p, const struct explain_summary *s)
{
	json_t *top = json_array();
	for (unsigned i = 0; top && i < p->ntop && i < EXPLAIN_TOP; i++)
		json_array_append_new(top, culprit_json(&p->top[i]));
	return json_pack("{s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:i, s:i, s:i, s:i, s:o, s:o, s:o}", "index",
			 ns_json(p->index), "start_ns", ns_json(p->start_ns), EK_DELAY_NS, ns_json(p->delay_ns), "ran_ns",
			 ns_json(p->ran_ns), "missed", p->missed, EK_PARTS_NS, parts_json(p->part_ns), "softirq_ns",
			 softirq_json(p->softirq_ns), EK_OWNERS_NS, owners_json(p->owner_ns), "migrations", (int)p->migrations, "preemptions",
			 (int)p->preemptions, "first_cpu", (int)p->first_cpu, "last_cpu", (int)p->last_cpu, EK_CULPRITS,
			 top ? top : json_null(), "irq", p->irq.count ? irq_json(&p->irq) : json_null(), "stages",
			 stages_json(s, p->stage_wait_ns, p->stage_woken_ns, p->stage_ran_ns));
}

/* The tracer's CPU time over the window: {"tracer_cpu_ns", "tracer_cpu_ppm"} into o. */
static void tracer_json(json_t *o, int64_t run_ns, uint64_t window_ns)
{
	bool known = o && run_ns >= 0 && window_ns;
	json_object_set_new(o, "tracer_cpu_ns", known ? json_integer(run_ns) : json_null());
	json_object_set_new(o, "tracer_cpu_ppm", known ? json_integer((json_int_t)((double)run_ns * 1e6 / (double)window_ns + 0.5))
						      : json_null());
}

json_t *explain_json(const struct explain_summary *summary, const struct explain_kept *k, uint64_t window_ns)
{
	struct explain_summary s = *summary;
	explain_summary_sort(&s);
	json_t *who = json_array(), *irqs = json_array(), *periods = json_array();
	for (uint32_t i = 0; who && i < s.nwho && i < EXPLAIN_PAIR_WHO; i++)
		json_array_append_new(who, culprit_json(&s.who[i]));
	for (uint32_t i = 0; irqs && i < s.nirq && i < EXPLAIN_PAIR_IRQS; i++)
		json_array_append_new(irqs, irq_json(&s.irqs[i]));
	for (unsigned i = 0; periods && k && i < k->n; i++)
		json_array_append_new(periods, explain_period_json(explain_kept_at(k, i), &s));
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "source",
			 explain_source_name((enum explain_source)s.source), EK_EXPLAINED_PERIODS, ns_json(s.periods),
			 EK_DELAY_NS, ns_json(s.delay_ns), EK_PARTS_NS, parts_json(s.part_ns), "softirq_ns",
			 softirq_json(s.softirq_ns), EK_OWNERS_NS, owners_json(s.owner_ns), "migrations", ns_json(s.migrations), "preemptions",
			 ns_json(s.preemptions), "within_10pct", ns_json(s.within_10pct), EK_CULPRITS, who ? who : json_null(),
			 "culprits_rest_ns", ns_json(s.who_rest_ns), "irqs", irqs ? irqs : json_null(), "periods",
			 periods ? periods : json_null());
	tracer_json(o, s.tracer_run_ns, window_ns);
	json_object_set_new(o, "threshold_ns", s.threshold_ns ? ns_json(s.threshold_ns) : json_null());
	json_object_set_new(o, "stages", stages_json(&s, s.stage_wait_ns, s.stage_woken_ns, s.stage_ran_ns));
	return o;
}

/* Writes "results[idx].explain.<what>: <why>" into err.  Returns -1. */
static int bad(char *err, size_t errlen, size_t idx, const char *what, const char *fmt, ...)
{
	char why[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "results[%zu].explain%s%s: %s", idx, *what ? "." : "", what, why);
	return -1;
}

/* Member key of o, a non-negative integer, into *out.  Returns 0, or -1 with err set. */
static int read_count(const json_t *o, const char *key, const char *at, size_t idx, double *out, char *err,
		      size_t errlen)
{
	const json_t *v = json_object_get(o, key);
	char what[64];
	snprintf(what, sizeof(what), "%s%s", at, key);
	if (!json_is_integer(v))
		return bad(err, errlen, idx, what, v ? "not an integer" : "missing");
	if (json_integer_value(v) < 0)
		return bad(err, errlen, idx, what, "negative");
	*out = (double)json_integer_value(v);
	return 0;
}

static void add_culprit(struct explain_causes *c, const char *comm, const char *owner, double ns)
{
	for (unsigned i = 0; i < c->nculprits; i++)
		if (strcmp(c->culprits[i].comm, comm) == 0 && strcmp(c->culprits[i].owner, owner) == 0) {
			c->culprits[i].ns += ns;
			return;
		}
	if (c->nculprits == EXPLAIN_CAUSES_CULPRITS)
		return;
	struct explain_culprit_share *k = &c->culprits[c->nculprits++];
	snprintf(k->comm, sizeof(k->comm), "%s", comm);
	snprintf(k->owner, sizeof(k->owner), "%s", owner);
	k->ns = ns;
}

static int read_culprits(struct explain_causes *c, const json_t *a, size_t idx, char *err, size_t errlen)
{
	size_t i;
	const json_t *x;
	if (!json_is_array(a))
		return bad(err, errlen, idx, EK_CULPRITS, a ? "not an array" : "missing");
	json_array_foreach(a, i, x) {
		const json_t *comm = json_object_get(x, EK_COMM), *owner = json_object_get(x, EK_OWNER);
		double ns;
		char at[48];
		snprintf(at, sizeof(at), "culprits[%zu].", i);
		if (!json_is_string(comm) || !json_is_string(owner))
			return bad(err, errlen, idx, at, "no string \"comm\" and \"owner\"");
		if (read_count(x, EK_NS, at, idx, &ns, err, errlen) != 0)
			return -1;
		add_culprit(c, json_string_value(comm), json_string_value(owner), ns);
	}
	return 0;
}

int explain_read_json(struct explain_causes *c, const json_t *e, size_t idx, char *err, size_t errlen)
{
	double periods, delay_ns, part_ns[EXPLAIN_PARTS] = { 0 };
	if (!json_is_object(e))
		return bad(err, errlen, idx, "", "not an object");
	if (read_count(e, EK_EXPLAINED_PERIODS, "", idx, &periods, err, errlen) != 0 ||
	    read_count(e, EK_DELAY_NS, "", idx, &delay_ns, err, errlen) != 0)
		return -1;
	const json_t *parts = json_object_get(e, EK_PARTS_NS);
	if (!json_is_object(parts))
		return bad(err, errlen, idx, EK_PARTS_NS, parts ? "not an object" : "missing");
	for (int k = 0; k < EXPLAIN_PARTS; k++)
		if (json_object_get(parts, explain_part_name((enum explain_part)k)) &&
		    read_count(parts, explain_part_name((enum explain_part)k), "parts_ns.", idx, &part_ns[k], err, errlen) != 0)
			return -1;
	if (read_culprits(c, json_object_get(e, EK_CULPRITS), idx, err, errlen) != 0)
		return -1;
	const json_t *owners = json_object_get(e, EK_OWNERS_NS);
	double owner_ns[EXPLAIN_OWNERS] = { 0 };
	if (!json_is_object(owners))
		return bad(err, errlen, idx, EK_OWNERS_NS, owners ? "not an object" : "missing");
	for (unsigned k = 0; k < EXPLAIN_OWNERS; k++)
		if (read_count(owners, owner_name(k), "owners_ns.", idx, &owner_ns[k], err, errlen) != 0)
			return -1;
	c->has = true;
	c->periods += periods;
	c->delay_ns += delay_ns;
	for (int k = 0; k < EXPLAIN_PARTS; k++)
		c->part_ns[k] += part_ns[k];
	for (unsigned k = 0; k < EXPLAIN_OWNERS; k++)
		c->owner_ns[k] += owner_ns[k];
	return 0;
}

double explain_causes_owner_pct(const struct explain_causes *c, unsigned owner)
{
	return c->delay_ns > 0 && owner < EXPLAIN_OWNERS ? 100.0 * c->owner_ns[owner] / c->delay_ns : NAN;
}

const char *explain_owner_name(unsigned owner)
{
	return owner_name(owner);
}

double explain_causes_part_pct(const struct explain_causes *c, enum explain_part part)
{
	return c->delay_ns > 0 && (unsigned)part < EXPLAIN_PARTS ? 100.0 * c->part_ns[part] / c->delay_ns : NAN;
}

double explain_causes_culprit_pct(const struct explain_causes *c, const char *comm, const char *owner)
{
	if (!(c->delay_ns > 0))
		return NAN;
	for (unsigned i = 0; i < c->nculprits; i++)
		if (strcmp(c->culprits[i].comm, comm) == 0 && strcmp(c->culprits[i].owner, owner) == 0)
			return 100.0 * c->culprits[i].ns / c->delay_ns;
	return 0;
}
