/* libFuzzer harness: a task file (taskfile/model.h tf_parse) from arbitrary bytes.  Either it
 * compiles into a model whose every index is in range (threads, phases, steps, resources) and
 * whose canonical JSON can be written, or it is refused with one non-empty line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "taskfile/model.h"

static void check_thread(const struct tf_task *t, const struct tf_thread *th)
{
	if (th->n_phases == 0 || th->first_phase + th->n_phases > t->n_phases || th->once_phases > th->n_phases)
		abort();
	for (uint32_t p = th->first_phase; p < th->first_phase + th->n_phases; p++) {
		const struct tf_phase *ph = &t->phases[p];
		if (ph->first + ph->n > t->n_steps || ph->loops == 0 || ph->loops < -1)
			abort();
		for (uint32_t s = ph->first; s < ph->first + ph->n; s++) {
			const struct tf_step *st = &t->steps[s];
			bool uses_res = st->op >= TF_TIMER && st->op != TF_WAKE && st->op != TF_JOIN;
			if (st->op >= TF_OPS || (uses_res && st->res >= t->n_resources) ||
			    (st->op == TF_WAKE && st->thread >= t->n_threads) || (st->op == TF_JOIN && st->count == 0) ||
			    st->us > TF_TIME_MAX_US || st->us_max > TF_TIME_MAX_US)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tf_task t;
	char err[1024];
	if (tf_parse("fuzz.json", (const char *)data, size, &t, err, sizeof(err)) != 0) {
		if (strlen(err) == 0 || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (t.n_threads == 0 || t.n_threads > TF_MAX_THREADS || t.root >= t.n_threads || t.n_steps > TF_MAX_STEPS ||
	    t.n_resources > TF_MAX_RESOURCES || t.period_us < TF_PERIOD_MIN_US || t.deadline_us > t.period_us ||
	    t.deadline_us == 0)
		abort();
	for (unsigned i = 0; i < t.n_threads; i++)
		check_thread(&t, &t.threads[i]);
	char *json = tf_canonical_json(&t);
	if (!json)
		abort();
	free(json);
	return 0;
}
