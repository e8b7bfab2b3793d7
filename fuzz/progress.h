/* progress.h — the progress line of long commands (the status line of `circ fuzz`,
 * and `circ check` of many files, `reduce`, `tv`, `gen --stats`): on a terminal one
 * line redrawn in place, at most four times a second; otherwise (a pipe, a file, a CI
 * log) a plain line every interval seconds.  Lines go to a stream of their own
 * (stderr), so a command's results on stdout stay clean; on a terminal the line is
 * erased (progress_clear) before anything else is printed there. */
#ifndef CIRC_PROGRESS_H
#define CIRC_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

typedef enum { PROGRESS_AUTO, PROGRESS_TTY, PROGRESS_PLAIN, PROGRESS_NONE } ProgressMode;

typedef struct {
    FILE *out;       /* NULL: no progress */
    bool tty;        /* redraw one line in place */
    double interval; /* seconds between plain lines */
    double start;    /* progress_now() at progress_init */
    double last;     /* when the last line was shown (seconds after start; < 0: never) */
    bool drawn;      /* a redrawn line is showing */
} Progress;

/* default seconds between plain lines (`circ fuzz --status-interval`'s default) */
#define PROGRESS_INTERVAL 5.0

/* out may be NULL (quiet); PROGRESS_AUTO redraws when out is a terminal; interval 0:
 * PROGRESS_INTERVAL */
void progress_init(Progress *p, FILE *out, ProgressMode mode, double interval);
/* the line (printf-style) when one is due, or now with force */
void progress_update(Progress *p, bool force, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* erase a redrawn line (before printing other lines to the same terminal) */
void progress_clear(Progress *p);
/* the end: a redrawn line is erased; plain lines stay as they are */
void progress_done(Progress *p);
/* seconds since progress_init */
double progress_elapsed(const Progress *p);
/* monotonic seconds */
double progress_now(void);

/* the drawing itself, for status lines timed elsewhere (the campaign's): on a
 * terminal "\r\033[K" and line without a newline, else line and a newline; flushed */
void progress_draw(FILE *out, bool tty, const char *line);

#endif
