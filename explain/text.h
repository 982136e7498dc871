/* --explain's text: the lines under a row of the table saying why its periods were late,
 * written from explain/model.h's summary.  The caller gives each line's start (the logfile's
 * indent and "why:", report/logformat.h LOG_ROW_WHY, which tools/result_log.c reads past). */
#ifndef IB_EXPLAIN_TEXT_H
#define IB_EXPLAIN_TEXT_H
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "explain/json.h"
#include "explain/model.h"

/* Writes why the pair's periods were late, from s (sorted: explain_summary_sort), the load
 * named load_name; repeat is the repeat's number (0: a single run).  Every line starts with
 * prefix and a space (or " by", " stages:"):
 *   why: 42 periods missed their deadline, 318.2 ms of delay in all (bpf):
 *   why: tasks 71.3 %, preempted 12.0 %, softirq 6.1 % (TIMER 4.0 %), ..., unexplained 7.9 %
 *   why: whose tasks: the Burn load 64.2 %, interbench 0.3 %, others 2.0 %
 *   why: by burn (pid 1234, the Burn load, SCHED_OTHER nice 0) 64.2 % in 120 switch-ins; ...
 *   why: stages: game waited 12.0 % (woken 4.0 %), workers waited 30.1 % (woken 9.0 %) and worked 20.0 %
 *   why: migrations 3, preemptions 57; the named parts come within 10 % of the delay in 40 of
 *        42 periods; the tracer took 0.020 % of a CPU (when known, over window_ns)
 * Parts are shares of the summed delay; parts below 0.05 % are left out, as are the lines
 * with nothing to say.  When no period was explained, one line saying so. */
void explain_text_why(FILE *f, const char *prefix, const struct explain_summary *s, const char *load_name,
		      unsigned repeat, uint64_t window_ns);

/* How --explain's causes shifted between two result sets (compare's line under a flagged
 * pair): appends to out each part's share of the explained delay x -> y, "tasks 71.3 -> 80.1 %"
 * (those at 0.5 % or more on either side), then the owners' ("load tasks 35.0 -> 64.2 %") and
 * the top three culprits of each side ("burn (load) 35.0 -> 64.2 %"), and a newline; " none on
 * either side (...)" when neither explained a period.  Each share also goes into parts and
 * owners (name: [x, y]) and culprits ({comm, owner, old_pct, new_pct}). */
void explain_text_shift(FILE *out, const struct explain_causes *x, const struct explain_causes *y, json_t *parts, json_t *owners,
			json_t *culprits);

#endif
