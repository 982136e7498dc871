/* What the result set (tools/resultset.c) shares with its two readers, the JSON reader
 * (tools/result_json.c) and the logfile reader (tools/result_log.c), and the JSON reader with
 * the check of what plot reads (tools/plot_input.c).  Not for other callers: they use
 * tools/resultset.h. */
#ifndef IB_RESULT_READ_H
#define IB_RESULT_READ_H
#include <jansson.h>
#include "tools/resultset.h"

/* Writes the message fmt into err (errlen bytes).  Returns -1. */
int rs_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The pair key of a task with its mode words (a printf format and its args for "%.*s") and
 * the loads' setting words ln bytes of lw: "Audio nice -10", "Audio nice -10 (loads nice 19)". */
void rs_pair_key(char *buf, size_t len, const char *fmt, int n, const char *sim, int ln, const char *lw);

/* The pair (raw_sim, raw_load) of rs, created when new; the names are kept escaped
 * (text_escape_line), so no input can put a control character or escape sequence on the
 * terminal.  NULL with err set on an empty or too long name, or beyond RS_MAX_PAIRS. */
struct rs_pair *rs_pair_get(struct result_set *rs, const char *raw_sim, const char *raw_load, char *err,
			    size_t errlen);

/* Appends repeat v to pair p of rs (and marks rs->has).  Returns 0, or -1 with err set beyond
 * RS_MAX_REPEATS or when out of memory. */
int rs_pair_add(struct result_set *rs, struct rs_pair *p, const struct rs_values *v, char *err, size_t errlen);

/* Counts a failed repeat of p; the first one's reason why is kept (escaped). */
void rs_pair_failed(struct rs_pair *p, const char *why);

/* Notes a disturbed repeat of p: other processes took outside_pct % of the run's CPUs, steal_pct
 * % of it steal (NaN: not said); the worst repeat's figures are kept. */
void rs_pair_disturbed(struct rs_pair *p, double outside_pct, double steal_pct);

/* Sets every figure and interval of v to NaN (not in the result) and no_samples false. */
void rs_values_init(struct rs_values *v);

/* A repeat that took no latency sample (rs_values.no_samples) met no deadline: its % deadlines
 * met is 0 where the figure is carried. */
void rs_starved_met(struct rs_values *v);

/* The JSON reader: buf[0..len) parsed and read into rs.  Returns 0, or -1 with err set. */
int rs_parse_json(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen);

/* The logfile reader: buf[0..len) read into rs (the last run of several).  Returns 0, or -1
 * with err set. */
int rs_parse_logfile(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen);

/* buf[0..len) parsed as JSON, duplicate keys refused.  Returns the document, or NULL with err
 * set ("invalid JSON at line L column C: ..."). */
json_t *rs_load_json(const char *buf, size_t len, char *err, size_t errlen);

/* The parsed document doc read into rs, validating what compare reads.  Returns 0, or -1 with
 * err set. */
int rs_parse_json_doc(const json_t *doc, struct result_set *rs, char *err, size_t errlen);

/* Member key of o when it is a string, else NULL. */
const char *rs_json_str(const json_t *o, const char *key);

#endif
