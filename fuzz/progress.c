/* progress.c — the progress line of long commands (progress.h): redrawn on a
 * terminal, plain periodic lines elsewhere. */
#include "fuzz/progress.h"

#include <stdarg.h>
#include <time.h>
#include <unistd.h>

enum { LINE_MAX_BYTES = 512 };
#define TTY_EVERY 0.25 /* seconds between redraws */

double progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init(Progress *p, FILE *out, ProgressMode mode, double interval)
{
    *p = (Progress){.out = mode == PROGRESS_NONE ? NULL : out, .interval = interval > 0 ? interval : PROGRESS_INTERVAL,
                    .start = progress_now(), .last = -1};
    p->tty = p->out && (mode == PROGRESS_TTY || (mode == PROGRESS_AUTO && isatty(fileno(out))));
}

double progress_elapsed(const Progress *p) { return progress_now() - p->start; }

void progress_draw(FILE *out, bool tty, const char *line)
{
    if (tty)
        fprintf(out, "\r\033[K%s", line);
    else
        fprintf(out, "%s\n", line);
    fflush(out);
}

void progress_update(Progress *p, bool force, const char *fmt, ...)
{
    if (!p->out)
        return;
    double t = progress_elapsed(p), every = p->tty ? TTY_EVERY : p->interval;
    if (!force && (p->last < 0 ? t < every : t - p->last < every))
        return;
    p->last = t;
    char line[LINE_MAX_BYTES];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    progress_draw(p->out, p->tty, line);
    p->drawn = p->tty;
}

void progress_clear(Progress *p)
{
    if (!p->drawn)
        return;
    fputs("\r\033[K", p->out);
    fflush(p->out);
    p->drawn = false;
}

void progress_done(Progress *p) { progress_clear(p); }
