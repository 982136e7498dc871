/* The figures of one (task, load) pair, computed from its struct sim_result where it was
 * measured (engine/summary.h). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "engine/summary.h"
#include "engine/intervals.h"

/* The stutter and CPU-loop figures of r into s. */
static void stutter_summarize(const struct sim_result *r, struct pair_summary *s)
{
	s->longest_streak = r->acct.longest_streak;
	s->longest_streak_ns = r->acct.longest_streak * r->interval_us * 1000;
	s->streaks = r->acct.streaks;
	s->latency_over_period = r->sched_over_period;
	s->latency_over_perceptible = r->sched_over_perceptible;
	s->frame_samples = r->frame.count;
	s->frame_p50_ns = hist_percentile_ns(&r->frame_hist, 50, r->frame.max_ns);
	s->frame_p99_ns = hist_percentile_ns(&r->frame_hist, 99, r->frame.max_ns);
	s->frame_p999_ns = hist_percentile_ns(&r->frame_hist, 99.9, r->frame.max_ns);
	s->low1_fps = s->frame_p99_ns ? 1e9 / (double)s->frame_p99_ns : 0;
	s->frame_mean_ns = r->frame.mean_ns;
	s->low01_fps = s->frame_p999_ns ? 1e9 / (double)s->frame_p999_ns : 0;
	s->low1_avg_fps = r->frame_figs.low1_mean_ns > 0 ? 1e9 / r->frame_figs.low1_mean_ns : 0;
	s->low01_avg_fps = r->frame_figs.low01_mean_ns > 0 ? 1e9 / r->frame_figs.low01_mean_ns : 0;
	s->stutter_frames = r->frame_figs.stutters;
	s->stutter_time_pct = r->frame_figs.total_ns ? 100.0 * (double)r->frame_figs.stutter_ns /
							     (double)r->frame_figs.total_ns : 0;
	s->loop_periods = r->loop.periods;
	s->stolen_p99_ns = hist_percentile_ns(&r->loop.excess_hist, 99, r->loop.excess.max_ns);
	s->stolen_max_ns = r->loop.excess.max_ns;
	s->stolen_pct = r->loop.periods ? 100.0 * (double)r->loop.over10 / (double)r->loop.periods : 0;
}

/* The intervals of r's judged figures into s (engine/intervals.h; NaN where there is none). */
static void intervals_summarize(const struct sim_result *r, struct pair_summary *s)
{
	struct sim_interval iv[SIM_JUDGED];
	s->ci_alpha = r->ci_alpha > 0 && r->ci_alpha < 1 ? r->ci_alpha : CI_ALPHA;
	sim_intervals(r, s->ci_alpha, iv);
	s->latency_mean_lo_ns = iv[SIM_LATENCY_MEAN].lo;
	s->latency_mean_hi_ns = iv[SIM_LATENCY_MEAN].hi;
	s->sched_p99_lo_ns = iv[SIM_LATENCY_P99].lo;
	/* open above: the max is no bound, so no upper end at all */
	s->sched_p99_hi_ns = iv[SIM_LATENCY_P99].open_above ? INFINITY : iv[SIM_LATENCY_P99].hi;
	s->desired_cpu_lo_pct = iv[SIM_DESIRED_CPU].lo;
	s->desired_cpu_hi_pct = iv[SIM_DESIRED_CPU].hi;
	s->deadlines_met_lo_pct = iv[SIM_DEADLINES_MET].lo;
	s->deadlines_met_hi_pct = iv[SIM_DEADLINES_MET].hi;
}

void pair_summarize(const struct sim_result *r, struct pair_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->samples = r->sched.count;
	s->latency_mean_ns = r->sched.mean_ns;
	s->latency_sd_ns = lat_stats_sd_ns(&r->sched);
	s->latency_max_ns = r->sched.max_ns;
	s->classic_mean_ns = r->classic.mean_ns;
	s->classic_sd_ns = lat_stats_sd_ns(&r->classic);
	s->classic_max_ns = r->classic.max_ns;
	s->lateness_mean_ns = r->lateness.mean_ns;
	s->lateness_max_ns = r->lateness.max_ns;
	s->lateness_p99_ns = hist_percentile_ns(&r->lateness_hist, 99, r->lateness.max_ns);
	stutter_summarize(r, s);
	s->task = r->task;
	if (r->task_wall_ns) {
		s->task_cpu_pct = (double)r->task_cpu_ns * 100 / (double)r->task_wall_ns;
		s->task_cpu_wanted_pct = (double)r->acct.work_wanted_us * 1e3 * 100 / (double)r->task_wall_ns;
	}
	s->desired_cpu_pct = deadline_desired_cpu_pct(&r->acct);
	s->deadlines_met_pct = deadline_met_pct(&r->acct);
	s->periods = r->acct.periods;
	s->deadlines_met = r->acct.met;
	s->deadlines_missed = r->acct.missed;
	s->periods_skipped = r->acct.skipped;
	s->sched_p50_ns = hist_percentile_ns(&r->sched_hist, 50, r->sched.max_ns);
	s->sched_p90_ns = hist_percentile_ns(&r->sched_hist, 90, r->sched.max_ns);
	s->sched_p99_ns = hist_percentile_ns(&r->sched_hist, 99, r->sched.max_ns);
	s->sched_p999_ns = hist_percentile_ns(&r->sched_hist, 99.9, r->sched.max_ns);
	s->timer_samples = r->timer.count;
	s->timer_mean_ns = r->timer.mean_ns;
	s->timer_sd_ns = lat_stats_sd_ns(&r->timer);
	s->timer_max_ns = r->timer.max_ns;
	s->timer_p50_ns = hist_percentile_ns(&r->timer_hist, 50, r->timer.max_ns);
	s->timer_p90_ns = hist_percentile_ns(&r->timer_hist, 90, r->timer.max_ns);
	s->timer_p99_ns = hist_percentile_ns(&r->timer_hist, 99, r->timer.max_ns);
	s->timer_p999_ns = hist_percentile_ns(&r->timer_hist, 99.9, r->timer.max_ns);
	s->task_run_ns = r->task_wall_ns;
	s->interval_us = r->interval_us;
	intervals_summarize(r, s);
}
