/* ProAudio: the musician's case from Benno Senoner's latencytest
 * (http://www.gardena.net/benno/linux/audio/): an audio thread woken every fragment of --frames at --rate (default
 * 128 frames at 48 kHz: 2.667 ms, rounded to whole microseconds), spending --dsp-load percent of
 * it computing (latencytest's default 80), with --periods fragments of buffering (default 2):
 * a fragment completed later than (periods - 1) fragments after its nominal start is an
 * audible click, an xrun.  It runs SCHED_FIFO when allowed, as JACK's and PipeWire's audio
 * threads do, and at normal priority with a note otherwise. */
#include <stddef.h>
#include <stdio.h>
#include "workloads/proaudio_buffer.h"
#include "workloads/workload.h"

struct proaudio_opts {
	unsigned frames;     /* --frames: frames per fragment (period) */
	unsigned rate_hz;    /* --rate: sample rate, Hz */
	unsigned dsp_pct;    /* --dsp-load: CPU per fragment, % */
	unsigned periods;    /* --periods: fragments of buffering */
};

static const struct optspec proaudio_opt_frames = {
	.long_name = "frames", .type = OPTSPEC_UINT, .metavar = "N",
	.help = "ProAudio: frames per period, 16..8192 (default: 128)", .min = 16, .max = 8192, .def = 128,
	.json_key = "proaudio_frames", .section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct proaudio_opts, frames),
};
static const struct optspec proaudio_opt_rate = {
	.long_name = "rate", .type = OPTSPEC_UINT, .metavar = "HZ",
	.help = "ProAudio: sample rate, 8000..384000 Hz (default: 48000)", .unit = "Hz",
	.min = 8000, .max = 384000, .def = 48000, .json_key = "proaudio_rate_hz",
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct proaudio_opts, rate_hz),
};
static const struct optspec proaudio_opt_dsp = {
	.long_name = "dsp-load", .type = OPTSPEC_UINT, .metavar = "PCT",
	.help = "ProAudio: CPU per period, 1..100% (default: 80)", .unit = "percent", .min = 1, .max = 100,
	.def = 80, .json_key = "proaudio_dsp_load_pct", .section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct proaudio_opts, dsp_pct),
};
static const struct optspec proaudio_opt_periods = {
	.long_name = "periods", .type = OPTSPEC_UINT, .metavar = "N",
	.help = "ProAudio: periods of buffering, 2..16 (default: 2)", .min = 2, .max = 16, .def = 2,
	.json_key = "proaudio_periods", .section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct proaudio_opts, periods),
};

static void proaudio_params(const void *opts, struct sim_spec *spec)
{
	const struct proaudio_opts *o = opts;
	spec->interval_us = ((uint64_t)o->frames * 1000000 + o->rate_hz / 2) / o->rate_hz;
	spec->cpu_pct = o->dsp_pct;
	spec->buffer_periods = o->periods;
}

/* "64 frames at 48000 Hz": what the period is made of. */
static void proaudio_pattern(const struct sim_spec *spec, char *buf, size_t len)
{
	const struct proaudio_opts *o = spec->opts;
	snprintf(buf, len, "%u frames at %u Hz", o->frames, o->rate_hz);
}

static const struct sim_desc proaudio_sim = { .has_deadlines = true, .fixed_work = true,
					      .pattern_note = proaudio_pattern, .measures = &proaudio_buffer_measures };

const struct workload wl_proaudio = {
	.name = "ProAudio",
	.help = "--frames at --rate (2.667 ms), --dsp-load 80% CPU, xruns",
	.flags = WL_BENCH_NORMAL | WL_BENCH_RT | WL_PREFERS_FIFO,
	.options = (const struct optspec *const[]){ &proaudio_opt_frames, &proaudio_opt_rate, &proaudio_opt_dsp,
						   &proaudio_opt_periods, NULL },
	.cfg_size = sizeof(struct proaudio_opts),
	.sim = &proaudio_sim,
	.sim_params = proaudio_params,
};
