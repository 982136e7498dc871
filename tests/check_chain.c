/* workloads/pipeline_chain.h, Pipeline's measures: a frame chain's accounting from given
 * timestamps (jank per vsync and its longest run, the frame time the display shows, each input
 * event's input-to-present latency counted once, and the segments adding up to it), and its
 * figure rows, each stage and segment named once (in the lists) and found in the figure table
 * with the core rows. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "lib/timeutil.h"
#include "engine/summary.h"
#include "report/figures.h"
#include "workloads/pipeline_chain.h"
#include "tests/ck_run.h"

#define MS NS_PER_MS

static struct chain_acct a;

/* Frame n picked up input event seq at pickup_ms and went along the chain 1 ms a point,
 * shown at vsync_ms. */
static struct chain_frame frame(uint64_t n, uint64_t seq, uint64_t pickup_ms, uint64_t vsync_ms)
{
	struct chain_frame f = { .frame = n, .input_seq = seq };
	for (unsigned p = 0; p < CHAIN_PRESENTED; p++)
		f.at_ns[p] = (pickup_ms + p) * MS;
	f.at_ns[CHAIN_PRESENTED] = vsync_ms * MS;
	return f;
}

START_TEST(jank_and_frame_time)
{
	memset(&a, 0, sizeof(a));
	chain_setup(&a, 0, MS, 16 * MS); /* events every 1 ms from t = 0, 16 ms vsyncs */
	struct chain_frame f0 = frame(0, 0, 0, 16), f1 = frame(1, 0, 16, 32), f2 = frame(2, 0, 32, 80);
	ck_assert_uint_eq(chain_vsync(&a, 0, &f0), 0);      /* the first frame: no frame time yet */
	ck_assert_uint_eq(chain_vsync(&a, 1, &f1), 16 * MS);
	ck_assert_uint_eq(chain_vsync(&a, 2, NULL), 0);     /* nothing new: jank */
	ck_assert_uint_eq(chain_vsync(&a, 3, &f1), 0);      /* the same frame again: jank */
	ck_assert_uint_eq(chain_vsync(&a, 4, &f2), 48 * MS); /* shown three vsyncs after the last */
	ck_assert_uint_eq(a.vsyncs, 5);
	ck_assert_uint_eq(a.jank, 2);
	ck_assert_uint_eq(a.jank_streak_max, 2);
	ck_assert_uint_eq(a.presented, 3);
	ck_assert(chain_jank_pct(&a) > 39.9 && chain_jank_pct(&a) < 40.1);
	/* what a result carries of it */
	struct chain_figures fig;
	chain_wake(&a, CHAIN_GAME, 2 * MS);
	chain_figures_of(&a, &fig);
	ck_assert_uint_eq(fig.vsyncs, 5);
	ck_assert_uint_eq(fig.jank, 2);
	ck_assert_uint_eq(fig.jank_streak, 2);
	ck_assert(fig.jank_pct > 39.9 && fig.jank_pct < 40.1);
	ck_assert(fig.stage_wake_p99_ns[CHAIN_GAME] >= 2 * MS && fig.stage_wake_p99_ns[CHAIN_GAME] <= 2 * MS * 1.01);
	ck_assert_uint_eq(fig.stage_wake_p99_ns[CHAIN_RENDER], 0);
}
END_TEST

START_TEST(input_to_present_counted_once)
{
	memset(&a, 0, sizeof(a));
	chain_setup(&a, 0, MS, 16 * MS);
	/* frame 0 picked up events 1..4 (at 1..4 ms) at 5 ms, shown at 16 ms */
	struct chain_frame f0 = frame(0, 4, 5, 16), f1 = frame(1, 4, 21, 32), f2 = frame(2, 10, 37, 48);
	chain_vsync(&a, 0, &f0);
	ck_assert_uint_eq(a.i2p.count, 4);
	ck_assert_uint_eq(a.i2p.max_ns, 15 * MS);           /* event 1 at 1 ms, shown at 16 ms */
	ck_assert_uint_eq(a.i2p.min_ns, 12 * MS);
	chain_vsync(&a, 1, &f1);                             /* no new input: no sample */
	ck_assert_uint_eq(a.i2p.count, 4);
	chain_vsync(&a, 2, &f2);                             /* events 5..10 */
	ck_assert_uint_eq(a.i2p.count, 10);
	ck_assert_uint_eq(a.last_seq, 10);
	/* the segments are the whole input-to-present time, no more, no less */
	double sum = 0;
	for (unsigned p = 0; p < CHAIN_POINTS; p++)
		sum += a.segment_ns[p];
	ck_assert(sum > a.i2p.mean_ns * 10 - 1 && sum < a.i2p.mean_ns * 10 + 1);
	/* frame 0's events waited 4+3+2+1 ms for pickup, its chain 6 points of 1 ms then 5 ms */
	ck_assert(a.segment_ns[CHAIN_PICKUP] >= 10.0 * MS);
	ck_assert(a.segment_ns[CHAIN_FORK] == 10.0 * MS);    /* 1 ms for each of 10 events */
	/* the figures: the segments' shares of the whole, 100 % together */
	struct chain_figures fig;
	chain_figures_of(&a, &fig);
	double pct = 0;
	for (unsigned p = 0; p < CHAIN_POINTS; p++)
		pct += fig.segment_pct[p];
	ck_assert(pct > 99.999 && pct < 100.001);
	ck_assert_uint_eq(fig.i2p_samples, 10);
}
END_TEST

START_TEST(stages_and_names)
{
	memset(&a, 0, sizeof(a));
	chain_wake(&a, CHAIN_RENDER, 50000);
	chain_wake(&a, CHAIN_STAGES, 50000);                 /* out of range: ignored */
	ck_assert_uint_eq(a.wake_hist[CHAIN_RENDER].total, 1);
	ck_assert_str_eq(chain_stage_name(CHAIN_COMMIT), "commit");
	ck_assert_str_eq(chain_segment_name(CHAIN_PRESENTED), "scanout");
	ck_assert_str_eq(chain_stage_name(CHAIN_STAGES), "?");
}
END_TEST

/* The row of the figure table with JSON key key, or NULL. */
static const struct task_figure *row_of(const char *key)
{
	for (size_t i = 0; i < task_figures_n; i++)
		if (task_figures[i].json_key && strcmp(task_figures[i].json_key, key) == 0)
			return &task_figures[i];
	return NULL;
}

/* Each stage's and segment's row is in the figure table, keyed and labelled by its name, and
 * reads its field of the chain's block: a Pipeline summary shows it, any other task's is null. */
START_TEST(rows_in_the_table)
{
	struct pair_summary s = { .samples = 1 };
	struct chain_figures fig = { .vsyncs = 3, .i2p_samples = 2 };
	fig.stage_wake_p99_ns[CHAIN_COMMIT] = 1234;
	fig.segment_pct[CHAIN_COMPOSED] = 12.5;
	memcpy(s.task.data.bytes, &fig, sizeof(fig));
	snprintf(s.task.name, sizeof(s.task.name), "%s", pipeline_chain_measures.name);
	char key[64];
	for (unsigned k = 0; k < CHAIN_STAGES; k++) {
		snprintf(key, sizeof(key), "stage_%s_wake_p99_ns", chain_stage_name(k));
		const struct task_figure *f = row_of(key);
		ck_assert_msg(f != NULL, "%s not in the figure table", key);
		ck_assert_str_eq(f->column_label, chain_stage_name(k));
		ck_assert(!figure_is_null(f, &s, false));
		ck_assert(figure_value(f, &s) == (k == CHAIN_COMMIT ? 1234 : 0));
	}
	for (unsigned p = 0; p < CHAIN_POINTS; p++) {
		snprintf(key, sizeof(key), "i2p_share_%s_ppm", chain_segment_name(p));
		const struct task_figure *f = row_of(key);
		ck_assert_msg(f != NULL, "%s not in the figure table", key);
		ck_assert(figure_value(f, &s) == (p == CHAIN_COMPOSED ? 12.5 : 0));
	}
	ck_assert(figure_task_measures(row_of("vsyncs")) == &pipeline_chain_measures);
	ck_assert(figure_is_task_line("          stages: wake-to-run p99 input 1 ms"));
	s.task.name[0] = '\0';                                /* another task: null */
	ck_assert(figure_is_null(row_of("vsyncs"), &s, false));
	ck_assert(figure_is_null(row_of("stage_commit_wake_p99_ns"), &s, false));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("chain");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, jank_and_frame_time);
	tcase_add_test(tc, input_to_present_counted_once);
	tcase_add_test(tc, stages_and_names);
	tcase_add_test(tc, rows_in_the_table);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
