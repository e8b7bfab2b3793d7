/* report_svg.c — the report's charts as inline SVG (fuzz/report_internal.h): line
 * charts and stacked shares over the campaign's time, horizontal bars.  Every chart
 * is an <svg class="chart" data-chart=NAME> in a fixed coordinate system (scaled by
 * the page); the drawn data are the elements of class "data", axes and legends are
 * not.  Coordinates are finite numbers whatever the input (no NaN reaches an
 * attribute). */
#include "fuzz/report_internal.h"

#include <math.h>
#include <string.h>

enum { W = 640, H = 250, LEFT = 58, RIGHT = 14, TOP = 30, BOTTOM = 34 };

const char *svg_color(uint32_t k)
{
    static const char *const palette[] = {"#3b82f6", "#f59e0b", "#8b5cf6", "#ef4444", "#10b981",
                                          "#64748b", "#ec4899", "#14b8a6", "#a16207"};
    return palette[k % (sizeof palette / sizeof palette[0])];
}

/* the smallest 1, 2 or 5 times a power of ten at least v (1 for v <= 0) */
static double nice_ceiling(double v)
{
    if (!(v > 0) || !isfinite(v))
        return 1;
    double p = pow(10, floor(log10(v)));
    for (int k = 0; k < 3; k++) {
        double step = (k == 0 ? 1 : k == 1 ? 2 : 5) * p;
        if (step >= v * (1 - 1e-12))
            return step;
    }
    return 10 * p;
}

/* seconds between the ticks of a time axis spanning span seconds: at most 6 steps
 * of a whole number of seconds, minutes or hours */
static double time_step(double span)
{
    static const double steps[] = {1,   2,   5,    10,   15,   30,   60,    120,   300,
                                   600, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
        if (span / steps[k] <= 6)
            return steps[k];
    return nice_ceiling(span / 6);
}

/* 950, 1.2k, 3.4M */
static void compact(char *buf, size_t n, double v)
{
    if (v >= 1e6)
        snprintf(buf, n, "%.1fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, n, "%.0fk", v / 1e3);
    else if (v >= 1e3)
        snprintf(buf, n, "%.1fk", v / 1e3);
    else if (v == floor(v))
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.2g", v);
}

static double finite_or_zero(double v) { return isfinite(v) ? v : 0; }

typedef struct {
    double xmax, ymax, ystep; /* ystep: between the y axis' grid lines */
} Scale;

static double px(const Scale *s, double x) { return LEFT + finite_or_zero(x / s->xmax) * (W - LEFT - RIGHT); }
static double py(const Scale *s, double y) { return H - BOTTOM - finite_or_zero(y / s->ymax) * (H - TOP - BOTTOM); }

static void open_chart(FILE *f, const char *name, int height)
{
    fprintf(f, "<svg class=\"chart\" data-chart=\"%s\" viewBox=\"0 0 %d %d\" role=\"img\" "
               "xmlns=\"http://www.w3.org/2000/svg\">\n",
            name, W, height);
}

/* grid lines and tick labels of both axes, the y axis' unit at the top left */
static void draw_axes(FILE *f, const Scale *s, const char *y_label, bool percent)
{
    fprintf(f, "<text class=\"unit\" x=\"%d\" y=\"16\">%s</text>\n", LEFT - 50, y_label);
    for (int k = 0; k * s->ystep <= s->ymax * (1 + 1e-9); k++) {
        double v = k * s->ystep;
        char label[32];
        if (percent)
            snprintf(label, sizeof label, "%.0f%%", 100 * v);
        else
            compact(label, sizeof label, v);
        fprintf(f, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
                   "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                LEFT, W - RIGHT, py(s, v), py(s, v), LEFT - 6, py(s, v) + 4, label);
    }
    double step = time_step(s->xmax);
    for (double t = 0; t <= s->xmax * (1 + 1e-9); t += step) {
        char label[32];
        report_duration(label, sizeof label, t);
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", px(s, t),
                H - BOTTOM + 18, label);
    }
    fprintf(f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", LEFT, W - RIGHT, H - BOTTOM,
            H - BOTTOM);
}

static void draw_legend(FILE *f, const char *const *names, uint32_t n)
{
    double x = W - RIGHT;
    for (uint32_t k = n; k-- > 0;) {
        x -= 12 + 7.0 * (double)strlen(names[k]);
        fprintf(f, "<rect class=\"key\" x=\"%.1f\" y=\"7\" width=\"9\" height=\"9\" fill=\"%s\"/>"
                   "<text class=\"tick\" x=\"%.1f\" y=\"15\">%s</text>\n",
                x, svg_color(k), x + 12, names[k]);
        x -= 8;
    }
}

/* a time axis to the last point, a y axis to ymax (at least 1) in at most 5 nice steps */
static Scale time_scale(const ChartAxes *a, double ymax)
{
    double step = nice_ceiling(ymax / 5);
    Scale s = {.xmax = a->n ? a->x[a->n - 1] : 0, .ystep = step, .ymax = step * ceil(ymax / step - 1e-9)};
    if (!(s.ymax > 0))
        s.ymax = s.ystep = 1;
    if (!(s.xmax > 0))
        s.xmax = 1;
    return s;
}

void svg_line_chart(FILE *f, const ChartAxes *a, const double *const *series, const char *const *names,
                    uint32_t nseries)
{
    double ymax = 0;
    for (uint32_t k = 0; k < nseries; k++)
        for (uint32_t i = 0; i < a->n; i++)
            ymax = fmax(ymax, finite_or_zero(series[k][i]));
    Scale s = time_scale(a, ymax);
    open_chart(f, a->name, H);
    draw_axes(f, &s, a->y_label, false);
    for (uint32_t k = 0; k < nseries; k++) {
        fprintf(f, "<path class=\"data\" data-series=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" d=\"",
                names[k], svg_color(k));
        for (uint32_t i = 0; i < a->n; i++)
            fprintf(f, "%s%.1f %.1f", i ? " L" : "M", px(&s, a->x[i]), py(&s, series[k][i]));
        if (a->n == 1)
            fprintf(f, " h1");
        fputs("\"/>\n", f);
    }
    if (nseries > 1)
        draw_legend(f, names, nseries);
    fputs("</svg>\n", f);
}

/* the band of series k: its top edge left to right, then the lower edge back */
static void stack_band(FILE *f, const ChartAxes *a, const Scale *s, const double *const *series, uint32_t k)
{
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < a->n; j++) {
            uint32_t i = pass ? a->n - 1 - j : j;
            double below = 0;
            for (uint32_t q = 0; q < k; q++)
                below += finite_or_zero(series[q][i]);
            double y = pass ? below : below + finite_or_zero(series[k][i]);
            fprintf(f, "%s%.1f %.1f", pass == 0 && j == 0 ? "M" : " L", px(s, a->x[i]), py(s, y));
        }
    fputs(" Z", f);
}

void svg_stack_chart(FILE *f, const ChartAxes *a, const double *const *series, const char *const *names,
                     uint32_t nseries)
{
    Scale s = time_scale(a, 1);
    s.ystep = 0.25;
    open_chart(f, a->name, H);
    draw_axes(f, &s, a->y_label, true);
    for (uint32_t k = 0; k < nseries && a->n; k++) {
        fprintf(f, "<path class=\"data\" data-series=\"%s\" fill=\"%s\" fill-opacity=\"0.85\" d=\"", names[k],
                svg_color(k));
        stack_band(f, a, &s, series, k);
        fputs("\"/>\n", f);
    }
    draw_legend(f, names, nseries);
    fputs("</svg>\n", f);
}

void svg_bar_chart(FILE *f, const char *name, const char *const *labels, const double *values, uint32_t n,
                   const char *unit)
{
    enum { ROW = 26, LABEL = 120 };
    double vmax = 0, total = 0;
    for (uint32_t i = 0; i < n; i++) {
        vmax = fmax(vmax, finite_or_zero(values[i]));
        total += finite_or_zero(values[i]);
    }
    open_chart(f, name, (int)n * ROW + 12);
    for (uint32_t i = 0; i < n; i++) {
        double v = finite_or_zero(values[i]);
        double w = vmax > 0 ? v / vmax * (W - LABEL - 150) : 0;
        double y = 6 + (double)i * ROW;
        fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>"
                   "<rect class=\"data\" data-value=\"%.3f\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
                   "rx=\"3\" fill=\"%s\"/>"
                   "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%.1f %s (%.0f%%)</text>\n",
                LABEL - 8, y + 14, labels[i], v, LABEL, y, fmax(w, 1), ROW - 8, svg_color(i), LABEL + w + 6,
                y + 14, v, unit, total > 0 ? 100 * v / total : 0.0);
    }
    fputs("</svg>\n", f);
}
