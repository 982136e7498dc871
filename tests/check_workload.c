/* The workload descriptors and their walkers.  This program links a registry of its own: every
 * real workload plus the Skeleton example load (tests/skeleton_load.c), added as
 * doc/adding-a-workload.md says, by one file and one table line; the option parser, -h, the
 * run header line, the JSON writer and the load runner then serve it with no other change.
 * The real descriptors are checked for the invariants the walkers rely on, and the man page for
 * every option the tables define. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <unistd.h>
#include "run/options.h"
#include "host/machine.h"
#include "lib/timeutil.h"
#include "loadkit/scratch.h"
#include "report/json_report.h"
#include "workloads/list.h"
#include "workloads/workload.h"
#include "tests/skeleton_load.c"

WORKLOADS(WL_DECLARE)

/* This program's registry: interbench's (the same list), plus one line for the example. */
const struct workload *const workload_table[] = { WORKLOADS(WL_ENTRY) &wl_skeleton };
const unsigned workload_count = sizeof(workload_table) / sizeof(workload_table[0]);

static char err[512];

static enum opt_status parse(struct options *o, char **argv)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	options_init(o);
	err[0] = '\0';
	return options_parse(o, argc, argv, err, sizeof(err));
}

/* f's text written by fn(f), in a buffer to free. */
static char *captured(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void usage_to(FILE *f, const void *arg) { (void)arg; options_usage_all(f, "interbench", NULL); }

START_TEST(example_option_parsed_and_refused)
{
	struct options o;
	char val[64];
	int sk = workload_find("skeleton", true);
	ck_assert_int_eq(sk, (int)workload_count - 1);
	ck_assert_int_eq(workload_find("Skeleton", false), -1); /* a load only: -W Skeleton is refused */
	ck_assert_int_eq(parse(&o, (char *[]){ "interbench", NULL }), OPT_OK);
	ck_assert_int_eq(options_get(&o, "skeleton-nap-us", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "1000");                       /* its default */
	ck_assert_int_eq(parse(&o, (char *[]){ "interbench", "-w", "Skeleton", "--skeleton-nap-us", "250", NULL }), OPT_OK);
	ck_assert_uint_eq(o.load_include, 1u << sk);
	ck_assert_uint_eq(((const struct skeleton_opts *)options_wl_opts(&o, (unsigned)sk))->nap_us, 250);
	ck_assert_int_eq(parse(&o, (char *[]){ "interbench", "--skeleton-nap-us", "5", NULL }), OPT_ERROR);
	ck_assert_str_eq(err, "--skeleton-nap-us: invalid value '5' (accepted: microseconds from 10 to 1000000)");
	ck_assert_int_eq(parse(&o, (char *[]){ "interbench", "-W", "Skeleton", NULL }), OPT_ERROR);
	ck_assert_msg(strstr(err, "unknown simulation 'Skeleton'") != NULL, "%s", err);
}
END_TEST

START_TEST(example_in_help_and_header)
{
	struct options o;
	char line[256];
	char *help = captured(usage_to, NULL);
	ck_assert_msg(strstr(help, "      --skeleton-nap-us US Skeleton load: microseconds between wake-ups\n") != NULL, "%s", help);
	ck_assert_msg(strstr(help, "  Skeleton one thread napping --skeleton-nap-us at a time (example)\n") != NULL, "%s", help);
	free(help);
	ck_assert_int_eq(parse(&o, (char *[]){ "interbench", "--skeleton-nap-us", "300", "--mem-size", "64M", NULL }), OPT_OK);
	options_workload_line(&o, line, sizeof(line));
	ck_assert_str_eq(line, "--mem-size 64M --skeleton-nap-us 300");   /* registry order, given ones only */
	ck_assert_int_eq(parse(&o, (char *[]){ "interbench", NULL }), OPT_OK);
	options_workload_line(&o, line, sizeof(line));
	ck_assert_str_eq(line, "");
}
END_TEST

START_TEST(example_runs_and_reports)
{
	struct options o;
	struct load_config cfg = { .threads = 1, .loops_per_ms = 1000 };
	struct load_ctx ctx;
	char work[200];
	int sk = workload_find("Skeleton", true);
	ck_assert_int_eq(parse(&o, (char *[]){ "interbench", "--skeleton-nap-us", "100", NULL }), OPT_OK);
	workload_load_init(&ctx, workload_table[sk], options_wl_opts(&o, (unsigned)sk), &cfg);
	ck_assert_ptr_eq(ctx.ops, &skeleton_ops);
	uint64_t t0 = now_ns();
	ck_assert_int_eq(ctx.ops->start(&ctx), 0);
	while (__atomic_load_n(&ctx.counters.count[0], __ATOMIC_RELAXED) < 3) /* waits for a state */
		usleep(1000);
	ctx.ops->stop(&ctx);
	ctx.counters.elapsed_ns = now_ns() - t0;
	ck_assert_uint_ge(ctx.counters.count[0], 3);
	load_throughput_format(ctx.name, ctx.metrics, &ctx.counters, work, sizeof(work));
	ck_assert_msg(strncmp(work, "Skeleton ", 9) == 0 && strstr(work, " naps/s") != NULL, "%s", work);

	/* The JSON document: its option under "options", its metric under "load_work". */
	struct machine_info m;
	struct run_info info;
	memset(&m, 0, sizeof(m));
	memset(&info, 0, sizeof(info));
	json_t *doc = report_new(&m, &info, &o);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(doc, "options"), "skeleton_nap_us")), 100);
	static struct sim_result sim;  /* a measured run of nothing, its load's counters beside it */
	static struct pair_outcome rec;
	rec.ok = true;
	ck_assert_int_eq(bench_record_make(&sim, &rec.bench), 0);
	rec.load = ctx.counters;
	struct report_entry e = { .simulation = "Audio", .load = ctx.name, .mode = "", .repeat = 1, .has_deadlines = true,
				  .load_metrics = ctx.metrics, .rec = &rec };
	ck_assert_int_eq(report_add(doc, &e), 0);
	json_t *lw = json_object_get(json_array_get(json_object_get(doc, "results"), 0), "load_work");
	ck_assert_int_eq(json_integer_value(json_object_get(lw, "naps")), (json_int_t)ctx.counters.count[0]);
	ck_assert_int_eq(json_object_size(lw), 2); /* elapsed_ns and its one metric */
	json_decref(doc);
	bench_record_free(&rec.bench);
}
END_TEST

/* Copy and Proc start, do their work, stop when asked and leave no file behind.  The
 * wait for work is a wait for a state (bounded generously), never a timed assertion. */
START_TEST(copy_and_proc_leave_nothing)
{
	static struct scratch_set sc;
	char dir[] = "/tmp/check_workload_XXXXXX", arg[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(arg, sizeof(arg), "%s", dir);
	struct options o;
	ck_assert_int_eq(parse(&o, (char *[]){ "interbench", "--workdir", arg, "--file-size", "4M", NULL }), OPT_OK);
	struct load_config cfg = { .threads = 2, .loops_per_ms = 1000, .scratch = &sc };
	const char *names[] = { "Copy", "Proc" };
	for (int k = 0; k < 2; k++) {
		struct load_ctx ctx;
		int w = workload_find(names[k], true);
		ck_assert_int_ge(w, 0);
		workload_load_init(&ctx, workload_table[w], options_wl_opts(&o, (unsigned)w), &cfg);
		ck_assert_msg(!ctx.ops->prepare || ctx.ops->prepare(&ctx) == 0, "%s: %s", names[k], ctx.counters.errmsg);
		ck_assert_int_eq(ctx.ops->start(&ctx), 0);
		for (int i = 0; i < 10000 && !load_is_ready(&ctx); i++)
			usleep(1000);
		ck_assert_msg(load_is_ready(&ctx), "%s did no work", names[k]);
		ctx.ops->stop(&ctx);
		ck_assert_msg(ctx.counters.error == 0, "%s: %s", names[k], ctx.counters.errmsg);
		if (ctx.ops->cleanup)
			ctx.ops->cleanup(&ctx);
	}
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned left = 0;
	while ((de = readdir(d)))
		left += de->d_name[0] != '.';
	closedir(d);
	ck_assert_uint_eq(left, 0);
	rmdir(dir);
}
END_TEST

/* Every workload descriptor (the real ones and the example) keeps the rules the walkers rely on. */
START_TEST(descriptors_are_well_formed)
{
	const struct workload *w = workload_table[_i];
	ck_assert_ptr_nonnull(w->name);
	ck_assert_msg(w->sim || w->load, "%s is neither a task nor a load", w->name);
	ck_assert_msg(!w->help || w->sim, "%s has task help but no pattern", w->name);
	ck_assert_msg(!w->load || (w->load_help && w->load->start && w->load->stop), "%s: load without help/start/stop",
		      w->name);
	ck_assert_msg(!(w->flags & (WL_BENCH_NORMAL | WL_BENCH_RT)) || (w->sim && w->help), "%s: bench flags", w->name);
	ck_assert_msg(!(w->flags & (WL_LOAD_NORMAL | WL_LOAD_RT)) || w->load, "%s: load flags", w->name);
	ck_assert_uint_le(w->cfg_size, WL_CFG_MAX_BYTES);
	for (unsigned k = 0; w->options && w->options[k]; k++) {
		const struct optspec *s = w->options[k];
		ck_assert_msg(s->offset < w->cfg_size, "%s --%s lies outside its config", w->name, s->long_name);
		ck_assert_msg(s->help && s->json_key, "%s --%s: help and JSON key", w->name, s->long_name);
	}
	unsigned nm = 0;
	while (w->metrics && w->metrics[nm])
		nm++;
	ck_assert_uint_le(nm, LOAD_MAX_METRICS);
	for (unsigned i = 0; i < workload_count; i++)
		if (workload_table[i] != w)
			ck_assert_msg(strcasecmp(workload_table[i]->name, w->name) != 0, "two workloads named %s", w->name);
}
END_TEST

/* Options of all tables: names and letters unique, within the parser's bound. */
struct seen {
	const char *names[256];
	int shorts[256];
	unsigned n, workload_opts;
	const char *dup;
};

static void note_option(const struct optspec *s, const void *base, void *arg)
{
	struct seen *sn = arg;
	(void)base;
	for (unsigned i = 0; i < sn->n; i++)
		if (strcmp(sn->names[i], s->long_name) == 0 || (s->short_name && sn->shorts[i] == s->short_name))
			sn->dup = s->long_name;
	if (sn->n < 256) {
		sn->names[sn->n] = s->long_name;
		sn->shorts[sn->n++] = s->short_name;
	}
}

/* The pattern each task's options resolve to, as the run header and the JSON state it: the
 * period and work to the microsecond, the buffer, and each descriptor's own note. */
START_TEST(patterns_stated)
{
	static const struct { char *argv[8]; const char *task, *want; } cases[] = {
		{ { "interbench", "-W", "ProAudio", "--frames", "64", NULL }, "ProAudio",
		  "period 1.333 ms, work 1.066 ms (80 %), buffer 2 periods (64 frames at 48000 Hz)" },
		{ { "interbench", "-W", "Pipeline", "--refresh", "144", NULL }, "Pipeline",
		  "period 6.944 ms, work 9 ms (130 %), no buffer (vsync at 144 Hz; a frame: logic 2 ms, workers 4 ms in 2 "
		  "threads, render 3 ms; compositor 1 ms a vsync, latching 2.777 ms before it; input at 1000 Hz)" },
		{ { "interbench", "-W", "Pipeline", "--refresh", "500", NULL }, "Pipeline",
		  "period 2 ms, work 9 ms (450 %), no buffer (vsync at 500 Hz; a frame: logic 2 ms, workers 4 ms in 2 "
		  "threads, render 3 ms; compositor 0.4 ms a vsync, latching 0.8 ms before it; input at 1000 Hz)" },
		{ { "interbench", "-W", "Video", NULL }, "Video", "period 16.667 ms, work 6.666 ms (40 %), no buffer" },
		{ { "interbench", "-W", "X", NULL }, "X",
		  "period 100 ms, work 0-100 ms (0-100 %), no buffer (1 % more each period, 101 periods a sweep)" },
		{ { "interbench", "-W", "Gaming", NULL }, "Gaming", "period 100 ms, work 100 ms (100 %), no buffer, no deadlines" },
	};
	static struct options o;
	const int i = _i;
	ck_assert_int_eq(parse(&o, (char **)cases[i].argv), OPT_OK);
	int w = workload_find(cases[i].task, false);
	ck_assert_int_ge(w, 0);
	struct sim_spec spec;
	char text[512];
	workload_sim_spec(workload_table[w], options_wl_opts(&o, (unsigned)w), &spec);
	sim_pattern_text(&spec, text, sizeof(text));
	ck_assert_str_eq(text, cases[i].want);
}
END_TEST

START_TEST(options_unique)
{
	static struct options o;
	struct seen sn = { .n = 0 };
	options_init(&o);
	options_walk(&o, note_option, &sn);
	ck_assert_msg(sn.dup == NULL, "--%s is defined twice", sn.dup);
	for (unsigned w = 0; w < workload_count; w++)
		for (unsigned k = 0; workload_table[w]->options && workload_table[w]->options[k]; k++)
			sn.workload_opts++;
	ck_assert_uint_le(sn.workload_opts, OPT_MAX_WORKLOAD_OPTIONS);
}
END_TEST

/* The man page (mdoc) documents every option the tables define (the example's aside) with
 * its long form, and names every workload. */
struct man_check {
	const char *page;
	const char *missing;
};

static void man_has(const struct optspec *s, const void *base, void *arg)
{
	struct man_check *mc = arg;
	char want[96];
	(void)base;
	if (s == &skeleton_opt_nap)
		return;
	snprintf(want, sizeof(want), "Fl -%s", s->long_name); /* mdoc: .Fl -name is --name */
	if (!strstr(mc->page, want))
		mc->missing = s->long_name;
}

START_TEST(man_page_lists_every_option)
{
	static struct options o;
	static char page[256 * 1024];
	FILE *f = fopen("man/interbench.8", "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(page, 1, sizeof(page) - 1, f);
	fclose(f);
	page[n] = '\0';
	struct man_check mc = { .page = page };
	options_init(&o);
	options_walk(&o, man_has, &mc);
	ck_assert_msg(mc.missing == NULL, "man/interbench.8 does not document --%s", mc.missing);
	for (unsigned i = 0; i < workload_count; i++)
		if (workload_table[i] != &wl_skeleton)
			ck_assert_msg(strstr(page, workload_table[i]->name), "man page lacks %s", workload_table[i]->name);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("descriptors");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, example_option_parsed_and_refused);
	tcase_add_test(tc, example_in_help_and_header);
	tcase_add_test(tc, example_runs_and_reports);
	tcase_add_test(tc, copy_and_proc_leave_nothing);
	tcase_add_loop_test(tc, descriptors_are_well_formed, 0, (int)workload_count);
	tcase_add_test(tc, options_unique);
	tcase_add_loop_test(tc, patterns_stated, 0, 6);
	tcase_add_test(tc, man_page_lists_every_option);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
