/* --explain's causes in the JSON results (doc/json.md "explain"): one definition of the
 * object, written here from explain/model.h's summary and kept periods. */
#ifndef IB_EXPLAIN_JSON_H
#define IB_EXPLAIN_JSON_H
#include <jansson.h>
#include "explain/model.h"

/* {"source", "explained_periods", "delay_ns", "parts_ns": {part: ns}, "softirq_ns": {vector:
 * ns}, "owners_ns": {"load", "interbench", "other": ns}, "migrations", "preemptions", "within_10pct", "culprits": [...], "culprits_rest_ns",
 * "irqs": [...], "periods": [the latest EXPLAIN_KEEP, oldest first], "tracer_cpu_ns",
 * "tracer_cpu_ppm", "threshold_ns" (null: missed deadlines only)} for summary s (sorted here, on a copy) and ring k, over a window of
 * window_ns (the tracer's CPU time as ppm of one CPU over it; both null when unknown).
 * Returns NULL only when jansson cannot allocate. */
json_t *explain_json(const struct explain_summary *s, const struct explain_kept *k, uint64_t window_ns);

/* One explained period p as explain_json writes each of its "periods" (doc/json.md "explain"):
 * {"index", "start_ns", "delay_ns", "ran_ns", "missed", "parts_ns", "softirq_ns", "owners_ns",
 * "migrations", "preemptions", "first_cpu", "last_cpu", "culprits", "irq", "stages"}, the
 * stages named from s (its pair's summary).  Returns NULL only when jansson cannot allocate. */
json_t *explain_period_json(const struct explain_period *p, const struct explain_summary *s);

/* The members of "explain" its reader takes (explain_read_json, tools/plot.c): written by
 * explain_json, read back by name. */
#define EK_EXPLAINED_PERIODS "explained_periods"
#define EK_DELAY_NS          "delay_ns"
#define EK_PARTS_NS          "parts_ns"     /* {part: ns} (explain_part_name) */
#define EK_OWNERS_NS         "owners_ns"    /* {owner: ns} (explain_owner_name) */
#define EK_CULPRITS          "culprits"     /* [{"comm", "owner", "ns", ...}] */
#define EK_COMM              "comm"
#define EK_OWNER             "owner"
#define EK_NS                "ns"

/* The causes a reader keeps of a pair's "explain" objects, summed over its repeats. */
#define EXPLAIN_CAUSES_CULPRITS 8
struct explain_causes {
	bool has;                    /* some repeat carried an "explain" object */
	double periods, delay_ns;    /* explained periods and their delay, ns */
	double part_ns[EXPLAIN_PARTS];
	double owner_ns[EXPLAIN_OWNERS]; /* tasks and preempted by owner (EXPLAIN_OWNER_*) */
	unsigned nculprits;
	struct explain_culprit_share {
		char comm[EXPLAIN_COMM_LEN];
		char owner[12];          /* "load", "interbench", "other" */
		double ns;
	} culprits[EXPLAIN_CAUSES_CULPRITS];     /* merged by comm and owner (pids differ between runs); the
	                                rest is dropped */
};

/* Adds the "explain" object e of results[idx] to c: explained_periods, delay_ns, parts_ns
 * (the parts this version names; others ignored), owners_ns and culprits (comm, owner, ns).  Input is
 * untrusted: returns 0, or -1 with a one-line reason in err naming the member
 * ("results[3].explain.delay_ns: not an integer"). */
int explain_read_json(struct explain_causes *c, const json_t *e, size_t idx, char *err, size_t errlen);

/* The share of c's delay that part (or culprit i) took, %; NaN without delay. */
double explain_causes_part_pct(const struct explain_causes *c, enum explain_part part);
double explain_causes_culprit_pct(const struct explain_causes *c, const char *comm, const char *owner);

/* The share of c's delay behind owner's tasks (EXPLAIN_OWNER_*), %; NaN without delay. */
double explain_causes_owner_pct(const struct explain_causes *c, unsigned owner);

/* The owner's name in the JSON: "load", "interbench", "other". */
const char *explain_owner_name(unsigned owner);

#endif
