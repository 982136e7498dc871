/* What the plot files share (tools/plot.c, plot_tail.c, plot_compare.c; tools/plot_fig.c): a
 * figure's gnuplot script built in memory and drawn into a file through lib/safefile, the
 * quoting of text from a result, the result's fields as plot reads them, and the series'
 * colours. */
#ifndef IB_PLOT_FIG_H
#define IB_PLOT_FIG_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include "tools/compare.h"

/* Bounds on what one result or timeline can make plot do (the man page's plot section). */
#define PLOT_MAX_SIMS 64             /* simulations drawn, two figures each */
#define PLOT_MAX_LOADS 64            /* loads (series) in a simulation's figures */
#define PLOT_MAX_SWEEPS 64           /* sweep figures */
#define PLOT_MAX_PAIRS 256           /* timeline figures */

/* What plot is asked to do. */
struct plot_job {
	const char *result, *timeline, *out_dir;
	const char *result_new;        /* plot OLD NEW: NEW (result is OLD); else NULL */
	unsigned tl_record_bytes;     /* the timeline's records' size, from its header (tl_open) */
	const char *who, *out_opt;     /* "interbench plot", "--out": for messages */
	const char *format;            /* "png" or "svg" */
	FILE *out, *err;
	unsigned made, failed;         /* pictures drawn, figures that failed */
};

/* A figure's gnuplot script, built in memory: the preamble and the data (datablocks $d0, $d1,
 * ...) in head, the plot command in plot, appended to head when the figure is complete (a
 * datablock must be defined before it is plotted). */
struct figure {
	char stem[192];               /* the file name without its extension */
	FILE *head, *plot;            /* open_memstream(3) */
	char *hbuf, *pbuf;
	size_t hlen, plen;
	unsigned blocks;              /* datablocks begun */
};

/* Starts figure f (its stem already set) titled title: the streams opened, the preamble
 * written (title NULL: by the caller, into f->plot, after the data).  Returns false, the
 * figure counted failed, when memory runs out. */
bool fig_begin(struct plot_job *j, struct figure *f, const char *title);

/* Completes figure f: with something to draw, its script saved beside the picture as
 * DIR/STEM.gp and drawn into DIR/STEM.FORMAT by gnuplot; else dropped.  Frees f. */
void fig_end(struct plot_job *j, struct figure *f, bool something);

/* Starts datablock $dN of f; returns N.  Its lines must start with a number, '"' or '#'. */
unsigned block_begin(struct figure *f);
void block_end(struct figure *f);

/* The preamble of a figure: terminal, output file and title (any text); gp_head_size of a
 * picture width by height pixels (SVG: points), gp_head of 900 by 560. */
void gp_head(FILE *g, const struct plot_job *j, const char *stem, const char *title);
void gp_head_size(FILE *g, const struct plot_job *j, const char *stem, const char *title, unsigned width,
		  unsigned height);

/* text as a single-quoted gnuplot string literal in buf (len >= 3), which it returns: no
 * backquote or macro expanded, control characters as '?', cut to fit. */
const char *gp_str(const char *text, char *buf, size_t len);

/* Makes name safe as a double-quoted string or a comment in a datablock, in place. */
void plot_dat_text(char *name);

/* Says that what of figure stem was cut to max of n. */
void plot_too_many(const struct plot_job *j, const char *stem, const char *what, unsigned long n, unsigned max);

/* o's string k, or "" (no string); o's number k, or -1 (none). */
const char *plot_jstr(const json_t *o, const char *k);
double plot_jnum(const json_t *o, const char *k);

/* Whether result r is a measured result of simulation sim (first repeat only). */
bool plot_of_sim(const json_t *r, const char *sim);

/* The label of a result's load with its settings ("Burn", "Burn / task nice 19"), safe in a
 * datablock. */
void plot_load_label(const json_t *r, char *buf, size_t len);

/* Whether gnuplot can be run; says what to install when not. */
bool plot_have_gnuplot(const struct plot_job *j);

/* Makes the output directory when missing and checks that no other user controls it
 * (safe_dir_check).  Returns 0, or -1 having said why. */
int plot_out_dir_ready(const struct plot_job *j);

/* The colour of line series i (a curve, its marks) from Okabe and Ito's palette for readers
 * with every kind of colour vision (Okabe & Ito, "Color Universal Design (CUD): how to make
 * figures and presentations that are friendly to colorblind people", 2008,
 * https://jfly.uni-koeln.de/color/), as "#RRGGBB": 8 colours, then again. */
const char *plot_line_colour(unsigned i);

/* The look of line series i as gnuplot clauses, "lc rgb '#0072B2' dt 1": its colour
 * (plot_line_colour) and a dash type that changes with every series too (1 solid to 5), so
 * no two of the first 40 series look alike, and series 8 apart differ by their dash. */
void plot_line_style(FILE *g, unsigned i);

/* The fill of part k of a stacked bar, as gnuplot clauses: the 12 colours of ColorBrewer's
 * qualitative "Paired" scheme (Harrower & Brewer, "ColorBrewer.org: an online tool for
 * selecting colour schemes for maps", The Cartographic Journal 40 (2003) 27-37), solid, for
 * parts 0 to 11, a dark grey hatched for part 12 (the causes' last, unexplained: what is not
 * known looks unlike every named part), and past it the Paired colours again, hatched. */
void plot_fill_style(FILE *g, unsigned k);

/* latency-SIM and timer-SIM, each load's scheduling and timer latency as a complementary CDF
 * on log axes (its sub-runs pooled), p99 and max marked, and percentiles-SIM, of simulation
 * sim of results (tools/plot_tail.c). */
void plot_tails(struct plot_job *j, const json_t *results, const char *sim);

/* The figure stem: the scheduling latency tails of pair (key, load) (result_set_json_key) in
 * docs[0] and docs[1], named names[0] and names[1]; nothing when either lacks it. */
void plot_tail_overlay(struct plot_job *j, const json_t *docs[2], const char *names[2], const char *key,
		       const char *load, const char *stem);

/* The pictures of a comparison (plot_compare, tools/plot.h) drawn by job j: its format,
 * directory and messages (tools/plot_compare.c).  Returns as plot_compare does. */
int plot_compare_job(struct plot_job *j, const char *const paths[2], const struct cmp_flagged *flagged,
		     const struct cmp_answers *ans);

#endif
