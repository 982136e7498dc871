/* What a test needs to drive the run's report (report/sink.h) over a matrix with a stub pair
 * runner (tests/check_output.c, tests/check_framelog.c): the options, the sweep, the plan, the
 * matrix and the set-up facts the outputs read. */
#ifndef IB_CK_REPORT_H
#define IB_CK_REPORT_H
#include <check.h>
#include <string.h>
#include "report/sink.h"

struct ck_report {
	struct options opt;
	struct sweep_side bench, load;
	struct plan plan;
	struct matrix m;
	struct load_config load_cfg;
	struct machine_info machine;
	struct audit audit;
	struct report_sink s;
};

/* Parses argv (argc words) into r's options, quiet, and builds their sweep and plan; the loads
 * at one thread and 1000 loops per ms. */
static inline void ck_report_plan(struct ck_report *r, int argc, char **argv)
{
	char err[512];
	options_init(&r->opt);
	ck_assert_msg(options_parse(&r->opt, argc, argv, err, sizeof(err)) == OPT_OK, "%s", err);
	r->opt.quiet = true;
	sweep_build(&r->opt, 97, &r->bench, &r->load);
	struct plan_input in = { .opt = &r->opt, .bench = &r->bench, .load = &r->load, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&r->plan, &in), 0);
	r->load_cfg = (struct load_config){ .threads = 1, .loops_per_ms = 1000 };
}

/* Opens the report over r's plan and set-up (its console opened before): sink_open's status. */
static inline int ck_report_open(struct ck_report *r)
{
	struct sink_setup in = { .plan = &r->plan, .bench = &r->bench, .load = &r->load, .machine = &r->machine,
				 .audit = &r->audit, .load_cfg = &r->load_cfg, .loops_source = "-l" };
	return sink_open(&r->s, &in);
}

#endif
