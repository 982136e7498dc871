/* When a pair has run long enough: the adaptive window of a run without -t.  The bench looks
 * at its figures at a few checkpoints declared before it starts (the looks: the minimum, then
 * STOP_LOOK_GROWTH times the one before, then the maximum) and stops at the first look at which
 * every judged figure's interval is within its precision target, or at which the ones still
 * unknown could not be known by the last look (futility), or at the last look.  Each look's
 * intervals are at the share of CI_ALPHA that Lan & DeMets' O'Brien-Fleming-type function
 * spends there (stop_look_alpha), so that the intervals of every look hold together and,
 * where each is valid, stopping early does not make them lie about the run's own figures.  The shape of a group sequential design with a
 * fixed-width stopping rule (Chow & Robbins, "On the asymptotic theory of fixed-width
 * sequential confidence intervals for the mean", Ann. Math. Statist. 36 (1965) 457-462),
 * looks pre-declared and a futility boundary as in Jennison & Turnbull, "Group Sequential
 * Methods with Applications to Clinical Trials" (2000), chapters 9 and 10.
 *
 * Futility: a figure's half-width shrinks as 1 / sqrt(n) for batch means and for the order
 * statistics' ranks, and n grows in proportion to time, so a figure of half-width h after t
 * seconds would reach the tolerance e after about t (h / e)^2 seconds, h taken to the last
 * look's level (the early looks' levels are far stricter: 1 - 1.1e-11 at 5 s of 60).  A percentile open above
 * has no half-width to project (its provisional upper end, the sample's max, grows with the
 * sample): it is projected by its count alone, to t n_needed / n with n_needed the samples a
 * closed bound needs at the last look's level, and its half-width is not a rate for the
 * next look.  The square root is
 * the best case: a heavy tail (a p99 that sits where a rare cluster of long latencies begins,
 * a mean carried by a few of them) narrows more slowly, and on a shared host the projection
 * from the first look was about twice too early (bench/RESULTS.md, "Verdicts").  From the
 * second look on, the projection therefore uses the power at which the half-width did
 * narrow between the last two looks, h ~ t^-b with b within [STOP_SHRINK_MIN,
 * STOP_SHRINK_MAX]: t (h / e)^(1 / b).  When that is past the last look for every figure still
 * unknown, waiting is futile.  At the first look the rule errs towards waiting; at the later
 * ones it follows what the pair showed. */
#ifndef IB_STOPRULE_H
#define IB_STOPRULE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "engine/intervals.h"

/* How precisely each judged figure must be known: its interval within the figure +- the
 * target (both ends).  Latencies relative to the figure, in % (with an absolute floor,
 * STOP_LATENCY_FLOOR_NS), shares in percentage points. */
struct precision {
	double latency_mean_pct;   /* default 10 */
	double latency_p99_pct;    /* default 20 */
	double desired_cpu_pt;     /* default 2 */
	double deadlines_met_pt;   /* default 2 */
};

#define PRECISION_DEFAULT ((struct precision){ 10, 20, 2, 2 })

/* A latency interval within +- this many ns of its figure is known whatever the percentage:
 * below it differences are the timer's and the machine's noise, not the scheduler's
 * (cyclictest's own resolution is a microsecond; a wake-up through an idle exit costs tens). */
#define STOP_LATENCY_FLOOR_NS 20000u

/* The default least and most a pair runs without -t, seconds (--min-time, --max-time). */
#define STOP_MIN_S_DEFAULT 5u
#define STOP_MAX_S_DEFAULT 60u
#define STOP_MAX_LOOKS 8
/* Each look after the first comes this many times later than the one before (5, 20, 60 s by
 * default). */
#define STOP_LOOK_GROWTH 4
/* The powers of time a half-width is projected to narrow at (see above): at most the square
 * root of the theory, at least a tenth power (a figure that did not narrow between two looks
 * waits only when it is within a few % of its tolerance: (1.1)^10 = 2.6 times the time). */
#define STOP_SHRINK_MAX 0.5
#define STOP_SHRINK_MIN 0.1

/* The looks of one pair, from the start of its task. */
struct stop_plan {
	unsigned looks;                   /* 1..STOP_MAX_LOOKS */
	uint64_t at_ns[STOP_MAX_LOOKS];   /* when each look is taken, increasing */
	struct precision target;
	bool has_deadlines;               /* the task has deadlines: % met is judged */
};

/* Why a pair's window ended. */
enum stop_reason {
	STOP_FIXED,        /* -t: the fixed window ran out */
	STOP_KNOWN,        /* every judged figure was known at a look */
	STOP_FUTILE,       /* the figures still unknown at a look would not be known by the last */
	STOP_MAX_TIME,     /* the last look came with a figure not yet known */
	STOP_INTERRUPTED,  /* a signal cut it short */
};

/* One look's judgement of a pair's figures. */
struct stop_verdict {
	uint32_t unknown;    /* bit f set: judged figure f (enum sim_judged) not known */
	uint32_t futile;     /* of those, the ones that would not be known by the last look */
	/* For each unknown figure, the projected seconds from the task's start at which it
	 * would be known (INFINITY: no sample to project from); 0 for a known one. */
	float needed_s[SIM_JUDGED];
	/* Each figure's half-width at this look (the larger side of its interval about it, in
	 * its unit: ns or percentage points; 0 without an interval or with one open above), taken
	 * to the last look's level by the ratio of the quantiles it stands on: the next look's
	 * rate. */
	float half[SIM_JUDGED];
};

/* How a pair's window ended, as the bench process reports it. */
struct pair_stop {
	enum stop_reason reason;
	unsigned look;       /* the look that stopped it, 1-based; 0 for a fixed window */
	unsigned looks;      /* the looks planned (0 for a fixed window) */
	float last_look_s;   /* when the last look was planned, seconds from the task's start */
	struct stop_verdict verdict; /* the judgement at the last look taken (zero: none) */
};

/* Plans the looks of a task whose cycle lasts cycle_ns (0: none), for a window of at least
 * min_ns and at most max_ns (min_ns <= max_ns): the first at max(min_ns, cycle_ns) rounded up to
 * a whole number of cycles, each next one STOP_LOOK_GROWTH times the one before (rounded to
 * whole cycles), the last at max_ns rounded down to whole cycles (when that is past the
 * first); at most STOP_MAX_LOOKS, the last always the maximum. */
void stop_plan_init(struct stop_plan *sp, uint64_t min_ns, uint64_t max_ns, uint64_t cycle_ns,
		    const struct precision *target, bool has_deadlines);

/* The two-sided error probability of look k's intervals (0-based): alpha(t_k) - alpha(t_{k-1})
 * with alpha(t) Lan & DeMets' O'Brien-Fleming-type spending of CI_ALPHA (lib/interval.h
 * obf_spent_alpha) and t_k = at_ns[k] / at_ns[looks - 1], the look's time over the last's;
 * CI_ALPHA with one look.  The looks' shares add up to CI_ALPHA. */
double stop_look_alpha(const struct stop_plan *sp, unsigned k);

/* The error probability of the intervals a pair's result reports, st the way its window ended:
 * CI_ALPHA without a plan (sp NULL: a fixed window); the stopping look's share
 * (stop_look_alpha); for a window a signal cut short between looks, the least share of any
 * look. */
double stop_result_alpha(const struct stop_plan *sp, const struct pair_stop *st);

/* Judges iv (the intervals at this look's level: sim_intervals with stop_look_alpha) at look
 * `look` (0-based) into *v: which judged figures are not yet known to sp's precision, when
 * each would be (from prev, the verdict of look - 1, the rate their intervals narrowed at;
 * NULL at the first look: the square root), and which of those would not be by the last
 * look.  A figure without an interval, or a percentile whose interval is open above, is not
 * known; % deadlines met is not judged for a task without deadlines. */
void stop_judge(const struct stop_plan *sp, unsigned look, const struct sim_interval iv[SIM_JUDGED],
		const struct stop_verdict *prev, struct stop_verdict *v);

/* Whether the pair stops at look `look` (0-based) judged v, and why (*reason): every figure
 * known, every unknown one futile, or the last look. */
bool stop_now(const struct stop_plan *sp, unsigned look, const struct stop_verdict *v, enum stop_reason *reason);

/* The reason's name as the JSON writes it: "time", "known", "futile", "max-time",
 * "interrupted". */
const char *stop_reason_name(enum stop_reason r);

/* Parses --precision's SPEC into *p (which holds the values to change): comma-separated
 * FIGURE=VALUE items, FIGURE one of mean, p99 (in %, "%" optional), cpu, met (in
 * percentage points), each VALUE above 0 and at most 100.  Returns 0, or -1 with err naming
 * the bad item ("item 'x=1' in"; PRECISION_ACCEPTED says what is accepted). */
#define PRECISION_ACCEPTED "FIGURE=VALUE,... with FIGURE mean or p99 (VALUE in % of the figure) or cpu or met " \
	"(VALUE in percentage points), VALUE above 0 and at most 100"
int precision_parse(const char *spec, struct precision *p, char *err, size_t errlen);

#endif
